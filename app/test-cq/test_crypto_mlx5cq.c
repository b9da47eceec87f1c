/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "crypto_mlx5cq": the cryptodev PMD on the emulated HCA through the
 * cryptodev API. Devices are made with rte_vdev_init("crypto_mlx5cq..",
 * "dev=emu,...") on emulated devices whose capabilities are set with
 * mlx5_emu_open_caps_set() (crypto engine on, plaintext or wrapped key
 * import). Known answers are IEEE 1619 XTS-AES vectors 4 and 10
 * (test_xts_vectors.h), encrypted and decrypted in place and out of place,
 * contiguous and scattered over mbuf chains, with and without a session
 * data-unit length. Bad devargs and bad session parameters are refused
 * with a log line, and leave the rte_malloc heap and the open file
 * descriptors as they were.
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
#include "test_crypto_util.h"
#include "test_net_util.h"
#include "test_usage.h"
#include "test_wait.h"
#include "test_xts_vectors.h"

#define C_NAME "crypto_mlx5cq_t0"
#define C_NB_MBUF 256
#define C_QDESC 64

static struct crypto_pools c_pools;

static int
crypto_suite_setup(void)
{
	return crypto_pools_make(&c_pools, "crypto_mlx5cq_t", C_NB_MBUF);
}

static void
crypto_suite_teardown(void)
{
	crypto_pools_free(&c_pools);
}

/* Probe C_NAME with args; refused with a log line holding want, no
 * cryptodev left: 0. */
static int
probe_refused(const char *args, const char *want)
{
	uint8_t nb = rte_cryptodev_count();
	FILE *old = rte_log_get_stream(), *log;
	char *buf = NULL;
	size_t len = 0;
	int ret = 0;

	log = open_memstream(&buf, &len);
	if (log == NULL)
		return -1;
	rte_openlog_stream(log);
	if (rte_eal_hotplug_add("vdev", C_NAME, args) == 0) {
		printf("  \"%s\" probed\n", args);
		rte_eal_hotplug_remove("vdev", C_NAME);
		ret = -1;
	}
	rte_openlog_stream(old);
	fclose(log);
	if (rte_cryptodev_count() != nb)
		ret = -1;
	if (ret == 0 && (buf == NULL || strstr(buf, want) == NULL)) {
		printf("  \"%s\": no \"%s\" in the log:\n%s\n", args, want,
		       buf ? buf : "");
		ret = -1;
	}
	free(buf);
	return ret;
}

/* 0 when the heap use is what before holds, else -1 with a line. */
static int
heap_unchanged(const struct heap_use *before, const char *what)
{
	struct heap_use after;

	heap_use(&after);
	if (before->heap_bytes == after.heap_bytes &&
	    before->alloc_count == after.alloc_count)
		return 0;
	printf("  %s leaked: %" PRIu64 " B / %" PRIu64 " allocations -> %"
	       PRIu64 " B / %" PRIu64 "\n", what, before->heap_bytes,
	       before->alloc_count, after.heap_bytes, after.alloc_count);
	return -1;
}

#define CRED96 "000102030405060708090a0b0c0d0e0f101112131415161718191a1b" \
	       "1c1d1e1f202122232425262728292a2b2c2d2e2f"

/* Bad devargs and devices: refused with a log line naming the cause,
 * nothing left behind. */
static int
test_crypto_bad_devargs(void)
{
	static const struct {
		int crypto;
		const char *args;
		const char *msg;
	} bad[] = {
		{ 1, "dev=emu,foo=1", "unknown key foo" },
		{ 1, "", "dev= is required" },
		{ 1, "dev=emu,max_segs_num=0", "bad value \"0\" for max_segs_num" },
		{ 1, "dev=emu,max_segs_num=x",
		  "bad value \"x\" for max_segs_num" },
		{ 1, "dev=emu,credential_id=0x1000000",
		  "bad value \"0x1000000\" for credential_id" },
		{ 1, "dev=emu,import_kek_id=-1",
		  "bad value \"-1\" for import_kek_id" },
		{ 1, "dev=emu,keytag=12z", "bad value \"12z\" for keytag" },
		{ 1, "dev=emu,key_mode=clear",
		  "bad value \"clear\" for key_mode" },
		{ 1, "dev=emu,credential=abcd",
		  "bad value for credential: 96 hex digits expected" },
		{ 1, "dev=emu,key_mode=plaintext,credential=" CRED96,
		  "credential applies to key_mode=wrapped only" },
		{ 1, "dev=no_such_ibdev", "dev=no_such_ibdev: no such RDMA" },
		{ 1, "dev=no_such_ibdev,emu_crypto=plaintext",
		  "emu_crypto applies to dev=emu only" },
		{ 1, "dev=emu,emu_crypto=on", "bad value \"on\" for emu_crypto" },
		/* Devices without the crypto engine. */
		{ 0, "dev=emu", "the device has no AES-XTS crypto" },
		/* Plaintext device: wrapped mode or a credential refused. */
		{ 1, "dev=emu,key_mode=wrapped",
		  "key_mode=wrapped: the device imports plaintext keys" },
		{ 1, "dev=emu,credential=" CRED96,
		  "credential applies to wrapped keys" },
		/* Wrapped device: a credential is needed, and must log in. */
		{ 1, "dev=emu,emu_crypto=wrapped",
		  "credential= (with credential_id and import_kek_id) is "
		  "required" },
		{ 1, "dev=emu,emu_crypto=wrapped,key_mode=plaintext",
		  "key_mode=plaintext: the device imports wrapped keys only" },
		{ 1, "dev=emu,emu_crypto=wrapped,credential_id=5,"
		  "import_kek_id=6,credential=" CRED96,
		  "crypto login (credential_id 5, import_kek_id 6) refused" },
		/* WQEs larger than the device's send WQEs. */
		{ 1, "dev=emu,max_segs_num=4096", "max_segs_num=4096: WQEs" },
	};
	struct heap_use before;
	unsigned int i, fds;

	/* Warm up: the first device of a process makes cryptodev data. */
	TEST_ASSERT_SUCCESS(crypto_caps(1, 0), "caps");
	TEST_ASSERT_SUCCESS(rte_eal_hotplug_add("vdev", C_NAME, "dev=emu"),
			    "probe");
	TEST_ASSERT_SUCCESS(rte_eal_hotplug_remove("vdev", C_NAME), "remove");
	heap_use(&before);
	fds = open_fds();
	for (i = 0; i < RTE_DIM(bad); i++) {
		TEST_ASSERT_SUCCESS(crypto_caps(bad[i].crypto, 0), "caps");
		TEST_ASSERT_SUCCESS(probe_refused(bad[i].args, bad[i].msg),
				    "devargs \"%s\"", bad[i].args);
	}
	mlx5_emu_open_caps_set(NULL);
	TEST_ASSERT_SUCCESS(heap_unchanged(&before, "bad probes"), "leak");
	TEST_ASSERT_EQUAL(open_fds(), fds, "file descriptors leaked");
	return TEST_SUCCESS;
}

static int
dev_down(uint8_t id)
{
	return crypto_dev_down(C_NAME, id);
}

/* A configured device (no queue pair) on a plaintext-key engine. */
static int
dev_cfg(uint8_t *id)
{
	return crypto_dev_up(C_NAME, "dev=emu", 0, c_pools.sess, id);
}

/* Good sessions: both key sizes, both directions, every data-unit length
 * of the capability; sessions of one key share a DEK; after they are all
 * freed the heap is as before. */
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
			  RTE_CRYPTO_CIPHER_DATA_UNIT_LEN_512_BYTES |
			  RTE_CRYPTO_CIPHER_DATA_UNIT_LEN_4096_BYTES |
			  RTE_CRYPTO_CIPHER_DATA_UNIT_LEN_1_MEGABYTES,
			  "data units %#x", cap->cipher.dataunit_set);
	heap_use(&before);
	/* Two sessions of one key: one DEK (one allocation more than the
	 * first session alone would need is the second session only). */
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
 * descriptor left. */
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

static struct unit_test_suite crypto_mlx5cq_suite = {
	.suite_name = "crypto_mlx5cq",
	.setup = crypto_suite_setup,
	.teardown = crypto_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_crypto_bad_devargs),
		TEST_CASE(test_crypto_sessions),
		TEST_CASE(test_crypto_bad_session),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(crypto_mlx5cq, crypto_mlx5cq_suite);
