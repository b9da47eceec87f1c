/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Out-of-line part of the poll: the syndrome mapping for callers that want
 * a function, and the slow path entered at a compressed CQE.
 */

#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <infiniband/mlx5dv.h>
#include <rte_common.h>
#include <rte_errno.h>

#include <mlx5_prm.h>

#include "mlx5cq_private.h"

/* The fast path's CQE offsets are the PRM's (mlx5dv.h, mlx5_prm.h). */
static_assert(offsetof(struct mlx5_cqe64, byte_cnt) ==
	      RTE_MLX5CQ_CQE_BYTE_CNT, "byte_cnt offset");
static_assert(offsetof(struct mlx5_cqe64, timestamp) ==
	      RTE_MLX5CQ_CQE_TIMESTAMP, "timestamp offset");
static_assert(offsetof(struct mlx5_cqe64, sop_drop_qpn) ==
	      RTE_MLX5CQ_CQE_SOP_DROP_QPN, "sop_drop_qpn offset");
static_assert(offsetof(struct mlx5_cqe64, wqe_counter) ==
	      RTE_MLX5CQ_CQE_WQE_COUNTER, "wqe_counter offset");
static_assert(offsetof(struct mlx5_cqe64, op_own) ==
	      RTE_MLX5CQ_CQE_OP_OWN, "op_own offset");
static_assert(offsetof(struct mlx5_err_cqe, vendor_err_synd) ==
	      RTE_MLX5CQ_CQE_VENDOR_SYND, "vendor_err_synd offset");
static_assert(offsetof(struct mlx5_err_cqe, syndrome) ==
	      RTE_MLX5CQ_CQE_SYNDROME, "syndrome offset");
#if RTE_CACHE_LINE_SIZE == 64
static_assert(offsetof(struct mlx5_cqe, rx_hash_res) ==
	      RTE_MLX5CQ_CQE_RX_HASH_RES, "rx_hash_res offset");
static_assert(offsetof(struct mlx5_cqe, rx_hash_type) ==
	      RTE_MLX5CQ_CQE_RX_HASH_TYPE, "rx_hash_type offset");
static_assert(offsetof(struct mlx5_cqe, csum) ==
	      RTE_MLX5CQ_CQE_CSUM, "csum offset");
static_assert(offsetof(struct mlx5_cqe, hdr_type_etc) ==
	      RTE_MLX5CQ_CQE_HDR_TYPE_ETC, "hdr_type_etc offset");
static_assert(offsetof(struct mlx5_cqe, vlan_info) ==
	      RTE_MLX5CQ_CQE_VLAN_INFO, "vlan_info offset");
static_assert(offsetof(struct mlx5_cqe, flow_table_metadata) ==
	      RTE_MLX5CQ_CQE_METADATA, "flow_table_metadata offset");
#endif
static_assert((int)MLX5_CQE_INVALID == (int)RTE_MLX5CQ_OP_INVALID,
	      "INVALID opcode");
static_assert((int)MLX5_CQE_REQ_ERR == (int)RTE_MLX5CQ_OP_REQ_ERR,
	      "REQ_ERR opcode");
static_assert((int)MLX5_CQE_RESP_ERR == (int)RTE_MLX5CQ_OP_RESP_ERR,
	      "RESP_ERR opcode");
static_assert(MLX5_COMPRESSED == RTE_MLX5CQ_FORMAT_COMPRESSED,
	      "compressed format");

uint8_t
rte_mlx5cq_syndrome_status(uint8_t syndrome)
{
	return rte_mlx5cq__err_status(syndrome);
}

/* MLX5_CQE_INVALIDATE of mlx5_prm.h: INVALID opcode, owner 0. */
#define MLX5CQ_CQE_INVALIDATE (RTE_MLX5CQ_OP_INVALID << 4)
static_assert(MLX5CQ_CQE_INVALIDATE == MLX5_CQE_INVALIDATE, "invalidate");
/* Mini-CQE formats (mlx5_prm.h MLX5_CQE_RESP_FORMAT_*). */
static_assert(MLX5_CQE_RESP_FORMAT_HASH == 0 &&
	      MLX5_CQE_RESP_FORMAT_CSUM == 1 &&
	      MLX5_CQE_RESP_FORMAT_FTAG_STRIDX == 2 &&
	      MLX5_CQE_RESP_FORMAT_CSUM_STRIDX == 3 &&
	      MLX5_CQE_RESP_FORMAT_L34H_STRIDX == 4, "mini-CQE formats");
static_assert(sizeof(struct mlx5_mini_cqe8) == 8, "mini-CQE size");
/* Validity iteration count of the enhanced layout: byte 62. */
#define MLX5CQ_CQE_VIC 62
/*
 * Enhanced layout: at most 7 mini-CQEs (bytes 56..63 hold vic, op_own); a
 * compressed CQE of n minis spans n slots, the next CQE is n slots on.
 */
#define MLX5CQ_ENH_MINIS_MAX 7

static __rte_always_inline volatile uint8_t *
cqe_at(const struct rte_mlx5cq *cq, uint32_t idx)
{
	return rte_mlx5cq__cqe(cq, idx);
}

static inline uint16_t
ld_be16(const volatile uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t
ld_be32(const volatile uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline void
st_be16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static inline void
st_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static inline int
cq_enhanced(const struct rte_mlx5cq *cq)
{
	return !!(cq->comp & RTE_MLX5CQ_COMP_ENHANCED);
}

/* PRM mini-CQE format of the CQ (valid when cq->comp != 0). */
static inline unsigned int
cq_format(const struct rte_mlx5cq *cq)
{
	return (cq->comp & RTE_MLX5CQ_COMP_FORMAT_MASK) - 1u;
}

static void
count_error(struct rte_mlx5cq *cq, const struct rte_mlx5cq_cpl *c)
{
	cq->cnt.errors++;
	cq->cnt.err_syndrome[c->syndrome]++;
}

/* The 8-byte mini-CQE ai of the open session. */
static inline volatile const uint8_t *
zip_mini(const struct rte_mlx5cq *cq)
{
	return cqe_at(cq, cq->zip.ca) + 8u * (cq->zip.ai & 7u);
}

/*
 * Record of the current mini-CQE: the title's record with the mini-CQE's
 * fields in place (what DPDK's rxq_cq_to_mbuf takes from a mini-CQE):
 * - every format: byte_cnt (bytes 4..7);
 * - requester title (opcode REQ): wqe_counter (bytes 0..1), the send WQE
 *   opcode (byte 2) is not part of a success record;
 * - HASH: rss_hash (bytes 0..3), wqe_counter implied (previous + 1);
 * - CSUM: csum (bytes 0..1), wqe_counter implied;
 * - FTAG_STRIDX: flow tag = byte 4 << 16 | bytes 0..1, byte_cnt 24 bits
 *   (bytes 5..7), stride index (bytes 2..3) as wqe_counter;
 * - CSUM_STRIDX: csum (bytes 0..1), stride index (bytes 2..3);
 * - L34H_STRIDX: header byte (byte 1) is byte 29 of the full CQE, the
 *   low byte of hdr_type_etc (header types in bits 7:2, which DPDK reads
 *   as (hdr_type_etc & 0xfc00) >> 10 on the unswapped field, VLAN
 *   stripped in bit 0); one byte, not a 16-bit value (DPDK 5654f38eba);
 *   stride index (bytes 2..3).
 */
static void
zip_record(const struct rte_mlx5cq *cq, volatile const uint8_t *m,
	   struct rte_mlx5cq_cpl *c)
{
	uint32_t bc = ld_be32(m + 4);

	*c = cq->zip.trec;
	c->byte_cnt = bc;
	if (c->opcode == RTE_MLX5CQ_OP_REQ) {
		c->wqe_counter = ld_be16(m);
		return;
	}
	switch (cq_format(cq)) {
	case MLX5_CQE_RESP_FORMAT_HASH:
		c->rss_hash = ld_be32(m);
		c->wqe_counter = cq->zip.wqe_next;
		break;
	case MLX5_CQE_RESP_FORMAT_CSUM:
		c->csum = ld_be16(m);
		c->wqe_counter = cq->zip.wqe_next;
		break;
	case MLX5_CQE_RESP_FORMAT_FTAG_STRIDX:
		c->flow_tag = (uint32_t)m[4] << 16 | (uint32_t)m[0] << 8 | m[1];
		c->byte_cnt = bc & 0xffffff;
		c->wqe_counter = ld_be16(m + 2);
		break;
	case MLX5_CQE_RESP_FORMAT_CSUM_STRIDX:
		c->csum = ld_be16(m);
		c->wqe_counter = ld_be16(m + 2);
		break;
	default: /* L34H_STRIDX */
		c->hdr_type_etc = (uint16_t)((c->hdr_type_etc & 0xff00) |
					     m[1]);
		c->wqe_counter = ld_be16(m + 2);
		break;
	}
}

/* The same merge as a 64 B CQE (raw view), from the title's bytes. */
static void
zip_synth(struct rte_mlx5cq *cq, volatile const uint8_t *m, uint32_t ci)
{
	uint8_t *r = cq->zip.raw;
	const uint8_t *t = cq->zip.title;
	uint8_t op = t[RTE_MLX5CQ_CQE_OP_OWN] >> 4;
	unsigned int k;

	memcpy(r, t, 64);
	for (k = 0; k < 4; k++)
		r[RTE_MLX5CQ_CQE_BYTE_CNT + k] = m[4 + k];
	if (op == RTE_MLX5CQ_OP_REQ) {
		r[RTE_MLX5CQ_CQE_WQE_COUNTER] = m[0];
		r[RTE_MLX5CQ_CQE_WQE_COUNTER + 1] = m[1];
		r[RTE_MLX5CQ_CQE_SOP_DROP_QPN] = m[2];
	} else {
		switch (cq_format(cq)) {
		case MLX5_CQE_RESP_FORMAT_HASH:
			for (k = 0; k < 4; k++)
				r[RTE_MLX5CQ_CQE_RX_HASH_RES + k] = m[k];
			st_be16(r + RTE_MLX5CQ_CQE_WQE_COUNTER,
				cq->zip.wqe_next);
			break;
		case MLX5_CQE_RESP_FORMAT_CSUM:
			r[RTE_MLX5CQ_CQE_CSUM] = m[0];
			r[RTE_MLX5CQ_CQE_CSUM + 1] = m[1];
			st_be16(r + RTE_MLX5CQ_CQE_WQE_COUNTER,
				cq->zip.wqe_next);
			break;
		case MLX5_CQE_RESP_FORMAT_FTAG_STRIDX:
			r[RTE_MLX5CQ_CQE_SOP_DROP_QPN + 1] = m[4];
			r[RTE_MLX5CQ_CQE_SOP_DROP_QPN + 2] = m[0];
			r[RTE_MLX5CQ_CQE_SOP_DROP_QPN + 3] = m[1];
			r[RTE_MLX5CQ_CQE_BYTE_CNT] = 0;
			r[RTE_MLX5CQ_CQE_WQE_COUNTER] = m[2];
			r[RTE_MLX5CQ_CQE_WQE_COUNTER + 1] = m[3];
			break;
		case MLX5_CQE_RESP_FORMAT_CSUM_STRIDX:
			r[RTE_MLX5CQ_CQE_CSUM] = m[0];
			r[RTE_MLX5CQ_CQE_CSUM + 1] = m[1];
			r[RTE_MLX5CQ_CQE_WQE_COUNTER] = m[2];
			r[RTE_MLX5CQ_CQE_WQE_COUNTER + 1] = m[3];
			break;
		default: /* L34H_STRIDX */
			r[RTE_MLX5CQ_CQE_HDR_TYPE_ETC + 1] = m[1];
			r[RTE_MLX5CQ_CQE_WQE_COUNTER] = m[2];
			r[RTE_MLX5CQ_CQE_WQE_COUNTER + 1] = m[3];
			break;
		}
	}
	/* A regular CQE of the pass: format 0, solicited bit of the title. */
	r[RTE_MLX5CQ_CQE_OP_OWN] = (uint8_t)(op << 4 |
		(t[RTE_MLX5CQ_CQE_OP_OWN] & 2) | ((ci >> cq->log_n) & 1));
	if (cq_enhanced(cq))
		r[MLX5CQ_CQE_VIC] = (uint8_t)(ci >> cq->log_n);
}

static void
invalidate(struct rte_mlx5cq *cq, uint32_t from, uint32_t to)
{
	for (; from != to; from++)
		cqe_at(cq, from)[RTE_MLX5CQ_CQE_OP_OWN] = MLX5CQ_CQE_INVALIDATE;
}

static void
log_malformed(struct rte_mlx5cq *cq, const char *what, uint32_t ci,
	      uint32_t v)
{
	if (cq->zip.logged)
		return;
	cq->zip.logged = 1;
	MLX5CQ_LOG(DEBUG, "CQ 0x%x: compressed CQE at ci %u not expanded:"
		   " %s (%u); polling stops there", cq->cqn, ci, what, v);
}

/*
 * Open the session of the software-owned compressed CQE at ci (payload
 * readable). Returns 0, or -1 when it cannot be expanded.
 */
static int
zip_open(struct rte_mlx5cq *cq, volatile const uint8_t *cqe, uint8_t op_own,
	 uint32_t ci)
{
	struct rte_mlx5cq_zip *z = &cq->zip;
	uint32_t cnt;

	if (cq->comp == 0) {
		log_malformed(cq, "the CQ has no compression", ci, 0);
		return -1;
	}
	if (cq_enhanced(cq)) {
		cnt = (op_own >> 4) + 1u;
		if (!z->have_title) {
			log_malformed(cq, "no title CQE before it", ci, cnt);
			return -1;
		}
		if (cnt > MLX5CQ_ENH_MINIS_MAX) {
			log_malformed(cq, "mini-CQE count", ci, cnt);
			return -1;
		}
		/* It spans one slot per mini-CQE (kernel en_rx.c
		 * mlx5e_decompress_enhanced_cqe: cc moves per mini). */
		z->ca = ci;
		z->end = ci + cnt;
	} else {
		uint8_t op = op_own >> 4;

		cnt = ld_be32(cqe + RTE_MLX5CQ_CQE_BYTE_CNT);
		if (cnt < 2 || cnt > cq->mask + 1u) {
			log_malformed(cq, "session count", ci, cnt);
			return -1;
		}
		if (op == RTE_MLX5CQ_OP_REQ_ERR ||
		    op == RTE_MLX5CQ_OP_RESP_ERR) {
			log_malformed(cq, "error opcode in the title", ci, op);
			return -1;
		}
		/* Owned and past the read barrier: a plain copy. */
		memcpy(z->title, (const void *)(uintptr_t)cqe, 64);
		rte_mlx5cq__decode(z->title, op_own, &z->trec);
		z->wqe_next = z->trec.wqe_counter;
		z->ca = ci + 1;
		z->end = ci + cnt;
	}
	z->cnt = cnt;
	z->ai = 0;
	cq->slow |= RTE_MLX5CQ_SLOW_SESSION;
	cq->cnt.sessions++;
	return 0;
}

/* After mini ai was delivered: move on, invalidate what is consumed. */
static void
zip_step(struct rte_mlx5cq *cq)
{
	struct rte_mlx5cq_zip *z = &cq->zip;
	int enh = cq_enhanced(cq);
	uint32_t title = z->end - z->cnt;

	z->ai++;
	z->wqe_next++;
	if (!enh && (z->ai & 7) == 0 && z->ai != z->cnt) {
		/* Array done: the second array is 7 slots after the first. */
		uint32_t next = z->ca == title + 1 ? title + 8 : z->ca + 8;

		invalidate(cq, z->ca, next);
		z->ca = next;
	}
	if (z->ai == z->cnt) {
		if (!enh) {
			invalidate(cq, z->ca, z->end);
			invalidate(cq, title, title + 1);
		}
		z->cnt = 0;
		z->ai = 0;
		cq->slow &= ~RTE_MLX5CQ_SLOW_SESSION;
	}
}

/* Mini-CQE fields: 4-byte aligned inside the 8-byte aligned mini. */
#define mini_be32 rte_mlx5cq__be32
#define mini_be16 rte_mlx5cq__be16

/*
 * Deliver up to n records of the open session, array by array: the same
 * merge as zip_record() with the format chosen once per array.
 */
static uint16_t
zip_burst(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl, uint16_t n)
{
	struct rte_mlx5cq_zip *z = &cq->zip;
	const unsigned int fmt = z->trec.opcode == RTE_MLX5CQ_OP_REQ ?
				 UINT32_MAX : cq_format(cq);
	const int enh = cq_enhanced(cq);
	uint16_t k = 0;

	while (k < n && z->cnt) {
		volatile const uint8_t *arr = cqe_at(cq, z->ca);
		uint32_t stop = enh ? z->cnt : RTE_MIN(z->cnt, (z->ai | 7) + 1);
		uint32_t take = RTE_MIN(stop - z->ai, (uint32_t)(n - k));
		uint32_t j, a0 = z->ai & 7;
		struct rte_mlx5cq_cpl *c = cpl + k;

		for (j = 0; j < take; j++) {
			volatile const uint8_t *m = arr + 8 * (a0 + j);

			c[j] = z->trec;
			c[j].byte_cnt = mini_be32(m, 4);
			switch (fmt) {
			case MLX5_CQE_RESP_FORMAT_HASH:
				c[j].rss_hash = mini_be32(m, 0);
				c[j].wqe_counter = (uint16_t)(z->wqe_next + j);
				break;
			case MLX5_CQE_RESP_FORMAT_CSUM:
				c[j].csum = mini_be16(m, 0);
				c[j].wqe_counter = (uint16_t)(z->wqe_next + j);
				break;
			case MLX5_CQE_RESP_FORMAT_FTAG_STRIDX:
				c[j].flow_tag = (uint32_t)m[4] << 16 |
						mini_be16(m, 0);
				c[j].byte_cnt &= 0xffffff;
				c[j].wqe_counter = mini_be16(m, 2);
				break;
			case MLX5_CQE_RESP_FORMAT_CSUM_STRIDX:
				c[j].csum = mini_be16(m, 0);
				c[j].wqe_counter = mini_be16(m, 2);
				break;
			case MLX5_CQE_RESP_FORMAT_L34H_STRIDX:
				c[j].hdr_type_etc = (uint16_t)
					((c[j].hdr_type_etc & 0xff00) | m[1]);
				c[j].wqe_counter = mini_be16(m, 2);
				break;
			default: /* requester */
				c[j].wqe_counter = mini_be16(m, 0);
				break;
			}
		}
		k = (uint16_t)(k + take);
		cq->cnt.minis += take;
		/* Bookkeeping of the last one delivers the array/session end. */
		z->ai += take - 1;
		z->wqe_next = (uint16_t)(z->wqe_next + take - 1);
		zip_step(cq);
	}
	if (z->cnt == 0)
		cq->ci = z->end;
	return k;
}

/*
 * Look at the completion at the consumer index without consuming it
 * (a compressed CQE opens its session). Returns 1 and fills *cqe (the
 * ring's CQE, NULL for a mini-CQE) when there is one, 0 when there is
 * none, -1 at a compressed CQE that cannot be expanded.
 */
static int
peek(struct rte_mlx5cq *cq, volatile const uint8_t **cqe, uint8_t *op_own)
{
	uint32_t ci = cq->ci;
	volatile const uint8_t *e;
	uint8_t oo;

	if (cq->zip.cnt) {
		*cqe = NULL;
		return 1;
	}
	e = cqe_at(cq, ci);
	if (cq_enhanced(cq)) {
		/*
		 * The iteration count first, then a read barrier, then the
		 * rest, op_own included (kernel
		 * mlx5_cqwq_get_cqe_enahnced_comp).
		 */
		if (e[MLX5CQ_CQE_VIC] != (uint8_t)(ci >> cq->log_n))
			return 0;
		rte_io_rmb();
		oo = e[RTE_MLX5CQ_CQE_OP_OWN];
		if (((oo >> 2) & 3) != RTE_MLX5CQ_FORMAT_COMPRESSED &&
		    (oo >> 4) == RTE_MLX5CQ_OP_INVALID)
			return 0;
	} else {
		oo = e[RTE_MLX5CQ_CQE_OP_OWN];
		if (!rte_mlx5cq__sw_owned(oo, ci, cq->log_n))
			return 0;
		rte_io_rmb();
	}
	if (unlikely(((oo >> 2) & 3) == RTE_MLX5CQ_FORMAT_COMPRESSED)) {
		if (zip_open(cq, e, oo, ci))
			return -1;
		*cqe = NULL;
		return 1;
	}
	*cqe = e;
	*op_own = oo;
	return 1;
}

/*
 * Consume the completion peek() found, filling *c. Returns 1 when it came
 * from a mini-CQE.
 */
static int
consume(struct rte_mlx5cq *cq, volatile const uint8_t *cqe, uint8_t op_own,
	struct rte_mlx5cq_cpl *c)
{
	if (cqe == NULL) {
		zip_record(cq, zip_mini(cq), c);
		zip_step(cq);
		cq->cnt.minis++;
		if (cq->zip.cnt == 0)
			cq->ci = cq->zip.end;
		return 1;
	}
	rte_mlx5cq__decode(cqe, op_own, c);
	if (c->status != 0) {
		count_error(cq, c);
	} else if (cq_enhanced(cq)) {
		memcpy(cq->zip.title, (const void *)(uintptr_t)cqe, 64);
		cq->zip.trec = *c;
		cq->zip.wqe_next = (uint16_t)(c->wqe_counter + 1);
		cq->zip.have_title = 1;
	}
	cq->ci++;
	return 0;
}

uint16_t
mlx5cq_poll_core(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
		 uint16_t n, uint16_t done, int publish)
{
	uint32_t ci0 = cq->ci;
	uint16_t i;
	int stop = 0;

	/* The inline path counted their syndromes already. */
	for (i = 0; i < done; i++)
		cq->cnt.errors += cpl[i].status != 0;
	cq->ci += done;
	while (i < n) {
		volatile const uint8_t *cqe;
		uint8_t op_own = 0;
		int ret;

		if (cq->zip.cnt) {
			i = (uint16_t)(i + zip_burst(cq, cpl + i,
						     (uint16_t)(n - i)));
			continue;
		}
		ret = peek(cq, &cqe, &op_own);

		if (ret <= 0) {
			stop = ret < 0;
			break;
		}
		consume(cq, cqe, op_own, &cpl[i]);
		i++;
	}
	cq->cnt.polls++;
	if (stop)
		cq->cnt.comp_unhandled++;
	if (i) {
		cq->cnt.completions += i;
		if (publish && cq->ci != ci0)
			rte_mlx5cq__update_ci(cq, cq->ci);
	} else if (!stop) {
		cq->cnt.empty_polls++;
	}
	return i;
}

static inline void
cq_lock(struct rte_mlx5cq *cq)
{
	if (cq->slow & RTE_MLX5CQ_SLOW_LOCK)
		rte_spinlock_lock(&cq->lock);
}

static inline void
cq_unlock(struct rte_mlx5cq *cq)
{
	if (cq->slow & RTE_MLX5CQ_SLOW_LOCK)
		rte_spinlock_unlock(&cq->lock);
}

uint16_t
rte_mlx5cq_poll_slow(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
		     uint16_t n, uint16_t done)
{
	uint16_t ret;
	int locked = !!(cq->slow & RTE_MLX5CQ_SLOW_LOCK);

	if (locked)
		rte_spinlock_lock(&cq->lock);
	ret = mlx5cq_poll_core(cq, cpl, n, done, 1);
	if (locked)
		rte_spinlock_unlock(&cq->lock);
	return ret;
}

const volatile void *
rte_mlx5cq_raw_peek(struct rte_mlx5cq *cq)
{
	volatile const uint8_t *cqe = NULL;
	uint8_t op_own;
	const volatile void *ret = NULL;

	if (cq == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	cq_lock(cq);
	if (peek(cq, &cqe, &op_own) > 0) {
		if (cqe == NULL) {
			zip_synth(cq, zip_mini(cq), cq->ci);
			ret = cq->zip.raw;
		} else {
			ret = cqe;
		}
	} else {
		rte_errno = ENOENT;
	}
	cq_unlock(cq);
	return ret;
}

int
rte_mlx5cq_raw_advance(struct rte_mlx5cq *cq)
{
	struct rte_mlx5cq_cpl c;
	uint16_t n;

	if (cq == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	cq_lock(cq);
	n = mlx5cq_poll_core(cq, &c, 1, 0, 1);
	cq_unlock(cq);
	if (n == 0) {
		rte_errno = ENOENT;
		return -ENOENT;
	}
	return 0;
}

/* Iterator support (mlx5cq_iter.c): the current completion's CQE. */
int
mlx5cq_iter_fetch(struct rte_mlx5cq *cq, const volatile uint8_t **cqe)
{
	volatile const uint8_t *e = NULL;
	uint8_t op_own;
	int ret = peek(cq, &e, &op_own);

	if (ret <= 0)
		return ret < 0 ? -EAGAIN : -ENOENT;
	if (e == NULL) {
		zip_synth(cq, zip_mini(cq), cq->ci);
		e = cq->zip.raw;
	}
	*cqe = e;
	return 0;
}

void
mlx5cq_iter_consume(struct rte_mlx5cq *cq)
{
	struct rte_mlx5cq_cpl c;

	mlx5cq_poll_core(cq, &c, 1, 0, 0);
}
