/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_net_objects": lifetime of the emulated network objects: destroy
 * while the engine runs, verbs CQs, malformed commands, leaks at close, a
 * TIR on transport domain 0.
 */

#include "test_emu_net_fixture.h"

/*
 * Destroy while the engine thread runs: A sends 60 frames to B while B's
 * TIR, RQT and RQ and then A's SQ are destroyed. Every frame A put on the
 * wire is accounted for at B (received, no queue or no buffer).
 */
static int
test_net_concurrent_destroy(void)
{
	struct mlx5_emu_port_stats pa, pb;
	struct mlx5_emu_net_stats ns;
	uint8_t frame[128];
	struct nport a, b;
	uint32_t len, i;
	int ret;

	ret = nport_open(&a, "enet_ca", "enet_wire_c", mac_a, 0);
	if (ret == TEST_SUCCESS)
		ret = nport_open(&b, "enet_cb", "enet_wire_c", mac_b, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	rq_post(&b, 1u << LOG_RQ);
	len = frame_tcp4(frame, mac_b, mac_a, 64, 0, 0);
	mlx5_emu_net_engine_pause(0);
	for (i = 0; i < 60; i++)
		send_frame(&a, frame, len, 0);
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(b.tir), "tir");
	b.tir = NULL;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(b.rqt), "rqt");
	b.rqt = NULL;
	mlx5_devx_rq_destroy(&b.rq);
	memset(&b.rq, 0, sizeof(b.rq));
	mlx5_devx_sq_destroy(&a.sq);
	memset(&a.sq, 0, sizeof(a.sq));
	mlx5_emu_net_engine_pause(1);
	mlx5_emu_port_stats_get(a.ctx, &pa);
	mlx5_emu_port_stats_get(b.ctx, &pb);
	TEST_ASSERT(pa.tx_packets <= 60, "at most 60 sent");
	TEST_ASSERT_EQUAL(pb.rx_packets + pb.rx_no_queue + pb.rx_out_of_buffer,
			  pa.tx_packets, "every frame sent accounted for "
			  "(%" PRIu64 " %" PRIu64 " %" PRIu64 " of %" PRIu64
			  ")", pb.rx_packets, pb.rx_no_queue,
			  pb.rx_out_of_buffer, pa.tx_packets);
	TEST_ASSERT_SUCCESS(mlx5_emu_net_stats_get(a.ctx, &ns), "ns");
	TEST_ASSERT_EQUAL(ns.ready_queues, 2u, "B's SQ and A's RQ remain");
	ret = nport_close(&a);
	if (ret == TEST_SUCCESS)
		ret = nport_close(&b);
	return ret;
}

/* An RQ on a CQ of the verbs path: that CQ cannot be destroyed while
 * the RQ uses it.
 */
static int
test_net_verbs_cq(void)
{
	struct mlx5_devx_create_rq_attr rqa;
	struct ibv_cq_init_attr_ex ca;
	struct mlx5dv_cq_init_attr da;
	struct mlx5_devx_rq rq;
	struct mlx5dv_cq dvcq;
	struct mlx5dv_obj obj;
	struct ibv_cq_ex *vcq;
	struct nport p;
	int ret;

	ret = nport_open(&p, "enet_vcq", NULL, NULL, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	memset(&ca, 0, sizeof(ca));
	ca.cqe = 63;
	ca.wc_flags = IBV_WC_STANDARD_FLAGS;
	memset(&da, 0, sizeof(da));
	vcq = mlx5_glue->dv_create_cq(p.ctx, &ca, &da);
	TEST_ASSERT_NOT_NULL(vcq, "verbs CQ");
	memset(&obj, 0, sizeof(obj));
	obj.cq.in = ibv_cq_ex_to_cq(vcq);
	obj.cq.out = &dvcq;
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_init_obj(&obj, MLX5DV_OBJ_CQ), "cqn");
	memset(&rqa, 0, sizeof(rqa));
	memset(&rq, 0, sizeof(rq));
	rqa.cqn = dvcq.cqn;
	rqa.wq_attr.wq_type = MLX5_WQ_TYPE_CYCLIC;
	rqa.wq_attr.log_wq_stride = 4;
	rqa.wq_attr.log_wq_sz = LOG_RQ;
	rqa.wq_attr.pd = p.pdn;
	TEST_ASSERT_SUCCESS(mlx5_devx_rq_create(p.ctx, &rq, 16, LOG_RQ, &rqa,
						SOCKET_ID_ANY), "rq");
	TEST_ASSERT_EQUAL(mlx5_glue->destroy_cq(ibv_cq_ex_to_cq(vcq)), EBUSY,
			  "CQ used by the RQ");
	mlx5_devx_rq_destroy(&rq);
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_cq(ibv_cq_ex_to_cq(vcq)),
			    "destroy");
	return nport_close(&p);
}

/* Firmware checks: status, syndrome, errno; nothing leaks. */
static int
test_net_bad_commands(void)
{
	struct mlx5_devx_create_sq_attr sqa;
	struct mlx5_devx_modify_sq_attr msq;
	struct mlx5_devx_tis_attr tisa;
	struct mlx5_devx_sq sq;
	struct mlx5_emu_stats s0, s1;
	struct mlx5_devx_tir_attr ta;
	struct mlx5_devx_rqt_attr *rqta;
	struct mlx5_devx_obj *o;
	uint64_t a0, b0, a1, b1;
	struct nport p;
	uint32_t synd;
	uint8_t st;
	int ret;

	ret = nport_open(&p, "enet_bad", "enet_wire_bad", mac_a, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	mlx5_emu_stats_get(p.ctx, &s0);
	heap_snap(&a0, &b0);
	/* CREATE_SQ on an unknown CQ. */
	memset(&sqa, 0, sizeof(sqa));
	memset(&sq, 0, sizeof(sq));
	sqa.cqn = 0x7777;
	sqa.tis_lst_sz = 1;
	sqa.tis_num = p.tis->id;
	sqa.wq_attr.pd = p.pdn;
	sqa.wq_attr.uar_page = p.uar->page_id;
	TEST_ASSERT_FAIL(mlx5_devx_sq_create(p.ctx, &sq, LOG_SQ, &sqa,
					     SOCKET_ID_ANY), "unknown CQ");
	TEST_ASSERT_SUCCESS(mlx5_emu_last_cmd_error(p.ctx, &st, &synd), "err");
	TEST_ASSERT(st == CMD_STAT_BAD_RES && synd == MLX5_EMU_SYND_NET_CQ,
		    "BAD_RES / NET_CQ");
	/* Unknown TIS, unknown PD, no UAR. */
	sqa.cqn = p.scq.cq->id;
	sqa.tis_num = 0x7777;
	TEST_ASSERT_FAIL(mlx5_devx_sq_create(p.ctx, &sq, LOG_SQ, &sqa,
					     SOCKET_ID_ANY), "unknown TIS");
	mlx5_emu_last_cmd_error(p.ctx, &st, &synd);
	TEST_ASSERT_EQUAL(synd, MLX5_EMU_SYND_NET_TIS, "NET_TIS");
	sqa.tis_num = p.tis->id;
	sqa.wq_attr.pd = p.pdn + 1000;
	TEST_ASSERT_FAIL(mlx5_devx_sq_create(p.ctx, &sq, LOG_SQ, &sqa,
					     SOCKET_ID_ANY), "unknown PD");
	mlx5_emu_last_cmd_error(p.ctx, &st, &synd);
	TEST_ASSERT_EQUAL(synd, MLX5_EMU_SYND_NET_PD, "NET_PD");
	sqa.wq_attr.pd = p.pdn;
	sqa.wq_attr.uar_page = 0;
	TEST_ASSERT_FAIL(mlx5_devx_sq_create(p.ctx, &sq, LOG_SQ, &sqa,
					     SOCKET_ID_ANY), "no UAR");
	mlx5_emu_last_cmd_error(p.ctx, &st, &synd);
	TEST_ASSERT_EQUAL(synd, MLX5_EMU_SYND_NET_UAR, "NET_UAR");
	sqa.wq_attr.uar_page = p.uar->page_id;
	sqa.state = MLX5_SQC_STATE_RDY;
	TEST_ASSERT_FAIL(mlx5_devx_sq_create(p.ctx, &sq, LOG_SQ, &sqa,
					     SOCKET_ID_ANY), "created RDY");
	mlx5_emu_last_cmd_error(p.ctx, &st, &synd);
	TEST_ASSERT_EQUAL(synd, MLX5_EMU_SYND_NET_STATE, "NET_STATE");
	/* TIS on an unknown TD. */
	memset(&tisa, 0, sizeof(tisa));
	tisa.transport_domain = 0x7777;
	TEST_ASSERT_NULL(mlx5_devx_cmd_create_tis(p.ctx, &tisa), "TIS");
	mlx5_emu_last_cmd_error(p.ctx, &st, &synd);
	TEST_ASSERT_EQUAL(synd, MLX5_EMU_SYND_NET_TD, "NET_TD");
	/* RQT naming an unknown RQ; size 0. */
	rqta = calloc(1, sizeof(*rqta) + 2 * sizeof(uint32_t));
	TEST_ASSERT_NOT_NULL(rqta, "attr");
	rqta->rqt_max_size = 2;
	rqta->rqt_actual_size = 2;
	rqta->rq_list[0] = p.rq.rq->id;
	rqta->rq_list[1] = 0x7777;
	o = mlx5_devx_cmd_create_rqt(p.ctx, rqta);
	mlx5_emu_last_cmd_error(p.ctx, &st, &synd);
	TEST_ASSERT(o == NULL && synd == MLX5_EMU_SYND_NET_RQ, "NET_RQ");
	rqta->rqt_actual_size = 0;
	o = mlx5_devx_cmd_create_rqt(p.ctx, rqta);
	free(rqta);
	mlx5_emu_last_cmd_error(p.ctx, &st, &synd);
	TEST_ASSERT(o == NULL && synd == MLX5_EMU_SYND_NET_RQT, "NET_RQT");
	/* TIR with the XOR hash, with tunnel offloads (LRO: emu_net_lro). */
	memset(&ta, 0, sizeof(ta));
	ta.disp_type = MLX5_TIRC_DISP_TYPE_INDIRECT;
	ta.indirect_table = p.rqt->id;
	ta.transport_domain = p.td->id;
	ta.rx_hash_fn = MLX5_RX_HASH_FN_INVERTED_XOR8;
	TEST_ASSERT_NULL(mlx5_devx_cmd_create_tir(p.ctx, &ta), "xor8");
	mlx5_emu_last_cmd_error(p.ctx, &st, &synd);
	TEST_ASSERT_EQUAL(synd, MLX5_EMU_SYND_NET_HASH, "NET_HASH");
	ta.rx_hash_fn = MLX5_RX_HASH_FN_TOEPLITZ;
	ta.tunneled_offload_en = 1;
	TEST_ASSERT_NULL(mlx5_devx_cmd_create_tir(p.ctx, &ta), "tunnel");
	mlx5_emu_last_cmd_error(p.ctx, &st, &synd);
	TEST_ASSERT_EQUAL(synd, MLX5_EMU_SYND_NET_RESERVED, "RESERVED");
	/* MODIFY_SQ naming the wrong current state; RDY -> RDY. */
	memset(&msq, 0, sizeof(msq));
	msq.sq_state = MLX5_SQC_STATE_RST;
	msq.state = MLX5_SQC_STATE_RDY;
	TEST_ASSERT_EQUAL(mlx5_devx_cmd_modify_sq(p.sq.sq, &msq), -EINVAL,
			  "SQ is RDY");
	mlx5_emu_last_cmd_error(p.ctx, &st, &synd);
	TEST_ASSERT(st == CMD_STAT_BAD_RES_STATE &&
		    synd == MLX5_EMU_SYND_NET_STATE, "BAD_RES_STATE");
	/* Destroying what others use: RES_BUSY, EBUSY. */
	TEST_ASSERT_EQUAL(mlx5_glue->devx_obj_destroy(p.scq.cq->obj), EBUSY,
			  "CQ used by the SQ");
	TEST_ASSERT_EQUAL(mlx5_glue->devx_obj_destroy(p.td->obj), EBUSY,
			  "TD used by TIS and TIR");
	TEST_ASSERT_EQUAL(mlx5_glue->devx_obj_destroy(p.rq.rq->obj), EBUSY,
			  "RQ in the RQT");
	TEST_ASSERT_EQUAL(mlx5_glue->devx_obj_destroy(p.rqt->obj), EBUSY,
			  "RQT used by the TIR");
	TEST_ASSERT_EQUAL(mlx5_glue->devx_obj_destroy(p.tis->obj), EBUSY,
			  "TIS used by the SQ");
	TEST_ASSERT_EQUAL(mlx5_glue->dealloc_pd(p.pd), EBUSY, "PD has an MR");
	TEST_ASSERT_NULL(mlx5_glue->reg_mr(p.pd, p.data, 0,
					   IBV_ACCESS_LOCAL_WRITE), "len 0");
	mlx5_emu_stats_get(p.ctx, &s1);
	heap_snap(&a1, &b1);
	TEST_ASSERT(s1.umems == s0.umems && s1.devx_objs == s0.devx_objs &&
		    s1.cqs == s0.cqs && s1.pds == s0.pds, "no object leaked");
	TEST_ASSERT(a1 == a0 && b1 == b0, "no rte_malloc memory leaked");
	return nport_close(&p);
}

/* A device keeps MRs: close refused; whole set-up leaves no trace. */
static int
test_net_close_leaks(void)
{
	struct mlx5_emu_net_stats ns;
	struct ibv_context *ctx;
	uint64_t a0, b0, a1, b1;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct nport p;
	uint8_t buf[64];
	int ret;

	heap_snap(&a0, &b0);
	ret = nport_open(&p, "enet_leak", "enet_wire_leak", mac_a, 0);
	if (ret == TEST_SUCCESS)
		ret = nport_close(&p);
	if (ret != TEST_SUCCESS)
		return ret;
	heap_snap(&a1, &b1);
	TEST_ASSERT(a0 == a1 && b0 == b1, "rte_malloc back to the start");
	ctx = mlx5_emu_open("enet_leak2", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	pd = mlx5_glue->alloc_pd(ctx);
	mr = mlx5_glue->reg_mr(pd, buf, sizeof(buf), 0);
	TEST_ASSERT_NOT_NULL(mr, "mr");
	TEST_ASSERT_EQUAL(mlx5_emu_close(ctx), -EBUSY, "MR and PD remain");
	TEST_ASSERT_SUCCESS(mlx5_glue->dereg_mr(mr), "dereg");
	TEST_ASSERT_SUCCESS(mlx5_glue->dealloc_pd(pd), "pd");
	TEST_ASSERT_SUCCESS(mlx5_emu_net_stats_get(ctx, &ns), "stats");
	TEST_ASSERT(ns.mrs == 0 && ns.engine_running == 0 &&
		    ns.ready_queues == 0, "idle");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	return TEST_SUCCESS;
}

/*
 * A TIR on transport domain 0, the function's own: DPDK 22.11's net/mlx5
 * creates TIRs with the transport_domain it keeps at 0 until its first
 * TX queue starts (mlx5_devx.c mlx5_devx_tir_attr_set()), as on cards; it
 * steers as any TIR does. An unallocated non-zero domain is refused.
 */
static int
test_net_tir_td0(void)
{
	struct mlx5_devx_tir_attr ta;
	struct mlx5_devx_obj *bad;
	struct mlx5_emu_stats s0, s1;
	uint8_t frame[128];
	struct nport p;
	const uint8_t *c;
	uint32_t len;
	int ret;

	ret = nport_open(&p, "enet_td0", "enet_wire_td0", mac_a, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	rq_post(&p, 4);
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(p.tir), "destroy TIR");
	memset(&ta, 0, sizeof(ta));
	ta.disp_type = MLX5_TIRC_DISP_TYPE_INDIRECT;
	ta.indirect_table = p.rqt->id;
	ta.rx_hash_fn = MLX5_RX_HASH_FN_TOEPLITZ;
	ta.transport_domain = 0;
	memcpy(ta.rx_hash_toeplitz_key, ms_key, sizeof(ms_key));
	ta.rx_hash_field_selector_outer.l3_prot_type = MLX5_L3_PROT_TYPE_IPV4;
	ta.rx_hash_field_selector_outer.selected_fields = 0x3;
	p.tir = mlx5_devx_cmd_create_tir(p.ctx, &ta);
	TEST_ASSERT_NOT_NULL(p.tir, "TIR on transport domain 0 refused");
	len = frame_tcp4(frame, mac_a, mac_b, 8, 0, 0);
	send_frame(&p, frame, len, 0);
	mlx5_emu_net_progress();
	c = cqe_next(&p.rcq, &p.rcq_ci);
	TEST_ASSERT_NOT_NULL(c, "frame not steered through the TD 0 TIR");
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(p.ctx, &s0), "stats");
	ta.transport_domain = p.td->id + 0x777;
	bad = mlx5_devx_cmd_create_tir(p.ctx, &ta);
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(p.ctx, &s1), "stats");
	if (bad != NULL)
		mlx5_devx_cmd_destroy(bad);
	TEST_ASSERT_NULL(bad, "TIR on unallocated transport domain %#x",
			 ta.transport_domain);
	TEST_ASSERT_EQUAL(s1.cmd_errors, s0.cmd_errors + 1, "refused once");
	TEST_ASSERT_EQUAL(s1.devx_objs, s0.devx_objs, "no object left");
	return nport_close(&p);
}

static struct unit_test_suite emu_net_objects_suite = {
	.suite_name = "emu_net_objects",
	.setup = emu_net_setup,
	.teardown = emu_net_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_concurrent_destroy),
		TEST_CASE(test_net_verbs_cq),
		TEST_CASE(test_net_bad_commands),
		TEST_CASE(test_net_close_leaks),
		TEST_CASE(test_net_tir_td0),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_net_objects, emu_net_objects_suite);
