/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_cqe_comp_enhanced": the enhanced compression layout of the
 * emulated HCA.
 */

#include "test_emu_cqe_fixture.h"

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
	struct mlx5_emu_wc c[10];
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

static struct unit_test_suite emu_cqe_comp_enhanced_suite = {
	.suite_name = "emu_cqe_comp_enhanced",
	.unit_test_cases = {
		TEST_CASE(test_emu_cqe_comp_enhanced),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_cqe_comp_enhanced, emu_cqe_comp_enhanced_suite);
