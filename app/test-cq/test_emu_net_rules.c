/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_net_rules": the refusals of the emulated HCA's network
 * commands that no other suite drives (rules tables of the "Network model"
 * chapter of doc/guides/emulated_hca.rst). Each case builds the command
 * mailbox from the PRM layout (mlx5_prm.h), checks that it is accepted,
 * changes one field and checks the exact status, syndrome and errno.
 */

#include "test_emu_net_fixture.h"

#define CMD_STAT_BAD_OP 0x02
#define CMD_STAT_RES_BUSY 0x06
#define CMD_STAT_LIM 0x08
#define CMD_STAT_BAD_INP_LEN 0x50
#define CMD_STAT_BAD_OUTP_LEN 0x51

#define R_UMEM_SZ 16384
#define R_DBR_OFF 8192
#define R_LOG_SQ 6 /* 64 WQEBBs of 64 B: 4 KiB. */
#define R_LOG_RQ 5 /* 32 WQEs of 16 B. */

/* The fixture's port and a umem for the rings of the queues made here. */
struct rfix {
	struct nport p;
	uint8_t *buf;
	struct mlx5dv_devx_umem *umem;
};

/* MLX5_GET casts to a writable pointer: the const dropped once here. */
static uint8_t
out_status(const uint32_t *out)
{
	return MLX5_GET(general_obj_out_cmd_hdr, (void *)(uintptr_t)out,
			status);
}

static uint32_t
out_synd(const uint32_t *out)
{
	return MLX5_GET(general_obj_out_cmd_hdr, (void *)(uintptr_t)out,
			syndrome);
}

/* The errno of a status (kernel cmd_status_to_err()). */
static int
st_errno(uint8_t st)
{
	return st == CMD_STAT_BAD_INP_LEN || st == CMD_STAT_BAD_OUTP_LEN ?
	       EIO : st == CMD_STAT_LIM ? ENOMEM : EINVAL;
}

/* A create that must fail with status st, syndrome synd and errno err. */
static int
create_refused(struct rfix *f, const void *in, size_t inlen, size_t outlen,
	       uint8_t st, uint32_t synd, int err, const char *what)
{
	uint32_t out[16] = { 0 };
	void *o;

	errno = 0;
	o = mlx5_glue->devx_obj_create(f->p.ctx, in, inlen, out, outlen);
	if (o != NULL) {
		mlx5_glue->devx_obj_destroy(o);
		TEST_ASSERT(0, "%s: accepted", what);
	}
	TEST_ASSERT_EQUAL(errno, err, "%s: errno %d", what, errno);
	TEST_ASSERT_EQUAL(out_status(out), st, "%s: status 0x%x", what,
			  out_status(out));
	TEST_ASSERT_EQUAL(out_synd(out), synd, "%s: syndrome 0x%x", what,
			  out_synd(out));
	return TEST_SUCCESS;
}

/* A create that must succeed; the object is destroyed unless kept. */
static int
create_ok(struct rfix *f, const void *in, size_t inlen, void **keep,
	  const char *what)
{
	uint32_t out[16] = { 0 };
	void *o;

	o = mlx5_glue->devx_obj_create(f->p.ctx, in, inlen, out, sizeof(out));
	TEST_ASSERT_NOT_NULL(o, "%s: refused, status 0x%x syndrome 0x%x",
			     what, out_status(out), out_synd(out));
	if (keep != NULL) {
		*keep = o;
		return TEST_SUCCESS;
	}
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(o), "%s: destroy",
			    what);
	return TEST_SUCCESS;
}

static void
set_be64(void *p, uint64_t v)
{
	uint64_t be = rte_cpu_to_be_64(v);

	/* 64-bit fields, big endian (MLX5_SET64 needs MLX5_ASSERT). */
	memcpy(p, &be, sizeof(be));
}

static int
rfix_open(struct rfix *f, const char *name)
{
	char wire[32];
	int ret;

	memset(f, 0, sizeof(*f));
	snprintf(wire, sizeof(wire), "w_%s", name);
	ret = nport_open(&f->p, name, wire, mac_a, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	f->buf = rte_zmalloc(NULL, R_UMEM_SZ, 4096);
	TEST_ASSERT_NOT_NULL(f->buf, "ring buffer");
	f->umem = mlx5_glue->devx_umem_reg(f->p.ctx, f->buf, R_UMEM_SZ,
					   IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT_NOT_NULL(f->umem, "umem");
	return TEST_SUCCESS;
}

static int
rfix_close(struct rfix *f)
{
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_umem_dereg(f->umem), "umem");
	rte_free(f->buf);
	return nport_close(&f->p);
}

/* The WQ context of a cyclic queue in the fixture's umem. */
static void
wq_fill(const struct rfix *f, void *wq, unsigned int log_stride,
	unsigned int log_sz)
{
	MLX5_SET(wq, wq, wq_type, MLX5_WQ_TYPE_CYCLIC);
	MLX5_SET(wq, wq, pd, f->p.pdn);
	MLX5_SET(wq, wq, log_wq_stride, log_stride);
	MLX5_SET(wq, wq, log_wq_sz, log_sz);
	MLX5_SET(wq, wq, wq_umem_valid, 1);
	MLX5_SET(wq, wq, dbr_umem_valid, 1);
	MLX5_SET(wq, wq, wq_umem_id, f->umem->umem_id);
	MLX5_SET(wq, wq, dbr_umem_id, f->umem->umem_id);
	set_be64(MLX5_ADDR_OF(wq, wq, dbr_addr), R_DBR_OFF);
}

#define SQC(in) MLX5_ADDR_OF(create_sq_in, in, ctx)
#define SQ_WQ(in) MLX5_ADDR_OF(sqc, SQC(in), wq)
#define RQC(in) MLX5_ADDR_OF(create_rq_in, in, ctx)
#define RQ_WQ(in) MLX5_ADDR_OF(rqc, RQC(in), wq)
#define TISC(in) MLX5_ADDR_OF(create_tis_in, in, ctx)
#define RQTC(in) MLX5_ADDR_OF(create_rqt_in, in, rqt_context)
#define TIRC(in) MLX5_ADDR_OF(create_tir_in, in, ctx)
#define TIR_OUTER(in) MLX5_ADDR_OF(tirc, TIRC(in), \
				   rx_hash_field_selector_outer)
#define TIR_INNER(in) MLX5_ADDR_OF(tirc, TIRC(in), \
				   rx_hash_field_selector_inner)

/* One field of the mailbox "in" of the function using them. */
#define SET_SQ(fld, v) MLX5_SET(sqc, SQC(in), fld, v)
#define SET_SQW(fld, v) MLX5_SET(wq, SQ_WQ(in), fld, v)
#define SET_RQ(fld, v) MLX5_SET(rqc, RQC(in), fld, v)
#define SET_RQW(fld, v) MLX5_SET(wq, RQ_WQ(in), fld, v)
#define SET_TIS(fld, v) MLX5_SET(tisc, TISC(in), fld, v)
#define SET_RQT(fld, v) MLX5_SET(rqtc, RQTC(in), fld, v)
#define SET_TIR(fld, v) MLX5_SET(tirc, TIRC(in), fld, v)
#define SET64_SQW(fld, v) set_be64(MLX5_ADDR_OF(wq, SQ_WQ(in), fld), v)
#define SET64_RQW(fld, v) set_be64(MLX5_ADDR_OF(wq, RQ_WQ(in), fld), v)

static void
sq_mb(const struct rfix *f, uint32_t *in)
{
	memset(in, 0, MLX5_ST_SZ_BYTES(create_sq_in));
	MLX5_SET(create_sq_in, in, opcode, MLX5_CMD_OP_CREATE_SQ);
	SET_SQ(cqn, f->p.scq.cq->id);
	SET_SQ(state, MLX5_SQC_STATE_RST);
	SET_SQ(tis_lst_sz, 1);
	SET_SQ(tis_num_0, f->p.tis->id);
	SET_SQ(ts_format, nport_ts_format);
	wq_fill(f, SQ_WQ(in), 6, R_LOG_SQ);
	SET_SQW(uar_page, f->p.uar->page_id);
}

static void
rq_mb(const struct rfix *f, uint32_t *in)
{
	memset(in, 0, MLX5_ST_SZ_BYTES(create_rq_in));
	MLX5_SET(create_rq_in, in, opcode, MLX5_CMD_OP_CREATE_RQ);
	SET_RQ(cqn, f->p.rcq.cq->id);
	SET_RQ(state, MLX5_RQC_STATE_RST);
	SET_RQ(ts_format, nport_ts_format);
	wq_fill(f, RQ_WQ(in), 4, R_LOG_RQ);
}

/*
 * In a test with a mailbox "in", a fixture "f" and a label "end": build
 * the valid mailbox (bld), apply one change (chg) and expect the answer;
 * or expect the valid mailbox to be accepted. Nothing more once ret
 * says a case failed.
 */
#define REFUSE(bld, chg, inlen, outlen, st, synd, what) do { \
	if (ret == TEST_SUCCESS) { \
		bld; \
		chg; \
		ret = create_refused(&f, in, inlen, outlen, st, synd, \
				     st_errno(st), what); \
	} \
} while (0)
#define S(x) MLX5_EMU_SYND_NET_##x
/* The same with the test's BLD, its mailbox length n and 16 B out. */
#define BAD(chg, st, synd, what) \
	REFUSE(BLD, chg, n, 16, st, S(synd), what)
#define BADP(chg, synd, what) BAD(chg, CMD_STAT_BAD_PARAM, synd, what)
#define BADR(chg, synd, what) BAD(chg, CMD_STAT_BAD_RES, synd, what)
#define ACCEPT(bld, what) do { \
	if (ret == TEST_SUCCESS) { \
		bld; \
		ret = create_ok(&f, in, sizeof(in), NULL, what); \
	} \
} while (0)

static int
rules_end(struct rfix *f, int ret)
{
	if (ret == TEST_SUCCESS)
		return rfix_close(f);
	rfix_close(f);
	return ret;
}

static void
td_mb(uint32_t *in)
{
	memset(in, 0, MLX5_ST_SZ_BYTES(alloc_transport_domain_in));
	MLX5_SET(alloc_transport_domain_in, in, opcode,
		 MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN);
}

static void
tis_mb(const struct rfix *f, uint32_t *in)
{
	memset(in, 0, MLX5_ST_SZ_BYTES(create_tis_in));
	MLX5_SET(create_tis_in, in, opcode, MLX5_CMD_OP_CREATE_TIS);
	SET_TIS(transport_domain, f->p.td->id);
}

/* ALLOC_TRANSPORT_DOMAIN and CREATE_TIS. */
static int
test_rules_td_tis(void)
{
	uint32_t in[MLX5_ST_SZ_DW(create_tis_in)];
	const size_t td_in = MLX5_ST_SZ_BYTES(alloc_transport_domain_in);
	const size_t n = sizeof(in);
	struct rfix f;
	int ret;

#define BLD tis_mb(&f, in)
	ret = rfix_open(&f, "rules_tis");
	if (ret != TEST_SUCCESS)
		return ret;
	ACCEPT(td_mb(in), "TD");
	REFUSE(td_mb(in), (void)0, td_in - 4, 16, CMD_STAT_BAD_INP_LEN,
	       MLX5_EMU_SYND_INLEN, "TD inlen 12");
	REFUSE(td_mb(in), (void)0, td_in, 8, CMD_STAT_BAD_OUTP_LEN,
	       MLX5_EMU_SYND_OUTLEN, "TD outlen 8");
	REFUSE(td_mb(in), MLX5_SET(alloc_transport_domain_in, in, op_mod, 1),
	       td_in, 16, CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_BAD_OP_MOD,
	       "TD op_mod 1");
	ACCEPT(BLD, "TIS");
	REFUSE(BLD, (void)0, sizeof(in) - 4, 16, CMD_STAT_BAD_INP_LEN,
	       MLX5_EMU_SYND_INLEN, "TIS inlen short");
	BADP(MLX5_SET(create_tis_in, in, op_mod, 1), RESERVED, "TIS op_mod 1");
	BADP(SET_TIS(strict_lag_tx_port_affinity, 1), RESERVED,
	     "TIS strict_lag_tx_port_affinity");
	BADP(SET_TIS(lag_tx_port_affinity, 1), RESERVED,
	     "TIS lag_tx_port_affinity 1");
	BADP(SET_TIS(underlay_qpn, 0x55), RESERVED, "TIS underlay_qpn");
	BADR(SET_TIS(transport_domain, 0x7777), TD,
	     "TIS transport_domain unknown");
#undef BLD
	return rules_end(&f, ret);
}

/* CREATE_SQ, with the WQ checks it shares with CREATE_RQ. */
static int
test_rules_sq(void)
{
	uint32_t in[MLX5_ST_SZ_DW(create_sq_in)];
	const size_t n = sizeof(in);
	struct rfix f;
	int ret;

#define BLD sq_mb(&f, in)
	ret = rfix_open(&f, "rules_sq");
	if (ret != TEST_SUCCESS)
		return ret;
	ACCEPT(BLD, "SQ");
	REFUSE(BLD, (void)0, n - 4, 16, CMD_STAT_BAD_INP_LEN,
	       MLX5_EMU_SYND_INLEN, "SQ inlen short");
	REFUSE(BLD, (void)0, n, 8, CMD_STAT_BAD_OUTP_LEN, MLX5_EMU_SYND_OUTLEN,
	       "SQ outlen 8");
	BADP(MLX5_SET(create_sq_in, in, op_mod, 1), RESERVED, "SQ op_mod 1");
	BADP(SET_SQ(hairpin, 1), RESERVED, "SQ hairpin");
	BADP(SET_SQ(allow_swp, 1), RESERVED, "SQ allow_swp");
	BADP(SET_SQ(allow_multi_pkt_send_wqe, 1), RESERVED, "SQ MPW");
	BADP(SET_SQ(packet_pacing_rate_limit_index, 1), RESERVED, "SQ pacing");
	BADP(SET_SQ(min_wqe_inline_mode, MLX5_INLINE_MODE_IP), RESERVED,
	     "SQ min_wqe_inline_mode IP");
	BADP(SET_SQ(state, MLX5_SQC_STATE_ERR), STATE, "SQ state ERR");
	BADR(SET_SQ(cqn, 0x7777), CQ, "SQ cqn unknown");
	BADR(SET_SQ(tis_lst_sz, 2), TIS, "SQ tis_lst_sz 2");
	BADR(SET_SQ(tis_lst_sz, 0), TIS, "SQ tis_lst_sz 0");
	/* The WQ context (emu_wq_setup(), shared with CREATE_RQ). */
	BADP(SET_SQW(wq_type, MLX5_WQ_TYPE_LINKED_LIST), WQ_TYPE,
	     "SQ linked list");
	BADP(SET_SQW(wq_type, MLX5_WQ_TYPE_CYCLIC_STRIDING_RQ), WQ_TYPE,
	     "SQ striding");
	BADP(SET_SQW(wq_signature, 1), RESERVED, "wq_signature");
	BADP(SET_SQW(end_padding_mode, 1), RESERVED, "end_padding_mode");
	BADP(SET_SQW(page_offset, 1), RESERVED, "page_offset 1");
	BADR(SET_SQW(pd, f.p.pdn + 1000), PD, "pd unknown");
	BADP(SET_SQW(log_wq_stride, 5), WQ_SIZE, "SQ log_wq_stride 5");
	BADP(SET_SQW(log_wq_sz, 17), WQ_SIZE, "log_wq_sz 17");
	BADP(SET_SQW(wq_umem_valid, 0), UMEM, "wq_umem_valid 0");
	BADP(SET_SQW(dbr_umem_valid, 0), UMEM, "dbr_umem_valid 0");
	BADR(SET_SQW(wq_umem_id, f.umem->umem_id + 1000), UMEM,
	     "wq_umem_id unknown");
	BADR(SET_SQW(dbr_umem_id, f.umem->umem_id + 1000), UMEM,
	     "dbr_umem_id unknown");
	BADP(SET64_SQW(wq_umem_offset, R_UMEM_SZ - 2048), UMEM_RANGE,
	     "ring past umem");
	BADP(SET64_SQW(dbr_addr, R_DBR_OFF + 4), DBR,
	     "dbr_addr not 8 B aligned");
	BADP(SET64_SQW(dbr_addr, R_UMEM_SZ), DBR, "dbr past umem");
	BADR(SET_SQW(uar_page, 0x7777), UAR, "uar_page unknown");
#undef BLD
	return rules_end(&f, ret);
}

/* CREATE_RQ (cyclic; striding: emu_net_mprq). */
static int
test_rules_rq(void)
{
	uint32_t in[MLX5_ST_SZ_DW(create_rq_in)];
	const size_t n = sizeof(in);
	struct rfix f;
	int ret;

#define BLD rq_mb(&f, in)
	ret = rfix_open(&f, "rules_rq");
	if (ret != TEST_SUCCESS)
		return ret;
	ACCEPT(BLD, "RQ");
	REFUSE(BLD, (void)0, n - 4, 16, CMD_STAT_BAD_INP_LEN,
	       MLX5_EMU_SYND_INLEN, "RQ inlen short");
	BADP(MLX5_SET(create_rq_in, in, op_mod, 1), RESERVED, "RQ op_mod 1");
	BADP(SET_RQ(mem_rq_type, MLX5_RQC_MEM_RQ_TYPE_MEMORY_RQ_RMP), RESERVED,
	     "RQ mem_rq_type RMP");
	BADP(SET_RQ(scatter_fcs, 1), RESERVED, "RQ scatter_fcs");
	BADP(SET_RQ(delay_drop_en, 1), RESERVED, "RQ delay_drop_en");
	BADP(SET_RQ(hairpin, 1), RESERVED, "RQ hairpin");
	BADP(SET_RQ(state, MLX5_RQC_STATE_RDY), STATE, "RQ state RDY");
	BADR(SET_RQ(cqn, 0x7777), CQ, "RQ cqn unknown");
	BADP(SET_RQ(counter_set_id, 0x77), QCNT, "RQ counter_set_id unknown");
	BADP(SET_RQW(log_wq_stride, 3), WQ_SIZE, "RQ log_wq_stride 3");
	BADP(SET_RQW(log_wq_stride, 11), WQ_SIZE, "RQ log_wq_stride 11");
	BADP(SET_RQW(hw_counter, 1), RESERVED, "RQ hw_counter");
	BADP(SET64_RQW(dbr_addr, R_DBR_OFF + 2), DBR, "RQ dbr_addr + 2");
#undef BLD
	return rules_end(&f, ret);
}

/*
 * MODIFY_SQ or MODIFY_RQ (op) of queue qn, cur -> to, with mask; len bytes
 * sent; status st (0: accepted) and syndrome synd expected. The two
 * mailboxes have the same layout (checked below); nothing when ret says
 * a case failed.
 */
static int
q_mod(int ret, void *o, uint16_t op, uint32_t qn, unsigned int cur,
	unsigned int to, uint64_t mask, size_t len, uint8_t st, uint32_t synd,
	const char *what)
{
	uint32_t in[MLX5_ST_SZ_DW(modify_sq_in) + MLX5_ST_SZ_DW(modify_rq_in)];
	uint32_t out[16] = { 0 };
	int rc;

	if (ret != TEST_SUCCESS)
		return ret;
	TEST_ASSERT(__mlx5_bit_off(modify_sq_in, sqn) ==
		    __mlx5_bit_off(modify_rq_in, rqn) &&
		    __mlx5_bit_off(modify_sq_in, sq_state) ==
		    __mlx5_bit_off(modify_rq_in, rq_state) &&
		    __mlx5_bit_off(modify_sq_in, modify_bitmask) ==
		    __mlx5_bit_off(modify_rq_in, modify_bitmask) &&
		    __mlx5_bit_off(modify_sq_in, ctx) ==
		    __mlx5_bit_off(modify_rq_in, ctx) &&
		    __mlx5_bit_off(sqc, state) == __mlx5_bit_off(rqc, state),
		    "MODIFY_SQ and MODIFY_RQ layouts differ");
	memset(in, 0, sizeof(in));
	MLX5_SET(modify_sq_in, in, opcode, op);
	MLX5_SET(modify_sq_in, in, sq_state, cur);
	MLX5_SET(modify_sq_in, in, sqn, qn);
	set_be64(MLX5_ADDR_OF(modify_sq_in, in, modify_bitmask), mask);
	MLX5_SET(sqc, MLX5_ADDR_OF(modify_sq_in, in, ctx), state, to);
	rc = mlx5_glue->devx_obj_modify(o, in, len, out, sizeof(out));
	TEST_ASSERT_EQUAL(rc, (st == 0 ? 0 : st_errno(st)), "%s: returned %d",
			  what, rc);
	TEST_ASSERT(out_status(out) == st && out_synd(out) == synd,
		    "%s: status 0x%x syndrome 0x%x", what, out_status(out),
		    out_synd(out));
	return TEST_SUCCESS;
}

/* MODIFY_SQ and MODIFY_RQ on queues made here (RST). */
static int
test_rules_modify(void)
{
	uint32_t in[MLX5_ST_SZ_DW(create_rq_in) + MLX5_ST_SZ_DW(create_sq_in)];
	uint32_t out[MLX5_ST_SZ_DW(create_sq_out)];
	const size_t sn = MLX5_ST_SZ_BYTES(modify_sq_in);
	const size_t rn = MLX5_ST_SZ_BYTES(modify_rq_in);
	const uint16_t msq = MLX5_CMD_OP_MODIFY_SQ, mrq = MLX5_CMD_OP_MODIFY_RQ;
	/* RQ states have the SQ's numbers. */
	const unsigned int rst = MLX5_SQC_STATE_RST, rdy = MLX5_SQC_STATE_RDY;
	const unsigned int er = MLX5_SQC_STATE_ERR;
	const uint8_t bp = CMD_STAT_BAD_PARAM, bs = CMD_STAT_BAD_RES_STATE;
	void *sq = NULL, *rq = NULL;
	uint32_t sqn, rqn;
	struct rfix f;
	int ret;

	ret = rfix_open(&f, "rules_mod");
	if (ret != TEST_SUCCESS)
		return ret;
	memset(out, 0, sizeof(out));
	sq_mb(&f, in);
	sq = mlx5_glue->devx_obj_create(f.p.ctx, in,
					MLX5_ST_SZ_BYTES(create_sq_in), out,
					sizeof(out));
	TEST_ASSERT_NOT_NULL(sq, "SQ");
	sqn = MLX5_GET(create_sq_out, out, sqn);
	rq_mb(&f, in);
	/* The RQ's ring and record after the SQ's. */
	SET64_RQW(wq_umem_offset, 4096);
	SET64_RQW(dbr_addr, R_DBR_OFF + 64);
	memset(out, 0, sizeof(out));
	rq = mlx5_glue->devx_obj_create(f.p.ctx, in,
					MLX5_ST_SZ_BYTES(create_rq_in), out,
					sizeof(out));
	if (rq == NULL) {
		ret = TEST_FAILED;
		goto end;
	}
	rqn = MLX5_GET(create_rq_out, out, rqn);
	ret = q_mod(ret, sq, msq, sqn, rst, rdy, 0, sn - 4,
		    CMD_STAT_BAD_INP_LEN, MLX5_EMU_SYND_INLEN,
		    "MODIFY_SQ inlen short");
	ret = q_mod(ret, sq, msq, sqn + 1, rst, rdy, 0, sn, bp,
		    MLX5_EMU_SYND_OBJ_ID, "MODIFY_SQ sqn of another SQ");
	ret = q_mod(ret, sq, msq, sqn, rst, rdy, 1, sn, bp, S(RESERVED),
		    "MODIFY_SQ bitmask 1");
	ret = q_mod(ret, sq, msq, sqn, rdy, rst, 0, sn, bs, S(STATE),
		    "MODIFY_SQ sq_state RDY of an RST SQ");
	ret = q_mod(ret, sq, msq, sqn, rst, er, 0, sn, bp, S(STATE),
		    "MODIFY_SQ RST -> ERR");
	ret = q_mod(ret, sq, msq, sqn, rst, rdy, 0, sn, 0, 0,
		    "MODIFY_SQ RST -> RDY");
	ret = q_mod(ret, sq, msq, sqn, rdy, er, 0, sn, 0, 0,
		    "MODIFY_SQ RDY -> ERR");
	ret = q_mod(ret, sq, msq, sqn, er, rdy, 0, sn, bp, S(STATE),
		    "MODIFY_SQ ERR -> RDY");
	ret = q_mod(ret, sq, msq, sqn, er, rst, 0, sn, 0, 0,
		    "MODIFY_SQ ERR -> RST");
	ret = q_mod(ret, rq, mrq, rqn + 1, rst, rdy, 0, rn, bp,
		    MLX5_EMU_SYND_OBJ_ID, "MODIFY_RQ rqn of another RQ");
	ret = q_mod(ret, rq, mrq, rqn, rst, rdy,
		    MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_SCATTER_FCS, rn, bp,
		    S(RESERVED), "MODIFY_RQ bitmask SCATTER_FCS");
	ret = q_mod(ret, rq, mrq, rqn, rdy, rst, 0, rn, bs, S(STATE),
		    "MODIFY_RQ rq_state RDY of an RST RQ");
	ret = q_mod(ret, rq, mrq, rqn, rst, er, 0, rn, bp, S(STATE),
		    "MODIFY_RQ RST -> ERR");
	ret = q_mod(ret, rq, mrq, rqn, rst, rst,
		    MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_VSD, rn, 0, 0,
		    "MODIFY_RQ vsd without a transition");
	ret = q_mod(ret, rq, mrq, rqn, rst, rdy, 0, rn, 0, 0,
		    "MODIFY_RQ RST -> RDY");
	ret = q_mod(ret, rq, mrq, rqn, rdy, rst, 0, rn, 0, 0,
		    "MODIFY_RQ RDY -> RST");
end:
	if (rq != NULL)
		TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(rq), "RQ");
	if (sq != NULL)
		TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(sq), "SQ");
	return rules_end(&f, ret);
}

static void
rqt_mb(const struct rfix *f, uint32_t *in)
{
	memset(in, 0, MLX5_ST_SZ_BYTES(create_rqt_in) + 4 * 4);
	MLX5_SET(create_rqt_in, in, opcode, MLX5_CMD_OP_CREATE_RQT);
	SET_RQT(rqt_max_size, 4);
	SET_RQT(rqt_actual_size, 2);
	SET_RQT(rq_num[0], f->p.rq.rq->id);
	SET_RQT(rq_num[1], f->p.rq.rq->id);
}

/* CREATE_RQT. */
static int
test_rules_rqt(void)
{
	uint32_t in[MLX5_ST_SZ_DW(create_rqt_in) + 4];
	const size_t n = MLX5_ST_SZ_BYTES(create_rqt_in) + 2 * 4;
	struct rfix f;
	int ret;

#define BLD rqt_mb(&f, in)
	ret = rfix_open(&f, "rules_rqt");
	if (ret != TEST_SUCCESS)
		return ret;
	ACCEPT(BLD, "RQT");
	REFUSE(BLD, (void)0, n - 4, 16, CMD_STAT_BAD_INP_LEN,
	       MLX5_EMU_SYND_INLEN, "RQT mailbox without entry 1");
	BADP(MLX5_SET(create_rqt_in, in, op_mod, 1), RESERVED, "RQT op_mod 1");
	BADP(SET_RQT(list_q_type, MLX5_INLINE_Q_TYPE_VIRTQ), RESERVED,
	     "RQT list_q_type VIRTQ");
	BADP(SET_RQT(rqt_actual_size, 0), RQT, "RQT actual 0");
	BADP(SET_RQT(rqt_max_size, 1), RQT, "RQT actual > max");
	BADP(SET_RQT(rqt_max_size, 4096), RQT, "RQT max 4096");
	BAD(SET_RQT(rq_num[1], 0x7777), CMD_STAT_BAD_RES, RQ,
	    "RQT entry unknown");
#undef BLD
	return rules_end(&f, ret);
}

static void
tir_mb(const struct rfix *f, uint32_t *in)
{
	memset(in, 0, MLX5_ST_SZ_BYTES(create_tir_in));
	MLX5_SET(create_tir_in, in, opcode, MLX5_CMD_OP_CREATE_TIR);
	SET_TIR(disp_type, MLX5_TIRC_DISP_TYPE_INDIRECT);
	SET_TIR(indirect_table, f->p.rqt->id);
	SET_TIR(transport_domain, f->p.td->id);
	SET_TIR(rx_hash_fn, MLX5_RX_HASH_FN_TOEPLITZ);
	MLX5_SET(rx_hash_field_select, TIR_OUTER(in), selected_fields,
		 ALL_FIELDS);
}

/* CREATE_TIR (LRO fields: emu_net_lro). */
static int
test_rules_tir(void)
{
	uint32_t in[MLX5_ST_SZ_DW(create_tir_in)];
	const size_t n = sizeof(in);
	struct rfix f;
	int ret;

#define BLD tir_mb(&f, in)
	ret = rfix_open(&f, "rules_tir");
	if (ret != TEST_SUCCESS)
		return ret;
	ACCEPT(BLD, "TIR");
	REFUSE(BLD, (void)0, n - 4, 16, CMD_STAT_BAD_INP_LEN,
	       MLX5_EMU_SYND_INLEN, "TIR inlen short");
	BADP(MLX5_SET(create_tir_in, in, op_mod, 1), RESERVED, "TIR op_mod 1");
	BADP(SET_TIR(rx_hash_symmetric, 1), RESERVED, "TIR rx_hash_symmetric");
	BADP(MLX5_SET(rx_hash_field_select, TIR_INNER(in), selected_fields, 1),
	     RESERVED, "TIR inner selected_fields");
	BADP(MLX5_SET(rx_hash_field_select, TIR_OUTER(in), selected_fields,
		      ALL_FIELDS | 1u << 4), HASH, "TIR IPSEC_SPI field");
	BADP(SET_TIR(rx_hash_fn, 3), HASH, "TIR rx_hash_fn 3");
	BADR(SET_TIR(indirect_table, 0x7777), RQT,
	     "TIR indirect_table unknown");
	BADR(SET_TIR(disp_type, MLX5_TIRC_DISP_TYPE_DIRECT);
	     SET_TIR(inline_rqn, 0x7777), RQ, "TIR inline_rqn unknown");
	BADP(SET_TIR(disp_type, 2), RESERVED, "TIR disp_type 2");
	BADR(SET_TIR(transport_domain, 0x7777), TD,
	     "TIR transport_domain unknown");
	ACCEPT(tir_mb(&f, in);
	       SET_TIR(disp_type, MLX5_TIRC_DISP_TYPE_DIRECT);
	       SET_TIR(inline_rqn, f.p.rq.rq->id);
	       SET_TIR(rx_hash_fn, MLX5_RX_HASH_FN_NONE);
	       MLX5_SET(rx_hash_field_select, TIR_OUTER(in), selected_fields,
			0), "direct TIR");
#undef BLD
	return rules_end(&f, ret);
}

/* One destroy refused: EBUSY, RES_BUSY and NET_BUSY as the last error. */
static int
destroy_busy(int ret, struct rfix *f, void *o, const char *what)
{
	uint32_t synd = 0;
	uint8_t st = 0;

	if (ret != TEST_SUCCESS)
		return ret;
	TEST_ASSERT_EQUAL(mlx5_glue->devx_obj_destroy(o), EBUSY, "%s", what);
	TEST_ASSERT_SUCCESS(mlx5_emu_last_cmd_error(f->p.ctx, &st, &synd),
			    "%s: last error", what);
	TEST_ASSERT(st == CMD_STAT_RES_BUSY && synd == MLX5_EMU_SYND_NET_BUSY,
		    "%s: status 0x%x syndrome 0x%x", what, st, synd);
	return TEST_SUCCESS;
}

/* Destroy of objects others use; MODIFY_RQT and QUERY of a TIR. */
static int
test_rules_busy(void)
{
	uint32_t in[MLX5_ST_SZ_DW(modify_rqt_in) + 2];
	uint32_t out[16] = { 0 };
	struct rfix f;
	int ret;

	ret = rfix_open(&f, "rules_busy");
	if (ret != TEST_SUCCESS)
		return ret;
	ret = destroy_busy(ret, &f, f.p.td->obj, "TD used by the TIS and TIR");
	ret = destroy_busy(ret, &f, f.p.tis->obj, "TIS used by the SQ");
	ret = destroy_busy(ret, &f, f.p.rq.rq->obj, "RQ in the RQT");
	ret = destroy_busy(ret, &f, f.p.rqt->obj, "RQT used by the TIR");
	ret = destroy_busy(ret, &f, f.p.scq.cq->obj, "CQ used by the SQ");
	if (ret != TEST_SUCCESS)
		goto end;
	/* MODIFY_RQT is not modelled: BAD_OP. */
	memset(in, 0, sizeof(in));
	MLX5_SET(modify_rqt_in, in, opcode, MLX5_CMD_OP_MODIFY_RQT);
	MLX5_SET(modify_rqt_in, in, rqtn, f.p.rqt->id);
	ret = mlx5_glue->devx_obj_modify(f.p.rqt->obj, in, sizeof(in), out,
					 sizeof(out));
	TEST_ASSERT_EQUAL(ret, EINVAL, "MODIFY_RQT: %d", ret);
	TEST_ASSERT(out_status(out) == CMD_STAT_BAD_OP &&
		    out_synd(out) == MLX5_EMU_SYND_BAD_OPCODE,
		    "MODIFY_RQT: status 0x%x syndrome 0x%x", out_status(out),
		    out_synd(out));
	ret = TEST_SUCCESS;
end:
	return rules_end(&f, ret);
}

static void
qc_mb(uint32_t *in)
{
	memset(in, 0, MLX5_ST_SZ_BYTES(alloc_q_counter_in));
	MLX5_SET(alloc_q_counter_in, in, opcode, MLX5_CMD_OP_ALLOC_Q_COUNTER);
}

static int
qc_query(int ret, void *o, uint32_t id, unsigned int op_mod, size_t inlen,
	 uint8_t st, uint32_t synd, const char *what)
{
	uint32_t in[MLX5_ST_SZ_DW(query_q_counter_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_q_counter_out)];
	int rc;

	if (ret != TEST_SUCCESS)
		return ret;
	memset(out, 0xff, sizeof(out));
	MLX5_SET(query_q_counter_in, in, opcode, MLX5_CMD_OP_QUERY_Q_COUNTER);
	MLX5_SET(query_q_counter_in, in, op_mod, op_mod);
	MLX5_SET(query_q_counter_in, in, counter_set_id, id);
	rc = mlx5_glue->devx_obj_query(o, in, inlen, out, sizeof(out));
	TEST_ASSERT_EQUAL(rc, (st == 0 ? 0 : st_errno(st)), "%s: returned %d",
			  what, rc);
	TEST_ASSERT(out_status(out) == st && out_synd(out) == synd,
		    "%s: status 0x%x syndrome 0x%x", what, out_status(out),
		    out_synd(out));
	return TEST_SUCCESS;
}

/* All 255 counter sets allocated: the next one is refused (LIM). */
static int
qc_all(struct rfix *f)
{
	uint32_t in[MLX5_ST_SZ_DW(alloc_q_counter_in)];
	static void *qcs[255];
	unsigned int i, n = 0;
	int ret = TEST_SUCCESS;

	qc_mb(in);
	for (i = 0; i < RTE_DIM(qcs); i++) {
		ret = create_ok(f, in, sizeof(in), &qcs[i], "counter set");
		if (ret != TEST_SUCCESS)
			break;
		n++;
	}
	if (ret == TEST_SUCCESS)
		ret = create_refused(f, in, sizeof(in), 16, CMD_STAT_LIM,
				     MLX5_EMU_SYND_NET_QCNT, ENOMEM,
				     "ALLOC_Q_COUNTER 256th set");
	for (i = 0; i < n; i++)
		TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(qcs[i]),
				    "counter set %u", i);
	return ret;
}

/* ALLOC_Q_COUNTER, QUERY_Q_COUNTER, and the destroy of a set in use. */
static int
test_rules_qcnt(void)
{
	uint32_t in[MLX5_ST_SZ_DW(create_rq_in)];
	uint32_t out[MLX5_ST_SZ_DW(query_q_counter_out)];
	const size_t n = MLX5_ST_SZ_BYTES(alloc_q_counter_in);
	const size_t qn = MLX5_ST_SZ_BYTES(query_q_counter_in);
	void *qc = NULL, *rq = NULL;
	uint32_t id;
	struct rfix f;
	int ret;

#define BLD qc_mb(in)
	ret = rfix_open(&f, "rules_qc");
	if (ret != TEST_SUCCESS)
		return ret;
	REFUSE(BLD, (void)0, n - 4, 16, CMD_STAT_BAD_INP_LEN,
	       MLX5_EMU_SYND_INLEN, "ALLOC_Q_COUNTER inlen 12");
	REFUSE(BLD, (void)0, n, 8, CMD_STAT_BAD_OUTP_LEN, MLX5_EMU_SYND_OUTLEN,
	       "ALLOC_Q_COUNTER outlen 8");
	REFUSE(BLD, MLX5_SET(alloc_q_counter_in, in, op_mod, 1), n, 16,
	       CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_BAD_OP_MOD,
	       "ALLOC_Q_COUNTER op_mod 1");
	if (ret == TEST_SUCCESS)
		ret = qc_all(&f);
	if (ret != TEST_SUCCESS)
		goto end;
	qc_mb(in);
	memset(out, 0, sizeof(out));
	qc = mlx5_glue->devx_obj_create(f.p.ctx, in, n, out, 16);
	TEST_ASSERT_NOT_NULL(qc, "ALLOC_Q_COUNTER");
	id = MLX5_GET(alloc_q_counter_out, out, counter_set_id);
	ret = qc_query(ret, qc, id, 0, qn, 0, 0, "QUERY_Q_COUNTER");
	ret = qc_query(ret, qc, id, 1, qn, CMD_STAT_BAD_PARAM,
		       MLX5_EMU_SYND_BAD_OP_MOD, "QUERY_Q_COUNTER op_mod 1");
	ret = qc_query(ret, qc, id, 0, 16, CMD_STAT_BAD_INP_LEN,
		       MLX5_EMU_SYND_INLEN, "QUERY_Q_COUNTER inlen 16");
	ret = qc_query(ret, qc, id + 1, 0, qn, CMD_STAT_BAD_PARAM,
		       MLX5_EMU_SYND_OBJ_ID, "QUERY_Q_COUNTER another set");
	/* An RQ counting in the set: the set is busy until it goes. */
	rq_mb(&f, in);
	SET_RQ(counter_set_id, id);
	if (ret == TEST_SUCCESS)
		ret = create_ok(&f, in, sizeof(in), &rq, "RQ counting in it");
	ret = destroy_busy(ret, &f, qc, "Q counter used by an RQ");
end:
	if (rq != NULL)
		TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(rq), "RQ");
	if (qc != NULL)
		TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(qc), "qcnt");
#undef BLD
	return rules_end(&f, ret);
}

/* Take the fixture's SQ from ERR back to RDY, its counters at 0. */
static int
sq_recover(struct nport *p)
{
	struct mlx5_devx_modify_sq_attr msq;

	memset(&msq, 0, sizeof(msq));
	msq.sq_state = MLX5_SQC_STATE_ERR;
	msq.state = MLX5_SQC_STATE_RST;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_sq(p->sq.sq, &msq), "ERR>RST");
	msq.sq_state = MLX5_SQC_STATE_RST;
	msq.state = MLX5_SQC_STATE_RDY;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_sq(p->sq.sq, &msq), "RST>RDY");
	p->sq_pi = 0;
	p->sq.db_rec[MLX5_SND_DBR] = 0;
	return TEST_SUCCESS;
}

/* Post w; it must complete with a requester error CQE of syndrome synd
 * (whatever CQ_UPDATE says) and leave the SQ in ERR.
 */
static int
wqe_refused(struct nport *p, int ret, const uint8_t *w, uint8_t synd,
	    const char *what)
{
	uint16_t idx = p->sq_pi;
	const uint8_t *c;

	if (ret != TEST_SUCCESS)
		return ret;
	sq_ring(p, w);
	mlx5_emu_net_progress();
	c = cqe_next(&p->scq, &p->scq_ci);
	TEST_ASSERT_NOT_NULL(c, "%s: error CQE", what);
	TEST_ASSERT(c[CQE_OP_OWN] >> 4 == MLX5_CQE_REQ_ERR &&
		    c[CQE_SYNDROME] == synd,
		    "%s: opcode %u syndrome 0x%02x", what, c[CQE_OP_OWN] >> 4,
		    c[CQE_SYNDROME]);
	TEST_ASSERT_EQUAL(rd16(c + CQE_WQE_CNT), idx, "%s: wqe_counter",
			  what);
	return sq_recover(p);
}

static void
wr32(uint8_t *p, uint32_t v)
{
	uint32_t be = rte_cpu_to_be_32(v);

	memcpy(p, &be, 4);
}

/* A pointer data segment at d. */
static void
dseg(uint8_t *d, uint32_t bc, uint32_t lkey, const void *addr)
{
	uint64_t be = rte_cpu_to_be_64((uintptr_t)addr);

	wr32(d, bc);
	wr32(d + 4, lkey);
	memcpy(d + 8, &be, 8);
}

/* A WQE of ds segments: SEND, 18 bytes of inline headers, no data. */
static uint8_t *
wqe_l2(struct nport *p, uint32_t ds, const uint8_t *frame)
{
	uint8_t *w = sq_ctrl(p, ds, 0);

	put16(w + 16 + 12, 18); /* eseg.inline_hdr_sz */
	memcpy(w + 16 + 14, frame, 2);
	memcpy(w + 32, frame + 2, 16);
	return w;
}

/* The send WQE checks of the progress engine (mlx5_emu_sq.c). */
static int
test_rules_send_wqe(void)
{
	uint8_t frame[128];
	const uint8_t *c;
	struct nport p;
	uint8_t *w;
	int ret;

	ret = nport_open(&p, "rules_wqe", "w_rules_wqe", mac_a, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	/* Accepted: a SEND with a pointer segment in the MR. */
	send_frame(&p, frame, frame_tcp4(frame, mac_b, mac_a, 30, 0, 0), 0);
	mlx5_emu_net_progress();
	c = cqe_next(&p.scq, &p.scq_ci);
	TEST_ASSERT(c != NULL && c[CQE_OP_OWN] >> 4 == MLX5_CQE_REQ,
		    "good SEND completes");
	/* Control segment: ds 0, another QPN, another index, an opcode. */
	w = sq_ctrl(&p, 0, 0);
	ret = wqe_refused(&p, ret, w, 0x02, "ds 0");
	w = wqe_l2(&p, 3, frame);
	wr32(w + 4, (uint32_t)(p.sq.sq->id + 1) << 8 | 3);
	ret = wqe_refused(&p, ret, w, 0x02, "qpn of another SQ");
	w = wqe_l2(&p, 3, frame);
	wr32(w, 1u << 8 | MLX5_OPCODE_SEND);
	ret = wqe_refused(&p, ret, w, 0x02, "wqe index 1 at 0");
	w = wqe_l2(&p, 3, frame);
	w[3] = MLX5_OPCODE_RDMA_WRITE;
	ret = wqe_refused(&p, ret, w, 0x02, "opcode RDMA_WRITE");
	/* Ethernet segment and inline parts. */
	w = sq_ctrl(&p, 1, 0);
	ret = wqe_refused(&p, ret, w, 0x02, "no Ethernet segment");
	w = wqe_l2(&p, 2, frame);
	ret = wqe_refused(&p, ret, w, 0x02, "inline headers past the WQE");
	w = wqe_l2(&p, 4, frame);
	wr32(w + 48, MLX5_ETH_WQE_DATA_INLINE | 64);
	ret = wqe_refused(&p, ret, w, 0x02, "inline data past the WQE");
	/* Lengths: pointer data past 16384 bytes; a frame below 14. */
	w = wqe_l2(&p, 4, frame);
	dseg(w + 48, 16384, p.mr->lkey, p.data);
	ret = wqe_refused(&p, ret, w, 0x01, "frame of 18 + 16384 bytes");
	w = sq_ctrl(&p, 3, 0);
	dseg(w + 32, 10, p.mr->lkey, p.data);
	ret = wqe_refused(&p, ret, w, 0x01, "frame of 10 bytes");
	/* Protection: an lkey the device does not know. */
	w = wqe_l2(&p, 4, frame);
	dseg(w + 48, 16, p.mr->lkey ^ 0x100, p.data);
	ret = wqe_refused(&p, ret, w, 0x04, "unknown lkey");
	if (ret == TEST_SUCCESS)
		return nport_close(&p);
	nport_close(&p);
	return ret;
}

/* A general command answered with status st (0: accepted), synd. */
static int
gen_cmd(int ret, struct ibv_context *ctx, const void *in, size_t inlen,
	size_t outlen, uint8_t st, uint32_t synd, const char *what)
{
	uint32_t out[MLX5_ST_SZ_DW(query_nic_vport_context_out)];
	int rc;

	if (ret != TEST_SUCCESS)
		return ret;
	memset(out, 0xff, sizeof(out));
	rc = mlx5_glue->devx_general_cmd(ctx, in, inlen, out, outlen);
	TEST_ASSERT_EQUAL(rc, (st == 0 ? 0 : st_errno(st)), "%s: returned %d",
			  what, rc);
	TEST_ASSERT(out_status(out) == st && out_synd(out) == synd,
		    "%s: status 0x%x syndrome 0x%x", what, out_status(out),
		    out_synd(out));
	return TEST_SUCCESS;
}

/* MODIFY_NIC_VPORT_CONTEXT (fixture) answered with st, synd. */
static int
vmod(int ret, struct ibv_context *ctx, uint32_t select, const uint8_t *c256,
	uint8_t st, uint32_t synd, const char *what)
{
	uint32_t s_out;
	uint8_t st_out;
	int rc;

	if (ret != TEST_SUCCESS)
		return ret;
	rc = vport_modify(ctx, select, c256, NULL, 0, &st_out, &s_out);
	TEST_ASSERT(rc == (st == 0 ? 0 : st_errno(st)) && st_out == st &&
		    s_out == synd, "%s: %d status 0x%x syndrome 0x%x", what,
		    rc, st_out, s_out);
	return TEST_SUCCESS;
}

/* QUERY_VPORT_STATE, QUERY_NIC_VPORT_CONTEXT, MODIFY_NIC_VPORT_CONTEXT. */
static int
test_rules_vport(void)
{
	uint32_t nin[MLX5_ST_SZ_DW(query_nic_vport_context_in)] = { 0 };
	const size_t nout = MLX5_ST_SZ_BYTES(query_nic_vport_context_out);
	const uint8_t mc[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 };
	const uint8_t bp = CMD_STAT_BAD_PARAM;
	uint8_t qin[16] = { 0 }, ctx256[256] = { 0 };
	struct nport p;
	int ret;

	ret = nport_open(&p, "rules_vport", "w_rules_vport", mac_a, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	/* QUERY_VPORT_STATE (mailboxes of the kernel's mlx5_ifc.h). */
	put16(qin, 0x750);
	ret = gen_cmd(ret, p.ctx, qin, 16, 16, 0, 0, "QUERY_VPORT_STATE");
	ret = gen_cmd(ret, p.ctx, qin, 12, 16, CMD_STAT_BAD_INP_LEN,
		      MLX5_EMU_SYND_INLEN, "QUERY_VPORT_STATE inlen 12");
	ret = gen_cmd(ret, p.ctx, qin, 16, 8, CMD_STAT_BAD_OUTP_LEN,
		      MLX5_EMU_SYND_OUTLEN, "QUERY_VPORT_STATE outlen 8");
	qin[11] = 1; /* vport_number 1 */
	ret = gen_cmd(ret, p.ctx, qin, 16, 16, bp, S(VPORT),
		      "QUERY_VPORT_STATE vport_number 1");
	qin[11] = 0;
	qin[7] = 1; /* op_mod 1 */
	ret = gen_cmd(ret, p.ctx, qin, 16, 16, bp, MLX5_EMU_SYND_BAD_OP_MOD,
		      "QUERY_VPORT_STATE op_mod 1");
	/* QUERY_NIC_VPORT_CONTEXT: allowed_list_type 0, 1, 2 only. */
	MLX5_SET(query_nic_vport_context_in, nin, opcode,
		 MLX5_CMD_OP_QUERY_NIC_VPORT_CONTEXT);
	ret = gen_cmd(ret, p.ctx, nin, sizeof(nin), nout, 0, 0,
		      "QUERY_NIC_VPORT_CONTEXT");
	MLX5_SET(query_nic_vport_context_in, nin, allowed_list_type, 3);
	ret = gen_cmd(ret, p.ctx, nin, sizeof(nin), nout, bp, S(MAC_LIST),
		      "QUERY_NIC_VPORT_CONTEXT list type 3");
	/* MODIFY: permanent_address (select bit 3) unicast, multicast; an
	 * address list (bit 2) of 65 unicast addresses.
	 */
	memcpy(ctx256 + 0xf4 + 2, mac_c, 6);
	ret = vmod(ret, p.ctx, 1u << 3, ctx256, 0, 0,
		   "unicast permanent address");
	memcpy(ctx256 + 0xf4 + 2, mc, 6);
	ret = vmod(ret, p.ctx, 1u << 3, ctx256, bp, S(MAC_LIST),
		   "multicast permanent address");
	memset(ctx256, 0, sizeof(ctx256));
	ctx256[0xf0 + 3] = 65; /* allowed_list_size 65, type UC */
	ret = vmod(ret, p.ctx, 1u << 2, ctx256, bp, S(MAC_LIST),
		   "65 unicast addresses");
	if (ret == TEST_SUCCESS)
		return nport_close(&p);
	nport_close(&p);
	return ret;
}

static struct unit_test_suite emu_net_rules_suite = {
	.suite_name = "emu_net_rules",
	.setup = emu_net_setup,
	.teardown = emu_net_teardown,
	.unit_test_cases = {
		TEST_CASE(test_rules_td_tis),
		TEST_CASE(test_rules_sq),
		TEST_CASE(test_rules_rq),
		TEST_CASE(test_rules_modify),
		TEST_CASE(test_rules_rqt),
		TEST_CASE(test_rules_tir),
		TEST_CASE(test_rules_busy),
		TEST_CASE(test_rules_qcnt),
		TEST_CASE(test_rules_send_wqe),
		TEST_CASE(test_rules_vport),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_net_rules, emu_net_rules_suite);
