/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The RX mempool of a case, as perf-rx makes it: n pktmbufs in `chunks`
 * separate rte_malloc areas (a small allocation made between two chunks,
 * freed once the next chunk is placed, keeps them apart), mbufs handed
 * out in a shuffled order. And the memory
 * regions DPDK 22.11's mempool registration (mlx5_mempool_reg_analyze)
 * would make of it, which is what mlx5_mr_mempool_populate_cache puts in
 * an RX queue's bottom-half MR cache.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_common.h>
#include <rte_eal_paging.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mbuf_pool_ops.h>
#include <rte_memory.h>
#include <rte_mempool.h>

#include "bench_dpdk_mlx5.h"

#define BENCH_POOL_CACHE 256

static void
bench_chunk_free(struct rte_mempool_memhdr *memhdr, void *opaque)
{
	RTE_SET_USED(memhdr);
	rte_free(opaque);
}

/* Shuffle the pool's free objects (seeded, so every run is the same). */
static int
bench_pool_shuffle(struct rte_mempool *mp, unsigned int n)
{
	void **objs = malloc(sizeof(*objs) * n);
	uint32_t seed = 0x2545f491;
	unsigned int i;

	if (objs == NULL || rte_mempool_get_bulk(mp, objs, n) != 0) {
		free(objs);
		return -1;
	}
	for (i = n - 1; i > 0; i--) {
		unsigned int j;
		void *t;

		seed ^= seed << 13;
		seed ^= seed >> 17;
		seed ^= seed << 5;
		j = seed % (i + 1);
		t = objs[i];
		objs[i] = objs[j];
		objs[j] = t;
	}
	rte_mempool_put_bulk(mp, objs, n);
	free(objs);
	return 0;
}

struct rte_mempool *
bench_pool_create(const char *name, unsigned int n, unsigned int chunks)
{
	struct rte_pktmbuf_pool_private priv = {
		.mbuf_data_room_size = RTE_MBUF_DEFAULT_BUF_SIZE,
	};
	uint32_t elt = sizeof(struct rte_mbuf) + RTE_MBUF_DEFAULT_BUF_SIZE;
	struct rte_mempool_objsz sz;
	struct rte_mempool *mp;
	void *gap = NULL;
	unsigned int c;

	if (n == 0 || chunks == 0 || chunks > n) {
		printf("bench: pool %s: %u mbufs in %u chunks\n", name, n,
		       chunks);
		rte_errno = EINVAL;
		return NULL;
	}
	mp = rte_mempool_create_empty(name, n, elt, BENCH_POOL_CACHE,
				      sizeof(priv), SOCKET_ID_ANY, 0);
	if (mp == NULL)
		return NULL;
	if (rte_mempool_set_ops_byname(mp, rte_mbuf_best_mempool_ops(),
				       NULL) != 0)
		goto fail;
	rte_pktmbuf_pool_init(mp, &priv);
	rte_mempool_calc_obj_size(elt, 0, &sz);
	for (c = 0; c < chunks; c++) {
		unsigned int left = n - mp->populated_size;
		unsigned int want = c + 1 == chunks ? left : n / chunks;
		/*
		 * Objects do not cross page boundaries: 1/32 more room for
		 * the page ends, and some for the first object's alignment.
		 */
		size_t len = (size_t)sz.total_size * (want + want / 32 + 4);
		void *a = rte_malloc("bench_chunk", len, 4096);
		int ret;

		if (a == NULL)
			goto fail;
		ret = rte_mempool_populate_iova(mp, a, rte_malloc_virt2iova(a),
						len, bench_chunk_free, a);
		if (ret <= 0) {
			rte_free(a);
			goto fail;
		}
		rte_free(gap);
		gap = NULL;
		/* Keep the next chunk away from this one (not adjacent). */
		if (c + 1 < chunks) {
			gap = rte_malloc("bench_gap", 4096, 4096);
			if (gap == NULL)
				goto fail;
		}
	}
	if (mp->populated_size != n)
		goto fail;
	rte_mempool_obj_iter(mp, rte_pktmbuf_init, NULL);
	if (bench_pool_shuffle(mp, n) != 0)
		goto fail;
	return mp;
fail:
	printf("bench: pool %s of %u mbufs in %u chunks: %s\n", name, n,
	       chunks, rte_strerror(rte_errno));
	rte_free(gap);
	rte_mempool_free(mp);
	return NULL;
}

static void
bench_range_of_chunk(struct rte_mempool *mp, void *opaque,
		     struct rte_mempool_memhdr *memhdr, unsigned int idx)
{
	struct bench_range *r = (struct bench_range *)opaque + idx;
	uintptr_t pg = (uintptr_t)rte_mem_page_size();
	uintptr_t start = (uintptr_t)memhdr->addr;

	RTE_SET_USED(mp);
	r->start = RTE_ALIGN_FLOOR(start, pg);
	r->end = RTE_ALIGN_CEIL(start + memhdr->len, pg);
}

static int
bench_range_cmp(const void *a, const void *b)
{
	const struct bench_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * DPDK 22.11 (mlx5_get_mempool_ranges, mlx5_mempool_reg_analyze): one
 * range per memory chunk, widened to system pages, sorted, touching
 * ranges merged; a pool that fits in one hugepage becomes that hugepage.
 */
int
bench_pool_ranges(struct rte_mempool *mp, struct bench_range **out,
		  unsigned int *out_n)
{
	struct bench_range *r;
	struct rte_memseg_list *msl;
	unsigned int n = mp->nb_mem_chunks, i, k;

	r = calloc(n, sizeof(*r));
	if (r == NULL || n == 0) {
		free(r);
		return -ENOMEM;
	}
	rte_mempool_mem_iter(mp, bench_range_of_chunk, r);
	qsort(r, n, sizeof(*r), bench_range_cmp);
	for (i = 1, k = 0; i < n; i++) {
		if (r[k].end == r[i].start)
			r[k].end = r[i].end;
		else
			r[++k] = r[i];
	}
	n = k + 1;
	msl = rte_mem_virt2memseg_list((void *)r[0].start);
	if (msl != NULL) {
		uintptr_t hp = RTE_ALIGN_FLOOR(r[0].start,
					       (uintptr_t)msl->page_sz);

		if (r[n - 1].end < hp + msl->page_sz) {
			r[0].start = hp;
			r[0].end = hp + msl->page_sz;
			n = 1;
		}
	}
	*out = r;
	*out_n = n;
	return 0;
}
