/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * What the RX burst files share: the offload tables, the mbuf fields a
 * received packet gets, one CQE's worth of hand-up, the replacements.
 */

#ifndef MLX5CQ_RX_H_
#define MLX5CQ_RX_H_

#include <assert.h>
#include <stddef.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "mlx5cq_ethdev.h"

/* Table index: bits 10:2 of hdr_type_etc (mlx5cq_rx_flags.c). */
#define MLX5CQ_RX_LUT_N 512
#define MLX5CQ_RX_LUT_IDX(hte) (((hte) >> 2) & (MLX5CQ_RX_LUT_N - 1))

/* Packet type and checksum flags by table index. */
extern uint32_t mlx5cq_rx_ptype_lut[MLX5CQ_RX_LUT_N];
extern uint64_t mlx5cq_rx_csum_lut[MLX5CQ_RX_LUT_N];

/*
 * What the RX burst writes per mbuf, from data_off on: 8 bytes of rearm
 * template (data_off, refcnt, nb_segs, port), 8 bytes of ol_flags, then
 * packet_type, pkt_len, data_len, vlan_tci, hash.rss: two 16-byte
 * halves (16-byte aligned in a cache-aligned mbuf), or four 8-byte words.
 */
#define MLX5CQ_RX_OFF_REARM offsetof(struct rte_mbuf, data_off)
#define MLX5CQ_RX_OFF_OL offsetof(struct rte_mbuf, ol_flags)
#define MLX5CQ_RX_OFF_PTYPE offsetof(struct rte_mbuf, packet_type)
#define MLX5CQ_RX_OFF_DLEN offsetof(struct rte_mbuf, data_len)
static_assert(MLX5CQ_RX_OFF_OL - MLX5CQ_RX_OFF_REARM == 8, "ol_flags");
static_assert(MLX5CQ_RX_OFF_PTYPE - MLX5CQ_RX_OFF_OL == 8, "packet_type");
static_assert(offsetof(struct rte_mbuf, pkt_len) ==
	      MLX5CQ_RX_OFF_PTYPE + 4, "pkt_len");
static_assert(MLX5CQ_RX_OFF_DLEN - MLX5CQ_RX_OFF_PTYPE == 8, "data_len");
static_assert(offsetof(struct rte_mbuf, vlan_tci) ==
	      MLX5CQ_RX_OFF_DLEN + 2, "vlan_tci");
static_assert(offsetof(struct rte_mbuf, hash.rss) ==
	      MLX5CQ_RX_OFF_DLEN + 4, "hash.rss");
static_assert(MLX5CQ_RX_OFF_REARM % 16 == 0, "16-byte stores");

/* ol_flags of a packet: checksum table, RSS flag, VLAN (*vlan cleared
 * when the tag was not stripped).
 */
static __rte_always_inline uint64_t
mlx5cq_rx_ol(const struct mlx5cq_rxq *rxq, uint16_t hte, uint16_t *vlan)
{
	uint64_t ol = mlx5cq_rx_csum_lut[MLX5CQ_RX_LUT_IDX(hte)] |
		      rxq->ol_rss;

	if ((hte & RTE_MLX5CQ_HDR_VLAN_STRIPPED) && rxq->vlan_strip)
		ol |= RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	else
		*vlan = 0;
	return ol;
}

/* Post r in WQE idx (the WQE's lkey and byte count stay). */
static __rte_always_inline void
mlx5cq_rx_post(struct mlx5cq_rxq *rxq, uint32_t idx, struct rte_mbuf *r)
{
	rxq->elts[idx] = r;
	rxq->wqes[idx].addr = rte_cpu_to_be_64((uintptr_t)r->buf_addr +
					       RTE_PKTMBUF_HEADROOM);
}

/* Post r in WQE idx with its lkey *lk (NULL: the WQE's lkey stays). */
static __rte_always_inline void
mlx5cq_rx_post_lk(struct mlx5cq_rxq *rxq, uint32_t idx, struct rte_mbuf *r,
		  const uint32_t *lk)
{
	if (lk != NULL)
		rxq->wqes[idx].lkey = rte_cpu_to_be_32(*lk);
	mlx5cq_rx_post(rxq, idx, r);
}

/*
 * Whether the SIMD stores may take k packets with replacement lkeys lk
 * (NULL: one region): every lkey known (a miss goes per packet, which
 * drops that frame).
 */
static __rte_always_inline int
mlx5cq_rx_vec_ok(const struct mlx5cq_rxq *rxq, const uint32_t *lk,
		 uint16_t k)
{
	uint16_t i;

	if (!rxq->rx_vec)
		return 0;
	if (likely(lk == NULL))
		return 1;
	for (i = 0; i < k; i++)
		if (unlikely(lk[i] == UINT32_MAX))
			return 0;
	return 1;
}

/*
 * Hand up the buffer of WQE idx as a packet of len bytes with the given
 * header-type bits, VLAN and hash; put r in its place (lk: r's lkey
 * when the mempool spans several regions, NULL when the WQE's lkey
 * stays). Returns 0, or -1 when r's memory has no lkey (a mempool
 * populated after the queue was set up and not registrable): r is
 * returned to its pool, the buffer stays posted and the packet is dropped
 * (counted as an error).
 */
static __rte_always_inline int
mlx5cq_rx_one(struct mlx5cq_rxq *rxq, uint32_t idx, struct rte_mbuf *m,
	      struct rte_mbuf *r, const uint32_t *lk, uint32_t len,
	      uint16_t hte, uint16_t vlan, uint32_t hash)
{
	uintptr_t b = (uintptr_t)m;
	uint64_t ol;

	if (unlikely(lk != NULL)) {
		if (unlikely(*lk == UINT32_MAX)) {
			rte_mempool_put(r->pool, r);
			rxq->st.errors++;
			return -1;
		}
		rxq->wqes[idx].lkey = rte_cpu_to_be_32(*lk);
	}
	ol = mlx5cq_rx_ol(rxq, hte, &vlan);
	/* Four 8-byte stores, built in registers (little endian). */
	*(uint64_t *)(b + MLX5CQ_RX_OFF_REARM) = rxq->mbuf_initializer;
	*(uint64_t *)(b + MLX5CQ_RX_OFF_OL) = ol;
	*(uint64_t *)(b + MLX5CQ_RX_OFF_PTYPE) =
		mlx5cq_rx_ptype_lut[MLX5CQ_RX_LUT_IDX(hte)] |
		(uint64_t)len << 32;
	*(uint64_t *)(b + MLX5CQ_RX_OFF_DLEN) = (len & 0xffff) |
		(uint32_t)vlan << 16 | (uint64_t)hash << 32;
	mlx5cq_rx_post(rxq, idx, r);
	return 0;
}

/*
 * Hand up the buffers of the k mini-CQEs at m (one array of an open
 * compressed session whose title is t, HASH or CSUM format) from WQE
 * rq_ci on, with replacements rep[0..k) (lk: their lkeys, or NULL);
 * the packets go to pkts. Returns the number handed up; *bytes grows by
 * their lengths. mlx5cq_rx_zip.c.
 */
uint16_t mlx5cq_rx_minis(struct mlx5cq_rxq *rxq,
			 const struct rte_mlx5cq_cpl *t,
			 volatile const uint8_t *m, uint16_t k,
			 uint32_t rq_ci, struct rte_mbuf **rep,
			 const uint32_t *lk, struct rte_mbuf **pkts,
			 uint64_t *bytes);

#endif /* MLX5CQ_RX_H_ */
