/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Memory registration. A mempool's memory chunks are registered with
 * reg_mr (IBV_ACCESS_LOCAL_WRITE) on the port's PD, chunks that touch or
 * lie less than a page apart merged into one region (the gap between two
 * rte_malloc areas is their allocator's header, in memory the process
 * owns): a mempool of chunks allocated one after the other becomes one
 * region. With mr_ext_memseg_en=1 (default) chunks further apart share
 * one MR too when the memory between them is allocated DPDK memory of
 * the same VA-contiguous area (rte_memseg_contig_walk(): pages of one
 * memseg list, all in use), as DPDK's mlx5 extends a registration to its
 * memseg chunk: a pool built from chunks allocated at different times
 * gets one lkey, and the RX refill no lkey table. The MR also covers the
 * other allocations between the chunks and keeps their pages registered
 * until the port closes, but the table holds the pool's pieces only (one
 * entry each, the same lkey; the first entry owns the MR): no lookup
 * answers with that lkey for memory between them, which may be freed
 * and mapped anew while the MR lives.
 * WQE data segments carry the region's lkey and the buffer's virtual
 * address.
 *
 * The port keeps an append-only table (writers under a lock, readers
 * lock-free up to the published count). Each queue keeps a view of it
 * sorted by address, rebuilt when the table grew, and looks addresses up
 * as the region hit last (a mempool of one region always hits), then in a
 * direct-mapped cache of 64 KiB blocks (one load and two compares; a
 * block a region boundary crosses may miss), then with a binary search: a
 * miss costs log2(regions) steps, never a scan.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_memory.h>
#include <rte_mempool.h>

#include <infiniband/verbs.h>
#include <mlx5_glue.h>

#include "mlx5cq_ethdev.h"

/* Chunks closer than this are registered as one region. */
#define MLX5CQ_MR_MERGE_GAP 4096

struct mlx5cq_mr_walk {
	struct mlx5cq_mr_range *r;
	unsigned int n;
	unsigned int max;
};

static void
mlx5cq_mr_collect(struct rte_mempool *mp, void *opaque,
		  struct rte_mempool_memhdr *memhdr, unsigned int idx)
{
	struct mlx5cq_mr_walk *w = opaque;

	RTE_SET_USED(mp);
	RTE_SET_USED(idx);
	if (w->n < w->max) {
		w->r[w->n].start = (uintptr_t)memhdr->addr;
		w->r[w->n].end = (uintptr_t)memhdr->addr + memhdr->len;
	}
	w->n++;
}

static int
mlx5cq_mr_range_cmp(const void *a, const void *b)
{
	const struct mlx5cq_mr_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Whether [start, end) lies in a region of the table. */
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

/*
 * Register [p[0].start, p[np - 1].end) for mp as one MR and enter the
 * pieces p[0..np) not entered yet, each with its lkey (table lock held;
 * nothing registered when every piece is known). The first entry made
 * owns the MR (deregisters it). 0 or -errno.
 */
static int
mlx5cq_mr_add(struct mlx5cq_priv *priv, struct rte_mempool *mp,
	      const struct mlx5cq_mr_range *p, unsigned int np)
{
	struct mlx5cq_mr_table *t = &priv->mrs;
	const uintptr_t start = p[0].start, end = p[np - 1].end;
	unsigned int i, want = 0;
	struct ibv_mr *mr;
	int ret, owner = 1;

	for (i = 0; i < np; i++)
		want += !mlx5cq_mr_known(t, p[i].start, p[i].end);
	if (want == 0)
		return 0;
	if (t->n + want > MLX5CQ_MR_MAX) {
		PMD_LOG(ERR, "mempool %s: more than %u memory regions",
			mp->name, MLX5CQ_MR_MAX);
		return -ENOSPC;
	}
	mr = mlx5_glue->reg_mr(priv->pd, (void *)start, end - start,
			       IBV_ACCESS_LOCAL_WRITE);
	if (mr == NULL) {
		ret = -(errno ? errno : ENOMEM);
		PMD_LOG(ERR, "mempool %s: reg_mr of %zu bytes at %#" PRIxPTR
			" failed: %s", mp->name, (size_t)(end - start), start,
			strerror(-ret));
		return ret;
	}
	for (i = 0; i < np; i++) {
		struct mlx5cq_mr *e = &t->mr[t->n];

		if (mlx5cq_mr_known(t, p[i].start, p[i].end))
			continue;
		e->start = p[i].start;
		e->end = p[i].end;
		e->lkey = mr->lkey;
		e->mr = mr;
		e->mp = mp;
		e->owner = owner;
		owner = 0;
		/* Publish the entry after its fields. */
		__atomic_store_n(&t->n, t->n + 1, __ATOMIC_RELEASE);
	}
	return 0;
}

/*
 * The memory chunks of mp sorted by address (free() the array), *n of
 * them; NULL with rte_errno ENOMEM.
 */
struct mlx5cq_mr_range *
mlx5cq_mr_chunks(struct rte_mempool *mp, unsigned int *n)
{
	struct mlx5cq_mr_walk w = { .r = NULL, .n = 0, .max = 0 };

	/* Count the chunks, then collect them. */
	rte_mempool_mem_iter(mp, mlx5cq_mr_collect, &w);
	w.max = w.n;
	w.n = 0;
	w.r = calloc(w.max ? w.max : 1, sizeof(*w.r));
	if (w.r == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	rte_mempool_mem_iter(mp, mlx5cq_mr_collect, &w);
	qsort(w.r, w.max, sizeof(*w.r), mlx5cq_mr_range_cmp);
	*n = w.max;
	return w.r;
}

/* Where the VA-contiguous area of allocated DPDK memory holding addr ends. */
struct mlx5cq_mr_area {
	uintptr_t addr;
	uintptr_t end;
};

static int
mlx5cq_mr_area_cb(const struct rte_memseg_list *msl,
		  const struct rte_memseg *ms, size_t len, void *arg)
{
	struct mlx5cq_mr_area *a = arg;
	uintptr_t s = (uintptr_t)ms->addr;

	RTE_SET_USED(msl);
	if (a->addr < s || a->addr - s >= len)
		return 0;
	a->end = s + len;
	return 1;
}

/*
 * End of the area of DPDK memory, VA-contiguous and all in use, that
 * holds addr (0: none, e.g. external or non-DPDK memory).
 */
static uintptr_t
mlx5cq_mr_area_end(uintptr_t addr)
{
	struct mlx5cq_mr_area a = { .addr = addr, .end = 0 };

	if (rte_memseg_contig_walk(mlx5cq_mr_area_cb, &a) != 1)
		return 0;
	return a.end;
}

/*
 * Register every chunk of mp not registered yet: the chunks sorted by
 * address, those less than MLX5CQ_MR_MERGE_GAP apart merged into pieces,
 * the pieces into spans (with mr_ext_memseg_en, the pieces that end in
 * the first one's area of contiguous DPDK memory), one MR per span, one
 * table entry per piece. 0 or -errno.
 */
int
mlx5cq_mr_register_mempool(struct mlx5cq_priv *priv, struct rte_mempool *mp)
{
	const int ext = priv->args.mr_ext_memseg_en;
	struct mlx5cq_mr_range *r;
	unsigned int i, j, k = 0, n, spans = 0;
	int ret = 0;

	r = mlx5cq_mr_chunks(mp, &n);
	if (r == NULL)
		return -ENOMEM;
	/* Pieces: chunks less than MLX5CQ_MR_MERGE_GAP apart, in place. */
	for (i = 0; i < n; i = j, k++) {
		uintptr_t end = r[i].end;

		for (j = i + 1; j < n && r[j].start < end + MLX5CQ_MR_MERGE_GAP;
		     j++)
			end = RTE_MAX(end, r[j].end);
		r[k].start = r[i].start;
		r[k].end = end;
	}
	/*
	 * Spans of pieces, one MR each: with ext, the pieces that end in
	 * the first one's area of contiguous DPDK memory (the area walk
	 * takes EAL's memory lock: before the table's lock). The pieces
	 * are entered alone, so lookups never find the MR for the memory
	 * between them.
	 */
	for (i = 0; i < k && ret == 0; i = j, spans++) {
		uintptr_t area = ext && i + 1 < k ?
				 mlx5cq_mr_area_end(r[i].start) : 0;

		for (j = i + 1; j < k && r[j].end <= area; j++)
			;
		rte_spinlock_lock(&priv->mrs.lock);
		ret = mlx5cq_mr_add(priv, mp, &r[i], j - i);
		rte_spinlock_unlock(&priv->mrs.lock);
	}
	if (ret == 0)
		PMD_LOG(DEBUG, "mempool %s: %u chunks, %u pieces in %u memory "
			"regions (mr_ext_memseg_en=%d)", mp->name, n, k, spans,
			ext);
	free(r);
	if (ret != 0)
		rte_errno = -ret;
	return ret;
}

/* Deregister everything (close). */
void
mlx5cq_mr_release_all(struct mlx5cq_priv *priv)
{
	struct mlx5cq_mr_table *t = &priv->mrs;
	uint32_t i;

	rte_spinlock_lock(&t->lock);
	for (i = 0; i < t->n; i++)
		if (t->mr[i].owner && mlx5_glue->dereg_mr(t->mr[i].mr) != 0)
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
	c->table = &p->mrs; /* every block slot [0, 0): empty */
}

/* Rebuild the queue's sorted view from the port's table. */
static void
mlx5cq_mr_view_build(struct mlx5cq_mr_cache *c)
{
	const struct mlx5cq_mr_table *t = c->table;
	uint32_t n = __atomic_load_n(&t->n, __ATOMIC_ACQUIRE);
	uint32_t i, j;

	memset(c->blk, 0, sizeof(c->blk));
	c->last_start = 0;
	c->last_end = 0;
	for (i = 0; i < n; i++) {
		/* Insertion by start address (n is small, rebuilt rarely). */
		for (j = i; j > 0 && c->start[j - 1] > t->mr[i].start; j--) {
			c->start[j] = c->start[j - 1];
			c->end[j] = c->end[j - 1];
			c->lkey[j] = c->lkey[j - 1];
		}
		c->start[j] = t->mr[i].start;
		c->end[j] = t->mr[i].end;
		c->lkey[j] = t->mr[i].lkey;
	}
	c->n = n;
}

/*
 * Miss of the sorted view: the table grew since the view was built, or
 * the buffer belongs to a mempool not seen yet (TX of mbufs from another
 * pool), which is registered.
 */
uint32_t
mlx5cq_mr_lookup_slow(struct mlx5cq_mr_cache *c, uintptr_t addr,
		      struct rte_mempool *mp)
{
	struct mlx5cq_priv *priv = container_of(c->table, struct mlx5cq_priv,
						mrs);
	uint32_t lkey;

	if (c->n != __atomic_load_n(&c->table->n, __ATOMIC_ACQUIRE)) {
		mlx5cq_mr_view_build(c);
		lkey = mlx5cq_mr_search(c, addr);
		if (lkey != UINT32_MAX)
			return lkey;
	}
	if (mp == NULL)
		return UINT32_MAX;
	/* A secondary's mempool is registered by the primary, which owns
	 * the protection domain (net/mlx5's MLX5_MP_REQ_CREATE_MR); the
	 * table it fills is shared.
	 */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY ?
	    mlx5cq_mp_req_mr(priv, mp) != 0 :
	    mlx5cq_mr_register_mempool(priv, mp) != 0)
		return UINT32_MAX;
	mlx5cq_mr_view_build(c);
	return mlx5cq_mr_search(c, addr);
}

/* The lookup out of line: the lkey table's miss (RX refill). */
__rte_noinline uint32_t
mlx5cq_mr_lookup_cold(struct mlx5cq_mr_cache *c, uintptr_t addr,
		      struct rte_mempool *mp)
{
	return mlx5cq_mr_lookup(c, addr, mp);
}
