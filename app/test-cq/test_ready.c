/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "ready": rte_mlx5cq_ready_count() and rte_mlx5cq_monitor_get() on
 * rings written by hand from the PRM layouts (test_hand_cq.h): regular
 * and error CQEs count one each, a basic-layout session its byte_cnt, an
 * enhanced-layout compressed CQE its opcode + 1; the count stops at the
 * first entry the device still owns and at max, and goes on past a
 * partly consumed session and across the wrap. The monitor names the
 * owner bit (basic layout) or the validity iteration count (enhanced) of
 * the next entry, with the value of its pass, in the second half of a
 * 128 B entry.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <rte_errno.h>

#include <rte_mlx5cq.h>

#include "test.h"
#include "test_hand_cq.h"

#define HASH_COMP 1 /* MLX5_CQE_RESP_FORMAT_HASH + 1 */

static void
resp(struct img_cqe *c, uint16_t wqe)
{
	memset(c, 0, sizeof(*c));
	c->opcode = 2; /* RESP_SEND */
	c->byte_cnt = 64;
	c->wqe_counter = wqe;
}

/* A responder error CQE (opcode 14, local length error). */
static void
resp_err(struct img_cqe *c, uint16_t wqe)
{
	memset(c, 0, sizeof(*c));
	c->opcode = 14;
	c->syndrome = 0x01;
	c->wqe_counter = wqe;
}

/* HASH mini-CQEs: hash (bytes 0..3), byte count (4..7), big endian. */
static void
minis_make(uint8_t (*m)[8], unsigned int n)
{
	unsigned int j;

	for (j = 0; j < n; j++) {
		img_be32(m[j], 0x1000 + j);
		img_be32(m[j] + 4, 60 + j);
	}
}

/* The monitored byte, value and mask expected for ring entry idx. */
static int
monitor_is(const struct hand_cq *h, uint32_t idx, int enh)
{
	struct rte_mlx5cq_monitor m;
	uint8_t *e = hand_cqe(h, idx);
	int ret;

	memset(&m, 0xa5, sizeof(m));
	ret = rte_mlx5cq_monitor_get(h->cq, &m);
	TEST_ASSERT_EQUAL(ret, 0, "monitor_get: %d", ret);
	if (enh) {
		TEST_ASSERT(m.addr == (void *)(e + IMG_VIC), "entry %u: %p, "
			    "not the iteration count %p", idx, m.addr,
			    (void *)(e + IMG_VIC));
		TEST_ASSERT_EQUAL(m.value, (uint8_t)(idx >> h->log_n),
				  "entry %u: value %#x", idx, m.value);
		TEST_ASSERT_EQUAL(m.mask, 0xff, "mask %#x", m.mask);
	} else {
		TEST_ASSERT(m.addr == (void *)(e + IMG_OP_OWN), "entry %u: "
			    "%p, not op_own %p", idx, m.addr,
			    (void *)(e + IMG_OP_OWN));
		TEST_ASSERT_EQUAL(m.value, hand_owner(h, idx),
				  "entry %u: value %#x", idx, m.value);
		TEST_ASSERT_EQUAL(m.mask, 1, "mask %#x", m.mask);
	}
	return TEST_SUCCESS;
}

/* Whether the monitored condition holds now. */
static int
monitor_met(const struct hand_cq *h)
{
	struct rte_mlx5cq_monitor m;

	if (rte_mlx5cq_monitor_get(h->cq, &m) < 0)
		return -1;
	return (*(volatile uint8_t *)m.addr & m.mask) == m.value;
}

static int
run_basic(unsigned int stride)
{
	struct rte_mlx5cq_cpl out[16];
	uint8_t minis[9][8];
	struct hand_cq h;
	struct img_cqe c;
	uint32_t i;

	TEST_ASSERT_SUCCESS(hand_cq_init(&h, 4, stride, HASH_COMP, 0),
			    "init");
	TEST_ASSERT_EQUAL(rte_mlx5cq_ready_count(h.cq, 64), 0, "empty");
	TEST_CHECK(monitor_is(&h, 0, 0));
	TEST_ASSERT_EQUAL(monitor_met(&h), 0, "empty ring: nothing arrived");
	for (i = 0; i < 3; i++) {
		resp(&c, (uint16_t)i);
		hand_put(&h, i, &c);
	}
	TEST_ASSERT_EQUAL(monitor_met(&h), 1, "entry 0 arrived");
	TEST_ASSERT_EQUAL(rte_mlx5cq_ready_count(h.cq, 64), 3, "3 CQEs");
	TEST_ASSERT_EQUAL(rte_mlx5cq_ready_count(h.cq, 2), 2, "max 2");
	/* A session of 9 at entry 3 spans entries 3..11. */
	resp(&c, 3);
	minis_make(minis, 9);
	hand_put_session(&h, 3, &c, (const uint8_t (*)[8])minis, 9);
	TEST_ASSERT_EQUAL(rte_mlx5cq_ready_count(h.cq, 64), 12,
			  "3 + a session of 9");
	resp_err(&c, 12);
	hand_put(&h, 12, &c);
	TEST_ASSERT_EQUAL(rte_mlx5cq_ready_count(h.cq, 64), 13, "+ error");
	/* Nothing is consumed by counting. */
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, out, 5), 5, "poll 5");
	/* 7 minis left in the open session, then the error CQE. */
	TEST_ASSERT_EQUAL(rte_mlx5cq_ready_count(h.cq, 64), 8,
			  "rest of the session + error");
	TEST_ASSERT_EQUAL(rte_mlx5cq_monitor_get(h.cq,
			  &(struct rte_mlx5cq_monitor){ 0 }), 1,
			  "completions waiting");
	TEST_ASSERT_EQUAL(monitor_met(&h), 1, "waiting: condition met");
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, out, 16), 8,
			  "poll the rest");
	TEST_ASSERT_EQUAL(rte_mlx5cq_ready_count(h.cq, 64), 0, "consumed");
	TEST_CHECK(monitor_is(&h, 13, 0));
	TEST_ASSERT_EQUAL(monitor_met(&h), 0, "entry 13 not arrived");
	/* Across the wrap: entries 13, 14, 15 of pass 0, 16, 17 of pass 1. */
	for (i = 13; i < 18; i++) {
		resp(&c, (uint16_t)i);
		hand_put(&h, i, &c);
	}
	TEST_ASSERT_EQUAL(rte_mlx5cq_ready_count(h.cq, 64), 5, "across wrap");
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, out, 16), 5, "poll");
	TEST_CHECK(monitor_is(&h, 18, 0));
	TEST_ASSERT_EQUAL(monitor_met(&h), 0, "entry 18 (pass 1) not arrived");
	/* A stale entry of the last pass, owner 0, does not count. */
	TEST_ASSERT_EQUAL(rte_mlx5cq_ready_count(h.cq, 64), 0, "stale");
	hand_cq_fini(&h);
	return TEST_SUCCESS;
}

static int
test_ready_basic_64(void)
{
	return run_basic(64);
}

static int
test_ready_basic_128(void)
{
	return run_basic(128);
}

static int
test_ready_enhanced(void)
{
	struct rte_mlx5cq_cpl out[16];
	uint8_t minis[5][8];
	struct hand_cq h;
	struct img_cqe c;

	TEST_ASSERT_SUCCESS(hand_cq_init(&h, 4, 64,
					 HASH_COMP | RTE_MLX5CQ_COMP_ENHANCED,
					 0), "init");
	TEST_ASSERT_EQUAL(rte_mlx5cq_ready_count(h.cq, 64), 0, "empty");
	TEST_CHECK(monitor_is(&h, 0, 1));
	TEST_ASSERT_EQUAL(monitor_met(&h), 0, "nothing arrived");
	/* Title at 0, five minis in the compressed CQE at 1 (entries 1..5),
	 * a regular CQE at 6.
	 */
	resp(&c, 0);
	hand_put(&h, 0, &c);
	minis_make(minis, 5);
	hand_put_enh_array(&h, 1, (const uint8_t (*)[8])minis, 5);
	resp(&c, 6);
	hand_put(&h, 6, &c);
	TEST_ASSERT_EQUAL(monitor_met(&h), 1, "entry 0 arrived");
	TEST_ASSERT_EQUAL(rte_mlx5cq_ready_count(h.cq, 64), 7, "1 + 5 + 1");
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, out, 3), 3, "poll 3");
	TEST_ASSERT_EQUAL(rte_mlx5cq_ready_count(h.cq, 64), 4, "3 + 1 left");
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, out, 16), 4, "poll");
	TEST_ASSERT_EQUAL(rte_mlx5cq_ready_count(h.cq, 64), 0, "consumed");
	TEST_CHECK(monitor_is(&h, 7, 1));
	hand_cq_fini(&h);
	return TEST_SUCCESS;
}

static int
test_ready_bad_args(void)
{
	struct rte_mlx5cq_monitor m;

	rte_errno = 0;
	TEST_ASSERT_EQUAL(rte_mlx5cq_ready_count(NULL, 8), 0, "NULL CQ");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rte_errno %d", rte_errno);
	TEST_ASSERT_EQUAL(rte_mlx5cq_monitor_get(NULL, &m), -EINVAL,
			  "NULL CQ");
	return TEST_SUCCESS;
}

static struct unit_test_suite ready_suite = {
	.suite_name = "ready",
	.unit_test_cases = {
		TEST_CASE(test_ready_basic_64),
		TEST_CASE(test_ready_basic_128),
		TEST_CASE(test_ready_enhanced),
		TEST_CASE(test_ready_bad_args),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(ready, ready_suite);
