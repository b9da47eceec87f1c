/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_access": the emulated HCA pins registered memory as the
 * kernel's ib_umem_get() does (pin_user_pages_fast, mm/gup.c
 * check_vma_flags): a umem or MR over pages that are not mapped, not
 * readable, or not writable while the access flags make it writable
 * (ib_access_writable: LOCAL_WRITE, REMOTE_WRITE, REMOTE_ATOMIC) is
 * refused with EFAULT and leaves nothing behind (umem and MR counts,
 * rte_malloc, open files); read-only pages register when nothing asks for
 * write access. Memory comes from mmap() with the protection under test.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_malloc.h>

#include <mlx5_glue.h>

#include "mlx5_emu.h"
#include "test.h"
#include "test_usage.h"

#define PG 4096u

/* What a failed registration must leave unchanged. */
struct use {
	uint32_t umems;
	uint32_t mrs;
	uint64_t allocs;
	uint64_t bytes;
	unsigned int fds;
};

static int
use_get(struct ibv_context *ctx, struct use *u)
{
	struct rte_malloc_socket_stats ms;
	struct mlx5_emu_net_stats ns;
	struct mlx5_emu_stats st;
	int i;

	memset(u, 0, sizeof(*u));
	if (mlx5_emu_stats_get(ctx, &st) != 0 ||
	    mlx5_emu_net_stats_get(ctx, &ns) != 0)
		return -1;
	u->umems = st.umems;
	u->mrs = ns.mrs;
	for (i = 0; i < RTE_MAX_NUMA_NODES; i++) {
		if (rte_malloc_get_socket_stats(i, &ms) != 0)
			continue;
		u->allocs += ms.alloc_count;
		u->bytes += ms.heap_allocsz_bytes;
	}
	u->fds = open_fds();
	return 0;
}

/* Nothing registered, allocated or opened since *before. */
static int
use_same(struct ibv_context *ctx, const struct use *before, const char *what)
{
	struct use now;

	TEST_ASSERT_SUCCESS(use_get(ctx, &now), "stats");
	TEST_ASSERT_EQUAL(now.umems, before->umems, "%s: umems %u -> %u",
			  what, before->umems, now.umems);
	TEST_ASSERT_EQUAL(now.mrs, before->mrs, "%s: MRs %u -> %u", what,
			  before->mrs, now.mrs);
	TEST_ASSERT(now.allocs == before->allocs &&
		    now.bytes == before->bytes, "%s: rte_malloc leak", what);
	TEST_ASSERT_EQUAL(now.fds, before->fds, "%s: fds %u -> %u", what,
			  before->fds, now.fds);
	return TEST_SUCCESS;
}

/* Three pages: [0] read-write, [1] prot1, [2] read-write; each page
 * touched while writable, so that it is present (pinning would fault it
 * in anyway).
 */
static uint8_t *
pages3(int prot1)
{
	uint8_t *p = mmap(NULL, 3 * PG, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memset(p, 0xa5, 3 * PG);
	if (mprotect(p + PG, PG, prot1) != 0) {
		munmap(p, 3 * PG);
		return NULL;
	}
	return p;
}

/* A umem over p + off, len bytes: refused with EFAULT, nothing left. */
static int
umem_refused(struct ibv_context *ctx, void *p, size_t len, uint32_t access,
	     const char *what)
{
	struct mlx5dv_devx_umem *um;
	struct use u;

	TEST_ASSERT_SUCCESS(use_get(ctx, &u), "stats");
	errno = 0;
	um = mlx5_glue->devx_umem_reg(ctx, p, len, access);
	if (um != NULL)
		mlx5_glue->devx_umem_dereg(um);
	TEST_ASSERT_NULL(um, "%s: umem registered", what);
	TEST_ASSERT_EQUAL(errno, EFAULT, "%s: errno %d", what, errno);
	return use_same(ctx, &u, what);
}

static int
mr_refused(struct ibv_context *ctx, struct ibv_pd *pd, void *p, size_t len,
	   int access, const char *what)
{
	struct ibv_mr *mr;
	struct use u;

	TEST_ASSERT_SUCCESS(use_get(ctx, &u), "stats");
	errno = 0;
	mr = mlx5_glue->reg_mr(pd, p, len, access);
	if (mr != NULL)
		mlx5_glue->dereg_mr(mr);
	TEST_ASSERT_NULL(mr, "%s: MR registered", what);
	TEST_ASSERT_EQUAL(errno, EFAULT, "%s: errno %d", what, errno);
	return use_same(ctx, &u, what);
}

/* Umem over a PROT_NONE page: EFAULT, whatever the access, whole or in
 * part; the pages around it register.
 */
static int
test_emu_access_umem_none(void)
{
	struct mlx5dv_devx_umem *um;
	struct ibv_context *ctx;
	int ret = TEST_FAILED;
	uint8_t *p;

	ctx = mlx5_emu_open("eacc_un", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	p = pages3(PROT_NONE);
	if (p == NULL) {
		mlx5_emu_close(ctx);
		TEST_ASSERT_NOT_NULL(p, "mmap");
	}
	if (umem_refused(ctx, p + PG, PG, 0, "PROT_NONE, access 0") != TEST_SUCCESS)
		goto out;
	if (umem_refused(ctx, p + PG, PG, IBV_ACCESS_LOCAL_WRITE,
			   "PROT_NONE, local write") != TEST_SUCCESS)
		goto out;
	if (umem_refused(ctx, p + PG + 100, 64, IBV_ACCESS_REMOTE_READ,
			   "64 B inside a PROT_NONE page") != TEST_SUCCESS)
		goto out;
	if (umem_refused(ctx, p, 3 * PG, IBV_ACCESS_LOCAL_WRITE,
			   "PROT_NONE page in the middle") != TEST_SUCCESS)
		goto out;
	if (umem_refused(ctx, p + PG - 8, 16, IBV_ACCESS_LOCAL_WRITE,
			   "last 8 B before, first 8 B of a PROT_NONE page") != TEST_SUCCESS)
		goto out;
	um = mlx5_glue->devx_umem_reg(ctx, p + 2 * PG, PG,
				      IBV_ACCESS_LOCAL_WRITE);
	if (um == NULL) {
		printf("  read-write page after a PROT_NONE one refused\n");
		goto out;
	}
	if (mlx5_glue->devx_umem_dereg(um) != 0)
		goto out;
	ret = TEST_SUCCESS;
out:
	munmap(p, 3 * PG);
	if (mlx5_emu_close(ctx) != 0)
		ret = TEST_FAILED;
	return ret;
}

/*
 * Umem over read-only pages: refused (EFAULT) when LOCAL_WRITE or
 * REMOTE_WRITE is asked (the kernel pins with FOLL_WRITE); registered
 * without them, then refused as a CQ ring (mlx5_emu_cq.c: the ring umem
 * needs LOCAL_WRITE, tested by the emu suite).
 */
static int
test_emu_access_umem_ro(void)
{
	struct mlx5_emu_umem_info ui;
	struct mlx5dv_devx_umem *um;
	struct ibv_context *ctx;
	int ret = TEST_FAILED;
	struct use u;
	uint8_t *p;

	ctx = mlx5_emu_open("eacc_ur", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	p = pages3(PROT_READ);
	if (p == NULL) {
		mlx5_emu_close(ctx);
		TEST_ASSERT_NOT_NULL(p, "mmap");
	}
	if (umem_refused(ctx, p + PG, PG, IBV_ACCESS_LOCAL_WRITE,
			   "read-only, local write") != TEST_SUCCESS)
		goto out;
	if (umem_refused(ctx, p + PG, PG, IBV_ACCESS_LOCAL_WRITE |
			   IBV_ACCESS_REMOTE_WRITE, "read-only, remote write") != TEST_SUCCESS)
		goto out;
	if (umem_refused(ctx, p, 2 * PG, IBV_ACCESS_LOCAL_WRITE,
			   "read-write page then a read-only one") != TEST_SUCCESS)
		goto out;
	if (use_get(ctx, &u) != 0)
		goto out;
	um = mlx5_glue->devx_umem_reg(ctx, p + PG, PG, IBV_ACCESS_REMOTE_READ);
	if (um == NULL) {
		printf("  read-only page without write access refused: %d\n",
		       errno);
		goto out;
	}
	if (mlx5_emu_umem_query(ctx, um->umem_id, &ui) != 0 ||
	    ui.addr != (uint64_t)(uintptr_t)(p + PG) || ui.size != PG ||
	    ui.access != IBV_ACCESS_REMOTE_READ) {
		printf("  umem info wrong\n");
		mlx5_glue->devx_umem_dereg(um);
		goto out;
	}
	if (mlx5_glue->devx_umem_dereg(um) != 0)
		goto out;
	/* Three pages, the middle one read-only, access 0: all readable. */
	um = mlx5_glue->devx_umem_reg(ctx, p, 3 * PG, 0);
	if (um == NULL || mlx5_glue->devx_umem_dereg(um) != 0) {
		printf("  readable range without write access refused\n");
		goto out;
	}
	if (use_same(ctx, &u, "read-only registrations") != TEST_SUCCESS)
		goto out;
	ret = TEST_SUCCESS;
out:
	munmap(p, 3 * PG);
	if (mlx5_emu_close(ctx) != 0)
		ret = TEST_FAILED;
	return ret;
}

/* A range with a hole: EFAULT (as before; now told by the same check). */
static int
test_emu_access_umem_hole(void)
{
	struct ibv_context *ctx;
	int ret = TEST_FAILED;
	uint8_t *p;

	ctx = mlx5_emu_open("eacc_uh", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	p = pages3(PROT_READ | PROT_WRITE);
	if (p == NULL || munmap(p + PG, PG) != 0) {
		mlx5_emu_close(ctx);
		TEST_ASSERT(0, "mmap");
	}
	if (umem_refused(ctx, p, 3 * PG, IBV_ACCESS_LOCAL_WRITE,
			   "unmapped page in the middle") != TEST_SUCCESS)
		goto out;
	if (umem_refused(ctx, p + PG, PG, 0, "unmapped page") != TEST_SUCCESS)
		goto out;
	ret = TEST_SUCCESS;
out:
	munmap(p, PG);
	munmap(p + 2 * PG, PG);
	if (mlx5_emu_close(ctx) != 0)
		ret = TEST_FAILED;
	return ret;
}

/*
 * MRs: PROT_NONE refused whatever the access; read-only refused with
 * LOCAL_WRITE (and REMOTE_WRITE / REMOTE_ATOMIC, which need it);
 * read-only without write access registered (the SQ engine only reads
 * it; the RQ engine refuses it for lack of LOCAL_WRITE, emu_net_errors
 * suite).
 */
static int
test_emu_access_mr(void)
{
	struct ibv_context *ctx;
	struct ibv_pd *pd = NULL;
	struct ibv_mr *mr;
	int ret = TEST_FAILED;
	uint8_t *pn = NULL, *pr = NULL;
	struct use u;

	ctx = mlx5_emu_open("eacc_mr", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	pd = mlx5_glue->alloc_pd(ctx);
	pn = pages3(PROT_NONE);
	pr = pages3(PROT_READ);
	if (pd == NULL || pn == NULL || pr == NULL) {
		printf("  PD or mmap failed\n");
		goto out;
	}
	if (mr_refused(ctx, pd, pn + PG, PG, 0, "MR PROT_NONE, access 0") != TEST_SUCCESS)
		goto out;
	if (mr_refused(ctx, pd, pn + PG, PG, IBV_ACCESS_LOCAL_WRITE,
			 "MR PROT_NONE, local write") != TEST_SUCCESS)
		goto out;
	if (mr_refused(ctx, pd, pn, 3 * PG, 0,
			 "MR over a PROT_NONE page in the middle") != TEST_SUCCESS)
		goto out;
	if (mr_refused(ctx, pd, pr + PG, PG, IBV_ACCESS_LOCAL_WRITE,
			 "MR read-only, local write") != TEST_SUCCESS)
		goto out;
	if (mr_refused(ctx, pd, pr + PG, PG, IBV_ACCESS_LOCAL_WRITE |
			 IBV_ACCESS_REMOTE_ATOMIC, "MR read-only, atomic") != TEST_SUCCESS)
		goto out;
	if (mr_refused(ctx, pd, pr + PG + 4000, 200, IBV_ACCESS_LOCAL_WRITE,
			 "MR from read-only into read-write") != TEST_SUCCESS)
		goto out;
	if (use_get(ctx, &u) != 0)
		goto out;
	mr = mlx5_glue->reg_mr(pd, pr + PG, PG, IBV_ACCESS_REMOTE_READ);
	if (mr == NULL) {
		printf("  read-only MR without write access refused: %d\n",
		       errno);
		goto out;
	}
	if (mr->addr != pr + PG || mr->length != PG ||
	    mlx5_glue->dereg_mr(mr) != 0) {
		printf("  MR wrong or not deregistered\n");
		goto out;
	}
	mr = mlx5_glue->reg_mr(pd, pr + 2 * PG, PG, IBV_ACCESS_LOCAL_WRITE);
	if (mr == NULL || mlx5_glue->dereg_mr(mr) != 0) {
		printf("  read-write MR after a read-only page refused\n");
		goto out;
	}
	if (use_same(ctx, &u, "MRs registered and deregistered") != TEST_SUCCESS)
		goto out;
	ret = TEST_SUCCESS;
out:
	if (pn != NULL)
		munmap(pn, 3 * PG);
	if (pr != NULL)
		munmap(pr, 3 * PG);
	if (pd != NULL && mlx5_glue->dealloc_pd(pd) != 0)
		ret = TEST_FAILED;
	if (mlx5_emu_close(ctx) != 0)
		ret = TEST_FAILED;
	return ret;
}

static struct unit_test_suite emu_access_suite = {
	.suite_name = "emu_access",
	.unit_test_cases = {
		TEST_CASE(test_emu_access_umem_none),
		TEST_CASE(test_emu_access_umem_ro),
		TEST_CASE(test_emu_access_umem_hole),
		TEST_CASE(test_emu_access_mr),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(emu_access, emu_access_suite);
