/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The flow-steering entries of the dispatching glue table
 * (emu_glue_steer_install(), called by mlx5_emu_install()). Each entry
 * hands what the model knows (an emulated context, a DevX object of the
 * model, a steering object of its registry: net/mlx5_emu_steer.c) to the
 * model and forwards the rest, unchanged, to the wrapped table's entry;
 * on a process without an RDMA device a foreign pointer is refused with
 * EINVAL instead (rdma-core would dereference it), as mlx5_emu_glue.c
 * does. DPDK 22.11 (drivers/common/mlx5/linux/mlx5_glue.c, built with
 * HAVE_MLX5DV_DR) maps these entries to mlx5dv_dr_*: the model follows
 * those calls, root tables included (mlx5dv_dr_matcher_create on a level-0
 * table is the kernel's root there).
 *
 * Context-free constructors (drop, default miss, tag, pop VLAN) cannot
 * tell which device an action is for. While an emulated device is open,
 * or when the process sees no RDMA device (then nothing could destroy a
 * forwarded action: a pointer not the model's is refused), they return
 * a model action that belongs to no device, holding as its twin, where
 * an RDMA device is seen, the wrapped table's own action (made too:
 * rdma-core's constructors only allocate); a rule of a real device given
 * a model action gets the twin in its place, or is refused with a log
 * line when there is none. With real devices and no emulated one open
 * they forward. Device-bound
 * model actions (dest TIR, dest table, modify header) in a real rule are
 * refused with a log line (EINVAL).
 *
 * The _root entries (rdma-core's verbs flow API without DR:
 * mlx5dv_create_flow_matcher / mlx5dv_create_flow) are not how DPDK 22.11
 * with DR steers; on an emulated context a root matcher is refused with
 * EOPNOTSUPP and a log line, and a root modify header is made as the
 * model's root-level action of the device (usable in rules of its root
 * tables).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include <mlx5_glue.h>

#include "mlx5_emu_net.h"

#define EMU_ORIG(entry) ((const void *)(uintptr_t) \
	(emu_orig_glue != NULL ? emu_orig_glue->entry : NULL))
#define EMU_STEER_FWD(entry, fail, what, ...) \
	(emu_fwd_ok(EMU_ORIG(entry), #entry, (const void *)(what)) ? \
	 emu_orig_glue->entry(__VA_ARGS__) : (fail))

static int
emu_glue_steer_is(const void *p, enum emu_steer_kind kind)
{
	int ours;

	emu_net_lock();
	ours = emu_steer_find(p, kind) != NULL;
	emu_net_unlock();
	return ours;
}

static void *
emu_glue_dr_create_domain(struct ibv_context *ctx,
			  enum mlx5dv_dr_domain_type type)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);

	if (dev != NULL)
		return emu_steer_dom_create(dev, (int)type);
	return EMU_STEER_FWD(dr_create_domain, NULL, ctx, ctx, type);
}

static int
emu_glue_dr_destroy_domain(void *dom)
{
	int ret = emu_steer_dom_destroy(dom);

	if (ret != ENOENT)
		return ret;
	return EMU_STEER_FWD(dr_destroy_domain, errno, dom, dom);
}

static int
emu_glue_dr_sync_domain(void *dom, uint32_t flags)
{
	int ret = emu_steer_dom_sync(dom, flags);

	if (ret != ENOENT)
		return ret;
	return EMU_STEER_FWD(dr_sync_domain, errno, dom, dom, flags);
}

static void
emu_glue_dr_domain_flag(void *dom, uint32_t on, int dup)
{
	if (emu_glue_steer_is(dom, EMU_STEER_DOM)) {
		emu_steer_dom_flag(dom, dup, on);
		return;
	}
	if (dup && emu_fwd_ok(EMU_ORIG(dr_allow_duplicate_rules),
				    "dr_allow_duplicate_rules", dom))
		emu_orig_glue->dr_allow_duplicate_rules(dom, on);
	else if (!dup && emu_fwd_ok(EMU_ORIG(dr_reclaim_domain_memory),
					  "dr_reclaim_domain_memory", dom))
		emu_orig_glue->dr_reclaim_domain_memory(dom, on);
}

static void
emu_glue_dr_allow_duplicate_rules(void *dom, uint32_t allow)
{
	emu_glue_dr_domain_flag(dom, allow, 1);
}

static void
emu_glue_dr_reclaim_domain_memory(void *dom, uint32_t enable)
{
	emu_glue_dr_domain_flag(dom, enable, 0);
}

static int
emu_glue_dr_dump_domain(FILE *file, void *dom)
{
	if (emu_glue_steer_is(dom, EMU_STEER_DOM))
		return emu_steer_dom_dump(file, dom);
	return EMU_STEER_FWD(dr_dump_domain, errno, dom, file, dom);
}

static void *
emu_glue_dr_create_flow_tbl(void *dom, uint32_t level)
{
	if (emu_glue_steer_is(dom, EMU_STEER_DOM))
		return emu_steer_tbl_create(dom, level);
	return EMU_STEER_FWD(dr_create_flow_tbl, NULL, dom, dom, level);
}

static int
emu_glue_dr_destroy_flow_tbl(void *tbl)
{
	int ret = emu_steer_tbl_destroy(tbl);

	if (ret != ENOENT)
		return ret;
	return EMU_STEER_FWD(dr_destroy_flow_tbl, errno, tbl, tbl);
}

static void *
emu_glue_dv_create_flow_matcher(struct ibv_context *ctx,
				struct mlx5dv_flow_matcher_attr *attr,
				void *tbl)
{
	if (emu_glue_steer_is(tbl, EMU_STEER_TBL)) {
		/* The model's own limit (not forwarded either way). */
		if (attr == NULL) {
			errno = EINVAL;
			return NULL;
		}
		return emu_steer_matcher_create(tbl, attr->priority,
						attr->match_criteria_enable,
						attr->match_mask);
	}
	if (emu_dev_from_ctx(ctx) != NULL) {
		EMU_LOG(ERR, "dv_create_flow_matcher: table %p is not one of "
			"the emulated device's", tbl);
		errno = EINVAL;
		return NULL;
	}
	return EMU_STEER_FWD(dv_create_flow_matcher, NULL, tbl, ctx, attr,
			     tbl);
}

static int
emu_glue_dv_destroy_flow_matcher(void *m)
{
	int ret = emu_steer_matcher_destroy(m);

	if (ret != ENOENT)
		return ret;
	return EMU_STEER_FWD(dv_destroy_flow_matcher, errno, m, m);
}

static void *
emu_glue_dv_create_flow_matcher_root(struct ibv_context *ctx,
				     struct mlx5dv_flow_matcher_attr *attr)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);

	if (dev != NULL) {
		EMU_LOG(ERR, "%s: dv_create_flow_matcher_root: the model steers "
			"through mlx5dv_dr (a level-0 table), not the verbs "
			"flow API", dev->name);
		errno = EOPNOTSUPP;
		return NULL;
	}
	return EMU_STEER_FWD(dv_create_flow_matcher_root, NULL, ctx, ctx,
			     attr);
}

static int
emu_glue_dv_destroy_flow_matcher_root(void *m)
{
	int ret = emu_steer_matcher_destroy(m);

	if (ret != ENOENT)
		return ret;
	return EMU_STEER_FWD(dv_destroy_flow_matcher_root, errno, m, m);
}

/*
 * A rule of a real matcher: model actions replaced by their twins, or
 * the rule refused (EINVAL) when one has none.
 */
static void *
emu_glue_real_rule(void *matcher, void *value, size_t n, void *acts[])
{
	void *copy[EMU_STEER_MAX_ACTS];
	size_t i;

	emu_net_lock();
	if (!emu_steer_has_act(acts, n)) {
		emu_net_unlock();
		return EMU_STEER_FWD(dv_create_flow, NULL, matcher, matcher,
				     value, n, acts);
	}
	for (i = 0; i < n && i < EMU_STEER_MAX_ACTS; i++) {
		copy[i] = acts[i];
		if (emu_steer_find(acts[i], EMU_STEER_ACT) == NULL)
			continue;
		copy[i] = emu_steer_act_twin(acts[i]);
		if (copy[i] == NULL)
			break;
	}
	emu_net_unlock();
	if (i < n) {
		EMU_LOG(ERR, "dv_create_flow: a real device's rule with the "
			"model's action %p (no twin, or more than %u actions): "
			"refused", acts[i < EMU_STEER_MAX_ACTS ? i : 0],
			EMU_STEER_MAX_ACTS);
		errno = EINVAL;
		return NULL;
	}
	return EMU_STEER_FWD(dv_create_flow, NULL, matcher, matcher, value, n,
			     copy);
}

static void *
emu_glue_dv_create_flow(void *matcher, void *value, size_t n, void *acts[])
{
	if (emu_glue_steer_is(matcher, EMU_STEER_MATCHER))
		return emu_steer_rule_create(matcher, value, n, acts);
	return emu_glue_real_rule(matcher, value, n, acts);
}

static void *
emu_glue_dv_create_flow_root(void *matcher, void *value, size_t n,
			     void *acts)
{
	/* No model matcher comes from the verbs path (see above). */
	return EMU_STEER_FWD(dv_create_flow_root, NULL, matcher, matcher,
			     value, n, acts);
}

static int
emu_glue_dv_destroy_flow(void *rule)
{
	int ret = emu_steer_rule_destroy(rule);

	if (ret != ENOENT)
		return ret;
	return EMU_STEER_FWD(dv_destroy_flow, errno, rule, rule);
}

static void *
emu_glue_dv_create_flow_action_dest_devx_tir(void *tir)
{
	struct emu_dev *dev = emu_devx_obj_find_locked(tir);
	void *a;

	if (dev == NULL)
		return EMU_STEER_FWD(dv_create_flow_action_dest_devx_tir, NULL,
				     tir, tir);
	a = emu_steer_act_tir(dev, (struct emu_obj *)tir);
	pthread_mutex_unlock(&dev->lock);
	return a;
}

static void *
emu_glue_dv_create_flow_action_counter(void *obj, uint32_t offset)
{
	struct emu_dev *dev = emu_devx_obj_find_locked(obj);

	if (dev == NULL)
		return EMU_STEER_FWD(dv_create_flow_action_counter, NULL, obj,
				     obj, offset);
	/* mlx5dv_dr_action_create_flow_counter: not a flow counter. */
	EMU_LOG(ERR, "%s: dv_create_flow_action_counter: object %p is not a "
		"flow counter (the model has none)", dev->name, obj);
	pthread_mutex_unlock(&dev->lock);
	errno = EINVAL;
	return NULL;
}

static void *
emu_glue_dr_create_flow_action_dest_flow_tbl(void *tbl)
{
	if (emu_glue_steer_is(tbl, EMU_STEER_TBL))
		return emu_steer_act_table(tbl);
	return EMU_STEER_FWD(dr_create_flow_action_dest_flow_tbl, NULL, tbl,
			     tbl);
}

static void *
emu_glue_dv_create_flow_action_modify_header(struct ibv_context *ctx,
					     enum mlx5dv_flow_table_type ft,
					     void *dom, uint64_t flags,
					     size_t sz, uint64_t acts[])
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);

	if (emu_glue_steer_is(dom, EMU_STEER_DOM)) {
		/* rdma-core mlx5dv_dr_action_create_modify_header():
		 * check_comp_mask(flags, ROOT_LEVEL), EINVAL.
		 */
		if (flags & ~(uint64_t)MLX5DV_DR_ACTION_FLAGS_ROOT_LEVEL) {
			EMU_LOG(ERR, "modify header: flags 0x%" PRIx64, flags);
			errno = EINVAL;
			return NULL;
		}
		return emu_steer_act_modify(NULL, dom, (int)(flags & 1), sz,
					    acts);
	}
	if (dev != NULL) {
		EMU_LOG(ERR, "%s: modify header: domain %p is not the "
			"device's", dev->name, dom);
		errno = EINVAL;
		return NULL;
	}
	return EMU_STEER_FWD(dv_create_flow_action_modify_header, NULL, dom,
			     ctx, ft, dom, flags, sz, acts);
}

static void *
emu_glue_dv_create_flow_action_modify_header_root(struct ibv_context *ctx,
						  size_t sz, uint64_t acts[],
						  enum mlx5dv_flow_table_type ft)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);
	void *a;

	if (dev == NULL)
		return EMU_STEER_FWD(dv_create_flow_action_modify_header_root,
				     NULL, ctx, ctx, sz, acts, ft);
	pthread_mutex_lock(&dev->lock);
	if (emu_net_get(dev) == NULL) {
		pthread_mutex_unlock(&dev->lock);
		errno = ENOMEM;
		return NULL;
	}
	a = emu_steer_act_modify(dev, NULL, 1, sz, acts);
	pthread_mutex_unlock(&dev->lock);
	return a;
}

/*
 * A context-free action (see the top of the file): twin is what the
 * wrapped table's entry made (have: it has the entry).
 */
static void *
emu_glue_plain(enum emu_steer_act_type type, uint32_t tag, void *twin,
	       int have)
{
	void *a;

	/* A real device and no emulated one: the wrapped table's action. */
	if (!emu_dev_any() && emu_rdma_seen()) {
		if (!have)
			errno = ENOSYS;
		return twin;
	}
	a = emu_steer_act_plain(type, tag, twin);
	if (a == NULL && twin != NULL &&
	    emu_orig_glue->destroy_flow_action != NULL)
		emu_orig_glue->destroy_flow_action(twin);
	return a;
}

/* The twin: only where a real device can use it. */
#define EMU_TWIN(entry, ...) \
	(EMU_ORIG(entry) != NULL && emu_rdma_seen() ? \
	 emu_orig_glue->entry(__VA_ARGS__) : NULL)

static void *
emu_glue_dr_create_flow_action_drop(void)
{
	return emu_glue_plain(EMU_SA_DROP, 0,
			      EMU_TWIN(dr_create_flow_action_drop),
			      EMU_ORIG(dr_create_flow_action_drop) != NULL);
}

static void *
emu_glue_dr_create_flow_action_default_miss(void)
{
	return emu_glue_plain(EMU_SA_MISS, 0,
			      EMU_TWIN(dr_create_flow_action_default_miss),
			      EMU_ORIG(dr_create_flow_action_default_miss) !=
			      NULL);
}

static void *
emu_glue_dr_create_flow_action_pop_vlan(void)
{
	return emu_glue_plain(EMU_SA_POP_VLAN, 0,
			      EMU_TWIN(dr_create_flow_action_pop_vlan),
			      EMU_ORIG(dr_create_flow_action_pop_vlan) != NULL);
}

static void *
emu_glue_dv_create_flow_action_tag(uint32_t tag)
{
	return emu_glue_plain(EMU_SA_TAG, tag,
			      EMU_TWIN(dv_create_flow_action_tag, tag),
			      EMU_ORIG(dv_create_flow_action_tag) != NULL);
}

static int
emu_glue_destroy_flow_action(void *act)
{
	void *twin = NULL;
	int ret = emu_steer_act_destroy(act, &twin);

	if (ret == 0 && twin != NULL && emu_orig_glue != NULL &&
	    emu_orig_glue->destroy_flow_action != NULL)
		emu_orig_glue->destroy_flow_action(twin);
	if (ret != ENOENT)
		return ret;
	return EMU_STEER_FWD(destroy_flow_action, errno, act, act);
}

void
emu_glue_steer_install(struct mlx5_glue *t)
{
	t->dr_create_domain = emu_glue_dr_create_domain;
	t->dr_destroy_domain = emu_glue_dr_destroy_domain;
	t->dr_sync_domain = emu_glue_dr_sync_domain;
	t->dr_reclaim_domain_memory = emu_glue_dr_reclaim_domain_memory;
	t->dr_allow_duplicate_rules = emu_glue_dr_allow_duplicate_rules;
	t->dr_dump_domain = emu_glue_dr_dump_domain;
	t->dr_create_flow_tbl = emu_glue_dr_create_flow_tbl;
	t->dr_destroy_flow_tbl = emu_glue_dr_destroy_flow_tbl;
	t->dv_create_flow_matcher = emu_glue_dv_create_flow_matcher;
	t->dv_create_flow_matcher_root = emu_glue_dv_create_flow_matcher_root;
	t->dv_destroy_flow_matcher = emu_glue_dv_destroy_flow_matcher;
	t->dv_destroy_flow_matcher_root =
		emu_glue_dv_destroy_flow_matcher_root;
	t->dv_create_flow = emu_glue_dv_create_flow;
	t->dv_create_flow_root = emu_glue_dv_create_flow_root;
	t->dv_destroy_flow = emu_glue_dv_destroy_flow;
	t->dv_create_flow_action_dest_devx_tir =
		emu_glue_dv_create_flow_action_dest_devx_tir;
	t->dv_create_flow_action_counter =
		emu_glue_dv_create_flow_action_counter;
	t->dr_create_flow_action_dest_flow_tbl =
		emu_glue_dr_create_flow_action_dest_flow_tbl;
	t->dv_create_flow_action_modify_header =
		emu_glue_dv_create_flow_action_modify_header;
	t->dv_create_flow_action_modify_header_root =
		emu_glue_dv_create_flow_action_modify_header_root;
	t->dr_create_flow_action_drop = emu_glue_dr_create_flow_action_drop;
	t->dr_create_flow_action_default_miss =
		emu_glue_dr_create_flow_action_default_miss;
	t->dr_create_flow_action_pop_vlan =
		emu_glue_dr_create_flow_action_pop_vlan;
	t->dv_create_flow_action_tag = emu_glue_dv_create_flow_action_tag;
	t->destroy_flow_action = emu_glue_destroy_flow_action;
}
