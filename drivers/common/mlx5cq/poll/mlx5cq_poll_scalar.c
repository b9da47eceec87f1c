/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/* Fast poll, plain C: the decode of the inline path, CQE by CQE. */

#include "mlx5cq_private.h"

static __rte_always_inline void
mlx5cq_fast_decode(volatile const uint8_t *c, unsigned int shift,
		   struct rte_mlx5cq_cpl *r, uint32_t k)
{
	uint32_t j;

	for (j = 0; j < k; j++, c += (size_t)1 << shift)
		rte_mlx5cq__decode_ok(c, c[RTE_MLX5CQ_CQE_OP_OWN], &r[j]);
}

#define MLX5CQ_FAST_NAME mlx5cq_poll_fast_scalar
#include "mlx5cq_poll_fast.h"
