/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "decomp_raw": the raw view of a session: a mini-CQE's completion
 * as a synthesized 64 B CQE; advance consumes one.
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
 * Raw view: a mini-CQE's completion as a synthesized 64 B CQE (bytes
 * checked against the title image with the mini's fields in place), a
 * regular CQE where it lies in the ring; advance consumes one.
 */
static int
test_decomp_raw(void)
{
	uint8_t m[3][8], want[64];
	struct img_cqe t, d;
	const volatile uint8_t *r;
	struct rte_mlx5cq_cpl c;
	unsigned int j, k;

	TEST_ASSERT_SUCCESS(hand_cq_init(&dcq, 4, 128, F_FTAG + 1, 0), "init");
	title_img(&t, 2);
	t.se = 1;
	memcpy(m, golden[F_FTAG], sizeof(m));
	hand_put_session(&dcq, 0, &t, (const uint8_t (*)[8])m, 3);
	memset(&d, 0, sizeof(d));
	d.opcode = 2;
	d.byte_cnt = 5;
	hand_put(&dcq, 3, &d);
	TEST_ASSERT_EQUAL(rte_mlx5cq_raw_advance(NULL), -EINVAL, "NULL");
	for (j = 0; j < 3; j++) {
		r = rte_mlx5cq_raw_peek(dcq.cq);
		TEST_ASSERT_NOT_NULL(r, "peek %u", j);
		/* Twice: peeking consumes nothing. */
		TEST_ASSERT(rte_mlx5cq_raw_peek(dcq.cq) == r, "peek moved");
		t.format = 0;
		t.byte_cnt = 0;
		img_cqe_payload(want, &t);
		want[IMG_BYTE_CNT] = 0; /* FTAG: 24-bit byte count */
		for (k = 5; k < 8; k++)
			want[IMG_BYTE_CNT + k - 4] = m[j][k];
		want[IMG_SOP_DROP_QPN + 1] = m[j][4];
		want[IMG_SOP_DROP_QPN + 2] = m[j][0];
		want[IMG_SOP_DROP_QPN + 3] = m[j][1];
		want[IMG_WQE_COUNTER] = m[j][2];
		want[IMG_WQE_COUNTER + 1] = m[j][3];
		want[IMG_OP_OWN] = 2 << 4 | 1 << 1 | 0; /* se, owner 0 */
		for (k = 0; k < 64; k++)
			if (k != IMG_SIGNATURE && r[k] != want[k]) {
				printf("  mini %u byte %u: %#x want %#x\n", j,
				       k, r[k], want[k]);
				return TEST_FAILED;
			}
		TEST_ASSERT_SUCCESS(rte_mlx5cq_raw_advance(dcq.cq), "advance");
	}
	r = rte_mlx5cq_raw_peek(dcq.cq);
	TEST_ASSERT(r == hand_cqe(&dcq, 3), "regular CQE not in place");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_raw_advance(dcq.cq), "advance");
	TEST_ASSERT_NULL(rte_mlx5cq_raw_peek(dcq.cq), "empty CQ peeked");
	TEST_ASSERT_EQUAL(rte_mlx5cq_raw_advance(dcq.cq), -ENOENT, "empty");
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(dcq.cq, &c, 1), 0, "empty");
	TEST_CHECK(check_dbrec(4));
	hand_cq_fini(&dcq);
	return TEST_SUCCESS;
}

static struct unit_test_suite decomp_raw_suite = {
	.suite_name = "decomp_raw",
	.unit_test_cases = {
		TEST_CASE_ST(NULL, decomp_teardown, test_decomp_raw),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(decomp_raw, decomp_raw_suite);
