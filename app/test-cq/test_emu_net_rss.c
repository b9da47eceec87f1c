/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_net_rss": Toeplitz RSS of the emulated TIR (Microsoft
 * verification vectors).
 */

#include "test_emu_net_fixture.h"

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

static struct unit_test_suite emu_net_rss_suite = {
	.suite_name = "emu_net_rss",
	.setup = emu_net_setup,
	.teardown = emu_net_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_rss),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_net_rss, emu_net_rss_suite);
