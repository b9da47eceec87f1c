/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Fast poll, AVX2, basic layout (and no compression): runs of plain CQEs
 * four at a time, whole sessions in groups of four records, sessions that
 * straddle bursts (records: mlx5cq_poll_avx2.h). Compiled for AVX2 here
 * only; chosen at run time (mlx5cq_vec.c).
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
static struct zg_masks zg_masks[ZM_FORMATS] __rte_aligned(32);
/*
 * Masks of the mini-CQE format of a CQ by rte_mlx5cq.comp (format + 1):
 * NULL without compression; formats past L34H_STRIDX take the requester
 * masks, as zm_records() does.
 */
static const struct zg_masks *zg_by_comp[RTE_MLX5CQ_COMP_FORMAT_MASK + 1];

/* Plain C (no AVX2 here): runs at load time on any CPU. */
RTE_INIT(mlx5cq_zg_init)
{
	unsigned int f, s, b;

	for (f = 1; f <= RTE_MLX5CQ_COMP_FORMAT_MASK; f++)
		zg_by_comp[f] = &zg_masks[RTE_MIN(f - 1, ZM_FORMATS - 1u)];
	for (f = 0; f < ZM_FORMATS; f++) {
		struct zg_masks *g = &zg_masks[f];

		for (s = 0; s < ZG_STORES; s++) {
			for (b = 0; b < 32; b++) {
				unsigned int at = 32 * s + b;
				unsigned int r = at / 40, rb = at % 40;
				int mini = rb < 32 && zm_take[f][rb] != 0;
				int8_t src = mini ? zm_shuf[f][rb] : Z;

				g->shuf[s][b] = src >= 0 ?
					(int8_t)(8 * (r & 1) + src) : Z;
				g->keep[s][b] = mini ? 0 : -1;
				/* HASH and CSUM: the WQE counter is the
				 * title's + the mini's place; bytes 24..25
				 * of a record, low byte first.
				 */
				g->wqe[s][b] = rb == 24 ? (int8_t)r : 0;
				g->inc[s][b] = rb == 24 && f <= 1 ? 4 : 0;
			}
		}
		for (b = 0; b < 32; b++)
			g->one[b] = b == 24 && f <= 1 ? 1 : 0;
	}
}

/*
 * tune=haswell: GCC's generic tuning splits every unaligned 32-byte load
 * and store into two 16-byte halves (vinserti128 / vextracti128), which
 * puts two more shuffles per record on the ports the byte shuffles need;
 * the CPUs that have AVX2 do not want the split. clang ignores these
 * pragmas (and warns): there meson builds the AVX2 files with -mavx2.
 */
#ifndef __clang__
#pragma GCC push_options
#pragma GCC target("avx2,tune=haswell")
#endif

/*
 * Owner test and decode of a run, four CQEs a step: the last 16 bytes of
 * each (op_own is byte 63) are loaded first, in one 16-byte load per CQE
 * (a 16-byte aligned load is single-copy atomic on x86 CPUs with AVX, and
 * the device writes op_own last: an owned CQE's last 16 bytes are whole);
 * their four op_own bytes are gathered by three unpacks and tested
 * together (mlx5cq_fast_bad4v()); after the read barrier the rest of each
 * CQE is read and the tail vector serves the decode. One pass over the
 * CQEs instead of a byte-gathering scan and a second pass (callgrind:
 * fewer instructions per completion). Returns the number decoded.
 */
static __rte_always_inline uint32_t
mlx5cq_fast_run_avx2(volatile const uint8_t *c, unsigned int shift,
		     struct rte_mlx5cq_cpl *r, uint32_t room, unsigned int par)
{
	const size_t st = (size_t)1 << shift;
	const __m128i parv = _mm_set1_epi8((char)par);
	uint32_t k = 0, bad, op;

	for (; k + 4 <= room; k += 4, c += 4 * st, r += 4) {
		__m128i t[4];

		bad = mlx5cq_fast_bad4v(mlx5cq_fast_tails4(c, st, t), parv, &op);
		rte_io_rmb();
		if (unlikely(bad)) {
			uint32_t n;

			/*
			 * The first of the four ends the run (a session's
			 * title after plain CQEs, mostly): k alone, so the
			 * caller's next address waits on no load.
			 */
			if (bad & 0xff)
				return k;
			n = (uint32_t)__builtin_ctz(bad) >> 3;

			mlx5cq_fast_step4(c, st, t, op, r, n);
			return k + n;
		}
		mlx5cq_fast_step4(c, st, t, op, r, 4);
	}
	for (; k < room; k++, c += st, r++) {
		uint8_t oo = c[RTE_MLX5CQ_CQE_OP_OWN];

		if (!rte_mlx5cq__plain(oo, par))
			break;
		rte_io_rmb();
		mlx5cq_fast_one(c, _mm_loadu_si128((const __m128i *)
						   (uintptr_t)(c + 48)),
				oo >> 4, r);
	}
	return k;
}


void
mlx5cq_zip_records_avx2(const struct rte_mlx5cq_cpl *t, unsigned int fmt,
			volatile const uint8_t *m, struct rte_mlx5cq_cpl *c,
			uint32_t take, uint16_t w0)
{
	zm_records(t, fmt, m, c, take, w0);
}

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
 * made (mlx5cq_zip_array_done()); first: m is the session's first array
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
		mlx5cq_zip_inv_array((volatile uint8_t *)(uintptr_t)m +
				     RTE_MLX5CQ_CQE_OP_OWN, 7, shift);
		m += (size_t)7 << shift;
		r += 8;
		na--;
	}
	for (; na; na--, m += (size_t)8 << shift, r += 8) {
		zg_group(g, tp, m, r);
		zg_group(g, tp, m + 32, r + 4);
		mlx5cq_zip_inv_array((volatile uint8_t *)(uintptr_t)m +
				     RTE_MLX5CQ_CQE_OP_OWN, 8, shift);
	}
}

/*
 * mlx5cq_zip_burst() of the AVX2 fast poll, any turn of an open session
 * (mlx5cq_zip_burst_avx2() takes the common one; basic layout: the fast
 * poll never runs the enhanced one): the part of each array that starts at a
 * multiple of four minis goes in groups of four records, the rest one
 * record at a time. The session's place is kept in locals and written
 * back once; the templates stay in registers from group to group (an
 * array of them went through the stack on every group).
 */
static __rte_noinline uint16_t
mlx5cq_zip_burst_any_avx2(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
			  uint16_t n)
{
	struct mlx5cq_zip *z = MLX5CQ_ZIP(cq);
	const unsigned int fmt = mlx5cq_zip_format(cq, z);
	const unsigned int f = fmt < ZM_FORMATS - 1 ? fmt : ZM_FORMATS - 1;
	const struct zg_masks *g = &zg_masks[f];
	volatile uint8_t *ring = cq->ring + cq->cqe_off;
	const uint32_t mask = cq->mask;
	const unsigned int shift = cq->stride_shift;
	const uint32_t cnt = z->cnt, title = z->end - cnt;
	uint32_t ai = z->ai, ca = z->ca, k = 0;
	const uint32_t want = RTE_MIN(cnt - ai, (uint32_t)n);
	uint16_t wn = z->wqe_next;
	__m256i tp[ZG_STORES];
	int tp_ok = 0;

	/*
	 * Whole arrays from an array boundary: a tight loop, the templates
	 * in registers, two groups per array.
	 */
	if ((ai & 7) == 0 && want >= 8) {
		const uint32_t na = want / 8, idx = ca & mask;

		zg_templates(&z->trec, wn, g, tp);
		if (likely(shift == 6 && idx + 8 * na <= mask + 1)) {
			/* No wrap: a pointer walk. */
			zg_arrays(g, tp, ring + ((size_t)idx << 6), cpl, na,
				  ca == title + 1, 6);
			ca = mlx5cq_zip_array_at(title, ca, na);
			k = 8 * na;
		} else {
			do {
				volatile const uint8_t *m = ring +
					((size_t)(ca & mask) << shift);

				zg_group(g, tp, m, cpl + k);
				zg_group(g, tp, m + 32, cpl + k + 4);
				k += 8;
				mlx5cq_zip_array_done(ring, mask, shift, title,
						      &ca);
			} while (want - k >= 8);
		}
		ai += k;
		wn = (uint16_t)(wn + k);
		tp_ok = 1;
	}
	while (k < want) {
		uint32_t pos = ai & 7u;
		uint32_t take = RTE_MIN(8u - pos, want - k);
		volatile const uint8_t *m = ring +
			((size_t)(ca & mask) << shift) + 8u * pos;
		struct rte_mlx5cq_cpl *c = cpl + k;
		uint32_t j = 0;

		if ((pos & 3) == 0 && take >= 4) {
			/* The templates carry the WQE counter on from
			 * group to group: built again only after single
			 * records.
			 */
			if (!tp_ok) {
				zg_templates(&z->trec, wn, g, tp);
				tp_ok = 1;
			}
			for (; j + 4 <= take; j += 4, m += 32, c += 4)
				zg_group(g, tp, m, c);
		}
		if (j < take) {
			zm_records(&z->trec, fmt, m, c, take - j,
				   (uint16_t)(wn + j));
			tp_ok = 0;
		}
		k += take;
		ai += take;
		wn = (uint16_t)(wn + take);
		if ((ai & 7) == 0)
			mlx5cq_zip_array_done(ring, mask, shift, title, &ca);
	}
	if (ai == cnt) {
		mlx5cq_zip_close_inv(cq, title, ca, z->end);
		z->cnt = 0;
		z->ai = 0;
		cq->slow &= ~RTE_MLX5CQ_SLOW_SESSION;
	} else {
		z->ai = ai;
		z->ca = ca;
		z->wqe_next = wn;
	}
	MLX5CQ_CNT(cq)->minis += k;
	return (uint16_t)k;
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
zg_turn(struct rte_mlx5cq *cq, struct mlx5cq_zip *z,
	struct rte_mlx5cq_cpl *cpl, uint32_t want, int first,
	unsigned int shift)
{
	const uint32_t cnt = z->cnt, ai = z->ai, ca = z->ca, na = want / 8;
	const uint32_t mask = cq->mask, title = z->end - cnt;
	volatile uint8_t *ring = cq->ring + cq->cqe_off;
	const struct zg_masks *g =
		&zg_masks[RTE_MIN(mlx5cq_zip_format(cq, z), ZM_FORMATS - 1u)];
	const int close = ai + want == cnt;
	__m256i tp[ZG_STORES];

	zg_templates(&z->trec, z->wqe_next, g, tp);
	MLX5CQ_CNT(cq)->minis += want;
	if (!close) {
		z->ai = ai + want;
		z->ca = mlx5cq_zip_array_at(title, ca, na);
		z->wqe_next = (uint16_t)(z->wqe_next + want);
	}
	zg_arrays(g, tp, ring + ((size_t)(ca & mask) << shift), cpl, na, first,
		  shift);
	if (close) {
		ring[((size_t)(title & mask) << shift) + RTE_MLX5CQ_CQE_OP_OWN] =
			MLX5CQ_CQE_INVALIDATE;
		z->cnt = 0;
		z->ai = 0;
		cq->slow &= ~RTE_MLX5CQ_SLOW_SESSION;
	}
	return close;
}

/*
 * mlx5cq_zip_burst() of the AVX2 fast poll: the common turn of an open
 * session here (from an array's start, whole arrays only, 64 or 128 B
 * entries, no wrap: a session split by the burst), the rest in
 * mlx5cq_zip_burst_any_avx2(). Small on purpose: the general function's
 * frame (its loops keep more state) cost about 40 instructions a call
 * (callgrind, HASH sessions of 64 on a warm 1K ring: 17.5 -> 16.2 per
 * completion; adjacent runs 2.50 -> 2.36 cycles, flushed 16K 4.14 ->
 * 3.92).
 */
static __rte_noinline uint16_t
mlx5cq_zip_burst_avx2(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
		      uint16_t n)
{
	struct mlx5cq_zip *z = MLX5CQ_ZIP(cq);
	const uint32_t cnt = z->cnt, ai = z->ai, ca = z->ca;
	const uint32_t want = RTE_MIN(cnt - ai, (uint32_t)n);
	const uint32_t na = want / 8, mask = cq->mask, idx = ca & mask;

	if (unlikely((ai & 7) != 0 || na == 0 || (want & 7) != 0 ||
		     cq->stride_shift - 6u > 1u || idx + 8 * na > mask + 1))
		return mlx5cq_zip_burst_any_avx2(cq, cpl, n);
	if (likely(cq->stride_shift == 6))
		zg_turn(cq, z, cpl, want, ca == z->end - cnt + 1, 6);
	else
		zg_turn(cq, z, cpl, want, ca == z->end - cnt + 1, 7);
	return (uint16_t)want;
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
		*g = &zg_masks[ZM_FORMATS - 1];
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
 * entries 1 .. cnt - 1 invalidated. No group templates: building the
 * five cost about 20 instructions, and the groups' loop and its
 * increments about 30 more, a session (the ring of sessions of 8 and
 * plain CQEs in turn had run at the cycles of plain CQEs alone with about
 * as many instructions).
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
		mlx5cq_zip_inv_array(p, 8, shift);
		return;
	}
	for (j = 0; j < cnt; j++)
		ZW_ONE(j);
#undef ZW_ONE
	for (j = 0; j < cnt; j++, p += st)
		*p = MLX5CQ_CQE_INVALIDATE;
}

/*
 * mlx5cq_fast_run_avx2() with the stride a constant on 64 B rings (the
 * four CQEs of a step at fixed offsets from one pointer: fewer address
 * computations per step), as given on others.
 */
static __rte_always_inline uint32_t
mlx5cq_fast_run64_avx2(volatile const uint8_t *c, unsigned int shift,
		       struct rte_mlx5cq_cpl *r, uint32_t room,
		       unsigned int par)
{
	if (likely(shift == 6))
		return mlx5cq_fast_run_avx2(c, 6, r, room, par);
	return mlx5cq_fast_run_avx2(c, shift, r, room, par);
}

/*
 * A basic-layout session at c (its title, op_own oo, owned) whose
 * completions all fit in lim entries (lim >= 1, none past the ring's end),
 * decoded in one go without opening it (no session state written): the
 * title's record is made in registers and becomes the group templates
 * directly, groups of four records, single records for the last
 * (cnt % 4), entries title .. title + cnt - 1 invalidated, as
 * mlx5cq_zip_burst() would do over the same burst; no wrap, so the arrays
 * (title + 1, title + 8, title + 16, ...) and the entries are at constant
 * strides from c. g: the masks of the CQ's format (zg_by_comp[]). Returns
 * cnt, or 0 when the session does not fit or needs mlx5cq_zip_open()'s
 * checks (and its log line): a count out of range, an error opcode in the
 * title.
 */
static __rte_always_inline uint32_t
mlx5cq_zip_whole_avx2(const struct zg_masks *g, volatile const uint8_t *c,
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
	 * (mlx5cq_zip_array_done()): 1 .. 7, then 8 .. 15, ...; inv is the
	 * first entry not invalidated yet.
	 */
	m = c + ((size_t)1 << shift);
	inv = 1;
	for (a = 8; a <= cnt; a += 8) {
		zg_group(g, tp, m, r);
		zg_group(g, tp, m + 32, r + 4);
		r += 8;
		mlx5cq_zip_inv_array((volatile uint8_t *)(uintptr_t)m +
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
			zw_tail(rec, tail, (unsigned int)(g - zg_masks), m, r,
				cnt - a, (uint16_t)(_mm256_extract_epi16(rec,
								12) + a));
	}
	/* The title, then the last array's entries if it was not whole. */
	p = (volatile uint8_t *)(uintptr_t)c + RTE_MLX5CQ_CQE_OP_OWN;
	*p = MLX5CQ_CQE_INVALIDATE;
	for (p += (size_t)inv << shift; inv < cnt;
	     inv++, p += (size_t)1 << shift)
		*p = MLX5CQ_CQE_INVALIDATE;
	return cnt;
}

/*
 * From c, up to left entries (none past the ring's end, parity par): the
 * runs of plain CQEs (mlx5cq_fast_run_avx2()), the error CQEs and the
 * basic-layout sessions that fit (mlx5cq_zip_whole_avx2(); g: the masks of
 * the CQ's format, NULL without compression) among them, in a loop that
 * holds only pointers and counts: the consumer index, the ring's geometry
 * and the burst's place stay outside it (they had been spilled to the
 * stack and reloaded around every session). Returns the number of entries
 * consumed, one record each (sessions counted); it stops at anything
 * else, the entry there untouched.
 */
static __rte_always_inline uint32_t
mlx5cq_seg_loop_avx2(struct rte_mlx5cq *cq, const struct zg_masks *g,
		     volatile const uint8_t *c, unsigned int shift,
		     struct rte_mlx5cq_cpl *r, uint32_t left,
		     unsigned int par, uint32_t *nminis)
{
	uint32_t k = 0, s, sessions = 0, minis = 0;
	uint8_t oo = c[RTE_MLX5CQ_CQE_OP_OWN];

	for (;;) {
		if (((oo >> 2) & 3) != RTE_MLX5CQ_FORMAT_COMPRESSED) {
			s = mlx5cq_fast_run64_avx2(c, shift, r, left - k, par);
			/*
			 * Not plain, owned, not compressed: an error CQE
			 * (REQ_ERR, RESP_ERR), an error record, as in the
			 * general loop.
			 */
			if (s == 0 && ((oo ^ par) & 1) == 0 &&
			    (oo >> 4) != RTE_MLX5CQ_OP_INVALID) {
				rte_io_rmb();
				mlx5cq_decode_full(c, oo, r);
				if (r->status != 0)
					mlx5cq_count_error(cq, r);
				s = 1;
			}
		} else {
			if (((oo ^ par) & 1) || g == NULL)
				break;
			rte_io_rmb();
			s = mlx5cq_zip_whole_avx2(g, c, shift, oo, r, left - k);
			if (s == 0)
				break;
			sessions++;
			minis += s;
		}
		if (s == 0)
			break;
		k += s;
		if (k == left)
			break;
		c += (size_t)s << shift;
		r += s;
		oo = c[RTE_MLX5CQ_CQE_OP_OWN];
	}
	if (sessions) {
		MLX5CQ_CNT(cq)->sessions += sessions;
		MLX5CQ_CNT(cq)->minis += minis;
	}
	*nminis = minis;
	return k;
}

/*
 * MLX5CQ_FAST_SEG of the general loop: from an owned compressed CQE at c
 * whose session fits in left entries, mlx5cq_seg_loop_avx2().
 */
static __rte_always_inline uint32_t
mlx5cq_fast_seg_avx2(struct rte_mlx5cq *cq, volatile const uint8_t *c,
		     unsigned int shift, struct rte_mlx5cq_cpl *r,
		     uint32_t left, unsigned int par)
{
	const struct zg_masks *g = zg_by_comp[cq->comp &
					      RTE_MLX5CQ_COMP_FORMAT_MASK];
	uint32_t minis;

	/*
	 * No compression on the CQ: mlx5cq_zip_open() logs it; a session
	 * longer than the burst: opened, mlx5cq_zip_burst_avx2().
	 */
	if (g == NULL ||
	    rte_mlx5cq__be32(c, RTE_MLX5CQ_CQE_BYTE_CNT) > left)
		return 0;
	return mlx5cq_seg_loop_avx2(cq, g, c, shift, r, left, par, &minis);
}

/* The general loop (mlx5cq_poll_fast.h), behind mlx5cq_poll_fast_avx2(). */
static __rte_noinline uint16_t
mlx5cq_poll_any_avx2(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
		     uint16_t n, uint16_t done);

#define MLX5CQ_FAST_NAME mlx5cq_poll_any_avx2
#define MLX5CQ_FAST_RUN mlx5cq_fast_run64_avx2
#define MLX5CQ_FAST_SEG mlx5cq_fast_seg_avx2
#define MLX5CQ_FAST_ZIP_BURST mlx5cq_zip_burst_avx2
#include "mlx5cq_poll_fast.h"

/*
 * A burst with no session open (entries of 1 << shift bytes, a constant:
 * 64 or 128): mlx5cq_seg_loop_avx2() from the consumer index to the
 * burst's end or the ring's, then the burst published (counters, consumer
 * index and doorbell record after the barrier, on 64 B entries the
 * prefetch of the next burst's lines) when it stopped at the burst's end
 * or, after some records, at an entry software does not own. Anything
 * else (the ring's end, a session longer than the rest of the burst, a
 * malformed one, nothing made) goes on in the general loop with the
 * records made so far, unpublished.
 */
static __rte_always_inline uint16_t
mlx5cq_poll_lean_s(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
		   uint16_t n, unsigned int shift)
{
	const uint32_t ci = cq->ci, mask = cq->mask, idx = ci & mask;
	const unsigned int log_n = cq->log_n;
	const uint32_t room = RTE_MIN((uint32_t)n, mask + 1 - idx);
	volatile const uint8_t *c = cq->ring + cq->cqe_off +
				    ((size_t)idx << shift);
	uint32_t k, minis;

	k = mlx5cq_seg_loop_avx2(cq, zg_by_comp[cq->comp &
					       RTE_MLX5CQ_COMP_FORMAT_MASK],
				 c, shift, cpl, room, (ci >> log_n) & 1,
				 &minis);
	/*
	 * The publication of mlx5cq_poll_publish_inline() without its
	 * branches for an empty or stopped poll and an unmoved index (k is
	 * not 0 here): through it, 1-2 % more cycles on warm rings of plain
	 * CQEs and sessions of 8 (seven alternated pairs of the whole table).
	 */
	if (k == n) {
		cq->polls++;
		cq->completions += n;
		rte_mlx5cq__update_ci(cq, ci + n);
		/*
		 * mlx5cq_poll_fast.h: the next burst's first lines (not on
		 * 128 B entries, see there).
		 */
		if (shift != 6)
			return n;
		mlx5cq_prefetch8(cq->ring + cq->cqe_off, mask, 6, ci + n);
		/*
		 * A burst mostly of sessions: their holes are only stored
		 * to, and the hardware prefetcher follows loads, so eight
		 * more lines (sessions of 8, flushed 16K ring: 1.11x the
		 * general loop's cycles with eight, 1.00x with sixteen; on
		 * bursts of plain CQEs the eight more cost 2-6 % warm).
		 */
		if (minis > n / 2u)
			mlx5cq_prefetch8(cq->ring + cq->cqe_off, mask, 6,
					 ci + n + 8);
		return n;
	}
	if (k != 0 && k < room &&
	    !rte_mlx5cq__sw_owned(c[((size_t)k << shift) +
				    RTE_MLX5CQ_CQE_OP_OWN], ci + k, log_n)) {
		cq->polls++;
		cq->completions += k;
		rte_mlx5cq__update_ci(cq, ci + k);
		return (uint16_t)k;
	}
	return mlx5cq_poll_any_avx2(cq, cpl, n, (uint16_t)k);
}

/* mlx5cq_poll_lean_s() on 64 B entries. */
static __rte_noinline uint16_t
mlx5cq_poll_lean_avx2(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
		      uint16_t n)
{
	return mlx5cq_poll_lean_s(cq, cpl, n, 6);
}

/* mlx5cq_poll_lean_s() on 128 B entries. */
static __rte_noinline uint16_t
mlx5cq_poll_lean128_avx2(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
			 uint16_t n)
{
	return mlx5cq_poll_lean_s(cq, cpl, n, 7);
}

/*
 * A burst (n a multiple of 8; entries of 1 << shift bytes, a constant: 64
 * or 128) that an open basic-layout session fills whole, from the start
 * of an array past its first one (every path that opens a session reads
 * some of it in the same burst; a session still at its first array goes
 * to the general loop, so the arrays' loop has one variant here and fewer
 * registers spill: 3 % on HASH sessions of 64), with no wrap: zg_turn(),
 * as mlx5cq_zip_burst_avx2() in the general loop, then the burst
 * published; a session that ends with the burst is closed and the
 * consumer index moves past it (doorbell record after the barrier), with
 * the prefetch of the next burst's lines the general loop makes (64 B
 * entries). Any other burst goes to the general loop.
 */
static __rte_always_inline uint16_t
mlx5cq_sess_turn_s(struct rte_mlx5cq *cq, struct mlx5cq_zip *z,
		   struct rte_mlx5cq_cpl *cpl, uint16_t n, unsigned int shift)
{
	const uint32_t cnt = z->cnt, ai = z->ai, mask = cq->mask;

	if (cnt - ai < n || (ai & 7) != 0 || ai == 0 ||
	    (z->ca & mask) + n > mask + 1)
		return mlx5cq_poll_any_avx2(cq, cpl, n, 0);
	/* Counters first (zg_turn()). */
	cq->polls++;
	cq->completions += n;
	if (zg_turn(cq, z, cpl, n, 0, shift)) {
		/* Closed: the consumer index past it, after the barrier. */
		rte_mlx5cq__update_ci(cq, z->end);
		/*
		 * mlx5cq_poll_fast.h: the next burst's first lines (with
		 * four of them, the flushed 16K ring of HASH sessions of 64
		 * went 1.43x slower).
		 */
		if (shift == 6)
			mlx5cq_prefetch8(cq->ring + cq->cqe_off, mask, 6,
					 z->end);
	}
	return n;
}

/*
 * A burst (n a multiple of 8; entries of 1 << shift bytes, a constant: 64
 * or 128) that starts at an owned basic-layout session at c (ring index
 * ci, op_own oo) longer than the burst (cnt > n mini-CQEs;
 * mlx5cq_poll_top_s() tested that, after the read barrier), with the
 * burst's entries before the ring's end: the session is opened in place
 * (what mlx5cq_zip_open() and the title's record do, the title's record
 * made in registers and stored once for the next turns) and its first n
 * mini-CQEs decoded from the templates, the consumer index staying at
 * the title. Any other burst, and a title that needs mlx5cq_zip_open()'s
 * checks and log line, goes to the general loop.
 */
static __rte_always_inline uint16_t
mlx5cq_sess_open_s(struct rte_mlx5cq *cq, volatile const uint8_t *c,
		   uint8_t oo, uint32_t cnt, struct rte_mlx5cq_cpl *cpl,
		   uint16_t n, unsigned int shift)
{
	struct mlx5cq_zip *z = MLX5CQ_ZIP(cq);
	const uint32_t ci = cq->ci, mask = cq->mask, idx = ci & mask;
	const unsigned int op = oo >> 4;
	const struct zg_masks *g =
		zg_by_comp[cq->comp & RTE_MLX5CQ_COMP_FORMAT_MASK];
	__m256i tp[ZG_STORES], rec;
	uint64_t tail;

	/*
	 * A compressed CQ; no longer than the ring, no error opcode and not
	 * INVALID, the burst's entries before the ring's end.
	 */
	if (g == NULL || cnt > mask + 1u || op >= RTE_MLX5CQ_OP_REQ_ERR ||
	    idx + n > mask + 1u)
		return mlx5cq_poll_any_avx2(cq, cpl, n, 0);
	rec = zg_title(c, op, &g, tp, &tail);
	/*
	 * The session's state for the next turns and the counters, before
	 * the records: the stores into the holes' lines miss on a ring
	 * that is not in the caches, and read-modify-writes of the counters
	 * after them waited for those (HASH sessions of 64, flushed 16K
	 * ring, one sitting: 1.10x the general loop's cycles that way,
	 * 0.96x this way).
	 */
	_mm256_storeu_si256((__m256i *)(void *)&z->trec, rec);
	memcpy(&z->trec.opcode, &tail, sizeof(tail));
	z->wqe_next = (uint16_t)(_mm256_extract_epi16(rec, 12) + n);
	z->cnt = cnt;
	z->ai = n;
	z->ca = mlx5cq_zip_array_at(ci, ci + 1, n / 8u);
	z->end = ci + cnt;
	cq->slow |= RTE_MLX5CQ_SLOW_SESSION;
	MLX5CQ_CNT(cq)->sessions++;
	MLX5CQ_CNT(cq)->minis += n;
	cq->polls++;
	cq->completions += n;
	zg_arrays(g, tp, c + ((size_t)1 << shift), cpl, n / 8u, 1, shift);
	/*
	 * The next turn's first eight entries (its first array and the
	 * holes after it), as the close of a session asks for the next
	 * session's: without it the flushed 16K ring of HASH sessions of 64
	 * was 1.09x the general loop's cycles (that loop spent longer
	 * between the turns, and the hardware prefetcher kept up), with it
	 * 0.95-0.99x; as eight prefetch instructions (unrolled) 1.49x. It
	 * costs the warm 1K ring about 4 % (2.03 -> 2.11). Not on 128 B
	 * entries: there this prefetch and the one at the close, at the
	 * 128 B stride, made HASH sessions of 64 1.08 times the cycles warm
	 * and 1.03 flushed (eleven alternated pairs); a prefetchw of the
	 * next array's holes, one array ahead, 1.06-1.08 warm and 0.98-1.04
	 * flushed.
	 */
	if (shift == 6)
		mlx5cq_prefetch8(cq->ring + cq->cqe_off, cq->mask, 6, z->ca);
	return n;
}

/* mlx5cq_sess_turn_s() on 64 B entries. */
static __rte_noinline uint16_t
mlx5cq_sess_turn_avx2(struct rte_mlx5cq *cq, struct mlx5cq_zip *z,
		      struct rte_mlx5cq_cpl *cpl, uint16_t n)
{
	return mlx5cq_sess_turn_s(cq, z, cpl, n, 6);
}

/* mlx5cq_sess_turn_s() on 128 B entries. */
static __rte_noinline uint16_t
mlx5cq_sess_turn128_avx2(struct rte_mlx5cq *cq, struct mlx5cq_zip *z,
			 struct rte_mlx5cq_cpl *cpl, uint16_t n)
{
	return mlx5cq_sess_turn_s(cq, z, cpl, n, 7);
}

/* mlx5cq_sess_open_s() on 64 B entries. */
static __rte_noinline uint16_t
mlx5cq_sess_open_avx2(struct rte_mlx5cq *cq, volatile const uint8_t *c,
		      uint8_t oo, uint32_t cnt, struct rte_mlx5cq_cpl *cpl,
		      uint16_t n)
{
	return mlx5cq_sess_open_s(cq, c, oo, cnt, cpl, n, 6);
}

/* mlx5cq_sess_open_s() on 128 B entries. */
static __rte_noinline uint16_t
mlx5cq_sess_open128_avx2(struct rte_mlx5cq *cq, volatile const uint8_t *c,
			 uint8_t oo, uint32_t cnt, struct rte_mlx5cq_cpl *cpl,
			 uint16_t n)
{
	return mlx5cq_sess_open_s(cq, c, oo, cnt, cpl, n, 7);
}

/*
 * The bursts of mlx5cq_poll_fast_avx2() on entries of 1 << shift bytes (a
 * constant: 64 or 128): tests without a frame (tail calls only), so the
 * helpers' frames and ymm registers are set up only for the bursts they
 * take. n a multiple of 8: whole arrays, so each turn starts at an array's
 * start.
 */
static __rte_always_inline uint16_t
mlx5cq_poll_top_s(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
		  uint16_t n, unsigned int shift)
{
	volatile const uint8_t *c;
	uint32_t cnt;
	uint8_t oo;

	if (cq->slow & RTE_MLX5CQ_SLOW_SESSION) {
		if ((n & 7) != 0)
			return mlx5cq_poll_any_avx2(cq, cpl, n, 0);
		if (shift == 6)
			return mlx5cq_sess_turn_avx2(cq, MLX5CQ_ZIP(cq), cpl,
						     n);
		return mlx5cq_sess_turn128_avx2(cq, MLX5CQ_ZIP(cq), cpl, n);
	}
	if (cq->comp == 0 || (n & 7) != 0)
		goto lean;
	c = rte_mlx5cq__cqe(cq, cq->ci);
	oo = c[RTE_MLX5CQ_CQE_OP_OWN];
	/* An owned compressed CQE whose session outlasts the burst. */
	if (((oo >> 2) & 3) != RTE_MLX5CQ_FORMAT_COMPRESSED ||
	    ((oo ^ (cq->ci >> cq->log_n)) & 1) != 0)
		goto lean;
	rte_io_rmb();
	cnt = rte_mlx5cq__be32(c, RTE_MLX5CQ_CQE_BYTE_CNT);
	if (cnt <= n)
		goto lean;
	if (shift == 6)
		return mlx5cq_sess_open_avx2(cq, c, oo, cnt, cpl, n);
	return mlx5cq_sess_open128_avx2(cq, c, oo, cnt, cpl, n);
lean:
	if (shift == 6)
		return mlx5cq_poll_lean_avx2(cq, cpl, n);
	return mlx5cq_poll_lean128_avx2(cq, cpl, n);
}

/* mlx5cq_poll_top_s() on 128 B entries. */
static __rte_noinline uint16_t
mlx5cq_poll_top128_avx2(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
			uint16_t n)
{
	return mlx5cq_poll_top_s(cq, cpl, n, 7);
}

/*
 * The AVX2 fast poll (mlx5cq_poll_fast[]; rte_mlx5cq_poll_burst_ool() sends
 * only basic-layout CQs without the lock here), on 64 and 128 B entries:
 * bursts that a session longer than the burst fills, its first turn
 * (mlx5cq_sess_open_s()) and the next ones (mlx5cq_sess_turn_s()), and
 * the other bursts of plain CQEs and whole sessions (mlx5cq_poll_lean_s())
 * are made in small frames, one copy of each for either stride (128 B
 * entries behind one more call); the rest in the general loop. On HASH
 * sessions of 64 in bursts of 32 the general loop's frame (its inlined
 * runs and whole sessions keep the CQ's geometry on the stack), its calls
 * and its end-of-burst prefetch at the title had cost about 290
 * instructions a burst, more than the 250 of the records themselves
 * (callgrind).
 */
uint16_t
mlx5cq_poll_fast_avx2(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
		      uint16_t n, uint16_t done)
{
	if (done != 0 || n == 0)
		return mlx5cq_poll_any_avx2(cq, cpl, n, done);
	if (likely(cq->stride_shift == 6))
		return mlx5cq_poll_top_s(cq, cpl, n, 6);
	if (cq->stride_shift == 7)
		return mlx5cq_poll_top128_avx2(cq, cpl, n);
	return mlx5cq_poll_any_avx2(cq, cpl, n, 0);
}

#ifndef __clang__
#pragma GCC pop_options
#endif

#endif /* RTE_ARCH_X86 */
