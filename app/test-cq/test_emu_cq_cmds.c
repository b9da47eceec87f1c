/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_cq_cmds": CREATE_CQ written by hand (every bad field, the
 * capabilities it needs, the ring rules against its umem) and
 * rte_common_mlx5's own mlx5_devx_cq_create() on the model; CQs of two
 * devices side by side.
 * Expected values come from the PRM layouts (mlx5_prm.h, mlx5dv.h), the
 * kernel rules quoted in the model's sources and hand-written CQE images;
 * the fixture is test_emu_fixture.c.
 */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include <rte_byteorder.h>
#include <rte_eal.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>
#include <mlx5_devx_cmds.h>
#include <mlx5_common_devx.h>

#include "mlx5_emu.h"
#include "test.h"
#include "test_dpdk_cq.h"
#include "test_emu_fixture.h"
#include "test_wait.h"

enum mut {
	M_LOG_SIZE, M_CQE_SZ3, M_MINI_EXT2, M_MINI_EXT_FMT, M_LAYOUT2,
	M_LAYOUT_NO_COMP, M_PERIOD_MODE, M_TS_FORMAT, M_STATUS, M_ST,
	M_CONSUMER, M_AS_NOTIFY, M_RES_C, M_RES_7, M_RES_18, M_RES_1C,
	M_RES_2E1, M_RES_300, M_RES_HDR,
	M_OP_MOD, M_PAGE_OFFSET, M_UAR, M_EQN0, M_EQN_HIGH, M_NO_UMEM,
	M_UMEM_ID, M_UMEM_OFFSET, M_UMEM_OFFSET_HUGE, M_LOG_PAGE_SIZE,
	M_NO_DBR, M_DBR_ID, M_DBR_ALIGN, M_DBR_RANGE, M_INLEN, M_OUTLEN,
	M_TRAILING_PAS, M_OPCODE, M_VHCA_TUNNEL,
};

struct mut_case {
	const char *name;
	enum mut m;
	int err; /* errno */
	uint8_t status;
	uint32_t synd;
};

static const struct mut_case mut_cases[] = {
	{ "log_cq_size > max", M_LOG_SIZE, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_LOG_SIZE },
	{ "cqe_sz 3", M_CQE_SZ3, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_CQE_SZ },
	{ "format ext 2", M_MINI_EXT2, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_MINI_FMT },
	{ "format ext 1 + fmt 1", M_MINI_EXT_FMT, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_MINI_FMT },
	{ "layout 2", M_LAYOUT2, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_LAYOUT },
	{ "layout 1 w/o comp", M_LAYOUT_NO_COMP, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_LAYOUT_NO_COMP },
	{ "cq_period_mode 2", M_PERIOD_MODE, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_PERIOD_MODE },
	{ "timestamp format 2", M_TS_FORMAT, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_TS_FORMAT },
	{ "status 1", M_STATUS, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_STATUS },
	{ "st 6", M_ST, EINVAL, CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_STATE },
	{ "consumer_counter 5", M_CONSUMER, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_STATE },
	{ "as_notify", M_AS_NOTIFY, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_UNSUPPORTED },
	{ "cqc reserved_at_c", M_RES_C, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_RESERVED },
	{ "cqc bit 0x07 (ext_element)", M_RES_7, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_RESERVED },
	{ "cqc bit 0x18 (always_armed_cq)", M_RES_18, EINVAL,
	  CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_RESERVED },
	{ "cqc bit 0x1c (reserved)", M_RES_1C, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_RESERVED },
	{ "reserved_at_2e1", M_RES_2E1, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_RESERVED },
	{ "reserved_at_300", M_RES_300, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_RESERVED },
	{ "header reserved_at_40", M_RES_HDR, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_HDR_RESERVED },
	{ "op_mod 1", M_OP_MOD, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_BAD_OP_MOD },
	{ "page_offset 1", M_PAGE_OFFSET, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_PAGE_OFFSET },
	{ "uar not allocated", M_UAR, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_UAR },
	{ "c_eqn 0 (kernel: ENOENT)", M_EQN0, ENOENT, 0, 0 },
	{ "c_eqn past the vectors", M_EQN_HIGH, ENOENT, 0, 0 },
	{ "cq_umem_valid 0", M_NO_UMEM, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_NO_UMEM },
	{ "cq_umem_id unknown", M_UMEM_ID, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_UMEM_ID },
	{ "ring past umem end", M_UMEM_OFFSET, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_UMEM_RANGE },
	{ "offset 2^63", M_UMEM_OFFSET_HUGE, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_UMEM_RANGE },
	{ "log_page_size 10", M_LOG_PAGE_SIZE, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_LOG_PAGE_SIZE },
	{ "dbr_umem_valid 0", M_NO_DBR, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_NO_DBR_UMEM },
	{ "dbr_umem_id unknown", M_DBR_ID, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_DBR_UMEM_ID },
	{ "dbr_addr not 8 B aligned", M_DBR_ALIGN, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_DBR_ALIGN },
	{ "dbr past umem end", M_DBR_RANGE, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_DBR_RANGE },
	{ "inlen 271", M_INLEN, EIO, CMD_STAT_BAD_INP_LEN,
	  MLX5_EMU_SYND_INLEN },
	{ "outlen 8", M_OUTLEN, EIO, CMD_STAT_BAD_OUTP_LEN,
	  MLX5_EMU_SYND_OUTLEN },
	{ "PAS after the mailbox", M_TRAILING_PAS, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_INLINE_PAS },
	{ "opcode CREATE_QP", M_OPCODE, EINVAL, CMD_STAT_BAD_OP,
	  MLX5_EMU_SYND_BAD_OPCODE },
	{ "vhca_tunnel_id (kernel: EINVAL)", M_VHCA_TUNNEL, EINVAL, 0, 0 },
};

static void
apply_mut(enum mut m, uint32_t *in, size_t *inlen, size_t *outlen,
	  const struct cq_env *e)
{
	void *cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	uint8_t *b = (uint8_t *)in;

	switch (m) {
	case M_LOG_SIZE:
		MLX5_SET(cqc, cqc, log_cq_size, 13); break;
	case M_CQE_SZ3:
		MLX5_SET(cqc, cqc, cqe_sz, 3); break;
	case M_MINI_EXT2:
		MLX5_SET(cqc, cqc, mini_cqe_res_format_ext, 2); break;
	case M_MINI_EXT_FMT:
		MLX5_SET(cqc, cqc, mini_cqe_res_format_ext, 1);
		MLX5_SET(cqc, cqc, mini_cqe_res_format, 1); break;
	case M_LAYOUT2:
		MLX5_SET(cqc, cqc, cqe_comp_en, 1);
		MLX5_SET(cqc, cqc, cqe_comp_layout, 2); break;
	case M_LAYOUT_NO_COMP:
		MLX5_SET(cqc, cqc, cqe_comp_layout, 1); break;
	case M_PERIOD_MODE:
		MLX5_SET(cqc, cqc, cq_period_mode, 2); break;
	case M_TS_FORMAT:
		MLX5_SET(cqc, cqc, cq_timestamp_format, 2); break;
	case M_STATUS:
		MLX5_SET(cqc, cqc, status, 1); break;
	case M_ST:
		MLX5_SET(cqc, cqc, st, 6); break;
	case M_CONSUMER:
		MLX5_SET(cqc, cqc, consumer_counter, 5); break;
	case M_AS_NOTIFY:
		MLX5_SET(cqc, cqc, as_notify, 1); break;
	case M_RES_C:
		MLX5_SET(cqc, cqc, reserved_at_c, 1); break;
	/*
	 * By position (the names of these bits differ between DPDK
	 * releases): cqc bit N is in byte N / 8, mask 0x80 >> (N % 8).
	 */
	case M_RES_7:
		((uint8_t *)cqc)[0] |= 0x01; break;
	case M_RES_18:
		((uint8_t *)cqc)[3] |= 0x80; break;
	case M_RES_1C:
		((uint8_t *)cqc)[3] |= 0x08; break;
	case M_RES_2E1:
		MLX5_SET(create_cq_in, in, reserved_at_2e1, 1); break;
	case M_RES_300:
		b[0x300 / 8 + 17] = 0x40; break;
	case M_RES_HDR:
		b[12] = 1; break; /* reserved_at_40 + 0x20 */
	case M_OP_MOD:
		MLX5_SET(create_cq_in, in, op_mod, 1); break;
	case M_PAGE_OFFSET:
		MLX5_SET(cqc, cqc, page_offset, 1); break;
	case M_UAR:
		MLX5_SET(cqc, cqc, uar_page, e->uar->page_id + 1000); break;
	case M_EQN0:
		MLX5_SET(cqc, cqc, c_eqn, 0); break;
	case M_EQN_HIGH:
		MLX5_SET(cqc, cqc, c_eqn, e->eqn + e->ctx->num_comp_vectors);
		break;
	case M_NO_UMEM:
		MLX5_SET(create_cq_in, in, cq_umem_valid, 0); break;
	case M_UMEM_ID:
		MLX5_SET(create_cq_in, in, cq_umem_id, e->umem->umem_id + 77);
		break;
	case M_UMEM_OFFSET:
		emut_set_be64(MLX5_ADDR_OF(create_cq_in, in, cq_umem_offset), 4096);
		break;
	case M_UMEM_OFFSET_HUGE:
		emut_set_be64(MLX5_ADDR_OF(create_cq_in, in, cq_umem_offset),
			 1ull << 63);
		break;
	case M_LOG_PAGE_SIZE:
		MLX5_SET(cqc, cqc, log_page_size, 10); break; /* 4 MiB */
	case M_NO_DBR:
		MLX5_SET(cqc, cqc, dbr_umem_valid, 0); break;
	case M_DBR_ID:
		MLX5_SET(cqc, cqc, dbr_umem_id, e->umem->umem_id + 77); break;
	case M_DBR_ALIGN:
		emut_set_be64(MLX5_ADDR_OF(cqc, cqc, dbr_addr),
			 ((uint64_t)e->stride << e->log_size) + 4);
		break;
	case M_DBR_RANGE:
		emut_set_be64(MLX5_ADDR_OF(cqc, cqc, dbr_addr), e->len);
		break;
	case M_INLEN:
		*inlen = CREATE_CQ_IN_LEN - 1; break;
	case M_OUTLEN:
		*outlen = 8; break;
	case M_TRAILING_PAS:
		*inlen = CREATE_CQ_IN_LEN + 8;
		b[CREATE_CQ_IN_LEN + 3] = 0x10; break;
	case M_OPCODE:
		MLX5_SET(create_cq_in, in, opcode, 0x500); break;
	case M_VHCA_TUNNEL:
		b[4] = 1; break;
	}
}

/* One creation that must fail, leaving nothing behind. */
static int
expect_create_fail(struct cq_env *e, const uint32_t *in, size_t inlen,
		   size_t outlen, const struct mut_case *mc)
{
	uint32_t out[MLX5_ST_SZ_DW(create_cq_out)];
	struct mlx5_emu_stats s0, s1;
	struct mlx5_emu_umem_info ui;
	struct mlx5dv_devx_obj *obj;
	struct emut_heap hs;
	uint32_t synd = 0, refs;
	uint8_t status = 0;

	memset(out, 0, sizeof(out));
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(e->ctx, &s0), "stats");
	TEST_ASSERT_SUCCESS(mlx5_emu_umem_query(e->ctx, e->umem->umem_id,
						&ui), "umem");
	refs = ui.refcnt;
	emut_heap_snap(&hs);
	errno = 0;
	obj = mlx5_glue->devx_obj_create(e->ctx, in, inlen, out, outlen);
	TEST_ASSERT_NULL(obj, "%s: created", mc->name);
	TEST_ASSERT_EQUAL(errno, mc->err, "%s: errno %d", mc->name, errno);
	TEST_ASSERT_EQUAL(emut_out_status(out), mc->status, "%s: status 0x%x",
			  mc->name, emut_out_status(out));
	if (outlen >= 8)
		TEST_ASSERT_EQUAL(emut_out_syndrome(out), mc->synd,
				  "%s: syndrome 0x%x", mc->name,
				  emut_out_syndrome(out));
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(e->ctx, &s1), "stats");
	if (mc->status != 0) {
		TEST_ASSERT_SUCCESS(mlx5_emu_last_cmd_error(e->ctx, &status,
							    &synd), "err");
		TEST_ASSERT(status == mc->status && synd == mc->synd,
			    "%s: recorded 0x%x/0x%x", mc->name, status, synd);
		TEST_ASSERT_EQUAL(s1.cmd_errors, s0.cmd_errors + 1,
				  "%s: counted", mc->name);
	} else {
		TEST_ASSERT_EQUAL(s1.cmd_errors, s0.cmd_errors,
				  "%s: no firmware error", mc->name);
	}
	TEST_ASSERT(s1.cqs == s0.cqs && s1.devx_objs == s0.devx_objs &&
		    s1.umems == s0.umems, "%s: objects", mc->name);
	TEST_ASSERT_SUCCESS(mlx5_emu_umem_query(e->ctx, e->umem->umem_id,
						&ui), "umem");
	TEST_ASSERT_EQUAL(ui.refcnt, refs, "%s: umem references", mc->name);
	TEST_ASSERT(emut_heap_same(&hs), "%s: rte_malloc unchanged", mc->name);
	return TEST_SUCCESS;
}

static int
test_emu_create_cq_bad_fields(void)
{
	uint32_t in[CREATE_CQ_IN_LEN / 4 + 4];
	uint32_t out[MLX5_ST_SZ_DW(create_cq_out)];
	struct mlx5dv_devx_obj *obj;
	struct ibv_context *ctx;
	struct cq_env e;
	size_t inlen, outlen;
	unsigned int i;
	int ret = TEST_SUCCESS;

	ctx = emut_open_caps("emu_bf0", emut_caps_cqsz12);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	TEST_ASSERT_SUCCESS(emut_env_init(&e, ctx, 10, 64), "env");
	/* The unmodified mailbox is good. */
	emut_build_create_cq(in, &e, 0);
	obj = mlx5_glue->devx_obj_create(ctx, in, CREATE_CQ_IN_LEN, out,
					 sizeof(out));
	TEST_ASSERT_NOT_NULL(obj, "good mailbox: errno %d synd 0x%x", errno,
			     emut_out_syndrome(out));
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(obj), "destroy");
	for (i = 0; i < RTE_DIM(mut_cases) && ret == TEST_SUCCESS; i++) {
		memset(in, 0, sizeof(in));
		emut_build_create_cq(in, &e, 0);
		inlen = CREATE_CQ_IN_LEN;
		outlen = sizeof(out);
		apply_mut(mut_cases[i].m, in, &inlen, &outlen, &e);
		ret = expect_create_fail(&e, in, inlen, outlen, &mut_cases[i]);
	}
	emut_env_fini(&e);
	TEST_ASSERT(emut_stats_idle(ctx), "idle");
	mlx5_emu_close(ctx);
	return ret;
}

static void
caps_no_always128(struct mlx5_emu_caps *c)
{
	c->cqe_128_always = 0;
	c->cqe_compression = 0;
}

static void
caps_partial(struct mlx5_emu_caps *c)
{
	c->cqe_compression_128 = 0;
	c->mini_cqe_resp_flow_tag = 0;
	c->mini_cqe_resp_l3_l4_tag = 0;
	c->enhanced_cqe_compression = 0;
}

static void
caps_two_cqs(struct mlx5_emu_caps *c)
{
	c->log_max_cq = 1;
}

/*
 * A CREATE_CQ with cqc.cqe_sz as given is accepted and the firmware keeps
 * that stride.
 */
static int
expect_create_ok(struct cq_env *e, uint32_t *in, size_t inlen,
		 unsigned int cqe_sz, const char *what)
{
	uint32_t out[MLX5_ST_SZ_DW(create_cq_out)];
	struct mlx5_emu_cq_info info;
	struct mlx5dv_devx_obj *obj;

	memset(out, 0, sizeof(out));
	obj = mlx5_glue->devx_obj_create(e->ctx, in, inlen, out, sizeof(out));
	TEST_ASSERT_NOT_NULL(obj, "%s: errno %d status 0x%x synd 0x%x", what,
			     errno, emut_out_status(out), emut_out_syndrome(out));
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(e->ctx, MLX5_GET(create_cq_out,
				out, cqn), &info), "%s: query", what);
	TEST_ASSERT_EQUAL(info.cqe_sz, cqe_sz, "%s: cqe_sz %u", what,
			  info.cqe_sz);
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(obj), "%s: destroy",
			    what);
	return TEST_SUCCESS;
}

/*
 * Checks that depend on the device's capabilities. cqe_128_always gates
 * the padded stride (cqe_sz 2) only, as the kernel (create_cq_user()) and
 * mlx5e read it: plain 128 B CQEs (cqe_sz 1, what DPDK's
 * mlx5_devx_cmd_create_cq() asks for on 128-byte cache-line builds) are
 * accepted without it.
 */
static int
test_emu_create_cq_caps(void)
{
	static const struct mut_case ccomp = { "comp w/o cap", 0, EINVAL,
		CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_COMP };
	static const struct mut_case cpad = { "pad w/o cqe_128_always", 0,
		EINVAL, CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_CQE_PAD };
	static const struct mut_case ccomp128 = { "comp 128 w/o cap", 0,
		EINVAL, CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_COMP_128 };
	static const struct mut_case cftag = { "ftag w/o cap", 0, EINVAL,
		CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_MINI_FMT_CAP };
	static const struct mut_case cl34 = { "l3/l4 w/o cap", 0, EINVAL,
		CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_MINI_FMT_CAP };
	static const struct mut_case clayout = { "enhanced w/o cap", 0,
		EINVAL, CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_LAYOUT_CAP };
	static const struct mut_case climit = { "third CQ", 0, ENOMEM,
		CMD_STAT_LIM, MLX5_EMU_SYND_CQ_LIMIT };
	uint32_t in[CREATE_CQ_IN_LEN / 4];
	uint32_t out[MLX5_ST_SZ_DW(create_cq_out)];
	struct mlx5dv_devx_obj *obj[2];
	struct mlx5_emu_cq_info info;
	struct ibv_context *cb, *cc, *cd;
	void *cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	struct cq_env eb, ec, ed;
	int ret;

	cb = emut_open_caps("emu_cc0", caps_no_always128);
	cc = emut_open_caps("emu_cc1", caps_partial);
	cd = emut_open_caps("emu_cc2", caps_two_cqs);
	TEST_ASSERT(cb != NULL && cc != NULL && cd != NULL, "open");
	TEST_ASSERT_SUCCESS(emut_env_init(&eb, cb, 6, 128), "env b");
	TEST_ASSERT_SUCCESS(emut_env_init(&ec, cc, 6, 128), "env c");
	TEST_ASSERT_SUCCESS(emut_env_init(&ed, cd, 6, 64), "env d");
	/* Without cqe_128_always: plain 128 B yes, padded no. */
	emut_build_create_cq(in, &eb, 1);
	ret = expect_create_ok(&eb, in, sizeof(in), 1,
			       "128 B w/o cqe_128_always");
	emut_build_create_cq(in, &eb, 2);
	if (ret == 0)
		ret = expect_create_fail(&eb, in, sizeof(in), sizeof(out),
					 &cpad);
	emut_build_create_cq(in, &eb, 0);
	MLX5_SET(cqc, cqc, cqe_comp_en, 1);
	if (ret == 0)
		ret = expect_create_fail(&eb, in, sizeof(in), sizeof(out),
					 &ccomp);
	/* With cqe_128_always (and little else): padded and plain 128 B. */
	emut_build_create_cq(in, &ec, 2);
	if (ret == 0)
		ret = expect_create_ok(&ec, in, sizeof(in), 2,
				       "padded with cqe_128_always");
	emut_build_create_cq(in, &ec, 1);
	if (ret == 0)
		ret = expect_create_ok(&ec, in, sizeof(in), 1,
				       "128 B with cqe_128_always");
	emut_build_create_cq(in, &ec, 1);
	MLX5_SET(cqc, cqc, cqe_comp_en, 1);
	if (ret == 0)
		ret = expect_create_fail(&ec, in, sizeof(in), sizeof(out),
					 &ccomp128);
	emut_build_create_cq(in, &ec, 0);
	MLX5_SET(cqc, cqc, cqe_comp_en, 1);
	MLX5_SET(cqc, cqc, mini_cqe_res_format, 2);
	if (ret == 0)
		ret = expect_create_fail(&ec, in, sizeof(in), sizeof(out),
					 &cftag);
	MLX5_SET(cqc, cqc, mini_cqe_res_format, 0);
	MLX5_SET(cqc, cqc, mini_cqe_res_format_ext, 1);
	if (ret == 0)
		ret = expect_create_fail(&ec, in, sizeof(in), sizeof(out),
					 &cl34);
	MLX5_SET(cqc, cqc, mini_cqe_res_format_ext, 0);
	MLX5_SET(cqc, cqc, cqe_comp_layout, 1);
	if (ret == 0)
		ret = expect_create_fail(&ec, in, sizeof(in), sizeof(out),
					 &clayout);
	if (ret != 0)
		goto out;
	/* What the partial device does support: CSUM_STRIDX compression of
	 * 64 B CQEs (the format reads back from the firmware).
	 */
	MLX5_SET(cqc, cqc, cqe_comp_layout, 0);
	MLX5_SET(cqc, cqc, mini_cqe_res_format, 3);
	obj[0] = mlx5_glue->devx_obj_create(cc, in, sizeof(in), out,
					    sizeof(out));
	TEST_ASSERT_NOT_NULL(obj[0], "csum+stridx");
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(cc, MLX5_GET(create_cq_out, out,
				cqn), &info), "query");
	TEST_ASSERT(info.cqe_comp_en == 1 && info.mini_cqe_res_format == 3,
		    "format kept");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(obj[0]), "destroy");
	/* 2^log_max_cq CQs at most. */
	emut_build_create_cq(in, &ed, 0);
	obj[0] = mlx5_glue->devx_obj_create(cd, in, sizeof(in), out,
					    sizeof(out));
	obj[1] = mlx5_glue->devx_obj_create(cd, in, sizeof(in), out,
					    sizeof(out));
	TEST_ASSERT(obj[0] != NULL && obj[1] != NULL, "two CQs");
	{
		struct mlx5_emu_umem_info ui;

		mlx5_emu_umem_query(cd, ed.umem->umem_id, &ui);
		TEST_ASSERT_EQUAL(ui.refcnt, 2u, "two users");
		TEST_ASSERT_EQUAL(mlx5_glue->devx_umem_dereg(ed.umem), EBUSY,
				  "dereg while used");
		TEST_ASSERT_EQUAL(errno, EBUSY, "EBUSY");
	}
	{
		struct mlx5_emu_stats s0, s1;
		uint8_t st;
		uint32_t sy;

		mlx5_emu_stats_get(cd, &s0);
		TEST_ASSERT_NULL(mlx5_glue->devx_obj_create(cd, in, sizeof(in),
				 out, sizeof(out)), "third");
		TEST_ASSERT_EQUAL(errno, climit.err, "ENOMEM");
		TEST_ASSERT_EQUAL(emut_out_status(out), climit.status, "LIM");
		TEST_ASSERT_EQUAL(emut_out_syndrome(out), climit.synd, "synd");
		mlx5_emu_last_cmd_error(cd, &st, &sy);
		TEST_ASSERT(st == CMD_STAT_LIM && sy == climit.synd, "rec");
		mlx5_emu_stats_get(cd, &s1);
		TEST_ASSERT_EQUAL(s1.cqs, s0.cqs, "still two");
	}
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(obj[0]), "d0");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(obj[1]), "d1");
out:
	emut_env_fini(&eb);
	emut_env_fini(&ec);
	emut_env_fini(&ed);
	TEST_ASSERT(emut_stats_idle(cb) && emut_stats_idle(cc) && emut_stats_idle(cd),
		    "idle");
	mlx5_emu_close(cb);
	mlx5_emu_close(cc);
	mlx5_emu_close(cd);
	return ret;
}

/* Ring alignment, access and page-size rules against the umem. */
static int
test_emu_create_cq_ring_rules(void)
{
	static const struct mut_case calign = { "ring not 4K aligned", 0,
		EINVAL, CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_UMEM_ALIGN };
	static const struct mut_case cro = { "read-only umem", 0, EINVAL,
		CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_UMEM_ACCESS };
	static const struct mut_case cpg = { "2 MiB queue pages, 4K umem",
		0, EINVAL, CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_LOG_PAGE_SIZE };
	uint32_t in[CREATE_CQ_IN_LEN / 4];
	uint32_t out[MLX5_ST_SZ_DW(create_cq_out)];
	void *cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	struct mlx5dv_devx_umem *um_odd, *um_ro, *saved;
	struct ibv_context *ctx;
	struct cq_env e;
	int ret;

	ctx = mlx5_emu_open("emu_rr0", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	TEST_ASSERT_SUCCESS(emut_env_init(&e, ctx, 6, 64), "env");
	saved = e.umem;
	/* A umem starting 64 B into the buffer: the ring at offset 0 of it
	 * is not on a 4 KiB boundary.
	 */
	um_odd = mlx5_glue->devx_umem_reg(ctx, e.buf + 64, e.len - 64,
					  IBV_ACCESS_LOCAL_WRITE);
	um_ro = mlx5_glue->devx_umem_reg(ctx, e.buf, e.len, 0);
	TEST_ASSERT(um_odd != NULL && um_ro != NULL, "umems");
	e.umem = um_odd;
	emut_build_create_cq(in, &e, 0);
	emut_set_be64(MLX5_ADDR_OF(cqc, cqc, dbr_addr), 4096 - 64);
	e.umem = um_odd;
	ret = expect_create_fail(&e, in, sizeof(in), sizeof(out), &calign);
	e.umem = um_ro;
	emut_build_create_cq(in, &e, 0);
	if (ret == 0)
		ret = expect_create_fail(&e, in, sizeof(in), sizeof(out), &cro);
	/* 2 MiB queue pages on a umem of 4 KiB + 64 B, which the kernel
	 * translates with 4 KiB pages (devx_umem_find_best_pgsize(): the
	 * length is no multiple of anything larger), hugepage or not.
	 */
	e.umem = saved;
	emut_build_create_cq(in, &e, 0);
	MLX5_SET(cqc, cqc, log_page_size, 9);
	if (ret == 0)
		ret = expect_create_fail(&e, in, sizeof(in), sizeof(out), &cpg);
	mlx5_glue->devx_umem_dereg(um_odd);
	mlx5_glue->devx_umem_dereg(um_ro);
	emut_env_fini(&e);
	TEST_ASSERT(emut_stats_idle(ctx), "idle");
	mlx5_emu_close(ctx);
	return ret;
}

/* --- rte_common_mlx5's own CQ creation on the model --------------------- */

static int
test_emu_dpdk_devx_cq(void)
{
	uint8_t last[CREATE_CQ_IN_LEN];
	size_t len = sizeof(last);
	struct mlx5_devx_cq_attr attr;
	struct mlx5_devx_cq cq;
	struct mlx5_emu_cq_info info;
	struct mlx5_emu_umem_info ui;
	struct mlx5_emu_stats st;
	struct mlx5dv_devx_uar *uar;
	struct ibv_context *ctx;
	struct emut_heap hs;
	/* 1024 entries of TEST_DPDK_CQE_SIZE, then the doorbell record. */
	const uint32_t ring = 1024 * TEST_DPDK_CQE_SIZE;
	uint32_t eqn0, umem_id, i;
	uint64_t pgsz;
	void *cqc;

	ctx = mlx5_emu_open("emu_dp0", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	uar = mlx5_glue->devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	TEST_ASSERT_NOT_NULL(uar, "uar");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_query_eqn(ctx, 0, &eqn0), "eqn");
	emut_heap_snap(&hs);
	memset(&cq, 0, sizeof(cq));
	memset(&attr, 0, sizeof(attr));
	attr.uar_page_id = uar->page_id;
	TEST_ASSERT_SUCCESS(mlx5_devx_cq_create(ctx, &cq, 10, &attr,
						SOCKET_ID_ANY), "create");
	for (i = 0; i < 1024; i++)
		TEST_ASSERT_EQUAL(cq.cqes[i].op_own, 0xf1, "op_own %u", i);
	/* The mailbox the device received (PRM create_cq_in). */
	TEST_ASSERT_SUCCESS(mlx5_emu_last_cmd_in(ctx, last, &len), "last");
	TEST_ASSERT_EQUAL(len, (size_t)CREATE_CQ_IN_LEN, "272 bytes");
	cqc = MLX5_ADDR_OF(create_cq_in, last, cq_context);
	umem_id = ((struct mlx5dv_devx_umem *)cq.umem_obj)->umem_id;
	TEST_ASSERT_EQUAL(MLX5_GET(create_cq_in, last, opcode), 0x400u, "op");
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, log_cq_size), 10u, "log size");
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, cqe_sz), TEST_DPDK_CQE_SZ,
			  "cqe_sz: %u B entries", TEST_DPDK_CQE_SIZE);
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, log_page_size), 0u, "4 KiB");
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, c_eqn), eqn0, "eqn");
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, uar_page), uar->page_id, "uar");
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, dbr_umem_valid), 1u, "dbr v");
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, dbr_umem_id), umem_id, "dbr id");
	TEST_ASSERT_EQUAL(MLX5_GET64(cqc, cqc, dbr_addr), ring, "dbr_addr");
	TEST_ASSERT_EQUAL(MLX5_GET(create_cq_in, last, cq_umem_valid), 1u,
			  "umem valid");
	TEST_ASSERT_EQUAL(MLX5_GET(create_cq_in, last, cq_umem_id), umem_id,
			  "umem id");
	TEST_ASSERT_EQUAL(MLX5_GET64(create_cq_in, last, cq_umem_offset), 0u,
			  "offset");
	/* The firmware view. */
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(ctx, cq.cq->id, &info), "query");
	TEST_ASSERT(info.ring == (void *)(uintptr_t)cq.umem_buf, "ring");
	TEST_ASSERT(info.dbrec == cq.db_rec, "dbrec");
	TEST_ASSERT(info.log_cq_size == 10 &&
		    info.cqe_sz == TEST_DPDK_CQE_SZ &&
		    info.eqn == eqn0 && info.uar_page == uar->page_id &&
		    info.cq_umem_id == umem_id && info.dbr_offset == ring &&
		    info.pi == 0 && info.verbs == 0 && info.status == 0,
		    "info");
	/* The umem: the ring + a record of MLX5_DBR_SIZE (a cache line), one
	 * CQ using it.
	 */
	TEST_ASSERT_SUCCESS(mlx5_emu_umem_query(ctx, umem_id, &ui), "umem");
	TEST_ASSERT_EQUAL(ui.size, ring + RTE_CACHE_LINE_SIZE, "size");
	TEST_ASSERT_EQUAL(ui.refcnt, 1u, "one user");
	TEST_ASSERT_EQUAL(ui.page_shift, 12u, "4 KiB pages");
	TEST_ASSERT_EQUAL(ui.npages, ring / 4096 + 1, "page entries");
	pgsz = emut_dpdk_page_size((void *)(uintptr_t)cq.umem_buf);
	if (pgsz >= (2u << 20) && rte_eal_iova_mode() == RTE_IOVA_PA) {
		TEST_ASSERT(ui.host_page_shift >= 21, "in a hugepage");
		if (pgsz >= ((uintptr_t)cq.umem_buf & (pgsz - 1)) + ring +
		    RTE_CACHE_LINE_SIZE)
			TEST_ASSERT_EQUAL(ui.nsegs, 1u, "one segment");
	} else {
		TEST_ASSERT_EQUAL(ui.host_page_shift, 12u, "4 KiB pages");
		TEST_ASSERT_EQUAL(ui.nsegs, ring / 4096 + 1, "segments");
	}
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(ctx, &st), "stats");
	TEST_ASSERT(st.cqs == 1 && st.devx_objs == 1 && st.umems == 1,
		    "one of each");
	mlx5_devx_cq_destroy(&cq);
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(ctx, &st), "stats");
	TEST_ASSERT(st.cqs == 0 && st.devx_objs == 0 && st.umems == 0,
		    "destroyed");
	TEST_ASSERT(emut_heap_same(&hs), "rte_malloc back");
	mlx5_glue->devx_free_uar(uar);
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	return TEST_SUCCESS;
}

static void
caps_vec8(struct mlx5_emu_caps *c)
{
	c->num_comp_vectors = 8;
}

static int
test_emu_two_devices(void)
{
	static const struct mut_case cforeign_umem = { "umem of other dev", 0,
		EINVAL, CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_UMEM_ID };
	static const struct mut_case cforeign_uar = { "uar of other dev", 0,
		EINVAL, CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_UAR };
	uint32_t in[CREATE_CQ_IN_LEN / 4];
	uint32_t out[MLX5_ST_SZ_DW(create_cq_out)];
	struct mlx5dv_devx_obj *o0, *o1;
	struct ibv_context *c0, *c1;
	struct cq_env e0, e1, mix;
	uint32_t eqn;
	int ret;

	c0 = emut_open_caps("emu_two0", emut_caps_small);
	c1 = emut_open_caps("emu_two1", caps_vec8);
	TEST_ASSERT(c0 != NULL && c1 != NULL, "open");
	TEST_ASSERT(c0->num_comp_vectors == 2 && c1->num_comp_vectors == 8,
		    "vectors");
	TEST_ASSERT_FAIL(mlx5_glue->devx_query_eqn(c0, 5, &eqn), "dev0 v5");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_query_eqn(c1, 5, &eqn), "dev1 v5");
	TEST_ASSERT_SUCCESS(emut_env_init(&e0, c0, 4, 64), "env0");
	TEST_ASSERT_SUCCESS(emut_env_init(&e1, c1, 4, 64), "env1");
	emut_build_create_cq(in, &e0, 0);
	o0 = mlx5_glue->devx_obj_create(c0, in, sizeof(in), out, sizeof(out));
	emut_build_create_cq(in, &e1, 0);
	o1 = mlx5_glue->devx_obj_create(c1, in, sizeof(in), out, sizeof(out));
	TEST_ASSERT(o0 != NULL && o1 != NULL, "a CQ on each");
	/* Objects of one device mean nothing to the other. */
	mix = e1;
	mix.umem = e0.umem;
	emut_build_create_cq(in, &mix, 0);
	ret = expect_create_fail(&e1, in, sizeof(in), sizeof(out),
				 &cforeign_umem);
	mix = e1;
	mix.uar = e0.uar;
	emut_build_create_cq(in, &mix, 0);
	if (ret == 0)
		ret = expect_create_fail(&e1, in, sizeof(in), sizeof(out),
					 &cforeign_uar);
	TEST_ASSERT_EQUAL(mlx5_glue->close_device(c0), -EBUSY, "busy");
	TEST_ASSERT_EQUAL(mlx5_emu_is_emulated(c0), 1, "still open");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(o0), "d0");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(o1), "d1");
	emut_env_fini(&e0);
	emut_env_fini(&e1);
	TEST_ASSERT_SUCCESS(mlx5_glue->close_device(c0), "close 0");
	TEST_ASSERT_SUCCESS(mlx5_glue->close_device(c1), "close 1");
	return ret;
}

static struct unit_test_suite emu_cq_cmds_suite = {
	.suite_name = "emu_cq_cmds",
	.unit_test_cases = {
		TEST_CASE(test_emu_create_cq_bad_fields),
		TEST_CASE(test_emu_create_cq_caps),
		TEST_CASE(test_emu_create_cq_ring_rules),
		TEST_CASE(test_emu_dpdk_devx_cq),
		TEST_CASE(test_emu_two_devices),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(emu_cq_cmds, emu_cq_cmds_suite);
