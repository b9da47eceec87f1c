/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * RX burst. The RQ is cyclic: the device fills its WQEs in order, so the
 * buffer of the k-th completion is the one at the queue's consumer index
 * rq_ci + k (as DPDK's mlx5 and the kernel's mlx5e take it); the CQE's
 * WQE counter is not needed, and the stride index of compressed STRIDX
 * formats is not defined on such queues (the emulated HCA writes 0).
 *
 * One pass on the lean path (rte_mlx5cq_peek / rte_mlx5cq_advance):
 * each plain CQE is read once and turned into its mbuf (8-byte rearm
 * template: data_off, refcnt, nb_segs, port; packet type and checksum
 * flags from two tables indexed by the CQE's header-type bits; length,
 * VLAN, RSS hash). Compressed sessions and error CQEs go through the
 * records of rte_mlx5cq_poll_burst(). Replacements come raw from the
 * mempool (no reset: every field a received mbuf needs is written here),
 * as many as the pool gives: a WQE whose buffer cannot be replaced keeps
 * its buffer and the packet is dropped (rx_nombuf). Only the WQE address
 * is rewritten (byte count fixed at queue start; lkey rewritten only when
 * the mempool spans several memory regions). The RQ doorbell record is
 * updated once per burst after a write barrier.
 */

#include <assert.h>
#include <stddef.h>

#include <rte_io.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "mlx5cq_ethdev.h"

/*
 * Tables from the CQE's hdr_type_etc (mlx5_prm.h MLX5_CQE_RX_*): bits 3:2
 * L3 header type (1 IPv6, 2 IPv4), bits 6:4 L4 header type (1 TCP, 2 UDP,
 * 3 TCP empty ACK, 4 TCP with ACK, 5..7 reserved), bit 7 IP fragment,
 * bit 8 L2 OK, bit 9 L3 OK, bit 10 L4 OK.
 */
#define RX_HTE_IDX(hte) (((hte) >> 2) & 0x1ff)
#define RX_IDX_L3(i) ((i) & 3)
#define RX_IDX_L4(i) (((i) >> 2) & 7)
#define RX_IDX_FRAG(i) (((i) >> 5) & 1)
#define RX_IDX_L3_OK(i) (((i) >> 7) & 1)
#define RX_IDX_L4_OK(i) (((i) >> 8) & 1)

/* Offsets from rearm_data of what the RX burst writes per mbuf. */
#define RX_OFF_OL (offsetof(struct rte_mbuf, ol_flags) - \
		   offsetof(struct rte_mbuf, rearm_data))
#define RX_OFF_PTYPE (offsetof(struct rte_mbuf, packet_type) - \
		      offsetof(struct rte_mbuf, rearm_data))
#define RX_OFF_DLEN (offsetof(struct rte_mbuf, data_len) - \
		     offsetof(struct rte_mbuf, rearm_data))
static_assert(offsetof(struct rte_mbuf, pkt_len) ==
	      offsetof(struct rte_mbuf, packet_type) + 4, "pkt_len");
static_assert(offsetof(struct rte_mbuf, vlan_tci) ==
	      offsetof(struct rte_mbuf, data_len) + 2, "vlan_tci");
static_assert(offsetof(struct rte_mbuf, hash.rss) ==
	      offsetof(struct rte_mbuf, data_len) + 4, "hash.rss");
static_assert(RX_OFF_PTYPE % 8 == 0 && RX_OFF_DLEN % 8 == 0 &&
	      RX_OFF_OL % 8 == 0, "8-byte stores");

static uint32_t rx_ptype_lut[512];
static uint64_t rx_csum_lut[512];

/*
 * Packet type: L2 Ethernet; IPv4 or IPv6 (extensions unknown); for IP
 * packets: L4_FRAG for fragments, TCP (codes 1, 3, 4) or UDP (2), and
 * L4_NONFRAG for IP without TCP/UDP (code 0); reserved codes 5..7 give
 * no L4 type.
 */
uint32_t
mlx5cq_rx_ptype(uint16_t hte)
{
	unsigned int i = RX_HTE_IDX(hte);
	uint32_t p = RTE_PTYPE_L2_ETHER;
	unsigned int l4 = RX_IDX_L4(i);

	switch (RX_IDX_L3(i)) {
	case 2:
		p |= RTE_PTYPE_L3_IPV4_EXT_UNKNOWN;
		break;
	case 1:
		p |= RTE_PTYPE_L3_IPV6_EXT_UNKNOWN;
		break;
	default:
		return p;
	}
	if (RX_IDX_FRAG(i))
		return p | RTE_PTYPE_L4_FRAG;
	if (l4 == 1 || l4 == 3 || l4 == 4)
		p |= RTE_PTYPE_L4_TCP;
	else if (l4 == 2)
		p |= RTE_PTYPE_L4_UDP;
	else if (l4 == 0)
		p |= RTE_PTYPE_L4_NONFRAG;
	return p;
}

/*
 * Checksum flags:
 * - IPv4: L3 OK -> IP GOOD, else IP BAD (the device checks every IPv4
 *   header it parses);
 * - IPv6 has no header checksum: IP UNKNOWN whatever L3 OK says;
 * - TCP/UDP of an IP packet that is not a fragment: L4 OK -> L4 GOOD;
 *   L4 OK clear -> L4 BAD, unless the IPv4 header is bad (L3 OK clear:
 *   the device may not have verified L4), then L4 UNKNOWN;
 * - fragments, reserved L4 codes, packets without L4: L4 UNKNOWN (not
 *   verified);
 * - not IP: nothing.
 */
uint64_t
mlx5cq_rx_csum(uint16_t hte)
{
	unsigned int i = RX_HTE_IDX(hte);
	unsigned int l3 = RX_IDX_L3(i), l4 = RX_IDX_L4(i);
	uint64_t f = 0;
	int l3_good;

	if (l3 == 2) {
		l3_good = RX_IDX_L3_OK(i);
		f |= l3_good ? RTE_MBUF_F_RX_IP_CKSUM_GOOD :
			       RTE_MBUF_F_RX_IP_CKSUM_BAD;
	} else if (l3 == 1) {
		l3_good = 1;
	} else {
		return 0;
	}
	if (RX_IDX_FRAG(i) || l4 < 1 || l4 > 4)
		return f;
	if (RX_IDX_L4_OK(i))
		f |= RTE_MBUF_F_RX_L4_CKSUM_GOOD;
	else if (l3_good)
		f |= RTE_MBUF_F_RX_L4_CKSUM_BAD;
	return f;
}

RTE_INIT(mlx5cq_rx_luts)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(rx_ptype_lut); i++) {
		rx_ptype_lut[i] = mlx5cq_rx_ptype((uint16_t)(i << 2));
		rx_csum_lut[i] = mlx5cq_rx_csum((uint16_t)(i << 2));
	}
}

/* Write every WQE from the buffer ring and post them all (queue start). */
void
mlx5cq_rxq_post_all(struct mlx5cq_rxq *rxq)
{
	uint32_t i;

	for (i = 0; i < rxq->desc_n; i++) {
		volatile struct mlx5_wqe_dseg_rx *w = &rxq->wqes[i];
		struct rte_mbuf *m = rxq->elts[i];
		uintptr_t addr = (uintptr_t)m->buf_addr + RTE_PKTMBUF_HEADROOM;

		w->byte_count = rte_cpu_to_be_32(rxq->buf_len);
		w->lkey = rte_cpu_to_be_32(mlx5cq_mr_lookup(&rxq->mrc, addr,
							    m->pool));
		w->addr = rte_cpu_to_be_64(addr);
	}
	rxq->pi = rxq->desc_n;
	rxq->rq_ci = 0;
	rte_io_wmb();
	rxq->dbrec[0] = rte_cpu_to_be_32(rxq->pi & 0xffff);
}

/*
 * Hand up the buffer of WQE idx as a packet of len bytes with the given
 * header-type bits, VLAN and hash; put r in its place (lk: r's lkey
 * when the mempool spans several regions, NULL when the WQE's lkey
 * stays). Returns 0, or -1 when r's memory has no lkey (a mempool
 * populated after the queue was set up and not registrable): r is
 * returned to its pool, the buffer stays posted and the packet is dropped
 * (counted as an error).
 */
static __rte_always_inline int
mlx5cq_rx_one(struct mlx5cq_rxq *rxq, uint32_t idx, struct rte_mbuf *m,
	      struct rte_mbuf *r, const uint32_t *lk, uint32_t len,
	      uint16_t hte, uint16_t vlan, uint32_t hash)
{
	volatile struct mlx5_wqe_dseg_rx *w = &rxq->wqes[idx];
	unsigned int t = RX_HTE_IDX(hte);
	uintptr_t addr = (uintptr_t)r->buf_addr + RTE_PKTMBUF_HEADROOM;
	uint64_t ol = rx_csum_lut[t] | rxq->ol_rss;
	uintptr_t rearm = (uintptr_t)&m->rearm_data;

	if (unlikely(lk != NULL)) {
		if (unlikely(*lk == UINT32_MAX)) {
			rte_mempool_put(r->pool, r);
			rxq->st.errors++;
			return -1;
		}
		w->lkey = rte_cpu_to_be_32(*lk);
	}

	if ((hte & RTE_MLX5CQ_HDR_VLAN_STRIPPED) && rxq->vlan_strip)
		ol |= RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	else
		vlan = 0;
	/*
	 * Four 8-byte stores: rearm_data, ol_flags, then
	 * rx_descriptor_fields1 (packet_type, pkt_len | data_len, vlan_tci,
	 * hash.rss), built in registers (little endian, offsets checked at
	 * build time below).
	 */
	*(uint64_t *)rearm = rxq->mbuf_initializer;
	*(uint64_t *)(rearm + RX_OFF_OL) = ol;
	*(uint64_t *)(rearm + RX_OFF_PTYPE) = rx_ptype_lut[t] |
					      (uint64_t)len << 32;
	*(uint64_t *)(rearm + RX_OFF_DLEN) = (len & 0xffff) |
		(uint32_t)vlan << 16 | (uint64_t)hash << 32;
	rxq->elts[idx] = r;
	w->addr = rte_cpu_to_be_64(addr);
	return 0;
}

/*
 * Lkeys of the replacements of a mempool spanning several regions, all
 * looked up before any is used: the searches do not depend on each other
 * and overlap. NULL when the queue's mempool is one region.
 */
static __rte_always_inline const uint32_t *
mlx5cq_rx_lkeys(struct mlx5cq_rxq *rxq, struct rte_mbuf **rep, uint16_t n,
		uint32_t *lk)
{
	uint16_t i;

	if (likely(rxq->lkey != UINT32_MAX))
		return NULL;
	for (i = 0; i < n; i++)
		lk[i] = mlx5cq_mr_lookup(&rxq->mrc, (uintptr_t)rep[i]->buf_addr +
					 RTE_PKTMBUF_HEADROOM, rep[i]->pool);
	return lk;
}

/* Replacement mbufs: all of n, or as many as the pool's cache gives. */
static __rte_always_inline uint16_t
mlx5cq_rx_rep(struct mlx5cq_rxq *rxq, struct rte_mbuf **rep, uint16_t n)
{
	uint16_t k;

	if (likely(rte_mempool_get_bulk(rxq->mp, (void **)rep, n) == 0))
		return n;
	for (k = 0; k < n; k++)
		if (rte_mempool_get(rxq->mp, (void **)&rep[k]) != 0)
			break;
	return k;
}

uint16_t
mlx5cq_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5cq_rxq *rxq = q;
	struct rte_mlx5cq *cq = rxq->cq;
	struct rte_mbuf *rep[MLX5CQ_BURST_MAX];
	const uint32_t mask = rxq->mask;
	uint32_t rq_ci = rxq->rq_ci;
	uint16_t out = 0, got, nrep, i;
	uint64_t bytes = 0;
	uint32_t lkeys[MLX5CQ_BURST_MAX];
	const uint32_t *lk;
	int polled = 0;

	if (unlikely(!rxq->started))
		return 0;
	/* A queue a failed recovery left in error: try again first. */
	if (unlikely(rxq->in_error) && mlx5cq_rxq_recover(rxq) != 0)
		return 0;
	if (n > MLX5CQ_BURST_MAX)
		n = MLX5CQ_BURST_MAX;
	/* Plain CQEs: one pass, CQE to mbuf. */
	got = rte_mlx5cq_peek(cq, n);
	if (got) {
		/* The headers of the mbufs handed up are written below: ask
		 * for all their lines at once, so the misses overlap.
		 */
		for (i = 0; i < got; i++)
			rte_prefetch0(rxq->elts[(rq_ci + i) & mask]);
		nrep = mlx5cq_rx_rep(rxq, rep, got);
		lk = mlx5cq_rx_lkeys(rxq, rep, nrep, lkeys);
		for (i = 0; i < nrep; i++) {
			volatile const uint8_t *e = rte_mlx5cq_peek_cqe(cq, i);
			uint32_t idx = (rq_ci + i) & mask;
			uint32_t len = rte_mlx5cq__be32(e,
						RTE_MLX5CQ_CQE_BYTE_CNT);
			struct rte_mbuf *m = rxq->elts[idx];

			if (unlikely(mlx5cq_rx_one(rxq, idx, m, rep[i],
				lk != NULL ? &lk[i] : NULL, len,
				rte_mlx5cq__be16(e, RTE_MLX5CQ_CQE_HDR_TYPE_ETC),
				rte_mlx5cq__be16(e, RTE_MLX5CQ_CQE_VLAN_INFO),
				rte_mlx5cq__be32(e, RTE_MLX5CQ_CQE_RX_HASH_RES))))
				continue;
			bytes += len;
			pkts[out++] = m;
		}
		/* No replacement: the buffers stay posted, packets dropped. */
		rxq->st.nombuf += got - nrep;
		rq_ci += got;
		rte_mlx5cq_advance(cq, got);
	}
	/* Compressed sessions, error CQEs, the rest after the ring's end. */
	if (got < n && rte_mlx5cq_ready(cq)) {
		uint16_t k = rte_mlx5cq_poll_burst(cq, rxq->cpl,
						   (uint16_t)(n - out));

		polled = 1;
		for (i = 0; i < k; i++)
			rte_prefetch0(rxq->elts[(rq_ci + i) & mask]);
		nrep = k ? mlx5cq_rx_rep(rxq, rep, k) : 0;
		lk = mlx5cq_rx_lkeys(rxq, rep, nrep, lkeys);
		for (i = 0; i < k; i++) {
			const struct rte_mlx5cq_cpl *c = &rxq->cpl[i];
			uint32_t idx = rq_ci++ & mask;
			struct rte_mbuf *m;

			if (unlikely(c->status != 0)) {
				/* The buffer stays posted; the RQ went to
				 * ERR (recovered below).
				 */
				rxq->st.errors++;
				rxq->in_error = 1;
				continue;
			}
			if (unlikely(nrep == 0)) {
				rxq->st.nombuf++;
				continue;
			}
			m = rxq->elts[idx];
			nrep--;
			if (unlikely(mlx5cq_rx_one(rxq, idx, m, rep[nrep],
						   lk != NULL ? &lk[nrep] :
						   NULL, c->byte_cnt,
						   c->hdr_type_etc,
						   c->vlan_tci,
						   c->rss_hash)))
				continue;
			pkts[out++] = m;
			bytes += c->byte_cnt;
		}
		if (nrep)
			rte_mempool_put_bulk(rxq->mp, (void **)rep, nrep);
	}
	if (rq_ci == rxq->rq_ci) {
		/* Nothing, no poll made: one empty poll in the counters. */
		if (got == 0 && !polled)
			rte_mlx5cq_advance(cq, 0);
		return 0;
	}
	rxq->pi += rq_ci - rxq->rq_ci;
	rxq->rq_ci = rq_ci;
	rte_io_wmb();
	rxq->dbrec[0] = rte_cpu_to_be_32(rxq->pi & 0xffff);
	rxq->st.packets += out;
	rxq->st.bytes += bytes;
	if (unlikely(rxq->in_error))
		mlx5cq_rxq_recover(rxq);
	return out;
}

uint16_t
mlx5cq_burst_none(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	RTE_SET_USED(q);
	RTE_SET_USED(pkts);
	RTE_SET_USED(n);
	return 0;
}

const uint32_t *
mlx5cq_supported_ptypes(struct rte_eth_dev *dev)
{
	static const uint32_t ptypes[] = {
		RTE_PTYPE_L2_ETHER,
		RTE_PTYPE_L3_IPV4_EXT_UNKNOWN,
		RTE_PTYPE_L3_IPV6_EXT_UNKNOWN,
		RTE_PTYPE_L4_TCP,
		RTE_PTYPE_L4_UDP,
		RTE_PTYPE_L4_FRAG,
		RTE_PTYPE_L4_NONFRAG,
		RTE_PTYPE_UNKNOWN,
	};

	RTE_SET_USED(dev);
	return ptypes;
}
