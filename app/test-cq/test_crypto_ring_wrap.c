/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "crypto_ring_wrap": the ring wraps with the device behind, every
 * operation exact.
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
 * Ring wraps with the device behind: the emulated HCA's engine is paused
 * and stepped one pass at a time (mlx5_emu_net_progress(): at most one
 * batch of WQEs per QP, which may end inside an operation's WQE set); after
 * every pass the operations done are dequeued and the ring is filled up
 * again at once, so the sets of just-dequeued operations are rewritten
 * while the device may still be inside the last of them. Every operation
 * encrypts IEEE 1619 vector 4 in place: every one must come back a
 * success with the vector's ciphertext, over WRAP_PASSES passes of the
 * ring, with nothing failed in the statistics.
 */
#define WRAP_PASSES 8

static void
wrap_op_prepare(struct rte_crypto_op *op, struct rte_mbuf *m,
		void *sess)
{
	uint8_t *d = rte_pktmbuf_mtod(m, uint8_t *);
	unsigned int i;

	for (i = 0; i < 512; i++)
		d[i] = (uint8_t)i; /* Vector 4's plaintext. */
	rte_crypto_op_attach_sym_session(op, sess);
	op->status = RTE_CRYPTO_OP_STATUS_NOT_PROCESSED;
	op->sym->m_src = m;
	op->sym->m_dst = NULL;
	op->sym->cipher.data.offset = 0;
	op->sym->cipher.data.length = 512;
	memset(rte_crypto_op_ctod_offset(op, uint8_t *, CRYPTO_IV_OFF), 0, 16);
}

/*
 * Dequeue what is done: each a success holding vector 4's ciphertext, put
 * back on the free list. Number dequeued, or -1.
 */
static int
wrap_dequeue(uint8_t id, struct rte_crypto_op **free_ops, unsigned int *nfree)
{
	struct rte_crypto_op *out[C_QDESC];
	uint16_t k, i;

	k = rte_cryptodev_dequeue_burst(id, 0, out, C_QDESC);
	for (i = 0; i < k; i++) {
		const uint8_t *d = rte_pktmbuf_mtod(out[i]->sym->m_src,
						    const uint8_t *);

		if (out[i]->status != RTE_CRYPTO_OP_STATUS_SUCCESS ||
		    memcmp(d, xts_v4_ctx, 512) != 0) {
			printf("  operation %p: status %d, %s\n",
			       (void *)out[i], out[i]->status,
			       out[i]->status == RTE_CRYPTO_OP_STATUS_SUCCESS ?
			       "output differs from IEEE 1619" :
			       "not a success");
			return -1;
		}
		free_ops[(*nfree)++] = out[i];
	}
	return k;
}

static int
test_crypto_ring_wrap(void)
{
	struct rte_crypto_op *ops[C_QDESC], *free_ops[C_QDESC];
	struct rte_mbuf *mbufs[C_QDESC];
	struct rte_crypto_sym_xform x;
	struct rte_cryptodev_sym_session *sess;
	struct rte_cryptodev_stats st;
	struct heap_use before;
	const uint64_t total = (uint64_t)WRAP_PASSES * C_QDESC;
	uint64_t posted = 0, done = 0, passes = 0;
	unsigned int nfree = 0, i;
	int ret = 0, k;
	uint8_t id;

	heap_use(&before);
	TEST_ASSERT_SUCCESS(dev_up("dev=emu,key_mode=plaintext", &id),
			    "device up");
	crypto_xform_fill(&x, xts_v4_key, sizeof(xts_v4_key),
			  RTE_CRYPTO_CIPHER_OP_ENCRYPT, 512);
	sess = rte_cryptodev_sym_session_create(id, &x, c_pools.sess);
	TEST_ASSERT_NOT_NULL(sess, "session");
	for (i = 0; i < C_QDESC; i++) {
		ops[i] = rte_crypto_op_alloc(c_pools.op,
					     RTE_CRYPTO_OP_TYPE_SYMMETRIC);
		mbufs[i] = chain_make(NULL, 512, NULL);
		if (ops[i] == NULL || mbufs[i] == NULL)
			ret = -1;
		else
			ops[i]->sym->m_src = mbufs[i];
		free_ops[nfree++] = ops[i];
	}
	mlx5_emu_net_engine_pause(1);
	while (ret == 0 && done < total) {
		/* Fill the ring: every free operation, vector 4 again. */
		while (nfree != 0 && posted < total) {
			struct rte_crypto_op *op = free_ops[nfree - 1];

			wrap_op_prepare(op, op->sym->m_src, sess);
			if (rte_cryptodev_enqueue_burst(id, 0, &op, 1) != 1)
				break;
			nfree--;
			posted++;
		}
		/* One pass of the device, then what it finished. */
		if (mlx5_emu_net_progress() == 0 && posted == done) {
			printf("  device idle with nothing in flight\n");
			ret = -1;
		}
		k = wrap_dequeue(id, free_ops, &nfree);
		if (k < 0 || ++passes > 64 * total)
			ret = -1;
		else
			done += k;
	}
	while (mlx5_emu_net_progress() != 0)
		;
	mlx5_emu_net_engine_pause(0);
	if (ret == 0 && wrap_dequeue(id, free_ops, &nfree) != 0)
		ret = -1;
	TEST_ASSERT_SUCCESS(rte_cryptodev_stats_get(id, &st), "stats");
	for (i = 0; i < C_QDESC; i++) {
		rte_pktmbuf_free(mbufs[i]);
		rte_crypto_op_free(ops[i]);
	}
	TEST_ASSERT_SUCCESS(rte_cryptodev_sym_session_free(id, sess),
			    "session free");
	TEST_ASSERT_SUCCESS(dev_down(id), "device down");
	TEST_ASSERT_SUCCESS(ret, "%" PRIu64 " of %" PRIu64 " operations "
			    "right after %" PRIu64 " device passes", done,
			    total, passes);
	TEST_ASSERT(st.enqueued_count == total && st.dequeued_count == total &&
		    st.enqueue_err_count == 0 && st.dequeue_err_count == 0,
		    "stats %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64
		    ", %" PRIu64 " operations", st.enqueued_count,
		    st.dequeued_count, st.enqueue_err_count,
		    st.dequeue_err_count, total);
	TEST_ASSERT_SUCCESS(heap_unchanged_devs(&before, 1, "ring-wrap device"),
			    "leak");
	return TEST_SUCCESS;
}

static struct unit_test_suite crypto_ring_wrap_suite = {
	.suite_name = "crypto_ring_wrap",
	.setup = crypto_suite_setup,
	.teardown = crypto_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_crypto_ring_wrap),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(crypto_ring_wrap, crypto_ring_wrap_suite);
