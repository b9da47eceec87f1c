/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Fast poll, AVX2, enhanced compression layout (cqe_comp_layout 1). An
 * entry is valid when its validity iteration count (byte 62) is the low
 * byte of the pass number (ci >> log_n), whatever its owner bit; a
 * compressed CQE carries its own mini-CQEs (up to seven, bytes 0..55),
 * spans one ring entry per mini-CQE, and takes its other fields from the
 * last regular CQE before it (the title), which may be several compressed
 * CQEs back; nothing is invalidated (PRM-NOTES, "Compression, enhanced
 * layout"). The rules are those of the generic poll (mlx5cq_poll_generic.c
 * peek(), consume()), applied to runs:
 *   - regular CQEs four at a time: validity bytes and op_own bytes of four
 *     entries gathered from their last 16 bytes and tested together, then
 *     the read barrier, then the records (mlx5cq_poll_avx2.h); the run's
 *     last CQE becomes the title once per run (its record, the WQE
 *     counter its HASH/CSUM minis continue from, and a copy of the CQE
 *     for the raw view) instead of once per CQE;
 *   - a compressed CQE after it: one record per mini-CQE, in the same
 *     loop, over a template made once per title (its record with the
 *     mini-CQE's bytes cleared; kept in registers across the title's
 *     compressed CQEs): a broadcast load, a shuffle, an or and two
 *     stores per mini-CQE, seven unrolled;
 *   - a compressed CQE ending past the burst or the ring: opened in the
 *     same loop (the state mlx5cq_session_open() would set), its first
 *     mini-CQEs delivered in this burst and the others by the next poll
 *     from the session state, inline (what mlx5cq_session_burst() does for
 *     this layout);
 *   - anything else (an error CQE, a compressed CQE with no title or with
 *     more than seven minis) one entry at a time through the generic
 *     code (mlx5cq_session_open(), mlx5cq_decode_full()).
 * A burst on 64 or 128 B entries starts in a function of constant
 * stride, one copy per stride (the rest of an open compressed CQE, one
 * segment, the publication) and goes on in the general loop only when
 * the segment stops short of the burst at an entry the device has
 * written.
 * Chosen by rte_mlx5cq_poll_burst_ool() for an enhanced-layout CQ whose poll is
 * AVX2 and that takes no lock.
 */

#include "mlx5cq_private.h"

#ifdef RTE_ARCH_X86
#include <immintrin.h>

#include "mlx5cq_poll_avx2.h"

/* tune=haswell: whole 32-byte loads and stores (mlx5cq_poll_avx2.c). */
#ifndef __clang__
#pragma GCC push_options
#pragma GCC target("avx2,tune=haswell")
#endif

/* Bit 7 of each byte of x that is not zero. */
static __rte_always_inline uint32_t
enh_nz4(uint32_t x)
{
	return (((x & 0x7f7f7f7fu) + 0x7f7f7f7fu) | x) & 0x80808080u;
}

/*
 * The regular CQE c, whose record is r, becomes the title: what
 * mlx5cq_poll_generic.c consume() keeps of it (the copy of the CQE serves
 * the raw view of the minis; the ring entry may be reused once consumed).
 */
static __rte_always_inline void
enh_title(struct mlx5cq_session *z, volatile const uint8_t *c,
	  const struct rte_mlx5cq_cpl *r)
{
	const __m256i *v = (const __m256i *)(uintptr_t)c;

	_mm256_store_si256((__m256i *)(void *)z->title,
			   _mm256_loadu_si256(v));
	_mm256_store_si256((__m256i *)(void *)(z->title + 32),
			   _mm256_loadu_si256(v + 1));
	z->trec = *r;
	z->wqe_next = (uint16_t)(r->wqe_counter + 1);
	z->have_title = 1;
}

/*
 * Regular success CQEs from c (at most room; it4: the pass's validity
 * byte in each byte), decoded four a step; their number.
 */
static __rte_always_inline uint32_t
enh_run(volatile const uint8_t *c, unsigned int shift,
	struct rte_mlx5cq_cpl *r, uint32_t room, uint32_t it4)
{
	const size_t st = (size_t)1 << shift;
	uint32_t k = 0, bad;

	for (; k + 4 <= room; k += 4, c += 4 * st, r += 4) {
		__m128i t[4];
		__m128i d = mlx5cq_fast_tails4(c, st, t);
		uint32_t wv = (uint32_t)_mm_extract_epi32(d, 2);
		uint32_t w = (uint32_t)_mm_extract_epi32(d, 3);
		const uint32_t op = (w >> 4) & 0x0f0f0f0fu; /* opcodes */

		/* The owner bit means nothing in this layout: cleared. */
		bad = enh_nz4(wv ^ it4) | mlx5cq_fast_bad4(w & ~MLX5CQ_B0);
		rte_io_rmb();
		if (unlikely(bad)) {
			uint32_t n = (uint32_t)__builtin_ctz(bad) >> 3;

			mlx5cq_fast_step4(c, st, t, op, r, n);
			return k + n;
		}
		mlx5cq_fast_step4(c, st, t, op, r, 4);
	}
	for (; k < room; k++, c += st, r++) {
		__m128i t = _mm_loadu_si128((const __m128i *)
					    (uintptr_t)(c + 48));
		uint32_t vo = (uint32_t)_mm_extract_epi16(t, 7);

		if ((uint8_t)vo != (uint8_t)it4 ||
		    mlx5cq_fast_bad4((vo >> 8) & ~1u))
			break;
		rte_io_rmb();
		mlx5cq_fast_one(c, t, (uint8_t)(vo >> 8) >> 4, r);
	}
	return k;
}

/*
 * Whether the entry at c (its bytes 62..63 in vo; it: the pass's
 * validity byte; left: entries from c the caller may read) is a valid
 * success CQE followed by a valid compressed CQE: the title of a
 * compressed stream, alone, which enh_run() would take through a step
 * of four.
 */
static __rte_always_inline int
enh_lone(volatile const uint8_t *c, unsigned int shift, uint32_t vo,
	 unsigned int it, uint32_t left)
{
	uint32_t vn;

	if ((uint8_t)vo != it || left < 2 ||
	    mlx5cq_fast_bad4((vo >> 8) & 0xfeu) != 0)
		return 0;
	vn = rte_mlx5cq__be16(c + ((size_t)1 << shift), RTE_MLX5CQ_CQE_VALIDITY);
	/* Big endian: the validity byte high, op_own low. */
	return (vn >> 8) == it &&
	       ((vn >> 2) & 3) == RTE_MLX5CQ_FORMAT_COMPRESSED;
}

/* The title's template (zm_tv_make()); ok: made for the current title. */
struct enh_tv {
	struct zm_tv z;
	int ok;
};

/* v from the title's record (z->trec) and the next WQE counter wn. */
static __rte_always_inline void
enh_tv_make(const struct rte_mlx5cq *cq, const struct mlx5cq_session *z,
	    uint16_t wn, struct enh_tv *v)
{
	/* Requester titles: requester mini-CQEs. */
	const unsigned int f = RTE_MIN(mlx5cq_session_format(cq, z),
				       ZM_FORMATS - 1u);
	uint64_t tail;

	memcpy(&tail, &z->trec.opcode, sizeof(tail));
	zm_tv_make(_mm256_loadu_si256((const void *)&z->trec), tail, f, wn,
		   &v->z);
	v->ok = 1;
}

/*
 * Records of cnt mini-CQEs at m over the template of v, which moves past
 * them: zm_tv_records(), seven unrolled (a whole compressed CQE).
 */
static __rte_always_inline void
enh_minis(struct enh_tv *v, volatile const uint8_t *m,
	  struct rte_mlx5cq_cpl *r, uint32_t cnt)
{
	struct zm_tv *t = &v->z;
	__m256i tmpl;

	if (likely(cnt == RTE_MLX5CQ_ENH_MINIS_MAX)) {
		tmpl = t->tmpl;
#define ENH_MINI(j) do { \
		zm_or_one(tmpl, t->tail, t->shuf, m + 8 * (j), &r[j]); \
		tmpl = _mm256_add_epi16(tmpl, t->one); \
	} while (0)
		ENH_MINI(0); ENH_MINI(1); ENH_MINI(2); ENH_MINI(3);
		ENH_MINI(4); ENH_MINI(5); ENH_MINI(6);
#undef ENH_MINI
		t->tmpl = tmpl;
		return;
	}
	zm_tv_records(t, m, r, cnt);
}

/*
 * Entries from c, the one at consumer index ci, up to left (none past the
 * ring's end; it: the pass's validity byte): runs of regular CQEs and the
 * compressed CQEs after them. The template of the title's mini-CQE
 * records (v) is made once per title, at its first compressed CQE (or by
 * the poll, for the rest of an open one), and kept in registers. A
 * compressed CQE that spans past left is opened as
 * mlx5cq_session_open() would (its checks were made here), its first
 * mini-CQEs delivered, the rest left to the session (the consumer index
 * stays at it). Returns the records made; *ents: the entries consumed.
 */
static __rte_always_inline uint32_t
enh_seg(struct rte_mlx5cq *cq, volatile const uint8_t *c,
	unsigned int shift, struct rte_mlx5cq_cpl *r, uint32_t left,
	unsigned int it, uint32_t ci, struct enh_tv *v, uint32_t *ents)
{
	struct mlx5cq_session *z = MLX5CQ_SESSION(cq);
	const uint32_t it4 = it * MLX5CQ_B0;
	uint32_t k = 0, s, sessions = 0, minis = 0, wn = z->wqe_next;
	uint32_t opened = 0;
	unsigned int ht = z->have_title;

	while (k < left) {
		__m128i t;
		uint32_t vo, cnt, take;

		/*
		 * The entry's last bytes first: a compressed CQE (most
		 * entries of a compressed stream) skips the run's four-CQE
		 * test, which would stop at it.
		 */
		t = _mm_loadu_si128((const __m128i *)(uintptr_t)(c + 48));
		vo = (uint32_t)_mm_extract_epi16(t, 7);
		if ((uint8_t)vo != it ||
		    ((vo >> 10) & 3) != RTE_MLX5CQ_FORMAT_COMPRESSED) {
			if (enh_lone(c, shift, vo, it, left - k)) {
				/*
				 * A title alone before compressed CQEs: its
				 * record, not a run's four-CQE step.
				 */
				rte_io_rmb();
				mlx5cq_fast_one(c, t, (vo >> 12) & 0xf, r);
				s = 1;
			} else {
				s = enh_run(c, shift, r, left - k, it4);
			}
			if (s == 0)
				break;
			enh_title(z, c + ((size_t)(s - 1) << shift), &r[s - 1]);
			wn = z->wqe_next;
			ht = 1;
			v->ok = 0;
			k += s;
			c += (size_t)s << shift;
			r += s;
			continue;
		}
		cnt = (vo >> 12) + 1;
		if (!ht || cnt > RTE_MLX5CQ_ENH_MINIS_MAX)
			break;
		/*
		 * The next compressed CQE's place depends on this one's
		 * count, and nothing else reads the entries it spans: the
		 * two after it are asked for, so the core's stream
		 * prefetcher keeps running ahead on the ring (a load of
		 * them would stall on memory; no access at all leaves the
		 * prefetcher without a stream to follow).
		 */
		MLX5CQ_PREFETCH(c + ((size_t)1 << shift));
		MLX5CQ_PREFETCH(c + ((size_t)2 << shift));
		rte_io_rmb();
		if (!v->ok)
			enh_tv_make(cq, z, (uint16_t)wn, v);
		sessions++;
		if (unlikely(cnt > left - k)) {
			/* Past the burst or the ring: opened. */
			take = left - k;
			enh_minis(v, c, r, take);
			z->ca = ci + k;
			z->end = ci + k + cnt;
			z->cnt = cnt;
			z->ai = take;
			cq->slow |= RTE_MLX5CQ_SLOW_SESSION;
			wn += take;
			minis += take;
			k += take;
			opened = take;
			break;
		}
		enh_minis(v, c, r, cnt);
		wn += cnt;
		minis += cnt;
		k += cnt;
		c += (size_t)cnt << shift;
		r += cnt;
	}
	if (sessions) {
		z->wqe_next = (uint16_t)wn;
		MLX5CQ_CNT(cq)->sessions += sessions;
		MLX5CQ_CNT(cq)->minis += minis;
	}
	*ents = k - opened;
	return k;
}

/*
 * The rest of a compressed CQE opened by an earlier poll or segment (it
 * ended past a burst): at most want of its mini-CQEs from the template of
 * v (made when not yet), what mlx5cq_session_burst() does for this layout.
 * Returns how many; the session closes after its last.
 */
static __rte_always_inline uint32_t
enh_rest(struct rte_mlx5cq *cq, struct mlx5cq_session *z, struct enh_tv *v,
	 struct rte_mlx5cq_cpl *r, uint32_t want)
{
	const uint32_t k = RTE_MIN(z->cnt - z->ai, want);

	if (!v->ok)
		enh_tv_make(cq, z, z->wqe_next, v);
	enh_minis(v, rte_mlx5cq__cqe(cq, z->ca) + 8u * z->ai, r, k);
	MLX5CQ_CNT(cq)->minis += k;
	mlx5cq_session_consume(cq, k);
	return k;
}

/*
 * The general loop: from consumer index ci, records cpl[done..n) (done:
 * made and not published yet), segments (enh_seg()), the rest of an open
 * compressed CQE, and one entry at a time what the segments leave; then
 * the burst published.
 */
static __rte_noinline uint16_t
enh_any(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl, uint16_t n,
	uint16_t done, uint32_t ci)
{
	struct mlx5cq_session *z = MLX5CQ_SESSION(cq);
	volatile uint8_t *ring = cq->ring + cq->cqe_off;
	const uint32_t mask = cq->mask;
	const unsigned int shift = cq->stride_shift;
	const unsigned int log_n = cq->log_n;
	uint16_t i = done;
	int stop = 0;
	struct enh_tv tv;

	tv.ok = 0;

	while (i < n) {
		volatile const uint8_t *cqe;
		uint32_t idx, room, k, ents;
		uint8_t oo;

		if (z->cnt) {
			/* Opened below or by an earlier poll. */
			k = enh_rest(cq, z, &tv, cpl + i, n - i);
			i = (uint16_t)(i + k);
			if (z->cnt == 0)
				ci = z->end;
			continue;
		}
		idx = ci & mask;
		room = RTE_MIN((uint32_t)(n - i), mask + 1 - idx);
		cqe = ring + ((size_t)idx << shift);
		/* enh_const_s() (constant strides) came first. */
		k = enh_seg(cq, cqe, shift, cpl + i, room, (ci >> log_n) & 0xff,
			    ci, &tv, &ents);
		if (k) {
			ci += ents;
			i = (uint16_t)(i + k);
			continue;
		}
		/* One entry, as mlx5cq_poll_generic.c peek() and consume(). */
		if (cqe[RTE_MLX5CQ_CQE_VALIDITY] != (uint8_t)(ci >> log_n))
			break;
		rte_io_rmb();
		oo = cqe[RTE_MLX5CQ_CQE_OP_OWN];
		if (((oo >> 2) & 3) == RTE_MLX5CQ_FORMAT_COMPRESSED) {
			if (mlx5cq_session_open(cq, cqe, oo, ci, 0)) {
				stop = 1;
				break;
			}
			continue;
		}
		if ((oo >> 4) == RTE_MLX5CQ_OP_INVALID)
			break;
		mlx5cq_decode_full(cqe, oo, &cpl[i]);
		if (cpl[i].status != 0) {
			mlx5cq_count_error(cq, &cpl[i]);
		} else {
			enh_title(z, cqe, &cpl[i]);
			tv.ok = 0;
		}
		ci++;
		i++;
	}
	mlx5cq_poll_publish_inline(cq, ci, i, stop, 1);
	return i;
}

/*
 * A burst with nothing made yet (entries of 1 << shift bytes, a constant:
 * 64 or 128): the rest of an open
 * compressed CQE, then one segment from there to the burst's end or the
 * ring's, then the burst published when it stopped at the burst's end or
 * at an entry not written yet. Anything else (the ring's end, an error
 * CQE, a compressed CQE the segment does not take) goes on in enh_any()
 * with the records made so far, unpublished. Fewer values live across
 * the segment than in enh_any(), which spills most of its state at its
 * entry.
 */
static __rte_always_inline uint16_t
enh_const_s(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl, uint16_t n,
	   unsigned int shift)
{
	struct mlx5cq_session *z = MLX5CQ_SESSION(cq);
	uint32_t ci = cq->ci, i = 0, idx, room, k, ents;
	struct enh_tv tv;

	tv.ok = 0;
	if (z->cnt) {
		i = enh_rest(cq, z, &tv, cpl, n);
		/* Still open: the burst ended inside it (i == n). */
		if (z->cnt == 0)
			ci = z->end;
		if (i == n)
			goto publish;
	}
	idx = ci & cq->mask;
	room = RTE_MIN(n - i, cq->mask + 1 - idx);
	k = enh_seg(cq, cq->ring + cq->cqe_off + ((size_t)idx << shift),
		    shift, cpl + i, room, (ci >> cq->log_n) & 0xff, ci, &tv,
		    &ents);
	i += k;
	ci += ents;
	/*
	 * Short of the burst and not at an entry the device has yet to
	 * write: the segment stopped at something else, or at the ring's
	 * end (a compressed CQE it opened there is the entry at ci).
	 */
	if (i != n &&
	    cq->ring[cq->cqe_off + ((size_t)(ci & cq->mask) << shift) +
		     RTE_MLX5CQ_CQE_VALIDITY] == (uint8_t)(ci >> cq->log_n))
		return enh_any(cq, cpl, n, (uint16_t)i, ci);
publish:
	mlx5cq_poll_publish_inline(cq, ci, (uint16_t)i, 0, 1);
	return (uint16_t)i;
}

/* enh_const_s() on 64 B entries. */
static __rte_noinline uint16_t
enh_const64(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl, uint16_t n)
{
	return enh_const_s(cq, cpl, n, 6);
}

/* enh_const_s() on 128 B entries. */
static __rte_noinline uint16_t
enh_const128(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl, uint16_t n)
{
	return enh_const_s(cq, cpl, n, 7);
}

uint16_t
mlx5cq_poll_enh_avx2(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
		     uint16_t n, uint16_t done)
{
	if (unlikely(done != 0 || n == 0))
		return enh_any(cq, cpl, n, done, cq->ci + done);
	if (likely(cq->stride_shift == 6))
		return enh_const64(cq, cpl, n);
	if (cq->stride_shift == 7)
		return enh_const128(cq, cpl, n);
	return enh_any(cq, cpl, n, 0, cq->ci);
}

#ifndef __clang__
#pragma GCC pop_options
#endif

#endif /* RTE_ARCH_X86 */
