/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_cqe_comp_ring": compression sessions against the ring: the
 * wrap, the session limit, flush, ring space, 128 B CQEs.
 */

#include "test_emu_cqe_fixture.h"

/*
 * A session across the ring end: 16 entries, 12 plain CQEs consumed, then
 * 9 completions: title at 12 (pass 0, owner 0), array at 13, second array
 * at 12 + 8 = 20 -> entry 4 of the next pass; 14, 15 and 0..3 are holes.
 */
static int
test_emu_cqe_comp_wrap(void)
{
	struct tcq_cfg cfg = { .log = 4, .comp = 1 };
	struct mlx5_emu_wc c[12];
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
	struct mlx5_emu_wc c[10];
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
	struct mlx5_emu_wc c[5];
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
	struct mlx5_emu_wc c[13];
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
	struct mlx5_emu_wc c[3];
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

static struct unit_test_suite emu_cqe_comp_ring_suite = {
	.suite_name = "emu_cqe_comp_ring",
	.unit_test_cases = {
		TEST_CASE(test_emu_cqe_comp_wrap),
		TEST_CASE(test_emu_cqe_comp_limit),
		TEST_CASE(test_emu_cqe_comp_flush),
		TEST_CASE(test_emu_cqe_comp_ring_space),
		TEST_CASE(test_emu_cqe_comp_128),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_cqe_comp_ring, emu_cqe_comp_ring_suite);
