/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * TX burst. One SEND WQE per packet in 64 B WQEBBs:
 *   control segment   opmod_idx_opcode = WQE index << 8 | SEND,
 *                     qpn_ds = SQN << 8 | DS (16 B units),
 *                     fm_ce_se = CQ_UPDATE when a completion is wanted;
 *   Ethernet segment  cs_flags; when the device requires the L2 header
 *                     inline (txq->inline_hdr 18): inline_hdr_sz = 18,
 *                     first 2 bytes inline, and 16 B of frame bytes
 *                     2..17; else inline_hdr_sz = 0 (no inline bytes);
 *                     VLAN insertion (RTE_MBUF_F_TX_VLAN with the
 *                     offload): without inline bytes and with the
 *                     device's wqe_vlan_insert, the word at byte 12 is
 *                     MLX5_ETH_WQE_VLAN_INSERT | TCI (the device inserts
 *                     the tag); else the tag is written into the inline
 *                     header, 22 bytes in two 16 B units;
 *   data segments     rest of the first mbuf, then each further segment
 *                     (byte_count, lkey, addr).
 * Without inline headers the burst never reads the frames: in a
 * forwarding run their lines stay with the core that received them.
 * Segments past the first WQEBB continue in the next ones (ring wrap
 * included). After the WQEs: write barrier, doorbell record word 1 (big
 * endian, WQEBB counter & 0xffff), write barrier, then the first 8 bytes of
 * the last WQE's control segment to the UAR page at offset 0x800.
 * A completion is requested every tx_comp_thresh packets (and on the last
 * WQE of a burst when the ring is half full); its wqe_counter tells how far
 * the mbufs can be freed.
 * Every segment's lkey is looked up before anything of the WQE is written:
 * a buffer in no registered memory (lookup miss, UINT32_MAX), like a
 * packet whose first segment is shorter than 18 bytes or with more
 * segments than a WQE holds, drops the packet (freed, counted in
 * oerrors) and leaves the ring as it was.
 */

#include <rte_ether.h>
#include <rte_io.h>
#include <rte_mbuf.h>
#include <rte_memcpy.h>

#include <infiniband/mlx5dv.h>
#include <mlx5_prm.h>

#include "mlx5cq_ethdev.h"
#include "mlx5cq_mprq.h"

/* DS count of a WQE: 6 bits (ctrl qpn_ds); 3 for ctrl + eth + inline. */
#define MLX5CQ_TX_DS_MAX 63
#define MLX5CQ_TX_SEGS_MAX (MLX5CQ_TX_DS_MAX - 3)

/*
 * Lkeys of the data segments of m (the rest of the first mbuf after the
 * inline header, then every non-empty further segment): their number, or
 * -1 when one misses or there are too many.
 */
static __rte_always_inline int
mlx5cq_tx_lkeys(struct mlx5cq_txq *txq, struct rte_mbuf *m, uint32_t ih,
		uint32_t rest, uint32_t lkeys[MLX5CQ_TX_SEGS_MAX])
{
	struct rte_mbuf *s;
	int n = 0;

	if (rest != 0) {
		lkeys[n] = mlx5cq_mr_lookup(&txq->mrc,
					    rte_pktmbuf_mtod(m, uintptr_t) +
					    ih, mlx5cq_mbuf_mem_pool(m));
		if (unlikely(lkeys[n++] == UINT32_MAX))
			return -1;
	}
	for (s = m->next; s != NULL; s = s->next) {
		if (s->data_len == 0)
			continue;
		if (unlikely(n == MLX5CQ_TX_SEGS_MAX))
			return -1;
		lkeys[n] = mlx5cq_mr_lookup(&txq->mrc,
					    rte_pktmbuf_mtod(s, uintptr_t),
					    mlx5cq_mbuf_mem_pool(s));
		if (unlikely(lkeys[n++] == UINT32_MAX))
			return -1;
	}
	return n;
}

/* 16 B unit u (from the queue start) of the WQE ring. */
static __rte_always_inline volatile uint8_t *
mlx5cq_tx_unit(const struct mlx5cq_txq *txq, uint32_t u)
{
	return txq->wqes + ((u & ((txq->wqebb_n << 2) - 1)) << 4);
}

static __rte_always_inline void
mlx5cq_tx_dseg(volatile uint8_t *p, uint32_t len, uint32_t lkey,
	       uintptr_t addr)
{
	volatile struct mlx5_wqe_dseg_rx *d = (volatile void *)p;

	d->byte_count = rte_cpu_to_be_32(len);
	d->lkey = rte_cpu_to_be_32(lkey);
	d->addr = rte_cpu_to_be_64(addr);
}

/*
 * Give sent mbufs back. With RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE and without
 * MULTI_SEGS the application promises single-segment direct mbufs of one
 * mempool with reference count 1: they go straight back to the pool in
 * one put, without a read of any mbuf beyond the first (as net/mlx5's
 * mlx5_tx_free_mbuf(), which engages it under the same condition).
 */
static __rte_always_inline void
mlx5cq_tx_free_bulk(const struct mlx5cq_txq *txq, struct rte_mbuf **fr,
		    uint16_t nf)
{
	if (txq->fast_free)
		rte_mempool_put_bulk(fr[0]->pool, (void **)fr, nf);
	else
		rte_pktmbuf_free_bulk(fr, nf);
}

/*
 * The elts[] entry of a WQE: its mbuf, tagged MLX5CQ_TX_ELT_CHAIN when it
 * heads a chain. Fast free (rte_ethdev.h: one mempool, reference count 1)
 * does not forbid chains, and testpmd sends them with it on: the tag
 * keeps the put from returning the head alone.
 */
static __rte_always_inline struct rte_mbuf *
mlx5cq_tx_elt(struct rte_mbuf *m)
{
	return (struct rte_mbuf *)((uintptr_t)m |
				   (m->nb_segs > 1 ? MLX5CQ_TX_ELT_CHAIN : 0));
}

/*
 * Free the mbufs of the WQEs before WQEBB counter end (the end of the WQE
 * a completion names). *ci moves; a stale or flushed counter is ignored.
 * Chains (tagged entries) go back one by one, each segment freed.
 */
static __rte_always_inline void
mlx5cq_tx_free_to(struct mlx5cq_txq *txq, uint32_t *ci, uint16_t wqe)
{
	struct rte_mbuf *fr[MLX5CQ_BURST_MAX];
	uint16_t end = txq->wqe_end[wqe & txq->mask];
	uint32_t c = *ci, stop = c + (uint16_t)(end - (uint16_t)c);
	uint16_t nf = 0;

	if ((uint32_t)(stop - c) > (uint32_t)(txq->pi - c))
		return;
	for (; c != stop; c++) {
		struct rte_mbuf **m = &txq->elts[c & txq->mask];
		uintptr_t v = (uintptr_t)*m;

		if (v == 0)
			continue;
		*m = NULL;
		if (unlikely(v & MLX5CQ_TX_ELT_CHAIN)) {
			rte_pktmbuf_free((struct rte_mbuf *)
					 (v & ~MLX5CQ_TX_ELT_CHAIN));
			continue;
		}
		fr[nf++] = (struct rte_mbuf *)v;
		if (nf == MLX5CQ_BURST_MAX) {
			mlx5cq_tx_free_bulk(txq, fr, nf);
			nf = 0;
		}
	}
	if (nf)
		mlx5cq_tx_free_bulk(txq, fr, nf);
	*ci = c;
}

/*
 * TX completions. Regular success CQEs through the lean path: WQEs
 * complete in order, so only the last of a run is read (its WQE
 * counter), one read per run instead of a record per completion. Error
 * CQEs (and anything the lean path does not take) through the records of
 * rte_mlx5cq_poll_burst().
 */
void
mlx5cq_txq_complete(struct mlx5cq_txq *txq)
{
	struct rte_mlx5cq *cq = txq->cq;
	uint32_t ci = txq->ci;
	uint16_t got, i;

	if (cq == NULL)
		return;
	if (!rte_mlx5cq_ready(cq)) {
		rte_mlx5cq_advance(cq, 0); /* an empty poll, counted */
		return;
	}
	got = rte_mlx5cq_peek(cq, MLX5CQ_BURST_MAX);
	if (got) {
		volatile const struct rte_mlx5cq_cqe *e =
			rte_mlx5cq_peek_cqe(cq, (uint16_t)(got - 1));

		mlx5cq_tx_free_to(txq, &ci, rte_mlx5cq_cqe_wqe_counter(e));
		rte_mlx5cq_advance(cq, got);
	}
	if (got == MLX5CQ_BURST_MAX || !rte_mlx5cq_ready(cq)) {
		txq->ci = ci;
		return;
	}
	got = rte_mlx5cq_poll_burst(cq, txq->cpl, MLX5CQ_BURST_MAX);
	for (i = 0; i < got; i++) {
		const struct rte_mlx5cq_cpl *c = &txq->cpl[i];

		if (unlikely(c->status != 0)) {
			txq->st.errors++;
			txq->in_error = 1;
			PMD_LOG(DEBUG, "port %u txq %u: error CQE syndrome "
				"0x%x at WQE %u", txq->port_id, txq->idx,
				c->syndrome, c->wqe_counter);
		}
		mlx5cq_tx_free_to(txq, &ci, c->wqe_counter);
	}
	txq->ci = ci;
}

static __rte_always_inline uint8_t
mlx5cq_tx_csum(const struct mlx5cq_txq *txq, const struct rte_mbuf *m)
{
	uint64_t f = m->ol_flags;
	uint8_t cs = 0;

	if ((f & RTE_MBUF_F_TX_IP_CKSUM) &&
	    (txq->offloads & RTE_ETH_TX_OFFLOAD_IPV4_CKSUM))
		cs |= MLX5_ETH_WQE_L3_CSUM;
	if ((f & RTE_MBUF_F_TX_L4_MASK) != RTE_MBUF_F_TX_L4_NO_CKSUM &&
	    (txq->offloads & (RTE_ETH_TX_OFFLOAD_UDP_CKSUM |
			      RTE_ETH_TX_OFFLOAD_TCP_CKSUM)))
		cs |= MLX5_ETH_WQE_L4_CSUM;
	return cs;
}

/* What mlx5cq_tx_one() did with a packet. */
enum {
	MLX5CQ_TX_SENT,
	MLX5CQ_TX_DROPPED, /* Freed and counted in errors. */
	MLX5CQ_TX_FULL, /* No room: the burst ends before it. */
};

/*
 * One packet's SEND WQE. ih: bytes of the frame inline (0 or 18); vtag:
 * the Ethernet segment's VLAN insertion word (0: none); vsw: 1 when the
 * tag goes into the inline header (ih is then 18). Inlined with
 * constants for untagged packets, so their path carries no VLAN test.
 */
static __rte_always_inline int
mlx5cq_tx_one(struct mlx5cq_txq *txq, struct rte_mbuf *m, uint32_t ih,
	      uint32_t vtag, uint32_t vsw, volatile uint8_t **last,
	      uint64_t *bytes)
{
	uint32_t rest = m->data_len - ih;
	uint32_t lkeys[MLX5CQ_TX_SEGS_MAX];
	uint32_t ds, nbb, u = txq->pi << 2, k = 0;
	volatile uint8_t *w = mlx5cq_tx_unit(txq, u);
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	struct rte_mbuf *s;
	uint8_t ce = 0;
	int nseg;

	/* A zero byte count means 2 GiB: empty segments are skipped. */
	nseg = unlikely(m->data_len < MLX5CQ_INLINE_HDR) ? -1 :
	       mlx5cq_tx_lkeys(txq, m, ih, rest, lkeys);
	if (unlikely(nseg < 0)) {
		/* Too short for the inline header, a segment in no
		 * registered memory, or too many segments: dropped before
		 * any byte of its WQE is written.
		 */
		txq->st.errors++;
		rte_pktmbuf_free(m);
		return MLX5CQ_TX_DROPPED;
	}
	/* Control and Ethernet segments, 16 B of inline header (32 with an
	 * inserted tag).
	 */
	ds = (ih ? 3 : 2) + vsw + (uint32_t)nseg;
	nbb = (ds + 3) >> 2;
	if (txq->wqebb_n - (txq->pi - txq->ci) < nbb) {
		mlx5cq_txq_complete(txq);
		if (txq->wqebb_n - (txq->pi - txq->ci) < nbb)
			return MLX5CQ_TX_FULL;
	}
	if (++txq->since_comp >= txq->comp_thresh) {
		ce = MLX5_WQE_CTRL_CQ_UPDATE;
		txq->since_comp = 0;
	}
	/* Control segment. */
	((volatile uint32_t *)w)[0] =
		rte_cpu_to_be_32(((txq->pi & 0xffff) << 8) | MLX5_OPCODE_SEND);
	((volatile uint32_t *)w)[1] = rte_cpu_to_be_32((txq->sqn << 8) | ds);
	((volatile uint32_t *)w)[2] = rte_cpu_to_be_32(ce);
	((volatile uint32_t *)w)[3] = 0;
	/* Ethernet segment (+ 16 B of inline header). */
	((volatile uint32_t *)w)[4] = 0;
	((volatile uint32_t *)w)[5] =
		rte_cpu_to_be_32((uint32_t)mlx5cq_tx_csum(txq, m) << 24);
	((volatile uint32_t *)w)[6] = 0;
	if (vsw) {
		/* 22 inline bytes: the MACs, TPID and TCI, then frame bytes
		 * 12..17 (as net/mlx5 inserts a tag into its inline data,
		 * mlx5_tx_eseg_dmin()).
		 */
		rte_be32_t tag = rte_cpu_to_be_32((uint32_t)RTE_ETHER_TYPE_VLAN
						  << 16 | m->vlan_tci);

		((volatile uint16_t *)w)[14] =
			rte_cpu_to_be_16(MLX5CQ_INLINE_HDR + RTE_VLAN_HLEN);
		rte_memcpy((void *)(uintptr_t)(w + 30), d, 2);
		rte_memcpy((void *)(uintptr_t)(w + 32), d + 2, 10);
		rte_memcpy((void *)(uintptr_t)(w + 42), &tag, 4);
		rte_memcpy((void *)(uintptr_t)(w + 46), d + 12,
			   MLX5CQ_INLINE_HDR - 12);
		u += 4;
	} else if (ih) {
		((volatile uint16_t *)w)[14] =
			rte_cpu_to_be_16(MLX5CQ_INLINE_HDR);
		rte_memcpy((void *)(uintptr_t)(w + 30), d, 2);
		rte_memcpy((void *)(uintptr_t)(w + 32), d + 2,
			   MLX5CQ_INLINE_HDR - 2);
		u += 3;
	} else {
		((volatile uint32_t *)w)[7] = rte_cpu_to_be_32(vtag);
		u += 2;
	}
	if (rest != 0)
		mlx5cq_tx_dseg(mlx5cq_tx_unit(txq, u++), rest, lkeys[k++],
			       (uintptr_t)d + ih);
	for (s = m->next; s != NULL; s = s->next) {
		if (s->data_len == 0)
			continue;
		mlx5cq_tx_dseg(mlx5cq_tx_unit(txq, u++), s->data_len,
			       lkeys[k++], rte_pktmbuf_mtod(s, uintptr_t));
	}
	txq->elts[txq->pi & txq->mask] = mlx5cq_tx_elt(m);
	txq->wqe_end[txq->pi & txq->mask] = (uint16_t)(txq->pi + nbb);
	txq->pi += nbb;
	*bytes += m->pkt_len + (vtag || vsw ? RTE_VLAN_HLEN : 0);
	*last = w;
	return MLX5CQ_TX_SENT;
}

/*
 * A TCP segmentation offload packet (RTE_MBUF_F_TX_TCP_SEG with the
 * offload), built as net/mlx5 builds it (mlx5_tx_eseg_data() for TSO)
 * and the kernel's mlx5e (mlx5e_sq_xmit_wqe()): opcode TSO, the Ethernet
 * segment's L3/L4 checksum flags and mss (tso_segsz), and the whole L2..L4
 * header (l2_len + l3_len + l4_len bytes, from the first mbuf) inline from
 * the segment's byte 14 on, a VLAN tag spliced in after the MACs when
 * asked; then the payload by pointer. The device cuts the payload into
 * frames of mss bytes, each with the header, lengths, sequence number and
 * checksums its own. Dropped (freed, counted in errors) when the header is
 * longer than MLX5CQ_TSO_HDR_MAX or than the first mbuf, mss is 0, the
 * payload is empty or above the device's max_lso_cap, or the WQE would
 * need more than 63 segments.
 */
static __rte_noinline int
mlx5cq_tx_one_tso(struct mlx5cq_txq *txq, struct rte_mbuf *m,
		  volatile uint8_t **last, uint64_t *bytes)
{
	uint8_t hdr[MLX5CQ_TSO_HDR_MAX + RTE_VLAN_HLEN];
	uint32_t lkeys[MLX5CQ_TX_SEGS_MAX];
	uint32_t ihs = (uint32_t)m->l2_len + m->l3_len + m->l4_len;
	/* ihs: the header in the mbuf; hl: inline (with a VLAN tag). */
	uint32_t hl = ihs, ds, nbb, u = txq->pi << 2, k = 0, i;
	int vlan = (m->ol_flags & RTE_MBUF_F_TX_VLAN) &&
		   (txq->slow_flags & RTE_MBUF_F_TX_VLAN);
	volatile uint8_t *w = mlx5cq_tx_unit(txq, u);
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	uint8_t cs = MLX5_ETH_WQE_L4_CSUM, ce = 0;
	struct rte_mbuf *s;
	int nseg = -1;

	if (m->tso_segsz != 0 && ihs >= RTE_ETHER_HDR_LEN &&
	    ihs <= MLX5CQ_TSO_HDR_MAX && ihs <= m->data_len &&
	    m->pkt_len > ihs && m->pkt_len - ihs <= txq->priv->tso_max)
		nseg = mlx5cq_tx_lkeys(txq, m, ihs, m->data_len - ihs, lkeys);
	if (nseg >= 0) {
		hl += vlan ? RTE_VLAN_HLEN : 0;
		ds = 2 + (hl - 2 + 15) / 16 + (uint32_t)nseg;
		if (ds > MLX5CQ_TX_DS_MAX)
			nseg = -1;
	}
	if (unlikely(nseg < 0)) {
		txq->st.errors++;
		rte_pktmbuf_free(m);
		return MLX5CQ_TX_DROPPED;
	}
	nbb = (ds + 3) >> 2;
	if (txq->wqebb_n - (txq->pi - txq->ci) < nbb) {
		mlx5cq_txq_complete(txq);
		if (txq->wqebb_n - (txq->pi - txq->ci) < nbb)
			return MLX5CQ_TX_FULL;
	}
	if (++txq->since_comp >= txq->comp_thresh) {
		ce = MLX5_WQE_CTRL_CQ_UPDATE;
		txq->since_comp = 0;
	}
	if (vlan) {
		rte_be32_t tag = rte_cpu_to_be_32((uint32_t)RTE_ETHER_TYPE_VLAN
						  << 16 | m->vlan_tci);

		memcpy(hdr, d, 12);
		memcpy(hdr + 12, &tag, 4);
		memcpy(hdr + 16, d + 12, ihs - 12);
	} else {
		memcpy(hdr, d, ihs);
	}
	if (m->ol_flags & RTE_MBUF_F_TX_IP_CKSUM)
		cs |= MLX5_ETH_WQE_L3_CSUM;
	((volatile uint32_t *)w)[0] =
		rte_cpu_to_be_32(((txq->pi & 0xffff) << 8) | MLX5_OPCODE_TSO);
	((volatile uint32_t *)w)[1] = rte_cpu_to_be_32((txq->sqn << 8) | ds);
	((volatile uint32_t *)w)[2] = rte_cpu_to_be_32(ce);
	((volatile uint32_t *)w)[3] = 0;
	/* Ethernet segment: cs_flags (byte 4), mss (6..7), inline_hdr_sz
	 * (12..13), the header's first 2 bytes (14..15).
	 */
	((volatile uint32_t *)w)[4] = 0;
	((volatile uint32_t *)w)[5] =
		rte_cpu_to_be_32((uint32_t)cs << 24 | m->tso_segsz);
	((volatile uint32_t *)w)[6] = 0;
	((volatile uint16_t *)w)[14] = rte_cpu_to_be_16((uint16_t)hl);
	rte_memcpy((void *)(uintptr_t)(w + 30), hdr, 2);
	/* The rest of the header, 16 B units (across WQEBBs, ring wrap). */
	u += 2;
	for (i = 2; i < hl; i += 16)
		rte_memcpy((void *)(uintptr_t)mlx5cq_tx_unit(txq, u++),
			   hdr + i, RTE_MIN(16u, hl - i));
	if (m->data_len > ihs)
		mlx5cq_tx_dseg(mlx5cq_tx_unit(txq, u++), m->data_len - ihs,
			       lkeys[k++], (uintptr_t)d + ihs);
	for (s = m->next; s != NULL; s = s->next) {
		if (s->data_len == 0)
			continue;
		mlx5cq_tx_dseg(mlx5cq_tx_unit(txq, u++), s->data_len,
			       lkeys[k++], rte_pktmbuf_mtod(s, uintptr_t));
	}
	txq->elts[txq->pi & txq->mask] = mlx5cq_tx_elt(m);
	txq->wqe_end[txq->pi & txq->mask] = (uint16_t)(txq->pi + nbb);
	txq->pi += nbb;
	/* The frames on the wire, as net/mlx5 counts them: one packet more
	 * per segment beyond the first (the burst counts the mbuf), each
	 * carrying the header.
	 */
	i = (m->pkt_len - ihs + m->tso_segsz - 1) / m->tso_segsz;
	txq->st.packets += i - 1;
	*bytes += m->pkt_len - ihs + (uint64_t)i * hl;
	*last = w;
	return MLX5CQ_TX_SENT;
}

/*
 * A packet off the plain path: TSO (above), or to be tagged
 * (RTE_MBUF_F_TX_VLAN with the offload): by the device (the Ethernet
 * segment's insertion word) when it can and no header is inline, else
 * into the inline header.
 */
static __rte_noinline int
mlx5cq_tx_one_slow(struct mlx5cq_txq *txq, struct rte_mbuf *m,
		   volatile uint8_t **last, uint64_t *bytes)
{
	if (m->ol_flags & txq->slow_flags & RTE_MBUF_F_TX_TCP_SEG)
		return mlx5cq_tx_one_tso(txq, m, last, bytes);
	if (txq->inline_hdr == 0 && txq->vlan_hw)
		return mlx5cq_tx_one(txq, m, 0,
				     MLX5_ETH_WQE_VLAN_INSERT | m->vlan_tci, 0,
				     last, bytes);
	return mlx5cq_tx_one(txq, m, MLX5CQ_INLINE_HDR, 0, 1, last, bytes);
}

uint16_t
mlx5cq_tx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5cq_txq *txq = q;
	volatile uint8_t *last = NULL;
	uint64_t bytes = 0;
	uint16_t i, sent = 0;
	int r;

	if (unlikely(!txq->started))
		return 0;
	if (unlikely(txq->in_error) && mlx5cq_txq_recover(txq) != 0)
		return 0;
	mlx5cq_txq_complete(txq);
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];

		if (unlikely(m->ol_flags & txq->slow_flags))
			r = mlx5cq_tx_one_slow(txq, m, &last, &bytes);
		else
			r = mlx5cq_tx_one(txq, m, txq->inline_hdr, 0, 0, &last,
					  &bytes);
		if (r == MLX5CQ_TX_FULL)
			break;
		sent += r == MLX5CQ_TX_SENT;
	}
	if (last == NULL)
		return i;
	/* Keep completions coming when the ring fills up. */
	if (txq->since_comp != 0 && txq->pi - txq->ci >= txq->wqebb_n / 2) {
		((volatile uint32_t *)last)[2] =
			rte_cpu_to_be_32(MLX5_WQE_CTRL_CQ_UPDATE);
		txq->since_comp = 0;
	}
	rte_io_wmb();
	txq->dbrec[1] = rte_cpu_to_be_32(txq->pi & 0xffff);
	rte_wmb();
	*mlx5cq_tx_uar_reg(txq) = *(volatile uint64_t *)last;
	rte_wmb();
	txq->st.packets += sent;
	txq->st.bytes += bytes;
	return i;
}
