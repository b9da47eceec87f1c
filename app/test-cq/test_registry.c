/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/* The list of unit suites (REGISTER_TEST_SUITE), kept sorted by name. */

#include <string.h>

#include "test.h"

static struct test_cq_suite *suites;

void
test_cq_register(struct test_cq_suite *s)
{
	struct test_cq_suite **p = &suites;

	while (*p != NULL && strcmp((*p)->name, s->name) < 0)
		p = &(*p)->next;
	s->next = *p;
	*p = s;
}

struct test_cq_suite *
test_cq_suites(void)
{
	return suites;
}
