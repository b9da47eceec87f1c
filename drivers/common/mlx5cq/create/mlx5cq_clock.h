/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef MLX5CQ_CLOCK_H_
#define MLX5CQ_CLOCK_H_

/*
 * Wall-clock completion times (IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK)
 * and the glue extension table they need: the entry points DPDK's
 * mlx5_glue lacks (mlx5dv_get_clock_info()), resolved at CQ creation from
 * the emulated HCA when it is in the process (its entry answers for its
 * own contexts and forwards the others to libmlx5), else from libmlx5.
 */

#include <stdint.h>

#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>

struct rte_mlx5cq_dev;
struct mlx5cq_params;

/* Entry points DPDK's mlx5_glue lacks. */
struct mlx5cq_glue_ext {
	/* mlx5dv_get_clock_info(): 0 or a positive errno. */
	int (*get_clock_info)(struct ibv_context *ctx,
			      struct mlx5dv_clock_info *ci);
};

/* What a CQ with the WALLCLOCK flag reads its times with. */
struct mlx5cq_wallclock {
	/* NULL: not requested, or the CQEs carry real time (rt). */
	int (*get_clock_info)(struct ibv_context *ctx,
			      struct mlx5dv_clock_info *ci);
	uint8_t rt; /* The CQE timestamp is returned as it is. */
	struct mlx5dv_clock_info ci; /* Read at the last start_poll. */
};

/*
 * The glue extension table of this moment (filled on each call: an
 * emulated HCA loaded later takes over). An entry is NULL when nowhere
 * to be found.
 */
void mlx5cq_glue_ext_get(struct mlx5cq_glue_ext *ext);

/*
 * Creation rule of the WALLCLOCK flag (p->wc_flags), filling
 * p->wallclock: 0, or a negative errno (EOPNOTSUPP: no clock information
 * on this context, as rdma-core's mlx5_cq_fill_pfns() refuses it).
 */
int mlx5cq_wallclock_setup(const struct rte_mlx5cq_dev *dev,
			   struct mlx5cq_params *p);

#endif /* MLX5CQ_CLOCK_H_ */
