/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_crypto_gcm": the emulated HCA's AES-GCM engine driven as
 * DPDK's crypto/mlx5 (23.07 and later, mlx5_crypto_gcm.c) drives
 * ConnectX-7: the crypto_caps bits of QUERY_HCA_CAP, DEKs of key_purpose
 * GCM (5; a 128-bit key at byte 16 of the key field), a QP created with
 * qpc_ext and qpc_extension.mmo, and crypto MMO WQEs (struct
 * mlx5_gga_wqe: opcode 0x2f, opc_mod 6, gga_ctrl1 type AES_GCM / op,
 * gga_ctrl2 the DEK, an opaque of iv, tag_size, aad_size) built here byte
 * by byte from 23.11's mlx5_prm.h. Ciphertexts and tags are the GCM
 * specification's test cases (test_gcm_vectors.h); a wrong tag gives the
 * model's error CQE and leaves the output untouched; refusals and the
 * rte_malloc use before and after are checked.
 */

#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_malloc.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>

#include "mlx5_emu.h"
#include "test.h"
#include "test_usage.h"
#include "test_xts_fix.h"
#include "test_gcm_vectors.h"

#define OP_MMO 0x2f
#define OPC_MOD_CRYPTO 6u
#define KEY_PURPOSE_GCM 5
#define GCM_TYPE 3u /* MLX5_ENCRYPTION_TYPE_AES_GCM. */
#define SYND_REM_OP_ERR 0x14
#define VSYND_GCM_TAG 0x06 /* The model's vendor syndrome. */
#define OPAQ_OFF 60000 /* The opaque inside the fixture's buffer. */

static void
be32_put(uint8_t *p, uint32_t v)
{
	rte_be32_t be = rte_cpu_to_be_32(v);

	memcpy(p, &be, 4);
}

/* The fixture with its QP replaced by an MMO QP (qpc_ext, mmo 1). */
static int
gfix_open(struct xfix *f, const char *name)
{
	uint32_t in[MLX5_ST_SZ_DW(create_qp_in) +
		    MLX5_ST_SZ_DW(qpc_extension)];
	uint32_t out[MLX5_ST_SZ_DW(create_qp_out)] = {0};
	uint8_t *ext;

	TEST_ASSERT_SUCCESS(xfix_open_mode(f, name, 0), "fixture");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(f->qp), "xts qp");
	memset(in, 0, sizeof(in));
	qp_in_fill(f, in);
	MLX5_SET(create_qp_in, in, qpc_ext, 1);
	ext = (uint8_t *)MLX5_ADDR_OF(create_qp_in, in,
				      qpc_extension_and_pas_list);
	ext[0] = 0x20; /* qpc_extension.mmo (bit 2). */
	f->qp = mlx5_glue->devx_obj_create(f->ctx, in, sizeof(in), out,
					   sizeof(out));
	TEST_ASSERT_NOT_NULL(f->qp, "MMO qp");
	f->qpn = MLX5_GET(create_qp_out, out, qpn);
	return qp_to_rts(f);
}

/* A GCM DEK as mlx5_crypto_dek_fill_gcm_attr() fills it. */
static struct mlx5dv_devx_obj *
gcm_dek(struct xfix *f, const uint8_t *key, unsigned int len, int keytag,
	uint32_t *id)
{
	uint32_t in[MLX5_ST_SZ_DW(create_dek_in)] = {0};
	uint32_t out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)] = {0};
	void *d = MLX5_ADDR_OF(create_dek_in, in, dek);
	uint8_t *k = (uint8_t *)MLX5_ADDR_OF(dek, d, key);
	struct mlx5dv_devx_obj *o;

	MLX5_SET(general_obj_in_cmd_hdr, in, opcode,
		 MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type,
		 MLX5_GENERAL_OBJ_TYPE_DEK);
	MLX5_SET(dek, d, key_size, len == 32);
	MLX5_SET(dek, d, has_keytag, keytag);
	MLX5_SET(dek, d, key_purpose, KEY_PURPOSE_GCM);
	MLX5_SET(dek, d, pd, f->pdn);
	memcpy(k + (len == 16 ? 16 : 0), key, len);
	o = mlx5_glue->devx_obj_create(f->ctx, in, sizeof(in), out,
				       sizeof(out));
	*id = MLX5_GET(general_obj_out_cmd_hdr, out, obj_id);
	return o;
}

/* One crypto MMO WQE (64 bytes), CQE always; its index. */
static uint16_t
post_mmo(struct xfix *f, int dec, uint32_t dek, const struct seg *g,
	 const struct seg *s)
{
	uint8_t *w = wqe_at(f, f->pi);
	uint16_t idx = f->pi;

	memset(w, 0, WQEBB);
	be32_put(w, OPC_MOD_CRYPTO << 24 | (uint32_t)f->pi << 8 | OP_MMO);
	be32_put(w + 4, f->qpn << 8 | 4);
	be32_put(w + 8, CE_ALWAYS);
	be32_put(w + 12, GCM_TYPE << 24 | (uint32_t)dec << 20);
	be32_put(w + 16, dek);
	be32_put(w + 20, f->mr->lkey);
	put64(w + 24, (uintptr_t)(f->buf + OPAQ_OFF));
	be32_put(w + 32, g->len);
	be32_put(w + 36, g->key);
	put64(w + 40, (uintptr_t)g->addr);
	be32_put(w + 48, s->len);
	be32_put(w + 52, s->key);
	put64(w + 56, (uintptr_t)s->addr);
	f->pi++;
	return idx;
}

/* The opaque: iv (12 zero bytes when NULL), tag_size 16, aad_size. */
static void
opaque_set(struct xfix *f, const uint8_t *iv, uint32_t aad)
{
	uint8_t *o = f->buf + OPAQ_OFF;

	memset(o, 0xee, 64);
	memset(o + 12, 0, 12);
	if (iv != NULL)
		memcpy(o + 12, iv, 12);
	be32_put(o + 24, 16);
	be32_put(o + 28, aad);
}

/* Encrypt AAD || P at src to dst, check C and T, decrypt back in place. */
static int
gcm_kat(struct xfix *f, uint32_t dek, const uint8_t *iv, const uint8_t *aad,
	uint32_t alen, const uint8_t *pt, const uint8_t *ct, uint32_t len,
	const uint8_t *tag)
{
	uint8_t *src = f->buf, *dst = f->buf + 8192;
	struct seg g = { alen + len, f->mr->lkey, src };
	struct seg s = { alen + len + 16, f->mr->lkey, dst };
	uint16_t idx;

	if (alen != 0)
		memcpy(src, aad, alen);
	memcpy(src + alen, pt, len);
	memset(dst, 0x5a, s.len + 16);
	opaque_set(f, iv, alen);
	idx = post_mmo(f, 0, dek, &g, &s);
	ring_db(f);
	TEST_ASSERT_SUCCESS(expect_cqe(f, 0, 0, 0, OP_MMO, idx), "CQE");
	if (alen != 0)
		TEST_ASSERT_BUFFERS_ARE_EQUAL(dst, aad, alen, "AAD copied");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(dst + alen, ct, len, "ciphertext");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(dst + alen + len, tag, 16, "tag");
	TEST_ASSERT(dst[s.len] == 0x5a, "nothing past the tag");
	TEST_ASSERT(rte_be_to_cpu_32(*(rte_be32_t *)(f->buf + OPAQ_OFF)) == 0,
		    "opaque syndrome 0");
	/* Decrypt in place: AAD || C || T in, AAD || P out. */
	g = (struct seg){ alen + len + 16, f->mr->lkey, dst };
	s = (struct seg){ alen + len, f->mr->lkey, dst };
	idx = post_mmo(f, 1, dek, &g, &s);
	ring_db(f);
	TEST_ASSERT_SUCCESS(expect_cqe(f, 0, 0, 0, OP_MMO, idx), "CQE");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(dst + alen, pt, len, "plaintext");
	return TEST_SUCCESS;
}

/* crypto_caps: crypto_mmo_qp .. gcm_auth_tag_96 set (bits 0x100-0x106),
 * log_crypto_mmo_max_size 24 (bits 0x10a-0x10f), as 23.11's
 * mlx5_devx_cmd_query_hca_attr() reads them.
 */
static int
test_gcm_caps(void)
{
	uint32_t in[MLX5_ST_SZ_DW(query_hca_cap_in)] = {0};
	uint32_t out[MLX5_ST_SZ_DW(query_hca_cap_out)] = {0};
	const uint8_t *cap;
	struct xfix f;

	TEST_ASSERT_SUCCESS(xfix_open_mode(&f, "emu_gcm_caps", 0), "fixture");
	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod,
		 MLX5_GET_HCA_CAP_OP_MOD_CRYPTO | MLX5_HCA_CAP_OPMOD_GET_CUR);
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_general_cmd(f.ctx, in, sizeof(in),
							out, sizeof(out)),
			    "QUERY_HCA_CAP crypto");
	cap = (const uint8_t *)MLX5_ADDR_OF(query_hca_cap_out, out,
					    capability);
	TEST_ASSERT_EQUAL(cap[0x20], 0xfe, "GCM bits 0x%02x", cap[0x20]);
	TEST_ASSERT_EQUAL((cap[0x21] & 0x3f), 24, "log_crypto_mmo_max_size");
	TEST_ASSERT_SUCCESS(xfix_close(&f), "close");
	return TEST_SUCCESS;
}

/* Test cases 2, 4 (AES-128) and 14, 16 (AES-256), with and without AAD. */
static int
test_gcm_kat(void)
{
	static const uint8_t zero[32];
	struct mlx5dv_devx_obj *d4, *d16, *dz128, *dz256;
	uint32_t id4, id16, idz128, idz256;
	struct heap_use h0, h1;
	struct xfix f;

	heap_use(&h0);
	TEST_ASSERT_SUCCESS(gfix_open(&f, "emu_gcm_kat"), "fixture");
	d4 = gcm_dek(&f, gcm_key4, 16, 0, &id4);
	d16 = gcm_dek(&f, gcm_key16, 32, 0, &id16);
	dz128 = gcm_dek(&f, zero, 16, 0, &idz128);
	dz256 = gcm_dek(&f, zero, 32, 0, &idz256);
	TEST_ASSERT(d4 != NULL && d16 != NULL && dz128 != NULL &&
		    dz256 != NULL, "DEKs");
	TEST_ASSERT_SUCCESS(gcm_kat(&f, id4, gcm_iv, gcm_aad, 20, gcm_pt,
				    gcm_ct4, 60, gcm_tag4), "test case 4");
	TEST_ASSERT_SUCCESS(gcm_kat(&f, id16, gcm_iv, gcm_aad, 20, gcm_pt,
				    gcm_ct16, 60, gcm_tag16), "test case 16");
	TEST_ASSERT_SUCCESS(gcm_kat(&f, idz128, NULL, NULL, 0, zero, gcm_ct2,
				    16, gcm_tag2), "test case 2");
	TEST_ASSERT_SUCCESS(gcm_kat(&f, idz256, NULL, NULL, 0, zero, gcm_ct14,
				    16, gcm_tag14), "test case 14");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(d4), "dek");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(d16), "dek");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(dz128), "dek");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(dz256), "dek");
	TEST_ASSERT_SUCCESS(xfix_close(&f), "close");
	heap_use(&h1);
	return heap_use_same(&h0, &h1, "emu_gcm_kat");
}

/* A wrong tag: error CQE (REM_OP_ERR, the model's vendor 0x06), opaque
 * syndrome 1, output untouched, the next WQE flushed.
 */
static int
test_gcm_tag_fail(void)
{
	uint8_t *in, *outb;
	struct mlx5dv_devx_obj *d4;
	struct heap_use h0, h1;
	struct seg g, s;
	struct xfix f;
	uint16_t idx, idx2;
	uint32_t id4;

	heap_use(&h0);
	TEST_ASSERT_SUCCESS(gfix_open(&f, "emu_gcm_tag"), "fixture");
	d4 = gcm_dek(&f, gcm_key4, 16, 0, &id4);
	TEST_ASSERT_NOT_NULL(d4, "DEK");
	in = f.buf;
	outb = f.buf + 8192;
	memcpy(in, gcm_aad, 20);
	memcpy(in + 20, gcm_ct4, 60);
	memcpy(in + 80, gcm_tag4, 16);
	in[95] ^= 1;
	memset(outb, 0x5a, 128);
	opaque_set(&f, gcm_iv, 20);
	g = (struct seg){ 96, f.mr->lkey, in };
	s = (struct seg){ 80, f.mr->lkey, outb };
	idx = post_mmo(&f, 1, id4, &g, &s);
	idx2 = post_mmo(&f, 1, id4, &g, &s);
	ring_db(&f);
	TEST_ASSERT_SUCCESS(expect_cqe(&f, MLX5_CQE_REQ_ERR, SYND_REM_OP_ERR,
				       VSYND_GCM_TAG, OP_MMO, idx), "tag");
	TEST_ASSERT_SUCCESS(expect_cqe(&f, MLX5_CQE_REQ_ERR, 0x05, 0, OP_MMO,
				       idx2), "flushed");
	TEST_ASSERT_SUCCESS(no_cqe(&f), "nothing more");
	TEST_ASSERT(rte_be_to_cpu_32(*(rte_be32_t *)(f.buf + OPAQ_OFF)) == 1,
		    "opaque syndrome");
	TEST_ASSERT(outb[0] == 0x5a && outb[79] == 0x5a, "output untouched");
	/* Back to RTS; the right tag decrypts. */
	TEST_ASSERT_SUCCESS(qp_cmd(&f, MLX5_CMD_OP_QP_2RST), "2rst");
	TEST_ASSERT_SUCCESS(qp_to_rts(&f), "rts");
	in[95] ^= 1;
	idx = post_mmo(&f, 1, id4, &g, &s);
	ring_db(&f);
	TEST_ASSERT_SUCCESS(expect_cqe(&f, 0, 0, 0, OP_MMO, idx), "CQE");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(outb + 20, gcm_pt, 60, "plaintext");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(d4), "dek");
	TEST_ASSERT_SUCCESS(xfix_close(&f), "close");
	heap_use(&h1);
	return heap_use_same(&h0, &h1, "emu_gcm_tag");
}

/* UMR of the mkey: KLMs only (bsf_octowords 0), as
 * mlx5_crypto_gcm_build_umr() points it at AAD, payload and digest.
 */
static void
post_umr_klm(struct xfix *f, const struct seg *klm, unsigned int n,
	     uint64_t len)
{
	uint8_t *w;
	unsigned int i;

	for (i = 0; i < 4; i++)
		memset(wqe_at(f, f->pi + i), 0, WQEBB);
	w = wqe_at(f, f->pi);
	be32_put(w, (uint32_t)f->pi << 8 | OP_UMR);
	be32_put(w + 4, f->qpn << 8 | 12);
	be32_put(w + 12, f->mkey_key);
	be32_put(w + 16, 1u << 31);
	be32_put(w + 20, 4u << 16);
	put64(w + 24, 1);
	put64(wqe_at(f, f->pi + 1) + 24, len);
	for (i = 0; i < n; i++) {
		w = wqe_at(f, f->pi + 2 + i / 4) + 16 * (i % 4);
		be32_put(w, klm[i].len);
		be32_put(w + 4, klm[i].key);
		put64(w + 8, (uintptr_t)klm[i].addr);
	}
	f->pi += 3;
}

/* Test case 4 through an indirect mkey: AAD, payload in two pieces and
 * the digest apart, in place.
 */
static int
test_gcm_klm(void)
{
	uint8_t *aad, *p1, *p2, *dg;
	struct mlx5dv_devx_obj *d4;
	struct seg k[4], g, s;
	struct xfix f;
	uint16_t idx;
	uint32_t id4;

	TEST_ASSERT_SUCCESS(gfix_open(&f, "emu_gcm_klm"), "fixture");
	d4 = gcm_dek(&f, gcm_key4, 16, 0, &id4);
	TEST_ASSERT_NOT_NULL(d4, "DEK");
	aad = f.buf + 100;
	p1 = f.buf + 1000;
	p2 = f.buf + 3000;
	dg = f.buf + 5000;
	memcpy(aad, gcm_aad, 20);
	memcpy(p1, gcm_pt, 25);
	memcpy(p2, gcm_pt + 25, 35);
	memset(dg, 0, 16);
	k[0] = (struct seg){ 20, f.mr->lkey, aad };
	k[1] = (struct seg){ 25, f.mr->lkey, p1 };
	k[2] = (struct seg){ 35, f.mr->lkey, p2 };
	k[3] = (struct seg){ 16, f.mr->lkey, dg };
	post_umr_klm(&f, k, 4, 96);
	opaque_set(&f, gcm_iv, 20);
	g = (struct seg){ 80, f.mkey_key, NULL };
	s = (struct seg){ 96, f.mkey_key, NULL };
	idx = post_mmo(&f, 0, id4, &g, &s);
	ring_db(&f);
	TEST_ASSERT_SUCCESS(expect_cqe(&f, 0, 0, 0, OP_MMO, idx), "CQE");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(p1, gcm_ct4, 25, "piece 1");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(p2, gcm_ct4 + 25, 35, "piece 2");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(dg, gcm_tag4, 16, "digest");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(aad, gcm_aad, 20, "AAD");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(d4), "dek");
	TEST_ASSERT_SUCCESS(xfix_close(&f), "close");
	return TEST_SUCCESS;
}

/* Refusals: a GCM DEK with a keytag, an MMO WQE on a QP without mmo
 * (LOC_QP_OP_ERR), a GCM WQE naming an XTS DEK (vendor 0x07), an
 * aad_size larger than the gather (LOC_LEN_ERR).
 */
static int
test_gcm_refusals(void)
{
	struct mlx5dv_devx_obj *d, *x;
	struct seg g, s;
	struct xfix f;
	uint32_t id, xid;
	uint16_t idx;

	TEST_ASSERT_SUCCESS(xfix_open_mode(&f, "emu_gcm_ref", 0), "fixture");
	TEST_ASSERT_NULL(gcm_dek(&f, gcm_key4, 16, 1, &id), "keytag");
	d = gcm_dek(&f, gcm_key4, 16, 0, &id);
	TEST_ASSERT_NOT_NULL(d, "DEK");
	opaque_set(&f, gcm_iv, 20);
	g = (struct seg){ 80, f.mr->lkey, f.buf };
	s = (struct seg){ 96, f.mr->lkey, f.buf + 8192 };
	idx = post_mmo(&f, 0, id, &g, &s);
	ring_db(&f);
	TEST_ASSERT_SUCCESS(expect_cqe(&f, MLX5_CQE_REQ_ERR, 0x02, 0, OP_MMO,
				       idx), "not an MMO QP");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(d), "dek");
	TEST_ASSERT_SUCCESS(xfix_close(&f), "close");
	TEST_ASSERT_SUCCESS(gfix_open(&f, "emu_gcm_ref2"), "fixture");
	x = dek_make(&f, gcm_ct16, 16, &xid);
	TEST_ASSERT_NOT_NULL(x, "XTS DEK");
	opaque_set(&f, gcm_iv, 20);
	idx = post_mmo(&f, 0, xid, &g, &s);
	ring_db(&f);
	TEST_ASSERT_SUCCESS(expect_cqe(&f, MLX5_CQE_REQ_ERR, SYND_REM_OP_ERR,
				       0x07, OP_MMO, idx), "XTS DEK");
	/* aad_size past the gather (and near 2^32): LOC_LEN_ERR. */
	TEST_ASSERT_SUCCESS(qp_cmd(&f, MLX5_CMD_OP_QP_2RST), "2rst");
	TEST_ASSERT_SUCCESS(qp_to_rts(&f), "rts");
	d = gcm_dek(&f, gcm_key4, 16, 0, &id);
	TEST_ASSERT_NOT_NULL(d, "DEK");
	opaque_set(&f, gcm_iv, 0xfffffff8);
	g.len = 96;
	s.len = 80;
	idx = post_mmo(&f, 1, id, &g, &s);
	ring_db(&f);
	TEST_ASSERT_SUCCESS(expect_cqe(&f, MLX5_CQE_REQ_ERR, 0x01, 0, OP_MMO,
				       idx), "aad_size");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(d), "dek");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(x), "dek");
	TEST_ASSERT_SUCCESS(xfix_close(&f), "close");
	return TEST_SUCCESS;
}

static struct unit_test_suite emu_crypto_gcm_suite = {
	.suite_name = "emu_crypto_gcm",
	.unit_test_cases = {
		TEST_CASE(test_gcm_caps),
		TEST_CASE(test_gcm_kat),
		TEST_CASE(test_gcm_tag_fail),
		TEST_CASE(test_gcm_klm),
		TEST_CASE(test_gcm_refusals),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(emu_crypto_gcm, emu_crypto_gcm_suite);
