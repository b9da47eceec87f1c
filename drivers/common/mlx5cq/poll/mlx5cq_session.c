/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Compressed sessions, shared by every poll implementation: opening a
 * session at its compressed CQE, the records of its mini-CQEs (whole
 * arrays at a time, the format chosen once per array), the raw-view CQE of
 * a mini-CQE, and the invalidation of consumed slots (basic layout).
 */

#include <string.h>

#include <mlx5_prm.h>

#include "mlx5cq_private.h"

/* Offsets of rte_mlx5cq_prm.h, short. */
#define MINI(f) RTE_MLX5CQ_MINI_ ## f
#define CQE(f) RTE_MLX5CQ_CQE_ ## f

static inline void
st_be16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void
log_malformed(struct rte_mlx5cq *cq, const char *what, uint32_t ci,
	      uint32_t v)
{
	struct mlx5cq_session *z = MLX5CQ_SESSION(cq);

	if (z->logged)
		return;
	z->logged = 1;
	MLX5CQ_LOG(DEBUG, "CQ 0x%x: compressed CQE at ci %u not expanded:"
		   " %s (%u); polling stops there", cq->cqn, ci, what, v);
}

int
mlx5cq_session_open(struct rte_mlx5cq *cq, volatile const uint8_t *cqe,
		uint8_t op_own, uint32_t ci, int decode)
{
	struct mlx5cq_session *z = MLX5CQ_SESSION(cq);
	uint32_t cnt;

	if (cq->comp == 0) {
		log_malformed(cq, "the CQ has no compression", ci, 0);
		return -1;
	}
	if (cq->comp & RTE_MLX5CQ_COMP_ENHANCED) {
		cnt = (op_own >> 4) + 1u;
		if (!z->have_title) {
			log_malformed(cq, "no title CQE before it", ci, cnt);
			return -1;
		}
		if (cnt > RTE_MLX5CQ_ENH_MINIS_MAX) {
			log_malformed(cq, "mini-CQE count", ci, cnt);
			return -1;
		}
		/* It spans one slot per mini-CQE (kernel en_rx.c
		 * mlx5e_decompress_enhanced_cqe: cc moves per mini).
		 */
		z->ca = ci;
		z->end = ci + cnt;
	} else {
		uint8_t op = op_own >> 4;

		cnt = rte_mlx5cq__be32(cqe, CQE(BYTE_CNT));
		if (cnt < 2 || cnt > cq->mask + 1u) {
			log_malformed(cq, "session count", ci, cnt);
			return -1;
		}
		if (op == RTE_MLX5CQ_OP_REQ_ERR ||
		    op == RTE_MLX5CQ_OP_RESP_ERR) {
			log_malformed(cq, "error opcode in the title", ci, op);
			return -1;
		}
		/* Owned and past the read barrier; the title stays in its
		 * slot until the session is consumed: no copy. Its record
		 * is decoded here, or by the caller (decode 0: the vector
		 * polls, whose one wide store the session's template load
		 * then forwards from), which also sets wqe_next.
		 */
		if (decode) {
			rte_mlx5cq__decode_ok(cqe, op_own, &z->trec);
			z->wqe_next = z->trec.wqe_counter;
		}
		z->ca = ci + 1;
		z->end = ci + cnt;
	}
	z->cnt = cnt;
	z->ai = 0;
	cq->slow |= RTE_MLX5CQ_SLOW_SESSION;
	MLX5CQ_CNT(cq)->sessions++;
	return 0;
}

/*
 * Records of take mini-CQEs m[0..take) of the session. The title's record
 * with the mini-CQE's fields in place (what DPDK's rxq_cq_to_mbuf takes
 * from a mini-CQE):
 * - every format: byte_cnt (bytes 4..7);
 * - requester title (opcode REQ): wqe_counter (bytes 0..1), the send WQE
 *   opcode (byte 2) is not part of a success record;
 * - HASH: rss_hash (bytes 0..3), wqe_counter implied (previous + 1);
 * - CSUM: csum (bytes 0..1), wqe_counter implied;
 * - FTAG_STRIDX: flow tag = byte 4 << 16 | bytes 0..1, byte_cnt 24 bits
 *   (bytes 5..7), stride index (bytes 2..3) as wqe_counter;
 * - CSUM_STRIDX: csum (bytes 0..1), stride index (bytes 2..3);
 * - L34H_STRIDX: header byte (byte 0) is byte 29 of the full CQE, the
 *   low byte of hdr_type_etc (header types in bits 7:2, VLAN stripped in
 *   bit 0); one byte, not a 16-bit value, at byte 0 (DPDK 5654f38eba:
 *   22.11's struct had it in byte 1); stride index
 *   (bytes 2..3).
 * The format is chosen once; each loop is straight-line. The template is
 * read through its pointer: a local copy of it made the compiler write
 * into the copy and reload it wide (a store-forwarding stall per record).
 */
static void
session_records(const struct mlx5cq_session *z, unsigned int fmt,
	    volatile const uint8_t *m, struct rte_mlx5cq_cpl *c,
	    uint32_t take)
{
	const struct rte_mlx5cq_cpl *t = &z->trec;
	const uint16_t w0 = z->wqe_next;
	uint32_t j;

#define SESSION_LOOP(body) \
	for (j = 0; j < take; j++, m += MINI(SIZE)) { \
		c[j] = *t; \
		c[j].byte_cnt = rte_mlx5cq__be32(m, MINI(BYTE_CNT)); \
		body; \
	}
	switch (fmt) {
	case MINI(FMT_HASH):
		SESSION_LOOP(c[j].rss_hash = rte_mlx5cq__be32(m, MINI(RX_HASH));
			 c[j].wqe_counter = (uint16_t)(w0 + j));
		break;
	case MINI(FMT_CSUM):
		SESSION_LOOP(c[j].csum = rte_mlx5cq__be16(m, MINI(CSUM));
			 c[j].wqe_counter = (uint16_t)(w0 + j));
		break;
	case MINI(FMT_FTAG_STRIDX):
		SESSION_LOOP(c[j].flow_tag =
				(uint32_t)m[MINI(FTAG_HIGH)] << 16 |
				rte_mlx5cq__be16(m, MINI(FTAG_LOW));
			 c[j].byte_cnt &= 0xffffff;
			 c[j].wqe_counter =
				rte_mlx5cq__be16(m, MINI(STRIDX)));
		break;
	case MINI(FMT_CSUM_STRIDX):
		SESSION_LOOP(c[j].csum = rte_mlx5cq__be16(m, MINI(CSUM));
			 c[j].wqe_counter =
				rte_mlx5cq__be16(m, MINI(STRIDX)));
		break;
	case MINI(FMT_L34H_STRIDX):
		SESSION_LOOP(c[j].hdr_type_etc = (uint16_t)
				((t->hdr_type_etc & 0xff00) |
				 m[MINI(HDR_TYPE)]);
			 c[j].wqe_counter =
				rte_mlx5cq__be16(m, MINI(STRIDX)));
		break;
	default: /* requester */
		SESSION_LOOP(c[j].wqe_counter =
				 rte_mlx5cq__be16(m, MINI(WQE_COUNTER)));
		break;
	}
#undef SESSION_LOOP
}

uint16_t
mlx5cq_session_burst(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
		 uint16_t n)
{
	struct mlx5cq_session *z = MLX5CQ_SESSION(cq);
	const unsigned int fmt = mlx5cq_session_format(cq, z);
	const int enh = !!(cq->comp & RTE_MLX5CQ_COMP_ENHANCED);
	uint16_t k = 0;

	while (k < n && z->cnt) {
		uint32_t stop = enh ? z->cnt : RTE_MIN(z->cnt, (z->ai | 7) + 1);
		uint32_t take = RTE_MIN(stop - z->ai, (uint32_t)(n - k));

		volatile const uint8_t *m = rte_mlx5cq__cqe(cq, z->ca) +
			MINI(SIZE) * (z->ai & 7u);

#ifdef RTE_ARCH_X86
		if (cq->vec == RTE_MLX5CQ_VEC_AVX2)
			mlx5cq_session_records_avx2(&z->trec, fmt, m, cpl + k,
						take, z->wqe_next);
		else
#endif
			session_records(z, fmt, m, cpl + k, take);
		k = (uint16_t)(k + take);
		mlx5cq_session_consume(cq, take);
	}
	MLX5CQ_CNT(cq)->minis += k;
	return k;
}

/* The raw-view CQE of the current mini-CQE, built in z->raw. */
volatile const uint8_t *
mlx5cq_session_synth(struct rte_mlx5cq *cq, uint32_t ci)
{
	struct mlx5cq_session *z = MLX5CQ_SESSION(cq);
	volatile const uint8_t *m = rte_mlx5cq__cqe(cq, z->ca) +
				    MINI(SIZE) * (z->ai & 7u);
	uint8_t *r = z->raw;
	const int enh = !!(cq->comp & RTE_MLX5CQ_COMP_ENHANCED);
	const uint8_t *t;
	uint8_t op;
	unsigned int k;

	if (enh)
		t = z->title;
	else
		t = (const uint8_t *)(uintptr_t)
			rte_mlx5cq__cqe(cq, z->end - z->cnt);
	memcpy(r, t, 64);
	op = r[CQE(OP_OWN)] >> 4;
	for (k = 0; k < 4; k++)
		r[CQE(BYTE_CNT) + k] = m[MINI(BYTE_CNT) + k];
	if (op == RTE_MLX5CQ_OP_REQ) {
		r[CQE(WQE_COUNTER)] = m[MINI(WQE_COUNTER)];
		r[CQE(WQE_COUNTER) + 1] =
			m[MINI(WQE_COUNTER) + 1];
		r[CQE(SOP_DROP_QPN)] = m[MINI(S_WQE_OPCODE)];
	} else {
		switch (mlx5cq_session_format(cq, z)) {
		case MINI(FMT_HASH):
			for (k = 0; k < 4; k++)
				r[CQE(RX_HASH_RES) + k] =
					m[MINI(RX_HASH) + k];
			st_be16(r + CQE(WQE_COUNTER), z->wqe_next);
			break;
		case MINI(FMT_CSUM):
			r[CQE(CSUM)] = m[MINI(CSUM)];
			r[CQE(CSUM) + 1] = m[MINI(CSUM) + 1];
			st_be16(r + CQE(WQE_COUNTER), z->wqe_next);
			break;
		case MINI(FMT_FTAG_STRIDX):
			r[CQE(SOP_DROP_QPN) + 1] =
				m[MINI(FTAG_HIGH)];
			r[CQE(SOP_DROP_QPN) + 2] =
				m[MINI(FTAG_LOW)];
			r[CQE(SOP_DROP_QPN) + 3] =
				m[MINI(FTAG_LOW) + 1];
			r[CQE(BYTE_CNT)] = 0;
			r[CQE(WQE_COUNTER)] = m[MINI(STRIDX)];
			r[CQE(WQE_COUNTER) + 1] =
				m[MINI(STRIDX) + 1];
			break;
		case MINI(FMT_CSUM_STRIDX):
			r[CQE(CSUM)] = m[MINI(CSUM)];
			r[CQE(CSUM) + 1] = m[MINI(CSUM) + 1];
			r[CQE(WQE_COUNTER)] = m[MINI(STRIDX)];
			r[CQE(WQE_COUNTER) + 1] =
				m[MINI(STRIDX) + 1];
			break;
		default: /* L34H_STRIDX */
			r[CQE(HDR_TYPE_ETC) + 1] =
				m[MINI(HDR_TYPE)];
			r[CQE(WQE_COUNTER)] = m[MINI(STRIDX)];
			r[CQE(WQE_COUNTER) + 1] =
				m[MINI(STRIDX) + 1];
			break;
		}
	}
	/* A regular CQE of the pass: format 0, solicited bit of the title. */
	r[CQE(OP_OWN)] = (uint8_t)(op << 4 |
		(t[CQE(OP_OWN)] & RTE_MLX5CQ_OP_OWN_SE) |
		((ci >> cq->log_n) & 1));
	if (enh)
		r[CQE(VALIDITY)] = (uint8_t)(ci >> cq->log_n);
	return r;
}
