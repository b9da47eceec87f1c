/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_mlx5cq": the net PMD on the emulated HCA through the ethdev
 * API. Ports are made with rte_dev_probe("net_mlx5cq...,dev=emu,wire=..")
 * (the PMD is loaded from the build's drivers folder); frames are put on
 * the emulated wire with mlx5_emu_wire_inject() and read back with
 * rte_eth_rx_burst(), so every RX offload result is checked against a
 * frame built here by hand: checksum flags (good and bad), packet type,
 * VLAN strip, RSS hash (rte_softrss() of the tuple with the port's key)
 * and the queue it lands on, the vport filter (MAC list, promisc,
 * all-multicast), the MTU, TX checksum offload over a loopback wire, xstats
 * and RX interrupts. Probe failures and close/reconfigure leave no memory.
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
#include "test_net_util.h"
#include "test_wait.h"

#define NB_MBUF 4096
#define QDESC 256

static struct rte_mempool *n_mp;

static int
net_suite_setup(void)
{
	if (net_load() != 0 || net_ethdev_hold() != 0)
		return -1;
	n_mp = rte_pktmbuf_pool_create("net_mlx5cq_test", NB_MBUF, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE,
				       SOCKET_ID_ANY);
	return n_mp == NULL ? -1 : 0;
}

static void
net_suite_teardown(void)
{
	rte_mempool_free(n_mp);
	n_mp = NULL;
	net_ethdev_release();
}

/* Configure nq queues of QDESC descriptors and start. */
static int
port_start(uint16_t port, uint16_t nq, const struct rte_eth_conf *conf)
{
	uint16_t q;

	if (rte_eth_dev_configure(port, nq, nq, conf) != 0)
		return -1;
	for (q = 0; q < nq; q++) {
		if (rte_eth_rx_queue_setup(port, q, QDESC, SOCKET_ID_ANY, NULL,
					   n_mp) != 0 ||
		    rte_eth_tx_queue_setup(port, q, QDESC, SOCKET_ID_ANY,
					   NULL) != 0)
			return -1;
	}
	return rte_eth_dev_start(port);
}

/* Probe args on devices opened with caps (NULL: the defaults); 0 when
 * refused with a log line holding every string of want, no port left.
 */
static int
probe_refused(const struct mlx5_emu_caps *caps, const char *args,
		      const char *const *want, unsigned int nwant)
{
	uint16_t nb = rte_eth_dev_count_avail();
	FILE *old = rte_log_get_stream(), *log;
	char *buf = NULL;
	size_t len = 0;
	unsigned int i;
	int port, ret = 0;

	log = open_memstream(&buf, &len);
	if (log == NULL || mlx5_emu_open_caps_set(caps) != 0) {
		if (log != NULL)
			fclose(log);
		free(buf);
		return -1;
	}
	rte_openlog_stream(log);
	port = port_probe("net_mlx5cq_tb", args);
	rte_openlog_stream(old);
	mlx5_emu_open_caps_set(NULL);
	fclose(log);
	if (port >= 0) {
		printf("  \"%s\" probed\n", args);
		port_remove(port);
		ret = -1;
	}
	if (rte_eth_dev_count_avail() != nb)
		ret = -1;
	for (i = 0; i < nwant && ret == 0; i++) {
		if (buf == NULL || strstr(buf, want[i]) == NULL) {
			printf("  \"%s\": no \"%s\" in the log:\n%s\n", args,
			       want[i], buf ? buf : "");
			ret = -1;
		}
	}
	free(buf);
	return ret;
}

/* Probe with bad devargs: refused with a log line naming them, nothing
 * left behind.
 */
static int
test_net_bad_devargs(void)
{
	static const struct {
		const char *args;
		const char *msg;
	} bad[] = {
		{ "dev=emu,foo=1", "unknown key foo" },
		{ "dev=emu,cq_path=x", "bad value \"x\" for cq_path" },
		{ "dev=emu,cqe_size=32", "bad value \"32\" for cqe_size" },
		{ "dev=emu,cqe_pad=1", "cqe_pad=1 needs cqe_size=128" },
		{ "dev=emu,cqe_comp=zip", "bad value \"zip\" for cqe_comp" },
		{ "dev=emu,cqe_comp=none,cqe_comp_layout=enhanced",
		  "cqe_comp_layout=enhanced needs cqe_comp" },
		{ "dev=emu,mr_ext_memseg_en=2",
		  "bad value \"2\" for mr_ext_memseg_en" },
		{ "dev=emu,rxq_desc=1", "bad value \"1\" for rxq_desc" },
		{ "dev=emu,txq_desc=99999",
		  "bad value \"99999\" for txq_desc" },
		{ "dev=emu,tx_comp_thresh=0",
		  "bad value \"0\" for tx_comp_thresh" },
		{ "dev=emu,mac=ff:ff:ff:ff:ff:ff",
		  "bad value \"ff:ff:ff:ff:ff:ff\" for mac" },
		{ "dev=emu,wire=", "bad value \"\" for wire" },
		{ "dev=no_such_ibdev", "dev=no_such_ibdev" },
		{ "dev=no_such_ibdev,wire=w",
		  "wire, mac and speed apply to dev=emu only" },
		{ "dev=emu,speed=0", "bad value \"0\" for speed" },
		{ "dev=emu,speed=150",
		  "speed 150 Mb/s is not a multiple of 100" },
		{ "dev=emu,speed=6553600", "bad value \"6553600\" for speed" },
		{ "dev=no_such_ibdev,speed=1000",
		  "wire, mac and speed apply to dev=emu only" },
		/* CQE sizes are 64 or 128 only (cqc cqe_sz 0/1). */
		{ "dev=emu,cqe_size=65", "bad value \"65\" for cqe_size" },
		{ "dev=emu,cqe_size=96", "bad value \"96\" for cqe_size" },
		{ "dev=emu,cqe_size=127", "bad value \"127\" for cqe_size" },
		{ "dev=emu,cqe_size=0x50", "bad value \"0x50\" for cqe_size" },
		/* Verbs CQs have MLX5DV_CQE_RES_FORMAT_HASH/CSUM/CSUM_STRIDX
		 * and the basic layout only (mlx5dv.h).
		 */
		{ "dev=emu,cq_path=verbs,cqe_comp=ftag",
		  "cq_path=verbs cannot have cqe_comp=ftag" },
		{ "dev=emu,cq_path=verbs,cqe_comp=l34h",
		  "cq_path=verbs cannot have cqe_comp=l34h" },
		{ "dev=emu,cq_path=verbs,cqe_comp=hash,cqe_comp_layout=enhanced",
		  "cq_path=verbs cannot have cqe_comp_layout=enhanced" },
	};
	struct heap_use before, after;
	unsigned int i;
	int port;

	/* Warm up: the first port of a process makes ethdev's shared data. */
	port = port_probe("net_mlx5cq_tb", "dev=emu");
	TEST_ASSERT(port >= 0, "probe failed");
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	heap_use(&before);
	for (i = 0; i < RTE_DIM(bad); i++)
		TEST_ASSERT_SUCCESS(probe_refused(NULL, bad[i].args,
						  &bad[i].msg, 1),
				    "devargs \"%s\"", bad[i].args);
	heap_use(&after);
	TEST_ASSERT(before.heap_bytes == after.heap_bytes &&
		    before.alloc_count == after.alloc_count,
		    "bad probes leaked: %" PRIu64 "/%" PRIu64 " -> %" PRIu64
		    "/%" PRIu64, before.heap_bytes, before.alloc_count,
		    after.heap_bytes, after.alloc_count);
	return TEST_SUCCESS;
}

/*
 * Devargs the device's capabilities refuse are refused at probe (a CQ of
 * each kind is made and destroyed there), the log line naming the
 * devargs; nothing leaked; with the capability the same devargs probe.
 */
static int
test_net_devargs_caps(void)
{
	static const char *const ftag[] = { "cqe_comp=ftag",
					    "cq_path=auto" };
	static const char *const c128[] = { "cqe_size=128", "cqe_comp=hash" };
	static const char *const enh[] = { "cqe_comp_layout=enhanced" };
	static const char *const nocomp[] = { "cqe_comp=hash",
					      "the device cannot make these "
					      "RX CQs" };
	struct mlx5_emu_caps caps;
	struct heap_use before, after;
	int port;

	heap_use(&before);
	mlx5_emu_caps_default(&caps);
	caps.mini_cqe_resp_flow_tag = 0;
	TEST_ASSERT_SUCCESS(probe_refused(&caps, "dev=emu,cqe_comp=ftag", ftag,
					  RTE_DIM(ftag)),
			    "ftag without mini_cqe_resp_flow_tag");
	mlx5_emu_caps_default(&caps);
	caps.cqe_compression_128 = 0;
	TEST_ASSERT_SUCCESS(probe_refused(&caps,
			    "dev=emu,cqe_comp=hash,cqe_size=128", c128,
			    RTE_DIM(c128)),
			    "128 B compression without cqe_compression_128");
	mlx5_emu_caps_default(&caps);
	caps.enhanced_cqe_compression = 0;
	TEST_ASSERT_SUCCESS(probe_refused(&caps,
			    "dev=emu,cqe_comp=csum,cqe_comp_layout=enhanced",
			    enh, RTE_DIM(enh)),
			    "enhanced layout without enhanced_cqe_compression");
	/* cqe_comp given: no fallback to plain CQEs (the default has one,
	 * suite net_rx_ahead).
	 */
	mlx5_emu_caps_default(&caps);
	caps.cqe_compression = 0;
	TEST_ASSERT_SUCCESS(probe_refused(&caps, "dev=emu,cqe_comp=hash",
					  nocomp, RTE_DIM(nocomp)),
			    "cqe_comp=hash without cqe_compression");
	heap_use(&after);
	TEST_ASSERT(before.heap_bytes == after.heap_bytes &&
		    before.alloc_count == after.alloc_count,
		    "refused probes leaked: %" PRIu64 "/%" PRIu64 " -> %"
		    PRIu64 "/%" PRIu64, before.heap_bytes, before.alloc_count,
		    after.heap_bytes, after.alloc_count);
	/* The default device has every one of them. */
	port = port_probe("net_mlx5cq_tc", "dev=emu,cqe_comp=ftag,"
			  "cqe_size=128,cqe_comp_layout=enhanced");
	TEST_ASSERT(port >= 0, "probe with the capabilities failed");
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	return TEST_SUCCESS;
}

/* Probe, start with 1 then 4 queues, stop, close: nothing leaked. */
static int
test_net_lifecycle_no_leak(void)
{
	struct rte_eth_conf conf = { 0 };
	struct heap_use before, after;
	struct rte_eth_link link;
	int port;

	heap_use(&before);
	port = port_probe("net_mlx5cq_tl", "dev=emu,wire=tl");
	TEST_ASSERT(port >= 0, "probe failed");
	TEST_ASSERT_SUCCESS(port_start(port, 1, &conf), "start 1q");
	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(port, &link), "link");
	TEST_ASSERT_EQUAL(link.link_status, RTE_ETH_LINK_UP,
			  "link down while started on a wire");
	/* The emulated port's default speed, from QUERY_VPORT_STATE. */
	TEST_ASSERT_EQUAL(link.link_speed, RTE_ETH_SPEED_NUM_1G,
			  "link speed %u", link.link_speed);
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(port), "stop");
	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(port, &link), "link");
	TEST_ASSERT(link.link_status == RTE_ETH_LINK_DOWN &&
		    link.link_speed == RTE_ETH_SPEED_NUM_NONE,
		    "stopped: link down, no speed");
	conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
	conf.rx_adv_conf.rss_conf.rss_hf = RTE_ETH_RSS_IP;
	TEST_ASSERT_SUCCESS(port_start(port, 4, &conf), "start 4q");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(port), "stop");
	TEST_ASSERT_SUCCESS(port_start(port, 2, &conf), "start 2q");
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	heap_use(&after);
	TEST_ASSERT(before.heap_bytes == after.heap_bytes &&
		    before.alloc_count == after.alloc_count,
		    "lifecycle leaked: %" PRIu64 "/%" PRIu64 " -> %" PRIu64
		    "/%" PRIu64, before.heap_bytes, before.alloc_count,
		    after.heap_bytes, after.alloc_count);
	return TEST_SUCCESS;
}

/* speed= (Mb/s) on the emulated port: link speed and speed capability. */
static int
test_net_link_speed(void)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_eth_dev_info info;
	struct rte_eth_link link;
	int port;

	port = port_probe("net_mlx5cq_ts", "dev=emu,wire=ts,speed=25000");
	TEST_ASSERT(port >= 0, "probe failed");
	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(port, &info), "info");
	TEST_ASSERT_EQUAL(info.speed_capa, (RTE_ETH_LINK_SPEED_FIXED |
			  RTE_ETH_LINK_SPEED_25G), "speed_capa 0x%x",
			  info.speed_capa);
	TEST_ASSERT_SUCCESS(port_start(port, 1, &conf), "start");
	TEST_ASSERT_SUCCESS(rte_eth_link_get_nowait(port, &link), "link");
	TEST_ASSERT(link.link_status == RTE_ETH_LINK_UP &&
		    link.link_speed == RTE_ETH_SPEED_NUM_25G &&
		    link.link_duplex == RTE_ETH_LINK_FULL_DUPLEX &&
		    link.link_autoneg == RTE_ETH_LINK_FIXED,
		    "link %u speed %u", link.link_status, link.link_speed);
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	return TEST_SUCCESS;
}

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

/* Inject one frame to dst and count what port receives. */
static uint16_t
rx_one(uint16_t port, const char *wire, const struct rte_ether_addr *dst,
	uint16_t payload)
{
	struct rte_mbuf *pkts[4];
	uint8_t f[2048];
	uint32_t len = frame_build(f, dst, RTE_IPV4(198u, 18, 3, 1), 9,
				   payload, 0);
	uint16_t n;

	mlx5_emu_wire_inject(wire, f, len);
	n = rx_all(port, 1, pkts, 4, NULL);
	free_all(pkts, n);
	return n;
}

/* vport filter: own MAC, added MAC, promisc, all-multicast; MTU. */
static int
test_net_filter_mtu(void)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_ether_addr mac, other = {{ 0x02, 0, 0, 0, 0x77, 0x01 }};
	struct rte_ether_addr mc = {{ 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03 }};
	struct rte_ether_addr bc = {{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }};
	int port, ok = 1;

	port = port_probe("net_mlx5cq_tf", "dev=emu,wire=tf,"
			  "mac=02:00:00:00:66:01");
	TEST_ASSERT(port >= 0, "probe failed");
	if (port_start(port, 1, &conf) != 0) {
		port_remove(port);
		TEST_ASSERT(0, "start failed");
	}
	rte_eth_macaddr_get(port, &mac);
	ok &= mac.addr_bytes[4] == 0x66 && mac.addr_bytes[5] == 0x01;
	rte_eth_promiscuous_disable(port);
	rte_eth_allmulticast_disable(port);
	ok &= rx_one(port, "tf", &mac, 40) == 1;
	ok &= rx_one(port, "tf", &bc, 40) == 1;
	ok &= rx_one(port, "tf", &other, 40) == 0;
	ok &= rx_one(port, "tf", &mc, 40) == 0;
	if (!ok)
		printf("  filter: own/broadcast/other/multicast wrong\n");
	ok &= rte_eth_dev_mac_addr_add(port, &other, 0) == 0;
	ok &= rx_one(port, "tf", &other, 40) == 1;
	ok &= rte_eth_dev_mac_addr_remove(port, &other) == 0;
	ok &= rx_one(port, "tf", &other, 40) == 0;
	if (!ok)
		printf("  filter: added MAC wrong\n");
	ok &= rte_eth_allmulticast_enable(port) == 0;
	ok &= rx_one(port, "tf", &mc, 40) == 1;
	ok &= rx_one(port, "tf", &other, 40) == 0;
	ok &= rte_eth_promiscuous_enable(port) == 0;
	ok &= rx_one(port, "tf", &other, 40) == 1;
	if (!ok)
		printf("  filter: allmulti/promisc wrong\n");
	/* MTU 1000: frames up to 1018 bytes (MTU + L2 + VLAN) pass. */
	ok &= rte_eth_dev_set_mtu(port, 1000) == 0;
	ok &= rx_one(port, "tf", &mac, 1018 - 42) == 1;
	ok &= rx_one(port, "tf", &mac, 1019 - 42) == 0;
	ok &= rte_eth_dev_set_mtu(port, 1500) == 0;
	ok &= rx_one(port, "tf", &mac, 1019 - 42) == 1;
	if (!ok)
		printf("  MTU wrong\n");
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	TEST_ASSERT(ok, "vport filter / MTU");
	return TEST_SUCCESS;
}

/*
 * TX over a loopback wire (a port alone on its wire receives its own
 * frames): payloads come back unchanged; with TX checksum offload the
 * device fills the zeroed IP and UDP checksums; multi-segment frames.
 */
static int
test_net_tx_loopback(void)
{
	struct rte_eth_conf conf = {
		.txmode.offloads = RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
				   RTE_ETH_TX_OFFLOAD_UDP_CKSUM |
				   RTE_ETH_TX_OFFLOAD_MULTI_SEGS,
	};
	struct rte_ether_addr mac;
	struct rte_mbuf *tx[64], *rx[64];
	struct rte_eth_stats st;
	uint8_t f[256];
	uint32_t len, i, n, sent = 0;
	uint64_t deadline;
	int port, ok = 1;

	port = port_probe("net_mlx5cq_tx", "dev=emu,wire=tx,tx_comp_thresh=4");
	TEST_ASSERT(port >= 0, "probe failed");
	if (port_start(port, 1, &conf) != 0) {
		port_remove(port);
		TEST_ASSERT(0, "start failed");
	}
	rte_eth_macaddr_get(port, &mac);
	for (i = 0; i < 48; i++) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(n_mp);
		struct rte_ipv4_hdr *ip;

		len = frame_build(f, &mac, RTE_IPV4(10, 0, 0, i), 100 + i,
				  60, 0);
		if (i % 3 == 2) {
			/* Two segments: headers, then the payload. */
			struct rte_mbuf *s = rte_pktmbuf_alloc(n_mp);

			memcpy(rte_pktmbuf_append(m, 42), f, 42);
			memcpy(rte_pktmbuf_append(s, len - 42), f + 42,
			       len - 42);
			rte_pktmbuf_chain(m, s);
		} else {
			memcpy(rte_pktmbuf_append(m, len), f, len);
		}
		if (i % 2) {
			ip = rte_pktmbuf_mtod_offset(m, void *, 14);
			ip->hdr_checksum = 0;
			((struct rte_udp_hdr *)(ip + 1))->dgram_cksum =
				rte_ipv4_phdr_cksum(ip, 0);
			m->l2_len = 14;
			m->l3_len = 20;
			m->ol_flags = RTE_MBUF_F_TX_IPV4 |
				      RTE_MBUF_F_TX_IP_CKSUM |
				      RTE_MBUF_F_TX_UDP_CKSUM;
		}
		tx[i] = m;
	}
	deadline = test_wait_deadline(TEST_WAIT_S);
	while (sent < 48 && !test_wait_expired(deadline)) {
		sent += rte_eth_tx_burst(port, 0, tx + sent, 48 - sent);
		rte_delay_us_sleep(100);
	}
	if (sent < 48) {
		printf("  %u of 48 sent after %d s\n", sent, TEST_WAIT_S);
		rte_pktmbuf_free_bulk(tx + sent, 48 - sent);
		ok = 0;
	}
	n = rx_all(port, 1, rx, 48, NULL);
	ok &= n == 48;
	for (i = 0; i < n; i++) {
		const struct rte_ipv4_hdr *ip =
			rte_pktmbuf_mtod_offset(rx[i], void *, 14);
		uint32_t k = rte_be_to_cpu_32(ip->src_addr) & 0xff;

		len = frame_build(f, &mac, RTE_IPV4(10, 0, 0, k), 100 + k, 60,
				  0);
		if (rx[i]->pkt_len != len ||
		    memcmp(rte_pktmbuf_mtod(rx[i], void *), f, len) != 0 ||
		    (rx[i]->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) !=
		    RTE_MBUF_F_RX_IP_CKSUM_GOOD ||
		    (rx[i]->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK) !=
		    RTE_MBUF_F_RX_L4_CKSUM_GOOD) {
			printf("  frame %u (flow %u) differs, flags 0x%" PRIx64
			       "\n", i, k, rx[i]->ol_flags);
			ok = 0;
		}
	}
	free_all(rx, n);
	rte_eth_stats_get(port, &st);
	ok &= st.opackets == 48 && st.ipackets == 48 && st.oerrors == 0 &&
	      st.ierrors == 0;
	if (!ok)
		printf("  received %u, stats ipackets %" PRIu64 " opackets %"
		       PRIu64 " oerrors %" PRIu64 "\n", n, st.ipackets,
		       st.opackets, st.oerrors);
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	TEST_ASSERT(ok, "TX loopback");
	return TEST_SUCCESS;
}

static int
xstat_get(uint16_t port, const char *name, uint64_t *v)
{
	uint64_t id;

	if (rte_eth_xstats_get_id_by_name(port, name, &id) != 0)
		return -1;
	return rte_eth_xstats_get_by_id(port, &id, v, 1) == 1 ? 0 : -1;
}

/* xstats: CQ counters per queue, equal to the traffic; reset. */
static int
test_net_xstats(void)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_ether_addr mac;
	struct rte_mbuf *pkts[16];
	uint64_t cpl = 0, pk = 0, err = 1, polls = 0;
	uint8_t f[128];
	uint32_t len, i;
	int port, ok = 1;

	port = port_probe("net_mlx5cq_tz", "dev=emu,wire=tz");
	TEST_ASSERT(port >= 0, "probe failed");
	if (port_start(port, 1, &conf) != 0) {
		port_remove(port);
		TEST_ASSERT(0, "start failed");
	}
	rte_eth_macaddr_get(port, &mac);
	for (i = 0; i < 10; i++) {
		len = frame_build(f, &mac, RTE_IPV4(10, 1, 0, i), 5, 20, 0);
		mlx5_emu_wire_inject("tz", f, len);
	}
	ok &= rx_all(port, 1, pkts, 10, NULL) == 10;
	free_all(pkts, 10);
	ok &= xstat_get(port, "rx_q0_cq_completions", &cpl) == 0 && cpl == 10;
	ok &= xstat_get(port, "rx_q0_packets", &pk) == 0 && pk == 10;
	ok &= xstat_get(port, "rx_q0_cq_errors", &err) == 0 && err == 0;
	ok &= xstat_get(port, "rx_q0_cq_polls", &polls) == 0 && polls >= 1;
	ok &= rte_eth_xstats_reset(port) == 0;
	ok &= xstat_get(port, "rx_q0_cq_completions", &cpl) == 0 && cpl == 0;
	ok &= xstat_get(port, "rx_q0_packets", &pk) == 0 && pk == 0;
	if (!ok)
		printf("  completions %" PRIu64 " packets %" PRIu64 " errors %"
		       PRIu64 " polls %" PRIu64 "\n", cpl, pk, err, polls);
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	TEST_ASSERT(ok, "xstats");
	return TEST_SUCCESS;
}

/* Queue stop/start while the port runs: a stopped RQ receives nothing. */
static int
test_net_queue_stop_start(void)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_ether_addr mac;
	int port, ok = 1;

	port = port_probe("net_mlx5cq_tq", "dev=emu,wire=tq");
	TEST_ASSERT(port >= 0, "probe failed");
	if (port_start(port, 1, &conf) != 0) {
		port_remove(port);
		TEST_ASSERT(0, "start failed");
	}
	rte_eth_macaddr_get(port, &mac);
	ok &= rx_one(port, "tq", &mac, 30) == 1;
	ok &= rte_eth_dev_rx_queue_stop(port, 0) == 0;
	ok &= rx_one(port, "tq", &mac, 30) == 0;
	ok &= rte_eth_dev_rx_queue_start(port, 0) == 0;
	ok &= rx_one(port, "tq", &mac, 30) == 1;
	ok &= rte_eth_dev_tx_queue_stop(port, 0) == 0;
	ok &= rte_eth_dev_tx_queue_start(port, 0) == 0;
	/* Several restarts: every buffer is posted again each time. */
	ok &= rte_eth_dev_rx_queue_stop(port, 0) == 0;
	ok &= rte_eth_dev_rx_queue_start(port, 0) == 0;
	ok &= rx_one(port, "tq", &mac, 30) == 1;
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	TEST_ASSERT(ok, "queue stop/start");
	return TEST_SUCCESS;
}

/*
 * RX burst mode: a set-up queue reports its path (the default
 * rx_vec_en=1: TEST_NET_RX_VEC_MODE, "Scalar" with rx_vec_en=0 or when
 * the EAL allows no 128-bit SIMD, the latter with an INFO line at the
 * queue's setup, want_log); a queue configured but not set up is refused
 * with -EINVAL and a log line (ethdev checks the index only), the mode
 * left zeroed.
 */
static int
burst_mode_of(const char *name, const char *args, const char *want,
	      const char *want_log)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_eth_burst_mode mode;
	FILE *old = rte_log_get_stream(), *log;
	/* An existing name: rte_log_register() returns its id. */
	const int lt = rte_log_register("pmd.net.mlx5cq");
	const int old_level = rte_log_get_level(lt);
	char *buf = NULL;
	size_t len = 0;
	int port, ok = 1, ret;

	if (lt < 0 || old_level < 0)
		return -1;
	port = port_probe(name, args);
	if (port < 0)
		return -1;
	if (rte_eth_dev_configure(port, 2, 1, &conf) != 0) {
		port_remove(port);
		return -1;
	}
	log = open_memstream(&buf, &len);
	if (log == NULL) {
		port_remove(port);
		return -1;
	}
	rte_openlog_stream(log);
	rte_log_set_level(lt, RTE_LOG_INFO);
	ret = rte_eth_rx_queue_setup(port, 0, QDESC, SOCKET_ID_ANY, NULL,
				     n_mp);
	if (ret == 0) {
		memset(&mode, 0x55, sizeof(mode));
		ret = rte_eth_rx_burst_mode_get(port, 0, &mode);
		if (ret != 0 || strcmp(mode.info, want) != 0 ||
		    mode.flags != 0) {
			printf("  %s: queue 0: %d \"%s\", expected \"%s\"\n",
			       args, ret, ret == 0 ? mode.info : "", want);
			ok = 0;
		}
		memset(&mode, 0x55, sizeof(mode));
		ret = rte_eth_rx_burst_mode_get(port, 1, &mode);
	}
	rte_log_set_level(lt, (uint32_t)old_level);
	rte_openlog_stream(old);
	fclose(log);
	if (ret != -EINVAL || mode.info[0] != '\0' ||
	    buf == NULL || strstr(buf, "rxq 1: not set up") == NULL ||
	    (want_log != NULL && strstr(buf, want_log) == NULL) ||
	    (want_log == NULL && strstr(buf, "-bit SIMD") != NULL)) {
		printf("  %s: queue 1 (not set up): %d, log (expected %s):"
		       "\n%s\n", args, ret, want_log ? want_log : "none",
		       buf ? buf : "");
		ok = 0;
	}
	free(buf);
	if (port_remove(port) != 0)
		ok = 0;
	return ok ? 0 : -1;
}

static int
test_net_rx_burst_mode(void)
{
	const uint16_t bits = rte_vect_get_max_simd_bitwidth();
	int ret;

	TEST_ASSERT_SUCCESS(burst_mode_of("net_mlx5cq_bm", "dev=emu",
					  TEST_NET_RX_VEC_MODE, NULL),
			    "default");
	TEST_ASSERT_SUCCESS(burst_mode_of("net_mlx5cq_bm",
					  "dev=emu,rx_vec_en=0", "Scalar",
					  NULL),
			    "rx_vec_en=0");
	/* As with --force-max-simd-bitwidth=64: no SIMD stores. */
	ret = rte_vect_set_max_simd_bitwidth(RTE_VECT_SIMD_DISABLED);
	if (ret == -EPERM) {
		printf("  SIMD bitwidth forced on the command line: the"
		       " 64-bit case is not run\n");
		return TEST_SUCCESS;
	}
	TEST_ASSERT_SUCCESS(ret, "set the SIMD bitwidth to 64");
	ret = burst_mode_of("net_mlx5cq_bm", "dev=emu", "Scalar",
			    strcmp(TEST_NET_RX_VEC_MODE, "Scalar") != 0 ?
			    "rxq 0: rx_vec_en=1, but the EAL allows 64-bit"
			    " SIMD: RX per packet" : NULL);
	TEST_ASSERT_SUCCESS(rte_vect_set_max_simd_bitwidth(bits),
			    "restore the SIMD bitwidth");
	TEST_ASSERT_SUCCESS(ret, "64-bit SIMD");
	return TEST_SUCCESS;
}

/*
 * RX error: 256 B buffers, a longer frame completes with a responder error
 * (LOC_LEN_ERR, the RQ goes to ERR); the PMD counts it, takes the RQ back
 * to RDY and the next frame is received.
 */
static int
test_net_rx_error_recovery(void)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_mempool *small;
	struct rte_ether_addr mac;
	struct rte_mbuf *pkts[4];
	struct rte_eth_stats st;
	uint8_t f[1024];
	uint32_t len;
	int port, ok = 1;

	small = rte_pktmbuf_pool_create("net_mlx5cq_small", 1024, 0, 0,
					RTE_PKTMBUF_HEADROOM + 256,
					SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(small, "mempool");
	port = port_probe("net_mlx5cq_te", "dev=emu,wire=te");
	if (port < 0 || rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, QDESC, SOCKET_ID_ANY, NULL,
				   small) != 0 ||
	    rte_eth_tx_queue_setup(port, 0, QDESC, SOCKET_ID_ANY, NULL) != 0 ||
	    rte_eth_dev_start(port) != 0) {
		if (port >= 0)
			port_remove(port);
		rte_mempool_free(small);
		TEST_ASSERT(0, "port setup");
	}
	rte_eth_macaddr_get(port, &mac);
	len = frame_build(f, &mac, RTE_IPV4(10, 3, 0, 1), 5, 600, 0);
	mlx5_emu_wire_inject("te", f, len);
	ok &= rx_all(port, 1, pkts, 1, NULL) == 0;
	rte_eth_stats_get(port, &st);
	ok &= st.ierrors == 1 && st.ipackets == 0;
	len = frame_build(f, &mac, RTE_IPV4(10, 3, 0, 2), 5, 100, 0);
	mlx5_emu_wire_inject("te", f, len);
	ok &= rx_all(port, 1, pkts, 1, NULL) == 1;
	if (ok)
		ok &= pkts[0]->pkt_len == len;
	rte_pktmbuf_free(pkts[0]);
	rte_eth_stats_get(port, &st);
	if (!ok)
		printf("  ierrors %" PRIu64 " ipackets %" PRIu64 "\n",
		       st.ierrors, st.ipackets);
	ok &= st.ierrors == 1 && st.ipackets == 1;
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	rte_mempool_free(small);
	TEST_ASSERT(ok, "RX error recovery");
	return TEST_SUCCESS;
}

/*
 * RX error with the RQ still RDY (the emulated wire's fault injection:
 * an error CQE without the ERR transition): the PMD's recovery finds the
 * RQ not in ERR, takes it RDY -> RST -> RDY instead, counts one recovery
 * and no failure, and receives the next frames.
 */
static int
test_net_rx_error_rdy(void)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_ether_addr mac;
	struct rte_mbuf *pkts[4];
	struct rte_eth_stats st;
	uint64_t rec = UINT64_MAX, fail = UINT64_MAX;
	uint8_t f[256];
	uint32_t len, i;
	int port, ok = 1;

	port = port_probe("net_mlx5cq_tr", "dev=emu,wire=tr");
	if (port < 0 || rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, QDESC, SOCKET_ID_ANY, NULL,
				   n_mp) != 0 ||
	    rte_eth_tx_queue_setup(port, 0, QDESC, SOCKET_ID_ANY, NULL) != 0 ||
	    rte_eth_dev_start(port) != 0) {
		if (port >= 0)
			port_remove(port);
		TEST_ASSERT(0, "port setup");
	}
	rte_eth_macaddr_get(port, &mac);
	TEST_ASSERT_SUCCESS(mlx5_emu_wire_rx_error_inject("tr", 1), "inject");
	len = frame_build(f, &mac, RTE_IPV4(10, 4, 0, 1), 5, 100, 0);
	mlx5_emu_wire_inject("tr", f, len);
	ok &= rx_all(port, 1, pkts, 1, NULL) == 0;
	rte_eth_stats_get(port, &st);
	ok &= st.ierrors == 1 && st.ipackets == 0;
	for (i = 0; i < 3; i++) {
		len = frame_build(f, &mac, RTE_IPV4(10, 4, 0, 2 + i), 5, 100,
				  0);
		mlx5_emu_wire_inject("tr", f, len);
	}
	ok &= rx_all(port, 1, pkts, 3, NULL) == 3;
	free_all(pkts, 3);
	rte_eth_stats_get(port, &st);
	ok &= st.ierrors == 1 && st.ipackets == 3;
	ok &= xstat_get(port, "rx_q0_recoveries", &rec) == 0 && rec == 1;
	ok &= xstat_get(port, "rx_q0_recovery_failures", &fail) == 0 &&
	      fail == 0;
	if (!ok)
		printf("  ierrors %" PRIu64 " ipackets %" PRIu64 " recoveries %"
		       PRIu64 " failures %" PRIu64 "\n", st.ierrors,
		       st.ipackets, rec, fail);
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	TEST_ASSERT(ok, "RX error with the RQ in RDY");
	return TEST_SUCCESS;
}

static void
extbuf_free(void *addr, void *opaque)
{
	RTE_SET_USED(addr);
	RTE_SET_USED(opaque);
}

/* End of the highest memory chunk of a mempool. */
static void
chunk_end(struct rte_mempool *mp, void *opaque,
	  struct rte_mempool_memhdr *memhdr, unsigned int idx)
{
	uintptr_t *end = opaque, e = (uintptr_t)memhdr->addr + memhdr->len;

	RTE_SET_USED(mp);
	RTE_SET_USED(idx);
	if (e > *end)
		*end = e;
}

/*
 * TX error: a second segment that starts 32 bytes before the end of the
 * mempool's registered memory and runs 64 bytes past it (its lkey is
 * found, the range is not in the MR) completes with a requester error
 * (LOC_PROT_ERR, the SQ goes to ERR); the PMD counts it, frees the mbufs,
 * takes the SQ back to RDY (one recovery), and the next frames go out and
 * come back over the loopback wire.
 */
static int
test_net_tx_error_recovery(void)
{
	struct rte_eth_conf conf = {
		.txmode.offloads = RTE_ETH_TX_OFFLOAD_MULTI_SEGS,
	};
	struct rte_mbuf_ext_shared_info shinfo = {
		.free_cb = extbuf_free,
	};
	struct rte_ether_addr mac;
	struct rte_mbuf *m, *s, *pkts[8];
	struct rte_eth_stats st;
	uint8_t f[256], *ext;
	uintptr_t end = 0;
	uint64_t rec = 0;
	uint32_t len, i, sent;
	int port, ok = 1;

	rte_mempool_mem_iter(n_mp, chunk_end, &end);
	TEST_ASSERT(end != 0, "mempool chunks");
	ext = (uint8_t *)(end - 32);
	port = port_probe("net_mlx5cq_tt", "dev=emu,wire=tt,tx_comp_thresh=1");
	if (port < 0 || port_start(port, 1, &conf) != 0) {
		if (port >= 0)
			port_remove(port);
		TEST_ASSERT(0, "port setup");
	}
	rte_eth_macaddr_get(port, &mac);
	len = frame_build(f, &mac, RTE_IPV4(10, 4, 0, 1), 5, 100, 0);
	m = rte_pktmbuf_alloc(n_mp);
	s = rte_pktmbuf_alloc(n_mp);
	memcpy(rte_pktmbuf_append(m, 42), f, 42);
	rte_mbuf_ext_refcnt_set(&shinfo, 1);
	rte_pktmbuf_attach_extbuf(s, ext, RTE_BAD_IOVA, 96, &shinfo);
	s->data_off = 0;
	s->data_len = 96;
	rte_pktmbuf_chain(m, s);
	ok &= rte_eth_tx_burst(port, 0, &m, 1) == 1;
	/* The error completion comes; the next burst recovers the SQ. */
	for (i = 0; i < 2000; i++) {
		rte_eth_stats_get(port, &st);
		if (st.oerrors != 0)
			break;
		rte_eth_tx_burst(port, 0, pkts, 0);
		rte_delay_us_sleep(500);
	}
	ok &= st.oerrors == 1;
	ok &= rx_all(port, 1, pkts, 8, NULL) == 0;
	for (i = 0; i < 4; i++) {
		len = frame_build(f, &mac, RTE_IPV4(10, 4, 1, i), 5, 60, 0);
		pkts[i] = rte_pktmbuf_alloc(n_mp);
		memcpy(rte_pktmbuf_append(pkts[i], len), f, len);
	}
	for (sent = 0, i = 0; sent < 4 && i < 2000; i++) {
		sent += rte_eth_tx_burst(port, 0, pkts + sent, 4 - sent);
		rte_delay_us_sleep(100);
	}
	ok &= sent == 4;
	ok &= rx_all(port, 1, pkts, 8, NULL) == 4;
	rte_pktmbuf_free_bulk(pkts, 4);
	rte_eth_stats_get(port, &st);
	if (!ok)
		printf("  oerrors %" PRIu64 " opackets %" PRIu64 " ipackets %"
		       PRIu64 "\n", st.oerrors, st.opackets, st.ipackets);
	ok &= st.oerrors == 1 && st.ipackets == 4;
	ok &= xstat_get(port, "tx_q0_cq_err_loc_prot", &rec) == 0 && rec == 1;
	ok &= xstat_get(port, "tx_q0_recoveries", &rec) == 0 && rec == 1;
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	TEST_ASSERT(ok, "TX error recovery");
	return TEST_SUCCESS;
}

/* RX interrupt: armed CQ, one frame, the queue's event fd is readable. */
static int
test_net_rx_intr(void)
{
	struct rte_eth_conf conf = { .intr_conf.rxq = 1 };
	struct rte_ether_addr mac;
	struct rte_mbuf *pkts[4];
	struct pollfd pfd;
	uint8_t f[128];
	uint32_t len;
	int port, fd, ok = 1, r;

	port = port_probe("net_mlx5cq_ti", "dev=emu,wire=ti");
	TEST_ASSERT(port >= 0, "probe failed");
	if (port_start(port, 1, &conf) != 0) {
		port_remove(port);
		TEST_ASSERT(0, "start failed");
	}
	rte_eth_macaddr_get(port, &mac);
	fd = rte_eth_dev_rx_intr_ctl_q_get_fd(port, 0);
	ok &= fd >= 0;
	ok &= rte_eth_dev_rx_intr_enable(port, 0) == 0;
	pfd.fd = fd;
	pfd.events = POLLIN;
	/* Nothing received: no event. */
	ok &= poll(&pfd, 1, 0) == 0;
	len = frame_build(f, &mac, RTE_IPV4(10, 2, 0, 1), 5, 20, 0);
	mlx5_emu_wire_inject("ti", f, len);
	/* Liveness bound only: the event comes with the completion. */
	r = poll(&pfd, 1, 5000);
	ok &= r == 1 && (pfd.revents & POLLIN);
	ok &= rte_eth_dev_rx_intr_disable(port, 0) == 0;
	ok &= rx_all(port, 1, pkts, 1, NULL) == 1;
	free_all(pkts, 1);
	if (!ok)
		printf("  fd %d poll %d revents 0x%x\n", fd, r, pfd.revents);
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	TEST_ASSERT(ok, "RX interrupt");
	return TEST_SUCCESS;
}

static struct unit_test_suite net_mlx5cq_suite = {
	.suite_name = "net_mlx5cq",
	.setup = net_suite_setup,
	.teardown = net_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_bad_devargs),
		TEST_CASE(test_net_devargs_caps),
		TEST_CASE(test_net_lifecycle_no_leak),
		TEST_CASE(test_net_link_speed),
		TEST_CASE(test_net_ptypes),
		TEST_CASE(test_net_rx_offloads),
		TEST_CASE(test_net_filter_mtu),
		TEST_CASE(test_net_tx_loopback),
		TEST_CASE(test_net_xstats),
		TEST_CASE(test_net_queue_stop_start),
		TEST_CASE(test_net_rx_burst_mode),
		TEST_CASE(test_net_rx_error_recovery),
		TEST_CASE(test_net_rx_error_rdy),
		TEST_CASE(test_net_tx_error_recovery),
		TEST_CASE(test_net_rx_intr),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_mlx5cq, net_mlx5cq_suite);
