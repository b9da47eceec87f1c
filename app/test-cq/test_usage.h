/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_USAGE_H_
#define TEST_USAGE_H_

/*
 * What leak checks compare before and after: the rte_malloc use of every
 * socket's heap and the process's open file descriptors.
 */

#include <stdint.h>

struct heap_use {
	uint64_t heap_bytes;
	uint64_t alloc_count;
};

/* Bytes and allocations of every socket's heap. */
void heap_use(struct heap_use *u);
/* 0 when before and after hold the same use, else -1 after printing
 * "<what> leaked: bytes/allocations -> bytes/allocations".
 */
int heap_use_same(const struct heap_use *before,
		  const struct heap_use *after, const char *what);
/* Open file descriptors of the process. */
unsigned int open_fds(void);

#endif /* TEST_USAGE_H_ */
