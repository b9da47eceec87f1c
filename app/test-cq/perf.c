/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#include <stdio.h>

#include "test_cq.h"

int
test_cq_perf(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("perf: not built yet\n");
	return 1;
}
