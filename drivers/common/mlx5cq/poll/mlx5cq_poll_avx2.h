/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef MLX5CQ_POLL_AVX2_H_
#define MLX5CQ_POLL_AVX2_H_

/*
 * Records from CQEs and mini-CQEs with AVX2, shared by the AVX2 polls
 * (mlx5cq_poll_avx2.c: basic layout; mlx5cq_poll_enh_avx2.c: enhanced
 * layout); the functions here are compiled for AVX2 whatever the includer.
 *
 * A CQE is read as two 32-byte vectors (bytes 0..31, 32..63) and its
 * bytes 48..63 once more broadcast to both lanes. Byte shuffles work
 * inside 16-byte lanes; the record's first 32 bytes are laid out so that
 * each lane of a shuffle feeds the same lane of the record: lane 0 (record
 * bytes 0..15) takes rss_hash from CQE lane 0, byte_cnt and metadata from
 * CQE lane 2, flow_tag from the broadcast CQE lane 3; lane 1 (record bytes
 * 16..31) takes csum, hdr_type_etc and vlan from CQE lane 1, timestamp and
 * wqe_counter from CQE lane 3. Three shuffles, two ors and one 32-byte
 * store per record, plus one scalar 8-byte store of its tail.
 */

#include "mlx5cq_private.h"

#ifdef RTE_ARCH_X86
#include <immintrin.h>

#define Z -1 /* Shuffle index that writes a zero byte. */

/*
 * Records of mini-CQEs: the mini (8 bytes) is broadcast to the four
 * quadwords, one shuffle puts its bytes at their record offsets in both
 * lanes (byte swaps included; index -1 gives a zero), one blend takes
 * them over the title's template record; HASH and CSUM minis imply the
 * WQE counter, kept in the template and incremented per mini. The same
 * fields as session_records() (mlx5cq_session.c), byte for byte. Masks by format:
 * PRM HASH, CSUM, FTAG_STRIDX, CSUM_STRIDX, L34H_STRIDX, requester.
 */
#define ZM_FORMATS 6
/*
 * Per format, the record offset r (0..31) of each mini byte (shuf: the
 * lane-relative source index, -1 for a zero byte) and which record bytes
 * come from the mini (take: -128) rather than the title; built at load
 * time from the format table of rte_mlx5cq_prm.h (mlx5cq_session_avx2.c).
 */
extern int8_t mlx5cq_zm_shuf[ZM_FORMATS][32];
extern int8_t mlx5cq_zm_take[ZM_FORMATS][32];

#ifndef __clang__
#pragma GCC push_options
#pragma GCC target("avx2,tune=haswell")
#endif

/*
 * Record bytes 0..31 of a CQE from its bytes 0..31 (lo), 32..63 (hi) and
 * 48..63 in both lanes (bc). Indexes are inside each 16-byte lane.
 */
static __rte_always_inline __m256i
mlx5cq_fast_rec(__m256i lo, __m256i hi, __m256i bc)
{
	const __m256i m_lo = _mm256_setr_epi8(
		/* lane 0 = CQE 0..15 -> record 0..15: rss_hash (12) */
		Z, Z, Z, Z, 15, 14, 13, 12, Z, Z, Z, Z, Z, Z, Z, Z,
		/* lane 1 = CQE 16..31 -> record 16..31: vlan (30),
		 * hdr_type_etc (28), csum (20)
		 */
		Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, 15, 14, 13, 12, 5, 4);
	const __m256i m_hi = _mm256_setr_epi8(
		/* lane 0 = CQE 32..47 -> record 0..15: byte_cnt (44),
		 * metadata (36)
		 */
		15, 14, 13, 12, Z, Z, Z, Z, Z, Z, Z, Z, 7, 6, 5, 4,
		/* lane 1 = CQE 48..63 -> record 16..31: timestamp (48),
		 * wqe_counter (60)
		 */
		7, 6, 5, 4, 3, 2, 1, 0, 13, 12, Z, Z, Z, Z, Z, Z);
	const __m256i m_bc = _mm256_setr_epi8(
		/* lane 0 = CQE 48..63 -> record 8..11: flow_tag (57..59) */
		Z, Z, Z, Z, Z, Z, Z, Z, 11, 10, 9, Z, Z, Z, Z, Z,
		Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z);

	return _mm256_or_si256(_mm256_or_si256(_mm256_shuffle_epi8(lo, m_lo),
					       _mm256_shuffle_epi8(hi, m_hi)),
			       _mm256_shuffle_epi8(bc, m_bc));
}

/*
 * Record of the CQE at c whose bytes 48..63 are t (opcode: op, the high
 * nibble of op_own; a step of four takes its four in one shift and one
 * mask, mlx5cq_fast_step4()).
 */
static __rte_always_inline void
mlx5cq_fast_one(volatile const uint8_t *c, __m128i t, uint32_t op,
		struct rte_mlx5cq_cpl *r)
{
	const __m256i *v = (const __m256i *)(uintptr_t)c;
	__m256i rec = mlx5cq_fast_rec(_mm256_loadu_si256(v),
				      _mm256_loadu_si256(v + 1),
				      _mm256_broadcastsi128_si256(t));
	uint64_t tail = (uint64_t)op |
		(uint64_t)c[RTE_MLX5CQ_CQE_RX_HASH_TYPE] << 32;

	_mm256_storeu_si256((__m256i *)(void *)r, rec);
	memcpy(&r->opcode, &tail, sizeof(tail));
}

static __rte_always_inline void
mlx5cq_fast_decode(volatile const uint8_t *c, unsigned int shift,
		   struct rte_mlx5cq_cpl *r, uint32_t k)
{
	uint32_t j;

	for (j = 0; j < k; j++, c += (size_t)1 << shift)
		mlx5cq_fast_one(c, _mm_loadu_si128((const __m128i *)
						   (uintptr_t)(c + 48)),
				c[RTE_MLX5CQ_CQE_OP_OWN] >> 4, &r[j]);
}

/*
 * One step of four CQEs from c (stride st): the last 16 bytes of each
 * (op_own is byte 63, the enhanced layout's validity byte 62) in t[],
 * one 16-byte load per CQE (a 16-byte aligned load is single-copy atomic
 * on x86 CPUs with AVX, and the device writes those bytes last: an owned
 * CQE's last 16 bytes are whole); returned: their bytes 62 of CQEs 0..3
 * in bytes 8..11, their op_own in bytes 12..15 (three unpacks).
 */
static __rte_always_inline __m128i
mlx5cq_fast_tails4(volatile const uint8_t *c, size_t st, __m128i t[4])
{
	t[0] = _mm_loadu_si128((const __m128i *)(uintptr_t)(c + 48));
	t[1] = _mm_loadu_si128((const __m128i *)(uintptr_t)(c + st + 48));
	t[2] = _mm_loadu_si128((const __m128i *)(uintptr_t)(c + 2 * st + 48));
	t[3] = _mm_loadu_si128((const __m128i *)(uintptr_t)(c + 3 * st + 48));
	return _mm_unpackhi_epi16(_mm_unpackhi_epi8(t[0], t[1]),
				  _mm_unpackhi_epi8(t[2], t[3]));
}

/*
 * mlx5cq_fast_bad4() on the vector of mlx5cq_fast_tails4() (d: op_own of
 * CQEs 0..3 in bytes 12..15; parv: the pass's owner bit in every byte),
 * by two 16-entry tables, one per nibble: the low one bad for the owner
 * bit set or format 3, the high one for opcodes 0xd..0xf. Returns the
 * four bytes, nonzero where not plain; *op: the four opcodes, one a byte.
 * Nine instructions for what the scalar test and the opcodes' extraction
 * took seventeen.
 */
static __rte_always_inline uint32_t
mlx5cq_fast_bad4v(__m128i d, __m128i parv, uint32_t *op)
{
	const __m128i lo_bad = _mm_setr_epi8(0, 1, 0, 1, 0, 1, 0, 1,
					     0, 1, 0, 1, 1, 1, 1, 1);
	const __m128i hi_bad = _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0,
					     0, 0, 0, 0, 0, 1, 1, 1);
	const __m128i nib = _mm_set1_epi8(0x0f);
	const __m128i x = _mm_xor_si128(d, parv);
	const __m128i hi = _mm_and_si128(_mm_srli_epi16(x, 4), nib);
	const __m128i bad = _mm_or_si128(
		_mm_shuffle_epi8(lo_bad, _mm_and_si128(x, nib)),
		_mm_shuffle_epi8(hi_bad, hi));

	*op = (uint32_t)_mm_extract_epi32(hi, 3);
	return (uint32_t)_mm_extract_epi32(bad, 3);
}

/*
 * Records of the first n (1..4) CQEs of a step (mlx5cq_fast_tails4():
 * tails t; op: their opcodes, one a byte), after the read barrier.
 */
static __rte_always_inline void
mlx5cq_fast_step4(volatile const uint8_t *c, size_t st, const __m128i t[4],
		  uint32_t op, struct rte_mlx5cq_cpl *r, uint32_t n)
{
	uint32_t j;

	if (likely(n == 4)) {
		mlx5cq_fast_one(c, t[0], op & 0xff, &r[0]);
		mlx5cq_fast_one(c + st, t[1], (op >> 8) & 0xff, &r[1]);
		mlx5cq_fast_one(c + 2 * st, t[2], (op >> 16) & 0xff, &r[2]);
		mlx5cq_fast_one(c + 3 * st, t[3], op >> 24, &r[3]);
		return;
	}
	for (j = 0; j < n; j++)
		mlx5cq_fast_one(c + j * st, j == 0 ? t[0] : j == 1 ? t[1] :
				t[2], (op >> (8 * j)) & 0xff, &r[j]);
}

/*
 * The record of the mini-CQE at m over a template whose bytes that come
 * from mini-CQEs are zero (tmpl: record bytes 0..31; tail: bytes 32..39):
 * shuf puts the mini's bytes at their record offsets and zeros elsewhere,
 * an or joins them.
 */
static __rte_always_inline void
zm_or_one(__m256i tmpl, uint64_t tail, __m256i shuf,
	  volatile const uint8_t *m, struct rte_mlx5cq_cpl *r)
{
	const __m256i q = _mm256_broadcastq_epi64(_mm_loadl_epi64(
			(const __m128i *)(uintptr_t)m));

	_mm256_storeu_si256((__m256i *)(void *)r,
			    _mm256_or_si256(tmpl, _mm256_shuffle_epi8(q, shuf)));
	memcpy(&r->opcode, &tail, sizeof(tail));
}

/*
 * What the records of a title's mini-CQEs share, in registers: the
 * template (record bytes 0..31 with the bytes that come from mini-CQEs
 * cleared and the next mini's WQE counter; it moves by one per mini-CQE:
 * one, zero for the formats that carry their own), the tail (bytes
 * 32..39) and the format's shuffle.
 */
struct zm_tv {
	__m256i tmpl;
	__m256i shuf;
	__m256i one;
	uint64_t tail;
};

/*
 * v from the title's record (rec: bytes 0..31, tail: bytes 32..39), the
 * mini-CQE format f (0..ZM_FORMATS - 1) and the first mini's WQE counter
 * w0.
 */
static __rte_always_inline void
zm_tv_make(__m256i rec, uint64_t tail, unsigned int f, uint16_t w0,
	   struct zm_tv *v)
{
	/* zm_take: -128 at the mini's bytes, a whole byte mask from it. */
	const __m256i take_m = _mm256_cmpgt_epi8(_mm256_setzero_si256(),
		_mm256_loadu_si256((const void *)mlx5cq_zm_take[f]));

	v->shuf = _mm256_loadu_si256((const void *)mlx5cq_zm_shuf[f]);
	/* HASH, CSUM: the WQE counter implied, one more per mini. */
	v->one = _mm256_insert_epi16(_mm256_setzero_si256(), f <= 1, 12);
	v->tmpl = _mm256_andnot_si256(take_m,
				      _mm256_insert_epi16(rec, (short)w0, 12));
	v->tail = tail;
}

/*
 * Records of take mini-CQEs at m over the template of v (zm_or_one()
 * each), which moves past them; inline: a call would spill every ymm.
 */
static __rte_always_inline void
zm_tv_records(struct zm_tv *v, volatile const uint8_t *m,
	      struct rte_mlx5cq_cpl *c, uint32_t take)
{
	__m256i tmpl = v->tmpl;
	uint32_t j;

	for (j = 0; j < take; j++, m += 8) {
		zm_or_one(tmpl, v->tail, v->shuf, m, c + j);
		tmpl = _mm256_add_epi16(tmpl, v->one);
	}
	v->tmpl = tmpl;
}

/*
 * Records of take mini-CQEs at m from the title's record t in memory
 * (format fmt, past L34H_STRIDX the requester's), w0 the first WQE.
 */
static __rte_always_inline void
zm_records(const struct rte_mlx5cq_cpl *t, unsigned int fmt,
	   volatile const uint8_t *m, struct rte_mlx5cq_cpl *c,
	   uint32_t take, uint16_t w0)
{
	struct zm_tv v;
	uint64_t tail;

	memcpy(&tail, &t->opcode, sizeof(tail));
	zm_tv_make(_mm256_loadu_si256((const void *)t), tail,
		   RTE_MIN(fmt, ZM_FORMATS - 1u), w0, &v);
	zm_tv_records(&v, m, c, take);
}

#ifndef __clang__
#pragma GCC pop_options
#endif

#endif /* RTE_ARCH_X86 */

#endif /* MLX5CQ_POLL_AVX2_H_ */
