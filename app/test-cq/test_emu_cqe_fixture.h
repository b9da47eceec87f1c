/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_CQ_EMU_CQE_FIXTURE_H_
#define TEST_CQ_EMU_CQE_FIXTURE_H_

/* Shared fixture of the emu_cqe_* suites (test_emu_cqe_fixture.c). */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_malloc.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>

#include "mlx5_emu.h"
#include "test.h"
#include "test_wait.h"

#define CREATE_CQ_IN_LEN 272 /* MLX5_ST_SZ_BYTES(create_cq_in) */
#define MODIFY_CQ_IN_LEN 272 /* kernel mlx5_ifc.h modify_cq_in */
#define CQC_OFF 16 /* cq_context in create_cq_in / modify_cq_in */
#define EQE_LEN 64

/* The initial CQE DPDK writes (mlx5_cq_init): op_own 0xf1, rest zero. */
static const uint8_t img_init[64] = { [63] = 0xf1 };

struct tcq_cfg {
	unsigned int log; /* log_cq_size */
	unsigned int cqe_sz; /* 0, 1, 2 */
	int comp; /* cqe_comp_en */
	unsigned int fmt; /* 0..4 (4: mini_cqe_res_format_ext) */
	unsigned int layout; /* cqe_comp_layout */
	int oi;
	uint16_t max_num; /* caps.cqe_compression_max_num, 0: default */
	uint8_t no_moder; /* caps.cq_moderation, cq_period_start_from_cqe 0 */
	uint16_t cq_max_count; /* cqc.cq_max_count at creation */
	uint8_t period_mode; /* cqc.cq_period_mode at creation */
};

struct tcq {
	struct ibv_context *ctx;
	struct mlx5dv_devx_uar *uar;
	struct mlx5dv_devx_umem *umem;
	struct mlx5dv_devx_obj *obj;
	uint8_t *buf;
	volatile uint32_t *dbrec;
	uint32_t cqn;
	unsigned int log;
	unsigned int stride;
};

/* Responder title of 3 completions (completion 0's CQE, byte_cnt 3,
 * op_own RESP_SEND 2 << 4 | compressed 3 << 2 | owner 0 = 0x2c).
 */
#define TITLE_RESP(csum_hi, csum_lo, hdr_lo, tag_hi, tag_mid, tag_lo) { \
	[12] = 0xde, 0xad, 0x00, 0x00, \
	[16] = 0x33, \
	[20] = csum_hi, csum_lo, \
	[28] = 0x06, hdr_lo, 0x00, 0x05, \
	[36] = 0xa1, 0xb2, 0xc3, 0xd4, \
	[44] = 0x00, 0x00, 0x00, 0x03, \
	[48] = 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, \
	[56] = 0x00, tag_hi, tag_mid, tag_lo, \
	[60] = 0x01, 0x00, 0x00, 0x2c, \
}

/* HASH (0): hash 0xdead0000 + i in the mini. */
static const uint8_t t_hash[64] = TITLE_RESP(0x11, 0x11, 0x04, 0, 0x0a, 0xbc);
static const uint8_t a_hash[64] = {
	0xde, 0xad, 0x00, 0x00, 0x00, 0x00, 0x00, 0x64,
	0xde, 0xad, 0x00, 0x01, 0x00, 0x00, 0x00, 0x65,
	0xde, 0xad, 0x00, 0x02, 0x00, 0x00, 0x00, 0x66,
};
/* CSUM (1) and CSUM_STRIDX (3): csum 0x1000 + i, stride index. */
static const uint8_t t_csum[64] = TITLE_RESP(0x10, 0x00, 0x04, 0, 0x0a, 0xbc);
static const uint8_t a_csum[64] = {
	0x10, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x64,
	0x10, 0x01, 0x01, 0x01, 0x00, 0x00, 0x00, 0x65,
	0x10, 0x02, 0x01, 0x02, 0x00, 0x00, 0x00, 0x66,
};
/* FTAG_STRIDX (2): tags 0x123456, 0x789abc, 0xfedcba: tag[15:0], stride
 * index, tag[23:16], byte_cnt[23:0].
 */
static const uint8_t t_ftag[64] = TITLE_RESP(0x11, 0x11, 0x04, 0x12, 0x34,
					     0x56);
static const uint8_t a_ftag[64] = {
	0x34, 0x56, 0x01, 0x00, 0x12, 0x00, 0x00, 0x64,
	0x9a, 0xbc, 0x01, 0x01, 0x78, 0x00, 0x00, 0x65,
	0xdc, 0xba, 0x01, 0x02, 0xfe, 0x00, 0x00, 0x66,
};
/* L34H_STRIDX (4): hdr_type_etc 0x0604, 0x0619, 0x0628: byte 29 of each
 * CQE in the mini's header byte (byte 0).
 */
static const uint8_t t_l34h[64] = TITLE_RESP(0x11, 0x11, 0x04, 0, 0x0a, 0xbc);
/* Then a reserved byte (DPDK 5654f38eba). */
static const uint8_t a_l34h[64] = {
	0x04, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x64,
	0x19, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00, 0x65,
	0x28, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x66,
};
/* Requester: s_wqe_opcode 0x0a, 0x08, 0x0a; op_own REQ 0 | 0x0c. */
static const uint8_t t_req[64] = {
	[44] = 0x00, 0x00, 0x00, 0x03,
	[48] = 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
	[56] = 0x0a, 0x00, 0x0a, 0xbc,
	[60] = 0x02, 0x00, 0x00, 0x0c,
};
static const uint8_t a_req[64] = {
	0x02, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x40,
	0x02, 0x01, 0x08, 0x00, 0x00, 0x00, 0x00, 0x41,
	0x02, 0x02, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x42,
};

struct fmt_case {
	const char *name;
	unsigned int fmt;
	int requester;
	const uint8_t *title;
	const uint8_t *array;
};

static const struct fmt_case fmt_cases[] = {
	{ "HASH", 0, 0, t_hash, a_hash },
	{ "CSUM", 1, 0, t_csum, a_csum },
	{ "FTAG_STRIDX", 2, 0, t_ftag, a_ftag },
	{ "CSUM_STRIDX", 3, 0, t_csum, a_csum },
	{ "L34H_STRIDX", 4, 0, t_l34h, a_l34h },
	{ "requester", 0, 1, t_req, a_req },
};

int
tcq_open(struct tcq *t, const char *name, const struct tcq_cfg *c);

int
tcq_close(struct tcq *t);

uint8_t *
slot(const struct tcq *t, uint32_t i);

void
consumer(struct tcq *t, uint32_t ci);

int
cqe_cmp(const uint8_t *got, const uint8_t *want, const char *what,
	unsigned int idx);

uint32_t
pi_of(const struct tcq *t);

int
ev_info(const struct tcq *t, struct mlx5_emu_cq_ev_info *ev);

void
resp(struct mlx5_emu_wc *c, unsigned int i);

void
req(struct mlx5_emu_wc *c, unsigned int i);

void
fmt_cpls(const struct fmt_case *fc, struct mlx5_emu_wc c[3]);

void
arm_doorbell(volatile uint32_t *dbrec, void *uar, uint32_t cqn,
	     unsigned int sn, int solicited, uint32_t ci);

void
tcq_arm(struct tcq *t, unsigned int sn, int solicited, uint32_t ci);

int
fd_readable(int fd);

int
expect_comp_event(struct mlx5dv_devx_event_channel *ch, uint64_t cookie,
		  uint32_t cqn);

int
expect_no_event(struct mlx5dv_devx_event_channel *ch);

#endif /* TEST_CQ_EMU_CQE_FIXTURE_H_ */
