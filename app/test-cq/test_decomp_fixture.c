/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The fixture of the decomp suites (test_decomp_fixture.h, whose comment
 * states the layouts and the expected records): the hand-built CQ, title
 * images, golden mini-CQEs, expected records and run_session().
 */

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_malloc.h>

#include <rte_mlx5cq.h>

#include "test.h"
#include "test_cq_cnt.h"
#include "test_cpl_expect.h"
#include "test_decomp_fixture.h"
#include "test_hand_cq.h"
#include "test_vec_arch.h"

struct hand_cq dcq;

void
decomp_teardown(void)
{
	hand_cq_fini(&dcq);
}

const char * const fmt_name[5] = {
	"HASH", "CSUM", "FTAG_STRIDX", "CSUM_STRIDX", "L34H_STRIDX",
};

/* A responder title with every field distinct. */
void
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
void
exp_mini(unsigned int fmt, const struct img_cqe *t, const uint8_t *m,
	 uint16_t implied_wqe, struct rte_mlx5cq_cpl *e)
{
	struct img_cqe d = *t;

	d.format = 0;
	expect_img_record(&d, e);
	expect_mini_fields(fmt, m, implied_wqe, e);
}

int
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

/*
 * Golden mini-CQEs, three per format, written from the layout; the rest
 * of a session follows the pattern of gen_mini().
 */
const uint8_t golden[5][3][8] = {
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
		{ 0xb5, 0xee, 0x00, 0x02, 0x00, 0x00, 0x00, 0x40 },
		/* no VLAN, header 0x48 */
		{ 0x48, 0xee, 0x00, 0x03, 0x00, 0x00, 0x05, 0xdc },
		/* VLAN only (bit 0), bit 1 set too (not a header bit) */
		{ 0x03, 0xee, 0x00, 0x04, 0x00, 0x00, 0x00, 0x80 },
	},
};

void
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
void
next_img(struct img_cqe *e, uint8_t op, uint16_t wqe)
{
	memset(e, 0, sizeof(*e));
	e->opcode = op;
	e->wqe_counter = wqe;
	e->syndrome = 0x04;
	e->vendor_syndrome = 0x66;
	e->sop_drop_qpn = 0x0a00abcd;
}

int
run_session(const struct session_case *sc)
{
	uint8_t minis[SESS_MAX][8];
	struct rte_mlx5cq_cpl exp[SESS_MAX + 2], got[SESS_MAX + 2];
	struct img_cqe first, title, after;
	const uint32_t lead = sc->no_lead ? 0 : 1;
	uint32_t j, t_idx = sc->ci0 + lead, end = t_idx + sc->count;
	uint32_t total = lead + sc->count + 1, n = 0, polls = 0;
	uint8_t before_hole[64], own[SESS_MAX];
	uint32_t hole = t_idx + 2;

	TEST_ASSERT_SUCCESS(hand_cq_init(&dcq, sc->log_n, sc->stride,
					 (uint8_t)(sc->fmt + 1), sc->ci0),
			    "fixture");
	if (sc->vec)
		TEST_ASSERT_SUCCESS(rte_mlx5cq_vec_set(dcq.cq,
					(enum rte_mlx5cq_vec)(sc->vec - 1)),
				    "poll %u", sc->vec - 1);
	memset(&first, 0, sizeof(first));
	first.opcode = sc->title_op;
	first.byte_cnt = 77;
	first.wqe_counter = 0x00ff;
	first.sop_drop_qpn = 0x00abcdef;
	if (lead)
		hand_put(&dcq, sc->ci0, &first);
	title_img(&title, sc->title_op);
	for (j = 0; j < sc->count; j++)
		gen_mini(sc->fmt, j, minis[j]);
	memcpy(before_hole, hand_cqe(&dcq, hole), 64);
	hand_put_session(&dcq, t_idx, &title, (const uint8_t (*)[8])minis,
			 sc->count);
	for (j = 0; j < sc->count; j++)
		own[j] = hand_cqe(&dcq, t_idx + j)[IMG_OP_OWN];
	next_img(&after, sc->after_op, 0x0200);
	after.byte_cnt = 99;
	hand_put(&dcq, end, &after);
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
		uint16_t r = rte_mlx5cq_poll_burst(dcq.cq, got + n, want);

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
			TEST_ASSERT_EQUAL(dcq.cq->ci, t_idx, "ci %u inside the"
					  " session (title %u)", dcq.cq->ci,
					  t_idx);
			TEST_CHECK(check_dbrec(lead ? t_idx : 0));
			TEST_CHECK(check_open_inv(&dcq, t_idx, sc->count,
						  n - lead, own));
		}
		/* A burst that ends with the session publishes its end. */
		if (n == lead + sc->count) {
			TEST_ASSERT_EQUAL(dcq.cq->ci, end, "ci %u after the"
					  " session (end %u)", dcq.cq->ci, end);
			TEST_CHECK(check_dbrec(end));
		}
		TEST_ASSERT(polls < 4 * total, "no progress");
	}
	for (j = 0; j < total; j++)
		TEST_CHECK(check_rec(&got[j], &exp[j], j));
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(dcq.cq, got, 4), 0,
			  "more completions than written");
	TEST_ASSERT_EQUAL(dcq.cq->ci, end + 1, "ci %u want %u", dcq.cq->ci,
			  end + 1);
	TEST_CHECK(check_dbrec(end + 1));
	/* Every slot of the session is invalidated (title, arrays, holes). */
	for (j = t_idx; j != end; j++)
		TEST_ASSERT_EQUAL(hand_cqe(&dcq, j)[IMG_OP_OWN], IMG_INVALIDATE,
				  "slot %u op_own %#x not invalidated", j,
				  hand_cqe(&dcq, j)[IMG_OP_OWN]);
	/* Holes keep their other bytes; the CQEs around are untouched. */
	if (sc->count > 3)
		TEST_ASSERT_BUFFERS_ARE_EQUAL(hand_cqe(&dcq, hole), before_hole,
					      63, "hole payload written");
	TEST_ASSERT_EQUAL(hand_cqe(&dcq, end)[IMG_OP_OWN],
			  img_op_own(&after, hand_owner(&dcq, end)),
			  "CQE after the session changed");
	TEST_ASSERT_EQUAL(test_cq_cnt(dcq.cq)->completions, total, "completions %"
			  PRIu64, test_cq_cnt(dcq.cq)->completions);
	TEST_ASSERT_EQUAL(test_cq_cnt(dcq.cq)->sessions, 1, "sessions");
	TEST_ASSERT_EQUAL(test_cq_cnt(dcq.cq)->minis, sc->count, "minis %" PRIu64,
			  test_cq_cnt(dcq.cq)->minis);
	TEST_ASSERT_EQUAL(test_cq_cnt(dcq.cq)->errors, (img_is_error(sc->after_op) ? 1 : 0),
			  "errors");
	TEST_ASSERT_EQUAL(test_cq_cnt(dcq.cq)->err_syndrome[0x04],
			  (img_is_error(sc->after_op) ? 1 : 0), "syndrome 4");
	TEST_ASSERT_EQUAL(test_cq_cnt(dcq.cq)->comp_unhandled, 0, "comp_unhandled");
	TEST_ASSERT_EQUAL((dcq.cq->slow & ~RTE_MLX5CQ_SLOW_VEC), 0, "slow flags %#x left",
			  dcq.cq->slow);
	hand_cq_fini(&dcq);
	return TEST_SUCCESS;
}

