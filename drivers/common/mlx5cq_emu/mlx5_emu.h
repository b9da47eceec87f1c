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

#include <rte_compat.h>

#include "mlx5_emu_synd.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ibv_context;
struct mlx5dv_clock_info;

/** Capabilities of an emulated device (QUERY_HCA_CAP and dv_query_device). */
struct mlx5_emu_caps {
	uint8_t log_max_cq_sz; /**< log2 of the largest CQ (default 22). */
	uint8_t log_max_cq; /**< log2 of the number of CQs (default 24). */
	uint8_t num_comp_vectors; /**< Completion vectors / EQs (default 4). */
	uint8_t devx; /**< DevX supported (default 1). */
	uint8_t cqe_compression; /**< CQE compression (default 1). */
	uint8_t cqe_compression_128; /**< Compression of 128 B CQEs (1). */
	uint8_t cqe_128_always; /**< Padded 128 B CQEs (cqc.cqe_sz 2, verbs
				  * CQE_128B_PAD) supported (1). Plain 128 B
				  * CQEs need no capability.
				  */
	uint8_t mini_cqe_resp_stride_index; /**< Stride-index formats (1). */
	uint8_t mini_cqe_resp_flow_tag; /**< Flow-tag format (1). */
	uint8_t mini_cqe_resp_l3_l4_tag; /**< L3/L4 header format (1). */
	uint8_t enhanced_cqe_compression; /**< Enhanced layout (1). */
	uint16_t cqe_compression_max_num; /**< Session limit (64). */
	uint16_t cqe_compression_timeout; /**< Session timer, us (0). */
	uint32_t max_umems; /**< Umem registrations allowed (65536). */
	uint8_t eth_net_offloads; /**< Ethernet offload caps: checksums,
				    * VLAN strip/insert, RSS (default 1).
				    */
	uint8_t eth_inline_mode; /**< wqe_inline_mode of the Ethernet
				   * caps: MLX5_CAP_INLINE_MODE_L2 (0: every
				   * SEND WQE inlines its L2 header),
				   * _VPORT_CONTEXT (1: the NIC vport
				   * context says, L2 here) or
				   * _NOT_REQUIRED (2, default, as
				   * ConnectX-5 and later report).
				   */
	uint8_t eth_wqe_vlan_insert; /**< wqe_vlan_insert: the device
				       * inserts the VLAN tag a SEND's
				       * Ethernet segment gives (default 1).
				       */
	uint8_t eth_max_lso; /**< max_lso_cap: TSO WQEs of payloads up to
			       * 2^eth_max_lso bytes (default 16; 0: no
			       * TSO; at most 18).
			       */
	uint8_t crypto; /**< AES-XTS crypto engine: DEKs, crypto mkeys,
			  * loopback RC QPs (default 0).
			  */
	uint8_t crypto_wrapped; /**< Keys are imported wrapped (AES key
				  * wrap with the login's import KEK; a
				  * crypto login is needed): 1 (default);
				  * 0: plaintext keys.
				  */
	uint8_t log_max_num_deks; /**< DEKs the device holds (default 12). */
	uint16_t crypto_failed_selftests; /**< crypto_caps.failed_selftests:
					    * nonzero refuses every DEK
					    * (default 0).
					    */
	uint8_t crypto_provisioned; /**< Wrapped mode: the device comes
				      * with an IMPORT_KEK object (id
				      * MLX5_EMU_PROV_KEK_ID, key
				      * crypto_kek) and an officer
				      * CREDENTIAL object (id
				      * MLX5_EMU_PROV_CRED_ID,
				      * crypto_credential), as a card the
				      * crypto officer has set up before
				      * any program opens it (default 0).
				      */
	uint8_t crypto_kek_len; /**< 16 or 32 (AES-128/256 import KEK). */
	uint8_t crypto_kek[32]; /**< The provisioned KEK. */
	uint8_t crypto_credential[40]; /**< The provisioned credential. */
	uint8_t cq_oi; /**< HCA_CAP.cq_oi: CQs may ignore overrun (1). */
	uint8_t cq_moderation; /**< HCA_CAP.cq_moderation (1). */
	/** HCA_CAP.cq_period_start_from_cqe: cq_period_mode 1 (1). */
	uint8_t cq_period_start_from_cqe;
	/** HCA_CAP.scqe_break_moderation: CQs may set
	 * cqc.scqe_break_moderation_en, a solicited or error CQE releasing
	 * the event moderation holds (1).
	 */
	uint8_t scqe_break_moderation;
	/** HCA_CAP.cq_resize: MODIFY_CQ op_mod RESIZE is accepted (1). */
	uint8_t cq_resize;
	/** HCA_CAP.device_frequency_khz: the free-running clock (156250). */
	uint32_t device_frequency_khz;
	/** HCA_CAP.rq_ts_format and sq_ts_format: the clocks queues may
	 * stamp with: 0 free-running, 1 real time, 2 both (default).
	 */
	uint8_t ts_format;
	/** MTUTC.time_stamp_mode: the clock of ts_format DEFAULT, 0 the
	 * free-running one (default), 1 real time.
	 */
	uint8_t clock_real_time;
	/** HCA_CAP.striding_rq: RQs of wq_type CYCLIC_STRIDING_RQ (1). */
	uint8_t striding_rq;
	/** HCA_CAP.ext_stride_num_range: 8..256 strides per WQE too (1). */
	uint8_t ext_stride_num_range;
	/**
	 * Ethernet offload caps lro_cap and lro_psh_flag: TIRs may enable
	 * LRO, PSH segments are coalesced (1).
	 */
	uint8_t eth_lro;
	/** lro_min_mss_size reported (0: no minimum). */
	uint16_t eth_lro_min_mss;
};

/** Object ids of the provisioned IMPORT_KEK and CREDENTIAL
 * (caps.crypto_provisioned): below every id the device hands out.
 */
#define MLX5_EMU_PROV_KEK_ID 0x10
#define MLX5_EMU_PROV_CRED_ID 0x11

/** Failure points for injection (mlx5_emu_fail_inject()). */
enum mlx5_emu_fail_point {
	MLX5_EMU_FAIL_UMEM_REG, /**< devx_umem_reg fails with ENOMEM. */
	MLX5_EMU_FAIL_OBJ_CREATE, /**< devx_obj_create fails (status). */
	MLX5_EMU_FAIL_UAR_ALLOC, /**< devx_alloc_uar fails with ENOMEM. */
	MLX5_EMU_FAIL_QUERY_EQN, /**< devx_query_eqn fails with EINVAL. */
	MLX5_EMU_FAIL_VERBS_CQ, /**< dv_create_cq fails with ENOMEM. */
	/** mlx5_emu_get_clock_info() finds no clock-info page (EINVAL). */
	MLX5_EMU_FAIL_CLOCK_INFO,
	/** mlx5_emu_get_clock_info() meets a kernel update (EBUSY). */
	MLX5_EMU_FAIL_CLOCK_INFO_BUSY,
	/** The device's network state, made when first needed (reg_mr,
	 *  a DevX network object, a steering domain or root action), is
	 *  not allocated: that call fails with ENOMEM.
	 */
	MLX5_EMU_FAIL_NET_STATE,
	/** The bounce buffer of a crypto QP (a gathered or scattered
	 *  message, an MMO WQE) is not allocated when it has to grow: the
	 *  WQE completes with LOCAL_QP_OP_ERR (0x02).
	 */
	MLX5_EMU_FAIL_CRYPTO_BOUNCE,
	/** The AES-XTS cipher of an RDMA write through a crypto mkey fails:
	 *  the WQE completes with REMOTE_OP_ERR (0x14), vendor 0x05.
	 */
	MLX5_EMU_FAIL_CRYPTO_CIPHER,
	MLX5_EMU_FAIL_MAX,
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
				    * the physical layout is unknown).
				    */
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
	uint8_t cc; /**< cqc.cc: every CQE in entry 0. */
	uint8_t scqe_break_moderation_en; /**< cqc.scqe_break_moderation_en. */
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
enum mlx5_emu_wc_kind {
	MLX5_EMU_WC_REQ, /**< Requester (send) completion. */
	MLX5_EMU_WC_RESP, /**< Responder (receive) completion. */
	MLX5_EMU_WC_REQ_ERR, /**< Requester error CQE. */
	MLX5_EMU_WC_RESP_ERR, /**< Responder error CQE. */
};

/** One completion for the model to write (host byte order). */
struct mlx5_emu_wc {
	enum mlx5_emu_wc_kind kind; /**< Kind. */
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
	uint16_t wqe_id; /**< Striding RQ: the WQE's index (CQE bytes 2..3). */
	/** LRO (CQE bytes 4..11 and 32): PSH (MLX5_CQE_LRO_PUSH_MASK). */
	uint8_t lro_tcppsh_abort_dupack;
	uint8_t lro_min_ttl; /**< LRO: smallest TTL / hop limit. */
	uint8_t lro_num_seg; /**< LRO: segments coalesced (0: none). */
	uint16_t lro_tcp_win; /**< LRO: the last segment's window. */
	uint32_t lro_ack_seq_num; /**< LRO: the last segment's ack. */
	uint32_t byte_cnt; /**< Byte count. */
	uint32_t rx_hash_res; /**< RSS hash result. */
	uint32_t qpn; /**< QPN or flow tag (sop_drop_qpn[23:0]). */
	uint32_t flow_table_metadata; /**< Metadata / immediate. */
	uint64_t timestamp; /**< Timestamp. */
};

/**
 * Wrap the process's mlx5_glue table with the model's dispatching table.
 * Idempotent. What the model does not know goes to the wrapped table's
 * entries; on a machine without an RDMA device such a pointer is refused
 * (EINVAL) instead, as it cannot be a real device's.
 *
 * @return
 *   0, or a negative errno: -EEXIST when mlx5_glue was pointed, since the
 *   model wrapped it, at a table other than the model's or the wrapped
 *   one (wrapping that table, which may forward to the model's, would
 *   make a loop).
 */
__rte_internal
int mlx5_emu_install(void);

/**
 * Fill caps with the default capabilities of an emulated device.
 *
 * @param caps
 *   Filled.
 */
__rte_internal
void mlx5_emu_caps_default(struct mlx5_emu_caps *caps);

/**
 * Set the capabilities of the devices mlx5_emu_open() opens from now on
 * without caps (for a program that opens them through another layer, such
 * as net_mlx5cq's dev=emu).
 *
 * @param caps
 *   Capabilities, NULL for the defaults again.
 * @return
 *   0, or -EINVAL when caps are out of range.
 */
__rte_internal
int mlx5_emu_open_caps_set(const struct mlx5_emu_caps *caps);

/**
 * Open an emulated device (installs the glue wrapper when needed).
 *
 * @param name
 *   Device name ("emu0"...); names are unique among open devices.
 * @param caps
 *   Capabilities, NULL for the defaults (or mlx5_emu_open_caps_set()'s).
 * @return
 *   A verbs context usable with mlx5_glue, or NULL with errno set.
 */
__rte_internal
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
__rte_internal
int mlx5_emu_close(struct ibv_context *ctx);

/**
 * Tell whether a context belongs to the emulated HCA.
 *
 * @param ctx
 *   Context.
 * @return
 *   1 or 0.
 */
__rte_internal
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
__rte_internal
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
__rte_internal
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
__rte_internal
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
__rte_internal
int mlx5_emu_last_cmd_error(struct ibv_context *ctx, uint8_t *status,
			    uint32_t *syndrome);

/**
 * mlx5dv_get_clock_info() of an emulated context (the entry DPDK's glue
 * lacks): the clock-info page as the kernel's mlx5_update_clock_info_page()
 * writes it, taken at the call (nsec the host's CLOCK_REALTIME, cycles the
 * free-running clock, mask 41 bits, shift 23, mult of
 * device_frequency_khz). Another context goes to libmlx5's
 * mlx5dv_get_clock_info() when the process sees an RDMA device.
 *
 * @param ctx
 *   Context.
 * @param ci
 *   Filled on success.
 * @return
 *   0, or a positive errno: EINVAL (no page; an unknown context on a
 *   machine without RDMA device), EBUSY (the kernel updating it),
 *   EOPNOTSUPP (libmlx5 not in the process).
 */
__rte_internal
int mlx5_emu_get_clock_info(struct ibv_context *ctx,
			    struct mlx5dv_clock_info *ci);

/**
 * Pin the clock-info page of an emulated context (tests): every
 * mlx5_emu_get_clock_info() then returns *ci as it is, a known page the
 * kernel might have written; NULL returns to the live page.
 *
 * @return
 *   0, -EINVAL (not an emulated context).
 */
__rte_internal
int mlx5_emu_clock_info_pin(struct ibv_context *ctx,
			    const struct mlx5dv_clock_info *ci);

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
__rte_internal
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
__rte_internal
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
 *   (-ENOENT unknown CQ, -EIO CQ in error, -ENOLINK the device failed:
 *   mlx5_emu_dev_fail()).
 */
__rte_internal
int mlx5_emu_cq_post(struct ibv_context *ctx, uint32_t cqn,
		     const struct mlx5_emu_wc *cpl, unsigned int n);

/** Per-port traffic counters of an emulated device (network model). */
struct mlx5_emu_port_stats {
	uint64_t tx_packets; /**< Frames sent on the wire. */
	uint64_t tx_bytes; /**< Bytes of those frames. */
	uint64_t tx_dropped; /**< Frames sent while the link is down. */
	uint64_t tx_errors; /**< Send WQEs completed with an error CQE. */
	uint64_t rx_packets; /**< Frames written into a receive queue. */
	uint64_t rx_bytes; /**< Bytes of those frames (byte_cnt). */
	uint64_t rx_filtered; /**< Refused by the vport MAC filter. */
	uint64_t rx_mtu_drops; /**< Longer than the vport MTU. */
	uint64_t rx_out_of_buffer; /**< No posted receive WQE. */
	uint64_t rx_no_queue; /**< No TIR, or its RQ not ready. */
	uint64_t rx_errors; /**< Receive WQEs completed with an error CQE. */
	uint64_t rx_steer_drops; /**< Dropped by NIC RX steering: a drop
				   * action, a non-root table's miss.
				   */
	uint64_t rx_steer_missed; /**< Missed the NIC RX root (or a default
				    * miss there): the kernel's, no queue.
				    */
};

/** Network objects of an emulated device. */
struct mlx5_emu_net_stats {
	uint32_t mrs; /**< Memory regions (reg_mr). */
	uint32_t tds; /**< Transport domains. */
	uint32_t tiss; /**< TISs. */
	uint32_t sqs; /**< SQs. */
	uint32_t rqs; /**< RQs. */
	uint32_t rqts; /**< RQTs. */
	uint32_t tirs; /**< TIRs. */
	uint32_t ready_queues; /**< SQs and RQs in RDY, whole process. */
	uint32_t engine_running; /**< Progress thread alive (process). */
	uint32_t steer_domains; /**< DR domains (NIC RX, NIC TX). */
	uint32_t steer_tables; /**< Flow tables of those domains. */
	uint32_t steer_matchers; /**< Matchers of those tables. */
	uint32_t steer_rules; /**< Rules of those matchers. */
	uint32_t steer_actions; /**< Actions bound to the device (dest TIR,
				  * dest table, modify header).
				  */
	uint32_t steer_plain_actions; /**< Actions of no device (drop, tag,
					* pop VLAN, default miss), process.
					*/
};

/**
 * Memory regions of an emulated device (reg_mr) that cover a range.
 *
 * @param ctx
 *   Emulated context.
 * @param addr
 *   Start of the range.
 * @param len
 *   Bytes.
 * @param[out] lkey
 *   Lkey of the first MR found covering the range (set when >= 1).
 * @return
 *   How many MRs cover [addr, addr + len), or -EINVAL (foreign context).
 */
__rte_internal
int mlx5_emu_mr_find(struct ibv_context *ctx, const void *addr, size_t len,
		     uint32_t *lkey);

/**
 * Put the port of an emulated device on a named wire with a MAC address.
 * Every port on a wire receives the frames the others send; a port alone
 * on its wire receives its own frames. The MAC becomes the vport's
 * permanent address and the filter's default unicast entry.
 *
 * @param ctx
 *   Emulated context.
 * @param wire
 *   Wire name (created on first use); NULL takes the port off its wire.
 * @param mac
 *   MAC address; NULL keeps the current one.
 * @return
 *   0, or -EINVAL (foreign context, name too long, multicast MAC).
 */
__rte_internal
int mlx5_emu_port_config(struct ibv_context *ctx, const char *wire,
			 const uint8_t mac[6]);

/** Link speed of an emulated port until set otherwise, in Mb/s. */
#define MLX5_EMU_PORT_SPEED_DEFAULT 1000
/** Unit of QUERY_VPORT_STATE max_tx_speed (kernel MLX5_MAX_TX_SPEED_UNIT). */
#define MLX5_EMU_PORT_SPEED_UNIT 100
/** Largest speed max_tx_speed (16 bits) can carry, in Mb/s. */
#define MLX5_EMU_PORT_SPEED_MAX (0xffff * MLX5_EMU_PORT_SPEED_UNIT)

/**
 * Set the link speed of an emulated device's port. QUERY_VPORT_STATE
 * reports it in max_tx_speed (units of MLX5_EMU_PORT_SPEED_UNIT) while the
 * port is on a wire (state UP), 0 while it is DOWN. The speed is kept when
 * the port changes wires. It is the figure the device reports: the model
 * does not pace its traffic to it.
 *
 * @param ctx
 *   Emulated context.
 * @param speed_mbps
 *   Speed in Mb/s: a multiple of MLX5_EMU_PORT_SPEED_UNIT up to
 *   MLX5_EMU_PORT_SPEED_MAX, or 0 for MLX5_EMU_PORT_SPEED_DEFAULT.
 * @return
 *   0, or -EINVAL (foreign context, speed not representable), -ENOMEM.
 */
__rte_internal
int mlx5_emu_port_speed_set(struct ibv_context *ctx, uint32_t speed_mbps);

/**
 * Set the admin status of a device's port, as the host's driver does when
 * its interface goes down or up (the kernel's mlx5_set_port_admin_status()
 * writes the PAOS register). A port taken down takes the link of its wire
 * partner down too; every port whose link changes gets a port event
 * (IBV_EVENT_PORT_ERR / IBV_EVENT_PORT_ACTIVE) on its context's async fd.
 *
 * @param ctx
 *   Emulated context.
 * @param up
 *   1 up (the default), 0 down.
 * @return
 *   0, or -EINVAL (foreign context), -ENOMEM.
 */
__rte_internal
int mlx5_emu_port_admin_set(struct ibv_context *ctx, int up);

/**
 * Set the MTU of a device's vport as the host's driver does when its
 * interface's MTU changes (the kernel's mlx5e writes the hardware MTU,
 * software MTU + 22, with MODIFY_NIC_VPORT_CONTEXT: mlx5_set_port_mtu()),
 * behind the back of a program that runs the port.
 *
 * @param ctx
 *   Emulated context.
 * @param mtu
 *   Software MTU (the frame without FCS may be mtu + 18 bytes).
 * @return
 *   0, or -EINVAL (foreign context, out of the model's range), -ENOMEM.
 */
__rte_internal
int mlx5_emu_port_mtu_set(struct ibv_context *ctx, uint16_t mtu);

/** A device the model lists in the verbs device list (discovery). */
struct mlx5_emu_device_conf {
	/** Device name (ibv_device.name), unique among listed devices. */
	const char *name;
	/**
	 * Absolute folder of the device in sysfs terms (ibv_device.ibdev_path;
	 * DPDK reads device/uevent and device/net/ under it).
	 */
	const char *ibdev_path;
	/** Wire the port joins when opened, or NULL for none. */
	const char *wire;
	/** Port MAC (unicast), or NULL for the model's default. */
	const uint8_t *mac;
};

/**
 * List an emulated device: mlx5_glue's get_device_list returns it after
 * the devices of the wrapped table, and open_device / dv_open_device of it
 * open an emulated device of that name (once at a time) with the open
 * defaults (mlx5_emu_open_caps_set()), its port on conf->wire with
 * conf->mac. Installs the glue wrapper when needed (see also
 * mlx5_emu_devices_add()).
 *
 * @param conf
 *   The device.
 * @return
 *   0, or -EINVAL (a field missing or out of range), -EEXIST (name listed),
 *   -ENOMEM, or mlx5_emu_install()'s error.
 */
__rte_internal
int mlx5_emu_device_add(const struct mlx5_emu_device_conf *conf);

/**
 * List the devices of a specification, all or none: entries separated by
 * ';', each "name=N,path=P[,wire=W][,mac=xx:xx:xx:xx:xx:xx]". The library
 * calls it with the environment variable MLX5_EMU_DEVICES when it is
 * loaded.
 *
 * @param spec
 *   The specification.
 * @return
 *   The number of devices listed, or a negative errno (-EINVAL for a
 *   malformed entry, or mlx5_emu_device_add()'s), nothing listed then.
 */
__rte_internal
int mlx5_emu_devices_add(const char *spec);

/**
 * Remove a listed device from the device list.
 *
 * @param name
 *   Device name.
 * @return
 *   0, or -ENOENT (not listed), -EBUSY (open).
 */
__rte_internal
int mlx5_emu_device_remove(const char *name);

/**
 * Number of listed devices.
 *
 * @return
 *   Devices listed by mlx5_emu_device_add() and not removed.
 */
__rte_internal
unsigned int mlx5_emu_device_count(void);

/**
 * Pull a wire's cable out or put it back in: the link of every port on it
 * goes down or comes back (with the ports' admin status up), each change
 * a port event on the port's context (see mlx5_emu_port_admin_set()).
 *
 * @param wire
 *   Wire name.
 * @param up
 *   1 cable in (the default), 0 out.
 * @return
 *   0, or -ENOENT (no such wire), -EINVAL (NULL name).
 */
__rte_internal
int mlx5_emu_wire_link_set(const char *wire, int up);

/** How a device fails (mlx5_emu_dev_fail()). */
enum mlx5_emu_failure {
	MLX5_EMU_DEV_FATAL = 1, /**< Firmware fatal error. */
	MLX5_EMU_DEV_REMOVED, /**< Surprise removal from the bus. */
};

/**
 * Fail a device as a firmware fatal error or a surprise removal does: the
 * device enters the internal-error state. It executes nothing from then
 * on (no WQE, no CQE, no event of its CQs); its link goes down (its wire
 * partner gets IBV_EVENT_PORT_ERR); its context's async fd reports
 * IBV_EVENT_DEVICE_FATAL once (fatal) or twice (removed: the mlx5 event
 * and the uverbs one). Destroy commands still succeed and release what
 * they name; other commands fail with ENOLINK, status 0xfe and syndrome
 * 0xbadd00de in the output mailbox, as the kernel answers them. A fatal
 * device may still be removed; nothing brings a device back.
 * The telemetry command /mlx5_emu/fail,NAME[,fatal|removed] does the same
 * from outside the process.
 *
 * @param ctx
 *   Emulated context.
 * @param how
 *   MLX5_EMU_DEV_FATAL or MLX5_EMU_DEV_REMOVED.
 * @return
 *   0, or -EINVAL (foreign context, unknown failure), -EALREADY (failed
 *   that way already).
 */
__rte_internal
int mlx5_emu_dev_fail(struct ibv_context *ctx, enum mlx5_emu_failure how);

/**
 * Read the traffic counters of an emulated device's port.
 *
 * @param ctx
 *   Emulated context.
 * @param stats
 *   Filled.
 * @return
 *   0, or -EINVAL.
 */
__rte_internal
int mlx5_emu_port_stats_get(struct ibv_context *ctx,
			    struct mlx5_emu_port_stats *stats);

/**
 * Count the network objects of an emulated device.
 *
 * @param ctx
 *   Emulated context.
 * @param stats
 *   Filled.
 * @return
 *   0, or -EINVAL.
 */
__rte_internal
int mlx5_emu_net_stats_get(struct ibv_context *ctx,
			   struct mlx5_emu_net_stats *stats);

/**
 * Put a frame on a wire from outside: every port on the wire receives it.
 * The injection is a pass of the engine of its own: its completions are
 * in the rings (compressed CQs flushed) when the call returns.
 *
 * @param wire
 *   Wire name.
 * @param frame
 *   Ethernet frame without FCS.
 * @param len
 *   Its length (14 .. 16384).
 * @return
 *   Ports the frame reached (those whose link is up), or -ENOENT (no
 *   such wire), -EINVAL.
 */
__rte_internal
int mlx5_emu_wire_inject(const char *wire, const void *frame, uint32_t len);

/**
 * Put n frames on a wire from outside in one pass of the engine: every
 * port on the wire receives each of them in order, and a compressed CQ
 * may join their completions into sessions (written, flushed, when the
 * call returns). Nothing is delivered when an argument is bad.
 *
 * @param wire
 *   Wire name.
 * @param frames
 *   n Ethernet frames without FCS.
 * @param lens
 *   Their lengths (14 .. 16384 each).
 * @param n
 *   Number of frames (at least 1).
 * @return
 *   Ports each frame reached, or -ENOENT (no such wire), -EINVAL.
 */
__rte_internal
int mlx5_emu_wire_inject_burst(const char *wire, const void *const *frames,
			       const uint32_t *lens, uint32_t n);

/**
 * Fault injection on a wire's receivers: each of the next count frames
 * delivered to an RQ of a port on the wire completes with an error CQE
 * (responder error, syndrome LOC_LEN_ERR, nothing written into the
 * buffer) while the RQ stays RDY, as a device would if the RQ missed its
 * ERR transition. A consumer's recovery must cope with an RQ in any
 * state. 0 disarms.
 *
 * @param wire
 *   Wire name.
 * @param count
 *   Frames to complete in error.
 * @return
 *   0, -ENOENT (no such wire), -EINVAL.
 */
__rte_internal
int mlx5_emu_wire_rx_error_inject(const char *wire, uint32_t count);

/**
 * Run the progress engine once in the caller's thread: execute every send
 * WQE the SQ doorbell records announce, on every emulated device. The
 * engine thread does the same on its own; calling this makes a test
 * independent of the thread's timing. On CQs with compression the
 * completions of one pass are compressed together; the end of the pass is
 * the device's compression timer: every session is written before the
 * pass returns.
 *
 * @return
 *   Send WQEs executed.
 */
__rte_internal
unsigned int mlx5_emu_net_progress(void);

/**
 * Pause or resume the progress engine thread (the thread stays alive;
 * mlx5_emu_net_progress() still works). Tests pause it to step the model
 * deterministically.
 *
 * @param pause
 *   1 to pause, 0 to resume.
 */
__rte_internal
void mlx5_emu_net_engine_pause(int pause);

/* --- CQE path: compression, overrun, events, producer thread ---------- */

/** mlx5_emu_cq_post_flags(): the ring is full and the device writes anyway
 * (without cqc.oi the CQ goes to error, with cqc.oi it overwrites).
 */
#define MLX5_EMU_POST_OVERRUN (1u << 0)
/** mlx5_emu_cq_post_flags(): keep the last compression session (or
 * enhanced mini-CQE array) open after the call, as the device does until
 * its session timer fires (mlx5_emu_cq_flush()).
 */
#define MLX5_EMU_POST_HOLD (1u << 1)

/**
 * Write completions into a CQ like mlx5_emu_cq_post(), with flags.
 *
 * On a CQ with cqc.cqe_comp_en the completions are compressed as the
 * device does (see doc/guides/emulated_hca.rst): consecutive completions
 * that may share a session form one, a lone completion is written as a
 * regular CQE. Without MLX5_EMU_POST_HOLD every session is closed (written)
 * before the call returns.
 *
 * @param ctx
 *   Emulated context.
 * @param cqn
 *   CQ number.
 * @param cpl
 *   Completions.
 * @param n
 *   Number of completions.
 * @param flags
 *   MLX5_EMU_POST_* flags.
 * @return
 *   Completions taken (written, or held in an open session), fewer when the
 *   ring is full; or a negative errno: -ENOENT unknown CQ, -EINVAL bad
 *   flags or completion, -EIO the CQ is in error (or went to error now,
 *   by an overrun).
 */
__rte_internal
int mlx5_emu_cq_post_flags(struct ibv_context *ctx, uint32_t cqn,
			   const struct mlx5_emu_wc *cpl, unsigned int n,
			   uint32_t flags);

/**
 * Close the open compression session of a CQ (what the device's session
 * timer does), writing it into the ring. Also samples the arm doorbell
 * and the moderation timer.
 *
 * @param ctx
 *   Emulated context.
 * @param cqn
 *   CQ number.
 * @return
 *   0, -ENOENT unknown CQ, -EIO CQ in error.
 */
__rte_internal
int mlx5_emu_cq_flush(struct ibv_context *ctx, uint32_t cqn);

/** Event state of a CQ (mlx5_emu_cq_ev_query()). */
struct mlx5_emu_cq_ev_info {
	uint8_t armed; /**< An arm request is pending. */
	uint8_t solicited; /**< The pending arm is solicited-only. */
	uint8_t arm_sn; /**< sn of the last arm request accepted. */
	uint8_t held; /**< An event is held by moderation. */
	uint16_t cq_period; /**< Moderation period, us. */
	uint16_t cq_max_count; /**< Moderation count. */
	/** cqc.scqe_break_moderation_en: a solicited or error CQE releases
	 * a held event.
	 */
	uint8_t scqe_break_moderation_en;
	uint64_t arms; /**< Arm requests accepted. */
	uint64_t events; /**< Completion events raised. */
	uint64_t sessions; /**< Compressed sessions (or arrays) written. */
	uint64_t compressed; /**< Completions written as mini-CQEs. */
	uint32_t open; /**< Completions held in an open session. */
};

/**
 * Read the event and compression state of a CQ.
 *
 * @param ctx
 *   Emulated context.
 * @param cqn
 *   CQ number.
 * @param info
 *   Filled.
 * @return
 *   0, -EINVAL, -ENOENT.
 */
__rte_internal
int mlx5_emu_cq_ev_query(struct ibv_context *ctx, uint32_t cqn,
			 struct mlx5_emu_cq_ev_info *info);

#include "mlx5_emu_producer.h"

#ifdef __cplusplus
}
#endif

#endif /* MLX5_EMU_H_ */
