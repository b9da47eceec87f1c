/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * CQ resize at run time, as ibv_resize_cq() does it on mlx5 (rdma-core
 * verbs.c mlx5_resize_cq() and cq.c mlx5_cq_resize_copy_cqes(); kernel
 * drivers/infiniband/hw/mlx5/cq.c mlx5_ib_resize_cq() and
 * copy_resize_cqes()).
 *
 * DevX path: a new ring placed as creation places it (its own umem,
 * mlx5cq_devx_ring_get()), then MODIFY_CQ op_mod MLX5_CQ_OPMOD_RESIZE (1)
 * with resize_field_select LOG_SIZE | PG_OFFSET | PG_SIZE and the new
 * log_cq_size, log_page_size, page_offset 0 and cqe_sz in the cqc, the
 * new umem in cq_umem_id with cq_umem_valid (the kernel's mlx5_ifc.h
 * modify_cq_in names cq_umem_valid at 0x2e0, where create_cq_in has it,
 * and reserves 0x280..0x2df, where create_cq_in has cq_umem_offset and
 * cq_umem_id: they are written at those positions). The device writes a
 * CQE of opcode MLX5_CQE_RESIZE_CQ at its producer counter in the old ring
 * and every later CQE into the new ring. The CQEs not yet polled, from the
 * consumer index up to the RESIZE CQE, are copied whole (the stride: 128 B
 * CQEs keep their first half) to the new ring one counter further on,
 * with the owner bit of their new position; polling resumes one past the
 * RESIZE CQE. Then the old ring and its umem are freed.
 *
 * Refused (rte_errno, a log line, nothing allocated or changed):
 * - a device without HCA_CAP.cq_resize: ENOSYS (mlx5_ib_resize_cq());
 * - cqe_cnt 0, or a ring above 2^log_max_cq_sz: EINVAL
 *   (mlx5_ib_resize_cq(): entries < 1, entries > 2^log_max_cq_sz, and
 *   roundup_pow_of_two(entries + 1) > 2^log_max_cq_sz + 1);
 * - cqe_cnt below the completions not yet polled: EINVAL (ibv_resize_cq(3):
 *   "cqe must be at least the number of unpolled entries"; rdma-core
 *   mlx4_resize_cq() refuses so; mlx5_resize_cq() and the kernel do not
 *   check and would lose completions);
 * - the same ring size: nothing to do, 0 (both sources);
 * - compressed CQs: EOPNOTSUPP. The sources copy raw 64 B slots and
 *   rewrite the owner bit of each, which is byte 63 of a mini-CQE array
 *   slot (mini-CQE 7's data) and would corrupt a session; the enhanced
 *   layout has no owner bit at all. Neither source knows compression;
 *   the library refuses rather than copy what it cannot rewrite;
 * - collapsed CQs (every CQE in entry 0: the size is not used): EOPNOTSUPP;
 * - attached CQs: EOPNOTSUPP (library policy: the CQ, its ring and umem
 *   belong to whoever called mlx5_devx_cq_create());
 * - verbs CQs: EOPNOTSUPP. ibv_resize_cq() cannot carry over what the
 *   library has not polled: rdma-core mlx5_resize_cq() runs
 *   mlx5_cq_resize_copy_cqes() from the provider's own consumer index
 *   (struct mlx5_cq cons_index), which only the provider's poll
 *   functions advance, never the library's direct polling of the ring.
 *   Once the library has polled, the copy starts at a stale counter: it
 *   stops at once when that slot looks hardware-owned (the unpolled CQEs
 *   are lost), or copies polled CQEs into the new ring, where they read
 *   as new completions at a later pass or overwrite CQEs the device has
 *   already written there; the old ring is freed before the call
 *   returns. The kernel (mlx5_ib_resize_cq(), resize_user()) copies
 *   nothing for user CQs. rte_common_mlx5's mlx5_glue has no resize_cq
 *   entry either;
 * - between iterator start_poll and end_poll: EBUSY.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>

#include <rte_atomic.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_errno.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>

#include "mlx5cq_private.h"

#define MLX5CQ_CMD_MODIFY_CQ 0x403 /* MLX5_CMD_OP_MODIFY_CQ */
#define MLX5CQ_CQ_OPMOD_RESIZE 1 /* MLX5_CQ_OPMOD_RESIZE */
/* resize_field_select (kernel include/linux/mlx5/cq.h). */
#define MLX5CQ_MODIFY_CQ_MASK_LOG_SIZE (1u << 0)
#define MLX5CQ_MODIFY_CQ_MASK_PG_OFFSET (1u << 1)
#define MLX5CQ_MODIFY_CQ_MASK_PG_SIZE (1u << 2)
#define MLX5CQ_MODIFY_CQ_CQC_OFF 16 /* Bytes before the cqc. */

/* Refuse with a log line: rte_errno and the negative errno. */
#define RESIZE_REFUSE(err, fmt, ...) \
	(MLX5CQ_LOG(ERR, "CQ 0x%x: resize to %u: " fmt, pub->cqn, cqe_cnt, \
		    ##__VA_ARGS__), rte_errno = (err), -(err))

/* The 64 B CQE of counter i in a ring of 2^log_n strides. */
static volatile uint8_t *
resize_cqe(volatile void *ring, uint32_t i, uint8_t log_n, uint8_t shift,
	   uint8_t off)
{
	return (volatile uint8_t *)ring +
	       ((size_t)(i & ((1u << log_n) - 1)) << shift) + off;
}

/* Software owns the CQE of counter i (owner bit = pass parity, opcode
 * not INVALID: rdma-core get_sw_cqe()).
 */
static int
resize_sw_owned(volatile const uint8_t *cqe, uint32_t i, uint8_t log_n)
{
	uint8_t op_own = cqe[RTE_MLX5CQ_CQE_OP_OWN];

	return (op_own >> RTE_MLX5CQ_OP_OWN_OPCODE_SHIFT) !=
	       RTE_MLX5CQ_OP_INVALID &&
	       (op_own & RTE_MLX5CQ_OP_OWN_OWNER) == ((i >> log_n) & 1);
}

/* Completions written and not polled (at most the ring). */
static uint32_t
resize_unpolled(const struct rte_mlx5cq *pub)
{
	uint32_t n = 0;

	while (n <= pub->mask &&
	       resize_sw_owned(resize_cqe(pub->ring, pub->ci + n, pub->log_n,
					  pub->stride_shift, pub->cqe_off),
			       pub->ci + n, pub->log_n))
		n++;
	rte_atomic_thread_fence(__ATOMIC_ACQUIRE);
	return n;
}

/* What no resize can do on this CQ: 0 or a negative errno. */
static int
resize_refusal(const struct mlx5cq_cq *cq, uint32_t cqe_cnt)
{
	const struct rte_mlx5cq *pub = &cq->pub;
	uint32_t max = 1u << cq->dev->caps.log_max_cq_sz;

	if (cq->path == RTE_MLX5CQ_PATH_ATTACH)
		return RESIZE_REFUSE(EOPNOTSUPP, "an attached CQ belongs to "
				     "its owner");
	if (cq->path != RTE_MLX5CQ_PATH_DEVX)
		return RESIZE_REFUSE(EOPNOTSUPP, "verbs CQ: rdma-core copies "
				     "the unpolled CQEs from its own consumer "
				     "index, not the library's");
	if (cq->comp_format)
		return RESIZE_REFUSE(EOPNOTSUPP, "compressed CQ: mini-CQE "
				     "arrays cannot be copied slot by slot");
	if (cq->flags & RTE_MLX5CQ_F_COLLAPSED)
		return RESIZE_REFUSE(EOPNOTSUPP, "collapsed CQ (one entry)");
	if (!cq->dev->caps.cq_resize)
		return RESIZE_REFUSE(ENOSYS, "the device lacks cq_resize");
	if (cqe_cnt == 0 || cqe_cnt >= max)
		return RESIZE_REFUSE(EINVAL, "0 or above the largest ring "
				     "(2^%u entries, one kept free)",
				     cq->dev->caps.log_max_cq_sz);
	if (cq->iter_active)
		return RESIZE_REFUSE(EBUSY, "inside start_poll/end_poll");
	return 0;
}

/* MODIFY_CQ op_mod RESIZE naming the new ring r (2^log_n entries). */
static int
resize_modify(struct mlx5cq_cq *cq, const struct mlx5cq_ring *r,
	      uint8_t log_n)
{
	uint32_t in[MLX5_ST_SZ_DW(create_cq_in)];
	uint32_t out[4];
	uint32_t cqe_sz = cq->cqe_size == 64 ? 0 : (cq->cqe_pad ? 2 : 1);
	void *cqc = (uint8_t *)in + MLX5CQ_MODIFY_CQ_CQC_OFF;
	int ret, err;

	memset(in, 0, sizeof(in));
	memset(out, 0, sizeof(out));
	in[0] = rte_cpu_to_be_32((uint32_t)MLX5CQ_CMD_MODIFY_CQ << 16);
	in[1] = rte_cpu_to_be_32(MLX5CQ_CQ_OPMOD_RESIZE);
	in[2] = rte_cpu_to_be_32(cq->pub.cqn & 0xffffff);
	in[3] = rte_cpu_to_be_32(MLX5CQ_MODIFY_CQ_MASK_LOG_SIZE |
				 MLX5CQ_MODIFY_CQ_MASK_PG_OFFSET |
				 MLX5CQ_MODIFY_CQ_MASK_PG_SIZE);
	/* As mlx5_ib_resize_cq() fills the cqc (cqe_sz as at creation). */
	MLX5_SET(cqc, cqc, log_page_size, r->log_page_size);
	MLX5_SET(cqc, cqc, page_offset, 0);
	MLX5_SET(cqc, cqc, cqe_sz, cqe_sz);
	MLX5_SET(cqc, cqc, log_cq_size, log_n);
	/* The new umem, at create_cq_in's positions (file comment). */
	MLX5_SET(create_cq_in, in, cq_umem_id, r->umem_id);
	MLX5_SET(create_cq_in, in, cq_umem_valid, 1);
	errno = 0;
	ret = mlx5_glue->devx_obj_modify(cq->obj, in, sizeof(in), out,
					 sizeof(out));
	if (ret != 0 || ((const uint8_t *)out)[0] != 0) {
		err = errno ? errno : EIO;
		MLX5CQ_LOG(ERR, "CQ 0x%x: MODIFY_CQ resize to 2^%u failed: %s "
			   "(status %#x syndrome %#x)", cq->pub.cqn, log_n,
			   strerror(err), ((const uint8_t *)out)[0],
			   rte_be_to_cpu_32(out[1]));
		return -err;
	}
	return 0;
}

/*
 * Copy the CQEs from the consumer index up to the RESIZE CQE into ring r
 * (2^log_n entries), one counter further on, owner bit of the new place
 * (kernel copy_resize_cqes(), rdma-core mlx5_cq_resize_copy_cqes()).
 * *ci: the new consumer index, one past the old one (kernel and rdma-core
 * advance cons_index once, past the slot the RESIZE CQE took). Returns
 * 0, or -EIO when the RESIZE CQE is missing (logged; the kernel's
 * copy_resize_cqes() fails so too).
 */
static int
resize_copy(struct mlx5cq_cq *cq, const struct mlx5cq_ring *r, uint8_t log_n,
	    uint32_t *ci)
{
	struct rte_mlx5cq *pub = &cq->pub;
	const size_t stride = (size_t)1 << pub->stride_shift;
	volatile uint8_t *s, *d;
	uint32_t i = pub->ci;
	uint8_t op_own;

	for (;;) {
		s = resize_cqe(pub->ring, i, pub->log_n, pub->stride_shift,
			       pub->cqe_off);
		if (!resize_sw_owned(s, i, pub->log_n) ||
		    i - pub->ci > pub->mask) {
			MLX5CQ_LOG(ERR, "CQ 0x%x: no RESIZE CQE after %u "
				   "CQEs", pub->cqn, i - pub->ci);
			*ci = pub->ci;
			return -EIO;
		}
		rte_atomic_thread_fence(__ATOMIC_ACQUIRE);
		op_own = s[RTE_MLX5CQ_CQE_OP_OWN];
		if ((op_own >> RTE_MLX5CQ_OP_OWN_OPCODE_SHIFT) ==
		    RTE_MLX5CQ_OP_RESIZE_CQ) {
			/* The old CQE of counter ci now sits at ci + 1. */
			*ci = pub->ci + 1;
			return 0;
		}
		d = resize_cqe(r->addr, i + 1, log_n, pub->stride_shift,
			       pub->cqe_off);
		/* The whole stride: a 128 B CQE's first half goes too. */
		memcpy((void *)(uintptr_t)(d - pub->cqe_off),
		       (const void *)(uintptr_t)(s - pub->cqe_off), stride);
		d[RTE_MLX5CQ_CQE_OP_OWN] =
			(op_own & ~RTE_MLX5CQ_OP_OWN_OWNER) |
			(((i + 1) >> log_n) & 1);
		i++;
	}
}

int
rte_mlx5cq_resize(struct rte_mlx5cq *pub, uint32_t cqe_cnt)
{
	struct mlx5cq_cq *cq;
	struct mlx5cq_ring r, old;
	uint32_t entries, unpolled, ci;
	uint8_t log_n;
	int ret;

	if (pub == NULL) {
		MLX5CQ_LOG(ERR, "invalid argument: cq NULL");
		rte_errno = EINVAL;
		return -EINVAL;
	}
	cq = mlx5cq_from_pub(pub);
	ret = resize_refusal(cq, cqe_cnt);
	if (ret)
		return ret;
	entries = rte_align32pow2(cqe_cnt + 1);
	if (entries == cq->entries)
		return 0;
	log_n = (uint8_t)rte_log2_u32(entries);
	mlx5cq_lock(pub);
	unpolled = resize_unpolled(pub);
	if (cqe_cnt < unpolled) {
		mlx5cq_unlock(pub);
		return RESIZE_REFUSE(EINVAL, "%u completions not polled",
				     unpolled);
	}
	ret = mlx5cq_devx_ring_get(cq->dev, &r, entries, cq->cqe_size, 0,
				   cq->socket);
	if (ret == 0) {
		ret = resize_modify(cq, &r, log_n);
		if (ret && mlx5cq_devx_ring_put(&r))
			MLX5CQ_LOG(ERR, "cannot free the new ring");
	}
	if (ret) {
		mlx5cq_unlock(pub);
		rte_errno = -ret;
		return ret;
	}
	ret = resize_copy(cq, &r, log_n, &ci);
	old.addr = cq->ring;
	old.size = cq->ring_size;
	old.umem = cq->ring_umem;
	old.umem_id = cq->ring_umem_id;
	cq->ring = r.addr;
	cq->ring_size = r.size;
	cq->ring_umem = r.umem;
	cq->ring_umem_id = r.umem_id;
	cq->log_page_size = r.log_page_size;
	cq->entries = entries;
	pub->ring = r.addr;
	pub->mask = entries - 1;
	pub->log_n = log_n;
	if (ci != pub->ci)
		rte_mlx5cq__update_ci(pub, ci);
	mlx5cq_unlock(pub);
	MLX5CQ_LOG(DEBUG, "CQ 0x%x: %u entries in umem %u (was umem %u), %u "
		   "CQEs carried over", pub->cqn, entries, r.umem_id,
		   old.umem_id, unpolled);
	/* The device writes into the new ring only: the old one can go. */
	if (mlx5cq_devx_ring_put(&old))
		MLX5CQ_LOG(ERR, "CQ 0x%x: old ring not freed", pub->cqn);
	if (ret) {
		rte_errno = -ret;
		return ret;
	}
	return 0;
}
