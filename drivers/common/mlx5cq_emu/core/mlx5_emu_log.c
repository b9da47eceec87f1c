/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#include <rte_log.h>

#include "mlx5_emu_private.h"

/* pmd.common.mlx5cq_emu (RTE_LOG_DEFAULT_LOGTYPE from drivers/meson.build). */
RTE_LOG_REGISTER_DEFAULT(mlx5_emu_logtype, NOTICE);
