/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_HOOKS_CQ_H_
#define TEST_HOOKS_CQ_H_

/*
 * CQ test hooks (test_hooks_cq.c): CQ handles over rings the suites and
 * fuzzers build by hand, and a look at state the API keeps private. A
 * static helper linked by dpdk-test-cq and the fuzzers only; the product
 * library does not carry it.
 */

#include <stdint.h>

struct rte_mlx5cq;

/**
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
struct rte_mlx5cq *mlx5cq_test_cq_wrap(void *ring, void *dbrec,
				       uint32_t log_n, unsigned int stride,
				       uint8_t comp, uint32_t ci,
				       uint32_t cqn);

/**
 * Free a handle of mlx5cq_test_cq_wrap() (not its ring).
 *
 * @param cq
 *   Handle, NULL ignored.
 */
void mlx5cq_test_cq_free(struct rte_mlx5cq *cq);

/**
 * Make a CQ take or leave its lock as one created without
 * RTE_MLX5CQ_F_SINGLE_THREADED does.
 *
 * @param cq
 *   CQ.
 * @param locked
 *   Non-zero: lock.
 */
void mlx5cq_test_cq_lock_set(struct rte_mlx5cq *cq, int locked);

/**
 * Whether a compressed session is open on the CQ.
 *
 * @param cq
 *   CQ.
 * @return
 *   Completions of the open session, 0 when none is open.
 */
uint32_t mlx5cq_test_cq_session(const struct rte_mlx5cq *cq);

/**
 * Set the wc_flags (IBV_WC_EX_WITH_*) the iterator lets a CQ read.
 *
 * @param cq
 *   CQ.
 * @param wc_flags
 *   Flags.
 */
void mlx5cq_test_cq_wc_flags_set(struct rte_mlx5cq *cq, uint64_t wc_flags);

/**
 * The wc_flags of a CQ.
 *
 * @param cq
 *   CQ.
 * @return
 *   IBV_WC_EX_WITH_* flags.
 */
uint64_t mlx5cq_test_cq_wc_flags(const struct rte_mlx5cq *cq);

/**
 * Whether the CQ is between rte_mlx5cq_start_poll() and
 * rte_mlx5cq_end_poll().
 *
 * @param cq
 *   CQ.
 * @return
 *   1 or 0.
 */
int mlx5cq_test_cq_iter_active(const struct rte_mlx5cq *cq);

/**
 * Whether the CQ's lock is held (tried, and released again when free).
 *
 * @param cq
 *   CQ.
 * @return
 *   1 held, 0 free.
 */
int mlx5cq_test_cq_lock_held(struct rte_mlx5cq *cq);

#endif /* TEST_HOOKS_CQ_H_ */
