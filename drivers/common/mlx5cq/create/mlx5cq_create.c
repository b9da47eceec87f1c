/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Common part of CQ creation: validation, the handle, the choice of path,
 * the public fields the inline poll reads, destruction and information.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_memory.h>

#include "mlx5cq_private.h"

void
mlx5cq_pub_fill(struct mlx5cq_cq *cq)
{
	struct rte_mlx5cq *pub = &cq->pub;

	pub->ring = cq->ring;
	pub->dbrec = cq->dbrec;
	pub->ci = 0;
	pub->mask = cq->entries - 1;
	pub->log_n = (uint8_t)rte_log2_u32(cq->entries);
	pub->stride_shift = cq->cqe_size == 128 ? 7 : 6;
	/* The 64 B CQE is the second half of a 128 B stride. */
	pub->cqe_off = (uint8_t)(cq->cqe_size - RTE_MLX5CQ_PRM_CQE_SIZE);
	pub->comp = 0;
	if (cq->comp_format) {
		pub->comp = (uint8_t)(cq->prm_format + 1);
		if (cq->comp_layout == RTE_MLX5CQ_COMP_LAYOUT_ENHANCED)
			pub->comp |= RTE_MLX5CQ_COMP_ENHANCED;
	}
	pub->slow = 0;
	if (!(cq->flags & RTE_MLX5CQ_F_SINGLE_THREADED))
		pub->slow |= RTE_MLX5CQ_SLOW_LOCK;
	if (pub->comp & RTE_MLX5CQ_COMP_ENHANCED)
		pub->slow |= RTE_MLX5CQ_SLOW_ENHANCED;
	if (cq->flags & RTE_MLX5CQ_F_COLLAPSED)
		pub->slow |= RTE_MLX5CQ_SLOW_COLLAPSED;
	pub->vec = (uint8_t)mlx5cq_vec_default();
	if (pub->vec != RTE_MLX5CQ_VEC_SCALAR)
		pub->slow |= RTE_MLX5CQ_SLOW_VEC;
	pub->completions = 0;
	pub->polls = 0;
	pub->empty_polls = 0;
	cq->arm_sn = 0;
	cq->iter_active = 0;
	rte_spinlock_init(&cq->lock);
	memset(&cq->cnt, 0, sizeof(cq->cnt));
	memset(&cq->session, 0, sizeof(cq->session));
	mlx5cq_registry_add(cq);
}

struct rte_mlx5cq *
rte_mlx5cq_create(struct rte_mlx5cq_dev *dev,
		  const struct rte_mlx5cq_attr *attr)
{
	struct mlx5cq_params p;
	struct mlx5cq_cq *cq;
	int ret;

	ret = mlx5cq_attr_check(dev, attr, &p);
	if (ret)
		return NULL;
	cq = mlx5cq_zmalloc("mlx5cq_cq", sizeof(*cq), RTE_CACHE_LINE_SIZE,
			    p.socket);
	if (cq == NULL)
		return NULL;
	cq->dev = dev;
	cq->path = p.path;
	cq->entries = p.entries;
	cq->cqe_size = p.cqe_size;
	cq->cqe_pad = p.cqe_pad;
	cq->comp_format = p.comp_format;
	cq->prm_format = p.prm_format;
	cq->comp_layout = p.comp_layout;
	cq->flags = p.flags;
	cq->wc_flags = p.wc_flags;
	cq->wallclock = p.wallclock;
	cq->comp_vector = p.comp_vector;
	cq->socket = p.socket;
	if (p.path == RTE_MLX5CQ_PATH_DEVX) {
		ret = mlx5cq_devx_create(dev, cq, &p);
		if (ret == 0) {
			ret = mlx5cq_events_setup(dev, cq);
			if (ret && mlx5cq_devx_destroy(cq))
				MLX5CQ_LOG(ERR, "cannot undo the DevX CQ");
		}
	} else {
		ret = mlx5cq_verbs_create(dev, cq, &p);
	}
	if (ret) {
		mlx5cq_free(cq);
		rte_errno = -ret;
		return NULL;
	}
	mlx5cq_pub_fill(cq);
	mlx5cq_dev_cq_get(dev);
	return &cq->pub;
}

int
rte_mlx5cq_destroy(struct rte_mlx5cq *pub)
{
	struct mlx5cq_cq *cq;
	int ret = 0;

	if (pub == NULL)
		return 0;
	cq = mlx5cq_from_pub(pub);
	switch (cq->path) {
	case RTE_MLX5CQ_PATH_DEVX:
		ret = mlx5cq_devx_destroy(cq);
		break;
	case RTE_MLX5CQ_PATH_VERBS:
		ret = mlx5cq_verbs_destroy(cq);
		break;
	case RTE_MLX5CQ_PATH_ATTACH:
		/* The CQ belongs to whoever called mlx5_devx_cq_create(). */
		break;
	default:
		MLX5CQ_LOG(ERR, "CQ %p has no valid path (%d)", (void *)pub,
			   (int)cq->path);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	if (ret) {
		rte_errno = -ret;
		return ret;
	}
	mlx5cq_registry_del(cq);
	mlx5cq_dev_cq_put(cq->dev);
	mlx5cq_free(cq);
	return 0;
}

int
rte_mlx5cq_info_get(const struct rte_mlx5cq *pub, struct rte_mlx5cq_info *info)
{
	const struct mlx5cq_cq *cq;
	const struct rte_memseg_list *msl;
	uint64_t pgsz;

	if (pub == NULL || info == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	cq = mlx5cq_from_pub(pub);
	memset(info, 0, sizeof(*info));
	info->cqn = pub->cqn;
	info->entries = cq->entries;
	info->capacity = cq->entries - 1;
	info->cqe_size = cq->cqe_size;
	info->cqe_pad = cq->cqe_pad;
	info->comp_format = cq->comp_format;
	info->comp_layout = cq->comp_layout;
	info->path = cq->path;
	info->flags = cq->flags;
	info->ring = cq->ring;
	info->dbrec = cq->dbrec;
	info->ring_size = cq->ring_size;
	if (cq->path == RTE_MLX5CQ_PATH_DEVX) {
		info->eqn = cq->eqn;
		info->uar_page = cq->dev->uar_page;
		info->log_page_size = cq->log_page_size;
		info->umem_id = cq->ring_umem_id;
	} else if (cq->path == RTE_MLX5CQ_PATH_ATTACH) {
		info->umem_id = cq->ring_umem_id;
	}
	/* Where the ring really is (rte_malloc memory or not). */
	msl = rte_mem_virt2memseg_list(cq->ring);
	if (msl != NULL) {
		pgsz = msl->page_sz;
		info->socket = msl->socket_id;
	} else {
		pgsz = mlx5cq_sys_page_size();
		info->socket = cq->socket;
	}
	info->ring_page_size = pgsz;
	info->ring_hugepage = pgsz > mlx5cq_sys_page_size();
	return 0;
}
