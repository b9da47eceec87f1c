/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Records of CQEs outside the fast decoders, shared by every poll
 * implementation: the full decode (error CQEs: syndrome, vendor syndrome,
 * status as rdma-core gives it) and the error counters (the CQE offsets
 * are checked against the PRM's headers in prm/mlx5cq_prm_check.c).
 * Calls nothing above it.
 */

#include <stddef.h>
#include <string.h>

#include <infiniband/mlx5dv.h>
#include <rte_common.h>

#include <mlx5_prm.h>

#include "mlx5cq_private.h"

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
