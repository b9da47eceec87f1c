/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "iter": the ibv_cq_ex-style iterator (start_poll / next_poll /
 * end_poll / read_*) and the lock of CQs that are not SINGLE_THREADED.
 * Expected values are read from the hand-written CQE images with the
 * offsets of struct mlx5_cqe64 (infiniband/mlx5dv.h) and rdma-core's
 * mappings (cq.c mlx5_cq_read_wc_opcode / _wc_flags / _src_qp ...).
 */

#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include <mlx5_emu.h>
#include <rte_mlx5cq.h>

#include "test.h"
#include "test_cq_cnt.h"
#include "test_cpl_expect.h"
#include "test_hand_cq.h"
#include "test_wait.h"
#include "test_hooks_cq.h"

static struct hand_cq h;

static void
iter_teardown(void)
{
	if (h.cq != NULL && mlx5cq_test_cq_iter_active(h.cq))
		rte_mlx5cq_end_poll(h.cq);
	hand_cq_fini(&h);
}

/* Write the fields of struct mlx5_cqe64 the read_* functions decode. */
static void
put_rdma_fields(uint32_t idx, uint32_t src_qp, uint8_t sl, uint16_t slid,
		uint8_t ml_path, uint8_t grh, uint8_t hds, uint8_t l4)
{
	uint8_t *e = hand_cqe(&h, idx);
	uint8_t op_own = e[IMG_OP_OWN];

	e[IMG_OP_OWN] = 0xf1; /* hidden while written */
	rte_compiler_barrier();
	e[17] = ml_path;
	img_be16(e + 22, slid);
	img_be32(e + 24, (uint32_t)grh << 28 | (uint32_t)sl << 24 | src_qp);
	e[28] = hds;
	e[29] = l4;
	rte_compiler_barrier();
	e[IMG_OP_OWN] = op_own;
}

#define ALL_WC (IBV_WC_STANDARD_FLAGS | IBV_WC_EX_WITH_COMPLETION_TIMESTAMP | \
		IBV_WC_EX_WITH_CVLAN | IBV_WC_EX_WITH_FLOW_TAG)

static int
test_iter_fields(void)
{
	struct img_cqe d[5];
	struct rte_mlx5cq_poll_attr pa = { 0 };
	unsigned int i;

	TEST_ASSERT_SUCCESS(hand_cq_init(&h, 4, 64, 0, 0), "init");
	mlx5cq_test_cq_wc_flags_set(h.cq, ALL_WC);
	TEST_ASSERT_EQUAL(rte_mlx5cq_start_poll(h.cq, &pa), ENOENT, "empty");
	TEST_ASSERT_EQUAL(mlx5cq_test_cq_iter_active(h.cq), 0, "active after ENOENT");
	memset(d, 0, sizeof(d));
	/* 0: RESP_SEND_IMM, IPv4 L3+L4 OK, GRH. */
	d[0].opcode = 3;
	d[0].byte_cnt = 1500;
	d[0].metadata = 0xa1b2c3d4; /* imm_inval_pkey */
	d[0].sop_drop_qpn = 0x00000abc;
	d[0].timestamp = 0x1122334455667788ull;
	d[0].vlan_info = 0x0fed;
	d[0].wqe_counter = 10;
	/* 1: REQ of an RDMA read. */
	d[1].opcode = 0;
	d[1].sop_drop_qpn = 0x10000abc;
	d[1].wqe_counter = 11;
	/* 2: REQ_ERR, syndrome 0x15 (retry exceeded), vendor 0x81. */
	d[2].opcode = 13;
	d[2].syndrome = 0x15;
	d[2].vendor_syndrome = 0x81;
	d[2].sop_drop_qpn = 0x0a000abc;
	d[2].wqe_counter = 12;
	/* 3: RESP_SEND_INV. */
	d[3].opcode = 4;
	d[3].metadata = 0x00001234;
	d[3].wqe_counter = 13;
	/* 4: RESP_WR_IMM. */
	d[4].opcode = 1;
	d[4].wqe_counter = 14;
	for (i = 0; i < 5; i++)
		hand_put(&h, i, &d[i]);
	put_rdma_fields(0, 0x00beef, 0x7, 0x4321, 0x85, 1,
			MLX5_CQE_L3_OK | MLX5_CQE_L4_OK,
			MLX5_CQE_L3_HDR_TYPE_IPV4 << 2);
	/* No GRH, L3/L4 OK on IPv6: no IP_CSUM_OK (rdma-core: IPv4 only). */
	put_rdma_fields(1, 0, 0, 0, 0, 0, MLX5_CQE_L3_OK | MLX5_CQE_L4_OK,
			MLX5_CQE_L3_HDR_TYPE_IPV6 << 2);
	for (i = 3; i < 5; i++)
		put_rdma_fields(i, 0, 0, 0, 0, 0, 0, 0);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_start_poll(h.cq, NULL), "start");
	TEST_ASSERT_EQUAL(rte_mlx5cq_start_poll(h.cq, NULL), EBUSY, "nested");
	TEST_ASSERT_EQUAL(rte_mlx5cq_wc_status(h.cq), IBV_WC_SUCCESS, "st");
	TEST_ASSERT_EQUAL(rte_mlx5cq_wc_wr_id(h.cq), 10, "wr_id");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_opcode(h.cq), IBV_WC_RECV, "op");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_byte_len(h.cq), 1500, "len");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_imm_data(h.cq),
			  rte_cpu_to_be_32(0xa1b2c3d4), "imm");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_qp_num(h.cq), 0xabc, "qpn");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_src_qp(h.cq), 0xbeef, "src_qp");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_sl(h.cq), 7, "sl");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_slid(h.cq), 0x4321, "slid");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_dlid_path_bits(h.cq), 0x05, "dlid");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_completion_ts(h.cq),
			  0x1122334455667788ull, "ts");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_cvlan(h.cq), 0x0fed, "cvlan");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_flow_tag(h.cq), 0xabc, "tag");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_wc_flags(h.cq),
			  (IBV_WC_WITH_IMM | IBV_WC_IP_CSUM_OK | IBV_WC_GRH),
			  "wc_flags %#x", rte_mlx5cq_read_wc_flags(h.cq));
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_vendor_err(h.cq), 0, "vendor");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_next_poll(h.cq), "next 1");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_opcode(h.cq), IBV_WC_RDMA_READ,
			  "rdma read");
	TEST_ASSERT_EQUAL(rte_mlx5cq_wc_wr_id(h.cq), 11, "wr_id");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_wc_flags(h.cq), 0, "flags");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_next_poll(h.cq), "next 2");
	TEST_ASSERT_EQUAL(rte_mlx5cq_wc_status(h.cq), IBV_WC_RETRY_EXC_ERR,
			  "err status");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_syndrome(h.cq), 0x15, "synd");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_vendor_err(h.cq), 0x81, "vendor");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_opcode(h.cq), IBV_WC_SEND, "send");
	/* Nothing published before end_poll. */
	TEST_ASSERT_EQUAL(h.dbrec[3], 0, "doorbell written before end_poll");
	rte_mlx5cq_end_poll(h.cq);
	TEST_ASSERT_EQUAL(h.dbrec[3], 3, "doorbell after end_poll");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_start_poll(h.cq, NULL), "start 2");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_opcode(h.cq), IBV_WC_RECV, "inv");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_wc_flags(h.cq), IBV_WC_WITH_INV,
			  "inv flag");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_imm_data(h.cq), 0x1234,
			  "invalidated rkey (host order, as rdma-core)");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_next_poll(h.cq), "next");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_opcode(h.cq),
			  IBV_WC_RECV_RDMA_WITH_IMM, "wr imm");
	TEST_ASSERT_EQUAL(rte_mlx5cq_next_poll(h.cq), ENOENT, "end");
	rte_mlx5cq_end_poll(h.cq);
	TEST_ASSERT_EQUAL(h.dbrec[3], 5, "doorbell");
	TEST_ASSERT_EQUAL(h.cq->ci, 5, "ci");
	TEST_ASSERT_EQUAL(test_cq_cnt(h.cq)->completions, 5, "completions");
	TEST_ASSERT_EQUAL(test_cq_cnt(h.cq)->errors, 1, "errors");
	hand_cq_fini(&h);
	return TEST_SUCCESS;
}

/*
 * What rdma-core's mlx5_cq_read_wc_opcode() and read_wc_flags give where
 * the library used to answer otherwise: 0 for error and NO_PACKET CQEs,
 * IBV_WC_DRIVER1 / DRIVER3 for requester UMR / MMO CQEs (the opcodes
 * mlx5dv posts for those work requests), flags computed from an error
 * CQE too; the invalidated rkey and the P_Key index (bits 15:0 of
 * imm_inval_pkey).
 */
static int
test_iter_rdma_core(void)
{
	struct img_cqe d[6];
	unsigned int i;

	TEST_ASSERT_SUCCESS(hand_cq_init(&h, 4, 64, 0, 0), "init");
	mlx5cq_test_cq_wc_flags_set(h.cq, ALL_WC);
	memset(d, 0, sizeof(d));
	/* 0: REQ_ERR of an RDMA read (s_wqe_opcode 0x10). */
	d[0].opcode = 13;
	d[0].syndrome = 0x05;
	d[0].sop_drop_qpn = 0x10000abc;
	/* 1: RESP_ERR. */
	d[1].opcode = 14;
	d[1].syndrome = 0x05;
	/* 2: NO_PACKET. */
	d[2].opcode = 6;
	/* 3: REQ of a UMR WQE (0x25), 4: of an MMO WQE (0x2f). */
	d[3].opcode = 0;
	d[3].sop_drop_qpn = 0x25000abc;
	d[4].opcode = 0;
	d[4].sop_drop_qpn = 0x2f000abc;
	/* 5: RESP_SEND_INV, rkey 0x00c0ffee; UD P_Key index 0xffee. */
	d[5].opcode = 4;
	d[5].metadata = 0x00c0ffee;
	for (i = 0; i < 6; i++) {
		d[i].wqe_counter = (uint16_t)i;
		hand_put(&h, i, &d[i]);
	}
	/* The error CQE carries a GRH bit in flags_rqpn: rdma-core reads it. */
	put_rdma_fields(0, 0, 0, 0, 0, 1, 0, 0);
	for (i = 1; i < 6; i++)
		put_rdma_fields(i, 0, 0, 0, 0, 0, 0, 0);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_start_poll(h.cq, NULL), "start");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_opcode(h.cq), 0, "REQ_ERR opcode");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_wc_flags(h.cq), IBV_WC_GRH,
			  "REQ_ERR flags %#x", rte_mlx5cq_read_wc_flags(h.cq));
	TEST_ASSERT_SUCCESS(rte_mlx5cq_next_poll(h.cq), "next");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_opcode(h.cq), 0, "RESP_ERR opcode");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_next_poll(h.cq), "next");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_opcode(h.cq), 0, "NO_PACKET opcode");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_next_poll(h.cq), "next");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_opcode(h.cq), IBV_WC_DRIVER1, "UMR");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_next_poll(h.cq), "next");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_opcode(h.cq), IBV_WC_DRIVER3, "MMO");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_next_poll(h.cq), "next");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_invalidated_rkey(h.cq), 0x00c0ffee,
			  "invalidated rkey");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_pkey_index(h.cq), 0xffee, "pkey");
	rte_mlx5cq_end_poll(h.cq);
	/* Outside a poll: refused. */
	rte_errno = 0;
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_pkey_index(h.cq), 0, "outside");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno %d", rte_errno);
	/* Without IBV_WC_EX_WITH_IMM the rkey is refused (EPERM). */
	mlx5cq_test_cq_wc_flags_set(h.cq, IBV_WC_EX_WITH_BYTE_LEN);
	d[0].opcode = 4;
	d[0].wqe_counter = 6;
	hand_put(&h, 6, &d[0]);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_start_poll(h.cq, NULL), "start");
	rte_errno = 0;
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_invalidated_rkey(h.cq), 0, "rkey");
	TEST_ASSERT_EQUAL(rte_errno, EPERM, "errno %d", rte_errno);
	rte_mlx5cq_end_poll(h.cq);
	hand_cq_fini(&h);
	return TEST_SUCCESS;
}

/* A read_* of a field the CQ's wc_flags lack is refused (EPERM, 0). */
static int
test_iter_refused(void)
{
	struct img_cqe d;

	TEST_ASSERT_SUCCESS(hand_cq_init(&h, 4, 64, 0, 0), "init");
	mlx5cq_test_cq_wc_flags_set(h.cq, IBV_WC_EX_WITH_BYTE_LEN);
	memset(&d, 0, sizeof(d));
	d.opcode = 2;
	d.byte_cnt = 60;
	d.sop_drop_qpn = 0x77;
	d.timestamp = 5;
	hand_put(&h, 0, &d);
	rte_errno = 0;
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_byte_len(h.cq), 0, "outside");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno %d", rte_errno);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_start_poll(h.cq, NULL), "start");
	rte_errno = 0;
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_byte_len(h.cq), 60, "len");
	TEST_ASSERT_EQUAL(rte_errno, 0, "errno set on an allowed read");
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_qp_num(h.cq), 0, "qpn not refused");
	TEST_ASSERT_EQUAL(rte_errno, EPERM, "errno %d", rte_errno);
	rte_errno = 0;
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_completion_ts(h.cq), 0, "ts");
	TEST_ASSERT_EQUAL(rte_errno, EPERM, "errno %d", rte_errno);
	rte_errno = 0;
	TEST_ASSERT_EQUAL(rte_mlx5cq_read_flow_tag(h.cq), 0, "tag");
	TEST_ASSERT_EQUAL(rte_errno, EPERM, "errno %d", rte_errno);
	rte_mlx5cq_end_poll(h.cq);
	{
		struct rte_mlx5cq_poll_attr pa = { .comp_mask = 1 };

		TEST_ASSERT_EQUAL(rte_mlx5cq_start_poll(h.cq, &pa), EINVAL,
				  "comp_mask");
	}
	TEST_ASSERT_EQUAL(rte_mlx5cq_next_poll(h.cq), EINVAL, "no start");
	hand_cq_fini(&h);
	return TEST_SUCCESS;
}

/* The iterator over a compressed session: one completion per mini-CQE. */
static int
test_iter_session(void)
{
	uint8_t m[10][8];
	struct img_cqe t, d;
	unsigned int j, n = 0;

	TEST_ASSERT_SUCCESS(hand_cq_init(&h, 5, 128, 3 + 1, 0), "init");
	mlx5cq_test_cq_wc_flags_set(h.cq, ALL_WC);
	memset(&t, 0, sizeof(t));
	t.opcode = 2;
	t.sop_drop_qpn = 0x00000321;
	t.timestamp = 99;
	for (j = 0; j < 10; j++) {
		memset(m[j], 0, 8);
		m[j][0] = 0xc0; /* checksum */
		m[j][1] = (uint8_t)j;
		m[j][3] = (uint8_t)(40 + j); /* stride index */
		m[j][7] = (uint8_t)(100 + j); /* byte count */
	}
	hand_put_session(&h, 0, &t, (const uint8_t (*)[8])m, 10);
	memset(&d, 0, sizeof(d));
	d.opcode = 2;
	d.byte_cnt = 7;
	d.wqe_counter = 77;
	hand_put(&h, 10, &d);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_start_poll(h.cq, NULL), "start");
	do {
		if (n < 10) {
			TEST_ASSERT_EQUAL(rte_mlx5cq_read_byte_len(h.cq),
					  100 + n, "len %u", n);
			TEST_ASSERT_EQUAL(rte_mlx5cq_wc_wr_id(h.cq), 40 + n,
					  "stride %u", n);
			TEST_ASSERT_EQUAL(rte_mlx5cq_read_qp_num(h.cq), 0x321,
					  "qpn");
			TEST_ASSERT_EQUAL(rte_mlx5cq_read_completion_ts(h.cq),
					  99, "ts");
		} else {
			TEST_ASSERT_EQUAL(rte_mlx5cq_wc_wr_id(h.cq), 77, "last");
		}
		n++;
	} while (rte_mlx5cq_next_poll(h.cq) == 0);
	rte_mlx5cq_end_poll(h.cq);
	TEST_ASSERT_EQUAL(n, 11, "%u completions", n);
	TEST_ASSERT_EQUAL(h.dbrec[3], 11, "doorbell %u", h.dbrec[3]);
	TEST_ASSERT_EQUAL(hand_cqe(&h, 5)[IMG_OP_OWN], IMG_INVALIDATE,
			  "hole not invalidated");
	hand_cq_fini(&h);
	return TEST_SUCCESS;
}

/*
 * Lock: a CQ that is not SINGLE_THREADED polled by two threads at once;
 * each completion is delivered exactly once.
 */
#define LOCK_N 200000
static volatile uint32_t lock_seen[2];
static uint8_t *lock_hits;
static volatile int lock_stop;

static void *
lock_poller(void *arg)
{
	uintptr_t id = (uintptr_t)arg;
	struct rte_mlx5cq_cpl c[8];

	while (!lock_stop) {
		uint16_t r = rte_mlx5cq_poll_burst(h.cq, c, 8), i;

		for (i = 0; i < r; i++)
			lock_hits[c[i].byte_cnt]++;
		lock_seen[id] += r;
		if (r == 0)
			sched_yield();
	}
	return NULL;
}

static int
test_iter_lock(void)
{
	pthread_t th[2];
	struct img_cqe d;
	uint64_t deadline;
	uint32_t pi = 0, i;

	TEST_ASSERT_SUCCESS(hand_cq_init(&h, 8, 64, 0, 0), "init");
	mlx5cq_test_cq_lock_set(h.cq, 1);
	lock_hits = rte_zmalloc("lock_hits", LOCK_N, 0);
	TEST_ASSERT_NOT_NULL(lock_hits, "alloc");
	lock_stop = 0;
	lock_seen[0] = lock_seen[1] = 0;
	for (i = 0; i < 2; i++)
		TEST_ASSERT_SUCCESS(pthread_create(&th[i], NULL, lock_poller,
						   (void *)(uintptr_t)i),
				    "thread");
	memset(&d, 0, sizeof(d));
	d.opcode = 2;
	deadline = test_wait_deadline(TEST_WAIT_S);
	while (pi < LOCK_N && !test_wait_expired(deadline)) {
		/* Room: the doorbell record's ci (as the device reads it). */
		uint32_t ci = (uint32_t)h.dbrec[1] << 16 | h.dbrec[2] << 8 |
			      h.dbrec[3];

		if (((pi - ci) & 0xffffff) >= h.entries - 1) {
			sched_yield();
			continue;
		}
		d.byte_cnt = pi;
		d.wqe_counter = (uint16_t)pi;
		hand_put(&h, pi, &d);
		pi++;
	}
	while (lock_seen[0] + lock_seen[1] < LOCK_N &&
	       !test_wait_expired(deadline))
		sched_yield();
	lock_stop = 1;
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	if (pi < LOCK_N || lock_seen[0] + lock_seen[1] < LOCK_N) {
		printf("  after %d s: %u of %u written, %u polled\n",
		       TEST_WAIT_S, pi, LOCK_N, lock_seen[0] + lock_seen[1]);
		rte_free(lock_hits);
		return TEST_FAILED;
	}
	TEST_ASSERT_EQUAL(lock_seen[0] + lock_seen[1], LOCK_N, "%u + %u",
			  lock_seen[0], lock_seen[1]);
	for (i = 0; i < LOCK_N; i++)
		if (lock_hits[i] != 1) {
			printf("  completion %u delivered %u times\n", i,
			       lock_hits[i]);
			rte_free(lock_hits);
			return TEST_FAILED;
		}
	rte_free(lock_hits);
	TEST_ASSERT_EQUAL(test_cq_cnt(h.cq)->completions, LOCK_N, "completions");
	hand_cq_fini(&h);
	return TEST_SUCCESS;
}

/*
 * start_poll inside an open pair of a CQ that is not SINGLE_THREADED:
 * EBUSY (rte_mlx5cq.h), never a wait on the pair's own lock. The second
 * call runs on a helper thread so that a call that spins is seen: after
 * TEST_WAIT_S the case ends the pair (the helper then gets the lock) and
 * fails.
 */
static struct {
	int ret;
	int err;
	volatile int done;
} nest;

static void *
nest_start(void *arg)
{
	RTE_SET_USED(arg);
	rte_errno = 0;
	nest.ret = rte_mlx5cq_start_poll(h.cq, NULL);
	nest.err = rte_errno;
	if (nest.ret == 0)
		rte_mlx5cq_end_poll(h.cq);
	__atomic_store_n(&nest.done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static int
test_iter_nested_locked(void)
{
	struct img_cqe d;
	pthread_t th;
	uint64_t deadline;

	TEST_ASSERT_SUCCESS(hand_cq_init(&h, 4, 64, 0, 0), "init");
	h.cq->slow = RTE_MLX5CQ_SLOW_LOCK;
	memset(&d, 0, sizeof(d));
	d.opcode = 2;
	d.byte_cnt = 60;
	hand_put(&h, 0, &d);
	d.wqe_counter = 1;
	hand_put(&h, 1, &d);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_start_poll(h.cq, NULL), "start");
	memset(&nest, 0, sizeof(nest));
	TEST_ASSERT_SUCCESS(pthread_create(&th, NULL, nest_start, NULL),
			    "thread");
	deadline = test_wait_deadline(TEST_WAIT_S);
	while (!__atomic_load_n(&nest.done, __ATOMIC_ACQUIRE) &&
	       !test_wait_expired(deadline))
		sched_yield();
	if (!__atomic_load_n(&nest.done, __ATOMIC_ACQUIRE)) {
		printf("  nested start_poll still waiting after %d s\n",
		       TEST_WAIT_S);
		rte_mlx5cq_end_poll(h.cq);
		pthread_join(th, NULL);
		return TEST_FAILED;
	}
	pthread_join(th, NULL);
	TEST_ASSERT_EQUAL(nest.ret, EBUSY, "nested start_poll: %d", nest.ret);
	TEST_ASSERT_EQUAL(nest.err, EBUSY, "rte_errno %d", nest.err);
	/* Known not to spin now: the same thread once more. */
	TEST_ASSERT_EQUAL(rte_mlx5cq_start_poll(h.cq, NULL), EBUSY, "same");
	/* The pair is intact: its completion, the next one, one publish. */
	TEST_ASSERT_EQUAL(rte_mlx5cq_wc_wr_id(h.cq), 0, "first");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_next_poll(h.cq), "next");
	TEST_ASSERT_EQUAL(rte_mlx5cq_wc_wr_id(h.cq), 1, "second");
	rte_mlx5cq_end_poll(h.cq);
	TEST_ASSERT_EQUAL(h.dbrec[3], 2, "doorbell %u", h.dbrec[3]);
	TEST_ASSERT(!mlx5cq_test_cq_lock_held(h.cq), "lock still held");
	TEST_ASSERT_EQUAL(rte_mlx5cq_start_poll(h.cq, NULL), ENOENT, "empty");
	TEST_ASSERT(!mlx5cq_test_cq_lock_held(h.cq), "lock kept on ENOENT");
	hand_cq_fini(&h);
	return TEST_SUCCESS;
}

/* The iterator on CQs created on the emulated HCA (both paths). */
static int
test_iter_emu(const void *data)
{
	enum rte_mlx5cq_path path = (enum rte_mlx5cq_path)(uintptr_t)data;
	struct ibv_context *ctx;
	struct rte_mlx5cq_dev *dev;
	struct rte_mlx5cq *cq;
	struct rte_mlx5cq_attr attr;
	struct mlx5_emu_wc c[40];
	unsigned int i, n = 0;
	int ret = TEST_FAILED;

	ctx = mlx5_emu_open(path == RTE_MLX5CQ_PATH_DEVX ? "test_iter_d" :
			    "test_iter_v", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	dev = rte_mlx5cq_dev_open(ctx, SOCKET_ID_ANY);
	if (dev == NULL)
		goto out_ctx;
	memset(&attr, 0, sizeof(attr));
	attr.comp_mask = RTE_MLX5CQ_ATTR_WC_FLAGS;
	attr.cqe = 63;
	attr.wc_flags = IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_QP_NUM;
	attr.socket = SOCKET_ID_ANY;
	attr.path = path;
	cq = rte_mlx5cq_create(dev, &attr);
	if (cq == NULL)
		goto out_dev;
	TEST_ASSERT_EQUAL(mlx5cq_test_cq_wc_flags(cq), attr.wc_flags,
			  "wc_flags");
	TEST_ASSERT(cq->slow & RTE_MLX5CQ_SLOW_LOCK, "not locked");
	memset(c, 0, sizeof(c));
	for (i = 0; i < RTE_DIM(c); i++) {
		c[i].kind = i == 17 ? MLX5_EMU_WC_REQ_ERR : MLX5_EMU_WC_REQ;
		c[i].syndrome = 0x05;
		c[i].wqe_counter = (uint16_t)i;
		c[i].byte_cnt = 100 + i;
		c[i].qpn = 0x55;
	}
	if (mlx5_emu_cq_post(ctx, cq->cqn, c, RTE_DIM(c)) !=
	    (int)RTE_DIM(c)) {
		printf("  post failed\n");
		goto out_cq;
	}
	if (rte_mlx5cq_start_poll(cq, NULL) != 0)
		goto out_cq;
	do {
		if (rte_mlx5cq_wc_wr_id(cq) != n ||
		    rte_mlx5cq_read_qp_num(cq) != 0x55 ||
		    rte_mlx5cq_wc_status(cq) !=
		    (n == 17 ? IBV_WC_WR_FLUSH_ERR : IBV_WC_SUCCESS) ||
		    (n != 17 && rte_mlx5cq_read_byte_len(cq) != 100 + n)) {
			printf("  completion %u wrong\n", n);
			rte_mlx5cq_end_poll(cq);
			goto out_cq;
		}
		n++;
	} while (rte_mlx5cq_next_poll(cq) == 0);
	rte_mlx5cq_end_poll(cq);
	if (n == RTE_DIM(c) && rte_be_to_cpu_32(cq->dbrec[0]) == n)
		ret = TEST_SUCCESS;
	else
		printf("  %u completions, dbrec %u\n", n,
		       rte_be_to_cpu_32(cq->dbrec[0]));
out_cq:
	rte_mlx5cq_destroy(cq);
out_dev:
	rte_mlx5cq_dev_close(dev);
out_ctx:
	mlx5_emu_close(ctx);
	return ret;
}

static struct unit_test_suite iter_suite = {
	.suite_name = "iter",
	.unit_test_cases = {
		TEST_CASE_ST(NULL, iter_teardown, test_iter_fields),
		TEST_CASE_ST(NULL, iter_teardown, test_iter_rdma_core),
		TEST_CASE_ST(NULL, iter_teardown, test_iter_refused),
		TEST_CASE_ST(NULL, iter_teardown, test_iter_session),
		TEST_CASE_ST(NULL, iter_teardown, test_iter_lock),
		TEST_CASE_ST(NULL, iter_teardown, test_iter_nested_locked),
		TEST_CASE_NAMED_WITH_DATA("test_iter_emu_devx", NULL, NULL,
			test_iter_emu, (const void *)RTE_MLX5CQ_PATH_DEVX),
		TEST_CASE_NAMED_WITH_DATA("test_iter_emu_verbs", NULL, NULL,
			test_iter_emu, (const void *)RTE_MLX5CQ_PATH_VERBS),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(iter, iter_suite);
