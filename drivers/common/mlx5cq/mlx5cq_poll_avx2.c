/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Fast poll, AVX2: each CQE is read as two 32-byte vectors (bytes 0..31,
 * 32..63) and its bytes 48..63 once more broadcast to both lanes. Byte
 * shuffles work inside 16-byte lanes; the record's first 32 bytes are
 * laid out so that each lane of a shuffle feeds the same lane of the
 * record: lane 0 (record bytes 0..15) takes rss_hash from CQE lane 0,
 * byte_cnt and metadata from CQE lane 2, flow_tag from the broadcast CQE
 * lane 3; lane 1 (record bytes 16..31) takes csum, hdr_type_etc and vlan
 * from CQE lane 1, timestamp and wqe_counter from CQE lane 3. Three
 * shuffles, two ors and one 32-byte store per record, plus one scalar
 * 8-byte store of its tail. Compiled for AVX2 here only; chosen at run
 * time (mlx5cq_vec.c).
 */

#include "mlx5cq_private.h"

#ifdef RTE_ARCH_X86
#include <immintrin.h>

#pragma GCC push_options
#pragma GCC target("avx2")

#define Z -1 /* Shuffle index that writes a zero byte. */

static __rte_always_inline void
mlx5cq_fast_decode(volatile const uint8_t *c, unsigned int shift,
		   struct rte_mlx5cq_cpl *r, uint32_t k)
{
	/* Indexes are inside each 16-byte lane. */
	const __m256i m_lo = _mm256_setr_epi8(
		/* lane 0 = CQE 0..15 -> record 0..15: rss_hash (12) */
		Z, Z, Z, Z, 15, 14, 13, 12, Z, Z, Z, Z, Z, Z, Z, Z,
		/* lane 1 = CQE 16..31 -> record 16..31: vlan (30),
		 * hdr_type_etc (28), csum (20) */
		Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, 15, 14, 13, 12, 5, 4);
	const __m256i m_hi = _mm256_setr_epi8(
		/* lane 0 = CQE 32..47 -> record 0..15: byte_cnt (44),
		 * metadata (36) */
		15, 14, 13, 12, Z, Z, Z, Z, Z, Z, Z, Z, 7, 6, 5, 4,
		/* lane 1 = CQE 48..63 -> record 16..31: timestamp (48),
		 * wqe_counter (60) */
		7, 6, 5, 4, 3, 2, 1, 0, 13, 12, Z, Z, Z, Z, Z, Z);
	const __m256i m_bc = _mm256_setr_epi8(
		/* lane 0 = CQE 48..63 -> record 8..11: flow_tag (57..59) */
		Z, Z, Z, Z, Z, Z, Z, Z, 11, 10, 9, Z, Z, Z, Z, Z,
		Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z);
	uint32_t j;

	for (j = 0; j < k; j++, c += (size_t)1 << shift) {
		const __m256i *v = (const __m256i *)(uintptr_t)c;
		__m256i lo = _mm256_loadu_si256(v);
		__m256i hi = _mm256_loadu_si256(v + 1);
		__m256i bc = _mm256_broadcastsi128_si256(_mm_loadu_si128(
			(const __m128i *)(uintptr_t)(c + 48)));
		__m256i rec = _mm256_or_si256(
			_mm256_or_si256(_mm256_shuffle_epi8(lo, m_lo),
					_mm256_shuffle_epi8(hi, m_hi)),
			_mm256_shuffle_epi8(bc, m_bc));
		uint64_t tail = (uint64_t)(c[RTE_MLX5CQ_CQE_OP_OWN] >> 4) |
			(uint64_t)c[RTE_MLX5CQ_CQE_RX_HASH_TYPE] << 32;

		_mm256_storeu_si256((__m256i *)(void *)&r[j], rec);
		memcpy(&r[j].opcode, &tail, sizeof(tail));
	}
}

#define MLX5CQ_FAST_NAME mlx5cq_poll_fast_avx2
#include "mlx5cq_poll_fast.h"

#pragma GCC pop_options

#endif /* RTE_ARCH_X86 */
