/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef RTE_MLX5CQ_CORE_H_
#define RTE_MLX5CQ_CORE_H_

/**
 * @file
 * mlx5cq inline core: the CQ handle's hot part, the completion record and
 * the burst poll, inline as liburing's peek/advance (included by
 * rte_mlx5cq.h; not to be included directly).
 *
 * Only what the inline fast path touches lives here: ring geometry,
 * consumer index, doorbell record and three hot counters, in one cache
 * line. Decompression state, lock, iterator state and the other counters
 * are private to the library (read them through the API).
 */

#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_compat.h>
#include <rte_io.h>

#include "rte_mlx5cq_prm.h"
#include "rte_mlx5cq_view.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Compact completion record filled by the burst poll.
 *
 * Every field is written for every record (rsvd as zero), so records of
 * the scalar and the vector poll compare equal byte for byte. Success
 * records carry
 * the CQE payload and zero status, syndrome, vendor_syndrome and
 * s_wqe_opcode. Error records (REQ_ERR, RESP_ERR) carry status, syndrome,
 * vendor_syndrome, s_wqe_opcode, the QPN in flow_tag and wqe_counter; their
 * RX fields (byte_cnt ... rss_hash_type) are zero.
 */
struct rte_mlx5cq_cpl {
	uint32_t byte_cnt; /**< Byte count (RX), host order. */
	uint32_t rss_hash; /**< RSS hash result. */
	uint32_t flow_tag; /**< sop_drop_qpn[23:0]: flow mark (RX) or QPN. */
	uint32_t metadata; /**< flow_table_metadata / immediate. */
	uint64_t timestamp; /**< Completion timestamp. */
	uint16_t wqe_counter; /**< WQE counter or stride index. */
	uint16_t vlan_tci; /**< Stripped VLAN TCI. */
	uint16_t hdr_type_etc; /**< RTE_MLX5CQ_HDR_* bits (host order). */
	uint16_t csum; /**< Checksum field. */
	uint8_t opcode; /**< RTE_MLX5CQ_OP_* of the CQE. */
	uint8_t status; /**< enum ibv_wc_status value (0: success). */
	uint8_t syndrome; /**< Error syndrome (error CQEs). */
	uint8_t vendor_syndrome; /**< Vendor error syndrome (error CQEs). */
	uint8_t rss_hash_type; /**< RSS hash type. */
	uint8_t s_wqe_opcode; /**< Send WQE opcode (error CQEs). */
	uint8_t rsvd[2]; /**< Zero. */
};

/** Why rte_mlx5cq_poll_burst() leaves the inline path (rte_mlx5cq.slow). */
#define RTE_MLX5CQ_SLOW_LOCK 0x01 /**< Not SINGLE_THREADED: spinlock. */
#define RTE_MLX5CQ_SLOW_ENHANCED 0x02 /**< Enhanced compression layout. */
#define RTE_MLX5CQ_SLOW_SESSION 0x04 /**< A compressed session is open. */
#define RTE_MLX5CQ_SLOW_VEC 0x08 /**< A vector poll is selected. */
/** Collapsed CQ: read with rte_mlx5cq_collapsed_read() only. */
#define RTE_MLX5CQ_SLOW_COLLAPSED 0x10

/**
 * Value of rte_mlx5cq.comp: the mini-CQE format (PRM value
 * MLX5_CQE_RESP_FORMAT_*) + 1, 0 without compression, or-ed with this bit
 * for the enhanced layout.
 */
#define RTE_MLX5CQ_COMP_ENHANCED 0x80
/** Mask of the format part of rte_mlx5cq.comp. */
#define RTE_MLX5CQ_COMP_FORMAT_MASK 0x7f

/** Bursts smaller than this stay on the inline scalar loop. */
#define RTE_MLX5CQ_VEC_MIN_BURST 4

/** Poll implementations (rte_mlx5cq_vec_set()). */
enum rte_mlx5cq_vec {
	RTE_MLX5CQ_VEC_SCALAR = 0, /**< Plain C: the reference. */
	RTE_MLX5CQ_VEC_SSE = 1, /**< SSE4.2 (x86, 128-bit). */
	RTE_MLX5CQ_VEC_AVX2 = 2, /**< AVX2 (x86, 256-bit). */
	RTE_MLX5CQ_VEC_NEON = 3, /**< NEON (AArch64, 128-bit). */
	RTE_MLX5CQ_VEC_MAX, /**< Number of implementations. */
};

/**
 * CQ handle: one cache line, everything the inline poll reads and writes.
 * Public for the inline fast path only: never write it; read the counters
 * with rte_mlx5cq_counters_get() and the rest with rte_mlx5cq_info_get().
 */
struct rte_mlx5cq {
	volatile uint8_t *ring; /**< Ring start (entry 0, stride start). */
	volatile uint32_t *dbrec; /**< Doorbell record (big endian ci, arm). */
	uint32_t ci; /**< Consumer index, free running. */
	uint32_t mask; /**< Entries - 1. */
	uint8_t log_n; /**< log2 of entries. */
	uint8_t stride_shift; /**< log2 of the CQE stride (6 or 7). */
	uint8_t cqe_off; /**< Offset of the 64 B CQE in its stride. */
	uint8_t comp; /**< Format + 1 | RTE_MLX5CQ_COMP_ENHANCED, 0: none. */
	uint8_t slow; /**< RTE_MLX5CQ_SLOW_* bits: 0 on the inline path. */
	uint8_t vec; /**< enum rte_mlx5cq_vec in use. */
	uint16_t rsvd0;
	uint32_t cqn; /**< CQ number. */
	uint32_t rsvd1;
	uint64_t completions; /**< Counter: completions delivered. */
	uint64_t polls; /**< Counter: burst poll calls. */
	uint64_t empty_polls; /**< Counter: polls that found nothing. */
} __rte_cache_aligned;

/**
 * @internal Out-of-line part of rte_mlx5cq_poll_burst(): entered when the
 * CQ is not on the inline path (rte_mlx5cq.slow: lock, enhanced layout,
 * open session, vector poll) with done 0, or by the inline path at a
 * software-owned CQE it does not decode (compressed, error) with done > 0
 * possible.
 *
 * On entry records [0, done) hold the regular CQEs at cq->ci ..
 * cq->ci + done - 1; nothing of them is published yet (consumer index,
 * doorbell record, counters): this function publishes the whole burst.
 *
 * @param cq
 *   CQ.
 * @param cpl
 *   Records of the burst.
 * @param n
 *   Size of the burst.
 * @param done
 *   Records already filled.
 * @return
 *   Records filled in total.
 */
__rte_experimental
uint16_t rte_mlx5cq_poll_burst_ool(struct rte_mlx5cq *cq,
				   struct rte_mlx5cq_cpl *cpl, uint16_t n,
				   uint16_t done);

/** @internal Syndrome to status table (rdma-core mlx5_handle_error_cqe). */
static __rte_always_inline uint8_t
rte_mlx5cq__err_status(uint8_t syndrome)
{
	/* enum ibv_wc_status values. */
	switch (syndrome) {
	case 0x01: return 1;	/* IBV_WC_LOC_LEN_ERR */
	case 0x02: return 2;	/* IBV_WC_LOC_QP_OP_ERR */
	case 0x04: return 4;	/* IBV_WC_LOC_PROT_ERR */
	case 0x05: return 5;	/* IBV_WC_WR_FLUSH_ERR */
	case 0x06: return 6;	/* IBV_WC_MW_BIND_ERR */
	case 0x10: return 7;	/* IBV_WC_BAD_RESP_ERR */
	case 0x11: return 8;	/* IBV_WC_LOC_ACCESS_ERR */
	case 0x12: return 9;	/* IBV_WC_REM_INV_REQ_ERR */
	case 0x13: return 10;	/* IBV_WC_REM_ACCESS_ERR */
	case 0x14: return 11;	/* IBV_WC_REM_OP_ERR */
	case 0x15: return 12;	/* IBV_WC_RETRY_EXC_ERR */
	case 0x16: return 13;	/* IBV_WC_RNR_RETRY_EXC_ERR */
	case 0x22: return 16;	/* IBV_WC_REM_ABORT_ERR */
	default: return 21;	/* IBV_WC_GENERAL_ERR */
	}
}

/** @internal Address of the 64 B CQE of ring entry idx. */
static __rte_always_inline volatile uint8_t *
rte_mlx5cq__cqe(const struct rte_mlx5cq *cq, uint32_t idx)
{
	return cq->ring + ((size_t)(idx & cq->mask) << cq->stride_shift) +
	       cq->cqe_off;
}

/**
 * @internal Ownership test of a CQE at consumer index ci of a ring of
 * 2^log_n entries.
 *
 * @return
 *   1 when software owns it, 0 when hardware still does (or it is invalid).
 */
static __rte_always_inline int
rte_mlx5cq__sw_owned(uint8_t op_own, uint32_t ci, unsigned int log_n)
{
	return (op_own & 1) == ((ci >> log_n) & 1) &&
	       (op_own >> 4) != RTE_MLX5CQ_OP_INVALID;
}

/**
 * @internal Test of the inline path: software owns the CQE (owner bit
 * equal to the pass parity par) and it is a regular CQE that is neither
 * compressed (format 3) nor an error or invalid (opcode 0xd and above).
 */
static __rte_always_inline int
rte_mlx5cq__plain(uint8_t op_own, unsigned int par)
{
	return ((op_own ^ par) & 1) == 0 &&
	       (op_own & 0x0c) != (RTE_MLX5CQ_FORMAT_COMPRESSED << 2) &&
	       op_own < (RTE_MLX5CQ_OP_REQ_ERR << 4);
}

/**
 * @internal Decode a regular success CQE (rte_mlx5cq__plain()) into a
 * record. Every byte of the record is written.
 */
static __rte_always_inline void
rte_mlx5cq__decode_ok(volatile const uint8_t *cqe, uint8_t op_own,
		      struct rte_mlx5cq_cpl *c)
{
	uint64_t tail;

	c->byte_cnt = rte_mlx5cq__be32(cqe, RTE_MLX5CQ_CQE_BYTE_CNT);
	c->rss_hash = rte_mlx5cq__be32(cqe, RTE_MLX5CQ_CQE_RX_HASH_RES);
	c->flow_tag = rte_mlx5cq__be32(cqe, RTE_MLX5CQ_CQE_SOP_DROP_QPN) &
		      0xffffff;
	c->metadata = rte_mlx5cq__be32(cqe, RTE_MLX5CQ_CQE_METADATA);
	c->timestamp = RTE_MLX5CQ__BE64(*(volatile const uint64_t *)
					(cqe + RTE_MLX5CQ_CQE_TIMESTAMP));
	c->wqe_counter = rte_mlx5cq__be16(cqe, RTE_MLX5CQ_CQE_WQE_COUNTER);
	c->vlan_tci = rte_mlx5cq__be16(cqe, RTE_MLX5CQ_CQE_VLAN_INFO);
	c->hdr_type_etc = rte_mlx5cq__be16(cqe, RTE_MLX5CQ_CQE_HDR_TYPE_ETC);
	c->csum = rte_mlx5cq__be16(cqe, RTE_MLX5CQ_CQE_CSUM);
	/* opcode .. rsvd: one 8-byte store (little endian: opcode first),
	 * status, syndromes, s_wqe_opcode and rsvd zero.
	 */
	tail = (uint64_t)(op_own >> 4) |
	       (uint64_t)cqe[RTE_MLX5CQ_CQE_RX_HASH_TYPE] << 32;
	memcpy(&c->opcode, &tail, sizeof(tail));
}

/**
 * @internal Barrier before the doorbell record hands consumed entries back:
 * the invalidation writes and the reads of those entries must be done
 * before the device may overwrite them. On x86 (TSO) loads are not
 * reordered with later stores and stores stay in order, so the I/O write
 * barrier (a compiler barrier) suffices; weakly ordered CPUs need a full
 * I/O barrier to order the earlier loads too.
 */
#if defined(RTE_ARCH_X86)
#define RTE_MLX5CQ__DBR_BARRIER() rte_io_wmb()
#else
#define RTE_MLX5CQ__DBR_BARRIER() rte_io_mb()
#endif

/**
 * @internal Publish the consumer index: the doorbell record is written
 * after the consumed entries have been read (barrier first).
 */
static __rte_always_inline void
rte_mlx5cq__update_ci(struct rte_mlx5cq *cq, uint32_t ci)
{
	cq->ci = ci;
	RTE_MLX5CQ__DBR_BARRIER();
	/* A builtin: inlined in functions built for another target too. */
	cq->dbrec[0] = RTE_MLX5CQ__BE32(ci & 0xffffff);
}

/**
 * Poll up to n completions.
 *
 * For each entry from the consumer index on: the owner bit of op_own must
 * equal the pass parity ((ci >> log2(entries)) & 1) and the opcode must not
 * be INVALID, else the burst ends; only then, after a read barrier, is the
 * rest of the CQE read and decoded into cpl[]. Error CQEs (REQ_ERR,
 * RESP_ERR) become records with a non-zero status (rdma-core's syndrome to
 * ibv_wc_status mapping); polling goes on past them. After the burst the
 * consumer index is published once: write barrier, then the doorbell
 * record's first word (big endian, ci & 0xffffff).
 *
 * Compressed sessions are expanded into one record per mini-CQE (see
 * doc/guides/mlx5cq_poll.rst for the fields each mini-CQE format gives),
 * also across bursts and the wrap of the ring. The loop below is the
 * scalar reference for regular CQEs; when a vector implementation is
 * selected (rte_mlx5cq_vec_set(), chosen at creation from the CPU and
 * the EAL's maximum SIMD bitwidth) and for compressed sessions, error
 * CQEs, the enhanced layout and the lock of CQs that are not
 * SINGLE_THREADED, the poll goes out of line (rte_mlx5cq_poll_burst_ool()).
 * Every implementation fills identical records.
 *
 * Thread safe unless the CQ was created RTE_MLX5CQ_F_SINGLE_THREADED.
 *
 * @param cq
 *   CQ.
 * @param cpl
 *   Array of at least n records.
 * @param n
 *   Maximum number of completions.
 * @return
 *   Number of records filled.
 */
static __rte_always_inline uint16_t
rte_mlx5cq_poll_burst(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
		      uint16_t n)
{
	/*
	 * The handle's fields are copied to locals: the stores into cpl[]
	 * could alias them and would force reloads.
	 */
	volatile const uint8_t *ring = cq->ring + cq->cqe_off;
	const uint32_t mask = cq->mask;
	const unsigned int shift = cq->stride_shift;
	const unsigned int log_n = cq->log_n;
	uint32_t ci = cq->ci;
	uint16_t i;

	if (unlikely(cq->slow)) {
		/*
		 * Vector poll: tiny bursts stay on the inline loop (which
		 * answers an empty CQ itself); for the others an empty CQ
		 * is answered inline (one owner test).
		 */
		if (cq->slow != RTE_MLX5CQ_SLOW_VEC)
			return rte_mlx5cq_poll_burst_ool(cq, cpl, n, 0);
		if (n >= RTE_MLX5CQ_VEC_MIN_BURST) {
			if (!rte_mlx5cq__sw_owned(ring[((size_t)(ci & mask) <<
							shift) +
						       RTE_MLX5CQ_CQE_OP_OWN],
						  ci, log_n)) {
				cq->polls++;
				cq->empty_polls++;
				return 0;
			}
			return rte_mlx5cq_poll_burst_ool(cq, cpl, n, 0);
		}
	}
	for (i = 0; i < n; i++) {
		volatile const uint8_t *cqe =
			ring + ((size_t)(ci & mask) << shift);
		uint8_t op_own = cqe[RTE_MLX5CQ_CQE_OP_OWN];

		if (!rte_mlx5cq__plain(op_own, (ci >> log_n) & 1)) {
			/* Compressed or error CQE: out of line. */
			if (rte_mlx5cq__sw_owned(op_own, ci, log_n))
				return rte_mlx5cq_poll_burst_ool(cq, cpl, n, i);
			break;
		}
		rte_io_rmb();
		rte_mlx5cq__decode_ok(cqe, op_own, &cpl[i]);
		ci++;
	}
	cq->polls++;
	if (likely(i)) {
		cq->completions += i;
		rte_mlx5cq__update_ci(cq, ci);
	} else {
		cq->empty_polls++;
	}
	return i;
}

/**
 * Whether rte_mlx5cq_poll_burst() would find something now: the CQE at
 * the consumer index is software-owned (of any kind), or a compressed
 * session is open, or the poll is not on the inline path (lock, enhanced
 * layout: the answer is then 1 and the poll decides). One load, no
 * barrier: a consumer calls it to skip a poll, never to read a CQE.
 *
 * @param cq
 *   CQ.
 * @return
 *   1 when a poll may deliver a completion, 0 when it would not.
 */
static __rte_always_inline int
rte_mlx5cq_ready(const struct rte_mlx5cq *cq)
{
	if (unlikely(cq->slow & ~RTE_MLX5CQ_SLOW_VEC))
		return 1;
	return rte_mlx5cq__sw_owned(rte_mlx5cq__cqe(cq, cq->ci)
				    [RTE_MLX5CQ_CQE_OP_OWN], cq->ci,
				    cq->log_n);
}

/**
 * Lean path, first half (liburing's io_uring_peek_batch_cqe): count the
 * regular success CQEs ready at the consumer index, at most n, without
 * consuming them. The owner bits of all of them are checked first, then
 * a read barrier orders every later payload read; the caller reads the
 * CQEs with rte_mlx5cq_peek_cqe() and consumes them with
 * rte_mlx5cq_advance().
 *
 * The count stops at the end of the ring (the next call goes on from the
 * start), at a compressed or error CQE, and is 0 whenever the poll is not
 * on the inline path (rte_mlx5cq.slow: open session, lock, enhanced layout
 * or vector poll selected). A caller that gets fewer than it asked for
 * calls rte_mlx5cq_poll_burst(), which handles everything.
 *
 * @param cq
 *   CQ created SINGLE_THREADED.
 * @param n
 *   Maximum number of CQEs.
 * @return
 *   Number of plain CQEs ready.
 */
static __rte_always_inline uint16_t
rte_mlx5cq_peek(const struct rte_mlx5cq *cq, uint16_t n)
{
	volatile const uint8_t *ring = cq->ring + cq->cqe_off;
	const unsigned int shift = cq->stride_shift;
	const uint32_t ci = cq->ci;
	const uint32_t idx = ci & cq->mask;
	const unsigned int par = (ci >> cq->log_n) & 1;
	uint32_t room = cq->mask + 1 - idx;
	uint16_t k;

	if (unlikely(cq->slow & ~RTE_MLX5CQ_SLOW_VEC))
		return 0;
	if (room < n)
		n = (uint16_t)room;
	for (k = 0; k < n; k++)
		if (!rte_mlx5cq__plain(ring[((size_t)(idx + k) << shift) +
					     RTE_MLX5CQ_CQE_OP_OWN], par))
			break;
	rte_io_rmb();
	return k;
}

/**
 * Lean path: the 64 B CQE i entries after the consumer index, for
 * i < the count rte_mlx5cq_peek() returned, as a typed view (fields read
 * with the rte_mlx5cq_cqe_*() accessors of rte_mlx5cq_view.h).
 *
 * @param cq
 *   CQ.
 * @param i
 *   Position after the consumer index.
 * @return
 *   The CQE.
 */
static __rte_always_inline volatile const struct rte_mlx5cq_cqe *
rte_mlx5cq_peek_cqe(const struct rte_mlx5cq *cq, uint16_t i)
{
	return (volatile const struct rte_mlx5cq_cqe *)
		rte_mlx5cq__cqe(cq, cq->ci + i);
}

/**
 * Lean path, second half (liburing's io_uring_cq_advance): consume k
 * CQEs found by rte_mlx5cq_peek(): the consumer index moves, the counters
 * count them and the doorbell record is written once, after a barrier
 * that orders the caller's reads of those CQEs before it.
 *
 * @param cq
 *   CQ.
 * @param k
 *   CQEs consumed (at most what rte_mlx5cq_peek() returned).
 */
static __rte_always_inline void
rte_mlx5cq_advance(struct rte_mlx5cq *cq, uint16_t k)
{
	cq->polls++;
	if (likely(k)) {
		cq->completions += k;
		rte_mlx5cq__update_ci(cq, cq->ci + k);
	} else {
		cq->empty_polls++;
	}
}

#ifdef __cplusplus
}
#endif

#endif /* RTE_MLX5CQ_CORE_H_ */
