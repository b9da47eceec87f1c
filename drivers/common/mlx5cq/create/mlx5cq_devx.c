/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * DevX path: PRM CREATE_CQ with the ring in a umem and the doorbell record
 * in a slot of the device's doorbell pool.
 *
 * Ring memory: rte_malloc on the requested socket, every CQE initialised
 * invalid (op_own = INVALID << 4 | owner 1, the 64 B CQE being the second
 * half of a 128 B stride).
 *
 * Umem and page size rule. The glue registers umems with devx_umem_reg,
 * which passes the kernel no page-size bitmap; the kernel then takes the
 * user's promise not to place an object at umem_offset != 0 (kernel
 * drivers/infiniband/hw/mlx5/devx.c, devx_umem_reg_cmd_alloc()). So the
 * ring umem is the ring itself: it starts at the ring, is ring_size bytes
 * long, and CREATE_CQ names it with cq_umem_offset 0, as DPDK's
 * mlx5_devx_cq_create() does.
 * The kernel picks that umem's page size (devx_umem_find_best_pgsize()
 * over ib_umem_find_best_pgoff()): the largest power of two, from 4 KiB up
 * and not above the umem length rounded up to a power of two, such that
 * the DMA list is made of aligned blocks of it, the DMA start is aligned
 * to it and the length is a multiple of it (else down to PAGE_SIZE).
 * cqc.log_page_size (log2 of the queue page in 4 KiB units) may not
 * exceed that page, so the library sends the page size the kernel is sure
 * to find:
 * - ring in hugepage memory with the EAL in IOVA-as-PA mode (a hugepage is
 *   then physically contiguous and aligned at its size, so the ring's DMA
 *   address has the alignment of its virtual one): the largest power of
 *   two that divides the ring address and the ring size, up to the
 *   hugepage size. The ring is allocated aligned to its size, up to
 *   2 MiB, for this: a ring of 2 MiB or more uses 2 MiB queue pages (one
 *   translation entry per 2 MiB instead of one per 4 KiB), a smaller ring
 *   one queue page of its own size.
 * - otherwise (IOVA-as-VA, where the DMA layout is the kernel's, or no
 *   hugepages): the system page, log_page_size 0 for 4 KiB.
 * The doorbell record lives in the device's doorbell pool (one page umem,
 * records at dbr_addr = slot * MLX5CQ_DBR_SLOT_SIZE). dbr_addr is a byte
 * address of one record, not an object laid out in pages over the umem;
 * DPDK's mlx5_devx_cq_create() places its record at a non-zero dbr_addr
 * in its own bitmap-less umem the same way.
 * The umem is registered with IBV_ACCESS_LOCAL_WRITE only; the device
 * writes nothing but CQEs, into the ring.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_memory.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>
#include <mlx5_common.h> /* MLX5_ASSERT of MLX5_SET64 */

#include "mlx5cq_private.h"

/* cqc.cqe_sz values (kernel include/linux/mlx5/cq.h CQE_STRIDE_*). */
enum {
	CQC_CQE_SZ_64 = 0,
	CQC_CQE_SZ_128 = 1,
	CQC_CQE_SZ_128_PAD = 2,
};

static uint32_t
log2_floor64(uint64_t v)
{
	return 63 - (uint32_t)__builtin_clzll(v);
}

/* Largest power of two dividing v (v != 0). */
static uint64_t
lowbit64(uint64_t v)
{
	return v & (~v + 1);
}

/* Ring memory pages known to be physically contiguous hugepages. */
static int
ring_in_pa_hugepages(uint64_t pgsz)
{
	return pgsz > mlx5cq_sys_page_size() &&
	       rte_eal_iova_mode() == RTE_IOVA_PA;
}

/*
 * Alignment of a ring allocation: its size (a power of two) up to 2 MiB
 * when rte_malloc hands out hugepages of known physical address, so the
 * kernel can translate the ring umem with pages that large; otherwise the
 * system page.
 */
static unsigned int
ring_align(size_t size)
{
	size_t page = mlx5cq_sys_page_size();
	size_t align;

	if (!rte_eal_has_hugepages() || rte_eal_iova_mode() != RTE_IOVA_PA)
		return (unsigned int)page;
	align = RTE_MIN((size_t)lowbit64(size), (size_t)RTE_PGSIZE_2M);
	return (unsigned int)RTE_MAX(align, page);
}

/*
 * cqc.log_page_size of a ring registered as its own umem (rule in the file
 * comment): the page size the kernel's devx_umem_find_best_pgsize() finds
 * at least, in 4 KiB units.
 */
static uint32_t
ring_log_page_size(const void *ring, size_t size)
{
	uint64_t sys = mlx5cq_sys_page_size();
	uint64_t pgsz = mlx5cq_mem_page_size(ring);
	uint64_t p;

	if (!ring_in_pa_hugepages(pgsz))
		return log2_floor64(sys) - MLX5CQ_ADAPTER_PAGE_SHIFT;
	p = RTE_MIN(pgsz, lowbit64((uintptr_t)ring));
	p = RTE_MIN(p, lowbit64(size));
	p = RTE_MAX(p, sys);
	return log2_floor64(p) - MLX5CQ_ADAPTER_PAGE_SHIFT;
}

/*
 * Every CQE invalid, software-visible as owned by hardware on pass 0; with
 * the enhanced compression layout also an iteration count no pass 0 CQE
 * has (byte 62).
 */
static void
ring_init(uint8_t *ring, uint32_t entries, uint32_t stride, int enhanced)
{
	uint32_t i;

	for (i = 0; i < entries; i++) {
		ring[(size_t)i * stride + stride - 1] = MLX5CQ_OP_OWN_INIT_DEVX;
		if (enhanced)
			ring[(size_t)i * stride + stride - 2] =
				RTE_MLX5CQ_ENH_VIC_INIT;
	}
}

static void
devx_fill_mailbox(uint32_t *in, const struct mlx5cq_cq *cq,
		  const struct mlx5cq_params *p, uint32_t uar_page)
{
	void *cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	uint32_t cqe_sz = CQC_CQE_SZ_64;

	if (p->cqe_size == 128)
		cqe_sz = p->cqe_pad ? CQC_CQE_SZ_128_PAD : CQC_CQE_SZ_128;
	MLX5_SET(create_cq_in, in, opcode, MLX5_CMD_OP_CREATE_CQ);
	MLX5_SET(create_cq_in, in, cq_umem_valid, 1);
	MLX5_SET(create_cq_in, in, cq_umem_id, cq->ring_umem_id);
	/* The ring is its umem: offset 0 (devx_umem_reg_cmd_alloc()). */
	MLX5_SET64(create_cq_in, in, cq_umem_offset, 0);
	MLX5_SET(cqc, cqc, dbr_umem_valid, 1);
	MLX5_SET(cqc, cqc, dbr_umem_id, cq->dbr.umem_id);
	MLX5_SET64(cqc, cqc, dbr_addr, cq->dbr.offset);
	MLX5_SET(cqc, cqc, cqe_sz, cqe_sz);
	MLX5_SET(cqc, cqc, oi, !!(p->flags & RTE_MLX5CQ_F_IGNORE_OVERRUN));
	MLX5_SET(cqc, cqc, cc, !!(p->flags & RTE_MLX5CQ_F_COLLAPSED));
	MLX5_SET(cqc, cqc, scqe_break_moderation_en,
		 !!(p->flags & RTE_MLX5CQ_F_SCQE_BREAK_MODERATION));
	MLX5_SET(cqc, cqc, cq_period, p->cq_period);
	MLX5_SET(cqc, cqc, cq_max_count, p->cq_max_count);
	MLX5_SET(cqc, cqc, cq_period_mode, p->cq_period_mode);
	if (p->comp_format) {
		MLX5_SET(cqc, cqc, cqe_comp_en, 1);
		MLX5_SET(cqc, cqc, mini_cqe_res_format, p->prm_format & 0x3);
		MLX5_SET(cqc, cqc, mini_cqe_res_format_ext,
			 p->prm_format >> 2);
		MLX5_SET(cqc, cqc, cqe_comp_layout, p->comp_layout);
	}
	MLX5_SET(cqc, cqc, log_cq_size, p->log_n);
	MLX5_SET(cqc, cqc, uar_page, uar_page);
	MLX5_SET(cqc, cqc, c_eqn, cq->eqn);
	MLX5_SET(cqc, cqc, log_page_size, cq->log_page_size);
}

int
mlx5cq_devx_ring_get(struct rte_mlx5cq_dev *dev, struct mlx5cq_ring *r,
		     uint32_t entries, uint16_t cqe_size, int enhanced,
		     int socket)
{
	int err;

	r->size = (size_t)entries * cqe_size;
	r->addr = mlx5cq_zmalloc("mlx5cq_ring", r->size, ring_align(r->size),
				 socket);
	if (r->addr == NULL)
		return -ENOMEM;
	ring_init(r->addr, entries, cqe_size, enhanced);
	r->log_page_size = ring_log_page_size(r->addr, r->size);
	errno = 0;
	r->umem = mlx5_glue->devx_umem_reg(dev->ctx, r->addr, r->size,
					   IBV_ACCESS_LOCAL_WRITE);
	if (r->umem == NULL) {
		err = errno ? errno : ENOMEM;
		MLX5CQ_LOG(ERR, "cannot register the ring (%zu bytes at %p)"
			   " as umem: %s", r->size, r->addr, strerror(err));
		mlx5cq_free(r->addr);
		r->addr = NULL;
		return -err;
	}
	r->umem_id = r->umem->umem_id;
	return 0;
}

int
mlx5cq_devx_ring_put(struct mlx5cq_ring *r)
{
	int ret;

	if (r->umem != NULL) {
		errno = 0;
		ret = mlx5_glue->devx_umem_dereg(r->umem);
		if (ret) {
			ret = errno ? errno : (ret > 0 ? ret : EIO);
			MLX5CQ_LOG(ERR, "cannot deregister ring umem %u: %s",
				   r->umem_id, strerror(ret));
			return -ret;
		}
		r->umem = NULL;
	}
	mlx5cq_free(r->addr);
	r->addr = NULL;
	return 0;
}

int
mlx5cq_devx_create(struct rte_mlx5cq_dev *dev, struct mlx5cq_cq *cq,
		   const struct mlx5cq_params *p)
{
	uint32_t in[MLX5_ST_SZ_DW(create_cq_in)];
	uint32_t out[MLX5_ST_SZ_DW(create_cq_out)];
	struct mlx5cq_ring r;
	int ret, err;

	/* EQ of the completion vector: nothing to undo yet. */
	errno = 0;
	ret = mlx5_glue->devx_query_eqn(dev->ctx, p->comp_vector, &cq->eqn);
	if (ret) {
		err = errno ? errno : (ret > 0 ? ret : EINVAL);
		MLX5CQ_LOG(ERR, "cannot get the EQ of comp_vector %u: %s",
			   p->comp_vector, strerror(err));
		return -err;
	}
	ret = mlx5cq_devx_ring_get(dev, &r, p->entries, p->cqe_size,
				   p->comp_format && p->comp_layout ==
				   RTE_MLX5CQ_COMP_LAYOUT_ENHANCED, p->socket);
	if (ret)
		return ret;
	cq->ring = r.addr;
	cq->ring_size = r.size;
	cq->ring_umem = r.umem;
	cq->log_page_size = r.log_page_size;
	cq->ring_umem_id = cq->ring_umem->umem_id;
	pthread_mutex_lock(&dev->lock);
	ret = mlx5cq_dbr_alloc(dev, &cq->dbr);
	if (ret == 0)
		dev->ring_umems++;
	pthread_mutex_unlock(&dev->lock);
	if (ret) {
		err = -ret;
		MLX5CQ_LOG(ERR, "no doorbell record: %s", strerror(err));
		goto err_umem;
	}
	cq->dbrec = cq->dbr.rec;
	memset(in, 0, sizeof(in));
	memset(out, 0, sizeof(out));
	devx_fill_mailbox(in, cq, p, dev->uar_page);
	errno = 0;
	cq->obj = mlx5_glue->devx_obj_create(dev->ctx, in, sizeof(in), out,
					     sizeof(out));
	if (cq->obj == NULL) {
		err = errno ? errno : EIO;
		MLX5CQ_LOG(ERR, "CREATE_CQ failed: %s, status %#x syndrome %#x"
			   " (log_cq_size %u cqe %u B log_page_size %u eqn %u)",
			   strerror(err), MLX5_GET(create_cq_out, out, status),
			   MLX5_GET(create_cq_out, out, syndrome), p->log_n,
			   p->cqe_size, cq->log_page_size, cq->eqn);
		goto err_dbr;
	}
	cq->pub.cqn = MLX5_GET(create_cq_out, out, cqn);
	MLX5CQ_LOG(DEBUG, "DevX CQ %#x: %u x %u B, umem %u"
		   ", dbr umem %u +%" PRIu64 ", eqn %u, log_page_size %u",
		   cq->pub.cqn, p->entries, p->cqe_size, cq->ring_umem_id,
		   cq->dbr.umem_id, cq->dbr.offset,
		   cq->eqn, cq->log_page_size);
	return 0;
err_dbr:
	pthread_mutex_lock(&dev->lock);
	mlx5cq_dbr_free(dev, &cq->dbr);
	dev->ring_umems--;
	pthread_mutex_unlock(&dev->lock);
	cq->dbrec = NULL;
err_umem:
	mlx5_glue->devx_umem_dereg(cq->ring_umem);
	cq->ring_umem = NULL;
	mlx5cq_free(cq->ring);
	cq->ring = NULL;
	return -err;
}

int
mlx5cq_devx_destroy(struct mlx5cq_cq *cq)
{
	struct rte_mlx5cq_dev *dev = cq->dev;
	int ret;

	mlx5cq_events_release(cq);
	if (cq->obj != NULL) {
		errno = 0;
		ret = mlx5_glue->devx_obj_destroy(cq->obj);
		if (ret) {
			ret = errno ? errno : (ret > 0 ? ret : EIO);
			MLX5CQ_LOG(ERR, "DESTROY_CQ %#x failed: %s",
				   cq->pub.cqn, strerror(ret));
			return -ret;
		}
		cq->obj = NULL;
	}
	if (cq->ring_umem != NULL) {
		errno = 0;
		ret = mlx5_glue->devx_umem_dereg(cq->ring_umem);
		if (ret) {
			ret = errno ? errno : (ret > 0 ? ret : EIO);
			MLX5CQ_LOG(ERR, "cannot deregister ring umem %u: %s",
				   cq->ring_umem_id, strerror(ret));
			return -ret;
		}
		cq->ring_umem = NULL;
	}
	pthread_mutex_lock(&dev->lock);
	mlx5cq_dbr_free(dev, &cq->dbr);
	dev->ring_umems--;
	pthread_mutex_unlock(&dev->lock);
	cq->dbrec = NULL;
	mlx5cq_free(cq->ring);
	cq->ring = NULL;
	return 0;
}
