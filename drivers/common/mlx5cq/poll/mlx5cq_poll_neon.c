/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Fast poll, NEON (AArch64 table lookups): the SSE version's method with
 * Arm's instructions. Each CQE is read as four 16-byte vectors (bytes 0,
 * 16, 32, 48); the 32 first bytes of its record are two vectors made of
 * TBL lookups (big endian to host order, fields moved to their record
 * offsets; an index of 16 or more gives a zero byte) or-ed together; the
 * last 8 (opcode, status 0, rss_hash_type, ...) are one scalar store.
 * Sessions, error CQEs and the owner scan are the general loop's
 * (mlx5cq_poll_fast.h). AArch64 has NEON in its base architecture.
 */

#include "mlx5cq_private.h"

#ifdef RTE_ARCH_ARM64
#include <arm_neon.h>

#define Z 0xff /* Table index that gives a zero byte. */

/* Record bytes 0..15: byte_cnt (CQE 44), rss_hash (12), flow_tag
 * (57..59, 24 bits), metadata (36); 16..31: timestamp (48), wqe_counter
 * (60), vlan (30), hdr_type_etc (28), csum (20). Indexes into the CQE's
 * 16-byte vector named after each table.
 */
static const uint8_t neon_l0[16] = { Z, Z, Z, Z, 15, 14, 13, 12,
				     Z, Z, Z, Z, Z, Z, Z, Z };
static const uint8_t neon_l2a[16] = { 15, 14, 13, 12, Z, Z, Z, Z,
				      Z, Z, Z, Z, 7, 6, 5, 4 };
static const uint8_t neon_l3a[16] = { Z, Z, Z, Z, Z, Z, Z, Z,
				      11, 10, 9, Z, Z, Z, Z, Z };
static const uint8_t neon_l3b[16] = { 7, 6, 5, 4, 3, 2, 1, 0,
				      13, 12, Z, Z, Z, Z, Z, Z };
static const uint8_t neon_l1b[16] = { Z, Z, Z, Z, Z, Z, Z, Z,
				      Z, Z, 15, 14, 13, 12, 5, 4 };

static __rte_always_inline void
mlx5cq_fast_decode(volatile const uint8_t *c, unsigned int shift,
		   struct rte_mlx5cq_cpl *r, uint32_t k)
{
	const uint8x16_t m_l0 = vld1q_u8(neon_l0);
	const uint8x16_t m_l2a = vld1q_u8(neon_l2a);
	const uint8x16_t m_l3a = vld1q_u8(neon_l3a);
	const uint8x16_t m_l3b = vld1q_u8(neon_l3b);
	const uint8x16_t m_l1b = vld1q_u8(neon_l1b);
	uint32_t j;

	for (j = 0; j < k; j++, c += (size_t)1 << shift) {
		const uint8_t *v = (const uint8_t *)(uintptr_t)c;
		uint8x16_t l0 = vld1q_u8(v);
		uint8x16_t l1 = vld1q_u8(v + 16);
		uint8x16_t l2 = vld1q_u8(v + 32);
		uint8x16_t l3 = vld1q_u8(v + 48);
		uint8x16_t o0 = vorrq_u8(vqtbl1q_u8(l0, m_l0),
					 vorrq_u8(vqtbl1q_u8(l2, m_l2a),
						  vqtbl1q_u8(l3, m_l3a)));
		uint8x16_t o1 = vorrq_u8(vqtbl1q_u8(l3, m_l3b),
					 vqtbl1q_u8(l1, m_l1b));
		uint64_t tail = (uint64_t)(c[RTE_MLX5CQ_CQE_OP_OWN] >> 4) |
			(uint64_t)c[RTE_MLX5CQ_CQE_RX_HASH_TYPE] << 32;
		uint8_t *d = (uint8_t *)&r[j];

		vst1q_u8(d, o0);
		vst1q_u8(d + 16, o1);
		memcpy(&r[j].opcode, &tail, sizeof(tail));
	}
}

#undef Z

#define MLX5CQ_FAST_NAME mlx5cq_poll_fast_neon
#include "mlx5cq_poll_fast.h"

#endif /* RTE_ARCH_ARM64 */
