/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_crypto_xts": the emulated HCA's crypto engine driven the way
 * a crypto PMD drives ConnectX: a loopback RC QP (CREATE_QP, RST -> INIT
 * -> RTR -> RTS) whose CQ rte_common_mlx5's mlx5_devx_cq_create() makes,
 * an indirect crypto mkey (CREATE_MKEY crypto_en), DEKs, then UMR WQEs
 * (KLMs + crypto BSF) and RDMA-write WQEs built here byte by byte from
 * the PRM layouts. Ciphertexts are IEEE 1619 known answers
 * (test_xts_vectors.h), CQEs are checked byte by byte, and every error
 * path (no DEK, wrong keytag, wrong length, bad rkey, bad lkey) gives
 * the error CQE, flushes what follows, and the objects, umems and
 * rte_malloc use return to their starting values.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_malloc.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>
#include <mlx5_devx_cmds.h>
#include <mlx5_common_devx.h>

#include "mlx5_emu.h"
#include "test.h"
#include "test_usage.h"
#include "test_xts_vectors.h"

/* rte_common_mlx5's struct mlx5_devx_obj and struct mlx5_klm
 * (mlx5_common.h, not includable here: see test_emu.c). */
struct mlx5_devx_obj {
	void *obj;
	int id;
};

struct mlx5_klm {
	uint32_t byte_count;
	uint32_t mkey;
	uint64_t address;
};

#define LOG_SQ 6 /* 64 WQEBBs. */
#define LOG_CQ 6
#define WQEBB 64
#define BUF_LEN 16384
#define OP_UMR 0x25
#define OP_RDMA_WRITE 0x08
#define CE_ALWAYS (2u << 2) /* fm_ce_se: CQE on success. */
#define ORDER_RAW_WIRE 2 /* Decrypt into memory. */
#define ORDER_RAW_MEMORY 3 /* Encrypt into memory. */
#define BSP_512 1
#define KEYTAG 0x0123456789abcdefull

struct xfix {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	uint32_t pdn;
	struct mlx5dv_devx_uar *uar;
	struct mlx5_devx_cq cq;
	uint32_t ci;
	uint8_t *ring; /* SQ ring, then the doorbell record. */
	struct mlx5dv_devx_umem *umem;
	struct mlx5dv_devx_obj *qp;
	uint32_t qpn;
	volatile uint32_t *dbr;
	uint16_t pi;
	struct mlx5dv_devx_obj *mkey;
	uint32_t mkey_key;
	uint8_t *buf;
	struct ibv_mr *mr;
};

static void
put32(uint8_t *p, uint32_t v)
{
	rte_be32_t be = rte_cpu_to_be_32(v);

	memcpy(p, &be, 4);
}

static void
put64(uint8_t *p, uint64_t v)
{
	rte_be64_t be = rte_cpu_to_be_64(v);

	memcpy(p, &be, 8);
}

static int
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
static int
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

static int
qp_create(struct xfix *f)
{
	uint32_t in[MLX5_ST_SZ_DW(create_qp_in)] = {0};
	uint32_t out[MLX5_ST_SZ_DW(create_qp_out)] = {0};
	void *qpc = MLX5_ADDR_OF(create_qp_in, in, qpc);
	size_t ring = WQEBB << LOG_SQ;

	f->ring = rte_zmalloc(NULL, ring + 64, 4096);
	TEST_ASSERT_NOT_NULL(f->ring, "ring");
	f->dbr = (volatile uint32_t *)(f->ring + ring);
	f->umem = mlx5_glue->devx_umem_reg(f->ctx, f->ring, ring + 64,
					   IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT_NOT_NULL(f->umem, "umem");
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
	put64(MLX5_ADDR_OF(qpc, qpc, dbr_addr), ring);
	MLX5_SET(create_qp_in, in, wq_umem_id, f->umem->umem_id);
	MLX5_SET(create_qp_in, in, wq_umem_valid, 1);
	f->qp = mlx5_glue->devx_obj_create(f->ctx, in, sizeof(in), out,
					   sizeof(out));
	TEST_ASSERT_NOT_NULL(f->qp, "qp: status 0x%x syndrome 0x%x",
			     MLX5_GET(create_qp_out, out, status),
			     MLX5_GET(create_qp_out, out, syndrome));
	f->qpn = MLX5_GET(create_qp_out, out, qpn);
	return qp_to_rts(f);
}

/* Indirect crypto mkey with room for 4 KLMs. */
static int
mkey_create(struct xfix *f)
{
	uint32_t in[MLX5_ST_SZ_DW(create_mkey_in) + 4 * 4] = {0};
	uint32_t out[MLX5_ST_SZ_DW(create_mkey_out)] = {0};
	void *mkc = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);

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
	f->mkey = mlx5_glue->devx_obj_create(f->ctx, in, sizeof(in), out,
					     sizeof(out));
	TEST_ASSERT_NOT_NULL(f->mkey, "mkey: syndrome 0x%x",
			     MLX5_GET(create_mkey_out, out, syndrome));
	f->mkey_key = MLX5_GET(create_mkey_out, out, mkey_index) << 8 | 0x5a;
	return TEST_SUCCESS;
}

static int
xfix_open(struct xfix *f, const char *name)
{
	struct mlx5_emu_caps caps;
	struct mlx5_devx_cq_attr attr;
	struct mlx5dv_pd dvpd;
	struct mlx5dv_obj obj;

	memset(f, 0, sizeof(*f));
	mlx5_emu_caps_default(&caps);
	caps.crypto = 1;
	caps.crypto_wrapped = 0;
	f->ctx = mlx5_emu_open(name, &caps);
	TEST_ASSERT_NOT_NULL(f->ctx, "open");
	f->pd = mlx5_glue->alloc_pd(f->ctx);
	TEST_ASSERT_NOT_NULL(f->pd, "pd");
	memset(&obj, 0, sizeof(obj));
	obj.pd.in = f->pd;
	obj.pd.out = &dvpd;
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_init_obj(&obj, MLX5DV_OBJ_PD), "");
	f->pdn = dvpd.pdn;
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

static int
xfix_close(struct xfix *f)
{
	struct mlx5_emu_stats st;

	mlx5_emu_net_engine_pause(0);
	TEST_ASSERT_SUCCESS(mlx5_glue->dereg_mr(f->mr), "mr");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(f->mkey), "mkey");
	TEST_ASSERT_EQUAL(mlx5_glue->devx_obj_destroy(f->cq.cq->obj), EBUSY,
			  "a CQ a QP uses stays");
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
static struct mlx5dv_devx_obj *
dek_make(struct xfix *f, const uint8_t *key, unsigned int half,
	 uint32_t *id)
{
	uint32_t in[MLX5_ST_SZ_DW(create_dek_in)] = {0};
	uint32_t out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)] = {0};
	void *d = MLX5_ADDR_OF(create_dek_in, in, dek);
	uint8_t *k = MLX5_ADDR_OF(dek, d, key);
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

struct seg {
	uint32_t len;
	uint32_t key;
	uint8_t *addr;
};

/* The crypto parameters of one message. */
struct bsf_p {
	uint8_t order;
	uint8_t bsp;
	uint32_t raw;
	uint8_t tweak[16];
	uint32_t dek;
	uint64_t keytag;
};

/* Encrypt raw bytes with the DEK, 512-byte units, tweak 0. */
static void
bsf_init(struct bsf_p *b, uint32_t dek, uint32_t raw)
{
	memset(b, 0, sizeof(*b));
	b->order = ORDER_RAW_MEMORY;
	b->bsp = BSP_512;
	b->raw = raw;
	b->dek = dek;
	b->keytag = KEYTAG;
}

static uint8_t *
wqe_at(struct xfix *f, uint16_t pi)
{
	return f->ring + (size_t)(pi & ((1u << LOG_SQ) - 1)) * WQEBB;
}

/* UMR: the mkey's 4 KLMs (unused ones 0) and the crypto BSF. */
static void
post_umr(struct xfix *f, const struct seg *klm, unsigned int n,
	 uint64_t len, const struct bsf_p *b)
{
	uint8_t w[256];
	unsigned int i;

	memset(w, 0, sizeof(w));
	put32(w, (uint32_t)f->pi << 8 | OP_UMR);
	put32(w + 4, f->qpn << 8 | (sizeof(w) / 16));
	put32(w + 12, f->mkey_key);
	put32(w + 16, 1u << 31); /* Inline KLMs. */
	put32(w + 20, 4u << 16 | 4u); /* 4 KLMs, 4 BSF octowords. */
	put64(w + 24, 1); /* Mask: length. */
	put64(w + 64 + 24, len);
	for (i = 0; i < n; i++) {
		put32(w + 128 + 16 * i, klm[i].len);
		put32(w + 128 + 16 * i + 4, klm[i].key);
		put64(w + 128 + 16 * i + 8, (uintptr_t)klm[i].addr);
	}
	/* BSF: 64 B, crypto, order, AES-XTS. */
	put32(w + 192, 2u << 30 | 1u << 24 | (uint32_t)b->order << 16);
	put32(w + 196, b->raw);
	put32(w + 200, (uint32_t)b->bsp << 24);
	memcpy(w + 208, b->tweak, 16);
	put32(w + 224, b->dek);
	put64(w + 232, b->keytag);
	for (i = 0; i < sizeof(w) / WQEBB; i++)
		memcpy(wqe_at(f, f->pi + i), w + i * WQEBB, WQEBB);
	f->pi += sizeof(w) / WQEBB;
}

/* RDMA write of the sources to [raddr, ...) of rkey, CQE always. */
static uint16_t
post_write(struct xfix *f, const struct seg *src, unsigned int n,
	   uint64_t raddr, uint32_t rkey)
{
	unsigned int ds = 2 + n, nbb = (ds + 3) / 4, i;
	uint16_t idx = f->pi;
	uint8_t w[4 * WQEBB];

	memset(w, 0, sizeof(w));
	put32(w, (uint32_t)f->pi << 8 | OP_RDMA_WRITE);
	put32(w + 4, f->qpn << 8 | ds);
	put32(w + 8, CE_ALWAYS);
	put64(w + 16, raddr);
	put32(w + 24, rkey);
	for (i = 0; i < n; i++) {
		put32(w + 32 + 16 * i, src[i].len);
		put32(w + 36 + 16 * i, src[i].key);
		put64(w + 40 + 16 * i, (uintptr_t)src[i].addr);
	}
	for (i = 0; i < nbb; i++)
		memcpy(wqe_at(f, f->pi + i), w + i * WQEBB, WQEBB);
	f->pi += nbb;
	return idx;
}

/* Doorbell record, then the engine runs the posted WQEs. */
static void
ring_db(struct xfix *f)
{
	rte_wmb();
	f->dbr[1] = rte_cpu_to_be_32(f->pi);
	while (mlx5_emu_net_progress() != 0)
		;
}

/* The next CQE (checked against the expected 64 bytes but the
 * timestamp, bytes 48-55) or a failure. */
static int
expect_cqe(struct xfix *f, uint8_t op, uint8_t synd, uint8_t vsynd,
	   uint8_t wqe_op, uint16_t wqe_idx)
{
	const uint8_t *c = (const uint8_t *)(uintptr_t)
		&f->cq.cqes[f->ci & ((1u << LOG_CQ) - 1)];
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
	f->ci++;
	f->cq.db_rec[0] = rte_cpu_to_be_32(f->ci & 0xffffff);
	return TEST_SUCCESS;
}

static int
no_cqe(struct xfix *f)
{
	const uint8_t *c = (const uint8_t *)(uintptr_t)
		&f->cq.cqes[f->ci & ((1u << LOG_CQ) - 1)];

	TEST_ASSERT((c[63] >> 4) == 0xf ||
		    (c[63] & 1) != ((f->ci >> LOG_CQ) & 1), "unexpected CQE");
	return TEST_SUCCESS;
}

static void
counting(uint8_t *p, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)i;
}

/* Vectors 4 (AES-128, DU 0) and 10 (AES-256, DU 0xff), one data unit,
 * one source and one target; vector 10 decrypted back in place. */
static int
test_xts_single_unit(void)
{
	struct mlx5dv_devx_obj *d4, *d10;
	struct heap_use h0, h1;
	uint8_t *src, *dst;
	struct bsf_p b;
	struct seg s, t;
	struct xfix f;
	uint32_t id4, id10;
	uint16_t idx;

	heap_use(&h0);
	TEST_ASSERT_SUCCESS(xfix_open(&f, "emu_xts_one"), "fixture");
	src = f.buf;
	dst = f.buf + 4096;
	counting(src, 512);
	d4 = dek_make(&f, xts_v4_key, 16, &id4);
	d10 = dek_make(&f, xts_v10_key, 32, &id10);
	TEST_ASSERT(d4 != NULL && d10 != NULL, "DEKs");
	bsf_init(&b, id4, 512);
	s = (struct seg){ 512, f.mr->lkey, src };
	t = (struct seg){ 512, f.mr->lkey, dst };
	post_umr(&f, &t, 1, 512, &b);
	idx = post_write(&f, &s, 1, 0, f.mkey_key);
	ring_db(&f);
	TEST_ASSERT_SUCCESS(expect_cqe(&f, 0, 0, 0, OP_RDMA_WRITE, idx),
			    "requester CQE");
	TEST_ASSERT_SUCCESS(no_cqe(&f), "the UMR asked for none");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(dst, xts_v4_ctx, 512, "vector 4");
	/* Vector 10: tweak 0xff as a little-endian number. */
	b.dek = id10;
	b.tweak[0] = 0xff;
	post_umr(&f, &t, 1, 512, &b);
	idx = post_write(&f, &s, 1, 0, f.mkey_key);
	ring_db(&f);
	TEST_ASSERT_SUCCESS(expect_cqe(&f, 0, 0, 0, OP_RDMA_WRITE, idx), "");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(dst, xts_v10_ctx, 512, "vector 10");
	/* Decrypt in place: memory side plain (RAW_WIRE). */
	b.order = ORDER_RAW_WIRE;
	post_umr(&f, &t, 1, 512, &b);
	t.addr = dst;
	idx = post_write(&f, &t, 1, 0, f.mkey_key);
	ring_db(&f);
	TEST_ASSERT_SUCCESS(expect_cqe(&f, 0, 0, 0, OP_RDMA_WRITE, idx), "");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(dst, src, 512, "vector 10 decrypted");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(d4), "dek");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(d10), "dek");
	TEST_ASSERT_SUCCESS(xfix_close(&f), "close");
	heap_use(&h1);
	TEST_ASSERT(h0.heap_bytes == h1.heap_bytes &&
		    h0.alloc_count == h1.alloc_count, "rte_malloc use");
	return TEST_SUCCESS;
}

/* Vectors 4 then 5 as one 1024-byte message of two 512-byte data units
 * (tweak 0 then 1), gathered from three sources and scattered to three
 * targets whose borders fall inside the units. */
static int
test_xts_multi_unit_sgl(void)
{
	uint8_t *src = NULL, *out, want[1024];
	struct mlx5dv_devx_obj *d4;
	struct seg s[3], t[3];
	struct bsf_p b;
	struct xfix f;
	uint32_t id4;
	uint16_t idx;

	TEST_ASSERT_SUCCESS(xfix_open(&f, "emu_xts_multi"), "fixture");
	src = f.buf;
	counting(src, 512);
	memcpy(src + 512, xts_v4_ctx, 512);
	memcpy(want, xts_v4_ctx, 512);
	memcpy(want + 512, xts_v5_ctx, 512);
	out = f.buf + 8192;
	d4 = dek_make(&f, xts_v4_key, 16, &id4);
	TEST_ASSERT_NOT_NULL(d4, "DEK");
	bsf_init(&b, id4, 1024);
	s[0] = (struct seg){ 100, f.mr->lkey, src };
	s[1] = (struct seg){ 700, f.mr->lkey, src + 100 };
	s[2] = (struct seg){ 224, f.mr->lkey, src + 800 };
	t[0] = (struct seg){ 300, f.mr->lkey, out };
	t[1] = (struct seg){ 424, f.mr->lkey, out + 1000 }; /* a gap */
	t[2] = (struct seg){ 300, f.mr->lkey, out + 2000 };
	post_umr(&f, t, 3, 1024, &b);
	idx = post_write(&f, s, 3, 0, f.mkey_key);
	ring_db(&f);
	TEST_ASSERT_SUCCESS(expect_cqe(&f, 0, 0, 0, OP_RDMA_WRITE, idx), "");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(out, want, 300, "target 0");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(out + 1000, want + 300, 424, "target 1");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(out + 2000, want + 724, 300,
				      "target 2");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(d4), "dek");
	TEST_ASSERT_SUCCESS(xfix_close(&f), "close");
	return TEST_SUCCESS;
}

/* One failing message: its error CQE, then the next WQE flushed. */
static int
fail_case(struct xfix *f, const struct bsf_p *b, uint32_t rkey,
	  uint32_t lkey, uint8_t synd, uint8_t vsynd)
{
	struct seg s = { 512, lkey, f->buf };
	struct seg t = { 512, f->mr->lkey, f->buf + 4096 };
	uint16_t idx, idx2;

	memset(f->buf + 4096, 0xa5, 512);
	post_umr(f, &t, 1, 512, b);
	idx = post_write(f, &s, 1, 0, rkey);
	idx2 = post_write(f, &s, 1, 0, rkey);
	ring_db(f);
	TEST_ASSERT_SUCCESS(expect_cqe(f, MLX5_CQE_REQ_ERR, synd, vsynd,
				       OP_RDMA_WRITE, idx), "error CQE");
	TEST_ASSERT_SUCCESS(expect_cqe(f, MLX5_CQE_REQ_ERR, 0x05, 0,
				       OP_RDMA_WRITE, idx2), "flushed");
	TEST_ASSERT_SUCCESS(no_cqe(f), "nothing more");
	TEST_ASSERT(f->buf[4096] == 0xa5 && f->buf[4096 + 511] == 0xa5,
		    "target untouched");
	/* Back to work: RST and up again. */
	TEST_ASSERT_SUCCESS(qp_cmd(f, MLX5_CMD_OP_QP_2RST), "2rst");
	return qp_to_rts(f);
}

static int
test_xts_error_cqes(void)
{
	struct mlx5dv_devx_obj *d4;
	struct bsf_p b, x;
	struct xfix f;
	uint32_t id4;

	TEST_ASSERT_SUCCESS(xfix_open(&f, "emu_xts_err"), "fixture");
	counting(f.buf, 512);
	d4 = dek_make(&f, xts_v4_key, 16, &id4);
	TEST_ASSERT_NOT_NULL(d4, "DEK");
	bsf_init(&b, id4, 512);
	/* Another keytag: REM_OP_ERR, vendor 0x03. */
	x = b;
	x.keytag ^= 1;
	TEST_ASSERT_SUCCESS(fail_case(&f, &x, f.mkey_key, f.mr->lkey, 0x14,
				      0x03), "keytag");
	/* A length other than the BSF's: LOC_LEN_ERR. */
	x = b;
	x.raw = 1024;
	TEST_ASSERT_SUCCESS(fail_case(&f, &x, f.mkey_key, f.mr->lkey, 0x01,
				      0), "length");
	/* A bad rkey: REM_ACCESS_ERR; a bad lkey: LOC_PROT_ERR. */
	TEST_ASSERT_SUCCESS(fail_case(&f, &b, f.mkey_key ^ 0x100, f.mr->lkey,
				      0x13, 0), "rkey");
	TEST_ASSERT_SUCCESS(fail_case(&f, &b, f.mkey_key, f.mr->lkey + 1,
				      0x04, 0), "lkey");
	/* The DEK destroyed: REM_OP_ERR, vendor 0x01. */
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(d4), "dek");
	TEST_ASSERT_SUCCESS(fail_case(&f, &b, f.mkey_key, f.mr->lkey, 0x14,
				      0x01), "no DEK");
	TEST_ASSERT_SUCCESS(xfix_close(&f), "close");
	return TEST_SUCCESS;
}

/*
 * The same through the objects rte_common_mlx5's own helpers make, as
 * DPDK's crypto/mlx5 makes them: mlx5_devx_qp_create() + qp2rts()
 * (loopback), mlx5_devx_cmd_mkey_create() (crypto_en, umr_en, remote rw,
 * 4 KLMs), mlx5_devx_cmd_create_dek_obj() (plaintext key + keytag).
 */
static int
test_xts_dpdk_helpers(void)
{
	struct mlx5_devx_mkey_attr ma;
	struct mlx5_devx_dek_attr da;
	struct mlx5_devx_qp_attr qa;
	struct mlx5_devx_obj *mkey, *dek;
	struct mlx5_klm klm[4];
	struct mlx5_devx_qp qp;
	struct xfix f, save;
	struct bsf_p b;
	struct seg s, t;
	uint16_t idx;

	TEST_ASSERT_SUCCESS(xfix_open(&f, "emu_xts_dpdk"), "fixture");
	counting(f.buf, 512);
	memset(&qa, 0, sizeof(qa));
	qa.pd = f.pdn;
	qa.uar_index = f.uar->page_id;
	qa.cqn = f.cq.cq->id;
	qa.num_of_send_wqbbs = 1u << LOG_SQ;
	memset(&qp, 0, sizeof(qp));
	TEST_ASSERT_SUCCESS(mlx5_devx_qp_create(f.ctx, &qp, WQEBB << LOG_SQ,
						&qa, SOCKET_ID_ANY), "QP");
	TEST_ASSERT_SUCCESS(mlx5_devx_qp2rts(&qp, qp.qp->id), "qp2rts");
	memset(klm, 0, sizeof(klm));
	memset(&ma, 0, sizeof(ma));
	ma.pd = f.pdn;
	ma.umr_en = 1;
	ma.crypto_en = 1;
	ma.set_remote_rw = 1;
	ma.klm_array = klm;
	ma.klm_num = 4;
	mkey = mlx5_devx_cmd_mkey_create(f.ctx, &ma);
	TEST_ASSERT_NOT_NULL(mkey, "mkey");
	memset(&da, 0, sizeof(da));
	da.key_size = MLX5_CRYPTO_KEY_SIZE_128b;
	da.has_keytag = 1;
	da.key_purpose = MLX5_CRYPTO_KEY_PURPOSE_AES_XTS;
	da.pd = f.pdn;
	memcpy(da.key, xts_v4_key, 32);
	put64(da.key + 32, KEYTAG);
	dek = mlx5_devx_cmd_create_dek_obj(f.ctx, &da);
	TEST_ASSERT_NOT_NULL(dek, "DEK");
	/* Post on the helpers' QP through the helpers' mkey. */
	save = f;
	f.ring = qp.umem_buf;
	f.dbr = qp.db_rec;
	f.qpn = qp.qp->id;
	f.pi = 0;
	f.mkey_key = mkey->id;
	bsf_init(&b, dek->id, 512);
	s = (struct seg){ 512, f.mr->lkey, f.buf };
	t = (struct seg){ 512, f.mr->lkey, f.buf + 4096 };
	post_umr(&f, &t, 1, 512, &b);
	idx = post_write(&f, &s, 1, 0, f.mkey_key);
	ring_db(&f);
	TEST_ASSERT_SUCCESS(expect_cqe(&f, 0, 0, 0, OP_RDMA_WRITE, idx), "");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(f.buf + 4096, xts_v4_ctx, 512,
				      "vector 4");
	save.ci = f.ci;
	f = save;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(dek), "dek");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(mkey), "mkey");
	mlx5_devx_qp_destroy(&qp);
	TEST_ASSERT_SUCCESS(xfix_close(&f), "close");
	return TEST_SUCCESS;
}

static struct unit_test_suite emu_crypto_xts_suite = {
	.suite_name = "emu_crypto_xts",
	.unit_test_cases = {
		TEST_CASE(test_xts_single_unit),
		TEST_CASE(test_xts_multi_unit_sgl),
		TEST_CASE(test_xts_error_cqes),
		TEST_CASE(test_xts_dpdk_helpers),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(emu_crypto_xts, emu_crypto_xts_suite);
