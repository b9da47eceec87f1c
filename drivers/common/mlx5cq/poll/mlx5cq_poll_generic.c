/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Generic poll, one completion at a time through peek/consume: the
 * implementation for CQs that are not on a fast poll (the lock of CQs that
 * are not SINGLE_THREADED, the enhanced compression layout without AVX2),
 * and the raw view and the iterator's fetch and consume. Below it:
 * sessions (mlx5cq_session.c) and error records (mlx5cq_decode.c).
 */

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>

#include "mlx5cq_private.h"

/*
 * Look at the completion at the consumer index without consuming it
 * (a compressed CQE opens its session). Returns 1 and fills *cqe (the
 * ring's CQE, NULL for a mini-CQE) when there is one, 0 when there is
 * none, -1 at a compressed CQE that cannot be expanded.
 */
static int
peek(struct rte_mlx5cq *cq, volatile const uint8_t **cqe, uint8_t *op_own)
{
	uint32_t ci = cq->ci;
	volatile const uint8_t *e;
	uint8_t oo;

	if (MLX5CQ_SESSION(cq)->cnt) {
		*cqe = NULL;
		return 1;
	}
	e = rte_mlx5cq__cqe(cq, ci);
	if (cq->comp & RTE_MLX5CQ_COMP_ENHANCED) {
		/*
		 * The iteration count first, then a read barrier, then the
		 * rest, op_own included (kernel
		 * mlx5_cqwq_get_cqe_enahnced_comp).
		 */
		if (e[RTE_MLX5CQ_CQE_VALIDITY] != (uint8_t)(ci >> cq->log_n))
			return 0;
		rte_io_rmb();
		oo = e[RTE_MLX5CQ_CQE_OP_OWN];
		if (((oo >> 2) & 3) != RTE_MLX5CQ_FORMAT_COMPRESSED &&
		    (oo >> 4) == RTE_MLX5CQ_OP_INVALID)
			return 0;
	} else {
		oo = e[RTE_MLX5CQ_CQE_OP_OWN];
		if (!rte_mlx5cq__sw_owned(oo, ci, cq->log_n))
			return 0;
		rte_io_rmb();
	}
	if (unlikely(((oo >> 2) & 3) == RTE_MLX5CQ_FORMAT_COMPRESSED)) {
		if (mlx5cq_session_open(cq, e, oo, ci, 1))
			return -1;
		*cqe = NULL;
		return 1;
	}
	*cqe = e;
	*op_own = oo;
	return 1;
}

/* Consume the completion peek() found, filling *c. */
static void
consume(struct rte_mlx5cq *cq, volatile const uint8_t *cqe, uint8_t op_own,
	struct rte_mlx5cq_cpl *c)
{
	struct mlx5cq_session *z = MLX5CQ_SESSION(cq);

	if (cqe == NULL) {
		mlx5cq_session_burst(cq, c, 1);
		if (z->cnt == 0)
			cq->ci = z->end;
		return;
	}
	mlx5cq_decode_full(cqe, op_own, c);
	if (c->status != 0) {
		mlx5cq_count_error(cq, c);
	} else if (cq->comp & RTE_MLX5CQ_COMP_ENHANCED) {
		/* The title of the arrays that follow: its slot may be
		 * reused once consumed, keep a copy.
		 */
		memcpy(z->title, (const void *)(uintptr_t)cqe, 64);
		z->trec = *c;
		z->wqe_next = (uint16_t)(c->wqe_counter + 1);
		z->have_title = 1;
	}
	cq->ci++;
}

void
mlx5cq_poll_publish(struct rte_mlx5cq *cq, uint32_t ci, uint16_t i, int stop,
		    int dbr)
{
	mlx5cq_poll_publish_inline(cq, ci, i, stop, dbr);
}

uint16_t
mlx5cq_poll_generic(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
		 uint16_t n, uint16_t done, int publish)
{
	struct mlx5cq_session *z = MLX5CQ_SESSION(cq);
	uint32_t ci0 = cq->ci, ci;
	uint16_t i = done;
	int stop = 0;

	cq->ci += done;
	while (i < n) {
		volatile const uint8_t *cqe;
		uint8_t op_own = 0;
		int ret;

		if (z->cnt) {
			i = (uint16_t)(i + mlx5cq_session_burst(cq, cpl + i,
							    (uint16_t)(n - i)));
			if (z->cnt == 0)
				cq->ci = z->end;
			continue;
		}
		ret = peek(cq, &cqe, &op_own);
		if (ret <= 0) {
			stop = ret < 0;
			break;
		}
		consume(cq, cqe, op_own, &cpl[i]);
		i++;
	}
	ci = cq->ci;
	cq->ci = ci0;
	mlx5cq_poll_publish(cq, ci, i, stop, publish);
	return i;
}

const volatile void *
rte_mlx5cq_raw_peek(struct rte_mlx5cq *cq)
{
	volatile const uint8_t *cqe = NULL;
	uint8_t op_own;
	const volatile void *ret = NULL;

	if (cq == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	mlx5cq_lock(cq);
	if (peek(cq, &cqe, &op_own) > 0)
		ret = cqe == NULL ? mlx5cq_session_synth(cq, cq->ci) : cqe;
	else
		rte_errno = ENOENT;
	mlx5cq_unlock(cq);
	return ret;
}

int
rte_mlx5cq_raw_advance(struct rte_mlx5cq *cq)
{
	struct rte_mlx5cq_cpl c;
	uint16_t n;

	if (cq == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	mlx5cq_lock(cq);
	n = mlx5cq_poll_generic(cq, &c, 1, 0, 1);
	mlx5cq_unlock(cq);
	if (n == 0) {
		rte_errno = ENOENT;
		return -ENOENT;
	}
	return 0;
}

/* Iterator support (mlx5cq_iter.c): the current completion's CQE. */
int
mlx5cq_iter_fetch(struct rte_mlx5cq *cq, const volatile uint8_t **cqe)
{
	volatile const uint8_t *e = NULL;
	uint8_t op_own;
	int ret = peek(cq, &e, &op_own);

	if (ret <= 0)
		return ret < 0 ? -EAGAIN : -ENOENT;
	*cqe = e == NULL ? mlx5cq_session_synth(cq, cq->ci) : e;
	return 0;
}

void
mlx5cq_iter_consume(struct rte_mlx5cq *cq)
{
	struct rte_mlx5cq_cpl c;

	mlx5cq_poll_generic(cq, &c, 1, 0, 0);
}
