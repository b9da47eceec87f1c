/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_cqe_moderation": CQ moderation of the emulated HCA (MODIFY_CQ).
 */

#include "test_emu_cqe_fixture.h"

/* MODIFY_CQ (opcode 0x403): moderation. */
static int
modify_cq(struct tcq *t, uint32_t select, uint16_t period, uint16_t count,
	  unsigned int op_mod, uint8_t *status)
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
	ret = mlx5_glue->devx_obj_modify(t->obj, in, sizeof(in), out,
					 sizeof(out));
	*status = (uint8_t)(rte_be_to_cpu_32(out[0]) >> 24);
	return ret;
}

static int
test_emu_cqe_moderation(void)
{
	struct tcq_cfg cfg = { .log = 4 };
	struct mlx5dv_devx_event_channel *ch;
	struct mlx5_emu_cq_ev_info ev;
	uint16_t evs[1] = { 0x00 };
	struct mlx5_emu_cpl c[1];
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

static struct unit_test_suite emu_cqe_moderation_suite = {
	.suite_name = "emu_cqe_moderation",
	.unit_test_cases = {
		TEST_CASE(test_emu_cqe_moderation),
		TEST_CASE(test_emu_cqe_moderation_caps),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_cqe_moderation, emu_cqe_moderation_suite);
