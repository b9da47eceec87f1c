/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_net_vport": the emulated NIC vport: address filter, MTU and
 * state, port speed.
 */

#include "test_emu_net_fixture.h"

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
	ctx256[NVC_LIST] = 3; /* list type 3: none (0 UC, 1 MC, 2 VLAN) */
	TEST_ASSERT_EQUAL(vport_modify(b.ctx, SEL_ADDR_LIST, ctx256, NULL, 0,
				       &st, &synd), EINVAL, "list type 3");
	TEST_ASSERT(st == CMD_STAT_BAD_PARAM &&
		    synd == MLX5_EMU_SYND_NET_MAC_LIST, "status");
	/* A VLAN list longer than 1 << HCA_CAP.log_max_vlan_list (8). */
	memset(ctx256, 0, sizeof(ctx256));
	ctx256[NVC_LIST] = 2;
	ctx256[NVC_LIST + 2] = 0x01; /* allowed_list_size 257 */
	ctx256[NVC_LIST + 3] = 0x01;
	TEST_ASSERT_EQUAL(vport_modify(b.ctx, SEL_ADDR_LIST, ctx256, NULL, 0,
				       &st, &synd), EINVAL, "257 VLANs");
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

static struct unit_test_suite emu_net_vport_suite = {
	.suite_name = "emu_net_vport",
	.setup = emu_net_setup,
	.teardown = emu_net_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_vport_filter),
		TEST_CASE(test_net_mtu_state),
		TEST_CASE(test_net_port_speed),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_net_vport, emu_net_vport_suite);
