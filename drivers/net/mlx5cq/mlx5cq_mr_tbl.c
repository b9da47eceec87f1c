/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Lkey table of an RX queue whose mempool spans several memory regions,
 * built once at queue setup, read by the refill (struct mlx5cq_mr_tbl).
 *
 * Page numbers alone do not do: the chunks of a mempool are not aligned
 * to their pages (rte_malloc areas share 2 MiB hugepages; with --no-huge
 * the pages are 4 KiB and a pool spans thousands of them). So the table
 * works on runs: the mempool's chunks sorted by address, neighbours with
 * the same lkey merged (the gap between them holds no buffer of this
 * pool). A granule of address space can only hold pieces of three runs
 * if it holds the middle one whole: with a granule no longer than the
 * shortest run between the first and the last one (a power of two, 4 KiB
 * to 1 GiB), each granule holds pieces of at most two, told apart by one
 * split offset. The entries are as many as the granules the pool spans,
 * rounded up to a power of two, at most MLX5CQ_MR_TBL_MAX (beyond, direct
 * mapped: a granule whose slot is taken is left to the search).
 */

#include <errno.h>
#include <stdlib.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mempool.h>

#include "mlx5cq_ethdev.h"

/* Entries at most (16 bytes each). */
#define MLX5CQ_MR_TBL_MAX 4096
#define MLX5CQ_MR_TBL_SHIFT_MIN 12
#define MLX5CQ_MR_TBL_SHIFT_MAX 30

struct mlx5cq_mr_run {
	uintptr_t start;
	uintptr_t end;
	uint32_t lkey;
};

/* Lkey of the port's region holding [start, end), or UINT32_MAX. */
static uint32_t
mlx5cq_mr_tbl_region(struct mlx5cq_mr_table *t, uintptr_t start,
		     uintptr_t end)
{
	uint32_t i, lkey = UINT32_MAX;

	rte_spinlock_lock(&t->lock);
	for (i = 0; i < t->n; i++)
		if (start >= t->mr[i].start && end <= t->mr[i].end) {
			lkey = t->mr[i].lkey;
			break;
		}
	rte_spinlock_unlock(&t->lock);
	return lkey;
}

/* Chunks of mp as runs of one lkey (sorted); *n runs; NULL: ENOMEM. */
static struct mlx5cq_mr_run *
mlx5cq_mr_tbl_runs(struct mlx5cq_priv *priv, struct rte_mempool *mp,
		   unsigned int *n)
{
	struct mlx5cq_mr_range *c;
	struct mlx5cq_mr_run *r;
	unsigned int i, k = 0, nc;

	c = mlx5cq_mr_chunks(mp, &nc);
	if (c == NULL)
		return NULL;
	r = calloc(nc ? nc : 1, sizeof(*r));
	if (r == NULL) {
		free(c);
		rte_errno = ENOMEM;
		return NULL;
	}
	for (i = 0; i < nc; i++) {
		uint32_t lkey = mlx5cq_mr_tbl_region(&priv->mrs, c[i].start,
						     c[i].end);

		if (k > 0 && r[k - 1].lkey == lkey && lkey != UINT32_MAX) {
			r[k - 1].end = c[i].end;
			continue;
		}
		r[k].start = c[i].start;
		r[k].end = c[i].end;
		r[k].lkey = lkey;
		k++;
	}
	free(c);
	*n = k;
	return r;
}

/* log2 of the granule: at most the shortest inner run. */
static uint32_t
mlx5cq_mr_tbl_shift(const struct mlx5cq_mr_run *r, unsigned int n)
{
	uintptr_t min = (uintptr_t)1 << MLX5CQ_MR_TBL_SHIFT_MAX;
	uint32_t shift = MLX5CQ_MR_TBL_SHIFT_MAX;
	unsigned int i;

	for (i = 1; i + 1 < n; i++)
		min = RTE_MIN(min, r[i].end - r[i].start);
	while (shift > MLX5CQ_MR_TBL_SHIFT_MIN &&
	       ((uintptr_t)1 << shift) > min)
		shift--;
	return shift;
}

/* Put the piece of run r in granule g into its entry. */
static void
mlx5cq_mr_tbl_put(struct mlx5cq_mr_tbl *t, const struct mlx5cq_mr_run *r,
		  uintptr_t g)
{
	struct mlx5cq_mr_tbl_ent *e = &t->ent[g & t->mask];
	uintptr_t tag = g >> t->log_n;
	uintptr_t base = g << t->shift;

	if (tag >= UINT32_MAX) {
		t->searched++;
		return;
	}
	if (e->tag == UINT32_MAX) {
		/* First piece: the whole granule. */
		e->tag = (uint32_t)tag;
		e->split = 0;
		e->lkey[0] = r->lkey;
		e->lkey[1] = r->lkey;
		t->pages++;
		return;
	}
	if (e->tag != tag) {
		/* Slot of another granule: this one is searched. */
		t->searched++;
		return;
	}
	if (e->split == 0 && e->lkey[0] != UINT32_MAX && r->start > base) {
		/* Second region from r->start on. */
		e->split = (uint32_t)(r->start - base);
		e->lkey[1] = r->lkey;
		t->split++;
		return;
	}
	/* A third region: the whole granule goes to the search. */
	if (e->lkey[0] != UINT32_MAX)
		t->searched++;
	e->lkey[0] = UINT32_MAX;
	e->lkey[1] = UINT32_MAX;
}

/*
 * Whether every buffer of the runs finds its lkey in its granule's entry
 * without a check (no collision, nothing searched, every run
 * registered); if so, fill fast[] (after ent[] in the table's memory).
 */
static void
mlx5cq_mr_tbl_exact(struct mlx5cq_mr_tbl *t, const struct mlx5cq_mr_run *r,
		    unsigned int n, uint64_t granules)
{
	struct mlx5cq_mr_tbl_fast *f;
	uintptr_t i;
	unsigned int k;

	t->fast = NULL;
	if (n == 0 || granules > t->mask + 1 || t->searched != 0)
		return;
	for (k = 0; k < n; k++)
		if (r[k].lkey == UINT32_MAX)
			return;
	f = (struct mlx5cq_mr_tbl_fast *)&t->ent[t->mask + 1];
	for (i = 0; i <= t->mask; i++) {
		const struct mlx5cq_mr_tbl_ent *e = &t->ent[i];
		/* The granule of slot i: its tag above, i below. */
		uintptr_t base = (((uintptr_t)e->tag << t->log_n) | i) <<
				 t->shift;

		if (e->tag == UINT32_MAX)
			continue; /* No buffer of the pool maps here. */
		f[i].split = base + e->split;
		f[i].lkey_be[0] = rte_cpu_to_be_32(e->lkey[0]);
		f[i].lkey_be[1] = rte_cpu_to_be_32(e->lkey[1]);
	}
	t->fast = f;
}

/**
 * Build the lkey table of mp's chunks (registered before) for an RX queue
 * on socket. Returns it (rte_free() it), or NULL with rte_errno ENOMEM.
 */
struct mlx5cq_mr_tbl *
mlx5cq_mr_tbl_build(struct mlx5cq_priv *priv, struct rte_mempool *mp,
		    int socket)
{
	struct mlx5cq_mr_tbl *t;
	struct mlx5cq_mr_run *r;
	unsigned int i, n;
	uint32_t shift, log_n = 0;
	uint64_t granules = 0;
	uintptr_t g;

	r = mlx5cq_mr_tbl_runs(priv, mp, &n);
	if (r == NULL)
		return NULL;
	shift = mlx5cq_mr_tbl_shift(r, n);
	/* The granules the pool spans: no two share a slot. */
	if (n > 0)
		granules = ((r[n - 1].end - 1) >> shift) -
			   (r[0].start >> shift) + 1;
	while (((uint64_t)1 << log_n) < granules &&
	       ((uint32_t)1 << log_n) < MLX5CQ_MR_TBL_MAX)
		log_n++;
	/* ent[], then fast[] (used only when the table turns out exact). */
	t = rte_zmalloc_socket("mlx5cq_mr_tbl", sizeof(*t) +
			       (sizeof(t->ent[0]) + sizeof(t->fast[0])) *
			       ((size_t)1 << log_n), RTE_CACHE_LINE_SIZE,
			       socket);
	if (t == NULL) {
		free(r);
		PMD_LOG(ERR, "mempool %s: no memory for an lkey table of %u "
			"entries", mp->name, 1u << log_n);
		rte_errno = ENOMEM;
		return NULL;
	}
	t->shift = shift;
	t->log_n = log_n;
	t->mask = ((uintptr_t)1 << log_n) - 1;
	t->off_mask = ((uintptr_t)1 << shift) - 1;
	t->chunks = mp->nb_mem_chunks;
	for (i = 0; i <= t->mask; i++) {
		t->ent[i].tag = UINT32_MAX;
		t->ent[i].lkey[0] = UINT32_MAX;
		t->ent[i].lkey[1] = UINT32_MAX;
	}
	for (i = 0; i < n; i++)
		for (g = r[i].start >> shift; g <= (r[i].end - 1) >> shift;
		     g++)
			mlx5cq_mr_tbl_put(t, &r[i], g);
	mlx5cq_mr_tbl_exact(t, r, n, granules);
	PMD_LOG(DEBUG, "mempool %s: %u regions, lkey table of %u entries%s, "
		"%u KiB granules: %u stored (%u split), %u searched",
		mp->name, n, 1u << log_n, t->fast != NULL ? "" : " (collisions)",
		1u << (shift - 10), t->pages, t->split, t->searched);
	free(r);
	return t;
}
