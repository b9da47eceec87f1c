/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "crypto_gcm": RTE_CRYPTO_AEAD_AES_GCM through crypto_mlx5cq on a
 * plaintext-key emulated HCA. The capability is the one DPDK's
 * crypto/mlx5 builds from the device's bits (mlx5_crypto_generate_gcm_cap:
 * keys 16..32, digest 12..16, AAD 0..65535, IV 12); the GCM
 * specification's test cases 2, 4, 14 and 16 (test_gcm_vectors.h) are
 * encrypted and decrypted in place (out of place: suite crypto_gcm_oop),
 * contiguous (the AAD copied before the text) and scattered (UMR path:
 * text in two segments, AAD and digest in mbufs of their own); a wrong
 * tag gives RTE_CRYPTO_OP_STATUS_AUTH_FAILED and the queue pair works on;
 * AES-XTS runs on the slots GCM used; bad
 * session parameters are refused with a log line and the heap as before.
 */

#include <stdio.h>
#include <string.h>

#include <rte_crypto.h>
#include <rte_cryptodev.h>
#include <rte_log.h>
#include <rte_mbuf.h>

#include "test.h"
#include "test_crypto_fixture.h"
#include "test_crypto_gcm_fix.h"
#include "test_usage.h"

/* Digest length of gcm_op()'s sessions (a 96-bit tag is the first 12
 * bytes of the 128-bit one).
 */
static uint16_t gcm_digest = 16;

/*
 * One operation of v in place: text in a chain split at segs (NULL: one
 * mbuf holding text || digest), AAD and digest apart when scattered.
 * Encrypt: ciphertext and tag checked; decrypt (tag_xor flips a tag bit):
 * the plaintext checked. The operation's status.
 */
static int
gcm_op(uint8_t id, const struct gcm_vec *v, int enc, const uint16_t *segs,
	uint8_t tag_xor)
{
	struct rte_cryptodev_sym_session *s = gcm_sess(id, v, enc,
							gcm_digest);
	struct rte_mbuf *m = NULL, *side = NULL, *seg;
	struct rte_crypto_op *op;
	uint8_t *digest, *aad, out[64];
	uint32_t off = 0;
	int st = -1;

	op = rte_crypto_op_alloc(c_pools.op, RTE_CRYPTO_OP_TYPE_SYMMETRIC);
	side = rte_pktmbuf_alloc(c_pools.mbuf);
	if (s == NULL || op == NULL || side == NULL ||
	    rte_pktmbuf_append(side, 128) == NULL)
		goto out;
	/* AAD at side + 0, digest at side + 64 (scattered case). */
	aad = rte_pktmbuf_mtod(side, uint8_t *);
	if (v->aad_len != 0)
		memcpy(aad, v->aad, v->aad_len);
	if (segs == NULL) {
		m = chain_make(NULL, v->len + 16U, NULL);
		if (m == NULL)
			goto out;
		memcpy(rte_pktmbuf_mtod(m, void *), enc ? v->pt : v->ct,
		       v->len);
		digest = rte_pktmbuf_mtod_offset(m, uint8_t *, v->len);
	} else {
		m = chain_make(enc ? v->pt : v->ct, v->len, segs);
		if (m == NULL)
			goto out;
		digest = aad + 64;
	}
	memcpy(digest, enc ? gcm_zero32 : v->tag, 16);
	digest[15] ^= tag_xor;
	gcm_op_fill(op, s, v, m, NULL, digest, aad);
	st = op_run(id, op);
	if (st != RTE_CRYPTO_OP_STATUS_SUCCESS)
		goto out;
	for (seg = m; seg != NULL; seg = seg->next) {
		uint32_t l = RTE_MIN((uint32_t)seg->data_len, v->len - off);

		memcpy(out + off, rte_pktmbuf_mtod(seg, void *), l);
		off += l;
	}
	if (memcmp(out, enc ? v->ct : v->pt, v->len) != 0 ||
	    (enc && memcmp(digest, v->tag, gcm_digest) != 0) ||
	    (enc && gcm_digest < 16 && digest[gcm_digest] != 0)) {
		printf("  GCM output differs from the known answer\n");
		st = -1;
	}
out:
	gcm_op_release(id, op, s, m, side, NULL);
	return st;
}

/* The AEAD capability of a device with every GCM bit. */
static int
test_gcm_capability(void)
{
	struct rte_cryptodev_sym_capability_idx idx = {
		.type = RTE_CRYPTO_SYM_XFORM_AEAD,
		.algo.aead = RTE_CRYPTO_AEAD_AES_GCM,
	};
	const struct rte_cryptodev_symmetric_capability *cap;
	uint8_t id;

	TEST_ASSERT_SUCCESS(dev_up("dev=emu", &id), "device");
	cap = rte_cryptodev_sym_capability_get(id, &idx);
	TEST_ASSERT_NOT_NULL(cap, "no AES-GCM capability");
	TEST_ASSERT(cap->aead.key_size.min == 16 &&
		    cap->aead.key_size.max == 32 &&
		    cap->aead.key_size.increment == 16, "key sizes");
	TEST_ASSERT(cap->aead.digest_size.min == 12 &&
		    cap->aead.digest_size.max == 16 &&
		    cap->aead.digest_size.increment == 4, "digest sizes");
	TEST_ASSERT(cap->aead.aad_size.min == 0 &&
		    cap->aead.aad_size.max == UINT16_MAX &&
		    cap->aead.aad_size.increment == 1, "AAD sizes");
	TEST_ASSERT(cap->aead.iv_size.min == 12 &&
		    cap->aead.iv_size.max == 12, "IV size");
	TEST_ASSERT_SUCCESS(rte_cryptodev_sym_capability_check_aead(cap, 32,
								    16, 16,
								    12),
			    "AES-256-GCM");
	idx.type = RTE_CRYPTO_SYM_XFORM_CIPHER;
	idx.algo.cipher = RTE_CRYPTO_CIPHER_AES_XTS;
	TEST_ASSERT_NOT_NULL(rte_cryptodev_sym_capability_get(id, &idx),
			     "AES-XTS still offered");
	TEST_ASSERT_SUCCESS(dev_down(id), "down");
	return TEST_SUCCESS;
}

/* Test cases 4, 16, 2, 14: encrypt then decrypt, contiguous (AAD copied
 * before the text), scattered (UMR) and in one mbuf with the digest in
 * another (encrypt: UMR; decrypt: the tag copied after the text); 96-bit
 * tags of cases 4 and 16.
 */
static int
test_gcm_kat(void)
{
	static const uint16_t split[] = { 25, 0 };
	static const uint16_t split16[] = { 7, 0 };
	static const uint16_t apart[] = { 0 }; /* One mbuf, digest apart. */
	struct heap_use before;
	unsigned int i;
	uint8_t id;

	TEST_ASSERT_SUCCESS(dev_up("dev=emu", &id), "device");
	/* Warm-up: the pools' memory registered. */
	TEST_ASSERT_EQUAL(gcm_op(id, &gcm_vecs[0], 1, NULL, 0), 0, "warm");
	TEST_ASSERT_EQUAL(gcm_op(id, &gcm_vecs[0], 1, split, 0), 0, "warm");
	heap_use(&before);
	for (i = 0; i < RTE_DIM(gcm_vecs); i++) {
		const uint16_t *sp = gcm_vecs[i].len > 25 ? split : split16;

		TEST_ASSERT_EQUAL(gcm_op(id, &gcm_vecs[i], 1, NULL, 0), 0,
				  "vector %u encrypt", i);
		TEST_ASSERT_EQUAL(gcm_op(id, &gcm_vecs[i], 0, NULL, 0), 0,
				  "vector %u decrypt", i);
		TEST_ASSERT_EQUAL(gcm_op(id, &gcm_vecs[i], 1, sp, 0), 0,
				  "vector %u encrypt SGL", i);
		TEST_ASSERT_EQUAL(gcm_op(id, &gcm_vecs[i], 0, sp, 0), 0,
				  "vector %u decrypt SGL", i);
		TEST_ASSERT_EQUAL(gcm_op(id, &gcm_vecs[i], 1, apart, 0), 0,
				  "vector %u encrypt, digest apart", i);
		TEST_ASSERT_EQUAL(gcm_op(id, &gcm_vecs[i], 0, apart, 0), 0,
				  "vector %u decrypt, digest apart", i);
	}
	/* 96-bit tags: vectors 4 and 16, contiguous and scattered. */
	gcm_digest = 12;
	for (i = 0; i < 2; i++) {
		TEST_ASSERT_EQUAL(gcm_op(id, &gcm_vecs[i], 1, NULL, 0), 0,
				  "vector %u encrypt, 96-bit tag", i);
		TEST_ASSERT_EQUAL(gcm_op(id, &gcm_vecs[i], 0, split, 0), 0,
				  "vector %u decrypt SGL, 96-bit tag", i);
		TEST_ASSERT_EQUAL(gcm_op(id, &gcm_vecs[i], 0, NULL, 0x40),
				  RTE_CRYPTO_OP_STATUS_SUCCESS,
				  "vector %u: byte 15 is no part of a 96-bit tag",
				  i);
	}
	gcm_digest = 16;
	TEST_ASSERT_SUCCESS(heap_unchanged(&before, "GCM operations"),
			    "leak");
	TEST_ASSERT_SUCCESS(dev_down(id), "down");
	return TEST_SUCCESS;
}

/* A wrong tag: AUTH_FAILED (contiguous and scattered); the queue pair is
 * reset and goes on; AES-XTS then runs on the slots GCM used.
 */
static int
test_gcm_auth_failed(void)
{
	static const uint16_t split[] = { 25, 0 };
	unsigned int i;
	uint8_t id;

	TEST_ASSERT_SUCCESS(dev_up("dev=emu", &id), "device");
	TEST_ASSERT_EQUAL(gcm_op(id, &gcm_vecs[0], 0, NULL, 1),
			  RTE_CRYPTO_OP_STATUS_AUTH_FAILED, "contiguous");
	TEST_ASSERT_EQUAL(gcm_op(id, &gcm_vecs[1], 0, NULL, 0), 0, "after");
	TEST_ASSERT_EQUAL(gcm_op(id, &gcm_vecs[0], 0, split, 0x80),
			  RTE_CRYPTO_OP_STATUS_AUTH_FAILED, "scattered");
	TEST_ASSERT_EQUAL(gcm_op(id, &gcm_vecs[0], 0, split, 0), 0, "after");
	TEST_ASSERT_EQUAL(gcm_op(id, &gcm_vecs[2], 0, split + 1, 2),
			  RTE_CRYPTO_OP_STATUS_AUTH_FAILED, "digest apart");
	/* Every slot of the ring once GCM, then AES-XTS on them. */
	for (i = 0; i < C_QDESC; i++)
		TEST_ASSERT_EQUAL(gcm_op(id, &gcm_vecs[i & 3], 1,
					 i & 4 ? split : NULL, 0), 0,
				  "GCM %u", i);
	for (i = 0; i < 4; i++)
		TEST_ASSERT_SUCCESS(kat_one(id, &kat_cases[i], 1),
				    "AES-XTS %s after GCM", kat_cases[i].name);
	TEST_ASSERT_SUCCESS(dev_down(id), "down");
	return TEST_SUCCESS;
}

/* Bad GCM sessions: refused with a log line, the heap as before. */
static int
test_gcm_bad_session(void)
{
	static const char *const msg = "AES-GCM op";
	struct gcm_vec v = gcm_vecs[0];
	struct rte_cryptodev_sym_session *s;
	FILE *old = rte_log_get_stream(), *log;
	struct heap_use before;
	unsigned int i;
	char *buf = NULL;
	size_t len = 0;
	uint8_t id;

	TEST_ASSERT_SUCCESS(dev_up("dev=emu", &id), "device");
	s = gcm_sess(id, &v, 1, 16);
	TEST_ASSERT_NOT_NULL(s, "good session");
	TEST_ASSERT_SUCCESS(rte_cryptodev_sym_session_free(id, s), "free");
	heap_use(&before);
	for (i = 0; i < 3; i++) {
		v = gcm_vecs[0];
		if (i == 0)
			v.key_len = 24; /* No 192-bit GCM on the device. */
		log = open_memstream(&buf, &len);
		TEST_ASSERT_NOT_NULL(log, "memstream");
		rte_openlog_stream(log);
		s = gcm_sess(id, &v, 1, i == 1 ? 8 : i == 2 ? 13 : 16);
		rte_openlog_stream(old);
		fclose(log);
		TEST_ASSERT_NULL(s, "bad session %u accepted", i);
		TEST_ASSERT(buf != NULL && strstr(buf, msg) != NULL,
			    "bad session %u: no log line", i);
		free(buf);
		buf = NULL;
	}
	TEST_ASSERT_SUCCESS(heap_unchanged(&before, "bad GCM sessions"),
			    "leak");
	TEST_ASSERT_SUCCESS(dev_down(id), "down");
	return TEST_SUCCESS;
}

static struct unit_test_suite crypto_gcm_suite = {
	.suite_name = "crypto_gcm",
	.setup = crypto_suite_setup,
	.teardown = crypto_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_gcm_capability),
		TEST_CASE(test_gcm_kat),
		TEST_CASE(test_gcm_auth_failed),
		TEST_CASE(test_gcm_bad_session),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(crypto_gcm, crypto_gcm_suite);
