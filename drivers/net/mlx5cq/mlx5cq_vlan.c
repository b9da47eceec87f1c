/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * VLAN stripping at run time, per RX queue: as DPDK's net/mlx5
 * (mlx5_vlan_strip_queue_set(), mlx5_rxq_obj_modify()), the RQ keeps its
 * state and MODIFY_RQ changes rqc.vsd (VLAN strip disable) under
 * modify_bitmask MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_VSD. A queue whose RQ
 * does not exist yet (or is in ERR) takes the setting at creation
 * (mlx5cq_rxq_hw_create(): vsd from the queue's offloads).
 *
 * VLAN filter (RTE_ETH_RX_OFFLOAD_VLAN_FILTER, port level): the ids added
 * with rte_eth_dev_vlan_filter() are the vport's VLAN list
 * (MODIFY_NIC_VPORT_CONTEXT allowed_list_type VLAN, as the kernel's
 * mlx5_modify_nic_vport_vlans() writes it), at most 1 <<
 * HCA_CAP.log_max_vlan_list of them (ENOSPC beyond, as the kernel). With
 * the offload on, untagged frames and the listed ids pass; with no id
 * added the list holds 4095 alone, an id 802.1Q reserves and no frame
 * carries, so that every tagged frame is refused as DPDK's API asks. With
 * the offload off the list is empty: no filter. The list is written
 * again at every start.
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>

#include <mlx5_common_devx.h>
#include <mlx5_devx_cmds.h>
#include <mlx5_prm.h>

#include "mlx5cq_ethdev.h"

static int
mlx5cq_rxq_vsd_set(struct mlx5cq_rxq *rxq, int on)
{
	struct mlx5_devx_rq *rq = rxq->rq_obj;
	struct mlx5_devx_modify_rq_attr attr;
	int state;

	if (rxq->cq != NULL && rq != NULL && rq->rq != NULL &&
	    !rxq->in_error) {
		state = rxq->rq_rst ? MLX5_RQC_STATE_RST : MLX5_RQC_STATE_RDY;
		memset(&attr, 0, sizeof(attr));
		attr.rq_state = state;
		attr.state = state;
		attr.vsd = !on;
		attr.modify_bitmask = MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_VSD;
		if (mlx5_devx_cmd_modify_rq(rq->rq, &attr) != 0) {
			PMD_LOG(ERR, "port %u rxq %u: RQ %#x VLAN strip %s"
				" failed: %s", rxq->port_id, rxq->idx,
				rxq->rqn, on ? "on" : "off",
				rte_strerror(rte_errno));
			return -rte_errno;
		}
	}
	if (on)
		rxq->offloads |= RTE_ETH_RX_OFFLOAD_VLAN_STRIP;
	else
		rxq->offloads &= ~RTE_ETH_RX_OFFLOAD_VLAN_STRIP;
	rxq->vlan_strip = !!on;
	return 0;
}

void
mlx5cq_vlan_strip_queue_set(struct rte_eth_dev *dev, uint16_t idx, int on)
{
	struct mlx5cq_rxq *rxq;

	if (idx >= dev->data->nb_rx_queues)
		return;
	rxq = dev->data->rx_queues[idx];
	if (rxq == NULL)
		return;
	mlx5cq_rxq_vsd_set(rxq, on);
}

int
mlx5cq_vlan_filter_apply(struct rte_eth_dev *dev)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	uint16_t vids[RTE_ETHER_MAX_VLAN_ID + 1];
	uint32_t n = 0, max, w;
	int ret;

	if (!(dev->data->dev_conf.rxmode.offloads &
	      RTE_ETH_RX_OFFLOAD_VLAN_FILTER))
		return mlx5cq_vport_vlan_list(priv, NULL, 0);
	for (w = 0; w < RTE_DIM(priv->vlan_bits); w++) {
		uint64_t b = priv->vlan_bits[w];

		while (b != 0) {
			vids[n++] = (uint16_t)(w * 64 + __builtin_ctzll(b));
			b &= b - 1;
		}
	}
	ret = mlx5cq_vport_vlan_max(priv, &max);
	if (ret != 0)
		return ret;
	if (n > max) {
		PMD_LOG(ERR, "port %u: %u VLAN ids, the device filters at most "
			"%u", dev->data->port_id, n, max);
		return -ENOSPC;
	}
	if (n == 0)
		vids[n++] = MLX5CQ_VLAN_NONE;
	return mlx5cq_vport_vlan_list(priv, vids, n);
}

int
mlx5cq_vlan_filter_set(struct rte_eth_dev *dev, uint16_t vlan_id, int on)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	uint64_t *w, bit;
	int ret;

	if (vlan_id > RTE_ETHER_MAX_VLAN_ID || vlan_id == MLX5CQ_VLAN_NONE) {
		PMD_LOG(ERR, "port %u: VLAN id %u out of range 0..4094",
			dev->data->port_id, vlan_id);
		return -EINVAL;
	}
	w = &priv->vlan_bits[vlan_id / 64];
	bit = 1ull << (vlan_id % 64);
	if (!!(*w & bit) == !!on)
		return 0;
	*w ^= bit;
	ret = mlx5cq_vlan_filter_apply(dev);
	if (ret != 0)
		*w ^= bit;
	return ret;
}

int
mlx5cq_vlan_offload_set(struct rte_eth_dev *dev, int mask)
{
	struct rte_eth_rxmode *rxmode = &dev->data->dev_conf.rxmode;
	struct mlx5cq_rxq *rxq;
	uint16_t i;
	int on, ret;

	if (mask & ~(RTE_ETH_VLAN_STRIP_MASK | RTE_ETH_VLAN_FILTER_MASK)) {
		PMD_LOG(ERR, "port %u: VLAN offload mask %#x: only stripping "
			"and filtering", dev->data->port_id, mask);
		return -ENOTSUP;
	}
	if (mask & RTE_ETH_VLAN_FILTER_MASK) {
		ret = mlx5cq_vlan_filter_apply(dev);
		if (ret != 0)
			return ret;
	}
	if (!(mask & RTE_ETH_VLAN_STRIP_MASK))
		return 0;
	on = !!(rxmode->offloads & RTE_ETH_RX_OFFLOAD_VLAN_STRIP);
	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		rxq = dev->data->rx_queues[i];
		if (rxq == NULL)
			continue;
		ret = mlx5cq_rxq_vsd_set(rxq, on);
		if (ret != 0)
			return ret;
	}
	return 0;
}
