/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_CQ_TEST_H_
#define TEST_CQ_TEST_H_

/*
 * A small stand-in for DPDK's app/test/test.h (not installed by Debian):
 * the same suite and case shapes and TEST_ASSERT* macros, so the suites can
 * join dpdk-test later unchanged.
 */

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

#define TEST_ASSERT(cond, msg, ...) \
	RTE_TEST_ASSERT_HELPER(cond, msg, ##__VA_ARGS__)
#define TEST_ASSERT_EQUAL(a, b, msg, ...) \
	RTE_TEST_ASSERT_HELPER((a) == (b), msg, ##__VA_ARGS__)
#define TEST_ASSERT_NOT_EQUAL(a, b, msg, ...) \
	RTE_TEST_ASSERT_HELPER((a) != (b), msg, ##__VA_ARGS__)
#define TEST_ASSERT_SUCCESS(val, msg, ...) \
	RTE_TEST_ASSERT_HELPER((val) == 0, msg, ##__VA_ARGS__)
#define TEST_ASSERT_FAIL(val, msg, ...) \
	RTE_TEST_ASSERT_HELPER((val) != 0, msg, ##__VA_ARGS__)
#define TEST_ASSERT_NULL(val, msg, ...) \
	RTE_TEST_ASSERT_HELPER((val) == NULL, msg, ##__VA_ARGS__)
#define TEST_ASSERT_NOT_NULL(val, msg, ...) \
	RTE_TEST_ASSERT_HELPER((val) != NULL, msg, ##__VA_ARGS__)
#define TEST_ASSERT_BUFFERS_ARE_EQUAL(a, b, len, msg, ...) \
	RTE_TEST_ASSERT_HELPER(memcmp((a), (b), (len)) == 0, msg, \
			       ##__VA_ARGS__)
/*
 * A helper that checks and reports on its own: the case fails when it
 * does not return TEST_SUCCESS (not part of DPDK's test.h).
 */
#define TEST_CHECK(x) TEST_ASSERT_EQUAL((x), TEST_SUCCESS, "%s", #x)

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

/* Registration of suites with dpdk-test-cq (as REGISTER_TEST_COMMAND). */
struct test_cq_suite {
	const char *name;
	struct unit_test_suite *suite;
	struct test_cq_suite *next;
};
void test_cq_register(struct test_cq_suite *s);

#define REGISTER_TEST_SUITE(nm, st) \
static struct test_cq_suite test_cq_suite_##nm = { #nm, &(st), NULL }; \
RTE_INIT(test_cq_register_##nm) { test_cq_register(&test_cq_suite_##nm); }

#endif /* TEST_CQ_TEST_H_ */
