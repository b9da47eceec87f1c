/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_rx_ahead": what net_mlx5cq's RX burst keeps between bursts
 * and how it replaces buffers.
 *
 * - ahead: a HASH-compressed session (basic layout) is decoded ahead in
 *   one pass and consumed from the CQ at the first burst (CQ counters:
 *   one session, every mini-CQE, while the queue counted one packet);
 *   bursts of 1, 7 and 32 hand its packets up in order, also a session
 *   that straddles the end of the 64-entry buffer ring; the port stopped
 *   with decoded packets pending drops them (the completions of a
 *   stopped queue are dropped) and, started again, delivers only what
 *   arrives after; removed with packets pending, it leaves every mbuf
 *   back in its pool and the heap as it was.
 * - short pool: a pool that has 5 mbufs beside the 64 a queue posts;
 *   20 frames arrive: a burst hands up the first 5 (replaced), counts 15
 *   in rx_nombuf and leaves their buffers posted, which receive the next
 *   frames; with compression (session decoded ahead) and without (plain
 *   CQEs), with SIMD stores.
 * - compression default: without cqe_comp the RX CQs compress with HASH
 *   mini-CQEs (20 frames of one pass: one session of 20 in the CQ
 *   counters), as DPDK's net/mlx5 (rxq_cqe_comp_en); with cqe_comp=none,
 *   or on a device that cannot compress those CQs (no cqe_compression, no
 *   cqe_compression_128 with cqe_size=128), the probe still succeeds and
 *   the frames come as plain CQEs.
 * Every packet is checked by its UDP source port: its place in the
 * sequence, pkt_len, data_len and bytes. The queue's byte counter must be
 * the length of the packets handed up (one frame length, times the packet
 * counter): never a packet decoded ahead but not handed up yet, dropped
 * with the queue, or left posted for want of a buffer.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_udp.h>

#include <mlx5_emu.h>

#include "test.h"
#include "test_net_util.h"

#define AHD_DESC 64
#define AHD_MAX 64 /* frames injected at once, at most */
#define AHD_SRC_IP RTE_IPV4(10u, 9, 8, 7)

static unsigned int ahd_seq; /* unique port and pool names */

/*
 * Frame of source port sport (its payload bytes depend on it). One
 * length and one source address: the checksum field of the CQE, which
 * HASH mini-CQEs do not carry, depends only on the pseudo-header of a
 * valid frame, so the completions can join one session.
 */
static uint32_t
ahd_frame(uint8_t *f, const struct rte_ether_addr *dst, uint16_t sport)
{
	return frame_build(f, dst, AHD_SRC_IP, sport, 26, 0);
}

/* n frames of source ports sport0.. on wire, in one engine pass. */
static int
ahd_inject(const char *wire, const struct rte_ether_addr *dst,
	   uint16_t sport0, unsigned int n)
{
	static uint8_t buf[AHD_MAX][128];
	const void *fr[AHD_MAX];
	uint32_t len[AHD_MAX];
	unsigned int i;

	for (i = 0; i < n; i++) {
		len[i] = ahd_frame(buf[i], dst, (uint16_t)(sport0 + i));
		fr[i] = buf[i];
	}
	if (mlx5_emu_wire_inject_burst(wire, fr, len, n) != 1) {
		printf("    inject of %u frames failed\n", n);
		return -1;
	}
	return 0;
}

/* Packets pkts[0..n) must be the frames of source ports sport0.. */
static int
ahd_check(const struct rte_ether_addr *dst, struct rte_mbuf **pkts,
	  uint16_t n, uint16_t sport0)
{
	uint8_t want[128];
	uint16_t i;

	for (i = 0; i < n; i++) {
		const struct rte_mbuf *m = pkts[i];
		uint32_t len = ahd_frame(want, dst, (uint16_t)(sport0 + i));

		if (m->pkt_len != len || m->data_len != len ||
		    m->nb_segs != 1 ||
		    memcmp(rte_pktmbuf_mtod(m, const void *), want,
			   len) != 0) {
			printf("    packet %u: len %u/%u, not the frame of "
			       "source port %u\n", i, m->pkt_len, m->data_len,
			       sport0 + i);
			return -1;
		}
	}
	return 0;
}

/* Length of every frame of this suite. */
static uint32_t
ahd_len(void)
{
	static const struct rte_ether_addr any;
	uint8_t f[128];

	return ahd_frame(f, &any, 0);
}

/* Queue 0 xstat "rx_q0_<what>". */
static uint64_t
ahd_xstat(uint16_t port, const char *what)
{
	char name[RTE_ETH_XSTATS_NAME_SIZE];
	uint64_t id, v;

	snprintf(name, sizeof(name), "rx_q0_%s", what);
	if (rte_eth_xstats_get_id_by_name(port, name, &id) != 0 ||
	    rte_eth_xstats_get_by_id(port, &id, &v, 1) != 1)
		return UINT64_MAX;
	return v;
}

static int
ahd_port(const char *extra, struct rte_mempool *mp, char *wire,
	 size_t wsz, struct rte_ether_addr *mac)
{
	struct rte_eth_conf conf;
	char name[48], args[160];
	int port;

	snprintf(wire, wsz, "ahd%u", ahd_seq);
	snprintf(name, sizeof(name), "net_mlx5cq_ahd%u", ahd_seq++);
	snprintf(args, sizeof(args), "dev=emu,wire=%s,rxq_desc=%u%s%s", wire,
		 AHD_DESC, extra != NULL ? "," : "",
		 extra != NULL ? extra : "");
	port = port_probe(name, args);
	if (port < 0)
		return -1;
	memset(&conf, 0, sizeof(conf));
	if (rte_eth_dev_configure((uint16_t)port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup((uint16_t)port, 0, AHD_DESC, SOCKET_ID_ANY,
				   NULL, mp) != 0 ||
	    rte_eth_tx_queue_setup((uint16_t)port, 0, AHD_DESC, SOCKET_ID_ANY,
				   NULL) != 0 ||
	    rte_eth_dev_start((uint16_t)port) != 0 ||
	    rte_eth_macaddr_get((uint16_t)port, mac) != 0) {
		printf("    port %s not started\n", name);
		port_remove((uint16_t)port);
		return -1;
	}
	return port;
}

/* Queue 0's bytes: the length of want packets handed up. 0, or -1. */
static int
ahd_bytes(uint16_t port, uint64_t want)
{
	uint64_t b = ahd_xstat(port, "bytes");
	uint64_t p = ahd_xstat(port, "packets");

	if (p != want || b != want * ahd_len()) {
		printf("    %" PRIu64 " packets (%" PRIu64 "), %" PRIu64
		       " bytes (%" PRIu64 ")\n", p, want, b,
		       want * ahd_len());
		return -1;
	}
	return 0;
}

/* Receive exactly n packets in bursts of b: the frames of sport0.. */
static int
ahd_rx(uint16_t port, const struct rte_ether_addr *mac, uint16_t n,
	uint16_t b, uint16_t sport0)
{
	struct rte_mbuf *pkts[AHD_MAX];
	uint16_t got = 0, r, idle = 0;

	while (got < n && idle < 100) {
		r = rte_eth_rx_burst(port, 0, pkts, RTE_MIN(b, n - got));
		if (r == 0) {
			idle++;
			continue;
		}
		if (ahd_check(mac, pkts, r, (uint16_t)(sport0 + got)) != 0) {
			free_all(pkts, r);
			return -1;
		}
		free_all(pkts, r);
		got += r;
	}
	r = rte_eth_rx_burst(port, 0, pkts, AHD_MAX);
	free_all(pkts, r);
	if (got != n || r != 0) {
		printf("    %u packets, then %u more (%u expected)\n", got, r,
		       n);
		return -1;
	}
	return 0;
}

/*
 * End of a case: the engine running again, every mbuf of mp back (then
 * mp freed), the heap as at h0. 0, or -1 (logged).
 */
static int
ahd_end(struct rte_mempool *mp, const struct heap_use *h0, const char *what)
{
	struct heap_use h1;
	int ret = 0;

	mlx5_emu_net_engine_pause(0);
	if (rte_mempool_in_use_count(mp) != 0) {
		printf("    %u mbufs not returned\n",
		       rte_mempool_in_use_count(mp));
		ret = -1;
	}
	rte_mempool_free(mp);
	heap_use(&h1);
	if (heap_use_same(h0, &h1, what) != 0)
		ret = -1;
	return ret;
}

static int
test_rx_ahead(void)
{
	struct rte_mempool *mp;
	struct rte_ether_addr mac;
	struct rte_mbuf *pkts[AHD_MAX];
	struct rte_eth_burst_mode bm;
	struct heap_use h0;
	uint64_t minis;
	char wire[16];
	int port, ret = TEST_FAILED;
	uint16_t r;

	heap_use(&h0);
	mp = rte_pktmbuf_pool_create("ahd_pool", 512, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(mp, "pool");
	mlx5_emu_net_engine_pause(1);
	port = ahd_port("cqe_comp=hash", mp, wire, sizeof(wire), &mac);
	if (port < 0)
		goto out;
	if (rte_mempool_in_use_count(mp) != AHD_DESC) {
		printf("    %u mbufs in use after start (%u)\n",
		       rte_mempool_in_use_count(mp), AHD_DESC);
		goto out_port;
	}
	/* One session of 40; a burst of 1 consumes all of it from the CQ. */
	if (ahd_inject(wire, &mac, 1000, 40) != 0)
		goto out_port;
	r = rte_eth_rx_burst((uint16_t)port, 0, pkts, 1);
	if (r != 1 || ahd_check(&mac, pkts, 1, 1000) != 0) {
		printf("    first burst: %u packets\n", r);
		free_all(pkts, r);
		goto out_port;
	}
	free_all(pkts, r);
	/* Without the SIMD stores the queue runs the reference path (burst
	 * mode "Scalar"), which takes from the session what the burst has
	 * room for.
	 */
	if (rte_eth_rx_burst_mode_get((uint16_t)port, 0, &bm) != 0 ||
	    strcmp(bm.info, TEST_NET_RX_VEC_MODE) != 0) {
		printf("    RX burst mode \"%s\", expected \"%s\"\n", bm.info,
		       TEST_NET_RX_VEC_MODE);
		goto out_port;
	}
	minis = strcmp(TEST_NET_RX_VEC_MODE, "Scalar") != 0 ? 40 : 1;
	if (ahd_xstat((uint16_t)port, "cq_sessions") != 1 ||
	    ahd_xstat((uint16_t)port, "cq_minis") != minis ||
	    ahd_xstat((uint16_t)port, "packets") != 1) {
		printf("    after one packet: sessions %" PRIu64 " (1), minis %"
		       PRIu64 " (%" PRIu64 "), packets %" PRIu64 " (1)\n",
		       ahd_xstat((uint16_t)port, "cq_sessions"),
		       ahd_xstat((uint16_t)port, "cq_minis"), minis,
		       ahd_xstat((uint16_t)port, "packets"));
		goto out_port;
	}
	if (ahd_bytes((uint16_t)port, 1) != 0)
		goto out_port;
	/* The rest in bursts of 7, then 40 more across the ring's end
	 * (WQEs 40..79 of 64) in bursts of 32.
	 */
	if (ahd_rx((uint16_t)port, &mac, 39, 7, 1001) != 0 ||
	    ahd_bytes((uint16_t)port, 40) != 0 ||
	    ahd_inject(wire, &mac, 1100, 40) != 0 ||
	    ahd_rx((uint16_t)port, &mac, 40, 32, 1100) != 0 ||
	    ahd_bytes((uint16_t)port, 80) != 0)
		goto out_port;
	/* Stopped with 39 packets decoded ahead: dropped with the queue. */
	if (ahd_inject(wire, &mac, 1200, 40) != 0)
		goto out_port;
	r = rte_eth_rx_burst((uint16_t)port, 0, pkts, 1);
	free_all(pkts, r);
	if (r != 1 || rte_eth_dev_stop((uint16_t)port) != 0 ||
	    rte_mempool_in_use_count(mp) != AHD_DESC ||
	    rte_eth_dev_start((uint16_t)port) != 0) {
		printf("    stop with packets decoded ahead: %u in use (%u)\n",
		       rte_mempool_in_use_count(mp), AHD_DESC);
		goto out_port;
	}
	if (ahd_inject(wire, &mac, 1300, 5) != 0 ||
	    ahd_rx((uint16_t)port, &mac, 5, 32, 1300) != 0 ||
	    ahd_bytes((uint16_t)port, 86) != 0)
		goto out_port;
	/* Removed with packets decoded ahead. */
	if (ahd_inject(wire, &mac, 1400, 40) != 0)
		goto out_port;
	r = rte_eth_rx_burst((uint16_t)port, 0, pkts, 3);
	free_all(pkts, r);
	if (r != 3)
		goto out_port;
	ret = TEST_SUCCESS;
out_port:
	port_remove((uint16_t)port);
out:
	if (ahd_end(mp, &h0, "rx ahead") != 0)
		ret = TEST_FAILED;
	return ret;
}

/* Short pool, with the given devargs of the port. */
static int
ahd_short(const char *extra)
{
	struct rte_mempool *mp;
	struct rte_ether_addr mac;
	struct rte_mbuf *pkts[AHD_MAX];
	struct rte_eth_stats st;
	struct heap_use h0;
	char wire[16];
	int port, ret = -1;
	uint16_t r;

	heap_use(&h0);
	mp = rte_pktmbuf_pool_create("ahd_short", AHD_DESC + 5, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (mp == NULL)
		return -1;
	mlx5_emu_net_engine_pause(1);
	port = ahd_port(extra, mp, wire, sizeof(wire), &mac);
	if (port < 0)
		goto out;
	if (ahd_inject(wire, &mac, 2000, 20) != 0)
		goto out_port;
	r = rte_eth_rx_burst((uint16_t)port, 0, pkts, 32);
	if (r != 5 || ahd_check(&mac, pkts, r, 2000) != 0 ||
	    rte_eth_stats_get((uint16_t)port, &st) != 0 ||
	    st.rx_nombuf != 15 || st.ipackets != 5 ||
	    st.ibytes != 5 * (uint64_t)ahd_len() ||
	    rte_mempool_in_use_count(mp) != AHD_DESC + 5) {
		printf("    %s: %u packets (5), rx_nombuf %" PRIu64
		       " (15), %u in use (%u)\n",
		       extra != NULL ? extra : "plain", r, st.rx_nombuf,
		       rte_mempool_in_use_count(mp), AHD_DESC + 5);
		free_all(pkts, r);
		goto out_port;
	}
	free_all(pkts, r);
	/* The 15 buffers stayed posted: the next frames land in them. */
	if (ahd_inject(wire, &mac, 2100, 3) != 0 ||
	    ahd_rx((uint16_t)port, &mac, 3, 32, 2100) != 0 ||
	    ahd_bytes((uint16_t)port, 8) != 0)
		goto out_port;
	ret = 0;
out_port:
	port_remove((uint16_t)port);
out:
	if (ahd_end(mp, &h0, "rx short pool") != 0)
		ret = -1;
	return ret;
}

static int
test_rx_short_pool(void)
{
	TEST_ASSERT_SUCCESS(ahd_short("cqe_comp=hash"), "compressed");
	TEST_ASSERT_SUCCESS(ahd_short("cqe_comp=none"), "plain");
	return TEST_SUCCESS;
}

/*
 * RX CQE compression by default: HASH sessions unless cqe_comp=none or
 * the device cannot compress the port's RX CQs (then the probe still
 * succeeds, uncompressed). 20 frames injected in one pass: one session of
 * 20, or 20 plain CQEs (no session, no mini-CQE).
 */
static const struct {
	const char *what;
	const char *args; /* extra devargs (NULL: none) */
	int caps; /* 0: default device; 1: no cqe_compression; 2: no
		   * cqe_compression_128
		   */
	int session; /* the frames arrive as one session */
} ahd_dflt[] = {
	{ "default devargs", NULL, 0, 1 },
	{ "cqe_comp=none", "cqe_comp=none", 0, 0 },
	{ "default devargs, no compression on the device", NULL, 1, 0 },
	{ "cq_path=verbs", "cq_path=verbs", 0, 1 },
	/* rdma-core's EINVAL, not EOPNOTSUPP, on the verbs path. */
	{ "cq_path=verbs, no compression on the device", "cq_path=verbs", 1,
	  0 },
	{ "cqe_size=128", "cqe_size=128", 0, 1 },
	{ "cqe_size=128, no 128 B compression on the device",
	  "cqe_size=128", 2, 0 },
	{ "cqe_comp=hash,cqe_size=128", "cqe_comp=hash,cqe_size=128", 0, 1 },
};

static int
ahd_comp_default(unsigned int k)
{
	struct rte_mempool *mp;
	struct rte_ether_addr mac;
	struct mlx5_emu_caps caps;
	struct heap_use h0;
	uint64_t sessions, minis;
	char wire[16];
	int port, ret = -1;

	heap_use(&h0);
	mp = rte_pktmbuf_pool_create("ahd_dflt", 256, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (mp == NULL)
		return -1;
	mlx5_emu_caps_default(&caps);
	if (ahd_dflt[k].caps == 1)
		caps.cqe_compression = 0;
	if (ahd_dflt[k].caps == 2)
		caps.cqe_compression_128 = 0;
	mlx5_emu_net_engine_pause(1);
	if (mlx5_emu_open_caps_set(&caps) != 0)
		goto out;
	port = ahd_port(ahd_dflt[k].args, mp, wire, sizeof(wire), &mac);
	mlx5_emu_open_caps_set(NULL);
	if (port < 0)
		goto out;
	if (ahd_inject(wire, &mac, 3000, 20) != 0 ||
	    ahd_rx((uint16_t)port, &mac, 20, 32, 3000) != 0 ||
	    ahd_bytes((uint16_t)port, 20) != 0)
		goto out_port;
	sessions = ahd_xstat((uint16_t)port, "cq_sessions");
	minis = ahd_xstat((uint16_t)port, "cq_minis");
	if (sessions != (ahd_dflt[k].session ? 1u : 0u) ||
	    minis != (ahd_dflt[k].session ? 20u : 0u)) {
		printf("    %s: %" PRIu64 " sessions, %" PRIu64 " mini-CQEs "
		       "(%u, %u)\n", ahd_dflt[k].what, sessions, minis,
		       ahd_dflt[k].session ? 1 : 0, ahd_dflt[k].session ? 20 : 0);
		goto out_port;
	}
	ret = 0;
out_port:
	port_remove((uint16_t)port);
out:
	if (ahd_end(mp, &h0, "rx compression default") != 0)
		ret = -1;
	return ret;
}

static int
test_rx_comp_default(void)
{
	unsigned int k;

	for (k = 0; k < RTE_DIM(ahd_dflt); k++)
		TEST_ASSERT_SUCCESS(ahd_comp_default(k), "%s",
				    ahd_dflt[k].what);
	return TEST_SUCCESS;
}

static int
ahd_setup(void)
{
	if (net_load() != 0 || net_ethdev_hold() != 0)
		return -1;
	return 0;
}

static void
ahd_teardown(void)
{
	net_ethdev_release();
}

static struct unit_test_suite net_rx_ahead_suite = {
	.suite_name = "net_rx_ahead",
	.setup = ahd_setup,
	.teardown = ahd_teardown,
	.unit_test_cases = {
		TEST_CASE(test_rx_ahead),
		TEST_CASE(test_rx_short_pool),
		TEST_CASE(test_rx_comp_default),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(net_rx_ahead, net_rx_ahead_suite);
