/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Statistics. Basic stats come from the queues' software counters.
 * Extended stats add, per RX and TX queue, the counters the mlx5cq library
 * keeps in each CQ (completions, empty polls, error CQEs, polls, compressed
 * sessions and mini-CQEs, stops at compressed CQEs it could not expand,
 * overruns, arms, events). A queue's CQ lives from port start to port
 * stop: counters of destroyed CQs are accumulated in the queue, and a reset
 * takes a snapshot subtracted from later reads (the CQ's own counters are
 * the library's and are never written here).
 */

#include <stdio.h>
#include <string.h>

#include "mlx5cq_ethdev.h"

struct mlx5cq_cq_xstat {
	const char *name;
	size_t off;
};

#define MLX5CQ_CQ_XSTAT(f) { #f, offsetof(struct rte_mlx5cq_counters, f) }

static const struct mlx5cq_cq_xstat mlx5cq_cq_xstats[] = {
	MLX5CQ_CQ_XSTAT(completions),
	MLX5CQ_CQ_XSTAT(empty_polls),
	MLX5CQ_CQ_XSTAT(errors),
	MLX5CQ_CQ_XSTAT(polls),
	MLX5CQ_CQ_XSTAT(comp_unhandled),
	MLX5CQ_CQ_XSTAT(sessions),
	MLX5CQ_CQ_XSTAT(minis),
	MLX5CQ_CQ_XSTAT(overruns),
	MLX5CQ_CQ_XSTAT(arms),
	MLX5CQ_CQ_XSTAT(events),
};

#define MLX5CQ_NB_CQ_XSTATS RTE_DIM(mlx5cq_cq_xstats)

/* Software queue counters shown as xstats too. */
static const char *const mlx5cq_q_xstats[] = {
	"packets", "bytes", "errors",
};

#define MLX5CQ_NB_Q_XSTATS RTE_DIM(mlx5cq_q_xstats)
#define MLX5CQ_PER_QUEUE (MLX5CQ_NB_Q_XSTATS + MLX5CQ_NB_CQ_XSTATS)

static inline uint64_t
mlx5cq_ctr(const struct rte_mlx5cq_counters *c, unsigned int i)
{
	return *(const uint64_t *)((const uint8_t *)c +
				   mlx5cq_cq_xstats[i].off);
}

static inline void
mlx5cq_ctr_add(struct rte_mlx5cq_counters *c, unsigned int i, uint64_t v)
{
	*(uint64_t *)((uint8_t *)c + mlx5cq_cq_xstats[i].off) += v;
}

/* Add the counters of cq (about to be destroyed) to acc. */
void
mlx5cq_cq_counters_add(struct rte_mlx5cq_counters *acc,
		       const struct rte_mlx5cq *cq)
{
	struct rte_mlx5cq_counters c;
	unsigned int i;

	if (cq == NULL || rte_mlx5cq_counters_get(cq, &c) != 0)
		return;
	for (i = 0; i < MLX5CQ_NB_CQ_XSTATS; i++)
		mlx5cq_ctr_add(acc, i, mlx5cq_ctr(&c, i));
}

/* Counter i of a queue's CQs since the last reset. */
static uint64_t
mlx5cq_q_cq_ctr(const struct rte_mlx5cq *cq,
		const struct rte_mlx5cq_counters *base,
		const struct rte_mlx5cq_counters *reset, unsigned int i)
{
	struct rte_mlx5cq_counters c;
	uint64_t v = mlx5cq_ctr(base, i);

	if (cq != NULL && rte_mlx5cq_counters_get(cq, &c) == 0)
		v += mlx5cq_ctr(&c, i);
	return v - mlx5cq_ctr(reset, i);
}

int
mlx5cq_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st)
{
	unsigned int i;

	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		const struct mlx5cq_rxq *q = dev->data->rx_queues[i];

		if (q == NULL)
			continue;
		st->ipackets += q->st.packets;
		st->ibytes += q->st.bytes;
		st->ierrors += q->st.errors;
		st->rx_nombuf += q->st.nombuf;
		if (i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			st->q_ipackets[i] = q->st.packets;
			st->q_ibytes[i] = q->st.bytes;
			st->q_errors[i] = q->st.errors;
		}
	}
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		const struct mlx5cq_txq *q = dev->data->tx_queues[i];

		if (q == NULL)
			continue;
		st->opackets += q->st.packets;
		st->obytes += q->st.bytes;
		st->oerrors += q->st.errors;
		if (i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			st->q_opackets[i] = q->st.packets;
			st->q_obytes[i] = q->st.bytes;
		}
	}
	return 0;
}

int
mlx5cq_stats_reset(struct rte_eth_dev *dev)
{
	unsigned int i;

	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		struct mlx5cq_rxq *q = dev->data->rx_queues[i];

		if (q != NULL)
			memset(&q->st, 0, sizeof(q->st));
	}
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		struct mlx5cq_txq *q = dev->data->tx_queues[i];

		if (q != NULL)
			memset(&q->st, 0, sizeof(q->st));
	}
	return 0;
}

static unsigned int
mlx5cq_xstats_count(const struct rte_eth_dev *dev)
{
	return (dev->data->nb_rx_queues + dev->data->nb_tx_queues) *
	       MLX5CQ_PER_QUEUE;
}

int
mlx5cq_xstats_get_names(struct rte_eth_dev *dev,
			struct rte_eth_xstat_name *names, unsigned int n)
{
	unsigned int cnt = mlx5cq_xstats_count(dev);
	unsigned int q, i, k = 0, dir;

	if (names == NULL || n < cnt)
		return cnt;
	for (dir = 0; dir < 2; dir++) {
		unsigned int nq = dir ? dev->data->nb_tx_queues :
				  dev->data->nb_rx_queues;
		const char *d = dir ? "tx" : "rx";

		for (q = 0; q < nq; q++) {
			for (i = 0; i < MLX5CQ_NB_Q_XSTATS; i++)
				snprintf(names[k++].name,
					 sizeof(names[0].name), "%s_q%u_%s",
					 d, q, mlx5cq_q_xstats[i]);
			for (i = 0; i < MLX5CQ_NB_CQ_XSTATS; i++)
				snprintf(names[k++].name,
					 sizeof(names[0].name),
					 "%s_q%u_cq_%s", d, q,
					 mlx5cq_cq_xstats[i].name);
		}
	}
	return cnt;
}

int
mlx5cq_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *x,
		  unsigned int n)
{
	unsigned int cnt = mlx5cq_xstats_count(dev);
	unsigned int q, i, k = 0;

	if (x == NULL || n < cnt)
		return cnt;
	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		const struct mlx5cq_rxq *r = dev->data->rx_queues[q];
		uint64_t sw[MLX5CQ_NB_Q_XSTATS] = { 0 };

		if (r != NULL) {
			sw[0] = r->st.packets;
			sw[1] = r->st.bytes;
			sw[2] = r->st.errors;
		}
		for (i = 0; i < MLX5CQ_NB_Q_XSTATS; i++, k++) {
			x[k].id = k;
			x[k].value = sw[i];
		}
		for (i = 0; i < MLX5CQ_NB_CQ_XSTATS; i++, k++) {
			x[k].id = k;
			x[k].value = r == NULL ? 0 :
				     mlx5cq_q_cq_ctr(r->cq, &r->cq_base,
						     &r->cq_reset, i);
		}
	}
	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		const struct mlx5cq_txq *t = dev->data->tx_queues[q];
		uint64_t sw[MLX5CQ_NB_Q_XSTATS] = { 0 };

		if (t != NULL) {
			sw[0] = t->st.packets;
			sw[1] = t->st.bytes;
			sw[2] = t->st.errors;
		}
		for (i = 0; i < MLX5CQ_NB_Q_XSTATS; i++, k++) {
			x[k].id = k;
			x[k].value = sw[i];
		}
		for (i = 0; i < MLX5CQ_NB_CQ_XSTATS; i++, k++) {
			x[k].id = k;
			x[k].value = t == NULL ? 0 :
				     mlx5cq_q_cq_ctr(t->cq, &t->cq_base,
						     &t->cq_reset, i);
		}
	}
	return cnt;
}

static void
mlx5cq_snapshot(struct rte_mlx5cq_counters *reset,
		const struct rte_mlx5cq *cq,
		const struct rte_mlx5cq_counters *base)
{
	struct rte_mlx5cq_counters c;
	unsigned int i;

	if (cq == NULL || rte_mlx5cq_counters_get(cq, &c) != 0)
		memset(&c, 0, sizeof(c));
	for (i = 0; i < MLX5CQ_NB_CQ_XSTATS; i++) {
		uint64_t v = mlx5cq_ctr(base, i) + mlx5cq_ctr(&c, i);

		*(uint64_t *)((uint8_t *)reset + mlx5cq_cq_xstats[i].off) = v;
	}
}

int
mlx5cq_xstats_reset(struct rte_eth_dev *dev)
{
	unsigned int q;

	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		struct mlx5cq_rxq *r = dev->data->rx_queues[q];

		if (r != NULL)
			mlx5cq_snapshot(&r->cq_reset, r->cq, &r->cq_base);
	}
	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		struct mlx5cq_txq *t = dev->data->tx_queues[q];

		if (t != NULL)
			mlx5cq_snapshot(&t->cq_reset, t->cq, &t->cq_base);
	}
	return mlx5cq_stats_reset(dev);
}
