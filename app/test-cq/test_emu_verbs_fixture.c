/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Fixture of the emulated HCA's verbs-path suites (emu_verbs,
 * emu_verbs_dbr, emu_verbs_use): a counting external allocator, devices,
 * CQ create / destroy through the glue table, stats compared for leaks,
 * MLX5_CQE_SIZE saved and restored around each suite.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_bitops.h>
#include <rte_common.h>

#include <mlx5_glue.h>

#include "test.h"
#include "test_emu_verbs_fixture.h"

unsigned int
ev_dbr_stride(void)
{
	long cl = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);

	return cl >= 16 && cl <= 4096 && rte_is_power_of_2((uint32_t)cl) ?
	       (unsigned int)cl : 64;
}

/* ---- counting external allocator ------------------------------------ */


void *
ev_cnt_alloc_fn(size_t size, void *data)
{
	struct cnt_alloc *c = data;
	unsigned int call = ++c->allocs;
	void *base;
	void *ptr;

	if (call <= CNT_MAX_LIVE)
		c->sizes[call - 1] = size;
	if (call == c->fail_at || c->nlive == CNT_MAX_LIVE)
		return NULL;
	if (posix_memalign(&base, PAGE_SZ, size + PAGE_SZ) != 0)
		return NULL;
	memset(base, 0x5a, size + PAGE_SZ);
	ptr = (uint8_t *)base + (c->misalign ? 64 : 0);
	c->live[c->nlive].ptr = ptr;
	c->live[c->nlive].base = base;
	c->live[c->nlive].size = size;
	c->nlive++;
	if (call <= CNT_MAX_LIVE)
		c->ptrs[call - 1] = ptr;
	return ptr;
}

void
ev_cnt_free_fn(void *ptr, void *data)
{
	struct cnt_alloc *c = data;
	unsigned int i;

	c->frees++;
	for (i = 0; i < c->nlive; i++) {
		if (c->live[i].ptr == ptr) {
			free(c->live[i].base);
			c->live[i] = c->live[--c->nlive];
			return;
		}
	}
	c->bad_frees++;
}

int
ev_set_allocators(struct ibv_context *ctx, struct cnt_alloc *c)
{
	struct mlx5dv_ctx_allocators a;

	memset(&a, 0, sizeof(a));
	if (c != NULL) {
		a.alloc = ev_cnt_alloc_fn;
		a.free = ev_cnt_free_fn;
		a.data = c;
	}
	return mlx5_glue->dv_set_context_attr(ctx,
					      MLX5DV_CTX_ATTR_BUF_ALLOCATORS,
					      &a);
}

/* ---- helpers --------------------------------------------------------- */

static unsigned int dev_seq;

/* Open an emulated device with default caps changed by the caller. */
struct ibv_context *
ev_open_dev(const struct mlx5_emu_caps *caps)
{
	char name[32];

	snprintf(name, sizeof(name), "emu_verbs%u", dev_seq++);
	return mlx5_emu_open(name, caps);
}

void
ev_default_caps(struct mlx5_emu_caps *caps)
{
	mlx5_emu_caps_default(caps);
}

void
ev_cq_attr_init(struct ibv_cq_init_attr_ex *a, uint32_t cqe)
{
	memset(a, 0, sizeof(*a));
	a->cqe = cqe;
	a->wc_flags = IBV_WC_STANDARD_FLAGS;
}

struct ibv_cq_ex *
ev_create(struct ibv_context *ctx, struct ibv_cq_init_attr_ex *a,
	struct mlx5dv_cq_init_attr *dv)
{
	errno = 0;
	return mlx5_glue->dv_create_cq(ctx, a, dv);
}

struct ibv_cq_ex *
ev_create_n(struct ibv_context *ctx, uint32_t cqe)
{
	struct ibv_cq_init_attr_ex a;

	ev_cq_attr_init(&a, cqe);
	return ev_create(ctx, &a, NULL);
}

int
ev_destroy(struct ibv_cq_ex *cq)
{
	return mlx5_glue->destroy_cq(mlx5_glue->cq_ex_to_cq(cq));
}

int
ev_dv_cq(struct ibv_cq_ex *cq, struct mlx5dv_cq *out)
{
	struct mlx5dv_obj obj;

	memset(&obj, 0, sizeof(obj));
	memset(out, 0xa5, sizeof(*out));
	obj.cq.in = mlx5_glue->cq_ex_to_cq(cq);
	obj.cq.out = out;
	return mlx5_glue->dv_init_obj(&obj, MLX5DV_OBJ_CQ);
}

int
ev_stats(struct ibv_context *ctx, struct mlx5_emu_stats *st)
{
	memset(st, 0, sizeof(*st));
	return mlx5_emu_stats_get(ctx, st);
}

/* The resource counters a failed creation must leave unchanged. */
int
ev_stats_same(const struct mlx5_emu_stats *a, const struct mlx5_emu_stats *b,
	   const char *what)
{
	TEST_ASSERT_EQUAL(a->cqs, b->cqs, "%s: cqs %u -> %u", what, a->cqs,
			  b->cqs);
	TEST_ASSERT_EQUAL(a->verbs_cqs, b->verbs_cqs, "%s: verbs_cqs %u -> %u",
			  what, a->verbs_cqs, b->verbs_cqs);
	TEST_ASSERT_EQUAL(a->dbr_pages, b->dbr_pages, "%s: dbr_pages %u -> %u",
			  what, a->dbr_pages, b->dbr_pages);
	TEST_ASSERT_EQUAL(a->dbr_slots, b->dbr_slots, "%s: dbr_slots %u -> %u",
			  what, a->dbr_slots, b->dbr_slots);
	TEST_ASSERT_EQUAL(a->umems, b->umems, "%s: umems %u -> %u", what,
			  a->umems, b->umems);
	TEST_ASSERT_EQUAL(a->devx_objs, b->devx_objs, "%s: objs %u -> %u",
			  what, a->devx_objs, b->devx_objs);
	return TEST_SUCCESS;
}

int
ev_close_dev(struct ibv_context *ctx)
{
	struct mlx5_emu_stats st;

	TEST_ASSERT_SUCCESS(ev_stats(ctx, &st), "stats");
	TEST_ASSERT_EQUAL(st.verbs_cqs, 0, "verbs CQs left: %u", st.verbs_cqs);
	TEST_ASSERT_EQUAL(st.dbr_pages, 0, "dbr pages left: %u", st.dbr_pages);
	TEST_ASSERT_EQUAL(st.dbr_slots, 0, "dbr slots left: %u", st.dbr_slots);
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	return TEST_SUCCESS;
}

/*
 * Try a creation that must fail with err; check errno, the stats and, when
 * an allocator is given, that every block it handed out came back.
 */
int
ev_expect_fail(struct ibv_context *ctx, struct ibv_cq_init_attr_ex *a,
	    struct mlx5dv_cq_init_attr *dv, int err, struct cnt_alloc *c,
	    const char *what)
{
	struct mlx5_emu_stats before, after;
	unsigned int live = c != NULL ? c->nlive : 0;
	struct ibv_cq_ex *cq;

	TEST_ASSERT_SUCCESS(ev_stats(ctx, &before), "stats");
	cq = ev_create(ctx, a, dv);
	if (cq != NULL)
		ev_destroy(cq);
	TEST_ASSERT_NULL(cq, "%s: creation succeeded", what);
	TEST_ASSERT_EQUAL(errno, err, "%s: errno %d (%s), expected %d (%s)",
			  what, errno, strerror(errno), err, strerror(err));
	TEST_ASSERT_SUCCESS(ev_stats(ctx, &after), "stats");
	TEST_CHECK(ev_stats_same(&before, &after, what));
	if (c != NULL) {
		TEST_ASSERT_EQUAL(c->nlive, live, "%s: %u allocator blocks"
				  " leaked", what, c->nlive - live);
		TEST_ASSERT_EQUAL(c->bad_frees, 0, "%s: bad frees", what);
	}
	return TEST_SUCCESS;
}

/* MLX5_CQE_SIZE as it was (a copy, or NULL when unset). */
char *
ev_env_save(void)
{
	const char *v = getenv("MLX5_CQE_SIZE");

	return v != NULL ? strdup(v) : NULL;
}

void
ev_env_restore(char *saved)
{
	if (saved != NULL)
		setenv("MLX5_CQE_SIZE", saved, 1);
	else
		unsetenv("MLX5_CQE_SIZE");
	free(saved);
}

/*
 * The cases check rdma-core's rules with MLX5_CQE_SIZE unset (default 64 B
 * CQEs; test_cqe_size sets it itself). rte_common_mlx5 sets it to 128 when
 * it loads on a build with 128-byte cache lines (mlx5_glue_constructor(),
 * AArch64), so the suite hides it and gives it back at the end.
 */
static char *suite_cqe_size_env;

int
ev_suite_setup(void)
{
	suite_cqe_size_env = ev_env_save();
	unsetenv("MLX5_CQE_SIZE");
	return TEST_SUCCESS;
}

void
ev_suite_teardown(void)
{
	ev_env_restore(suite_cqe_size_env);
	suite_cqe_size_env = NULL;
}
