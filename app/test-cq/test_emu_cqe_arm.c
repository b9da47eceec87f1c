/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_cqe_arm": arming and completion events of the emulated HCA
 * (DevX event channel, verbs completion channel, solicited-only arms,
 * compressed verbs CQs).
 */

#include <errno.h>

#include "test_emu_cqe_fixture.h"

static int
test_emu_cqe_arm_devx(void)
{
	struct tcq_cfg cfg = { .log = 4 };
	struct mlx5dv_devx_event_channel *ch, *ch2;
	struct mlx5_emu_cq_ev_info ev;
	uint16_t evs[1] = { 0x00 }; /* MLX5_EVENT_TYPE_COMP */
	uint16_t bad[1] = { 0x09 }; /* PORT_CHANGE: unaffiliated. */
	uint8_t big[8 + 64];
	struct mlx5_emu_wc c[4];
	uint8_t small[8];
	unsigned int i;
	struct tcq t;

	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_arm", &cfg), "cq");
	for (i = 0; i < 4; i++)
		req(&c[i], i);
	ch = mlx5_glue->devx_create_event_channel(t.ctx, 0);
	ch2 = mlx5_glue->devx_create_event_channel(t.ctx,
		MLX5DV_DEVX_CREATE_EVENT_CHANNEL_FLAGS_OMIT_EV_DATA);
	TEST_ASSERT(ch != NULL && ch2 != NULL, "channels");
	TEST_ASSERT_EQUAL(mlx5_glue->devx_subscribe_devx_event(ch, t.obj,
				sizeof(bad), bad, 1), EINVAL, "not CQ event");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_subscribe_devx_event(ch, t.obj,
				sizeof(evs), evs, 0xc0ffee), "subscribe");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_subscribe_devx_event(ch2, t.obj,
				sizeof(evs), evs, 0xbeef), "subscribe 2");
	/* Not armed: no event. */
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "post");
	TEST_CHECK(expect_no_event(ch));
	/* Arm (sn 0, ci 1): one event for the next CQE, then disarmed. */
	tcq_arm(&t, 0, 0, 1);
	consumer(&t, 1);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "post");
	/* Kernel devx_async_event_read(): a buffer shorter than the event
	 * (8 B cookie + 64 B EQE) is EINVAL and the event stays queued.
	 */
	errno = 0;
	TEST_ASSERT_EQUAL(mlx5_glue->devx_get_event(ch, (void *)big,
				sizeof(big) - 1), -1, "71 bytes");
	TEST_ASSERT_EQUAL(errno, EINVAL, "71 bytes: errno %d", errno);
	TEST_CHECK(expect_comp_event(ch, 0xc0ffee, t.cqn));
	TEST_CHECK(expect_no_event(ch));
	/* The omit-data channel returns the cookie only (7 B: EINVAL). */
	errno = 0;
	TEST_ASSERT_EQUAL(mlx5_glue->devx_get_event(ch2, (void *)small,
				sizeof(small) - 1), -1, "7 bytes");
	TEST_ASSERT_EQUAL(errno, EINVAL, "7 bytes: errno %d", errno);
	TEST_ASSERT_EQUAL(mlx5_glue->devx_get_event(ch2, (void *)small,
						    sizeof(small)), 8, "8 B");
	TEST_ASSERT_EQUAL(((struct mlx5dv_devx_async_event_hdr *)small)->cookie,
			  0xbeefu, "cookie");
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "post");
	TEST_CHECK(expect_no_event(ch));
	/* Re-arm with the sn already reported: ignored. */
	tcq_arm(&t, 0, 0, 3);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "post");
	TEST_CHECK(expect_no_event(ch));
	/* New sn (the consumer took the event): the next CQE fires. */
	consumer(&t, 4);
	tcq_arm(&t, 1, 0, 4);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 2), 2, "post 2");
	TEST_CHECK(expect_comp_event(ch, 0xc0ffee, t.cqn));
	TEST_CHECK(expect_no_event(ch));
	/* Arm while CQEs past ci are in the ring: fires when the model runs
	 * (flush).
	 */
	tcq_arm(&t, 2, 0, 4);
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_flush(t.ctx, t.cqn), "flush");
	TEST_CHECK(expect_comp_event(ch, 0xc0ffee, t.cqn));
	/* A doorbell whose word differs from record word 1 is no arm. */
	consumer(&t, 6);
	tcq_arm(&t, 3, 0, 6);
	t.dbrec[1] = 0;
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "post");
	TEST_CHECK(expect_no_event(ch));
	TEST_ASSERT_SUCCESS(ev_info(&t, &ev), "ev");
	TEST_ASSERT(ev.arms == 3 && ev.events == 3 && ev.armed == 0,
		    "3 arms, 3 events (arms %" PRIu64 " events %" PRIu64 ")",
		    (uint64_t)ev.arms, (uint64_t)ev.events);
	/* Destroying a channel drops its subscriptions. */
	mlx5_glue->devx_destroy_event_channel(ch2);
	mlx5_glue->devx_destroy_event_channel(ch);
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	return TEST_SUCCESS;
}

static int
test_emu_cqe_arm_solicited(void)
{
	struct tcq_cfg cfg = { .log = 4, .comp = 1 };
	struct mlx5dv_devx_event_channel *ch;
	uint16_t evs[1] = { 0x00 };
	struct mlx5_emu_wc c[4];
	unsigned int i;
	struct tcq t;

	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_sol", &cfg), "cq");
	ch = mlx5_glue->devx_create_event_channel(t.ctx, 0);
	TEST_ASSERT_NOT_NULL(ch, "channel");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_subscribe_devx_event(ch, t.obj,
				sizeof(evs), evs, 7), "subscribe");
	for (i = 0; i < 4; i++)
		resp(&c[i], i);
	tcq_arm(&t, 0, 1, 0);
	/* A compressed session without the solicited bit: no event. */
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 3), 3, "post");
	TEST_CHECK(expect_no_event(ch));
	/* A solicited completion: event. */
	resp(&c[0], 3);
	c[0].solicited = 1;
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "post");
	TEST_ASSERT_EQUAL(slot(&t, 3)[63], 0x22, "SE bit in op_own");
	TEST_CHECK(expect_comp_event(ch, 7, t.cqn));
	/* Solicited-only arm, an error CQE: event. */
	tcq_arm(&t, 1, 1, 4);
	resp(&c[0], 4);
	c[0].kind = MLX5_EMU_WC_RESP_ERR;
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "post");
	TEST_CHECK(expect_comp_event(ch, 7, t.cqn));
	/* Arm any: a plain completion fires. */
	tcq_arm(&t, 2, 0, 5);
	resp(&c[0], 5);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), 1, "post");
	TEST_CHECK(expect_comp_event(ch, 7, t.cqn));
	mlx5_glue->devx_destroy_event_channel(ch);
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	return TEST_SUCCESS;
}

/* Verbs: events on the completion channel; get_cq_event gives the CQ and
 * its cq_context; ack_cq_events counts them.
 */
static int
test_emu_cqe_arm_verbs(void)
{
	struct ibv_cq_init_attr_ex a;
	struct ibv_comp_channel *cc;
	struct mlx5dv_cq out;
	struct mlx5dv_obj obj;
	struct ibv_context *ctx;
	struct ibv_cq_ex *cq;
	struct ibv_cq *ibcq, *got;
	struct mlx5_emu_wc c[2];
	void *got_ctx;
	int marker;

	ctx = mlx5_emu_open("ecq_armv", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	cc = mlx5_glue->create_comp_channel(ctx);
	TEST_ASSERT_NOT_NULL(cc, "channel");
	memset(&a, 0, sizeof(a));
	a.cqe = 7;
	a.wc_flags = IBV_WC_STANDARD_FLAGS;
	a.channel = cc;
	a.cq_context = &marker;
	cq = mlx5_glue->dv_create_cq(ctx, &a, NULL);
	TEST_ASSERT_NOT_NULL(cq, "verbs cq");
	ibcq = mlx5_glue->cq_ex_to_cq(cq);
	memset(&obj, 0, sizeof(obj));
	obj.cq.in = ibcq;
	obj.cq.out = &out;
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_init_obj(&obj, MLX5DV_OBJ_CQ), "dv");
	req(&c[0], 0);
	req(&c[1], 1);
	errno = 0;
	TEST_ASSERT_EQUAL(mlx5_glue->get_cq_event(cc, &got, &got_ctx), -1,
			  "no event yet");
	TEST_ASSERT_EQUAL(errno, EAGAIN, "EAGAIN");
	arm_doorbell(out.dbrec, out.cq_uar, out.cqn, 0, 0, 0);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(ctx, out.cqn, c, 2), 2, "post");
	TEST_ASSERT(fd_readable(cc->fd), "channel fd readable");
	got = NULL;
	got_ctx = NULL;
	TEST_ASSERT_SUCCESS(mlx5_glue->get_cq_event(cc, &got, &got_ctx), "ev");
	TEST_ASSERT(got == ibcq && got_ctx == &marker, "CQ and context");
	TEST_ASSERT(!fd_readable(cc->fd), "one event only");
	mlx5_glue->ack_cq_events(ibcq, 1);
	TEST_ASSERT_EQUAL(ibcq->comp_events_completed, 1u, "acked");
	/* Re-arm with the next sn. */
	out.dbrec[0] = rte_cpu_to_be_32(2);
	arm_doorbell(out.dbrec, out.cq_uar, out.cqn, 1, 0, 2);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(ctx, out.cqn, c, 1), 1, "post");
	TEST_ASSERT_SUCCESS(mlx5_glue->get_cq_event(cc, &got, &got_ctx), "ev");
	TEST_ASSERT(got == ibcq, "second event");
	mlx5_glue->ack_cq_events(ibcq, 1);
	TEST_ASSERT_EQUAL(ibcq->comp_events_completed, 2u, "acked");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_cq(ibcq), "destroy");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_comp_channel(cc), "channel");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	return TEST_SUCCESS;
}

/*
 * A verbs CQ with compression (mlx5dv CSUM format): the same session image
 * in the verbs ring (holes keep rdma-core's INVALID << 4), and an armed CQ
 * raises one event for the whole session.
 */
static int
test_emu_cqe_comp_verbs(void)
{
	static const uint8_t hole[64] = { [63] = 0xf0 };
	struct ibv_cq_init_attr_ex a;
	struct mlx5dv_cq_init_attr dv;
	struct ibv_comp_channel *cc;
	struct mlx5_emu_cq_ev_info ev;
	struct mlx5dv_cq out;
	struct mlx5dv_obj obj;
	struct ibv_context *ctx;
	struct ibv_cq_ex *cq;
	struct ibv_cq *ibcq, *got;
	struct mlx5_emu_wc c[3];
	void *got_ctx;
	uint8_t *buf;

	ctx = mlx5_emu_open("ecq_cv", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	cc = mlx5_glue->create_comp_channel(ctx);
	TEST_ASSERT_NOT_NULL(cc, "channel");
	memset(&a, 0, sizeof(a));
	a.cqe = 7;
	a.wc_flags = IBV_WC_STANDARD_FLAGS;
	a.channel = cc;
	memset(&dv, 0, sizeof(dv));
	/* 64 B CQEs whatever MLX5_CQE_SIZE says (rte_common_mlx5 sets it to
	 * 128 on builds with 128-byte cache lines).
	 */
	dv.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE |
		       MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE;
	dv.cqe_size = 64;
	dv.cqe_comp_res_format = MLX5DV_CQE_RES_FORMAT_CSUM;
	cq = mlx5_glue->dv_create_cq(ctx, &a, &dv);
	TEST_ASSERT_NOT_NULL(cq, "verbs cq: %s", strerror(errno));
	ibcq = mlx5_glue->cq_ex_to_cq(cq);
	memset(&obj, 0, sizeof(obj));
	obj.cq.in = ibcq;
	obj.cq.out = &out;
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_init_obj(&obj, MLX5DV_OBJ_CQ), "dv");
	buf = out.buf;
	fmt_cpls(&fmt_cases[1], c);
	arm_doorbell(out.dbrec, out.cq_uar, out.cqn, 0, 0, 0);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(ctx, out.cqn, c, 3), 3, "post");
	TEST_CHECK(cqe_cmp(buf, t_csum, "verbs title", 0));
	TEST_CHECK(cqe_cmp(buf + 64, a_csum, "verbs array", 1));
	TEST_CHECK(cqe_cmp(buf + 128, hole, "verbs hole", 2));
	TEST_ASSERT_SUCCESS(mlx5_glue->get_cq_event(cc, &got, &got_ctx), "ev");
	TEST_ASSERT(got == ibcq, "event of the CQ");
	TEST_ASSERT(!fd_readable(cc->fd), "one event for the session");
	mlx5_glue->ack_cq_events(ibcq, 1);
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_ev_query(ctx, out.cqn, &ev), "ev q");
	TEST_ASSERT(ev.events == 1 && ev.sessions == 1 && ev.compressed == 3,
		    "counters");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_cq(ibcq), "destroy");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_comp_channel(cc), "channel");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	return TEST_SUCCESS;
}

static struct unit_test_suite emu_cqe_arm_suite = {
	.suite_name = "emu_cqe_arm",
	.unit_test_cases = {
		TEST_CASE(test_emu_cqe_arm_devx),
		TEST_CASE(test_emu_cqe_arm_solicited),
		TEST_CASE(test_emu_cqe_arm_verbs),
		TEST_CASE(test_emu_cqe_comp_verbs),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_cqe_arm, emu_cqe_arm_suite);
