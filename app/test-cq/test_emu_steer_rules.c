/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_steer_rules": the emulated HCA's checks of a steering
 * rule's action list and of a matcher below the root, each from both
 * sides (accepted, refused with rdma-core 44's errno), with the
 * steering object counts and the rte_malloc heap unchanged by every
 * refusal, as are the device's DevX objects, umems, PDs, UARs and
 * doorbell slots. Sources: rdma-core providers/mlx5/dr_action.c
 * (dr_actions_build_ste_arr(), next_action_state[],
 * dr_actions_build_attr()) and dr_matcher.c
 * (dr_matcher_set_ste_builders()). Masks are written from mlx5_prm.h
 * fte_match_param with MLX5_SET.
 */

#include "test_emu_net_fixture.h"

#define CRIT_OUTER (1u << MLX5_MATCH_CRITERIA_ENABLE_OUTER_BIT)
#define DOM_NIC_RX 0 /* mlx5dv_dr_domain_type */
#define DOM_NIC_TX 1
#define EMU_RULE_ACTS 16 /* Actions of one rule the model keeps. */

/* DPDK's struct mlx5_flow_dv_match_params (mlx5_flow.h). */
struct sr_param {
	size_t size;
	uint32_t buf[MLX5_ST_SZ_DW(fte_match_param)];
};

struct sr {
	struct nport p;
	void *rx, *tx; /* Domains. */
	void *root, *t1, *t2, *tx1, *tx2; /* RX 0, 1, 2; TX 1, 2. */
	void *j1, *j2, *jtx2; /* Dest tables t1, t2, tx2. */
	void *drop, *miss, *tag, *pop, *td, *mod, *mod_root, *mod_tx;
	void *m_root, *m1, *m2, *m_tx1; /* Empty matchers. */
	struct sr_param any; /* A value of 0 bytes: matches all. */
	uint64_t allocs, bytes;
	struct mlx5_emu_net_stats ns;
	struct mlx5_emu_stats es;
};

static void *
sr_matcher(struct sr *s, void *tbl, uint8_t crit, struct sr_param *mask)
{
	struct mlx5dv_flow_matcher_attr a;

	memset(&a, 0, sizeof(a));
	a.type = IBV_FLOW_ATTR_NORMAL;
	a.match_criteria_enable = crit;
	a.match_mask = (struct mlx5dv_flow_match_parameters *)mask;
	return mlx5_glue->dv_create_flow_matcher(s->p.ctx, &a, tbl);
}

/* A rule of n actions (NULL-terminated list) on m: errno, 0 (destroyed). */
static int
sr_rule(struct sr *s, void *m, void *a0, void *a1, void *a2, void *a3)
{
	void *acts[4] = { a0, a1, a2, a3 };
	size_t n = 0;
	void *r;

	while (n < RTE_DIM(acts) && acts[n] != NULL)
		n++;
	errno = 0;
	r = mlx5_glue->dv_create_flow(m, &s->any, n, acts);
	if (r == NULL)
		return errno != 0 ? errno : -1;
	return mlx5_glue->dv_destroy_flow(r) == 0 ? 0 : -2;
}

static int
sr_open(struct sr *s, const char *name)
{
	uint64_t cmd[1];
	int ret;

	memset(s, 0, sizeof(*s));
	ret = nport_open(&s->p, name, name, mac_a, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	s->rx = mlx5_glue->dr_create_domain(s->p.ctx, DOM_NIC_RX);
	s->tx = mlx5_glue->dr_create_domain(s->p.ctx, DOM_NIC_TX);
	TEST_ASSERT(s->rx != NULL && s->tx != NULL, "domains");
	s->root = mlx5_glue->dr_create_flow_tbl(s->rx, 0);
	s->t1 = mlx5_glue->dr_create_flow_tbl(s->rx, 1);
	s->t2 = mlx5_glue->dr_create_flow_tbl(s->rx, 2);
	s->tx1 = mlx5_glue->dr_create_flow_tbl(s->tx, 1);
	s->tx2 = mlx5_glue->dr_create_flow_tbl(s->tx, 2);
	TEST_ASSERT(s->root && s->t1 && s->t2 && s->tx1 && s->tx2, "tables");
	s->j1 = mlx5_glue->dr_create_flow_action_dest_flow_tbl(s->t1);
	s->j2 = mlx5_glue->dr_create_flow_action_dest_flow_tbl(s->t2);
	s->jtx2 = mlx5_glue->dr_create_flow_action_dest_flow_tbl(s->tx2);
	s->drop = mlx5_glue->dr_create_flow_action_drop();
	s->miss = mlx5_glue->dr_create_flow_action_default_miss();
	s->tag = mlx5_glue->dv_create_flow_action_tag(7);
	s->pop = mlx5_glue->dr_create_flow_action_pop_vlan();
	s->td = mlx5_glue->dv_create_flow_action_dest_devx_tir(s->p.tir->obj);
	/* SET reg_c_1 = 1 (mlx5_modification_cmd, big endian). */
	cmd[0] = rte_cpu_to_be_64((uint64_t)(MLX5_MODIFICATION_TYPE_SET << 28 |
				  MLX5_MODI_META_REG_C_1 << 16) << 32 | 1);
	s->mod = mlx5_glue->dv_create_flow_action_modify_header(s->p.ctx, 0,
		s->rx, 0, sizeof(cmd), cmd);
	s->mod_root = mlx5_glue->dv_create_flow_action_modify_header(
		s->p.ctx, 0, s->rx, MLX5DV_DR_ACTION_FLAGS_ROOT_LEVEL,
		sizeof(cmd), cmd);
	s->mod_tx = mlx5_glue->dv_create_flow_action_modify_header(s->p.ctx,
		0, s->tx, 0, sizeof(cmd), cmd);
	TEST_ASSERT(s->j1 && s->j2 && s->jtx2 && s->drop && s->miss &&
		    s->tag && s->pop && s->td && s->mod && s->mod_root &&
		    s->mod_tx, "actions");
	s->m_root = sr_matcher(s, s->root, 0, NULL);
	s->m1 = sr_matcher(s, s->t1, 0, NULL);
	s->m2 = sr_matcher(s, s->t2, 0, NULL);
	s->m_tx1 = sr_matcher(s, s->tx1, 0, NULL);
	TEST_ASSERT(s->m_root && s->m1 && s->m2 && s->m_tx1, "matchers");
	s->any.size = 0;
	heap_snap(&s->allocs, &s->bytes);
	TEST_ASSERT_SUCCESS(mlx5_emu_net_stats_get(s->p.ctx, &s->ns), "ns");
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(s->p.ctx, &s->es), "es");
	return TEST_SUCCESS;
}

/* Nothing left by the calls since sr_open(): objects and heap. */
static int
sr_unchanged(struct sr *s)
{
	struct mlx5_emu_net_stats ns;
	struct mlx5_emu_stats es;
	uint64_t allocs, bytes;

	heap_snap(&allocs, &bytes);
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(s->p.ctx, &es), "es");
	TEST_ASSERT(es.devx_objs == s->es.devx_objs &&
		    es.umems == s->es.umems && es.pds == s->es.pds &&
		    es.uars == s->es.uars && es.dbr_slots == s->es.dbr_slots,
		    "device resources changed: objects %u umems %u",
		    es.devx_objs, es.umems);
	TEST_ASSERT_SUCCESS(mlx5_emu_net_stats_get(s->p.ctx, &ns), "ns");
	TEST_ASSERT(ns.steer_domains == s->ns.steer_domains &&
		    ns.steer_tables == s->ns.steer_tables &&
		    ns.steer_matchers == s->ns.steer_matchers &&
		    ns.steer_rules == s->ns.steer_rules &&
		    ns.steer_actions == s->ns.steer_actions &&
		    ns.steer_plain_actions == s->ns.steer_plain_actions,
		    "steering objects changed: matchers %u rules %u",
		    ns.steer_matchers, ns.steer_rules);
	TEST_ASSERT_EQUAL(ns.steer_rules, 0, "no rule left");
	TEST_ASSERT(allocs == s->allocs && bytes == s->bytes,
		    "rte_malloc %" PRIu64 " / %" PRIu64 " B, was %" PRIu64
		    " / %" PRIu64 " B", allocs, bytes, s->allocs, s->bytes);
	return TEST_SUCCESS;
}

static int
sr_close(struct sr *s)
{
	void *acts[] = { s->j1, s->j2, s->jtx2, s->drop, s->miss, s->tag,
			 s->pop, s->td, s->mod, s->mod_root, s->mod_tx };
	void *ms[] = { s->m_root, s->m1, s->m2, s->m_tx1 };
	void *ts[] = { s->root, s->t1, s->t2, s->tx1, s->tx2 };
	size_t i;

	for (i = 0; i < RTE_DIM(ms); i++)
		TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow_matcher(ms[i]),
				    "matcher %zu", i);
	for (i = 0; i < RTE_DIM(acts); i++)
		TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(acts[i]),
				    "action %zu", i);
	for (i = 0; i < RTE_DIM(ts); i++)
		TEST_ASSERT_SUCCESS(mlx5_glue->dr_destroy_flow_tbl(ts[i]),
				    "table %zu", i);
	TEST_ASSERT_SUCCESS(mlx5_glue->dr_destroy_domain(s->tx), "tx");
	TEST_ASSERT_SUCCESS(mlx5_glue->dr_destroy_domain(s->rx), "rx");
	return nport_close(&s->p);
}

/*
 * Each action's own checks (dr_actions_build_ste_arr()): a dest table
 * of a higher level of the same domain; pop VLAN below the root and on
 * NIC RX only (a ConnectX-5's STE v0 has no TX pop); a modify header
 * made for the table's level and domain; at most one action of a type,
 * two pop VLAN.
 */
static int
test_steer_rules_own(void)
{
	struct sr s;
	int ret;

	ret = sr_open(&s, "esr_own");
	if (ret != TEST_SUCCESS)
		return ret;
	/* Dest table level. */
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m1, s.j2, NULL, NULL, NULL), 0,
			  "level 1 -> 2");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m_root, s.j1, NULL, NULL, NULL), 0,
			  "root -> 1");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m2, s.j1, NULL, NULL, NULL), EINVAL,
			  "level 2 -> 1");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m1, s.j1, NULL, NULL, NULL), EINVAL,
			  "level 1 -> 1");
	/* Dest table of another domain (below the root and at it). */
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m1, s.jtx2, NULL, NULL, NULL), EINVAL,
			  "RX rule -> TX table");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m_root, s.jtx2, NULL, NULL, NULL),
			  EINVAL, "RX root rule -> TX table");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m_tx1, s.jtx2, NULL, NULL, NULL), 0,
			  "TX level 1 -> 2");
	/* Pop VLAN: below the root on NIC RX; twice at most. */
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m1, s.pop, s.td, NULL, NULL), 0,
			  "pop, TIR at level 1");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m_root, s.pop, s.td, NULL, NULL),
			  EOPNOTSUPP, "pop on the root");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m_tx1, s.pop, s.jtx2, NULL, NULL),
			  EINVAL, "pop on NIC TX");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m1, s.pop, s.pop, s.td, NULL), 0,
			  "pop twice");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m1, s.pop, s.pop, s.pop, s.td),
			  EINVAL, "pop three times");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m1, s.tag, s.tag, s.td, NULL),
			  EINVAL, "tag twice");
	/* Modify header: its level and domain. */
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m1, s.mod, s.td, NULL, NULL), 0,
			  "modify, TIR at level 1");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m_root, s.mod_root, s.td, NULL,
			  NULL), 0, "root modify, TIR on the root");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m1, s.mod_root, s.td, NULL, NULL),
			  EINVAL, "root modify at level 1");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m_root, s.mod, s.td, NULL, NULL),
			  EINVAL, "level modify on the root");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m1, s.mod_tx, s.td, NULL, NULL),
			  EINVAL, "TX modify in an RX rule");
	ret = sr_unchanged(&s);
	if (ret != TEST_SUCCESS)
		return ret;
	return sr_close(&s);
}

/*
 * The action state machine below the root (next_action_state[], NIC
 * ingress and egress: EOPNOTSUPP) and the model's stand-in for the
 * kernel's parser on the root (nothing after a terminal action).
 */
static int
test_steer_rules_sequence(void)
{
	struct sr s;
	int ret;

	ret = sr_open(&s, "esr_seq");
	if (ret != TEST_SUCCESS)
		return ret;
	/* NIC ingress, below the root. */
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m1, s.tag, s.drop, NULL, NULL), 0,
			  "tag, drop");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m1, s.tag, s.miss, NULL, NULL), 0,
			  "tag, default miss");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m1, s.pop, s.mod, s.tag, s.td), 0,
			  "pop, modify, tag, TIR");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m1, s.tag, NULL, NULL, NULL), 0,
			  "tag alone (no terminal action)");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m1, s.mod, s.pop, s.td, NULL),
			  EOPNOTSUPP, "modify, pop");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m1, s.mod, s.drop, NULL, NULL),
			  EOPNOTSUPP, "modify, drop");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m1, s.pop, s.miss, NULL, NULL),
			  EOPNOTSUPP, "pop, default miss");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m1, s.drop, s.tag, NULL, NULL),
			  EOPNOTSUPP, "drop, tag");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m1, s.td, s.j2, NULL, NULL),
			  EOPNOTSUPP, "TIR, dest table");
	/* NIC egress, below the root. */
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m_tx1, s.mod_tx, s.jtx2, NULL, NULL),
			  0, "TX modify, dest table");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m_tx1, s.drop, NULL, NULL, NULL), 0,
			  "TX drop");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m_tx1, s.mod_tx, s.drop, NULL, NULL),
			  EOPNOTSUPP, "TX modify, drop");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m_tx1, s.tag, s.drop, NULL, NULL),
			  EOPNOTSUPP, "TX tag");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m_tx1, s.td, NULL, NULL, NULL),
			  EOPNOTSUPP, "TX dest TIR");
	/* The root: one terminal action, last. */
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m_root, s.mod_root, s.tag, s.j1,
			  NULL), 0, "root: modify, tag, jump");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m_root, s.drop, s.tag, NULL, NULL),
			  EOPNOTSUPP, "root: drop, tag");
	TEST_ASSERT_EQUAL(sr_rule(&s, s.m_root, s.td, s.drop, NULL, NULL),
			  EOPNOTSUPP, "root: TIR, drop");
	ret = sr_unchanged(&s);
	if (ret != TEST_SUCCESS)
		return ret;
	return sr_close(&s);
}

/*
 * A matcher below the root whose enabled sections mask nothing builds
 * no STE (dr_matcher_set_ste_builders(): EINVAL); criteria 0 is the
 * empty matcher, and the root takes any mask (the kernel's table).
 */
static int
test_steer_rules_matcher(void)
{
	struct sr_param mk;
	struct sr s;
	void *m;
	int ret;

	ret = sr_open(&s, "esr_match");
	if (ret != TEST_SUCCESS)
		return ret;
	memset(&mk, 0, sizeof(mk));
	mk.size = sizeof(mk.buf);
	errno = 0;
	TEST_ASSERT_NULL(sr_matcher(&s, s.t1, CRIT_OUTER, &mk), "level 1");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno %d", errno);
	errno = 0;
	TEST_ASSERT_NULL(sr_matcher(&s, s.t1, CRIT_OUTER, NULL), "no mask");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno %d", errno);
	/* A bit in a section not enabled does not count. */
	MLX5_SET(fte_match_param, mk.buf, misc_parameters.source_port, 0xffff);
	errno = 0;
	TEST_ASSERT_NULL(sr_matcher(&s, s.t2, CRIT_OUTER, &mk), "misc bit");
	TEST_ASSERT_EQUAL(errno, EINVAL, "errno %d", errno);
	ret = sr_unchanged(&s);
	if (ret != TEST_SUCCESS)
		return ret;
	m = sr_matcher(&s, s.root, CRIT_OUTER, &mk);
	TEST_ASSERT_NOT_NULL(m, "the root takes it");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow_matcher(m), "m");
	MLX5_SET(fte_match_param, mk.buf, outer_headers.ethertype, 0xffff);
	m = sr_matcher(&s, s.t1, CRIT_OUTER, &mk);
	TEST_ASSERT_NOT_NULL(m, "level 1 with an ethertype mask");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow_matcher(m), "m");
	return sr_close(&s);
}

/*
 * Sizes: a modify header of no command or of a part of one
 * (mlx5dv_dr_action_create_modify_header(), dr_action_create_modify_action():
 * EINVAL); a rule of more actions than the model keeps (EINVAL).
 */
static int
test_steer_rules_sizes(void)
{
	void *acts[EMU_RULE_ACTS + 1];
	uint64_t cmd[2];
	struct sr s;
	size_t i;
	int ret;

	ret = sr_open(&s, "esr_sizes");
	if (ret != TEST_SUCCESS)
		return ret;
	/* Two NOPs (MLX5_MODIFICATION_TYPE_NOP in bits 31:28 of word 0). */
	cmd[0] = rte_cpu_to_be_64((uint64_t)MLX5_MODIFICATION_TYPE_NOP << 60);
	cmd[1] = cmd[0];
	errno = 0;
	TEST_ASSERT_NULL(mlx5_glue->dv_create_flow_action_modify_header(
			 s.p.ctx, 0, s.rx, 0, 0, cmd), "0 bytes");
	TEST_ASSERT_EQUAL(errno, EINVAL, "0 bytes: errno %d", errno);
	errno = 0;
	TEST_ASSERT_NULL(mlx5_glue->dv_create_flow_action_modify_header(
			 s.p.ctx, 0, s.rx, 0, 12, cmd), "12 bytes");
	TEST_ASSERT_EQUAL(errno, EINVAL, "12 bytes: errno %d", errno);
	for (i = 0; i < RTE_DIM(acts); i++)
		acts[i] = s.tag;
	errno = 0;
	TEST_ASSERT_NULL(mlx5_glue->dv_create_flow(s.m1, &s.any,
			 RTE_DIM(acts), acts), "17 actions");
	TEST_ASSERT_EQUAL(errno, EINVAL, "17 actions: errno %d", errno);
	ret = sr_unchanged(&s);
	if (ret != TEST_SUCCESS)
		return ret;
	acts[0] = mlx5_glue->dv_create_flow_action_modify_header(s.p.ctx, 0,
		s.rx, 0, sizeof(cmd), cmd);
	TEST_ASSERT_NOT_NULL(acts[0], "two NOPs");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(acts[0]), "nop");
	return sr_close(&s);
}

/*
 * The firmware's flow table commands over DevX (DPDK 22.11 sends them
 * only from its hardware steering, hws/mlx5dr_cmd.c, which needs
 * capabilities the model does not report): not modelled, answered as
 * the firmware answers an opcode it lacks (status BAD_OP, errno EINVAL
 * by the kernel's cmd_status_to_err()), nothing made.
 */
static int
test_steer_rules_devx_ft(void)
{
	static const struct {
		uint16_t opcode;
		const char *name;
	} cmds[] = {
		{ MLX5_CMD_OP_CREATE_FLOW_TABLE, "CREATE_FLOW_TABLE" },
		{ MLX5_CMD_OP_CREATE_FLOW_GROUP, "CREATE_FLOW_GROUP" },
		{ MLX5_CMD_OP_SET_FLOW_TABLE_ENTRY, "SET_FLOW_TABLE_ENTRY" },
	};
	uint32_t in[MLX5_ST_SZ_DW(create_flow_table_in)];
	uint32_t out[MLX5_ST_SZ_DW(create_flow_table_out)];
	struct sr s;
	size_t i;
	void *o;
	int ret;

	ret = sr_open(&s, "esr_devx_ft");
	if (ret != TEST_SUCCESS)
		return ret;
	for (i = 0; i < RTE_DIM(cmds); i++) {
		memset(in, 0, sizeof(in));
		memset(out, 0, sizeof(out));
		/* A NIC RX table of level 1 (flow_table_context). */
		MLX5_SET(create_flow_table_in, in, opcode, cmds[i].opcode);
		MLX5_SET(create_flow_table_in, in, table_type, 0);
		MLX5_SET(create_flow_table_in, in, flow_table_context.level, 1);
		errno = 0;
		o = mlx5_glue->devx_obj_create(s.p.ctx, in, sizeof(in), out,
					       sizeof(out));
		TEST_ASSERT_NULL(o, "%s accepted", cmds[i].name);
		TEST_ASSERT_EQUAL(errno, EINVAL, "%s: errno %d", cmds[i].name,
				  errno);
		TEST_ASSERT_EQUAL(MLX5_GET(create_flow_table_out, out, status),
				  0x02, "%s: status 0x%x (BAD_OP)", cmds[i].name,
				  MLX5_GET(create_flow_table_out, out, status));
		TEST_ASSERT_EQUAL(MLX5_GET(create_flow_table_out, out,
					   syndrome), MLX5_EMU_SYND_BAD_OPCODE,
				  "%s: syndrome 0x%x", cmds[i].name,
				  MLX5_GET(create_flow_table_out, out,
					   syndrome));
	}
	ret = sr_unchanged(&s);
	if (ret != TEST_SUCCESS)
		return ret;
	return sr_close(&s);
}

/*
 * The device's network state cannot be allocated (injected,
 * MLX5_EMU_FAIL_NET_STATE): a root modify header, a domain and an MR of
 * a device that has none yet fail with ENOMEM and leave nothing; then
 * each is accepted.
 */
static int
test_steer_rules_no_net_state(void)
{
	static uint8_t buf[4096];
	struct mlx5_emu_net_stats ns;
	struct mlx5_emu_stats es0, es1;
	struct ibv_context *ctx;
	uint64_t a0, b0, a1, b1;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	uint64_t cmd;
	void *o;

	ctx = mlx5_emu_open("esr_nonet", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	pd = mlx5_glue->alloc_pd(ctx);
	TEST_ASSERT_NOT_NULL(pd, "PD");
	/* SET reg_c_1 = 1 (mlx5_modification_cmd, big endian). */
	cmd = rte_cpu_to_be_64((uint64_t)(MLX5_MODIFICATION_TYPE_SET << 28 |
			       MLX5_MODI_META_REG_C_1 << 16) << 32 | 1);
	heap_snap(&a0, &b0);
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(ctx, &es0), "stats");
	mlx5_emu_fail_inject(ctx, MLX5_EMU_FAIL_NET_STATE, 0, 1);
	errno = 0;
	TEST_ASSERT_NULL(mlx5_glue->dv_create_flow_action_modify_header_root(
			 ctx, sizeof(cmd), &cmd, 0), "root modify header");
	TEST_ASSERT_EQUAL(errno, ENOMEM, "root modify header: errno %d",
			  errno);
	mlx5_emu_fail_inject(ctx, MLX5_EMU_FAIL_NET_STATE, 0, 1);
	errno = 0;
	TEST_ASSERT_NULL(mlx5_glue->dr_create_domain(ctx, DOM_NIC_RX),
			 "domain");
	TEST_ASSERT_EQUAL(errno, ENOMEM, "domain: errno %d", errno);
	mlx5_emu_fail_inject(ctx, MLX5_EMU_FAIL_NET_STATE, 0, 1);
	errno = 0;
	TEST_ASSERT_NULL(mlx5_glue->reg_mr(pd, buf, sizeof(buf),
			 IBV_ACCESS_LOCAL_WRITE), "MR");
	TEST_ASSERT_EQUAL(errno, ENOMEM, "MR: errno %d", errno);
	heap_snap(&a1, &b1);
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(ctx, &es1), "stats");
	TEST_ASSERT_SUCCESS(mlx5_emu_net_stats_get(ctx, &ns), "ns");
	TEST_ASSERT(a1 == a0 && b1 == b0, "rte_malloc heap changed");
	TEST_ASSERT(es1.devx_objs == es0.devx_objs && es1.umems == es0.umems &&
		    es1.pds == es0.pds && es1.uars == es0.uars &&
		    es1.dbr_slots == es0.dbr_slots, "device resources changed");
	TEST_ASSERT(ns.mrs == 0 && ns.steer_domains == 0 &&
		    ns.steer_actions == 0, "network objects left");
	/* The injection is spent: each is accepted. */
	o = mlx5_glue->dv_create_flow_action_modify_header_root(ctx,
		sizeof(cmd), &cmd, 0);
	TEST_ASSERT_NOT_NULL(o, "root modify header");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(o), "destroy");
	o = mlx5_glue->dr_create_domain(ctx, DOM_NIC_RX);
	TEST_ASSERT_NOT_NULL(o, "domain");
	TEST_ASSERT_SUCCESS(mlx5_glue->dr_destroy_domain(o), "destroy");
	mr = mlx5_glue->reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT_NOT_NULL(mr, "MR");
	TEST_ASSERT_SUCCESS(mlx5_glue->dereg_mr(mr), "dereg");
	TEST_ASSERT_SUCCESS(mlx5_glue->dealloc_pd(pd), "PD");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	return TEST_SUCCESS;
}

static struct unit_test_suite emu_steer_rules_suite = {
	.suite_name = "emu_steer_rules",
	.setup = emu_net_setup,
	.teardown = emu_net_teardown,
	.unit_test_cases = {
		TEST_CASE(test_steer_rules_own),
		TEST_CASE(test_steer_rules_sequence),
		TEST_CASE(test_steer_rules_matcher),
		TEST_CASE(test_steer_rules_sizes),
		TEST_CASE(test_steer_rules_devx_ft),
		TEST_CASE(test_steer_rules_no_net_state),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_steer_rules, emu_steer_rules_suite);
