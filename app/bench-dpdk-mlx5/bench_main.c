/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * dpdk-bench-mlx5 <EAL args> -- [--reps N] [--case NAME]
 *                                [--fill-lcore LCORE]
 *
 * For each case of dpdk-bench-cq's perf-rx (1K/4K ring, plain CQEs or
 * HASH-compressed sessions, a mempool of 16384 mbufs in 1 or 16 chunks,
 * the 16 chunks one memory region of the port by default, 16 with
 * mr_ext_memseg_en=0 in the 16mr cases):
 * cycles per packet of this project's net_mlx5cq RX burst
 * (rte_eth_rx_burst on a port of the emulated HCA, bench_port.c) and of
 * DPDK 22.11's mlx5_rx_burst and mlx5_rx_burst_vec, in one process on one
 * mempool per case, timed exactly as perf-rx times rte_eth_rx_burst: per
 * pass the emulated HCA fills the ring (untimed: frames into the posted
 * buffers, their completions into the CQ), then bursts of 32 are timed
 * one by one with rte_rdtsc_precise until the pass is drained, the mbufs
 * freed outside the timed region; the first pass is a warm-up; the result
 * is the median of the cycles per packet of slices of about 1024 packets.
 * net_mlx5cq and mlx5_rx_burst_vec run in rounds of a warm-up and
 * BENCH_BLOCK timed passes each, so they share the pool's memory and the
 * machine's spells: between processes a 4K case moves by up to 1.7x with
 * the pool's placement.
 *
 * Before each pass one burst is called on the empty CQ: it returns
 * nothing, and lets the vector path replenish the RQ as it does on every
 * call, so each pass meets a full RQ as a polling application's queue
 * does after an idle poll. That burst is timed as well, into the pass's
 * first slice: it replenishes buffers of the previous pass's packets.
 *
 * The mprq cases run the net_mlx5cq port with mprq_en=1,rxqs_min_mprq=1
 * (16 WQEs of 64 strides of 2048 B for a ring of 1024) against DPDK's
 * mlx5_rx_burst_mprq and mlx5_rx_burst_mprq_vec on striding RQs of the
 * same shape (bench_rxq.c), in the same rounds; with compression the
 * vector burst's CQ has HASH mini-CQEs and the scalar one's CSUM_STRIDX,
 * the formats net/mlx5 asks for (mlx5_devx.c).
 *
 * --fill-lcore LCORE: every pass fills its ring from that worker lcore
 * (bench_fill_lcore) instead of the timed one.
 *
 * Prints one line per case: "RESULT <case> <scalar> <vec> <regions>
 * <net_mlx5cq>" (regions: the pool's memory regions by DPDK's rule);
 * --case: that case alone.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_vect.h>

#include <rte_mlx5cq.h>

#include "bench_dpdk_mlx5.h"

#define BENCH_BURST 32
#define BENCH_SLICE 1024
#define BENCH_POOL_N 16384
#define BENCH_BLOCK 5u /* timed passes of a function in a row */

struct bench_case {
	const char *name;
	uint32_t log_desc;
	int compressed;
	unsigned int chunks;
	const char *devargs; /* more devargs of the net_mlx5cq port */
	uint32_t log_strd_num; /* striding RQ: log2 strides a WQE; 0: cyclic */
};

/* 16 chunks as 16 memory regions of the port (its lkey table). */
#define BENCH_16MR "mr_ext_memseg_en=0"
/* Multi-packet RQ on the port (its default 64 strides of 2048 B). */
#define BENCH_MPRQ "mprq_en=1,rxqs_min_mprq=1"
#define BENCH_LOG_STRD_NUM 6 /* MLX5_MPRQ_DEFAULT_LOG_STRIDE_NUM */
#define BENCH_LOG_STRD_SZ 11 /* 2048 B strides for MTU 1500 */

/* The cases of perf-rx, in its order. */
static const struct bench_case bench_cases[] = {
	{ "1K/plain/1chunk", 10, 0, 1, NULL },
	{ "1K/plain/16chunk", 10, 0, 16, NULL },
	{ "1K/plain/16chunk/16mr", 10, 0, 16, BENCH_16MR },
	{ "4K/plain/1chunk", 12, 0, 1, NULL },
	{ "4K/plain/16chunk", 12, 0, 16, NULL },
	{ "4K/plain/16chunk/16mr", 12, 0, 16, BENCH_16MR },
	{ "1K/hash/1chunk", 10, 1, 1, NULL },
	{ "1K/hash/16chunk", 10, 1, 16, NULL },
	{ "1K/hash/16chunk/16mr", 10, 1, 16, BENCH_16MR },
	{ "4K/hash/1chunk", 12, 1, 1, NULL },
	{ "4K/hash/16chunk", 12, 1, 16, NULL },
	{ "4K/hash/16chunk/16mr", 12, 1, 16, BENCH_16MR },
	/* Striding RQs: 1024 strides (log_desc), 16 WQEs of 64. */
	{ "1K/mprq", 10, 0, 1, BENCH_MPRQ, BENCH_LOG_STRD_NUM },
	{ "1K/mprq/hash", 10, 1, 1, BENCH_MPRQ, BENCH_LOG_STRD_NUM },
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
 * What the RX function made of the CQEs (untimed; the free reads the
 * same mbuf lines): every packet 60 bytes, IPv4/UDP, RSS hash and flag;
 * hash: the completions' one (BENCH_RSS_HASH) on DPDK's queues, on the
 * port the Toeplitz hash of the frame with the port's key (the emulated
 * wire computes it).
 */
static int
bench_check(struct rte_mbuf **m, uint16_t n, uint32_t hash)
{
	const uint32_t ptype = RTE_PTYPE_L3_MASK | RTE_PTYPE_L4_MASK;
	uint16_t i;

	for (i = 0; i < n; i++) {
		if (m[i]->pkt_len != BENCH_FRAME_LEN ||
		    m[i]->data_len != BENCH_FRAME_LEN || m[i]->nb_segs != 1 ||
		    !(m[i]->ol_flags & RTE_MBUF_F_RX_RSS_HASH) ||
		    m[i]->hash.rss != hash ||
		    (m[i]->packet_type & ptype) !=
		    (RTE_PTYPE_L3_IPV4_EXT_UNKNOWN | RTE_PTYPE_L4_UDP)) {
			printf("bench: packet of %u bytes (%u in the mbuf),"
			       " ptype 0x%x, hash 0x%x (0x%x expected),"
			       " ol_flags 0x%" PRIx64 "\n", m[i]->pkt_len,
			       m[i]->data_len, m[i]->packet_type,
			       m[i]->hash.rss, hash, m[i]->ol_flags);
			return -1;
		}
	}
	return 0;
}

/*
 * One RX function of a case: DPDK's (rx on the queue q, its CQ written by
 * the emulated HCA through w) or the project's port p, and its samples.
 */
struct bench_fn_q {
	const char *name;
	bench_rx_fn rx; /* DPDK's function, NULL: the port */
	struct bench_wire w;
	struct bench_rxq *q;
	void *rxq;
	struct bench_port p;
	uint16_t port; /* the port's id (rx == NULL) */
	uint32_t hash;
	struct bench_samples s;
};

/* A burst of the function (timed by the caller). */
static __rte_always_inline uint16_t
bench_burst(const struct bench_fn_q *f, struct rte_mbuf **m)
{
	if (f->rx == NULL)
		return rte_eth_rx_burst(f->port, 0, m, BENCH_BURST);
	return f->rx(f->rxq, m, BENCH_BURST);
}

/*
 * Drain n packets, timing each burst; slices go to s (NULL: warm-up);
 * cyc0: cycles the first slice starts with.
 */
static int
bench_drain(struct bench_fn_q *f, uint32_t n, struct bench_samples *s,
	    uint64_t cyc0)
{
	struct rte_mbuf *m[BENCH_BURST];
	uint32_t got = 0, in_slice = 0;
	uint64_t slice_cyc = cyc0;
	unsigned int idle = 0;

	while (got < n) {
		uint64_t t0, t1;
		uint16_t r;

		t0 = rte_rdtsc_precise();
		r = bench_burst(f, m);
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
		if (bench_check(m, r, f->hash) != 0)
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

/*
 * One pass of a function: a burst on the empty CQ (it must return
 * nothing), one ring's worth of frames delivered, then drained with every
 * burst timed (warm: the warm-up pass, not sampled). The burst on the
 * empty CQ is timed too, its cycles in the pass's first slice: DPDK's
 * vector RX replenishes the RQ at the start of a burst, from a threshold
 * on (64 buffers), so that burst holds the replenishment of the last
 * buffers the previous pass consumed; net_mlx5cq replaces each buffer in
 * the burst that takes its packet.
 */
/*
 * The lcore the passes fill the rings from (--fill-lcore): LCORE_ID_ANY,
 * the timed lcore itself. From another lcore both sides' rings reach the
 * timed core as a device's writes do, through the coherence protocol, and
 * neither fill leaves its own footprint in the timed core's caches: the
 * port's fill walks the emulated HCA's wire, steering and MR checks,
 * DPDK's queues get a bare copy and CQ post (bench_wire.c), and on a 4K
 * ring that difference decides how many mbuf headers stay cached.
 */
static unsigned int bench_fill_lcore = LCORE_ID_ANY;

struct bench_fill_arg {
	struct bench_fn_q *f;
	uint32_t desc;
	int n; /* filled, or -1 */
};

static int
bench_fill_run(void *arg)
{
	struct bench_fill_arg *a = arg;

	a->n = a->f->rx == NULL ? bench_port_fill(&a->f->p) :
				  bench_wire_deliver(&a->f->w, a->f->q,
						     a->desc);
	return 0;
}

static int
bench_pass(struct bench_fn_q *f, uint32_t desc, int warm)
{
	struct bench_fill_arg fa = { f, desc, -1 };
	struct rte_mbuf *none[BENCH_BURST];
	uint64_t t0, t1;
	uint16_t r;
	int n;

	t0 = rte_rdtsc_precise();
	r = bench_burst(f, none);
	t1 = rte_rdtsc_precise();
	if (r != 0) {
		printf("bench: %s: CQ not empty between passes\n", f->name);
		return -1;
	}
	if (bench_fill_lcore == LCORE_ID_ANY)
		bench_fill_run(&fa);
	else if (rte_eal_remote_launch(bench_fill_run, &fa,
				       bench_fill_lcore) != 0 ||
		 rte_eal_wait_lcore(bench_fill_lcore) != 0)
		fa.n = -1;
	n = fa.n;
	if (n <= 0 || bench_drain(f, (uint32_t)n, warm ? NULL : &f->s,
				  t1 - t0) != 0) {
		printf("bench: %s: a pass did not drain\n", f->name);
		return -1;
	}
	return 0;
}

/* A DPDK queue (rx != NULL) or the port on the case's pool. */
static int
bench_fn_open(struct bench_fn_q *f, const struct bench_case *bc,
	      struct rte_mempool *mp, const struct bench_range *mrs,
	      unsigned int mrs_n, unsigned int reps, unsigned int id)
{
	uint32_t desc = 1u << bc->log_desc;
	struct bench_rxq_conf conf;

	f->hash = BENCH_RSS_HASH;
	f->s.cap = reps * (desc / BENCH_SLICE + 2);
	f->s.cyc = calloc(f->s.cap, sizeof(*f->s.cyc));
	f->s.pkts = calloc(f->s.cap, sizeof(*f->s.pkts));
	if (f->s.cyc == NULL || f->s.pkts == NULL)
		return -1;
	if (f->rx == NULL) {
		if (bench_port_open(&f->p, id, desc, bc->compressed,
				    bc->devargs, mp) != 0)
			return -1;
		f->port = f->p.port;
		f->hash = f->p.hash;
		return 0;
	}
	memset(&conf, 0, sizeof(conf));
	conf.compressed = bc->compressed;
	/* net/mlx5's scalar MPRQ burst gets CSUM_STRIDX mini-CQEs. */
	conf.stridx = bc->compressed && bc->log_strd_num != 0 &&
		      f->rx == bench_rxq_fn(BENCH_FN_MPRQ);
	if (bench_wire_open(&f->w, id, desc, !bc->compressed ? 0 :
			    conf.stridx ? RTE_MLX5CQ_COMP_CSUM_STRIDX :
			    RTE_MLX5CQ_COMP_HASH) != 0)
		return -1;
	conf.cqes = f->w.ring;
	conf.cq_db = f->w.dbrec;
	conf.cqn = f->w.cqn;
	/* DPDK sizes the RX CQ to the RQ: WQEs x strides (striding RQ). */
	conf.log_cqe = bc->log_desc;
	conf.log_desc = bc->log_desc - bc->log_strd_num;
	if (bc->log_strd_num != 0) {
		conf.log_strd_num = bc->log_strd_num;
		conf.log_strd_sz = BENCH_LOG_STRD_SZ;
	}
	conf.mp = mp;
	conf.mrs = mrs;
	conf.mrs_n = mrs_n;
	f->q = bench_rxq_create(&conf);
	if (f->q == NULL)
		return -1;
	f->rxq = bench_rxq_queue(f->q);
	return 0;
}

static void
bench_fn_close(struct bench_fn_q *f)
{
	if (f->rx == NULL) {
		bench_port_close(&f->p);
	} else {
		bench_rxq_destroy(f->q);
		bench_wire_close(&f->w);
	}
	free(f->s.cyc);
	free(f->s.pkts);
}

/* The compared pair first: their passes go in rounds. */
enum { BENCH_Q_PORT, BENCH_Q_VEC, BENCH_Q_SCALAR, BENCH_Q_N };

/*
 * One case: the three functions on one mempool. net_mlx5cq and DPDK's
 * vector function go in rounds, so both see the same memory and the same
 * spells of the machine: in a round each runs a warm-up pass then
 * BENCH_BLOCK timed ones back to back (the first of the pair turns each
 * round). Back to back, as a queue is polled: passes alternated one by
 * one leave each function the caches of another's pass (1K rings 1.2-1.6x
 * slower on both sides). DPDK's scalar function, a reference, then runs
 * its warm-up and reps passes in one go, at most 65536 completions: it
 * leaves the CQ doorbell record at its session state's 16-bit consumer
 * index, which the emulated device reads as an overrun after that many
 * (16 passes of a 4K ring). Prints the medians.
 */
static int
bench_case_run(const struct bench_case *bc, unsigned int k,
	       unsigned int reps)
{
	struct bench_fn_q f[BENCH_Q_N];
	struct bench_range *mrs = NULL;
	struct rte_mempool *mp;
	unsigned int mrs_n = 0, r, j, sreps;
	double med[BENCH_Q_N];
	char name[32];
	int ret = -1;

	memset(f, 0, sizeof(f));
	for (j = 0; j < BENCH_Q_N; j++)
		f[j].p.port = UINT16_MAX; /* no port yet */
	f[BENCH_Q_PORT].name = "net_mlx5cq";
	if (bc->log_strd_num != 0) {
		f[BENCH_Q_SCALAR].name = "mlx5_rx_burst_mprq";
		f[BENCH_Q_SCALAR].rx = bench_rxq_fn(BENCH_FN_MPRQ);
		f[BENCH_Q_VEC].name = "mlx5_rx_burst_mprq_vec";
		f[BENCH_Q_VEC].rx = bench_rxq_fn(BENCH_FN_MPRQ_VEC);
	} else {
		f[BENCH_Q_SCALAR].name = "mlx5_rx_burst";
		f[BENCH_Q_SCALAR].rx = bench_rxq_fn(BENCH_FN_SCALAR);
		f[BENCH_Q_VEC].name = "mlx5_rx_burst_vec";
		f[BENCH_Q_VEC].rx = bench_rxq_fn(BENCH_FN_VEC);
	}
	snprintf(name, sizeof(name), "bdm_rx%u", k);
	mp = bench_pool_create(name, BENCH_POOL_N, bc->chunks);
	if (mp == NULL || bench_pool_ranges(mp, &mrs, &mrs_n) != 0)
		goto out_pool;
	for (j = 0; j < BENCH_Q_N; j++)
		if (bench_fn_open(&f[j], bc, mp, mrs, mrs_n, reps,
				  BENCH_Q_N * k + j) != 0) {
			printf("bench: %s: %s not set up\n", bc->name,
			       f[j].name);
			goto out;
		}
	for (r = 0; r * BENCH_BLOCK < reps; r++)
		for (j = 0; j < BENCH_Q_SCALAR; j++) {
			struct bench_fn_q *fq = &f[(r + j) % BENCH_Q_SCALAR];
			unsigned int b, nb = RTE_MIN(BENCH_BLOCK,
						     reps - r * BENCH_BLOCK);

			for (b = 0; b <= nb; b++)
				if (bench_pass(fq, 1u << bc->log_desc,
					       b == 0) != 0)
					goto out;
		}
	/* At most 65536 completions in all (see above). */
	sreps = RTE_MIN(reps, (65536u >> bc->log_desc) - 1);
	for (r = 0; r <= sreps; r++)
		if (bench_pass(&f[BENCH_Q_SCALAR], 1u << bc->log_desc,
			       r == 0) != 0)
			goto out;
	for (j = 0; j < BENCH_Q_N; j++)
		med[j] = bench_median(&f[j].s);
	printf("%-18s %5u %10.2f %10.2f %10.2f\n", bc->name, mrs_n,
	       med[BENCH_Q_PORT], med[BENCH_Q_SCALAR], med[BENCH_Q_VEC]);
	printf("RESULT %s %.2f %.2f %u %.2f\n", bc->name, med[BENCH_Q_SCALAR],
	       med[BENCH_Q_VEC], mrs_n, med[BENCH_Q_PORT]);
	fflush(stdout);
	ret = 0;
out:
	for (j = 0; j < BENCH_Q_N; j++)
		bench_fn_close(&f[j]);
out_pool:
	free(mrs);
	rte_mempool_free(mp);
	return ret;
}

int
main(int argc, char **argv)
{
	unsigned int reps = 15, i;
	const char *only = NULL;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("bench: EAL init failed: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	argc -= ret;
	argv += ret;
	for (i = 1; i + 1 < (unsigned int)argc; i += 2) {
		if (strcmp(argv[i], "--reps") == 0)
			reps = (unsigned int)atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--case") == 0)
			only = argv[i + 1];
		else if (strcmp(argv[i], "--fill-lcore") == 0)
			bench_fill_lcore = (unsigned int)atoi(argv[i + 1]);
		else
			break;
	}
	if (i != (unsigned int)argc) {
		printf("usage: %s <EAL args> -- [--reps N] [--case NAME] "
		       "[--fill-lcore LCORE]\n", argv[0]);
		rte_eal_cleanup();
		return 2;
	}
	if (bench_fill_lcore != LCORE_ID_ANY &&
	    (bench_fill_lcore == rte_lcore_id() ||
	     !rte_lcore_is_enabled(bench_fill_lcore))) {
		printf("bench: --fill-lcore %u is not a worker lcore of the "
		       "EAL's (-l)\n", bench_fill_lcore);
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
	printf("%-18s %5s %10s %10s %10s\n", "case", "MRs", "net_mlx5cq",
	       "rx_burst", "rx_burst_vec");
	for (i = 0; i < RTE_DIM(bench_cases); i++) {
		if (only != NULL && strcmp(bench_cases[i].name, only) != 0)
			continue;
		if (bench_case_run(&bench_cases[i], i, reps) != 0) {
			printf("bench: case %s failed\n", bench_cases[i].name);
			rte_eal_cleanup();
			return 1;
		}
	}
	rte_eal_cleanup();
	return 0;
}
