/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Send WQE execution on the loopback crypto QPs (progress engine,
 * emu_net_lock held), in the layout DPDK 22.11's crypto/mlx5 writes
 * (mlx5_prm.h struct mlx5_umr_wqe, struct mlx5_rdma_write_wqe).
 *
 * Every WQE: control segment (opcode byte 3, wqe index bytes 1-2, qpn in
 * sq_ds[31:8] = this QP, ds = sq_ds[5:0] 16-byte units, fm_ce_se bits 3:2
 * CQ update: 2 or 3 = a CQE on success). The doorbell record's word 1
 * (big endian) is the WQEBB counter the software has posted.
 *
 * UMR (0x25), misc = the indirect mkey: umr ctrl inline bit 31 set
 * (KLMs inline), klm_octowords = KO (ko_to_bs[31:16]) KLM entries after
 * the 64-byte mkey segment (at WQE byte 128), bsf_octowords =
 * ko_to_bs[15:0] 0 or 4; mkey_mask bit 0 only (length from the mkey
 * segment); the crypto BSF (64 bytes) right after the KO entries:
 * bsf_size 64 B (2), bsf_p_type CRYPTO (1), encryption_order
 * RAW_WIRE (2: data is decrypted into memory) or RAW_MEMORY (3:
 * encrypted), encryption_standard AES_XTS (0), crypto_block_size_pointer
 * 512 B (1), 4096 B (3) or 1 MiB (5) per data unit, or 0: the whole
 * message is one unit (a model extension, see emu_bsf_parse()), raw_data_size,
 * xts_initial_tweak, dek_pointer, keytag. The mkey must exist, be
 * umr_en, on the QP's PD, with KO within its translations.
 *
 * RDMA_WRITE (0x08): remote segment (raddr, rkey) then data segments
 * (byte count, lkey, address: MRs of the QP's PD, read). The rkey is an
 * mkey with rw on the QP's PD, [raddr - start, + length) within its
 * length. Through a crypto mkey the message must be raw_data_size bytes,
 * at least 16, a whole number of data units or one unit; the DEK named
 * by dek_pointer must exist, be on the mkey's PD and have the BSF's
 * keytag; data is ciphered unit by unit (mlx5_emu_xts.c) and written to
 * the mkey's KLM targets (MRs of the PD, write access).
 *
 * Errors, each a requester error CQE (opcode REQ_ERR 13, syndrome,
 * vendor_err_synd of the model, s_wqe_opcode, wqe_counter, qpn), after
 * which the QP is in ERR and every later posted WQE completes with
 * WR_FLUSH_ERR (0x05): malformed WQE 0x02 LOC_QP_OP_ERR; lkey or local
 * range 0x04 LOC_PROT_ERR; length 0x01 LOC_LEN_ERR; bad rkey/mkey or
 * target range 0x13 REM_ACCESS_ERR; crypto (no such DEK, other PD,
 * keytag, BSF) 0x14 REM_OP_ERR, vendor syndromes EMU_VSYND_*.
 */

#include <stdlib.h>
#include <string.h>

#include <rte_atomic.h>
#include <rte_byteorder.h>
#include <mlx5_prm.h>

#include "mlx5_emu_crypto.h"

#define EMU_WQE_MAX 1024 /* Bytes (max_wqe_sz_sq). */
#define EMU_UMR_KLM_OFF 128 /* ctrl 16 + umr ctrl 48 + mkey seg 64. */
#define EMU_BSF_LEN 64

int
emu_wqe_fail(struct emu_wqe_err *e, uint8_t synd, uint8_t vsynd)
{
	e->synd = synd;
	e->vsynd = vsynd;
	return -1;
}

static int
emu_bsf_parse(const uint8_t *b, struct emu_bsf *bsf)
{
	uint32_t w0 = emu_be32_at(b);
	unsigned int eo = (w0 >> 16) & 0xf;

	if ((w0 >> 30) != MLX5_BSF_SIZE_64B ||
	    ((w0 >> 24) & 3) != MLX5_BSF_P_TYPE_CRYPTO ||
	    (eo != MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_WIRE &&
	     eo != MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY) ||
	    (w0 & 0xf) != MLX5_ENCRYPTION_STANDARD_AES_XTS)
		return -1;
	switch (emu_be32_at(b + 8) >> 24) {
	case 0:
		/*
		 * Model extension: the whole message (raw_data_size bytes)
		 * is one data unit, ciphertext stealing for a partial last
		 * block (IEEE 1619). DPDK 22.11's crypto/mlx5 never writes
		 * 0 here (mlx5_crypto_get_block_size() maps only operation
		 * lengths of 512 B, 4 KiB and 1 MiB, other lengths fail
		 * with RTE_CRYPTO_OP_STATUS_INVALID_ARGS); crypto_mlx5cq
		 * writes it for a session of dataunit_len 0 (rte_crypto_sym.h:
		 * the whole buffer is one data unit) and other lengths.
		 */
		bsf->du = 0;
		break;
	case MLX5_BLOCK_SIZE_512B:
		bsf->du = 512;
		break;
	case MLX5_BLOCK_SIZE_4096B:
		bsf->du = 4096;
		break;
	case MLX5_BLOCK_SIZE_1MB:
		bsf->du = 1u << 20;
		break;
	default: /* 520/4160/4048: units with metadata, not modelled. */
		return -1;
	}
	bsf->encrypt = eo == MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY;
	bsf->raw_data_size = emu_be32_at(b + 4);
	memcpy(bsf->tweak, b + 16, sizeof(bsf->tweak));
	bsf->dek_id = emu_be32_at(b + 32) & 0xffffff;
	memcpy(&bsf->keytag, b + 40, sizeof(bsf->keytag));
	bsf->valid = 1;
	return 0;
}

static int
emu_umr_exec(struct emu_qp *qp, const uint8_t *w, unsigned int bytes,
	     struct emu_wqe_err *e)
{
	struct emu_mkey *mk = emu_mkey_lookup(qp->net->crypto,
					      emu_be32_at(w + 12));
	uint32_t flags = emu_be32_at(w + 16), ko_bs = emu_be32_at(w + 20);
	uint32_t ko = ko_bs >> 16, bs = ko_bs & 0xffff, i;
	const uint8_t *klm = w + EMU_UMR_KLM_OFF;

	if (mk == NULL || !mk->umr_en || mk->pdn != qp->wq.pdn)
		return emu_wqe_fail(e, EMU_SYND_LOC_PROT_ERR, 0);
	if (!(flags >> MLX5_UMRC_IF_OFFSET) || emu_be64_at(w + 24) != 1 ||
	    ko > mk->max_klm || (bs != 0 && bs != 4) ||
	    (bs != 0 && !mk->crypto_en) ||
	    EMU_UMR_KLM_OFF + 16 * (ko + bs) > bytes)
		return emu_wqe_fail(e, EMU_SYND_LOC_QP_OP_ERR, 0);
	/* Parsed in place (a refused BSF writes nothing): no stack copy
	 * of the BSF to reload with wider loads than it was stored with.
	 */
	if (bs != 0 && emu_bsf_parse(klm + 16 * ko, &mk->bsf) != 0)
		return emu_wqe_fail(e, EMU_SYND_LOC_QP_OP_ERR,
				    EMU_VSYND_NO_BSF);
	if (bs == 0)
		memset(&mk->bsf, 0, sizeof(mk->bsf));
	for (i = 0; i < ko; i++, klm += 16) {
		mk->klm[i].bcount = emu_be32_at(klm);
		mk->klm[i].lkey = emu_be32_at(klm + 4);
		mk->klm[i].addr = emu_be64_at(klm + 8);
	}
	mk->nklm = ko;
	mk->len = emu_be64_at(w + 64 + 24); /* mkey segment: len. */
	return 0;
}

/*
 * Write len bytes of src at offset off of the mkey's KLM targets. The
 * mkey is on the QP's PD (checked): its targets are looked up through the
 * QP's MR hint (emu_mr_check_wq()), as its local segments are.
 */
int
emu_klm_scatter(struct emu_qp *qp, const struct emu_mkey *mk, uint64_t off,
		const uint8_t *src, uint32_t len, struct emu_wqe_err *e)
{
	uint32_t i, n;

	for (i = 0; i < mk->nklm && len != 0; i++) {
		const struct emu_klm *k = &mk->klm[i];

		if (off >= k->bcount) {
			off -= k->bcount;
			continue;
		}
		n = k->bcount - off < len ? (uint32_t)(k->bcount - off) : len;
		if (emu_mr_check_wq(qp->net, &qp->wq, k->lkey, k->addr + off,
				    n, 1) != 0)
			return emu_wqe_fail(e, EMU_SYND_REM_ACCESS_ERR, 0);
		memmove((void *)(uintptr_t)(k->addr + off), src, n);
		src += n;
		len -= n;
		off = 0;
	}
	if (len != 0)
		return emu_wqe_fail(e, EMU_SYND_REM_ACCESS_ERR, 0);
	return 0;
}

/* The only target when one KLM holds the whole range, else NULL. */
static uint8_t *
emu_klm_single(struct emu_qp *qp, const struct emu_mkey *mk, uint64_t off,
	       uint32_t len)
{
	const struct emu_klm *k = &mk->klm[0];

	if (mk->nklm == 0 || off > k->bcount || len > k->bcount - off ||
	    emu_mr_check_wq(qp->net, &qp->wq, k->lkey, k->addr + off, len,
			    1) != 0)
		return NULL;
	return (uint8_t *)(uintptr_t)(k->addr + off);
}

uint8_t *
emu_qp_bounce(struct emu_qp *qp, uint32_t len)
{
	uint8_t *b;

	if (qp->bounce_len >= len)
		return qp->bounce;
	/* The model's own limit (its memory); injected for the tests. */
	if (emu_fault_hit(qp->net->dev, MLX5_EMU_FAIL_CRYPTO_BOUNCE))
		return NULL;
	b = realloc(qp->bounce, len);
	if (b == NULL)
		return NULL;
	qp->bounce = b;
	qp->bounce_len = len;
	return b;
}

/*
 * AES-XTS of a message through a crypto mkey (mlx5_emu_xts.c): 0, or the
 * cipher failed (OpenSSL or the model's own; injected for the tests).
 */
static int
emu_wqe_xts(struct emu_qp *qp, const struct emu_mkey *mk,
	    const struct emu_dek *dek, const uint8_t *src, uint8_t *dst,
	    uint32_t len)
{
	if (emu_fault_hit(qp->net->dev, MLX5_EMU_FAIL_CRYPTO_CIPHER))
		return -1;
	return emu_xts_run(dek->xts, mk->bsf.encrypt, mk->bsf.tweak,
			   mk->bsf.du, src, dst, len);
}

/* The crypto checks of a message through mk; its DEK. */
static struct emu_dek *
emu_crypto_check(struct emu_qp *qp, const struct emu_mkey *mk, uint32_t len,
		 struct emu_wqe_err *e)
{
	const struct emu_bsf *bsf = &mk->bsf;
	struct emu_dek *dek;

	if (!bsf->valid) {
		emu_wqe_fail(e, EMU_SYND_REM_OP_ERR, EMU_VSYND_NO_BSF);
		return NULL;
	}
	if (len != bsf->raw_data_size || len < 16 ||
	    (bsf->du != 0 && len > bsf->du && len % bsf->du != 0)) {
		emu_wqe_fail(e, EMU_SYND_LOC_LEN_ERR, 0);
		return NULL;
	}
	dek = emu_dek_lookup(qp->net->crypto, bsf->dek_id);
	if (dek == NULL)
		emu_wqe_fail(e, EMU_SYND_REM_OP_ERR, EMU_VSYND_NO_DEK);
	else if (dek->pdn != mk->pdn)
		emu_wqe_fail(e, EMU_SYND_REM_OP_ERR, EMU_VSYND_DEK_PD);
	else if (dek->has_keytag && dek->keytag != bsf->keytag)
		emu_wqe_fail(e, EMU_SYND_REM_OP_ERR, EMU_VSYND_KEYTAG);
	else
		return dek;
	return NULL;
}

static int
emu_rdma_write_exec(struct emu_qp *qp, const uint8_t *w, unsigned int ds,
		    struct emu_wqe_err *e)
{
	uint64_t raddr = emu_be64_at(w + 16), off;
	struct emu_mkey *mk = emu_mkey_lookup(qp->net->crypto,
					      emu_be32_at(w + 24));
	const uint8_t *seg = w + 32, *src;
	struct emu_dek *dek = NULL;
	uint32_t nseg, len = 0, i;
	uint8_t *dst, *buf;

	if (ds < 3)
		return emu_wqe_fail(e, EMU_SYND_LOC_QP_OP_ERR, 0);
	nseg = ds - 2;
	for (i = 0; i < nseg; i++) {
		uint32_t n = emu_be32_at(seg + 16 * i);

		if (n == 0 || n > UINT32_MAX - len)
			return emu_wqe_fail(e, EMU_SYND_LOC_LEN_ERR, 0);
		if (emu_mr_check_wq(qp->net, &qp->wq, emu_be32_at(seg + 16 * i + 4),
				    emu_be64_at(seg + 16 * i + 8), n, 0) != 0)
			return emu_wqe_fail(e, EMU_SYND_LOC_PROT_ERR, 0);
		len += n;
	}
	if (mk == NULL || !mk->rw || mk->pdn != qp->wq.pdn ||
	    raddr < mk->start || raddr - mk->start > mk->len ||
	    len > mk->len - (raddr - mk->start))
		return emu_wqe_fail(e, EMU_SYND_REM_ACCESS_ERR, 0);
	off = raddr - mk->start;
	if (mk->crypto_en) {
		dek = emu_crypto_check(qp, mk, len, e);
		if (dek == NULL)
			return -1;
	}
	/* One source, one target: cipher straight from one to the other. */
	dst = emu_klm_single(qp, mk, off, len);
	if (nseg == 1 && dst != NULL) {
		src = (const uint8_t *)(uintptr_t)emu_be64_at(seg + 8);
		if (dek == NULL)
			memmove(dst, src, len);
		else if (emu_wqe_xts(qp, mk, dek, src, dst, len) != 0)
			return emu_wqe_fail(e, EMU_SYND_REM_OP_ERR,
					    EMU_VSYND_CIPHER);
		return 0;
	}
	buf = emu_qp_bounce(qp, len);
	if (buf == NULL)
		return emu_wqe_fail(e, EMU_SYND_LOC_QP_OP_ERR, 0);
	for (i = 0, dst = buf; i < nseg; i++) {
		uint32_t n = emu_be32_at(seg + 16 * i);

		memcpy(dst, (const void *)(uintptr_t)emu_be64_at(seg + 16 * i + 8),
		       n);
		dst += n;
	}
	if (dek != NULL && emu_wqe_xts(qp, mk, dek, buf, buf, len) != 0)
		return emu_wqe_fail(e, EMU_SYND_REM_OP_ERR, EMU_VSYND_CIPHER);
	return emu_klm_scatter(qp, mk, off, buf, len, e);
}

static void
emu_qp_wc(struct emu_qp *qp, uint16_t idx, uint8_t opcode,
	   const struct emu_wqe_err *e)
{
	struct mlx5_emu_wc *cpl = emu_engine_wc(&qp->wq);

	cpl->kind = e != NULL ? MLX5_EMU_WC_REQ_ERR : MLX5_EMU_WC_REQ;
	if (e != NULL) {
		cpl->syndrome = e->synd;
		cpl->vendor_syndrome = e->vsynd;
	}
	cpl->s_wqe_opcode = opcode;
	cpl->wqe_counter = idx;
	cpl->qpn = qp->qpn;
}

/* The WQE at WQEBB index idx: in the ring when it does not wrap, else
 * copied into w; its bytes in *bytes.
 */
static const uint8_t *
emu_wqe_fetch(const struct emu_qp *qp, uint16_t idx, uint8_t *w,
	      unsigned int *bytes)
{
	uint32_t mask = (1u << qp->wq.log_sz) - 1;
	uint32_t first = idx & mask, nbb, i;
	const uint8_t *p = qp->wq.ring + (size_t)first * EMU_WQEBB;
	unsigned int ds;

	ds = emu_be32_at(p + 4) & 0x3f;
	nbb = (ds * 16 + EMU_WQEBB - 1) / EMU_WQEBB;
	if (nbb == 0)
		nbb = 1;
	*bytes = nbb * EMU_WQEBB;
	if (first + nbb <= mask + 1)
		return p;
	memcpy(w, p, EMU_WQEBB);
	for (i = 1; i < nbb && i * EMU_WQEBB < EMU_WQE_MAX; i++)
		memcpy(w + i * EMU_WQEBB,
		       qp->wq.ring + (size_t)((first + i) & mask) * EMU_WQEBB,
		       EMU_WQEBB);
	return w;
}

unsigned int
emu_qp_progress(struct emu_qp *qp)
{
	uint8_t wbuf[EMU_WQE_MAX];
	unsigned int n = 0;
	uint16_t posted;

	if (qp->qp_state != EMU_QP_RTS && qp->qp_state != EMU_QP_ERR)
		return 0;
	posted = (uint16_t)rte_be_to_cpu_32(qp->wq.dbrec[1]);
	rte_io_rmb();
	while (qp->pi != posted && n < EMU_ENGINE_BATCH) {
		unsigned int bytes;
		const uint8_t *w = emu_wqe_fetch(qp, qp->pi, wbuf, &bytes);
		uint32_t ctrl = emu_be32_at(w), sq_ds = emu_be32_at(w + 4);
		uint8_t opcode = ctrl & 0xff;
		uint16_t idx = (uint16_t)(ctrl >> 8);
		struct emu_wqe_err e = { 0, 0 };
		unsigned int ds = sq_ds & 0x3f;
		int ret;

		if (qp->qp_state == EMU_QP_ERR) {
			e.synd = EMU_SYND_WR_FLUSH_ERR;
			emu_qp_wc(qp, idx, opcode, &e);
			qp->pi += bytes / EMU_WQEBB;
			n++;
			continue;
		}
		/* struct mlx5_wqe_cseg as crypto/mlx5's
		 * mlx5_crypto_wqe_set() writes it.
		 */
		if ((sq_ds >> 8) != qp->qpn || ds == 0 ||
		    ds * 16 > EMU_WQE_MAX || idx != qp->pi)
			ret = emu_wqe_fail(&e, EMU_SYND_LOC_QP_OP_ERR, 0);
		else if (opcode == MLX5_OPCODE_UMR)
			ret = emu_umr_exec(qp, w, ds * 16, &e);
		else if (opcode == MLX5_OPCODE_RDMA_WRITE)
			ret = emu_rdma_write_exec(qp, w, ds, &e);
		else if (opcode == MLX5_OPCODE_NOP)
			ret = 0;
		else if (opcode == MLX5_OPCODE_MMO)
			ret = emu_mmo_exec(qp, w, ds, &e);
		else
			ret = emu_wqe_fail(&e, EMU_SYND_LOC_QP_OP_ERR, 0);
		if (ret != 0) {
			EMU_LOG(DEBUG, "QP 0x%x: WQE 0x%x opcode 0x%x: error "
				"syndrome 0x%x vendor 0x%x", qp->qpn, idx,
				opcode, e.synd, e.vsynd);
			emu_qp_wc(qp, idx, opcode, &e);
			qp->qp_state = EMU_QP_ERR;
			qp->wq.state = EMU_Q_ERR;
		} else if (((emu_be32_at(w + 8) >> 2) & 3) >= 2) {
			emu_qp_wc(qp, idx, opcode, NULL);
		}
		qp->pi += bytes / EMU_WQEBB;
		qp->wqes++;
		n++;
	}
	return n;
}
