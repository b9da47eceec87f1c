/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * CQ test hooks (test_hooks_cq.h), built against the library's private
 * layout of a CQ (mlx5cq_private.h) and linked by the tests only.
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include <mlx5cq_private.h>

#include "test_hooks_cq.h"

struct rte_mlx5cq *
mlx5cq_test_cq_wrap(void *ring, void *dbrec, uint32_t log_n,
		    unsigned int stride, uint8_t comp, uint32_t ci,
		    uint32_t cqn)
{
	struct mlx5cq_cq *cq;

	if (ring == NULL || dbrec == NULL || log_n > 24 ||
	    (stride != 64 && stride != 128)) {
		rte_errno = EINVAL;
		return NULL;
	}
	cq = rte_zmalloc_socket("mlx5cq_test_cq", sizeof(*cq),
			       RTE_CACHE_LINE_SIZE, SOCKET_ID_ANY);
	if (cq == NULL)
		return NULL;
	cq->entries = 1u << log_n;
	cq->cqe_size = (uint16_t)stride;
	cq->ring = ring;
	cq->dbrec = dbrec;
	cq->flags = RTE_MLX5CQ_F_SINGLE_THREADED;
	cq->path = RTE_MLX5CQ_PATH_ATTACH;
	cq->pub.ring = ring;
	cq->pub.dbrec = dbrec;
	cq->pub.ci = ci;
	cq->pub.mask = cq->entries - 1;
	cq->pub.log_n = (uint8_t)log_n;
	cq->pub.stride_shift = stride == 128 ? 7 : 6;
	cq->pub.cqe_off = (uint8_t)(stride - RTE_MLX5CQ_PRM_CQE_SIZE);
	cq->pub.comp = comp;
	cq->pub.cqn = cqn;
	if (comp & RTE_MLX5CQ_COMP_ENHANCED)
		cq->pub.slow |= RTE_MLX5CQ_SLOW_ENHANCED;
	cq->pub.vec = (uint8_t)rte_mlx5cq_vec_best();
	if (cq->pub.vec != RTE_MLX5CQ_VEC_SCALAR)
		cq->pub.slow |= RTE_MLX5CQ_SLOW_VEC;
	rte_spinlock_init(&cq->lock);
	return &cq->pub;
}

void
mlx5cq_test_cq_free(struct rte_mlx5cq *cq)
{
	if (cq != NULL)
		rte_free(mlx5cq_from_pub(cq));
}

void
mlx5cq_test_cq_lock_set(struct rte_mlx5cq *cq, int locked)
{
	if (locked)
		cq->slow |= RTE_MLX5CQ_SLOW_LOCK;
	else
		cq->slow &= ~RTE_MLX5CQ_SLOW_LOCK;
}

uint32_t
mlx5cq_test_cq_session(const struct rte_mlx5cq *cq)
{
	return MLX5CQ_SESSION(cq)->cnt;
}

void
mlx5cq_test_cq_wc_flags_set(struct rte_mlx5cq *cq, uint64_t wc_flags)
{
	mlx5cq_from_pub(cq)->wc_flags = wc_flags;
}

uint64_t
mlx5cq_test_cq_wc_flags(const struct rte_mlx5cq *cq)
{
	return mlx5cq_from_pub(cq)->wc_flags;
}

int
mlx5cq_test_cq_iter_active(const struct rte_mlx5cq *cq)
{
	return mlx5cq_from_pub(cq)->iter_active;
}

int
mlx5cq_test_cq_lock_held(struct rte_mlx5cq *cq)
{
	rte_spinlock_t *l = &mlx5cq_from_pub(cq)->lock;

	if (!rte_spinlock_trylock(l))
		return 1;
	rte_spinlock_unlock(l);
	return 0;
}
