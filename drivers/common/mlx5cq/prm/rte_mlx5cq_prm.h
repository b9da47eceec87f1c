/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef RTE_MLX5CQ_PRM_H_
#define RTE_MLX5CQ_PRM_H_

/**
 * @file
 * The mlx5 completion formats, in one place: the 64 B CQE, its op_own
 * byte, the mini-CQE formats of compressed sessions and the geometry of
 * both compression layouts, as the PRM defines them. The library, the
 * PMDs and the emulated HCA take every CQE offset from here; layout facts
 * only, no code. mlx5cq_prm_check.c holds the static assertions against
 * DPDK's mlx5_prm.h (struct mlx5_cqe, struct mlx5_mini_cqe8,
 * MLX5_CQE_*) and rdma-core's infiniband/mlx5dv.h (struct mlx5_cqe64).
 *
 * A 128 B CQE slot holds the 64 B CQE in its second half (PRM cqe_sz 1;
 * the first half is the "padding" of DPDK's struct mlx5_cqe on 128-byte
 * cache-line builds): every offset below is inside the 64 B CQE.
 */

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes of a CQE (and of the slot of a 64 B ring). */
#define RTE_MLX5CQ_PRM_CQE_SIZE 64

/** CQE opcodes (op_own bits 7:4; mlx5dv.h MLX5_CQE_*). */
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

/** op_own: owner bit 0, solicited event bit 1, format bits 3:2. */
#define RTE_MLX5CQ_OP_OWN_OWNER 0x01
#define RTE_MLX5CQ_OP_OWN_SE 0x02
#define RTE_MLX5CQ_OP_OWN_FORMAT_SHIFT 2
#define RTE_MLX5CQ_OP_OWN_FORMAT_MASK 0x0c
#define RTE_MLX5CQ_OP_OWN_OPCODE_SHIFT 4
/** Compressed CQE format value in op_own bits 3:2. */
#define RTE_MLX5CQ_FORMAT_COMPRESSED 3
/**
 * op_own of an entry nobody wrote yet (DPDK's mlx5_devx_cq_create() and
 * rdma-core write INVALID << 4, DPDK with the owner bit set).
 */
#define RTE_MLX5CQ_OP_OWN_INVALID (RTE_MLX5CQ_OP_INVALID << 4)

/** Byte offsets inside the 64 B CQE (mlx5_prm.h struct mlx5_cqe). */
enum {
	RTE_MLX5CQ_CQE_PKT_INFO = 0,
	RTE_MLX5CQ_CQE_WQE_ID = 2,
	RTE_MLX5CQ_CQE_LRO_TCPPSH_ABORT_DUPACK = 4,
	RTE_MLX5CQ_CQE_LRO_MIN_TTL = 5,
	RTE_MLX5CQ_CQE_LRO_TCP_WIN = 6,
	RTE_MLX5CQ_CQE_LRO_ACK_SEQ_NUM = 8,
	RTE_MLX5CQ_CQE_RX_HASH_RES = 12,
	RTE_MLX5CQ_CQE_RX_HASH_TYPE = 16,
	RTE_MLX5CQ_CQE_ML_PATH = 17, /**< mlx5dv.h struct mlx5_cqe64. */
	RTE_MLX5CQ_CQE_CSUM = 20,
	RTE_MLX5CQ_CQE_SLID = 22, /**< mlx5dv.h. */
	RTE_MLX5CQ_CQE_FLAGS_RQPN = 24, /**< mlx5dv.h. */
	RTE_MLX5CQ_CQE_HDR_TYPE_ETC = 28, /**< hds_ip_ext, l4_hdr_type_etc. */
	RTE_MLX5CQ_CQE_L4_HDR_TYPE_ETC = 29, /**< mlx5dv.h. */
	RTE_MLX5CQ_CQE_VLAN_INFO = 30,
	RTE_MLX5CQ_CQE_LRO_NUM_SEG = 32,
	RTE_MLX5CQ_CQE_SRQN_UIDX = 32, /**< mlx5dv.h (verbs view). */
	/** flow_table_metadata (Ethernet), imm_inval_pkey (mlx5dv.h). */
	RTE_MLX5CQ_CQE_METADATA = 36,
	RTE_MLX5CQ_CQE_BYTE_CNT = 44,
	RTE_MLX5CQ_CQE_TIMESTAMP = 48,
	RTE_MLX5CQ_CQE_VENDOR_SYND = 54, /**< struct mlx5_err_cqe. */
	RTE_MLX5CQ_CQE_SYNDROME = 55, /**< struct mlx5_err_cqe. */
	RTE_MLX5CQ_CQE_SOP_DROP_QPN = 56,
	RTE_MLX5CQ_CQE_WQE_COUNTER = 60,
	/** Validity iteration count (enhanced layout; rsvd5 in 22.11). */
	RTE_MLX5CQ_CQE_VALIDITY = 62,
	RTE_MLX5CQ_CQE_OP_OWN = 63,
};

/** hdr_type_etc bits, host order (mlx5_prm.h MLX5_CQE_*). */
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

/**
 * Mini-CQE formats (cqc.mini_cqe_res_format, _ext for L34H_STRIDX;
 * mlx5_prm.h MLX5_CQE_RESP_FORMAT_*), and the requester's.
 */
enum {
	RTE_MLX5CQ_MINI_FMT_HASH = 0,
	RTE_MLX5CQ_MINI_FMT_CSUM = 1,
	RTE_MLX5CQ_MINI_FMT_FTAG_STRIDX = 2,
	RTE_MLX5CQ_MINI_FMT_CSUM_STRIDX = 3,
	RTE_MLX5CQ_MINI_FMT_L34H_STRIDX = 4,
	RTE_MLX5CQ_MINI_FMT_REQ = 5, /**< Requester CQEs, any format. */
	RTE_MLX5CQ_MINI_FMT_NUM = 6,
};

/** Mini-CQE: 8 bytes, big-endian fields (struct mlx5_mini_cqe8). */
#define RTE_MLX5CQ_MINI_SIZE 8
/** Byte offsets inside a mini-CQE; which exist depends on the format. */
enum {
	RTE_MLX5CQ_MINI_RX_HASH = 0, /**< HASH: rx_hash_result, 4 B. */
	RTE_MLX5CQ_MINI_CSUM = 0, /**< CSUM, CSUM_STRIDX: checksum, 2 B. */
	/** FTAG_STRIDX: flow tag bits 15:0, 2 B. */
	RTE_MLX5CQ_MINI_FTAG_LOW = 0,
	/**
	 * L34H_STRIDX: hdr_type_etc bits 7:0 of the full CQE, 1 B, in the
	 * mini's first byte (DPDK 5654f38eba, in 24.11.6: the 22.11 struct
	 * had it swapped with the reserved byte after it).
	 */
	RTE_MLX5CQ_MINI_HDR_TYPE = 0,
	RTE_MLX5CQ_MINI_STRIDX = 2, /**< *_STRIDX, CSUM: stride index, 2 B. */
	RTE_MLX5CQ_MINI_WQE_COUNTER = 0, /**< Requester: 2 B. */
	/**
	 * Requester: 1 B (the kernel's struct mlx5_mini_cqe8; DPDK since
	 * 23.03 names byte 2 validity_iteration_count and byte 3
	 * s_wqe_opcode; no reader here takes it from a mini).
	 */
	RTE_MLX5CQ_MINI_S_WQE_OPCODE = 2,
	/** FTAG_STRIDX: flow tag bits 23:16, 1 B (byte count is 24 bits). */
	RTE_MLX5CQ_MINI_FTAG_HIGH = 4,
	RTE_MLX5CQ_MINI_BYTE_CNT = 4, /**< 4 B; FTAG_STRIDX: bytes 5..7. */
};

/** Fields a mini-CQE format carries (RTE_MLX5CQ_MINI_FIELDS()). */
enum {
	RTE_MLX5CQ_MINI_F_RX_HASH = 1u << 0,
	RTE_MLX5CQ_MINI_F_CSUM = 1u << 1,
	RTE_MLX5CQ_MINI_F_FTAG = 1u << 2, /**< FTAG_LOW and FTAG_HIGH. */
	RTE_MLX5CQ_MINI_F_HDR_TYPE = 1u << 3,
	RTE_MLX5CQ_MINI_F_STRIDX = 1u << 4,
	RTE_MLX5CQ_MINI_F_WQE_COUNTER = 1u << 5,
	RTE_MLX5CQ_MINI_F_S_WQE_OPCODE = 1u << 6,
	RTE_MLX5CQ_MINI_F_BYTE_CNT = 1u << 7, /**< 32 bits. */
	RTE_MLX5CQ_MINI_F_BYTE_CNT24 = 1u << 8, /**< Bytes 5..7. */
};

/**
 * The format table: the fields of a mini-CQE of format fmt
 * (RTE_MLX5CQ_MINI_FMT_*), from struct mlx5_mini_cqe8's unions.
 */
#define RTE_MLX5CQ_MINI_FIELDS(fmt) \
	((fmt) == RTE_MLX5CQ_MINI_FMT_HASH ? \
		(RTE_MLX5CQ_MINI_F_RX_HASH | RTE_MLX5CQ_MINI_F_BYTE_CNT) : \
	 (fmt) == RTE_MLX5CQ_MINI_FMT_CSUM || \
	 (fmt) == RTE_MLX5CQ_MINI_FMT_CSUM_STRIDX ? \
		(RTE_MLX5CQ_MINI_F_CSUM | RTE_MLX5CQ_MINI_F_STRIDX | \
		 RTE_MLX5CQ_MINI_F_BYTE_CNT) : \
	 (fmt) == RTE_MLX5CQ_MINI_FMT_FTAG_STRIDX ? \
		(RTE_MLX5CQ_MINI_F_FTAG | RTE_MLX5CQ_MINI_F_STRIDX | \
		 RTE_MLX5CQ_MINI_F_BYTE_CNT24) : \
	 (fmt) == RTE_MLX5CQ_MINI_FMT_L34H_STRIDX ? \
		(RTE_MLX5CQ_MINI_F_HDR_TYPE | RTE_MLX5CQ_MINI_F_STRIDX | \
		 RTE_MLX5CQ_MINI_F_BYTE_CNT) : \
	 (fmt) == RTE_MLX5CQ_MINI_FMT_REQ ? \
		(RTE_MLX5CQ_MINI_F_WQE_COUNTER | \
		 RTE_MLX5CQ_MINI_F_S_WQE_OPCODE | RTE_MLX5CQ_MINI_F_BYTE_CNT) : \
	 0u)

/**
 * Basic layout (cqc.cqe_comp_layout 0): a CQE of format 3 is the title of
 * a session; its byte_cnt holds the count of completions, which is also
 * the number of entries the session spans, and its other fields what the
 * completions share. Arrays of 8 mini-CQEs (a 64 B CQE's bytes) fill the
 * entries title + 1, title + 8, title + 16, ...; the others are holes.
 */
#define RTE_MLX5CQ_BASIC_MINIS_PER_ARRAY 8

/**
 * Enhanced layout (cqc.cqe_comp_layout 1): a compressed CQE holds up to 7
 * mini-CQEs in bytes 0..55, their number minus one in op_own bits 7:4,
 * the validity iteration count in byte 62; it spans as many entries as it
 * holds minis.
 */
#define RTE_MLX5CQ_ENH_MINIS_MAX 7
/** Validity iteration count of a fresh ring (no entry valid on pass 0). */
#define RTE_MLX5CQ_ENH_VIC_INIT 0xff

#ifdef __cplusplus
}
#endif

#endif /* RTE_MLX5CQ_PRM_H_ */
