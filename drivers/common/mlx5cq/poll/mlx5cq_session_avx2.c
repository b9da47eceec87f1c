/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Compressed sessions with AVX2, basic layout: the mask tables of the
 * groups of four records (filled at load time), the records of mini-CQEs
 * for the generic session burst (mlx5cq_session.c) and the turns of an open
 * session for the AVX2 fast poll (MLX5CQ_FAST_SESSION_BURST of
 * mlx5cq_poll_avx2.c). Compiled for AVX2 here only; chosen at run time
 * (mlx5cq_vec.c). Calls nothing above it.
 */

#include <stddef.h>
#include <string.h>

#include "mlx5cq_private.h"

#ifdef RTE_ARCH_X86
#include <immintrin.h>

#include "mlx5cq_session_avx2.h"

int8_t mlx5cq_zm_shuf[ZM_FORMATS][32] __rte_aligned(32);
int8_t mlx5cq_zm_take[ZM_FORMATS][32] __rte_aligned(32);
struct zg_masks mlx5cq_zg_masks[ZM_FORMATS] __rte_aligned(32);
const struct zg_masks *mlx5cq_zg_by_comp[RTE_MLX5CQ_COMP_FORMAT_MASK + 1];

#define ZM_TAKE -128 /* A record byte of the mini (shuffle result). */

/*
 * Record bytes [rec, rec + n) of format f: the mini's bytes be[0..n),
 * most significant first (Z: a zero byte), stored in host (little endian)
 * order.
 */
static void
zm_put(unsigned int f, size_t rec, unsigned int n, const int8_t *be)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		mlx5cq_zm_shuf[f][rec + i] = be[n - 1 - i];
		mlx5cq_zm_take[f][rec + i] = ZM_TAKE;
	}
}

/*
 * The shuffle and take tables from the format table
 * (RTE_MLX5CQ_MINI_FIELDS()) and the mini-CQE offsets of
 * rte_mlx5cq_prm.h. What a record takes of each field is the library's
 * choice, the same as session_records() (mlx5cq_session.c): the byte count and
 * the format's own fields; the stride index as the WQE counter except in
 * CSUM (HASH and CSUM imply the counter: the title's + the position); the
 * requester's WQE counter, not its send WQE opcode.
 */
static void
zm_tables_build(void)
{
	const int8_t bc = RTE_MLX5CQ_MINI_BYTE_CNT;
	const int8_t rh = RTE_MLX5CQ_MINI_RX_HASH;
	const int8_t cs = RTE_MLX5CQ_MINI_CSUM;
	const int8_t si = RTE_MLX5CQ_MINI_STRIDX;
	const int8_t fl = RTE_MLX5CQ_MINI_FTAG_LOW;
	const int8_t fh = RTE_MLX5CQ_MINI_FTAG_HIGH;
	const int8_t ht = RTE_MLX5CQ_MINI_HDR_TYPE;
	const int8_t wc = RTE_MLX5CQ_MINI_WQE_COUNTER;
	unsigned int f, fields;

	memset(mlx5cq_zm_shuf, Z, sizeof(mlx5cq_zm_shuf));
	memset(mlx5cq_zm_take, 0, sizeof(mlx5cq_zm_take));
	for (f = 0; f < ZM_FORMATS; f++) {
		fields = RTE_MLX5CQ_MINI_FIELDS(f);
		if (fields & RTE_MLX5CQ_MINI_F_BYTE_CNT24)
			zm_put(f, offsetof(struct rte_mlx5cq_cpl, byte_cnt), 4,
			       (const int8_t []){ Z, bc + 1, bc + 2, bc + 3 });
		else
			zm_put(f, offsetof(struct rte_mlx5cq_cpl, byte_cnt), 4,
			       (const int8_t []){ bc, bc + 1, bc + 2, bc + 3 });
		if (fields & RTE_MLX5CQ_MINI_F_RX_HASH)
			zm_put(f, offsetof(struct rte_mlx5cq_cpl, rss_hash), 4,
			       (const int8_t []){ rh, rh + 1, rh + 2, rh + 3 });
		if (fields & RTE_MLX5CQ_MINI_F_CSUM)
			zm_put(f, offsetof(struct rte_mlx5cq_cpl, csum), 2,
			       (const int8_t []){ cs, cs + 1 });
		if (fields & RTE_MLX5CQ_MINI_F_FTAG)
			zm_put(f, offsetof(struct rte_mlx5cq_cpl, flow_tag), 4,
			       (const int8_t []){ Z, fh, fl, fl + 1 });
		if (fields & RTE_MLX5CQ_MINI_F_HDR_TYPE)
			zm_put(f, offsetof(struct rte_mlx5cq_cpl, hdr_type_etc),
			       1, (const int8_t []){ ht });
		if ((fields & RTE_MLX5CQ_MINI_F_STRIDX) &&
		    f != RTE_MLX5CQ_MINI_FMT_CSUM)
			zm_put(f, offsetof(struct rte_mlx5cq_cpl, wqe_counter),
			       2, (const int8_t []){ si, si + 1 });
		if (fields & RTE_MLX5CQ_MINI_F_WQE_COUNTER)
			zm_put(f, offsetof(struct rte_mlx5cq_cpl, wqe_counter),
			       2, (const int8_t []){ wc, wc + 1 });
	}
}

/* Plain C (no AVX2 here): runs at load time on any CPU. */
RTE_INIT(mlx5cq_zg_init)
{
	unsigned int f, s, b;

	RTE_BUILD_BUG_ON(ZM_FORMATS != RTE_MLX5CQ_MINI_FMT_NUM);
	zm_tables_build();

	for (f = 1; f <= RTE_MLX5CQ_COMP_FORMAT_MASK; f++)
		mlx5cq_zg_by_comp[f] =
			&mlx5cq_zg_masks[RTE_MIN(f - 1, ZM_FORMATS - 1u)];
	for (f = 0; f < ZM_FORMATS; f++) {
		struct zg_masks *g = &mlx5cq_zg_masks[f];

		for (s = 0; s < ZG_STORES; s++) {
			for (b = 0; b < 32; b++) {
				unsigned int at = 32 * s + b;
				unsigned int r = at / 40, rb = at % 40;
				int mini = rb < 32 &&
					   mlx5cq_zm_take[f][rb] != 0;
				int8_t src = mini ? mlx5cq_zm_shuf[f][rb] : Z;

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


void
mlx5cq_session_records_avx2(const struct rte_mlx5cq_cpl *t, unsigned int fmt,
			volatile const uint8_t *m, struct rte_mlx5cq_cpl *c,
			uint32_t take, uint16_t w0)
{
	zm_records(t, fmt, m, c, take, w0);
}

/*
 * mlx5cq_session_burst() of the AVX2 fast poll, any turn of an open session
 * (mlx5cq_session_burst_avx2() takes the common one; basic layout: the fast
 * poll never runs the enhanced one): the part of each array that starts at a
 * multiple of four minis goes in groups of four records, the rest one
 * record at a time. The session's place is kept in locals and written
 * back once; the templates stay in registers from group to group (an
 * array of them went through the stack on every group).
 */
uint16_t
mlx5cq_session_burst_any_avx2(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
			  uint16_t n)
{
	struct mlx5cq_session *z = MLX5CQ_SESSION(cq);
	const unsigned int fmt = mlx5cq_session_format(cq, z);
	const unsigned int f = fmt < ZM_FORMATS - 1 ? fmt : ZM_FORMATS - 1;
	const struct zg_masks *g = &mlx5cq_zg_masks[f];
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
			ca = mlx5cq_session_array_at(title, ca, na);
			k = 8 * na;
		} else {
			do {
				volatile const uint8_t *m = ring +
					((size_t)(ca & mask) << shift);

				zg_group(g, tp, m, cpl + k);
				zg_group(g, tp, m + 32, cpl + k + 4);
				k += 8;
				mlx5cq_session_array_done(ring, mask, shift, title,
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
			mlx5cq_session_array_done(ring, mask, shift, title, &ca);
	}
	if (ai == cnt) {
		mlx5cq_session_close_inv(cq, title, ca, z->end);
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
 * mlx5cq_session_burst() of the AVX2 fast poll: the common turn of an open
 * session here (from an array's start, whole arrays only, 64 or 128 B
 * entries, no wrap: a session split by the burst), the rest in
 * mlx5cq_session_burst_any_avx2(). Small on purpose: the general function's
 * frame (its loops keep more state) would be paid on every turn of the
 * common case.
 */
uint16_t
mlx5cq_session_burst_avx2(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
		      uint16_t n)
{
	struct mlx5cq_session *z = MLX5CQ_SESSION(cq);
	const uint32_t cnt = z->cnt, ai = z->ai, ca = z->ca;
	const uint32_t want = RTE_MIN(cnt - ai, (uint32_t)n);
	const uint32_t na = want / 8, mask = cq->mask, idx = ca & mask;

	if (unlikely((ai & 7) != 0 || na == 0 || (want & 7) != 0 ||
		     cq->stride_shift - 6u > 1u || idx + 8 * na > mask + 1))
		return mlx5cq_session_burst_any_avx2(cq, cpl, n);
	if (likely(cq->stride_shift == 6))
		zg_turn(cq, z, cpl, want, ca == z->end - cnt + 1, 6);
	else
		zg_turn(cq, z, cpl, want, ca == z->end - cnt + 1, 7);
	return (uint16_t)want;
}

#ifndef __clang__
#pragma GCC pop_options
#endif

#endif /* RTE_ARCH_X86 */
