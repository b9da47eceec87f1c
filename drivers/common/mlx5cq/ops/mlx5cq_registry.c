/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Library-global registry of CQs (created and attached), each with an id
 * that telemetry and rte_mlx5cq_dump() use, and the counter calls.
 */

#include <errno.h>
#include <pthread.h>
#include <string.h>

#include <rte_errno.h>

#include "mlx5cq_private.h"

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static TAILQ_HEAD(, mlx5cq_cq) reg_list = TAILQ_HEAD_INITIALIZER(reg_list);
static uint32_t reg_next_id;

void
mlx5cq_registry_add(struct mlx5cq_cq *cq)
{
	pthread_mutex_lock(&reg_lock);
	cq->id = reg_next_id++;
	TAILQ_INSERT_TAIL(&reg_list, cq, reg_next);
	pthread_mutex_unlock(&reg_lock);
}

void
mlx5cq_registry_del(struct mlx5cq_cq *cq)
{
	pthread_mutex_lock(&reg_lock);
	TAILQ_REMOVE(&reg_list, cq, reg_next);
	pthread_mutex_unlock(&reg_lock);
}

int
mlx5cq_registry_ids(uint32_t *ids, unsigned int max)
{
	struct mlx5cq_cq *cq;
	unsigned int n = 0;

	pthread_mutex_lock(&reg_lock);
	TAILQ_FOREACH(cq, &reg_list, reg_next) {
		if (n < max)
			ids[n] = cq->id;
		n++;
	}
	pthread_mutex_unlock(&reg_lock);
	return (int)n;
}

int
mlx5cq_registry_with(uint32_t id, void (*fn)(struct mlx5cq_cq *, void *),
		     void *arg)
{
	struct mlx5cq_cq *cq;
	int found = 0;

	pthread_mutex_lock(&reg_lock);
	TAILQ_FOREACH(cq, &reg_list, reg_next) {
		if (cq->id == id) {
			fn(cq, arg);
			found = 1;
			break;
		}
	}
	pthread_mutex_unlock(&reg_lock);
	return found ? 0 : -ENOENT;
}

int
rte_mlx5cq_id(const struct rte_mlx5cq *pub)
{
	if (pub == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	return (int)mlx5cq_from_pub(pub)->id;
}

int
rte_mlx5cq_counters_get(const struct rte_mlx5cq *cq, struct rte_mlx5cq_counters *c)
{
	if (cq == NULL || c == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	mlx5cq_lock(cq);
	memcpy(c, MLX5CQ_CNT(cq), sizeof(*c));
	c->completions = cq->completions;
	c->polls = cq->polls;
	c->empty_polls = cq->empty_polls;
	mlx5cq_unlock(cq);
	return 0;
}

int
rte_mlx5cq_counters_reset(struct rte_mlx5cq *cq)
{
	if (cq == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	mlx5cq_lock(cq);
	memset(MLX5CQ_CNT(cq), 0, sizeof(*MLX5CQ_CNT(cq)));
	cq->completions = 0;
	cq->polls = 0;
	cq->empty_polls = 0;
	mlx5cq_unlock(cq);
	return 0;
}
