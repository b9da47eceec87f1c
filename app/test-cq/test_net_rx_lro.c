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
 * Sizes and refusals as net/mlx5 (mlx5_rxq.c mlx5_rxq_new(),
 * mlx5_max_lro_msg_size_adjust(), MLX5_MAX_LRO_HEADER_FIX; mlx5_devx.c
 * mlx5_devx_tir_attr_set()): the TIR's lro_max_msg_sz is
 * (max_lro_pkt_size - 62) / 256 units of 256 bytes counted from the TCP
 * header (lro_max_msg_sz_mode START_FROM_L4), also when max_lro_pkt_size
 * is below the MTU's frame (net/mlx5 sizes the message from it; ethdev:
 * the largest LRO packet), checked by the packets a flow splits into;
 * dev_info offers up to 255 * 256 bytes; a queue is refused without the
 * device capability, on a multi-packet RQ, with a message below one
 * unit, or scattered over buffers too small for the longest header (122
 * bytes), and leaks nothing. The devarg lro_timeout_usec takes one of
 * the device's periods (8, 16, 32, 1024 us): bad values fail the probe,
 * and sessions split or not by a gap between two segments around the
 * period chosen. After an error completion (recovery) the queue still
 * coalesces.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include <mlx5_emu.h>

#include "test.h"
#include "test_emu_net_fixture.h"
#include "test_net_fixture.h"
#include "test_net_util.h"
#include "test_usage.h"

#define LRO_NAME "net_mlx5cq_lro"
/* n_mp's data room after the headroom (RTE_MBUF_DEFAULT_BUF_SIZE). */
#define LRO_BUF 2048u
/* Ethernet, two VLAN tags, IPv6 (MLX5_MAX_TCP_HDR_OFFSET, 62 bytes) and
 * TCP with 40 bytes of options: net/mlx5's MLX5_MAX_LRO_HEADER_FIX.
 */
#define LRO_HDR_FIX 122u
#define LRO_UNIT 256u
#define LRO_CAPA (255u * LRO_UNIT)
#define LRO_SEGS 32
#define LRO_FRAME 1518u /* The largest segment frame (MTU 1500). */
#define LRO_PKT_MAX 8192u
#define TCP_ACK 0x10
#define TCP_PSH 0x08
#define TCP_SYN 0x02
#define LRO_OFFLOADS (RTE_ETH_RX_OFFLOAD_TCP_LRO | RTE_ETH_RX_OFFLOAD_CHECKSUM)

/* One TCP flow: IPv4 10.1.0.1 -> 10.1.0.2 or 2001:db8::1 -> ::2. */
struct lro_flow {
	uint8_t v6;
	uint16_t sport;
	uint16_t dport;
};

/* One segment of a flow. */
struct lro_seg {
	uint32_t seq;
	uint32_t ack;
	uint16_t win;
	uint16_t pay;
	uint8_t ttl;
	uint8_t flags;
};

static uint8_t lro_fr[LRO_SEGS][LRO_FRAME];
static uint8_t lro_exp[LRO_PKT_MAX];
static uint8_t lro_flat[LRO_PKT_MAX];

static void
put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

static uint32_t
get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* IP header length of a flow's frames. */
static uint32_t
lro_ipl(const struct lro_flow *fl)
{
	return fl->v6 ? 40 : 20;
}

/*
 * The TCP checksum of frame f of len bytes (pseudo-header, header,
 * payload) into its header; nz: a result of 0 written as 0xffff, as
 * net/mlx5's mlx5_lro_update_tcp_hdr() does.
 */
static void
lro_tcp_csum(uint8_t *f, const struct lro_flow *fl, uint32_t len, int nz)
{
	uint32_t ipl = lro_ipl(fl), l4 = len - 14 - ipl, s;
	uint8_t *ip = f + 14, *tcp = ip + ipl, ph[8];
	uint16_t c;

	put16(tcp + 16, 0);
	if (fl->v6) {
		s = csum_sum(0, ip + 8, 32);
		put32(ph, l4);
		put32(ph + 4, 6);
	} else {
		s = csum_sum(0, ip + 12, 8);
		put16(ph, 6);
		put16(ph + 2, l4);
		memset(ph + 4, 0, 4);
	}
	s = csum_sum(s, ph, 8);
	s = csum_sum(s, tcp, l4);
	c = csum_done(s);
	if (nz && c == 0)
		c = 0xffff;
	put16(tcp + 16, c);
}

/*
 * The frame of segment g into f (correct checksums): its length, at most
 * LRO_FRAME (payloads up to 1460 bytes over IPv4, 1440 over IPv6).
 */
static uint32_t
lro_frame(uint8_t *f, const struct rte_ether_addr *dst,
	  const struct lro_flow *fl, const struct lro_seg *g)
{
	static const uint8_t src[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
	uint32_t ipl = lro_ipl(fl), len = 14 + ipl + 20 + g->pay, i;
	uint8_t *ip = f + 14, *tcp = ip + ipl;

	memset(f, 0, 14 + ipl + 20);
	memcpy(f, dst->addr_bytes, 6);
	memcpy(f + 6, src, 6);
	if (fl->v6) {
		put16(f + 12, 0x86dd);
		ip[0] = 0x60;
		put16(ip + 4, 20u + g->pay);
		ip[6] = 6;
		ip[7] = g->ttl;
		put32(ip + 8, 0x20010db8);
		ip[23] = 1;
		put32(ip + 24, 0x20010db8);
		ip[39] = 2;
	} else {
		put16(f + 12, 0x0800);
		ip[0] = 0x45;
		put16(ip + 2, 40u + g->pay);
		put16(ip + 4, g->seq * 7u); /* An identification per segment. */
		put16(ip + 6, 0x4000); /* DF */
		ip[8] = g->ttl;
		ip[9] = 6;
		put32(ip + 12, 0x0a010001);
		put32(ip + 16, 0x0a010002);
		put16(ip + 10, csum_done(csum_sum(0, ip, 20)));
	}
	put16(tcp, fl->sport);
	put16(tcp + 2, fl->dport);
	put32(tcp + 4, g->seq);
	put32(tcp + 8, g->ack);
	tcp[12] = 5 << 4;
	tcp[13] = g->flags;
	put16(tcp + 14, g->win);
	/* Each byte from its sequence number: the payloads' order shows. */
	for (i = 0; i < g->pay; i++)
		tcp[20 + i] = (uint8_t)((g->seq + i) * 13u + (g->seq + i) / 251u);
	lro_tcp_csum(f, fl, len, 0);
	return len;
}

/*
 * The packet the port must deliver for the session of segments g[0..n):
 * the frame itself for one segment, else the first one's headers as
 * mlx5_lro_update_hdr() rewrites them and every payload in order.
 */
static uint32_t
lro_expect(uint8_t *e, const struct rte_ether_addr *dst,
	   const struct lro_flow *fl, const struct lro_seg *g, uint32_t n)
{
	static uint8_t t[LRO_FRAME];
	uint32_t ipl = lro_ipl(fl), hl = 14 + ipl + 20, len, l, k;
	uint8_t *ip = e + 14, *tcp = ip + ipl, ttl = g[0].ttl;

	len = lro_frame(e, dst, fl, &g[0]);
	for (k = 1; k < n; k++) {
		l = lro_frame(t, dst, fl, &g[k]);
		memcpy(e + len, t + hl, l - hl);
		len += l - hl;
		ttl = RTE_MIN(ttl, g[k].ttl);
	}
	if (n < 2)
		return len;
	if (fl->v6) {
		put16(ip + 4, len - 14 - 40);
		ip[7] = ttl;
	} else {
		put16(ip + 2, len - 14);
		ip[8] = ttl;
		put16(ip + 10, 0);
		put16(ip + 10, csum_done(csum_sum(0, ip, 20)));
	}
	put32(tcp + 8, g[n - 1].ack);
	put16(tcp + 14, g[n - 1].win);
	tcp[13] = (uint8_t)(tcp[13] | TCP_ACK | (g[n - 1].flags & TCP_PSH));
	lro_tcp_csum(e, fl, len, 1);
	return len;
}

/* Segments g[0..n) of fl on the wire in one engine pass: 0, or -1. */
static int
lro_inject(const char *wire, const struct rte_ether_addr *dst,
	   const struct lro_flow *fl, const struct lro_seg *g, uint32_t n)
{
	const void *fr[LRO_SEGS];
	uint32_t lens[LRO_SEGS], k;

	for (k = 0; k < n; k++) {
		lens[k] = lro_frame(lro_fr[k], dst, fl, &g[k]);
		fr[k] = lro_fr[k];
	}
	return mlx5_emu_wire_inject_burst(wire, fr, lens, n) == 1 ? 0 : -1;
}

/*
 * n segments from sequence seq: payloads pay[], TTLs ttl[] (NULL: 64),
 * acks from 9000 + seq / 8 by 100, windows from 3000 by 111 (and 7 more
 * on odd segments), ACK, PSH on the last one when psh.
 */
static void
lro_segs(struct lro_seg *g, uint32_t n, uint32_t seq, const uint16_t *pay,
	 const uint8_t *ttl, int psh)
{
	uint32_t k, ack = 9000 + seq / 8;

	for (k = 0; k < n; k++) {
		g[k].seq = seq;
		g[k].ack = ack + k * 100;
		g[k].win = (uint16_t)(3000 + k * 111 + (k & 1) * 7);
		g[k].pay = pay[k];
		g[k].ttl = ttl != NULL ? ttl[k] : 64;
		g[k].flags = TCP_ACK;
		seq += pay[k];
	}
	if (psh)
		g[n - 1].flags |= TCP_PSH;
}

/*
 * Received packet m against the expected bytes e of len, a session of n
 * segments, in buffers of buf bytes.
 */
static int
lro_check(const struct rte_mbuf *m, const uint8_t *e, uint32_t len,
	  uint32_t n, uint32_t buf, int v6)
{
	uint32_t nseg = (len + buf - 1) / buf, left = len, i;
	const struct rte_mbuf *s;
	const uint8_t *p;
	uint64_t ipf = v6 ? RTE_MBUF_F_RX_IP_CKSUM_UNKNOWN :
			    RTE_MBUF_F_RX_IP_CKSUM_GOOD;
	uint32_t ptype = RTE_PTYPE_L2_ETHER | RTE_PTYPE_L4_TCP |
			 (v6 ? RTE_PTYPE_L3_IPV6_EXT_UNKNOWN :
			       RTE_PTYPE_L3_IPV4_EXT_UNKNOWN);
	int lro = (m->ol_flags & RTE_MBUF_F_RX_LRO) != 0;

	TEST_ASSERT(m->pkt_len == len && m->nb_segs == nseg,
		    "%u segments: pkt_len %u (expected %u), nb_segs %u (%u)",
		    n, m->pkt_len, len, m->nb_segs, nseg);
	for (s = m, i = 0; s != NULL; s = s->next, i++) {
		TEST_ASSERT(i < nseg && s->data_len == RTE_MIN(left, buf) &&
			    s->data_off == RTE_PKTMBUF_HEADROOM,
			    "len %u: buffer %u data_len %u off %u", len, i,
			    s->data_len, s->data_off);
		left -= s->data_len;
	}
	TEST_ASSERT(i == nseg && left == 0, "len %u: chain of %u", len, i);
	p = rte_pktmbuf_read(m, 0, len, lro_flat);
	TEST_ASSERT_NOT_NULL(p, "read");
	if (memcmp(p, e, len) != 0) {
		for (i = 0; i < len && p[i] == e[i]; i++)
			;
		printf("  %u segments, %u bytes: byte %u is 0x%02x, expected"
		       " 0x%02x\n", n, len, i, p[i], e[i]);
		return TEST_FAILED;
	}
	TEST_ASSERT(lro == (n > 1), "%u segments: RX_LRO %s", n,
		    lro ? "set" : "clear");
	TEST_ASSERT(n < 2 || m->tso_segsz == len / n,
		    "tso_segsz %u, expected %u", m->tso_segsz, len / n);
	TEST_ASSERT((m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) == ipf &&
		    (m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK) ==
		    RTE_MBUF_F_RX_L4_CKSUM_GOOD && m->packet_type == ptype,
		    "flags 0x%" PRIx64 " ptype 0x%x (expected 0x%x)",
		    m->ol_flags, m->packet_type, ptype);
	return TEST_SUCCESS;
}

/* Packet m against the session of segments g[0..n) of fl. */
static int
lro_check_seg(const struct rte_mbuf *m, const struct rte_ether_addr *dst,
	      const struct lro_flow *fl, const struct lro_seg *g, uint32_t n,
	      uint32_t buf)
{
	uint32_t len = lro_expect(lro_exp, dst, fl, g, n);

	return lro_check(m, lro_exp, len, n, buf, fl->v6);
}

/* Receive want packets; then anything more within 20 ms (up to room). */
static uint16_t
lro_rx(uint16_t port, struct rte_mbuf **pkts, uint16_t want, uint16_t room)
{
	uint16_t got = rx_all(port, 1, pkts, want, NULL);
	unsigned int i;

	for (i = 0; i < 20 && got < room; i++) {
		rte_delay_us_sleep(1000);
		got += rte_eth_rx_burst(port, 0, pkts + got, room - got);
	}
	return got;
}

/* The step of lro_port() that failed last. */
enum lro_step {
	LRO_AT_NONE,
	LRO_AT_PROBE,
	LRO_AT_CONFIGURE,
	LRO_AT_RXQ,
	LRO_AT_TXQ,
	LRO_AT_START,
};
static enum lro_step lro_at;

/*
 * Probe LRO_NAME with args, configure one queue of QDESC buffers of mp
 * (MTU mtu, 0: 1500; max_lro_pkt_size lro; offloads), start: 0 or the
 * first failure's return value, its step in lro_at (*port: the port, or
 * -1).
 */
static int
lro_port(const char *args, struct rte_mempool *mp, uint16_t mtu,
	 uint32_t lro, uint64_t offloads, int *port)
{
	struct rte_eth_conf conf = { 0 };
	int ret;

	lro_at = LRO_AT_PROBE;
	*port = port_probe(LRO_NAME, args);
	if (*port < 0)
		return -ENODEV;
	conf.rxmode.mtu = mtu;
	conf.rxmode.offloads = offloads;
	conf.rxmode.max_lro_pkt_size = lro;
	lro_at = LRO_AT_CONFIGURE;
	ret = rte_eth_dev_configure(*port, 1, 1, &conf);
	if (ret != 0)
		return ret;
	lro_at = LRO_AT_RXQ;
	ret = rte_eth_rx_queue_setup(*port, 0, QDESC, SOCKET_ID_ANY, NULL, mp);
	if (ret != 0)
		return ret;
	lro_at = LRO_AT_TXQ;
	ret = rte_eth_tx_queue_setup(*port, 0, 64, SOCKET_ID_ANY, NULL);
	if (ret != 0)
		return ret;
	lro_at = LRO_AT_START;
	ret = rte_eth_dev_start(*port);
	if (ret == 0)
		lro_at = LRO_AT_NONE;
	return ret;
}

/* Remove a port lro_port() may have left (a failed set-up). */
static void
lro_port_drop(int port)
{
	if (port >= 0)
		port_remove((uint16_t)port);
}

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
		STEP(p != NULL && get32(p) == g[first].seq, "sequence");
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
 * Segment A, a gap of gap_us, segment B (PSH) on a port probed with
 * args: the packets (1: coalesced, 2: split), or -1 when they are not
 * what A and B make.
 */
static int
lro_gap(const char *args, unsigned int gap_us)
{
	static const uint16_t pay[] = { 600, 400 };
	const struct lro_flow fl = { .sport = 40040, .dport = 80 };
	struct rte_ether_addr mac;
	struct lro_seg g[2];
	struct rte_mbuf *m[3];
	uint32_t len;
	uint16_t got;
	int port, ret = -1;

	if (lro_port(args, n_mp, 0, 0, LRO_OFFLOADS, &port) != 0) {
		lro_port_drop(port);
		printf("  %s: start failed\n", args);
		return -1;
	}
	rte_eth_macaddr_get(port, &mac);
	lro_segs(g, 2, 777, pay, NULL, 1);
	len = lro_frame(lro_fr[0], &mac, &fl, &g[0]);
	mlx5_emu_wire_inject("lrot", lro_fr[0], len);
	rte_delay_us_sleep(gap_us);
	len = lro_frame(lro_fr[1], &mac, &fl, &g[1]);
	mlx5_emu_wire_inject("lrot", lro_fr[1], len);
	got = lro_rx(port, m, 1, 3);
	if (got == 1 && lro_check_seg(m[0], &mac, &fl, g, 2, LRO_BUF) == 0)
		ret = 1;
	else if (got == 2 &&
		 lro_check_seg(m[0], &mac, &fl, g, 1, LRO_BUF) == 0 &&
		 lro_check_seg(m[1], &mac, &fl, &g[1], 1, LRO_BUF) == 0)
		ret = 2;
	else
		printf("  %s: %u packets\n", args, got);
	free_all(m, got);
	port_remove(port);
	return ret;
}

/*
 * lro_timeout_usec: outside 1..65535 the probe fails and leaves nothing;
 * inside, the TIR gets the first of the device's periods (8, 16, 32,
 * 1024 us) at least as long, else the longest. Seen through a gap of
 * 200 us between two segments: split with the default (8 us) and 20
 * (32 us); coalesced with 1000 and 65535 (1024 us; a late wake-up can
 * split a try: up to five); a gap of 5 ms always splits.
 */
static int
test_net_rx_lro_timeout(void)
{
	static const char *const bad[] = {
		"dev=emu,lro_timeout_usec=0",
		"dev=emu,lro_timeout_usec=65536",
		"dev=emu,lro_timeout_usec=-1",
		"dev=emu,lro_timeout_usec=ten",
	};
	static const char *const good[] = {
		"dev=emu,wire=lrot,lro_timeout_usec=1",
		"dev=emu,wire=lrot,lro_timeout_usec=20",
		"dev=emu,wire=lrot,lro_timeout_usec=1024",
		"dev=emu,wire=lrot,lro_timeout_usec=65535",
	};
	struct heap_use u0, u1;
	uint32_t i, t;
	int port, ok = 1, r;

	heap_use(&u0);
	for (i = 0; i < RTE_DIM(bad); i++) {
		port = port_probe(LRO_NAME, bad[i]);
		lro_port_drop(port);
		STEP(port < 0, bad[i]);
	}
	heap_use(&u1);
	STEP(heap_use_same(&u0, &u1, "refused devargs") == 0, "no leak");
	for (i = 0; i < RTE_DIM(good); i++) {
		int ret = lro_port(good[i], n_mp, 0, 0, LRO_OFFLOADS, &port);

		lro_port_drop(port);
		STEP(ret == 0, good[i]);
	}
	r = lro_gap("dev=emu,wire=lrot", 200);
	STEP(r == 2, "default (8 us): a gap of 200 us splits");
	r = lro_gap("dev=emu,wire=lrot,lro_timeout_usec=20", 200);
	STEP(r == 2, "20 (32 us): a gap of 200 us splits");
	for (t = 0, r = 0; t < 5 && r != 1 && r >= 0; t++)
		r = lro_gap("dev=emu,wire=lrot,lro_timeout_usec=1000", 200);
	STEP(r == 1, "1000 (1024 us): a gap of 200 us coalesces");
	for (t = 0, r = 0; t < 5 && r != 1 && r >= 0; t++)
		r = lro_gap("dev=emu,wire=lrot,lro_timeout_usec=65535", 200);
	STEP(r == 1, "65535 (1024 us): a gap of 200 us coalesces");
	r = lro_gap("dev=emu,wire=lrot,lro_timeout_usec=65535", 5000);
	STEP(r == 2, "65535 (1024 us): a gap of 5 ms splits");
	return ok ? TEST_SUCCESS : TEST_FAILED;
}

/*
 * Refusals, each counted for leaks: a device without lro_cap (no
 * TCP_LRO offered, max_lro_pkt_size 0, configure fails); LRO on a
 * multi-packet RQ (-ENOTSUP); a message below one unit (max_lro_pkt_size
 * 200 on MTU 120: 138 bytes, -EINVAL); scatter over 100-byte buffers,
 * fewer than the 122 of the longest header (-ENOTSUP); max_lro_pkt_size
 * above dev_info's (ethdev: -EINVAL).
 */
static int
test_net_rx_lro_refused(void)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_eth_dev_info info;
	struct mlx5_emu_caps caps;
	struct rte_mempool *tiny;
	struct heap_use u0, u1;
	int port, ret, ok = 1;

	tiny = rte_pktmbuf_pool_create("net_lro_tiny", 1024, 0, 0,
				       RTE_PKTMBUF_HEADROOM + 100,
				       SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(tiny, "pool");
	/* (a) A device without LRO. */
	heap_use(&u0);
	mlx5_emu_caps_default(&caps);
	caps.eth_lro = 0;
	ret = mlx5_emu_open_caps_set(&caps);
	port = ret == 0 ? port_probe(LRO_NAME, "dev=emu,wire=lror") : -1;
	mlx5_emu_open_caps_set(NULL);
	STEP(port >= 0, "probe without lro_cap");
	if (port >= 0) {
		STEP(rte_eth_dev_info_get(port, &info) == 0 &&
		     !(info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_TCP_LRO) &&
		     !(info.rx_queue_offload_capa &
		       RTE_ETH_RX_OFFLOAD_TCP_LRO) &&
		     info.max_lro_pkt_size == 0, "no LRO offered");
		conf.rxmode.offloads = LRO_OFFLOADS;
		ret = rte_eth_dev_configure(port, 1, 1, &conf);
		STEP(ret != 0, "configure with TCP_LRO refused");
		port_remove(port);
	}
	heap_use(&u1);
	STEP(heap_use_same(&u0, &u1, "device without LRO") == 0, "no leak");
	/* (b) A multi-packet RQ. */
	heap_use(&u0);
	ret = lro_port("dev=emu,wire=lror,mprq_en=1,rxqs_min_mprq=1", n_mp,
		       0, 0, LRO_OFFLOADS, &port);
	lro_port_drop(port);
	heap_use(&u1);
	STEP(ret == -ENOTSUP && lro_at == LRO_AT_RXQ,
	     "multi-packet RQ: queue set-up -ENOTSUP");
	if (ret != -ENOTSUP || lro_at != LRO_AT_RXQ)
		printf("  multi-packet RQ: %d at step %d\n", ret, lro_at);
	STEP(heap_use_same(&u0, &u1, "multi-packet RQ") == 0, "no leak");
	/* (c) 200 - 62 = 138 bytes: no unit. */
	heap_use(&u0);
	ret = lro_port("dev=emu,wire=lror", n_mp, 120, 200, LRO_OFFLOADS,
		       &port);
	lro_port_drop(port);
	heap_use(&u1);
	STEP(ret == -EINVAL && lro_at == LRO_AT_RXQ,
	     "message of 138 bytes: queue set-up -EINVAL");
	if (ret != -EINVAL || lro_at != LRO_AT_RXQ)
		printf("  max_lro_pkt_size 200, MTU 120: %d at step %d\n",
		       ret, lro_at);
	STEP(heap_use_same(&u0, &u1, "small message") == 0, "no leak");
	/* (d) 1518 bytes over 100-byte buffers: 16 a WQE, header too long. */
	heap_use(&u0);
	ret = lro_port("dev=emu,wire=lror", tiny, 0, 0, LRO_OFFLOADS |
		       RTE_ETH_RX_OFFLOAD_SCATTER, &port);
	lro_port_drop(port);
	heap_use(&u1);
	STEP(ret == -ENOTSUP && lro_at == LRO_AT_RXQ,
	     "100-byte buffers: queue set-up -ENOTSUP");
	if (ret != -ENOTSUP || lro_at != LRO_AT_RXQ)
		printf("  100-byte buffers: %d at step %d\n", ret, lro_at);
	STEP(heap_use_same(&u0, &u1, "small buffers") == 0, "no leak");
	/* (e) Above dev_info's max_lro_pkt_size. */
	heap_use(&u0);
	ret = lro_port("dev=emu,wire=lror", n_mp, 0, LRO_CAPA + 1,
		       LRO_OFFLOADS | RTE_ETH_RX_OFFLOAD_SCATTER, &port);
	lro_port_drop(port);
	heap_use(&u1);
	STEP(ret == -EINVAL && lro_at == LRO_AT_CONFIGURE,
	     "max_lro_pkt_size 65281: configure -EINVAL");
	STEP(heap_use_same(&u0, &u1, "too large") == 0, "no leak");
	rte_mempool_free(tiny);
	return ok ? TEST_SUCCESS : TEST_FAILED;
}

/*
 * Buffers of exactly the longest header (122 bytes): accepted; a
 * 1518-byte frame takes 13 of them, 16 a WQE. Three segments of 400
 * (20 + 1200 bytes within (1518 - 62) / 256 = 5 units) make a packet of
 * 1254 bytes over 11 buffers; the pool gets every buffer back.
 */
static int
test_net_rx_lro_small_bufs(void)
{
	static const uint16_t pay[] = { 400, 400, 400 };
	const struct lro_flow fl = { .sport = 40050, .dport = 80 };
	struct rte_ether_addr mac;
	struct rte_mempool *mp;
	struct lro_seg g[3];
	struct rte_mbuf *m[3];
	uint16_t got;
	int port, ok = 1;

	mp = rte_pktmbuf_pool_create("net_lro_122", 1024, 0, 0,
				     RTE_PKTMBUF_HEADROOM + LRO_HDR_FIX,
				     SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(mp, "pool");
	if (lro_port("dev=emu,wire=lrom", mp, 0, 0, LRO_OFFLOADS |
		     RTE_ETH_RX_OFFLOAD_SCATTER, &port) != 0) {
		lro_port_drop(port);
		rte_mempool_free(mp);
		TEST_ASSERT(0, "start with 122-byte buffers");
	}
	rte_eth_macaddr_get(port, &mac);
	lro_segs(g, 3, 424242, pay, NULL, 1);
	STEP(lro_inject("lrom", &mac, &fl, g, 3) == 0, "inject");
	got = lro_rx(port, m, 1, 3);
	STEP(got == 1 && lro_check_seg(m[0], &mac, &fl, g, 3, LRO_HDR_FIX) ==
	     TEST_SUCCESS, "a packet of 1254 bytes in 11 buffers");
	free_all(m, got);
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	STEP(rte_mempool_avail_count(mp) == 1024, "pool full");
	rte_mempool_free(mp);
	return ok ? TEST_SUCCESS : TEST_FAILED;
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
		TEST_CASE(test_net_rx_lro_timeout),
		TEST_CASE(test_net_rx_lro_refused),
		TEST_CASE(test_net_rx_lro_small_bufs),
		TEST_CASE(test_net_rx_lro_error_recovery),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_rx_lro, net_rx_lro_suite);
