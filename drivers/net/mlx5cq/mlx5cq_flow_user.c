/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The application's rte_flow rules (validate, create, destroy, flush).
 *
 * A rule is kept in priv->flows from its create to its destroy, flush or
 * the port's close; its device objects exist while the port's NIC RX
 * domain does (mlx5cq_flow.c: from start to stop), so rules made on a
 * stopped port take effect at start and rules stay across stop and start
 * (RTE_ETH_DEV_CAPA_FLOW_RULE_KEEP, as net/mlx5 keeps its non-template
 * rules: mlx5_flow_stop() / mlx5_flow_start()). Reconfiguring the port
 * with rules left is refused (the rte_flow guide allows it): their queues
 * may be gone.
 *
 * Device objects of a rule, in the port's root table:
 *   a matcher of its mask at its priority (one per rule; net/mlx5 shares
 *   one among rules of the same mask and priority, which changes nothing
 *   a frame sees);
 *   its actions: the tag (MARK, FLAG: mlx5dv_dr_action_create_tag), then
 *   drop, or the TIR of an RQT of its queues (QUEUE: one queue, no hash;
 *   RSS: the queues repeated to a power of two entries, net/mlx5's
 *   mlx5_devx_ind_table_create_rqt_attr(), hashed with the rule's types
 *   and key, mlx5cq_rss.c);
 *   the rule (dv_create_flow) with its value.
 * The root's own VLAN filter rules sit at lower priorities
 * (mlx5cq_flow.h), so the application's rules see every frame first.
 *
 * Tags: while some rule tags (priv->flow_tag_n), every RX queue of the
 * port takes the per-completion route, which hands the CQE's flow tag up
 * (mlx5cq_rx_rec.c), as net/mlx5 sets rxq->mark on its queues
 * (flow_rxq_mark_flag_set()).
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_flow_driver.h>
#include <rte_malloc.h>

#include <mlx5_common.h>
#include <mlx5_devx_cmds.h>
#include <mlx5_glue.h>

#include "mlx5cq_flow.h"

/* Every RX queue of the port hands tags up, or none. */
static void
flow_tags_to_queues(struct mlx5cq_priv *priv)
{
	struct rte_eth_dev_data *data = priv->eth_dev->data;
	struct mlx5cq_rxq *rxq;
	uint16_t i;

	for (i = 0; i < data->nb_rx_queues; i++) {
		rxq = data->rx_queues[i];
		if (rxq != NULL)
			rxq->mark = priv->flow_tag_n != 0;
	}
}

/* The rule's device objects, if any, destroyed (the rule first). */
static void
flow_hw_release(struct mlx5cq_priv *priv, struct rte_flow *f)
{
	uint16_t port = priv->eth_dev->data->port_id;

	if (f->rule != NULL && mlx5_glue->dv_destroy_flow(f->rule) != 0)
		PMD_LOG(ERR, "port %u: flow rule destroy failed", port);
	if (f->matcher != NULL &&
	    mlx5_glue->dv_destroy_flow_matcher(f->matcher) != 0)
		PMD_LOG(ERR, "port %u: flow matcher destroy failed", port);
	if (f->act_tag != NULL)
		mlx5_glue->destroy_flow_action(f->act_tag);
	if (f->act_fate != NULL)
		mlx5_glue->destroy_flow_action(f->act_fate);
	if (f->tir != NULL && mlx5_devx_cmd_destroy(f->tir) != 0)
		PMD_LOG(ERR, "port %u: flow TIR destroy failed", port);
	if (f->rqt != NULL && mlx5_devx_cmd_destroy(f->rqt) != 0)
		PMD_LOG(ERR, "port %u: flow RQT destroy failed", port);
	f->rule = NULL;
	f->matcher = NULL;
	f->act_tag = NULL;
	f->act_fate = NULL;
	f->tir = NULL;
	f->rqt = NULL;
}

/* The rule's device objects in the port's domain: 0, or -errno. */
static int
flow_hw_apply(struct mlx5cq_priv *priv, struct rte_flow *f)
{
	struct rte_eth_dev_data *data = priv->eth_dev->data;
	struct mlx5cq_rx_rules *r = &priv->rx_rules;
	void *acts[2];
	size_t n = 0;
	uint16_t i;
	int ret;

	if (r->domain == NULL)
		return 0;
	errno = 0;
	f->matcher = mlx5cq_flow_matcher(priv, r->tbl_root, f->prio, &f->mask);
	if (f->matcher == NULL) {
		ret = errno != 0 ? -errno : -EINVAL;
		goto error;
	}
	if (f->tag != 0) {
		f->act_tag = mlx5_glue->dv_create_flow_action_tag(f->tag);
		if (f->act_tag == NULL) {
			ret = errno != 0 ? -errno : -EINVAL;
			PMD_LOG(ERR, "port %u: tag action refused: %s",
				data->port_id, rte_strerror(-ret));
			goto error;
		}
		acts[n++] = f->act_tag;
	}
	if (f->fate == MLX5CQ_FLOW_FATE_DROP) {
		f->act_fate = mlx5_glue->dr_create_flow_action_drop();
	} else {
		for (i = 0; i < f->queue_n; i++) {
			const struct mlx5cq_rxq *rxq =
				data->rx_queues[f->queues[i]];

			if (rxq == NULL || rxq->cq == NULL) {
				PMD_LOG(ERR, "port %u: flow rule names rxq %u, "
					"which has no RQ", data->port_id,
					f->queues[i]);
				ret = -EINVAL;
				goto error;
			}
		}
		ret = mlx5cq_rss_objs(priv, f->queues, f->queue_n, f->rss_hf,
				      f->rss_key_set ? f->rss_key :
						       priv->rss_key,
				      &f->rqt, &f->tir);
		if (ret != 0)
			goto error;
		f->act_fate = mlx5_glue->dv_create_flow_action_dest_devx_tir
			(f->tir->obj);
	}
	if (f->act_fate == NULL) {
		ret = errno != 0 ? -errno : -EINVAL;
		PMD_LOG(ERR, "port %u: flow fate action refused: %s",
			data->port_id, rte_strerror(-ret));
		goto error;
	}
	acts[n++] = f->act_fate;
	f->rule = mlx5_glue->dv_create_flow(f->matcher, &f->value, n, acts);
	if (f->rule == NULL) {
		ret = errno != 0 ? -errno : -EINVAL;
		PMD_LOG(ERR, "port %u: flow rule refused by the device: %s",
			data->port_id, rte_strerror(-ret));
		goto error;
	}
	return 0;
error:
	flow_hw_release(priv, f);
	return ret;
}

/* With the domain (mlx5cq_flow_rx_create()): every rule's objects. */
int
mlx5cq_flow_user_apply(struct mlx5cq_priv *priv)
{
	struct rte_flow *f;
	int ret;

	TAILQ_FOREACH(f, &priv->flows, next) {
		ret = flow_hw_apply(priv, f);
		if (ret != 0) {
			mlx5cq_flow_user_release(priv);
			return ret;
		}
	}
	return 0;
}

/* Before the domain goes: every rule's objects (the rules stay). */
void
mlx5cq_flow_user_release(struct mlx5cq_priv *priv)
{
	struct rte_flow *f;

	TAILQ_FOREACH(f, &priv->flows, next)
		flow_hw_release(priv, f);
}

void
mlx5cq_flow_user_init(struct mlx5cq_priv *priv)
{
	TAILQ_INIT(&priv->flows);
	priv->flow_tag_n = 0;
}

static void
flow_free(struct mlx5cq_priv *priv, struct rte_flow *f)
{
	flow_hw_release(priv, f);
	TAILQ_REMOVE(&priv->flows, f, next);
	if (f->tag != 0 && --priv->flow_tag_n == 0)
		flow_tags_to_queues(priv);
	rte_free(f);
}

/* Every rule destroyed (flush, close, reset). */
void
mlx5cq_flow_user_flush(struct mlx5cq_priv *priv)
{
	struct rte_flow *f;

	while ((f = TAILQ_FIRST(&priv->flows)) != NULL)
		flow_free(priv, f);
}

static int
mlx5cq_flow_validate(struct rte_eth_dev *dev,
		     const struct rte_flow_attr *attr,
		     const struct rte_flow_item items[],
		     const struct rte_flow_action actions[],
		     struct rte_flow_error *error)
{
	struct rte_flow f;

	return mlx5cq_flow_parse(dev, attr, items, actions, &f, error);
}

static struct rte_flow *
mlx5cq_flow_create(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
		   const struct rte_flow_item items[],
		   const struct rte_flow_action actions[],
		   struct rte_flow_error *error)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	struct rte_flow *f;
	int ret;

	f = rte_zmalloc_socket("mlx5cq_flow", sizeof(*f), 0,
			       dev->device->numa_node);
	if (f == NULL) {
		rte_flow_error_set(error, ENOMEM,
				   RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
				   "no memory for the rule");
		return NULL;
	}
	ret = mlx5cq_flow_parse(dev, attr, items, actions, f, error);
	if (ret == 0) {
		ret = flow_hw_apply(priv, f);
		if (ret != 0)
			rte_flow_error_set(error, -ret,
					   RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
					   NULL, "the device refused the rule");
	}
	if (ret != 0) {
		rte_free(f);
		return NULL;
	}
	TAILQ_INSERT_TAIL(&priv->flows, f, next);
	if (f->tag != 0 && priv->flow_tag_n++ == 0)
		flow_tags_to_queues(priv);
	return f;
}

static int
mlx5cq_flow_destroy(struct rte_eth_dev *dev, struct rte_flow *flow,
		    struct rte_flow_error *error)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	struct rte_flow *f;

	TAILQ_FOREACH(f, &priv->flows, next)
		if (f == flow)
			break;
	if (f == NULL) {
		PMD_LOG(ERR, "port %u: flow destroy: not a rule of this port",
			dev->data->port_id);
		return rte_flow_error_set(error, EINVAL,
					  RTE_FLOW_ERROR_TYPE_HANDLE, flow,
					  "not a rule of this port");
	}
	flow_free(priv, f);
	return 0;
}

static int
mlx5cq_flow_flush(struct rte_eth_dev *dev, struct rte_flow_error *error)
{
	RTE_SET_USED(error);
	mlx5cq_flow_user_flush(dev->data->dev_private);
	return 0;
}

static const struct rte_flow_ops mlx5cq_flow_ops = {
	.validate = mlx5cq_flow_validate,
	.create = mlx5cq_flow_create,
	.destroy = mlx5cq_flow_destroy,
	.flush = mlx5cq_flow_flush,
};

int
mlx5cq_flow_ops_get(struct rte_eth_dev *dev, const struct rte_flow_ops **ops)
{
	RTE_SET_USED(dev);
	*ops = &mlx5cq_flow_ops;
	return 0;
}
