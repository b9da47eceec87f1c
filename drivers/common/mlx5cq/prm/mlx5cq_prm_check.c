/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * rte_mlx5cq_prm.h checked at build time against the two layouts nobody
 * here wrote: DPDK's mlx5_prm.h (struct mlx5_cqe, struct mlx5_mini_cqe8,
 * MLX5_CQE_* opcodes and formats) and rdma-core's infiniband/mlx5dv.h
 * (struct mlx5_cqe64, struct mlx5_err_cqe, MLX5_CQE_* opcodes). No code:
 * a build where one of them disagrees with the project's header fails.
 */

#include <assert.h>
#include <stddef.h>

#include <infiniband/mlx5dv.h>

#include <rte_version.h>

#include <mlx5_prm.h>

#include "rte_mlx5cq_prm.h"

/* DPDK's struct mlx5_cqe: the CQE starts at pkt_info (after "padding"). */
#define DPDK_CQE(f) (offsetof(struct mlx5_cqe, f) - \
		     offsetof(struct mlx5_cqe, pkt_info))
#define RC_CQE(f) offsetof(struct mlx5_cqe64, f)
#define RC_ERR(f) offsetof(struct mlx5_err_cqe, f)
#define MINI(f) offsetof(struct mlx5_mini_cqe8, f)
/* Values of different enums or types compared as numbers. */
#define SAME(a, b, what) static_assert((long)(a) == (long)(b), what)

SAME(sizeof(struct mlx5_cqe64), RTE_MLX5CQ_PRM_CQE_SIZE, "mlx5dv.h CQE size");
SAME(DPDK_CQE(op_own) + 1, RTE_MLX5CQ_PRM_CQE_SIZE, "mlx5_prm.h CQE size");

/* The CQE against DPDK's mlx5_prm.h. */
SAME(DPDK_CQE(wqe_id), RTE_MLX5CQ_CQE_WQE_ID, "wqe_id");
SAME(DPDK_CQE(lro_tcppsh_abort_dupack), RTE_MLX5CQ_CQE_LRO_TCPPSH_ABORT_DUPACK,
	"lro flags");
SAME(DPDK_CQE(lro_min_ttl), RTE_MLX5CQ_CQE_LRO_MIN_TTL, "ttl");
SAME(DPDK_CQE(lro_tcp_win), RTE_MLX5CQ_CQE_LRO_TCP_WIN, "win");
SAME(DPDK_CQE(lro_ack_seq_num), RTE_MLX5CQ_CQE_LRO_ACK_SEQ_NUM, "ack");
SAME(DPDK_CQE(rx_hash_res), RTE_MLX5CQ_CQE_RX_HASH_RES, "hash");
SAME(DPDK_CQE(rx_hash_type), RTE_MLX5CQ_CQE_RX_HASH_TYPE, "hash type");
SAME(DPDK_CQE(csum), RTE_MLX5CQ_CQE_CSUM, "csum");
SAME(DPDK_CQE(hdr_type_etc), RTE_MLX5CQ_CQE_HDR_TYPE_ETC, "hdr_type_etc");
SAME(DPDK_CQE(vlan_info), RTE_MLX5CQ_CQE_VLAN_INFO, "vlan");
SAME(DPDK_CQE(lro_num_seg), RTE_MLX5CQ_CQE_LRO_NUM_SEG, "segs");
SAME(DPDK_CQE(flow_table_metadata), RTE_MLX5CQ_CQE_METADATA, "metadata");
SAME(DPDK_CQE(byte_cnt), RTE_MLX5CQ_CQE_BYTE_CNT, "byte_cnt");
SAME(DPDK_CQE(timestamp), RTE_MLX5CQ_CQE_TIMESTAMP, "ts");
SAME(DPDK_CQE(sop_drop_qpn), RTE_MLX5CQ_CQE_SOP_DROP_QPN, "sop_drop_qpn");
SAME(DPDK_CQE(wqe_counter), RTE_MLX5CQ_CQE_WQE_COUNTER, "wqe_counter");
#if RTE_VERSION < RTE_VERSION_NUM(23, 3, 0, 0)
SAME(DPDK_CQE(rsvd5), RTE_MLX5CQ_CQE_VALIDITY, "validity");
#else
SAME(DPDK_CQE(validity_iteration_count), RTE_MLX5CQ_CQE_VALIDITY,
	"validity");
#endif
SAME(DPDK_CQE(op_own), RTE_MLX5CQ_CQE_OP_OWN, "op_own");

/* The CQE against rdma-core's mlx5dv.h. */
SAME(RC_CQE(wqe_id), RTE_MLX5CQ_CQE_WQE_ID, "rc wqe_id");
SAME(RC_CQE(ml_path), RTE_MLX5CQ_CQE_ML_PATH, "rc ml_path");
SAME(RC_CQE(slid), RTE_MLX5CQ_CQE_SLID, "rc slid");
SAME(RC_CQE(flags_rqpn), RTE_MLX5CQ_CQE_FLAGS_RQPN, "rc rqpn");
SAME(RC_CQE(hds_ip_ext), RTE_MLX5CQ_CQE_HDR_TYPE_ETC, "rc hds");
SAME(RC_CQE(l4_hdr_type_etc), RTE_MLX5CQ_CQE_L4_HDR_TYPE_ETC,
	"rc l4_hdr_type_etc");
SAME(RC_CQE(vlan_info), RTE_MLX5CQ_CQE_VLAN_INFO, "rc vlan");
SAME(RC_CQE(srqn_uidx), RTE_MLX5CQ_CQE_SRQN_UIDX, "rc srqn");
SAME(RC_CQE(imm_inval_pkey), RTE_MLX5CQ_CQE_METADATA, "rc imm");
SAME(RC_CQE(byte_cnt), RTE_MLX5CQ_CQE_BYTE_CNT, "rc byte_cnt");
SAME(RC_CQE(timestamp), RTE_MLX5CQ_CQE_TIMESTAMP, "rc ts");
SAME(RC_CQE(sop_drop_qpn), RTE_MLX5CQ_CQE_SOP_DROP_QPN, "rc sop_drop_qpn");
SAME(RC_CQE(wqe_counter), RTE_MLX5CQ_CQE_WQE_COUNTER, "rc wqe_counter");
SAME(RC_CQE(signature), RTE_MLX5CQ_CQE_VALIDITY, "rc byte 62");
SAME(RC_CQE(op_own), RTE_MLX5CQ_CQE_OP_OWN, "rc op_own");
SAME(RC_ERR(vendor_err_synd), RTE_MLX5CQ_CQE_VENDOR_SYND,
	"rc vendor_err_synd");
SAME(RC_ERR(syndrome), RTE_MLX5CQ_CQE_SYNDROME, "rc syndrome");

/* Opcodes and op_own (both headers). */
SAME(MLX5_CQE_REQ, RTE_MLX5CQ_OP_REQ, "REQ");
SAME(MLX5_CQE_RESP_WR_IMM, RTE_MLX5CQ_OP_RESP_WR_IMM, "WR_IMM");
SAME(MLX5_CQE_RESP_SEND, RTE_MLX5CQ_OP_RESP_SEND, "SEND");
SAME(MLX5_CQE_RESP_SEND_IMM, RTE_MLX5CQ_OP_RESP_SEND_IMM, "IMM");
SAME(MLX5_CQE_RESP_SEND_INV, RTE_MLX5CQ_OP_RESP_SEND_INV, "INV");
SAME(MLX5_CQE_RESIZE_CQ, RTE_MLX5CQ_OP_RESIZE_CQ, "RESIZE");
SAME(MLX5_CQE_NO_PACKET, RTE_MLX5CQ_OP_NO_PACKET, "NO_PACKET");
SAME(MLX5_CQE_SIG_ERR, RTE_MLX5CQ_OP_SIG_ERR, "SIG_ERR");
SAME(MLX5_CQE_REQ_ERR, RTE_MLX5CQ_OP_REQ_ERR, "REQ_ERR");
SAME(MLX5_CQE_RESP_ERR, RTE_MLX5CQ_OP_RESP_ERR, "RESP_ERR");
SAME(MLX5_CQE_INVALID, RTE_MLX5CQ_OP_INVALID, "INVALID");
SAME(MLX5_CQE_OWNER_MASK, RTE_MLX5CQ_OP_OWN_OWNER, "owner");
SAME(MLX5E_CQE_FORMAT_MASK, RTE_MLX5CQ_OP_OWN_FORMAT_MASK, "format mask");
SAME(MLX5_COMPRESSED, RTE_MLX5CQ_FORMAT_COMPRESSED, "compressed");
SAME(MLX5_CQE_INVALIDATE, RTE_MLX5CQ_OP_OWN_INVALID, "invalid");

/* hdr_type_etc bits (DPDK). */
SAME(MLX5_CQE_RX_IPV6_PACKET, RTE_MLX5CQ_HDR_IPV6, "ipv6");
SAME(MLX5_CQE_RX_IPV4_PACKET, RTE_MLX5CQ_HDR_IPV4, "ipv4");
SAME(MLX5_CQE_RX_TCP_PACKET, RTE_MLX5CQ_HDR_TCP, "tcp");
SAME(MLX5_CQE_RX_UDP_PACKET, RTE_MLX5CQ_HDR_UDP, "udp");
SAME(MLX5_CQE_VLAN_STRIPPED, RTE_MLX5CQ_HDR_VLAN_STRIPPED, "vlan stripped");
SAME(MLX5_CQE_RX_L2_HDR_VALID, RTE_MLX5CQ_HDR_L2_OK, "l2 ok");
SAME(MLX5_CQE_RX_L3_HDR_VALID, RTE_MLX5CQ_HDR_L3_OK, "l3 ok");
SAME(MLX5_CQE_RX_L4_HDR_VALID, RTE_MLX5CQ_HDR_L4_OK, "l4 ok");

/* Mini-CQE formats and layout (DPDK). */
SAME(MLX5_CQE_RESP_FORMAT_HASH, RTE_MLX5CQ_MINI_FMT_HASH, "HASH");
SAME(MLX5_CQE_RESP_FORMAT_CSUM, RTE_MLX5CQ_MINI_FMT_CSUM, "CSUM");
SAME(MLX5_CQE_RESP_FORMAT_FTAG_STRIDX, RTE_MLX5CQ_MINI_FMT_FTAG_STRIDX,
	"FTAG_STRIDX");
SAME(MLX5_CQE_RESP_FORMAT_CSUM_STRIDX, RTE_MLX5CQ_MINI_FMT_CSUM_STRIDX,
	"CSUM_STRIDX");
SAME(MLX5_CQE_RESP_FORMAT_L34H_STRIDX, RTE_MLX5CQ_MINI_FMT_L34H_STRIDX,
	"L34H_STRIDX");
SAME(sizeof(struct mlx5_mini_cqe8), RTE_MLX5CQ_MINI_SIZE, "mini size");
SAME(MINI(rx_hash_result), RTE_MLX5CQ_MINI_RX_HASH, "mini hash");
SAME(MINI(checksum), RTE_MLX5CQ_MINI_CSUM, "mini csum");
SAME(MINI(flow_tag_high), RTE_MLX5CQ_MINI_FTAG_LOW, "mini flow tag 15:0");
/*
 * The L34H_STRIDX header byte: DPDK 22.11's struct had it one byte late,
 * swapped with the reserved byte; 5654f38eba (stable 24.11.6) moved it
 * to byte 0, where the PRM has it. Checked against the releases whose
 * layout is known.
 */
#if RTE_VERSION < RTE_VERSION_NUM(23, 0, 0, 0)
SAME(MINI(hdr_type), RTE_MLX5CQ_MINI_HDR_TYPE + 1, "22.11 mini hdr_type");
#elif RTE_VERSION >= RTE_VERSION_NUM(24, 11, 6, 0)
SAME(MINI(hdr_type), RTE_MLX5CQ_MINI_HDR_TYPE, "mini hdr_type");
#endif
SAME(MINI(stride_idx), RTE_MLX5CQ_MINI_STRIDX, "mini stride");
SAME(MINI(s_wqe_info.wqe_counter), RTE_MLX5CQ_MINI_WQE_COUNTER,
	"mini wqe_counter");
/* DPDK 23.03 put validity_iteration_count at byte 2, the opcode at 3. */
#if RTE_VERSION < RTE_VERSION_NUM(23, 3, 0, 0)
SAME(MINI(s_wqe_info.s_wqe_opcode), RTE_MLX5CQ_MINI_S_WQE_OPCODE,
	"mini s_wqe_opcode");
#endif
SAME(MINI(byte_cnt), RTE_MLX5CQ_MINI_BYTE_CNT, "mini byte_cnt");
SAME(MINI(byte_cnt_flow), RTE_MLX5CQ_MINI_FTAG_HIGH, "mini flow tag 23:16");
