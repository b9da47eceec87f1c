/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_net_wire": frames on the emulated wire: device caps, loopback,
 * two ports, VLAN stripping, padded short frames, the send ring wrap.
 */

#include "test_emu_net_fixture.h"

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
		    attr.lro_cap == 1 && attr.max_lso_cap == 16 &&
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

static struct unit_test_suite emu_net_wire_suite = {
	.suite_name = "emu_net_wire",
	.setup = emu_net_setup,
	.teardown = emu_net_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_caps),
		TEST_CASE(test_net_loopback),
		TEST_CASE(test_net_two_ports),
		TEST_CASE(test_net_vlan_strip),
		TEST_CASE(test_net_padded_frame),
		TEST_CASE(test_net_wqe_wrap),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_net_wire, emu_net_wire_suite);
