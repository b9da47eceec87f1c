/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "poll_error": error CQEs: status from the rdma-core mapping,
 * syndromes kept, polling goes on past each error.
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
 * Requester and responder error CQEs with every syndrome of the list,
 * between successes: status from the rdma-core mapping (unknown ones give
 * IBV_WC_GENERAL_ERR), syndrome and vendor syndrome kept, RX fields zero,
 * polling goes on past each error.
 */
static int
test_poll_errors(const void *data)
{
	enum fx_kind kind = (enum fx_kind)(uintptr_t)data;
	const unsigned int ns = RTE_DIM(test_syndromes);
	struct rte_mlx5cq_cpl c[4 * RTE_DIM(test_syndromes)];
	struct img_cqe d[4 * RTE_DIM(test_syndromes)];
	unsigned int i, n = 0, got = 0, errors = 0, polls = 0;

	TEST_CHECK(fx_init(kind, 7, 0));
	for (i = 0; i < ns; i++) {
		/* success, REQ_ERR, RESP_ERR, success */
		memset(&d[n], 0, sizeof(d[n]) * 4);
		d[n].opcode = 0;
		d[n].wqe_counter = (uint16_t)n;
		d[n].sop_drop_qpn = 0x0a000100;
		n++;
		d[n].opcode = 13; /* REQ_ERR */
		d[n].syndrome = test_syndromes[i];
		d[n].vendor_syndrome = (uint8_t)(0x80 + i);
		d[n].sop_drop_qpn = 0x0a000100u | i; /* SEND on QP 0x1xx */
		d[n].wqe_counter = (uint16_t)n;
		n++;
		d[n].opcode = 14; /* RESP_ERR */
		d[n].syndrome = test_syndromes[i];
		d[n].vendor_syndrome = (uint8_t)(0x40 + i);
		d[n].sop_drop_qpn = 0x00000200u | i;
		d[n].wqe_counter = (uint16_t)n;
		n++;
		d[n].opcode = 2;
		d[n].byte_cnt = 60 + i;
		d[n].wqe_counter = (uint16_t)n;
		n++;
		errors += 2;
	}
	for (i = 0; i < n; i++)
		fx_post(&d[i]);
	scrub(c, n);
	while (got < n) {
		uint16_t r = rte_mlx5cq_poll_burst(fx.cq, c + got, 7);

		polls++;
		TEST_ASSERT_EQUAL(r, RTE_MIN(7u, n - got),
				  "burst stopped at an error CQE");
		got += r;
		TEST_CHECK(check_dbrec(got));
	}
	for (i = 0; i < n; i++)
		TEST_CHECK(check_img(&c[i], &d[i], i));
	/* The mapping spelled out for a few syndromes. */
	for (i = 0; i < n; i++) {
		if (!img_is_error(d[i].opcode))
			continue;
		TEST_ASSERT_NOT_EQUAL(c[i].status, IBV_WC_SUCCESS,
				      "error CQE with success status");
		TEST_ASSERT_EQUAL(c[i].byte_cnt, 0u, "byte_cnt on error");
		TEST_ASSERT_EQUAL(c[i].timestamp, 0ull, "timestamp on error");
		if (d[i].syndrome == 0x22)
			TEST_ASSERT_EQUAL(c[i].status, IBV_WC_REM_ABORT_ERR,
					  "REM_ABORT");
		if (d[i].syndrome == 0x05)
			TEST_ASSERT_EQUAL(c[i].status, IBV_WC_WR_FLUSH_ERR,
					  "WR_FLUSH");
		if (d[i].syndrome == 0xff || d[i].syndrome == 0x03)
			TEST_ASSERT_EQUAL(c[i].status, IBV_WC_GENERAL_ERR,
					  "unknown syndrome -> GENERAL_ERR");
	}
	TEST_ASSERT_EQUAL(IBV_WC_GENERAL_ERR, 21, "verbs.h GENERAL_ERR");
	TEST_CHECK(check_counters(n, errors, polls, 0, 0));
	fx_fini();
	return TEST_SUCCESS;
}

/* rte_mlx5cq_syndrome_status() for all 256 syndromes. */
static int
test_poll_syndrome_status(void)
{
	unsigned int s;

	for (s = 0; s < 256; s++)
		TEST_ASSERT_EQUAL(rte_mlx5cq_syndrome_status(s),
				  expect_wc_status(s),
				  "syndrome 0x%02x: %u want %u", s,
				  rte_mlx5cq_syndrome_status(s),
				  expect_wc_status(s));
	return TEST_SUCCESS;
}

static struct unit_test_suite poll_error_suite = {
	.suite_name = "poll_error",
	.unit_test_cases = {
		KIND_CASE(test_poll_errors, FX_64),
		KIND_CASE(test_poll_errors, FX_128),
		KIND_CASE(test_poll_errors, FX_128_PAD),
		TEST_CASE(test_poll_syndrome_status),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(poll_error, poll_error_suite);
