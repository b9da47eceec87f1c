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
 * Segment by segment, on the lean paths:
 * - packets of a compressed session decoded ahead by an earlier burst
 *   (rxq->zip_ahead), first;
 * - plain CQEs (rte_mlx5cq_peek_op for receive CQEs, else
 *   rte_mlx5cq_peek; rte_mlx5cq_advance): each CQE is read once and
 *   turned into its mbuf (8-byte rearm template: data_off, refcnt,
 *   nb_segs, port; packet type and checksum flags from two tables indexed
 *   by the CQE's header-type bits; length, VLAN, RSS hash);
 * - compressed sessions of the basic layout in HASH or CSUM format
 *   (rte_mlx5cq_zip_session / rte_mlx5cq_zip_advance): decoded ahead into
 *   the mbufs of the buffer ring, or per packet (mlx5cq_rx_zip.c).
 * On x86 and AArch64 with rx_vec_en=1 (default) both write the mbufs
 * with byte shuffles and 16-byte stores (mlx5cq_rx_vec.h); rx_vec_en=0
 * writes them per packet, the reference. Error CQEs, the other mini-CQE
 * formats and the enhanced layout go through the records of
 * rte_mlx5cq_poll_burst().
 * Replacements come raw from the mempool (no reset: every field a
 * received mbuf needs is written here). With the SIMD stores and no
 * wrap of the buffer ring in the segment they are taken in one get
 * straight into the ring and the WQE addresses written in one pass after
 * (lkeys too, from the queue's table, when the mempool spans several
 * regions and every chunk is in the table: from an exact table one load
 * and no check); elsewhere once per burst, as many as the pool gives,
 * and each WQE in the pass that hands its packet up (the lkey too when
 * the mempool spans several memory regions, from the queue's lkey table,
 * mlx5cq_mr_tbl.c: one load, a tag check). The byte count of a session's
 * packets is summed by its decode.
 * A WQE whose buffer cannot be replaced keeps its buffer and the packet
 * is dropped (rx_nombuf). Only the WQE address is rewritten (byte count
 * fixed at queue start). The RQ doorbell record is updated once per
 * burst after a write barrier.
 */

#include <rte_io.h>
#include <rte_memcpy.h>
#include "mlx5cq_rx.h"
#include "mlx5cq_rx_vec.h"

/* Write every WQE from the buffer ring and post them all (queue start). */
void
mlx5cq_rxq_post_all(struct mlx5cq_rxq *rxq)
{
	uint32_t i;

	/* Every segment of every WQE (desc_n << sges_log). */
	for (i = 0; i < rxq->elts_n; i++) {
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
	rxq->zip_ahead = 0;
	rxq->zip_ahead_len = 0;
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

/*
 * Whether k packets from WQE rq_ci on may take the direct hand-up: one
 * lkey for the whole mempool (only WQE addresses change), or a mempool
 * of several regions whose every chunk is in the queue's lkey table (the
 * lkey is written with the address); and no wrap of the buffer ring.
 */
static __rte_always_inline int
rx_direct_ok(const struct mlx5cq_rxq *rxq, uint32_t rq_ci, uint16_t k)
{
	return (likely(rxq->mrt == NULL) ||
		rxq->mp->nb_mem_chunks == rxq->mrt->chunks) &&
	       (rq_ci & rxq->mask) + k <= rxq->desc_n;
}

/*
 * Receive address of a free mbuf of the queue's pool: computed from the
 * mbuf's own address (its header line is not read: in a pool handed out
 * in random order that read is a cache miss per replacement), or its
 * buf_addr for pools of pinned external buffers.
 */
static __rte_always_inline uintptr_t
rx_buf_addr_at(uintptr_t data_off, const struct rte_mbuf *m)
{
	if (likely(data_off != 0))
		return (uintptr_t)m + data_off;
	return (uintptr_t)m->buf_addr + RTE_PKTMBUF_HEADROOM;
}

static __rte_always_inline uintptr_t
rx_buf_addr(const struct mlx5cq_rxq *rxq, const struct rte_mbuf *m)
{
	return rx_buf_addr_at(rxq->data_off, m);
}

/*
 * k mbufs of the queue's mempool into objs: straight from this lcore's
 * cache when it holds them (one copy: their order does not matter
 * here), else rte_mempool_get_bulk(). 0, or < 0 and nothing taken.
 */
static __rte_always_inline int
rx_mp_get(struct rte_mempool *mp, struct rte_mbuf **objs, uint16_t k)
{
	struct rte_mempool_cache *c = rte_mempool_default_cache(mp,
							rte_lcore_id());

	if (likely(c != NULL && c->len >= k)) {
		c->len -= k;
		rte_memcpy(objs, &c->objs[c->len], k * sizeof(objs[0]));
		RTE_MEMPOOL_CACHE_STAT_ADD(c, get_success_bulk, 1);
		RTE_MEMPOOL_CACHE_STAT_ADD(c, get_success_objs, k);
		return 0;
	}
	return rte_mempool_get_bulk(mp, (void **)objs, k);
}

/*
 * rx_replace_direct_lkey() from replacement i on, with the search when
 * the table has no answer. A replacement without lkey (the table and the
 * search both fail: not expected while every chunk is known) ends the
 * pass: it and the ones after it go back to the pool, the received
 * buffers stay posted. Returns the replacements posted in all.
 */
static __rte_noinline uint16_t
rx_replace_lkey_rest(struct mlx5cq_rxq *rxq, uint32_t idx, uint16_t i,
		     uint16_t nr, uint16_t k, struct rte_mbuf **pkts)
{
	const struct mlx5cq_rx_lkc c = mlx5cq_rx_lkc(rxq);
	struct rte_mbuf **const e = &rxq->elts[idx];
	volatile struct mlx5_wqe_dseg_rx *const w = &rxq->wqes[idx];
	uint16_t j;

	for (; i < nr; i++) {
		uintptr_t addr = rx_buf_addr(rxq, e[i]);
		uint32_t lk = mlx5cq_rx_lkey(rxq, &c, addr, rxq->mp);

		if (unlikely(lk == UINT32_MAX)) {
			rte_mempool_put_bulk(rxq->mp, (void **)&e[i], nr - i);
			for (j = i; j < k; j++)
				e[j] = pkts[j];
			break;
		}
		w[i].lkey = rte_cpu_to_be_32(lk);
		w[i].addr = rte_cpu_to_be_64(addr);
	}
	return i;
}

/* WQE w of buffer m: lkey from the exact table, address. */
static __rte_always_inline void
rx_lkey_fast_one(const struct mlx5cq_rx_lkc *c, const struct rte_mbuf *m,
		 volatile struct mlx5_wqe_dseg_rx *w, uintptr_t doff)
{
	const uintptr_t addr = (uintptr_t)m + doff;
	const struct mlx5cq_mr_tbl_fast *f =
		&c->fast[(addr >> c->shift) & c->mask];

	/* An index, not a branch: which side of a split granule a buffer of
	 * a pool in random order lies is not predictable.
	 */
	w->lkey = f->lkey_be[addr >= f->split];
	w->addr = rte_cpu_to_be_64(addr);
}

/*
 * WQE lkeys and addresses of the replacements e[0..nr) of the pool
 * (rx_direct_ok(): every chunk is in the queue's table) from an exact
 * table: per buffer one entry of fast[], the lkey picked by the split,
 * two stores; nothing to check. Returns nr.
 */
static __rte_always_inline uint16_t
rx_lkey_fast(const struct mlx5cq_rx_lkc *c, struct rte_mbuf *const *e,
	     volatile struct mlx5_wqe_dseg_rx *w, uintptr_t doff, uint16_t nr)
{
	struct rte_mbuf *const *ep = e;
	struct rte_mbuf *const *const e4 = e + (nr & ~3u);
	struct rte_mbuf *const *const end = e + nr;
	volatile struct mlx5_wqe_dseg_rx *wp = w;

	/* Pointer walks, four a step, as rx_replace_direct(). */
	for (; ep != e4; ep += 4, wp += 4) {
		rx_lkey_fast_one(c, ep[0], &wp[0], doff);
		rx_lkey_fast_one(c, ep[1], &wp[1], doff);
		rx_lkey_fast_one(c, ep[2], &wp[2], doff);
		rx_lkey_fast_one(c, ep[3], &wp[3], doff);
	}
	for (; ep != end; ep++, wp++)
		rx_lkey_fast_one(c, *ep, wp, doff);
	return nr;
}

/*
 * As rx_lkey_fast() from a table that may have collisions: the tag and
 * the lkey checked; stops at the first buffer the table does not answer
 * for. Returns where it stopped.
 */
static __rte_always_inline uint16_t
rx_lkey_tagged(const struct mlx5cq_rx_lkc *c, struct rte_mbuf *const *e,
	       volatile struct mlx5_wqe_dseg_rx *w, uintptr_t doff,
	       uint16_t nr)
{
	uint16_t i;

	for (i = 0; i < nr; i++) {
		const uintptr_t addr = (uintptr_t)e[i] + doff;
		const uint32_t lk = mlx5cq_rx_lkey_tbl(c, addr);

		if (unlikely(lk == UINT32_MAX))
			break;
		w[i].lkey = rte_cpu_to_be_32(lk);
		w[i].addr = rte_cpu_to_be_64(addr);
	}
	return i;
}

/*
 * rx_replace_direct() for a mempool of several regions: the nr
 * replacements already in the buffer ring at idx.. get their WQE's lkey
 * (the queue's table: every chunk is in it, rx_direct_ok()) and address
 * in one pass (rx_lkey_fast(), or rx_lkey_tagged()); anything else (an
 * address the table does not answer for, external buffers) goes to
 * rx_replace_lkey_rest(). Returns the count of replaced packets as for a
 * short pool.
 */
static __rte_always_inline uint16_t
rx_replace_direct_lkey(struct mlx5cq_rxq *rxq, uint32_t idx, uint16_t nr,
		       uint16_t k, struct rte_mbuf **pkts)
{
	const struct mlx5cq_rx_lkc c = mlx5cq_rx_lkc(rxq);
	struct rte_mbuf **const e = &rxq->elts[idx];
	volatile struct mlx5_wqe_dseg_rx *const w = &rxq->wqes[idx];
	const uintptr_t doff = rxq->data_off;
	uint16_t i = 0;

	if (likely(doff != 0)) {
		if (likely(c.fast != NULL))
			i = rx_lkey_fast(&c, e, w, doff, nr);
		else
			i = rx_lkey_tagged(&c, e, w, doff, nr);
	}
	if (unlikely(i < nr))
		i = rx_replace_lkey_rest(rxq, idx, i, nr, k, pkts);
	return i;
}

/*
 * Replace the buffers of the k packets pkts[0..k) taken from WQEs
 * idx..idx+k-1 (rx_direct_ok()) straight from the mempool, in one get.
 * Returns how many are replaced, the first ones: when the pool is short,
 * those it gives buffers for; the others stay posted (their packets are
 * dropped, counted by the caller; pkts[0..k) still names them all).
 */
static __rte_always_inline uint16_t
rx_replace_direct(struct mlx5cq_rxq *rxq, uint32_t idx, uint16_t k,
		  struct rte_mbuf **pkts)
{
	struct rte_mbuf **const e = &rxq->elts[idx];
	volatile struct mlx5_wqe_dseg_rx *const w = &rxq->wqes[idx];
	const uintptr_t doff = rxq->data_off;
	uint16_t i, nr = k;

	if (unlikely(rx_mp_get(rxq->mp, e, k) != 0)) {
		for (nr = 0; nr < k; nr++)
			if (rte_mempool_get(rxq->mp, (void **)&e[nr]) != 0)
				break;
		for (i = nr; i < k; i++)
			e[i] = pkts[i];
	}
	if (rxq->mrt != NULL)
		return rx_replace_direct_lkey(rxq, idx, nr, k, pkts);
	/* The data offset in a local: the stores are to a volatile ring
	 * and could alias rxq.
	 */
	if (likely(doff != 0)) {
		/* Pointer walks: the loop's own work was most of the cost. */
		struct rte_mbuf *const *ep = e;
		struct rte_mbuf *const *const end = e + nr;
		volatile struct mlx5_wqe_dseg_rx *wp = w;
#ifdef MLX5CQ_RX_VEC
		/*
		 * Four a step: two buffer pointers a 16-byte load, the data
		 * offset added to both, both swapped to big endian by one
		 * byte shuffle, each half stored into its WQE's address
		 * (8-byte aligned): 3.25 instructions a WQE instead of 5
		 * (four scalar WQEs a step). The rest, and every WQE
		 * elsewhere, one at a time.
		 */
		struct rte_mbuf *const *const e4 = e + (nr & ~3u);
		const mlx5cq_v128 d2 = mlx5cq_v128_set64(doff, doff);
		const mlx5cq_v128 bs = MLX5CQ_V128_BYTES(7, 6, 5, 4, 3, 2, 1, 0,
							 15, 14, 13, 12, 11, 10,
							 9, 8);

		for (; ep != e4; ep += 4, wp += 4) {
			const mlx5cq_v128 p01 = mlx5cq_v128_load(ep);
			const mlx5cq_v128 p23 = mlx5cq_v128_load(ep + 2);
			const mlx5cq_v128 a =
				mlx5cq_v128_shuf(mlx5cq_v128_add64(p01, d2), bs);
			const mlx5cq_v128 b =
				mlx5cq_v128_shuf(mlx5cq_v128_add64(p23, d2), bs);

			mlx5cq_v128_store_lo64((uintptr_t)&wp[0].addr, a);
			mlx5cq_v128_store_hi64((uintptr_t)&wp[1].addr, a);
			mlx5cq_v128_store_lo64((uintptr_t)&wp[2].addr, b);
			mlx5cq_v128_store_hi64((uintptr_t)&wp[3].addr, b);
		}
#endif
		for (; ep != end; ep++, wp++)
			wp->addr = rte_cpu_to_be_64((uintptr_t)*ep + doff);
	} else {
		for (i = 0; i < nr; i++)
			w[i].addr = rte_cpu_to_be_64(rx_buf_addr_at(0, e[i]));
	}
	return nr;
}

/*
 * Hand up the k packets already written into the mbufs of WQEs
 * idx..idx+k-1 (rx_direct_ok()), replaced by rx_replace_direct(); len:
 * the sum of their lengths (known from the decode), of which *bytes gets
 * the part of the packets handed up. Returns how many are handed up.
 */
static __rte_always_inline uint16_t
rx_up_direct(struct mlx5cq_rxq *rxq, uint32_t idx, uint16_t k,
	     struct rte_mbuf **pkts, uint64_t len, uint64_t *bytes)
{
	uint16_t nr, i;

	rte_memcpy(pkts, &rxq->elts[idx], k * sizeof(pkts[0]));
	nr = rx_replace_direct(rxq, idx, k, pkts);
	for (i = nr; unlikely(i < k); i++)
		len -= pkts[i]->pkt_len;
	*bytes += len;
	return nr;
}

/* Sum of the lengths of the k packets decoded ahead in WQEs rq_ci.. */
static uint64_t
rx_ahead_len(const struct mlx5cq_rxq *rxq, uint32_t rq_ci, uint16_t k)
{
	uint64_t b = 0;
	uint16_t i;

	for (i = 0; i < k; i++)
		b += rxq->elts[(rq_ci + i) & rxq->mask]->pkt_len;
	return b;
}

#ifdef MLX5CQ_RX_VEC
/* What a burst's CQEs of one header-type value share (most of a stream). */
struct rx_hte_memo {
	uint32_t hte; /* UINT32_MAX: none yet. */
	uint32_t ptype;
	int vlan;
	mlx5cq_v128 rearm; /* Template + ol_flags. */
};

/*
 * One plain CQE into mbuf m with byte shuffles (mlx5cq_rx_vec.h): bytes
 * 32..47 of the CQE give pkt_len and data_len (byte count, 44..47), bytes
 * 16..31 the VLAN (30..31), all swapped; the hash (12..15) and the
 * packet type are inserted; two aligned 16-byte stores (template + flags,
 * RX fields), the second returned. The flags, packet type and template of the
 * previous CQE's header-type value are reused: one compare per CQE in a
 * stream of one kind.
 */
static __rte_always_inline mlx5cq_v128
rx_plain_vec_memo(const struct mlx5cq_rxq *rxq, struct rx_hte_memo *mm,
		  volatile const uint8_t *e, struct rte_mbuf *m,
		  mlx5cq_v128 sh_len, mlx5cq_v128 sh_vlan)
{
	const uint16_t hte = rte_mlx5cq__be16(e, RTE_MLX5CQ_CQE_HDR_TYPE_ETC);
	const mlx5cq_v128 hi = mlx5cq_v128_load(e + 32);
	mlx5cq_v128 f = mlx5cq_v128_shuf(hi, sh_len);
	uintptr_t b = (uintptr_t)m;

	if (unlikely(hte != mm->hte)) {
		const unsigned int t = MLX5CQ_RX_LUT_IDX(hte);
		uint64_t ol = mlx5cq_rx_csum_lut[t] | rxq->ol_rss;

		mm->vlan = (hte & RTE_MLX5CQ_HDR_VLAN_STRIPPED) &&
			   rxq->vlan_strip;
		if (mm->vlan)
			ol |= RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
		mm->hte = hte;
		mm->ptype = mlx5cq_rx_ptype_lut[t];
		mm->rearm = mlx5cq_v128_set64(ol, rxq->mbuf_initializer);
	}
	if (mm->vlan) {
		const mlx5cq_v128 mid = mlx5cq_v128_load(e + 16);

		f = mlx5cq_v128_or(f, mlx5cq_v128_shuf(mid, sh_vlan));
	}
	f = mlx5cq_v128_ins32(f, mm->ptype, 0);
	f = mlx5cq_v128_ins32(f, rte_mlx5cq__be32(e,
				RTE_MLX5CQ_CQE_RX_HASH_RES), 3);
	mlx5cq_v128_store(b + MLX5CQ_RX_OFF_REARM, mm->rearm);
	mlx5cq_v128_store(b + MLX5CQ_RX_OFF_PTYPE, f);
	return f;
}
#endif

#ifdef MLX5CQ_RX_VEC
/*
 * Plain CQEs, SIMD stores, direct hand-up (rx_direct_ok()): the k CQEs
 * found by rte_mlx5cq_peek() into their mbufs, then rx_up_direct().
 * Returns the packets handed up, *nr the buffers replaced.
 */
static __rte_always_inline uint16_t
rx_plain_direct(struct mlx5cq_rxq *rxq, uint32_t rq_ci, uint16_t k,
		struct rte_mbuf **pkts, uint64_t *bytes, uint16_t *nr)
{
	const struct rte_mlx5cq *cq = rxq->cq;
	const uint32_t idx = rq_ci & rxq->mask;
	struct rte_mbuf **const e = &rxq->elts[idx];
	/* As rx_plain(). */
	const mlx5cq_v128 sh_len = MLX5CQ_V128_BYTES(-1, -1, -1, -1,
		15, 14, 13, 12, 15, 14, -1, -1, -1, -1, -1, -1);
	const mlx5cq_v128 sh_vlan = MLX5CQ_V128_BYTES(-1, -1, -1, -1,
		-1, -1, -1, -1, -1, -1, 15, 14, -1, -1, -1, -1);
	/* Consecutive entries: rte_mlx5cq_peek*() stop at the ring end. */
	volatile const uint8_t *c = rte_mlx5cq_peek_cqe(cq, 0);
	const size_t st = (size_t)1 << cq->stride_shift;
	mlx5cq_v128 len = mlx5cq_v128_zero();
	struct rx_hte_memo memo = { .hte = UINT32_MAX };
	uint64_t b;
	uint16_t i;

	for (i = 0; i < k; i++, c += st) {
		struct rte_mbuf *m = e[i];

		len = mlx5cq_v128_add32(len, rx_plain_vec_memo(rxq, &memo, c,
							m, sh_len, sh_vlan));
		pkts[i] = m;
	}
	/* Lane 1 summed pkt_len: at most MLX5CQ_BURST_MAX of 64 KiB. */
	b = mlx5cq_v128_lane32(len, 1);
	*nr = rx_replace_direct(rxq, idx, k, pkts);
	for (i = *nr; unlikely(i < k); i++)
		b -= pkts[i]->pkt_len;
	*bytes += b;
	return *nr;
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

#ifdef MLX5CQ_RX_VEC
	if (likely(mlx5cq_rx_vec_ok(rxq))) {
		/* In the RX fields half: pkt_len 4..7 and data_len 8..9 from
		 * byte count (44..47 = hi 12..15), vlan_tci 10..11 from
		 * 30..31 (mid 14..15).
		 */
		const mlx5cq_v128 sh_len = MLX5CQ_V128_BYTES(-1, -1, -1, -1,
			15, 14, 13, 12, 15, 14, -1, -1, -1, -1, -1, -1);
		const mlx5cq_v128 sh_vlan = MLX5CQ_V128_BYTES(-1, -1, -1, -1,
			-1, -1, -1, -1, -1, -1, 15, 14, -1, -1, -1, -1);
		const struct mlx5cq_rx_lkc lkc = mlx5cq_rx_lkc(rxq);
		struct rx_hte_memo memo = { .hte = UINT32_MAX };

		for (i = 0; i < nr; i++) {
			volatile const uint8_t *e = rte_mlx5cq_peek_cqe(cq, i);
			uint32_t idx = (rq_ci + i) & rxq->mask;
			struct rte_mbuf *m = rxq->elts[idx];

			rx_plain_vec_memo(rxq, &memo, e, m, sh_len, sh_vlan);
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
 * Hand up the k packets decoded ahead in the mbufs of WQEs rq_ci.. with
 * the nr replacements ready (the buffers of the others stay posted: the
 * packets are dropped, counted by the caller). When the mempool spans
 * several regions a replacement without lkey (a chunk added after the
 * queue's setup) goes back to its pool and that packet is dropped too,
 * as mlx5cq_rx_one() does.
 */
static __rte_always_inline uint16_t
rx_ahead_up(struct mlx5cq_rxq *rxq, uint32_t rq_ci, uint16_t nr,
	    struct rx_reps *r, struct rte_mbuf **pkts, uint64_t *bytes)
{
	struct rte_mbuf **const elts = rxq->elts;
	volatile struct mlx5_wqe_dseg_rx *const wqes = rxq->wqes;
	struct rte_mbuf **const rep = &r->m[r->used];
	const uint32_t mask = rxq->mask;
	uint64_t b = 0;
	uint16_t i, out = 0;

	r->used += nr;
	if (likely(rxq->mrt == NULL)) {
		for (i = 0; i < nr; i++) {
			const uint32_t idx = (rq_ci + i) & mask;
			struct rte_mbuf *m = elts[idx];
			struct rte_mbuf *x = rep[i];

			pkts[i] = m;
			b += m->pkt_len;
			elts[idx] = x;
			wqes[idx].addr = rte_cpu_to_be_64((uintptr_t)
				x->buf_addr + RTE_PKTMBUF_HEADROOM);
		}
		*bytes += b;
		return nr;
	}
	{
		const struct mlx5cq_rx_lkc c = mlx5cq_rx_lkc(rxq);

		for (i = 0; i < nr; i++) {
			const uint32_t idx = (rq_ci + i) & mask;
			struct rte_mbuf *m = elts[idx];
			struct rte_mbuf *x = rep[i];
			uintptr_t addr = (uintptr_t)x->buf_addr +
					 RTE_PKTMBUF_HEADROOM;
			uint32_t lk = mlx5cq_rx_rep_lkey(rxq, &c, addr,
							 x->pool);

			if (unlikely(lk == UINT32_MAX)) {
				rte_mempool_put(x->pool, x);
				rxq->st.errors++;
				continue;
			}
			pkts[out++] = m;
			b += m->pkt_len;
			elts[idx] = x;
			wqes[idx].lkey = rte_cpu_to_be_32(lk);
			wqes[idx].addr = rte_cpu_to_be_64(addr);
		}
	}
	*bytes += b;
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
	mlx5cq_rx_prefetch_elts(rxq, *rq_ci, k);
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

#ifdef MLX5CQ_RX_VEC
/*
 * A compressed session at the consumer index, SIMD stores: decoded ahead
 * in one pass (mlx5cq_rx_zip_ahead()), what the burst has room for (want)
 * handed up, the rest left in the buffer ring for the next bursts.
 * Returns the packets taken from the ring (0: no session), *nr the
 * replacements they got, *out grows by the packets handed up.
 */
static __rte_always_inline uint16_t
rx_zip_vec(struct mlx5cq_rxq *rxq, uint32_t rq_ci, uint16_t want,
	   struct rx_reps *r, struct rte_mbuf **pkts, uint16_t *out,
	   uint64_t *bytes, uint16_t *nr)
{
	uint64_t len;
	uint32_t left = mlx5cq_rx_zip_ahead(rxq, rq_ci, want, &len);
	uint16_t got;

	if (left == 0)
		return 0;
	got = (uint16_t)RTE_MIN(left, (uint32_t)want);
	rxq->zip_ahead = left - got;
	if (rx_direct_ok(rxq, rq_ci, got)) {
		*nr = rx_up_direct(rxq, rq_ci & rxq->mask, got, pkts + *out,
				   len, bytes);
		*out += *nr;
		return got;
	}
	*nr = rx_reps_get(rxq, r, got, want);
	*out += rx_ahead_up(rxq, rq_ci, *nr, r, pkts + *out, bytes);
	return got;
}
#endif

/*
 * A compressed session at the consumer index, per packet (the
 * reference): at most want of its mini-CQEs read in place and consumed.
 * Returns and sets as rx_zip_vec().
 */
static __rte_always_inline uint16_t
rx_zip_ref(struct mlx5cq_rxq *rxq, uint32_t rq_ci, uint16_t want,
	   struct rx_reps *r, struct rte_mbuf **pkts, uint16_t *out,
	   uint64_t *bytes, uint16_t *nr)
{
	const struct rte_mlx5cq_cpl *t;
	uint32_t first, pos;
	uint32_t left = rte_mlx5cq_zip_session(rxq->cq, &t, &first, &pos);
	uint16_t got;

	if (left == 0)
		return 0;
	got = (uint16_t)RTE_MIN(left, (uint32_t)want);
	/* A session is likely to fill the burst: the mbuf headers of all
	 * of it, once.
	 */
	if (r->have == 0)
		mlx5cq_rx_prefetch_elts(rxq, rq_ci, want);
	*nr = rx_reps_get(rxq, r, got, want);
	*out += mlx5cq_rx_minis(rxq, t, first, pos, *nr, rq_ci,
				&r->m[r->used], pkts + *out, bytes);
	r->used += *nr;
	rte_mlx5cq_zip_advance(rxq->cq, got);
	return got;
}

/*
 * The k plain CQEs found by the peek (want: what the burst may still
 * take; pf: their mbuf headers already asked for): the direct path when
 * it applies, else replacements of the burst. Returns the buffers
 * replaced; *out grows by the packets handed up.
 */
static __rte_always_inline uint16_t
rx_plain_seg(struct mlx5cq_rxq *rxq, uint32_t rq_ci, uint16_t k,
	     uint16_t want, int pf, struct rx_reps *r, struct rte_mbuf **pkts,
	     uint16_t *out, uint64_t *bytes)
{
	uint16_t nr;

	if (!pf)
		mlx5cq_rx_prefetch_elts(rxq, rq_ci, k);
#ifdef MLX5CQ_RX_VEC
	if (likely(mlx5cq_rx_vec_ok(rxq)) && rx_direct_ok(rxq, rq_ci, k)) {
		*out += rx_plain_direct(rxq, rq_ci, k, pkts + *out, bytes,
					&nr);
		return nr;
	}
#endif
	nr = rx_reps_get(rxq, r, k, want);
	*out += rx_plain(rxq, rq_ci, nr, r, pkts + *out, bytes);
	return nr;
}

/* A compressed session at the consumer index: rx_zip_vec() or the
 * reference, rx_zip_ref().
 */
static __rte_always_inline uint16_t
rx_zip_seg(struct mlx5cq_rxq *rxq, uint32_t rq_ci, uint16_t want,
	   struct rx_reps *r, struct rte_mbuf **pkts, uint16_t *out,
	   uint64_t *bytes, uint16_t *nr)
{
#ifdef MLX5CQ_RX_VEC
	if (likely(mlx5cq_rx_vec_ok(rxq)))
		return rx_zip_vec(rxq, rq_ci, want, r, pkts, out, bytes, nr);
#endif
	return rx_zip_ref(rxq, rq_ci, want, r, pkts, out, bytes, nr);
}

uint16_t
mlx5cq_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5cq_rxq *rxq = q;
	struct rte_mlx5cq *cq = rxq->cq;
	uint32_t rq_ci = rxq->rq_ci;
	uint16_t done = 0, out = 0, got, nr;
	uint64_t bytes = 0, len;
	struct rx_reps r;
	int polled = 0, pf = 0;

	if (unlikely(rxq->gate != MLX5CQ_RXQ_GATE_RUN)) {
		if (!rxq->started)
			return 0;
		/* Flow tags go up through the records (after any packets
		 * decoded ahead: they are the next WQEs').
		 */
		if (rxq->mark && rxq->zip_ahead == 0)
			return mlx5cq_rx_burst_rec(q, pkts, n);
		/* A queue a failed recovery left in error: try again. */
		if (rxq->in_error && mlx5cq_rxq_recover(rxq) != 0)
			return 0;
	}
	if (n > MLX5CQ_BURST_MAX)
		n = MLX5CQ_BURST_MAX;
	r.have = 0;
	r.used = 0;
	if (rxq->zip_ahead != 0) {
		/* The rest of a session decoded by an earlier burst. */
		got = (uint16_t)RTE_MIN(rxq->zip_ahead, (uint32_t)n);
		/* Their lengths' sum: known for all of them, else read. */
		len = got == rxq->zip_ahead ? rxq->zip_ahead_len :
		      rx_ahead_len(rxq, rq_ci, got);
		rxq->zip_ahead_len -= len;
		if (rx_direct_ok(rxq, rq_ci, got)) {
			nr = rx_up_direct(rxq, rq_ci & rxq->mask, got, pkts,
					  len, &bytes);
		} else {
			nr = rx_reps_get(rxq, &r, got, n);
			nr = rx_ahead_up(rxq, rq_ci, nr, &r, pkts, &bytes);
		}
		out += nr;
		rxq->st.nombuf += got - nr;
		rxq->zip_ahead -= got;
		rq_ci += got;
		done += got;
	}
	if (done == 0) {
		/* An empty CQ costs one load of the owner byte at the
		 * consumer index: no read of the entries after it, which
		 * the device has yet to write.
		 */
		if (!rte_mlx5cq_ready(cq)) {
			rte_mlx5cq_advance(cq, 0);
			return 0;
		}
		/* Something is there: ask for the burst's mbuf headers
		 * before the CQEs are read, so both kinds of misses overlap
		 * (without sessions read in place: a session's decode asks
		 * for its own).
		 */
		pf = rxq->zip_fmt == 0;
		if (pf)
			mlx5cq_rx_prefetch_elts(rxq, rq_ci, n);
	}
	while (done < n) {
		/* Plain receive CQEs (one compare each), else any kind. */
		got = rte_mlx5cq_peek_op(cq, n - done, RTE_MLX5CQ_OP_RESP_SEND);
		if (got == 0)
			got = rte_mlx5cq_peek(cq, n - done);
		if (got) {
			nr = rx_plain_seg(rxq, rq_ci, got, n - done, pf, &r,
					  pkts, &out, &bytes);
			rte_mlx5cq_advance(cq, got);
		} else {
			if (rxq->zip_fmt == 0)
				break;
			got = rx_zip_seg(rxq, rq_ci, n - done, &r, pkts, &out,
					 &bytes, &nr);
			if (got == 0)
				break;
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
	mlx5cq_rx_close(rxq, rq_ci, out, bytes);
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

