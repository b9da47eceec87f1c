/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_core_rules": the refusals of the emulated HCA's core (general
 * commands, QUERY_HCA_CAP, the glue's PD, UAR, EQ number and MR entries,
 * verbs CQs, QUERY_CQ / MODIFY_CQ, DevX event channels, the glue's
 * steering entries) that no other suite drives, each beside the accepted
 * call: the rules tables of "Devices and capabilities", "Firmware checks",
 * "Verbs path", "Arming and events" and "Flow steering" in
 * doc/guides/emulated_hca.rst. Mailboxes are written field by field from
 * the PRM layout (mlx5_prm.h).
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>

#include "mlx5_emu.h"
#include "test.h"
#include "test_emu_fixture.h"

#define QHC_IN_DW MLX5_ST_SZ_DW(query_hca_cap_in)
#define QHC_OUT_DW MLX5_ST_SZ_DW(query_hca_cap_out)

static void
caps_no_devx(struct mlx5_emu_caps *c)
{
	c->devx = 0;
}

static void
caps_no_eth(struct mlx5_emu_caps *c)
{
	c->eth_net_offloads = 0;
}

/* A QUERY_HCA_CAP mailbox of a capability type, current values. */
static void
qhc_build(uint32_t *in, uint16_t op_mod)
{
	memset(in, 0, QHC_IN_DW * 4);
	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod, op_mod);
}

/* The command must succeed with status 0. */
static int
qhc_ok(struct ibv_context *ctx, const uint32_t *in, const char *what)
{
	uint32_t out[QHC_OUT_DW];

	memset(out, 0xa5, sizeof(out));
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_general_cmd(ctx, in, QHC_IN_DW * 4,
			    out, sizeof(out)), "%s: refused", what);
	TEST_ASSERT_EQUAL(emut_out_status(out), 0, "%s: status", what);
	return TEST_SUCCESS;
}

/* The command must fail with status st, syndrome synd and errno err. */
static int
qhc_refused(struct ibv_context *ctx, const uint32_t *in, uint8_t st,
	    uint32_t synd, int err, const char *what)
{
	uint32_t out[QHC_OUT_DW];

	errno = 0;
	TEST_ASSERT_EQUAL(mlx5_glue->devx_general_cmd(ctx, in, QHC_IN_DW * 4,
			  out, sizeof(out)), err, "%s: return", what);
	TEST_ASSERT_EQUAL(errno, err, "%s: errno %d", what, errno);
	TEST_ASSERT_EQUAL(emut_out_status(out), st, "%s: status 0x%x", what,
			  emut_out_status(out));
	TEST_ASSERT_EQUAL(emut_out_syndrome(out), synd, "%s: syndrome 0x%x",
			  what, emut_out_syndrome(out));
	return TEST_SUCCESS;
}

/* devx_general_cmd: the DevX capability and the mailbox sizes. */
static int
test_core_general_cmd(void)
{
	uint32_t in[QHC_IN_DW], out[QHC_OUT_DW];
	struct ibv_context *ctx, *nodevx;
	int ret = TEST_FAILED;

	ctx = emut_open_caps("emu_cr0", NULL);
	nodevx = emut_open_caps("emu_cr1", caps_no_devx);
	if (ctx == NULL || nodevx == NULL)
		goto out;
	qhc_build(in, MLX5_GET_HCA_CAP_OP_MOD_GENERAL_DEVICE | 1);
	if (qhc_ok(ctx, in, "with devx") != TEST_SUCCESS)
		goto out;
	errno = 0;
	if (mlx5_glue->devx_general_cmd(nodevx, in, sizeof(in), out,
					sizeof(out)) != EOPNOTSUPP ||
	    errno != EOPNOTSUPP) {
		printf("without devx: errno %d, not EOPNOTSUPP\n", errno);
		goto out;
	}
	/* Shorter than the opcode and op_mod, or than status and syndrome:
	 * no command reaches the firmware.
	 */
	errno = 0;
	if (mlx5_glue->devx_general_cmd(ctx, in, 3, out, sizeof(out)) !=
	    EINVAL || errno != EINVAL) {
		printf("inlen 3: errno %d, not EINVAL\n", errno);
		goto out;
	}
	errno = 0;
	if (mlx5_glue->devx_general_cmd(ctx, in, sizeof(in), out, 4) !=
	    EINVAL || errno != EINVAL) {
		printf("outlen 4: errno %d, not EINVAL\n", errno);
		goto out;
	}
	if (mlx5_glue->devx_general_cmd(ctx, in, 4, out, 8) != EIO ||
	    emut_out_status(out) != CMD_STAT_BAD_INP_LEN ||
	    emut_out_syndrome(out) != MLX5_EMU_SYND_INLEN) {
		printf("inlen 4: not BAD_INP_LEN, INLEN, EIO\n");
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	if (nodevx != NULL)
		mlx5_emu_close(nodevx);
	if (ctx != NULL)
		mlx5_emu_close(ctx);
	return ret;
}

/* QUERY_HCA_CAP: header reserved bits and the capability types. */
static int
test_core_query_hca_cap(void)
{
	uint32_t in[QHC_IN_DW];
	struct ibv_context *ctx, *noeth;
	int ret = TEST_FAILED;

	ctx = emut_open_caps("emu_cr2", NULL);
	noeth = emut_open_caps("emu_cr3", caps_no_eth);
	if (ctx == NULL || noeth == NULL)
		goto out;
	qhc_build(in, MLX5_GET_HCA_CAP_OP_MOD_GENERAL_DEVICE);
	if (qhc_ok(ctx, in, "general, maximum") != TEST_SUCCESS)
		goto out;
	MLX5_SET(query_hca_cap_in, in, reserved_at_20, 1);
	if (qhc_refused(ctx, in, CMD_STAT_BAD_PARAM,
			MLX5_EMU_SYND_HDR_RESERVED, EINVAL,
			"reserved_at_20") != TEST_SUCCESS)
		goto out;
	qhc_build(in, MLX5_GET_HCA_CAP_OP_MOD_GENERAL_DEVICE);
	in[3] = rte_cpu_to_be_32(1); /* Last bit of reserved_at_40. */
	if (qhc_refused(ctx, in, CMD_STAT_BAD_PARAM,
			MLX5_EMU_SYND_HDR_RESERVED, EINVAL,
			"reserved_at_40") != TEST_SUCCESS)
		goto out;
	/* Ethernet offload and NIC flow table caps: eth_net_offloads. */
	qhc_build(in, MLX5_GET_HCA_CAP_OP_MOD_ETHERNET_OFFLOAD_CAPS | 1);
	if (qhc_ok(ctx, in, "eth caps") != TEST_SUCCESS ||
	    qhc_refused(noeth, in, CMD_STAT_BAD_PARAM,
			MLX5_EMU_SYND_BAD_OP_MOD, EINVAL,
			"eth caps without eth_net_offloads") != TEST_SUCCESS)
		goto out;
	qhc_build(in, MLX5_GET_HCA_CAP_OP_MOD_NIC_FLOW_TABLE | 1);
	if (qhc_ok(ctx, in, "NIC flow table caps") != TEST_SUCCESS ||
	    qhc_refused(noeth, in, CMD_STAT_BAD_PARAM,
			MLX5_EMU_SYND_BAD_OP_MOD, EINVAL,
			"flow table caps without eth_net_offloads") !=
	    TEST_SUCCESS)
		goto out;
	/* Crypto caps: caps.crypto (default 0). */
	qhc_build(in, MLX5_GET_HCA_CAP_OP_MOD_CRYPTO | 1);
	if (qhc_refused(ctx, in, CMD_STAT_BAD_PARAM,
			MLX5_EMU_SYND_BAD_OP_MOD, EINVAL,
			"crypto caps without caps.crypto") != TEST_SUCCESS)
		goto out;
	/* A type the model does not offer: general device caps 2. */
	qhc_build(in, MLX5_GET_HCA_CAP_OP_MOD_GENERAL_DEVICE_2 | 1);
	if (qhc_refused(ctx, in, CMD_STAT_BAD_PARAM,
			MLX5_EMU_SYND_BAD_OP_MOD, EINVAL,
			"general device caps 2") != TEST_SUCCESS)
		goto out;
	ret = TEST_SUCCESS;
out:
	if (noeth != NULL)
		mlx5_emu_close(noeth);
	if (ctx != NULL)
		mlx5_emu_close(ctx);
	return ret;
}

/* devx_alloc_uar flags and capability, devx_query_eqn. */
static int
test_core_uar_eqn(void)
{
	struct mlx5dv_devx_uar *bf, *nc;
	struct ibv_context *ctx, *nodevx;
	uint32_t eqn;
	int ret = TEST_FAILED;

	ctx = emut_open_caps("emu_cr4", NULL);
	nodevx = emut_open_caps("emu_cr5", caps_no_devx);
	if (ctx == NULL || nodevx == NULL)
		goto out;
	bf = mlx5_glue->devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_BF);
	nc = mlx5_glue->devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	if (bf == NULL || nc == NULL) {
		printf("BF or NC UAR refused\n");
		goto uars;
	}
	errno = 0;
	if (mlx5_glue->devx_alloc_uar(ctx, 2) != NULL ||
	    errno != EOPNOTSUPP) {
		printf("flags 2: errno %d, not EOPNOTSUPP\n", errno);
		goto uars;
	}
	errno = 0;
	if (mlx5_glue->devx_alloc_uar(ctx, 1u << 31) != NULL ||
	    errno != EOPNOTSUPP) {
		printf("flags bit 31: errno %d, not EOPNOTSUPP\n", errno);
		goto uars;
	}
	errno = 0;
	if (mlx5_glue->devx_alloc_uar(nodevx, MLX5DV_UAR_ALLOC_TYPE_NC) !=
	    NULL || errno != EOPNOTSUPP) {
		printf("without devx: errno %d, not EOPNOTSUPP\n", errno);
		goto uars;
	}
	if (mlx5_glue->devx_query_eqn(ctx, ctx->num_comp_vectors - 1,
				      &eqn) != 0) {
		printf("last vector refused\n");
		goto uars;
	}
	errno = 0;
	if (mlx5_glue->devx_query_eqn(ctx, ctx->num_comp_vectors, &eqn) !=
	    ENOENT || errno != ENOENT) {
		printf("vector past the last: errno %d, not ENOENT\n", errno);
		goto uars;
	}
	errno = 0;
	if (mlx5_glue->devx_query_eqn(ctx, UINT32_MAX, &eqn) != ENOENT ||
	    errno != ENOENT) {
		printf("vector UINT32_MAX: errno %d, not ENOENT\n", errno);
		goto uars;
	}
	errno = 0;
	if (mlx5_glue->devx_query_eqn(ctx, 0, NULL) != EINVAL ||
	    errno != EINVAL) {
		printf("eqn NULL: errno %d, not EINVAL\n", errno);
		goto uars;
	}
	ret = TEST_SUCCESS;
uars:
	if (nc != NULL)
		mlx5_glue->devx_free_uar(nc);
	if (bf != NULL)
		mlx5_glue->devx_free_uar(bf);
out:
	if (nodevx != NULL)
		mlx5_emu_close(nodevx);
	if (ctx != NULL && mlx5_emu_close(ctx) != 0)
		ret = TEST_FAILED;
	return ret;
}

/*
 * reg_mr must refuse (addr, len, access) with errno err and leave the
 * device's MRs, umems, DevX objects, PDs, doorbell slots and the
 * rte_malloc heap as they were.
 */
static int
mr_refused(struct ibv_pd *pd, void *addr, size_t len, int access, int err,
	   const char *what)
{
	struct mlx5_emu_net_stats ns0, ns1;
	struct mlx5_emu_stats es0, es1;
	struct emut_heap hs;
	struct ibv_mr *mr;

	emut_heap_snap(&hs);
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(pd->context, &es0), "stats");
	TEST_ASSERT_SUCCESS(mlx5_emu_net_stats_get(pd->context, &ns0), "ns");
	errno = 0;
	mr = mlx5_glue->reg_mr(pd, addr, len, access);
	if (mr != NULL) {
		mlx5_glue->dereg_mr(mr);
		TEST_ASSERT(0, "%s: accepted", what);
	}
	TEST_ASSERT_EQUAL(errno, err, "%s: errno %d", what, errno);
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(pd->context, &es1), "stats");
	TEST_ASSERT_SUCCESS(mlx5_emu_net_stats_get(pd->context, &ns1), "ns");
	TEST_ASSERT(ns1.mrs == ns0.mrs && es1.umems == es0.umems &&
		    es1.devx_objs == es0.devx_objs && es1.pds == es0.pds &&
		    es1.dbr_slots == es0.dbr_slots,
		    "%s: MRs %u umems %u objects %u left, were %u %u %u", what,
		    ns1.mrs, es1.umems, es1.devx_objs, ns0.mrs, es0.umems,
		    es0.devx_objs);
	TEST_ASSERT(emut_heap_same(&hs), "%s: rte_malloc heap changed", what);
	return TEST_SUCCESS;
}

/* reg_mr must take (buf, len, access) and dereg_mr free it. */
static int
mr_taken(struct ibv_pd *pd, void *addr, size_t len, int access,
	 const char *what)
{
	struct ibv_mr *mr;

	mr = mlx5_glue->reg_mr(pd, addr, len, access);
	TEST_ASSERT_NOT_NULL(mr, "%s: refused, errno %d", what, errno);
	TEST_ASSERT_SUCCESS(mlx5_glue->dereg_mr(mr), "%s: dereg", what);
	return TEST_SUCCESS;
}

/* reg_mr access flags and range; dv_init_obj of a PD. */
static int
test_core_mr_pd(void)
{
	static uint8_t buf[8192];
	struct mlx5dv_pd dvpd;
	struct mlx5dv_obj obj;
	struct ibv_context *ctx;
	struct ibv_pd *pd = NULL;
	struct ibv_mr *mr;
	int ret = TEST_FAILED;

	ctx = emut_open_caps("emu_cr6", NULL);
	if (ctx == NULL)
		return TEST_FAILED;
	pd = mlx5_glue->alloc_pd(ctx);
	if (pd == NULL)
		goto out;
	mr = mlx5_glue->reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE |
			       IBV_ACCESS_REMOTE_WRITE |
			       IBV_ACCESS_REMOTE_ATOMIC);
	if (mr == NULL || mlx5_glue->dereg_mr(mr) != 0) {
		printf("local + remote write + atomic refused\n");
		goto out;
	}
	if (mr_refused(pd, buf, sizeof(buf), IBV_ACCESS_REMOTE_WRITE, EINVAL,
		       "remote write without local write") != TEST_SUCCESS ||
	    mr_refused(pd, buf, sizeof(buf), IBV_ACCESS_REMOTE_ATOMIC, EINVAL,
		       "remote atomic without local write") != TEST_SUCCESS ||
	    mr_taken(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE |
		     IBV_ACCESS_MW_BIND, "MW_BIND") != TEST_SUCCESS ||
	    mr_taken(pd, buf, sizeof(buf), IBV_ACCESS_ZERO_BASED |
		     IBV_ACCESS_HUGETLB, "ZERO_BASED | HUGETLB") !=
	    TEST_SUCCESS ||
	    mr_taken(pd, buf, sizeof(buf), 1 << 29, "optional bit 29") !=
	    TEST_SUCCESS ||
	    mr_refused(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE | 1 << 8,
		       EINVAL, "bit 8") != TEST_SUCCESS ||
	    mr_refused(pd, buf, sizeof(buf), 1 << 19, EINVAL, "bit 19") !=
	    TEST_SUCCESS ||
	    mr_refused(pd, buf, sizeof(buf), 1 << 30, EINVAL, "bit 30") !=
	    TEST_SUCCESS ||
	    mr_refused(pd, buf, sizeof(buf), IBV_ACCESS_REMOTE_WRITE |
		       IBV_ACCESS_ON_DEMAND, EINVAL,
		       "remote write without local write, ODP") !=
	    TEST_SUCCESS ||
	    mr_refused(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE |
		       IBV_ACCESS_ON_DEMAND, EOPNOTSUPP, "ON_DEMAND") !=
	    TEST_SUCCESS ||
	    mr_refused(pd, NULL, 0, IBV_ACCESS_ON_DEMAND, EOPNOTSUPP,
		       "ON_DEMAND before the range") != TEST_SUCCESS ||
	    mr_refused(pd, NULL, sizeof(buf), IBV_ACCESS_LOCAL_WRITE, EINVAL,
		       "address NULL") != TEST_SUCCESS ||
	    mr_refused(pd, buf, 0, IBV_ACCESS_LOCAL_WRITE, EINVAL,
		       "length 0") != TEST_SUCCESS ||
	    mr_refused(pd, (void *)(uintptr_t)(UINTPTR_MAX - 4095), 8192,
		       0, EINVAL, "address + length wraps") != TEST_SUCCESS)
		goto out;
	memset(&obj, 0, sizeof(obj));
	obj.pd.in = pd;
	obj.pd.out = &dvpd;
	if (mlx5_glue->dv_init_obj(&obj, MLX5DV_OBJ_PD) != 0) {
		printf("dv_init_obj of the PD refused\n");
		goto out;
	}
	obj.pd.out = NULL;
	errno = 0;
	if (mlx5_glue->dv_init_obj(&obj, MLX5DV_OBJ_PD) != EINVAL ||
	    errno != EINVAL) {
		printf("dv_init_obj without pd.out: errno %d\n", errno);
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	if (pd != NULL)
		mlx5_glue->dealloc_pd(pd);
	if (mlx5_emu_close(ctx) != 0)
		ret = TEST_FAILED;
	return ret;
}

static void
caps_two_cqs(struct mlx5_emu_caps *c)
{
	c->log_max_cq = 1;
}

static struct ibv_cq_ex *
verbs_cq(struct ibv_context *ctx)
{
	struct ibv_cq_init_attr_ex a;

	memset(&a, 0, sizeof(a));
	a.cqe = 15;
	return mlx5_glue->dv_create_cq(ctx, &a, NULL);
}

/* dv_init_obj of a verbs CQ, dv_set_context_attr, the CQ table. */
static int
test_core_verbs_cq(void)
{
	struct ibv_cq_ex *cq[3] = { NULL, NULL, NULL };
	struct mlx5dv_cq dvcq;
	struct mlx5dv_obj obj;
	struct ibv_context *ctx;
	int ret = TEST_FAILED;
	unsigned int i;

	ctx = emut_open_caps("emu_cr7", caps_two_cqs);
	if (ctx == NULL)
		return TEST_FAILED;
	cq[0] = verbs_cq(ctx);
	cq[1] = verbs_cq(ctx);
	if (cq[0] == NULL || cq[1] == NULL) {
		printf("two CQs on 2^log_max_cq 2 refused\n");
		goto out;
	}
	errno = 0;
	cq[2] = verbs_cq(ctx);
	if (cq[2] != NULL || errno != ENOMEM) {
		printf("third CQ: errno %d, not ENOMEM\n", errno);
		goto out;
	}
	memset(&obj, 0, sizeof(obj));
	obj.cq.in = ibv_cq_ex_to_cq(cq[0]);
	obj.cq.out = &dvcq;
	if (mlx5_glue->dv_init_obj(&obj, MLX5DV_OBJ_CQ) != 0) {
		printf("dv_init_obj of the CQ refused\n");
		goto out;
	}
	obj.cq.out = NULL;
	errno = 0;
	if (mlx5_glue->dv_init_obj(&obj, MLX5DV_OBJ_CQ) != EINVAL ||
	    errno != EINVAL) {
		printf("dv_init_obj without cq.out: errno %d\n", errno);
		goto out;
	}
	errno = 0;
	if (mlx5_glue->dv_set_context_attr(ctx,
			MLX5DV_CTX_ATTR_BUF_ALLOCATORS, NULL) != EINVAL ||
	    errno != EINVAL) {
		printf("set_context_attr without allocators: errno %d\n",
		       errno);
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	for (i = 0; i < RTE_DIM(cq); i++)
		if (cq[i] != NULL &&
		    mlx5_glue->destroy_cq(ibv_cq_ex_to_cq(cq[i])) != 0)
			ret = TEST_FAILED;
	if (mlx5_emu_close(ctx) != 0)
		ret = TEST_FAILED;
	return ret;
}

/* One modify-header command (PRM mlx5_modification_cmd, big-endian). */
static uint64_t
mod_cmd(uint32_t type, uint32_t field, uint32_t len, uint32_t data)
{
	uint32_t w[2] = { rte_cpu_to_be_32(type << 28 | field << 16 |
					   (len & 0x1f)),
			  rte_cpu_to_be_32(data) };
	uint64_t c;

	memcpy(&c, w, 8);
	return c;
}

/* The glue's own steering checks (mlx5_emu_glue_steer.c). */
static int
test_core_steer_glue(void)
{
	void *dom = NULL, *tbl = NULL, *m, *a;
	struct mlx5dv_flow_matcher_attr ma;
	struct ibv_context *ctx;
	uint64_t cmd;
	int ret = TEST_FAILED, foreign = 0;

	ctx = emut_open_caps("emu_cr8", NULL);
	if (ctx == NULL)
		return TEST_FAILED;
	dom = mlx5_glue->dr_create_domain(ctx, 0); /* NIC RX */
	tbl = dom != NULL ? mlx5_glue->dr_create_flow_tbl(dom, 1) : NULL;
	if (tbl == NULL) {
		printf("domain or table refused\n");
		goto out;
	}
	memset(&ma, 0, sizeof(ma));
	ma.type = IBV_FLOW_ATTR_NORMAL;
	m = mlx5_glue->dv_create_flow_matcher(ctx, &ma, tbl);
	if (m == NULL || mlx5_glue->dv_destroy_flow_matcher(m) != 0) {
		printf("matcher refused\n");
		goto out;
	}
	errno = 0;
	if (mlx5_glue->dv_create_flow_matcher(ctx, NULL, tbl) != NULL ||
	    errno != EINVAL) {
		printf("matcher without attr: errno %d\n", errno);
		goto out;
	}
	errno = 0;
	if (mlx5_glue->dv_create_flow_matcher(ctx, &ma, &foreign) != NULL ||
	    errno != EINVAL) {
		printf("matcher of a table not the model's: errno %d\n",
		       errno);
		goto out;
	}
	cmd = mod_cmd(MLX5_MODIFICATION_TYPE_SET, MLX5_MODI_OUT_IPV4_TTL, 8,
		      64);
	a = mlx5_glue->dv_create_flow_action_modify_header(ctx, 0, dom, 0,
							   8, &cmd);
	if (a == NULL || mlx5_glue->destroy_flow_action(a) != 0) {
		printf("modify header refused\n");
		goto out;
	}
	errno = 0;
	if (mlx5_glue->dv_create_flow_action_modify_header(ctx, 0, dom, 2, 8,
							   &cmd) != NULL ||
	    errno != EINVAL) {
		printf("modify header flags 2: errno %d\n", errno);
		goto out;
	}
	errno = 0;
	if (mlx5_glue->dv_create_flow_action_modify_header(ctx, 0, &foreign,
							   0, 8, &cmd) !=
	    NULL || errno != EINVAL) {
		printf("modify header of a domain not the model's: errno %d\n",
		       errno);
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	if (tbl != NULL && mlx5_glue->dr_destroy_flow_tbl(tbl) != 0)
		ret = TEST_FAILED;
	if (dom != NULL && mlx5_glue->dr_destroy_domain(dom) != 0)
		ret = TEST_FAILED;
	if (mlx5_emu_close(ctx) != 0)
		ret = TEST_FAILED;
	return ret;
}

/* A subscription that must be refused with EINVAL (0) or not (1). */
static int
sub_refused(struct mlx5dv_devx_event_channel *ch, void *obj, uint16_t sz,
	    uint16_t *ev, const char *what)
{
	int ret;

	errno = 0;
	ret = mlx5_glue->devx_subscribe_devx_event(ch, obj, sz, ev, 1);
	if (ret == EINVAL && errno == EINVAL)
		return 0;
	printf("%s: %d, errno %d, not EINVAL\n", what, ret, errno);
	return 1;
}

/* DevX event channels and subscriptions on the CQ object obj. */
static int
event_rules(struct ibv_context *ctx, struct mlx5dv_devx_obj *obj)
{
	uint16_t comp[1] = { 0x00 }, legacy[2] = { 0x05, 0x1d };
	uint16_t port[1] = { 0x09 }, bad[1] = { 0x06 }, big[1] = { 0x100 };
	uint16_t many[9] = { 0 };
	struct mlx5dv_devx_event_channel *ch, *ch2;
	uint8_t buf[8 + 64];
	int foreign = 0, ret = TEST_FAILED;

	ch = mlx5_glue->devx_create_event_channel(ctx, 0);
	errno = 0;
	ch2 = mlx5_glue->devx_create_event_channel(ctx, 2);
	if (ch == NULL || ch2 != NULL || errno != EINVAL) {
		printf("flags 2: errno %d, not EINVAL\n", errno);
		goto out;
	}
	if (mlx5_glue->devx_subscribe_devx_event(ch, obj, sizeof(comp), comp,
						 1) != 0) {
		printf("subscribe refused\n");
		goto out;
	}
	/* Kernel is_legacy_obj_event_num(): WQ_CATAS_ERROR and
	 * DCT_KEY_VIOLATION are object events too.
	 */
	if (mlx5_glue->devx_subscribe_devx_event(ch, obj, sizeof(legacy),
						 legacy, 2) != 0) {
		printf("subscribe to 0x05, 0x1d refused\n");
		goto out;
	}
	if (sub_refused(ch, NULL, sizeof(comp), comp, "obj NULL") ||
	    sub_refused(ch, obj, 0, comp, "no event") ||
	    sub_refused(ch, obj, sizeof(many), many, "9 events") ||
	    sub_refused(ch, obj, sizeof(port), port, "type 0x09") ||
	    sub_refused(ch, obj, sizeof(bad), bad, "type 0x06") ||
	    sub_refused(ch, obj, sizeof(big), big, "type 0x100") ||
	    sub_refused(ch, (void *)&foreign, sizeof(comp), comp,
			"not a CQ"))
		goto out;
	/* Kernel devx_async_event_read(): no event is EAGAIN before the
	 * size is looked at (emu_cqe_arm: 71 bytes with an event queued).
	 */
	errno = 0;
	if (mlx5_glue->devx_get_event(ch, (void *)buf, sizeof(buf) - 1) !=
	    -1 || errno != EAGAIN) {
		printf("71 bytes, none pending: errno %d, not EAGAIN\n",
		       errno);
		goto out;
	}
	errno = 0;
	if (mlx5_glue->devx_get_event(ch, (void *)buf, sizeof(buf)) != -1 ||
	    errno != EAGAIN) {
		printf("none pending: errno %d, not EAGAIN\n", errno);
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	if (ch != NULL)
		mlx5_glue->devx_destroy_event_channel(ch);
	return ret;
}

/* A CQ object command that must fail with st, synd and err. */
static int
cq_cmd_refused(int (*cmd)(struct mlx5dv_devx_obj *, const void *, size_t,
			  void *, size_t), struct mlx5dv_devx_obj *obj,
	       const void *in, size_t inlen, size_t outlen, uint8_t st,
	       uint32_t synd, int err, const char *what)
{
	uint32_t out[32];

	memset(out, 0, sizeof(out));
	errno = 0;
	TEST_ASSERT_EQUAL(cmd(obj, in, inlen, out, outlen), err,
			  "%s: return", what);
	TEST_ASSERT_EQUAL(errno, err, "%s: errno %d", what, errno);
	TEST_ASSERT_EQUAL(emut_out_status(out), st, "%s: status 0x%x", what,
			  emut_out_status(out));
	TEST_ASSERT_EQUAL(emut_out_syndrome(out), synd, "%s: syndrome 0x%x",
			  what, emut_out_syndrome(out));
	return TEST_SUCCESS;
}

/* QUERY_CQ 0x402, MODIFY_CQ 0x403 (kernel mlx5_ifc.h). */
#define QCQ_IN 16 /* kernel mlx5_ifc.h query_cq_in */
#define QCQ_OUT 80 /* query_cq_out: 16 bytes, then the cqc */
#define MCQ_IN 80 /* modify_cq_in up to the end of its cqc */

static void
caps_no_moder(struct mlx5_emu_caps *c)
{
	c->cq_moderation = 0;
}

/*
 * QUERY_CQ and MODIFY_CQ of a DevX CQ (mlx5_emu_cq.c, mlx5_emu_obj.c),
 * event channels and subscriptions on it (mlx5_emu_event.c).
 */
static int
test_core_cq_cmds(void)
{
	uint32_t in[CREATE_CQ_IN_LEN / 4], out[32], q[QCQ_IN / 4];
	uint32_t m[MCQ_IN / 4];
	struct mlx5dv_devx_obj *obj = NULL;
	struct ibv_context *ctx;
	struct cq_env e;
	uint32_t cqn;
	int ret = TEST_FAILED;

	/* Without cq_moderation: MODIFY_CQ of oi only is accepted. */
	ctx = emut_open_caps("emu_cr9", caps_no_moder);
	if (ctx == NULL)
		return TEST_FAILED;
	memset(&e, 0, sizeof(e));
	if (emut_env_init(&e, ctx, 4, 64) != 0)
		goto out;
	emut_build_create_cq(in, &e, 0);
	memset(out, 0, sizeof(out));
	obj = mlx5_glue->devx_obj_create(ctx, in, CREATE_CQ_IN_LEN, out,
					 sizeof(out));
	if (obj == NULL)
		goto out;
	cqn = MLX5_GET(create_cq_out, out, cqn);
	memset(q, 0, sizeof(q));
	q[0] = rte_cpu_to_be_32(0x402u << 16);
	q[2] = rte_cpu_to_be_32(cqn);
	if (mlx5_glue->devx_obj_query(obj, q, QCQ_IN, out, QCQ_OUT) != 0 ||
	    emut_out_status(out) != 0) {
		printf("QUERY_CQ refused\n");
		goto out;
	}
	if (cq_cmd_refused(mlx5_glue->devx_obj_query, obj, q, 12, QCQ_OUT,
			   CMD_STAT_BAD_INP_LEN, MLX5_EMU_SYND_INLEN, EIO,
			   "QUERY_CQ inlen 12") != TEST_SUCCESS ||
	    cq_cmd_refused(mlx5_glue->devx_obj_query, obj, q, QCQ_IN, 64,
			   CMD_STAT_BAD_OUTP_LEN, MLX5_EMU_SYND_OUTLEN, EIO,
			   "QUERY_CQ outlen 64") != TEST_SUCCESS)
		goto out;
	q[2] = rte_cpu_to_be_32(cqn + 1);
	if (cq_cmd_refused(mlx5_glue->devx_obj_query, obj, q, QCQ_IN,
			   QCQ_OUT, 0, 0, EINVAL, "QUERY_CQ cqn + 1") !=
	    TEST_SUCCESS)
		goto out;
	q[2] = rte_cpu_to_be_32(cqn);
	q[1] = rte_cpu_to_be_32(1); /* op_mod */
	if (cq_cmd_refused(mlx5_glue->devx_obj_query, obj, q, QCQ_IN,
			   QCQ_OUT, CMD_STAT_BAD_PARAM,
			   MLX5_EMU_SYND_HDR_RESERVED, EINVAL,
			   "QUERY_CQ op_mod 1") != TEST_SUCCESS)
		goto out;
	q[1] = 0;
	q[3] = rte_cpu_to_be_32(1); /* reserved_at_60 */
	if (cq_cmd_refused(mlx5_glue->devx_obj_query, obj, q, QCQ_IN,
			   QCQ_OUT, CMD_STAT_BAD_PARAM,
			   MLX5_EMU_SYND_HDR_RESERVED, EINVAL,
			   "QUERY_CQ reserved_at_60") != TEST_SUCCESS)
		goto out;
	q[3] = 0;
	q[0] = rte_cpu_to_be_32(0x123u << 16);
	if (cq_cmd_refused(mlx5_glue->devx_obj_query, obj, q, QCQ_IN,
			   QCQ_OUT, CMD_STAT_BAD_OP, MLX5_EMU_SYND_BAD_OPCODE,
			   EINVAL, "query opcode 0x123") != TEST_SUCCESS)
		goto out;
	/* MODIFY_CQ of oi (modify_field_select bit 2). */
	memset(m, 0, sizeof(m));
	m[0] = rte_cpu_to_be_32(0x403u << 16);
	m[2] = rte_cpu_to_be_32(cqn);
	m[3] = rte_cpu_to_be_32(4);
	if (mlx5_glue->devx_obj_modify(obj, m, MCQ_IN, out, 16) != 0 ||
	    emut_out_status(out) != 0) {
		printf("MODIFY_CQ refused\n");
		goto out;
	}
	if (cq_cmd_refused(mlx5_glue->devx_obj_modify, obj, m, MCQ_IN - 4,
			   16, CMD_STAT_BAD_INP_LEN, MLX5_EMU_SYND_INLEN, EIO,
			   "MODIFY_CQ inlen 76") != TEST_SUCCESS ||
	    cq_cmd_refused(mlx5_glue->devx_obj_modify, obj, m, MCQ_IN, 8,
			   CMD_STAT_BAD_OUTP_LEN, MLX5_EMU_SYND_OUTLEN, EIO,
			   "MODIFY_CQ outlen 8") != TEST_SUCCESS)
		goto out;
	m[2] = rte_cpu_to_be_32(cqn + 1);
	if (cq_cmd_refused(mlx5_glue->devx_obj_modify, obj, m, MCQ_IN, 16,
			   0, 0, EINVAL, "MODIFY_CQ cqn + 1") != TEST_SUCCESS)
		goto out;
	m[2] = rte_cpu_to_be_32(cqn);
	m[1] = rte_cpu_to_be_32(0x00010000); /* vhca_tunnel_id 1 */
	if (cq_cmd_refused(mlx5_glue->devx_obj_modify, obj, m, MCQ_IN, 16,
			   0, 0, EINVAL, "MODIFY_CQ vhca_tunnel_id") !=
	    TEST_SUCCESS ||
	    cq_cmd_refused(mlx5_glue->devx_obj_modify, obj, m, 4, 16, 0, 0,
			   EINVAL, "MODIFY_CQ inlen 4") != TEST_SUCCESS)
		goto out;
	m[1] = rte_cpu_to_be_32(2); /* op_mod 2: neither 0 nor resize */
	if (cq_cmd_refused(mlx5_glue->devx_obj_modify, obj, m, MCQ_IN, 16,
			   CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_BAD_OP_MOD, EINVAL,
			   "MODIFY_CQ op_mod 2") != TEST_SUCCESS)
		goto out;
	m[1] = 0;
	m[3] = rte_cpu_to_be_32(0x10);
	if (cq_cmd_refused(mlx5_glue->devx_obj_modify, obj, m, MCQ_IN, 16,
			   CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_BAD_OP_MOD, EINVAL,
			   "MODIFY_CQ field_select 0x10") != TEST_SUCCESS)
		goto out;
	m[3] = rte_cpu_to_be_32(2);
	if (cq_cmd_refused(mlx5_glue->devx_obj_modify, obj, m, MCQ_IN, 16,
			   CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_MODER_CAP,
			   EINVAL, "cq_max_count without cq_moderation") !=
	    TEST_SUCCESS)
		goto out;
	m[3] = rte_cpu_to_be_32(4);
	if (event_rules(ctx, obj) != TEST_SUCCESS)
		goto out;
	m[0] = rte_cpu_to_be_32(0x123u << 16);
	if (cq_cmd_refused(mlx5_glue->devx_obj_modify, obj, m, MCQ_IN, 16,
			   CMD_STAT_BAD_OP, MLX5_EMU_SYND_BAD_OPCODE, EINVAL,
			   "modify opcode 0x123") != TEST_SUCCESS)
		goto out;
	ret = TEST_SUCCESS;
out:
	if (obj != NULL && mlx5_glue->devx_obj_destroy(obj) != 0)
		ret = TEST_FAILED;
	emut_env_fini(&e);
	if (mlx5_emu_close(ctx) != 0)
		ret = TEST_FAILED;
	return ret;
}

static struct unit_test_suite emu_core_rules_suite = {
	.suite_name = "emu_core_rules",
	.unit_test_cases = {
		TEST_CASE(test_core_general_cmd),
		TEST_CASE(test_core_query_hca_cap),
		TEST_CASE(test_core_uar_eqn),
		TEST_CASE(test_core_mr_pd),
		TEST_CASE(test_core_verbs_cq),
		TEST_CASE(test_core_steer_glue),
		TEST_CASE(test_core_cq_cmds),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_core_rules, emu_core_rules_suite);
