/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Memory registration of the mbufs' memory: the first time a buffer of a
 * mempool is met, every memory chunk of that mempool is registered
 * (reg_mr, local write) on the device's PD; the queue pair keeps the
 * region hit last, then the device's table is searched.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <infiniband/verbs.h>
#include <mlx5_glue.h>

#include "mlx5cq_crypto.h"

struct mlx5cq_crypto_mr_walk {
	struct mlx5cq_crypto_priv *priv;
	const struct rte_mempool *mp;
	int ret;
};

static void
mlx5cq_crypto_mr_chunk(struct rte_mempool *mp, void *opaque,
		       struct rte_mempool_memhdr *memhdr, unsigned int idx)
{
	struct mlx5cq_crypto_mr_walk *w = opaque;
	struct mlx5cq_crypto_priv *priv = w->priv;
	struct mlx5cq_crypto_mr *r;
	struct ibv_mr *mr;

	RTE_SET_USED(idx);
	if (w->ret != 0)
		return;
	if (priv->mr_n == MLX5CQ_CRYPTO_MR_MAX) {
		CRYPTO_LOG(ERR, "mempool %s: more than %u memory regions",
			   mp->name, MLX5CQ_CRYPTO_MR_MAX);
		w->ret = -ENOSPC;
		return;
	}
	mr = mlx5_glue->reg_mr(priv->pd, memhdr->addr, memhdr->len,
			       IBV_ACCESS_LOCAL_WRITE);
	if (mr == NULL) {
		CRYPTO_LOG(ERR, "mempool %s: reg_mr of %zu bytes failed: %s",
			   mp->name, memhdr->len, strerror(errno));
		w->ret = -(errno ? errno : ENOMEM);
		return;
	}
	r = &priv->mr[priv->mr_n++];
	r->start = (uintptr_t)memhdr->addr;
	r->end = r->start + memhdr->len;
	r->lkey = mr->lkey;
	r->mr = mr;
	r->mp = w->mp;
}

static const struct mlx5cq_crypto_mr *
mlx5cq_crypto_mr_find(const struct mlx5cq_crypto_priv *priv, uintptr_t addr)
{
	uint32_t i;

	for (i = 0; i < priv->mr_n; i++)
		if (addr >= priv->mr[i].start && addr < priv->mr[i].end)
			return &priv->mr[i];
	return NULL;
}

/* lkey of the buffer at addr in mbuf m; UINT32_MAX when unregistrable. */
uint32_t
mlx5cq_crypto_mr_lookup(struct mlx5cq_crypto_qp *qp,
			const struct rte_mbuf *m, uintptr_t addr)
{
	return mlx5cq_crypto_mr_lookup_mp(qp, m->pool, addr);
}

/* lkey of addr, registering mempool mp (may be NULL) when needed. */
uint32_t
mlx5cq_crypto_mr_lookup_mp(struct mlx5cq_crypto_qp *qp,
			   struct rte_mempool *mp, uintptr_t addr)
{
	struct mlx5cq_crypto_priv *priv = qp->priv;
	const struct mlx5cq_crypto_mr *r;
	struct mlx5cq_crypto_mr_walk w;
	uint32_t i;

	rte_spinlock_lock(&priv->mr_lock);
	r = mlx5cq_crypto_mr_find(priv, addr);
	/* A pool is registered once (its chunks do not change). */
	for (i = 0; r == NULL && mp != NULL && i < priv->mr_n; i++)
		if (priv->mr[i].mp == mp)
			mp = NULL;
	if (r == NULL && mp != NULL) {
		w.priv = priv;
		w.mp = mp;
		w.ret = 0;
		rte_mempool_mem_iter(mp, mlx5cq_crypto_mr_chunk, &w);
		r = mlx5cq_crypto_mr_find(priv, addr);
	}
	rte_spinlock_unlock(&priv->mr_lock);
	if (r == NULL) {
		CRYPTO_LOG(ERR, "qp %u: buffer %#" PRIxPTR " is in no "
			   "registrable mempool", qp->qp_id, addr);
		return UINT32_MAX;
	}
	qp->mr_start = r->start;
	qp->mr_end = r->end;
	qp->mr_lkey = r->lkey;
	return r->lkey;
}

void
mlx5cq_crypto_mr_release_all(struct mlx5cq_crypto_priv *priv)
{
	uint32_t i;

	for (i = 0; i < priv->mr_n; i++)
		if (mlx5_glue->dereg_mr(priv->mr[i].mr) != 0)
			CRYPTO_LOG(ERR, "dereg_mr of [%#" PRIxPTR ", %#" PRIxPTR
				   ") failed", priv->mr[i].start,
				   priv->mr[i].end);
	memset(priv->mr, 0, sizeof(priv->mr[0]) * priv->mr_n);
	priv->mr_n = 0;
}
