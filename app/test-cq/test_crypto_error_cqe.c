/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "crypto_error_cqe": an error CQE comes back as an operation in
 * error, counted and logged, and the queue pair recovers: a DEK gone
 * under a posted operation, and the emulated engine's own failures
 * (mlx5_emu_fail_inject(): bounce buffer, cipher).
 * The fixture (devices, pools, known-answer cases) is
 * test_crypto_fixture.c.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_dev.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <mlx5_emu.h>

#include "mlx5cq_crypto.h"
#include "test.h"
#include "test_crypto_fixture.h"
#include "test_net_util.h"
#include "test_usage.h"
#include "test_wait.h"
#include "test_xts_vectors.h"

/*
 * An AES-XTS encryption with IEEE 1619 vector 4's key (512-byte data
 * units, tweak 0) of the 512 bytes of data split at segs (NULL: one
 * segment), in place; its session in *sess. NULL if anything failed
 * (then nothing is left).
 */
static struct rte_crypto_op *
v4_op(uint8_t id, const uint8_t *data, const uint16_t *segs,
	struct rte_cryptodev_sym_session **sess)
{
	struct rte_crypto_sym_xform x;
	struct rte_crypto_op *op;
	struct rte_mbuf *m;

	crypto_xform_fill(&x, xts_v4_key, sizeof(xts_v4_key),
			  RTE_CRYPTO_CIPHER_OP_ENCRYPT, 512);
	*sess = rte_cryptodev_sym_session_create(id, &x, c_pools.sess);
	op = rte_crypto_op_alloc(c_pools.op, RTE_CRYPTO_OP_TYPE_SYMMETRIC);
	m = chain_make(data, 512, segs);
	if (*sess == NULL || op == NULL || m == NULL) {
		rte_pktmbuf_free(m);
		rte_crypto_op_free(op);
		if (*sess != NULL)
			rte_cryptodev_sym_session_free(id, *sess);
		return NULL;
	}
	rte_crypto_op_attach_sym_session(op, *sess);
	op->sym->m_src = m;
	op->sym->cipher.data.offset = 0;
	op->sym->cipher.data.length = 512;
	memset(rte_crypto_op_ctod_offset(op, uint8_t *, CRYPTO_IV_OFF), 0,
	       16);
	return op;
}

static void
v4_op_free(struct rte_crypto_op *op)
{
	rte_pktmbuf_free(op->sym->m_src);
	rte_crypto_op_free(op);
}

/* The device's counters: enq enqueued, deq dequeued, err dequeue errors,
 * no enqueue error.
 */
static int
stats_are(uint8_t id, uint64_t enq, uint64_t deq, uint64_t err)
{
	struct rte_cryptodev_stats st;

	TEST_ASSERT_SUCCESS(rte_cryptodev_stats_get(id, &st), "stats");
	TEST_ASSERT(st.enqueued_count == enq && st.dequeued_count == deq &&
		    st.dequeue_err_count == err && st.enqueue_err_count == 0,
		    "stats %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64,
		    st.enqueued_count, st.dequeued_count,
		    st.enqueue_err_count, st.dequeue_err_count);
	return TEST_SUCCESS;
}

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
	uint8_t data[512] = { 0 };
	struct rte_cryptodev_sym_session *sess;
	struct rte_crypto_op *op, *out = NULL;
	struct heap_use before;
	FILE *old = rte_log_get_stream(), *log;
	char *buf = NULL;
	size_t len = 0;
	uint16_t k;
	uint8_t id;
	int found;

	heap_use(&before);
	TEST_ASSERT_SUCCESS(dev_up("dev=emu", &id), "device up");
	op = v4_op(id, data, NULL, &sess);
	TEST_ASSERT_NOT_NULL(op, "session, op, mbuf");
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
	TEST_CHECK(stats_are(id, 1, 1, 1));
	v4_op_free(op);
	/* The queue pair works again. */
	TEST_ASSERT_SUCCESS(kat_one(id, &kat_cases[0], 1), "after the error");
	TEST_CHECK(stats_are(id, 2, 2, 1));
	TEST_ASSERT_SUCCESS(dev_down(id), "device down");
	TEST_ASSERT_SUCCESS(heap_unchanged_devs(&before, 1,
						"error CQE device"),
			    "leak");
	return TEST_SUCCESS;
}

/* The emulated device under a crypto_mlx5cq device (dev=emu). */
static struct ibv_context *
emu_ctx(uint8_t id)
{
	const struct mlx5cq_crypto_priv *priv =
		rte_cryptodev_pmd_get_dev(id)->data->dev_private;

	return priv->ctx;
}

/*
 * A failure of the emulated HCA's crypto engine (point, injected once)
 * under one encryption of vector 4 (v4_op(), bytes 0..511, split as the
 * source of kc): the operation comes back with RTE_CRYPTO_OP_STATUS_ERROR,
 * the dequeue error counter is 1 and the log names the error CQE of the
 * RDMA write (opcode 0x8) with its syndrome and vendor syndrome (want).
 * The queue pair recovers: the known answer of kc goes through it
 * exactly.
 */
static int
engine_fault_run(uint8_t id, enum mlx5_emu_fail_point point,
		 const struct kat_case *kc, const char *want)
{
	struct rte_cryptodev_sym_session *sess;
	FILE *old = rte_log_get_stream(), *log;
	struct rte_crypto_op *op;
	uint8_t data[512];
	char *buf = NULL;
	size_t len = 0;
	unsigned int i;
	int status, found;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)i;
	op = v4_op(id, data, kc->src_segs, &sess);
	TEST_ASSERT_NOT_NULL(op, "session, op, mbuf");
	mlx5_emu_fail_inject(emu_ctx(id), point, 0, 1);
	log = open_memstream(&buf, &len);
	if (log != NULL)
		rte_openlog_stream(log);
	status = op_run(id, op);
	rte_openlog_stream(old);
	if (log != NULL)
		fclose(log);
	found = buf != NULL && strstr(buf, "error CQE for WQE") != NULL &&
		strstr(buf, "(opcode 0x8)") != NULL && strstr(buf, want) != NULL;
	if (!found)
		printf("  no \"%s\" error CQE line in:\n%s\n", want,
		       buf ? buf : "");
	free(buf);
	v4_op_free(op);
	TEST_ASSERT_SUCCESS(rte_cryptodev_sym_session_free(id, sess),
			    "session free");
	TEST_ASSERT_EQUAL(status, RTE_CRYPTO_OP_STATUS_ERROR, "status %d",
			  status);
	TEST_ASSERT(found, "log line");
	TEST_CHECK(stats_are(id, 1, 1, 1));
	/* The queue pair works again (the failure was injected once). */
	TEST_ASSERT_SUCCESS(kat_one(id, kc, 1), "after the error");
	return stats_are(id, 2, 2, 1);
}

/* engine_fault_run() on a new device; nothing left after it. */
static int
engine_fault(enum mlx5_emu_fail_point point, const struct kat_case *kc,
	     const char *want)
{
	struct heap_use before;
	uint8_t id;
	int ret;

	heap_use(&before);
	TEST_ASSERT_SUCCESS(dev_up("dev=emu", &id), "device up");
	ret = engine_fault_run(id, point, kc, want);
	mlx5_emu_fail_inject(emu_ctx(id), point, 0, 0);
	TEST_ASSERT_SUCCESS(dev_down(id), "device down");
	if (ret != TEST_SUCCESS)
		return ret;
	return heap_unchanged_devs(&before, 1, "engine fault device");
}

/* The bounce buffer of a gathered message not allocated: LOCAL_QP_OP_ERR
 * (mlx5dv.h MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR 0x02); the source in three
 * segments ("v4 in-place sgl").
 */
static int
test_crypto_error_cqe_bounce(void)
{
	return engine_fault(MLX5_EMU_FAIL_CRYPTO_BOUNCE, &kat_cases[3],
			    "syndrome 0x2 vendor syndrome 0 ");
}

/* The cipher fails: REMOTE_OP_ERR (0x14), the model's vendor syndrome
 * 0x05; one segment ("v4 in-place").
 */
static int
test_crypto_error_cqe_cipher(void)
{
	return engine_fault(MLX5_EMU_FAIL_CRYPTO_CIPHER, &kat_cases[0],
			    "syndrome 0x14 vendor syndrome 0x5 ");
}

static struct unit_test_suite crypto_error_cqe_suite = {
	.suite_name = "crypto_error_cqe",
	.setup = crypto_suite_setup,
	.teardown = crypto_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_crypto_error_cqe),
		TEST_CASE(test_crypto_error_cqe_bounce),
		TEST_CASE(test_crypto_error_cqe_cipher),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(crypto_error_cqe, crypto_error_cqe_suite);
