/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Records of CQEs outside the fast decoders, shared by every poll
 * implementation: the full decode (error CQEs: syndrome, vendor syndrome,
 * status as rdma-core gives it), the error counters, and the checks that
 * the fast path's CQE offsets and constants are the PRM's. Calls nothing
 * above it.
 */

#include <assert.h>
#include <stddef.h>
#include <string.h>

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

/* MLX5_CQE_INVALIDATE of mlx5_prm.h: INVALID opcode, owner 0. */
static_assert((RTE_MLX5CQ_OP_INVALID << 4) == MLX5_CQE_INVALIDATE,
	      "invalidate");
/* Mini-CQE formats (mlx5_prm.h MLX5_CQE_RESP_FORMAT_*). */
static_assert(MLX5_CQE_RESP_FORMAT_HASH == 0 &&
	      MLX5_CQE_RESP_FORMAT_CSUM == 1 &&
	      MLX5_CQE_RESP_FORMAT_FTAG_STRIDX == 2 &&
	      MLX5_CQE_RESP_FORMAT_CSUM_STRIDX == 3 &&
	      MLX5_CQE_RESP_FORMAT_L34H_STRIDX == 4, "mini-CQE formats");
static_assert(sizeof(struct mlx5_mini_cqe8) == 8, "mini-CQE size");

uint8_t
rte_mlx5cq_syndrome_status(uint8_t syndrome)
{
	return rte_mlx5cq__err_status(syndrome);
}

void
mlx5cq_decode_full(volatile const uint8_t *cqe, uint8_t op_own,
		   struct rte_mlx5cq_cpl *c)
{
	uint8_t op = op_own >> 4;
	uint32_t sdq;

	if (op != RTE_MLX5CQ_OP_REQ_ERR && op != RTE_MLX5CQ_OP_RESP_ERR) {
		rte_mlx5cq__decode_ok(cqe, op_own, c);
		return;
	}
	sdq = rte_mlx5cq__be32(cqe, RTE_MLX5CQ_CQE_SOP_DROP_QPN);
	memset(c, 0, sizeof(*c));
	c->opcode = op;
	c->wqe_counter = rte_mlx5cq__be16(cqe, RTE_MLX5CQ_CQE_WQE_COUNTER);
	c->flow_tag = sdq & 0xffffff;
	c->syndrome = cqe[RTE_MLX5CQ_CQE_SYNDROME];
	c->vendor_syndrome = cqe[RTE_MLX5CQ_CQE_VENDOR_SYND];
	c->status = rte_mlx5cq__err_status(c->syndrome);
	c->s_wqe_opcode = sdq >> 24;
}

void
mlx5cq_count_error(struct rte_mlx5cq *cq, const struct rte_mlx5cq_cpl *c)
{
	struct rte_mlx5cq_counters *cnt = MLX5CQ_CNT(cq);

	cnt->errors++;
	cnt->err_syndrome[c->syndrome]++;
}
