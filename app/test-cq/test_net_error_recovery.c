/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_error_recovery": RX and TX error CQEs: the PMD counts them, takes
 * the RQ or SQ back to RDY and the next frames go through.
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
 * RX error: 256 B buffers, a longer frame completes with a responder error
 * (LOC_LEN_ERR, the RQ goes to ERR); the PMD counts it, takes the RQ back
 * to RDY and the next frame is received.
 */
static int
test_net_rx_error_recovery(void)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_mempool *small;
	struct rte_ether_addr mac;
	struct rte_mbuf *pkts[4];
	struct rte_eth_stats st;
	uint8_t f[1024];
	uint32_t len;
	int port, ok = 1;

	small = rte_pktmbuf_pool_create("net_mlx5cq_small", 1024, 0, 0,
					RTE_PKTMBUF_HEADROOM + 256,
					SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(small, "mempool");
	port = port_probe("net_mlx5cq_te", "dev=emu,wire=te");
	conf.rxmode.mtu = mtu_for_buf(256);
	if (port < 0 || rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, QDESC, SOCKET_ID_ANY, NULL,
				   small) != 0 ||
	    rte_eth_tx_queue_setup(port, 0, QDESC, SOCKET_ID_ANY, NULL) != 0 ||
	    rte_eth_dev_start(port) != 0 ||
	    port_host_mtu(port, 1500) != 0) {
		if (port >= 0)
			port_remove(port);
		rte_mempool_free(small);
		TEST_ASSERT(0, "port setup");
	}
	rte_eth_macaddr_get(port, &mac);
	len = frame_build(f, &mac, RTE_IPV4(10, 3, 0, 1), 5, 600, 0);
	mlx5_emu_wire_inject("te", f, len);
	ok &= rx_all(port, 1, pkts, 1, NULL) == 0;
	rte_eth_stats_get(port, &st);
	ok &= st.ierrors == 1 && st.ipackets == 0;
	len = frame_build(f, &mac, RTE_IPV4(10, 3, 0, 2), 5, 100, 0);
	mlx5_emu_wire_inject("te", f, len);
	ok &= rx_all(port, 1, pkts, 1, NULL) == 1;
	if (ok)
		ok &= pkts[0]->pkt_len == len;
	rte_pktmbuf_free(pkts[0]);
	rte_eth_stats_get(port, &st);
	if (!ok)
		printf("  ierrors %" PRIu64 " ipackets %" PRIu64 "\n",
		       st.ierrors, st.ipackets);
	ok &= st.ierrors == 1 && st.ipackets == 1;
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	rte_mempool_free(small);
	TEST_ASSERT(ok, "RX error recovery");
	return TEST_SUCCESS;
}

/*
 * RX error with the RQ still RDY (the emulated wire's fault injection:
 * an error CQE without the ERR transition): the PMD's recovery finds the
 * RQ not in ERR, takes it RDY -> RST -> RDY instead, counts one recovery
 * and no failure, and receives the next frames.
 */
static int
test_net_rx_error_rdy(void)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_ether_addr mac;
	struct rte_mbuf *pkts[4];
	struct rte_eth_stats st;
	uint64_t rec = UINT64_MAX, fail = UINT64_MAX;
	uint8_t f[256];
	uint32_t len, i;
	int port, ok = 1;

	port = port_probe("net_mlx5cq_tr", "dev=emu,wire=tr");
	if (port < 0 || rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, QDESC, SOCKET_ID_ANY, NULL,
				   n_mp) != 0 ||
	    rte_eth_tx_queue_setup(port, 0, QDESC, SOCKET_ID_ANY, NULL) != 0 ||
	    rte_eth_dev_start(port) != 0) {
		if (port >= 0)
			port_remove(port);
		TEST_ASSERT(0, "port setup");
	}
	rte_eth_macaddr_get(port, &mac);
	TEST_ASSERT_SUCCESS(mlx5_emu_wire_rx_error_inject("tr", 1), "inject");
	len = frame_build(f, &mac, RTE_IPV4(10, 4, 0, 1), 5, 100, 0);
	mlx5_emu_wire_inject("tr", f, len);
	ok &= rx_all(port, 1, pkts, 1, NULL) == 0;
	rte_eth_stats_get(port, &st);
	ok &= st.ierrors == 1 && st.ipackets == 0;
	for (i = 0; i < 3; i++) {
		len = frame_build(f, &mac, RTE_IPV4(10, 4, 0, 2 + i), 5, 100,
				  0);
		mlx5_emu_wire_inject("tr", f, len);
	}
	ok &= rx_all(port, 1, pkts, 3, NULL) == 3;
	free_all(pkts, 3);
	rte_eth_stats_get(port, &st);
	ok &= st.ierrors == 1 && st.ipackets == 3;
	ok &= xstat_get(port, "rx_q0_recoveries", &rec) == 0 && rec == 1;
	ok &= xstat_get(port, "rx_q0_recovery_failures", &fail) == 0 &&
	      fail == 0;
	if (!ok)
		printf("  ierrors %" PRIu64 " ipackets %" PRIu64 " recoveries %"
		       PRIu64 " failures %" PRIu64 "\n", st.ierrors,
		       st.ipackets, rec, fail);
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	TEST_ASSERT(ok, "RX error with the RQ in RDY");
	return TEST_SUCCESS;
}

static void
extbuf_free(void *addr, void *opaque)
{
	RTE_SET_USED(addr);
	RTE_SET_USED(opaque);
}

/* End of the highest memory chunk of a mempool. */
static void
chunk_end(struct rte_mempool *mp, void *opaque,
	  struct rte_mempool_memhdr *memhdr, unsigned int idx)
{
	uintptr_t *end = opaque, e = (uintptr_t)memhdr->addr + memhdr->len;

	RTE_SET_USED(mp);
	RTE_SET_USED(idx);
	if (e > *end)
		*end = e;
}

/*
 * TX error: a second segment that starts 32 bytes before the end of the
 * mempool's registered memory and runs 64 bytes past it (its lkey is
 * found, the range is not in the MR) completes with a requester error
 * (LOC_PROT_ERR, the SQ goes to ERR); the PMD counts it, frees the mbufs,
 * takes the SQ back to RDY (one recovery), and the next frames go out and
 * come back over the loopback wire.
 */
static int
test_net_tx_error_recovery(void)
{
	struct rte_eth_conf conf = {
		.txmode.offloads = RTE_ETH_TX_OFFLOAD_MULTI_SEGS,
	};
	struct rte_mbuf_ext_shared_info shinfo = {
		.free_cb = extbuf_free,
	};
	struct rte_ether_addr mac;
	struct rte_mbuf *m, *s, *pkts[8];
	struct rte_eth_stats st;
	uint8_t f[256], *ext;
	uintptr_t end = 0;
	uint64_t rec = 0;
	uint32_t len, i, sent;
	int port, ok = 1;

	rte_mempool_mem_iter(n_mp, chunk_end, &end);
	TEST_ASSERT(end != 0, "mempool chunks");
	ext = (uint8_t *)(end - 32);
	port = port_probe("net_mlx5cq_tt", "dev=emu,wire=tt,tx_comp_thresh=1");
	if (port < 0 || port_start(port, 1, &conf) != 0) {
		if (port >= 0)
			port_remove(port);
		TEST_ASSERT(0, "port setup");
	}
	rte_eth_macaddr_get(port, &mac);
	len = frame_build(f, &mac, RTE_IPV4(10, 4, 0, 1), 5, 100, 0);
	m = rte_pktmbuf_alloc(n_mp);
	s = rte_pktmbuf_alloc(n_mp);
	memcpy(rte_pktmbuf_append(m, 42), f, 42);
	rte_mbuf_ext_refcnt_set(&shinfo, 1);
	rte_pktmbuf_attach_extbuf(s, ext, RTE_BAD_IOVA, 96, &shinfo);
	s->data_off = 0;
	s->data_len = 96;
	rte_pktmbuf_chain(m, s);
	ok &= rte_eth_tx_burst(port, 0, &m, 1) == 1;
	/* The error completion comes; the next burst recovers the SQ. */
	for (i = 0; i < 2000; i++) {
		rte_eth_stats_get(port, &st);
		if (st.oerrors != 0)
			break;
		rte_eth_tx_burst(port, 0, pkts, 0);
		rte_delay_us_sleep(500);
	}
	ok &= st.oerrors == 1;
	ok &= rx_all(port, 1, pkts, 8, NULL) == 0;
	for (i = 0; i < 4; i++) {
		len = frame_build(f, &mac, RTE_IPV4(10, 4, 1, i), 5, 60, 0);
		pkts[i] = rte_pktmbuf_alloc(n_mp);
		memcpy(rte_pktmbuf_append(pkts[i], len), f, len);
	}
	for (sent = 0, i = 0; sent < 4 && i < 2000; i++) {
		sent += rte_eth_tx_burst(port, 0, pkts + sent, 4 - sent);
		rte_delay_us_sleep(100);
	}
	ok &= sent == 4;
	ok &= rx_all(port, 1, pkts, 8, NULL) == 4;
	rte_pktmbuf_free_bulk(pkts, 4);
	rte_eth_stats_get(port, &st);
	if (!ok)
		printf("  oerrors %" PRIu64 " opackets %" PRIu64 " ipackets %"
		       PRIu64 "\n", st.oerrors, st.opackets, st.ipackets);
	ok &= st.oerrors == 1 && st.ipackets == 4;
	ok &= xstat_get(port, "tx_q0_cq_err_loc_prot", &rec) == 0 && rec == 1;
	ok &= xstat_get(port, "tx_q0_recoveries", &rec) == 0 && rec == 1;
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	TEST_ASSERT(ok, "TX error recovery");
	return TEST_SUCCESS;
}

static struct unit_test_suite net_error_recovery_suite = {
	.suite_name = "net_error_recovery",
	.setup = net_suite_setup,
	.teardown = net_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_rx_error_recovery),
		TEST_CASE(test_net_rx_error_rdy),
		TEST_CASE(test_net_tx_error_recovery),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_error_recovery, net_error_recovery_suite);
