/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * dpdk-bench-cq -- bench-xts [--reps N]: throughput of the emulated HCA's
 * AES-XTS path as a crypto PMD drives it: per message one UMR WQE (KLM +
 * crypto BSF) and one RDMA-write WQE (CQE always) on a loopback QP,
 * built as DPDK 22.11's crypto/mlx5 builds them: the fields every message
 * shares prepared once (its mlx5_crypto_qp_init()), each message's WQEs
 * copied from those templates with wide stores and then given their own
 * fields (WQE index, KLM target, lengths, tweak, DEK, source, rkey),
 * batches of BENCH_BATCH messages, the engine run by this thread
 * (mlx5_emu_net_progress()), CQEs consumed. AES-128-XTS, encryption,
 * message and data-unit sizes as the table says; median MB/s of N runs
 * (default 5) of BENCH_BYTES each, over the thread's CPU time (as
 * `openssl speed` measures: the machine's other load does not count).
 * Compare with `openssl speed -evp aes-128-xts -bytes SIZE`
 * (doc/guides/emulated_hca.rst).
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_byteorder.h>
#include <rte_common.h>

#include "test.h"
#include "bench_cq.h"
#include "test_dpdk_cq.h"
#include "test_xts_fix.h"
#include "test_xts_vectors.h"

#define BENCH_BATCH 32 /* 5 WQEBBs each: within the 256-WQEBB ring. */
#define BENCH_BYTES (64u << 20)
#define BENCH_MAX_REPS 31

#define BENCH_UMR_LEN 256 /* ctrl, umr ctrl, mkey seg, 4 KLMs, BSF. */
#define BENCH_WR_DS 3 /* ctrl, remote segment, one data segment. */

/* Byte offsets of the per-message fields (mlx5_prm.h struct
 * mlx5_umr_wqe, struct mlx5_wqe_umr_bsf_seg, struct mlx5_rdma_write_wqe).
 */
enum {
	B_CTRL_OPMOD_IDX = 0, /* wqe index << 8 | opcode */
	B_UMR_MKEY_LEN = 64 + 24, /* mkey segment: len */
	B_UMR_KLM0 = 128, /* byte count, mkey, address */
	B_UMR_BSF = 192,
	B_BSF_RAW = B_UMR_BSF + 4,
	B_BSF_TWEAK = B_UMR_BSF + 16,
	B_BSF_DEK = B_UMR_BSF + 32,
	B_WR_RADDR = 16,
	B_WR_RKEY = 24,
	B_WR_DSEG = 32, /* byte count, lkey, address */
};

/* The WQEs' shared fields, prepared once. */
struct bench_tpl {
	uint8_t umr[BENCH_UMR_LEN] __rte_aligned(64);
	uint8_t wr[WQEBB] __rte_aligned(64);
};

/* One message's own fields. */
struct bench_msg {
	uint32_t len;
	uint32_t lkey;
	const uint8_t *src;
	uint8_t *dst;
	uint32_t dek;
	uint32_t rkey;
	uint8_t tweak[16];
};

struct bench_case {
	uint32_t size;
	uint32_t du;
	uint8_t bsp; /* crypto_block_size_pointer of du. */
};

static const struct bench_case bench_cases[] = {
	{ 512, 512, 1 },
	{ 4096, 4096, 3 },
	{ 4096, 512, 1 },
	{ 16384, 4096, 3 },
};

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static inline void
st32(uint8_t *w, unsigned int off, uint32_t v)
{
	*(rte_be32_t *)(void *)(w + off) = rte_cpu_to_be_32(v);
}

static inline void
st64(uint8_t *w, unsigned int off, uint64_t v)
{
	*(rte_be64_t *)(void *)(w + off) = rte_cpu_to_be_64(v);
}

static void
bench_tpl_init(struct bench_tpl *t, const struct xfix *f,
	       const struct bench_case *c)
{
	uint8_t *u = t->umr, *w = t->wr;

	memset(t, 0, sizeof(*t));
	st32(u, 4, f->qpn << 8 | (BENCH_UMR_LEN / 16));
	st32(u, 12, f->mkey_key); /* misc: the mkey (one per queue slot). */
	st32(u, 16, 1u << MLX5_UMRC_IF_OFFSET); /* KLMs inline. */
	st32(u, 20, 4u << MLX5_UMRC_KO_OFFSET | 4u); /* 4 KLMs, 4 BSF o/w. */
	st64(u, 24, 1); /* mkey_mask: length. */
	/* BSF: 64 B, crypto, encryption order RAW_MEMORY, AES-XTS. */
	st32(u, B_UMR_BSF, (uint32_t)MLX5_BSF_SIZE_64B << 30 |
	     (uint32_t)MLX5_BSF_P_TYPE_CRYPTO << 24 |
	     (uint32_t)ORDER_RAW_MEMORY << 16 |
	     MLX5_ENCRYPTION_STANDARD_AES_XTS);
	st32(u, B_UMR_BSF + 8, (uint32_t)c->bsp << 24);
	st64(u, B_UMR_BSF + 40, KEYTAG);
	st32(w, 4, f->qpn << 8 | BENCH_WR_DS);
	st32(w, 8, CE_ALWAYS);
}

/* The WQE of nbb WQEBBs at f->pi copied from tpl: in the ring, or in
 * scratch when it wraps the ring (bench_wqe_wrap() then places it).
 */
static uint8_t *
bench_wqe_put(struct xfix *f, const uint8_t *tpl, unsigned int nbb,
	      uint8_t *scratch)
{
	unsigned int first = f->pi & ((1u << LOG_SQ) - 1);
	uint8_t *w;

	if (first + nbb <= (1u << LOG_SQ)) {
		w = wqe_at(f, f->pi);
		memcpy(w, tpl, (size_t)nbb * WQEBB);
		return w;
	}
	memcpy(scratch, tpl, (size_t)nbb * WQEBB);
	return scratch;
}

/* Copy a WQE built in scratch to the ring WQEBB by WQEBB (wrapping). */
static void
bench_wqe_wrap(struct xfix *f, const uint8_t *w, unsigned int nbb,
	       const uint8_t *scratch)
{
	unsigned int i;

	if (w != scratch)
		return;
	for (i = 0; i < nbb; i++)
		memcpy(wqe_at(f, (uint16_t)(f->pi + i)), w + i * WQEBB, WQEBB);
}

/* One message: its UMR and RDMA-write WQEs at f->pi. */
static void
bench_post(struct xfix *f, const struct bench_tpl *t,
	   const struct bench_msg *m)
{
	uint8_t scratch[BENCH_UMR_LEN] __rte_aligned(64);
	uint8_t *u, *w;

	u = bench_wqe_put(f, t->umr, BENCH_UMR_LEN / WQEBB, scratch);
	st32(u, B_CTRL_OPMOD_IDX, (uint32_t)f->pi << 8 | OP_UMR);
	st64(u, B_UMR_MKEY_LEN, m->len);
	st32(u, B_UMR_KLM0, m->len);
	st32(u, B_UMR_KLM0 + 4, m->lkey);
	st64(u, B_UMR_KLM0 + 8, (uintptr_t)m->dst);
	st32(u, B_BSF_RAW, m->len);
	memcpy(u + B_BSF_TWEAK, m->tweak, 16);
	st32(u, B_BSF_DEK, m->dek);
	bench_wqe_wrap(f, u, BENCH_UMR_LEN / WQEBB, scratch);
	f->pi += BENCH_UMR_LEN / WQEBB;
	w = wqe_at(f, f->pi); /* One WQEBB: never wraps. */
	memcpy(w, t->wr, WQEBB);
	st32(w, B_CTRL_OPMOD_IDX, (uint32_t)f->pi << 8 | OP_RDMA_WRITE);
	st64(w, B_WR_RADDR, 0);
	st32(w, B_WR_RKEY, m->rkey);
	st32(w, B_WR_DSEG, m->len);
	st32(w, B_WR_DSEG + 4, m->lkey);
	st64(w, B_WR_DSEG + 8, (uintptr_t)m->src);
	f->pi++;
}

/* One run: MB/s, or a negative value when a completion is wrong. */
static double
bench_run(struct xfix *f, const struct bench_case *c, uint32_t dek)
{
	uint64_t msgs = BENCH_BYTES / c->size, done = 0;
	struct timespec t0, t1;
	struct bench_msg m = {
		.len = c->size, .lkey = f->mr->lkey, .src = f->buf,
		.dst = f->buf + BUF_LEN / 2, .dek = dek, .rkey = f->mkey_key,
	};
	struct bench_tpl tpl;
	unsigned int i, n;

	bench_tpl_init(&tpl, f, c);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	while (done < msgs) {
		const uint8_t *cqe;

		n = msgs - done < BENCH_BATCH ? msgs - done : BENCH_BATCH;
		for (i = 0; i < n; i++)
			bench_post(f, &tpl, &m);
		ring_db(f);
		/* The batch's last CQE: a requester CQE of this pass. */
		f->ci += n;
		cqe = test_dpdk_cqe(&f->cq,
				    (f->ci - 1) & ((1u << LOG_CQ) - 1));
		if ((cqe[63] >> 4) != 0 ||
		    (cqe[63] & 1) != (((f->ci - 1) >> LOG_CQ) & 1))
			return -1;
		f->cq.db_rec[0] = rte_cpu_to_be_32(f->ci & 0xffffff);
		done += n;
	}
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
	return (double)msgs * c->size / 1e6 /
	       ((double)(t1.tv_sec - t0.tv_sec) +
		(double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
}

int
bench_cq_bench_xts(int argc, char **argv)
{
	double runs[BENCH_MAX_REPS];
	struct mlx5dv_devx_obj *d;
	unsigned int reps = 5, i, r;
	struct xfix f;
	uint32_t id;

	if (argc == 2 && strcmp(argv[0], "--reps") == 0)
		reps = (unsigned int)strtoul(argv[1], NULL, 0);
	if (reps == 0 || reps > BENCH_MAX_REPS) {
		printf("bench-xts: --reps 1..%u\n", BENCH_MAX_REPS);
		return 2;
	}
	if (xfix_open(&f, "emu_bench_xts") != TEST_SUCCESS)
		return 1;
	d = dek_make(&f, xts_v4_key, 16, &id);
	if (d == NULL) {
		xfix_close(&f);
		return 1;
	}
	memset(f.buf, 0x5a, BUF_LEN / 2);
	printf("emulated HCA AES-128-XTS encrypt, UMR + RDMA write per "
	       "message, median of %u runs of %u MiB\n", reps,
	       BENCH_BYTES >> 20);
	printf("%8s %8s %10s\n", "message", "unit", "MB/s");
	for (i = 0; i < RTE_DIM(bench_cases); i++) {
		for (r = 0; r < reps; r++)
			runs[r] = bench_run(&f, &bench_cases[i], id);
		qsort(runs, reps, sizeof(runs[0]), cmp_double);
		if (runs[0] < 0) {
			printf("bench-xts: a completion was not a requester "
			       "CQE\n");
			break;
		}
		printf("%8u %8u %10.1f\n", bench_cases[i].size,
		       bench_cases[i].du, runs[reps / 2]);
	}
	mlx5_glue->devx_obj_destroy(d);
	return xfix_close(&f) == TEST_SUCCESS && i == RTE_DIM(bench_cases) ?
	       0 : 1;
}
