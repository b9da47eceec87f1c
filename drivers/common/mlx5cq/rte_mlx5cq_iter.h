/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef RTE_MLX5CQ_ITER_H_
#define RTE_MLX5CQ_ITER_H_

/**
 * @file
 * mlx5cq iterator: the ibv_cq_ex-style start/next/end poll and the
 * read_*() accessors of the current completion (rdma-core's mlx5
 * provider, cq.c). Included by rte_mlx5cq.h.
 */

#include <stdint.h>

#include <rte_byteorder.h>
#include <rte_compat.h>

#include "rte_mlx5cq_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Attributes of rte_mlx5cq_start_poll() (struct ibv_poll_cq_attr). */
struct rte_mlx5cq_poll_attr {
	uint32_t comp_mask; /**< Must be 0. */
};

/**
 * Iterator (ibv_start_poll()): take the CQ lock and consume the first
 * completion; its fields are then read with the rte_mlx5cq_read_*()
 * functions. The consumer index is published by rte_mlx5cq_end_poll().
 *
 * @param cq
 *   CQ.
 * @param attr
 *   NULL or comp_mask 0.
 * @return
 *   0; ENOENT when the CQ is empty (the lock is released, do not call
 *   end_poll); EINVAL; EBUSY inside another start/end pair, or (wall
 *   clock) the clock information could not be read, the completion left
 *   in the CQ. Positive values, as ibv_start_poll().
 */
__rte_experimental
int rte_mlx5cq_start_poll(struct rte_mlx5cq *cq,
			  const struct rte_mlx5cq_poll_attr *attr);

/**
 * Iterator (ibv_next_poll()): consume the next completion.
 *
 * @param cq
 *   CQ.
 * @return
 *   0, ENOENT (no more; call end_poll), EINVAL (no start_poll).
 */
__rte_experimental
int rte_mlx5cq_next_poll(struct rte_mlx5cq *cq);

/**
 * Iterator (ibv_end_poll()): publish the consumer index (doorbell record)
 * and release the lock.
 *
 * @param cq
 *   CQ.
 */
__rte_experimental
void rte_mlx5cq_end_poll(struct rte_mlx5cq *cq);

/**
 * Iterator: ibv_wc_status of the current completion (ibv_cq_ex.status).
 *
 * @param cq
 *   CQ inside start_poll/end_poll.
 * @return
 *   The status (rdma-core's syndrome mapping for error CQEs).
 */
__rte_experimental
uint8_t rte_mlx5cq_wc_status(const struct rte_mlx5cq *cq);

/**
 * Iterator: the wr_id-like value of the current completion: its WQE
 * counter (or stride index); the caller maps it to its work request.
 *
 * @param cq
 *   CQ inside start_poll/end_poll.
 * @return
 *   The WQE counter.
 */
__rte_experimental
uint64_t rte_mlx5cq_wc_wr_id(const struct rte_mlx5cq *cq);

/**
 * Iterator: error syndrome of the current completion (0 for success).
 *
 * @param cq
 *   CQ inside start_poll/end_poll.
 * @return
 *   The syndrome byte.
 */
__rte_experimental
uint8_t rte_mlx5cq_read_syndrome(const struct rte_mlx5cq *cq);

/**
 * Iterator: enum ibv_wc_opcode of the current completion, as rdma-core
 * maps CQE opcodes (requester: the send WQE opcode in sop_drop_qpn[31:24]).
 *
 * @param cq
 *   CQ inside start_poll/end_poll.
 * @return
 *   The opcode, -1 outside start_poll/end_poll.
 */
__rte_experimental
int rte_mlx5cq_read_opcode(const struct rte_mlx5cq *cq);

/**
 * Iterator: vendor error syndrome (error CQEs, else 0).
 *
 * @param cq
 *   CQ inside start_poll/end_poll.
 * @return
 *   vendor_err_synd.
 */
__rte_experimental
uint32_t rte_mlx5cq_read_vendor_err(const struct rte_mlx5cq *cq);

/**
 * Iterator: enum ibv_wc_flags of the current completion (IMM, INV,
 * IP_CSUM_OK, GRH as rdma-core derives them).
 *
 * @param cq
 *   CQ inside start_poll/end_poll.
 * @return
 *   IBV_WC_* flags.
 */
__rte_experimental
unsigned int rte_mlx5cq_read_wc_flags(const struct rte_mlx5cq *cq);

/**
 * Iterator read functions of the fields requested in wc_flags
 * (IBV_WC_EX_WITH_*). Reading a field the CQ's wc_flags lacks is refused:
 * 0 is returned, rte_errno is EPERM and an ERR line is logged.
 *
 * @param cq
 *   CQ inside start_poll/end_poll.
 * @return
 *   The field of the current completion.
 */
__rte_experimental
uint32_t rte_mlx5cq_read_byte_len(const struct rte_mlx5cq *cq);
/** @copydoc rte_mlx5cq_read_byte_len (immediate, network order) */
__rte_experimental
rte_be32_t rte_mlx5cq_read_imm_data(const struct rte_mlx5cq *cq);
/** @copydoc rte_mlx5cq_read_byte_len (QP number) */
__rte_experimental
uint32_t rte_mlx5cq_read_qp_num(const struct rte_mlx5cq *cq);
/** @copydoc rte_mlx5cq_read_byte_len (source QP) */
__rte_experimental
uint32_t rte_mlx5cq_read_src_qp(const struct rte_mlx5cq *cq);
/** @copydoc rte_mlx5cq_read_byte_len (source LID) */
__rte_experimental
uint32_t rte_mlx5cq_read_slid(const struct rte_mlx5cq *cq);
/** @copydoc rte_mlx5cq_read_byte_len (service level) */
__rte_experimental
uint8_t rte_mlx5cq_read_sl(const struct rte_mlx5cq *cq);
/** @copydoc rte_mlx5cq_read_byte_len (DLID path bits) */
__rte_experimental
uint8_t rte_mlx5cq_read_dlid_path_bits(const struct rte_mlx5cq *cq);
/** @copydoc rte_mlx5cq_read_byte_len (completion timestamp) */
__rte_experimental
uint64_t rte_mlx5cq_read_completion_ts(const struct rte_mlx5cq *cq);
/**
 * Iterator: the completion time in nanoseconds of the wall clock
 * (ibv_wc_read_completion_wallclock_ns(); needs
 * IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK), as rdma-core's mlx5
 * provider gives it: the CQE timestamp as it is when the CQEs carry real
 * time and IBV_WC_EX_WITH_COMPLETION_TIMESTAMP is not asked, else the
 * free-running timestamp through mlx5dv_ts_to_ns() with the clock
 * information rte_mlx5cq_start_poll() read (start_poll then also returns
 * the errno of mlx5dv_get_clock_info(), EBUSY while the kernel updates
 * it, and leaves the completion in the CQ).
 *
 * @param cq
 *   CQ between rte_mlx5cq_start_poll() and rte_mlx5cq_end_poll().
 * @return
 *   Nanoseconds, or 0 with rte_errno set (EINVAL outside start/end,
 *   EPERM without the flag).
 */
__rte_experimental
uint64_t rte_mlx5cq_read_completion_wallclock_ns(const struct rte_mlx5cq *cq);
/** @copydoc rte_mlx5cq_read_byte_len (customer VLAN) */
__rte_experimental
uint16_t rte_mlx5cq_read_cvlan(const struct rte_mlx5cq *cq);
/** @copydoc rte_mlx5cq_read_byte_len (flow tag) */
__rte_experimental
uint32_t rte_mlx5cq_read_flow_tag(const struct rte_mlx5cq *cq);

/**
 * The rkey a SEND with invalidate invalidated, host order
 * (ibv_wc_read_invalidated_rkey(); needs IBV_WC_EX_WITH_IMM).
 *
 * @param cq
 *   CQ between rte_mlx5cq_start_poll() and rte_mlx5cq_end_poll().
 * @return
 *   The rkey, or 0 with rte_errno set (EINVAL, EPERM).
 */
__rte_experimental
uint32_t rte_mlx5cq_read_invalidated_rkey(const struct rte_mlx5cq *cq);

/**
 * P_Key index of a UD responder completion (bits 15:0 of the CQE's
 * imm_inval_pkey, as rdma-core's poll sets ibv_wc.pkey_index; the
 * extended verbs API has no such read: a library extension).
 *
 * @param cq
 *   CQ between rte_mlx5cq_start_poll() and rte_mlx5cq_end_poll().
 * @return
 *   The index, or 0 with rte_errno set (EINVAL).
 */
__rte_experimental
uint16_t rte_mlx5cq_read_pkey_index(const struct rte_mlx5cq *cq);

#ifdef __cplusplus
}
#endif

#endif /* RTE_MLX5CQ_ITER_H_ */
