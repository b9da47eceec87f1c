/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_net_inline": minimum inline modes of the emulated send queue.
 */

#include "test_emu_net_fixture.h"

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

static struct unit_test_suite emu_net_inline_suite = {
	.suite_name = "emu_net_inline",
	.setup = emu_net_setup,
	.teardown = emu_net_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_inline_mode),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_net_inline, emu_net_inline_suite);
