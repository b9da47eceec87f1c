/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#include <stdio.h>

#include "test_cq.h"

int
test_cq_demo(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("demo: not built yet\n");
	return 1;
}
