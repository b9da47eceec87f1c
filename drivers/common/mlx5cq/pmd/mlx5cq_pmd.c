/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/* What the PMDs built on the library share: the device release. */

#include <rte_errno.h>
#include <rte_log.h>

#include <mlx5_glue.h>

#include "rte_mlx5cq.h"
#include "mlx5cq_pmd.h"

void
mlx5cq_pmd_dev_release(struct ibv_pd **pd, struct rte_mlx5cq_dev **cqdev,
		       struct ibv_context **ctx, int logtype, const char *who)
{
	if (*pd != NULL) {
		if (mlx5_glue->dealloc_pd(*pd) != 0)
			rte_log(RTE_LOG_ERR, logtype, "%s: PD release failed\n",
				who);
		*pd = NULL;
	}
	if (*cqdev != NULL) {
		if (rte_mlx5cq_dev_close(*cqdev) != 0)
			rte_log(RTE_LOG_ERR, logtype,
				"%s: mlx5cq device close failed: %s\n", who,
				rte_strerror(rte_errno));
		*cqdev = NULL;
	}
	if (*ctx != NULL) {
		if (mlx5_glue->close_device(*ctx) != 0)
			rte_log(RTE_LOG_ERR, logtype,
				"%s: device close failed (objects left)\n",
				who);
		*ctx = NULL;
	}
}
