/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef MLX5CQ_TEST_HOOKS_H_
#define MLX5CQ_TEST_HOOKS_H_

/*
 * Internal hooks of librte_common_mlx5cq for its tests (not installed):
 * failure injection into the library's own memory allocations
 * (mlx5cq_mem.c), including the buffer allocator it installs on verbs
 * contexts, and the count of allocations the failure-path tests compare.
 * The CQ test hooks are not in the library: app/test-cq/test_hooks_cq.h.
 */

#include <stdint.h>

#include <rte_compat.h>


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

#endif /* MLX5CQ_TEST_HOOKS_H_ */
