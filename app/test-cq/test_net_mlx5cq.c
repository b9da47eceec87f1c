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

#include <mlx5_emu.h>

#include "test.h"
#include "test_wait.h"

#define NB_MBUF 4096
#define QDESC 256

static struct rte_mempool *n_mp;
static int n_loaded;

struct heap_use {
	uint64_t heap_bytes;
	uint64_t alloc_count;
};

static void
heap_use(struct heap_use *u)
{
	struct rte_malloc_socket_stats ms;
	unsigned int i;

	memset(u, 0, sizeof(*u));
	for (i = 0; i < rte_socket_count(); i++) {
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i), &ms))
			continue;
		u->heap_bytes += ms.heap_allocsz_bytes;
		u->alloc_count += ms.alloc_count;
	}
}

/* Load librte_net_mlx5cq.so next to this build's other libraries. */
static int
net_load(void)
{
	char exe[PATH_MAX], path[PATH_MAX + 64];
	ssize_t n;
	char *slash;

	if (n_loaded)
		return 0;
	if (dlopen("librte_net_mlx5cq.so", RTLD_NOW | RTLD_GLOBAL) == NULL) {
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n <= 0)
			return -1;
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash == NULL)
			return -1;
		*slash = '\0';
		snprintf(path, sizeof(path),
			 "%s/../../drivers/librte_net_mlx5cq.so", exe);
		if (dlopen(path, RTLD_NOW | RTLD_GLOBAL) == NULL) {
			printf("cannot load %s: %s\n", path, dlerror());
			return -1;
		}
	}
	n_loaded = 1;
	return 0;
}

static int
net_suite_setup(void)
{
	if (net_load() != 0)
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
}

/* Probe "net_mlx5cq_t<n>,<args>": port id, or -1. */
static int
port_probe(const char *name, const char *args)
{
	char s[256];
	uint16_t port;

	snprintf(s, sizeof(s), "%s,%s", name, args);
	if (rte_dev_probe(s) != 0)
		return -1;
	if (rte_eth_dev_get_port_by_name(name, &port) != 0)
		return -1;
	return port;
}

static int
port_remove(uint16_t port)
{
	struct rte_eth_dev_info info;
	struct rte_device *dev;

	if (rte_eth_dev_info_get(port, &info) != 0)
		return -1;
	dev = info.device;
	rte_eth_dev_stop(port);
	rte_eth_dev_close(port);
	return rte_dev_remove(dev);
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

/* Build an Ethernet/[VLAN]/IPv4/UDP frame with correct checksums. */
static uint32_t
frame_build(uint8_t *f, const struct rte_ether_addr *dst, uint32_t src_ip,
	    uint16_t sport, uint16_t payload, int vlan)
{
	struct rte_ether_hdr *eth = (void *)f;
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *udp;
	uint32_t l2 = sizeof(*eth);
	uint16_t i;

	memset(f, 0, 64);
	eth->dst_addr = *dst;
	eth->src_addr = (struct rte_ether_addr)
			{{ 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 }};
	if (vlan) {
		struct rte_vlan_hdr *vh = (void *)(f + sizeof(*eth));

		eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN);
		vh->vlan_tci = rte_cpu_to_be_16(0x2123);
		vh->eth_proto = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
		l2 += sizeof(*vh);
	} else {
		eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	}
	ip = (void *)(f + l2);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(sizeof(*ip) + sizeof(*udp) +
					    payload);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(src_ip);
	/* 198u: RTE_IPV4 of 22.11 shifts its first octet as an int (an
	 * octet >= 128 shifted by 24 overflows: UBSan). */
	ip->dst_addr = rte_cpu_to_be_32(RTE_IPV4(198u, 18, 0, 2));
	udp = (void *)(ip + 1);
	udp->src_port = rte_cpu_to_be_16(sport);
	udp->dst_port = rte_cpu_to_be_16(4789);
	udp->dgram_len = rte_cpu_to_be_16(sizeof(*udp) + payload);
	for (i = 0; i < payload; i++)
		((uint8_t *)(udp + 1))[i] = (uint8_t)(i * 7 + sport);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp->dgram_cksum = rte_ipv4_udptcp_cksum(ip, udp);
	return l2 + sizeof(*ip) + sizeof(*udp) + payload;
}

/* Receive from every queue of port until n packets or nothing for long. */
static uint16_t
rx_all(uint16_t port, uint16_t nq, struct rte_mbuf **pkts, uint16_t n,
       uint16_t *qof)
{
	uint16_t got = 0, q, k, i;
	unsigned int idle;

	for (idle = 0; got < n && idle < 2000; idle++) {
		for (q = 0; q < nq && got < n; q++) {
			k = rte_eth_rx_burst(port, q, pkts + got, n - got);
			for (i = 0; i < k && qof != NULL; i++)
				qof[got + i] = q;
			if (k)
				idle = 0;
			got += k;
		}
		if (got < n)
			rte_delay_us_sleep(500);
	}
	return got;
}

static void
free_all(struct rte_mbuf **p, uint16_t n)
{
	rte_pktmbuf_free_bulk(p, n);
}

/* Probe with bad devargs: refused, nothing left behind. */
static int
test_net_bad_devargs(void)
{
	static const char *const bad[] = {
		"dev=emu,foo=1", "dev=emu,cq_path=x", "dev=emu,cqe_size=32",
		"dev=emu,cqe_pad=1", "dev=emu,cqe_comp=zip",
		"dev=emu,cqe_comp_layout=enhanced", "dev=emu,rxq_desc=1",
		"dev=emu,txq_desc=99999", "dev=emu,tx_comp_thresh=0",
		"dev=emu,mac=ff:ff:ff:ff:ff:ff", "dev=emu,wire=",
		"dev=no_such_ibdev", "dev=no_such_ibdev,wire=w",
		"dev=emu,speed=0", "dev=emu,speed=150",
		"dev=emu,speed=6553600", "dev=no_such_ibdev,speed=1000",
	};
	struct heap_use before, after;
	uint16_t nb = rte_eth_dev_count_avail();
	unsigned int i;
	int port;

	/* Warm up: the first port of a process makes ethdev's shared data. */
	port = port_probe("net_mlx5cq_tb", "dev=emu");
	TEST_ASSERT(port >= 0, "probe failed");
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	heap_use(&before);
	for (i = 0; i < RTE_DIM(bad); i++) {
		TEST_ASSERT(port_probe("net_mlx5cq_tb", bad[i]) < 0,
			    "devargs \"%s\" accepted", bad[i]);
		TEST_ASSERT_EQUAL(rte_eth_dev_count_avail(), nb,
				  "a port stayed after \"%s\"", bad[i]);
	}
	heap_use(&after);
	TEST_ASSERT(before.heap_bytes == after.heap_bytes &&
		    before.alloc_count == after.alloc_count,
		    "bad probes leaked: %" PRIu64 "/%" PRIu64 " -> %" PRIu64
		    "/%" PRIu64, before.heap_bytes, before.alloc_count,
		    after.heap_bytes, after.alloc_count);
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
	TEST_ASSERT_EQUAL(info.speed_capa, RTE_ETH_LINK_SPEED_FIXED |
			  RTE_ETH_LINK_SPEED_25G, "speed_capa 0x%x",
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

static int
check_udp_flags(const struct rte_mbuf *m, uint64_t ip, uint64_t l4)
{
	TEST_ASSERT_EQUAL(m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK, ip,
			  "IP checksum flags 0x%" PRIx64 ", expected 0x%" PRIx64,
			  (uint64_t)(m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK),
			  ip);
	TEST_ASSERT_EQUAL(m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK, l4,
			  "L4 checksum flags 0x%" PRIx64 ", expected 0x%" PRIx64,
			  (uint64_t)(m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK),
			  l4);
	TEST_ASSERT_EQUAL(m->packet_type, RTE_PTYPE_L2_ETHER |
			  RTE_PTYPE_L3_IPV4_EXT_UNKNOWN | RTE_PTYPE_L4_UDP,
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

static void
extbuf_free(void *addr, void *opaque)
{
	RTE_SET_USED(addr);
	RTE_SET_USED(opaque);
}

/*
 * TX error: a second segment in memory no mempool holds (not registered)
 * completes with a requester error (LOC_PROT_ERR, the SQ goes to ERR); the
 * PMD counts it, frees the mbufs, takes the SQ back to RDY, and the next
 * frames go out and come back over the loopback wire.
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
	uint32_t len, i, sent;
	int port, ok = 1;

	ext = rte_malloc(NULL, 4096, 4096);
	TEST_ASSERT_NOT_NULL(ext, "rte_malloc");
	port = port_probe("net_mlx5cq_tt", "dev=emu,wire=tt,tx_comp_thresh=1");
	if (port < 0 || port_start(port, 1, &conf) != 0) {
		if (port >= 0)
			port_remove(port);
		rte_free(ext);
		TEST_ASSERT(0, "port setup");
	}
	rte_eth_macaddr_get(port, &mac);
	len = frame_build(f, &mac, RTE_IPV4(10, 4, 0, 1), 5, 100, 0);
	m = rte_pktmbuf_alloc(n_mp);
	s = rte_pktmbuf_alloc(n_mp);
	memcpy(rte_pktmbuf_append(m, 42), f, 42);
	memcpy(ext, f + 42, len - 42);
	rte_mbuf_ext_refcnt_set(&shinfo, 1);
	rte_pktmbuf_attach_extbuf(s, ext, rte_malloc_virt2iova(ext), 4096,
				  &shinfo);
	s->data_off = 0;
	s->data_len = len - 42;
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
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	rte_free(ext);
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
		TEST_CASE(test_net_lifecycle_no_leak),
		TEST_CASE(test_net_link_speed),
		TEST_CASE(test_net_rx_offloads),
		TEST_CASE(test_net_filter_mtu),
		TEST_CASE(test_net_tx_loopback),
		TEST_CASE(test_net_xstats),
		TEST_CASE(test_net_queue_stop_start),
		TEST_CASE(test_net_rx_error_recovery),
		TEST_CASE(test_net_tx_error_recovery),
		TEST_CASE(test_net_rx_intr),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_mlx5cq, net_mlx5cq_suite);
