/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_verbs_dbr": the verbs path's doorbell records (rdma-core
 * dbrec.c: pages of cache-line slots, from the external allocator when one
 * is set), external buffer allocators (mlx5dv_ctx_allocators: what the
 * provider allocates through them and frees), and fault injection on
 * creation; every failure checked for leaks. Fixture:
 * test_emu_verbs_fixture.c.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>
#include <rte_bitops.h>
#include <rte_common.h>

#include <mlx5_glue.h>

#include <mlx5_emu.h>

#include "test.h"
#include "test_emu_verbs_fixture.h"

/* ---- doorbell records ------------------------------------------------ */

static volatile uint32_t *
dbrec_of(struct ibv_cq_ex *cq)
{
	struct mlx5dv_cq out;

	if (ev_dv_cq(cq, &out) != 0)
		return NULL;
	return (volatile uint32_t *)out.dbrec;
}

static int
expect_dbr(struct ibv_context *ctx, uint32_t pages, uint32_t slots)
{
	struct mlx5_emu_stats st;

	TEST_ASSERT_SUCCESS(ev_stats(ctx, &st), "stats");
	TEST_ASSERT_EQUAL(st.dbr_pages, pages, "dbr_pages %u, want %u",
			  st.dbr_pages, pages);
	TEST_ASSERT_EQUAL(st.dbr_slots, slots, "dbr_slots %u, want %u",
			  st.dbr_slots, slots);
	return TEST_SUCCESS;
}

/*
 * rdma-core dbrec.c: records are cache-line slots of page_size pages,
 * first free slot first; a page comes from the external allocator when
 * one is set and goes back through its free() with its last slot.
 */
static int
test_dbrec_ext_pages(void)
{
	struct ibv_context *ctx;
	struct ibv_cq_ex *cq[4];
	volatile uint32_t *db[4];
	uint8_t *page;
	struct cnt_alloc c;
	unsigned int i;

	ctx = ev_open_dev(NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	memset(&c, 0, sizeof(c));
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, &c), "allocators");
	for (i = 0; i < 3; i++) {
		cq[i] = ev_create_n(ctx, 255);
		TEST_ASSERT_NOT_NULL(cq[i], "create: %s", strerror(errno));
		db[i] = dbrec_of(cq[i]);
		TEST_ASSERT_NOT_NULL(db[i], "dbrec");
	}
	/* Calls: ring (256 x 64 B), record page, ring, ring. */
	TEST_ASSERT_EQUAL(c.allocs, 4, "allocs %u", c.allocs);
	TEST_ASSERT_EQUAL(c.sizes[0], 16384, "ring size %zu", c.sizes[0]);
	TEST_ASSERT_EQUAL(c.sizes[1], PAGE_SZ, "page size %zu", c.sizes[1]);
	TEST_ASSERT_EQUAL(c.sizes[2], 16384, "ring size %zu", c.sizes[2]);
	TEST_ASSERT_EQUAL(c.sizes[3], 16384, "ring size %zu", c.sizes[3]);
	page = c.ptrs[1];
	for (i = 0; i < 3; i++)
		TEST_ASSERT(db[i] == (volatile uint32_t *)(page +
							   i * DBR_STRIDE),
			    "record %u at %p, want page %p + %u", i,
			    (void *)(uintptr_t)db[i], (void *)page,
			    i * DBR_STRIDE);
	TEST_CHECK(expect_dbr(ctx, 1, 3));
	/* Freeing the middle slot, then reusing it (first fit). */
	TEST_ASSERT_SUCCESS(ev_destroy(cq[1]), "destroy");
	TEST_ASSERT_EQUAL(c.frees, 1, "frees %u (the ring only)", c.frees);
	TEST_CHECK(expect_dbr(ctx, 1, 2));
	cq[3] = ev_create_n(ctx, 255);
	TEST_ASSERT_NOT_NULL(cq[3], "create: %s", strerror(errno));
	db[3] = dbrec_of(cq[3]);
	TEST_ASSERT(db[3] == db[1], "reused slot %p, want %p",
		    (void *)(uintptr_t)db[3], (void *)(uintptr_t)db[1]);
	TEST_ASSERT_EQUAL(c.allocs, 5, "allocs %u (a ring, no page)",
			  c.allocs);
	TEST_CHECK(expect_dbr(ctx, 1, 3));
	TEST_ASSERT_SUCCESS(ev_destroy(cq[0]), "destroy");
	TEST_ASSERT_SUCCESS(ev_destroy(cq[2]), "destroy");
	TEST_ASSERT_EQUAL(c.frees, 3, "frees %u", c.frees);
	TEST_CHECK(expect_dbr(ctx, 1, 1));
	TEST_ASSERT_SUCCESS(ev_destroy(cq[3]), "destroy");
	/* The last slot took the page with it. */
	TEST_ASSERT_EQUAL(c.frees, 5, "frees %u (ring + page)", c.frees);
	TEST_ASSERT_EQUAL(c.nlive, 0, "blocks left %u", c.nlive);
	TEST_ASSERT_EQUAL(c.bad_frees, 0, "bad frees");
	TEST_CHECK(expect_dbr(ctx, 0, 0));
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, NULL), "allocators off");
	TEST_CHECK(ev_close_dev(ctx));
	return TEST_SUCCESS;
}

/*
 * More CQs than slots in a page: a second page; rdma-core keeps pages
 * with free slots in a list whose head is served first: a new page, and a
 * full page that gets a slot back, go to the head.
 */
static int
test_dbrec_many_pages(void)
{
	const unsigned int n = SLOTS_PER_PAGE + 1;
	struct ibv_cq_ex *cq[SLOTS_MAX + 3];
	volatile uint32_t *db[SLOTS_MAX + 3];
	struct ibv_context *ctx;
	uintptr_t a, b;
	unsigned int i;

	ctx = ev_open_dev(NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	for (i = 0; i < n; i++) {
		cq[i] = ev_create_n(ctx, 1);
		TEST_ASSERT_NOT_NULL(cq[i], "create %u: %s", i,
				     strerror(errno));
		db[i] = dbrec_of(cq[i]);
		TEST_ASSERT_NOT_NULL(db[i], "dbrec");
	}
	a = (uintptr_t)db[0];
	TEST_ASSERT_EQUAL(a % PAGE_SZ, 0, "first record not at a page start");
	for (i = 0; i < SLOTS_PER_PAGE; i++)
		TEST_ASSERT_EQUAL((uintptr_t)db[i], a + i * DBR_STRIDE,
				  "record %u off by %" PRIdPTR, i,
				  (intptr_t)((uintptr_t)db[i] -
					     (a + i * DBR_STRIDE)));
	b = (uintptr_t)db[SLOTS_PER_PAGE];
	TEST_ASSERT_EQUAL(b % PAGE_SZ, 0, "second page record offset");
	TEST_ASSERT_NOT_EQUAL(a, b, "one page for %u records", n);
	TEST_CHECK(expect_dbr(ctx, 2, n));
	/* The first page gets slot 10 back and goes to the head. */
	TEST_ASSERT_SUCCESS(ev_destroy(cq[10]), "destroy");
	TEST_CHECK(expect_dbr(ctx, 2, n - 1));
	cq[10] = ev_create_n(ctx, 1);
	TEST_ASSERT_NOT_NULL(cq[10], "create: %s", strerror(errno));
	db[10] = dbrec_of(cq[10]);
	TEST_ASSERT_EQUAL((uintptr_t)db[10], a + 10 * DBR_STRIDE,
			  "slot 10 of the first page not reused");
	/* Full again: the next record is the second page's slot 1. */
	cq[n] = ev_create_n(ctx, 1);
	TEST_ASSERT_NOT_NULL(cq[n], "create: %s", strerror(errno));
	db[n] = dbrec_of(cq[n]);
	TEST_ASSERT_EQUAL((uintptr_t)db[n], b + DBR_STRIDE,
			  "second page slot 1 expected");
	TEST_CHECK(expect_dbr(ctx, 2, n + 1));
	/* Emptying the second page returns it. */
	TEST_ASSERT_SUCCESS(ev_destroy(cq[SLOTS_PER_PAGE]), "destroy");
	TEST_CHECK(expect_dbr(ctx, 2, n));
	TEST_ASSERT_SUCCESS(ev_destroy(cq[n]), "destroy");
	TEST_CHECK(expect_dbr(ctx, 1, SLOTS_PER_PAGE));
	for (i = 0; i < SLOTS_PER_PAGE; i++)
		TEST_ASSERT_SUCCESS(ev_destroy(cq[i]), "destroy %u", i);
	TEST_CHECK(expect_dbr(ctx, 0, 0));
	TEST_CHECK(ev_close_dev(ctx));
	return TEST_SUCCESS;
}

/* ---- external allocators --------------------------------------------- */

static int
test_ext_alloc(void)
{
	struct mlx5dv_ctx_allocators half;
	struct mlx5dv_cq_init_attr dv;
	struct ibv_cq_init_attr_ex a;
	struct ibv_context *ctx;
	struct mlx5dv_cq out;
	struct ibv_cq_ex *cq, *cq2;
	struct cnt_alloc c;
	int ret;

	ctx = ev_open_dev(NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	memset(&half, 0, sizeof(half));
	/* Only other attribute types: rdma-core answers ENOTSUP. */
	ret = mlx5_glue->dv_set_context_attr(ctx,
			(enum mlx5dv_set_ctx_attr_type)2, &half);
	TEST_ASSERT_EQUAL(ret, ENOTSUP, "type 2: %d", ret);

	/* Without free() the allocators are not used (rdma-core buf.c). */
	memset(&c, 0, sizeof(c));
	memset(&half, 0, sizeof(half));
	half.alloc = ev_cnt_alloc_fn;
	half.data = &c;
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_set_context_attr(ctx,
			    MLX5DV_CTX_ATTR_BUF_ALLOCATORS, &half), "set");
	cq = ev_create_n(ctx, 63);
	TEST_ASSERT_NOT_NULL(cq, "create: %s", strerror(errno));
	TEST_ASSERT_EQUAL(c.allocs, 0, "alloc without free used");
	TEST_ASSERT_SUCCESS(ev_destroy(cq), "destroy");

	/* The ring comes from the allocator: align(entries * size, page). */
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, &c), "allocators");
	ev_cq_attr_init(&a, 255);
	memset(&dv, 0, sizeof(dv));
	dv.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE;
	dv.cqe_size = 128;
	cq = ev_create(ctx, &a, &dv);
	TEST_ASSERT_NOT_NULL(cq, "create: %s", strerror(errno));
	TEST_ASSERT_SUCCESS(ev_dv_cq(cq, &out), "init_obj");
	TEST_ASSERT_EQUAL(c.allocs, 2, "allocs %u", c.allocs);
	TEST_ASSERT_EQUAL(c.sizes[0], 32768, "ring size %zu", c.sizes[0]);
	TEST_ASSERT(out.buf == c.ptrs[0], "ring not the allocator's block");
	TEST_ASSERT(out.dbrec == c.ptrs[1], "record not at the page start");
	cq2 = ev_create_n(ctx, 1);
	TEST_ASSERT_NOT_NULL(cq2, "create: %s", strerror(errno));
	TEST_ASSERT_EQUAL(c.sizes[2], PAGE_SZ, "2-entry ring size %zu",
			  c.sizes[2]);
	/* The page exists: a failing page allocation is never asked for. */
	TEST_ASSERT_SUCCESS(ev_destroy(cq), "destroy");
	c.fail_at = c.allocs + 2;
	cq = ev_create_n(ctx, 7);
	TEST_ASSERT_NOT_NULL(cq, "create with a page: %s", strerror(errno));
	TEST_ASSERT_SUCCESS(ev_destroy(cq), "destroy");
	TEST_ASSERT_SUCCESS(ev_destroy(cq2), "destroy");
	TEST_ASSERT_EQUAL(c.nlive, 0, "blocks left %u", c.nlive);
	TEST_ASSERT_EQUAL(c.allocs, c.frees, "allocs %u frees %u", c.allocs,
			  c.frees);

	/* The ring allocation fails: ENOMEM, nothing else asked for. */
	memset(&c, 0, sizeof(c));
	c.fail_at = 1;
	ev_cq_attr_init(&a, 63);
	TEST_CHECK(ev_expect_fail(ctx, &a, NULL, ENOMEM, &c, "ring alloc fails"));
	TEST_ASSERT_EQUAL(c.allocs, 1, "allocs %u", c.allocs);
	TEST_ASSERT_EQUAL(c.frees, 0, "frees %u", c.frees);
	/* The record page allocation fails: the ring goes back. */
	memset(&c, 0, sizeof(c));
	c.fail_at = 2;
	TEST_CHECK(ev_expect_fail(ctx, &a, NULL, ENOMEM, &c, "page alloc fails"));
	TEST_ASSERT_EQUAL(c.allocs, 2, "allocs %u", c.allocs);
	TEST_ASSERT_EQUAL(c.frees, 1, "frees %u", c.frees);
	/* A ring not at a page start: the kernel refuses (EINVAL). */
	memset(&c, 0, sizeof(c));
	c.misalign = 1;
	TEST_CHECK(ev_expect_fail(ctx, &a, NULL, EINVAL, &c, "misaligned ring"));
	TEST_ASSERT_EQUAL(c.allocs, 2, "allocs %u", c.allocs);
	TEST_ASSERT_EQUAL(c.frees, 2, "frees %u", c.frees);
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, NULL), "allocators off");
	TEST_CHECK(ev_close_dev(ctx));
	return TEST_SUCCESS;
}

/* ---- fault injection ------------------------------------------------- */

static int
test_fault(void)
{
	struct ibv_cq_init_attr_ex a;
	struct ibv_context *ctx;
	struct ibv_cq_ex *cq;
	struct cnt_alloc c;

	ctx = ev_open_dev(NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	memset(&c, 0, sizeof(c));
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, &c), "allocators");
	ev_cq_attr_init(&a, 31);
	mlx5_emu_fail_inject(ctx, MLX5_EMU_FAIL_VERBS_CQ, 0, 1);
	TEST_CHECK(ev_expect_fail(ctx, &a, NULL, ENOMEM, &c, "injected"));
	TEST_ASSERT_EQUAL(c.allocs, 2, "allocs %u", c.allocs);
	cq = ev_create(ctx, &a, NULL);
	TEST_ASSERT_NOT_NULL(cq, "after the fault: %s", strerror(errno));
	TEST_ASSERT_SUCCESS(ev_destroy(cq), "destroy");
	mlx5_emu_fail_inject(ctx, MLX5_EMU_FAIL_VERBS_CQ, 1, 1);
	cq = ev_create(ctx, &a, NULL);
	TEST_ASSERT_NOT_NULL(cq, "skipped call: %s", strerror(errno));
	TEST_CHECK(ev_expect_fail(ctx, &a, NULL, ENOMEM, &c, "second call"));
	TEST_ASSERT_SUCCESS(ev_destroy(cq), "destroy");
	TEST_ASSERT_EQUAL(c.nlive, 0, "blocks left %u", c.nlive);
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, NULL), "allocators off");
	TEST_CHECK(ev_close_dev(ctx));
	return TEST_SUCCESS;
}

static struct unit_test_suite emu_verbs_dbr_suite = {
	.suite_name = "emu_verbs_dbr",
	.setup = ev_suite_setup,
	.teardown = ev_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_dbrec_ext_pages),
		TEST_CASE(test_dbrec_many_pages),
		TEST_CASE(test_ext_alloc),
		TEST_CASE(test_fault),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(emu_verbs_dbr, emu_verbs_dbr_suite);
