/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Queue state from the completion queues, as DPDK's net/mlx5 gives it
 * (mlx5_rx.c mlx5_rx_queue_count() / mlx5_rx_descriptor_status(),
 * mlx5_tx.c mlx5_tx_descriptor_status(), mlx5_rx.c
 * mlx5_get_monitor_addr()):
 *   rx_queue_count        packets decoded ahead and not handed up, plus
 *                         the completions in the CQ (rte_mlx5cq_ready_count())
 *   rx_descriptor_status  DONE below that count, AVAIL for the other posted
 *                         WQEs, UNAVAIL past them
 *   tx_descriptor_status  completions handled first; FULL for the WQEBBs
 *                         still in flight, DONE past them
 *   get_monitor_addr      the next CQE's byte and value
 *                         (rte_mlx5cq_monitor_get()) for rte_power_monitor()
 * The RX functions read the queue without consuming it; like the bursts,
 * each runs on the queue's polling thread.
 */

#include <errno.h>

#include <rte_power_intrinsics.h>

#include "mlx5cq_ethdev.h"

#define QSTATE_VAL 0 /* opaque[]: value and mask of the monitored byte */
#define QSTATE_MSK 1

uint32_t
mlx5cq_rx_queue_count(void *q)
{
	struct mlx5cq_rxq *rxq = q;

	if (rxq->cq == NULL)
		return 0;
	return rxq->session_ahead + rte_mlx5cq_ready_count(rxq->cq, rxq->mprq ?
						       rxq->elts_n :
						       rxq->desc_n);
}

int
mlx5cq_rx_descriptor_status(void *q, uint16_t offset)
{
	struct mlx5cq_rxq *rxq = q;
	/* A multi-packet RQ's descriptors are its strides. */
	uint32_t n = rxq->mprq ? rxq->elts_n : rxq->desc_n;
	uint32_t avail = rxq->mprq ? ((rxq->pi - rxq->rq_ci) <<
				      rxq->log_strd_num) - rxq->strd_ci :
			 rxq->pi - rxq->rq_ci;

	if (offset >= n)
		return -EINVAL;
	if (rxq->cq == NULL)
		return RTE_ETH_RX_DESC_UNAVAIL;
	if (offset < rxq->session_ahead +
		     rte_mlx5cq_ready_count(rxq->cq, (uint32_t)offset + 1))
		return RTE_ETH_RX_DESC_DONE;
	if (offset < avail)
		return RTE_ETH_RX_DESC_AVAIL;
	return RTE_ETH_RX_DESC_UNAVAIL;
}

int
mlx5cq_tx_descriptor_status(void *q, uint16_t offset)
{
	struct mlx5cq_txq *txq = q;

	if (offset >= txq->wqebb_n)
		return -EINVAL;
	mlx5cq_txq_complete(txq);
	if (offset < txq->pi - txq->ci)
		return RTE_ETH_TX_DESC_FULL;
	return RTE_ETH_TX_DESC_DONE;
}

/* rte_power_monitor(): -1 (do not sleep) once the completion is there. */
static int
qstate_monitor_clb(const uint64_t val,
		   const uint64_t opaque[RTE_POWER_MONITOR_OPAQUE_SZ])
{
	return (val & opaque[QSTATE_MSK]) == opaque[QSTATE_VAL] ? -1 : 0;
}

int
mlx5cq_get_monitor_addr(void *q, struct rte_power_monitor_cond *pmc)
{
	struct mlx5cq_rxq *rxq = q;
	struct rte_mlx5cq_monitor m;
	int ret;

	if (pmc == NULL || rxq->cq == NULL)
		return -EINVAL;
	ret = rte_mlx5cq_monitor_get(rxq->cq, &m);
	if (ret < 0)
		return ret;
	if (rxq->session_ahead != 0) {
		/* Packets wait in the queue: a condition already true. */
		m.value = 0;
		m.mask = 0;
	}
	pmc->addr = m.addr;
	pmc->opaque[QSTATE_VAL] = m.value;
	pmc->opaque[QSTATE_MSK] = m.mask;
	pmc->fn = qstate_monitor_clb;
	pmc->size = sizeof(uint8_t);
	return 0;
}
