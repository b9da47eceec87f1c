/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef MLX5_EMU_PRODUCER_H_
#define MLX5_EMU_PRODUCER_H_

/**
 * @file
 * The emulated HCA's producer threads: completions written into a CQ by
 * a thread of the model, paced and generated as a test asks, for the
 * stress and soak tests. Included by mlx5_emu.h (struct mlx5_emu_wc).
 */

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Generator of a producer thread. Completion number seq (from 0) is:
 * - kind: requester for req_percent % of the completions (runs of
 *   run_len share a kind), else responder; error_permille per mille are
 *   error CQEs of that kind (syndrome 0x05 flush, vendor 0x77);
 * - wqe_counter = seq & 0xffff (carried by every mini-CQE format except
 *   HASH, where consecutive values are implied): the sequence number a
 *   poller checks for exactly-once, in-order delivery;
 * - rx_hash_res, flow_table_metadata and timestamp = seq of the first
 *   completion of its run (a run is run_len completions aligned on
 *   multiples of run_len; run_len <= 1: every completion its own run),
 *   byte_cnt = 64 + (seq & 1023), qpn 0x100, s_wqe_opcode 0x0a,
 *   hdr_type_etc 0x0600; so a run can be compressed in every format.
 * A callback, when set, fills each completion instead.
 */
struct mlx5_emu_producer_attr {
	uint64_t count; /**< Completions to write; 0: until stopped. */
	uint32_t batch; /**< Completions per post (1..256, 0 = 1). */
	uint32_t rate; /**< Completions per second; 0: no pacing. */
	uint32_t jitter_us; /**< Up to this much extra delay per batch. */
	uint8_t req_percent; /**< Share of requester completions (0..100). */
	uint16_t error_permille; /**< Error completions per 1000. */
	uint16_t run_len; /**< Compression-friendly run length. */
	uint8_t overrun; /**< Ignore the consumer (MLX5_EMU_POST_OVERRUN). */
	uint32_t seed; /**< Random seed (kind mix, errors, jitter). */
	/** Optional: fill completion seq (its kind, fields). */
	void (*gen)(void *arg, uint64_t seq, struct mlx5_emu_wc *cpl);
	void *gen_arg; /**< Argument of gen. */
};

/** Progress of a producer thread. */
struct mlx5_emu_producer_stats {
	uint64_t written; /**< Completions written (taken by the CQ). */
	uint64_t errors; /**< Error completions among them. */
	uint64_t full; /**< Times the ring was full (the thread waited). */
	int done; /**< The thread finished (count reached or failure). */
	int last_ret; /**< Last negative post return (-EIO...), or 0. */
};

struct mlx5_emu_producer;

/**
 * Start a thread writing completions into a CQ. It respects the consumer
 * index (waits while the ring is full) unless attr->overrun, flushes open
 * sessions between batches and stops at count, at mlx5_emu_producer_stop()
 * or when a post fails (CQ destroyed or in error).
 *
 * @param ctx
 *   Emulated context.
 * @param cqn
 *   CQ number.
 * @param attr
 *   Generator, pacing.
 * @return
 *   A producer, or NULL with rte_errno/errno set (EINVAL, ENOENT, ENOMEM).
 */
__rte_internal
struct mlx5_emu_producer *
mlx5_emu_producer_start(struct ibv_context *ctx, uint32_t cqn,
			const struct mlx5_emu_producer_attr *attr);

/**
 * Read the progress of a producer. A snapshot with done set carries the
 * final counts (written is then every completion the thread wrote).
 *
 * @param p
 *   Producer.
 * @param stats
 *   Filled.
 */
__rte_internal
void mlx5_emu_producer_stats_get(struct mlx5_emu_producer *p,
				 struct mlx5_emu_producer_stats *stats);

/**
 * Stop a producer thread (waits for it) and free it.
 *
 * @param p
 *   Producer.
 * @param stats
 *   Final progress, or NULL.
 * @return
 *   0, or -EINVAL for NULL.
 */
__rte_internal
int mlx5_emu_producer_stop(struct mlx5_emu_producer *p,
			   struct mlx5_emu_producer_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* MLX5_EMU_PRODUCER_H_ */
