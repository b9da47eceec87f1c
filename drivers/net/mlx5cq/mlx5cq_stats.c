/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Statistics. Basic stats come from the queues' software counters.
 * Extended stats add, per RX and TX queue, the counters the mlx5cq library
 * keeps in each CQ (completions, empty polls, error CQEs, polls, compressed
 * sessions and mini-CQEs, stops at compressed CQEs it could not expand,
 * overruns, arms, events, and error CQEs by syndrome), read with
 * rte_mlx5cq_counters_get(). A queue's CQ lives from port start to port
 * stop: counters of destroyed CQs are accumulated in the queue, and a reset
 * takes a snapshot subtracted from later reads (the CQ's own counters are
 * the library's and are never written here). Queue recoveries after error
 * completions and failed attempts are counted per queue.
 *
 * imissed and the port xstat rx_out_of_buffer: frames the device dropped
 * for lack of a posted RX WQE, read from the port's queue counter set
 * (QUERY_Q_COUNTER out_of_buffer, 32 bits, accumulated in 64) which every
 * RQ is attached to (rqc.counter_set_id), as net/mlx5 reports them.
 */

#include <stdio.h>
#include <string.h>

#include <mlx5_devx_cmds.h>

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

/*
 * Error CQEs by syndrome (rte_mlx5cq_counters.err_syndrome): the ones an
 * Ethernet queue can meet, named as ibv_wc_status (rdma-core
 * mlx5_handle_error_cqe), then every other syndrome together.
 */
static const struct {
	const char *name;
	uint8_t syndrome;
} mlx5cq_synd_xstats[] = {
	{ "err_loc_len", 0x01 },
	{ "err_loc_qp_op", 0x02 },
	{ "err_loc_prot", 0x04 },
	{ "err_wr_flush", 0x05 },
	{ "err_bad_resp", 0x10 },
	{ "err_loc_access", 0x11 },
};

#define MLX5CQ_NB_SYND_XSTATS (RTE_DIM(mlx5cq_synd_xstats) + 1)
#define MLX5CQ_NB_CQ_XSTATS RTE_DIM(mlx5cq_cq_xstats)
#define MLX5CQ_NB_CQ_ALL (MLX5CQ_NB_CQ_XSTATS + MLX5CQ_NB_SYND_XSTATS)

/* Software queue counters shown as xstats too. */
static const char *const mlx5cq_q_xstats[] = {
	"packets", "bytes", "errors", "recoveries", "recovery_failures",
};

#define MLX5CQ_NB_Q_XSTATS RTE_DIM(mlx5cq_q_xstats)
#define MLX5CQ_PER_QUEUE (MLX5CQ_NB_Q_XSTATS + MLX5CQ_NB_CQ_ALL)
/* Port-level xstats after the queues': rx_out_of_buffer. */
#define MLX5CQ_NB_PORT_XSTATS 1

/* CQ xstat i of c: a named counter, a syndrome, or the other syndromes. */
static uint64_t
mlx5cq_ctr(const struct rte_mlx5cq_counters *c, unsigned int i)
{
	uint64_t v = 0;
	unsigned int k, j;

	if (i < MLX5CQ_NB_CQ_XSTATS)
		return *(const uint64_t *)((const uint8_t *)c +
					   mlx5cq_cq_xstats[i].off);
	k = i - MLX5CQ_NB_CQ_XSTATS;
	if (k < RTE_DIM(mlx5cq_synd_xstats))
		return c->err_syndrome[mlx5cq_synd_xstats[k].syndrome];
	for (j = 0; j < RTE_DIM(c->err_syndrome); j++)
		v += c->err_syndrome[j];
	for (k = 0; k < RTE_DIM(mlx5cq_synd_xstats); k++)
		v -= c->err_syndrome[mlx5cq_synd_xstats[k].syndrome];
	return v;
}

/* Add the counters of cq (about to be destroyed) to acc. */
void
mlx5cq_cq_counters_add(struct rte_mlx5cq_counters *acc,
		       struct rte_mlx5cq *cq)
{
	struct rte_mlx5cq_counters c;
	unsigned int i;

	if (cq == NULL || rte_mlx5cq_counters_get(cq, &c) != 0)
		return;
	for (i = 0; i < MLX5CQ_NB_CQ_XSTATS; i++)
		*(uint64_t *)((uint8_t *)acc + mlx5cq_cq_xstats[i].off) +=
			mlx5cq_ctr(&c, i);
	for (i = 0; i < RTE_DIM(c.err_syndrome); i++)
		acc->err_syndrome[i] += c.err_syndrome[i];
}

/* Every counter of a queue's CQs so far (destroyed ones included). */
static void
mlx5cq_q_cq_total(struct rte_mlx5cq *cq,
		  const struct rte_mlx5cq_counters *base,
		  struct rte_mlx5cq_counters *out)
{
	*out = *base;
	mlx5cq_cq_counters_add(out, cq);
}

/*
 * Out-of-buffer drops of the port's RQs so far (0 without a set). On a
 * failed device (which answers no query) the last count read stands.
 */
static int
mlx5cq_imissed(struct mlx5cq_priv *priv, uint64_t *v)
{
	uint32_t oob;

	/* The counter set is the primary's: a secondary reads the last sum. */
	if (priv->qcnt != NULL && !priv->dev_failed &&
	    rte_eal_process_type() == RTE_PROC_PRIMARY) {
		if (mlx5_devx_cmd_queue_counter_query(priv->qcnt, 0,
						      &oob) != 0) {
			PMD_LOG(ERR, "port %u: QUERY_Q_COUNTER failed: %s",
				priv->eth_dev->data->port_id,
				rte_strerror(rte_errno));
			return -rte_errno;
		}
		priv->oob_total += (uint32_t)(oob - priv->oob_last);
		priv->oob_last = oob;
	}
	*v = priv->oob_total;
	return 0;
}

int
mlx5cq_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	uint64_t oob = 0; /* -Wmaybe-uninitialized of gcc -O3. */
	unsigned int i;
	int ret;

	ret = mlx5cq_imissed(priv, &oob);
	if (ret != 0)
		return ret;
	st->imissed = oob - priv->oob_base;

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
	struct mlx5cq_priv *priv = dev->data->dev_private;
	uint64_t oob = 0; /* -Wmaybe-uninitialized of gcc -O3. */
	unsigned int i;

	if (mlx5cq_imissed(priv, &oob) == 0)
		priv->oob_base = oob;

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
	       MLX5CQ_PER_QUEUE + MLX5CQ_NB_PORT_XSTATS;
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
			for (i = 0; i < MLX5CQ_NB_CQ_ALL; i++)
				snprintf(names[k++].name,
					 sizeof(names[0].name),
					 "%s_q%u_cq_%s", d, q,
					 i < MLX5CQ_NB_CQ_XSTATS ?
					 mlx5cq_cq_xstats[i].name :
					 i - MLX5CQ_NB_CQ_XSTATS <
					 RTE_DIM(mlx5cq_synd_xstats) ?
					 mlx5cq_synd_xstats[i -
					 MLX5CQ_NB_CQ_XSTATS].name :
					 "err_other");
		}
	}
	snprintf(names[k++].name, sizeof(names[0].name), "rx_out_of_buffer");
	return cnt;
}

/* Software counters, then CQ counters since the reset, of one queue. */
static unsigned int
mlx5cq_q_xstats_fill(struct rte_eth_xstat *x, unsigned int k,
		     const struct mlx5cq_qstats *st, struct rte_mlx5cq *cq,
		     const struct rte_mlx5cq_counters *base,
		     const struct rte_mlx5cq_counters *reset)
{
	struct rte_mlx5cq_counters tot;
	uint64_t sw[MLX5CQ_NB_Q_XSTATS] = { 0 };
	unsigned int i;

	if (st != NULL) {
		sw[0] = st->packets;
		sw[1] = st->bytes;
		sw[2] = st->errors;
		sw[3] = st->recoveries;
		sw[4] = st->recovery_failures;
		mlx5cq_q_cq_total(cq, base, &tot);
	}
	for (i = 0; i < MLX5CQ_NB_Q_XSTATS; i++, k++) {
		x[k].id = k;
		x[k].value = sw[i];
	}
	for (i = 0; i < MLX5CQ_NB_CQ_ALL; i++, k++) {
		x[k].id = k;
		x[k].value = st == NULL ? 0 :
			     mlx5cq_ctr(&tot, i) - mlx5cq_ctr(reset, i);
	}
	return k;
}

int
mlx5cq_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *x,
		  unsigned int n)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	unsigned int cnt = mlx5cq_xstats_count(dev);
	unsigned int q, k = 0;
	uint64_t oob = 0; /* -Wmaybe-uninitialized of gcc -O3. */

	if (x == NULL || n < cnt)
		return cnt;
	if (mlx5cq_imissed(priv, &oob) != 0)
		return -rte_errno;
	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		struct mlx5cq_rxq *r = dev->data->rx_queues[q];

		k = mlx5cq_q_xstats_fill(x, k, r ? &r->st : NULL,
					 r ? r->cq : NULL,
					 r ? &r->cq_base : NULL,
					 r ? &r->cq_reset : NULL);
	}
	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		struct mlx5cq_txq *t = dev->data->tx_queues[q];

		k = mlx5cq_q_xstats_fill(x, k, t ? &t->st : NULL,
					 t ? t->cq : NULL,
					 t ? &t->cq_base : NULL,
					 t ? &t->cq_reset : NULL);
	}
	x[k].id = k;
	x[k].value = oob - priv->oob_base;
	return cnt;
}

/* Snapshot of every counter (syndromes included) a reset subtracts. */
static void
mlx5cq_snapshot(struct rte_mlx5cq_counters *reset, struct rte_mlx5cq *cq,
		const struct rte_mlx5cq_counters *base)
{
	mlx5cq_q_cq_total(cq, base, reset);
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
