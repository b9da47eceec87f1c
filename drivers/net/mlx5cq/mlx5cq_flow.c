/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The port's receive rules: what reaches the TIR. On a ConnectX function
 * a frame reaches a receive queue only through a NIC RX steering rule
 * (with no rule it goes to the kernel's netdev), so the PMD installs its
 * own through mlx5_glue's mlx5dv_dr entries, as DPDK's net/mlx5 installs
 * its control flows (mlx5_traffic_enable()) and the kernel's mlx5e its
 * VLAN and L2 tables (en_fs.c):
 *
 *   root table (level 0), the application's rte_flow rules first
 *   (mlx5cq_flow_user.c, priorities 0..7), then the VLAN filter:
 *     VLAN filter off:  everything                  -> jump to L2
 *     VLAN filter on:   untagged (cvlan_tag 0)      -> jump to L2
 *                       802.1Q tag with a listed id -> jump to L2
 *                       (anything else misses: the kernel's, not ours)
 *   L2 table (level 1):
 *     promiscuous:      everything                  -> TIR
 *     otherwise:        each unicast address, broadcast, each listed
 *                       multicast address (exact dmac) -> TIR;
 *                       with all-multicast, the group bit -> TIR
 *                       (anything else: the table's miss, a drop)
 *
 * Match layouts are mlx5_prm.h's fte_match_param (outer headers:
 * dmac_47_16 / dmac_15_0, cvlan_tag, first_vid). The rules follow the
 * filter the vport functions last set (mlx5cq_vport.c records it in
 * priv->rxf): they exist while the port's TIR does, are rebuilt when the
 * filter changes, and go before the TIR (a rule's action holds it).
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include <mlx5_common.h>
#include <mlx5_devx_cmds.h>
#include <mlx5_glue.h>
#include <mlx5_prm.h>

#include "mlx5cq_flow.h"

#define MATCH_SET(m, fld, v) MLX5CQ_MATCH_SET(m, fld, v)

static void
mlx5cq_flow_match_dmac(struct mlx5cq_flow_match *m, const uint8_t *mac)
{
	MATCH_SET(m, dmac_47_16, (uint32_t)mac[0] << 24 | mac[1] << 16 |
				 mac[2] << 8 | mac[3]);
	MATCH_SET(m, dmac_15_0, (uint32_t)mac[4] << 8 | mac[5]);
}

void *
mlx5cq_flow_matcher(struct mlx5cq_priv *priv, void *tbl, uint16_t prio,
		    const struct mlx5cq_flow_match *mask)
{
	struct mlx5dv_flow_matcher_attr attr;
	void *m;

	memset(&attr, 0, sizeof(attr));
	attr.type = IBV_FLOW_ATTR_NORMAL;
	attr.priority = prio;
	attr.match_criteria_enable = mask != NULL ?
		1u << MLX5_MATCH_CRITERIA_ENABLE_OUTER_BIT : 0;
	attr.match_mask = (struct mlx5dv_flow_match_parameters *)(uintptr_t)
			  mask;
	if (mask == NULL) {
		static struct mlx5cq_flow_match any = {
			.match_sz = MLX5CQ_FLOW_MATCH_SZ,
		};

		attr.match_mask = (struct mlx5dv_flow_match_parameters *)
				  (uintptr_t)&any;
	}
	m = mlx5_glue->dv_create_flow_matcher(priv->ctx, &attr, tbl);
	if (m == NULL)
		PMD_LOG(ERR, "port %u: flow matcher (priority %u) refused: %s",
			priv->eth_dev->data->port_id, prio,
			rte_strerror(errno));
	return m;
}

static int
mlx5cq_flow_rule(struct mlx5cq_priv *priv, void *matcher,
		 const struct mlx5cq_flow_match *value, void *action)
{
	struct mlx5cq_rx_rules *r = &priv->rx_rules;
	struct mlx5cq_flow_match any;
	void *acts[1] = { action };
	void *f;

	if (r->n == RTE_DIM(r->rules)) {
		PMD_LOG(ERR, "port %u: more than %u receive rules",
			priv->eth_dev->data->port_id,
			(unsigned int)RTE_DIM(r->rules));
		return -ENOSPC;
	}
	if (value == NULL) {
		mlx5cq_flow_match_init(&any);
		value = &any;
	}
	f = mlx5_glue->dv_create_flow(matcher, (void *)(uintptr_t)value, 1,
				      acts);
	if (f == NULL) {
		PMD_LOG(ERR, "port %u: receive rule refused: %s",
			priv->eth_dev->data->port_id, rte_strerror(errno));
		return errno != 0 ? -errno : -EINVAL;
	}
	r->rules[r->n++] = f;
	return 0;
}

static void
mlx5cq_flow_rules_clear(struct mlx5cq_priv *priv)
{
	struct mlx5cq_rx_rules *r = &priv->rx_rules;

	while (r->n > 0)
		if (mlx5_glue->dv_destroy_flow(r->rules[--r->n]) != 0)
			PMD_LOG(ERR, "port %u: receive rule destroy failed",
				priv->eth_dev->data->port_id);
}

int
mlx5cq_flow_rx_rules(struct mlx5cq_priv *priv)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t group[6] = { 0x01, 0, 0, 0, 0, 0 };
	struct mlx5cq_rx_rules *r = &priv->rx_rules;
	const struct mlx5cq_rx_filter *f = &priv->rxf;
	struct mlx5cq_flow_match v;
	uint32_t i;
	int ret = 0;

	if (r->domain == NULL)
		return 0;
	mlx5cq_flow_rules_clear(priv);
	/* Root: the VLAN filter. */
	if (f->vlan_n == 0) {
		ret = mlx5cq_flow_rule(priv, r->m_any_root, NULL, r->to_l2);
	} else {
		mlx5cq_flow_match_init(&v);
		ret = mlx5cq_flow_rule(priv, r->m_untagged, &v, r->to_l2);
		for (i = 0; ret == 0 && i < f->vlan_n; i++) {
			if (f->vids[i] == MLX5CQ_VLAN_NONE)
				continue;
			mlx5cq_flow_match_init(&v);
			MATCH_SET(&v, cvlan_tag, 1);
			MATCH_SET(&v, first_vid, f->vids[i]);
			ret = mlx5cq_flow_rule(priv, r->m_vid, &v, r->to_l2);
		}
	}
	/* L2: addresses. */
	if (ret == 0 && f->promisc)
		return mlx5cq_flow_rule(priv, r->m_any_l2, NULL, r->to_tir);
	for (i = 0; ret == 0 && i < f->uc_n; i++) {
		mlx5cq_flow_match_init(&v);
		mlx5cq_flow_match_dmac(&v, f->uc[i].addr_bytes);
		ret = mlx5cq_flow_rule(priv, r->m_dmac, &v, r->to_tir);
	}
	if (ret == 0) {
		mlx5cq_flow_match_init(&v);
		mlx5cq_flow_match_dmac(&v, bcast);
		ret = mlx5cq_flow_rule(priv, r->m_dmac, &v, r->to_tir);
	}
	if (ret == 0 && f->allmulti) {
		mlx5cq_flow_match_init(&v);
		mlx5cq_flow_match_dmac(&v, group);
		return mlx5cq_flow_rule(priv, r->m_group, &v, r->to_tir);
	}
	for (i = 0; ret == 0 && i < priv->mc_n; i++) {
		mlx5cq_flow_match_init(&v);
		mlx5cq_flow_match_dmac(&v, priv->mc_addrs[i].addr_bytes);
		ret = mlx5cq_flow_rule(priv, r->m_dmac, &v, r->to_tir);
	}
	return ret;
}

void
mlx5cq_flow_rx_destroy(struct mlx5cq_priv *priv)
{
	struct mlx5cq_rx_rules *r = &priv->rx_rules;
	void **m[] = { &r->m_any_root, &r->m_untagged, &r->m_vid, &r->m_any_l2,
		       &r->m_dmac, &r->m_group };
	unsigned int i;

	/* The application's rules first: they are in the root table. */
	mlx5cq_flow_user_release(priv);
	mlx5cq_flow_rules_clear(priv);
	for (i = 0; i < RTE_DIM(m); i++) {
		if (*m[i] != NULL &&
		    mlx5_glue->dv_destroy_flow_matcher(*m[i]) != 0)
			PMD_LOG(ERR, "port %u: flow matcher destroy failed",
				priv->eth_dev->data->port_id);
		*m[i] = NULL;
	}
	if (r->to_tir != NULL)
		mlx5_glue->destroy_flow_action(r->to_tir);
	if (r->to_l2 != NULL)
		mlx5_glue->destroy_flow_action(r->to_l2);
	if (r->tbl_l2 != NULL)
		mlx5_glue->dr_destroy_flow_tbl(r->tbl_l2);
	if (r->tbl_root != NULL)
		mlx5_glue->dr_destroy_flow_tbl(r->tbl_root);
	if (r->domain != NULL)
		mlx5_glue->dr_destroy_domain(r->domain);
	memset(r, 0, sizeof(*r));
}

int
mlx5cq_flow_rx_create(struct mlx5cq_priv *priv)
{
	static const uint8_t all_ones[6] = { 0xff, 0xff, 0xff, 0xff, 0xff,
					     0xff };
	static const uint8_t group_bit[6] = { 0x01, 0, 0, 0, 0, 0 };
	struct mlx5cq_rx_rules *r = &priv->rx_rules;
	struct mlx5cq_flow_match mask;
	uint16_t port = priv->eth_dev->data->port_id;
	void *tir;
	int ret;

	mlx5cq_flow_rx_destroy(priv);
	errno = 0;
	r->domain = mlx5_glue->dr_create_domain(priv->ctx,
						MLX5DV_DR_DOMAIN_TYPE_NIC_RX);
	if (r->domain == NULL) {
		PMD_LOG(ERR, "port %u: NIC RX steering domain refused: %s",
			port, rte_strerror(errno));
		ret = errno != 0 ? -errno : -ENOTSUP;
		goto error;
	}
	r->tbl_root = mlx5_glue->dr_create_flow_tbl(r->domain, 0);
	r->tbl_l2 = r->tbl_root != NULL ?
		    mlx5_glue->dr_create_flow_tbl(r->domain, 1) : NULL;
	if (r->tbl_l2 == NULL) {
		PMD_LOG(ERR, "port %u: flow tables refused: %s", port,
			rte_strerror(errno));
		ret = errno != 0 ? -errno : -EINVAL;
		goto error;
	}
	r->to_l2 = mlx5_glue->dr_create_flow_action_dest_flow_tbl(r->tbl_l2);
	tir = priv->tir->obj;
	r->to_tir = mlx5_glue->dv_create_flow_action_dest_devx_tir(tir);
	if (r->to_l2 == NULL || r->to_tir == NULL) {
		PMD_LOG(ERR, "port %u: flow actions refused: %s", port,
			rte_strerror(errno));
		ret = errno != 0 ? -errno : -EINVAL;
		goto error;
	}
	/* Root: the untagged rule first, then the listed ids. */
	r->m_any_root = mlx5cq_flow_matcher(priv, r->tbl_root,
					    MLX5CQ_FLOW_PRIO_ANY, NULL);
	mlx5cq_flow_match_init(&mask);
	MATCH_SET(&mask, cvlan_tag, 1);
	r->m_untagged = mlx5cq_flow_matcher(priv, r->tbl_root,
					    MLX5CQ_FLOW_PRIO_VLAN, &mask);
	MATCH_SET(&mask, first_vid, 0xfff);
	r->m_vid = mlx5cq_flow_matcher(priv, r->tbl_root,
				       MLX5CQ_FLOW_PRIO_VLAN, &mask);
	/* L2: exact addresses before the group bit and everything. */
	r->m_any_l2 = mlx5cq_flow_matcher(priv, r->tbl_l2, 2, NULL);
	mlx5cq_flow_match_init(&mask);
	mlx5cq_flow_match_dmac(&mask, all_ones);
	r->m_dmac = mlx5cq_flow_matcher(priv, r->tbl_l2, 0, &mask);
	mlx5cq_flow_match_init(&mask);
	mlx5cq_flow_match_dmac(&mask, group_bit);
	r->m_group = mlx5cq_flow_matcher(priv, r->tbl_l2, 1, &mask);
	if (r->m_any_root == NULL || r->m_untagged == NULL || r->m_vid == NULL ||
	    r->m_any_l2 == NULL || r->m_dmac == NULL || r->m_group == NULL) {
		ret = errno != 0 ? -errno : -EINVAL;
		goto error;
	}
	ret = mlx5cq_flow_rx_rules(priv);
	if (ret == 0)
		ret = mlx5cq_flow_user_apply(priv);
	if (ret == 0)
		return 0;
error:
	mlx5cq_flow_rx_destroy(priv);
	return ret;
}
