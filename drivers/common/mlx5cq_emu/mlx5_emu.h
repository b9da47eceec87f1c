/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef MLX5_EMU_H_
#define MLX5_EMU_H_

/**
 * @file
 * The emulated HCA: a software model of an mlx5 device, its kernel driver
 * and firmware, plugged in behind rte_common_mlx5's glue table.
 *
 * mlx5_emu_install() replaces the process's mlx5_glue pointer with a
 * dispatching table: entries given an emulated context or object are handled
 * by the model, all others are forwarded to the original table, so real and
 * emulated devices live in one process.
 *
 * The model is written from the PRM layouts (mlx5_prm.h, mlx5dv.h) and the
 * documented behaviour of rdma-core and the kernel. It never includes or
 * calls the mlx5cq library.
 */

#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ibv_context;

/** Capabilities of an emulated device (QUERY_HCA_CAP and dv_query_device). */
struct mlx5_emu_caps {
	uint8_t log_max_cq_sz; /**< log2 of the largest CQ (default 22). */
	uint8_t log_max_cq; /**< log2 of the number of CQs (default 24). */
	uint8_t num_comp_vectors; /**< Completion vectors / EQs (default 4). */
	uint8_t devx; /**< DevX supported (default 1). */
	uint8_t cqe_compression; /**< CQE compression (default 1). */
	uint8_t cqe_compression_128; /**< Compression of 128 B CQEs (1). */
	uint8_t cqe_128_always; /**< 128 B CQEs always supported (1). */
	uint8_t cqe_pad; /**< 128 B padding (verbs CQE_128B_PAD, 1). */
	uint8_t mini_cqe_resp_stride_index; /**< Stride-index formats (1). */
	uint8_t mini_cqe_resp_flow_tag; /**< Flow-tag format (1). */
	uint8_t mini_cqe_resp_l3_l4_tag; /**< L3/L4 header format (1). */
	uint8_t enhanced_cqe_compression; /**< Enhanced layout (1). */
	uint16_t cqe_compression_max_num; /**< Session limit (64). */
	uint16_t cqe_compression_timeout; /**< Session timer, us (0). */
	uint32_t max_umems; /**< Umem registrations allowed (65536). */
};

/** Failure points for injection (mlx5_emu_fail_inject()). */
enum mlx5_emu_fail_point {
	MLX5_EMU_FAIL_UMEM_REG, /**< devx_umem_reg fails with ENOMEM. */
	MLX5_EMU_FAIL_OBJ_CREATE, /**< devx_obj_create fails (status). */
	MLX5_EMU_FAIL_UAR_ALLOC, /**< devx_alloc_uar fails with ENOMEM. */
	MLX5_EMU_FAIL_QUERY_EQN, /**< devx_query_eqn fails with EINVAL. */
	MLX5_EMU_FAIL_VERBS_CQ, /**< dv_create_cq fails with ENOMEM. */
	MLX5_EMU_FAIL_MAX,
};

/**
 * Syndromes the emulated firmware leaves in a failed command's output
 * mailbox (real syndromes are opaque firmware values; these are the
 * model's own, one per check, so a test can tell which check refused).
 */
enum mlx5_emu_syndrome {
	MLX5_EMU_SYND_NONE = 0,
	/* Any command. */
	MLX5_EMU_SYND_BAD_OPCODE = 0x0ce00001, /**< Opcode not supported. */
	MLX5_EMU_SYND_BAD_OP_MOD = 0x0ce00002, /**< op_mod not supported. */
	MLX5_EMU_SYND_HDR_RESERVED = 0x0ce00003, /**< Header reserved bits. */
	MLX5_EMU_SYND_INLEN = 0x0ce00004, /**< Input mailbox too short. */
	MLX5_EMU_SYND_OUTLEN = 0x0ce00005, /**< Output mailbox too short. */
	MLX5_EMU_SYND_INJECTED = 0x0ce00006, /**< Fault injection. */
	MLX5_EMU_SYND_OBJ_ID = 0x0ce00007, /**< Object id of another object. */
	/* CREATE_CQ. */
	MLX5_EMU_SYND_CQ_RESERVED = 0x0c000001, /**< Reserved bit set. */
	MLX5_EMU_SYND_CQ_STATUS = 0x0c000002, /**< cqc.status not 0. */
	MLX5_EMU_SYND_CQ_LOG_SIZE = 0x0c000003, /**< > log_max_cq_sz. */
	MLX5_EMU_SYND_CQ_CQE_SZ = 0x0c000004, /**< cqe_sz not 0, 1, 2. */
	MLX5_EMU_SYND_CQ_CQE_128 = 0x0c000005, /**< 128 B not supported. */
	MLX5_EMU_SYND_CQ_CQE_PAD = 0x0c000006, /**< Padding not supported. */
	MLX5_EMU_SYND_CQ_COMP = 0x0c000007, /**< No cqe_compression cap. */
	MLX5_EMU_SYND_CQ_COMP_128 = 0x0c000008, /**< No 128 B compression. */
	MLX5_EMU_SYND_CQ_MINI_FMT = 0x0c000009, /**< Reserved format code. */
	MLX5_EMU_SYND_CQ_MINI_FMT_CAP = 0x0c00000a, /**< Format lacks cap. */
	MLX5_EMU_SYND_CQ_LAYOUT = 0x0c00000b, /**< cqe_comp_layout > 1. */
	MLX5_EMU_SYND_CQ_LAYOUT_CAP = 0x0c00000c, /**< No enhanced cap. */
	MLX5_EMU_SYND_CQ_LAYOUT_NO_COMP = 0x0c00000d, /**< Layout w/o comp. */
	MLX5_EMU_SYND_CQ_PERIOD_MODE = 0x0c00000e, /**< cq_period_mode. */
	MLX5_EMU_SYND_CQ_TS_FORMAT = 0x0c00000f, /**< cq_timestamp_format. */
	MLX5_EMU_SYND_CQ_STATE = 0x0c000010, /**< st/counters not 0. */
	MLX5_EMU_SYND_CQ_UNSUPPORTED = 0x0c000011, /**< Feature bit w/o cap. */
	MLX5_EMU_SYND_CQ_NO_UMEM = 0x0c000012, /**< cq_umem_valid 0. */
	MLX5_EMU_SYND_CQ_UMEM_ID = 0x0c000013, /**< Ring umem unknown. */
	MLX5_EMU_SYND_CQ_UMEM_RANGE = 0x0c000014, /**< Ring past umem end. */
	MLX5_EMU_SYND_CQ_UMEM_ALIGN = 0x0c000015, /**< Ring not 4K aligned. */
	MLX5_EMU_SYND_CQ_UMEM_ACCESS = 0x0c000016, /**< Ring not writable. */
	MLX5_EMU_SYND_CQ_PAGE_OFFSET = 0x0c000017, /**< page_offset not 0. */
	MLX5_EMU_SYND_CQ_LOG_PAGE_SIZE = 0x0c000018, /**< Page size rule. */
	MLX5_EMU_SYND_CQ_NO_DBR_UMEM = 0x0c000019, /**< dbr_umem_valid 0. */
	MLX5_EMU_SYND_CQ_DBR_UMEM_ID = 0x0c00001a, /**< Dbr umem unknown. */
	MLX5_EMU_SYND_CQ_DBR_ALIGN = 0x0c00001b, /**< dbr_addr not 8 B. */
	MLX5_EMU_SYND_CQ_DBR_RANGE = 0x0c00001c, /**< Record past umem end. */
	MLX5_EMU_SYND_CQ_UAR = 0x0c00001d, /**< uar_page not allocated. */
	MLX5_EMU_SYND_CQ_LIMIT = 0x0c00001e, /**< 2^log_max_cq CQs exist. */
	MLX5_EMU_SYND_CQ_INLINE_PAS = 0x0c00001f, /**< PAS after mailbox. */
};

/** Resource usage of an emulated device. */
struct mlx5_emu_stats {
	uint32_t pds; /**< Protection domains. */
	uint32_t uars; /**< UARs allocated. */
	uint32_t umems; /**< Umems registered. */
	uint32_t devx_objs; /**< DevX objects (any type). */
	uint32_t cqs; /**< CQs (DevX and verbs). */
	uint32_t verbs_cqs; /**< CQs of the verbs path. */
	uint32_t dbr_pages; /**< Verbs doorbell-record pages. */
	uint32_t dbr_slots; /**< Verbs doorbell-record slots in use. */
	uint64_t cmds; /**< Firmware commands executed. */
	uint64_t cmd_errors; /**< Commands failed with a status. */
};

/** What the model pinned for a umem (as ib_umem_get does). */
struct mlx5_emu_umem_info {
	uint32_t id; /**< Umem id. */
	uint64_t addr; /**< Virtual start. */
	uint64_t size; /**< Bytes. */
	uint32_t access; /**< IBV_ACCESS_* flags. */
	uint32_t nsegs; /**< DMA-contiguous segments after merging. */
	uint32_t page_shift; /**< Best page size chosen (log2). */
	uint32_t npages; /**< Translation entries at that page size. */
	uint32_t refcnt; /**< Objects using it. */
	uint32_t page_offset; /**< Start within the first page (DMA). */
	uint32_t host_page_shift; /**< Host pages it lies in, log2 (12 if
				    * the physical layout is unknown). */
};

/** Firmware view of a CQ. */
struct mlx5_emu_cq_info {
	uint32_t cqn; /**< CQ number. */
	uint8_t verbs; /**< Created through the verbs path. */
	uint8_t log_cq_size; /**< cqc.log_cq_size. */
	uint8_t cqe_sz; /**< cqc.cqe_sz (0 64 B, 1 128 B, 2 128 B padded). */
	uint8_t cqe_comp_en; /**< cqc.cqe_comp_en. */
	uint8_t mini_cqe_res_format; /**< Format incl. the _ext bits. */
	uint8_t cqe_comp_layout; /**< cqc.cqe_comp_layout. */
	uint8_t oi; /**< cqc.oi. */
	uint8_t log_page_size; /**< cqc.log_page_size. */
	uint32_t uar_page; /**< cqc.uar_page. */
	uint32_t eqn; /**< cqc.c_eqn. */
	uint32_t cq_umem_id; /**< Ring umem (DevX). */
	uint64_t cq_umem_offset; /**< Ring offset in its umem. */
	uint32_t dbr_umem_id; /**< Doorbell umem (DevX). */
	uint64_t dbr_offset; /**< cqc.dbr_addr. */
	void *ring; /**< Host address of the ring. */
	volatile uint32_t *dbrec; /**< Host address of the doorbell record. */
	uint32_t pi; /**< Producer counter (CQEs written). */
	uint32_t status; /**< cqc.status (0 OK, 9 overflow, 10 write fail). */
};

/** Kind of completion posted by the producer interface. */
enum mlx5_emu_cpl_kind {
	MLX5_EMU_CPL_REQ, /**< Requester (send) completion. */
	MLX5_EMU_CPL_RESP, /**< Responder (receive) completion. */
	MLX5_EMU_CPL_REQ_ERR, /**< Requester error CQE. */
	MLX5_EMU_CPL_RESP_ERR, /**< Responder error CQE. */
};

/** One completion for the model to write (host byte order). */
struct mlx5_emu_cpl {
	enum mlx5_emu_cpl_kind kind; /**< Kind. */
	uint8_t opcode; /**< CQE opcode; 0: default of the kind. */
	uint8_t solicited; /**< Solicited event bit. */
	uint8_t syndrome; /**< Error syndrome (error kinds). */
	uint8_t vendor_syndrome; /**< Vendor syndrome (error kinds). */
	uint8_t s_wqe_opcode; /**< Send WQE opcode (requester kinds). */
	uint8_t rx_hash_type; /**< RSS hash type. */
	uint16_t wqe_counter; /**< WQE counter or stride index. */
	uint16_t hdr_type_etc; /**< Header type and checksum-ok bits. */
	uint16_t vlan_info; /**< VLAN TCI. */
	uint16_t csum; /**< Checksum. */
	uint32_t byte_cnt; /**< Byte count. */
	uint32_t rx_hash_res; /**< RSS hash result. */
	uint32_t qpn; /**< QPN or flow tag (sop_drop_qpn[23:0]). */
	uint32_t flow_table_metadata; /**< Metadata / immediate. */
	uint64_t timestamp; /**< Timestamp. */
};

/**
 * Wrap the process's mlx5_glue table with the model's dispatching table.
 * Idempotent.
 *
 * @return
 *   0, or a negative errno.
 */
int mlx5_emu_install(void);

/**
 * Fill caps with the default capabilities of an emulated device.
 *
 * @param caps
 *   Filled.
 */
void mlx5_emu_caps_default(struct mlx5_emu_caps *caps);

/**
 * Open an emulated device (installs the glue wrapper when needed).
 *
 * @param name
 *   Device name ("emu0"...); names are unique among open devices.
 * @param caps
 *   Capabilities, NULL for the defaults.
 * @return
 *   A verbs context usable with mlx5_glue, or NULL with errno set.
 */
struct ibv_context *mlx5_emu_open(const char *name,
				  const struct mlx5_emu_caps *caps);

/**
 * Close an emulated device (the same as mlx5_glue->close_device()).
 *
 * @param ctx
 *   Context.
 * @return
 *   0, or -EBUSY while objects remain, -EINVAL for a foreign context.
 */
int mlx5_emu_close(struct ibv_context *ctx);

/**
 * Tell whether a context belongs to the emulated HCA.
 *
 * @param ctx
 *   Context.
 * @return
 *   1 or 0.
 */
int mlx5_emu_is_emulated(const struct ibv_context *ctx);

/**
 * Read the resource usage of an emulated device.
 *
 * @param ctx
 *   Emulated context.
 * @param stats
 *   Filled.
 * @return
 *   0, or a negative errno.
 */
int mlx5_emu_stats_get(struct ibv_context *ctx, struct mlx5_emu_stats *stats);

/**
 * Describe a registered umem.
 *
 * @param ctx
 *   Emulated context.
 * @param umem_id
 *   Umem id.
 * @param info
 *   Filled.
 * @return
 *   0, or -ENOENT.
 */
int mlx5_emu_umem_query(struct ibv_context *ctx, uint32_t umem_id,
			struct mlx5_emu_umem_info *info);

/**
 * Describe a CQ as the firmware holds it.
 *
 * @param ctx
 *   Emulated context.
 * @param cqn
 *   CQ number.
 * @param info
 *   Filled.
 * @return
 *   0, or -ENOENT.
 */
int mlx5_emu_cq_query(struct ibv_context *ctx, uint32_t cqn,
		      struct mlx5_emu_cq_info *info);

/**
 * Status and syndrome of the last failed firmware command.
 *
 * @param ctx
 *   Emulated context.
 * @param status
 *   Command status (PRM MLX5_CMD_STAT_*).
 * @param syndrome
 *   Command syndrome.
 * @return
 *   0, or -ENOENT when no command failed yet.
 */
int mlx5_emu_last_cmd_error(struct ibv_context *ctx, uint8_t *status,
			    uint32_t *syndrome);

/**
 * Copy the input mailbox of the last firmware command (DevX object create,
 * modify, query or general command) the device received.
 *
 * @param ctx
 *   Emulated context.
 * @param in
 *   Buffer for the mailbox.
 * @param len
 *   In: size of the buffer; out: length of the mailbox.
 * @return
 *   0, -ENOENT when no command was received, -ENOSPC when in is too small.
 */
int mlx5_emu_last_cmd_in(struct ibv_context *ctx, void *in, size_t *len);

/**
 * Make the next calls at a failure point fail.
 *
 * @param ctx
 *   Emulated context.
 * @param point
 *   Failure point.
 * @param skip
 *   Calls that still succeed first.
 * @param count
 *   Calls that fail after those (0 disarms).
 */
void mlx5_emu_fail_inject(struct ibv_context *ctx,
			  enum mlx5_emu_fail_point point,
			  uint32_t skip, uint32_t count);

/**
 * Write completions into a CQ, as the device does: the 64 B CQE (in the
 * second half of a 128 B entry for 128 B and padded CQs) with the owner bit
 * of the pass, op_own written last.
 *
 * @param ctx
 *   Emulated context.
 * @param cqn
 *   CQ number.
 * @param cpl
 *   Completions.
 * @param n
 *   Number of completions.
 * @return
 *   Completions written (fewer when the ring is full: the model reads the
 *   consumer counter from the doorbell record), or a negative errno
 *   (-ENOENT unknown CQ, -EIO CQ in error).
 */
int mlx5_emu_cq_post(struct ibv_context *ctx, uint32_t cqn,
		     const struct mlx5_emu_cpl *cpl, unsigned int n);

#ifdef __cplusplus
}
#endif

#endif /* MLX5_EMU_H_ */
