/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Umem registration, modelled on the kernel (Linux 6.x):
 *
 * - drivers/infiniband/hw/mlx5/devx.c, MLX5_IB_METHOD_DEVX_UMEM_REG:
 *   access flags limited to LOCAL_WRITE, REMOTE_WRITE, REMOTE_READ and
 *   RELAXED_ORDERING (uverbs_get_flags32: others -> EINVAL), then
 *   ib_check_mr_access (remote write without local write -> EINVAL).
 * - drivers/infiniband/core/umem.c, ib_umem_get: a wrapping range -> EINVAL,
 *   no pages -> EINVAL, pages that cannot be pinned -> EFAULT (unmapped,
 *   not readable, or not writable when LOCAL_WRITE / REMOTE_WRITE is asked:
 *   mlx5_emu_access.c); the pinned pages form a scatter list in which
 *   physically contiguous pages merge.
 * - devx_umem_find_best_pgsize: rdma-core's mlx5dv_devx_umem_reg() passes
 *   no page-size bitmap, so the kernel starts from every size from 4 KiB
 *   up, limited to max(order_base_2(length), PAGE_SHIFT); it takes
 *   ib_umem_find_best_pgoff() (ib_umem_find_best_pgsz() with the first DMA
 *   address as the IOVA: the VA/DMA bits that differ, the span of the range
 *   and every discontinuity in the DMA list bound the page size), then
 *   halves the size while the DMA start is not aligned to it or the length
 *   is not a multiple of it (down to PAGE_SIZE). The entry count is
 *   ib_umem_num_dma_blocks() at that size. Without a bitmap the user
 *   promises to place objects at umem_offset 0 only
 *   (devx_umem_reg_cmd_alloc()); CREATE_CQ holds it to that
 *   (mlx5_emu_cq.c).
 *
 * DMA address of a 4 KiB page, as the device would see it without an
 * IOMMU: for DPDK memory in IOVA-as-PA mode, rte_mem_virt2iova (the
 * physical address); for other memory, the physical frame from
 * /proc/self/pagemap when readable; otherwise (DPDK memory in IOVA-as-VA
 * mode, e.g. --no-huge, or no pagemap access) the physical layout is
 * unknown and every page is treated as its own DMA segment. The host page
 * size (a DPDK hugepage of known physical address) is kept as well: it is
 * the contiguous, aligned unit the pinned memory is made of.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include <rte_eal.h>
#include <rte_memory.h>

#include "mlx5_emu_access.h"
#include "mlx5_emu_private.h"

#define EMU_UMEM_ACCESS (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
			 IBV_ACCESS_REMOTE_READ | IBV_ACCESS_RELAXED_ORDERING)
/* Synthetic DMA addresses of pages whose physical address is unknown:
 * odd 4 KiB frames above 2^52, so no two are contiguous and none is
 * aligned beyond 4 KiB.
 */
#define EMU_SYNTH_DMA_BASE (1ull << 52)

static uint32_t emu_next_umem_id = 0x100;
static uint64_t emu_synth_frame;
static pthread_mutex_t emu_umem_id_lock = PTHREAD_MUTEX_INITIALIZER;

struct emu_dma_ctx {
	int pagemap_fd; /* -1: not tried, -2: unavailable. */
	const struct rte_memseg *ms; /* Last DPDK page looked up. */
	int pa_mode;
};

static uint64_t
emu_synth_dma(void)
{
	uint64_t k;

	pthread_mutex_lock(&emu_umem_id_lock);
	k = emu_synth_frame++;
	pthread_mutex_unlock(&emu_umem_id_lock);
	return EMU_SYNTH_DMA_BASE + (2 * k + 1) * EMU_PAGE_SIZE;
}

static uint64_t
emu_pagemap_dma(struct emu_dma_ctx *c, uintptr_t va)
{
	uint64_t entry;
	off_t off = (off_t)(va / EMU_PAGE_SIZE) * sizeof(entry);

	if (c->pagemap_fd == -1) {
		c->pagemap_fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
		if (c->pagemap_fd < 0)
			c->pagemap_fd = -2;
	}
	if (c->pagemap_fd < 0)
		return 0;
	/* Fault the page in, as pinning does (a read: never writes). */
	(void)*(volatile const uint8_t *)va;
	if (pread(c->pagemap_fd, &entry, sizeof(entry), off) !=
	    (ssize_t)sizeof(entry))
		return 0;
	/* Bit 63: present; bits 0-54: frame number (0 without privilege). */
	if (!(entry >> 63) || (entry & ((1ull << 55) - 1)) == 0)
		return 0;
	return (entry & ((1ull << 55) - 1)) * EMU_PAGE_SIZE;
}

/*
 * DMA address of the 4 KiB page at va, 0 when unknown; *host_shift: log2 of
 * the physically contiguous host page it belongs to (12 when unknown).
 */
static uint64_t
emu_page_dma(struct emu_dma_ctx *c, uintptr_t va, unsigned int *host_shift)
{
	const struct rte_memseg *ms = c->ms;

	*host_shift = EMU_PAGE_SHIFT;
	if (ms == NULL || va < (uintptr_t)ms->addr ||
	    va >= (uintptr_t)ms->addr + ms->len)
		ms = rte_mem_virt2memseg((const void *)va, NULL);
	c->ms = ms;
	if (ms != NULL) {
		if (c->pa_mode && ms->iova != RTE_BAD_IOVA) {
			if (ms->hugepage_sz > EMU_PAGE_SIZE)
				*host_shift = __builtin_ctzll(ms->hugepage_sz);
			return ms->iova + (va - (uintptr_t)ms->addr);
		}
		return 0;
	}
	return emu_pagemap_dma(c, va);
}

static unsigned int
emu_order_base_2(uint64_t n)
{
	unsigned int o = 0;

	while (o < 64 && (1ull << o) < n)
		o++;
	return o;
}

static unsigned int
emu_bits_per(uint64_t x)
{
	return x == 0 ? 1 : 64 - __builtin_clzll(x);
}

static uint64_t
emu_genmask(unsigned int h, unsigned int l)
{
	uint64_t hi = h >= 63 ? ~0ull : (2ull << h) - 1;

	return l >= 64 ? 0 : hi & (~0ull << l);
}

/*
 * Best page size of a DMA segment list (kernel devx_umem_find_best_pgsize
 * over ib_umem_find_best_pgoff), 0 when none fits.
 */
static uint64_t
emu_best_page_size(uint64_t addr, uint64_t length, const uint64_t *seg_dma,
		   const uint64_t *seg_len, uint32_t nsegs)
{
	uint64_t pgoff = addr & (EMU_PAGE_SIZE - 1);
	uint64_t virt = seg_dma[0] + pgoff;
	uint64_t bitmap, mask, va, ps;
	unsigned int maxo, i;

	maxo = emu_order_base_2(length);
	if (maxo < EMU_PAGE_SHIFT)
		maxo = EMU_PAGE_SHIFT;
	bitmap = emu_genmask(63, EMU_PAGE_SHIFT) &
		 emu_genmask(maxo, EMU_PAGE_SHIFT);
	mask = bitmap &
	       emu_genmask(63, emu_bits_per((length - 1 + virt) ^ virt));
	va = virt;
	for (i = 0; i < nsegs; i++) {
		/* Segments are maximal: each one starts a discontinuity. */
		mask |= (seg_dma[i] + pgoff) ^ va;
		if (i != 0)
			mask |= va;
		va += seg_len[i] - pgoff;
		pgoff = 0;
	}
	if (mask)
		bitmap &= emu_genmask(__builtin_ctzll(mask), 0);
	if (bitmap == 0)
		return 0;
	ps = 1ull << (63 - __builtin_clzll(bitmap));
	while ((((seg_dma[0] + (addr & (EMU_PAGE_SIZE - 1))) & (ps - 1)) != 0 ||
		length % ps != 0) && ps > EMU_PAGE_SIZE)
		ps /= 2;
	return ps;
}

/* Pin the range: DMA segments, best page size, entry count. */
static int
emu_umem_pin(struct emu_umem *u)
{
	uintptr_t start = (uintptr_t)u->addr & ~(uintptr_t)(EMU_PAGE_SIZE - 1);
	uintptr_t end = ((uintptr_t)(u->addr + u->size) + EMU_PAGE_SIZE - 1) &
			~(uintptr_t)(EMU_PAGE_SIZE - 1);
	size_t npages = (end - start) / EMU_PAGE_SIZE;
	struct emu_dma_ctx c = { .pagemap_fd = -1, .ms = NULL,
				 .pa_mode = rte_eal_iova_mode() == RTE_IOVA_PA };
	uint64_t *seg_dma, *seg_len, dma, prev = 0, ps, virt;
	unsigned char *vec;
	uint32_t nsegs = 0;
	unsigned int hshift;
	size_t i;
	int ret = 0;

	vec = malloc(npages);
	seg_dma = malloc(npages * sizeof(*seg_dma));
	seg_len = malloc(npages * sizeof(*seg_len));
	if (vec == NULL || seg_dma == NULL || seg_len == NULL) {
		ret = ENOMEM;
		goto out;
	}
	/* Every page must be mapped (pinning an unmapped page: EFAULT). */
	if (mincore((void *)start, end - start, vec) != 0) {
		ret = EFAULT;
		goto out;
	}
	u->host_page_shift = 63;
	for (i = 0; i < npages; i++) {
		dma = emu_page_dma(&c, start + i * EMU_PAGE_SIZE, &hshift);
		if (hshift < u->host_page_shift)
			u->host_page_shift = hshift;
		if (dma == 0)
			dma = emu_synth_dma();
		if (nsegs > 0 && dma == prev + EMU_PAGE_SIZE) {
			seg_len[nsegs - 1] += EMU_PAGE_SIZE;
		} else {
			seg_dma[nsegs] = dma;
			seg_len[nsegs] = EMU_PAGE_SIZE;
			nsegs++;
		}
		prev = dma;
	}
	ps = emu_best_page_size(u->addr, u->size, seg_dma, seg_len, nsegs);
	if (ps == 0) {
		ret = EINVAL;
		goto out;
	}
	virt = seg_dma[0] + (u->addr & (EMU_PAGE_SIZE - 1));
	u->nsegs = nsegs;
	u->page_shift = __builtin_ctzll(ps);
	u->page_offset = (uint32_t)(virt & (ps - 1));
	u->npages = (uint32_t)((((virt + u->size + ps - 1) & ~(ps - 1)) -
				(virt & ~(ps - 1))) / ps);
out:
	if (c.pagemap_fd >= 0)
		close(c.pagemap_fd);
	free(vec);
	free(seg_dma);
	free(seg_len);
	return ret;
}

struct mlx5dv_devx_umem *
emu_umem_reg(struct emu_dev *dev, void *addr, size_t size, uint32_t access)
{
	struct emu_access_fault fault;
	struct emu_umem *u;
	uintptr_t a = (uintptr_t)addr;
	int ret;

	if (!dev->caps.devx) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (access & ~(uint32_t)EMU_UMEM_ACCESS) {
		EMU_LOG(ERR, "%s: umem_reg: access flags 0x%x not allowed",
			dev->name, access);
		errno = EINVAL;
		return NULL;
	}
	if ((access & IBV_ACCESS_REMOTE_WRITE) &&
	    !(access & IBV_ACCESS_LOCAL_WRITE)) {
		EMU_LOG(ERR, "%s: umem_reg: remote write needs local write",
			dev->name);
		errno = EINVAL;
		return NULL;
	}
	if (size == 0 || a + size < a ||
	    ((a + size + EMU_PAGE_SIZE - 1) & ~(uintptr_t)(EMU_PAGE_SIZE - 1)) <
	    a + size) {
		EMU_LOG(ERR, "%s: umem_reg: bad range %p + %zu", dev->name,
			addr, size);
		errno = EINVAL;
		return NULL;
	}
	/* Pinning needs the pages readable, writable for a writable umem
	 * (ib_access_writable): else EFAULT, as the kernel.
	 */
	if (emu_access_check(a, size, access & (IBV_ACCESS_LOCAL_WRITE |
			     IBV_ACCESS_REMOTE_WRITE), &fault) != 0) {
		EMU_LOG(ERR, "%s: umem_reg: %p + %zu (access 0x%x): memory at "
			"%#" PRIxPTR " %s: %s", dev->name, addr, size, access,
			fault.addr, fault.why, strerror(EFAULT));
		errno = EFAULT;
		return NULL;
	}
	pthread_mutex_lock(&dev->lock);
	if (emu_fault_hit(dev, MLX5_EMU_FAIL_UMEM_REG) ||
	    dev->stats.umems >= dev->caps.max_umems) {
		pthread_mutex_unlock(&dev->lock);
		errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_unlock(&dev->lock);
	u = calloc(1, sizeof(*u));
	if (u == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	u->dev = dev;
	u->addr = a;
	u->size = size;
	u->access = access;
	ret = emu_umem_pin(u);
	if (ret != 0) {
		EMU_LOG(ERR, "%s: umem_reg: cannot pin %p + %zu (%s)",
			dev->name, addr, size, strerror(ret));
		free(u);
		errno = ret;
		return NULL;
	}
	pthread_mutex_lock(&emu_umem_id_lock);
	u->pub.umem_id = emu_next_umem_id++;
	pthread_mutex_unlock(&emu_umem_id_lock);
	pthread_mutex_lock(&dev->lock);
	TAILQ_INSERT_TAIL(&dev->umems, u, next);
	dev->stats.umems++;
	pthread_mutex_unlock(&dev->lock);
	EMU_LOG(DEBUG, "%s: umem %u: %p + %zu, %u segments, page shift %u, "
		"%u entries", dev->name, u->pub.umem_id, addr, size, u->nsegs,
		u->page_shift, u->npages);
	return &u->pub;
}

static int
emu_match_umem(struct emu_dev *dev, const void *ptr)
{
	struct emu_umem *u;

	TAILQ_FOREACH(u, &dev->umems, next)
		if (&u->pub == ptr)
			return 1;
	return 0;
}

int
emu_umem_dereg(struct mlx5dv_devx_umem *pub)
{
	struct emu_dev *dev = emu_dev_find_locked(emu_match_umem, pub);
	struct emu_umem *u = (struct emu_umem *)pub;

	if (dev == NULL)
		return -ENOENT;
	if (u->refcnt != 0) {
		EMU_LOG(ERR, "%s: umem %u still used by %u object(s)",
			dev->name, u->pub.umem_id, u->refcnt);
		pthread_mutex_unlock(&dev->lock);
		return -EBUSY;
	}
	TAILQ_REMOVE(&dev->umems, u, next);
	dev->stats.umems--;
	pthread_mutex_unlock(&dev->lock);
	free(u);
	return 0;
}

struct emu_umem *
emu_umem_lookup(struct emu_dev *dev, uint32_t id)
{
	struct emu_umem *u;

	TAILQ_FOREACH(u, &dev->umems, next)
		if (u->pub.umem_id == id)
			return u;
	return NULL;
}

int
mlx5_emu_umem_query(struct ibv_context *ctx, uint32_t umem_id,
		    struct mlx5_emu_umem_info *info)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);
	struct emu_umem *u;
	int ret = 0;

	if (dev == NULL || info == NULL)
		return -EINVAL;
	pthread_mutex_lock(&dev->lock);
	u = emu_umem_lookup(dev, umem_id);
	if (u == NULL) {
		ret = -ENOENT;
	} else {
		info->id = u->pub.umem_id;
		info->addr = u->addr;
		info->size = u->size;
		info->access = u->access;
		info->nsegs = u->nsegs;
		info->page_shift = u->page_shift;
		info->npages = u->npages;
		info->refcnt = u->refcnt;
		info->page_offset = u->page_offset;
		info->host_page_shift = u->host_page_shift;
	}
	pthread_mutex_unlock(&dev->lock);
	return ret;
}
