/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_glue": the dispatching glue table with what the model does
 * not know. On this machine rdma-core lists no RDMA device (the suite
 * checks that first, through the table the model wraps), so a context or
 * object that is not the model's cannot be a real one: every entry refuses
 * it with EINVAL (rdma-core's own mlx5dv_devx_obj_destroy() would read
 * the object's context and crash). And mlx5_emu_install() does not wrap a
 * table pointed at after it: that table may forward to the model's.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include <mlx5_glue.h>

#include <mlx5_emu.h>

#include "test.h"

/* Not an object of anyone's: what a caller's stale or stray pointer is. */
static uint64_t stray[64];

static int
glue_setup(void)
{
	return mlx5_emu_install() == 0 ? 0 : -1;
}

/* The premise of the rule: no RDMA device on this machine. */
static int
no_rdma_device(void)
{
	struct ibv_device **list;
	int n = -1;

	list = ibv_get_device_list(&n);
	if (list != NULL)
		ibv_free_device_list(list);
	return n == 0;
}

static int
test_glue_foreign_refused(void)
{
	struct mlx5dv_devx_obj *obj = (void *)stray;
	struct ibv_context *ctx = (void *)stray;
	uint32_t in[4] = { 0 }, out[4] = { 0 };
	uint32_t eqn = 0;
	unsigned int i;
	int ret;

	if (!no_rdma_device()) {
		printf("  an RDMA device is present: foreign pointers may be "
		       "real, nothing to check\n");
		return TEST_SKIPPED;
	}
	memset(stray, 0xa5, sizeof(stray));
	errno = 0;
	ret = mlx5_glue->devx_obj_destroy(obj);
	TEST_ASSERT_EQUAL(ret, EINVAL, "devx_obj_destroy: %d", ret);
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno %d", errno);
	ret = mlx5_glue->devx_obj_query(obj, in, sizeof(in), out, sizeof(out));
	TEST_ASSERT_EQUAL(ret, EINVAL, "devx_obj_query: %d", ret);
	ret = mlx5_glue->devx_obj_modify(obj, in, sizeof(in), out,
					 sizeof(out));
	TEST_ASSERT_EQUAL(ret, EINVAL, "devx_obj_modify: %d", ret);
	ret = mlx5_glue->devx_umem_dereg((void *)stray);
	TEST_ASSERT_EQUAL(ret, EINVAL, "devx_umem_dereg: %d", ret);
	ret = mlx5_glue->dealloc_pd((void *)stray);
	TEST_ASSERT_EQUAL(ret, EINVAL, "dealloc_pd: %d", ret);
	ret = mlx5_glue->destroy_cq((void *)stray);
	TEST_ASSERT_EQUAL(ret, EINVAL, "destroy_cq: %d", ret);
	ret = mlx5_glue->dereg_mr((void *)stray);
	TEST_ASSERT_EQUAL(ret, EINVAL, "dereg_mr: %d", ret);
	ret = mlx5_glue->devx_query_eqn(ctx, 0, &eqn);
	TEST_ASSERT_EQUAL(ret, EINVAL, "devx_query_eqn: %d", ret);
	ret = mlx5_glue->close_device(ctx);
	TEST_ASSERT_EQUAL(ret, EINVAL, "close_device: %d", ret);
	errno = 0;
	TEST_ASSERT_NULL(mlx5_glue->alloc_pd(ctx), "alloc_pd");
	TEST_ASSERT_EQUAL(errno, EINVAL, "alloc_pd errno %d", errno);
	errno = 0;
	TEST_ASSERT_NULL(mlx5_glue->devx_obj_create(ctx, in, sizeof(in), out,
						    sizeof(out)),
			 "devx_obj_create");
	TEST_ASSERT_EQUAL(errno, EINVAL, "devx_obj_create errno %d", errno);
	errno = 0;
	mlx5_glue->devx_free_uar((void *)stray);
	TEST_ASSERT_EQUAL(errno, EINVAL, "devx_free_uar errno %d", errno);
	/* Nothing was written through the stray pointer. */
	for (i = 0; i < RTE_DIM(stray); i++)
		TEST_ASSERT_EQUAL(stray[i], UINT64_C(0xa5a5a5a5a5a5a5a5),
				  "stray word %u written", i);
	return TEST_SUCCESS;
}

static int
test_glue_install_twice(void)
{
	const struct mlx5_glue *model = mlx5_glue;
	struct mlx5_glue other;
	int ret, replaced;

	/* Installed: a second call keeps the model's table. */
	TEST_ASSERT_SUCCESS(mlx5_emu_install(), "install again");
	TEST_ASSERT(mlx5_glue == model, "table changed");
	/* Pointed at another table (which may forward to the model's): the
	 * model does not wrap it.
	 */
	memcpy(&other, model, sizeof(other));
	mlx5_glue = &other;
	ret = mlx5_emu_install();
	replaced = mlx5_glue != &other;
	mlx5_glue = model;
	TEST_ASSERT_EQUAL(ret, -EEXIST, "install over another table: %d", ret);
	TEST_ASSERT(!replaced, "another table replaced");
	TEST_ASSERT_SUCCESS(mlx5_emu_install(), "install on the model's");
	TEST_ASSERT(mlx5_glue == model, "table changed");
	return TEST_SUCCESS;
}

static struct unit_test_suite emu_glue_suite = {
	.suite_name = "emu_glue",
	.setup = glue_setup,
	.unit_test_cases = {
		TEST_CASE(test_glue_foreign_refused),
		TEST_CASE(test_glue_install_twice),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(emu_glue, emu_glue_suite);
