/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * LRO, the control side: what the device offers, the queues that ask for
 * it, the TIR fields that turn it on.
 *
 * - Offered (RTE_ETH_RX_OFFLOAD_TCP_LRO, per queue) when HCA_CAP
 *   eth_net_offloads has lro_cap, as net/mlx5 allows it (mlx5.c: DevX
 *   objects and lro_cap); max_lro_pkt_size 255 * 256 bytes (net/mlx5's
 *   MLX5_MAX_LRO_SIZE: the TIR's 8-bit lro_max_msg_sz in 256-byte units).
 * - Session timeout (devarg lro_timeout_usec, net/mlx5's name): unset,
 *   the device's shortest period (lro_timer_supported_periods[0], as
 *   net/mlx5's mlx5_port_args_config()); set, the first period at least
 *   as long, else the longest, as the kernel's mlx5e_choose_lro_timeout()
 *   rounds it (the TIR takes one of the device's periods: net/mlx5 passes
 *   the value through unchanged).
 * - A queue with LRO receives messages of up to max_lro_pkt_size bytes
 *   (the MTU's frame when unset): its WQE is sized for them and for a
 *   frame of the MTU (net/mlx5 sizes it for the first only), scattered
 *   over several mbufs when one is too small (RTE_ETH_RX_OFFLOAD_SCATTER
 *   then, the first buffer holding the longest header LRO rewrites:
 *   net/mlx5's MLX5_MAX_LRO_HEADER_FIX); its CQ does not compress (DPDK
 *   mlx5_devx.c rxq_create_devx_cq_resources(): "Rx CQE compression is
 *   disabled for LRO"); it is not a multi-packet RQ (the emulated HCA
 *   does not coalesce on striding RQs).
 * - Message size: max_lro_pkt_size less the longest L2 + L3 header
 *   (Ethernet, two VLAN tags, IPv6: 62 bytes) when the device counts
 *   from the TCP header (lro_max_msg_sz_mode START_FROM_L4), at most
 *   MLX5_MAX_LRO_SIZE, as net/mlx5's mlx5_max_lro_msg_size_adjust().
 * - A TIR coalesces when every queue of its table has LRO (net/mlx5's
 *   mlx5_devx_tir_attr_set()): IPv4 and IPv6, the port's timeout, the
 *   smallest message size of those queues in 256-byte units.
 */

#include <rte_ip.h>
#include <rte_tcp.h>

#include <mlx5_devx_cmds.h>
#include <mlx5_prm.h>

#include "mlx5cq_ethdev.h"

/* 256-byte units of lro_max_msg_sz (net/mlx5's MLX5_LRO_SEG_CHUNK_SIZE). */
#define MLX5CQ_LRO_CHUNK 256u
#define MLX5CQ_LRO_MSG_MAX (UINT8_MAX * MLX5CQ_LRO_CHUNK)
/* Ethernet, two VLAN tags, IPv6 (net/mlx5's MLX5_MAX_TCP_HDR_OFFSET). */
#define MLX5CQ_LRO_L3_HDR_MAX (RTE_ETHER_HDR_LEN + 2 * RTE_VLAN_HLEN + \
			       (uint32_t)sizeof(struct rte_ipv6_hdr))
/* And TCP with 40 bytes of options (net/mlx5's MLX5_MAX_LRO_HEADER_FIX). */
#define MLX5CQ_LRO_HDR_MAX (MLX5CQ_LRO_L3_HDR_MAX + \
			    (uint32_t)sizeof(struct rte_tcp_hdr) + 40u)

void
mlx5cq_lro_caps_read(struct mlx5cq_priv *priv,
		     const struct mlx5_hca_attr *attr, const char *name)
{
	struct mlx5cq_lro_caps *c = &priv->lro;
	uint32_t want = priv->args.lro_timeout_usec;
	unsigned int i;

	memset(c, 0, sizeof(*c));
	c->ok = attr->lro_cap;
	if (!c->ok) {
		if (want != 0)
			PMD_LOG(INFO, "%s: lro_timeout_usec=%u: the device has "
				"no LRO (lro_cap 0)", name, want);
		return;
	}
	c->sz_mode = attr->lro_max_msg_sz_mode;
	c->min_mss = attr->lro_min_mss_size;
	for (i = 0; i < MLX5CQ_LRO_PERIODS; i++)
		c->periods[i] = attr->lro_timer_supported_periods[i];
	if (want == 0) {
		c->timeout = c->periods[0];
	} else {
		/* Ascending periods: the first at least want, else the last. */
		for (i = 0; i < MLX5CQ_LRO_PERIODS - 1; i++)
			if (c->periods[i] >= want)
				break;
		c->timeout = c->periods[i];
		if (c->timeout != want)
			PMD_LOG(INFO, "%s: lro_timeout_usec=%u: the device's "
				"periods are %u, %u, %u, %u us: %u us", name,
				want, c->periods[0], c->periods[1],
				c->periods[2], c->periods[3], c->timeout);
	}
	PMD_LOG(DEBUG, "%s: LRO sessions time out after %u us, segments of "
		"at least %u bytes (lro_min_mss_size)", name, c->timeout,
		c->min_mss);
}

uint32_t
mlx5cq_rxq_frame(const struct rte_eth_dev *dev, uint64_t offloads)
{
	uint32_t frame = dev->data->mtu + RTE_ETHER_HDR_LEN +
			 RTE_ETHER_CRC_LEN;
	uint32_t lro = dev->data->dev_conf.rxmode.max_lro_pkt_size;

	/* ethdev sets max_lro_pkt_size when the port's offloads have LRO;
	 * a queue-only LRO may leave it 0.
	 */
	if ((offloads & RTE_ETH_RX_OFFLOAD_TCP_LRO) && lro > frame)
		frame = lro;
	return frame;
}

int
mlx5cq_rxq_lro_setup(struct rte_eth_dev *dev, struct mlx5cq_rxq *rxq,
		     uint32_t frame, uint32_t buf_len, uint8_t sges_log)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	uint32_t lro = dev->data->dev_conf.rxmode.max_lro_pkt_size;
	/* Messages of max_lro_pkt_size (net/mlx5 adjusts that), buffers
	 * for frames of the MTU too (frame: the larger of the two).
	 */
	uint32_t msg = lro != 0 ? lro : frame;

	rxq->lro = 0;
	rxq->lro_msg = 0;
	if (!(rxq->offloads & RTE_ETH_RX_OFFLOAD_TCP_LRO))
		return 0;
	if (!priv->lro.ok) {
		PMD_LOG(ERR, "port %u rxq %u: RTE_ETH_RX_OFFLOAD_TCP_LRO but "
			"the device has no LRO (lro_cap 0)",
			dev->data->port_id, rxq->idx);
		return -ENOTSUP;
	}
	if (rxq->mprq) {
		PMD_LOG(ERR, "port %u rxq %u: LRO on a multi-packet RQ is not "
			"supported (mprq_en=0, or rxqs_min_mprq above the "
			"queue count)", dev->data->port_id, rxq->idx);
		return -ENOTSUP;
	}
	if (sges_log != 0 && buf_len < MLX5CQ_LRO_HDR_MAX) {
		PMD_LOG(ERR, "port %u rxq %u: LRO over scattered buffers of %u "
			"bytes: the first must hold a header of up to %u",
			dev->data->port_id, rxq->idx, buf_len,
			MLX5CQ_LRO_HDR_MAX);
		return -ENOTSUP;
	}
	if (priv->lro.sz_mode == MLX5_LRO_MAX_MSG_SIZE_START_FROM_L4 &&
	    msg > MLX5CQ_LRO_L3_HDR_MAX)
		msg -= MLX5CQ_LRO_L3_HDR_MAX;
	msg = RTE_MIN(msg, MLX5CQ_LRO_MSG_MAX);
	if (msg < MLX5CQ_LRO_CHUNK) {
		PMD_LOG(ERR, "port %u rxq %u: LRO messages of %u bytes "
			"(max_lro_pkt_size %u): the device counts them in "
			"units of %u", dev->data->port_id, rxq->idx, msg,
			lro != 0 ? lro : frame, MLX5CQ_LRO_CHUNK);
		return -EINVAL;
	}
	rxq->lro = 1;
	rxq->lro_msg = msg;
	PMD_LOG(DEBUG, "port %u rxq %u: LRO messages up to %u bytes, WQEs "
		"of %u x %u bytes", dev->data->port_id, rxq->idx, msg,
		1u << sges_log, buf_len);
	return 0;
}

void
mlx5cq_lro_tir(const struct mlx5cq_priv *priv, const uint16_t *q,
	       uint32_t n, struct mlx5_devx_tir_attr *tir)
{
	struct rte_eth_dev_data *data = priv->eth_dev->data;
	uint32_t i, msg = MLX5CQ_LRO_MSG_MAX;

	for (i = 0; i < n; i++) {
		const struct mlx5cq_rxq *rxq = data->rx_queues[q[i]];

		if (rxq == NULL || !rxq->lro)
			return;
		msg = RTE_MIN(msg, rxq->lro_msg);
	}
	if (n == 0)
		return;
	tir->lro_timeout_period_usecs = priv->lro.timeout;
	tir->lro_max_msg_sz = msg / MLX5CQ_LRO_CHUNK;
	tir->lro_enable_mask = MLX5_TIRC_LRO_ENABLE_MASK_IPV4_LRO |
			       MLX5_TIRC_LRO_ENABLE_MASK_IPV6_LRO;
}
