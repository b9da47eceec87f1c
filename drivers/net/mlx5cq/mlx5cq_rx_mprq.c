/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The multi-packet RQ burst, as DPDK's net/mlx5 receives on a striding
 * RQ (mlx5_rx.c mlx5_rx_burst_mprq(), mlx5_rx.h mprq_buf_to_pkt() and
 * mprq_buf_replace()), from the records of rte_mlx5cq_poll_burst():
 *  - a completion's byte_cnt holds the length (bits 15:0), the strides it
 *    used (bits 29:16) and the filler flag (bit 31; mlx5_prm.h
 *    MLX5_MPRQ_*); its wqe_counter is the first stride's index. FTAG
 *    mini-CQEs carry the length alone: the strides are then
 *    ceil(len / stride size), as net/mlx5 counts them;
 *  - a filler completion uses up the strides left in a WQE the next
 *    packet did not fit; the strides of WQE rq_ci used so far are
 *    strd_ci, and a WQE whose strides are all used is done;
 *  - packets of at most mprq_max_memcpy_len bytes, or whose stride span
 *    cannot also hold the headroom before them (or is longer than an
 *    mbuf's 16-bit buf_len), or any while the pool has no spare buffer,
 *    are copied into an mbuf of the queue's pool
 *    (a chain with RTE_ETH_RX_OFFLOAD_SCATTER when longer than one mbuf,
 *    else dropped); longer ones are attached to an mbuf as an external
 *    buffer starting RTE_PKTMBUF_HEADROOM bytes before the stride (in
 *    the previous stride's tail, as net/mlx5 lays it out) and holding a
 *    reference on the WQE's buffer;
 *  - a done WQE is posted again in ring order: with its own buffer when
 *    nothing is attached to it, else with the spare, a new spare taken
 *    from the pool; without a spare the WQE waits (later bursts retry)
 *    and the device uses the WQEs still posted.
 * The doorbell record is written after the WQEs it announces.
 */

#include <string.h>

#include <rte_io.h>
#include <rte_memcpy.h>

#include "mlx5cq_mprq.h"
#include "mlx5cq_rx_cqe.h"

#define MPRQ_FILLER 0x80000000u /* MLX5_MPRQ_FILLER_MASK */
#define MPRQ_STRIDES(bc) (((bc) >> 16) & 0x3fffu) /* STRIDE_NUM_MASK */
#define MPRQ_LEN(bc) ((bc) & 0xffffu) /* MLX5_MPRQ_LEN_MASK */

/* Post the done WQEs again, in order, while each has a free buffer. */
static void
mprq_repost(struct mlx5cq_rxq *rxq)
{
	uint32_t pi = rxq->pi, end = rxq->rq_ci + rxq->desc_n;

	while (pi != end) {
		uint32_t j = pi & rxq->mask;
		struct mlx5cq_mprq_buf *b = rxq->bufs[j];
		volatile struct mlx5_wqe_dseg_rx *w = &rxq->wqes[2 * j + 1];
		uintptr_t addr;

		if (__atomic_load_n(&b->refcnt, __ATOMIC_ACQUIRE) > 1) {
			/* Strides still attached: the spare goes instead. */
			if (rxq->mprq_repl == NULL &&
			    rte_mempool_get(rxq->mprq_mp,
					    (void **)&rxq->mprq_repl) != 0) {
				rxq->mprq_repl = NULL;
				break;
			}
			rxq->bufs[j] = rxq->mprq_repl;
			addr = (uintptr_t)rxq->mprq_repl->data;
			w->lkey = rte_cpu_to_be_32(mlx5cq_mr_lookup(&rxq->mrc,
					addr, rxq->mprq_mp));
			w->addr = rte_cpu_to_be_64(addr);
			if (rte_mempool_get(rxq->mprq_mp,
					    (void **)&rxq->mprq_repl) != 0)
				rxq->mprq_repl = NULL;
			mlx5cq_mprq_buf_put(b);
		}
		pi++;
	}
	if (pi == rxq->pi)
		return;
	rxq->pi = pi;
	/* The WQEs before the doorbell record that announces them. */
	rte_io_wmb();
	rxq->dbrec[0] = rte_cpu_to_be_32(pi & 0xffff);
}

/* A copy of len bytes at src into m (a chain when scatter is on): 0, or
 * -1 (too long for one mbuf without scatter, or no mbuf for the chain).
 */
static int
mprq_copy(struct mlx5cq_rxq *rxq, struct rte_mbuf *m, const uint8_t *src,
	  uint32_t len)
{
	uint32_t room = m->buf_len - RTE_PKTMBUF_HEADROOM;
	struct rte_mbuf *prev = m, *seg;
	uint32_t n = RTE_MIN(len, room);

	if (len > room && !(rxq->offloads & RTE_ETH_RX_OFFLOAD_SCATTER))
		return -1;
	rte_memcpy(rte_pktmbuf_mtod(m, void *), src, n);
	m->data_len = (uint16_t)n;
	for (src += n, len -= n; len > 0; src += n, len -= n) {
		seg = rte_pktmbuf_alloc(rxq->mp);
		if (seg == NULL)
			return -1;
		seg->data_off = 0;
		n = RTE_MIN(len, (uint32_t)seg->buf_len);
		rte_memcpy(rte_pktmbuf_mtod(seg, void *), src, n);
		seg->data_len = (uint16_t)n;
		prev->next = seg;
		prev = seg;
		m->nb_segs++;
	}
	return 0;
}

/* Stride idx (strd strides) of WQE buffer b attached to m. */
static inline void
mprq_attach(struct mlx5cq_mprq_buf *b, struct rte_mbuf *m, uint32_t idx,
	    uint32_t span, uint8_t *addr, uint32_t len)
{
	uint8_t *start = addr - RTE_PKTMBUF_HEADROOM;

	__atomic_add_fetch(&b->refcnt, 1, __ATOMIC_RELAXED);
	rte_mbuf_ext_refcnt_set(&b->shinfo[idx], 1);
	rte_pktmbuf_attach_extbuf(m, start, rte_mempool_virt2iova(b) +
				  (uintptr_t)(start - (uint8_t *)b),
				  (uint16_t)span, &b->shinfo[idx]);
	m->data_off = RTE_PKTMBUF_HEADROOM;
	m->data_len = (uint16_t)len;
}

/*
 * A free mbuf of the queue's pool made a received one's start (as
 * rte_pktmbuf_alloc() would: a free mbuf has no next segment): data_off,
 * refcnt, nb_segs and port from the rearm template, no flags.
 */
static __rte_always_inline struct rte_mbuf *
mprq_mbuf(const struct mlx5cq_rxq *rxq, struct rte_mbuf *m)
{
	*(uint64_t *)((uintptr_t)m + MLX5CQ_RX_OFF_REARM) =
		rxq->mbuf_initializer;
	m->ol_flags = 0;
	return m;
}

/* The completion's offload fields into m. */
static inline void
mprq_fields(const struct mlx5cq_rxq *rxq, struct rte_mbuf *m,
	    const struct rte_mlx5cq_cpl *c, uint32_t len)
{
	uint16_t vlan = c->vlan_tci;

	m->ol_flags |= mlx5cq_rx_ol(rxq, c->hdr_type_etc, &vlan);
	m->packet_type =
		mlx5cq_rx_ptype_lut[MLX5CQ_RX_LUT_IDX(c->hdr_type_etc)];
	m->pkt_len = len;
	m->vlan_tci = vlan;
	m->hash.rss = c->rss_hash;
	m->port = rxq->port_id;
	if (rxq->ts_flag != 0)
		mlx5cq_rx_ts(rxq, m, c->timestamp);
	if (rxq->mark)
		mlx5cq_rx_mark(m, c->flow_tag);
}

/*
 * A packet copied whole into a free mbuf of the burst's take: the bytes,
 * then the received fields in four 8-byte stores (rearm template,
 * ol_flags, packet_type and pkt_len, data_len, vlan_tci and the hash),
 * as the cyclic route writes them (mlx5cq_rx_one()).
 */
static __rte_always_inline void
mprq_copy_one(const struct mlx5cq_rxq *rxq, struct rte_mbuf *m,
	      const struct rte_mlx5cq_cpl *c, const uint8_t *src, uint32_t len)
{
	uintptr_t b = (uintptr_t)m;
	uint16_t vlan = c->vlan_tci;
	uint64_t ol = mlx5cq_rx_ol(rxq, c->hdr_type_etc, &vlan);

	rte_memcpy((uint8_t *)m->buf_addr + RTE_PKTMBUF_HEADROOM, src, len);
	*(uint64_t *)(b + MLX5CQ_RX_OFF_REARM) = rxq->mbuf_initializer;
	*(uint64_t *)(b + MLX5CQ_RX_OFF_OL) = ol;
	*(uint64_t *)(b + MLX5CQ_RX_OFF_PTYPE) =
		mlx5cq_rx_ptype_lut[MLX5CQ_RX_LUT_IDX(c->hdr_type_etc)] |
		(uint64_t)len << 32;
	*(uint64_t *)(b + MLX5CQ_RX_OFF_DLEN) = len |
		(uint32_t)vlan << 16 | (uint64_t)c->rss_hash << 32;
	if (rxq->ts_flag != 0)
		mlx5cq_rx_ts(rxq, m, c->timestamp);
	if (rxq->mark)
		mlx5cq_rx_mark(m, c->flow_tag);
}

uint16_t
mlx5cq_rx_burst_mprq(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5cq_rxq *rxq = q;
	const uint32_t strd_n = 1u << rxq->log_strd_num;
	const uint32_t sz_log = rxq->log_strd_sz;
	uint32_t rq_ci = rxq->rq_ci, strd_ci = rxq->strd_ci;
	struct rte_mbuf *fresh[MLX5CQ_BURST_MAX];
	uint64_t bytes = 0;
	uint16_t k, i, out = 0, nf = 0, uf = 0;

	k = mlx5cq_rx_records(rxq, n);
	/* The burst's mbufs in one take (one per packet at most). */
	if (k != 0 && rte_mempool_get_bulk(rxq->mp, (void **)fresh, k) == 0)
		nf = k;
	for (i = 0; i < k; i++) {
		const struct rte_mlx5cq_cpl *c = &rxq->cpl[i];
		uint32_t bc = c->byte_cnt, len = MPRQ_LEN(bc);
		uint32_t strd = MPRQ_STRIDES(bc), idx = c->wqe_counter;
		struct mlx5cq_mprq_buf *b = rxq->bufs[rq_ci & rxq->mask];
		struct rte_mbuf *m;
		uint8_t *addr;

		if (unlikely(c->status != 0)) {
			/* The RQ is recovered: every WQE posted again. */
			rxq->st.errors++;
			rxq->in_error = 1;
			break;
		}
		if (strd == 0)
			strd = RTE_MAX((len + (1u << sz_log) - 1) >> sz_log,
				       1u);
		if (unlikely(idx != strd_ci || strd > strd_n - strd_ci)) {
			/* Not where the WQE's strides are: start over. */
			PMD_LOG(ERR, "port %u rxq %u: completion at stride %u"
				" (+%u), WQE %u has used %u of %u",
				rxq->port_id, rxq->idx, idx, strd, rq_ci,
				strd_ci, strd_n);
			rxq->st.errors++;
			rxq->in_error = 1;
			break;
		}
		strd_ci += strd;
		if (!(bc & MPRQ_FILLER)) {
			addr = b->data + (idx << sz_log);
			if (likely(uf < nf) && len <= rxq->buf_len &&
			    (len <= rxq->memcpy_len || rxq->mprq_repl == NULL ||
			     len + RTE_PKTMBUF_HEADROOM > strd << sz_log)) {
				/* Copied whole: the common small packet. */
				m = fresh[uf++];
				mprq_copy_one(rxq, m, c, addr, len);
				pkts[out++] = m;
				bytes += len;
				goto next;
			}
			m = likely(uf < nf) ? mprq_mbuf(rxq, fresh[uf++]) :
			    rte_pktmbuf_alloc(rxq->mp);
			if (unlikely(m == NULL)) {
				rxq->st.nombuf++;
			} else if (len > rxq->memcpy_len &&
				   rxq->mprq_repl != NULL &&
				   len + RTE_PKTMBUF_HEADROOM <=
				   strd << sz_log &&
				   strd << sz_log <= UINT16_MAX) {
				mprq_attach(b, m, idx, strd << sz_log, addr,
					    len);
			} else if (mprq_copy(rxq, m, addr, len) != 0) {
				rte_pktmbuf_free(m);
				rxq->st.errors++;
				m = NULL;
			}
			if (likely(m != NULL)) {
				mprq_fields(rxq, m, c, len);
				pkts[out++] = m;
				bytes += len;
			}
		}
next:
		if (strd_ci == strd_n) {
			/* The WQE is done. */
			rq_ci++;
			strd_ci = 0;
		}
	}
	if (uf < nf)
		rte_mempool_put_bulk(rxq->mp, (void **)&fresh[uf], nf - uf);
	rxq->rq_ci = rq_ci;
	rxq->strd_ci = strd_ci;
	if (rxq->pi != rq_ci + rxq->desc_n)
		mprq_repost(rxq);
	rxq->st.packets += out;
	rxq->st.bytes += bytes;
	if (unlikely(rxq->in_error))
		mlx5cq_rxq_recover(rxq);
	return out;
}
