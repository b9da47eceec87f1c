/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "dev_allocators": whose buffer allocators serve a context's verbs
 * rings while and after the library has it open.
 *
 * rdma-core keeps one MLX5DV_CTX_ATTR_BUF_ALLOCATORS pair per context,
 * set by mlx5dv_set_context_attr() and never readable back
 * (providers/mlx5/mlx5.c); the CQ ring and the doorbell-record page come
 * from it when set (providers/mlx5/buf.c mlx5_alloc_buf_extern(), cq.c
 * mlx5_alloc_cq_buf(), dbrec.c). rte_common_mlx5 installs its own on the
 * contexts it opens (mlx5_set_context_attr() in linux/mlx5_common_verbs.c).
 * The cases:
 * - an owner's allocators installed before rte_mlx5cq_dev_open() serve the
 *   owner's CQs and the library's verbs CQs while the device is open and
 *   the owner's CQs after it closed;
 * - a context handed over with RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS gets
 *   rte_malloc rings while open and rdma-core's own memory after close;
 * - without allocators and without the flag, verbs rings are rdma-core's
 *   memory, and rte_mlx5cq_info_get() says so;
 * - unknown open flags are refused with EINVAL and nothing allocated.
 */

#include <errno.h>
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
#include <rte_memory.h>

#include <mlx5_glue.h>

#include <rte_mlx5cq.h>
#include <mlx5_emu.h>

#include "test.h"
#include "test_usage.h"

#define OWNER_MAX 16

/* The context owner's allocator: page-aligned libc blocks it tracks. */
struct owner_alloc {
	unsigned int allocs;
	unsigned int frees;
	unsigned int nlive;
	void *live[OWNER_MAX];
};

static void *
owner_alloc_fn(size_t size, void *data)
{
	struct owner_alloc *o = data;
	void *p;

	o->allocs++;
	if (o->nlive == OWNER_MAX || posix_memalign(&p, 4096, size) != 0)
		return NULL;
	memset(p, 0, size);
	o->live[o->nlive++] = p;
	return p;
}

static void
owner_free_fn(void *ptr, void *data)
{
	struct owner_alloc *o = data;
	unsigned int i;

	o->frees++;
	for (i = 0; i < o->nlive; i++) {
		if (o->live[i] == ptr) {
			o->live[i] = o->live[--o->nlive];
			free(ptr);
			return;
		}
	}
	printf("  owner free of %p it never handed out\n", ptr);
}

/* The block of the owner's that contains addr, or -1. */
static int
owner_has(const struct owner_alloc *o, const void *addr)
{
	unsigned int i;

	for (i = 0; i < o->nlive; i++)
		if (o->live[i] == addr)
			return (int)i;
	return -1;
}

static int
owner_install(struct ibv_context *ctx, struct owner_alloc *o)
{
	struct mlx5dv_ctx_allocators a;

	memset(&a, 0, sizeof(a));
	a.alloc = owner_alloc_fn;
	a.free = owner_free_fn;
	a.data = o;
	return mlx5_glue->dv_set_context_attr(ctx,
					      MLX5DV_CTX_ATTR_BUF_ALLOCATORS,
					      &a);
}

static int
in_rte_memory(const void *p)
{
	return rte_mem_virt2memseg_list(p) != NULL;
}

/*
 * A CQ the context's owner makes itself, straight through the glue (as
 * rte_common_mlx5 does): its ring and doorbell record addresses.
 */
static int
owner_cq(struct ibv_context *ctx, void **ring, void **dbrec)
{
	struct ibv_cq_init_attr_ex ia;
	struct mlx5dv_cq_init_attr da;
	struct mlx5dv_obj obj;
	struct mlx5dv_cq dv;
	struct ibv_cq_ex *cq;
	int ret;

	memset(&ia, 0, sizeof(ia));
	memset(&da, 0, sizeof(da));
	ia.cqe = 63;
	da.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE;
	da.cqe_size = 64;
	cq = mlx5_glue->dv_create_cq(ctx, &ia, &da);
	TEST_ASSERT_NOT_NULL(cq, "owner's CQ: %s", strerror(errno));
	memset(&obj, 0, sizeof(obj));
	obj.cq.in = mlx5_glue->cq_ex_to_cq(cq);
	obj.cq.out = &dv;
	ret = mlx5_glue->dv_init_obj(&obj, MLX5DV_OBJ_CQ);
	*ring = dv.buf;
	*dbrec = (void *)(uintptr_t)dv.dbrec;
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_cq(obj.cq.in), "destroy");
	TEST_ASSERT_SUCCESS(ret, "dv_init_obj");
	return TEST_SUCCESS;
}

/* A verbs-path CQ of the library: its ring, record and info. */
static struct rte_mlx5cq *
lib_verbs_cq(struct rte_mlx5cq_dev *dev, struct rte_mlx5cq_info *info)
{
	struct rte_mlx5cq_attr a;
	struct rte_mlx5cq *cq;

	memset(&a, 0, sizeof(a));
	a.cqe = 255;
	a.socket = SOCKET_ID_ANY;
	a.path = RTE_MLX5CQ_PATH_VERBS;
	cq = rte_mlx5cq_create(dev, &a);
	if (cq == NULL) {
		printf("  verbs create: %s\n", rte_strerror(rte_errno));
		return NULL;
	}
	if (rte_mlx5cq_info_get(cq, info) != 0) {
		rte_mlx5cq_destroy(cq);
		return NULL;
	}
	return cq;
}

static int
test_owner_allocators_kept(void)
{
	struct rte_mlx5cq_info info;
	struct rte_mlx5cq_dev *dev;
	struct ibv_context *ctx;
	struct owner_alloc o;
	struct rte_mlx5cq *cq;
	void *ring, *dbrec;

	memset(&o, 0, sizeof(o));
	ctx = mlx5_emu_open("dalloc_owner", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "emu open: %d", errno);
	TEST_ASSERT_SUCCESS(owner_install(ctx, &o), "owner allocators");

	/* Before the library: the owner's blocks. */
	TEST_CHECK(owner_cq(ctx, &ring, &dbrec));
	TEST_ASSERT_EQUAL(o.allocs, 2, "ring + record page: %u", o.allocs);

	dev = rte_mlx5cq_dev_open(ctx, SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(dev, "dev_open: %s", rte_strerror(rte_errno));
	/* The library's verbs CQ uses the owner's allocator. */
	cq = lib_verbs_cq(dev, &info);
	TEST_ASSERT_NOT_NULL(cq, "library verbs CQ");
	TEST_ASSERT(owner_has(&o, info.ring) >= 0,
		    "library ring %p not the owner's block", info.ring);
	TEST_ASSERT(owner_has(&o, (void *)((uintptr_t)info.dbrec &
					    ~(uintptr_t)4095)) >= 0,
		    "library record %p not in the owner's page",
		    (volatile void *)info.dbrec);
	TEST_ASSERT_EQUAL(info.ring_hugepage, 0, "owner's libc ring is no "
			  "hugepage");
	TEST_ASSERT_EQUAL(o.allocs, 4, "owner allocs %u, expected 4", o.allocs);
	/* The owner's own CQ while the library has the device open. */
	TEST_CHECK(owner_cq(ctx, &ring, &dbrec));
	TEST_ASSERT_EQUAL(o.allocs, 5, "owner's CQ while open: allocs %u",
			  o.allocs);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_dev_close(dev), "dev_close");

	/* After close the owner's allocator still serves the context. */
	TEST_CHECK(owner_cq(ctx, &ring, &dbrec));
	TEST_ASSERT_EQUAL(o.allocs, 7, "owner's CQ after close: allocs %u",
			  o.allocs);
	TEST_ASSERT_EQUAL(o.nlive, 0, "owner blocks left: %u", o.nlive);
	TEST_ASSERT_EQUAL(o.allocs, o.frees, "allocs %u frees %u", o.allocs,
			  o.frees);
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "emu close");
	return TEST_SUCCESS;
}

static int
test_handed_over(void)
{
	struct rte_mlx5cq_info info;
	struct rte_mlx5cq_dev *dev;
	struct ibv_context *ctx;
	struct heap_use h0, h1;
	struct rte_mlx5cq *cq;
	void *ring, *dbrec;

	ctx = mlx5_emu_open("dalloc_handed", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "emu open: %d", errno);
	heap_use(&h0);
	dev = rte_mlx5cq_dev_open_ex(ctx, SOCKET_ID_ANY,
				     RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS);
	TEST_ASSERT_NOT_NULL(dev, "dev_open_ex: %s", rte_strerror(rte_errno));
	cq = lib_verbs_cq(dev, &info);
	TEST_ASSERT_NOT_NULL(cq, "library verbs CQ");
	TEST_ASSERT(in_rte_memory(info.ring), "ring %p outside rte_malloc",
		    info.ring);
	TEST_ASSERT(in_rte_memory((const void *)(uintptr_t)info.dbrec),
		    "record outside rte_malloc");
	TEST_ASSERT_EQUAL(info.ring_hugepage, rte_eal_has_hugepages(),
			  "ring_hugepage");
	/* Other CQs on the context too, while the device is open. */
	TEST_CHECK(owner_cq(ctx, &ring, &dbrec));
	TEST_ASSERT(in_rte_memory(ring), "other CQ's ring outside rte_malloc");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_dev_close(dev), "dev_close");
	heap_use(&h1);
	TEST_ASSERT_SUCCESS(heap_use_same(&h0, &h1, "open/close"), "leak");

	/* Removed on close: rdma-core's own memory again. */
	TEST_CHECK(owner_cq(ctx, &ring, &dbrec));
	TEST_ASSERT(!in_rte_memory(ring), "ring %p still from rte_malloc",
		    ring);
	TEST_ASSERT(!in_rte_memory(dbrec), "record still from rte_malloc");
	heap_use(&h1);
	TEST_ASSERT_SUCCESS(heap_use_same(&h0, &h1, "after close"), "leak");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "emu close");
	return TEST_SUCCESS;
}

static int
test_no_allocators(void)
{
	struct rte_mlx5cq_info info;
	struct rte_mlx5cq_dev *dev;
	struct ibv_context *ctx;
	struct rte_mlx5cq *cq;

	ctx = mlx5_emu_open("dalloc_none", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "emu open: %d", errno);
	dev = rte_mlx5cq_dev_open(ctx, SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(dev, "dev_open: %s", rte_strerror(rte_errno));
	cq = lib_verbs_cq(dev, &info);
	TEST_ASSERT_NOT_NULL(cq, "library verbs CQ");
	TEST_ASSERT(!in_rte_memory(info.ring), "ring %p from rte_malloc "
		    "without allocators", info.ring);
	TEST_ASSERT_EQUAL(info.ring_hugepage, 0, "ring_hugepage");
	TEST_ASSERT_EQUAL(info.ring_page_size, 4096, "ring_page_size %" PRIu64,
			  info.ring_page_size);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_dev_close(dev), "dev_close");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "emu close");
	return TEST_SUCCESS;
}

static int
test_open_flags_refused(void)
{
	struct mlx5_emu_stats s0, s1;
	struct ibv_context *ctx;
	struct heap_use h0, h1;
	struct owner_alloc o;
	void *ring, *dbrec;

	memset(&o, 0, sizeof(o));
	ctx = mlx5_emu_open("dalloc_flags", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "emu open: %d", errno);
	TEST_ASSERT_SUCCESS(owner_install(ctx, &o), "owner allocators");
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(ctx, &s0), "stats");
	heap_use(&h0);
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_mlx5cq_dev_open_ex(ctx, SOCKET_ID_ANY,
				RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS | 0x40),
			 "unknown flag accepted");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno %d", rte_errno);
	heap_use(&h1);
	TEST_ASSERT_SUCCESS(heap_use_same(&h0, &h1, "refused open"), "leak");
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(ctx, &s1), "stats");
	TEST_ASSERT_EQUAL(s1.cmds, s0.cmds, "commands sent");
	TEST_ASSERT_EQUAL(s1.uars, s0.uars, "UARs");
	/* The owner's allocators are untouched. */
	TEST_CHECK(owner_cq(ctx, &ring, &dbrec));
	TEST_ASSERT_EQUAL(o.allocs, 2, "owner allocs %u", o.allocs);
	TEST_ASSERT_EQUAL(o.nlive, 0, "owner blocks left: %u", o.nlive);
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "emu close");
	return TEST_SUCCESS;
}

static int
dev_allocators_setup(void)
{
	int ret = mlx5_emu_install();

	if (ret != 0)
		printf("mlx5_emu_install: %d\n", ret);
	return ret;
}

static struct unit_test_suite dev_allocators_suite = {
	.suite_name = "dev_allocators",
	.setup = dev_allocators_setup,
	.unit_test_cases = {
		TEST_CASE(test_owner_allocators_kept),
		TEST_CASE(test_handed_over),
		TEST_CASE(test_no_allocators),
		TEST_CASE(test_open_flags_refused),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(dev_allocators, dev_allocators_suite);
