/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_net_lro": the emulated HCA's large receive offload. TIRs are
 * made by DPDK's mlx5_devx_cmd_create_tir() with the LRO fields DPDK's
 * net/mlx5 writes (mlx5_devx.c mlx5_devx_tir_attr_set()); frames are
 * injected on the wire; every expected CQE byte and buffer byte comes
 * from the frames built here and the struct mlx5_cqe layout (mlx5_prm.h),
 * not from the model.
 */

#include "test_emu_net_fixture.h"

#define L_WIRE "enet_wire_lro"
#define L_PERIOD 1024 /* usec: the largest lro_timer_supported_periods. */
#define L_MAX_SZ 8 /* lro_max_msg_sz: 2048 bytes from the TCP header. */
#define L_PAY 300 /* Payload of a segment. */
#define L_SEQ0 1000u
#define L_ACK0 5000u
#define CQE_LRO_FLAGS 4
#define CQE_LRO_TTL 5
#define CQE_LRO_WIN 6
#define CQE_LRO_ACK 8
#define CQE_LRO_NSEG 32

static const struct tcp4_flow l_flow = {
	.sip = { 10, 0, 0, 1 },
	.dip = { 10, 0, 0, 2 },
	.sport = 40000,
	.dport = 80,
	.flags = 0x10, /* ACK */
};

/* Segment k: payload bytes of its own, its sequence, ack, ttl, window. */
struct lseg {
	uint32_t seq;
	uint32_t ack;
	uint8_t ttl;
	uint8_t flags;
	uint16_t win;
	uint32_t pay;
	uint8_t fill;
	uint8_t ts; /* The timestamp option (12 bytes). */
	uint8_t opt; /* A MSS option instead (not coalesced). */
	uint8_t ipopt; /* An IPv4 option (not coalesced). */
};

/* Fold and complement a sum. */
static uint16_t
lcsum_done(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

/* A TCP/IPv4 frame of segment g into f; its length. */
static uint32_t
lframe(uint8_t *f, const struct tcp4_flow *fl, const struct lseg *g)
{
	uint32_t ipl = g->ipopt ? 24 : 20;
	uint32_t tl = (g->ts || g->opt) ? 32 : 20;
	uint8_t *ip = f + 14, *tcp = f + 14 + ipl;
	uint32_t len = 14 + ipl + tl + g->pay, i, s;
	uint8_t ph[4];

	memset(f, 0, len);
	memcpy(f, mac_a, 6);
	memcpy(f + 6, mac_b, 6);
	put16(f + 12, 0x0800);
	ip[0] = (uint8_t)(0x40 | ipl / 4);
	put16(ip + 2, (uint16_t)(ipl + tl + g->pay));
	put16(ip + 4, (uint16_t)(g->seq & 0xffff));
	ip[8] = g->ttl;
	ip[9] = 6;
	memcpy(ip + 12, fl->sip, 4);
	memcpy(ip + 16, fl->dip, 4);
	if (g->ipopt)
		memset(ip + 20, 1, 4); /* NOP, NOP, NOP, NOP */
	put16(ip + 10, lcsum_done(csum_sum(0, ip, ipl)));
	put16(tcp, fl->sport);
	put16(tcp + 2, fl->dport);
	put16(tcp + 4, (uint16_t)(g->seq >> 16));
	put16(tcp + 6, (uint16_t)g->seq);
	put16(tcp + 8, (uint16_t)(g->ack >> 16));
	put16(tcp + 10, (uint16_t)g->ack);
	tcp[12] = (uint8_t)(tl / 4 << 4);
	tcp[13] = g->flags;
	put16(tcp + 14, g->win);
	if (g->ts) {
		tcp[20] = 1;
		tcp[21] = 1;
		tcp[22] = 8;
		tcp[23] = 10;
		put16(tcp + 26, (uint16_t)g->seq); /* TSval varies. */
	} else if (g->opt) {
		tcp[20] = 2; /* MSS */
		tcp[21] = 4;
		put16(tcp + 22, 1460);
		memset(tcp + 24, 1, 8);
	}
	for (i = 0; i < g->pay; i++)
		tcp[tl + i] = (uint8_t)(g->fill + i * 13);
	s = csum_sum(0, ip + 12, 8);
	ph[0] = 0;
	ph[1] = 6;
	put16(ph + 2, (uint16_t)(tl + g->pay));
	s = csum_sum(s, ph, 4);
	s = csum_sum(s, tcp, tl + g->pay);
	put16(tcp + 16, lcsum_done(s));
	return len;
}

/* n in-order segments from the start state. */
static void
lsegs(struct lseg *g, unsigned int n, uint32_t pay)
{
	unsigned int k;

	for (k = 0; k < n; k++) {
		memset(&g[k], 0, sizeof(g[k]));
		g[k].seq = L_SEQ0 + k * pay;
		g[k].ack = L_ACK0 + k * 10;
		g[k].ttl = (uint8_t)(64 - (k == 1 ? 3 : 0));
		g[k].flags = 0x10;
		g[k].win = (uint16_t)(2000 + k);
		g[k].pay = pay;
		g[k].fill = (uint8_t)(k * 31 + 1);
	}
}

/* Replace the port's TIR by one with LRO (mask, size, period). */
static struct mlx5_devx_obj *
ltir(struct nport *p, uint32_t mask, uint32_t sz, uint32_t period)
{
	struct mlx5_devx_tir_attr ta;

	tir_attr_fill(p, p->rqt, ALL_FIELDS, &ta);
	ta.lro_enable_mask = mask;
	ta.lro_max_msg_sz = sz;
	ta.lro_timeout_period_usecs = period;
	return mlx5_devx_cmd_create_tir(p->ctx, &ta);
}

static int
lopen(struct nport *p, const char *name, uint32_t mask, uint32_t sz)
{
	TEST_ASSERT_SUCCESS(nport_open(p, name, L_WIRE, mac_a, 0), "open");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_destroy(p->tir), "plain tir");
	p->tir = ltir(p, mask, sz, L_PERIOD);
	TEST_ASSERT_NOT_NULL(p->tir, "LRO TIR");
	rq_post(p, 1u << LOG_RQ);
	return TEST_SUCCESS;
}

/* Inject frames of segments g[0..n) in one burst (one clock sample). */
static int
linject(const struct lseg *g, unsigned int n, uint8_t (*buf)[BUF_SZ])
{
	const void *fr[32];
	uint32_t lens[32];
	unsigned int k;

	for (k = 0; k < n; k++) {
		lens[k] = lframe(buf[k], &l_flow, &g[k]);
		fr[k] = buf[k];
	}
	TEST_ASSERT_EQUAL(mlx5_emu_wire_inject_burst(L_WIRE, fr, lens, n), 1,
			  "delivered");
	return TEST_SUCCESS;
}

static uint8_t lbuf[32][BUF_SZ];

/*
 * The CQE and buffer of a session of segments g[first..first+n) in WQE
 * idx: exact bytes from the frames.
 */
static int
lcheck(struct nport *p, const uint8_t *c, const struct lseg *g, unsigned int n,
	uint32_t idx, uint8_t (*fr)[BUF_SZ])
{
	const uint8_t *b = p->data + BUF_SZ * (idx & ((1u << LOG_RQ) - 1));
	uint32_t hl = 14 + (g[0].ipopt ? 24 : 20) + (g[0].ts ? 32 : 20);
	uint32_t len = hl, s = 0, pos = 0, k, i;
	uint8_t minttl = 0xff;

	TEST_ASSERT_NOT_NULL(c, "CQE");
	TEST_ASSERT_EQUAL(c[CQE_OP_OWN] >> 4, MLX5_CQE_RESP_SEND, "opcode");
	TEST_ASSERT_EQUAL(rd16(c + CQE_WQE_CNT), (uint16_t)idx, "wqe");
	TEST_ASSERT_SUCCESS(memcmp(b, fr[0], hl), "first headers unchanged");
	for (k = 0; k < n; k++) {
		const uint8_t *pl = fr[k] + hl;

		TEST_ASSERT_SUCCESS(memcmp(b + len, pl, g[k].pay),
				    "payload %u in place", k);
		for (i = 0; i < g[k].pay; i++, pos++)
			s += (pos & 1) ? pl[i] : (uint32_t)pl[i] << 8;
		len += g[k].pay;
		minttl = RTE_MIN(minttl, g[k].ttl);
	}
	TEST_ASSERT_EQUAL(rd32(c + CQE_BYTE_CNT), len, "byte_cnt %u",
			  rd32(c + CQE_BYTE_CNT));
	if (n == 1) {
		TEST_ASSERT(c[CQE_LRO_NSEG] == 0 && rd32(c + CQE_LRO_FLAGS) == 0 &&
			    rd32(c + CQE_LRO_ACK) == 0, "plain CQE");
		return TEST_SUCCESS;
	}
	TEST_ASSERT_EQUAL(c[CQE_LRO_NSEG], n, "lro_num_seg %u",
			  c[CQE_LRO_NSEG]);
	TEST_ASSERT_EQUAL(c[CQE_LRO_FLAGS],
			  ((g[n - 1].flags & 0x08) ? MLX5_CQE_LRO_PUSH_MASK : 0),
			  "tcppsh");
	TEST_ASSERT_EQUAL(c[CQE_LRO_TTL], minttl, "min ttl");
	TEST_ASSERT_EQUAL(rd16(c + CQE_LRO_WIN), g[n - 1].win, "win");
	TEST_ASSERT_EQUAL(rd32(c + CQE_LRO_ACK), g[n - 1].ack, "ack");
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	TEST_ASSERT_EQUAL(rd16(c + CQE_CSUM), s, "payload csum");
	/* IPv4, TCP with ACK and data, L2/L3/L4 OK (mlx5_prm.h). */
	TEST_ASSERT_EQUAL((rd16(c + CQE_HDR_TYPE) & 0x07fc),
			  (uint16_t)(0x700 | 2 << 2 | 4 << 4), "hdr_type_etc 0x%x",
			  rd16(c + CQE_HDR_TYPE));
	return TEST_SUCCESS;
}

static int
test_lro_caps(void)
{
	struct mlx5_emu_caps caps;
	struct mlx5_hca_attr attr;
	struct ibv_context *ctx;

	ctx = mlx5_emu_open("enet_lro_caps", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	memset(&attr, 0, sizeof(attr));
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_hca_attr(ctx, &attr), "attr");
	TEST_ASSERT(attr.lro_cap == 1 && attr.lro_max_msg_sz_mode == 0 &&
		    attr.lro_timer_supported_periods[0] == 8 &&
		    attr.lro_timer_supported_periods[1] == 16 &&
		    attr.lro_timer_supported_periods[2] == 32 &&
		    attr.lro_timer_supported_periods[3] == 1024 &&
		    attr.tunnel_lro_gre == 0 && attr.tunnel_lro_vxlan == 0,
		    "LRO caps as DPDK reads them");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	mlx5_emu_caps_default(&caps);
	caps.eth_lro = 0;
	ctx = mlx5_emu_open("enet_lro_caps0", &caps);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	memset(&attr, 0, sizeof(attr));
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_hca_attr(ctx, &attr), "attr");
	TEST_ASSERT(attr.lro_cap == 0 && attr.lro_timer_supported_periods[0] ==
		    0, "no LRO");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	caps.eth_lro = 2;
	TEST_ASSERT_NULL(mlx5_emu_open("enet_lro_caps2", &caps), "1-bit cap");
	return TEST_SUCCESS;
}

/* TIR refusals: status, syndrome, nothing made. */
static int
test_lro_tir_refusals(void)
{
	struct mlx5_emu_net_stats ns;
	struct mlx5_emu_caps caps;
	struct nport p;
	uint32_t synd;
	uint8_t st;
	uint32_t bad[] = { 0, 7, 64, 1000 };
	unsigned int k;

	TEST_ASSERT_SUCCESS(nport_open(&p, "enet_lro_bad", NULL, mac_a, 0),
			    "open");
	for (k = 0; k < RTE_DIM(bad); k++) {
		TEST_ASSERT_NULL(ltir(&p, 3, L_MAX_SZ, bad[k]), "period %u",
				 bad[k]);
		mlx5_emu_last_cmd_error(p.ctx, &st, &synd);
		TEST_ASSERT(st == CMD_STAT_BAD_PARAM &&
			    synd == MLX5_EMU_SYND_NET_LRO_PERIOD, "period");
	}
	TEST_ASSERT_NULL(ltir(&p, 4, L_MAX_SZ, L_PERIOD), "mask bit 2");
	mlx5_emu_last_cmd_error(p.ctx, &st, &synd);
	TEST_ASSERT(st == CMD_STAT_BAD_PARAM &&
		    synd == MLX5_EMU_SYND_NET_RESERVED, "mask");
	TEST_ASSERT_NULL(ltir(&p, 1, 0, L_PERIOD), "size 0");
	mlx5_emu_last_cmd_error(p.ctx, &st, &synd);
	TEST_ASSERT(st == CMD_STAT_BAD_PARAM &&
		    synd == MLX5_EMU_SYND_NET_LRO_SIZE, "size");
	mlx5_emu_net_stats_get(p.ctx, &ns);
	TEST_ASSERT_EQUAL(ns.tirs, 1u, "only the fixture's TIR");
	TEST_ASSERT_SUCCESS(nport_close(&p), "close");
	/* A device without lro_cap. */
	mlx5_emu_caps_default(&caps);
	caps.eth_lro = 0;
	TEST_ASSERT_SUCCESS(mlx5_emu_open_caps_set(&caps), "caps");
	TEST_ASSERT_SUCCESS(nport_open(&p, "enet_lro_nocap", NULL, mac_a, 0),
			    "open");
	mlx5_emu_open_caps_set(NULL);
	TEST_ASSERT_NULL(ltir(&p, 1, L_MAX_SZ, L_PERIOD), "no cap");
	mlx5_emu_last_cmd_error(p.ctx, &st, &synd);
	TEST_ASSERT(st == CMD_STAT_BAD_PARAM &&
		    synd == MLX5_EMU_SYND_NET_LRO_CAP, "cap");
	mlx5_emu_net_stats_get(p.ctx, &ns);
	TEST_ASSERT_EQUAL(ns.tirs, 1u, "only the fixture's TIR");
	TEST_ASSERT_SUCCESS(nport_close(&p), "close");
	return TEST_SUCCESS;
}

/* N in-order segments, then a frame that closes the session. */
static int
test_lro_coalesce(void)
{
	struct lseg g[6];
	struct nport p;
	const uint8_t *c;

	TEST_ASSERT_SUCCESS(lopen(&p, "enet_lro", 3, L_MAX_SZ), "open");
	lsegs(g, 5, L_PAY);
	g[4].flags = 0x18; /* PSH: joins and closes. */
	TEST_ASSERT_SUCCESS(linject(g, 5, lbuf), "inject");
	mlx5_emu_net_progress();
	c = cqe_next(&p.rcq, &p.rcq_ci);
	TEST_ASSERT_SUCCESS(lcheck(&p, c, g, 5, 0, lbuf), "5 segments");
	TEST_ASSERT_NULL(cqe_next(&p.rcq, &p.rcq_ci), "one CQE");
	/* Timestamps allowed: 3 segments, closed by the timeout. */
	lsegs(g, 3, L_PAY);
	g[0].ts = g[1].ts = g[2].ts = 1;
	TEST_ASSERT_SUCCESS(linject(g, 3, lbuf), "inject");
	TEST_ASSERT_NULL(cqe_next(&p.rcq, &p.rcq_ci), "session held");
	usleep(2 * L_PERIOD);
	mlx5_emu_net_progress();
	c = cqe_next(&p.rcq, &p.rcq_ci);
	TEST_ASSERT_SUCCESS(lcheck(&p, c, g, 3, 1, lbuf), "timeout");
	TEST_ASSERT_SUCCESS(nport_close(&p), "close");
	return TEST_SUCCESS;
}

/*
 * Each closing reason: after segments 0, 1 of a session, frame X comes;
 * expected: session {0, 1}, then X on its own (its own session of one, a
 * plain CQE) when X is not a continuation. which: 0 out of order, 1 other
 * flow, 2 TCP option other than timestamp, 3 IPv4 option, 4 max size
 * (lro_max_msg_sz 4: 1024 bytes from the TCP header, 2 x 500 fit, 3 do
 * not; the WQE would hold them), 5 non-TCP (UDP/IPv6), 6 the WQE's room
 * (lro_max_msg_sz 16; 54 + 3 x 700 > 2048).
 */
static int
lclose_case(unsigned int which)
{
	struct lseg g[3];
	struct nport p;
	struct tcp4_flow other = l_flow;
	const uint8_t *c;
	const void *fr[3];
	uint32_t lens[3], n = 3;

	TEST_ASSERT_SUCCESS(lopen(&p, "enet_lro_close", 1,
				  which == 4 ? 4 : which == 6 ? 16 : L_MAX_SZ),
			    "open");
	lsegs(g, 3, which == 4 ? 500 : which == 6 ? 700 : L_PAY);
	lens[0] = lframe(lbuf[0], &l_flow, &g[0]);
	lens[1] = lframe(lbuf[1], &l_flow, &g[1]);
	switch (which) {
	case 0:
		g[2].seq += 1;
		break;
	case 2:
		g[2].opt = 1;
		break;
	case 3:
		g[2].ipopt = 1;
		break;
	default:
		break;
	}
	other.sport++;
	lens[2] = lframe(lbuf[2], which == 1 ? &other : &l_flow, &g[2]);
	if (which == 5)
		lens[2] = frame_udp6(lbuf[2], mac_a, mac_b, 100);
	fr[0] = lbuf[0];
	fr[1] = lbuf[1];
	fr[2] = lbuf[2];
	TEST_ASSERT_EQUAL(mlx5_emu_wire_inject_burst(L_WIRE, fr, lens, n), 1,
			  "delivered");
	c = cqe_next(&p.rcq, &p.rcq_ci);
	TEST_ASSERT_SUCCESS(lcheck(&p, c, g, 2, 0, lbuf), "session of 2");
	/* The third frame: its own (open) session or a plain frame. */
	usleep(2 * L_PERIOD);
	mlx5_emu_net_progress();
	c = cqe_next(&p.rcq, &p.rcq_ci);
	TEST_ASSERT_NOT_NULL(c, "third frame");
	TEST_ASSERT_EQUAL(rd32(c + CQE_BYTE_CNT), lens[2], "its length");
	TEST_ASSERT_EQUAL(c[CQE_LRO_NSEG], 0, "plain");
	TEST_ASSERT_SUCCESS(memcmp(p.data + BUF_SZ, lbuf[2], lens[2]),
			    "its bytes");
	TEST_ASSERT_NULL(cqe_next(&p.rcq, &p.rcq_ci), "two CQEs");
	TEST_ASSERT_SUCCESS(nport_close(&p), "close");
	return TEST_SUCCESS;
}

static int
test_lro_close_reasons(void)
{
	unsigned int w;

	for (w = 0; w < 7; w++)
		TEST_ASSERT_SUCCESS(lclose_case(w), "case %u", w);
	return TEST_SUCCESS;
}

/* LRO off on the TIR (the fixture's): one CQE per frame. */
static int
test_lro_off(void)
{
	struct lseg g[4];
	struct nport p;
	const uint8_t *c;
	unsigned int k;

	TEST_ASSERT_SUCCESS(nport_open(&p, "enet_lro_off", L_WIRE, mac_a, 0),
			    "open");
	rq_post(&p, 1u << LOG_RQ);
	lsegs(g, 4, L_PAY);
	TEST_ASSERT_SUCCESS(linject(g, 4, lbuf), "inject");
	for (k = 0; k < 4; k++) {
		c = cqe_next(&p.rcq, &p.rcq_ci);
		TEST_ASSERT_SUCCESS(lcheck(&p, c, &g[k], 1, k, &lbuf[k]),
				    "frame %u", k);
	}
	TEST_ASSERT_NULL(cqe_next(&p.rcq, &p.rcq_ci), "four CQEs");
	TEST_ASSERT_SUCCESS(nport_close(&p), "close");
	return TEST_SUCCESS;
}

/* An RQ state change closes the session. */
static int
test_lro_rq_state(void)
{
	struct mlx5_devx_modify_rq_attr mrq;
	struct lseg g[3];
	struct nport p;
	const uint8_t *c;

	TEST_ASSERT_SUCCESS(lopen(&p, "enet_lro_state", 1, L_MAX_SZ), "open");
	lsegs(g, 3, L_PAY);
	TEST_ASSERT_SUCCESS(linject(g, 3, lbuf), "inject");
	TEST_ASSERT_NULL(cqe_next(&p.rcq, &p.rcq_ci), "held");
	memset(&mrq, 0, sizeof(mrq));
	mrq.rq_state = MLX5_RQC_STATE_RDY;
	mrq.state = MLX5_RQC_STATE_ERR;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_rq(p.rq.rq, &mrq), "to ERR");
	c = cqe_next(&p.rcq, &p.rcq_ci);
	TEST_ASSERT_SUCCESS(lcheck(&p, c, g, 3, 0, lbuf), "closed");
	TEST_ASSERT_SUCCESS(nport_close(&p), "close");
	return TEST_SUCCESS;
}

static struct unit_test_suite emu_net_lro_suite = {
	.suite_name = "emu_net_lro",
	.setup = emu_net_setup,
	.teardown = emu_net_teardown,
	.unit_test_cases = {
		TEST_CASE(test_lro_caps),
		TEST_CASE(test_lro_tir_refusals),
		TEST_CASE(test_lro_coalesce),
		TEST_CASE(test_lro_close_reasons),
		TEST_CASE(test_lro_off),
		TEST_CASE(test_lro_rq_state),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_net_lro, emu_net_lro_suite);
