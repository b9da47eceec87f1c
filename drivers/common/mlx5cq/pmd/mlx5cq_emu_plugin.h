/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef MLX5CQ_EMU_PLUGIN_H_
#define MLX5CQ_EMU_PLUGIN_H_

/*
 * The emulated HCA as an optional plugin of the PMDs (internal API of
 * librte_common_mlx5cq). A PMD asked for dev=emu calls
 * mlx5cq_emu_plugin_load(): the emulator library is dlopen()ed once per
 * process and its dispatching glue installed; a PMD on a real card never
 * calls it, so no PMD has the emulator among its DT_NEEDED entries.
 *
 * Where the emulator is looked for, first hit wins:
 *   1. $MLX5CQ_EMU_LIB, when set: that file only (a failure is final);
 *      read at every call: while an emulator is loaded it must name that
 *      same emulator (EEXIST otherwise);
 *   2. the process already has it (an application linked with it);
 *   3. the folder of librte_common_mlx5cq itself;
 *   4. the library folder of the installation (MLX5CQ_EMU_PLUGIN_DIR);
 *   5. the dynamic loader's search path (LD_LIBRARY_PATH, ld.so.cache).
 * The library is never unloaded: the process's mlx5_glue points into it.
 */

#include <stdint.h>

#include <rte_compat.h>

struct ibv_context;
struct mlx5_emu_caps;

/* Environment variable naming the emulator library file. */
#define MLX5CQ_EMU_PLUGIN_ENV "MLX5CQ_EMU_LIB"
/* File name of the emulator library. */
#define MLX5CQ_EMU_PLUGIN_FILE "librte_common_mlx5cq_emu.so"

/* Entry points of the loaded emulator (see mlx5_emu.h). */
struct mlx5cq_emu_plugin {
	struct ibv_context *(*open)(const char *name,
				    const struct mlx5_emu_caps *caps);
	int (*port_config)(struct ibv_context *ctx, const char *wire,
			   const uint8_t mac[6]);
	int (*port_speed_set)(struct ibv_context *ctx, uint32_t speed_mbps);
	/* File it was loaded from ("" when linked into the program). */
	const char *path;
};

/**
 * Load the emulated HCA (once per process) and install its glue.
 *
 * @return
 *   The emulator's entry points, or NULL with rte_errno set: ENOENT (not
 *   found; $MLX5CQ_EMU_LIB names no file), ELIBBAD (found but not
 *   loadable, or not the emulator), EEXIST ($MLX5CQ_EMU_LIB names another
 *   emulator than the loaded one), or the error of its glue install.
 */
__rte_internal
const struct mlx5cq_emu_plugin *mlx5cq_emu_plugin_load(void);

/**
 * Look up another function of the loaded emulator (for PMDs that use more
 * of it than struct mlx5cq_emu_plugin holds).
 *
 * @param name
 *   Symbol name.
 * @return
 *   Its address, or NULL with rte_errno set (ENOENT: not loaded yet or no
 *   such symbol).
 */
__rte_internal
void *mlx5cq_emu_plugin_sym(const char *name);

/*
 * mlx5cq_emu_plugin_sym() without the log: NULL when the plugin is not
 * loaded or has no such symbol (library-internal, not exported).
 */
void *mlx5cq_emu_plugin_find(const char *name);

#endif /* MLX5CQ_EMU_PLUGIN_H_ */
