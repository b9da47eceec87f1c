/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "poll_stop": where a burst stops: an empty ring (nothing written),
 * a CQE of the other pass, a CQE with the INVALID opcode.
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

static int
test_poll_empty(const void *data)
{
	enum fx_kind kind = (enum fx_kind)(uintptr_t)data;
	struct rte_mlx5cq_cpl c[32];
	unsigned int allocs = test_poll_heap_allocs();
	int i;

	TEST_CHECK(fx_init(kind, 4, 0));
	for (i = 0; i < 3; i++)
		TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 32), 0,
				  "%s: empty ring returned completions",
				  fx_kind_name[kind]);
	TEST_ASSERT_EQUAL(fx.cq->ci, 0u, "ci moved");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(fx.dbrec, dbrec_ci_sentinel, 4,
				      "empty polls wrote the doorbell record");
	TEST_CHECK(check_counters(0, 0, 3, 3, 0));
	fx_fini();
	TEST_ASSERT_EQUAL(test_poll_heap_allocs(), allocs, "heap leak");
	return TEST_SUCCESS;
}

/*
 * A CQE with the owner bit of the other pass ends the burst, even with a
 * valid opcode and payload; once the producer writes the right owner bit
 * it is delivered.
 */
static int
test_poll_stop_owner(const void *data)
{
	enum fx_kind kind = (enum fx_kind)(uintptr_t)data;
	struct rte_mlx5cq_cpl c[32];
	struct img_cqe d[8];
	unsigned int i;

	TEST_CHECK(fx_init(kind, 4, 0));
	for (i = 0; i < 8; i++) {
		test_poll_gen_cqe(i, &d[i]);
		d[i].opcode = 2;
	}
	for (i = 0; i < 5; i++)
		fx_post(&d[i]);
	/* Entry 5 written with owner 1 on pass 0. */
	fx_write(5, &d[5], 1);
	fx_write(6, &d[6], 0); /* after the hole: must not be seen */
	scrub(c, 32);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 32), 5,
			  "wrong owner did not stop the burst");
	for (i = 0; i < 5; i++)
		TEST_CHECK(check_img(&c[i], &d[i], i));
	TEST_CHECK(check_dbrec(5));
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 32), 0,
			  "hardware-owned CQE delivered");
	TEST_CHECK(check_dbrec(5));
	fx_write(5, &d[5], 0);
	fx.pi = 7;
	scrub(c, 32);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 32), 2,
			  "CQE not delivered after the owner flip");
	TEST_CHECK(check_img(&c[0], &d[5], 5));
	TEST_CHECK(check_img(&c[1], &d[6], 6));
	TEST_CHECK(check_dbrec(7));
	TEST_CHECK(check_counters(7, 0, 3, 1, 0));
	fx_fini();
	return TEST_SUCCESS;
}

/*
 * A CQE whose owner bit matches the pass but whose opcode is INVALID ends
 * the burst: op_own 0xf0 (rdma-core's initial value) on pass 0, 0xf1
 * (DPDK's) on pass 1.
 */
static int
test_poll_stop_invalid(const void *data)
{
	enum fx_kind kind = (enum fx_kind)(uintptr_t)data;
	struct rte_mlx5cq_cpl c[32];
	struct img_cqe d, inv;
	uint32_t i, ci = 0;

	TEST_CHECK(fx_init(kind, 3, 0));
	memset(&inv, 0, sizeof(inv));
	inv.opcode = 15; /* MLX5_CQE_INVALID */
	for (i = 0; i < 3; i++) {
		test_poll_gen_cqe(i, &d);
		fx_post(&d);
	}
	fx_write(3, &inv, 0); /* op_own 0xf0 on pass 0 */
	TEST_ASSERT_EQUAL(fx_cqe(3)[IMG_OP_OWN], 0xf0, "image");
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 32), 3,
			  "INVALID opcode did not stop the burst (pass 0)");
	ci = 3;
	TEST_CHECK(check_dbrec(ci));
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 32), 0,
			  "INVALID CQE delivered");
	/* Rest of pass 0 and pass 1 up to index 12, then an INVALID CQE
	 * with owner 1 at 13.
	 */
	fx.pi = 3;
	while (fx.pi < 13) {
		test_poll_gen_cqe(fx.pi, &d);
		fx_post(&d);
		if (fx.pi - ci == fx.entries || fx.pi == 13) {
			uint16_t r = rte_mlx5cq_poll_burst(fx.cq, c, 32);

			TEST_ASSERT_EQUAL(r, fx.pi - ci, "count");
			for (i = 0; i < r; i++) {
				test_poll_gen_cqe(ci + i, &d);
				TEST_CHECK(check_img(&c[i], &d, ci + i));
			}
			ci += r;
		}
	}
	fx_write(13, &inv, 1);
	TEST_ASSERT_EQUAL(fx_cqe(13)[IMG_OP_OWN], 0xf1, "image");
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 32), 0,
			  "INVALID CQE delivered (pass 1)");
	TEST_CHECK(check_dbrec(13));
	fx_fini();
	return TEST_SUCCESS;
}

static struct unit_test_suite poll_stop_suite = {
	.suite_name = "poll_stop",
	.unit_test_cases = {
		KIND_CASE(test_poll_empty, FX_64),
		KIND_CASE(test_poll_empty, FX_128),
		KIND_CASE(test_poll_empty, FX_128_PAD),
		KIND_CASE(test_poll_stop_owner, FX_64),
		KIND_CASE(test_poll_stop_owner, FX_128),
		KIND_CASE(test_poll_stop_invalid, FX_64),
		KIND_CASE(test_poll_stop_invalid, FX_128_PAD),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(poll_stop, poll_stop_suite);
