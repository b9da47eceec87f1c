/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "resize": rte_mlx5cq_resize() on the emulated HCA. Completions
 * written and not polled before a resize come out after it, in order and
 * with their contents (grow and shrink, 64 B and 128 B CQEs, after a wrap
 * of the old ring); later completions arrive in the new ring (the model's
 * view of the CQ names the new umem and size); arming and events work
 * after a resize. Refused, leaving heap, umems, device objects and
 * doorbell slots as they were: a device without cq_resize (ENOSYS, as
 * the kernel's mlx5_ib_resize_cq()), 0 and sizes above the device's
 * largest ring (EINVAL), fewer entries than completions not polled
 * (EINVAL, ibv_resize_cq(3)), verbs, compressed and attached CQs
 * (EOPNOTSUPP).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_memory.h>

#include <mlx5_glue.h>
#include <mlx5_common_devx.h>

#include <rte_mlx5cq.h>
#include <mlx5_emu.h>

#include "test.h"
#include "test_usage.h"

struct rz {
	struct ibv_context *ctx;
	struct rte_mlx5cq_dev *dev;
	uint32_t posted; /* Sequence number of the next completion. */
	uint32_t polled; /* Sequence number of the next one expected. */
};

static int
rz_open(struct rz *z, const char *name, const struct mlx5_emu_caps *c)
{
	memset(z, 0, sizeof(*z));
	z->ctx = mlx5_emu_open(name, c);
	TEST_ASSERT_NOT_NULL(z->ctx, "emu open: %d", errno);
	z->dev = rte_mlx5cq_dev_open(z->ctx, SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(z->dev, "dev_open: %d", rte_errno);
	return TEST_SUCCESS;
}

static int
rz_close(struct rz *z)
{
	TEST_ASSERT_SUCCESS(rte_mlx5cq_dev_close(z->dev), "dev_close");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(z->ctx), "emu close");
	return TEST_SUCCESS;
}

static void
rz_attr(struct rte_mlx5cq_attr *a, enum rte_mlx5cq_path path, uint32_t cqe,
	uint16_t cqe_size)
{
	memset(a, 0, sizeof(*a));
	a->cqe = cqe;
	a->socket = SOCKET_ID_ANY;
	a->path = path;
	a->flags = RTE_MLX5CQ_F_EVENTS;
	a->comp_mask = RTE_MLX5CQ_ATTR_CQE_SIZE;
	a->cqe_size = cqe_size;
}

/* n completions, each with fields derived from its sequence number. */
static int
rz_post(struct rz *z, struct rte_mlx5cq *cq, unsigned int n)
{
	struct mlx5_emu_wc c[32];
	unsigned int i;

	TEST_ASSERT(n <= RTE_DIM(c), "post %u", n);
	memset(c, 0, sizeof(c));
	for (i = 0; i < n; i++) {
		uint32_t seq = z->posted + i;

		c[i].kind = MLX5_EMU_WC_RESP;
		c[i].opcode = RTE_MLX5CQ_OP_RESP_SEND;
		c[i].byte_cnt = 1000 + seq;
		c[i].rx_hash_res = 0x9e3779b9u ^ seq;
		c[i].qpn = 0x2000 + seq;
		c[i].wqe_counter = (uint16_t)(seq * 5);
	}
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(z->ctx, cq->cqn, c, n), (int)n,
			  "post %u", n);
	z->posted += n;
	return TEST_SUCCESS;
}

/* Poll exactly n completions and check them against their sequence. */
static int
rz_poll(struct rz *z, struct rte_mlx5cq *cq, unsigned int n)
{
	struct rte_mlx5cq_cpl r[64];
	unsigned int i;
	uint16_t got;

	TEST_ASSERT(n <= RTE_DIM(r), "poll %u", n);
	got = rte_mlx5cq_poll_burst(cq, r, (uint16_t)n);
	TEST_ASSERT_EQUAL(got, n, "polled %u, want %u", got, n);
	for (i = 0; i < n; i++) {
		uint32_t seq = z->polled + i;

		TEST_ASSERT(r[i].status == 0 &&
			    r[i].opcode == RTE_MLX5CQ_OP_RESP_SEND &&
			    r[i].byte_cnt == 1000 + seq &&
			    r[i].rss_hash == (0x9e3779b9u ^ seq) &&
			    r[i].flow_tag == 0x2000 + seq &&
			    r[i].wqe_counter == (uint16_t)(seq * 5),
			    "completion %u: status %u op %u bytes %u hash %#x "
			    "tag %#x wqe %u", seq, r[i].status, r[i].opcode,
			    r[i].byte_cnt, r[i].rss_hash, r[i].flow_tag,
			    r[i].wqe_counter);
	}
	z->polled += n;
	return TEST_SUCCESS;
}

/* The library's and the model's view of the CQ agree on its ring. */
static int
rz_ring_is(struct rz *z, struct rte_mlx5cq *cq, uint32_t entries)
{
	struct rte_mlx5cq_info info;
	struct mlx5_emu_cq_info e;

	TEST_ASSERT_SUCCESS(rte_mlx5cq_info_get(cq, &info), "info");
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(z->ctx, cq->cqn, &e), "query");
	TEST_ASSERT(info.entries == entries && info.capacity == entries - 1 &&
		    (1u << e.log_cq_size) == entries &&
		    e.cq_umem_id == info.umem_id && e.ring == info.ring &&
		    info.ring_size == (size_t)entries * info.cqe_size,
		    "ring: library %u entries umem %u, model 2^%u umem %u",
		    info.entries, info.umem_id, e.log_cq_size, e.cq_umem_id);
	return TEST_SUCCESS;
}

static int
rz_carry(uint16_t cqe_size)
{
	struct rte_mlx5cq_dev_stats d0, d1;
	struct mlx5_emu_stats e0, e1;
	struct rte_mlx5cq_attr a;
	struct rte_mlx5cq *cq;
	struct rz z;

	TEST_CHECK(rz_open(&z, cqe_size == 64 ? "rz64" : "rz128", NULL));
	rz_attr(&a, RTE_MLX5CQ_PATH_DEVX, 15, cqe_size);
	cq = rte_mlx5cq_create(z.dev, &a);
	TEST_ASSERT_NOT_NULL(cq, "create: %d", rte_errno);
	TEST_CHECK(rz_ring_is(&z, cq, 16));
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(z.ctx, &e0), "stats");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_dev_stats_get(z.dev, &d0), "stats");
	/* Counters 0..11 polled, 12..23 written: the old ring wraps. */
	TEST_CHECK(rz_post(&z, cq, 12));
	TEST_CHECK(rz_poll(&z, cq, 12));
	TEST_CHECK(rz_post(&z, cq, 12));
	TEST_CHECK(rz_poll(&z, cq, 3));
	/* Grow with 9 not polled. */
	TEST_ASSERT_SUCCESS(rte_mlx5cq_resize(cq, 63), "grow: %d", rte_errno);
	TEST_CHECK(rz_ring_is(&z, cq, 64));
	TEST_CHECK(rz_post(&z, cq, 20));
	TEST_CHECK(rz_poll(&z, cq, 29));
	/* Shrink with 5 not polled, then round the small ring twice. */
	TEST_CHECK(rz_post(&z, cq, 5));
	TEST_ASSERT_SUCCESS(rte_mlx5cq_resize(cq, 5), "shrink: %d",
			    rte_errno);
	TEST_CHECK(rz_ring_is(&z, cq, 8));
	TEST_CHECK(rz_post(&z, cq, 2));
	TEST_CHECK(rz_poll(&z, cq, 7));
	TEST_CHECK(rz_post(&z, cq, 7));
	TEST_CHECK(rz_poll(&z, cq, 7));
	TEST_CHECK(rz_post(&z, cq, 6));
	TEST_CHECK(rz_poll(&z, cq, 6));
	/* Resizes replace the ring umem: the same count of everything. */
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(z.ctx, &e1), "stats");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_dev_stats_get(z.dev, &d1), "stats");
	TEST_ASSERT(e0.umems == e1.umems && e0.cqs == e1.cqs &&
		    d0.ring_umems == d1.ring_umems &&
		    d0.dbr_slots == d1.dbr_slots, "umems %u -> %u, ring umems "
		    "%u -> %u", e0.umems, e1.umems, d0.ring_umems,
		    d1.ring_umems);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy");
	return rz_close(&z);
}

static int
test_resize_carry_64(void)
{
	return rz_carry(64);
}

static int
test_resize_carry_128(void)
{
	return rz_carry(128);
}

static int
test_resize_events(void)
{
	struct rte_mlx5cq_attr a;
	struct rte_mlx5cq *cq;
	struct rz z;

	TEST_CHECK(rz_open(&z, "rzev", NULL));
	rz_attr(&a, RTE_MLX5CQ_PATH_DEVX, 31, 64);
	cq = rte_mlx5cq_create(z.dev, &a);
	TEST_ASSERT_NOT_NULL(cq, "create: %d", rte_errno);
	TEST_CHECK(rz_post(&z, cq, 4));
	TEST_ASSERT_SUCCESS(rte_mlx5cq_resize(cq, 200), "resize: %d",
			    rte_errno);
	TEST_CHECK(rz_ring_is(&z, cq, 256));
	/* The same size once more: nothing to do. */
	TEST_ASSERT_SUCCESS(rte_mlx5cq_resize(cq, 255), "same size");
	TEST_CHECK(rz_ring_is(&z, cq, 256));
	TEST_CHECK(rz_poll(&z, cq, 4));
	TEST_ASSERT_SUCCESS(rte_mlx5cq_arm(cq, 0), "arm");
	TEST_ASSERT_EQUAL(rte_mlx5cq_event_get(cq), -EAGAIN, "event early");
	TEST_CHECK(rz_post(&z, cq, 1));
	TEST_ASSERT_SUCCESS(rte_mlx5cq_event_get(cq), "event after resize");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_event_ack(cq, 1), "ack");
	TEST_CHECK(rz_poll(&z, cq, 1));
	/* Armed before a resize: the event comes from the new ring. */
	TEST_ASSERT_SUCCESS(rte_mlx5cq_arm(cq, 0), "arm");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_resize(cq, 20), "shrink: %d",
			    rte_errno);
	TEST_CHECK(rz_post(&z, cq, 2));
	TEST_ASSERT_SUCCESS(rte_mlx5cq_event_get(cq), "event, armed before");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_event_ack(cq, 1), "ack");
	TEST_CHECK(rz_poll(&z, cq, 2));
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy");
	return rz_close(&z);
}

/* One refused resize: errno, and every resource as it was. */
static int
rz_refuse(struct rz *z, struct rte_mlx5cq *cq, uint32_t cqe, int err,
	  const char *what)
{
	struct rte_mlx5cq_dev_stats d0, d1;
	struct rte_mlx5cq_info i0, i1;
	struct mlx5_emu_stats e0, e1;
	struct heap_use h0, h1;

	heap_use(&h0);
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(z->ctx, &e0), "stats");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_dev_stats_get(z->dev, &d0), "stats");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_info_get(cq, &i0), "info");
	rte_errno = 0;
	TEST_ASSERT_EQUAL(rte_mlx5cq_resize(cq, cqe), -err, "%s: resized",
			  what);
	TEST_ASSERT_EQUAL(rte_errno, err, "%s: errno %d, want %d", what,
			  rte_errno, err);
	heap_use(&h1);
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(z->ctx, &e1), "stats");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_dev_stats_get(z->dev, &d1), "stats");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_info_get(cq, &i1), "info");
	TEST_ASSERT_SUCCESS(heap_use_same(&h0, &h1, what), "rte_malloc");
	TEST_ASSERT(e0.cmds == e1.cmds && e0.cqs == e1.cqs &&
		    e0.umems == e1.umems && e0.devx_objs == e1.devx_objs &&
		    e0.verbs_cqs == e1.verbs_cqs, "%s: the device changed",
		    what);
	TEST_ASSERT(d0.cqs == d1.cqs && d0.dbr_slots == d1.dbr_slots &&
		    d0.ring_umems == d1.ring_umems,
		    "%s: the library kept something", what);
	TEST_ASSERT(i0.entries == i1.entries && i0.ring == i1.ring &&
		    i0.umem_id == i1.umem_id, "%s: the CQ changed", what);
	return TEST_SUCCESS;
}

static int
test_resize_refused(void)
{
	struct mlx5_emu_caps caps;
	struct rte_mlx5cq_attr a;
	struct rte_mlx5cq *cq;
	struct rz z;

	mlx5_emu_caps_default(&caps);
	TEST_CHECK(rz_open(&z, "rzbad", &caps));
	rz_attr(&a, RTE_MLX5CQ_PATH_DEVX, 15, 64);
	cq = rte_mlx5cq_create(z.dev, &a);
	TEST_ASSERT_NOT_NULL(cq, "create: %d", rte_errno);
	TEST_CHECK(rz_refuse(&z, cq, 0, EINVAL, "0 entries"));
	TEST_CHECK(rz_refuse(&z, cq, 1u << caps.log_max_cq_sz, EINVAL,
			     "above log_max_cq_sz"));
	TEST_CHECK(rz_refuse(&z, cq, UINT32_MAX, EINVAL, "UINT32_MAX"));
	/* 10 not polled: 7 is too few, and they all stay. */
	TEST_CHECK(rz_post(&z, cq, 10));
	TEST_CHECK(rz_refuse(&z, cq, 7, EINVAL, "fewer than unpolled"));
	TEST_CHECK(rz_poll(&z, cq, 10));
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(cq, NULL, 0), 0, "more");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy");
	/* Verbs and compressed CQs. */
	rz_attr(&a, RTE_MLX5CQ_PATH_VERBS, 15, 64);
	cq = rte_mlx5cq_create(z.dev, &a);
	TEST_ASSERT_NOT_NULL(cq, "verbs create: %d", rte_errno);
	TEST_CHECK(rz_refuse(&z, cq, 63, EOPNOTSUPP, "verbs CQ"));
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy");
	rz_attr(&a, RTE_MLX5CQ_PATH_DEVX, 15, 64);
	a.comp_mask |= RTE_MLX5CQ_ATTR_COMPRESSED;
	a.comp_format = RTE_MLX5CQ_COMP_HASH;
	cq = rte_mlx5cq_create(z.dev, &a);
	TEST_ASSERT_NOT_NULL(cq, "compressed create: %d", rte_errno);
	TEST_CHECK(rz_refuse(&z, cq, 63, EOPNOTSUPP, "compressed CQ"));
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy");
	TEST_CHECK(rz_close(&z));

	/* A device without HCA_CAP.cq_resize. */
	caps.cq_resize = 0;
	TEST_CHECK(rz_open(&z, "rznocap", &caps));
	rz_attr(&a, RTE_MLX5CQ_PATH_DEVX, 15, 64);
	cq = rte_mlx5cq_create(z.dev, &a);
	TEST_ASSERT_NOT_NULL(cq, "create: %d", rte_errno);
	TEST_CHECK(rz_refuse(&z, cq, 63, ENOSYS, "no cq_resize"));
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy");
	return rz_close(&z);
}

static int
test_resize_attached(void)
{
	struct mlx5_devx_cq_attr attr;
	struct mlx5dv_devx_uar *uar;
	struct mlx5_devx_cq dcq;
	struct rte_mlx5cq *cq;
	struct rz z;

	TEST_CHECK(rz_open(&z, "rzatt", NULL));
	uar = mlx5_glue->devx_alloc_uar(z.ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	TEST_ASSERT_NOT_NULL(uar, "uar");
	memset(&dcq, 0, sizeof(dcq));
	memset(&attr, 0, sizeof(attr));
	attr.uar_page_id = uar->page_id;
	TEST_ASSERT_SUCCESS(mlx5_devx_cq_create(z.ctx, &dcq, 6, &attr,
						SOCKET_ID_ANY), "dpdk cq");
	cq = rte_mlx5cq_attach(z.dev, &dcq, 6);
	TEST_ASSERT_NOT_NULL(cq, "attach: %d", rte_errno);
	TEST_CHECK(rz_refuse(&z, cq, 255, EOPNOTSUPP, "attached CQ"));
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "release");
	mlx5_devx_cq_destroy(&dcq);
	mlx5_glue->devx_free_uar(uar);
	return rz_close(&z);
}

static int
resize_setup(void)
{
	return mlx5_emu_install();
}

static struct unit_test_suite resize_suite = {
	.suite_name = "resize",
	.setup = resize_setup,
	.unit_test_cases = {
		TEST_CASE(test_resize_carry_64),
		TEST_CASE(test_resize_carry_128),
		TEST_CASE(test_resize_events),
		TEST_CASE(test_resize_refused),
		TEST_CASE(test_resize_attached),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(resize, resize_suite);
