/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_DECOMP_FIXTURE_H_
#define TEST_DECOMP_FIXTURE_H_

/*
 * The fixture of the decomp suites (decomp_format, decomp_lead_title,
 * decomp_stop, decomp_enhanced, decomp_enh_title, decomp_crypto,
 * decomp_raw, decomp_counters, decomp_emu): compressed sessions expanded
 * by rte_mlx5cq_poll_burst() (test_decomp_fixture.c).
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
 *   checksum bytes 0..1; L34H_STRIDX: header byte = byte 0 (DPDK
 *   5654f38eba; byte 1 is reserved), which is
 *   byte 29 of the full CQE (hdr_type_etc bits 7:0: header types 7:2 as
 *   DPDK reads them from the unswapped field, bit 0 VLAN stripped); STRIDX
 *   formats: stride index (bytes 2..3) as WQE counter;
 *   requester title (opcode REQ): WQE counter = bytes 0..1;
 *   the rest comes from the title.
 */

#include <stdint.h>

#include <rte_mlx5cq.h>

#include "test.h"
#include "test_cqe_image.h"
#include "test_hand_cq.h"

/* rte_mlx5cq.comp of each PRM format (format + 1). */
enum {
	F_HASH = 0, F_CSUM = 1, F_FTAG = 2, F_CSUM_STRIDX = 3, F_L34H = 4,
};

extern struct hand_cq dcq;

/* Teardown of every hand-built case: dcq freed. */
void decomp_teardown(void);

extern const char * const fmt_name[5];

/* A responder title with every field distinct. */
void title_img(struct img_cqe *t, uint8_t opcode);
/* Record of mini-CQE m of a session whose title is t (see file comment). */
void exp_mini(unsigned int fmt, const struct img_cqe *t, const uint8_t *m,
	      uint16_t implied_wqe, struct rte_mlx5cq_cpl *e);
/* TEST_SUCCESS when record g (number k) is e, else a line. */
int check_rec(const struct rte_mlx5cq_cpl *g, const struct rte_mlx5cq_cpl *e,
	      unsigned int k);

/* The doorbell record of dcq: word 0 big endian ci. */
static inline int
check_dbrec(uint32_t ci)
{
	uint8_t want[4] = { 0, (uint8_t)(ci >> 16), (uint8_t)(ci >> 8),
			    (uint8_t)ci };

	TEST_ASSERT_BUFFERS_ARE_EQUAL(dcq.dbrec, want, 4,
		"dbrec %02x %02x %02x %02x, want ci %u", dcq.dbrec[0],
		dcq.dbrec[1], dcq.dbrec[2], dcq.dbrec[3], ci);
	return TEST_SUCCESS;
}

/*
 * Golden mini-CQEs, three per format, written from the layout; the rest
 * of a session follows the pattern of gen_mini().
 */
extern const uint8_t golden[5][3][8];
/* Mini-CQE j of a session of format fmt, in m (golden[] for j < 3). */
void gen_mini(unsigned int fmt, uint32_t j, uint8_t *m);

#define SESS_MAX 64

/*
 * One case: regular CQE at ci0, session of count at ci0 + 1 (at ci0 with
 * no_lead), then a regular CQE (or an error CQE), polled in bursts of
 * burst by the CQ's default poll implementation (vec 0) or by vec - 1.
 */
struct session_case {
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
 * A CQE of opcode op after a session: WQE counter wqe, error syndrome 4
 * and vendor syndrome 0x66 (an error record carries them), QPN bytes.
 */
void next_img(struct img_cqe *e, uint8_t op, uint16_t wqe);
/* Run one case of struct session_case: TEST_SUCCESS, or a failure line. */
int run_session(const struct session_case *sc);

#endif /* TEST_DECOMP_FIXTURE_H_ */
