/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "poll": the inline burst poll of rte_mlx5cq.h.
 *
 * Part 1 builds struct rte_mlx5cq by hand over an rte_malloc ring (64 B,
 * 128 B with inline-scatter first halves, 128 B padded) and an 8-byte
 * doorbell record, writes CQE byte images by hand from the PRM layout
 * (test_cqe_image.h) and checks every record field, the doorbell record
 * bytes and the counters. Part 2 polls CQs created by the library on the
 * emulated HCA.
 */

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>
#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include <mlx5_emu.h>
#include <mlx5cq_test_hooks.h>
#include <rte_mlx5cq.h>

#include "test.h"
#include "test_cq_cnt.h"
#include "test_cpl_expect.h"
#include "test_cqe_image.h"

/* Arm word left in the doorbell record's second word: never written. */
static const uint8_t dbrec_arm_sentinel[4] = { 0xa1, 0xb2, 0xc3, 0xd4 };
/* First word before any poll: an empty poll must not write it. */
static const uint8_t dbrec_ci_sentinel[4] = { 0x5c, 0x5c, 0x5c, 0x5c };

/* Ring shapes. */
enum fx_kind {
	FX_64, /* 64 B CQEs. */
	FX_128, /* 128 B, first half holds scattered (inline) data. */
	FX_128_PAD, /* 128 B padded: first half is padding. */
};

static const char * const fx_kind_name[] = { "64B", "128B", "128B-pad" };

/* A hand-built CQ and the test's producer counter. */
struct poll_fx {
	struct rte_mlx5cq *cq;
	uint8_t *ring;
	uint8_t *dbrec;
	enum fx_kind kind;
	uint32_t entries;
	uint32_t log_n;
	unsigned int stride;
	uint32_t pi; /* Next index the test's producer writes. */
};

static struct poll_fx fx;

static unsigned int
test_poll_heap_allocs(void)
{
	struct rte_malloc_socket_stats st;
	unsigned int i, n = 0;

	for (i = 0; i < rte_socket_count(); i++) {
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i),
						&st) == 0)
			n += st.alloc_count;
	}
	return n;
}

static void
fx_fini(void)
{
	mlx5cq_test_cq_free(fx.cq);
	rte_free(fx.ring);
	rte_free(fx.dbrec);
	memset(&fx, 0, sizeof(fx));
}

static void
fx_teardown(void)
{
	fx_fini();
}

/*
 * Build the CQ by hand: every 64 B CQE starts invalid (op_own 0xf1, as
 * DPDK's mlx5_cq_init writes it); the first half of a 128 B entry is a
 * decoy that looks like a valid requester CQE of pass 0 (all zero), so a
 * poll reading the wrong half would see a completion.
 */
static int
fx_init(enum fx_kind kind, uint32_t log_n, uint32_t ci0)
{
	uint32_t i;

	memset(&fx, 0, sizeof(fx));
	fx.kind = kind;
	fx.log_n = log_n;
	fx.entries = 1u << log_n;
	fx.stride = kind == FX_64 ? 64 : 128;
	fx.ring = rte_malloc("test_poll_ring",
			     (size_t)fx.entries * fx.stride, 4096);
	fx.dbrec = rte_malloc("test_poll_dbrec", 8, 8);
	TEST_ASSERT(fx.ring != NULL && fx.dbrec != NULL, "allocation failed");
	for (i = 0; i < fx.entries; i++) {
		uint8_t *e = fx.ring + (size_t)i * fx.stride;

		memset(e, 0, fx.stride);
		memset(e + fx.stride - 64, IMG_FILL, 63);
		e[fx.stride - 1] = 0xf1;
	}
	memcpy(fx.dbrec, dbrec_ci_sentinel, 4);
	memcpy(fx.dbrec + 4, dbrec_arm_sentinel, 4);
	fx.cq = mlx5cq_test_cq_wrap(fx.ring, fx.dbrec, log_n, fx.stride, 0,
				    ci0, 0x77);
	TEST_ASSERT(fx.cq != NULL, "no CQ handle");
	fx.pi = ci0;
	return TEST_SUCCESS;
}

/* The 64 B CQE of ring entry idx (second half of a 128 B entry). */
static uint8_t *
fx_cqe(uint32_t idx)
{
	return fx.ring + (size_t)(idx & (fx.entries - 1)) * fx.stride +
	       fx.stride - 64;
}

/* Write d at index idx with the owner bit of idx's pass, op_own last. */
static void
fx_write(uint32_t idx, const struct img_cqe *d, unsigned int owner)
{
	uint8_t *cqe = fx_cqe(idx);

	if (fx.kind == FX_128) {
		/* Inline data scattered to the first half (a decoy CQE of
		 * the same pass with other contents).
		 */
		uint8_t *half = cqe - 64;
		unsigned int k;

		for (k = 0; k < 63; k++)
			half[k] = (uint8_t)(0x5a ^ (idx + k));
		half[63] = (uint8_t)(owner & 1);
	}
	img_cqe_payload(cqe, d);
	rte_compiler_barrier();
	cqe[IMG_OP_OWN] = img_op_own(d, owner);
}

static void
fx_post(const struct img_cqe *d)
{
	fx_write(fx.pi, d, (fx.pi >> fx.log_n) & 1);
	fx.pi++;
}

#define CPL_FIELD(f) \
	TEST_ASSERT_EQUAL(got->f, exp->f, \
			  "record %" PRIu64 " %s: got 0x%" PRIx64 \
			  " want 0x%" PRIx64, seq, #f, \
			  (uint64_t)got->f, (uint64_t)exp->f)

static int
test_poll_check_record(const struct rte_mlx5cq_cpl *got,
		       const struct rte_mlx5cq_cpl *exp, uint64_t seq)
{
	CPL_FIELD(opcode);
	CPL_FIELD(status);
	CPL_FIELD(syndrome);
	CPL_FIELD(vendor_syndrome);
	CPL_FIELD(s_wqe_opcode);
	CPL_FIELD(wqe_counter);
	CPL_FIELD(flow_tag);
	CPL_FIELD(byte_cnt);
	CPL_FIELD(rss_hash);
	CPL_FIELD(rss_hash_type);
	CPL_FIELD(metadata);
	CPL_FIELD(timestamp);
	CPL_FIELD(vlan_tci);
	CPL_FIELD(hdr_type_etc);
	CPL_FIELD(csum);
	return TEST_SUCCESS;
}

static int
check_img(const struct rte_mlx5cq_cpl *got, const struct img_cqe *d,
	  uint64_t seq)
{
	struct rte_mlx5cq_cpl e;

	expect_img_record(d, &e);
	return test_poll_check_record(got, &e, seq);
}

/* Doorbell record: word 0 big endian ci & 0xffffff, word 1 untouched. */
static int
check_dbrec(uint32_t ci)
{
	uint8_t want[4] = { 0, (uint8_t)(ci >> 16), (uint8_t)(ci >> 8),
			    (uint8_t)ci };

	TEST_ASSERT_BUFFERS_ARE_EQUAL(fx.dbrec, want, 4,
		"dbrec word 0 %02x %02x %02x %02x, want ci 0x%x",
		fx.dbrec[0], fx.dbrec[1], fx.dbrec[2], fx.dbrec[3],
		ci & 0xffffff);
	TEST_ASSERT_BUFFERS_ARE_EQUAL(fx.dbrec + 4, dbrec_arm_sentinel, 4,
				      "dbrec word 1 (arm) was written");
	return TEST_SUCCESS;
}

static int
check_counters(uint64_t completions, uint64_t errors, uint64_t polls,
	       uint64_t empty, uint64_t comp_unhandled)
{
	const struct rte_mlx5cq_counters *c = test_cq_cnt(fx.cq);

	TEST_ASSERT_EQUAL(c->completions, completions,
			  "completions %" PRIu64 " want %" PRIu64,
			  c->completions, completions);
	TEST_ASSERT_EQUAL(c->errors, errors, "errors %" PRIu64 " want %"
			  PRIu64, c->errors, errors);
	TEST_ASSERT_EQUAL(c->polls, polls, "polls %" PRIu64 " want %" PRIu64,
			  c->polls, polls);
	TEST_ASSERT_EQUAL(c->empty_polls, empty, "empty_polls %" PRIu64
			  " want %" PRIu64, c->empty_polls, empty);
	TEST_ASSERT_EQUAL(c->comp_unhandled, comp_unhandled,
			  "comp_unhandled %" PRIu64 " want %" PRIu64,
			  c->comp_unhandled, comp_unhandled);
	return TEST_SUCCESS;
}

static uint64_t
mix64(uint64_t x)
{
	/* splitmix64 finaliser. */
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* Error syndromes used: every mapped one and a few unknown ones. */
static const uint8_t test_syndromes[] = {
	0x01, 0x02, 0x04, 0x05, 0x06, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15,
	0x16, 0x22, 0x00, 0x03, 0x07, 0x21, 0x23, 0xff,
};

/*
 * A varied CQE for sequence number seq: requester, responder opcodes,
 * NO_PACKET and both error kinds; wqe_counter = seq & 0xffff.
 */
static void
test_poll_gen_cqe(uint64_t seq, struct img_cqe *d)
{
	static const uint8_t ops[] = { 0, 2, 3, 1, 4, 6, 13, 2, 0, 14, 2, 2 };
	uint64_t r = mix64(seq), s = mix64(r), t = mix64(s);

	memset(d, 0, sizeof(*d));
	d->opcode = ops[r % RTE_DIM(ops)];
	d->se = (r >> 8) & 1;
	d->rx_hash_res = (uint32_t)(r >> 32);
	d->rx_hash_type = (uint8_t)(r >> 16);
	d->csum = (uint16_t)s;
	d->hdr_type_etc = (uint16_t)(s >> 16);
	d->vlan_info = (uint16_t)(s >> 32);
	d->metadata = (uint32_t)t;
	d->byte_cnt = (uint32_t)(t >> 32);
	d->timestamp = mix64(t);
	d->sop_drop_qpn = (uint32_t)(s >> 24);
	d->wqe_counter = (uint16_t)seq;
	d->syndrome = test_syndromes[(r >> 24) % RTE_DIM(test_syndromes)];
	d->vendor_syndrome = (uint8_t)(s >> 56);
}

/* Fill a record array with a pattern the poll must overwrite. */
static void
scrub(struct rte_mlx5cq_cpl *c, unsigned int n)
{
	memset(c, 0xcc, sizeof(*c) * n);
}

static int
test_poll_empty(const void *data)
{
	enum fx_kind kind = (enum fx_kind)(uintptr_t)data;
	struct rte_mlx5cq_cpl c[32];
	unsigned int allocs = test_poll_heap_allocs();
	int i;

	TEST_CHECK(fx_init(kind, 4, 0));
	for (i = 0; i < 3; i++)
		TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 32), 0,
				  "%s: empty ring returned completions",
				  fx_kind_name[kind]);
	TEST_ASSERT_EQUAL(fx.cq->ci, 0u, "ci moved");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(fx.dbrec, dbrec_ci_sentinel, 4,
				      "empty polls wrote the doorbell record");
	TEST_CHECK(check_counters(0, 0, 3, 3, 0));
	fx_fini();
	TEST_ASSERT_EQUAL(test_poll_heap_allocs(), allocs, "heap leak");
	return TEST_SUCCESS;
}

/* Requester CQEs: opcode 0, WQE counter, QPN; payload kept. */
static int
test_poll_requester(void)
{
	struct rte_mlx5cq_cpl c[8];
	struct img_cqe d[5];
	unsigned int i;

	TEST_CHECK(fx_init(FX_64, 4, 0));
	for (i = 0; i < RTE_DIM(d); i++) {
		memset(&d[i], 0, sizeof(d[i]));
		d[i].opcode = 0; /* MLX5_CQE_REQ */
		d[i].wqe_counter = (uint16_t)(0xfffe + i); /* wraps */
		d[i].sop_drop_qpn = 0x0a000000u | (0x1234 + i); /* SEND */
		d[i].byte_cnt = 100 * i;
		d[i].timestamp = 0x0102030405060708ull + i;
		fx_post(&d[i]);
	}
	scrub(c, 8);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 8), 5,
			  "wrong count");
	for (i = 0; i < RTE_DIM(d); i++) {
		TEST_CHECK(check_img(&c[i], &d[i], i));
		TEST_ASSERT_EQUAL(c[i].opcode, RTE_MLX5CQ_OP_REQ, "opcode");
		TEST_ASSERT_EQUAL(c[i].flow_tag, 0x1234u + i, "qpn");
		TEST_ASSERT_EQUAL(c[i].wqe_counter, (uint16_t)(0xfffe + i),
				  "wqe_counter");
		TEST_ASSERT_EQUAL(c[i].s_wqe_opcode, 0,
				  "s_wqe_opcode set on success");
	}
	TEST_CHECK(check_dbrec(5));
	TEST_CHECK(check_counters(5, 0, 1, 0, 0));
	fx_fini();
	return TEST_SUCCESS;
}

/* Responder CQEs with every RX field, values spelled out. */
static int
test_poll_responder(const void *data)
{
	enum fx_kind kind = (enum fx_kind)(uintptr_t)data;
	struct rte_mlx5cq_cpl c[4];
	struct img_cqe d[3];
	unsigned int i;

	TEST_CHECK(fx_init(kind, 3, 0));
	memset(d, 0, sizeof(d));
	/* TCP/IPv4, L3/L4 ok, VLAN stripped. */
	d[0].opcode = 2; /* RESP_SEND */
	d[0].rx_hash_res = 0xdeadbeef;
	d[0].rx_hash_type = 0x5a;
	d[0].csum = 0xabcd;
	d[0].hdr_type_etc = 1u << 0 | 1u << 3 | 1u << 4 | 1u << 9 | 1u << 10;
	d[0].vlan_info = 0xe064; /* PCP 7, VID 100 */
	d[0].metadata = 0xc0ffee01;
	d[0].byte_cnt = 1514;
	d[0].timestamp = 0x8877665544332211ull;
	d[0].sop_drop_qpn = 0x00abcdef; /* flow mark */
	d[0].wqe_counter = 0x1234;
	/* UDP/IPv6, immediate. */
	d[1].opcode = 3; /* RESP_SEND_IMM */
	d[1].rx_hash_res = 0x01020304;
	d[1].rx_hash_type = 0xa5;
	d[1].csum = 0xffff;
	d[1].hdr_type_etc = 1u << 2 | 1u << 5 | 1u << 8;
	d[1].metadata = 0x11223344;
	d[1].byte_cnt = 64;
	d[1].timestamp = 1;
	d[1].sop_drop_qpn = 0xff000001; /* top byte not part of the tag */
	d[1].wqe_counter = 0xffff;
	d[1].se = 1;
	/* Zeroes everywhere: must not come out as the fill bytes. */
	d[2].opcode = 1; /* RESP_WR_IMM */
	for (i = 0; i < RTE_DIM(d); i++)
		fx_post(&d[i]);
	scrub(c, 4);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 4), 3,
			  "%s: wrong count", fx_kind_name[kind]);
	for (i = 0; i < RTE_DIM(d); i++)
		TEST_CHECK(check_img(&c[i], &d[i], i));
	/* Spelled out once more for the first record. */
	TEST_ASSERT_EQUAL(c[0].byte_cnt, 1514u, "byte_cnt");
	TEST_ASSERT_EQUAL(c[0].rss_hash, 0xdeadbeefu, "rss_hash");
	TEST_ASSERT_EQUAL(c[0].rss_hash_type, 0x5a, "rss_hash_type");
	TEST_ASSERT_EQUAL(c[0].csum, 0xabcd, "csum");
	TEST_ASSERT_EQUAL(c[0].hdr_type_etc,
			  (RTE_MLX5CQ_HDR_VLAN_STRIPPED | RTE_MLX5CQ_HDR_IPV4 |
			  RTE_MLX5CQ_HDR_TCP | RTE_MLX5CQ_HDR_L3_OK |
			  RTE_MLX5CQ_HDR_L4_OK), "hdr_type_etc");
	TEST_ASSERT_EQUAL(c[0].vlan_tci, 0xe064, "vlan_tci");
	TEST_ASSERT_EQUAL(c[0].metadata, 0xc0ffee01u, "metadata");
	TEST_ASSERT_EQUAL(c[0].timestamp, 0x8877665544332211ull, "timestamp");
	TEST_ASSERT_EQUAL(c[0].flow_tag, 0xabcdefu, "flow_tag");
	TEST_ASSERT_EQUAL(c[0].wqe_counter, 0x1234, "wqe_counter");
	TEST_ASSERT_EQUAL(c[1].flow_tag, 0x000001u, "flow_tag 24 bits");
	TEST_ASSERT_EQUAL(c[1].hdr_type_etc, (RTE_MLX5CQ_HDR_IPV6 |
			  RTE_MLX5CQ_HDR_UDP | RTE_MLX5CQ_HDR_L2_OK),
			  "hdr_type_etc");
	TEST_ASSERT_EQUAL(c[2].byte_cnt, 0u, "zero byte_cnt");
	TEST_ASSERT_EQUAL(c[2].timestamp, 0ull, "zero timestamp");
	TEST_CHECK(check_dbrec(3));
	TEST_CHECK(check_counters(3, 0, 1, 0, 0));
	fx_fini();
	return TEST_SUCCESS;
}

/*
 * Requester and responder error CQEs with every syndrome of the list,
 * between successes: status from the rdma-core mapping (unknown ones give
 * IBV_WC_GENERAL_ERR), syndrome and vendor syndrome kept, RX fields zero,
 * polling goes on past each error.
 */
static int
test_poll_errors(const void *data)
{
	enum fx_kind kind = (enum fx_kind)(uintptr_t)data;
	const unsigned int ns = RTE_DIM(test_syndromes);
	struct rte_mlx5cq_cpl c[4 * RTE_DIM(test_syndromes)];
	struct img_cqe d[4 * RTE_DIM(test_syndromes)];
	unsigned int i, n = 0, got = 0, errors = 0, polls = 0;

	TEST_CHECK(fx_init(kind, 7, 0));
	for (i = 0; i < ns; i++) {
		/* success, REQ_ERR, RESP_ERR, success */
		memset(&d[n], 0, sizeof(d[n]) * 4);
		d[n].opcode = 0;
		d[n].wqe_counter = (uint16_t)n;
		d[n].sop_drop_qpn = 0x0a000100;
		n++;
		d[n].opcode = 13; /* REQ_ERR */
		d[n].syndrome = test_syndromes[i];
		d[n].vendor_syndrome = (uint8_t)(0x80 + i);
		d[n].sop_drop_qpn = 0x0a000100u | i; /* SEND on QP 0x1xx */
		d[n].wqe_counter = (uint16_t)n;
		n++;
		d[n].opcode = 14; /* RESP_ERR */
		d[n].syndrome = test_syndromes[i];
		d[n].vendor_syndrome = (uint8_t)(0x40 + i);
		d[n].sop_drop_qpn = 0x00000200u | i;
		d[n].wqe_counter = (uint16_t)n;
		n++;
		d[n].opcode = 2;
		d[n].byte_cnt = 60 + i;
		d[n].wqe_counter = (uint16_t)n;
		n++;
		errors += 2;
	}
	for (i = 0; i < n; i++)
		fx_post(&d[i]);
	scrub(c, n);
	while (got < n) {
		uint16_t r = rte_mlx5cq_poll_burst(fx.cq, c + got, 7);

		polls++;
		TEST_ASSERT_EQUAL(r, RTE_MIN(7u, n - got),
				  "burst stopped at an error CQE");
		got += r;
		TEST_CHECK(check_dbrec(got));
	}
	for (i = 0; i < n; i++)
		TEST_CHECK(check_img(&c[i], &d[i], i));
	/* The mapping spelled out for a few syndromes. */
	for (i = 0; i < n; i++) {
		if (!img_is_error(d[i].opcode))
			continue;
		TEST_ASSERT_NOT_EQUAL(c[i].status, IBV_WC_SUCCESS,
				      "error CQE with success status");
		TEST_ASSERT_EQUAL(c[i].byte_cnt, 0u, "byte_cnt on error");
		TEST_ASSERT_EQUAL(c[i].timestamp, 0ull, "timestamp on error");
		if (d[i].syndrome == 0x22)
			TEST_ASSERT_EQUAL(c[i].status, IBV_WC_REM_ABORT_ERR,
					  "REM_ABORT");
		if (d[i].syndrome == 0x05)
			TEST_ASSERT_EQUAL(c[i].status, IBV_WC_WR_FLUSH_ERR,
					  "WR_FLUSH");
		if (d[i].syndrome == 0xff || d[i].syndrome == 0x03)
			TEST_ASSERT_EQUAL(c[i].status, IBV_WC_GENERAL_ERR,
					  "unknown syndrome -> GENERAL_ERR");
	}
	TEST_ASSERT_EQUAL(IBV_WC_GENERAL_ERR, 21, "verbs.h GENERAL_ERR");
	TEST_CHECK(check_counters(n, errors, polls, 0, 0));
	fx_fini();
	return TEST_SUCCESS;
}

/* rte_mlx5cq_syndrome_status() for all 256 syndromes. */
static int
test_poll_syndrome_status(void)
{
	unsigned int s;

	for (s = 0; s < 256; s++)
		TEST_ASSERT_EQUAL(rte_mlx5cq_syndrome_status(s),
				  expect_wc_status(s),
				  "syndrome 0x%02x: %u want %u", s,
				  rte_mlx5cq_syndrome_status(s),
				  expect_wc_status(s));
	return TEST_SUCCESS;
}

/*
 * Bursts of 1, 3, 8, 32 on a 64-entry ring: the producer posts a varying
 * number of CQEs (never more than the ring holds), one poll per round
 * returns min(burst, available), every record and the doorbell record are
 * checked after every burst, 2000 completions (31 passes).
 */
static int
test_poll_bursts(const void *data)
{
	enum fx_kind kind = (enum fx_kind)(uintptr_t)data;
	static const uint16_t bursts[] = { 1, 3, 8, 32 };
	const uint32_t total = 2000;
	struct rte_mlx5cq_cpl c[32];
	struct img_cqe d;
	unsigned int b, i;

	for (b = 0; b < RTE_DIM(bursts); b++) {
		uint64_t polls = 0, empty = 0, errors = 0;
		uint32_t ci = 0, round = 0;

		TEST_CHECK(fx_init(kind, 6, 0));
		while (ci < total) {
			uint32_t room = fx.entries - (fx.pi - ci);
			uint32_t k = (uint32_t)(mix64(round++) % 41);
			uint32_t avail;
			uint16_t r, want;

			k = RTE_MIN(k, room);
			k = RTE_MIN(k, total - fx.pi);
			for (i = 0; i < k; i++) {
				test_poll_gen_cqe(fx.pi, &d);
				fx_post(&d);
			}
			avail = fx.pi - ci;
			want = (uint16_t)RTE_MIN((uint32_t)bursts[b], avail);
			scrub(c, 32);
			r = rte_mlx5cq_poll_burst(fx.cq, c, bursts[b]);
			polls++;
			TEST_ASSERT_EQUAL(r, want, "%s burst %u: %u want %u "
					  "at ci %u", fx_kind_name[kind],
					  bursts[b], r, want, ci);
			if (r == 0)
				empty++;
			for (i = 0; i < r; i++) {
				test_poll_gen_cqe(ci + i, &d);
				errors += img_is_error(d.opcode);
				TEST_CHECK(check_img(&c[i], &d, ci + i));
			}
			for (i = r; i < 32; i++)
				TEST_ASSERT_EQUAL(c[i].byte_cnt, 0xccccccccu,
						  "record %u past the burst "
						  "written", i);
			ci += r;
			TEST_ASSERT_EQUAL(fx.cq->ci, ci, "cq->ci");
			if (r)
				TEST_CHECK(check_dbrec(ci));
		}
		TEST_CHECK(check_counters(total, errors, polls, empty, 0));
		fx_fini();
	}
	return TEST_SUCCESS;
}

/*
 * A CQE with the owner bit of the other pass ends the burst, even with a
 * valid opcode and payload; once the producer writes the right owner bit
 * it is delivered.
 */
static int
test_poll_stop_owner(const void *data)
{
	enum fx_kind kind = (enum fx_kind)(uintptr_t)data;
	struct rte_mlx5cq_cpl c[32];
	struct img_cqe d[8];
	unsigned int i;

	TEST_CHECK(fx_init(kind, 4, 0));
	for (i = 0; i < 8; i++) {
		test_poll_gen_cqe(i, &d[i]);
		d[i].opcode = 2;
	}
	for (i = 0; i < 5; i++)
		fx_post(&d[i]);
	/* Entry 5 written with owner 1 on pass 0. */
	fx_write(5, &d[5], 1);
	fx_write(6, &d[6], 0); /* after the hole: must not be seen */
	scrub(c, 32);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 32), 5,
			  "wrong owner did not stop the burst");
	for (i = 0; i < 5; i++)
		TEST_CHECK(check_img(&c[i], &d[i], i));
	TEST_CHECK(check_dbrec(5));
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 32), 0,
			  "hardware-owned CQE delivered");
	TEST_CHECK(check_dbrec(5));
	fx_write(5, &d[5], 0);
	fx.pi = 7;
	scrub(c, 32);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 32), 2,
			  "CQE not delivered after the owner flip");
	TEST_CHECK(check_img(&c[0], &d[5], 5));
	TEST_CHECK(check_img(&c[1], &d[6], 6));
	TEST_CHECK(check_dbrec(7));
	TEST_CHECK(check_counters(7, 0, 3, 1, 0));
	fx_fini();
	return TEST_SUCCESS;
}

/*
 * A CQE whose owner bit matches the pass but whose opcode is INVALID ends
 * the burst: op_own 0xf0 (rdma-core's initial value) on pass 0, 0xf1
 * (DPDK's) on pass 1.
 */
static int
test_poll_stop_invalid(const void *data)
{
	enum fx_kind kind = (enum fx_kind)(uintptr_t)data;
	struct rte_mlx5cq_cpl c[32];
	struct img_cqe d, inv;
	uint32_t i, ci = 0;

	TEST_CHECK(fx_init(kind, 3, 0));
	memset(&inv, 0, sizeof(inv));
	inv.opcode = 15; /* MLX5_CQE_INVALID */
	for (i = 0; i < 3; i++) {
		test_poll_gen_cqe(i, &d);
		fx_post(&d);
	}
	fx_write(3, &inv, 0); /* op_own 0xf0 on pass 0 */
	TEST_ASSERT_EQUAL(fx_cqe(3)[IMG_OP_OWN], 0xf0, "image");
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 32), 3,
			  "INVALID opcode did not stop the burst (pass 0)");
	ci = 3;
	TEST_CHECK(check_dbrec(ci));
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 32), 0,
			  "INVALID CQE delivered");
	/* Rest of pass 0 and pass 1 up to index 12, then an INVALID CQE
	 * with owner 1 at 13.
	 */
	fx.pi = 3;
	while (fx.pi < 13) {
		test_poll_gen_cqe(fx.pi, &d);
		fx_post(&d);
		if (fx.pi - ci == fx.entries || fx.pi == 13) {
			uint16_t r = rte_mlx5cq_poll_burst(fx.cq, c, 32);

			TEST_ASSERT_EQUAL(r, fx.pi - ci, "count");
			for (i = 0; i < r; i++) {
				test_poll_gen_cqe(ci + i, &d);
				TEST_CHECK(check_img(&c[i], &d, ci + i));
			}
			ci += r;
		}
	}
	fx_write(13, &inv, 1);
	TEST_ASSERT_EQUAL(fx_cqe(13)[IMG_OP_OWN], 0xf1, "image");
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 32), 0,
			  "INVALID CQE delivered (pass 1)");
	TEST_CHECK(check_dbrec(13));
	fx_fini();
	return TEST_SUCCESS;
}

/*
 * Many passes around small rings: the owner parity flips each pass, the
 * producer fills the whole ring (2^n outstanding CQEs) or part of it,
 * 70000 completions (the 16-bit WQE counter wraps) checked in order, and
 * after each drain the stale CQEs of the previous pass are not delivered.
 */
static int
test_poll_wrap(const void *data)
{
	enum fx_kind kind = (enum fx_kind)(uintptr_t)data;
	static const uint16_t bursts[] = { 1, 3, 8, 32 };
	const uint32_t total = 70000;
	struct rte_mlx5cq_cpl c[32];
	struct img_cqe d;
	uint32_t ci = 0, round = 0, i;
	uint16_t prev_wqe = 0xffff;

	TEST_CHECK(fx_init(kind, 4, 0));
	while (ci < total) {
		/* Fill: the whole ring every other round, else a part. */
		uint32_t k = (round & 1) ? fx.entries :
			     (uint32_t)(mix64(round) % fx.entries) + 1;

		round++;
		for (i = 0; i < k; i++) {
			test_poll_gen_cqe(fx.pi, &d);
			fx_post(&d);
		}
		while (ci < fx.pi) {
			uint16_t b = bursts[(ci / 3) % RTE_DIM(bursts)];
			uint16_t r = rte_mlx5cq_poll_burst(fx.cq, c, b);

			TEST_ASSERT_EQUAL(r, RTE_MIN((uint32_t)b, fx.pi - ci),
					  "%s: count at ci %u",
					  fx_kind_name[kind], ci);
			for (i = 0; i < r; i++) {
				test_poll_gen_cqe(ci + i, &d);
				TEST_CHECK(check_img(&c[i], &d, ci + i));
				TEST_ASSERT_EQUAL(c[i].wqe_counter,
						  (uint16_t)(prev_wqe + 1),
						  "out of order at %u",
						  ci + i);
				prev_wqe = c[i].wqe_counter;
			}
			ci += r;
			TEST_CHECK(check_dbrec(ci));
		}
		/* Drained: every entry holds a CQE of this or the previous
		 * pass with a valid opcode; none may be delivered.
		 */
		TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 32), 0,
				  "stale CQE delivered at ci %u", ci);
	}
	TEST_ASSERT(ci / fx.entries >= 1000, "only %u passes",
		    ci / fx.entries);
	TEST_ASSERT_EQUAL(test_cq_cnt(fx.cq)->completions, (uint64_t)ci,
			  "completions");
	fx_fini();
	return TEST_SUCCESS;
}

/*
 * The consumer index is free running: its doorbell value is ci & 0xffffff
 * (crossing 2^24) and parity keeps working when it wraps at 2^32.
 */
static int
test_poll_ci_wrap(void)
{
	static const uint32_t starts[] = { 0x00fffff0u, 0xffffffe0u };
	struct rte_mlx5cq_cpl c[8];
	struct img_cqe d;
	unsigned int s, i;

	for (s = 0; s < RTE_DIM(starts); s++) {
		uint32_t ci = starts[s], end = starts[s] + 64;

		TEST_CHECK(fx_init(FX_64, 4, starts[s]));
		while (ci != end) {
			uint16_t r;

			for (i = 0; i < 5; i++) {
				test_poll_gen_cqe(fx.pi, &d);
				fx_post(&d);
			}
			r = rte_mlx5cq_poll_burst(fx.cq, c, 8);
			TEST_ASSERT_EQUAL(r, 5, "count at ci 0x%x", ci);
			for (i = 0; i < r; i++) {
				test_poll_gen_cqe(ci + i, &d);
				TEST_CHECK(check_img(&c[i], &d, ci + i));
			}
			ci += r;
			TEST_CHECK(check_dbrec(ci));
			if (ci - starts[s] >= 60)
				break;
		}
		TEST_ASSERT(s == 0 ? (ci & 0xffffff) < 0x40 : ci < 0x40,
			    "did not cross the boundary: ci 0x%x", ci);
		fx_fini();
	}
	return TEST_SUCCESS;
}

/*
 * A compressed CQE (format 3) is not expanded by this version: the burst
 * stops before it, what came before is published, the stop is counted,
 * the CQE stays untouched in the ring and later polls stop there again.
 */
static int
test_poll_compressed_stop(const void *data)
{
	enum fx_kind kind = (enum fx_kind)(uintptr_t)data;
	struct rte_mlx5cq_cpl c[8];
	struct img_cqe d[3], title;
	uint8_t before[64];
	unsigned int i;

	TEST_CHECK(fx_init(kind, 4, 0));
	for (i = 0; i < 3; i++) {
		test_poll_gen_cqe(i, &d[i]);
		d[i].opcode = 2;
		fx_post(&d[i]);
	}
	memset(&title, 0, sizeof(title));
	title.opcode = 2;
	title.format = 3; /* compressed session title */
	title.byte_cnt = 5; /* completions in the session */
	fx_post(&title);
	memcpy(before, fx_cqe(3), 64);
	scrub(c, 8);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 8), 3,
			  "burst did not stop before the compressed CQE");
	for (i = 0; i < 3; i++)
		TEST_CHECK(check_img(&c[i], &d[i], i));
	TEST_ASSERT_EQUAL(c[3].byte_cnt, 0xccccccccu,
			  "record written for the compressed CQE");
	TEST_CHECK(check_dbrec(3));
	TEST_CHECK(check_counters(3, 0, 1, 0, 1));
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 8), 0,
			  "compressed CQE delivered");
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 1), 0,
			  "compressed CQE delivered");
	TEST_ASSERT_EQUAL(fx.cq->ci, 3u, "ci moved past the compressed CQE");
	TEST_CHECK(check_dbrec(3));
	TEST_CHECK(check_counters(3, 0, 3, 0, 3));
	TEST_ASSERT_BUFFERS_ARE_EQUAL(fx_cqe(3), before, 64,
				      "compressed CQE modified");
	fx_fini();
	return TEST_SUCCESS;
}

/*
 * The stop at a compressed CQE is logged once per CQ, at DEBUG level of
 * the library's log type, however many polls stop there.
 */
static int
test_poll_compressed_log(void)
{
	struct rte_mlx5cq_cpl c[8];
	struct img_cqe title;
	FILE *saved = rte_log_get_stream(), *mem;
	char *buf = NULL, *p;
	size_t len = 0;
	int level = rte_log_get_level(rte_log_register("pmd.common.mlx5cq"));
	uint32_t global = rte_log_get_global_level();
	unsigned int i, lines = 0;

	TEST_ASSERT(level >= 0, "no log type pmd.common.mlx5cq");
	TEST_CHECK(fx_init(FX_64, 4, 0));
	memset(&title, 0, sizeof(title));
	title.opcode = 2;
	title.format = 3;
	title.byte_cnt = 2;
	fx_post(&title);
	mem = open_memstream(&buf, &len);
	TEST_ASSERT_NOT_NULL(mem, "open_memstream");
	rte_openlog_stream(mem);
	rte_log_set_global_level(RTE_LOG_DEBUG);
	rte_log_set_level_pattern("pmd.common.mlx5cq", RTE_LOG_DEBUG);
	for (i = 0; i < 5; i++)
		rte_mlx5cq_poll_burst(fx.cq, c, 8);
	rte_log_set_level_pattern("pmd.common.mlx5cq", (uint32_t)level);
	rte_log_set_global_level(global);
	rte_openlog_stream(saved);
	fclose(mem);
	for (p = buf; p != NULL && (p = strstr(p, "compressed CQE")) != NULL;
	     p++)
		lines++;
	free(buf);
	TEST_ASSERT_EQUAL(lines, 1u, "%u log lines for 5 stops", lines);
	TEST_CHECK(check_counters(0, 0, 5, 0, 5));
	fx_fini();
	return TEST_SUCCESS;
}

/* n == 0 consumes nothing; counters of a mixed sequence are exact. */
static int
test_poll_counters(void)
{
	struct rte_mlx5cq_cpl c[8];
	struct img_cqe d;
	unsigned int i;

	TEST_CHECK(fx_init(FX_64, 4, 0));
	test_poll_gen_cqe(0, &d);
	d.opcode = 0;
	fx_post(&d);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 0), 0, "n = 0");
	TEST_ASSERT_EQUAL(fx.cq->ci, 0u, "n = 0 consumed a CQE");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(fx.dbrec, dbrec_ci_sentinel, 4,
				      "n = 0 wrote the doorbell record");
	TEST_CHECK(check_counters(0, 0, 1, 1, 0));
	for (i = 1; i < 6; i++) {
		memset(&d, 0, sizeof(d));
		d.opcode = (i & 1) ? 13 : 2;
		d.syndrome = 0x05;
		d.wqe_counter = (uint16_t)i;
		fx_post(&d);
	}
	/* 6 available: 3 errors (i = 1, 3, 5). */
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 4), 4, "first");
	TEST_CHECK(check_counters(4, 2, 2, 1, 0));
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 4), 2, "second");
	TEST_CHECK(check_counters(6, 3, 3, 1, 0));
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 4), 0, "third");
	TEST_CHECK(check_counters(6, 3, 4, 2, 0));
	TEST_ASSERT_EQUAL(c[1].status, IBV_WC_WR_FLUSH_ERR, "flush status");
	TEST_ASSERT_EQUAL(test_cq_cnt(fx.cq)->err_syndrome[0x05], 3,
			  "syndrome 0x05");
	/* A reset zeroes every counter, the per-syndrome ones included. */
	TEST_ASSERT_SUCCESS(rte_mlx5cq_counters_reset(fx.cq), "reset");
	TEST_CHECK(check_counters(0, 0, 0, 0, 0));
	for (i = 0; i < 256; i++)
		TEST_ASSERT_EQUAL(test_cq_cnt(fx.cq)->err_syndrome[i], 0,
				  "syndrome 0x%02x after reset", i);
	fx_fini();
	return TEST_SUCCESS;
}

/*
 * Part 2: CQs created by the library on the emulated HCA, completions
 * written by the model.
 */

/* Path x CQE shape of a part-2 case. */
struct emu_case {
	enum rte_mlx5cq_path path;
	uint16_t cqe_size;
	uint32_t flags;
};

static const struct emu_case emu_devx_64 = { RTE_MLX5CQ_PATH_DEVX, 64, 0 };
static const struct emu_case emu_devx_128 = { RTE_MLX5CQ_PATH_DEVX, 128, 0 };
static const struct emu_case emu_devx_pad = {
	RTE_MLX5CQ_PATH_DEVX, 128, RTE_MLX5CQ_F_CQE_PAD };
static const struct emu_case emu_verbs_64 = { RTE_MLX5CQ_PATH_VERBS, 64, 0 };
static const struct emu_case emu_verbs_128 = {
	RTE_MLX5CQ_PATH_VERBS, 128, 0 };
static const struct emu_case emu_verbs_pad = {
	RTE_MLX5CQ_PATH_VERBS, 128, RTE_MLX5CQ_F_CQE_PAD };

/* What a part-2 case holds, released by its teardown on failure. */
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

/* Completion number seq as the model is asked to write it. */
static void
emu_gen_cpl(uint64_t seq, struct mlx5_emu_cpl *c)
{
	static const uint8_t resp_ops[] = { 2, 3, 1, 4 };
	struct img_cqe d;

	test_poll_gen_cqe(seq, &d);
	memset(c, 0, sizeof(*c));
	switch (mix64(seq ^ 0x5555) % 8) {
	case 0:
		c->kind = MLX5_EMU_CPL_REQ_ERR;
		break;
	case 1:
		c->kind = MLX5_EMU_CPL_RESP_ERR;
		break;
	case 2:
	case 3:
		c->kind = MLX5_EMU_CPL_REQ;
		break;
	default:
		c->kind = MLX5_EMU_CPL_RESP;
		c->opcode = resp_ops[seq % RTE_DIM(resp_ops)];
		break;
	}
	c->solicited = d.se;
	c->syndrome = d.syndrome;
	c->vendor_syndrome = d.vendor_syndrome;
	if (c->kind == MLX5_EMU_CPL_REQ || c->kind == MLX5_EMU_CPL_REQ_ERR)
		c->s_wqe_opcode = (uint8_t)(d.sop_drop_qpn >> 24);
	c->rx_hash_type = d.rx_hash_type;
	c->wqe_counter = (uint16_t)seq;
	c->hdr_type_etc = d.hdr_type_etc;
	c->vlan_info = d.vlan_info;
	c->csum = d.csum;
	c->byte_cnt = d.byte_cnt;
	c->rx_hash_res = d.rx_hash_res;
	c->qpn = d.sop_drop_qpn & 0xffffff;
	c->flow_table_metadata = d.metadata;
	c->timestamp = d.timestamp;
}

static int
emu_open_cq(const struct emu_case *ec, uint32_t entries,
	    struct rte_mlx5cq_info *info)
{
	static unsigned int dev_seq;
	struct rte_mlx5cq_attr attr;
	char name[32];

	snprintf(name, sizeof(name), "test_poll%u", dev_seq++);
	emu.ctx = mlx5_emu_open(name, NULL);
	TEST_ASSERT_NOT_NULL(emu.ctx, "mlx5_emu_open(%s) failed", name);
	emu.dev = rte_mlx5cq_dev_open(emu.ctx, SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(emu.dev, "rte_mlx5cq_dev_open: %s",
			     rte_strerror(rte_errno));
	memset(&attr, 0, sizeof(attr));
	attr.comp_mask = RTE_MLX5CQ_ATTR_CQE_SIZE;
	attr.cqe = entries - 1;
	attr.cqe_size = ec->cqe_size;
	attr.flags = RTE_MLX5CQ_F_SINGLE_THREADED | ec->flags;
	attr.socket = SOCKET_ID_ANY;
	attr.path = ec->path;
	emu.cq = rte_mlx5cq_create(emu.dev, &attr);
	TEST_ASSERT_NOT_NULL(emu.cq, "rte_mlx5cq_create: %s",
			     rte_strerror(rte_errno));
	TEST_ASSERT_SUCCESS(rte_mlx5cq_info_get(emu.cq, info), "info_get");
	TEST_ASSERT_EQUAL(info->entries, entries, "entries %u",
			  info->entries);
	TEST_ASSERT_EQUAL(info->cqe_size, ec->cqe_size, "cqe_size %u",
			  info->cqe_size);
	TEST_ASSERT_EQUAL(info->path, ec->path, "path %d", info->path);
	return TEST_SUCCESS;
}

static int
emu_close_cq(void)
{
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(emu.cq), "destroy");
	emu.cq = NULL;
	TEST_ASSERT_SUCCESS(rte_mlx5cq_dev_close(emu.dev), "dev_close");
	emu.dev = NULL;
	TEST_ASSERT_SUCCESS(mlx5_emu_close(emu.ctx), "mlx5_emu_close");
	emu.ctx = NULL;
	return TEST_SUCCESS;
}

/* Doorbell record of a created CQ: big-endian ci & 0xffffff in word 0. */
static int
emu_check_dbrec(const struct rte_mlx5cq_info *info, uint32_t ci)
{
	const volatile uint8_t *b = (const volatile uint8_t *)info->dbrec;

	TEST_ASSERT(b[0] == 0 && b[1] == (uint8_t)(ci >> 16) &&
		    b[2] == (uint8_t)(ci >> 8) && b[3] == (uint8_t)ci,
		    "dbrec %02x %02x %02x %02x, want ci 0x%x", b[0], b[1],
		    b[2], b[3], ci & 0xffffff);
	return TEST_SUCCESS;
}

/*
 * 100 wraps of a 256-entry ring: the model writes completions in chunks
 * of varying size (never overrunning: it reads the consumer index from the
 * doorbell record), the poll drains them in bursts of 1, 3, 8, 32, every
 * record is checked in order against what the model was asked to write,
 * the doorbell record after every burst.
 */
static int
test_poll_emu_wraps(const void *data)
{
	const struct emu_case *ec = data;
	static const uint16_t bursts[] = { 1, 3, 8, 32 };
	const uint32_t entries = 256, total = 100 * 256;
	struct mlx5_emu_cpl post[300];
	struct rte_mlx5cq_cpl c[32];
	struct rte_mlx5cq_info info;
	unsigned int allocs = test_poll_heap_allocs();
	uint64_t errors = 0;
	uint32_t posted = 0, ci = 0, round = 0, i;

	TEST_CHECK(emu_open_cq(ec, entries, &info));
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(emu.cq, c, 32), 0,
			  "new CQ not empty");
	while (ci < total) {
		uint32_t want = (uint32_t)(mix64(round++) % 300) + 1;
		int n;

		want = RTE_MIN(want, total - posted);
		for (i = 0; i < want; i++)
			emu_gen_cpl(posted + i, &post[i]);
		n = want ? mlx5_emu_cq_post(emu.ctx, info.cqn, post, want) : 0;
		TEST_ASSERT(n >= 0, "mlx5_emu_cq_post: %d", n);
		posted += (uint32_t)n;
		TEST_ASSERT(posted - ci <= entries,
			    "model overran the ring: %u outstanding",
			    posted - ci);
		TEST_ASSERT(posted > ci, "model wrote nothing into an empty "
			    "ring");
		while (ci < posted) {
			uint16_t b = bursts[round % RTE_DIM(bursts)];
			uint16_t r = rte_mlx5cq_poll_burst(emu.cq, c, b);

			TEST_ASSERT_EQUAL(r, RTE_MIN((uint32_t)b, posted - ci),
					  "burst %u: %u at ci %u (%u posted)",
					  b, r, ci, posted);
			for (i = 0; i < r; i++) {
				struct mlx5_emu_cpl m;
				struct rte_mlx5cq_cpl e;

				emu_gen_cpl(ci + i, &m);
				expect_emu_record(&m, &e);
				errors += e.status != 0;
				TEST_CHECK(test_poll_check_record(&c[i], &e,
							     ci + i));
			}
			ci += r;
			TEST_CHECK(emu_check_dbrec(&info, ci));
		}
		TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(emu.cq, c, 32), 0,
				  "stale CQE delivered at ci %u", ci);
	}
	TEST_ASSERT_EQUAL(test_cq_cnt(emu.cq)->completions, (uint64_t)total,
			  "completions counter");
	TEST_ASSERT_EQUAL(test_cq_cnt(emu.cq)->errors, errors, "errors counter");
	TEST_CHECK(emu_close_cq());
	TEST_ASSERT_EQUAL(test_poll_heap_allocs(), allocs, "heap leak");
	return TEST_SUCCESS;
}

/*
 * The ring of a created CQ lies in one 2 MiB hugepage when EAL has
 * hugepages (ring_hugepage, and the memseg holding it says so); without
 * hugepages ring_hugepage is 0.
 */
static int
test_poll_emu_ring_memory(const void *data)
{
	const struct emu_case *ec = data;
	struct rte_mlx5cq_info info;
	const struct rte_memseg *ms;
	uintptr_t start, end;

	TEST_CHECK(emu_open_cq(ec, 256, &info));
	TEST_ASSERT_NOT_NULL(info.ring, "no ring");
	TEST_ASSERT_EQUAL(info.ring_size, (size_t)256 * ec->cqe_size,
			  "ring_size %zu", info.ring_size);
	TEST_ASSERT_EQUAL((uintptr_t)info.ring % 4096, 0u,
			  "ring not page aligned");
	ms = rte_mem_virt2memseg(info.ring, NULL);
	TEST_ASSERT_NOT_NULL(ms, "ring not in DPDK memory");
	if (rte_eal_has_hugepages()) {
		TEST_ASSERT_EQUAL(info.ring_hugepage, 1,
				  "ring_hugepage 0 with hugepages");
		TEST_ASSERT_EQUAL(ms->hugepage_sz, (uint64_t)RTE_PGSIZE_2M,
				  "memseg page %" PRIu64, ms->hugepage_sz);
		TEST_ASSERT_EQUAL(info.ring_page_size,
				  (uint64_t)RTE_PGSIZE_2M, "ring_page_size %"
				  PRIu64, info.ring_page_size);
		start = (uintptr_t)info.ring;
		end = start + info.ring_size - 1;
		TEST_ASSERT_EQUAL(start / RTE_PGSIZE_2M, end / RTE_PGSIZE_2M,
				  "ring crosses a 2 MiB page boundary");
	} else {
		TEST_ASSERT_EQUAL(info.ring_hugepage, 0,
				  "ring_hugepage 1 without hugepages");
	}
	TEST_CHECK(emu_close_cq());
	return TEST_SUCCESS;
}

#define EMU_CASE(fn, c) \
	TEST_CASE_NAMED_WITH_DATA(#fn "_" #c, NULL, emu_teardown, fn, &(c))

#define KIND_CASE(fn, k) \
	TEST_CASE_NAMED_WITH_DATA(#fn "_" #k, NULL, fx_teardown, fn, \
				  (const void *)(uintptr_t)(k))

static struct unit_test_suite poll_suite = {
	.suite_name = "poll",
	.unit_test_cases = {
		KIND_CASE(test_poll_empty, FX_64),
		KIND_CASE(test_poll_empty, FX_128),
		KIND_CASE(test_poll_empty, FX_128_PAD),
		TEST_CASE_ST(NULL, fx_teardown, test_poll_requester),
		KIND_CASE(test_poll_responder, FX_64),
		KIND_CASE(test_poll_responder, FX_128),
		KIND_CASE(test_poll_responder, FX_128_PAD),
		KIND_CASE(test_poll_errors, FX_64),
		KIND_CASE(test_poll_errors, FX_128),
		KIND_CASE(test_poll_errors, FX_128_PAD),
		TEST_CASE(test_poll_syndrome_status),
		KIND_CASE(test_poll_bursts, FX_64),
		KIND_CASE(test_poll_bursts, FX_128),
		KIND_CASE(test_poll_bursts, FX_128_PAD),
		KIND_CASE(test_poll_stop_owner, FX_64),
		KIND_CASE(test_poll_stop_owner, FX_128),
		KIND_CASE(test_poll_stop_invalid, FX_64),
		KIND_CASE(test_poll_stop_invalid, FX_128_PAD),
		KIND_CASE(test_poll_wrap, FX_64),
		KIND_CASE(test_poll_wrap, FX_128),
		KIND_CASE(test_poll_wrap, FX_128_PAD),
		TEST_CASE_ST(NULL, fx_teardown, test_poll_ci_wrap),
		KIND_CASE(test_poll_compressed_stop, FX_64),
		KIND_CASE(test_poll_compressed_stop, FX_128),
		TEST_CASE_ST(NULL, fx_teardown, test_poll_compressed_log),
		TEST_CASE_ST(NULL, fx_teardown, test_poll_counters),
		EMU_CASE(test_poll_emu_wraps, emu_devx_64),
		EMU_CASE(test_poll_emu_wraps, emu_devx_128),
		EMU_CASE(test_poll_emu_wraps, emu_devx_pad),
		EMU_CASE(test_poll_emu_wraps, emu_verbs_64),
		EMU_CASE(test_poll_emu_wraps, emu_verbs_128),
		EMU_CASE(test_poll_emu_wraps, emu_verbs_pad),
		EMU_CASE(test_poll_emu_ring_memory, emu_devx_64),
		EMU_CASE(test_poll_emu_ring_memory, emu_devx_128),
		EMU_CASE(test_poll_emu_ring_memory, emu_verbs_64),
		EMU_CASE(test_poll_emu_ring_memory, emu_verbs_128),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(poll, poll_suite);
