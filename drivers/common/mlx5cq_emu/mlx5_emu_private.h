/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef MLX5_EMU_PRIVATE_H_
#define MLX5_EMU_PRIVATE_H_

#include <rte_log.h>

#include "mlx5_emu.h"

extern int mlx5_emu_logtype;

#define EMU_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mlx5_emu_logtype, \
		"mlx5_emu: " fmt "\n", ##__VA_ARGS__)

#endif /* MLX5_EMU_PRIVATE_H_ */
