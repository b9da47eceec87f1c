/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "log": each library registers its log type under DPDK's driver
 * name pmd.<class>.<name> (RTE_LOG_REGISTER_DEFAULT with the logtype
 * drivers/meson.build defines), and --log-level on the EAL command line
 * sets the level of exactly that type. The command-line cases run
 * dpdk-test-cq again as a child ("log-levels NAME..." prints the level of
 * each named type, looked up by name) and compare with rte_log.h levels.
 */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_log.h>

#include "test.h"
#include "test_cq.h"
#include "test_net_util.h"

#define LOG_EMU "pmd.common.mlx5cq_emu"
#define LOG_LIB "pmd.common.mlx5cq"
#define LOG_NET "pmd.net.mlx5cq"

static const char * const log_names[] = { LOG_EMU, LOG_LIB, LOG_NET };

/* How many registered log types are named exactly @name. */
static int
log_type_count(const char *name)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f;
	int n = 0;

	f = open_memstream(&buf, &len);
	if (f == NULL)
		return -1;
	rte_log_list_types(f, "");
	fclose(f);
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save))
		if (strcmp(line, name) == 0)
			n++;
	free(buf);
	return n;
}

/* Level of the registered type @name, or -1 when no type has that name. */
static int
log_level_by_name(const char *name)
{
	int type;

	if (log_type_count(name) != 1)
		return -1;
	/* An existing name: rte_log_register() returns its id. */
	type = rte_log_register(name);
	if (type < 0)
		return -1;
	return rte_log_get_level(type);
}

/* Subcommand "log-levels NAME...": one "NAME LEVEL" line per name. */
int
test_cq_log_levels(int argc, char **argv)
{
	int i;

	if (net_load() != 0)
		return 1;
	for (i = 0; i < argc; i++)
		printf("%s %d\n", argv[i], log_level_by_name(argv[i]));
	return 0;
}

static int
test_log_types_registered(void)
{
	unsigned int i;

	TEST_ASSERT_SUCCESS(net_load(), "cannot load net_mlx5cq");
	for (i = 0; i < RTE_DIM(log_names); i++)
		TEST_ASSERT_EQUAL(log_type_count(log_names[i]), 1,
				  "log type %s registered %d times",
				  log_names[i], log_type_count(log_names[i]));
	/* RTE_LOG_REGISTER_DEFAULT without the meson define. */
	TEST_ASSERT_EQUAL(log_type_count("RTE_LOG_DEFAULT_LOGTYPE"), 0,
			  "a log type is named RTE_LOG_DEFAULT_LOGTYPE");
	return TEST_SUCCESS;
}

/*
 * Run "dpdk-test-cq EAL-ARGS @log_args -- log-levels" + the three names;
 * levels[i] gets the level the child printed for log_names[i].
 */
static int
log_child_levels(const char * const *log_args, unsigned int n_log_args,
		 int *levels)
{
	/* No hugepages, no shared files (--no-huge excludes --in-memory). */
	static const char * const eal[] = {
		"--no-pci", "--no-huge", "--no-shconf", "-m", "64", "-l", "0",
		"--no-telemetry", "--log-level=lib.eal:error",
	};
	const char *argv[RTE_DIM(eal) + 9 + RTE_DIM(log_names) + 1];
	char exe[PATH_MAX], name[64], prefix[64];
	unsigned int n = 0, i, found = 0;
	int fds[2], status, level;
	ssize_t len;
	pid_t pid;
	FILE *out;

	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0 || n_log_args > 6)
		return -1;
	exe[len] = '\0';
	argv[n++] = exe;
	for (i = 0; i < RTE_DIM(eal); i++)
		argv[n++] = eal[i];
	snprintf(prefix, sizeof(prefix), "--file-prefix=mlx5cq-log%d",
		 (int)getpid());
	argv[n++] = prefix;
	for (i = 0; i < n_log_args; i++)
		argv[n++] = log_args[i];
	argv[n++] = "--";
	argv[n++] = "log-levels";
	for (i = 0; i < RTE_DIM(log_names); i++)
		argv[n++] = log_names[i];
	argv[n] = NULL;
	if (pipe(fds) != 0)
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		execv(exe, (char * const *)(uintptr_t)argv);
		_exit(127);
	}
	close(fds[1]);
	out = fdopen(fds[0], "r");
	if (out == NULL) {
		close(fds[0]);
		waitpid(pid, &status, 0);
		return -1;
	}
	while (fscanf(out, "%63s %d", name, &level) == 2) {
		for (i = 0; i < RTE_DIM(log_names); i++) {
			if (strcmp(name, log_names[i]) == 0) {
				levels[i] = level;
				found++;
			}
		}
	}
	fclose(out);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		printf("  child failed (status 0x%x)\n", status);
		return -1;
	}
	return found == RTE_DIM(log_names) ? 0 : -1;
}

static int
log_expect(const char * const *log_args, unsigned int n_log_args,
	   const int *expect)
{
	int levels[RTE_DIM(log_names)];
	unsigned int i;

#ifdef RTE_MLX5CQ_DPDK_TEST
	/* dpdk-test has no "log-levels" command to run as the child. */
	RTE_SET_USED(log_args);
	RTE_SET_USED(n_log_args);
	RTE_SET_USED(expect);
	RTE_SET_USED(levels);
	RTE_SET_USED(i);
	return TEST_SKIPPED;
#endif
	for (i = 0; i < RTE_DIM(log_names); i++)
		levels[i] = -1;
	TEST_ASSERT_SUCCESS(log_child_levels(log_args, n_log_args, levels),
			    "dpdk-test-cq log-levels failed");
	for (i = 0; i < RTE_DIM(log_names); i++)
		TEST_ASSERT_EQUAL(levels[i], expect[i],
				  "%s: level %d, expected %d", log_names[i],
				  levels[i], expect[i]);
	return TEST_SUCCESS;
}

/* No --log-level for the drivers: every type at its NOTICE default. */
static int
test_log_default_levels(void)
{
	static const int expect[] = {
		RTE_LOG_NOTICE, RTE_LOG_NOTICE, RTE_LOG_NOTICE,
	};

	return log_expect(NULL, 0, expect);
}

/* One --log-level per driver name, three different levels. */
static int
test_log_level_by_name(void)
{
	static const char * const args[] = {
		"--log-level=" LOG_EMU ":debug",
		"--log-level=" LOG_LIB ":info",
		"--log-level=" LOG_NET ":warning",
	};
	static const int expect[] = {
		RTE_LOG_DEBUG, RTE_LOG_INFO, RTE_LOG_WARNING,
	};

	return log_expect(args, RTE_DIM(args), expect);
}

/*
 * A glob over the common class only: pmd.common.mlx5cq* reaches the
 * library and the emulator, never the net PMD.
 */
static int
test_log_level_glob(void)
{
	static const char * const args[] = {
		"--log-level=pmd.common.mlx5cq*:err",
	};
	static const int expect[] = {
		RTE_LOG_ERR, RTE_LOG_ERR, RTE_LOG_NOTICE,
	};

	return log_expect(args, RTE_DIM(args), expect);
}

static struct unit_test_suite log_suite = {
	.suite_name = "log",
	.unit_test_cases = {
		TEST_CASE(test_log_types_registered),
		TEST_CASE(test_log_default_levels),
		TEST_CASE(test_log_level_by_name),
		TEST_CASE(test_log_level_glob),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(log, log_suite);
