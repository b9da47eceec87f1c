/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/* Helpers of the net_mlx5cq suites (test_net_util.h). */

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_errno.h>
#include <rte_ip.h>
#include <rte_eal.h>
#include <rte_malloc.h>
#include <rte_mbuf_pool_ops.h>
#include <rte_mempool.h>
#include <rte_udp.h>

#include "test_net_util.h"

static int n_loaded;
static uint64_t n_owner;
static int n_owned;

/* Load a PMD library of this build (system path first, then the build's
 * drivers folder next to this program's): 0 or -1.
 */
int
pmd_lib_load(const char *lib)
{
	char exe[PATH_MAX], path[PATH_MAX + 64];
	ssize_t n;
	char *slash;

	if (dlopen(lib, RTLD_NOW | RTLD_GLOBAL) != NULL)
		return 0;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -1;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash == NULL)
		return -1;
	*slash = '\0';
	snprintf(path, sizeof(path), "%s/../../drivers/%s", exe, lib);
	if (dlopen(path, RTLD_NOW | RTLD_GLOBAL) == NULL) {
		printf("cannot load %s: %s\n", path, dlerror());
		return -1;
	}
	return 0;
}

/* Load librte_net_mlx5cq.so next to this build's other libraries. */
int
net_load(void)
{
	if (n_loaded)
		return 0;
	/* Linked in (dpdk-test of a DPDK tree: static, symbols exported):
	 * the driver is registered already; another copy would bring a
	 * second EAL.
	 */
	if (dlsym(RTLD_DEFAULT, "mlx5cq_rx_ptype") == NULL &&
	    pmd_lib_load("librte_net_mlx5cq.so") != 0)
		return -1;
	n_loaded = 1;
	return 0;
}

int
net_ethdev_hold(void)
{
	if (n_owned)
		return 0;
	if (rte_eth_dev_owner_new(&n_owner) != 0) {
		printf("rte_eth_dev_owner_new failed\n");
		return -1;
	}
	n_owned = 1;
	return 0;
}

void
net_ethdev_release(void)
{
	if (!n_owned)
		return;
	rte_eth_dev_owner_delete(n_owner);
	n_owned = 0;
}

/* Probe "net_mlx5cq_t<n>,<args>": port id, or -1. */
int
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

int
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

/* Build an Ethernet/[VLAN]/IPv4/UDP frame with correct checksums. */
int
port_start_1q(uint16_t port, uint16_t desc, struct rte_mempool *mp,
	      const struct rte_eth_conf *conf)
{
	if (rte_eth_dev_configure(port, 1, 1, conf) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, desc, SOCKET_ID_ANY, NULL,
				   mp) != 0 ||
	    rte_eth_tx_queue_setup(port, 0, desc, SOCKET_ID_ANY, NULL) != 0)
		return -1;
	return rte_eth_dev_start(port);
}

uint32_t
frame_udp4_n(uint8_t *f, const struct rte_ether_addr *dst, uint32_t len,
	     uint8_t net, uint16_t base, uint32_t i)
{
	return frame_build(f, dst, RTE_IPV4(198u, 18, net, i & 0xff),
			   (uint16_t)(base + i), (uint16_t)(len - 42), 0);
}

int
rx_udp4_good(const struct rte_mbuf *m)
{
	return (m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) ==
	       RTE_MBUF_F_RX_IP_CKSUM_GOOD &&
	       (m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK) ==
	       RTE_MBUF_F_RX_L4_CKSUM_GOOD &&
	       m->packet_type == (RTE_PTYPE_L2_ETHER |
				  RTE_PTYPE_L3_IPV4_EXT_UNKNOWN |
				  RTE_PTYPE_L4_UDP);
}

int
port_link(uint16_t port)
{
	struct rte_eth_link l;

	if (rte_eth_link_get_nowait(port, &l) != 0)
		return -1;
	return l.link_status;
}

uint32_t
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
uint16_t
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

void
free_all(struct rte_mbuf **p, uint16_t n)
{
	rte_pktmbuf_free_bulk(p, n);
}

/* Free callback of a populated chunk. */
static void
pool_chunk_free(struct rte_mempool_memhdr *memhdr, void *opaque)
{
	RTE_SET_USED(memhdr);
	rte_free(opaque);
}

int
pool_shuffle(struct rte_mempool *mp, unsigned int n, uint32_t seed)
{
	void **objs = malloc(sizeof(*objs) * n);
	unsigned int i;

	/* Take everything, shuffle, put back. */
	if (objs == NULL || rte_mempool_get_bulk(mp, objs, n) != 0) {
		free(objs);
		return -1;
	}
	for (i = n - 1; i > 0; i--) {
		unsigned int j;
		void *t;

		seed = seed * 1103515245u + 12345u;
		j = (seed >> 8) % (i + 1);
		t = objs[i];
		objs[i] = objs[j];
		objs[j] = t;
	}
	rte_mempool_put_bulk(mp, objs, n);
	free(objs);
	return 0;
}

/*
 * An empty pktmbuf pool of n mbufs with room bytes of data room, the
 * platform's best mempool ops, no memory yet (the caller populates it).
 */
struct rte_mempool *
pool_pktmbuf_empty(const char *name, unsigned int n, uint16_t room,
		   unsigned int cache, unsigned int flags)
{
	struct rte_pktmbuf_pool_private pp = {
		.mbuf_data_room_size = room,
		.mbuf_priv_size = 0,
	};
	struct rte_mempool *mp;

	mp = rte_mempool_create_empty(name, n, sizeof(struct rte_mbuf) + room,
				      cache, sizeof(pp), SOCKET_ID_ANY, flags);
	if (mp == NULL)
		return NULL;
	if (rte_mempool_set_ops_byname(mp, rte_mbuf_best_mempool_ops(),
				       NULL) != 0) {
		rte_mempool_free(mp);
		return NULL;
	}
	rte_pktmbuf_pool_init(mp, &pp);
	return mp;
}

/*
 * A pktmbuf pool of n mbufs in `chunks` (at most POOL_CHUNKS_MAX)
 * separate memory areas (a gap between them while they are placed, so
 * they stay separate regions), mbufs in random order.
 */
struct rte_mempool *
pool_chunked(const char *name, unsigned int n, unsigned int cache,
	     unsigned int chunks)
{
	uint32_t elt = sizeof(struct rte_mbuf) + RTE_MBUF_DEFAULT_BUF_SIZE;
	struct rte_mempool_objsz sz;
	struct rte_mempool *mp;
	void *gap[POOL_CHUNKS_MAX] = { NULL };
	const int huge = rte_eal_has_hugepages();
	const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	unsigned int c, got = 0;

	if (chunks == 0 || chunks > POOL_CHUNKS_MAX)
		return NULL;
	mp = pool_pktmbuf_empty(name, n, RTE_MBUF_DEFAULT_BUF_SIZE, cache, 0);
	if (mp == NULL)
		return NULL;
	rte_mempool_calc_obj_size(elt, 0, &sz);
	for (c = 0; c < chunks && got < n; c++) {
		unsigned int per = c + 1 == chunks ? n - got : n / chunks;
		/*
		 * Objects never cross a page whose IOVA does not follow
		 * (populate_virt): with hugepages 1/32 more room is plenty;
		 * without (--no-huge, 4 KiB pages) a page per object.
		 */
		size_t len = huge ?
			(size_t)sz.total_size * (per + per / 32 + 4) :
			(size_t)pg * (per * ((sz.total_size + pg - 1) / pg) + 1);
		void *a = rte_malloc("pool_chunk", len, 4096);
		int ret;

		if (a == NULL)
			goto fail;
		ret = rte_mempool_populate_virt(mp, a, len,
						huge ? RTE_PGSIZE_2M : pg,
						pool_chunk_free, a);
		if (ret <= 0) {
			rte_free(a);
			goto fail;
		}
		got = mp->populated_size;
		/* A gap so the next chunk is not adjacent. */
		gap[c] = rte_malloc("pool_gap", 4096, 4096);
		if (gap[c] == NULL)
			goto fail;
	}
	if (got < n)
		goto fail;
	rte_mempool_obj_iter(mp, rte_pktmbuf_init, NULL);
	if (pool_shuffle(mp, n, 12345) != 0)
		goto fail;
	for (c = 0; c < chunks; c++)
		rte_free(gap[c]);
	return mp;
fail:
	printf("mempool %s of %u mbufs in %u chunks (%u placed):"
	       " %s\n", name, n, chunks, got, rte_strerror(rte_errno));
	for (c = 0; c < chunks; c++)
		rte_free(gap[c]);
	rte_mempool_free(mp);
	return NULL;
}

