/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef MLX5CQ_TEST_HOOKS_H_
#define MLX5CQ_TEST_HOOKS_H_

/*
 * Internal hooks of librte_common_mlx5cq for its tests (not installed):
 * failure injection into the library's own memory allocations
 * (mlx5cq_mem.c), including the buffer allocator it installs on verbs
 * contexts.
 */

#include <stdint.h>

#include <rte_compat.h>

struct rte_mlx5cq;

/**
 * @internal
 * Make the nth next allocation of the library fail with ENOMEM (its
 * rte_malloc/rte_zmalloc wrappers, the verbs buffer allocator included);
 * 0 disarms. One failure per arming.
 *
 * @param nth
 *   1 for the very next allocation.
 */
__rte_internal
void mlx5cq_mem_fail_inject(uint32_t nth);

/**
 * @internal
 * Tell whether an armed allocation failure is still pending.
 *
 * @return
 *   1 when the armed failure did not happen yet, else 0.
 */
__rte_internal
int mlx5cq_mem_fail_pending(void);

/**
 * @internal
 * Number of allocations the library attempted since start (what the
 * failure injection counts).
 *
 * @return
 *   The counter.
 */
__rte_internal
uint64_t mlx5cq_mem_alloc_count(void);

/**
 * @internal
 * A CQ handle over a ring and doorbell record the test built itself (no
 * device): the suites write CQE images into it by hand. Every other
 * field as rte_mlx5cq_create() sets it for a SINGLE_THREADED CQ with
 * the best poll implementation.
 *
 * @param ring
 *   Ring of 2^log_n entries of stride bytes (64 or 128).
 * @param dbrec
 *   Doorbell record (8 bytes).
 * @param log_n
 *   log2 of the entries.
 * @param stride
 *   64 or 128.
 * @param comp
 *   Value of rte_mlx5cq.comp: PRM mini-CQE format + 1 (0: none), or-ed
 *   with RTE_MLX5CQ_COMP_ENHANCED.
 * @param ci
 *   Initial consumer index.
 * @param cqn
 *   CQ number reported.
 * @return
 *   The handle (free it with mlx5cq_test_cq_free()), NULL with
 *   rte_errno EINVAL or ENOMEM.
 */
__rte_internal
struct rte_mlx5cq *mlx5cq_test_cq_wrap(void *ring, void *dbrec,
				       uint32_t log_n, unsigned int stride,
				       uint8_t comp, uint32_t ci,
				       uint32_t cqn);

/**
 * @internal
 * Free a handle of mlx5cq_test_cq_wrap() (not its ring).
 *
 * @param cq
 *   Handle, NULL ignored.
 */
__rte_internal
void mlx5cq_test_cq_free(struct rte_mlx5cq *cq);

/**
 * @internal
 * Make a CQ take or leave its lock as one created without
 * RTE_MLX5CQ_F_SINGLE_THREADED does.
 *
 * @param cq
 *   CQ.
 * @param locked
 *   Non-zero: lock.
 */
__rte_internal
void mlx5cq_test_cq_lock_set(struct rte_mlx5cq *cq, int locked);

/**
 * @internal
 * Whether a compressed session is open on the CQ.
 *
 * @param cq
 *   CQ.
 * @return
 *   Completions of the open session, 0 when none is open.
 */
__rte_internal
uint32_t mlx5cq_test_cq_session(const struct rte_mlx5cq *cq);

/**
 * @internal
 * Set the wc_flags (IBV_WC_EX_WITH_*) the iterator lets a CQ read.
 *
 * @param cq
 *   CQ.
 * @param wc_flags
 *   Flags.
 */
__rte_internal
void mlx5cq_test_cq_wc_flags_set(struct rte_mlx5cq *cq, uint64_t wc_flags);

/**
 * @internal
 * The wc_flags of a CQ.
 *
 * @param cq
 *   CQ.
 * @return
 *   IBV_WC_EX_WITH_* flags.
 */
__rte_internal
uint64_t mlx5cq_test_cq_wc_flags(const struct rte_mlx5cq *cq);

/**
 * @internal
 * Whether the CQ is between rte_mlx5cq_start_poll() and
 * rte_mlx5cq_end_poll().
 *
 * @param cq
 *   CQ.
 * @return
 *   1 or 0.
 */
__rte_internal
int mlx5cq_test_cq_iter_active(const struct rte_mlx5cq *cq);

/**
 * @internal
 * Whether the CQ's lock is held (tried, and released again when free).
 *
 * @param cq
 *   CQ.
 * @return
 *   1 held, 0 free.
 */
__rte_internal
int mlx5cq_test_cq_lock_held(struct rte_mlx5cq *cq);

#endif /* MLX5CQ_TEST_HOOKS_H_ */
