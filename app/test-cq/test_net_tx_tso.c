/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_tx_tso": RTE_ETH_TX_OFFLOAD_TCP_TSO on net_mlx5cq. Port A
 * sends one TCP packet of several mbufs with RTE_MBUF_F_TX_TCP_SEG; port
 * B, on the same emulated wire, must receive exactly the segments TCP
 * segmentation makes of it: ceil(payload / tso_segsz) frames, each with
 * the header, its IP length, the IPv4 id counting up, its sequence number,
 * CWR in the first only, FIN and PSH in the last only, checksums good
 * (B's flags) and, put end to end, exactly the payload sent. IPv4, IPv6,
 * and with a VLAN tag inserted; packets the PMD cannot segment are
 * dropped and counted.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_tcp.h>

#include "test.h"
#include "test_net_fixture.h"
#include "test_net_util.h"

#define TSO_PAY_MAX 12000
#define TSO_FIRST 1000 /* Payload bytes in the first mbuf. */
#define TSO_SEG 1800 /* Payload bytes in each further mbuf. */
#define TSO_TCI 0x0123

struct tso_case {
	int ipv6;
	int vlan;
	uint32_t payload;
	uint16_t mss;
};

/* Ethernet / IPv4|IPv6 / TCP header of a case; its length. */
static uint32_t
tso_hdr(uint8_t *h, const struct rte_ether_addr *dst, int ipv6)
{
	struct rte_ether_hdr *eth = (void *)h;
	struct rte_tcp_hdr *tcp;
	uint32_t l3;

	memset(h, 0, 80);
	eth->dst_addr = *dst;
	eth->src_addr = (struct rte_ether_addr)
			{{ 0x02, 0x11, 0x22, 0x33, 0x44, 0x66 }};
	if (ipv6) {
		struct rte_ipv6_hdr *ip = (void *)(eth + 1);

		eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6);
		ip->vtc_flow = rte_cpu_to_be_32(6u << 28);
		ip->proto = IPPROTO_TCP;
		ip->hop_limits = 64;
		ip->src_addr[0] = 0x20;
		ip->src_addr[15] = 1;
		ip->dst_addr[0] = 0x20;
		ip->dst_addr[15] = 2;
		l3 = sizeof(*ip);
	} else {
		struct rte_ipv4_hdr *ip = (void *)(eth + 1);

		eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
		ip->version_ihl = RTE_IPV4_VHL_DEF;
		ip->packet_id = rte_cpu_to_be_16(0x7ff0);
		ip->time_to_live = 64;
		ip->next_proto_id = IPPROTO_TCP;
		ip->src_addr = rte_cpu_to_be_32(RTE_IPV4(198u, 18, 5, 1));
		ip->dst_addr = rte_cpu_to_be_32(RTE_IPV4(198u, 18, 5, 2));
		l3 = sizeof(*ip);
	}
	tcp = (void *)(h + 14 + l3);
	tcp->src_port = rte_cpu_to_be_16(40000);
	tcp->dst_port = rte_cpu_to_be_16(80);
	tcp->sent_seq = rte_cpu_to_be_32(0xfffff000u); /* Wraps. */
	tcp->data_off = 5 << 4;
	tcp->tcp_flags = RTE_TCP_CWR_FLAG | RTE_TCP_ACK_FLAG |
			 RTE_TCP_PSH_FLAG | RTE_TCP_FIN_FLAG;
	tcp->rx_win = rte_cpu_to_be_16(65535);
	return 14 + l3 + 20;
}

/* The packet of a case: header and TSO_FIRST payload bytes, then mbufs
 * of TSO_SEG; payload byte i is (i * 13 + 5) & 0xff.
 */
static struct rte_mbuf *
tso_mbuf(const struct tso_case *tc, const struct rte_ether_addr *dst,
	 uint8_t *pay)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(n_mp), *s;
	uint32_t hl, i, off, n;
	uint8_t *p;

	if (m == NULL)
		return NULL;
	for (i = 0; i < tc->payload; i++)
		pay[i] = (uint8_t)(i * 13 + 5);
	p = rte_pktmbuf_mtod(m, uint8_t *);
	hl = tso_hdr(p, dst, tc->ipv6);
	n = RTE_MIN((uint32_t)TSO_FIRST, tc->payload);
	memcpy(p + hl, pay, n);
	m->data_len = (uint16_t)(hl + n);
	m->pkt_len = hl + n;
	for (off = n; off < tc->payload; off += n) {
		s = rte_pktmbuf_alloc(n_mp);
		if (s == NULL) {
			rte_pktmbuf_free(m);
			return NULL;
		}
		n = RTE_MIN((uint32_t)TSO_SEG, tc->payload - off);
		memcpy(rte_pktmbuf_mtod(s, uint8_t *), pay + off, n);
		s->data_len = (uint16_t)n;
		s->pkt_len = n;
		if (rte_pktmbuf_chain(m, s) != 0) {
			rte_pktmbuf_free(s);
			rte_pktmbuf_free(m);
			return NULL;
		}
	}
	m->l2_len = 14;
	m->l3_len = tc->ipv6 ? 40 : 20;
	m->l4_len = 20;
	m->tso_segsz = tc->mss;
	m->ol_flags = RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_TCP_CKSUM |
		      (tc->ipv6 ? RTE_MBUF_F_TX_IPV6 :
		       RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM);
	if (tc->vlan) {
		m->ol_flags |= RTE_MBUF_F_TX_VLAN;
		m->vlan_tci = TSO_TCI;
	}
	return m;
}

/* Frame k of a case against the segmentation of the packet. */
static int
tso_check(const struct tso_case *tc, const struct rte_mbuf *m,
	  uint32_t k, uint32_t nseg, const uint8_t *pay, uint32_t *off)
{
	static uint8_t f[RTE_ETHER_MAX_JUMBO_FRAME_LEN];
	uint32_t l2 = tc->vlan ? 18 : 14, l3 = tc->ipv6 ? 40 : 20;
	uint32_t hl = l2 + l3 + 20;
	uint32_t chunk = RTE_MIN((uint32_t)tc->mss, tc->payload - *off);
	const uint8_t *p = rte_pktmbuf_read(m, 0, m->pkt_len, f);
	const uint8_t *tcp = p + l2 + l3;
	uint8_t flags = RTE_TCP_ACK_FLAG |
			(k == 0 ? RTE_TCP_CWR_FLAG : 0) |
			(k == nseg - 1 ? RTE_TCP_PSH_FLAG | RTE_TCP_FIN_FLAG :
			 0);
	uint32_t seq = 0xfffff000u + *off;

	TEST_ASSERT(p != NULL && m->pkt_len == hl + chunk, "frame %u: %u "
		    "bytes, expected %u", k, m->pkt_len, hl + chunk);
	if (tc->vlan)
		TEST_ASSERT(p[12] == 0x81 && p[13] == 0 &&
			    ((p[14] << 8) | p[15]) == TSO_TCI,
			    "frame %u: no tag", k);
	if (tc->ipv6)
		TEST_ASSERT_EQUAL(((p[l2 + 4] << 8) | p[l2 + 5]),
				  (int)(20 + chunk), "frame %u IPv6 length",
				  k);
	else
		TEST_ASSERT(((p[l2 + 2] << 8) | p[l2 + 3]) ==
			    (int)(40 + chunk) &&
			    ((p[l2 + 4] << 8) | p[l2 + 5]) == 0x7ff0 + (int)k,
			    "frame %u IPv4 length / id", k);
	TEST_ASSERT(((uint32_t)tcp[4] << 24 | tcp[5] << 16 | tcp[6] << 8 |
		     tcp[7]) == seq && tcp[13] == flags,
		    "frame %u: seq or flags 0x%02x (expected 0x%02x)", k,
		    tcp[13], flags);
	TEST_ASSERT((m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK) ==
		    RTE_MBUF_F_RX_L4_CKSUM_GOOD &&
		    (tc->ipv6 || (m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) ==
		     RTE_MBUF_F_RX_IP_CKSUM_GOOD),
		    "frame %u: checksum flags 0x%" PRIx64, k, m->ol_flags);
	TEST_ASSERT_BUFFERS_ARE_EQUAL(p + hl, pay + *off, chunk,
				      "frame %u payload", k);
	*off += chunk;
	return TEST_SUCCESS;
}

/* One case: the packet from A, the frames at B. */
static int
tso_run(uint16_t pa, uint16_t pb, const struct tso_case *tc)
{
	static uint8_t pay[TSO_PAY_MAX];
	struct rte_mbuf *m, *rx[16];
	struct rte_ether_addr mac;
	struct rte_eth_stats sa;
	uint32_t nseg = (tc->payload + tc->mss - 1) / tc->mss, k, off = 0;
	uint16_t got;
	int ret = TEST_SUCCESS;

	rte_eth_macaddr_get(pb, &mac);
	m = tso_mbuf(tc, &mac, pay);
	TEST_ASSERT_NOT_NULL(m, "packet");
	rte_eth_stats_reset(pa);
	TEST_ASSERT_EQUAL(rte_eth_tx_burst(pa, 0, &m, 1), 1, "sent");
	got = rx_all(pb, 1, rx, (uint16_t)RTE_MIN(nseg + 1, 16u), NULL);
	if (got != nseg) {
		printf("  %u frames, expected %u\n", got, nseg);
		ret = TEST_FAILED;
	}
	for (k = 0; k < got && ret == TEST_SUCCESS; k++)
		ret = tso_check(tc, rx[k], k, nseg, pay, &off);
	free_all(rx, got);
	TEST_ASSERT_SUCCESS(ret, "frames");
	TEST_ASSERT_EQUAL(off, tc->payload, "payload conserved");
	/* Counted as the frames on the wire, as net/mlx5 counts TSO. */
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(pa, &sa), "stats");
	TEST_ASSERT(sa.opackets == nseg && sa.oerrors == 0 &&
		    sa.obytes == tc->payload + (uint64_t)nseg *
		    ((tc->vlan ? 18 : 14) + (tc->ipv6 ? 40 : 20) + 20),
		    "A: %" PRIu64 " packets %" PRIu64 " bytes %" PRIu64
		    " errors", sa.opackets, sa.obytes, sa.oerrors);
	return TEST_SUCCESS;
}

/* A and B on wire w; A with TSO (and VLAN insertion). */
static int
tso_ports(int *pa, int *pb)
{
	struct rte_eth_conf ca = { 0 }, cb = { 0 };

	*pa = port_probe("net_mlx5cq_tsoa", "dev=emu,wire=tso");
	*pb = port_probe("net_mlx5cq_tsob", "dev=emu,wire=tso");
	if (*pa < 0 || *pb < 0)
		return -1;
	ca.txmode.offloads = RTE_ETH_TX_OFFLOAD_TCP_TSO |
			     RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
			     RTE_ETH_TX_OFFLOAD_TCP_CKSUM |
			     RTE_ETH_TX_OFFLOAD_MULTI_SEGS |
			     RTE_ETH_TX_OFFLOAD_VLAN_INSERT;
	cb.rxmode.offloads = RTE_ETH_RX_OFFLOAD_CHECKSUM;
	if (port_start(*pa, 1, &ca) != 0 || port_start(*pb, 1, &cb) != 0)
		return -1;
	return 0;
}

static int
test_net_tx_tso_segments(void)
{
	static const struct tso_case cases[] = {
		{ 0, 0, 10000, 1460 }, /* 7 frames, the last of 1,240. */
		{ 0, 0, 1000, 1460 }, /* One frame. */
		{ 0, 0, 2920, 1460 }, /* Two full frames. */
		{ 1, 0, 5000, 1000 }, /* IPv6. */
		{ 0, 1, 4500, 1400 }, /* VLAN tag inserted. */
		{ 1, 1, 3000, 700 },
	};
	struct rte_eth_dev_info info;
	unsigned int i;
	int pa = -1, pb = -1, ret = 0;

	if (tso_ports(&pa, &pb) != 0)
		ret = -1;
	TEST_ASSERT(ret == 0 && rte_eth_dev_info_get(pa, &info) == 0 &&
		    (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_TCP_TSO),
		    "ports, TSO offered");
	for (i = 0; i < RTE_DIM(cases) && ret == TEST_SUCCESS; i++) {
		ret = tso_run((uint16_t)pa, (uint16_t)pb, &cases[i]);
		if (ret != TEST_SUCCESS)
			printf("  case %u (IPv6 %d, vlan %d, %u / %u) failed\n",
			       i, cases[i].ipv6, cases[i].vlan,
			       cases[i].payload, cases[i].mss);
	}
	if (pb >= 0)
		port_remove((uint16_t)pb);
	if (pa >= 0)
		port_remove((uint16_t)pa);
	return ret;
}

/* Packets the PMD cannot segment: dropped, counted, nothing sent. */
static int
test_net_tx_tso_dropped(void)
{
	static uint8_t pay[TSO_PAY_MAX];
	const struct tso_case tc = { 0, 0, 3000, 1000 };
	struct rte_ether_addr mac;
	struct rte_eth_stats sa;
	struct rte_mbuf *m, *rx[4];
	int pa = -1, pb = -1, ok = 1;

	STEP(tso_ports(&pa, &pb) == 0, "ports");
	if (ok) {
		rte_eth_macaddr_get(pb, &mac);
		rte_eth_stats_reset(pa);
		/* tso_segsz 0. */
		m = tso_mbuf(&tc, &mac, pay);
		STEP(m != NULL, "packet");
		if (m != NULL) {
			m->tso_segsz = 0;
			STEP(rte_eth_tx_burst(pa, 0, &m, 1) == 1, "taken");
		}
		/* A header longer than the first mbuf. */
		m = tso_mbuf(&tc, &mac, pay);
		STEP(m != NULL, "packet");
		if (m != NULL) {
			m->l4_len = 60;
			m->data_len = 70;
			STEP(rte_eth_tx_burst(pa, 0, &m, 1) == 1, "taken");
		}
		STEP(rx_all(pb, 1, rx, 4, NULL) == 0, "nothing received");
		STEP(rte_eth_stats_get(pa, &sa) == 0 && sa.oerrors == 2 &&
		     sa.opackets == 0, "two dropped, counted");
	}
	if (pb >= 0)
		port_remove((uint16_t)pb);
	if (pa >= 0)
		port_remove((uint16_t)pa);
	return ok ? TEST_SUCCESS : TEST_FAILED;
}

static struct unit_test_suite net_tx_tso_suite = {
	.suite_name = "net_tx_tso",
	.setup = net_suite_setup,
	.teardown = net_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_tx_tso_segments),
		TEST_CASE(test_net_tx_tso_dropped),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_tx_tso, net_tx_tso_suite);
