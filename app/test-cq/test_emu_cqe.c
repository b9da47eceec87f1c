/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_cqe": the emulated HCA's CQE path beyond plain CQEs:
 * compression sessions (basic layout in every mini-CQE format and the
 * requester format, across the ring wrap, session limit, flush, ring
 * space, 128 B CQEs; enhanced layout), overrun with and without oi,
 * arming and completion events (DevX event channel, verbs completion
 * channel), solicited-only arms, moderation (MODIFY_CQ), the threaded
 * producer.
 *
 * Every expected ring image is written by hand, byte by byte, from the PRM
 * layouts: struct mlx5_cqe / struct mlx5_mini_cqe8 (DPDK mlx5_prm.h),
 * op_own = opcode << 4 | format << 2 | se << 1 | owner (mlx5dv.h), the
 * session layout read by DPDK's mlx5_rx_poll_len (title at ci, mini-CQE
 * arrays at ci + 1, ci + 8, ci + 16, holes elsewhere) and the enhanced
 * layout read by UCX / DPDK main (validity iteration count at byte 62).
 */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_malloc.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>

#include "mlx5_emu.h"
#include "test.h"
#include "test_wait.h"

#define CREATE_CQ_IN_LEN 272 /* MLX5_ST_SZ_BYTES(create_cq_in) */
#define MODIFY_CQ_IN_LEN 272 /* kernel mlx5_ifc.h modify_cq_in */
#define CQC_OFF 16 /* cq_context in create_cq_in / modify_cq_in */
#define EQE_LEN 64

/* The initial CQE DPDK writes (mlx5_cq_init): op_own 0xf1, rest zero. */
static const uint8_t img_init[64] = { [63] = 0xf1 };

/* --- A DevX CQ built from a hand-written CREATE_CQ mailbox --------------- */

struct tcq_cfg {
	unsigned int log; /* log_cq_size */
	unsigned int cqe_sz; /* 0, 1, 2 */
	int comp; /* cqe_comp_en */
	unsigned int fmt; /* 0..4 (4: mini_cqe_res_format_ext) */
	unsigned int layout; /* cqe_comp_layout */
	int oi;
	uint16_t max_num; /* caps.cqe_compression_max_num, 0: default */
};

struct tcq {
	struct ibv_context *ctx;
	struct mlx5dv_devx_uar *uar;
	struct mlx5dv_devx_umem *umem;
	struct mlx5dv_devx_obj *obj;
	uint8_t *buf;
	volatile uint32_t *dbrec;
	uint32_t cqn;
	unsigned int log;
	unsigned int stride;
};

static void
be64_put(void *p, uint64_t v)
{
	uint8_t *b = p;
	int i;

	for (i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (56 - 8 * i));
}

static int
tcq_open(struct tcq *t, const char *name, const struct tcq_cfg *c)
{
	uint32_t in[CREATE_CQ_IN_LEN / 4], out[MLX5_ST_SZ_DW(create_cq_out)];
	void *cqc = (uint8_t *)in + CQC_OFF;
	struct mlx5_emu_caps caps;
	size_t len, i;
	uint32_t eqn;

	memset(t, 0, sizeof(*t));
	mlx5_emu_caps_default(&caps);
	if (c->max_num != 0)
		caps.cqe_compression_max_num = c->max_num;
	t->ctx = mlx5_emu_open(name, &caps);
	if (t->ctx == NULL)
		return -1;
	t->log = c->log;
	t->stride = c->cqe_sz == 0 ? 64 : 128;
	len = ((size_t)t->stride << c->log) + 64;
	t->buf = rte_zmalloc(NULL, len, 4096);
	if (t->buf == NULL)
		return -1;
	for (i = 0; i < (1u << c->log); i++)
		t->buf[i * t->stride + t->stride - 1] = 0xf1;
	t->dbrec = (volatile uint32_t *)(t->buf + ((size_t)t->stride << c->log));
	t->uar = mlx5_glue->devx_alloc_uar(t->ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	t->umem = mlx5_glue->devx_umem_reg(t->ctx, t->buf, len,
					   IBV_ACCESS_LOCAL_WRITE);
	if (t->uar == NULL || t->umem == NULL ||
	    mlx5_glue->devx_query_eqn(t->ctx, 0, &eqn) != 0)
		return -1;
	memset(in, 0, sizeof(in));
	MLX5_SET(create_cq_in, in, opcode, 0x400);
	MLX5_SET(cqc, cqc, log_cq_size, c->log);
	MLX5_SET(cqc, cqc, cqe_sz, c->cqe_sz);
	MLX5_SET(cqc, cqc, uar_page, t->uar->page_id);
	MLX5_SET(cqc, cqc, c_eqn, eqn);
	MLX5_SET(cqc, cqc, oi, !!c->oi);
	MLX5_SET(cqc, cqc, cqe_comp_en, !!c->comp);
	if (c->fmt == 4)
		MLX5_SET(cqc, cqc, mini_cqe_res_format_ext, 1);
	else
		MLX5_SET(cqc, cqc, mini_cqe_res_format, c->fmt);
	MLX5_SET(cqc, cqc, cqe_comp_layout, c->layout);
	MLX5_SET(cqc, cqc, dbr_umem_valid, 1);
	MLX5_SET(cqc, cqc, dbr_umem_id, t->umem->umem_id);
	be64_put(MLX5_ADDR_OF(cqc, cqc, dbr_addr),
		 (uint64_t)t->stride << c->log);
	MLX5_SET(create_cq_in, in, cq_umem_valid, 1);
	MLX5_SET(create_cq_in, in, cq_umem_id, t->umem->umem_id);
	t->obj = mlx5_glue->devx_obj_create(t->ctx, in, sizeof(in), out,
					    sizeof(out));
	if (t->obj == NULL)
		return -1;
	t->cqn = MLX5_GET(create_cq_out, out, cqn);
	return 0;
}

/* Destroy everything; 0 when the device closed idle (nothing leaked). */
static int
tcq_close(struct tcq *t)
{
	int ret = -1;

	if (t->obj != NULL)
		mlx5_glue->devx_obj_destroy(t->obj);
	if (t->umem != NULL)
		mlx5_glue->devx_umem_dereg(t->umem);
	if (t->uar != NULL)
		mlx5_glue->devx_free_uar(t->uar);
	rte_free(t->buf);
	if (t->ctx != NULL)
		ret = mlx5_emu_close(t->ctx);
	memset(t, 0, sizeof(*t));
	return ret;
}

/* The 64 B CQE of ring entry i (second half of a 128 B entry). */
static uint8_t *
slot(const struct tcq *t, uint32_t i)
{
	i &= (1u << t->log) - 1;
	return t->buf + (size_t)i * t->stride + (t->stride - 64);
}

static void
consumer(struct tcq *t, uint32_t ci)
{
	t->dbrec[0] = rte_cpu_to_be_32(ci & 0xffffff);
}

static int
cqe_cmp(const uint8_t *got, const uint8_t *want, const char *what,
	unsigned int idx)
{
	unsigned int i;

	for (i = 0; i < 64; i++)
		TEST_ASSERT_EQUAL(got[i], want[i], "%s: slot %u byte %u is "
				  "0x%02x, want 0x%02x", what, idx, i, got[i],
				  want[i]);
	return TEST_SUCCESS;
}

static uint32_t
pi_of(const struct tcq *t)
{
	struct mlx5_emu_cq_info info;

	if (mlx5_emu_cq_query(t->ctx, t->cqn, &info) != 0)
		return UINT32_MAX;
	return info.pi;
}

static int
ev_info(const struct tcq *t, struct mlx5_emu_cq_ev_info *ev)
{
	return mlx5_emu_cq_ev_query(t->ctx, t->cqn, ev);
}

/* --- Completions ------------------------------------------------------- */

/*
 * Responder base: hash type 0x33, hash 0xdead0000, csum 0x1111,
 * hdr_type_etc 0x0604, VLAN 5, metadata 0xa1b2c3d4, timestamp
 * 0x1122334455667788, flow tag / QPN 0xabc, wqe_counter 0x100 + i,
 * byte_cnt 100 + i.
 */
static void
resp(struct mlx5_emu_cpl *c, unsigned int i)
{
	memset(c, 0, sizeof(*c));
	c->kind = MLX5_EMU_CPL_RESP;
	c->rx_hash_type = 0x33;
	c->rx_hash_res = 0xdead0000;
	c->csum = 0x1111;
	c->hdr_type_etc = 0x0604;
	c->vlan_info = 5;
	c->flow_table_metadata = 0xa1b2c3d4;
	c->timestamp = 0x1122334455667788ull;
	c->qpn = 0xabc;
	c->wqe_counter = (uint16_t)(0x100 + i);
	c->byte_cnt = 100 + i;
}

/* Requester base: send (0x0a) of WQE 0x200 + i, QPN 0xabc, 0x40 + i B. */
static void
req(struct mlx5_emu_cpl *c, unsigned int i)
{
	memset(c, 0, sizeof(*c));
	c->kind = MLX5_EMU_CPL_REQ;
	c->s_wqe_opcode = 0x0a;
	c->qpn = 0xabc;
	c->timestamp = 0x1122334455667788ull;
	c->wqe_counter = (uint16_t)(0x200 + i);
	c->byte_cnt = 0x40 + i;
}

/* --- Golden images of a 3-completion session per format ----------------- */

/* Responder title of 3 completions (completion 0's CQE, byte_cnt 3,
 * op_own RESP_SEND 2 << 4 | compressed 3 << 2 | owner 0 = 0x2c).
 */
#define TITLE_RESP(csum_hi, csum_lo, hdr_lo, tag_hi, tag_mid, tag_lo) { \
	[12] = 0xde, 0xad, 0x00, 0x00, \
	[16] = 0x33, \
	[20] = csum_hi, csum_lo, \
	[28] = 0x06, hdr_lo, 0x00, 0x05, \
	[36] = 0xa1, 0xb2, 0xc3, 0xd4, \
	[44] = 0x00, 0x00, 0x00, 0x03, \
	[48] = 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, \
	[56] = 0x00, tag_hi, tag_mid, tag_lo, \
	[60] = 0x01, 0x00, 0x00, 0x2c, \
}

/* HASH (0): hash 0xdead0000 + i in the mini. */
static const uint8_t t_hash[64] = TITLE_RESP(0x11, 0x11, 0x04, 0, 0x0a, 0xbc);
static const uint8_t a_hash[64] = {
	0xde, 0xad, 0x00, 0x00, 0x00, 0x00, 0x00, 0x64,
	0xde, 0xad, 0x00, 0x01, 0x00, 0x00, 0x00, 0x65,
	0xde, 0xad, 0x00, 0x02, 0x00, 0x00, 0x00, 0x66,
};
/* CSUM (1) and CSUM_STRIDX (3): csum 0x1000 + i, stride index. */
static const uint8_t t_csum[64] = TITLE_RESP(0x10, 0x00, 0x04, 0, 0x0a, 0xbc);
static const uint8_t a_csum[64] = {
	0x10, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x64,
	0x10, 0x01, 0x01, 0x01, 0x00, 0x00, 0x00, 0x65,
	0x10, 0x02, 0x01, 0x02, 0x00, 0x00, 0x00, 0x66,
};
/* FTAG_STRIDX (2): tags 0x123456, 0x789abc, 0xfedcba: tag[15:0], stride
 * index, tag[23:16], byte_cnt[23:0].
 */
static const uint8_t t_ftag[64] = TITLE_RESP(0x11, 0x11, 0x04, 0x12, 0x34,
					     0x56);
static const uint8_t a_ftag[64] = {
	0x34, 0x56, 0x01, 0x00, 0x12, 0x00, 0x00, 0x64,
	0x9a, 0xbc, 0x01, 0x01, 0x78, 0x00, 0x00, 0x65,
	0xdc, 0xba, 0x01, 0x02, 0xfe, 0x00, 0x00, 0x66,
};
/* L34H_STRIDX (4): hdr_type_etc 0x0604, 0x0619, 0x0628: byte 29 of each
 * CQE in the mini's header byte (byte 1).
 */
static const uint8_t t_l34h[64] = TITLE_RESP(0x11, 0x11, 0x04, 0, 0x0a, 0xbc);
static const uint8_t a_l34h[64] = {
	0x00, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x64,
	0x00, 0x19, 0x01, 0x01, 0x00, 0x00, 0x00, 0x65,
	0x00, 0x28, 0x01, 0x02, 0x00, 0x00, 0x00, 0x66,
};
/* Requester: s_wqe_opcode 0x0a, 0x08, 0x0a; op_own REQ 0 | 0x0c. */
static const uint8_t t_req[64] = {
	[44] = 0x00, 0x00, 0x00, 0x03,
	[48] = 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
	[56] = 0x0a, 0x00, 0x0a, 0xbc,
	[60] = 0x02, 0x00, 0x00, 0x0c,
};
static const uint8_t a_req[64] = {
	0x02, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x40,
	0x02, 0x01, 0x08, 0x00, 0x00, 0x00, 0x00, 0x41,
	0x02, 0x02, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x42,
};

struct fmt_case {
	const char *name;
	unsigned int fmt;
	int requester;
	const uint8_t *title;
	const uint8_t *array;
};

static const struct fmt_case fmt_cases[] = {
	{ "HASH", 0, 0, t_hash, a_hash },
	{ "CSUM", 1, 0, t_csum, a_csum },
	{ "FTAG_STRIDX", 2, 0, t_ftag, a_ftag },
	{ "CSUM_STRIDX", 3, 0, t_csum, a_csum },
	{ "L34H_STRIDX", 4, 0, t_l34h, a_l34h },
	{ "requester", 0, 1, t_req, a_req },
};

static void
fmt_cpls(const struct fmt_case *fc, struct mlx5_emu_cpl c[3])
{
	static const uint32_t tags[3] = { 0x123456, 0x789abc, 0xfedcba };
	static const uint16_t hdr[3] = { 0x0604, 0x0619, 0x0628 };
	static const uint8_t sop[3] = { 0x0a, 0x08, 0x0a };
	unsigned int i;

	for (i = 0; i < 3; i++) {
		if (fc->requester) {
			req(&c[i], i);
			c[i].s_wqe_opcode = sop[i];
			continue;
		}
		resp(&c[i], i);
		switch (fc->fmt) {
		case 0:
			c[i].rx_hash_res = 0xdead0000 + i;
			break;
		case 1:
		case 3:
			c[i].csum = (uint16_t)(0x1000 + i);
			break;
		case 2:
			c[i].qpn = tags[i];
			break;
		case 4:
			c[i].hdr_type_etc = hdr[i];
			break;
		}
	}
}

static int
test_emu_cqe_comp_formats(void)
{
	struct tcq_cfg cfg = { .log = 4, .comp = 1 };
	struct mlx5_emu_cq_ev_info ev;
	struct mlx5_emu_cpl c[3];
	unsigned int k, i;
	struct tcq t;

	for (k = 0; k < RTE_DIM(fmt_cases); k++) {
		cfg.fmt = fmt_cases[k].fmt;
		TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_fmt", &cfg), "cq %s",
				    fmt_cases[k].name);
		fmt_cpls(&fmt_cases[k], c);
		TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 3), 3,
				  "%s: post", fmt_cases[k].name);
		TEST_CHECK(cqe_cmp(slot(&t, 0), fmt_cases[k].title,
			      fmt_cases[k].name, 0));
		TEST_CHECK(cqe_cmp(slot(&t, 1), fmt_cases[k].array,
			      fmt_cases[k].name, 1));
		/* The hole and the rest are untouched. */
		for (i = 2; i < 16; i++)
			TEST_CHECK(cqe_cmp(slot(&t, i), img_init,
				      fmt_cases[k].name, i));
		TEST_ASSERT_EQUAL(pi_of(&t), 3u, "%s: pi", fmt_cases[k].name);
		TEST_ASSERT_SUCCESS(ev_info(&t, &ev), "ev");
		TEST_ASSERT(ev.sessions == 1 && ev.compressed == 3 &&
			    ev.open == 0, "%s: one session of 3",
			    fmt_cases[k].name);
		TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	}
	return TEST_SUCCESS;
}

/*
 * Completions that may not join: one field the format does not carry
 * differs (or kind, error, opcode, solicited bit). Posting c0, x, c0' (c0'
 * = completion 2 of the base) writes three regular CQEs.
 */
struct join_case {
	const char *name;
	unsigned int fmt;
	void (*mut)(struct mlx5_emu_cpl *c);
};

static void m_csum(struct mlx5_emu_cpl *c) { c->csum ^= 0x0100; }
static void m_hash(struct mlx5_emu_cpl *c) { c->rx_hash_res ^= 1; }
static void m_vlan(struct mlx5_emu_cpl *c) { c->vlan_info ^= 1; }
static void m_meta(struct mlx5_emu_cpl *c) { c->flow_table_metadata ^= 1; }
static void m_ts(struct mlx5_emu_cpl *c) { c->timestamp ^= 1; }
static void m_tag(struct mlx5_emu_cpl *c) { c->qpn ^= 0x10000; }
static void m_hdr_lo(struct mlx5_emu_cpl *c) { c->hdr_type_etc ^= 0x0001; }
static void m_hdr_hi(struct mlx5_emu_cpl *c) { c->hdr_type_etc ^= 0x0200; }
static void m_htype(struct mlx5_emu_cpl *c) { c->rx_hash_type ^= 1; }
static void m_wqe(struct mlx5_emu_cpl *c) { c->wqe_counter += 5; }
static void m_big(struct mlx5_emu_cpl *c) { c->byte_cnt = 0x01000000; }
static void m_sol(struct mlx5_emu_cpl *c) { c->solicited = 1; }
static void m_op(struct mlx5_emu_cpl *c) { c->opcode = MLX5_CQE_RESP_SEND_IMM; }
static void m_err(struct mlx5_emu_cpl *c) { c->kind = MLX5_EMU_CPL_RESP_ERR; }
static void m_kind(struct mlx5_emu_cpl *c) { c->kind = MLX5_EMU_CPL_REQ; }

static const struct join_case join_cases[] = {
	{ "HASH csum", 0, m_csum }, { "HASH vlan", 0, m_vlan },
	{ "HASH metadata", 0, m_meta }, { "HASH timestamp", 0, m_ts },
	{ "HASH flow tag", 0, m_tag }, { "HASH hdr_type", 0, m_hdr_lo },
	{ "HASH hash type", 0, m_htype },
	{ "HASH wqe_counter not consecutive", 0, m_wqe },
	{ "CSUM hash", 1, m_hash }, { "CSUM hdr", 1, m_hdr_lo },
	{ "CSUM wqe_counter not consecutive", 1, m_wqe },
	{ "FTAG hash", 2, m_hash }, { "FTAG csum", 2, m_csum },
	{ "FTAG 24-bit byte_cnt", 2, m_big },
	{ "CSUM_STRIDX flow tag", 3, m_tag },
	{ "L34H csum-ok bits (byte 28)", 4, m_hdr_hi },
	{ "L34H hash", 4, m_hash }, { "L34H csum", 4, m_csum },
	{ "solicited", 0, m_sol }, { "opcode", 0, m_op },
	{ "error CQE", 0, m_err }, { "requester", 0, m_kind },
};

static int
test_emu_cqe_comp_join_rules(void)
{
	struct tcq_cfg cfg = { .log = 4, .comp = 1 };
	struct mlx5_emu_cq_ev_info ev;
	struct mlx5_emu_cpl c[3];
	unsigned int k, i;
	struct tcq t;
	uint8_t *q;

	for (k = 0; k < RTE_DIM(join_cases); k++) {
		cfg.fmt = join_cases[k].fmt;
		TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_join", &cfg), "cq");
		for (i = 0; i < 3; i++)
			resp(&c[i], i);
		join_cases[k].mut(&c[1]);
		/* c[2] keeps the base: it does not join the changed c[1]
		 * either (except where the change is c[1]'s own kind).
		 */
		TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 3), 3,
				  "%s: post", join_cases[k].name);
		TEST_ASSERT_SUCCESS(ev_info(&t, &ev), "ev");
		TEST_ASSERT_EQUAL(ev.sessions, 0u, "%s: compressed",
				  join_cases[k].name);
		TEST_ASSERT_EQUAL(pi_of(&t), 3u, "%s: pi", join_cases[k].name);
		for (i = 0; i < 3; i++) {
			q = slot(&t, i);
			TEST_ASSERT_EQUAL((q[63] & 0x0c), 0, "%s: slot %u format",
					  join_cases[k].name, i);
		}
		/* Slot 0: the plain CQE of c[0] (byte_cnt 100). */
		q = slot(&t, 0);
		TEST_ASSERT(q[44] == 0 && q[45] == 0 && q[46] == 0 &&
			    q[47] == 100 && q[63] == 0x20, "%s: slot 0",
			    join_cases[k].name);
		TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	}
	/* Control: with nothing changed the three form a session. */
	cfg.fmt = 0;
	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_join", &cfg), "cq");
	for (i = 0; i < 3; i++)
		resp(&c[i], i);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 3), 3, "post");
	TEST_ASSERT_EQUAL(slot(&t, 0)[63], 0x2c, "title");
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	return TEST_SUCCESS;
}

/* Lone completions, an error between two sessions. */
static int
test_emu_cqe_comp_lone_and_error(void)
{
	static const uint8_t plain0[64] = {
		[12] = 0xde, 0xad, 0x00, 0x00, [16] = 0x33, [20] = 0x11, 0x11,
		[28] = 0x06, 0x04, 0x00, 0x05, [36] = 0xa1, 0xb2, 0xc3, 0xd4,
		[44] = 0x00, 0x00, 0x00, 0x64,
		[48] = 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		[56] = 0x00, 0x00, 0x0a, 0xbc, [60] = 0x01, 0x00, 0x00, 0x20,
	};
	/* RESP_ERR 14, flush (0x05), vendor 0x77, QPN 0xabc, WQE 0x102. */
	static const uint8_t err2[64] = {
		[54] = 0x77, 0x05, [56] = 0x00, 0x00, 0x0a, 0xbc,
		[60] = 0x01, 0x02, 0x00, 0xe0,
	};
	struct tcq_cfg cfg = { .log = 4, .comp = 1 };
	struct mlx5_emu_cpl c[5];
	unsigned int i;
	struct tcq t;
	uint8_t *q;

	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_lone", &cfg), "cq");
	resp(&c[0], 0);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "post 1");
	TEST_CHECK(cqe_cmp(slot(&t, 0), plain0, "lone", 0));
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");

	/* A, B, error, D, E: session(A, B), error CQE, session(D, E). */
	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_lone", &cfg), "cq");
	for (i = 0; i < 5; i++)
		resp(&c[i], i);
	c[2].kind = MLX5_EMU_CPL_RESP_ERR;
	c[2].syndrome = 0x05;
	c[2].vendor_syndrome = 0x77;
	/* D is the title of the second session: the HASH format implies
	 * E's wqe_counter from D's.
	 */
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 5), 5, "post 5");
	q = slot(&t, 0);
	TEST_ASSERT(q[47] == 2 && q[63] == 0x2c, "session of 2 at 0");
	TEST_CHECK(cqe_cmp(slot(&t, 2), err2, "error", 2));
	q = slot(&t, 3);
	TEST_ASSERT(q[47] == 2 && q[63] == 0x2c && q[60] == 0x01 &&
		    q[61] == 0x03, "session of 2 at 3 titled by D");
	q = slot(&t, 4);
	TEST_ASSERT(q[0] == 0xde && q[7] == 103 && q[8] == 0xde &&
		    q[15] == 104, "minis of D and E at 4");
	TEST_ASSERT_EQUAL(pi_of(&t), 5u, "pi");
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	return TEST_SUCCESS;
}

/*
 * 20 HASH completions: title at 0 (count 20), arrays at 1 (0..7), 8
 * (8..15) and 16 (16..19); slots 2..7, 9..15, 17..19 are holes.
 */
static int
test_emu_cqe_comp_arrays(void)
{
	struct tcq_cfg cfg = { .log = 5, .comp = 1 };
	struct mlx5_emu_cpl c[20];
	uint8_t want[64];
	unsigned int i, k;
	struct tcq t;

	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_arr", &cfg), "cq");
	for (i = 0; i < 20; i++) {
		resp(&c[i], i);
		c[i].rx_hash_res = 0xdead0000 + i;
	}
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 20), 20, "post");
	memcpy(want, t_hash, 64);
	want[47] = 20;
	TEST_CHECK(cqe_cmp(slot(&t, 0), want, "title", 0));
	for (k = 0; k < 3; k++) {
		uint32_t s = k == 0 ? 1 : 8 * k;

		memset(want, 0, sizeof(want));
		for (i = 0; i < 8 && 8 * k + i < 20; i++) {
			want[i * 8 + 0] = 0xde;
			want[i * 8 + 1] = 0xad;
			want[i * 8 + 3] = (uint8_t)(8 * k + i);
			want[i * 8 + 7] = (uint8_t)(100 + 8 * k + i);
		}
		TEST_CHECK(cqe_cmp(slot(&t, s), want, "array", s));
	}
	for (i = 2; i < 32; i++)
		if (i != 8 && i != 16)
			TEST_CHECK(cqe_cmp(slot(&t, i), img_init, "hole", i));
	TEST_ASSERT_EQUAL(pi_of(&t), 20u, "pi");
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	return TEST_SUCCESS;
}

/*
 * A session across the ring end: 16 entries, 12 plain CQEs consumed, then
 * 9 completions: title at 12 (pass 0, owner 0), array at 13, second array
 * at 12 + 8 = 20 -> entry 4 of the next pass; 14, 15 and 0..3 are holes.
 */
static int
test_emu_cqe_comp_wrap(void)
{
	struct tcq_cfg cfg = { .log = 4, .comp = 1 };
	struct mlx5_emu_cpl c[12];
	uint8_t want[64], before[16][64];
	unsigned int i;
	struct tcq t;

	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_wrap", &cfg), "cq");
	for (i = 0; i < 12; i++) {
		resp(&c[i], i);
		c[i].timestamp = i; /* Nothing joins. */
	}
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 12), 12, "post");
	consumer(&t, 12);
	for (i = 0; i < 16; i++)
		memcpy(before[i], slot(&t, i), 64);
	for (i = 0; i < 9; i++) {
		resp(&c[i], i);
		c[i].rx_hash_res = 0xdead0000 + i;
	}
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 9), 9, "post 9");
	memcpy(want, t_hash, 64);
	want[47] = 9;
	TEST_CHECK(cqe_cmp(slot(&t, 12), want, "title", 12));
	memset(want, 0, sizeof(want));
	for (i = 0; i < 8; i++) {
		want[i * 8] = 0xde;
		want[i * 8 + 1] = 0xad;
		want[i * 8 + 3] = (uint8_t)i;
		want[i * 8 + 7] = (uint8_t)(100 + i);
	}
	TEST_CHECK(cqe_cmp(slot(&t, 13), want, "array 0", 13));
	memset(want, 0, sizeof(want));
	want[0] = 0xde;
	want[1] = 0xad;
	want[3] = 8;
	want[7] = 108;
	TEST_CHECK(cqe_cmp(slot(&t, 4), want, "array 1 (wrapped)", 4));
	for (i = 0; i < 16; i++)
		if (i != 12 && i != 13 && i != 4)
			TEST_CHECK(cqe_cmp(slot(&t, i), before[i], "untouched", i));
	TEST_ASSERT_EQUAL(pi_of(&t), 21u, "pi");
	/* The next regular CQE: index 21 = entry 5, pass 1, owner 1. */
	consumer(&t, 21);
	resp(&c[0], 0);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "post");
	TEST_ASSERT_EQUAL(slot(&t, 5)[63], 0x21, "owner of pass 1");
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	return TEST_SUCCESS;
}

/* caps.cqe_compression_max_num 4: ten completions -> sessions 4, 4, 2. */
static int
test_emu_cqe_comp_limit(void)
{
	struct tcq_cfg cfg = { .log = 4, .comp = 1, .max_num = 4 };
	struct mlx5_emu_cq_ev_info ev;
	struct mlx5_emu_cpl c[10];
	unsigned int i;
	struct tcq t;
	uint8_t *q;

	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_lim", &cfg), "cq");
	for (i = 0; i < 10; i++)
		resp(&c[i], i);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 10), 10, "post");
	q = slot(&t, 0);
	TEST_ASSERT(q[47] == 4 && q[63] == 0x2c && q[61] == 0x00, "title 0");
	q = slot(&t, 4);
	TEST_ASSERT(q[47] == 4 && q[63] == 0x2c && q[61] == 0x04, "title 4");
	q = slot(&t, 8);
	TEST_ASSERT(q[47] == 2 && q[63] == 0x2c && q[61] == 0x08, "title 8");
	q = slot(&t, 9);
	TEST_ASSERT(q[7] == 108 && q[15] == 109 && q[23] == 0, "array 9");
	TEST_ASSERT_SUCCESS(ev_info(&t, &ev), "ev");
	TEST_ASSERT(ev.sessions == 3 && ev.compressed == 10, "3 sessions");
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	return TEST_SUCCESS;
}

/* MLX5_EMU_POST_HOLD keeps the session open until mlx5_emu_cq_flush(). */
static int
test_emu_cqe_comp_flush(void)
{
	struct tcq_cfg cfg = { .log = 4, .comp = 1 };
	struct mlx5_emu_cq_ev_info ev;
	struct mlx5_emu_cpl c[5];
	unsigned int i;
	struct tcq t;

	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_fl", &cfg), "cq");
	for (i = 0; i < 5; i++)
		resp(&c[i], i);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post_flags(t.ctx, t.cqn, c, 3,
						 MLX5_EMU_POST_HOLD), 3, "3");
	for (i = 0; i < 16; i++)
		TEST_CHECK(cqe_cmp(slot(&t, i), img_init, "held", i));
	TEST_ASSERT_SUCCESS(ev_info(&t, &ev), "ev");
	TEST_ASSERT(ev.open == 3 && pi_of(&t) == 0, "3 held, pi 0");
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post_flags(t.ctx, t.cqn, c + 3, 2,
						 MLX5_EMU_POST_HOLD), 2, "2");
	for (i = 0; i < 16; i++)
		TEST_CHECK(cqe_cmp(slot(&t, i), img_init, "held", i));
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_flush(t.ctx, t.cqn), "flush");
	TEST_ASSERT(slot(&t, 0)[47] == 5 && slot(&t, 0)[63] == 0x2c,
		    "session of 5 after flush");
	TEST_ASSERT(slot(&t, 1)[39] == 104, "fifth mini");
	TEST_ASSERT_EQUAL(pi_of(&t), 5u, "pi");
	/* A flush with nothing open changes nothing; a held lone completion
	 * is written as a regular CQE.
	 */
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_flush(t.ctx, t.cqn), "flush");
	TEST_ASSERT_EQUAL(pi_of(&t), 5u, "pi");
	resp(&c[0], 5);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post_flags(t.ctx, t.cqn, c, 1,
						 MLX5_EMU_POST_HOLD), 1, "1");
	TEST_ASSERT_EQUAL(slot(&t, 5)[63], 0xf1, "held");
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_flush(t.ctx, t.cqn), "flush");
	TEST_ASSERT(slot(&t, 5)[63] == 0x20 && slot(&t, 5)[47] == 105,
		    "regular CQE");
	TEST_ASSERT_EQUAL(mlx5_emu_cq_flush(t.ctx, 0x7777), -ENOENT, "cqn");
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post_flags(t.ctx, t.cqn, c, 1, 0x80),
			  -EINVAL, "flags");
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	return TEST_SUCCESS;
}

/*
 * Ring space closes a session: 16 entries, 13 plain CQEs not consumed,
 * then 5 joinable ones: a session of 3 fills 13..15, the rest is refused.
 */
static int
test_emu_cqe_comp_ring_space(void)
{
	struct tcq_cfg cfg = { .log = 4, .comp = 1 };
	struct mlx5_emu_cpl c[13];
	unsigned int i;
	struct tcq t;

	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_rs", &cfg), "cq");
	for (i = 0; i < 13; i++) {
		resp(&c[i], i);
		c[i].timestamp = i;
	}
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 13), 13, "13");
	for (i = 0; i < 5; i++)
		resp(&c[i], i);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 5), 3, "3 fit");
	TEST_ASSERT(slot(&t, 13)[47] == 3 && slot(&t, 13)[63] == 0x2c,
		    "session of 3 at 13");
	TEST_CHECK(cqe_cmp(slot(&t, 15), img_init, "hole", 15));
	TEST_ASSERT_EQUAL(pi_of(&t), 16u, "pi");
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c + 3, 2), 0, "full");
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	return TEST_SUCCESS;
}

/* 128 B CQEs (cqe_sz 1) and padded (2): the session in the second halves,
 * first halves zero.
 */
static int
test_emu_cqe_comp_128(void)
{
	struct tcq_cfg cfg = { .log = 3, .comp = 1 };
	struct mlx5_emu_cpl c[3];
	unsigned int i, sz;
	struct tcq t;
	uint8_t zero[64];

	memset(zero, 0, sizeof(zero));
	for (sz = 1; sz <= 2; sz++) {
		cfg.cqe_sz = sz;
		TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_128", &cfg), "cq");
		fmt_cpls(&fmt_cases[0], c);
		/* Garbage in the first halves: the device zeroes them. */
		for (i = 0; i < 8; i++)
			memset(t.buf + i * 128, 0x5a, 64);
		TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 3), 3, "p");
		TEST_CHECK(cqe_cmp(t.buf + 64, t_hash, "128 title", 0));
		TEST_CHECK(cqe_cmp(t.buf + 128 + 64, a_hash, "128 array", 1));
		TEST_CHECK(cqe_cmp(t.buf, zero, "first half", 0));
		TEST_CHECK(cqe_cmp(t.buf + 128, zero, "first half", 1));
		TEST_ASSERT_EQUAL(t.buf[2 * 128], 0x5a, "hole untouched");
		TEST_CHECK(cqe_cmp(t.buf + 2 * 128 + 64, img_init, "hole", 2));
		TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	}
	return TEST_SUCCESS;
}

/*
 * Enhanced layout, HASH format, 8 entries. Post 5: the first is a regular
 * CQE (the title, validity 0), the next four one compressed CQE at 1 with
 * op_own (4 - 1) << 4 | 3 << 2 | owner 0 = 0x3c and validity byte 0, holes
 * 2..4. Then, after the consumer took 5, four more join the same title:
 * array at 5 (4 minis); one more posted alone joins too but, alone in its
 * array, is written as a regular CQE at 9 = entry 1 of pass 1 (validity
 * 1, owner 1), the new title.
 */
static int
test_emu_cqe_comp_enhanced(void)
{
	static const uint8_t title[64] = {
		[12] = 0xde, 0xad, 0x00, 0x00, [16] = 0x33, [20] = 0x11, 0x11,
		[28] = 0x06, 0x04, 0x00, 0x05, [36] = 0xa1, 0xb2, 0xc3, 0xd4,
		[44] = 0x00, 0x00, 0x00, 0x64,
		[48] = 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		[56] = 0x00, 0x00, 0x0a, 0xbc, [60] = 0x01, 0x00, 0x00, 0x20,
	};
	static const uint8_t arr1[64] = {
		0xde, 0xad, 0x00, 0x01, 0x00, 0x00, 0x00, 0x65,
		0xde, 0xad, 0x00, 0x02, 0x00, 0x00, 0x00, 0x66,
		0xde, 0xad, 0x00, 0x03, 0x00, 0x00, 0x00, 0x67,
		0xde, 0xad, 0x00, 0x04, 0x00, 0x00, 0x00, 0x68,
		[62] = 0x00, 0x3c,
	};
	static const uint8_t arr5[64] = {
		0xde, 0xad, 0x00, 0x05, 0x00, 0x00, 0x00, 0x69,
		0xde, 0xad, 0x00, 0x06, 0x00, 0x00, 0x00, 0x6a,
		0xde, 0xad, 0x00, 0x07, 0x00, 0x00, 0x00, 0x6b,
		0xde, 0xad, 0x00, 0x08, 0x00, 0x00, 0x00, 0x6c,
		[62] = 0x00, 0x3c,
	};
	/* Completion 9, regular, at index 9 = entry 1, pass 1. */
	static const uint8_t reg9[64] = {
		[12] = 0xde, 0xad, 0x00, 0x09, [16] = 0x33, [20] = 0x11, 0x11,
		[28] = 0x06, 0x04, 0x00, 0x05, [36] = 0xa1, 0xb2, 0xc3, 0xd4,
		[44] = 0x00, 0x00, 0x00, 0x6d,
		[48] = 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		[56] = 0x00, 0x00, 0x0a, 0xbc, [60] = 0x01, 0x09, 0x01, 0x21,
	};
	struct tcq_cfg cfg = { .log = 3, .comp = 1, .layout = 1 };
	struct mlx5_emu_cpl c[10];
	unsigned int i;
	struct tcq t;

	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_enh", &cfg), "cq");
	for (i = 0; i < 10; i++) {
		resp(&c[i], i);
		c[i].rx_hash_res = 0xdead0000 + i;
	}
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 5), 5, "post 5");
	TEST_CHECK(cqe_cmp(slot(&t, 0), title, "title", 0));
	TEST_CHECK(cqe_cmp(slot(&t, 1), arr1, "array", 1));
	for (i = 2; i < 8; i++)
		TEST_CHECK(cqe_cmp(slot(&t, i), img_init, "hole", i));
	TEST_ASSERT_EQUAL(pi_of(&t), 5u, "pi");
	consumer(&t, 5);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c + 5, 4), 4, "4");
	TEST_CHECK(cqe_cmp(slot(&t, 5), arr5, "array 5", 5));
	/* The ninth joins the title, alone in its array: regular CQE. */
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c + 9, 1), 1, "1");
	TEST_CHECK(cqe_cmp(slot(&t, 1), reg9, "regular 9", 9));
	TEST_ASSERT_EQUAL(pi_of(&t), 10u, "pi");
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");

	/* Seven minis fill a compressed CQE (op_own 6 << 4 | 0x0c); the
	 * eighth and ninth start the next one.
	 */
	cfg.log = 4;
	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_enh", &cfg), "cq");
	for (i = 0; i < 10; i++) {
		resp(&c[i], i);
		c[i].rx_hash_res = 0xdead0000 + i;
	}
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 10), 10, "10");
	TEST_ASSERT_EQUAL(slot(&t, 0)[63], 0x20, "title");
	TEST_ASSERT(slot(&t, 1)[63] == 0x6c && slot(&t, 1)[55] == 0x6b &&
		    slot(&t, 1)[62] == 0, "7 minis at 1");
	TEST_ASSERT(slot(&t, 8)[63] == 0x1c && slot(&t, 8)[7] == 0x6c &&
		    slot(&t, 8)[15] == 0x6d, "2 minis at 8");
	TEST_ASSERT_EQUAL(pi_of(&t), 10u, "pi");
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	return TEST_SUCCESS;
}

/* --- Overrun ------------------------------------------------------------ */

static int
query_cqc_status(struct tcq *t, uint32_t *status)
{
	uint32_t qin[4] = {0}, qout[68] = {0};

	MLX5_SET(create_cq_in, qin, opcode, 0x402);
	qin[2] = rte_cpu_to_be_32(t->cqn);
	if (mlx5_glue->devx_obj_query(t->obj, qin, sizeof(qin), qout,
				      sizeof(qout)) != 0)
		return -1;
	*status = MLX5_GET(cqc, (uint8_t *)qout + 16, status);
	return 0;
}

static int
test_emu_cqe_overrun(void)
{
	struct tcq_cfg cfg = { .log = 3 };
	struct mlx5dv_devx_event_channel *ch;
	struct mlx5_emu_cq_info info;
	struct mlx5_emu_cpl c[12];
	uint16_t evs[1] = { 0x04 }; /* MLX5_EVENT_TYPE_CQ_ERROR */
	uint8_t buf[8 + EQE_LEN];
	struct mlx5dv_devx_async_event_hdr *hdr = (void *)buf;
	uint8_t before[64];
	uint32_t status;
	unsigned int i;
	struct tcq t;

	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_ovr", &cfg), "cq");
	ch = mlx5_glue->devx_create_event_channel(t.ctx, 0);
	TEST_ASSERT_NOT_NULL(ch, "event channel");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_subscribe_devx_event(ch, t.obj,
				sizeof(evs), evs, 0xe1e1), "subscribe");
	for (i = 0; i < 12; i++)
		req(&c[i], i);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 8), 8, "8");
	/* Flow-controlled post: refused, no error. */
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c + 8, 1), 0, "full");
	TEST_ASSERT_SUCCESS(query_cqc_status(&t, &status), "query");
	TEST_ASSERT_EQUAL(status, 0u, "status ok");
	memcpy(before, slot(&t, 0), 64);
	/* The device must write: overrun, CQ error 0x9, nothing written. */
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post_flags(t.ctx, t.cqn, c + 8, 1,
				MLX5_EMU_POST_OVERRUN), -EIO, "overrun");
	TEST_CHECK(cqe_cmp(slot(&t, 0), before, "not overwritten", 0));
	TEST_ASSERT_SUCCESS(query_cqc_status(&t, &status), "query");
	TEST_ASSERT_EQUAL(status, 0x9u, "cqc.status overflow");
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(t.ctx, t.cqn, &info), "q");
	TEST_ASSERT(info.status == 9 && info.pi == 8, "info");
	/* Async CQ error event on the subscribed channel. */
	memset(buf, 0, sizeof(buf));
	TEST_ASSERT_EQUAL(mlx5_glue->devx_get_event(ch, hdr, sizeof(buf)),
			  (ssize_t)sizeof(buf), "CQ error event");
	TEST_ASSERT_EQUAL(hdr->cookie, 0xe1e1u, "cookie");
	TEST_ASSERT_EQUAL(hdr->out_data[1], 0x04, "EQE type CQ error");
	TEST_ASSERT(hdr->out_data[0x20] == 0 &&
		    hdr->out_data[0x21] == ((t.cqn >> 16) & 0xff) &&
		    hdr->out_data[0x22] == ((t.cqn >> 8) & 0xff) &&
		    hdr->out_data[0x23] == (t.cqn & 0xff), "EQE cqn");
	TEST_ASSERT_EQUAL(hdr->out_data[0x2b], 0x01, "syndrome overrun");
	errno = 0;
	TEST_ASSERT_EQUAL(mlx5_glue->devx_get_event(ch, hdr, sizeof(buf)),
			  -1, "one event");
	TEST_ASSERT_EQUAL(errno, EAGAIN, "EAGAIN");
	/* The CQ stays in error, even with room. */
	consumer(&t, 8);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), -EIO, "error");
	TEST_ASSERT_EQUAL(mlx5_emu_cq_flush(t.ctx, t.cqn), -EIO, "flush");
	mlx5_glue->devx_destroy_event_channel(ch);
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");

	/* oi: the device overwrites unconsumed entries (owner of pass 1). */
	cfg.oi = 1;
	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_ovr", &cfg), "cq");
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 8), 8, "8");
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post_flags(t.ctx, t.cqn, c + 8, 4,
				MLX5_EMU_POST_OVERRUN), 4, "overwrite 4");
	for (i = 0; i < 4; i++)
		TEST_ASSERT(slot(&t, i)[63] == 0x01 &&
			    slot(&t, i)[61] == 8 + i, "entry %u pass 1", i);
	TEST_ASSERT_EQUAL(slot(&t, 4)[63], 0x00, "entry 4 pass 0");
	TEST_ASSERT_SUCCESS(query_cqc_status(&t, &status), "query");
	TEST_ASSERT_EQUAL(status, 0u, "no error with oi");
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");

	/* Compression: the open session is written, then the overrun. */
	cfg.oi = 0;
	cfg.comp = 1;
	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_ovr", &cfg), "cq");
	for (i = 0; i < 10; i++)
		resp(&c[i], i);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post_flags(t.ctx, t.cqn, c, 10,
				MLX5_EMU_POST_OVERRUN), -EIO, "overrun");
	TEST_ASSERT(slot(&t, 0)[47] == 8 && slot(&t, 0)[63] == 0x2c,
		    "session of 8 written");
	TEST_ASSERT_SUCCESS(query_cqc_status(&t, &status), "query");
	TEST_ASSERT_EQUAL(status, 0x9u, "overflow");
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	return TEST_SUCCESS;
}

/* Verbs CQ overrun: IBV_EVENT_CQ_ERR on the context's async fd. */
static int
test_emu_cqe_overrun_verbs(void)
{
	struct ibv_cq_init_attr_ex a;
	struct ibv_async_event aev;
	struct mlx5dv_cq out;
	struct mlx5dv_obj obj;
	struct ibv_context *ctx;
	struct ibv_cq_ex *cq;
	struct ibv_cq *ibcq;
	struct mlx5_emu_cpl c[5];
	struct pollfd pfd;
	unsigned int i;

	ctx = mlx5_emu_open("ecq_ovv", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	memset(&a, 0, sizeof(a));
	a.cqe = 3;
	a.wc_flags = IBV_WC_STANDARD_FLAGS;
	cq = mlx5_glue->dv_create_cq(ctx, &a, NULL);
	TEST_ASSERT_NOT_NULL(cq, "verbs cq");
	ibcq = mlx5_glue->cq_ex_to_cq(cq);
	memset(&obj, 0, sizeof(obj));
	obj.cq.in = ibcq;
	obj.cq.out = &out;
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_init_obj(&obj, MLX5DV_OBJ_CQ), "dv");
	for (i = 0; i < 5; i++)
		req(&c[i], i);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(ctx, out.cqn, c, 4), 4, "4");
	pfd.fd = ctx->async_fd;
	pfd.events = POLLIN;
	TEST_ASSERT_EQUAL(poll(&pfd, 1, 0), 0, "async fd quiet");
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post_flags(ctx, out.cqn, c + 4, 1,
				MLX5_EMU_POST_OVERRUN), -EIO, "overrun");
	TEST_ASSERT_EQUAL(poll(&pfd, 1, 0), 1, "async fd readable");
	memset(&aev, 0, sizeof(aev));
	TEST_ASSERT_SUCCESS(mlx5_glue->get_async_event(ctx, &aev), "get");
	TEST_ASSERT_EQUAL(aev.event_type, IBV_EVENT_CQ_ERR, "CQ_ERR");
	TEST_ASSERT(aev.element.cq == ibcq, "the CQ");
	mlx5_glue->ack_async_event(&aev);
	TEST_ASSERT_EQUAL(ibcq->async_events_completed, 1u, "acked");
	TEST_ASSERT_EQUAL(poll(&pfd, 1, 0), 0, "async fd drained");
	errno = 0;
	TEST_ASSERT_EQUAL(mlx5_glue->get_async_event(ctx, &aev), -1, "none");
	TEST_ASSERT_EQUAL(errno, EAGAIN, "EAGAIN");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_cq(ibcq), "destroy");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	return TEST_SUCCESS;
}

/* --- Arming and events ---------------------------------------------------- */

/* rdma-core mlx5_arm_cq: record word 1, barrier, UAR doorbell at 0x20. */
static void
arm_doorbell(volatile uint32_t *dbrec, void *uar, uint32_t cqn,
	     unsigned int sn, int solicited, uint32_t ci)
{
	uint32_t word = (sn & 3) << 28 | (solicited ? 1u << 24 : 0) |
			(ci & 0xffffff);
	uint64_t db = (uint64_t)word << 32 | cqn;

	dbrec[1] = rte_cpu_to_be_32(word);
	rte_wmb();
	*(volatile uint64_t *)(void *)((uint8_t *)uar + 0x20) =
		rte_cpu_to_be_64(db);
}

static void
tcq_arm(struct tcq *t, unsigned int sn, int solicited, uint32_t ci)
{
	arm_doorbell(t->dbrec, t->uar->base_addr, t->cqn, sn, solicited, ci);
}

static int
fd_readable(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, 0) == 1;
}

/* One DevX completion event: cookie and EQE (type 0, cqn at 0x38). */
static int
expect_comp_event(struct mlx5dv_devx_event_channel *ch, uint64_t cookie,
		  uint32_t cqn)
{
	uint8_t buf[8 + EQE_LEN];
	struct mlx5dv_devx_async_event_hdr *hdr = (void *)buf;

	TEST_ASSERT(fd_readable(ch->fd), "channel fd readable");
	memset(buf, 0xff, sizeof(buf));
	TEST_ASSERT_EQUAL(mlx5_glue->devx_get_event(ch, hdr, sizeof(buf)),
			  (ssize_t)sizeof(buf), "event");
	TEST_ASSERT_EQUAL(hdr->cookie, cookie, "cookie");
	TEST_ASSERT_EQUAL(hdr->out_data[1], 0x00, "EQE type COMP");
	TEST_ASSERT(hdr->out_data[0x38] == 0 &&
		    hdr->out_data[0x39] == ((cqn >> 16) & 0xff) &&
		    hdr->out_data[0x3a] == ((cqn >> 8) & 0xff) &&
		    hdr->out_data[0x3b] == (cqn & 0xff), "EQE cqn");
	return TEST_SUCCESS;
}

static int
expect_no_event(struct mlx5dv_devx_event_channel *ch)
{
	uint8_t buf[8 + EQE_LEN];

	TEST_ASSERT(!fd_readable(ch->fd), "channel fd quiet");
	errno = 0;
	TEST_ASSERT_EQUAL(mlx5_glue->devx_get_event(ch, (void *)buf,
						    sizeof(buf)), -1, "none");
	TEST_ASSERT_EQUAL(errno, EAGAIN, "EAGAIN");
	return TEST_SUCCESS;
}

static int
test_emu_cqe_arm_devx(void)
{
	struct tcq_cfg cfg = { .log = 4 };
	struct mlx5dv_devx_event_channel *ch, *ch2;
	struct mlx5_emu_cq_ev_info ev;
	uint16_t evs[1] = { 0x00 }; /* MLX5_EVENT_TYPE_COMP */
	uint16_t bad[1] = { 0x13 };
	struct mlx5_emu_cpl c[4];
	uint8_t small[8];
	unsigned int i;
	struct tcq t;

	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_arm", &cfg), "cq");
	for (i = 0; i < 4; i++)
		req(&c[i], i);
	ch = mlx5_glue->devx_create_event_channel(t.ctx, 0);
	ch2 = mlx5_glue->devx_create_event_channel(t.ctx,
		MLX5DV_DEVX_CREATE_EVENT_CHANNEL_FLAGS_OMIT_EV_DATA);
	TEST_ASSERT(ch != NULL && ch2 != NULL, "channels");
	TEST_ASSERT_EQUAL(mlx5_glue->devx_subscribe_devx_event(ch, t.obj,
				sizeof(bad), bad, 1), EINVAL, "not CQ event");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_subscribe_devx_event(ch, t.obj,
				sizeof(evs), evs, 0xc0ffee), "subscribe");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_subscribe_devx_event(ch2, t.obj,
				sizeof(evs), evs, 0xbeef), "subscribe 2");
	/* Not armed: no event. */
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "post");
	TEST_CHECK(expect_no_event(ch));
	/* Arm (sn 0, ci 1): one event for the next CQE, then disarmed. */
	tcq_arm(&t, 0, 0, 1);
	consumer(&t, 1);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "post");
	TEST_CHECK(expect_comp_event(ch, 0xc0ffee, t.cqn));
	TEST_CHECK(expect_no_event(ch));
	/* The omit-data channel returns the cookie only. */
	TEST_ASSERT_EQUAL(mlx5_glue->devx_get_event(ch2, (void *)small,
						    sizeof(small)), 8, "8 B");
	TEST_ASSERT_EQUAL(((struct mlx5dv_devx_async_event_hdr *)small)->cookie,
			  0xbeefu, "cookie");
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "post");
	TEST_CHECK(expect_no_event(ch));
	/* Re-arm with the sn already reported: ignored. */
	tcq_arm(&t, 0, 0, 3);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "post");
	TEST_CHECK(expect_no_event(ch));
	/* New sn (the consumer took the event): the next CQE fires. */
	consumer(&t, 4);
	tcq_arm(&t, 1, 0, 4);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 2), 2, "post 2");
	TEST_CHECK(expect_comp_event(ch, 0xc0ffee, t.cqn));
	TEST_CHECK(expect_no_event(ch));
	/* Arm while CQEs past ci are in the ring: fires when the model runs
	 * (flush).
	 */
	tcq_arm(&t, 2, 0, 4);
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_flush(t.ctx, t.cqn), "flush");
	TEST_CHECK(expect_comp_event(ch, 0xc0ffee, t.cqn));
	/* A doorbell whose word differs from record word 1 is no arm. */
	consumer(&t, 6);
	tcq_arm(&t, 3, 0, 6);
	t.dbrec[1] = 0;
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "post");
	TEST_CHECK(expect_no_event(ch));
	TEST_ASSERT_SUCCESS(ev_info(&t, &ev), "ev");
	TEST_ASSERT(ev.arms == 3 && ev.events == 3 && ev.armed == 0,
		    "3 arms, 3 events (arms %" PRIu64 " events %" PRIu64 ")",
		    (uint64_t)ev.arms, (uint64_t)ev.events);
	/* Destroying a channel drops its subscriptions. */
	mlx5_glue->devx_destroy_event_channel(ch2);
	mlx5_glue->devx_destroy_event_channel(ch);
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	return TEST_SUCCESS;
}

static int
test_emu_cqe_arm_solicited(void)
{
	struct tcq_cfg cfg = { .log = 4, .comp = 1 };
	struct mlx5dv_devx_event_channel *ch;
	uint16_t evs[1] = { 0x00 };
	struct mlx5_emu_cpl c[4];
	unsigned int i;
	struct tcq t;

	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_sol", &cfg), "cq");
	ch = mlx5_glue->devx_create_event_channel(t.ctx, 0);
	TEST_ASSERT_NOT_NULL(ch, "channel");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_subscribe_devx_event(ch, t.obj,
				sizeof(evs), evs, 7), "subscribe");
	for (i = 0; i < 4; i++)
		resp(&c[i], i);
	tcq_arm(&t, 0, 1, 0);
	/* A compressed session without the solicited bit: no event. */
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 3), 3, "post");
	TEST_CHECK(expect_no_event(ch));
	/* A solicited completion: event. */
	resp(&c[0], 3);
	c[0].solicited = 1;
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "post");
	TEST_ASSERT_EQUAL(slot(&t, 3)[63], 0x22, "SE bit in op_own");
	TEST_CHECK(expect_comp_event(ch, 7, t.cqn));
	/* Solicited-only arm, an error CQE: event. */
	tcq_arm(&t, 1, 1, 4);
	resp(&c[0], 4);
	c[0].kind = MLX5_EMU_CPL_RESP_ERR;
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "post");
	TEST_CHECK(expect_comp_event(ch, 7, t.cqn));
	/* Arm any: a plain completion fires. */
	tcq_arm(&t, 2, 0, 5);
	resp(&c[0], 5);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "post");
	TEST_CHECK(expect_comp_event(ch, 7, t.cqn));
	mlx5_glue->devx_destroy_event_channel(ch);
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	return TEST_SUCCESS;
}

/* Verbs: events on the completion channel; get_cq_event gives the CQ and
 * its cq_context; ack_cq_events counts them.
 */
static int
test_emu_cqe_arm_verbs(void)
{
	struct ibv_cq_init_attr_ex a;
	struct ibv_comp_channel *cc;
	struct mlx5dv_cq out;
	struct mlx5dv_obj obj;
	struct ibv_context *ctx;
	struct ibv_cq_ex *cq;
	struct ibv_cq *ibcq, *got;
	struct mlx5_emu_cpl c[2];
	void *got_ctx;
	int marker;

	ctx = mlx5_emu_open("ecq_armv", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	cc = mlx5_glue->create_comp_channel(ctx);
	TEST_ASSERT_NOT_NULL(cc, "channel");
	memset(&a, 0, sizeof(a));
	a.cqe = 7;
	a.wc_flags = IBV_WC_STANDARD_FLAGS;
	a.channel = cc;
	a.cq_context = &marker;
	cq = mlx5_glue->dv_create_cq(ctx, &a, NULL);
	TEST_ASSERT_NOT_NULL(cq, "verbs cq");
	ibcq = mlx5_glue->cq_ex_to_cq(cq);
	memset(&obj, 0, sizeof(obj));
	obj.cq.in = ibcq;
	obj.cq.out = &out;
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_init_obj(&obj, MLX5DV_OBJ_CQ), "dv");
	req(&c[0], 0);
	req(&c[1], 1);
	errno = 0;
	TEST_ASSERT_EQUAL(mlx5_glue->get_cq_event(cc, &got, &got_ctx), -1,
			  "no event yet");
	TEST_ASSERT_EQUAL(errno, EAGAIN, "EAGAIN");
	arm_doorbell(out.dbrec, out.cq_uar, out.cqn, 0, 0, 0);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(ctx, out.cqn, c, 2), 2, "post");
	TEST_ASSERT(fd_readable(cc->fd), "channel fd readable");
	got = NULL;
	got_ctx = NULL;
	TEST_ASSERT_SUCCESS(mlx5_glue->get_cq_event(cc, &got, &got_ctx), "ev");
	TEST_ASSERT(got == ibcq && got_ctx == &marker, "CQ and context");
	TEST_ASSERT(!fd_readable(cc->fd), "one event only");
	mlx5_glue->ack_cq_events(ibcq, 1);
	TEST_ASSERT_EQUAL(ibcq->comp_events_completed, 1u, "acked");
	/* Re-arm with the next sn. */
	out.dbrec[0] = rte_cpu_to_be_32(2);
	arm_doorbell(out.dbrec, out.cq_uar, out.cqn, 1, 0, 2);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(ctx, out.cqn, c, 1), 1, "post");
	TEST_ASSERT_SUCCESS(mlx5_glue->get_cq_event(cc, &got, &got_ctx), "ev");
	TEST_ASSERT(got == ibcq, "second event");
	mlx5_glue->ack_cq_events(ibcq, 1);
	TEST_ASSERT_EQUAL(ibcq->comp_events_completed, 2u, "acked");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_cq(ibcq), "destroy");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_comp_channel(cc), "channel");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	return TEST_SUCCESS;
}

/*
 * A verbs CQ with compression (mlx5dv CSUM format): the same session image
 * in the verbs ring (holes keep rdma-core's INVALID << 4), and an armed CQ
 * raises one event for the whole session.
 */
static int
test_emu_cqe_comp_verbs(void)
{
	static const uint8_t hole[64] = { [63] = 0xf0 };
	struct ibv_cq_init_attr_ex a;
	struct mlx5dv_cq_init_attr dv;
	struct ibv_comp_channel *cc;
	struct mlx5_emu_cq_ev_info ev;
	struct mlx5dv_cq out;
	struct mlx5dv_obj obj;
	struct ibv_context *ctx;
	struct ibv_cq_ex *cq;
	struct ibv_cq *ibcq, *got;
	struct mlx5_emu_cpl c[3];
	void *got_ctx;
	uint8_t *buf;

	ctx = mlx5_emu_open("ecq_cv", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	cc = mlx5_glue->create_comp_channel(ctx);
	TEST_ASSERT_NOT_NULL(cc, "channel");
	memset(&a, 0, sizeof(a));
	a.cqe = 7;
	a.wc_flags = IBV_WC_STANDARD_FLAGS;
	a.channel = cc;
	memset(&dv, 0, sizeof(dv));
	/* 64 B CQEs whatever MLX5_CQE_SIZE says (rte_common_mlx5 sets it to
	 * 128 on builds with 128-byte cache lines).
	 */
	dv.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE |
		       MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE;
	dv.cqe_size = 64;
	dv.cqe_comp_res_format = MLX5DV_CQE_RES_FORMAT_CSUM;
	cq = mlx5_glue->dv_create_cq(ctx, &a, &dv);
	TEST_ASSERT_NOT_NULL(cq, "verbs cq: %s", strerror(errno));
	ibcq = mlx5_glue->cq_ex_to_cq(cq);
	memset(&obj, 0, sizeof(obj));
	obj.cq.in = ibcq;
	obj.cq.out = &out;
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_init_obj(&obj, MLX5DV_OBJ_CQ), "dv");
	buf = out.buf;
	fmt_cpls(&fmt_cases[1], c);
	arm_doorbell(out.dbrec, out.cq_uar, out.cqn, 0, 0, 0);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(ctx, out.cqn, c, 3), 3, "post");
	TEST_CHECK(cqe_cmp(buf, t_csum, "verbs title", 0));
	TEST_CHECK(cqe_cmp(buf + 64, a_csum, "verbs array", 1));
	TEST_CHECK(cqe_cmp(buf + 128, hole, "verbs hole", 2));
	TEST_ASSERT_SUCCESS(mlx5_glue->get_cq_event(cc, &got, &got_ctx), "ev");
	TEST_ASSERT(got == ibcq, "event of the CQ");
	TEST_ASSERT(!fd_readable(cc->fd), "one event for the session");
	mlx5_glue->ack_cq_events(ibcq, 1);
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_ev_query(ctx, out.cqn, &ev), "ev q");
	TEST_ASSERT(ev.events == 1 && ev.sessions == 1 && ev.compressed == 3,
		    "counters");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_cq(ibcq), "destroy");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_comp_channel(cc), "channel");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	return TEST_SUCCESS;
}

/* MODIFY_CQ (opcode 0x403): moderation. */
static int
modify_cq(struct tcq *t, uint32_t select, uint16_t period, uint16_t count,
	  unsigned int op_mod, uint8_t *status)
{
	uint32_t in[MODIFY_CQ_IN_LEN / 4], out[4];
	void *cqc = (uint8_t *)in + CQC_OFF;
	int ret;

	memset(in, 0, sizeof(in));
	memset(out, 0, sizeof(out));
	in[0] = rte_cpu_to_be_32(0x403u << 16);
	in[1] = rte_cpu_to_be_32(op_mod & 0xffff);
	in[2] = rte_cpu_to_be_32(t->cqn);
	in[3] = rte_cpu_to_be_32(select);
	MLX5_SET(cqc, cqc, cq_period, period);
	MLX5_SET(cqc, cqc, cq_max_count, count);
	ret = mlx5_glue->devx_obj_modify(t->obj, in, sizeof(in), out,
					 sizeof(out));
	*status = (uint8_t)(rte_be_to_cpu_32(out[0]) >> 24);
	return ret;
}

static int
test_emu_cqe_moderation(void)
{
	struct tcq_cfg cfg = { .log = 4 };
	struct mlx5dv_devx_event_channel *ch;
	struct mlx5_emu_cq_ev_info ev;
	uint16_t evs[1] = { 0x00 };
	struct mlx5_emu_cpl c[1];
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 3000000 };
	uint8_t st;
	struct tcq t;

	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_mod", &cfg), "cq");
	ch = mlx5_glue->devx_create_event_channel(t.ctx, 0);
	TEST_ASSERT_NOT_NULL(ch, "channel");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_subscribe_devx_event(ch, t.obj,
				sizeof(evs), evs, 9), "subscribe");
	req(&c[0], 0);
	/* Resize and unknown field bits are refused with a status. */
	TEST_ASSERT_EQUAL(modify_cq(&t, 0x2, 0, 3, 1, &st), EINVAL, "resize");
	TEST_ASSERT_EQUAL(st, 0x03, "BAD_PARAM");
	TEST_ASSERT_EQUAL(modify_cq(&t, 0x10, 0, 3, 0, &st), EINVAL, "select");
	/* cq_max_count 3. */
	TEST_ASSERT_SUCCESS(modify_cq(&t, 0x2, 0, 3, 0, &st), "modify");
	TEST_ASSERT_EQUAL(st, 0, "status");
	TEST_ASSERT_SUCCESS(ev_info(&t, &ev), "ev");
	TEST_ASSERT(ev.cq_max_count == 3 && ev.cq_period == 0, "moderation");
	tcq_arm(&t, 0, 0, 0);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "1");
	TEST_CHECK(expect_no_event(ch));
	TEST_ASSERT_SUCCESS(ev_info(&t, &ev), "ev");
	TEST_ASSERT(ev.held == 1 && ev.armed == 0, "held");
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "2");
	TEST_CHECK(expect_no_event(ch));
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "3");
	TEST_CHECK(expect_comp_event(ch, 9, t.cqn));
	/* cq_period 100 us, count off: the event goes once the period has
	 * passed and the model runs.
	 */
	TEST_ASSERT_SUCCESS(modify_cq(&t, 0x3, 100, 0, 0, &st), "modify");
	consumer(&t, 3);
	tcq_arm(&t, 1, 0, 3);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "post");
	nanosleep(&ts, NULL);
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_flush(t.ctx, t.cqn), "flush");
	TEST_CHECK(expect_comp_event(ch, 9, t.cqn));
	mlx5_glue->devx_destroy_event_channel(ch);
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	return TEST_SUCCESS;
}

/* --- Producer thread ------------------------------------------------------ */

/*
 * A concurrent poller of a 64-entry CQ fed by the producer thread: every
 * completion exactly once, in order (wqe_counter = sequence number), error
 * CQEs as many as the producer reports. With compression (HASH format,
 * runs of 4) the poller expands sessions itself (title count, arrays at
 * ci + 1, ci + 8...; the HASH mini carries the hash = first of the run,
 * the wqe_counter is the title's plus the position).
 */
static int
producer_run(int comp)
{
	struct tcq_cfg cfg = { .log = 6, .comp = comp };
	struct mlx5_emu_producer_attr pa;
	struct mlx5_emu_producer_stats ps;
	struct mlx5_emu_producer *p;
	const uint64_t total = 20000;
	uint64_t seq = 0, errs = 0;
	uint32_t ci = 0, n, k;
	uint64_t deadline;
	struct tcq t;
	uint8_t *q, op;

	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_prod", &cfg), "cq");
	memset(&pa, 0, sizeof(pa));
	pa.count = total;
	pa.batch = 16;
	pa.req_percent = 0;
	pa.error_permille = 5;
	pa.run_len = comp ? 4 : 0;
	pa.seed = 42;
	p = mlx5_emu_producer_start(t.ctx, t.cqn, &pa);
	TEST_ASSERT_NOT_NULL(p, "start");
	deadline = test_wait_deadline(TEST_WAIT_S);
	while (seq < total) {
		q = slot(&t, ci);
		op = __atomic_load_n(&q[63], __ATOMIC_ACQUIRE);
		if ((op >> 4) == 0xf || (op & 1) != ((ci >> 6) & 1)) {
			if (test_wait_expired(deadline)) {
				printf("  %" PRIu64 " of %" PRIu64 " polled after %d s\n",
				       (uint64_t)seq,
				       (uint64_t)total, TEST_WAIT_S);
				break;
			}
			sched_yield();
			continue;
		}
		rte_rmb();
		if (((op >> 2) & 3) == 3) {
			n = (uint32_t)q[44] << 24 | q[45] << 16 | q[46] << 8 |
			    q[47];
			TEST_ASSERT(n >= 2 && n <= 64, "session of %u", n);
			for (k = 0; k < n; k++) {
				uint8_t *m = slot(&t, k < 8 ? ci + 1 :
						  ci + 8 * (k / 8));
				uint16_t wc = (uint16_t)((q[60] << 8 | q[61]) +
							 k);

				m += (k % 8) * 8;
				TEST_ASSERT_EQUAL(wc, (uint16_t)seq,
						  "seq %" PRIu64 " in session",
						  (uint64_t)seq);
				TEST_ASSERT_EQUAL((uint64_t)(m[7] | m[6] << 8),
						  64 + (seq & 1023), "len");
				seq++;
			}
			ci += n;
		} else {
			if ((op >> 4) == MLX5_CQE_RESP_ERR ||
			    (op >> 4) == MLX5_CQE_REQ_ERR)
				errs++;
			TEST_ASSERT_EQUAL((uint16_t)(q[60] << 8 | q[61]),
					  (uint16_t)seq, "seq %" PRIu64,
					  (uint64_t)seq);
			seq++;
			ci++;
		}
		consumer(&t, ci);
	}
	mlx5_emu_producer_stop(p, &ps);
	TEST_ASSERT_EQUAL(seq, total, "all completions polled");
	TEST_ASSERT(ps.done && ps.written == total && ps.last_ret == 0,
		    "producer: %" PRIu64 " written, ret %d",
		    (uint64_t)ps.written, ps.last_ret);
	TEST_ASSERT_EQUAL(ps.errors, errs, "error CQEs");
	TEST_ASSERT(errs > 0, "some errors");
	TEST_ASSERT_EQUAL(pi_of(&t), (uint32_t)total, "pi");
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	return TEST_SUCCESS;
}

static int
test_emu_cqe_producer(void)
{
	TEST_CHECK(producer_run(0));
	return producer_run(1);
}

/* A producer asked to overrun a CQ nobody polls: the CQ goes to error and
 * the thread ends with -EIO; bad attributes are refused.
 */
static int
test_emu_cqe_producer_overrun(void)
{
	struct tcq_cfg cfg = { .log = 3 };
	struct mlx5_emu_producer_attr pa;
	struct mlx5_emu_producer_stats ps;
	struct mlx5_emu_producer *p;
	struct mlx5_emu_cq_info info;
	uint64_t deadline;
	struct tcq t;

	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_povr", &cfg), "cq");
	memset(&pa, 0, sizeof(pa));
	pa.count = 100;
	pa.batch = 4;
	pa.overrun = 1;
	p = mlx5_emu_producer_start(t.ctx, t.cqn, &pa);
	TEST_ASSERT_NOT_NULL(p, "start");
	deadline = test_wait_deadline(TEST_WAIT_S);
	do {
		sched_yield();
		mlx5_emu_producer_stats_get(p, &ps);
	} while (!ps.done && !test_wait_expired(deadline));
	if (!ps.done)
		printf("  producer not done after %d s\n", TEST_WAIT_S);
	mlx5_emu_producer_stop(p, &ps);
	TEST_ASSERT(ps.last_ret == -EIO && ps.written == 8, "written %" PRIu64
		    " ret %d", (uint64_t)ps.written, ps.last_ret);
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(t.ctx, t.cqn, &info), "q");
	TEST_ASSERT_EQUAL(info.status, 9u, "overflow");
	pa.batch = 1000;
	TEST_ASSERT_NULL(mlx5_emu_producer_start(t.ctx, t.cqn, &pa), "batch");
	pa.batch = 1;
	TEST_ASSERT_NULL(mlx5_emu_producer_start(t.ctx, 0x7777, &pa), "cqn");
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	return TEST_SUCCESS;
}

static struct unit_test_suite emu_cqe_suite = {
	.suite_name = "emu_cqe",
	.unit_test_cases = {
		TEST_CASE(test_emu_cqe_comp_formats),
		TEST_CASE(test_emu_cqe_comp_join_rules),
		TEST_CASE(test_emu_cqe_comp_lone_and_error),
		TEST_CASE(test_emu_cqe_comp_arrays),
		TEST_CASE(test_emu_cqe_comp_wrap),
		TEST_CASE(test_emu_cqe_comp_limit),
		TEST_CASE(test_emu_cqe_comp_flush),
		TEST_CASE(test_emu_cqe_comp_ring_space),
		TEST_CASE(test_emu_cqe_comp_128),
		TEST_CASE(test_emu_cqe_comp_enhanced),
		TEST_CASE(test_emu_cqe_overrun),
		TEST_CASE(test_emu_cqe_overrun_verbs),
		TEST_CASE(test_emu_cqe_arm_devx),
		TEST_CASE(test_emu_cqe_arm_solicited),
		TEST_CASE(test_emu_cqe_arm_verbs),
		TEST_CASE(test_emu_cqe_comp_verbs),
		TEST_CASE(test_emu_cqe_moderation),
		TEST_CASE(test_emu_cqe_producer),
		TEST_CASE(test_emu_cqe_producer_overrun),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(emu_cqe, emu_cqe_suite);
