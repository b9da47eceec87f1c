/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "decomp_enhanced": the enhanced layout: arrays of 1..7 mini-CQEs,
 * validity by iteration count, and the ring states a concurrent device
 * leaves.
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
#include "test_hooks_cq.h"

/*
 * Enhanced layout: title = last regular CQE, compressed CQEs are arrays of
 * 1..7 mini-CQEs, validity by iteration count, nothing invalidated.
 */
static int
test_decomp_enhanced(const void *data)
{
	unsigned int fmt = (unsigned int)(uintptr_t)data;
	struct rte_mlx5cq_cpl exp[256], got[256];
	uint8_t minis[7][8], snap[64];
	struct img_cqe title;
	uint32_t idx, n = 0, k = 0, j, arrays = 0, minis_n = 0, last = 0;
	uint16_t wqe = 0;
	unsigned int round;

	TEST_ASSERT_SUCCESS(hand_cq_init(&dcq, 5, fmt & 1 ? 128 : 64,
					 (uint8_t)((fmt + 1) | 0x80), 0),
			    "init");
	/* Nothing valid on pass 0 in a fresh ring (vic 0xff). */
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(dcq.cq, got, 8), 0, "fresh");
	idx = 0;
	for (round = 0; round < 6; round++) {
		/* Regular title, then two arrays (round + 1 and 7 minis). */
		title_img(&title, round == 3 ? 0 : 2);
		title.wqe_counter = (uint16_t)(0x7ff0 + round * 16);
		title.byte_cnt = 1000 + round;
		hand_put(&dcq, idx++, &title);
		expect_img_record(&title, &exp[k++]);
		wqe = (uint16_t)(title.wqe_counter + 1);
		for (j = 0; j < 2; j++) {
			uint32_t cnt = j == 0 ? round + 1 : 7, q;

			for (q = 0; q < cnt; q++) {
				gen_mini(fmt, q + 3 * j + round, minis[q]);
				exp_mini(fmt, &title, minis[q], wqe++,
					 &exp[k++]);
			}
			hand_put_enh_array(&dcq, idx,
					   (const uint8_t (*)[8])minis, cnt);
			last = idx;
			idx += cnt;
			arrays++;
			minis_n += cnt;
		}
		memcpy(snap, hand_cqe(&dcq, last), 64);
		while (n < k) {
			uint16_t r = rte_mlx5cq_poll_burst(dcq.cq, got + n,
				(uint16_t)RTE_MIN(3u + round, k - n));

			TEST_ASSERT(r > 0, "stalled at %u of %u", n, k);
			n += r;
		}
		TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(dcq.cq, got + n, 4), 0,
				  "extra completion");
		TEST_ASSERT_BUFFERS_ARE_EQUAL(hand_cqe(&dcq, last), snap, 64,
					      "enhanced CQE written back");
		TEST_CHECK(check_dbrec(idx));
	}
	for (j = 0; j < k; j++)
		TEST_CHECK(check_rec(&got[j], &exp[j], j));
	TEST_ASSERT_EQUAL(dcq.cq->ci, idx, "ci %u want %u", dcq.cq->ci, idx);
	TEST_ASSERT(idx > 32, "the test did not wrap twice");
	TEST_ASSERT_EQUAL(test_cq_cnt(dcq.cq)->sessions, arrays, "sessions");
	TEST_ASSERT_EQUAL(test_cq_cnt(dcq.cq)->minis, minis_n, "minis");
	TEST_ASSERT_EQUAL(test_cq_cnt(dcq.cq)->completions, k, "completions");
	hand_cq_fini(&dcq);
	return TEST_SUCCESS;
}

/*
 * Enhanced layout, the ring states a concurrent device leaves (ring of 16,
 * FTAG_STRIDX), starting on pass p (data: 1, and 255 where the iteration
 * count goes 0xff -> 0x00). The device writes bytes 0..61 first and bytes
 * 62..63 (iteration count, op_own) last; a reader checks the iteration
 * count, then reads the rest (kernel mlx5_cqwq_get_cqe_enhanced_comp).
 * - A fresh ring on pass 255 (iteration count 0xff = the pass, opcode
 *   INVALID) and a ring of pass p - 1 CQEs (valid but for the count) give
 *   nothing.
 * - A compressed CQE with its payload written but bytes 62..63 still those
 *   of pass p - 1 (half written) gives nothing and moves nothing.
 * - The device then fills the ring as far as it may with the consumer
 *   index at the first array: 16 slots outstanding, so the released slot
 *   of the title gets the first CQE of pass p + 1. The arrays still expand
 *   with the title as it was consumed, and the consumer index (doorbell
 *   record) stays at an array until its last mini-CQE is delivered.
 * - Past the end, the slot of pass p's first array (a stale compressed
 *   CQE) is not read again.
 */
static int
test_decomp_enh_visibility(const void *data)
{
	uint32_t pass = (uint32_t)(uintptr_t)data;
	uint32_t base = pass << 4, j, k = 0, n = 0;
	struct rte_mlx5cq_cpl exp[20], got[20];
	struct img_cqe stale, t1, t2, next;
	uint8_t m1[5][8], m2[7][8], m3[2][8];
	uint8_t *e;

	TEST_ASSERT_SUCCESS(hand_cq_init(&dcq, 4, 64,
					 (uint8_t)((F_FTAG + 1) | 0x80), base),
			    "init");
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(dcq.cq, got, 8), 0,
			  "fresh ring on pass %u", pass);
	/* Pass p - 1 left a regular CQE in every slot. */
	title_img(&stale, 2);
	stale.byte_cnt = 333;
	for (j = 0; j < 16; j++) {
		stale.wqe_counter = (uint16_t)(0x0e00 + j);
		hand_put(&dcq, base - 16 + j, &stale);
	}
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(dcq.cq, got, 8), 0,
			  "CQE of pass %u read on pass %u", pass - 1, pass);
	TEST_ASSERT_EQUAL(dcq.cq->ci, base, "ci moved");
	TEST_CHECK(check_dbrec(0));
	/* The title. */
	title_img(&t1, 2);
	t1.byte_cnt = 1000;
	hand_put(&dcq, base, &t1);
	expect_img_record(&t1, &exp[k++]);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(dcq.cq, got + n, 8), 1,
			  "title");
	n++;
	TEST_CHECK(check_dbrec(base + 1));
	/* Compressed CQE of 5 at base + 1: payload only. */
	for (j = 0; j < 5; j++) {
		gen_mini(F_FTAG, j, m1[j]);
		exp_mini(F_FTAG, &t1, m1[j], 0, &exp[k++]);
	}
	e = hand_cqe(&dcq, base + 1);
	memset(e, IMG_FILL, 62);
	for (j = 0; j < 5; j++)
		memcpy(e + 8 * j, m1[j], 8);
	TEST_ASSERT_EQUAL(e[IMG_VIC], (uint8_t)(pass - 1), "fixture");
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(dcq.cq, got + n, 8), 0,
			  "half-written compressed CQE read");
	TEST_ASSERT_EQUAL(dcq.cq->ci, base + 1, "ci moved");
	TEST_ASSERT_EQUAL(mlx5cq_test_cq_session(dcq.cq), 0, "session opened");
	TEST_CHECK(check_dbrec(base + 1));
	/* Bytes 62..63; then 7 at base + 6, title 2, 2 at base + 14. */
	hand_put_enh_array(&dcq, base + 1, (const uint8_t (*)[8])m1, 5);
	for (j = 0; j < 7; j++) {
		gen_mini(F_FTAG, 5 + j, m2[j]);
		exp_mini(F_FTAG, &t1, m2[j], 0, &exp[k++]);
	}
	hand_put_enh_array(&dcq, base + 6, (const uint8_t (*)[8])m2, 7);
	title_img(&t2, 2);
	t2.metadata = 0x00beef01;
	t2.timestamp = 0x1111222233334444ull;
	t2.hdr_type_etc = 0x0600;
	t2.wqe_counter = 0x0300;
	t2.byte_cnt = 2000;
	hand_put(&dcq, base + 13, &t2);
	expect_img_record(&t2, &exp[k++]);
	for (j = 0; j < 2; j++) {
		gen_mini(F_FTAG, 12 + j, m3[j]);
		exp_mini(F_FTAG, &t2, m3[j], 0, &exp[k++]);
	}
	hand_put_enh_array(&dcq, base + 14, (const uint8_t (*)[8])m3, 2);
	/* Slot of the title, released: first CQE of pass p + 1. */
	title_img(&next, 2);
	next.metadata = 0x00000bad;
	next.timestamp = 0xbadbadbadull;
	next.vlan_info = 0x0fff;
	next.rx_hash_res = 0x0badcafe;
	next.wqe_counter = 0x0400;
	next.byte_cnt = 3000;
	hand_put(&dcq, base + 16, &next);
	expect_img_record(&next, &exp[k++]);
	/* Bursts of 3: 3 of the first array, the consumer index stays. */
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(dcq.cq, got + n, 3), 3,
			  "first burst");
	n += 3;
	TEST_ASSERT_EQUAL(dcq.cq->ci, base + 1, "ci left the array early");
	TEST_CHECK(check_dbrec(base + 1));
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(dcq.cq, got + n, 3), 3,
			  "second burst");
	n += 3;
	TEST_ASSERT_EQUAL(dcq.cq->ci, base + 6, "ci %u at the second array",
			  dcq.cq->ci);
	TEST_CHECK(check_dbrec(base + 6));
	while (n < k) {
		uint16_t r = rte_mlx5cq_poll_burst(dcq.cq, got + n,
			(uint16_t)RTE_MIN(3u, k - n));

		TEST_ASSERT(r > 0, "stalled at %u of %u", n, k);
		n += r;
	}
	for (j = 0; j < k; j++)
		TEST_CHECK(check_rec(&got[j], &exp[j], j));
	TEST_ASSERT_EQUAL(dcq.cq->ci, base + 17, "ci %u", dcq.cq->ci);
	TEST_CHECK(check_dbrec(base + 17));
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(dcq.cq, got, 8), 0,
			  "stale compressed CQE of pass %u read again", pass);
	TEST_ASSERT_EQUAL(test_cq_cnt(dcq.cq)->sessions, 3, "sessions");
	TEST_ASSERT_EQUAL(test_cq_cnt(dcq.cq)->minis, 14, "minis");
	TEST_ASSERT_EQUAL(test_cq_cnt(dcq.cq)->completions, k, "completions");
	TEST_ASSERT_EQUAL(test_cq_cnt(dcq.cq)->comp_unhandled, 0, "comp_unhandled");
	hand_cq_fini(&dcq);
	return TEST_SUCCESS;
}

#define FMT_CASE(fn, f) \
	TEST_CASE_NAMED_WITH_DATA(#fn "_" #f, NULL, decomp_teardown, fn, \
				  (const void *)(uintptr_t)(f))

static struct unit_test_suite decomp_enhanced_suite = {
	.suite_name = "decomp_enhanced",
	.unit_test_cases = {
		FMT_CASE(test_decomp_enhanced, F_HASH),
		FMT_CASE(test_decomp_enhanced, F_CSUM),
		FMT_CASE(test_decomp_enhanced, F_FTAG),
		FMT_CASE(test_decomp_enhanced, F_CSUM_STRIDX),
		FMT_CASE(test_decomp_enhanced, F_L34H),
		TEST_CASE_NAMED_WITH_DATA("test_decomp_enh_visibility_pass1",
			NULL, decomp_teardown, test_decomp_enh_visibility,
			(const void *)(uintptr_t)1),
		TEST_CASE_NAMED_WITH_DATA("test_decomp_enh_visibility_pass255",
			NULL, decomp_teardown, test_decomp_enh_visibility,
			(const void *)(uintptr_t)255),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(decomp_enhanced, decomp_enhanced_suite);
