/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * dpdk-test-cq: EAL options, then "--", then a subcommand:
 *   unit [SUITE...]    run the unit suites (all without names)
 *   log-levels NAME... level of each named log type (test_log.c)
 * The benchmarks and the demo are dpdk-bench-cq (app/bench-cq).
 */

#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_lcore.h>

#include "test.h"
#include "test_cq.h"

static unsigned int total_passed, total_failed, total_skipped;

int
unit_test_suite_runner(struct unit_test_suite *suite)
{
	struct unit_test_case *tc;
	int ret;

	printf("=== suite %s\n", suite->suite_name);
	suite->total = suite->executed = suite->succeeded = 0;
	suite->failed = suite->skipped = 0;
	if (suite->setup != NULL && suite->setup() != 0) {
		printf("suite %s: setup failed\n", suite->suite_name);
		for (tc = suite->unit_test_cases; tc->name != NULL; tc++)
			suite->failed++;
		total_failed += suite->failed;
		return -1;
	}
	for (tc = suite->unit_test_cases; tc->name != NULL; tc++) {
		suite->total++;
		if (!tc->enabled) {
			suite->skipped++;
			printf(" SKIP %s (disabled)\n", tc->name);
			continue;
		}
		ret = 0;
		if (tc->setup != NULL)
			ret = tc->setup();
		if (ret == 0) {
			if (tc->testcase != NULL)
				ret = tc->testcase();
			else
				ret = tc->testcase_with_data(tc->data);
			if (tc->teardown != NULL)
				tc->teardown();
		}
		fflush(stdout);
		suite->executed++;
		if (ret == TEST_SUCCESS) {
			suite->succeeded++;
			printf(" PASS %s\n", tc->name);
		} else if (ret == TEST_SKIPPED) {
			suite->skipped++;
			printf(" SKIP %s\n", tc->name);
		} else {
			suite->failed++;
			printf(" FAIL %s\n", tc->name);
		}
		fflush(stdout);
	}
	if (suite->teardown != NULL)
		suite->teardown();
	printf("suite %s: %u passed, %u failed, %u skipped\n",
	       suite->suite_name, suite->succeeded, suite->failed,
	       suite->skipped);
	total_passed += suite->succeeded;
	total_failed += suite->failed;
	total_skipped += suite->skipped;
	return suite->failed ? -1 : 0;
}

static int
run_unit(int argc, char **argv)
{
	struct test_cq_suite *s;
	int i, found;

	if (argc == 0) {
		for (s = test_cq_suites(); s != NULL; s = s->next)
			unit_test_suite_runner(s->suite);
	} else {
		for (i = 0; i < argc; i++) {
			found = 0;
			for (s = test_cq_suites(); s != NULL; s = s->next) {
				if (strcmp(s->name, argv[i]) == 0) {
					unit_test_suite_runner(s->suite);
					found = 1;
				}
			}
			if (!found) {
				printf("unknown suite: %s\n", argv[i]);
				total_failed++;
			}
		}
	}
	if (total_skipped)
		printf("%u passed, %u failed, %u skipped\n", total_passed,
		       total_failed, total_skipped);
	else
		printf("%u passed, %u failed\n", total_passed, total_failed);
	return total_failed ? 1 : 0;
}

static void
print_usage(const char *prog)
{
	struct test_cq_suite *s;

	printf("usage: %s EAL-OPTIONS -- unit [SUITE...] | log-levels NAME..."
	       "\nsuites:", prog);
	for (s = test_cq_suites(); s != NULL; s = s->next)
		printf(" %s", s->name);
	printf("\n");
}

int
main(int argc, char **argv)
{
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "EAL initialisation failed\n");
		return 2;
	}
	argc -= ret;
	argv += ret;
	if (argc < 2) {
		print_usage(argv[0]);
		ret = 2;
	} else if (strcmp(argv[1], "unit") == 0) {
		ret = run_unit(argc - 2, argv + 2);
	} else if (strcmp(argv[1], "log-levels") == 0) {
		ret = test_cq_log_levels(argc - 2, argv + 2);
	} else {
		print_usage(argv[0]);
		ret = 2;
	}
	rte_eal_cleanup();
	return ret;
}
