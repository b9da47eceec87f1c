/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Generic poll, one completion at a time through peek/consume: for CQs
 * that are not on the fast poll (the lock of CQs that are not
 * SINGLE_THREADED, the enhanced compression layout), for the raw view and
 * for the iterator. rte_mlx5cq_poll_slow() sends every other CQ to its
 * fast implementation (mlx5cq_poll_fast.h).
 */

#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <infiniband/mlx5dv.h>
#include <rte_common.h>
#include <rte_errno.h>

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

/*
 * Look at the completion at the consumer index without consuming it
 * (a compressed CQE opens its session). Returns 1 and fills *cqe (the
 * ring's CQE, NULL for a mini-CQE) when there is one, 0 when there is
 * none, -1 at a compressed CQE that cannot be expanded.
 */
static int
peek(struct rte_mlx5cq *cq, volatile const uint8_t **cqe, uint8_t *op_own)
{
	uint32_t ci = cq->ci;
	volatile const uint8_t *e;
	uint8_t oo;

	if (MLX5CQ_ZIP(cq)->cnt) {
		*cqe = NULL;
		return 1;
	}
	e = rte_mlx5cq__cqe(cq, ci);
	if (cq->comp & RTE_MLX5CQ_COMP_ENHANCED) {
		/*
		 * The iteration count first, then a read barrier, then the
		 * rest, op_own included (kernel
		 * mlx5_cqwq_get_cqe_enahnced_comp).
		 */
		if (e[MLX5CQ_CQE_VIC] != (uint8_t)(ci >> cq->log_n))
			return 0;
		rte_io_rmb();
		oo = e[RTE_MLX5CQ_CQE_OP_OWN];
		if (((oo >> 2) & 3) != RTE_MLX5CQ_FORMAT_COMPRESSED &&
		    (oo >> 4) == RTE_MLX5CQ_OP_INVALID)
			return 0;
	} else {
		oo = e[RTE_MLX5CQ_CQE_OP_OWN];
		if (!rte_mlx5cq__sw_owned(oo, ci, cq->log_n))
			return 0;
		rte_io_rmb();
	}
	if (unlikely(((oo >> 2) & 3) == RTE_MLX5CQ_FORMAT_COMPRESSED)) {
		if (mlx5cq_zip_open(cq, e, oo, ci, 1))
			return -1;
		*cqe = NULL;
		return 1;
	}
	*cqe = e;
	*op_own = oo;
	return 1;
}

/* Consume the completion peek() found, filling *c. */
static void
consume(struct rte_mlx5cq *cq, volatile const uint8_t *cqe, uint8_t op_own,
	struct rte_mlx5cq_cpl *c)
{
	struct mlx5cq_zip *z = MLX5CQ_ZIP(cq);

	if (cqe == NULL) {
		mlx5cq_zip_burst(cq, c, 1);
		if (z->cnt == 0)
			cq->ci = z->end;
		return;
	}
	mlx5cq_decode_full(cqe, op_own, c);
	if (c->status != 0) {
		mlx5cq_count_error(cq, c);
	} else if (cq->comp & RTE_MLX5CQ_COMP_ENHANCED) {
		/* The title of the arrays that follow: its slot may be
		 * reused once consumed, keep a copy.
		 */
		memcpy(z->title, (const void *)(uintptr_t)cqe, 64);
		z->trec = *c;
		z->wqe_next = (uint16_t)(c->wqe_counter + 1);
		z->have_title = 1;
	}
	cq->ci++;
}

void
mlx5cq_poll_publish(struct rte_mlx5cq *cq, uint32_t ci, uint16_t i, int stop,
		    int dbr)
{
	mlx5cq_poll_publish_inline(cq, ci, i, stop, dbr);
}

uint16_t
mlx5cq_poll_core(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
		 uint16_t n, uint16_t done, int publish)
{
	struct mlx5cq_zip *z = MLX5CQ_ZIP(cq);
	uint32_t ci0 = cq->ci, ci;
	uint16_t i = done;
	int stop = 0;

	cq->ci += done;
	while (i < n) {
		volatile const uint8_t *cqe;
		uint8_t op_own = 0;
		int ret;

		if (z->cnt) {
			i = (uint16_t)(i + mlx5cq_zip_burst(cq, cpl + i,
							    (uint16_t)(n - i)));
			if (z->cnt == 0)
				cq->ci = z->end;
			continue;
		}
		ret = peek(cq, &cqe, &op_own);
		if (ret <= 0) {
			stop = ret < 0;
			break;
		}
		consume(cq, cqe, op_own, &cpl[i]);
		i++;
	}
	ci = cq->ci;
	cq->ci = ci0;
	mlx5cq_poll_publish(cq, ci, i, stop, publish);
	return i;
}

uint16_t
rte_mlx5cq_poll_slow(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
		     uint16_t n, uint16_t done)
{
	uint16_t ret;

	if (likely(!(cq->slow & (RTE_MLX5CQ_SLOW_LOCK |
				 RTE_MLX5CQ_SLOW_ENHANCED))))
		return mlx5cq_poll_fast[cq->vec](cq, cpl, n, done);
#ifdef RTE_ARCH_X86
	if ((cq->slow & (RTE_MLX5CQ_SLOW_LOCK | RTE_MLX5CQ_SLOW_ENHANCED)) ==
	    RTE_MLX5CQ_SLOW_ENHANCED && cq->vec == RTE_MLX5CQ_VEC_AVX2)
		return mlx5cq_poll_enh_avx2(cq, cpl, n, done);
#endif
	mlx5cq_lock(cq);
	ret = mlx5cq_poll_core(cq, cpl, n, done, 1);
	mlx5cq_unlock(cq);
	return ret;
}

const volatile void *
rte_mlx5cq_raw_peek(struct rte_mlx5cq *cq)
{
	volatile const uint8_t *cqe = NULL;
	uint8_t op_own;
	const volatile void *ret = NULL;

	if (cq == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	mlx5cq_lock(cq);
	if (peek(cq, &cqe, &op_own) > 0)
		ret = cqe == NULL ? mlx5cq_zip_synth(cq, cq->ci) : cqe;
	else
		rte_errno = ENOENT;
	mlx5cq_unlock(cq);
	return ret;
}

int
rte_mlx5cq_raw_advance(struct rte_mlx5cq *cq)
{
	struct rte_mlx5cq_cpl c;
	uint16_t n;

	if (cq == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	mlx5cq_lock(cq);
	n = mlx5cq_poll_core(cq, &c, 1, 0, 1);
	mlx5cq_unlock(cq);
	if (n == 0) {
		rte_errno = ENOENT;
		return -ENOENT;
	}
	return 0;
}

/* Iterator support (mlx5cq_iter.c): the current completion's CQE. */
int
mlx5cq_iter_fetch(struct rte_mlx5cq *cq, const volatile uint8_t **cqe)
{
	volatile const uint8_t *e = NULL;
	uint8_t op_own;
	int ret = peek(cq, &e, &op_own);

	if (ret <= 0)
		return ret < 0 ? -EAGAIN : -ENOENT;
	*cqe = e == NULL ? mlx5cq_zip_synth(cq, cq->ci) : e;
	return 0;
}

void
mlx5cq_iter_consume(struct rte_mlx5cq *cq)
{
	struct rte_mlx5cq_cpl c;

	mlx5cq_poll_core(cq, &c, 1, 0, 0);
}
