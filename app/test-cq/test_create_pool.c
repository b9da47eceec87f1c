/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "create_pool": the doorbell-record pool (pages of cache-line slots
 * shared by CQs, one umem a page, first fit, pages returned) and rings in
 * hugepages (their own umem at offset 0, the kernel's best page size).
 */

#include "test_create_fixture.h"

/* ---- doorbell pool ------------------------------------------------------ */

#define POOL_CQS (DBR_PER_PAGE + 6) /* Two pages' worth. */

static int
test_dbr_pool(void)
{
	struct ibv_context *ctx;
	struct rte_mlx5cq_dev *dev;
	struct rte_mlx5cq *cqs[POOL_CQS];
	struct rte_mlx5cq_info info[POOL_CQS];
	struct rte_mlx5cq_dev_stats ds;
	struct mlx5_emu_cq_info fw0, fw;
	struct mlx5_emu_stats es0, es;
	struct rte_mlx5cq_attr a;
	volatile uint32_t *page0;
	struct snap s0, s1;
	unsigned int i;
	int ret = TEST_FAILED;

	memset(cqs, 0, sizeof(cqs));
	ctx = mlx5_emu_open("create_pool", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "emu open");
	dev = rte_mlx5cq_dev_open_ex(ctx, SOCKET_ID_ANY,
				     RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS);
	if (dev == NULL)
		goto out_ctx;
	if (snap_take(ctx, dev, &s0) || mlx5_emu_stats_get(ctx, &es0))
		goto out;
	for (i = 0; i < POOL_CQS; i++) {
		attr_init(&a, 8 + i, RTE_MLX5CQ_PATH_DEVX);
		cqs[i] = rte_mlx5cq_create(dev, &a);
		if (cqs[i] == NULL || rte_mlx5cq_info_get(cqs[i], &info[i])) {
			printf("  CQ %u: %d\n", i, rte_errno);
			goto out;
		}
	}
	rte_mlx5cq_dev_stats_get(dev, &ds);
	mlx5_emu_stats_get(ctx, &es);
	if (ds.cqs != POOL_CQS || ds.dbr_slots != POOL_CQS ||
	    ds.dbr_pages != 2 || ds.dbr_umems != 2 ||
	    ds.ring_umems != POOL_CQS) {
		printf("  stats: cqs %u slots %u pages %u umems %u rings %u\n",
		       ds.cqs, ds.dbr_slots, ds.dbr_pages, ds.dbr_umems,
		       ds.ring_umems);
		goto out;
	}
	/* One umem per ring plus one per doorbell page, not one per CQ. */
	if (es.umems != es0.umems + POOL_CQS + 2) {
		printf("  emu umems %u (was %u)\n", es.umems, es0.umems);
		goto out;
	}
	/* The first DBR_PER_PAGE records share a page, DBR_SLOT apart. */
	page0 = info[0].dbrec;
	if (((uintptr_t)page0 & 4095) != 0 ||
	    mlx5_emu_cq_query(ctx, info[0].cqn, &fw0))
		goto out;
	for (i = 0; i < POOL_CQS; i++) {
		if (mlx5_emu_cq_query(ctx, info[i].cqn, &fw))
			goto out;
		if (i < DBR_PER_PAGE &&
		    (info[i].dbrec != page0 + DBR_SLOT / 4 * i ||
		     fw.dbr_umem_id != fw0.dbr_umem_id ||
		     fw.dbr_offset != DBR_SLOT * i)) {
			printf("  CQ %u: record %p (page %p) umem %u off %"
			       PRIu64 "\n", i, (void *)(uintptr_t)info[i].dbrec,
			       (void *)(uintptr_t)page0, fw.dbr_umem_id,
			       fw.dbr_offset);
			goto out;
		}
		if (i >= DBR_PER_PAGE &&
		    (fw.dbr_umem_id == fw0.dbr_umem_id ||
		     fw.dbr_offset != DBR_SLOT * (i - DBR_PER_PAGE))) {
			printf("  CQ %u: second page umem %u off %" PRIu64
			       "\n", i, fw.dbr_umem_id, fw.dbr_offset);
			goto out;
		}
	}
	/* First fit: a freed slot is the next one handed out. */
	if (rte_mlx5cq_destroy(cqs[5]))
		goto out;
	attr_init(&a, 8, RTE_MLX5CQ_PATH_DEVX);
	cqs[5] = rte_mlx5cq_create(dev, &a);
	if (cqs[5] == NULL || rte_mlx5cq_info_get(cqs[5], &info[5]) ||
	    info[5].dbrec != page0 + DBR_SLOT / 4 * 5) {
		printf("  reused slot not first fit\n");
		goto out;
	}
	/* Emptying the second page returns it (and its umem). */
	for (i = DBR_PER_PAGE; i < POOL_CQS; i++) {
		if (rte_mlx5cq_destroy(cqs[i]))
			goto out;
		cqs[i] = NULL;
	}
	rte_mlx5cq_dev_stats_get(dev, &ds);
	mlx5_emu_stats_get(ctx, &es);
	if (ds.dbr_pages != 1 || ds.dbr_umems != 1 ||
	    ds.dbr_slots != DBR_PER_PAGE ||
	    es.umems != es0.umems + DBR_PER_PAGE + 1) {
		printf("  after page 2 emptied: pages %u umems %u slots %u"
		       " emu umems %u\n", ds.dbr_pages, ds.dbr_umems,
		       ds.dbr_slots, es.umems);
		goto out;
	}
	/* A full page then a free slot in it: no new page. */
	if (rte_mlx5cq_destroy(cqs[DBR_PER_PAGE - 1]))
		goto out;
	cqs[DBR_PER_PAGE - 1] = NULL;
	for (i = 0; i < DBR_PER_PAGE - 1; i++) {
		if (rte_mlx5cq_destroy(cqs[i]))
			goto out;
		cqs[i] = NULL;
	}
	if (snap_take(ctx, dev, &s1) || snap_same(&s0, &s1, "pool emptied"))
		goto out;
	ret = TEST_SUCCESS;
out:
	for (i = 0; i < POOL_CQS; i++)
		if (cqs[i] != NULL && rte_mlx5cq_destroy(cqs[i]))
			ret = TEST_FAILED;
	if (dev != NULL && rte_mlx5cq_dev_close(dev))
		ret = TEST_FAILED;
out_ctx:
	if (mlx5_emu_close(ctx))
		ret = TEST_FAILED;
	return ret;
}

/* ---- hugepage rings ----------------------------------------------------- */

static int
test_hugepage_ring(void)
{
	static const uint32_t sizes[] = { 63, 4095, 32767, 65535 };
	struct rte_mlx5cq_attr a;
	struct rte_mlx5cq_info info;
	struct mlx5_emu_umem_info um;
	struct mlx5_emu_cq_info fw;
	struct ring_umem ru;
	struct rte_mlx5cq *cq;
	uint64_t sys = (uint64_t)sysconf(_SC_PAGESIZE);
	unsigned int i;
	int huge = rte_eal_has_hugepages();

	for (i = 0; i < RTE_DIM(sizes); i++) {
		attr_init(&a, sizes[i], RTE_MLX5CQ_PATH_DEVX);
		cq = rte_mlx5cq_create(g_dev, &a);
		TEST_ASSERT_NOT_NULL(cq, "create: %d", rte_errno);
		TEST_ASSERT_SUCCESS(rte_mlx5cq_info_get(cq, &info), "info");
		TEST_ASSERT_SUCCESS(mlx5_emu_umem_query(g_ctx, info.umem_id,
							&um), "umem query");
		TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(g_ctx, info.cqn, &fw),
				    "cq query");
		expect_ring_umem(info.ring, info.ring_size, &ru);
		TEST_ASSERT_EQUAL(info.log_page_size, ru.log_page_size,
				  "log_page_size %u, expected %u",
				  info.log_page_size, ru.log_page_size);
		TEST_ASSERT_EQUAL(um.addr, ru.start, "umem addr");
		TEST_ASSERT_EQUAL(um.size, ru.len, "umem size");
		TEST_ASSERT_EQUAL(fw.cq_umem_offset, ru.offset, "umem offset");
		TEST_ASSERT_EQUAL(um.addr + fw.cq_umem_offset,
				  (uintptr_t)info.ring, "ring in umem");
		TEST_ASSERT_EQUAL(um.access, IBV_ACCESS_LOCAL_WRITE,
				  "umem access %#x", um.access);
		TEST_ASSERT_EQUAL(fw.cq_umem_offset, 0, "umem offset");
		TEST_ASSERT_EQUAL(fw.log_page_size, ru.log_page_size,
				  "firmware log_page_size");
		if (huge && rte_eal_iova_mode() == RTE_IOVA_PA) {
			uint64_t pg = info.ring_page_size;
			/* Ring aligned to its size up to 2 MiB: queue
			 * pages of min(ring size, 2 MiB).
			 */
			uint32_t want = ilog2(RTE_MIN((uint64_t)info.ring_size,
						      UINT64_C(1) << 21));

			TEST_ASSERT(info.ring_hugepage, "ring not in hugepage");
			TEST_ASSERT(pg >= (UINT64_C(1) << 21),
				    "ring page %" PRIu64, pg);
			if (want < 12)
				want = 12;
			TEST_ASSERT_EQUAL(ru.log_page_size, want - 12,
					  "log_page_size %u for %zu bytes",
					  ru.log_page_size, info.ring_size);
			/*
			 * The kernel's umem page: the ring's own size up to
			 * 2 MiB (a ring of one hugepage or less sits in one
			 * hugepage), at least 2 MiB above.
			 */
			if (info.ring_size <= (UINT64_C(1) << 21))
				TEST_ASSERT_EQUAL(um.page_shift, want,
						  "umem page_shift %u",
						  um.page_shift);
			else
				TEST_ASSERT(um.page_shift >= 21,
					    "umem page_shift %u",
					    um.page_shift);
			TEST_ASSERT_EQUAL(um.page_offset, 0, "umem page_offset");
		} else {
			TEST_ASSERT_EQUAL(ru.log_page_size, 0, "4 KiB pages");
			/* Memory outside DPDK's PA hugepages: the model
			 * reads frames from pagemap, which may happen to
			 * be contiguous.
			 */
			TEST_ASSERT(um.page_shift >= 12, "umem page_shift %u",
				    um.page_shift);
			if (!huge) {
				TEST_ASSERT(!info.ring_hugepage, "hugepage"
					    " without hugepages");
				TEST_ASSERT_EQUAL(info.ring_page_size, sys,
						  "ring page %" PRIu64,
						  info.ring_page_size);
			}
		}
		TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy");
	}
	return TEST_SUCCESS;
}

static struct unit_test_suite create_pool_suite = {
	.suite_name = "create_pool",
	.setup = create_fixture_setup,
	.teardown = create_fixture_teardown,
	.unit_test_cases = {
		TEST_CASE(test_dbr_pool),
		TEST_CASE(test_hugepage_ring),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(create_pool, create_pool_suite);
