/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_cqe_moderation": CQ moderation of the emulated HCA (MODIFY_CQ),
 * and cqc.scqe_break_moderation_en: HCA_CAP.scqe_break_moderation as
 * QUERY_HCA_CAP reports it, CREATE_CQ refusing the bit without it, and a
 * solicited or error CQE releasing the event moderation holds.
 */

#include "test_emu_cqe_fixture.h"
#include "test_emu_fixture.h"

/* MODIFY_CQ (opcode 0x403): moderation; scqe_break goes into the cqc. */
static int
modify_cq_cqc(struct tcq *t, uint32_t select, uint16_t period,
	      uint16_t count, unsigned int op_mod, uint8_t scqe_break,
	      uint8_t *status)
{
	uint32_t in[MODIFY_CQ_IN_LEN / 4], out[4];
	void *cqc = (uint8_t *)in + CQC_OFF;
	int ret;

	memset(in, 0, sizeof(in));
	memset(out, 0, sizeof(out));
	in[0] = rte_cpu_to_be_32(0x403u << 16);
	in[1] = rte_cpu_to_be_32(op_mod & 0xffff);
	in[2] = rte_cpu_to_be_32(t->cqn);
	in[3] = rte_cpu_to_be_32(select);
	MLX5_SET(cqc, cqc, cq_period, period);
	MLX5_SET(cqc, cqc, cq_max_count, count);
	MLX5_SET(cqc, cqc, scqe_break_moderation_en, scqe_break);
	ret = mlx5_glue->devx_obj_modify(t->obj, in, sizeof(in), out,
					 sizeof(out));
	*status = (uint8_t)(rte_be_to_cpu_32(out[0]) >> 24);
	return ret;
}

static int
modify_cq(struct tcq *t, uint32_t select, uint16_t period, uint16_t count,
	  unsigned int op_mod, uint8_t *status)
{
	return modify_cq_cqc(t, select, period, count, op_mod, 0, status);
}

static int
test_emu_cqe_moderation(void)
{
	struct tcq_cfg cfg = { .log = 4 };
	struct mlx5dv_devx_event_channel *ch;
	struct mlx5_emu_cq_ev_info ev;
	uint16_t evs[1] = { 0x00 };
	struct mlx5_emu_wc c[1];
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 3000000 };
	uint8_t st;
	struct tcq t;

	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_mod", &cfg), "cq");
	ch = mlx5_glue->devx_create_event_channel(t.ctx, 0);
	TEST_ASSERT_NOT_NULL(ch, "channel");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_subscribe_devx_event(ch, t.obj,
				sizeof(evs), evs, 9), "subscribe");
	req(&c[0], 0);
	/* Resize and unknown field bits are refused with a status. */
	TEST_ASSERT_EQUAL(modify_cq(&t, 0x2, 0, 3, 1, &st), EINVAL, "resize");
	TEST_ASSERT_EQUAL(st, 0x03, "BAD_PARAM");
	TEST_ASSERT_EQUAL(modify_cq(&t, 0x10, 0, 3, 0, &st), EINVAL, "select");
	/* cq_max_count 3. */
	TEST_ASSERT_SUCCESS(modify_cq(&t, 0x2, 0, 3, 0, &st), "modify");
	TEST_ASSERT_EQUAL(st, 0, "status");
	TEST_ASSERT_SUCCESS(ev_info(&t, &ev), "ev");
	TEST_ASSERT(ev.cq_max_count == 3 && ev.cq_period == 0, "moderation");
	tcq_arm(&t, 0, 0, 0);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "1");
	TEST_CHECK(expect_no_event(ch));
	TEST_ASSERT_SUCCESS(ev_info(&t, &ev), "ev");
	TEST_ASSERT(ev.held == 1 && ev.armed == 0, "held");
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "2");
	TEST_CHECK(expect_no_event(ch));
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "3");
	TEST_CHECK(expect_comp_event(ch, 9, t.cqn));
	/* cq_period 100 us, count off: the event goes once the period has
	 * passed and the model runs.
	 */
	TEST_ASSERT_SUCCESS(modify_cq(&t, 0x3, 100, 0, 0, &st), "modify");
	consumer(&t, 3);
	tcq_arm(&t, 1, 0, 3);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "post");
	nanosleep(&ts, NULL);
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_flush(t.ctx, t.cqn), "flush");
	TEST_CHECK(expect_comp_event(ch, 9, t.cqn));
	mlx5_glue->devx_destroy_event_channel(ch);
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	return TEST_SUCCESS;
}

/*
 * Without HCA_CAP.cq_moderation (and cq_period_start_from_cqe) the model's
 * firmware refuses cqc.cq_max_count and cq_period_mode 1 at CREATE_CQ and
 * the moderation fields of MODIFY_CQ (BAD_PARAM, MLX5_EMU_SYND_CQ_MODER_CAP).
 */
static int
test_emu_cqe_moderation_caps(void)
{
	struct tcq_cfg cfg = { .log = 4, .no_moder = 1, .cq_max_count = 3 };
	uint32_t synd = 0;
	uint8_t st;
	struct tcq t;

	TEST_ASSERT(tcq_open(&t, "ecq_modcap", &cfg) != 0,
		    "cq_max_count without cq_moderation accepted");
	TEST_ASSERT_SUCCESS(mlx5_emu_last_cmd_error(t.ctx, &st, &synd),
			    "last error");
	TEST_ASSERT(st == 0x03 && synd == MLX5_EMU_SYND_CQ_MODER_CAP,
		    "status %#x syndrome %#x", st, synd);
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	cfg.cq_max_count = 0;
	cfg.period_mode = 1;
	TEST_ASSERT(tcq_open(&t, "ecq_modcap2", &cfg) != 0,
		    "period mode 1 without cq_period_start_from_cqe accepted");
	TEST_ASSERT_SUCCESS(mlx5_emu_last_cmd_error(t.ctx, &st, &synd),
			    "last error");
	TEST_ASSERT(st == 0x03 && synd == MLX5_EMU_SYND_CQ_MODER_CAP,
		    "status %#x syndrome %#x", st, synd);
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	cfg.period_mode = 0;
	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_modcap3", &cfg), "plain CQ");
	TEST_ASSERT_EQUAL(modify_cq(&t, 0x2, 0, 3, 0, &st), EINVAL,
			  "MODIFY_CQ without cq_moderation");
	TEST_ASSERT_EQUAL(st, 0x03, "BAD_PARAM");
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	return TEST_SUCCESS;
}

/* HCA_CAP.scqe_break_moderation of a device, maximum and current. */
static int
query_scqe_break_cap(struct ibv_context *ctx, uint8_t want)
{
	uint32_t in[MLX5_ST_SZ_DW(query_hca_cap_in)];
	uint32_t out[MLX5_ST_SZ_DW(query_hca_cap_out)];
	void *hc = MLX5_ADDR_OF(query_hca_cap_out, out, capability);
	unsigned int cur;

	for (cur = 0; cur <= 1; cur++) {
		memset(in, 0, sizeof(in));
		memset(out, 0xff, sizeof(out));
		MLX5_SET(query_hca_cap_in, in, opcode,
			 MLX5_CMD_OP_QUERY_HCA_CAP);
		MLX5_SET(query_hca_cap_in, in, op_mod,
			 MLX5_GET_HCA_CAP_OP_MOD_GENERAL_DEVICE | cur);
		TEST_ASSERT_SUCCESS(mlx5_glue->devx_general_cmd(ctx, in,
				sizeof(in), out, sizeof(out)), "QUERY_HCA_CAP");
		TEST_ASSERT_EQUAL(emut_out_status(out), 0, "status");
		TEST_ASSERT_EQUAL(MLX5_GET(cmd_hca_cap, hc,
					   scqe_break_moderation), want,
				  "scqe_break_moderation (%s) %u, want %u",
				  cur ? "current" : "maximum",
				  MLX5_GET(cmd_hca_cap, hc,
					   scqe_break_moderation), want);
		/* Its neighbours keep their values. */
		TEST_ASSERT(MLX5_GET(cmd_hca_cap, hc, cq_moderation) == 1 &&
			    MLX5_GET(cmd_hca_cap, hc,
				     cq_period_start_from_cqe) == 1 &&
			    MLX5_GET(cmd_hca_cap, hc, cq_oi) == 1 &&
			    MLX5_GET(cmd_hca_cap, hc, cq_resize) == 1,
			    "moderation caps");
	}
	return TEST_SUCCESS;
}

/*
 * HCA_CAP.scqe_break_moderation is caps.scqe_break_moderation: 1 by
 * default, 0 when the caps (mlx5_emu_open() or mlx5_emu_open_caps_set())
 * say so; a value above 1 does not fit the 1-bit field and is refused.
 */
static int
test_emu_cqe_scqe_break_caps(void)
{
	struct mlx5_emu_caps caps;
	struct ibv_context *ctx;

	mlx5_emu_caps_default(&caps);
	TEST_ASSERT_EQUAL(caps.scqe_break_moderation, 1, "default");
	ctx = mlx5_emu_open("ecq_sbcap0", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	TEST_CHECK(query_scqe_break_cap(ctx, 1));
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	caps.scqe_break_moderation = 0;
	ctx = mlx5_emu_open("ecq_sbcap1", &caps);
	TEST_ASSERT_NOT_NULL(ctx, "open without the capability");
	TEST_CHECK(query_scqe_break_cap(ctx, 0));
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	/* The open defaults. */
	TEST_ASSERT_SUCCESS(mlx5_emu_open_caps_set(&caps), "open caps");
	ctx = mlx5_emu_open("ecq_sbcap2", NULL);
	mlx5_emu_open_caps_set(NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open with the open defaults");
	TEST_CHECK(query_scqe_break_cap(ctx, 0));
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	/* 2 does not fit. */
	caps.scqe_break_moderation = 2;
	errno = 0;
	TEST_ASSERT_NULL(mlx5_emu_open("ecq_sbcap3", &caps), "2 accepted");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno %d", errno);
	TEST_ASSERT_EQUAL(mlx5_emu_open_caps_set(&caps), -EINVAL,
			  "2 accepted as open default");
	return TEST_SUCCESS;
}

static void
caps_no_scqe_break(struct mlx5_emu_caps *c)
{
	c->scqe_break_moderation = 0;
}

/*
 * CREATE_CQ with cqc.scqe_break_moderation_en on a device without
 * HCA_CAP.scqe_break_moderation: BAD_PARAM (errno EINVAL),
 * MLX5_EMU_SYND_CQ_SCQE_BREAK_CAP, nothing created or leaked. The same
 * mailbox without the bit is accepted.
 */
static int
test_emu_cqe_scqe_break_refused(void)
{
	uint32_t in[CREATE_CQ_IN_LEN / 4];
	uint32_t out[MLX5_ST_SZ_DW(create_cq_out)];
	void *cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	struct mlx5_emu_stats s0, s1;
	struct mlx5_emu_umem_info ui;
	struct mlx5dv_devx_obj *obj;
	struct ibv_context *ctx;
	struct emut_heap hs;
	struct cq_env e;
	uint32_t synd = 0, refs;
	uint8_t status = 0;

	ctx = emut_open_caps("ecq_sbref", caps_no_scqe_break);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	TEST_ASSERT_SUCCESS(emut_env_init(&e, ctx, 4, 64), "env");
	emut_build_create_cq(in, &e, 0);
	MLX5_SET(cqc, cqc, cq_max_count, 4);
	MLX5_SET(cqc, cqc, scqe_break_moderation_en, 1);
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(ctx, &s0), "stats");
	TEST_ASSERT_SUCCESS(mlx5_emu_umem_query(ctx, e.umem->umem_id, &ui),
			    "umem");
	refs = ui.refcnt;
	emut_heap_snap(&hs);
	memset(out, 0, sizeof(out));
	errno = 0;
	obj = mlx5_glue->devx_obj_create(ctx, in, CREATE_CQ_IN_LEN, out,
					 sizeof(out));
	TEST_ASSERT_NULL(obj, "created without the capability");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno %d", errno);
	TEST_ASSERT_EQUAL(emut_out_status(out), CMD_STAT_BAD_PARAM,
			  "status 0x%x", emut_out_status(out));
	TEST_ASSERT_EQUAL(emut_out_syndrome(out),
			  (uint32_t)MLX5_EMU_SYND_CQ_SCQE_BREAK_CAP,
			  "syndrome 0x%x", emut_out_syndrome(out));
	TEST_ASSERT_SUCCESS(mlx5_emu_last_cmd_error(ctx, &status, &synd),
			    "last error");
	TEST_ASSERT(status == CMD_STAT_BAD_PARAM &&
		    synd == MLX5_EMU_SYND_CQ_SCQE_BREAK_CAP,
		    "recorded 0x%x/0x%x", status, synd);
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(ctx, &s1), "stats");
	TEST_ASSERT_EQUAL(s1.cmd_errors, s0.cmd_errors + 1, "counted");
	TEST_ASSERT(s1.cqs == s0.cqs && s1.devx_objs == s0.devx_objs &&
		    s1.umems == s0.umems && s1.uars == s0.uars,
		    "objects: cqs %u/%u, devx_objs %u/%u", s0.cqs, s1.cqs,
		    s0.devx_objs, s1.devx_objs);
	TEST_ASSERT_SUCCESS(mlx5_emu_umem_query(ctx, e.umem->umem_id, &ui),
			    "umem");
	TEST_ASSERT_EQUAL(ui.refcnt, refs, "umem references %u, want %u",
			  ui.refcnt, refs);
	TEST_ASSERT(emut_heap_same(&hs), "rte_malloc unchanged");
	/* Without the bit the device takes the same CQ. */
	MLX5_SET(cqc, cqc, scqe_break_moderation_en, 0);
	obj = mlx5_glue->devx_obj_create(ctx, in, CREATE_CQ_IN_LEN, out,
					 sizeof(out));
	TEST_ASSERT_NOT_NULL(obj, "without the bit: errno %d synd 0x%x",
			     errno, emut_out_syndrome(out));
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(obj), "destroy");
	emut_env_fini(&e);
	TEST_ASSERT(emut_stats_idle(ctx), "idle");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	return TEST_SUCCESS;
}

/*
 * Create the CQ of tcq_open() again with cqc.scqe_break_moderation_en
 * set: tcq_open()'s CREATE_CQ mailbox (the device's last command) with the
 * bit, on the same ring, record and UAR.
 */
static int
tcq_recreate_break(struct tcq *t)
{
	uint32_t in[CREATE_CQ_IN_LEN / 4];
	uint32_t out[MLX5_ST_SZ_DW(create_cq_out)];
	void *cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	size_t len = sizeof(in);

	TEST_ASSERT_SUCCESS(mlx5_emu_last_cmd_in(t->ctx, in, &len),
			    "last in");
	TEST_ASSERT(len == CREATE_CQ_IN_LEN &&
		    MLX5_GET(create_cq_in, in, opcode) == 0x400,
		    "last command: CREATE_CQ");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(t->obj), "destroy");
	t->obj = NULL;
	MLX5_SET(cqc, cqc, scqe_break_moderation_en, 1);
	memset(out, 0, sizeof(out));
	t->obj = mlx5_glue->devx_obj_create(t->ctx, in, sizeof(in), out,
					    sizeof(out));
	TEST_ASSERT_NOT_NULL(t->obj, "CREATE_CQ with the bit: errno %d "
			     "synd 0x%x", errno, emut_out_syndrome(out));
	t->cqn = MLX5_GET(create_cq_out, out, cqn);
	return TEST_SUCCESS;
}

/* The bit as QUERY_CQ, mlx5_emu_cq_query() and mlx5_emu_cq_ev_query()
 * show it, with cq_max_count.
 */
static int
expect_scqe_break(struct tcq *t, uint8_t want, uint16_t count)
{
	uint32_t qin[4] = {0}, qout[68];
	struct mlx5_emu_cq_ev_info ev;
	struct mlx5_emu_cq_info info;
	void *cqc = (uint8_t *)qout + 16;

	memset(qout, 0xff, sizeof(qout));
	MLX5_SET(create_cq_in, qin, opcode, 0x402);
	qin[2] = rte_cpu_to_be_32(t->cqn);
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_query(t->obj, qin,
				sizeof(qin), qout, sizeof(qout)), "QUERY_CQ");
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, scqe_break_moderation_en), want,
			  "QUERY_CQ scqe_break_moderation_en %u, want %u",
			  MLX5_GET(cqc, cqc, scqe_break_moderation_en), want);
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, cq_max_count), count,
			  "QUERY_CQ cq_max_count");
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, cq_period), 0u,
			  "QUERY_CQ cq_period");
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(t->ctx, t->cqn, &info), "info");
	TEST_ASSERT_EQUAL(info.scqe_break_moderation_en, want, "info bit");
	TEST_ASSERT_SUCCESS(ev_info(t, &ev), "ev");
	TEST_ASSERT(ev.scqe_break_moderation_en == want &&
		    ev.cq_max_count == count && ev.cq_period == 0,
		    "ev info: bit %u count %u period %u",
		    ev.scqe_break_moderation_en, ev.cq_max_count,
		    ev.cq_period);
	return TEST_SUCCESS;
}

/* Kinds of requester completion: plain, solicited, error (REQ_ERR). */
enum sb_kind { SB_PLAIN, SB_SOLICITED, SB_ERROR };

/* Post completion i of kind k; it lands in entry i with its op_own. */
static int
post_one(struct tcq *t, enum sb_kind k, unsigned int i)
{
	/* op_own of entry i (pass 0): REQ 0x00, SE 0x02, REQ_ERR 0xd0. */
	static const uint8_t op_own[] = { 0x00, 0x02, 0xd0 };
	struct mlx5_emu_wc c;

	req(&c, i);
	if (k == SB_SOLICITED) {
		c.solicited = 1;
	} else if (k == SB_ERROR) {
		c.kind = MLX5_EMU_WC_REQ_ERR;
		c.syndrome = 0x05; /* Work request flushed. */
		c.vendor_syndrome = 0x77;
	}
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t->ctx, t->cqn, &c, 1), 1,
			  "post %u", i);
	TEST_ASSERT_EQUAL(pi_of(t), i + 1, "producer counter");
	TEST_ASSERT_EQUAL(slot(t, i)[63], op_own[k], "op_own of %u: 0x%02x",
			  i, slot(t, i)[63]);
	return TEST_SUCCESS;
}

/* Event state: an arm pending, an event held, events raised so far. */
static int
expect_ev(struct tcq *t, uint8_t armed, uint8_t held, uint64_t events)
{
	struct mlx5_emu_cq_ev_info ev;

	TEST_ASSERT_SUCCESS(ev_info(t, &ev), "ev");
	TEST_ASSERT(ev.armed == armed && ev.held == held &&
		    ev.events == events, "armed %u held %u events %" PRIu64
		    ", want %u %u %" PRIu64, ev.armed, ev.held, ev.events,
		    armed, held, events);
	return TEST_SUCCESS;
}

/*
 * One CQ, cq_max_count 4, cq_period 0, with (brk) or without
 * cqc.scqe_break_moderation_en. Three arms:
 * 1. any: a plain CQE makes the event due, moderation holds it; a
 *    solicited CQE releases it with the bit; without, it waits for the
 *    4th completion;
 * 2. any: likewise with an error CQE;
 * 3. solicited-only: a plain CQE does not end the wait; the solicited
 *    CQE makes the event due and releases it with the bit; without, the
 *    event waits for the 4th completion.
 * Then a solicited CQE with no arm raises nothing.
 */
static int
scqe_break_run(int brk)
{
	struct tcq_cfg cfg = { .log = 4, .cq_max_count = 4 };
	struct mlx5dv_devx_event_channel *ch;
	uint16_t evs[1] = { 0x00 };
	uint32_t pi = 0;
	uint8_t st;
	struct tcq t;

	TEST_ASSERT_SUCCESS(tcq_open(&t, brk ? "ecq_sb1" : "ecq_sb0", &cfg),
			    "cq");
	if (brk)
		TEST_CHECK(tcq_recreate_break(&t));
	TEST_CHECK(expect_scqe_break(&t, brk, 4));
	/* MODIFY_CQ of the moderation leaves the bit, whatever its cqc. */
	TEST_ASSERT_SUCCESS(modify_cq_cqc(&t, 0x3, 0, 4, 0, !brk, &st),
			    "modify");
	TEST_ASSERT_EQUAL(st, 0, "status");
	TEST_CHECK(expect_scqe_break(&t, brk, 4));
	ch = mlx5_glue->devx_create_event_channel(t.ctx, 0);
	TEST_ASSERT_NOT_NULL(ch, "channel");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_subscribe_devx_event(ch, t.obj,
				sizeof(evs), evs, 11), "subscribe");
	/* 1. Arm any; plain, then solicited. */
	tcq_arm(&t, 0, 0, pi);
	TEST_CHECK(post_one(&t, SB_PLAIN, pi++));
	TEST_CHECK(expect_no_event(ch));
	TEST_CHECK(expect_ev(&t, 0, 1, 0));
	TEST_CHECK(post_one(&t, SB_SOLICITED, pi++));
	if (brk) {
		TEST_CHECK(expect_comp_event(ch, 11, t.cqn));
		TEST_CHECK(expect_no_event(ch));
		TEST_CHECK(expect_ev(&t, 0, 0, 1));
	} else {
		TEST_CHECK(expect_no_event(ch));
		TEST_CHECK(expect_ev(&t, 0, 1, 0));
		TEST_CHECK(post_one(&t, SB_PLAIN, pi++));
		TEST_CHECK(expect_no_event(ch));
		TEST_CHECK(post_one(&t, SB_PLAIN, pi++));
		TEST_CHECK(expect_comp_event(ch, 11, t.cqn));
		TEST_CHECK(expect_ev(&t, 0, 0, 1));
	}
	/* 2. Arm any; plain, then an error CQE. */
	tcq_arm(&t, 1, 0, pi);
	TEST_CHECK(post_one(&t, SB_PLAIN, pi++));
	TEST_CHECK(expect_no_event(ch));
	TEST_CHECK(expect_ev(&t, 0, 1, 1));
	TEST_CHECK(post_one(&t, SB_ERROR, pi++));
	if (brk) {
		TEST_CHECK(expect_comp_event(ch, 11, t.cqn));
		TEST_CHECK(expect_ev(&t, 0, 0, 2));
	} else {
		TEST_CHECK(expect_no_event(ch));
		TEST_CHECK(expect_ev(&t, 0, 1, 1));
		TEST_CHECK(post_one(&t, SB_PLAIN, pi++));
		TEST_CHECK(expect_no_event(ch));
		TEST_CHECK(post_one(&t, SB_PLAIN, pi++));
		TEST_CHECK(expect_comp_event(ch, 11, t.cqn));
		TEST_CHECK(expect_ev(&t, 0, 0, 2));
	}
	/* 3. Arm solicited-only; plain, then solicited. */
	tcq_arm(&t, 2, 1, pi);
	TEST_CHECK(post_one(&t, SB_PLAIN, pi++));
	TEST_CHECK(expect_no_event(ch));
	TEST_CHECK(expect_ev(&t, 1, 0, 2));
	TEST_CHECK(post_one(&t, SB_SOLICITED, pi++));
	if (brk) {
		TEST_CHECK(expect_comp_event(ch, 11, t.cqn));
		TEST_CHECK(expect_ev(&t, 0, 0, 3));
	} else {
		TEST_CHECK(expect_no_event(ch));
		TEST_CHECK(expect_ev(&t, 0, 1, 2));
		TEST_CHECK(post_one(&t, SB_PLAIN, pi++));
		TEST_CHECK(expect_no_event(ch));
		TEST_CHECK(post_one(&t, SB_PLAIN, pi++));
		TEST_CHECK(expect_comp_event(ch, 11, t.cqn));
		TEST_CHECK(expect_ev(&t, 0, 0, 3));
	}
	TEST_ASSERT_EQUAL(pi, (brk ? 6u : 12u), "completions written");
	/* No arm: a solicited CQE raises nothing. */
	TEST_CHECK(post_one(&t, SB_SOLICITED, pi++));
	TEST_CHECK(expect_no_event(ch));
	TEST_CHECK(expect_ev(&t, 0, 0, 3));
	mlx5_glue->devx_destroy_event_channel(ch);
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	return TEST_SUCCESS;
}

static int
test_emu_cqe_scqe_break(void)
{
	TEST_CHECK(scqe_break_run(1));
	TEST_CHECK(scqe_break_run(0));
	return TEST_SUCCESS;
}

static struct unit_test_suite emu_cqe_moderation_suite = {
	.suite_name = "emu_cqe_moderation",
	.unit_test_cases = {
		TEST_CASE(test_emu_cqe_moderation),
		TEST_CASE(test_emu_cqe_moderation_caps),
		TEST_CASE(test_emu_cqe_scqe_break_caps),
		TEST_CASE(test_emu_cqe_scqe_break_refused),
		TEST_CASE(test_emu_cqe_scqe_break),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_cqe_moderation, emu_cqe_moderation_suite);
