/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_rx_flags": packet type and checksum flags of net_mlx5cq's RX.
 *
 * 1. The CQE header-type bits, spelled from mlx5_prm.h (MLX5_CQE_RX_*:
 *    bit 2 IPv6, bit 3 IPv4, bits 6:4 L4 header type with 1 TCP, 2 UDP,
 *    3 TCP empty ACK, 4 TCP with ACK, bit 7 IP fragment, bits 8/9/10 L2/L3/
 *    L4 header valid) for cases the emulated wire cannot produce (an IPv4
 *    fragment with a TCP header type, reserved L4 codes), against the
 *    flags the guide's table gives (doc/guides/net_mlx5cq.rst).
 * 2. Frames through the emulated wire into a started port: IPv4 UDP
 *    fragment, IPv4 ICMP, IPv6 UDP with a good and a bad checksum, ARP.
 */

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include <mlx5_emu.h>

#include "test.h"
#include "test_net_util.h"

/* hdr_type_etc bits (mlx5_prm.h). */
#define H_IPV6 (1u << 2)
#define H_IPV4 (1u << 3)
#define H_L4(t) ((unsigned int)(t) << 4)
#define H_FRAG (1u << 7)
#define H_L2OK (1u << 8)
#define H_L3OK (1u << 9)
#define H_L4OK (1u << 10)

#define P_V4 (RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4_EXT_UNKNOWN)
#define P_V6 (RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6_EXT_UNKNOWN)
#define IPG RTE_MBUF_F_RX_IP_CKSUM_GOOD
#define IPB RTE_MBUF_F_RX_IP_CKSUM_BAD
#define L4G RTE_MBUF_F_RX_L4_CKSUM_GOOD
#define L4B RTE_MBUF_F_RX_L4_CKSUM_BAD
#define CSUM_MASK (RTE_MBUF_F_RX_IP_CKSUM_MASK | RTE_MBUF_F_RX_L4_CKSUM_MASK)

struct flag_case {
	uint16_t hte;
	uint32_t ptype;
	uint64_t ol;
	const char *what;
};

static const struct flag_case flag_cases[] = {
	{ H_IPV4 | H_L4(1) | H_FRAG | H_L2OK | H_L3OK, /* 0x0398 */
	  P_V4 | RTE_PTYPE_L4_FRAG, IPG, "IPv4 fragment, TCP type, L3 OK" },
	{ H_IPV4 | H_L4(2) | H_L2OK | H_L3OK | H_L4OK,
	  P_V4 | RTE_PTYPE_L4_UDP, IPG | L4G, "IPv4 UDP good" },
	{ H_IPV4 | H_L4(1) | H_L2OK | H_L3OK,
	  P_V4 | RTE_PTYPE_L4_TCP, IPG | L4B, "IPv4 TCP bad L4" },
	{ H_IPV4 | H_L4(3) | H_L2OK | H_L3OK | H_L4OK,
	  P_V4 | RTE_PTYPE_L4_TCP, IPG | L4G, "TCP empty ACK" },
	{ H_IPV4 | H_L4(4) | H_L2OK | H_L3OK | H_L4OK,
	  P_V4 | RTE_PTYPE_L4_TCP, IPG | L4G, "TCP with ACK" },
	{ H_IPV4 | H_L4(5) | H_L2OK | H_L3OK | H_L4OK,
	  P_V4, IPG, "reserved L4 code 5" },
	{ H_IPV4 | H_L4(7) | H_L2OK | H_L3OK,
	  P_V4, IPG, "reserved L4 code 7" },
	{ H_IPV4 | H_L2OK | H_L3OK,
	  P_V4 | RTE_PTYPE_L4_NONFRAG, IPG, "IPv4 without TCP/UDP" },
	{ H_IPV4 | H_L4(2) | H_L2OK,
	  P_V4 | RTE_PTYPE_L4_UDP, IPB, "bad IPv4 header, L4 not OK" },
	{ H_IPV4 | H_L4(2) | H_L2OK | H_L4OK,
	  P_V4 | RTE_PTYPE_L4_UDP, IPB | L4G, "bad IPv4 header, L4 OK" },
	{ H_IPV6 | H_L4(2) | H_L2OK | H_L3OK | H_L4OK,
	  P_V6 | RTE_PTYPE_L4_UDP, L4G, "IPv6 UDP good" },
	{ H_IPV6 | H_L4(1) | H_L2OK | H_L3OK,
	  P_V6 | RTE_PTYPE_L4_TCP, L4B, "IPv6 TCP bad" },
	{ H_IPV6 | H_FRAG | H_L2OK | H_L3OK,
	  P_V6 | RTE_PTYPE_L4_FRAG, 0, "IPv6 fragment" },
	{ H_L2OK, RTE_PTYPE_L2_ETHER, 0, "not IP" },
	{ H_L4(2) | H_L2OK | H_L4OK, RTE_PTYPE_L2_ETHER, 0,
	  "L4 bits without L3" },
};

static int
test_rx_flags_table(void)
{
	uint32_t (*ptype)(uint16_t hdr_type_etc);
	uint64_t (*csum)(uint16_t hdr_type_etc);
	unsigned int i;

	TEST_ASSERT_SUCCESS(net_load(), "PMD not loaded");
	ptype = (uint32_t (*)(uint16_t))dlsym(RTLD_DEFAULT, "mlx5cq_rx_ptype");
	csum = (uint64_t (*)(uint16_t))dlsym(RTLD_DEFAULT, "mlx5cq_rx_csum");
	TEST_ASSERT(ptype != NULL && csum != NULL, "PMD symbols missing");
	for (i = 0; i < RTE_DIM(flag_cases); i++) {
		const struct flag_case *c = &flag_cases[i];

		TEST_ASSERT_EQUAL(ptype(c->hte), c->ptype,
				  "%s (0x%04x): ptype 0x%x, expected 0x%x",
				  c->what, c->hte, ptype(c->hte), c->ptype);
		TEST_ASSERT_EQUAL(csum(c->hte), c->ol,
				  "%s (0x%04x): flags 0x%" PRIx64 ", expected"
				  " 0x%" PRIx64, c->what, c->hte, csum(c->hte),
				  c->ol);
		/* The VLAN bit and the reserved bits 1, 11..15 change
		 * nothing.
		 */
		TEST_ASSERT_EQUAL(ptype((uint16_t)(c->hte | 0xf803)), c->ptype,
				  "%s: ptype depends on other bits", c->what);
		TEST_ASSERT_EQUAL(csum((uint16_t)(c->hte | 0xf803)), c->ol,
				  "%s: flags depend on other bits", c->what);
	}
	return TEST_SUCCESS;
}

static struct rte_mempool *fl_mp;

/* Ethernet header to dst with the given EtherType: its length. */
static uint32_t
eth_put(uint8_t *f, const struct rte_ether_addr *dst, uint16_t type)
{
	struct rte_ether_hdr *eth = (void *)f;

	eth->dst_addr = *dst;
	eth->src_addr = (struct rte_ether_addr)
			{{ 0x02, 0x11, 0x22, 0x33, 0x44, 0x66 }};
	eth->ether_type = rte_cpu_to_be_16(type);
	return sizeof(*eth);
}

/* IPv4 with protocol proto and payload bytes, fragment field frag. */
static uint32_t
ipv4_frame(uint8_t *f, const struct rte_ether_addr *dst, uint8_t proto,
	   uint16_t frag, uint16_t payload)
{
	uint32_t l2 = eth_put(f, dst, RTE_ETHER_TYPE_IPV4);
	struct rte_ipv4_hdr *ip = (void *)(f + l2);
	uint16_t i;

	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(sizeof(*ip) + payload);
	ip->fragment_offset = rte_cpu_to_be_16(frag);
	ip->time_to_live = 64;
	ip->next_proto_id = proto;
	ip->src_addr = rte_cpu_to_be_32(RTE_IPV4(10, 1, 2, 3));
	ip->dst_addr = rte_cpu_to_be_32(RTE_IPV4(10, 1, 2, 4));
	for (i = 0; i < payload; i++)
		((uint8_t *)(ip + 1))[i] = (uint8_t)(i * 3 + 1);
	if (proto == IPPROTO_UDP) {
		struct rte_udp_hdr *u = (void *)(ip + 1);

		u->dgram_len = rte_cpu_to_be_16(payload);
		u->dgram_cksum = 0;
		if (frag == 0)
			u->dgram_cksum = rte_ipv4_udptcp_cksum(ip, u);
	}
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	return l2 + sizeof(*ip) + payload;
}

/* IPv6 UDP with payload bytes; bad: the UDP checksum is spoiled. */
static uint32_t
ipv6_udp_frame(uint8_t *f, const struct rte_ether_addr *dst,
	       uint16_t payload, int bad)
{
	uint32_t l2 = eth_put(f, dst, RTE_ETHER_TYPE_IPV6);
	struct rte_ipv6_hdr *ip = (void *)(f + l2);
	struct rte_udp_hdr *u = (void *)(ip + 1);
	uint8_t *sa, *da;
	uint16_t i;

	memset(ip, 0, sizeof(*ip));
	ip->vtc_flow = rte_cpu_to_be_32(6u << 28);
	ip->payload_len = rte_cpu_to_be_16(sizeof(*u) + payload);
	ip->proto = IPPROTO_UDP;
	ip->hop_limits = 64;
	/* Byte views: the addresses are uint8_t[16] up to 24.07 and
	 * struct rte_ipv6_addr from 24.11.
	 */
	sa = (uint8_t *)&ip->src_addr;
	da = (uint8_t *)&ip->dst_addr;
	sa[0] = 0xfd;
	sa[15] = 1;
	da[0] = 0xfd;
	da[15] = 2;
	u->src_port = rte_cpu_to_be_16(1111);
	u->dst_port = rte_cpu_to_be_16(2222);
	u->dgram_len = ip->payload_len;
	u->dgram_cksum = 0;
	for (i = 0; i < payload; i++)
		((uint8_t *)(u + 1))[i] = (uint8_t)(i * 5 + 2);
	u->dgram_cksum = rte_ipv6_udptcp_cksum(ip, u);
	if (bad)
		u->dgram_cksum ^= rte_cpu_to_be_16(0x1111);
	return l2 + sizeof(*ip) + sizeof(*u) + payload;
}

static uint32_t
arp_frame(uint8_t *f, const struct rte_ether_addr *dst)
{
	uint32_t l2 = eth_put(f, dst, RTE_ETHER_TYPE_ARP);

	memset(f + l2, 0x42, 28);
	return l2 + 28;
}

static int
test_rx_flags_wire(void)
{
	struct rte_eth_conf conf;
	struct rte_ether_addr mac, bcast = {{ 0xff, 0xff, 0xff, 0xff, 0xff,
					      0xff }};
	struct rte_mbuf *m[4];
	uint8_t f[256];
	struct {
		uint32_t len;
		uint32_t ptype;
		uint64_t ol;
		const char *what;
	} fr[5];
	unsigned int i, n = 0;
	int port, ret = TEST_SUCCESS;

	TEST_ASSERT_SUCCESS(net_load(), "PMD not loaded");
	fl_mp = rte_pktmbuf_pool_create("rx_flags", 1024, 0, 0,
					RTE_MBUF_DEFAULT_BUF_SIZE,
					SOCKET_ID_ANY);
	TEST_ASSERT(fl_mp != NULL, "mempool");
	port = port_probe("net_mlx5cq_fl", "dev=emu,wire=fl");
	TEST_ASSERT(port >= 0, "probe failed");
	memset(&conf, 0, sizeof(conf));
	conf.rxmode.offloads = RTE_ETH_RX_OFFLOAD_CHECKSUM;
	if (rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, 256, SOCKET_ID_ANY, NULL,
				   fl_mp) != 0 ||
	    rte_eth_tx_queue_setup(port, 0, 256, SOCKET_ID_ANY, NULL) != 0 ||
	    rte_eth_dev_start(port) != 0) {
		port_remove(port);
		rte_mempool_free(fl_mp);
		TEST_ASSERT(0, "start failed");
	}
	rte_eth_macaddr_get(port, &mac);
	fr[0].what = "IPv4 UDP first fragment (MF)";
	fr[0].len = ipv4_frame(f, &mac, IPPROTO_UDP, RTE_IPV4_HDR_MF_FLAG,
			       64);
	fr[0].ptype = P_V4 | RTE_PTYPE_L4_FRAG;
	fr[0].ol = IPG;
	for (i = 0; i < 5; i++) {
		switch (i) {
		case 1:
			fr[1].what = "IPv4 ICMP";
			fr[1].len = ipv4_frame(f, &mac, IPPROTO_ICMP, 0, 32);
			fr[1].ptype = P_V4 | RTE_PTYPE_L4_NONFRAG;
			fr[1].ol = IPG;
			break;
		case 2:
			fr[2].what = "IPv6 UDP";
			fr[2].len = ipv6_udp_frame(f, &mac, 40, 0);
			fr[2].ptype = P_V6 | RTE_PTYPE_L4_UDP;
			fr[2].ol = L4G;
			break;
		case 3:
			fr[3].what = "IPv6 UDP bad checksum";
			fr[3].len = ipv6_udp_frame(f, &mac, 40, 1);
			fr[3].ptype = P_V6 | RTE_PTYPE_L4_UDP;
			fr[3].ol = L4B;
			break;
		case 4:
			fr[4].what = "ARP";
			fr[4].len = arp_frame(f, &bcast);
			fr[4].ptype = RTE_PTYPE_L2_ETHER;
			fr[4].ol = 0;
			break;
		default:
			break;
		}
		if (mlx5_emu_wire_inject("fl", f, fr[i].len) != 1) {
			printf("  %s: not delivered\n", fr[i].what);
			ret = TEST_FAILED;
			break;
		}
		n = rx_all(port, 1, m, 1, NULL);
		if (n != 1) {
			printf("  %s: %u received\n", fr[i].what, n);
			ret = TEST_FAILED;
			break;
		}
		if (m[0]->packet_type != fr[i].ptype ||
		    (m[0]->ol_flags & CSUM_MASK) != fr[i].ol ||
		    m[0]->pkt_len != fr[i].len || m[0]->port != port) {
			printf("  %s: ptype 0x%x (0x%x) flags 0x%" PRIx64
			       " (0x%" PRIx64 ") len %u (%u) port %u\n",
			       fr[i].what, m[0]->packet_type, fr[i].ptype,
			       (uint64_t)(m[0]->ol_flags & CSUM_MASK), fr[i].ol,
			       m[0]->pkt_len, fr[i].len, m[0]->port);
			ret = TEST_FAILED;
		}
		free_all(m, n);
	}
	port_remove(port);
	rte_mempool_free(fl_mp);
	fl_mp = NULL;
	return ret;
}

static struct unit_test_suite net_rx_flags_suite = {
	.suite_name = "net_rx_flags",
	.unit_test_cases = {
		TEST_CASE(test_rx_flags_table),
		TEST_CASE(test_rx_flags_wire),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(net_rx_flags, net_rx_flags_suite);
