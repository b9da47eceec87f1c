/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_cq_counter": how many bits of the consumer counter in a CQ's
 * doorbell record the emulated HCA compares with its producer index.
 *
 * DPDK's own consumers keep a 16-bit counter and store it, zero-extended,
 * as the record's first word: net/mlx5's TX completion handler
 * (mlx5_tx.h "uint16_t cq_ci", mlx5_tx.c "*txq->cq_db =
 * rte_cpu_to_be_32(txq->cq_ci)"), crypto/mlx5 and compress/mlx5 ("uint16_t
 * ci", "cq.db_rec[0] = rte_cpu_to_be_32(qp->ci)"). They run on cards past
 * 65,536 completions, so a card tells a full ring from a free one from
 * fewer than the record's 24 bits. The model compares log_cq_size + 1 bits
 * (the least that tells a full ring from an empty one); a 24-bit consumer
 * (rdma-core, the kernel, this library) reads the same in those bits.
 *
 * The consumer here is written from the PRM alone: a CQ made by
 * rte_common_mlx5's mlx5_devx_cq_create(), the owner bit (op_own bit 0) of
 * each 64 B CQE compared with the pass parity, the counter stored big
 * endian in word 0 of the doorbell record.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/mlx5dv.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_memory.h>

#include <mlx5_glue.h>
#include <mlx5_common_devx.h>
#include <mlx5_common.h> /* struct mlx5_devx_obj */

#include <rte_mlx5cq.h>
#include <mlx5_emu.h>

#include "test.h"
#include "test_dpdk_cq.h"

#define LOG_N 6 /* 64 entries. */
#define N (1u << LOG_N)
/* Past two wraps of a 16-bit counter. */
#define ROUNDS ((2u * 65536u) / N + 8u)

static struct ibv_context *c_ctx;
static struct mlx5dv_devx_uar *c_uar;

static int
counter_setup(void)
{
	if (mlx5_emu_install() != 0)
		return -1;
	c_ctx = mlx5_emu_open("cqcnt0", NULL);
	if (c_ctx == NULL)
		return -1;
	/* mlx5_devx_cq_create() wants the caller's UAR page. */
	c_uar = mlx5_glue->devx_alloc_uar(c_ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	if (c_uar == NULL) {
		printf("emu_cq_counter setup: no UAR (errno %d)\n", errno);
		return -1;
	}
	return 0;
}

static void
counter_teardown(void)
{
	if (c_uar != NULL)
		mlx5_glue->devx_free_uar(c_uar);
	if (c_ctx != NULL && mlx5_emu_close(c_ctx))
		printf("emu_cq_counter: emu close failed\n");
	c_uar = NULL;
	c_ctx = NULL;
}

static int
cq_make(struct mlx5_devx_cq *dcq)
{
	struct mlx5_devx_cq_attr attr;
	int ret;

	memset(dcq, 0, sizeof(*dcq));
	memset(&attr, 0, sizeof(attr));
	attr.uar_page_id = c_uar->page_id;
	ret = mlx5_devx_cq_create(c_ctx, dcq, LOG_N, &attr, SOCKET_ID_ANY);
	TEST_ASSERT_SUCCESS(ret, "mlx5_devx_cq_create: %d (rte_errno %d)",
			    ret, rte_errno);
	return TEST_SUCCESS;
}

/* n requester completions, WQE counters from seq on. */
static int
post(const struct mlx5_devx_cq *dcq, uint32_t seq, unsigned int n)
{
	struct mlx5_emu_wc c[N];
	unsigned int i;

	for (i = 0; i < n; i++) {
		memset(&c[i], 0, sizeof(c[i]));
		c[i].kind = MLX5_EMU_WC_REQ;
		c[i].wqe_counter = (uint16_t)(seq + i);
	}
	return mlx5_emu_cq_post(c_ctx, dcq->cq->id, c, n);
}

/*
 * Consume n CQEs from *ci as the PRM says (owner bit against the pass
 * parity, then the payload), checking their WQE counters, then publish
 * *ci masked to bits.
 */
static int
consume(const struct mlx5_devx_cq *dcq, uint32_t *ci, uint32_t seq,
	unsigned int n, uint32_t bits_mask)
{
	unsigned int i;

	for (i = 0; i < n; i++, (*ci)++) {
		const uint8_t *cqe = test_dpdk_cqe(dcq, *ci & (N - 1));
		uint8_t op_own = ((const volatile uint8_t *)cqe)[63];
		uint16_t wc;

		TEST_ASSERT_EQUAL((op_own & 1), ((*ci >> LOG_N) & 1),
				  "ci %u: owner bit of op_own %#x", *ci,
				  op_own);
		TEST_ASSERT_EQUAL((op_own >> 4), MLX5_CQE_REQ,
				  "ci %u: opcode of op_own %#x", *ci, op_own);
		rte_io_rmb();
		memcpy(&wc, cqe + 60, sizeof(wc));
		TEST_ASSERT_EQUAL(rte_be_to_cpu_16(wc), (uint16_t)(seq + i),
				  "ci %u: wqe_counter", *ci);
	}
	rte_io_wmb();
	dcq->db_rec[0] = rte_cpu_to_be_32(*ci & bits_mask);
	return TEST_SUCCESS;
}

/* Full rounds of N completions, the counter published with bits_mask. */
static int
run_rounds(uint32_t bits_mask)
{
	struct mlx5_devx_cq dcq;
	uint32_t ci = 0, seq = 0;
	unsigned int r;
	int n;

	TEST_CHECK(cq_make(&dcq));
	for (r = 0; r < ROUNDS; r++) {
		n = post(&dcq, seq, N);
		if (n != (int)N) {
			mlx5_devx_cq_destroy(&dcq);
			TEST_ASSERT_EQUAL(n, (int)N,
					  "round %u (%u completions so far, "
					  "counter %#x): post %d", r, seq,
					  ci & bits_mask, n);
		}
		if (consume(&dcq, &ci, seq, N, bits_mask) != TEST_SUCCESS) {
			mlx5_devx_cq_destroy(&dcq);
			return TEST_FAILED;
		}
		seq += N;
	}
	mlx5_devx_cq_destroy(&dcq);
	return TEST_SUCCESS;
}

/* net/mlx5's TX consumer: a 16-bit counter, past two of its wraps. */
static int
test_counter_16bit(void)
{
	return run_rounds(0xffff);
}

/* The record's full 24 bits (rdma-core, the kernel, this library). */
static int
test_counter_24bit(void)
{
	return run_rounds(0xffffff);
}

/*
 * The bits compared still tell a full ring: with nothing consumed the
 * device writes N completions and no more, and a counter that claims more
 * than was produced frees nothing.
 */
static int
test_counter_full(void)
{
	struct mlx5_devx_cq dcq;
	uint32_t ci = 0;
	int n;

	TEST_CHECK(cq_make(&dcq));
	n = post(&dcq, 0, N);
	TEST_ASSERT_EQUAL(n, (int)N, "first pass: %d", n);
	n = post(&dcq, N, 1);
	TEST_ASSERT_EQUAL(n, 0, "full ring took %d", n);
	TEST_CHECK(consume(&dcq, &ci, 0, 8, 0xffff));
	n = post(&dcq, N, N);
	TEST_ASSERT_EQUAL(n, 8, "8 consumed, %d written", n);
	/* 16 beyond what was produced: the device sees no free entry. */
	dcq.db_rec[0] = rte_cpu_to_be_32(N + 8 + 16);
	n = post(&dcq, N + 8, 1);
	TEST_ASSERT_EQUAL(n, 0, "counter ahead of the producer: %d", n);
	mlx5_devx_cq_destroy(&dcq);
	return TEST_SUCCESS;
}

static struct unit_test_suite emu_cq_counter_suite = {
	.suite_name = "emu_cq_counter",
	.setup = counter_setup,
	.teardown = counter_teardown,
	.unit_test_cases = {
		TEST_CASE(test_counter_16bit),
		TEST_CASE(test_counter_24bit),
		TEST_CASE(test_counter_full),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_cq_counter, emu_cq_counter_suite);
