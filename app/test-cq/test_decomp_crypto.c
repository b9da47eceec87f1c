/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "decomp_crypto": a crypto-style consumer of requester completions
 * tracked by WQE counter, sessions and an error CQE mixed in.
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
 * Crypto-style consumer: requester completions tracked by WQE counter
 * (regular CQEs and requester sessions mixed), an error CQE in the middle
 * reported with its syndrome, and every completion after it in order.
 */
static int
test_decomp_crypto_consumer(void)
{
	struct rte_mlx5cq_cpl c[4];
	struct img_cqe d, t;
	uint8_t m[16][8];
	uint32_t idx = 0, j, seen = 0, errs = 0;
	uint16_t next = 0;
	unsigned int guard = 0;

	TEST_ASSERT_SUCCESS(hand_cq_init(&dcq, 6, 64, F_CSUM_STRIDX + 1, 0),
			    "init");
	/* wqe 0: regular; 1..10 session; 11 error; 12..17 session; 18. */
	memset(&d, 0, sizeof(d));
	d.opcode = 0;
	d.sop_drop_qpn = 0x0a000042;
	d.wqe_counter = next++;
	hand_put(&dcq, idx++, &d);
	title_img(&t, 0);
	t.sop_drop_qpn = 0x0a000042;
	for (j = 0; j < 10; j++) {
		memset(m[j], 0, 8);
		m[j][0] = next >> 8;
		m[j][1] = (uint8_t)next++;
		m[j][2] = 0x0a; /* send WQE opcode */
		m[j][7] = 0x40;
	}
	hand_put_session(&dcq, idx, &t, (const uint8_t (*)[8])m, 10);
	idx += 10;
	memset(&d, 0, sizeof(d));
	d.opcode = 13;
	d.syndrome = 0x04;
	d.vendor_syndrome = 0x51;
	d.sop_drop_qpn = 0x0a000042;
	d.wqe_counter = next++;
	hand_put(&dcq, idx++, &d);
	for (j = 0; j < 6; j++) {
		memset(m[j], 0, 8);
		m[j][0] = next >> 8;
		m[j][1] = (uint8_t)next++;
		m[j][7] = 0x40;
	}
	hand_put_session(&dcq, idx, &t, (const uint8_t (*)[8])m, 6);
	idx += 6;
	memset(&d, 0, sizeof(d));
	d.opcode = 0;
	d.wqe_counter = next++;
	hand_put(&dcq, idx++, &d);
	while (seen < next && guard++ < 100) {
		uint16_t r = rte_mlx5cq_poll_burst(dcq.cq, c, 4), i;

		for (i = 0; i < r; i++, seen++) {
			TEST_ASSERT_EQUAL(c[i].wqe_counter, seen,
					  "completion %u has wqe %u", seen,
					  c[i].wqe_counter);
			if (seen == 11) {
				TEST_ASSERT_EQUAL(c[i].status,
						  IBV_WC_LOC_PROT_ERR,
						  "status %u", c[i].status);
				TEST_ASSERT_EQUAL(c[i].syndrome, 0x04, "synd");
				TEST_ASSERT_EQUAL(c[i].vendor_syndrome, 0x51,
						  "vendor");
				errs++;
			} else {
				TEST_ASSERT_EQUAL(c[i].status, 0, "status");
				TEST_ASSERT_EQUAL(c[i].opcode, 0, "opcode");
			}
		}
	}
	TEST_ASSERT_EQUAL(seen, next, "%u of %u completions", seen, next);
	TEST_ASSERT_EQUAL(errs, 1, "errors");
	TEST_ASSERT_EQUAL(test_cq_cnt(dcq.cq)->err_syndrome[0x04], 1, "syndrome count");
	TEST_ASSERT_EQUAL(dcq.cq->ci, idx, "ci");
	TEST_CHECK(check_dbrec(idx));
	hand_cq_fini(&dcq);
	return TEST_SUCCESS;
}

static struct unit_test_suite decomp_crypto_suite = {
	.suite_name = "decomp_crypto",
	.unit_test_cases = {
		TEST_CASE_ST(NULL, decomp_teardown,
			     test_decomp_crypto_consumer),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(decomp_crypto, decomp_crypto_suite);
