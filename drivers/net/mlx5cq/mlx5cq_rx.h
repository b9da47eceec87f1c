/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * What the RX burst files share: the offload tables, the mbuf fields a
 * received packet gets, one CQE's worth of hand-up, the replacements.
 */

#ifndef MLX5CQ_RX_H_
#define MLX5CQ_RX_H_

#include <assert.h>
#include <stddef.h>

#include <rte_io.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_mempool.h>

#include "mlx5cq_ethdev.h"
#include "mlx5cq_flow.h"

/* Table index: bits 10:2 of hdr_type_etc (mlx5cq_rx_flags.c). */
#define MLX5CQ_RX_LUT_N 512
#define MLX5CQ_RX_LUT_IDX(hte) (((hte) >> 2) & (MLX5CQ_RX_LUT_N - 1))

/* Packet type and checksum flags by table index. */
extern uint32_t mlx5cq_rx_ptype_lut[MLX5CQ_RX_LUT_N];
extern uint64_t mlx5cq_rx_csum_lut[MLX5CQ_RX_LUT_N];

/*
 * What the RX burst writes per mbuf, from data_off on: 8 bytes of rearm
 * template (data_off, refcnt, nb_segs, port), 8 bytes of ol_flags, then
 * packet_type, pkt_len, data_len, vlan_tci, hash.rss: two 16-byte
 * halves (16-byte aligned in a cache-aligned mbuf), or four 8-byte words.
 */
#define MLX5CQ_RX_OFF_REARM offsetof(struct rte_mbuf, data_off)
#define MLX5CQ_RX_OFF_OL offsetof(struct rte_mbuf, ol_flags)
#define MLX5CQ_RX_OFF_PTYPE offsetof(struct rte_mbuf, packet_type)
#define MLX5CQ_RX_OFF_DLEN offsetof(struct rte_mbuf, data_len)
static_assert(MLX5CQ_RX_OFF_OL - MLX5CQ_RX_OFF_REARM == 8, "ol_flags");
static_assert(MLX5CQ_RX_OFF_PTYPE - MLX5CQ_RX_OFF_OL == 8, "packet_type");
static_assert(offsetof(struct rte_mbuf, pkt_len) ==
	      MLX5CQ_RX_OFF_PTYPE + 4, "pkt_len");
static_assert(MLX5CQ_RX_OFF_DLEN - MLX5CQ_RX_OFF_PTYPE == 8, "data_len");
static_assert(offsetof(struct rte_mbuf, vlan_tci) ==
	      MLX5CQ_RX_OFF_DLEN + 2, "vlan_tci");
static_assert(offsetof(struct rte_mbuf, hash.rss) ==
	      MLX5CQ_RX_OFF_DLEN + 4, "hash.rss");
static_assert(MLX5CQ_RX_OFF_REARM % 16 == 0, "16-byte stores");

/* ol_flags of a packet: checksum table, RSS flag, VLAN (*vlan cleared
 * when the tag was not stripped).
 */
static __rte_always_inline uint64_t
mlx5cq_rx_ol(const struct mlx5cq_rxq *rxq, uint16_t hte, uint16_t *vlan)
{
	uint64_t ol = mlx5cq_rx_csum_lut[MLX5CQ_RX_LUT_IDX(hte)] |
		      rxq->ol_rss;

	if ((hte & RTE_MLX5CQ_HDR_VLAN_STRIPPED) && rxq->vlan_strip)
		ol |= RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	else
		*vlan = 0;
	return ol;
}

#define MLX5CQ_RX_NS_PER_S 1000000000ull

/* The CQE's time into the head mbuf. */
static __rte_always_inline void
mlx5cq_rx_ts(const struct mlx5cq_rxq *rxq, struct rte_mbuf *m, uint64_t ts)
{
	if (rxq->ts_rt)
		ts = (ts & UINT32_MAX) + (ts >> 32) * MLX5CQ_RX_NS_PER_S;
	*RTE_MBUF_DYNFIELD(m, rxq->ts_off, rte_mbuf_timestamp_t *) = ts;
	m->ol_flags |= rxq->ts_flag;
}

/*
 * The CQE's flow tag into the mbuf, as net/mlx5's rxq_cq_to_mbuf() hands
 * it up: 0, no rule tagged the packet; 0xffffff (FLAG), RX_FDIR alone;
 * else MARK id tag - 1 in hash.fdir.hi with RX_FDIR_ID (mlx5cq_flow.h).
 */
static __rte_always_inline void
mlx5cq_rx_mark(struct rte_mbuf *m, uint32_t tag)
{
	if (tag == 0)
		return;
	m->ol_flags |= RTE_MBUF_F_RX_FDIR;
	if (tag != MLX5CQ_FLOW_TAG_FLAG) {
		m->ol_flags |= RTE_MBUF_F_RX_FDIR_ID;
		m->hash.fdir.hi = tag - 1;
	}
}

/*
 * The head of the per-completion bursts: 0 when the queue gives nothing
 * (stopped, or in error and its recovery fails again), else 1.
 */
static __rte_always_inline int
mlx5cq_rx_open(struct mlx5cq_rxq *rxq)
{
	if (unlikely(rxq->gate != MLX5CQ_RXQ_GATE_RUN)) {
		if (!rxq->started)
			return 0;
		if (rxq->in_error && mlx5cq_rxq_recover(rxq) != 0)
			return 0;
	}
	return 1;
}

/*
 * The head of the record routes' bursts (mlx5cq_rx_open()), then up to
 * n records of the CQ in rxq->cpl: their count.
 */
static __rte_always_inline uint16_t
mlx5cq_rx_records(struct mlx5cq_rxq *rxq, uint16_t n)
{
	if (!mlx5cq_rx_open(rxq))
		return 0;
	if (n > MLX5CQ_BURST_MAX)
		n = MLX5CQ_BURST_MAX;
	return rte_mlx5cq_poll_burst(rxq->cq, rxq->cpl, n);
}

/*
 * The tail of a burst that consumed the WQEs up to rq_ci (more than
 * rxq->rq_ci) and hands up out packets of bytes bytes: the WQEs go back
 * to the device after their buffers (write barrier, then the RQ's
 * doorbell record), the counters, the recovery an error CQE asked for.
 */
static __rte_always_inline void
mlx5cq_rx_close(struct mlx5cq_rxq *rxq, uint32_t rq_ci, uint16_t out,
		uint64_t bytes)
{
	rxq->pi += rq_ci - rxq->rq_ci;
	rxq->rq_ci = rq_ci;
	rte_io_wmb();
	rxq->dbrec[0] = rte_cpu_to_be_32(rxq->pi & 0xffff);
	rxq->st.packets += out;
	rxq->st.bytes += bytes;
	if (unlikely(rxq->in_error))
		mlx5cq_rxq_recover(rxq);
}

/*
 * Replacements for the segments [base, base + nseg) of a packet, posted
 * in place of its buffers, whose chain of len bytes goes to *head (its
 * pkt_len and offload fields for the caller). 0, or -1 (none taken,
 * nothing changed: the packet is dropped, counted). mlx5cq_rx_rec.c.
 */
int mlx5cq_rx_chain(struct mlx5cq_rxq *rxq, uint32_t base, uint32_t nseg,
		    uint32_t len, struct rte_mbuf **head);

/*
 * Whether the SIMD stores may take the packets: rx_vec_en, and the
 * mempool has the chunks its lkey table was built from (every
 * replacement then has an lkey; a chunk added later may not, and goes
 * per packet, which drops that frame).
 */
static __rte_always_inline int
mlx5cq_rx_vec_ok(const struct mlx5cq_rxq *rxq)
{
	return rxq->rx_vec && (likely(rxq->mrt == NULL) ||
			       rxq->mp->nb_mem_chunks == rxq->mrt->chunks);
}

/* Most packets a compressed session is decoded ahead by (one pass). */
#define MLX5CQ_RX_AHEAD_MAX 64

/*
 * Decode what is left of the open compressed session (HASH or CSUM
 * format), or of the one at the CQ's consumer index, at most
 * MLX5CQ_RX_AHEAD_MAX mini-CQEs, into the mbufs of WQEs rq_ci.. (fields
 * only; they stay in the buffer ring), and consume them from the CQ.
 * Returns how many (rxq->session_ahead is the caller's). *len: the sum
 * of the lengths of the first want of them, rxq->session_ahead_len that
 * of the others. The reference's field stores; _vec: the SIMD stores
 * (mlx5cq_rx_vec.h; defined where MLX5CQ_RX_VEC is, for queues with
 * mlx5cq_rx_vec_ok()). mlx5cq_rx_session.c.
 */
uint32_t mlx5cq_rx_session_ahead(struct mlx5cq_rxq *rxq, uint32_t rq_ci,
				 uint16_t want, uint64_t *len);
uint32_t mlx5cq_rx_session_ahead_vec(struct mlx5cq_rxq *rxq, uint32_t rq_ci,
				     uint16_t want, uint64_t *len);

#endif /* MLX5CQ_RX_H_ */
