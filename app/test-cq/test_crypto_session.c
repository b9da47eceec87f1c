/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "crypto_session": good session parameters (both key sizes, both
 * directions, every data-unit length of the capability) make sessions
 * that share a DEK per key; bad ones are refused with a log line; no
 * memory and no descriptor is left.
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

/* Good sessions: both key sizes, both directions, every data-unit length
 * of the capability; sessions of one key share a DEK; after they are all
 * freed the heap is as before.
 */
static int
test_crypto_sessions(void)
{
	static const uint32_t du[] = { 0, 512, 4096, 1u << 20 };
	struct rte_cryptodev_sym_session *s[2 * 2 * RTE_DIM(du)];
	const struct rte_cryptodev_symmetric_capability *cap;
	struct rte_cryptodev_sym_capability_idx idx = {
		.type = RTE_CRYPTO_SYM_XFORM_CIPHER,
		.algo.cipher = RTE_CRYPTO_CIPHER_AES_XTS,
	};
	struct rte_crypto_sym_xform x;
	struct rte_cryptodev_info info;
	struct heap_use before, one, after;
	unsigned int i, n = 0;
	uint8_t id;

	TEST_ASSERT_SUCCESS(dev_cfg(&id), "device");
	rte_cryptodev_info_get(id, &info);
	TEST_ASSERT(info.feature_flags & RTE_CRYPTODEV_FF_SYMMETRIC_CRYPTO &&
		    info.feature_flags & RTE_CRYPTODEV_FF_IN_PLACE_SGL &&
		    info.feature_flags & RTE_CRYPTODEV_FF_OOP_SGL_IN_SGL_OUT &&
		    info.feature_flags &
		    RTE_CRYPTODEV_FF_CIPHER_MULTIPLE_DATA_UNITS &&
		    !(info.feature_flags & RTE_CRYPTODEV_FF_CIPHER_WRAPPED_KEY),
		    "feature flags %#" PRIx64, info.feature_flags);
	cap = rte_cryptodev_sym_capability_get(id, &idx);
	TEST_ASSERT_NOT_NULL(cap, "no AES-XTS capability");
	TEST_ASSERT_SUCCESS(rte_cryptodev_sym_capability_check_cipher(cap, 32,
								      16),
			    "AES-128-XTS");
	TEST_ASSERT_SUCCESS(rte_cryptodev_sym_capability_check_cipher(cap, 64,
								      16),
			    "AES-256-XTS");
	TEST_ASSERT_FAIL(rte_cryptodev_sym_capability_check_cipher(cap, 48,
								   16),
			 "48-byte key in plaintext mode");
	TEST_ASSERT_EQUAL(cap->cipher.dataunit_set,
			  (RTE_CRYPTO_CIPHER_DATA_UNIT_LEN_512_BYTES |
			   RTE_CRYPTO_CIPHER_DATA_UNIT_LEN_4096_BYTES |
			   RTE_CRYPTO_CIPHER_DATA_UNIT_LEN_1_MEGABYTES),
			  "data units %#x", cap->cipher.dataunit_set);
	heap_use(&before);
	/* Two sessions of one key: one DEK (one allocation more than the
	 * first session alone would need is the second session only).
	 */
	crypto_xform_fill(&x, xts_v4_key, 32, RTE_CRYPTO_CIPHER_OP_ENCRYPT,
			  0);
	s[n] = rte_cryptodev_sym_session_create(id, &x, c_pools.sess);
	TEST_ASSERT_NOT_NULL(s[n++], "first session");
	heap_use(&one);
	s[n] = rte_cryptodev_sym_session_create(id, &x, c_pools.sess);
	TEST_ASSERT_NOT_NULL(s[n++], "second session");
	heap_use(&after);
	TEST_ASSERT(after.alloc_count == one.alloc_count &&
		    one.alloc_count > before.alloc_count,
		    "DEK not shared: allocations %" PRIu64 " -> %" PRIu64
		    " -> %" PRIu64, before.alloc_count, one.alloc_count,
		    after.alloc_count);
	for (i = 0; i < RTE_DIM(du); i++) {
		crypto_xform_fill(&x, xts_v10_key, 64, i & 1 ?
				  RTE_CRYPTO_CIPHER_OP_DECRYPT :
				  RTE_CRYPTO_CIPHER_OP_ENCRYPT, du[i]);
		s[n] = rte_cryptodev_sym_session_create(id, &x, c_pools.sess);
		TEST_ASSERT_NOT_NULL(s[n++], "AES-256-XTS du %u", du[i]);
		crypto_xform_fill(&x, xts_v4_key, 32, i & 1 ?
				  RTE_CRYPTO_CIPHER_OP_ENCRYPT :
				  RTE_CRYPTO_CIPHER_OP_DECRYPT, du[i]);
		s[n] = rte_cryptodev_sym_session_create(id, &x, c_pools.sess);
		TEST_ASSERT_NOT_NULL(s[n++], "AES-128-XTS du %u", du[i]);
	}
	for (i = 0; i < n; i++)
		TEST_ASSERT_SUCCESS(rte_cryptodev_sym_session_free(id, s[i]),
				    "free %u", i);
	TEST_ASSERT_SUCCESS(heap_unchanged(&before, "sessions"), "leak");
	TEST_ASSERT_SUCCESS(dev_down(id), "device down");
	return TEST_SUCCESS;
}

/* Bad session parameters: refused with a log line; no memory, no
 * descriptor left.
 */
static int
test_crypto_bad_session(void)
{
	static const uint8_t key48[48] = { 1 };
	static const uint8_t zero[32];
	static const char *const msg[] = {
		"cipher algorithm",
		"AES-XTS key of 48 bytes: plaintext keys are 32 or 64 bytes",
		"IV of 12 bytes",
		"data-unit length 1024 not supported",
		"chained transforms are not supported",
		"transform type",
		"DEK creation (128-bit key) failed",
	};
	struct rte_crypto_sym_xform x, auth;
	struct rte_cryptodev_sym_session *s;
	struct heap_use before;
	FILE *old = rte_log_get_stream(), *log;
	unsigned int fds, i;
	char *buf = NULL;
	size_t len = 0;
	uint8_t id;
	int found;

	TEST_ASSERT_SUCCESS(dev_cfg(&id), "device");
	/* Warm up the session pool. */
	crypto_xform_fill(&x, xts_v4_key, 32, RTE_CRYPTO_CIPHER_OP_ENCRYPT,
			  0);
	s = rte_cryptodev_sym_session_create(id, &x, c_pools.sess);
	TEST_ASSERT_NOT_NULL(s, "good session");
	TEST_ASSERT_SUCCESS(rte_cryptodev_sym_session_free(id, s), "free");
	heap_use(&before);
	fds = open_fds();
	for (i = 0; i < RTE_DIM(msg); i++) {
		crypto_xform_fill(&x, xts_v4_key, 32,
				  RTE_CRYPTO_CIPHER_OP_ENCRYPT, 0);
		switch (i) {
		case 0:
			x.cipher.algo = RTE_CRYPTO_CIPHER_AES_CBC;
			break;
		case 1:
			x.cipher.key.data = key48;
			x.cipher.key.length = 48;
			break;
		case 2:
			x.cipher.iv.length = 12;
			break;
		case 3:
			x.cipher.dataunit_len = 1024;
			break;
		case 4:
			memset(&auth, 0, sizeof(auth));
			auth.type = RTE_CRYPTO_SYM_XFORM_AUTH;
			x.next = &auth;
			break;
		case 5:
			x.type = RTE_CRYPTO_SYM_XFORM_AUTH;
			break;
		case 6: /* Equal halves: the device refuses the DEK. */
			x.cipher.key.data = zero;
			break;
		}
		log = open_memstream(&buf, &len);
		TEST_ASSERT_NOT_NULL(log, "memstream");
		rte_openlog_stream(log);
		s = rte_cryptodev_sym_session_create(id, &x, c_pools.sess);
		rte_openlog_stream(old);
		fclose(log);
		found = buf != NULL && strstr(buf, msg[i]) != NULL;
		if (!found)
			printf("  case %u: no \"%s\" in:\n%s\n", i, msg[i],
			       buf ? buf : "");
		free(buf);
		buf = NULL;
		TEST_ASSERT_NULL(s, "bad session %u accepted", i);
		TEST_ASSERT(found, "bad session %u: log line", i);
	}
	TEST_ASSERT_SUCCESS(heap_unchanged(&before, "bad sessions"), "leak");
	TEST_ASSERT_EQUAL(open_fds(), fds, "file descriptors leaked");
	TEST_ASSERT_SUCCESS(dev_down(id), "device down");
	return TEST_SUCCESS;
}

static struct unit_test_suite crypto_session_suite = {
	.suite_name = "crypto_session",
	.setup = crypto_suite_setup,
	.teardown = crypto_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_crypto_sessions),
		TEST_CASE(test_crypto_bad_session),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(crypto_session, crypto_session_suite);
