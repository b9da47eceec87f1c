/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * A producer thread: the device writing completions into a CQ on its own
 * schedule, so a poller can be tested against a concurrent writer.
 *
 * The thread posts batches through mlx5_emu_cq_post_flags() (by CQ number:
 * a destroyed CQ ends the thread with -ENOENT, never a stale pointer).
 * Each batch closes its compression sessions before the call returns, so
 * every completion becomes visible. A full ring makes the thread wait and
 * retry (flow control) unless the producer was asked to overrun. Pacing:
 * completion seq is due at start + seq / rate, plus up to jitter_us of
 * random delay per batch.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_errno.h>
#include <mlx5_prm.h>

#include "mlx5_emu_private.h"

#define EMU_PROD_BATCH_MAX 256

struct mlx5_emu_producer {
	struct ibv_context *ctx;
	uint32_t cqn;
	struct mlx5_emu_producer_attr attr;
	pthread_t thread;
	int stop; /* Atomic. */
	struct mlx5_emu_producer_stats st; /* Atomic fields. */
};

/* SplitMix64: a reproducible hash of (seed, n). */
static uint64_t
prod_hash(uint64_t seed, uint64_t n)
{
	uint64_t z = seed + (n + 1) * 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The default generator (see struct mlx5_emu_producer_attr). */
static void
prod_gen(const struct mlx5_emu_producer_attr *a, uint64_t seq,
	 struct mlx5_emu_wc *c)
{
	uint64_t run = a->run_len > 1 ? a->run_len : 1;
	uint64_t first = seq - seq % run;
	int req = prod_hash(a->seed, first / run) % 100 < a->req_percent;
	int err = prod_hash(a->seed ^ 0x5a5a5a5aull, seq) % 1000 <
		  a->error_permille;

	memset(c, 0, sizeof(*c));
	if (err)
		c->kind = req ? MLX5_EMU_WC_REQ_ERR : MLX5_EMU_WC_RESP_ERR;
	else
		c->kind = req ? MLX5_EMU_WC_REQ : MLX5_EMU_WC_RESP;
	c->wqe_counter = (uint16_t)seq;
	c->rx_hash_res = (uint32_t)first;
	c->flow_table_metadata = (uint32_t)first;
	c->byte_cnt = 64 + (uint32_t)(seq & 1023);
	c->qpn = 0x100;
	c->s_wqe_opcode = 0x0a; /* MLX5_OPCODE_SEND */
	c->hdr_type_etc = 0x0600; /* L3 and L4 header valid */
	c->timestamp = first;
	if (err) {
		c->syndrome = 0x05; /* WR flush */
		c->vendor_syndrome = 0x77;
	}
}

static uint64_t
prod_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void
prod_sleep_ns(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000ull),
		.tv_nsec = (long)(ns % 1000000000ull),
	};

	nanosleep(&ts, NULL);
}

static int
prod_stopped(struct mlx5_emu_producer *p)
{
	return __atomic_load_n(&p->stop, __ATOMIC_ACQUIRE);
}

static void *
prod_main(void *arg)
{
	struct mlx5_emu_producer *p = arg;
	const struct mlx5_emu_producer_attr *a = &p->attr;
	struct mlx5_emu_wc cpl[EMU_PROD_BATCH_MAX];
	uint32_t batch = a->batch == 0 ? 1 : a->batch;
	uint32_t flags = a->overrun ? MLX5_EMU_POST_OVERRUN : 0;
	uint64_t seq = 0, start = prod_now_ns(), due, now, nb = 0;
	unsigned int k, i, posted;
	int r;

	while (!prod_stopped(p) && (a->count == 0 || seq < a->count)) {
		k = batch;
		if (a->count != 0 && a->count - seq < k)
			k = (unsigned int)(a->count - seq);
		for (i = 0; i < k; i++) {
			if (a->gen != NULL) {
				memset(&cpl[i], 0, sizeof(cpl[i]));
				a->gen(a->gen_arg, seq + i, &cpl[i]);
			} else {
				prod_gen(a, seq + i, &cpl[i]);
			}
		}
		posted = 0;
		while (posted < k) {
			r = mlx5_emu_cq_post_flags(p->ctx, p->cqn,
						   cpl + posted, k - posted,
						   flags);
			if (r < 0) {
				__atomic_store_n(&p->st.last_ret, r,
						 __ATOMIC_RELAXED);
				goto out;
			}
			for (i = posted; i < posted + (unsigned int)r; i++)
				if (cpl[i].kind == MLX5_EMU_WC_REQ_ERR ||
				    cpl[i].kind == MLX5_EMU_WC_RESP_ERR)
					__atomic_add_fetch(&p->st.errors, 1,
							   __ATOMIC_RELAXED);
			posted += (unsigned int)r;
			__atomic_add_fetch(&p->st.written, (uint64_t)r,
					   __ATOMIC_RELEASE);
			if (posted < k) {
				/* Ring full: wait for the consumer. */
				__atomic_add_fetch(&p->st.full, 1,
						   __ATOMIC_RELAXED);
				if (prod_stopped(p))
					goto out;
				prod_sleep_ns(20000);
			}
		}
		seq += k;
		nb++;
		if (a->rate != 0) {
			due = start + seq * 1000000000ull / a->rate;
			now = prod_now_ns();
			if (due > now)
				prod_sleep_ns(due - now);
		}
		if (a->jitter_us != 0)
			prod_sleep_ns(prod_hash(a->seed ^ 0x1234ull, nb) %
				      ((uint64_t)a->jitter_us * 1000 + 1));
	}
out:
	__atomic_store_n(&p->st.done, 1, __ATOMIC_RELEASE);
	return NULL;
}

struct mlx5_emu_producer *
mlx5_emu_producer_start(struct ibv_context *ctx, uint32_t cqn,
			const struct mlx5_emu_producer_attr *attr)
{
	struct mlx5_emu_cq_info info;
	struct mlx5_emu_producer *p;
	int ret;

	if (attr == NULL || !mlx5_emu_is_emulated(ctx) ||
	    attr->batch > EMU_PROD_BATCH_MAX || attr->req_percent > 100 ||
	    attr->error_permille > 1000) {
		EMU_LOG(ERR, "producer_start: bad attributes (batch <= %u, "
			"req_percent <= 100, error_permille <= 1000)",
			EMU_PROD_BATCH_MAX);
		rte_errno = EINVAL;
		errno = EINVAL;
		return NULL;
	}
	ret = mlx5_emu_cq_query(ctx, cqn, &info);
	if (ret != 0) {
		EMU_LOG(ERR, "producer_start: CQ 0x%x: %d", cqn, ret);
		rte_errno = -ret;
		errno = -ret;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		rte_errno = ENOMEM;
		errno = ENOMEM;
		return NULL;
	}
	p->ctx = ctx;
	p->cqn = cqn;
	p->attr = *attr;
	ret = pthread_create(&p->thread, NULL, prod_main, p);
	if (ret != 0) {
		EMU_LOG(ERR, "producer_start: pthread_create: %d", ret);
		free(p);
		rte_errno = ret;
		errno = ret;
		return NULL;
	}
	return p;
}

void
mlx5_emu_producer_stats_get(struct mlx5_emu_producer *p,
			    struct mlx5_emu_producer_stats *stats)
{
	if (p == NULL || stats == NULL)
		return;
	/*
	 * done first. The thread updates its counters before its release
	 * store of done, so a snapshot that says done carries the final
	 * counts. The other order tears: between a load of written and a
	 * load of done the thread may post its last batches and finish, and
	 * the snapshot then says "done" with a written count short of the
	 * total (a poller that drained the ring concludes the producer
	 * stopped early).
	 */
	stats->done = __atomic_load_n(&p->st.done, __ATOMIC_ACQUIRE);
	stats->written = __atomic_load_n(&p->st.written, __ATOMIC_ACQUIRE);
	stats->errors = __atomic_load_n(&p->st.errors, __ATOMIC_RELAXED);
	stats->full = __atomic_load_n(&p->st.full, __ATOMIC_RELAXED);
	stats->last_ret = __atomic_load_n(&p->st.last_ret, __ATOMIC_RELAXED);
}

int
mlx5_emu_producer_stop(struct mlx5_emu_producer *p,
		       struct mlx5_emu_producer_stats *stats)
{
	if (p == NULL)
		return -EINVAL;
	__atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
	pthread_join(p->thread, NULL);
	if (stats != NULL)
		mlx5_emu_producer_stats_get(p, stats);
	free(p);
	return 0;
}
