/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_EMU_VERBS_FIXTURE_H_
#define TEST_EMU_VERBS_FIXTURE_H_

/*
 * Fixture of the verbs-path suites (test_emu_verbs_fixture.c). Expected
 * values come from the sources the model follows (see test_emu_verbs.c).
 */

#include <stddef.h>
#include <stdint.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include <mlx5_emu.h>

/* PRM (mlx5dv.h): op_own of an unwritten CQE, MLX5_CQE_INVALID << 4. */
#define OP_OWN_INVALID 0xf0
/*
 * rdma-core dbrec.c: records context->cache_line_size apart, the kernel's
 * cache_line_size() from the ucontext response: the CPU's L1 data line.
 */
#define DBR_STRIDE ev_dbr_stride()
/* rdma-core: the page size is the system page size (4 KiB here). */
#define PAGE_SZ 4096u
#define SLOTS_PER_PAGE (PAGE_SZ / DBR_STRIDE)
/* Array bound: the smallest line taken as a cache line is 16 B. */
#define SLOTS_MAX (PAGE_SZ / 16)

#define CNT_MAX_LIVE 256

struct cnt_block {
	void *ptr; /* What alloc() returned. */
	void *base; /* What must be freed. */
	size_t size;
};

struct cnt_alloc {
	unsigned int allocs; /* alloc() calls. */
	unsigned int frees; /* free() calls. */
	unsigned int fail_at; /* 1-based alloc() call returning NULL. */
	unsigned int misalign; /* Return blocks 64 B past a page start. */
	unsigned int bad_frees; /* free() of a pointer never returned. */
	size_t sizes[CNT_MAX_LIVE]; /* Size of each alloc() call. */
	void *ptrs[CNT_MAX_LIVE]; /* Result of each alloc() call. */
	struct cnt_block live[CNT_MAX_LIVE];
	unsigned int nlive;
};

unsigned int ev_dbr_stride(void);
void *ev_cnt_alloc_fn(size_t size, void *data);
void ev_cnt_free_fn(void *ptr, void *data);
/* The counting allocator as the context's buffer allocators (NULL: off). */
int ev_set_allocators(struct ibv_context *ctx, struct cnt_alloc *c);
/* Open an emulated device with caps (NULL: the defaults). */
struct ibv_context *ev_open_dev(const struct mlx5_emu_caps *caps);
void ev_default_caps(struct mlx5_emu_caps *caps);
void ev_cq_attr_init(struct ibv_cq_init_attr_ex *a, uint32_t cqe);
struct ibv_cq_ex *ev_create(struct ibv_context *ctx,
			    struct ibv_cq_init_attr_ex *a,
			    struct mlx5dv_cq_init_attr *dv);
struct ibv_cq_ex *ev_create_n(struct ibv_context *ctx, uint32_t cqe);
int ev_destroy(struct ibv_cq_ex *cq);
int ev_dv_cq(struct ibv_cq_ex *cq, struct mlx5dv_cq *out);
int ev_stats(struct ibv_context *ctx, struct mlx5_emu_stats *st);
int ev_stats_same(const struct mlx5_emu_stats *a,
		  const struct mlx5_emu_stats *b, const char *what);
int ev_close_dev(struct ibv_context *ctx);
int ev_expect_fail(struct ibv_context *ctx, struct ibv_cq_init_attr_ex *a,
		   struct mlx5dv_cq_init_attr *dv, int err, struct cnt_alloc *c,
		   const char *what);
/* MLX5_CQE_SIZE as it was (a copy, or NULL when unset); put it back. */
char *ev_env_save(void);
void ev_env_restore(char *saved);
/* Suite setup / teardown: MLX5_CQE_SIZE hidden for the suite. */
int ev_suite_setup(void);
void ev_suite_teardown(void);

#endif /* TEST_EMU_VERBS_FIXTURE_H_ */
