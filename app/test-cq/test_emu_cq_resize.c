/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_cq_resize": MODIFY_CQ op_mod RESIZE on the emulated HCA, with
 * mailboxes written byte by byte from the kernel's mlx5_ifc.h
 * modify_cq_in (cqn at byte 8, resize_field_select at byte 12, cqc at
 * byte 16, cq_umem_id at byte 88 and cq_umem_valid at bit 7 of byte 92,
 * where create_cq_in has them; reserved_at_2e1 in bits 6:0 of byte 92 and
 * bytes 93-95, reserved_at_300 in bytes 96-271) and the cqc of
 * mlx5_prm.h (cqe_sz in bits 7:5 and cc in bit 4 of cqc byte 1,
 * page_offset in bits 3:0 of cqc byte 10 and 7:6 of byte 11, log_cq_size
 * in bits 4:0 of cqc byte 12, log_page_size in bits 4:0 of cqc byte 24).
 * A resize writes a RESIZE CQE (op_own 5 << 4 | owner) at the producer
 * counter in the old ring and the next CQEs into the new ring; bad
 * mailboxes fail with the firmware status and syndrome and change
 * nothing.
 */

#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_malloc.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>

#include "mlx5_emu.h"
#include "test.h"
#include "test_emu_fixture.h"

#define RS_IN_LEN 272 /* MLX5_ST_SZ_BYTES(modify_cq_in) */
#define CMD_STAT_BAD_RES_STATE 0x09

/* One CQ made by CREATE_CQ and a second umem for its next ring. */
struct rs {
	struct cq_env e;
	struct mlx5dv_devx_obj *obj;
	uint32_t cqn;
	uint8_t *nbuf; /* New ring. */
	struct mlx5dv_devx_umem *numem;
};

static void
caps_no_resize(struct mlx5_emu_caps *c)
{
	c->cq_resize = 0;
}

/* A CQ of cqe_sz (cqc encoding), collapsed (cqc.cc) if cc. */
static int
rs_open(struct rs *r, const char *name, unsigned int cqe_sz, int cc,
	void (*tweak)(struct mlx5_emu_caps *c))
{
	uint32_t in[CREATE_CQ_IN_LEN / 4], out[4];
	struct ibv_context *ctx;
	unsigned int stride = cqe_sz ? 128 : 64;

	memset(r, 0, sizeof(*r));
	ctx = emut_open_caps(name, tweak);
	TEST_ASSERT_NOT_NULL(ctx, "open %s", name);
	TEST_ASSERT_SUCCESS(emut_env_init(&r->e, ctx, 4, stride), "env");
	emut_build_create_cq(in, &r->e, cqe_sz);
	if (cc)
		((uint8_t *)in)[16 + 1] |= 0x10; /* cqc at byte 16, cc */
	memset(out, 0, sizeof(out));
	r->obj = mlx5_glue->devx_obj_create(ctx, in, sizeof(in), out,
					    sizeof(out));
	TEST_ASSERT_NOT_NULL(r->obj, "CREATE_CQ: %d", errno);
	r->cqn = rte_be_to_cpu_32(out[2]) & 0xffffff;
	/* Room for a ring of 2^5 entries. */
	r->nbuf = rte_zmalloc(NULL, (size_t)stride << 5, 4096);
	TEST_ASSERT_NOT_NULL(r->nbuf, "new ring");
	r->numem = mlx5_glue->devx_umem_reg(ctx, r->nbuf,
					    (size_t)stride << 5,
					    IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT_NOT_NULL(r->numem, "new umem");
	return TEST_SUCCESS;
}

static int
rs_close(struct rs *r)
{
	struct ibv_context *ctx = r->e.ctx;

	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(r->obj), "destroy");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_umem_dereg(r->numem), "dereg");
	rte_free(r->nbuf);
	emut_env_fini(&r->e);
	TEST_ASSERT(emut_stats_idle(ctx), "device not idle");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	return TEST_SUCCESS;
}

/* The resize mailbox, byte by byte (layout in the file comment). */
static void
rs_mailbox(uint8_t *in, uint32_t cqn, uint32_t select, unsigned int log,
	   unsigned int cqe_sz, uint32_t umem_id, int umem_valid)
{
	memset(in, 0, RS_IN_LEN);
	in[0] = 0x04; /* opcode 0x403 */
	in[1] = 0x03;
	in[7] = 0x01; /* op_mod MLX5_CQ_OPMOD_RESIZE */
	in[9] = (uint8_t)(cqn >> 16);
	in[10] = (uint8_t)(cqn >> 8);
	in[11] = (uint8_t)cqn;
	in[15] = (uint8_t)select;
	in[16 + 1] = (uint8_t)(cqe_sz << 5);
	in[16 + 12] = (uint8_t)log;
	in[16 + 24] = 0; /* log_page_size: 4 KiB */
	in[88] = (uint8_t)(umem_id >> 24);
	in[89] = (uint8_t)(umem_id >> 16);
	in[90] = (uint8_t)(umem_id >> 8);
	in[91] = (uint8_t)umem_id;
	in[92] = umem_valid ? 0x80 : 0;
}

/* Send a mailbox: the return, status and syndrome. */
static int
rs_send(struct rs *r, const uint8_t *in, size_t len, uint8_t *st,
	uint32_t *synd)
{
	uint8_t out[16];
	int ret;

	memset(out, 0, sizeof(out));
	ret = mlx5_glue->devx_obj_modify(r->obj, in, len, out, sizeof(out));
	*st = out[0];
	*synd = (uint32_t)out[4] << 24 | (uint32_t)out[5] << 16 |
		(uint32_t)out[6] << 8 | out[7];
	return ret;
}

static int
rs_post(struct rs *r, unsigned int n, uint16_t first)
{
	struct mlx5_emu_wc c[16];
	unsigned int i;

	memset(c, 0, sizeof(c));
	for (i = 0; i < n; i++) {
		c[i].kind = MLX5_EMU_WC_RESP;
		c[i].opcode = 2; /* MLX5_CQE_RESP_SEND */
		c[i].byte_cnt = 100 + first + i;
		c[i].wqe_counter = (uint16_t)(first + i);
	}
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(r->e.ctx, r->cqn, c, n), (int)n,
			  "post %u", n);
	return TEST_SUCCESS;
}

/* The 64 B CQE of entry i of a ring of 2^log strides. */
static const uint8_t *
rs_cqe(const uint8_t *ring, unsigned int stride, unsigned int log,
	uint32_t i)
{
	return ring + (size_t)(i & ((1u << log) - 1)) * stride + stride - 64;
}

static int
rs_good(unsigned int cqe_sz)
{
	unsigned int stride = cqe_sz ? 128 : 64;
	uint8_t in[RS_IN_LEN], st, zero[64];
	struct mlx5_emu_cq_info info;
	const uint8_t *cqe;
	uint32_t synd;
	struct rs r;

	TEST_CHECK(rs_open(&r, cqe_sz ? "rs_good128" : "rs_good64", cqe_sz,
			   0, NULL));
	/* 20 CQEs through a ring of 16: counters 16..19 on pass 1. */
	TEST_CHECK(rs_post(&r, 14, 0));
	/* Consumer counter 14 in the record (after the ring, emut_env_init). */
	*(volatile uint32_t *)(r.e.buf + (stride << 4)) = rte_cpu_to_be_32(14);
	TEST_CHECK(rs_post(&r, 6, 14));
	rs_mailbox(in, r.cqn, 0x7, 5, cqe_sz, r.numem->umem_id, 1);
	TEST_ASSERT_SUCCESS(rs_send(&r, in, sizeof(in), &st, &synd),
			    "resize: status %#x syndrome %#x", st, synd);
	/* RESIZE CQE at counter 20: entry 4 of the old ring, pass 1. */
	cqe = rs_cqe(r.e.buf, stride, 4, 20);
	TEST_ASSERT_EQUAL(cqe[63], 0x51, "RESIZE op_own %#x", cqe[63]);
	memset(zero, 0, sizeof(zero));
	TEST_ASSERT_SUCCESS(memcmp(cqe, zero, 63), "RESIZE CQE payload");
	if (cqe_sz)
		TEST_ASSERT_SUCCESS(memcmp(cqe - 64, zero, 64), "first half");
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(r.e.ctx, r.cqn, &info), "q");
	TEST_ASSERT(info.log_cq_size == 5 && info.cq_umem_id ==
		    r.numem->umem_id && info.pi == 21 &&
		    info.ring == r.nbuf, "after resize: log %u umem %u pi %u",
		    info.log_cq_size, info.cq_umem_id, info.pi);
	/* Next CQEs: the new ring, counters 21, 22 (entries 21, 22, pass 0);
	 * the old ring is not written.
	 */
	TEST_CHECK(rs_post(&r, 2, 20));
	cqe = rs_cqe(r.nbuf, stride, 5, 21);
	TEST_ASSERT(cqe[63] == 0x20 && cqe[60] == 0x00 && cqe[61] == 20 &&
		    cqe[47] == 120, "new ring 21: op_own %#x wqe %u bytes %u",
		    cqe[63], cqe[61], cqe[47]);
	cqe = rs_cqe(r.nbuf, stride, 5, 22);
	TEST_ASSERT(cqe[63] == 0x20 && cqe[61] == 21, "new ring 22");
	cqe = rs_cqe(r.e.buf, stride, 4, 21);
	TEST_ASSERT_EQUAL(cqe[61], 5, "old ring entry 5 rewritten");
	return rs_close(&r);
}

static int
test_emu_cq_resize_writes(void)
{
	TEST_CHECK(rs_good(0));
	return rs_good(1);
}

/* One refused mailbox: status, syndrome, and the CQ unchanged. */
static int
rs_refused(struct rs *r, const uint8_t *in, size_t len, uint8_t want_st,
	   uint32_t want_synd, const char *what)
{
	struct mlx5_emu_cq_info a, b;
	uint32_t synd;
	uint8_t st;

	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(r->e.ctx, r->cqn, &a), "q");
	/* cmd_status_to_err(): EIO for a bad length, else EINVAL. */
	TEST_ASSERT_EQUAL(rs_send(r, in, len, &st, &synd),
			  (want_st == 0x50 ? EIO : EINVAL), "%s: accepted", what);
	TEST_ASSERT(st == want_st && synd == want_synd, "%s: status %#x "
		    "syndrome %#x, want %#x %#x", what, st, synd, want_st,
		    want_synd);
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(r->e.ctx, r->cqn, &b), "q");
	TEST_ASSERT(a.log_cq_size == b.log_cq_size && a.pi == b.pi &&
		    a.cq_umem_id == b.cq_umem_id && a.ring == b.ring,
		    "%s: the CQ changed", what);
	return TEST_SUCCESS;
}

static int
test_emu_cq_resize_refused(void)
{
	uint8_t in[RS_IN_LEN + 8];
	struct rs r;
	uint32_t id;

	memset(in, 0, sizeof(in));
	TEST_CHECK(rs_open(&r, "rs_bad", 0, 0, NULL));
	id = r.numem->umem_id;
	rs_mailbox(in, r.cqn, 0x7, 5, 0, id, 1);
	TEST_CHECK(rs_refused(&r, in, 80, 0x50, MLX5_EMU_SYND_INLEN,
			      "80-byte mailbox"));
	rs_mailbox(in, r.cqn, 0x6, 5, 0, id, 1);
	TEST_CHECK(rs_refused(&r, in, RS_IN_LEN, CMD_STAT_BAD_PARAM,
			      MLX5_EMU_SYND_CQ_RESIZE_SELECT, "no LOG_SIZE"));
	rs_mailbox(in, r.cqn, 0xf, 5, 0, id, 1);
	TEST_CHECK(rs_refused(&r, in, RS_IN_LEN, CMD_STAT_BAD_PARAM,
			      MLX5_EMU_SYND_CQ_RESIZE_SELECT, "select 0xf"));
	rs_mailbox(in, r.cqn, 0x7, 25, 0, id, 1);
	TEST_CHECK(rs_refused(&r, in, RS_IN_LEN, CMD_STAT_BAD_PARAM,
			      MLX5_EMU_SYND_CQ_LOG_SIZE, "log 25"));
	rs_mailbox(in, r.cqn, 0x7, 5, 1, id, 1);
	TEST_CHECK(rs_refused(&r, in, RS_IN_LEN, CMD_STAT_BAD_PARAM,
			      MLX5_EMU_SYND_CQ_RESIZE_CQE_SZ, "cqe_sz 1"));
	rs_mailbox(in, r.cqn, 0x7, 5, 0, id, 0);
	TEST_CHECK(rs_refused(&r, in, RS_IN_LEN, CMD_STAT_BAD_PARAM,
			      MLX5_EMU_SYND_CQ_NO_UMEM, "cq_umem_valid 0"));
	rs_mailbox(in, r.cqn, 0x7, 5, 0, id + 100, 1);
	TEST_CHECK(rs_refused(&r, in, RS_IN_LEN, CMD_STAT_BAD_PARAM,
			      MLX5_EMU_SYND_CQ_UMEM_ID, "unknown umem"));
	rs_mailbox(in, r.cqn, 0x7, 5, 0, r.e.umem->umem_id, 1);
	TEST_CHECK(rs_refused(&r, in, RS_IN_LEN, CMD_STAT_BAD_PARAM,
			      MLX5_EMU_SYND_CQ_RESIZE_SAME_UMEM,
			      "the current umem"));
	rs_mailbox(in, r.cqn, 0x7, 6, 0, id, 1);
	TEST_CHECK(rs_refused(&r, in, RS_IN_LEN, CMD_STAT_BAD_PARAM,
			      MLX5_EMU_SYND_CQ_UMEM_RANGE, "ring past umem"));
	rs_mailbox(in, r.cqn, 0x7, 5, 0, id, 1);
	in[95] = 0x01; /* Last bit of reserved_at_2e1. */
	TEST_CHECK(rs_refused(&r, in, RS_IN_LEN, CMD_STAT_BAD_PARAM,
			      MLX5_EMU_SYND_CQ_RESERVED, "reserved_at_2e1"));
	rs_mailbox(in, r.cqn, 0x7, 5, 0, id, 1);
	in[92] |= 0x40; /* First bit of reserved_at_2e1. */
	TEST_CHECK(rs_refused(&r, in, RS_IN_LEN, CMD_STAT_BAD_PARAM,
			      MLX5_EMU_SYND_CQ_RESERVED, "reserved_at_2e1 0"));
	rs_mailbox(in, r.cqn, 0x7, 5, 0, id, 1);
	in[96] = 0x80; /* First bit of reserved_at_300. */
	TEST_CHECK(rs_refused(&r, in, RS_IN_LEN, CMD_STAT_BAD_PARAM,
			      MLX5_EMU_SYND_CQ_RESERVED, "reserved_at_300"));
	rs_mailbox(in, r.cqn, 0x7, 5, 0, id, 1);
	in[RS_IN_LEN - 1] = 0x01; /* Last bit of reserved_at_300. */
	TEST_CHECK(rs_refused(&r, in, RS_IN_LEN, CMD_STAT_BAD_PARAM,
			      MLX5_EMU_SYND_CQ_RESERVED, "reserved_at_300 end"));
	rs_mailbox(in, r.cqn, 0x7, 5, 0, id, 1);
	in[16 + 11] = 0x40; /* page_offset 1 */
	TEST_CHECK(rs_refused(&r, in, RS_IN_LEN, CMD_STAT_BAD_PARAM,
			      MLX5_EMU_SYND_CQ_PAGE_OFFSET, "page_offset 1"));
	rs_mailbox(in, r.cqn, 0x7, 5, 0, id, 1);
	in[16 + 10] = 0x08; /* page_offset 0x20 */
	TEST_CHECK(rs_refused(&r, in, RS_IN_LEN, CMD_STAT_BAD_PARAM,
			      MLX5_EMU_SYND_CQ_PAGE_OFFSET,
			      "page_offset 0x20"));
	rs_mailbox(in, r.cqn, 0x7, 5, 0, id, 1);
	in[RS_IN_LEN + 3] = 1;
	TEST_CHECK(rs_refused(&r, in, RS_IN_LEN + 8, CMD_STAT_BAD_PARAM,
			      MLX5_EMU_SYND_CQ_INLINE_PAS, "PAS after"));
	/* A full ring has no slot for the RESIZE CQE. */
	TEST_CHECK(rs_post(&r, 16, 0));
	rs_mailbox(in, r.cqn, 0x7, 5, 0, id, 1);
	TEST_CHECK(rs_refused(&r, in, RS_IN_LEN, CMD_STAT_BAD_RES_STATE,
			      MLX5_EMU_SYND_CQ_RESIZE_STATE, "full ring"));
	TEST_CHECK(rs_close(&r));

	/* Without HCA_CAP.cq_resize. */
	TEST_CHECK(rs_open(&r, "rs_nocap", 0, 0, caps_no_resize));
	rs_mailbox(in, r.cqn, 0x7, 5, 0, r.numem->umem_id, 1);
	TEST_CHECK(rs_refused(&r, in, RS_IN_LEN, CMD_STAT_BAD_PARAM,
			      MLX5_EMU_SYND_CQ_RESIZE_CAP, "no cq_resize"));
	TEST_CHECK(rs_close(&r));

	/*
	 * A collapsed CQ (cqc.cc): the mailbox a DevX CQ accepts. A verbs
	 * CQ has no DevX object, so no MODIFY_CQ reaches it here.
	 */
	TEST_CHECK(rs_open(&r, "rs_cc", 0, 1, NULL));
	rs_mailbox(in, r.cqn, 0x7, 5, 0, r.numem->umem_id, 1);
	TEST_CHECK(rs_refused(&r, in, RS_IN_LEN, CMD_STAT_BAD_PARAM,
			      MLX5_EMU_SYND_BAD_OP_MOD, "collapsed CQ"));
	return rs_close(&r);
}

static int
emu_cq_resize_setup(void)
{
	return mlx5_emu_install();
}

static struct unit_test_suite emu_cq_resize_suite = {
	.suite_name = "emu_cq_resize",
	.setup = emu_cq_resize_setup,
	.unit_test_cases = {
		TEST_CASE(test_emu_cq_resize_writes),
		TEST_CASE(test_emu_cq_resize_refused),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(emu_cq_resize, emu_cq_resize_suite);
