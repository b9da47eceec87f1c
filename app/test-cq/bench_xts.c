/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * dpdk-test-cq -- bench-xts [--reps N]: throughput of the emulated HCA's
 * AES-XTS path as a crypto PMD drives it: per message one UMR WQE (KLM +
 * crypto BSF) and one RDMA-write WQE (CQE always) on a loopback QP,
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

#include "test.h"
#include "test_cq.h"
#include "test_xts_fix.h"
#include "test_xts_vectors.h"

#define BENCH_BATCH 32 /* 5 WQEBBs each: within the 256-WQEBB ring. */
#define BENCH_BYTES (64u << 20)
#define BENCH_MAX_REPS 31

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

/* One run: MB/s, or a negative value when a completion is wrong. */
static double
bench_run(struct xfix *f, const struct bench_case *c, uint32_t dek)
{
	uint64_t msgs = BENCH_BYTES / c->size, done = 0;
	struct timespec t0, t1;
	struct seg s = { c->size, f->mr->lkey, f->buf };
	struct seg t = { c->size, f->mr->lkey, f->buf + BUF_LEN / 2 };
	struct bsf_p b;
	unsigned int i, n;

	bsf_init(&b, dek, c->size);
	b.bsp = c->bsp;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	while (done < msgs) {
		const uint8_t *cqe;

		n = msgs - done < BENCH_BATCH ? msgs - done : BENCH_BATCH;
		for (i = 0; i < n; i++) {
			post_umr(f, &t, 1, c->size, &b);
			post_write(f, &s, 1, 0, f->mkey_key);
		}
		ring_db(f);
		/* The batch's last CQE: a requester CQE of this pass. */
		f->ci += n;
		cqe = (const uint8_t *)(uintptr_t)
			&f->cq.cqes[(f->ci - 1) & ((1u << LOG_CQ) - 1)];
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
test_cq_bench_xts(int argc, char **argv)
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
