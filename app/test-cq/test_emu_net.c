/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_net": the network side of the emulated HCA, driven only
 * through mlx5_glue and rte_common_mlx5's DevX helpers (no PMD): PD, MR,
 * TD, TIS, SQ, RQ, RQT, TIR built by hand on emulated devices, send WQEs
 * written byte by byte from the PRM layouts (control segment, Ethernet
 * segment with inline headers, data segment), CQEs read at the PRM offsets
 * of struct mlx5_cqe / struct mlx5_err_cqe. Expected frames and checksums
 * are computed here (RFC 1071), RSS hashes are the Microsoft RSS
 * verification suite values for its default key.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>
#include <mlx5_devx_cmds.h>
#include <mlx5_common_devx.h>

#include "mlx5_emu.h"
#include "rte_mlx5cq.h"
#include "test.h"
#include "test_dpdk_cq.h"
#include "test_rss_key.h"
#include "test_wait.h"

/* rte_common_mlx5's struct mlx5_devx_obj (see test_emu.c). */
struct mlx5_devx_obj {
	void *obj;
	int id;
};

#define CMD_STAT_BAD_PARAM 0x03
#define CMD_STAT_BAD_RES 0x05
#define CMD_STAT_BAD_RES_STATE 0x09
#define LOG_SQ 6 /* 64 WQEBBs. */
#define LOG_RQ 5 /* 32 WQEs of one 16 B data segment. */
#define LOG_CQ 7
#define BUF_SZ 2048
#define DATA_SZ (256 * 1024)

/* CQE offsets (struct mlx5_cqe, struct mlx5_err_cqe). */
#define CQE_HASH_RES 12
#define CQE_HASH_TYPE 16
#define CQE_CSUM 20
#define CQE_HDR_TYPE 28
#define CQE_VLAN 30
#define CQE_BYTE_CNT 44
#define CQE_TIMESTAMP 48
#define CQE_SYNDROME 55
#define CQE_QPN 56
#define CQE_WQE_CNT 60
#define CQE_OP_OWN 63

#define ms_key test_rss_ms_key

static const uint8_t mac_a[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x01 };
static const uint8_t mac_b[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x02 };
static const uint8_t mac_c[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x03 };

/* One emulated device with a send and a receive queue. */
struct nport {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	uint32_t pdn;
	struct mlx5dv_devx_uar *uar;
	struct mlx5_devx_obj *td, *tis, *rqt, *tir;
	struct mlx5_devx_cq scq, rcq;
	/* CQs made with the mlx5cq library instead of scq / rcq. */
	struct rte_mlx5cq_dev *ldev;
	struct rte_mlx5cq *lscq, *lrcq;
	struct mlx5_devx_sq sq;
	struct mlx5_devx_rq rq;
	uint8_t *data; /* DATA_SZ bytes: RX buffers, then TX payloads. */
	struct ibv_mr *mr;
	uint16_t sq_pi;
	uint16_t rq_pi;
	uint32_t scq_ci;
	uint32_t rcq_ci;
};

/* --- frames ------------------------------------------------------------- */

static uint32_t
csum_sum(uint32_t s, const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (uint32_t)b[i] << 8 | b[i + 1];
	if (n & 1)
		s += (uint32_t)b[n - 1] << 8;
	return s;
}

static uint16_t
csum_done(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = (uint8_t)v;
}

/* The addresses, ports and TCP flags of a TCP/IPv4 frame. */
struct tcp4_flow {
	uint8_t sip[4];
	uint8_t dip[4];
	uint16_t sport;
	uint16_t dport;
	uint8_t flags;
};

/*
 * An Ethernet/IPv4/TCP frame of a flow with payload; good checksums unless
 * told otherwise. Returns the length.
 */
static uint32_t
frame_tcp4_flow(uint8_t *f, const uint8_t *dst, const uint8_t *src,
		const struct tcp4_flow *fl, uint32_t payload, int bad_ip,
		int bad_tcp)
{
	uint8_t *ip = f + 14, *tcp = f + 34;
	uint32_t len = 54 + payload, i, s;
	uint8_t ph[4];

	memset(f, 0, len);
	memcpy(f, dst, 6);
	memcpy(f + 6, src, 6);
	put16(f + 12, 0x0800);
	ip[0] = 0x45;
	put16(ip + 2, (uint16_t)(20 + 20 + payload));
	put16(ip + 4, 0x1234);
	ip[8] = 64;
	ip[9] = 6;
	memcpy(ip + 12, fl->sip, 4);
	memcpy(ip + 16, fl->dip, 4);
	put16(ip + 10, csum_done(csum_sum(0, ip, 20)) ^ (bad_ip ? 0x5a : 0));
	put16(tcp, fl->sport);
	put16(tcp + 2, fl->dport);
	put16(tcp + 4, 0x0001);
	tcp[12] = 5 << 4;
	tcp[13] = fl->flags;
	put16(tcp + 14, 1024);
	for (i = 0; i < payload; i++)
		tcp[20 + i] = (uint8_t)(i * 7 + 3);
	s = csum_sum(0, ip + 12, 8);
	ph[0] = 0;
	ph[1] = 6;
	put16(ph + 2, (uint16_t)(20 + payload));
	s = csum_sum(s, ph, 4);
	s = csum_sum(s, tcp, 20 + payload);
	put16(tcp + 16, csum_done(s) ^ (bad_tcp ? 0x0101 : 0));
	return len;
}

/*
 * An Ethernet/IPv4/TCP SYN frame from 66.9.149.187:2794 to
 * 161.142.100.80:1766 (the first Microsoft RSS vector) with payload; good
 * checksums unless told otherwise. Returns the length.
 */
static uint32_t
frame_tcp4(uint8_t *f, const uint8_t *dst, const uint8_t *src,
	   uint32_t payload, int bad_ip, int bad_tcp)
{
	static const struct tcp4_flow fl = {
		.sip = { 66, 9, 149, 187 },
		.dip = { 161, 142, 100, 80 },
		.sport = 2794,
		.dport = 1766,
		.flags = 0x02, /* SYN: no ACK. */
	};

	return frame_tcp4_flow(f, dst, src, &fl, payload, bad_ip, bad_tcp);
}

/* Ethernet/IPv6/UDP, good checksum; length returned. */
static uint32_t
frame_udp6(uint8_t *f, const uint8_t *dst, const uint8_t *src,
	   uint32_t payload)
{
	uint8_t *ip = f + 14, *udp = f + 54;
	uint32_t len = 62 + payload, i, s;
	uint8_t ph[8];

	memset(f, 0, len);
	memcpy(f, dst, 6);
	memcpy(f + 6, src, 6);
	put16(f + 12, 0x86dd);
	ip[0] = 0x60;
	put16(ip + 4, (uint16_t)(8 + payload));
	ip[6] = 17;
	ip[7] = 64;
	for (i = 0; i < 16; i++) {
		ip[8 + i] = (uint8_t)(0x20 + i);
		ip[24 + i] = (uint8_t)(0x40 + i);
	}
	put16(udp, 5000);
	put16(udp + 2, 6000);
	put16(udp + 4, (uint16_t)(8 + payload));
	for (i = 0; i < payload; i++)
		udp[8 + i] = (uint8_t)(i + 1);
	s = csum_sum(0, ip + 8, 32);
	memset(ph, 0, sizeof(ph));
	put16(ph + 2, (uint16_t)(8 + payload));
	ph[7] = 17;
	s = csum_sum(s, ph, 8);
	s = csum_sum(s, udp, 8 + payload);
	put16(udp + 6, csum_done(s));
	return len;
}

/* --- queues -------------------------------------------------------------- */

/* One RQ WQE of BUF_SZ bytes at addr under lkey, posted. */
static void
rq_post_at(struct nport *p, uint32_t lkey, const void *addr)
{
	uint16_t idx = p->rq_pi & ((1u << LOG_RQ) - 1);
	uint8_t *d = (uint8_t *)(uintptr_t)p->rq.wq.umem_buf + 16 * idx;
	uint32_t be32;
	uint64_t be64;

	be32 = rte_cpu_to_be_32(BUF_SZ);
	memcpy(d, &be32, 4);
	be32 = rte_cpu_to_be_32(lkey);
	memcpy(d + 4, &be32, 4);
	be64 = rte_cpu_to_be_64((uintptr_t)addr);
	memcpy(d + 8, &be64, 8);
	p->rq_pi++;
	rte_wmb();
	p->rq.wq.db_rec[0] = rte_cpu_to_be_32(p->rq_pi);
}

static int
rq_post(struct nport *p, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		rq_post_at(p, p->mr->lkey, p->data + BUF_SZ *
			   (p->rq_pi & ((1u << LOG_RQ) - 1)));
	return 0;
}

/*
 * Write a SEND WQE: control segment, Ethernet segment with the frame's
 * first 18 bytes inline, one data segment (lkey, addr) for the rest; ring
 * the doorbell record and the UAR.
 */
/* A SEND WQE of ds 16-byte units at the producer index: zeroed, its
 * control segment written (PRM mlx5_wqe_ctrl_seg). Returns the WQE.
 */
static uint8_t *
sq_ctrl(struct nport *p, uint32_t ds, int cq_update)
{
	uint8_t *w = (uint8_t *)(uintptr_t)p->sq.umem_buf +
		     64 * (p->sq_pi & ((1u << LOG_SQ) - 1));
	uint32_t be32;

	memset(w, 0, 64);
	be32 = rte_cpu_to_be_32((uint32_t)p->sq_pi << 8 | 0x0a);
	memcpy(w, &be32, 4); /* opmod_idx_opcode: SEND */
	be32 = rte_cpu_to_be_32((uint32_t)p->sq.sq->id << 8 | ds);
	memcpy(w + 4, &be32, 4); /* qpn_ds: ds x 16 B */
	w[11] = cq_update ? 0x08 : 0; /* fm_ce_se: CQ_UPDATE */
	return w;
}

/* Post the WQE at w: doorbell record, then its first 8 bytes to the UAR. */
static void
sq_ring(struct nport *p, const uint8_t *w)
{
	p->sq_pi++;
	rte_wmb();
	p->sq.db_rec[MLX5_SND_DBR] = rte_cpu_to_be_32(p->sq_pi);
	rte_wmb();
	memcpy((uint8_t *)p->uar->reg_addr, w, 8);
}

static void
sq_send(struct nport *p, const uint8_t *frame, uint32_t len, uint8_t cs,
	uint32_t lkey, uint64_t addr, int cq_update)
{
	uint8_t *w = sq_ctrl(p, 4, cq_update);
	uint32_t be32;
	uint64_t be64;

	w[16 + 4] = cs; /* eseg.cs_flags */
	put16(w + 16 + 12, 18); /* eseg.inline_hdr_sz */
	memcpy(w + 16 + 14, frame, 2);
	memcpy(w + 32, frame + 2, 16);
	be32 = rte_cpu_to_be_32(len - 18);
	memcpy(w + 48, &be32, 4);
	be32 = rte_cpu_to_be_32(lkey);
	memcpy(w + 52, &be32, 4);
	be64 = rte_cpu_to_be_64(addr);
	memcpy(w + 56, &be64, 8);
	sq_ring(p, w);
}

/* Send a frame whose payload after 18 bytes sits in the MR (one 4 KiB
 * TX slot per SQ WQEBB).
 */
static void
send_frame(struct nport *p, const uint8_t *frame, uint32_t len, uint8_t cs)
{
	uint8_t *tx = p->data + DATA_SZ / 2 +
		      4096 * (p->sq_pi & ((1u << LOG_SQ) / 2 - 1));

	memcpy(tx, frame, len);
	sq_send(p, frame, len, cs, p->mr->lkey, (uintptr_t)(tx + 18), 1);
}

/* The next CQE of a CQ made by mlx5_devx_cq_create() or NULL. */
static const uint8_t *
cqe_next(struct mlx5_devx_cq *cq, uint32_t *ci)
{
	const uint8_t *c = test_dpdk_cqe(cq, *ci & ((1u << LOG_CQ) - 1));
	uint8_t op = c[CQE_OP_OWN];

	if ((op >> 4) == 0xf || (op & 1) != ((*ci >> LOG_CQ) & 1))
		return NULL;
	rte_rmb();
	(*ci)++;
	cq->db_rec[0] = rte_cpu_to_be_32(*ci & 0xffffff);
	return c;
}

static uint32_t
rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static uint16_t
rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static int
cq_make(struct nport *p, struct mlx5_devx_cq *cq)
{
	struct mlx5_devx_cq_attr attr;

	memset(cq, 0, sizeof(*cq));
	memset(&attr, 0, sizeof(attr));
	attr.uar_page_id = p->uar->page_id;
	return mlx5_devx_cq_create(p->ctx, cq, LOG_CQ, &attr, SOCKET_ID_ANY);
}

static int
tir_make(struct nport *p, struct mlx5_devx_obj *rqt, uint32_t fields)
{
	struct mlx5_devx_tir_attr ta;

	memset(&ta, 0, sizeof(ta));
	ta.disp_type = MLX5_TIRC_DISP_TYPE_INDIRECT;
	ta.indirect_table = rqt->id;
	ta.rx_hash_fn = MLX5_RX_HASH_FN_TOEPLITZ;
	ta.transport_domain = p->td->id;
	memcpy(ta.rx_hash_toeplitz_key, ms_key, sizeof(ms_key));
	ta.rx_hash_field_selector_outer.l3_prot_type = MLX5_L3_PROT_TYPE_IPV4;
	ta.rx_hash_field_selector_outer.l4_prot_type = MLX5_L4_PROT_TYPE_TCP;
	ta.rx_hash_field_selector_outer.selected_fields = fields;
	p->tir = mlx5_devx_cmd_create_tir(p->ctx, &ta);
	return p->tir != NULL ? 0 : -1;
}

#define ALL_FIELDS 0xf /* SRC_IP, DST_IP, L4_SPORT, L4_DPORT */

/* CQ number of a CQ made by mlx5cq (0 when unknown). */
static uint32_t
lcqn(const struct rte_mlx5cq *cq)
{
	struct rte_mlx5cq_info info;

	if (rte_mlx5cq_info_get(cq, &info) != 0)
		return 0;
	return info.cqn;
}

/*
 * Build a whole port with its queues ready. The send / receive CQ is made
 * by the mlx5cq library with sattr / rattr when given, else by
 * mlx5_devx_cq_create().
 */
/* min_wqe_inline_mode of the SQs nport_open_ex() creates (0: none). */
static unsigned int nport_sq_inline;

static int
nport_open_ex(struct nport *p, const char *name, const char *wire,
	      const uint8_t *mac, int vsd, const struct rte_mlx5cq_attr *sattr,
	      const struct rte_mlx5cq_attr *rattr)
{
	struct mlx5_devx_create_sq_attr sqa;
	struct mlx5_devx_create_rq_attr rqa;
	struct mlx5_devx_modify_sq_attr msq;
	struct mlx5_devx_modify_rq_attr mrq;
	struct mlx5_devx_tis_attr tisa;
	struct mlx5_devx_rqt_attr *rqta;
	struct mlx5dv_obj obj;
	struct mlx5dv_pd dvpd;

	memset(p, 0, sizeof(*p));
	p->ctx = mlx5_emu_open(name, NULL);
	TEST_ASSERT_NOT_NULL(p->ctx, "open %s", name);
	if (wire != NULL)
		TEST_ASSERT_SUCCESS(mlx5_emu_port_config(p->ctx, wire, mac),
				    "port config");
	p->pd = mlx5_glue->alloc_pd(p->ctx);
	TEST_ASSERT_NOT_NULL(p->pd, "pd");
	memset(&obj, 0, sizeof(obj));
	obj.pd.in = p->pd;
	obj.pd.out = &dvpd;
	TEST_ASSERT_SUCCESS(mlx5_glue->dv_init_obj(&obj, MLX5DV_OBJ_PD),
			    "pdn");
	p->pdn = dvpd.pdn;
	TEST_ASSERT(p->pdn != 0, "pdn set");
	p->uar = mlx5_glue->devx_alloc_uar(p->ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	TEST_ASSERT_NOT_NULL(p->uar, "uar");
	p->data = rte_zmalloc(NULL, DATA_SZ, 4096);
	TEST_ASSERT_NOT_NULL(p->data, "data");
	p->mr = mlx5_glue->reg_mr(p->pd, p->data, DATA_SZ,
				  IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT_NOT_NULL(p->mr, "mr");
	p->td = mlx5_devx_cmd_create_td(p->ctx);
	TEST_ASSERT_NOT_NULL(p->td, "td");
	memset(&tisa, 0, sizeof(tisa));
	tisa.transport_domain = p->td->id;
	p->tis = mlx5_devx_cmd_create_tis(p->ctx, &tisa);
	TEST_ASSERT_NOT_NULL(p->tis, "tis");
	if (sattr != NULL || rattr != NULL) {
		p->ldev = rte_mlx5cq_dev_open(p->ctx, SOCKET_ID_ANY);
		TEST_ASSERT_NOT_NULL(p->ldev, "mlx5cq dev: %d", rte_errno);
	}
	if (sattr != NULL) {
		p->lscq = rte_mlx5cq_create(p->ldev, sattr);
		TEST_ASSERT_NOT_NULL(p->lscq, "mlx5cq send cq: %d", rte_errno);
	} else {
		TEST_ASSERT_SUCCESS(cq_make(p, &p->scq), "send cq");
	}
	if (rattr != NULL) {
		p->lrcq = rte_mlx5cq_create(p->ldev, rattr);
		TEST_ASSERT_NOT_NULL(p->lrcq, "mlx5cq recv cq: %d", rte_errno);
	} else {
		TEST_ASSERT_SUCCESS(cq_make(p, &p->rcq), "recv cq");
	}
	memset(&sqa, 0, sizeof(sqa));
	sqa.cqn = p->lscq != NULL ? lcqn(p->lscq) :
		  (uint32_t)p->scq.cq->id;
	sqa.tis_lst_sz = 1;
	sqa.tis_num = p->tis->id;
	sqa.wq_attr.pd = p->pdn;
	sqa.wq_attr.uar_page = p->uar->page_id;
	sqa.min_wqe_inline_mode = nport_sq_inline;
	TEST_ASSERT_SUCCESS(mlx5_devx_sq_create(p->ctx, &p->sq, LOG_SQ, &sqa,
						SOCKET_ID_ANY), "sq");
	memset(&msq, 0, sizeof(msq));
	msq.sq_state = MLX5_SQC_STATE_RST;
	msq.state = MLX5_SQC_STATE_RDY;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_sq(p->sq.sq, &msq), "sq rdy");
	memset(&rqa, 0, sizeof(rqa));
	rqa.cqn = p->lrcq != NULL ? lcqn(p->lrcq) :
		  (uint32_t)p->rcq.cq->id;
	rqa.vsd = vsd;
	rqa.wq_attr.wq_type = MLX5_WQ_TYPE_CYCLIC;
	rqa.wq_attr.log_wq_stride = 4;
	rqa.wq_attr.log_wq_sz = LOG_RQ;
	rqa.wq_attr.pd = p->pdn;
	TEST_ASSERT_SUCCESS(mlx5_devx_rq_create(p->ctx, &p->rq, 16, LOG_RQ,
						&rqa, SOCKET_ID_ANY), "rq");
	memset(&mrq, 0, sizeof(mrq));
	mrq.rq_state = MLX5_RQC_STATE_RST;
	mrq.state = MLX5_RQC_STATE_RDY;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_rq(p->rq.rq, &mrq), "rq rdy");
	rqta = calloc(1, sizeof(*rqta) + sizeof(uint32_t));
	TEST_ASSERT_NOT_NULL(rqta, "rqt attr");
	rqta->rq_type = MLX5_INLINE_Q_TYPE_RQ;
	rqta->rqt_max_size = 1;
	rqta->rqt_actual_size = 1;
	rqta->rq_list[0] = p->rq.rq->id;
	p->rqt = mlx5_devx_cmd_create_rqt(p->ctx, rqta);
	free(rqta);
	TEST_ASSERT_NOT_NULL(p->rqt, "rqt");
	TEST_ASSERT_SUCCESS(tir_make(p, p->rqt, ALL_FIELDS), "tir");
	return TEST_SUCCESS;
}

/* A port with both CQs from mlx5_devx_cq_create(). */
static int
nport_open(struct nport *p, const char *name, const char *wire,
	   const uint8_t *mac, int vsd)
{
	return nport_open_ex(p, name, wire, mac, vsd, NULL, NULL);
}

/* Tear a port down; everything must go and the device must close. */
static int
nport_close(struct nport *p)
{
	struct mlx5_emu_stats st;
	struct mlx5_emu_net_stats ns;

	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(p->tir), "tir");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(p->rqt), "rqt");
	mlx5_devx_rq_destroy(&p->rq);
	mlx5_devx_sq_destroy(&p->sq);
	mlx5_devx_cq_destroy(&p->scq);
	mlx5_devx_cq_destroy(&p->rcq);
	if (p->lscq != NULL)
		TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(p->lscq), "send cq");
	if (p->lrcq != NULL)
		TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(p->lrcq), "recv cq");
	if (p->ldev != NULL)
		TEST_ASSERT_SUCCESS(rte_mlx5cq_dev_close(p->ldev), "dev");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(p->tis), "tis");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(p->td), "td");
	TEST_ASSERT_SUCCESS(mlx5_glue->dereg_mr(p->mr), "dereg");
	rte_free(p->data);
	mlx5_glue->devx_free_uar(p->uar);
	TEST_ASSERT_SUCCESS(mlx5_glue->dealloc_pd(p->pd), "pd");
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(p->ctx, &st), "stats");
	TEST_ASSERT(st.umems == 0 && st.devx_objs == 0 && st.cqs == 0 &&
		    st.uars == 0 && st.pds == 0, "device empty");
	TEST_ASSERT_SUCCESS(mlx5_emu_net_stats_get(p->ctx, &ns), "net stats");
	TEST_ASSERT(ns.mrs == 0 && ns.tds == 0 && ns.tiss == 0 &&
		    ns.sqs == 0 && ns.rqs == 0 && ns.rqts == 0 && ns.tirs == 0,
		    "no network objects");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(p->ctx), "close");
	return TEST_SUCCESS;
}

static void
heap_snap(uint64_t *allocs, uint64_t *bytes)
{
	struct rte_malloc_socket_stats st;
	int i;

	*allocs = 0;
	*bytes = 0;
	for (i = 0; i < RTE_MAX_NUMA_NODES; i++) {
		if (rte_malloc_get_socket_stats(i, &st) != 0)
			continue;
		*allocs += st.alloc_count;
		*bytes += st.heap_allocsz_bytes;
	}
}

/* --- tests ---------------------------------------------------------------- */

static int
test_net_caps(void)
{
	struct mlx5_emu_caps caps;
	struct mlx5_hca_attr attr;
	struct mlx5_emu_stats s0, s1;
	struct ibv_context *ctx;

	ctx = mlx5_emu_open("enet_caps", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	memset(&attr, 0, sizeof(attr));
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_hca_attr(ctx, &attr), "attr");
	TEST_ASSERT(attr.eth_net_offloads == 1 && attr.csum_cap == 1 &&
		    attr.vlan_cap == 1 && attr.wqe_vlan_insert == 1 &&
		    attr.lro_cap == 0 && attr.max_lso_cap == 0 &&
		    attr.wqe_inline_mode ==
		    MLX5_CAP_INLINE_MODE_NOT_REQUIRED &&
		    attr.rss_ind_tbl_cap == 11, "Ethernet offload caps");
	TEST_ASSERT(attr.log_max_wq_sz == 16 && attr.log_max_pd == 17,
		    "queue caps");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	/* Without the cap: one command, no network caps. */
	mlx5_emu_caps_default(&caps);
	caps.eth_net_offloads = 0;
	ctx = mlx5_emu_open("enet_caps0", &caps);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	memset(&attr, 0, sizeof(attr));
	mlx5_emu_stats_get(ctx, &s0);
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_hca_attr(ctx, &attr), "attr");
	mlx5_emu_stats_get(ctx, &s1);
	TEST_ASSERT(attr.eth_net_offloads == 0 && attr.csum_cap == 0 &&
		    s1.cmds - s0.cmds == 1, "no Ethernet caps");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	return TEST_SUCCESS;
}

/* A lone port receives its own frame; TX and RX CQEs as the PRM lays
 * them out; checksums filled by the device; the RSS hash of vector 1.
 */
static int
test_net_loopback(void)
{
	uint8_t frame[256], sent[256];
	struct mlx5_emu_port_stats ps;
	struct nport p;
	const uint8_t *c;
	uint32_t len;
	int ret;

	ret = nport_open(&p, "enet_lb", "enet_wire_lb", mac_a, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	rq_post(&p, 4);
	len = frame_tcp4(frame, mac_a, mac_b, 100, 0, 0);
	/* Send it with zeroed checksums: the device fills both. */
	memcpy(sent, frame, len);
	memset(sent + 24, 0, 2);
	memset(sent + 50, 0, 2);
	send_frame(&p, sent, len, MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM);
	TEST_ASSERT_EQUAL(mlx5_emu_net_progress(), 1u, "one WQE executed");
	/* Requester CQE: opcode REQ (0), wqe_counter 0, qpn = sqn. */
	c = cqe_next(&p.scq, &p.scq_ci);
	TEST_ASSERT_NOT_NULL(c, "TX CQE");
	TEST_ASSERT_EQUAL(c[CQE_OP_OWN], 0x00, "REQ, owner 0");
	TEST_ASSERT_EQUAL(rd16(c + CQE_WQE_CNT), 0, "wqe_counter");
	TEST_ASSERT_EQUAL((rd32(c + CQE_QPN) & 0xffffff),
			  (uint32_t)p.sq.sq->id, "sqn");
	TEST_ASSERT_EQUAL(c[CQE_QPN], 0x0a, "s_wqe_opcode SEND");
	/* Responder CQE. */
	c = cqe_next(&p.rcq, &p.rcq_ci);
	TEST_ASSERT_NOT_NULL(c, "RX CQE");
	TEST_ASSERT_EQUAL(c[CQE_OP_OWN], 0x20, "RESP_SEND, owner 0");
	TEST_ASSERT_EQUAL(rd32(c + CQE_BYTE_CNT), len, "byte_cnt");
	TEST_ASSERT_EQUAL(rd16(c + CQE_WQE_CNT), 0, "wqe_counter");
	/* L2_OK|L3_OK|L4_OK, IPv4 (l3 type 2), TCP without ACK (l4 1). */
	TEST_ASSERT_EQUAL(rd16(c + CQE_HDR_TYPE), 0x0718,
			  "hdr_type_etc (0x%04x)", rd16(c + CQE_HDR_TYPE));
	TEST_ASSERT_EQUAL(rd32(c + CQE_HASH_RES), 0x51ccc178u, "RSS TCPv4");
	TEST_ASSERT_EQUAL(c[CQE_HASH_TYPE], 0x44, "hash type IPv4 + TCP");
	TEST_ASSERT(rd32(c + CQE_TIMESTAMP) != 0 ||
		    rd32(c + CQE_TIMESTAMP + 4) != 0, "timestamp");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(p.data, frame, len, "frame byte-exact");
	TEST_ASSERT_NULL(cqe_next(&p.rcq, &p.rcq_ci), "one RX CQE");
	TEST_ASSERT_SUCCESS(mlx5_emu_port_stats_get(p.ctx, &ps), "stats");
	TEST_ASSERT(ps.tx_packets == 1 && ps.tx_bytes == len &&
		    ps.rx_packets == 1 && ps.rx_bytes == len &&
		    ps.rx_out_of_buffer == 0 && ps.tx_errors == 0, "counters");
	return nport_close(&p);
}

/* Two ports: A's frame reaches B only; bad checksums clear the OK bits;
 * IPv6/UDP; the RSS hash on addresses only; the engine thread alone.
 */
static int
test_net_two_ports(void)
{
	uint8_t frame[256];
	struct mlx5_emu_port_stats pa, pb;
	struct mlx5_emu_net_stats ns;
	struct nport a, b;
	const uint8_t *c;
	uint32_t len, len6;
	uint64_t deadline;
	int ret, i;

	ret = nport_open(&a, "enet_a", "enet_wire_ab", mac_a, 0);
	if (ret == TEST_SUCCESS)
		ret = nport_open(&b, "enet_b", "enet_wire_ab", mac_b, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	rq_post(&a, 4);
	rq_post(&b, 4);
	len = frame_tcp4(frame, mac_b, mac_a, 40, 1, 0);
	send_frame(&a, frame, len, 0);
	len = frame_tcp4(frame, mac_b, mac_a, 40, 0, 1);
	send_frame(&a, frame, len, 0);
	len6 = frame_udp6(frame, mac_b, mac_a, 33);
	send_frame(&a, frame, len6, 0);
	TEST_ASSERT_EQUAL(mlx5_emu_net_progress(), 3u, "three WQEs");
	for (i = 0; i < 3; i++) {
		c = cqe_next(&a.scq, &a.scq_ci);
		TEST_ASSERT_NOT_NULL(c, "TX CQE %d", i);
		TEST_ASSERT_EQUAL(rd16(c + CQE_WQE_CNT), i, "wqe_counter");
	}
	c = cqe_next(&b.rcq, &b.rcq_ci);
	TEST_ASSERT_NOT_NULL(c, "bad IP checksum frame");
	TEST_ASSERT_EQUAL(rd16(c + CQE_HDR_TYPE), 0x0518,
			  "L2_OK, L4_OK, no L3_OK (0x%04x)",
			  rd16(c + CQE_HDR_TYPE));
	c = cqe_next(&b.rcq, &b.rcq_ci);
	TEST_ASSERT_NOT_NULL(c, "bad TCP checksum frame");
	TEST_ASSERT_EQUAL(rd16(c + CQE_HDR_TYPE), 0x0318,
			  "L2_OK, L3_OK, no L4_OK (0x%04x)",
			  rd16(c + CQE_HDR_TYPE));
	TEST_ASSERT_EQUAL(rd16(c + CQE_WQE_CNT), 1, "RX wqe_counter");
	c = cqe_next(&b.rcq, &b.rcq_ci);
	TEST_ASSERT_NOT_NULL(c, "IPv6 frame");
	/* IPv6 (l3 type 1) UDP (l4 type 2), all OK; IPv4 TIR: no hash. */
	TEST_ASSERT_EQUAL(rd16(c + CQE_HDR_TYPE), 0x0724,
			  "IPv6/UDP (0x%04x)", rd16(c + CQE_HDR_TYPE));
	TEST_ASSERT_EQUAL(rd32(c + CQE_HASH_RES), 0u, "other L3: no hash");
	TEST_ASSERT_EQUAL(c[CQE_HASH_TYPE], 0, "hash type 0");
	TEST_ASSERT_EQUAL(rd32(c + CQE_BYTE_CNT), len6, "byte_cnt");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(b.data + 2 * BUF_SZ, frame, len6,
				      "IPv6 frame byte-exact");
	TEST_ASSERT_NULL(cqe_next(&a.rcq, &a.rcq_ci), "sender gets nothing");
	mlx5_emu_port_stats_get(a.ctx, &pa);
	mlx5_emu_port_stats_get(b.ctx, &pb);
	TEST_ASSERT(pa.tx_packets == 3 && pa.rx_packets == 0 &&
		    pb.rx_packets == 3 && pb.tx_packets == 0, "counters");
	/* The engine thread runs while queues are ready: no progress call,
	 * wait for the CQE (bounded; no timing assertion).
	 */
	TEST_ASSERT_SUCCESS(mlx5_emu_net_stats_get(a.ctx, &ns), "ns");
	TEST_ASSERT(ns.engine_running == 1 && ns.ready_queues == 4,
		    "engine up, 4 ready queues");
	len = frame_tcp4(frame, mac_b, mac_a, 10, 0, 0);
	mlx5_emu_net_engine_pause(0);
	send_frame(&a, frame, len, 0);
	c = NULL;
	deadline = test_wait_deadline(TEST_WAIT_S);
	while (c == NULL && !test_wait_expired(deadline)) {
		c = cqe_next(&b.rcq, &b.rcq_ci);
		if (c == NULL)
			usleep(10);
	}
	mlx5_emu_net_engine_pause(1);
	TEST_ASSERT_NOT_NULL(c, "frame delivered by the engine thread");
	TEST_ASSERT_EQUAL(rd32(c + CQE_BYTE_CNT), len, "byte_cnt");
	ret = nport_close(&a);
	if (ret == TEST_SUCCESS)
		ret = nport_close(&b);
	if (ret != TEST_SUCCESS)
		return ret;
	/* Only other suites' queues could be ready now: none. */
	TEST_ASSERT(mlx5_emu_net_progress() == 0, "nothing left");
	return TEST_SUCCESS;
}

/* VLAN strip (vsd 0), then vsd 1 through MODIFY_RQ (RDY -> RDY). */
static int
test_net_vlan_strip(void)
{
	uint8_t frame[256], tagged[256];
	struct mlx5_devx_modify_rq_attr mrq;
	struct nport p;
	const uint8_t *c;
	uint32_t len;
	int ret;

	ret = nport_open(&p, "enet_vlan", "enet_wire_vlan", mac_a, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	rq_post(&p, 2);
	len = frame_tcp4(frame, mac_a, mac_b, 20, 0, 0);
	memcpy(tagged, frame, 12);
	put16(tagged + 12, 0x8100);
	put16(tagged + 14, 0x2064); /* PCP 1, VID 0x064 */
	memcpy(tagged + 16, frame + 12, len - 12);
	send_frame(&p, tagged, len + 4, 0);
	mlx5_emu_net_progress();
	c = cqe_next(&p.rcq, &p.rcq_ci);
	TEST_ASSERT_NOT_NULL(c, "RX CQE");
	TEST_ASSERT_EQUAL(rd32(c + CQE_BYTE_CNT), len, "tag removed");
	TEST_ASSERT_EQUAL(rd16(c + CQE_HDR_TYPE), 0x0719,
			  "VLAN stripped (0x%04x)", rd16(c + CQE_HDR_TYPE));
	TEST_ASSERT_EQUAL(rd16(c + CQE_VLAN), 0x2064, "vlan_info");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(p.data, frame, len, "untagged frame");
	memset(&mrq, 0, sizeof(mrq));
	mrq.rq_state = MLX5_RQC_STATE_RDY;
	mrq.state = MLX5_RQC_STATE_RDY;
	mrq.vsd = 1;
	mrq.modify_bitmask = MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_VSD;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_rq(p.rq.rq, &mrq), "vsd 1");
	send_frame(&p, tagged, len + 4, 0);
	mlx5_emu_net_progress();
	c = cqe_next(&p.rcq, &p.rcq_ci);
	TEST_ASSERT_NOT_NULL(c, "RX CQE");
	TEST_ASSERT_EQUAL(rd32(c + CQE_BYTE_CNT), len + 4, "tag kept");
	TEST_ASSERT_EQUAL(rd16(c + CQE_HDR_TYPE), 0x0718,
			  "not stripped (0x%04x)", rd16(c + CQE_HDR_TYPE));
	TEST_ASSERT_EQUAL(rd16(c + CQE_VLAN), 0, "no vlan_info");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(p.data + BUF_SZ, tagged, len + 4,
				      "tagged frame");
	return nport_close(&p);
}

/* A data segment outside the MR: error CQE 0x04, SQ in error; recovery
 * through RST -> RDY.
 */
static int
test_net_lkey_error(void)
{
	struct mlx5_devx_modify_sq_attr msq;
	struct mlx5_emu_port_stats ps;
	uint8_t frame[128];
	struct nport p;
	const uint8_t *c;
	uint32_t len;
	int ret;

	ret = nport_open(&p, "enet_lkey", "enet_wire_lkey", mac_a, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	rq_post(&p, 2);
	len = frame_tcp4(frame, mac_a, mac_b, 30, 0, 0);
	/* One byte past the end of the MR. */
	sq_send(&p, frame, len, 0, p.mr->lkey,
		(uintptr_t)(p.data + DATA_SZ - (len - 18) + 1), 0);
	TEST_ASSERT_EQUAL(mlx5_emu_net_progress(), 1u, "executed");
	c = cqe_next(&p.scq, &p.scq_ci);
	TEST_ASSERT_NOT_NULL(c, "error CQE without CQ_UPDATE");
	TEST_ASSERT_EQUAL(c[CQE_OP_OWN] >> 4, 13, "REQ_ERR");
	TEST_ASSERT_EQUAL(c[CQE_SYNDROME], 0x04, "LOC_PROT_ERR");
	TEST_ASSERT_EQUAL(rd16(c + CQE_WQE_CNT), 0, "wqe_counter");
	TEST_ASSERT_NULL(cqe_next(&p.rcq, &p.rcq_ci), "nothing sent");
	/* A good WQE is not executed while the SQ is in error. */
	send_frame(&p, frame, len, 0);
	TEST_ASSERT_EQUAL(mlx5_emu_net_progress(), 0u, "SQ stopped");
	/* A wrong lkey is a protection error too (after recovery). */
	memset(&msq, 0, sizeof(msq));
	msq.sq_state = MLX5_SQC_STATE_RDY;
	msq.state = MLX5_SQC_STATE_RST;
	TEST_ASSERT_FAIL(mlx5_devx_cmd_modify_sq(p.sq.sq, &msq),
			 "SQ is not RDY");
	msq.sq_state = MLX5_SQC_STATE_ERR;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_sq(p.sq.sq, &msq), "ERR>RST");
	msq.sq_state = MLX5_SQC_STATE_RST;
	msq.state = MLX5_SQC_STATE_RDY;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_sq(p.sq.sq, &msq), "RST>RDY");
	p.sq_pi = 0;
	p.sq.db_rec[MLX5_SND_DBR] = 0;
	sq_send(&p, frame, len, 0, p.mr->lkey ^ 0x100,
		(uintptr_t)(p.data + DATA_SZ / 2), 1);
	TEST_ASSERT_EQUAL(mlx5_emu_net_progress(), 1u, "executed");
	c = cqe_next(&p.scq, &p.scq_ci);
	TEST_ASSERT_NOT_NULL(c, "error CQE");
	TEST_ASSERT(c[CQE_OP_OWN] >> 4 == 13 && c[CQE_SYNDROME] == 0x04,
		    "unknown lkey: LOC_PROT_ERR");
	/* Recover again and send a good frame. */
	msq.sq_state = MLX5_SQC_STATE_ERR;
	msq.state = MLX5_SQC_STATE_RST;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_sq(p.sq.sq, &msq), "ERR>RST");
	msq.sq_state = MLX5_SQC_STATE_RST;
	msq.state = MLX5_SQC_STATE_RDY;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_sq(p.sq.sq, &msq), "RST>RDY");
	p.sq_pi = 0;
	p.sq.db_rec[MLX5_SND_DBR] = 0;
	send_frame(&p, frame, len, 0);
	TEST_ASSERT_EQUAL(mlx5_emu_net_progress(), 1u, "executed");
	c = cqe_next(&p.scq, &p.scq_ci);
	TEST_ASSERT(c != NULL && c[CQE_OP_OWN] >> 4 == 0, "REQ CQE");
	c = cqe_next(&p.rcq, &p.rcq_ci);
	TEST_ASSERT_NOT_NULL(c, "received");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(p.data, frame, len, "frame");
	mlx5_emu_port_stats_get(p.ctx, &ps);
	TEST_ASSERT(ps.tx_errors == 2 && ps.tx_packets == 1, "counters");
	return nport_close(&p);
}

/* RQ in error back to RDY (ERR -> RST -> RDY), its ring empty. */
static int
rq_recover(struct nport *p)
{
	struct mlx5_devx_modify_rq_attr mrq;

	memset(&mrq, 0, sizeof(mrq));
	mrq.rq_state = MLX5_RQC_STATE_ERR;
	mrq.state = MLX5_RQC_STATE_RST;
	if (mlx5_devx_cmd_modify_rq(p->rq.rq, &mrq) != 0)
		return -1;
	mrq.rq_state = MLX5_RQC_STATE_RST;
	mrq.state = MLX5_RQC_STATE_RDY;
	if (mlx5_devx_cmd_modify_rq(p->rq.rq, &mrq) != 0)
		return -1;
	p->rq_pi = 0;
	return 0;
}

/* No posted RX WQE: dropped and counted; a frame longer than the buffer:
 * responder error CQE LOC_LEN_ERR, RQ in error; an RX buffer outside the
 * MR: LOC_PROT_ERR.
 */
static int
test_net_rx_errors(void)
{
	struct mlx5_emu_port_stats ps;
	static uint8_t frame[4096];
	struct nport p;
	const uint8_t *c;
	uint32_t len;
	uint8_t *d;
	int ret;

	ret = nport_open(&p, "enet_rxe", "enet_wire_rxe", mac_a, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	len = frame_tcp4(frame, mac_a, mac_b, 30, 0, 0);
	send_frame(&p, frame, len, 0);
	mlx5_emu_net_progress();
	TEST_ASSERT_NULL(cqe_next(&p.rcq, &p.rcq_ci), "no RX CQE");
	mlx5_emu_port_stats_get(p.ctx, &ps);
	TEST_ASSERT(ps.rx_out_of_buffer == 1 && ps.rx_packets == 0, "drop");
	/* Longer than the WQE's buffer (byte_count 64). */
	rq_post(&p, 1);
	((uint8_t *)(uintptr_t)p.rq.wq.umem_buf)[2] = 0;
	((uint8_t *)(uintptr_t)p.rq.wq.umem_buf)[3] = 64;
	len = frame_tcp4(frame, mac_a, mac_b, 11, 0, 0);
	send_frame(&p, frame, len, 0);
	mlx5_emu_net_progress();
	c = cqe_next(&p.rcq, &p.rcq_ci);
	TEST_ASSERT_NOT_NULL(c, "error CQE");
	TEST_ASSERT(c[CQE_OP_OWN] >> 4 == 14 && c[CQE_SYNDROME] == 0x01 &&
		    rd16(c + CQE_WQE_CNT) == 0, "RESP_ERR LOC_LEN_ERR WQE 0");
	/* RQ in error: the next frame is not received. */
	rq_post(&p, 1);
	len = frame_tcp4(frame, mac_a, mac_b, 30, 0, 0);
	send_frame(&p, frame, len, 0);
	mlx5_emu_net_progress();
	TEST_ASSERT_NULL(cqe_next(&p.rcq, &p.rcq_ci), "RQ in error");
	mlx5_emu_port_stats_get(p.ctx, &ps);
	TEST_ASSERT(ps.rx_errors == 1 && ps.rx_no_queue == 1, "counted");
	/* Recover (ERR -> RST -> RDY), post a WQE outside the MR. */
	TEST_ASSERT_SUCCESS(rq_recover(&p), "ERR>RST>RDY");
	rq_post(&p, 1);
	d = (uint8_t *)(uintptr_t)p.rq.wq.umem_buf;
	{
		uint64_t be = rte_cpu_to_be_64((uintptr_t)(p.data + DATA_SZ -
							    50));

		memcpy(d + 8, &be, 8);
	}
	send_frame(&p, frame, len, 0);
	mlx5_emu_net_progress();
	c = cqe_next(&p.rcq, &p.rcq_ci);
	TEST_ASSERT_NOT_NULL(c, "error CQE");
	TEST_ASSERT(c[CQE_OP_OWN] >> 4 == 14 && c[CQE_SYNDROME] == 0x04,
		    "RESP_ERR LOC_PROT_ERR");
	return nport_close(&p);
}

/* Frame f (len bytes) sent and received into a WQE of lkey at buf:
 * the receive CQE, or NULL.
 */
static const uint8_t *
recv_at(struct nport *p, uint32_t lkey, const void *buf, const uint8_t *f,
	uint32_t len)
{
	rq_post_at(p, lkey, buf);
	send_frame(p, f, len, 0);
	mlx5_emu_net_progress();
	return cqe_next(&p->rcq, &p->rcq_ci);
}

/*
 * The receive side's memory key check through the RQ's MR hint (the last
 * MR one of its WQEs named, its range and rights copied into the queue):
 * a buffer of an MR without local write refused twice in a row (the
 * second time the hint is that MR), and the lkey of an MR deregistered
 * after a good receive into it (the hint) refused.
 */
static int
test_net_mr_hint(void)
{
	static uint8_t frame[256], ro_buf[BUF_SZ], tmp_buf[BUF_SZ];
	struct ibv_mr *ro = NULL, *tmp = NULL;
	struct nport p;
	const uint8_t *c;
	uint32_t len, old;
	int i, ret;

	ret = nport_open(&p, "enet_mrh", "enet_wire_mrh", mac_a, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	ret = TEST_FAILED;
	ro = mlx5_glue->reg_mr(p.pd, ro_buf, sizeof(ro_buf), 0);
	tmp = mlx5_glue->reg_mr(p.pd, tmp_buf, sizeof(tmp_buf),
				IBV_ACCESS_LOCAL_WRITE);
	if (ro == NULL || tmp == NULL) {
		printf("  reg_mr failed\n");
		goto out;
	}
	len = frame_tcp4(frame, mac_a, mac_b, 30, 0, 0);
	for (i = 0; i < 2; i++) {
		c = recv_at(&p, ro->lkey, ro_buf, frame, len);
		if (c == NULL || c[CQE_OP_OWN] >> 4 != 14 ||
		    c[CQE_SYNDROME] != 0x04 || rq_recover(&p) != 0) {
			printf("  read-only MR, receive %d: not RESP_ERR "
			       "LOC_PROT_ERR\n", i + 1);
			goto out;
		}
	}
	c = recv_at(&p, tmp->lkey, tmp_buf, frame, len);
	if (c == NULL || c[CQE_OP_OWN] >> 4 != 2 ||
	    memcmp(tmp_buf, frame, len) != 0) {
		printf("  writable MR: frame not received\n");
		goto out;
	}
	old = tmp->lkey;
	if (mlx5_glue->dereg_mr(tmp) != 0)
		goto out;
	tmp = NULL;
	c = recv_at(&p, old, tmp_buf, frame, len);
	if (c == NULL || c[CQE_OP_OWN] >> 4 != 14 || c[CQE_SYNDROME] != 0x04 ||
	    rq_recover(&p) != 0) {
		printf("  lkey of a deregistered MR: not RESP_ERR "
		       "LOC_PROT_ERR\n");
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	if (tmp != NULL)
		mlx5_glue->dereg_mr(tmp);
	if (ro != NULL)
		mlx5_glue->dereg_mr(ro);
	if (nport_close(&p) != TEST_SUCCESS)
		ret = TEST_FAILED;
	return ret;
}

/*
 * Send len bytes at addr (in the port's MR) with a SEND WQE that inlines
 * nothing (PRM: Ethernet segment inline_hdr_sz 0, one data segment for
 * the whole frame; DS 3) and asks for a completion.
 */
static void
sq_send_noinline(struct nport *p, uint32_t len, uint64_t addr)
{
	uint8_t *w = sq_ctrl(p, 3, 1);
	uint32_t be32;
	uint64_t be64;

	be32 = rte_cpu_to_be_32(len); /* data segment at byte 32 */
	memcpy(w + 32, &be32, 4);
	be32 = rte_cpu_to_be_32(p->mr->lkey);
	memcpy(w + 36, &be32, 4);
	be64 = rte_cpu_to_be_64(addr);
	memcpy(w + 40, &be64, 8);
	sq_ring(p, w);
}

/*
 * One frame in a WQE without inline headers on a port whose device
 * reports inline mode cap_mode (NULL caps: the defaults) and whose SQ
 * asks for sq_mode; want_err: a requester error CQE (LOC_QP_OP_ERR)
 * is expected, else the frame received whole. TEST_SUCCESS or not.
 */
static int
inline_case(const char *name, int cap_mode, unsigned int sq_mode,
	    int want_err)
{
	struct mlx5_emu_caps caps;
	struct mlx5_hca_attr attr;
	uint8_t frame[128];
	struct nport p;
	const uint8_t *c, *r;
	uint8_t *tx;
	uint32_t len;
	int ret, rep;

	mlx5_emu_caps_default(&caps);
	if (cap_mode >= 0)
		caps.eth_inline_mode = (uint8_t)cap_mode;
	TEST_ASSERT_SUCCESS(mlx5_emu_open_caps_set(&caps), "caps");
	nport_sq_inline = sq_mode;
	ret = nport_open(&p, name, name, mac_a, 0);
	nport_sq_inline = 0;
	mlx5_emu_open_caps_set(NULL);
	if (ret != TEST_SUCCESS)
		return ret;
	memset(&attr, 0, sizeof(attr));
	rep = mlx5_devx_cmd_query_hca_attr(p.ctx, &attr);
	if (rep != 0 || attr.wqe_inline_mode != caps.eth_inline_mode) {
		printf("  %s: wqe_inline_mode %u (%u)\n", name,
		       attr.wqe_inline_mode, caps.eth_inline_mode);
		nport_close(&p);
		return TEST_FAILED;
	}
	rq_post(&p, 1);
	len = frame_tcp4(frame, mac_a, mac_b, 30, 0, 0);
	tx = p.data + DATA_SZ / 2;
	memcpy(tx, frame, len);
	sq_send_noinline(&p, len, (uintptr_t)tx);
	mlx5_emu_net_progress();
	c = cqe_next(&p.scq, &p.scq_ci);
	r = cqe_next(&p.rcq, &p.rcq_ci);
	ret = TEST_FAILED;
	if (c == NULL)
		printf("  %s: no send CQE\n", name);
	else if (want_err && (c[CQE_OP_OWN] >> 4 != 13 ||
			      c[CQE_SYNDROME] != 0x02))
		printf("  %s: not REQ_ERR LOC_QP_OP_ERR (op %u synd 0x%02x)"
		       "\n", name, c[CQE_OP_OWN] >> 4, c[CQE_SYNDROME]);
	else if (want_err && r != NULL)
		printf("  %s: frame sent\n", name);
	else if (!want_err && (c[CQE_OP_OWN] >> 4 != 0 || r == NULL ||
			       rd32(r + CQE_BYTE_CNT) != len ||
			       memcmp(p.data, frame, len) != 0))
		printf("  %s: frame not sent whole\n", name);
	else
		ret = TEST_SUCCESS;
	if (nport_close(&p) != TEST_SUCCESS)
		ret = TEST_FAILED;
	return ret;
}

/*
 * The L2 inline requirement (Ethernet caps wqe_inline_mode; with "vport
 * context" the NIC vport context's min_wqe_inline_mode, L2 in this model;
 * the SQ's own min_wqe_inline_mode): a SEND WQE that inlines nothing goes
 * out where nothing requires inline headers (the default, as ConnectX-5
 * and later report), and completes in error (REQ_ERR, LOC_QP_OP_ERR) on
 * an SQ of a device reporting L2 or "vport context", or created with min
 * inline mode L2. CREATE_SQ with a mode beyond L2 is refused, leaving
 * nothing behind.
 */
static int
test_net_inline_mode(void)
{
	struct mlx5_devx_create_sq_attr sqa;
	struct mlx5_devx_sq sq;
	struct nport p;
	int ret;

	TEST_ASSERT_SUCCESS(inline_case("enet_inl_none", -1,
					MLX5_INLINE_MODE_NONE, 0),
			    "not required: sent");
	TEST_ASSERT_SUCCESS(inline_case("enet_inl_l2",
					MLX5_CAP_INLINE_MODE_L2,
					MLX5_INLINE_MODE_NONE, 1),
			    "device L2: refused");
	TEST_ASSERT_SUCCESS(inline_case("enet_inl_vport",
					MLX5_CAP_INLINE_MODE_VPORT_CONTEXT,
					MLX5_INLINE_MODE_NONE, 1),
			    "vport context L2: refused");
	TEST_ASSERT_SUCCESS(inline_case("enet_inl_sq", -1,
					MLX5_INLINE_MODE_L2, 1),
			    "SQ L2: refused");
	ret = nport_open(&p, "enet_inl_ip", NULL, mac_a, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	memset(&sqa, 0, sizeof(sqa));
	sqa.cqn = (uint32_t)p.scq.cq->id;
	sqa.tis_lst_sz = 1;
	sqa.tis_num = p.tis->id;
	sqa.wq_attr.pd = p.pdn;
	sqa.wq_attr.uar_page = p.uar->page_id;
	sqa.min_wqe_inline_mode = MLX5_INLINE_MODE_IP;
	memset(&sq, 0, sizeof(sq));
	ret = mlx5_devx_sq_create(p.ctx, &sq, LOG_SQ, &sqa, SOCKET_ID_ANY);
	if (ret == 0)
		mlx5_devx_sq_destroy(&sq);
	TEST_ASSERT(ret != 0, "SQ with min inline mode IP created");
	return nport_close(&p);
}

/* MODIFY_NIC_VPORT_CONTEXT mailbox (kernel mlx5_ifc.h): 512 bytes of
 * header and context, then the address list.
 */
#define MNVC_LEN 512
static int
vport_modify(struct ibv_context *ctx, uint32_t select, const uint8_t *ctx256,
	     const uint8_t (*list)[6], unsigned int n, uint8_t *status,
	     uint32_t *synd)
{
	uint8_t in[MNVC_LEN + 8 * 8], out[16];
	unsigned int i;
	int ret;

	memset(in, 0, sizeof(in));
	memset(out, 0, sizeof(out));
	put16(in, 0x755);
	in[12] = (uint8_t)(select >> 24);
	in[13] = (uint8_t)(select >> 16);
	in[14] = (uint8_t)(select >> 8);
	in[15] = (uint8_t)select;
	if (ctx256 != NULL)
		memcpy(in + 256, ctx256, 256);
	for (i = 0; i < n; i++)
		memcpy(in + MNVC_LEN + 8 * i + 2, list[i], 6);
	ret = mlx5_glue->devx_general_cmd(ctx, in, MNVC_LEN + 8 * n, out,
					  sizeof(out));
	*status = out[0];
	*synd = rd32(out + 4);
	return ret;
}

/* field_select bits (bit 31 is the first bit of the word). */
#define SEL_ADDR_LIST (1u << 2)
#define SEL_PERM_ADDR (1u << 3)
#define SEL_PROMISC (1u << 4)
#define SEL_MTU (1u << 6)

/* nic_vport_context byte offsets (mlx5_prm.h): mtu bits 0x130..0x13f,
 * promisc_* bits 0x780.., allowed_list_type 0x785, size 0x794.
 */
#define NVC_MTU 0x26
#define NVC_PROMISC 0xf0
#define NVC_LIST 0xf0

static int
test_net_vport_filter(void)
{
	static const uint8_t mc[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 };
	static const uint8_t bc[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t other[6] = { 0x02, 0x99, 0, 0, 0, 0x07 };
	uint8_t frame[256], ctx256[256], qin[16], qout[16 + 256 + 64];
	struct mlx5_emu_port_stats pb;
	struct nport a, b;
	uint32_t len, synd;
	uint8_t st;
	int ret;

	ret = nport_open(&a, "enet_fa", "enet_wire_f", mac_a, 0);
	if (ret == TEST_SUCCESS)
		ret = nport_open(&b, "enet_fb", "enet_wire_f", mac_b, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	rq_post(&b, 16);
	/* Default: own MAC and broadcast; others filtered. */
	len = frame_tcp4(frame, other, mac_a, 10, 0, 0);
	send_frame(&a, frame, len, 0);
	len = frame_tcp4(frame, mc, mac_a, 10, 0, 0);
	send_frame(&a, frame, len, 0);
	len = frame_tcp4(frame, bc, mac_a, 10, 0, 0);
	send_frame(&a, frame, len, 0);
	mlx5_emu_net_progress();
	mlx5_emu_port_stats_get(b.ctx, &pb);
	TEST_ASSERT(pb.rx_filtered == 2 && pb.rx_packets == 1,
		    "unicast and multicast filtered, broadcast accepted");
	/* promisc_mc (allmulti): the multicast frame passes. */
	memset(ctx256, 0, sizeof(ctx256));
	ctx256[NVC_PROMISC] = 0x40;
	TEST_ASSERT_SUCCESS(vport_modify(b.ctx, SEL_PROMISC, ctx256, NULL, 0,
					 &st, &synd), "allmulti");
	len = frame_tcp4(frame, mc, mac_a, 10, 0, 0);
	send_frame(&a, frame, len, 0);
	/* Allowed unicast list. */
	memset(ctx256, 0, sizeof(ctx256));
	ctx256[NVC_LIST + 3] = 1; /* allowed_list_size 1 (UC type 0) */
	TEST_ASSERT_SUCCESS(vport_modify(b.ctx, SEL_ADDR_LIST, ctx256, &other,
					 1, &st, &synd), "uc list");
	len = frame_tcp4(frame, other, mac_a, 10, 0, 0);
	send_frame(&a, frame, len, 0);
	mlx5_emu_net_progress();
	mlx5_emu_port_stats_get(b.ctx, &pb);
	TEST_ASSERT(pb.rx_filtered == 2 && pb.rx_packets == 3, "accepted");
	/* Query: permanent address, list, promisc bits, mtu. */
	memset(qin, 0, sizeof(qin));
	put16(qin, 0x754);
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_general_cmd(b.ctx, qin,
			    sizeof(qin), qout, sizeof(qout)), "query");
	TEST_ASSERT_EQUAL(qout[0], 0, "status");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(qout + 16 + 0xf4 + 2, mac_b, 6,
				      "permanent_address");
	TEST_ASSERT_EQUAL((qout[16 + NVC_PROMISC] & 0xe0), 0x40, "promisc_mc");
	TEST_ASSERT_EQUAL((rd16(qout + 16 + NVC_LIST + 2) & 0xfff), 1u,
			  "list size");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(qout + 16 + 256 + 2, other, 6, "entry");
	TEST_ASSERT_EQUAL(rd16(qout + 16 + NVC_MTU), 1522, "default mtu");
	TEST_ASSERT_EQUAL((qout[16] & 7), MLX5_INLINE_MODE_L2,
			  "min_wqe_inline_mode L2");
	/* promisc_uc: anything unicast. */
	memset(ctx256, 0, sizeof(ctx256));
	ctx256[NVC_PROMISC] = 0x80;
	TEST_ASSERT_SUCCESS(vport_modify(b.ctx, SEL_PROMISC, ctx256, NULL, 0,
					 &st, &synd), "promisc");
	frame[5] = 0x55;
	send_frame(&a, frame, len, 0);
	len = frame_tcp4(frame, mc, mac_a, 10, 0, 0);
	send_frame(&a, frame, len, 0); /* promisc_mc cleared: filtered. */
	mlx5_emu_net_progress();
	mlx5_emu_port_stats_get(b.ctx, &pb);
	TEST_ASSERT(pb.rx_filtered == 3 && pb.rx_packets == 4, "promisc");
	/* A new permanent address replaces the old one. */
	memset(ctx256, 0, sizeof(ctx256));
	memcpy(ctx256 + 0xf4 + 2, mac_c, 6);
	TEST_ASSERT_SUCCESS(vport_modify(b.ctx, SEL_PERM_ADDR | SEL_PROMISC,
					 ctx256, NULL, 0, &st, &synd), "mac");
	len = frame_tcp4(frame, mac_b, mac_a, 10, 0, 0);
	send_frame(&a, frame, len, 0);
	len = frame_tcp4(frame, mac_c, mac_a, 10, 0, 0);
	send_frame(&a, frame, len, 0);
	mlx5_emu_net_progress();
	mlx5_emu_port_stats_get(b.ctx, &pb);
	TEST_ASSERT(pb.rx_filtered == 4 && pb.rx_packets == 5,
		    "old MAC filtered, new accepted");
	/* Bad fields. */
	memset(ctx256, 0, sizeof(ctx256));
	ctx256[NVC_LIST + 3] = 2; /* two entries, none in the mailbox */
	TEST_ASSERT_EQUAL(vport_modify(b.ctx, SEL_ADDR_LIST, ctx256, NULL, 0,
				       &st, &synd), EIO,
			  "list longer than the mailbox");
	TEST_ASSERT(st == 0x50 && synd == MLX5_EMU_SYND_INLEN, "BAD_INP_LEN");
	memset(ctx256, 0, sizeof(ctx256));
	ctx256[NVC_LIST] = 2; /* list type 2 (VLAN) */
	TEST_ASSERT_EQUAL(vport_modify(b.ctx, SEL_ADDR_LIST, ctx256, NULL, 0,
				       &st, &synd), EINVAL, "VLAN list");
	TEST_ASSERT(st == CMD_STAT_BAD_PARAM &&
		    synd == MLX5_EMU_SYND_NET_MAC_LIST, "status");
	qin[8] = 0x80; /* other_vport */
	TEST_ASSERT_EQUAL(mlx5_glue->devx_general_cmd(b.ctx, qin, sizeof(qin),
			  qout, sizeof(qout)), EINVAL, "other vport");
	TEST_ASSERT_EQUAL(rd32(qout + 4), MLX5_EMU_SYND_NET_VPORT, "synd");
	ret = nport_close(&a);
	if (ret == TEST_SUCCESS)
		ret = nport_close(&b);
	return ret;
}

/* MTU drop; vport state follows the wire. */
static int
test_net_mtu_state(void)
{
	uint8_t frame[512], ctx256[256], in[16], out[16];
	struct mlx5_emu_port_stats ps;
	struct nport p;
	const uint8_t *c;
	uint32_t len, synd;
	uint8_t st;
	int ret;

	ret = nport_open(&p, "enet_mtu", "enet_wire_mtu", mac_a, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	rq_post(&p, 4);
	memset(in, 0, sizeof(in));
	put16(in, 0x750);
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_general_cmd(p.ctx, in, sizeof(in),
			    out, sizeof(out)), "vport state");
	TEST_ASSERT_EQUAL((out[15] & 0xf), 1, "UP on a wire");
	/* Hardware MTU 200: frames up to 196 bytes (+ FCS) pass. */
	memset(ctx256, 0, sizeof(ctx256));
	put16(ctx256 + NVC_MTU, 200);
	TEST_ASSERT_SUCCESS(vport_modify(p.ctx, SEL_MTU, ctx256, NULL, 0, &st,
					 &synd), "mtu");
	len = frame_tcp4(frame, mac_a, mac_b, 196 - 54, 0, 0);
	send_frame(&p, frame, len, 0);
	len = frame_tcp4(frame, mac_a, mac_b, 197 - 54, 0, 0);
	send_frame(&p, frame, len, 0);
	mlx5_emu_net_progress();
	c = cqe_next(&p.rcq, &p.rcq_ci);
	TEST_ASSERT(c != NULL && rd32(c + CQE_BYTE_CNT) == 196, "196 passes");
	TEST_ASSERT_NULL(cqe_next(&p.rcq, &p.rcq_ci), "197 dropped");
	mlx5_emu_port_stats_get(p.ctx, &ps);
	TEST_ASSERT_EQUAL(ps.rx_mtu_drops, 1u, "counted");
	put16(ctx256 + NVC_MTU, 20);
	TEST_ASSERT_EQUAL(vport_modify(p.ctx, SEL_MTU, ctx256, NULL, 0, &st,
				       &synd), EINVAL, "mtu too small");
	TEST_ASSERT(st == CMD_STAT_BAD_PARAM && synd == MLX5_EMU_SYND_NET_MTU,
		    "status");
	/* Off the wire: DOWN, frames sent are dropped. */
	TEST_ASSERT_SUCCESS(mlx5_emu_port_config(p.ctx, NULL, NULL), "off");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_general_cmd(p.ctx, in, sizeof(in),
			    out, sizeof(out)), "vport state");
	TEST_ASSERT_EQUAL((out[15] & 0xf), 0, "DOWN");
	send_frame(&p, frame, 100, 0);
	mlx5_emu_net_progress();
	mlx5_emu_port_stats_get(p.ctx, &ps);
	TEST_ASSERT_EQUAL(ps.tx_dropped, 1u, "tx dropped");
	TEST_ASSERT_EQUAL(mlx5_emu_wire_inject("enet_wire_mtu", frame, 100),
			  -ENOENT, "wire gone");
	return nport_close(&p);
}

/*
 * QUERY_VPORT_STATE max_tx_speed (kernel mlx5_ifc.h query_vport_state_out:
 * bits 0x60..0x6f, so bytes 12..13 big endian, in units of 100 Mb/s; state
 * in the low nibble of byte 15): the port's speed while UP, 0 while DOWN.
 */
static int
test_net_port_speed(void)
{
	uint8_t in[16], out[16];
	struct nport p;
	int ret;

	ret = nport_open(&p, "enet_speed", "enet_wire_speed", mac_a, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	memset(in, 0, sizeof(in));
	put16(in, 0x750);
	memset(out, 0xee, sizeof(out));
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_general_cmd(p.ctx, in, sizeof(in),
			    out, sizeof(out)), "vport state");
	TEST_ASSERT_EQUAL((out[15] & 0xf), 1, "UP on a wire");
	TEST_ASSERT(out[12] == 0x00 && out[13] == 0x0a,
		    "default 1000 Mb/s = 10 x 100: %02x %02x", out[12], out[13]);
	TEST_ASSERT_EQUAL(out[14], 0, "reserved_at_70");
	TEST_ASSERT_SUCCESS(mlx5_emu_port_speed_set(p.ctx, 25000), "25G");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_general_cmd(p.ctx, in, sizeof(in),
			    out, sizeof(out)), "vport state");
	TEST_ASSERT(out[12] == 0x00 && out[13] == 0xfa, "250 x 100 Mb/s");
	/* Not representable: refused, the speed stays. */
	TEST_ASSERT_EQUAL(mlx5_emu_port_speed_set(p.ctx, 150), -EINVAL, "150");
	TEST_ASSERT_EQUAL(mlx5_emu_port_speed_set(p.ctx, 6553600), -EINVAL,
			  "above 0xffff x 100");
	TEST_ASSERT_EQUAL(mlx5_emu_port_speed_set(NULL, 1000), -EINVAL,
			  "foreign context");
	TEST_ASSERT_SUCCESS(mlx5_emu_port_speed_set(p.ctx, 6553500), "max");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_general_cmd(p.ctx, in, sizeof(in),
			    out, sizeof(out)), "vport state");
	TEST_ASSERT(out[12] == 0xff && out[13] == 0xff, "0xffff x 100 Mb/s");
	/* DOWN: 0; back on a wire: the speed was kept. */
	TEST_ASSERT_SUCCESS(mlx5_emu_port_speed_set(p.ctx, 100000), "100G");
	TEST_ASSERT_SUCCESS(mlx5_emu_port_config(p.ctx, NULL, NULL), "off");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_general_cmd(p.ctx, in, sizeof(in),
			    out, sizeof(out)), "vport state");
	TEST_ASSERT(out[15] == 0x10 && out[12] == 0 && out[13] == 0,
		    "DOWN, no speed: %02x %02x %02x", out[12], out[13],
		    out[15]);
	TEST_ASSERT_SUCCESS(mlx5_emu_port_config(p.ctx, "enet_wire_speed2",
						 NULL), "on");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_general_cmd(p.ctx, in, sizeof(in),
			    out, sizeof(out)), "vport state");
	TEST_ASSERT(out[15] == 0x11 && out[12] == 0x03 && out[13] == 0xe8,
		    "UP, 1000 x 100 Mb/s");
	/* 0 restores the default. */
	TEST_ASSERT_SUCCESS(mlx5_emu_port_speed_set(p.ctx, 0), "default");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_general_cmd(p.ctx, in, sizeof(in),
			    out, sizeof(out)), "vport state");
	TEST_ASSERT(out[12] == 0x00 && out[13] == 0x0a, "default again");
	return nport_close(&p);
}

/* The Microsoft RSS verification vectors (IPv4 with TCP ports, then
 * addresses only) through a Toeplitz TIR with the default key.
 */
static int
test_net_rss(void)
{
	static const struct { uint8_t s[4], d[4]; uint16_t sp, dp;
			      uint32_t h4, h4tcp; } v[] = {
		{ { 66, 9, 149, 187 }, { 161, 142, 100, 80 }, 2794, 1766,
		  0x323e8fc2, 0x51ccc178 },
		{ { 199, 92, 111, 2 }, { 65, 69, 140, 83 }, 14230, 4739,
		  0xd718262a, 0xc626b0ea },
		{ { 24, 19, 198, 95 }, { 12, 22, 207, 184 }, 12898, 38024,
		  0xd2d0a5de, 0x5c2b394a },
		{ { 38, 27, 205, 30 }, { 209, 142, 163, 6 }, 48228, 2217,
		  0x82989176, 0xafc7327f },
		{ { 153, 39, 163, 191 }, { 202, 188, 127, 2 }, 44251, 1303,
		  0x5d1809c5, 0x10e828a2 },
	};
	uint8_t frame[128];
	struct nport p;
	const uint8_t *c;
	uint32_t len, i;
	int ret, pass;

	ret = nport_open(&p, "enet_rss", "enet_wire_rss", mac_a, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	rq_post(&p, 16);
	for (pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			/* Addresses only (SRC_IP | DST_IP). */
			TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(p.tir), "");
			TEST_ASSERT_SUCCESS(tir_make(&p, p.rqt, 0x3), "tir");
		}
		for (i = 0; i < RTE_DIM(v); i++) {
			len = frame_tcp4(frame, mac_a, mac_b, 8, 0, 0);
			memcpy(frame + 26, v[i].s, 4);
			memcpy(frame + 30, v[i].d, 4);
			put16(frame + 34, v[i].sp);
			put16(frame + 36, v[i].dp);
			send_frame(&p, frame, len, MLX5_ETH_WQE_L3_CSUM |
				   MLX5_ETH_WQE_L4_CSUM);
			mlx5_emu_net_progress();
			c = cqe_next(&p.rcq, &p.rcq_ci);
			TEST_ASSERT_NOT_NULL(c, "RX CQE %u", i);
			TEST_ASSERT_EQUAL(rd32(c + CQE_HASH_RES),
					  (pass ? v[i].h4 : v[i].h4tcp),
					  "vector %u pass %d", i, pass);
			TEST_ASSERT_EQUAL(c[CQE_HASH_TYPE], (pass ? 0x04 : 0x44),
					  "hash type");
			TEST_ASSERT_EQUAL(rd16(c + CQE_HDR_TYPE), 0x0718,
					  "checksums filled on TX (0x%04x)",
					  rd16(c + CQE_HDR_TYPE));
		}
	}
	return nport_close(&p);
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

/* Segment k (16 B) of the WQE at WQEBB idx, wrapping at the ring end. */
static uint8_t *
wqe_seg(struct nport *p, uint16_t idx, unsigned int k)
{
	uint32_t bb = ((uint32_t)idx + k / 4) & ((1u << LOG_SQ) - 1);

	return (uint8_t *)(uintptr_t)p->sq.umem_buf + 64 * bb + 16 * (k % 4);
}

/* A WQE that wraps at the ring end: 63 NOPs, then a 2-WQEBB SEND at
 * WQEBB 63 with 50 inline header bytes, an inline data segment and a
 * pointer segment; then a frame injected on the wire.
 */
static int
test_net_wqe_wrap(void)
{
	uint8_t frame[256], *seg, *tx;
	struct nport p;
	const uint8_t *c;
	uint32_t len, be32, i;
	uint64_t be64;
	int ret;

	ret = nport_open(&p, "enet_wrap", "enet_wire_wrap", mac_a, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	rq_post(&p, 2);
	for (i = 0; i < (1u << LOG_SQ) - 1; i++) {
		seg = wqe_seg(&p, p.sq_pi, 0);
		memset(seg, 0, 64);
		be32 = rte_cpu_to_be_32((uint32_t)p.sq_pi << 8 | 0x00);
		memcpy(seg, &be32, 4); /* NOP */
		be32 = rte_cpu_to_be_32((uint32_t)p.sq.sq->id << 8 | 1);
		memcpy(seg + 4, &be32, 4);
		p.sq_pi++;
	}
	/* The device consumes them before the SEND reuses WQEBB 0. */
	rte_wmb();
	p.sq.db_rec[MLX5_SND_DBR] = rte_cpu_to_be_32(p.sq_pi);
	TEST_ASSERT_EQUAL(mlx5_emu_net_progress(), 63u, "63 NOPs");
	TEST_ASSERT_NULL(cqe_next(&p.scq, &p.scq_ci), "no CQ_UPDATE, no CQE");
	len = frame_tcp4(frame, mac_a, mac_b, 120, 0, 0);
	/* cseg | eseg (2 inline bytes) | 48 inline bytes (3 segs) | inline
	 * data seg: 12 bytes | pointer seg: the rest. ds 7, 2 WQEBBs.
	 */
	for (i = 0; i < 8; i++)
		memset(wqe_seg(&p, p.sq_pi, i), 0, 16);
	seg = wqe_seg(&p, p.sq_pi, 0);
	be32 = rte_cpu_to_be_32((uint32_t)p.sq_pi << 8 | 0x0a);
	memcpy(seg, &be32, 4);
	be32 = rte_cpu_to_be_32((uint32_t)p.sq.sq->id << 8 | 7);
	memcpy(seg + 4, &be32, 4);
	seg[11] = 0x08;
	seg = wqe_seg(&p, p.sq_pi, 1);
	put16(seg + 12, 50);
	memcpy(seg + 14, frame, 2);
	for (i = 0; i < 3; i++)
		memcpy(wqe_seg(&p, p.sq_pi, 2 + i), frame + 2 + 16 * i, 16);
	seg = wqe_seg(&p, p.sq_pi, 5);
	be32 = rte_cpu_to_be_32(0x80000000u | 12);
	memcpy(seg, &be32, 4);
	memcpy(seg + 4, frame + 50, 12);
	tx = p.data + DATA_SZ / 2;
	memcpy(tx, frame + 62, len - 62);
	seg = wqe_seg(&p, p.sq_pi, 6);
	be32 = rte_cpu_to_be_32(len - 62);
	memcpy(seg, &be32, 4);
	be32 = rte_cpu_to_be_32(p.mr->lkey);
	memcpy(seg + 4, &be32, 4);
	be64 = rte_cpu_to_be_64((uintptr_t)tx);
	memcpy(seg + 8, &be64, 8);
	p.sq_pi += 2;
	rte_wmb();
	p.sq.db_rec[MLX5_SND_DBR] = rte_cpu_to_be_32(p.sq_pi);
	TEST_ASSERT_EQUAL(mlx5_emu_net_progress(), 1u, "the SEND");
	c = cqe_next(&p.scq, &p.scq_ci);
	TEST_ASSERT_NOT_NULL(c, "TX CQE");
	TEST_ASSERT_EQUAL(rd16(c + CQE_WQE_CNT), 63, "wqe_counter 63");
	TEST_ASSERT_NULL(cqe_next(&p.scq, &p.scq_ci), "only one");
	c = cqe_next(&p.rcq, &p.rcq_ci);
	TEST_ASSERT_NOT_NULL(c, "RX CQE");
	TEST_ASSERT_EQUAL(rd32(c + CQE_BYTE_CNT), len, "byte_cnt");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(p.data, frame, len, "byte-exact");
	/* A frame injected from outside reaches the lone port. */
	TEST_ASSERT_EQUAL(mlx5_emu_wire_inject("enet_wire_wrap", frame, len),
			  1, "one port");
	c = cqe_next(&p.rcq, &p.rcq_ci);
	TEST_ASSERT(c != NULL && rd16(c + CQE_WQE_CNT) == 1, "injected");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(p.data + BUF_SZ, frame, len, "frame");
	TEST_ASSERT_EQUAL(mlx5_emu_wire_inject("enet_wire_wrap", frame, 10),
			  -EINVAL, "runt");
	return nport_close(&p);
}

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
	/* TIR with the XOR hash, with LRO. */
	memset(&ta, 0, sizeof(ta));
	ta.disp_type = MLX5_TIRC_DISP_TYPE_INDIRECT;
	ta.indirect_table = p.rqt->id;
	ta.transport_domain = p.td->id;
	ta.rx_hash_fn = MLX5_RX_HASH_FN_INVERTED_XOR8;
	TEST_ASSERT_NULL(mlx5_devx_cmd_create_tir(p.ctx, &ta), "xor8");
	mlx5_emu_last_cmd_error(p.ctx, &st, &synd);
	TEST_ASSERT_EQUAL(synd, MLX5_EMU_SYND_NET_HASH, "NET_HASH");
	ta.rx_hash_fn = MLX5_RX_HASH_FN_TOEPLITZ;
	ta.lro_enable_mask = 1;
	TEST_ASSERT_NULL(mlx5_devx_cmd_create_tir(p.ctx, &ta), "LRO");
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

/* --- compression of network completions --------------------------------- */

/*
 * Toeplitz hash written bit by bit from its definition (Microsoft RSS):
 * for every set input bit b (most significant first) the 32 key bits
 * starting at bit b are xor-ed into the result.
 */
static uint32_t
toeplitz(const uint8_t *key, size_t key_len, const uint8_t *in, size_t n)
{
	uint32_t h = 0;
	size_t bit;

	for (bit = 0; bit < n * 8; bit++) {
		uint64_t w = 0;
		size_t k;

		if (!(in[bit / 8] & (0x80u >> (bit % 8))))
			continue;
		for (k = 0; k < 5; k++)
			w = w << 8 | (bit / 8 + k < key_len ? key[bit / 8 + k] :
				      0);
		h ^= (uint32_t)(w >> (8 - bit % 8));
	}
	return h;
}

/* The first Microsoft RSS verification vector (TCP/IPv4). */
static const struct tcp4_flow ms_flow1 = {
	.sip = { 66, 9, 149, 187 },
	.dip = { 161, 142, 100, 80 },
	.sport = 2794,
	.dport = 1766,
};

/* RSS hash of a TCP/IPv4 flow under the test TIR (ALL_FIELDS). */
static uint32_t
flow_hash(const struct tcp4_flow *fl)
{
	uint8_t in[12];

	memcpy(in, fl->sip, 4);
	memcpy(in + 4, fl->dip, 4);
	put16(in + 8, fl->sport);
	put16(in + 10, fl->dport);
	return toeplitz(ms_key, sizeof(ms_key), in, sizeof(in));
}

/* The CQE csum field: 16-bit one's complement sum (not complemented) of
 * the bytes after the Ethernet header.
 */
static uint16_t
frame_csum(const uint8_t *f, uint32_t len)
{
	uint32_t s = csum_sum(0, f + 14, len - 14);

	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

/*
 * Frames with Ethernet padding after the IP datagram (a 54-byte TCP SYN
 * padded to 64 bytes with non-zero bytes): the CQE's csum field sums every
 * byte after the Ethernet header, padding included; the IPv4 and TCP
 * checksums cover the datagram only (IP total length), so a good frame is
 * L3_OK|L4_OK and a bad TCP or IP checksum clears only its own bit.
 */
static int
test_net_padded_frame(void)
{
	static const int bad[3][2] = { { 0, 0 }, { 0, 1 }, { 1, 0 } };
	/* L2_OK, IPv4, TCP without ACK; then without L4_OK, without L3_OK. */
	static const uint16_t ht[3] = { 0x0718, 0x0318, 0x0518 };
	uint8_t frame[3][64];
	struct nport p;
	const uint8_t *c;
	uint32_t i, k;
	int ret;

	ret = nport_open(&p, "enet_pad", "enet_wire_pad", mac_a, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	rq_post(&p, 4);
	for (k = 0; k < 3; k++) {
		TEST_ASSERT_EQUAL(frame_tcp4(frame[k], mac_a, mac_b, 0,
					     bad[k][0], bad[k][1]), 54u,
				  "54-byte frame");
		for (i = 54; i < 64; i++)
			frame[k][i] = (uint8_t)(0xa0 + i);
		send_frame(&p, frame[k], 64, 0);
	}
	TEST_ASSERT_EQUAL(mlx5_emu_net_progress(), 3u, "three WQEs");
	for (k = 0; k < 3; k++) {
		c = cqe_next(&p.rcq, &p.rcq_ci);
		TEST_ASSERT_NOT_NULL(c, "RX CQE %u", k);
		TEST_ASSERT_EQUAL(rd32(c + CQE_BYTE_CNT), 64u, "byte_cnt");
		TEST_ASSERT_EQUAL(rd16(c + CQE_HDR_TYPE), ht[k],
				  "frame %u: hdr_type_etc 0x%04x", k,
				  rd16(c + CQE_HDR_TYPE));
		TEST_ASSERT_EQUAL(rd16(c + CQE_CSUM), frame_csum(frame[k], 64),
				  "frame %u: csum over the padding too", k);
		TEST_ASSERT_BUFFERS_ARE_EQUAL(p.data + k * BUF_SZ, frame[k],
					      64, "frame %u byte-exact", k);
	}
	return nport_close(&p);
}

static uint64_t
rd64(const uint8_t *p)
{
	return (uint64_t)rd32(p) << 32 | rd32(p + 4);
}

#define Z_FRAMES 12 /* Frames of a burst that form one session. */
#define Z_MAX 16
#define Z_FLEN 512

/* Frame k of a compressed-RX burst and what its CQE must carry. */
struct zframe {
	uint8_t f[Z_FLEN];
	uint32_t len;
	uint32_t hash;
	uint16_t csum;
	uint16_t hdr; /* hdr_type_etc */
};

/*
 * Frame k (1..) of a burst, shaped so that consecutive frames differ only
 * in what the mini-CQE of the format carries (what the title holds must
 * be equal for a session to form):
 * - HASH: other source ports and lengths; the source IP drops as the TCP
 *   length grows so the pseudo-header sum, hence the csum field, stays;
 * - CSUM: one flow, other lengths (the hash stays, the csum changes);
 * - L34H_STRIDX: one flow and length, SYN and ACK+PSH frames alternate
 *   (l4 type 1 / 4: header byte 0x18 / 0x48; the csum field only depends
 *   on the pseudo header, so it stays).
 */
static void
zframe_make(struct zframe *z, uint8_t format, unsigned int k)
{
	static const uint8_t bc[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	struct tcp4_flow fl = {
		.sip = { 10, 0, 1, 144 },
		.dip = { 10, 0, 2, 1 },
		.sport = 4000,
		.dport = 80,
		.flags = 0x02,
	};
	uint32_t payload = 24 + 8 * k;
	uint16_t w;

	switch (format) {
	case RTE_MLX5CQ_COMP_HASH:
		w = (uint16_t)(0x0190 - 8 * k);
		fl.sip[2] = (uint8_t)(w >> 8);
		fl.sip[3] = (uint8_t)w;
		fl.sport = (uint16_t)(1024 + 77 * k);
		break;
	case RTE_MLX5CQ_COMP_L34H_STRIDX:
		payload = 64;
		fl.flags = (k & 1) ? 0x18 : 0x02;
		break;
	default:
		break;
	}
	z->len = frame_tcp4_flow(z->f, bc, mac_a, &fl, payload, 0, 0);
	z->hash = flow_hash(&fl);
	z->csum = frame_csum(z->f, z->len);
	/* L2/L3/L4 OK, IPv4 (2 << 2), TCP without ACK 1 / ACK + data 4. */
	z->hdr = 0x0700 | 2 << 2 | ((fl.flags & 0x10) ? 4 : 1) << 4;
}

static void
zattr(struct rte_mlx5cq_attr *a, uint8_t format, uint8_t layout)
{
	memset(a, 0, sizeof(*a));
	a->comp_mask = RTE_MLX5CQ_ATTR_CQE_SIZE;
	a->cqe = (1u << LOG_CQ) - 1;
	a->cqe_size = 64;
	a->flags = RTE_MLX5CQ_F_SINGLE_THREADED;
	a->socket = SOCKET_ID_ANY;
	a->path = RTE_MLX5CQ_PATH_DEVX;
	if (format != 0) {
		a->comp_mask |= RTE_MLX5CQ_ATTR_COMPRESSED;
		a->comp_format = format;
		a->comp_layout = layout;
	}
}

/* The 64 B entry k of a library CQ (64 B ring). */
static const uint8_t *
lslot(struct rte_mlx5cq *cq, uint32_t k)
{
	struct rte_mlx5cq_info info;

	if (rte_mlx5cq_info_get(cq, &info) != 0)
		return NULL;
	return (const uint8_t *)info.ring + 64 * (k & (info.entries - 1));
}

/* Poll up to max records (several bursts, bounded). */
static unsigned int
lpoll(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *rec, unsigned int max)
{
	unsigned int got = 0, i;

	memset(rec, 0, sizeof(*rec) * max);
	for (i = 0; i < 8 && got < max; i++)
		got += rte_mlx5cq_poll_burst(cq, rec + got,
					     (uint16_t)(max - got));
	return got;
}

/*
 * Mini-CQE i of a session written from ring slot base: basic layout, the
 * title at base and arrays of eight at base + 1, base + 8, base + 16...
 * (DPDK mlx5_rx_poll_len); enhanced layout, base is the first compressed
 * CQE and arrays of seven follow at base + 7... (DPDK main
 * check_cqe_iteration, UCX uct_ib_mlx5_iface_cqe_unzip_init).
 */
static const uint8_t *
zmini(struct rte_mlx5cq *cq, uint32_t base, unsigned int i, int enhanced)
{
	if (enhanced)
		return lslot(cq, base + 7 * (i / 7)) + 8 * (i % 7);
	return lslot(cq, base + (i < 8 ? 1 : 8 * (i / 8))) + 8 * (i % 8);
}

/*
 * RX: port A sends, on a wire shared with B (receive CQ compressed with
 * the format and layout, made by mlx5cq) and C (receive CQ uncompressed,
 * made by mlx5cq), an IPv6 frame injected first (a regular CQE), then in
 * one engine pass Z_FRAMES TCP frames and one longer than its WQE buffer.
 * B's ring must hold a session whose bytes are checked at the PRM offsets,
 * then the error CQE; rte_mlx5cq_poll_burst() must give B the records C
 * gets (timestamps aside: on a compressed CQ the completions of a pass
 * carry the pass clock, and a session the title's).
 */
static int
net_comp_rx(uint8_t format, uint8_t layout)
{
	static const uint8_t bc[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static struct zframe z[Z_FRAMES + 2];
	struct rte_mlx5cq_cpl rb[Z_MAX], rc[Z_MAX];
	struct rte_mlx5cq_attr za, ua;
	struct mlx5_emu_cq_ev_info ev;
	struct mlx5_emu_port_stats ps;
	char name[3][32], wire[32];
	const int enh = layout == RTE_MLX5CQ_COMP_LAYOUT_ENHANCED;
	const uint8_t *t, *m, *c;
	uint8_t v6[128];
	struct nport a, b, cc;
	uint32_t len6, be32, k, i;
	unsigned int nb, nc;
	int ret;

	/* The test's Toeplitz against the first Microsoft RSS vector. */
	TEST_ASSERT_EQUAL(flow_hash(&ms_flow1), 0x51ccc178u, "toeplitz");
	snprintf(wire, sizeof(wire), "enet_wz_rx%u_%u", format, layout);
	for (i = 0; i < 3; i++)
		snprintf(name[i], sizeof(name[i]), "enet_zrx%u_%u_%c", format,
			 layout, 'a' + i);
	zattr(&za, format, layout);
	zattr(&ua, 0, 0);
	ret = nport_open(&a, name[0], wire, mac_a, 0);
	if (ret == TEST_SUCCESS)
		ret = nport_open_ex(&b, name[1], wire, mac_b, 0, NULL, &za);
	if (ret == TEST_SUCCESS)
		ret = nport_open_ex(&cc, name[2], wire, mac_c, 0, NULL, &ua);
	if (ret != TEST_SUCCESS)
		return ret;
	rq_post(&b, Z_MAX);
	rq_post(&cc, Z_MAX);
	/* WQE Z_FRAMES + 1 of B and C: a 64-byte buffer. */
	be32 = rte_cpu_to_be_32(64);
	memcpy((uint8_t *)(uintptr_t)b.rq.wq.umem_buf + 16 * (Z_FRAMES + 1),
	       &be32, 4);
	memcpy((uint8_t *)(uintptr_t)cc.rq.wq.umem_buf + 16 * (Z_FRAMES + 1),
	       &be32, 4);
	for (k = 1; k <= Z_FRAMES + 1; k++)
		zframe_make(&z[k], format, k);
	/* The frames differ only in what the format's mini-CQE carries. */
	for (k = 2; k <= Z_FRAMES; k++) {
		TEST_ASSERT(format == RTE_MLX5CQ_COMP_CSUM ||
			    z[k].csum == z[1].csum, "csum field shared");
		TEST_ASSERT(format == RTE_MLX5CQ_COMP_HASH ||
			    z[k].hash == z[1].hash, "hash shared");
		TEST_ASSERT(format == RTE_MLX5CQ_COMP_L34H_STRIDX ||
			    z[k].hdr == z[1].hdr, "header types shared");
		TEST_ASSERT(z[k].len > 64, "longer than the small buffer");
	}
	/* The injection is a pass of its own: a regular CQE at once. */
	len6 = frame_udp6(v6, bc, mac_a, 40);
	TEST_ASSERT_EQUAL(mlx5_emu_wire_inject(wire, v6, len6), 3,
			  "three ports");
	c = lslot(b.lrcq, 0);
	TEST_ASSERT(c != NULL && c[CQE_OP_OWN] == 0x20,
		    "injected frame: regular RESP_SEND CQE, owner 0 (0x%02x)",
		    c[CQE_OP_OWN]);
	TEST_ASSERT_EQUAL(rd16(c + CQE_HDR_TYPE), 0x0724, "IPv6/UDP");
	TEST_ASSERT_EQUAL(rd32(c + CQE_BYTE_CNT), len6, "byte_cnt");
	/* The burst: one pass. */
	for (k = 1; k <= Z_FRAMES + 1; k++)
		send_frame(&a, z[k].f, z[k].len, 0);
	TEST_ASSERT_EQUAL(mlx5_emu_net_progress(), Z_FRAMES + 1u, "one pass");
	/* The session's first completion: the basic title or, enhanced, the
	 * regular CQE the arrays follow.
	 */
	t = lslot(b.lrcq, 1);
	TEST_ASSERT_EQUAL(rd16(t + CQE_WQE_CNT), 1, "title wqe_counter");
	TEST_ASSERT_EQUAL(rd16(t + CQE_HDR_TYPE), z[1].hdr, "title hdr_type");
	TEST_ASSERT_EQUAL(rd32(t + CQE_HASH_RES), z[1].hash, "title hash");
	TEST_ASSERT_EQUAL(t[CQE_HASH_TYPE], 0x44, "title hash type");
	TEST_ASSERT_EQUAL(rd16(t + 20), z[1].csum, "title csum");
	if (!enh) {
		/* op_own: RESP_SEND << 4 | format 3 << 2 | owner 0. */
		TEST_ASSERT_EQUAL(t[CQE_OP_OWN], 0x2c, "title op_own 0x%02x",
				  t[CQE_OP_OWN]);
		TEST_ASSERT_EQUAL(rd32(t + CQE_BYTE_CNT), (uint32_t)Z_FRAMES,
				  "title byte_cnt = session count");
		for (i = 0; i < Z_FRAMES; i++) {
			m = zmini(b.lrcq, 1, i, 0);
			k = i + 1;
			TEST_ASSERT_EQUAL(rd32(m + 4), z[k].len,
					  "mini %u byte_cnt", i);
			if (format == RTE_MLX5CQ_COMP_HASH) {
				TEST_ASSERT_EQUAL(rd32(m), z[k].hash,
						  "mini %u rx_hash_result", i);
				continue;
			}
			if (format == RTE_MLX5CQ_COMP_CSUM)
				TEST_ASSERT_EQUAL(rd16(m), z[k].csum,
						  "mini %u checksum", i);
			else
				TEST_ASSERT(m[0] == 0 &&
					    m[1] == (z[k].hdr & 0xff),
					    "mini %u header byte 0x%02x", i,
					    m[1]);
			/* Cyclic RQ: no stride index (kernel mlx5e reads
			 * mini_cqe->stridx only on a striding RQ,
			 * MLX5E_RQ_STATE_MINI_CQE_HW_STRIDX; DPDK 22.11
			 * only in mlx5_rx_burst_mprq): the model writes 0.
			 */
			TEST_ASSERT_EQUAL(rd16(m + 2), 0, "mini %u stride", i);
		}
		/* Minis 12..15 of the second array are zero. */
		m = zmini(b.lrcq, 1, Z_FRAMES, 0);
		for (i = 0; i < 8 * (16 - Z_FRAMES); i++)
			TEST_ASSERT_EQUAL(m[i], 0, "unused mini byte %u", i);
	} else {
		TEST_ASSERT(t[CQE_OP_OWN] == 0x20 && t[62] == 0,
			    "regular title, validity count 0");
		TEST_ASSERT_EQUAL(rd32(t + CQE_BYTE_CNT), z[1].len, "byte_cnt");
		/* Arrays of 7 and 4 at slots 2 and 9: op_own =
		 * (minis - 1) << 4 | 3 << 2 | owner 0.
		 */
		c = lslot(b.lrcq, 2);
		TEST_ASSERT(c[CQE_OP_OWN] == 0x6c && c[62] == 0,
			    "array of 7 (0x%02x)", c[CQE_OP_OWN]);
		c = lslot(b.lrcq, 9);
		TEST_ASSERT(c[CQE_OP_OWN] == 0x3c && c[62] == 0,
			    "array of 4 (0x%02x)", c[CQE_OP_OWN]);
		for (i = 0; i < Z_FRAMES - 1; i++) {
			m = zmini(b.lrcq, 2, i, 1);
			k = i + 2;
			TEST_ASSERT_EQUAL(rd32(m + 4), z[k].len,
					  "mini %u byte_cnt", i);
			if (format == RTE_MLX5CQ_COMP_HASH) {
				TEST_ASSERT_EQUAL(rd32(m), z[k].hash,
						  "mini %u rx_hash_result", i);
				continue;
			}
			if (format == RTE_MLX5CQ_COMP_CSUM)
				TEST_ASSERT_EQUAL(rd16(m), z[k].csum,
						  "mini %u checksum", i);
			else
				TEST_ASSERT(m[0] == 0 &&
					    m[1] == (z[k].hdr & 0xff),
					    "mini %u header byte", i);
			/* Cyclic RQ: no stride index (kernel mlx5e reads
			 * mini_cqe->stridx only on a striding RQ,
			 * MLX5E_RQ_STATE_MINI_CQE_HW_STRIDX; DPDK 22.11
			 * only in mlx5_rx_burst_mprq): the model writes 0.
			 */
			TEST_ASSERT_EQUAL(rd16(m + 2), 0, "mini %u stride", i);
		}
		/* Minis 4..6 of the second array are zero. */
		c = lslot(b.lrcq, 9);
		for (i = 32; i < 56; i++)
			TEST_ASSERT_EQUAL(c[i], 0, "unused mini byte %u", i);
	}
	/* Holes: the device does not write them. */
	for (k = 3; k <= Z_FRAMES; k++) {
		if (k == 9)
			continue;
		TEST_ASSERT_EQUAL(lslot(b.lrcq, k)[CQE_OP_OWN] >> 4, 0xf,
				  "slot %u untouched", k);
	}
	/* The error CQE follows the session. */
	c = lslot(b.lrcq, Z_FRAMES + 1);
	TEST_ASSERT(c[CQE_OP_OWN] == 0xe0 && c[CQE_SYNDROME] == 0x01 &&
		    rd16(c + CQE_WQE_CNT) == Z_FRAMES + 1,
		    "RESP_ERR LOC_LEN_ERR after the session (0x%02x)",
		    c[CQE_OP_OWN]);
	/* C: every completion a regular CQE. */
	for (k = 1; k <= Z_FRAMES; k++) {
		c = lslot(cc.lrcq, k);
		TEST_ASSERT(c[CQE_OP_OWN] == 0x20 &&
			    rd32(c + CQE_BYTE_CNT) == z[k].len &&
			    rd16(c + CQE_WQE_CNT) == k, "C: CQE %u", k);
	}
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_ev_query(b.ctx,
						 lcqn(b.lrcq), &ev),
			    "ev");
	TEST_ASSERT(ev.sessions == (enh ? 2u : 1u) &&
		    ev.compressed == (enh ? Z_FRAMES - 1u : Z_FRAMES) &&
		    ev.open == 0, "model counters: %" PRIu64 " sessions, %"
		    PRIu64 " compressed, %u held", ev.sessions, ev.compressed,
		    ev.open);
	/* Decoded by the library: B's records are C's. */
	t = lslot(b.lrcq, 1);
	{
		uint64_t ts = rd64(t + CQE_TIMESTAMP);

		nb = lpoll(b.lrcq, rb, Z_MAX);
		nc = lpoll(cc.lrcq, rc, Z_MAX);
		TEST_ASSERT(nb == Z_FRAMES + 2 && nc == Z_FRAMES + 2,
			    "records: %u compressed, %u plain", nb, nc);
		for (k = 1; k <= Z_FRAMES; k++)
			TEST_ASSERT_EQUAL(rb[k].timestamp, ts,
					  "record %u: the title's time", k);
	}
	for (k = 0; k < nb; k++) {
		rb[k].timestamp = 0;
		rc[k].timestamp = 0;
		/* L34H_STRIDX: the library's record carries the mini-CQE's
		 * stride index, 0 on this cyclic RQ (see above).
		 */
		if (format == RTE_MLX5CQ_COMP_L34H_STRIDX &&
		    k >= (enh ? 2u : 1u) && k <= Z_FRAMES) {
			TEST_ASSERT_EQUAL(rb[k].wqe_counter, 0,
					  "record %u stride index", k);
			rb[k].wqe_counter = rc[k].wqe_counter;
		}
		TEST_ASSERT_BUFFERS_ARE_EQUAL(&rb[k], &rc[k], sizeof(rb[k]),
					      "record %u", k);
		TEST_ASSERT_EQUAL(rc[k].wqe_counter, k, "wqe_counter %u", k);
	}
	for (k = 1; k <= Z_FRAMES; k++)
		TEST_ASSERT(rc[k].byte_cnt == z[k].len &&
			    rc[k].rss_hash == z[k].hash &&
			    rc[k].csum == z[k].csum &&
			    rc[k].hdr_type_etc == z[k].hdr &&
			    rc[k].rss_hash_type == 0x44 && rc[k].status == 0 &&
			    rc[k].opcode == RTE_MLX5CQ_OP_RESP_SEND,
			    "record %u fields", k);
	TEST_ASSERT(rc[0].byte_cnt == len6 && rc[0].hdr_type_etc == 0x0724,
		    "IPv6 record");
	TEST_ASSERT(rc[Z_FRAMES + 1].opcode == RTE_MLX5CQ_OP_RESP_ERR &&
		    rc[Z_FRAMES + 1].status == IBV_WC_LOC_LEN_ERR &&
		    rc[Z_FRAMES + 1].syndrome == 0x01, "error record");
	TEST_ASSERT_SUCCESS(mlx5_emu_port_stats_get(b.ctx, &ps), "stats");
	TEST_ASSERT(ps.rx_packets == Z_FRAMES + 1 && ps.rx_errors == 1,
		    "B counters");
	ret = nport_close(&a);
	if (ret == TEST_SUCCESS)
		ret = nport_close(&b);
	if (ret == TEST_SUCCESS)
		ret = nport_close(&cc);
	return ret;
}

static int
test_net_comp_rx_hash(void)
{
	return net_comp_rx(RTE_MLX5CQ_COMP_HASH, RTE_MLX5CQ_COMP_LAYOUT_BASIC);
}

static int
test_net_comp_rx_csum(void)
{
	return net_comp_rx(RTE_MLX5CQ_COMP_CSUM, RTE_MLX5CQ_COMP_LAYOUT_BASIC);
}

static int
test_net_comp_rx_l34h(void)
{
	return net_comp_rx(RTE_MLX5CQ_COMP_L34H_STRIDX,
			   RTE_MLX5CQ_COMP_LAYOUT_BASIC);
}

static int
test_net_comp_rx_hash_enh(void)
{
	return net_comp_rx(RTE_MLX5CQ_COMP_HASH,
			   RTE_MLX5CQ_COMP_LAYOUT_ENHANCED);
}

static int
test_net_comp_rx_csum_enh(void)
{
	return net_comp_rx(RTE_MLX5CQ_COMP_CSUM,
			   RTE_MLX5CQ_COMP_LAYOUT_ENHANCED);
}

static int
test_net_comp_rx_l34h_enh(void)
{
	return net_comp_rx(RTE_MLX5CQ_COMP_L34H_STRIDX,
			   RTE_MLX5CQ_COMP_LAYOUT_ENHANCED);
}

#define Z_TX 10 /* WQEs of the TX burst. */

/*
 * TX: ports A (send CQ compressed) and C (send CQ uncompressed), both made
 * by mlx5cq, each send Z_TX frames with CQ_UPDATE in one engine pass, then
 * one more in a second pass. A's ring holds a requester session (title:
 * byte_cnt = count, s_wqe_opcode and sqn; mini-CQEs: wqe_counter,
 * s_wqe_opcode) then a regular CQE; the records equal C's but for the
 * timestamp and the QPN.
 */
static int
net_comp_tx(uint8_t layout)
{
	struct rte_mlx5cq_cpl ra[Z_MAX], rc[Z_MAX];
	struct rte_mlx5cq_attr za, ua;
	struct mlx5_emu_cq_ev_info ev;
	const int enh = layout == RTE_MLX5CQ_COMP_LAYOUT_ENHANCED;
	char na[32], nc[32], wire[32];
	const uint8_t *t, *m, *c;
	uint8_t frame[128];
	struct nport a, cc;
	uint32_t len, k, i, sqa, sqc;
	unsigned int n1, n2;
	uint64_t ts0;
	int ret;

	snprintf(wire, sizeof(wire), "enet_wz_tx%u", layout);
	snprintf(na, sizeof(na), "enet_ztx%u_a", layout);
	snprintf(nc, sizeof(nc), "enet_ztx%u_c", layout);
	zattr(&za, RTE_MLX5CQ_COMP_HASH, layout);
	zattr(&ua, 0, 0);
	ret = nport_open_ex(&a, na, wire, mac_a, 0, &za, NULL);
	if (ret == TEST_SUCCESS)
		ret = nport_open_ex(&cc, nc, wire, mac_c, 0, &ua, NULL);
	if (ret != TEST_SUCCESS)
		return ret;
	sqa = (uint32_t)a.sq.sq->id;
	sqc = (uint32_t)cc.sq.sq->id;
	len = frame_tcp4(frame, mac_b, mac_a, 30, 0, 0);
	for (k = 0; k < Z_TX; k++) {
		send_frame(&a, frame, len, 0);
		send_frame(&cc, frame, len, 0);
	}
	TEST_ASSERT_EQUAL(mlx5_emu_net_progress(), 2u * Z_TX, "one pass");
	t = lslot(a.lscq, 0);
	TEST_ASSERT_EQUAL((rd32(t + CQE_QPN) & 0xffffff), sqa, "sqn");
	TEST_ASSERT_EQUAL(t[CQE_QPN], 0x0a, "s_wqe_opcode SEND");
	TEST_ASSERT_EQUAL(rd16(t + CQE_WQE_CNT), 0, "wqe_counter 0");
	if (!enh) {
		/* op_own: REQ 0 << 4 | format 3 << 2 | owner 0. */
		TEST_ASSERT_EQUAL(t[CQE_OP_OWN], 0x0c, "title op_own 0x%02x",
				  t[CQE_OP_OWN]);
		TEST_ASSERT_EQUAL(rd32(t + CQE_BYTE_CNT), (uint32_t)Z_TX,
				  "title byte_cnt = session count");
		for (i = 0; i < Z_TX; i++) {
			m = zmini(a.lscq, 0, i, 0);
			TEST_ASSERT(rd16(m) == i && m[2] == 0x0a && m[3] == 0 &&
				    rd32(m + 4) == 0,
				    "requester mini %u: wqe_counter, opcode",
				    i);
		}
		m = zmini(a.lscq, 0, Z_TX, 0);
		for (i = 0; i < 8 * (16 - Z_TX); i++)
			TEST_ASSERT_EQUAL(m[i], 0, "unused mini byte %u", i);
	} else {
		TEST_ASSERT(t[CQE_OP_OWN] == 0x00 && t[62] == 0,
			    "regular REQ title");
		c = lslot(a.lscq, 1);
		TEST_ASSERT(c[CQE_OP_OWN] == 0x6c && c[62] == 0,
			    "array of 7 (0x%02x)", c[CQE_OP_OWN]);
		c = lslot(a.lscq, 8);
		TEST_ASSERT(c[CQE_OP_OWN] == 0x1c && c[62] == 0,
			    "array of 2 (0x%02x)", c[CQE_OP_OWN]);
		for (i = 0; i < Z_TX - 1; i++) {
			m = zmini(a.lscq, 1, i, 1);
			TEST_ASSERT(rd16(m) == i + 1 && m[2] == 0x0a &&
				    m[3] == 0 && rd32(m + 4) == 0,
				    "requester mini %u", i);
		}
	}
	for (k = 2; k < Z_TX; k++) {
		if (k == 8)
			continue;
		TEST_ASSERT_EQUAL(lslot(a.lscq, k)[CQE_OP_OWN] >> 4, 0xf,
				  "slot %u untouched", k);
	}
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_ev_query(a.ctx,
						 lcqn(a.lscq), &ev),
			    "ev");
	TEST_ASSERT(ev.sessions == (enh ? 2u : 1u) &&
		    ev.compressed == (enh ? Z_TX - 1u : Z_TX) && ev.open == 0,
		    "model counters");
	/* A lone WQE of the next pass: a regular CQE (the timer closed the
	 * session; a session or array of one is a regular CQE).
	 */
	send_frame(&a, frame, len, 0);
	send_frame(&cc, frame, len, 0);
	TEST_ASSERT_EQUAL(mlx5_emu_net_progress(), 2u, "second pass");
	c = lslot(a.lscq, Z_TX);
	TEST_ASSERT(c[CQE_OP_OWN] == 0x00 && rd16(c + CQE_WQE_CNT) == Z_TX,
		    "regular REQ CQE (0x%02x)", c[CQE_OP_OWN]);
	n1 = lpoll(a.lscq, ra, Z_MAX);
	n2 = lpoll(cc.lscq, rc, Z_MAX);
	TEST_ASSERT(n1 == Z_TX + 1 && n2 == Z_TX + 1, "records %u %u", n1, n2);
	ts0 = ra[0].timestamp;
	TEST_ASSERT_EQUAL(ts0, rd64(t + CQE_TIMESTAMP), "title timestamp");
	for (k = 0; k < n1; k++) {
		TEST_ASSERT(ra[k].flow_tag == sqa && rc[k].flow_tag == sqc,
			    "record %u: QPN", k);
		TEST_ASSERT(ra[k].wqe_counter == k &&
			    ra[k].opcode == RTE_MLX5CQ_OP_REQ &&
			    ra[k].status == 0, "record %u", k);
		if (k > 0 && k < Z_TX)
			TEST_ASSERT_EQUAL(ra[k].timestamp, ts0,
					  "record %u: the title's time", k);
		ra[k].timestamp = 0;
		rc[k].timestamp = 0;
		ra[k].flow_tag = 0;
		rc[k].flow_tag = 0;
		TEST_ASSERT_BUFFERS_ARE_EQUAL(&ra[k], &rc[k], sizeof(ra[k]),
					      "record %u", k);
	}
	ret = nport_close(&a);
	if (ret == TEST_SUCCESS)
		ret = nport_close(&cc);
	return ret;
}

static int
test_net_comp_tx(void)
{
	return net_comp_tx(RTE_MLX5CQ_COMP_LAYOUT_BASIC);
}

static int
test_net_comp_tx_enh(void)
{
	return net_comp_tx(RTE_MLX5CQ_COMP_LAYOUT_ENHANCED);
}

/* The engine thread only steps when a test says so (determinism). */
static int
emu_net_setup(void)
{
	mlx5_emu_net_engine_pause(1);
	return TEST_SUCCESS;
}

static void
emu_net_teardown(void)
{
	mlx5_emu_net_engine_pause(0);
}

static struct unit_test_suite emu_net_suite = {
	.suite_name = "emu_net",
	.setup = emu_net_setup,
	.teardown = emu_net_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_caps),
		TEST_CASE(test_net_loopback),
		TEST_CASE(test_net_two_ports),
		TEST_CASE(test_net_vlan_strip),
		TEST_CASE(test_net_padded_frame),
		TEST_CASE(test_net_lkey_error),
		TEST_CASE(test_net_rx_errors),
		TEST_CASE(test_net_mr_hint),
		TEST_CASE(test_net_inline_mode),
		TEST_CASE(test_net_vport_filter),
		TEST_CASE(test_net_mtu_state),
		TEST_CASE(test_net_port_speed),
		TEST_CASE(test_net_rss),
		TEST_CASE(test_net_tir_td0),
		TEST_CASE(test_net_wqe_wrap),
		TEST_CASE(test_net_concurrent_destroy),
		TEST_CASE(test_net_verbs_cq),
		TEST_CASE(test_net_bad_commands),
		TEST_CASE(test_net_close_leaks),
		TEST_CASE(test_net_comp_rx_hash),
		TEST_CASE(test_net_comp_rx_csum),
		TEST_CASE(test_net_comp_rx_l34h),
		TEST_CASE(test_net_comp_rx_hash_enh),
		TEST_CASE(test_net_comp_rx_csum_enh),
		TEST_CASE(test_net_comp_rx_l34h_enh),
		TEST_CASE(test_net_comp_tx),
		TEST_CASE(test_net_comp_tx_enh),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(emu_net, emu_net_suite);
