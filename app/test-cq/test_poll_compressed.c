/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "poll_compressed": a compressed CQE stops the burst, is counted and
 * logged once per CQ.
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
 * A compressed CQE (format 3) is not expanded by this version: the burst
 * stops before it, what came before is published, the stop is counted,
 * the CQE stays untouched in the ring and later polls stop there again.
 */
static int
test_poll_compressed_stop(const void *data)
{
	enum fx_kind kind = (enum fx_kind)(uintptr_t)data;
	struct rte_mlx5cq_cpl c[8];
	struct img_cqe d[3], title;
	uint8_t before[64];
	unsigned int i;

	TEST_CHECK(fx_init(kind, 4, 0));
	for (i = 0; i < 3; i++) {
		test_poll_gen_cqe(i, &d[i]);
		d[i].opcode = 2;
		fx_post(&d[i]);
	}
	memset(&title, 0, sizeof(title));
	title.opcode = 2;
	title.format = 3; /* compressed session title */
	title.byte_cnt = 5; /* completions in the session */
	fx_post(&title);
	memcpy(before, fx_cqe(3), 64);
	scrub(c, 8);
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 8), 3,
			  "burst did not stop before the compressed CQE");
	for (i = 0; i < 3; i++)
		TEST_CHECK(check_img(&c[i], &d[i], i));
	TEST_ASSERT_EQUAL(c[3].byte_cnt, 0xccccccccu,
			  "record written for the compressed CQE");
	TEST_CHECK(check_dbrec(3));
	TEST_CHECK(check_counters(3, 0, 1, 0, 1));
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 8), 0,
			  "compressed CQE delivered");
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(fx.cq, c, 1), 0,
			  "compressed CQE delivered");
	TEST_ASSERT_EQUAL(fx.cq->ci, 3u, "ci moved past the compressed CQE");
	TEST_CHECK(check_dbrec(3));
	TEST_CHECK(check_counters(3, 0, 3, 0, 3));
	TEST_ASSERT_BUFFERS_ARE_EQUAL(fx_cqe(3), before, 64,
				      "compressed CQE modified");
	fx_fini();
	return TEST_SUCCESS;
}

/*
 * The stop at a compressed CQE is logged once per CQ, at DEBUG level of
 * the library's log type, however many polls stop there.
 */
static int
test_poll_compressed_log(void)
{
	struct rte_mlx5cq_cpl c[8];
	struct img_cqe title;
	FILE *saved = rte_log_get_stream(), *mem;
	char *buf = NULL, *p;
	size_t len = 0;
	int level = rte_log_get_level(rte_log_register("pmd.common.mlx5cq"));
	uint32_t global = rte_log_get_global_level();
	unsigned int i, lines = 0;

	TEST_ASSERT(level >= 0, "no log type pmd.common.mlx5cq");
	TEST_CHECK(fx_init(FX_64, 4, 0));
	memset(&title, 0, sizeof(title));
	title.opcode = 2;
	title.format = 3;
	title.byte_cnt = 2;
	fx_post(&title);
	mem = open_memstream(&buf, &len);
	TEST_ASSERT_NOT_NULL(mem, "open_memstream");
	rte_openlog_stream(mem);
	rte_log_set_global_level(RTE_LOG_DEBUG);
	rte_log_set_level_pattern("pmd.common.mlx5cq", RTE_LOG_DEBUG);
	for (i = 0; i < 5; i++)
		rte_mlx5cq_poll_burst(fx.cq, c, 8);
	rte_log_set_level_pattern("pmd.common.mlx5cq", (uint32_t)level);
	rte_log_set_global_level(global);
	rte_openlog_stream(saved);
	fclose(mem);
	for (p = buf; p != NULL && (p = strstr(p, "compressed CQE")) != NULL;
	     p++)
		lines++;
	free(buf);
	TEST_ASSERT_EQUAL(lines, 1u, "%u log lines for 5 stops", lines);
	TEST_CHECK(check_counters(0, 0, 5, 0, 5));
	fx_fini();
	return TEST_SUCCESS;
}

static struct unit_test_suite poll_compressed_suite = {
	.suite_name = "poll_compressed",
	.unit_test_cases = {
		KIND_CASE(test_poll_compressed_stop, FX_64),
		KIND_CASE(test_poll_compressed_stop, FX_128),
		TEST_CASE_ST(NULL, fx_teardown, test_poll_compressed_log),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(poll_compressed, poll_compressed_suite);
