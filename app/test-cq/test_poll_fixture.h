/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_POLL_FIXTURE_H_
#define TEST_POLL_FIXTURE_H_

/*
 * The fixture of the poll suites (poll_record, poll_error, poll_stop,
 * poll_burst, poll_wrap, poll_compressed, poll_emu): struct rte_mlx5cq
 * built by hand over an rte_malloc ring (64 B, 128 B with inline-scatter
 * first halves, 128 B padded) and an 8-byte doorbell record, CQE byte
 * images written by hand from the PRM layout (test_cqe_image.h), and the
 * checks of every record field, the doorbell record bytes and the
 * counters (test_poll_fixture.c).
 */

#include <stdint.h>

#include <rte_mlx5cq.h>

#include "test_cqe_image.h"

/* Arm word left in the doorbell record's second word: never written. */
extern const uint8_t dbrec_arm_sentinel[4];
/* First word before any poll: an empty poll must not write it. */
extern const uint8_t dbrec_ci_sentinel[4];

/* Ring shapes. */
enum fx_kind {
	FX_64, /* 64 B CQEs. */
	FX_128, /* 128 B, first half holds scattered (inline) data. */
	FX_128_PAD, /* 128 B padded: first half is padding. */
};

extern const char * const fx_kind_name[3];

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

extern struct poll_fx fx;

/* rte_malloc allocations of every socket. */
unsigned int test_poll_heap_allocs(void);
void fx_fini(void);
void fx_teardown(void);
/* Build the CQ by hand: 2^log_n entries of kind, consumer index ci0. */
int fx_init(enum fx_kind kind, uint32_t log_n, uint32_t ci0);
/* The 64 B CQE of ring entry idx (second half of a 128 B entry). */
uint8_t *fx_cqe(uint32_t idx);
/* Write d at index idx with the owner bit of idx's pass, op_own last. */
void fx_write(uint32_t idx, const struct img_cqe *d, unsigned int owner);
/* Write d at the producer index with its pass's owner bit; advance. */
void fx_post(const struct img_cqe *d);

int test_poll_check_record(const struct rte_mlx5cq_cpl *got,
			   const struct rte_mlx5cq_cpl *exp, uint64_t seq);
int check_img(const struct rte_mlx5cq_cpl *got, const struct img_cqe *d,
	      uint64_t seq);
/* Doorbell record: word 0 big endian ci & 0xffffff, word 1 untouched. */
int check_dbrec(uint32_t ci);
int check_counters(uint64_t completions, uint64_t errors, uint64_t polls,
		   uint64_t empty, uint64_t comp_unhandled);

uint64_t mix64(uint64_t x);

/* Error syndromes used: every mapped one and a few unknown ones. */
#define TEST_NB_SYNDROMES 19
extern const uint8_t test_syndromes[TEST_NB_SYNDROMES];

/*
 * A varied CQE for sequence number seq: requester, responder opcodes,
 * NO_PACKET and both error kinds; wqe_counter = seq & 0xffff.
 */
void test_poll_gen_cqe(uint64_t seq, struct img_cqe *d);
/* Fill a record array with a pattern the poll must overwrite. */
void scrub(struct rte_mlx5cq_cpl *c, unsigned int n);

/* A case run on one ring shape k, the fixture freed by its teardown. */
#define KIND_CASE(fn, k) \
	TEST_CASE_NAMED_WITH_DATA(#fn "_" #k, NULL, fx_teardown, fn, \
				  (const void *)(uintptr_t)(k))

#endif /* TEST_POLL_FIXTURE_H_ */
