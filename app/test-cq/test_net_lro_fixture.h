/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * What the LRO suites (net_rx_lro, net_rx_lro_setup) share: TCP segments
 * of a flow built from the header layouts, the packet a coalesced session
 * must become, byte-for-byte checks of received chains, an LRO port.
 */

#ifndef TEST_NET_LRO_FIXTURE_H_
#define TEST_NET_LRO_FIXTURE_H_

#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

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

/* The step of lro_port() that failed last. */
enum lro_step {
	LRO_AT_NONE,
	LRO_AT_PROBE,
	LRO_AT_CONFIGURE,
	LRO_AT_RXQ,
	LRO_AT_TXQ,
	LRO_AT_START,
};

extern uint8_t lro_fr[LRO_SEGS][LRO_FRAME];
extern uint8_t lro_exp[LRO_PKT_MAX];
extern uint8_t lro_flat[LRO_PKT_MAX];
extern enum lro_step lro_at;

uint32_t
lro_ipl(const struct lro_flow *fl);

void
lro_tcp_csum(uint8_t *f, const struct lro_flow *fl, uint32_t len, int nz);

uint32_t
lro_frame(uint8_t *f, const struct rte_ether_addr *dst,
	  const struct lro_flow *fl, const struct lro_seg *g);

uint32_t
lro_expect(uint8_t *e, const struct rte_ether_addr *dst,
	   const struct lro_flow *fl, const struct lro_seg *g, uint32_t n);

int
lro_inject(const char *wire, const struct rte_ether_addr *dst,
	   const struct lro_flow *fl, const struct lro_seg *g, uint32_t n);

void
lro_segs(struct lro_seg *g, uint32_t n, uint32_t seq, const uint16_t *pay,
	 const uint8_t *ttl, int psh);

int
lro_check(const struct rte_mbuf *m, const uint8_t *e, uint32_t len,
	  uint32_t n, uint32_t buf, int v6);

int
lro_check_seg(const struct rte_mbuf *m, const struct rte_ether_addr *dst,
	      const struct lro_flow *fl, const struct lro_seg *g, uint32_t n,
	      uint32_t buf);

uint16_t
lro_rx(uint16_t port, struct rte_mbuf **pkts, uint16_t want, uint16_t room);

int
lro_port(const char *args, struct rte_mempool *mp, uint16_t mtu,
	 uint32_t lro, uint64_t offloads, int *port);

void
lro_port_drop(int port);

#endif /* TEST_NET_LRO_FIXTURE_H_ */
