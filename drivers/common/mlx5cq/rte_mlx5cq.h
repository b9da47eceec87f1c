/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef RTE_MLX5CQ_H_
#define RTE_MLX5CQ_H_

/**
 * @file
 * mlx5cq: completion queues of NVIDIA ConnectX (mlx5) devices.
 *
 * Creation through DevX (PRM CREATE_CQ with umem) or verbs
 * (mlx5dv_create_cq), rings and doorbell records in rte_malloc memory, and
 * one burst completion-poll API for net and crypto PMDs. The poll fast path
 * is inline in this header.
 *
 * The CQE layout used here is written from the PRM (64 B CQE, byte offsets
 * of struct mlx5_cqe in mlx5_prm.h and struct mlx5_cqe64 / mlx5_err_cqe in
 * infiniband/mlx5dv.h).
 */

#include <stdint.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_compat.h>

#include "rte_mlx5cq_core.h"
#include "rte_mlx5cq_iter.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ibv_context;
struct mlx5_devx_cq;

/** Creation path of a CQ. */
enum rte_mlx5cq_path {
	RTE_MLX5CQ_PATH_AUTO = 0, /**< DevX when the context has it, else verbs. */
	RTE_MLX5CQ_PATH_DEVX = 1, /**< PRM CREATE_CQ with umem. */
	RTE_MLX5CQ_PATH_VERBS = 2, /**< mlx5dv_create_cq. */
	RTE_MLX5CQ_PATH_ATTACH = 3, /**< Created by mlx5_devx_cq_create(). */
};

/** Mini-CQE formats of a compressed CQ (one bit at most may be set). */
enum rte_mlx5cq_comp_format {
	RTE_MLX5CQ_COMP_HASH = 1u << 0, /**< RSS hash result. */
	RTE_MLX5CQ_COMP_CSUM = 1u << 1, /**< Checksum. */
	RTE_MLX5CQ_COMP_CSUM_STRIDX = 1u << 2, /**< Checksum + stride index. */
	RTE_MLX5CQ_COMP_FTAG_STRIDX = 1u << 3, /**< Flow tag + stride index. */
	RTE_MLX5CQ_COMP_L34H_STRIDX = 1u << 4, /**< L3/L4 header + stride. */
};

/** Compressed CQE layouts. */
enum rte_mlx5cq_comp_layout {
	RTE_MLX5CQ_COMP_LAYOUT_BASIC = 0, /**< Title + mini-CQE arrays. */
	RTE_MLX5CQ_COMP_LAYOUT_ENHANCED = 1, /**< Validity iteration count. */
};

/** Valid fields of struct rte_mlx5cq_attr (comp_mask). */
enum rte_mlx5cq_attr_mask {
	RTE_MLX5CQ_ATTR_CQE_SIZE = 1u << 0, /**< cqe_size is set. */
	RTE_MLX5CQ_ATTR_COMPRESSED = 1u << 1, /**< comp_format/layout set. */
	RTE_MLX5CQ_ATTR_WC_FLAGS = 1u << 2, /**< wc_flags is set. */
	/** cq_period, cq_max_count and cq_period_mode are set. */
	RTE_MLX5CQ_ATTR_MODERATION = 1u << 3,
};

/** When a moderation period starts (cqc.cq_period_mode). */
enum rte_mlx5cq_period_mode {
	RTE_MLX5CQ_PERIOD_FROM_EQE = 0, /**< From the last event. */
	RTE_MLX5CQ_PERIOD_FROM_CQE = 1, /**< From the first new CQE. */
};

/** Creation flags (struct rte_mlx5cq_attr flags). */
enum rte_mlx5cq_flags {
	/** Only one thread polls: no lock (IBV_CREATE_CQ_ATTR_SINGLE_THREADED). */
	RTE_MLX5CQ_F_SINGLE_THREADED = 1u << 0,
	/** The device may overwrite unconsumed CQEs (cqc.oi). */
	RTE_MLX5CQ_F_IGNORE_OVERRUN = 1u << 1,
	/** 128 B CQEs with the 64 B CQE padded to the end (needs 128 B). */
	RTE_MLX5CQ_F_CQE_PAD = 1u << 2,
	/**
	 * Completion events: a completion channel (verbs) or DevX event
	 * channel is made with the CQ, rte_mlx5cq_event_fd() gives its fd.
	 */
	RTE_MLX5CQ_F_EVENTS = 1u << 4,
	/**
	 * Collapsed CQ (cqc.cc; DPDK's mlx5_devx_cq_attr.use_first_only):
	 * the device writes every CQE into entry 0, which holds the newest
	 * completion; read it with rte_mlx5cq_collapsed_read(), not with
	 * the burst poll. DevX path, without compression.
	 */
	RTE_MLX5CQ_F_COLLAPSED = 1u << 5,
	/**
	 * A solicited or error CQE releases an event that moderation holds
	 * (cqc.scqe_break_moderation_en, HCA_CAP.scqe_break_moderation).
	 * DevX path.
	 */
	RTE_MLX5CQ_F_SCQE_BREAK_MODERATION = 1u << 6,
};

/** All flags known to this version. */
#define RTE_MLX5CQ_F_ALL (RTE_MLX5CQ_F_SINGLE_THREADED | \
			  RTE_MLX5CQ_F_IGNORE_OVERRUN | RTE_MLX5CQ_F_CQE_PAD | \
			  RTE_MLX5CQ_F_EVENTS | RTE_MLX5CQ_F_COLLAPSED | \
			  RTE_MLX5CQ_F_SCQE_BREAK_MODERATION)

/**
 * CQ creation attributes: struct ibv_cq_init_attr_ex and
 * struct mlx5dv_cq_init_attr in one.
 */
struct rte_mlx5cq_attr {
	uint32_t comp_mask; /**< RTE_MLX5CQ_ATTR_* bits. */
	uint32_t cqe; /**< Requested entries (at least this many usable). */
	uint32_t flags; /**< RTE_MLX5CQ_F_* bits. */
	uint16_t cqe_size; /**< 64 or 128 (RTE_MLX5CQ_ATTR_CQE_SIZE). */
	uint8_t comp_format; /**< One RTE_MLX5CQ_COMP_* bit, 0: none. */
	uint8_t comp_layout; /**< enum rte_mlx5cq_comp_layout. */
	uint64_t wc_flags; /**< IBV_WC_EX_WITH_* fields the consumer reads. */
	uint32_t comp_vector; /**< Completion vector (selects the EQ). */
	int socket; /**< NUMA socket of ring memory, SOCKET_ID_ANY allowed. */
	enum rte_mlx5cq_path path; /**< AUTO, DEVX or VERBS. */
	/**
	 * Event moderation (RTE_MLX5CQ_ATTR_MODERATION, DevX path): an armed
	 * CQ's event waits until cq_max_count completions are written or
	 * cq_period microseconds passed (0..4095; 0 and 0: no moderation).
	 */
	uint16_t cq_period;
	uint16_t cq_max_count; /**< See cq_period. */
	uint8_t cq_period_mode; /**< enum rte_mlx5cq_period_mode. */
};

/** Per-CQ counters kept by the poll functions. */
struct rte_mlx5cq_counters {
	uint64_t completions; /**< Completions delivered (errors included). */
	uint64_t empty_polls; /**< Polls that found nothing. */
	uint64_t errors; /**< Error CQEs delivered. */
	uint64_t polls; /**< Burst poll calls. */
	/**
	 * Polls stopped at a compressed CQE that cannot be expanded: the CQ
	 * was not created with compression, or the CQE is malformed (basic
	 * layout session count below 2 or above the ring, enhanced layout
	 * array without a title CQE before it or of more than 7 mini-CQEs).
	 */
	uint64_t comp_unhandled;
	/** Compressed sessions (basic) or compressed CQEs (enhanced) met. */
	uint64_t sessions;
	uint64_t minis; /**< Completions delivered from mini-CQEs. */
	/** CQ errors seen (overrun: rte_mlx5cq_error_check()). */
	uint64_t overruns;
	uint64_t arms; /**< Arm doorbells rung (rte_mlx5cq_arm()). */
	uint64_t events; /**< Completion events consumed. */
	/** Error CQEs by syndrome byte. */
	uint64_t err_syndrome[256];
};

/** Information about a CQ (rte_mlx5cq_info_get()). */
struct rte_mlx5cq_info {
	uint32_t cqn; /**< CQ number. */
	uint32_t entries; /**< Ring entries (power of two). */
	uint32_t capacity; /**< Usable entries: entries - 1. */
	uint16_t cqe_size; /**< Stride: 64 or 128. */
	uint8_t cqe_pad; /**< 128 B padded. */
	uint8_t comp_format; /**< RTE_MLX5CQ_COMP_* bit or 0. */
	uint8_t comp_layout; /**< enum rte_mlx5cq_comp_layout. */
	enum rte_mlx5cq_path path; /**< DEVX, VERBS or ATTACH. */
	uint32_t flags; /**< RTE_MLX5CQ_F_* used. */
	uint32_t eqn; /**< EQ number (DevX). */
	uint32_t uar_page; /**< UAR page index (DevX). */
	void *ring; /**< Ring address. */
	volatile uint32_t *dbrec; /**< Doorbell record address. */
	size_t ring_size; /**< Ring bytes. */
	int socket; /**< NUMA socket of the ring. */
	int ring_hugepage; /**< 1 when the ring lies in a hugepage. */
	uint64_t ring_page_size; /**< Page size of the ring memory. */
	uint32_t log_page_size; /**< cqc.log_page_size sent (DevX). */
	uint32_t umem_id; /**< Ring umem id (DevX), 0 otherwise. */
};

/** Device-level usage figures (rte_mlx5cq_dev_stats_get()). */
struct rte_mlx5cq_dev_stats {
	uint32_t cqs; /**< CQs alive on this device. */
	uint32_t ring_umems; /**< Ring umems registered. */
	uint32_t dbr_pages; /**< Doorbell-record pages in the pool. */
	uint32_t dbr_slots; /**< Doorbell-record slots in use. */
	uint32_t dbr_umems; /**< Umems of doorbell pages. */
};

struct rte_mlx5cq_dev;

/**
 * rte_mlx5cq_dev_open_ex() flag: the caller hands the context's buffer
 * allocators to the library. The context's owner has installed none
 * (MLX5DV_CTX_ATTR_BUF_ALLOCATORS) and installs none while the device is
 * open; the library installs rte_malloc-backed ones so that verbs-path
 * rings and rdma-core's doorbell-record pages land in hugepage memory on
 * the CQ's socket, and removes them on close (rdma-core's own allocator
 * serves the context again).
 */
#define RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS (1u << 0)

/**
 * Open an mlx5cq device on a verbs context.
 *
 * Same as rte_mlx5cq_dev_open_ex() with no flags: the context's buffer
 * allocators stay as its owner set them.
 *
 * @param ctx
 *   Verbs context (real device or emulated HCA).
 * @param socket
 *   NUMA socket of the device's memory, SOCKET_ID_ANY allowed.
 * @return
 *   The device, or NULL with rte_errno set (see rte_mlx5cq_dev_open_ex()).
 */
__rte_experimental
struct rte_mlx5cq_dev *rte_mlx5cq_dev_open(struct ibv_context *ctx, int socket);

/**
 * Open an mlx5cq device on a verbs context, with flags.
 *
 * Decides whether the context has DevX (rte_common_mlx5's
 * mlx5_devx_cmd_query_hca_attr() through the glue; on failure the device is
 * verbs only), keeps the CQ capabilities of both paths (QUERY_HCA_CAP and
 * mlx5dv_query_device) and allocates a DevX UAR (DevX only).
 *
 * The context's buffer allocators belong to whoever opened the context
 * (rte_common_mlx5 installs rte_malloc-backed ones on the contexts it
 * opens). Without RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS the library leaves them
 * alone: verbs-path rings and doorbell records come from the owner's
 * allocators, or from rdma-core's own memory when none are set
 * (rte_mlx5cq_info_get() tells which). DevX-path rings and doorbell records
 * always come from rte_malloc.
 *
 * @param ctx
 *   Verbs context (real device or emulated HCA).
 * @param socket
 *   NUMA socket of the device's memory, SOCKET_ID_ANY allowed.
 * @param flags
 *   0 or RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS.
 * @return
 *   The device, or NULL with rte_errno set: EINVAL (NULL context, no such
 *   socket, unknown flag), ENOMEM, or the device's error (UAR allocation,
 *   capability queries, installing the allocators).
 */
__rte_experimental
struct rte_mlx5cq_dev *rte_mlx5cq_dev_open_ex(struct ibv_context *ctx,
					      int socket, uint32_t flags);

/**
 * Close an mlx5cq device: frees the UAR and the device, and removes the
 * buffer allocators it installed (RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS only).
 *
 * @param dev
 *   Device from rte_mlx5cq_dev_open() or rte_mlx5cq_dev_open_ex().
 * @return
 *   0, -EINVAL for NULL, or -EBUSY (rte_errno set) while CQs of the device
 *   (attached handles included) are alive.
 */
__rte_experimental
int rte_mlx5cq_dev_close(struct rte_mlx5cq_dev *dev);

/**
 * Read the device's resource usage: CQs alive, ring umems, doorbell pool
 * pages, slots in use and page umems.
 *
 * @param dev
 *   Device.
 * @param stats
 *   Filled on success.
 * @return
 *   0, or -EINVAL for a NULL argument.
 */
__rte_experimental
int rte_mlx5cq_dev_stats_get(const struct rte_mlx5cq_dev *dev,
			     struct rte_mlx5cq_dev_stats *stats);

/**
 * Create a CQ.
 *
 * The ring holds roundup_pow2(attr->cqe + 1) entries, every CQE invalid;
 * ring and doorbell record are in rte_malloc memory (DevX path: ring umem
 * plus a slot of the device's doorbell pool; verbs path: through the
 * context's buffer allocators).
 *
 * @param dev
 *   Device.
 * @param attr
 *   Attributes; see struct rte_mlx5cq_attr.
 * @return
 *   The CQ, or NULL with rte_errno set: EINVAL (bad attribute: unknown
 *   comp_mask or flag bits, cqe 0 or too large, cqe_size, padding without
 *   128 B, compression format bits, comp_vector, socket, path), ENOTSUP
 *   (wc_flags), EOPNOTSUPP (something the device or the path lacks),
 *   ENOMEM, EPROTO (verbs CQ not as requested), or the device's error.
 *   A failure leaves nothing allocated.
 */
__rte_experimental
struct rte_mlx5cq *rte_mlx5cq_create(struct rte_mlx5cq_dev *dev,
				     const struct rte_mlx5cq_attr *attr);

/**
 * Wrap a CQ created by rte_common_mlx5's mlx5_devx_cq_create() for polling.
 *
 * What the CQ is comes from the device (QUERY_CQ): its size, entry size,
 * compression, mini-CQE format and layout; compressed CQs poll as those
 * of rte_mlx5cq_create() do. The CQ stays owned by the caller:
 * rte_mlx5cq_destroy() frees only the wrapper.
 *
 * @param dev
 *   Device of the context the CQ was created on.
 * @param dcq
 *   CQ filled by mlx5_devx_cq_create().
 * @param log_desc_n
 *   log2 of its entries (as given to mlx5_devx_cq_create()), checked
 *   against the device's answer.
 * @return
 *   The CQ handle, or NULL with rte_errno set: EINVAL (NULL argument, CQ
 *   not created, log_desc_n above 24, the device's limit or not the CQ's
 *   size), ENOTSUP (a CQ in error, collapsed, of padded entries or of an
 *   unknown format), ENOMEM, or the error of QUERY_CQ.
 */
__rte_experimental
struct rte_mlx5cq *rte_mlx5cq_attach(struct rte_mlx5cq_dev *dev,
				     struct mlx5_devx_cq *dcq,
				     uint16_t log_desc_n);

/**
 * Destroy a CQ (or release an attached one).
 *
 * @param cq
 *   CQ, NULL is ignored.
 * @return
 *   0, or a negative errno (rte_errno set) when the device refused to
 *   destroy the CQ or release its memory; the CQ is then kept and the call
 *   can be repeated.
 */
__rte_experimental
int rte_mlx5cq_destroy(struct rte_mlx5cq *cq);

/**
 * Get information about a CQ.
 *
 * @param cq
 *   CQ.
 * @param info
 *   Filled on success (ring socket and page size from the EAL memseg list
 *   holding the ring).
 * @return
 *   0, or -EINVAL for a NULL argument.
 */
__rte_experimental
int rte_mlx5cq_info_get(const struct rte_mlx5cq *cq,
			struct rte_mlx5cq_info *info);

/**
 * Map an error CQE syndrome to its enum ibv_wc_status value, as the
 * rdma-core mlx5 provider does.
 *
 * @param syndrome
 *   Syndrome byte of the error CQE.
 * @return
 *   The ibv_wc_status value.
 */
__rte_experimental
uint8_t rte_mlx5cq_syndrome_status(uint8_t syndrome);

/**
 * Read the counters of a CQ (under its lock, if it has one).
 *
 * @param cq
 *   CQ (also a hand-built struct rte_mlx5cq).
 * @param c
 *   Filled on success.
 * @return
 *   0, or -EINVAL for a NULL argument.
 */
__rte_experimental
int rte_mlx5cq_counters_get(const struct rte_mlx5cq *cq,
			    struct rte_mlx5cq_counters *c);

/**
 * Zero the counters of a CQ.
 *
 * @param cq
 *   CQ.
 * @return
 *   0, or -EINVAL for NULL.
 */
__rte_experimental
int rte_mlx5cq_counters_reset(struct rte_mlx5cq *cq);

/**
 * Id of a CQ in the library's registry (telemetry /mlx5cq/info,ID).
 *
 * @param cq
 *   CQ made by rte_mlx5cq_create() or rte_mlx5cq_attach().
 * @return
 *   The id (>= 0), or -EINVAL for NULL.
 */
__rte_experimental
int rte_mlx5cq_id(const struct rte_mlx5cq *cq);

/**
 * Write the state of a CQ (indexes, session, counters) and the 64 B CQEs
 * from two entries before the consumer index to six after, in hex.
 *
 * @param f
 *   Output stream.
 * @param cq
 *   CQ.
 * @return
 *   0, or -EINVAL for a NULL argument.
 */
__rte_experimental
int rte_mlx5cq_dump(FILE *f, struct rte_mlx5cq *cq);

/**
 * Raw view: the current completion as a 64 B CQE, without consuming it.
 *
 * A regular CQE is returned where it lies in the ring; a completion of a
 * compressed session is returned as a CQE synthesized from the title and
 * its mini-CQE (the same merge as rte_mlx5cq_poll_burst(); format 0, the
 * owner bit of the session's pass) in a buffer of the CQ that the next
 * call on the CQ overwrites.
 *
 * @param cq
 *   CQ.
 * @return
 *   The CQE, or NULL with rte_errno ENOENT (nothing, or a compressed CQE
 *   that cannot be expanded) or EINVAL.
 */
__rte_experimental
const volatile void *rte_mlx5cq_raw_peek(struct rte_mlx5cq *cq);

/**
 * Raw view: consume the current completion (publishes the consumer index
 * when it moved, as a burst poll of one does).
 *
 * @param cq
 *   CQ.
 * @return
 *   0, -ENOENT (nothing to consume), -EINVAL.
 */
__rte_experimental
int rte_mlx5cq_raw_advance(struct rte_mlx5cq *cq);

/**
 * Count the completions a poll would deliver now, without consuming them:
 * what is left of an open compressed session, then every
 * software-owned entry after it (a regular or error CQE one, a compressed
 * session all it holds), up to max. For a PMD's rx_queue_count and
 * descriptor status. The count is what was there when it ran: the device
 * may add more at once.
 *
 * @param cq
 *   CQ.
 * @param max
 *   Stop counting at max.
 * @return
 *   The count, at most max (0 with rte_errno EINVAL for a NULL CQ,
 *   ENOTSUP for a collapsed one).
 */
__rte_experimental
uint32_t rte_mlx5cq_ready_count(struct rte_mlx5cq *cq, uint32_t max);

/**
 * Read a collapsed CQ (RTE_MLX5CQ_F_COLLAPSED): the newest CQE, which the
 * device writes into entry 0, and how many completions were written since
 * the last read, from its wqe_counter, as DPDK's mlx5_vdpa_cq_poll()
 * counts them: meaningful for a CQ fed by one work queue whose every WQE
 * completes and whose counter starts at 0. The consumer index and the
 * doorbell record move by that number; the counters count them. The
 * burst poll, the lean path and the iterator do not read collapsed CQs
 * (they find nothing; rte_mlx5cq_start_poll() fails with ENOTSUP).
 *
 * @param cq
 *   CQ created with RTE_MLX5CQ_F_COLLAPSED.
 * @param cpl
 *   Set to the newest completion's record when the return is above 0.
 * @return
 *   Completions written since the last read (1 .. 65535), 0 when none,
 *   -EINVAL (not a collapsed CQ, NULL argument) or -EAGAIN (the entry
 *   changed under every one of its reads), with rte_errno set.
 */
__rte_experimental
int rte_mlx5cq_collapsed_read(struct rte_mlx5cq *cq,
			      struct rte_mlx5cq_cpl *cpl);

/** Where the next completion shows (rte_mlx5cq_monitor_get()). */
struct rte_mlx5cq_monitor {
	/** The byte of the ring entry that changes when it arrives. */
	volatile void *addr;
	uint8_t value; /**< It has arrived when (*addr & mask) == value. */
	uint8_t mask; /**< Bits of *addr compared. */
};

/**
 * The condition rte_power_monitor() waits on for a CQ: the owner bit of
 * the op_own byte of the next entry against the pass (the validity
 * iteration count of the enhanced compression layout), as DPDK's
 * net/mlx5 gives it in mlx5_get_monitor_addr(). A waiter compares
 * (*addr & mask) with value and stops waiting when they are equal. With
 * completions of an open session still waiting, the condition is already
 * true (mask 0, value 0). A write that marks an entry invalid may satisfy
 * the condition without a completion: a waiter polls and finds nothing,
 * as on DPDK's net/mlx5.
 *
 * @param cq
 *   CQ.
 * @param m
 *   Filled with the address, value and mask.
 * @return
 *   0, 1 when completions are already waiting, -EINVAL, -ENOTSUP (a
 *   collapsed CQ).
 */
__rte_experimental
int rte_mlx5cq_monitor_get(const struct rte_mlx5cq *cq,
			   struct rte_mlx5cq_monitor *m);

/**
 * Select the implementation of rte_mlx5cq_poll_burst() for a CQ. At
 * creation a CQ gets rte_mlx5cq_vec_best(). Every implementation fills
 * identical records; the choice changes speed only.
 *
 * @param cq
 *   CQ.
 * @param vec
 *   enum rte_mlx5cq_vec value.
 * @return
 *   0, -EINVAL (NULL CQ), -ENOTSUP (not in this build, not on this CPU,
 *   or wider than the EAL's maximum SIMD bitwidth; rte_errno set and an
 *   ERR line logged).
 */
__rte_experimental
int rte_mlx5cq_vec_set(struct rte_mlx5cq *cq, enum rte_mlx5cq_vec vec);

/**
 * Implementation of rte_mlx5cq_poll_burst() a CQ uses.
 *
 * @param cq
 *   CQ.
 * @return
 *   enum rte_mlx5cq_vec value, or -EINVAL for NULL.
 */
__rte_experimental
int rte_mlx5cq_vec_get(const struct rte_mlx5cq *cq);

/**
 * The widest poll implementation this build and CPU have within the
 * EAL's maximum SIMD bitwidth (rte_vect_get_max_simd_bitwidth(), set by
 * --force-max-simd-bitwidth): what new CQs get.
 *
 * @return
 *   enum rte_mlx5cq_vec value.
 */
__rte_experimental
enum rte_mlx5cq_vec rte_mlx5cq_vec_best(void);

/**
 * Name of a poll implementation ("scalar", "sse", "avx2").
 *
 * @param vec
 *   enum rte_mlx5cq_vec value.
 * @return
 *   The name, NULL for an unknown value.
 */
__rte_experimental
const char *rte_mlx5cq_vec_name(enum rte_mlx5cq_vec vec);

/**
 * Lean path, rte_mlx5cq_peek() for a stream of one kind: count the CQEs
 * ready at the consumer index that are software-owned, of opcode op and
 * format 0 (no inline data; the solicited-event bit is not looked at),
 * at most n, not past the end of the ring, with one compare each; then a
 * read barrier orders the caller's payload reads. The count stops at any
 * other CQE (another opcode, compressed, error, hardware-owned): the
 * caller goes on with rte_mlx5cq_peek(), the session functions or
 * rte_mlx5cq_poll_burst(). Read the CQEs with rte_mlx5cq_peek_cqe(),
 * consume them with rte_mlx5cq_advance().
 *
 * @param cq
 *   CQ created SINGLE_THREADED (0 when the poll is not on the inline
 *   path, as rte_mlx5cq_peek()).
 * @param n
 *   Maximum number of CQEs.
 * @param op
 *   Opcode (enum rte_mlx5cq_opcode, below RTE_MLX5CQ_OP_REQ_ERR).
 * @return
 *   Number of such CQEs ready.
 */
static __rte_always_inline uint16_t
rte_mlx5cq_peek_op(const struct rte_mlx5cq *cq, uint16_t n, uint8_t op)
{
	const size_t st = (size_t)1 << cq->stride_shift;
	const uint32_t idx = cq->ci & cq->mask;
	const uint32_t want = (uint32_t)(op << 4 | ((cq->ci >> cq->log_n) & 1));
	volatile const uint8_t *p = cq->ring + cq->cqe_off + idx * st +
				    RTE_MLX5CQ_CQE_OP_OWN;
	uint32_t room = cq->mask + 1 - idx;
	uint16_t k = 0;

	if (unlikely(cq->slow & ~RTE_MLX5CQ_SLOW_VEC))
		return 0;
	if (room < n)
		n = (uint16_t)room;
	/* Four owner bytes in one compare, then one by one. */
	for (; k + 4 <= n; k += 4, p += 4 * st)
		if (((p[0] | (uint32_t)p[st] << 8 | (uint32_t)p[2 * st] << 16 |
		      (uint32_t)p[3 * st] << 24) & 0xfdfdfdfdu) !=
		    want * 0x01010101u)
			break;
	for (; k < n; k++, p += st)
		if ((*p & 0xfdu) != want)
			break;
	rte_io_rmb();
	return k;
}

/**
 * A compressed session as the lean path reads it in place (basic layout):
 * the title's record, where the session sits in the ring and how much of
 * it is left. Filled by rte_mlx5cq_session_open(); the mini-CQE at a
 * position is rte_mlx5cq_session_mini()'s.
 */
struct rte_mlx5cq_session {
	/** The title CQE decoded once: what the mini-CQEs do not carry. */
	const struct rte_mlx5cq_cpl *title;
	uint32_t first; /**< Ring index (free running) of the title CQE. */
	uint32_t pos; /**< Position of the next mini-CQE (0: the first). */
	uint32_t left; /**< Mini-CQEs left from pos. */
	uint8_t fmt; /**< Mini-CQE format, RTE_MLX5CQ_MINI_FMT_*. */
};

/**
 * Lean path for compressed sessions (basic layout): open the session at
 * the consumer index, or take the one already open, and describe what is
 * left of it. When a new session starts at the consumer index, its title
 * CQE is checked (owner bit, then a read barrier) and decoded once.
 * Read the mini-CQEs with rte_mlx5cq_session_mini() and the accessors of
 * rte_mlx5cq_view.h; consume them with rte_mlx5cq_session_advance(), in
 * one call or several.
 *
 * @param cq
 *   CQ created SINGLE_THREADED with the basic layout (0 otherwise).
 * @param s
 *   Filled with the session.
 * @return
 *   Mini-CQEs left (s->left); 0 when no session is open and none starts
 *   at the consumer index (then rte_mlx5cq_peek() or
 *   rte_mlx5cq_poll_burst()).
 */
__rte_experimental
uint32_t rte_mlx5cq_session_open(struct rte_mlx5cq *cq,
				 struct rte_mlx5cq_session *s);

/**
 * The mini-CQE at position p of a session (p < s->pos + s->left), read in
 * place. Positions 0..7 are the array of the entry after the title, every
 * later 8 the array of the entry at title + p rounded down to 8 (the
 * basic layout); the ring index wraps. The mini-CQEs after it in its array
 * are contiguous: *run of them (itself included) may be read by stepping
 * RTE_MLX5CQ_MINI_SIZE bytes.
 *
 * @param cq
 *   CQ of the session.
 * @param s
 *   Session from rte_mlx5cq_session_open().
 * @param p
 *   Position in the session.
 * @param run
 *   Set to the mini-CQEs from p to the end of its array, when not NULL.
 * @return
 *   The mini-CQE.
 */
static __rte_always_inline volatile const struct rte_mlx5cq_mini *
rte_mlx5cq_session_mini(const struct rte_mlx5cq *cq,
			const struct rte_mlx5cq_session *s, uint32_t p,
			uint32_t *run)
{
	const uint32_t in = p % RTE_MLX5CQ_BASIC_MINIS_PER_ARRAY;
	const uint32_t base = p - in;

	if (run != NULL)
		*run = RTE_MLX5CQ_BASIC_MINIS_PER_ARRAY - in;
	return (volatile const struct rte_mlx5cq_mini *)
		(rte_mlx5cq__cqe(cq, base != 0 ? s->first + base :
				 s->first + 1) + RTE_MLX5CQ_MINI_SIZE * in);
}

/**
 * Whole arrays of a session that follow one another in the ring from
 * position p on (p a multiple of RTE_MLX5CQ_BASIC_MINIS_PER_ARRAY, at
 * least one array past the title's: the basic layout puts the array of
 * position p in the entry at title + p), so a consumer walks them with a
 * pointer: array j at rte_mlx5cq_session_mini(cq, s, p, NULL) plus j times
 * *stride bytes, for j below the returned count. The walk stops before the
 * ring's end (the next array is then at the ring's start).
 *
 * @param cq
 *   CQ of the session.
 * @param s
 *   Session from rte_mlx5cq_session_open().
 * @param p
 *   Position in the session: a multiple of 8, 8 or more.
 * @param n
 *   Arrays wanted.
 * @param stride
 *   Set to the bytes from one array to the next.
 * @return
 *   Arrays readable by the walk, at most n.
 */
static __rte_always_inline uint32_t
rte_mlx5cq_session_arrays(const struct rte_mlx5cq *cq,
			  const struct rte_mlx5cq_session *s, uint32_t p,
			  uint32_t n, size_t *stride)
{
	const uint32_t idx = (s->first + p) & cq->mask;
	const uint32_t room = (cq->mask - idx) /
			      RTE_MLX5CQ_BASIC_MINIS_PER_ARRAY + 1;

	*stride = (size_t)RTE_MLX5CQ_BASIC_MINIS_PER_ARRAY <<
		  cq->stride_shift;
	return RTE_MIN(n, room);
}

/**
 * Consume k mini-CQEs of the session rte_mlx5cq_session_open() described
 * (k may span arrays): the consumed slots are invalidated as the basic
 * layout requires, the counters count them, and at the session's end the
 * consumer index moves past it and is published (doorbell record after a
 * write barrier).
 *
 * @param cq
 *   CQ.
 * @param k
 *   Mini-CQEs consumed (at most what is left of the session; more are
 *   not consumed).
 */
__rte_experimental
void rte_mlx5cq_session_advance(struct rte_mlx5cq *cq, uint16_t k);

/**
 * Arm the CQ for one completion event (rdma-core mlx5_arm_cq): arm word
 * sn << 28 | cmd | ci (sn = arm_sn & 3, cmd 1 << 24 for solicited-only)
 * into doorbell record word 1, write barrier, word << 32 | cqn (big
 * endian, 64-bit store) at offset 0x20 of the CQ's UAR page.
 *
 * @param cq
 *   CQ made by rte_mlx5cq_create().
 * @param solicited
 *   Non-zero: only a solicited (or error) completion raises the event.
 * @return
 *   0, -EINVAL, -ENOTSUP (no UAR known: attached CQ).
 */
__rte_experimental
int rte_mlx5cq_arm(struct rte_mlx5cq *cq, int solicited);

/**
 * Change the event moderation of a CQ at run time (MODIFY_CQ with
 * modify_field_select cq_period and cq_max_count, as the kernel's
 * mlx5_core_modify_cq_moderation() sends it). Completions are never
 * delayed, only their events.
 *
 * @param cq
 *   CQ of the DevX path.
 * @param period_us
 *   Period in microseconds, 0..4095.
 * @param max_count
 *   Completions that raise the event at once; 0 with period 0: none.
 * @return
 *   0, or a negative errno with rte_errno set: -EINVAL (NULL, period out
 *   of range), -EOPNOTSUPP (verbs or attached CQ: DPDK's glue has no
 *   ibv_modify_cq, and an attached CQ is its owner's; a device without
 *   cq_moderation), or the device's error.
 */
__rte_experimental
int rte_mlx5cq_moderation_set(struct rte_mlx5cq *cq, uint16_t period_us,
			      uint16_t max_count);

/**
 * Resize a CQ as ibv_resize_cq() does on mlx5: completions written and
 * not yet polled survive, in order, and polling goes on in the new ring.
 * DevX path: a new ring in its own umem (placed as creation places it),
 * MODIFY_CQ op_mod RESIZE, the CQEs up to the device's RESIZE CQE copied
 * into the new ring, the old ring and umem freed. The CQ's poll state
 * must not be in use meanwhile (its lock is taken unless SINGLE_THREADED).
 *
 * @param cq
 *   CQ made by rte_mlx5cq_create() on the DevX path, without compression
 *   and not collapsed.
 * @param cqe_cnt
 *   Completions the CQ must hold: the ring gets roundup_pow2(cqe_cnt + 1)
 *   entries; the same ring size changes nothing.
 * @return
 *   0, or a negative errno with rte_errno set: -EINVAL (NULL, cqe_cnt 0,
 *   a ring above 2^log_max_cq_sz, cqe_cnt below the completions not yet
 *   polled), -ENOSYS (device without cq_resize, as the kernel answers),
 *   -EOPNOTSUPP (verbs CQ: rdma-core copies from its own index; attached: its
 *   owner's; compressed or collapsed CQ), -EBUSY (between start_poll and
 *   end_poll), -ENOMEM, -EIO (no RESIZE CQE found: the CQ is in the new
 *   ring, completions may be lost), or the device's error (nothing
 *   changed).
 */
__rte_experimental
int rte_mlx5cq_resize(struct rte_mlx5cq *cq, uint32_t cqe_cnt);

/**
 * File descriptor of the CQ's completion events (RTE_MLX5CQ_F_EVENTS):
 * DevX event channel or verbs completion channel; readable when an event
 * is pending (epoll, rte_intr).
 *
 * @param cq
 *   CQ.
 * @return
 *   The fd, or -ENOTSUP (CQ created without events), -EINVAL.
 */
__rte_experimental
int rte_mlx5cq_event_fd(const struct rte_mlx5cq *cq);

/**
 * Consume one completion event without blocking; arm_sn is incremented.
 *
 * @param cq
 *   CQ with events.
 * @return
 *   0; -EAGAIN no event pending; -EIO a CQ error event (overrun,
 *   counted); -ENOTSUP no events; or the channel's error.
 */
__rte_experimental
int rte_mlx5cq_event_get(struct rte_mlx5cq *cq);

/**
 * Acknowledge events got with rte_mlx5cq_event_get() (ibv_ack_cq_events).
 * Both paths count the events got and not yet acknowledged; verbs CQs pass
 * the acknowledgment to the completion channel, DevX channels need none.
 *
 * @param cq
 *   CQ.
 * @param n
 *   Events (0 is accepted and does nothing).
 * @return
 *   0; -EINVAL (NULL, or more than got and not yet acknowledged);
 *   -ENOTSUP (CQ created without RTE_MLX5CQ_F_EVENTS, as
 *   rte_mlx5cq_event_get()). rte_errno is set on error.
 */
__rte_experimental
int rte_mlx5cq_event_ack(struct rte_mlx5cq *cq, unsigned int n);

/**
 * Ask the device whether the CQ is in error (QUERY_CQ cqc.status, DevX
 * CQs): the first time it is, counters.overruns is incremented.
 *
 * @param cq
 *   CQ.
 * @return
 *   0 healthy, 1 in error, -ENOTSUP (not DevX), -EINVAL, or the
 *   command's error.
 */
__rte_experimental
int rte_mlx5cq_error_check(struct rte_mlx5cq *cq);


#ifdef __cplusplus
}
#endif

#endif /* RTE_MLX5CQ_H_ */
