/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * CQE compression as the device does it when cqc.cqe_comp_en is set.
 *
 * Basic layout (cqc.cqe_comp_layout 0). A session of n >= 2 completions
 * spans n ring slots from the producer index p:
 * - slot p, the title: the full CQE of the first completion, with
 *   byte_cnt = n and op_own format bits 3:2 = 3; its owner bit is the one
 *   of slot p;
 * - mini-CQE arrays (eight 8-byte mini-CQEs filling the 64 B CQE) at
 *   p + 1 (minis 0..7), p + 8 (8..15), p + 16 (16..23)...: "the second one
 *   is located 7 CQEs after the initial CQE instead of 8" (DPDK mlx5_rx.c
 *   mlx5_rx_poll_len). Unused minis of the last array are zero;
 * - every other slot is a hole the device does not write (the consumer
 *   invalidates the whole session, DPDK mlx5_rx_poll_len).
 * The arrays are written first, then the title's bytes 0..62, then its
 * op_own: a reader that sees the title's owner sees the whole session. A
 * session may wrap the ring (indexes are taken modulo the ring size).
 *
 * Mini-CQE (DPDK mlx5_prm.h struct mlx5_mini_cqe8), big endian fields:
 * - requester: wqe_counter (0..1), s_wqe_opcode (2), byte_cnt (4..7);
 * - HASH (0): rx_hash_result (0..3), byte_cnt (4..7);
 * - CSUM (1) and CSUM_STRIDX (3): checksum (0..1), stride index (2..3),
 *   byte_cnt (4..7);
 * - FTAG_STRIDX (2): flow tag bits 15:0 (0..1), stride index (2..3), flow
 *   tag bits 23:16 (4), byte_cnt 23:0 (5..7). DPDK reads the mini's bytes
 *   4, 0, 1 where it reads the full CQE's sop_drop_qpn bytes 57, 58, 59
 *   (rxq_cq_to_mbuf: (byte_cnt_flow & 0xff) << 8 | flow_tag_high << 16,
 *   then mlx5_flow_mark_get; the SSE/NEON/Altivec shuffles agree) and
 *   masks byte 4 out of the length (MLX5_LEN_WITH_MARK_MASK);
 * - L34H_STRIDX (4): header-type byte (0) = byte 29 of the full CQE
 *   (hdr_type_etc bits 7:0: header types 7:2, VLAN stripped 0;
 *   rxq_cq_to_pkt_type reads mcqe->hdr_type >> 2 for (hdr_type_etc &
 *   0xfc00) >> 10), byte 1 reserved (zero; DPDK 5654f38eba: 22.11's
 *   struct had the two swapped), stride index (2..3), byte_cnt (4..7).
 * The stride index is the completion's wqe_counter (MPRQ reads
 * cqe->wqe_counter or mcqe->stride_idx, mlx5_rx_burst_mprq), except for
 * the completions of the network model's cyclic RQs (EMU_POST_CYCLIC_RQ):
 * the stride index is defined for striding RQs only (kernel mlx5e reads
 * mini_cqe->stridx only with MLX5E_RQ_STATE_MINI_CQE_HW_STRIDX, set for a
 * striding RQ; DPDK 22.11 reads mcqe->stride_idx only in
 * mlx5_rx_burst_mprq), so there the model writes 0, a value no reader may
 * rely on, and such completions join only with consecutive WQE counters
 * (the readers' title + position).
 *
 * Striding RQs (EMU_QK_STRIDING_RQ, mlx5_emu_rq.c): wqe_counter is the
 * first stride's index, byte_cnt = len | strides << 16, wqe_id (bytes
 * 2..3) the WQE. The *_STRIDX minis carry the stride index; wqe_id is not
 * carried, so it is one of the bytes that must equal the title's (one
 * session per WQE). In FTAG_STRIDX the mini's byte count is 24 bits and
 * DPDK recomputes the strides from the length there (mlx5_rx_burst_mprq:
 * strd_cnt = len / strd_sz + !!(len % strd_sz) when mcqe_format is
 * FTAG_STRIDX), so on a striding RQ that mini carries the length only
 * (byte_cnt & 0xffff). HASH and CSUM formats: the kernel takes the stride
 * index from the mini only with MLX5E_RQ_STATE_MINI_CQE_HW_STRIDX (set
 * for CSUM_STRIDX), else derives it as the title's wqe_counter plus the
 * strides of the completions before (en_rx.c mlx5e_decompress_cqe:
 * wqe_counter += mpwrq_get_cqe_consumed_strides); so there a completion
 * joins only when its stride index is that sum, and the stride index is
 * right for every reader that derives it (DPDK asks for CSUM_STRIDX on
 * its scalar MPRQ burst and HASH on its vector one, mlx5_devx.c
 * rxq_create_devx_cq_resources; the vector burst's decompression,
 * mlx5_rxtx_vec.c, derives the stride index from the strides before).
 * Filler CQEs (MLX5_MPRQ_FILLER_MASK)
 * never open or join a session: they are written as regular CQEs (their
 * 32-bit byte count does not fit the FTAG mini, and readers test the
 * filler bit on the CQE: kernel mpwrq_is_filler_cqe, DPDK
 * mlx5_rx_burst_mprq).
 *
 * Which completions join: same kind (responder with responder, requester
 * with requester), no error CQE, the same opcode and solicited bit, and
 * every byte the mini-CQE does not carry equal to the title's (checksum,
 * header types, VLAN, metadata, timestamp, flow tag, hash...: what the
 * readers take from the title). In HASH format the wqe_counter is not
 * carried either: DPDK derives completion i's WQE index as the title's
 * wqe_counter + i (mlx5_rx_poll_len, zip->wqe_idx + zip->ai), so a
 * responder joins only with that wqe_counter; the same holds for CSUM
 * (stride index written, but non-striding readers ignore it). In FTAG
 * format the byte count must fit 24 bits.
 *
 * A session closes on: a completion that cannot join, the session limit
 * (caps.cqe_compression_max_num), ring space (the session cannot grow into
 * slots the consumer still owns), an explicit flush (mlx5_emu_cq_flush,
 * the device's timer) or the end of a post without MLX5_EMU_POST_HOLD. A
 * session of one completion is written as a regular CQE.
 *
 * Enhanced layout (cqc.cqe_comp_layout 1; DPDK main mlx5_common.h
 * check_cqe_iteration, UCX ib_mlx5.c uct_ib_mlx5_iface_cqe_unzip_init):
 * the title is the last regular CQE written; the completions that can join
 * it follow as compressed CQEs, each an array of up to 7 mini-CQEs (bytes
 * 0..55) with op_own = (minis - 1) << 4 | 3 << 2 | owner, spanning as many
 * slots as it holds minis (the following slots are holes). Every CQE of
 * such a CQ carries validity_iteration_count = (index >> log_size) & 0xff
 * in byte 62. A responder's wqe_counter in HASH format is the title's plus
 * its position after the title (UCX uct_ib_mlx5_iface_cqe_unzip_fill_unique).
 * An array of one completion is written as a regular CQE (a new title).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <mlx5_prm.h>

#include <rte_mlx5cq_prm.h>

#include "mlx5_emu_private.h"

/* Offsets of rte_mlx5cq_prm.h, short. */
#define CQE(f) RTE_MLX5CQ_CQE_ ## f
#define MINI(f) RTE_MLX5CQ_MINI_ ## f
#define ARRAY_MINIS RTE_MLX5CQ_BASIC_MINIS_PER_ARRAY
#define EMU_CQE_FORMAT_COMPRESSED \
	(RTE_MLX5CQ_FORMAT_COMPRESSED << RTE_MLX5CQ_OP_OWN_FORMAT_SHIFT)

/*
 * What a completion must share with a title to join it: the bytes of the
 * image a mini-CQE does not carry (comp_mask()), as eight 64-bit words
 * of a mask and the title's values under it, made once per title so that
 * a join test is eight compares.
 */
struct emu_comp_key {
	uint64_t keep[8];
	uint64_t val[8];
};

struct emu_comp {
	uint32_t max; /* Session limit. */
	/* Basic layout: the open session. */
	uint32_t n; /* Completions held. */
	uint8_t req; /* Requester session. */
	uint8_t op; /* Opcode and se bits of the title. */
	uint8_t kind; /* enum emu_q_kind of the session's queue. */
	uint16_t snext; /* Striding RQ: title's stride + strides so far. */
	uint8_t title[64]; /* Image of completion 0. */
	struct emu_comp_key key; /* Of title. */
	uint8_t *minis; /* max mini-CQEs. */
	/* Enhanced layout. */
	uint8_t etitle_valid;
	uint8_t ereq;
	uint8_t eop;
	uint8_t ekind;
	uint16_t esnext; /* snext of the enhanced session. */
	uint8_t etitle[64];
	struct emu_comp_key ekey; /* Of etitle. */
	uint32_t ecount; /* Minis written after the title. */
	uint32_t an; /* Minis in the open array. */
	uint8_t arr[RTE_MLX5CQ_ENH_MINIS_MAX * RTE_MLX5CQ_MINI_SIZE];
	uint8_t a0img[64]; /* First of the open array, as a CQE. */
	uint8_t a0op;
	/* Counters. */
	uint64_t sessions;
	uint64_t compressed;
};

int
emu_comp_init(struct emu_cq *cq)
{
	struct emu_comp *c = calloc(1, sizeof(*c));
	uint32_t max = cq->dev->caps.cqe_compression_max_num;

	if (c == NULL)
		return -ENOMEM;
	c->max = max;
	if (max != 0) {
		c->minis = calloc(max, RTE_MLX5CQ_MINI_SIZE);
		if (c->minis == NULL) {
			free(c);
			return -ENOMEM;
		}
	}
	cq->comp = c;
	return 0;
}

void
emu_comp_fini(struct emu_cq *cq)
{
	if (cq->comp == NULL)
		return;
	free(cq->comp->minis);
	free(cq->comp);
	cq->comp = NULL;
}

uint32_t
emu_comp_held(const struct emu_cq *cq)
{
	const struct emu_comp *c = cq->comp;

	if (c == NULL)
		return 0;
	return cq->cqe_comp_layout ? c->an : c->n;
}

static uint16_t
img_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* The mini-CQE format of a completion kind on this CQ. */
static unsigned int
comp_fmt(const struct emu_cq *cq, int req)
{
	return req ? RTE_MLX5CQ_MINI_FMT_REQ : cq->mini_cqe_res_format;
}

/*
 * The image with every byte a mini-CQE carries cleared: the format
 * table's fields (RTE_MLX5CQ_MINI_FIELDS()) at their places in the CQE,
 * and the WQE counter (carried as the stride index, or implied).
 */
static void
comp_mask(const struct emu_cq *cq, int req, const uint8_t in[64],
	  uint8_t out[64])
{
	const unsigned int f = RTE_MLX5CQ_MINI_FIELDS(comp_fmt(cq, req));

	memcpy(out, in, 64);
	memset(out + CQE(BYTE_CNT), 0, 4);
	memset(out + CQE(WQE_COUNTER), 0, 2);
	if (f & RTE_MLX5CQ_MINI_F_S_WQE_OPCODE)
		out[CQE(SOP_DROP_QPN)] = 0;
	if (f & RTE_MLX5CQ_MINI_F_RX_HASH)
		memset(out + CQE(RX_HASH_RES), 0, 4);
	if (f & RTE_MLX5CQ_MINI_F_CSUM)
		memset(out + CQE(CSUM), 0, 2);
	if (f & RTE_MLX5CQ_MINI_F_FTAG)
		memset(out + CQE(SOP_DROP_QPN) + 1, 0, 3);
	if (f & RTE_MLX5CQ_MINI_F_HDR_TYPE)
		out[CQE(HDR_TYPE_ETC) + 1] = 0;
}

/* The join key of a title (kind req) on this CQ. */
static void
comp_key_make(const struct emu_cq *cq, int req, const uint8_t title[64],
	      struct emu_comp_key *k)
{
	uint8_t ones[64], m[64];
	unsigned int w;

	memset(ones, 0xff, sizeof(ones));
	comp_mask(cq, req, ones, m);
	memcpy(k->keep, m, sizeof(k->keep));
	for (w = 0; w < 8; w++) {
		uint64_t x;

		memcpy(&x, title + 8 * w, sizeof(x));
		k->val[w] = x & k->keep[w];
	}
}

static int
cpl_is_err(const struct mlx5_emu_wc *cpl)
{
	return cpl->kind == MLX5_EMU_WC_REQ_ERR ||
	       cpl->kind == MLX5_EMU_WC_RESP_ERR;
}

/* Strides of a striding RQ's completion (MLX5_MPRQ_STRIDE_NUM_MASK). */
static uint16_t
img_strides(const uint8_t img[64])
{
	return (uint16_t)((img[CQE(BYTE_CNT)] & 0x3f) << 8 |
			  img[CQE(BYTE_CNT) + 1]);
}

/* The stride index the next completion must have (HASH, CSUM). */
static uint16_t
img_snext(const uint8_t img[64])
{
	return (uint16_t)(img_be16(img + CQE(WQE_COUNTER)) +
			  img_strides(img));
}

/* A completion may open a session (or follow a title). */
static int
comp_can_start(const struct emu_cq *cq, const struct mlx5_emu_wc *cpl,
	       const uint8_t img[64], enum emu_q_kind kind)
{
	if (cpl_is_err(cpl))
		return 0;
	if (kind == EMU_QK_STRIDING_RQ)
		/* Filler CQEs stay regular; the FTAG mini takes the length. */
		return (img[CQE(BYTE_CNT)] & 0x80) == 0;
	if (cpl->kind == MLX5_EMU_WC_RESP &&
	    (RTE_MLX5CQ_MINI_FIELDS(cq->mini_cqe_res_format) &
	     RTE_MLX5CQ_MINI_F_BYTE_CNT24) && img[CQE(BYTE_CNT)] != 0)
		return 0; /* byte_cnt does not fit 24 bits */
	return 1;
}

/*
 * Completion img may join title (its join key: comp_key_make()) as its
 * completion number pos (0 = the title itself in the basic layout; 1..
 * after the title in the enhanced); snext: the stride index it must have
 * on a striding RQ in HASH or CSUM format.
 */
static int
comp_can_join(const struct emu_cq *cq, const uint8_t title[64],
	      const struct emu_comp_key *key, uint8_t title_op, int title_req,
	      const struct mlx5_emu_wc *cpl, const uint8_t img[64], uint8_t op,
	      uint32_t pos, uint16_t snext, unsigned int title_kind,
	      enum emu_q_kind kind)
{
	int req = cpl->kind == MLX5_EMU_WC_REQ;
	int derived = kind == EMU_QK_CYCLIC_RQ ||
		      cq->mini_cqe_res_format == RTE_MLX5CQ_MINI_FMT_HASH ||
		      cq->mini_cqe_res_format == RTE_MLX5CQ_MINI_FMT_CSUM;
	uint16_t expect;
	unsigned int w;

	if (!comp_can_start(cq, cpl, img, kind) || req != title_req ||
	    op != title_op || (unsigned int)kind != title_kind)
		return 0;
	/*
	 * HASH and CSUM: readers of non-striding queues derive the WQE index
	 * from the title (DPDK zip->wqe_idx + zip->ai; kernel mlx5e
	 * decompression increments the title's wqe_counter), so only
	 * consecutive counters join; on a striding RQ the stride index is
	 * derived from the strides (snext, see the top of this file). CSUM
	 * still writes the stride index.
	 */
	expect = kind == EMU_QK_STRIDING_RQ ? snext :
		 (uint16_t)(img_be16(title + CQE(WQE_COUNTER)) + pos);
	if (!req && derived && img_be16(img + CQE(WQE_COUNTER)) != expect)
		return 0;
	/*
	 * Same kind as the title: the title's key applies to img. Eight
	 * 8-byte loads, as emu_cqe_build() stores the image (the early exit
	 * keeps the compiler from making them 16-byte loads, which the store
	 * queue could not serve).
	 */
	for (w = 0; w < 8; w++) {
		uint64_t x;

		memcpy(&x, img + 8 * w, sizeof(x));
		if ((x & key->keep[w]) != key->val[w])
			return 0;
	}
	return 1;
}

/*
 * The mini-CQE of a completion image: the fields of its format
 * (RTE_MLX5CQ_MINI_FIELDS()) from their places in the CQE. The stride
 * index is the completion's WQE counter, 0 on a cyclic RQ; on a striding
 * RQ the FTAG mini's byte count is the length only (see the top of this
 * file).
 */
static void
comp_mini(const struct emu_cq *cq, int req, enum emu_q_kind kind,
	  const uint8_t img[64], uint8_t m[RTE_MLX5CQ_MINI_SIZE])
{
	const unsigned int f = RTE_MLX5CQ_MINI_FIELDS(comp_fmt(cq, req));

	memset(m, 0, RTE_MLX5CQ_MINI_SIZE);
	if (kind == EMU_QK_STRIDING_RQ && (f & RTE_MLX5CQ_MINI_F_BYTE_CNT24))
		memcpy(m + MINI(BYTE_CNT) + 2, img + CQE(BYTE_CNT) + 2, 2);
	else
		memcpy(m + MINI(BYTE_CNT), img + CQE(BYTE_CNT), 4);
	if (f & RTE_MLX5CQ_MINI_F_WQE_COUNTER)
		memcpy(m + MINI(WQE_COUNTER), img + CQE(WQE_COUNTER), 2);
	if (f & RTE_MLX5CQ_MINI_F_S_WQE_OPCODE)
		m[MINI(S_WQE_OPCODE)] = img[CQE(SOP_DROP_QPN)];
	if (f & RTE_MLX5CQ_MINI_F_RX_HASH)
		memcpy(m + MINI(RX_HASH), img + CQE(RX_HASH_RES), 4);
	if (f & RTE_MLX5CQ_MINI_F_CSUM)
		memcpy(m + MINI(CSUM), img + CQE(CSUM), 2);
	if (f & RTE_MLX5CQ_MINI_F_FTAG) {
		/* Flow tag 23:16 over the 24-bit byte count's first byte. */
		m[MINI(FTAG_HIGH)] = img[CQE(SOP_DROP_QPN) + 1];
		memcpy(m + MINI(FTAG_LOW), img + CQE(SOP_DROP_QPN) + 2, 2);
	}
	if (f & RTE_MLX5CQ_MINI_F_HDR_TYPE)
		m[MINI(HDR_TYPE)] = img[CQE(HDR_TYPE_ETC) + 1];
	if ((f & RTE_MLX5CQ_MINI_F_STRIDX) && kind != EMU_QK_CYCLIC_RQ)
		memcpy(m + MINI(STRIDX), img + CQE(WQE_COUNTER), 2);
}

static int
op_se(uint8_t op)
{
	return (op & RTE_MLX5CQ_OP_OWN_SE) != 0;
}

/* Basic layout: write the open session (n >= 1). */
static void
comp_basic_close(struct emu_cq *cq)
{
	struct emu_comp *c = cq->comp;
	uint32_t base = cq->pi, n = c->n, k, i;
	uint8_t arr[64], title[64];
	rte_be32_t cnt;

	if (n == 0)
		return;
	c->n = 0;
	if (n == 1) {
		emu_cqe_emit(cq, c->title, c->op);
		emu_ev_written(cq, 1, op_se(c->op));
		return;
	}
	for (k = 0; k * ARRAY_MINIS < n; k++) {
		memset(arr, 0, sizeof(arr));
		for (i = 0; i < ARRAY_MINIS && k * ARRAY_MINIS + i < n; i++)
			memcpy(arr + i * RTE_MLX5CQ_MINI_SIZE,
			       c->minis + (k * ARRAY_MINIS + i) *
			       RTE_MLX5CQ_MINI_SIZE, RTE_MLX5CQ_MINI_SIZE);
		/* The last mini's last byte is the entry's op_own byte. */
		emu_cqe_store(cq, base + (k == 0 ? 1 : k * ARRAY_MINIS),
			      arr, arr[CQE(OP_OWN)]);
	}
	memcpy(title, c->title, sizeof(title));
	cnt = rte_cpu_to_be_32(n);
	memcpy(title + CQE(BYTE_CNT), &cnt, sizeof(cnt));
	emu_cqe_store(cq, base, title,
		      (uint8_t)(c->op | EMU_CQE_FORMAT_COMPRESSED |
				((base >> cq->log_cq_size) & 1)));
	cq->pi += n;
	c->sessions++;
	c->compressed += n;
	emu_ev_written(cq, n, op_se(c->op));
}

/* Enhanced layout: write the open array (an >= 1). */
static void
comp_enh_close(struct emu_cq *cq)
{
	struct emu_comp *c = cq->comp;
	uint32_t base = cq->pi, n = c->an;
	uint8_t cqe[64];

	if (n == 0)
		return;
	c->an = 0;
	if (n == 1) {
		/* A lone completion: regular CQE, the new title. */
		emu_cqe_emit(cq, c->a0img, c->a0op);
		/* Its key is the title's: it joined it (same masked bytes). */
		memcpy(c->etitle, c->a0img, 64);
		c->eop = c->a0op;
		c->ecount = 0;
		emu_ev_written(cq, 1, op_se(c->a0op));
		return;
	}
	memset(cqe, 0, sizeof(cqe));
	memcpy(cqe, c->arr, n * RTE_MLX5CQ_MINI_SIZE);
	cqe[CQE(VALIDITY)] = (uint8_t)(base >> cq->log_cq_size);
	emu_cqe_store(cq, base, cqe,
		      (uint8_t)((n - 1) << RTE_MLX5CQ_OP_OWN_OPCODE_SHIFT |
				EMU_CQE_FORMAT_COMPRESSED |
				((base >> cq->log_cq_size) & 1)));
	cq->pi += n;
	c->ecount += n;
	c->sessions++;
	c->compressed += n;
	emu_ev_written(cq, n, op_se(c->eop));
}

void
emu_comp_close(struct emu_cq *cq)
{
	if (cq->comp == NULL)
		return;
	if (cq->cqe_comp_layout)
		comp_enh_close(cq);
	else
		comp_basic_close(cq);
}

/* Write a regular CQE now: 1, 0 no room, -EIO overrun. */
static int
comp_put_regular(struct emu_cq *cq, const uint8_t img[64], uint8_t op,
		 int overrun)
{
	if (emu_cq_room(cq, 1) == 0)
		return overrun ? emu_cq_overrun(cq) : 0;
	emu_cqe_emit(cq, img, op);
	emu_ev_written(cq, 1, op_se(op) || (op >> 4) == MLX5_CQE_REQ_ERR ||
			      (op >> 4) == MLX5_CQE_RESP_ERR);
	return 1;
}

static int
comp_add_basic(struct emu_cq *cq, const struct mlx5_emu_wc *cpl,
	       const uint8_t img[64], uint8_t op, int overrun,
	       enum emu_q_kind kind)
{
	struct emu_comp *c = cq->comp;
	int req = cpl->kind == MLX5_EMU_WC_REQ;

	if (c->n > 0 && c->n < c->max &&
	    comp_can_join(cq, c->title, &c->key, c->op, c->req, cpl, img, op,
			  c->n, c->snext, c->kind, kind) &&
	    emu_cq_room(cq, c->n + 1) >= c->n + 1) {
		comp_mini(cq, req, kind, img,
			  c->minis + c->n * RTE_MLX5CQ_MINI_SIZE);
		c->snext = img_snext(img);
		c->n++;
		if (c->n == c->max)
			comp_basic_close(cq);
		return 1;
	}
	comp_basic_close(cq);
	if (!comp_can_start(cq, cpl, img, kind))
		return comp_put_regular(cq, img, op, overrun);
	if (emu_cq_room(cq, 1) == 0)
		return overrun ? emu_cq_overrun(cq) : 0;
	memcpy(c->title, img, 64);
	comp_key_make(cq, req, img, &c->key);
	c->op = op;
	c->req = (uint8_t)req;
	c->kind = (uint8_t)kind;
	c->snext = img_snext(img);
	comp_mini(cq, req, kind, img, c->minis);
	c->n = 1;
	return 1;
}

static int
comp_add_enhanced(struct emu_cq *cq, const struct mlx5_emu_wc *cpl,
		  const uint8_t img[64], uint8_t op, int overrun,
		  enum emu_q_kind kind)
{
	struct emu_comp *c = cq->comp;
	int req = cpl->kind == MLX5_EMU_WC_REQ;
	uint32_t pos = c->ecount + c->an + 1;
	int ret;

	if (c->etitle_valid && pos <= c->max &&
	    comp_can_join(cq, c->etitle, &c->ekey, c->eop, c->ereq, cpl, img,
			  op, pos, c->esnext, c->ekind, kind) &&
	    emu_cq_room(cq, c->an + 1) >= c->an + 1) {
		if (c->an == 0) {
			memcpy(c->a0img, img, 64);
			c->a0op = op;
		}
		comp_mini(cq, req, kind, img,
			  c->arr + c->an * RTE_MLX5CQ_MINI_SIZE);
		c->esnext = img_snext(img);
		c->an++;
		if (c->an == RTE_MLX5CQ_ENH_MINIS_MAX)
			comp_enh_close(cq);
		return 1;
	}
	comp_enh_close(cq);
	ret = comp_put_regular(cq, img, op, overrun);
	if (ret == 1) {
		c->etitle_valid = (uint8_t)comp_can_start(cq, cpl, img, kind);
		memcpy(c->etitle, img, 64);
		comp_key_make(cq, req, img, &c->ekey);
		c->eop = op;
		c->ereq = (uint8_t)req;
		c->ekind = (uint8_t)kind;
		c->esnext = img_snext(img);
		c->ecount = 0;
	}
	return ret;
}

int
emu_comp_add(struct emu_cq *cq, const struct mlx5_emu_wc *cpl,
	     const uint8_t img[64], uint8_t op, int overrun,
	     enum emu_q_kind kind)
{
	struct emu_comp *c = cq->comp;

	if (c == NULL || cq->cc || c->max < 2)
		return comp_put_regular(cq, img, op, overrun);
	if (cq->cqe_comp_layout)
		return comp_add_enhanced(cq, cpl, img, op, overrun, kind);
	return comp_add_basic(cq, cpl, img, op, overrun, kind);
}

void
emu_comp_counters(const struct emu_cq *cq, uint64_t *sessions,
		  uint64_t *compressed)
{
	*sessions = cq->comp ? cq->comp->sessions : 0;
	*compressed = cq->comp ? cq->comp->compressed : 0;
}
