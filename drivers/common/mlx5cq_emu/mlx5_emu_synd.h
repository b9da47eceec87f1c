/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef MLX5_EMU_SYND_H_
#define MLX5_EMU_SYND_H_

/**
 * @file
 * The emulated HCA's command syndromes, one per check (doc/guides/
 * emulated_hca.rst, "Firmware checks"). Included by mlx5_emu.h.
 */

#ifdef __cplusplus
extern "C" {
#endif

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
	MLX5_EMU_SYND_CQ_CQE_PAD = 0x0c000006, /**< cqe_sz 2 w/o cqe_128_always. */
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
	/** Ring at offset != 0 of a umem registered without pgsz_bitmap. */
	MLX5_EMU_SYND_CQ_UMEM_OFFSET = 0x0c000020,
	MLX5_EMU_SYND_CQ_OI_CAP = 0x0c000021, /**< cqc.oi without cq_oi. */
	/** cq_period / cq_max_count without cq_moderation, or cq_period_mode
	 * 1 without cq_period_start_from_cqe.
	 */
	MLX5_EMU_SYND_CQ_MODER_CAP = 0x0c000022,
	/** cqc.scqe_break_moderation_en without scqe_break_moderation. */
	MLX5_EMU_SYND_CQ_SCQE_BREAK_CAP = 0x0c000023,
	/* MODIFY_CQ op_mod RESIZE (cq/mlx5_emu_cq_resize.c). */
	MLX5_EMU_SYND_CQ_RESIZE_CAP = 0x0c000024, /**< No HCA_CAP.cq_resize. */
	/** resize_field_select without LOG_SIZE or with unknown bits. */
	MLX5_EMU_SYND_CQ_RESIZE_SELECT = 0x0c000025,
	MLX5_EMU_SYND_CQ_RESIZE_CQE_SZ = 0x0c000026, /**< cqe_sz changed. */
	/** New ring umem is the CQ's current one. */
	MLX5_EMU_SYND_CQ_RESIZE_SAME_UMEM = 0x0c000027,
	/** No room for the RESIZE CQE, or the CQ is in error. */
	MLX5_EMU_SYND_CQ_RESIZE_STATE = 0x0c000028,
	/* Network objects and vport commands. */
	MLX5_EMU_SYND_NET_BUSY = 0x0d000001, /**< Object still in use. */
	MLX5_EMU_SYND_NET_RESERVED = 0x0d000002, /**< Reserved/unsupported. */
	MLX5_EMU_SYND_NET_TD = 0x0d000003, /**< Transport domain unknown. */
	MLX5_EMU_SYND_NET_TIS = 0x0d000004, /**< TIS unknown or list size. */
	MLX5_EMU_SYND_NET_CQ = 0x0d000005, /**< CQ unknown. */
	MLX5_EMU_SYND_NET_PD = 0x0d000006, /**< PD unknown. */
	MLX5_EMU_SYND_NET_UAR = 0x0d000007, /**< uar_page not allocated. */
	MLX5_EMU_SYND_NET_WQ_TYPE = 0x0d000008, /**< wq_type not cyclic. */
	MLX5_EMU_SYND_NET_WQ_SIZE = 0x0d000009, /**< log_wq_sz/stride. */
	MLX5_EMU_SYND_NET_UMEM = 0x0d00000a, /**< WQ umem missing/unknown. */
	MLX5_EMU_SYND_NET_UMEM_RANGE = 0x0d00000b, /**< Ring past umem. */
	MLX5_EMU_SYND_NET_DBR = 0x0d00000c, /**< Doorbell record bad. */
	MLX5_EMU_SYND_NET_STATE = 0x0d00000d, /**< State or transition. */
	MLX5_EMU_SYND_NET_RQ = 0x0d00000e, /**< RQ unknown. */
	MLX5_EMU_SYND_NET_RQT = 0x0d00000f, /**< RQT unknown or size. */
	MLX5_EMU_SYND_NET_HASH = 0x0d000010, /**< Hash function/fields. */
	MLX5_EMU_SYND_NET_VPORT = 0x0d000011, /**< Other vport. */
	MLX5_EMU_SYND_NET_MAC_LIST = 0x0d000012, /**< Address list. */
	MLX5_EMU_SYND_NET_MTU = 0x0d000013, /**< MTU out of range. */
	MLX5_EMU_SYND_NET_QCNT = 0x0d000014, /**< Counter set unknown/full. */
	MLX5_EMU_SYND_NET_TS_FORMAT = 0x0d000015, /**< Clock not offered. */
	MLX5_EMU_SYND_NET_STRIDE_NUM = 0x0d000016, /**< Strides per WQE. */
	MLX5_EMU_SYND_NET_STRIDE_WQE = 0x0d000017, /**< Striding WQE size. */
	MLX5_EMU_SYND_NET_LRO_CAP = 0x0d000018, /**< LRO without lro_cap. */
	MLX5_EMU_SYND_NET_LRO_PERIOD = 0x0d000019, /**< LRO timeout period. */
	MLX5_EMU_SYND_NET_LRO_SIZE = 0x0d00001a, /**< lro_max_msg_sz 0. */
	/* ACCESS_REGISTER_USER. */
	MLX5_EMU_SYND_REG_ID = 0x0f000001, /**< Register not accessible. */
	/* Crypto objects, crypto mkeys and QPs (mlx5_emu_crypto.h). */
	MLX5_EMU_SYND_CRYPTO_TYPE = 0x0e000001, /**< Object type not offered. */
	MLX5_EMU_SYND_CRYPTO_RESERVED = 0x0e000002, /**< Reserved/state set. */
	MLX5_EMU_SYND_CRYPTO_KEY_SIZE = 0x0e000003, /**< key_size not 0/1. */
	MLX5_EMU_SYND_CRYPTO_PURPOSE = 0x0e000004, /**< Not AES_XTS. */
	MLX5_EMU_SYND_CRYPTO_PD = 0x0e000005, /**< PD unknown. */
	MLX5_EMU_SYND_CRYPTO_NO_LOGIN = 0x0e000006, /**< Wrapped, no login. */
	MLX5_EMU_SYND_CRYPTO_UNWRAP = 0x0e000007, /**< Key wrap check fails. */
	MLX5_EMU_SYND_CRYPTO_DEK_LIMIT = 0x0e000008, /**< All DEKs in use. */
	MLX5_EMU_SYND_CRYPTO_SELFTEST = 0x0e000009, /**< failed_selftests. */
	MLX5_EMU_SYND_CRYPTO_KEK = 0x0e00000a, /**< Import KEK unknown. */
	MLX5_EMU_SYND_CRYPTO_CREDENTIAL = 0x0e00000b, /**< Credential bad. */
	MLX5_EMU_SYND_CRYPTO_LOGIN_EXISTS = 0x0e00000c, /**< Already in. */
	MLX5_EMU_SYND_CRYPTO_BUSY = 0x0e00000d, /**< Object in use. */
	MLX5_EMU_SYND_CRYPTO_WEAK_KEY = 0x0e00000e, /**< XTS halves equal. */
	MLX5_EMU_SYND_CRYPTO_ROLE = 0x0e00000f, /**< credential_role. */
	MLX5_EMU_SYND_MKEY_CTX = 0x0e000010, /**< Mkey context refused. */
	MLX5_EMU_SYND_QP_CTX = 0x0e000011, /**< QP context refused. */
	MLX5_EMU_SYND_QP_STATE = 0x0e000012, /**< QP state transition. */
};

#ifdef __cplusplus
}
#endif

#endif /* MLX5_EMU_SYND_H_ */
