/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The fixture of the poll suites (test_poll_fixture.h): struct rte_mlx5cq
 * built by hand over an rte_malloc ring and an 8-byte doorbell record, CQE
 * byte images written by hand from the PRM layout (test_cqe_image.h), and
 * the checks of every record field, the doorbell record bytes and the
 * counters.
 */

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include <mlx5cq_test_hooks.h>

#include "test_hooks_cq.h"
#include <rte_mlx5cq.h>

#include "test.h"
#include "test_cq_cnt.h"
#include "test_cpl_expect.h"
#include "test_cqe_image.h"
#include "test_poll_fixture.h"

/* Arm word left in the doorbell record's second word: never written. */
const uint8_t dbrec_arm_sentinel[4] = { 0xa1, 0xb2, 0xc3, 0xd4 };
/* First word before any poll: an empty poll must not write it. */
const uint8_t dbrec_ci_sentinel[4] = { 0x5c, 0x5c, 0x5c, 0x5c };

const char * const fx_kind_name[3] = { "64B", "128B", "128B-pad" };

struct poll_fx fx;

unsigned int
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

void
fx_fini(void)
{
	mlx5cq_test_cq_free(fx.cq);
	rte_free(fx.ring);
	rte_free(fx.dbrec);
	memset(&fx, 0, sizeof(fx));
}

void
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
int
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
uint8_t *
fx_cqe(uint32_t idx)
{
	return fx.ring + (size_t)(idx & (fx.entries - 1)) * fx.stride +
	       fx.stride - 64;
}

/* Write d at index idx with the owner bit of idx's pass, op_own last. */
void
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

void
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

int
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

int
check_img(const struct rte_mlx5cq_cpl *got, const struct img_cqe *d,
	  uint64_t seq)
{
	struct rte_mlx5cq_cpl e;

	expect_img_record(d, &e);
	return test_poll_check_record(got, &e, seq);
}

/* Doorbell record: word 0 big endian ci & 0xffffff, word 1 untouched. */
int
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

int
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

uint64_t
mix64(uint64_t x)
{
	/* splitmix64 finaliser. */
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* Error syndromes used: every mapped one and a few unknown ones. */
const uint8_t test_syndromes[TEST_NB_SYNDROMES] = {
	0x01, 0x02, 0x04, 0x05, 0x06, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15,
	0x16, 0x22, 0x00, 0x03, 0x07, 0x21, 0x23, 0xff,
};

/*
 * A varied CQE for sequence number seq: requester, responder opcodes,
 * NO_PACKET and both error kinds; wqe_counter = seq & 0xffff.
 */
void
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
void
scrub(struct rte_mlx5cq_cpl *c, unsigned int n)
{
	memset(c, 0xcc, sizeof(*c) * n);
}
