/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * RX queues. Setup keeps the software side (buffer ring filled with mbufs,
 * mempool registered); start creates the hardware side: an mlx5cq CQ and a
 * cyclic RQ (mlx5_devx_rq_create: WQ ring + doorbell record in one umem,
 * one 16 B data segment per WQE), posts every buffer and moves the RQ
 * RST -> RDY. Stop moves it back to RST and drains the CQ; the port's stop
 * destroys RQ and CQ (their counters are kept for xstats).
 */

#include <errno.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include <mlx5_common_devx.h>
#include <mlx5_common.h>
#include <mlx5_devx_cmds.h>
#include <mlx5_prm.h>

#include "mlx5cq_ethdev.h"
#include "mlx5cq_rx_vec.h"

static void mlx5cq_rxq_rx_setup(struct mlx5cq_rxq *rxq);

/* Descriptors of a queue: the devarg wins, then the request; power of 2. */
static uint32_t
mlx5cq_rx_desc_n(const struct mlx5cq_priv *priv, uint16_t desc)
{
	uint32_t n = priv->args.rxq_desc ? priv->args.rxq_desc : desc;

	if (n == 0)
		n = MLX5CQ_DESC_DEFAULT;
	n = RTE_MAX(n, (uint32_t)MLX5CQ_DESC_MIN);
	n = RTE_MIN(n, (uint32_t)MLX5CQ_DESC_MAX);
	return rte_align32pow2(n);
}

/* Log what a queue's CQ became (DEBUG). */
void
mlx5cq_cq_log(const struct rte_mlx5cq *cq, uint16_t port, const char *dir,
	      uint16_t idx)
{
	static const char *const paths[] = { "auto", "devx", "verbs",
					     "attach" };
	struct rte_mlx5cq_info info;

	if (!rte_log_can_log(mlx5cq_net_logtype, RTE_LOG_DEBUG) ||
	    rte_mlx5cq_info_get(cq, &info) != 0)
		return;
	PMD_LOG(DEBUG, "port %u %sq %u: CQ 0x%x path %s entries %u cqe %u "
		"pad %u comp_format 0x%x layout %u", port, dir, idx, info.cqn,
		paths[info.path & 3], info.entries, info.cqe_size,
		info.cqe_pad, info.comp_format, info.comp_layout);
}

void
mlx5cq_cq_attr_fill(const struct mlx5cq_priv *priv,
		    struct rte_mlx5cq_attr *attr, uint32_t entries, int socket,
		    int rx)
{
	const struct mlx5cq_devargs *a = &priv->args;

	memset(attr, 0, sizeof(*attr));
	attr->cqe = entries;
	attr->flags = RTE_MLX5CQ_F_SINGLE_THREADED;
	attr->comp_mask = RTE_MLX5CQ_ATTR_CQE_SIZE;
	attr->cqe_size = a->cqe_size;
	if (a->cqe_pad)
		attr->flags |= RTE_MLX5CQ_F_CQE_PAD;
	if (rx && a->cqe_comp) {
		attr->comp_mask |= RTE_MLX5CQ_ATTR_COMPRESSED;
		attr->comp_format = a->cqe_comp;
		attr->comp_layout = a->cqe_comp_layout;
	}
	attr->socket = socket;
	attr->path = a->cq_path;
}

static void
mlx5cq_rxq_free(struct mlx5cq_rxq *rxq)
{
	uint32_t i;

	if (rxq == NULL)
		return;
	if (rxq->elts != NULL) {
		for (i = 0; i < rxq->elts_n; i++)
			rte_pktmbuf_free(rxq->elts[i]);
		rte_free(rxq->elts);
	}
	mlx5cq_rxq_mprq_free(rxq);
	rte_free(rxq->rq_obj);
	rte_free(rxq->mrt);
	rte_free(rxq);
}

/*
 * Segments of a WQE (log2, *log) for frames of up to frame bytes in
 * buffers of buf_len bytes, as net/mlx5's mlx5_rxq_new() sizes them (a
 * frame of the MTU: mtu + Ethernet header + CRC bytes; with LRO,
 * max_lro_pkt_size: mlx5cq_rxq_frame()); more than one buffer needs
 * RTE_ETH_RX_OFFLOAD_SCATTER (else ENOSPC), at most
 * 2^MLX5CQ_RX_SGES_LOG_MAX (else ENOTSUP), the segments rounded up to a
 * power of two, at least two WQEs of them in n descriptors (else EINVAL).
 */
static int
mlx5cq_rxq_sges(const struct rte_eth_dev *dev, uint16_t idx, uint32_t n,
		uint32_t frame, uint32_t buf_len, uint64_t offloads,
		uint8_t *log)
{
	uint32_t segs = (frame + buf_len - 1) / buf_len;

	*log = 0;
	if (segs <= 1)
		return 0;
	if (!(offloads & RTE_ETH_RX_OFFLOAD_SCATTER)) {
		PMD_LOG(ERR, "port %u rxq %u: frames of %u bytes (MTU %u%s) do "
			"not fit a buffer of %u bytes and "
			"RTE_ETH_RX_OFFLOAD_SCATTER is off", dev->data->port_id,
			idx, frame, dev->data->mtu,
			(offloads & RTE_ETH_RX_OFFLOAD_TCP_LRO) ?
			", max_lro_pkt_size" : "", buf_len);
		return -ENOSPC;
	}
	*log = (uint8_t)rte_log2_u32(segs);
	if (*log > MLX5CQ_RX_SGES_LOG_MAX) {
		PMD_LOG(ERR, "port %u rxq %u: frames of %u bytes need %u "
			"buffers of %u bytes, at most %u", dev->data->port_id,
			idx, frame, segs, buf_len,
			1u << MLX5CQ_RX_SGES_LOG_MAX);
		return -ENOTSUP;
	}
	if ((n >> *log) < 2) {
		PMD_LOG(ERR, "port %u rxq %u: %u descriptors make fewer than "
			"two WQEs of %u segments", dev->data->port_id, idx, n,
			1u << *log);
		return -EINVAL;
	}
	return 0;
}

int
mlx5cq_rx_queue_setup(struct rte_eth_dev *dev, uint16_t idx, uint16_t desc,
		      unsigned int socket, const struct rte_eth_rxconf *conf,
		      struct rte_mempool *mp)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	struct mlx5cq_rxq *rxq;
	uint32_t n = mlx5cq_rx_desc_n(priv, desc);
	uint16_t room = rte_pktmbuf_data_room_size(mp);
	uint64_t offloads = conf->offloads |
			    dev->data->dev_conf.rxmode.offloads;
	uint32_t frame = mlx5cq_rxq_frame(dev, offloads);
	uint8_t sges_log, runs_mprq;
	int ret, sges_ret;

	if (conf->rx_nseg != 0 || conf->rx_nmempool != 0) {
		PMD_LOG(ERR, "port %u rxq %u: buffer split / multiple pools "
			"not supported", dev->data->port_id, idx);
		return -ENOTSUP;
	}
	if (room <= RTE_PKTMBUF_HEADROOM) {
		PMD_LOG(ERR, "port %u rxq %u: mempool %s has no data room",
			dev->data->port_id, idx, mp->name);
		return -EINVAL;
	}
	/* A multi-packet RQ holds frames longer than an mbuf: the error
	 * waits for the queue's kind.
	 */
	sges_ret = mlx5cq_rxq_sges(dev, idx, n, frame,
				   room - RTE_PKTMBUF_HEADROOM, offloads,
				   &sges_log);
	if (sges_ret != 0 && !priv->args.mprq_en)
		return sges_ret;
	/*
	 * While the port runs: its RX burst and interrupt vectors were
	 * chosen at start. A queue needing the per-completion route on a
	 * port without it, or interrupts, waits for the port to stop.
	 */
	if (priv->started &&
	    ((sges_log != 0 || (offloads & (RTE_ETH_RX_OFFLOAD_TIMESTAMP |
					    RTE_ETH_RX_OFFLOAD_TCP_LRO))) &&
	     dev->rx_pkt_burst == mlx5cq_rx_burst)) {
		PMD_LOG(ERR, "port %u rxq %u: scatter, timestamps or LRO while "
			"the port runs the default RX burst: set it up with the "
			"port stopped", dev->data->port_id, idx);
		return -EINVAL;
	}
	if (priv->started && dev->data->dev_conf.intr_conf.rxq) {
		PMD_LOG(ERR, "port %u rxq %u: RX interrupts: set the queue up "
			"with the port stopped", dev->data->port_id, idx);
		return -ENOTSUP;
	}
	if (priv->args.rxq_desc && desc && desc != priv->args.rxq_desc)
		PMD_LOG(INFO, "port %u rxq %u: %u descriptors (devarg "
			"rxq_desc), %u requested", dev->data->port_id, idx,
			n, desc);
	rxq = rte_zmalloc_socket("mlx5cq_rxq", sizeof(*rxq),
				 RTE_CACHE_LINE_SIZE, socket);
	if (rxq == NULL)
		return -ENOMEM;
	rxq->priv = priv;
	rxq->mp = mp;
	rxq->mark = priv->flow_tag_n != 0;
	if (!(rte_pktmbuf_priv_flags(mp) & RTE_PKTMBUF_POOL_F_PINNED_EXT_BUF))
		rxq->data_off = sizeof(struct rte_mbuf) +
				rte_pktmbuf_priv_size(mp) + RTE_PKTMBUF_HEADROOM;
	/* n buffers, in WQEs of 2^sges_log (net/mlx5: elts_n, wqe_n). */
	rxq->sges_log = sges_log;
	rxq->elts_n = n;
	rxq->desc_n = n >> sges_log;
	rxq->mask = rxq->desc_n - 1;
	rxq->port_id = dev->data->port_id;
	rxq->idx = idx;
	rxq->socket = socket;
	rxq->deferred = conf->rx_deferred_start;
	rxq->offloads = offloads;
	mlx5cq_mr_cache_init(&rxq->mrc, priv);
	rxq->rq_obj = rte_zmalloc_socket("mlx5cq_rq", sizeof(struct
					 mlx5_devx_rq), 0, socket);
	if (rxq->rq_obj == NULL) {
		ret = -ENOMEM;
		goto error;
	}
	ret = mlx5cq_rxq_mprq_setup(dev, rxq);
	if (ret < 0)
		goto error;
	runs_mprq = dev->rx_pkt_burst == mlx5cq_rx_burst_mprq;
	if (priv->started && rxq->mprq != runs_mprq) {
		PMD_LOG(ERR, "port %u rxq %u: a %s RQ while the port runs "
			"%s RQs: set it up with the port stopped",
			dev->data->port_id, idx,
			rxq->mprq ? "multi-packet" : "cyclic",
			rxq->mprq ? "cyclic" : "multi-packet");
		ret = -EINVAL;
		goto error;
	}
	ret = mlx5cq_rxq_lro_setup(dev, rxq, frame,
				   room - RTE_PKTMBUF_HEADROOM, sges_log);
	if (ret != 0)
		goto error;
	if (rxq->mprq) {
		rxq->sges_log = 0;
	} else if (sges_ret != 0) {
		ret = sges_ret;
		goto error;
	} else {
		rxq->elts = rte_zmalloc_socket("mlx5cq_rxq_elts",
					       sizeof(rxq->elts[0]) * n,
					       RTE_CACHE_LINE_SIZE, socket);
		if (rxq->elts == NULL) {
			ret = -ENOMEM;
			goto error;
		}
	}
	ret = mlx5cq_mr_register_mempool(priv, mp);
	if (ret != 0) {
		PMD_LOG(ERR, "port %u rxq %u: cannot register mempool %s",
			dev->data->port_id, idx, mp->name);
		goto error;
	}
	ret = mlx5cq_rxq_ts_setup(rxq);
	if (ret != 0)
		goto error;
	if (!rxq->mprq && rte_pktmbuf_alloc_bulk(mp, rxq->elts, n) != 0) {
		PMD_LOG(ERR, "port %u rxq %u: cannot allocate %u mbufs from %s",
			dev->data->port_id, idx, n, mp->name);
		memset(rxq->elts, 0, sizeof(rxq->elts[0]) * n);
		ret = -ENOMEM;
		goto error;
	}
	mlx5cq_rxq_rx_setup(rxq);
	if (rxq->lkey == UINT32_MAX) {
		/* Several regions: the refill's lkey table. */
		rxq->mrt = mlx5cq_mr_tbl_build(priv, mp, socket);
		if (rxq->mrt == NULL) {
			ret = -rte_errno;
			goto error;
		}
	}
	dev->data->rx_queues[idx] = rxq;
	return 0;
error:
	mlx5cq_rxq_free(rxq);
	return ret;
}

/* Hardware side: CQ and RQ (RST). */
static int
mlx5cq_rxq_hw_create(struct mlx5cq_rxq *rxq)
{
	struct mlx5cq_priv *priv = rxq->priv;
	struct mlx5_devx_rq *rq = rxq->rq_obj;
	struct mlx5_devx_create_rq_attr attr;
	struct rte_mlx5cq_attr cq_attr;
	int ret;

	ret = mlx5cq_device_pdn(priv);
	if (ret != 0)
		return ret;
	/* A ring of desc_n entries, as many as the RQ has WQEs (DPDK's
	 * mlx5 sizes the RX CQ to the RQ): cqe + 1 is rounded up.
	 */
	/* No compression with timestamps or LRO, as net/mlx5
	 * (mlx5cq_clock.c, mlx5cq_lro.c).
	 */
	mlx5cq_cq_attr_fill(priv, &cq_attr, rxq->mprq ? rxq->elts_n - 1 :
			    rxq->desc_n - 1, rxq->socket,
			    rxq->ts_flag == 0 && !rxq->lro);
	/* A striding RQ: mini-CQEs with the stride index (net/mlx5's
	 * rxq_create_devx_cq_resources() for its scalar MPRQ burst).
	 */
	if (rxq->mprq && (cq_attr.comp_format == RTE_MLX5CQ_COMP_HASH ||
			  cq_attr.comp_format == RTE_MLX5CQ_COMP_CSUM))
		cq_attr.comp_format = RTE_MLX5CQ_COMP_CSUM_STRIDX;
	if (priv->eth_dev->data->dev_conf.intr_conf.rxq)
		cq_attr.flags |= RTE_MLX5CQ_F_EVENTS;
	rxq->cq = rte_mlx5cq_create(priv->cqdev, &cq_attr);
	if (rxq->cq == NULL) {
		PMD_LOG(ERR, "port %u rxq %u: CQ creation failed: %s",
			rxq->port_id, rxq->idx, rte_strerror(rte_errno));
		return -rte_errno;
	}
	mlx5cq_cq_log(rxq->cq, rxq->port_id, "rx", rxq->idx);
	memset(&attr, 0, sizeof(attr));
	attr.cqn = rxq->cq->cqn;
	attr.state = MLX5_RQC_STATE_RST;
	attr.vsd = !(rxq->offloads & RTE_ETH_RX_OFFLOAD_VLAN_STRIP);
	attr.counter_set_id = priv->qcnt != NULL ? priv->qcnt->id : 0;
	attr.ts_format = priv->rq_ts_format;
	attr.wq_attr.wq_type = MLX5_WQ_TYPE_CYCLIC;
	attr.wq_attr.pd = priv->pdn;
	attr.wq_attr.log_wq_stride = 4 + rxq->sges_log;
	attr.wq_attr.log_wq_sz = rte_log2_u32(rxq->desc_n);
	if (rxq->mprq) {
		/*
		 * WQEs of struct mlx5_wqe_mprq (32 B); strides as the
		 * kernel's create_rq() encodes them: 2^(9 + v) for v 0..7,
		 * 2^(v - 7) for v 10..15 (net/mlx5: log_strd_num - 9 in the
		 * 4-bit field); bytes 64 << v.
		 */
		attr.wq_attr.wq_type = MLX5_WQ_TYPE_CYCLIC_STRIDING_RQ;
		attr.wq_attr.log_wq_stride = 5;
		attr.wq_attr.single_wqe_log_num_of_strides =
			(rxq->log_strd_num - 9) & 0xf;
		attr.wq_attr.single_stride_log_num_of_bytes =
			rxq->log_strd_sz - 6;
	}
	memset(rq, 0, sizeof(*rq));
	ret = mlx5_devx_rq_create(priv->ctx, rq,
				  1u << attr.wq_attr.log_wq_stride,
				  rte_log2_u32(rxq->desc_n), &attr,
				  rxq->socket);
	if (ret != 0) {
		ret = -rte_errno;
		PMD_LOG(ERR, "port %u rxq %u: RQ creation failed: %s",
			rxq->port_id, rxq->idx, rte_strerror(rte_errno));
		goto error;
	}
	rxq->rqn = rq->rq->id;
	rxq->rq_rst = 1;
	rxq->wqes = (void *)(uintptr_t)rq->wq.umem_buf;
	rxq->dbrec = rq->wq.db_rec;
	return 0;
error:
	mlx5cq_cq_counters_add(&rxq->cq_base, rxq->cq);
	rte_mlx5cq_destroy(rxq->cq);
	rxq->cq = NULL;
	return ret;
}

static int
mlx5cq_rq_modify_log(struct mlx5cq_rxq *rxq, int from, int to,
		     uint32_t level)
{
	struct mlx5_devx_rq *rq = rxq->rq_obj;
	struct mlx5_devx_modify_rq_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.rq_state = from;
	attr.state = to;
	if (mlx5_devx_cmd_modify_rq(rq->rq, &attr) != 0) {
		rte_log(level, mlx5cq_net_logtype, "net_mlx5cq: port %u rxq %u:"
			" RQ %#x state %d -> %d failed: %s\n", rxq->port_id,
			rxq->idx, rxq->rqn, from, to, rte_strerror(rte_errno));
		return -rte_errno;
	}
	return 0;
}

/*
 * Whether the RX burst of a queue writes its mbufs with the SIMD stores
 * (want: rx_vec_en): where the build has them (mlx5cq_rx_vec.h) and the
 * EAL allows 128-bit SIMD (--force-max-simd-bitwidth), as DPDK's
 * net/mlx5 decides for its vector RX. Else per packet, the reference.
 */
static int
mlx5cq_rxq_vec(const struct mlx5cq_rxq *rxq, int want)
{
#ifdef MLX5CQ_RX_VEC
	uint16_t bits = rte_vect_get_max_simd_bitwidth();

	if (!want || bits >= RTE_VECT_SIMD_128)
		return want;
	PMD_LOG(INFO, "port %u rxq %u: rx_vec_en=1, but the EAL allows %u-bit"
		" SIMD: RX per packet", rxq->port_id, rxq->idx, bits);
#else
	RTE_SET_USED(rxq);
	RTE_SET_USED(want);
#endif
	return 0;
}

/*
 * What the RX burst takes per queue instead of per packet: WQE byte
 * count, rearm template, offload flags, the mempool's lkey when it is
 * one memory region, whether sessions are read in place.
 */
static void
mlx5cq_rxq_rx_setup(struct mlx5cq_rxq *rxq)
{
	struct mlx5cq_mr_table *t = &rxq->priv->mrs;
	const struct mlx5cq_devargs *a;
	struct rte_mbuf mb;
	uint32_t i, n = 0;
	int mixed = 0;
	uintptr_t p;

	rxq->buf_len = rte_pktmbuf_data_room_size(rxq->mp) -
		       RTE_PKTMBUF_HEADROOM;
	memset(&mb, 0, sizeof(mb));
	mb.data_off = RTE_PKTMBUF_HEADROOM;
	rte_mbuf_refcnt_set(&mb, 1);
	mb.nb_segs = 1;
	mb.port = rxq->port_id;
	rte_compiler_barrier();
	p = (uintptr_t)&mb.rearm_data;
	rxq->mbuf_initializer = *(uint64_t *)p;
	rxq->ol_rss = (rxq->offloads & RTE_ETH_RX_OFFLOAD_RSS_HASH) ?
		      RTE_MBUF_F_RX_RSS_HASH : 0;
	rxq->vlan_strip = !!(rxq->offloads & RTE_ETH_RX_OFFLOAD_VLAN_STRIP);
	a = &rxq->priv->args;
	rxq->session_fmt = 0;
	rxq->rx_vec = mlx5cq_rxq_vec(rxq, a->rx_vec_en);
	if (rxq->ts_flag == 0 && !rxq->lro &&
	    a->cqe_comp_layout == RTE_MLX5CQ_COMP_LAYOUT_BASIC &&
	    (a->cqe_comp == RTE_MLX5CQ_COMP_HASH ||
	     a->cqe_comp == RTE_MLX5CQ_COMP_CSUM))
		rxq->session_fmt = a->cqe_comp;
	/* One lkey when every piece of the mempool has the same one. */
	rxq->lkey = UINT32_MAX;
	rte_spinlock_lock(&t->lock);
	for (i = 0; i < t->n; i++) {
		if (t->mr[i].mp != rxq->mp)
			continue;
		if (n++ == 0)
			rxq->lkey = t->mr[i].lkey;
		else if (t->mr[i].lkey != rxq->lkey)
			mixed = 1;
	}
	rte_spinlock_unlock(&t->lock);
	if (mixed)
		rxq->lkey = UINT32_MAX;
}

static int
mlx5cq_rq_modify(struct mlx5cq_rxq *rxq, int from, int to)
{
	return mlx5cq_rq_modify_log(rxq, from, to, RTE_LOG_ERR);
}

/* Post every buffer and move the RQ to RDY. */
static int
mlx5cq_rxq_hw_ready(struct mlx5cq_rxq *rxq)
{
	int ret;

	if (rxq->mprq) {
		ret = mlx5cq_rxq_mprq_post_all(rxq);
		if (ret != 0)
			return ret;
	} else {
		mlx5cq_rxq_post_all(rxq);
	}
	ret = mlx5cq_rq_modify(rxq, MLX5_RQC_STATE_RST, MLX5_RQC_STATE_RDY);
	if (ret != 0)
		return ret;
	rxq->rq_rst = 0;
	rxq->started = 1;
	return 0;
}

/* RQ back to RST; completions still in the CQ are dropped. */
static int
mlx5cq_rxq_hw_reset(struct mlx5cq_rxq *rxq)
{
	int ret = 0;

	if (!rxq->started)
		return 0;
	rxq->started = 0;
	if (!rxq->rq_rst) {
		ret = mlx5cq_rq_modify_log(rxq, rxq->in_error ?
					   MLX5_RQC_STATE_ERR :
					   MLX5_RQC_STATE_RDY,
					   MLX5_RQC_STATE_RST, RTE_LOG_DEBUG);
		if (ret != 0)
			ret = mlx5cq_rq_modify(rxq, rxq->in_error ?
					       MLX5_RQC_STATE_RDY :
					       MLX5_RQC_STATE_ERR,
					       MLX5_RQC_STATE_RST);
	}
	rxq->rq_rst = 1;
	rxq->in_error = 0;
	while (rte_mlx5cq_poll_burst(rxq->cq, rxq->cpl, MLX5CQ_BURST_MAX))
		;
	return ret;
}

/*
 * After an error completion: the RQ back to RST, what the CQ still holds
 * dropped, every buffer posted again and the RQ RDY. The device moved the
 * RQ to ERR, or (an error CQE without the transition, or a retry after a
 * failed attempt) it is still RDY or already RST: ERR -> RST is tried
 * first, then RDY -> RST; an RQ this function left in RST skips both. A
 * failed attempt is counted (recovery_failures), leaves in_error set and
 * the queue started, and the next burst tries again
 * (mlx5cq_rx_burst()); a success is counted in recoveries.
 */
int
mlx5cq_rxq_recover(struct mlx5cq_rxq *rxq)
{
	int ret = 0;

	/* The RQ's commands go through the primary's context. */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return mlx5cq_mp_req_recover(rxq->priv, 0, rxq->idx);
	rxq->in_error = 1;
	if (!rxq->rq_rst) {
		ret = mlx5cq_rq_modify_log(rxq, MLX5_RQC_STATE_ERR,
					   MLX5_RQC_STATE_RST, RTE_LOG_DEBUG);
		if (ret != 0)
			ret = mlx5cq_rq_modify(rxq, MLX5_RQC_STATE_RDY,
					       MLX5_RQC_STATE_RST);
		rxq->rq_rst = ret == 0;
	}
	if (ret == 0) {
		while (rte_mlx5cq_poll_burst(rxq->cq, rxq->cpl,
					     MLX5CQ_BURST_MAX))
			;
		ret = mlx5cq_rxq_hw_ready(rxq);
	}
	if (ret != 0) {
		rxq->st.recovery_failures++;
		PMD_LOG(ERR, "port %u rxq %u: recovery failed (%s), retried "
			"at the next burst", rxq->port_id, rxq->idx,
			rte_strerror(-ret));
		return ret;
	}
	rxq->in_error = 0;
	rxq->st.recoveries++;
	PMD_LOG(DEBUG, "port %u rxq %u: recovered from an error completion",
		rxq->port_id, rxq->idx);
	return 0;
}

static void
mlx5cq_rxq_hw_destroy(struct mlx5cq_rxq *rxq)
{
	struct mlx5_devx_rq *rq = rxq->rq_obj;

	mlx5cq_rxq_hw_reset(rxq);
	if (rq != NULL && rq->rq != NULL) {
		mlx5_devx_rq_destroy(rq);
		memset(rq, 0, sizeof(*rq));
	}
	rxq->wqes = NULL;
	rxq->dbrec = NULL;
	if (rxq->cq != NULL) {
		mlx5cq_cq_counters_add(&rxq->cq_base, rxq->cq);
		if (rte_mlx5cq_destroy(rxq->cq) != 0)
			PMD_LOG(ERR, "port %u rxq %u: CQ destroy failed",
				rxq->port_id, rxq->idx);
		rxq->cq = NULL;
	}
}

/* The parked RQ and CQ of queue idx, if any, destroyed (not in the RQT). */
static void
mlx5cq_rxq_parked_destroy(struct mlx5cq_priv *priv, uint16_t idx)
{
	struct mlx5cq_rxq_parked *p = &priv->rxq_parked[idx];
	struct mlx5_devx_rq *rq = p->rq_obj;

	if (rq != NULL) {
		if (rq->rq != NULL)
			mlx5_devx_rq_destroy(rq);
		rte_free(rq);
		p->rq_obj = NULL;
	}
	if (p->cq != NULL) {
		if (rte_mlx5cq_destroy(p->cq) != 0)
			PMD_LOG(ERR, "port %u rxq %u: parked CQ destroy failed",
				priv->eth_dev->data->port_id, idx);
		p->cq = NULL;
	}
}

/*
 * Called by the port's start for every queue (create, and ready unless
 * deferred) and by rte_eth_dev_rx_queue_start() (ready).
 */
int
mlx5cq_rx_queue_start(struct rte_eth_dev *dev, uint16_t idx)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	struct mlx5cq_rxq *rxq = dev->data->rx_queues[idx];
	int ret;

	if (rxq == NULL)
		return -EINVAL;
	if (rxq->cq == NULL) {
		ret = mlx5cq_rxq_hw_create(rxq);
		if (ret != 0)
			return ret;
	}
	if (rxq->started)
		return 0;
	ret = mlx5cq_rxq_hw_ready(rxq);
	if (ret != 0)
		return ret;
	/* Set up while the port runs: its RQ takes the old one's place. */
	if (priv->rxq_parked[idx].cq != NULL) {
		ret = mlx5cq_rss_apply(priv);
		if (ret != 0) {
			PMD_LOG(ERR, "port %u rxq %u: RQT not rebuilt with the "
				"new RQ: %s", rxq->port_id, idx,
				rte_strerror(-ret));
			mlx5cq_rxq_hw_reset(rxq);
			return ret;
		}
		mlx5cq_rxq_parked_destroy(priv, idx);
	}
	dev->data->rx_queue_state[idx] = RTE_ETH_QUEUE_STATE_STARTED;
	return 0;
}

/* Create the hardware side of a queue without starting it (deferred). */
int
mlx5cq_rx_queue_create_stopped(struct rte_eth_dev *dev, uint16_t idx)
{
	struct mlx5cq_rxq *rxq = dev->data->rx_queues[idx];

	if (rxq->cq != NULL)
		return 0;
	return mlx5cq_rxq_hw_create(rxq);
}

int
mlx5cq_rx_queue_stop(struct rte_eth_dev *dev, uint16_t idx)
{
	struct mlx5cq_rxq *rxq = dev->data->rx_queues[idx];
	int ret;

	if (rxq == NULL)
		return -EINVAL;
	ret = mlx5cq_rxq_hw_reset(rxq);
	dev->data->rx_queue_state[idx] = RTE_ETH_QUEUE_STATE_STOPPED;
	return ret;
}

/* Port stop: destroy the hardware side (the RQT is gone). */
void
mlx5cq_rx_queue_destroy_hw(struct rte_eth_dev *dev, uint16_t idx)
{
	struct mlx5cq_rxq *rxq = dev->data->rx_queues[idx];

	mlx5cq_rxq_parked_destroy(dev->data->dev_private, idx);
	if (rxq == NULL)
		return;
	mlx5cq_rxq_hw_destroy(rxq);
	dev->data->rx_queue_state[idx] = RTE_ETH_QUEUE_STATE_STOPPED;
}

/*
 * Release. While the port runs (runtime setup: ethdev releases the
 * stopped queue, then sets up the new one) the RQ stays in the RQT: it is
 * parked in RST with its CQ, and replaced in the RQT when the new queue
 * starts. Else everything goes.
 */
void
mlx5cq_rx_queue_release(struct rte_eth_dev *dev, uint16_t idx)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	struct mlx5cq_rxq *rxq = dev->data->rx_queues[idx];
	struct mlx5cq_rxq_parked *p = &priv->rxq_parked[idx];

	if (rxq == NULL)
		return;
	if (priv->started && priv->rqt != NULL && rxq->cq != NULL &&
	    p->cq == NULL) {
		mlx5cq_rxq_hw_reset(rxq);
		p->rq_obj = rxq->rq_obj;
		p->cq = rxq->cq;
		rxq->rq_obj = NULL;
		rxq->cq = NULL;
	} else {
		mlx5cq_rxq_hw_destroy(rxq);
	}
	mlx5cq_rxq_free(rxq);
	dev->data->rx_queues[idx] = NULL;
}

/* Some RX queue of the port takes the per-completion route
 * (mlx5cq_rx_burst_rec(): scatter, timestamps, LRO).
 */
int
mlx5cq_rxq_any_rec(const struct rte_eth_dev *dev)
{
	const struct mlx5cq_rxq *rxq;
	uint16_t i;

	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		rxq = dev->data->rx_queues[i];
		if (rxq != NULL && (rxq->ts_flag != 0 || rxq->sges_log != 0 ||
				    rxq->lro))
			return 1;
	}
	return 0;
}

int
mlx5cq_rx_burst_mode_get(struct rte_eth_dev *dev, uint16_t idx,
			 struct rte_eth_burst_mode *mode)
{
	const struct mlx5cq_rxq *rxq = dev->data->rx_queues[idx];
	const char *what = "Scalar";
	char why[64];

	/* ethdev checks the index only: a queue configured, not set up. */
	if (rxq == NULL) {
		PMD_LOG(ERR, "port %u rxq %u: not set up, no RX burst mode",
			dev->data->port_id, idx);
		return -EINVAL;
	}
#ifdef MLX5CQ_RX_VEC
	/* Byte shuffles and 16-byte stores (mlx5cq_rx_vec.h). */
	if (rxq->rx_vec)
		what = MLX5CQ_RX_VEC_NAME;
#endif
	/* Scatter, timestamps, flow tags, LRO: every completion through
	 * the records or the LRO burst (what takes it there, in
	 * parentheses).
	 */
	if (rxq->sges_log != 0 || rxq->ts_flag != 0 || rxq->mark ||
	    rxq->mprq || rxq->lro) {
		snprintf(why, sizeof(why), "%s%s%s%s%s",
			 rxq->mprq ? ", multi-packet RQ" : "",
			 rxq->lro ? ", LRO" : "",
			 rxq->sges_log != 0 ? ", scattered" : "",
			 rxq->ts_flag != 0 ? ", timestamps" : "",
			 rxq->mark ? ", flow marks" : "");
		snprintf(mode->info, sizeof(mode->info), "Scalar (%s)",
			 why + 2);
		mode->flags = 0;
		return 0;
	}
	mode->flags = 0;
	snprintf(mode->info, sizeof(mode->info), "%s", what);
	return 0;
}

void
mlx5cq_rxq_info_get(struct rte_eth_dev *dev, uint16_t idx,
		    struct rte_eth_rxq_info *qinfo)
{
	struct mlx5cq_rxq *rxq = dev->data->rx_queues[idx];

	qinfo->mp = rxq->mp;
	qinfo->nb_desc = rxq->elts_n;
	qinfo->scattered_rx = rxq->sges_log != 0;
	qinfo->conf.offloads = rxq->offloads;
	qinfo->conf.rx_deferred_start = rxq->deferred;
}
