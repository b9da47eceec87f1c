/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Doorbell-record pool of a device (DevX path).
 *
 * A doorbell record is two big-endian 32-bit words; each CQ gets a slot of
 * one cache line (RTE_CACHE_LINE_SIZE: rte_common_mlx5's MLX5_DBR_SIZE;
 * rdma-core's dbrec.c spaces its records the same way) in a 4 KiB page
 * taken from rte_malloc. A page is registered once as a umem, and every CQ
 * whose record lies in it names that umem and the slot offset (cqc.dbr_umem_id
 * and cqc.dbr_addr). Slots are handed out first-fit: the first page with a
 * free slot, the lowest free slot of that page. A page is deregistered and
 * freed when its last slot is released. The caller holds dev->lock.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <infiniband/verbs.h>

#include <rte_debug.h>
#include <rte_errno.h>
#include <rte_tailq.h>

#include <mlx5_glue.h>

#include "mlx5cq_private.h"

void
mlx5cq_dbr_pool_init(struct mlx5cq_dbr_pool *pool)
{
	TAILQ_INIT(&pool->pages);
	pool->npages = 0;
	pool->nslots = 0;
	pool->numems = 0;
}

static int
mlx5cq_dbr_pool_empty(const struct mlx5cq_dbr_pool *pool)
{
	return pool->npages == 0 && pool->nslots == 0 && pool->numems == 0;
}

/* A new page, registered, appended to the pool; NULL with rte_errno. */
static struct mlx5cq_dbr_page *
dbr_page_new(struct rte_mlx5cq_dev *dev)
{
	struct mlx5cq_dbr_page *page;
	int err;

	page = mlx5cq_zmalloc("mlx5cq_dbr_page_desc", sizeof(*page), 0,
			      dev->socket);
	if (page == NULL)
		return NULL;
	page->addr = mlx5cq_zmalloc("mlx5cq_dbr_page", MLX5CQ_DBR_PAGE_SIZE,
				    MLX5CQ_DBR_PAGE_SIZE, dev->socket);
	if (page->addr == NULL) {
		err = rte_errno;
		goto err_desc;
	}
	errno = 0;
	page->umem = mlx5_glue->devx_umem_reg(dev->ctx, page->addr,
					      MLX5CQ_DBR_PAGE_SIZE,
					      IBV_ACCESS_LOCAL_WRITE);
	if (page->umem == NULL) {
		err = errno ? errno : ENOMEM;
		MLX5CQ_LOG(ERR, "cannot register doorbell page %p as umem:"
			   " %s", (void *)page->addr, strerror(err));
		goto err_page;
	}
	page->umem_id = page->umem->umem_id;
	TAILQ_INSERT_TAIL(&dev->pool.pages, page, next);
	dev->pool.npages++;
	dev->pool.numems++;
	MLX5CQ_LOG(DEBUG, "doorbell page %p umem %u added (%u pages)",
		   (void *)page->addr, page->umem_id, dev->pool.npages);
	return page;
err_page:
	mlx5cq_free(page->addr);
err_desc:
	mlx5cq_free(page);
	rte_errno = err;
	return NULL;
}

/* Deregister and free an empty page; 0 or a negative errno. */
static int
dbr_page_release(struct rte_mlx5cq_dev *dev, struct mlx5cq_dbr_page *page)
{
	int ret;

	ret = mlx5_glue->devx_umem_dereg(page->umem);
	if (ret) {
		/* The device may still write there: keep the memory. */
		MLX5CQ_LOG(ERR, "cannot deregister doorbell umem %u: %d",
			   page->umem_id, ret);
		return ret > 0 ? -ret : (ret < 0 ? ret : -EIO);
	}
	TAILQ_REMOVE(&dev->pool.pages, page, next);
	dev->pool.npages--;
	dev->pool.numems--;
	mlx5cq_free(page->addr);
	mlx5cq_free(page);
	return 0;
}

/* Lowest free slot of a page, -1 when full. */
static int
dbr_page_first_free(const struct mlx5cq_dbr_page *page)
{
	unsigned int w, bit;

	for (w = 0; w < MLX5CQ_DBR_WORDS; w++) {
		uint64_t free_bits = ~page->bitmap[w];

		if (free_bits == 0)
			continue;
		bit = (unsigned int)__builtin_ctzll(free_bits);
		if (w * 64 + bit >= MLX5CQ_DBR_SLOTS)
			return -1;
		return (int)(w * 64 + bit);
	}
	return -1;
}

int
mlx5cq_dbr_alloc(struct rte_mlx5cq_dev *dev, struct mlx5cq_dbr *dbr)
{
	struct mlx5cq_dbr_page *page;
	int slot = -1;

	TAILQ_FOREACH(page, &dev->pool.pages, next) {
		if (page->used == MLX5CQ_DBR_SLOTS)
			continue;
		slot = dbr_page_first_free(page);
		if (slot >= 0)
			break;
	}
	if (page == NULL) {
		page = dbr_page_new(dev);
		if (page == NULL)
			return -rte_errno;
		slot = 0;
	}
	page->bitmap[slot / 64] |= UINT64_C(1) << (slot % 64);
	page->used++;
	dev->pool.nslots++;
	dbr->page = page;
	dbr->slot = (uint32_t)slot;
	dbr->umem_id = page->umem_id;
	dbr->offset = (uint64_t)slot * MLX5CQ_DBR_SLOT_SIZE;
	dbr->rec = (volatile uint32_t *)(page->addr + dbr->offset);
	/* A reused slot starts clean: consumer index 0, arm word 0. */
	memset(page->addr + dbr->offset, 0, MLX5CQ_DBR_SLOT_SIZE);
	return 0;
}

void
mlx5cq_dbr_free(struct rte_mlx5cq_dev *dev, struct mlx5cq_dbr *dbr)
{
	struct mlx5cq_dbr_page *page = dbr->page;

	if (page == NULL)
		return;
	RTE_ASSERT(page->bitmap[dbr->slot / 64] &
		   (UINT64_C(1) << (dbr->slot % 64)));
	page->bitmap[dbr->slot / 64] &= ~(UINT64_C(1) << (dbr->slot % 64));
	page->used--;
	dev->pool.nslots--;
	memset(dbr, 0, sizeof(*dbr));
	if (page->used == 0)
		dbr_page_release(dev, page);
}

int
mlx5cq_dbr_pool_flush(struct rte_mlx5cq_dev *dev)
{
	struct mlx5cq_dbr_page *page, *tmp;

	/* Pages left only when their deregistration failed before. */
	RTE_TAILQ_FOREACH_SAFE(page, &dev->pool.pages, next, tmp)
		if (page->used == 0)
			dbr_page_release(dev, page);
	return mlx5cq_dbr_pool_empty(&dev->pool) ? 0 : -EBUSY;
}
