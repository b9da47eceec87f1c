/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Lean path for compressed sessions (basic layout): a consumer that turns
 * completions into its own objects in one pass reads the mini-CQEs of the
 * open session in place, an array at a time, with the session's title
 * decoded once, instead of going through records.
 */

#include <errno.h>

#include <rte_errno.h>

#include "mlx5cq_private.h"

/*
 * The open session, or the one starting at the consumer index (opened
 * after the owner check and the read barrier). 0 when there is none.
 */
static __rte_always_inline struct mlx5cq_session *
session_open_at_ci(struct rte_mlx5cq *cq)
{
	struct mlx5cq_session *z = MLX5CQ_SESSION(cq);

	if (unlikely(cq->slow & (RTE_MLX5CQ_SLOW_LOCK |
				 RTE_MLX5CQ_SLOW_ENHANCED)))
		return NULL;
	if (z->cnt == 0) {
		uint32_t ci = cq->ci;
		volatile const uint8_t *e = rte_mlx5cq__cqe(cq, ci);
		uint8_t oo = e[RTE_MLX5CQ_CQE_OP_OWN];

		if (!rte_mlx5cq__sw_owned(oo, ci, cq->log_n) ||
		    ((oo >> 2) & 3) != RTE_MLX5CQ_FORMAT_COMPRESSED)
			return NULL;
		rte_io_rmb();
		if (mlx5cq_session_open(cq, e, oo, ci, 1) != 0) {
			MLX5CQ_CNT(cq)->comp_unhandled++;
			return NULL;
		}
	}
	return z;
}

uint32_t
rte_mlx5cq_session_open(struct rte_mlx5cq *cq, struct rte_mlx5cq_session *s)
{
	struct mlx5cq_session *z = session_open_at_ci(cq);
	uint32_t fmt;

	if (z == NULL)
		return 0;
	fmt = mlx5cq_session_format(cq, z);
	s->title = &z->trec;
	s->first = z->end - z->cnt;
	s->pos = z->ai;
	s->left = z->cnt - z->ai;
	s->fmt = fmt == UINT32_MAX ? RTE_MLX5CQ_MINI_FMT_REQ : (uint8_t)fmt;
	return s->left;
}

void
rte_mlx5cq_session_advance(struct rte_mlx5cq *cq, uint16_t k)
{
	struct mlx5cq_session *z = MLX5CQ_SESSION(cq);
	uint32_t left, take;

	if (k == 0 || z->cnt == 0)
		return;
	if (k >= z->cnt - z->ai) {
		/* The rest of the session: closed in one step. */
		k = (uint16_t)(z->cnt - z->ai);
		mlx5cq_session_consume(cq, k);
	} else {
		/* Array by array: the state moves as the poll moves it. */
		for (left = k; left != 0; left -= take) {
			take = RTE_MIN(left, 8u - (z->ai & 7u));
			mlx5cq_session_consume(cq, take);
		}
	}
	MLX5CQ_CNT(cq)->minis += k;
	cq->polls++;
	cq->completions += k;
	if (z->cnt == 0)
		rte_mlx5cq__update_ci(cq, z->end);
}
