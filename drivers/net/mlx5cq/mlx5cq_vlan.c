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
mlx5cq_vlan_offload_set(struct rte_eth_dev *dev, int mask)
{
	struct rte_eth_rxmode *rxmode = &dev->data->dev_conf.rxmode;
	struct mlx5cq_rxq *rxq;
	uint16_t i;
	int on, ret;

	if (mask & ~RTE_ETH_VLAN_STRIP_MASK) {
		PMD_LOG(ERR, "port %u: VLAN offload mask %#x: only stripping",
			dev->data->port_id, mask);
		return -ENOTSUP;
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
