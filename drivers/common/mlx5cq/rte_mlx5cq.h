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

#include <rte_atomic.h>
#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_io.h>
#include <rte_spinlock.h>

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
};

/** All flags known to this version. */
#define RTE_MLX5CQ_F_ALL (RTE_MLX5CQ_F_SINGLE_THREADED | \
			  RTE_MLX5CQ_F_IGNORE_OVERRUN | RTE_MLX5CQ_F_CQE_PAD | \
			  RTE_MLX5CQ_F_EVENTS)

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
};

/**
 * Compact completion record filled by the burst poll.
 *
 * Every field but rsvd is written for every record. Success records carry
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
	uint8_t rsvd[2]; /**< Not written by the poll. */
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

/** Decompression state of a CQ (internal, inside struct rte_mlx5cq). */
struct rte_mlx5cq_zip {
	uint32_t cnt; /**< Completions in the session, 0: none open. */
	uint32_t ai; /**< Next mini-CQE of the session to deliver. */
	uint32_t ca; /**< Ring index of the current mini-CQE array. */
	uint32_t end; /**< Index after the session (basic layout). */
	uint16_t wqe_next; /**< WQE counter of the next HASH/CSUM mini. */
	uint8_t have_title; /**< title holds a CQE (enhanced layout). */
	uint8_t logged; /**< A malformed CQE was logged. */
	/** Title CQE (raw 64 B): common fields of the session's records. */
	uint8_t title[64] __rte_aligned(64);
	/** Raw view: a completion from a mini-CQE as a 64 B CQE. */
	uint8_t raw[64] __rte_aligned(64);
	struct rte_mlx5cq_cpl trec; /**< Record decoded from title. */
	volatile const uint8_t *iter_cqe; /**< Iterator: current CQE. */
};

/** Why rte_mlx5cq_poll_burst() leaves the inline path (rte_mlx5cq.slow). */
#define RTE_MLX5CQ_SLOW_LOCK 0x01 /**< Not SINGLE_THREADED: spinlock. */
#define RTE_MLX5CQ_SLOW_ENHANCED 0x02 /**< Enhanced compression layout. */
#define RTE_MLX5CQ_SLOW_SESSION 0x04 /**< A compressed session is open. */

/**
 * Value of rte_mlx5cq.comp: the mini-CQE format (PRM value
 * MLX5_CQE_RESP_FORMAT_*) + 1, 0 without compression, or-ed with this bit
 * for the enhanced layout.
 */
#define RTE_MLX5CQ_COMP_ENHANCED 0x80
/** Mask of the format part of rte_mlx5cq.comp. */
#define RTE_MLX5CQ_COMP_FORMAT_MASK 0x7f

/**
 * CQ handle. The fields are public for the inline fast path only: read them
 * through rte_mlx5cq_info_get() and never write them.
 */
struct rte_mlx5cq {
	/* First cache line: what every poll reads and writes. */
	volatile uint8_t *ring; /**< Ring start (entry 0, stride start). */
	volatile uint32_t *dbrec; /**< Doorbell record (big endian ci, arm). */
	uint32_t ci; /**< Consumer index, free running. */
	uint32_t mask; /**< Entries - 1. */
	uint8_t log_n; /**< log2 of entries. */
	uint8_t stride_shift; /**< log2 of the CQE stride (6 or 7). */
	uint8_t cqe_off; /**< Offset of the 64 B CQE in its stride. */
	uint8_t comp; /**< Format + 1 | RTE_MLX5CQ_COMP_ENHANCED, 0: none. */
	uint32_t cqn; /**< CQ number. */
	uint8_t slow; /**< RTE_MLX5CQ_SLOW_* bits: 0 on the inline path. */
	uint8_t arm_sn; /**< Arm sequence number (events consumed). */
	uint8_t iter_active; /**< Between start_poll and end_poll. */
	uint8_t rsvd0;
	rte_spinlock_t lock; /**< Taken unless SINGLE_THREADED. */
	uint64_t wc_flags; /**< IBV_WC_EX_WITH_* the iterator may read. */
	struct rte_mlx5cq_counters cnt; /**< Counters. */
	struct rte_mlx5cq_zip zip; /**< Compressed sessions, raw view. */
} __rte_cache_aligned;

/** CQE opcodes (op_own bits 7:4, infiniband/mlx5dv.h). */
enum {
	RTE_MLX5CQ_OP_REQ = 0x0,
	RTE_MLX5CQ_OP_RESP_WR_IMM = 0x1,
	RTE_MLX5CQ_OP_RESP_SEND = 0x2,
	RTE_MLX5CQ_OP_RESP_SEND_IMM = 0x3,
	RTE_MLX5CQ_OP_RESP_SEND_INV = 0x4,
	RTE_MLX5CQ_OP_RESIZE_CQ = 0x5,
	RTE_MLX5CQ_OP_NO_PACKET = 0x6,
	RTE_MLX5CQ_OP_SIG_ERR = 0xc,
	RTE_MLX5CQ_OP_REQ_ERR = 0xd,
	RTE_MLX5CQ_OP_RESP_ERR = 0xe,
	RTE_MLX5CQ_OP_INVALID = 0xf,
};

/** hdr_type_etc bits (mlx5_prm.h MLX5_CQE_*). */
enum {
	RTE_MLX5CQ_HDR_VLAN_STRIPPED = 1u << 0,
	RTE_MLX5CQ_HDR_IPV6 = 1u << 2,
	RTE_MLX5CQ_HDR_IPV4 = 1u << 3,
	RTE_MLX5CQ_HDR_TCP = 1u << 4,
	RTE_MLX5CQ_HDR_UDP = 1u << 5,
	RTE_MLX5CQ_HDR_L2_OK = 1u << 8,
	RTE_MLX5CQ_HDR_L3_OK = 1u << 9,
	RTE_MLX5CQ_HDR_L4_OK = 1u << 10,
};

/** Byte offsets inside the 64 B CQE (PRM; mlx5_prm.h struct mlx5_cqe). */
enum {
	RTE_MLX5CQ_CQE_RX_HASH_RES = 12,
	RTE_MLX5CQ_CQE_RX_HASH_TYPE = 16,
	RTE_MLX5CQ_CQE_CSUM = 20,
	RTE_MLX5CQ_CQE_HDR_TYPE_ETC = 28,
	RTE_MLX5CQ_CQE_VLAN_INFO = 30,
	RTE_MLX5CQ_CQE_METADATA = 36,
	RTE_MLX5CQ_CQE_BYTE_CNT = 44,
	RTE_MLX5CQ_CQE_TIMESTAMP = 48,
	RTE_MLX5CQ_CQE_VENDOR_SYND = 54,
	RTE_MLX5CQ_CQE_SYNDROME = 55,
	RTE_MLX5CQ_CQE_SOP_DROP_QPN = 56,
	RTE_MLX5CQ_CQE_WQE_COUNTER = 60,
	RTE_MLX5CQ_CQE_OP_OWN = 63,
};

/** Compressed CQE format value in op_own bits 3:2. */
#define RTE_MLX5CQ_FORMAT_COMPRESSED 3

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
 * Open an mlx5cq device on a verbs context.
 *
 * Decides whether the context has DevX (rte_common_mlx5's
 * mlx5_devx_cmd_query_hca_attr() through the glue; on failure the device is
 * verbs only), keeps the CQ capabilities of both paths (QUERY_HCA_CAP and
 * mlx5dv_query_device), allocates a DevX UAR (DevX only) and sets the
 * context's buffer allocators so verbs-path rings and rdma-core's doorbell
 * pages come from rte_malloc on the socket.
 *
 * @param ctx
 *   Verbs context (real device or emulated HCA).
 * @param socket
 *   NUMA socket of the device's memory, SOCKET_ID_ANY allowed.
 * @return
 *   The device, or NULL with rte_errno set: EINVAL (NULL context, no such
 *   socket), ENOMEM, or the device's error (UAR allocation, capability
 *   queries).
 */
__rte_experimental
struct rte_mlx5cq_dev *rte_mlx5cq_dev_open(struct ibv_context *ctx, int socket);

/**
 * Close an mlx5cq device: removes the buffer allocators from the context,
 * frees the UAR and the device.
 *
 * @param dev
 *   Device from rte_mlx5cq_dev_open().
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
 * The CQ stays owned by the caller: rte_mlx5cq_destroy() frees only the
 * wrapper.
 *
 * @param dev
 *   Device of the context the CQ was created on.
 * @param dcq
 *   CQ filled by mlx5_devx_cq_create().
 * @param log_desc_n
 *   log2 of its entries (as given to mlx5_devx_cq_create()).
 * @return
 *   The CQ handle, or NULL with rte_errno set: EINVAL (NULL argument, CQ
 *   not created, log_desc_n above 24 or the device's limit), ENOMEM.
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
int rte_mlx5cq_counters_get(struct rte_mlx5cq *cq,
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
 * Id of a CQ in the library's registry (telemetry /mlx5cq/info,<id>).
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

struct rte_tel_data;

/**
 * Telemetry handler of /mlx5cq/list: an array of the registry's CQ ids.
 * Registered with rte_telemetry at load; public so it can be called
 * directly.
 *
 * @param cmd
 *   Command (unused).
 * @param params
 *   Parameters (unused).
 * @param d
 *   Data to fill.
 * @return
 *   0.
 */
__rte_experimental
int rte_mlx5cq_telemetry_list(const char *cmd, const char *params,
			      struct rte_tel_data *d);

/**
 * Telemetry handler of /mlx5cq/info,<id>: a dict with id, cqn, path,
 * entries, cqe_size, comp, flags, ci, arm_sn, every counter and
 * err_syndrome (a dict "0xNN": count of the syndromes seen).
 *
 * @param cmd
 *   Command (unused).
 * @param params
 *   The CQ id.
 * @param d
 *   Data to fill.
 * @return
 *   0, -EINVAL (no or bad id), -ENOENT (no such CQ).
 */
__rte_experimental
int rte_mlx5cq_telemetry_info(const char *cmd, const char *params,
			      struct rte_tel_data *d);

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
 *   end_poll); EINVAL; EBUSY inside another start/end pair. Positive
 *   values, as ibv_start_poll().
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
/** @copydoc rte_mlx5cq_read_byte_len (customer VLAN) */
__rte_experimental
uint16_t rte_mlx5cq_read_cvlan(const struct rte_mlx5cq *cq);
/** @copydoc rte_mlx5cq_read_byte_len (flow tag) */
__rte_experimental
uint32_t rte_mlx5cq_read_flow_tag(const struct rte_mlx5cq *cq);

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
 * the acknowledgement to the completion channel, DevX channels need none.
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

/**
 * @internal Out-of-line part of rte_mlx5cq_poll_burst(): entered when the
 * CQ is not on the inline path (rte_mlx5cq.slow: lock, enhanced layout,
 * open session, raw view) with done 0, or by the inline path at a
 * software-owned compressed CQE with done > 0 possible.
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
uint16_t rte_mlx5cq_poll_slow(struct rte_mlx5cq *cq,
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

/** @internal Big-endian loads from a CQE. */
static __rte_always_inline uint32_t
rte_mlx5cq__be32(volatile const uint8_t *p, unsigned int off)
{
	return rte_be_to_cpu_32(*(volatile const rte_be32_t *)(p + off));
}

static __rte_always_inline uint16_t
rte_mlx5cq__be16(volatile const uint8_t *p, unsigned int off)
{
	return rte_be_to_cpu_16(*(volatile const rte_be16_t *)(p + off));
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

/** @internal Decode one uncompressed 64 B CQE into a record. */
static __rte_always_inline void
rte_mlx5cq__decode(volatile const uint8_t *cqe, uint8_t op_own,
		   struct rte_mlx5cq_cpl *c)
{
	uint8_t op = op_own >> 4;
	uint32_t sdq = rte_mlx5cq__be32(cqe, RTE_MLX5CQ_CQE_SOP_DROP_QPN);

	c->opcode = op;
	c->wqe_counter = rte_mlx5cq__be16(cqe, RTE_MLX5CQ_CQE_WQE_COUNTER);
	c->flow_tag = sdq & 0xffffff;
	if (unlikely(op == RTE_MLX5CQ_OP_REQ_ERR ||
		     op == RTE_MLX5CQ_OP_RESP_ERR)) {
		c->syndrome = cqe[RTE_MLX5CQ_CQE_SYNDROME];
		c->vendor_syndrome = cqe[RTE_MLX5CQ_CQE_VENDOR_SYND];
		c->status = rte_mlx5cq__err_status(c->syndrome);
		c->s_wqe_opcode = sdq >> 24;
		c->byte_cnt = 0;
		c->rss_hash = 0;
		c->metadata = 0;
		c->timestamp = 0;
		c->vlan_tci = 0;
		c->hdr_type_etc = 0;
		c->csum = 0;
		c->rss_hash_type = 0;
		return;
	}
	c->status = 0;
	c->syndrome = 0;
	c->vendor_syndrome = 0;
	c->s_wqe_opcode = 0;
	c->byte_cnt = rte_mlx5cq__be32(cqe, RTE_MLX5CQ_CQE_BYTE_CNT);
	c->rss_hash = rte_mlx5cq__be32(cqe, RTE_MLX5CQ_CQE_RX_HASH_RES);
	c->metadata = rte_mlx5cq__be32(cqe, RTE_MLX5CQ_CQE_METADATA);
	c->timestamp = rte_be_to_cpu_64(*(volatile const rte_be64_t *)
					(cqe + RTE_MLX5CQ_CQE_TIMESTAMP));
	c->vlan_tci = rte_mlx5cq__be16(cqe, RTE_MLX5CQ_CQE_VLAN_INFO);
	c->hdr_type_etc = rte_mlx5cq__be16(cqe, RTE_MLX5CQ_CQE_HDR_TYPE_ETC);
	c->csum = rte_mlx5cq__be16(cqe, RTE_MLX5CQ_CQE_CSUM);
	c->rss_hash_type = cqe[RTE_MLX5CQ_CQE_RX_HASH_TYPE];
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
	cq->dbrec[0] = rte_cpu_to_be_32(ci & 0xffffff);
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
 * also across bursts and the wrap of the ring; this and the enhanced
 * layout, the lock of CQs that are not SINGLE_THREADED and the raw view
 * are handled out of line (rte_mlx5cq_poll_slow()).
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
	 * The handle's fields are copied to locals: the byte-wide stores
	 * into cpl[] could alias them and would force reloads.
	 */
	volatile const uint8_t *ring = cq->ring + cq->cqe_off;
	const uint32_t mask = cq->mask;
	const unsigned int shift = cq->stride_shift;
	const unsigned int log_n = cq->log_n;
	uint32_t ci = cq->ci;
	uint32_t errors = 0;
	uint16_t i;

	if (unlikely(cq->slow))
		return rte_mlx5cq_poll_slow(cq, cpl, n, 0);
	for (i = 0; i < n; i++) {
		volatile const uint8_t *cqe =
			ring + ((size_t)(ci & mask) << shift);
		uint8_t op_own = cqe[RTE_MLX5CQ_CQE_OP_OWN];

		if (!rte_mlx5cq__sw_owned(op_own, ci, log_n))
			break;
		if (unlikely(((op_own >> 2) & 3) ==
			     RTE_MLX5CQ_FORMAT_COMPRESSED))
			return rte_mlx5cq_poll_slow(cq, cpl, n, i);
		rte_io_rmb();
		rte_mlx5cq__decode(cqe, op_own, &cpl[i]);
		if (unlikely(cpl[i].status != 0)) {
			errors++;
			cq->cnt.err_syndrome[cpl[i].syndrome]++;
		}
		ci++;
	}
	cq->cnt.errors += errors;
	cq->cnt.polls++;
	if (likely(i)) {
		cq->cnt.completions += i;
		rte_mlx5cq__update_ci(cq, ci);
	} else {
		cq->cnt.empty_polls++;
	}
	return i;
}

#ifdef __cplusplus
}
#endif

#endif /* RTE_MLX5CQ_H_ */
