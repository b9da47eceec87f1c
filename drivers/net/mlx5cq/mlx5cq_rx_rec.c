/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The per-completion RX route: queues with scattered packets
 * (RTE_ETH_RX_OFFLOAD_SCATTER), timestamps (RTE_ETH_RX_OFFLOAD_TIMESTAMP)
 * or flow tags (an rte_flow rule marks or flags: rxq->mark, set by
 * mlx5cq_flow_user.c) take every completion through the records of rte_mlx5cq_poll_burst()
 * (any CQE kind, compressed sessions included, each record with its
 * timestamp), as net/mlx5 runs such queues through its scalar
 * mlx5_rx_burst(). LRO queues go to mlx5cq_rx_burst_lro(), queues with
 * none to mlx5cq_rx_burst(). The same records finish mlx5cq_rx_burst()'s
 * bursts when the CQ holds what its plain and session routes do not take
 * (mlx5cq_rx_rec_rest(): one segment each, no scatter).
 *
 * Scatter as net/mlx5 lays it out (mlx5_rxq.c, mlx5_rx.c): a WQE of
 * 2^sges_log data segments, one mbuf each (elts[] and the segments indexed
 * by WQE << sges_log | segment), every segment the mbuf's data room after
 * the headroom. A packet of byte_cnt bytes filled the first
 * ceil(byte_cnt / buf_len) segments of its WQE: those mbufs become its
 * chain (head with the offload fields, pkt_len and nb_segs) and each
 * gets a replacement from the pool, all or none (none: the packet is
 * dropped, counted in rx_nombuf, and its buffers stay posted); the
 * segments it did not fill keep their buffers. Timestamps: the CQE's time
 * in the mbuf's dynamic field with its flag, real-time stamps in
 * nanoseconds (mlx5cq_clock.c).
 */

#include <rte_io.h>
#include <rte_mbuf_dyn.h>

#include "mlx5cq_rx_cqe.h"

int
mlx5cq_rx_chain(struct mlx5cq_rxq *rxq, uint32_t base, uint32_t nseg,
	     uint32_t len, struct rte_mbuf **head)
{
	struct rte_mbuf *rep[1u << MLX5CQ_RX_SGES_LOG_MAX];
	uint32_t lk[1u << MLX5CQ_RX_SGES_LOG_MAX];
	struct rte_mbuf *m, *prev = NULL;
	uintptr_t addr;
	uint32_t s;

	if (rte_mempool_get_bulk(rxq->mp, (void **)rep, nseg) != 0) {
		rxq->st.nombuf++;
		return -1;
	}
	for (s = 0; s < nseg && rxq->mrt != NULL; s++) {
		const struct mlx5cq_rx_lkc c = mlx5cq_rx_lkc(rxq);

		addr = (uintptr_t)rep[s]->buf_addr + RTE_PKTMBUF_HEADROOM;
		lk[s] = mlx5cq_rx_rep_lkey(rxq, &c, addr, rep[s]->pool);
		if (lk[s] == UINT32_MAX) {
			rte_mempool_put_bulk(rxq->mp, (void **)rep, nseg);
			rxq->st.errors++;
			return -1;
		}
	}
	for (s = 0; s < nseg; s++) {
		m = rxq->elts[base + s];
		*(uint64_t *)((uintptr_t)m + MLX5CQ_RX_OFF_REARM) =
			rxq->mbuf_initializer;
		m->data_len = (uint16_t)RTE_MIN(len, rxq->buf_len);
		len -= m->data_len;
		m->next = NULL;
		if (prev != NULL) {
			m->ol_flags = 0;
			prev->next = m;
		} else {
			*head = m;
		}
		prev = m;
		addr = (uintptr_t)rep[s]->buf_addr + RTE_PKTMBUF_HEADROOM;
		rxq->elts[base + s] = rep[s];
		if (rxq->mrt != NULL)
			rxq->wqes[base + s].lkey = rte_cpu_to_be_32(lk[s]);
		rxq->wqes[base + s].addr = rte_cpu_to_be_64(addr);
	}
	(*head)->nb_segs = (uint16_t)nseg;
	return 0;
}

uint16_t
mlx5cq_rx_rec_rest(struct mlx5cq_rxq *rxq, uint32_t *rq_ci, uint16_t n,
		   struct rx_reps *r, struct rte_mbuf **pkts, uint64_t *bytes)
{
	uint16_t k = rte_mlx5cq_poll_burst(rxq->cq, rxq->cpl, n);
	uint16_t i, nr, out = 0;

	if (k == 0)
		return 0;
	mlx5cq_rx_prefetch_elts(rxq, *rq_ci, k);
	nr = rx_reps_get(rxq, r, k, k);
	for (i = 0; i < k; i++) {
		const struct rte_mlx5cq_cpl *c = &rxq->cpl[i];
		uint32_t idx = (*rq_ci)++ & rxq->mask;
		struct rte_mbuf *m;

		if (unlikely(c->status != 0)) {
			/* The buffer stays posted; the RQ is recovered. */
			rxq->st.errors++;
			rxq->in_error = 1;
			continue;
		}
		if (unlikely(nr == 0)) {
			rxq->st.nombuf++;
			continue;
		}
		m = rxq->elts[idx];
		nr--;
		if (unlikely(mlx5cq_rx_one(rxq, idx, m, r->m[r->used],
					   c->byte_cnt, c->hdr_type_etc,
					   c->vlan_tci, c->rss_hash))) {
			r->used++;
			continue;
		}
		r->used++;
		pkts[out++] = m;
		*bytes += c->byte_cnt;
	}
	return out;
}

uint16_t
mlx5cq_rx_burst_rec(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5cq_rxq *rxq = q;
	uint32_t rq_ci = rxq->rq_ci;
	uint64_t bytes = 0;
	uint16_t k, i, out = 0;

	if (unlikely(rxq->lro))
		return mlx5cq_rx_burst_lro(q, pkts, n);
	if (rxq->sges_log == 0 && rxq->ts_flag == 0 &&
	    (!rxq->mark || rxq->session_ahead != 0))
		return mlx5cq_rx_burst(q, pkts, n);
	k = mlx5cq_rx_records(rxq, n);
	for (i = 0; i < k; i++) {
		const struct rte_mlx5cq_cpl *c = &rxq->cpl[i];
		uint32_t base = (rq_ci++ & rxq->mask) << rxq->sges_log;
		uint32_t len = c->byte_cnt;
		uint32_t nseg = len == 0 ? 1 :
				(len + rxq->buf_len - 1) / rxq->buf_len;
		uint16_t vlan = c->vlan_tci;
		struct rte_mbuf *m;

		if (unlikely(c->status != 0)) {
			/* The buffers stay posted; the RQ is recovered. */
			rxq->st.errors++;
			rxq->in_error = 1;
			continue;
		}
		if (unlikely(nseg > (1u << rxq->sges_log))) {
			/* More than the WQE holds: the device says LEN_ERR. */
			rxq->st.errors++;
			continue;
		}
		if (mlx5cq_rx_chain(rxq, base, nseg, len, &m) != 0)
			continue;
		m->ol_flags = mlx5cq_rx_ol(rxq, c->hdr_type_etc, &vlan);
		m->packet_type =
			mlx5cq_rx_ptype_lut[MLX5CQ_RX_LUT_IDX(c->hdr_type_etc)];
		m->pkt_len = len;
		m->vlan_tci = vlan;
		m->hash.rss = c->rss_hash;
		if (rxq->ts_flag != 0)
			mlx5cq_rx_ts(rxq, m, c->timestamp);
		if (rxq->mark)
			mlx5cq_rx_mark(m, c->flow_tag);
		pkts[out++] = m;
		bytes += len;
	}
	if (rq_ci == rxq->rq_ci)
		return 0;
	mlx5cq_rx_close(rxq, rq_ci, out, bytes);
	return out;
}
