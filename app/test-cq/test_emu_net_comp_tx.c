/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_net_comp_tx": compressed send completions (requester sessions,
 * basic and enhanced layouts) against uncompressed ones.
 */

#include "test_emu_net_fixture.h"

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

static struct unit_test_suite emu_net_comp_tx_suite = {
	.suite_name = "emu_net_comp_tx",
	.setup = emu_net_setup,
	.teardown = emu_net_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_comp_tx),
		TEST_CASE(test_net_comp_tx_enh),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_net_comp_tx, emu_net_comp_tx_suite);
