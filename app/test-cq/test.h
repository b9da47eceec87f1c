/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_CQ_TEST_H_
#define TEST_CQ_TEST_H_

/*
 * The suites' harness, in two builds:
 * - dpdk-test-cq (app/test-cq/meson.build): a stand-in for DPDK's
 *   app/test/test.h (which Debian does not install) with the same suite and
 *   case shapes and the same TEST_ASSERT* macros, operands unparenthesized
 *   as DPDK's rte_test.h leaves them, so an assertion is read the same way
 *   by both harnesses: an operand with an operator binding looser than ==
 *   (&, |, ?:, ==, ...) must be written in parentheses;
 * - dpdk-test inside a DPDK tree (devtools/intree.sh copies this folder to
 *   app/test/mlx5cq and defines RTE_MLX5CQ_DPDK_TEST): DPDK's own test.h,
 *   and every suite becomes the command mlx5cq_<suite>_autotest
 *   (mlx5cq_autotest runs them all, test_autotest.c).
 */

#ifdef RTE_MLX5CQ_DPDK_TEST

#include "../test.h"

#else /* dpdk-test-cq */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#define TEST_SUCCESS EXIT_SUCCESS
#define TEST_FAILED -1
#define TEST_SKIPPED 77

#define TEST_TRACE_FAILURE(file, line, func) \
	printf("  failed at %s:%d (%s)\n", file, line, func)

#define RTE_TEST_ASSERT_HELPER(cond, msg, ...) do { \
	if (!(cond)) { \
		printf("  assertion failed: " msg "\n", ##__VA_ARGS__); \
		TEST_TRACE_FAILURE(__FILE__, __LINE__, __func__); \
		return TEST_FAILED; \
	} \
} while (0)

/* As DPDK's rte_test.h: the operands are not parenthesized. */
#define TEST_ASSERT(cond, msg, ...) \
	RTE_TEST_ASSERT_HELPER(cond, msg, ##__VA_ARGS__)
#define TEST_ASSERT_EQUAL(a, b, msg, ...) \
	RTE_TEST_ASSERT_HELPER(a == b, msg, ##__VA_ARGS__)
#define TEST_ASSERT_NOT_EQUAL(a, b, msg, ...) \
	RTE_TEST_ASSERT_HELPER(a != b, msg, ##__VA_ARGS__)
#define TEST_ASSERT_SUCCESS(val, msg, ...) \
	RTE_TEST_ASSERT_HELPER(val == 0, msg, ##__VA_ARGS__)
#define TEST_ASSERT_FAIL(val, msg, ...) \
	RTE_TEST_ASSERT_HELPER(val != 0, msg, ##__VA_ARGS__)
#define TEST_ASSERT_NULL(val, msg, ...) \
	RTE_TEST_ASSERT_HELPER(val == NULL, msg, ##__VA_ARGS__)
#define TEST_ASSERT_NOT_NULL(val, msg, ...) \
	RTE_TEST_ASSERT_HELPER(val != NULL, msg, ##__VA_ARGS__)
#define TEST_ASSERT_BUFFERS_ARE_EQUAL(a, b, len, msg, ...) \
	RTE_TEST_ASSERT_HELPER(memcmp(a, b, len) == 0, msg, ##__VA_ARGS__)

struct unit_test_case {
	int (*setup)(void);
	void (*teardown)(void);
	int (*testcase)(void);
	int (*testcase_with_data)(const void *data);
	const char *name;
	unsigned int enabled;
	const void *data;
};

#define TEST_CASE(fn) { NULL, NULL, fn, NULL, #fn, 1, NULL }
#define TEST_CASE_ST(setup, teardown, testcase) \
	{ setup, teardown, testcase, NULL, #testcase, 1, NULL }
#define TEST_CASE_NAMED_WITH_DATA(name, setup, teardown, testcase, data) \
	{ setup, teardown, NULL, testcase, name, 1, data }
#define TEST_CASES_END() { NULL, NULL, NULL, NULL, NULL, 0, NULL }

struct unit_test_suite {
	const char *suite_name;
	int (*setup)(void);
	void (*teardown)(void);
	unsigned int total;
	unsigned int executed;
	unsigned int succeeded;
	unsigned int failed;
	unsigned int skipped;
	struct unit_test_case unit_test_cases[];
};

/* Run a suite, print a line per case, add its counts to the totals. */
int unit_test_suite_runner(struct unit_test_suite *suite);

#endif /* RTE_MLX5CQ_DPDK_TEST */

/*
 * A helper that checks and reports on its own: the case fails when it
 * does not return TEST_SUCCESS (not part of DPDK's test.h; correct under
 * both harnesses).
 */
#define TEST_CHECK(x) TEST_ASSERT_EQUAL((x), TEST_SUCCESS, "%s", #x)

/* Registration of the suites (test_registry.c), sorted by name. */
struct test_cq_suite {
	const char *name;
	struct unit_test_suite *suite;
	struct test_cq_suite *next;
};
void test_cq_register(struct test_cq_suite *s);
/* The first registered suite, NULL when none. */
struct test_cq_suite *test_cq_suites(void);

#define TEST_CQ_REGISTER(nm, st) \
static struct test_cq_suite test_cq_suite_##nm = { #nm, &(st), NULL }; \
RTE_INIT(test_cq_register_##nm) { test_cq_register(&test_cq_suite_##nm); }

#ifdef RTE_MLX5CQ_DPDK_TEST
#define REGISTER_TEST_SUITE(nm, st) \
TEST_CQ_REGISTER(nm, st) \
static int \
test_mlx5cq_##nm(void) \
{ \
	return unit_test_suite_runner(&(st)); \
} \
REGISTER_TEST_COMMAND(mlx5cq_##nm##_autotest, test_mlx5cq_##nm)
#else
#define REGISTER_TEST_SUITE(nm, st) TEST_CQ_REGISTER(nm, st)
#endif

#endif /* TEST_CQ_TEST_H_ */
