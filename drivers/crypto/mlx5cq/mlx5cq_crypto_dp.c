/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Data path. Enqueue writes an operation's WQE set (UMR: destination KLMs
 * and BSF; RDMA write: source data segments; NOP padding) and rings the
 * send doorbell once per burst. Dequeue polls the QP's CQ with
 * rte_mlx5cq_poll_burst(): a completion names, by its WQE counter, the
 * operation whose WQE completed, and every operation up to it is done
 * (the send queue executes in order); an error CQE fails its operation
 * with RTE_CRYPTO_OP_STATUS_ERROR (AUTH_FAILED for an AES-GCM tag that
 * does not match), its syndrome logged and counted.
 */

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_io.h>
#include <rte_mbuf.h>

#include <infiniband/mlx5dv.h>

#include "mlx5cq_crypto.h"

static __rte_always_inline uint32_t
mlx5cq_crypto_lkey(struct mlx5cq_crypto_qp *qp, const struct rte_mbuf *m,
		   uintptr_t addr)
{
	if (likely(addr >= qp->mr_start && addr < qp->mr_end))
		return qp->mr_lkey;
	return mlx5cq_crypto_mr_lookup(qp, m, addr);
}

/*
 * Data segments for len bytes of chain m from offset off; the number
 * written, or 0 (op->status set) when the chain is too short, has too many
 * segments or memory that cannot be registered.
 */
static __rte_always_inline uint32_t
mlx5cq_crypto_segs(struct mlx5cq_crypto_qp *qp, struct rte_crypto_op *op,
		   struct rte_mbuf *m, uint32_t off, uint32_t len,
		   struct mlx5_wqe_dseg *seg)
{
	uint32_t max = qp->priv->max_segs;
	uint32_t n = 0;

	while (m != NULL && off >= m->data_len) {
		off -= m->data_len;
		m = m->next;
	}
	while (len != 0) {
		uint32_t l;
		uintptr_t addr;
		uint32_t lkey;

		if (unlikely(m == NULL || n == max)) {
			op->status = RTE_CRYPTO_OP_STATUS_INVALID_ARGS;
			return 0;
		}
		l = RTE_MIN((uint32_t)m->data_len - off, len);
		addr = rte_pktmbuf_mtod_offset(m, uintptr_t, off);
		lkey = mlx5cq_crypto_lkey(qp, m, addr);
		if (unlikely(lkey == UINT32_MAX)) {
			op->status = RTE_CRYPTO_OP_STATUS_ERROR;
			return 0;
		}
		seg[n].bcount = rte_cpu_to_be_32(l);
		seg[n].lkey = rte_cpu_to_be_32(lkey);
		seg[n].pbuf = rte_cpu_to_be_64(addr);
		n++;
		len -= l;
		off = 0;
		m = m->next;
	}
	return n;
}

/*
 * Data-unit pointer of an operation of a session without a data-unit
 * length (dataunit_len 0: the whole operation is one data unit). Lengths
 * of 512 B, 4 KiB and 1 MiB get their block size, as DPDK 22.11's
 * crypto/mlx5 writes them (mlx5_crypto_get_block_size()); any other
 * length gets pointer 0, the whole message as one unit on the emulated
 * device (crypto/mlx5 fails such operations with INVALID_ARGS).
 */
static __rte_always_inline uint32_t
mlx5cq_crypto_op_du(uint32_t len)
{
	switch (len) {
	case 512:
		return RTE_BE32((uint32_t)MLX5_BLOCK_SIZE_512B <<
				MLX5_BLOCK_SIZE_OFFSET);
	case 4096:
		return RTE_BE32((uint32_t)MLX5_BLOCK_SIZE_4096B <<
				MLX5_BLOCK_SIZE_OFFSET);
	case 1u << 20:
		return RTE_BE32((uint32_t)MLX5_BLOCK_SIZE_1MB <<
				MLX5_BLOCK_SIZE_OFFSET);
	default:
		return 0;
	}
}

static const uint32_t mlx5cq_crypto_du_len[] = {
	[MLX5_BLOCK_SIZE_512B] = 512,
	[MLX5_BLOCK_SIZE_4096B] = 4096,
	[MLX5_BLOCK_SIZE_1MB] = 1u << 20,
};

/*
 * An operation the device cannot do (op->status set) takes its slot with
 * a set of NOPs, one per WQEBB, the last one asking for a completion: it
 * is dequeued in order with its status, never refused at every enqueue.
 */
static __rte_noinline void
mlx5cq_crypto_nop_set(struct mlx5cq_crypto_qp *qp, struct rte_crypto_op *op)
{
	uint8_t *set = qp->wqes + (size_t)(qp->pi & qp->mask) *
		       qp->priv->wqe_set_size;
	uint32_t nbb = 1u << qp->log_set_bbs, i;
	uint16_t wqe_idx = (uint16_t)(qp->pi << qp->log_set_bbs);
	struct mlx5_wqe_cseg *nop = NULL;

	for (i = 0; i < nbb; i++) {
		nop = (struct mlx5_wqe_cseg *)(set + i * MLX5_SEND_WQE_BB);
		nop->opcode = rte_cpu_to_be_32((uint32_t)(uint16_t)
					       (wqe_idx + i) << 8 |
					       MLX5_OPCODE_NOP);
		nop->sq_ds = rte_cpu_to_be_32(qp->qpn << 8 | 1);
		nop->flags = i + 1 == nbb ?
			RTE_BE32(MLX5_COMP_ALWAYS << MLX5_COMP_MODE_OFFSET) :
			RTE_BE32(MLX5_COMP_ONLY_FIRST_ERR <<
				 MLX5_COMP_MODE_OFFSET);
		nop->misc = 0;
	}
	qp->last_ctrl = *(uint64_t *)nop;
	qp->ops[qp->pi & qp->mask] = op;
	qp->pi++;
	qp->wqe_pi += nbb;
}

/* Write the WQE set of op at its slot; 0 with op->status set on error. */
static __rte_always_inline int
mlx5cq_crypto_wqe_set(struct mlx5cq_crypto_qp *qp, struct rte_crypto_op *op)
{
	const struct mlx5cq_crypto_priv *priv = qp->priv;
	struct rte_crypto_sym_op *sym = op->sym;
	struct mlx5cq_crypto_sess *s;
	uint8_t *set = qp->wqes + (size_t)(qp->pi & qp->mask) *
		       priv->wqe_set_size;
	struct mlx5_umr_wqe *umr = (struct mlx5_umr_wqe *)set;
	struct mlx5_wqe_umr_bsf_seg *bsf = (struct mlx5_wqe_umr_bsf_seg *)
		(set + priv->umr_wqe_size) - 1;
	struct mlx5_rdma_write_wqe *rw = (struct mlx5_rdma_write_wqe *)
		(set + priv->umr_wqe_size);
	struct mlx5_wqe_dseg *src_seg = (struct mlx5_wqe_dseg *)
		(set + priv->umr_wqe_size + sizeof(*rw));
	struct rte_mbuf *dst;
	uint32_t len = sym->cipher.data.length;
	uint32_t off = sym->cipher.data.offset;
	uint32_t nd, ns, ds, pad, du;
	uint16_t wqe_idx = (uint16_t)(qp->pi << qp->log_set_bbs);
	struct mlx5_wqe_cseg *nop;

	if (unlikely(op->type != RTE_CRYPTO_OP_TYPE_SYMMETRIC ||
		     op->sess_type != RTE_CRYPTO_OP_WITH_SESSION ||
		     sym->session == NULL)) {
		op->status = RTE_CRYPTO_OP_STATUS_INVALID_SESSION;
		return 0;
	}
	s = CRYPTODEV_GET_SYM_SESS_PRIV(sym->session);
	if (unlikely(s->gcm))
		return mlx5cq_crypto_gcm_wqe_set(qp, op, s);
	if (unlikely(s->dek == NULL)) {
		op->status = RTE_CRYPTO_OP_STATUS_INVALID_SESSION;
		return 0;
	}
	du = s->bsp_res;
	/* XTS needs a block (IEEE 1619); a session's data units must
	 * divide the operation.
	 */
	if (du == 0) {
		du = mlx5cq_crypto_op_du(len);
	} else if (unlikely(len % mlx5cq_crypto_du_len
			[rte_be_to_cpu_32(du) >> MLX5_BLOCK_SIZE_OFFSET])) {
		op->status = RTE_CRYPTO_OP_STATUS_INVALID_ARGS;
		return 0;
	}
	if (unlikely(len < 16)) {
		op->status = RTE_CRYPTO_OP_STATUS_INVALID_ARGS;
		return 0;
	}
	if (unlikely(qp->slot_gcm != NULL && qp->slot_gcm[qp->pi & qp->mask])) {
		/* The set last held a GCM operation. */
		mlx5cq_crypto_wqe_set_init(qp->priv, qp, qp->pi & qp->mask);
		qp->slot_gcm[qp->pi & qp->mask] = 0;
	}
	dst = sym->m_dst != NULL ? sym->m_dst : sym->m_src;
	/* UMR: the destination behind the mkey, the BSF of the operation. */
	nd = mlx5cq_crypto_segs(qp, op, dst, off, len, umr->kseg);
	if (unlikely(nd == 0))
		return 0;
	if (dst == sym->m_src) {
		ns = nd;
		memcpy(src_seg, umr->kseg, nd * sizeof(*src_seg));
	} else {
		ns = mlx5cq_crypto_segs(qp, op, sym->m_src, off, len,
					src_seg);
		if (unlikely(ns == 0))
			return 0;
	}
	umr->ctr.opcode = rte_cpu_to_be_32((uint32_t)wqe_idx << 8 |
					   MLX5_OPCODE_UMR);
	umr->mkc.len = rte_cpu_to_be_64(len);
	bsf->bs_bpt_eo_es = s->bs_bpt_eo_es;
	bsf->raw_data_size = rte_cpu_to_be_32(len);
	bsf->bsp_res = du;
	memcpy(bsf->xts_initial_tweak,
	       rte_crypto_op_ctod_offset(op, uint8_t *, s->iv_offset), 16);
	bsf->res_dp = s->dek_id_be;
	/* RDMA write of the source to address 0 of the crypto mkey. */
	wqe_idx += priv->umr_wqe_size / MLX5_SEND_WQE_BB;
	ds = 2 + ns;
	rw->ctr.opcode = rte_cpu_to_be_32((uint32_t)wqe_idx << 8 |
					  MLX5_OPCODE_RDMA_WRITE);
	rw->ctr.sq_ds = rte_cpu_to_be_32(qp->qpn << 8 | ds);
	ds = RTE_ALIGN_CEIL(ds, 4);
	pad = priv->rdmaw_wqe_size / MLX5_WSEG_SIZE - ds;
	nop = (struct mlx5_wqe_cseg *)(set + priv->umr_wqe_size);
	/*
	 * The completion is asked of the set's last WQE: a CQE says the
	 * device is done with the WQEs up to the one it names, not with
	 * those after it, and the set is written again as soon as its
	 * operation is dequeued. (A CQE of the RDMA write with the NOP
	 * still unread let the next pass of the ring overwrite that NOP
	 * under the device: a flushed QP, and operations handed back
	 * unciphered.)
	 */
	if (pad != 0) {
		/* NOP to the end of the set; it completes the set. */
		rw->ctr.flags = RTE_BE32(MLX5_COMP_ONLY_FIRST_ERR <<
					 MLX5_COMP_MODE_OFFSET |
					 MLX5_WQE_CTRL_INITIATOR_SMALL_FENCE);
		nop = (struct mlx5_wqe_cseg *)((uint8_t *)rw +
					       ds * MLX5_WSEG_SIZE);
		wqe_idx += ds / 4;
		nop->opcode = rte_cpu_to_be_32((uint32_t)wqe_idx << 8 |
					       MLX5_OPCODE_NOP);
		nop->sq_ds = rte_cpu_to_be_32(qp->qpn << 8 | pad);
		nop->flags = RTE_BE32(MLX5_COMP_ALWAYS <<
				      MLX5_COMP_MODE_OFFSET);
		nop->misc = 0;
	} else {
		rw->ctr.flags = RTE_BE32(MLX5_COMP_ALWAYS <<
					 MLX5_COMP_MODE_OFFSET |
					 MLX5_WQE_CTRL_INITIATOR_SMALL_FENCE);
	}
	qp->last_ctrl = *(uint64_t *)nop;
	/* Success unless its completion says otherwise (the op is ours until
	 * dequeued; its line is hot here, not at dequeue).
	 */
	op->status = RTE_CRYPTO_OP_STATUS_SUCCESS;
	qp->ops[qp->pi & qp->mask] = op;
	qp->pi++;
	qp->wqe_pi += 1u << qp->log_set_bbs;
	return 1;
}

uint16_t
mlx5cq_crypto_enqueue_burst(void *queue_pair, struct rte_crypto_op **ops,
			    uint16_t n)
{
	struct mlx5cq_crypto_qp *qp = queue_pair;
	uint16_t room = qp->entries_n - (uint16_t)(qp->pi - qp->ci);
	uint16_t i;

	if (unlikely(qp->in_error)) {
		/* Nothing is posted to a QP in error: the operations in
		 * flight are handed back first, then it is reset.
		 */
		if (qp->ci != qp->pi || mlx5cq_crypto_qp_recover(qp) != 0)
			return 0;
		room = qp->entries_n;
	}
	if (n > room)
		n = room;
	for (i = 0; i < n; i++) {
		if (unlikely(mlx5cq_crypto_wqe_set(qp, ops[i]) == 0)) {
			qp->stats.enqueue_err_count++;
			mlx5cq_crypto_nop_set(qp, ops[i]);
		}
	}
	if (likely(i != 0)) {
		qp->stats.enqueued_count += i;
		/* WQEs, then the doorbell record, then the doorbell. */
		rte_io_wmb();
		*qp->sq_dbrec = rte_cpu_to_be_32(qp->wqe_pi);
		rte_wmb();
		*qp->priv->uar_db = qp->last_ctrl;
		rte_wmb();
	}
	return i;
}

/* An error CQE: its operation fails; the syndrome is logged and kept. */
static __rte_noinline void
mlx5cq_crypto_cqe_error(struct mlx5cq_crypto_qp *qp,
			struct rte_crypto_op *op,
			const struct rte_mlx5cq_cpl *c)
{
	op->status = mlx5cq_crypto_gcm_err_status(c);
	qp->in_error = 1;
	qp->stats.dequeue_err_count++;
	qp->err.cqe_errors++;
	qp->err.last_syndrome = c->syndrome;
	qp->err.last_vendor_syndrome = c->vendor_syndrome;
	CRYPTO_LOG(ERR, "qp %u: error CQE for WQE %u (opcode %#x): "
		   "syndrome %#x vendor syndrome %#x (status %u)", qp->qp_id,
		   c->wqe_counter, c->s_wqe_opcode, c->syndrome,
		   c->vendor_syndrome, c->status);
}

uint16_t
mlx5cq_crypto_dequeue_burst(void *queue_pair, struct rte_crypto_op **ops,
			    uint16_t n)
{
	struct mlx5cq_crypto_qp *qp = queue_pair;
	struct rte_mlx5cq_cpl *cpl = qp->cpl;
	struct rte_crypto_op **ring = qp->ops;
	const uint16_t mask = qp->mask;
	const unsigned int log_set = qp->log_set_bbs;
	const uint16_t opmask = (uint16_t)(0xffffu >> log_set);
	uint16_t done = qp->done, ci = qp->ci, out = 0, want, k, i;

	/* Operations known complete by an earlier call (rare). */
	while (ci != done && out < n)
		ops[out++] = ring[ci++ & mask];
	want = RTE_MIN((uint16_t)(n - out), (uint16_t)(qp->pi - done));
	k = want != 0 ? rte_mlx5cq_poll_burst(qp->cq, cpl, want) : 0;
	for (i = 0; i < k; i++) {
		/* Operations from done up to the one of this CQE. */
		uint16_t last = (uint16_t)
			(((cpl[i].wqe_counter >> log_set) - done) & opmask);

		/* Usual case: the next operation, a success (its status
		 * was set at enqueue), nothing held back: hand it out.
		 */
		if (likely((last | cpl[i].status) == 0 && ci == done)) {
			ops[out++] = ring[done & mask];
			done++;
			ci++;
			continue;
		}
		if (unlikely(last >= (uint16_t)(qp->pi - done)))
			continue; /* A second CQE of a finished operation. */
		done += last;
		if (cpl[i].status != 0)
			mlx5cq_crypto_cqe_error(qp, ring[done & mask],
						&cpl[i]);
		done++;
	}
	/* Operations an earlier one's completion finished too. */
	while (ci != done && out < n)
		ops[out++] = ring[ci++ & mask];
	qp->done = done;
	qp->ci = ci;
	qp->stats.dequeued_count += out;
	return out;
}
