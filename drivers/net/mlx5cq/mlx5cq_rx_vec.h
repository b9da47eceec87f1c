/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The 16-byte vector operations the RX burst's SIMD stores are written
 * with (mlx5cq_rx.c, mlx5cq_rx_session.c), one set per instruction set:
 * SSE4.1 on x86 (DPDK's x86 baseline), NEON on AArch64. Both byte
 * shuffles zero a lane whose index is -1 (pshufb: the high bit set;
 * tbl: an index past 15), so one set of shuffle tables serves both;
 * the tables put big-endian CQE fields into a little-endian mbuf.
 * MLX5CQ_RX_VEC is defined where such a set exists; elsewhere the RX
 * burst writes every mbuf field by field (the reference).
 */

#ifndef MLX5CQ_RX_VEC_H_
#define MLX5CQ_RX_VEC_H_

#include <stdint.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_vect.h>

#if defined(RTE_ARCH_X86)

#define MLX5CQ_RX_VEC 1
/* The burst mode's name (rte_eth_rx_burst_mode_get()), as net/mlx5's. */
#define MLX5CQ_RX_VEC_NAME "Vector SSE"

typedef __m128i mlx5cq_v128;

/* A 16-byte shuffle table, bytes in memory order (-1: zero). */
#define MLX5CQ_V128_BYTES(b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, \
			  b11, b12, b13, b14, b15) \
	_mm_setr_epi8(b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, \
		      b12, b13, b14, b15)

static __rte_always_inline mlx5cq_v128
mlx5cq_v128_load(volatile const void *p)
{
	return _mm_loadu_si128((const __m128i *)(uintptr_t)p);
}

/* 8 bytes at p into the low half, the high half zero. */
static __rte_always_inline mlx5cq_v128
mlx5cq_v128_load8(volatile const void *p)
{
	return _mm_loadl_epi64((const __m128i *)(uintptr_t)p);
}

/* A 16-byte aligned store. */
static __rte_always_inline void
mlx5cq_v128_store(uintptr_t p, mlx5cq_v128 v)
{
	_mm_store_si128((__m128i *)p, v);
}

static __rte_always_inline mlx5cq_v128
mlx5cq_v128_zero(void)
{
	return _mm_setzero_si128();
}

static __rte_always_inline mlx5cq_v128
mlx5cq_v128_shuf(mlx5cq_v128 v, mlx5cq_v128 tbl)
{
	return _mm_shuffle_epi8(v, tbl);
}

static __rte_always_inline mlx5cq_v128
mlx5cq_v128_or(mlx5cq_v128 a, mlx5cq_v128 b)
{
	return _mm_or_si128(a, b);
}

/* Lane-wise sum of 32-bit lanes. */
static __rte_always_inline mlx5cq_v128
mlx5cq_v128_add32(mlx5cq_v128 a, mlx5cq_v128 b)
{
	return _mm_add_epi32(a, b);
}

/* Bytes 0..7: lo, 8..15: hi. */
static __rte_always_inline mlx5cq_v128
mlx5cq_v128_set64(uint64_t hi, uint64_t lo)
{
	return _mm_set_epi64x((long long)hi, (long long)lo);
}

/* 32-bit lanes 0..3, lane 0 at bytes 0..3. */
static __rte_always_inline mlx5cq_v128
mlx5cq_v128_set32(uint32_t l0, uint32_t l1, uint32_t l2, uint32_t l3)
{
	return _mm_setr_epi32((int)l0, (int)l1, (int)l2, (int)l3);
}

/* Lane-wise sum of 64-bit lanes. */
static __rte_always_inline mlx5cq_v128
mlx5cq_v128_add64(mlx5cq_v128 a, mlx5cq_v128 b)
{
	return _mm_add_epi64(a, b);
}

/* Bytes 0..7 (lo) or 8..15 (hi) of v to p, an 8-byte aligned store. */
static __rte_always_inline void
mlx5cq_v128_store_lo64(uintptr_t p, mlx5cq_v128 v)
{
	_mm_storel_epi64((__m128i *)p, v);
}

static __rte_always_inline void
mlx5cq_v128_store_hi64(uintptr_t p, mlx5cq_v128 v)
{
	_mm_storeh_pd((double *)p, _mm_castsi128_pd(v));
}

/* 32-bit lane n (a constant) of v replaced by x. */
#define mlx5cq_v128_ins32(v, x, n) _mm_insert_epi32(v, (int)(x), n)

/* 32-bit lane n (a constant) of v. */
#define mlx5cq_v128_lane32(v, n) ((uint32_t)_mm_extract_epi32(v, n))

#elif defined(RTE_ARCH_ARM64) && RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN

#define MLX5CQ_RX_VEC 1
#define MLX5CQ_RX_VEC_NAME "Vector Neon"

typedef uint8x16_t mlx5cq_v128;

#define MLX5CQ_V128_BYTES(b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, \
			  b11, b12, b13, b14, b15) \
	vld1q_u8((const uint8_t[16]) { (uint8_t)(b0), (uint8_t)(b1), \
		(uint8_t)(b2), (uint8_t)(b3), (uint8_t)(b4), (uint8_t)(b5), \
		(uint8_t)(b6), (uint8_t)(b7), (uint8_t)(b8), (uint8_t)(b9), \
		(uint8_t)(b10), (uint8_t)(b11), (uint8_t)(b12), \
		(uint8_t)(b13), (uint8_t)(b14), (uint8_t)(b15) })

static __rte_always_inline mlx5cq_v128
mlx5cq_v128_load(volatile const void *p)
{
	return vld1q_u8((const uint8_t *)(uintptr_t)p);
}

static __rte_always_inline mlx5cq_v128
mlx5cq_v128_load8(volatile const void *p)
{
	return vcombine_u8(vld1_u8((const uint8_t *)(uintptr_t)p),
			   vdup_n_u8(0));
}

static __rte_always_inline void
mlx5cq_v128_store(uintptr_t p, mlx5cq_v128 v)
{
	vst1q_u8((uint8_t *)p, v);
}

static __rte_always_inline mlx5cq_v128
mlx5cq_v128_zero(void)
{
	return vdupq_n_u8(0);
}

static __rte_always_inline mlx5cq_v128
mlx5cq_v128_shuf(mlx5cq_v128 v, mlx5cq_v128 tbl)
{
	return vqtbl1q_u8(v, tbl);
}

static __rte_always_inline mlx5cq_v128
mlx5cq_v128_or(mlx5cq_v128 a, mlx5cq_v128 b)
{
	return vorrq_u8(a, b);
}

static __rte_always_inline mlx5cq_v128
mlx5cq_v128_add32(mlx5cq_v128 a, mlx5cq_v128 b)
{
	return vreinterpretq_u8_u32(vaddq_u32(vreinterpretq_u32_u8(a),
					      vreinterpretq_u32_u8(b)));
}

static __rte_always_inline mlx5cq_v128
mlx5cq_v128_set64(uint64_t hi, uint64_t lo)
{
	return vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(lo),
						 vcreate_u64(hi)));
}

static __rte_always_inline mlx5cq_v128
mlx5cq_v128_set32(uint32_t l0, uint32_t l1, uint32_t l2, uint32_t l3)
{
	const uint32_t l[4] = { l0, l1, l2, l3 };

	return vreinterpretq_u8_u32(vld1q_u32(l));
}

static __rte_always_inline mlx5cq_v128
mlx5cq_v128_add64(mlx5cq_v128 a, mlx5cq_v128 b)
{
	return vreinterpretq_u8_u64(vaddq_u64(vreinterpretq_u64_u8(a),
					      vreinterpretq_u64_u8(b)));
}

static __rte_always_inline void
mlx5cq_v128_store_lo64(uintptr_t p, mlx5cq_v128 v)
{
	vst1_u8((uint8_t *)p, vget_low_u8(v));
}

static __rte_always_inline void
mlx5cq_v128_store_hi64(uintptr_t p, mlx5cq_v128 v)
{
	vst1_u8((uint8_t *)p, vget_high_u8(v));
}

#define mlx5cq_v128_ins32(v, x, n) \
	vreinterpretq_u8_u32(vsetq_lane_u32((uint32_t)(x), \
					    vreinterpretq_u32_u8(v), n))

#define mlx5cq_v128_lane32(v, n) \
	((uint32_t)vgetq_lane_u32(vreinterpretq_u32_u8(v), n))

#endif

#endif /* MLX5CQ_RX_VEC_H_ */
