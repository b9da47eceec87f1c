/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * "perf-engine": cost of the emulated HCA's progress engine in TSC cycles
 * per packet.
 *
 * Two emulated devices sit on one wire. Device A has a send queue, device B
 * a receive queue behind an RSS TIR (Toeplitz over the IPv4/UDP 4-tuple,
 * as net_mlx5cq sets it up). Per round the benchmark writes PE_BURST SEND
 * WQEs on A (control segment, Ethernet segment with 18 inline bytes, one
 * data segment for the rest; CQ_UPDATE on every PE_TX_CQE_EVERY-th WQE,
 * as a PMD asks for TX completions), rings the doorbell record, keeps B's
 * RQ full, then times one mlx5_emu_net_progress() call (the whole engine
 * pass: WQE execution, wire, RSS, scatter into the receive buffers, RX and
 * TX CQEs) with the engine thread paused. The CQEs are then checked
 * (count, byte count, WQE counter) and consumed outside the timed part.
 *
 * Reported per frame size: cycles per packet of each run (PE_ROUNDS
 * rounds, or --reps N), and the median of PE_RUNS runs; --burst N
 * times passes of N WQEs instead of PE_BURST (32: a forwarding core's
 * burst, the batch one engine pass meets in testpmd); --len N runs
 * one frame size only (64, 1024 or 1500; for callgrind, with --reps 1:
 * valgrind --tool=callgrind --toggle-collect=mlx5_emu_net_progress). The TSC frequency is printed
 * so the figure converts to packets per second of one engine core. With a
 * second lcore (-l 0,1 --main-lcore 1) a second table repeats the runs
 * with the untimed side (RQ refill, WQE writes, CQE reads and doorbell
 * records) on that lcore: the timed pass then meets every ring line as
 * the consumer's core left it, as in a two-core forwarding run (the
 * frames' data stays on the main lcore).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>
#include <mlx5_devx_cmds.h>
#include <mlx5_common_devx.h>

#include "mlx5_emu.h"
#include "bench_cq.h"
#include "test_rss_key.h"

/* rte_common_mlx5's struct mlx5_devx_obj (see test_emu_fixture.h). */
struct mlx5_devx_obj {
	void *obj;
	int id;
};

#define PE_LOG_Q 10 /* SQ WQEBBs, RQ WQEs. */
#define PE_LOG_CQ 12
#define PE_BURST 256 /* WQEs per timed engine pass (--burst). */
#define PE_BURST_MAX 512 /* Half the SQ and RQ. */
#define PE_TX_CQE_EVERY 32
#define PE_ROUNDS 400
#define PE_RUNS 7
#define PE_BUF 2048 /* One receive buffer per RQ WQE. */
#define PE_INLINE 18

/* One emulated device: queues of one direction and their CQ. */
struct pe_port {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	uint32_t pdn;
	struct mlx5dv_devx_uar *uar;
	struct mlx5_devx_obj *td, *tis, *rqt, *tir;
	struct mlx5_devx_cq cq;
	struct mlx5_devx_sq sq;
	struct mlx5_devx_rq rq;
	int has_sq, has_rq;
	uint8_t *data;
	size_t data_sz;
	struct ibv_mr *mr;
	uint16_t pi; /* SQ WQEBBs or RQ WQEs posted. */
	uint32_t ci; /* CQ consumer counter. */
};

/* Big-endian stores and loads at any alignment. */
#define pe_be32(p, v) \
	(*(unaligned_uint32_t *)(void *)(p) = rte_cpu_to_be_32(v))
#define pe_be64(p, v) \
	(*(unaligned_uint64_t *)(void *)(p) = rte_cpu_to_be_64(v))
#define pe_rd32(p) \
	rte_be_to_cpu_32(*(const unaligned_uint32_t *)(const void *)(p))

/* An Ethernet/IPv4/UDP frame of len bytes (flow k), header checksum set. */
static void
pe_frame(uint8_t *f, uint32_t len, unsigned int k)
{
	static const uint8_t dst[6] = { 0x02, 0, 0, 0, 0, 0x0b };
	static const uint8_t src[6] = { 0x02, 0, 0, 0, 0, 0x0a };
	uint8_t *ip = f + 14;
	uint32_t s = 0;
	unsigned int i;

	memset(f, 0, len);
	memcpy(f, dst, 6);
	memcpy(f + 6, src, 6);
	f[12] = 0x08;
	ip[0] = 0x45;
	ip[2] = (uint8_t)((len - 14) >> 8);
	ip[3] = (uint8_t)(len - 14);
	ip[8] = 64;
	ip[9] = 17;
	ip[12] = 198;
	ip[13] = 18;
	ip[15] = (uint8_t)k;
	ip[16] = 198;
	ip[17] = 18;
	ip[18] = 1;
	ip[19] = 1;
	for (i = 0; i < 20; i += 2)
		s += (uint32_t)ip[i] << 8 | ip[i + 1];
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	ip[10] = (uint8_t)(~s >> 8);
	ip[11] = (uint8_t)~s;
	ip[20] = 0x04;
	ip[21] = (uint8_t)k; /* Source port varies with the flow. */
	ip[22] = 0x12;
	ip[23] = 0x34;
	ip[24] = (uint8_t)((len - 34) >> 8);
	ip[25] = (uint8_t)(len - 34);
	/* UDP checksum 0: none (IPv4). */
}

static int
pe_port_open(struct pe_port *p, const char *name, const char *wire,
	     uint8_t mac_last, size_t data_sz)
{
	struct mlx5_devx_cq_attr cqa;
	struct mlx5_devx_tis_attr tisa;
	struct mlx5dv_obj obj;
	struct mlx5dv_pd dvpd;
	uint8_t mac[6] = { 0x02, 0, 0, 0, 0, mac_last };

	memset(p, 0, sizeof(*p));
	p->ctx = mlx5_emu_open(name, NULL);
	if (p->ctx == NULL || mlx5_emu_port_config(p->ctx, wire, mac) != 0)
		return -1;
	p->pd = mlx5_glue->alloc_pd(p->ctx);
	if (p->pd == NULL)
		return -1;
	memset(&obj, 0, sizeof(obj));
	obj.pd.in = p->pd;
	obj.pd.out = &dvpd;
	if (mlx5_glue->dv_init_obj(&obj, MLX5DV_OBJ_PD) != 0)
		return -1;
	p->pdn = dvpd.pdn;
	p->uar = mlx5_glue->devx_alloc_uar(p->ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	p->data = rte_zmalloc(NULL, data_sz, 4096);
	p->data_sz = data_sz;
	if (p->uar == NULL || p->data == NULL)
		return -1;
	p->mr = mlx5_glue->reg_mr(p->pd, p->data, data_sz,
				  IBV_ACCESS_LOCAL_WRITE);
	p->td = mlx5_devx_cmd_create_td(p->ctx);
	if (p->mr == NULL || p->td == NULL)
		return -1;
	memset(&tisa, 0, sizeof(tisa));
	tisa.transport_domain = p->td->id;
	p->tis = mlx5_devx_cmd_create_tis(p->ctx, &tisa);
	if (p->tis == NULL)
		return -1;
	memset(&cqa, 0, sizeof(cqa));
	cqa.uar_page_id = p->uar->page_id;
	return mlx5_devx_cq_create(p->ctx, &p->cq, PE_LOG_CQ, &cqa,
				   SOCKET_ID_ANY);
}

static int
pe_sq_make(struct pe_port *p)
{
	struct mlx5_devx_create_sq_attr sqa;
	struct mlx5_devx_modify_sq_attr msq;

	memset(&sqa, 0, sizeof(sqa));
	sqa.cqn = p->cq.cq->id;
	sqa.tis_lst_sz = 1;
	sqa.tis_num = p->tis->id;
	sqa.wq_attr.pd = p->pdn;
	sqa.wq_attr.uar_page = p->uar->page_id;
	if (mlx5_devx_sq_create(p->ctx, &p->sq, PE_LOG_Q, &sqa,
				SOCKET_ID_ANY) != 0)
		return -1;
	p->has_sq = 1;
	memset(&msq, 0, sizeof(msq));
	msq.sq_state = MLX5_SQC_STATE_RST;
	msq.state = MLX5_SQC_STATE_RDY;
	return mlx5_devx_cmd_modify_sq(p->sq.sq, &msq);
}

static int
pe_rq_make(struct pe_port *p)
{
	struct mlx5_devx_create_rq_attr rqa;
	struct mlx5_devx_modify_rq_attr mrq;
	struct mlx5_devx_rqt_attr *rqta;
	struct mlx5_devx_tir_attr ta;
	union {
		struct mlx5_devx_rqt_attr attr;
		uint8_t bytes[sizeof(struct mlx5_devx_rqt_attr) +
			      sizeof(uint32_t)];
	} one;

	memset(&rqa, 0, sizeof(rqa));
	rqa.cqn = p->cq.cq->id;
	rqa.wq_attr.wq_type = MLX5_WQ_TYPE_CYCLIC;
	rqa.wq_attr.log_wq_stride = 4;
	rqa.wq_attr.log_wq_sz = PE_LOG_Q;
	rqa.wq_attr.pd = p->pdn;
	if (mlx5_devx_rq_create(p->ctx, &p->rq, 16, PE_LOG_Q, &rqa,
				SOCKET_ID_ANY) != 0)
		return -1;
	p->has_rq = 1;
	memset(&mrq, 0, sizeof(mrq));
	mrq.rq_state = MLX5_RQC_STATE_RST;
	mrq.state = MLX5_RQC_STATE_RDY;
	if (mlx5_devx_cmd_modify_rq(p->rq.rq, &mrq) != 0)
		return -1;
	/* An RQT of one entry: the attribute ends with the RQ list. */
	memset(&one, 0, sizeof(one));
	rqta = &one.attr;
	*rqta = (struct mlx5_devx_rqt_attr){
		.rq_type = MLX5_INLINE_Q_TYPE_RQ,
		.rqt_max_size = 1,
		.rqt_actual_size = 1,
	};
	rqta->rq_list[0] = p->rq.rq->id;
	p->rqt = mlx5_devx_cmd_create_rqt(p->ctx, rqta);
	if (p->rqt == NULL)
		return -1;
	memset(&ta, 0, sizeof(ta));
	ta.disp_type = MLX5_TIRC_DISP_TYPE_INDIRECT;
	ta.indirect_table = p->rqt->id;
	ta.rx_hash_fn = MLX5_RX_HASH_FN_TOEPLITZ;
	ta.transport_domain = p->td->id;
	memcpy(ta.rx_hash_toeplitz_key, test_rss_ms_key, sizeof(test_rss_ms_key));
	ta.rx_hash_field_selector_outer.l3_prot_type = MLX5_L3_PROT_TYPE_IPV4;
	ta.rx_hash_field_selector_outer.l4_prot_type = MLX5_L4_PROT_TYPE_UDP;
	ta.rx_hash_field_selector_outer.selected_fields = 0xf;
	p->tir = mlx5_devx_cmd_create_tir(p->ctx, &ta);
	return p->tir != NULL ? 0 : -1;
}

static void
pe_port_close(struct pe_port *p)
{
	if (p->tir != NULL)
		mlx5_devx_cmd_destroy(p->tir);
	if (p->rqt != NULL)
		mlx5_devx_cmd_destroy(p->rqt);
	if (p->has_rq)
		mlx5_devx_rq_destroy(&p->rq);
	if (p->has_sq)
		mlx5_devx_sq_destroy(&p->sq);
	if (p->cq.cq != NULL)
		mlx5_devx_cq_destroy(&p->cq);
	if (p->tis != NULL)
		mlx5_devx_cmd_destroy(p->tis);
	if (p->td != NULL)
		mlx5_devx_cmd_destroy(p->td);
	if (p->mr != NULL)
		mlx5_glue->dereg_mr(p->mr);
	rte_free(p->data);
	if (p->uar != NULL)
		mlx5_glue->devx_free_uar(p->uar);
	if (p->pd != NULL)
		mlx5_glue->dealloc_pd(p->pd);
	if (p->ctx != NULL && mlx5_emu_close(p->ctx) != 0)
		printf("perf-engine: %s not empty at close\n", "device");
}

/* Fill the RQ: every WQE one PE_BUF buffer. */
static void
pe_rq_fill(struct pe_port *p)
{
	uint32_t size = 1u << PE_LOG_Q;
	uint16_t ci = (uint16_t)p->ci; /* One CQE per received frame. */

	while ((uint16_t)(p->pi - ci) < size) {
		uint32_t idx = p->pi & (size - 1);
		uint8_t *d = (uint8_t *)(uintptr_t)p->rq.wq.umem_buf + 16 * idx;

		pe_be32(d, PE_BUF);
		pe_be32(d + 4, p->mr->lkey);
		pe_be64(d + 8, (uintptr_t)(p->data + (size_t)PE_BUF * idx));
		p->pi++;
	}
	rte_wmb();
	p->rq.wq.db_rec[0] = rte_cpu_to_be_32(p->pi);
}

/* Write n SEND WQEs of the frames in tx (one per flow k % 64). */
static void
pe_sq_post(struct pe_port *p, const uint8_t *tx, uint32_t len,
	   unsigned int n)
{
	uint32_t mask = (1u << PE_LOG_Q) - 1;
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint16_t idx = p->pi;
		uint8_t *w = (uint8_t *)(uintptr_t)p->sq.umem_buf +
			     64 * (idx & mask);
		const uint8_t *f = tx + (size_t)PE_BUF * (idx % 64);

		memset(w, 0, 64);
		pe_be32(w, (uint32_t)idx << 8 | MLX5_OPCODE_SEND);
		pe_be32(w + 4, (uint32_t)p->sq.sq->id << 8 | 4);
		w[11] = (idx % PE_TX_CQE_EVERY) == PE_TX_CQE_EVERY - 1 ?
			MLX5_WQE_CTRL_CQ_UPDATE : 0;
		w[16 + 12] = 0;
		w[16 + 13] = PE_INLINE;
		memcpy(w + 16 + 14, f, 2);
		memcpy(w + 32, f + 2, 16);
		pe_be32(w + 48, len - PE_INLINE);
		pe_be32(w + 52, p->mr->lkey);
		pe_be64(w + 56, (uintptr_t)(f + PE_INLINE));
		p->pi++;
	}
	rte_wmb();
	p->sq.db_rec[MLX5_SND_DBR] = rte_cpu_to_be_32(p->pi);
}

/* Consume the CQEs of a CQ; -1 on a CQE that is not what was expected. */
static int
pe_cq_drain(struct pe_port *p, uint8_t opcode, uint32_t byte_cnt,
	    unsigned int *n)
{
	uint32_t size = 1u << PE_LOG_CQ;

	*n = 0;
	for (;;) {
		const uint8_t *c = (const uint8_t *)(uintptr_t)p->cq.umem_buf +
				   64 * (p->ci & (size - 1));
		uint8_t op = c[63];

		if ((op >> 4) == MLX5_CQE_INVALID ||
		    (op & 1) != ((p->ci >> PE_LOG_CQ) & 1))
			break;
		rte_rmb();
		if ((op >> 4) != opcode ||
		    (byte_cnt != 0 && pe_rd32(c + 44) != byte_cnt)) {
			printf("perf-engine: unexpected CQE op 0x%02x bytes "
			       "%u\n", op, pe_rd32(c + 44));
			return -1;
		}
		p->ci++;
		(*n)++;
	}
	p->cq.db_rec[0] = rte_cpu_to_be_32(p->ci & 0xffffff);
	return 0;
}

static int
pe_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The untimed side of a round: fill B's RQ and post A's WQEs (prepare),
 * or consume the CQEs (drain). Run by the main lcore itself, or by a
 * second lcore so that the rings, doorbell records and CQEs the timed
 * pass reads and writes were last touched by another core, as in a
 * forwarding run.
 */
struct pe_round {
	struct pe_port *a, *b;
	const uint8_t *tx;
	uint32_t len;
	unsigned int burst; /* WQEs per timed pass. */
	int drain; /* 0: prepare, 1: drain. */
	int ret;
};

static int
pe_side(void *arg)
{
	struct pe_round *rd = arg;
	unsigned int got, txc;

	if (!rd->drain) {
		pe_rq_fill(rd->b);
		pe_sq_post(rd->a, rd->tx, rd->len, rd->burst);
		rd->ret = 0;
		return 0;
	}
	rd->ret = -1;
	if (pe_cq_drain(rd->b, MLX5_CQE_RESP_SEND, rd->len, &got) != 0 ||
	    got != rd->burst) {
		printf("perf-engine: %u of %u frames received\n", got,
		       rd->burst);
		return 0;
	}
	if (pe_cq_drain(rd->a, MLX5_CQE_REQ, 0, &txc) != 0 ||
	    txc != rd->burst / PE_TX_CQE_EVERY) {
		printf("perf-engine: %u TX completions\n", txc);
		return 0;
	}
	rd->ret = 0;
	return 0;
}

/* Run one side of the round here (lcore RTE_MAX_LCORE) or on lcore. */
static int
pe_side_on(struct pe_round *rd, int drain, unsigned int lcore)
{
	rd->drain = drain;
	if (lcore == RTE_MAX_LCORE) {
		pe_side(rd);
	} else {
		if (rte_eal_remote_launch(pe_side, rd, lcore) != 0) {
			printf("perf-engine: lcore %u busy\n", lcore);
			return -1;
		}
		rte_eal_wait_lcore(lcore);
	}
	return rd->ret;
}

/* One run: cycles per packet, or a negative value on a failure. */
static double
pe_run(struct pe_port *a, struct pe_port *b, const uint8_t *tx, uint32_t len,
	unsigned int lcore, unsigned int rounds, unsigned int burst)
{
	struct pe_round rd = { .a = a, .b = b, .tx = tx, .len = len,
			       .burst = burst };
	uint64_t cycles = 0, pkts = 0;
	unsigned int r;

	for (r = 0; r < rounds; r++) {
		uint64_t t0, t1;

		if (pe_side_on(&rd, 0, lcore) != 0)
			return -1;
		t0 = rte_rdtsc_precise();
		if (mlx5_emu_net_progress() != burst)
			return -1;
		t1 = rte_rdtsc_precise();
		cycles += t1 - t0;
		if (pe_side_on(&rd, 1, lcore) != 0)
			return -1;
		pkts += burst;
	}
	return (double)cycles / (double)pkts;
}

static const uint32_t pe_lens[] = { 64, 1024, 1500 };

/* The table of one setting: a row per frame size; 0 or 1 on a failure. */
static int
pe_table(struct pe_port *a, struct pe_port *b, uint8_t *tx,
	 unsigned int lcore, unsigned int rounds, unsigned int burst,
	 uint32_t only)
{
	double v[PE_RUNS];
	unsigned int i, k, run;

	printf("%6s %10s %10s  runs\n", "bytes", "cyc/pkt", "Mpps/core");
	for (i = 0; i < RTE_DIM(pe_lens); i++) {
		if (only != 0 && pe_lens[i] != only)
			continue;
		for (k = 0; k < 64; k++)
			pe_frame(tx + (size_t)PE_BUF * k, pe_lens[i], k);
		/* Warm up. */
		(void)pe_run(a, b, tx, pe_lens[i], lcore, rounds, burst);
		for (run = 0; run < PE_RUNS; run++) {
			v[run] = pe_run(a, b, tx, pe_lens[i], lcore, rounds,
					burst);
			if (v[run] < 0)
				return 1;
		}
		qsort(v, PE_RUNS, sizeof(v[0]), pe_cmp);
		printf("%6u %10.1f %10.2f ", pe_lens[i], v[PE_RUNS / 2],
		       (double)rte_get_tsc_hz() / v[PE_RUNS / 2] / 1e6);
		for (run = 0; run < PE_RUNS; run++)
			printf(" %.0f", v[run]);
		printf("\n");
	}
	return 0;
}

int
bench_cq_perf_engine(int argc, char **argv)
{
	size_t data_sz = (size_t)PE_BUF << PE_LOG_Q;
	unsigned int other = rte_get_next_lcore(-1, 1, 0);
	struct pe_port a, b;
	unsigned int rounds = PE_ROUNDS, burst = PE_BURST, i, k;
	uint32_t only = 0;
	uint8_t *tx;
	int ret = 0;

	for (i = 0; i + 1 < (unsigned int)argc; i += 2) {
		if (strcmp(argv[i], "--reps") == 0)
			rounds = (unsigned int)atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--burst") == 0)
			burst = (unsigned int)atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--len") == 0)
			only = (uint32_t)atoi(argv[i + 1]);
		else
			break;
	}
	for (k = 0; only != 0 && k < RTE_DIM(pe_lens); k++)
		if (pe_lens[k] == only)
			break;
	if (i != (unsigned int)argc || rounds < 1 || rounds > 100000 ||
	    burst < PE_TX_CQE_EVERY || burst > PE_BURST_MAX ||
	    burst % PE_TX_CQE_EVERY != 0 || k == RTE_DIM(pe_lens)) {
		printf("usage: perf-engine [--reps 1..100000] "
		       "[--len 64|1024|1500] [--burst 32..%u, a multiple "
		       "of %u]\n", PE_BURST_MAX, PE_TX_CQE_EVERY);
		return 2;
	}
	if (pe_port_open(&a, "pe_a", "pe_wire", 0x0a, data_sz) != 0 ||
	    pe_port_open(&b, "pe_b", "pe_wire", 0x0b, data_sz) != 0 ||
	    pe_sq_make(&a) != 0 || pe_rq_make(&b) != 0) {
		printf("perf-engine: setup failed\n");
		ret = 1;
		goto out;
	}
	/* The thread must not run passes of its own while we time ours. */
	mlx5_emu_net_engine_pause(1);
	tx = a.data; /* 64 frame slots of PE_BUF bytes in A's MR. */
	printf("perf-engine: emulated wire, SQ -> RQ, %u WQEs per engine "
	       "pass, TX CQE every %u, TSC %" PRIu64 " Hz\n", burst,
	       PE_TX_CQE_EVERY, rte_get_tsc_hz());
	ret = pe_table(&a, &b, tx, RTE_MAX_LCORE, rounds, burst, only);
	if (ret == 0 && other < RTE_MAX_LCORE) {
		printf("perf-engine: rings written and CQEs read by lcore %u "
		       "(CPU of another core), pass timed on lcore %u\n",
		       other, rte_lcore_id());
		ret = pe_table(&a, &b, tx, other, rounds, burst, only);
	}
	mlx5_emu_net_engine_pause(0);
	if (ret != 0)
		printf("perf-engine: a run failed\n");
out:
	pe_port_close(&b);
	pe_port_close(&a);
	return ret;
}
