/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef MLX5CQ_PMD_H_
#define MLX5CQ_PMD_H_

/*
 * What the PMDs built on the library (net_mlx5cq, crypto_mlx5cq) share
 * (internal API of librte_common_mlx5cq).
 */

#include <rte_compat.h>

struct ibv_context;
struct ibv_pd;
struct rte_mlx5cq_dev;

/**
 * Release the device part a PMD holds, in the reverse order of opening:
 * its protection domain, its mlx5cq device (rte_mlx5cq_dev_open()), its
 * verbs context. NULL entries are skipped; each pointer is cleared. A
 * step that fails is logged (ERR) under the PMD's log type and the next
 * steps still run.
 *
 * @param pd
 *   Protection domain (mlx5_glue->alloc_pd()).
 * @param cqdev
 *   mlx5cq device.
 * @param ctx
 *   Verbs context (mlx5_glue->open_device() or the emulator's).
 * @param logtype
 *   Log type of the PMD.
 * @param who
 *   Prefix of the log lines (the PMD's name).
 */
__rte_internal
void mlx5cq_pmd_dev_release(struct ibv_pd **pd,
			    struct rte_mlx5cq_dev **cqdev,
			    struct ibv_context **ctx, int logtype,
			    const char *who);

#endif /* MLX5CQ_PMD_H_ */
