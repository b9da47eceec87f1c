/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "decomp_emu": compressed CQs created by the library on the
 * emulated HCA, every record equal to the uncompressed one.
 * The fixture (hand-built CQ, title images, golden mini-CQEs,
 * expected records, run_session()) is test_decomp_fixture.c; its
 * header states the layouts and the expected record of each format.
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
#include "test_decomp_fixture.h"
#include "test_hand_cq.h"
#include "test_vec_arch.h"

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
emu_comp_gen(uint8_t format, uint64_t seq, struct mlx5_emu_wc *c)
{
	uint64_t run = seq / 13;

	memset(c, 0, sizeof(*c));
	c->kind = run % 5 == 3 ? MLX5_EMU_WC_REQ : MLX5_EMU_WC_RESP;
	if (seq % 97 == 96)
		c->kind = c->kind == MLX5_EMU_WC_REQ ? MLX5_EMU_WC_REQ_ERR :
			  MLX5_EMU_WC_RESP_ERR;
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
	if (c->kind == MLX5_EMU_WC_REQ || c->kind == MLX5_EMU_WC_REQ_ERR)
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
	struct mlx5_emu_wc post[64];
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
			struct mlx5_emu_wc c;
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

static struct unit_test_suite decomp_emu_suite = {
	.suite_name = "decomp_emu",
	.unit_test_cases = {
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
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(decomp_emu, decomp_emu_suite);
