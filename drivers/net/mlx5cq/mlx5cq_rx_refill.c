/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The out-of-line part of the refill (mlx5cq_rx_refill.h): every WQE
 * posted at queue start, and the lkey search of a replacement the
 * queue's table does not answer for.
 */

#include <rte_io.h>

#include "mlx5cq_rx_refill.h"

/* Write every WQE from the buffer ring and post them all (queue start). */
void
mlx5cq_rxq_post_all(struct mlx5cq_rxq *rxq)
{
	uint32_t i;

	/* Every segment of every WQE (desc_n << sges_log). */
	for (i = 0; i < rxq->elts_n; i++) {
		volatile struct mlx5_wqe_dseg_rx *w = &rxq->wqes[i];
		struct rte_mbuf *m = rxq->elts[i];
		uintptr_t addr = (uintptr_t)m->buf_addr + RTE_PKTMBUF_HEADROOM;

		w->byte_count = rte_cpu_to_be_32(rxq->buf_len);
		w->lkey = rte_cpu_to_be_32(mlx5cq_mr_lookup(&rxq->mrc, addr,
							    m->pool));
		w->addr = rte_cpu_to_be_64(addr);
	}
	rxq->pi = rxq->desc_n;
	rxq->rq_ci = 0;
	rxq->session_ahead = 0;
	rxq->session_ahead_len = 0;
	rte_io_wmb();
	rxq->dbrec[0] = rte_cpu_to_be_32(rxq->pi & 0xffff);
}

/*
 * rx_replace_direct_lkey() from replacement i on, with the search when
 * the table has no answer. A replacement without lkey (the table and the
 * search both fail: not expected while every chunk is known) ends the
 * pass: it and the ones after it go back to the pool, the received
 * buffers stay posted. Returns the replacements posted in all.
 */
uint16_t
mlx5cq_rx_replace_lkey_rest(struct mlx5cq_rxq *rxq, uint32_t idx,
			    uint16_t i, uint16_t nr, uint16_t k,
			    struct rte_mbuf **pkts)
{
	const struct mlx5cq_rx_lkc c = mlx5cq_rx_lkc(rxq);
	struct rte_mbuf **const e = &rxq->elts[idx];
	volatile struct mlx5_wqe_dseg_rx *const w = &rxq->wqes[idx];
	uint16_t j;

	for (; i < nr; i++) {
		uintptr_t addr = mlx5cq_rx_buf_addr(rxq, e[i]);
		uint32_t lk = mlx5cq_rx_lkey(rxq, &c, addr, rxq->mp);

		if (unlikely(lk == UINT32_MAX)) {
			rte_mempool_put_bulk(rxq->mp, (void **)&e[i], nr - i);
			for (j = i; j < k; j++)
				e[j] = pkts[j];
			break;
		}
		w[i].lkey = rte_cpu_to_be_32(lk);
		w[i].addr = rte_cpu_to_be_64(addr);
	}
	return i;
}
