/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * ibv_cq_ex-style iterator over the raw view (rdma-core cq.c: start_poll,
 * next_poll, end_poll and the read_* functions of the mlx5 provider).
 *
 * start_poll takes the CQ lock (unless SINGLE_THREADED) and consumes the
 * first completion (ENOENT: none, the lock is released and end_poll must
 * not be called); next_poll consumes the next one; end_poll publishes the
 * consumer index (doorbell record) and releases the lock. read_* decode the
 * current completion's 64 B CQE (a CQE synthesized from title and mini-CQE
 * for compressed completions). A read_* of a field not in the CQ's
 * wc_flags is refused: rte_errno EPERM, value 0, an ERR log line. With
 * WALLCLOCK, start_poll also reads the clock information
 * (mlx5cq_clock.c).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>

#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>

#include <rte_byteorder.h>
#include <rte_errno.h>

#include "mlx5cq_private.h"

/* Offsets of rte_mlx5cq_prm.h, short. */
#define CQE(f) RTE_MLX5CQ_CQE_ ## f


static inline uint32_t
be32_at(volatile const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline uint16_t
be16_at(volatile const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint8_t
cur_opcode(const struct rte_mlx5cq *cq)
{
	return MLX5CQ_SESSION(cq)->iter_cqe[RTE_MLX5CQ_CQE_OP_OWN] >> 4;
}

static inline int
cur_is_error(const struct rte_mlx5cq *cq)
{
	uint8_t op = cur_opcode(cq);

	return op == RTE_MLX5CQ_OP_REQ_ERR || op == RTE_MLX5CQ_OP_RESP_ERR;
}

/* 0 when the field may be read, else the refusal. */
static int
refuse(const struct rte_mlx5cq *cq, uint64_t flag, const char *what)
{
	if (mlx5cq_from_pub(cq)->iter_active == 0) {
		MLX5CQ_LOG(ERR, "CQ 0x%x: %s outside start_poll/end_poll",
			   cq->cqn, what);
		rte_errno = EINVAL;
		return 1;
	}
	if (flag != 0 && !(mlx5cq_from_pub(cq)->wc_flags & flag)) {
		MLX5CQ_LOG(ERR, "CQ 0x%x: %s not requested in wc_flags"
			   " (0x%" PRIx64 ")", cq->cqn, what,
			   mlx5cq_from_pub(cq)->wc_flags);
		rte_errno = EPERM;
		return 1;
	}
	return 0;
}

/* start_poll inside an open start/end pair. */
static int
iter_busy(const struct rte_mlx5cq *cq)
{
	MLX5CQ_LOG(ERR, "CQ 0x%x: start_poll without end_poll", cq->cqn);
	rte_errno = EBUSY;
	return rte_errno;
}

/*
 * WALLCLOCK: the clock information of this start_poll (rdma-core
 * mlx5_start_poll() with clock_update). Read once a completion is there
 * and before it is consumed: on failure (EBUSY, the kernel updating its
 * page) the CQ is left as it was, so a retry finds the same completion
 * (rdma-core commit "mlx5: Fix clock update EBUSY error flow"; rdma-core
 * 44 consumed it first).
 */
static int
iter_clock_update(struct rte_mlx5cq *cq)
{
	struct mlx5cq_cq *c = mlx5cq_from_pub(cq);
	int ret;

	if (c->wallclock.get_clock_info == NULL)
		return 0;
	ret = c->wallclock.get_clock_info(c->dev->ctx, &c->wallclock.ci);
	if (ret == 0)
		return 0;
	MLX5CQ_LOG(ERR, "CQ 0x%x: start_poll: clock information not read"
		   " (%d): completion left in the CQ", cq->cqn, ret);
	rte_errno = ret;
	return ret;
}

int
rte_mlx5cq_start_poll(struct rte_mlx5cq *cq,
		      const struct rte_mlx5cq_poll_attr *attr)
{
	const volatile uint8_t *cqe;
	int ret;

	if (cq == NULL || (attr != NULL && attr->comp_mask != 0)) {
		MLX5CQ_LOG(ERR, "invalid argument: cq=%p comp_mask=%#x",
			   (void *)cq, attr != NULL ? attr->comp_mask : 0);
		rte_errno = EINVAL;
		return rte_errno;
	}
	/*
	 * An open pair holds the lock: test before taking it, or a second
	 * start_poll of the pair's own thread would spin on that lock for
	 * ever. Tested again under the lock (a pair opened meanwhile).
	 */
	if (cq->slow & RTE_MLX5CQ_SLOW_COLLAPSED) {
		MLX5CQ_LOG(ERR, "CQ %#x is collapsed: read it with"
			   " rte_mlx5cq_collapsed_read()", cq->cqn);
		rte_errno = ENOTSUP;
		return rte_errno;
	}
	if (__atomic_load_n(&mlx5cq_from_pub(cq)->iter_active,
			    __ATOMIC_ACQUIRE))
		return iter_busy(cq);
	if (cq->slow & RTE_MLX5CQ_SLOW_LOCK)
		rte_spinlock_lock(&mlx5cq_from_pub(cq)->lock);
	if (mlx5cq_from_pub(cq)->iter_active) {
		if (cq->slow & RTE_MLX5CQ_SLOW_LOCK)
			rte_spinlock_unlock(&mlx5cq_from_pub(cq)->lock);
		return iter_busy(cq);
	}
	ret = mlx5cq_iter_fetch(cq, &cqe);
	if (ret) {
		if (cq->slow & RTE_MLX5CQ_SLOW_LOCK)
			rte_spinlock_unlock(&mlx5cq_from_pub(cq)->lock);
		rte_errno = ENOENT;
		return rte_errno;
	}
	ret = iter_clock_update(cq);
	if (ret) {
		if (cq->slow & RTE_MLX5CQ_SLOW_LOCK)
			rte_spinlock_unlock(&mlx5cq_from_pub(cq)->lock);
		return ret;
	}
	MLX5CQ_SESSION(cq)->iter_cqe = cqe;
	mlx5cq_iter_consume(cq);
	mlx5cq_from_pub(cq)->iter_active = 1;
	return 0;
}

int
rte_mlx5cq_next_poll(struct rte_mlx5cq *cq)
{
	const volatile uint8_t *cqe;

	if (cq == NULL || !mlx5cq_from_pub(cq)->iter_active) {
		rte_errno = EINVAL;
		return rte_errno;
	}
	if (mlx5cq_iter_fetch(cq, &cqe)) {
		rte_errno = ENOENT;
		return rte_errno;
	}
	MLX5CQ_SESSION(cq)->iter_cqe = cqe;
	mlx5cq_iter_consume(cq);
	return 0;
}

void
rte_mlx5cq_end_poll(struct rte_mlx5cq *cq)
{
	if (cq == NULL || !mlx5cq_from_pub(cq)->iter_active)
		return;
	rte_mlx5cq__update_ci(cq, cq->ci);
	mlx5cq_from_pub(cq)->iter_active = 0;
	MLX5CQ_SESSION(cq)->iter_cqe = NULL;
	if (cq->slow & RTE_MLX5CQ_SLOW_LOCK)
		rte_spinlock_unlock(&mlx5cq_from_pub(cq)->lock);
}

uint8_t
rte_mlx5cq_wc_status(const struct rte_mlx5cq *cq)
{
	if (refuse(cq, 0, "status"))
		return 0;
	if (!cur_is_error(cq))
		return IBV_WC_SUCCESS;
	return rte_mlx5cq__err_status(
		MLX5CQ_SESSION(cq)->iter_cqe[RTE_MLX5CQ_CQE_SYNDROME]);
}

uint64_t
rte_mlx5cq_wc_wr_id(const struct rte_mlx5cq *cq)
{
	if (refuse(cq, 0, "wr_id"))
		return 0;
	return be16_at(MLX5CQ_SESSION(cq)->iter_cqe + RTE_MLX5CQ_CQE_WQE_COUNTER);
}

uint8_t
rte_mlx5cq_read_syndrome(const struct rte_mlx5cq *cq)
{
	if (refuse(cq, 0, "syndrome") || !cur_is_error(cq))
		return 0;
	return MLX5CQ_SESSION(cq)->iter_cqe[RTE_MLX5CQ_CQE_SYNDROME];
}

/*
 * Requester opcode (send WQE opcode) to ibv_wc_opcode, as rdma-core's
 * mlx5_cq_read_wc_opcode(). For UMR, SET_PSV, NOP and MMO rdma-core
 * answers what the QP recorded when the work request was posted; the
 * library has no QP and answers what rdma-core records for the work
 * requests that post these opcodes through mlx5dv: UMR IBV_WC_DRIVER1
 * (mlx5dv_wr_mr_*; LOCAL_INV and BIND_MW use UMR too and cannot be told
 * apart here), MMO IBV_WC_DRIVER3, SET_PSV and NOP 0.
 */
static int
req_opcode(uint8_t wqe_op)
{
	switch (wqe_op) {
	case MLX5_OPCODE_UMR:
		return IBV_WC_DRIVER1;
	case MLX5_OPCODE_MMO:
		return IBV_WC_DRIVER3;
	case MLX5_OPCODE_RDMA_WRITE_IMM:
	case MLX5_OPCODE_RDMA_WRITE:
		return IBV_WC_RDMA_WRITE;
	case MLX5_OPCODE_SEND_IMM:
	case MLX5_OPCODE_SEND:
	case MLX5_OPCODE_SEND_INVAL:
		return IBV_WC_SEND;
	case MLX5_OPCODE_RDMA_READ:
		return IBV_WC_RDMA_READ;
	case MLX5_OPCODE_ATOMIC_CS:
		return IBV_WC_COMP_SWAP;
	case MLX5_OPCODE_ATOMIC_FA:
		return IBV_WC_FETCH_ADD;
	case MLX5_OPCODE_TSO:
		return IBV_WC_TSO;
	default:
		return 0;
	}
}

int
rte_mlx5cq_read_opcode(const struct rte_mlx5cq *cq)
{
	volatile const uint8_t *e;

	if (refuse(cq, 0, "opcode"))
		return -1;
	e = MLX5CQ_SESSION(cq)->iter_cqe;
	/*
	 * As rdma-core's mlx5_cq_read_wc_opcode(): responder opcodes, the
	 * requester's send WQE opcode, and 0 for what its switch does not
	 * name (error CQEs: the opcode is not valid there; NO_PACKET without
	 * tag matching, which the library never sets up).
	 */
	switch (cur_opcode(cq)) {
	case RTE_MLX5CQ_OP_RESP_WR_IMM:
		return IBV_WC_RECV_RDMA_WITH_IMM;
	case RTE_MLX5CQ_OP_RESP_SEND:
	case RTE_MLX5CQ_OP_RESP_SEND_IMM:
	case RTE_MLX5CQ_OP_RESP_SEND_INV:
		return IBV_WC_RECV;
	case RTE_MLX5CQ_OP_REQ:
		return req_opcode(e[RTE_MLX5CQ_CQE_SOP_DROP_QPN]);
	default:
		return 0;
	}
}

uint32_t
rte_mlx5cq_read_vendor_err(const struct rte_mlx5cq *cq)
{
	if (refuse(cq, 0, "vendor_err") || !cur_is_error(cq))
		return 0;
	return MLX5CQ_SESSION(cq)->iter_cqe[RTE_MLX5CQ_CQE_VENDOR_SYND];
}

unsigned int
rte_mlx5cq_read_wc_flags(const struct rte_mlx5cq *cq)
{
	volatile const uint8_t *e;
	unsigned int flags = 0;

	/* rdma-core computes them from any CQE, error CQEs included. */
	if (refuse(cq, 0, "wc_flags"))
		return 0;
	e = MLX5CQ_SESSION(cq)->iter_cqe;
	switch (cur_opcode(cq)) {
	case RTE_MLX5CQ_OP_RESP_WR_IMM:
	case RTE_MLX5CQ_OP_RESP_SEND_IMM:
		flags |= IBV_WC_WITH_IMM;
		break;
	case RTE_MLX5CQ_OP_RESP_SEND_INV:
		flags |= IBV_WC_WITH_INV;
		break;
	}
	/* rdma-core get_csum_ok: L3 and L4 OK on an IPv4 packet. */
	if ((e[CQE(HDR_TYPE_ETC)] & (MLX5_CQE_L4_OK | MLX5_CQE_L3_OK)) ==
	    (MLX5_CQE_L4_OK | MLX5_CQE_L3_OK) &&
	    ((e[CQE(L4_HDR_TYPE_ETC)] >> 2) & 3) == MLX5_CQE_L3_HDR_TYPE_IPV4)
		flags |= IBV_WC_IP_CSUM_OK;
	if ((be32_at(e + CQE(FLAGS_RQPN)) >> 28) & 3)
		flags |= IBV_WC_GRH;
	return flags;
}

uint32_t
rte_mlx5cq_read_byte_len(const struct rte_mlx5cq *cq)
{
	if (refuse(cq, IBV_WC_EX_WITH_BYTE_LEN, "byte_len"))
		return 0;
	return be32_at(MLX5CQ_SESSION(cq)->iter_cqe + RTE_MLX5CQ_CQE_BYTE_CNT);
}

rte_be32_t
rte_mlx5cq_read_imm_data(const struct rte_mlx5cq *cq)
{
	volatile const uint8_t *e;

	if (refuse(cq, IBV_WC_EX_WITH_IMM, "imm_data"))
		return 0;
	e = MLX5CQ_SESSION(cq)->iter_cqe;
	/* Network order, as ibv_wc_read_imm_data(); host order for INV. */
	if (cur_opcode(cq) == RTE_MLX5CQ_OP_RESP_SEND_INV)
		return be32_at(e + CQE(METADATA));
	return rte_cpu_to_be_32(be32_at(e + CQE(METADATA)));
}

uint32_t
rte_mlx5cq_read_qp_num(const struct rte_mlx5cq *cq)
{
	if (refuse(cq, IBV_WC_EX_WITH_QP_NUM, "qp_num"))
		return 0;
	return be32_at(MLX5CQ_SESSION(cq)->iter_cqe + RTE_MLX5CQ_CQE_SOP_DROP_QPN) &
	       0xffffff;
}

uint32_t
rte_mlx5cq_read_src_qp(const struct rte_mlx5cq *cq)
{
	if (refuse(cq, IBV_WC_EX_WITH_SRC_QP, "src_qp"))
		return 0;
	return be32_at(MLX5CQ_SESSION(cq)->iter_cqe + CQE(FLAGS_RQPN)) & 0xffffff;
}

uint32_t
rte_mlx5cq_read_slid(const struct rte_mlx5cq *cq)
{
	if (refuse(cq, IBV_WC_EX_WITH_SLID, "slid"))
		return 0;
	return be16_at(MLX5CQ_SESSION(cq)->iter_cqe + CQE(SLID));
}

uint8_t
rte_mlx5cq_read_sl(const struct rte_mlx5cq *cq)
{
	if (refuse(cq, IBV_WC_EX_WITH_SL, "sl"))
		return 0;
	return (be32_at(MLX5CQ_SESSION(cq)->iter_cqe + CQE(FLAGS_RQPN)) >> 24) &
	       0xf;
}

uint8_t
rte_mlx5cq_read_dlid_path_bits(const struct rte_mlx5cq *cq)
{
	if (refuse(cq, IBV_WC_EX_WITH_DLID_PATH_BITS, "dlid_path_bits"))
		return 0;
	return MLX5CQ_SESSION(cq)->iter_cqe[CQE(ML_PATH)] & 0x7f;
}

uint64_t
rte_mlx5cq_read_completion_ts(const struct rte_mlx5cq *cq)
{
	volatile const uint8_t *e;

	if (refuse(cq, IBV_WC_EX_WITH_COMPLETION_TIMESTAMP, "completion_ts"))
		return 0;
	e = MLX5CQ_SESSION(cq)->iter_cqe + RTE_MLX5CQ_CQE_TIMESTAMP;
	return (uint64_t)be32_at(e) << 32 | be32_at(e + 4);
}

uint64_t
rte_mlx5cq_read_completion_wallclock_ns(const struct rte_mlx5cq *cq)
{
	const struct mlx5cq_wallclock *w = &mlx5cq_from_pub(cq)->wallclock;
	volatile const uint8_t *e;
	uint64_t ts;

	if (refuse(cq, IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK,
		   "completion_wallclock_ns"))
		return 0;
	e = MLX5CQ_SESSION(cq)->iter_cqe + RTE_MLX5CQ_CQE_TIMESTAMP;
	ts = (uint64_t)be32_at(e) << 32 | be32_at(e + 4);
	/* rdma-core mlx5_cq_fill_pfns(): real-time CQEs as they are. */
	if (w->rt)
		return ts;
	return mlx5dv_ts_to_ns((struct mlx5dv_clock_info *)(uintptr_t)&w->ci,
			       ts);
}

uint16_t
rte_mlx5cq_read_cvlan(const struct rte_mlx5cq *cq)
{
	if (refuse(cq, IBV_WC_EX_WITH_CVLAN, "cvlan"))
		return 0;
	return be16_at(MLX5CQ_SESSION(cq)->iter_cqe + CQE(VLAN_INFO));
}

uint32_t
rte_mlx5cq_read_flow_tag(const struct rte_mlx5cq *cq)
{
	if (refuse(cq, IBV_WC_EX_WITH_FLOW_TAG, "flow_tag"))
		return 0;
	return be32_at(MLX5CQ_SESSION(cq)->iter_cqe + RTE_MLX5CQ_CQE_SOP_DROP_QPN) &
	       0xffffff;
}

uint32_t
rte_mlx5cq_read_invalidated_rkey(const struct rte_mlx5cq *cq)
{
	/* ibv_wc_read_invalidated_rkey(): read_imm_data, host order. */
	if (refuse(cq, IBV_WC_EX_WITH_IMM, "invalidated_rkey"))
		return 0;
	return be32_at(MLX5CQ_SESSION(cq)->iter_cqe + CQE(METADATA));
}

uint16_t
rte_mlx5cq_read_pkey_index(const struct rte_mlx5cq *cq)
{
	/* rdma-core handle_responder(): wc->pkey_index, low 16 bits. */
	if (refuse(cq, 0, "pkey_index"))
		return 0;
	return (uint16_t)(be32_at(MLX5CQ_SESSION(cq)->iter_cqe + CQE(METADATA)) &
			  0xffff);
}
