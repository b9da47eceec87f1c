/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "decomp_stop": what follows a session: an error CQE is delivered,
 * an INVALID compressed CQE or a compressed CQE with no title stops the
 * burst.
 * The fixture (hand-built CQ, title images, golden mini-CQEs,
 * expected records, run_session()) is test_decomp_fixture.c; its
 * header states the layouts and the expected record of each format.
 */

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include <mlx5_emu.h>
#include <rte_mlx5cq.h>

#include "test.h"
#include "test_cq_cnt.h"
#include "test_cpl_expect.h"
#include "test_decomp_fixture.h"
#include "test_hand_cq.h"
#include "test_vec_arch.h"

/*
 * An error CQE right after a session (DPDK 1f903ebe2c): delivered as an
 * error record with its syndrome, in the same burst and in the next.
 */
static int
test_decomp_error_after(void)
{
	struct session_case sc;
	uint8_t op, b;

	for (op = 13; op <= 14; op++)
		for (b = 0; b < 3; b++) {
			memset(&sc, 0, sizeof(sc));
			sc.fmt = F_HASH;
			sc.stride = 64;
			sc.log_n = 6;
			sc.ci0 = 0;
			sc.count = 9;
			sc.burst = b == 0 ? 32 : (b == 1 ? 10 : 1);
			sc.title_op = 2;
			sc.after_op = op;
			TEST_CHECK(run_session(&sc));
		}
	return TEST_SUCCESS;
}

/*
 * A session, then a compressed CQE of the consumer's pass whose opcode is
 * INVALID (0xf: not written yet, whatever its owner bit) and whose byte
 * count would make it a session of 7: every poll implementation this CPU
 * has stops before it, with the session's 4 records; once a regular CQE
 * replaces it, the next burst returns that one. Entries of 64 and 128 B.
 */
static int
test_decomp_invalid_after(void)
{
	struct rte_mlx5cq_cpl c[32], e;
	struct img_cqe t, bad;
	uint8_t m[4][8];
	unsigned int v, stride, j;

	for (stride = 64; stride <= 128; stride += 64)
		for (v = 0; v < RTE_MLX5CQ_VEC_MAX; v++) {
			TEST_ASSERT_SUCCESS(hand_cq_init(&dcq, 5, stride,
							 F_HASH + 1, 0),
					    "init");
			if (rte_mlx5cq_vec_set(dcq.cq,
					       (enum rte_mlx5cq_vec)v) != 0) {
				hand_cq_fini(&dcq);
				continue; /* not on this CPU or EAL */
			}
			memset(m, 0, sizeof(m));
			for (j = 0; j < 4; j++)
				img_be32(m[j] + 4, 60 + j); /* byte counts */
			title_img(&t, 2);
			hand_put_session(&dcq, 0, &t,
					 (const uint8_t (*)[8])m, 4);
			bad = t;
			bad.opcode = 0xf;
			bad.format = 3;
			bad.byte_cnt = 7;
			hand_put(&dcq, 4, &bad);
			TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(dcq.cq, c, 32),
					  4, "%s, stride %u: session records",
					  rte_mlx5cq_vec_name(
						(enum rte_mlx5cq_vec)v),
					  stride);
			for (j = 0; j < 4; j++)
				TEST_ASSERT_EQUAL(c[j].byte_cnt, 60 + j,
						  "record %u byte count", j);
			TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(dcq.cq, c, 32),
					  0, "%s, stride %u: past INVALID",
					  rte_mlx5cq_vec_name(
						(enum rte_mlx5cq_vec)v),
					  stride);
			TEST_ASSERT_EQUAL(dcq.cq->ci, 4, "ci %u", dcq.cq->ci);
			bad.opcode = 2;
			bad.format = 0;
			bad.byte_cnt = 1500;
			hand_put(&dcq, 4, &bad);
			TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(dcq.cq, c, 32),
					  1, "regular CQE after the session");
			expect_img_record(&bad, &e);
			TEST_CHECK(check_rec(&c[0], &e, 0));
			hand_cq_fini(&dcq);
		}
	return TEST_SUCCESS;
}

/* A compressed CQE of an enhanced CQ with no title before it stops. */
static int
test_decomp_malformed(void)
{
	struct rte_mlx5cq_cpl c[8];
	uint8_t m[2][8];
	struct img_cqe t;

	memset(m, 0, sizeof(m));
	TEST_ASSERT_SUCCESS(hand_cq_init(&dcq, 4, 64, 1 | 0x80, 0), "init");
	hand_put_enh_array(&dcq, 0, (const uint8_t (*)[8])m, 2);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(dcq.cq, c, 8), 0, "no title");
	TEST_ASSERT_EQUAL(test_cq_cnt(dcq.cq)->comp_unhandled, 1, "comp_unhandled");
	TEST_ASSERT_EQUAL(dcq.cq->ci, 0, "ci moved");
	hand_cq_fini(&dcq);
	/* Basic layout: a session count of 1 cannot be (array at ci + 1). */
	TEST_ASSERT_SUCCESS(hand_cq_init(&dcq, 4, 64, 1, 0), "init");
	title_img(&t, 2);
	hand_put_session(&dcq, 0, &t, (const uint8_t (*)[8])m, 1);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(dcq.cq, c, 8), 0, "count 1");
	TEST_ASSERT_EQUAL(test_cq_cnt(dcq.cq)->comp_unhandled, 1, "comp_unhandled");
	TEST_ASSERT_EQUAL(hand_cqe(&dcq, 0)[IMG_OP_OWN] >> 4, 2,
			  "title modified");
	hand_cq_fini(&dcq);
	return TEST_SUCCESS;
}

static struct unit_test_suite decomp_stop_suite = {
	.suite_name = "decomp_stop",
	.unit_test_cases = {
		TEST_CASE_ST(NULL, decomp_teardown, test_decomp_error_after),
		TEST_CASE_ST(NULL, decomp_teardown, test_decomp_invalid_after),
		TEST_CASE_ST(NULL, decomp_teardown, test_decomp_malformed),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(decomp_stop, decomp_stop_suite);
