/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The CQE writer: the device side of the ring.
 *
 * Each completion becomes a 64 B CQE laid out as DPDK's struct mlx5_cqe
 * (mlx5_prm.h) or, for errors, rdma-core's struct mlx5_err_cqe (mlx5dv.h);
 * all fields big-endian. In a 128 B ring (cqe_sz 1) or a padded one
 * (cqe_sz 2) the CQE is the second half of the entry; the first half, which
 * would hold inline scattered data, is written as zeros. The CQE's bytes
 * 0..62 are written first, then a write barrier, then op_own
 * (opcode << 4 | solicited << 1 | owner) with owner = (pi >> log_size) & 1,
 * so a concurrent poller never sees a valid owner before the payload.
 *
 * Before writing, the device reads the consumer counter from the doorbell
 * record (big-endian word 0, 24 bits): with 2^log_size completions
 * outstanding the ring is full and the writer stops. A CQ with overrun
 * ignore (cqc.oi) is never full; a collapsed CQ (cqc.cc) writes every CQE
 * into entry 0.
 *
 * Pipeline per completion: room check -> build (64 B image) -> emit (store
 * at the producer index). On a CQ with cqe_comp_en the images go through
 * the compression stage (mlx5_emu_comp.c) which writes sessions; after
 * every write the event stage (mlx5_emu_event.c) decides on a completion
 * event (arming word 1 + UAR doorbell, moderation).
 *
 * Ring full: mlx5_emu_cq_post() stops (the producer is flow controlled);
 * with MLX5_EMU_POST_OVERRUN the device has to write anyway: without
 * cqc.oi the CQ goes to error (cqc.status 0x9, overflow), an async CQ
 * error event is raised and nothing more is written; with cqc.oi the
 * device overwrites unconsumed entries.
 */

#include <errno.h>
#include <string.h>

#include <rte_atomic.h>
#include <rte_byteorder.h>
#include <rte_prefetch.h>
#include <mlx5_prm.h>

#include <rte_mlx5cq_prm.h>

#include "mlx5_emu_prefetch.h"
#include "mlx5_emu_private.h"

/* Byte offsets in the 64 B CQE (struct mlx5_cqe / struct mlx5_err_cqe). */

#define EMU_CQ_STATUS_OVERFLOW 0x9 /* cqc.status: CQ overflow (PRM). */
#define EMU_CQ_PF_AHEAD 4 /* CQEs prefetched for writing ahead. */
#define EMU_CQ_PF_BATCH 16 /* CQEs prefetched at the start of a post. */

/* Solicited bit of an op byte (opcode << 4 | se << 1), or an error CQE. */
static int
emu_cqe_op_se(uint8_t op)
{
	uint8_t opcode = op >> 4;

	return (op & RTE_MLX5CQ_OP_OWN_SE) || opcode == MLX5_CQE_REQ_ERR ||
	       opcode == MLX5_CQE_RESP_ERR;
}

/* The 64 B CQE of entry idx (inlined in the writer's per-CQE path). */
static inline uint8_t *
emu_cqe_slot(const struct emu_cq *cq, uint32_t idx)
{
	unsigned int stride = cq->cqe_sz == 0 ? 64 : 128;

	idx &= (1u << cq->log_cq_size) - 1;
	return cq->ring + (size_t)idx * stride + (stride - 64);
}

/*
 * The image is assembled in eight 64-bit words and stored in one go: its
 * readers (the compression stage's join test, eight 8-byte loads) then
 * take it from the store queue. Field by field, as memset() and narrow
 * stores, each such load waited for several stores to reach the cache
 * (perf record of the engine under testpmd: most of the join test's
 * samples). Fields never cross an 8-byte boundary (PRM offsets).
 */
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
#define EMU_W_SHIFT(off, n) (8u * ((off) & 7u))
#else
#define EMU_W_SHIFT(off, n) (8u * (8u - (n) - ((off) & 7u)))
#endif

static __rte_always_inline void
emu_w8(uint64_t w[8], unsigned int off, uint8_t v)
{
	w[off >> 3] |= (uint64_t)v << EMU_W_SHIFT(off, 1u);
}

static __rte_always_inline void
emu_w16(uint64_t w[8], unsigned int off, uint16_t v)
{
	w[off >> 3] |= (uint64_t)rte_cpu_to_be_16(v) << EMU_W_SHIFT(off, 2u);
}

static __rte_always_inline void
emu_w32(uint64_t w[8], unsigned int off, uint32_t v)
{
	w[off >> 3] |= (uint64_t)rte_cpu_to_be_32(v) << EMU_W_SHIFT(off, 4u);
}

static __rte_always_inline void
emu_w64(uint64_t w[8], unsigned int off, uint64_t v)
{
	w[off >> 3] = rte_cpu_to_be_64(v);
}

/* The words into the image, eight 8-byte stores (not a copy through the
 * stack, which a 16-byte load would read back from two 8-byte stores).
 */
static __rte_always_inline void
emu_w_store(uint8_t cqe[64], const uint64_t w[8])
{
	memcpy(cqe, &w[0], 8);
	memcpy(cqe + 8, &w[1], 8);
	memcpy(cqe + 16, &w[2], 8);
	memcpy(cqe + 24, &w[3], 8);
	memcpy(cqe + 32, &w[4], 8);
	memcpy(cqe + 40, &w[5], 8);
	memcpy(cqe + 48, &w[6], 8);
	memcpy(cqe + 56, &w[7], 8);
}

/*
 * Build the 64 B image of one completion (op_own left 0) and the opcode and
 * solicited bits of op_own. Returns 0 or -EINVAL.
 */
int
emu_cqe_build(const struct mlx5_emu_wc *cpl, uint8_t cqe[64], uint8_t *op)
{
	uint64_t w[8] = { 0 };
	uint8_t opcode;

	switch (cpl->kind) {
	case MLX5_EMU_WC_REQ:
		opcode = cpl->opcode ? cpl->opcode : MLX5_CQE_REQ;
		emu_w32(w, RTE_MLX5CQ_CQE_BYTE_CNT, cpl->byte_cnt);
		emu_w64(w, RTE_MLX5CQ_CQE_TIMESTAMP, cpl->timestamp);
		emu_w32(w, RTE_MLX5CQ_CQE_SOP_DROP_QPN,
			(uint32_t)cpl->s_wqe_opcode << 24 |
			(cpl->qpn & EMU_CQN_MASK));
		break;
	case MLX5_EMU_WC_RESP:
		opcode = cpl->opcode ? cpl->opcode : MLX5_CQE_RESP_SEND;
		emu_w32(w, RTE_MLX5CQ_CQE_RX_HASH_RES, cpl->rx_hash_res);
		emu_w8(w, RTE_MLX5CQ_CQE_RX_HASH_TYPE, cpl->rx_hash_type);
		emu_w16(w, RTE_MLX5CQ_CQE_CSUM, cpl->csum);
		emu_w16(w, RTE_MLX5CQ_CQE_HDR_TYPE_ETC, cpl->hdr_type_etc);
		emu_w16(w, RTE_MLX5CQ_CQE_VLAN_INFO, cpl->vlan_info);
		emu_w32(w, RTE_MLX5CQ_CQE_METADATA, cpl->flow_table_metadata);
		emu_w32(w, RTE_MLX5CQ_CQE_BYTE_CNT, cpl->byte_cnt);
		emu_w64(w, RTE_MLX5CQ_CQE_TIMESTAMP, cpl->timestamp);
		emu_w32(w, RTE_MLX5CQ_CQE_SOP_DROP_QPN, cpl->qpn & EMU_CQN_MASK);
		/* LRO (struct mlx5_cqe; kernel mlx5_cqe64): 0 unless the
		 * completion coalesced segments (mlx5_emu_rq.c).
		 */
		if (cpl->lro_num_seg != 0) {
			emu_w8(w, RTE_MLX5CQ_CQE_LRO_TCPPSH_ABORT_DUPACK,
			       cpl->lro_tcppsh_abort_dupack);
			emu_w8(w, RTE_MLX5CQ_CQE_LRO_MIN_TTL, cpl->lro_min_ttl);
			emu_w16(w, RTE_MLX5CQ_CQE_LRO_TCP_WIN, cpl->lro_tcp_win);
			emu_w32(w, RTE_MLX5CQ_CQE_LRO_ACK_SEQ_NUM,
				cpl->lro_ack_seq_num);
			emu_w8(w, RTE_MLX5CQ_CQE_LRO_NUM_SEG, cpl->lro_num_seg);
		}
		break;
	case MLX5_EMU_WC_REQ_ERR:
	case MLX5_EMU_WC_RESP_ERR:
		opcode = cpl->opcode ? cpl->opcode :
			 cpl->kind == MLX5_EMU_WC_REQ_ERR ?
			 MLX5_CQE_REQ_ERR : MLX5_CQE_RESP_ERR;
		emu_w8(w, RTE_MLX5CQ_CQE_VENDOR_SYND, cpl->vendor_syndrome);
		emu_w8(w, RTE_MLX5CQ_CQE_SYNDROME, cpl->syndrome);
		emu_w32(w, RTE_MLX5CQ_CQE_SOP_DROP_QPN,
			(uint32_t)cpl->s_wqe_opcode << 24 |
			(cpl->qpn & EMU_CQN_MASK));
		break;
	default:
		memset(cqe, 0, 64);
		return -EINVAL;
	}
	if (opcode >= MLX5_CQE_INVALID) {
		emu_w_store(cqe, w);
		return -EINVAL;
	}
	emu_w16(w, RTE_MLX5CQ_CQE_WQE_COUNTER, cpl->wqe_counter);
	/* Striding RQ: the WQE of the strides (DPDK struct mlx5_cqe wqe_id,
	 * struct mlx5_error_cqe eth_wqe_id; kernel mlx5_cqe64 wqe_id).
	 */
	emu_w16(w, RTE_MLX5CQ_CQE_WQE_ID, cpl->wqe_id);
	emu_w_store(cqe, w);
	*op = (uint8_t)(opcode << 4 | (cpl->solicited ? 1 << 1 : 0));
	return 0;
}

/*
 * Entries the device may still write before the ring is full.
 *
 * The consumer counter is compared in log_cq_size + 1 bits, the least that
 * tell a full ring from an empty one, not in the record's 24: DPDK's
 * net/mlx5 TX (mlx5_tx.h "uint16_t cq_ci", stored by mlx5_tx.c into the
 * doorbell record), crypto/mlx5 and compress/mlx5 ("uint16_t ci") publish a
 * 16-bit counter and keep running on cards past 65,536 completions. A
 * 24-bit consumer reads the same in those bits.
 */
uint32_t
emu_cq_room(struct emu_cq *cq, uint32_t need)
{
	uint32_t size = 1u << cq->log_cq_size;
	uint32_t mask = ((size << 1) - 1) & EMU_CQN_MASK;
	uint32_t ci, used;

	if (cq->oi || cq->cc)
		return UINT32_MAX;
	if (cq->ci_seen_valid) {
		used = (cq->pi - cq->ci_seen) & mask;
		if (size - used >= need)
			return size - used;
	}
	ci = rte_be_to_cpu_32(__atomic_load_n(&cq->dbrec[0],
					      __ATOMIC_ACQUIRE)) & EMU_CQN_MASK;
	used = (cq->pi - ci) & mask;
	if (used > size) {
		/* The consumer claims more than was produced. */
		EMU_LOG(DEBUG, "%s: CQ 0x%x: consumer counter 0x%x ahead of "
			"producer 0x%x", cq->dev->name, cq->cqn, ci,
			cq->pi & EMU_CQN_MASK);
		cq->ci_seen_valid = 0;
		return 0;
	}
	cq->ci_seen = ci;
	cq->ci_seen_valid = 1;
	return size - used;
}

void
emu_cqe_store(struct emu_cq *cq, uint32_t idx, const uint8_t cqe[64],
	      uint8_t op_own)
{
	uint8_t *dst = emu_cqe_slot(cq, idx);

	if (cq->cqe_sz != 0)
		memset(dst - 64, 0, 64); /* No inline data: zeros/padding. */
	/*
	 * Bytes 0..61, then bytes 62 (validity iteration count of the
	 * enhanced layout) and 63 (op_own) in one store: a reader that sees
	 * either sees the whole CQE (kernel mlx5_cqwq_get_cqe_enahnced_comp
	 * reads the iteration count, then dma_rmb, then the rest).
	 */
	memcpy(dst, cqe, RTE_MLX5CQ_CQE_OP_OWN - 1);
	/*
	 * The consumer is a CPU: the release store below orders the payload
	 * before the owner byte (no I/O barrier; on x86 rte_wmb() would be
	 * an sfence per CQE).
	 */
	{
		uint16_t tail;
		uint8_t b[2] = { cqe[RTE_MLX5CQ_CQE_OP_OWN - 1], op_own };

		memcpy(&tail, b, sizeof(tail));
		__atomic_store_n((uint16_t *)(void *)&dst[RTE_MLX5CQ_CQE_OP_OWN - 1],
				 tail, __ATOMIC_RELEASE);
	}
}

/* Store one built CQE at the producer index, op_own last. */
void
emu_cqe_emit(struct emu_cq *cq, const uint8_t cqe[64], uint8_t op)
{
	uint32_t idx = cq->cc ? 0 : cq->pi;
	uint8_t owner = (cq->pi >> cq->log_cq_size) & 1;
	uint8_t img[64];

	if (cq->cqe_comp_layout == 1) {
		/* Enhanced layout: validity iteration count in byte 62. */
		memcpy(img, cqe, sizeof(img));
		img[RTE_MLX5CQ_CQE_VALIDITY] = (uint8_t)(cq->pi >> cq->log_cq_size);
		cqe = img;
	}
	emu_cqe_store(cq, idx, cqe, (uint8_t)(op | owner));
	cq->pi++;
	/* The consumer's core reads the ring: fetch lines for writing early. */
	if (!cq->cc)
		emu_prefetch_write(emu_cqe_slot(cq, cq->pi + EMU_CQ_PF_AHEAD));
}

int
emu_cq_overrun(struct emu_cq *cq)
{
	cq->status = EMU_CQ_STATUS_OVERFLOW;
	EMU_LOG(ERR, "%s: CQ 0x%x: overrun (producer 0x%x, consumer 0x%x): "
		"CQ in error", cq->dev->name, cq->cqn, cq->pi & EMU_CQN_MASK,
		rte_be_to_cpu_32(cq->dbrec[0]) & EMU_CQN_MASK);
	emu_ev_cq_error(cq);
	return -EIO;
}

/* The slots of n CQEs from index first, fetched for writing at once. */
static void
emu_cqe_prefetch_slots(const struct emu_cq *cq, uint32_t first,
		       unsigned int n)
{
	unsigned int k;

	if (cq->cc)
		return;
	for (k = 0; k < n; k++) {
		uint8_t *cqe = emu_cqe_slot(cq, first + k);

		emu_prefetch_write(cqe);
		if (cq->cqe_sz != 0)
			emu_prefetch_write(cqe - 64);
	}
}

/*
 * The slots n uncompressed completions will take, fetched for writing at
 * once: the consumer's core read them last time round the ring, and the
 * sliding prefetch of emu_cqe_emit() (EMU_CQ_PF_AHEAD) leaves the first
 * ones of every batch to miss one by one. A prefetch is a hint: slots a
 * full ring will refuse cost nothing wrong.
 */
static void
emu_cqe_prefetch_batch(const struct emu_cq *cq, unsigned int n)
{
	emu_cqe_prefetch_slots(cq, cq->pi,
			       RTE_MIN(n, (unsigned int)EMU_CQ_PF_BATCH));
}

void
emu_cq_prefetch_next(const struct emu_cq *cq, unsigned int n)
{
	rte_prefetch0((const void *)(uintptr_t)cq->dbrec);
	if (!cq->cqe_comp_en)
		emu_cqe_prefetch_slots(cq, cq->pi + cq->nstage, n);
}

/*
 * One uncompressed completion: 1 written, 0 no room, -EIO overrun. *room
 * is what the last room check left (0: check again); it goes down by one
 * per CQE written, so the ring's room is checked once per run of CQEs it
 * has room for, not per CQE.
 */
static int
emu_cqe_put(struct emu_cq *cq, const uint8_t cqe[64], uint8_t op,
	    int overrun, uint32_t *room)
{
	if (*room == 0) {
		*room = emu_cq_room(cq, 1);
		if (*room == 0)
			return overrun ? emu_cq_overrun(cq) : 0;
	}
	(*room)--;
	emu_cqe_emit(cq, cqe, op);
	emu_ev_written(cq, 1, emu_cqe_op_se(op));
	return 1;
}

int
emu_cqe_post_flags(struct emu_cq *cq, const struct mlx5_emu_wc *cpl,
		   unsigned int n, uint32_t flags)
{
	int overrun = !!(flags & MLX5_EMU_POST_OVERRUN);
	enum emu_q_kind kind = (flags & EMU_POST_CYCLIC_RQ) ?
			       EMU_QK_CYCLIC_RQ :
			       (flags & EMU_POST_STRIDING_RQ) ?
			       EMU_QK_STRIDING_RQ : EMU_QK_ANY;
	uint32_t room = 0;
	uint8_t cqe[64], op;
	unsigned int i;
	int ret = 0, r;

	pthread_mutex_lock(&cq->lock);
	if (cq->status != 0) {
		ret = -EIO;
		goto out;
	}
	/* A failed device writes nothing (mlx5_emu_health.c). */
	if (emu_dev_failed(cq->dev)) {
		ret = -ENOLINK;
		goto out;
	}
	/* The consumer counter is read once per call (emu_cq_room()). */
	cq->ci_seen_valid = 0;
	if (!cq->cqe_comp_en)
		emu_cqe_prefetch_batch(cq, n);
	emu_ev_sample(cq);
	for (i = 0; i < n; i++) {
		ret = emu_cqe_build(&cpl[i], cqe, &op);
		if (ret != 0) {
			EMU_LOG(ERR, "%s: CQ 0x%x: completion %u: bad kind %d "
				"or opcode %u", cq->dev->name, cq->cqn, i,
				cpl[i].kind, cpl[i].opcode);
			break;
		}
		if (cq->cqe_comp_en)
			r = emu_comp_add(cq, &cpl[i], cqe, op, overrun,
					 kind);
		else
			r = emu_cqe_put(cq, cqe, op, overrun, &room);
		if (r < 0) {
			ret = r;
			goto out;
		}
		if (r == 0)
			break;
	}
	if (cq->cqe_comp_en && !(flags & MLX5_EMU_POST_HOLD))
		emu_comp_close(cq);
	/* Written completions count even when a later one was refused. */
	if (i > 0 || ret == 0)
		ret = (int)i;
out:
	pthread_mutex_unlock(&cq->lock);
	return ret;
}

int
emu_cq_flush_locked(struct emu_cq *cq)
{
	int ret = 0;

	pthread_mutex_lock(&cq->lock);
	if (cq->status != 0) {
		ret = -EIO;
	} else {
		cq->ci_seen_valid = 0;
		emu_ev_sample(cq);
		if (cq->cqe_comp_en)
			emu_comp_close(cq);
	}
	pthread_mutex_unlock(&cq->lock);
	return ret;
}

/* The CQ of a public call, with dev->lock held on success. */
static struct emu_cq *
emu_cq_get_locked(struct ibv_context *ctx, uint32_t cqn, int *err)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);
	struct emu_cq *cq;

	if (dev == NULL) {
		*err = -EINVAL;
		return NULL;
	}
	pthread_mutex_lock(&dev->lock);
	cq = emu_cq_lookup(dev, cqn);
	if (cq == NULL)
		*err = -ENOENT;
	else if (cq->ring == NULL || cq->dbrec == NULL)
		*err = -EIO;
	else
		return cq;
	pthread_mutex_unlock(&dev->lock);
	return NULL;
}

int
mlx5_emu_cq_post_flags(struct ibv_context *ctx, uint32_t cqn,
		       const struct mlx5_emu_wc *cpl, unsigned int n,
		       uint32_t flags)
{
	struct emu_cq *cq;
	int ret;

	if (cpl == NULL && n != 0)
		return -EINVAL;
	if (flags & ~(MLX5_EMU_POST_OVERRUN | MLX5_EMU_POST_HOLD)) {
		EMU_LOG(ERR, "cq_post: unknown flags 0x%x", flags);
		return -EINVAL;
	}
	cq = emu_cq_get_locked(ctx, cqn, &ret);
	if (cq == NULL)
		return ret;
	ret = emu_cqe_post_flags(cq, cpl, n, flags);
	pthread_mutex_unlock(&cq->dev->lock);
	return ret;
}

int
mlx5_emu_cq_flush(struct ibv_context *ctx, uint32_t cqn)
{
	struct emu_cq *cq;
	int ret;

	cq = emu_cq_get_locked(ctx, cqn, &ret);
	if (cq == NULL)
		return ret;
	ret = emu_cq_flush_locked(cq);
	pthread_mutex_unlock(&cq->dev->lock);
	return ret;
}

int
mlx5_emu_cq_post(struct ibv_context *ctx, uint32_t cqn,
		 const struct mlx5_emu_wc *cpl, unsigned int n)
{
	return mlx5_emu_cq_post_flags(ctx, cqn, cpl, n, 0);
}
