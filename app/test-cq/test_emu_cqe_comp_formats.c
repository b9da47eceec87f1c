/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_cqe_comp_formats": compression sessions of the emulated HCA in
 * every mini-CQE format and the requester format: which completions join a
 * session, lone completions and errors, the mini-CQE arrays.
 */

#include "test_emu_cqe_fixture.h"

static int
test_emu_cqe_comp_formats(void)
{
	struct tcq_cfg cfg = { .log = 4, .comp = 1 };
	struct mlx5_emu_cq_ev_info ev;
	struct mlx5_emu_wc c[3];
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
	void (*mut)(struct mlx5_emu_wc *c);
};

static void m_csum(struct mlx5_emu_wc *c) { c->csum ^= 0x0100; }
static void m_hash(struct mlx5_emu_wc *c) { c->rx_hash_res ^= 1; }
static void m_vlan(struct mlx5_emu_wc *c) { c->vlan_info ^= 1; }
static void m_meta(struct mlx5_emu_wc *c) { c->flow_table_metadata ^= 1; }
static void m_ts(struct mlx5_emu_wc *c) { c->timestamp ^= 1; }
static void m_tag(struct mlx5_emu_wc *c) { c->qpn ^= 0x10000; }
static void m_hdr_lo(struct mlx5_emu_wc *c) { c->hdr_type_etc ^= 0x0001; }
static void m_hdr_hi(struct mlx5_emu_wc *c) { c->hdr_type_etc ^= 0x0200; }
static void m_htype(struct mlx5_emu_wc *c) { c->rx_hash_type ^= 1; }
static void m_wqe(struct mlx5_emu_wc *c) { c->wqe_counter += 5; }
static void m_big(struct mlx5_emu_wc *c) { c->byte_cnt = 0x01000000; }
static void m_sol(struct mlx5_emu_wc *c) { c->solicited = 1; }
static void m_op(struct mlx5_emu_wc *c) { c->opcode = MLX5_CQE_RESP_SEND_IMM; }
static void m_err(struct mlx5_emu_wc *c) { c->kind = MLX5_EMU_WC_RESP_ERR; }
static void m_kind(struct mlx5_emu_wc *c) { c->kind = MLX5_EMU_WC_REQ; }

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
	struct mlx5_emu_wc c[3];
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
	struct mlx5_emu_wc c[5];
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
	c[2].kind = MLX5_EMU_WC_RESP_ERR;
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
	struct mlx5_emu_wc c[20];
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

static struct unit_test_suite emu_cqe_comp_formats_suite = {
	.suite_name = "emu_cqe_comp_formats",
	.unit_test_cases = {
		TEST_CASE(test_emu_cqe_comp_formats),
		TEST_CASE(test_emu_cqe_comp_join_rules),
		TEST_CASE(test_emu_cqe_comp_lone_and_error),
		TEST_CASE(test_emu_cqe_comp_arrays),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_cqe_comp_formats, emu_cqe_comp_formats_suite);
