/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_NET_FIXTURE_H_
#define TEST_NET_FIXTURE_H_

/*
 * The fixture of the net PMD suites (net_devargs, net_lifecycle,
 * net_rx_offload, net_filter_mtu, net_tx_loopback, net_xstats,
 * net_rx_burst_mode, net_error_recovery, net_rx_intr): the mbuf pool, a
 * port started with nq queues, one frame injected and received, one xstat
 * read (test_net_fixture.c).
 */

#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_mempool.h>

#define NB_MBUF 4096
#define QDESC 256

extern struct rte_mempool *n_mp;

/* Suite setup (PMD loaded, ethdev held, n_mp made) and teardown. */
int net_suite_setup(void);
void net_suite_teardown(void);

/* Configure nq queues of QDESC descriptors and start. */
int port_start(uint16_t port, uint16_t nq, const struct rte_eth_conf *conf);

/* Inject one frame to dst and count what port receives. */
uint16_t rx_one(uint16_t port, const char *wire,
		const struct rte_ether_addr *dst, uint16_t payload);

/* The xstat name of port in v: 0, or -1. */
int xstat_get(uint16_t port, const char *name, uint64_t *v);

/*
 * Buffers of len bytes (data room after the headroom) on an MTU that fits
 * them (net_mlx5cq refuses a queue whose frames do not fit without
 * scatter, as net/mlx5), then the host sets the vport's MTU to host_mtu
 * behind the port's back (mlx5_emu_port_mtu_set(), white box: the
 * port's context): longer frames than the buffers reach the RQ and
 * complete with LOC_LEN_ERR. The conf's MTU for len; the host change.
 */
uint16_t mtu_for_buf(uint16_t len);
int port_host_mtu(uint16_t port, uint16_t host_mtu);
/* The emulated device's context of a port (white box: its priv). */
struct ibv_context *port_emu_ctx(uint16_t port);

#endif /* TEST_NET_FIXTURE_H_ */
