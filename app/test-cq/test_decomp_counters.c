/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "decomp_counters": counters get/reset and dump on a hand-built CQ with
 * a session.
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

/* Counters get/reset and dump on a hand-built CQ with a session. */
static int
test_decomp_counters_dump(void)
{
	struct rte_mlx5cq_counters cnt;
	struct rte_mlx5cq_cpl c[16];
	uint8_t m[9][8];
	struct img_cqe t;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	unsigned int j;

	TEST_ASSERT_SUCCESS(hand_cq_init(&dcq, 4, 64, F_HASH + 1, 0), "init");
	title_img(&t, 2);
	for (j = 0; j < 9; j++)
		gen_mini(F_HASH, j, m[j]);
	hand_put_session(&dcq, 0, &t, (const uint8_t (*)[8])m, 9);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(dcq.cq, c, 4), 4, "poll");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_counters_get(dcq.cq, &cnt), "get");
	TEST_ASSERT_EQUAL(cnt.completions, 4, "completions");
	TEST_ASSERT_EQUAL(cnt.sessions, 1, "sessions");
	TEST_ASSERT_EQUAL(cnt.minis, 4, "minis");
	TEST_ASSERT_EQUAL(cnt.polls, 1, "polls");
	f = open_memstream(&buf, &len);
	TEST_ASSERT_NOT_NULL(f, "memstream");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_dump(f, dcq.cq), "dump");
	fclose(f);
	TEST_ASSERT(strstr(buf, "CQ 0x99") != NULL, "no cqn in dump");
	TEST_ASSERT(strstr(buf, "session: 9 completions, next 4") != NULL,
		    "no session in dump:\n%s", buf);
	TEST_ASSERT(strstr(buf, ">[    0]") != NULL, "no ci marker");
	free(buf);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_counters_reset(dcq.cq), "reset");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_counters_get(dcq.cq, &cnt), "get");
	TEST_ASSERT_EQUAL(cnt.completions + cnt.polls + cnt.minis, 0, "reset");
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(dcq.cq, c, 16), 5, "rest");
	TEST_ASSERT_EQUAL(test_cq_cnt(dcq.cq)->minis, 5, "minis");
	TEST_ASSERT_EQUAL(rte_mlx5cq_counters_get(NULL, &cnt), -EINVAL, "NULL");
	hand_cq_fini(&dcq);
	return TEST_SUCCESS;
}

static struct unit_test_suite decomp_counters_suite = {
	.suite_name = "decomp_counters",
	.unit_test_cases = {
		TEST_CASE_ST(NULL, decomp_teardown, test_decomp_counters_dump),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(decomp_counters, decomp_counters_suite);
