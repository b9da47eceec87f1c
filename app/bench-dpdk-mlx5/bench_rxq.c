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
	volatile struct mlx5_wqe_data_seg *wqes;
	volatile uint32_t *rq_db;
};

bench_rx_fn
bench_rxq_fn(enum bench_fn fn)
{
	return fn == BENCH_FN_VEC ? mlx5_rx_burst_vec : mlx5_rx_burst;
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

/* RQ doorbell: receive WQEs posted so far (a free-running counter). */
uint32_t
bench_rxq_posted(const struct bench_rxq *q)
{
	return rte_be_to_cpu_32(*q->rq_db);
}

/* Buffer of receive WQE `wqe` (counter; masked here). */
void *
bench_rxq_buf(const struct bench_rxq *q, uint32_t wqe)
{
	uint32_t idx = wqe & ((1u << q->ctrl->rxq.elts_n) - 1);

	return (void *)(uintptr_t)rte_be_to_cpu_64(q->wqes[idx].addr);
}

/* mr_ctrl as mlx5_mr_mempool_populate_cache leaves it. */
static int
bench_rxq_mr(struct bench_rxq *q, const struct bench_rxq_conf *c)
{
	struct mlx5_mr_ctrl *mc = &q->ctrl->rxq.mr_ctrl;
	struct mlx5_mr_btree *bt = &mc->cache_bh;
	unsigned int i;

	if (mlx5_mr_ctrl_init(mc, &q->scache->dev_gen, SOCKET_ID_ANY) != 0)
		return -1;
	mlx5_mr_flush_local_cache(mc);
	/* Entry 0 is the B-tree's null entry; the regions follow, sorted. */
	if (bt->len != 1 || c->mrs_n + 1 > bt->size) {
		printf("bench: %u memory regions do not fit the MR B-tree\n",
		       c->mrs_n);
		rte_errno = ENOSPC;
		return -1;
	}
	for (i = 0; i < c->mrs_n; i++) {
		(*bt->table)[bt->len++] = (struct mr_cache_entry){
			.start = c->mrs[i].start,
			.end = c->mrs[i].end,
			.lkey = rte_cpu_to_be_32(0x100 + i),
		};
	}
	return 0;
}

/* rxq_alloc_elts_sprq, for a queue where vector RX is supported. */
static int
bench_rxq_elts(struct bench_rxq *q)
{
	struct mlx5_rxq_data *rxq = &q->ctrl->rxq;
	struct rte_mbuf *init = &rxq->fake_mbuf;
	unsigned int n = 1u << rxq->elts_n, i;

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
	uint32_t desc_n = desc + MLX5_VPMD_DESCS_PER_LOOP;
	uint16_t room = rte_pktmbuf_data_room_size(c->mp);
	struct mlx5_rxq_data *rxq;
	struct bench_rxq *q;

	if (c->log_desc > 15 || c->log_cqe > 15 ||
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
			      desc_n * sizeof(struct rte_mbuf *),
			      RTE_CACHE_LINE_SIZE);
	q->scache = rte_zmalloc("bench_scache", sizeof(*q->scache),
				RTE_CACHE_LINE_SIZE);
	q->wqes = rte_zmalloc("bench_wqes", desc * sizeof(*q->wqes), 4096);
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
	rxq->rxseg_n = 1;
	rxq->rxseg[0].mp = c->mp;
	rxq->rxseg[0].offset = RTE_PKTMBUF_HEADROOM;
	rxq->rxseg[0].length = room - RTE_PKTMBUF_HEADROOM;
	rxq->cqes = (volatile struct mlx5_cqe (*)[])c->cqes;
	rxq->cq_db = c->cq_db;
	rxq->cqn = c->cqn;
	rxq->cq_ci = 0;
	if (c->compressed) {
		rxq->mcqe_format = MLX5_CQE_RESP_FORMAT_HASH;
		rxq->byte_mask = UINT32_MAX;
	}
	rxq->wqes = q->wqes;
	rxq->rq_db = q->rq_db;
	if (bench_rxq_mr(q, c) != 0 || bench_rxq_elts(q) != 0)
		goto fail;
	if (mlx5_rxq_initialize(rxq) != 0) {
		printf("bench: mlx5_rxq_initialize failed\n");
		goto fail;
	}
	return q;
fail:
	printf("bench: RX queue setup failed: %s\n", rte_strerror(rte_errno));
	bench_rxq_destroy(q);
	return NULL;
}

/*
 * Give back the mbufs the queue holds: every WQE's for the scalar path
 * (it replaces each buffer it hands out), [rq_pi, rq_ci) for the vector
 * path (mlx5_rx_burst_vec leaves handed-out slots stale until refill).
 */
void
bench_rxq_destroy(struct bench_rxq *q)
{
	struct mlx5_rxq_data *rxq;

	if (q == NULL)
		return;
	if (q->ctrl != NULL) {
		uint32_t n = 1u << q->ctrl->rxq.elts_n, i;

		rxq = &q->ctrl->rxq;
		if (rxq->elts_n != 0 && rxq->rq_pi != 0) {
			for (i = rxq->rq_pi; i != rxq->rq_ci; i++)
				rte_pktmbuf_free_seg((*rxq->elts)[i & (n - 1)]);
		} else if (rxq->elts_n != 0) {
			for (i = 0; i < n; i++)
				if ((*rxq->elts)[i] != NULL)
					rte_pktmbuf_free_seg((*rxq->elts)[i]);
		}
		mlx5_mr_btree_free(&rxq->mr_ctrl.cache_bh);
		rte_free(rxq->rq_win_data);
		rte_free(q->ctrl);
	}
	rte_free(q->scache);
	rte_free((void *)(uintptr_t)q->wqes);
	rte_free((void *)(uintptr_t)q->rq_db);
	free(q);
}
