/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The fixture of the net PMD suites (test_net_fixture.h): the net PMD on
 * the emulated HCA through the ethdev API. Ports are made with
 * rte_dev_probe("net_mlx5cq...,dev=emu,wire=..") (the PMD is loaded from
 * the build's drivers folder); frames are put on the emulated wire with
 * mlx5_emu_wire_inject() and read back with rte_eth_rx_burst(), so every
 * result is checked against a frame built by hand.
 */

#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <mlx5_emu.h>

#include "mlx5cq_ethdev.h"
#include "test_net_fixture.h"
#include "test_net_util.h"

struct rte_mempool *n_mp;

int
net_suite_setup(void)
{
	if (net_load() != 0 || net_ethdev_hold() != 0)
		return -1;
	n_mp = rte_pktmbuf_pool_create("net_mlx5cq_test", NB_MBUF, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE,
				       SOCKET_ID_ANY);
	return n_mp == NULL ? -1 : 0;
}

void
net_suite_teardown(void)
{
	rte_mempool_free(n_mp);
	n_mp = NULL;
	net_ethdev_release();
}

/* Configure nq queues of QDESC descriptors and start. */
int
port_start(uint16_t port, uint16_t nq, const struct rte_eth_conf *conf)
{
	uint16_t q;

	if (rte_eth_dev_configure(port, nq, nq, conf) != 0)
		return -1;
	for (q = 0; q < nq; q++) {
		if (rte_eth_rx_queue_setup(port, q, QDESC, SOCKET_ID_ANY, NULL,
					   n_mp) != 0 ||
		    rte_eth_tx_queue_setup(port, q, QDESC, SOCKET_ID_ANY,
					   NULL) != 0)
			return -1;
	}
	return rte_eth_dev_start(port);
}

/* Inject one frame to dst and count what port receives. */
uint16_t
rx_one(uint16_t port, const char *wire, const struct rte_ether_addr *dst,
	uint16_t payload)
{
	struct rte_mbuf *pkts[4];
	uint8_t f[2048];
	uint32_t len = frame_build(f, dst, RTE_IPV4(198u, 18, 3, 1), 9,
				   payload, 0);
	uint16_t n;

	mlx5_emu_wire_inject(wire, f, len);
	n = rx_all(port, 1, pkts, 4, NULL);
	free_all(pkts, n);
	return n;
}

int
xstat_get(uint16_t port, const char *name, uint64_t *v)
{
	uint64_t id;

	if (rte_eth_xstats_get_id_by_name(port, name, &id) != 0)
		return -1;
	return rte_eth_xstats_get_by_id(port, &id, v, 1) == 1 ? 0 : -1;
}

uint16_t
mtu_for_buf(uint16_t len)
{
	return (uint16_t)(len - RTE_ETHER_HDR_LEN - RTE_ETHER_CRC_LEN);
}

int
port_host_mtu(uint16_t port, uint16_t host_mtu)
{
	return mlx5_emu_port_mtu_set(port_emu_ctx(port), host_mtu);
}

struct ibv_context *
port_emu_ctx(uint16_t port)
{
	const struct mlx5cq_priv *priv = rte_eth_devices[port].data->dev_private;

	return priv->ctx;
}
