/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_CQ_H_
#define TEST_CQ_H_

/* Subcommands of dpdk-test-cq other than "unit". */
int test_cq_log_levels(int argc, char **argv);

#endif /* TEST_CQ_H_ */
