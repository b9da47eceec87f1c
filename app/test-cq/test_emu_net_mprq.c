/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_net_mprq": the emulated HCA's striding RQ (multi-packet RQ).
 * The RQ is created with CREATE_RQ mailboxes written here from the
 * mlx5_prm.h layouts; every expected value comes from the PRM layout
 * (struct mlx5_wqe_mprq, struct mlx5_cqe, struct mlx5_mini_cqe8, the
 * MLX5_MPRQ_* masks) and the stride arithmetic, not from the model.
 */

#include "test_emu_net_fixture.h"

#define M_LOG_WQES 2 /* 4 WQEs. */
#define M_WQES (1u << M_LOG_WQES)
#define M_WQE_SZ 32 /* sizeof(struct mlx5_wqe_mprq). */
#define M_LOG_WQE 5
#define M_ENC_NUM 12 /* log_wqe_num_of_strides 12: 2^(12 - 7) strides. */
#define M_STRD_N 32u
#define M_ENC_SZ 3 /* log_wqe_stride_size 3: 64 B << 3. */
#define M_STRD_SZ 512u
#define M_BUF (M_STRD_N * M_STRD_SZ) /* 16 KiB, 2^14. */
#define M_DBR_OFF 4096
#define M_RING_SZ 8192
#define M_LOG_CQ 6
#define CQE_WQE_ID 2 /* struct mlx5_cqe wqe_id. */

/* A port with a striding RQ reached through a direct TIR. */
struct mport {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	uint32_t pdn;
	struct mlx5dv_devx_uar *uar;
	struct mlx5_devx_obj *td, *tir;
	struct mlx5_devx_cq cq;
	uint8_t *ring; /* WQEs, then the doorbell record at M_DBR_OFF. */
	struct mlx5dv_devx_umem *umem;
	struct mlx5dv_devx_obj *rq;
	uint32_t rqn;
	uint8_t *data; /* M_WQES buffers of M_BUF bytes. */
	struct ibv_mr *mr;
	uint16_t pi;
	uint32_t ci;
	char wire[32];
};

/* CREATE_RQ of a striding (or cyclic) RQ on the port's ring umem. */
static void
rq_mailbox(uint32_t *in, const struct mport *p, unsigned int wq_type,
	   unsigned int enc_num, unsigned int enc_sz, unsigned int log_stride)
{
	void *rqc = MLX5_ADDR_OF(create_rq_in, in, ctx);
	void *wq = MLX5_ADDR_OF(rqc, rqc, wq);
	uint64_t dbr;

	memset(in, 0, MLX5_ST_SZ_BYTES(create_rq_in));
	MLX5_SET(create_rq_in, in, opcode, MLX5_CMD_OP_CREATE_RQ);
	MLX5_SET(rqc, rqc, cqn, p->cq.cq->id);
	MLX5_SET(rqc, rqc, state, MLX5_RQC_STATE_RST);
	MLX5_SET(wq, wq, wq_type, wq_type);
	MLX5_SET(wq, wq, pd, p->pdn);
	MLX5_SET(wq, wq, log_wq_stride, log_stride);
	MLX5_SET(wq, wq, log_wq_sz, M_LOG_WQES);
	MLX5_SET(wq, wq, single_wqe_log_num_of_strides, enc_num);
	MLX5_SET(wq, wq, single_stride_log_num_of_bytes, enc_sz);
	MLX5_SET(wq, wq, wq_umem_valid, 1);
	MLX5_SET(wq, wq, dbr_umem_valid, 1);
	MLX5_SET(wq, wq, wq_umem_id, p->umem->umem_id);
	MLX5_SET(wq, wq, dbr_umem_id, p->umem->umem_id);
	/* 64-bit field, big endian (MLX5_SET64 needs MLX5_ASSERT). */
	dbr = rte_cpu_to_be_64(M_DBR_OFF);
	memcpy(MLX5_ADDR_OF(wq, wq, dbr_addr), &dbr, sizeof(dbr));
}

/* MODIFY_RQ cur -> to. */
static int
rq_state(struct mport *p, unsigned int cur, unsigned int to)
{
	uint32_t in[MLX5_ST_SZ_DW(modify_rq_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(modify_rq_out)] = { 0 };
	void *rqc = MLX5_ADDR_OF(modify_rq_in, in, ctx);

	MLX5_SET(modify_rq_in, in, opcode, MLX5_CMD_OP_MODIFY_RQ);
	MLX5_SET(modify_rq_in, in, rq_state, cur);
	MLX5_SET(modify_rq_in, in, rqn, p->rqn);
	MLX5_SET(rqc, rqc, state, to);
	return mlx5_glue->devx_obj_modify(p->rq, in, sizeof(in), out,
					  sizeof(out));
}

/* Post WQE i: next segment zero, one data segment over buffer i. */
static void
mpost(struct mport *p, uint32_t byte_count)
{
	unsigned int i = p->pi & (M_WQES - 1);
	uint8_t *w = p->ring + M_WQE_SZ * i;
	uint32_t be32;
	uint64_t be64;

	memset(w, 0, M_WQE_SZ);
	be32 = rte_cpu_to_be_32(byte_count);
	memcpy(w + 16, &be32, 4);
	be32 = rte_cpu_to_be_32(p->mr->lkey);
	memcpy(w + 20, &be32, 4);
	be64 = rte_cpu_to_be_64((uintptr_t)(p->data + (size_t)M_BUF * i));
	memcpy(w + 24, &be64, 8);
	p->pi++;
	rte_wmb();
	((volatile uint32_t *)(p->ring + M_DBR_OFF))[0] =
		rte_cpu_to_be_32(p->pi);
}

/*
 * Open a port on wire with a CQ (compressed in fmt when comp, the L3/L4
 * format through the ext bit) and a striding RQ in RDY behind a direct
 * TIR; with caps, the device has them and no RQ is made.
 */
static int
mport_open(struct mport *p, const char *name, const struct mlx5_emu_caps *caps,
	   int comp, unsigned int fmt)
{
	uint32_t in[MLX5_ST_SZ_DW(create_rq_in)];
	uint32_t out[MLX5_ST_SZ_DW(create_rq_out)] = { 0 };
	struct mlx5_devx_cq_attr ca;
	struct mlx5_devx_tir_attr ta;
	struct mlx5dv_obj obj;
	struct mlx5dv_pd dvpd;

	memset(p, 0, sizeof(*p));
	snprintf(p->wire, sizeof(p->wire), "w_%s", name);
	p->ctx = mlx5_emu_open(name, caps);
	TEST_ASSERT_NOT_NULL(p->ctx, "open %s", name);
	TEST_ASSERT_SUCCESS(mlx5_emu_port_config(p->ctx, p->wire, mac_b),
			    "port");
	p->pd = mlx5_glue->alloc_pd(p->ctx);
	TEST_ASSERT_NOT_NULL(p->pd, "pd");
	memset(&obj, 0, sizeof(obj));
	obj.pd.in = p->pd;
	obj.pd.out = &dvpd;
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_init_obj(&obj, MLX5DV_OBJ_PD), "pdn");
	p->pdn = dvpd.pdn;
	p->uar = mlx5_glue->devx_alloc_uar(p->ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	TEST_ASSERT_NOT_NULL(p->uar, "uar");
	p->data = rte_zmalloc(NULL, (size_t)M_BUF * M_WQES, 4096);
	TEST_ASSERT_NOT_NULL(p->data, "data");
	p->mr = mlx5_glue->reg_mr(p->pd, p->data, (size_t)M_BUF * M_WQES,
				  IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT_NOT_NULL(p->mr, "mr");
	memset(&ca, 0, sizeof(ca));
	ca.uar_page_id = p->uar->page_id;
	if (comp) {
		ca.cqe_comp_en = 1;
		if (fmt == MLX5_CQE_RESP_FORMAT_L34H_STRIDX)
			ca.mini_cqe_res_format_ext = 1;
		else
			ca.mini_cqe_res_format = fmt;
	}
	TEST_ASSERT_SUCCESS(mlx5_devx_cq_create(p->ctx, &p->cq, M_LOG_CQ, &ca,
						SOCKET_ID_ANY), "cq");
	p->ring = rte_zmalloc(NULL, M_RING_SZ, 4096);
	TEST_ASSERT_NOT_NULL(p->ring, "ring");
	p->umem = mlx5_glue->devx_umem_reg(p->ctx, p->ring, M_RING_SZ,
					   IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT_NOT_NULL(p->umem, "umem");
	p->td = mlx5_devx_cmd_create_td(p->ctx);
	TEST_ASSERT_NOT_NULL(p->td, "td");
	if (caps != NULL)
		return TEST_SUCCESS; /* No RQ: the caller checks refusals. */
	rq_mailbox(in, p, MLX5_WQ_TYPE_CYCLIC_STRIDING_RQ, M_ENC_NUM,
		   M_ENC_SZ, M_LOG_WQE);
	p->rq = mlx5_glue->devx_obj_create(p->ctx, in, sizeof(in), out,
					   sizeof(out));
	TEST_ASSERT_NOT_NULL(p->rq, "striding RQ: status 0x%x synd 0x%x",
			     MLX5_GET(create_rq_out, out, status),
			     MLX5_GET(create_rq_out, out, syndrome));
	p->rqn = MLX5_GET(create_rq_out, out, rqn);
	TEST_ASSERT_SUCCESS(rq_state(p, MLX5_RQC_STATE_RST,
				     MLX5_RQC_STATE_RDY), "rq rdy");
	memset(&ta, 0, sizeof(ta));
	ta.disp_type = MLX5_TIRC_DISP_TYPE_DIRECT;
	ta.inline_rqn = p->rqn;
	ta.transport_domain = p->td->id;
	p->tir = mlx5_devx_cmd_create_tir(p->ctx, &ta);
	TEST_ASSERT_NOT_NULL(p->tir, "tir");
	return TEST_SUCCESS;
}

static int
mport_close(struct mport *p)
{
	struct mlx5_emu_stats st;
	struct mlx5_emu_net_stats ns;

	if (p->tir != NULL)
		TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(p->tir), "tir");
	if (p->rq != NULL)
		TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(p->rq), "rq");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(p->td), "td");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_umem_dereg(p->umem), "umem");
	rte_free(p->ring);
	mlx5_devx_cq_destroy(&p->cq);
	TEST_ASSERT_SUCCESS(mlx5_glue->dereg_mr(p->mr), "dereg");
	rte_free(p->data);
	mlx5_glue->devx_free_uar(p->uar);
	TEST_ASSERT_SUCCESS(mlx5_glue->dealloc_pd(p->pd), "pd");
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(p->ctx, &st), "stats");
	TEST_ASSERT(st.umems == 0 && st.devx_objs == 0 && st.cqs == 0,
		    "device empty");
	TEST_ASSERT_SUCCESS(mlx5_emu_net_stats_get(p->ctx, &ns), "net");
	TEST_ASSERT(ns.rqs == 0 && ns.tirs == 0 && ns.mrs == 0, "no objects");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(p->ctx), "close");
	return TEST_SUCCESS;
}

/* A TCP/IPv4 frame of len bytes (54 of headers) to the port. */
static uint32_t
mframe(uint8_t *f, uint32_t len)
{
	return frame_tcp4(f, mac_b, mac_a, len - 54, 0, 0);
}

static uint32_t
nstrides(uint32_t len)
{
	return (len + M_STRD_SZ - 1) / M_STRD_SZ;
}

/* The next CQE of the port's CQ, or NULL. */
static const uint8_t *
mcqe(struct mport *p)
{
	return cqe_next(&p->cq, &p->ci);
}

/* CQE c: a RESP_SEND for len bytes at stride strd of WQE wqe. */
static int
check_resp(const uint8_t *c, uint32_t len, uint16_t strd, uint16_t wqe)
{
	TEST_ASSERT_NOT_NULL(c, "CQE for %u bytes", len);
	TEST_ASSERT_EQUAL((c[CQE_OP_OWN] >> 4), MLX5_CQE_RESP_SEND, "opcode");
	TEST_ASSERT_EQUAL(rd32(c + CQE_BYTE_CNT),
			  (len | nstrides(len) << MLX5_MPRQ_STRIDE_NUM_SHIFT),
			  "byte_cnt 0x%x for %u", rd32(c + CQE_BYTE_CNT), len);
	TEST_ASSERT_EQUAL(rd16(c + CQE_WQE_CNT), strd, "stride index %u",
			  rd16(c + CQE_WQE_CNT));
	TEST_ASSERT_EQUAL(rd16(c + CQE_WQE_ID), wqe, "wqe_id %u",
			  rd16(c + CQE_WQE_ID));
	return TEST_SUCCESS;
}

/* Capabilities: QUERY_HCA_CAP and mlx5dv_query_device. */
static int
query_caps(struct ibv_context *ctx, uint8_t *strd, uint8_t *ext,
	   uint8_t *cap2)
{
	uint32_t in[MLX5_ST_SZ_DW(query_hca_cap_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_hca_cap_out)] = { 0 };
	void *hc = MLX5_ADDR_OF(query_hca_cap_out, out, capability);

	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod,
		 MLX5_GET_HCA_CAP_OP_MOD_GENERAL_DEVICE | 1);
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_general_cmd(ctx, in, sizeof(in),
							out, sizeof(out)),
			    "QUERY_HCA_CAP");
	*strd = MLX5_GET(cmd_hca_cap, hc, striding_rq);
	*ext = MLX5_GET(cmd_hca_cap, hc, ext_stride_num_range);
	*cap2 = MLX5_GET(cmd_hca_cap, hc, hca_cap_2);
	return TEST_SUCCESS;
}

static int
test_mprq_caps(void)
{
	struct mlx5_emu_caps caps;
	struct mlx5dv_context dv;
	struct ibv_context *ctx;
	uint8_t s, e, c2;
	unsigned int k;

	/* Defaults, then striding off, then the extended range off. */
	for (k = 0; k < 3; k++) {
		mlx5_emu_caps_default(&caps);
		if (k == 1)
			caps.striding_rq = 0;
		if (k == 2)
			caps.ext_stride_num_range = 0;
		ctx = mlx5_emu_open("mprq_caps", &caps);
		TEST_ASSERT_NOT_NULL(ctx, "open");
		TEST_ASSERT_SUCCESS(query_caps(ctx, &s, &e, &c2), "query");
		TEST_ASSERT_EQUAL(s, (k != 1), "striding_rq %u", s);
		TEST_ASSERT_EQUAL(e, (k != 2), "ext_stride_num_range %u", e);
		TEST_ASSERT_EQUAL(c2, 0, "hca_cap_2 not offered");
		memset(&dv, 0, sizeof(dv));
		dv.comp_mask = MLX5DV_CONTEXT_MASK_STRIDING_RQ;
		TEST_ASSERT_SUCCESS(mlx5_glue->dv_query_device(ctx, &dv), "dv");
		TEST_ASSERT(dv.comp_mask & MLX5DV_CONTEXT_MASK_STRIDING_RQ,
			    "mask answered");
		if (k == 1) {
			/* Kernel: caps left zero without striding_rq. */
			TEST_ASSERT(dv.striding_rq_caps.supported_qpts == 0 &&
				    dv.striding_rq_caps
				    .max_single_wqe_log_num_of_strides == 0,
				    "zero caps");
		} else {
			TEST_ASSERT_EQUAL(dv.striding_rq_caps
					  .min_single_stride_log_num_of_bytes,
					  6u, "min stride");
			TEST_ASSERT_EQUAL(dv.striding_rq_caps
					  .max_single_stride_log_num_of_bytes,
					  13u, "max stride");
			TEST_ASSERT_EQUAL(dv.striding_rq_caps
					  .min_single_wqe_log_num_of_strides,
					  (k == 2 ? 9u : 3u), "min strides");
			TEST_ASSERT_EQUAL(dv.striding_rq_caps
					  .max_single_wqe_log_num_of_strides,
					  16u, "max strides");
			TEST_ASSERT_EQUAL(dv.striding_rq_caps.supported_qpts,
					  (1u << IBV_QPT_RAW_PACKET), "qpts");
		}
		TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	}
	return TEST_SUCCESS;
}

/*
 * Delivery: strides, CQE bytes, data placement, the filler, WQE release,
 * out_of_buffer with no WQE posted, and the stride position reset.
 */
static int
test_mprq_deliver(void)
{
	static const uint32_t lens[3] = { 60, 600, 1500 };
	struct mlx5_emu_port_stats ps;
	uint8_t f[2048];
	const uint8_t *c;
	struct mport p;
	uint32_t len, strd = 0, k;
	int ret;

	ret = mport_open(&p, "mprq_dlv", NULL, 0, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	mpost(&p, M_BUF);
	mpost(&p, M_BUF);
	/* 1, 2 and 3 strides from stride 0 of WQE 0. */
	for (k = 0; k < 3; k++) {
		len = mframe(f, lens[k]);
		TEST_ASSERT_EQUAL(len, lens[k], "frame length");
		f[len - 1] = (uint8_t)(0xa0 + k); /* Last payload byte. */
		TEST_ASSERT_EQUAL(mlx5_emu_wire_inject(p.wire, f, len), 1,
				  "inject");
		ret = check_resp(mcqe(&p), len, (uint16_t)strd, 0);
		if (ret != TEST_SUCCESS)
			return ret;
		TEST_ASSERT(memcmp(p.data + strd * M_STRD_SZ, f, len) == 0,
			    "frame %u at buffer + %u * %u", k, strd,
			    M_STRD_SZ);
		strd += nstrides(len);
	}
	TEST_ASSERT_EQUAL(strd, 6u, "1 + 2 + 3 strides");
	/* 1500-byte frames (3 strides) up to stride 30 of 32. */
	len = mframe(f, 1500);
	while (strd + 3 <= M_STRD_N) {
		TEST_ASSERT_EQUAL(mlx5_emu_wire_inject(p.wire, f, len), 1, "");
		ret = check_resp(mcqe(&p), len, (uint16_t)strd, 0);
		if (ret != TEST_SUCCESS)
			return ret;
		strd += 3;
	}
	TEST_ASSERT_EQUAL(strd, 30u, "30 strides used");
	/* Two strides left: a filler for them, then WQE 1 from stride 0. */
	f[len - 1] = 0x5a;
	TEST_ASSERT_EQUAL(mlx5_emu_wire_inject(p.wire, f, len), 1, "");
	c = mcqe(&p);
	TEST_ASSERT_NOT_NULL(c, "filler CQE");
	TEST_ASSERT_EQUAL((c[CQE_OP_OWN] >> 4), MLX5_CQE_RESP_SEND, "opcode");
	TEST_ASSERT_EQUAL(rd32(c + CQE_BYTE_CNT),
			  (MLX5_MPRQ_FILLER_MASK |
			   2u << MLX5_MPRQ_STRIDE_NUM_SHIFT),
			  "filler byte_cnt 0x%x", rd32(c + CQE_BYTE_CNT));
	TEST_ASSERT_EQUAL(rd16(c + CQE_WQE_CNT), 30, "filler stride");
	TEST_ASSERT_EQUAL(rd16(c + CQE_WQE_ID), 0, "filler WQE");
	ret = check_resp(mcqe(&p), len, 0, 1);
	if (ret != TEST_SUCCESS)
		return ret;
	TEST_ASSERT(memcmp(p.data + M_BUF, f, len) == 0, "WQE 1 buffer");
	TEST_ASSERT_EQUAL(p.data[29 * M_STRD_SZ + 1499], 0, "nothing at 29+");
	/* WQE 1: 29 more strides, then 3 one-stride frames: the last one
	 * fills it exactly (stride 31), WQE 1 is released.
	 */
	for (strd = 3; strd < M_STRD_N; strd += k) {
		k = strd + 3 <= M_STRD_N - 3 ? 3 : 1;
		len = mframe(f, k == 3 ? 1500 : 60);
		TEST_ASSERT_EQUAL(mlx5_emu_wire_inject(p.wire, f, len), 1, "");
		ret = check_resp(mcqe(&p), len, (uint16_t)strd, 1);
		if (ret != TEST_SUCCESS)
			return ret;
	}
	TEST_ASSERT_NULL(mcqe(&p), "no more CQEs");
	/* No WQE posted: dropped, out_of_buffer, no CQE. */
	TEST_ASSERT_SUCCESS(mlx5_emu_port_stats_get(p.ctx, &ps), "stats");
	TEST_ASSERT_EQUAL(ps.rx_out_of_buffer, 0u, "no drop yet");
	TEST_ASSERT_EQUAL(mlx5_emu_wire_inject(p.wire, f, len), 1, "");
	TEST_ASSERT_NULL(mcqe(&p), "dropped: no CQE");
	TEST_ASSERT_SUCCESS(mlx5_emu_port_stats_get(p.ctx, &ps), "stats");
	TEST_ASSERT_EQUAL(ps.rx_out_of_buffer, 1u, "out_of_buffer");
	/* WQE 2 posted: used from stride 0. */
	mpost(&p, M_BUF);
	len = mframe(f, 600);
	TEST_ASSERT_EQUAL(mlx5_emu_wire_inject(p.wire, f, len), 1, "");
	ret = check_resp(mcqe(&p), len, 0, 2);
	if (ret != TEST_SUCCESS)
		return ret;
	/* Reset: the device starts again at WQE 0, stride 0. */
	TEST_ASSERT_SUCCESS(rq_state(&p, MLX5_RQC_STATE_RDY,
				     MLX5_RQC_STATE_RST), "rst");
	TEST_ASSERT_SUCCESS(rq_state(&p, MLX5_RQC_STATE_RST,
				     MLX5_RQC_STATE_RDY), "rdy");
	TEST_ASSERT_EQUAL(mlx5_emu_wire_inject(p.wire, f, len), 1, "");
	ret = check_resp(mcqe(&p), len, 0, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	return mport_close(&p);
}

/* A data segment whose byte_count is not the WQE's strides: LOC_LEN_ERR. */
static int
test_mprq_bad_wqe(void)
{
	uint8_t f[2048];
	const uint8_t *c;
	struct mport p;
	uint32_t len;
	int ret;

	ret = mport_open(&p, "mprq_badw", NULL, 0, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	mpost(&p, M_BUF / 2);
	len = mframe(f, 100);
	TEST_ASSERT_EQUAL(mlx5_emu_wire_inject(p.wire, f, len), 1, "inject");
	c = mcqe(&p);
	TEST_ASSERT_NOT_NULL(c, "error CQE");
	TEST_ASSERT_EQUAL((c[CQE_OP_OWN] >> 4), MLX5_CQE_RESP_ERR, "opcode");
	TEST_ASSERT_EQUAL(c[CQE_SYNDROME], 0x01, "LOC_LEN_ERR");
	TEST_ASSERT_EQUAL(rd16(c + CQE_WQE_CNT), 0, "stride 0");
	TEST_ASSERT_EQUAL(rd16(c + CQE_WQE_ID), 0, "WQE 0");
	TEST_ASSERT_EQUAL(p.data[0], 0, "nothing written");
	/* The RQ is in ERR: back to RDY through RST. */
	TEST_ASSERT_SUCCESS(rq_state(&p, MLX5_RQC_STATE_ERR,
				     MLX5_RQC_STATE_RST), "err -> rst");
	return mport_close(&p);
}

/* One refused CREATE_RQ: status, syndrome, errno, nothing left. */
static int
refuse(struct mport *p, const uint32_t *in, uint32_t synd, const char *what)
{
	uint32_t out[MLX5_ST_SZ_DW(create_rq_out)] = { 0 };
	struct mlx5_emu_net_stats n0, n1;
	struct mlx5_emu_stats s0, s1;
	void *o;

	mlx5_emu_stats_get(p->ctx, &s0);
	mlx5_emu_net_stats_get(p->ctx, &n0);
	errno = 0;
	o = mlx5_glue->devx_obj_create(p->ctx, in,
				       MLX5_ST_SZ_BYTES(create_rq_in), out,
				       sizeof(out));
	TEST_ASSERT_NULL(o, "%s: refused", what);
	TEST_ASSERT_EQUAL(errno, EINVAL, "%s: errno %d", what, errno);
	TEST_ASSERT_EQUAL(MLX5_GET(create_rq_out, out, status),
			  CMD_STAT_BAD_PARAM, "%s: BAD_PARAM (0x%x)", what,
			  MLX5_GET(create_rq_out, out, status));
	TEST_ASSERT_EQUAL(MLX5_GET(create_rq_out, out, syndrome), synd,
			  "%s: syndrome 0x%x", what,
			  MLX5_GET(create_rq_out, out, syndrome));
	mlx5_emu_stats_get(p->ctx, &s1);
	mlx5_emu_net_stats_get(p->ctx, &n1);
	TEST_ASSERT(s1.devx_objs == s0.devx_objs && n1.rqs == n0.rqs &&
		    s1.umems == s0.umems, "%s: nothing left", what);
	return TEST_SUCCESS;
}

static int
test_mprq_refusals(void)
{
	uint32_t in[MLX5_ST_SZ_DW(create_rq_in)];
	struct mlx5_emu_caps caps;
	void *wq;
	struct mport p;
	int ret;

#define RQ_WQ(i) MLX5_ADDR_OF(rqc, MLX5_ADDR_OF(create_rq_in, i, ctx), wq)
	ret = mport_open(&p, "mprq_ref", NULL, 0, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	/* log_wqe_num_of_strides 8 and 9 mean nothing. */
	rq_mailbox(in, &p, MLX5_WQ_TYPE_CYCLIC_STRIDING_RQ, 8, 7, M_LOG_WQE);
	ret = refuse(&p, in, MLX5_EMU_SYND_NET_STRIDE_NUM, "strides 8");
	if (ret == TEST_SUCCESS) {
		rq_mailbox(in, &p, MLX5_WQ_TYPE_CYCLIC_STRIDING_RQ, 9, 7,
			   M_LOG_WQE);
		ret = refuse(&p, in, MLX5_EMU_SYND_NET_STRIDE_NUM, "strides 9");
	}
	/* 2^9 strides of 64 B: 2^15 bytes, fine; 2^3 of 2^10: 2^13 < 2^14. */
	if (ret == TEST_SUCCESS) {
		rq_mailbox(in, &p, MLX5_WQ_TYPE_CYCLIC_STRIDING_RQ, 10, 4,
			   M_LOG_WQE);
		ret = refuse(&p, in, MLX5_EMU_SYND_NET_STRIDE_WQE,
			     "WQE below 2^14");
	}
	/* A 16-byte WQE cannot hold struct mlx5_wqe_mprq. */
	if (ret == TEST_SUCCESS) {
		rq_mailbox(in, &p, MLX5_WQ_TYPE_CYCLIC_STRIDING_RQ, M_ENC_NUM,
			   M_ENC_SZ, 4);
		ret = refuse(&p, in, MLX5_EMU_SYND_NET_WQ_SIZE,
			     "log_wq_stride 4");
	}
	/* two_byte_shift_en: not modelled. */
	if (ret == TEST_SUCCESS) {
		rq_mailbox(in, &p, MLX5_WQ_TYPE_CYCLIC_STRIDING_RQ, M_ENC_NUM,
			   M_ENC_SZ, M_LOG_WQE);
		wq = RQ_WQ(in);
		MLX5_SET(wq, wq, two_byte_shift_en, 1);
		ret = refuse(&p, in, MLX5_EMU_SYND_NET_RESERVED,
			     "two_byte_shift_en");
	}
	/* Stride fields on a cyclic RQ. */
	if (ret == TEST_SUCCESS) {
		rq_mailbox(in, &p, MLX5_WQ_TYPE_CYCLIC, M_ENC_NUM, 0, 4);
		ret = refuse(&p, in, MLX5_EMU_SYND_NET_RESERVED,
			     "strides on a cyclic RQ");
	}
	if (ret != TEST_SUCCESS)
		return ret;
	/* The smallest WQE the rule allows: 2^8 strides of 64 B. */
	rq_mailbox(in, &p, MLX5_WQ_TYPE_CYCLIC_STRIDING_RQ, 15, 0, M_LOG_WQE);
	{
		uint32_t out[MLX5_ST_SZ_DW(create_rq_out)] = { 0 };
		void *o = mlx5_glue->devx_obj_create(p.ctx, in, sizeof(in),
						     out, sizeof(out));

		TEST_ASSERT_NOT_NULL(o, "2^8 x 64 B accepted (synd 0x%x)",
				     MLX5_GET(create_rq_out, out, syndrome));
		TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(o), "destroy");
	}
	ret = mport_close(&p);
	if (ret != TEST_SUCCESS)
		return ret;
	/* Without ext_stride_num_range: 10..15 refused, 0..7 accepted. */
	mlx5_emu_caps_default(&caps);
	caps.ext_stride_num_range = 0;
	ret = mport_open(&p, "mprq_ref2", &caps, 0, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	rq_mailbox(in, &p, MLX5_WQ_TYPE_CYCLIC_STRIDING_RQ, 15, 7, M_LOG_WQE);
	ret = refuse(&p, in, MLX5_EMU_SYND_NET_STRIDE_NUM,
		     "2^8 strides without ext_stride_num_range");
	if (ret != TEST_SUCCESS)
		return ret;
	ret = mport_close(&p);
	if (ret != TEST_SUCCESS)
		return ret;
	/* Without striding_rq: any striding RQ refused. */
	caps.ext_stride_num_range = 1;
	caps.striding_rq = 0;
	ret = mport_open(&p, "mprq_ref3", &caps, 0, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	rq_mailbox(in, &p, MLX5_WQ_TYPE_CYCLIC_STRIDING_RQ, M_ENC_NUM,
		   M_ENC_SZ, M_LOG_WQE);
	ret = refuse(&p, in, MLX5_EMU_SYND_NET_WQ_TYPE, "no striding_rq cap");
	if (ret != TEST_SUCCESS)
		return ret;
#undef RQ_WQ
	return mport_close(&p);
}

/*
 * Compression on a striding RQ: 12 frames of 1054 bytes (3 strides) in
 * one pass. Ten fit WQE 0 (strides 0..29) and form one session; the
 * eleventh needs a filler (strides 30, 31: a regular CQE), then frames
 * 11 and 12 open a second session in WQE 1 (a session never spans two
 * WQEs: wqe_id is not in the mini). Basic layout: title at slot 0 with
 * byte_cnt 10, minis at slots 1 and 8, filler at 10, title at 11 with
 * byte_cnt 2, minis at 12. Mini bytes (struct mlx5_mini_cqe8): CSUM_STRIDX
 * checksum 0..1, stride 2..3, byte_cnt 4..7; FTAG_STRIDX flow tag 0..1 and
 * 4, stride 2..3, length 5..7 (no stride count); L34H_STRIDX header-type
 * byte 0 (hdr_type_etc bits 7:0), stride 2..3, byte_cnt 4..7.
 */
static int
mprq_comp(unsigned int fmt)
{
	static uint8_t f[12][1100];
	const void *fr[12];
	uint32_t lens[12], k, i, bc;
	const uint8_t *t, *m, *c;
	struct mport p;
	uint16_t csum;
	char name[32];
	int ret;

	snprintf(name, sizeof(name), "mprq_z%u", fmt);
	ret = mport_open(&p, name, NULL, 1, fmt);
	if (ret != TEST_SUCCESS)
		return ret;
	mpost(&p, M_BUF);
	mpost(&p, M_BUF);
	for (k = 0; k < 12; k++) {
		lens[k] = mframe(f[k], 1054);
		fr[k] = f[k];
	}
	csum = frame_csum(f[0], lens[0]);
	bc = 1054u | 3u << MLX5_MPRQ_STRIDE_NUM_SHIFT;
	TEST_ASSERT_EQUAL(mlx5_emu_wire_inject_burst(p.wire, fr, lens, 12), 1,
			  "burst");
	t = test_dpdk_cqe(&p.cq, 0);
	TEST_ASSERT_EQUAL(t[CQE_OP_OWN], (MLX5_CQE_RESP_SEND << 4 | 3 << 2),
			  "title op_own 0x%02x", t[CQE_OP_OWN]);
	TEST_ASSERT_EQUAL(rd32(t + CQE_BYTE_CNT), 10u, "session of 10");
	TEST_ASSERT_EQUAL(rd16(t + CQE_WQE_CNT), 0, "title stride");
	TEST_ASSERT_EQUAL(rd16(t + CQE_WQE_ID), 0, "title wqe_id");
	for (i = 0; i < 10; i++) {
		m = test_dpdk_cqe(&p.cq, i < 8 ? 1 : 8) + 8 * (i % 8);
		TEST_ASSERT_EQUAL(rd16(m + 2), (3 * i), "mini %u stride %u", i,
				  rd16(m + 2));
		switch (fmt) {
		case MLX5_CQE_RESP_FORMAT_CSUM_STRIDX:
			TEST_ASSERT_EQUAL(rd16(m), csum, "mini %u csum", i);
			TEST_ASSERT_EQUAL(rd32(m + 4), bc, "mini %u byte_cnt",
					  i);
			break;
		case MLX5_CQE_RESP_FORMAT_FTAG_STRIDX:
			TEST_ASSERT(rd16(m) == 0 && m[4] == 0, "no flow tag");
			TEST_ASSERT_EQUAL(rd32(m + 4), 1054u,
					  "mini %u: the length only (0x%x)", i,
					  rd32(m + 4));
			break;
		default:
			/* IPv4 (2 << 2), TCP without ACK (1 << 4). */
			TEST_ASSERT_EQUAL(m[0], 0x18, "mini %u header", i);
			TEST_ASSERT_EQUAL(m[1], 0, "reserved");
			TEST_ASSERT_EQUAL(rd32(m + 4), bc, "mini %u byte_cnt",
					  i);
			break;
		}
	}
	/* Unused minis of the second array are zero. */
	m = test_dpdk_cqe(&p.cq, 8);
	for (i = 16; i < 56; i++)
		TEST_ASSERT_EQUAL(m[i], 0, "unused mini byte %u", i);
	c = test_dpdk_cqe(&p.cq, 10);
	TEST_ASSERT_EQUAL(c[CQE_OP_OWN], (MLX5_CQE_RESP_SEND << 4),
			  "filler: regular CQE (0x%02x)", c[CQE_OP_OWN]);
	TEST_ASSERT_EQUAL(rd32(c + CQE_BYTE_CNT),
			  (MLX5_MPRQ_FILLER_MASK |
			   2u << MLX5_MPRQ_STRIDE_NUM_SHIFT),
			  "filler byte_cnt");
	TEST_ASSERT_EQUAL(rd16(c + CQE_WQE_CNT), 30, "filler stride");
	TEST_ASSERT_EQUAL(rd16(c + CQE_WQE_ID), 0, "filler WQE");
	t = test_dpdk_cqe(&p.cq, 11);
	TEST_ASSERT_EQUAL(t[CQE_OP_OWN], (MLX5_CQE_RESP_SEND << 4 | 3 << 2),
			  "second title 0x%02x", t[CQE_OP_OWN]);
	TEST_ASSERT_EQUAL(rd32(t + CQE_BYTE_CNT), 2u, "session of 2");
	TEST_ASSERT_EQUAL(rd16(t + CQE_WQE_ID), 1, "second wqe_id");
	TEST_ASSERT_EQUAL(rd16(t + CQE_WQE_CNT), 0, "second title stride");
	m = test_dpdk_cqe(&p.cq, 12);
	TEST_ASSERT_EQUAL(rd16(m + 2), 0, "frame 11 stride");
	TEST_ASSERT_EQUAL(rd16(m + 8 + 2), 3, "frame 12 stride");
	c = test_dpdk_cqe(&p.cq, 13);
	TEST_ASSERT_EQUAL((c[CQE_OP_OWN] >> 4), MLX5_CQE_INVALID,
			  "nothing after");
	for (k = 0; k < 10; k++)
		TEST_ASSERT(memcmp(p.data + 3 * k * M_STRD_SZ, f[k], 1054) ==
			    0, "frame %u data", k);
	TEST_ASSERT(memcmp(p.data + M_BUF + 3 * M_STRD_SZ, f[11], 1054) == 0,
		    "frame 12 data");
	return mport_close(&p);
}

static int
test_mprq_comp_csum(void)
{
	return mprq_comp(MLX5_CQE_RESP_FORMAT_CSUM_STRIDX);
}

static int
test_mprq_comp_ftag(void)
{
	return mprq_comp(MLX5_CQE_RESP_FORMAT_FTAG_STRIDX);
}

static int
test_mprq_comp_l34h(void)
{
	return mprq_comp(MLX5_CQE_RESP_FORMAT_L34H_STRIDX);
}

static struct unit_test_suite emu_net_mprq_suite = {
	.suite_name = "emu_net_mprq",
	.setup = emu_net_setup,
	.teardown = emu_net_teardown,
	.unit_test_cases = {
		TEST_CASE(test_mprq_caps),
		TEST_CASE(test_mprq_deliver),
		TEST_CASE(test_mprq_bad_wqe),
		TEST_CASE(test_mprq_refusals),
		TEST_CASE(test_mprq_comp_csum),
		TEST_CASE(test_mprq_comp_ftag),
		TEST_CASE(test_mprq_comp_l34h),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_net_mprq, emu_net_mprq_suite);
