/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Receive side scaling: one RQT of MLX5CQ_RETA_SIZE entries (the RETA,
 * queue index -> RQN) and one TIR indirect to it with the Toeplitz hash,
 * the 40 B key and the outer field selector chosen from rss_hf. Every frame
 * passing the vport filter goes to that TIR (the default flow). A change of
 * RETA or hash while started rebuilds both objects.
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include <mlx5_common.h>
#include <mlx5_devx_cmds.h>
#include <mlx5_prm.h>

#include "mlx5cq_ethdev.h"

/* The Toeplitz key most NICs default to (Microsoft RSS verification). */
static const uint8_t mlx5cq_rss_default_key[MLX5CQ_RSS_KEY_LEN] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2,
	0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0,
	0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4,
	0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c,
	0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

void
mlx5cq_rss_defaults(struct mlx5cq_priv *priv)
{
	struct rte_eth_dev_data *data = priv->eth_dev->data;
	const struct rte_eth_rss_conf *conf =
		&data->dev_conf.rx_adv_conf.rss_conf;
	uint16_t nq = RTE_MAX(data->nb_rx_queues, (uint16_t)1);
	int rss = !!(data->dev_conf.rxmode.mq_mode & RTE_ETH_MQ_RX_RSS_FLAG);
	unsigned int i;

	for (i = 0; i < MLX5CQ_RETA_SIZE; i++)
		priv->reta[i] = rss ? i % nq : 0;
	if (conf->rss_key != NULL && conf->rss_key_len == MLX5CQ_RSS_KEY_LEN)
		memcpy(priv->rss_key, conf->rss_key, MLX5CQ_RSS_KEY_LEN);
	else
		memcpy(priv->rss_key, mlx5cq_rss_default_key,
		       MLX5CQ_RSS_KEY_LEN);
	priv->rss_hf = rss ? (conf->rss_hf & MLX5CQ_RSS_HF) : 0;
}

void
mlx5cq_rss_selector(uint64_t hf, struct mlx5_rx_hash_field_select *sel)
{
	uint32_t f = 0;

	memset(sel, 0, sizeof(*sel));
	if (hf == 0)
		return;
	sel->l3_prot_type = (!(hf & MLX5CQ_RSS_V4) && (hf & MLX5CQ_RSS_V6)) ?
			    MLX5_L3_PROT_TYPE_IPV6 : MLX5_L3_PROT_TYPE_IPV4;
	if (!(hf & RTE_ETH_RSS_L3_DST_ONLY))
		f |= 1u << MLX5_RX_HASH_FIELD_SELECT_SELECTED_FIELDS_SRC_IP;
	if (!(hf & RTE_ETH_RSS_L3_SRC_ONLY))
		f |= 1u << MLX5_RX_HASH_FIELD_SELECT_SELECTED_FIELDS_DST_IP;
	if (hf & (MLX5CQ_RSS_TCP | MLX5CQ_RSS_UDP)) {
		sel->l4_prot_type = (hf & MLX5CQ_RSS_TCP) ?
				    MLX5_L4_PROT_TYPE_TCP :
				    MLX5_L4_PROT_TYPE_UDP;
		if (!(hf & RTE_ETH_RSS_L4_DST_ONLY))
			f |= 1u <<
			     MLX5_RX_HASH_FIELD_SELECT_SELECTED_FIELDS_L4_SPORT;
		if (!(hf & RTE_ETH_RSS_L4_SRC_ONLY))
			f |= 1u <<
			     MLX5_RX_HASH_FIELD_SELECT_SELECTED_FIELDS_L4_DPORT;
	}
	sel->selected_fields = f;
}

void
mlx5cq_rss_release(struct mlx5cq_priv *priv)
{
	/* The rules' action holds the TIR: they go first. */
	mlx5cq_flow_rx_destroy(priv);
	if (priv->tir != NULL) {
		if (mlx5_devx_cmd_destroy(priv->tir) != 0)
			PMD_LOG(ERR, "TIR destroy failed");
		priv->tir = NULL;
	}
	if (priv->rqt != NULL) {
		if (mlx5_devx_cmd_destroy(priv->rqt) != 0)
			PMD_LOG(ERR, "RQT destroy failed");
		priv->rqt = NULL;
	}
}

/*
 * An RQT of the RQs of queues q[0..n) (repeated to a power of two
 * entries, as net/mlx5's mlx5_devx_ind_table_create_rqt_attr() fills
 * one) and a TIR over it hashing the types hf with key (hf 0: no field
 * is hashed, every frame goes to the first entry), coalescing TCP when
 * every queue has LRO (mlx5cq_lro_tir()). 0, or -rte_errno with nothing
 * left.
 */
int
mlx5cq_rss_objs(struct mlx5cq_priv *priv, const uint16_t *q, uint32_t n,
		uint64_t hf, const uint8_t *key, struct mlx5_devx_obj **rqt,
		struct mlx5_devx_obj **tir)
{
	struct rte_eth_dev_data *data = priv->eth_dev->data;
	struct mlx5_devx_rqt_attr *rqt_attr;
	struct mlx5_devx_tir_attr tir_attr;
	uint32_t i, size = rte_align32pow2(n);
	int ret;

	rqt_attr = rte_zmalloc(NULL, sizeof(*rqt_attr) +
			       size * sizeof(uint32_t), 0);
	if (rqt_attr == NULL)
		return -ENOMEM;
	rqt_attr->rq_type = MLX5_INLINE_Q_TYPE_RQ;
	rqt_attr->rqt_max_size = size;
	rqt_attr->rqt_actual_size = size;
	for (i = 0; i < size; i++) {
		struct mlx5cq_rxq *rxq = data->rx_queues[q[i % n]];

		if (rxq == NULL || rxq->cq == NULL) {
			PMD_LOG(ERR, "port %u: RQT entry %u names rxq %u "
				"which has no RQ", data->port_id, i, q[i % n]);
			rte_free(rqt_attr);
			return -EINVAL;
		}
		rqt_attr->rq_list[i] = rxq->rqn;
	}
	*rqt = mlx5_devx_cmd_create_rqt(priv->ctx, rqt_attr);
	rte_free(rqt_attr);
	if (*rqt == NULL) {
		PMD_LOG(ERR, "port %u: RQT creation failed: %s",
			data->port_id, rte_strerror(rte_errno));
		return -rte_errno;
	}
	memset(&tir_attr, 0, sizeof(tir_attr));
	tir_attr.disp_type = MLX5_TIRC_DISP_TYPE_INDIRECT;
	tir_attr.indirect_table = (*rqt)->id;
	tir_attr.rx_hash_fn = MLX5_RX_HASH_FN_TOEPLITZ;
	tir_attr.transport_domain = priv->td->id;
	memcpy(tir_attr.rx_hash_toeplitz_key, key, MLX5CQ_RSS_KEY_LEN);
	mlx5cq_rss_selector(hf, &tir_attr.rx_hash_field_selector_outer);
	mlx5cq_lro_tir(priv, q, n, &tir_attr);
	*tir = mlx5_devx_cmd_create_tir(priv->ctx, &tir_attr);
	if (*tir == NULL) {
		ret = -rte_errno;
		PMD_LOG(ERR, "port %u: TIR creation failed: %s",
			data->port_id, rte_strerror(rte_errno));
		if (mlx5_devx_cmd_destroy(*rqt) != 0)
			PMD_LOG(ERR, "RQT destroy failed");
		*rqt = NULL;
		return ret;
	}
	return 0;
}

/* (Re)build RQT and TIR over the RX queues' RQs (the RETA), the rules. */
int
mlx5cq_rss_apply(struct mlx5cq_priv *priv)
{
	struct rte_eth_dev_data *data = priv->eth_dev->data;
	int ret;

	mlx5cq_rss_release(priv);
	if (data->nb_rx_queues == 0)
		return 0;
	ret = mlx5cq_device_tx_objs(priv);
	if (ret != 0)
		return ret;
	/* rss_hf 0 (RSS off): every frame to the RETA's first entry. */
	ret = mlx5cq_rss_objs(priv, priv->reta, MLX5CQ_RETA_SIZE,
			      priv->rss_hf, priv->rss_key, &priv->rqt,
			      &priv->tir);
	if (ret != 0)
		return ret;
	ret = mlx5cq_flow_rx_create(priv);
	if (ret != 0)
		mlx5cq_rss_release(priv);
	return ret;
}

int
mlx5cq_rss_hash_update(struct rte_eth_dev *dev, struct rte_eth_rss_conf *conf)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;

	if (conf->rss_hf & ~MLX5CQ_RSS_HF) {
		PMD_LOG(ERR, "port %u: unsupported rss_hf 0x%" PRIx64,
			dev->data->port_id, conf->rss_hf & ~MLX5CQ_RSS_HF);
		return -EINVAL;
	}
	if (conf->rss_key != NULL) {
		if (conf->rss_key_len != MLX5CQ_RSS_KEY_LEN) {
			PMD_LOG(ERR, "port %u: RSS key must be %u bytes",
				dev->data->port_id, MLX5CQ_RSS_KEY_LEN);
			return -EINVAL;
		}
		memcpy(priv->rss_key, conf->rss_key, MLX5CQ_RSS_KEY_LEN);
	}
	priv->rss_hf = conf->rss_hf;
	return priv->started ? mlx5cq_rss_apply(priv) : 0;
}

int
mlx5cq_rss_hash_conf_get(struct rte_eth_dev *dev,
			 struct rte_eth_rss_conf *conf)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;

	if (conf->rss_key != NULL) {
		if (conf->rss_key_len < MLX5CQ_RSS_KEY_LEN)
			return -EINVAL;
		memcpy(conf->rss_key, priv->rss_key, MLX5CQ_RSS_KEY_LEN);
	}
	conf->rss_key_len = MLX5CQ_RSS_KEY_LEN;
	conf->rss_hf = priv->rss_hf;
	return 0;
}

int
mlx5cq_reta_update(struct rte_eth_dev *dev,
		   struct rte_eth_rss_reta_entry64 *reta, uint16_t size)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	uint16_t tmp[MLX5CQ_RETA_SIZE];
	unsigned int i;

	if (size != MLX5CQ_RETA_SIZE) {
		PMD_LOG(ERR, "port %u: RETA size %u, expected %u",
			dev->data->port_id, size, MLX5CQ_RETA_SIZE);
		return -EINVAL;
	}
	memcpy(tmp, priv->reta, sizeof(tmp));
	for (i = 0; i < size; i++) {
		const struct rte_eth_rss_reta_entry64 *e =
			&reta[i / RTE_ETH_RETA_GROUP_SIZE];
		unsigned int b = i % RTE_ETH_RETA_GROUP_SIZE;

		if (!(e->mask & (1ULL << b)))
			continue;
		if (e->reta[b] >= dev->data->nb_rx_queues) {
			PMD_LOG(ERR, "port %u: RETA entry %u: no rxq %u",
				dev->data->port_id, i, e->reta[b]);
			return -EINVAL;
		}
		tmp[i] = e->reta[b];
	}
	memcpy(priv->reta, tmp, sizeof(tmp));
	return priv->started ? mlx5cq_rss_apply(priv) : 0;
}

int
mlx5cq_reta_query(struct rte_eth_dev *dev,
		  struct rte_eth_rss_reta_entry64 *reta, uint16_t size)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	unsigned int i;

	/* The first size entries, as net/mlx5's mlx5_dev_rss_reta_query()
	 * gives any size up to the table's.
	 */
	if (size == 0 || size > MLX5CQ_RETA_SIZE) {
		PMD_LOG(ERR, "port %u: RETA query of %u entries, 1..%u",
			dev->data->port_id, size, MLX5CQ_RETA_SIZE);
		return -EINVAL;
	}
	for (i = 0; i < size; i++) {
		struct rte_eth_rss_reta_entry64 *e =
			&reta[i / RTE_ETH_RETA_GROUP_SIZE];
		unsigned int b = i % RTE_ETH_RETA_GROUP_SIZE;

		if (e->mask & (1ULL << b))
			e->reta[b] = priv->reta[i];
	}
	return 0;
}
