/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_stats": net_mlx5cq counters and drops, exact, through ethdev
 * on the emulated HCA:
 * - imissed / rx_out_of_buffer: frames sent to a port that does not poll
 *   beyond its posted buffers (the RQ's counter set, QUERY_Q_COUNTER);
 *   stats reset;
 * - rx_nombuf: received frames whose buffer cannot be replaced (a mempool
 *   drained by the test);
 * - mbuf->port of every received packet;
 * - per-syndrome CQ xstats and recoveries after an RX error completion
 *   (LOC_LEN_ERR 0x01), zero after xstats reset;
 * - a TX segment in no registered memory: the packet dropped and freed
 *   (oerrors), no WQE sent, the queue keeps sending.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include <mlx5_emu.h>

#include "test.h"
#include "test_net_fixture.h"
#include "test_net_util.h"

#define S_DESC 64 /* rxq_desc / txq_desc: the smallest ring. */

static struct rte_mempool *s_mp;

static int
stats_setup(void)
{
	if (net_load() != 0)
		return -1;
	s_mp = rte_pktmbuf_pool_create("net_stats_test", 2048, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE,
				       SOCKET_ID_ANY);
	return s_mp == NULL ? -1 : 0;
}

static void
stats_teardown(void)
{
	rte_mempool_free(s_mp);
	s_mp = NULL;
}

static int
port_up(uint16_t port, struct rte_mempool *mp,
	const struct rte_eth_conf *conf)
{
	if (rte_eth_dev_configure(port, 1, 1, conf) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, S_DESC, SOCKET_ID_ANY, NULL,
				   mp) != 0 ||
	    rte_eth_tx_queue_setup(port, 0, S_DESC, SOCKET_ID_ANY,
				   NULL) != 0)
		return -1;
	return rte_eth_dev_start(port);
}

static int
xstat(uint16_t port, const char *name, uint64_t *v)
{
	uint64_t id;

	*v = UINT64_MAX;
	if (rte_eth_xstats_get_id_by_name(port, name, &id) != 0)
		return -1;
	return rte_eth_xstats_get_by_id(port, &id, v, 1) == 1 ? 0 : -1;
}

static void
inject(const char *wire, const struct rte_ether_addr *mac, unsigned int n,
	uint16_t payload)
{
	uint8_t f[2048];
	unsigned int i;
	uint32_t len;

	for (i = 0; i < n; i++) {
		len = frame_build(f, mac, RTE_IPV4(10, 9, i >> 8, i & 0xff),
				  7, payload, 0);
		mlx5_emu_wire_inject(wire, f, len);
	}
}

/*
 * 100 frames to a started port that does not poll: its RQ holds S_DESC
 * buffers, the other 100 - S_DESC are device drops; imissed and the
 * rx_out_of_buffer xstat say exactly that, a reset zeroes both, later
 * drops count from there; every received mbuf carries the port.
 */
static int
test_net_imissed(void)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_ether_addr mac;
	struct rte_mbuf *pkts[128];
	struct rte_eth_stats st;
	uint64_t oob;
	uint16_t n, i;
	int port;

	port = port_probe("net_mlx5cq_sm", "dev=emu,wire=sm,rxq_desc=64");
	TEST_ASSERT(port >= 0, "probe");
	if (port_up(port, s_mp, &conf) != 0) {
		port_remove(port);
		TEST_ASSERT(0, "start");
	}
	rte_eth_macaddr_get(port, &mac);
	inject("sm", &mac, 100, 30);
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(port, &st), "stats");
	TEST_ASSERT_EQUAL(st.imissed, 100u - S_DESC, "imissed %" PRIu64,
			  st.imissed);
	TEST_ASSERT_SUCCESS(xstat(port, "rx_out_of_buffer", &oob), "xstat");
	TEST_ASSERT_EQUAL(oob, 100u - S_DESC, "rx_out_of_buffer %" PRIu64,
			  oob);
	n = rx_all(port, 1, pkts, RTE_DIM(pkts), NULL);
	TEST_ASSERT_EQUAL(n, S_DESC, "received %u", n);
	for (i = 0; i < n; i++)
		TEST_ASSERT_EQUAL(pkts[i]->port, port, "mbuf %u port %u", i,
				  pkts[i]->port);
	free_all(pkts, n);
	TEST_ASSERT_SUCCESS(rte_eth_stats_reset(port), "reset");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(port, &st), "stats");
	TEST_ASSERT(st.imissed == 0 && st.ipackets == 0, "after reset: "
		    "imissed %" PRIu64 " ipackets %" PRIu64, st.imissed,
		    st.ipackets);
	inject("sm", &mac, S_DESC + 5, 30);
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(port, &st), "stats");
	TEST_ASSERT_EQUAL(st.imissed, 5, "imissed after reset %" PRIu64,
			  st.imissed);
	TEST_ASSERT_SUCCESS(rte_eth_xstats_reset(port), "xstats reset");
	TEST_ASSERT_SUCCESS(xstat(port, "rx_out_of_buffer", &oob), "xstat");
	TEST_ASSERT_EQUAL(oob, 0, "rx_out_of_buffer after reset");
	n = rx_all(port, 1, pkts, RTE_DIM(pkts), NULL);
	free_all(pkts, n);
	TEST_ASSERT_EQUAL(n, S_DESC, "received %u", n);
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	return TEST_SUCCESS;
}

/*
 * rx_nombuf: a pool of S_DESC + 8 mbufs, S_DESC posted, 8 taken by the
 * test; every received frame then finds no replacement: 10 frames, 0
 * packets, rx_nombuf 10 exactly. With the 8 back, frames come again.
 */
static int
test_net_rx_nombuf(void)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_mempool *mp;
	struct rte_ether_addr mac;
	struct rte_mbuf *held[8], *pkts[16];
	struct rte_eth_stats st;
	uint16_t n;
	int port, ok = 1;

	mp = rte_pktmbuf_pool_create("net_stats_small", S_DESC + 8, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE,
				     SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(mp, "mempool");
	port = port_probe("net_mlx5cq_sn", "dev=emu,wire=sn,rxq_desc=64");
	if (port < 0 || port_up(port, mp, &conf) != 0) {
		if (port >= 0)
			port_remove(port);
		rte_mempool_free(mp);
		TEST_ASSERT(0, "port setup");
	}
	rte_eth_macaddr_get(port, &mac);
	ok &= rte_pktmbuf_alloc_bulk(mp, held, RTE_DIM(held)) == 0;
	ok &= rte_mempool_avail_count(mp) == 0;
	inject("sn", &mac, 10, 30);
	n = rx_all(port, 1, pkts, RTE_DIM(pkts), NULL);
	ok &= n == 0;
	free_all(pkts, n);
	ok &= rte_eth_stats_get(port, &st) == 0;
	if (!ok || st.rx_nombuf != 10 || st.ipackets != 0)
		printf("  received %u, rx_nombuf %" PRIu64 ", ipackets %"
		       PRIu64 "\n", n, st.rx_nombuf, st.ipackets);
	ok &= st.rx_nombuf == 10 && st.ipackets == 0;
	rte_pktmbuf_free_bulk(held, RTE_DIM(held));
	inject("sn", &mac, 3, 30);
	n = rx_all(port, 1, pkts, 3, NULL);
	ok &= n == 3;
	free_all(pkts, n);
	ok &= rte_eth_stats_get(port, &st) == 0 && st.rx_nombuf == 10 &&
	      st.ipackets == 3;
	ok &= rte_eth_stats_reset(port) == 0;
	ok &= rte_eth_stats_get(port, &st) == 0 && st.rx_nombuf == 0;
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	rte_mempool_free(mp);
	TEST_ASSERT(ok, "rx_nombuf");
	return TEST_SUCCESS;
}

/*
 * An RX error completion (frame longer than the 256 B buffers:
 * LOC_LEN_ERR, syndrome 0x01; the device moves the RQ to ERR): counted by
 * syndrome (rx_q0_cq_err_loc_len 1, others 0), one recovery, the next
 * frame received; xstats reset zeroes every one of them.
 */
static int
test_net_err_syndrome_reset(void)
{
	static const char *const zero[] = {
		"rx_q0_cq_err_loc_qp_op", "rx_q0_cq_err_loc_prot",
		"rx_q0_cq_err_wr_flush", "rx_q0_cq_err_other",
		"rx_q0_recovery_failures",
	};
	struct rte_eth_conf conf = { 0 };
	struct rte_mempool *mp;
	struct rte_ether_addr mac;
	struct rte_mbuf *pkts[4];
	uint64_t v;
	unsigned int i;
	uint16_t n;
	int port, ok = 1;

	mp = rte_pktmbuf_pool_create("net_stats_256", 512, 0, 0,
				     RTE_PKTMBUF_HEADROOM + 256,
				     SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(mp, "mempool");
	port = port_probe("net_mlx5cq_se", "dev=emu,wire=se");
	conf.rxmode.mtu = mtu_for_buf(256);
	if (port < 0 || port_up(port, mp, &conf) != 0 ||
	    port_host_mtu(port, 1500) != 0) {
		if (port >= 0)
			port_remove(port);
		rte_mempool_free(mp);
		TEST_ASSERT(0, "port setup");
	}
	rte_eth_macaddr_get(port, &mac);
	inject("se", &mac, 1, 600);
	n = rx_all(port, 1, pkts, 4, NULL);
	ok &= n == 0;
	inject("se", &mac, 1, 100);
	n = rx_all(port, 1, pkts, 4, NULL);
	ok &= n == 1;
	free_all(pkts, n);
	ok &= xstat(port, "rx_q0_cq_err_loc_len", &v) == 0 && v == 1;
	ok &= xstat(port, "rx_q0_cq_errors", &v) == 0 && v == 1;
	ok &= xstat(port, "rx_q0_recoveries", &v) == 0 && v == 1;
	for (i = 0; i < RTE_DIM(zero); i++)
		ok &= xstat(port, zero[i], &v) == 0 && v == 0;
	if (!ok)
		printf("  before reset: received %u\n", n);
	ok &= rte_eth_xstats_reset(port) == 0;
	ok &= xstat(port, "rx_q0_cq_err_loc_len", &v) == 0 && v == 0;
	ok &= xstat(port, "rx_q0_cq_errors", &v) == 0 && v == 0;
	ok &= xstat(port, "rx_q0_recoveries", &v) == 0 && v == 0;
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	rte_mempool_free(mp);
	TEST_ASSERT(ok, "per-syndrome counters and their reset");
	return TEST_SUCCESS;
}

static void
ext_free(void *addr, void *opaque)
{
	RTE_SET_USED(addr);
	(*(unsigned int *)opaque)++;
}

/*
 * TX: a packet whose second segment lies in no registered memory (an
 * external buffer from rte_malloc): dropped by the PMD before its WQE is
 * written (oerrors 1, the external buffer freed), nothing sent (no error
 * completion, the port's tx_errors 0); the next packets go out and come
 * back over the loopback wire.
 */
static int
test_net_tx_lkey_miss(void)
{
	struct rte_eth_conf conf = {
		.txmode.offloads = RTE_ETH_TX_OFFLOAD_MULTI_SEGS,
	};
	unsigned int freed = 0;
	struct rte_mbuf_ext_shared_info shinfo = {
		.free_cb = ext_free,
		.fcb_opaque = &freed,
	};
	struct rte_ether_addr mac;
	struct rte_mbuf *m, *s, *pkts[8];
	struct rte_eth_stats st;
	uint8_t f[256], *ext;
	uint32_t len, i, sent;
	uint64_t v;
	int port, ok = 1;

	ext = rte_malloc(NULL, 4096, 4096);
	TEST_ASSERT_NOT_NULL(ext, "rte_malloc");
	port = port_probe("net_mlx5cq_sl", "dev=emu,wire=sl,tx_comp_thresh=1");
	if (port < 0 || port_up(port, s_mp, &conf) != 0) {
		if (port >= 0)
			port_remove(port);
		rte_free(ext);
		TEST_ASSERT(0, "port setup");
	}
	rte_eth_macaddr_get(port, &mac);
	len = frame_build(f, &mac, RTE_IPV4(10, 8, 0, 1), 5, 100, 0);
	m = rte_pktmbuf_alloc(s_mp);
	s = rte_pktmbuf_alloc(s_mp);
	memcpy(rte_pktmbuf_append(m, 42), f, 42);
	memcpy(ext, f + 42, len - 42);
	rte_mbuf_ext_refcnt_set(&shinfo, 1);
	rte_pktmbuf_attach_extbuf(s, ext, rte_malloc_virt2iova(ext), 4096,
				  &shinfo);
	s->data_off = 0;
	s->data_len = len - 42;
	rte_pktmbuf_chain(m, s);
	ok &= rte_eth_tx_burst(port, 0, &m, 1) == 1;
	ok &= freed == 1;
	ok &= rte_eth_stats_get(port, &st) == 0 && st.oerrors == 1 &&
	      st.opackets == 0;
	for (i = 0; i < 4; i++) {
		len = frame_build(f, &mac, RTE_IPV4(10, 8, 1, i), 5, 60, 0);
		pkts[i] = rte_pktmbuf_alloc(s_mp);
		memcpy(rte_pktmbuf_append(pkts[i], len), f, len);
	}
	for (sent = 0, i = 0; sent < 4 && i < 2000; i++)
		sent += rte_eth_tx_burst(port, 0, pkts + sent, 4 - sent);
	ok &= sent == 4;
	ok &= rx_all(port, 1, pkts, 8, NULL) == 4;
	rte_pktmbuf_free_bulk(pkts, 4);
	ok &= rte_eth_stats_get(port, &st) == 0;
	if (!ok)
		printf("  freed %u oerrors %" PRIu64 " opackets %" PRIu64
		       " ipackets %" PRIu64 "\n", freed, st.oerrors,
		       st.opackets, st.ipackets);
	ok &= st.oerrors == 1 && st.opackets == 4 && st.ipackets == 4;
	/* No error completion: the SQ never left RDY. */
	ok &= xstat(port, "tx_q0_cq_errors", &v) == 0 && v == 0;
	ok &= xstat(port, "tx_q0_recoveries", &v) == 0 && v == 0;
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	rte_free(ext);
	TEST_ASSERT(ok, "TX lkey miss");
	return TEST_SUCCESS;
}

/*
 * Stats per queue: 4 queues, the RETA pointing every hash at RX queue 2;
 * 5 frames injected land there, 3 sent on TX queue 3 (looped back: the
 * port is alone on its wire) count there. q_ipackets / q_ibytes and
 * q_opackets / q_obytes name exactly those queues with the frames' byte
 * counts; every other queue reads 0; the port totals are their sums.
 */
static int
test_net_queue_stats(void)
{
	struct rte_eth_rss_reta_entry64 reta[RTE_ETH_RSS_RETA_SIZE_512 /
					     RTE_ETH_RETA_GROUP_SIZE];
	struct rte_eth_conf conf = { 0 };
	struct rte_eth_dev_info info;
	struct rte_ether_addr mac;
	struct rte_mbuf *tx[3], *rx[16];
	struct rte_eth_stats st;
	uint32_t len = 0;
	uint16_t q, n, got = 0, i;
	int port, ok = 1;

	port = port_probe("net_mlx5cq_qs", "dev=emu,wire=qs");
	TEST_ASSERT(port >= 0, "probe failed");
	conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
	conf.rx_adv_conf.rss_conf.rss_hf = RTE_ETH_RSS_IP;
	ok &= rte_eth_dev_configure(port, 4, 4, &conf) == 0;
	for (q = 0; ok && q < 4; q++)
		ok &= rte_eth_rx_queue_setup(port, q, S_DESC, SOCKET_ID_ANY,
					     NULL, s_mp) == 0 &&
		      rte_eth_tx_queue_setup(port, q, S_DESC, SOCKET_ID_ANY,
					     NULL) == 0;
	ok &= ok && rte_eth_dev_start(port) == 0;
	ok &= ok && rte_eth_dev_info_get(port, &info) == 0 &&
	      info.reta_size <= RTE_DIM(reta) * RTE_ETH_RETA_GROUP_SIZE;
	if (ok) {
		memset(reta, 0, sizeof(reta));
		for (i = 0; i < info.reta_size; i++) {
			reta[i / RTE_ETH_RETA_GROUP_SIZE].mask |=
				1ull << (i % RTE_ETH_RETA_GROUP_SIZE);
			reta[i / RTE_ETH_RETA_GROUP_SIZE].reta[
				i % RTE_ETH_RETA_GROUP_SIZE] = 2;
		}
		ok &= rte_eth_dev_rss_reta_update(port, reta,
						  info.reta_size) == 0;
	}
	rte_eth_macaddr_get(port, &mac);
	if (ok) {
		uint8_t f[128];

		len = frame_build(f, &mac, RTE_IPV4(10, 9, 9, 1), 7, 40, 0);
		inject("qs", &mac, 5, 40);
		n = rx_all(port, 4, rx, RTE_DIM(rx), NULL);
		free_all(rx, n);
		got = n;
	}
	ok &= got == 5;
	ok &= ok && rte_pktmbuf_alloc_bulk(s_mp, tx, 3) == 0;
	for (i = 0; ok && i < 3; i++) {
		uint8_t *d = (uint8_t *)rte_pktmbuf_append(tx[i], len);

		frame_build(d, &mac, RTE_IPV4(10, 9, 8, i), 7, 40, 0);
	}
	if (ok) {
		n = rte_eth_tx_burst(port, 3, tx, 3);
		free_all(tx + n, (uint16_t)(3 - n));
		ok &= n == 3;
		/* Looped back: RSS puts them on queue 2 as well. */
		n = rx_all(port, 4, rx, RTE_DIM(rx), NULL);
		free_all(rx, n);
		ok &= n == 3;
	}
	ok &= ok && rte_eth_stats_get(port, &st) == 0;
	for (q = 0; ok && q < 4; q++) {
		uint64_t ip = q == 2 ? 8 : 0, op = q == 3 ? 3 : 0;

		if (st.q_ipackets[q] != ip || st.q_ibytes[q] != ip * len ||
		    st.q_opackets[q] != op || st.q_obytes[q] != op * len ||
		    st.q_errors[q] != 0) {
			printf("  queue %u: in %" PRIu64 "/%" PRIu64 " out %"
			       PRIu64 "/%" PRIu64 " (want %" PRIu64 "/%" PRIu64
			       " and %" PRIu64 "/%" PRIu64 ")\n", q,
			       st.q_ipackets[q], st.q_ibytes[q],
			       st.q_opackets[q], st.q_obytes[q], ip, ip * len,
			       op, op * len);
			ok = 0;
		}
	}
	ok &= st.ipackets == 8 && st.ibytes == 8ull * len &&
	      st.opackets == 3 && st.obytes == 3ull * len;
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	TEST_ASSERT(ok, "stats per queue (frame %u bytes, %u received)", len,
		    got);
	return TEST_SUCCESS;
}

static struct unit_test_suite net_stats_suite = {
	.suite_name = "net_stats",
	.setup = stats_setup,
	.teardown = stats_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_imissed),
		TEST_CASE(test_net_rx_nombuf),
		TEST_CASE(test_net_err_syndrome_reset),
		TEST_CASE(test_net_tx_lkey_miss),
		TEST_CASE(test_net_queue_stats),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_stats, net_stats_suite);
