/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_CQ_CNT_H_
#define TEST_CQ_CNT_H_

/*
 * A CQ's counters read through rte_mlx5cq_counters_get(), as any consumer
 * reads them (the hot ones live in the handle, the rest behind the API).
 */

#include <string.h>

#include <rte_mlx5cq.h>

/* Snapshot of the counters, valid until the next call. */
static inline const struct rte_mlx5cq_counters *
test_cq_cnt(const struct rte_mlx5cq *cq)
{
	static struct rte_mlx5cq_counters c;

	if (rte_mlx5cq_counters_get(cq, &c) != 0)
		memset(&c, 0xff, sizeof(c));
	return &c;
}

#endif /* TEST_CQ_CNT_H_ */
