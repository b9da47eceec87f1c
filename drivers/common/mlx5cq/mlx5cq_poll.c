/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#include <rte_errno.h>
#include <rte_log.h>

#include "rte_mlx5cq.h"

uint8_t
rte_mlx5cq_syndrome_status(uint8_t syndrome)
{
	return rte_mlx5cq__err_status(syndrome);
}

uint16_t
rte_mlx5cq_poll_slow(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
		     uint16_t n, uint16_t done)
{
	RTE_SET_USED(cq);
	RTE_SET_USED(cpl);
	RTE_SET_USED(n);
	return done;
}
