/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "dev_failure": CQs of a device that fails (mlx5_emu_dev_fail()).
 * What a failed mlx5 device answers, from the kernel (Linux 6.1):
 * - IBV_EVENT_DEVICE_FATAL on the async fd, port 1 (mlx5_ib_handle_event()
 *   for MLX5_DEV_EVENT_SYS_ERROR, which health.c raises with port 1); a
 *   removal adds a second one, element 0, when uverbs disassociates the
 *   context (uverbs_async_event_destroy_uobj());
 * - commands other than destroys fail with ENOLINK, the output mailbox
 *   carrying status MLX5_DRIVER_STATUS_ABORTED 0xfe (byte 0) and syndrome
 *   MLX5_DRIVER_SYND 0xbadd00de (big-endian, bytes 4..7); destroys, and
 *   MODIFY_NIC_VPORT_CONTEXT, complete with status OK
 *   (mlx5_internal_err_ret_value() in mlx5/core/cmd.c);
 * - the device writes no CQE any more.
 * CQs made before the failure still poll what was written before it and
 * are destroyed; creating one fails with ENOLINK and leaks nothing; the
 * device closes empty.
 */

#include "test_create_fixture.h"

#define OP_QUERY_HCA_CAP 0x100
#define OP_MODIFY_NIC_VPORT_CONTEXT 0x755

/* Read the async fd until EAGAIN: the DEVICE_FATAL ports seen, in order. */
static int
fatal_events(struct ibv_context *ctx, int ports[4])
{
	struct ibv_async_event ev;
	int n = 0;

	while (mlx5_glue->get_async_event(ctx, &ev) == 0) {
		if (ev.event_type != IBV_EVENT_DEVICE_FATAL || n == 4) {
			printf("  unexpected async event %d\n",
			       (int)ev.event_type);
			mlx5_glue->ack_async_event(&ev);
			return -1;
		}
		ports[n++] = (int)ev.element.port_num;
		mlx5_glue->ack_async_event(&ev);
	}
	return errno == EAGAIN ? n : -1;
}

/* A general command's answer: its errno, status byte and syndrome. */
static int
general_cmd(struct ibv_context *ctx, uint16_t opcode, uint8_t *status,
	    uint32_t *synd)
{
	uint8_t in[16] = { 0 }, out[256];
	int ret;

	in[0] = (uint8_t)(opcode >> 8);
	in[1] = (uint8_t)opcode;
	memset(out, 0x5a, sizeof(out));
	errno = 0;
	ret = mlx5_glue->devx_general_cmd(ctx, in, sizeof(in), out,
					  sizeof(out));
	*status = out[0];
	*synd = (uint32_t)out[4] << 24 | (uint32_t)out[5] << 16 |
		(uint32_t)out[6] << 8 | out[7];
	return ret == 0 ? 0 : errno;
}

/* One completion written and polled on cq. */
static int
one_cpl(struct ibv_context *ctx, struct rte_mlx5cq *cq, uint32_t cqn)
{
	struct mlx5_emu_wc p;
	struct rte_mlx5cq_cpl c[4];

	memset(&p, 0, sizeof(p));
	p.kind = MLX5_EMU_WC_RESP;
	p.byte_cnt = 60;
	if (mlx5_emu_cq_post(ctx, cqn, &p, 1) != 1)
		return -1;
	return rte_mlx5cq_poll_burst(cq, c, 4) == 1 && c[0].byte_cnt == 60 ?
	       0 : -1;
}

static int
run_failure(enum mlx5_emu_failure how)
{
	const char *name = how == MLX5_EMU_DEV_FATAL ? "fail_fatal" :
						       "fail_removed";
	enum rte_mlx5cq_path paths[2] = {
		RTE_MLX5CQ_PATH_DEVX, RTE_MLX5CQ_PATH_VERBS
	};
	struct rte_mlx5cq *cq[2] = { NULL, NULL };
	struct rte_mlx5cq_info info[2];
	struct rte_mlx5cq_cpl c[4];
	struct rte_mlx5cq_attr a;
	struct mlx5_emu_wc p;
	struct rte_mlx5cq_dev *dev;
	struct ibv_context *ctx;
	struct mlx5_emu_stats es;
	struct snap s0, s1;
	int ports[4], n, i, ok = 1;
	uint32_t synd;
	uint8_t status;

	ctx = mlx5_emu_open(name, NULL);
	TEST_ASSERT_NOT_NULL(ctx, "emu open");
	dev = rte_mlx5cq_dev_open_ex(ctx, SOCKET_ID_ANY,
				     RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS);
	TEST_ASSERT_NOT_NULL(dev, "dev open");
	for (i = 0; i < 2; i++) {
		attr_init(&a, 64, paths[i]);
		cq[i] = rte_mlx5cq_create(dev, &a);
		if (cq[i] == NULL || rte_mlx5cq_info_get(cq[i], &info[i]) ||
		    one_cpl(ctx, cq[i], info[i].cqn) != 0) {
			printf("  %s: CQ %d before the failure\n", name, i);
			ok = 0;
		}
	}
	/* One completion written before the failure, polled after it. */
	memset(&p, 0, sizeof(p));
	p.kind = MLX5_EMU_WC_RESP;
	p.byte_cnt = 61;
	if (ok && mlx5_emu_cq_post(ctx, info[0].cqn, &p, 1) != 1)
		ok = 0;
	if (ok && fatal_events(ctx, ports) != 0)
		ok = 0;

	TEST_ASSERT_EQUAL(mlx5_emu_dev_fail(ctx, how), 0, "dev_fail");
	TEST_ASSERT_EQUAL(mlx5_emu_dev_fail(ctx, how), -EALREADY,
			  "second dev_fail");
	n = fatal_events(ctx, ports);
	if (how == MLX5_EMU_DEV_FATAL) {
		if (n != 1 || ports[0] != 1) {
			printf("  fatal: %d DEVICE_FATAL events (want 1, "
			       "port 1)\n", n);
			ok = 0;
		}
	} else if (n != 2 || ports[0] != 1 || ports[1] != 0) {
		printf("  removed: %d DEVICE_FATAL events (want 2: port 1, "
		       "then 0)\n", n);
		ok = 0;
	}
	/* Written before: still there. Nothing new is written. */
	if (rte_mlx5cq_poll_burst(cq[0], c, 4) != 1 || c[0].byte_cnt != 61) {
		printf("  completion written before the failure lost\n");
		ok = 0;
	}
	for (i = 0; i < 2; i++) {
		if (mlx5_emu_cq_post(ctx, info[i].cqn, &p, 1) != -ENOLINK ||
		    rte_mlx5cq_poll_burst(cq[i], c, 4) != 0) {
			printf("  CQ %d: the failed device wrote a CQE\n", i);
			ok = 0;
		}
	}
	/* Commands: aborted by the driver, or OK without the firmware. */
	n = general_cmd(ctx, OP_QUERY_HCA_CAP, &status, &synd);
	if (n != ENOLINK || status != 0xfe || synd != 0xbadd00de) {
		printf("  QUERY_HCA_CAP: errno %d status 0x%x syndrome "
		       "0x%08x (want ENOLINK, 0xfe, 0xbadd00de)\n", n, status,
		       synd);
		ok = 0;
	}
	n = general_cmd(ctx, OP_MODIFY_NIC_VPORT_CONTEXT, &status, &synd);
	if (n != 0 || status != 0 || synd != 0) {
		printf("  MODIFY_NIC_VPORT_CONTEXT: errno %d status 0x%x "
		       "(want 0, 0)\n", n, status);
		ok = 0;
	}
	/* Creating fails with ENOLINK and leaks nothing, on both paths. */
	TEST_ASSERT_SUCCESS(snap_take(ctx, dev, &s0), "snapshot");
	for (i = 0; i < 2; i++) {
		struct rte_mlx5cq *x;

		attr_init(&a, 64, paths[i]);
		rte_errno = 0;
		x = rte_mlx5cq_create(dev, &a);
		if (x != NULL || rte_errno != ENOLINK) {
			printf("  create on path %d: %p rte_errno %d (want "
			       "NULL, ENOLINK)\n", i, (void *)x, rte_errno);
			ok = 0;
			if (x != NULL)
				rte_mlx5cq_destroy(x);
		}
	}
	TEST_ASSERT_SUCCESS(snap_take(ctx, dev, &s1), "snapshot");
	if (snap_same(&s0, &s1, name) != 0)
		ok = 0;
	/* Destroys complete: the device closes empty. */
	for (i = 0; i < 2; i++) {
		if (cq[i] != NULL && rte_mlx5cq_destroy(cq[i]) != 0) {
			printf("  destroy of CQ %d: %d\n", i, rte_errno);
			ok = 0;
		}
	}
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(ctx, &es), "emu stats");
	if (es.cqs != 0 || es.devx_objs != 0 || es.dbr_slots != 0) {
		printf("  left: cqs %u objs %u dbr slots %u\n", es.cqs,
		       es.devx_objs, es.dbr_slots);
		ok = 0;
	}
	TEST_ASSERT_SUCCESS(rte_mlx5cq_dev_close(dev), "dev close");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "emu close (objects left)");
	TEST_ASSERT(ok, "%s", name);
	return TEST_SUCCESS;
}

static int
test_dev_failure_fatal(void)
{
	return run_failure(MLX5_EMU_DEV_FATAL);
}

static int
test_dev_failure_removed(void)
{
	return run_failure(MLX5_EMU_DEV_REMOVED);
}

/* A fatal device removed later: the second event comes then. */
static int
test_dev_failure_fatal_then_removed(void)
{
	struct ibv_context *ctx = mlx5_emu_open("fail_twice", NULL);
	int ports[4], n1, n2;

	TEST_ASSERT_NOT_NULL(ctx, "emu open");
	TEST_ASSERT_EQUAL(mlx5_emu_dev_fail(ctx, MLX5_EMU_DEV_FATAL), 0,
			  "fatal");
	n1 = fatal_events(ctx, ports);
	TEST_ASSERT(n1 == 1 && ports[0] == 1, "fatal: %d events", n1);
	TEST_ASSERT_EQUAL(mlx5_emu_dev_fail(ctx, MLX5_EMU_DEV_REMOVED), 0,
			  "removed");
	n2 = fatal_events(ctx, ports);
	TEST_ASSERT(n2 == 1 && ports[0] == 0, "removed: %d events", n2);
	TEST_ASSERT_EQUAL(mlx5_emu_dev_fail(ctx, MLX5_EMU_DEV_FATAL),
			  -EALREADY, "fatal after removal");
	TEST_ASSERT_EQUAL(mlx5_emu_dev_fail(ctx, (enum mlx5_emu_failure)7),
			  -EINVAL, "unknown failure");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "emu close");
	return TEST_SUCCESS;
}

static int
dev_failure_setup(void)
{
	return mlx5_emu_install() == 0 ? 0 : -1;
}

static struct unit_test_suite dev_failure_suite = {
	.suite_name = "dev_failure",
	.setup = dev_failure_setup,
	.unit_test_cases = {
		TEST_CASE(test_dev_failure_fatal),
		TEST_CASE(test_dev_failure_removed),
		TEST_CASE(test_dev_failure_fatal_then_removed),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(dev_failure, dev_failure_suite);
