/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "decomp_format": the records of compressed sessions in every
 * mini-CQE format, of requester sessions, and the FTAG flow tag and
 * L34H VLAN bit.
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
 * Every format: 64 B, 128 B, one burst, bursts ending inside arrays and
 * bursts of whole arrays after the CQE before the session (17, 33).
 */
static int
test_decomp_formats(void)
{
	static const uint16_t bursts[] = { 64, 1, 3, 7, 8, 9, 17, 33 };
	static const uint32_t counts[] = { 2, 7, 8, 9, 15, 16, 17, 33, 64 };
	struct session_case sc;
	unsigned int f, b, c, s;

	for (f = 0; f < 5; f++)
		for (s = 64; s <= 128; s += 64)
			for (b = 0; b < RTE_DIM(bursts); b++)
				for (c = 0; c < RTE_DIM(counts); c++) {
					memset(&sc, 0, sizeof(sc));
					sc.fmt = f;
					sc.stride = s;
					sc.log_n = 7;
					sc.ci0 = 3;
					sc.count = counts[c];
					sc.burst = bursts[b];
					sc.title_op = 2; /* RESP_SEND */
					sc.after_op = 2;
					if (run_session(&sc) != TEST_SUCCESS) {
						printf("  format %s stride %u"
						       " burst %u count %u\n",
						       fmt_name[f], s,
						       bursts[b], counts[c]);
						return TEST_FAILED;
					}
				}
	return TEST_SUCCESS;
}

/*
 * Requester mini-CQEs (title opcode REQ): the WQE counter comes from each
 * mini-CQE, for every configured responder format.
 */
static int
test_decomp_requester(void)
{
	struct session_case sc;
	unsigned int f;

	for (f = 0; f < 5; f++) {
		memset(&sc, 0, sizeof(sc));
		sc.fmt = f;
		sc.stride = 64;
		sc.log_n = 6;
		sc.count = 12;
		sc.burst = 5;
		sc.title_op = 0;
		sc.after_op = 0;
		TEST_CHECK(run_session(&sc));
	}
	return TEST_SUCCESS;
}

/* FTAG flow tag (DPDK bd0940a5c4) and L34H VLAN bit (5654f38eba), named. */
static int
test_decomp_ftag_vlan(void)
{
	struct rte_mlx5cq_cpl c[3];
	struct img_cqe title;
	uint8_t m[3][8];

	TEST_ASSERT_SUCCESS(hand_cq_init(&dcq, 4, 64, F_FTAG + 1, 0), "init");
	title_img(&title, 2);
	memcpy(m, golden[F_FTAG], sizeof(m));
	hand_put_session(&dcq, 0, &title, (const uint8_t (*)[8])m, 3);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(dcq.cq, c, 3), 3, "ftag poll");
	TEST_ASSERT_EQUAL(c[0].flow_tag, 0xab1234u, "tag %#x", c[0].flow_tag);
	TEST_ASSERT_EQUAL(c[0].byte_cnt, 1500u, "len %u", c[0].byte_cnt);
	TEST_ASSERT_EQUAL(c[0].wqe_counter, 7, "stride %u", c[0].wqe_counter);
	TEST_ASSERT_EQUAL(c[1].flow_tag, 1u, "tag %#x", c[1].flow_tag);
	TEST_ASSERT_EQUAL(c[2].flow_tag, 0xffffffu, "tag %#x", c[2].flow_tag);
	TEST_ASSERT_EQUAL(c[2].byte_cnt, 0x010203u, "len %#x", c[2].byte_cnt);
	hand_cq_fini(&dcq);

	TEST_ASSERT_SUCCESS(hand_cq_init(&dcq, 4, 64, F_L34H + 1, 0), "init");
	title.hdr_type_etc = 0x0200; /* L3 OK only, no VLAN in the title */
	memcpy(m, golden[F_L34H], sizeof(m));
	hand_put_session(&dcq, 0, &title, (const uint8_t (*)[8])m, 3);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(dcq.cq, c, 3), 3, "l34h poll");
	TEST_ASSERT(c[0].hdr_type_etc & RTE_MLX5CQ_HDR_VLAN_STRIPPED,
		    "VLAN-stripped bit lost (hdr %#x)", c[0].hdr_type_etc);
	TEST_ASSERT_EQUAL(c[0].hdr_type_etc, (0x0200 | 0xb5),
			  "hdr %#x", c[0].hdr_type_etc);
	TEST_ASSERT_EQUAL(c[1].hdr_type_etc, (0x0200 | 0x48), "hdr %#x",
			  c[1].hdr_type_etc);
	TEST_ASSERT_EQUAL(c[2].hdr_type_etc, (0x0200 | 0x03), "hdr %#x",
			  c[2].hdr_type_etc);
	TEST_ASSERT(!(c[1].hdr_type_etc & RTE_MLX5CQ_HDR_VLAN_STRIPPED),
		    "VLAN-stripped bit from nowhere");
	TEST_ASSERT_EQUAL(c[0].vlan_tci, 0x0123, "vlan from the title");
	hand_cq_fini(&dcq);
	return TEST_SUCCESS;
}

static struct unit_test_suite decomp_format_suite = {
	.suite_name = "decomp_format",
	.unit_test_cases = {
		TEST_CASE_ST(NULL, decomp_teardown, test_decomp_formats),
		TEST_CASE_ST(NULL, decomp_teardown, test_decomp_requester),
		TEST_CASE_ST(NULL, decomp_teardown, test_decomp_ftag_vlan),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(decomp_format, decomp_format_suite);
