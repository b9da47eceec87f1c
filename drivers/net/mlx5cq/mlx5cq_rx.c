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
 * One pass, segment by segment, on the lean paths:
 * - plain CQEs (rte_mlx5cq_peek / rte_mlx5cq_advance): each CQE is read
 *   once and turned into its mbuf (8-byte rearm template: data_off,
 *   refcnt, nb_segs, port; packet type and checksum flags from two tables
 *   indexed by the CQE's header-type bits; length, VLAN, RSS hash);
 * - compressed sessions of the basic layout in HASH or CSUM format
 *   (rte_mlx5cq_zip_peek / rte_mlx5cq_zip_advance): the mini-CQEs of an
 *   array straight into their mbufs (mlx5cq_rx_zip.c).
 * On x86 with rx_vec_en=1 (default) both write the mbufs with byte
 * shuffles and 16-byte stores; rx_vec_en=0 writes them per packet, the
 * reference. Error CQEs, the other mini-CQE formats and the enhanced
 * layout go through the records of rte_mlx5cq_poll_burst().
 * Replacements come raw from the mempool (no
 * reset: every field a received mbuf needs is written here), once per
 * burst, as many as the pool gives: a WQE whose buffer cannot be replaced
 * keeps its buffer and the packet is dropped (rx_nombuf); what is left is
 * returned. Only the WQE address is rewritten (byte count fixed at queue
 * start), in the pass that hands the packet up; when the mempool spans
 * several memory regions the lkey too, in the same pass, from the
 * queue's lkey table (mlx5cq_mr_tbl.c: one load, a tag check). The RQ
 * doorbell record is updated once per burst after a write barrier.
 */

#include <rte_io.h>
#include <rte_vect.h>

#include "mlx5cq_rx.h"

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

/* Replacements of a burst, taken once, at its first completion. */
struct rx_reps {
	struct rte_mbuf *m[MLX5CQ_BURST_MAX];
	uint16_t have;
	uint16_t used;
};

/*
 * At least need replacements ready (want: what the rest of the burst
 * may take). Returns how many are ready (fewer when the pool is short).
 */
static __rte_always_inline uint16_t
rx_reps_get(struct mlx5cq_rxq *rxq, struct rx_reps *r, uint16_t need,
	    uint16_t want)
{
	uint16_t k;

	if (likely(r->have - r->used >= need))
		return need;
	want -= r->have - r->used;
	if (likely(rte_mempool_get_bulk(rxq->mp, (void **)&r->m[r->have],
					want) == 0)) {
		k = want;
	} else {
		for (k = 0; k < want; k++)
			if (rte_mempool_get(rxq->mp,
					    (void **)&r->m[r->have + k]) != 0)
				break;
	}
	r->have += k;
	return RTE_MIN(need, (uint16_t)(r->have - r->used));
}

/* The headers of the mbufs handed up are written next: ask for all
 * their lines at once, so the misses overlap.
 */
static __rte_always_inline void
rx_prefetch_elts(const struct mlx5cq_rxq *rxq, uint32_t rq_ci, uint16_t k)
{
	uint16_t i;

	for (i = 0; i < k; i++)
		rte_prefetch0(rxq->elts[(rq_ci + i) & rxq->mask]);
}

#ifdef RTE_ARCH_X86
/*
 * One plain CQE into mbuf m with SSSE3 shuffles: bytes 32..47 of the CQE
 * give pkt_len and data_len (byte count, 44..47), bytes 16..31 the VLAN
 * (30..31), all swapped; the hash (12..15) and the packet type are
 * inserted; two aligned 16-byte stores (template + flags, RX fields).
 */
static __rte_always_inline void
rx_plain_vec_one(const struct mlx5cq_rxq *rxq, volatile const uint8_t *e,
		 struct rte_mbuf *m, __m128i sh_len, __m128i sh_vlan)
{
	const __m128i mid = _mm_loadu_si128((const __m128i *)
					    (uintptr_t)(e + 16));
	const __m128i hi = _mm_loadu_si128((const __m128i *)
					   (uintptr_t)(e + 32));
	const uint16_t hte = rte_mlx5cq__be16(e, RTE_MLX5CQ_CQE_HDR_TYPE_ETC);
	const unsigned int t = MLX5CQ_RX_LUT_IDX(hte);
	uint64_t ol = mlx5cq_rx_csum_lut[t] | rxq->ol_rss;
	__m128i f = _mm_shuffle_epi8(hi, sh_len);
	uintptr_t b = (uintptr_t)m;

	if ((hte & RTE_MLX5CQ_HDR_VLAN_STRIPPED) && rxq->vlan_strip) {
		ol |= RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
		f = _mm_or_si128(f, _mm_shuffle_epi8(mid, sh_vlan));
	}
	f = _mm_insert_epi32(f, (int)mlx5cq_rx_ptype_lut[t], 0);
	f = _mm_insert_epi32(f, (int)rte_mlx5cq__be32(e,
				RTE_MLX5CQ_CQE_RX_HASH_RES), 3);
	_mm_store_si128((__m128i *)(b + MLX5CQ_RX_OFF_REARM),
			_mm_set_epi64x((long long)ol,
				       (long long)rxq->mbuf_initializer));
	_mm_store_si128((__m128i *)(b + MLX5CQ_RX_OFF_PTYPE), f);
}
#endif

/* Plain CQEs: k found by rte_mlx5cq_peek(), replacements ready for nr. */
static __rte_always_inline uint16_t
rx_plain(struct mlx5cq_rxq *rxq, uint32_t rq_ci, uint16_t nr,
	 struct rx_reps *r, struct rte_mbuf **pkts, uint64_t *bytes)
{
	struct rte_mlx5cq *cq = rxq->cq;
	struct rte_mbuf **rep = &r->m[r->used];
	uint16_t i, out = 0;

#ifdef RTE_ARCH_X86
	if (likely(mlx5cq_rx_vec_ok(rxq))) {
		/* In the RX fields half: pkt_len 4..7 and data_len 8..9 from
		 * byte count (44..47 = hi 12..15), vlan_tci 10..11 from
		 * 30..31 (mid 14..15).
		 */
		const __m128i sh_len = _mm_setr_epi8(-1, -1, -1, -1,
			15, 14, 13, 12, 15, 14, -1, -1, -1, -1, -1, -1);
		const __m128i sh_vlan = _mm_setr_epi8(-1, -1, -1, -1,
			-1, -1, -1, -1, -1, -1, 15, 14, -1, -1, -1, -1);
		const struct mlx5cq_rx_lkc lkc = mlx5cq_rx_lkc(rxq);

		for (i = 0; i < nr; i++) {
			volatile const uint8_t *e = rte_mlx5cq_peek_cqe(cq, i);
			uint32_t idx = (rq_ci + i) & rxq->mask;
			struct rte_mbuf *m = rxq->elts[idx];

			rx_plain_vec_one(rxq, e, m, sh_len, sh_vlan);
			*bytes += m->pkt_len;
			pkts[i] = m;
			mlx5cq_rx_post(rxq, &lkc, idx, rep[i]);
		}
		r->used += nr;
		return nr;
	}
#endif
	for (i = 0; i < nr; i++) {
		volatile const uint8_t *e = rte_mlx5cq_peek_cqe(cq, i);
		uint32_t idx = (rq_ci + i) & rxq->mask;
		uint32_t len = rte_mlx5cq__be32(e, RTE_MLX5CQ_CQE_BYTE_CNT);
		struct rte_mbuf *m = rxq->elts[idx];

		if (unlikely(mlx5cq_rx_one(rxq, idx, m, rep[i], len,
			rte_mlx5cq__be16(e, RTE_MLX5CQ_CQE_HDR_TYPE_ETC),
			rte_mlx5cq__be16(e, RTE_MLX5CQ_CQE_VLAN_INFO),
			rte_mlx5cq__be32(e, RTE_MLX5CQ_CQE_RX_HASH_RES))))
			continue;
		*bytes += len;
		pkts[out++] = m;
	}
	r->used += nr;
	return out;
}

/*
 * Records of rte_mlx5cq_poll_burst() for at most n completions: error
 * CQEs (the buffer stays posted; the RQ went to ERR and is recovered at
 * the end of the burst), sessions not on the lean path, the rest.
 * *rq_ci moves past every record.
 */
static uint16_t
rx_records(struct mlx5cq_rxq *rxq, uint32_t *rq_ci, uint16_t n,
	   struct rx_reps *r, struct rte_mbuf **pkts, uint64_t *bytes)
{
	uint16_t k = rte_mlx5cq_poll_burst(rxq->cq, rxq->cpl, n);
	uint16_t i, nr, out = 0;

	if (k == 0)
		return 0;
	rx_prefetch_elts(rxq, *rq_ci, k);
	nr = rx_reps_get(rxq, r, k, k);
	for (i = 0; i < k; i++) {
		const struct rte_mlx5cq_cpl *c = &rxq->cpl[i];
		uint32_t idx = (*rq_ci)++ & rxq->mask;
		struct rte_mbuf *m;

		if (unlikely(c->status != 0)) {
			rxq->st.errors++;
			rxq->in_error = 1;
			continue;
		}
		if (unlikely(nr == 0)) {
			rxq->st.nombuf++;
			continue;
		}
		m = rxq->elts[idx];
		nr--;
		if (unlikely(mlx5cq_rx_one(rxq, idx, m, r->m[r->used],
					   c->byte_cnt, c->hdr_type_etc,
					   c->vlan_tci, c->rss_hash))) {
			r->used++;
			continue;
		}
		r->used++;
		pkts[out++] = m;
		*bytes += c->byte_cnt;
	}
	return out;
}

uint16_t
mlx5cq_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5cq_rxq *rxq = q;
	struct rte_mlx5cq *cq = rxq->cq;
	uint32_t rq_ci = rxq->rq_ci;
	uint16_t done = 0, out = 0, got, nr;
	uint64_t bytes = 0;
	struct rx_reps r;
	int polled = 0;

	if (unlikely(!rxq->started))
		return 0;
	/* A queue a failed recovery left in error: try again first. */
	if (unlikely(rxq->in_error) && mlx5cq_rxq_recover(rxq) != 0)
		return 0;
	if (n > MLX5CQ_BURST_MAX)
		n = MLX5CQ_BURST_MAX;
	r.have = 0;
	r.used = 0;
	while (done < n) {
		const struct rte_mlx5cq_cpl *t;
		uint32_t first, pos, left;

		got = rte_mlx5cq_peek(cq, n - done);
		if (got) {
			rx_prefetch_elts(rxq, rq_ci, got);
			nr = rx_reps_get(rxq, &r, got, n - done);
			out += rx_plain(rxq, rq_ci, nr, &r, pkts + out, &bytes);
			rte_mlx5cq_advance(cq, got);
		} else {
			if (rxq->zip_fmt == 0)
				break;
			left = rte_mlx5cq_zip_session(cq, &t, &first, &pos);
			if (left == 0)
				break;
			got = (uint16_t)RTE_MIN(left, (uint32_t)(n - done));
			/* A session is likely to fill the burst: the mbuf
			 * headers of all of it, once.
			 */
			if (r.have == 0)
				rx_prefetch_elts(rxq, rq_ci, n - done);
			nr = rx_reps_get(rxq, &r, got, n - done);
			out += mlx5cq_rx_minis(rxq, t, first, pos, nr, rq_ci,
					       &r.m[r.used], pkts + out,
					       &bytes);
			r.used += nr;
			rte_mlx5cq_zip_advance(cq, got);
		}
		/* No replacement: the buffers stay posted, packets dropped. */
		rxq->st.nombuf += got - nr;
		rq_ci += got;
		done += got;
		polled = 1;
	}
	/* Error CQEs, sessions off the lean path. */
	if (done < n && rte_mlx5cq_ready(cq)) {
		out += rx_records(rxq, &rq_ci, n - done, &r, pkts + out,
				  &bytes);
		polled = 1;
	}
	if (r.have > r.used)
		rte_mempool_put_bulk(rxq->mp, (void **)&r.m[r.used],
				     r.have - r.used);
	if (rq_ci == rxq->rq_ci) {
		/* Nothing, no poll made: one empty poll in the counters. */
		if (!polled)
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

