/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Attach: a poll handle on a CQ made by rte_common_mlx5's
 * mlx5_devx_cq_create(), so PMDs that already create CQs that way can use
 * the mlx5cq poll API. That helper puts the ring (struct mlx5_cqe entries,
 * 64 B, or 128 B with the CQE in the second half where the cache line is
 * 128 B) and the doorbell record in one rte_malloc buffer and creates the
 * CQ without compression. The CQ stays the caller's: destroying the handle
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

struct rte_mlx5cq *
rte_mlx5cq_attach(struct rte_mlx5cq_dev *dev, struct mlx5_devx_cq *dcq,
		  uint16_t log_desc_n)
{
	struct mlx5cq_cq *cq;
	uint32_t stride = sizeof(struct mlx5_cqe);

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
	cq->dev = dev;
	cq->path = RTE_MLX5CQ_PATH_ATTACH;
	cq->dcq = dcq;
	cq->entries = UINT32_C(1) << log_desc_n;
	cq->cqe_size = (uint16_t)stride;
	cq->socket = dev->socket;
	cq->ring = (void *)(uintptr_t)dcq->cqes;
	cq->ring_size = (size_t)cq->entries * stride;
	cq->dbrec = dcq->db_rec;
	if (dcq->umem_obj != NULL)
		cq->ring_umem_id =
			((struct mlx5dv_devx_umem *)dcq->umem_obj)->umem_id;
	cq->pub.cqn = dcq->cq->id;
	mlx5cq_pub_fill(cq);
	mlx5cq_dev_cq_get(dev);
	MLX5CQ_LOG(DEBUG, "attached CQ %#x: %u x %u B", cq->pub.cqn,
		   cq->entries, stride);
	return &cq->pub;
}
