/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Attach: a poll handle on a CQ made by rte_common_mlx5's
 * mlx5_devx_cq_create(), so PMDs that already create CQs that way can use
 * the mlx5cq poll API. That helper puts the ring and the doorbell record
 * in one rte_malloc buffer and writes every entry's op_own INVALID with
 * the owner bit set (and, for the enhanced layout, the validity iteration
 * count 0xff), as the library's own DevX path does.
 *
 * What the CQ is, attach asks the device (QUERY_CQ, the cqc as the PRM
 * lays it out): its size (log_cq_size), entry size (cqe_sz: 64 B, or 128 B
 * with the CQE in the second half), compression (cqe_comp_en, the mini-CQE
 * format of mini_cqe_res_format / _ext, the layout of cqe_comp_layout) and
 * that it is not in error and not collapsed (cc: every CQE in entry 0,
 * which the poll does not read). Everything mlx5_devx_cq_create() can ask
 * for (no compression; HASH, CSUM, CSUM_STRIDX, FTAG_STRIDX, L34H_STRIDX;
 * the basic or, from DPDK 23.07, the enhanced layout; 64 or 128 B entries;
 * overrun ignore) polls through the same functions as a CQ of
 * rte_mlx5cq_create(). The CQ stays the caller's: destroying the handle
 * frees only the handle.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>
#include <mlx5_common.h> /* struct mlx5_devx_obj */
#include <mlx5_common_devx.h>

#include "mlx5cq_private.h"

#define MLX5CQ_CMD_QUERY_CQ 0x402 /* MLX5_CMD_OP_QUERY_CQ */

/* The public format bit of a PRM mini-CQE format. */
static uint8_t
attach_format(unsigned int prm)
{
	switch (prm) {
	case RTE_MLX5CQ_MINI_FMT_HASH: return RTE_MLX5CQ_COMP_HASH;
	case RTE_MLX5CQ_MINI_FMT_CSUM: return RTE_MLX5CQ_COMP_CSUM;
	case RTE_MLX5CQ_MINI_FMT_CSUM_STRIDX:
		return RTE_MLX5CQ_COMP_CSUM_STRIDX;
	case RTE_MLX5CQ_MINI_FMT_FTAG_STRIDX:
		return RTE_MLX5CQ_COMP_FTAG_STRIDX;
	case RTE_MLX5CQ_MINI_FMT_L34H_STRIDX:
		return RTE_MLX5CQ_COMP_L34H_STRIDX;
	}
	return 0;
}

/*
 * The CQ as the device describes it (QUERY_CQ) into cq: 0, or a negative
 * errno after a log line.
 */
static int
attach_query(struct mlx5cq_cq *cq, const struct mlx5_devx_cq *dcq)
{
	uint32_t in[4];
	uint32_t out[(16 + MLX5_ST_SZ_BYTES(cqc)) / 4];
	/* Writable: MLX5_GET casts to a writable pointer (-Wcast-qual). */
	void *cqc = (uint8_t *)out + 16;
	unsigned int sz, fmt;
	int ret, err;

	memset(in, 0, sizeof(in));
	memset(out, 0, sizeof(out));
	in[0] = rte_cpu_to_be_32((uint32_t)MLX5CQ_CMD_QUERY_CQ << 16);
	in[2] = rte_cpu_to_be_32((uint32_t)dcq->cq->id & 0xffffff);
	errno = 0;
	ret = mlx5_glue->devx_obj_query(dcq->cq->obj, in, sizeof(in), out,
					sizeof(out));
	if (ret != 0 || ((const uint8_t *)out)[0] != 0) {
		err = errno ? errno : EIO;
		MLX5CQ_LOG(ERR, "CQ 0x%x: QUERY_CQ failed: %s (status %#x)",
			   (unsigned int)dcq->cq->id, strerror(err),
			   ((const uint8_t *)out)[0]);
		return -err;
	}
	if (MLX5_GET(cqc, cqc, status) != 0 || MLX5_GET(cqc, cqc, cc)) {
		MLX5CQ_LOG(ERR, "CQ 0x%x: %s", (unsigned int)dcq->cq->id,
			   MLX5_GET(cqc, cqc, cc) ? "collapsed (cc): not "
			   "polled here" : "in error");
		return -ENOTSUP;
	}
	sz = MLX5_GET(cqc, cqc, cqe_sz);
	if (sz > 1) {
		MLX5CQ_LOG(ERR, "CQ 0x%x: cqe_sz %u (padded 128 B entries are "
			   "not what mlx5_devx_cq_create() makes)",
			   (unsigned int)dcq->cq->id, sz);
		return -ENOTSUP;
	}
	cq->entries = UINT32_C(1) << MLX5_GET(cqc, cqc, log_cq_size);
	cq->cqe_size = sz ? 128 : 64;
	if (MLX5_GET(cqc, cqc, oi))
		cq->flags |= RTE_MLX5CQ_F_IGNORE_OVERRUN;
	if (!MLX5_GET(cqc, cqc, cqe_comp_en))
		return 0;
	fmt = MLX5_GET(cqc, cqc, mini_cqe_res_format_ext) ?
	      RTE_MLX5CQ_MINI_FMT_L34H_STRIDX :
	      MLX5_GET(cqc, cqc, mini_cqe_res_format);
	cq->comp_format = attach_format(fmt);
	cq->prm_format = (uint8_t)fmt;
	cq->comp_layout = (uint8_t)MLX5_GET(cqc, cqc, cqe_comp_layout);
	if (cq->comp_format == 0 ||
	    cq->comp_layout > RTE_MLX5CQ_COMP_LAYOUT_ENHANCED) {
		MLX5CQ_LOG(ERR, "CQ 0x%x: mini-CQE format %u, layout %u not "
			   "known", (unsigned int)dcq->cq->id, fmt,
			   cq->comp_layout);
		return -ENOTSUP;
	}
	return 0;
}

struct rte_mlx5cq *
rte_mlx5cq_attach(struct rte_mlx5cq_dev *dev, struct mlx5_devx_cq *dcq,
		  uint16_t log_desc_n)
{
	struct mlx5cq_cq *cq;
	int ret;

	if (dev == NULL || dcq == NULL) {
		MLX5CQ_LOG(ERR, "invalid argument: dev=%p dcq=%p",
			   (void *)dev, (void *)dcq);
		rte_errno = EINVAL;
		return NULL;
	}
	if (dcq->cq == NULL || dcq->cqes == NULL || dcq->db_rec == NULL) {
		MLX5CQ_LOG(ERR, "invalid argument dcq: not created (cq=%p"
			   " cqes=%p db_rec=%p)", (void *)dcq->cq,
			   (volatile void *)dcq->cqes,
			   (volatile void *)dcq->db_rec);
		rte_errno = EINVAL;
		return NULL;
	}
	if (log_desc_n > 24 || log_desc_n > dev->caps.log_max_cq_sz) {
		MLX5CQ_LOG(ERR, "invalid argument log_desc_n=%u: the device"
			   " allows 2^%u entries", log_desc_n,
			   RTE_MIN(24u, (unsigned int)dev->caps.log_max_cq_sz));
		rte_errno = EINVAL;
		return NULL;
	}
	cq = mlx5cq_zmalloc("mlx5cq_cq", sizeof(*cq), RTE_CACHE_LINE_SIZE,
			    dev->socket);
	if (cq == NULL)
		return NULL;
	ret = attach_query(cq, dcq);
	if (ret == 0 && cq->entries != UINT32_C(1) << log_desc_n) {
		MLX5CQ_LOG(ERR, "invalid argument log_desc_n=%u: the device"
			   " says the CQ has %u entries", log_desc_n,
			   cq->entries);
		ret = -EINVAL;
	}
	if (ret != 0) {
		mlx5cq_free(cq);
		rte_errno = -ret;
		return NULL;
	}
	cq->dev = dev;
	cq->path = RTE_MLX5CQ_PATH_ATTACH;
	cq->dcq = dcq;
	cq->socket = dev->socket;
	cq->ring = (void *)(uintptr_t)dcq->cqes;
	cq->ring_size = (size_t)cq->entries * cq->cqe_size;
	cq->dbrec = dcq->db_rec;
	if (dcq->umem_obj != NULL)
		cq->ring_umem_id =
			((struct mlx5dv_devx_umem *)dcq->umem_obj)->umem_id;
	cq->pub.cqn = dcq->cq->id;
	mlx5cq_pub_fill(cq);
	mlx5cq_dev_cq_get(dev);
	MLX5CQ_LOG(DEBUG, "attached CQ %#x: %u x %u B, compression %#x layout"
		   " %u", cq->pub.cqn, cq->entries, cq->cqe_size,
		   cq->comp_format, cq->comp_layout);
	return &cq->pub;
}
