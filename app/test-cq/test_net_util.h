/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_NET_UTIL_H_
#define TEST_NET_UTIL_H_

/*
 * Helpers of the net_mlx5cq suites: the PMD loaded from the build, ports
 * probed and removed through ethdev, frames built by hand, bursts read
 * from every queue, the rte_malloc use a leak check compares.
 */

#include <stdint.h>

#include <rte_byteorder.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

#include "test_usage.h"

/*
 * The RX burst mode net_mlx5cq's queues report with rx_vec_en=1 (the
 * default) and 128-bit SIMD allowed: byte shuffles and 16-byte stores on
 * x86 and little-endian AArch64 (named as DPDK's net/mlx5 names its
 * vector RX), the per-packet reference elsewhere.
 */
#if defined(RTE_ARCH_X86)
#define TEST_NET_RX_VEC_MODE "Vector SSE"
#elif defined(RTE_ARCH_ARM64) && RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
#define TEST_NET_RX_VEC_MODE "Vector Neon"
#else
#define TEST_NET_RX_VEC_MODE "Scalar"
#endif

/* Load a PMD library of this build (librte_<class>_<name>.so): 0 or -1. */
int pmd_lib_load(const char *lib);
/* Load librte_net_mlx5cq.so (once): 0 or -1. */
int net_load(void);
/*
 * Hold / release an ethdev owner id. From 23.11 ethdev frees its shared
 * data (a memzone: rte_malloc heap use) with the last port when no owner
 * id is allocated; a suite whose leak checks compare heap use across the
 * life of its ports holds one from set-up to teardown, so that the shared
 * data outlives every case (22.11 never frees it).
 */
int net_ethdev_hold(void);
void net_ethdev_release(void);
/* Probe "<name>,<args>": port id, or -1. */
int port_probe(const char *name, const char *args);
/* Stop, close and remove a port. */
int port_remove(uint16_t port);
/* Configure one RX and one TX queue of desc entries from mp, start: 0. */
int port_start_1q(uint16_t port, uint16_t desc, struct rte_mempool *mp,
		  const struct rte_eth_conf *conf);
/* The link status rte_eth_link_get_nowait() reads: 1, 0, or -1. */
int port_link(uint16_t port);

/* In a case with `int ok`: ok &&= cond, saying which step failed. */
#define STEP(cond, what) do { \
	if (ok && !(cond)) { \
		printf("  step failed: %s\n", what); \
		ok = 0; \
	} \
} while (0)
/* Ethernet/[VLAN]/IPv4/UDP frame to dst with correct checksums: length. */
uint32_t frame_build(uint8_t *f, const struct rte_ether_addr *dst,
		     uint32_t src_ip, uint16_t sport, uint16_t payload,
		     int vlan);
/*
 * Frame i of len bytes from 198.18.<net>.<i & 0xff> port base + i
 * (Ethernet, IPv4, UDP, correct checksums): len.
 */
uint32_t frame_udp4_n(uint8_t *f, const struct rte_ether_addr *dst,
		      uint32_t len, uint8_t net, uint16_t base, uint32_t i);
/* The mbuf of a good IPv4/UDP frame: checksums GOOD, its packet type. */
int rx_udp4_good(const struct rte_mbuf *m);
/* Receive from queues 0..nq-1 until n packets or nothing for long;
 * qof[i]: queue of packet i (may be NULL).
 */
uint16_t rx_all(uint16_t port, uint16_t nq, struct rte_mbuf **pkts,
		uint16_t n, uint16_t *qof);
void free_all(struct rte_mbuf **p, uint16_t n);
/* A pktmbuf pool of n mbufs in `chunks` separate memory regions (1..
 * POOL_CHUNKS_MAX), mbufs in random order; NULL on failure (logged).
 */
#define POOL_CHUNKS_MAX 64
/* Put the n mbufs of a full pool back in a random order (seeded): 0, -1. */
int pool_shuffle(struct rte_mempool *mp, unsigned int n, uint32_t seed);
struct rte_mempool *pool_pktmbuf_empty(const char *name, unsigned int n,
				       uint16_t room, unsigned int cache,
				       unsigned int flags);
struct rte_mempool *pool_chunked(const char *name, unsigned int n,
				 unsigned int cache, unsigned int chunks);

#endif /* TEST_NET_UTIL_H_ */
