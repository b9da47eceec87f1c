/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_CQ_TEST_WAIT_H_
#define TEST_CQ_TEST_WAIT_H_

/*
 * Deadlines for the suites' waits on other threads or on the emulated
 * HCA: every such wait ends by its deadline and the case then fails with
 * a message, so no suite depends on meson's timeout. The bound is far
 * above what the wait needs (sanitizer builds and a loaded machine
 * included); nothing asserts on how long a wait took.
 */

#include <stdint.h>
#include <time.h>

/* Seconds a wait may take before the case fails. */
#define TEST_WAIT_S 60

static inline uint64_t
test_wait_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Deadline s seconds from now. */
static inline uint64_t
test_wait_deadline(unsigned int s)
{
	return test_wait_now_ns() + (uint64_t)s * 1000000000ull;
}

/* Non-zero once the deadline has passed. */
static inline int
test_wait_expired(uint64_t deadline)
{
	return test_wait_now_ns() >= deadline;
}

#endif /* TEST_CQ_TEST_WAIT_H_ */
