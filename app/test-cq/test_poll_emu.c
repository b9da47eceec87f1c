/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "poll_emu": the inline burst poll on CQs created by the library
 * on the emulated HCA, completions written by the model.
 * The fixture (hand-built CQ, CQE images, record, doorbell
 * record and counter checks) is test_poll_fixture.c.
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
#include "test_poll_fixture.h"

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
emu_gen_wc(uint64_t seq, struct mlx5_emu_wc *c)
{
	static const uint8_t resp_ops[] = { 2, 3, 1, 4 };
	struct img_cqe d;

	test_poll_gen_cqe(seq, &d);
	memset(c, 0, sizeof(*c));
	switch (mix64(seq ^ 0x5555) % 8) {
	case 0:
		c->kind = MLX5_EMU_WC_REQ_ERR;
		break;
	case 1:
		c->kind = MLX5_EMU_WC_RESP_ERR;
		break;
	case 2:
	case 3:
		c->kind = MLX5_EMU_WC_REQ;
		break;
	default:
		c->kind = MLX5_EMU_WC_RESP;
		c->opcode = resp_ops[seq % RTE_DIM(resp_ops)];
		break;
	}
	c->solicited = d.se;
	c->syndrome = d.syndrome;
	c->vendor_syndrome = d.vendor_syndrome;
	if (c->kind == MLX5_EMU_WC_REQ || c->kind == MLX5_EMU_WC_REQ_ERR)
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
	emu.dev = rte_mlx5cq_dev_open_ex(emu.ctx, SOCKET_ID_ANY,
					 RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS);
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
	struct mlx5_emu_wc post[300];
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
			emu_gen_wc(posted + i, &post[i]);
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
				struct mlx5_emu_wc m;
				struct rte_mlx5cq_cpl e;

				emu_gen_wc(ci + i, &m);
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


static struct unit_test_suite poll_emu_suite = {
	.suite_name = "poll_emu",
	.unit_test_cases = {
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
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(poll_emu, poll_emu_suite);
