/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * dpdk-bench-cq ... -- perf-rx [--reps N] [--case PREFIX] [--fill inject|port]
 *                          [--fill-lcore LCORE]
 *   (also the last table of perf; --case: only the cases whose name
 *   starts with PREFIX, or the one named NAME with NAME$; --fill: how
 *   each pass fills the ring, prx_fill; --fill-lcore: a worker lcore
 *   that fills it, prx_fill_lcore)
 *
 * Cycles per packet of rte_eth_rx_burst() on a net_mlx5cq port whose RX
 * CQ and RQ are prepared in memory: the emulator's engine thread is
 * paused; one ring's worth of 64-byte UDP frames is put on the port's
 * emulated wire in one engine pass (untimed; by default injected from
 * outside, with --fill port sent by a second port on the wire), so the
 * RQ buffers hold the frames and the RX CQ their completions (compressed
 * in sessions when the port asks for it). Then
 * only the RX bursts of 32 are timed (rdtsc around each call) until the
 * ring is drained; the received mbufs are freed outside the timed region.
 *
 * Cases: 1K and 4K RX rings, plain CQEs and HASH-compressed sessions, a
 * mempool of one memory chunk and one of 16 chunks (separate rte_malloc
 * areas of the heap) with its mbufs in random order: with the default
 * mr_ext_memseg_en=1 one memory region, and (16mr) with
 * mr_ext_memseg_en=0 16 regions, the refill's lkey table; 1K rings of
 * multi-packet RQs (mprq: each frame one stride, copied into an mbuf).
 * Medians over slices of about 1024 packets.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mbuf_pool_ops.h>
#include <rte_mempool.h>

#include <mlx5_emu.h>

#include "bench_cq.h"
#include "test_net_util.h"

#define PRX_BURST 32
#define PRX_SLICE 1024
#define PRX_FRAME_PAYLOAD 18 /* 14 + 20 + 8 + 18 = 60 bytes + FCS room */
#define PRX_POOL_N 16384
#define PRX_CACHE 256
#define PRX_DESC_MAX 4096 /* largest ring of the cases */

struct prx_case {
	const char *name;
	uint32_t desc; /* RX ring */
	const char *comp; /* cqe_comp devarg, NULL: none (given as such) */
	unsigned int chunks;
	const char *extra; /* more devargs of the RX port, or NULL */
};

static int
prx_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Port A (RX under test) and B (sender) on one wire. */
static int
prx_ports(const struct prx_case *pc, unsigned int k, uint16_t *a,
	  uint16_t *b)
{
	char na[48], nb[48], args[160];

	snprintf(na, sizeof(na), "net_mlx5cq_prxa%u", k);
	snprintf(nb, sizeof(nb), "net_mlx5cq_prxb%u", k);
	snprintf(args, sizeof(args), "dev=emu,wire=prx%u,rxq_desc=%u,"
		 "cqe_comp=%s%s%s", k, pc->desc,
		 pc->comp ? pc->comp : "none", pc->extra ? "," : "",
		 pc->extra ? pc->extra : "");
	*a = (uint16_t)port_probe(na, args);
	snprintf(args, sizeof(args), "dev=emu,wire=prx%u,txq_desc=%u", k,
		 2 * pc->desc);
	*b = (uint16_t)port_probe(nb, args);
	return (int16_t)*a < 0 || (int16_t)*b < 0 ? -1 : 0;
}

/*
 * Configure and start a port of one RX and one TX queue; RSS on (IPv4
 * and UDP), so its mbufs carry the hash and its flag as an application
 * that asks for RSS gets them, and as DPDK's queues deliver them in
 * devtools/bench-dpdk-mlx5.sh.
 */
static int
prx_start(uint16_t port, struct rte_mempool *mp, uint16_t desc)
{
	struct rte_eth_conf conf;

	memset(&conf, 0, sizeof(conf));
	conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
	conf.rx_adv_conf.rss_conf.rss_hf = RTE_ETH_RSS_IPV4 |
					   RTE_ETH_RSS_NONFRAG_IPV4_UDP;
	if (rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, desc, SOCKET_ID_ANY, NULL,
				   mp) != 0 ||
	    rte_eth_tx_queue_setup(port, 0, 2 * desc, SOCKET_ID_ANY,
				   NULL) != 0)
		return -1;
	return rte_eth_dev_start(port);
}

/*
 * How a pass fills A's ring (untimed): PRX_FILL_INJECT puts the frames on
 * the wire from outside in one engine pass (mlx5_emu_wire_inject_burst:
 * the model copies each frame into its buffer and writes its CQE, about
 * what DPDK's reference harness does with mlx5_emu_cq_post, so both RX
 * functions start from alike caches); PRX_FILL_PORT sends them from port
 * B through its SQ, the engine and the wire (TX mbufs, WQEs and the TX
 * CQ evict part of A's mbuf headers from the caches, as forwarding would).
 */
enum prx_fill { PRX_FILL_INJECT, PRX_FILL_PORT };
static enum prx_fill prx_fill = PRX_FILL_INJECT;

/*
 * The lcore a pass fills A's ring from (--fill-lcore): LCORE_ID_ANY, the
 * timed lcore itself. Filled from another lcore, the ring reaches the
 * timed lcore as a device's writes do: the CQEs and frames come through
 * the coherence protocol, and nothing else of the timed core's caches is
 * touched (the model's own code, tables and staging stay in the filling
 * core's), so the figure does not depend on how much memory the model
 * walks to make a completion.
 */
static unsigned int prx_fill_lcore = LCORE_ID_ANY;

/* What one fill needs (prx_fill_run()). */
struct prx_fill_arg {
	uint16_t b;
	const char *wire;
	struct rte_mempool *txp;
	uint32_t n;
	const uint8_t *frame;
	uint32_t flen;
};

/* Fill A's ring with n frames (untimed): 0, or -1. */
static int
prx_fill_run(void *arg)
{
	static const void *fr[PRX_DESC_MAX];
	static uint32_t fl[PRX_DESC_MAX];
	const struct prx_fill_arg *f = arg;
	struct rte_mbuf *m[PRX_BURST];
	unsigned int idle = 0;
	uint32_t sent = 0, i;

	if (prx_fill == PRX_FILL_INJECT) {
		for (i = 0; i < f->n; i++) {
			fr[i] = f->frame;
			fl[i] = f->flen;
		}
		return mlx5_emu_wire_inject_burst(f->wire, fr, fl, f->n) > 0 ?
		       0 : -1;
	}
	while (sent < f->n) {
		uint16_t k = (uint16_t)RTE_MIN((uint32_t)PRX_BURST,
					       f->n - sent);
		uint16_t t;

		if (rte_pktmbuf_alloc_bulk(f->txp, m, k) != 0)
			return -1;
		for (i = 0; i < k; i++) {
			memcpy(rte_pktmbuf_mtod(m[i], void *), f->frame,
			       f->flen);
			m[i]->data_len = (uint16_t)f->flen;
			m[i]->pkt_len = f->flen;
		}
		t = rte_eth_tx_burst(f->b, 0, m, k);
		if (t < k)
			rte_pktmbuf_free_bulk(m + t, k - t);
		sent += t;
		if (t == 0 && ++idle > 1000)
			return -1;
	}
	while (mlx5_emu_net_progress() != 0)
		;
	return 0;
}

/* One pass: fill A's ring (untimed), drain it timing each burst. */
static int
prx_pass(uint16_t a, uint16_t b, const char *wire, struct rte_mempool *txp,
	 uint32_t n, const uint8_t *frame, uint32_t flen, uint64_t *cyc,
	 uint32_t *pk, unsigned int *ns)
{
	struct prx_fill_arg f = { b, wire, txp, n, frame, flen };
	struct rte_mbuf *m[PRX_BURST];
	uint32_t got = 0, in_slice = 0;
	uint64_t slice_cyc = 0;
	unsigned int idle;

	if (prx_fill_lcore == LCORE_ID_ANY) {
		if (prx_fill_run(&f) != 0)
			return -1;
	} else if (rte_eal_remote_launch(prx_fill_run, &f,
					 prx_fill_lcore) != 0 ||
		   rte_eal_wait_lcore(prx_fill_lcore) != 0) {
		return -1;
	}
	idle = 0;
	while (got < n) {
		uint64_t t0, t1;
		uint16_t r;

		t0 = rte_rdtsc_precise();
		r = rte_eth_rx_burst(a, 0, m, PRX_BURST);
		t1 = rte_rdtsc_precise();
		if (r == 0) {
			if (++idle > 1000)
				return -1;
			continue;
		}
		slice_cyc += t1 - t0;
		in_slice += r;
		got += r;
		rte_pktmbuf_free_bulk(m, r);
		if (in_slice >= PRX_SLICE || got == n) {
			cyc[*ns] = slice_cyc;
			pk[*ns] = in_slice;
			(*ns)++;
			slice_cyc = 0;
			in_slice = 0;
		}
	}
	return 0;
}

static int
prx_case_run(const struct prx_case *pc, unsigned int k, unsigned int reps,
	     double *cpp)
{
	char name[32];
	struct rte_mempool *rxp, *txp = NULL;
	struct rte_ether_addr mac;
	uint8_t frame[128];
	uint32_t flen;
	uint16_t a, b;
	unsigned int r, ns = 0, cap = (reps + 1) * (pc->desc / PRX_SLICE + 2);
	uint64_t *cyc = calloc(cap, sizeof(*cyc));
	uint32_t *pk = calloc(cap, sizeof(*pk));
	double *v = calloc(cap, sizeof(*v));
	int ret = -1;

	snprintf(name, sizeof(name), "prx_rx%u", k);
	rxp = pool_chunked(name, PRX_POOL_N, PRX_CACHE, pc->chunks);
	snprintf(name, sizeof(name), "prx_tx%u", k);
	txp = rte_pktmbuf_pool_create(name, PRX_POOL_N, PRX_CACHE, 0,
				      RTE_MBUF_DEFAULT_BUF_SIZE,
				      SOCKET_ID_ANY);
	if (cyc == NULL || pk == NULL || v == NULL || rxp == NULL ||
	    txp == NULL)
		goto out;
	if (prx_ports(pc, k, &a, &b) != 0) {
		printf("perf-rx: %s: ports not probed\n", pc->name);
		goto out;
	}
	if (prx_start(a, rxp, (uint16_t)pc->desc) != 0 ||
	    prx_start(b, txp, (uint16_t)pc->desc) != 0 ||
	    rte_eth_macaddr_get(a, &mac) != 0) {
		printf("perf-rx: %s: ports not started\n", pc->name);
		goto out_ports;
	}
	flen = frame_build(frame, &mac, 0x0a000001, 1234, PRX_FRAME_PAYLOAD,
			   0);
	mlx5_emu_net_engine_pause(1);
	for (r = 0; r <= reps; r++) {
		unsigned int s0 = ns;

		snprintf(name, sizeof(name), "prx%u", k);
		if (prx_pass(a, b, name, txp, pc->desc, frame, flen, cyc, pk,
			     &ns) != 0) {
			printf("perf-rx: %s: pass %u did not drain\n",
			       pc->name, r);
			goto out_pause;
		}
		if (r == 0)
			ns = s0; /* warm-up pass */
	}
	for (r = 0; r < ns; r++)
		v[r] = (double)cyc[r] / pk[r];
	qsort(v, ns, sizeof(*v), prx_cmp);
	*cpp = ns & 1 ? v[ns / 2] : (v[ns / 2 - 1] + v[ns / 2]) / 2;
	ret = 0;
out_pause:
	mlx5_emu_net_engine_pause(0);
out_ports:
	port_remove(a);
	port_remove(b);
out:
	rte_mempool_free(rxp);
	rte_mempool_free(txp);
	free(cyc);
	free(pk);
	free(v);
	return ret;
}

/* Whether case name is asked for: its prefix, or all of it with '$'. */
static int
prx_case_match(const char *name, const char *only)
{
	size_t n = strlen(only);

	if (n > 0 && only[n - 1] == '$')
		return strlen(name) == n - 1 && strncmp(name, only, n - 1) == 0;
	return strncmp(name, only, n) == 0;
}

/* 16 chunks as 16 memory regions (the refill's lkey table). */
#define PRX_16MR "mr_ext_memseg_en=0"
/* Multi-packet RQ on the port's one queue. */
#define PRX_MPRQ "mprq_en=1,rxqs_min_mprq=1"

/*
 * The PMD RX table (also printed by perf); only: the cases whose name
 * starts with it, or the one case it names when it ends with '$' (NULL:
 * all). 0, or 1 on a failure.
 */
int
bench_cq_perf_rx_table(unsigned int reps, const char *only)
{
	static const struct prx_case cases[] = {
		{ "1K/plain/1chunk", 1024, NULL, 1 },
		{ "1K/plain/16chunk", 1024, NULL, 16 },
		{ "1K/plain/16chunk/16mr", 1024, NULL, 16, PRX_16MR },
		{ "4K/plain/1chunk", 4096, NULL, 1 },
		{ "4K/plain/16chunk", 4096, NULL, 16 },
		{ "4K/plain/16chunk/16mr", 4096, NULL, 16, PRX_16MR },
		{ "1K/hash/1chunk", 1024, "hash", 1 },
		{ "1K/hash/16chunk", 1024, "hash", 16 },
		{ "1K/hash/16chunk/16mr", 1024, "hash", 16, PRX_16MR },
		{ "4K/hash/1chunk", 4096, "hash", 1 },
		{ "4K/hash/16chunk", 4096, "hash", 16 },
		{ "4K/hash/16chunk/16mr", 4096, "hash", 16, PRX_16MR },
		/* Baselines of the SIMD stores (rx_vec_en=0: the field
		 * stores of the reference, the same hand-up).
		 */
		{ "1K/plain/1chunk/scalar", 1024, NULL, 1, "rx_vec_en=0" },
		{ "1K/hash/1chunk/scalar", 1024, "hash", 1, "rx_vec_en=0" },
		/* Multi-packet RQ: 1024 strides, 16 WQEs of 64 (copies). */
		{ "1K/mprq/plain/1chunk", 1024, NULL, 1, PRX_MPRQ },
		{ "1K/mprq/csum_stridx/1chunk", 1024, "hash", 1, PRX_MPRQ },
	};
	static unsigned int seq;
	double cpp[RTE_DIM(cases)];
	unsigned int i, one = 0;

	if (net_load() != 0) {
		printf("perf-rx: cannot load the PMD\n");
		return 1;
	}
	printf("%-26s %10s %10s\n", "PMD rx_burst (b32)", "cyc/pkt",
	       "vs 1chunk");
	for (i = 0; i < RTE_DIM(cases); i++) {
		if (only != NULL && !prx_case_match(cases[i].name, only))
			continue;
		if (prx_case_run(&cases[i], seq++, reps, &cpp[i]) != 0) {
			printf("perf-rx: case %s failed\n", cases[i].name);
			return 1;
		}
		if (cases[i].chunks == 1)
			one = i;
		if (cases[i].chunks == 1 || only != NULL)
			printf("%-26s %10.2f %10s\n", cases[i].name, cpp[i],
			       "");
		else
			printf("%-26s %10.2f %10.2f\n", cases[i].name, cpp[i],
			       cpp[i] / cpp[one]);
		fflush(stdout);
	}
	return 0;
}

int
bench_cq_perf_rx(int argc, char **argv)
{
	unsigned int reps = 15;
	const char *only = NULL;
	int i;

	for (i = 0; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--reps") == 0)
			reps = (unsigned int)atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--case") == 0)
			only = argv[i + 1];
		else if (strcmp(argv[i], "--fill") == 0 &&
			 strcmp(argv[i + 1], "port") == 0)
			prx_fill = PRX_FILL_PORT;
		else if (strcmp(argv[i], "--fill") == 0 &&
			 strcmp(argv[i + 1], "inject") == 0)
			prx_fill = PRX_FILL_INJECT;
		else if (strcmp(argv[i], "--fill-lcore") == 0)
			prx_fill_lcore = (unsigned int)atoi(argv[i + 1]);
		else
			break;
	}
	if (i != argc) {
		printf("usage: perf-rx [--reps N] [--case PREFIX] "
		       "[--fill inject|port] [--fill-lcore LCORE]\n");
		return 2;
	}
	if (prx_fill_lcore != LCORE_ID_ANY &&
	    (prx_fill_lcore == rte_lcore_id() ||
	     !rte_lcore_is_enabled(prx_fill_lcore))) {
		printf("perf-rx: --fill-lcore %u is not a worker lcore of the "
		       "EAL's (-l)\n", prx_fill_lcore);
		return 2;
	}
	if (reps < 1 || reps > 1000) {
		printf("perf-rx: --reps 1..1000\n");
		return 2;
	}
	return bench_cq_perf_rx_table(reps, only);
}
