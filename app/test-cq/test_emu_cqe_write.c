/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_cqe_write": the CQE writer (hand-written images of each
 * kind, wrap and full ring, 128 B and padded CQEs, a concurrent poller).
 * Expected values come from the PRM layouts (mlx5_prm.h, mlx5dv.h), the
 * kernel rules quoted in the model's sources and hand-written CQE images;
 * the fixture is test_emu_fixture.c.
 */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include <rte_byteorder.h>
#include <rte_eal.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>
#include <mlx5_devx_cmds.h>
#include <mlx5_common_devx.h>

#include "mlx5_emu.h"
#include "test.h"
#include "test_dpdk_cq.h"
#include "test_emu_fixture.h"
#include "test_wait.h"

/* --- CQE writer ----------------------------------------------------------- */

/* Requester: send of WQE 0x1234 on QP 0xabcdef, 0x40 bytes read back. */
static const uint8_t img_req[64] = {
	[44] = 0x00, 0x00, 0x00, 0x40,
	[48] = 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	[56] = 0x0a, 0xab, 0xcd, 0xef,
	[60] = 0x12, 0x34, 0x00, 0x00, /* op_own: REQ 0, owner 0 */
};

/* Responder: 1500 B, hash 0xdeadbeef type 0x55, solicited. */
static const uint8_t img_resp[64] = {
	[12] = 0xde, 0xad, 0xbe, 0xef,
	[16] = 0x55,
	[20] = 0xbe, 0xef,
	[28] = 0x06, 0x01, 0x01, 0x23,
	[36] = 0x11, 0x22, 0x33, 0x44,
	[44] = 0x00, 0x00, 0x05, 0xdc,
	[48] = 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00,
	[56] = 0x00, 0x00, 0x00, 0x42,
	[60] = 0x00, 0x07, 0x00, 0x22, /* RESP_SEND 2 << 4 | SE */
};

/* Requester error: local protection (0x04), vendor 0x51. */
static const uint8_t img_req_err[64] = {
	[54] = 0x51, 0x04,
	[56] = 0x0a, 0x00, 0x01, 0x23,
	[60] = 0x00, 0x09, 0x00, 0xd0, /* REQ_ERR 13 */
};

/* Responder error: flushed (0x05), vendor 0xf9. */
static const uint8_t img_resp_err[64] = {
	[54] = 0xf9, 0x05,
	[56] = 0x00, 0x00, 0x00, 0x77,
	[60] = 0x00, 0x0a, 0x00, 0xe0, /* RESP_ERR 14 */
};

static void
cpls_fill(struct mlx5_emu_wc c[4])
{
	memset(c, 0, 4 * sizeof(*c));
	c[0].kind = MLX5_EMU_WC_REQ;
	c[0].wqe_counter = 0x1234;
	c[0].qpn = 0xabcdef;
	c[0].s_wqe_opcode = 0x0a;
	c[0].byte_cnt = 0x40;
	c[0].timestamp = 0x0102030405060708ull;
	c[1].kind = MLX5_EMU_WC_RESP;
	c[1].solicited = 1;
	c[1].rx_hash_res = 0xdeadbeef;
	c[1].rx_hash_type = 0x55;
	c[1].csum = 0xbeef;
	c[1].hdr_type_etc = 0x0601;
	c[1].vlan_info = 0x0123;
	c[1].flow_table_metadata = 0x11223344;
	c[1].byte_cnt = 1500;
	c[1].timestamp = 0x1000;
	c[1].qpn = 0x42;
	c[1].wqe_counter = 7;
	c[2].kind = MLX5_EMU_WC_REQ_ERR;
	c[2].syndrome = 0x04;
	c[2].vendor_syndrome = 0x51;
	c[2].s_wqe_opcode = 0x0a;
	c[2].qpn = 0x123;
	c[2].wqe_counter = 9;
	c[3].kind = MLX5_EMU_WC_RESP_ERR;
	c[3].syndrome = 0x05;
	c[3].vendor_syndrome = 0xf9;
	c[3].qpn = 0x77;
	c[3].wqe_counter = 10;
}

/* A DPDK-created 8-entry CQ. */
struct small_cq {
	struct ibv_context *ctx;
	struct mlx5dv_devx_uar *uar;
	struct mlx5_devx_cq cq;
};

static int
small_cq_init(struct small_cq *s, const char *name, unsigned int log)
{
	struct mlx5_devx_cq_attr attr;

	memset(s, 0, sizeof(*s));
	memset(&attr, 0, sizeof(attr));
	s->ctx = mlx5_emu_open(name, NULL);
	if (s->ctx == NULL)
		return -1;
	s->uar = mlx5_glue->devx_alloc_uar(s->ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	if (s->uar == NULL)
		return -1;
	attr.uar_page_id = s->uar->page_id;
	return mlx5_devx_cq_create(s->ctx, &s->cq, log, &attr, SOCKET_ID_ANY);
}

static void
small_cq_fini(struct small_cq *s)
{
	mlx5_devx_cq_destroy(&s->cq);
	if (s->uar != NULL)
		mlx5_glue->devx_free_uar(s->uar);
	if (s->ctx != NULL)
		mlx5_emu_close(s->ctx);
}

static const uint8_t *
cqe_at(const struct small_cq *s, unsigned int i)
{
	return test_dpdk_cqe(&s->cq, i);
}

static int
test_emu_cqe_images(void)
{
	struct mlx5_emu_wc c[4];
	struct small_cq s;
	uint8_t img[64];
	unsigned int i;
	int ret = TEST_SUCCESS;

	TEST_ASSERT_SUCCESS(small_cq_init(&s, "emu_im0", 3), "cq");
	cpls_fill(c);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(s.ctx, s.cq.cq->id, c, 4), 4,
			  "posted");
	if (memcmp(cqe_at(&s, 0), img_req, 64) ||
	    memcmp(cqe_at(&s, 1), img_resp, 64) ||
	    memcmp(cqe_at(&s, 2), img_req_err, 64) ||
	    memcmp(cqe_at(&s, 3), img_resp_err, 64))
		ret = TEST_FAILED;
	for (i = 4; i < 8; i++)
		if (cqe_at(&s, i)[63] != 0xf1)
			ret = TEST_FAILED;
	/* The same images through mlx5dv.h's accessors. */
	if (mlx5dv_get_cqe_opcode((struct mlx5_cqe64 *)(uintptr_t)
				  cqe_at(&s, 2)) != MLX5_CQE_REQ_ERR ||
	    ((const struct mlx5_err_cqe *)cqe_at(&s, 2))->syndrome != 0x04 ||
	    ((const struct mlx5_err_cqe *)cqe_at(&s, 3))->vendor_err_synd !=
	    0xf9)
		ret = TEST_FAILED;
	memcpy(img, cqe_at(&s, 1), 64);
	small_cq_fini(&s);
	TEST_ASSERT_EQUAL(ret, TEST_SUCCESS, "CQE bytes differ from PRM images"
			  " (entry 1 op_own 0x%02x)", img[63]);
	return TEST_SUCCESS;
}

static int
test_emu_cqe_wrap_and_full(void)
{
	struct mlx5_emu_wc c[12];
	uint32_t qin[4] = {0}, qout[68] = {0};
	struct mlx5_emu_cq_info info;
	struct small_cq s;
	void *cqc;
	unsigned int i;

	TEST_ASSERT_SUCCESS(small_cq_init(&s, "emu_wf0", 3), "cq");
	memset(c, 0, sizeof(c));
	for (i = 0; i < 12; i++) {
		c[i].kind = MLX5_EMU_WC_REQ;
		c[i].wqe_counter = (uint16_t)i;
	}
	/* 8 entries, consumer at 0: 8 written, the rest refused. */
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(s.ctx, s.cq.cq->id, c, 10), 8,
			  "ring full after 8");
	for (i = 0; i < 8; i++)
		TEST_ASSERT_EQUAL(cqe_at(&s, i)[63], 0x00, "pass 0 owner 0");
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(s.ctx, s.cq.cq->id, c, 1), 0,
			  "still full");
	/* The consumer frees 3 entries (doorbell record word 0, BE). */
	s.cq.db_rec[0] = rte_cpu_to_be_32(3);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(s.ctx, s.cq.cq->id, &c[8], 4), 3,
			  "3 free");
	for (i = 0; i < 3; i++) {
		TEST_ASSERT_EQUAL(cqe_at(&s, i)[63], 0x01, "pass 1 owner 1");
		TEST_ASSERT_EQUAL(cqe_at(&s, i)[61], 8 + i, "wqe counter");
	}
	TEST_ASSERT_EQUAL(cqe_at(&s, 3)[63], 0x00, "entry 3 unchanged");
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(s.ctx, s.cq.cq->id, &info), "q");
	TEST_ASSERT_EQUAL(info.pi, 11u, "producer counter");
	/* QUERY_CQ through the object: counters in the context. */
	MLX5_SET(create_cq_in, qin, opcode, 0x402);
	qin[2] = rte_cpu_to_be_32(s.cq.cq->id & 0xffffff);
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_query(s.cq.cq->obj, qin,
				sizeof(qin), qout, sizeof(qout)), "QUERY_CQ");
	cqc = (uint8_t *)qout + 16;
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, producer_counter), 11u, "pc");
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, consumer_counter), 3u, "cc");
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, log_cq_size), 3u, "log");
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, uar_page), s.uar->page_id, "uar");
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, dbr_umem_id),
			  ((struct mlx5dv_devx_umem *)s.cq.umem_obj)->umem_id,
			  "dbr umem");
	TEST_ASSERT_EQUAL(MLX5_GET64(cqc, cqc, dbr_addr),
			  8u * TEST_DPDK_CQE_SIZE, "dbr_addr");
	/* A query naming another CQ is refused by the kernel. */
	qin[2] = rte_cpu_to_be_32((s.cq.cq->id + 1) & 0xffffff);
	TEST_ASSERT_EQUAL(mlx5_glue->devx_obj_query(s.cq.cq->obj, qin,
				sizeof(qin), qout, sizeof(qout)), EINVAL,
			  "other cqn");
	qin[2] = rte_cpu_to_be_32(s.cq.cq->id & 0xffffff);
	TEST_ASSERT_EQUAL(mlx5_glue->devx_obj_query(s.cq.cq->obj, qin,
				sizeof(qin), qout, 40), EIO, "short out");
	TEST_ASSERT_EQUAL(emut_out_status(qout), CMD_STAT_BAD_OUTP_LEN, "0x51");
	/* Producer errors. */
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(s.ctx, 0x7777, c, 1), -ENOENT,
			  "unknown cqn");
	c[0].kind = (enum mlx5_emu_wc_kind)9;
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(s.ctx, s.cq.cq->id, c, 1), -EINVAL,
			  "bad kind");
	c[0].kind = MLX5_EMU_WC_RESP;
	c[0].opcode = 15;
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(s.ctx, s.cq.cq->id, c, 1), -EINVAL,
			  "INVALID opcode");
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(s.ctx, s.cq.cq->id, c, 0), 0,
			  "nothing");
	small_cq_fini(&s);
	return TEST_SUCCESS;
}

/* 128 B and padded CQs: the CQE is the second half of the entry. */
static int
test_emu_cqe_128(void)
{
	uint32_t in[CREATE_CQ_IN_LEN / 4];
	uint32_t out[MLX5_ST_SZ_DW(create_cq_out)];
	static const uint8_t zero[64];
	struct mlx5_emu_wc c[4];
	struct mlx5dv_devx_obj *obj;
	struct ibv_context *ctx;
	struct cq_env e;
	unsigned int sz, i;
	uint32_t cqn;

	ctx = mlx5_emu_open("emu_128", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	TEST_ASSERT_SUCCESS(emut_env_init(&e, ctx, 2, 128), "env");
	cpls_fill(c);
	for (sz = 1; sz <= 2; sz++) {
		memset(e.buf, 0x5a, e.len);
		for (i = 0; i < 4; i++)
			e.buf[i * 128 + 127] = 0xf1;
		memset(e.buf + 512, 0, 8); /* doorbell record */
		emut_build_create_cq(in, &e, sz);
		obj = mlx5_glue->devx_obj_create(ctx, in, sizeof(in), out,
						 sizeof(out));
		TEST_ASSERT_NOT_NULL(obj, "cqe_sz %u", sz);
		cqn = MLX5_GET(create_cq_out, out, cqn);
		TEST_ASSERT_EQUAL(mlx5_emu_cq_post(ctx, cqn, c, 4), 4, "post");
		TEST_ASSERT_BUFFERS_ARE_EQUAL(e.buf, zero, 64, "first half 0");
		TEST_ASSERT_BUFFERS_ARE_EQUAL(e.buf + 64, img_req, 64, "req");
		TEST_ASSERT_BUFFERS_ARE_EQUAL(e.buf + 128, zero, 64, "half");
		TEST_ASSERT_BUFFERS_ARE_EQUAL(e.buf + 192, img_resp, 64, "rsp");
		TEST_ASSERT_BUFFERS_ARE_EQUAL(e.buf + 320, img_req_err, 64,
					      "req err");
		TEST_ASSERT_BUFFERS_ARE_EQUAL(e.buf + 448, img_resp_err, 64,
					      "resp err");
		TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(obj), "d");
	}
	emut_env_fini(&e);
	mlx5_emu_close(ctx);
	return TEST_SUCCESS;
}

/* The writer against a concurrent poller: every CQE is seen once, whole,
 * in order.
 */
#define CONC_N 20000u

struct conc_arg {
	struct ibv_context *ctx;
	uint32_t cqn;
	int err;
	volatile int stop; /* The consumer gave up: end the producer. */
};

static void *
conc_producer(void *p)
{
	struct conc_arg *a = p;
	struct mlx5_emu_wc c;
	uint32_t i = 0;
	int ret;

	memset(&c, 0, sizeof(c));
	c.kind = MLX5_EMU_WC_RESP;
	while (i < CONC_N && !a->stop) {
		c.wqe_counter = (uint16_t)i;
		c.byte_cnt = i * 3 + 1;
		c.rx_hash_res = ~i;
		ret = mlx5_emu_cq_post(a->ctx, a->cqn, &c, 1);
		if (ret < 0) {
			a->err = ret;
			break;
		}
		if (ret == 0)
			sched_yield();
		i += ret;
	}
	return NULL;
}

static int
test_emu_cqe_concurrent_poll(void)
{
	struct conc_arg arg;
	struct small_cq s;
	pthread_t th;
	uint32_t ci = 0, bad = 0;
	uint64_t deadline;

	TEST_ASSERT_SUCCESS(small_cq_init(&s, "emu_cp0", 3), "cq");
	arg.ctx = s.ctx;
	arg.cqn = s.cq.cq->id;
	arg.err = 0;
	arg.stop = 0;
	TEST_ASSERT_SUCCESS(pthread_create(&th, NULL, conc_producer, &arg),
			    "thread");
	deadline = test_wait_deadline(TEST_WAIT_S);
	while (ci < CONC_N) {
		volatile struct mlx5_cqe *cqe = &s.cq.cqes[ci & 7];
		uint8_t op_own = cqe->op_own;

		if ((op_own & 1) != ((ci >> 3) & 1) || (op_own >> 4) == 15) {
			if (test_wait_expired(deadline)) {
				printf("  %u of %u consumed after %d s\n", ci,
				       CONC_N, TEST_WAIT_S);
				break;
			}
			sched_yield();
			continue;
		}
		rte_rmb();
		if (rte_be_to_cpu_16(cqe->wqe_counter) != (uint16_t)ci ||
		    rte_be_to_cpu_32(cqe->byte_cnt) != ci * 3 + 1 ||
		    rte_be_to_cpu_32(cqe->rx_hash_res) != ~ci)
			bad++;
		ci++;
		rte_wmb();
		s.cq.db_rec[0] = rte_cpu_to_be_32(ci & 0xffffff);
	}
	arg.stop = 1;
	pthread_join(th, NULL);
	small_cq_fini(&s);
	TEST_ASSERT_EQUAL(arg.err, 0, "producer error %d", arg.err);
	TEST_ASSERT_EQUAL(ci, CONC_N, "all consumed");
	TEST_ASSERT_EQUAL(bad, 0u, "torn or reordered CQEs");
	return TEST_SUCCESS;
}
static struct unit_test_suite emu_cqe_write_suite = {
	.suite_name = "emu_cqe_write",
	.unit_test_cases = {
		TEST_CASE(test_emu_cqe_images),
		TEST_CASE(test_emu_cqe_wrap_and_full),
		TEST_CASE(test_emu_cqe_128),
		TEST_CASE(test_emu_cqe_concurrent_poll),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(emu_cqe_write, emu_cqe_write_suite);
