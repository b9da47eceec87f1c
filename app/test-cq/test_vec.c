/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "vec": every poll implementation gives the same records.
 *
 * For each CQ setting (no compression, every mini-CQE format in the basic
 * layout, HASH in the enhanced layout on 64 and 128 B CQEs, 128 B and
 * padded 128 B CQEs) one CQ per implementation (scalar, and each vector
 * one this CPU and the EAL allow) plus one consumer on the lean path
 * (rte_mlx5cq_peek / rte_mlx5cq_advance, rte_mlx5cq_poll_burst for what it
 * does not take) is fed the same seeded random stream by the emulated HCA: runs of
 * completions that share the fields a session takes from its title (so
 * the model compresses them), requester and responder runs, error CQEs,
 * sessions held open across posts, posts of random size so the ring wraps
 * many times, and bursts of random size that split sessions and arrays.
 * Every consumer must deliver all completions, with records identical
 * byte for byte to the scalar one's; without compression each record must
 * also be the one written from the model's completion (test_cpl_expect.h).
 */

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_malloc.h>

#include <mlx5_emu.h>
#include <mlx5_prm.h>
#include <rte_mlx5cq.h>

#include "test.h"
#include "test_cpl_expect.h"
#include "test_cq_cnt.h"
#include "test_vec_arch.h"

#define VEC_TOTAL 30000 /* Completions per stream. */
#define VEC_BURST_MAX 64
#define VEC_LEAN RTE_MLX5CQ_VEC_MAX /* Index of the lean consumer. */
#define VEC_N (RTE_MLX5CQ_VEC_MAX + 1)

struct vec_case {
	const char *name;
	uint8_t format; /* RTE_MLX5CQ_COMP_*, 0: none */
	uint8_t layout;
	uint16_t cqe_size;
	uint32_t flags;
	uint32_t log_n;
};

static struct {
	struct ibv_context *ctx;
	struct rte_mlx5cq_dev *dev;
	struct rte_mlx5cq *cq[VEC_N];
	struct rte_mlx5cq_cpl *rec[VEC_N];
	struct mlx5_emu_wc *gen;
} vx;

static void
vec_teardown(void)
{
	unsigned int v;

	for (v = 0; v < VEC_N; v++) {
		if (vx.cq[v] != NULL)
			rte_mlx5cq_destroy(vx.cq[v]);
		free(vx.rec[v]);
	}
	if (vx.dev != NULL)
		rte_mlx5cq_dev_close(vx.dev);
	if (vx.ctx != NULL)
		mlx5_emu_close(vx.ctx);
	free(vx.gen);
	memset(&vx, 0, sizeof(vx));
}

/* xorshift32: the same sequence for every consumer. */
static uint32_t
rnd(uint32_t *s)
{
	uint32_t x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*s = x;
	return x;
}

/*
 * The stream: runs of 1..80 completions; a run shares the title fields
 * (hash type, header types, VLAN, metadata, timestamp, QPN); inside a run
 * the fields the case's mini-CQE format carries vary, WQE counters
 * follow each other (what HASH/CSUM sessions imply). One run in six is a
 * requester run; about one completion in 40 is an error CQE.
 */
static void
vec_stream(const struct vec_case *vc, struct mlx5_emu_wc *g, uint32_t n)
{
	uint32_t s = 0x2545f491, i = 0, run = 0, left = 0;
	struct mlx5_emu_wc t;
	uint16_t wqe = 0;

	memset(&t, 0, sizeof(t));
	for (i = 0; i < n; i++) {
		struct mlx5_emu_wc *c = &g[i];

		if (left == 0) {
			left = 1 + rnd(&s) % 80;
			run++;
			memset(&t, 0, sizeof(t));
			t.kind = rnd(&s) % 6 == 0 ? MLX5_EMU_WC_REQ :
						   MLX5_EMU_WC_RESP;
			t.rx_hash_type = (uint8_t)rnd(&s);
			t.hdr_type_etc = (uint16_t)(rnd(&s) & 0x07fd);
			t.vlan_info = (uint16_t)rnd(&s);
			t.flow_table_metadata = rnd(&s);
			t.timestamp = (uint64_t)rnd(&s) << 20 | run;
			t.qpn = rnd(&s) & 0xffffff;
			t.csum = (uint16_t)rnd(&s);
			t.rx_hash_res = rnd(&s);
			t.s_wqe_opcode = t.kind == MLX5_EMU_WC_REQ ? 0x0a : 0;
		}
		left--;
		*c = t;
		c->wqe_counter = wqe++;
		c->byte_cnt = rnd(&s) & (vc->format ==
			RTE_MLX5CQ_COMP_FTAG_STRIDX ? 0xffffff : 0xffffffff);
		if (c->kind == MLX5_EMU_WC_RESP) {
			switch (vc->format) {
			case RTE_MLX5CQ_COMP_HASH:
				c->rx_hash_res = rnd(&s);
				break;
			case RTE_MLX5CQ_COMP_CSUM:
			case RTE_MLX5CQ_COMP_CSUM_STRIDX:
				c->csum = (uint16_t)rnd(&s);
				break;
			case RTE_MLX5CQ_COMP_FTAG_STRIDX:
				c->qpn = rnd(&s) & 0xffffff;
				break;
			case RTE_MLX5CQ_COMP_L34H_STRIDX:
				c->hdr_type_etc = (uint16_t)((t.hdr_type_etc &
					0xff00) | (rnd(&s) & 0xfd));
				break;
			default:
				break;
			}
		}
		if (rnd(&s) % 40 == 0) {
			c->kind = c->kind == MLX5_EMU_WC_REQ ?
				  MLX5_EMU_WC_REQ_ERR : MLX5_EMU_WC_RESP_ERR;
			c->syndrome = (uint8_t)(1 + rnd(&s) % 0x22);
			c->vendor_syndrome = (uint8_t)rnd(&s);
			c->s_wqe_opcode = 0x0a;
			left = 0; /* an error ends the run */
		}
	}
}

/* PRM mini-CQE format (MLX5_CQE_RESP_FORMAT_*) of a RTE_MLX5CQ_COMP_* bit. */
static unsigned int
vec_prm_format(uint8_t bit)
{
	switch (bit) {
	case RTE_MLX5CQ_COMP_HASH:
		return MLX5_CQE_RESP_FORMAT_HASH;
	case RTE_MLX5CQ_COMP_CSUM:
		return MLX5_CQE_RESP_FORMAT_CSUM;
	case RTE_MLX5CQ_COMP_FTAG_STRIDX:
		return MLX5_CQE_RESP_FORMAT_FTAG_STRIDX;
	case RTE_MLX5CQ_COMP_CSUM_STRIDX:
		return MLX5_CQE_RESP_FORMAT_CSUM_STRIDX;
	default:
		return MLX5_CQE_RESP_FORMAT_L34H_STRIDX;
	}
}

/*
 * Poll up to n into r on consumer v. The lean consumer (VEC_LEAN): plain
 * CQEs through rte_mlx5cq_peek(), compressed sessions through
 * rte_mlx5cq_session_open() and rte_mlx5cq_session_mini(), an array at
 * a time, with its records made here from the mini-CQE
 * bytes (test_cpl_expect.h), the rest through rte_mlx5cq_poll_burst().
 */
static uint16_t
vec_poll(unsigned int v, struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *r,
	 uint16_t n, uint8_t format)
{
	uint16_t k = 0, j, z;

	if (v != VEC_LEAN)
		return rte_mlx5cq_poll_burst(cq, r, n);
	while (k < n) {
		struct rte_mlx5cq_session s;
		volatile const struct rte_mlx5cq_mini *m;
		uint32_t run;
		uint16_t p = rte_mlx5cq_peek(cq, (uint16_t)(n - k));

		for (j = 0; j < p; j++) {
			volatile const uint8_t *e =
				rte_mlx5cq_cqe_bytes(rte_mlx5cq_peek_cqe(cq, j));

			rte_mlx5cq__decode_ok(e, e[RTE_MLX5CQ_CQE_OP_OWN],
					      &r[k + j]);
		}
		if (p) {
			rte_mlx5cq_advance(cq, p);
			k = (uint16_t)(k + p);
			continue;
		}
		if (rte_mlx5cq_session_open(cq, &s) == 0)
			break;
		/* What is left of the current array, at most n - k. */
		m = rte_mlx5cq_session_mini(cq, &s, s.pos, &run);
		z = (uint16_t)RTE_MIN(RTE_MIN(run, s.left),
				      (uint32_t)(n - k));
		for (j = 0; j < z; j++) {
			r[k + j] = *s.title;
			expect_mini_fields(vec_prm_format(format),
					   rte_mlx5cq_mini_bytes(m + j),
					   (uint16_t)(s.title->wqe_counter +
						      s.pos + j),
					   &r[k + j]);
		}
		rte_mlx5cq_session_advance(cq, z);
		k = (uint16_t)(k + z);
	}
	if (k < n)
		k = (uint16_t)(k + rte_mlx5cq_poll_burst(cq, r + k,
							 (uint16_t)(n - k)));
	return k;
}

/* The byte consumer v's record array is filled with before any poll. */
static uint8_t
vec_scrub_byte(unsigned int v)
{
	return (uint8_t)(0xa5 ^ (v * 0x11));
}

/* Whether record c still holds consumer v's fill bytes, all of them. */
static int
vec_untouched(const struct rte_mlx5cq_cpl *c, unsigned int v)
{
	const uint8_t *b = (const uint8_t *)c;
	size_t i;

	for (i = 0; i < sizeof(*c); i++)
		if (b[i] != vec_scrub_byte(v))
			return 0;
	return 1;
}

/* Feed the stream to consumer v; returns the records delivered. */
static int
vec_run(const struct vec_case *vc, unsigned int v, uint32_t *got)
{
	struct rte_mlx5cq *cq = vx.cq[v];
	struct rte_mlx5cq_cpl *r = vx.rec[v];
	uint32_t s = 0x9e3779b9, posted = 0, cap = 1u << vc->log_n;
	uint32_t idle = 0;
	uint16_t j;

	*got = 0;
	while (*got < VEC_TOTAL) {
		uint32_t want = RTE_MIN(1 + rnd(&s) % (cap / 2),
					VEC_TOTAL - posted);
		uint32_t flags = rnd(&s) % 3 == 0 ? MLX5_EMU_POST_HOLD : 0;
		uint32_t before = posted + *got;
		uint16_t k;
		int ret;

		if (want > 0) {
			ret = mlx5_emu_cq_post_flags(vx.ctx, cq->cqn,
						     vx.gen + posted, want,
						     flags);
			TEST_ASSERT(ret >= 0, "post: %d", ret);
			posted += (uint32_t)ret;
		}
		if (posted == VEC_TOTAL)
			TEST_ASSERT_SUCCESS(mlx5_emu_cq_flush(vx.ctx,
							      cq->cqn),
					    "flush");
		do {
			uint16_t b = (uint16_t)(1 + rnd(&s) % VEC_BURST_MAX);

			TEST_ASSERT(*got + b <= VEC_TOTAL + VEC_BURST_MAX,
				    "too many records");
			k = vec_poll(v, cq, r + *got, b, vc->format);
			TEST_ASSERT(k <= b, "%u records for a burst of %u",
				    k, b);
			/* Nothing is written past a burst's last record. */
			for (j = k; j < b; j++)
				TEST_ASSERT(vec_untouched(&r[*got + j], v),
					    "%s/%s: record %u of a burst of %u"
					    " (%u taken) written", vc->name,
					    v == VEC_LEAN ? "lean" :
					    rte_mlx5cq_vec_name(
						(enum rte_mlx5cq_vec)v),
					    j, b, k);
			*got += k;
		} while (k != 0);
		/* A round that posts and polls nothing (a full CQ that the
		 * poll does not drain) is no progress either.
		 */
		idle = posted + *got == before ? idle + 1 : 0;
		TEST_ASSERT(idle < 4, "%s/%s: stuck at %u of %u", vc->name,
			    v == VEC_LEAN ? "lean" :
			    rte_mlx5cq_vec_name((enum rte_mlx5cq_vec)v),
			    *got, VEC_TOTAL);
	}
	return TEST_SUCCESS;
}

static int
test_vec_same(const void *data)
{
	const struct vec_case *vc = data;
	struct rte_mlx5cq_attr attr;
	uint32_t got[VEC_N], i;
	unsigned int v, nv = 0;

	vx.ctx = mlx5_emu_open("vec0", NULL);
	TEST_ASSERT(vx.ctx != NULL, "emu open");
	vx.dev = rte_mlx5cq_dev_open(vx.ctx, SOCKET_ID_ANY);
	TEST_ASSERT(vx.dev != NULL, "dev open");
	vx.gen = calloc(VEC_TOTAL, sizeof(*vx.gen));
	TEST_ASSERT(vx.gen != NULL, "no memory");
	vec_stream(vc, vx.gen, VEC_TOTAL);
	memset(&attr, 0, sizeof(attr));
	attr.comp_mask = RTE_MLX5CQ_ATTR_CQE_SIZE;
	attr.cqe = (1u << vc->log_n) - 1;
	attr.cqe_size = vc->cqe_size;
	attr.flags = RTE_MLX5CQ_F_SINGLE_THREADED | vc->flags;
	attr.socket = SOCKET_ID_ANY;
	attr.path = RTE_MLX5CQ_PATH_DEVX;
	if (vc->format) {
		attr.comp_mask |= RTE_MLX5CQ_ATTR_COMPRESSED;
		attr.comp_format = vc->format;
		attr.comp_layout = vc->layout;
	}
	for (v = 0; v < VEC_N; v++) {
		vx.cq[v] = rte_mlx5cq_create(vx.dev, &attr);
		TEST_ASSERT(vx.cq[v] != NULL, "create");
		vx.rec[v] = calloc(VEC_TOTAL + VEC_BURST_MAX,
				   sizeof(*vx.rec[v]));
		TEST_ASSERT(vx.rec[v] != NULL, "no memory");
		/* A byte one poll leaves unwritten differs between them. */
		memset(vx.rec[v], vec_scrub_byte(v), (VEC_TOTAL +
		       VEC_BURST_MAX) * sizeof(*vx.rec[v]));
		/* The lean consumer keeps the default poll; an implementation
		 * this architecture, CPU or EAL does not have is skipped.
		 */
		if (v != VEC_LEAN && (!test_vec_arch_has(v) ||
		    rte_mlx5cq_vec_set(vx.cq[v], (enum rte_mlx5cq_vec)v) != 0))
			continue;
		TEST_ASSERT_SUCCESS(vec_run(vc, v, &got[v]), "run");
		TEST_ASSERT_EQUAL(got[v], VEC_TOTAL, "%u records of %u",
				  got[v], VEC_TOTAL);
		TEST_ASSERT_EQUAL(test_cq_cnt(vx.cq[v])->completions,
				  VEC_TOTAL, "completions counter");
		TEST_ASSERT_EQUAL(test_cq_cnt(vx.cq[v])->comp_unhandled, 0,
				  "comp_unhandled");
		if (vc->format != 0 && vc->layout == 0)
			TEST_ASSERT(test_cq_cnt(vx.cq[v])->minis >
				    VEC_TOTAL / 4, "few mini-CQEs: %" PRIu64,
				    test_cq_cnt(vx.cq[v])->minis);
		/*
		 * Sessions and mini-CQEs are counted as the scalar poll does
		 * (test_cq_cnt() returns one snapshot: copies).
		 */
		if (v != RTE_MLX5CQ_VEC_SCALAR && v != VEC_LEAN) {
			struct rte_mlx5cq_counters a, b;

			a = *test_cq_cnt(vx.cq[v]);
			b = *test_cq_cnt(vx.cq[RTE_MLX5CQ_VEC_SCALAR]);
			TEST_ASSERT_EQUAL(a.sessions, b.sessions,
					  "sessions %" PRIu64 " vs %" PRIu64,
					  a.sessions, b.sessions);
			TEST_ASSERT_EQUAL(a.minis, b.minis,
					  "minis %" PRIu64 " vs %" PRIu64,
					  a.minis, b.minis);
		}
		if (v != RTE_MLX5CQ_VEC_SCALAR)
			TEST_ASSERT_BUFFERS_ARE_EQUAL(vx.rec[v],
				vx.rec[RTE_MLX5CQ_VEC_SCALAR],
				VEC_TOTAL * sizeof(*vx.rec[v]),
				"%s records differ from scalar",
				v == VEC_LEAN ? "lean" : rte_mlx5cq_vec_name(
					(enum rte_mlx5cq_vec)v));
		nv++;
	}
#if defined(RTE_ARCH_X86)
	/* SSE4.2 is the x86 baseline: at least scalar, SSE and lean ran. */
	TEST_ASSERT(nv >= 3, "only %u consumers ran", nv);
#elif defined(RTE_ARCH_ARM64)
	/* NEON is in AArch64's base: scalar, NEON and lean ran. */
	TEST_ASSERT(nv >= 3, "only %u consumers ran", nv);
#endif
	if (vc->format == 0) {
		for (i = 0; i < VEC_TOTAL; i++) {
			struct rte_mlx5cq_cpl e;
			const char *d;

			expect_emu_record(&vx.gen[i], &e);
			d = expect_record_diff(&vx.rec[0][i], &e);
			TEST_ASSERT(d == NULL, "record %u: %s", i, d);
		}
	}
	printf("    %s: %u consumers, %u records each\n", vc->name, nv,
	       VEC_TOTAL);
	return TEST_SUCCESS;
}

static const struct vec_case vc_plain = { "plain64", 0, 0, 64, 0, 8 };
static const struct vec_case vc_plain128 = { "plain128", 0, 0, 128, 0, 7 };
static const struct vec_case vc_pad = { "pad128", 0, 0, 128,
					RTE_MLX5CQ_F_CQE_PAD, 9 };
static const struct vec_case vc_hash = { "hash", RTE_MLX5CQ_COMP_HASH, 0,
					 64, 0, 8 };
static const struct vec_case vc_csum = { "csum", RTE_MLX5CQ_COMP_CSUM, 0,
					 64, 0, 9 };
static const struct vec_case vc_ftag = { "ftag",
					 RTE_MLX5CQ_COMP_FTAG_STRIDX, 0, 64,
					 0, 8 };
static const struct vec_case vc_csumstr = { "csum_stridx",
					    RTE_MLX5CQ_COMP_CSUM_STRIDX, 0,
					    64, 0, 10 };
static const struct vec_case vc_l34h = { "l34h",
					 RTE_MLX5CQ_COMP_L34H_STRIDX, 0, 64,
					 0, 8 };
static const struct vec_case vc_hash128 = { "hash128",
					    RTE_MLX5CQ_COMP_HASH, 0, 128, 0,
					    8 };
static const struct vec_case vc_hash_enh = { "hash_enhanced",
					     RTE_MLX5CQ_COMP_HASH, 1, 64, 0,
					     8 };
static const struct vec_case vc_hash_enh128 = { "hash_enhanced128",
						RTE_MLX5CQ_COMP_HASH, 1, 128,
						0, 7 };

#define VEC_CASE(c) \
	TEST_CASE_NAMED_WITH_DATA("test_vec_" #c, NULL, vec_teardown, \
				  test_vec_same, &(c))

static struct unit_test_suite vec_suite = {
	.suite_name = "vec",
	.unit_test_cases = {
		VEC_CASE(vc_plain),
		VEC_CASE(vc_plain128),
		VEC_CASE(vc_pad),
		VEC_CASE(vc_hash),
		VEC_CASE(vc_csum),
		VEC_CASE(vc_ftag),
		VEC_CASE(vc_csumstr),
		VEC_CASE(vc_l34h),
		VEC_CASE(vc_hash128),
		VEC_CASE(vc_hash_enh),
		VEC_CASE(vc_hash_enh128),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(vec, vec_suite);
