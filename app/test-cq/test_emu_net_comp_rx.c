/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_net_comp_rx": compressed receive completions (every mini-CQE
 * format, basic and enhanced layouts) against uncompressed ones.
 */

#include "test_emu_net_fixture.h"

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
				TEST_ASSERT(m[1] == 0 &&
					    m[0] == (z[k].hdr & 0xff),
					    "mini %u header byte 0x%02x", i,
					    m[0]);
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
				TEST_ASSERT(m[1] == 0 &&
					    m[0] == (z[k].hdr & 0xff),
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

static struct unit_test_suite emu_net_comp_rx_suite = {
	.suite_name = "emu_net_comp_rx",
	.setup = emu_net_setup,
	.teardown = emu_net_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_comp_rx_hash),
		TEST_CASE(test_net_comp_rx_csum),
		TEST_CASE(test_net_comp_rx_l34h),
		TEST_CASE(test_net_comp_rx_hash_enh),
		TEST_CASE(test_net_comp_rx_csum_enh),
		TEST_CASE(test_net_comp_rx_l34h_enh),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_net_comp_rx, emu_net_comp_rx_suite);
