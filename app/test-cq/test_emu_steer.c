/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_steer": NIC RX flow steering of the emulated HCA, driven
 * through mlx5_glue as DPDK 22.11's net/mlx5 drives it with
 * dv_flow_en=1 (mlx5dv_dr: domains, a level-0 root table, matchers with
 * an fte_match_param mask, rules with action lists), frames injected on
 * the emulated wire and read back from the RX CQ. Masks, values and
 * modify-header commands are written here from mlx5_prm.h
 * (fte_match_param, mlx5_modification_cmd) with MLX5_SET. Two TIRs tell
 * where a frame went: the fixture's RSS TIR (Toeplitz on TCP/IPv4: hash
 * type 0x44 and the first Microsoft vector's hash) and a direct TIR
 * (no hash: type 0).
 */

#include "test_emu_net_fixture.h"

#define CQE_FT_META 36 /* flow_table_metadata (struct mlx5_cqe). */
#define HT_RSS 0x44
#define HT_DIRECT 0x00
#define MS_HASH1 0x51ccc178 /* Microsoft vector 1, TCP/IPv4. */
#define CRIT(b) (1u << MLX5_MATCH_CRITERIA_ENABLE_ ## b ## _BIT)
/* mlx5dv_dr_domain_type (the glue's enum is opaque). */
#define DOM_NIC_RX 0
#define DOM_NIC_TX 1
#define DOM_FDB 2

/* DPDK's struct mlx5_flow_dv_match_params (mlx5_flow.h). */
struct mparam {
	size_t size;
	uint32_t buf[MLX5_ST_SZ_DW(fte_match_param)];
};

#define MP_SET(m, fld, v) MLX5_SET(fte_match_param, (m)->buf, fld, v)

struct steer {
	struct nport p;
	struct mlx5_devx_obj *tir_d; /* Direct TIR on the port's RQ. */
	void *rx, *tx, *root;
};

static const uint8_t mac_bc[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
static const uint8_t mac_mc[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 };

static void
mp_init(struct mparam *m)
{
	memset(m, 0, sizeof(*m));
	m->size = sizeof(m->buf);
}

static void
mp_dmac(struct mparam *m, const uint8_t *mac)
{
	MP_SET(m, outer_headers.dmac_47_16,
	       (uint32_t)mac[0] << 24 | mac[1] << 16 | mac[2] << 8 | mac[3]);
	MP_SET(m, outer_headers.dmac_15_0, (uint32_t)mac[4] << 8 | mac[5]);
}

static void *
matcher(struct steer *s, void *tbl, uint16_t prio, uint8_t crit,
	struct mparam *mask)
{
	struct mlx5dv_flow_matcher_attr a;

	memset(&a, 0, sizeof(a));
	a.type = IBV_FLOW_ATTR_NORMAL;
	a.priority = prio;
	a.match_criteria_enable = crit;
	a.match_mask = (struct mlx5dv_flow_match_parameters *)mask;
	return mlx5_glue->dv_create_flow_matcher(s->p.ctx, &a, tbl);
}

static void *
rule(void *m, struct mparam *v, void *a0, void *a1, void *a2)
{
	void *acts[3] = { a0, a1, a2 };
	size_t n = a2 != NULL ? 3 : a1 != NULL ? 2 : a0 != NULL ? 1 : 0;

	return mlx5_glue->dv_create_flow(m, v, n, acts);
}

/* One modify-header command (PRM mlx5_modification_cmd, big-endian). */
static uint64_t
mod_cmd(uint32_t type, uint32_t field, uint32_t off, uint32_t len,
	uint32_t data)
{
	uint32_t w[2] = { rte_cpu_to_be_32(type << 28 | field << 16 |
					   off << 8 | (len & 0x1f)),
			  rte_cpu_to_be_32(data) };
	uint64_t c;

	memcpy(&c, w, 8);
	return c;
}

static int
steer_open(struct steer *s, const char *name, const char *wire)
{
	struct mlx5_devx_tir_attr ta;
	int ret;

	memset(s, 0, sizeof(*s));
	ret = nport_open(&s->p, name, wire, mac_a, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	rq_post(&s->p, 30);
	memset(&ta, 0, sizeof(ta));
	ta.disp_type = MLX5_TIRC_DISP_TYPE_DIRECT;
	ta.inline_rqn = s->p.rq.rq->id;
	ta.transport_domain = s->p.td->id;
	s->tir_d = mlx5_devx_cmd_create_tir(s->p.ctx, &ta);
	TEST_ASSERT_NOT_NULL(s->tir_d, "direct TIR");
	/*
	 * The vport stays non-promiscuous: once the device has a NIC RX
	 * domain its rules alone filter, frames to other addresses included.
	 */
	/* As mlx5_alloc_shared_dr(): NIC RX, NIC TX, then the root. */
	s->rx = mlx5_glue->dr_create_domain(s->p.ctx, DOM_NIC_RX);
	s->tx = mlx5_glue->dr_create_domain(s->p.ctx, DOM_NIC_TX);
	TEST_ASSERT(s->rx != NULL && s->tx != NULL, "domains");
	s->root = mlx5_glue->dr_create_flow_tbl(s->rx, 0);
	TEST_ASSERT_NOT_NULL(s->root, "root table");
	return TEST_SUCCESS;
}

static int
steer_counts(struct steer *s, uint32_t doms, uint32_t tbls, uint32_t ms,
	     uint32_t rules, uint32_t acts, uint32_t plain)
{
	struct mlx5_emu_net_stats ns;

	TEST_ASSERT_SUCCESS(mlx5_emu_net_stats_get(s->p.ctx, &ns), "stats");
	TEST_ASSERT(ns.steer_domains == doms && ns.steer_tables == tbls &&
		    ns.steer_matchers == ms && ns.steer_rules == rules &&
		    ns.steer_actions == acts &&
		    ns.steer_plain_actions == plain,
		    "steering objects %u %u %u %u %u %u, want %u %u %u %u %u %u",
		    ns.steer_domains, ns.steer_tables, ns.steer_matchers,
		    ns.steer_rules, ns.steer_actions, ns.steer_plain_actions,
		    doms, tbls, ms, rules, acts, plain);
	return TEST_SUCCESS;
}

static int
steer_close(struct steer *s)
{
	TEST_ASSERT_SUCCESS(mlx5_glue->dr_destroy_flow_tbl(s->root), "root");
	TEST_ASSERT_SUCCESS(mlx5_glue->dr_destroy_domain(s->tx), "tx");
	TEST_ASSERT_SUCCESS(mlx5_glue->dr_destroy_domain(s->rx), "rx");
	if (steer_counts(s, 0, 0, 0, 0, 0, 0) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(s->tir_d), "direct TIR");
	return nport_close(&s->p);
}

/* Put a TCP/IPv4 frame (dport) to dst on the wire. */
static void
inject_tcp(const char *wire, const uint8_t *dst, uint16_t dport)
{
	uint8_t f[128];
	uint32_t len = frame_tcp4(f, dst, mac_b, 8, 0, 0);

	put16(f + 36, dport);
	mlx5_emu_wire_inject(wire, f, len);
}

/* The next RX CQE: its TIR (hash type), flow tag, metadata. */
static int
rx_one(struct steer *s, uint8_t htype, uint32_t tag, uint32_t meta)
{
	const uint8_t *c = cqe_next(&s->p.rcq, &s->p.rcq_ci);
	uint32_t hash = htype == HT_RSS ? MS_HASH1 : 0u;
	uint32_t got;

	TEST_ASSERT_NOT_NULL(c, "an RX CQE");
	TEST_ASSERT_EQUAL(c[CQE_HASH_TYPE], htype, "hash type 0x%x",
			  c[CQE_HASH_TYPE]);
	TEST_ASSERT_EQUAL(rd32(c + CQE_HASH_RES), hash, "hash 0x%x",
			  rd32(c + CQE_HASH_RES));
	got = rd32(c + CQE_QPN) & 0xffffff;
	TEST_ASSERT_EQUAL(got, tag, "flow tag 0x%x", rd32(c + CQE_QPN));
	TEST_ASSERT_EQUAL(rd32(c + CQE_FT_META), meta, "metadata 0x%x",
			  rd32(c + CQE_FT_META));
	return TEST_SUCCESS;
}

static int
rx_none(struct steer *s, uint64_t drops, uint64_t missed)
{
	struct mlx5_emu_port_stats ps;

	TEST_ASSERT_NULL(cqe_next(&s->p.rcq, &s->p.rcq_ci), "no RX CQE");
	TEST_ASSERT_SUCCESS(mlx5_emu_port_stats_get(s->p.ctx, &ps), "ps");
	TEST_ASSERT(ps.rx_steer_drops == drops &&
		    ps.rx_steer_missed == missed,
		    "drops %" PRIu64 " missed %" PRIu64 ", want %" PRIu64
		    " %" PRIu64, ps.rx_steer_drops, ps.rx_steer_missed,
		    drops, missed);
	return TEST_SUCCESS;
}

/*
 * The root as net/mlx5 fills it for a started port: a unicast-dmac rule,
 * broadcast and all-multicast rules, a promiscuous match-all rule at a
 * lower priority; matchers by priority, equal priorities newest first.
 */
static int
test_steer_root(void)
{
	static const char *w = "esteer_root";
	void *m_uc, *m_mc, *m_bc, *m_all, *m_all2;
	void *r_uc, *r_mc, *r_bc, *r_all;
	void *td, *tr, *t11, *t22, *t33, *t44;
	struct mparam mk, v;
	struct steer s;
	int ret;

	ret = steer_open(&s, "esteer_root", w);
	if (ret != TEST_SUCCESS)
		return ret;
	/* A NIC RX domain without rules: everything is the kernel's. */
	inject_tcp(w, mac_a, 1766);
	TEST_ASSERT_SUCCESS(rx_none(&s, 0, 1), "no frame");
	td = mlx5_glue->dv_create_flow_action_dest_devx_tir(s.tir_d->obj);
	tr = mlx5_glue->dv_create_flow_action_dest_devx_tir(s.p.tir->obj);
	t11 = mlx5_glue->dv_create_flow_action_tag(0x11);
	t22 = mlx5_glue->dv_create_flow_action_tag(0x22);
	t33 = mlx5_glue->dv_create_flow_action_tag(0x33);
	/* Tags keep 24 bits (mlx5dv_dr_action_create_tag). */
	t44 = mlx5_glue->dv_create_flow_action_tag(0x7f000044);
	TEST_ASSERT(td && tr && t11 && t22 && t33 && t44, "actions");
	mp_init(&mk);
	mp_dmac(&mk, mac_bc);
	m_uc = matcher(&s, s.root, 1, CRIT(OUTER), &mk);
	m_bc = matcher(&s, s.root, 0, CRIT(OUTER), &mk);
	mp_init(&mk);
	MP_SET(&mk, outer_headers.dmac_47_16, 0x01000000);
	m_mc = matcher(&s, s.root, 1, CRIT(OUTER), &mk);
	m_all = matcher(&s, s.root, 2, 0, NULL);
	TEST_ASSERT(m_uc && m_bc && m_mc && m_all, "matchers");
	mp_init(&v);
	mp_dmac(&v, mac_a);
	r_uc = rule(m_uc, &v, t11, td, NULL);
	mp_init(&v);
	mp_dmac(&v, mac_bc);
	r_bc = rule(m_bc, &v, t44, td, NULL);
	mp_init(&v);
	MP_SET(&v, outer_headers.dmac_47_16, 0x01000000);
	r_mc = rule(m_mc, &v, t33, tr, NULL);
	v.size = 0; /* No value: matches all. */
	r_all = rule(m_all, &v, t22, tr, NULL);
	TEST_ASSERT(r_uc && r_bc && r_mc && r_all, "rules");
	if (steer_counts(&s, 2, 1, 4, 4, 2, 4) != TEST_SUCCESS)
		return TEST_FAILED;
	inject_tcp(w, mac_a, 1766);
	TEST_ASSERT_SUCCESS(rx_one(&s, HT_DIRECT, 0x11, 0), "frame");
	inject_tcp(w, mac_bc, 1766);
	TEST_ASSERT_SUCCESS(rx_one(&s, HT_DIRECT, 0x000044, 0), "frame");
	inject_tcp(w, mac_mc, 1766);
	TEST_ASSERT_SUCCESS(rx_one(&s, HT_RSS, 0x33, 0), "frame");
	inject_tcp(w, mac_c, 1766);
	TEST_ASSERT_SUCCESS(rx_one(&s, HT_RSS, 0x22, 0), "frame");
	/* Without the promiscuous rule another unicast MAC misses. */
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow(r_all), "rule");
	inject_tcp(w, mac_c, 1766);
	TEST_ASSERT_SUCCESS(rx_none(&s, 0, 2), "no frame");
	/*
	 * A match-all matcher of priority 1 made now goes before the older
	 * ones of its priority (dr_matcher_add_to_tbl): it takes the
	 * unicast frame; broadcast stays with priority 0.
	 */
	m_all2 = matcher(&s, s.root, 1, 0, NULL);
	TEST_ASSERT_NOT_NULL(m_all2, "matcher");
	r_all = rule(m_all2, &v, t22, tr, NULL);
	TEST_ASSERT_NOT_NULL(r_all, "rule");
	inject_tcp(w, mac_a, 1766);
	TEST_ASSERT_SUCCESS(rx_one(&s, HT_RSS, 0x22, 0), "frame");
	inject_tcp(w, mac_bc, 1766);
	TEST_ASSERT_SUCCESS(rx_one(&s, HT_DIRECT, 0x000044, 0), "frame");
	/* Busy objects: a matcher with rules, actions in rules. */
	TEST_ASSERT_EQUAL(mlx5_glue->dv_destroy_flow_matcher(m_all2), EBUSY,
			  "matcher with a rule");
	TEST_ASSERT_EQUAL(mlx5_glue->destroy_flow_action(t22), EBUSY,
			  "tag in a rule");
	TEST_ASSERT_EQUAL(mlx5_glue->dr_destroy_flow_tbl(s.root), EBUSY,
			  "table with matchers");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow(r_all), "rule");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow_matcher(m_all2), "m");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow(r_uc), "rule");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow(r_bc), "rule");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow(r_mc), "rule");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow_matcher(m_uc), "m");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow_matcher(m_bc), "m");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow_matcher(m_mc), "m");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow_matcher(m_all), "m");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(td), "a");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(tr), "a");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(t11), "a");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(t22), "a");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(t33), "a");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(t44), "a");
	return steer_close(&s);
}

/*
 * The key's L3/L4 fields are read only while a matcher of the domain masks
 * them: an L2-only root delivers by dmac; a TCP-port drop matcher added
 * later at a better priority takes the frames of its port at once, and
 * after it is gone they are delivered again.
 */
static int
test_steer_l34_key(void)
{
	static const char *w = "esteer_l34";
	void *m_uc, *m_port, *r_uc, *r_port, *td, *drop;
	struct mparam mk, v;
	struct steer s;
	int ret;

	ret = steer_open(&s, "esteer_l34", w);
	if (ret != TEST_SUCCESS)
		return ret;
	td = mlx5_glue->dv_create_flow_action_dest_devx_tir(s.tir_d->obj);
	drop = mlx5_glue->dr_create_flow_action_drop();
	TEST_ASSERT(td != NULL && drop != NULL, "actions");
	mp_init(&mk);
	mp_dmac(&mk, mac_bc);
	m_uc = matcher(&s, s.root, 1, CRIT(OUTER), &mk);
	mp_init(&v);
	mp_dmac(&v, mac_a);
	r_uc = m_uc != NULL ? rule(m_uc, &v, td, NULL, NULL) : NULL;
	TEST_ASSERT_NOT_NULL(r_uc, "L2 rule");
	inject_tcp(w, mac_a, 80);
	TEST_ASSERT_SUCCESS(rx_one(&s, HT_DIRECT, 0, 0), "L2 only");
	mp_init(&mk);
	MP_SET(&mk, outer_headers.ip_protocol, 0xff);
	MP_SET(&mk, outer_headers.tcp_dport, 0xffff);
	m_port = matcher(&s, s.root, 0, CRIT(OUTER), &mk);
	mp_init(&v);
	MP_SET(&v, outer_headers.ip_protocol, 6);
	MP_SET(&v, outer_headers.tcp_dport, 80);
	r_port = m_port != NULL ? rule(m_port, &v, drop, NULL, NULL) : NULL;
	TEST_ASSERT_NOT_NULL(r_port, "L4 rule");
	inject_tcp(w, mac_a, 80);
	TEST_ASSERT_SUCCESS(rx_none(&s, 1, 0), "port 80 dropped");
	inject_tcp(w, mac_a, 81);
	TEST_ASSERT_SUCCESS(rx_one(&s, HT_DIRECT, 0, 0), "port 81");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow(r_port), "rule");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow_matcher(m_port), "m");
	inject_tcp(w, mac_a, 80);
	TEST_ASSERT_SUCCESS(rx_one(&s, HT_DIRECT, 0, 0), "port 80 again");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow(r_uc), "rule");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow_matcher(m_uc), "m");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(td), "a");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(drop), "a");
	return steer_close(&s);
}

/*
 * A non-root table reached by a jump: the root rule on TCP/IPv4 sets
 * reg_c_1 and reg_b, copies half of reg_c_1 into reg_b (modify header)
 * and jumps to level 1, where a rule
 * on reg_c_1 and the TCP port tags and delivers (reg_b is the CQE's
 * metadata). A miss in table 1 drops (nic_rx_drop_address), a miss of
 * the root is the kernel's; drop and default-miss actions.
 */
static int
test_steer_jump(void)
{
	static const char *w = "esteer_jump";
	void *t1, *jmp, *mod, *tag, *tr, *drop, *miss, *m0, *m1, *m2, *m3, *m4;
	void *r0, *r1, *r2, *r3, *r4;
	uint64_t cmds[3];
	struct mparam mk, v;
	struct steer s;
	uint8_t f[128];
	uint32_t len;
	int ret;

	ret = steer_open(&s, "esteer_jump", w);
	if (ret != TEST_SUCCESS)
		return ret;
	t1 = mlx5_glue->dr_create_flow_tbl(s.rx, 1);
	TEST_ASSERT_NOT_NULL(t1, "table 1");
	jmp = mlx5_glue->dr_create_flow_action_dest_flow_tbl(t1);
	cmds[0] = mod_cmd(MLX5_MODIFICATION_TYPE_SET, MLX5_MODI_META_REG_C_1,
			  0, 0, 0xabc);
	cmds[1] = mod_cmd(MLX5_MODIFICATION_TYPE_SET,
			  MLX5_MODI_META_DATA_REG_B, 0, 16, 0x5566);
	/* COPY reg_c_1 bits 0..15 to reg_b bits 16..31: the second word
	 * is dst_field << 16 | dst_offset << 8 (mlx5_modification_cmd).
	 */
	cmds[2] = mod_cmd(MLX5_MODIFICATION_TYPE_COPY, MLX5_MODI_META_REG_C_1,
			  0, 16, MLX5_MODI_META_DATA_REG_B << 16 | 16 << 8);
	/* For a root rule: MLX5DV_DR_ACTION_FLAGS_ROOT_LEVEL, as
	 * flow_dv_modify_hdr_resource_register() asks for group 0.
	 */
	mod = mlx5_glue->dv_create_flow_action_modify_header(s.p.ctx, 0, s.rx,
		MLX5DV_DR_ACTION_FLAGS_ROOT_LEVEL, sizeof(cmds), cmds);
	tag = mlx5_glue->dv_create_flow_action_tag(0x77);
	tr = mlx5_glue->dv_create_flow_action_dest_devx_tir(s.p.tir->obj);
	drop = mlx5_glue->dr_create_flow_action_drop();
	miss = mlx5_glue->dr_create_flow_action_default_miss();
	TEST_ASSERT(jmp && mod && tag && tr && drop && miss, "actions");
	/* Root: TCP/IPv4 -> modify, jump; IPv6 -> drop; else default miss. */
	mp_init(&mk);
	MP_SET(&mk, outer_headers.ethertype, 0xffff);
	MP_SET(&mk, outer_headers.ip_protocol, 0xff);
	m0 = matcher(&s, s.root, 0, CRIT(OUTER), &mk);
	mp_init(&v);
	MP_SET(&v, outer_headers.ethertype, 0x0800);
	MP_SET(&v, outer_headers.ip_protocol, 6);
	r0 = rule(m0, &v, mod, jmp, NULL);
	mp_init(&mk);
	MP_SET(&mk, outer_headers.ip_version, 0xf);
	m1 = matcher(&s, s.root, 1, CRIT(OUTER), &mk);
	mp_init(&v);
	MP_SET(&v, outer_headers.ip_version, 6);
	r1 = rule(m1, &v, drop, NULL, NULL);
	/* Table 1: reg_c_1 and the TCP destination port. */
	mp_init(&mk);
	MP_SET(&mk, misc_parameters_2.metadata_reg_c_1, 0xffffffff);
	MP_SET(&mk, outer_headers.tcp_dport, 0xffff);
	m2 = matcher(&s, t1, 0, CRIT(OUTER) | CRIT(MISC2), &mk);
	mp_init(&v);
	MP_SET(&v, misc_parameters_2.metadata_reg_c_1, 0xabc);
	MP_SET(&v, outer_headers.tcp_dport, 1766);
	r2 = rule(m2, &v, tag, tr, NULL);
	TEST_ASSERT(m0 && m1 && m2 && r0 && r1 && r2, "rules");
	inject_tcp(w, mac_a, 1766);
	TEST_ASSERT_SUCCESS(rx_one(&s, HT_RSS, 0x77, 0x0abc5566), "jumped");
	inject_tcp(w, mac_a, 80);
	TEST_ASSERT_SUCCESS(rx_none(&s, 1, 0), "table 1 miss: drop");
	len = frame_udp6(f, mac_a, mac_b, 8);
	mlx5_emu_wire_inject(w, f, len);
	TEST_ASSERT_SUCCESS(rx_none(&s, 2, 0), "IPv6: drop action");
	f[12] = 0x08;
	f[13] = 0x06; /* Not IP: no root rule. */
	mlx5_emu_wire_inject(w, f, 60);
	TEST_ASSERT_SUCCESS(rx_none(&s, 2, 1), "root miss: kernel");
	/* Default miss: the kernel at the root, a drop in table 1. */
	m3 = matcher(&s, s.root, 2, 0, NULL);
	v.size = 0;
	r3 = rule(m3, &v, miss, NULL, NULL);
	m4 = matcher(&s, t1, 1, 0, NULL);
	r4 = rule(m4, &v, tag, miss, NULL);
	TEST_ASSERT(m3 && r3 && m4 && r4, "default-miss rules");
	mlx5_emu_wire_inject(w, f, 60);
	TEST_ASSERT_SUCCESS(rx_none(&s, 2, 2), "root default miss");
	inject_tcp(w, mac_a, 80);
	TEST_ASSERT_SUCCESS(rx_none(&s, 3, 2), "table 1 default miss");
	/* Destroy order (rdma-core refcounts): all busy while used. */
	TEST_ASSERT_EQUAL(mlx5_glue->dr_destroy_flow_tbl(t1), EBUSY, "t1");
	TEST_ASSERT_EQUAL(mlx5_glue->dr_destroy_domain(s.rx), EBUSY, "rx");
	TEST_ASSERT_EQUAL(mlx5_glue->destroy_flow_action(jmp), EBUSY, "jmp");
	TEST_ASSERT_EQUAL(mlx5_glue->destroy_flow_action(mod), EBUSY, "mod");
	/* The object itself (mlx5_devx_cmd_destroy() frees its wrapper
	 * even when the destroy fails).
	 */
	TEST_ASSERT_EQUAL(mlx5_glue->devx_obj_destroy(s.p.tir->obj), EBUSY,
			  "a TIR a steering action sends to");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow(r0), "r0");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow(r1), "r1");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow(r2), "r2");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow(r3), "r3");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow(r4), "r4");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow_matcher(m2), "m2");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow_matcher(m4), "m4");
	/* The jump action still holds table 1. */
	TEST_ASSERT_EQUAL(mlx5_glue->dr_destroy_flow_tbl(t1), EBUSY, "t1");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(jmp), "jmp");
	TEST_ASSERT_SUCCESS(mlx5_glue->dr_destroy_flow_tbl(t1), "t1");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow_matcher(m0), "m0");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow_matcher(m1), "m1");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow_matcher(m3), "m3");
	if (steer_counts(&s, 2, 1, 0, 0, 2, 3) != TEST_SUCCESS)
		return TEST_FAILED;
	/* The modify header holds the domain (dr_action refcount). */
	TEST_ASSERT_SUCCESS(mlx5_glue->dr_destroy_flow_tbl(s.root), "root");
	TEST_ASSERT_EQUAL(mlx5_glue->dr_destroy_domain(s.rx), EBUSY, "rx");
	s.root = mlx5_glue->dr_create_flow_tbl(s.rx, 0);
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(mod), "mod");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(tag), "tag");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(tr), "tr");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(drop), "drop");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(miss), "miss");
	return steer_close(&s);
}

/*
 * Equal rules in one matcher: refused (EEXIST) after
 * dr_allow_duplicate_rules(dom, 0), accepted after (dom, 1), the older
 * one taking the frames until it goes.
 */
static int
test_steer_duplicates(void)
{
	static const char *w = "esteer_dup";
	void *m, *r1, *r2, *t1, *t2, *td, *tr;
	struct mparam mk, v;
	struct steer s;
	int ret;

	ret = steer_open(&s, "esteer_dup", w);
	if (ret != TEST_SUCCESS)
		return ret;
	t1 = mlx5_glue->dv_create_flow_action_tag(1);
	t2 = mlx5_glue->dv_create_flow_action_tag(2);
	td = mlx5_glue->dv_create_flow_action_dest_devx_tir(s.tir_d->obj);
	tr = mlx5_glue->dv_create_flow_action_dest_devx_tir(s.p.tir->obj);
	mp_init(&mk);
	mp_dmac(&mk, mac_bc);
	m = matcher(&s, s.root, 0, CRIT(OUTER), &mk);
	mp_init(&v);
	mp_dmac(&v, mac_a);
	r1 = rule(m, &v, t1, td, NULL);
	TEST_ASSERT(t1 && t2 && td && tr && m && r1, "objects");
	mlx5_glue->dr_allow_duplicate_rules(s.rx, 0);
	errno = 0;
	TEST_ASSERT_NULL(rule(m, &v, t2, tr, NULL), "duplicate refused");
	TEST_ASSERT_EQUAL(errno, EEXIST, "EEXIST");
	mlx5_glue->dr_allow_duplicate_rules(s.rx, 1);
	r2 = rule(m, &v, t2, tr, NULL);
	TEST_ASSERT_NOT_NULL(r2, "duplicate allowed");
	inject_tcp(w, mac_a, 1766);
	TEST_ASSERT_SUCCESS(rx_one(&s, HT_DIRECT, 1, 0), "the older rule");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow(r1), "r1");
	inject_tcp(w, mac_a, 1766);
	TEST_ASSERT_SUCCESS(rx_one(&s, HT_RSS, 2, 0), "then the newer");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow(r2), "r2");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow_matcher(m), "m");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(t1), "t1");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(t2), "t2");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(td), "td");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(tr), "tr");
	return steer_close(&s);
}

/* Pop VLAN on a rule of VLAN 5 in table 1: the frame reaches the RQ
 * untagged.
 */
static int
test_steer_pop_vlan(void)
{
	static const char *w = "esteer_vlan";
	uint8_t f[160], t[160];
	void *m, *r, *pop, *td, *t1, *jmp, *m0, *r0;
	struct mparam mk, v;
	const uint8_t *c;
	struct steer s;
	uint32_t len;
	int ret;

	ret = steer_open(&s, "esteer_vlan", w);
	if (ret != TEST_SUCCESS)
		return ret;
	pop = mlx5_glue->dr_create_flow_action_pop_vlan();
	td = mlx5_glue->dv_create_flow_action_dest_devx_tir(s.tir_d->obj);
	/* Pop VLAN below the root (dr_actions_build_attr() has none). */
	t1 = mlx5_glue->dr_create_flow_tbl(s.rx, 1);
	jmp = mlx5_glue->dr_create_flow_action_dest_flow_tbl(t1);
	m0 = matcher(&s, s.root, 0, 0, NULL);
	mp_init(&v);
	v.size = 0;
	r0 = rule(m0, &v, jmp, NULL, NULL);
	TEST_ASSERT(t1 && jmp && m0 && r0, "root jump");
	mp_init(&mk);
	MP_SET(&mk, outer_headers.cvlan_tag, 1);
	MP_SET(&mk, outer_headers.first_vid, 0xfff);
	MP_SET(&mk, outer_headers.ethertype, 0xffff);
	m = matcher(&s, t1, 0, CRIT(OUTER), &mk);
	mp_init(&v);
	MP_SET(&v, outer_headers.cvlan_tag, 1);
	MP_SET(&v, outer_headers.first_vid, 5);
	MP_SET(&v, outer_headers.ethertype, 0x0800); /* After the tag. */
	r = rule(m, &v, pop, td, NULL);
	TEST_ASSERT(pop && td && m && r, "objects");
	len = frame_tcp4(f, mac_a, mac_b, 8, 0, 0);
	memcpy(t, f, 12);
	put16(t + 12, 0x8100);
	put16(t + 14, 0x2005); /* PCP 1, VID 5 */
	memcpy(t + 16, f + 12, len - 12);
	mlx5_emu_wire_inject(w, t, len + 4);
	c = cqe_next(&s.p.rcq, &s.p.rcq_ci);
	TEST_ASSERT_NOT_NULL(c, "RX CQE");
	TEST_ASSERT_EQUAL(rd32(c + CQE_BYTE_CNT), len, "tag popped");
	TEST_ASSERT_EQUAL(rd16(c + CQE_VLAN), 0, "no VLAN stripped by the RQ");
	TEST_ASSERT_SUCCESS(memcmp(s.p.data + BUF_SZ * ((s.p.rcq_ci - 1) %
			    (1u << LOG_RQ)), f, len), "the untagged frame");
	put16(t + 14, 0x2006); /* VID 6: no rule; table 1's miss drops. */
	mlx5_emu_wire_inject(w, t, len + 4);
	TEST_ASSERT_SUCCESS(rx_none(&s, 1, 0), "VID 6 dropped");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow(r), "r");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow_matcher(m), "m");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow(r0), "r0");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow_matcher(m0), "m0");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(jmp), "jmp");
	TEST_ASSERT_SUCCESS(mlx5_glue->dr_destroy_flow_tbl(t1), "t1");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(pop), "pop");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(td), "td");
	return steer_close(&s);
}

/*
 * Header rewrite (modify header on a root rule): the destination MAC set
 * (its two fields, as DPDK's modify_eth[] cuts it), the TTL decremented
 * (ADD 0xff on 8 bits) with the IPv4 header checksum kept right; then a
 * device whose NIC RX domains are all gone leaves frames to the kernel.
 */
static int
test_steer_rewrite(void)
{
	static const char *w = "esteer_mod";
	uint8_t f[128], *got;
	uint64_t cmds[3];
	void *m, *r, *mod, *td;
	struct mparam v;
	const uint8_t *c;
	struct steer s;
	uint32_t len, sum;
	int ret;

	ret = steer_open(&s, "esteer_mod", w);
	if (ret != TEST_SUCCESS)
		return ret;
	cmds[0] = mod_cmd(MLX5_MODIFICATION_TYPE_SET,
			  MLX5_MODI_OUT_DMAC_47_16, 0, 0,
			  (uint32_t)mac_c[0] << 24 | mac_c[1] << 16 |
			  mac_c[2] << 8 | mac_c[3]);
	cmds[1] = mod_cmd(MLX5_MODIFICATION_TYPE_SET, MLX5_MODI_OUT_DMAC_15_0,
			  0, 16, (uint32_t)mac_c[4] << 8 | mac_c[5]);
	cmds[2] = mod_cmd(MLX5_MODIFICATION_TYPE_ADD, MLX5_MODI_OUT_IPV4_TTL,
			  0, 8, 0xff);
	mod = mlx5_glue->dv_create_flow_action_modify_header(s.p.ctx, 0, s.rx,
		MLX5DV_DR_ACTION_FLAGS_ROOT_LEVEL, sizeof(cmds), cmds);
	td = mlx5_glue->dv_create_flow_action_dest_devx_tir(s.tir_d->obj);
	m = matcher(&s, s.root, 0, 0, NULL);
	mp_init(&v);
	v.size = 0;
	r = rule(m, &v, mod, td, NULL);
	TEST_ASSERT(mod && td && m && r, "objects");
	len = frame_tcp4(f, mac_a, mac_b, 8, 0, 0);
	mlx5_emu_wire_inject(w, f, len);
	c = cqe_next(&s.p.rcq, &s.p.rcq_ci);
	TEST_ASSERT_NOT_NULL(c, "RX CQE");
	TEST_ASSERT((rd16(c + CQE_HDR_TYPE) & 0x200) != 0,
		    "L3_OK: the IPv4 checksum follows the TTL");
	got = s.p.data + BUF_SZ * ((s.p.rcq_ci - 1) % (1u << LOG_RQ));
	TEST_ASSERT_SUCCESS(memcmp(got, mac_c, 6), "dmac rewritten");
	TEST_ASSERT_EQUAL(got[14 + 8], 63, "TTL 64 - 1");
	TEST_ASSERT_SUCCESS(memcmp(got + 6, f + 6, 16), "the rest kept");
	TEST_ASSERT_SUCCESS(memcmp(got + 26, f + 26, len - 26), "the rest");
	sum = csum_sum(0, got + 14, 20);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	TEST_ASSERT_EQUAL(sum, 0xffffu, "IPv4 header sums to 0xffff");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow(r), "r");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow_matcher(m), "m");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(mod), "mod");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(td), "td");
	/* No NIC RX domain left: the kernel's, not the first TIR. */
	TEST_ASSERT_SUCCESS(mlx5_glue->dr_destroy_flow_tbl(s.root), "root");
	TEST_ASSERT_SUCCESS(mlx5_glue->dr_destroy_domain(s.rx), "rx");
	mlx5_emu_wire_inject(w, f, len);
	TEST_ASSERT_SUCCESS(rx_none(&s, 0, 1), "domain gone: missed");
	s.rx = mlx5_glue->dr_create_domain(s.p.ctx, DOM_NIC_RX);
	s.root = mlx5_glue->dr_create_flow_tbl(s.rx, 0);
	TEST_ASSERT(s.rx != NULL && s.root != NULL, "again");
	return steer_close(&s);
}

/*
 * misc source_port: the uplink (0xffff) for a frame of the wire, the
 * device's own vport (0) for what it sent itself (a lone port loops
 * back).
 */
static int
test_steer_source_port(void)
{
	static const char *w = "esteer_sport";
	void *m, *r0, *r1, *t5, *t6, *td;
	struct mparam mk, v;
	struct steer s;
	uint8_t f[128];
	uint32_t len;
	int ret;

	ret = steer_open(&s, "esteer_sport", w);
	if (ret != TEST_SUCCESS)
		return ret;
	t5 = mlx5_glue->dv_create_flow_action_tag(5);
	t6 = mlx5_glue->dv_create_flow_action_tag(6);
	td = mlx5_glue->dv_create_flow_action_dest_devx_tir(s.tir_d->obj);
	mp_init(&mk);
	MP_SET(&mk, misc_parameters.source_port, 0xffff);
	m = matcher(&s, s.root, 0, CRIT(MISC), &mk);
	mp_init(&v);
	r0 = rule(m, &v, t5, td, NULL);
	MP_SET(&v, misc_parameters.source_port, 0xffff);
	r1 = rule(m, &v, t6, td, NULL);
	TEST_ASSERT(t5 && t6 && td && m && r0 && r1, "objects");
	inject_tcp(w, mac_a, 1766);
	TEST_ASSERT_SUCCESS(rx_one(&s, HT_DIRECT, 6, 0), "from the wire");
	len = frame_tcp4(f, mac_a, mac_a, 8, 0, 0);
	send_frame(&s.p, f, len, 0);
	mlx5_emu_net_progress();
	TEST_ASSERT_SUCCESS(rx_one(&s, HT_DIRECT, 5, 0), "its own frame");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow(r0), "r0");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow(r1), "r1");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow_matcher(m), "m");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(t5), "t5");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(t6), "t6");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(td), "td");
	return steer_close(&s);
}

/* errno of a NULL result, or -1 when it was not NULL. */
static int
null_errno(void *p)
{
	return p == NULL ? errno : -1;
}

/*
 * Bad input: a log line, an errno, nothing left behind. The errnos are
 * rdma-core's (dr_domain.c, dr_matcher.c, dr_rule.c, dr_action.c) and the
 * model's for what it does not model (EOPNOTSUPP).
 */
static int
test_steer_refused(void)
{
	static const char *w = "esteer_bad";
	void *m, *m_d, *t1, *drop, *tag, *td, *tx_m, *acts[2];
	uint64_t cmd;
	struct mparam mk, v;
	struct steer s;
	int ret, foreign;

	ret = steer_open(&s, "esteer_bad", w);
	if (ret != TEST_SUCCESS)
		return ret;
	TEST_ASSERT_EQUAL(null_errno(mlx5_glue->dr_create_domain(s.p.ctx,
			  DOM_FDB)), EOPNOTSUPP, "FDB: no E-Switch");
	TEST_ASSERT_EQUAL(null_errno(mlx5_glue->dr_create_domain(s.p.ctx,
			  7)), EINVAL, "domain type 7");
	TEST_ASSERT_EQUAL(mlx5_glue->dr_sync_domain(s.rx, 8), EOPNOTSUPP,
			  "sync flag 8");
	TEST_ASSERT_SUCCESS(mlx5_glue->dr_sync_domain(s.rx, 1), "sync SW");
	t1 = mlx5_glue->dr_create_flow_tbl(s.rx, 1);
	TEST_ASSERT_NOT_NULL(t1, "table 1");
	/* Matchers: criteria, size, what the model does not match. */
	mp_init(&mk);
	TEST_ASSERT_EQUAL(null_errno(matcher(&s, t1, 0, 0x80, &mk)), EINVAL,
			  "criteria 0x80");
	mk.size = sizeof(mk.buf) + 4;
	TEST_ASSERT_EQUAL(null_errno(matcher(&s, t1, 0, CRIT(OUTER), &mk)),
			  EINVAL, "mask longer than fte_match_param");
	mp_init(&mk);
	MP_SET(&mk, inner_headers.ip_protocol, 0xff);
	TEST_ASSERT_EQUAL(null_errno(matcher(&s, t1, 0, CRIT(INNER), &mk)),
			  EOPNOTSUPP, "inner headers");
	/* Ignored when the section is not enabled (dr_ste_copy_param). */
	MP_SET(&mk, outer_headers.ethertype, 0xffff);
	m = matcher(&s, t1, 0, CRIT(OUTER), &mk);
	TEST_ASSERT_NOT_NULL(m, "inner mask, inner not enabled");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow_matcher(m), "m");
	/* DPDK's misc5 probe (__mlx5_discovery_misc5_cap): not modelled. */
	mp_init(&mk);
	MP_SET(&mk, outer_headers.ip_protocol, 0xff);
	MP_SET(&mk, outer_headers.ip_version, 4);
	MP_SET(&mk, outer_headers.udp_dport, 0xffff);
	MP_SET(&mk, misc_parameters_5.tunnel_header_1, 0xffffff);
	TEST_ASSERT_EQUAL(null_errno(matcher(&s, t1, 3,
			  CRIT(OUTER) | CRIT(MISC5), &mk)), EOPNOTSUPP,
			  "misc5");
	mp_init(&mk);
	MP_SET(&mk, outer_headers.l4_ok, 1);
	TEST_ASSERT_EQUAL(null_errno(matcher(&s, t1, 0, CRIT(OUTER), &mk)),
			  EOPNOTSUPP, "l4_ok");
	mp_init(&mk);
	MP_SET(&mk, misc_parameters.vxlan_vni, 0xffffff);
	TEST_ASSERT_EQUAL(null_errno(matcher(&s, t1, 0, CRIT(MISC), &mk)),
			  EOPNOTSUPP, "vxlan_vni");
	TEST_ASSERT_EQUAL(null_errno(mlx5_glue->dv_create_flow_matcher_root(
			  s.p.ctx, NULL)), EOPNOTSUPP, "verbs root matcher");
	/* Rules: value outside the mask, size, actions. */
	mp_init(&mk);
	mp_dmac(&mk, mac_bc);
	m_d = matcher(&s, t1, 0, CRIT(OUTER), &mk);
	TEST_ASSERT_NOT_NULL(m_d, "dmac matcher");
	m = m_d;
	drop = mlx5_glue->dr_create_flow_action_drop();
	tag = mlx5_glue->dv_create_flow_action_tag(3);
	td = mlx5_glue->dv_create_flow_action_dest_devx_tir(s.tir_d->obj);
	TEST_ASSERT(drop && tag && td, "actions");
	mp_init(&v);
	MP_SET(&v, outer_headers.ethertype, 0x0800);
	TEST_ASSERT_EQUAL(null_errno(rule(m, &v, drop, NULL, NULL)), EINVAL,
			  "value outside the mask");
	mp_init(&v);
	v.size = 6;
	TEST_ASSERT_EQUAL(null_errno(rule(m, &v, drop, NULL, NULL)), EINVAL,
			  "value of 6 bytes");
	mp_init(&v);
	mp_dmac(&v, mac_a);
	TEST_ASSERT_EQUAL(null_errno(rule(m, &v, drop, td, NULL)),
			  EOPNOTSUPP, "two terminal actions");
	TEST_ASSERT_EQUAL(null_errno(rule(m, &v, tag, tag, td)), EINVAL,
			  "tag twice");
	acts[0] = &foreign;
	acts[1] = td;
	TEST_ASSERT_EQUAL(null_errno(mlx5_glue->dv_create_flow(m, &v, 2,
			  acts)), EINVAL, "an action not the model's");
	/* Actions refused at creation. */
	TEST_ASSERT_EQUAL(null_errno(
		mlx5_glue->dr_create_flow_action_dest_flow_tbl(s.root)),
		EINVAL, "the root as a destination");
	TEST_ASSERT_EQUAL(null_errno(
		mlx5_glue->dv_create_flow_action_dest_devx_tir(s.p.rqt->obj)),
		EINVAL, "an RQT as a TIR");
	TEST_ASSERT_EQUAL(null_errno(
		mlx5_glue->dv_create_flow_action_counter(s.p.tir->obj, 0)),
		EINVAL, "no flow counter object");
	cmd = mod_cmd(MLX5_MODIFICATION_TYPE_SET, MLX5_MODI_OUT_SIPV4, 0,
		      0, 1);
	TEST_ASSERT_EQUAL(null_errno(
		mlx5_glue->dv_create_flow_action_modify_header(s.p.ctx, 0,
			s.rx, 0, 8, &cmd)), EOPNOTSUPP, "set the IPv4 source");
	cmd = mod_cmd(MLX5_MODIFICATION_TYPE_SET, MLX5_MODI_OUT_DMAC_15_0, 0,
		      0, 1);
	TEST_ASSERT_EQUAL(null_errno(
		mlx5_glue->dv_create_flow_action_modify_header(s.p.ctx, 0,
			s.rx, 0, 8, &cmd)), EINVAL, "32 bits of a 16-bit field");
	cmd = mod_cmd(MLX5_MODIFICATION_TYPE_INSERT, MLX5_MODI_META_REG_C_0,
		      0, 0, 1);
	TEST_ASSERT_EQUAL(null_errno(
		mlx5_glue->dv_create_flow_action_modify_header(s.p.ctx, 0,
			s.rx, 0, 8, &cmd)), EOPNOTSUPP, "insert");
	cmd = mod_cmd(MLX5_MODIFICATION_TYPE_SET, MLX5_MODI_META_REG_C_0, 20,
		      16, 1);
	TEST_ASSERT_EQUAL(null_errno(
		mlx5_glue->dv_create_flow_action_modify_header(s.p.ctx, 0,
			s.rx, 0, 8, &cmd)), EINVAL, "bits 20..35");
	/* A TIR on NIC TX. */
	mp_init(&mk);
	tx_m = mlx5_glue->dr_create_flow_tbl(s.tx, 1);
	TEST_ASSERT_NOT_NULL(tx_m, "tx table");
	m = matcher(&s, tx_m, 0, 0, NULL);
	v.size = 0;
	TEST_ASSERT_EQUAL(null_errno(rule(m, &v, td, NULL, NULL)), EOPNOTSUPP,
			  "dest TIR on NIC TX");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow_matcher(m), "m");
	TEST_ASSERT_SUCCESS(mlx5_glue->dr_destroy_flow_tbl(tx_m), "tx");
	/* Nothing was made by the refused calls. */
	if (steer_counts(&s, 2, 2, 1, 0, 1, 2) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(mlx5_glue->dr_dump_domain(stderr, s.rx), "dump");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(drop), "drop");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(tag), "tag");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(td), "td");
	TEST_ASSERT_EQUAL(mlx5_glue->dr_destroy_flow_tbl(t1), EBUSY, "t1");
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_destroy_flow_matcher(m_d), "m");
	TEST_ASSERT_SUCCESS(mlx5_glue->dr_destroy_flow_tbl(t1), "t1");
	return steer_close(&s);
}

/*
 * Close with steering objects left: the model frees them (a WARNING);
 * the drop action their rule held can be destroyed after.
 */
static int
test_steer_close_frees(void)
{
	void *m, *r, *drop, *jmp, *t1;
	struct mparam v;
	struct steer s;
	int ret;

	ret = steer_open(&s, "esteer_close", "esteer_close");
	if (ret != TEST_SUCCESS)
		return ret;
	drop = mlx5_glue->dr_create_flow_action_drop();
	t1 = mlx5_glue->dr_create_flow_tbl(s.rx, 1);
	jmp = mlx5_glue->dr_create_flow_action_dest_flow_tbl(t1);
	m = matcher(&s, s.root, 0, 0, NULL);
	mp_init(&v);
	v.size = 0;
	r = rule(m, &v, drop, NULL, NULL);
	TEST_ASSERT(drop && t1 && jmp && m && r, "objects");
	TEST_ASSERT_EQUAL(mlx5_glue->destroy_flow_action(drop), EBUSY, "drop");
	if (steer_counts(&s, 2, 2, 1, 1, 1, 1) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(s.tir_d), "direct TIR");
	ret = nport_close(&s.p);
	if (ret != TEST_SUCCESS)
		return ret;
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(drop), "drop");
	/*
	 * No emulated device open and no RDMA device: a context-free action
	 * is still the model's, so its destroy is not refused as foreign.
	 */
	drop = mlx5_glue->dr_create_flow_action_drop();
	TEST_ASSERT_NOT_NULL(drop, "drop without a device");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_flow_action(drop), "destroyed");
	return TEST_SUCCESS;
}

static struct unit_test_suite emu_steer_suite = {
	.suite_name = "emu_steer",
	.setup = emu_net_setup,
	.teardown = emu_net_teardown,
	.unit_test_cases = {
		TEST_CASE(test_steer_root),
		TEST_CASE(test_steer_l34_key),
		TEST_CASE(test_steer_jump),
		TEST_CASE(test_steer_duplicates),
		TEST_CASE(test_steer_pop_vlan),
		TEST_CASE(test_steer_rewrite),
		TEST_CASE(test_steer_source_port),
		TEST_CASE(test_steer_refused),
		TEST_CASE(test_steer_close_frees),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_steer, emu_steer_suite);
