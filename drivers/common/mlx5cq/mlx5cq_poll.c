/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Out-of-line part of the poll: the syndrome mapping for callers that want
 * a function, and the slow path entered at a compressed CQE.
 */

#include <assert.h>
#include <stddef.h>

#include <infiniband/mlx5dv.h>
#include <rte_common.h>

#include <mlx5_prm.h>

#include "mlx5cq_private.h"

/* The fast path's CQE offsets are the PRM's (mlx5dv.h, mlx5_prm.h). */
static_assert(offsetof(struct mlx5_cqe64, byte_cnt) ==
	      RTE_MLX5CQ_CQE_BYTE_CNT, "byte_cnt offset");
static_assert(offsetof(struct mlx5_cqe64, timestamp) ==
	      RTE_MLX5CQ_CQE_TIMESTAMP, "timestamp offset");
static_assert(offsetof(struct mlx5_cqe64, sop_drop_qpn) ==
	      RTE_MLX5CQ_CQE_SOP_DROP_QPN, "sop_drop_qpn offset");
static_assert(offsetof(struct mlx5_cqe64, wqe_counter) ==
	      RTE_MLX5CQ_CQE_WQE_COUNTER, "wqe_counter offset");
static_assert(offsetof(struct mlx5_cqe64, op_own) ==
	      RTE_MLX5CQ_CQE_OP_OWN, "op_own offset");
static_assert(offsetof(struct mlx5_err_cqe, vendor_err_synd) ==
	      RTE_MLX5CQ_CQE_VENDOR_SYND, "vendor_err_synd offset");
static_assert(offsetof(struct mlx5_err_cqe, syndrome) ==
	      RTE_MLX5CQ_CQE_SYNDROME, "syndrome offset");
#if RTE_CACHE_LINE_SIZE == 64
static_assert(offsetof(struct mlx5_cqe, rx_hash_res) ==
	      RTE_MLX5CQ_CQE_RX_HASH_RES, "rx_hash_res offset");
static_assert(offsetof(struct mlx5_cqe, rx_hash_type) ==
	      RTE_MLX5CQ_CQE_RX_HASH_TYPE, "rx_hash_type offset");
static_assert(offsetof(struct mlx5_cqe, csum) ==
	      RTE_MLX5CQ_CQE_CSUM, "csum offset");
static_assert(offsetof(struct mlx5_cqe, hdr_type_etc) ==
	      RTE_MLX5CQ_CQE_HDR_TYPE_ETC, "hdr_type_etc offset");
static_assert(offsetof(struct mlx5_cqe, vlan_info) ==
	      RTE_MLX5CQ_CQE_VLAN_INFO, "vlan_info offset");
static_assert(offsetof(struct mlx5_cqe, flow_table_metadata) ==
	      RTE_MLX5CQ_CQE_METADATA, "flow_table_metadata offset");
#endif
static_assert((int)MLX5_CQE_INVALID == (int)RTE_MLX5CQ_OP_INVALID,
	      "INVALID opcode");
static_assert((int)MLX5_CQE_REQ_ERR == (int)RTE_MLX5CQ_OP_REQ_ERR,
	      "REQ_ERR opcode");
static_assert((int)MLX5_CQE_RESP_ERR == (int)RTE_MLX5CQ_OP_RESP_ERR,
	      "RESP_ERR opcode");
static_assert(MLX5_COMPRESSED == RTE_MLX5CQ_FORMAT_COMPRESSED,
	      "compressed format");

uint8_t
rte_mlx5cq_syndrome_status(uint8_t syndrome)
{
	return rte_mlx5cq__err_status(syndrome);
}

uint16_t
rte_mlx5cq_poll_slow(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
		     uint16_t n, uint16_t done)
{
	RTE_SET_USED(cpl);
	RTE_SET_USED(n);
	/*
	 * Compressed sessions are not expanded yet: stop before the title
	 * CQE so nothing is lost or misread; it stays in the ring and the
	 * next poll stops here again.
	 */
	if (cq->cnt.comp_unhandled++ == 0)
		MLX5CQ_LOG(DEBUG, "CQ 0x%x: compressed CQE at ci %u, not"
			   " expanded by this version; polling stops there",
			   cq->cqn, cq->ci);
	return done;
}
