/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Fast poll, AVX2, basic layout (and no compression): the choice of a
 * burst's path, runs of plain CQEs four at a time, error CQEs, and the
 * general loop (mlx5cq_poll_fast.h). Below it: the records
 * (mlx5cq_poll_avx2.h), whole sessions and the first turn of a long one
 * (mlx5cq_session_avx2.h, inline), the other turns of an open session
 * (mlx5cq_session_avx2.c), error records (mlx5cq_decode.c) and the generic
 * session open (mlx5cq_session.c). Compiled for AVX2 here only; chosen at run
 * time (mlx5cq_vec.c).
 */

#include "mlx5cq_private.h"

#ifdef RTE_ARCH_X86
#include <immintrin.h>

#include "mlx5cq_session_avx2.h"

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
 * CQEs instead of a byte-gathering scan and a second pass. Returns the
 * number decoded.
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
 * From c, up to left entries (none past the ring's end, parity par): the
 * runs of plain CQEs (mlx5cq_fast_run_avx2()), the error CQEs and the
 * basic-layout sessions that fit (mlx5cq_session_whole_avx2(); g: the masks of
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
			s = mlx5cq_session_whole_avx2(g, c, shift, oo, r, left - k);
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
	const struct zg_masks *g = mlx5cq_zg_by_comp[cq->comp &
					      RTE_MLX5CQ_COMP_FORMAT_MASK];
	uint32_t minis;

	/*
	 * No compression on the CQ: mlx5cq_session_open() logs it; a session
	 * longer than the burst: opened, mlx5cq_session_burst_avx2().
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
#define MLX5CQ_FAST_SESSION_BURST mlx5cq_session_burst_avx2
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
mlx5cq_poll_const_s(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
		   uint16_t n, unsigned int shift)
{
	const uint32_t ci = cq->ci, mask = cq->mask, idx = ci & mask;
	const unsigned int log_n = cq->log_n;
	const uint32_t room = RTE_MIN((uint32_t)n, mask + 1 - idx);
	volatile const uint8_t *c = cq->ring + cq->cqe_off +
				    ((size_t)idx << shift);
	uint32_t k, minis;

	k = mlx5cq_seg_loop_avx2(cq, mlx5cq_zg_by_comp[cq->comp &
					       RTE_MLX5CQ_COMP_FORMAT_MASK],
				 c, shift, cpl, room, (ci >> log_n) & 1,
				 &minis);
	/*
	 * The publication of mlx5cq_poll_publish_inline() without its
	 * branches for an empty or stopped poll and an unmoved index: k is
	 * not 0 here, so those branches are dead weight on the hot path.
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
		 * more lines are asked for. Only then: on bursts of plain
		 * CQEs the loads themselves train the prefetcher and the
		 * extra lines only take load ports.
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

/* mlx5cq_poll_const_s() on 64 B entries. */
static __rte_noinline uint16_t
mlx5cq_poll_const64_avx2(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
		      uint16_t n)
{
	return mlx5cq_poll_const_s(cq, cpl, n, 6);
}

/* mlx5cq_poll_const_s() on 128 B entries. */
static __rte_noinline uint16_t
mlx5cq_poll_const128_avx2(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
			 uint16_t n)
{
	return mlx5cq_poll_const_s(cq, cpl, n, 7);
}

/*
 * A burst (n a multiple of 8; entries of 1 << shift bytes, a constant: 64
 * or 128) that an open basic-layout session fills whole, from the start
 * of an array past its first one (every path that opens a session reads
 * some of it in the same burst; a session still at its first array goes
 * to the general loop, so the arrays' loop has one variant here and fewer
 * registers spill), with no wrap: zg_turn(),
 * as mlx5cq_session_burst_avx2() in the general loop, then the burst
 * published; a session that ends with the burst is closed and the
 * consumer index moves past it (doorbell record after the barrier), with
 * the prefetch of the next burst's lines the general loop makes (64 B
 * entries). Any other burst goes to the general loop.
 */
static __rte_always_inline uint16_t
mlx5cq_session_turn_s(struct rte_mlx5cq *cq, struct mlx5cq_session *z,
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
		 * mlx5cq_poll_fast.h: the next burst's first eight lines
		 * (fewer leave a flushed ring's next session waiting on
		 * memory).
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
 * (what mlx5cq_session_open() and the title's record do, the title's record
 * made in registers and stored once for the next turns) and its first n
 * mini-CQEs decoded from the templates, the consumer index staying at
 * the title. Any other burst, and a title that needs mlx5cq_session_open()'s
 * checks and log line, goes to the general loop.
 */
static __rte_always_inline uint16_t
mlx5cq_session_open_s(struct rte_mlx5cq *cq, volatile const uint8_t *c,
		   uint8_t oo, uint32_t cnt, struct rte_mlx5cq_cpl *cpl,
		   uint16_t n, unsigned int shift)
{
	struct mlx5cq_session *z = MLX5CQ_SESSION(cq);
	const uint32_t ci = cq->ci, mask = cq->mask, idx = ci & mask;
	const unsigned int op = oo >> 4;
	const struct zg_masks *g =
		mlx5cq_zg_by_comp[cq->comp & RTE_MLX5CQ_COMP_FORMAT_MASK];
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
	 * after them would wait for those.
	 */
	_mm256_storeu_si256((__m256i *)(void *)&z->trec, rec);
	memcpy(&z->trec.opcode, &tail, sizeof(tail));
	z->wqe_next = (uint16_t)(_mm256_extract_epi16(rec, 12) + n);
	z->cnt = cnt;
	z->ai = n;
	z->ca = mlx5cq_session_array_at(ci, ci + 1, n / 8u);
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
	 * session's: a turn is too short for the hardware prefetcher to
	 * run ahead of a flushed ring. One loop, not eight unrolled prefetch
	 * instructions (they queue behind the turn's stores). Not on 128 B
	 * entries: at that stride the lines of the next turn are already
	 * streaming and the prefetches only compete with the turn's loads.
	 */
	if (shift == 6)
		mlx5cq_prefetch8(cq->ring + cq->cqe_off, cq->mask, 6, z->ca);
	return n;
}

/* mlx5cq_session_turn_s() on 64 B entries. */
static __rte_noinline uint16_t
mlx5cq_session_turn_avx2(struct rte_mlx5cq *cq, struct mlx5cq_session *z,
		      struct rte_mlx5cq_cpl *cpl, uint16_t n)
{
	return mlx5cq_session_turn_s(cq, z, cpl, n, 6);
}

/* mlx5cq_session_turn_s() on 128 B entries. */
static __rte_noinline uint16_t
mlx5cq_session_turn128_avx2(struct rte_mlx5cq *cq, struct mlx5cq_session *z,
			 struct rte_mlx5cq_cpl *cpl, uint16_t n)
{
	return mlx5cq_session_turn_s(cq, z, cpl, n, 7);
}

/* mlx5cq_session_open_s() on 64 B entries. */
static __rte_noinline uint16_t
mlx5cq_session_open_avx2(struct rte_mlx5cq *cq, volatile const uint8_t *c,
		      uint8_t oo, uint32_t cnt, struct rte_mlx5cq_cpl *cpl,
		      uint16_t n)
{
	return mlx5cq_session_open_s(cq, c, oo, cnt, cpl, n, 6);
}

/* mlx5cq_session_open_s() on 128 B entries. */
static __rte_noinline uint16_t
mlx5cq_session_open128_avx2(struct rte_mlx5cq *cq, volatile const uint8_t *c,
			 uint8_t oo, uint32_t cnt, struct rte_mlx5cq_cpl *cpl,
			 uint16_t n)
{
	return mlx5cq_session_open_s(cq, c, oo, cnt, cpl, n, 7);
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
			return mlx5cq_session_turn_avx2(cq, MLX5CQ_SESSION(cq), cpl,
						     n);
		return mlx5cq_session_turn128_avx2(cq, MLX5CQ_SESSION(cq), cpl, n);
	}
	if (cq->comp == 0 || (n & 7) != 0)
		goto fixed;
	c = rte_mlx5cq__cqe(cq, cq->ci);
	oo = c[RTE_MLX5CQ_CQE_OP_OWN];
	/* An owned compressed CQE whose session outlasts the burst. */
	if (((oo >> 2) & 3) != RTE_MLX5CQ_FORMAT_COMPRESSED ||
	    ((oo ^ (cq->ci >> cq->log_n)) & 1) != 0)
		goto fixed;
	rte_io_rmb();
	cnt = rte_mlx5cq__be32(c, RTE_MLX5CQ_CQE_BYTE_CNT);
	if (cnt <= n)
		goto fixed;
	if (shift == 6)
		return mlx5cq_session_open_avx2(cq, c, oo, cnt, cpl, n);
	return mlx5cq_session_open128_avx2(cq, c, oo, cnt, cpl, n);
fixed:
	if (shift == 6)
		return mlx5cq_poll_const64_avx2(cq, cpl, n);
	return mlx5cq_poll_const128_avx2(cq, cpl, n);
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
 * (mlx5cq_session_open_s()) and the next ones (mlx5cq_session_turn_s()), and
 * the other bursts of plain CQEs and whole sessions (mlx5cq_poll_const_s())
 * are made in small frames, one copy of each for either stride (128 B
 * entries behind one more call); the rest in the general loop, whose
 * frame (its inlined runs and whole sessions keep the CQ's geometry on
 * the stack), calls and end-of-burst prefetch would otherwise cost a
 * common burst more instructions than its records.
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
