/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * RX burst: completions from the queue's mlx5cq CQ; each names the RQ WQE
 * it consumed (wqe_counter), whose buffer is handed up with the offload
 * results of the CQE and replaced by a fresh mbuf in the same WQE; the RQ
 * doorbell record (word 0, big endian, 16 bits) is updated once per burst
 * after a write barrier.
 */

#include <rte_io.h>
#include <rte_mbuf.h>

#include "mlx5cq_ethdev.h"

static __rte_always_inline void
mlx5cq_rx_wqe(struct mlx5cq_rxq *rxq, uint32_t idx, struct rte_mbuf *m)
{
	volatile struct mlx5_wqe_dseg_rx *w = &rxq->wqes[idx];
	uintptr_t addr = rte_pktmbuf_mtod(m, uintptr_t);

	w->byte_count = rte_cpu_to_be_32(rte_pktmbuf_tailroom(m) +
					 m->data_len);
	w->lkey = rte_cpu_to_be_32(mlx5cq_mr_lookup(&rxq->mrc, addr, m->pool));
	w->addr = rte_cpu_to_be_64(addr);
}

/* Write every WQE from the buffer ring and post them all (queue start). */
void
mlx5cq_rxq_post_all(struct mlx5cq_rxq *rxq)
{
	uint32_t i;

	for (i = 0; i < rxq->desc_n; i++) {
		struct rte_mbuf *m = rxq->elts[i];

		rte_pktmbuf_reset(m);
		mlx5cq_rx_wqe(rxq, i, m);
	}
	rxq->pi = rxq->desc_n;
	rte_io_wmb();
	rxq->dbrec[0] = rte_cpu_to_be_32(rxq->pi & 0xffff);
}

static __rte_always_inline void
mlx5cq_rx_offloads(const struct mlx5cq_rxq *rxq,
		   const struct rte_mlx5cq_cpl *c, struct rte_mbuf *m)
{
	uint16_t hte = c->hdr_type_etc;
	uint32_t l3 = (hte >> 2) & 3;
	uint32_t l4 = (hte >> 4) & 7;
	uint32_t ptype = RTE_PTYPE_L2_ETHER;
	uint64_t ol = 0;

	if (l3 == 2) {
		ptype |= RTE_PTYPE_L3_IPV4_EXT_UNKNOWN;
		ol |= (hte & RTE_MLX5CQ_HDR_L3_OK) ?
		      RTE_MBUF_F_RX_IP_CKSUM_GOOD : RTE_MBUF_F_RX_IP_CKSUM_BAD;
	} else if (l3 == 1) {
		ptype |= RTE_PTYPE_L3_IPV6_EXT_UNKNOWN;
	}
	if (l3 != 0 && l4 != 0) {
		if (l4 == 2)
			ptype |= RTE_PTYPE_L4_UDP;
		else
			ptype |= RTE_PTYPE_L4_TCP;
		ol |= (hte & RTE_MLX5CQ_HDR_L4_OK) ?
		      RTE_MBUF_F_RX_L4_CKSUM_GOOD : RTE_MBUF_F_RX_L4_CKSUM_BAD;
	}
	if ((hte & RTE_MLX5CQ_HDR_VLAN_STRIPPED) &&
	    (rxq->offloads & RTE_ETH_RX_OFFLOAD_VLAN_STRIP)) {
		m->vlan_tci = c->vlan_tci;
		ol |= RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	}
	if (rxq->offloads & RTE_ETH_RX_OFFLOAD_RSS_HASH) {
		m->hash.rss = c->rss_hash;
		ol |= RTE_MBUF_F_RX_RSS_HASH;
	}
	m->packet_type = ptype;
	m->ol_flags = ol;
}

uint16_t
mlx5cq_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5cq_rxq *rxq = q;
	struct rte_mbuf *rep[MLX5CQ_BURST_MAX];
	uint16_t got, i, out = 0, nrep;
	uint64_t bytes = 0;

	if (unlikely(!rxq->started))
		return 0;
	if (n > MLX5CQ_BURST_MAX)
		n = MLX5CQ_BURST_MAX;
	got = rte_mlx5cq_poll_burst(rxq->cq, rxq->cpl, n);
	if (got == 0)
		return 0;
	nrep = got;
	if (unlikely(rte_pktmbuf_alloc_bulk(rxq->mp, rep, got) != 0))
		nrep = 0;
	for (i = 0; i < got; i++) {
		const struct rte_mlx5cq_cpl *c = &rxq->cpl[i];
		uint32_t idx = c->wqe_counter & rxq->mask;
		struct rte_mbuf *m = rxq->elts[idx];

		if (unlikely(c->status != 0)) {
			/* The buffer stays posted; the RQ went to ERR. */
			rxq->st.errors++;
			rxq->in_error = 1;
		} else if (unlikely(nrep == 0)) {
			rxq->st.nombuf++;
		} else {
			struct rte_mbuf *r = rep[--nrep];

			m->data_len = c->byte_cnt;
			m->pkt_len = c->byte_cnt;
			m->port = rxq->port_id;
			mlx5cq_rx_offloads(rxq, c, m);
			bytes += c->byte_cnt;
			pkts[out++] = m;
			rxq->elts[idx] = r;
			mlx5cq_rx_wqe(rxq, idx, r);
		}
	}
	while (nrep)
		rte_pktmbuf_free(rep[--nrep]);
	rxq->pi += got;
	rte_io_wmb();
	rxq->dbrec[0] = rte_cpu_to_be_32(rxq->pi & 0xffff);
	rxq->st.packets += out;
	rxq->st.bytes += bytes;
	if (unlikely(rxq->in_error))
		mlx5cq_rxq_recover(rxq);
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

const uint32_t *
mlx5cq_supported_ptypes(struct rte_eth_dev *dev)
{
	static const uint32_t ptypes[] = {
		RTE_PTYPE_L2_ETHER,
		RTE_PTYPE_L3_IPV4_EXT_UNKNOWN,
		RTE_PTYPE_L3_IPV6_EXT_UNKNOWN,
		RTE_PTYPE_L4_TCP,
		RTE_PTYPE_L4_UDP,
		RTE_PTYPE_UNKNOWN,
	};

	RTE_SET_USED(dev);
	return ptypes;
}
