/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_rx_offload": the RX offload results of the net PMD (packet types,
 * checksum flags, VLAN strip, RSS hash and queue) against frames built
 * here by hand.
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
 * Packet types ethdev reports for the port: the ones the RX path derives
 * from the CQE (l3_hdr_type: IPv4 / IPv6, l4_hdr_type: TCP / UDP, the
 * fragment bit), each once, on 22.11 (list ended by RTE_PTYPE_UNKNOWN)
 * and on 24.03 and later (length returned by the callback).
 */
static int
test_net_ptypes(void)
{
	static const uint32_t want[] = {
		RTE_PTYPE_L2_ETHER, RTE_PTYPE_L3_IPV4_EXT_UNKNOWN,
		RTE_PTYPE_L3_IPV6_EXT_UNKNOWN, RTE_PTYPE_L4_TCP,
		RTE_PTYPE_L4_UDP, RTE_PTYPE_L4_FRAG, RTE_PTYPE_L4_NONFRAG,
	};
	uint32_t got[16], l4[16];
	unsigned int i, j, seen;
	int port, n, n4;

	port = port_probe("net_mlx5cq_tp", "dev=emu,wire=tp");
	TEST_ASSERT(port >= 0, "probe failed");
	n = rte_eth_dev_get_supported_ptypes(port, RTE_PTYPE_ALL_MASK, got,
					     RTE_DIM(got));
	n4 = rte_eth_dev_get_supported_ptypes(port, RTE_PTYPE_L4_MASK, l4,
					      RTE_DIM(l4));
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	TEST_ASSERT_EQUAL(n, (int)RTE_DIM(want), "%d packet types", n);
	for (i = 0; i < RTE_DIM(want); i++) {
		seen = 0;
		for (j = 0; j < (unsigned int)n; j++)
			seen += got[j] == want[i];
		TEST_ASSERT_EQUAL(seen, 1u, "packet type 0x%08x seen %u times",
				  want[i], seen);
	}
	/* The four L4 types alone under the L4 mask. */
	TEST_ASSERT_EQUAL(n4, 4, "%d L4 packet types", n4);
	for (j = 0; j < (unsigned int)n4; j++)
		TEST_ASSERT_EQUAL((l4[j] & ~RTE_PTYPE_L4_MASK), 0u,
				  "0x%08x under the L4 mask", l4[j]);
	return TEST_SUCCESS;
}

static int
check_udp_flags(const struct rte_mbuf *m, uint64_t ip, uint64_t l4)
{
	TEST_ASSERT_EQUAL((m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK), ip,
			  "IP checksum flags 0x%" PRIx64 ", expected 0x%" PRIx64,
			  (uint64_t)(m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK),
			  ip);
	TEST_ASSERT_EQUAL((m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK), l4,
			  "L4 checksum flags 0x%" PRIx64 ", expected 0x%" PRIx64,
			  (uint64_t)(m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK),
			  l4);
	TEST_ASSERT_EQUAL(m->packet_type, (RTE_PTYPE_L2_ETHER |
			  RTE_PTYPE_L3_IPV4_EXT_UNKNOWN | RTE_PTYPE_L4_UDP),
			  "packet type 0x%x", m->packet_type);
	return TEST_SUCCESS;
}

/*
 * RX offloads: checksum good/bad, VLAN strip, RSS hash and queue, on a
 * port with 4 queues and RSS over IPv4/UDP.
 */
static int
test_net_rx_offloads(void)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_ether_addr mac;
	struct rte_mbuf *pkts[64];
	uint16_t qof[64];
	uint8_t f[256], key[40];
	struct rte_eth_rss_conf rc = { .rss_key = key, .rss_key_len = 40 };
	struct rte_eth_rss_reta_entry64 reta[1];
	uint32_t len, i, n;
	int port, ret = TEST_SUCCESS;

	port = port_probe("net_mlx5cq_to", "dev=emu,wire=to");
	TEST_ASSERT(port >= 0, "probe failed");
	conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
	conf.rx_adv_conf.rss_conf.rss_hf = RTE_ETH_RSS_NONFRAG_IPV4_UDP;
	conf.rxmode.offloads = RTE_ETH_RX_OFFLOAD_VLAN_STRIP |
			       RTE_ETH_RX_OFFLOAD_CHECKSUM;
	if (port_start(port, 4, &conf) != 0) {
		port_remove(port);
		TEST_ASSERT(0, "start failed");
	}
	rte_eth_macaddr_get(port, &mac);
	TEST_ASSERT_SUCCESS(rte_eth_dev_rss_hash_conf_get(port, &rc), "rss");
	memset(reta, 0, sizeof(reta));
	reta[0].mask = UINT64_MAX;
	TEST_ASSERT_SUCCESS(rte_eth_dev_rss_reta_query(port, reta, 64),
			    "reta");
	/* 32 flows, good checksums: flags, hash and queue. */
	for (i = 0; i < 32; i++) {
		len = frame_build(f, &mac, RTE_IPV4(198u, 18, 1, i), 1000 + i,
				  40, 0);
		TEST_ASSERT(mlx5_emu_wire_inject("to", f, len) == 1,
			    "inject");
	}
	n = rx_all(port, 4, pkts, 32, qof);
	if (n != 32) {
		printf("  received %u of 32\n", n);
		ret = TEST_FAILED;
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		const struct rte_ipv4_hdr *ip =
			rte_pktmbuf_mtod_offset(m, void *, 14);
		const struct rte_udp_hdr *udp = (const void *)(ip + 1);
		struct rte_ipv4_tuple t = {
			.src_addr = rte_be_to_cpu_32(ip->src_addr),
			.dst_addr = rte_be_to_cpu_32(ip->dst_addr),
			.sport = rte_be_to_cpu_16(udp->src_port),
			.dport = rte_be_to_cpu_16(udp->dst_port),
		};
		uint32_t h = rte_softrss((uint32_t *)&t, RTE_THASH_V4_L4_LEN,
					 key);

		if (check_udp_flags(m, RTE_MBUF_F_RX_IP_CKSUM_GOOD,
				    RTE_MBUF_F_RX_L4_CKSUM_GOOD) != 0 ||
		    !(m->ol_flags & RTE_MBUF_F_RX_RSS_HASH) ||
		    m->hash.rss != h ||
		    qof[i] != reta[0].reta[h % 64] ||
		    m->pkt_len != 14 + 20 + 8 + 40 ||
		    m->data_len != m->pkt_len) {
			printf("  packet %u: flags 0x%" PRIx64 " hash 0x%x "
			       "(expected 0x%x) queue %u (expected %u) len %u\n",
			       i, m->ol_flags, m->hash.rss, h, qof[i],
			       reta[0].reta[h % 64], m->pkt_len);
			ret = TEST_FAILED;
		}
	}
	free_all(pkts, n);
	if (ret != TEST_SUCCESS)
		goto out;
	/* Bad IP checksum, then bad UDP checksum, then a VLAN frame. */
	len = frame_build(f, &mac, RTE_IPV4(198u, 18, 2, 1), 7, 40, 0);
	f[14 + 10] ^= 0x5a;
	mlx5_emu_wire_inject("to", f, len);
	n = rx_all(port, 4, pkts, 1, NULL);
	if (n != 1 || check_udp_flags(pkts[0], RTE_MBUF_F_RX_IP_CKSUM_BAD,
				      RTE_MBUF_F_RX_L4_CKSUM_GOOD) != 0) {
		printf("  bad IP checksum frame: %u received\n", n);
		ret = TEST_FAILED;
	}
	free_all(pkts, n);
	len = frame_build(f, &mac, RTE_IPV4(198u, 18, 2, 2), 7, 40, 0);
	f[14 + 20 + 6] ^= 0x33;
	mlx5_emu_wire_inject("to", f, len);
	n = rx_all(port, 4, pkts, 1, NULL);
	if (n != 1 || check_udp_flags(pkts[0], RTE_MBUF_F_RX_IP_CKSUM_GOOD,
				      RTE_MBUF_F_RX_L4_CKSUM_BAD) != 0) {
		printf("  bad UDP checksum frame: %u received\n", n);
		ret = TEST_FAILED;
	}
	free_all(pkts, n);
	len = frame_build(f, &mac, RTE_IPV4(198u, 18, 2, 3), 7, 40, 1);
	mlx5_emu_wire_inject("to", f, len);
	n = rx_all(port, 4, pkts, 1, NULL);
	if (n != 1 || !(pkts[0]->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED) ||
	    !(pkts[0]->ol_flags & RTE_MBUF_F_RX_VLAN) ||
	    pkts[0]->vlan_tci != 0x2123 || pkts[0]->pkt_len != len - 4 ||
	    check_udp_flags(pkts[0], RTE_MBUF_F_RX_IP_CKSUM_GOOD,
			    RTE_MBUF_F_RX_L4_CKSUM_GOOD) != 0) {
		printf("  VLAN frame: %u received, flags 0x%" PRIx64
		       " tci 0x%x len %u\n", n, n ? pkts[0]->ol_flags : 0,
		       n ? pkts[0]->vlan_tci : 0, n ? pkts[0]->pkt_len : 0);
		ret = TEST_FAILED;
	}
	free_all(pkts, n);
out:
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	return ret;
}

static struct unit_test_suite net_rx_offload_suite = {
	.suite_name = "net_rx_offload",
	.setup = net_suite_setup,
	.teardown = net_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_ptypes),
		TEST_CASE(test_net_rx_offloads),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_rx_offload, net_rx_offload_suite);
