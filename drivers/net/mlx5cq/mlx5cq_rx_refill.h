/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Refill of the RX queue's WQEs, for every burst: replacement mbufs from
 * the mempool (once a burst, or straight into the buffer ring), their
 * lkeys from the queue's table (mlx5cq_mr_tbl.c) and the WQE address
 * stores, scalar or two addresses a 16-byte shuffle; the hand-up of
 * packets whose mbufs were written in place (decoded ahead). The CQE to
 * mbuf writes are mlx5cq_rx_cqe.h's, the burst's control mlx5cq_rx.c's.
 */
#ifndef MLX5CQ_RX_REFILL_H_
#define MLX5CQ_RX_REFILL_H_

#include <rte_memcpy.h>

#include "mlx5cq_rx.h"
#include "mlx5cq_rx_vec.h"

/*
 * The lkey table's parameters in locals for a pass of posts (the WQE
 * stores could alias the table's fields: read once, not per packet).
 */
struct mlx5cq_rx_lkc {
	const struct mlx5cq_mr_tbl_ent *ent; /* NULL: one region. */
	const struct mlx5cq_mr_tbl_fast *fast; /* Exact tables. */
	uintptr_t mask;
	uintptr_t off_mask;
	uint32_t shift;
	uint32_t tag_shift; /* shift + log_n */
};

static __rte_always_inline struct mlx5cq_rx_lkc
mlx5cq_rx_lkc(const struct mlx5cq_rxq *rxq)
{
	const struct mlx5cq_mr_tbl *t = rxq->mrt;
	struct mlx5cq_rx_lkc c = { NULL, NULL, 0, 0, 0, 0 };

	if (t != NULL) {
		c.ent = t->ent;
		c.fast = t->fast;
		c.mask = t->mask;
		c.off_mask = t->off_mask;
		c.shift = t->shift;
		c.tag_shift = t->shift + t->log_n;
	}
	return c;
}

/*
 * The queue's table's answer for the buffer at addr (one load, a tag
 * check): its lkey, or UINT32_MAX (another granule's slot, an empty one,
 * a granule of three regions).
 */
static __rte_always_inline uint32_t
mlx5cq_rx_lkey_tbl(const struct mlx5cq_rx_lkc *c, uintptr_t addr)
{
	const struct mlx5cq_mr_tbl_ent *e =
		&c->ent[(addr >> c->shift) & c->mask];
	uint32_t lk = e->lkey[(uint32_t)(addr & c->off_mask) >= e->split];

	return (uintptr_t)e->tag == addr >> c->tag_shift ? lk : UINT32_MAX;
}

/*
 * Lkey of the buffer at addr of a mempool spanning several regions: the
 * queue's table, the search when the table has no answer (UINT32_MAX:
 * not registered and cannot be).
 */
static __rte_always_inline uint32_t
mlx5cq_rx_lkey(struct mlx5cq_rxq *rxq, const struct mlx5cq_rx_lkc *c,
	       uintptr_t addr, struct rte_mempool *mp)
{
	uint32_t lk = mlx5cq_rx_lkey_tbl(c, addr);

	if (unlikely(lk == UINT32_MAX))
		lk = mlx5cq_mr_lookup_cold(&rxq->mrc, addr, mp);
	return lk;
}

/*
 * Lkey of replacement buffer addr (mempool spanning several regions):
 * the table knows the chunks it was built from only; UINT32_MAX: none.
 */
static __rte_always_inline uint32_t
mlx5cq_rx_rep_lkey(struct mlx5cq_rxq *rxq, const struct mlx5cq_rx_lkc *c,
		   uintptr_t addr, struct rte_mempool *mp)
{
	return likely(rxq->mp->nb_mem_chunks == rxq->mrt->chunks) ?
	       mlx5cq_rx_lkey(rxq, c, addr, mp) :
	       mlx5cq_mr_lookup_cold(&rxq->mrc, addr, mp);
}

/*
 * The headers of the k mbufs of WQEs rq_ci.. are written next (handed
 * up, or a session decoded into them): ask for all their lines at once,
 * so the misses overlap.
 */
static __rte_always_inline void
mlx5cq_rx_prefetch_elts(const struct mlx5cq_rxq *rxq, uint32_t rq_ci,
			uint16_t k)
{
	const uint32_t idx = rq_ci & rxq->mask;
	uint16_t i;

	if (likely(idx + k <= rxq->desc_n)) {
		struct rte_mbuf *const *e = &rxq->elts[idx];

		for (i = 0; i + 4 <= k; i += 4) {
			rte_prefetch0(e[i]);
			rte_prefetch0(e[i + 1]);
			rte_prefetch0(e[i + 2]);
			rte_prefetch0(e[i + 3]);
		}
		for (; i < k; i++)
			rte_prefetch0(e[i]);
		return;
	}
	for (i = 0; i < k; i++)
		rte_prefetch0(rxq->elts[(rq_ci + i) & rxq->mask]);
}


/*
 * The search for replacement i on of a pass of direct lkeys, when the
 * table has no answer (mlx5cq_rx_refill.c).
 */
uint16_t mlx5cq_rx_replace_lkey_rest(struct mlx5cq_rxq *rxq, uint32_t idx,
				     uint16_t i, uint16_t nr, uint16_t k,
				     struct rte_mbuf **pkts);

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
mlx5cq_rx_buf_addr(const struct mlx5cq_rxq *rxq, const struct rte_mbuf *m)
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
 * mlx5cq_rx_replace_lkey_rest(). Returns the count of replaced packets as for a
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
		i = mlx5cq_rx_replace_lkey_rest(rxq, idx, i, nr, k, pkts);
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
static inline uint64_t
rx_ahead_len(const struct mlx5cq_rxq *rxq, uint32_t rq_ci, uint16_t k)
{
	uint64_t b = 0;
	uint16_t i;

	for (i = 0; i < k; i++)
		b += rxq->elts[(rq_ci + i) & rxq->mask]->pkt_len;
	return b;
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
 * Hand up got packets already written into the mbufs of WQEs rq_ci..
 * (len: the sum of their lengths, known from the writing): plain CQEs
 * (mlx5cq_rx_cqe.h), a session's share of this burst and the packets a
 * session decoded ahead for later bursts alike. Straight, their buffers
 * replaced from the mempool in one get (rx_direct_ok()), else with
 * replacements of the burst (want: what it may still take). Returns the
 * buffers replaced (the others stay posted: those packets are dropped,
 * counted by the caller); *out grows by the packets handed up.
 */
static __rte_always_inline uint16_t
rx_hand_up(struct mlx5cq_rxq *rxq, uint32_t rq_ci, uint16_t got,
	      uint64_t len, uint16_t want, struct rx_reps *r,
	      struct rte_mbuf **pkts, uint16_t *out, uint64_t *bytes)
{
	uint16_t nr;

	if (likely(rx_direct_ok(rxq, rq_ci, got))) {
		nr = rx_up_direct(rxq, rq_ci & rxq->mask, got, pkts + *out,
				  len, bytes);
		*out += nr;
		return nr;
	}
	nr = rx_reps_get(rxq, r, got, want);
	*out += rx_ahead_up(rxq, rq_ci, nr, r, pkts + *out, bytes);
	return nr;
}

#endif /* MLX5CQ_RX_REFILL_H_ */
