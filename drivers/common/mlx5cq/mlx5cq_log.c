/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#include <rte_log.h>

#include "mlx5cq_private.h"

RTE_LOG_REGISTER(mlx5cq_logtype, pmd.common.mlx5cq, NOTICE);
