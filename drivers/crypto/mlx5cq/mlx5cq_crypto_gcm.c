/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * AES-GCM as DPDK's crypto/mlx5 does it on ConnectX-7 (23.07 and later,
 * mlx5_crypto_gcm.c): a crypto MMO WQE (struct mlx5_gga_wqe: opcode MMO,
 * opc_mod CRYPTO, gga_ctrl1 the AES_GCM type and the direction, gga_ctrl2
 * the DEK, an opaque holding iv, tag_size and aad_size) on a QP made with
 * qpc_extension.mmo, whose gather is AAD || text (|| tag to decrypt) and
 * scatter AAD || text (|| tag when encrypting). DPDK 22.11's mlx5_prm.h
 * has none of the GCM fields: their places come from 23.11's.
 *
 * An operation takes the slot's WQE set: [NOP or UMR][MMO], the UMR (or
 * NOP) over the whole set but its last WQEBB, where the MMO goes, so a
 * GCM UMR has the KLM room of the set's UMR, BSF and RDMA write together
 * (20 KLMs in a set of 512 bytes).
 * Contiguous (one source segment, the digest right after the text, the
 * AAD right before it or copied into the headroom as
 * mlx5_crypto_gcm_get_op_info() does; out of place one destination
 * segment): the MMO reads the source and writes the source (in place) or
 * the destination. Otherwise (segments, AAD or digest elsewhere) a UMR
 * points the slot's indirect mkey at AAD, the segments and the digest,
 * out of place followed by the destination's (KLMs, no BSF, as
 * mlx5_crypto_gcm_build_umr()), and the MMO, fenced after it, goes
 * through that mkey. crypto/mlx5 posts its UMRs on a second QP ordered
 * with SEND_EN; here they share the operation's QP with a small fence, as
 * the AES-XTS sets do.
 *
 * Limits: plaintext key import only; 12-byte IV; the KLMs of an
 * operation fit the set's room (else INVALID_ARGS).
 */

#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include <infiniband/mlx5dv.h>
#include <mlx5_glue.h>

#include "mlx5cq_crypto.h"

/* 23.11 mlx5_prm.h: crypto_caps bits 0x100.. (byte 0x20), the MMO opc_mod
 * and gga_ctrl1 fields, the DEK purpose, the opaque's size.
 */
#define GCM_CAPS_BYTE 0x20
#define GCM_CAP_MMO_QP 0x80
#define GCM_CAP_256_ENC 0x40
#define GCM_CAP_128_ENC 0x20
#define GCM_CAP_256_DEC 0x10
#define GCM_CAP_128_DEC 0x08
#define GCM_CAP_TAG_128 0x04
#define GCM_CAP_TAG_96 0x02
#define GCM_OPC_MOD_CRYPTO 0x6u
#define GCM_MMO_TYPE 0x3u /* MLX5_ENCRYPTION_TYPE_AES_GCM. */
#define GCM_MMO_TYPE_OFF 24
#define GCM_MMO_OP_OFF 20
#define GCM_KEY_PURPOSE 0x5 /* MLX5_CRYPTO_KEY_PURPOSE_GCM. */
#define GCM_OPAQ 64 /* union mlx5_gga_crypto_opaque. */
#define GCM_MAX_AAD_COPY 64 /* MLX5_CRYPTO_GCM_MAX_AAD. */
#define GCM_KLMS(priv) MLX5CQ_CRYPTO_GCM_KLMS(priv)
/* The vendor syndrome of a wrong tag (the emulated HCA's value: no public
 * source gives the device's; crypto/mlx5 fails every error CQE of an MMO
 * WQE with RTE_CRYPTO_OP_STATUS_ERROR).
 */
#define GCM_VSYND_TAG 0x06

void
mlx5cq_crypto_gcm_probe(struct mlx5cq_crypto_priv *priv, const char *name)
{
	uint32_t in[MLX5_ST_SZ_DW(query_hca_cap_in)] = {0};
	uint32_t out[MLX5_ST_SZ_DW(query_hca_cap_out)] = {0};
	struct rte_cryptodev_capabilities *c = &priv->caps[1];
	const uint8_t *cap;
	uint8_t b;

	priv->gcm = 0;
	if (priv->wrapped)
		return;
	/* mlx5_devx_cmd_query_hca_attr() (23.11): the crypto caps page. */
	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod,
		 MLX5_GET_HCA_CAP_OP_MOD_CRYPTO | MLX5_HCA_CAP_OPMOD_GET_CUR);
	if (mlx5_glue->devx_general_cmd(priv->ctx, in, sizeof(in), out,
					sizeof(out)) != 0 ||
	    MLX5_GET(query_hca_cap_out, out, status) != 0)
		return;
	cap = (const uint8_t *)MLX5_ADDR_OF(query_hca_cap_out, out,
					    capability);
	b = cap[GCM_CAPS_BYTE];
	if (!(b & GCM_CAP_MMO_QP))
		return;
	/* mlx5_crypto_generate_gcm_cap(): a key size needs both ways. */
	priv->gcm_key_min = (b & GCM_CAP_128_ENC) && (b & GCM_CAP_128_DEC) ?
			    16 : 32;
	priv->gcm_key_max = (b & GCM_CAP_256_ENC) && (b & GCM_CAP_256_DEC) ?
			    32 : 16;
	priv->gcm_tag_min = (b & GCM_CAP_TAG_96) ? 12 : 16;
	priv->gcm_tag_max = (b & GCM_CAP_TAG_128) ? 16 : 12;
	if (priv->gcm_key_min > priv->gcm_key_max ||
	    !(b & (GCM_CAP_TAG_96 | GCM_CAP_TAG_128))) {
		CRYPTO_LOG(INFO, "%s: crypto MMO without usable AES-GCM", name);
		return;
	}
	memset(priv->caps, 0, sizeof(priv->caps));
	c->op = RTE_CRYPTO_OP_TYPE_SYMMETRIC;
	c->sym.xform_type = RTE_CRYPTO_SYM_XFORM_AEAD;
	c->sym.aead.algo = RTE_CRYPTO_AEAD_AES_GCM;
	c->sym.aead.block_size = 16;
	c->sym.aead.key_size.min = priv->gcm_key_min;
	c->sym.aead.key_size.max = priv->gcm_key_max;
	c->sym.aead.key_size.increment = priv->gcm_key_min !=
					 priv->gcm_key_max ? 16 : 0;
	c->sym.aead.digest_size.min = priv->gcm_tag_min;
	c->sym.aead.digest_size.max = priv->gcm_tag_max;
	c->sym.aead.digest_size.increment = priv->gcm_tag_min !=
					    priv->gcm_tag_max ? 4 : 0;
	c->sym.aead.aad_size.min = 0;
	c->sym.aead.aad_size.max = UINT16_MAX;
	c->sym.aead.aad_size.increment = 1;
	c->sym.aead.iv_size.min = 12;
	c->sym.aead.iv_size.max = 12;
	c->sym.aead.iv_size.increment = 0;
	priv->caps[2].op = RTE_CRYPTO_OP_TYPE_UNDEFINED;
	priv->gcm = 1;
}

int
mlx5cq_crypto_gcm_session(struct mlx5cq_crypto_priv *priv,
			  const struct rte_crypto_sym_xform *xform,
			  struct mlx5cq_crypto_sess *s)
{
	const struct rte_crypto_aead_xform *a = &xform->aead;
	struct mlx5_devx_dek_attr da;

	if (!priv->gcm) {
		CRYPTO_LOG(ERR, "session: the device has no AES-GCM "
			   "(crypto MMO, plaintext keys)");
		return -ENOTSUP;
	}
	if (xform->next != NULL || a->algo != RTE_CRYPTO_AEAD_AES_GCM) {
		CRYPTO_LOG(ERR, "session: AEAD: AES-GCM alone only");
		return -ENOTSUP;
	}
	if ((a->op != RTE_CRYPTO_AEAD_OP_ENCRYPT &&
	     a->op != RTE_CRYPTO_AEAD_OP_DECRYPT) ||
	    (a->key.length != 16 && a->key.length != 32) ||
	    a->key.length < priv->gcm_key_min ||
	    a->key.length > priv->gcm_key_max || a->iv.length != 12 ||
	    (a->digest_length != 12 && a->digest_length != 16) ||
	    a->digest_length < priv->gcm_tag_min ||
	    a->digest_length > priv->gcm_tag_max || a->key.data == NULL) {
		CRYPTO_LOG(ERR, "session: AES-GCM op %d key %u IV %u digest "
			   "%u bytes refused (keys %u..%u, IV 12, digest "
			   "%u..%u)", a->op, a->key.length, a->iv.length,
			   a->digest_length, priv->gcm_key_min,
			   priv->gcm_key_max, priv->gcm_tag_min,
			   priv->gcm_tag_max);
		return -EINVAL;
	}
	/* mlx5_crypto_dek_fill_gcm_attr(): a 128-bit key at byte 16. */
	memset(&da, 0, sizeof(da));
	da.key_size = a->key.length == 32 ? MLX5_CRYPTO_KEY_SIZE_256b :
					    MLX5_CRYPTO_KEY_SIZE_128b;
	da.key_purpose = GCM_KEY_PURPOSE;
	da.pd = priv->pdn;
	memcpy(da.key + (a->key.length == 16 ? 16 : 0), a->key.data,
	       a->key.length);
	memset(s, 0, sizeof(*s));
	s->gcm_dek = mlx5_devx_cmd_create_dek_obj(priv->ctx, &da);
	memset(&da, 0, sizeof(da));
	if (s->gcm_dek == NULL) {
		if (rte_errno == 0)
			rte_errno = EIO;
		CRYPTO_LOG(ERR, "session: GCM DEK refused: %s",
			   rte_strerror(rte_errno));
		return -rte_errno;
	}
	s->gcm = 1;
	s->gcm_enc = a->op == RTE_CRYPTO_AEAD_OP_ENCRYPT;
	s->mmo_ctrl = rte_cpu_to_be_32(GCM_MMO_TYPE << GCM_MMO_TYPE_OFF |
				       (uint32_t)!s->gcm_enc <<
				       GCM_MMO_OP_OFF);
	s->dek_id_be = rte_cpu_to_be_32(s->gcm_dek->id & 0xffffff);
	s->aad_len = a->aad_length;
	s->tag_len = a->digest_length;
	s->iv_offset = a->iv.offset;
	return 0;
}

void
mlx5cq_crypto_gcm_session_clear(struct mlx5cq_crypto_sess *s)
{
	if (s->gcm_dek != NULL && mlx5_devx_cmd_destroy(s->gcm_dek) != 0)
		CRYPTO_LOG(ERR, "session: GCM DEK release failed");
	memset(s, 0, sizeof(*s));
}

int
mlx5cq_crypto_gcm_qp_init(struct mlx5cq_crypto_qp *qp, int socket)
{
	struct mlx5cq_crypto_priv *priv = qp->priv;
	size_t len = (size_t)qp->entries_n * GCM_OPAQ;

	if (!priv->gcm)
		return 0;
	qp->slot_gcm = rte_zmalloc_socket("crypto_mlx5cq_gcm_slots",
					  qp->entries_n, 0, socket);
	qp->opaq = rte_zmalloc_socket("crypto_mlx5cq_gcm_opaque", len,
				      GCM_OPAQ, socket);
	if (qp->slot_gcm == NULL || qp->opaq == NULL) {
		CRYPTO_LOG(ERR, "qp %u: no memory for the GCM opaques",
			   qp->qp_id);
		rte_errno = ENOMEM;
		return -1;
	}
	qp->opaq_mr = mlx5_glue->reg_mr(priv->pd, qp->opaq, len,
					IBV_ACCESS_LOCAL_WRITE);
	if (qp->opaq_mr == NULL) {
		rte_errno = errno ? errno : ENOMEM;
		CRYPTO_LOG(ERR, "qp %u: GCM opaque registration: %s",
			   qp->qp_id, rte_strerror(rte_errno));
		return -1;
	}
	return 0;
}

void
mlx5cq_crypto_gcm_qp_free(struct mlx5cq_crypto_qp *qp)
{
	if (qp->opaq_mr != NULL && mlx5_glue->dereg_mr(qp->opaq_mr) != 0)
		CRYPTO_LOG(ERR, "qp %u: GCM opaque deregistration failed",
			   qp->qp_id);
	qp->opaq_mr = NULL;
	rte_free(qp->opaq);
	rte_free(qp->slot_gcm);
	qp->opaq = NULL;
	qp->slot_gcm = NULL;
}

static inline void
gcm_dseg(struct mlx5_wqe_dseg *d, uint32_t len, uint32_t key, uintptr_t a)
{
	d->bcount = rte_cpu_to_be_32(len);
	d->lkey = rte_cpu_to_be_32(key);
	d->pbuf = rte_cpu_to_be_64(a);
}

/* lkey of addr: the mbuf's pool, then the op's (AAD in the op). */
static uint32_t
gcm_lkey(struct mlx5cq_crypto_qp *qp, struct rte_crypto_op *op,
	 struct rte_mbuf *m, uintptr_t addr)
{
	if (addr >= qp->mr_start && addr < qp->mr_end)
		return qp->mr_lkey;
	if (m != NULL && addr >= (uintptr_t)m->buf_addr &&
	    addr < (uintptr_t)m->buf_addr + m->buf_len)
		return mlx5cq_crypto_mr_lookup_mp(qp, m->pool, addr);
	return mlx5cq_crypto_mr_lookup_mp(qp, op->mempool, addr);
}

/*
 * KLMs of the aead.data.length bytes of chain m from aead.data.offset at
 * k[n...]; the next free index, or -1 (room or memory refused).
 */
static int
gcm_klm_chain(struct mlx5cq_crypto_qp *qp, struct rte_crypto_op *op,
	      struct rte_mbuf *m, struct mlx5_wqe_dseg *k, uint32_t n)
{
	uint32_t off = op->sym->aead.data.offset;
	uint32_t len = op->sym->aead.data.length;
	uint32_t l, key;
	uintptr_t a;

	while (m != NULL && off >= m->data_len) {
		off -= m->data_len;
		m = m->next;
	}
	while (len != 0) {
		if (m == NULL || n + 1 >= GCM_KLMS(qp->priv))
			return -1;
		l = RTE_MIN((uint32_t)m->data_len - off, len);
		a = rte_pktmbuf_mtod_offset(m, uintptr_t, off);
		key = gcm_lkey(qp, op, m, a);
		if (key == UINT32_MAX)
			return -1;
		gcm_dseg(&k[n++], l, key, a);
		len -= l;
		off = 0;
		m = m->next;
	}
	return (int)n;
}

/*
 * The slot's UMR WQE: KLMs as mlx5_crypto_gcm_build_op_klm() lays them
 * out: AAD, the source text's segments, the digest (in place, or out of
 * place when decrypting), then out of place the AAD again, the
 * destination's segments and the digest when encrypting. The MMO gathers
 * from mkey offset 0 and, out of place, scatters from the offset of the
 * destination's AAD (mlx5_crypto_gcm_build_umr(): dst_addr = src_bytes),
 * so the device writes the AAD back over itself and the output into the
 * destination. Total mkey bytes, or 0 with op->status set.
 */
static uint32_t
gcm_umr(struct mlx5cq_crypto_qp *qp, struct rte_crypto_op *op,
	const struct mlx5cq_crypto_sess *s, uint8_t *set, uint16_t wqe_idx,
	int oop)
{
	const struct mlx5cq_crypto_priv *priv = qp->priv;
	struct rte_crypto_sym_op *sym = op->sym;
	struct mlx5_umr_wqe *umr = (struct mlx5_umr_wqe *)set;
	struct mlx5_wqe_dseg *k = umr->kseg;
	uint32_t aad_key = 0, dig_key, len;
	int has_aad = s->aad_len != 0, n;

	/* The text first: its pool registered, the AAD and digest (in the
	 * op or an mbuf of a registered pool) are found next.
	 */
	n = gcm_klm_chain(qp, op, sym->m_src, k, has_aad);
	if (n < 0)
		goto bad;
	if (has_aad) {
		aad_key = gcm_lkey(qp, op, NULL,
				   (uintptr_t)sym->aead.aad.data);
		if (aad_key == UINT32_MAX)
			goto bad;
		gcm_dseg(&k[0], s->aad_len, aad_key,
			 (uintptr_t)sym->aead.aad.data);
	}
	dig_key = gcm_lkey(qp, op, NULL, (uintptr_t)sym->aead.digest.data);
	if (dig_key == UINT32_MAX)
		goto bad;
	if (!oop || !s->gcm_enc)
		gcm_dseg(&k[n++], s->tag_len, dig_key,
			 (uintptr_t)sym->aead.digest.data);
	len = s->aad_len + sym->aead.data.length + s->tag_len;
	if (oop) {
		if (has_aad) {
			if ((uint32_t)n + 1 >= GCM_KLMS(priv))
				goto bad;
			k[n++] = k[0];
		}
		n = gcm_klm_chain(qp, op, sym->m_dst, k, (uint32_t)n);
		if (n < 0)
			goto bad;
		if (s->gcm_enc)
			gcm_dseg(&k[n++], s->tag_len, dig_key,
				 (uintptr_t)sym->aead.digest.data);
		len += s->aad_len + sym->aead.data.length;
	}
	memset(&k[n], 0, (GCM_KLMS(priv) - (uint32_t)n) * sizeof(*k));
	umr->ctr.opcode = rte_cpu_to_be_32((uint32_t)wqe_idx << 8 |
					   MLX5_OPCODE_UMR);
	/* The set but its last WQEBB (the MMO's). */
	umr->ctr.sq_ds = rte_cpu_to_be_32(qp->qpn << 8 |
					  MLX5CQ_CRYPTO_GCM_UMR_SIZE(priv) /
					  MLX5_WSEG_SIZE);
	/* No BSF: KLMs only (mlx5_crypto_gcm_build_umr()). */
	umr->ucseg.ko_to_bs = rte_cpu_to_be_32(GCM_KLMS(priv) <<
					       MLX5_UMRC_KO_OFFSET);
	umr->mkc.len = rte_cpu_to_be_64(len);
	return len;
bad:
	op->status = RTE_CRYPTO_OP_STATUS_INVALID_ARGS;
	return 0;
}

/*
 * The contiguous case: the address of AAD || text, or 0 (UMR path); out
 * of place, *dst gets the address the output (AAD || text) goes to. As
 * mlx5_crypto_gcm_get_op_info(): an AAD elsewhere is copied before the
 * text (at most 64 bytes, into the headroom, text at offset 0); out of
 * place the destination is one segment, text at offset 0, with the
 * AAD's room in its headroom (the device writes the AAD there); a digest
 * to check that is not after the source text is copied there when the
 * buffer has the room (crypto/mlx5 asks the text to be the whole mbuf;
 * here the tag_len bytes after the text, data or tailroom, are
 * overwritten: the verify mode of dpdk-test-crypto-perf keeps the digest
 * apart, in memory no mempool holds); a digest to write that is not right
 * after the output text takes the UMR path.
 */
static uintptr_t
gcm_contig(struct rte_crypto_op *op, const struct mlx5cq_crypto_sess *s,
	   uintptr_t *dst)
{
	struct rte_crypto_sym_op *sym = op->sym;
	struct rte_mbuf *m = sym->m_src, *md = sym->m_dst;
	uint32_t len = sym->aead.data.length;
	uint8_t *data = rte_pktmbuf_mtod_offset(m, uint8_t *,
						sym->aead.data.offset);
	uint8_t *out = data;
	int cp_aad = 0, cp_tag = 0;

	if (m->nb_segs != 1 || sym->aead.data.offset + len > m->data_len)
		return 0;
	if (md != NULL && md != m) {
		if (md->nb_segs != 1 || sym->aead.data.offset != 0 ||
		    len > md->data_len ||
		    rte_pktmbuf_headroom(md) < s->aad_len)
			return 0;
		out = rte_pktmbuf_mtod(md, uint8_t *);
	}
	if (s->aad_len != 0 && sym->aead.aad.data != data - s->aad_len) {
		if (s->aad_len > GCM_MAX_AAD_COPY ||
		    sym->aead.data.offset != 0 ||
		    rte_pktmbuf_headroom(m) < s->aad_len)
			return 0;
		cp_aad = 1;
	}
	if (s->gcm_enc) {
		if (sym->aead.digest.data != out + len)
			return 0;
	} else if (sym->aead.digest.data != data + len) {
		if (data + len + s->tag_len > (uint8_t *)m->buf_addr +
		    m->buf_len)
			return 0;
		cp_tag = 1;
	}
	if (cp_aad)
		memcpy(data - s->aad_len, sym->aead.aad.data, s->aad_len);
	if (cp_tag)
		memcpy(data + len, sym->aead.digest.data, s->tag_len);
	*dst = (uintptr_t)(out - s->aad_len);
	return (uintptr_t)(data - s->aad_len);
}

int
mlx5cq_crypto_gcm_wqe_set(struct mlx5cq_crypto_qp *qp,
			  struct rte_crypto_op *op,
			  const struct mlx5cq_crypto_sess *s)
{
	const struct mlx5cq_crypto_priv *priv = qp->priv;
	struct rte_crypto_sym_op *sym = op->sym;
	uint16_t slot = qp->pi & qp->mask;
	uint8_t *set = qp->wqes + (size_t)slot * priv->wqe_set_size;
	uint32_t umr_size = MLX5CQ_CRYPTO_GCM_UMR_SIZE(priv);
	struct mlx5_gga_wqe *mmo = (struct mlx5_gga_wqe *)(set + umr_size);
	uint8_t *opaq = qp->opaq + (size_t)slot * GCM_OPAQ;
	uint16_t wqe_idx = (uint16_t)(qp->pi << qp->log_set_bbs);
	uint32_t text = s->aad_len + sym->aead.data.length;
	uint32_t gkey, skey, gbytes, sbytes, fence = 0;
	int oop = sym->m_dst != NULL && sym->m_dst != sym->m_src;
	struct mlx5_wqe_cseg *nop;
	uintptr_t addr, daddr = 0;

	if (qp->slot_gcm[slot] == 0) {
		qp->slot_gcm[slot] = 1;
	} else {
		/* The UMR statics (a UMR path rewrites them). */
		mlx5cq_crypto_wqe_set_init(qp->priv, qp, slot);
	}
	addr = gcm_contig(op, s, &daddr);
	if (likely(addr != 0)) {
		gkey = gcm_lkey(qp, op, sym->m_src, addr);
		skey = oop ? gcm_lkey(qp, op, sym->m_dst, daddr) : gkey;
		if (unlikely(gkey == UINT32_MAX || skey == UINT32_MAX)) {
			op->status = RTE_CRYPTO_OP_STATUS_ERROR;
			return 0;
		}
		nop = (struct mlx5_wqe_cseg *)set;
		nop->opcode = rte_cpu_to_be_32((uint32_t)wqe_idx << 8 |
					       MLX5_OPCODE_NOP);
		nop->sq_ds = rte_cpu_to_be_32(qp->qpn << 8 |
					      umr_size / MLX5_WSEG_SIZE);
		nop->flags = RTE_BE32(MLX5_COMP_ONLY_FIRST_ERR <<
				      MLX5_COMP_MODE_OFFSET);
		nop->misc = 0;
	} else {
		if (gcm_umr(qp, op, s, set, wqe_idx, oop) == 0)
			return 0;
		gkey = qp->mkeys[slot]->id;
		skey = gkey;
		addr = 0;
		/* Out of place the output's KLMs follow the input's. */
		daddr = oop ? text + (s->gcm_enc ? 0 : s->tag_len) : 0;
		fence = MLX5_WQE_CTRL_INITIATOR_SMALL_FENCE;
	}
	memcpy(opaq + 12, rte_crypto_op_ctod_offset(op, uint8_t *,
						    s->iv_offset), 12);
	*(rte_be32_t *)(opaq + 24) = rte_cpu_to_be_32(s->tag_len);
	*(rte_be32_t *)(opaq + 28) = rte_cpu_to_be_32(s->aad_len);
	gbytes = text + (s->gcm_enc ? 0 : s->tag_len);
	sbytes = text + (s->gcm_enc ? s->tag_len : 0);
	wqe_idx += umr_size / MLX5_SEND_WQE_BB;
	mmo->opcode = rte_cpu_to_be_32(GCM_OPC_MOD_CRYPTO <<
				       WQE_CSEG_OPC_MOD_OFFSET |
				       (uint32_t)wqe_idx << 8 |
				       MLX5_OPCODE_MMO);
	mmo->sq_ds = rte_cpu_to_be_32(qp->qpn << 8 | 4);
	/* The set's last WQE: it asks for the completion. */
	mmo->flags = rte_cpu_to_be_32(MLX5_COMP_ALWAYS <<
				      MLX5_COMP_MODE_OFFSET | fence);
	mmo->gga_ctrl1 = s->mmo_ctrl;
	mmo->gga_ctrl2 = s->dek_id_be;
	mmo->opaque_lkey = rte_cpu_to_be_32(qp->opaq_mr->lkey);
	mmo->opaque_vaddr = rte_cpu_to_be_64((uintptr_t)opaq);
	gcm_dseg(&mmo->gather, gbytes, gkey, addr);
	gcm_dseg(&mmo->scatter, sbytes, skey, daddr);
	qp->last_ctrl = *(uint64_t *)mmo;
	op->status = RTE_CRYPTO_OP_STATUS_SUCCESS;
	qp->ops[slot] = op;
	qp->pi++;
	qp->wqe_pi += 1u << qp->log_set_bbs;
	return 1;
}

uint8_t
mlx5cq_crypto_gcm_err_status(const struct rte_mlx5cq_cpl *c)
{
	if (c->s_wqe_opcode == MLX5_OPCODE_MMO &&
	    c->vendor_syndrome == GCM_VSYND_TAG)
		return RTE_CRYPTO_OP_STATUS_AUTH_FAILED;
	return RTE_CRYPTO_OP_STATUS_ERROR;
}
