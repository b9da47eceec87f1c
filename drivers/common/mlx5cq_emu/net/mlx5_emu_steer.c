/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Flow steering objects: what rdma-core's mlx5dv_dr API (DPDK 22.11's
 * net/mlx5 with dv_flow_en=1, through mlx5_glue) creates, as the model
 * keeps it. The per-frame walk is in mlx5_emu_steer_rx.c.
 *
 * Sources: rdma-core providers/mlx5/dr_domain.c, dr_table.c,
 * dr_matcher.c, dr_rule.c, dr_action.c and man mlx5dv_dr_flow; DPDK
 * 22.11 drivers/common/mlx5/linux/mlx5_glue.c (which entry calls what),
 * drivers/net/mlx5/linux/mlx5_os.c (mlx5_alloc_shared_dr) and
 * mlx5_flow_dv.c; mlx5_prm.h for fte_match_param and
 * mlx5_modification_cmd.
 *
 * Rules:
 * - Domains: NIC RX and NIC TX; another type above FDB is EINVAL
 *   (mlx5dv_dr_domain_create). FDB is refused (EOPNOTSUPP), the model's
 *   own limit: it has no E-Switch; rdma-core 44 would make a root-only
 *   domain (dr_domain_caps_init() without eswitch_manager), and DPDK
 *   asks for FDB only with dv_esw_en (mlx5_alloc_shared_dr()).
 *   Destroy while tables or modify-header actions use it: EBUSY
 *   (dr_domain refcount).
 * - Tables: any level; level 0 is the root (the kernel's table, where
 *   rdma-core passes matchers and rules to mlx5dv_create_flow_matcher /
 *   mlx5dv_create_flow). Every level-0 table of a domain adds its
 *   matchers to the one root. Destroy while matchers or dest-table
 *   actions use it: EBUSY (dr_table refcount).
 * - Matchers: match_criteria_enable below 0x80 (else EINVAL), mask
 *   match_sz at most sizeof(dr_match_param) = 448 (else EINVAL); a
 *   section whose criteria bit is clear is ignored (dr_ste_copy_param).
 *   Bits the model does not match are refused with EOPNOTSUPP, as
 *   rdma-core refuses a mask it cannot consume: outer headers (MACs,
 *   ethertype, VLAN tags, first prio/cfi/vid, IP protocol, DSCP, ECN,
 *   version, fragment, TTL, IPv4 IHL, TCP flags and ports, UDP ports,
 *   IPv4/IPv6 addresses), misc (source_port, the second VLAN tag),
 *   misc2 (metadata reg_a, reg_b, reg_c_0..7); inner headers and misc
 *   3/4/5 not at all. Below the root, enabled sections that mask
 *   nothing are EINVAL (dr_matcher_set_ste_builders: no STE builder).
 *   Order (dr_matcher_add_to_tbl): by priority, lower
 *   first; a new matcher goes before those of its priority. Destroy
 *   while rules use it: EBUSY.
 * - Rules: a value of 0 bytes matches all; else at most 448 bytes, a
 *   multiple of 4, and no bit outside the mask in an enabled section
 *   (dr_rule_verify: EINVAL). A rule whose masked value equals an
 *   existing rule's in the same matcher is a duplicate: EEXIST once
 *   dr_allow_duplicate_rules(dom, 0) was called (dr_rule.c
 *   DR_DOMAIN_FLAG_DISABLE_DUPLICATE_RULES), else accepted behind the
 *   first (the miss list keeps the older STE first). Model limit: the
 *   root follows the same rule, where the kernel's fs_core would merge
 *   or refuse equal entries.
 * - Actions of a rule: each must be the model's (EINVAL), then
 *   mlx5_emu_steer_chk.c checks the list as rdma-core does
 *   (dr_actions_build_ste_arr below the root, dr_actions_build_attr on
 *   it). Actions in use: destroy is EBUSY (mlx5dv_dr_action_destroy
 *   refcount).
 * - Actions: mlx5_emu_steer_act.c.
 * - At close, what the device left (domains, tables, matchers, rules,
 *   its actions) is freed with a WARNING line.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <mlx5_prm.h>

#include "mlx5_emu_net.h"

/* mlx5dv_dr_domain_type and mlx5dv_dr_domain_sync flags (mlx5dv.h). */
#define EMU_DR_NIC_RX 0
#define EMU_DR_NIC_TX 1
#define EMU_DR_FDB 2
#define EMU_DR_SYNC_FLAGS 0x7 /* SW, HW, MEM */
#define EMU_DR_CRITERIA_MAX 0x80 /* DR_MATCHER_CRITERIA_MAX */

static TAILQ_HEAD(, emu_steer_obj) emu_steer_reg =
	TAILQ_HEAD_INITIALIZER(emu_steer_reg);

/* The mlx5dv_flow_match_parameters head: match_sz, then the buffer. */
struct emu_match_params {
	size_t match_sz;
	uint64_t match_buf[];
};

const char *const emu_steer_act_names[EMU_SA_MAX] = {
	[EMU_SA_TIR] = "dest TIR",
	[EMU_SA_TABLE] = "dest table",
	[EMU_SA_DROP] = "drop",
	[EMU_SA_MISS] = "default miss",
	[EMU_SA_TAG] = "tag",
	[EMU_SA_POP_VLAN] = "pop VLAN",
	[EMU_SA_MODIFY] = "modify header",
};

void *
emu_steer_find(const void *p, enum emu_steer_kind kind)
{
	struct emu_steer_obj *o;

	if (p == NULL)
		return NULL;
	TAILQ_FOREACH(o, &emu_steer_reg, reg)
		if ((const void *)o == p)
			return o->kind == (uint32_t)kind ? o : NULL;
	return NULL;
}

int
emu_steer_has_act(void *const acts[], size_t n)
{
	size_t i;

	for (i = 0; acts != NULL && i < n; i++)
		if (emu_steer_find(acts[i], EMU_STEER_ACT) != NULL)
			return 1;
	return 0;
}

void *
emu_steer_new(size_t sz, enum emu_steer_kind kind)
{
	struct emu_steer_obj *o = calloc(1, sz);

	if (o == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	o->kind = kind;
	TAILQ_INSERT_TAIL(&emu_steer_reg, o, reg);
	return o;
}

void
emu_steer_free(void *p)
{
	struct emu_steer_obj *o = p;

	TAILQ_REMOVE(&emu_steer_reg, o, reg);
	free(o);
}

void *
emu_steer_fail(int err)
{
	errno = err;
	return NULL;
}

void *
emu_steer_dom_create(struct emu_dev *dev, int type)
{
	struct emu_steer_dom *dom;
	struct emu_net *net;

	/* The model's own limit (see the rules above). */
	if (type == EMU_DR_FDB) {
		EMU_LOG(ERR, "%s: dr_create_domain: FDB refused: the model has "
			"no E-Switch", dev->name);
		return emu_steer_fail(EOPNOTSUPP);
	}
	/* mlx5dv_dr_domain_create(): type above ..._FDB, EINVAL. */
	if (type != EMU_DR_NIC_RX && type != EMU_DR_NIC_TX) {
		EMU_LOG(ERR, "%s: dr_create_domain: type %d", dev->name, type);
		return emu_steer_fail(EINVAL);
	}
	pthread_mutex_lock(&dev->lock);
	net = emu_net_get(dev);
	if (net == NULL) {
		pthread_mutex_unlock(&dev->lock);
		return emu_steer_fail(ENOMEM);
	}
	emu_net_lock();
	dom = emu_steer_new(sizeof(*dom), EMU_STEER_DOM);
	if (dom != NULL) {
		dom->net = net;
		dom->type = (uint8_t)type;
		TAILQ_INIT(&dom->tbls);
		TAILQ_INIT(&dom->root);
		TAILQ_INSERT_TAIL(&net->doms, dom, next);
		if (type == EMU_DR_NIC_RX && net->rx_dom == NULL)
			net->rx_dom = dom;
		if (type == EMU_DR_NIC_RX)
			net->rx_steered = 1;
		net->nstats.steer_domains++;
	}
	emu_net_unlock();
	pthread_mutex_unlock(&dev->lock);
	return dom;
}

static void
emu_steer_dom_free(struct emu_steer_dom *dom)
{
	struct emu_net *net = dom->net;
	struct emu_steer_dom *d;

	TAILQ_REMOVE(&net->doms, dom, next);
	if (net->rx_dom == dom) {
		/* The next NIC RX domain of the device, if any, steers. */
		net->rx_dom = NULL;
		TAILQ_FOREACH(d, &net->doms, next)
			if (d->type == EMU_DR_NIC_RX) {
				net->rx_dom = d;
				break;
			}
	}
	net->nstats.steer_domains--;
	emu_steer_free(dom);
}

int
emu_steer_dom_destroy(void *p)
{
	struct emu_steer_dom *dom;

	emu_net_lock();
	dom = emu_steer_find(p, EMU_STEER_DOM);
	if (dom == NULL) {
		emu_net_unlock();
		return emu_ret_errno(ENOENT);
	}
	/* mlx5dv_dr_domain_destroy(): refcount above 1, EBUSY. */
	if (dom->o.refcnt != 0) {
		EMU_LOG(ERR, "%s: dr_destroy_domain: used by %u table(s) or "
			"action(s)", dom->net->dev->name, dom->o.refcnt);
		emu_net_unlock();
		return emu_ret_errno(EBUSY);
	}
	emu_steer_dom_free(dom);
	emu_net_unlock();
	return 0;
}

int
emu_steer_dom_sync(void *p, uint32_t flags)
{
	int ret = 0;

	emu_net_lock();
	if (emu_steer_find(p, EMU_STEER_DOM) == NULL) {
		ret = ENOENT;
	} else if (flags & ~EMU_DR_SYNC_FLAGS) {
		/* mlx5dv_dr_domain_sync(): check_comp_mask() against
		 * MLX5DV_DR_DOMAIN_SYNC_SUP_FLAGS, EOPNOTSUPP.
		 */
		EMU_LOG(ERR, "dr_sync_domain: flags 0x%x", flags);
		ret = EOPNOTSUPP;
	}
	/* Rules take effect when created: nothing to drain. */
	emu_net_unlock();
	return ret ? emu_ret_errno(ret) : 0;
}

void
emu_steer_dom_flag(void *p, int dup, uint32_t on)
{
	struct emu_steer_dom *dom;

	emu_net_lock();
	dom = emu_steer_find(p, EMU_STEER_DOM);
	if (dom != NULL && dup)
		dom->no_dup = !on;
	else if (dom != NULL)
		dom->reclaim = !!on;
	emu_net_unlock();
}

static void
emu_steer_dump_matchers(FILE *f, const struct emu_steer_matcher_list *l)
{
	const struct emu_steer_matcher *m;
	const struct emu_steer_rule *r;
	uint32_t i;

	TAILQ_FOREACH(m, l, next) {
		fprintf(f, "  matcher %p prio %u criteria 0x%x words %u\n",
			(const void *)m, m->prio, m->criteria, m->nqw);
		TAILQ_FOREACH(r, &m->rules, next) {
			fprintf(f, "    rule %p hits %" PRIu64 " actions",
				(const void *)r, r->hits);
			for (i = 0; i < r->nact; i++)
				fprintf(f, " %s", emu_steer_act_names[r->act[i]->type]);
			fprintf(f, "\n");
		}
	}
}

int
emu_steer_dom_dump(FILE *f, void *p)
{
	const struct emu_steer_dom *dom;
	const struct emu_steer_tbl *t;

	if (f == NULL)
		return emu_ret_errno(EINVAL);
	emu_net_lock();
	dom = emu_steer_find(p, EMU_STEER_DOM);
	if (dom == NULL) {
		emu_net_unlock();
		return emu_ret_errno(ENOENT);
	}
	fprintf(f, "domain %p %s of %s, duplicates %s\n", p,
		dom->type == EMU_DR_NIC_RX ? "NIC RX" : "NIC TX",
		dom->net->dev->name, dom->no_dup ? "refused" : "allowed");
	fprintf(f, " root\n");
	emu_steer_dump_matchers(f, &dom->root);
	TAILQ_FOREACH(t, &dom->tbls, next) {
		if (t->level == 0)
			continue;
		fprintf(f, " table %p level %u\n", (const void *)t, t->level);
		emu_steer_dump_matchers(f, &t->matchers);
	}
	emu_net_unlock();
	return 0;
}

void *
emu_steer_tbl_create(void *p, uint32_t level)
{
	struct emu_steer_dom *dom;
	struct emu_steer_tbl *t = NULL;

	emu_net_lock();
	dom = emu_steer_find(p, EMU_STEER_DOM);
	if (dom == NULL)
		errno = ENOENT;
	else
		t = emu_steer_new(sizeof(*t), EMU_STEER_TBL);
	if (t != NULL) {
		t->dom = dom;
		t->level = level;
		TAILQ_INIT(&t->matchers);
		TAILQ_INSERT_TAIL(&dom->tbls, t, next);
		dom->o.refcnt++;
		dom->ntbl++;
		dom->net->nstats.steer_tables++;
	}
	emu_net_unlock();
	return t;
}

static void
emu_steer_tbl_free(struct emu_steer_tbl *t)
{
	struct emu_steer_dom *dom = t->dom;

	TAILQ_REMOVE(&dom->tbls, t, next);
	dom->o.refcnt--;
	dom->ntbl--;
	dom->net->nstats.steer_tables--;
	emu_steer_free(t);
}

int
emu_steer_tbl_destroy(void *p)
{
	struct emu_steer_tbl *t;

	emu_net_lock();
	t = emu_steer_find(p, EMU_STEER_TBL);
	if (t == NULL) {
		emu_net_unlock();
		return emu_ret_errno(ENOENT);
	}
	/* mlx5dv_dr_table_destroy(): refcount above 1, EBUSY. */
	if (t->o.refcnt != 0) {
		EMU_LOG(ERR, "%s: dr_destroy_flow_tbl: level %u used by %u "
			"matcher(s) or dest-table action(s)",
			t->dom->net->dev->name, t->level, t->o.refcnt);
		emu_net_unlock();
		return emu_ret_errno(EBUSY);
	}
	emu_steer_tbl_free(t);
	emu_net_unlock();
	return 0;
}

/* Byte offsets of the fte_match_param sections. */
#define EMU_SEC_OFF(sec) MLX5_BYTE_OFF(fte_match_param, sec)
#define EMU_SEC_SZ 64

static const struct {
	uint8_t bit;
	uint16_t off;
	int modelled;
	const char *name;
} emu_steer_secs[] = {
	{ MLX5_MATCH_CRITERIA_ENABLE_OUTER_BIT,
	  EMU_SEC_OFF(outer_headers), 1, "outer headers" },
	{ MLX5_MATCH_CRITERIA_ENABLE_MISC_BIT,
	  EMU_SEC_OFF(misc_parameters), 1, "misc parameters" },
	{ MLX5_MATCH_CRITERIA_ENABLE_INNER_BIT,
	  EMU_SEC_OFF(inner_headers), 0, "inner headers" },
	{ MLX5_MATCH_CRITERIA_ENABLE_MISC2_BIT,
	  EMU_SEC_OFF(misc_parameters_2), 1, "misc parameters 2" },
	{ MLX5_MATCH_CRITERIA_ENABLE_MISC3_BIT,
	  EMU_SEC_OFF(misc_parameters_3), 0, "misc parameters 3" },
	{ MLX5_MATCH_CRITERIA_ENABLE_MISC4_BIT,
	  EMU_SEC_OFF(misc_parameters_4), 0, "misc parameters 4" },
	{ MLX5_MATCH_CRITERIA_ENABLE_MISC5_BIT,
	  EMU_SEC_OFF(misc_parameters_5), 0, "misc parameters 5" },
};

/*
 * A match parameter buffer (mask or value) copied into buf (448 bytes,
 * zeroed), its disabled sections cleared; EINVAL for a bad size.
 */
static int
emu_steer_params(const void *p, uint8_t criteria, uint8_t *buf, int value)
{
	const struct emu_match_params *mp = p;
	size_t i, sz;

	memset(buf, 0, EMU_STEER_PARAM_SZ);
	if (mp == NULL)
		return 0;
	sz = mp->match_sz;
	/* Mask: dr_matcher_copy_param() "Invalid match size attribute";
	 * value: dr_rule_verify() "Rule parameters length is incorrect"
	 * (both EINVAL).
	 */
	if (sz > EMU_STEER_PARAM_SZ || (value && sz % 4 != 0)) {
		EMU_LOG(ERR, "steering: match parameters of %zu bytes (at most "
			"%u%s)", sz, EMU_STEER_PARAM_SZ,
			value ? ", a multiple of 4" : "");
		return emu_ret_errno(EINVAL);
	}
	memcpy(buf, mp->match_buf, sz);
	for (i = 0; i < RTE_DIM(emu_steer_secs); i++)
		if (!(criteria & (1u << emu_steer_secs[i].bit)))
			memset(buf + emu_steer_secs[i].off, 0, EMU_SEC_SZ);
	return 0;
}

void *
emu_steer_matcher_create(void *p, uint16_t prio, uint8_t criteria,
			 const void *mask)
{
	uint8_t buf[EMU_STEER_PARAM_SZ], sup[EMU_STEER_KEY_QW * 8];
	uint8_t l34[EMU_STEER_KEY_QW * 8];
	struct emu_steer_matcher *m, *it;
	struct emu_steer_tbl *t;
	uint64_t w, s;
	size_t i, j;
	int ret;

	/* dr_matcher_copy_param(): "Invalid match criteria attribute". */
	if (criteria >= EMU_DR_CRITERIA_MAX) {
		EMU_LOG(ERR, "steering: match_criteria_enable 0x%x", criteria);
		return emu_steer_fail(EINVAL);
	}
	ret = emu_steer_params(mask, criteria, buf, 0);
	if (ret != 0)
		return emu_steer_fail(ret);
	/*
	 * Sections and bits the model does not match: its own limit,
	 * answered as rdma-core answers a mask it cannot consume
	 * (dr_matcher_is_mask_consumed(): EOPNOTSUPP).
	 */
	for (i = 0; i < RTE_DIM(emu_steer_secs); i++) {
		if (emu_steer_secs[i].modelled ||
		    emu_bytes_zero(buf + emu_steer_secs[i].off, EMU_SEC_SZ))
			continue;
		EMU_LOG(ERR, "steering: matcher on %s refused: not modelled",
			emu_steer_secs[i].name);
		return emu_steer_fail(EOPNOTSUPP);
	}
	emu_steer_key_supported(sup);
	emu_steer_key_l34(l34);
	for (i = 0; i < sizeof(sup); i += 8) {
		memcpy(&w, buf + i, 8);
		memcpy(&s, sup + i, 8);
		if ((w & ~s) == 0)
			continue;
		for (j = 0; j < RTE_DIM(emu_steer_secs); j++)
			if (emu_steer_secs[j].off / EMU_SEC_SZ == i / EMU_SEC_SZ)
				break;
		EMU_LOG(ERR, "steering: matcher refused: %s byte %zu has bits "
			"the model does not match (mask 0x%016" PRIx64 ")",
			emu_steer_secs[j].name, i % EMU_SEC_SZ,
			rte_be_to_cpu_64(w & ~s));
		return emu_steer_fail(EOPNOTSUPP);
	}
	emu_net_lock();
	t = emu_steer_find(p, EMU_STEER_TBL);
	/*
	 * Below the root, enabled sections with an all-zero mask build no
	 * STE: "Cannot generate any valid rules from mask", EINVAL
	 * (dr_matcher_set_ste_builders(); criteria 0 is the empty matcher,
	 * DR_MATCHER_CRITERIA_EMPTY, which takes all).
	 */
	if (t != NULL && t->level != 0 && criteria != 0 &&
	    emu_bytes_zero(buf, EMU_STEER_PARAM_SZ)) {
		EMU_LOG(ERR, "steering: matcher in a level %u table: criteria "
			"0x%x with an all-zero mask", t->level, criteria);
		emu_net_unlock();
		return emu_steer_fail(EINVAL);
	}
	m = t != NULL ? emu_steer_new(sizeof(*m), EMU_STEER_MATCHER) : NULL;
	if (m == NULL) {
		if (t == NULL)
			errno = ENOENT;
		emu_net_unlock();
		return NULL;
	}
	m->tbl = t;
	m->prio = prio;
	m->criteria = criteria;
	TAILQ_INIT(&m->rules);
	for (i = 0; i < EMU_STEER_KEY_QW; i++) {
		memcpy(&w, buf + 8 * i, 8);
		if (w == 0)
			continue;
		m->qw_idx[m->nqw] = (uint8_t)i;
		m->qw_mask[m->nqw++] = w;
		memcpy(&s, l34 + 8 * i, 8);
		if ((w & s) != 0)
			m->l34 = 1;
	}
	t->dom->l34_matchers += m->l34;
	/* Before the first matcher of its priority or a later one. */
	m->list = t->level == 0 ? &t->dom->root : &t->matchers;
	TAILQ_FOREACH(it, m->list, next)
		if (it->prio >= prio)
			break;
	if (it != NULL)
		TAILQ_INSERT_BEFORE(it, m, next);
	else
		TAILQ_INSERT_TAIL(m->list, m, next);
	t->o.refcnt++;
	t->dom->net->nstats.steer_matchers++;
	emu_net_unlock();
	return m;
}

static void
emu_steer_matcher_free(struct emu_steer_matcher *m)
{
	TAILQ_REMOVE(m->list, m, next);
	m->tbl->dom->l34_matchers -= m->l34;
	m->tbl->o.refcnt--;
	m->tbl->dom->net->nstats.steer_matchers--;
	emu_steer_free(m);
}

int
emu_steer_matcher_destroy(void *p)
{
	struct emu_steer_matcher *m;

	emu_net_lock();
	m = emu_steer_find(p, EMU_STEER_MATCHER);
	if (m == NULL) {
		emu_net_unlock();
		return emu_ret_errno(ENOENT);
	}
	/* mlx5dv_dr_matcher_destroy(): refcount above 1, EBUSY. */
	if (m->o.refcnt != 0) {
		EMU_LOG(ERR, "steering: destroy matcher: %u rule(s) left",
			m->o.refcnt);
		emu_net_unlock();
		return emu_ret_errno(EBUSY);
	}
	emu_steer_matcher_free(m);
	emu_net_unlock();
	return 0;
}

void *
emu_steer_rule_create(void *p, const void *value, size_t n, void *acts[])
{
	uint8_t buf[EMU_STEER_PARAM_SZ];
	struct emu_steer_act *a[EMU_STEER_MAX_ACTS];
	const struct emu_steer_act *term;
	struct emu_steer_matcher *m;
	struct emu_steer_rule *r, *it;
	uint64_t v;
	size_t i;
	int ret;

	/* The model's own limit (DPDK's MLX5_DV_MAX_NUMBER_OF_ACTIONS is 8). */
	if (n > EMU_STEER_MAX_ACTS || (n != 0 && acts == NULL)) {
		EMU_LOG(ERR, "steering: rule with %zu actions (at most %u)", n,
			EMU_STEER_MAX_ACTS);
		return emu_steer_fail(EINVAL);
	}
	emu_net_lock();
	m = emu_steer_find(p, EMU_STEER_MATCHER);
	if (m == NULL) {
		ret = ENOENT;
		goto fail;
	}
	for (i = 0; i < n; i++) {
		a[i] = emu_steer_find(acts[i], EMU_STEER_ACT);
		/* The model's own limit (it cannot run another's). */
		if (a[i] == NULL) {
			EMU_LOG(ERR, "steering: rule: action %zu (%p) is not "
				"the model's", i, acts[i]);
			ret = EINVAL;
			goto fail;
		}
	}
	ret = emu_steer_rule_acts(m, a, n, &term);
	if (ret == 0)
		ret = emu_steer_params(value, m->criteria, buf, 1);
	if (ret != 0)
		goto fail;
	r = emu_steer_new(sizeof(*r), EMU_STEER_RULE);
	if (r == NULL) {
		ret = ENOMEM;
		goto fail;
	}
	/* No value bit outside the mask (dr_rule_verify). */
	for (i = 0; i < EMU_STEER_KEY_QW; i++) {
		unsigned int k;
		uint64_t msk = 0;

		memcpy(&v, buf + 8 * i, 8);
		for (k = 0; k < m->nqw; k++)
			if (m->qw_idx[k] == i)
				msk = m->qw_mask[k];
		if ((v & ~msk) != 0)
			break;
	}
	if (i < EMU_STEER_KEY_QW ||
	    !emu_bytes_zero(buf + 8 * EMU_STEER_KEY_QW,
			    EMU_STEER_PARAM_SZ - 8 * EMU_STEER_KEY_QW)) {
		EMU_LOG(ERR, "steering: rule value has bits outside the "
			"matcher's mask");
		emu_steer_free(r);
		ret = EINVAL;
		goto fail;
	}
	for (i = 0; i < m->nqw; i++)
		memcpy(&r->qw_val[i], buf + 8 * m->qw_idx[i], 8);
	TAILQ_FOREACH(it, &m->rules, next)
		if (memcmp(it->qw_val, r->qw_val, m->nqw * 8) == 0)
			break;
	/* dr_rule_handle_ste_branch(): "Duplicate rules are not
	 * supported" with DR_DOMAIN_FLAG_DISABLE_DUPLICATE_RULES, EEXIST.
	 */
	if (it != NULL && m->tbl->dom->no_dup) {
		EMU_LOG(ERR, "steering: duplicate rule refused "
			"(dr_allow_duplicate_rules 0)");
		emu_steer_free(r);
		ret = EEXIST;
		goto fail;
	}
	r->m = m;
	r->nact = (uint32_t)n;
	r->term = term;
	for (i = 0; i < n; i++) {
		r->act[i] = a[i];
		a[i]->o.refcnt++;
	}
	TAILQ_INSERT_TAIL(&m->rules, r, next);
	m->o.refcnt++;
	m->tbl->dom->net->nstats.steer_rules++;
	emu_net_unlock();
	return r;
fail:
	emu_net_unlock();
	return emu_steer_fail(ret);
}

static void
emu_steer_rule_free(struct emu_steer_rule *r)
{
	uint32_t i;

	for (i = 0; i < r->nact; i++)
		r->act[i]->o.refcnt--;
	TAILQ_REMOVE(&r->m->rules, r, next);
	r->m->o.refcnt--;
	r->m->tbl->dom->net->nstats.steer_rules--;
	emu_steer_free(r);
}

int
emu_steer_rule_destroy(void *p)
{
	struct emu_steer_rule *r;

	emu_net_lock();
	r = emu_steer_find(p, EMU_STEER_RULE);
	if (r != NULL)
		emu_steer_rule_free(r);
	emu_net_unlock();
	return r == NULL ? emu_ret_errno(ENOENT) : 0;
}

static void
emu_steer_free_list(struct emu_steer_matcher_list *l)
{
	struct emu_steer_matcher *m;

	while ((m = TAILQ_FIRST(l)) != NULL) {
		while (!TAILQ_EMPTY(&m->rules))
			emu_steer_rule_free(TAILQ_FIRST(&m->rules));
		emu_steer_matcher_free(m);
	}
}

void
emu_steer_release(struct emu_net *net)
{
	const struct mlx5_emu_net_stats *s = &net->nstats;
	struct emu_steer_obj *o, *tmp;
	struct emu_steer_dom *dom;
	struct emu_steer_tbl *t;

	if (TAILQ_EMPTY(&net->doms) && s->steer_actions == 0)
		return;
	EMU_LOG(WARNING, "%s: closed with steering objects left (domains %u "
		"tables %u matchers %u rules %u actions %u): freed",
		net->dev->name, s->steer_domains, s->steer_tables,
		s->steer_matchers, s->steer_rules, s->steer_actions);
	TAILQ_FOREACH(dom, &net->doms, next) {
		emu_steer_free_list(&dom->root);
		TAILQ_FOREACH(t, &dom->tbls, next)
			emu_steer_free_list(&t->matchers);
	}
	/* The device's actions, then its tables and domains. */
	for (o = TAILQ_FIRST(&emu_steer_reg); o != NULL; o = tmp) {
		tmp = TAILQ_NEXT(o, reg);
		if (o->kind == EMU_STEER_ACT &&
		    ((struct emu_steer_act *)o)->net == net)
			emu_steer_act_free((struct emu_steer_act *)o);
	}
	while ((dom = TAILQ_FIRST(&net->doms)) != NULL) {
		while ((t = TAILQ_FIRST(&dom->tbls)) != NULL)
			emu_steer_tbl_free(t);
		emu_steer_dom_free(dom);
	}
}
