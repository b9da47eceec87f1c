/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Link state events and the port's admin state.
 *
 * Events: the device reports a port's link change on its asynchronous
 * event queue, which the kernel hands to the verbs context's async fd as
 * IBV_EVENT_PORT_ACTIVE / IBV_EVENT_PORT_ERR (mlx5_ib_event()). As
 * net/mlx5 does (mlx5_dev_interrupt_handler_install(),
 * mlx5_dev_interrupt_handler() in mlx5_ethdev_os.c), the port watches that
 * fd from probe to close with an EAL interrupt callback: it reads every
 * pending event (the fd is non-blocking), acknowledges it, and after a
 * port event updates the link (QUERY_VPORT_STATE) and, with
 * dev_conf.intr_conf.lsc, raises RTE_ETH_EVENT_INTR_LSC. Other events (CQ
 * errors) are acknowledged and logged: the queues find their errors
 * themselves. IBV_EVENT_DEVICE_FATAL (a firmware fatal error or a
 * removal) raises RTE_ETH_EVENT_INTR_RMV once, with intr_conf.rmv; the
 * port then reports its link down, its bursts find nothing to complete
 * and return 0, its stats stay readable and closing it releases
 * everything (the kernel completes destroy commands on a failed device).
 *
 * Admin state (dev_set_link_down / _up): net/mlx5 clears or sets the
 * kernel netdev's IFF_UP, and the kernel's mlx5e writes the port's PAOS
 * admin status. A port of this PMD has no netdev: on the emulated HCA it
 * sets the emulated port's admin status (mlx5_emu_port_admin_set(), the
 * PAOS write of the model); on a card it answers ENOTSUP.
 */

#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include <infiniband/verbs.h>

#include <ethdev_driver.h>
#include <rte_interrupts.h>

#include <mlx5_glue.h>

#include "mlx5cq_ethdev.h"
#include "mlx5cq_emu_plugin.h"

/*
 * The device failed (IBV_EVENT_DEVICE_FATAL, or the event queue closed:
 * EIO). As net/mlx5 does (mlx5_dev_interrupt_device_fatal()), the port
 * raises RTE_ETH_EVENT_INTR_RMV once, with dev_conf.intr_conf.rmv: a
 * removal brings the event twice (mlx5 and uverbs).
 */
static void
mlx5cq_link_device_fatal(struct rte_eth_dev *dev)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;

	if (priv->dev_failed)
		return;
	priv->dev_failed = 1;
	PMD_LOG(ERR, "port %u: the device failed or was removed",
		dev->data->port_id);
	mlx5cq_link_update(dev, 0);
	if (dev->data->dev_conf.intr_conf.rmv)
		rte_eth_dev_callback_process(dev, RTE_ETH_EVENT_INTR_RMV,
					     NULL);
}

static void
mlx5cq_link_intr(void *arg)
{
	struct rte_eth_dev *dev = arg;
	struct mlx5cq_priv *priv = dev->data->dev_private;
	struct ibv_async_event ev;
	int port_change = 0, fatal = 0;

	for (;;) {
		if (mlx5_glue->get_async_event(priv->ctx, &ev) != 0) {
			/* A closed event queue (kernel uverbs). */
			fatal |= errno == EIO;
			break;
		}
		switch (ev.event_type) {
		case IBV_EVENT_PORT_ACTIVE:
		case IBV_EVENT_PORT_ERR:
			port_change = 1;
			break;
		case IBV_EVENT_DEVICE_FATAL:
			fatal = 1;
			break;
		default:
			PMD_LOG(DEBUG, "port %u: async event %d ignored",
				dev->data->port_id, (int)ev.event_type);
			break;
		}
		mlx5_glue->ack_async_event(&ev);
	}
	if (fatal) {
		mlx5cq_link_device_fatal(dev);
		return;
	}
	if (!port_change)
		return;
	mlx5cq_link_update(dev, 0);
	if (dev->data->dev_conf.intr_conf.lsc)
		rte_eth_dev_callback_process(dev, RTE_ETH_EVENT_INTR_LSC,
					     NULL);
}

int
mlx5cq_link_intr_install(struct rte_eth_dev *dev)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	int fd = priv->ctx->async_fd, flags, ret;

	if (fd < 0)
		return 0;
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) {
		ret = errno;
		PMD_LOG(ERR, "port %u: async fd %d not made non-blocking: %s",
			dev->data->port_id, fd, strerror(ret));
		return -ret;
	}
	priv->link_intr = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_SHARED);
	if (priv->link_intr == NULL)
		return -rte_errno;
	if (rte_intr_fd_set(priv->link_intr, fd) != 0 ||
	    rte_intr_type_set(priv->link_intr, RTE_INTR_HANDLE_EXT) != 0) {
		ret = -rte_errno;
		goto error;
	}
	ret = rte_intr_callback_register(priv->link_intr, mlx5cq_link_intr,
					 dev);
	if (ret != 0)
		goto error;
	dev->data->dev_flags |= RTE_ETH_DEV_INTR_LSC | RTE_ETH_DEV_INTR_RMV;
	return 0;
error:
	PMD_LOG(ERR, "port %u: link event callback not installed: %s",
		dev->data->port_id, rte_strerror(-ret));
	rte_intr_instance_free(priv->link_intr);
	priv->link_intr = NULL;
	return ret;
}

void
mlx5cq_link_intr_uninstall(struct rte_eth_dev *dev)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;

	if (priv->link_intr == NULL)
		return;
	rte_intr_callback_unregister_sync(priv->link_intr, mlx5cq_link_intr,
					  dev);
	rte_intr_instance_free(priv->link_intr);
	priv->link_intr = NULL;
	dev->data->dev_flags &= ~(RTE_ETH_DEV_INTR_LSC | RTE_ETH_DEV_INTR_RMV);
}

static int
mlx5cq_link_admin(struct rte_eth_dev *dev, int up)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	int (*admin_set)(struct ibv_context *ctx, int up);
	int ret;

	if (!priv->emulated) {
		PMD_LOG(ERR, "port %u: link %s needs the port's netdev, which "
			"this PMD does not use", dev->data->port_id,
			up ? "up" : "down");
		return -ENOTSUP;
	}
	admin_set = (int (*)(struct ibv_context *, int))
		mlx5cq_emu_plugin_sym("mlx5_emu_port_admin_set");
	if (admin_set == NULL) {
		PMD_LOG(ERR, "port %u: the emulated HCA has no admin state",
			dev->data->port_id);
		return -ENOTSUP;
	}
	ret = admin_set(priv->ctx, up);
	if (ret != 0) {
		PMD_LOG(ERR, "port %u: link %s failed: %s", dev->data->port_id,
			up ? "up" : "down", strerror(-ret));
		return ret;
	}
	mlx5cq_link_update(dev, 0);
	return 0;
}

int
mlx5cq_dev_set_link_down(struct rte_eth_dev *dev)
{
	return mlx5cq_link_admin(dev, 0);
}

int
mlx5cq_dev_set_link_up(struct rte_eth_dev *dev)
{
	return mlx5cq_link_admin(dev, 1);
}
