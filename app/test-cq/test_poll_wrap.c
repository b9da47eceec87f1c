/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "poll_wrap": many passes around small rings (owner parity, stale
 * CQEs, the 16-bit WQE counter) and the free-running consumer index.
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
 * Many passes around small rings: the owner parity flips each pass, the
 * producer fills the whole ring (2^n outstanding CQEs) or part of it,
 * 70000 completions (the 16-bit WQE counter wraps) checked in order, and
 * after each drain the stale CQEs of the previous pass are not delivered.
 */
static int
test_poll_wrap(const void *data)
{
	enum fx_kind kind = (enum fx_kind)(uintptr_t)data;
	static const uint16_t bursts[] = { 1, 3, 8, 32 };
	const uint32_t total = 70000;
	struct rte_mlx5cq_cpl c[32];
	struct img_cqe d;
	uint32_t ci = 0, round = 0, i;
	uint16_t prev_wqe = 0xffff;

	TEST_CHECK(fx_init(kind, 4, 0));
	while (ci < total) {
		/* Fill: the whole ring every other round, else a part. */
		uint32_t k = (round & 1) ? fx.entries :
			     (uint32_t)(mix64(round) % fx.entries) + 1;

		round++;
		for (i = 0; i < k; i++) {
			test_poll_gen_cqe(fx.pi, &d);
			fx_post(&d);
		}
		while (ci < fx.pi) {
			uint16_t b = bursts[(ci / 3) % RTE_DIM(bursts)];
			uint16_t r = rte_mlx5cq_poll_burst(fx.cq, c, b);

			TEST_ASSERT_EQUAL(r, RTE_MIN((uint32_t)b, fx.pi - ci),
					  "%s: count at ci %u",
					  fx_kind_name[kind], ci);
			for (i = 0; i < r; i++) {
				test_poll_gen_cqe(ci + i, &d);
				TEST_CHECK(check_img(&c[i], &d, ci + i));
				TEST_ASSERT_EQUAL(c[i].wqe_counter,
						  (uint16_t)(prev_wqe + 1),
						  "out of order at %u",
						  ci + i);
				prev_wqe = c[i].wqe_counter;
			}
			ci += r;
			TEST_CHECK(check_dbrec(ci));
		}
		/* Drained: every entry holds a CQE of this or the previous
		 * pass with a valid opcode; none may be delivered.
		 */
		TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 32), 0,
				  "stale CQE delivered at ci %u", ci);
	}
	TEST_ASSERT(ci / fx.entries >= 1000, "only %u passes",
		    ci / fx.entries);
	TEST_ASSERT_EQUAL(test_cq_cnt(fx.cq)->completions, (uint64_t)ci,
			  "completions");
	fx_fini();
	return TEST_SUCCESS;
}

/*
 * The consumer index is free running: its doorbell value is ci & 0xffffff
 * (crossing 2^24) and parity keeps working when it wraps at 2^32.
 */
static int
test_poll_ci_wrap(void)
{
	static const uint32_t starts[] = { 0x00fffff0u, 0xffffffe0u };
	struct rte_mlx5cq_cpl c[8];
	struct img_cqe d;
	unsigned int s, i;

	for (s = 0; s < RTE_DIM(starts); s++) {
		uint32_t ci = starts[s], end = starts[s] + 64;

		TEST_CHECK(fx_init(FX_64, 4, starts[s]));
		while (ci != end) {
			uint16_t r;

			for (i = 0; i < 5; i++) {
				test_poll_gen_cqe(fx.pi, &d);
				fx_post(&d);
			}
			r = rte_mlx5cq_poll_burst(fx.cq, c, 8);
			TEST_ASSERT_EQUAL(r, 5, "count at ci 0x%x", ci);
			for (i = 0; i < r; i++) {
				test_poll_gen_cqe(ci + i, &d);
				TEST_CHECK(check_img(&c[i], &d, ci + i));
			}
			ci += r;
			TEST_CHECK(check_dbrec(ci));
			if (ci - starts[s] >= 60)
				break;
		}
		TEST_ASSERT(s == 0 ? (ci & 0xffffff) < 0x40 : ci < 0x40,
			    "did not cross the boundary: ci 0x%x", ci);
		fx_fini();
	}
	return TEST_SUCCESS;
}

static struct unit_test_suite poll_wrap_suite = {
	.suite_name = "poll_wrap",
	.unit_test_cases = {
		KIND_CASE(test_poll_wrap, FX_64),
		KIND_CASE(test_poll_wrap, FX_128),
		KIND_CASE(test_poll_wrap, FX_128_PAD),
		TEST_CASE_ST(NULL, fx_teardown, test_poll_ci_wrap),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(poll_wrap, poll_wrap_suite);
