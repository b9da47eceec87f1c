/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The buffer of a multi-packet RQ WQE (mlx5cq_rxq_mprq.c builds them,
 * mlx5cq_rx_mprq.c hands their strides up), laid out as net/mlx5's
 * struct mlx5_mprq_buf (mlx5_rx.h): a header, one external-buffer info
 * per stride, RTE_PKTMBUF_HEADROOM bytes, then the strides. The header
 * counts references: 1 for the WQE that holds the buffer (or for the
 * pool, while the buffer is free), 1 per mbuf a stride is attached to.
 * The last reference dropped puts the buffer back in its pool with the
 * count at 1 again.
 */

#ifndef MLX5CQ_MPRQ_H_
#define MLX5CQ_MPRQ_H_

#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

struct mlx5cq_mprq_buf {
	struct rte_mempool *mp;
	uint8_t *data; /* The first stride. */
	uint32_t refcnt;
	uint32_t strd_n;
	struct rte_mbuf_ext_shared_info shinfo[]; /* One per stride. */
};

/* The external-buffer free callback of the strides (mlx5cq_rxq_mprq.c). */
void mlx5cq_mprq_buf_free_cb(void *addr, void *opaque);

/*
 * The mempool whose memory holds m's data: for a stride attached by a
 * multi-packet RQ (of any port), its buffer's pool, which a port
 * transmitting it registers (net/mlx5 registers such memory too,
 * mlx5_mr_addr2mr_bh()); else m's pool.
 */
static __rte_always_inline struct rte_mempool *
mlx5cq_mbuf_mem_pool(const struct rte_mbuf *m)
{
	if (unlikely(m->ol_flags & RTE_MBUF_F_EXTERNAL) &&
	    m->shinfo->free_cb == mlx5cq_mprq_buf_free_cb)
		return ((const struct mlx5cq_mprq_buf *)
			m->shinfo->fcb_opaque)->mp;
	return m->pool;
}

/* Drop one reference; the last puts the buffer back in its pool. */
static inline void
mlx5cq_mprq_buf_put(struct mlx5cq_mprq_buf *b)
{
	if (__atomic_load_n(&b->refcnt, __ATOMIC_ACQUIRE) == 1 ||
	    __atomic_sub_fetch(&b->refcnt, 1, __ATOMIC_ACQ_REL) == 0) {
		__atomic_store_n(&b->refcnt, 1, __ATOMIC_RELAXED);
		rte_mempool_put(b->mp, b);
	}
}

#endif /* MLX5CQ_MPRQ_H_ */
