/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_uar": the emulated device's UAR pages are reachable through
 * the context's cmd_fd at their mmap offset, as a real device's are (the
 * kernel's mlx5_ib_mmap(); rdma-core maps a DevX UAR with
 * mmap(cmd_fd, mmap_off), and DPDK's mlx5_tx_uar_init_secondary() maps
 * it so in a secondary process). A second mapping, as a secondary process
 * makes, is the same page: what one side writes the other reads. Each UAR
 * is a page of its own, and a freed UAR's page is given back (a hole: it
 * reads zeroes).
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include <mlx5_glue.h>

#include <mlx5_emu.h>

#include "test.h"

#define UAR_PAGE 4096u
#define UAR_BF 0x800u /* BlueFlame register: the send doorbell. */
#define UAR_CQ_DB 0x20u /* CQ arm doorbell. */

static struct ibv_context *uar_ctx;

static int
uar_setup(void)
{
	if (mlx5_emu_install() != 0)
		return -1;
	uar_ctx = mlx5_emu_open("emu_uar0", NULL);
	return uar_ctx == NULL ? -1 : 0;
}

static void
uar_teardown(void)
{
	if (uar_ctx != NULL)
		mlx5_emu_close(uar_ctx);
	uar_ctx = NULL;
}

static volatile uint64_t *
word(void *page, unsigned int off)
{
	return (volatile uint64_t *)((uint8_t *)page + off);
}

/* A second mapping (a secondary process's) is the UAR's page. */
static int
test_uar_second_mapping(void)
{
	struct mlx5dv_devx_uar *a, *b;
	struct mlx5_emu_stats st;
	void *ma, *mb;

	a = mlx5_glue->devx_alloc_uar(uar_ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	TEST_ASSERT_NOT_NULL(a, "alloc_uar: %s", strerror(errno));
	b = mlx5_glue->devx_alloc_uar(uar_ctx, MLX5DV_UAR_ALLOC_TYPE_BF);
	TEST_ASSERT_NOT_NULL(b, "alloc_uar: %s", strerror(errno));
	/* The offset names the page: page_id pages into the fd. */
	TEST_ASSERT_EQUAL((uint64_t)a->mmap_off,
			  (uint64_t)a->page_id * UAR_PAGE,
			  "mmap_off 0x%jx, page_id 0x%x",
			  (uintmax_t)a->mmap_off, a->page_id);
	TEST_ASSERT(a->page_id != b->page_id, "one page id for two UARs");
	TEST_ASSERT(a->reg_addr == (uint8_t *)a->base_addr + UAR_BF,
		    "reg_addr not the BlueFlame half");
	ma = mmap(NULL, UAR_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED,
		  uar_ctx->cmd_fd, a->mmap_off);
	TEST_ASSERT(ma != MAP_FAILED, "mmap a: %s", strerror(errno));
	mb = mmap(NULL, UAR_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED,
		  uar_ctx->cmd_fd, b->mmap_off);
	TEST_ASSERT(mb != MAP_FAILED, "mmap b: %s", strerror(errno));
	TEST_ASSERT(ma != a->base_addr, "the same address: no second map");
	/* The second mapping's doorbell is read at the first one's. */
	*word(ma, UAR_BF) = UINT64_C(0x0123456789abcdef);
	TEST_ASSERT_EQUAL(*word(a->reg_addr, 0),
			  UINT64_C(0x0123456789abcdef), "BF word 0x%jx",
			  (uintmax_t)*word(a->reg_addr, 0));
	*word(a->base_addr, UAR_CQ_DB) = UINT64_C(0xfeedface00000007);
	TEST_ASSERT_EQUAL(*word(ma, UAR_CQ_DB), UINT64_C(0xfeedface00000007),
			  "CQ doorbell word 0x%jx",
			  (uintmax_t)*word(ma, UAR_CQ_DB));
	/* The other UAR's page saw nothing. */
	TEST_ASSERT_EQUAL(*word(mb, UAR_BF), 0, "b's BF word written");
	TEST_ASSERT_EQUAL(*word(b->base_addr, UAR_CQ_DB), 0,
			  "b's CQ doorbell written");
	munmap(ma, UAR_PAGE);
	munmap(mb, UAR_PAGE);
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(uar_ctx, &st), "stats");
	TEST_ASSERT_EQUAL(st.uars, 2, "uars %u", st.uars);
	mlx5_glue->devx_free_uar(a);
	mlx5_glue->devx_free_uar(b);
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(uar_ctx, &st), "stats");
	TEST_ASSERT_EQUAL(st.uars, 0, "uars %u after free", st.uars);
	return TEST_SUCCESS;
}

/* A freed UAR's page is given back: a hole that reads zeroes. */
static int
test_uar_freed_page(void)
{
	struct mlx5dv_devx_uar *a, *c;
	struct stat sb;
	off_t off;
	void *m;

	a = mlx5_glue->devx_alloc_uar(uar_ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	TEST_ASSERT_NOT_NULL(a, "alloc_uar: %s", strerror(errno));
	off = a->mmap_off;
	*word(a->reg_addr, 0) = UINT64_C(0x1111222233334444);
	mlx5_glue->devx_free_uar(a);
	TEST_ASSERT_SUCCESS(fstat(uar_ctx->cmd_fd, &sb), "fstat");
	TEST_ASSERT(sb.st_size >= off + UAR_PAGE, "fd of %jd bytes",
		    (intmax_t)sb.st_size);
	m = mmap(NULL, UAR_PAGE, PROT_READ, MAP_SHARED, uar_ctx->cmd_fd, off);
	TEST_ASSERT(m != MAP_FAILED, "mmap: %s", strerror(errno));
	TEST_ASSERT_EQUAL(*word(m, UAR_BF), 0, "freed page kept 0x%jx",
			  (uintmax_t)*word(m, UAR_BF));
	munmap(m, UAR_PAGE);
	/* Page ids are not reused: a new UAR is another page. */
	c = mlx5_glue->devx_alloc_uar(uar_ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	TEST_ASSERT_NOT_NULL(c, "alloc_uar: %s", strerror(errno));
	TEST_ASSERT(c->mmap_off != off, "offset 0x%jx reused",
		    (uintmax_t)off);
	TEST_ASSERT_EQUAL(*word(c->reg_addr, 0), 0, "new page not zero");
	mlx5_glue->devx_free_uar(c);
	return TEST_SUCCESS;
}

static struct unit_test_suite emu_uar_suite = {
	.suite_name = "emu_uar",
	.setup = uar_setup,
	.teardown = uar_teardown,
	.unit_test_cases = {
		TEST_CASE(test_uar_second_mapping),
		TEST_CASE(test_uar_freed_page),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(emu_uar, emu_uar_suite);
