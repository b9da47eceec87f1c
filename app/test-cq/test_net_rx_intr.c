/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_rx_intr": RX interrupts: an armed CQ makes the queue's event fd
 * readable on one frame.
 * The fixture (mbuf pool, port start, one frame received, an
 * xstat read) is test_net_fixture.c.
 */

#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_dev.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_thash.h>
#include <rte_udp.h>
#include <rte_vect.h>

#include <mlx5_emu.h>

#include "test.h"
#include "test_net_fixture.h"
#include "test_net_util.h"
#include "test_wait.h"

/* RX interrupt: armed CQ, one frame, the queue's event fd is readable. */
static int
test_net_rx_intr(void)
{
	struct rte_eth_conf conf = { .intr_conf.rxq = 1 };
	struct rte_ether_addr mac;
	struct rte_mbuf *pkts[4];
	struct pollfd pfd;
	uint8_t f[128];
	uint32_t len;
	int port, fd, ok = 1, r;

	port = port_probe("net_mlx5cq_ti", "dev=emu,wire=ti");
	TEST_ASSERT(port >= 0, "probe failed");
	if (port_start(port, 1, &conf) != 0) {
		port_remove(port);
		TEST_ASSERT(0, "start failed");
	}
	rte_eth_macaddr_get(port, &mac);
	fd = rte_eth_dev_rx_intr_ctl_q_get_fd(port, 0);
	ok &= fd >= 0;
	ok &= rte_eth_dev_rx_intr_enable(port, 0) == 0;
	pfd.fd = fd;
	pfd.events = POLLIN;
	/* Nothing received: no event. */
	ok &= poll(&pfd, 1, 0) == 0;
	len = frame_build(f, &mac, RTE_IPV4(10, 2, 0, 1), 5, 20, 0);
	mlx5_emu_wire_inject("ti", f, len);
	/* Liveness bound only: the event comes with the completion. */
	r = poll(&pfd, 1, 5000);
	ok &= r == 1 && (pfd.revents & POLLIN);
	ok &= rte_eth_dev_rx_intr_disable(port, 0) == 0;
	ok &= rx_all(port, 1, pkts, 1, NULL) == 1;
	free_all(pkts, 1);
	if (!ok)
		printf("  fd %d poll %d revents 0x%x\n", fd, r, pfd.revents);
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	TEST_ASSERT(ok, "RX interrupt");
	return TEST_SUCCESS;
}

static struct unit_test_suite net_rx_intr_suite = {
	.suite_name = "net_rx_intr",
	.setup = net_suite_setup,
	.teardown = net_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_rx_intr),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_rx_intr, net_rx_intr_suite);
