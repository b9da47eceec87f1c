/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Fixture of the emu_net_* suites: the network side of the emulated
 * HCA, driven only through mlx5_glue and rte_common_mlx5's DevX helpers
 * (no PMD): PD, MR, TD, TIS, SQ, RQ, RQT, TIR built by hand on emulated
 * devices, send WQEs written byte by byte from the PRM layouts (control
 * segment, Ethernet segment with inline headers, data segment), CQEs
 * read at the PRM offsets of struct mlx5_cqe / struct mlx5_err_cqe.
 * Expected frames and checksums are computed here (RFC 1071), RSS
 * hashes are the Microsoft RSS verification suite values for its default
 * key.
 */

#include "test_emu_net_fixture.h"

uint32_t
csum_sum(uint32_t s, const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (uint32_t)b[i] << 8 | b[i + 1];
	if (n & 1)
		s += (uint32_t)b[n - 1] << 8;
	return s;
}

uint16_t
csum_done(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

void
put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = (uint8_t)v;
}

/*
 * An Ethernet/IPv4/TCP frame of a flow with payload; good checksums unless
 * told otherwise. Returns the length.
 */
uint32_t
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
uint32_t
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
uint32_t
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

/* MODIFY_NIC_VPORT_CONTEXT mailbox (kernel mlx5_ifc.h): 512 bytes of
 * header and context, then the address list.
 */
#define MNVC_LEN 512
int
vport_modify(struct ibv_context *ctx, uint32_t select, const uint8_t *ctx256,
	     const void *list, unsigned int n, uint8_t *status,
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
		memcpy(in + MNVC_LEN + 8 * i + 2,
		       (const uint8_t *)list + 6 * i, 6);
	ret = mlx5_glue->devx_general_cmd(ctx, in, MNVC_LEN + 8 * n, out,
					  sizeof(out));
	*status = out[0];
	*synd = rd32(out + 4);
	return ret;
}

/* One RQ WQE of BUF_SZ bytes at addr under lkey, posted. */
void
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

int
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
uint8_t *
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
void
sq_ring(struct nport *p, const uint8_t *w)
{
	p->sq_pi++;
	rte_wmb();
	p->sq.db_rec[MLX5_SND_DBR] = rte_cpu_to_be_32(p->sq_pi);
	rte_wmb();
	memcpy((uint8_t *)p->uar->reg_addr, w, 8);
}

void
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
void
send_frame(struct nport *p, const uint8_t *frame, uint32_t len, uint8_t cs)
{
	uint8_t *tx = p->data + DATA_SZ / 2 +
		      4096 * (p->sq_pi & ((1u << LOG_SQ) / 2 - 1));

	memcpy(tx, frame, len);
	sq_send(p, frame, len, cs, p->mr->lkey, (uintptr_t)(tx + 18), 1);
}

/* The next CQE of a CQ made by mlx5_devx_cq_create() or NULL. */
const uint8_t *
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

uint32_t
rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

uint16_t
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

/* The attributes of the test TIR: Toeplitz over TCP/IPv4 fields. */
void
tir_attr_fill(const struct nport *p, const struct mlx5_devx_obj *rqt,
	      uint32_t fields, struct mlx5_devx_tir_attr *ta)
{
	memset(ta, 0, sizeof(*ta));
	ta->disp_type = MLX5_TIRC_DISP_TYPE_INDIRECT;
	ta->indirect_table = rqt->id;
	ta->rx_hash_fn = MLX5_RX_HASH_FN_TOEPLITZ;
	ta->transport_domain = p->td->id;
	memcpy(ta->rx_hash_toeplitz_key, ms_key, sizeof(ms_key));
	ta->rx_hash_field_selector_outer.l3_prot_type = MLX5_L3_PROT_TYPE_IPV4;
	ta->rx_hash_field_selector_outer.l4_prot_type = MLX5_L4_PROT_TYPE_TCP;
	ta->rx_hash_field_selector_outer.selected_fields = fields;
}

int
tir_make(struct nport *p, struct mlx5_devx_obj *rqt, uint32_t fields)
{
	struct mlx5_devx_tir_attr ta;

	tir_attr_fill(p, rqt, fields, &ta);
	p->tir = mlx5_devx_cmd_create_tir(p->ctx, &ta);
	return p->tir != NULL ? 0 : -1;
}

/* CQ number of a CQ made by mlx5cq (0 when unknown). */
uint32_t
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
unsigned int nport_sq_inline;
unsigned int nport_ts_format;

int
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
	sqa.ts_format = nport_ts_format;
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
	rqa.ts_format = nport_ts_format;
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
int
nport_open(struct nport *p, const char *name, const char *wire,
	   const uint8_t *mac, int vsd)
{
	return nport_open_ex(p, name, wire, mac, vsd, NULL, NULL);
}

/* Tear a port down; everything must go and the device must close. */
int
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

void
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

/*
 * Toeplitz hash written bit by bit from its definition (Microsoft RSS):
 * for every set input bit b (most significant first) the 32 key bits
 * starting at bit b are xor-ed into the result.
 */
uint32_t
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

/* RSS hash of a TCP/IPv4 flow under the test TIR (ALL_FIELDS). */
uint32_t
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
uint16_t
frame_csum(const uint8_t *f, uint32_t len)
{
	uint32_t s = csum_sum(0, f + 14, len - 14);

	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

uint64_t
rd64(const uint8_t *p)
{
	return (uint64_t)rd32(p) << 32 | rd32(p + 4);
}

void
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
const uint8_t *
lslot(struct rte_mlx5cq *cq, uint32_t k)
{
	struct rte_mlx5cq_info info;

	if (rte_mlx5cq_info_get(cq, &info) != 0)
		return NULL;
	return (const uint8_t *)info.ring + 64 * (k & (info.entries - 1));
}

/* Poll up to max records (several bursts, bounded). */
unsigned int
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
const uint8_t *
zmini(struct rte_mlx5cq *cq, uint32_t base, unsigned int i, int enhanced)
{
	if (enhanced)
		return lslot(cq, base + 7 * (i / 7)) + 8 * (i % 7);
	return lslot(cq, base + (i < 8 ? 1 : 8 * (i / 8))) + 8 * (i % 8);
}

/* The engine thread only steps when a test says so (determinism). */
int
emu_net_setup(void)
{
	mlx5_emu_net_engine_pause(1);
	return TEST_SUCCESS;
}

void
emu_net_teardown(void)
{
	mlx5_emu_net_engine_pause(0);
}
