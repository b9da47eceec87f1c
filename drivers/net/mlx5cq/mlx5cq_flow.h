/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef MLX5CQ_FLOW_H_
#define MLX5CQ_FLOW_H_

/*
 * NIC RX steering of the port, shared by its two owners:
 *   mlx5cq_flow.c        the receive rules the PMD keeps itself (VLAN
 *                        filter, addresses), the domain and its tables
 *   mlx5cq_flow_parse.c  rte_flow attributes, pattern and actions into a
 *                        rule's match and fate
 *   mlx5cq_flow_user.c   the application's rte_flow rules: list, device
 *                        objects, rte_flow_ops
 * Match layouts are mlx5_prm.h's fte_match_param.
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_flow.h>

#include <mlx5_prm.h>

#include "mlx5cq_ethdev.h"

#define MLX5CQ_FLOW_MATCH_SZ MLX5_ST_SZ_BYTES(fte_match_param)

/*
 * Root table priorities: the application's rules take 0 ..
 * MLX5CQ_FLOW_PRIO_USER_N - 1 (rte_flow attr.priority), before the
 * PMD's own VLAN filter rules, as net/mlx5 puts its control flows at the
 * lowest priority (mlx5_flow.c, MLX5_FLOW_LOWEST_PRIO_INDICATOR).
 */
#define MLX5CQ_FLOW_PRIO_USER_N 8
#define MLX5CQ_FLOW_PRIO_VLAN MLX5CQ_FLOW_PRIO_USER_N
#define MLX5CQ_FLOW_PRIO_ANY (MLX5CQ_FLOW_PRIO_USER_N + 1)

/*
 * The CQE flow tag of mark id N is N + 1 (0 means "no rule tagged it");
 * flag tags 0xffffff, and the largest id is 0xfffff0 (net/mlx5:
 * mlx5_flow_mark_set(), MLX5_FLOW_MARK_DEFAULT, MLX5_FLOW_MARK_MAX).
 */
#define MLX5CQ_FLOW_TAG_FLAG 0xffffffu
#define MLX5CQ_FLOW_MARK_MAX 0xfffff0u

/* A match mask or value in the layout dv_create_flow* take. */
struct mlx5cq_flow_match {
	size_t match_sz;
	uint64_t buf[MLX5CQ_FLOW_MATCH_SZ / 8];
};

static inline void
mlx5cq_flow_match_init(struct mlx5cq_flow_match *m)
{
	memset(m, 0, sizeof(*m));
	m->match_sz = MLX5CQ_FLOW_MATCH_SZ;
}

#define MLX5CQ_MATCH_SET(m, fld, v) \
	MLX5_SET(fte_match_param, (m)->buf, outer_headers.fld, v)

enum mlx5cq_flow_fate {
	MLX5CQ_FLOW_FATE_NONE = 0,
	MLX5CQ_FLOW_FATE_QUEUE,
	MLX5CQ_FLOW_FATE_RSS,
	MLX5CQ_FLOW_FATE_DROP,
};

/* One rte_flow rule of the application. */
struct rte_flow {
	TAILQ_ENTRY(rte_flow) next;
	/* What the rule is (mlx5cq_flow_parse.c). */
	uint16_t prio;
	struct mlx5cq_flow_match mask;
	struct mlx5cq_flow_match value;
	uint32_t tag; /* CQE flow tag to write, 0: none. */
	enum mlx5cq_flow_fate fate;
	uint64_t rss_hf; /* Hash types (RSS; 0 for QUEUE: no hash). */
	uint8_t rss_key[MLX5CQ_RSS_KEY_LEN];
	uint8_t rss_key_set; /* 0: the port's key. */
	uint16_t queue_n;
	uint16_t queues[MLX5CQ_MAX_QUEUES];
	/* Its device objects while the port's domain exists. */
	void *matcher;
	void *rule;
	void *act_tag;
	void *act_fate;
	struct mlx5_devx_obj *rqt;
	struct mlx5_devx_obj *tir;
};

/* mlx5cq_flow.c */
void *mlx5cq_flow_matcher(struct mlx5cq_priv *priv, void *tbl, uint16_t prio,
			  const struct mlx5cq_flow_match *mask);

/* mlx5cq_flow_parse.c: 0, or -rte_errno with *error set and logged. */
int mlx5cq_flow_parse(struct rte_eth_dev *dev,
		      const struct rte_flow_attr *attr,
		      const struct rte_flow_item items[],
		      const struct rte_flow_action actions[],
		      struct rte_flow *flow, struct rte_flow_error *error);

/* mlx5cq_flow_user.c */
int mlx5cq_flow_user_apply(struct mlx5cq_priv *priv);
void mlx5cq_flow_user_release(struct mlx5cq_priv *priv);

#endif /* MLX5CQ_FLOW_H_ */
