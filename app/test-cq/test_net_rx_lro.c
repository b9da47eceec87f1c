/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_rx_lro": RTE_ETH_RX_OFFLOAD_TCP_LRO on net_mlx5cq, on the
 * emulated HCA's LRO (mlx5_emu_lro.c: in-order TCP/IPv4 or TCP/IPv6
 * segments of one flow, flags ACK or ACK|PSH, with a payload and good
 * checksums, coalesced into one WQE and one CQE; a PSH segment, a frame
 * that does not continue the flow, the message size or the TIR's timeout
 * close the session; a session of one segment completes as a plain
 * frame).
 *
 * Every expected packet is built here from the header layouts (RFC 791,
 * RFC 8200, RFC 9293) and this file's own Internet checksum (RFC 1071),
 * as DPDK's net/mlx5 rewrites a coalesced packet's first headers
 * (mlx5_rx.c mlx5_lro_update_hdr(), mlx5_lro_update_tcp_hdr()): IPv4
 * total length, smallest TTL and header checksum, or IPv6 payload length
 * and smallest hop limit; the TCP ack and window of the last segment,
 * ACK, PSH when the last segment had it, the checksum over the
 * pseudo-header, the header and every payload; RTE_MBUF_F_RX_LRO and
 * tso_segsz = length / segments (mlx5_rx.c mlx5_rx_burst()). The
 * packets are compared byte for byte, chain layout included (buffers
 * of n_mp's 2,048-byte data room, or smaller pools).
 *
 * Message sizes as net/mlx5 (mlx5_rxq.c mlx5_max_lro_msg_size_adjust();
 * mlx5_devx.c mlx5_devx_tir_attr_set()): the TIR's lro_max_msg_sz is
 * (max_lro_pkt_size - 62) / 256 units of 256 bytes counted from the TCP
 * header (lro_max_msg_sz_mode START_FROM_L4), also when max_lro_pkt_size
 * is below the MTU's frame (ethdev: the largest LRO packet), checked by
 * the packets a flow splits into; dev_info offers up to 255 * 256 bytes.
 * After an error completion (recovery) the queue still coalesces. The
 * queue set-up rules and the session timeout: net_rx_lro_setup.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include <mlx5_emu.h>

#include "test.h"
#include "test_emu_net_fixture.h"
#include "test_net_fixture.h"
#include "test_net_lro_fixture.h"
#include "test_net_util.h"
#include "test_usage.h"

/*
 * Four in-order segments of different payloads (odd ones: the device's
 * payload sum crosses word boundaries), TTLs, acks and windows, PSH on
 * the last: one packet; then three more without PSH, closed by the
 * timeout: one packet without PSH. max_lro_pkt_size 4096: scattered
 * over two 2 KiB buffers, messages of (4096 - 62) / 256 = 15 units.
 */
static int
lro_coalesce(int v6)
{
	static const uint16_t pay1[] = { 501, 900, 1203, 997 };
	static const uint8_t ttl1[] = { 64, 57, 63, 60 };
	static const uint16_t pay2[] = { 1000, 777, 1440 };
	static const uint8_t ttl2[] = { 50, 51, 49 };
	const struct lro_flow fl = { .v6 = (uint8_t)v6, .sport = 40001,
				     .dport = 80 };
	const char *wire = v6 ? "lro6" : "lro4";
	struct lro_seg g1[4], g2[3];
	struct rte_eth_burst_mode bm;
	struct rte_eth_rxq_info qi;
	struct rte_ether_addr mac;
	struct rte_eth_stats st;
	struct rte_mbuf *m[4];
	uint32_t len1, len2, seq2;
	uint16_t got;
	char args[64];
	int port, ok = 1;

	memset(&bm, 0, sizeof(bm));
	memset(&st, 0, sizeof(st));
	snprintf(args, sizeof(args), "dev=emu,wire=%s", wire);
	if (lro_port(args, n_mp, 0, 4096, LRO_OFFLOADS |
		     RTE_ETH_RX_OFFLOAD_SCATTER, &port) != 0) {
		lro_port_drop(port);
		TEST_ASSERT(0, "start");
	}
	STEP(rte_eth_rx_queue_info_get(port, 0, &qi) == 0 &&
	     qi.scattered_rx == 1, "scattered queue");
	STEP(rte_eth_rx_burst_mode_get(port, 0, &bm) == 0 &&
	     strcmp(bm.info, "Scalar (LRO, scattered)") == 0, "burst mode");
	rte_eth_macaddr_get(port, &mac);
	lro_segs(g1, 4, 100000, pay1, ttl1, 1);
	STEP(lro_inject(wire, &mac, &fl, g1, 4) == 0, "inject");
	got = lro_rx(port, m, 1, 4);
	STEP(got == 1, "one packet for four PSH-ended segments");
	len1 = lro_expect(lro_exp, &mac, &fl, g1, 4);
	/* 54 or 74 bytes of headers and 3601 of payload. */
	STEP(len1 == 14 + lro_ipl(&fl) + 20 + 3601, "expected length");
	STEP(got < 1 || lro_check_seg(m[0], &mac, &fl, g1, 4, LRO_BUF) ==
	     TEST_SUCCESS, "coalesced packet");
	free_all(m, got);
	seq2 = g1[3].seq + g1[3].pay;
	lro_segs(g2, 3, seq2, pay2, ttl2, 0);
	STEP(lro_inject(wire, &mac, &fl, g2, 3) == 0, "inject");
	got = lro_rx(port, m, 1, 4);
	STEP(got == 1, "one packet for three segments, closed by the timeout");
	len2 = lro_expect(lro_exp, &mac, &fl, g2, 3);
	STEP(got < 1 || lro_check_seg(m[0], &mac, &fl, g2, 3, LRO_BUF) ==
	     TEST_SUCCESS, "coalesced packet without PSH");
	free_all(m, got);
	rte_eth_stats_get(port, &st);
	STEP(st.ipackets == 2 && st.ibytes == len1 + len2 && st.ierrors == 0 &&
	     st.rx_nombuf == 0, "stats");
	if (!ok)
		printf("  %s: %" PRIu64 " packets %" PRIu64 " bytes (%u)"
		       " %" PRIu64 " errors, mode \"%s\"\n", wire, st.ipackets,
		       st.ibytes, len1 + len2, st.ierrors, bm.info);
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	return ok ? TEST_SUCCESS : TEST_FAILED;
}

static int
test_net_rx_lro_coalesce_v4(void)
{
	return lro_coalesce(0);
}

static int
test_net_rx_lro_coalesce_v6(void)
{
	return lro_coalesce(1);
}

/*
 * On an LRO port (max_lro_pkt_size 0: ethdev's 1518, one buffer, not
 * scattered) what is not coalesced arrives as sent, without RX_LRO: a
 * PSH segment alone, a segment alone (closed by the timeout), a pure ACK,
 * a SYN with data, UDP frames, segments out of order, two flows
 * interleaved. The device offers LRO per queue, up to 255 * 256 bytes.
 */
static int
test_net_rx_lro_single_and_udp(void)
{
	static const uint16_t pay[] = { 700, 300, 200, 100 };
	static uint8_t f[LRO_FRAME];
	const struct lro_flow fa = { .sport = 40010, .dport = 443 };
	const struct lro_flow fb = { .sport = 40011, .dport = 443 };
	struct lro_seg g[4], h[4];
	struct rte_eth_dev_info info;
	struct rte_eth_burst_mode bm;
	struct rte_eth_rxq_info qi;
	struct rte_ether_addr mac;
	struct rte_eth_stats st;
	struct rte_mbuf *m[8];
	uint32_t len, i, n = 0;
	uint16_t got;
	int port, ok = 1;

	if (lro_port("dev=emu,wire=lro1", n_mp, 0, 0, LRO_OFFLOADS,
		     &port) != 0) {
		lro_port_drop(port);
		TEST_ASSERT(0, "start");
	}
	STEP(rte_eth_dev_info_get(port, &info) == 0 &&
	     (info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_TCP_LRO) &&
	     (info.rx_queue_offload_capa & RTE_ETH_RX_OFFLOAD_TCP_LRO) &&
	     info.max_lro_pkt_size == LRO_CAPA, "dev_info");
	STEP(rte_eth_rx_queue_info_get(port, 0, &qi) == 0 &&
	     qi.scattered_rx == 0, "not scattered");
	STEP(rte_eth_rx_burst_mode_get(port, 0, &bm) == 0 &&
	     strcmp(bm.info, "Scalar (LRO)") == 0, "burst mode");
	if (!ok)
		printf("  capa 0x%" PRIx64 " queue capa 0x%" PRIx64
		       " max_lro_pkt_size %u, mode \"%s\"\n",
		       info.rx_offload_capa, info.rx_queue_offload_capa,
		       info.max_lro_pkt_size, bm.info);
	rte_eth_macaddr_get(port, &mac);
	/* A PSH segment alone; a segment alone, closed by the timeout. */
	for (i = 0; i < 2 && ok; i++) {
		lro_segs(g, 1, 5000 + i * 1000, pay, NULL, i == 0);
		STEP(lro_inject("lro1", &mac, &fa, g, 1) == 0, "inject");
		got = lro_rx(port, m, 1, 2);
		STEP(got == 1 && lro_check_seg(m[0], &mac, &fa, g, 1,
					       LRO_BUF) == TEST_SUCCESS,
		     i == 0 ? "a PSH segment alone" : "a segment alone");
		free_all(m, got);
		n++;
	}
	/* A pure ACK, a SYN with data: not coalesced, as sent. */
	for (i = 0; i < 2 && ok; i++) {
		static const uint16_t none[] = { 0 };

		lro_segs(g, 1, 7000, i == 0 ? none : pay, NULL, 0);
		lro_segs(&g[1], 1, 7000 + g[0].pay, pay, NULL, 1);
		if (i == 1)
			g[0].flags |= TCP_SYN;
		STEP(lro_inject("lro1", &mac, &fa, g, 2) == 0, "inject");
		got = lro_rx(port, m, 2, 3);
		STEP(got == 2 &&
		     lro_check_seg(m[0], &mac, &fa, g, 1, LRO_BUF) ==
		     TEST_SUCCESS &&
		     lro_check_seg(m[1], &mac, &fa, &g[1], 1, LRO_BUF) ==
		     TEST_SUCCESS, i == 0 ? "pure ACK" : "SYN");
		free_all(m, got);
		n += 2;
	}
	/* UDP frames. */
	for (i = 0; i < 3 && ok; i++) {
		len = frame_udp4_n(f, &mac, 100 + i * 600, 5, 6000, i);
		STEP(mlx5_emu_wire_inject("lro1", f, len) == 1, "inject");
		got = lro_rx(port, m, 1, 2);
		STEP(got == 1 && m[0]->pkt_len == len && m[0]->nb_segs == 1 &&
		     memcmp(rte_pktmbuf_mtod(m[0], void *), f, len) == 0 &&
		     rx_udp4_good(m[0]) &&
		     !(m[0]->ol_flags & RTE_MBUF_F_RX_LRO), "UDP as sent");
		free_all(m, got);
		n++;
	}
	/* Out of order: segment 1 missing, 2 and 3 then coalesce. */
	lro_segs(g, 4, 20000, pay, NULL, 1);
	h[0] = g[0];
	h[1] = g[2];
	h[2] = g[3];
	STEP(lro_inject("lro1", &mac, &fa, h, 3) == 0, "inject");
	got = lro_rx(port, m, 2, 3);
	STEP(got == 2 &&
	     lro_check_seg(m[0], &mac, &fa, h, 1, LRO_BUF) == TEST_SUCCESS &&
	     lro_check_seg(m[1], &mac, &fa, &h[1], 2, LRO_BUF) ==
	     TEST_SUCCESS, "out of order");
	free_all(m, got);
	n += 2;
	/* Two flows interleaved: every session of one segment. */
	{
		const void *fr[4];
		uint32_t lens[4];

		lro_segs(g, 2, 30000, pay, NULL, 0);
		lro_segs(h, 2, 60000, pay, NULL, 0);
		lens[0] = lro_frame(lro_fr[0], &mac, &fa, &g[0]);
		lens[1] = lro_frame(lro_fr[1], &mac, &fb, &h[0]);
		lens[2] = lro_frame(lro_fr[2], &mac, &fa, &g[1]);
		lens[3] = lro_frame(lro_fr[3], &mac, &fb, &h[1]);
		for (i = 0; i < 4; i++)
			fr[i] = lro_fr[i];
		STEP(mlx5_emu_wire_inject_burst("lro1", fr, lens, 4) == 1,
		     "inject");
		got = lro_rx(port, m, 4, 5);
		STEP(got == 4 &&
		     lro_check_seg(m[0], &mac, &fa, &g[0], 1, LRO_BUF) == 0 &&
		     lro_check_seg(m[1], &mac, &fb, &h[0], 1, LRO_BUF) == 0 &&
		     lro_check_seg(m[2], &mac, &fa, &g[1], 1, LRO_BUF) == 0 &&
		     lro_check_seg(m[3], &mac, &fb, &h[1], 1, LRO_BUF) == 0,
		     "interleaved flows");
		free_all(m, got);
		n += 4;
	}
	STEP(rte_eth_stats_get(port, &st) == 0 && st.ipackets == n &&
	     st.ierrors == 0, "stats");
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	return ok ? TEST_SUCCESS : TEST_FAILED;
}

/*
 * The message size splits a flow. max_lro_pkt_size 2100 (scattered over
 * two 2 KiB buffers): (2100 - 62) / 256 = 7 units, 1792 bytes from the
 * TCP header (8 units, 2048, without the 62 bytes taken off). Segments:
 * seven of 253..254 bytes (20 + 1772 = 1792: exactly the limit), then
 * 100 and six of 300, then 200 with PSH:
 *  - packet 1: the seven (100 more would make 1892): 1826 bytes;
 *  - packet 2: 100 and five of 300 (20 + 1600; one more, 1920): 1654;
 *  - packet 3: 300 and the PSH 200: 554.
 */
static int
test_net_rx_lro_size_split(void)
{
	static const uint16_t pay[] = {
		253, 253, 253, 253, 253, 253, 254,
		100, 300, 300, 300, 300, 300, 300, 200,
	};
	static const uint32_t grp[] = { 7, 6, 2 };
	static const uint32_t glen[] = { 1826, 1654, 554 };
	const struct lro_flow fl = { .sport = 40020, .dport = 8080 };
	struct lro_seg g[RTE_DIM(pay)];
	struct rte_ether_addr mac;
	struct rte_eth_stats st;
	struct rte_mbuf *m[RTE_DIM(pay)];
	uint32_t i, first = 0, payload = 0, sent = 0, bytes = 0;
	uint16_t got;
	int port, ok = 1;

	if (lro_port("dev=emu,wire=lros", n_mp, 0, 2100, LRO_OFFLOADS |
		     RTE_ETH_RX_OFFLOAD_SCATTER, &port) != 0) {
		lro_port_drop(port);
		TEST_ASSERT(0, "start");
	}
	rte_eth_macaddr_get(port, &mac);
	lro_segs(g, RTE_DIM(pay), 0xfffff800u, pay, NULL, 1);
	for (i = 0; i < RTE_DIM(pay); i++)
		sent += pay[i];
	STEP(lro_inject("lros", &mac, &fl, g, RTE_DIM(pay)) == 0, "inject");
	got = lro_rx(port, m, RTE_DIM(grp), RTE_DIM(pay));
	STEP(got == RTE_DIM(grp), "three packets");
	if (got != RTE_DIM(grp))
		printf("  %u packets, expected %u\n", got,
		       (unsigned int)RTE_DIM(grp));
	for (i = 0; i < got && i < RTE_DIM(grp) && ok; i++) {
		const uint8_t *p;

		STEP(m[i]->pkt_len == glen[i], "length");
		p = rte_pktmbuf_read(m[i], 38, 4, lro_flat);
		/* The sequence wraps past 2^32 in the second packet. */
		STEP(p != NULL && rd32(p) == g[first].seq, "sequence");
		STEP(lro_check_seg(m[i], &mac, &fl, &g[first], grp[i],
				   LRO_BUF) == TEST_SUCCESS, "packet");
		if (!ok)
			printf("  packet %u: %u bytes (expected %u)\n", i,
			       m[i]->pkt_len, glen[i]);
		payload += m[i]->pkt_len - 54;
		bytes += m[i]->pkt_len;
		first += grp[i];
	}
	STEP(payload == sent, "every payload byte once");
	free_all(m, got);
	STEP(rte_eth_stats_get(port, &st) == 0 && st.ipackets == 3 &&
	     st.ibytes == bytes && st.ierrors == 0, "stats");
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	return ok ? TEST_SUCCESS : TEST_FAILED;
}

/*
 * max_lro_pkt_size below the MTU's frame (MTU 1500, 1518 bytes): it still
 * bounds an aggregate (ethdev: the largest LRO packet; net/mlx5 sizes the
 * message from it, mlx5_rxq_new()). 200: a message of 138 bytes, below
 * one unit: -EINVAL. 400: (400 - 62) / 256 = 1 unit, 256 bytes from the
 * TCP header: four segments of 100 (PSH on the last) give two packets of
 * 254 bytes, none above 400.
 */
static int
test_net_rx_lro_below_mtu(void)
{
	static const uint16_t pay[] = { 100, 100, 100, 100 };
	const struct lro_flow fl = { .sport = 40030, .dport = 80 };
	struct heap_use u0, u1;
	struct rte_ether_addr mac;
	struct lro_seg g[4];
	struct rte_mbuf *m[4];
	uint16_t got, i;
	int port, ret, ok = 1, split_ok;

	/* Both parts run whatever the other gives. */
	if (lro_port("dev=emu,wire=lrob", n_mp, 0, 400, LRO_OFFLOADS,
		     &port) != 0) {
		lro_port_drop(port);
		TEST_ASSERT(0, "start");
	}
	rte_eth_macaddr_get(port, &mac);
	lro_segs(g, 4, 1, pay, NULL, 1);
	STEP(lro_inject("lrob", &mac, &fl, g, 4) == 0, "inject");
	got = lro_rx(port, m, 2, 4);
	for (i = 0; i < got; i++)
		if (m[i]->pkt_len > 400)
			printf("  packet %u: %u bytes (tso_segsz %u), above "
			       "max_lro_pkt_size 400\n", i, m[i]->pkt_len,
			       m[i]->tso_segsz);
	STEP(got == 2, "max_lro_pkt_size 400 at MTU 1500: two packets");
	STEP(got < 2 ||
	     (lro_check_seg(m[0], &mac, &fl, g, 2, LRO_BUF) == 0 &&
	      lro_check_seg(m[1], &mac, &fl, &g[2], 2, LRO_BUF) == 0),
	     "packets of two segments");
	free_all(m, got);
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	split_ok = ok;
	ok = 1;
	heap_use(&u0);
	ret = lro_port("dev=emu,wire=lrob", n_mp, 0, 200, LRO_OFFLOADS, &port);
	lro_port_drop(port);
	heap_use(&u1);
	STEP(ret == -EINVAL && lro_at == LRO_AT_RXQ,
	     "max_lro_pkt_size 200 at MTU 1500: queue set-up -EINVAL");
	if (ret != -EINVAL || lro_at != LRO_AT_RXQ)
		printf("  set-up returned %d at step %d (%d: done)\n", ret,
		       lro_at, LRO_AT_NONE);
	STEP(heap_use_same(&u0, &u1, "refused queue") == 0, "no leak");
	return ok && split_ok ? TEST_SUCCESS : TEST_FAILED;
}

/*
 * An error completion (a UDP frame completed in error by the wire's
 * fault injection): counted, the queue recovered; the flow after it
 * still coalesces.
 */
static int
test_net_rx_lro_error_recovery(void)
{
	static const uint16_t pay[] = { 333, 444, 221 };
	static uint8_t f[LRO_FRAME];
	const struct lro_flow fl = { .sport = 40060, .dport = 80 };
	struct rte_ether_addr mac;
	struct rte_eth_stats st;
	struct lro_seg g[3];
	struct rte_mbuf *m[3];
	uint64_t rec = 0;
	uint32_t len;
	uint16_t got;
	int port, ok = 1;

	if (lro_port("dev=emu,wire=lroe", n_mp, 0, 0, LRO_OFFLOADS,
		     &port) != 0) {
		lro_port_drop(port);
		TEST_ASSERT(0, "start");
	}
	rte_eth_macaddr_get(port, &mac);
	STEP(mlx5_emu_wire_rx_error_inject("lroe", 1) == 0, "arm");
	len = frame_udp4_n(f, &mac, 300, 6, 7000, 1);
	STEP(mlx5_emu_wire_inject("lroe", f, len) == 1, "inject");
	STEP(lro_rx(port, m, 1, 1) == 0, "error: nothing");
	lro_segs(g, 3, 123456, pay, NULL, 1);
	STEP(lro_inject("lroe", &mac, &fl, g, 3) == 0, "inject");
	got = lro_rx(port, m, 1, 3);
	STEP(got == 1 && lro_check_seg(m[0], &mac, &fl, g, 3, LRO_BUF) ==
	     TEST_SUCCESS, "coalesced after the recovery");
	if (!ok)
		printf("  %u packets\n", got);
	free_all(m, got);
	memset(&st, 0, sizeof(st));
	rte_eth_stats_get(port, &st);
	xstat_get(port, "rx_q0_recoveries", &rec);
	STEP(st.ierrors == 1 && st.ipackets == 1, "stats");
	STEP(rec == 1, "one recovery");
	if (!ok)
		printf("  ierrors %" PRIu64 " ipackets %" PRIu64
		       " recoveries %" PRIu64 "\n", st.ierrors, st.ipackets,
		       rec);
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	return ok ? TEST_SUCCESS : TEST_FAILED;
}

static struct unit_test_suite net_rx_lro_suite = {
	.suite_name = "net_rx_lro",
	.setup = net_suite_setup,
	.teardown = net_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_rx_lro_coalesce_v4),
		TEST_CASE(test_net_rx_lro_coalesce_v6),
		TEST_CASE(test_net_rx_lro_single_and_udp),
		TEST_CASE(test_net_rx_lro_size_split),
		TEST_CASE(test_net_rx_lro_below_mtu),
		TEST_CASE(test_net_rx_lro_error_recovery),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_rx_lro, net_rx_lro_suite);
