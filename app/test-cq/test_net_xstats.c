/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_xstats": the CQ counters per queue in xstats equal the traffic,
 * and reset.
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

/* xstats: CQ counters per queue, equal to the traffic; reset. */
static int
test_net_xstats(void)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_ether_addr mac;
	struct rte_mbuf *pkts[16];
	uint64_t cpl = 0, pk = 0, err = 1, polls = 0;
	uint8_t f[128];
	uint32_t len, i;
	int port, ok = 1;

	port = port_probe("net_mlx5cq_tz", "dev=emu,wire=tz");
	TEST_ASSERT(port >= 0, "probe failed");
	if (port_start(port, 1, &conf) != 0) {
		port_remove(port);
		TEST_ASSERT(0, "start failed");
	}
	rte_eth_macaddr_get(port, &mac);
	for (i = 0; i < 10; i++) {
		len = frame_build(f, &mac, RTE_IPV4(10, 1, 0, i), 5, 20, 0);
		mlx5_emu_wire_inject("tz", f, len);
	}
	ok &= rx_all(port, 1, pkts, 10, NULL) == 10;
	free_all(pkts, 10);
	ok &= xstat_get(port, "rx_q0_cq_completions", &cpl) == 0 && cpl == 10;
	ok &= xstat_get(port, "rx_q0_packets", &pk) == 0 && pk == 10;
	ok &= xstat_get(port, "rx_q0_cq_errors", &err) == 0 && err == 0;
	ok &= xstat_get(port, "rx_q0_cq_polls", &polls) == 0 && polls >= 1;
	ok &= rte_eth_xstats_reset(port) == 0;
	ok &= xstat_get(port, "rx_q0_cq_completions", &cpl) == 0 && cpl == 0;
	ok &= xstat_get(port, "rx_q0_packets", &pk) == 0 && pk == 0;
	if (!ok)
		printf("  completions %" PRIu64 " packets %" PRIu64 " errors %"
		       PRIu64 " polls %" PRIu64 "\n", cpl, pk, err, polls);
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	TEST_ASSERT(ok, "xstats");
	return TEST_SUCCESS;
}

static struct unit_test_suite net_xstats_suite = {
	.suite_name = "net_xstats",
	.setup = net_suite_setup,
	.teardown = net_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_xstats),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_xstats, net_xstats_suite);
