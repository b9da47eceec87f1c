/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "collapsed": CQs created with RTE_MLX5CQ_F_COLLAPSED (cqc.cc) on
 * the emulated HCA, which writes every CQE of such a CQ into entry 0
 * (PRM cqc.cc; DPDK's mlx5_devx_cq_attr.use_first_only for the vDPA
 * event and Tx pacing clock queues). rte_mlx5cq_collapsed_read() hands up
 * the newest completion and counts the completions since the last read
 * from its wqe_counter, as DPDK's mlx5_vdpa_cq_poll() does: the expected
 * records, counts and doorbell values are written here from the
 * completions posted, across the 16-bit wrap of the counter and for an
 * error CQE. The burst poll, the iterator, the ready count and the
 * monitor refuse a collapsed CQ; the read refuses a CQ that is not one.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/verbs.h>

#include <rte_byteorder.h>
#include <rte_errno.h>
#include <rte_memory.h>

#include <rte_mlx5cq.h>
#include <mlx5_emu.h>

#include "test.h"

struct col_fix {
	struct ibv_context *ctx;
	struct rte_mlx5cq_dev *dev;
	struct rte_mlx5cq *cq;
};

static int
col_open(struct col_fix *f, const char *name, uint32_t flags)
{
	struct rte_mlx5cq_attr a;

	memset(f, 0, sizeof(*f));
	f->ctx = mlx5_emu_open(name, NULL);
	TEST_ASSERT_NOT_NULL(f->ctx, "emu open: %d", errno);
	f->dev = rte_mlx5cq_dev_open(f->ctx, SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(f->dev, "dev open: %d", rte_errno);
	memset(&a, 0, sizeof(a));
	a.cqe = 63;
	a.flags = RTE_MLX5CQ_F_SINGLE_THREADED | flags;
	a.socket = SOCKET_ID_ANY;
	a.path = RTE_MLX5CQ_PATH_DEVX;
	f->cq = rte_mlx5cq_create(f->dev, &a);
	TEST_ASSERT_NOT_NULL(f->cq, "create: %d", rte_errno);
	return TEST_SUCCESS;
}

static int
col_close(struct col_fix *f)
{
	int ret = TEST_SUCCESS;

	if (f->cq != NULL && rte_mlx5cq_destroy(f->cq) != 0)
		ret = TEST_FAILED;
	if (f->dev != NULL && rte_mlx5cq_dev_close(f->dev) != 0)
		ret = TEST_FAILED;
	if (f->ctx != NULL && mlx5_emu_close(f->ctx) != 0)
		ret = TEST_FAILED;
	return ret;
}

/* n requester completions of WQEs first .. first + n - 1 (16 bits). */
static int
col_post(struct col_fix *f, uint16_t first, unsigned int n)
{
	struct mlx5_emu_wc c[8];
	unsigned int i, k;

	while (n > 0) {
		k = RTE_MIN(n, RTE_DIM(c));
		memset(c, 0, sizeof(c));
		for (i = 0; i < k; i++) {
			c[i].kind = MLX5_EMU_WC_REQ;
			c[i].s_wqe_opcode = 0x0a; /* SEND */
			c[i].wqe_counter = (uint16_t)(first + i);
			c[i].qpn = 0x1234;
			c[i].timestamp = 1000 + first + i;
		}
		TEST_ASSERT_EQUAL(mlx5_emu_cq_post(f->ctx, f->cq->cqn, c, k),
				  (int)k, "post");
		first = (uint16_t)(first + k);
		n -= k;
	}
	return TEST_SUCCESS;
}

/* The record of the newest requester completion, WQE w. */
static int
col_check_req(const struct rte_mlx5cq_cpl *c, uint16_t w)
{
	TEST_ASSERT(c->opcode == RTE_MLX5CQ_OP_REQ && c->status == 0 &&
		    c->wqe_counter == w && c->timestamp == 1000u + w,
		    "record: opcode %u status %u wqe %u ts %" PRIu64
		    ", expected REQ, 0, %u, %u", c->opcode, c->status,
		    c->wqe_counter, c->timestamp, w, 1000u + w);
	return TEST_SUCCESS;
}

static uint32_t
col_dbrec(const struct col_fix *f)
{
	return rte_be_to_cpu_32(f->cq->dbrec[0]);
}

static int
test_collapsed_counts(void)
{
	struct rte_mlx5cq_counters cnt;
	struct rte_mlx5cq_cpl c;
	struct col_fix f;
	int ret;

	TEST_ASSERT_SUCCESS(col_open(&f, "collapsed0",
				     RTE_MLX5CQ_F_COLLAPSED), "open");
	/* Nothing written yet: entry 0 is INVALID. */
	TEST_ASSERT_EQUAL(rte_mlx5cq_collapsed_read(f.cq, &c), 0, "empty");
	/* Five completions: one read, the newest, five counted. */
	TEST_ASSERT_SUCCESS(col_post(&f, 0, 5), "post 5");
	TEST_ASSERT_EQUAL(rte_mlx5cq_collapsed_read(f.cq, &c), 5, "5 new");
	TEST_ASSERT_SUCCESS(col_check_req(&c, 4), "newest of 5");
	TEST_ASSERT_EQUAL(col_dbrec(&f), 5u, "doorbell record %u",
			  col_dbrec(&f));
	TEST_ASSERT_EQUAL(rte_mlx5cq_collapsed_read(f.cq, &c), 0, "no more");
	/* More than the ring holds (64 entries): still counted. */
	TEST_ASSERT_SUCCESS(col_post(&f, 5, 200), "post 200");
	TEST_ASSERT_EQUAL(rte_mlx5cq_collapsed_read(f.cq, &c), 200,
			  "200 new");
	TEST_ASSERT_SUCCESS(col_check_req(&c, 204), "newest of 200");
	/* Across the 16-bit wrap: WQEs 205 .. 65535, then 0 .. 9. */
	TEST_ASSERT_SUCCESS(col_post(&f, 65535, 1), "post 65535");
	TEST_ASSERT_EQUAL(rte_mlx5cq_collapsed_read(f.cq, &c), 65331,
			  "up to 65535");
	TEST_ASSERT_SUCCESS(col_check_req(&c, 65535), "newest 65535");
	TEST_ASSERT_SUCCESS(col_post(&f, 0, 10), "post 0..9");
	TEST_ASSERT_EQUAL(rte_mlx5cq_collapsed_read(f.cq, &c), 10,
			  "10 after the wrap");
	TEST_ASSERT_SUCCESS(col_check_req(&c, 9), "newest 9");
	/* 5 + 200 + 65331 + 10 = 65546 consumed. */
	TEST_ASSERT_EQUAL(col_dbrec(&f), 65546u, "doorbell record %u",
			  col_dbrec(&f));
	TEST_ASSERT_SUCCESS(rte_mlx5cq_counters_get(f.cq, &cnt), "counters");
	TEST_ASSERT(cnt.completions == 65546 && cnt.polls == 6 &&
		    cnt.empty_polls == 2 && cnt.errors == 0,
		    "counters: %" PRIu64 " completions %" PRIu64 " polls %"
		    PRIu64 " empty %" PRIu64 " errors", cnt.completions,
		    cnt.polls, cnt.empty_polls, cnt.errors);
	ret = col_close(&f);
	return ret;
}

/* An error CQE is the newest: its record, counted as an error. */
static int
test_collapsed_error(void)
{
	struct rte_mlx5cq_counters cnt;
	struct rte_mlx5cq_cpl c;
	struct mlx5_emu_wc e;
	struct col_fix f;

	TEST_ASSERT_SUCCESS(col_open(&f, "collapsed1",
				     RTE_MLX5CQ_F_COLLAPSED), "open");
	TEST_ASSERT_SUCCESS(col_post(&f, 0, 3), "post 3");
	memset(&e, 0, sizeof(e));
	e.kind = MLX5_EMU_WC_REQ_ERR;
	e.syndrome = 0x04; /* LOC_PROT_ERR */
	e.vendor_syndrome = 0x57;
	e.s_wqe_opcode = 0x0a;
	e.wqe_counter = 3;
	e.qpn = 0x1234;
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(f.ctx, f.cq->cqn, &e, 1), 1,
			  "post error");
	TEST_ASSERT_EQUAL(rte_mlx5cq_collapsed_read(f.cq, &c), 4, "4 new");
	TEST_ASSERT(c.opcode == RTE_MLX5CQ_OP_REQ_ERR &&
		    c.status == IBV_WC_LOC_PROT_ERR && c.syndrome == 0x04 &&
		    c.vendor_syndrome == 0x57 && c.wqe_counter == 3 &&
		    c.flow_tag == 0x1234 && c.s_wqe_opcode == 0x0a,
		    "error record: opcode %u status %u syndrome %#x vendor %#x"
		    " wqe %u qpn %#x s_wqe_opcode %#x", c.opcode, c.status,
		    c.syndrome, c.vendor_syndrome, c.wqe_counter, c.flow_tag,
		    c.s_wqe_opcode);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_counters_get(f.cq, &cnt), "counters");
	TEST_ASSERT(cnt.completions == 4 && cnt.errors == 1,
		    "counters: %" PRIu64 " completions %" PRIu64 " errors",
		    cnt.completions, cnt.errors);
	return col_close(&f);
}

/* What reads a ring refuses a collapsed CQ, and the reverse. */
static int
test_collapsed_refusals(void)
{
	struct rte_mlx5cq_cpl c[4];
	struct rte_mlx5cq_monitor m;
	struct col_fix f, g;

	TEST_ASSERT_SUCCESS(col_open(&f, "collapsed2",
				     RTE_MLX5CQ_F_COLLAPSED), "open");
	TEST_ASSERT_SUCCESS(col_post(&f, 0, 2), "post 2");
	rte_errno = 0;
	TEST_ASSERT(rte_mlx5cq_poll_burst(f.cq, c, 4) == 0 &&
		    rte_errno == ENOTSUP, "burst poll: errno %d", rte_errno);
	TEST_ASSERT_EQUAL(rte_mlx5cq_peek(f.cq, 4), 0, "peek");
	rte_errno = 0;
	TEST_ASSERT(rte_mlx5cq_ready_count(f.cq, 4) == 0 &&
		    rte_errno == ENOTSUP, "ready count: errno %d", rte_errno);
	TEST_ASSERT_EQUAL(rte_mlx5cq_monitor_get(f.cq, &m), -ENOTSUP,
			  "monitor");
	TEST_ASSERT_EQUAL(rte_mlx5cq_start_poll(f.cq, NULL), ENOTSUP,
			  "start_poll");
	/* Still there for the read. */
	TEST_ASSERT_EQUAL(rte_mlx5cq_collapsed_read(f.cq, c), 2, "read");
	TEST_ASSERT_EQUAL(rte_mlx5cq_collapsed_read(NULL, c), -EINVAL,
			  "NULL CQ");
	TEST_ASSERT_EQUAL(rte_mlx5cq_collapsed_read(f.cq, NULL), -EINVAL,
			  "NULL record");
	TEST_ASSERT_SUCCESS(col_open(&g, "collapsed3", 0), "open plain");
	TEST_ASSERT(rte_mlx5cq_collapsed_read(g.cq, c) == -EINVAL &&
		    rte_errno == EINVAL, "plain CQ read");
	TEST_ASSERT_SUCCESS(col_close(&g), "close plain");
	return col_close(&f);
}

static int
collapsed_setup(void)
{
	return mlx5_emu_install();
}

static struct unit_test_suite collapsed_suite = {
	.suite_name = "collapsed",
	.setup = collapsed_setup,
	.unit_test_cases = {
		TEST_CASE(test_collapsed_counts),
		TEST_CASE(test_collapsed_error),
		TEST_CASE(test_collapsed_refusals),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(collapsed, collapsed_suite);
