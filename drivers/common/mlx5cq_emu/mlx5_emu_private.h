/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef MLX5_EMU_PRIVATE_H_
#define MLX5_EMU_PRIVATE_H_

/*
 * Internal structures of the emulated HCA, shared by its files:
 *   mlx5_emu_glue.c   dispatching glue table (install, forwarding)
 *   mlx5_emu_dev.c    devices, contexts, PD, UAR, EQ numbers, stats, faults
 *   mlx5_emu_caps.c   QUERY_HCA_CAP and other general commands
 *   mlx5_emu_umem.c   umem pinning model (ib_umem_get / best page size)
 *   mlx5_emu_cq.c     CQ table, DevX CREATE/DESTROY/QUERY_CQ firmware checks
 *   mlx5_emu_cqe.c    CQE writer (producer interface)
 *   mlx5_emu_verbs.c  verbs path as the rdma-core mlx5 provider does it
 */

#include <pthread.h>
#include <stdint.h>
#include <sys/queue.h>

#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>
#include <rte_log.h>

#include "mlx5_emu.h"

extern int mlx5_emu_logtype;

#define EMU_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mlx5_emu_logtype, \
		"mlx5_emu: " fmt "\n", ##__VA_ARGS__)

#define EMU_MAX_CMD_IN 4096 /* Largest input mailbox kept for inspection. */

struct emu_dev;
struct mlx5_glue;

/* A registered umem (what ib_umem_get pinned). */
struct emu_umem {
	struct mlx5dv_devx_umem pub; /* umem_id; first member. */
	TAILQ_ENTRY(emu_umem) next;
	struct emu_dev *dev;
	uint64_t addr; /* Virtual start. */
	uint64_t size;
	uint32_t access;
	uint32_t nsegs;
	uint32_t page_shift;
	uint32_t npages;
	uint32_t refcnt; /* Objects using it. */
};

/* A DevX object handle given to the user. */
struct emu_obj {
	TAILQ_ENTRY(emu_obj) next;
	struct emu_dev *dev;
	uint16_t type; /* PRM opcode of its CREATE command. */
	uint32_t id; /* Object number (cqn for a CQ). */
	void *priv; /* Type-specific state (struct emu_cq *). */
};

/* A CQ as the firmware holds it (both paths). */
struct emu_cq {
	TAILQ_ENTRY(emu_cq) next;
	struct emu_dev *dev;
	uint32_t cqn;
	uint8_t verbs; /* Created by the verbs path. */
	uint8_t log_cq_size;
	uint8_t cqe_sz; /* 0 64 B, 1 128 B, 2 128 B padded. */
	uint8_t cqe_comp_en;
	uint8_t mini_cqe_res_format; /* Incl. the _ext bits (0..4). */
	uint8_t cqe_comp_layout;
	uint8_t oi;
	uint8_t log_page_size;
	uint32_t uar_page;
	uint32_t eqn;
	uint16_t cq_period;
	uint16_t cq_max_count;
	struct emu_umem *ring_umem; /* NULL on the verbs path. */
	uint64_t ring_umem_offset;
	struct emu_umem *dbr_umem; /* NULL on the verbs path. */
	uint64_t dbr_offset;
	uint8_t *ring; /* Host address of entry 0. */
	volatile uint32_t *dbrec; /* Host address of the doorbell record. */
	uint32_t pi; /* Producer counter. */
	uint32_t status; /* cqc.status. */
	pthread_mutex_t lock; /* Serialises producers. */
};

/* Per-device fault injection state. */
struct emu_fault {
	uint32_t skip;
	uint32_t count;
};

/* One emulated device; its ibv_context is handed to the user. */
struct emu_dev {
	struct verbs_context vctx; /* ctx == &vctx.context (found by lookup). */
	struct ibv_device ibdev; /* ctx->device points here (name). */
	TAILQ_ENTRY(emu_dev) next;
	char name[IBV_SYSFS_NAME_MAX];
	struct mlx5_emu_caps caps;
	pthread_mutex_t lock;
	TAILQ_HEAD(, emu_umem) umems;
	TAILQ_HEAD(, emu_obj) objs;
	TAILQ_HEAD(, emu_cq) cqs;
	uint32_t next_umem_id;
	uint32_t next_cqn;
	uint32_t next_uar_page;
	struct mlx5_emu_stats stats;
	struct emu_fault faults[MLX5_EMU_FAIL_MAX];
	/* Last command: input mailbox and failure. */
	uint8_t last_in[EMU_MAX_CMD_IN];
	size_t last_in_len;
	int have_last_in;
	uint8_t last_status;
	uint32_t last_syndrome;
	int have_last_err;
	/* Verbs path: external allocators and doorbell-record pages. */
	struct mlx5dv_ctx_allocators ext_alloc;
	int have_ext_alloc;
	void *verbs_priv; /* Owned by mlx5_emu_verbs.c. */
};

/* mlx5_emu_dev.c */
struct emu_dev *emu_dev_from_ctx(const struct ibv_context *ctx);
int emu_fault_hit(struct emu_dev *dev, enum mlx5_emu_fail_point point);

/* mlx5_emu_glue.c: the original (forwarded) glue table. */
extern const struct mlx5_glue *emu_orig_glue;

/* mlx5_emu_umem.c: lookup by id (caller holds dev->lock). */
struct emu_umem *emu_umem_lookup(struct emu_dev *dev, uint32_t id);
int emu_umem_is_ours(const void *umem);

/* mlx5_emu_cq.c: CQ table (caller holds dev->lock). */
struct emu_cq *emu_cq_lookup(struct emu_dev *dev, uint32_t cqn);
struct emu_cq *emu_cq_new(struct emu_dev *dev); /* cqn assigned, all CQEs
						 * not yet initialised. */
void emu_cq_free(struct emu_cq *cq);

/* mlx5_emu_cqe.c: CQE writer (takes cq->lock). */
int emu_cqe_post(struct emu_cq *cq, const struct mlx5_emu_cpl *cpl,
		 unsigned int n);
/* Bytes of one ring entry (64 or 128) and the 64 B CQE of entry idx. */
unsigned int emu_cq_stride(const struct emu_cq *cq);
void *emu_cq_cqe64(const struct emu_cq *cq, uint32_t idx);

/*
 * mlx5_emu_verbs.c: the verbs path (rdma-core mlx5 provider behaviour).
 * The glue dispatcher forwards these entries for emulated contexts/objects.
 */
struct ibv_cq_ex *emu_verbs_dv_create_cq(struct ibv_context *ctx,
					 struct ibv_cq_init_attr_ex *cq_attr,
					 struct mlx5dv_cq_init_attr *dv_attr);
int emu_verbs_destroy_cq(struct ibv_cq *cq);
int emu_verbs_is_cq(const struct ibv_cq *cq);
int emu_verbs_set_context_attr(struct ibv_context *ctx,
			       enum mlx5dv_set_ctx_attr_type type, void *attr);
/* MLX5DV_OBJ_CQ of emulated CQs; the dispatcher forwards the others. */
int emu_verbs_init_obj(struct mlx5dv_obj *obj, uint64_t obj_type);
int emu_verbs_dv_query_device(struct ibv_context *ctx,
			      struct mlx5dv_context *attrs);
/* Called at device close, before the device is freed. */
void emu_verbs_dev_release(struct emu_dev *dev);

#endif /* MLX5_EMU_PRIVATE_H_ */
