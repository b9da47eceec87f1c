/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "cq_moderation": event moderation through the library on the
 * emulated HCA. A DevX CQ created with RTE_MLX5CQ_ATTR_MODERATION carries
 * cq_period, cq_max_count and cq_period_mode in its context (the model's
 * view, mlx5_emu_cq_ev_query()); armed, its event waits for cq_max_count
 * completions while the completions themselves are written at once;
 * rte_mlx5cq_moderation_set() changes both values (MODIFY_CQ) and the next
 * event follows them. Refused, leaving nothing behind: a period above
 * 4095 us (EINVAL), moderation on a device without cq_moderation, the CQE
 * period mode without cq_period_start_from_cqe, moderation on the verbs
 * path, and a run-time change of a verbs CQ (EOPNOTSUPP).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_memory.h>

#include <mlx5_glue.h>

#include <rte_mlx5cq.h>
#include <mlx5_emu.h>

#include "test.h"
#include "test_usage.h"

struct mod_dev {
	struct ibv_context *ctx;
	struct rte_mlx5cq_dev *dev;
};

static int
mod_open(struct mod_dev *m, const char *name, const struct mlx5_emu_caps *c)
{
	m->ctx = mlx5_emu_open(name, c);
	TEST_ASSERT_NOT_NULL(m->ctx, "emu open: %d", errno);
	m->dev = rte_mlx5cq_dev_open(m->ctx, SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(m->dev, "dev_open: %d", rte_errno);
	return TEST_SUCCESS;
}

static int
mod_close(struct mod_dev *m)
{
	TEST_ASSERT_SUCCESS(rte_mlx5cq_dev_close(m->dev), "dev_close");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(m->ctx), "emu close");
	return TEST_SUCCESS;
}

static void
mod_attr(struct rte_mlx5cq_attr *a, enum rte_mlx5cq_path path,
	 uint16_t period, uint16_t count, uint8_t mode)
{
	memset(a, 0, sizeof(*a));
	a->cqe = 63;
	a->socket = SOCKET_ID_ANY;
	a->path = path;
	a->flags = RTE_MLX5CQ_F_EVENTS | RTE_MLX5CQ_F_SINGLE_THREADED;
	a->comp_mask = RTE_MLX5CQ_ATTR_MODERATION;
	a->cq_period = period;
	a->cq_max_count = count;
	a->cq_period_mode = mode;
}

/* n responder completions on the CQ. */
static int
post(struct mod_dev *m, struct rte_mlx5cq *cq, unsigned int n)
{
	struct mlx5_emu_wc c[8];
	struct rte_mlx5cq_cpl r[8];
	unsigned int i;

	memset(c, 0, sizeof(c));
	for (i = 0; i < n; i++) {
		c[i].kind = MLX5_EMU_WC_RESP;
		c[i].opcode = RTE_MLX5CQ_OP_RESP_SEND;
		c[i].byte_cnt = 64;
		c[i].wqe_counter = (uint16_t)i;
	}
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(m->ctx, cq->cqn, c, n), (int)n,
			  "post");
	/* Written at once: moderation holds events, never completions. */
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(cq, r, 8), n, "poll");
	return TEST_SUCCESS;
}

static int
ev_of(struct mod_dev *m, struct rte_mlx5cq *cq, struct mlx5_emu_cq_ev_info *e)
{
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_ev_query(m->ctx, cq->cqn, e), "ev");
	return TEST_SUCCESS;
}

static int
test_moderation_count(void)
{
	struct mlx5_emu_cq_ev_info e;
	struct rte_mlx5cq_attr a;
	struct rte_mlx5cq *cq;
	struct mod_dev m;

	TEST_CHECK(mod_open(&m, "moder0", NULL));
	/* The longest period: only the count can raise the event here. */
	mod_attr(&a, RTE_MLX5CQ_PATH_DEVX, 4095, 4,
		 RTE_MLX5CQ_PERIOD_FROM_CQE);
	cq = rte_mlx5cq_create(m.dev, &a);
	TEST_ASSERT_NOT_NULL(cq, "create: %d", rte_errno);
	TEST_CHECK(ev_of(&m, cq, &e));
	TEST_ASSERT(e.cq_period == 4095 && e.cq_max_count == 4,
		    "context %u us / %u", e.cq_period, e.cq_max_count);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_arm(cq, 0), "arm");
	TEST_CHECK(post(&m, cq, 3));
	TEST_CHECK(ev_of(&m, cq, &e));
	TEST_ASSERT(e.events == 0 && e.held == 1, "3 of 4: events %" PRIu64
		    " held %u", e.events, e.held);
	TEST_ASSERT_EQUAL(rte_mlx5cq_event_get(cq), -EAGAIN, "event early");
	TEST_CHECK(post(&m, cq, 1));
	TEST_CHECK(ev_of(&m, cq, &e));
	TEST_ASSERT_EQUAL(e.events, 1, "4 of 4: events %" PRIu64, e.events);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_event_get(cq), "event at the count");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_event_ack(cq, 1), "ack");

	/* Changed at run time: every completion raises the event. */
	TEST_ASSERT_SUCCESS(rte_mlx5cq_moderation_set(cq, 0, 1), "set");
	TEST_CHECK(ev_of(&m, cq, &e));
	TEST_ASSERT(e.cq_period == 0 && e.cq_max_count == 1,
		    "after set %u us / %u", e.cq_period, e.cq_max_count);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_arm(cq, 0), "arm");
	TEST_CHECK(post(&m, cq, 1));
	TEST_ASSERT_SUCCESS(rte_mlx5cq_event_get(cq), "event at once");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_event_ack(cq, 1), "ack");
	rte_errno = 0;
	TEST_ASSERT_EQUAL(rte_mlx5cq_moderation_set(cq, 4096, 1), -EINVAL,
			  "period 4096");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno %d", rte_errno);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy");
	return mod_close(&m);
}

/* One refused creation: errno, and every resource as it was. */
static int
refuse(struct mod_dev *m, const struct rte_mlx5cq_attr *a, int err,
	 const char *what)
{
	struct rte_mlx5cq_dev_stats d0, d1;
	struct mlx5_emu_stats e0, e1;
	struct heap_use h0, h1;

	heap_use(&h0);
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(m->ctx, &e0), "stats");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_dev_stats_get(m->dev, &d0), "stats");
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_mlx5cq_create(m->dev, a), "%s: created", what);
	TEST_ASSERT_EQUAL(rte_errno, err, "%s: errno %d, want %d", what,
			  rte_errno, err);
	heap_use(&h1);
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(m->ctx, &e1), "stats");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_dev_stats_get(m->dev, &d1), "stats");
	TEST_ASSERT_SUCCESS(heap_use_same(&h0, &h1, what), "rte_malloc");
	TEST_ASSERT(e0.cmds == e1.cmds && e0.cqs == e1.cqs &&
		    e0.umems == e1.umems && e0.verbs_cqs == e1.verbs_cqs,
		    "%s: the device changed", what);
	TEST_ASSERT(d0.cqs == d1.cqs && d0.dbr_slots == d1.dbr_slots,
		    "%s: the library kept something", what);
	return TEST_SUCCESS;
}

static int
test_moderation_refused(void)
{
	struct mlx5_emu_caps caps;
	struct rte_mlx5cq_attr a;
	struct rte_mlx5cq *cq;
	struct mod_dev m;

	TEST_CHECK(mod_open(&m, "moder1", NULL));
	mod_attr(&a, RTE_MLX5CQ_PATH_DEVX, 4096, 1, 0);
	TEST_CHECK(refuse(&m, &a, EINVAL, "period 4096"));
	mod_attr(&a, RTE_MLX5CQ_PATH_DEVX, 10, 1, 2);
	TEST_CHECK(refuse(&m, &a, EINVAL, "period mode 2"));
	mod_attr(&a, RTE_MLX5CQ_PATH_VERBS, 10, 4, 0);
	TEST_CHECK(refuse(&m, &a, EOPNOTSUPP, "moderation on verbs"));
	/* A verbs CQ cannot be changed either. */
	mod_attr(&a, RTE_MLX5CQ_PATH_VERBS, 0, 0, 0);
	cq = rte_mlx5cq_create(m.dev, &a);
	TEST_ASSERT_NOT_NULL(cq, "verbs create: %d", rte_errno);
	TEST_ASSERT_EQUAL(rte_mlx5cq_moderation_set(cq, 10, 4), -EOPNOTSUPP,
			  "verbs CQ changed");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy");
	TEST_CHECK(mod_close(&m));

	mlx5_emu_caps_default(&caps);
	caps.cq_moderation = 0;
	caps.cq_period_start_from_cqe = 0;
	TEST_CHECK(mod_open(&m, "moder2", &caps));
	mod_attr(&a, RTE_MLX5CQ_PATH_DEVX, 10, 4, 0);
	TEST_CHECK(refuse(&m, &a, EOPNOTSUPP, "without cq_moderation"));
	mod_attr(&a, RTE_MLX5CQ_PATH_DEVX, 0, 0, RTE_MLX5CQ_PERIOD_FROM_CQE);
	TEST_CHECK(refuse(&m, &a, EOPNOTSUPP,
			  "CQE mode without cq_period_start_from_cqe"));
	/* Without moderation the CQ is made, and cannot be changed. */
	mod_attr(&a, RTE_MLX5CQ_PATH_DEVX, 0, 0, 0);
	cq = rte_mlx5cq_create(m.dev, &a);
	TEST_ASSERT_NOT_NULL(cq, "create without moderation: %d", rte_errno);
	TEST_ASSERT_EQUAL(rte_mlx5cq_moderation_set(cq, 10, 4), -EOPNOTSUPP,
			  "changed without cq_moderation");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy");
	return mod_close(&m);
}

static int
moderation_setup(void)
{
	return mlx5_emu_install();
}

static struct unit_test_suite cq_moderation_suite = {
	.suite_name = "cq_moderation",
	.setup = moderation_setup,
	.unit_test_cases = {
		TEST_CASE(test_moderation_count),
		TEST_CASE(test_moderation_refused),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(cq_moderation, cq_moderation_suite);
