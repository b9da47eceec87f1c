/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "crypto_kat": known answers through the cryptodev API: IEEE 1619
 * XTS-AES vectors 4 and 10 with plaintext keys (every buffer layout of
 * the fixture's cases), and vector 4 through a key wrapped by the import
 * KEK of a provisioned device.
 * The fixture (devices, pools, known-answer cases) is
 * test_crypto_fixture.c.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>
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

/* IEEE 1619 vectors 4 and 10 both ways, every buffer layout. */
static int
test_crypto_kat(void)
{
	struct rte_cryptodev_stats st;
	struct heap_use before;
	unsigned int i, n = 0;
	uint8_t id;

	heap_use(&before);
	TEST_ASSERT_SUCCESS(dev_up("dev=emu,key_mode=plaintext", &id),
			    "device up");
	for (i = 0; i < RTE_DIM(kat_cases); i++) {
		TEST_ASSERT_SUCCESS(kat_one(id, &kat_cases[i], 1),
				    "%s encrypt", kat_cases[i].name);
		TEST_ASSERT_SUCCESS(kat_one(id, &kat_cases[i], 0),
				    "%s decrypt", kat_cases[i].name);
		n += 2;
	}
	TEST_ASSERT_SUCCESS(rte_cryptodev_stats_get(id, &st), "stats");
	TEST_ASSERT(st.enqueued_count == n && st.dequeued_count == n &&
		    st.enqueue_err_count == 0 && st.dequeue_err_count == 0,
		    "stats %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64
		    ", %u operations", st.enqueued_count, st.dequeued_count,
		    st.enqueue_err_count, st.dequeue_err_count, n);
	TEST_ASSERT_SUCCESS(dev_down(id), "device down");
	TEST_ASSERT_SUCCESS(heap_unchanged_devs(&before, 1,
						"known-answer device"),
			    "leak");
	return TEST_SUCCESS;
}

/*
 * Wrapped keys end to end: an emulated HCA provisioned as a card the
 * crypto officer has set up (caps.crypto_provisioned: an AES-256 import
 * KEK, the key of RFC 3394 section 4.6, and a 40-byte credential, at
 * MLX5_EMU_PROV_KEK_ID / MLX5_EMU_PROV_CRED_ID); the PMD logs in at probe
 * with the credential wrapped by that KEK (devargs credential_id,
 * import_kek_id, credential, keytag). IEEE 1619 vector 4 then goes
 * through a session whose key is Key1 || Key2 || keytag wrapped by the
 * KEK (48 bytes), encrypt and decrypt in place, exact. The same key
 * wrapped by another KEK is refused by the device at session creation.
 * Wraps are made here with OpenSSL's AES key wrap (itself checked against
 * RFC 3394 by the emu_crypto suite). Nothing left after removal.
 */
#define W_KEYTAG 0x1122334455667788ull

static int
wrapped_session_run(uint8_t id, const uint8_t wkey[48], int encrypt)
{
	uint8_t pt[512], iv[16] = { 0 };
	const uint8_t *in = encrypt ? pt : xts_v4_ctx;
	const uint8_t *want = encrypt ? xts_v4_ctx : pt;
	struct rte_crypto_sym_xform x;
	struct rte_cryptodev_sym_session *sess;
	struct rte_crypto_op *op;
	struct rte_mbuf *m;
	unsigned int i;
	int ret = -1;

	for (i = 0; i < sizeof(pt); i++)
		pt[i] = (uint8_t)i;
	crypto_xform_fill(&x, wkey, 48, encrypt ? RTE_CRYPTO_CIPHER_OP_ENCRYPT :
			  RTE_CRYPTO_CIPHER_OP_DECRYPT, 512);
	sess = rte_cryptodev_sym_session_create(id, &x, c_pools.sess);
	if (sess == NULL) {
		printf("  wrapped session: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	op = rte_crypto_op_alloc(c_pools.op, RTE_CRYPTO_OP_TYPE_SYMMETRIC);
	m = chain_make(in, sizeof(pt), NULL);
	if (op != NULL && m != NULL) {
		rte_crypto_op_attach_sym_session(op, sess);
		op->sym->m_src = m;
		op->sym->cipher.data.offset = 0;
		op->sym->cipher.data.length = sizeof(pt);
		memcpy(rte_crypto_op_ctod_offset(op, uint8_t *, CRYPTO_IV_OFF),
		       iv, 16);
		if (op_run(id, op) == RTE_CRYPTO_OP_STATUS_SUCCESS &&
		    memcmp(rte_pktmbuf_mtod(m, uint8_t *), want, 512) == 0)
			ret = 0;
		else
			printf("  wrapped %s: status %d or output differs "
			       "from IEEE 1619\n", encrypt ? "encrypt" :
			       "decrypt", op->status);
	}
	rte_pktmbuf_free(m);
	rte_crypto_op_free(op);
	rte_cryptodev_sym_session_free(id, sess);
	return ret;
}

/* The wrapped credential's file, in DPDK's wcs_file format. */
#define WCS_FILE "/tmp/mlx5cq_test_wcs"

/*
 * A provisioned wrapped device: login with the credential given as
 * credential= (mode 0) or, as crypto/mlx5 takes it, read from the file of
 * wcs_file= (mode 1: upper-case hex, spaces and line breaks); mode 2: the
 * device provisioned through the devargs emu_kek= and emu_credential=
 * (as dpdk-test-crypto-perf runs it) instead of mlx5_emu_open_caps_set().
 */
static int
wrapped_kat(int mode)
{
	static const uint8_t kek[32] = { /* RFC 3394 4.6: 000102..1F. */
		0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
		0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
		0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
		0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
	};
	uint8_t cred[40], wcred[48], plain[40], wkey[48], other[32];
	char args[512], hex[97], khex[65], chex[81];
	struct mlx5_emu_caps caps;
	struct rte_crypto_sym_xform x;
	struct heap_use before;
	unsigned int i;
	uint8_t id;
	int ok;

	for (i = 0; i < sizeof(cred); i++)
		cred[i] = (uint8_t)(0xc0 + i);
	memcpy(plain, xts_v4_key, 32);
	for (i = 0; i < 8; i++) /* The keytag, big endian as in the BSF. */
		plain[32 + i] = (uint8_t)(W_KEYTAG >> (56 - 8 * i));
	TEST_ASSERT(crypto_key_wrap(kek, 32, cred, 40, wcred) == 0 &&
		    crypto_key_wrap(kek, 32, plain, 40, wkey) == 0, "wrap");
	for (i = 0; i < 48; i++)
		snprintf(hex + 2 * i, 3, "%02x", wcred[i]);
	for (i = 0; i < 32; i++)
		snprintf(khex + 2 * i, 3, "%02x", kek[i]);
	for (i = 0; i < 40; i++)
		snprintf(chex + 2 * i, 3, "%02X", cred[i]);
	if (mode == 1) {
		FILE *f = fopen(WCS_FILE, "w");

		TEST_ASSERT_NOT_NULL(f, "wcs file");
		for (i = 0; i < 48; i++)
			fprintf(f, "%02X%s", wcred[i], i % 16 == 15 ? "\n" : " ");
		fclose(f);
		snprintf(args, sizeof(args), "dev=emu,key_mode=wrapped,"
			 "credential_id=%u,import_kek_id=%u,wcs_file=%s,"
			 "keytag=0x%" PRIx64, MLX5_EMU_PROV_CRED_ID,
			 MLX5_EMU_PROV_KEK_ID, WCS_FILE, (uint64_t)W_KEYTAG);
	} else {
		snprintf(args, sizeof(args), "dev=emu,key_mode=wrapped,"
			 "credential_id=%u,import_kek_id=%u,credential=%s,"
			 "keytag=0x%" PRIx64 "%s%s%s%s", MLX5_EMU_PROV_CRED_ID,
			 MLX5_EMU_PROV_KEK_ID, hex, (uint64_t)W_KEYTAG,
			 mode == 2 ? ",emu_crypto=wrapped,emu_kek=" : "",
			 mode == 2 ? khex : "",
			 mode == 2 ? ",emu_credential=" : "",
			 mode == 2 ? chex : "");
	}
	mlx5_emu_caps_default(&caps);
	caps.crypto = 1;
	caps.crypto_wrapped = 1;
	caps.crypto_provisioned = 1;
	caps.crypto_kek_len = 32;
	memcpy(caps.crypto_kek, kek, 32);
	memcpy(caps.crypto_credential, cred, 40);
	heap_use(&before);
	/* Mode 2: the devargs provision the device (no caps set here). */
	ok = crypto_dev_up_caps(C_NAME, args, mode == 2 ? NULL : &caps,
				C_QDESC, c_pools.sess, &id) == 0;
	if (mode == 1)
		unlink(WCS_FILE);
	TEST_ASSERT(ok, "device up, logged in with the provisioned KEK");
	ok = wrapped_session_run(id, wkey, 1) == 0 &&
	     wrapped_session_run(id, wkey, 0) == 0;
	/* Another KEK's wrap: the device refuses the DEK. */
	for (i = 0; i < sizeof(other); i++)
		other[i] = (uint8_t)(kek[i] ^ 0x5a);
	TEST_ASSERT_SUCCESS(crypto_key_wrap(other, 32, plain, 40, wkey),
			    "wrap");
	crypto_xform_fill(&x, wkey, 48, RTE_CRYPTO_CIPHER_OP_ENCRYPT, 512);
	TEST_ASSERT(rte_cryptodev_sym_session_create(id, &x, c_pools.sess) ==
		    NULL, "a key of another KEK accepted");
	TEST_ASSERT_SUCCESS(dev_down(id), "device down");
	TEST_ASSERT(ok, "IEEE 1619 vector 4 through a wrapped key");
	TEST_ASSERT_SUCCESS(heap_unchanged_devs(&before, 1, "wrapped device"),
			    "leak");
	return TEST_SUCCESS;
}

static int
test_crypto_wrapped_kat(void)
{
	TEST_ASSERT_SUCCESS(wrapped_kat(0), "credential=");
	TEST_ASSERT_SUCCESS(wrapped_kat(1), "wcs_file=");
	TEST_ASSERT_SUCCESS(wrapped_kat(2), "emu_kek= and emu_credential=");
	return TEST_SUCCESS;
}

static struct unit_test_suite crypto_kat_suite = {
	.suite_name = "crypto_kat",
	.setup = crypto_suite_setup,
	.teardown = crypto_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_crypto_kat),
		TEST_CASE(test_crypto_wrapped_kat),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(crypto_kat, crypto_kat_suite);
