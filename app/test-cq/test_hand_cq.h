/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_HAND_CQ_H_
#define TEST_HAND_CQ_H_

/*
 * A CQ built by hand for the decomp and iter suites: a handle from the
 * library's test hook over an rte_malloc ring and doorbell record, CQE
 * and mini-CQE images written byte by byte from the PRM layouts
 * (test_cqe_image.h; struct mlx5_mini_cqe8 of mlx5_prm.h: 8 bytes, the
 * format's 4-byte field first, then the byte count, big endian).
 */

#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_malloc.h>

#include <mlx5cq_test_hooks.h>

#include "test_hooks_cq.h"
#include <rte_mlx5cq.h>

#include "test_cqe_image.h"

/* Byte of the enhanced layout's validity iteration count. */
#define IMG_VIC 62
/* op_own of an invalidated CQE (mlx5_prm.h MLX5_CQE_INVALIDATE). */
#define IMG_INVALIDATE 0xf0

struct hand_cq {
	struct rte_mlx5cq *cq;
	uint8_t *ring;
	uint8_t *dbrec;
	uint32_t entries;
	uint32_t log_n;
	unsigned int stride;
};

static inline void
hand_cq_fini(struct hand_cq *h)
{
	mlx5cq_test_cq_free(h->cq);
	rte_free(h->ring);
	rte_free(h->dbrec);
	memset(h, 0, sizeof(*h));
}

/*
 * Ring of 2^log_n CQEs of stride 64 or 128, every 64 B CQE invalid
 * (op_own 0xf1, iteration count 0xff), consumer index ci0; comp is the
 * value of rte_mlx5cq.comp (PRM format + 1, | 0x80 enhanced). The first
 * half of a 128 B entry is filled with 0x5a.
 */
static inline int
hand_cq_init(struct hand_cq *h, uint32_t log_n, unsigned int stride,
	     uint8_t comp, uint32_t ci0)
{
	uint32_t i;

	memset(h, 0, sizeof(*h));
	h->log_n = log_n;
	h->entries = 1u << log_n;
	h->stride = stride;
	h->ring = rte_malloc("hand_ring", (size_t)h->entries * stride, 4096);
	h->dbrec = rte_zmalloc("hand_dbrec", 8, 8);
	if (h->ring != NULL && h->dbrec != NULL)
		h->cq = mlx5cq_test_cq_wrap(h->ring, h->dbrec, log_n, stride,
					    comp, ci0, 0x99);
	if (h->cq == NULL || h->ring == NULL || h->dbrec == NULL) {
		hand_cq_fini(h);
		return -1;
	}
	for (i = 0; i < h->entries; i++) {
		uint8_t *e = h->ring + (size_t)i * stride;

		memset(e, 0x5a, stride);
		memset(e + stride - 64, IMG_FILL, 62);
		e[stride - 2] = 0xff;
		e[stride - 1] = 0xf1;
	}
	return 0;
}

/* The 64 B CQE of ring index idx. */
static inline uint8_t *
hand_cqe(const struct hand_cq *h, uint32_t idx)
{
	return h->ring + (size_t)(idx & (h->entries - 1)) * h->stride +
	       h->stride - 64;
}

/* Owner bit of consumer index idx. */
static inline unsigned int
hand_owner(const struct hand_cq *h, uint32_t idx)
{
	return (idx >> h->log_n) & 1;
}

/* A regular CQE at idx (owner bit of idx's pass; enhanced: vic too). */
static inline void
hand_put(struct hand_cq *h, uint32_t idx, const struct img_cqe *d)
{
	uint8_t *e = hand_cqe(h, idx);

	img_cqe_payload(e, d);
	e[IMG_VIC] = (uint8_t)(idx >> h->log_n);
	rte_compiler_barrier();
	e[IMG_OP_OWN] = img_op_own(d, hand_owner(h, idx));
}

/*
 * Basic layout: title (format 3, byte_cnt = count) at idx and the mini
 * CQEs minis[0..count) (8 bytes each) in arrays at idx + 1, idx + 8,
 * idx + 16, ...; the holes keep their old bytes. The title's op_own is
 * written last.
 */
static inline void
hand_put_session(struct hand_cq *h, uint32_t idx, const struct img_cqe *title,
		 const uint8_t (*minis)[8], uint32_t count)
{
	struct img_cqe t = *title;
	uint32_t j;
	uint8_t *e;

	for (j = 0; j < count; j++) {
		uint32_t a = j < 8 ? idx + 1 : idx + 8 * (j / 8);

		memcpy(hand_cqe(h, a) + 8 * (j % 8), minis[j], 8);
	}
	t.format = 3;
	t.byte_cnt = count;
	e = hand_cqe(h, idx);
	img_cqe_payload(e, &t);
	rte_compiler_barrier();
	e[IMG_OP_OWN] = img_op_own(&t, hand_owner(h, idx));
}

/*
 * Enhanced layout: a compressed CQE at idx holding count (1..7) mini-CQEs,
 * count - 1 in the opcode bits, format 3, vic of idx's pass.
 */
static inline void
hand_put_enh_array(struct hand_cq *h, uint32_t idx, const uint8_t (*minis)[8],
		   uint32_t count)
{
	uint8_t *e = hand_cqe(h, idx);
	uint32_t j;

	memset(e, IMG_FILL, 62);
	for (j = 0; j < count; j++)
		memcpy(e + 8 * j, minis[j], 8);
	e[IMG_VIC] = (uint8_t)(idx >> h->log_n);
	rte_compiler_barrier();
	e[IMG_OP_OWN] = (uint8_t)((count - 1) << 4 | 3 << 2 |
				  hand_owner(h, idx));
}

#endif /* TEST_HAND_CQ_H_ */
