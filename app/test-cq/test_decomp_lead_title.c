/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "decomp_lead_title": sessions that start a burst, by every poll
 * implementation, and sessions across the end of the ring.
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
 * One case of test_decomp_lead_title(): poll implementation v, format f,
 * place w (0: 64 B entries, 1: 128 B, 2: 64 B, title at entry 100 of 128
 * in pass 1, so longer sessions cross the ring's end).
 */
static int
lead_title_case(unsigned int v, unsigned int f, unsigned int w,
		uint16_t burst, uint32_t count, uint8_t title_op)
{
	struct session_case sc;

	memset(&sc, 0, sizeof(sc));
	sc.fmt = f;
	sc.stride = w == 1 ? 128 : 64;
	sc.log_n = 7;
	sc.ci0 = w == 2 ? 128 + 100 : 3;
	sc.count = count;
	sc.burst = burst;
	sc.title_op = title_op;
	sc.after_op = 2;
	sc.no_lead = 1;
	sc.vec = (uint8_t)(v + 1);
	if (run_session(&sc) != TEST_SUCCESS) {
		printf("  %s: format %s stride %u title %u burst %u count %u"
		       " opcode %u\n",
		       rte_mlx5cq_vec_name((enum rte_mlx5cq_vec)v),
		       fmt_name[f], sc.stride, sc.ci0, burst, count,
		       title_op);
		return TEST_FAILED;
	}
	return TEST_SUCCESS;
}

/*
 * Sessions that start a burst, polled in bursts of whole arrays (8, 16,
 * 32, 64 mini-CQEs) or not (7, 9), by every poll implementation this CPU
 * and the EAL allow: the AVX2 poll opens a session longer than the burst
 * in place and makes the next bursts of it in a small frame (64 B
 * entries, no wrap), everything else in its general loop; the records,
 * the consumer index and doorbell record, the invalidation and the
 * counters must be those of the file comment's layout whatever the path.
 * 128 B entries and sessions across the ring's end too.
 */
static int
test_decomp_lead_title(void)
{
	static const uint16_t bursts[] = { 8, 16, 32, 64, 7, 9 };
	static const uint32_t counts[] = { 2, 8, 9, 16, 17, 24, 33, 63, 64 };
	unsigned int i, v, f, b, c, w;

	/*
	 * Every implementation of this architecture up to the best one
	 * (x86: SSE4.2 is there when AVX2 is). Requester titles (opcode 0:
	 * requester mini-CQEs) in every other HASH case.
	 */
	for (i = 0; i < RTE_DIM(test_vec_arch); i++) {
		v = test_vec_arch[i];
		if (v > (unsigned int)rte_mlx5cq_vec_best())
			break;
		for (f = 0; f < 5; f++)
			for (w = 0; w < 3; w++)
				for (b = 0; b < RTE_DIM(bursts); b++)
					for (c = 0; c < RTE_DIM(counts); c++)
						TEST_CHECK(lead_title_case(v,
							f, w, bursts[b],
							counts[c],
							f == F_HASH && c % 2 ?
							0 : 2));
	}
	return TEST_SUCCESS;
}

/* A session across the end of the ring (and the pass change). */
static int
test_decomp_wrap(void)
{
	struct session_case sc;
	unsigned int f, start;

	for (f = 0; f < 5; f++)
		for (start = 0; start < 16; start++) {
			memset(&sc, 0, sizeof(sc));
			sc.fmt = f;
			sc.stride = f & 1 ? 128 : 64;
			sc.log_n = 5; /* 32 entries */
			sc.ci0 = 32 + 16 + start; /* pass 1 */
			sc.count = 20;
			sc.burst = (uint16_t)(1 + start % 5);
			sc.title_op = 2;
			sc.after_op = 2;
			if (run_session(&sc) != TEST_SUCCESS) {
				printf("  format %s start %u\n", fmt_name[f],
				       start);
				return TEST_FAILED;
			}
		}
	return TEST_SUCCESS;
}

static struct unit_test_suite decomp_lead_title_suite = {
	.suite_name = "decomp_lead_title",
	.unit_test_cases = {
		TEST_CASE_ST(NULL, decomp_teardown, test_decomp_lead_title),
		TEST_CASE_ST(NULL, decomp_teardown, test_decomp_wrap),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(decomp_lead_title, decomp_lead_title_suite);
