/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "create_rules": what rte_mlx5cq_create() accepts and refuses on
 * each path for the capability-dependent rules, with the errno of the
 * component that owns the rule on a real card:
 *
 * - verbs: rdma-core's create_cq() (providers/mlx5/verbs.c, v44) refuses
 *   with EINVAL compression when cqe_comp_caps.max_num is 0 or no
 *   requested format is in supported_format, and CQE_PAD without the
 *   vendor flag MLX5DV_CONTEXT_FLAGS_CQE_128B_PAD or 128 B CQEs; then the
 *   kernel's create_cq_user() (drivers/infiniband/hw/mlx5/cq.c) refuses
 *   128 B compression without cqe_compression_128 (EOPNOTSUPP) and
 *   several format bits (mini_cqe_res_format_to_hw(), EINVAL);
 * - DevX: the library checks the HCA_CAP field behind each cqc setting and
 *   answers EOPNOTSUPP, as create_cq_user() does for the same capability;
 * - collapsed CQs (cqc.cc) and solicited CQEs breaking moderation
 *   (cqc.scqe_break_moderation_en, with HCA_CAP.scqe_break_moderation)
 *   are DevX only: mlx5dv_create_cq() has no attribute for them; a
 *   collapsed CQ is not compressed (a session needs several entries);
 * - cqe_128_always gates the padded 128 B stride only: plain 128 B CQEs
 *   are made on both paths without it (create_cq_user(), mlx5e and DPDK's
 *   mlx5_devx_cmd_create_cq() read it that way), and the kernel reports
 *   CQE_128B_PAD exactly when it is set (mlx5_ib_query_device()).
 *
 * Every verbs-path answer is compared with the emulated HCA's model of
 * rdma-core, asked directly with the same mlx5dv attributes. Refusals
 * leave rte_malloc, umems, objects, CQs and doorbell slots as they were
 * and send no firmware command.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include <mlx5_glue.h>

#include <rte_mlx5cq.h>
#include <mlx5_emu.h>

#include "test.h"
#include "test_create_fixture.h"

/* ---- resources in use -------------------------------------------------- */

/* Same resources in use; with no_cmd, no firmware command sent either. */
static int
rules_same(const struct snap *a, const struct snap *b, int no_cmd,
	   const char *what)
{
	TEST_CHECK(snap_same(a, b, what));
	TEST_ASSERT(!no_cmd || a->emu.cmds == b->emu.cmds,
		    "%s: %" PRIu64 " firmware commands sent", what,
		    (uint64_t)(b->emu.cmds - a->emu.cmds));
	return TEST_SUCCESS;
}

/* ---- capability sets --------------------------------------------------- */

static void
caps_no_always128(struct mlx5_emu_caps *c)
{
	c->cqe_128_always = 0;
}

static void
caps_no_oi(struct mlx5_emu_caps *c)
{
	c->cq_oi = 0;
}

static void
caps_no_scqe(struct mlx5_emu_caps *c)
{
	c->scqe_break_moderation = 0;
}

static void
caps_no_comp(struct mlx5_emu_caps *c)
{
	c->cqe_compression = 0;
}

static void
caps_no_stridx(struct mlx5_emu_caps *c)
{
	c->mini_cqe_resp_stride_index = 0;
}

static void
caps_no_comp128(struct mlx5_emu_caps *c)
{
	c->cqe_compression_128 = 0;
}

static void
caps_no_comp128_always128(struct mlx5_emu_caps *c)
{
	c->cqe_compression_128 = 0;
	c->cqe_128_always = 0;
}

static void
caps_no_ftag(struct mlx5_emu_caps *c)
{
	c->mini_cqe_resp_flow_tag = 0;
}

static void
caps_no_l34h(struct mlx5_emu_caps *c)
{
	c->mini_cqe_resp_l3_l4_tag = 0;
}

static void
caps_no_enhanced(struct mlx5_emu_caps *c)
{
	c->enhanced_cqe_compression = 0;
}

/* ---- the rules --------------------------------------------------------- */

/*
 * One request on a device with the given capabilities, and the errno each
 * path answers (0: created). dv_format is the cqe_comp_res_format the same
 * request has in rdma-core's terms (MLX5DV_CQE_RES_FORMAT_*; bits 3 and 4
 * are bits rdma-core has no format for); no_dv marks a request mlx5dv
 * cannot express (the enhanced layout).
 */
struct rule_case {
	const char *name;
	void (*tweak)(struct mlx5_emu_caps *c);
	uint16_t cqe_size;
	uint8_t pad;
	uint8_t format; /* RTE_MLX5CQ_COMP_* or 0 */
	uint8_t layout;
	uint32_t dv_format;
	uint8_t no_dv;
	int devx_err;
	int verbs_err;
	uint32_t flags; /* RTE_MLX5CQ_F_* (IGNORE_OVERRUN on verbs too). */
};

#define HASH RTE_MLX5CQ_COMP_HASH
#define CSUM RTE_MLX5CQ_COMP_CSUM
#define STRIDX RTE_MLX5CQ_COMP_CSUM_STRIDX
#define FTAG RTE_MLX5CQ_COMP_FTAG_STRIDX
#define L34H RTE_MLX5CQ_COMP_L34H_STRIDX
#define ENH RTE_MLX5CQ_COMP_LAYOUT_ENHANCED
#define DV_HASH MLX5DV_CQE_RES_FORMAT_HASH
#define DV_CSUM MLX5DV_CQE_RES_FORMAT_CSUM
#define DV_STRIDX MLX5DV_CQE_RES_FORMAT_CSUM_STRIDX

static const struct rule_case rule_cases[] = {
	/* cqe_128_always: the padded stride only. */
	{ "128 B without cqe_128_always", caps_no_always128, 128, 0, 0, 0,
	  0, 0, 0, 0 },
	{ "padded without cqe_128_always", caps_no_always128, 128, 1, 0, 0,
	  0, 0, EOPNOTSUPP, EINVAL },
	{ "padded with cqe_128_always", NULL, 128, 1, 0, 0, 0, 0, 0, 0 },
	/* Compression: rdma-core's checks (EINVAL) on verbs. */
	{ "HASH without cqe_compression", caps_no_comp, 64, 0, HASH, 0,
	  DV_HASH, 0, EOPNOTSUPP, EINVAL },
	{ "CSUM_STRIDX without stride index", caps_no_stridx, 64, 0, STRIDX,
	  0, DV_STRIDX, 0, EOPNOTSUPP, EINVAL },
	{ "CSUM_STRIDX with stride index", NULL, 64, 0, STRIDX, 0,
	  DV_STRIDX, 0, 0, 0 },
	{ "FTAG_STRIDX", NULL, 64, 0, FTAG, 0, 1u << 3, 0, 0, EINVAL },
	{ "FTAG_STRIDX without flow tag", caps_no_ftag, 64, 0, FTAG, 0,
	  1u << 3, 0, EOPNOTSUPP, EINVAL },
	{ "L34H_STRIDX", NULL, 64, 0, L34H, 0, 1u << 4, 0, 0, EINVAL },
	{ "L34H_STRIDX without L3/L4 tag", caps_no_l34h, 64, 0, L34H, 0,
	  1u << 4, 0, EOPNOTSUPP, EINVAL },
	/* The kernel's check after rdma-core's: EOPNOTSUPP on both. */
	{ "HASH 128 B without cqe_compression_128", caps_no_comp128, 128, 0,
	  HASH, 0, DV_HASH, 0, EOPNOTSUPP, EOPNOTSUPP },
	/* rdma-core's padding check comes before the kernel's. */
	{ "padded HASH 128 B without either", caps_no_comp128_always128, 128,
	  1, HASH, 0, DV_HASH, 0, EOPNOTSUPP, EINVAL },
	/* Enhanced layout: no such mlx5dv attribute (library policy). */
	{ "enhanced CSUM", NULL, 64, 0, CSUM, ENH, 0, 1, 0, EOPNOTSUPP },
	{ "enhanced CSUM without the cap", caps_no_enhanced, 64, 0, CSUM, ENH,
	  0, 1, EOPNOTSUPP, EOPNOTSUPP },
	/* cqc.oi: the library checks cq_oi on DevX; on verbs the kernel
	 * sets the bit unchecked and the firmware refuses it (EINVAL).
	 */
	{ "ignore overrun", NULL, 64, 0, 0, 0, 0, 0, 0, 0,
	  RTE_MLX5CQ_F_IGNORE_OVERRUN },
	{ "ignore overrun without cq_oi", caps_no_oi, 64, 0, 0, 0, 0, 0,
	  EOPNOTSUPP, EINVAL, RTE_MLX5CQ_F_IGNORE_OVERRUN },
	/* cqc.cc and cqc.scqe_break_moderation_en: no mlx5dv attribute
	 * (library policy on verbs); the second needs its HCA_CAP bit.
	 */
	{ "collapsed", NULL, 64, 0, 0, 0, 0, 1, 0, EOPNOTSUPP,
	  RTE_MLX5CQ_F_COLLAPSED },
	{ "collapsed HASH", NULL, 64, 0, HASH, 0, 0, 1, EINVAL, EINVAL,
	  RTE_MLX5CQ_F_COLLAPSED },
	{ "scqe breaks moderation", NULL, 64, 0, 0, 0, 0, 1, 0, EOPNOTSUPP,
	  RTE_MLX5CQ_F_SCQE_BREAK_MODERATION },
	{ "scqe breaks moderation without the cap", caps_no_scqe, 64, 0, 0,
	  0, 0, 1, EOPNOTSUPP, EOPNOTSUPP,
	  RTE_MLX5CQ_F_SCQE_BREAK_MODERATION },
};

static void
rule_attr(const struct rule_case *rc, enum rte_mlx5cq_path path,
	  struct rte_mlx5cq_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->cqe = 31;
	a->socket = SOCKET_ID_ANY;
	a->path = path;
	a->comp_mask = RTE_MLX5CQ_ATTR_CQE_SIZE;
	a->cqe_size = rc->cqe_size;
	a->flags = rc->flags;
	if (rc->pad)
		a->flags |= RTE_MLX5CQ_F_CQE_PAD;
	if (rc->format) {
		a->comp_mask |= RTE_MLX5CQ_ATTR_COMPRESSED;
		a->comp_format = rc->format;
		a->comp_layout = rc->layout;
	}
}

/* Created: the CQ is what was asked, the firmware holds the stride. */
static int
check_made(struct ibv_context *ctx, struct rte_mlx5cq *cq,
	   const struct rule_case *rc, const char *what)
{
	struct rte_mlx5cq_info info;
	struct mlx5_emu_cq_info fw;
	unsigned int want_sz;

	TEST_ASSERT_SUCCESS(rte_mlx5cq_info_get(cq, &info), "%s: info", what);
	TEST_ASSERT_EQUAL(info.cqe_size, rc->cqe_size, "%s: cqe_size %u",
			  what, info.cqe_size);
	TEST_ASSERT_EQUAL(info.cqe_pad, rc->pad, "%s: cqe_pad %u", what,
			  info.cqe_pad);
	TEST_ASSERT_EQUAL(info.comp_format, rc->format, "%s: format %#x",
			  what, info.comp_format);
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(ctx, info.cqn, &fw),
			    "%s: firmware query", what);
	/* PRM cqc.cqe_sz: 0 64 B, 1 128 B, 2 128 B padded. */
	want_sz = rc->cqe_size == 64 ? 0 : (rc->pad ? 2 : 1);
	TEST_ASSERT_EQUAL(fw.cqe_sz, want_sz, "%s: cqc.cqe_sz %u, want %u",
			  what, fw.cqe_sz, want_sz);
	TEST_ASSERT_EQUAL(fw.cqe_comp_en, (rc->format != 0),
			  "%s: cqe_comp_en %u", what, fw.cqe_comp_en);
	TEST_ASSERT_EQUAL(fw.scqe_break_moderation_en,
			  !!(rc->flags & RTE_MLX5CQ_F_SCQE_BREAK_MODERATION),
			  "%s: scqe_break_moderation_en %u", what,
			  fw.scqe_break_moderation_en);
	TEST_ASSERT_EQUAL((info.flags & RTE_MLX5CQ_F_COLLAPSED),
			  (rc->flags & RTE_MLX5CQ_F_COLLAPSED),
			  "%s: flags %#x", what, info.flags);
	TEST_ASSERT_EQUAL(fw.cc, !!(rc->flags & RTE_MLX5CQ_F_COLLAPSED),
			  "%s: cqc.cc %u", what, fw.cc);
	return TEST_SUCCESS;
}

/* The library on one path: created or refused with the errno expected. */
static int
check_library(struct ibv_context *ctx, struct rte_mlx5cq_dev *dev,
	      const struct rule_case *rc, enum rte_mlx5cq_path path,
	      int err, const char *what)
{
	struct snap before, after;
	struct rte_mlx5cq_attr a;
	struct rte_mlx5cq *cq;
	int ret;

	rule_attr(rc, path, &a);
	TEST_ASSERT_SUCCESS(snap_take(ctx, dev, &before), "snap");
	rte_errno = 0;
	cq = rte_mlx5cq_create(dev, &a);
	if (err == 0) {
		TEST_ASSERT_NOT_NULL(cq, "%s: refused, errno %d (%s)", what,
				     rte_errno, strerror(rte_errno));
		ret = check_made(ctx, cq, rc, what);
		TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "%s: destroy",
				    what);
		TEST_ASSERT_SUCCESS(ret, "%s: not as asked", what);
	} else {
		if (cq != NULL)
			rte_mlx5cq_destroy(cq);
		TEST_ASSERT_NULL(cq, "%s: created", what);
		TEST_ASSERT_EQUAL(rte_errno, err,
				  "%s: errno %d (%s), expected %d (%s)", what,
				  rte_errno, strerror(rte_errno), err,
				  strerror(err));
	}
	TEST_ASSERT_SUCCESS(snap_take(ctx, dev, &after), "snap");
	return rules_same(&before, &after, err != 0, what);
}

/*
 * The same request straight to the emulated rdma-core and kernel
 * (mlx5dv_create_cq through the glue): the errno the library must give.
 */
static int
check_rdma_core(struct ibv_context *ctx, const struct rule_case *rc,
		int err, const char *what)
{
	struct mlx5dv_cq_init_attr dv;
	struct ibv_cq_init_attr_ex a;
	struct snap before, after;
	struct ibv_cq_ex *cq;

	memset(&a, 0, sizeof(a));
	a.cqe = 31;
	a.wc_flags = IBV_WC_STANDARD_FLAGS;
	memset(&dv, 0, sizeof(dv));
	dv.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE;
	dv.cqe_size = rc->cqe_size;
	if (rc->format) {
		dv.comp_mask |= MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE;
		dv.cqe_comp_res_format = rc->dv_format;
	}
	if (rc->pad) {
		dv.comp_mask |= MLX5DV_CQ_INIT_ATTR_MASK_FLAGS;
		dv.flags = MLX5DV_CQ_INIT_ATTR_FLAGS_CQE_PAD;
	}
	if (rc->flags & RTE_MLX5CQ_F_IGNORE_OVERRUN) {
		a.comp_mask |= IBV_CQ_INIT_ATTR_MASK_FLAGS;
		a.flags |= IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN;
	}
	TEST_ASSERT_SUCCESS(snap_take(ctx, NULL, &before), "snap");
	errno = 0;
	cq = mlx5_glue->dv_create_cq(ctx, &a, &dv);
	if (err == 0) {
		TEST_ASSERT_NOT_NULL(cq, "%s: rdma-core refused, errno %d",
				     what, errno);
		TEST_ASSERT_SUCCESS(mlx5_glue->destroy_cq(
				    mlx5_glue->cq_ex_to_cq(cq)),
				    "%s: destroy", what);
	} else {
		if (cq != NULL)
			mlx5_glue->destroy_cq(mlx5_glue->cq_ex_to_cq(cq));
		TEST_ASSERT_NULL(cq, "%s: rdma-core created it", what);
		TEST_ASSERT_EQUAL(errno, err,
				  "%s: rdma-core errno %d (%s), library rule"
				  " %d (%s)", what, errno, strerror(errno),
				  err, strerror(err));
	}
	TEST_ASSERT_SUCCESS(snap_take(ctx, NULL, &after), "snap");
	return rules_same(&before, &after, 0, what);
}

static int
run_rule_case(unsigned int i)
{
	const struct rule_case *rc = &rule_cases[i];
	struct mlx5_emu_caps caps;
	struct rte_mlx5cq_dev *dev;
	struct ibv_context *ctx;
	char name[32], what[128];
	int ret;

	mlx5_emu_caps_default(&caps);
	if (rc->tweak != NULL)
		rc->tweak(&caps);
	snprintf(name, sizeof(name), "crules%u", i);
	ctx = mlx5_emu_open(name, &caps);
	TEST_ASSERT_NOT_NULL(ctx, "%s: emu open: %d", rc->name, errno);
	dev = rte_mlx5cq_dev_open(ctx, SOCKET_ID_ANY);
	if (dev == NULL) {
		printf("  %s: dev_open: %d\n", rc->name, rte_errno);
		mlx5_emu_close(ctx);
		return TEST_FAILED;
	}
	snprintf(what, sizeof(what), "%s (devx)", rc->name);
	ret = check_library(ctx, dev, rc, RTE_MLX5CQ_PATH_DEVX, rc->devx_err,
			    what);
	snprintf(what, sizeof(what), "%s (verbs)", rc->name);
	if (ret == TEST_SUCCESS)
		ret = check_library(ctx, dev, rc, RTE_MLX5CQ_PATH_VERBS,
				    rc->verbs_err, what);
	snprintf(what, sizeof(what), "%s (rdma-core)", rc->name);
	if (ret == TEST_SUCCESS && !rc->no_dv)
		ret = check_rdma_core(ctx, rc, rc->verbs_err, what);
	if (rte_mlx5cq_dev_close(dev) != 0) {
		printf("  %s: dev_close: %d\n", rc->name, rte_errno);
		ret = TEST_FAILED;
	}
	if (mlx5_emu_close(ctx) != 0) {
		printf("  %s: emu close failed\n", rc->name);
		ret = TEST_FAILED;
	}
	return ret;
}

static int
test_rules_by_path(void)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(rule_cases); i++)
		TEST_ASSERT_SUCCESS(run_rule_case(i), "case %u: %s", i,
				    rule_cases[i].name);
	return TEST_SUCCESS;
}

static int
rules_setup(void)
{
	int ret = mlx5_emu_install();

	if (ret != 0)
		printf("mlx5_emu_install: %d\n", ret);
	return ret;
}

static struct unit_test_suite create_rules_suite = {
	.suite_name = "create_rules",
	.setup = rules_setup,
	.unit_test_cases = {
		TEST_CASE(test_rules_by_path),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(create_rules, create_rules_suite);
