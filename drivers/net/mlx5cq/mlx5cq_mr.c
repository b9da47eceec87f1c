/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Memory registration: every memory chunk of a mempool is registered with
 * reg_mr (IBV_ACCESS_LOCAL_WRITE) on the port's PD; WQE data segments carry
 * the chunk's lkey and the buffer's virtual address. The port keeps an
 * append-only table (writers under a lock, readers lock-free up to the
 * published count); each queue keeps a small cache in front of it.
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_mempool.h>

#include <infiniband/verbs.h>
#include <mlx5_glue.h>

#include "mlx5cq_ethdev.h"

struct mlx5cq_mr_walk {
	struct mlx5cq_priv *priv;
	struct rte_mempool *mp;
	int ret;
};

static int
mlx5cq_mr_known(const struct mlx5cq_mr_table *t, uintptr_t start,
		uintptr_t end)
{
	uint32_t i;

	for (i = 0; i < t->n; i++)
		if (start >= t->mr[i].start && end <= t->mr[i].end)
			return 1;
	return 0;
}

static void
mlx5cq_mr_chunk(struct rte_mempool *mp, void *opaque,
		struct rte_mempool_memhdr *memhdr, unsigned int idx)
{
	struct mlx5cq_mr_walk *w = opaque;
	struct mlx5cq_mr_table *t = &w->priv->mrs;
	uintptr_t start = (uintptr_t)memhdr->addr;
	struct ibv_mr *mr;

	RTE_SET_USED(idx);
	if (w->ret != 0 || mlx5cq_mr_known(t, start, start + memhdr->len))
		return;
	if (t->n == MLX5CQ_MR_MAX) {
		PMD_LOG(ERR, "mempool %s: more than %u memory regions",
			mp->name, MLX5CQ_MR_MAX);
		w->ret = -ENOSPC;
		return;
	}
	mr = mlx5_glue->reg_mr(w->priv->pd, memhdr->addr, memhdr->len,
			       IBV_ACCESS_LOCAL_WRITE);
	if (mr == NULL) {
		w->ret = -(errno ? errno : ENOMEM);
		PMD_LOG(ERR, "mempool %s: reg_mr of %zu bytes at %p failed: %s",
			mp->name, memhdr->len, memhdr->addr,
			strerror(-w->ret));
		return;
	}
	t->mr[t->n].start = start;
	t->mr[t->n].end = start + memhdr->len;
	t->mr[t->n].lkey = mr->lkey;
	t->mr[t->n].mr = mr;
	t->mr[t->n].mp = mp;
	/* Publish the entry after its fields. */
	__atomic_store_n(&t->n, t->n + 1, __ATOMIC_RELEASE);
}

/* Register every chunk of mp not registered yet. 0 or -errno. */
int
mlx5cq_mr_register_mempool(struct mlx5cq_priv *priv, struct rte_mempool *mp)
{
	struct mlx5cq_mr_walk w = { .priv = priv, .mp = mp, .ret = 0 };

	rte_spinlock_lock(&priv->mrs.lock);
	rte_mempool_mem_iter(mp, mlx5cq_mr_chunk, &w);
	rte_spinlock_unlock(&priv->mrs.lock);
	if (w.ret != 0)
		rte_errno = -w.ret;
	return w.ret;
}

/* Deregister everything (close). */
void
mlx5cq_mr_release_all(struct mlx5cq_priv *priv)
{
	struct mlx5cq_mr_table *t = &priv->mrs;
	uint32_t i;

	rte_spinlock_lock(&t->lock);
	for (i = 0; i < t->n; i++)
		if (mlx5_glue->dereg_mr(t->mr[i].mr) != 0)
			PMD_LOG(ERR, "dereg_mr of [%#" PRIxPTR ", %#" PRIxPTR
				") failed", t->mr[i].start, t->mr[i].end);
	memset(t->mr, 0, sizeof(t->mr[0]) * t->n);
	t->n = 0;
	rte_spinlock_unlock(&t->lock);
}

void
mlx5cq_mr_cache_init(struct mlx5cq_mr_cache *c, struct mlx5cq_priv *p)
{
	memset(c, 0, sizeof(*c));
	c->table = &p->mrs;
}

static int
mlx5cq_mr_find(struct mlx5cq_mr_cache *c, uintptr_t addr)
{
	const struct mlx5cq_mr_table *t = c->table;
	uint32_t n = __atomic_load_n(&t->n, __ATOMIC_ACQUIRE);
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (addr >= t->mr[i].start && addr < t->mr[i].end) {
			uint32_t v = c->next++ % MLX5CQ_MR_CACHE;

			c->e[v].start = t->mr[i].start;
			c->e[v].end = t->mr[i].end;
			c->e[v].lkey = t->mr[i].lkey;
			return (int)i;
		}
	}
	return -1;
}

/*
 * Cache miss: search the port's table; a buffer of a mempool not seen yet
 * (TX of mbufs from another pool) registers that mempool.
 */
uint32_t
mlx5cq_mr_lookup_slow(struct mlx5cq_mr_cache *c, uintptr_t addr,
		      struct rte_mempool *mp)
{
	struct mlx5cq_priv *priv = container_of(c->table, struct mlx5cq_priv,
						mrs);
	int i;

	i = mlx5cq_mr_find(c, addr);
	if (i >= 0)
		return c->table->mr[i].lkey;
	if (mp == NULL || mlx5cq_mr_register_mempool(priv, mp) != 0)
		return UINT32_MAX;
	i = mlx5cq_mr_find(c, addr);
	return i >= 0 ? c->table->mr[i].lkey : UINT32_MAX;
}
