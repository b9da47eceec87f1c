/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Memory of the library: every allocation goes through these wrappers so
 * tests can make the Nth one fail, and so the page size backing a buffer
 * (hugepage or not) is found in one place.
 */

#include <stdint.h>
#include <unistd.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include "mlx5cq_private.h"

/* Allocations made so far, and the value at which one must fail (0: off). */
static uint64_t mem_alloc_count;
static uint64_t mem_fail_at;

static int
mem_fail_now(void)
{
	uint64_t n = __atomic_add_fetch(&mem_alloc_count, 1, __ATOMIC_RELAXED);
	uint64_t at = __atomic_load_n(&mem_fail_at, __ATOMIC_RELAXED);

	if (at == 0 || n != at)
		return 0;
	/* Only one caller consumes the armed failure. */
	return __atomic_compare_exchange_n(&mem_fail_at, &at, 0, 0,
					   __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

void
mlx5cq_mem_fail_inject(uint32_t nth)
{
	uint64_t at = 0;

	if (nth != 0)
		at = __atomic_load_n(&mem_alloc_count, __ATOMIC_RELAXED) + nth;
	__atomic_store_n(&mem_fail_at, at, __ATOMIC_RELAXED);
}

int
mlx5cq_mem_fail_pending(void)
{
	return __atomic_load_n(&mem_fail_at, __ATOMIC_RELAXED) != 0;
}

uint64_t
mlx5cq_mem_alloc_count(void)
{
	return __atomic_load_n(&mem_alloc_count, __ATOMIC_RELAXED);
}

static void *
mem_alloc(const char *type, size_t size, unsigned int align, int socket,
	  int zero)
{
	void *p;

	if (mem_fail_now()) {
		MLX5CQ_LOG(DEBUG, "injected allocation failure (%zu bytes)",
			   size);
		rte_errno = ENOMEM;
		return NULL;
	}
	if (zero)
		p = rte_zmalloc_socket(type, size, align, socket);
	else
		p = rte_malloc_socket(type, size, align, socket);
	if (p == NULL) {
		MLX5CQ_LOG(ERR, "cannot allocate %zu bytes (align %u) on"
			   " socket %d", size, align, socket);
		rte_errno = ENOMEM;
	}
	return p;
}

void *
mlx5cq_zmalloc(const char *type, size_t size, unsigned int align, int socket)
{
	return mem_alloc(type, size, align, socket, 1);
}

void
mlx5cq_free(void *addr)
{
	rte_free(addr);
}

size_t
mlx5cq_sys_page_size(void)
{
	long sz = sysconf(_SC_PAGESIZE);

	return sz > 0 ? (size_t)sz : 4096;
}

uint64_t
mlx5cq_mem_page_size(const void *addr)
{
	const struct rte_memseg_list *msl;

	msl = rte_mem_virt2memseg_list(addr);
	if (msl == NULL)
		return mlx5cq_sys_page_size();
	return msl->page_sz;
}
