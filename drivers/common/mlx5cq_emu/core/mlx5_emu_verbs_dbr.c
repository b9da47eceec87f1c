/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Doorbell records of the emulated verbs path: pages of the system page
 * size from the context's external allocator or posix_memalign, cut into
 * slots of the CPU's cache line, handed out first from the page at the
 * head of the available list ([rc-dbrec] rdma-core providers/mlx5/
 * dbrec.c: __add_page(), mlx5_alloc_dbrec(), mlx5_free_db(); [rc-buf]
 * buf.c for the external allocator).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_bitops.h>
#include <rte_common.h>

#include "mlx5_emu_verbs.h"

/*
 * [rc-dbrec] records are cache_line_size apart, the value the kernel
 * returns at context allocation (mlx5_ib_alloc_ucontext(): resp.
 * cache_line_size = cache_line_size(), the CPU's L1 data line; read by
 * providers/mlx5/mlx5.c into context->cache_line_size). The model asks the
 * C library for the same line, 64 B when it cannot tell.
 */
static uint32_t
verbs_dbr_stride(void)
{
	long cl = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);

	return cl >= 16 && cl <= 4096 && rte_is_power_of_2((uint32_t)cl) ?
	       (uint32_t)cl : 64u;
}

/*
 * A doorbell record ([rc-dbrec] mlx5_alloc_dbrec): the first page with a
 * free slot, else a new page of page_size bytes (from the external
 * allocator when set [rc-buf], else page aligned); first free slot of the
 * page's bitmap. Caller holds dev->lock.
 */
volatile uint32_t *
emu_verbs_dbr_alloc(struct emu_dev *dev, struct emu_verbs_dev *vd,
		struct emu_dbr_page **pagep, uint32_t *slotp)
{
	struct emu_dbr_page *page = TAILQ_FIRST(&vd->avail);
	size_t ps = emu_verbs_page_size();
	uint32_t nslots = ps / verbs_dbr_stride();
	uint32_t nwords = (nslots + 63) / 64;
	uint32_t i, slot;
	void *mem = NULL;

	if (page == NULL) {
		page = calloc(1, sizeof(*page) + nwords * sizeof(uint64_t));
		if (page == NULL)
			return NULL;
		if (dev->have_ext_alloc) {
			mem = dev->ext_alloc.alloc(ps, dev->ext_alloc.data);
			page->ext_free = dev->ext_alloc.free;
			page->ext_data = dev->ext_alloc.data;
		} else if (posix_memalign(&mem, ps, ps) != 0) {
			mem = NULL;
		}
		if (mem == NULL) {
			EMU_LOG(ERR, "%s: no memory for a doorbell-record"
				" page (%zu bytes%s)", dev->name, ps,
				dev->have_ext_alloc ?
				", external allocator" : "");
			free(page);
			return NULL;
		}
		page->addr = mem;
		page->size = ps;
		page->nslots = nslots;
		for (i = 0; i < nslots; i++)
			page->free_map[i / 64] |= 1ull << (i % 64);
		TAILQ_INSERT_TAIL(&vd->pages, page, next);
		TAILQ_INSERT_HEAD(&vd->avail, page, avail);
		page->in_avail = 1;
		dev->stats.dbr_pages++;
	}
	for (i = 0; page->free_map[i] == 0; i++)
		;
	slot = i * 64 + (uint32_t)__builtin_ctzll(page->free_map[i]);
	page->free_map[i] &= ~(1ull << (slot % 64));
	if (++page->used == page->nslots) {
		TAILQ_REMOVE(&vd->avail, page, avail);
		page->in_avail = 0;
	}
	dev->stats.dbr_slots++;
	*pagep = page;
	*slotp = slot;
	return (volatile uint32_t *)(page->addr + slot * verbs_dbr_stride());
}

/* Give a page's memory back where it came from. */
void
emu_verbs_dbr_page_release(struct emu_dbr_page *page)
{
	if (page->ext_free != NULL)
		page->ext_free(page->addr, page->ext_data);
	else
		free(page->addr);
	free(page);
}

/*
 * [rc-dbrec] mlx5_free_db: the slot is free again; a full page goes back
 * to the head of the available list; the page is released when its last
 * slot is freed. Caller holds dev->lock.
 */
void
emu_verbs_dbr_free(struct emu_dev *dev, struct emu_verbs_dev *vd,
	       struct emu_dbr_page *page, uint32_t slot)
{
	page->free_map[slot / 64] |= 1ull << (slot % 64);
	if (!page->in_avail) {
		TAILQ_INSERT_HEAD(&vd->avail, page, avail);
		page->in_avail = 1;
	}
	dev->stats.dbr_slots--;
	if (--page->used == 0) {
		TAILQ_REMOVE(&vd->avail, page, avail);
		TAILQ_REMOVE(&vd->pages, page, next);
		dev->stats.dbr_pages--;
		emu_verbs_dbr_page_release(page);
	}
}

