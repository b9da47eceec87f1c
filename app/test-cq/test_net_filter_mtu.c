/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_filter_mtu": the receive filter (own MAC, added MAC,
 * multicast list, promisc, all-multicast) as the port's NIC RX steering
 * rules, counted on its emulated device, and the MTU.
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

/*
 * The port's NIC RX steering objects on its emulated device: one domain,
 * two tables (root: the VLAN filter; L2: the addresses), six matchers, the
 * jump and TIR actions, and rules (mlx5cq_flow.c).
 */
static int
rules_are(uint16_t port, uint32_t rules)
{
	struct mlx5_emu_net_stats ns;

	if (mlx5_emu_net_stats_get(port_emu_ctx(port), &ns) != 0)
		return 0;
	if (ns.steer_domains == 1 && ns.steer_tables == 2 &&
	    ns.steer_matchers == 6 && ns.steer_actions == 2 &&
	    ns.steer_rules == rules)
		return 1;
	printf("  steering: domains %u tables %u matchers %u actions %u "
	       "rules %u, want 1 2 6 2 %u\n", ns.steer_domains,
	       ns.steer_tables, ns.steer_matchers, ns.steer_actions,
	       ns.steer_rules, rules);
	return 0;
}

/* Receive filter: own MAC, added MAC, promisc, all-multicast; MTU. */
static int
test_net_filter_mtu(void)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_ether_addr mac, other = {{ 0x02, 0, 0, 0, 0x77, 0x01 }};
	struct rte_ether_addr mc = {{ 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03 }};
	struct rte_ether_addr mc2 = {{ 0x01, 0x00, 0x5e, 0x01, 0x02, 0x04 }};
	struct rte_ether_addr bc = {{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }};
	int port, ok = 1;

	port = port_probe("net_mlx5cq_tf", "dev=emu,wire=tf,"
			  "mac=02:00:00:00:66:01");
	TEST_ASSERT(port >= 0, "probe failed");
	if (port_start(port, 1, &conf) != 0) {
		port_remove(port);
		TEST_ASSERT(0, "start failed");
	}
	rte_eth_macaddr_get(port, &mac);
	ok &= mac.addr_bytes[4] == 0x66 && mac.addr_bytes[5] == 0x01;
	rte_eth_promiscuous_disable(port);
	rte_eth_allmulticast_disable(port);
	/* Root: everything to L2; L2: own MAC, broadcast. */
	ok &= rules_are(port, 3);
	ok &= rx_one(port, "tf", &mac, 40) == 1;
	ok &= rx_one(port, "tf", &bc, 40) == 1;
	ok &= rx_one(port, "tf", &other, 40) == 0;
	ok &= rx_one(port, "tf", &mc, 40) == 0;
	if (!ok)
		printf("  filter: own/broadcast/other/multicast wrong\n");
	ok &= rte_eth_dev_mac_addr_add(port, &other, 0) == 0;
	ok &= rules_are(port, 4);
	ok &= rx_one(port, "tf", &other, 40) == 1;
	ok &= rte_eth_dev_mac_addr_remove(port, &other) == 0;
	ok &= rx_one(port, "tf", &other, 40) == 0;
	if (!ok)
		printf("  filter: added MAC wrong\n");
	/* Multicast list: the listed group only, until the list is empty;
	 * only multicast addresses are taken.
	 */
	ok &= rte_eth_dev_set_mc_addr_list(port, &mc, 1) == 0;
	ok &= rules_are(port, 4);
	ok &= rx_one(port, "tf", &mc, 40) == 1;
	ok &= rx_one(port, "tf", &mc2, 40) == 0;
	ok &= rte_eth_dev_set_mc_addr_list(port, &other, 1) == -EINVAL;
	ok &= rx_one(port, "tf", &mc, 40) == 1;
	ok &= rte_eth_dev_set_mc_addr_list(port, NULL, 0) == 0;
	ok &= rx_one(port, "tf", &mc, 40) == 0;
	if (!ok)
		printf("  filter: multicast list wrong\n");
	ok &= rte_eth_allmulticast_enable(port) == 0;
	/* The group bit replaces the listed groups. */
	ok &= rules_are(port, 4);
	ok &= rx_one(port, "tf", &mc, 40) == 1;
	ok &= rx_one(port, "tf", &mc2, 40) == 1;
	ok &= rx_one(port, "tf", &other, 40) == 0;
	ok &= rte_eth_promiscuous_enable(port) == 0;
	/* Everything to L2, everything to the TIR. */
	ok &= rules_are(port, 2);
	ok &= rx_one(port, "tf", &other, 40) == 1;
	if (!ok)
		printf("  filter: allmulti/promisc wrong\n");
	/* MTU 1000: frames up to 1018 bytes (MTU + L2 + VLAN) pass. */
	ok &= rte_eth_dev_set_mtu(port, 1000) == 0;
	ok &= rx_one(port, "tf", &mac, 1018 - 42) == 1;
	ok &= rx_one(port, "tf", &mac, 1019 - 42) == 0;
	ok &= rte_eth_dev_set_mtu(port, 1500) == 0;
	ok &= rx_one(port, "tf", &mac, 1019 - 42) == 1;
	if (!ok)
		printf("  MTU wrong\n");
	/* Stopped: no steering object left on the device. */
	ok &= rte_eth_dev_stop(port) == 0;
	{
		struct mlx5_emu_net_stats ns;

		ok &= mlx5_emu_net_stats_get(port_emu_ctx(port), &ns) == 0 &&
		      ns.steer_domains == 0 && ns.steer_tables == 0 &&
		      ns.steer_matchers == 0 && ns.steer_rules == 0 &&
		      ns.steer_actions == 0;
	}
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	TEST_ASSERT(ok, "receive filter / MTU");
	return TEST_SUCCESS;
}

static struct unit_test_suite net_filter_mtu_suite = {
	.suite_name = "net_filter_mtu",
	.setup = net_suite_setup,
	.teardown = net_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_filter_mtu),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_filter_mtu, net_filter_mtu_suite);
