/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_EMU_FIXTURE_H_
#define TEST_EMU_FIXTURE_H_

/*
 * Fixture of the emulated HCA's DevX suites (test_emu_fixture.c).
 */

#include <stddef.h>
#include <stdint.h>

#include <infiniband/mlx5dv.h>

#include "mlx5_emu.h"

/*
 * rte_common_mlx5's struct mlx5_devx_obj (mlx5_common.h, whose includes
 * need EAL driver headers this app does not get): the DevX object and its
 * id, as mlx5_devx_cq_create() returns them.
 */
struct mlx5_devx_obj {
	void *obj;
	int id;
};

#define CREATE_CQ_IN_LEN 272 /* MLX5_ST_SZ_BYTES(create_cq_in) */
#define CMD_STAT_BAD_OP 0x02
#define CMD_STAT_BAD_PARAM 0x03
#define CMD_STAT_LIM 0x08
#define CMD_STAT_BAD_INP_LEN 0x50
#define CMD_STAT_BAD_OUTP_LEN 0x51

/* rte_malloc usage over all sockets. */
struct emut_heap {
	uint64_t allocs;
	uint64_t bytes;
};

struct cq_env {
	struct ibv_context *ctx;
	struct mlx5dv_devx_uar *uar;
	uint8_t *buf; /* Ring of 2^log x stride, then an 8 B record slot. */
	size_t len;
	struct mlx5dv_devx_umem *umem;
	uint32_t eqn;
	unsigned int log_size;
	unsigned int stride;
};

/* rte_malloc use over all sockets: taken, then compared (1: same). */
void emut_heap_snap(struct emut_heap *s);
int emut_heap_same(const struct emut_heap *a);
/* 1 when the model holds no umem, object, CQ, UAR or PD of ctx. */
int emut_stats_idle(struct ibv_context *ctx);
/* A device with the default capabilities changed by tweak (may be NULL). */
struct ibv_context *emut_open_caps(const char *name,
				   void (*tweak)(struct mlx5_emu_caps *c));
/* Status and syndrome of a command's output mailbox. */
uint8_t emut_out_status(void *out);
uint32_t emut_out_syndrome(void *out);
void emut_set_be64(void *p, uint64_t v);
/* Page size of the DPDK memory holding p (0: not DPDK memory). */
uint64_t emut_dpdk_page_size(const void *p);
/* UAR, ring of 2^log_size x stride and its record in one umem, EQ 0. */
int emut_env_init(struct cq_env *e, struct ibv_context *ctx,
		  unsigned int log_size, unsigned int stride);
void emut_env_fini(struct cq_env *e);
/* A valid CREATE_CQ mailbox, written field by field from the PRM. */
void emut_build_create_cq(uint32_t *in, const struct cq_env *e,
			  unsigned int cqe_sz);
/* log_max_cq_sz 12. */
void emut_caps_cqsz12(struct mlx5_emu_caps *c);
/* Small limits, compression off but for L3/L4 mini-CQEs, 2 vectors. */
void emut_caps_small(struct mlx5_emu_caps *c);

#endif /* TEST_EMU_FIXTURE_H_ */
