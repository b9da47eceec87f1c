/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Fast poll, SSE4.2 (SSSE3 byte shuffles): each CQE is read as four
 * 16-byte vectors (bytes 0, 16, 32, 48); the 32 first bytes of its record
 * are two vectors made of byte shuffles (big endian to host order, fields
 * moved to their record offsets, zeros where the record has none) or-ed
 * together; the last 8 (opcode, status 0, rss_hash_type, ...) are one
 * scalar store. DPDK's baseline on x86 includes SSE4.2.
 */

#include "mlx5cq_private.h"

#ifdef RTE_ARCH_X86
#include <tmmintrin.h>

#define Z -1 /* Shuffle index that writes a zero byte. */

static __rte_always_inline void
mlx5cq_fast_decode(volatile const uint8_t *c, unsigned int shift,
		   struct rte_mlx5cq_cpl *r, uint32_t k)
{
	/* Record bytes 0..15: byte_cnt (CQE 44), rss_hash (12), flow_tag
	 * (57..59, 24 bits), metadata (36).
	 */
	const __m128i m_l0 = _mm_setr_epi8(Z, Z, Z, Z, 15, 14, 13, 12,
					   Z, Z, Z, Z, Z, Z, Z, Z);
	const __m128i m_l2a = _mm_setr_epi8(15, 14, 13, 12, Z, Z, Z, Z,
					    Z, Z, Z, Z, 7, 6, 5, 4);
	const __m128i m_l3a = _mm_setr_epi8(Z, Z, Z, Z, Z, Z, Z, Z,
					    11, 10, 9, Z, Z, Z, Z, Z);
	/* Record bytes 16..31: timestamp (48), wqe_counter (60), vlan (30),
	 * hdr_type_etc (28), csum (20).
	 */
	const __m128i m_l3b = _mm_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0,
					    13, 12, Z, Z, Z, Z, Z, Z);
	const __m128i m_l1b = _mm_setr_epi8(Z, Z, Z, Z, Z, Z, Z, Z,
					    Z, Z, 15, 14, 13, 12, 5, 4);
	uint32_t j;

	for (j = 0; j < k; j++, c += (size_t)1 << shift) {
		const __m128i *v = (const __m128i *)(uintptr_t)c;
		__m128i l0 = _mm_loadu_si128(v);
		__m128i l1 = _mm_loadu_si128(v + 1);
		__m128i l2 = _mm_loadu_si128(v + 2);
		__m128i l3 = _mm_loadu_si128(v + 3);
		__m128i o0 = _mm_or_si128(_mm_shuffle_epi8(l0, m_l0),
			_mm_or_si128(_mm_shuffle_epi8(l2, m_l2a),
				     _mm_shuffle_epi8(l3, m_l3a)));
		__m128i o1 = _mm_or_si128(_mm_shuffle_epi8(l3, m_l3b),
					  _mm_shuffle_epi8(l1, m_l1b));
		uint64_t tail = (uint64_t)(c[RTE_MLX5CQ_CQE_OP_OWN] >> 4) |
			(uint64_t)c[RTE_MLX5CQ_CQE_RX_HASH_TYPE] << 32;
		__m128i *d = (__m128i *)(void *)&r[j];

		_mm_storeu_si128(d, o0);
		_mm_storeu_si128(d + 1, o1);
		memcpy(&r[j].opcode, &tail, sizeof(tail));
	}
}

#define MLX5CQ_FAST_NAME mlx5cq_poll_fast_sse
#include "mlx5cq_poll_fast.h"

#endif /* RTE_ARCH_X86 */
