/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Multi-packet RQ (striding RQ) queues, built as DPDK's net/mlx5 builds
 * them (doc/guides/nics/mlx5.rst; mlx5_rxq.c mlx5_mprq_prepare(),
 * mlx5_mprq_alloc_mp(), mlx5_rxq_new(); mlx5_devx.c
 * rxq_create_devx_rq_resources()):
 *  - a port takes them with mprq_en=1 and at least rxqs_min_mprq RX queues
 *    (default 12), on a device whose mlx5dv_query_device() answers
 *    MLX5DV_CONTEXT_MASK_STRIDING_RQ;
 *  - a WQE (struct mlx5_wqe_mprq: a 16 B next segment, one 16 B data
 *    segment) posts one buffer of 2^mprq_log_stride_num strides of
 *    2^mprq_log_stride_size bytes. Out-of-range values fall back to the
 *    defaults with a warning (64 strides; 2048 B, else the size that
 *    holds a frame of the MTU with the headroom); a WQE buffer below the
 *    device's minimum (HCA cap 2 log_min_stride_wqe_sz) takes the
 *    defaults; a queue whose descriptors are not more than the strides of
 *    a WQE, or whose frames do not fit a WQE buffer, runs a cyclic RQ
 *    (warning);
 *  - descriptors count strides: desc >> log_stride_num WQEs, a CQ of
 *    desc - 1 entries (one completion per stride at most);
 *  - the buffers come from one pool per port (4 per WQE of every queue,
 *    plus each queue's cache), registered like the application's pools.
 *  - HASH and CSUM mini-CQEs become CSUM_STRIDX (the stride index is in
 *    the mini-CQE), as net/mlx5's scalar MPRQ burst asks for them.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include <mlx5_glue.h>

#include "mlx5cq_ethdev.h"
#include "mlx5cq_mprq.h"

/* What the device's verbs context says of striding RQs. */
int
mlx5cq_mprq_caps_read(struct mlx5cq_priv *priv, uint32_t log_min_wqe,
		      const char *name)
{
	struct mlx5cq_mprq_caps *c = &priv->mprq_caps;
	struct mlx5dv_context dv;

	memset(c, 0, sizeof(*c));
	memset(&dv, 0, sizeof(dv));
	dv.comp_mask = MLX5DV_CONTEXT_MASK_STRIDING_RQ;
	if (mlx5_glue->dv_query_device(priv->ctx, &dv) != 0) {
		PMD_LOG(ERR, "%s: mlx5dv_query_device failed", name);
		rte_errno = EIO;
		return -1;
	}
	if (!(dv.comp_mask & MLX5DV_CONTEXT_MASK_STRIDING_RQ) ||
	    !(dv.striding_rq_caps.supported_qpts & (1u << IBV_QPT_RAW_PACKET)))
		return 0;
	c->ok = 1;
	c->log_min_size = dv.striding_rq_caps.min_single_stride_log_num_of_bytes;
	c->log_max_size = dv.striding_rq_caps.max_single_stride_log_num_of_bytes;
	c->log_min_num = dv.striding_rq_caps.min_single_wqe_log_num_of_strides;
	c->log_max_num = dv.striding_rq_caps.max_single_wqe_log_num_of_strides;
	/* DPDK's mlx5_devx_cmd_query_hca_attr(): 0 reads as the PRM's 14. */
	c->log_min_wqe = log_min_wqe != 0 ? log_min_wqe : 14;
	PMD_LOG(DEBUG, "%s: striding RQ: strides 2^%u..2^%u of 2^%u..2^%u "
		"bytes, WQE buffer at least 2^%u bytes", name, c->log_min_num,
		c->log_max_num, c->log_min_size, c->log_max_size,
		c->log_min_wqe);
	return 0;
}

static uint32_t
mprq_clamp(uint32_t v, uint32_t lo, uint32_t hi)
{
	return RTE_MIN(RTE_MAX(v, lo), hi);
}

/*
 * The stride geometry of queue idx for frames of min_buf bytes (the frame
 * with the headroom) and desc descriptors: 0 with *log_num, *log_sz, or
 * -1 (a cyclic RQ).
 */
static int
mprq_geometry(const struct rte_eth_dev *dev, uint16_t idx, uint32_t desc,
	      uint32_t min_buf, uint8_t *log_num, uint8_t *log_sz)
{
	const struct mlx5cq_priv *priv = dev->data->dev_private;
	const struct mlx5cq_devargs *a = &priv->args;
	const struct mlx5cq_mprq_caps *c = &priv->mprq_caps;
	uint32_t def_num = mprq_clamp(MLX5CQ_MPRQ_LOG_STRIDE_NUM_DEFAULT,
				      c->log_min_num, c->log_max_num);
	uint32_t def_sz = mprq_clamp(MLX5CQ_MPRQ_LOG_STRIDE_SIZE_DEFAULT,
				     c->log_min_size, c->log_max_size);
	uint32_t num, sz;

	if (a->mprq_log_stride_num < c->log_min_num ||
	    a->mprq_log_stride_num > c->log_max_num) {
		num = def_num;
		PMD_LOG(WARNING, "port %u rxq %u: mprq_log_stride_num=%u out "
			"of the device's %u..%u: %u", dev->data->port_id, idx,
			a->mprq_log_stride_num, c->log_min_num, c->log_max_num,
			num);
	} else {
		num = a->mprq_log_stride_num;
	}
	if (a->mprq_log_stride_size == MLX5CQ_MPRQ_UNSET) {
		/* A stride holds a frame (net/mlx5's default). */
		if (min_buf > (1u << c->log_max_size))
			return -1;
		sz = RTE_MAX(rte_log2_u32(min_buf), (uint32_t)c->log_min_size);
	} else if (a->mprq_log_stride_size < c->log_min_size ||
		   a->mprq_log_stride_size > c->log_max_size) {
		sz = def_sz;
		PMD_LOG(WARNING, "port %u rxq %u: mprq_log_stride_size=%u out "
			"of the device's %u..%u: %u", dev->data->port_id, idx,
			a->mprq_log_stride_size, c->log_min_size,
			c->log_max_size, sz);
	} else {
		sz = a->mprq_log_stride_size;
	}
	/* A stride at least as large as the headroom. */
	if ((1u << sz) < RTE_PKTMBUF_HEADROOM) {
		if ((1u << c->log_max_size) <= RTE_PKTMBUF_HEADROOM)
			return -1;
		sz = rte_log2_u32(RTE_PKTMBUF_HEADROOM);
	}
	if (num + sz < c->log_min_wqe) {
		PMD_LOG(WARNING, "port %u rxq %u: WQE buffer of 2^%u bytes "
			"below the device's 2^%u: %u strides of %u bytes",
			dev->data->port_id, idx, num + sz, c->log_min_wqe,
			1u << def_num, 1u << def_sz);
		num = def_num;
		sz = def_sz;
	}
	if (desc <= (1u << num) || min_buf > (1u << (num + sz)))
		return -1;
	*log_num = (uint8_t)num;
	*log_sz = (uint8_t)sz;
	return 0;
}

void
mlx5cq_mprq_buf_free_cb(void *addr, void *opaque)
{
	RTE_SET_USED(addr);
	mlx5cq_mprq_buf_put(opaque);
}

/* Mempool object init: the header, one shinfo per stride. */
static void
mprq_buf_init(struct rte_mempool *mp, void *arg, void *obj, unsigned int i)
{
	struct mlx5cq_mprq_buf *b = obj;
	uint32_t strd_n = (uint32_t)(uintptr_t)arg, j;

	RTE_SET_USED(i);
	memset(b, 0, sizeof(*b));
	b->mp = mp;
	b->strd_n = strd_n;
	b->refcnt = 1;
	b->data = (uint8_t *)obj +
		  RTE_ALIGN_CEIL(sizeof(*b) + strd_n * sizeof(b->shinfo[0]),
				 RTE_CACHE_LINE_SIZE) + RTE_PKTMBUF_HEADROOM;
	for (j = 0; j < strd_n; j++) {
		b->shinfo[j].free_cb = mlx5cq_mprq_buf_free_cb;
		b->shinfo[j].fcb_opaque = b;
	}
}

static size_t
mprq_obj_size(uint32_t log_num, uint32_t log_sz)
{
	return RTE_ALIGN_CEIL(sizeof(struct mlx5cq_mprq_buf) +
			      (sizeof(struct rte_mbuf_ext_shared_info) <<
			       log_num), RTE_CACHE_LINE_SIZE) +
	       RTE_PKTMBUF_HEADROOM + ((size_t)1 << (log_num + log_sz));
}

/* All buffers of the pool back in it (none posted, none attached). */
static int
mprq_pool_idle(const struct rte_mempool *mp)
{
	return rte_mempool_avail_count(mp) == mp->size;
}

void
mlx5cq_mprq_pool_free(struct mlx5cq_priv *priv)
{
	struct rte_mempool *mp = priv->mprq_mp;

	if (mp == NULL)
		return;
	if (!mprq_pool_idle(mp)) {
		/* net/mlx5 keeps a pool in use too (mlx5_mprq_free_mp()). */
		PMD_LOG(WARNING, "port %u: %u multi-packet RQ buffers still "
			"attached to mbufs: pool %s kept",
			priv->eth_dev->data->port_id,
			mp->size - rte_mempool_avail_count(mp), mp->name);
		return;
	}
	rte_mempool_free(mp);
	priv->mprq_mp = NULL;
}

/*
 * The port's pool for WQEs of 2^(log_num + log_sz) bytes: the one there
 * when its buffers are large enough and it has enough of them, else a new
 * one (the old freed when idle, else refused: EBUSY).
 */
static int
mprq_pool_get(struct rte_eth_dev *dev, struct mlx5cq_rxq *rxq)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	size_t size = mprq_obj_size(rxq->log_strd_num, rxq->log_strd_sz);
	uint32_t n = (rxq->desc_n * 4 + MLX5CQ_MPRQ_CACHE) *
		     dev->data->nb_rx_queues;
	struct rte_mempool *mp = priv->mprq_mp;
	uint32_t geom = (uint32_t)rxq->log_strd_num << 8 | rxq->log_strd_sz;
	char name[RTE_MEMPOOL_NAMESIZE];
	static uint32_t seq;
	int ret;

	n = RTE_MAX(n, (uint32_t)MLX5CQ_MPRQ_CACHE * 2);
	if (mp != NULL && priv->mprq_geom == geom && mp->size >= n) {
		rxq->mprq_mp = mp;
		return 0;
	}
	if (mp != NULL) {
		if (!mprq_pool_idle(mp)) {
			PMD_LOG(ERR, "port %u rxq %u: the multi-packet RQ pool"
				" %s is too small and in use", rxq->port_id,
				rxq->idx, mp->name);
			return -EBUSY;
		}
		rte_mempool_free(mp);
		priv->mprq_mp = NULL;
	}
	snprintf(name, sizeof(name), "mlx5cq_mprq_%u_%u", rxq->port_id,
		 __atomic_fetch_add(&seq, 1, __ATOMIC_RELAXED));
	mp = rte_mempool_create(name, n, size, MLX5CQ_MPRQ_CACHE, 0, NULL,
				NULL, mprq_buf_init,
				(void *)(uintptr_t)(1u << rxq->log_strd_num),
				rxq->socket, 0);
	if (mp == NULL) {
		PMD_LOG(ERR, "port %u rxq %u: no pool of %u multi-packet RQ "
			"buffers of %zu bytes: %s", rxq->port_id, rxq->idx, n,
			size, rte_strerror(rte_errno));
		return -ENOMEM;
	}
	ret = mlx5cq_mr_register_mempool(priv, mp);
	if (ret != 0) {
		rte_mempool_free(mp);
		return ret;
	}
	priv->mprq_mp = mp;
	priv->mprq_geom = geom;
	rxq->mprq_mp = mp;
	return 0;
}

/*
 * Make rxq (set up with rxq->elts_n descriptors, no buffers yet) a
 * multi-packet RQ queue when the port takes them: 1 (it is), 0 (a cyclic
 * RQ), or -errno.
 */
int
mlx5cq_rxq_mprq_setup(struct rte_eth_dev *dev, struct mlx5cq_rxq *rxq)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	const struct mlx5cq_devargs *a = &priv->args;
	uint32_t frame = dev->data->mtu + RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN;
	uint32_t room = rte_pktmbuf_data_room_size(rxq->mp);
	uint8_t log_num, log_sz;
	int ret;

	if (!a->mprq_en)
		return 0;
	if (dev->data->nb_rx_queues < a->rxqs_min_mprq)
		return 0;
	if (!priv->mprq_caps.ok ||
	    (rte_pktmbuf_priv_flags(rxq->mp) &
	     RTE_PKTMBUF_POOL_F_PINNED_EXT_BUF) ||
	    mprq_geometry(dev, rxq->idx, rxq->elts_n,
			  frame + RTE_PKTMBUF_HEADROOM, &log_num,
			  &log_sz) != 0) {
		PMD_LOG(WARNING, "port %u rxq %u: mprq_en=1 but no "
			"multi-packet RQ (device %s striding RQs, %u "
			"descriptors, frames of %u bytes, %s mempool): cyclic "
			"RQ", rxq->port_id, rxq->idx,
			priv->mprq_caps.ok ? "with" : "without", rxq->elts_n,
			frame, (rte_pktmbuf_priv_flags(rxq->mp) &
			RTE_PKTMBUF_POOL_F_PINNED_EXT_BUF) ? "pinned" :
			"plain");
		return 0;
	}
	rxq->mprq = 1;
	rxq->log_strd_num = log_num;
	rxq->log_strd_sz = log_sz;
	rxq->desc_n = rxq->elts_n >> log_num;
	rxq->mask = rxq->desc_n - 1;
	rxq->memcpy_len = RTE_MIN(a->mprq_max_memcpy_len,
				  room - RTE_PKTMBUF_HEADROOM);
	rxq->bufs = rte_zmalloc_socket("mlx5cq_mprq_bufs",
				       sizeof(rxq->bufs[0]) * rxq->desc_n,
				       RTE_CACHE_LINE_SIZE, rxq->socket);
	if (rxq->bufs == NULL)
		return -ENOMEM;
	ret = mprq_pool_get(dev, rxq);
	if (ret != 0)
		return ret;
	if (rte_mempool_get_bulk(rxq->mprq_mp, (void **)rxq->bufs,
				 rxq->desc_n) != 0) {
		PMD_LOG(ERR, "port %u rxq %u: cannot take %u multi-packet RQ "
			"buffers", rxq->port_id, rxq->idx, rxq->desc_n);
		memset(rxq->bufs, 0, sizeof(rxq->bufs[0]) * rxq->desc_n);
		return -ENOMEM;
	}
	if (rte_mempool_get(rxq->mprq_mp, (void **)&rxq->mprq_repl) != 0)
		rxq->mprq_repl = NULL;
	PMD_LOG(DEBUG, "port %u rxq %u: multi-packet RQ, %u WQEs of %u "
		"strides of %u bytes, copies up to %u bytes", rxq->port_id,
		rxq->idx, rxq->desc_n, 1u << log_num, 1u << log_sz,
		rxq->memcpy_len);
	return 1;
}

/* The queue's buffers back (those still attached return when freed). */
void
mlx5cq_rxq_mprq_free(struct mlx5cq_rxq *rxq)
{
	uint32_t i;

	if (rxq->bufs != NULL) {
		for (i = 0; i < rxq->desc_n; i++)
			if (rxq->bufs[i] != NULL)
				mlx5cq_mprq_buf_put(rxq->bufs[i]);
		rte_free(rxq->bufs);
		rxq->bufs = NULL;
	}
	if (rxq->mprq_repl != NULL) {
		mlx5cq_mprq_buf_put(rxq->mprq_repl);
		rxq->mprq_repl = NULL;
	}
}

/*
 * Post every WQE's buffer, all strides free (start, recovery). A buffer
 * with strides still attached to mbufs is replaced first; when the pool
 * has none to give: -ENOMEM, nothing posted (the buffers replaced so far
 * stay replaced).
 */
int
mlx5cq_rxq_mprq_post_all(struct mlx5cq_rxq *rxq)
{
	uint32_t len = 1u << (rxq->log_strd_num + rxq->log_strd_sz);
	struct mlx5cq_mprq_buf *rep;
	uint32_t i;

	for (i = 0; i < rxq->desc_n; i++) {
		if (__atomic_load_n(&rxq->bufs[i]->refcnt,
				    __ATOMIC_ACQUIRE) == 1)
			continue;
		if (rte_mempool_get(rxq->mprq_mp, (void **)&rep) != 0) {
			PMD_LOG(ERR, "port %u rxq %u: no buffer to replace "
				"one still attached to mbufs", rxq->port_id,
				rxq->idx);
			return -ENOMEM;
		}
		mlx5cq_mprq_buf_put(rxq->bufs[i]);
		rxq->bufs[i] = rep;
	}
	for (i = 0; i < rxq->desc_n; i++) {
		/* The data segment: the second half of a 32 B WQE. */
		volatile struct mlx5_wqe_dseg_rx *w = &rxq->wqes[2 * i + 1];
		uintptr_t addr = (uintptr_t)rxq->bufs[i]->data;

		memset((void *)(uintptr_t)&rxq->wqes[2 * i], 0,
		       sizeof(rxq->wqes[0]));
		w->byte_count = rte_cpu_to_be_32(len);
		w->lkey = rte_cpu_to_be_32(mlx5cq_mr_lookup(&rxq->mrc, addr,
							    rxq->mprq_mp));
		w->addr = rte_cpu_to_be_64(addr);
	}
	rxq->pi = rxq->desc_n;
	rxq->rq_ci = 0;
	rxq->strd_ci = 0;
	rte_io_wmb();
	rxq->dbrec[0] = rte_cpu_to_be_32(rxq->pi & 0xffff);
	return 0;
}

/* Some RX queue of the port is a multi-packet RQ. */
int
mlx5cq_rxq_any_mprq(const struct rte_eth_dev *dev)
{
	const struct mlx5cq_rxq *rxq;
	uint16_t i;

	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		rxq = dev->data->rx_queues[i];
		if (rxq != NULL && rxq->mprq)
			return 1;
	}
	return 0;
}
