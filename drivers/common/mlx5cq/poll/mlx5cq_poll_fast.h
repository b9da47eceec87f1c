/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef MLX5CQ_POLL_FAST_H_
#define MLX5CQ_POLL_FAST_H_

/*
 * Template of the out-of-line fast poll. A file defines
 *   MLX5CQ_FAST_NAME           the function's name;
 *   mlx5cq_fast_decode(c, s, r, k)
 *                              decode k regular success CQEs, the first at
 *                              c, stride 1 << s, into records r[0..k);
 * and optionally
 *   MLX5CQ_FAST_SESSION_BURST      its own mlx5cq_session_burst() (records of the
 *                              open session's mini-CQEs);
 *   MLX5CQ_FAST_RUN(c, s, r, room, par)
 *                              instead of the owner scan and the decode:
 *                              decode the plain CQEs from c (at most
 *                              room, parity par), every owner test before
 *                              the payload reads it guards; their number;
 *   MLX5CQ_FAST_SEG(cq, c, s, r, room, par)
 *                              from an owned compressed CQE at c:
 *                              the plain CQEs from c (at most room
 *                              entries, none past the ring's end, parity
 *                              par) and the basic-layout sessions among
 *                              them that fit, decoded (sessions consumed
 *                              and counted), every owner test before the
 *                              payload reads it guards; the number of
 *                              entries (one record each);
 * then includes this file. A session's title is decoded into its record
 * by mlx5cq_fast_decode() too.
 *
 * The loop, per run of ring entries up to the end of the ring (so the pass
 * parity is one value for the whole run):
 *   1. owner scan: the op_own bytes of up to four CQEs are gathered into
 *      one word and tested together (owner bit equal to the parity, not
 *      compressed, not an error or invalid opcode): the run of plain CQEs;
 *   2. one read barrier, then the run is decoded with no further test;
 *   3. at the first entry that is not plain: not owned ends the poll; a
 *      compressed CQE opens its session, whose mini-CQEs are delivered
 *      whole arrays at a time (mlx5cq_session.c); an error CQE becomes an
 *      error record; then the scan goes on in the same burst.
 * The consumer index, the counters and the doorbell record are published
 * once at the end (mlx5cq_poll_publish()).
 */

#include "mlx5cq_private.h"

#ifndef MLX5CQ_FAST_SESSION_BURST
#define MLX5CQ_FAST_SESSION_BURST mlx5cq_session_burst
#endif

/* Number of plain CQEs from c (at most room), parity par. */
static __rte_always_inline uint32_t
mlx5cq_fast_scan(volatile const uint8_t *c, unsigned int shift,
		 uint32_t room, unsigned int par)
{
	volatile const uint8_t *o = c + RTE_MLX5CQ_CQE_OP_OWN;
	const uint32_t p4 = par * MLX5CQ_B0;
	uint32_t k = 0;

	for (; k + 4 <= room; k += 4) {
		uint32_t w = (uint32_t)o[(size_t)k << shift] |
			(uint32_t)o[(size_t)(k + 1) << shift] << 8 |
			(uint32_t)o[(size_t)(k + 2) << shift] << 16 |
			(uint32_t)o[(size_t)(k + 3) << shift] << 24;
		uint32_t bad = mlx5cq_fast_bad4(w ^ p4);

		if (bad)
			return k + ((uint32_t)__builtin_ctz(bad) >> 3);
	}
	for (; k < room; k++)
		if (!rte_mlx5cq__plain(o[(size_t)k << shift], par))
			break;
	return k;
}

uint16_t
MLX5CQ_FAST_NAME(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
		 uint16_t n, uint16_t done)
{
	struct mlx5cq_session *z = MLX5CQ_SESSION(cq);
	volatile uint8_t *ring = cq->ring + cq->cqe_off;
	const uint32_t mask = cq->mask;
	const unsigned int shift = cq->stride_shift;
	const unsigned int log_n = cq->log_n;
	uint32_t ci = cq->ci + done;
	uint16_t i = done;
	int stop = 0;

	while (i < n) {
		volatile const uint8_t *cqe;
		uint32_t idx, room, k;
		unsigned int par;
		uint8_t oo;

		if (z->cnt) {
			i = (uint16_t)(i + MLX5CQ_FAST_SESSION_BURST(cq, cpl + i,
							(uint16_t)(n - i)));
			if (z->cnt == 0)
				ci = z->end;
			continue;
		}
		idx = ci & mask;
		par = (ci >> log_n) & 1;
		room = RTE_MIN((uint32_t)(n - i), mask + 1 - idx);
		cqe = ring + ((size_t)idx << shift);
		/* The entry's op_own, tested below when no run starts here. */
		oo = cqe[RTE_MLX5CQ_CQE_OP_OWN];
#ifdef MLX5CQ_FAST_RUN
		/* A compressed CQE here goes to the session loop below. */
		k = ((oo >> 2) & 3) == RTE_MLX5CQ_FORMAT_COMPRESSED ? 0 :
		    MLX5CQ_FAST_RUN(cqe, shift, cpl + i, room, par);
#else
		k = mlx5cq_fast_scan(cqe, shift, room, par);
		if (k) {
			rte_io_rmb();
			mlx5cq_fast_decode(cqe, shift, cpl + i, k);
		}
#endif
		if (k) {
			ci += k;
			i = (uint16_t)(i + k);
			continue;
		}
		if (!rte_mlx5cq__sw_owned(oo, ci, log_n))
			break;
		rte_io_rmb();
		if (((oo >> 2) & 3) == RTE_MLX5CQ_FORMAT_COMPRESSED) {
#ifdef MLX5CQ_FAST_SEG
			k = MLX5CQ_FAST_SEG(cq, cqe, shift, cpl + i, room, par);
			if (k) {
				ci += k;
				i = (uint16_t)(i + k);
				continue;
			}
#endif
			if (mlx5cq_session_open(cq, cqe, oo, ci, 0)) {
				stop = 1;
				break;
			}
			mlx5cq_fast_decode(cqe, shift, &z->trec, 1);
			z->wqe_next = z->trec.wqe_counter;
			continue;
		}
		mlx5cq_decode_full(cqe, oo, &cpl[i]);
		if (cpl[i].status != 0)
			mlx5cq_count_error(cq, &cpl[i]);
		ci++;
		i++;
	}
	/*
	 * Ask for the first lines of the next burst's CQEs now: a device
	 * writes them by DMA, so they are not in the core's caches, and each
	 * burst would otherwise start with a full memory latency. Not on
	 * 128 B strides: there a burst spans twice the lines, the hardware
	 * prefetcher keeps up on its own, and eight more requests only
	 * compete with the burst's loads.
	 */
	if (i == n && shift == 6)
		mlx5cq_prefetch8(ring, mask, 6, ci);
	mlx5cq_poll_publish_inline(cq, ci, i, stop, 1);
	return i;
}

#undef MLX5CQ_FAST_SESSION_BURST
#undef MLX5CQ_FAST_SEG
#undef MLX5CQ_FAST_RUN

#endif /* MLX5CQ_POLL_FAST_H_ */
