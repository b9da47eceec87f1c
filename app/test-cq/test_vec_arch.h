/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_CQ_TEST_VEC_ARCH_H_
#define TEST_CQ_TEST_VEC_ARCH_H_

/*
 * The poll implementations the library builds for this architecture, in
 * the enum's order, the scalar reference first: what the suites and the
 * benchmark go through (the others' rte_mlx5cq_vec_set() always fails
 * here). Which of them run is still up to the CPU and the EAL
 * (rte_mlx5cq_vec_best()).
 */

#include <rte_common.h>
#include <rte_mlx5cq.h>

static const enum rte_mlx5cq_vec test_vec_arch[] = {
	RTE_MLX5CQ_VEC_SCALAR,
#if defined(RTE_ARCH_X86)
	RTE_MLX5CQ_VEC_SSE,
	RTE_MLX5CQ_VEC_AVX2,
#elif defined(RTE_ARCH_ARM64)
	RTE_MLX5CQ_VEC_NEON,
#endif
};

/* Whether this architecture has implementation v. */
static inline int
test_vec_arch_has(unsigned int v)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(test_vec_arch); i++)
		if ((unsigned int)test_vec_arch[i] == v)
			return 1;
	return 0;
}

#endif /* TEST_CQ_TEST_VEC_ARCH_H_ */
