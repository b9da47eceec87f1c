/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef RTE_MLX5CQ_VIEW_H_
#define RTE_MLX5CQ_VIEW_H_

/**
 * @file
 * Typed read views of the completion formats of rte_mlx5cq_prm.h: a 64 B
 * CQE (struct rte_mlx5cq_cqe) and an 8-byte mini-CQE of a compressed
 * session (struct rte_mlx5cq_mini), each with inline accessors that return
 * a field in host order. The burst poll's records, rte_mlx5cq_peek_cqe()
 * and the session view of rte_mlx5cq_session_open() hand these views out;
 * consumers read fields through the accessors, never by byte offset.
 * Vector code that loads a CQE's bytes takes rte_mlx5cq_cqe_bytes() and the
 * offsets of rte_mlx5cq_prm.h.
 *
 * The views are volatile: the device writes the ring. A caller reads a
 * CQE only after the owner check and the read barrier that the peek and
 * session functions make.
 */

#include <stdint.h>

#include <rte_common.h>

#include "rte_mlx5cq_prm.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Big-endian loads. The swaps are compiler builtins: DPDK's
 * rte_arch_bswap*() are plain inline functions, which GCC does not inline
 * into a function built for another target (the SIMD polls), where each
 * swap became a call.
 */
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
#define RTE_MLX5CQ__BE16(v) __builtin_bswap16(v)
#define RTE_MLX5CQ__BE32(v) __builtin_bswap32(v)
#define RTE_MLX5CQ__BE64(v) __builtin_bswap64(v)
#else
#define RTE_MLX5CQ__BE16(v) (v)
#define RTE_MLX5CQ__BE32(v) (v)
#define RTE_MLX5CQ__BE64(v) (v)
#endif

/** A 64 B CQE (mlx5_prm.h struct mlx5_cqe); read with the accessors. */
struct rte_mlx5cq_cqe {
	uint8_t b[RTE_MLX5CQ_PRM_CQE_SIZE]; /**< Big-endian fields. */
};

/** A mini-CQE (mlx5_prm.h struct mlx5_mini_cqe8); read with accessors. */
struct rte_mlx5cq_mini {
	uint8_t b[RTE_MLX5CQ_MINI_SIZE]; /**< Big-endian fields. */
};

/** @internal 32-bit big-endian field at byte off. */
static __rte_always_inline uint32_t
rte_mlx5cq__be32(volatile const uint8_t *p, unsigned int off)
{
	return RTE_MLX5CQ__BE32(*(volatile const uint32_t *)(p + off));
}

/** @internal 16-bit big-endian field at byte off. */
static __rte_always_inline uint16_t
rte_mlx5cq__be16(volatile const uint8_t *p, unsigned int off)
{
	return RTE_MLX5CQ__BE16(*(volatile const uint16_t *)(p + off));
}

/**
 * The CQE's bytes, for vector loads at the offsets of rte_mlx5cq_prm.h.
 *
 * @param c
 *   CQE.
 * @return
 *   Its first byte.
 */
static __rte_always_inline volatile const uint8_t *
rte_mlx5cq_cqe_bytes(volatile const struct rte_mlx5cq_cqe *c)
{
	return c->b;
}

/**
 * byte_cnt: bytes of the received message (LRO: of the coalesced one);
 * on a striding RQ, strides consumed << 16 | length.
 *
 * @param c
 *   CQE.
 * @return
 *   The field, host order.
 */
static __rte_always_inline uint32_t
rte_mlx5cq_cqe_byte_cnt(volatile const struct rte_mlx5cq_cqe *c)
{
	return rte_mlx5cq__be32(c->b, RTE_MLX5CQ_CQE_BYTE_CNT);
}

/**
 * rx_hash_res: the RSS hash of a received packet.
 *
 * @param c
 *   CQE.
 * @return
 *   The field, host order.
 */
static __rte_always_inline uint32_t
rte_mlx5cq_cqe_rx_hash(volatile const struct rte_mlx5cq_cqe *c)
{
	return rte_mlx5cq__be32(c->b, RTE_MLX5CQ_CQE_RX_HASH_RES);
}

/**
 * hdr_type_etc: bytes 28..29 (hds_ip_ext, l4_hdr_type_etc), the
 * RTE_MLX5CQ_HDR_* bits.
 *
 * @param c
 *   CQE.
 * @return
 *   The field, host order.
 */
static __rte_always_inline uint16_t
rte_mlx5cq_cqe_hdr_type_etc(volatile const struct rte_mlx5cq_cqe *c)
{
	return rte_mlx5cq__be16(c->b, RTE_MLX5CQ_CQE_HDR_TYPE_ETC);
}

/**
 * vlan_info: the stripped VLAN tag (with RTE_MLX5CQ_HDR_VLAN_STRIPPED).
 *
 * @param c
 *   CQE.
 * @return
 *   The field, host order.
 */
static __rte_always_inline uint16_t
rte_mlx5cq_cqe_vlan_info(volatile const struct rte_mlx5cq_cqe *c)
{
	return rte_mlx5cq__be16(c->b, RTE_MLX5CQ_CQE_VLAN_INFO);
}

/**
 * check_sum: the L4 checksum the device computed over the packet.
 *
 * @param c
 *   CQE.
 * @return
 *   The field, host order.
 */
static __rte_always_inline uint16_t
rte_mlx5cq_cqe_csum(volatile const struct rte_mlx5cq_cqe *c)
{
	return rte_mlx5cq__be16(c->b, RTE_MLX5CQ_CQE_CSUM);
}

/**
 * The flow tag: bits 23:0 of sop_drop_qpn.
 *
 * @param c
 *   CQE.
 * @return
 *   The tag.
 */
static __rte_always_inline uint32_t
rte_mlx5cq_cqe_flow_tag(volatile const struct rte_mlx5cq_cqe *c)
{
	return rte_mlx5cq__be32(c->b, RTE_MLX5CQ_CQE_SOP_DROP_QPN) &
	       0xffffff;
}

/**
 * timestamp: the completion time in device ticks (or nanoseconds on a
 * real-time clock).
 *
 * @param c
 *   CQE.
 * @return
 *   The field, host order.
 */
static __rte_always_inline uint64_t
rte_mlx5cq_cqe_timestamp(volatile const struct rte_mlx5cq_cqe *c)
{
	return (uint64_t)rte_mlx5cq__be32(c->b, RTE_MLX5CQ_CQE_TIMESTAMP) <<
	       32 | rte_mlx5cq__be32(c->b, RTE_MLX5CQ_CQE_TIMESTAMP + 4);
}

/**
 * wqe_counter: the WQE (or, on a striding RQ, the stride) completed.
 *
 * @param c
 *   CQE.
 * @return
 *   The field, host order.
 */
static __rte_always_inline uint16_t
rte_mlx5cq_cqe_wqe_counter(volatile const struct rte_mlx5cq_cqe *c)
{
	return rte_mlx5cq__be16(c->b, RTE_MLX5CQ_CQE_WQE_COUNTER);
}

/**
 * lro_num_seg: TCP segments coalesced into the message (LRO).
 *
 * @param c
 *   CQE.
 * @return
 *   The field.
 */
static __rte_always_inline uint8_t
rte_mlx5cq_cqe_lro_num_seg(volatile const struct rte_mlx5cq_cqe *c)
{
	return c->b[RTE_MLX5CQ_CQE_LRO_NUM_SEG];
}

/**
 * lro_tcppsh_abort_dupack: bit 6 PSH seen in a coalesced segment (LRO).
 *
 * @param c
 *   CQE.
 * @return
 *   The field.
 */
static __rte_always_inline uint8_t
rte_mlx5cq_cqe_lro_flags(volatile const struct rte_mlx5cq_cqe *c)
{
	return c->b[RTE_MLX5CQ_CQE_LRO_TCPPSH_ABORT_DUPACK];
}

/**
 * lro_min_ttl: the smallest TTL or hop limit of the coalesced segments.
 *
 * @param c
 *   CQE.
 * @return
 *   The field.
 */
static __rte_always_inline uint8_t
rte_mlx5cq_cqe_lro_min_ttl(volatile const struct rte_mlx5cq_cqe *c)
{
	return c->b[RTE_MLX5CQ_CQE_LRO_MIN_TTL];
}

/**
 * lro_tcp_win: the TCP window of the last coalesced segment.
 *
 * @param c
 *   CQE.
 * @return
 *   The field, host order.
 */
static __rte_always_inline uint16_t
rte_mlx5cq_cqe_lro_tcp_win(volatile const struct rte_mlx5cq_cqe *c)
{
	return rte_mlx5cq__be16(c->b, RTE_MLX5CQ_CQE_LRO_TCP_WIN);
}

/**
 * lro_ack_seq_num: the TCP acknowledgment of the last coalesced segment.
 *
 * @param c
 *   CQE.
 * @return
 *   The field, host order.
 */
static __rte_always_inline uint32_t
rte_mlx5cq_cqe_lro_ack_seq(volatile const struct rte_mlx5cq_cqe *c)
{
	return rte_mlx5cq__be32(c->b, RTE_MLX5CQ_CQE_LRO_ACK_SEQ_NUM);
}

/**
 * The mini-CQE's bytes, for vector loads at the RTE_MLX5CQ_MINI_* offsets
 * (an array of RTE_MLX5CQ_BASIC_MINIS_PER_ARRAY is contiguous).
 *
 * @param m
 *   Mini-CQE.
 * @return
 *   Its first byte.
 */
static __rte_always_inline volatile const uint8_t *
rte_mlx5cq_mini_bytes(volatile const struct rte_mlx5cq_mini *m)
{
	return m->b;
}

/**
 * Byte count of a mini-CQE of the HASH, CSUM, *_STRIDX (L34H) or
 * requester format (32 bits; RTE_MLX5CQ_MINI_F_BYTE_CNT).
 *
 * @param m
 *   Mini-CQE.
 * @return
 *   The field, host order.
 */
static __rte_always_inline uint32_t
rte_mlx5cq_mini_byte_cnt(volatile const struct rte_mlx5cq_mini *m)
{
	return rte_mlx5cq__be32(m->b, RTE_MLX5CQ_MINI_BYTE_CNT);
}

/**
 * rx_hash_result of a HASH mini-CQE.
 *
 * @param m
 *   Mini-CQE.
 * @return
 *   The field, host order.
 */
static __rte_always_inline uint32_t
rte_mlx5cq_mini_rx_hash(volatile const struct rte_mlx5cq_mini *m)
{
	return rte_mlx5cq__be32(m->b, RTE_MLX5CQ_MINI_RX_HASH);
}

/**
 * checksum of a CSUM or CSUM_STRIDX mini-CQE.
 *
 * @param m
 *   Mini-CQE.
 * @return
 *   The field, host order.
 */
static __rte_always_inline uint16_t
rte_mlx5cq_mini_csum(volatile const struct rte_mlx5cq_mini *m)
{
	return rte_mlx5cq__be16(m->b, RTE_MLX5CQ_MINI_CSUM);
}

/**
 * stride_idx of a *_STRIDX (or CSUM) mini-CQE.
 *
 * @param m
 *   Mini-CQE.
 * @return
 *   The field, host order.
 */
static __rte_always_inline uint16_t
rte_mlx5cq_mini_stride_idx(volatile const struct rte_mlx5cq_mini *m)
{
	return rte_mlx5cq__be16(m->b, RTE_MLX5CQ_MINI_STRIDX);
}

#ifdef __cplusplus
}
#endif

#endif /* RTE_MLX5CQ_VIEW_H_ */
