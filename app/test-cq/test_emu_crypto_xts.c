/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_crypto_xts": the emulated HCA's crypto engine driven the way
 * a crypto PMD drives ConnectX: a loopback RC QP (CREATE_QP, RST -> INIT
 * -> RTR -> RTS) whose CQ rte_common_mlx5's mlx5_devx_cq_create() makes,
 * an indirect crypto mkey (CREATE_MKEY crypto_en), DEKs, then UMR WQEs
 * (KLMs + crypto BSF) and RDMA-write WQEs built here byte by byte from
 * the PRM layouts. Ciphertexts are IEEE 1619 known answers
 * (test_xts_vectors.h), CQEs are checked byte by byte, and every error
 * path (no DEK, wrong keytag, wrong length, bad rkey, bad lkey) gives
 * the error CQE, flushes what follows, and the objects, umems and
 * rte_malloc use return to their starting values.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_malloc.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>
#include <mlx5_devx_cmds.h>
#include <mlx5_common_devx.h>

#include "mlx5_emu.h"
#include "test.h"
#include "test_usage.h"
#include "test_xts_fix.h"
#include "test_xts_vectors.h"

static void
counting(uint8_t *p, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)i;
}

/* Vectors 4 (AES-128, DU 0) and 10 (AES-256, DU 0xff), one data unit,
 * one source and one target; vector 10 decrypted back in place.
 */
static int
test_xts_single_unit(void)
{
	struct mlx5dv_devx_obj *d4, *d10;
	struct heap_use h0, h1;
	uint8_t *src, *dst;
	struct bsf_p b;
	struct seg s, t;
	struct xfix f;
	uint32_t id4, id10;
	uint16_t idx;

	heap_use(&h0);
	TEST_ASSERT_SUCCESS(xfix_open(&f, "emu_xts_one"), "fixture");
	src = f.buf;
	dst = f.buf + 4096;
	counting(src, 512);
	d4 = dek_make(&f, xts_v4_key, 16, &id4);
	d10 = dek_make(&f, xts_v10_key, 32, &id10);
	TEST_ASSERT(d4 != NULL && d10 != NULL, "DEKs");
	bsf_init(&b, id4, 512);
	s = (struct seg){ 512, f.mr->lkey, src };
	t = (struct seg){ 512, f.mr->lkey, dst };
	post_umr(&f, &t, 1, 512, &b);
	idx = post_write(&f, &s, 1, 0, f.mkey_key);
	ring_db(&f);
	TEST_ASSERT_SUCCESS(expect_cqe(&f, 0, 0, 0, OP_RDMA_WRITE, idx),
			    "requester CQE");
	TEST_ASSERT_SUCCESS(no_cqe(&f), "the UMR asked for none");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(dst, xts_v4_ctx, 512, "vector 4");
	/* Vector 10: tweak 0xff as a little-endian number. */
	b.dek = id10;
	b.tweak[0] = 0xff;
	post_umr(&f, &t, 1, 512, &b);
	idx = post_write(&f, &s, 1, 0, f.mkey_key);
	ring_db(&f);
	TEST_ASSERT_SUCCESS(expect_cqe(&f, 0, 0, 0, OP_RDMA_WRITE, idx), "");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(dst, xts_v10_ctx, 512, "vector 10");
	/* Decrypt in place: memory side plain (RAW_WIRE). */
	b.order = ORDER_RAW_WIRE;
	post_umr(&f, &t, 1, 512, &b);
	t.addr = dst;
	idx = post_write(&f, &t, 1, 0, f.mkey_key);
	ring_db(&f);
	TEST_ASSERT_SUCCESS(expect_cqe(&f, 0, 0, 0, OP_RDMA_WRITE, idx), "");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(dst, src, 512, "vector 10 decrypted");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(d4), "dek");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(d10), "dek");
	TEST_ASSERT_SUCCESS(xfix_close(&f), "close");
	heap_use(&h1);
	TEST_ASSERT(h0.heap_bytes == h1.heap_bytes &&
		    h0.alloc_count == h1.alloc_count, "rte_malloc use");
	return TEST_SUCCESS;
}

/* Vectors 4 then 5 as one 1024-byte message of two 512-byte data units
 * (tweak 0 then 1), gathered from three sources and scattered to three
 * targets whose borders fall inside the units.
 */
static int
test_xts_multi_unit_sgl(void)
{
	uint8_t *src = NULL, *out, want[1024];
	struct mlx5dv_devx_obj *d4;
	struct seg s[3], t[3];
	struct bsf_p b;
	struct xfix f;
	uint32_t id4;
	uint16_t idx;

	TEST_ASSERT_SUCCESS(xfix_open(&f, "emu_xts_multi"), "fixture");
	src = f.buf;
	counting(src, 512);
	memcpy(src + 512, xts_v4_ctx, 512);
	memcpy(want, xts_v4_ctx, 512);
	memcpy(want + 512, xts_v5_ctx, 512);
	out = f.buf + 8192;
	d4 = dek_make(&f, xts_v4_key, 16, &id4);
	TEST_ASSERT_NOT_NULL(d4, "DEK");
	bsf_init(&b, id4, 1024);
	s[0] = (struct seg){ 100, f.mr->lkey, src };
	s[1] = (struct seg){ 700, f.mr->lkey, src + 100 };
	s[2] = (struct seg){ 224, f.mr->lkey, src + 800 };
	t[0] = (struct seg){ 300, f.mr->lkey, out };
	t[1] = (struct seg){ 424, f.mr->lkey, out + 1000 }; /* a gap */
	t[2] = (struct seg){ 300, f.mr->lkey, out + 2000 };
	post_umr(&f, t, 3, 1024, &b);
	idx = post_write(&f, s, 3, 0, f.mkey_key);
	ring_db(&f);
	TEST_ASSERT_SUCCESS(expect_cqe(&f, 0, 0, 0, OP_RDMA_WRITE, idx), "");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(out, want, 300, "target 0");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(out + 1000, want + 300, 424, "target 1");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(out + 2000, want + 724, 300,
				      "target 2");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(d4), "dek");
	TEST_ASSERT_SUCCESS(xfix_close(&f), "close");
	return TEST_SUCCESS;
}

/* One failing message: its error CQE, then the next WQE flushed. */
static int
fail_case(struct xfix *f, const struct bsf_p *b, uint32_t rkey,
	  uint32_t lkey, uint8_t synd, uint8_t vsynd)
{
	struct seg s = { 512, lkey, f->buf };
	struct seg t = { 512, f->mr->lkey, f->buf + 4096 };
	uint16_t idx, idx2;

	memset(f->buf + 4096, 0xa5, 512);
	post_umr(f, &t, 1, 512, b);
	idx = post_write(f, &s, 1, 0, rkey);
	idx2 = post_write(f, &s, 1, 0, rkey);
	ring_db(f);
	TEST_ASSERT_SUCCESS(expect_cqe(f, MLX5_CQE_REQ_ERR, synd, vsynd,
				       OP_RDMA_WRITE, idx), "error CQE");
	TEST_ASSERT_SUCCESS(expect_cqe(f, MLX5_CQE_REQ_ERR, 0x05, 0,
				       OP_RDMA_WRITE, idx2), "flushed");
	TEST_ASSERT_SUCCESS(no_cqe(f), "nothing more");
	TEST_ASSERT(f->buf[4096] == 0xa5 && f->buf[4096 + 511] == 0xa5,
		    "target untouched");
	/* Back to work: RST and up again. */
	TEST_ASSERT_SUCCESS(qp_cmd(f, MLX5_CMD_OP_QP_2RST), "2rst");
	return qp_to_rts(f);
}

static int
test_xts_error_cqes(void)
{
	struct mlx5dv_devx_obj *d4;
	struct bsf_p b, x;
	struct xfix f;
	uint32_t id4;

	TEST_ASSERT_SUCCESS(xfix_open(&f, "emu_xts_err"), "fixture");
	counting(f.buf, 512);
	d4 = dek_make(&f, xts_v4_key, 16, &id4);
	TEST_ASSERT_NOT_NULL(d4, "DEK");
	bsf_init(&b, id4, 512);
	/* Another keytag: REM_OP_ERR, vendor 0x03. */
	x = b;
	x.keytag ^= 1;
	TEST_ASSERT_SUCCESS(fail_case(&f, &x, f.mkey_key, f.mr->lkey, 0x14,
				      0x03), "keytag");
	/* A length other than the BSF's: LOC_LEN_ERR. */
	x = b;
	x.raw = 1024;
	TEST_ASSERT_SUCCESS(fail_case(&f, &x, f.mkey_key, f.mr->lkey, 0x01,
				      0), "length");
	/* A bad rkey: REM_ACCESS_ERR; a bad lkey: LOC_PROT_ERR. */
	TEST_ASSERT_SUCCESS(fail_case(&f, &b, f.mkey_key ^ 0x100, f.mr->lkey,
				      0x13, 0), "rkey");
	TEST_ASSERT_SUCCESS(fail_case(&f, &b, f.mkey_key, f.mr->lkey + 1,
				      0x04, 0), "lkey");
	/* The DEK destroyed: REM_OP_ERR, vendor 0x01. */
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(d4), "dek");
	TEST_ASSERT_SUCCESS(fail_case(&f, &b, f.mkey_key, f.mr->lkey, 0x14,
				      0x01), "no DEK");
	/* A CQ a QP uses is refused (the log line says so) and still
	 * takes the QP's completions.
	 */
	TEST_ASSERT_EQUAL(mlx5_glue->devx_obj_destroy(f.cq.cq->obj), EBUSY,
			  "a CQ a QP uses stays");
	d4 = dek_make(&f, xts_v4_key, 16, &id4);
	TEST_ASSERT_NOT_NULL(d4, "DEK");
	TEST_ASSERT_SUCCESS(xfix_vector4(&f, id4), "after the refusal");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(d4), "dek");
	TEST_ASSERT_SUCCESS(xfix_close(&f), "close");
	return TEST_SUCCESS;
}

/*
 * The same through the objects rte_common_mlx5's own helpers make, as
 * DPDK's crypto/mlx5 makes them: mlx5_devx_qp_create() + qp2rts()
 * (loopback), mlx5_devx_cmd_mkey_create() (crypto_en, umr_en, remote rw,
 * 4 KLMs), mlx5_devx_cmd_create_dek_obj() (plaintext key + keytag).
 */
static int
test_xts_dpdk_helpers(void)
{
	struct mlx5_devx_mkey_attr ma;
	struct mlx5_devx_dek_attr da;
	struct mlx5_devx_qp_attr qa;
	struct mlx5_devx_obj *mkey, *dek;
	struct mlx5_klm klm[4];
	struct mlx5_devx_qp qp;
	struct xfix f, save;

	TEST_ASSERT_SUCCESS(xfix_open(&f, "emu_xts_dpdk"), "fixture");
	memset(&qa, 0, sizeof(qa));
	qa.pd = f.pdn;
	qa.uar_index = f.uar->page_id;
	qa.cqn = f.cq.cq->id;
	qa.num_of_send_wqbbs = 1u << LOG_SQ;
	memset(&qp, 0, sizeof(qp));
	TEST_ASSERT_SUCCESS(mlx5_devx_qp_create(f.ctx, &qp, WQEBB << LOG_SQ,
						&qa, SOCKET_ID_ANY), "QP");
	TEST_ASSERT_SUCCESS(mlx5_devx_qp2rts(&qp, qp.qp->id), "qp2rts");
	memset(klm, 0, sizeof(klm));
	memset(&ma, 0, sizeof(ma));
	ma.pd = f.pdn;
	ma.umr_en = 1;
	ma.crypto_en = 1;
	ma.set_remote_rw = 1;
	ma.klm_array = klm;
	ma.klm_num = 4;
	mkey = mlx5_devx_cmd_mkey_create(f.ctx, &ma);
	TEST_ASSERT_NOT_NULL(mkey, "mkey");
	memset(&da, 0, sizeof(da));
	da.key_size = MLX5_CRYPTO_KEY_SIZE_128b;
	da.has_keytag = 1;
	da.key_purpose = MLX5_CRYPTO_KEY_PURPOSE_AES_XTS;
	da.pd = f.pdn;
	memcpy(da.key, xts_v4_key, 32);
	put64(da.key + 32, KEYTAG);
	dek = mlx5_devx_cmd_create_dek_obj(f.ctx, &da);
	TEST_ASSERT_NOT_NULL(dek, "DEK");
	/* Post on the helpers' QP through the helpers' mkey. */
	save = f;
	f.ring = qp.umem_buf;
	f.dbr = qp.db_rec;
	f.qpn = qp.qp->id;
	f.pi = 0;
	f.mkey_key = mkey->id;
	TEST_ASSERT_SUCCESS(xfix_vector4(&f, dek->id), "vector 4");
	save.ci = f.ci;
	f = save;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(dek), "dek");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(mkey), "mkey");
	mlx5_devx_qp_destroy(&qp);
	TEST_ASSERT_SUCCESS(xfix_close(&f), "close");
	return TEST_SUCCESS;
}

static struct unit_test_suite emu_crypto_xts_suite = {
	.suite_name = "emu_crypto_xts",
	.unit_test_cases = {
		TEST_CASE(test_xts_single_unit),
		TEST_CASE(test_xts_multi_unit_sgl),
		TEST_CASE(test_xts_error_cqes),
		TEST_CASE(test_xts_dpdk_helpers),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(emu_crypto_xts, emu_crypto_xts_suite);
