/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Collapsed CQs (RTE_MLX5CQ_F_COLLAPSED, cqc.cc): the device writes every
 * CQE into entry 0, so the ring holds only the newest completion and
 * never overruns. DPDK reads such CQs by the newest CQE's wqe_counter
 * (mlx5_vdpa_event.c mlx5_vdpa_cq_poll(); mlx5_txpp.c for its clock
 * queue): on a CQ fed by one work queue whose every WQE completes, the
 * counter's distance from the next expected one is the number of
 * completions written since the last read. rte_mlx5cq_collapsed_read()
 * does that with the consumer index as the expected counter (its low 16
 * bits), then moves the index and the doorbell record by that number.
 *
 * A CPU does not see the device's 64-byte write at once (the emulated
 * HCA writes bytes 0..61, then 62..63): the entry is copied twice, a
 * read barrier before each copy, until two copies agree.
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_io.h>

#include "mlx5cq_private.h"

/* Copies of entry 0 tried before the read gives up (EAGAIN). */
#define MLX5CQ_COLLAPSED_TRIES 64

static void
collapsed_copy(volatile const uint8_t *e, uint8_t *dst)
{
	unsigned int i;

	rte_io_rmb();
	for (i = 0; i < RTE_MLX5CQ_PRM_CQE_SIZE; i++)
		dst[i] = e[i];
}

int
rte_mlx5cq_collapsed_read(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl)
{
	uint8_t a[RTE_MLX5CQ_PRM_CQE_SIZE], b[RTE_MLX5CQ_PRM_CQE_SIZE];
	volatile const uint8_t *e;
	unsigned int tries;
	uint16_t n;

	if (cq == NULL || cpl == NULL) {
		MLX5CQ_LOG(ERR, "invalid argument: cq=%p cpl=%p", (void *)cq,
			   (void *)cpl);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	if (!(cq->slow & RTE_MLX5CQ_SLOW_COLLAPSED)) {
		MLX5CQ_LOG(ERR, "CQ %#x is not collapsed: poll it with"
			   " rte_mlx5cq_poll_burst()", cq->cqn);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	e = cq->ring + cq->cqe_off;
	mlx5cq_lock(cq);
	collapsed_copy(e, a);
	for (tries = 1; ; tries++) {
		collapsed_copy(e, b);
		if (memcmp(a, b, sizeof(a)) == 0)
			break;
		if (tries == MLX5CQ_COLLAPSED_TRIES) {
			mlx5cq_unlock(cq);
			rte_errno = EAGAIN;
			return -EAGAIN;
		}
		memcpy(a, b, sizeof(a));
	}
	cq->polls++;
	n = (uint16_t)(((uint32_t)a[RTE_MLX5CQ_CQE_WQE_COUNTER] << 8 |
			a[RTE_MLX5CQ_CQE_WQE_COUNTER + 1]) + 1 - cq->ci);
	/* Nothing written yet (INVALID), or nothing new. */
	if ((a[RTE_MLX5CQ_CQE_OP_OWN] >> 4) == RTE_MLX5CQ_OP_INVALID ||
	    n == 0) {
		cq->empty_polls++;
		mlx5cq_unlock(cq);
		return 0;
	}
	mlx5cq_decode_full(a, a[RTE_MLX5CQ_CQE_OP_OWN], cpl);
	if (cpl->status != 0)
		mlx5cq_count_error(cq, cpl);
	cq->completions += n;
	rte_mlx5cq__update_ci(cq, cq->ci + n);
	mlx5cq_unlock(cq);
	return n;
}
