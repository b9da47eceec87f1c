/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_crypto_faults": the rules of the crypto WQE table that only
 * a failure of the model itself reaches, driven with
 * mlx5_emu_fail_inject(): MLX5_EMU_FAIL_CRYPTO_BOUNCE (the bounce buffer
 * of a gathered or scattered message not allocated: LOCAL_QP_OP_ERR 0x02)
 * and MLX5_EMU_FAIL_CRYPTO_CIPHER (the cipher fails: REMOTE_OP_ERR 0x14,
 * vendor syndrome 0x05). WQEs are built from the PRM layouts
 * (test_xts_fix.c). Each failure gives one requester error CQE, checked
 * byte by byte against mlx5dv.h struct mlx5_err_cqe (opcode REQ_ERR 13,
 * syndrome, vendor_err_synd, s_wqe_opcode RDMA_WRITE, qpn, wqe_counter);
 * the QP is then in error, so the next WQE is flushed (WR_FLUSH_ERR 0x05)
 * and nothing more completes; after 2RST -> RTS the same message goes
 * through and its ciphertext is the IEEE 1619 known answer. Objects,
 * umems and rte_malloc use return to their starting values.
 */

#include <stdint.h>
#include <string.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>

#include "mlx5_emu.h"
#include "test.h"
#include "test_usage.h"
#include "test_xts_fix.h"
#include "test_xts_vectors.h"

#define SYND_LOC_QP_OP 0x02
#define SYND_FLUSH 0x05
#define SYND_REM_OP 0x14
#define VSYND_CIPHER 0x05
#define TGT_OFF 4096 /* Targets: from buf + 4096 on. */

/* A message of len bytes (512: vector 4; 1024: vectors 4 then 5, two
 * data units) from nsrc equal sources to ntgt equal targets.
 */
struct msg {
	uint32_t len;
	unsigned int nsrc;
	unsigned int ntgt;
};

/* Plaintext at buf, targets filled with 0xee; UMR, then the write, then
 * the same write again; the first write's index.
 */
static uint16_t
msg_post(struct xfix *f, uint32_t dek, const struct msg *m, uint16_t *next)
{
	struct seg s[4], t[4];
	struct bsf_p b;
	unsigned int i;
	uint16_t idx;

	for (i = 0; i < 512; i++)
		f->buf[i] = (uint8_t)i;
	if (m->len > 512)
		memcpy(f->buf + 512, xts_v4_ctx, 512);
	memset(f->buf + TGT_OFF, 0xee, m->len);
	for (i = 0; i < m->nsrc; i++)
		s[i] = (struct seg){ m->len / m->nsrc, f->mr->lkey,
				     f->buf + i * (m->len / m->nsrc) };
	for (i = 0; i < m->ntgt; i++)
		t[i] = (struct seg){ m->len / m->ntgt, f->mr->lkey,
				     f->buf + TGT_OFF + i * (m->len / m->ntgt) };
	bsf_init(&b, dek, m->len);
	post_umr(f, t, m->ntgt, m->len, &b);
	idx = post_write(f, s, m->nsrc, 0, f->mkey_key);
	*next = post_write(f, s, m->nsrc, 0, f->mkey_key);
	return idx;
}

/* The targets hold the known answer. */
static int
msg_ciphertext(struct xfix *f, const struct msg *m)
{
	TEST_ASSERT_BUFFERS_ARE_EQUAL(f->buf + TGT_OFF, xts_v4_ctx, 512,
				      "IEEE 1619 vector 4");
	if (m->len > 512)
		TEST_ASSERT_BUFFERS_ARE_EQUAL(f->buf + TGT_OFF + 512,
					      xts_v5_ctx, 512,
					      "IEEE 1619 vector 5");
	return TEST_SUCCESS;
}

/* The message through a QP in RTS: a requester CQE for each write,
 * nothing more, the known answer in the targets.
 */
static int
msg_ok(struct xfix *f, uint32_t dek, const struct msg *m, const char *what)
{
	uint16_t idx, next;

	idx = msg_post(f, dek, m, &next);
	ring_db(f);
	TEST_ASSERT_SUCCESS(expect_cqe(f, MLX5_CQE_REQ, 0, 0, OP_RDMA_WRITE,
				       idx), "%s: first write", what);
	TEST_ASSERT_SUCCESS(expect_cqe(f, MLX5_CQE_REQ, 0, 0, OP_RDMA_WRITE,
				       next), "%s: second write", what);
	TEST_ASSERT_SUCCESS(no_cqe(f), "%s: nothing more", what);
	return msg_ciphertext(f, m);
}

/*
 * One failure injected at point: the error CQE of the first write
 * (syndrome synd, vendor vsynd), the second flushed, nothing more, the
 * targets untouched (the model writes them after the cipher only). Then
 * the QP reset to RTS and the message run again without a failure.
 */
static int
msg_fault(struct xfix *f, uint32_t dek, const struct msg *m,
	  enum mlx5_emu_fail_point point, uint8_t synd, uint8_t vsynd,
	  const char *what)
{
	uint16_t idx, next;
	unsigned int i;

	mlx5_emu_fail_inject(f->ctx, point, 0, 1);
	idx = msg_post(f, dek, m, &next);
	ring_db(f);
	TEST_ASSERT_SUCCESS(expect_cqe(f, MLX5_CQE_REQ_ERR, synd, vsynd,
				       OP_RDMA_WRITE, idx), "%s: error CQE",
			    what);
	TEST_ASSERT_SUCCESS(expect_cqe(f, MLX5_CQE_REQ_ERR, SYND_FLUSH, 0,
				       OP_RDMA_WRITE, next), "%s: flushed",
			    what);
	TEST_ASSERT_SUCCESS(no_cqe(f), "%s: nothing more", what);
	for (i = 0; i < m->len; i++)
		TEST_ASSERT_EQUAL(f->buf[TGT_OFF + i], 0xee,
				  "%s: target byte %u written", what, i);
	/* The QP goes on after a reset (mlx5_devx_qp2rts() sequence). */
	TEST_ASSERT_SUCCESS(qp_cmd(f, MLX5_CMD_OP_QP_2RST), "%s: 2RST", what);
	TEST_ASSERT_SUCCESS(qp_to_rts(f), "%s: to RTS", what);
	return msg_ok(f, dek, m, what);
}

/* Runs body on a fresh fixture with the vector 4 DEK; checks for leaks. */
static int
with_fixture(const char *name, int (*body)(struct xfix *f, uint32_t dek))
{
	struct mlx5dv_devx_obj *d;
	struct heap_use h0, h1;
	struct xfix f;
	uint32_t id;
	int ret;

	heap_use(&h0);
	TEST_ASSERT_SUCCESS(xfix_open(&f, name), "fixture");
	d = dek_make(&f, xts_v4_key, 16, &id);
	ret = d != NULL ? body(&f, id) : TEST_FAILED;
	mlx5_emu_fail_inject(f.ctx, MLX5_EMU_FAIL_CRYPTO_BOUNCE, 0, 0);
	mlx5_emu_fail_inject(f.ctx, MLX5_EMU_FAIL_CRYPTO_CIPHER, 0, 0);
	if (d != NULL && mlx5_glue->devx_obj_destroy(d) != 0)
		ret = TEST_FAILED;
	if (xfix_close(&f) != TEST_SUCCESS)
		ret = TEST_FAILED;
	heap_use(&h1);
	TEST_ASSERT(h0.heap_bytes == h1.heap_bytes &&
		    h0.alloc_count == h1.alloc_count, "rte_malloc use");
	return ret;
}

/*
 * The bounce buffer grows with the first message that needs it: a
 * gathered one (two sources, one target), then a longer scattered one
 * (one source, two targets). A failure armed when nothing grows it is
 * not met.
 */
static int
bounce_body(struct xfix *f, uint32_t dek)
{
	static const struct msg gathered = { 512, 2, 1 };
	static const struct msg scattered = { 1024, 1, 2 };
	static const struct msg direct = { 512, 1, 1 };

	TEST_CHECK(msg_fault(f, dek, &gathered, MLX5_EMU_FAIL_CRYPTO_BOUNCE,
			     SYND_LOC_QP_OP, 0, "gathered"));
	TEST_CHECK(msg_fault(f, dek, &scattered, MLX5_EMU_FAIL_CRYPTO_BOUNCE,
			     SYND_LOC_QP_OP, 0, "scattered"));
	/* Armed again: a message with one source and one target does not
	 * use the bounce buffer.
	 */
	mlx5_emu_fail_inject(f->ctx, MLX5_EMU_FAIL_CRYPTO_BOUNCE, 0, 1);
	TEST_CHECK(msg_ok(f, dek, &direct, "direct, armed"));
	/* Nor does one that fits the 1024 bytes the bounce already has. */
	return msg_ok(f, dek, &gathered, "gathered, armed");
}

static int
test_emu_fault_bounce(void)
{
	return with_fixture("emu_cfault_b", bounce_body);
}

/* The cipher fails on a message ciphered straight from source to target
 * and on one ciphered in the bounce buffer.
 */
static int
cipher_body(struct xfix *f, uint32_t dek)
{
	static const struct msg direct = { 512, 1, 1 };
	static const struct msg gathered = { 1024, 2, 2 };

	TEST_CHECK(msg_fault(f, dek, &direct, MLX5_EMU_FAIL_CRYPTO_CIPHER,
			     SYND_REM_OP, VSYND_CIPHER, "direct"));
	return msg_fault(f, dek, &gathered, MLX5_EMU_FAIL_CRYPTO_CIPHER,
			 SYND_REM_OP, VSYND_CIPHER, "bounce");
}

static int
test_emu_fault_cipher(void)
{
	return with_fixture("emu_cfault_c", cipher_body);
}

static struct unit_test_suite emu_crypto_faults_suite = {
	.suite_name = "emu_crypto_faults",
	.unit_test_cases = {
		TEST_CASE(test_emu_fault_bounce),
		TEST_CASE(test_emu_fault_cipher),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(emu_crypto_faults, emu_crypto_faults_suite);
