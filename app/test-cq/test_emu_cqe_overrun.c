/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_cqe_overrun": CQ overrun of the emulated HCA, with and without
 * oi.
 */

#include "test_emu_cqe_fixture.h"

static int
query_cqc_status(struct tcq *t, uint32_t *status)
{
	uint32_t qin[4] = {0}, qout[68] = {0};

	MLX5_SET(create_cq_in, qin, opcode, 0x402);
	qin[2] = rte_cpu_to_be_32(t->cqn);
	if (mlx5_glue->devx_obj_query(t->obj, qin, sizeof(qin), qout,
				      sizeof(qout)) != 0)
		return -1;
	*status = MLX5_GET(cqc, (uint8_t *)qout + 16, status);
	return 0;
}

static int
test_emu_cqe_overrun(void)
{
	struct tcq_cfg cfg = { .log = 3 };
	struct mlx5dv_devx_event_channel *ch;
	struct mlx5_emu_cq_info info;
	struct mlx5_emu_wc c[12];
	uint16_t evs[1] = { 0x04 }; /* MLX5_EVENT_TYPE_CQ_ERROR */
	uint8_t buf[8 + EQE_LEN];
	struct mlx5dv_devx_async_event_hdr *hdr = (void *)buf;
	uint8_t before[64];
	uint32_t status;
	unsigned int i;
	struct tcq t;

	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_ovr", &cfg), "cq");
	ch = mlx5_glue->devx_create_event_channel(t.ctx, 0);
	TEST_ASSERT_NOT_NULL(ch, "event channel");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_subscribe_devx_event(ch, t.obj,
				sizeof(evs), evs, 0xe1e1), "subscribe");
	for (i = 0; i < 12; i++)
		req(&c[i], i);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 8), 8, "8");
	/* Flow-controlled post: refused, no error. */
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c + 8, 1), 0, "full");
	TEST_ASSERT_SUCCESS(query_cqc_status(&t, &status), "query");
	TEST_ASSERT_EQUAL(status, 0u, "status ok");
	memcpy(before, slot(&t, 0), 64);
	/* The device must write: overrun, CQ error 0x9, nothing written. */
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post_flags(t.ctx, t.cqn, c + 8, 1,
				MLX5_EMU_POST_OVERRUN), -EIO, "overrun");
	TEST_CHECK(cqe_cmp(slot(&t, 0), before, "not overwritten", 0));
	TEST_ASSERT_SUCCESS(query_cqc_status(&t, &status), "query");
	TEST_ASSERT_EQUAL(status, 0x9u, "cqc.status overflow");
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(t.ctx, t.cqn, &info), "q");
	TEST_ASSERT(info.status == 9 && info.pi == 8, "info");
	/* Async CQ error event on the subscribed channel. */
	memset(buf, 0, sizeof(buf));
	TEST_ASSERT_EQUAL(mlx5_glue->devx_get_event(ch, hdr, sizeof(buf)),
			  (ssize_t)sizeof(buf), "CQ error event");
	TEST_ASSERT_EQUAL(hdr->cookie, 0xe1e1u, "cookie");
	TEST_ASSERT_EQUAL(hdr->out_data[1], 0x04, "EQE type CQ error");
	TEST_ASSERT(hdr->out_data[0x20] == 0 &&
		    hdr->out_data[0x21] == ((t.cqn >> 16) & 0xff) &&
		    hdr->out_data[0x22] == ((t.cqn >> 8) & 0xff) &&
		    hdr->out_data[0x23] == (t.cqn & 0xff), "EQE cqn");
	TEST_ASSERT_EQUAL(hdr->out_data[0x2b], 0x01, "syndrome overrun");
	errno = 0;
	TEST_ASSERT_EQUAL(mlx5_glue->devx_get_event(ch, hdr, sizeof(buf)),
			  -1, "one event");
	TEST_ASSERT_EQUAL(errno, EAGAIN, "EAGAIN");
	/* The CQ stays in error, even with room. */
	consumer(&t, 8);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 1), -EIO, "error");
	TEST_ASSERT_EQUAL(mlx5_emu_cq_flush(t.ctx, t.cqn), -EIO, "flush");
	mlx5_glue->devx_destroy_event_channel(ch);
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");

	/* oi: the device overwrites unconsumed entries (owner of pass 1). */
	cfg.oi = 1;
	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_ovr", &cfg), "cq");
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(t.ctx, t.cqn, c, 8), 8, "8");
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post_flags(t.ctx, t.cqn, c + 8, 4,
				MLX5_EMU_POST_OVERRUN), 4, "overwrite 4");
	for (i = 0; i < 4; i++)
		TEST_ASSERT(slot(&t, i)[63] == 0x01 &&
			    slot(&t, i)[61] == 8 + i, "entry %u pass 1", i);
	TEST_ASSERT_EQUAL(slot(&t, 4)[63], 0x00, "entry 4 pass 0");
	TEST_ASSERT_SUCCESS(query_cqc_status(&t, &status), "query");
	TEST_ASSERT_EQUAL(status, 0u, "no error with oi");
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");

	/* Compression: the open session is written, then the overrun. */
	cfg.oi = 0;
	cfg.comp = 1;
	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_ovr", &cfg), "cq");
	for (i = 0; i < 10; i++)
		resp(&c[i], i);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post_flags(t.ctx, t.cqn, c, 10,
				MLX5_EMU_POST_OVERRUN), -EIO, "overrun");
	TEST_ASSERT(slot(&t, 0)[47] == 8 && slot(&t, 0)[63] == 0x2c,
		    "session of 8 written");
	TEST_ASSERT_SUCCESS(query_cqc_status(&t, &status), "query");
	TEST_ASSERT_EQUAL(status, 0x9u, "overflow");
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	return TEST_SUCCESS;
}

/* Verbs CQ overrun: IBV_EVENT_CQ_ERR on the context's async fd. */
static int
test_emu_cqe_overrun_verbs(void)
{
	struct ibv_cq_init_attr_ex a;
	struct ibv_async_event aev;
	struct mlx5dv_cq out;
	struct mlx5dv_obj obj;
	struct ibv_context *ctx;
	struct ibv_cq_ex *cq;
	struct ibv_cq *ibcq;
	struct mlx5_emu_wc c[5];
	struct pollfd pfd;
	unsigned int i;

	ctx = mlx5_emu_open("ecq_ovv", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	memset(&a, 0, sizeof(a));
	a.cqe = 3;
	a.wc_flags = IBV_WC_STANDARD_FLAGS;
	cq = mlx5_glue->dv_create_cq(ctx, &a, NULL);
	TEST_ASSERT_NOT_NULL(cq, "verbs cq");
	ibcq = mlx5_glue->cq_ex_to_cq(cq);
	memset(&obj, 0, sizeof(obj));
	obj.cq.in = ibcq;
	obj.cq.out = &out;
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_init_obj(&obj, MLX5DV_OBJ_CQ), "dv");
	for (i = 0; i < 5; i++)
		req(&c[i], i);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(ctx, out.cqn, c, 4), 4, "4");
	pfd.fd = ctx->async_fd;
	pfd.events = POLLIN;
	TEST_ASSERT_EQUAL(poll(&pfd, 1, 0), 0, "async fd quiet");
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post_flags(ctx, out.cqn, c + 4, 1,
				MLX5_EMU_POST_OVERRUN), -EIO, "overrun");
	TEST_ASSERT_EQUAL(poll(&pfd, 1, 0), 1, "async fd readable");
	memset(&aev, 0, sizeof(aev));
	TEST_ASSERT_SUCCESS(mlx5_glue->get_async_event(ctx, &aev), "get");
	TEST_ASSERT_EQUAL(aev.event_type, IBV_EVENT_CQ_ERR, "CQ_ERR");
	TEST_ASSERT(aev.element.cq == ibcq, "the CQ");
	mlx5_glue->ack_async_event(&aev);
	TEST_ASSERT_EQUAL(ibcq->async_events_completed, 1u, "acked");
	TEST_ASSERT_EQUAL(poll(&pfd, 1, 0), 0, "async fd drained");
	errno = 0;
	TEST_ASSERT_EQUAL(mlx5_glue->get_async_event(ctx, &aev), -1, "none");
	TEST_ASSERT_EQUAL(errno, EAGAIN, "EAGAIN");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_cq(ibcq), "destroy");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	return TEST_SUCCESS;
}

static struct unit_test_suite emu_cqe_overrun_suite = {
	.suite_name = "emu_cqe_overrun",
	.unit_test_cases = {
		TEST_CASE(test_emu_cqe_overrun),
		TEST_CASE(test_emu_cqe_overrun_verbs),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_cqe_overrun, emu_cqe_overrun_suite);
