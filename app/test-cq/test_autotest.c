/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * dpdk-test only (in a DPDK tree, devtools/intree.sh): mlx5cq_autotest runs
 * every unit suite; each suite is also its own command
 * mlx5cq_<suite>_autotest (REGISTER_TEST_SUITE in test.h).
 */

#include <stdio.h>

#include "test.h"

static int
test_mlx5cq_all(void)
{
	struct test_cq_suite *s;
	unsigned int failed = 0, skipped = 0, n = 0;
	int ret;

	for (s = test_cq_suites(); s != NULL; s = s->next) {
		ret = unit_test_suite_runner(s->suite);
		n++;
		if (ret == TEST_SKIPPED)
			skipped++;
		else if (ret != TEST_SUCCESS)
			failed++;
	}
	printf("mlx5cq: %u suites, %u failed, %u skipped\n", n, failed,
	       skipped);
	if (failed != 0)
		return TEST_FAILED;
	return n == skipped ? TEST_SKIPPED : TEST_SUCCESS;
}

REGISTER_TEST_COMMAND(mlx5cq_autotest, test_mlx5cq_all);
