/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Flow steering actions of the model (the objects they act in:
 * mlx5_emu_steer.c; the walk that runs them: mlx5_emu_steer_rx.c).
 *
 * Sources: rdma-core providers/mlx5/dr_action.c
 * (mlx5dv_dr_action_create_*, mlx5dv_dr_action_destroy), mlx5_prm.h
 * (mlx5_modification_cmd, enum mlx5_modification_field), DPDK 22.11
 * drivers/net/mlx5/mlx5_flow_dv.c (flow_dv_convert_modify_action()).
 *
 * Rules:
 * - Tag values keep their 24 low bits (mlx5dv_dr_action_create_tag).
 * - Dest TIR: the DevX object must be a TIR (EINVAL, as
 *   mlx5dv_dr_action_create_dest_devx_tir); the model then refuses to
 *   destroy that TIR while the action exists (EBUSY), so a rule never
 *   points at a freed TIR.
 * - Dest table: not the root (EINVAL, mlx5dv_dr_action_create_dest_table).
 * - Counters: the model has no DevX flow counter object, so no counter
 *   action can be made on one (EINVAL, as rdma-core for an object of
 *   another type).
 * - Modify header: 8-byte big-endian commands (mlx5_modification_cmd:
 *   action_type, field, offset, length 0 = 32; data, or the copy's
 *   destination); SET, ADD and COPY on reg_a, reg_b and reg_c_0..7, SET
 *   and ADD on the MACs (MLX5_MODI_OUT_SMAC/DMAC_47_16 32 bits, _15_0
 *   16 bits), the IPv4 TTL and the IPv6 hop limit (8 bits; the lengths
 *   DPDK's flow_dv_convert_modify_action() gives them), and NOP are run;
 *   any other field or type is refused (EOPNOTSUPP, a log line naming
 *   it); offset + length beyond the field's width: EINVAL.
 * - Context-free actions (drop, default miss, tag, pop VLAN) belong to
 *   no device: the glue makes a model action for them while an emulated
 *   device exists (mlx5_emu_glue_steer.c), holding the wrapped table's
 *   own action as its twin for rules of real devices.
 * - Destroy while rules use an action: EBUSY (mlx5dv_dr_action_destroy
 *   refcount); a dest-table action holds its table, a modify header of a
 *   domain holds the domain.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <mlx5_prm.h>

#include "mlx5_emu_net.h"

static uint32_t emu_steer_nplain; /* Actions of no device (process). */

static struct emu_steer_act *
emu_steer_act_new(enum emu_steer_act_type type, struct emu_net *net)
{
	struct emu_steer_act *a = emu_steer_new(sizeof(*a), EMU_STEER_ACT);

	if (a == NULL)
		return NULL;
	a->type = (uint8_t)type;
	a->net = net;
	if (net != NULL)
		net->nstats.steer_actions++;
	else
		emu_steer_nplain++;
	return a;
}

void *
emu_steer_act_tir(struct emu_dev *dev, struct emu_obj *obj)
{
	struct emu_steer_act *a;
	struct emu_tir *tir;

	/* mlx5dv_dr_action_create_dest_devx_tir(): devx_obj->type not
	 * MLX5_DEVX_TIR, EINVAL.
	 */
	if (obj->type != MLX5_CMD_OP_CREATE_TIR) {
		EMU_LOG(ERR, "%s: dest_devx_tir: object 0x%x (type 0x%x) is "
			"not a TIR", dev->name, obj->id, obj->type);
		return emu_steer_fail(EINVAL);
	}
	tir = obj->priv;
	emu_net_lock();
	a = emu_steer_act_new(EMU_SA_TIR, dev->net);
	if (a != NULL) {
		a->tir = tir;
		tir->steer_refs++;
	}
	emu_net_unlock();
	return a;
}

void *
emu_steer_act_table(void *p)
{
	struct emu_steer_act *a = NULL;
	struct emu_steer_tbl *t;

	emu_net_lock();
	t = emu_steer_find(p, EMU_STEER_TBL);
	if (t == NULL) {
		errno = ENOENT;
	} else if (t->level == 0) {
		/* mlx5dv_dr_action_create_dest_table(): "Root table cannot
		 * be used as a destination", EINVAL.
		 */
		EMU_LOG(ERR, "%s: dest_flow_tbl: the root table cannot be a "
			"destination", t->dom->net->dev->name);
		errno = EINVAL;
	} else {
		a = emu_steer_act_new(EMU_SA_TABLE, t->dom->net);
	}
	if (a != NULL) {
		a->tbl = t;
		a->dom = t->dom;
		t->o.refcnt++;
	}
	emu_net_unlock();
	return a;
}

void *
emu_steer_act_plain(enum emu_steer_act_type type, uint32_t tag, void *twin)
{
	struct emu_steer_act *a;

	emu_net_lock();
	a = emu_steer_act_new(type, NULL);
	if (a != NULL) {
		a->tag = tag & 0xffffff;
		a->twin = twin;
	}
	emu_net_unlock();
	return a;
}

/* Key byte offset of a register modification field, or -1. */
static int
emu_steer_reg_off(uint32_t field)
{
	if (field == MLX5_MODI_META_DATA_REG_A)
		return MLX5_BYTE_OFF(fte_match_param,
				     misc_parameters_2.metadata_reg_a);
	if (field == MLX5_MODI_META_DATA_REG_B)
		return MLX5_BYTE_OFF(fte_match_param,
				     misc_parameters_2.metadata_reg_b);
	if (field >= MLX5_MODI_META_REG_C_0 && field <= MLX5_MODI_META_REG_C_7)
		/* reg_c_7 first in misc2: reg_c_i at reg_c_0 - 4 * i. */
		return MLX5_BYTE_OFF(fte_match_param,
				     misc_parameters_2.metadata_reg_c_0) -
		       4 * (int)(field - MLX5_MODI_META_REG_C_0);
	return -1;
}

/* Width in bits of a header field the model rewrites, or 0. */
static unsigned int
emu_steer_hdr_width(uint32_t field)
{
	switch (field) {
	case MLX5_MODI_OUT_SMAC_47_16:
	case MLX5_MODI_OUT_DMAC_47_16:
		return 32;
	case MLX5_MODI_OUT_SMAC_15_0:
	case MLX5_MODI_OUT_DMAC_15_0:
		return 16;
	case MLX5_MODI_OUT_IPV4_TTL:
	case MLX5_MODI_OUT_IPV6_HOPLIMIT:
		return 8;
	default:
		return 0;
	}
}

/* Decode one command (two big-endian words); 0 or errno. */
static int
emu_steer_mod_decode(uint64_t cmd, struct emu_steer_mod *md)
{
	const uint8_t *b = (const uint8_t *)&cmd;
	uint32_t w0 = emu_be32_at(b), w1 = emu_be32_at(b + 4);
	uint32_t type = w0 >> 28, field = (w0 >> 16) & 0xfff;
	uint32_t off = (w0 >> 8) & 0x1f, len = w0 & 0x1f;
	int reg = emu_steer_reg_off(field), dst = -1;
	unsigned int width = 32;

	memset(md, 0, sizeof(*md));
	md->type = (uint8_t)type;
	if (type == MLX5_MODIFICATION_TYPE_NOP)
		return 0;
	/* dr_action_modify_sw_to_hw(): "Unsupported action type %d for
	 * modify action", EOPNOTSUPP.
	 */
	if (type != MLX5_MODIFICATION_TYPE_SET &&
	    type != MLX5_MODIFICATION_TYPE_ADD &&
	    type != MLX5_MODIFICATION_TYPE_COPY) {
		EMU_LOG(ERR, "steering: modify header: action type %u not "
			"modelled", type);
		return emu_ret_errno(EOPNOTSUPP);
	}
	if (type == MLX5_MODIFICATION_TYPE_COPY)
		dst = emu_steer_reg_off((w1 >> 16) & 0xfff);
	if (reg < 0 && type != MLX5_MODIFICATION_TYPE_COPY &&
	    emu_steer_hdr_width(field) != 0) {
		/* SET / ADD of a header field the model rewrites. */
		width = emu_steer_hdr_width(field);
		md->hdr = 1;
		reg = (int)field;
	}
	/*
	 * A field the model does not rewrite: its own limit (EOPNOTSUPP);
	 * rdma-core answers EINVAL only for a field the hardware has no
	 * entry for ("Modify SET/ADD/COPY action invalid field given").
	 */
	if (reg < 0 || (type == MLX5_MODIFICATION_TYPE_COPY && dst < 0)) {
		EMU_LOG(ERR, "steering: modify header: field 0x%x%s: only "
			"reg_a, reg_b, reg_c_0..7 (set, add, copy) and the MACs, "
			"IPv4 TTL, IPv6 hop limit (set, add) are modelled",
			field, type == MLX5_MODIFICATION_TYPE_COPY ?
			" or its copy's destination" : "");
		return emu_ret_errno(EOPNOTSUPP);
	}
	md->len = (uint8_t)(len == 0 ? 32 : len);
	md->off = (uint8_t)off;
	md->field = (uint16_t)reg;
	md->data = w1;
	if (type == MLX5_MODIFICATION_TYPE_COPY) {
		md->dst_field = (uint16_t)dst;
		md->dst_off = (uint8_t)((w1 >> 8) & 0x1f);
	}
	/* dr_action_modify_sw_to_hw_set() and _copy() (_add() likewise):
	 * "Modify action length + offset exceeds limit", EINVAL.
	 */
	if (md->off + md->len > width ||
	    (type == MLX5_MODIFICATION_TYPE_COPY &&
	     md->dst_off + md->len > 32)) {
		EMU_LOG(ERR, "steering: modify header: offset %u length %u "
			"beyond the %u-bit field 0x%x", md->off, md->len, width,
			field);
		return emu_ret_errno(EINVAL);
	}
	return 0;
}

void *
emu_steer_act_modify(struct emu_dev *dev, void *p, int root, size_t sz,
		     const uint64_t *cmds)
{
	struct emu_steer_dom *dom = NULL;
	struct emu_steer_mod *mod;
	struct emu_steer_act *a;
	size_t i, n = sz / 8;
	int ret;

	/* mlx5dv_dr_action_create_modify_header(): size not a multiple of
	 * DR_MODIFY_ACTION_SIZE; dr_action_create_modify_action(): no
	 * command ("Invalid number of actions"); both EINVAL.
	 */
	if (n == 0 || sz % 8 != 0 || cmds == NULL) {
		EMU_LOG(ERR, "steering: modify header of %zu bytes", sz);
		return emu_steer_fail(EINVAL);
	}
	mod = calloc(n, sizeof(*mod));
	if (mod == NULL)
		return emu_steer_fail(ENOMEM);
	for (i = 0; i < n; i++) {
		ret = emu_steer_mod_decode(cmds[i], &mod[i]);
		if (ret != 0) {
			free(mod);
			return emu_steer_fail(ret);
		}
	}
	emu_net_lock();
	if (p != NULL) {
		dom = emu_steer_find(p, EMU_STEER_DOM);
		if (dom == NULL) {
			emu_net_unlock();
			free(mod);
			return emu_steer_fail(ENOENT);
		}
	}
	a = emu_steer_act_new(EMU_SA_MODIFY, dom != NULL ? dom->net :
			      dev->net);
	if (a == NULL) {
		emu_net_unlock();
		free(mod);
		return NULL;
	}
	a->dom = dom;
	a->root_level = !!root;
	a->nmod = (uint32_t)n;
	a->mod = mod;
	if (dom != NULL)
		dom->o.refcnt++;
	emu_net_unlock();
	return a;
}

void
emu_steer_act_free(struct emu_steer_act *a)
{
	if (a->net != NULL)
		a->net->nstats.steer_actions--;
	else
		emu_steer_nplain--;
	if (a->tir != NULL)
		a->tir->steer_refs--;
	if (a->tbl != NULL)
		a->tbl->o.refcnt--;
	if (a->type == EMU_SA_MODIFY && a->dom != NULL)
		a->dom->o.refcnt--;
	free(a->mod);
	emu_steer_free(a);
}

int
emu_steer_act_destroy(void *p, void **twin)
{
	struct emu_steer_act *a;

	*twin = NULL;
	emu_net_lock();
	a = emu_steer_find(p, EMU_STEER_ACT);
	if (a == NULL) {
		emu_net_unlock();
		return emu_ret_errno(ENOENT);
	}
	/* mlx5dv_dr_action_destroy(): refcount above 1, EBUSY. */
	if (a->o.refcnt != 0) {
		EMU_LOG(ERR, "steering: destroy %s action: used by %u rule(s)",
			emu_steer_act_names[a->type], a->o.refcnt);
		emu_net_unlock();
		return emu_ret_errno(EBUSY);
	}
	*twin = a->twin;
	emu_steer_act_free(a);
	emu_net_unlock();
	return 0;
}

void *
emu_steer_act_twin(void *p)
{
	struct emu_steer_act *a = emu_steer_find(p, EMU_STEER_ACT);

	return a != NULL ? a->twin : NULL;
}

uint32_t
emu_steer_plain_acts(void)
{
	return emu_steer_nplain;
}
