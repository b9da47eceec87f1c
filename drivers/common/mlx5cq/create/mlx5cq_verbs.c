/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Verbs path: mlx5dv_create_cq() through the glue, then mlx5dv_init_obj()
 * for the ring, doorbell record, entry count, CQE size and CQ number.
 *
 * The ring and rdma-core's doorbell pages come from the context's buffer
 * allocators, which rte_mlx5cq_dev_open() points at rte_malloc; during the
 * call the allocator uses the socket requested for this CQ. rdma-core sizes
 * the ring itself (align_queue_size(cqe + 1)) and initialises every CQE
 * invalid (op_own = INVALID << 4); the library checks the result is the
 * power-of-two ring it computed.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>

#include <rte_bitops.h>
#include <rte_common.h>
#include <rte_errno.h>

#include <mlx5_glue.h>

#include "mlx5cq_private.h"

static int
verbs_destroy_cq(struct ibv_cq_ex *vcq)
{
	int ret;

	errno = 0;
	ret = mlx5_glue->destroy_cq(mlx5_glue->cq_ex_to_cq(vcq));
	if (ret)
		return errno ? errno : (ret > 0 ? ret : EIO);
	return 0;
}

int
mlx5cq_verbs_create(struct rte_mlx5cq_dev *dev, struct mlx5cq_cq *cq,
		    const struct mlx5cq_params *p)
{
	struct ibv_cq_init_attr_ex ia;
	struct mlx5dv_cq_init_attr da;
	struct mlx5dv_obj obj;
	struct mlx5dv_cq dv;
	struct ibv_cq_ex *vcq;
	int ret, err;

	memset(&ia, 0, sizeof(ia));
	memset(&da, 0, sizeof(da));
	if (p->flags & RTE_MLX5CQ_F_EVENTS) {
		errno = 0;
		cq->chan = mlx5_glue->create_comp_channel(dev->ctx);
		if (cq->chan == NULL) {
			err = errno ? errno : ENOMEM;
			MLX5CQ_LOG(ERR, "cannot create a completion channel:"
				   " %s", strerror(err));
			return -err;
		}
		ia.channel = cq->chan;
	}
	ia.cqe = p->cqe;
	ia.comp_vector = p->comp_vector;
	ia.wc_flags = p->wc_flags;
	if (p->flags & (RTE_MLX5CQ_F_SINGLE_THREADED |
			RTE_MLX5CQ_F_IGNORE_OVERRUN)) {
		ia.comp_mask |= IBV_CQ_INIT_ATTR_MASK_FLAGS;
		if (p->flags & RTE_MLX5CQ_F_SINGLE_THREADED)
			ia.flags |= IBV_CREATE_CQ_ATTR_SINGLE_THREADED;
		if (p->flags & RTE_MLX5CQ_F_IGNORE_OVERRUN)
			ia.flags |= IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN;
	}
	/* Always explicit: no MLX5_CQE_SIZE environment fallback. */
	da.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE;
	da.cqe_size = p->cqe_size;
	if (p->comp_format) {
		/* HASH, CSUM, CSUM_STRIDX equal MLX5DV_CQE_RES_FORMAT_*. */
		da.comp_mask |= MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE;
		da.cqe_comp_res_format = p->comp_format;
	}
	if (p->cqe_pad) {
		da.comp_mask |= MLX5DV_CQ_INIT_ATTR_MASK_FLAGS;
		da.flags |= MLX5DV_CQ_INIT_ATTR_FLAGS_CQE_PAD;
	}
	pthread_mutex_lock(&dev->lock);
	__atomic_store_n(&dev->alloc_socket, p->socket, __ATOMIC_RELAXED);
	errno = 0;
	vcq = mlx5_glue->dv_create_cq(dev->ctx, &ia, &da);
	err = errno;
	__atomic_store_n(&dev->alloc_socket, dev->socket, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&dev->lock);
	if (vcq == NULL) {
		err = err ? err : ENOMEM;
		MLX5CQ_LOG(ERR, "mlx5dv_create_cq failed: %s (cqe %u, cqe_size"
			   " %u, comp_format %#x, flags %#x)", strerror(err),
			   p->cqe, p->cqe_size, p->comp_format, p->flags);
		goto err_chan;
	}
	memset(&obj, 0, sizeof(obj));
	memset(&dv, 0, sizeof(dv));
	obj.cq.in = mlx5_glue->cq_ex_to_cq(vcq);
	obj.cq.out = &dv;
	errno = 0;
	ret = mlx5_glue->dv_init_obj(&obj, MLX5DV_OBJ_CQ);
	if (ret) {
		err = errno ? errno : (ret > 0 ? ret : EIO);
		MLX5CQ_LOG(ERR, "mlx5dv_init_obj(CQ) failed: %s",
			   strerror(err));
		goto err_cq;
	}
	if (dv.cqe_size != p->cqe_size || dv.buf == NULL ||
	    dv.dbrec == NULL || !rte_is_power_of_2(dv.cqe_cnt) ||
	    dv.cqe_cnt < p->cqe + 1) {
		MLX5CQ_LOG(ERR, "verbs CQ %#x not as requested: %u entries of"
			   " %u B (wanted %u of %u B), buf %p dbrec %p",
			   dv.cqn, dv.cqe_cnt, dv.cqe_size, p->entries,
			   p->cqe_size, dv.buf, (void *)dv.dbrec);
		err = EPROTO;
		goto err_cq;
	}
	if (dv.cqe_cnt != p->entries)
		MLX5CQ_LOG(WARNING, "verbs CQ %#x has %u entries, %u expected",
			   dv.cqn, dv.cqe_cnt, p->entries);
	cq->vcq = vcq;
	cq->entries = dv.cqe_cnt;
	cq->ring = dv.buf;
	cq->ring_size = (size_t)dv.cqe_cnt * dv.cqe_size;
	cq->dbrec = (volatile uint32_t *)dv.dbrec;
	cq->pub.cqn = dv.cqn;
	/* rdma-core mlx5_arm_cq: the CQ doorbell of the CQ's UAR page. */
	if (dv.cq_uar != NULL)
		cq->uar_db = (uint8_t *)dv.cq_uar + MLX5_CQ_DOORBELL;
	MLX5CQ_LOG(DEBUG, "verbs CQ %#x: %u x %u B, ring %p, dbrec %p",
		   dv.cqn, dv.cqe_cnt, dv.cqe_size, dv.buf, (void *)dv.dbrec);
	return 0;
err_cq:
	ret = verbs_destroy_cq(vcq);
	if (ret)
		MLX5CQ_LOG(ERR, "cannot destroy the verbs CQ: %s",
			   strerror(ret));
err_chan:
	if (cq->chan != NULL) {
		mlx5_glue->destroy_comp_channel(cq->chan);
		cq->chan = NULL;
	}
	return -err;
}

int
mlx5cq_verbs_destroy(struct mlx5cq_cq *cq)
{
	int ret;

	if (cq->vcq == NULL)
		return 0;
	ret = verbs_destroy_cq(cq->vcq);
	if (ret) {
		MLX5CQ_LOG(ERR, "cannot destroy verbs CQ %#x: %s", cq->pub.cqn,
			   strerror(ret));
		return -ret;
	}
	cq->vcq = NULL;
	if (cq->chan != NULL) {
		if (mlx5_glue->destroy_comp_channel(cq->chan))
			MLX5CQ_LOG(ERR, "cannot destroy the completion channel"
				   " of CQ %#x", cq->pub.cqn);
		cq->chan = NULL;
	}
	cq->ring = NULL;
	cq->dbrec = NULL;
	return 0;
}
