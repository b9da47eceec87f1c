/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * RX queue interrupts (dev_conf.intr_conf.rxq). The RX CQs are created
 * with completion events (RTE_MLX5CQ_F_EVENTS); at start the port's
 * interrupt handle gets one event fd per RX queue (rte_mlx5cq_event_fd():
 * each CQ has its own channel), vector RTE_INTR_VEC_RXTX_OFFSET + queue.
 * rx_queue_intr_enable arms the CQ for the next completion
 * (rte_mlx5cq_arm()); rx_queue_intr_disable consumes and acknowledges the
 * events that came.
 *
 * The handle is of type VDEV with an event counter size of 0: EAL reads
 * nothing from a ready fd (the PMD consumes the events, as with type EXT,
 * which net/mlx5 uses), and rte_intr_cap_multiple() says each queue has an
 * interrupt of its own. With EXT, clients that ask it (the eventdev RX
 * adapter's rxa_shared_intr()) take every queue of the port for one
 * shared interrupt: they add the first queue's event and delete the last
 * queue's, which was never added ("Event does not exist").
 */

#include <errno.h>

#include <rte_interrupts.h>

#include "mlx5cq_ethdev.h"

void
mlx5cq_intr_vec_release(struct rte_eth_dev *dev)
{
	struct rte_intr_handle *h = dev->intr_handle;

	if (h == NULL)
		return;
	rte_intr_free_epoll_fd(h);
	rte_intr_vec_list_free(h);
	rte_intr_nb_efd_set(h, 0);
	rte_intr_max_intr_set(h, 0);
}

int
mlx5cq_intr_vec_setup(struct rte_eth_dev *dev)
{
	uint16_t n = dev->data->nb_rx_queues, i;
	struct rte_intr_handle *h;

	if (!dev->data->dev_conf.intr_conf.rxq)
		return 0;
	if (dev->intr_handle == NULL) {
		dev->intr_handle =
			rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_SHARED);
		if (dev->intr_handle == NULL)
			return -ENOMEM;
	}
	h = dev->intr_handle;
	mlx5cq_intr_vec_release(dev);
	if (n > RTE_MAX_RXTX_INTR_VEC_ID) {
		PMD_LOG(ERR, "port %u: %u RX queues, at most %u interrupt "
			"vectors", dev->data->port_id, n,
			RTE_MAX_RXTX_INTR_VEC_ID);
		return -EINVAL;
	}
	if (rte_intr_type_set(h, RTE_INTR_HANDLE_VDEV) != 0 ||
	    rte_intr_efd_counter_size_set(h, 0) != 0 ||
	    rte_intr_vec_list_alloc(h, NULL, n) != 0)
		return -rte_errno;
	for (i = 0; i < n; i++) {
		struct mlx5cq_rxq *rxq = dev->data->rx_queues[i];
		int fd = rxq->cq != NULL ? rte_mlx5cq_event_fd(rxq->cq) :
			 -EINVAL;

		if (fd < 0) {
			PMD_LOG(ERR, "port %u rxq %u: no completion event fd "
				"(%d)", dev->data->port_id, i, fd);
			mlx5cq_intr_vec_release(dev);
			return fd;
		}
		if (rte_intr_vec_list_index_set(h, i,
				RTE_INTR_VEC_RXTX_OFFSET + i) != 0 ||
		    rte_intr_efds_index_set(h, i, fd) != 0) {
			mlx5cq_intr_vec_release(dev);
			return -rte_errno;
		}
	}
	rte_intr_nb_efd_set(h, n);
	rte_intr_max_intr_set(h, n + 1);
	return 0;
}

int
mlx5cq_rx_intr_enable(struct rte_eth_dev *dev, uint16_t idx)
{
	struct mlx5cq_rxq *rxq = dev->data->rx_queues[idx];
	int ret;

	if (!dev->data->dev_conf.intr_conf.rxq)
		return -ENOTSUP;
	if (rxq == NULL || rxq->cq == NULL)
		return -EINVAL;
	ret = rte_mlx5cq_arm(rxq->cq, 0);
	if (ret == 0)
		rxq->intr_armed = 1;
	return ret;
}

int
mlx5cq_rx_intr_disable(struct rte_eth_dev *dev, uint16_t idx)
{
	struct mlx5cq_rxq *rxq = dev->data->rx_queues[idx];
	unsigned int got = 0;
	int ret;

	if (!dev->data->dev_conf.intr_conf.rxq)
		return -ENOTSUP;
	if (rxq == NULL || rxq->cq == NULL)
		return -EINVAL;
	while ((ret = rte_mlx5cq_event_get(rxq->cq)) == 0)
		got++;
	if (got != 0)
		rte_mlx5cq_event_ack(rxq->cq, got);
	rxq->intr_armed = 0;
	return ret == -EAGAIN ? 0 : ret;
}
