/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_qstate": net_mlx5cq's queue state from its CQs through
 * ethdev: rte_eth_rx_queue_count(), rte_eth_rx_descriptor_status(),
 * rte_eth_tx_descriptor_status() and rte_eth_get_monitor_addr() (the
 * condition rte_power_monitor() sleeps on), before and after frames
 * arrive, after they are received, and for TX before and after the
 * completion of what was sent; a TX queue set up again while the port
 * runs.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_power_intrinsics.h>

#include <mlx5_emu.h>

#include "test.h"
#include "test_net_fixture.h"
#include "test_net_util.h"
#include "test_usage.h"
#include "test_wait.h"

#define Q_NB_MBUF 2048
#define QDESC 256
#define COMP_THRESH 4 /* tx_comp_thresh: a completion every 4 packets. */

static struct rte_mempool *q_mp;

static int
qstate_setup(void)
{
	if (net_load() != 0 || net_ethdev_hold() != 0)
		return -1;
	q_mp = rte_pktmbuf_pool_create("net_qstate", Q_NB_MBUF, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE,
				       SOCKET_ID_ANY);
	return q_mp == NULL ? -1 : 0;
}

static void
qstate_teardown(void)
{
	rte_mempool_free(q_mp);
	q_mp = NULL;
	net_ethdev_release();
}

static int
qstate_port(void)
{
	struct rte_eth_conf conf = { 0 };
	int port;

	port = port_probe("net_mlx5cq_qs", "dev=emu,wire=qs,tx_comp_thresh="
			  RTE_STR(COMP_THRESH));
	if (port < 0)
		return -1;
	if (rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, QDESC, SOCKET_ID_ANY, NULL,
				   q_mp) != 0 ||
	    rte_eth_tx_queue_setup(port, 0, QDESC, SOCKET_ID_ANY, NULL) != 0 ||
	    rte_eth_dev_start(port) != 0) {
		port_remove(port);
		return -1;
	}
	return port;
}

/* What rte_power_monitor() would do now: 0 sleep, -1 do not. */
static int
monitor_now(uint16_t port)
{
	struct rte_power_monitor_cond pmc;
	uint64_t v;

	memset(&pmc, 0, sizeof(pmc));
	if (rte_eth_get_monitor_addr(port, 0, &pmc) != 0 || pmc.fn == NULL ||
	    pmc.size != 1)
		return -2;
	v = *(volatile const uint8_t *)pmc.addr;
	return pmc.fn(v, pmc.opaque);
}

static int
test_qstate_rx(void)
{
	struct rte_ether_addr mac;
	struct rte_mbuf *pkts[8];
	uint8_t f[128];
	uint32_t len, i;
	int port, ret;

	port = qstate_port();
	TEST_ASSERT(port >= 0, "port");
	rte_eth_macaddr_get(port, &mac);
	TEST_ASSERT_EQUAL(rte_eth_rx_queue_count(port, 0), 0, "empty");
	TEST_ASSERT_EQUAL(rte_eth_rx_descriptor_status(port, 0, 0),
			  RTE_ETH_RX_DESC_AVAIL, "posted, nothing received");
	TEST_ASSERT_EQUAL(rte_eth_rx_descriptor_status(port, 0, QDESC),
			  -EINVAL, "past the ring");
	TEST_ASSERT_EQUAL(monitor_now(port), 0, "nothing came: sleep");
	for (i = 0; i < 5; i++) {
		len = frame_build(f, &mac, RTE_IPV4(10, 8, 0, 1 + i), 7, 20, 0);
		ret = mlx5_emu_wire_inject("qs", f, len);
		TEST_ASSERT_EQUAL(ret, 1, "inject %u: %d", i, ret);
	}
	TEST_ASSERT_EQUAL(monitor_now(port), -1, "frames came: no sleep");
	ret = rte_eth_rx_queue_count(port, 0);
	TEST_ASSERT_EQUAL(ret, 5, "5 frames, count %d", ret);
	TEST_ASSERT_EQUAL(rte_eth_rx_descriptor_status(port, 0, 4),
			  RTE_ETH_RX_DESC_DONE, "descriptor 4");
	TEST_ASSERT_EQUAL(rte_eth_rx_descriptor_status(port, 0, 5),
			  RTE_ETH_RX_DESC_AVAIL, "descriptor 5");
	/* Counting consumed nothing: the five are all received. */
	TEST_ASSERT_EQUAL(rx_all(port, 1, pkts, RTE_DIM(pkts), NULL), 5,
			  "received");
	free_all(pkts, 5);
	TEST_ASSERT_EQUAL(rte_eth_rx_queue_count(port, 0), 0, "after RX");
	TEST_ASSERT_EQUAL(rte_eth_rx_descriptor_status(port, 0, 0),
			  RTE_ETH_RX_DESC_AVAIL, "replaced buffers posted");
	TEST_ASSERT_EQUAL(monitor_now(port), 0, "all received: sleep");
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	return TEST_SUCCESS;
}

static int
test_qstate_tx(void)
{
	struct rte_ether_addr mac;
	struct rte_mbuf *m;
	uint8_t f[128];
	uint64_t deadline;
	uint32_t len, i;
	int port, st;

	port = qstate_port();
	TEST_ASSERT(port >= 0, "port");
	rte_eth_macaddr_get(port, &mac);
	TEST_ASSERT_EQUAL(rte_eth_tx_descriptor_status(port, 0, 0),
			  RTE_ETH_TX_DESC_DONE, "nothing sent");
	TEST_ASSERT_EQUAL(rte_eth_tx_descriptor_status(port, 0, QDESC),
			  -EINVAL, "past the ring");
	for (i = 0; i < COMP_THRESH; i++) {
		len = frame_build(f, &mac, RTE_IPV4(10, 8, 1, 1 + i), 9, 20, 0);
		m = rte_pktmbuf_alloc(q_mp);
		TEST_ASSERT_NOT_NULL(m, "mbuf");
		memcpy(rte_pktmbuf_append(m, len), f, len);
		TEST_ASSERT_EQUAL(rte_eth_tx_burst(port, 0, &m, 1), 1,
				  "send %u", i);
		if (i == 0) {
			/* No completion is asked for one packet. */
			TEST_ASSERT_EQUAL(rte_eth_tx_descriptor_status(port, 0,
								       0),
					  RTE_ETH_TX_DESC_FULL, "in flight");
			TEST_ASSERT_EQUAL(rte_eth_tx_descriptor_status(port, 0,
								QDESC - 1),
					  RTE_ETH_TX_DESC_DONE, "free slot");
		}
	}
	/* The fourth asked for a completion: all four come back. */
	deadline = test_wait_deadline(TEST_WAIT_S);
	do {
		st = rte_eth_tx_descriptor_status(port, 0, 0);
	} while (st == RTE_ETH_TX_DESC_FULL && !test_wait_expired(deadline));
	TEST_ASSERT_EQUAL(st, RTE_ETH_TX_DESC_DONE, "completed");
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	return TEST_SUCCESS;
}

/*
 * Runtime TX queue setup (RTE_ETH_DEV_CAPA_RUNTIME_TX_QUEUE_SETUP, not
 * RX): on a started port alone on its wire (frames loop back), TX queue 1
 * carries 8 frames; set up again while started it is refused (ethdev:
 * the queue must be stopped); stopped, it takes a new ring of 128
 * descriptors, sends nothing until started, then carries 8 frames again.
 * No rte_malloc use is left after the port is removed.
 */
static int
qs_send(uint16_t port, uint16_t q, const struct rte_ether_addr *mac)
{
	struct rte_mbuf *tx[8], *rx[16];
	uint16_t i, sent, got;

	if (rte_pktmbuf_alloc_bulk(q_mp, tx, 8) != 0)
		return -1;
	for (i = 0; i < 8; i++) {
		uint8_t *d = (uint8_t *)rte_pktmbuf_append(tx[i], 128);
		uint32_t len = frame_build(d, mac, RTE_IPV4(198u, 18, 5, i),
					   (uint16_t)(7000 + i), 40, 0);

		rte_pktmbuf_trim(tx[i], (uint16_t)(128 - len));
	}
	sent = rte_eth_tx_burst(port, q, tx, 8);
	free_all(tx + sent, (uint16_t)(8 - sent));
	if (sent == 0)
		return 0;
	got = rx_all(port, 1, rx, RTE_DIM(rx), NULL);
	free_all(rx, got);
	return sent == got ? sent : -1;
}

static int
test_qstate_tx_runtime_setup(void)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_eth_dev_info info;
	struct rte_eth_txq_info qi;
	struct rte_ether_addr mac;
	struct heap_use before, after;
	int port, ok = 1;

	heap_use(&before);
	port = port_probe("net_mlx5cq_qrs", "dev=emu,wire=qrs");
	TEST_ASSERT(port >= 0, "probe");
	STEP(rte_eth_dev_info_get(port, &info) == 0 &&
	     (info.dev_capa & RTE_ETH_DEV_CAPA_RUNTIME_TX_QUEUE_SETUP) &&
	     (info.dev_capa & RTE_ETH_DEV_CAPA_RUNTIME_RX_QUEUE_SETUP),
	     "dev_capa: runtime TX and RX setup");
	STEP(rte_eth_dev_configure(port, 1, 2, &conf) == 0 &&
	     rte_eth_rx_queue_setup(port, 0, QDESC, SOCKET_ID_ANY, NULL,
				    q_mp) == 0 &&
	     rte_eth_tx_queue_setup(port, 0, QDESC, SOCKET_ID_ANY, NULL) == 0 &&
	     rte_eth_tx_queue_setup(port, 1, QDESC, SOCKET_ID_ANY, NULL) == 0 &&
	     rte_eth_dev_start(port) == 0, "start");
	rte_eth_macaddr_get(port, &mac);
	STEP(qs_send(port, 1, &mac) == 8, "txq 1 before");
	STEP(rte_eth_tx_queue_setup(port, 1, 128, SOCKET_ID_ANY, NULL) ==
	     -EBUSY, "setup of a started queue refused");
	STEP(rte_eth_dev_tx_queue_stop(port, 1) == 0, "txq 1 stop");
	STEP(rte_eth_tx_queue_setup(port, 1, 128, SOCKET_ID_ANY, NULL) == 0,
	     "txq 1 set up again while the port runs");
	STEP(rte_eth_tx_queue_info_get(port, 1, &qi) == 0 &&
	     qi.nb_desc == 128, "txq 1: 128 descriptors");
	STEP(qs_send(port, 1, &mac) == 0, "txq 1 sends nothing stopped");
	STEP(rte_eth_dev_tx_queue_start(port, 1) == 0, "txq 1 start");
	STEP(qs_send(port, 1, &mac) == 8, "txq 1 after");
	STEP(qs_send(port, 0, &mac) == 8, "txq 0 untouched");
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	heap_use(&after);
	TEST_ASSERT(ok, "runtime TX queue setup");
	TEST_ASSERT_SUCCESS(heap_use_same(&before, &after, "runtime setup"),
			    "leak");
	return TEST_SUCCESS;
}

/* Inject 64 UDP flows; what each RX queue of port receives. */
static int
qs_rx_spread(uint16_t port, const char *wire, const struct rte_ether_addr *mac,
	     unsigned int got[2], struct rte_mempool **pool1)
{
	struct rte_mbuf *rx[64];
	uint16_t qof[64], n, i;
	uint8_t f[128];
	uint32_t len;

	for (i = 0; i < 64; i++) {
		len = frame_build(f, mac, RTE_IPV4(198u, 18, 7, i),
				  (uint16_t)(9000 + i), 40, 0);
		if (mlx5_emu_wire_inject(wire, f, len) != 1)
			return -1;
	}
	n = rx_all(port, 2, rx, 64, qof);
	got[0] = got[1] = 0;
	for (i = 0; i < n; i++) {
		got[qof[i]]++;
		if (qof[i] == 1 && pool1 != NULL)
			*pool1 = rx[i]->pool;
	}
	free_all(rx, n);
	return 0;
}

/*
 * Runtime RX queue setup (RTE_ETH_DEV_CAPA_RUNTIME_RX_QUEUE_SETUP): on a
 * started port with RSS over two queues, RX queue 1, stopped, is set up
 * again with 128 descriptors of another mempool; while it is stopped the
 * frames RSS sends it are dropped and queue 0 gets its own; started, its
 * new RQ replaces the old one in the RSS table and its packets come from
 * the new pool. The device holds as many objects as before (the old RQ
 * and CQ destroyed), a queue the port's burst cannot serve (timestamps on
 * the default burst) is refused, and nothing is left after removal.
 */
static int
test_qstate_rx_runtime_setup(void)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_eth_rxconf rxc = { 0 };
	struct rte_mempool *mp2, *pool1 = NULL;
	struct mlx5_emu_stats s0, s1;
	struct rte_eth_rxq_info qi;
	struct rte_ether_addr mac;
	struct heap_use before, after;
	unsigned int got[2], first[2];
	int port, ok = 1;

	mp2 = rte_pktmbuf_pool_create("net_qstate2", 1024, 0, 0,
				      RTE_MBUF_DEFAULT_BUF_SIZE,
				      SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(mp2, "pool");
	heap_use(&before);
	port = port_probe("net_mlx5cq_qrr", "dev=emu,wire=qrr");
	TEST_ASSERT(port >= 0, "probe");
	conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
	conf.rx_adv_conf.rss_conf.rss_hf = RTE_ETH_RSS_NONFRAG_IPV4_UDP;
	STEP(rte_eth_dev_configure(port, 2, 1, &conf) == 0 &&
	     rte_eth_rx_queue_setup(port, 0, QDESC, SOCKET_ID_ANY, NULL,
				    q_mp) == 0 &&
	     rte_eth_rx_queue_setup(port, 1, QDESC, SOCKET_ID_ANY, NULL,
				    q_mp) == 0 &&
	     rte_eth_tx_queue_setup(port, 0, QDESC, SOCKET_ID_ANY, NULL) == 0 &&
	     rte_eth_dev_start(port) == 0, "start");
	rte_eth_macaddr_get(port, &mac);
	STEP(qs_rx_spread(port, "qrr", &mac, first, NULL) == 0 &&
	     first[0] > 0 && first[1] > 0 && first[0] + first[1] == 64,
	     "RSS over both queues");
	mlx5_emu_stats_get(port_emu_ctx(port), &s0);
	STEP(rte_eth_rx_queue_setup(port, 1, 128, SOCKET_ID_ANY, NULL, mp2) ==
	     -EBUSY, "setup of a started queue refused");
	STEP(rte_eth_dev_rx_queue_stop(port, 1) == 0, "rxq 1 stop");
	rxc.offloads = RTE_ETH_RX_OFFLOAD_TIMESTAMP;
	STEP(rte_eth_rx_queue_setup(port, 1, 128, SOCKET_ID_ANY, &rxc, mp2) ==
	     -EINVAL, "timestamps on the default burst refused");
	STEP(rte_eth_rx_queue_setup(port, 1, 128, SOCKET_ID_ANY, NULL, mp2) ==
	     0, "rxq 1 set up again while the port runs");
	STEP(rte_eth_rx_queue_info_get(port, 1, &qi) == 0 &&
	     qi.nb_desc == 128 && qi.mp == mp2, "rxq 1: 128 of the new pool");
	STEP(qs_rx_spread(port, "qrr", &mac, got, NULL) == 0 &&
	     got[0] == first[0] && got[1] == 0, "stopped: queue 0 alone");
	STEP(rte_eth_dev_rx_queue_start(port, 1) == 0, "rxq 1 start");
	STEP(qs_rx_spread(port, "qrr", &mac, got, &pool1) == 0 &&
	     got[0] == first[0] && got[1] == first[1] && pool1 == mp2,
	     "started: the same spread, from the new pool");
	mlx5_emu_stats_get(port_emu_ctx(port), &s1);
	STEP(s1.devx_objs == s0.devx_objs && s1.cqs == s0.cqs &&
	     s1.umems == s0.umems, "old RQ and CQ destroyed");
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	heap_use(&after);
	rte_mempool_free(mp2);
	if (!ok)
		printf("  spread %u/%u, then %u/%u\n", first[0], first[1],
		       got[0], got[1]);
	TEST_ASSERT(ok, "runtime RX queue setup");
	TEST_ASSERT_SUCCESS(heap_use_same(&before, &after, "runtime setup"),
			    "leak");
	return TEST_SUCCESS;
}

static struct unit_test_suite net_qstate_suite = {
	.suite_name = "net_qstate",
	.setup = qstate_setup,
	.teardown = qstate_teardown,
	.unit_test_cases = {
		TEST_CASE(test_qstate_rx),
		TEST_CASE(test_qstate_tx),
		TEST_CASE(test_qstate_tx_runtime_setup),
		TEST_CASE(test_qstate_rx_runtime_setup),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_qstate, net_qstate_suite);
