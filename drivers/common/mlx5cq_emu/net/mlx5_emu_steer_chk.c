/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The action list of a new steering rule checked against its matcher,
 * as rdma-core 44 (Debian 12's libmlx5) checks it:
 * - below the root, dr_actions_build_ste_arr() (dr_action.c): per
 *   action, its own checks (EINVAL), then at most one action of a type
 *   (two pop VLAN, MAX_VLANS; EINVAL), then the action state machine
 *   next_action_state[] of the domain (EOPNOTSUPP), here restricted to
 *   the types the model has;
 * - on the root, dr_actions_build_attr(): a dest table of another
 *   domain is EINVAL and pop VLAN, which the verbs flow API cannot
 *   express, ENOTSUP (EOPNOTSUPP); the kernel's mlx5_ib flow parser then
 *   takes the list: the model stands in for it with one action of a type
 *   and nothing after a terminal one.
 */

#include <errno.h>

#include "mlx5_emu_net.h"

#define EMU_DR_NIC_RX 0 /* MLX5DV_DR_DOMAIN_TYPE_NIC_RX */

/* dr_action_valid_state, the states the model's actions reach. */
enum {
	EMU_ST_ERR, /* DR_ACTION_STATE_ERR */
	EMU_ST_NONE, /* DR_ACTION_STATE_NO_ACTION */
	EMU_ST_MODIFY, /* DR_ACTION_STATE_MODIFY_HDR */
	EMU_ST_POP, /* DR_ACTION_STATE_POP_VLAN */
	EMU_ST_NON_TERM, /* DR_ACTION_STATE_NON_TERM */
	EMU_ST_TERM, /* DR_ACTION_STATE_TERM */
	EMU_ST_MAX,
};

/*
 * rdma-core 44 dr_action.c next_action_state[DR_ACTION_DOMAIN_NIC_INGRESS
 * and _NIC_EGRESS]: QP is dest TIR, FT dest table, MISS default miss;
 * a transition not listed there is EMU_ST_ERR (0).
 */
static const uint8_t emu_steer_next[2][EMU_ST_MAX][EMU_SA_MAX] = {
	[0] = { /* NIC ingress */
		[EMU_ST_NONE] = {
			[EMU_SA_DROP] = EMU_ST_TERM,
			[EMU_SA_TIR] = EMU_ST_TERM,
			[EMU_SA_TABLE] = EMU_ST_TERM,
			[EMU_SA_MISS] = EMU_ST_TERM,
			[EMU_SA_TAG] = EMU_ST_NON_TERM,
			[EMU_SA_MODIFY] = EMU_ST_MODIFY,
			[EMU_SA_POP_VLAN] = EMU_ST_POP,
		},
		[EMU_ST_MODIFY] = {
			[EMU_SA_TIR] = EMU_ST_TERM,
			[EMU_SA_TABLE] = EMU_ST_TERM,
			[EMU_SA_TAG] = EMU_ST_MODIFY,
		},
		[EMU_ST_POP] = {
			[EMU_SA_TIR] = EMU_ST_TERM,
			[EMU_SA_TABLE] = EMU_ST_TERM,
			[EMU_SA_TAG] = EMU_ST_POP,
			[EMU_SA_POP_VLAN] = EMU_ST_POP,
			[EMU_SA_MODIFY] = EMU_ST_MODIFY,
		},
		[EMU_ST_NON_TERM] = {
			[EMU_SA_DROP] = EMU_ST_TERM,
			[EMU_SA_TIR] = EMU_ST_TERM,
			[EMU_SA_TABLE] = EMU_ST_TERM,
			[EMU_SA_MISS] = EMU_ST_TERM,
			[EMU_SA_TAG] = EMU_ST_NON_TERM,
			[EMU_SA_MODIFY] = EMU_ST_MODIFY,
			[EMU_SA_POP_VLAN] = EMU_ST_POP,
		},
	},
	[1] = { /* NIC egress: no dest TIR, no tag */
		[EMU_ST_NONE] = {
			[EMU_SA_DROP] = EMU_ST_TERM,
			[EMU_SA_TABLE] = EMU_ST_TERM,
			[EMU_SA_MISS] = EMU_ST_TERM,
			[EMU_SA_MODIFY] = EMU_ST_MODIFY,
			[EMU_SA_POP_VLAN] = EMU_ST_POP,
		},
		[EMU_ST_MODIFY] = {
			[EMU_SA_TABLE] = EMU_ST_TERM,
		},
		[EMU_ST_POP] = {
			[EMU_SA_TABLE] = EMU_ST_TERM,
			[EMU_SA_POP_VLAN] = EMU_ST_POP,
			[EMU_SA_MODIFY] = EMU_ST_MODIFY,
		},
		[EMU_ST_NON_TERM] = {
			[EMU_SA_DROP] = EMU_ST_TERM,
			[EMU_SA_TABLE] = EMU_ST_TERM,
		},
	},
};

/* One action's own checks (dr_actions_build_ste_arr()'s switch); 0 or an
 * errno, errno set.
 */
static int
emu_steer_act_own(const struct emu_steer_matcher *m,
		  const struct emu_steer_act *a)
{
	const struct emu_steer_tbl *t = m->tbl;
	const struct emu_steer_dom *dom = t->dom;
	const char *name = emu_steer_act_names[a->type];

	switch (a->type) {
	case EMU_SA_TABLE:
		/* dr_action.c: "Destination table belongs to a different
		 * domain" (root: dr_actions_build_attr() too).
		 */
		if (a->dom != dom) {
			EMU_LOG(ERR, "steering: rule: %s of another domain",
				name);
			return emu_ret_errno(EINVAL);
		}
		/* "Destination table level should be higher than source
		 * table" (non-root only; the root is level 0).
		 */
		if (a->tbl->level <= t->level) {
			EMU_LOG(ERR, "steering: rule in a level %u table: %s "
				"of level %u (must be higher)", t->level, name,
				a->tbl->level);
			return emu_ret_errno(EINVAL);
		}
		return 0;
	case EMU_SA_POP_VLAN:
		/* Root: dr_actions_build_attr() has no verbs flow action
		 * for it ("Found unsupported action type", ENOTSUP).
		 */
		if (t->level == 0) {
			EMU_LOG(ERR, "steering: rule: %s on the root table",
				name);
			return emu_ret_errno(EOPNOTSUPP);
		}
		/* "Device doesn't support POP VLAN action on TX": the STE
		 * v0 context of a ConnectX-5 (dr_ste_v0.c actions_caps
		 * DR_STE_CTX_ACTION_CAP_NONE) lacks ..._CAP_TX_POP.
		 */
		if (dom->type != EMU_DR_NIC_RX) {
			EMU_LOG(ERR, "steering: rule: %s on NIC TX", name);
			return emu_ret_errno(EINVAL);
		}
		return 0;
	case EMU_SA_MODIFY:
		/* "Root modify header action cannot be used on current
		 * table" (EINVAL); a non-root one on the root, or one of
		 * another domain or device: the model's own limit.
		 */
		if (a->root_level != (t->level == 0) ||
		    (a->dom != NULL && a->dom != dom) ||
		    (a->dom == NULL && a->net != dom->net)) {
			EMU_LOG(ERR, "steering: rule: %s of another device, "
				"domain or table level", name);
			return emu_ret_errno(EINVAL);
		}
		return 0;
	case EMU_SA_TIR:
		/* A TIR of another device: the model's own limit (rdma-core
		 * reads the TIR's rx_icm_addr, another function's table).
		 */
		if (a->net != dom->net) {
			EMU_LOG(ERR, "steering: rule: %s of another device",
				name);
			return emu_ret_errno(EINVAL);
		}
		return 0;
	default:
		return 0;
	}
}

int
emu_steer_rule_acts(const struct emu_steer_matcher *m,
		    struct emu_steer_act *const *acts, size_t n,
		    const struct emu_steer_act **term)
{
	const struct emu_steer_dom *dom = m->tbl->dom;
	unsigned int seen[EMU_SA_MAX] = { 0 };
	int egress = dom->type != EMU_DR_NIC_RX;
	int root = m->tbl->level == 0;
	unsigned int st = EMU_ST_NONE;
	const struct emu_steer_act *a;
	unsigned int next;
	size_t i;
	int ret;

	*term = NULL;
	for (i = 0; i < n; i++) {
		a = acts[i];
		ret = emu_steer_act_own(m, a);
		if (ret != 0)
			return ret;
		/* dr_actions_build_ste_arr(): "Action type %d supports only
		 * max %d time(s)" (MAX_VLANS, 2, for pop VLAN).
		 */
		if (++seen[a->type] > (a->type == EMU_SA_POP_VLAN ? 2u : 1u)) {
			EMU_LOG(ERR, "steering: rule: %s given twice",
				emu_steer_act_names[a->type]);
			return emu_ret_errno(EINVAL);
		}
		if (root) {
			/* The model's stand-in for the kernel's parser:
			 * nothing after a terminal action; NIC TX takes no
			 * dest TIR or tag (as next_action_state[]).
			 */
			if (*term != NULL || (egress &&
			    (a->type == EMU_SA_TIR || a->type == EMU_SA_TAG)))
				next = EMU_ST_ERR;
			else
				next = EMU_ST_NONE;
		} else {
			/* dr_action_validate_and_get_next_state(). */
			next = emu_steer_next[egress][st][a->type];
		}
		if (next == EMU_ST_ERR) {
			EMU_LOG(ERR, "steering: rule on NIC %s: %s after %s: "
				"invalid action sequence", egress ? "TX" : "RX",
				emu_steer_act_names[a->type],
				i == 0 ? "nothing" :
				emu_steer_act_names[acts[i - 1]->type]);
			return emu_ret_errno(EOPNOTSUPP);
		}
		st = next;
		if (a->type == EMU_SA_TIR || a->type == EMU_SA_TABLE ||
		    a->type == EMU_SA_DROP || a->type == EMU_SA_MISS)
			*term = a;
	}
	return 0;
}
