/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Choice of the poll implementation: the widest one the CPU has
 * (rte_cpu_get_flag_enabled) within the EAL's maximum SIMD bitwidth
 * (rte_vect_get_max_simd_bitwidth(), --force-max-simd-bitwidth), set on
 * each CQ at creation and changeable with rte_mlx5cq_vec_set().
 */

#include <errno.h>

#include <rte_cpuflags.h>
#include <rte_errno.h>
#include <rte_vect.h>

#include "mlx5cq_private.h"

const mlx5cq_poll_fast_t mlx5cq_poll_fast[RTE_MLX5CQ_VEC_MAX] = {
	[RTE_MLX5CQ_VEC_SCALAR] = mlx5cq_poll_fast_scalar,
#ifdef RTE_ARCH_X86
	[RTE_MLX5CQ_VEC_SSE] = mlx5cq_poll_fast_sse,
	[RTE_MLX5CQ_VEC_AVX2] = mlx5cq_poll_fast_avx2,
#endif
#ifdef RTE_ARCH_ARM64
	[RTE_MLX5CQ_VEC_NEON] = mlx5cq_poll_fast_neon,
#endif
};

static const char *const vec_names[RTE_MLX5CQ_VEC_MAX] = {
	[RTE_MLX5CQ_VEC_SCALAR] = "scalar",
	[RTE_MLX5CQ_VEC_SSE] = "sse",
	[RTE_MLX5CQ_VEC_AVX2] = "avx2",
	[RTE_MLX5CQ_VEC_NEON] = "neon",
};

/* 0 when this CPU, this build and the EAL allow implementation v. */
static int
vec_usable(enum rte_mlx5cq_vec v)
{
	uint16_t bits = rte_vect_get_max_simd_bitwidth();

	if ((unsigned int)v >= RTE_MLX5CQ_VEC_MAX || mlx5cq_poll_fast[v] == NULL)
		return -ENOTSUP;
	switch (v) {
	case RTE_MLX5CQ_VEC_SCALAR:
		return 0;
#ifdef RTE_ARCH_X86
	case RTE_MLX5CQ_VEC_SSE:
		if (bits < RTE_VECT_SIMD_128 ||
		    !rte_cpu_get_flag_enabled(RTE_CPUFLAG_SSE4_2))
			return -ENOTSUP;
		return 0;
	case RTE_MLX5CQ_VEC_AVX2:
		if (bits < RTE_VECT_SIMD_256 ||
		    !rte_cpu_get_flag_enabled(RTE_CPUFLAG_AVX2))
			return -ENOTSUP;
		return 0;
#endif
#ifdef RTE_ARCH_ARM64
	case RTE_MLX5CQ_VEC_NEON:
		if (bits < RTE_VECT_SIMD_128 ||
		    !rte_cpu_get_flag_enabled(RTE_CPUFLAG_NEON))
			return -ENOTSUP;
		return 0;
#endif
	default:
		return -ENOTSUP;
	}
}

enum rte_mlx5cq_vec
mlx5cq_vec_default(void)
{
	int v;

	for (v = RTE_MLX5CQ_VEC_MAX - 1; v > 0; v--)
		if (vec_usable((enum rte_mlx5cq_vec)v) == 0)
			return (enum rte_mlx5cq_vec)v;
	return RTE_MLX5CQ_VEC_SCALAR;
}

enum rte_mlx5cq_vec
rte_mlx5cq_vec_best(void)
{
	return mlx5cq_vec_default();
}

int
rte_mlx5cq_vec_set(struct rte_mlx5cq *cq, enum rte_mlx5cq_vec v)
{
	int ret;

	if (cq == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	ret = vec_usable(v);
	if (ret != 0) {
		MLX5CQ_LOG(ERR, "CQ 0x%x: poll implementation %d not usable"
			   " here (CPU, build or --force-max-simd-bitwidth)",
			   cq->cqn, (int)v);
		rte_errno = -ret;
		return ret;
	}
	mlx5cq_lock(cq);
	cq->vec = (uint8_t)v;
	if (v == RTE_MLX5CQ_VEC_SCALAR)
		cq->slow &= ~RTE_MLX5CQ_SLOW_VEC;
	else
		cq->slow |= RTE_MLX5CQ_SLOW_VEC;
	mlx5cq_unlock(cq);
	return 0;
}

int
rte_mlx5cq_vec_get(const struct rte_mlx5cq *cq)
{
	if (cq == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	return cq->vec;
}

const char *
rte_mlx5cq_vec_name(enum rte_mlx5cq_vec v)
{
	if ((unsigned int)v >= RTE_MLX5CQ_VEC_MAX)
		return NULL;
	return vec_names[v];
}
