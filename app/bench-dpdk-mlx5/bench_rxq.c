/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * A DPDK 22.11 net/mlx5 RX queue (struct mlx5_rxq_data inside a zeroed
 * struct mlx5_rxq_ctrl) filled by hand the way the PMD fills it for a
 * cyclic (non-striding) RQ of one segment per packet:
 *   mlx5_rxq_new:          elts_n, mp, rq_repl_thresh, port_id, csum,
 *                          rss_hash, crc_present 0, rxseg[0], elts array of
 *                          desc + MLX5_VPMD_DESCS_PER_LOOP (rx_vec_en);
 *   mlx5_rxq_devx_cq_new:  cqes, cq_db, cqe_n, cqn, cq_ci 0, and with
 *                          compression mcqe_format HASH, byte_mask ~0;
 *   mlx5_rxq_devx_obj_new: wqes (16 B data segments), rq_db;
 *   rxq_alloc_elts_sprq:   one mbuf per WQE (data_off, port, data_len =
 *                          pkt_len = buffer length, nb_segs 1), the
 *                          vector rearm template mbuf_initializer from
 *                          fake_mbuf, fake_mbuf padding after the ring;
 *   mlx5_rxq_mempool_register: the per-queue MR cache (mr_ctrl) as
 *                          mlx5_mr_ctrl_init + mlx5_mr_flush_local_cache +
 *                          mlx5_mr_mempool_populate_cache leave it: an
 *                          empty top-half cache and the bottom-half B-tree
 *                          holding the mempool's memory regions, sorted;
 * then DPDK's own mlx5_rxq_initialize() writes the WQEs (address, length,
 * lkey through mlx5_rx_mb2mr) and the RQ doorbell.
 *
 * Or for a striding (multi-packet) RQ, as the PMD fills it with
 * mprq_en=1:
 *   mlx5_rxq_new:          elts_n = log2 of the WQEs, log_strd_num,
 *                          log_strd_sz, strd_shift_en
 *                          (MLX5_MPRQ_TWO_BYTE_SHIFT, 0), strd_scatter_en
 *                          0, mprq_max_memcpy_len = min(room, 128), the
 *                          elts array of strides + MLX5_VPMD_DESCS_PER_LOOP
 *                          entries (rq_repl_thresh from that) and
 *                          mprq_bufs, one per WQE, after it;
 *   mlx5_mprq_alloc_mp:    mprq_mp, a mempool of 4 buffers a WQE + 32 per
 *                          queue (at least 64), cache 32, objects of
 *                          struct mlx5_mprq_buf, a shinfo per stride, the
 *                          headroom and the strides, initialized as
 *                          mlx5_mprq_buf_init does (static there: copied
 *                          below; its free_cb mlx5_mprq_buf_free_cb is
 *                          exported by common/mlx5);
 *   mlx5_rxq_devx_cq_new:  cqe_n = log2 of WQEs x strides; with
 *                          compression HASH mini-CQEs for the vector burst,
 *                          CSUM_STRIDX for the scalar one;
 *   mlx5_rxq_devx_obj_new: wqes of struct mlx5_wqe_mprq (32 B);
 *   rxq_alloc_elts_mprq:   a buffer per WQE and mprq_repl;
 *   rxq_alloc_elts_sprq:   an mbuf per stride (the vector burst's ring);
 *   mlx5_rxq_mempool_register: the B-tree holds mprq_mp's regions;
 * then mlx5_rxq_initialize() writes every WQE (the buffer's first stride,
 * strides x stride size, lkey) and the doorbell.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_vect.h>

#include <mlx5_common_mr.h>
#include <mlx5_prm.h>

#include "mlx5.h"
#include "mlx5_defs.h"
#include "mlx5_rx.h"
#include "mlx5_rxtx.h"

#include "bench_dpdk_mlx5.h"

struct bench_rxq {
	struct mlx5_rxq_ctrl *ctrl; /* rxq inside, elts array after it. */
	struct mlx5_mr_share_cache *scache; /* Empty: dev_gen for mr_ctrl. */
	volatile void *wqes;
	volatile uint32_t *rq_db;
	struct rte_mempool *mprq_mp; /* Striding RQ: its buffers. */
};

bench_rx_fn
bench_rxq_fn(enum bench_fn fn)
{
	switch (fn) {
	case BENCH_FN_VEC:
		return mlx5_rx_burst_vec;
	case BENCH_FN_MPRQ:
		return mlx5_rx_burst_mprq;
	case BENCH_FN_MPRQ_VEC:
		return mlx5_rx_burst_mprq_vec;
	default:
		return mlx5_rx_burst;
	}
}

/* The vector unit mlx5_rxtx_vec.c was compiled for. */
const char *
bench_rxq_vec_name(void)
{
#if defined(RTE_ARCH_X86_64)
	return "SSE";
#elif defined(RTE_ARCH_ARM64)
	return "NEON";
#else
	return "Altivec";
#endif
}

void *
bench_rxq_queue(struct bench_rxq *q)
{
	return &q->ctrl->rxq;
}

/* log2 of the strides per WQE, 0 on a cyclic RQ. */
uint32_t
bench_rxq_log_strd_num(const struct bench_rxq *q)
{
	return q->ctrl->rxq.log_strd_num;
}

/*
 * Receive slots posted so far (a free-running counter): the RQ doorbell's
 * WQEs, times the strides per WQE on a striding RQ.
 */
uint32_t
bench_rxq_posted(const struct bench_rxq *q)
{
	return rte_be_to_cpu_32(*q->rq_db) << q->ctrl->rxq.log_strd_num;
}

/*
 * Buffer of receive slot `slot` (counter; masked here): the WQE's buffer,
 * on a striding RQ the stride slot % strides of WQE slot / strides (a
 * 60-byte frame takes one stride, written at its start: strd_shift_en 0).
 */
void *
bench_rxq_buf(const struct bench_rxq *q, uint32_t slot)
{
	const struct mlx5_rxq_data *rxq = &q->ctrl->rxq;
	uint32_t log_n = rxq->log_strd_num;
	uint32_t idx = (slot >> log_n) & ((1u << rxq->elts_n) - 1);
	uint32_t strd = slot & ((1u << log_n) - 1);
	volatile struct mlx5_wqe_data_seg *dseg;

	if (log_n == 0)
		dseg = &((volatile struct mlx5_wqe_data_seg *)q->wqes)[idx];
	else
		dseg = &((volatile struct mlx5_wqe_mprq *)q->wqes)[idx].dseg;
	return RTE_PTR_ADD((void *)(uintptr_t)rte_be_to_cpu_64(dseg->addr),
			   (size_t)strd << rxq->log_strd_sz);
}

/* mlx5_mprq_buf_init of mlx5_rxq.c (static there). */
static void
bench_mprq_buf_init(struct rte_mempool *mp, void *opaque_arg, void *_m,
		    unsigned int i __rte_unused)
{
	struct mlx5_mprq_buf *buf = _m;
	struct rte_mbuf_ext_shared_info *shinfo;
	unsigned int strd_n = (unsigned int)(uintptr_t)opaque_arg;
	unsigned int j;

	memset(_m, 0, sizeof(*buf));
	buf->mp = mp;
	__atomic_store_n(&buf->refcnt, 1, __ATOMIC_RELAXED);
	for (j = 0; j != strd_n; ++j) {
		shinfo = &buf->shinfos[j];
		shinfo->free_cb = mlx5_mprq_buf_free_cb;
		shinfo->fcb_opaque = buf;
	}
}

/*
 * mlx5_mprq_alloc_mp for one queue, then rxq_alloc_elts_mprq; the regions
 * of the new pool (DPDK's rule) for the MR cache.
 */
static int
bench_rxq_mprq(struct bench_rxq *q, struct bench_range **mrs,
	       unsigned int *mrs_n)
{
	static unsigned int seq;
	struct mlx5_rxq_data *rxq = &q->ctrl->rxq;
	uint32_t strd_n = RTE_BIT32(rxq->log_strd_num);
	uint32_t wqe_n = RTE_BIT32(rxq->elts_n);
	uint32_t buf_len = strd_n * RTE_BIT32(rxq->log_strd_sz);
	uint32_t obj_size = sizeof(struct mlx5_mprq_buf) + buf_len +
			    strd_n * sizeof(struct rte_mbuf_ext_shared_info) +
			    RTE_PKTMBUF_HEADROOM;
	uint32_t obj_num = RTE_MAX(wqe_n * 4 + MLX5_MPRQ_MP_CACHE_SZ,
				   MLX5_MPRQ_MP_CACHE_SZ * 2);
	char name[RTE_MEMPOOL_NAMESIZE];
	uint32_t i;

	snprintf(name, sizeof(name), "bench-mprq-%u", seq++);
	q->mprq_mp = rte_mempool_create(name, obj_num, obj_size,
					MLX5_MPRQ_MP_CACHE_SZ, 0, NULL, NULL,
					bench_mprq_buf_init,
					(void *)(uintptr_t)strd_n,
					SOCKET_ID_ANY, 0);
	if (q->mprq_mp == NULL) {
		printf("bench: MPRQ pool of %u x %u B not created\n", obj_num,
		       obj_size);
		return -1;
	}
	rxq->mprq_mp = q->mprq_mp;
	for (i = 0; i <= wqe_n; i++) {
		struct mlx5_mprq_buf *buf;

		if (rte_mempool_get(rxq->mprq_mp, (void **)&buf) < 0) {
			rte_errno = ENOMEM;
			return -1;
		}
		if (i < wqe_n)
			(*rxq->mprq_bufs)[i] = buf;
		else
			rxq->mprq_repl = buf;
	}
	return bench_pool_ranges(q->mprq_mp, mrs, mrs_n);
}

/* mr_ctrl as mlx5_mr_mempool_populate_cache leaves it. */
static int
bench_rxq_mr(struct bench_rxq *q, const struct bench_range *mrs,
	     unsigned int mrs_n)
{
	struct mlx5_mr_ctrl *mc = &q->ctrl->rxq.mr_ctrl;
	struct mlx5_mr_btree *bt = &mc->cache_bh;
	unsigned int i;

	if (mlx5_mr_ctrl_init(mc, &q->scache->dev_gen, SOCKET_ID_ANY) != 0)
		return -1;
	mlx5_mr_flush_local_cache(mc);
	/* Entry 0 is the B-tree's null entry; the regions follow, sorted. */
	if (bt->len != 1 || mrs_n + 1 > bt->size) {
		printf("bench: %u memory regions do not fit the MR B-tree\n",
		       mrs_n);
		rte_errno = ENOSPC;
		return -1;
	}
	for (i = 0; i < mrs_n; i++) {
		(*bt->table)[bt->len++] = (struct mr_cache_entry){
			.start = mrs[i].start,
			.end = mrs[i].end,
			.lkey = rte_cpu_to_be_32(0x100 + i),
		};
	}
	return 0;
}

/*
 * rxq_alloc_elts_sprq, for a queue where vector RX is supported (an mbuf
 * per stride on a striding RQ).
 */
static int
bench_rxq_elts(struct bench_rxq *q)
{
	struct mlx5_rxq_data *rxq = &q->ctrl->rxq;
	struct rte_mbuf *init = &rxq->fake_mbuf;
	unsigned int n = 1u << (rxq->elts_n + rxq->log_strd_num), i;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(rxq->mp);

		if (m == NULL) {
			printf("bench: RX pool empty after %u mbufs\n", i);
			rte_errno = ENOMEM;
			return -1;
		}
		m->data_off = rxq->rxseg[0].offset;
		m->port = rxq->port_id;
		m->data_len = rxq->rxseg[0].length;
		m->pkt_len = rxq->rxseg[0].length;
		m->nb_segs = 1;
		(*rxq->elts)[i] = m;
	}
	init->data_off = RTE_PKTMBUF_HEADROOM;
	rte_mbuf_refcnt_set(init, 1);
	init->nb_segs = 1;
	init->port = rxq->port_id;
	rte_compiler_barrier();
	rxq->mbuf_initializer = *(rte_xmm_t *)&init->rearm_data;
	for (i = 0; i < MLX5_VPMD_DESCS_PER_LOOP; i++)
		(*rxq->elts)[n + i] = init;
	return 0;
}

struct bench_rxq *
bench_rxq_create(const struct bench_rxq_conf *c)
{
	uint32_t desc = 1u << c->log_desc;
	/* mlx5_rxq_new's desc: strides on a striding RQ. */
	uint32_t desc_n = (desc << c->log_strd_num) + MLX5_VPMD_DESCS_PER_LOOP;
	uint16_t room = rte_pktmbuf_data_room_size(c->mp);
	size_t wqe_sz = c->log_strd_num != 0 ? sizeof(struct mlx5_wqe_mprq) :
			sizeof(struct mlx5_wqe_data_seg);
	struct bench_range *mprq_mrs = NULL;
	unsigned int mprq_mrs_n = 0;
	struct mlx5_rxq_data *rxq;
	struct bench_rxq *q;

	if (c->log_desc > 15 || c->log_cqe > 15 ||
	    c->log_desc + c->log_strd_num > 15 ||
	    room <= RTE_PKTMBUF_HEADROOM) {
		printf("bench: bad RX queue: 2^%u WQEs, 2^%u CQEs, room %u\n",
		       c->log_desc, c->log_cqe, room);
		rte_errno = EINVAL;
		return NULL;
	}
	q = calloc(1, sizeof(*q));
	if (q == NULL)
		return NULL;
	q->ctrl = rte_zmalloc("bench_rxq", sizeof(*q->ctrl) +
			      desc_n * sizeof(struct rte_mbuf *) +
			      (c->log_strd_num != 0 ?
			       desc * sizeof(struct mlx5_mprq_buf *) : 0),
			      RTE_CACHE_LINE_SIZE);
	q->scache = rte_zmalloc("bench_scache", sizeof(*q->scache),
				RTE_CACHE_LINE_SIZE);
	q->wqes = rte_zmalloc("bench_wqes", desc * wqe_sz, 4096);
	q->rq_db = rte_zmalloc("bench_rqdb", 64, 64);
	if (q->ctrl == NULL || q->scache == NULL || q->wqes == NULL ||
	    q->rq_db == NULL)
		goto fail;
	q->ctrl->socket = (unsigned int)SOCKET_ID_ANY;
	rxq = &q->ctrl->rxq;
	rxq->csum = 1;
	rxq->rss_hash = 1;
	rxq->crc_present = 0;
	rxq->elts_n = c->log_desc;
	rxq->cqe_n = c->log_cqe;
	rxq->port_id = c->port_id;
	rxq->mp = c->mp;
	rxq->rq_repl_thresh = MLX5_VPMD_RXQ_RPLNSH_THRESH(desc_n);
	rxq->elts = (struct rte_mbuf *(*)[])(q->ctrl + 1);
	if (c->log_strd_num != 0) {
		rxq->sges_n = 0;
		rxq->log_strd_num = c->log_strd_num;
		rxq->log_strd_sz = c->log_strd_sz;
		rxq->strd_shift_en = MLX5_MPRQ_TWO_BYTE_SHIFT;
		rxq->strd_scatter_en = 0;
		rxq->mprq_max_memcpy_len = RTE_MIN(room - RTE_PKTMBUF_HEADROOM,
						   MLX5_MPRQ_MEMCPY_DEFAULT_LEN);
		rxq->mprq_bufs = (struct mlx5_mprq_buf *(*)[])
				 (*rxq->elts + desc_n);
	}
	rxq->rxseg_n = 1;
	rxq->rxseg[0].mp = c->mp;
	rxq->rxseg[0].offset = RTE_PKTMBUF_HEADROOM;
	rxq->rxseg[0].length = room - RTE_PKTMBUF_HEADROOM;
	rxq->cqes = (volatile struct mlx5_cqe (*)[])c->cqes;
	rxq->cq_db = c->cq_db;
	rxq->cqn = c->cqn;
	rxq->cq_ci = 0;
	if (c->compressed) {
		rxq->mcqe_format = c->stridx ?
				   MLX5_CQE_RESP_FORMAT_CSUM_STRIDX :
				   MLX5_CQE_RESP_FORMAT_HASH;
		rxq->byte_mask = UINT32_MAX;
	}
	rxq->wqes = q->wqes;
	rxq->rq_db = q->rq_db;
	if (c->log_strd_num != 0) {
		/* The B-tree holds the MPRQ pool (mlx5_rxq_mempool_register). */
		if (bench_rxq_mprq(q, &mprq_mrs, &mprq_mrs_n) != 0 ||
		    bench_rxq_mr(q, mprq_mrs, mprq_mrs_n) != 0)
			goto fail;
	} else if (bench_rxq_mr(q, c->mrs, c->mrs_n) != 0) {
		goto fail;
	}
	free(mprq_mrs);
	mprq_mrs = NULL;
	if (bench_rxq_elts(q) != 0)
		goto fail;
	if (mlx5_rxq_initialize(rxq) != 0) {
		printf("bench: mlx5_rxq_initialize failed\n");
		goto fail;
	}
	return q;
fail:
	printf("bench: RX queue setup failed: %s\n", rte_strerror(rte_errno));
	free(mprq_mrs);
	bench_rxq_destroy(q);
	return NULL;
}

/*
 * Give back the mbufs the queue holds: every WQE's for the scalar path
 * (it replaces each buffer it hands out), [rq_pi, rq_ci) for the vector
 * path (mlx5_rx_burst_vec leaves handed-out slots stale until refill);
 * on a striding RQ [rq_pi, elts_ci) of the vector path's stride ring (the
 * scalar path does not touch it), and the MPRQ buffers.
 */
void
bench_rxq_destroy(struct bench_rxq *q)
{
	struct mlx5_rxq_data *rxq;

	if (q == NULL)
		return;
	if (q->ctrl != NULL) {
		uint32_t n, i, end;

		rxq = &q->ctrl->rxq;
		n = 1u << (rxq->elts_n + rxq->log_strd_num);
		end = rxq->log_strd_num != 0 ? rxq->elts_ci : rxq->rq_ci;
		if (rxq->elts_n != 0 && rxq->rq_pi != 0) {
			for (i = rxq->rq_pi; i != end; i++)
				rte_pktmbuf_free_seg((*rxq->elts)[i & (n - 1)]);
		} else if (rxq->elts_n != 0) {
			for (i = 0; i < n; i++)
				if ((*rxq->elts)[i] != NULL)
					rte_pktmbuf_free_seg((*rxq->elts)[i]);
		}
		if (rxq->mprq_bufs != NULL) {
			for (i = 0; i < RTE_BIT32(rxq->elts_n); i++)
				if ((*rxq->mprq_bufs)[i] != NULL)
					mlx5_mprq_buf_free
						((*rxq->mprq_bufs)[i]);
			if (rxq->mprq_repl != NULL)
				mlx5_mprq_buf_free(rxq->mprq_repl);
		}
		mlx5_mr_btree_free(&rxq->mr_ctrl.cache_bh);
		rte_free(rxq->rq_win_data);
		rte_free(q->ctrl);
	}
	rte_mempool_free(q->mprq_mp);
	rte_free(q->scache);
	rte_free((void *)(uintptr_t)q->wqes);
	rte_free((void *)(uintptr_t)q->rq_db);
	free(q);
}
