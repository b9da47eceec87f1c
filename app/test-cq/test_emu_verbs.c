/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_verbs": the verbs path of the emulated HCA, driven through
 * rte_common_mlx5's glue table as a PMD would: CQ sizes, CQE sizes, the
 * attributes refused, completion vectors, dv_init_obj and the ring as
 * created. Suites emu_verbs_dbr (doorbell records, external allocators,
 * fault injection) and emu_verbs_use (dv_query_device, completions the
 * model writes, channels, close while busy) share its fixture
 * (test_emu_verbs_fixture.c).
 *
 * Expected values come from the sources the model follows, never from the
 * model itself: rdma-core providers/mlx5 (verbs.c create_cq,
 * get_cqe_size, align_queue_size; cq.c mlx5_alloc_cq_buf; dbrec.c;
 * buf.c; mlx5.c mlx5dv_get_cq and _mlx5dv_query_device), the kernel
 * (drivers/infiniband/core/uverbs_std_types_cq.c;
 * drivers/infiniband/hw/mlx5/cq.c mlx5_ib_create_cq, create_cq_user;
 * main.c mlx5_ib_query_device) and the PRM layouts (mlx5dv.h).
 * Every failure path is checked for leaks: device stats (CQs, doorbell
 * pages and slots) and the calls of a counting external allocator.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>
#include <rte_bitops.h>
#include <rte_common.h>

#include <mlx5_glue.h>

#include <mlx5_emu.h>

#include "test.h"
#include "test_emu_verbs_fixture.h"

/* ---- sizes ----------------------------------------------------------- */

/*
 * rdma-core align_queue_size(cqe + 1): the ring holds the next power of
 * two above the request; the CQ reports cqe = entries - 1. Expected
 * values written out by hand.
 */
static const struct {
	uint32_t cqe;
	uint32_t entries;
} size_table[] = {
	{ 1, 2 }, { 2, 4 }, { 3, 4 }, { 255, 256 }, { 256, 512 },
	{ 4095, 4096 }, { 4096, 8192 },
};

static int
check_ring_sizes(struct ibv_context *ctx, uint32_t cqe, uint32_t entries)
{
	struct mlx5_emu_stats st0, st1, st2;
	struct mlx5_emu_cq_info info;
	struct mlx5dv_cq dv;
	struct ibv_cq_ex *cq;
	uint32_t i;
	uint8_t *ring;

	TEST_ASSERT_SUCCESS(ev_stats(ctx, &st0), "stats");
	cq = ev_create_n(ctx, cqe);
	TEST_ASSERT_NOT_NULL(cq, "cqe %u: %s", cqe, strerror(errno));
	TEST_ASSERT_SUCCESS(ev_stats(ctx, &st1), "stats");
	TEST_ASSERT_EQUAL(st1.cqs, st0.cqs + 1, "cqs %u", st1.cqs);
	TEST_ASSERT_EQUAL(st1.verbs_cqs, st0.verbs_cqs + 1, "verbs_cqs %u",
			  st1.verbs_cqs);
	TEST_ASSERT_EQUAL(st1.dbr_slots, st0.dbr_slots + 1, "dbr_slots %u",
			  st1.dbr_slots);
	TEST_ASSERT_EQUAL(st1.umems, st0.umems, "verbs CQ took a umem");
	TEST_ASSERT_EQUAL(st1.devx_objs, st0.devx_objs, "verbs CQ is DevX");
	TEST_ASSERT_EQUAL(cq->cqe, (int)entries - 1, "cqe %u: cq->cqe %d",
			  cqe, cq->cqe);
	TEST_ASSERT_SUCCESS(ev_dv_cq(cq, &dv), "init_obj");
	TEST_ASSERT_EQUAL(dv.cqe_cnt, entries, "cqe %u: cqe_cnt %u, want %u",
			  cqe, dv.cqe_cnt, entries);
	TEST_ASSERT_EQUAL(dv.cqe_size, 64, "cqe_size %u", dv.cqe_size);
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(ctx, dv.cqn, &info), "query");
	TEST_ASSERT_EQUAL(1u << info.log_cq_size, entries,
			  "log_cq_size %u", info.log_cq_size);
	TEST_ASSERT_EQUAL(info.verbs, 1, "verbs flag");
	ring = dv.buf;
	for (i = 0; i < entries; i++)
		TEST_ASSERT_EQUAL(ring[i * 64 + 63], OP_OWN_INVALID,
				  "cqe %u: entry %u op_own 0x%02x", cqe, i,
				  ring[i * 64 + 63]);
	TEST_ASSERT_SUCCESS(ev_destroy(cq), "destroy");
	TEST_ASSERT_SUCCESS(ev_stats(ctx, &st2), "stats");
	TEST_CHECK(ev_stats_same(&st0, &st2, "after destroy"));
	return TEST_SUCCESS;
}

static int
test_sizes(void)
{
	struct ibv_context *ctx;
	struct mlx5_emu_caps caps;
	struct ibv_cq_init_attr_ex a;
	unsigned int i;

	ctx = ev_open_dev(NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	for (i = 0; i < RTE_DIM(size_table); i++)
		TEST_CHECK(check_ring_sizes(ctx, size_table[i].cqe,
				       size_table[i].entries));
	/* The largest CQ of the default device (log_max_cq_sz 22). */
	TEST_CHECK(check_ring_sizes(ctx, (1u << 22) - 1, 1u << 22));
	/* One more needs 2^23 entries: the kernel refuses it. */
	ev_cq_attr_init(&a, 1u << 22);
	TEST_CHECK(ev_expect_fail(ctx, &a, NULL, EINVAL, NULL, "cqe 2^22"));
	TEST_CHECK(ev_close_dev(ctx));

	/* A small device: its log_max_cq_sz bounds the ring. */
	ev_default_caps(&caps);
	caps.log_max_cq_sz = 10;
	ctx = ev_open_dev(&caps);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	TEST_CHECK(check_ring_sizes(ctx, 1023, 1024));
	ev_cq_attr_init(&a, 1024);
	TEST_CHECK(ev_expect_fail(ctx, &a, NULL, EINVAL, NULL, "cqe 1024 on 2^10"));
	TEST_CHECK(ev_close_dev(ctx));
	return TEST_SUCCESS;
}

/*
 * rdma-core refuses a ring above 2^24 entries even when the device could
 * take more, before it allocates anything; so does every request whose
 * cqe + 1 overflows.
 */
static int
test_size_limits(void)
{
	static const uint32_t bad[] = {
		1u << 24, (1u << 24) + 1, INT32_MAX, (uint32_t)INT32_MAX + 1,
		UINT32_MAX - 1, UINT32_MAX,
	};
	struct ibv_cq_init_attr_ex a;
	struct mlx5_emu_caps caps;
	struct ibv_context *ctx;
	struct cnt_alloc c;
	unsigned int i;

	ev_default_caps(&caps);
	caps.log_max_cq_sz = 25;
	ctx = ev_open_dev(&caps);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	memset(&c, 0, sizeof(c));
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, &c), "allocators");
	for (i = 0; i < RTE_DIM(bad); i++) {
		ev_cq_attr_init(&a, bad[i]);
		TEST_CHECK(ev_expect_fail(ctx, &a, NULL, EINVAL, &c, "cqe > 2^24 - 1"));
	}
	TEST_ASSERT_EQUAL(c.allocs, 0, "%u allocations for refused sizes",
			  c.allocs);
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, NULL), "allocators off");
	TEST_CHECK(ev_close_dev(ctx));
	return TEST_SUCCESS;
}

/* ---- CQE size -------------------------------------------------------- */

static int
check_cqe_size(struct ibv_context *ctx, struct mlx5dv_cq_init_attr *dv,
	       uint32_t want, uint8_t want_fw, const char *what)
{
	struct ibv_cq_init_attr_ex a;
	struct mlx5_emu_cq_info info;
	struct mlx5dv_cq out;
	struct ibv_cq_ex *cq;

	ev_cq_attr_init(&a, 63);
	cq = ev_create(ctx, &a, dv);
	TEST_ASSERT_NOT_NULL(cq, "%s: %s", what, strerror(errno));
	TEST_ASSERT_SUCCESS(ev_dv_cq(cq, &out), "init_obj");
	TEST_ASSERT_EQUAL(out.cqe_size, want, "%s: cqe_size %u", what,
			  out.cqe_size);
	TEST_ASSERT_EQUAL(out.cqe_cnt, 64, "%s: cqe_cnt %u", what,
			  out.cqe_cnt);
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(ctx, out.cqn, &info), "query");
	TEST_ASSERT_EQUAL(info.cqe_sz, want_fw, "%s: cqc.cqe_sz %u", what,
			  info.cqe_sz);
	TEST_ASSERT_SUCCESS(ev_destroy(cq), "destroy");
	return TEST_SUCCESS;
}

static int
run_cqe_size(struct ibv_context *ctx)
{
	struct mlx5dv_cq_init_attr dv;
	struct ibv_cq_init_attr_ex a;
	static const uint16_t bad_dv[] = { 0, 32, 63, 65, 127, 256 };
	static const char * const bad_env[] = { "96", "0", "abc", "256", "" };
	unsigned int i;

	unsetenv("MLX5_CQE_SIZE");
	TEST_CHECK(check_cqe_size(ctx, NULL, 64, 0, "default"));
	memset(&dv, 0, sizeof(dv));
	TEST_CHECK(check_cqe_size(ctx, &dv, 64, 0, "dv without CQE_SIZE"));
	dv.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE;
	dv.cqe_size = 128;
	TEST_CHECK(check_cqe_size(ctx, &dv, 128, 1, "dv 128"));
	dv.cqe_size = 64;
	TEST_CHECK(check_cqe_size(ctx, &dv, 64, 0, "dv 64"));
	setenv("MLX5_CQE_SIZE", "128", 1);
	TEST_CHECK(check_cqe_size(ctx, NULL, 128, 1, "env 128"));
	/* The dv attribute wins over the environment. */
	TEST_CHECK(check_cqe_size(ctx, &dv, 64, 0, "env 128, dv 64"));
	setenv("MLX5_CQE_SIZE", "64", 1);
	dv.cqe_size = 128;
	TEST_CHECK(check_cqe_size(ctx, &dv, 128, 1, "env 64, dv 128"));
	TEST_CHECK(check_cqe_size(ctx, NULL, 64, 0, "env 64"));
	ev_cq_attr_init(&a, 63);
	for (i = 0; i < RTE_DIM(bad_env); i++) {
		setenv("MLX5_CQE_SIZE", bad_env[i], 1);
		TEST_CHECK(ev_expect_fail(ctx, &a, NULL, EINVAL, NULL, bad_env[i]));
	}
	/* A valid dv size hides a bad environment value. */
	dv.cqe_size = 128;
	TEST_CHECK(check_cqe_size(ctx, &dv, 128, 1, "bad env, dv 128"));
	unsetenv("MLX5_CQE_SIZE");
	for (i = 0; i < RTE_DIM(bad_dv); i++) {
		dv.cqe_size = bad_dv[i];
		TEST_CHECK(ev_expect_fail(ctx, &a, &dv, EINVAL, NULL, "dv cqe_size"));
	}
	return TEST_SUCCESS;
}

static int
test_cqe_size(void)
{
	struct ibv_context *ctx;
	char *saved;
	int ret;

	ctx = ev_open_dev(NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	saved = ev_env_save();
	ret = run_cqe_size(ctx);
	ev_env_restore(saved);
	TEST_CHECK(ret);
	TEST_CHECK(ev_close_dev(ctx));
	return TEST_SUCCESS;
}

/* ---- rejected attributes --------------------------------------------- */

/* Creation attributes refused by rdma-core before any memory is taken. */
static int
test_reject_early(void)
{
	struct mlx5dv_cq_init_attr dv;
	struct ibv_cq_init_attr_ex a;
	struct ibv_context *ctx;
	struct ibv_cq_ex *cq;
	struct cnt_alloc c;

	ctx = ev_open_dev(NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	memset(&c, 0, sizeof(c));
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, &c), "allocators");

	ev_cq_attr_init(&a, 0);
	TEST_CHECK(ev_expect_fail(ctx, &a, NULL, EINVAL, &c, "cqe 0"));
	ev_cq_attr_init(&a, 7);
	a.comp_mask = 1u << 2;
	TEST_CHECK(ev_expect_fail(ctx, &a, NULL, EINVAL, &c, "comp_mask bit 2"));
	a.comp_mask = 1u << 31;
	TEST_CHECK(ev_expect_fail(ctx, &a, NULL, EINVAL, &c, "comp_mask bit 31"));
	/* A plain context has no parent domain to give. */
	a.comp_mask = IBV_CQ_INIT_ATTR_MASK_PD;
	TEST_CHECK(ev_expect_fail(ctx, &a, NULL, EINVAL, &c, "MASK_PD"));
	a.comp_mask = IBV_CQ_INIT_ATTR_MASK_FLAGS;
	a.flags = 1u << 2;
	TEST_CHECK(ev_expect_fail(ctx, &a, NULL, EINVAL, &c, "flags bit 2"));
	ev_cq_attr_init(&a, 7);
	a.wc_flags = IBV_WC_STANDARD_FLAGS | (1u << 12);
	TEST_CHECK(ev_expect_fail(ctx, &a, NULL, ENOTSUP, &c, "wc_flags bit 12"));
	a.wc_flags = 1ull << 40;
	TEST_CHECK(ev_expect_fail(ctx, &a, NULL, ENOTSUP, &c, "wc_flags bit 40"));
	ev_cq_attr_init(&a, 7);
	memset(&dv, 0, sizeof(dv));
	dv.comp_mask = 1u << 3;
	TEST_CHECK(ev_expect_fail(ctx, &a, &dv, EINVAL, &c, "dv comp_mask bit 3"));
	/* Order: the cqe check comes first, then comp_mask, ..., wc_flags. */
	ev_cq_attr_init(&a, 0);
	a.wc_flags = 1u << 12;
	TEST_CHECK(ev_expect_fail(ctx, &a, NULL, EINVAL, &c, "cqe 0 + wc_flags"));
	ev_cq_attr_init(&a, 7);
	a.comp_mask = 1u << 2;
	a.wc_flags = 1u << 12;
	TEST_CHECK(ev_expect_fail(ctx, &a, NULL, EINVAL, &c, "comp_mask + wc_flags"));
	ev_cq_attr_init(&a, 7);
	a.wc_flags = 1u << 12;
	TEST_CHECK(ev_expect_fail(ctx, &a, &dv, ENOTSUP, &c, "wc_flags + dv mask"));
	TEST_ASSERT_EQUAL(c.allocs, 0, "%u allocations before the checks",
			  c.allocs);

	/* Every supported bit is accepted; flags only count with the mask. */
	ev_cq_attr_init(&a, 7);
	a.wc_flags = IBV_WC_STANDARD_FLAGS |
		     IBV_WC_EX_WITH_COMPLETION_TIMESTAMP |
		     IBV_WC_EX_WITH_CVLAN | IBV_WC_EX_WITH_FLOW_TAG |
		     IBV_WC_EX_WITH_TM_INFO |
		     IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK;
	a.comp_mask = IBV_CQ_INIT_ATTR_MASK_FLAGS;
	a.flags = IBV_CREATE_CQ_ATTR_SINGLE_THREADED |
		  IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN;
	cq = ev_create(ctx, &a, NULL);
	TEST_ASSERT_NOT_NULL(cq, "all supported bits: %s", strerror(errno));
	TEST_ASSERT_SUCCESS(ev_destroy(cq), "destroy");
	ev_cq_attr_init(&a, 7);
	a.flags = 0xffffffff; /* Ignored without IBV_CQ_INIT_ATTR_MASK_FLAGS. */
	cq = ev_create(ctx, &a, NULL);
	TEST_ASSERT_NOT_NULL(cq, "flags without mask: %s", strerror(errno));
	TEST_ASSERT_SUCCESS(ev_destroy(cq), "destroy");
	TEST_ASSERT_EQUAL(c.nlive, 0, "blocks left");
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, NULL), "allocators off");
	TEST_CHECK(ev_close_dev(ctx));
	return TEST_SUCCESS;
}

/* IGNORE_OVERRUN reaches the CQ context (kernel: cqc.oi). */
static int
test_overrun_flag(void)
{
	struct mlx5_emu_cq_info info;
	struct ibv_cq_init_attr_ex a;
	struct ibv_context *ctx;
	struct mlx5dv_cq out;
	struct ibv_cq_ex *cq;
	unsigned int oi;

	ctx = ev_open_dev(NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	for (oi = 0; oi < 2; oi++) {
		ev_cq_attr_init(&a, 15);
		a.comp_mask = IBV_CQ_INIT_ATTR_MASK_FLAGS;
		a.flags = oi ? IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN :
			       IBV_CREATE_CQ_ATTR_SINGLE_THREADED;
		cq = ev_create(ctx, &a, NULL);
		TEST_ASSERT_NOT_NULL(cq, "create: %s", strerror(errno));
		TEST_ASSERT_SUCCESS(ev_dv_cq(cq, &out), "init_obj");
		TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(ctx, out.cqn, &info),
				    "query");
		TEST_ASSERT_EQUAL(info.oi, oi, "cqc.oi %u, want %u", info.oi,
				  oi);
		TEST_ASSERT_SUCCESS(ev_destroy(cq), "destroy");
	}
	TEST_CHECK(ev_close_dev(ctx));
	return TEST_SUCCESS;
}

/*
 * 128 B padding: rdma-core's create_cq() wants the CQE_128B_PAD vendor
 * flag and 128 B CQEs (EINVAL), checked after the ring and record exist:
 * nothing leaks. The kernel (mlx5_ib_query_device()) reports the flag
 * exactly when cqe_128_always is set, and cqe_128_always gates nothing
 * else: plain 128 B CQEs are created without it.
 */
static int
test_reject_pad(void)
{
	struct mlx5dv_cq_init_attr dv;
	struct ibv_cq_init_attr_ex a;
	struct mlx5_emu_cq_info info;
	struct mlx5_emu_caps caps;
	struct mlx5dv_context dvc;
	struct ibv_context *ctx;
	struct mlx5dv_cq out;
	struct ibv_cq_ex *cq;
	struct cnt_alloc c;

	ctx = ev_open_dev(NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	memset(&c, 0, sizeof(c));
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, &c), "allocators");
	ev_cq_attr_init(&a, 31);
	memset(&dv, 0, sizeof(dv));
	dv.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_FLAGS;
	dv.flags = MLX5DV_CQ_INIT_ATTR_FLAGS_CQE_PAD;
	TEST_CHECK(ev_expect_fail(ctx, &a, &dv, EINVAL, &c, "pad with 64 B"));
	TEST_ASSERT_EQUAL(c.allocs, 2, "ring and record page allocated: %u",
			  c.allocs);
	dv.flags = MLX5DV_CQ_INIT_ATTR_FLAGS_RESERVED;
	TEST_CHECK(ev_expect_fail(ctx, &a, &dv, EINVAL, &c, "dv flag RESERVED"));
	dv.flags = 1u << 31;
	TEST_CHECK(ev_expect_fail(ctx, &a, &dv, EINVAL, &c, "dv flag bit 31"));
	dv.comp_mask |= MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE;
	dv.cqe_size = 128;
	dv.flags = MLX5DV_CQ_INIT_ATTR_FLAGS_CQE_PAD;
	cq = ev_create(ctx, &a, &dv);
	TEST_ASSERT_NOT_NULL(cq, "pad 128: %s", strerror(errno));
	TEST_ASSERT_SUCCESS(ev_dv_cq(cq, &out), "init_obj");
	TEST_ASSERT_EQUAL(out.cqe_size, 128, "cqe_size %u", out.cqe_size);
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(ctx, out.cqn, &info), "query");
	TEST_ASSERT_EQUAL(info.cqe_sz, 2, "cqc.cqe_sz %u (padded is 2)",
			  info.cqe_sz);
	TEST_ASSERT_SUCCESS(ev_destroy(cq), "destroy");
	TEST_ASSERT_EQUAL(c.nlive, 0, "blocks left");
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, NULL), "allocators off");
	TEST_CHECK(ev_close_dev(ctx));

	/* No cqe_128_always: no vendor flag, rdma-core refuses padding. */
	ev_default_caps(&caps);
	caps.cqe_128_always = 0;
	ctx = ev_open_dev(&caps);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	memset(&dvc, 0, sizeof(dvc));
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_query_device(ctx, &dvc), "query");
	TEST_ASSERT_EQUAL((dvc.flags & MLX5DV_CONTEXT_FLAGS_CQE_128B_PAD), 0,
			  "CQE_128B_PAD without cqe_128_always");
	memset(&c, 0, sizeof(c));
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, &c), "allocators");
	TEST_CHECK(ev_expect_fail(ctx, &a, &dv, EINVAL, &c,
			       "pad, no cqe_128_always"));
	TEST_ASSERT_EQUAL(c.allocs, 2, "allocations %u", c.allocs);
	/* Plain 128 B CQEs need no capability. */
	dv.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE;
	dv.flags = 0;
	cq = ev_create(ctx, &a, &dv);
	TEST_ASSERT_NOT_NULL(cq, "128 B, no cqe_128_always: %s",
			     strerror(errno));
	TEST_ASSERT_SUCCESS(ev_dv_cq(cq, &out), "init_obj");
	TEST_ASSERT_EQUAL(out.cqe_size, 128, "cqe_size %u", out.cqe_size);
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(ctx, out.cqn, &info), "query");
	TEST_ASSERT_EQUAL(info.cqe_sz, 1, "cqc.cqe_sz %u (plain 128 B is 1)",
			  info.cqe_sz);
	TEST_ASSERT_SUCCESS(ev_destroy(cq), "destroy");
	TEST_ASSERT_EQUAL(c.nlive, 0, "blocks left");
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, NULL), "allocators off");
	TEST_CHECK(ev_close_dev(ctx));
	return TEST_SUCCESS;
}

static int
check_comp_ok(struct ibv_context *ctx, uint16_t cqe_size, uint8_t fmt,
	      uint8_t want_hw)
{
	struct mlx5dv_cq_init_attr dv;
	struct ibv_cq_init_attr_ex a;
	struct mlx5_emu_cq_info info;
	struct mlx5dv_cq out;
	struct ibv_cq_ex *cq;

	ev_cq_attr_init(&a, 127);
	memset(&dv, 0, sizeof(dv));
	dv.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE |
		       MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE;
	dv.cqe_comp_res_format = fmt;
	dv.cqe_size = cqe_size;
	cq = ev_create(ctx, &a, &dv);
	TEST_ASSERT_NOT_NULL(cq, "format 0x%x, %u B: %s", fmt, cqe_size,
			     strerror(errno));
	TEST_ASSERT_SUCCESS(ev_dv_cq(cq, &out), "init_obj");
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(ctx, out.cqn, &info), "query");
	TEST_ASSERT_EQUAL(info.cqe_comp_en, 1, "cqe_comp_en");
	TEST_ASSERT_EQUAL(info.mini_cqe_res_format, want_hw,
			  "format 0x%x: mini_cqe_res_format %u, want %u", fmt,
			  info.mini_cqe_res_format, want_hw);
	TEST_ASSERT_EQUAL(info.cqe_comp_layout, 0, "layout");
	TEST_ASSERT_SUCCESS(ev_destroy(cq), "destroy");
	return TEST_SUCCESS;
}

/*
 * Compression. rdma-core: max_num != 0 and at least one requested format
 * bit among the device's formats, else EINVAL. Kernel: 128 B compression
 * needs cqe_compression_128 (EOPNOTSUPP); the format must be exactly one
 * of HASH, CSUM, CSUM_STRIDX (several bits: EINVAL), written to the CQ
 * context as 0, 1, 3.
 */
static int
test_reject_compression(void)
{
	struct mlx5dv_cq_init_attr dv;
	struct ibv_cq_init_attr_ex a;
	struct mlx5_emu_caps caps;
	struct ibv_context *ctx;
	struct cnt_alloc c;

	ctx = ev_open_dev(NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	TEST_CHECK(check_comp_ok(ctx, 64, MLX5DV_CQE_RES_FORMAT_HASH, 0));
	TEST_CHECK(check_comp_ok(ctx, 64, MLX5DV_CQE_RES_FORMAT_CSUM, 1));
	TEST_CHECK(check_comp_ok(ctx, 64, MLX5DV_CQE_RES_FORMAT_CSUM_STRIDX, 3));
	TEST_CHECK(check_comp_ok(ctx, 128, MLX5DV_CQE_RES_FORMAT_CSUM, 1));
	memset(&c, 0, sizeof(c));
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, &c), "allocators");
	ev_cq_attr_init(&a, 127);
	memset(&dv, 0, sizeof(dv));
	dv.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE;
	dv.cqe_comp_res_format = 0;
	TEST_CHECK(ev_expect_fail(ctx, &a, &dv, EINVAL, &c, "format 0"));
	dv.cqe_comp_res_format = 1u << 3;
	TEST_CHECK(ev_expect_fail(ctx, &a, &dv, EINVAL, &c, "format bit 3"));
	/* rdma-core lets several bits through; the kernel does not. */
	dv.cqe_comp_res_format = MLX5DV_CQE_RES_FORMAT_HASH |
				 MLX5DV_CQE_RES_FORMAT_CSUM;
	TEST_CHECK(ev_expect_fail(ctx, &a, &dv, EINVAL, &c, "HASH|CSUM"));
	dv.cqe_comp_res_format = MLX5DV_CQE_RES_FORMAT_CSUM |
				 MLX5DV_CQE_RES_FORMAT_CSUM_STRIDX;
	TEST_CHECK(ev_expect_fail(ctx, &a, &dv, EINVAL, &c, "CSUM|CSUM_STRIDX"));
	dv.cqe_comp_res_format = MLX5DV_CQE_RES_FORMAT_HASH | (1u << 3);
	TEST_CHECK(ev_expect_fail(ctx, &a, &dv, EINVAL, &c, "HASH|bit 3"));
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, NULL), "allocators off");
	TEST_CHECK(ev_close_dev(ctx));

	/* No compression at all: max_num 0, rdma-core refuses. */
	ev_default_caps(&caps);
	caps.cqe_compression = 0;
	caps.cqe_compression_128 = 0;
	ctx = ev_open_dev(&caps);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	memset(&c, 0, sizeof(c));
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, &c), "allocators");
	dv.cqe_comp_res_format = MLX5DV_CQE_RES_FORMAT_HASH;
	TEST_CHECK(ev_expect_fail(ctx, &a, &dv, EINVAL, &c, "no compression"));
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, NULL), "allocators off");
	TEST_CHECK(ev_close_dev(ctx));

	/*
	 * No stride index: the device does not report CSUM_STRIDX, so
	 * rdma-core refuses it alone (EINVAL); mixed with HASH it passes
	 * rdma-core and the kernel refuses the two bits (EINVAL).
	 */
	ev_default_caps(&caps);
	caps.mini_cqe_resp_stride_index = 0;
	ctx = ev_open_dev(&caps);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	memset(&c, 0, sizeof(c));
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, &c), "allocators");
	dv.cqe_comp_res_format = MLX5DV_CQE_RES_FORMAT_CSUM_STRIDX;
	TEST_CHECK(ev_expect_fail(ctx, &a, &dv, EINVAL, &c, "CSUM_STRIDX, no cap"));
	dv.cqe_comp_res_format = MLX5DV_CQE_RES_FORMAT_HASH |
				 MLX5DV_CQE_RES_FORMAT_CSUM_STRIDX;
	TEST_CHECK(ev_expect_fail(ctx, &a, &dv, EINVAL, &c, "HASH|CSUM_STRIDX"));
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, NULL), "allocators off");
	TEST_CHECK(check_comp_ok(ctx, 64, MLX5DV_CQE_RES_FORMAT_CSUM, 1));
	TEST_CHECK(ev_close_dev(ctx));

	/* 64 B compression only: the kernel refuses 128 B. */
	ev_default_caps(&caps);
	caps.cqe_compression_128 = 0;
	ctx = ev_open_dev(&caps);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	memset(&c, 0, sizeof(c));
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, &c), "allocators");
	dv.comp_mask |= MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE;
	dv.cqe_size = 128;
	dv.cqe_comp_res_format = MLX5DV_CQE_RES_FORMAT_HASH;
	TEST_CHECK(ev_expect_fail(ctx, &a, &dv, EOPNOTSUPP, &c, "128 B compression"));
	TEST_ASSERT_EQUAL(c.allocs, 2, "allocations %u", c.allocs);
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, NULL), "allocators off");
	TEST_CHECK(check_comp_ok(ctx, 64, MLX5DV_CQE_RES_FORMAT_HASH, 0));
	TEST_CHECK(ev_close_dev(ctx));
	return TEST_SUCCESS;
}

/* Completion vector: below num_comp_vectors (kernel core), EQ of it. */
static int
test_comp_vector(void)
{
	struct ibv_cq_init_attr_ex a;
	struct mlx5_emu_cq_info info;
	struct mlx5_emu_caps caps;
	struct ibv_context *ctx;
	struct mlx5dv_cq out;
	struct ibv_cq_ex *cq;
	struct cnt_alloc c;
	uint32_t v, eqn;

	ev_default_caps(&caps);
	caps.num_comp_vectors = 3;
	ctx = ev_open_dev(&caps);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	for (v = 0; v < 3; v++) {
		ev_cq_attr_init(&a, 7);
		a.comp_vector = v;
		cq = ev_create(ctx, &a, NULL);
		TEST_ASSERT_NOT_NULL(cq, "vector %u: %s", v, strerror(errno));
		TEST_ASSERT_SUCCESS(ev_dv_cq(cq, &out), "init_obj");
		TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(ctx, out.cqn, &info),
				    "query");
		TEST_ASSERT_SUCCESS(mlx5_glue->devx_query_eqn(ctx, v, &eqn),
				    "query_eqn");
		TEST_ASSERT_EQUAL(info.eqn, eqn, "vector %u: eqn %u, want %u",
				  v, info.eqn, eqn);
		TEST_ASSERT_SUCCESS(ev_destroy(cq), "destroy");
	}
	memset(&c, 0, sizeof(c));
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, &c), "allocators");
	a.comp_vector = 3;
	TEST_CHECK(ev_expect_fail(ctx, &a, NULL, EINVAL, &c, "vector 3 of 3"));
	a.comp_vector = UINT32_MAX;
	TEST_CHECK(ev_expect_fail(ctx, &a, NULL, EINVAL, &c, "vector UINT32_MAX"));
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, NULL), "allocators off");
	TEST_CHECK(ev_close_dev(ctx));
	return TEST_SUCCESS;
}

/* ---- init_obj and the returned CQ ------------------------------------ */

static int
test_init_obj(void)
{
	struct ibv_cq_init_attr_ex a;
	struct mlx5_emu_cq_info info[2];
	struct mlx5dv_cq out[2];
	struct ibv_cq_ex *cq[2];
	struct ibv_context *ctx;
	struct ibv_cq *icq;
	int tag = 42;
	unsigned int i;

	ctx = ev_open_dev(NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	for (i = 0; i < 2; i++) {
		ev_cq_attr_init(&a, 100);
		a.cq_context = &tag;
		cq[i] = ev_create(ctx, &a, NULL);
		TEST_ASSERT_NOT_NULL(cq[i], "create: %s", strerror(errno));
		TEST_ASSERT_SUCCESS(ev_dv_cq(cq[i], &out[i]), "init_obj");
		TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(ctx, out[i].cqn,
						      &info[i]), "query");
	}
	for (i = 0; i < 2; i++) {
		icq = mlx5_glue->cq_ex_to_cq(cq[i]);
		TEST_ASSERT(icq == (struct ibv_cq *)cq[i], "cq_ex_to_cq cast");
		TEST_ASSERT(icq->context == ctx, "context");
		TEST_ASSERT(icq->cq_context == &tag, "cq_context");
		TEST_ASSERT_NULL(icq->channel, "channel");
		TEST_ASSERT_EQUAL(icq->cqe, 127, "cqe %d", icq->cqe);
		TEST_ASSERT_EQUAL(icq->comp_events_completed, 0, "events");
		TEST_ASSERT_EQUAL(icq->async_events_completed, 0, "events");
		TEST_ASSERT_EQUAL(out[i].comp_mask, 0, "comp_mask");
		TEST_ASSERT_EQUAL(out[i].cqe_cnt, 128, "cqe_cnt %u",
				  out[i].cqe_cnt);
		TEST_ASSERT_EQUAL(out[i].cqe_size, 64, "cqe_size");
		TEST_ASSERT_EQUAL(out[i].cqn, info[i].cqn, "cqn");
		TEST_ASSERT(out[i].buf == info[i].ring,
			    "buf %p, firmware ring %p", out[i].buf,
			    info[i].ring);
		TEST_ASSERT(out[i].dbrec == (void *)(uintptr_t)info[i].dbrec,
			    "dbrec");
		TEST_ASSERT_EQUAL((uintptr_t)out[i].buf % PAGE_SZ, 0,
				  "ring not page aligned: %p", out[i].buf);
		TEST_ASSERT_EQUAL(out[i].dbrec[0], 0, "dbrec word 0");
		TEST_ASSERT_EQUAL(out[i].dbrec[1], 0, "dbrec word 1");
		TEST_ASSERT_NOT_NULL(out[i].cq_uar, "cq_uar");
		TEST_ASSERT_EQUAL(info[i].log_page_size, 0, "log_page_size");
	}
	TEST_ASSERT_NOT_EQUAL(out[0].cqn, out[1].cqn, "two CQs, one cqn");
	/* One context UAR for every CQ of the context (rdma-core cq_uar). */
	TEST_ASSERT(out[0].cq_uar == out[1].cq_uar, "cq_uar differs");
	TEST_ASSERT_EQUAL(info[0].uar_page, info[1].uar_page, "uar_page");
	for (i = 0; i < 2; i++)
		TEST_ASSERT_SUCCESS(ev_destroy(cq[i]), "destroy");
	TEST_CHECK(ev_close_dev(ctx));
	return TEST_SUCCESS;
}

/* ---- initial ring image ---------------------------------------------- */

/*
 * rdma-core mlx5_alloc_cq_buf(): the ring (entries * CQE size bytes) is
 * zeroed and every 64 B CQE gets op_own = MLX5_CQE_INVALID << 4 = 0xf0
 * (byte 63; byte 127 of a 128 B entry, whose first half stays zero).
 * The image is written here by hand and compared byte for byte.
 */
static int
check_initial_image(struct ibv_context *ctx, uint32_t cqe, uint16_t size,
		    int pad, const char *what)
{
	struct mlx5dv_cq_init_attr dv;
	struct ibv_cq_init_attr_ex a;
	struct mlx5dv_cq out;
	struct ibv_cq_ex *cq;
	uint8_t *want;
	size_t bytes, i;
	int diff;

	ev_cq_attr_init(&a, cqe);
	memset(&dv, 0, sizeof(dv));
	dv.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE;
	dv.cqe_size = size;
	if (pad) {
		dv.comp_mask |= MLX5DV_CQ_INIT_ATTR_MASK_FLAGS;
		dv.flags = MLX5DV_CQ_INIT_ATTR_FLAGS_CQE_PAD;
	}
	cq = ev_create(ctx, &a, &dv);
	TEST_ASSERT_NOT_NULL(cq, "%s: %s", what, strerror(errno));
	TEST_ASSERT_SUCCESS(ev_dv_cq(cq, &out), "init_obj");
	bytes = (size_t)out.cqe_cnt * size;
	want = calloc(1, bytes);
	TEST_ASSERT_NOT_NULL(want, "calloc");
	for (i = 0; i < out.cqe_cnt; i++) {
		if (size == 64)
			want[i * 64 + 63] = 0xf0;
		else
			want[i * 128 + 127] = 0xf0;
	}
	diff = memcmp(out.buf, want, bytes);
	for (i = 0; diff && i < bytes; i++) {
		if (((uint8_t *)out.buf)[i] != want[i]) {
			printf("  %s: byte %zu is 0x%02x, want 0x%02x\n", what,
			       i, ((uint8_t *)out.buf)[i], want[i]);
			break;
		}
	}
	free(want);
	TEST_ASSERT_SUCCESS(ev_destroy(cq), "destroy");
	TEST_ASSERT_EQUAL(diff, 0, "%s: initial ring image differs", what);
	return TEST_SUCCESS;
}

static int
test_initial_op_own(void)
{
	struct ibv_context *ctx;
	struct cnt_alloc c;

	ctx = ev_open_dev(NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	TEST_CHECK(check_initial_image(ctx, 1, 64, 0, "2 x 64"));
	TEST_CHECK(check_initial_image(ctx, 255, 64, 0, "256 x 64"));
	TEST_CHECK(check_initial_image(ctx, 255, 128, 0, "256 x 128"));
	TEST_CHECK(check_initial_image(ctx, 255, 128, 1, "256 x 128 padded"));
	/* The allocator hands out 0x5a-filled memory: the ring is zeroed. */
	memset(&c, 0, sizeof(c));
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, &c), "allocators");
	TEST_CHECK(check_initial_image(ctx, 1000, 64, 0, "1024 x 64 ext"));
	TEST_CHECK(check_initial_image(ctx, 1000, 128, 0, "1024 x 128 ext"));
	TEST_ASSERT_EQUAL(c.nlive, 0, "blocks left");
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, NULL), "allocators off");
	TEST_CHECK(ev_close_dev(ctx));
	return TEST_SUCCESS;
}

static struct unit_test_suite emu_verbs_suite = {
	.suite_name = "emu_verbs",
	.setup = ev_suite_setup,
	.teardown = ev_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_sizes),
		TEST_CASE(test_size_limits),
		TEST_CASE(test_cqe_size),
		TEST_CASE(test_reject_early),
		TEST_CASE(test_overrun_flag),
		TEST_CASE(test_reject_pad),
		TEST_CASE(test_reject_compression),
		TEST_CASE(test_comp_vector),
		TEST_CASE(test_init_obj),
		TEST_CASE(test_initial_op_own),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(emu_verbs, emu_verbs_suite);
