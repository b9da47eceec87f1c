/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "crypto_error_cqe": an error CQE comes back as an operation in
 * error, counted and logged, and the queue pair recovers.
 * The fixture (devices, pools, known-answer cases) is
 * test_crypto_fixture.c.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_dev.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <mlx5_emu.h>

#include "test.h"
#include "test_crypto_fixture.h"
#include "test_net_util.h"
#include "test_usage.h"
#include "test_wait.h"
#include "test_xts_vectors.h"

/*
 * An error CQE: with the emulated HCA's engine paused, an operation is
 * enqueued, then its session (the last of its key) is freed, which
 * destroys the DEK; the device then runs the WQEs and writes an error CQE
 * (the DEK is gone: syndrome 0x14, remote operation error, as the
 * emulated firmware reports it). The operation comes back with
 * RTE_CRYPTO_OP_STATUS_ERROR, the dequeue error counter is 1, the
 * syndrome is in the log. The queue pair then recovers (QP reset, back to
 * RTS): IEEE 1619 vector 4 goes through it exactly. Nothing is left after
 * the device is removed.
 */
static int
test_crypto_error_cqe(void)
{
	uint8_t data[512] = { 0 }, iv[16] = { 0 };
	struct rte_crypto_sym_xform x;
	struct rte_cryptodev_sym_session *sess;
	struct rte_cryptodev_stats st;
	struct rte_crypto_op *op, *out = NULL;
	struct heap_use before;
	FILE *old = rte_log_get_stream(), *log;
	char *buf = NULL;
	size_t len = 0;
	struct rte_mbuf *m;
	uint16_t k;
	uint8_t id;
	int found;

	heap_use(&before);
	TEST_ASSERT_SUCCESS(dev_up("dev=emu", &id), "device up");
	crypto_xform_fill(&x, xts_v4_key, sizeof(xts_v4_key),
			  RTE_CRYPTO_CIPHER_OP_ENCRYPT, 512);
	sess = rte_cryptodev_sym_session_create(id, &x, c_pools.sess);
	TEST_ASSERT_NOT_NULL(sess, "session");
	op = rte_crypto_op_alloc(c_pools.op, RTE_CRYPTO_OP_TYPE_SYMMETRIC);
	m = chain_make(data, sizeof(data), NULL);
	TEST_ASSERT(op != NULL && m != NULL, "op, mbuf");
	rte_crypto_op_attach_sym_session(op, sess);
	op->sym->m_src = m;
	op->sym->cipher.data.offset = 0;
	op->sym->cipher.data.length = sizeof(data);
	memcpy(rte_crypto_op_ctod_offset(op, uint8_t *, CRYPTO_IV_OFF), iv,
	       16);
	mlx5_emu_net_engine_pause(1);
	k = rte_cryptodev_enqueue_burst(id, 0, &op, 1);
	TEST_ASSERT_SUCCESS(rte_cryptodev_sym_session_free(id, sess),
			    "session free");
	log = open_memstream(&buf, &len);
	TEST_ASSERT_NOT_NULL(log, "memstream");
	rte_openlog_stream(log);
	while (mlx5_emu_net_progress() != 0)
		;
	mlx5_emu_net_engine_pause(0);
	if (k == 1)
		k = rte_cryptodev_dequeue_burst(id, 0, &out, 1);
	rte_openlog_stream(old);
	fclose(log);
	found = buf != NULL && strstr(buf, "error CQE for WQE") != NULL &&
		strstr(buf, "syndrome 0x14") != NULL;
	if (!found)
		printf("  no error CQE line in:\n%s\n", buf ? buf : "");
	free(buf);
	TEST_ASSERT_EQUAL(k, 1, "enqueue or dequeue");
	TEST_ASSERT(out == op, "another operation");
	TEST_ASSERT_EQUAL(op->status, RTE_CRYPTO_OP_STATUS_ERROR,
			  "status %d", op->status);
	TEST_ASSERT(found, "log line");
	TEST_ASSERT_SUCCESS(rte_cryptodev_stats_get(id, &st), "stats");
	TEST_ASSERT(st.enqueued_count == 1 && st.dequeued_count == 1 &&
		    st.dequeue_err_count == 1 && st.enqueue_err_count == 0,
		    "stats %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64,
		    st.enqueued_count, st.dequeued_count,
		    st.enqueue_err_count, st.dequeue_err_count);
	rte_pktmbuf_free(m);
	rte_crypto_op_free(op);
	/* The queue pair works again. */
	TEST_ASSERT_SUCCESS(kat_one(id, &kat_cases[0], 1), "after the error");
	TEST_ASSERT_SUCCESS(rte_cryptodev_stats_get(id, &st), "stats");
	TEST_ASSERT(st.enqueued_count == 2 && st.dequeued_count == 2 &&
		    st.dequeue_err_count == 1, "stats after recovery");
	TEST_ASSERT_SUCCESS(dev_down(id), "device down");
	TEST_ASSERT_SUCCESS(heap_unchanged_devs(&before, 1,
						"error CQE device"),
			    "leak");
	return TEST_SUCCESS;
}

static struct unit_test_suite crypto_error_cqe_suite = {
	.suite_name = "crypto_error_cqe",
	.setup = crypto_suite_setup,
	.teardown = crypto_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_crypto_error_cqe),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(crypto_error_cqe, crypto_error_cqe_suite);
