/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "crypto_xts_du": AES-XTS data units as DPDK's cryptodev API
 * defines them, on crypto_mlx5cq over the emulated HCA.
 *
 * - A session of dataunit_len 0 ciphers the whole operation as one data
 *   unit of its length: 16 bytes and up, ciphertext stealing (IEEE 1619
 *   section 5.3.2) when the length is not a multiple of 16. References
 *   come from OpenSSL's EVP_aes_128_xts() / EVP_aes_256_xts(), an
 *   implementation independent of the emulated engine, one EVP call per
 *   operation (one data unit, tweak = the operation's IV).
 * - An operation the device cannot do (shorter than 16 bytes, or not a
 *   whole number of the session's data units) is enqueued and dequeued
 *   with RTE_CRYPTO_OP_STATUS_INVALID_ARGS, and the queue pair goes on.
 * - A session of a data-unit length the capability does not list is
 *   refused with ENOTSUP and a log line, leaving the heap and the
 *   session pool as they were.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include <rte_errno.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "test.h"
#include "test_crypto_util.h"
#include "test_usage.h"
#include "test_wait.h"

#define DU_NAME "crypto_mlx5cq_du0"
#define DU_NB_MBUF 64
#define DU_QDESC 32
#define DU_MAX 4200

static struct crypto_pools du_pools;

static int
du_suite_setup(void)
{
	if (crypto_pools_make(&du_pools, "crypto_xts_du", DU_NB_MBUF) != 0 ||
	    crypto_caps(1, 0) != 0)
		return -1;
	return 0;
}

static void
du_suite_teardown(void)
{
	crypto_pools_free(&du_pools);
}

static int
du_dev_up(uint8_t *id)
{
	return crypto_dev_up(DU_NAME, "dev=emu,key_mode=plaintext", DU_QDESC,
			     du_pools.sess, id);
}

/* Reference: one XTS data unit of len bytes with OpenSSL; 0 or -1. */
static int
ref_xts(const uint8_t *key, uint16_t key_len, const uint8_t iv[16],
	int enc, const uint8_t *in, uint8_t *out, uint32_t len)
{
	const EVP_CIPHER *c = key_len == 32 ? EVP_aes_128_xts() :
			      EVP_aes_256_xts();
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int outl = 0, ret = -1;

	if (ctx != NULL &&
	    EVP_CipherInit_ex(ctx, c, NULL, key, iv, enc) == 1 &&
	    EVP_CipherUpdate(ctx, out, &outl, in, (int)len) == 1 &&
	    (uint32_t)outl == len)
		ret = 0;
	EVP_CIPHER_CTX_free(ctx);
	return ret;
}

/* An mbuf chain of len bytes of data: first bytes in the first segment
 * (0: as many as fit), the rest in segments as full as they can be.
 */
static struct rte_mbuf *
du_chain(const uint8_t *data, uint32_t len, uint32_t first)
{
	struct rte_mbuf *head = NULL, *m;
	uint32_t off = 0, l;

	while (off < len) {
		m = rte_pktmbuf_alloc(du_pools.mbuf);
		if (m == NULL)
			goto fail;
		l = RTE_MIN(len - off, (uint32_t)rte_pktmbuf_tailroom(m));
		if (off == 0 && first != 0 && first < l)
			l = first;
		if (rte_pktmbuf_append(m, l) == NULL) {
			rte_pktmbuf_free(m);
			goto fail;
		}
		memcpy(rte_pktmbuf_mtod(m, void *), data + off, l);
		if (head == NULL) {
			head = m;
		} else if (rte_pktmbuf_chain(head, m) != 0) {
			rte_pktmbuf_free(m);
			goto fail;
		}
		off += l;
	}
	return head;
fail:
	rte_pktmbuf_free(head);
	return NULL;
}

/* Run one in-place operation of len bytes of in on sess: its status with
 * the result in out, or -1.
 */
static int
du_run(uint8_t id, void *sess, const uint8_t iv[16], const uint8_t *in,
	uint8_t *out, uint32_t len, uint32_t first)
{
	struct rte_crypto_op *op, *got = NULL;
	struct rte_mbuf *m;
	uint64_t deadline;
	const uint8_t *p;
	int st = -1;

	op = rte_crypto_op_alloc(du_pools.op, RTE_CRYPTO_OP_TYPE_SYMMETRIC);
	m = du_chain(in, len, first);
	if (op == NULL || m == NULL)
		goto out;
	rte_crypto_op_attach_sym_session(op, sess);
	op->sym->m_src = m;
	op->sym->m_dst = NULL;
	op->sym->cipher.data.offset = 0;
	op->sym->cipher.data.length = len;
	memcpy(rte_crypto_op_ctod_offset(op, uint8_t *, CRYPTO_IV_OFF), iv, 16);
	if (rte_cryptodev_enqueue_burst(id, 0, &op, 1) != 1) {
		printf("  %u bytes: not enqueued\n", len);
		goto out;
	}
	deadline = test_wait_deadline(TEST_WAIT_S);
	while (rte_cryptodev_dequeue_burst(id, 0, &got, 1) == 0)
		if (test_wait_expired(deadline)) {
			printf("  %u bytes: no completion\n", len);
			goto out; /* The op stays with the device. */
		}
	if (got != op)
		goto out;
	st = op->status;
	if (st == RTE_CRYPTO_OP_STATUS_SUCCESS) {
		p = rte_pktmbuf_read(m, 0, len, out);
		if (p == NULL)
			st = -1;
		else if (p != out)
			memcpy(out, p, len);
	}
out:
	rte_pktmbuf_free(m);
	rte_crypto_op_free(op);
	return st;
}

static void *
du_sess(uint8_t id, const uint8_t *key, uint16_t key_len, int enc,
	uint32_t du_len)
{
	struct rte_crypto_sym_xform x;

	crypto_xform_fill(&x, key, key_len, enc ?
			  RTE_CRYPTO_CIPHER_OP_ENCRYPT :
			  RTE_CRYPTO_CIPHER_OP_DECRYPT, du_len);
	return rte_cryptodev_sym_session_create(id, &x, du_pools.sess);
}

static void
du_fill(uint8_t *b, uint32_t len, uint32_t seed)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		b[i] = (uint8_t)(seed * 131 + i * 7 + (i >> 8));
}

struct du_case {
	uint32_t len;
	uint32_t first; /* First segment's bytes (0: as many as fit). */
};

/* Lengths: whole blocks (1024, 4096 on the 4 KiB code path, 2048 on the
 * engine's EVP path), stealing tails of 1 to 15 bytes on both engine
 * paths (17, 31, 1000, 3000, 4103), one block (16), scattered sources.
 */
static const struct du_case du_cases[] = {
	{ 16, 0 }, { 17, 0 }, { 31, 0 }, { 1000, 0 }, { 1024, 0 },
	{ 2048, 0 }, { 3000, 0 }, { 4096, 0 }, { 4103, 0 },
	{ 1000, 300 }, { 1000, 997 }, { 3000, 1500 },
};

static int
du_whole_key(uint8_t id, uint16_t key_len)
{
	static uint8_t pt[DU_MAX], ct[DU_MAX], ref[DU_MAX], back[DU_MAX];
	void *enc, *dec;
	uint8_t key[64], iv[16];
	unsigned int i;
	int ret = -1, st;

	du_fill(key, key_len, key_len);
	enc = du_sess(id, key, key_len, 1, 0);
	dec = du_sess(id, key, key_len, 0, 0);
	if (enc == NULL || dec == NULL) {
		printf("  session of dataunit_len 0: %s\n",
		       rte_strerror(rte_errno));
		goto out;
	}
	for (i = 0; i < RTE_DIM(du_cases); i++) {
		const struct du_case *c = &du_cases[i];

		du_fill(pt, c->len, i + 1);
		du_fill(iv, 16, i + 100);
		if (ref_xts(key, key_len, iv, 1, pt, ref, c->len) != 0) {
			printf("  OpenSSL aes-xts refused %u bytes\n", c->len);
			goto out;
		}
		st = du_run(id, enc, iv, pt, ct, c->len, c->first);
		if (st != RTE_CRYPTO_OP_STATUS_SUCCESS ||
		    memcmp(ct, ref, c->len) != 0) {
			printf("  key %u, %u bytes (split %u): encrypt status "
			       "%d, %s\n", key_len, c->len, c->first, st,
			       st == 0 ? "differs from OpenSSL" : "failed");
			goto out;
		}
		st = du_run(id, dec, iv, ct, back, c->len, c->first);
		if (st != RTE_CRYPTO_OP_STATUS_SUCCESS ||
		    memcmp(back, pt, c->len) != 0) {
			printf("  key %u, %u bytes (split %u): decrypt status "
			       "%d\n", key_len, c->len, c->first, st);
			goto out;
		}
	}
	ret = 0;
out:
	rte_cryptodev_sym_session_free(id, enc);
	rte_cryptodev_sym_session_free(id, dec);
	return ret;
}

/* dataunit_len 0: the whole operation is one data unit, any length. */
static int
test_xts_du_whole(void)
{
	struct rte_cryptodev_stats st;
	uint8_t id;
	uint64_t n = 2 * 2 * RTE_DIM(du_cases);

	TEST_ASSERT_SUCCESS(du_dev_up(&id), "device up");
	TEST_ASSERT_SUCCESS(du_whole_key(id, 32), "AES-128-XTS");
	TEST_ASSERT_SUCCESS(du_whole_key(id, 64), "AES-256-XTS");
	TEST_ASSERT_SUCCESS(rte_cryptodev_stats_get(id, &st), "stats");
	TEST_ASSERT(st.enqueued_count == n && st.dequeued_count == n &&
		    st.enqueue_err_count == 0 && st.dequeue_err_count == 0,
		    "stats %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64
		    ", %" PRIu64 " operations", st.enqueued_count,
		    st.dequeued_count, st.enqueue_err_count,
		    st.dequeue_err_count, n);
	TEST_ASSERT_SUCCESS(crypto_dev_down(DU_NAME, id), "device down");
	return TEST_SUCCESS;
}

/*
 * Operations the device cannot do come back with INVALID_ARGS through
 * dequeue, in order, and the operations after them still run.
 */
static int
test_xts_du_bad_op(void)
{
	static uint8_t pt[1024], ct[1024], ref[1024];
	void *s0, *s512;
	struct rte_cryptodev_stats st;
	uint8_t key[32], iv[16];
	uint8_t id;

	du_fill(key, sizeof(key), 7);
	du_fill(iv, sizeof(iv), 8);
	du_fill(pt, sizeof(pt), 9);
	TEST_ASSERT_SUCCESS(du_dev_up(&id), "device up");
	s0 = du_sess(id, key, sizeof(key), 1, 0);
	s512 = du_sess(id, key, sizeof(key), 1, 512);
	TEST_ASSERT(s0 != NULL && s512 != NULL, "sessions");
	/* Shorter than one AES block: XTS has no such unit. */
	TEST_ASSERT_EQUAL(du_run(id, s0, iv, pt, ct, 15, 0),
			  RTE_CRYPTO_OP_STATUS_INVALID_ARGS, "15 bytes");
	/* Not a whole number of the session's 512-byte units. */
	TEST_ASSERT_EQUAL(du_run(id, s512, iv, pt, ct, 1000, 0),
			  RTE_CRYPTO_OP_STATUS_INVALID_ARGS,
			  "1000 bytes in 512-byte units");
	/* The queue pair goes on: two units of 512 (tweaks iv, iv + 1). */
	TEST_ASSERT_EQUAL(du_run(id, s512, iv, pt, ct, 1024, 0),
			  RTE_CRYPTO_OP_STATUS_SUCCESS, "1024 bytes");
	TEST_ASSERT_SUCCESS(ref_xts(key, sizeof(key), iv, 1, pt, ref, 512),
			    "reference");
	TEST_ASSERT_SUCCESS(memcmp(ct, ref, 512), "first unit");
	iv[0]++; /* The tweak is a little-endian number (IEEE 1619). */
	TEST_ASSERT_SUCCESS(ref_xts(key, sizeof(key), iv, 1, pt + 512, ref,
				    512), "reference");
	TEST_ASSERT_SUCCESS(memcmp(ct + 512, ref, 512), "second unit");
	TEST_ASSERT_SUCCESS(rte_cryptodev_stats_get(id, &st), "stats");
	TEST_ASSERT(st.enqueued_count == 3 && st.dequeued_count == 3 &&
		    st.enqueue_err_count == 2 && st.dequeue_err_count == 0,
		    "stats %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64,
		    st.enqueued_count, st.dequeued_count,
		    st.enqueue_err_count, st.dequeue_err_count);
	rte_cryptodev_sym_session_free(id, s0);
	rte_cryptodev_sym_session_free(id, s512);
	TEST_ASSERT_SUCCESS(crypto_dev_down(DU_NAME, id), "device down");
	return TEST_SUCCESS;
}

/*
 * The capability lists the data units of DPDK 22.11's crypto/mlx5;
 * sessions of other lengths are refused with ENOTSUP and a log line,
 * leaking nothing.
 */
static int
test_xts_du_bad_session(void)
{
	static const uint32_t bad[] = { 16, 520, 1024, 4048, 4160, 65536 };
	const struct rte_cryptodev_symmetric_capability *cap;
	struct rte_cryptodev_sym_capability_idx idx;
	void *s;
	struct heap_use before, after;
	unsigned int i, avail, fds;
	char want[64], *buf = NULL;
	size_t blen = 0;
	FILE *log, *old = rte_log_get_stream();
	uint8_t key[32];
	uint8_t id;
	int found;

	du_fill(key, sizeof(key), 3);
	TEST_ASSERT_SUCCESS(du_dev_up(&id), "device up");
	idx.type = RTE_CRYPTO_SYM_XFORM_CIPHER;
	idx.algo.cipher = RTE_CRYPTO_CIPHER_AES_XTS;
	cap = rte_cryptodev_sym_capability_get(id, &idx);
	TEST_ASSERT_NOT_NULL(cap, "AES-XTS capability");
	TEST_ASSERT_EQUAL(cap->cipher.dataunit_set,
			  (RTE_CRYPTO_CIPHER_DATA_UNIT_LEN_512_BYTES |
			   RTE_CRYPTO_CIPHER_DATA_UNIT_LEN_4096_BYTES |
			   RTE_CRYPTO_CIPHER_DATA_UNIT_LEN_1_MEGABYTES),
			  "dataunit_set %#x", cap->cipher.dataunit_set);
	avail = rte_mempool_avail_count(du_pools.sess);
	fds = open_fds();
	heap_use(&before);
	for (i = 0; i < RTE_DIM(bad); i++) {
		log = open_memstream(&buf, &blen);
		TEST_ASSERT_NOT_NULL(log, "memstream");
		rte_openlog_stream(log);
		rte_errno = 0;
		s = du_sess(id, key, sizeof(key), 1, bad[i]);
		rte_openlog_stream(old);
		fclose(log);
		snprintf(want, sizeof(want),
			 "data-unit length %u not supported", bad[i]);
		found = buf != NULL && strstr(buf, want) != NULL;
		if (!found)
			printf("  no \"%s\" in:\n%s\n", want, buf ? buf : "");
		free(buf);
		buf = NULL;
		TEST_ASSERT_NULL(s, "dataunit_len %u accepted", bad[i]);
		TEST_ASSERT_EQUAL(rte_errno, ENOTSUP,
				  "dataunit_len %u: errno %d", bad[i],
				  rte_errno);
		TEST_ASSERT(found, "dataunit_len %u: log line", bad[i]);
	}
	heap_use(&after);
	TEST_ASSERT_SUCCESS(heap_use_same(&before, &after, "refused sessions"),
			    "leak");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(du_pools.sess), avail,
			  "session pool");
	TEST_ASSERT_EQUAL(open_fds(), fds, "file descriptors leaked");
	TEST_ASSERT_SUCCESS(crypto_dev_down(DU_NAME, id), "device down");
	return TEST_SUCCESS;
}

static struct unit_test_suite crypto_xts_du_suite = {
	.suite_name = "crypto_xts_du",
	.setup = du_suite_setup,
	.teardown = du_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_xts_du_whole),
		TEST_CASE(test_xts_du_bad_op),
		TEST_CASE(test_xts_du_bad_session),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(crypto_xts_du, crypto_xts_du_suite);
