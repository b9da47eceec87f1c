/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_lifecycle": a port probes, starts, stops and closes without
 * leaking; its link speed follows speed=; a queue stopped while the port
 * runs receives nothing.
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

/* Probe, start with 1 then 4 queues, stop, close: nothing leaked. */
static int
test_net_lifecycle_no_leak(void)
{
	struct rte_eth_conf conf = { 0 };
	struct heap_use before, after;
	struct rte_eth_link link;
	int port;

	heap_use(&before);
	port = port_probe("net_mlx5cq_tl", "dev=emu,wire=tl");
	TEST_ASSERT(port >= 0, "probe failed");
	TEST_ASSERT_SUCCESS(port_start(port, 1, &conf), "start 1q");
	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(port, &link), "link");
	TEST_ASSERT_EQUAL(link.link_status, RTE_ETH_LINK_UP,
			  "link down while started on a wire");
	/* The emulated port's default speed, from QUERY_VPORT_STATE. */
	TEST_ASSERT_EQUAL(link.link_speed, RTE_ETH_SPEED_NUM_1G,
			  "link speed %u", link.link_speed);
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(port, &link), "link");
	TEST_ASSERT(link.link_status == RTE_ETH_LINK_DOWN &&
		    link.link_speed == RTE_ETH_SPEED_NUM_NONE,
		    "stopped: link down, no speed");
	conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
	conf.rx_adv_conf.rss_conf.rss_hf = RTE_ETH_RSS_IP;
	TEST_ASSERT_SUCCESS(port_start(port, 4, &conf), "start 4q");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(port), "stop");
	TEST_ASSERT_SUCCESS(port_start(port, 2, &conf), "start 2q");
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	heap_use(&after);
	TEST_ASSERT(before.heap_bytes == after.heap_bytes &&
		    before.alloc_count == after.alloc_count,
		    "lifecycle leaked: %" PRIu64 "/%" PRIu64 " -> %" PRIu64
		    "/%" PRIu64, before.heap_bytes, before.alloc_count,
		    after.heap_bytes, after.alloc_count);
	return TEST_SUCCESS;
}

/* speed= (Mb/s) on the emulated port: link speed and speed capability. */
static int
test_net_link_speed(void)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_eth_dev_info info;
	struct rte_eth_link link;
	int port;

	port = port_probe("net_mlx5cq_ts", "dev=emu,wire=ts,speed=25000");
	TEST_ASSERT(port >= 0, "probe failed");
	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(port, &info), "info");
	TEST_ASSERT_EQUAL(info.speed_capa, (RTE_ETH_LINK_SPEED_FIXED |
			  RTE_ETH_LINK_SPEED_25G), "speed_capa 0x%x",
			  info.speed_capa);
	TEST_ASSERT_SUCCESS(port_start(port, 1, &conf), "start");
	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(port, &link), "link");
	TEST_ASSERT(link.link_status == RTE_ETH_LINK_UP &&
		    link.link_speed == RTE_ETH_SPEED_NUM_25G &&
		    link.link_duplex == RTE_ETH_LINK_FULL_DUPLEX &&
		    link.link_autoneg == RTE_ETH_LINK_FIXED,
		    "link %u speed %u", link.link_status, link.link_speed);
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	return TEST_SUCCESS;
}

/* Queue stop/start while the port runs: a stopped RQ receives nothing. */
static int
test_net_queue_stop_start(void)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_ether_addr mac;
	int port, ok = 1;

	port = port_probe("net_mlx5cq_tq", "dev=emu,wire=tq");
	TEST_ASSERT(port >= 0, "probe failed");
	if (port_start(port, 1, &conf) != 0) {
		port_remove(port);
		TEST_ASSERT(0, "start failed");
	}
	rte_eth_macaddr_get(port, &mac);
	ok &= rx_one(port, "tq", &mac, 30) == 1;
	ok &= rte_eth_dev_rx_queue_stop(port, 0) == 0;
	ok &= rx_one(port, "tq", &mac, 30) == 0;
	ok &= rte_eth_dev_rx_queue_start(port, 0) == 0;
	ok &= rx_one(port, "tq", &mac, 30) == 1;
	ok &= rte_eth_dev_tx_queue_stop(port, 0) == 0;
	ok &= rte_eth_dev_tx_queue_start(port, 0) == 0;
	/* Several restarts: every buffer is posted again each time. */
	ok &= rte_eth_dev_rx_queue_stop(port, 0) == 0;
	ok &= rte_eth_dev_rx_queue_start(port, 0) == 0;
	ok &= rx_one(port, "tq", &mac, 30) == 1;
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	TEST_ASSERT(ok, "queue stop/start");
	return TEST_SUCCESS;
}

static struct unit_test_suite net_lifecycle_suite = {
	.suite_name = "net_lifecycle",
	.setup = net_suite_setup,
	.teardown = net_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_lifecycle_no_leak),
		TEST_CASE(test_net_link_speed),
		TEST_CASE(test_net_queue_stop_start),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_lifecycle, net_lifecycle_suite);
