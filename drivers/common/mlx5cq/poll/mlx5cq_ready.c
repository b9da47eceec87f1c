/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Queue state from the ring, without consuming: how many completions a
 * poll would deliver now (rte_mlx5cq_ready_count(), for a PMD's
 * rx_queue_count and descriptor status) and which byte changes when the
 * next one arrives (rte_mlx5cq_monitor_get(), for rte_power_monitor()).
 *
 * The walk reads the ring as the poll does (DPDK net/mlx5's
 * rx_queue_count() in mlx5_rx.c does the same over its own state): the
 * rest of an open compressed session first, then from the entry after
 * it; a regular or error CQE is one completion, a basic-layout title its
 * byte_cnt (the session spans that many entries), an enhanced-layout
 * compressed CQE its opcode + 1 mini-CQEs (one entry each). Ownership is
 * checked before anything else is read: the owner bit against the pass
 * (basic layout), the validity iteration count (enhanced layout), then a
 * read barrier.
 */

#include <errno.h>

#include <rte_errno.h>

#include "mlx5cq_private.h"

/* The entry after what the consumer has taken: after an open session. */
static uint32_t
ready_next(const struct rte_mlx5cq *cq, uint32_t *left)
{
	const struct mlx5cq_session *z = MLX5CQ_SESSION(cq);

	if (z->cnt != 0) {
		*left = z->cnt - z->ai;
		return z->end;
	}
	*left = 0;
	return cq->ci;
}

/* Completions the entry at idx holds, 0 when it is not the software's. */
static uint32_t
ready_entry(const struct rte_mlx5cq *cq, uint32_t idx)
{
	volatile const uint8_t *e = rte_mlx5cq__cqe(cq, idx);
	uint8_t oo;
	uint32_t n;

	if (cq->comp & RTE_MLX5CQ_COMP_ENHANCED) {
		if (e[RTE_MLX5CQ_CQE_VALIDITY] != (uint8_t)(idx >> cq->log_n))
			return 0;
		rte_io_rmb();
		oo = e[RTE_MLX5CQ_CQE_OP_OWN];
		if (((oo >> 2) & 3) == RTE_MLX5CQ_FORMAT_COMPRESSED)
			return (oo >> 4) + 1u;
		return (oo >> 4) == RTE_MLX5CQ_OP_INVALID ? 0 : 1;
	}
	oo = e[RTE_MLX5CQ_CQE_OP_OWN];
	if (!rte_mlx5cq__sw_owned(oo, idx, cq->log_n))
		return 0;
	rte_io_rmb();
	if (((oo >> 2) & 3) != RTE_MLX5CQ_FORMAT_COMPRESSED)
		return 1;
	n = rte_mlx5cq__be32(e, RTE_MLX5CQ_CQE_BYTE_CNT);
	/* A title the poll refuses (mlx5cq_session_open()) ends the count. */
	return n < 2 || n > cq->mask + 1u ? 0 : n;
}

uint32_t
rte_mlx5cq_ready_count(struct rte_mlx5cq *cq, uint32_t max)
{
	uint32_t idx, first, n, k;

	if (cq == NULL) {
		rte_errno = EINVAL;
		return 0;
	}
	/* Entry 0 only: rte_mlx5cq_collapsed_read() counts. */
	if (cq->slow & RTE_MLX5CQ_SLOW_COLLAPSED) {
		rte_errno = ENOTSUP;
		return 0;
	}
	mlx5cq_lock(cq);
	idx = ready_next(cq, &n);
	first = idx;
	/* At most one pass of the ring: past it every entry is stale. */
	while (n < max && idx - first <= cq->mask) {
		k = ready_entry(cq, idx);
		if (k == 0)
			break;
		n += k;
		idx += k;
	}
	mlx5cq_unlock(cq);
	return RTE_MIN(n, max);
}

int
rte_mlx5cq_monitor_get(const struct rte_mlx5cq *cq,
		       struct rte_mlx5cq_monitor *m)
{
	volatile const uint8_t *e;
	uint32_t idx, left;

	if (cq == NULL || m == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	if (cq->slow & RTE_MLX5CQ_SLOW_COLLAPSED) {
		rte_errno = ENOTSUP;
		return -ENOTSUP;
	}
	mlx5cq_lock(cq);
	idx = ready_next(cq, &left);
	mlx5cq_unlock(cq);
	e = rte_mlx5cq__cqe(cq, idx);
	if (left != 0) {
		/* Completions are waiting: a condition already true. */
		m->addr = (volatile void *)(uintptr_t)&e[RTE_MLX5CQ_CQE_OP_OWN];
		m->value = 0;
		m->mask = 0;
		return 1;
	}
	if (cq->comp & RTE_MLX5CQ_COMP_ENHANCED) {
		/* DPDK main's mlx5_get_monitor_addr(): the iteration count. */
		m->addr = (volatile void *)(uintptr_t)&e[RTE_MLX5CQ_CQE_VALIDITY];
		m->value = (uint8_t)(idx >> cq->log_n);
		m->mask = 0xff;
	} else {
		/* DPDK 22.11 mlx5_get_monitor_addr(): the owner bit. */
		m->addr = (volatile void *)(uintptr_t)&e[RTE_MLX5CQ_CQE_OP_OWN];
		m->value = (uint8_t)((idx >> cq->log_n) & 1);
		m->mask = 1;
	}
	return 0;
}
