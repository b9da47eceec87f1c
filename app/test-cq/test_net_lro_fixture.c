/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/* The LRO suites' fixture (test_net_lro_fixture.h). */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include <mlx5_emu.h>

#include "test.h"
#include "test_emu_net_fixture.h"
#include "test_net_fixture.h"
#include "test_net_lro_fixture.h"
#include "test_net_util.h"

uint8_t lro_fr[LRO_SEGS][LRO_FRAME];
uint8_t lro_exp[LRO_PKT_MAX];
uint8_t lro_flat[LRO_PKT_MAX];

static void
put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

/* IP header length of a flow's frames. */
uint32_t
lro_ipl(const struct lro_flow *fl)
{
	return fl->v6 ? 40 : 20;
}

/*
 * The TCP checksum of frame f of len bytes (pseudo-header, header,
 * payload) into its header; nz: a result of 0 written as 0xffff, as
 * net/mlx5's mlx5_lro_update_tcp_hdr() does.
 */
void
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
uint32_t
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
uint32_t
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
int
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
void
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
int
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
int
lro_check_seg(const struct rte_mbuf *m, const struct rte_ether_addr *dst,
	      const struct lro_flow *fl, const struct lro_seg *g, uint32_t n,
	      uint32_t buf)
{
	uint32_t len = lro_expect(lro_exp, dst, fl, g, n);

	return lro_check(m, lro_exp, len, n, buf, fl->v6);
}

/* Receive want packets; then anything more within 20 ms (up to room). */
uint16_t
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

enum lro_step lro_at;

/*
 * Probe LRO_NAME with args, configure one queue of QDESC buffers of mp
 * (MTU mtu, 0: 1500; max_lro_pkt_size lro; offloads), start: 0 or the
 * first failure's return value, its step in lro_at (*port: the port, or
 * -1).
 */
int
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
void
lro_port_drop(int port)
{
	if (port >= 0)
		port_remove((uint16_t)port);
}

