/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "decomp_enh_title": enhanced layout: a title alone, an error CQE
 * before a compressed CQE, a title of the previous pass.
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

/* Poll in bursts of at most burst until k records are in got[]. */
static int
poll_all(struct rte_mlx5cq_cpl *got, uint32_t k, uint16_t burst)
{
	uint32_t n = 0;

	while (n < k) {
		uint16_t r = rte_mlx5cq_poll_burst(dcq.cq, got + n,
				(uint16_t)RTE_MIN((uint32_t)burst, k - n));

		TEST_ASSERT(r > 0, "%s, burst %u: stalled at %u of %u",
			    rte_mlx5cq_vec_name(dcq.cq->vec), burst, n, k);
		n += r;
	}
	return TEST_SUCCESS;
}

/*
 * Enhanced layout, HASH, ring of 16 from index 0, poll v, error opcode
 * op, bursts of at most burst:
 * - a title alone before a compressed CQE of 3 (entries 0, 1..3);
 * - an error CQE right before a compressed CQE of 2 (4, 5..6): an error
 *   record, and no title: its mini-CQEs take the first title's fields and
 *   WQE counters on from its mini-CQEs;
 * - entry 7 still a regular CQE of the previous pass (iteration count
 *   0xff) before a compressed CQE of this pass at 8: nothing is read from
 *   7 on, the consumer index stays at 7; once 7 is a title of this pass,
 *   the mini-CQEs at 8 take its fields.
 * TEST_SKIPPED when this CPU or EAL has no poll v.
 */
static int
run_enh_title_alone(unsigned int v, uint8_t op, uint16_t burst)
{
	struct rte_mlx5cq_cpl exp[8], got[8];
	uint8_t m1[3][8], m2[2][8], m3[2][8];
	struct img_cqe t1, err, stale, t2;
	uint32_t j, k = 0;
	uint16_t wqe;

	TEST_ASSERT_SUCCESS(hand_cq_init(&dcq, 4, 64,
					 (uint8_t)((F_HASH + 1) | 0x80), 0),
			    "init");
	if (rte_mlx5cq_vec_set(dcq.cq, (enum rte_mlx5cq_vec)v) != 0) {
		hand_cq_fini(&dcq);
		return TEST_SKIPPED;
	}
	title_img(&t1, 2);
	t1.wqe_counter = 0x0100;
	t1.byte_cnt = 1500;
	hand_put(&dcq, 0, &t1);
	expect_img_record(&t1, &exp[k++]);
	wqe = (uint16_t)(t1.wqe_counter + 1);
	for (j = 0; j < 3; j++) {
		gen_mini(F_HASH, j, m1[j]);
		exp_mini(F_HASH, &t1, m1[j], wqe++, &exp[k++]);
	}
	hand_put_enh_array(&dcq, 1, (const uint8_t (*)[8])m1, 3);
	next_img(&err, op, 0x0104);
	hand_put(&dcq, 4, &err);
	expect_img_record(&err, &exp[k++]);
	for (j = 0; j < 2; j++) {
		gen_mini(F_HASH, 3 + j, m2[j]);
		exp_mini(F_HASH, &t1, m2[j], wqe++, &exp[k++]);
	}
	hand_put_enh_array(&dcq, 5, (const uint8_t (*)[8])m2, 2);
	/* Entry 7 of the previous pass (index 7 - 16: count 0xff). */
	title_img(&stale, 2);
	stale.byte_cnt = 333;
	stale.wqe_counter = 0x0e07;
	hand_put(&dcq, 7u - 16u, &stale);
	for (j = 0; j < 2; j++)
		gen_mini(F_HASH, 5 + j, m3[j]);
	hand_put_enh_array(&dcq, 8, (const uint8_t (*)[8])m3, 2);
	TEST_CHECK(poll_all(got, k, burst));
	for (j = 0; j < k; j++)
		TEST_CHECK(check_rec(&got[j], &exp[j], j));
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(dcq.cq, got, burst), 0,
			  "%s, burst %u: entry of the previous pass read",
			  rte_mlx5cq_vec_name((enum rte_mlx5cq_vec)v), burst);
	TEST_ASSERT_EQUAL(dcq.cq->ci, 7, "ci %u", dcq.cq->ci);
	TEST_CHECK(check_dbrec(7));
	/* Entry 7 written: a title of this pass. */
	title_img(&t2, 2);
	t2.wqe_counter = 0x0200;
	t2.byte_cnt = 2500;
	t2.metadata = 0x00c0ffee;
	hand_put(&dcq, 7, &t2);
	k = 0;
	expect_img_record(&t2, &exp[k++]);
	for (j = 0; j < 2; j++)
		exp_mini(F_HASH, &t2, m3[j], (uint16_t)(0x0201 + j),
			 &exp[k++]);
	TEST_CHECK(poll_all(got, k, burst));
	for (j = 0; j < k; j++)
		TEST_CHECK(check_rec(&got[j], &exp[j], j));
	TEST_ASSERT_EQUAL(dcq.cq->ci, 10, "ci %u", dcq.cq->ci);
	TEST_CHECK(check_dbrec(10));
	TEST_ASSERT_EQUAL(test_cq_cnt(dcq.cq)->errors, 1, "errors");
	TEST_ASSERT_EQUAL(test_cq_cnt(dcq.cq)->sessions, 3, "sessions");
	TEST_ASSERT_EQUAL(test_cq_cnt(dcq.cq)->minis, 7, "minis");
	TEST_ASSERT_EQUAL(test_cq_cnt(dcq.cq)->completions, 10, "completions");
	hand_cq_fini(&dcq);
	return TEST_SUCCESS;
}

/*
 * run_enh_title_alone() for every poll this CPU has, REQ_ERR and
 * RESP_ERR, bursts of 1, 4 and 16.
 */
static int
test_decomp_enh_title_alone(void)
{
	unsigned int v, tested = 0;
	uint16_t burst;
	uint8_t op;
	int ret;

	for (v = 0; v < RTE_MLX5CQ_VEC_MAX; v++) {
		for (op = 13; op <= 14; op++) {
			for (burst = 1; burst <= 16; burst *= 4) {
				ret = run_enh_title_alone(v, op, burst);
				if (ret == TEST_SKIPPED)
					continue;
				TEST_CHECK(ret);
				tested++;
			}
		}
	}
	TEST_ASSERT(tested >= 12, "%u runs: fewer than two polls", tested);
	return TEST_SUCCESS;
}

static struct unit_test_suite decomp_enh_title_suite = {
	.suite_name = "decomp_enh_title",
	.unit_test_cases = {
		TEST_CASE_ST(NULL, decomp_teardown,
			     test_decomp_enh_title_alone),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(decomp_enh_title, decomp_enh_title_suite);
