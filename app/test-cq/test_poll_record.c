/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "poll_record": the records the inline burst poll writes for
 * requester and responder CQEs written by hand, every field checked.
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

/* Requester CQEs: opcode 0, WQE counter, QPN; payload kept. */
static int
test_poll_requester(void)
{
	struct rte_mlx5cq_cpl c[8];
	struct img_cqe d[5];
	unsigned int i;

	TEST_CHECK(fx_init(FX_64, 4, 0));
	for (i = 0; i < RTE_DIM(d); i++) {
		memset(&d[i], 0, sizeof(d[i]));
		d[i].opcode = 0; /* MLX5_CQE_REQ */
		d[i].wqe_counter = (uint16_t)(0xfffe + i); /* wraps */
		d[i].sop_drop_qpn = 0x0a000000u | (0x1234 + i); /* SEND */
		d[i].byte_cnt = 100 * i;
		d[i].timestamp = 0x0102030405060708ull + i;
		fx_post(&d[i]);
	}
	scrub(c, 8);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 8), 5,
			  "wrong count");
	for (i = 0; i < RTE_DIM(d); i++) {
		TEST_CHECK(check_img(&c[i], &d[i], i));
		TEST_ASSERT_EQUAL(c[i].opcode, RTE_MLX5CQ_OP_REQ, "opcode");
		TEST_ASSERT_EQUAL(c[i].flow_tag, 0x1234u + i, "qpn");
		TEST_ASSERT_EQUAL(c[i].wqe_counter, (uint16_t)(0xfffe + i),
				  "wqe_counter");
		TEST_ASSERT_EQUAL(c[i].s_wqe_opcode, 0,
				  "s_wqe_opcode set on success");
	}
	TEST_CHECK(check_dbrec(5));
	TEST_CHECK(check_counters(5, 0, 1, 0, 0));
	fx_fini();
	return TEST_SUCCESS;
}

/* Responder CQEs with every RX field, values spelled out. */
static int
test_poll_responder(const void *data)
{
	enum fx_kind kind = (enum fx_kind)(uintptr_t)data;
	struct rte_mlx5cq_cpl c[4];
	struct img_cqe d[3];
	unsigned int i;

	TEST_CHECK(fx_init(kind, 3, 0));
	memset(d, 0, sizeof(d));
	/* TCP/IPv4, L3/L4 ok, VLAN stripped. */
	d[0].opcode = 2; /* RESP_SEND */
	d[0].rx_hash_res = 0xdeadbeef;
	d[0].rx_hash_type = 0x5a;
	d[0].csum = 0xabcd;
	d[0].hdr_type_etc = 1u << 0 | 1u << 3 | 1u << 4 | 1u << 9 | 1u << 10;
	d[0].vlan_info = 0xe064; /* PCP 7, VID 100 */
	d[0].metadata = 0xc0ffee01;
	d[0].byte_cnt = 1514;
	d[0].timestamp = 0x8877665544332211ull;
	d[0].sop_drop_qpn = 0x00abcdef; /* flow mark */
	d[0].wqe_counter = 0x1234;
	/* UDP/IPv6, immediate. */
	d[1].opcode = 3; /* RESP_SEND_IMM */
	d[1].rx_hash_res = 0x01020304;
	d[1].rx_hash_type = 0xa5;
	d[1].csum = 0xffff;
	d[1].hdr_type_etc = 1u << 2 | 1u << 5 | 1u << 8;
	d[1].metadata = 0x11223344;
	d[1].byte_cnt = 64;
	d[1].timestamp = 1;
	d[1].sop_drop_qpn = 0xff000001; /* top byte not part of the tag */
	d[1].wqe_counter = 0xffff;
	d[1].se = 1;
	/* Zeroes everywhere: must not come out as the fill bytes. */
	d[2].opcode = 1; /* RESP_WR_IMM */
	for (i = 0; i < RTE_DIM(d); i++)
		fx_post(&d[i]);
	scrub(c, 4);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 4), 3,
			  "%s: wrong count", fx_kind_name[kind]);
	for (i = 0; i < RTE_DIM(d); i++)
		TEST_CHECK(check_img(&c[i], &d[i], i));
	/* Spelled out once more for the first record. */
	TEST_ASSERT_EQUAL(c[0].byte_cnt, 1514u, "byte_cnt");
	TEST_ASSERT_EQUAL(c[0].rss_hash, 0xdeadbeefu, "rss_hash");
	TEST_ASSERT_EQUAL(c[0].rss_hash_type, 0x5a, "rss_hash_type");
	TEST_ASSERT_EQUAL(c[0].csum, 0xabcd, "csum");
	TEST_ASSERT_EQUAL(c[0].hdr_type_etc,
			  (RTE_MLX5CQ_HDR_VLAN_STRIPPED | RTE_MLX5CQ_HDR_IPV4 |
			  RTE_MLX5CQ_HDR_TCP | RTE_MLX5CQ_HDR_L3_OK |
			  RTE_MLX5CQ_HDR_L4_OK), "hdr_type_etc");
	TEST_ASSERT_EQUAL(c[0].vlan_tci, 0xe064, "vlan_tci");
	TEST_ASSERT_EQUAL(c[0].metadata, 0xc0ffee01u, "metadata");
	TEST_ASSERT_EQUAL(c[0].timestamp, 0x8877665544332211ull, "timestamp");
	TEST_ASSERT_EQUAL(c[0].flow_tag, 0xabcdefu, "flow_tag");
	TEST_ASSERT_EQUAL(c[0].wqe_counter, 0x1234, "wqe_counter");
	TEST_ASSERT_EQUAL(c[1].flow_tag, 0x000001u, "flow_tag 24 bits");
	TEST_ASSERT_EQUAL(c[1].hdr_type_etc, (RTE_MLX5CQ_HDR_IPV6 |
			  RTE_MLX5CQ_HDR_UDP | RTE_MLX5CQ_HDR_L2_OK),
			  "hdr_type_etc");
	TEST_ASSERT_EQUAL(c[2].byte_cnt, 0u, "zero byte_cnt");
	TEST_ASSERT_EQUAL(c[2].timestamp, 0ull, "zero timestamp");
	TEST_CHECK(check_dbrec(3));
	TEST_CHECK(check_counters(3, 0, 1, 0, 0));
	fx_fini();
	return TEST_SUCCESS;
}

static struct unit_test_suite poll_record_suite = {
	.suite_name = "poll_record",
	.unit_test_cases = {
		TEST_CASE_ST(NULL, fx_teardown, test_poll_requester),
		KIND_CASE(test_poll_responder, FX_64),
		KIND_CASE(test_poll_responder, FX_128),
		KIND_CASE(test_poll_responder, FX_128_PAD),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(poll_record, poll_record_suite);
