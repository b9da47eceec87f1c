/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * CQE to mbuf, for plain receive CQEs: the fields of one packet written
 * from a CQE's typed view (rte_mlx5cq_view.h), per packet with four
 * 8-byte stores (mlx5cq_rx_fields(), any architecture, the reference;
 * with the replacement in the same pass, mlx5cq_rx_one(), the records'
 * writer) or with byte shuffles and two 16-byte stores
 * (mlx5cq_rx_vec.h). The burst's plain CQEs are written into the mbufs
 * of the buffer ring by rx_plain_write(), then handed up and replaced by
 * rx_hand_up() (mlx5cq_rx_refill.h), as the packets of a session are.
 * Sessions are mlx5cq_rx_session.c's; the records mlx5cq_rx_rec.c's; the
 * burst's control is mlx5cq_rx.c's.
 */
#ifndef MLX5CQ_RX_CQE_H_
#define MLX5CQ_RX_CQE_H_

#include "mlx5cq_rx_refill.h"

/*
 * The fields of mbuf m for a packet of len bytes with the given
 * header-type bits, VLAN and hash: four 8-byte stores, built in registers
 * (little endian).
 */
static __rte_always_inline void
mlx5cq_rx_fields(const struct mlx5cq_rxq *rxq, struct rte_mbuf *m,
		 uint32_t len, uint16_t hte, uint16_t vlan, uint32_t hash)
{
	uintptr_t b = (uintptr_t)m;
	uint64_t ol = mlx5cq_rx_ol(rxq, hte, &vlan);

	*(uint64_t *)(b + MLX5CQ_RX_OFF_REARM) = rxq->mbuf_initializer;
	*(uint64_t *)(b + MLX5CQ_RX_OFF_OL) = ol;
	*(uint64_t *)(b + MLX5CQ_RX_OFF_PTYPE) =
		mlx5cq_rx_ptype_lut[MLX5CQ_RX_LUT_IDX(hte)] |
		(uint64_t)len << 32;
	*(uint64_t *)(b + MLX5CQ_RX_OFF_DLEN) = (len & 0xffff) |
		(uint32_t)vlan << 16 | (uint64_t)hash << 32;
}

/*
 * Hand up the buffer of WQE idx as a packet of len bytes with the given
 * header-type bits, VLAN and hash; put r in its place (with its lkey when
 * the mempool spans several regions). Returns 0, or -1 when r's memory
 * has no lkey (a chunk added to the mempool after the queue was set up
 * and not registrable): r is returned to its pool, the buffer stays
 * posted and the packet is dropped (counted as an error).
 */
static __rte_always_inline int
mlx5cq_rx_one(struct mlx5cq_rxq *rxq, uint32_t idx, struct rte_mbuf *m,
	      struct rte_mbuf *r, uint32_t len, uint16_t hte, uint16_t vlan,
	      uint32_t hash)
{
	uintptr_t addr = (uintptr_t)r->buf_addr + RTE_PKTMBUF_HEADROOM;
	uint32_t lk = 0;

	if (unlikely(rxq->mrt != NULL)) {
		const struct mlx5cq_rx_lkc c = mlx5cq_rx_lkc(rxq);

		lk = mlx5cq_rx_rep_lkey(rxq, &c, addr, r->pool);
		if (unlikely(lk == UINT32_MAX)) {
			rte_mempool_put(r->pool, r);
			rxq->st.errors++;
			return -1;
		}
	}
	mlx5cq_rx_fields(rxq, m, len, hte, vlan, hash);
	rxq->elts[idx] = r;
	if (unlikely(rxq->mrt != NULL))
		rxq->wqes[idx].lkey = rte_cpu_to_be_32(lk);
	rxq->wqes[idx].addr = rte_cpu_to_be_64(addr);
	return 0;
}

#ifdef MLX5CQ_RX_VEC
/* What a burst's CQEs of one header-type value share (most of a stream). */
struct rx_hte_memo {
	uint32_t hte; /* UINT32_MAX: none yet. */
	uint32_t ptype;
	int vlan;
	mlx5cq_v128 rearm; /* Template + ol_flags. */
};

/*
 * One plain CQE into mbuf m with byte shuffles (mlx5cq_rx_vec.h): bytes
 * 32..47 of the CQE give pkt_len and data_len (byte count, 44..47), bytes
 * 16..31 the VLAN (30..31), all swapped; the hash (12..15) and the
 * packet type are inserted; two aligned 16-byte stores (template + flags,
 * RX fields), the second returned. The flags, packet type and template of the
 * previous CQE's header-type value are reused: one compare per CQE in a
 * stream of one kind.
 */
static __rte_always_inline mlx5cq_v128
rx_plain_vec_memo(const struct mlx5cq_rxq *rxq, struct rx_hte_memo *mm,
		  volatile const struct rte_mlx5cq_cqe *c, struct rte_mbuf *m,
		  mlx5cq_v128 sh_len, mlx5cq_v128 sh_vlan)
{
	volatile const uint8_t *e = rte_mlx5cq_cqe_bytes(c);
	const uint16_t hte = rte_mlx5cq_cqe_hdr_type_etc(c);
	const mlx5cq_v128 hi = mlx5cq_v128_load(e + 32);
	mlx5cq_v128 f = mlx5cq_v128_shuf(hi, sh_len);
	uintptr_t b = (uintptr_t)m;

	if (unlikely(hte != mm->hte)) {
		const unsigned int t = MLX5CQ_RX_LUT_IDX(hte);
		uint64_t ol = mlx5cq_rx_csum_lut[t] | rxq->ol_rss;

		mm->vlan = (hte & RTE_MLX5CQ_HDR_VLAN_STRIPPED) &&
			   rxq->vlan_strip;
		if (mm->vlan)
			ol |= RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
		mm->hte = hte;
		mm->ptype = mlx5cq_rx_ptype_lut[t];
		mm->rearm = mlx5cq_v128_set64(ol, rxq->mbuf_initializer);
	}
	if (mm->vlan) {
		const mlx5cq_v128 mid = mlx5cq_v128_load(e + 16);

		f = mlx5cq_v128_or(f, mlx5cq_v128_shuf(mid, sh_vlan));
	}
	f = mlx5cq_v128_ins32(f, mm->ptype, 0);
	f = mlx5cq_v128_ins32(f, rte_mlx5cq_cqe_rx_hash(c), 3);
	mlx5cq_v128_store(b + MLX5CQ_RX_OFF_REARM, mm->rearm);
	mlx5cq_v128_store(b + MLX5CQ_RX_OFF_PTYPE, f);
	return f;
}
#endif

/*
 * The fields of the k plain CQEs found by rte_mlx5cq_peek() into the mbufs
 * of WQEs rq_ci.. (the mbufs stay in the buffer ring until rx_hand_up()
 * takes them): byte shuffles and 16-byte stores where the SIMD layer
 * exists and rx_vec_en=1 (mlx5cq_rx_vec_ok()), else four 8-byte stores a
 * packet (mlx5cq_rx_fields(), the reference). Returns the sum of their
 * lengths.
 */
static __rte_always_inline uint64_t
rx_plain_write(struct mlx5cq_rxq *rxq, uint32_t rq_ci, uint16_t k)
{
	const struct rte_mlx5cq *cq = rxq->cq;
	/* Consecutive entries: rte_mlx5cq_peek*() stop at the ring end. */
	volatile const struct rte_mlx5cq_cqe *c = rte_mlx5cq_peek_cqe(cq, 0);
	const size_t st = (size_t)1 << cq->stride_shift;
	struct rte_mbuf *const *const elts = rxq->elts;
	const uint32_t mask = rxq->mask;
	uint64_t b = 0;
	uint16_t i;

#define RX_PLAIN_NEXT(c) ((volatile const struct rte_mlx5cq_cqe *) \
			  ((uintptr_t)(c) + st))
#ifdef MLX5CQ_RX_VEC
	if (likely(mlx5cq_rx_vec_ok(rxq))) {
		/* In the RX fields half: pkt_len 4..7 and data_len 8..9 from
		 * byte count (44..47 = hi 12..15), vlan_tci 10..11 from
		 * 30..31 (mid 14..15).
		 */
		const mlx5cq_v128 sh_len = MLX5CQ_V128_BYTES(-1, -1, -1, -1,
			15, 14, 13, 12, 15, 14, -1, -1, -1, -1, -1, -1);
		const mlx5cq_v128 sh_vlan = MLX5CQ_V128_BYTES(-1, -1, -1, -1,
			-1, -1, -1, -1, -1, -1, 15, 14, -1, -1, -1, -1);
		const uint32_t idx = rq_ci & mask;
		struct rx_hte_memo memo = { .hte = UINT32_MAX };
		mlx5cq_v128 len = mlx5cq_v128_zero();

		if (likely(idx + k <= rxq->desc_n)) {
			struct rte_mbuf *const *const e = &elts[idx];

			for (i = 0; i < k; i++, c = RX_PLAIN_NEXT(c))
				len = mlx5cq_v128_add32(len,
					rx_plain_vec_memo(rxq, &memo, c, e[i],
							  sh_len, sh_vlan));
		} else {
			for (i = 0; i < k; i++, c = RX_PLAIN_NEXT(c))
				len = mlx5cq_v128_add32(len,
					rx_plain_vec_memo(rxq, &memo, c,
						elts[(rq_ci + i) & mask],
						sh_len, sh_vlan));
		}
		/* Lane 1 summed pkt_len: at most MLX5CQ_BURST_MAX of 64 KiB. */
		return mlx5cq_v128_lane32(len, 1);
	}
#endif
	for (i = 0; i < k; i++, c = RX_PLAIN_NEXT(c)) {
		const uint32_t len = rte_mlx5cq_cqe_byte_cnt(c);

		mlx5cq_rx_fields(rxq, elts[(rq_ci + i) & mask], len,
				 rte_mlx5cq_cqe_hdr_type_etc(c),
				 rte_mlx5cq_cqe_vlan_info(c),
				 rte_mlx5cq_cqe_rx_hash(c));
		b += len;
	}
#undef RX_PLAIN_NEXT
	return b;
}

/*
 * The rest of an mlx5cq_rx_burst() burst, at most n completions, through
 * the records of rte_mlx5cq_poll_burst(): error CQEs (the buffer stays
 * posted; the RQ went to ERR and is recovered at the end of the burst),
 * sessions the decode-ahead does not take, the rest, each written by
 * mlx5cq_rx_one() with a replacement from r. *rq_ci moves past every
 * record, pkts gets the packets, *bytes grows by their lengths. Returns
 * how many packets. mlx5cq_rx_rec.c.
 */
uint16_t mlx5cq_rx_rec_rest(struct mlx5cq_rxq *rxq, uint32_t *rq_ci,
			    uint16_t n, struct rx_reps *r,
			    struct rte_mbuf **pkts, uint64_t *bytes);

#endif /* MLX5CQ_RX_CQE_H_ */
