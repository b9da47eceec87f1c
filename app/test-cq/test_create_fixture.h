/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_CREATE_FIXTURE_H_
#define TEST_CREATE_FIXTURE_H_

/*
 * Shared fixture of the create suites (create, create_failures,
 * create_pool; test_create_fixture.c): the suite's default emulated device,
 * resource snapshots for leak checks, attribute builders and what the
 * kernel makes of a ring's memory.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include <mlx5_glue.h>

#include <rte_mlx5cq.h>
#include <mlx5_emu.h>
#include <mlx5cq_test_hooks.h>

#include "test.h"

/* The default emulated device of the suites. */
extern struct ibv_context *g_ctx;
extern struct rte_mlx5cq_dev *g_dev;

/* Default capabilities (mlx5_emu.h): log_max_cq_sz 22, 4 vectors. */
#define DEF_LOG_MAX_CQ_SZ 22
#define DEF_VECTORS 4

/*
 * Records one cache line apart, as rte_common_mlx5 spaces them
 * (MLX5_DBR_SIZE is RTE_CACHE_LINE_SIZE in mlx5_common.h): 64 B on x86,
 * 128 B on 128-byte-line builds; a 4 KiB page holds DBR_PER_PAGE.
 */
#define DBR_SLOT RTE_CACHE_LINE_SIZE
#define DBR_PER_PAGE (4096 / DBR_SLOT)

struct snap {
	uint64_t heap_bytes; /* rte_malloc bytes allocated, all sockets. */
	uint64_t alloc_count; /* rte_malloc elements, all sockets. */
	struct mlx5_emu_stats emu;
	struct rte_mlx5cq_dev_stats dev;
};

struct ring_umem {
	uintptr_t start;
	uint64_t len;
	uint64_t offset; /* cq_umem_offset */
	uint32_t log_page_size;
};

int snap_take(struct ibv_context *ctx, struct rte_mlx5cq_dev *dev,
	      struct snap *s);
int snap_same(const struct snap *a, const struct snap *b, const char *what);
uint32_t ring_entries(uint32_t n);
uint32_t ilog2(uint64_t v);
void attr_init(struct rte_mlx5cq_attr *a, uint32_t cqe,
	       enum rte_mlx5cq_path path);
void attr_cqe_size(struct rte_mlx5cq_attr *a, uint16_t size, int pad);
void attr_comp(struct rte_mlx5cq_attr *a, uint8_t fmt, uint8_t layout);
struct ibv_context *emu_open_caps(const char *name,
				  void (*tweak)(struct mlx5_emu_caps *));
uint64_t mem_page_size(const void *p);
void expect_ring_umem(const void *ring, size_t len, struct ring_umem *u);
uint32_t expect_log_page_size(const void *ring, size_t len);
void put_be32(uint8_t *b, size_t off, uint32_t v);
/* Open (close) the default device of a suite. */
int create_fixture_setup(void);
void create_fixture_teardown(void);

#endif /* TEST_CREATE_FIXTURE_H_ */
