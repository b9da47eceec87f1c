/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * dpdk-bench-mlx5 <EAL args> -- [--reps N]
 *
 * For each case of dpdk-test-cq's perf-rx (1K/4K ring, plain CQEs or
 * HASH-compressed sessions, a mempool of 16384 mbufs in 1 or 16 chunks):
 * cycles per packet of DPDK 22.11's mlx5_rx_burst and mlx5_rx_burst_vec,
 * timed exactly as perf-rx times rte_eth_rx_burst: per pass the emulated
 * HCA fills the ring (untimed: frames into the posted buffers, their
 * completions into the CQ), then bursts of 32 are timed one by one with
 * rte_rdtsc_precise until the pass is drained, the mbufs freed outside
 * the timed region; the first pass is a warm-up; the result is the median
 * of the cycles per packet of slices of about 1024 packets.
 *
 * Before each pass one burst is called on the empty CQ (untimed): it
 * returns nothing, and lets the vector path replenish the RQ as it does on
 * every call, so each pass meets a full RQ as a polling application's
 * queue does after an idle poll.
 *
 * Prints one line per case: "RESULT <case> <scalar> <vec> <regions>"
 * (regions: the pool's memory regions by DPDK's rule).
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_vect.h>

#include "bench_dpdk_mlx5.h"

#define BENCH_BURST 32
#define BENCH_SLICE 1024
#define BENCH_POOL_N 16384

struct bench_case {
	const char *name;
	uint32_t log_desc;
	int compressed;
	unsigned int chunks;
};

/* The cases of perf-rx, in its order. */
static const struct bench_case bench_cases[] = {
	{ "1K/plain/1chunk", 10, 0, 1 },
	{ "1K/plain/16chunk", 10, 0, 16 },
	{ "4K/plain/1chunk", 12, 0, 1 },
	{ "4K/plain/16chunk", 12, 0, 16 },
	{ "1K/hash/1chunk", 10, 1, 1 },
	{ "1K/hash/16chunk", 10, 1, 16 },
	{ "4K/hash/1chunk", 12, 1, 1 },
	{ "4K/hash/16chunk", 12, 1, 16 },
};

struct bench_samples {
	uint64_t *cyc;
	uint32_t *pkts;
	unsigned int n;
	unsigned int cap;
};

static int
bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
bench_median(const struct bench_samples *s)
{
	double *v = malloc(sizeof(*v) * (s->n ? s->n : 1));
	double m;
	unsigned int i;

	if (v == NULL || s->n == 0) {
		free(v);
		return -1;
	}
	for (i = 0; i < s->n; i++)
		v[i] = (double)s->cyc[i] / s->pkts[i];
	qsort(v, s->n, sizeof(*v), bench_cmp);
	m = s->n & 1 ? v[s->n / 2] : (v[s->n / 2 - 1] + v[s->n / 2]) / 2;
	free(v);
	return m;
}

/*
 * What DPDK made of the CQEs (untimed; the free reads the same mbuf
 * lines): every packet 60 bytes, IPv4/UDP, RSS hash of the completion.
 */
static int
bench_check(struct rte_mbuf **m, uint16_t n)
{
	const uint32_t ptype = RTE_PTYPE_L3_MASK | RTE_PTYPE_L4_MASK;
	uint16_t i;

	for (i = 0; i < n; i++) {
		if (m[i]->pkt_len != BENCH_FRAME_LEN ||
		    m[i]->data_len != BENCH_FRAME_LEN || m[i]->nb_segs != 1 ||
		    !(m[i]->ol_flags & RTE_MBUF_F_RX_RSS_HASH) ||
		    m[i]->hash.rss != BENCH_RSS_HASH ||
		    (m[i]->packet_type & ptype) !=
		    (RTE_PTYPE_L3_IPV4_EXT_UNKNOWN | RTE_PTYPE_L4_UDP)) {
			printf("bench: packet of %u bytes (%u in the mbuf),"
			       " ptype 0x%x, hash 0x%x, ol_flags 0x%" PRIx64
			       "\n", m[i]->pkt_len, m[i]->data_len,
			       m[i]->packet_type, m[i]->hash.rss,
			       m[i]->ol_flags);
			return -1;
		}
	}
	return 0;
}

/* Drain n packets, timing each burst; slices go to s (NULL: warm-up). */
static int
bench_drain(bench_rx_fn rx, void *rxq, uint32_t n, struct bench_samples *s)
{
	struct rte_mbuf *m[BENCH_BURST];
	uint32_t got = 0, in_slice = 0;
	uint64_t slice_cyc = 0;
	unsigned int idle = 0;

	while (got < n) {
		uint64_t t0, t1;
		uint16_t r;

		t0 = rte_rdtsc_precise();
		r = rx(rxq, m, BENCH_BURST);
		t1 = rte_rdtsc_precise();
		if (r == 0) {
			if (++idle > 1000) {
				printf("bench: %u of %u packets received\n",
				       got, n);
				return -1;
			}
			continue;
		}
		slice_cyc += t1 - t0;
		in_slice += r;
		got += r;
		if (bench_check(m, r) != 0)
			return -1;
		rte_pktmbuf_free_bulk(m, r);
		if (s != NULL && (in_slice >= BENCH_SLICE || got >= n)) {
			if (s->n == s->cap)
				return -1;
			s->cyc[s->n] = slice_cyc;
			s->pkts[s->n] = in_slice;
			s->n++;
			slice_cyc = 0;
			in_slice = 0;
		}
	}
	return got == n ? 0 : -1;
}

/* One function on one case: median cycles per packet, or -1. */
static double
bench_run(const struct bench_case *bc, enum bench_fn fn,
	  struct rte_mempool *mp, const struct bench_range *mrs,
	  unsigned int mrs_n, unsigned int reps, unsigned int id)
{
	uint32_t desc = 1u << bc->log_desc;
	bench_rx_fn rx = bench_rxq_fn(fn);
	struct bench_samples s = { .n = 0 };
	struct bench_rxq_conf conf;
	struct bench_wire w;
	struct bench_rxq *q = NULL;
	struct rte_mbuf *none[BENCH_BURST];
	double med = -1;
	unsigned int r;

	s.cap = reps * (desc / BENCH_SLICE + 2);
	s.cyc = calloc(s.cap, sizeof(*s.cyc));
	s.pkts = calloc(s.cap, sizeof(*s.pkts));
	if (s.cyc == NULL || s.pkts == NULL ||
	    bench_wire_open(&w, id, desc, bc->compressed) != 0)
		goto out_free;
	memset(&conf, 0, sizeof(conf));
	conf.cqes = w.ring;
	conf.cq_db = w.dbrec;
	conf.cqn = w.cqn;
	conf.log_cqe = bc->log_desc; /* DPDK sizes the RX CQ to the RQ. */
	conf.log_desc = bc->log_desc;
	conf.compressed = bc->compressed;
	conf.mp = mp;
	conf.mrs = mrs;
	conf.mrs_n = mrs_n;
	q = bench_rxq_create(&conf);
	if (q == NULL)
		goto out;
	for (r = 0; r <= reps; r++) {
		int n;

		if (rx(bench_rxq_queue(q), none, BENCH_BURST) != 0) {
			printf("bench: %s: CQ not empty between passes\n",
			       bc->name);
			goto out;
		}
		n = bench_wire_deliver(&w, q, desc);
		if (n <= 0 ||
		    bench_drain(rx, bench_rxq_queue(q), (uint32_t)n,
				r == 0 ? NULL : &s) != 0) {
			printf("bench: %s: pass %u did not drain\n", bc->name,
			       r);
			goto out;
		}
	}
	med = bench_median(&s);
out:
	bench_rxq_destroy(q);
	bench_wire_close(&w);
out_free:
	free(s.cyc);
	free(s.pkts);
	return med;
}

static int
bench_case_run(const struct bench_case *bc, unsigned int k,
	       unsigned int reps)
{
	struct bench_range *mrs = NULL;
	struct rte_mempool *mp;
	unsigned int mrs_n = 0;
	char name[32];
	double sc, vec;
	int ret = -1;

	snprintf(name, sizeof(name), "bdm_rx%u", k);
	mp = bench_pool_create(name, BENCH_POOL_N, bc->chunks);
	if (mp == NULL || bench_pool_ranges(mp, &mrs, &mrs_n) != 0)
		goto out;
	sc = bench_run(bc, BENCH_FN_SCALAR, mp, mrs, mrs_n, reps, 2 * k);
	vec = bench_run(bc, BENCH_FN_VEC, mp, mrs, mrs_n, reps, 2 * k + 1);
	if (sc < 0 || vec < 0)
		goto out;
	printf("%-18s %5u %10.2f %10.2f\n", bc->name, mrs_n, sc, vec);
	printf("RESULT %s %.2f %.2f %u\n", bc->name, sc, vec, mrs_n);
	fflush(stdout);
	ret = 0;
out:
	free(mrs);
	rte_mempool_free(mp);
	return ret;
}

int
main(int argc, char **argv)
{
	unsigned int reps = 15, i;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("bench: EAL init failed: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	argc -= ret;
	argv += ret;
	if (argc == 3 && strcmp(argv[1], "--reps") == 0)
		reps = (unsigned int)atoi(argv[2]);
	else if (argc != 1) {
		printf("usage: %s <EAL args> -- [--reps N]\n", argv[0]);
		rte_eal_cleanup();
		return 2;
	}
	if (reps < 1 || reps > 1000) {
		printf("bench: --reps 1..1000\n");
		rte_eal_cleanup();
		return 2;
	}
	if (rte_vect_get_max_simd_bitwidth() < RTE_VECT_SIMD_128)
		printf("bench: max SIMD bitwidth below 128: net/mlx5 would not"
		       " select mlx5_rx_burst_vec; timed anyway\n");
	printf("DPDK net/mlx5 RX, burst %u, %u timed passes, vector unit %s"
	       ", TSC %" PRIu64 " Hz\n", BENCH_BURST, reps,
	       bench_rxq_vec_name(), rte_get_tsc_hz());
	printf("%-18s %5s %10s %10s\n", "case", "MRs", "rx_burst",
	       "rx_burst_vec");
	for (i = 0; i < RTE_DIM(bench_cases); i++) {
		if (bench_case_run(&bench_cases[i], i, reps) != 0) {
			printf("bench: case %s failed\n", bench_cases[i].name);
			rte_eal_cleanup();
			return 1;
		}
	}
	rte_eal_cleanup();
	return 0;
}
