/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * net_mlx5cq: a vdev ethdev PMD on an mlx5 device (real, or the emulated
 * HCA) whose completion queues are mlx5cq CQs. Probe, remove, the ethdev
 * operations table and the port-level operations.
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_kvargs.h>
#include <rte_version.h>

#include <bus_vdev_driver.h>
#include <ethdev_driver.h>
#include <ethdev_vdev.h>

#include "mlx5cq_ethdev.h"

/* pmd.net.mlx5cq (RTE_LOG_DEFAULT_LOGTYPE from drivers/meson.build). */
RTE_LOG_REGISTER_DEFAULT(mlx5cq_net_logtype, NOTICE);

static int
mlx5cq_dev_configure(struct rte_eth_dev *dev)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	struct rte_eth_conf *conf = &dev->data->dev_conf;

	if (!TAILQ_EMPTY(&priv->flows)) {
		PMD_LOG(ERR, "port %u: rte_flow rules remain: flush them "
			"before configuring", dev->data->port_id);
		return -EBUSY;
	}
	if (conf->rxmode.mq_mode & RTE_ETH_MQ_RX_RSS_FLAG)
		conf->rxmode.offloads |= RTE_ETH_RX_OFFLOAD_RSS_HASH;
	if (conf->rxmode.mq_mode & ~RTE_ETH_MQ_RX_RSS_FLAG) {
		PMD_LOG(ERR, "port %u: RX mq_mode %u not supported",
			dev->data->port_id, conf->rxmode.mq_mode);
		return -EINVAL;
	}
	if ((conf->rxmode.mq_mode & RTE_ETH_MQ_RX_RSS_FLAG) &&
	    (conf->rx_adv_conf.rss_conf.rss_hf & ~MLX5CQ_RSS_HF)) {
		PMD_LOG(ERR, "port %u: unsupported rss_hf 0x%" PRIx64,
			dev->data->port_id,
			conf->rx_adv_conf.rss_conf.rss_hf & ~MLX5CQ_RSS_HF);
		return -EINVAL;
	}
	if (conf->rx_adv_conf.rss_conf.rss_key != NULL &&
	    conf->rx_adv_conf.rss_conf.rss_key_len != MLX5CQ_RSS_KEY_LEN) {
		PMD_LOG(ERR, "port %u: RSS key must be %u bytes",
			dev->data->port_id, MLX5CQ_RSS_KEY_LEN);
		return -EINVAL;
	}
	mlx5cq_rss_defaults(priv);
	return 0;
}

static int
mlx5cq_dev_infos_get(struct rte_eth_dev *dev, struct rte_eth_dev_info *info)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	uint32_t speed = 0;
	int up = 0;

	info->max_rx_queues = MLX5CQ_MAX_QUEUES;
	info->max_tx_queues = MLX5CQ_MAX_QUEUES;
	info->min_rx_bufsize = 64;
	info->max_rx_pktlen = 9600;
	info->min_mtu = RTE_ETHER_MIN_MTU;
	info->max_mtu = 9600 - RTE_ETHER_HDR_LEN - RTE_ETHER_CRC_LEN;
	info->max_mac_addrs = MLX5CQ_MAX_MAC_ADDRS;
	info->rx_offload_capa = MLX5CQ_RX_OFFLOADS | MLX5CQ_RX_PORT_OFFLOADS;
	info->tx_offload_capa = MLX5CQ_TX_OFFLOADS |
		(priv->tso_max ? RTE_ETH_TX_OFFLOAD_TCP_TSO : 0);
	info->rx_queue_offload_capa = MLX5CQ_RX_OFFLOADS;
	if (priv->lro.ok) {
		/* A queue offload, as net/mlx5's (mlx5_get_rx_queue_offloads).
		 */
		info->rx_offload_capa |= RTE_ETH_RX_OFFLOAD_TCP_LRO;
		info->rx_queue_offload_capa |= RTE_ETH_RX_OFFLOAD_TCP_LRO;
		info->max_lro_pkt_size = UINT8_MAX * 256u;
	}
	info->tx_queue_offload_capa = info->tx_offload_capa;
	/*
	 * A queue stopped while the port runs may be set up again (its
	 * objects are made at its start; an RX queue's new RQ takes the old
	 * one's place in the RSS table then: mlx5cq_rxq.c).
	 */
	info->dev_capa = RTE_ETH_DEV_CAPA_RUNTIME_RX_QUEUE_SETUP |
			 RTE_ETH_DEV_CAPA_RUNTIME_TX_QUEUE_SETUP |
			 RTE_ETH_DEV_CAPA_FLOW_RULE_KEEP;
	info->reta_size = MLX5CQ_RETA_SIZE;
	info->hash_key_size = MLX5CQ_RSS_KEY_LEN;
	info->flow_type_rss_offloads = MLX5CQ_RSS_HF;
	info->rx_desc_lim.nb_max = MLX5CQ_DESC_MAX;
	info->rx_desc_lim.nb_min = MLX5CQ_DESC_MIN;
	info->rx_desc_lim.nb_align = 1;
	info->tx_desc_lim = info->rx_desc_lim;
	info->default_rxportconf.ring_size = priv->args.rxq_desc ?
		priv->args.rxq_desc : MLX5CQ_DESC_DEFAULT;
	info->default_txportconf.ring_size = priv->args.txq_desc ?
		priv->args.txq_desc : MLX5CQ_DESC_DEFAULT;
	info->default_rxportconf.burst_size = 32;
	info->default_txportconf.burst_size = 32;
	info->default_rxportconf.nb_queues = 1;
	info->default_txportconf.nb_queues = 1;
	info->default_txconf.tx_free_thresh = priv->args.tx_comp_thresh;
	/* The one speed the device reports (fixed), when it reports one. */
	info->speed_capa = 0;
	if (rte_eal_process_type() == RTE_PROC_PRIMARY &&
	    !priv->closed && !priv->dev_failed &&
	    mlx5cq_vport_state(priv, &up, &speed) == 0 &&
	    up && speed != 0 &&
	    rte_eth_speed_bitflag(speed, RTE_ETH_LINK_FULL_DUPLEX) != 0)
		info->speed_capa = RTE_ETH_LINK_SPEED_FIXED |
			rte_eth_speed_bitflag(speed, RTE_ETH_LINK_FULL_DUPLEX);
	return 0;
}

/*
 * Link: state and speed as the device reports them (QUERY_VPORT_STATE);
 * an UP vport whose device leaves max_tx_speed 0 has an unknown speed.
 */
int
mlx5cq_link_update(struct rte_eth_dev *dev, int wait)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	struct rte_eth_link link;
	uint32_t speed = 0;
	int up = 0;

	RTE_SET_USED(wait);
	memset(&link, 0, sizeof(link));
	/* A failed device's link is down, and it answers no query. */
	if (priv->started && !priv->dev_failed &&
	    mlx5cq_vport_state(priv, &up, &speed) != 0)
		up = 0;
	link.link_status = up ? RTE_ETH_LINK_UP : RTE_ETH_LINK_DOWN;
	if (!up)
		link.link_speed = RTE_ETH_SPEED_NUM_NONE;
	else if (speed == 0)
		link.link_speed = RTE_ETH_SPEED_NUM_UNKNOWN;
	else
		link.link_speed = speed;
	link.link_duplex = RTE_ETH_LINK_FULL_DUPLEX;
	link.link_autoneg = RTE_ETH_LINK_FIXED;
	return rte_eth_linkstatus_set(dev, &link);
}

static void
mlx5cq_queues_destroy_hw(struct rte_eth_dev *dev)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	uint16_t i;

	mlx5cq_intr_vec_release(dev);
	mlx5cq_rss_release(priv);
	for (i = 0; i < dev->data->nb_rx_queues; i++)
		mlx5cq_rx_queue_destroy_hw(dev, i);
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		mlx5cq_tx_queue_destroy_hw(dev, i);
}

/*
 * The bursts of a started port, in this process (dev_start; a secondary
 * when its primary started the port, mlx5cq_mp.c).
 */
void
mlx5cq_burst_select(struct rte_eth_dev *dev)
{
	/* Multi-packet RQs are the port's (mprq_en, rxqs_min_mprq): all
	 * of its queues or none.
	 */
	dev->rx_pkt_burst = mlx5cq_rxq_any_mprq(dev) ? mlx5cq_rx_burst_mprq :
			    mlx5cq_rxq_any_rec(dev) ? mlx5cq_rx_burst_rec :
			    mlx5cq_rx_burst;
	dev->tx_pkt_burst = mlx5cq_tx_burst;
}

static int
mlx5cq_dev_start(struct rte_eth_dev *dev)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	uint16_t i;
	int ret;

	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		struct mlx5cq_rxq *rxq = dev->data->rx_queues[i];

		if (rxq == NULL) {
			PMD_LOG(ERR, "port %u: rxq %u not set up",
				dev->data->port_id, i);
			ret = -EINVAL;
			goto error;
		}
		ret = rxq->deferred ? mlx5cq_rx_queue_create_stopped(dev, i) :
		      mlx5cq_rx_queue_start(dev, i);
		if (ret != 0)
			goto error;
	}
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		struct mlx5cq_txq *txq = dev->data->tx_queues[i];

		if (txq == NULL) {
			PMD_LOG(ERR, "port %u: txq %u not set up",
				dev->data->port_id, i);
			ret = -EINVAL;
			goto error;
		}
		ret = txq->deferred ? mlx5cq_tx_queue_create_stopped(dev, i) :
		      mlx5cq_tx_queue_start(dev, i);
		if (ret != 0)
			goto error;
	}
	ret = mlx5cq_rss_apply(priv);
	if (ret == 0)
		ret = mlx5cq_intr_vec_setup(dev);
	if (ret != 0)
		goto error;
	ret = mlx5cq_vport_mac_list(priv, -1, NULL);
	if (ret == 0 && priv->mc_n != 0)
		ret = mlx5cq_vport_mc_list(priv);
	if (ret == 0)
		ret = mlx5cq_vport_promisc(priv, priv->promisc,
					   priv->allmulti);
	if (ret == 0)
		ret = mlx5cq_vport_mtu(priv, dev->data->mtu);
	if (ret == 0)
		ret = mlx5cq_vlan_filter_apply(dev);
	if (ret != 0)
		goto error;
	priv->started = 1;
	mlx5cq_burst_select(dev);
	mlx5cq_link_update(dev, 0);
	/* Secondaries take their bursts (a failure is theirs: logged). */
	mlx5cq_mp_notify(dev, 1);
	return 0;
error:
	mlx5cq_queues_destroy_hw(dev);
	return ret;
}

static int
mlx5cq_dev_stop(struct rte_eth_dev *dev)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;

	/* Secondaries leave the queues before their objects go. */
	mlx5cq_mp_notify(dev, 0);
	priv->started = 0;
	mlx5cq_queues_destroy_hw(dev);
	mlx5cq_link_update(dev, 0);
	return 0;
}

/* Queues released, link events unwatched, the device closed. */
static void
mlx5cq_dev_release(struct rte_eth_dev *dev)
{
	uint16_t i;

	mlx5cq_flow_user_flush(dev->data->dev_private);
	for (i = 0; i < dev->data->nb_rx_queues; i++)
		mlx5cq_rx_queue_release(dev, i);
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		mlx5cq_tx_queue_release(dev, i);
	mlx5cq_mprq_pool_free(dev->data->dev_private);
	mlx5cq_link_intr_uninstall(dev);
	mlx5cq_device_close(dev->data->dev_private);
}

/* This process's own part of the port (mlx5cq_proc_priv), released. */
static void
mlx5cq_proc_priv_free(struct rte_eth_dev *dev)
{
	if (dev->process_private == NULL)
		return;
	mlx5cq_mp_uar_unmap(dev);
	free(dev->process_private);
	dev->process_private = NULL;
	mlx5cq_mp_uninit();
}

static int
mlx5cq_dev_close(struct rte_eth_dev *dev)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;

	/* A secondary releases its own part and leaves the port. */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		mlx5cq_proc_priv_free(dev);
		return 0;
	}
	if (priv->closed)
		return 0;
	if (priv->started)
		mlx5cq_dev_stop(dev);
	mlx5cq_dev_release(dev);
	mlx5cq_proc_priv_free(dev);
	rte_intr_instance_free(dev->intr_handle);
	dev->intr_handle = NULL;
	priv->closed = 1;
	return 0;
}

/*
 * Reset (rte_eth_dev_reset(): ethdev stops the port first). The queues
 * are released and the device closed and opened again under the same
 * devargs; the application then configures the port and sets its queues
 * up again, as ethdev's contract says. After a firmware reset or a
 * removal the kernel brings a device back and its users open it anew:
 * this is how a port whose device failed (RMV) comes back once the device
 * is there (on the emulated HCA a new device of the same name and wire).
 * The MAC addresses, promiscuous and multicast settings, MTU, RSS and
 * VLAN filter stay: they are applied to the new device at the next start.
 */
static int
mlx5cq_dev_reset(struct rte_eth_dev *dev)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	const char *name = dev->device->name;
	int ret;

	if (priv->closed)
		return -EINVAL;
	mlx5cq_dev_release(dev);
	priv->dev_failed = 0;
	priv->oob_last = 0;
	priv->oob_total = 0;
	priv->oob_base = 0;
	ret = mlx5cq_device_open(priv, name);
	if (ret == 0)
		ret = mlx5cq_link_intr_install(dev);
	if (ret != 0) {
		PMD_LOG(ERR, "%s: reset: the device did not come back: %s",
			name, rte_strerror(-ret));
		return ret;
	}
	PMD_LOG(INFO, "%s: reset: device opened again", name);
	return 0;
}

static int
mlx5cq_promisc_set(struct rte_eth_dev *dev, int promisc, int allmulti)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	int ret;

	ret = mlx5cq_vport_promisc(priv, promisc, allmulti);
	if (ret != 0)
		return ret;
	priv->promisc = promisc;
	priv->allmulti = allmulti;
	return 0;
}

static int
mlx5cq_promiscuous_enable(struct rte_eth_dev *dev)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;

	return mlx5cq_promisc_set(dev, 1, priv->allmulti);
}

static int
mlx5cq_promiscuous_disable(struct rte_eth_dev *dev)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;

	return mlx5cq_promisc_set(dev, 0, priv->allmulti);
}

static int
mlx5cq_allmulticast_enable(struct rte_eth_dev *dev)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;

	return mlx5cq_promisc_set(dev, priv->promisc, 1);
}

static int
mlx5cq_allmulticast_disable(struct rte_eth_dev *dev)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;

	return mlx5cq_promisc_set(dev, priv->promisc, 0);
}

static int
mlx5cq_mac_addr_set(struct rte_eth_dev *dev, struct rte_ether_addr *mac)
{
	return mlx5cq_vport_mac_list(dev->data->dev_private, 0, mac);
}

static int
mlx5cq_mac_addr_add(struct rte_eth_dev *dev, struct rte_ether_addr *mac,
		    uint32_t index, uint32_t vmdq)
{
	RTE_SET_USED(vmdq);
	if (index >= MLX5CQ_MAX_MAC_ADDRS)
		return -EINVAL;
	return mlx5cq_vport_mac_list(dev->data->dev_private, index, mac);
}

static void
mlx5cq_mac_addr_remove(struct rte_eth_dev *dev, uint32_t index)
{
	if (index < MLX5CQ_MAX_MAC_ADDRS)
		mlx5cq_vport_mac_list(dev->data->dev_private, index, NULL);
}

static int
mlx5cq_set_mc_addr_list(struct rte_eth_dev *dev, struct rte_ether_addr *mc,
			uint32_t n)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	struct rte_ether_addr old[MLX5CQ_MAX_MC_ADDRS];
	uint32_t old_n = priv->mc_n, i;
	int ret;

	if (n > MLX5CQ_MAX_MC_ADDRS) {
		PMD_LOG(ERR, "port %u: at most %u multicast addresses",
			dev->data->port_id, MLX5CQ_MAX_MC_ADDRS);
		return -ENOSPC;
	}
	for (i = 0; i < n; i++) {
		if (!rte_is_multicast_ether_addr(&mc[i])) {
			PMD_LOG(ERR, "port %u: not a multicast address",
				dev->data->port_id);
			return -EINVAL;
		}
	}
	memcpy(old, priv->mc_addrs, sizeof(old));
	if (n != 0)
		memcpy(priv->mc_addrs, mc, n * sizeof(mc[0]));
	priv->mc_n = n;
	ret = mlx5cq_vport_mc_list(priv);
	if (ret != 0) {
		memcpy(priv->mc_addrs, old, sizeof(old));
		priv->mc_n = old_n;
	}
	return ret;
}

static int
mlx5cq_mtu_set(struct rte_eth_dev *dev, uint16_t mtu)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	uint32_t frame = mtu + RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN;
	uint16_t i;
	int ret;

	/* A frame of the MTU fits each queue's WQE (its segments). */
	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		const struct mlx5cq_rxq *rxq = dev->data->rx_queues[i];

		if (rxq == NULL)
			continue;
		if (frame > (uint32_t)(rte_pktmbuf_data_room_size(rxq->mp) -
				       RTE_PKTMBUF_HEADROOM) << rxq->sges_log) {
			PMD_LOG(ERR, "port %u: MTU %u does not fit the %u "
				"buffer(s) of an rxq %u WQE (set the queue up "
				"again, with RTE_ETH_RX_OFFLOAD_SCATTER)",
				dev->data->port_id, mtu,
				1u << rxq->sges_log, i);
			return -EINVAL;
		}
	}
	ret = mlx5cq_vport_mtu(priv, mtu);
	if (ret == 0)
		priv->mtu = mtu;
	return ret;
}

/*
 * Packet types of the RX path: mlx5cq_supported_ptypes() (mlx5cq_rx.c)
 * returns a list ended by RTE_PTYPE_UNKNOWN; from 24.03 ethdev takes the
 * list's length from the callback instead of reading to the terminator.
 */
#if RTE_VERSION_NUM(24, 3, 0, 0) <= RTE_VERSION
static const uint32_t *
mlx5cq_ptypes_get(struct rte_eth_dev *dev, size_t *no_of_elements)
{
	const uint32_t *ptypes = mlx5cq_supported_ptypes(dev);
	size_t n = 0;

	while (ptypes[n] != RTE_PTYPE_UNKNOWN)
		n++;
	*no_of_elements = n;
	return ptypes;
}
#else
#define mlx5cq_ptypes_get mlx5cq_supported_ptypes
#endif

static const struct eth_dev_ops mlx5cq_ops = {
	.dev_configure = mlx5cq_dev_configure,
	.dev_start = mlx5cq_dev_start,
	.dev_stop = mlx5cq_dev_stop,
	.dev_close = mlx5cq_dev_close,
	.dev_reset = mlx5cq_dev_reset,
	.dev_infos_get = mlx5cq_dev_infos_get,
	.fw_version_get = mlx5cq_device_fw_version_get,
	.read_clock = mlx5cq_read_clock,
	.dev_supported_ptypes_get = mlx5cq_ptypes_get,
	.link_update = mlx5cq_link_update,
	.dev_set_link_down = mlx5cq_dev_set_link_down,
	.dev_set_link_up = mlx5cq_dev_set_link_up,
	.promiscuous_enable = mlx5cq_promiscuous_enable,
	.promiscuous_disable = mlx5cq_promiscuous_disable,
	.allmulticast_enable = mlx5cq_allmulticast_enable,
	.allmulticast_disable = mlx5cq_allmulticast_disable,
	.mac_addr_set = mlx5cq_mac_addr_set,
	.mac_addr_add = mlx5cq_mac_addr_add,
	.mac_addr_remove = mlx5cq_mac_addr_remove,
	.set_mc_addr_list = mlx5cq_set_mc_addr_list,
	.mtu_set = mlx5cq_mtu_set,
	.stats_get = mlx5cq_stats_get,
	.stats_reset = mlx5cq_stats_reset,
	.xstats_get = mlx5cq_xstats_get,
	.xstats_get_names = mlx5cq_xstats_get_names,
	.xstats_reset = mlx5cq_xstats_reset,
	.rx_queue_setup = mlx5cq_rx_queue_setup,
	.rx_queue_release = mlx5cq_rx_queue_release,
	.tx_queue_setup = mlx5cq_tx_queue_setup,
	.tx_queue_release = mlx5cq_tx_queue_release,
	.rx_queue_start = mlx5cq_rx_queue_start,
	.rx_queue_stop = mlx5cq_rx_queue_stop,
	.tx_queue_start = mlx5cq_tx_queue_start,
	.tx_queue_stop = mlx5cq_tx_queue_stop,
	.rxq_info_get = mlx5cq_rxq_info_get,
	.rx_burst_mode_get = mlx5cq_rx_burst_mode_get,
	.txq_info_get = mlx5cq_txq_info_get,
	.vlan_strip_queue_set = mlx5cq_vlan_strip_queue_set,
	.vlan_offload_set = mlx5cq_vlan_offload_set,
	.vlan_filter_set = mlx5cq_vlan_filter_set,
	.rss_hash_update = mlx5cq_rss_hash_update,
	.rss_hash_conf_get = mlx5cq_rss_hash_conf_get,
	.reta_update = mlx5cq_reta_update,
	.reta_query = mlx5cq_reta_query,
	.rx_queue_intr_enable = mlx5cq_rx_intr_enable,
	.rx_queue_intr_disable = mlx5cq_rx_intr_disable,
	.get_monitor_addr = mlx5cq_get_monitor_addr,
	.flow_ops_get = mlx5cq_flow_ops_get,
};

/*
 * A secondary process (dpdk-proc-info, an application run with
 * --proc-type=secondary) attaches to the port its primary made, as
 * net/mlx5's secondaries do (rte_eth_dev_attach_secondary(), an ops table
 * of their own: mlx5_dev_sec_ops). The port's state lives in shared
 * memory (ethdev data, priv, queues, rings, doorbell records, CQs and
 * their counters: rte_malloc); the verbs context and its DevX objects are
 * the primary's process memory. A secondary reads device and queue
 * information, the link as the primary last read it, statistics and
 * extended statistics (imissed as the primary last read the queue
 * counter), resets them, reads the firmware version; it receives and
 * sends on the queues while the primary has the port started
 * (mlx5cq_mp.c). Configuration stays with the primary.
 */
static int
mlx5cq_sec_link_update(struct rte_eth_dev *dev, int wait)
{
	RTE_SET_USED(dev);
	RTE_SET_USED(wait);
	return 0;
}

static const struct eth_dev_ops mlx5cq_sec_ops = {
	.dev_close = mlx5cq_dev_close,
	.dev_infos_get = mlx5cq_dev_infos_get,
	.fw_version_get = mlx5cq_device_fw_version_get,
	.link_update = mlx5cq_sec_link_update,
	.stats_get = mlx5cq_stats_get,
	.stats_reset = mlx5cq_stats_reset,
	.xstats_get = mlx5cq_xstats_get,
	.xstats_get_names = mlx5cq_xstats_get_names,
	.xstats_reset = mlx5cq_xstats_reset,
	.rxq_info_get = mlx5cq_rxq_info_get,
	.rx_burst_mode_get = mlx5cq_rx_burst_mode_get,
	.txq_info_get = mlx5cq_txq_info_get,
};

int
mlx5cq_is_port(const struct rte_eth_dev *dev)
{
	return dev->dev_ops == &mlx5cq_ops || dev->dev_ops == &mlx5cq_sec_ops;
}

/* This process's own part of the port, and the IPC it answers. */
static int
mlx5cq_proc_priv_init(struct rte_eth_dev *dev)
{
	int ret;

	dev->process_private = calloc(1, sizeof(struct mlx5cq_proc_priv));
	if (dev->process_private == NULL)
		return -ENOMEM;
	ret = mlx5cq_mp_init();
	if (ret != 0) {
		free(dev->process_private);
		dev->process_private = NULL;
	}
	return ret;
}

static int
mlx5cq_probe_secondary(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct rte_eth_dev *eth_dev;
	int ret;

	eth_dev = rte_eth_dev_attach_secondary(name);
	if (eth_dev == NULL) {
		PMD_LOG(ERR, "%s: no such port in the primary process", name);
		return -ENODEV;
	}
	eth_dev->device = &vdev->device;
	eth_dev->dev_ops = &mlx5cq_sec_ops;
	eth_dev->rx_pkt_burst = mlx5cq_burst_none;
	eth_dev->tx_pkt_burst = mlx5cq_burst_none;
	ret = mlx5cq_proc_priv_init(eth_dev);
	/* A started port: its UAR page mapped here, its bursts. */
	if (ret == 0) {
		ret = mlx5cq_mp_attach(eth_dev);
		if (ret != 0)
			mlx5cq_proc_priv_free(eth_dev);
	}
	if (ret != 0) {
		PMD_LOG(ERR, "%s: cannot attach: %s", name, strerror(-ret));
		rte_eth_dev_release_port(eth_dev);
		return ret;
	}
	rte_eth_dev_probing_finish(eth_dev);
	PMD_LOG(INFO, "%s: port %u attached (secondary)", name,
		eth_dev->data->port_id);
	return 0;
}

static int
mlx5cq_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct mlx5cq_devargs args;
	struct rte_eth_dev *eth_dev;
	struct mlx5cq_priv *priv;
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return mlx5cq_probe_secondary(vdev);
	ret = mlx5cq_devargs_parse(rte_vdev_device_args(vdev), &args);
	if (ret != 0) {
		PMD_LOG(ERR, "%s: bad devargs, probe failed", name);
		return ret;
	}
	eth_dev = rte_eth_vdev_allocate(vdev, sizeof(*priv));
	if (eth_dev == NULL) {
		PMD_LOG(ERR, "%s: cannot allocate the port", name);
		return -ENOMEM;
	}
	priv = eth_dev->data->dev_private;
	priv->eth_dev = eth_dev;
	priv->port_id = eth_dev->data->port_id;
	priv->args = args;
	ret = mlx5cq_proc_priv_init(eth_dev);
	if (ret != 0) {
		rte_eth_dev_release_port(eth_dev);
		return ret;
	}
	rte_spinlock_init(&priv->mrs.lock);
	mlx5cq_flow_user_init(priv);
	ret = mlx5cq_device_open(priv, name);
	if (ret != 0) {
		mlx5cq_proc_priv_free(eth_dev);
		rte_eth_dev_release_port(eth_dev);
		return ret;
	}
	eth_dev->data->mac_addrs = rte_zmalloc(name, MLX5CQ_MAX_MAC_ADDRS *
					       sizeof(struct rte_ether_addr),
					       0);
	if (eth_dev->data->mac_addrs == NULL) {
		mlx5cq_device_close(priv);
		mlx5cq_proc_priv_free(eth_dev);
		rte_eth_dev_release_port(eth_dev);
		return -ENOMEM;
	}
	rte_ether_addr_copy(&priv->perm_mac, &eth_dev->data->mac_addrs[0]);
	ret = mlx5cq_link_intr_install(eth_dev);
	if (ret != 0) {
		mlx5cq_device_close(priv);
		mlx5cq_proc_priv_free(eth_dev);
		rte_eth_dev_release_port(eth_dev);
		return ret;
	}
	eth_dev->dev_ops = &mlx5cq_ops;
	eth_dev->rx_pkt_burst = mlx5cq_burst_none;
	eth_dev->tx_pkt_burst = mlx5cq_burst_none;
	eth_dev->rx_queue_count = mlx5cq_rx_queue_count;
	eth_dev->rx_descriptor_status = mlx5cq_rx_descriptor_status;
	eth_dev->tx_descriptor_status = mlx5cq_tx_descriptor_status;
	eth_dev->data->mtu = RTE_ETHER_MTU;
	priv->mtu = RTE_ETHER_MTU;
	mlx5cq_rss_defaults(priv);
	rte_eth_dev_probing_finish(eth_dev);
	PMD_LOG(INFO, "%s: port %u on %s%s%s, MAC " RTE_ETHER_ADDR_PRT_FMT,
		name, eth_dev->data->port_id,
		priv->emulated ? "the emulated HCA" : args.dev,
		priv->emulated ? ", wire " : "",
		priv->emulated ? (args.wire[0] ? args.wire : name) : "",
		RTE_ETHER_ADDR_BYTES(&priv->perm_mac));
	return 0;
}

static int
mlx5cq_remove(struct rte_vdev_device *vdev)
{
	struct rte_eth_dev *eth_dev;

	eth_dev = rte_eth_dev_allocated(rte_vdev_device_name(vdev));
	if (eth_dev == NULL)
		return 0;
	/* A secondary releases its own part, leaves the port to its
	 * primary.
	 */
	mlx5cq_dev_close(eth_dev);
	return rte_eth_dev_release_port(eth_dev);
}

static struct rte_vdev_driver mlx5cq_vdev_driver = {
	.probe = mlx5cq_probe,
	.remove = mlx5cq_remove,
};

RTE_PMD_REGISTER_VDEV(net_mlx5cq, mlx5cq_vdev_driver);
RTE_PMD_REGISTER_PARAM_STRING(net_mlx5cq,
	"dev=emu|<ibdev> "
	"cq_path=auto|devx|verbs "
	"cqe_size=64|128 "
	"cqe_pad=0|1 "
	"cqe_comp=none|hash|csum|ftag|csum_stridx|l34h "
	"cqe_comp_layout=basic|enhanced "
	"rx_vec_en=0|1 "
	"mr_ext_memseg_en=0|1 "
	"rxq_desc=<n> "
	"txq_desc=<n> "
	"tx_comp_thresh=<n> "
	"wire=<name> "
	"mac=<xx:xx:xx:xx:xx:xx> "
	"speed=<Mb/s>");
