/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * dpdk-bench-cq ... -- perf [--json FILE] [--reps N] [--image] [--case PREFIX]
 *
 * Cycles per completion of rte_mlx5cq_poll_burst() with each poll this CPU
 * and EAL allow, next to a reference loop over the same ring in the same
 * order: a scalar loop of volatile loads, without prefetch, that reads the
 * bytes a PMD needs (the owner byte and the fields a PMD turns into an
 * mbuf), sums them and never byte-swaps or stores them (perf_ref_cqe(),
 * perf_ref_pass()). It is not a lower bound: the polls prefetch and load
 * with SIMD, and beat it on flushed rings. best/ref compares the fastest
 * poll with this plainest consumer of the same bytes on the same ring
 * state.
 *
 * Cases: CQE size 64/128 x ring of 1K, 4K or 16K entries x ring state
 * after the refill (warm: left in the caches by the refill; flushed: every
 * line written back and evicted with clflush, as after device DMA writes
 * that invalidate the core's copies) x burst 1/32. A second table
 * (emulated HCA only): every mini-CQE format compressed in the basic
 * layout, HASH in the enhanced layout, HASH in both layouts on 128 B
 * CQEs, padded 128 B CQEs and a mix with 1 % error CQEs, burst 32, 1K warm
 * and 16K flushed; runs of 64 completions share what the mini-CQEs do not
 * carry, so the model writes them as sessions. The reference loop of a
 * compressed ring reads each title's fields and each mini-CQE
 * (perf_ref_pass()), not the holes. Sessions of the basic layout get a
 * second reference loop, "ref+inv": the same reads, then the store of
 * op_own INVALIDATE into every entry the session spans (title, arrays,
 * holes), which every consumer of that layout must do before the entries
 * go back to the device (an entry left as it was could pass the next
 * pass's owner test) and which the poll does; the enhanced layout needs
 * none.
 *
 * A timed pass drains one full ring (every entry a responder CQE of the
 * current pass). The ring is refilled before every pass outside the timed
 * region: by the emulated HCA (mlx5_emu_cq_post) on a CQ the library
 * created through DevX, or, with --image or when no such CQ can be made,
 * by copying a prepared ring image (hand-written CQEs) into a hand-built
 * CQ. Poll and reference passes alternate so both see the same
 * conditions. Passes are timed in slices of 1024 completions (an
 * interrupted slice is one outlier, not a spoiled pass); figures are
 * medians over every slice of at least --reps passes (more on small rings:
 * 256 slices at least).
 * Nothing here asserts on timing.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#ifdef RTE_ARCH_X86
#include <emmintrin.h>
#endif

#include <mlx5_emu.h>
#include <mlx5_prm.h>
#include <mlx5cq_test_hooks.h>

#include "test_hooks_cq.h"
#include <rte_mlx5cq.h>

#include "bench_cq.h"
#include "test_cqe_image.h"
#include "test_vec_arch.h"

#define PERF_REPS_DEFAULT 15
#define PERF_REPS_MAX 101
#define PERF_BURST_MAX 32
#define PERF_POST_CHUNK 4096
#define PERF_SLICE 1024 /* Completions per timed slice. */
#define PERF_MIN_SLICES 256 /* Samples per case at least. */

/* A CQ variant of the second table (compression, padding, errors). */
struct perf_variant {
	const char *name;
	uint16_t cqe_size;
	uint8_t comp_format; /* RTE_MLX5CQ_COMP_*, 0: none */
	uint8_t comp_layout;
	uint32_t flags; /* RTE_MLX5CQ_F_CQE_PAD */
	uint16_t err_every; /* An error CQE every that many, 0: none. */
	uint16_t run; /* Completions sharing title fields (0: 64). */
	uint16_t mix; /* Plain CQEs after each run (distinct fields). */
};

/* One ring under test and the way it is refilled. */
struct perf_ring {
	struct rte_mlx5cq *cq;
	uint32_t entries;
	uint32_t log_n;
	uint16_t cqe_size;
	uint8_t *ring; /* Ring start. */
	size_t ring_size;
	/* Emulated HCA mode. */
	struct ibv_context *ctx;
	struct rte_mlx5cq_dev *dev;
	uint32_t cqn;
	struct mlx5_emu_wc *post; /* PERF_POST_CHUNK descriptors. */
	/* Image mode: hand-built CQ, one ring image per pass parity. */
	uint8_t *img[2];
	uint8_t *dbrec;
	uint32_t seq; /* Completions produced so far. */
	const struct perf_variant *var; /* NULL: the first table. */
};

struct perf_case_result {
	char name[48];
	uint16_t cqe_size;
	uint32_t entries;
	const char *state;
	uint16_t burst;
	/* Median cycles per completion of each implementation, < 0: n/a. */
	double poll_cpc[RTE_MLX5CQ_VEC_MAX];
	double ref_cpc; /* Median of the reference loop. */
	/* The reference loop with the invalidation of basic-layout sessions
	 * (ref+inv); < 0: the ring has none.
	 */
	double ref_inv_cpc;
};

/* Records land here: global so the stores cannot be optimised away. */
/*
 * The records of a burst, at a fixed offset in their 4 KiB page: the
 * poll's record stores and its ring loads alias when their page offsets
 * meet (4K aliasing), so where the linker puts a plain array moved the
 * plain-CQE figures by up to 14 %. 0x280 keeps the records' 1 KiB clear of
 * the page offsets a burst of 32 64-byte CQEs reads next.
 */
#define PERF_CPL_PAGE_OFF 0x280
static uint8_t perf_cpl_page[2 * 4096] __rte_aligned(4096);
static struct rte_mlx5cq_cpl *const perf_cpl =
	(struct rte_mlx5cq_cpl *)(perf_cpl_page + PERF_CPL_PAGE_OFF);
static volatile uint64_t perf_sink;

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A responder CQE description for completion number seq. */
static void
perf_img_cqe(uint32_t seq, struct img_cqe *d)
{
	memset(d, 0, sizeof(*d));
	d->opcode = 2; /* RESP_SEND */
	d->rx_hash_res = seq * 0x9e3779b9u;
	d->rx_hash_type = 0x22;
	d->csum = (uint16_t)(seq ^ 0xbeef);
	d->hdr_type_etc = 1u << 3 | 1u << 4 | 1u << 9 | 1u << 10;
	d->vlan_info = 100;
	d->metadata = seq;
	d->byte_cnt = 64 + (seq & 1023);
	d->timestamp = (uint64_t)seq << 8;
	d->sop_drop_qpn = 0x123;
	d->wqe_counter = (uint16_t)seq;
}

static void
perf_emu_cpl(uint32_t seq, struct mlx5_emu_wc *c)
{
	struct img_cqe d;

	perf_img_cqe(seq, &d);
	memset(c, 0, sizeof(*c));
	c->kind = MLX5_EMU_WC_RESP;
	c->opcode = d.opcode;
	c->rx_hash_res = d.rx_hash_res;
	c->rx_hash_type = d.rx_hash_type;
	c->csum = d.csum;
	c->hdr_type_etc = d.hdr_type_etc;
	c->vlan_info = d.vlan_info;
	c->flow_table_metadata = d.metadata;
	c->byte_cnt = d.byte_cnt;
	c->timestamp = d.timestamp;
	c->qpn = d.sop_drop_qpn;
	c->wqe_counter = d.wqe_counter;
}

/*
 * Completion seq of a variant: runs of 64 that share every field but the
 * ones the mini-CQE format carries (so the model compresses them), an
 * error CQE every err_every.
 */
static void
perf_var_cpl(const struct perf_variant *v, uint32_t seq,
	     struct mlx5_emu_wc *c)
{
	uint32_t len = v->run ? v->run : 64;
	uint32_t period = len + v->mix;
	uint32_t run = seq / period;
	int single = seq % period >= len; /* a plain CQE of the mix */

	memset(c, 0, sizeof(*c));
	c->kind = MLX5_EMU_WC_RESP;
	if (v->err_every && seq % v->err_every == (uint32_t)v->err_every - 1) {
		c->kind = MLX5_EMU_WC_RESP_ERR;
		c->syndrome = 0x05;
	}
	c->opcode = c->kind == MLX5_EMU_WC_RESP ? 2 : 0;
	c->rx_hash_type = 0x22;
	c->rx_hash_res = run * 0x9e3779b9u;
	c->csum = 0xbeef;
	c->hdr_type_etc = 1u << 3 | 1u << 4 | 1u << 9 | 1u << 10;
	c->vlan_info = 100;
	c->flow_table_metadata = run;
	c->timestamp = (uint64_t)run << 8;
	c->qpn = 0x123;
	c->wqe_counter = (uint16_t)seq;
	c->byte_cnt = 64 + (seq & 1023);
	if (single) {
		/* Its own title fields: the model cannot join it. */
		c->flow_table_metadata = seq | 0x80000000u;
		c->timestamp = (uint64_t)seq << 8 | 1;
		return;
	}
	switch (v->comp_format) {
	case RTE_MLX5CQ_COMP_HASH:
		c->rx_hash_res = seq * 0x9e3779b9u;
		break;
	case RTE_MLX5CQ_COMP_CSUM:
	case RTE_MLX5CQ_COMP_CSUM_STRIDX:
		c->csum = (uint16_t)(seq ^ 0xbeef);
		break;
	case RTE_MLX5CQ_COMP_FTAG_STRIDX:
		c->qpn = seq & 0xffffff;
		break;
	case RTE_MLX5CQ_COMP_L34H_STRIDX:
		c->hdr_type_etc = (uint16_t)(1u << 9 | (seq & 0x3c) << 2 |
					     (seq & 1));
		break;
	}
}

static void
perf_ring_free(struct perf_ring *r)
{
	if (r->ctx != NULL) {
		rte_mlx5cq_destroy(r->cq);
		if (r->dev != NULL)
			rte_mlx5cq_dev_close(r->dev);
		mlx5_emu_close(r->ctx);
	} else {
		mlx5cq_test_cq_free(r->cq);
		rte_free(r->ring);
		rte_free(r->dbrec);
	}
	free(r->img[0]);
	free(r->img[1]);
	free(r->post);
	memset(r, 0, sizeof(*r));
}

/* A CQ created by the library through DevX on an emulated device. */
static int
perf_ring_emu(struct perf_ring *r, uint32_t log_n, uint16_t cqe_size,
	      const struct perf_variant *v)
{
	struct rte_mlx5cq_attr attr;
	struct rte_mlx5cq_info info;
	char name[32];
	static unsigned int dev_seq;

	memset(r, 0, sizeof(*r));
	snprintf(name, sizeof(name), "perf%u", dev_seq++);
	r->ctx = mlx5_emu_open(name, NULL);
	if (r->ctx == NULL)
		return -1;
	r->dev = rte_mlx5cq_dev_open_ex(r->ctx, (int)rte_socket_id(),
				RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS);
	if (r->dev == NULL)
		goto fail;
	memset(&attr, 0, sizeof(attr));
	attr.comp_mask = RTE_MLX5CQ_ATTR_CQE_SIZE;
	attr.cqe = (1u << log_n) - 1;
	attr.cqe_size = cqe_size;
	attr.flags = RTE_MLX5CQ_F_SINGLE_THREADED;
	attr.socket = (int)rte_socket_id();
	attr.path = RTE_MLX5CQ_PATH_DEVX;
	if (v != NULL) {
		attr.flags |= v->flags;
		if (v->comp_format) {
			attr.comp_mask |= RTE_MLX5CQ_ATTR_COMPRESSED;
			attr.comp_format = v->comp_format;
			attr.comp_layout = v->comp_layout;
		}
	}
	r->cq = rte_mlx5cq_create(r->dev, &attr);
	if (r->cq == NULL)
		goto fail;
	if (rte_mlx5cq_info_get(r->cq, &info) != 0 ||
	    info.entries != (1u << log_n))
		goto fail;
	r->cqn = info.cqn;
	r->entries = info.entries;
	r->log_n = log_n;
	r->cqe_size = cqe_size;
	r->ring = info.ring;
	r->ring_size = info.ring_size;
	r->post = malloc(sizeof(*r->post) * PERF_POST_CHUNK);
	if (r->post == NULL)
		goto fail;
	r->var = v;
	return 0;
fail:
	perf_ring_free(r);
	return -1;
}

/* A hand-built CQ over rte_malloc memory, refilled from two images. */
static int
perf_ring_image(struct perf_ring *r, uint32_t log_n, uint16_t cqe_size)
{
	uint32_t i, p;

	memset(r, 0, sizeof(*r));
	r->entries = 1u << log_n;
	r->log_n = log_n;
	r->cqe_size = cqe_size;
	r->ring_size = (size_t)r->entries * cqe_size;
	r->ring = rte_malloc("perf_ring", r->ring_size, 4096);
	r->dbrec = rte_zmalloc("perf_dbrec", 64, 64);
	r->img[0] = malloc(r->ring_size);
	r->img[1] = malloc(r->ring_size);
	if (r->ring != NULL && r->dbrec != NULL)
		r->cq = mlx5cq_test_cq_wrap(r->ring, r->dbrec, log_n,
					    cqe_size, 0, 0, 0);
	if (r->cq == NULL || r->ring == NULL || r->dbrec == NULL ||
	    r->img[0] == NULL || r->img[1] == NULL) {
		perf_ring_free(r);
		return -1;
	}
	for (p = 0; p < 2; p++) {
		for (i = 0; i < r->entries; i++) {
			uint8_t *cqe = r->img[p] + (size_t)i * cqe_size +
				       cqe_size - 64;
			struct img_cqe d;

			if (cqe_size == 128)
				memset(cqe - 64, 0, 64);
			/* Contents repeat per pass; the owner bit differs. */
			perf_img_cqe(i, &d);
			img_cqe_payload(cqe, &d);
			cqe[IMG_OP_OWN] = img_op_own(&d, p);
		}
	}
	memset(r->ring, 0, r->ring_size);
	for (i = 0; i < r->entries; i++)
		r->ring[(size_t)i * cqe_size + cqe_size - 1] = 0xf1;
	return 0;
}

static void
perf_flush(const struct perf_ring *r)
{
#ifdef RTE_ARCH_X86
	size_t off;

	for (off = 0; off < r->ring_size; off += 64)
		_mm_clflush(r->ring + off);
	_mm_mfence();
#else
	RTE_SET_USED(r);
#endif
}

/* Make every entry a fresh completion of the consumer's current pass. */
static int
perf_refill(struct perf_ring *r, int flush)
{
	uint32_t left = r->entries;

	if (r->ctx != NULL) {
		while (left) {
			uint32_t k = RTE_MIN(left, (uint32_t)PERF_POST_CHUNK);
			uint32_t i;
			int ret;

			for (i = 0; i < k; i++) {
				if (r->var != NULL)
					perf_var_cpl(r->var, r->seq + i,
						     &r->post[i]);
				else
					perf_emu_cpl(r->seq + i, &r->post[i]);
			}
			ret = mlx5_emu_cq_post(r->ctx, r->cqn, r->post, k);
			if (ret != (int)k) {
				printf("perf: mlx5_emu_cq_post: %d of %u\n",
				       ret, k);
				return -1;
			}
			r->seq += k;
			left -= k;
		}
	} else {
		/* The consumer index is at a pass boundary here. */
		memcpy(r->ring, r->img[(r->cq->ci >> r->log_n) & 1],
		       r->ring_size);
		r->seq += r->entries;
	}
	if (flush)
		perf_flush(r);
	return 0;
}

/*
 * One pass of the poll over the whole ring, timed in slices of
 * PERF_SLICE completions: a slice hit by an interrupt or a preemption is
 * one outlier sample, not a spoiled pass. Appends cycles per completion
 * of each slice to v; returns the number of samples, 0 on a wrong count.
 */
static unsigned int
perf_poll_pass(struct perf_ring *r, uint16_t burst, double *v)
{
	struct rte_mlx5cq *cq = r->cq;
	const uint32_t total = r->entries;
	const uint32_t slice = RTE_MIN(total, (uint32_t)PERF_SLICE);
	uint32_t got = 0, start, ns = 0;
	uint64_t t0, t1;

	while (got < total) {
		start = got;
		t0 = rte_rdtsc_precise();
		while (got - start < slice) {
			uint16_t n = rte_mlx5cq_poll_burst(cq, perf_cpl,
							   burst);

			if (unlikely(n == 0))
				break;
			got += n;
		}
		t1 = rte_rdtsc_precise();
		if (got == start)
			break;
		v[ns++] = (double)(t1 - t0) / (got - start);
	}
	perf_sink += perf_cpl[0].byte_cnt;
	if (got != total) {
		printf("perf: pass drained %u of %u completions\n", got,
		       total);
		return 0;
	}
	return ns;
}

/* Raw loads of CQE fields: the reference loop never byte-swaps. */
#define PERF_LD32(p, off) (*(const volatile uint32_t *)((p) + (off)))
#define PERF_LD16(p, off) (*(const volatile uint16_t *)((p) + (off)))

/*
 * The reference loop's reads of one completion, the bytes a PMD needs:
 * the owner byte (read by the caller), then the fields a PMD turns into an
 * mbuf (byte count, RSS hash, header types, VLAN, WQE counter) of a
 * regular CQE, or the 8 bytes of a mini-CQE (the title's fields once per
 * session). The values are summed, never byte-swapped or stored.
 */
static __rte_always_inline uint64_t
perf_ref_cqe(const volatile uint8_t *q)
{
	return (uint64_t)PERF_LD32(q, RTE_MLX5CQ_CQE_BYTE_CNT) +
	       PERF_LD32(q, RTE_MLX5CQ_CQE_RX_HASH_RES) +
	       PERF_LD32(q, RTE_MLX5CQ_CQE_HDR_TYPE_ETC) +
	       PERF_LD16(q, RTE_MLX5CQ_CQE_WQE_COUNTER);
}

/*
 * INVALIDATE into the op_own byte of the cnt entries from ring index ci:
 * a pointer walk, eight stores a step, where the span does not wrap.
 */
static __rte_always_inline void
perf_inv_span(uint8_t *ring, uint32_t mask, unsigned int shift, uint32_t ci,
	      uint32_t cnt)
{
	const size_t st = (size_t)1 << shift;
	volatile uint8_t *p = ring + ((size_t)(ci & mask) << shift) +
			      RTE_MLX5CQ_CQE_OP_OWN;
	uint32_t j = 0;

	if ((ci & mask) + cnt <= mask + 1) {
		for (; j + 8 <= cnt; j += 8, p += 8 * st) {
			p[0] = MLX5_CQE_INVALIDATE;
			p[st] = MLX5_CQE_INVALIDATE;
			p[2 * st] = MLX5_CQE_INVALIDATE;
			p[3 * st] = MLX5_CQE_INVALIDATE;
			p[4 * st] = MLX5_CQE_INVALIDATE;
			p[5 * st] = MLX5_CQE_INVALIDATE;
			p[6 * st] = MLX5_CQE_INVALIDATE;
			p[7 * st] = MLX5_CQE_INVALIDATE;
		}
		for (; j < cnt; j++, p += st)
			*p = MLX5_CQE_INVALIDATE;
		return;
	}
	for (; j < cnt; j++)
		ring[((size_t)((ci + j) & mask) << shift) +
		     RTE_MLX5CQ_CQE_OP_OWN] = MLX5_CQE_INVALIDATE;
}

/*
 * One pass of the reference loop, sliced as perf_poll_pass(): same
 * entries, same order, one entry at a time, no prefetch. Regular CQEs:
 * owner bit checked against the pass parity, then perf_ref_cqe().
 * Basic-layout sessions: the title's count and fields, then one 8-byte
 * load per mini-CQE from its array (holes are not touched), and with inv
 * the store of INVALIDATE into the op_own byte of each entry of the
 * session; enhanced-layout compressed CQEs: one load per mini-CQE. The
 * consumer index and doorbell record are moved at the end (untimed) so the
 * refill can go on.
 */
static unsigned int
perf_ref_pass(struct perf_ring *r, double *v, int inv)
{
	struct rte_mlx5cq *cq = r->cq;
	const uint32_t mask = r->entries - 1, total = r->entries;
	const uint32_t slice = RTE_MIN(total, (uint32_t)PERF_SLICE);
	const unsigned int shift = cq->stride_shift, off = cq->cqe_off;
	const unsigned int log_n = r->log_n;
	const int enh = r->var != NULL && r->var->comp_layout != 0;
	uint8_t *const ring = r->ring + off;
	uint32_t ci = cq->ci, i = 0, end, start, ns = 0;
	uint64_t t0, t1, sum = 0;

	while (i < total) {
		start = i;
		end = RTE_MIN(i + slice, total);
		t0 = rte_rdtsc_precise();
		while (i < end) {
			const volatile uint8_t *q =
				ring + ((size_t)(ci & mask) << shift);
			uint8_t op_own = q[RTE_MLX5CQ_CQE_OP_OWN];
			uint32_t cnt, j;

			if (((op_own >> 2) & 3) != RTE_MLX5CQ_FORMAT_COMPRESSED) {
				if (unlikely(!enh && (op_own & 1) !=
					     ((ci >> log_n) & 1)))
					goto stop;
				sum += perf_ref_cqe(q);
				ci++;
				i++;
				continue;
			}
			if (enh) {
				cnt = (op_own >> 4) + 1u;
				for (j = 0; j < cnt; j++)
					sum += *(const volatile uint64_t *)
						(q + 8 * j);
			} else {
				if (unlikely((op_own & 1) !=
					     ((ci >> log_n) & 1)))
					goto stop;
				cnt = rte_be_to_cpu_32(PERF_LD32(q,
						RTE_MLX5CQ_CQE_BYTE_CNT));
				sum += PERF_LD32(q, RTE_MLX5CQ_CQE_HDR_TYPE_ETC);
				for (j = 0; j < cnt; j++) {
					uint32_t a = j < 8 ? ci + 1 :
						     ci + 8 * (j / 8);
					const volatile uint8_t *m = ring +
						((size_t)(a & mask) << shift);

					sum += *(const volatile uint64_t *)
						(m + 8 * (j % 8));
				}
				if (inv)
					perf_inv_span(ring, mask, shift, ci,
						      cnt);
			}
			ci += cnt;
			i += cnt;
		}
		t1 = rte_rdtsc_precise();
		v[ns++] = (double)(t1 - t0) / (i - start);
	}
stop:
	perf_sink += sum;
	if (i < total) {
		printf("perf: reference loop stopped at %u of %u\n", i,
		       total);
		return 0;
	}
	cq->ci = ci;
	rte_io_wmb();
	cq->dbrec[0] = rte_cpu_to_be_32(ci & 0xffffff);
	return ns;
}

/* Poll implementations this CPU and EAL allow (index: enum). */
static int
perf_vec_usable(struct perf_ring *r, unsigned int v)
{
	return rte_mlx5cq_vec_set(r->cq, (enum rte_mlx5cq_vec)v) == 0;
}

/*
 * A refill and a timed pass of the reference loop (inv: ref+inv), its
 * samples appended to v[*n..] except in the warm-up round (k 0). 0, or -1.
 */
static int
perf_ref_round(struct perf_ring *r, int flush, int inv, double *v,
		 unsigned int *n, unsigned int k)
{
	unsigned int got;

	if (perf_refill(r, flush) != 0)
		return -1;
	got = perf_ref_pass(r, v + *n, inv);
	if (got == 0)
		return -1;
	if (k > 0)
		*n += got;
	return 0;
}

/*
 * Timed passes of every poll implementation with the given burst, then a
 * timed pass of the reference loop over the same ring (refilled before
 * each), so all see the same conditions. One warm-up round first (page
 * faults, branch predictors). At least reps rounds, more on small rings so
 * every case has at least PERF_MIN_SLICES slices. Medians over every slice
 * go to poll[] (negative: implementation not usable here), ref and ref_inv
 * (negative: no ref+inv on this ring).
 */
static int
perf_measure(struct perf_ring *r, int flush, uint16_t burst,
	     unsigned int reps, double *poll, double *ref, double *ref_inv)
{
	const uint32_t per_pass = (r->entries + PERF_SLICE - 1) / PERF_SLICE;
	unsigned int passes = RTE_MAX(reps, PERF_MIN_SLICES / per_pass);
	size_t cap = (size_t)per_pass * (passes + 1);
	double *vp[RTE_MLX5CQ_VEC_MAX] = { NULL };
	double *vr = malloc(sizeof(*vr) * cap);
	double *vi = malloc(sizeof(*vi) * cap);
	/* ref+inv: sessions of the basic layout only. */
	const int inv = r->var != NULL && r->var->comp_format != 0 &&
			r->var->comp_layout == 0;
	unsigned int np[RTE_MLX5CQ_VEC_MAX] = { 0 }, nr = 0, ni = 0, k, v;
	unsigned int got;
	int usable[RTE_MLX5CQ_VEC_MAX] = { 0 };
	int ret = -1;

	/* Only this architecture's columns (no log line for the others). */
	for (v = 0; v < RTE_DIM(test_vec_arch); v++)
		usable[test_vec_arch[v]] = perf_vec_usable(r, test_vec_arch[v]);
	for (v = 0; v < RTE_MLX5CQ_VEC_MAX; v++) {
		vp[v] = malloc(sizeof(*vp[v]) * cap);
		if (vp[v] == NULL)
			goto out;
	}
	if (vr == NULL || vi == NULL)
		goto out;
	for (k = 0; k <= passes; k++) {
		for (v = 0; v < RTE_MLX5CQ_VEC_MAX; v++) {
			if (!usable[v])
				continue;
			rte_mlx5cq_vec_set(r->cq, (enum rte_mlx5cq_vec)v);
			if (perf_refill(r, flush) != 0)
				goto out;
			got = perf_poll_pass(r, burst, vp[v] + np[v]);
			if (got == 0)
				goto out;
			if (k > 0)
				np[v] += got;
		}
		if (perf_ref_round(r, flush, 0, vr, &nr, k) != 0 ||
		    (inv && perf_ref_round(r, flush, 1, vi, &ni, k) != 0))
			goto out;
	}
	for (v = 0; v < RTE_MLX5CQ_VEC_MAX; v++)
		poll[v] = usable[v] ? median(vp[v], np[v]) : -1;
	*ref = median(vr, nr);
	*ref_inv = inv ? median(vi, ni) : -1;
	rte_mlx5cq_vec_set(r->cq, rte_mlx5cq_vec_best());
	ret = 0;
out:
	for (v = 0; v < RTE_MLX5CQ_VEC_MAX; v++)
		free(vp[v]);
	free(vr);
	free(vi);
	return ret;
}

static int
perf_write_json(const char *path, const struct perf_case_result *res,
		unsigned int n, unsigned int reps, const char *mode)
{
	FILE *f = fopen(path, "w");
	unsigned int i, v;

	if (f == NULL) {
		printf("perf: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	fprintf(f, "{\n  \"tsc_hz\": %" PRIu64 ",\n  \"reps\": %u,\n"
		"  \"statistic\": \"median of %u-completion slices\",\n"
		"  \"refill\": \"%s\",\n  \"cases\": [\n", rte_get_tsc_hz(),
		reps, PERF_SLICE, mode);
	for (i = 0; i < n; i++) {
		fprintf(f, "    {\"name\": \"%s\", \"cqe_size\": %u, "
			"\"entries\": %u, \"ring_state\": \"%s\", "
			"\"burst\": %u, ", res[i].name, res[i].cqe_size,
			res[i].entries, res[i].state, res[i].burst);
		for (v = 0; v < RTE_DIM(test_vec_arch); v++)
			fprintf(f, "\"%s\": %.3f, ",
				rte_mlx5cq_vec_name(test_vec_arch[v]),
				res[i].poll_cpc[test_vec_arch[v]]);
		fprintf(f, "\"ref\": %.3f", res[i].ref_cpc);
		if (res[i].ref_inv_cpc >= 0)
			fprintf(f, ", \"ref_inv\": %.3f", res[i].ref_inv_cpc);
		fprintf(f, "}%s\n", i + 1 < n ? "," : "");
	}
	fprintf(f, "  ]\n}\n");
	fclose(f);
	return 0;
}

/* One line of the table. */
static void
perf_print(const struct perf_case_result *c)
{
	double best = -1;
	unsigned int v;

	printf("%-26s", c->name);
	for (v = 0; v < RTE_DIM(test_vec_arch); v++) {
		const double x = c->poll_cpc[test_vec_arch[v]];

		if (x < 0) {
			printf(" %7s", "n/a");
			continue;
		}
		printf(" %7.2f", x);
		if (best < 0 || x < best)
			best = x;
	}
	printf(" %7.2f %8.2f", c->ref_cpc, best / c->ref_cpc);
	if (c->ref_inv_cpc >= 0)
		printf(" %7.2f %8.2f", c->ref_inv_cpc,
		       best / c->ref_inv_cpc);
	printf("\n");
	fflush(stdout);
}

static void
perf_header(const char *first, int inv)
{
	unsigned int v;

	printf("%-26s", first);
	for (v = 0; v < RTE_DIM(test_vec_arch); v++)
		printf(" %7s", rte_mlx5cq_vec_name(test_vec_arch[v]));
	printf(" %7s %8s", "ref", "best/ref");
	if (inv)
		printf(" %7s %8s", "ref+inv", "best/ri");
	printf("\n");
}

/* --case PREFIX: only the cases whose name starts with it ("PMD": the
 * PMD RX table).
 */
static int
perf_wanted(const char *only, const char *name)
{
	return only == NULL || strncmp(name, only, strlen(only)) == 0;
}

int
bench_cq_perf(int argc, char **argv)
{
	static const uint16_t cqe_sizes[] = { 64, 128 };
	static const uint32_t log_sizes[] = { 10, 12, 14 };
	static const uint16_t bursts[] = { 1, 32 };
	static const char * const states[] = { "warm", "flushed" };
	static const struct perf_variant variants[] = {
		{ "hash-s64", 64, RTE_MLX5CQ_COMP_HASH, 0, 0, 0, 64, 0 },
		{ "hash-s8+8plain", 64, RTE_MLX5CQ_COMP_HASH, 0, 0, 0, 8, 8 },
		{ "hash-s8", 64, RTE_MLX5CQ_COMP_HASH, 0, 0, 0, 8, 0 },
		{ "csum-s64", 64, RTE_MLX5CQ_COMP_CSUM, 0, 0, 0, 64, 0 },
		{ "ftag-s64", 64, RTE_MLX5CQ_COMP_FTAG_STRIDX, 0, 0, 0, 64, 0 },
		{ "csumstr-s64", 64, RTE_MLX5CQ_COMP_CSUM_STRIDX, 0, 0, 0, 64,
		  0 },
		{ "l34h-s64", 64, RTE_MLX5CQ_COMP_L34H_STRIDX, 0, 0, 0, 64, 0 },
		{ "hash-enh", 64, RTE_MLX5CQ_COMP_HASH, 1, 0, 0, 64, 0 },
		{ "hash-128-s64", 128, RTE_MLX5CQ_COMP_HASH, 0, 0, 0, 64, 0 },
		{ "hash-enh-128", 128, RTE_MLX5CQ_COMP_HASH, 1, 0, 0, 64, 0 },
		{ "128pad", 128, 0, 0, RTE_MLX5CQ_F_CQE_PAD, 0, 0, 0 },
		{ "err1pct", 64, 0, 0, 0, 100, 0, 0 },
	};
	static const uint32_t var_logs[] = { 10, 14 };
	struct perf_case_result res[RTE_DIM(cqe_sizes) * RTE_DIM(log_sizes) *
				    2 * RTE_DIM(bursts) +
				    RTE_DIM(variants) * RTE_DIM(var_logs)];
	unsigned int reps = PERF_REPS_DEFAULT, nres = 0;
	unsigned int s, l, f, b;
	const char *json = NULL, *mode = NULL, *only = NULL;
	int force_image = 0, i;

	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
			json = argv[++i];
		} else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
			reps = (unsigned int)atoi(argv[++i]);
			if (reps < 1 || reps > PERF_REPS_MAX) {
				printf("perf: --reps 1..%d\n", PERF_REPS_MAX);
				return 2;
			}
		} else if (strcmp(argv[i], "--image") == 0) {
			force_image = 1;
		} else if (strcmp(argv[i], "--case") == 0 && i + 1 < argc) {
			only = argv[++i];
		} else {
			printf("usage: perf [--json FILE] [--reps N] "
			       "[--image] [--case PREFIX]\n");
			return 2;
		}
	}
	printf("perf: TSC %.3f GHz, lcore %u, >= %u timed passes per case, "
	       "median over %u-completion slices, cycles per completion;"
	       " default poll: %s\n", rte_get_tsc_hz() / 1e9, rte_lcore_id(),
	       reps, PERF_SLICE, rte_mlx5cq_vec_name(rte_mlx5cq_vec_best()));
	perf_header("case", 0);
	for (s = 0; s < RTE_DIM(cqe_sizes); s++) {
		for (l = 0; l < RTE_DIM(log_sizes); l++) {
			struct perf_ring r;
			const char *m;

			if (!force_image && perf_ring_emu(&r, log_sizes[l],
							  cqe_sizes[s],
							  NULL) == 0) {
				m = "emu-devx";
			} else if (perf_ring_image(&r, log_sizes[l],
						   cqe_sizes[s]) == 0) {
				m = "image";
			} else {
				printf("perf: no memory for a %u x %u B ring\n",
				       1u << log_sizes[l], cqe_sizes[s]);
				return 1;
			}
			if (mode == NULL)
				mode = m;
			else if (strcmp(mode, m) != 0)
				mode = "mixed";
			for (f = 0; f < RTE_DIM(states); f++) {
				for (b = 0; b < RTE_DIM(bursts); b++) {
					struct perf_case_result *c =
						&res[nres];

					snprintf(c->name, sizeof(c->name),
						 "%uB/%uK/%s/b%u",
						 cqe_sizes[s],
						 r.entries / 1024, states[f],
						 bursts[b]);
					if (!perf_wanted(only, c->name))
						continue;
					nres++;
					if (perf_measure(&r, f, bursts[b], reps,
							 c->poll_cpc,
							 &c->ref_cpc,
							 &c->ref_inv_cpc) != 0) {
						perf_ring_free(&r);
						return 1;
					}
					c->cqe_size = cqe_sizes[s];
					c->entries = r.entries;
					c->state = states[f];
					c->burst = bursts[b];
					perf_print(c);
				}
			}
			perf_ring_free(&r);
		}
	}
	/*
	 * Second table: compressed sessions (HASH of 64, of 8, of 8 between
	 * runs of 8 plain CQEs; every other format; enhanced; 128 B),
	 * padded 128 B CQEs and 1 % error CQEs, burst 32, a small warm ring
	 * and a 16K flushed one; the model writes the rings (emu only).
	 */
	if (!force_image) {
		unsigned int v;

		perf_header("variant", 1);
		for (v = 0; v < RTE_DIM(variants); v++) {
			for (l = 0; l < RTE_DIM(var_logs); l++) {
				struct perf_ring r;
				struct perf_case_result *c = &res[nres];

				snprintf(c->name, sizeof(c->name),
					 "%s/%uK/%s", variants[v].name,
					 (1u << var_logs[l]) / 1024, states[l]);
				if (!perf_wanted(only, c->name))
					continue;
				if (perf_ring_emu(&r, var_logs[l],
						  variants[v].cqe_size,
						  &variants[v]) != 0) {
					printf("perf: no CQ for %s\n",
					       variants[v].name);
					return 1;
				}
				if (perf_measure(&r, l, 32, reps, c->poll_cpc,
						 &c->ref_cpc,
						 &c->ref_inv_cpc) != 0) {
					perf_ring_free(&r);
					return 1;
				}
				nres++;
				c->cqe_size = variants[v].cqe_size;
				c->entries = r.entries;
				c->state = states[l];
				c->burst = 32;
				perf_print(c);
				perf_ring_free(&r);
			}
		}
	}
	printf("refill: %s%s\n", mode,
	       strcmp(mode, "image") == 0 ? " (memcpy of a prepared ring)" :
	       " (mlx5_emu_cq_post on a DevX CQ)");
	if (json != NULL && perf_write_json(json, res, nres, reps, mode) != 0)
		return 1;
	/* Last: the PMD's RX burst on prepared rings (emulated HCA only). */
	if (!force_image && perf_wanted(only, "PMD"))
		return bench_cq_perf_rx_table(reps, NULL);
	return 0;
}
