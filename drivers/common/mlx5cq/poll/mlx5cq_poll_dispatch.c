/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Dispatch of the burst poll: the out-of-line entry of the inline poll
 * (rte_mlx5cq_core.h) sends each CQ to its implementation: the fast poll
 * chosen for it (mlx5cq_poll_fast[], mlx5cq_vec.c: scalar, SSE or NEON
 * from one template, AVX2), the AVX2 poll of the enhanced layout, or,
 * under the CQ's lock, the generic poll (mlx5cq_poll_generic.c); a
 * collapsed CQ gets nothing (ENOTSUP: mlx5cq_collapsed.c reads it).
 * Nothing below calls back here.
 */

#include <errno.h>

#include <rte_common.h>
#include <rte_errno.h>

#include "mlx5cq_private.h"

uint16_t
rte_mlx5cq_poll_burst_ool(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
			  uint16_t n, uint16_t done)
{
	uint16_t ret;

	if (likely(!(cq->slow & (RTE_MLX5CQ_SLOW_LOCK |
				 RTE_MLX5CQ_SLOW_ENHANCED |
				 RTE_MLX5CQ_SLOW_COLLAPSED))))
		return mlx5cq_poll_fast[cq->vec](cq, cpl, n, done);
	if (unlikely(cq->slow & RTE_MLX5CQ_SLOW_COLLAPSED)) {
		/* Entry 0 only: rte_mlx5cq_collapsed_read(). */
		rte_errno = ENOTSUP;
		return done;
	}
#ifdef RTE_ARCH_X86
	if ((cq->slow & (RTE_MLX5CQ_SLOW_LOCK | RTE_MLX5CQ_SLOW_ENHANCED)) ==
	    RTE_MLX5CQ_SLOW_ENHANCED && cq->vec == RTE_MLX5CQ_VEC_AVX2)
		return mlx5cq_poll_enh_avx2(cq, cpl, n, done);
#endif
	mlx5cq_lock(cq);
	ret = mlx5cq_poll_generic(cq, cpl, n, done, 1);
	mlx5cq_unlock(cq);
	return ret;
}
