/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_net_errors": error completions of the emulated network queues:
 * a data segment outside its MR, RX errors and their recovery, the MR hint.
 */

#include "test_emu_net_fixture.h"

/* A data segment outside the MR: error CQE 0x04, SQ in error; recovery
 * through RST -> RDY.
 */
static int
test_net_lkey_error(void)
{
	struct mlx5_devx_modify_sq_attr msq;
	struct mlx5_emu_port_stats ps;
	uint8_t frame[128];
	struct nport p;
	const uint8_t *c;
	uint32_t len;
	int ret;

	ret = nport_open(&p, "enet_lkey", "enet_wire_lkey", mac_a, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	rq_post(&p, 2);
	len = frame_tcp4(frame, mac_a, mac_b, 30, 0, 0);
	/* One byte past the end of the MR. */
	sq_send(&p, frame, len, 0, p.mr->lkey,
		(uintptr_t)(p.data + DATA_SZ - (len - 18) + 1), 0);
	TEST_ASSERT_EQUAL(mlx5_emu_net_progress(), 1u, "executed");
	c = cqe_next(&p.scq, &p.scq_ci);
	TEST_ASSERT_NOT_NULL(c, "error CQE without CQ_UPDATE");
	TEST_ASSERT_EQUAL(c[CQE_OP_OWN] >> 4, 13, "REQ_ERR");
	TEST_ASSERT_EQUAL(c[CQE_SYNDROME], 0x04, "LOC_PROT_ERR");
	TEST_ASSERT_EQUAL(rd16(c + CQE_WQE_CNT), 0, "wqe_counter");
	TEST_ASSERT_NULL(cqe_next(&p.rcq, &p.rcq_ci), "nothing sent");
	/* A good WQE is not executed while the SQ is in error. */
	send_frame(&p, frame, len, 0);
	TEST_ASSERT_EQUAL(mlx5_emu_net_progress(), 0u, "SQ stopped");
	/* A wrong lkey is a protection error too (after recovery). */
	memset(&msq, 0, sizeof(msq));
	msq.sq_state = MLX5_SQC_STATE_RDY;
	msq.state = MLX5_SQC_STATE_RST;
	TEST_ASSERT_FAIL(mlx5_devx_cmd_modify_sq(p.sq.sq, &msq),
			 "SQ is not RDY");
	msq.sq_state = MLX5_SQC_STATE_ERR;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_sq(p.sq.sq, &msq), "ERR>RST");
	msq.sq_state = MLX5_SQC_STATE_RST;
	msq.state = MLX5_SQC_STATE_RDY;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_sq(p.sq.sq, &msq), "RST>RDY");
	p.sq_pi = 0;
	p.sq.db_rec[MLX5_SND_DBR] = 0;
	sq_send(&p, frame, len, 0, p.mr->lkey ^ 0x100,
		(uintptr_t)(p.data + DATA_SZ / 2), 1);
	TEST_ASSERT_EQUAL(mlx5_emu_net_progress(), 1u, "executed");
	c = cqe_next(&p.scq, &p.scq_ci);
	TEST_ASSERT_NOT_NULL(c, "error CQE");
	TEST_ASSERT(c[CQE_OP_OWN] >> 4 == 13 && c[CQE_SYNDROME] == 0x04,
		    "unknown lkey: LOC_PROT_ERR");
	/* Recover again and send a good frame. */
	msq.sq_state = MLX5_SQC_STATE_ERR;
	msq.state = MLX5_SQC_STATE_RST;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_sq(p.sq.sq, &msq), "ERR>RST");
	msq.sq_state = MLX5_SQC_STATE_RST;
	msq.state = MLX5_SQC_STATE_RDY;
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_modify_sq(p.sq.sq, &msq), "RST>RDY");
	p.sq_pi = 0;
	p.sq.db_rec[MLX5_SND_DBR] = 0;
	send_frame(&p, frame, len, 0);
	TEST_ASSERT_EQUAL(mlx5_emu_net_progress(), 1u, "executed");
	c = cqe_next(&p.scq, &p.scq_ci);
	TEST_ASSERT(c != NULL && c[CQE_OP_OWN] >> 4 == 0, "REQ CQE");
	c = cqe_next(&p.rcq, &p.rcq_ci);
	TEST_ASSERT_NOT_NULL(c, "received");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(p.data, frame, len, "frame");
	mlx5_emu_port_stats_get(p.ctx, &ps);
	TEST_ASSERT(ps.tx_errors == 2 && ps.tx_packets == 1, "counters");
	return nport_close(&p);
}

/* RQ in error back to RDY (ERR -> RST -> RDY), its ring empty. */
static int
rq_recover(struct nport *p)
{
	struct mlx5_devx_modify_rq_attr mrq;

	memset(&mrq, 0, sizeof(mrq));
	mrq.rq_state = MLX5_RQC_STATE_ERR;
	mrq.state = MLX5_RQC_STATE_RST;
	if (mlx5_devx_cmd_modify_rq(p->rq.rq, &mrq) != 0)
		return -1;
	mrq.rq_state = MLX5_RQC_STATE_RST;
	mrq.state = MLX5_RQC_STATE_RDY;
	if (mlx5_devx_cmd_modify_rq(p->rq.rq, &mrq) != 0)
		return -1;
	p->rq_pi = 0;
	return 0;
}

/* No posted RX WQE: dropped and counted; a frame longer than the buffer:
 * responder error CQE LOC_LEN_ERR, RQ in error; an RX buffer outside the
 * MR: LOC_PROT_ERR.
 */
static int
test_net_rx_errors(void)
{
	struct mlx5_emu_port_stats ps;
	static uint8_t frame[4096];
	struct nport p;
	const uint8_t *c;
	uint32_t len;
	uint8_t *d;
	int ret;

	ret = nport_open(&p, "enet_rxe", "enet_wire_rxe", mac_a, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	len = frame_tcp4(frame, mac_a, mac_b, 30, 0, 0);
	send_frame(&p, frame, len, 0);
	mlx5_emu_net_progress();
	TEST_ASSERT_NULL(cqe_next(&p.rcq, &p.rcq_ci), "no RX CQE");
	mlx5_emu_port_stats_get(p.ctx, &ps);
	TEST_ASSERT(ps.rx_out_of_buffer == 1 && ps.rx_packets == 0, "drop");
	/* Longer than the WQE's buffer (byte_count 64). */
	rq_post(&p, 1);
	((uint8_t *)(uintptr_t)p.rq.wq.umem_buf)[2] = 0;
	((uint8_t *)(uintptr_t)p.rq.wq.umem_buf)[3] = 64;
	len = frame_tcp4(frame, mac_a, mac_b, 11, 0, 0);
	send_frame(&p, frame, len, 0);
	mlx5_emu_net_progress();
	c = cqe_next(&p.rcq, &p.rcq_ci);
	TEST_ASSERT_NOT_NULL(c, "error CQE");
	TEST_ASSERT(c[CQE_OP_OWN] >> 4 == 14 && c[CQE_SYNDROME] == 0x01 &&
		    rd16(c + CQE_WQE_CNT) == 0, "RESP_ERR LOC_LEN_ERR WQE 0");
	/* RQ in error: the next frame is not received. */
	rq_post(&p, 1);
	len = frame_tcp4(frame, mac_a, mac_b, 30, 0, 0);
	send_frame(&p, frame, len, 0);
	mlx5_emu_net_progress();
	TEST_ASSERT_NULL(cqe_next(&p.rcq, &p.rcq_ci), "RQ in error");
	mlx5_emu_port_stats_get(p.ctx, &ps);
	TEST_ASSERT(ps.rx_errors == 1 && ps.rx_no_queue == 1, "counted");
	/* Recover (ERR -> RST -> RDY), post a WQE outside the MR. */
	TEST_ASSERT_SUCCESS(rq_recover(&p), "ERR>RST>RDY");
	rq_post(&p, 1);
	d = (uint8_t *)(uintptr_t)p.rq.wq.umem_buf;
	{
		uint64_t be = rte_cpu_to_be_64((uintptr_t)(p.data + DATA_SZ -
							    50));

		memcpy(d + 8, &be, 8);
	}
	send_frame(&p, frame, len, 0);
	mlx5_emu_net_progress();
	c = cqe_next(&p.rcq, &p.rcq_ci);
	TEST_ASSERT_NOT_NULL(c, "error CQE");
	TEST_ASSERT(c[CQE_OP_OWN] >> 4 == 14 && c[CQE_SYNDROME] == 0x04,
		    "RESP_ERR LOC_PROT_ERR");
	return nport_close(&p);
}

/* Frame f (len bytes) sent and received into a WQE of lkey at buf:
 * the receive CQE, or NULL.
 */
static const uint8_t *
recv_at(struct nport *p, uint32_t lkey, const void *buf, const uint8_t *f,
	uint32_t len)
{
	rq_post_at(p, lkey, buf);
	send_frame(p, f, len, 0);
	mlx5_emu_net_progress();
	return cqe_next(&p->rcq, &p->rcq_ci);
}

/*
 * The receive side's memory key check through the RQ's MR hint (the last
 * MR one of its WQEs named, its range and rights copied into the queue):
 * a buffer of an MR without local write refused twice in a row (the
 * second time the hint is that MR), and the lkey of an MR deregistered
 * after a good receive into it (the hint) refused.
 */
static int
test_net_mr_hint(void)
{
	static uint8_t frame[256], ro_buf[BUF_SZ], tmp_buf[BUF_SZ];
	struct ibv_mr *ro = NULL, *tmp = NULL;
	struct nport p;
	const uint8_t *c;
	uint32_t len, old;
	int i, ret;

	ret = nport_open(&p, "enet_mrh", "enet_wire_mrh", mac_a, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	ret = TEST_FAILED;
	ro = mlx5_glue->reg_mr(p.pd, ro_buf, sizeof(ro_buf), 0);
	tmp = mlx5_glue->reg_mr(p.pd, tmp_buf, sizeof(tmp_buf),
				IBV_ACCESS_LOCAL_WRITE);
	if (ro == NULL || tmp == NULL) {
		printf("  reg_mr failed\n");
		goto out;
	}
	len = frame_tcp4(frame, mac_a, mac_b, 30, 0, 0);
	for (i = 0; i < 2; i++) {
		c = recv_at(&p, ro->lkey, ro_buf, frame, len);
		if (c == NULL || c[CQE_OP_OWN] >> 4 != 14 ||
		    c[CQE_SYNDROME] != 0x04 || rq_recover(&p) != 0) {
			printf("  read-only MR, receive %d: not RESP_ERR "
			       "LOC_PROT_ERR\n", i + 1);
			goto out;
		}
	}
	c = recv_at(&p, tmp->lkey, tmp_buf, frame, len);
	if (c == NULL || c[CQE_OP_OWN] >> 4 != 2 ||
	    memcmp(tmp_buf, frame, len) != 0) {
		printf("  writable MR: frame not received\n");
		goto out;
	}
	old = tmp->lkey;
	if (mlx5_glue->dereg_mr(tmp) != 0)
		goto out;
	tmp = NULL;
	c = recv_at(&p, old, tmp_buf, frame, len);
	if (c == NULL || c[CQE_OP_OWN] >> 4 != 14 || c[CQE_SYNDROME] != 0x04 ||
	    rq_recover(&p) != 0) {
		printf("  lkey of a deregistered MR: not RESP_ERR "
		       "LOC_PROT_ERR\n");
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	if (tmp != NULL)
		mlx5_glue->dereg_mr(tmp);
	if (ro != NULL)
		mlx5_glue->dereg_mr(ro);
	if (nport_close(&p) != TEST_SUCCESS)
		ret = TEST_FAILED;
	return ret;
}

static struct unit_test_suite emu_net_errors_suite = {
	.suite_name = "emu_net_errors",
	.setup = emu_net_setup,
	.teardown = emu_net_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_lkey_error),
		TEST_CASE(test_net_rx_errors),
		TEST_CASE(test_net_mr_hint),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_net_errors, emu_net_errors_suite);
