/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * RX burst control: which route takes each segment of the CQ. The RQ is
 * cyclic: the device fills its WQEs in order, so the buffer of the k-th
 * completion is the one at the queue's consumer index rq_ci + k (as
 * DPDK's mlx5 and the kernel's mlx5e take it); the CQE's WQE counter is
 * not needed.
 *
 * Segment by segment:
 * - packets of a compressed session decoded ahead by an earlier burst
 *   (rxq->session_ahead), first: their mbufs are written, only the hand-up
 *   and refill are left, by rx_hand_up() (mlx5cq_rx_refill.h), the
 *   same hand-up as the decoding burst's share of the session;
 * - plain receive CQEs (rte_mlx5cq_peek_op(), else rte_mlx5cq_peek();
 *   rte_mlx5cq_advance()): written into their mbufs by mlx5cq_rx_cqe.h,
 *   then handed up by rx_hand_up(), as a session's packets are;
 * - compressed sessions of the basic layout in HASH or CSUM format
 *   (rte_mlx5cq_session_open(), rte_mlx5cq_session_advance()): decoded
 *   ahead into their mbufs by mlx5cq_rx_session.c, then handed up by
 *   rx_hand_up(), this burst's share now, the rest by the next bursts;
 * - everything else (error CQEs, the other mini-CQE formats, the enhanced
 *   layout) through the records of rte_mlx5cq_poll_burst(), written by
 *   mlx5cq_rx_one() (mlx5cq_rx_rec_rest(), mlx5cq_rx_rec.c).
 * On x86 and AArch64 with rx_vec_en=1 (default) the plain and session
 * routes write mbufs with byte shuffles and 16-byte stores
 * (mlx5cq_rx_vec.h); rx_vec_en=0 writes them with the reference's
 * 8-byte stores; the hand-up is the same.
 * A WQE whose buffer cannot be replaced keeps its buffer and the packet
 * is dropped (rx_nombuf). The RQ doorbell record is updated once per
 * burst after a write barrier (mlx5cq_rx_close()).
 */

#include <rte_io.h>

#include "mlx5cq_rx_cqe.h"

/*
 * A compressed session at the consumer index: decoded ahead in one pass
 * (mlx5cq_rx_session_ahead()), what the burst has room for (want) handed
 * up, the rest left in the buffer ring for the next bursts. Returns the
 * packets taken from the ring (0: no session), *nr the replacements they
 * got, *out grows by the packets handed up.
 */
static __rte_always_inline uint16_t
rx_session_seg(struct mlx5cq_rxq *rxq, uint32_t rq_ci, uint16_t want,
	       struct rx_reps *r, struct rte_mbuf **pkts, uint16_t *out,
	       uint64_t *bytes, uint16_t *nr)
{
	uint64_t len;
	uint32_t left;
	uint16_t got;

#ifdef MLX5CQ_RX_VEC
	if (likely(mlx5cq_rx_vec_ok(rxq)))
		left = mlx5cq_rx_session_ahead_vec(rxq, rq_ci, want, &len);
	else
#endif
		left = mlx5cq_rx_session_ahead(rxq, rq_ci, want, &len);
	if (left == 0)
		return 0;
	got = (uint16_t)RTE_MIN(left, (uint32_t)want);
	rxq->session_ahead = left - got;
	*nr = rx_hand_up(rxq, rq_ci, got, len, want, r, pkts, out, bytes);
	return got;
}

/*
 * The k plain CQEs found by the peek (want: what the burst may still
 * take; pf: their mbuf headers already asked for): written into their
 * mbufs (rx_plain_write()), then handed up as a session's packets are
 * (rx_hand_up()). Returns the buffers replaced; *out grows by the
 * packets handed up.
 */
static __rte_always_inline uint16_t
rx_plain_seg(struct mlx5cq_rxq *rxq, uint32_t rq_ci, uint16_t k,
	     uint16_t want, int pf, struct rx_reps *r, struct rte_mbuf **pkts,
	     uint16_t *out, uint64_t *bytes)
{
	uint64_t len;

	if (!pf)
		mlx5cq_rx_prefetch_elts(rxq, rq_ci, k);
	len = rx_plain_write(rxq, rq_ci, k);
	return rx_hand_up(rxq, rq_ci, k, len, want, r, pkts, out, bytes);
}

uint16_t
mlx5cq_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5cq_rxq *rxq = q;
	struct rte_mlx5cq *cq = rxq->cq;
	uint32_t rq_ci = rxq->rq_ci;
	uint16_t done = 0, out = 0, got, nr;
	uint64_t bytes = 0, len;
	struct rx_reps r;
	int polled = 0, pf = 0;

	if (unlikely(rxq->gate != MLX5CQ_RXQ_GATE_RUN)) {
		if (!rxq->started)
			return 0;
		/* Flow tags go up through the records (after any packets
		 * decoded ahead: they are the next WQEs').
		 */
		if (rxq->mark && rxq->session_ahead == 0)
			return mlx5cq_rx_burst_rec(q, pkts, n);
		/* A queue a failed recovery left in error: try again. */
		if (rxq->in_error && mlx5cq_rxq_recover(rxq) != 0)
			return 0;
	}
	if (n > MLX5CQ_BURST_MAX)
		n = MLX5CQ_BURST_MAX;
	r.have = 0;
	r.used = 0;
	if (rxq->session_ahead != 0) {
		/* The rest of a session decoded by an earlier burst. */
		got = (uint16_t)RTE_MIN(rxq->session_ahead, (uint32_t)n);
		/* Their lengths' sum: known for all of them, else read. */
		len = got == rxq->session_ahead ? rxq->session_ahead_len :
		      rx_ahead_len(rxq, rq_ci, got);
		rxq->session_ahead_len -= len;
		nr = rx_hand_up(rxq, rq_ci, got, len, n, &r, pkts, &out,
				   &bytes);
		rxq->st.nombuf += got - nr;
		rxq->session_ahead -= got;
		rq_ci += got;
		done += got;
	}
	if (done == 0) {
		/* An empty CQ costs one load of the owner byte at the
		 * consumer index: no read of the entries after it, which
		 * the device has yet to write.
		 */
		if (!rte_mlx5cq_ready(cq)) {
			rte_mlx5cq_advance(cq, 0);
			return 0;
		}
		/* Something is there: ask for the burst's mbuf headers
		 * before the CQEs are read, so both kinds of misses overlap
		 * (without sessions read in place: a session's decode asks
		 * for its own).
		 */
		pf = rxq->session_fmt == 0;
		if (pf)
			mlx5cq_rx_prefetch_elts(rxq, rq_ci, n);
	}
	while (done < n) {
		/* Plain receive CQEs (one compare each), else any kind. */
		got = rte_mlx5cq_peek_op(cq, n - done, RTE_MLX5CQ_OP_RESP_SEND);
		if (got == 0)
			got = rte_mlx5cq_peek(cq, n - done);
		if (got) {
			nr = rx_plain_seg(rxq, rq_ci, got, n - done, pf, &r,
					  pkts, &out, &bytes);
			rte_mlx5cq_advance(cq, got);
		} else {
			if (rxq->session_fmt == 0)
				break;
			got = rx_session_seg(rxq, rq_ci, n - done, &r, pkts, &out,
					 &bytes, &nr);
			if (got == 0)
				break;
		}
		/* No replacement: the buffers stay posted, packets dropped. */
		rxq->st.nombuf += got - nr;
		rq_ci += got;
		done += got;
		polled = 1;
	}
	/* Error CQEs, sessions off the lean path. */
	if (done < n && rte_mlx5cq_ready(cq)) {
		out += mlx5cq_rx_rec_rest(rxq, &rq_ci, n - done, &r,
					  pkts + out, &bytes);
		polled = 1;
	}
	if (r.have > r.used)
		rte_mempool_put_bulk(rxq->mp, (void **)&r.m[r.used],
				     r.have - r.used);
	if (rq_ci == rxq->rq_ci) {
		/* Nothing, no poll made: one empty poll in the counters. */
		if (!polled)
			rte_mlx5cq_advance(cq, 0);
		return 0;
	}
	mlx5cq_rx_close(rxq, rq_ci, out, bytes);
	return out;
}

uint16_t
mlx5cq_burst_none(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	RTE_SET_USED(q);
	RTE_SET_USED(pkts);
	RTE_SET_USED(n);
	return 0;
}

