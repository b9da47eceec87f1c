/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_plugin": the loader of the emulated HCA plugin
 * (mlx5cq_emu_plugin_load(), librte_common_mlx5cq) and net_mlx5cq's
 * dev=emu through it. dpdk-test-cq is linked with the emulator, so the
 * loader must hand out that very emulator: its entry points are compared
 * with the addresses the linker gave this program. $MLX5CQ_EMU_LIB naming
 * a missing file, a file that is no library, or a library that is not the
 * emulator fails with ENOENT, ELIBBAD or EEXIST, a log line naming the
 * file, and leaves no rte_malloc memory and no file descriptor behind; a
 * port probed with dev=emu then is refused the same way.
 */

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_log.h>

#include <mlx5_emu.h>
#include <mlx5cq_emu_plugin.h>
#include <rte_mlx5cq.h>

#include "test.h"
#include "test_net_util.h"

/* File of the shared object holding addr, into buf. */
static int
file_of(const void *addr, char *buf, size_t len)
{
	Dl_info info;

	if (dladdr(addr, &info) == 0 || info.dli_fname == NULL)
		return -1;
	snprintf(buf, len, "%s", info.dli_fname);
	return 0;
}

/* mlx5cq_emu_plugin_load() with $MLX5CQ_EMU_LIB = env (NULL: unset);
 * the log it writes into *log (to be freed).
 */
static const struct mlx5cq_emu_plugin *
load_with_env(const char *env, char **log)
{
	const struct mlx5cq_emu_plugin *p;
	FILE *old = rte_log_get_stream(), *f;
	size_t len = 0;
	int err;

	*log = NULL;
	f = open_memstream(log, &len);
	if (f == NULL)
		return NULL;
	if (env != NULL)
		setenv(MLX5CQ_EMU_PLUGIN_ENV, env, 1);
	else
		unsetenv(MLX5CQ_EMU_PLUGIN_ENV);
	rte_openlog_stream(f);
	p = mlx5cq_emu_plugin_load();
	err = rte_errno;
	rte_openlog_stream(old);
	unsetenv(MLX5CQ_EMU_PLUGIN_ENV);
	fclose(f);
	rte_errno = err;
	return p;
}

/* Loaded without $MLX5CQ_EMU_LIB: the emulator this program links. */
static int
test_plugin_default(void)
{
	const struct mlx5cq_emu_plugin *p;
	char emu_file[512], *log;

	TEST_ASSERT_SUCCESS(file_of((void *)(uintptr_t)&mlx5_emu_open,
				    emu_file, sizeof(emu_file)),
			    "dladdr of mlx5_emu_open");
	p = load_with_env(NULL, &log);
	if (p == NULL)
		printf("%s", log ? log : "");
	free(log);
	TEST_ASSERT(p != NULL, "load: %s", rte_strerror(rte_errno));
	TEST_ASSERT(p->open == &mlx5_emu_open, "open is not mlx5_emu_open");
	TEST_ASSERT(p->port_config == &mlx5_emu_port_config,
		    "port_config is not mlx5_emu_port_config");
	TEST_ASSERT(p->port_speed_set == &mlx5_emu_port_speed_set,
		    "port_speed_set is not mlx5_emu_port_speed_set");
	TEST_ASSERT(strcmp(p->path, emu_file) == 0, "path %s, want %s",
		    p->path, emu_file);
	/* Loaded once: the same table again. */
	TEST_ASSERT(load_with_env(NULL, &log) == p, "second load differs");
	free(log);
	TEST_ASSERT(mlx5cq_emu_plugin_sym("mlx5_emu_close") ==
		    (void *)(uintptr_t)&mlx5_emu_close, "sym mlx5_emu_close");
	rte_errno = 0;
	TEST_ASSERT(mlx5cq_emu_plugin_sym("mlx5_emu_no_such_function") ==
		    NULL && rte_errno == ENOENT, "sym of a missing function");
	/* $MLX5CQ_EMU_LIB naming the loaded emulator's file is accepted. */
	TEST_ASSERT(load_with_env(emu_file, &log) == p,
		    "MLX5CQ_EMU_LIB=%s refused: %s", emu_file,
		    rte_strerror(rte_errno));
	free(log);
	return TEST_SUCCESS;
}

/* $MLX5CQ_EMU_LIB naming what cannot be the emulator: the errno wanted,
 * the file named in the log, nothing left behind.
 */
static int
test_plugin_env_wrong(void)
{
	char lib_file[512], emu_file[512];
	const struct {
		const char *path;
		int err;
		const char *msg;
	} bad[] = {
		{ "/nonexistent/librte_common_mlx5cq_emu.so", ENOENT,
		  "No such file or directory" },
		{ "/proc/self/status", ELIBBAD, "cannot be loaded" },
		{ lib_file, EEXIST, "another emulator is loaded already" },
	};
	struct heap_use before, after;
	unsigned int i, fds;
	char *log;

	TEST_ASSERT_SUCCESS(file_of((void *)(uintptr_t)&rte_mlx5cq_dev_open,
				    lib_file, sizeof(lib_file)),
			    "dladdr of rte_mlx5cq_dev_open");
	TEST_ASSERT_SUCCESS(file_of((void *)(uintptr_t)&mlx5_emu_open,
				    emu_file, sizeof(emu_file)),
			    "dladdr of mlx5_emu_open");
	heap_use(&before);
	fds = open_fds();
	for (i = 0; i < RTE_DIM(bad); i++) {
		/* Linked statically (dpdk-test of a DPDK tree), the library
		 * and the emulator are one file: no other emulator to name.
		 */
		if (bad[i].err == EEXIST && strcmp(lib_file, emu_file) == 0)
			continue;
		rte_errno = 0;
		TEST_ASSERT(load_with_env(bad[i].path, &log) == NULL,
			    "%s loaded", bad[i].path);
		TEST_ASSERT(rte_errno == bad[i].err, "%s: rte_errno %d, "
			    "want %d", bad[i].path, rte_errno, bad[i].err);
		TEST_ASSERT(log != NULL && strstr(log, bad[i].path) != NULL &&
			    strstr(log, bad[i].msg) != NULL,
			    "%s: log without the file and \"%s\": %s",
			    bad[i].path, bad[i].msg, log ? log : "");
		free(log);
	}
	heap_use(&after);
	TEST_ASSERT_SUCCESS(heap_use_same(&before, &after, "failed loads"),
			    "rte_malloc use");
	TEST_ASSERT_EQUAL(open_fds(), fds, "file descriptors %u -> %u", fds,
			  open_fds());
	return TEST_SUCCESS;
}

/* net_mlx5cq dev=emu with $MLX5CQ_EMU_LIB wrong: probe refused with the
 * PMD's and the loader's log lines, no port, nothing leaked.
 */
static int
test_plugin_probe_env_wrong(void)
{
	static const char path[] = "/nonexistent/dir/librte_common_mlx5cq_emu.so";
	FILE *old = rte_log_get_stream(), *f;
	struct heap_use before, after;
	uint16_t nb = rte_eth_dev_count_avail();
	unsigned int fds;
	char *log = NULL;
	size_t len = 0;
	int port;

	TEST_ASSERT_SUCCESS(net_load(), "PMD load");
	/* Warm up: the first port of a process makes ethdev's shared data. */
	port = port_probe("net_mlx5cq_tp", "dev=emu");
	TEST_ASSERT(port >= 0, "probe with the plugin failed");
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	heap_use(&before);
	fds = open_fds();
	f = open_memstream(&log, &len);
	TEST_ASSERT(f != NULL, "open_memstream");
	setenv(MLX5CQ_EMU_PLUGIN_ENV, path, 1);
	rte_openlog_stream(f);
	port = port_probe("net_mlx5cq_tp", "dev=emu");
	rte_openlog_stream(old);
	unsetenv(MLX5CQ_EMU_PLUGIN_ENV);
	fclose(f);
	if (port >= 0)
		port_remove(port);
	TEST_ASSERT(port < 0, "probed with %s=%s", MLX5CQ_EMU_PLUGIN_ENV,
		    path);
	TEST_ASSERT_EQUAL(rte_eth_dev_count_avail(), nb, "ports left");
	TEST_ASSERT(log != NULL && strstr(log, path) != NULL &&
		    strstr(log, "dev=emu needs the emulated HCA plugin") !=
		    NULL, "log: %s", log ? log : "");
	free(log);
	heap_use(&after);
	TEST_ASSERT_SUCCESS(heap_use_same(&before, &after, "refused probe"),
			    "rte_malloc use");
	TEST_ASSERT_EQUAL(open_fds(), fds, "file descriptors %u -> %u", fds,
			  open_fds());
	/* And without it the same port probes again. */
	port = port_probe("net_mlx5cq_tp", "dev=emu");
	TEST_ASSERT(port >= 0, "probe after the failure");
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	return TEST_SUCCESS;
}

/* ethdev's shared data is made with the first port or owner and, from
 * DPDK 23.11 on, freed with the last: an owner held across the suite keeps
 * it out of the cases' rte_malloc checks.
 */
static int
plugin_suite_setup(void)
{
	return net_ethdev_hold();
}

static void
plugin_suite_teardown(void)
{
	net_ethdev_release();
}

static struct unit_test_suite emu_plugin_suite = {
	.suite_name = "emu_plugin",
	.setup = plugin_suite_setup,
	.teardown = plugin_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_plugin_default),
		TEST_CASE(test_plugin_env_wrong),
		TEST_CASE(test_plugin_probe_env_wrong),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(emu_plugin, emu_plugin_suite);
