/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef BENCH_CQ_H_
#define BENCH_CQ_H_

/* Subcommands of dpdk-bench-cq (main.c), one file each. */
int bench_cq_perf(int argc, char **argv);
int bench_cq_perf_rx(int argc, char **argv);
/* perf-rx's table, also the last table of perf (perf_rx.c). */
int bench_cq_perf_rx_table(unsigned int reps, const char *only);
int bench_cq_perf_engine(int argc, char **argv);
int bench_cq_perf_crypto(int argc, char **argv);
int bench_cq_bench_xts(int argc, char **argv);
int bench_cq_soak(int argc, char **argv);
int bench_cq_demo(int argc, char **argv);

#endif /* BENCH_CQ_H_ */
