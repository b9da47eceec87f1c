/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Loader of the emulated HCA plugin (mlx5cq_emu_plugin.h): dlopen() of
 * librte_common_mlx5cq_emu, its entry points, its glue install.
 */

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <rte_errno.h>
#include <rte_string_fns.h>

#include "mlx5_emu.h"
#include "mlx5cq_emu_plugin.h"
#include "mlx5cq_private.h"

#ifndef MLX5CQ_EMU_PLUGIN_DIR
#define MLX5CQ_EMU_PLUGIN_DIR ""
#endif

/* The table's types are the emulator header's. */
_Static_assert(__builtin_types_compatible_p(__typeof__(&mlx5_emu_open),
	__typeof__(((struct mlx5cq_emu_plugin *)NULL)->open)),
	"mlx5_emu_open signature");
_Static_assert(__builtin_types_compatible_p(__typeof__(&mlx5_emu_port_config),
	__typeof__(((struct mlx5cq_emu_plugin *)NULL)->port_config)),
	"mlx5_emu_port_config signature");
_Static_assert(__builtin_types_compatible_p(
	__typeof__(&mlx5_emu_port_speed_set),
	__typeof__(((struct mlx5cq_emu_plugin *)NULL)->port_speed_set)),
	"mlx5_emu_port_speed_set signature");

static pthread_mutex_t plugin_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mlx5cq_emu_plugin plugin;
static void *plugin_handle; /* NULL until loaded. */
static char plugin_path[PATH_MAX];
static char plugin_err[256]; /* Why the last candidate did not load. */

/* Fill the table from handle: 0, or -1 when a symbol is missing. */
static int
plugin_bind(void *handle, int (**install)(void))
{
	*(void **)&plugin.open = dlsym(handle, "mlx5_emu_open");
	*(void **)&plugin.port_config = dlsym(handle, "mlx5_emu_port_config");
	*(void **)&plugin.port_speed_set = dlsym(handle,
						 "mlx5_emu_port_speed_set");
	*(void **)install = dlsym(handle, "mlx5_emu_install");
	if (plugin.open == NULL || plugin.port_config == NULL ||
	    plugin.port_speed_set == NULL || *install == NULL)
		return -1;
	return 0;
}

/*
 * dlopen() one candidate file: the handle, or NULL with *err set to ENOENT
 * (no such file, the next candidate may be tried) or ELIBBAD.
 */
static void *
plugin_open_file(const char *file, int *err)
{
	struct stat st;
	void *h;

	/* A bare file name goes through the dynamic loader's search path. */
	if (strchr(file, '/') != NULL && stat(file, &st) != 0) {
		snprintf(plugin_err, sizeof(plugin_err), "%s",
			 strerror(errno));
		MLX5CQ_LOG(DEBUG, "emulated HCA plugin: %s: %s", file,
			   plugin_err);
		*err = ENOENT;
		return NULL;
	}
	h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		const char *e = dlerror();

		snprintf(plugin_err, sizeof(plugin_err), "%s", e ? e : "?");
		MLX5CQ_LOG(DEBUG, "emulated HCA plugin: %s: %s", file,
			   plugin_err);
		*err = strchr(file, '/') != NULL ? ELIBBAD : ENOENT;
	}
	return h;
}

/* Folder of this library ("" when unknown), into dir. */
static void
plugin_own_dir(char *dir, size_t len)
{
	Dl_info info;
	char *slash;

	dir[0] = '\0';
	if (dladdr((void *)(uintptr_t)&mlx5cq_emu_plugin_load, &info) == 0 ||
	    info.dli_fname == NULL)
		return;
	snprintf(dir, len, "%s", info.dli_fname);
	slash = strrchr(dir, '/');
	if (slash == NULL)
		dir[0] = '\0';
	else
		*slash = '\0';
}

/* Find and dlopen the emulator: its handle, or NULL with rte_errno set. */
static void *
plugin_find(const char *env)
{
	char cand[3][PATH_MAX];
	unsigned int i, n = 0;
	Dl_info info;
	void *h, *sym;
	int err = ENOENT;

	if (env != NULL) {
		h = plugin_open_file(env, &err);
		if (h == NULL) {
			MLX5CQ_LOG(ERR, "emulated HCA plugin %s (from %s) "
				   "cannot be loaded: %s", env,
				   MLX5CQ_EMU_PLUGIN_ENV, plugin_err);
			rte_errno = err;
			return NULL;
		}
		snprintf(plugin_path, sizeof(plugin_path), "%s", env);
		return h;
	}
	/* Linked into the program already (tests, examples): a handle of
	 * that very library; linked statically into an executable that
	 * exports its symbols (-Wl,--export-dynamic, as DPDK's static apps),
	 * the global scope, and the executable's file as the path.
	 */
	sym = dlsym(RTLD_DEFAULT, "mlx5_emu_open");
	if (sym != NULL) {
		h = NULL;
		plugin_path[0] = '\0';
		if (dladdr(sym, &info) != 0 && info.dli_fname != NULL) {
			h = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
			strlcpy(plugin_path, info.dli_fname,
				sizeof(plugin_path));
		}
		if (h == NULL)
			h = dlopen(NULL, RTLD_NOW); /* The global scope. */
		if (h != NULL)
			return h;
	}
	plugin_own_dir(cand[n], sizeof(cand[n]));
	if (cand[n][0] != '\0' &&
	    strlen(cand[n]) + sizeof(MLX5CQ_EMU_PLUGIN_FILE) + 1 <
	    sizeof(cand[n])) {
		strcat(cand[n], "/" MLX5CQ_EMU_PLUGIN_FILE);
		n++;
	}
	if (MLX5CQ_EMU_PLUGIN_DIR[0] != '\0')
		snprintf(cand[n++], sizeof(cand[0]), "%s",
			 MLX5CQ_EMU_PLUGIN_DIR "/" MLX5CQ_EMU_PLUGIN_FILE);
	snprintf(cand[n++], sizeof(cand[0]), "%s", MLX5CQ_EMU_PLUGIN_FILE);
	for (i = 0; i < n; i++) {
		h = plugin_open_file(cand[i], &err);
		if (h != NULL) {
			strlcpy(plugin_path, cand[i], sizeof(plugin_path));
			return h;
		}
		if (err != ENOENT) {
			MLX5CQ_LOG(ERR, "emulated HCA plugin %s cannot be "
				   "loaded: %s", cand[i], plugin_err);
			rte_errno = err;
			return NULL;
		}
	}
	MLX5CQ_LOG(ERR, "emulated HCA plugin %s not found (next to "
			   "librte_common_mlx5cq, in %s, or in the loader's "
			   "path); set %s to its file", MLX5CQ_EMU_PLUGIN_FILE,
			   MLX5CQ_EMU_PLUGIN_DIR[0] ? MLX5CQ_EMU_PLUGIN_DIR :
			   "(no install folder)", MLX5CQ_EMU_PLUGIN_ENV);
	rte_errno = err;
	return NULL;
}

/*
 * $MLX5CQ_EMU_LIB set while an emulator is loaded already: 0 when it names
 * that same emulator, -1 with rte_errno set otherwise.
 */
static int
plugin_check_env(const char *env)
{
	struct stat a, b;
	void *h, *open_fn;
	int err = ENOENT;

	/* The loaded emulator's own file (an executable that has it linked
	 * in cannot be dlopen()ed again).
	 */
	if (plugin_path[0] != '\0' && stat(env, &a) == 0 &&
	    stat(plugin_path, &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino)
		return 0;
	h = plugin_open_file(env, &err);
	if (h == NULL) {
		MLX5CQ_LOG(ERR, "emulated HCA plugin %s (from %s) cannot be "
			   "loaded: %s", env, MLX5CQ_EMU_PLUGIN_ENV, plugin_err);
		rte_errno = err;
		return -1;
	}
	open_fn = dlsym(h, "mlx5_emu_open");
	dlclose(h);
	if (open_fn != (void *)(uintptr_t)plugin.open) {
		MLX5CQ_LOG(ERR, "emulated HCA plugin %s (from %s): another "
			   "emulator is loaded already (%s)", env,
			   MLX5CQ_EMU_PLUGIN_ENV,
			   plugin_path[0] ? plugin_path : "the program");
		rte_errno = EEXIST;
		return -1;
	}
	return 0;
}

const struct mlx5cq_emu_plugin *
mlx5cq_emu_plugin_load(void)
{
	const char *env = getenv(MLX5CQ_EMU_PLUGIN_ENV);
	int (*install)(void) = NULL;
	void *h;
	int ret;

	if (env != NULL && env[0] == '\0')
		env = NULL;
	pthread_mutex_lock(&plugin_lock);
	if (plugin_handle != NULL) {
		ret = env != NULL ? plugin_check_env(env) : 0;
		pthread_mutex_unlock(&plugin_lock);
		return ret == 0 ? &plugin : NULL;
	}
	h = plugin_find(env);
	if (h == NULL) {
		pthread_mutex_unlock(&plugin_lock);
		return NULL;
	}
	if (plugin_bind(h, &install) != 0) {
		MLX5CQ_LOG(ERR, "emulated HCA plugin %s: not the emulator "
			   "(mlx5_emu_* entry points missing)", plugin_path);
		ret = ELIBBAD;
		goto error;
	}
	ret = -install();
	if (ret != 0) {
		MLX5CQ_LOG(ERR, "emulated HCA plugin %s: glue install failed: "
			   "%s", plugin_path, strerror(ret));
		goto error;
	}
	plugin.path = plugin_path;
	plugin_handle = h;
	pthread_mutex_unlock(&plugin_lock);
	MLX5CQ_LOG(INFO, "emulated HCA plugin loaded from %s",
		   plugin_path[0] ? plugin_path : "the program");
	return &plugin;
error:
	memset(&plugin, 0, sizeof(plugin));
	plugin_path[0] = '\0';
	dlclose(h);
	pthread_mutex_unlock(&plugin_lock);
	rte_errno = ret;
	return NULL;
}

void *
mlx5cq_emu_plugin_find(const char *name)
{
	void *h;

	pthread_mutex_lock(&plugin_lock);
	h = plugin_handle;
	pthread_mutex_unlock(&plugin_lock);
	return h != NULL && name != NULL ? dlsym(h, name) : NULL;
}

void *
mlx5cq_emu_plugin_sym(const char *name)
{
	void *h, *sym = NULL;

	pthread_mutex_lock(&plugin_lock);
	h = plugin_handle;
	pthread_mutex_unlock(&plugin_lock);
	if (h != NULL && name != NULL)
		sym = dlsym(h, name);
	if (sym == NULL) {
		MLX5CQ_LOG(ERR, "emulated HCA plugin: %s %s",
			   name ? name : "(null)",
			   h ? "not found" : "asked before the plugin is loaded");
		rte_errno = ENOENT;
	}
	return sym;
}
