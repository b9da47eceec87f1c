/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "create_failures": every injected failure (emulated device and the
 * library's own allocations) leaves rte_malloc, umems, objects, CQs and
 * doorbell slots exactly as before; invalid device opens; a device closed
 * while busy.
 */

#include "test_create_fixture.h"

/* ---- injected failures -------------------------------------------------- */

static int
expect_emu_fail(struct ibv_context *ctx, struct rte_mlx5cq_dev *dev,
		const struct rte_mlx5cq_attr *a, enum mlx5_emu_fail_point pt,
		uint32_t skip, const char *what)
{
	struct snap before, after;
	struct rte_mlx5cq *cq;

	TEST_CHECK(snap_take(ctx, dev, &before));
	mlx5_emu_fail_inject(ctx, pt, skip, 1);
	rte_errno = 0;
	cq = rte_mlx5cq_create(dev, a);
	mlx5_emu_fail_inject(ctx, pt, 0, 0);
	if (cq != NULL) {
		rte_mlx5cq_destroy(cq);
		printf("  %s: created despite the failure\n", what);
		return TEST_FAILED;
	}
	TEST_ASSERT(rte_errno != 0, "%s: rte_errno not set", what);
	TEST_CHECK(snap_take(ctx, dev, &after));
	TEST_CHECK(snap_same(&before, &after, what));
	/* And the same request works once the fault is gone. */
	cq = rte_mlx5cq_create(dev, a);
	TEST_ASSERT_NOT_NULL(cq, "%s: create after the fault: %d", what,
			     rte_errno);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy");
	TEST_CHECK(snap_take(ctx, dev, &after));
	return snap_same(&before, &after, what);
}

static int
test_fail_devx(void)
{
	struct ibv_context *ctx;
	struct rte_mlx5cq_dev *dev;
	struct rte_mlx5cq_attr a;
	uint8_t status = 0;
	uint32_t synd = 0;
	int ret = TEST_FAILED;

	/* A fresh device: its doorbell pool is empty. */
	ctx = mlx5_emu_open("create_fd", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "emu open");
	dev = rte_mlx5cq_dev_open_ex(ctx, SOCKET_ID_ANY,
				     RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS);
	if (dev == NULL)
		goto out_ctx;
	attr_init(&a, 500, RTE_MLX5CQ_PATH_DEVX);
	attr_cqe_size(&a, 128, 0);
	a.comp_vector = 1;
	/* Ring umem, then the doorbell page's umem. */
	if (expect_emu_fail(ctx, dev, &a, MLX5_EMU_FAIL_UMEM_REG, 0,
			    "ring umem reg") ||
	    expect_emu_fail(ctx, dev, &a, MLX5_EMU_FAIL_UMEM_REG, 1,
			    "dbr umem reg") ||
	    expect_emu_fail(ctx, dev, &a, MLX5_EMU_FAIL_QUERY_EQN, 0,
			    "query eqn") ||
	    expect_emu_fail(ctx, dev, &a, MLX5_EMU_FAIL_OBJ_CREATE, 0,
			    "obj create"))
		goto out;
	/* The firmware status of the refused CREATE_CQ is kept. */
	if (mlx5_emu_last_cmd_error(ctx, &status, &synd) || status == 0 ||
	    synd != MLX5_EMU_SYND_INJECTED) {
		printf("  last error status %#x syndrome %#x\n", status, synd);
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	if (rte_mlx5cq_dev_close(dev))
		ret = TEST_FAILED;
out_ctx:
	if (mlx5_emu_close(ctx))
		ret = TEST_FAILED;
	return ret;
}

static int
test_fail_verbs(void)
{
	struct rte_mlx5cq_attr a;

	attr_init(&a, 500, RTE_MLX5CQ_PATH_VERBS);
	return expect_emu_fail(g_ctx, g_dev, &a, MLX5_EMU_FAIL_VERBS_CQ, 0,
			       "verbs CQ");
}

/* The Nth library allocation fails, for every N of one creation. */
static int
fail_nth_create(struct ibv_context *ctx, struct rte_mlx5cq_dev *dev,
		const struct rte_mlx5cq_attr *a, uint32_t nallocs,
		const char *what)
{
	struct snap before, after;
	struct rte_mlx5cq *cq;
	uint32_t n;

	for (n = 1; n < 64; n++) {
		TEST_CHECK(snap_take(ctx, dev, &before));
		mlx5cq_mem_fail_inject(n);
		rte_errno = 0;
		cq = rte_mlx5cq_create(dev, a);
		if (cq != NULL) {
			int pending = mlx5cq_mem_fail_pending();

			mlx5cq_mem_fail_inject(0);
			TEST_ASSERT(pending, "%s: allocation %u failed but the"
				    " CQ was created", what, n);
			TEST_ASSERT_EQUAL(n - 1, nallocs, "%s: %u allocations,"
					  " expected %u", what, n - 1,
					  nallocs);
			TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy");
			TEST_CHECK(snap_take(ctx, dev, &after));
			return snap_same(&before, &after, what);
		}
		mlx5cq_mem_fail_inject(0);
		TEST_ASSERT_EQUAL(rte_errno, ENOMEM, "%s: allocation %u:"
				  " errno %d", what, n, rte_errno);
		TEST_CHECK(snap_take(ctx, dev, &after));
		if (snap_same(&before, &after, what)) {
			printf("  allocation %u\n", n);
			return TEST_FAILED;
		}
	}
	printf("  %s: still failing after %u allocations\n", what, n);
	return TEST_FAILED;
}

static int
test_fail_malloc(void)
{
	struct ibv_context *ctx;
	struct rte_mlx5cq_dev *dev;
	struct rte_mlx5cq_attr a;
	int ret = TEST_FAILED;

	ctx = mlx5_emu_open("create_fm", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "emu open");
	dev = rte_mlx5cq_dev_open_ex(ctx, SOCKET_ID_ANY,
				     RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS);
	if (dev == NULL)
		goto out_ctx;
	/* DevX with an empty pool: handle, ring, page descriptor, page. */
	attr_init(&a, 300, RTE_MLX5CQ_PATH_DEVX);
	if (fail_nth_create(ctx, dev, &a, 4, "devx"))
		goto out;
	/* Verbs: handle, ring and record page through the allocator. */
	attr_init(&a, 300, RTE_MLX5CQ_PATH_VERBS);
	if (fail_nth_create(ctx, dev, &a, 3, "verbs"))
		goto out;
	ret = TEST_SUCCESS;
out:
	if (rte_mlx5cq_dev_close(dev))
		ret = TEST_FAILED;
out_ctx:
	if (mlx5_emu_close(ctx))
		ret = TEST_FAILED;
	return ret;
}

static int
test_fail_dev_open(void)
{
	struct ibv_context *ctx;
	struct rte_mlx5cq_dev *dev;
	struct snap before, after;
	struct mlx5_emu_stats es;
	uint32_t n;
	int ret = TEST_FAILED;

	ctx = mlx5_emu_open("create_fo", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "emu open");
	/* UAR: one failure falls back to the other mapping type. */
	if (snap_take(ctx, NULL, &before))
		goto out_ctx;
	mlx5_emu_fail_inject(ctx, MLX5_EMU_FAIL_UAR_ALLOC, 0, 1);
	dev = rte_mlx5cq_dev_open_ex(ctx, SOCKET_ID_ANY,
				     RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS);
	mlx5_emu_fail_inject(ctx, MLX5_EMU_FAIL_UAR_ALLOC, 0, 0);
	if (dev == NULL) {
		printf("  no fallback after one UAR failure: %d\n", rte_errno);
		goto out_ctx;
	}
	if (mlx5_emu_stats_get(ctx, &es) || es.uars != before.emu.uars + 1) {
		printf("  uars %u\n", es.uars);
		rte_mlx5cq_dev_close(dev);
		goto out_ctx;
	}
	if (rte_mlx5cq_dev_close(dev))
		goto out_ctx;
	/* Both mapping types refused: open fails, nothing left. */
	mlx5_emu_fail_inject(ctx, MLX5_EMU_FAIL_UAR_ALLOC, 0, 2);
	rte_errno = 0;
	dev = rte_mlx5cq_dev_open_ex(ctx, SOCKET_ID_ANY,
				     RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS);
	mlx5_emu_fail_inject(ctx, MLX5_EMU_FAIL_UAR_ALLOC, 0, 0);
	if (dev != NULL || rte_errno == 0) {
		printf("  open with no UAR: %p errno %d\n", (void *)dev,
		       rte_errno);
		if (dev != NULL)
			rte_mlx5cq_dev_close(dev);
		goto out_ctx;
	}
	if (snap_take(ctx, NULL, &after) ||
	    snap_same(&before, &after, "UAR failure"))
		goto out_ctx;
	/* Every library allocation of open. */
	for (n = 1; n < 32; n++) {
		mlx5cq_mem_fail_inject(n);
		rte_errno = 0;
		dev = rte_mlx5cq_dev_open_ex(ctx, SOCKET_ID_ANY,
				     RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS);
		if (dev != NULL) {
			int pending = mlx5cq_mem_fail_pending();

			mlx5cq_mem_fail_inject(0);
			if (!pending || rte_mlx5cq_dev_close(dev)) {
				printf("  allocation %u: opened anyway\n", n);
				goto out_ctx;
			}
			break;
		}
		mlx5cq_mem_fail_inject(0);
		if (rte_errno != ENOMEM) {
			printf("  allocation %u: errno %d\n", n, rte_errno);
			goto out_ctx;
		}
		if (snap_take(ctx, NULL, &after) ||
		    snap_same(&before, &after, "open allocation failure"))
			goto out_ctx;
	}
	/* The device and the HCA attribute buffer. */
	if (n - 1 != 2) {
		printf("  open: %u allocations, expected 2\n", n - 1);
		goto out_ctx;
	}
	if (snap_take(ctx, NULL, &after) ||
	    snap_same(&before, &after, "open+close"))
		goto out_ctx;
	ret = TEST_SUCCESS;
out_ctx:
	if (mlx5_emu_close(ctx))
		ret = TEST_FAILED;
	return ret;
}

static int
test_dev_open_invalid(void)
{
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_mlx5cq_dev_open(NULL, SOCKET_ID_ANY), "NULL ctx");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "NULL ctx errno %d", rte_errno);
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_mlx5cq_dev_open(g_ctx, RTE_MAX_NUMA_NODES + 3),
			 "bad socket");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "bad socket errno %d", rte_errno);
	rte_errno = 0;
	TEST_ASSERT_EQUAL(rte_mlx5cq_dev_close(NULL), -EINVAL, "close NULL");
	TEST_ASSERT_EQUAL(rte_mlx5cq_dev_stats_get(g_dev, NULL), -EINVAL,
			  "stats NULL");
	return TEST_SUCCESS;
}

/* ---- close while busy --------------------------------------------------- */

static int
test_dev_close_busy(void)
{
	struct ibv_context *ctx;
	struct rte_mlx5cq_dev *dev;
	struct rte_mlx5cq_attr a;
	struct rte_mlx5cq *c1, *c2;
	struct snap s0, s1;

	ctx = mlx5_emu_open("create_busy", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "emu open");
	TEST_CHECK(snap_take(ctx, NULL, &s0));
	dev = rte_mlx5cq_dev_open_ex(ctx, SOCKET_ID_ANY,
				     RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS);
	TEST_ASSERT_NOT_NULL(dev, "dev_open: %d", rte_errno);
	attr_init(&a, 10, RTE_MLX5CQ_PATH_DEVX);
	c1 = rte_mlx5cq_create(dev, &a);
	attr_init(&a, 10, RTE_MLX5CQ_PATH_VERBS);
	c2 = rte_mlx5cq_create(dev, &a);
	TEST_ASSERT(c1 != NULL && c2 != NULL, "create: %d", rte_errno);
	rte_errno = 0;
	TEST_ASSERT_EQUAL(rte_mlx5cq_dev_close(dev), -EBUSY, "close busy");
	TEST_ASSERT_EQUAL(rte_errno, EBUSY, "errno %d", rte_errno);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(c1), "destroy");
	TEST_ASSERT_EQUAL(rte_mlx5cq_dev_close(dev), -EBUSY, "close busy 2");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(c2), "destroy");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_dev_close(dev), "close");
	TEST_CHECK(snap_take(ctx, NULL, &s1));
	TEST_CHECK(snap_same(&s0, &s1, "open..close"));
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "emu close");
	return TEST_SUCCESS;
}

static struct unit_test_suite create_failures_suite = {
	.suite_name = "create_failures",
	.setup = create_fixture_setup,
	.teardown = create_fixture_teardown,
	.unit_test_cases = {
		TEST_CASE(test_fail_devx),
		TEST_CASE(test_fail_verbs),
		TEST_CASE(test_fail_malloc),
		TEST_CASE(test_fail_dev_open),
		TEST_CASE(test_dev_open_invalid),
		TEST_CASE(test_dev_close_busy),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(create_failures, create_failures_suite);
