/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "stress": the emulated HCA's producer thread writes completions
 * (compressed sessions and regular CQEs, errors among them, many ring
 * wraps) while this thread polls. Completion number s carries s in the
 * fields every mini-CQE format keeps: wqe_counter = s & 0xffff (implied
 * in HASH format, where the model joins only consecutive counters) and
 * byte_cnt = 64 + ((s >> 16) & 0x3ff); each must arrive exactly once, in
 * order. The counters are checked against what the producer reports.
 */

#include <inttypes.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_memory.h>

#include <mlx5_emu.h>
#include <rte_mlx5cq.h>

#include "test.h"
#include "test_cq_cnt.h"
#include "test_seq_cpl.h"

struct stress_case {
	const char *name;
	enum rte_mlx5cq_path path;
	uint8_t format; /* RTE_MLX5CQ_COMP_*, 0: none */
	uint8_t layout;
	uint16_t cqe_size;
	uint32_t log_n;
	uint64_t count;
	uint32_t flags;
};

static struct {
	struct ibv_context *ctx;
	struct rte_mlx5cq_dev *dev;
	struct rte_mlx5cq *cq;
	struct mlx5_emu_producer *prod;
} st;

static void
stress_teardown(void)
{
	if (st.prod != NULL)
		mlx5_emu_producer_stop(st.prod, NULL);
	if (st.cq != NULL)
		rte_mlx5cq_destroy(st.cq);
	if (st.dev != NULL)
		rte_mlx5cq_dev_close(st.dev);
	if (st.ctx != NULL)
		mlx5_emu_close(st.ctx);
	memset(&st, 0, sizeof(st));
}

/* The completions: test_seq_cpl.h. */
#define stress_is_error seq_cpl_is_error
#define stress_gen seq_cpl_gen

/* Emulated device, library device and the case's CQ in st. */
static int
stress_open(const struct stress_case *sc)
{
	struct rte_mlx5cq_attr attr;
	char name[32];

	snprintf(name, sizeof(name), "stress_%s", sc->name);
	st.ctx = mlx5_emu_open(name, NULL);
	TEST_ASSERT_NOT_NULL(st.ctx, "open");
	st.dev = rte_mlx5cq_dev_open(st.ctx, SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(st.dev, "dev_open");
	memset(&attr, 0, sizeof(attr));
	attr.comp_mask = RTE_MLX5CQ_ATTR_CQE_SIZE;
	attr.cqe = (1u << sc->log_n) - 1;
	attr.cqe_size = sc->cqe_size;
	attr.flags = sc->flags;
	attr.socket = SOCKET_ID_ANY;
	attr.path = sc->path;
	if (sc->format) {
		attr.comp_mask |= RTE_MLX5CQ_ATTR_COMPRESSED;
		attr.comp_format = sc->format;
		attr.comp_layout = sc->layout;
	}
	st.cq = rte_mlx5cq_create(st.dev, &attr);
	TEST_ASSERT_NOT_NULL(st.cq, "create: %d", rte_errno);
	return TEST_SUCCESS;
}

static int
test_stress_run(const void *data)
{
	const struct stress_case *sc = data;
	struct mlx5_emu_producer_attr pa;
	struct mlx5_emu_producer_stats ps;
	struct rte_mlx5cq_cpl c[64];
	struct rte_mlx5cq_counters cnt;
	uint64_t s = 0, errors = 0, idle = 0;
	uint64_t t0 = rte_get_timer_cycles(), last_progress = t0;
	uint16_t burst = 1;

	if (stress_open(sc) != TEST_SUCCESS)
		return TEST_FAILED;
	memset(&pa, 0, sizeof(pa));
	pa.count = sc->count;
	pa.batch = 61;
	pa.gen = stress_gen;
	st.prod = mlx5_emu_producer_start(st.ctx, st.cq->cqn, &pa);
	TEST_ASSERT_NOT_NULL(st.prod, "producer_start: %d", rte_errno);
	while (s < sc->count) {
		uint16_t r = rte_mlx5cq_poll_burst(st.cq, c, burst), i;

		for (i = 0; i < r; i++, s++) {
			int err = stress_is_error(s);

			if (c[i].wqe_counter != (uint16_t)s ||
			    (!err && c[i].byte_cnt !=
			     64 + (uint32_t)((s >> 16) & 0x3ff)) ||
			    (c[i].status != 0) != err) {
				printf("  completion %" PRIu64 ": wqe %#x"
				       " byte_cnt %u status %u\n", s,
				       c[i].wqe_counter, c[i].byte_cnt,
				       c[i].status);
				rte_mlx5cq_dump(stdout, st.cq);
				return TEST_FAILED;
			}
			errors += err;
		}
		burst = (uint16_t)(burst % 64 + 1);
		if (r != 0) {
			last_progress = rte_get_timer_cycles();
		} else {
			mlx5_emu_producer_stats_get(st.prod, &ps);
			if (rte_get_timer_cycles() - last_progress >
			    10 * rte_get_timer_hz()) {
				printf("  no progress for 10 s at %" PRIu64
				       " (written %" PRIu64 ")\n", s,
				       ps.written);
				rte_mlx5cq_dump(stdout, st.cq);
				return TEST_FAILED;
			}
			/*
			 * A snapshot that says done holds the final written
			 * count (read before done, it could be short of it
			 * and this would fire on a producer that finished).
			 */
			if (ps.done && ps.written == s) {
				printf("  producer done at %" PRIu64
				       " (last_ret %d)\n", ps.written,
				       ps.last_ret);
				return TEST_FAILED;
			}
			if (++idle % 64 == 0)
				sched_yield();
		}
	}
	TEST_ASSERT_SUCCESS(mlx5_emu_producer_stop(st.prod, &ps), "stop");
	st.prod = NULL;
	TEST_ASSERT_EQUAL(ps.written, sc->count, "written %" PRIu64,
			  ps.written);
	TEST_ASSERT_EQUAL(ps.errors, errors, "errors %" PRIu64 "/%" PRIu64,
			  ps.errors, errors);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(st.cq, c, 64), 0, "extra");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_counters_get(st.cq, &cnt), "cnt");
	TEST_ASSERT_EQUAL(cnt.completions, sc->count, "completions");
	TEST_ASSERT_EQUAL(cnt.errors, errors, "errors");
	TEST_ASSERT_EQUAL(cnt.err_syndrome[0x05], errors, "syndrome 5");
	TEST_ASSERT_EQUAL(cnt.comp_unhandled, 0, "comp_unhandled");
	if (sc->format) {
		struct mlx5_emu_cq_ev_info ev;

		TEST_ASSERT_SUCCESS(mlx5_emu_cq_ev_query(st.ctx, st.cq->cqn,
							 &ev), "ev_query");
		TEST_ASSERT(ev.compressed > sc->count / 2,
			    "only %" PRIu64 " compressed", ev.compressed);
		TEST_ASSERT_EQUAL(cnt.minis, ev.compressed, "minis");
		TEST_ASSERT_EQUAL(cnt.sessions, ev.sessions, "sessions");
	} else {
		TEST_ASSERT_EQUAL(cnt.minis, 0, "minis");
	}
	TEST_ASSERT(st.cq->ci >> sc->log_n > 100, "only %u wraps",
		    st.cq->ci >> sc->log_n);
	printf("  %s: %" PRIu64 " completions (%" PRIu64 " mini-CQEs, %"
	       PRIu64 " errors) in %.2f s, %" PRIu64 " polls\n", sc->name,
	       cnt.completions, cnt.minis, errors,
	       (double)(rte_get_timer_cycles() - t0) / rte_get_timer_hz(),
	       cnt.polls);
	return TEST_SUCCESS;
}

/* Record c must be completion number s (see the file comment). */
static int
stress_rec_ok(const struct rte_mlx5cq_cpl *c, uint64_t s)
{
	int err = stress_is_error(s);

	if (c->wqe_counter == (uint16_t)s &&
	    (err || c->byte_cnt == 64 + (uint32_t)((s >> 16) & 0x3ff)) &&
	    (c->status != 0) == err)
		return 1;
	printf("  completion %" PRIu64 ": wqe %#x byte_cnt %u status %u\n",
	       s, c->wqe_counter, c->byte_cnt, c->status);
	return 0;
}

/* Slots the device may still write: entries - (written - released). */
static uint32_t
stress_room(uint64_t written, uint32_t log_n)
{
	uint32_t released = rte_be_to_cpu_32(st.cq->dbrec[0]) & 0xffffff;

	return (1u << log_n) - (((uint32_t)written - released) & 0xffffff);
}

/*
 * Ring space without a thread (the ring states the producer thread meets
 * at full speed): every completion takes one slot, a regular CQE or one
 * mini-CQE of an n-slot compressed CQE, and the device writes only slots
 * the consumer index of the doorbell record has released. stress_gen's
 * first run compresses on a ring of 16 (title 0, arrays 1..7 and 8..14,
 * 15 alone as a regular CQE); polling the title and two mini-CQEs
 * releases the title's slot only (its array is still being read), so one
 * more completion fits. Then posts and polls of changing sizes for 300
 * passes: each post takes exactly min(offered, room) and every completion
 * arrives once, in order.
 */
static int
test_stress_ring_space(const void *data)
{
	const struct stress_case *sc = data;
	struct mlx5_emu_wc post[64];
	struct rte_mlx5cq_cpl c[64];
	uint64_t w, s = 0, errors = 0;
	unsigned int round;
	uint16_t k, r;
	int ret;

	if (stress_open(sc) != TEST_SUCCESS)
		return TEST_FAILED;
	memset(post, 0, sizeof(post));
	for (k = 0; k < 48; k++)
		stress_gen(NULL, k, &post[k]);
	ret = mlx5_emu_cq_post_flags(st.ctx, st.cq->cqn, post, 48, 0);
	TEST_ASSERT_EQUAL(ret, 16, "empty ring of 16 took %d", ret);
	ret = mlx5_emu_cq_post_flags(st.ctx, st.cq->cqn, post + 16, 32, 0);
	TEST_ASSERT_EQUAL(ret, 0, "full ring took %d", ret);
	r = rte_mlx5cq_poll_burst(st.cq, c, 3);
	TEST_ASSERT_EQUAL(r, 3, "polled %u", r);
	for (k = 0; k < r; k++, s++)
		TEST_ASSERT(stress_rec_ok(&c[k], s), "order");
	TEST_ASSERT_EQUAL(rte_be_to_cpu_32(st.cq->dbrec[0]), 1,
			  "doorbell record %#x: the array is being read",
			  rte_be_to_cpu_32(st.cq->dbrec[0]));
	ret = mlx5_emu_cq_post_flags(st.ctx, st.cq->cqn, post + 16, 32, 0);
	TEST_ASSERT_EQUAL(ret, 1, "one released slot took %d", ret);
	ret = mlx5_emu_cq_post_flags(st.ctx, st.cq->cqn, post + 17, 31, 0);
	TEST_ASSERT_EQUAL(ret, 0, "full ring took %d", ret);
	r = rte_mlx5cq_poll_burst(st.cq, c, 64);
	TEST_ASSERT_EQUAL(r, 14, "polled %u", r);
	for (k = 0; k < r; k++, s++)
		TEST_ASSERT(stress_rec_ok(&c[k], s), "order");
	w = 17;
	for (round = 0; s < sc->count; round++) {
		uint16_t n = (uint16_t)(1 + round * 7 % 40);
		uint32_t room = stress_room(w, sc->log_n);

		memset(post, 0, sizeof(post));
		for (k = 0; k < n; k++)
			stress_gen(NULL, w + k, &post[k]);
		ret = mlx5_emu_cq_post_flags(st.ctx, st.cq->cqn, post, n, 0);
		TEST_ASSERT_EQUAL(ret, (int)RTE_MIN((uint32_t)n, room),
				  "round %u: %u offered, room %u, %d taken",
				  round, n, room, ret);
		w += (uint64_t)ret;
		r = rte_mlx5cq_poll_burst(st.cq, c,
					  (uint16_t)(1 + round * 5 % 23));
		for (k = 0; k < r; k++, s++) {
			if (!stress_rec_ok(&c[k], s)) {
				rte_mlx5cq_dump(stdout, st.cq);
				return TEST_FAILED;
			}
			errors += stress_is_error(s);
		}
		TEST_ASSERT(s <= w, "%" PRIu64 " polled, %" PRIu64 " written",
			    s, w);
		TEST_ASSERT(round < 100 * sc->count, "no progress");
	}
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(st.cq, c, 64), 0, "extra");
	TEST_ASSERT_EQUAL(test_cq_cnt(st.cq)->completions, s, "completions");
	TEST_ASSERT_EQUAL(test_cq_cnt(st.cq)->errors, errors, "errors");
	TEST_ASSERT(errors > 0, "no error CQE met");
	TEST_ASSERT(test_cq_cnt(st.cq)->minis > s / 2, "only %" PRIu64 " mini-CQEs",
		    test_cq_cnt(st.cq)->minis);
	TEST_ASSERT_EQUAL(test_cq_cnt(st.cq)->comp_unhandled, 0, "comp_unhandled");
	TEST_ASSERT(st.cq->ci >> sc->log_n >= 300, "only %u passes",
		    st.cq->ci >> sc->log_n);
	return TEST_SUCCESS;
}

static const struct stress_case sc_hash = {
	"hash_basic_10M", RTE_MLX5CQ_PATH_DEVX, RTE_MLX5CQ_COMP_HASH, 0, 64,
	12, 10000000, RTE_MLX5CQ_F_SINGLE_THREADED };
static const struct stress_case sc_ftag_enh = {
	"ftag_enhanced", RTE_MLX5CQ_PATH_DEVX, RTE_MLX5CQ_COMP_FTAG_STRIDX, 1,
	64, 10, 2000000, RTE_MLX5CQ_F_SINGLE_THREADED };
static const struct stress_case sc_l34h_128 = {
	"l34h_128", RTE_MLX5CQ_PATH_DEVX, RTE_MLX5CQ_COMP_L34H_STRIDX, 0, 128,
	11, 2000000, 0 /* locked */ };
static const struct stress_case sc_csum_verbs = {
	"csum_verbs", RTE_MLX5CQ_PATH_VERBS, RTE_MLX5CQ_COMP_CSUM_STRIDX, 0,
	64, 10, 2000000, RTE_MLX5CQ_F_SINGLE_THREADED };
static const struct stress_case sc_space_enh = {
	"space_enhanced", RTE_MLX5CQ_PATH_DEVX, RTE_MLX5CQ_COMP_FTAG_STRIDX, 1,
	64, 4, 16 * 300, RTE_MLX5CQ_F_SINGLE_THREADED };
static const struct stress_case sc_plain = {
	"uncompressed", RTE_MLX5CQ_PATH_DEVX, 0, 0, 64, 10, 2000000,
	RTE_MLX5CQ_F_SINGLE_THREADED };

#define STRESS_CASE(c) \
	TEST_CASE_NAMED_WITH_DATA("test_stress_" #c, NULL, stress_teardown, \
				  test_stress_run, &(c))

static struct unit_test_suite stress_suite = {
	.suite_name = "stress",
	.unit_test_cases = {
		STRESS_CASE(sc_hash),
		STRESS_CASE(sc_ftag_enh),
		STRESS_CASE(sc_l34h_128),
		STRESS_CASE(sc_csum_verbs),
		STRESS_CASE(sc_plain),
		TEST_CASE_NAMED_WITH_DATA("test_stress_ring_space_enh", NULL,
					  stress_teardown,
					  test_stress_ring_space,
					  &sc_space_enh),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(stress, stress_suite);
