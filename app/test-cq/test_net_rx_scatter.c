/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_rx_scatter": RTE_ETH_RX_OFFLOAD_SCATTER on net_mlx5cq, laid
 * out as net/mlx5 does (mlx5_rxq.c): frames of mtu + 18 bytes in buffers
 * of 2,048 bytes take 5 segments, rounded up to 8 a WQE. Frames of
 * lengths around the buffer size are injected on the wire and each one
 * must come back as a chain of ceil(len / 2048) mbufs holding exactly its
 * bytes, with the offload flags on the head; the refill keeps that over
 * several turns of the ring; compressed sessions and timestamps go
 * through the same route. Queues that cannot hold a frame are refused
 * with net/mlx5's errnos and leak nothing; a packet whose replacements
 * the pool cannot give is dropped (rx_nombuf) with its buffers left
 * posted.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include <mlx5_emu.h>

#include "test.h"
#include "test_net_fixture.h"
#include "test_net_util.h"
#include "test_usage.h"

#define SG_BUF 2048
#define SG_MTU 9000
#define SG_DESC 256 /* Buffers: 32 WQEs of 8 segments. */
#define SG_MAX_FRAME (SG_MTU + 18)

static struct rte_mempool *sg_mp;

static int
sg_setup(void)
{
	if (net_suite_setup() != 0)
		return -1;
	sg_mp = rte_pktmbuf_pool_create("net_sg", 4096, 0, 0,
					RTE_PKTMBUF_HEADROOM + SG_BUF,
					SOCKET_ID_ANY);
	return sg_mp == NULL ? -1 : 0;
}

static void
sg_teardown(void)
{
	rte_mempool_free(sg_mp);
	sg_mp = NULL;
	net_suite_teardown();
}

/* A port with one queue of SG_DESC buffers of mp, MTU mtu, offloads. */
static int
sg_port(const char *args, struct rte_mempool *mp, uint16_t mtu,
	uint64_t offloads, int *port)
{
	struct rte_eth_conf conf = { 0 };
	int ret;

	*port = port_probe("net_mlx5cq_sg", args);
	if (*port < 0)
		return -1;
	conf.rxmode.mtu = mtu;
	conf.rxmode.offloads = offloads;
	ret = rte_eth_dev_configure(*port, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(*port, 0, SG_DESC, SOCKET_ID_ANY,
					     NULL, mp);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(*port, 0, 64, SOCKET_ID_ANY,
					     NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(*port);
	return ret;
}

/* Frame of len bytes (Ethernet, IPv4, UDP, correct checksums). */
static uint32_t
sg_frame(uint8_t *f, const struct rte_ether_addr *mac, uint32_t len,
	 uint32_t i)
{
	return frame_udp4_n(f, mac, len, 9, 2000, i);
}

/* One received packet against the frame f of len bytes. */
static int
sg_check(const struct rte_mbuf *m, const uint8_t *f, uint32_t len)
{
	static uint8_t got[SG_MAX_FRAME];
	const struct rte_mbuf *s;
	uint32_t nseg = (len + SG_BUF - 1) / SG_BUF, i, left = len;
	const void *p;

	TEST_ASSERT(m->pkt_len == len && m->nb_segs == nseg, "len %u: pkt_len"
		    " %u, %u segments (expected %u)", len, m->pkt_len,
		    m->nb_segs, nseg);
	for (s = m, i = 0; s != NULL; s = s->next, i++) {
		TEST_ASSERT(i < nseg && s->data_len ==
			    RTE_MIN(left, (uint32_t)SG_BUF) &&
			    s->data_off == RTE_PKTMBUF_HEADROOM,
			    "len %u: segment %u data_len %u off %u", len, i,
			    s->data_len, s->data_off);
		left -= s->data_len;
	}
	TEST_ASSERT(i == nseg && left == 0, "len %u: chain of %u", len, i);
	p = rte_pktmbuf_read(m, 0, len, got);
	TEST_ASSERT(p != NULL && memcmp(p, f, len) == 0, "len %u: bytes",
		    len);
	TEST_ASSERT(rx_udp4_good(m), "len %u: flags 0x%" PRIx64 " ptype 0x%x", len, m->ol_flags,
		    m->packet_type);
	return TEST_SUCCESS;
}

/* Lengths around the buffer size and up to the largest frame. */
static const uint32_t sg_lens[] = {
	64, 2047, 2048, 2049, 4096, 4097, 6000, 8192, 8193, SG_MAX_FRAME,
};

static int
test_net_rx_scatter_chains(void)
{
	static uint8_t f[SG_MAX_FRAME];
	struct rte_eth_burst_mode bm;
	struct rte_eth_rxq_info qi;
	struct rte_eth_stats st;
	struct rte_ether_addr mac;
	struct rte_mbuf *m;
	uint32_t i, len, bytes = 0;
	int port, ret = TEST_SUCCESS;

	TEST_ASSERT_SUCCESS(sg_port("dev=emu,wire=sg", sg_mp, SG_MTU,
				    RTE_ETH_RX_OFFLOAD_SCATTER |
				    RTE_ETH_RX_OFFLOAD_CHECKSUM, &port),
			    "start");
	TEST_ASSERT_SUCCESS(rte_eth_rx_queue_info_get(port, 0, &qi), "info");
	TEST_ASSERT_SUCCESS(rte_eth_rx_burst_mode_get(port, 0, &bm), "mode");
	TEST_ASSERT(qi.scattered_rx == 1 && qi.nb_desc == SG_DESC &&
		    strcmp(bm.info, "Scalar (scattered)") == 0,
		    "scattered %u, %u descriptors, mode \"%s\"",
		    qi.scattered_rx, qi.nb_desc, bm.info);
	rte_eth_macaddr_get(port, &mac);
	/* 100 frames: three turns of the 32 WQEs, every length. */
	for (i = 0; i < 100 && ret == TEST_SUCCESS; i++) {
		len = sg_frame(f, &mac, sg_lens[i % RTE_DIM(sg_lens)], i);
		if (mlx5_emu_wire_inject("sg", f, len) != 1 ||
		    rx_all(port, 1, &m, 1, NULL) != 1) {
			printf("  frame %u (%u bytes) not received\n", i, len);
			ret = TEST_FAILED;
			break;
		}
		ret = sg_check(m, f, len);
		rte_pktmbuf_free(m);
		bytes += len;
	}
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(port, &st), "stats");
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	TEST_ASSERT_SUCCESS(ret, "chains");
	TEST_ASSERT(st.ipackets == 100 && st.ibytes == bytes &&
		    st.ierrors == 0 && st.rx_nombuf == 0 && st.imissed == 0,
		    "stats %" PRIu64 " packets %" PRIu64 " bytes (%u) %" PRIu64
		    " errors %" PRIu64 " nombuf", st.ipackets, st.ibytes, bytes,
		    st.ierrors, st.rx_nombuf);
	return TEST_SUCCESS;
}

/* Queues that cannot be: net/mlx5's errnos, nothing left behind. */
static int
test_net_rx_scatter_refused(void)
{
	struct rte_mempool *tiny;
	struct heap_use u0, u1;
	int port, ret;

	tiny = rte_pktmbuf_pool_create("net_sg_tiny", 1024, 0, 0,
				       RTE_PKTMBUF_HEADROOM + 256,
				       SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(tiny, "pool");
	heap_use(&u0);
	/* MTU 9000 in 2 KiB buffers without the offload: ENOSPC. */
	ret = sg_port("dev=emu,wire=sgr", sg_mp, SG_MTU, 0, &port);
	if (port >= 0)
		port_remove(port);
	TEST_ASSERT_EQUAL(ret, -ENOSPC, "no scatter: %d", ret);
	/* 36 buffers of 256 bytes a frame, 32 at most: ENOTSUP. */
	ret = sg_port("dev=emu,wire=sgr", tiny, SG_MTU,
		      RTE_ETH_RX_OFFLOAD_SCATTER, &port);
	if (port >= 0)
		port_remove(port);
	TEST_ASSERT_EQUAL(ret, -ENOTSUP, "36 segments: %d", ret);
	heap_use(&u1);
	TEST_ASSERT_SUCCESS(heap_use_same(&u0, &u1, "refused queues"),
			    "leak");
	/* A queue of whole-frame buffers, then a larger MTU: refused. */
	ret = sg_port("dev=emu,wire=sgr", sg_mp, 1500, 0, &port);
	TEST_ASSERT_SUCCESS(ret, "MTU 1500");
	ret = rte_eth_dev_set_mtu(port, 3000);
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	TEST_ASSERT_EQUAL(ret, -EINVAL, "MTU 3000 on 2 KiB buffers: %d", ret);
	/* With scatter: MTU 6000 takes 3 buffers, 4 a WQE; up to 8192. */
	ret = sg_port("dev=emu,wire=sgr", sg_mp, 6000,
		      RTE_ETH_RX_OFFLOAD_SCATTER, &port);
	TEST_ASSERT_SUCCESS(ret, "MTU 6000");
	ret = rte_eth_dev_set_mtu(port, 8192 - 18);
	if (ret == 0)
		ret = rte_eth_dev_set_mtu(port, 8192 - 17) == -EINVAL ?
		      0 : -1;
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	rte_mempool_free(tiny);
	TEST_ASSERT_SUCCESS(ret, "MTU up to 4 x 2 KiB frames, not past");
	return TEST_SUCCESS;
}

/*
 * A pool that cannot give the five replacements of a 9 KiB frame: the
 * frame is dropped (rx_nombuf), its buffers stay posted; once mbufs come
 * back the next frame is received whole.
 */
static int
test_net_rx_scatter_nombuf(void)
{
	static uint8_t f[SG_MAX_FRAME];
	struct rte_mempool *mp;
	struct rte_ether_addr mac;
	struct rte_mbuf *hold[8], *m;
	struct rte_eth_stats st;
	uint32_t len;
	int port, ok = 1;

	/* The queue's 256 buffers and 6 more (no per-lcore cache), 2 of
	 * them held: 4 free, one short of a 9 KiB frame's 5.
	 */
	mp = rte_pktmbuf_pool_create("net_sg_nb", SG_DESC + 6, 0, 0,
				     RTE_PKTMBUF_HEADROOM + SG_BUF,
				     SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(mp, "pool");
	if (sg_port("dev=emu,wire=sgn", mp, SG_MTU,
		    RTE_ETH_RX_OFFLOAD_SCATTER, &port) != 0) {
		if (port >= 0)
			port_remove(port);
		rte_mempool_free(mp);
		TEST_ASSERT(0, "start");
	}
	rte_eth_macaddr_get(port, &mac);
	STEP(rte_pktmbuf_alloc_bulk(mp, hold, 2) == 0, "hold");
	len = sg_frame(f, &mac, SG_MAX_FRAME, 1);
	STEP(mlx5_emu_wire_inject("sgn", f, len) == 1, "inject");
	STEP(rx_all(port, 1, &m, 1, NULL) == 0, "dropped");
	STEP(rte_eth_stats_get(port, &st) == 0 && st.rx_nombuf == 1 &&
	     st.ipackets == 0, "rx_nombuf 1");
	/* A frame of two buffers gets its replacements. */
	len = sg_frame(f, &mac, 3000, 2);
	STEP(mlx5_emu_wire_inject("sgn", f, len) == 1, "inject");
	STEP(rx_all(port, 1, &m, 1, NULL) == 1 && sg_check(m, f, len) == 0,
	     "3000 bytes received");
	if (ok)
		rte_pktmbuf_free(m);
	/* Still 4: dropped again; with the 2 held back, received. */
	len = sg_frame(f, &mac, SG_MAX_FRAME, 3);
	STEP(mlx5_emu_wire_inject("sgn", f, len) == 1, "inject");
	STEP(rx_all(port, 1, &m, 1, NULL) == 0, "dropped");
	if (ok)
		rte_pktmbuf_free_bulk(hold, 2);
	len = sg_frame(f, &mac, SG_MAX_FRAME, 4);
	STEP(mlx5_emu_wire_inject("sgn", f, len) == 1, "inject");
	STEP(rx_all(port, 1, &m, 1, NULL) == 1 && sg_check(m, f, len) == 0,
	     "9018 bytes received once the pool has mbufs");
	if (ok)
		rte_pktmbuf_free(m);
	STEP(rte_eth_stats_get(port, &st) == 0 && st.rx_nombuf == 2 &&
	     st.ipackets == 2 && st.ierrors == 0, "rx_nombuf 2");
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	/* Every buffer back: the port freed its posted chains' mbufs. */
	STEP(rte_mempool_avail_count(mp) == SG_DESC + 6, "pool full");
	rte_mempool_free(mp);
	return ok ? TEST_SUCCESS : TEST_FAILED;
}

/* HASH-compressed sessions of scattered frames, then timestamps. */
static int
test_net_rx_scatter_sessions(void)
{
	static uint8_t f[4000];
	const void *fr[32];
	uint32_t lens[32], len, i, got;
	struct rte_eth_burst_mode bm;
	struct rte_ether_addr mac;
	struct rte_mbuf *pkts[32];
	uint64_t sessions = 0;
	int port, bit, pass, ok = 1;

	for (pass = 0; pass < 2; pass++) {
		TEST_ASSERT_SUCCESS(sg_port("dev=emu,wire=sgz,cqe_comp=hash",
			sg_mp, SG_MTU, RTE_ETH_RX_OFFLOAD_SCATTER |
			(pass ? RTE_ETH_RX_OFFLOAD_TIMESTAMP : 0), &port),
			"start");
		rte_eth_macaddr_get(port, &mac);
		len = sg_frame(f, &mac, 3000, 7);
		for (i = 0; i < 32; i++) {
			fr[i] = f;
			lens[i] = len;
		}
		STEP(mlx5_emu_wire_inject_burst("sgz", fr, lens, 32) == 1,
		     "inject");
		got = rx_all(port, 1, pkts, 32, NULL);
		STEP(got == 32, "32 received");
		bit = rte_mbuf_dynflag_lookup(RTE_MBUF_DYNFLAG_RX_TIMESTAMP_NAME,
					      NULL);
		for (i = 0; i < got; i++) {
			STEP(sg_check(pkts[i], f, len) == 0, "chain");
			STEP(!pass || (bit >= 0 &&
			     (pkts[i]->ol_flags & RTE_BIT64(bit))), "stamped");
		}
		free_all(pkts, (uint16_t)got);
		STEP(xstat_get(port, "rx_q0_cq_sessions", &sessions) == 0 &&
		     (pass ? sessions == 0 : sessions >= 1), "sessions");
		STEP(rte_eth_rx_burst_mode_get(port, 0, &bm) == 0 &&
		     strcmp(bm.info, pass ? "Scalar (scattered, timestamps)" :
			    "Scalar (scattered)") == 0, "burst mode");
		TEST_ASSERT_SUCCESS(port_remove(port), "remove");
		if (!ok)
			printf("  pass %d: %" PRIu64 " sessions, mode %s\n", pass,
			       sessions, bm.info);
	}
	return ok ? TEST_SUCCESS : TEST_FAILED;
}

static struct unit_test_suite net_rx_scatter_suite = {
	.suite_name = "net_rx_scatter",
	.setup = sg_setup,
	.teardown = sg_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_rx_scatter_chains),
		TEST_CASE(test_net_rx_scatter_refused),
		TEST_CASE(test_net_rx_scatter_nombuf),
		TEST_CASE(test_net_rx_scatter_sessions),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_rx_scatter, net_rx_scatter_suite);
