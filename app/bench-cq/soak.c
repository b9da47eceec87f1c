/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * dpdk-bench-cq -- soak [--count N] [--format F] [--layout L]
 *                      [--cqe-size S] [--log-n K] [--locked]
 *
 * Long threaded-producer stress, not part of the unit suites (see
 * devtools/soak.sh): the emulated HCA's producer thread
 * (mlx5_emu_producer) writes N completions (default 1e8) into a CQ while
 * this thread polls with burst sizes cycling 1..64; the completions are
 * numbered (test_seq_cpl.h: compressible runs, error CQEs among them).
 * Each completion must arrive exactly once and in order; at the end the
 * producer's written and error counts, the CQ's counters and the
 * model's compression counts must agree. A progress line every 10 s, a
 * failure when nothing arrives for 30 s.
 */

#include <getopt.h>
#include <inttypes.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_memory.h>

#include <mlx5_emu.h>
#include <rte_mlx5cq.h>

#include "bench_cq.h"
#include "test_seq_cpl.h"

#define SOAK_STALL_S 30

struct soak_opts {
	uint64_t count;
	int format; /* enum rte_mlx5cq_comp_format value, 0: none */
	int layout;
	unsigned int cqe_size;
	unsigned int log_n;
	int locked;
};

static int
soak_parse(int argc, char **argv, struct soak_opts *o)
{
	static const struct option lo[] = {
		{ "count", required_argument, NULL, 'n' },
		{ "format", required_argument, NULL, 'f' },
		{ "layout", required_argument, NULL, 'l' },
		{ "cqe-size", required_argument, NULL, 's' },
		{ "log-n", required_argument, NULL, 'k' },
		{ "locked", no_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->count = 100000000;
	o->format = RTE_MLX5CQ_COMP_HASH;
	o->cqe_size = 64;
	o->log_n = 12;
	optind = 1;
	while ((c = getopt_long(argc + 1, argv - 1, "", lo, NULL)) != -1) {
		switch (c) {
		case 'n':
			o->count = strtoull(optarg, NULL, 0);
			break;
		case 'f':
			o->format = atoi(optarg);
			break;
		case 'l':
			o->layout = atoi(optarg);
			break;
		case 's':
			o->cqe_size = (unsigned int)atoi(optarg);
			break;
		case 'k':
			o->log_n = (unsigned int)atoi(optarg);
			break;
		case 'L':
			o->locked = 1;
			break;
		default:
			return -1;
		}
	}
	if (o->count == 0 || o->log_n < 4 || o->log_n > 16) {
		printf("soak: --count > 0, --log-n 4..16\n");
		return -1;
	}
	return 0;
}

struct soak_state {
	struct ibv_context *ctx;
	struct rte_mlx5cq_dev *dev;
	struct rte_mlx5cq *cq;
	struct mlx5_emu_producer *prod;
};

static void
soak_close(struct soak_state *st)
{
	if (st->prod != NULL)
		mlx5_emu_producer_stop(st->prod, NULL);
	if (st->cq != NULL)
		rte_mlx5cq_destroy(st->cq);
	if (st->dev != NULL)
		rte_mlx5cq_dev_close(st->dev);
	if (st->ctx != NULL)
		mlx5_emu_close(st->ctx);
}

static int
soak_open(struct soak_state *st, const struct soak_opts *o)
{
	struct rte_mlx5cq_attr attr;

	st->ctx = mlx5_emu_open("soak0", NULL);
	if (st->ctx == NULL)
		return -1;
	st->dev = rte_mlx5cq_dev_open_ex(st->ctx, SOCKET_ID_ANY,
				RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS);
	if (st->dev == NULL)
		return -1;
	memset(&attr, 0, sizeof(attr));
	attr.comp_mask = RTE_MLX5CQ_ATTR_CQE_SIZE;
	attr.cqe = (1u << o->log_n) - 1;
	attr.cqe_size = (uint16_t)o->cqe_size;
	attr.flags = o->locked ? 0 : RTE_MLX5CQ_F_SINGLE_THREADED;
	attr.socket = SOCKET_ID_ANY;
	attr.path = RTE_MLX5CQ_PATH_DEVX;
	if (o->format) {
		attr.comp_mask |= RTE_MLX5CQ_ATTR_COMPRESSED;
		attr.comp_format = o->format;
		attr.comp_layout = o->layout;
	}
	st->cq = rte_mlx5cq_create(st->dev, &attr);
	return st->cq == NULL ? -1 : 0;
}

/* Poll until count completions arrived; 0 or -1 with a message. */
static int
soak_poll(struct soak_state *st, const struct soak_opts *o, uint64_t *errors)
{
	struct rte_mlx5cq_cpl c[64];
	uint64_t hz = rte_get_timer_hz(), s = 0, idle = 0;
	uint64_t t0 = rte_get_timer_cycles(), last = t0, report = t0;
	uint16_t burst = 1;

	while (s < o->count) {
		uint16_t r = rte_mlx5cq_poll_burst(st->cq, c, burst), i;
		uint64_t now;

		for (i = 0; i < r; i++, s++) {
			int err = seq_cpl_is_error(s);

			if (c[i].wqe_counter != (uint16_t)s ||
			    (!err && c[i].byte_cnt != seq_cpl_byte_cnt(s)) ||
			    (c[i].status != 0) != err) {
				printf("soak: completion %" PRIu64 ": wqe %#x "
				       "byte_cnt %u status %u\n", s,
				       c[i].wqe_counter, c[i].byte_cnt,
				       c[i].status);
				rte_mlx5cq_dump(stdout, st->cq);
				return -1;
			}
			*errors += err;
		}
		burst = (uint16_t)(burst % 64 + 1);
		now = rte_get_timer_cycles();
		if (r != 0) {
			last = now;
		} else {
			if (now - last > SOAK_STALL_S * hz) {
				printf("soak: nothing for %d s at completion %"
				       PRIu64 "\n", SOAK_STALL_S, s);
				rte_mlx5cq_dump(stdout, st->cq);
				return -1;
			}
			if (++idle % 64 == 0)
				sched_yield();
		}
		if (now - report > 10 * hz) {
			report = now;
			printf("soak: %" PRIu64 " completions, %.1f s\n", s,
			       (double)(now - t0) / hz);
			fflush(stdout);
		}
	}
	return 0;
}

int
bench_cq_soak(int argc, char **argv)
{
	struct mlx5_emu_producer_attr pa;
	struct mlx5_emu_producer_stats ps;
	struct rte_mlx5cq_counters cnt;
	struct rte_mlx5cq_cpl extra[64];
	struct soak_state st;
	struct soak_opts o;
	uint64_t errors = 0, t0;
	int fail = 0;

	if (soak_parse(argc, argv, &o) != 0)
		return 1;
	memset(&st, 0, sizeof(st));
	if (soak_open(&st, &o) != 0) {
		printf("soak: CQ: %s\n", rte_strerror(rte_errno));
		soak_close(&st);
		return 1;
	}
	memset(&pa, 0, sizeof(pa));
	pa.count = o.count;
	pa.batch = 61;
	pa.gen = seq_cpl_gen;
	t0 = rte_get_timer_cycles();
	st.prod = mlx5_emu_producer_start(st.ctx, st.cq->cqn, &pa);
	if (st.prod == NULL) {
		printf("soak: producer: %s\n", rte_strerror(rte_errno));
		soak_close(&st);
		return 1;
	}
	if (soak_poll(&st, &o, &errors) != 0)
		fail = 1;
	mlx5_emu_producer_stop(st.prod, &ps);
	st.prod = NULL;
	rte_mlx5cq_counters_get(st.cq, &cnt);
	if (!fail) {
		struct mlx5_emu_cq_ev_info ev;

		if (ps.written != o.count || ps.errors != errors ||
		    cnt.completions != o.count || cnt.errors != errors ||
		    cnt.comp_unhandled != 0 ||
		    rte_mlx5cq_poll_burst(st.cq, extra, 64) != 0) {
			printf("soak: counts: written %" PRIu64 " errors %"
			       PRIu64 "/%" PRIu64 " completions %" PRIu64
			       " unhandled %" PRIu64 "\n", ps.written,
			       ps.errors, errors, cnt.completions,
			       cnt.comp_unhandled);
			fail = 1;
		}
		if (o.format &&
		    (mlx5_emu_cq_ev_query(st.ctx, st.cq->cqn, &ev) != 0 ||
		     cnt.minis != ev.compressed ||
		     cnt.sessions != ev.sessions)) {
			printf("soak: mini-CQEs %" PRIu64 " sessions %" PRIu64
			       " differ from the model's\n", cnt.minis,
			       cnt.sessions);
			fail = 1;
		}
	}
	printf("soak: %s: %" PRIu64 " completions (%" PRIu64 " mini-CQEs in %"
	       PRIu64 " sessions, %" PRIu64 " errors, producer waited %"
	       PRIu64 " times on a full ring) in %.1f s, %" PRIu64 " polls\n",
	       fail ? "FAILED" : "OK", cnt.completions, cnt.minis,
	       cnt.sessions, errors, ps.full,
	       (double)(rte_get_timer_cycles() - t0) / rte_get_timer_hz(),
	       cnt.polls);
	soak_close(&st);
	return fail;
}
