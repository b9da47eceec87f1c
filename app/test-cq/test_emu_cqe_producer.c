/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_cqe_producer": the emulated HCA's threaded CQE producer.
 */

#include "test_emu_cqe_fixture.h"

/*
 * A concurrent poller of a 64-entry CQ fed by the producer thread: every
 * completion exactly once, in order (wqe_counter = sequence number), error
 * CQEs as many as the producer reports. With compression (HASH format,
 * runs of 4) the poller expands sessions itself (title count, arrays at
 * ci + 1, ci + 8...; the HASH mini carries the hash = first of the run,
 * the wqe_counter is the title's plus the position).
 */
static int
producer_run(int comp)
{
	struct tcq_cfg cfg = { .log = 6, .comp = comp };
	struct mlx5_emu_producer_attr pa;
	struct mlx5_emu_producer_stats ps;
	struct mlx5_emu_producer *p;
	const uint64_t total = 20000;
	uint64_t seq = 0, errs = 0;
	uint32_t ci = 0, n, k;
	uint64_t deadline;
	struct tcq t;
	uint8_t *q, op;

	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_prod", &cfg), "cq");
	memset(&pa, 0, sizeof(pa));
	pa.count = total;
	pa.batch = 16;
	pa.req_percent = 0;
	pa.error_permille = 5;
	pa.run_len = comp ? 4 : 0;
	pa.seed = 42;
	p = mlx5_emu_producer_start(t.ctx, t.cqn, &pa);
	TEST_ASSERT_NOT_NULL(p, "start");
	deadline = test_wait_deadline(TEST_WAIT_S);
	while (seq < total) {
		q = slot(&t, ci);
		op = __atomic_load_n(&q[63], __ATOMIC_ACQUIRE);
		if ((op >> 4) == 0xf || (op & 1) != ((ci >> 6) & 1)) {
			if (test_wait_expired(deadline)) {
				printf("  %" PRIu64 " of %" PRIu64 " polled after %d s\n",
				       (uint64_t)seq,
				       (uint64_t)total, TEST_WAIT_S);
				break;
			}
			sched_yield();
			continue;
		}
		rte_rmb();
		if (((op >> 2) & 3) == 3) {
			n = (uint32_t)q[44] << 24 | q[45] << 16 | q[46] << 8 |
			    q[47];
			TEST_ASSERT(n >= 2 && n <= 64, "session of %u", n);
			for (k = 0; k < n; k++) {
				uint8_t *m = slot(&t, k < 8 ? ci + 1 :
						  ci + 8 * (k / 8));
				uint16_t wc = (uint16_t)((q[60] << 8 | q[61]) +
							 k);

				m += (k % 8) * 8;
				TEST_ASSERT_EQUAL(wc, (uint16_t)seq,
						  "seq %" PRIu64 " in session",
						  (uint64_t)seq);
				TEST_ASSERT_EQUAL((uint64_t)(m[7] | m[6] << 8),
						  64 + (seq & 1023), "len");
				seq++;
			}
			ci += n;
		} else {
			if ((op >> 4) == MLX5_CQE_RESP_ERR ||
			    (op >> 4) == MLX5_CQE_REQ_ERR)
				errs++;
			TEST_ASSERT_EQUAL((uint16_t)(q[60] << 8 | q[61]),
					  (uint16_t)seq, "seq %" PRIu64,
					  (uint64_t)seq);
			seq++;
			ci++;
		}
		consumer(&t, ci);
	}
	mlx5_emu_producer_stop(p, &ps);
	TEST_ASSERT_EQUAL(seq, total, "all completions polled");
	TEST_ASSERT(ps.done && ps.written == total && ps.last_ret == 0,
		    "producer: %" PRIu64 " written, ret %d",
		    (uint64_t)ps.written, ps.last_ret);
	TEST_ASSERT_EQUAL(ps.errors, errs, "error CQEs");
	TEST_ASSERT(errs > 0, "some errors");
	TEST_ASSERT_EQUAL(pi_of(&t), (uint32_t)total, "pi");
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	return TEST_SUCCESS;
}

static int
test_emu_cqe_producer(void)
{
	TEST_CHECK(producer_run(0));
	return producer_run(1);
}

/* A producer asked to overrun a CQ nobody polls: the CQ goes to error and
 * the thread ends with -EIO; bad attributes are refused.
 */
static int
test_emu_cqe_producer_overrun(void)
{
	struct tcq_cfg cfg = { .log = 3 };
	struct mlx5_emu_producer_attr pa;
	struct mlx5_emu_producer_stats ps;
	struct mlx5_emu_producer *p;
	struct mlx5_emu_cq_info info;
	uint64_t deadline;
	struct tcq t;

	TEST_ASSERT_SUCCESS(tcq_open(&t, "ecq_povr", &cfg), "cq");
	memset(&pa, 0, sizeof(pa));
	pa.count = 100;
	pa.batch = 4;
	pa.overrun = 1;
	p = mlx5_emu_producer_start(t.ctx, t.cqn, &pa);
	TEST_ASSERT_NOT_NULL(p, "start");
	deadline = test_wait_deadline(TEST_WAIT_S);
	do {
		sched_yield();
		mlx5_emu_producer_stats_get(p, &ps);
	} while (!ps.done && !test_wait_expired(deadline));
	if (!ps.done)
		printf("  producer not done after %d s\n", TEST_WAIT_S);
	mlx5_emu_producer_stop(p, &ps);
	TEST_ASSERT(ps.last_ret == -EIO && ps.written == 8, "written %" PRIu64
		    " ret %d", (uint64_t)ps.written, ps.last_ret);
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(t.ctx, t.cqn, &info), "q");
	TEST_ASSERT_EQUAL(info.status, 9u, "overflow");
	pa.batch = 1000;
	TEST_ASSERT_NULL(mlx5_emu_producer_start(t.ctx, t.cqn, &pa), "batch");
	pa.batch = 1;
	TEST_ASSERT_NULL(mlx5_emu_producer_start(t.ctx, 0x7777, &pa), "cqn");
	TEST_ASSERT_SUCCESS(tcq_close(&t), "close");
	return TEST_SUCCESS;
}

static struct unit_test_suite emu_cqe_producer_suite = {
	.suite_name = "emu_cqe_producer",
	.unit_test_cases = {
		TEST_CASE(test_emu_cqe_producer),
		TEST_CASE(test_emu_cqe_producer_overrun),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_cqe_producer, emu_cqe_producer_suite);
