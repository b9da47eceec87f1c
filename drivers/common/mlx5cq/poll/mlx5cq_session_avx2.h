/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef MLX5CQ_SESSION_AVX2_H_
#define MLX5CQ_SESSION_AVX2_H_

/*
 * Compressed sessions with AVX2, basic layout: the group templates and
 * groups of four records, whole arrays with their invalidation, the turn
 * of an open session, whole sessions decoded in one go. Inline helpers of
 * the AVX2 poll (mlx5cq_poll_avx2.c) and of its session turns
 * (mlx5cq_session_avx2.c): a call would spill every ymm register. They call
 * nothing above them (records: mlx5cq_poll_avx2.h; invalidation:
 * mlx5cq_private.h).
 */

#include "mlx5cq_private.h"

#ifdef RTE_ARCH_X86
#include <immintrin.h>

#include "mlx5cq_poll_avx2.h"

/*
 * Groups of four records (160 bytes, five 32-byte stores) from four
 * mini-CQEs of an array (32 bytes): store s (0..4) holds record bytes
 * 32s..32s+31 of the group, i.e. parts of records (32s) / 40 and
 * (32s + 31) / 40. Each store is its template (the title's record with
 * the mini-CQE bytes cleared) or-ed with one shuffle of a source vector
 * that has, in each 16-byte lane, the minis that lane's bytes come from:
 * minis 0,1 in both lanes (stores 0, 1), minis 0,1 | 2,3 (store 2, the
 * 32-byte load itself), minis 2,3 in both lanes (stores 3, 4). The masks
 * come from the per-record tables above, once per format at start-up.
 */
#define ZG_STORES 5
struct zg_masks {
	int8_t shuf[ZG_STORES][32]; /* source byte, -1: zero */
	int8_t keep[ZG_STORES][32]; /* -1: template byte kept */
	int8_t wqe[ZG_STORES][32]; /* record r of the group: r at its WQE */
	int8_t inc[ZG_STORES][32]; /* 4 at each implied WQE counter */
	int8_t one[32]; /* 1 at a record's implied WQE counter */
};
/*
 * One table per mini-CQE format (mlx5cq_session_avx2.c, filled at load time);
 * hidden: the polls reach it as they reach a static table, with no GOT.
 */
#pragma GCC visibility push(hidden)
extern struct zg_masks mlx5cq_zg_masks[ZM_FORMATS];
/*
 * Masks of the mini-CQE format of a CQ by rte_mlx5cq.comp (format + 1):
 * NULL without compression; formats past L34H_STRIDX take the requester
 * masks, as zm_records() does.
 */
extern const struct zg_masks *
mlx5cq_zg_by_comp[RTE_MLX5CQ_COMP_FORMAT_MASK + 1];
#pragma GCC visibility pop

/* tune=haswell: whole 32-byte loads and stores (mlx5cq_poll_avx2.c). */
#ifndef __clang__
#pragma GCC push_options
#pragma GCC target("avx2,tune=haswell")
#endif

/*
 * The five group templates from the title's record (rec: record bytes
 * 0..31, tail: bytes 32..39) with w0 as its WQE counter: windows at bytes
 * 0, 32, 24, 16, 8 of the record repeated, built from its two lanes and
 * its tail in registers (a copy in memory would be read back across
 * stores: a forwarding stall per session); then each record's place added
 * to its WQE counter and the mini-CQE bytes cleared.
 */
static __rte_always_inline void
zg_templates_v(__m256i l, uint64_t tail, const struct zg_masks *g,
	       __m256i tp[ZG_STORES])
{
	__m128i a = _mm256_castsi256_si128(l); /* record 0..15 */
	__m128i b = _mm256_extracti128_si256(l, 1); /* 16..31 */
	__m128i x = _mm_cvtsi64_si128((long long)tail); /* 32..39 */
	__m128i p = _mm_unpacklo_epi64(x, a); /* 32..39, 0..7 */
	__m128i q = _mm_alignr_epi8(b, a, 8); /* 8..23 */
	__m128i u = _mm_alignr_epi8(x, b, 8); /* 24..39 */

#define ZG_TP(s, v) \
	(tp[s] = _mm256_and_si256(_mm256_add_epi16(v, \
		_mm256_load_si256((const void *)g->wqe[s])), \
		_mm256_load_si256((const void *)g->keep[s])))
	ZG_TP(0, l);
	ZG_TP(1, _mm256_set_m128i(q, p));
	ZG_TP(2, _mm256_set_m128i(a, u));
	ZG_TP(3, _mm256_set_m128i(p, b));
	ZG_TP(4, _mm256_set_m128i(u, q));
#undef ZG_TP
}

/* The same from the title's record t in memory. */
static __rte_always_inline void
zg_templates(const struct rte_mlx5cq_cpl *t, uint16_t w0,
	     const struct zg_masks *g, __m256i tp[ZG_STORES])
{
	uint64_t tail;

	memcpy(&tail, &t->opcode, sizeof(tail));
	zg_templates_v(_mm256_insert_epi16(_mm256_loadu_si256(
				(const void *)t), (short)w0, 12),
		       tail, g, tp);
}

/* Four records from four mini-CQEs at m; the templates move on. */
static __rte_always_inline void
zg_group(const struct zg_masks *g, __m256i tp[ZG_STORES],
	 volatile const uint8_t *m, struct rte_mlx5cq_cpl *c)
{
	const __m256i *sh = (const __m256i *)(const void *)g->shuf;
	const __m256i *in = (const __m256i *)(const void *)g->inc;
	const void *mp = (const void *)(uintptr_t)m;
	__m256i lo2 = _mm256_broadcastsi128_si256(_mm_loadu_si128(mp));
	__m256i all = _mm256_loadu_si256(mp);
	__m256i hi2 = _mm256_broadcastsi128_si256(
		_mm_loadu_si128((const __m128i *)mp + 1));
	__m256i *o = (__m256i *)(void *)c;

	_mm256_storeu_si256(o, _mm256_or_si256(tp[0],
			    _mm256_shuffle_epi8(lo2, sh[0])));
	_mm256_storeu_si256(o + 1, _mm256_or_si256(tp[1],
			    _mm256_shuffle_epi8(lo2, sh[1])));
	_mm256_storeu_si256(o + 2, _mm256_or_si256(tp[2],
			    _mm256_shuffle_epi8(all, sh[2])));
	_mm256_storeu_si256(o + 3, _mm256_or_si256(tp[3],
			    _mm256_shuffle_epi8(hi2, sh[3])));
	_mm256_storeu_si256(o + 4, _mm256_or_si256(tp[4],
			    _mm256_shuffle_epi8(hi2, sh[4])));
	tp[0] = _mm256_add_epi16(tp[0], in[0]);
	tp[2] = _mm256_add_epi16(tp[2], in[2]);
	tp[3] = _mm256_add_epi16(tp[3], in[3]);
	tp[4] = _mm256_add_epi16(tp[4], in[4]);
}

/*
 * na whole arrays of a session from the one at m (entries of 1 << shift
 * bytes, a constant: 64 or 128; none past the ring's end) into records r,
 * eight per array, each array's entries invalidated once its records are
 * made (mlx5cq_session_array_done()); first: m is the session's first array
 * (title + 1, the next one 7 entries on), else 8 entries apart. A pointer
 * walk: no ring index, no reload of the ring's geometry.
 */
static __rte_always_inline void
zg_arrays(const struct zg_masks *g, __m256i tp[ZG_STORES],
	  volatile const uint8_t *m, struct rte_mlx5cq_cpl *r, uint32_t na,
	  int first, unsigned int shift)
{
	if (first && na) {
		zg_group(g, tp, m, r);
		zg_group(g, tp, m + 32, r + 4);
		mlx5cq_session_inv_array((volatile uint8_t *)(uintptr_t)m +
				     RTE_MLX5CQ_CQE_OP_OWN, 7, shift);
		m += (size_t)7 << shift;
		r += 8;
		na--;
	}
	for (; na; na--, m += (size_t)8 << shift, r += 8) {
		zg_group(g, tp, m, r);
		zg_group(g, tp, m + 32, r + 4);
		mlx5cq_session_inv_array((volatile uint8_t *)(uintptr_t)m +
				     RTE_MLX5CQ_CQE_OP_OWN, 8, shift);
	}
}

/*
 * A turn of an open basic-layout session that takes want (a multiple of
 * 8) mini-CQEs from an array's start, entries of 1 << shift bytes (a
 * constant: 64 or 128), no wrap (the caller tested it; first: the turn
 * starts at the session's first array): the
 * mini-CQE counter and the session's next state first (on a flushed
 * ring, read-modify-writes after the holes' store misses waited for
 * them), then the records and the arrays' invalidation; at the session's
 * end its title's slot is invalidated last and the session closed.
 * Returns 1 when it closed (the caller moves the consumer index to
 * z->end).
 */
static __rte_always_inline int
zg_turn(struct rte_mlx5cq *cq, struct mlx5cq_session *z,
	struct rte_mlx5cq_cpl *cpl, uint32_t want, int first,
	unsigned int shift)
{
	const uint32_t cnt = z->cnt, ai = z->ai, ca = z->ca, na = want / 8;
	const uint32_t mask = cq->mask, title = z->end - cnt;
	volatile uint8_t *ring = cq->ring + cq->cqe_off;
	const struct zg_masks *g = &mlx5cq_zg_masks[
		RTE_MIN(mlx5cq_session_format(cq, z), ZM_FORMATS - 1u)];
	const int close = ai + want == cnt;
	__m256i tp[ZG_STORES];

	zg_templates(&z->trec, z->wqe_next, g, tp);
	MLX5CQ_CNT(cq)->minis += want;
	if (!close) {
		z->ai = ai + want;
		z->ca = mlx5cq_session_array_at(title, ca, na);
		z->wqe_next = (uint16_t)(z->wqe_next + want);
	}
	zg_arrays(g, tp, ring + ((size_t)(ca & mask) << shift), cpl, na, first,
		  shift);
	if (close) {
		ring[((size_t)(title & mask) << shift) + RTE_MLX5CQ_CQE_OP_OWN] =
			RTE_MLX5CQ_OP_OWN_INVALID;
		z->cnt = 0;
		z->ai = 0;
		cq->slow &= ~RTE_MLX5CQ_SLOW_SESSION;
	}
	return close;
}

/*
 * The record of a session's title CQE at c (opcode op) in registers (the
 * return value: record bytes 0..31; *tail: bytes 32..39); *g: the masks
 * of the CQ's format, replaced by the requester ones for a requester
 * title (requester mini-CQEs whatever the format).
 */
static __rte_always_inline __m256i
zg_title_rec(volatile const uint8_t *c, unsigned int op,
	     const struct zg_masks **g, uint64_t *tail)
{
	const __m256i *v = (const __m256i *)(uintptr_t)c;

	*tail = (uint64_t)op |
		(uint64_t)c[RTE_MLX5CQ_CQE_RX_HASH_TYPE] << 32;
	if (op == RTE_MLX5CQ_OP_REQ)
		*g = &mlx5cq_zg_masks[ZM_FORMATS - 1];
	return mlx5cq_fast_rec(_mm256_loadu_si256(v),
			       _mm256_loadu_si256(v + 1),
			       _mm256_broadcastsi128_si256(_mm_loadu_si128(
				(const __m128i *)(uintptr_t)(c + 48))));
}

/* zg_title_rec() and the group templates from the record. */
static __rte_always_inline __m256i
zg_title(volatile const uint8_t *c, unsigned int op,
	 const struct zg_masks **g, __m256i tp[ZG_STORES], uint64_t *tail)
{
	__m256i rec = zg_title_rec(c, op, g, tail);

	zg_templates_v(rec, *tail, *g, tp);
	return rec;
}

/*
 * Records of the last take (1..3) mini-CQEs of a session at m from the
 * title's record (rec: bytes 0..31, tail: 32..39) with w0 as the first
 * one's WQE counter.
 */
static __rte_always_inline void
zw_tail(__m256i rec, uint64_t tail, unsigned int f,
	volatile const uint8_t *m, struct rte_mlx5cq_cpl *c, uint32_t take,
	uint16_t w0)
{
	struct zm_tv v;

	zm_tv_make(rec, tail, f, w0, &v);
	zm_tv_records(&v, m, c, take);
}

/*
 * A session of 2..8 mini-CQEs (its one array at c + 1 entry, 64 B or
 * larger entries; title at c, opcode op, owned, after the read barrier):
 * one record per mini, the first record of a group's masks (g->shuf[0],
 * g->keep[0]) over the title's record in registers, then the title and
 * entries 1 .. cnt - 1 invalidated. No group templates and no groups'
 * loop: for at most eight minis, building the templates and running the
 * loop would cost more instructions than the records themselves.
 */
static __rte_always_inline void
zw_short(const struct zg_masks *g, volatile const uint8_t *c,
	 unsigned int shift, unsigned int op, struct rte_mlx5cq_cpl *r,
	 uint32_t cnt)
{
	const size_t st = (size_t)1 << shift;
	volatile uint8_t *p = (volatile uint8_t *)(uintptr_t)c +
			      RTE_MLX5CQ_CQE_OP_OWN;
	volatile const uint8_t *m = c + st;
	__m256i tmpl, shuf, one;
	uint64_t tail;
	uint32_t j;

	tmpl = zg_title_rec(c, op, &g, &tail); /* g: requester's or not */
	tmpl = _mm256_and_si256(tmpl, _mm256_load_si256((const void *)
							g->keep[0]));
	shuf = _mm256_load_si256((const void *)g->shuf[0]);
	one = _mm256_load_si256((const void *)g->one);
#define ZW_ONE(j) do { \
		zm_or_one(tmpl, tail, shuf, m + 8 * (j), &r[j]); \
		tmpl = _mm256_add_epi16(tmpl, one); \
	} while (0)
	if (likely(cnt == 8)) {
		ZW_ONE(0); ZW_ONE(1); ZW_ONE(2); ZW_ONE(3);
		ZW_ONE(4); ZW_ONE(5); ZW_ONE(6); ZW_ONE(7);
		mlx5cq_session_inv_array(p, 8, shift);
		return;
	}
	for (j = 0; j < cnt; j++)
		ZW_ONE(j);
#undef ZW_ONE
	for (j = 0; j < cnt; j++, p += st)
		*p = RTE_MLX5CQ_OP_OWN_INVALID;
}

/*
 * A basic-layout session at c (its title, op_own oo, owned) whose
 * completions all fit in lim entries (lim >= 1, none past the ring's end),
 * decoded in one go without opening it (no session state written): the
 * title's record is made in registers and becomes the group templates
 * directly, groups of four records, single records for the last
 * (cnt % 4), entries title .. title + cnt - 1 invalidated, as
 * mlx5cq_session_burst() would do over the same burst; no wrap, so the arrays
 * (title + 1, title + 8, title + 16, ...) and the entries are at constant
 * strides from c. g: the masks of the CQ's format (mlx5cq_zg_by_comp[]).
 * Returns cnt, or 0 when the session does not fit or needs
 * mlx5cq_session_open()'s checks (and its log line): a count out of range,
 * an error opcode in the title.
 */
static __rte_always_inline uint32_t
mlx5cq_session_whole_avx2(const struct zg_masks *g, volatile const uint8_t *c,
		      unsigned int shift, uint8_t oo,
		      struct rte_mlx5cq_cpl *r, uint32_t lim)
{
	const uint32_t cnt = rte_mlx5cq__be32(c, RTE_MLX5CQ_CQE_BYTE_CNT);
	const unsigned int op = oo >> 4;
	volatile const uint8_t *m;
	volatile uint8_t *p;
	__m256i tp[ZG_STORES], rec;
	uint64_t tail;
	uint32_t a, inv;

	/*
	 * 2 <= cnt <= lim; no error opcode (0xd, 0xe) and not INVALID (0xf:
	 * not written yet, whatever its owner bit, so the burst ends there).
	 */
	if (cnt - 2u >= lim - 1u || op >= RTE_MLX5CQ_OP_REQ_ERR)
		return 0;
	if (cnt <= 8) {
		zw_short(g, c, shift, op, r, cnt);
		return cnt;
	}
	rec = zg_title(c, op, &g, tp, &tail);
	/*
	 * Whole arrays: at title + 1, then title + 8, title + 16, ...; each
	 * array's entries are invalidated as soon as its records are made
	 * (mlx5cq_session_array_done()): 1 .. 7, then 8 .. 15, ...; inv is the
	 * first entry not invalidated yet.
	 */
	m = c + ((size_t)1 << shift);
	inv = 1;
	for (a = 8; a <= cnt; a += 8) {
		zg_group(g, tp, m, r);
		zg_group(g, tp, m + 32, r + 4);
		r += 8;
		mlx5cq_session_inv_array((volatile uint8_t *)(uintptr_t)m +
				     RTE_MLX5CQ_CQE_OP_OWN, a - inv, shift);
		inv = a;
		m = c + ((size_t)a << shift);
	}
	a -= 8;
	if (a < cnt) {
		if (cnt - a >= 4) {
			zg_group(g, tp, m, r);
			m += 32;
			r += 4;
			a += 4;
		}
		if (a < cnt)
			zw_tail(rec, tail,
				(unsigned int)(g - mlx5cq_zg_masks), m, r,
				cnt - a, (uint16_t)(_mm256_extract_epi16(rec,
								12) + a));
	}
	/* The title, then the last array's entries if it was not whole. */
	p = (volatile uint8_t *)(uintptr_t)c + RTE_MLX5CQ_CQE_OP_OWN;
	*p = RTE_MLX5CQ_OP_OWN_INVALID;
	for (p += (size_t)inv << shift; inv < cnt;
	     inv++, p += (size_t)1 << shift)
		*p = RTE_MLX5CQ_OP_OWN_INVALID;
	return cnt;
}

/*
 * mlx5cq_session_burst() of the AVX2 fast poll (mlx5cq_session_avx2.c): the
 * common turn of an open basic-layout session; the others in
 * mlx5cq_session_burst_any_avx2().
 */
uint16_t mlx5cq_session_burst_avx2(struct rte_mlx5cq *cq,
			       struct rte_mlx5cq_cpl *cpl, uint16_t n);
uint16_t mlx5cq_session_burst_any_avx2(struct rte_mlx5cq *cq,
				   struct rte_mlx5cq_cpl *cpl, uint16_t n);

#ifndef __clang__
#pragma GCC pop_options
#endif

#endif /* RTE_ARCH_X86 */

#endif /* MLX5CQ_SESSION_AVX2_H_ */
