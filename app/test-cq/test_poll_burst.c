/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "poll_burst": bursts of several sizes return min(burst,
 * available), every record and doorbell record checked; the counters
 * of a mixed sequence are exact.
 * The fixture (hand-built CQ, CQE images, record, doorbell
 * record and counter checks) is test_poll_fixture.c.
 */

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>
#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include <mlx5_emu.h>
#include <mlx5cq_test_hooks.h>
#include <rte_mlx5cq.h>

#include "test.h"
#include "test_cq_cnt.h"
#include "test_cpl_expect.h"
#include "test_cqe_image.h"
#include "test_poll_fixture.h"

/*
 * Bursts of 1, 3, 8, 32 on a 64-entry ring: the producer posts a varying
 * number of CQEs (never more than the ring holds), one poll per round
 * returns min(burst, available), every record and the doorbell record are
 * checked after every burst, 2000 completions (31 passes).
 */
static int
test_poll_bursts(const void *data)
{
	enum fx_kind kind = (enum fx_kind)(uintptr_t)data;
	static const uint16_t bursts[] = { 1, 3, 8, 32 };
	const uint32_t total = 2000;
	struct rte_mlx5cq_cpl c[32];
	struct img_cqe d;
	unsigned int b, i;

	for (b = 0; b < RTE_DIM(bursts); b++) {
		uint64_t polls = 0, empty = 0, errors = 0;
		uint32_t ci = 0, round = 0;

		TEST_CHECK(fx_init(kind, 6, 0));
		while (ci < total) {
			uint32_t room = fx.entries - (fx.pi - ci);
			uint32_t k = (uint32_t)(mix64(round++) % 41);
			uint32_t avail;
			uint16_t r, want;

			k = RTE_MIN(k, room);
			k = RTE_MIN(k, total - fx.pi);
			for (i = 0; i < k; i++) {
				test_poll_gen_cqe(fx.pi, &d);
				fx_post(&d);
			}
			avail = fx.pi - ci;
			want = (uint16_t)RTE_MIN((uint32_t)bursts[b], avail);
			scrub(c, 32);
			r = rte_mlx5cq_poll_burst(fx.cq, c, bursts[b]);
			polls++;
			TEST_ASSERT_EQUAL(r, want, "%s burst %u: %u want %u "
					  "at ci %u", fx_kind_name[kind],
					  bursts[b], r, want, ci);
			if (r == 0)
				empty++;
			for (i = 0; i < r; i++) {
				test_poll_gen_cqe(ci + i, &d);
				errors += img_is_error(d.opcode);
				TEST_CHECK(check_img(&c[i], &d, ci + i));
			}
			for (i = r; i < 32; i++)
				TEST_ASSERT_EQUAL(c[i].byte_cnt, 0xccccccccu,
						  "record %u past the burst "
						  "written", i);
			ci += r;
			TEST_ASSERT_EQUAL(fx.cq->ci, ci, "cq->ci");
			if (r)
				TEST_CHECK(check_dbrec(ci));
		}
		TEST_CHECK(check_counters(total, errors, polls, empty, 0));
		fx_fini();
	}
	return TEST_SUCCESS;
}

/* n == 0 consumes nothing; counters of a mixed sequence are exact. */
static int
test_poll_counters(void)
{
	struct rte_mlx5cq_cpl c[8];
	struct img_cqe d;
	unsigned int i;

	TEST_CHECK(fx_init(FX_64, 4, 0));
	test_poll_gen_cqe(0, &d);
	d.opcode = 0;
	fx_post(&d);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 0), 0, "n = 0");
	TEST_ASSERT_EQUAL(fx.cq->ci, 0u, "n = 0 consumed a CQE");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(fx.dbrec, dbrec_ci_sentinel, 4,
				      "n = 0 wrote the doorbell record");
	TEST_CHECK(check_counters(0, 0, 1, 1, 0));
	for (i = 1; i < 6; i++) {
		memset(&d, 0, sizeof(d));
		d.opcode = (i & 1) ? 13 : 2;
		d.syndrome = 0x05;
		d.wqe_counter = (uint16_t)i;
		fx_post(&d);
	}
	/* 6 available: 3 errors (i = 1, 3, 5). */
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 4), 4, "first");
	TEST_CHECK(check_counters(4, 2, 2, 1, 0));
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 4), 2, "second");
	TEST_CHECK(check_counters(6, 3, 3, 1, 0));
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 4), 0, "third");
	TEST_CHECK(check_counters(6, 3, 4, 2, 0));
	TEST_ASSERT_EQUAL(c[1].status, IBV_WC_WR_FLUSH_ERR, "flush status");
	TEST_ASSERT_EQUAL(test_cq_cnt(fx.cq)->err_syndrome[0x05], 3,
			  "syndrome 0x05");
	/* A reset zeroes every counter, the per-syndrome ones included. */
	TEST_ASSERT_SUCCESS(rte_mlx5cq_counters_reset(fx.cq), "reset");
	TEST_CHECK(check_counters(0, 0, 0, 0, 0));
	for (i = 0; i < 256; i++)
		TEST_ASSERT_EQUAL(test_cq_cnt(fx.cq)->err_syndrome[i], 0,
				  "syndrome 0x%02x after reset", i);
	fx_fini();
	return TEST_SUCCESS;
}

static struct unit_test_suite poll_burst_suite = {
	.suite_name = "poll_burst",
	.unit_test_cases = {
		KIND_CASE(test_poll_bursts, FX_64),
		KIND_CASE(test_poll_bursts, FX_128),
		KIND_CASE(test_poll_bursts, FX_128_PAD),
		TEST_CASE_ST(NULL, fx_teardown, test_poll_counters),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(poll_burst, poll_burst_suite);
