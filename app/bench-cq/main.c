/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * dpdk-bench-cq: EAL options, then "--", then one subcommand (each prints
 * its own usage on a wrong option):
 *   perf         cycles per completion of the burst poll, every
 *                implementation, beside a scalar reference loop (perf.c)
 *   perf-rx      net_mlx5cq RX burst on prepared rings (perf_rx.c)
 *   perf-engine  emulated HCA progress engine, cycles per packet
 *                (perf_engine.c)
 *   perf-crypto  crypto_mlx5cq dequeue on prepared completions
 *                (crypto_bench.c)
 *   bench-xts    emulated HCA AES-XTS path, MB/s (bench_xts.c)
 *   soak         threaded-producer stress, 1e8 completions by default
 *                (soak.c)
 *   demo         CQs on both creation paths of the emulated HCA, a few
 *                million completions written and polled (demo.c)
 * Nothing here asserts on timing; the unit suites are dpdk-test-cq
 * (app/test-cq).
 */

#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_eal.h>

#include "bench_cq.h"

struct bench_cq_cmd {
	const char *name;
	const char *args;
	int (*run)(int argc, char **argv);
};

static const struct bench_cq_cmd bench_cq_cmds[] = {
	{ "perf", "[--json FILE] [--reps N] [--image] [--case PREFIX]",
	  bench_cq_perf },
	{ "perf-rx", "[--reps N] [--case PREFIX] [--fill inject|port]",
	  bench_cq_perf_rx },
	{ "perf-engine", "[--reps N] [--len N] [--burst N]",
	  bench_cq_perf_engine },
	{ "perf-crypto", "[--reps N] [--burst N] [--algo xts|gcm]",
	  bench_cq_perf_crypto },
	{ "bench-xts", "[--reps N]", bench_cq_bench_xts },
	{ "soak", "[--count N] [--format F] [--layout L] [--cqe-size N] "
	  "[--log-n N] [--locked]", bench_cq_soak },
	{ "demo", "[--count N]", bench_cq_demo },
};

static void
print_usage(const char *prog)
{
	unsigned int i;

	printf("usage: %s EAL-OPTIONS -- SUBCOMMAND [OPTIONS]\n", prog);
	for (i = 0; i < RTE_DIM(bench_cq_cmds); i++)
		printf("  %-12s %s\n", bench_cq_cmds[i].name,
		       bench_cq_cmds[i].args);
}

int
main(int argc, char **argv)
{
	const struct bench_cq_cmd *cmd = NULL;
	unsigned int i;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "EAL initialisation failed\n");
		return 2;
	}
	argc -= ret;
	argv += ret;
	for (i = 0; argc >= 2 && i < RTE_DIM(bench_cq_cmds); i++)
		if (strcmp(argv[1], bench_cq_cmds[i].name) == 0)
			cmd = &bench_cq_cmds[i];
	if (cmd != NULL) {
		ret = cmd->run(argc - 2, argv + 2);
	} else {
		print_usage(argv[0]);
		ret = 2;
	}
	rte_eal_cleanup();
	return ret;
}
