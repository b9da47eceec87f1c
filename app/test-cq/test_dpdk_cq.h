/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_CQ_TEST_DPDK_CQ_H_
#define TEST_CQ_TEST_DPDK_CQ_H_

/*
 * Entries of a CQ made by rte_common_mlx5's mlx5_devx_cq_create(). Its ring
 * is an array of struct mlx5_cqe, which mlx5_prm.h makes one cache line
 * long, and mlx5_devx_cmd_create_cq() sets the CQ context's cqe_sz to match:
 * 64 B CQEs (cqe_sz 0) where RTE_CACHE_LINE_SIZE is 64 (x86), 128 B CQEs
 * (cqe_sz 1) where it is 128 (Debian's AArch64 DPDK). In a 128 B entry the
 * 64 B CQE is the second half (PRM; struct mlx5_cqe's padding[64]), so
 * byte offsets of the 64 B layout count from test_dpdk_cqe().
 */

#include <stdint.h>

#include <mlx5_common_devx.h>
#include <mlx5_prm.h>

/* Bytes of one entry of the ring. */
#define TEST_DPDK_CQE_SIZE ((unsigned int)sizeof(struct mlx5_cqe))
/* The CQ context's cqe_sz the helper asks for (PRM: 0 64 B, 1 128 B). */
#define TEST_DPDK_CQE_SZ (TEST_DPDK_CQE_SIZE == 128 ? 1u : 0u)

/* The 64 B CQE of entry i (no wrap: i < the ring's entries). */
static inline const uint8_t *
test_dpdk_cqe(const struct mlx5_devx_cq *cq, unsigned int i)
{
	return (const uint8_t *)(uintptr_t)cq->cqes +
	       (size_t)i * TEST_DPDK_CQE_SIZE + (TEST_DPDK_CQE_SIZE - 64);
}

#endif /* TEST_CQ_TEST_DPDK_CQ_H_ */
