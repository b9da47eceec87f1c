/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "decomp": compressed sessions expanded by rte_mlx5cq_poll_burst().
 *
 * Hand-built CQs (test_hand_cq.h) hold golden images written byte by byte
 * from the PRM layouts: title CQE + arrays of 8-byte mini-CQEs (basic
 * layout: arrays at title + 1, + 8, + 16..., holes between) in each
 * mini-CQE format, and the enhanced layout (each compressed CQE an array
 * of n mini-CQEs spanning n slots, n - 1 in the opcode bits, validity
 * iteration count byte 62; kernel en_rx.c mlx5e_decompress_enhanced_cqe
 * moves the consumer counter once per mini-CQE). The
 * expected record of each mini-CQE is spelled out here from DPDK's
 * rxq_cq_to_mbuf (mlx5_rx.c) reading of the fields:
 *   every format: byte count = bytes 4..7 (FTAG: 5..7, byte 4 being the
 *   flow tag's bits 23:16);
 *   HASH: RSS hash = bytes 0..3; CSUM: checksum = bytes 0..1; the WQE
 *   counter of these two is the title's + position in the session;
 *   FTAG_STRIDX: flow tag = byte 4 << 16 | bytes 0..1; CSUM_STRIDX:
 *   checksum bytes 0..1; L34H_STRIDX: header byte = byte 1, which is
 *   byte 29 of the full CQE (hdr_type_etc bits 7:0: header types 7:2 as
 *   DPDK reads them from the unswapped field, bit 0 VLAN stripped); STRIDX
 *   formats: stride index (bytes 2..3) as WQE counter;
 *   requester title (opcode REQ): WQE counter = bytes 0..1;
 *   the rest comes from the title.
 */

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include <mlx5_emu.h>
#include <rte_mlx5cq.h>

#include "test.h"
#include "test_cq_cnt.h"
#include "test_cpl_expect.h"
#include "test_hand_cq.h"
#include "test_vec_arch.h"

/* rte_mlx5cq.comp of each PRM format (format + 1). */
enum {
	F_HASH = 0, F_CSUM = 1, F_FTAG = 2, F_CSUM_STRIDX = 3, F_L34H = 4,
};

static struct hand_cq h;

static void
decomp_teardown(void)
{
	hand_cq_fini(&h);
}

static const char * const fmt_name[] = {
	"HASH", "CSUM", "FTAG_STRIDX", "CSUM_STRIDX", "L34H_STRIDX",
};

/* A responder title with every field distinct. */
static void
title_img(struct img_cqe *t, uint8_t opcode)
{
	memset(t, 0, sizeof(*t));
	t->opcode = opcode;
	t->rx_hash_type = 0x2c;
	t->rx_hash_res = 0x11223344;
	t->csum = 0xc5c5;
	t->hdr_type_etc = 0x0a56; /* bits 11, 9 (L3 OK), 6, 4, 2, 1 */
	t->vlan_info = 0x0123;
	t->metadata = 0x00c0ffee;
	t->byte_cnt = 0; /* the session count, set by hand_put_session */
	t->timestamp = 0x0102030405060708ull;
	t->sop_drop_qpn = 0x00abcdef;
	t->wqe_counter = 0x0100;
}

/* Record of mini-CQE m of a session whose title is t (see file comment). */
static void
exp_mini(unsigned int fmt, const struct img_cqe *t, const uint8_t *m,
	 uint16_t implied_wqe, struct rte_mlx5cq_cpl *e)
{
	struct img_cqe d = *t;

	d.format = 0;
	expect_img_record(&d, e);
	expect_mini_fields(fmt, m, implied_wqe, e);
}

static int
check_rec(const struct rte_mlx5cq_cpl *g, const struct rte_mlx5cq_cpl *e,
	  unsigned int k)
{
	const char *f = expect_record_diff(g, e);

	if (f != NULL) {
		printf("  record %u: field %s differs (wqe got %#x want %#x,"
		       " byte_cnt got %#x want %#x, flow_tag got %#x want"
		       " %#x, hdr got %#x want %#x)\n", k, f, g->wqe_counter,
		       e->wqe_counter, g->byte_cnt, e->byte_cnt, g->flow_tag,
		       e->flow_tag, g->hdr_type_etc, e->hdr_type_etc);
		return TEST_FAILED;
	}
	return TEST_SUCCESS;
}

static int
check_dbrec(uint32_t ci)
{
	uint8_t want[4] = { 0, (uint8_t)(ci >> 16), (uint8_t)(ci >> 8),
			    (uint8_t)ci };

	TEST_ASSERT_BUFFERS_ARE_EQUAL(h.dbrec, want, 4,
		"dbrec %02x %02x %02x %02x, want ci %u", h.dbrec[0],
		h.dbrec[1], h.dbrec[2], h.dbrec[3], ci);
	return TEST_SUCCESS;
}

/*
 * Golden mini-CQEs, three per format, written from the layout; the rest
 * of a session follows the pattern of gen_mini().
 */
static const uint8_t golden[5][3][8] = {
	[F_HASH] = {
		{ 0xde, 0xad, 0xbe, 0xef, 0x00, 0x00, 0x00, 0x40 },
		{ 0x01, 0x02, 0x03, 0x04, 0x00, 0x00, 0x05, 0xdc },
		{ 0x80, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00 },
	},
	[F_CSUM] = {
		{ 0xbe, 0xef, 0xee, 0xee, 0x00, 0x00, 0x00, 0x40 },
		{ 0x12, 0x34, 0xee, 0xee, 0x00, 0x00, 0x05, 0xdc },
		{ 0xff, 0xff, 0xee, 0xee, 0x00, 0x00, 0x23, 0x28 },
	},
	[F_FTAG] = {
		/* tag 0xab1234, 1500 bytes, stride 7 */
		{ 0x12, 0x34, 0x00, 0x07, 0xab, 0x00, 0x05, 0xdc },
		/* tag 0x000001, 64 bytes, stride 8 */
		{ 0x00, 0x01, 0x00, 0x08, 0x00, 0x00, 0x00, 0x40 },
		/* tag 0xffffff (default), 0x010203 bytes, stride 0x1234 */
		{ 0xff, 0xff, 0x12, 0x34, 0xff, 0x01, 0x02, 0x03 },
	},
	[F_CSUM_STRIDX] = {
		{ 0xa1, 0xb2, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40 },
		{ 0xc3, 0xd4, 0x00, 0x01, 0x00, 0x00, 0x05, 0xdc },
		{ 0x00, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x3c },
	},
	[F_L34H] = {
		/* VLAN stripped, header bits 7:2 = 0x2d << 2 */
		{ 0xee, 0xb5, 0x00, 0x02, 0x00, 0x00, 0x00, 0x40 },
		/* no VLAN, header 0x48 */
		{ 0xee, 0x48, 0x00, 0x03, 0x00, 0x00, 0x05, 0xdc },
		/* VLAN only (bit 0), bit 1 set too (not a header bit) */
		{ 0xee, 0x03, 0x00, 0x04, 0x00, 0x00, 0x00, 0x80 },
	},
};

static void
gen_mini(unsigned int fmt, uint32_t j, uint8_t *m)
{
	if (j < 3) {
		memcpy(m, golden[fmt][j], 8);
		return;
	}
	m[0] = (uint8_t)(0x30 + j);
	m[1] = (uint8_t)(0x7d ^ j);
	m[2] = (uint8_t)(j >> 8);
	m[3] = (uint8_t)(0x40 + j);
	m[4] = (uint8_t)(fmt == F_FTAG ? 0x5e : 0);
	m[5] = 0;
	m[6] = (uint8_t)(j >> 2);
	m[7] = (uint8_t)(60 + j);
}

#define SESS_MAX 64

/*
 * One case: regular CQE at ci0, session of count at ci0 + 1 (at ci0 with
 * no_lead), then a regular CQE (or an error CQE), polled in bursts of
 * burst by the CQ's default poll implementation (vec 0) or by vec - 1.
 */
struct sess_case {
	unsigned int fmt;
	unsigned int stride;
	uint32_t log_n;
	uint32_t ci0;
	uint32_t count;
	uint16_t burst;
	uint8_t title_op;
	uint8_t after_op; /* opcode of the CQE after the session */
	uint8_t no_lead; /* no regular CQE before the session */
	uint8_t vec; /* enum rte_mlx5cq_vec + 1, 0: the default */
};

/*
 * Inside an open session (title at t_idx, count entries, got mini-CQEs
 * delivered, own[]: each entry's op_own before the poll): the arrays read
 * to their end are invalidated, their holes with them (title + 1 ..
 * title + 7, then title + 8 .. title + 15, ...); the title, the current
 * array and everything after it keep their op_own (the raw view and the
 * rest of the session read them).
 */
static int
check_open_inv(struct hand_cq *hc, uint32_t t_idx, uint32_t count,
	       uint32_t got, const uint8_t *own)
{
	uint32_t done = got / 8 * 8, j;

	for (j = 0; j < count; j++) {
		int inv = j >= 1 && j < done;
		uint8_t want = inv ? IMG_INVALIDATE : own[j];

		TEST_ASSERT_EQUAL(hand_cqe(hc, t_idx + j)[IMG_OP_OWN], want,
				  "%u of %u read: entry %u op_own %#x, want"
				  " %#x", got, count, j,
				  hand_cqe(hc, t_idx + j)[IMG_OP_OWN], want);
	}
	return TEST_SUCCESS;
}

/*
 * A CQE of opcode op after a session: WQE counter wqe, error syndrome 4
 * and vendor syndrome 0x66 (an error record carries them), QPN bytes.
 */
static void
next_img(struct img_cqe *e, uint8_t op, uint16_t wqe)
{
	memset(e, 0, sizeof(*e));
	e->opcode = op;
	e->wqe_counter = wqe;
	e->syndrome = 0x04;
	e->vendor_syndrome = 0x66;
	e->sop_drop_qpn = 0x0a00abcd;
}

static int
run_session(const struct sess_case *sc)
{
	uint8_t minis[SESS_MAX][8];
	struct rte_mlx5cq_cpl exp[SESS_MAX + 2], got[SESS_MAX + 2];
	struct img_cqe first, title, after;
	const uint32_t lead = sc->no_lead ? 0 : 1;
	uint32_t j, t_idx = sc->ci0 + lead, end = t_idx + sc->count;
	uint32_t total = lead + sc->count + 1, n = 0, polls = 0;
	uint8_t before_hole[64], own[SESS_MAX];
	uint32_t hole = t_idx + 2;

	TEST_ASSERT_SUCCESS(hand_cq_init(&h, sc->log_n, sc->stride,
					 (uint8_t)(sc->fmt + 1), sc->ci0),
			    "fixture");
	if (sc->vec)
		TEST_ASSERT_SUCCESS(rte_mlx5cq_vec_set(h.cq,
					(enum rte_mlx5cq_vec)(sc->vec - 1)),
				    "poll %u", sc->vec - 1);
	memset(&first, 0, sizeof(first));
	first.opcode = sc->title_op;
	first.byte_cnt = 77;
	first.wqe_counter = 0x00ff;
	first.sop_drop_qpn = 0x00abcdef;
	if (lead)
		hand_put(&h, sc->ci0, &first);
	title_img(&title, sc->title_op);
	for (j = 0; j < sc->count; j++)
		gen_mini(sc->fmt, j, minis[j]);
	memcpy(before_hole, hand_cqe(&h, hole), 64);
	hand_put_session(&h, t_idx, &title, (const uint8_t (*)[8])minis,
			 sc->count);
	for (j = 0; j < sc->count; j++)
		own[j] = hand_cqe(&h, t_idx + j)[IMG_OP_OWN];
	next_img(&after, sc->after_op, 0x0200);
	after.byte_cnt = 99;
	hand_put(&h, end, &after);
	if (lead)
		expect_img_record(&first, &exp[0]);
	for (j = 0; j < sc->count; j++)
		exp_mini(sc->fmt, &title, minis[j],
			 (uint16_t)(title.wqe_counter + j), &exp[lead + j]);
	expect_img_record(&after, &exp[total - 1]);
	memset(got, 0xcc, sizeof(got));
	while (n < total) {
		uint16_t want = (uint16_t)RTE_MIN((uint32_t)sc->burst,
						  total - n);
		uint16_t r = rte_mlx5cq_poll_burst(h.cq, got + n, want);

		polls++;
		TEST_ASSERT_EQUAL(r, want, "%s: burst %u at %u gave %u",
				  fmt_name[sc->fmt], want, n, r);
		n += r;
		/*
		 * The consumer index stays at the title inside the session;
		 * the doorbell record holds it (0, never written, when the
		 * session came first).
		 */
		if (n >= lead + 1 && n < total - 1) {
			TEST_ASSERT_EQUAL(h.cq->ci, t_idx, "ci %u inside the"
					  " session (title %u)", h.cq->ci,
					  t_idx);
			TEST_CHECK(check_dbrec(lead ? t_idx : 0));
			TEST_CHECK(check_open_inv(&h, t_idx, sc->count,
						  n - lead, own));
		}
		/* A burst that ends with the session publishes its end. */
		if (n == lead + sc->count) {
			TEST_ASSERT_EQUAL(h.cq->ci, end, "ci %u after the"
					  " session (end %u)", h.cq->ci, end);
			TEST_CHECK(check_dbrec(end));
		}
		TEST_ASSERT(polls < 4 * total, "no progress");
	}
	for (j = 0; j < total; j++)
		TEST_CHECK(check_rec(&got[j], &exp[j], j));
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, got, 4), 0,
			  "more completions than written");
	TEST_ASSERT_EQUAL(h.cq->ci, end + 1, "ci %u want %u", h.cq->ci,
			  end + 1);
	TEST_CHECK(check_dbrec(end + 1));
	/* Every slot of the session is invalidated (title, arrays, holes). */
	for (j = t_idx; j != end; j++)
		TEST_ASSERT_EQUAL(hand_cqe(&h, j)[IMG_OP_OWN], IMG_INVALIDATE,
				  "slot %u op_own %#x not invalidated", j,
				  hand_cqe(&h, j)[IMG_OP_OWN]);
	/* Holes keep their other bytes; the CQEs around are untouched. */
	if (sc->count > 3)
		TEST_ASSERT_BUFFERS_ARE_EQUAL(hand_cqe(&h, hole), before_hole,
					      63, "hole payload written");
	TEST_ASSERT_EQUAL(hand_cqe(&h, end)[IMG_OP_OWN],
			  img_op_own(&after, hand_owner(&h, end)),
			  "CQE after the session changed");
	TEST_ASSERT_EQUAL(test_cq_cnt(h.cq)->completions, total, "completions %"
			  PRIu64, test_cq_cnt(h.cq)->completions);
	TEST_ASSERT_EQUAL(test_cq_cnt(h.cq)->sessions, 1, "sessions");
	TEST_ASSERT_EQUAL(test_cq_cnt(h.cq)->minis, sc->count, "minis %" PRIu64,
			  test_cq_cnt(h.cq)->minis);
	TEST_ASSERT_EQUAL(test_cq_cnt(h.cq)->errors, (img_is_error(sc->after_op) ? 1 : 0),
			  "errors");
	TEST_ASSERT_EQUAL(test_cq_cnt(h.cq)->err_syndrome[0x04],
			  (img_is_error(sc->after_op) ? 1 : 0), "syndrome 4");
	TEST_ASSERT_EQUAL(test_cq_cnt(h.cq)->comp_unhandled, 0, "comp_unhandled");
	TEST_ASSERT_EQUAL((h.cq->slow & ~RTE_MLX5CQ_SLOW_VEC), 0, "slow flags %#x left",
			  h.cq->slow);
	hand_cq_fini(&h);
	return TEST_SUCCESS;
}

/*
 * Every format: 64 B, 128 B, one burst, bursts ending inside arrays and
 * bursts of whole arrays after the CQE before the session (17, 33).
 */
static int
test_decomp_formats(void)
{
	static const uint16_t bursts[] = { 64, 1, 3, 7, 8, 9, 17, 33 };
	static const uint32_t counts[] = { 2, 7, 8, 9, 15, 16, 17, 33, 64 };
	struct sess_case sc;
	unsigned int f, b, c, s;

	for (f = 0; f < 5; f++)
		for (s = 64; s <= 128; s += 64)
			for (b = 0; b < RTE_DIM(bursts); b++)
				for (c = 0; c < RTE_DIM(counts); c++) {
					memset(&sc, 0, sizeof(sc));
					sc.fmt = f;
					sc.stride = s;
					sc.log_n = 7;
					sc.ci0 = 3;
					sc.count = counts[c];
					sc.burst = bursts[b];
					sc.title_op = 2; /* RESP_SEND */
					sc.after_op = 2;
					if (run_session(&sc) != TEST_SUCCESS) {
						printf("  format %s stride %u"
						       " burst %u count %u\n",
						       fmt_name[f], s,
						       bursts[b], counts[c]);
						return TEST_FAILED;
					}
				}
	return TEST_SUCCESS;
}

/*
 * One case of test_decomp_lead_title(): poll implementation v, format f,
 * place w (0: 64 B entries, 1: 128 B, 2: 64 B, title at entry 100 of 128
 * in pass 1, so longer sessions cross the ring's end).
 */
static int
lead_title_case(unsigned int v, unsigned int f, unsigned int w,
		uint16_t burst, uint32_t count, uint8_t title_op)
{
	struct sess_case sc;

	memset(&sc, 0, sizeof(sc));
	sc.fmt = f;
	sc.stride = w == 1 ? 128 : 64;
	sc.log_n = 7;
	sc.ci0 = w == 2 ? 128 + 100 : 3;
	sc.count = count;
	sc.burst = burst;
	sc.title_op = title_op;
	sc.after_op = 2;
	sc.no_lead = 1;
	sc.vec = (uint8_t)(v + 1);
	if (run_session(&sc) != TEST_SUCCESS) {
		printf("  %s: format %s stride %u title %u burst %u count %u"
		       " opcode %u\n",
		       rte_mlx5cq_vec_name((enum rte_mlx5cq_vec)v),
		       fmt_name[f], sc.stride, sc.ci0, burst, count,
		       title_op);
		return TEST_FAILED;
	}
	return TEST_SUCCESS;
}

/*
 * Sessions that start a burst, polled in bursts of whole arrays (8, 16,
 * 32, 64 mini-CQEs) or not (7, 9), by every poll implementation this CPU
 * and the EAL allow: the AVX2 poll opens a session longer than the burst
 * in place and makes the next bursts of it in a small frame (64 B
 * entries, no wrap), everything else in its general loop; the records,
 * the consumer index and doorbell record, the invalidation and the
 * counters must be those of the file comment's layout whatever the path.
 * 128 B entries and sessions across the ring's end too.
 */
static int
test_decomp_lead_title(void)
{
	static const uint16_t bursts[] = { 8, 16, 32, 64, 7, 9 };
	static const uint32_t counts[] = { 2, 8, 9, 16, 17, 24, 33, 63, 64 };
	unsigned int i, v, f, b, c, w;

	/*
	 * Every implementation of this architecture up to the best one
	 * (x86: SSE4.2 is there when AVX2 is). Requester titles (opcode 0:
	 * requester mini-CQEs) in every other HASH case.
	 */
	for (i = 0; i < RTE_DIM(test_vec_arch); i++) {
		v = test_vec_arch[i];
		if (v > (unsigned int)rte_mlx5cq_vec_best())
			break;
		for (f = 0; f < 5; f++)
			for (w = 0; w < 3; w++)
				for (b = 0; b < RTE_DIM(bursts); b++)
					for (c = 0; c < RTE_DIM(counts); c++)
						TEST_CHECK(lead_title_case(v,
							f, w, bursts[b],
							counts[c],
							f == F_HASH && c % 2 ?
							0 : 2));
	}
	return TEST_SUCCESS;
}

/* A session across the end of the ring (and the pass change). */
static int
test_decomp_wrap(void)
{
	struct sess_case sc;
	unsigned int f, start;

	for (f = 0; f < 5; f++)
		for (start = 0; start < 16; start++) {
			memset(&sc, 0, sizeof(sc));
			sc.fmt = f;
			sc.stride = f & 1 ? 128 : 64;
			sc.log_n = 5; /* 32 entries */
			sc.ci0 = 32 + 16 + start; /* pass 1 */
			sc.count = 20;
			sc.burst = (uint16_t)(1 + start % 5);
			sc.title_op = 2;
			sc.after_op = 2;
			if (run_session(&sc) != TEST_SUCCESS) {
				printf("  format %s start %u\n", fmt_name[f],
				       start);
				return TEST_FAILED;
			}
		}
	return TEST_SUCCESS;
}

/*
 * An error CQE right after a session (DPDK 1f903ebe2c): delivered as an
 * error record with its syndrome, in the same burst and in the next.
 */
static int
test_decomp_error_after(void)
{
	struct sess_case sc;
	uint8_t op, b;

	for (op = 13; op <= 14; op++)
		for (b = 0; b < 3; b++) {
			memset(&sc, 0, sizeof(sc));
			sc.fmt = F_HASH;
			sc.stride = 64;
			sc.log_n = 6;
			sc.ci0 = 0;
			sc.count = 9;
			sc.burst = b == 0 ? 32 : (b == 1 ? 10 : 1);
			sc.title_op = 2;
			sc.after_op = op;
			TEST_CHECK(run_session(&sc));
		}
	return TEST_SUCCESS;
}

/*
 * A session, then a compressed CQE of the consumer's pass whose opcode is
 * INVALID (0xf: not written yet, whatever its owner bit) and whose byte
 * count would make it a session of 7: every poll implementation this CPU
 * has stops before it, with the session's 4 records; once a regular CQE
 * replaces it, the next burst returns that one. Entries of 64 and 128 B.
 */
static int
test_decomp_invalid_after(void)
{
	struct rte_mlx5cq_cpl c[32], e;
	struct img_cqe t, bad;
	uint8_t m[4][8];
	unsigned int v, stride, j;

	for (stride = 64; stride <= 128; stride += 64)
		for (v = 0; v < RTE_MLX5CQ_VEC_MAX; v++) {
			TEST_ASSERT_SUCCESS(hand_cq_init(&h, 5, stride,
							 F_HASH + 1, 0),
					    "init");
			if (rte_mlx5cq_vec_set(h.cq,
					       (enum rte_mlx5cq_vec)v) != 0) {
				hand_cq_fini(&h);
				continue; /* not on this CPU or EAL */
			}
			memset(m, 0, sizeof(m));
			for (j = 0; j < 4; j++)
				img_be32(m[j] + 4, 60 + j); /* byte counts */
			title_img(&t, 2);
			hand_put_session(&h, 0, &t,
					 (const uint8_t (*)[8])m, 4);
			bad = t;
			bad.opcode = 0xf;
			bad.format = 3;
			bad.byte_cnt = 7;
			hand_put(&h, 4, &bad);
			TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, c, 32),
					  4, "%s, stride %u: session records",
					  rte_mlx5cq_vec_name(
						(enum rte_mlx5cq_vec)v),
					  stride);
			for (j = 0; j < 4; j++)
				TEST_ASSERT_EQUAL(c[j].byte_cnt, 60 + j,
						  "record %u byte count", j);
			TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, c, 32),
					  0, "%s, stride %u: past INVALID",
					  rte_mlx5cq_vec_name(
						(enum rte_mlx5cq_vec)v),
					  stride);
			TEST_ASSERT_EQUAL(h.cq->ci, 4, "ci %u", h.cq->ci);
			bad.opcode = 2;
			bad.format = 0;
			bad.byte_cnt = 1500;
			hand_put(&h, 4, &bad);
			TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, c, 32),
					  1, "regular CQE after the session");
			expect_img_record(&bad, &e);
			TEST_CHECK(check_rec(&c[0], &e, 0));
			hand_cq_fini(&h);
		}
	return TEST_SUCCESS;
}

/*
 * Requester mini-CQEs (title opcode REQ): the WQE counter comes from each
 * mini-CQE, for every configured responder format.
 */
static int
test_decomp_requester(void)
{
	struct sess_case sc;
	unsigned int f;

	for (f = 0; f < 5; f++) {
		memset(&sc, 0, sizeof(sc));
		sc.fmt = f;
		sc.stride = 64;
		sc.log_n = 6;
		sc.count = 12;
		sc.burst = 5;
		sc.title_op = 0;
		sc.after_op = 0;
		TEST_CHECK(run_session(&sc));
	}
	return TEST_SUCCESS;
}

/* FTAG flow tag (DPDK bd0940a5c4) and L34H VLAN bit (5654f38eba), named. */
static int
test_decomp_ftag_vlan(void)
{
	struct rte_mlx5cq_cpl c[3];
	struct img_cqe title;
	uint8_t m[3][8];

	TEST_ASSERT_SUCCESS(hand_cq_init(&h, 4, 64, F_FTAG + 1, 0), "init");
	title_img(&title, 2);
	memcpy(m, golden[F_FTAG], sizeof(m));
	hand_put_session(&h, 0, &title, (const uint8_t (*)[8])m, 3);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, c, 3), 3, "ftag poll");
	TEST_ASSERT_EQUAL(c[0].flow_tag, 0xab1234u, "tag %#x", c[0].flow_tag);
	TEST_ASSERT_EQUAL(c[0].byte_cnt, 1500u, "len %u", c[0].byte_cnt);
	TEST_ASSERT_EQUAL(c[0].wqe_counter, 7, "stride %u", c[0].wqe_counter);
	TEST_ASSERT_EQUAL(c[1].flow_tag, 1u, "tag %#x", c[1].flow_tag);
	TEST_ASSERT_EQUAL(c[2].flow_tag, 0xffffffu, "tag %#x", c[2].flow_tag);
	TEST_ASSERT_EQUAL(c[2].byte_cnt, 0x010203u, "len %#x", c[2].byte_cnt);
	hand_cq_fini(&h);

	TEST_ASSERT_SUCCESS(hand_cq_init(&h, 4, 64, F_L34H + 1, 0), "init");
	title.hdr_type_etc = 0x0200; /* L3 OK only, no VLAN in the title */
	memcpy(m, golden[F_L34H], sizeof(m));
	hand_put_session(&h, 0, &title, (const uint8_t (*)[8])m, 3);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, c, 3), 3, "l34h poll");
	TEST_ASSERT(c[0].hdr_type_etc & RTE_MLX5CQ_HDR_VLAN_STRIPPED,
		    "VLAN-stripped bit lost (hdr %#x)", c[0].hdr_type_etc);
	TEST_ASSERT_EQUAL(c[0].hdr_type_etc, (0x0200 | 0xb5),
			  "hdr %#x", c[0].hdr_type_etc);
	TEST_ASSERT_EQUAL(c[1].hdr_type_etc, (0x0200 | 0x48), "hdr %#x",
			  c[1].hdr_type_etc);
	TEST_ASSERT_EQUAL(c[2].hdr_type_etc, (0x0200 | 0x03), "hdr %#x",
			  c[2].hdr_type_etc);
	TEST_ASSERT(!(c[1].hdr_type_etc & RTE_MLX5CQ_HDR_VLAN_STRIPPED),
		    "VLAN-stripped bit from nowhere");
	TEST_ASSERT_EQUAL(c[0].vlan_tci, 0x0123, "vlan from the title");
	hand_cq_fini(&h);
	return TEST_SUCCESS;
}

/*
 * Enhanced layout: title = last regular CQE, compressed CQEs are arrays of
 * 1..7 mini-CQEs, validity by iteration count, nothing invalidated.
 */
static int
test_decomp_enhanced(const void *data)
{
	unsigned int fmt = (unsigned int)(uintptr_t)data;
	struct rte_mlx5cq_cpl exp[256], got[256];
	uint8_t minis[7][8], snap[64];
	struct img_cqe title;
	uint32_t idx, n = 0, k = 0, j, arrays = 0, minis_n = 0, last = 0;
	uint16_t wqe = 0;
	unsigned int round;

	TEST_ASSERT_SUCCESS(hand_cq_init(&h, 5, fmt & 1 ? 128 : 64,
					 (uint8_t)((fmt + 1) | 0x80), 0),
			    "init");
	/* Nothing valid on pass 0 in a fresh ring (vic 0xff). */
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, got, 8), 0, "fresh");
	idx = 0;
	for (round = 0; round < 6; round++) {
		/* Regular title, then two arrays (round + 1 and 7 minis). */
		title_img(&title, round == 3 ? 0 : 2);
		title.wqe_counter = (uint16_t)(0x7ff0 + round * 16);
		title.byte_cnt = 1000 + round;
		hand_put(&h, idx++, &title);
		expect_img_record(&title, &exp[k++]);
		wqe = (uint16_t)(title.wqe_counter + 1);
		for (j = 0; j < 2; j++) {
			uint32_t cnt = j == 0 ? round + 1 : 7, q;

			for (q = 0; q < cnt; q++) {
				gen_mini(fmt, q + 3 * j + round, minis[q]);
				exp_mini(fmt, &title, minis[q], wqe++,
					 &exp[k++]);
			}
			hand_put_enh_array(&h, idx,
					   (const uint8_t (*)[8])minis, cnt);
			last = idx;
			idx += cnt;
			arrays++;
			minis_n += cnt;
		}
		memcpy(snap, hand_cqe(&h, last), 64);
		while (n < k) {
			uint16_t r = rte_mlx5cq_poll_burst(h.cq, got + n,
				(uint16_t)RTE_MIN(3u + round, k - n));

			TEST_ASSERT(r > 0, "stalled at %u of %u", n, k);
			n += r;
		}
		TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, got + n, 4), 0,
				  "extra completion");
		TEST_ASSERT_BUFFERS_ARE_EQUAL(hand_cqe(&h, last), snap, 64,
					      "enhanced CQE written back");
		TEST_CHECK(check_dbrec(idx));
	}
	for (j = 0; j < k; j++)
		TEST_CHECK(check_rec(&got[j], &exp[j], j));
	TEST_ASSERT_EQUAL(h.cq->ci, idx, "ci %u want %u", h.cq->ci, idx);
	TEST_ASSERT(idx > 32, "the test did not wrap twice");
	TEST_ASSERT_EQUAL(test_cq_cnt(h.cq)->sessions, arrays, "sessions");
	TEST_ASSERT_EQUAL(test_cq_cnt(h.cq)->minis, minis_n, "minis");
	TEST_ASSERT_EQUAL(test_cq_cnt(h.cq)->completions, k, "completions");
	hand_cq_fini(&h);
	return TEST_SUCCESS;
}

/*
 * Enhanced layout, the ring states a concurrent device leaves (ring of 16,
 * FTAG_STRIDX), starting on pass p (data: 1, and 255 where the iteration
 * count goes 0xff -> 0x00). The device writes bytes 0..61 first and bytes
 * 62..63 (iteration count, op_own) last; a reader checks the iteration
 * count, then reads the rest (kernel mlx5_cqwq_get_cqe_enhanced_comp).
 * - A fresh ring on pass 255 (iteration count 0xff = the pass, opcode
 *   INVALID) and a ring of pass p - 1 CQEs (valid but for the count) give
 *   nothing.
 * - A compressed CQE with its payload written but bytes 62..63 still those
 *   of pass p - 1 (half written) gives nothing and moves nothing.
 * - The device then fills the ring as far as it may with the consumer
 *   index at the first array: 16 slots outstanding, so the released slot
 *   of the title gets the first CQE of pass p + 1. The arrays still expand
 *   with the title as it was consumed, and the consumer index (doorbell
 *   record) stays at an array until its last mini-CQE is delivered.
 * - Past the end, the slot of pass p's first array (a stale compressed
 *   CQE) is not read again.
 */
static int
test_decomp_enh_visibility(const void *data)
{
	uint32_t pass = (uint32_t)(uintptr_t)data;
	uint32_t base = pass << 4, j, k = 0, n = 0;
	struct rte_mlx5cq_cpl exp[20], got[20];
	struct img_cqe stale, t1, t2, next;
	uint8_t m1[5][8], m2[7][8], m3[2][8];
	uint8_t *e;

	TEST_ASSERT_SUCCESS(hand_cq_init(&h, 4, 64,
					 (uint8_t)((F_FTAG + 1) | 0x80), base),
			    "init");
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, got, 8), 0,
			  "fresh ring on pass %u", pass);
	/* Pass p - 1 left a regular CQE in every slot. */
	title_img(&stale, 2);
	stale.byte_cnt = 333;
	for (j = 0; j < 16; j++) {
		stale.wqe_counter = (uint16_t)(0x0e00 + j);
		hand_put(&h, base - 16 + j, &stale);
	}
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, got, 8), 0,
			  "CQE of pass %u read on pass %u", pass - 1, pass);
	TEST_ASSERT_EQUAL(h.cq->ci, base, "ci moved");
	TEST_CHECK(check_dbrec(0));
	/* The title. */
	title_img(&t1, 2);
	t1.byte_cnt = 1000;
	hand_put(&h, base, &t1);
	expect_img_record(&t1, &exp[k++]);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, got + n, 8), 1,
			  "title");
	n++;
	TEST_CHECK(check_dbrec(base + 1));
	/* Compressed CQE of 5 at base + 1: payload only. */
	for (j = 0; j < 5; j++) {
		gen_mini(F_FTAG, j, m1[j]);
		exp_mini(F_FTAG, &t1, m1[j], 0, &exp[k++]);
	}
	e = hand_cqe(&h, base + 1);
	memset(e, IMG_FILL, 62);
	for (j = 0; j < 5; j++)
		memcpy(e + 8 * j, m1[j], 8);
	TEST_ASSERT_EQUAL(e[IMG_VIC], (uint8_t)(pass - 1), "fixture");
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, got + n, 8), 0,
			  "half-written compressed CQE read");
	TEST_ASSERT_EQUAL(h.cq->ci, base + 1, "ci moved");
	TEST_ASSERT_EQUAL(mlx5cq_test_cq_session(h.cq), 0, "session opened");
	TEST_CHECK(check_dbrec(base + 1));
	/* Bytes 62..63; then 7 at base + 6, title 2, 2 at base + 14. */
	hand_put_enh_array(&h, base + 1, (const uint8_t (*)[8])m1, 5);
	for (j = 0; j < 7; j++) {
		gen_mini(F_FTAG, 5 + j, m2[j]);
		exp_mini(F_FTAG, &t1, m2[j], 0, &exp[k++]);
	}
	hand_put_enh_array(&h, base + 6, (const uint8_t (*)[8])m2, 7);
	title_img(&t2, 2);
	t2.metadata = 0x00beef01;
	t2.timestamp = 0x1111222233334444ull;
	t2.hdr_type_etc = 0x0600;
	t2.wqe_counter = 0x0300;
	t2.byte_cnt = 2000;
	hand_put(&h, base + 13, &t2);
	expect_img_record(&t2, &exp[k++]);
	for (j = 0; j < 2; j++) {
		gen_mini(F_FTAG, 12 + j, m3[j]);
		exp_mini(F_FTAG, &t2, m3[j], 0, &exp[k++]);
	}
	hand_put_enh_array(&h, base + 14, (const uint8_t (*)[8])m3, 2);
	/* Slot of the title, released: first CQE of pass p + 1. */
	title_img(&next, 2);
	next.metadata = 0x00000bad;
	next.timestamp = 0xbadbadbadull;
	next.vlan_info = 0x0fff;
	next.rx_hash_res = 0x0badcafe;
	next.wqe_counter = 0x0400;
	next.byte_cnt = 3000;
	hand_put(&h, base + 16, &next);
	expect_img_record(&next, &exp[k++]);
	/* Bursts of 3: 3 of the first array, the consumer index stays. */
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, got + n, 3), 3,
			  "first burst");
	n += 3;
	TEST_ASSERT_EQUAL(h.cq->ci, base + 1, "ci left the array early");
	TEST_CHECK(check_dbrec(base + 1));
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, got + n, 3), 3,
			  "second burst");
	n += 3;
	TEST_ASSERT_EQUAL(h.cq->ci, base + 6, "ci %u at the second array",
			  h.cq->ci);
	TEST_CHECK(check_dbrec(base + 6));
	while (n < k) {
		uint16_t r = rte_mlx5cq_poll_burst(h.cq, got + n,
			(uint16_t)RTE_MIN(3u, k - n));

		TEST_ASSERT(r > 0, "stalled at %u of %u", n, k);
		n += r;
	}
	for (j = 0; j < k; j++)
		TEST_CHECK(check_rec(&got[j], &exp[j], j));
	TEST_ASSERT_EQUAL(h.cq->ci, base + 17, "ci %u", h.cq->ci);
	TEST_CHECK(check_dbrec(base + 17));
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, got, 8), 0,
			  "stale compressed CQE of pass %u read again", pass);
	TEST_ASSERT_EQUAL(test_cq_cnt(h.cq)->sessions, 3, "sessions");
	TEST_ASSERT_EQUAL(test_cq_cnt(h.cq)->minis, 14, "minis");
	TEST_ASSERT_EQUAL(test_cq_cnt(h.cq)->completions, k, "completions");
	TEST_ASSERT_EQUAL(test_cq_cnt(h.cq)->comp_unhandled, 0, "comp_unhandled");
	hand_cq_fini(&h);
	return TEST_SUCCESS;
}

/* Poll in bursts of at most burst until k records are in got[]. */
static int
poll_all(struct rte_mlx5cq_cpl *got, uint32_t k, uint16_t burst)
{
	uint32_t n = 0;

	while (n < k) {
		uint16_t r = rte_mlx5cq_poll_burst(h.cq, got + n,
				(uint16_t)RTE_MIN((uint32_t)burst, k - n));

		TEST_ASSERT(r > 0, "%s, burst %u: stalled at %u of %u",
			    rte_mlx5cq_vec_name(h.cq->vec), burst, n, k);
		n += r;
	}
	return TEST_SUCCESS;
}

/*
 * Enhanced layout, HASH, ring of 16 from index 0, poll v, error opcode
 * op, bursts of at most burst:
 * - a title alone before a compressed CQE of 3 (entries 0, 1..3);
 * - an error CQE right before a compressed CQE of 2 (4, 5..6): an error
 *   record, and no title: its mini-CQEs take the first title's fields and
 *   WQE counters on from its mini-CQEs;
 * - entry 7 still a regular CQE of the previous pass (iteration count
 *   0xff) before a compressed CQE of this pass at 8: nothing is read from
 *   7 on, the consumer index stays at 7; once 7 is a title of this pass,
 *   the mini-CQEs at 8 take its fields.
 * TEST_SKIPPED when this CPU or EAL has no poll v.
 */
static int
run_enh_title_alone(unsigned int v, uint8_t op, uint16_t burst)
{
	struct rte_mlx5cq_cpl exp[8], got[8];
	uint8_t m1[3][8], m2[2][8], m3[2][8];
	struct img_cqe t1, err, stale, t2;
	uint32_t j, k = 0;
	uint16_t wqe;

	TEST_ASSERT_SUCCESS(hand_cq_init(&h, 4, 64,
					 (uint8_t)((F_HASH + 1) | 0x80), 0),
			    "init");
	if (rte_mlx5cq_vec_set(h.cq, (enum rte_mlx5cq_vec)v) != 0) {
		hand_cq_fini(&h);
		return TEST_SKIPPED;
	}
	title_img(&t1, 2);
	t1.wqe_counter = 0x0100;
	t1.byte_cnt = 1500;
	hand_put(&h, 0, &t1);
	expect_img_record(&t1, &exp[k++]);
	wqe = (uint16_t)(t1.wqe_counter + 1);
	for (j = 0; j < 3; j++) {
		gen_mini(F_HASH, j, m1[j]);
		exp_mini(F_HASH, &t1, m1[j], wqe++, &exp[k++]);
	}
	hand_put_enh_array(&h, 1, (const uint8_t (*)[8])m1, 3);
	next_img(&err, op, 0x0104);
	hand_put(&h, 4, &err);
	expect_img_record(&err, &exp[k++]);
	for (j = 0; j < 2; j++) {
		gen_mini(F_HASH, 3 + j, m2[j]);
		exp_mini(F_HASH, &t1, m2[j], wqe++, &exp[k++]);
	}
	hand_put_enh_array(&h, 5, (const uint8_t (*)[8])m2, 2);
	/* Entry 7 of the previous pass (index 7 - 16: count 0xff). */
	title_img(&stale, 2);
	stale.byte_cnt = 333;
	stale.wqe_counter = 0x0e07;
	hand_put(&h, 7u - 16u, &stale);
	for (j = 0; j < 2; j++)
		gen_mini(F_HASH, 5 + j, m3[j]);
	hand_put_enh_array(&h, 8, (const uint8_t (*)[8])m3, 2);
	TEST_CHECK(poll_all(got, k, burst));
	for (j = 0; j < k; j++)
		TEST_CHECK(check_rec(&got[j], &exp[j], j));
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, got, burst), 0,
			  "%s, burst %u: entry of the previous pass read",
			  rte_mlx5cq_vec_name((enum rte_mlx5cq_vec)v), burst);
	TEST_ASSERT_EQUAL(h.cq->ci, 7, "ci %u", h.cq->ci);
	TEST_CHECK(check_dbrec(7));
	/* Entry 7 written: a title of this pass. */
	title_img(&t2, 2);
	t2.wqe_counter = 0x0200;
	t2.byte_cnt = 2500;
	t2.metadata = 0x00c0ffee;
	hand_put(&h, 7, &t2);
	k = 0;
	expect_img_record(&t2, &exp[k++]);
	for (j = 0; j < 2; j++)
		exp_mini(F_HASH, &t2, m3[j], (uint16_t)(0x0201 + j),
			 &exp[k++]);
	TEST_CHECK(poll_all(got, k, burst));
	for (j = 0; j < k; j++)
		TEST_CHECK(check_rec(&got[j], &exp[j], j));
	TEST_ASSERT_EQUAL(h.cq->ci, 10, "ci %u", h.cq->ci);
	TEST_CHECK(check_dbrec(10));
	TEST_ASSERT_EQUAL(test_cq_cnt(h.cq)->errors, 1, "errors");
	TEST_ASSERT_EQUAL(test_cq_cnt(h.cq)->sessions, 3, "sessions");
	TEST_ASSERT_EQUAL(test_cq_cnt(h.cq)->minis, 7, "minis");
	TEST_ASSERT_EQUAL(test_cq_cnt(h.cq)->completions, 10, "completions");
	hand_cq_fini(&h);
	return TEST_SUCCESS;
}

/*
 * run_enh_title_alone() for every poll this CPU has, REQ_ERR and
 * RESP_ERR, bursts of 1, 4 and 16.
 */
static int
test_decomp_enh_title_alone(void)
{
	unsigned int v, tested = 0;
	uint16_t burst;
	uint8_t op;
	int ret;

	for (v = 0; v < RTE_MLX5CQ_VEC_MAX; v++) {
		for (op = 13; op <= 14; op++) {
			for (burst = 1; burst <= 16; burst *= 4) {
				ret = run_enh_title_alone(v, op, burst);
				if (ret == TEST_SKIPPED)
					continue;
				TEST_CHECK(ret);
				tested++;
			}
		}
	}
	TEST_ASSERT(tested >= 12, "%u runs: fewer than two polls", tested);
	return TEST_SUCCESS;
}

/* A compressed CQE of an enhanced CQ with no title before it stops. */
static int
test_decomp_malformed(void)
{
	struct rte_mlx5cq_cpl c[8];
	uint8_t m[2][8];
	struct img_cqe t;

	memset(m, 0, sizeof(m));
	TEST_ASSERT_SUCCESS(hand_cq_init(&h, 4, 64, 1 | 0x80, 0), "init");
	hand_put_enh_array(&h, 0, (const uint8_t (*)[8])m, 2);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, c, 8), 0, "no title");
	TEST_ASSERT_EQUAL(test_cq_cnt(h.cq)->comp_unhandled, 1, "comp_unhandled");
	TEST_ASSERT_EQUAL(h.cq->ci, 0, "ci moved");
	hand_cq_fini(&h);
	/* Basic layout: a session count of 1 cannot be (array at ci + 1). */
	TEST_ASSERT_SUCCESS(hand_cq_init(&h, 4, 64, 1, 0), "init");
	title_img(&t, 2);
	hand_put_session(&h, 0, &t, (const uint8_t (*)[8])m, 1);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, c, 8), 0, "count 1");
	TEST_ASSERT_EQUAL(test_cq_cnt(h.cq)->comp_unhandled, 1, "comp_unhandled");
	TEST_ASSERT_EQUAL(hand_cqe(&h, 0)[IMG_OP_OWN] >> 4, 2,
			  "title modified");
	hand_cq_fini(&h);
	return TEST_SUCCESS;
}

/*
 * Crypto-style consumer: requester completions tracked by WQE counter
 * (regular CQEs and requester sessions mixed), an error CQE in the middle
 * reported with its syndrome, and every completion after it in order.
 */
static int
test_decomp_crypto_consumer(void)
{
	struct rte_mlx5cq_cpl c[4];
	struct img_cqe d, t;
	uint8_t m[16][8];
	uint32_t idx = 0, j, seen = 0, errs = 0;
	uint16_t next = 0;
	unsigned int guard = 0;

	TEST_ASSERT_SUCCESS(hand_cq_init(&h, 6, 64, F_CSUM_STRIDX + 1, 0),
			    "init");
	/* wqe 0: regular; 1..10 session; 11 error; 12..17 session; 18. */
	memset(&d, 0, sizeof(d));
	d.opcode = 0;
	d.sop_drop_qpn = 0x0a000042;
	d.wqe_counter = next++;
	hand_put(&h, idx++, &d);
	title_img(&t, 0);
	t.sop_drop_qpn = 0x0a000042;
	for (j = 0; j < 10; j++) {
		memset(m[j], 0, 8);
		m[j][0] = next >> 8;
		m[j][1] = (uint8_t)next++;
		m[j][2] = 0x0a; /* send WQE opcode */
		m[j][7] = 0x40;
	}
	hand_put_session(&h, idx, &t, (const uint8_t (*)[8])m, 10);
	idx += 10;
	memset(&d, 0, sizeof(d));
	d.opcode = 13;
	d.syndrome = 0x04;
	d.vendor_syndrome = 0x51;
	d.sop_drop_qpn = 0x0a000042;
	d.wqe_counter = next++;
	hand_put(&h, idx++, &d);
	for (j = 0; j < 6; j++) {
		memset(m[j], 0, 8);
		m[j][0] = next >> 8;
		m[j][1] = (uint8_t)next++;
		m[j][7] = 0x40;
	}
	hand_put_session(&h, idx, &t, (const uint8_t (*)[8])m, 6);
	idx += 6;
	memset(&d, 0, sizeof(d));
	d.opcode = 0;
	d.wqe_counter = next++;
	hand_put(&h, idx++, &d);
	while (seen < next && guard++ < 100) {
		uint16_t r = rte_mlx5cq_poll_burst(h.cq, c, 4), i;

		for (i = 0; i < r; i++, seen++) {
			TEST_ASSERT_EQUAL(c[i].wqe_counter, seen,
					  "completion %u has wqe %u", seen,
					  c[i].wqe_counter);
			if (seen == 11) {
				TEST_ASSERT_EQUAL(c[i].status,
						  IBV_WC_LOC_PROT_ERR,
						  "status %u", c[i].status);
				TEST_ASSERT_EQUAL(c[i].syndrome, 0x04, "synd");
				TEST_ASSERT_EQUAL(c[i].vendor_syndrome, 0x51,
						  "vendor");
				errs++;
			} else {
				TEST_ASSERT_EQUAL(c[i].status, 0, "status");
				TEST_ASSERT_EQUAL(c[i].opcode, 0, "opcode");
			}
		}
	}
	TEST_ASSERT_EQUAL(seen, next, "%u of %u completions", seen, next);
	TEST_ASSERT_EQUAL(errs, 1, "errors");
	TEST_ASSERT_EQUAL(test_cq_cnt(h.cq)->err_syndrome[0x04], 1, "syndrome count");
	TEST_ASSERT_EQUAL(h.cq->ci, idx, "ci");
	TEST_CHECK(check_dbrec(idx));
	hand_cq_fini(&h);
	return TEST_SUCCESS;
}

/*
 * Raw view: a mini-CQE's completion as a synthesized 64 B CQE (bytes
 * checked against the title image with the mini's fields in place), a
 * regular CQE where it lies in the ring; advance consumes one.
 */
static int
test_decomp_raw(void)
{
	uint8_t m[3][8], want[64];
	struct img_cqe t, d;
	const volatile uint8_t *r;
	struct rte_mlx5cq_cpl c;
	unsigned int j, k;

	TEST_ASSERT_SUCCESS(hand_cq_init(&h, 4, 128, F_FTAG + 1, 0), "init");
	title_img(&t, 2);
	t.se = 1;
	memcpy(m, golden[F_FTAG], sizeof(m));
	hand_put_session(&h, 0, &t, (const uint8_t (*)[8])m, 3);
	memset(&d, 0, sizeof(d));
	d.opcode = 2;
	d.byte_cnt = 5;
	hand_put(&h, 3, &d);
	TEST_ASSERT_EQUAL(rte_mlx5cq_raw_advance(NULL), -EINVAL, "NULL");
	for (j = 0; j < 3; j++) {
		r = rte_mlx5cq_raw_peek(h.cq);
		TEST_ASSERT_NOT_NULL(r, "peek %u", j);
		/* Twice: peeking consumes nothing. */
		TEST_ASSERT(rte_mlx5cq_raw_peek(h.cq) == r, "peek moved");
		t.format = 0;
		t.byte_cnt = 0;
		img_cqe_payload(want, &t);
		want[IMG_BYTE_CNT] = 0; /* FTAG: 24-bit byte count */
		for (k = 5; k < 8; k++)
			want[IMG_BYTE_CNT + k - 4] = m[j][k];
		want[IMG_SOP_DROP_QPN + 1] = m[j][4];
		want[IMG_SOP_DROP_QPN + 2] = m[j][0];
		want[IMG_SOP_DROP_QPN + 3] = m[j][1];
		want[IMG_WQE_COUNTER] = m[j][2];
		want[IMG_WQE_COUNTER + 1] = m[j][3];
		want[IMG_OP_OWN] = 2 << 4 | 1 << 1 | 0; /* se, owner 0 */
		for (k = 0; k < 64; k++)
			if (k != IMG_SIGNATURE && r[k] != want[k]) {
				printf("  mini %u byte %u: %#x want %#x\n", j,
				       k, r[k], want[k]);
				return TEST_FAILED;
			}
		TEST_ASSERT_SUCCESS(rte_mlx5cq_raw_advance(h.cq), "advance");
	}
	r = rte_mlx5cq_raw_peek(h.cq);
	TEST_ASSERT(r == hand_cqe(&h, 3), "regular CQE not in place");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_raw_advance(h.cq), "advance");
	TEST_ASSERT_NULL(rte_mlx5cq_raw_peek(h.cq), "empty CQ peeked");
	TEST_ASSERT_EQUAL(rte_mlx5cq_raw_advance(h.cq), -ENOENT, "empty");
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, &c, 1), 0, "empty");
	TEST_CHECK(check_dbrec(4));
	hand_cq_fini(&h);
	return TEST_SUCCESS;
}

/* Counters get/reset and dump on a hand-built CQ with a session. */
static int
test_decomp_counters_dump(void)
{
	struct rte_mlx5cq_counters cnt;
	struct rte_mlx5cq_cpl c[16];
	uint8_t m[9][8];
	struct img_cqe t;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	unsigned int j;

	TEST_ASSERT_SUCCESS(hand_cq_init(&h, 4, 64, F_HASH + 1, 0), "init");
	title_img(&t, 2);
	for (j = 0; j < 9; j++)
		gen_mini(F_HASH, j, m[j]);
	hand_put_session(&h, 0, &t, (const uint8_t (*)[8])m, 9);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, c, 4), 4, "poll");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_counters_get(h.cq, &cnt), "get");
	TEST_ASSERT_EQUAL(cnt.completions, 4, "completions");
	TEST_ASSERT_EQUAL(cnt.sessions, 1, "sessions");
	TEST_ASSERT_EQUAL(cnt.minis, 4, "minis");
	TEST_ASSERT_EQUAL(cnt.polls, 1, "polls");
	f = open_memstream(&buf, &len);
	TEST_ASSERT_NOT_NULL(f, "memstream");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_dump(f, h.cq), "dump");
	fclose(f);
	TEST_ASSERT(strstr(buf, "CQ 0x99") != NULL, "no cqn in dump");
	TEST_ASSERT(strstr(buf, "session: 9 completions, next 4") != NULL,
		    "no session in dump:\n%s", buf);
	TEST_ASSERT(strstr(buf, ">[    0]") != NULL, "no ci marker");
	free(buf);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_counters_reset(h.cq), "reset");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_counters_get(h.cq, &cnt), "get");
	TEST_ASSERT_EQUAL(cnt.completions + cnt.polls + cnt.minis, 0, "reset");
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(h.cq, c, 16), 5, "rest");
	TEST_ASSERT_EQUAL(test_cq_cnt(h.cq)->minis, 5, "minis");
	TEST_ASSERT_EQUAL(rte_mlx5cq_counters_get(NULL, &cnt), -EINVAL, "NULL");
	hand_cq_fini(&h);
	return TEST_SUCCESS;
}

/*
 * Part 2: compressed CQs created by the library on the emulated HCA (DevX,
 * basic and enhanced layouts, 64 B and 128 B; verbs for the formats
 * rdma-core has). The model compresses runs of completions that share what
 * the mini-CQEs do not carry; every record must equal the one of the same
 * completion written uncompressed (test_cpl_expect.h).
 */
struct emu_comp_case {
	enum rte_mlx5cq_path path;
	uint8_t format; /* RTE_MLX5CQ_COMP_* */
	uint8_t layout;
	uint16_t cqe_size;
};

static struct {
	struct ibv_context *ctx;
	struct rte_mlx5cq_dev *dev;
	struct rte_mlx5cq *cq;
} emu;

static void
emu_teardown(void)
{
	if (emu.cq != NULL)
		rte_mlx5cq_destroy(emu.cq);
	if (emu.dev != NULL)
		rte_mlx5cq_dev_close(emu.dev);
	if (emu.ctx != NULL)
		mlx5_emu_close(emu.ctx);
	memset(&emu, 0, sizeof(emu));
}

static int
emu_open(const struct emu_comp_case *ec, uint32_t entries, uint32_t flags)
{
	static unsigned int seq;
	struct rte_mlx5cq_attr attr;
	char name[32];

	snprintf(name, sizeof(name), "test_decomp%u", seq++);
	emu.ctx = mlx5_emu_open(name, NULL);
	TEST_ASSERT_NOT_NULL(emu.ctx, "mlx5_emu_open");
	emu.dev = rte_mlx5cq_dev_open(emu.ctx, SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(emu.dev, "dev_open: %d", rte_errno);
	memset(&attr, 0, sizeof(attr));
	attr.comp_mask = RTE_MLX5CQ_ATTR_CQE_SIZE;
	attr.cqe = entries - 1;
	attr.cqe_size = ec->cqe_size;
	attr.flags = flags;
	attr.socket = SOCKET_ID_ANY;
	attr.path = ec->path;
	if (ec->format) {
		attr.comp_mask |= RTE_MLX5CQ_ATTR_COMPRESSED;
		attr.comp_format = ec->format;
		attr.comp_layout = ec->layout;
	}
	emu.cq = rte_mlx5cq_create(emu.dev, &attr);
	TEST_ASSERT_NOT_NULL(emu.cq, "create: %d", rte_errno);
	return TEST_SUCCESS;
}

/*
 * Completion seq: runs of 13 responders (or requesters for runs 3 mod 5)
 * that share everything but the byte count, the WQE counter (seq) and the
 * field the format carries; an error CQE every 97.
 */
static void
emu_comp_gen(uint8_t format, uint64_t seq, struct mlx5_emu_cpl *c)
{
	uint64_t run = seq / 13;

	memset(c, 0, sizeof(*c));
	c->kind = run % 5 == 3 ? MLX5_EMU_CPL_REQ : MLX5_EMU_CPL_RESP;
	if (seq % 97 == 96)
		c->kind = c->kind == MLX5_EMU_CPL_REQ ? MLX5_EMU_CPL_REQ_ERR :
			  MLX5_EMU_CPL_RESP_ERR;
	c->wqe_counter = (uint16_t)seq;
	c->byte_cnt = 64 + (uint32_t)(seq % 1400);
	c->qpn = 0x000123 + (uint32_t)run;
	c->rx_hash_type = 0x2c;
	c->rx_hash_res = 0x51000000 + (uint32_t)run;
	c->hdr_type_etc = 0x0200 | (uint16_t)(run << 2 & 0xfc);
	c->csum = (uint16_t)(0x7000 + run);
	c->vlan_info = 0x0064;
	c->flow_table_metadata = (uint32_t)run;
	c->timestamp = 0x1000 + run;
	c->syndrome = 0x05;
	c->vendor_syndrome = 0x77;
	if (c->kind == MLX5_EMU_CPL_REQ || c->kind == MLX5_EMU_CPL_REQ_ERR)
		c->s_wqe_opcode = 0x0a;
	switch (format) {
	case RTE_MLX5CQ_COMP_HASH:
		c->rx_hash_res = 0x9e3779b9u * (uint32_t)seq;
		break;
	case RTE_MLX5CQ_COMP_CSUM:
	case RTE_MLX5CQ_COMP_CSUM_STRIDX:
		c->csum = (uint16_t)(seq * 7);
		break;
	case RTE_MLX5CQ_COMP_FTAG_STRIDX:
		c->qpn = (uint32_t)(seq * 0x10001) & 0xffffff;
		break;
	case RTE_MLX5CQ_COMP_L34H_STRIDX:
		c->hdr_type_etc = (uint16_t)(0x0200 | ((seq & 0x3f) << 2) |
					     (seq & 1));
		break;
	}
}

static int
test_decomp_emu(const void *data)
{
	const struct emu_comp_case *ec = data;
	struct mlx5_emu_cpl post[64];
	struct rte_mlx5cq_cpl got[32], e;
	struct mlx5_emu_cq_ev_info ev;
	uint64_t seq = 0, rd = 0, total = 3000;
	unsigned int guard = 0;

	TEST_CHECK(emu_open(ec, 256, RTE_MLX5CQ_F_SINGLE_THREADED));
	while (rd < total && guard++ < 100000) {
		unsigned int k, n = (unsigned int)RTE_MIN((uint64_t)RTE_DIM(post),
							   total - seq);
		uint16_t r, i;
		int w;

		for (k = 0; k < n; k++)
			emu_comp_gen(ec->format, seq + k, &post[k]);
		if (n) {
			w = mlx5_emu_cq_post_flags(emu.ctx, emu.cq->cqn, post,
						   n, 0);
			TEST_ASSERT(w >= 0, "post: %d", w);
			seq += (unsigned int)w;
		}
		r = rte_mlx5cq_poll_burst(emu.cq, got,
					  (uint16_t)(1 + guard % RTE_DIM(got)));
		for (i = 0; i < r; i++, rd++) {
			struct mlx5_emu_cpl c;
			const char *f;

			emu_comp_gen(ec->format, rd, &c);
			expect_emu_record(&c, &e);
			f = expect_record_diff(&got[i], &e);
			if (f != NULL) {
				printf("  completion %" PRIu64 ": %s differs"
				       " (wqe %#x/%#x byte_cnt %u/%u)\n", rd,
				       f, got[i].wqe_counter, e.wqe_counter,
				       got[i].byte_cnt, e.byte_cnt);
				return TEST_FAILED;
			}
		}
	}
	TEST_ASSERT_EQUAL(rd, total, "%" PRIu64 " of %" PRIu64, rd, total);
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_ev_query(emu.ctx, emu.cq->cqn, &ev),
			    "ev_query");
	TEST_ASSERT(ev.compressed > 0, "the model compressed nothing");
	TEST_ASSERT_EQUAL(test_cq_cnt(emu.cq)->minis, ev.compressed,
			  "minis %" PRIu64 " model %" PRIu64,
			  test_cq_cnt(emu.cq)->minis, ev.compressed);
	TEST_ASSERT_EQUAL(test_cq_cnt(emu.cq)->sessions, ev.sessions,
			  "sessions %" PRIu64 " model %" PRIu64,
			  test_cq_cnt(emu.cq)->sessions, ev.sessions);
	TEST_ASSERT_EQUAL(test_cq_cnt(emu.cq)->completions, total, "completions");
	TEST_ASSERT_EQUAL(test_cq_cnt(emu.cq)->comp_unhandled, 0, "unhandled");
	return TEST_SUCCESS;
}

#define EC(p, f, l, s) { RTE_MLX5CQ_PATH_ ## p, RTE_MLX5CQ_COMP_ ## f, l, s }
static const struct emu_comp_case ec_devx_hash = EC(DEVX, HASH, 0, 64);
static const struct emu_comp_case ec_devx_csum = EC(DEVX, CSUM, 0, 64);
static const struct emu_comp_case ec_devx_ftag = EC(DEVX, FTAG_STRIDX, 0, 64);
static const struct emu_comp_case ec_devx_cstr = EC(DEVX, CSUM_STRIDX, 0, 64);
static const struct emu_comp_case ec_devx_l34h = EC(DEVX, L34H_STRIDX, 0, 64);
static const struct emu_comp_case ec_devx_hash128 = EC(DEVX, HASH, 0, 128);
static const struct emu_comp_case ec_devx_l34h128 =
	EC(DEVX, L34H_STRIDX, 0, 128);
static const struct emu_comp_case ec_enh_hash = EC(DEVX, HASH, 1, 64);
static const struct emu_comp_case ec_enh_csum = EC(DEVX, CSUM, 1, 64);
static const struct emu_comp_case ec_enh_ftag = EC(DEVX, FTAG_STRIDX, 1, 64);
static const struct emu_comp_case ec_enh_cstr = EC(DEVX, CSUM_STRIDX, 1, 128);
static const struct emu_comp_case ec_enh_l34h = EC(DEVX, L34H_STRIDX, 1, 64);
static const struct emu_comp_case ec_verbs_hash = EC(VERBS, HASH, 0, 64);
static const struct emu_comp_case ec_verbs_csum = EC(VERBS, CSUM, 0, 128);
static const struct emu_comp_case ec_verbs_cstr =
	EC(VERBS, CSUM_STRIDX, 0, 64);

#define EMU_CASE(c) \
	TEST_CASE_NAMED_WITH_DATA("test_decomp_emu_" #c, NULL, emu_teardown, \
				  test_decomp_emu, &(c))

#define FMT_CASE(fn, f) \
	TEST_CASE_NAMED_WITH_DATA(#fn "_" #f, NULL, decomp_teardown, fn, \
				  (const void *)(uintptr_t)(f))

static struct unit_test_suite decomp_suite = {
	.suite_name = "decomp",
	.unit_test_cases = {
		TEST_CASE_ST(NULL, decomp_teardown, test_decomp_formats),
		TEST_CASE_ST(NULL, decomp_teardown, test_decomp_lead_title),
		TEST_CASE_ST(NULL, decomp_teardown, test_decomp_wrap),
		TEST_CASE_ST(NULL, decomp_teardown, test_decomp_error_after),
		TEST_CASE_ST(NULL, decomp_teardown, test_decomp_invalid_after),
		TEST_CASE_ST(NULL, decomp_teardown, test_decomp_requester),
		TEST_CASE_ST(NULL, decomp_teardown, test_decomp_ftag_vlan),
		FMT_CASE(test_decomp_enhanced, F_HASH),
		FMT_CASE(test_decomp_enhanced, F_CSUM),
		FMT_CASE(test_decomp_enhanced, F_FTAG),
		FMT_CASE(test_decomp_enhanced, F_CSUM_STRIDX),
		FMT_CASE(test_decomp_enhanced, F_L34H),
		TEST_CASE_NAMED_WITH_DATA("test_decomp_enh_visibility_pass1",
			NULL, decomp_teardown, test_decomp_enh_visibility,
			(const void *)(uintptr_t)1),
		TEST_CASE_NAMED_WITH_DATA("test_decomp_enh_visibility_pass255",
			NULL, decomp_teardown, test_decomp_enh_visibility,
			(const void *)(uintptr_t)255),
		TEST_CASE_ST(NULL, decomp_teardown,
			     test_decomp_enh_title_alone),
		TEST_CASE_ST(NULL, decomp_teardown, test_decomp_malformed),
		TEST_CASE_ST(NULL, decomp_teardown,
			     test_decomp_crypto_consumer),
		TEST_CASE_ST(NULL, decomp_teardown, test_decomp_raw),
		TEST_CASE_ST(NULL, decomp_teardown, test_decomp_counters_dump),
		EMU_CASE(ec_devx_hash),
		EMU_CASE(ec_devx_csum),
		EMU_CASE(ec_devx_ftag),
		EMU_CASE(ec_devx_cstr),
		EMU_CASE(ec_devx_l34h),
		EMU_CASE(ec_devx_hash128),
		EMU_CASE(ec_devx_l34h128),
		EMU_CASE(ec_enh_hash),
		EMU_CASE(ec_enh_csum),
		EMU_CASE(ec_enh_ftag),
		EMU_CASE(ec_enh_cstr),
		EMU_CASE(ec_enh_l34h),
		EMU_CASE(ec_verbs_hash),
		EMU_CASE(ec_verbs_csum),
		EMU_CASE(ec_verbs_cstr),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(decomp, decomp_suite);
