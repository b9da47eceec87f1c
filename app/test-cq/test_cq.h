/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_CQ_H_
#define TEST_CQ_H_

/* Subcommands of dpdk-test-cq other than "unit". */
int test_cq_perf(int argc, char **argv);
int test_cq_demo(int argc, char **argv);
int test_cq_perf_rx(int argc, char **argv);
int test_cq_perf_rx_table(unsigned int reps, const char *only);
/* perf-crypto (crypto_bench.c): crypto_mlx5cq dequeue cycles per op. */
int test_cq_perf_crypto(int argc, char **argv);
int test_cq_perf_engine(int argc, char **argv);
int test_cq_soak(int argc, char **argv);
int test_cq_log_levels(int argc, char **argv);
int test_cq_bench_xts(int argc, char **argv);

#endif /* TEST_CQ_H_ */
