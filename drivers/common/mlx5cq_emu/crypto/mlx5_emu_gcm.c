/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * AES-GCM of the crypto engine: the crypto_caps bits, DEKs of the GCM
 * kind, the MMO attribute of a QP and the crypto MMO WQE, as DPDK's
 * crypto/mlx5 (23.07 and later: mlx5_crypto_gcm.c, mlx5_crypto_dek.c,
 * mlx5_devx_cmd_query_hca_attr() of mlx5_devx_cmds.c, mlx5_prm.h) drives
 * them. DPDK 22.11's mlx5_prm.h has none of the GCM fields; their places
 * are written here from 23.11's mlx5_prm.h.
 *
 * Caps (crypto_caps, bit 0x100 on): crypto_mmo_qp, crypto_aes_gcm_256_
 * encrypt, _128_encrypt, _256_decrypt, _128_decrypt, gcm_auth_tag_128,
 * gcm_auth_tag_96 all 1, log_crypto_mmo_max_size EMU_GCM_LOG_MAX (6 bits
 * at 0x10a), on every device with caps.crypto.
 *
 * DEK (key_purpose MLX5_CRYPTO_KEY_PURPOSE_GCM, 5), checks in order:
 * - the device imports keys in plaintext (crypto/mlx5's
 *   mlx5_crypto_dek_fill_gcm_attr() writes the key itself into the
 *   field): otherwise BAD_PARAM, CRYPTO_PURPOSE (the model's limit);
 * - has_keytag 0 (mlx5_crypto_dek_fill_gcm_attr() sets none): BAD_PARAM,
 *   CRYPTO_RESERVED;
 * - key_size 0: the 16-byte key at bytes 16..31 of key[] (the offset 16
 *   of mlx5_crypto_dek_fill_gcm_attr()); key_size 1: the 32-byte key at
 *   bytes 0..31; every other byte of key[] 0, else BAD_PARAM,
 *   CRYPTO_RESERVED.
 *
 * QP: qpc_ext 1 with qpc_extension.mmo 1 (mlx5_devx_cmd_create_qp() with
 * attr.mmo, which crypto/mlx5 sets from crypto_mmo_qp) marks the QP as
 * an MMO QP; qpc_ext with any other extension bit: BAD_PARAM, QP_CTX.
 *
 * MMO WQE (struct mlx5_gga_wqe, 64 bytes, ds 4): opcode MLX5_OPCODE_MMO
 * with opc_mod MLX5_OPC_MOD_MMO_CRYPTO (6) in bits 31:24 of the first
 * word; gga_ctrl1 = type AES_GCM (3) << 24 | op (0 encrypt, 1 decrypt)
 * << 20 (MLX5_CRYPTO_MMO_TYPE_OFFSET, _OP_OFFSET), other bits 0;
 * gga_ctrl2 = the DEK number; opaque_lkey / opaque_vaddr: 64 bytes of
 * union mlx5_gga_crypto_opaque (syndrome at 0, written by the device;
 * iv[12] at 12, tag_size at 24, aad_size at 28, big endian); gather:
 * AAD || text (|| tag when decrypting), scatter: AAD || text (|| tag
 * when encrypting), each an MR lkey or an indirect mkey (UMR KLMs).
 * Checks, each an error CQE (LOC_QP_OP_ERR 0x02 unless said):
 * - the QP is an MMO QP, opc_mod CRYPTO, ds 4, gga_ctrl1 as above;
 * - tag_size 12 or 16 (gcm_auth_tag_96 / _128), gather bytes at least
 *   aad_size (+ tag_size), at most 2^log_crypto_mmo_max_size, scatter
 *   bytes gather bytes +/- tag_size: LOC_LEN_ERR 0x01;
 * - opaque, gather and scatter memory: an MR of the QP's PD with write
 *   access for what is written (LOC_PROT_ERR 0x04), or an indirect mkey
 *   of the PD holding the range (REM_ACCESS_ERR 0x13);
 * - the DEK exists (REM_OP_ERR 0x14, vendor NO_DEK), on the QP's PD
 *   (DEK_PD) and of the GCM kind (DEK_KIND).
 * Decryption whose tag differs from the computed one writes nothing but
 * the opaque's syndrome (EMU_GCM_SYND_TAG) and completes in error:
 * REM_OP_ERR, vendor syndrome EMU_VSYND_GCM_TAG. DPDK's crypto/mlx5 sees
 * it as an error CQE of its MMO WQE (mlx5_crypto_gcm_cqe_err_handle()).
 * The syndrome values are the model's: no public source gives the
 * device's.
 */

#include <string.h>
#include <stdlib.h>

#include <openssl/evp.h>
#include <rte_byteorder.h>
#include <mlx5_prm.h>

#include "mlx5_emu_crypto.h"

/* crypto_caps of 23.11's mlx5_prm.h: the byte holding crypto_mmo_qp
 * (bit 0x100) .. gcm_auth_tag_96 (bit 0x106), log_crypto_mmo_max_size
 * (bits 0x10a..0x10f).
 */
#define EMU_GCM_CAPS_BYTE 0x20
#define EMU_GCM_CAPS_BITS 0xfe /* The 7 bits from the top. */
#define EMU_GCM_LOG_BYTE 0x21
#define EMU_GCM_LOG_MAX 24 /* log_crypto_mmo_max_size of the model. */
/* qpc_extension.mmo: bit 2 from the top of its first byte. */
#define EMU_QPC_EXT_MMO 0x20
/* mlx5_prm.h (23.11) MLX5_CRYPTO_KEY_PURPOSE_GCM, MLX5_ENCRYPTION_TYPE_
 * AES_GCM, MLX5_CRYPTO_MMO_TYPE_OFFSET / _OP_OFFSET, MLX5_OPC_MOD_MMO_CRYPTO.
 */
#define EMU_KEY_PURPOSE_GCM 5
#define EMU_MMO_TYPE_GCM 3
#define EMU_MMO_TYPE_OFF 24
#define EMU_MMO_OP_OFF 20
#define EMU_OPC_MOD_CRYPTO 6
#define EMU_GCM_OPAQUE 64 /* union mlx5_gga_crypto_opaque. */
#define EMU_GCM_SYND_TAG 0x1 /* Opaque syndrome of a tag mismatch. */
#define EMU_GCM_MAX_TAG 16

struct emu_gcm {
	EVP_CIPHER_CTX *enc;
	EVP_CIPHER_CTX *dec;
};

void
emu_gcm_fill_caps(const struct emu_dev *dev, void *hcattr)
{
	uint8_t *b = hcattr;

	if (!dev->caps.crypto)
		return;
	b[EMU_GCM_CAPS_BYTE] |= EMU_GCM_CAPS_BITS;
	b[EMU_GCM_LOG_BYTE] = (b[EMU_GCM_LOG_BYTE] & 0xc0) | EMU_GCM_LOG_MAX;
}

void
emu_gcm_free(struct emu_gcm *g)
{
	if (g == NULL)
		return;
	EVP_CIPHER_CTX_free(g->enc);
	EVP_CIPHER_CTX_free(g->dec);
	free(g);
}

static EVP_CIPHER_CTX *
emu_gcm_ctx(const EVP_CIPHER *c, const uint8_t *key, int enc)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

	if (ctx == NULL)
		return NULL;
	if (EVP_CipherInit_ex(ctx, c, NULL, NULL, NULL, enc) != 1 ||
	    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, 12, NULL) != 1 ||
	    EVP_CipherInit_ex(ctx, NULL, NULL, key, NULL, enc) != 1) {
		EVP_CIPHER_CTX_free(ctx);
		return NULL;
	}
	return ctx;
}

static struct emu_gcm *
emu_gcm_new(const uint8_t *key, unsigned int klen)
{
	const EVP_CIPHER *c = klen == 16 ? EVP_aes_128_gcm() :
			      EVP_aes_256_gcm();
	struct emu_gcm *g = calloc(1, sizeof(*g));

	if (g == NULL)
		return NULL;
	g->enc = emu_gcm_ctx(c, key, 1);
	g->dec = emu_gcm_ctx(c, key, 0);
	if (g->enc == NULL || g->dec == NULL) {
		emu_gcm_free(g);
		return NULL;
	}
	return g;
}

int
emu_dek_gcm_create(struct emu_dev *dev, struct emu_crypto *cr, const void *d,
		   void *out, size_t outlen, uint32_t *id, void **priv)
{
	const uint8_t *key = (const uint8_t *)EMU_ADDR_OF(dek, d, key);
	unsigned int klen = EMU_GET(dek, d, key_size) ? 32 : 16;
	unsigned int at = klen == 16 ? 16 : 0;
	struct emu_dek *dek;

	if (dev->caps.crypto_wrapped)
		return emu_crypto_refuse(dev, out, outlen,
					 EMU_CMD_STAT_BAD_PARAM_ERR,
					 MLX5_EMU_SYND_CRYPTO_PURPOSE,
					 "CREATE DEK", "GCM keys are imported "
					 "in plaintext only (model)");
	if (EMU_GET(dek, d, has_keytag) ||
	    !emu_bytes_zero(key, at) ||
	    !emu_bytes_zero(key + at + klen, EMU_DEK_FIELD_LEN - at - klen))
		return emu_crypto_refuse(dev, out, outlen,
					 EMU_CMD_STAT_BAD_PARAM_ERR,
					 MLX5_EMU_SYND_CRYPTO_RESERVED,
					 "CREATE DEK", "GCM key: keytag or "
					 "bytes outside the key set");
	dek = calloc(1, sizeof(*dek));
	if (dek != NULL)
		dek->gcm = emu_gcm_new(key + at, klen);
	if (dek == NULL || dek->gcm == NULL) {
		free(dek);
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_LIM_ERR,
				    MLX5_EMU_SYND_NONE);
	}
	dek->obj_type = MLX5_GENERAL_OBJ_TYPE_DEK;
	dek->key_size = EMU_GET(dek, d, key_size);
	dek->key_purpose = EMU_KEY_PURPOSE_GCM;
	dek->pdn = EMU_GET(dek, d, pd);
	dek->opaque = EMU_GET64(dek, d, opaque);
	dek->id = emu_net_new_id(dev->net);
	emu_net_lock();
	TAILQ_INSERT_TAIL(&cr->deks, dek, next);
	cr->ndeks++;
	emu_net_unlock();
	*id = dek->id;
	*priv = dek;
	return 0;
}

int
emu_qp_ext_check(struct emu_dev *dev, const void *in, size_t inlen,
		 uint8_t *mmo, void *out, size_t outlen)
{
	const uint8_t *ext;
	size_t need;

	*mmo = 0;
	if (!EMU_GET(create_qp_in, in, qpc_ext))
		return 0;
	/* mlx5_devx_cmd_create_qp(): qpc_ext 1 and qpc_extension.mmo 1,
	 * the extension in qpc_extension_and_pas_list.
	 */
	need = MLX5_ST_SZ_BYTES(create_qp_in); /* The extension in it. */
	ext = (const uint8_t *)EMU_ADDR_OF(create_qp_in, in,
					   qpc_extension_and_pas_list);
	if (inlen < need || !dev->caps.crypto ||
	    ext[0] != EMU_QPC_EXT_MMO ||
	    !emu_bytes_zero(ext + 1, MLX5_ST_SZ_BYTES(qpc_extension) - 1))
		return emu_crypto_refuse(dev, out, outlen,
					 EMU_CMD_STAT_BAD_PARAM_ERR,
					 MLX5_EMU_SYND_QP_CTX, "QP",
					 "qpc_ext: only qpc_extension.mmo "
					 "(crypto_mmo_qp) is modelled");
	*mmo = 1;
	return 0;
}

/*
 * [addr, addr + len) of key: an indirect mkey of the QP's PD (out gets its
 * offset and the mkey) or an MR (write: with write access). 0 or -1.
 */
static int
emu_gcm_mem(struct emu_qp *qp, uint32_t key, uint64_t addr, uint32_t len,
	    int write, struct emu_mkey **mkp, struct emu_wqe_err *e)
{
	struct emu_mkey *mk = emu_mkey_lookup(qp->net->crypto, key);

	*mkp = NULL;
	if (mk != NULL) {
		if (mk->pdn != qp->wq.pdn || addr < mk->start ||
		    addr - mk->start > mk->len ||
		    len > mk->len - (addr - mk->start))
			return emu_wqe_fail(e, EMU_SYND_REM_ACCESS_ERR, 0);
		*mkp = mk;
		return 0;
	}
	if (emu_mr_check_wq(qp->net, &qp->wq, key, addr, len, write) != 0)
		return emu_wqe_fail(e, EMU_SYND_LOC_PROT_ERR, 0);
	return 0;
}

/* len bytes at offset off of an indirect mkey into dst. */
static int
emu_klm_gather(struct emu_qp *qp, const struct emu_mkey *mk, uint64_t off,
	       uint8_t *dst, uint32_t len, struct emu_wqe_err *e)
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
				    n, 0) != 0)
			return emu_wqe_fail(e, EMU_SYND_REM_ACCESS_ERR, 0);
		memcpy(dst, (const void *)(uintptr_t)(k->addr + off), n);
		dst += n;
		len -= n;
		off = 0;
	}
	if (len != 0)
		return emu_wqe_fail(e, EMU_SYND_REM_ACCESS_ERR, 0);
	return 0;
}

/* AES-GCM of one message; 0, 1 (decrypt: tag differs) or -1. */
static int
emu_gcm_run(struct emu_gcm *g, int enc, const uint8_t *iv,
	    const uint8_t *aad, uint32_t aad_len, const uint8_t *in,
	    uint8_t *out, uint32_t len, uint8_t *tag, uint32_t tag_len)
{
	EVP_CIPHER_CTX *ctx = enc ? g->enc : g->dec;
	uint8_t fin[16];
	int outl;

	if (EVP_CipherInit_ex(ctx, NULL, NULL, NULL, iv, enc) != 1)
		return -1;
	if (aad_len != 0 &&
	    EVP_CipherUpdate(ctx, NULL, &outl, aad, (int)aad_len) != 1)
		return -1;
	if (len != 0 && (EVP_CipherUpdate(ctx, out, &outl, in, (int)len) != 1 ||
			 outl != (int)len))
		return -1;
	if (!enc && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG,
					(int)tag_len, tag) != 1)
		return -1;
	if (EVP_CipherFinal_ex(ctx, fin, &outl) != 1)
		return enc ? -1 : 1;
	if (enc && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG,
				       (int)tag_len, tag) != 1)
		return -1;
	return 0;
}

/* The DEK of the WQE's gga_ctrl2 (DEK number), checked. */
static struct emu_dek *
emu_gcm_dek(struct emu_qp *qp, uint32_t id, struct emu_wqe_err *e)
{
	struct emu_dek *dek = emu_dek_lookup(qp->net->crypto, id & 0xffffff);

	if (dek == NULL)
		emu_wqe_fail(e, EMU_SYND_REM_OP_ERR, EMU_VSYND_NO_DEK);
	else if (dek->pdn != qp->wq.pdn)
		emu_wqe_fail(e, EMU_SYND_REM_OP_ERR, EMU_VSYND_DEK_PD);
	else if (dek->gcm == NULL)
		emu_wqe_fail(e, EMU_SYND_REM_OP_ERR, EMU_VSYND_DEK_KIND);
	else
		return dek;
	return NULL;
}

int
emu_mmo_exec(struct emu_qp *qp, const uint8_t *w, unsigned int ds,
	     struct emu_wqe_err *e)
{
	uint32_t ctrl1 = emu_be32_at(w + 12);
	uint32_t op = (ctrl1 >> EMU_MMO_OP_OFF) & 0xf;
	uint32_t olkey = emu_be32_at(w + 20);
	uint64_t oaddr = emu_be64_at(w + 24);
	uint32_t gbytes = emu_be32_at(w + 32), gkey = emu_be32_at(w + 36);
	uint64_t gaddr = emu_be64_at(w + 40);
	uint32_t sbytes = emu_be32_at(w + 48), skey = emu_be32_at(w + 52);
	uint64_t saddr = emu_be64_at(w + 56);
	uint32_t tag_len, aad_len, len;
	struct emu_mkey *gmk, *smk, *omk;
	struct emu_dek *dek;
	uint8_t tag[EMU_GCM_MAX_TAG];
	uint8_t *opaq, *buf;
	int enc = op == 0, ret;

	/* qpc_extension.mmo; MLX5_OPC_MOD_MMO_CRYPTO; ds of mlx5_gga_wqe as
	 * mlx5_crypto_gcm_init_qp() writes it (4).
	 */
	if (!qp->mmo || (emu_be32_at(w) >> 24) != EMU_OPC_MOD_CRYPTO ||
	    ds != 4 || op > 1 ||
	    (ctrl1 & ~(0xfu << EMU_MMO_OP_OFF)) !=
	    (uint32_t)EMU_MMO_TYPE_GCM << EMU_MMO_TYPE_OFF)
		return emu_wqe_fail(e, EMU_SYND_LOC_QP_OP_ERR, 0);
	/* The opaque: the device reads iv, tag_size, aad_size and writes
	 * the syndrome (union mlx5_gga_crypto_opaque).
	 */
	if (emu_gcm_mem(qp, olkey, oaddr, EMU_GCM_OPAQUE, 1, &omk, e) != 0)
		return -1;
	if (omk != NULL)
		return emu_wqe_fail(e, EMU_SYND_LOC_QP_OP_ERR, 0);
	opaq = (uint8_t *)(uintptr_t)oaddr;
	tag_len = emu_be32_at(opaq + 24);
	aad_len = emu_be32_at(opaq + 28);
	if ((tag_len != 12 && tag_len != 16) ||
	    gbytes > (1u << EMU_GCM_LOG_MAX) ||
	    aad_len > gbytes || gbytes - aad_len < (enc ? 0 : tag_len) ||
	    sbytes != (enc ? gbytes + tag_len : gbytes - tag_len))
		return emu_wqe_fail(e, EMU_SYND_LOC_LEN_ERR, 0);
	len = gbytes - aad_len - (enc ? 0 : tag_len);
	if (emu_gcm_mem(qp, gkey, gaddr, gbytes, 0, &gmk, e) != 0 ||
	    emu_gcm_mem(qp, skey, saddr, sbytes, 1, &smk, e) != 0)
		return -1;
	dek = emu_gcm_dek(qp, emu_be32_at(w + 16), e);
	if (dek == NULL)
		return -1;
	/* Gather into the bounce buffer: input, then room for the output. */
	buf = emu_qp_bounce(qp, gbytes + sbytes);
	if (buf == NULL)
		return emu_wqe_fail(e, EMU_SYND_LOC_QP_OP_ERR, 0);
	if (gmk != NULL) {
		if (emu_klm_gather(qp, gmk, gaddr - gmk->start, buf, gbytes, e) != 0)
			return -1;
	} else {
		memcpy(buf, (const void *)(uintptr_t)gaddr, gbytes);
	}
	if (!enc)
		memcpy(tag, buf + aad_len + len, tag_len);
	memcpy(buf + gbytes, buf, aad_len);
	ret = emu_gcm_run(dek->gcm, enc, opaq + 12, buf, aad_len,
			  buf + aad_len, buf + gbytes + aad_len, len,
			  enc ? buf + gbytes + aad_len + len : tag, tag_len);
	if (ret != 0) {
		/* The syndrome word of the opaque (big endian). */
		opaq[0] = 0;
		opaq[1] = 0;
		opaq[2] = 0;
		opaq[3] = ret > 0 ? EMU_GCM_SYND_TAG : 0xff;
		return emu_wqe_fail(e, EMU_SYND_REM_OP_ERR, ret > 0 ?
				    EMU_VSYND_GCM_TAG : EMU_VSYND_CIPHER);
	}
	memset(opaq, 0, 4);
	if (smk != NULL)
		return emu_klm_scatter(qp, smk, saddr - smk->start,
				       buf + gbytes, sbytes, e);
	memcpy((void *)(uintptr_t)saddr, buf + gbytes, sbytes);
	return 0;
}
