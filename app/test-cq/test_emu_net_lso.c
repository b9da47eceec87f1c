/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_net_lso": the emulated device's large send offload. TSO WQEs
 * are written here from the PRM layouts (mlx5_wqe_ctrl_seg with opcode
 * MLX5_OPCODE_TSO 0x0e; mlx5_wqe_eth_seg: cs_flags at byte 4, mss at 6..7,
 * inline_hdr_sz at 12..13, the inline header from byte 14 on; then a
 * mlx5_wqe_data_seg), and the frames the other port of the wire receives
 * are checked field by field against what TCP segmentation makes of the
 * packet (the kernel's tcp_gso_segment(): lengths, IPv4 id, sequence
 * numbers, CWR first only, FIN and PSH last only), with checksums
 * verified here. WQEs the device refuses complete in error.
 */

#include "test_emu_net_fixture.h"

#define TSO_OP 0x0e
#define TCP_FIN 0x01
#define TCP_PSH 0x08
#define TCP_ACK 0x10
#define TCP_CWR 0x80

/* Post a TSO WQE: hdr[0..ihs) inline, plen payload bytes at pay (in the
 * port's MR), mss; CQ_UPDATE set. Returns the WQE's index.
 */
static uint16_t
tso_post(struct nport *p, const uint8_t *hdr, uint32_t ihs,
	 const uint8_t *pay, uint32_t plen, uint16_t mss)
{
	uint32_t ds = 2 + (ihs - 2 + 15) / 16 + 1, nbb = (ds + 3) / 4, j;
	uint16_t idx = p->sq_pi;
	uint8_t wqe[256];
	uint32_t be32;
	uint64_t be64;

	memset(wqe, 0, sizeof(wqe));
	be32 = rte_cpu_to_be_32((uint32_t)idx << 8 | TSO_OP);
	memcpy(wqe, &be32, 4);
	be32 = rte_cpu_to_be_32((uint32_t)p->sq.sq->id << 8 | ds);
	memcpy(wqe + 4, &be32, 4);
	wqe[11] = 0x08; /* CQ_UPDATE */
	wqe[16 + 4] = MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM;
	put16(wqe + 16 + 6, mss);
	put16(wqe + 16 + 12, (uint16_t)ihs);
	memcpy(wqe + 16 + 14, hdr, 2);
	memcpy(wqe + 32, hdr + 2, ihs - 2);
	be32 = rte_cpu_to_be_32(plen);
	memcpy(wqe + 16 * (ds - 1), &be32, 4);
	be32 = rte_cpu_to_be_32(p->mr->lkey);
	memcpy(wqe + 16 * (ds - 1) + 4, &be32, 4);
	be64 = rte_cpu_to_be_64((uintptr_t)pay);
	memcpy(wqe + 16 * (ds - 1) + 8, &be64, 8);
	for (j = 0; j < nbb; j++)
		memcpy((uint8_t *)(uintptr_t)p->sq.umem_buf + 64 *
		       ((p->sq_pi + j) & ((1u << LOG_SQ) - 1)), wqe + 64 * j,
		       64);
	p->sq_pi += nbb;
	rte_wmb();
	p->sq.db_rec[MLX5_SND_DBR] = rte_cpu_to_be_32(p->sq_pi);
	rte_wmb();
	memcpy((uint8_t *)p->uar->reg_addr, wqe, 8);
	return idx;
}

/* Ones'-complement sum folded to 16 bits. */
static uint16_t
fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

/* IPv4 header and TCP checksums of a frame are right. */
static int
tcp4_sums_ok(const uint8_t *f, uint32_t len)
{
	const uint8_t *ip = f + 14;
	uint32_t tl = len - 34, s;
	uint8_t ph[12];

	if (fold(csum_sum(0, ip, 20)) != 0xffff)
		return 0;
	memcpy(ph, ip + 12, 8);
	ph[8] = 0;
	ph[9] = 6;
	put16(ph + 10, (uint16_t)tl);
	s = csum_sum(csum_sum(0, ph, 12), f + 34, tl);
	return fold(s) == 0xffff;
}

/*
 * 2,500 payload bytes at mss 1,000 from a to b: three frames of 1,000,
 * 1,000 and 500 bytes; one TX CQE (opcode TSO).
 */
static int
test_lso_ipv4(void)
{
	uint8_t pkt[54 + 2500];
	struct mlx5_emu_port_stats pa, pb;
	uint32_t len, i, seq0, chunk;
	uint16_t id0, idx;
	const uint8_t *c, *f;
	struct nport a, b;
	uint8_t *pay, fl;
	int ret;

	ret = nport_open(&a, "elso_a", "elso_w", mac_a, 0);
	if (ret == TEST_SUCCESS)
		ret = nport_open(&b, "elso_b", "elso_w", mac_b, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	rq_post(&b, 8);
	len = frame_tcp4(pkt, mac_b, mac_a, 2500, 0, 0);
	TEST_ASSERT_EQUAL(len, 54u + 2500, "packet");
	pkt[47] = TCP_CWR | TCP_PSH | TCP_FIN | TCP_ACK;
	id0 = rd16(pkt + 18);
	seq0 = rd32(pkt + 38);
	pay = a.data + DATA_SZ / 2;
	memcpy(pay, pkt + 54, 2500);
	idx = tso_post(&a, pkt, 54, pay, 2500, 1000);
	TEST_ASSERT_EQUAL(mlx5_emu_net_progress(), 1u, "one WQE");
	c = cqe_next(&a.scq, &a.scq_ci);
	TEST_ASSERT(c != NULL && (c[CQE_OP_OWN] >> 4) == 0 &&
		    rd16(c + CQE_WQE_CNT) == idx && c[CQE_QPN] == TSO_OP,
		    "one requester CQE for the TSO WQE");
	TEST_ASSERT_NULL(cqe_next(&a.scq, &a.scq_ci), "only one");
	for (i = 0; i < 3; i++) {
		chunk = i < 2 ? 1000 : 500;
		c = cqe_next(&b.rcq, &b.rcq_ci);
		TEST_ASSERT_NOT_NULL(c, "frame %u", i);
		TEST_ASSERT_EQUAL(rd32(c + CQE_BYTE_CNT), 54 + chunk,
				  "frame %u length", i);
		TEST_ASSERT_EQUAL((rd16(c + CQE_HDR_TYPE) & 0x0700), 0x0700,
				  "frame %u: L2, L3, L4 OK", i);
		f = b.data + BUF_SZ * i;
		TEST_ASSERT_BUFFERS_ARE_EQUAL(f, pkt, 16, "frame %u L2, IP vhl", i);
		TEST_ASSERT(rd16(f + 16) == 54 - 14 + chunk &&
			    rd16(f + 18) == (uint16_t)(id0 + i) &&
			    rd32(f + 38) == seq0 + 1000 * i,
			    "frame %u: IP length %u id %u seq %u", i,
			    rd16(f + 16), rd16(f + 18), rd32(f + 38));
		fl = TCP_ACK | (i == 0 ? TCP_CWR : 0) |
		     (i == 2 ? TCP_PSH | TCP_FIN : 0);
		TEST_ASSERT_EQUAL(f[47], fl, "frame %u TCP flags 0x%02x", i,
				  f[47]);
		TEST_ASSERT(tcp4_sums_ok(f, 54 + chunk), "frame %u sums", i);
		TEST_ASSERT_BUFFERS_ARE_EQUAL(f + 54, pkt + 54 + 1000 * i,
					      chunk, "frame %u payload", i);
	}
	TEST_ASSERT_NULL(cqe_next(&b.rcq, &b.rcq_ci), "three frames");
	mlx5_emu_port_stats_get(a.ctx, &pa);
	mlx5_emu_port_stats_get(b.ctx, &pb);
	TEST_ASSERT(pa.tx_packets == 3 && pa.tx_bytes == 3 * 54 + 2500 &&
		    pb.rx_packets == 3 && pa.tx_errors == 0, "counters");
	TEST_ASSERT_SUCCESS(nport_close(&b), "close b");
	return nport_close(&a);
}

/* One refused TSO WQE on a lone port: error CQE, nothing sent. */
static int
lso_refused(const char *what, uint32_t ihs, uint16_t mss, uint32_t plen,
	    uint8_t max_lso)
{
	uint8_t pkt[54 + 2000];
	struct mlx5_emu_port_stats ps;
	struct mlx5_emu_caps caps;
	struct nport p;
	const uint8_t *c;
	int ret;

	mlx5_emu_caps_default(&caps);
	caps.eth_max_lso = max_lso;
	TEST_ASSERT_SUCCESS(mlx5_emu_open_caps_set(&caps), "caps");
	ret = nport_open(&p, "elso_r", "elso_rw", mac_a, 0);
	mlx5_emu_open_caps_set(NULL);
	if (ret != TEST_SUCCESS)
		return ret;
	rq_post(&p, 4);
	frame_tcp4(pkt, mac_a, mac_a, 2000, 0, 0);
	memcpy(p.data + DATA_SZ / 2, pkt + ihs, plen);
	tso_post(&p, pkt, ihs, p.data + DATA_SZ / 2, plen, mss);
	mlx5_emu_net_progress();
	c = cqe_next(&p.scq, &p.scq_ci);
	TEST_ASSERT(c != NULL && (c[CQE_OP_OWN] >> 4) == 13 &&
		    c[CQE_SYNDROME] == 0x02, "%s: LOC_QP_OP_ERR CQE", what);
	TEST_ASSERT_NULL(cqe_next(&p.rcq, &p.rcq_ci), "%s: nothing sent",
			 what);
	mlx5_emu_port_stats_get(p.ctx, &ps);
	TEST_ASSERT(ps.tx_packets == 0 && ps.tx_errors == 1, "%s: counters",
		    what);
	return nport_close(&p);
}

static int
test_lso_refused(void)
{
	TEST_ASSERT_SUCCESS(lso_refused("mss 0", 54, 0, 2000, 16), "mss");
	TEST_ASSERT_SUCCESS(lso_refused("L2+L3 inline only", 34, 1000, 2000,
					16), "header");
	TEST_ASSERT_SUCCESS(lso_refused("payload above 2^10", 54, 500, 2000,
					10), "max_lso_cap");
	TEST_ASSERT_SUCCESS(lso_refused("no LSO capability", 54, 1000, 2000,
					0), "no cap");
	return TEST_SUCCESS;
}

static struct unit_test_suite emu_net_lso_suite = {
	.suite_name = "emu_net_lso",
	.setup = emu_net_setup,
	.teardown = emu_net_teardown,
	.unit_test_cases = {
		TEST_CASE(test_lso_ipv4),
		TEST_CASE(test_lso_refused),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_net_lso, emu_net_lso_suite);
