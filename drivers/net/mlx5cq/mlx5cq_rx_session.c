/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * RX of compressed sessions (basic layout, HASH or CSUM mini-CQEs), read
 * in place across their arrays (rte_mlx5cq_session_open(),
 * rte_mlx5cq_session_mini()): everything but the length (and the hash in
 * HASH format) comes from the session's title, so the SIMD decode
 * computes the flags, packet type and VLAN of a session once (the
 * reference, per packet). A session is decoded ahead, up to
 * MLX5CQ_RX_AHEAD_MAX packets in one pass, into the fields of the mbufs
 * of the buffer ring, their lengths added up on the way (the byte
 * counter), and consumed from the CQ; the bursts hand the packets up and
 * replace their buffers (rx_hand_up(), as for plain CQEs). With the SIMD
 * stores (x86 and AArch64, rx_vec_en=1) each pair of mini-CQEs becomes
 * the fields of two mbufs by two byte shuffles and four 16-byte stores
 * (mlx5cq_rx_vec.h); with rx_vec_en=0, elsewhere, or when a chunk was
 * added to the mempool after the queue's setup, each mini-CQE by the
 * reference's four 8-byte stores (mlx5cq_rx_fields()), which the RX tests
 * compare with.
 *
 * Mini-CQE (8 bytes, mlx5_prm.h struct mlx5_mini_cqe8): HASH: rx hash
 * result (bytes 0..3, big endian), byte count (4..7); CSUM: checksum
 * (0..1), WQE counter (2..3), byte count (4..7). The hash of a CSUM
 * session's packets is the title's, as the record path gives it.
 */

#include "mlx5cq_rx_cqe.h"

#ifdef MLX5CQ_RX_VEC
/*
 * Shuffles of two mini-CQEs (16 bytes) into the second 16-byte half of
 * an mbuf's RX fields: packet_type (0..3, from the title), pkt_len
 * (4..7, byte count swapped), data_len (8..9, its low half), vlan_tci
 * (10..11, from the title), hash.rss (12..15: HASH from the mini-CQE,
 * CSUM from the title). -1 zeroes the byte.
 */
static __rte_always_inline mlx5cq_v128
rx_session_shuf(int o, int h)
{
	const int b = o + RTE_MLX5CQ_MINI_BYTE_CNT;
	const int r = o + RTE_MLX5CQ_MINI_RX_HASH;

	return MLX5CQ_V128_BYTES(-1, -1, -1, -1, b + 3, b + 2, b + 1, b,
				 b + 3, b + 2, -1, -1, h ? r + 3 : -1,
				 h ? r + 2 : -1, h ? r + 1 : -1, h ? r : -1);
}

static __rte_always_inline void
rx_session_store(struct rte_mbuf *mb, mlx5cq_v128 rearm, mlx5cq_v128 fields)
{
	uintptr_t b = (uintptr_t)mb;

	mlx5cq_v128_store(b + MLX5CQ_RX_OFF_REARM, rearm);
	mlx5cq_v128_store(b + MLX5CQ_RX_OFF_PTYPE, fields);
}

/*
 * Two mini-CQEs (16 bytes at m) into mbufs b0 and b1; their pkt_len
 * lanes added to *len. The fields are summed after the title's part is
 * or-ed in: its pkt_len lane (fix, lane 1) is zero, and each shuffle's
 * result is then used once, with no register copy for SSE's two-operand
 * instructions (two fewer a pair).
 */
static __rte_always_inline void
rx_session_pair(volatile const uint8_t *m, struct rte_mbuf *b0,
	    struct rte_mbuf *b1, mlx5cq_v128 rearm, mlx5cq_v128 fix,
	    mlx5cq_v128 sh0, mlx5cq_v128 sh1, mlx5cq_v128 *len)
{
	const mlx5cq_v128 v = mlx5cq_v128_load(m);
	const mlx5cq_v128 f0 = mlx5cq_v128_or(mlx5cq_v128_shuf(v, sh0), fix);
	const mlx5cq_v128 f1 = mlx5cq_v128_or(mlx5cq_v128_shuf(v, sh1), fix);

	*len = mlx5cq_v128_add32(mlx5cq_v128_add32(*len, f0), f1);
	rx_session_store(b0, rearm, f0);
	rx_session_store(b1, rearm, f1);
}

/* A whole array (eight mini-CQEs at m) into the mbufs b[0..7]. */
static __rte_always_inline void
rx_session_array(volatile const uint8_t *m, struct rte_mbuf *const *b,
	     mlx5cq_v128 rearm, mlx5cq_v128 fix, mlx5cq_v128 sh0,
	     mlx5cq_v128 sh1, mlx5cq_v128 *len)
{
	/* Written out: GCC kept a loop of four (three more instructions a
	 * pair).
	 */
	rx_session_pair(m, b[0], b[1], rearm, fix, sh0, sh1, len);
	rx_session_pair(m + 16, b[2], b[3], rearm, fix, sh0, sh1, len);
	rx_session_pair(m + 32, b[4], b[5], rearm, fix, sh0, sh1, len);
	rx_session_pair(m + 48, b[6], b[7], rearm, fix, sh0, sh1, len);
}

/*
 * Decode k mini-CQEs of session s from position pos on into the mbufs of
 * WQEs rq_ci.. (their fields only: the mbufs stay in the buffer ring until
 * handed up), an array at a time (rte_mlx5cq_session_mini()). Returns the
 * sum of their lengths (pkt_len lanes added as they are built).
 */
static __rte_always_inline uint32_t
rx_session_decode_vec(struct mlx5cq_rxq *rxq, const struct rte_mlx5cq_session *s,
		  uint32_t pos, uint32_t k, uint32_t rq_ci, int hash)
{
	const struct rte_mlx5cq_cpl *t = s->title;
	const struct rte_mlx5cq *cq = rxq->cq;
	struct rte_mbuf **const elts = rxq->elts;
	const uint32_t mask = rxq->mask;
	uint16_t vlan = t->vlan_tci;
	const uint64_t ol = mlx5cq_rx_ol(rxq, t->hdr_type_etc, &vlan);
	const mlx5cq_v128 rearm = mlx5cq_v128_set64(ol,
						    rxq->mbuf_initializer);
	/* Lane 1 (pkt_len) zero: rx_session_pair() sums after the or. */
	const mlx5cq_v128 fix = mlx5cq_v128_set32(mlx5cq_rx_ptype_lut
				[MLX5CQ_RX_LUT_IDX(t->hdr_type_etc)], 0,
				(uint32_t)vlan << 16,
				hash ? 0 : t->rss_hash);
	const mlx5cq_v128 sh0 = rx_session_shuf(0, hash);
	const mlx5cq_v128 sh1 = rx_session_shuf(RTE_MLX5CQ_MINI_SIZE, hash);
	mlx5cq_v128 len = mlx5cq_v128_zero();
	uint32_t i = 0;

	while (i < k) {
		/* The array holding position pos + i, and what is left of it. */
		uint32_t run;
		uint32_t na = RTE_MIN(k - i, mask + 1 - ((rq_ci + i) & mask)) /
			      RTE_MLX5CQ_BASIC_MINIS_PER_ARRAY;

		if ((pos + i) % RTE_MLX5CQ_BASIC_MINIS_PER_ARRAY == 0 &&
		    pos + i >= RTE_MLX5CQ_BASIC_MINIS_PER_ARRAY && na > 1) {
			/* Whole arrays into consecutive buffers: a pointer
			 * walk over both, as far as neither ring wraps.
			 */
			size_t st;
			volatile const struct rte_mlx5cq_mini *a0 =
				rte_mlx5cq_session_mini(cq, s, pos + i, NULL);
			volatile const uint8_t *m = rte_mlx5cq_mini_bytes(a0);
			struct rte_mbuf *const *b = &elts[(rq_ci + i) & mask];

			na = rte_mlx5cq_session_arrays(cq, s, pos + i, na, &st);
			i += na * RTE_MLX5CQ_BASIC_MINIS_PER_ARRAY;
			for (; na != 0; na--, m += st,
			     b += RTE_MLX5CQ_BASIC_MINIS_PER_ARRAY)
				rx_session_array(m, b, rearm, fix, sh0, sh1,
						 &len);
			continue;
		}
		volatile const struct rte_mlx5cq_mini *mini =
			rte_mlx5cq_session_mini(cq, s, pos + i, &run);
		volatile const uint8_t *m = rte_mlx5cq_mini_bytes(mini);
		const uint32_t e = RTE_MIN(k - i, run) + i;
		const uint32_t i_0 = i;

		if (e - i == RTE_MLX5CQ_BASIC_MINIS_PER_ARRAY &&
		    ((rq_ci + i) & mask) + 8 <= mask + 1) {
			/* A whole array into eight consecutive buffers. */
			rx_session_array(m, &elts[(rq_ci + i) & mask], rearm, fix,
				     sh0, sh1, &len);
			i = e;
			continue;
		}
		for (; i + 2 <= e; i += 2)
			rx_session_pair(m + 8u * (i - i_0),
				    elts[(rq_ci + i) & mask],
				    elts[(rq_ci + i + 1) & mask], rearm, fix,
				    sh0, sh1, &len);
		if (i < e) {
			/* The last one alone: 8 bytes, never past the array. */
			const mlx5cq_v128 v =
				mlx5cq_v128_load8(m + 8u * (i - i_0));
			const mlx5cq_v128 f0 = mlx5cq_v128_shuf(v, sh0);

			len = mlx5cq_v128_add32(len, f0);
			rx_session_store(elts[(rq_ci + i) & mask], rearm,
				     mlx5cq_v128_or(f0, fix));
			i++;
		}
	}
	/* Lane 1: pkt_len; at most MLX5CQ_RX_AHEAD_MAX of 64 KiB. */
	return mlx5cq_v128_lane32(len, 1);
}

#endif

/*
 * The reference: k mini-CQEs of session s from position pos on into the
 * mbufs of WQEs rq_ci.., each by four 8-byte stores (mlx5cq_rx_fields()).
 * Returns the sum of their lengths.
 */
static uint32_t
rx_session_decode_ref(struct mlx5cq_rxq *rxq,
		      const struct rte_mlx5cq_session *s, uint32_t pos,
		      uint32_t k, uint32_t rq_ci)
{
	const struct rte_mlx5cq_cpl *t = s->title;
	const int hash = s->fmt == RTE_MLX5CQ_MINI_FMT_HASH;
	uint32_t i, b = 0;

	for (i = 0; i < k; i++) {
		volatile const struct rte_mlx5cq_mini *m =
			rte_mlx5cq_session_mini(rxq->cq, s, pos + i, NULL);
		const uint32_t len = rte_mlx5cq_mini_byte_cnt(m);

		mlx5cq_rx_fields(rxq, rxq->elts[(rq_ci + i) & rxq->mask], len,
				 t->hdr_type_etc, t->vlan_tci,
				 hash ? rte_mlx5cq_mini_rx_hash(m) :
					t->rss_hash);
		b += len;
	}
	return b;
}

/*
 * k mini-CQEs from position pos on into the mbufs of WQEs rq_ci..: the
 * SIMD decode for the session's format (vec), or the reference.
 */
static __rte_always_inline uint32_t
rx_session_decode(struct mlx5cq_rxq *rxq, const struct rte_mlx5cq_session *s,
		  uint32_t pos, uint32_t k, uint32_t rq_ci, int vec)
{
	if (k == 0)
		return 0;
#ifdef MLX5CQ_RX_VEC
	if (vec) {
		if (s->fmt == RTE_MLX5CQ_MINI_FMT_HASH)
			return rx_session_decode_vec(rxq, s, pos, k, rq_ci, 1);
		return rx_session_decode_vec(rxq, s, pos, k, rq_ci, 0);
	}
#else
	RTE_SET_USED(vec);
#endif
	return rx_session_decode_ref(rxq, s, pos, k, rq_ci);
}

/* mlx5cq_rx_session_ahead*(), with the SIMD decode (vec) or the reference. */
static __rte_always_inline uint32_t
rx_session_ahead(struct mlx5cq_rxq *rxq, uint32_t rq_ci, uint16_t want,
		 uint64_t *len, int vec)
{
	struct rte_mlx5cq_session s;
	uint32_t k, now;

	k = rte_mlx5cq_session_open(rxq->cq, &s);
	if (k == 0)
		return 0;
	k = RTE_MIN(k, (uint32_t)MLX5CQ_RX_AHEAD_MAX);
	/*
	 * No prefetch of the mbuf headers: the stores wait for their lines
	 * in the store queue, which already overlaps the misses; a prefetch
	 * of them, all at once or sliding one array ahead, adds only
	 * instructions.
	 */
	/* What this burst takes, then the rest: a length sum each. */
	now = RTE_MIN(k, (uint32_t)want);
	*len = rx_session_decode(rxq, &s, s.pos, now, rq_ci, vec);
	rxq->session_ahead_len = rx_session_decode(rxq, &s, s.pos + now,
						   k - now, rq_ci + now, vec);
	rte_mlx5cq_session_advance(rxq->cq, (uint16_t)k);
	return k;
}

#ifdef MLX5CQ_RX_VEC
uint32_t
mlx5cq_rx_session_ahead_vec(struct mlx5cq_rxq *rxq, uint32_t rq_ci,
			    uint16_t want, uint64_t *len)
{
	return rx_session_ahead(rxq, rq_ci, want, len, 1);
}
#endif

uint32_t
mlx5cq_rx_session_ahead(struct mlx5cq_rxq *rxq, uint32_t rq_ci, uint16_t want,
			uint64_t *len)
{
	return rx_session_ahead(rxq, rq_ci, want, len, 0);
}
