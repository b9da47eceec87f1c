/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * TX queues. Start creates an mlx5cq CQ and an SQ (mlx5_devx_sq_create:
 * WQE ring + doorbell record in one umem, the port's TIS, PD and UAR) and
 * moves it RST -> RDY; stop moves it back to RST and frees the mbufs still
 * in flight; the port's stop destroys SQ and CQ.
 */

#include <errno.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include <infiniband/mlx5dv.h>
#include <mlx5_common_devx.h>
#include <mlx5_common.h>
#include <mlx5_devx_cmds.h>
#include <mlx5_prm.h>

#include "mlx5cq_ethdev.h"

static void
mlx5cq_txq_free(struct mlx5cq_txq *txq)
{
	if (txq == NULL)
		return;
	rte_free(txq->elts);
	rte_free(txq->wqe_end);
	rte_free(txq->sq_obj);
	rte_free(txq);
}

int
mlx5cq_tx_queue_setup(struct rte_eth_dev *dev, uint16_t idx, uint16_t desc,
		      unsigned int socket, const struct rte_eth_txconf *conf)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	struct mlx5cq_txq *txq;
	uint32_t n = priv->args.txq_desc ? priv->args.txq_desc : desc;

	if (n == 0)
		n = MLX5CQ_DESC_DEFAULT;
	n = RTE_MAX(n, (uint32_t)MLX5CQ_DESC_MIN);
	n = rte_align32pow2(RTE_MIN(n, (uint32_t)MLX5CQ_DESC_MAX));
	if (priv->args.txq_desc && desc && desc != priv->args.txq_desc)
		PMD_LOG(INFO, "port %u txq %u: %u descriptors (devarg "
			"txq_desc), %u requested", dev->data->port_id, idx,
			n, desc);
	txq = rte_zmalloc_socket("mlx5cq_txq", sizeof(*txq),
				 RTE_CACHE_LINE_SIZE, socket);
	if (txq == NULL)
		return -ENOMEM;
	txq->priv = priv;
	txq->wqebb_n = n;
	txq->mask = n - 1;
	txq->comp_thresh = RTE_MIN(priv->args.tx_comp_thresh, n / 4);
	txq->inline_hdr = priv->tx_inline;
	txq->vlan_hw = priv->tx_vlan_hw;
	txq->port_id = dev->data->port_id;
	txq->idx = idx;
	txq->socket = socket;
	txq->deferred = conf->tx_deferred_start;
	txq->offloads = conf->offloads | dev->data->dev_conf.txmode.offloads;
	txq->slow_flags = (txq->offloads & RTE_ETH_TX_OFFLOAD_VLAN_INSERT ?
			   RTE_MBUF_F_TX_VLAN : 0) |
			  (txq->offloads & RTE_ETH_TX_OFFLOAD_TCP_TSO ?
			   RTE_MBUF_F_TX_TCP_SEG : 0);
	/* As net/mlx5 engages it (mlx5_txq.c): not with chains. */
	txq->fast_free =
		(txq->offloads & (RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE |
				  RTE_ETH_TX_OFFLOAD_MULTI_SEGS)) ==
		RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	mlx5cq_mr_cache_init(&txq->mrc, priv);
	txq->elts = rte_zmalloc_socket("mlx5cq_txq_elts",
				       sizeof(txq->elts[0]) * n,
				       RTE_CACHE_LINE_SIZE, socket);
	txq->wqe_end = rte_zmalloc_socket("mlx5cq_txq_end",
					  sizeof(txq->wqe_end[0]) * n,
					  RTE_CACHE_LINE_SIZE, socket);
	txq->sq_obj = rte_zmalloc_socket("mlx5cq_sq",
					 sizeof(struct mlx5_devx_sq), 0,
					 socket);
	if (txq->elts == NULL || txq->wqe_end == NULL ||
	    txq->sq_obj == NULL) {
		mlx5cq_txq_free(txq);
		return -ENOMEM;
	}
	if (priv->args.tx_comp_thresh > n / 4)
		PMD_LOG(INFO, "port %u txq %u: completion every %u packets "
			"(a quarter of the ring)", dev->data->port_id, idx,
			txq->comp_thresh);
	dev->data->tx_queues[idx] = txq;
	return 0;
}

static int
mlx5cq_sq_modify_log(struct mlx5cq_txq *txq, int from, int to,
		     uint32_t level)
{
	struct mlx5_devx_sq *sq = txq->sq_obj;
	struct mlx5_devx_modify_sq_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.sq_state = from;
	attr.state = to;
	if (mlx5_devx_cmd_modify_sq(sq->sq, &attr) != 0) {
		rte_log(level, mlx5cq_net_logtype, "net_mlx5cq: port %u txq %u:"
			" SQ %#x state %d -> %d failed: %s\n", txq->port_id,
			txq->idx, txq->sqn, from, to, rte_strerror(rte_errno));
		return -rte_errno;
	}
	return 0;
}

static int
mlx5cq_sq_modify(struct mlx5cq_txq *txq, int from, int to)
{
	return mlx5cq_sq_modify_log(txq, from, to, RTE_LOG_ERR);
}

/*
 * The send queues' UAR: this process rings it at the page its allocation
 * mapped; a secondary maps the page at uar_mmap_off of the context's
 * cmd_fd (mlx5cq_mp.c), as net/mlx5 keeps uar_mmap_offset for its
 * secondaries.
 */
static void
mlx5cq_txq_uar_publish(struct mlx5cq_priv *priv)
{
	struct mlx5cq_proc_priv *pp = priv->eth_dev->process_private;

	pp->uar_reg = (volatile uint64_t *)
		      ((uint8_t *)priv->uar->base_addr + 0x800);
	priv->uar_mmap_off = (uint64_t)priv->uar->mmap_off;
	priv->uar_valid = 1;
}

static int
mlx5cq_txq_hw_create(struct mlx5cq_txq *txq)
{
	struct mlx5cq_priv *priv = txq->priv;
	struct mlx5_devx_sq *sq = txq->sq_obj;
	struct mlx5_devx_create_sq_attr attr;
	struct rte_mlx5cq_attr cq_attr;
	int ret;

	ret = mlx5cq_device_pdn(priv);
	if (ret == 0)
		ret = mlx5cq_device_tx_objs(priv);
	if (ret != 0)
		return ret;
	mlx5cq_cq_attr_fill(priv, &cq_attr, txq->wqebb_n, txq->socket, 0);
	txq->cq = rte_mlx5cq_create(priv->cqdev, &cq_attr);
	if (txq->cq == NULL) {
		PMD_LOG(ERR, "port %u txq %u: CQ creation failed: %s",
			txq->port_id, txq->idx, rte_strerror(rte_errno));
		return -rte_errno;
	}
	mlx5cq_cq_log(txq->cq, txq->port_id, "tx", txq->idx);
	memset(&attr, 0, sizeof(attr));
	attr.state = MLX5_SQC_STATE_RST;
	attr.cqn = txq->cq->cqn;
	attr.ts_format = priv->sq_ts_format;
	attr.tis_lst_sz = 1;
	attr.tis_num = priv->tis->id;
	attr.min_wqe_inline_mode = priv->tx_inline ? MLX5_INLINE_MODE_L2 :
				   MLX5_INLINE_MODE_NONE;
	attr.wq_attr.pd = priv->pdn;
	attr.wq_attr.uar_page = priv->uar->page_id;
	memset(sq, 0, sizeof(*sq));
	ret = mlx5_devx_sq_create(priv->ctx, sq, rte_log2_u32(txq->wqebb_n),
				  &attr, txq->socket);
	if (ret != 0) {
		ret = -rte_errno;
		PMD_LOG(ERR, "port %u txq %u: SQ creation failed: %s",
			txq->port_id, txq->idx, rte_strerror(rte_errno));
		mlx5cq_cq_counters_add(&txq->cq_base, txq->cq);
		rte_mlx5cq_destroy(txq->cq);
		txq->cq = NULL;
		return ret;
	}
	txq->sqn = sq->sq->id;
	txq->sq_rst = 1;
	txq->wqes = (volatile uint8_t *)sq->umem_buf;
	txq->dbrec = sq->db_rec;
	mlx5cq_txq_uar_publish(priv);
	return 0;
}

/* Free the mbufs of every WQE not completed yet. */
static void
mlx5cq_txq_free_all(struct mlx5cq_txq *txq)
{
	for (; txq->ci != txq->pi; txq->ci++) {
		struct rte_mbuf **m = &txq->elts[txq->ci & txq->mask];

		if (*m != NULL) {
			rte_pktmbuf_free((struct rte_mbuf *)
					 ((uintptr_t)*m & ~MLX5CQ_TX_ELT_CHAIN));
			*m = NULL;
		}
	}
	txq->since_comp = 0;
}

static int
mlx5cq_txq_hw_ready(struct mlx5cq_txq *txq)
{
	int ret;

	txq->pi = 0;
	txq->ci = 0;
	txq->since_comp = 0;
	txq->in_error = 0;
	txq->dbrec[1] = 0;
	ret = mlx5cq_sq_modify(txq, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY);
	if (ret != 0)
		return ret;
	txq->sq_rst = 0;
	txq->started = 1;
	return 0;
}

static int
mlx5cq_txq_hw_reset(struct mlx5cq_txq *txq)
{
	int ret;

	if (!txq->started)
		return 0;
	txq->started = 0;
	mlx5cq_txq_complete(txq);
	ret = txq->sq_rst ? 0 :
	      mlx5cq_sq_modify(txq, txq->in_error ? MLX5_SQC_STATE_ERR :
			       MLX5_SQC_STATE_RDY, MLX5_SQC_STATE_RST);
	txq->sq_rst = 1;
	while (rte_mlx5cq_poll_burst(txq->cq, txq->cpl, MLX5CQ_BURST_MAX))
		;
	mlx5cq_txq_free_all(txq);
	return ret;
}

/*
 * Recover a send queue after an error completion: the device flushed it
 * (ERR state); back to RST, then RDY with empty counters.
 */
int
mlx5cq_txq_recover(struct mlx5cq_txq *txq)
{
	int ret = 0;

	/* The SQ's state changes are commands on the primary's context. */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return mlx5cq_mp_req_recover(txq->priv, 1, txq->idx);

	if (!txq->sq_rst) {
		mlx5cq_txq_complete(txq);
		ret = mlx5cq_sq_modify_log(txq, MLX5_SQC_STATE_ERR,
					   MLX5_SQC_STATE_RST, RTE_LOG_DEBUG);
		if (ret != 0)
			ret = mlx5cq_sq_modify(txq, MLX5_SQC_STATE_RDY,
					       MLX5_SQC_STATE_RST);
		txq->sq_rst = ret == 0;
	}
	if (ret == 0) {
		while (rte_mlx5cq_poll_burst(txq->cq, txq->cpl,
					     MLX5CQ_BURST_MAX))
			;
		mlx5cq_txq_free_all(txq);
		ret = mlx5cq_txq_hw_ready(txq);
	}
	if (ret != 0) {
		txq->in_error = 1;
		txq->st.recovery_failures++;
		PMD_LOG(ERR, "port %u txq %u: recovery failed (%s), retried "
			"at the next burst", txq->port_id, txq->idx,
			rte_strerror(-ret));
		return ret;
	}
	txq->st.recoveries++;
	return 0;
}

static void
mlx5cq_txq_hw_destroy(struct mlx5cq_txq *txq)
{
	struct mlx5_devx_sq *sq = txq->sq_obj;

	mlx5cq_txq_hw_reset(txq);
	if (sq != NULL && sq->sq != NULL) {
		mlx5_devx_sq_destroy(sq);
		memset(sq, 0, sizeof(*sq));
	}
	txq->wqes = NULL;
	txq->dbrec = NULL;
	if (txq->cq != NULL) {
		mlx5cq_cq_counters_add(&txq->cq_base, txq->cq);
		if (rte_mlx5cq_destroy(txq->cq) != 0)
			PMD_LOG(ERR, "port %u txq %u: CQ destroy failed",
				txq->port_id, txq->idx);
		txq->cq = NULL;
	}
}

int
mlx5cq_tx_queue_create_stopped(struct rte_eth_dev *dev, uint16_t idx)
{
	struct mlx5cq_txq *txq = dev->data->tx_queues[idx];

	if (txq->cq != NULL)
		return 0;
	return mlx5cq_txq_hw_create(txq);
}

int
mlx5cq_tx_queue_start(struct rte_eth_dev *dev, uint16_t idx)
{
	struct mlx5cq_txq *txq = dev->data->tx_queues[idx];
	int ret;

	if (txq == NULL)
		return -EINVAL;
	if (txq->cq == NULL) {
		ret = mlx5cq_txq_hw_create(txq);
		if (ret != 0)
			return ret;
	}
	if (!txq->started) {
		ret = mlx5cq_txq_hw_ready(txq);
		if (ret != 0)
			return ret;
	}
	dev->data->tx_queue_state[idx] = RTE_ETH_QUEUE_STATE_STARTED;
	return 0;
}

int
mlx5cq_tx_queue_stop(struct rte_eth_dev *dev, uint16_t idx)
{
	struct mlx5cq_txq *txq = dev->data->tx_queues[idx];
	int ret;

	if (txq == NULL)
		return -EINVAL;
	ret = mlx5cq_txq_hw_reset(txq);
	dev->data->tx_queue_state[idx] = RTE_ETH_QUEUE_STATE_STOPPED;
	return ret;
}

void
mlx5cq_tx_queue_destroy_hw(struct rte_eth_dev *dev, uint16_t idx)
{
	struct mlx5cq_txq *txq = dev->data->tx_queues[idx];

	if (txq == NULL)
		return;
	mlx5cq_txq_hw_destroy(txq);
	dev->data->tx_queue_state[idx] = RTE_ETH_QUEUE_STATE_STOPPED;
}

void
mlx5cq_tx_queue_release(struct rte_eth_dev *dev, uint16_t idx)
{
	struct mlx5cq_txq *txq = dev->data->tx_queues[idx];

	if (txq == NULL)
		return;
	mlx5cq_txq_hw_destroy(txq);
	mlx5cq_txq_free(txq);
	dev->data->tx_queues[idx] = NULL;
}

void
mlx5cq_txq_info_get(struct rte_eth_dev *dev, uint16_t idx,
		    struct rte_eth_txq_info *qinfo)
{
	struct mlx5cq_txq *txq = dev->data->tx_queues[idx];

	qinfo->nb_desc = txq->wqebb_n;
	qinfo->conf.offloads = txq->offloads;
	qinfo->conf.tx_deferred_start = txq->deferred;
	qinfo->conf.tx_free_thresh = txq->comp_thresh;
}
