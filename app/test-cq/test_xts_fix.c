/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/* The crypto QP fixture (test_xts_fix.h). */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_malloc.h>

#include <mlx5_prm.h>
#include <mlx5_devx_cmds.h>

#include "mlx5_emu.h"
#include "test.h"
#include "test_dpdk_cq.h"
#include "test_xts_fix.h"
#include "test_xts_vectors.h"

static void
put32(uint8_t *p, uint32_t v)
{
	rte_be32_t be = rte_cpu_to_be_32(v);

	memcpy(p, &be, 4);
}

void
put64(uint8_t *p, uint64_t v)
{
	rte_be64_t be = rte_cpu_to_be_64(v);

	memcpy(p, &be, 8);
}

int
qp_cmd(struct xfix *f, uint16_t opcode)
{
	uint32_t in[MLX5_ST_SZ_DW(init2rtr_qp_in)] = {0};
	uint32_t out[MLX5_ST_SZ_DW(init2rtr_qp_out)] = {0};
	void *qpc = MLX5_ADDR_OF(init2rtr_qp_in, in, qpc);

	MLX5_SET(init2rtr_qp_in, in, opcode, opcode);
	MLX5_SET(init2rtr_qp_in, in, qpn, f->qpn);
	if (opcode == MLX5_CMD_OP_INIT2RTR_QP)
		MLX5_SET(qpc, qpc, remote_qpn, f->qpn);
	return mlx5_glue->devx_obj_modify(f->qp, in, sizeof(in), out,
					  sizeof(out));
}

/* RST -> INIT -> RTR -> RTS, software counter and doorbell at 0. */
int
qp_to_rts(struct xfix *f)
{
	memset(f->ring, 0, WQEBB << LOG_SQ);
	f->dbr[0] = 0;
	f->dbr[1] = 0;
	f->pi = 0;
	TEST_ASSERT_SUCCESS(qp_cmd(f, MLX5_CMD_OP_RST2INIT_QP), "rst2init");
	TEST_ASSERT_SUCCESS(qp_cmd(f, MLX5_CMD_OP_INIT2RTR_QP), "init2rtr");
	TEST_ASSERT_SUCCESS(qp_cmd(f, MLX5_CMD_OP_RTR2RTS_QP), "rtr2rts");
	return TEST_SUCCESS;
}

void
qp_in_fill(const struct xfix *f, uint32_t *in)
{
	void *qpc = MLX5_ADDR_OF(create_qp_in, in, qpc);

	memset(in, 0, MLX5_ST_SZ_BYTES(create_qp_in));
	MLX5_SET(create_qp_in, in, opcode, MLX5_CMD_OP_CREATE_QP);
	MLX5_SET(qpc, qpc, st, MLX5_QP_ST_RC);
	MLX5_SET(qpc, qpc, pd, f->pdn);
	MLX5_SET(qpc, qpc, pm_state, MLX5_QP_PM_MIGRATED);
	MLX5_SET(qpc, qpc, uar_page, f->uar->page_id);
	MLX5_SET(qpc, qpc, cqn_snd, f->cq.cq->id);
	MLX5_SET(qpc, qpc, log_sq_size, LOG_SQ);
	MLX5_SET(qpc, qpc, rq_type, MLX5_ZERO_LEN_RQ);
	MLX5_SET(qpc, qpc, dbr_umem_valid, 1);
	MLX5_SET(qpc, qpc, dbr_umem_id, f->umem->umem_id);
	put64((uint8_t *)MLX5_ADDR_OF(qpc, qpc, dbr_addr), WQEBB << LOG_SQ);
	MLX5_SET(create_qp_in, in, wq_umem_id, f->umem->umem_id);
	MLX5_SET(create_qp_in, in, wq_umem_valid, 1);
}

static int
qp_create(struct xfix *f)
{
	uint32_t in[MLX5_ST_SZ_DW(create_qp_in)];
	uint32_t out[MLX5_ST_SZ_DW(create_qp_out)] = {0};
	size_t ring = WQEBB << LOG_SQ;

	f->ring = rte_zmalloc(NULL, ring + 64, 4096);
	TEST_ASSERT_NOT_NULL(f->ring, "ring");
	f->dbr = (volatile uint32_t *)(f->ring + ring);
	f->umem = mlx5_glue->devx_umem_reg(f->ctx, f->ring, ring + 64,
					   IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT_NOT_NULL(f->umem, "umem");
	qp_in_fill(f, in);
	f->qp = mlx5_glue->devx_obj_create(f->ctx, in, sizeof(in), out,
					   sizeof(out));
	TEST_ASSERT_NOT_NULL(f->qp, "qp: status 0x%x syndrome 0x%x",
			     MLX5_GET(create_qp_out, out, status),
			     MLX5_GET(create_qp_out, out, syndrome));
	f->qpn = MLX5_GET(create_qp_out, out, qpn);
	return qp_to_rts(f);
}

void
mkey_in_fill(const struct xfix *f, uint32_t *in)
{
	void *mkc = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);

	memset(in, 0, MKEY_IN_LEN);
	MLX5_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	MLX5_SET(create_mkey_in, in, translations_octword_actual_size, 4);
	MLX5_SET(mkc, mkc, access_mode_1_0, MLX5_MKC_ACCESS_MODE_KLM);
	MLX5_SET(mkc, mkc, lw, 1);
	MLX5_SET(mkc, mkc, lr, 1);
	MLX5_SET(mkc, mkc, rw, 1);
	MLX5_SET(mkc, mkc, rr, 1);
	MLX5_SET(mkc, mkc, umr_en, 1);
	MLX5_SET(mkc, mkc, qpn, 0xffffff);
	MLX5_SET(mkc, mkc, pd, f->pdn);
	MLX5_SET(mkc, mkc, mkey_7_0, 0x5a);
	MLX5_SET(mkc, mkc, translations_octword_size, 4);
	MLX5_SET(mkc, mkc, crypto_en, MLX5_MKEY_CRYPTO_ENABLED);
	MLX5_SET(mkc, mkc, bsf_en, 1);
	MLX5_SET(mkc, mkc, bsf_octword_size, 4);
}

/* Indirect crypto mkey with room for 4 KLMs. */
static int
mkey_create(struct xfix *f)
{
	uint32_t in[MKEY_IN_LEN / 4];
	uint32_t out[MLX5_ST_SZ_DW(create_mkey_out)] = {0};

	mkey_in_fill(f, in);
	f->mkey = mlx5_glue->devx_obj_create(f->ctx, in, sizeof(in), out,
					     sizeof(out));
	TEST_ASSERT_NOT_NULL(f->mkey, "mkey: syndrome 0x%x",
			     MLX5_GET(create_mkey_out, out, syndrome));
	f->mkey_key = MLX5_GET(create_mkey_out, out, mkey_index) << 8 | 0x5a;
	return TEST_SUCCESS;
}

int
pd_open(struct ibv_context *ctx, struct ibv_pd **pd, uint32_t *pdn)
{
	struct mlx5dv_pd dvpd;
	struct mlx5dv_obj obj;

	*pd = mlx5_glue->alloc_pd(ctx);
	TEST_ASSERT_NOT_NULL(*pd, "pd");
	memset(&obj, 0, sizeof(obj));
	obj.pd.in = *pd;
	obj.pd.out = &dvpd;
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_init_obj(&obj, MLX5DV_OBJ_PD),
			    "pdn");
	*pdn = dvpd.pdn;
	return TEST_SUCCESS;
}

int
xfix_open(struct xfix *f, const char *name)
{
	return xfix_open_mode(f, name, 0);
}

int
xfix_open_mode(struct xfix *f, const char *name, int wrapped)
{
	struct mlx5_emu_caps caps;
	struct mlx5_devx_cq_attr attr;

	memset(f, 0, sizeof(*f));
	mlx5_emu_caps_default(&caps);
	caps.crypto = 1;
	caps.crypto_wrapped = wrapped;
	f->ctx = mlx5_emu_open(name, &caps);
	TEST_ASSERT_NOT_NULL(f->ctx, "open");
	TEST_ASSERT_SUCCESS(pd_open(f->ctx, &f->pd, &f->pdn), "pd");
	f->uar = mlx5_glue->devx_alloc_uar(f->ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	TEST_ASSERT_NOT_NULL(f->uar, "uar");
	memset(&attr, 0, sizeof(attr));
	attr.uar_page_id = f->uar->page_id;
	TEST_ASSERT_SUCCESS(mlx5_devx_cq_create(f->ctx, &f->cq, LOG_CQ, &attr,
						SOCKET_ID_ANY), "cq");
	TEST_ASSERT_SUCCESS(qp_create(f), "qp");
	TEST_ASSERT_SUCCESS(mkey_create(f), "mkey");
	f->buf = rte_zmalloc(NULL, BUF_LEN, 64);
	TEST_ASSERT_NOT_NULL(f->buf, "buf");
	f->mr = mlx5_glue->reg_mr(f->pd, f->buf, BUF_LEN,
				  IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT_NOT_NULL(f->mr, "mr");
	/* WQEs run when the test calls the engine. */
	mlx5_emu_net_engine_pause(1);
	return TEST_SUCCESS;
}

int
xfix_close(struct xfix *f)
{
	struct mlx5_emu_stats st;

	mlx5_emu_net_engine_pause(0);
	TEST_ASSERT_SUCCESS(mlx5_glue->dereg_mr(f->mr), "mr");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(f->mkey), "mkey");
	/* The QP before its CQ (test_xts_error_cqes checks the refusal). */
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(f->qp), "qp");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_umem_dereg(f->umem), "umem");
	mlx5_devx_cq_destroy(&f->cq);
	mlx5_glue->devx_free_uar(f->uar);
	TEST_ASSERT_SUCCESS(mlx5_glue->dealloc_pd(f->pd), "pd");
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(f->ctx, &st), "stats");
	TEST_ASSERT(st.devx_objs == 0 && st.umems == 0 && st.cqs == 0,
		    "left: %u objects, %u umems", st.devx_objs, st.umems);
	TEST_ASSERT_SUCCESS(mlx5_emu_close(f->ctx), "close");
	rte_free(f->buf);
	rte_free(f->ring);
	return TEST_SUCCESS;
}

/* A plaintext DEK: key1 || key2 (2 * half bytes) || keytag. */
struct mlx5dv_devx_obj *
dek_make(struct xfix *f, const uint8_t *key, unsigned int half,
	 uint32_t *id)
{
	uint32_t in[MLX5_ST_SZ_DW(create_dek_in)] = {0};
	uint32_t out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)] = {0};
	void *d = MLX5_ADDR_OF(create_dek_in, in, dek);
	uint8_t *k = (uint8_t *)MLX5_ADDR_OF(dek, d, key);
	struct mlx5dv_devx_obj *o;

	MLX5_SET(general_obj_in_cmd_hdr, in, opcode,
		 MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type,
		 MLX5_GENERAL_OBJ_TYPE_DEK);
	MLX5_SET(dek, d, key_size, half == 32);
	MLX5_SET(dek, d, has_keytag, 1);
	MLX5_SET(dek, d, key_purpose, MLX5_CRYPTO_KEY_PURPOSE_AES_XTS);
	MLX5_SET(dek, d, pd, f->pdn);
	memcpy(k, key, 2 * half);
	put64(k + 2 * half, KEYTAG);
	o = mlx5_glue->devx_obj_create(f->ctx, in, sizeof(in), out,
				       sizeof(out));
	*id = MLX5_GET(general_obj_out_cmd_hdr, out, obj_id);
	return o;
}

/* Encrypt raw bytes with the DEK, 512-byte units, tweak 0. */
void
bsf_init(struct bsf_p *b, uint32_t dek, uint32_t raw)
{
	memset(b, 0, sizeof(*b));
	b->order = ORDER_RAW_MEMORY;
	b->bsp = BSP_512;
	b->raw = raw;
	b->dek = dek;
	b->keytag = KEYTAG;
}

uint8_t *
wqe_at(struct xfix *f, uint16_t pi)
{
	return f->ring + (size_t)(pi & ((1u << LOG_SQ) - 1)) * WQEBB;
}

/* Byte off of the WQE being built at f->pi, in the ring (every field
 * lies inside one WQEBB; the WQE may wrap).
 */
static uint8_t *
wqe_byte(struct xfix *f, unsigned int off)
{
	return wqe_at(f, f->pi + off / WQEBB) + off % WQEBB;
}

/* The nbb WQEBBs of the WQE at f->pi, zeroed in the ring. */
static void
wqe_zero(struct xfix *f, unsigned int nbb)
{
	unsigned int i;

	for (i = 0; i < nbb; i++)
		memset(wqe_at(f, f->pi + i), 0, WQEBB);
}

#define UMR_WQE_LEN 256 /* ctrl, umr ctrl, mkey seg, 4 KLMs, BSF. */

/* UMR: the mkey's 4 KLMs (unused ones 0) and the crypto BSF. */
void
post_umr(struct xfix *f, const struct seg *klm, unsigned int n,
	 uint64_t len, const struct bsf_p *b)
{
	unsigned int i;

	wqe_zero(f, UMR_WQE_LEN / WQEBB);
	put32(wqe_byte(f, 0), (uint32_t)f->pi << 8 | OP_UMR);
	put32(wqe_byte(f, 4), f->qpn << 8 | (UMR_WQE_LEN / 16));
	put32(wqe_byte(f, 12), f->mkey_key);
	put32(wqe_byte(f, 16), 1u << 31); /* Inline KLMs. */
	put32(wqe_byte(f, 20), 4u << 16 | 4u); /* 4 KLMs, 4 BSF octowords. */
	put64(wqe_byte(f, 24), 1); /* Mask: length. */
	put64(wqe_byte(f, 64 + 24), len);
	for (i = 0; i < n; i++) {
		put32(wqe_byte(f, 128 + 16 * i), klm[i].len);
		put32(wqe_byte(f, 128 + 16 * i + 4), klm[i].key);
		put64(wqe_byte(f, 128 + 16 * i + 8), (uintptr_t)klm[i].addr);
	}
	/* BSF: 64 B, crypto, order, AES-XTS. */
	put32(wqe_byte(f, 192), 2u << 30 | 1u << 24 |
	      (uint32_t)b->order << 16);
	put32(wqe_byte(f, 196), b->raw);
	put32(wqe_byte(f, 200), (uint32_t)b->bsp << 24);
	memcpy(wqe_byte(f, 208), b->tweak, 16);
	put32(wqe_byte(f, 224), b->dek);
	put64(wqe_byte(f, 232), b->keytag);
	f->pi += UMR_WQE_LEN / WQEBB;
}

/* RDMA write of the sources to [raddr, ...) of rkey, CQE always. */
uint16_t
post_write(struct xfix *f, const struct seg *src, unsigned int n,
	   uint64_t raddr, uint32_t rkey)
{
	unsigned int ds = 2 + n, nbb = (ds + 3) / 4, i;
	uint16_t idx = f->pi;

	wqe_zero(f, nbb);
	put32(wqe_byte(f, 0), (uint32_t)f->pi << 8 | OP_RDMA_WRITE);
	put32(wqe_byte(f, 4), f->qpn << 8 | ds);
	put32(wqe_byte(f, 8), CE_ALWAYS);
	put64(wqe_byte(f, 16), raddr);
	put32(wqe_byte(f, 24), rkey);
	for (i = 0; i < n; i++) {
		put32(wqe_byte(f, 32 + 16 * i), src[i].len);
		put32(wqe_byte(f, 36 + 16 * i), src[i].key);
		put64(wqe_byte(f, 40 + 16 * i), (uintptr_t)src[i].addr);
	}
	f->pi += nbb;
	return idx;
}

/* Doorbell record, then the engine runs the posted WQEs. */
void
ring_db(struct xfix *f)
{
	rte_wmb();
	f->dbr[1] = rte_cpu_to_be_32(f->pi);
	while (mlx5_emu_net_progress() != 0)
		;
}

/* The next CQE (checked against the expected 64 bytes but the
 * timestamp, bytes 48-55; in an error CQE, mlx5dv.h struct mlx5_err_cqe,
 * bytes 54 vendor_err_synd and 55 syndrome are checked too) or a
 * failure.
 */
int
expect_cqe(struct xfix *f, uint8_t op, uint8_t synd, uint8_t vsynd,
	   uint8_t wqe_op, uint16_t wqe_idx)
{
	const uint8_t *c = test_dpdk_cqe(&f->cq,
					 f->ci & ((1u << LOG_CQ) - 1));
	uint8_t want[64];

	memset(want, 0, sizeof(want));
	want[54] = vsynd;
	want[55] = synd;
	put32(want + 56, (uint32_t)wqe_op << 24 | f->qpn);
	want[60] = wqe_idx >> 8;
	want[61] = (uint8_t)wqe_idx;
	want[63] = op << 4 | ((f->ci >> LOG_CQ) & 1);
	TEST_ASSERT_EQUAL(c[63], want[63], "CQE %u op_own 0x%02x, want "
			  "0x%02x", f->ci, c[63], want[63]);
	TEST_ASSERT_BUFFERS_ARE_EQUAL(c, want, 48, "CQE %u bytes 0-47", f->ci);
	TEST_ASSERT_BUFFERS_ARE_EQUAL(c + 56, want + 56, 8, "CQE %u 56-63",
				      f->ci);
	if (op == MLX5_CQE_REQ_ERR || op == MLX5_CQE_RESP_ERR)
		TEST_ASSERT(c[54] == vsynd && c[55] == synd, "CQE %u vendor "
			    "syndrome 0x%02x syndrome 0x%02x, want 0x%02x "
			    "0x%02x", f->ci, c[54], c[55], vsynd, synd);
	f->ci++;
	f->cq.db_rec[0] = rte_cpu_to_be_32(f->ci & 0xffffff);
	return TEST_SUCCESS;
}

int
no_cqe(struct xfix *f)
{
	const uint8_t *c = test_dpdk_cqe(&f->cq,
					 f->ci & ((1u << LOG_CQ) - 1));

	TEST_ASSERT((c[63] >> 4) == 0xf ||
		    (c[63] & 1) != ((f->ci >> LOG_CQ) & 1), "unexpected CQE");
	return TEST_SUCCESS;
}


int
xfix_vector4(struct xfix *f, uint32_t dek)
{
	struct seg s = { 512, f->mr->lkey, f->buf };
	struct seg t = { 512, f->mr->lkey, f->buf + 4096 };
	struct bsf_p b;
	unsigned int i;
	uint16_t idx;

	for (i = 0; i < 512; i++)
		f->buf[i] = (uint8_t)i;
	bsf_init(&b, dek, 512);
	post_umr(f, &t, 1, 512, &b);
	idx = post_write(f, &s, 1, 0, f->mkey_key);
	ring_db(f);
	TEST_ASSERT_SUCCESS(expect_cqe(f, 0, 0, 0, OP_RDMA_WRITE, idx), "");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(f->buf + 4096, xts_v4_ctx, 512,
				      "IEEE 1619 vector 4");
	return TEST_SUCCESS;
}
