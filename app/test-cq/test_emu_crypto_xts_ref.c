/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_crypto_xts_ref": the emulated HCA's AES-XTS against
 * OpenSSL's own EVP aes-128-xts / aes-256-xts over seeded random keys,
 * tweaks, lengths (16..4096 bytes, many not a multiple of 16: ciphertext
 * stealing), 512-byte and 4096-byte data units, encryption and
 * decryption, in place or not, contiguous or gathered and scattered.
 * Every message goes through the crypto QP as a PMD posts it (UMR with
 * the crypto BSF, RDMA write through the crypto mkey); the expectation is
 * OpenSSL's aes-xts run data unit by data unit, each unit's tweak the
 * previous one plus one read as a little-endian number (IEEE 1619 data
 * unit sequence numbers, as the PRM's xts_initial_tweak is used).
 */

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <rte_malloc.h>

#include "test.h"
#include "test_usage.h"
#include "test_xts_fix.h"

#define REF_SEED UINT64_C(0x5eed0f1619)
#define REF_CASES 160
#define REF_MAX 4096
#define REF_SRC 0 /* Offsets in the fixture's buffer. */
#define REF_DST 16384
#define REF_GAP 48 /* Between the two targets of a scattered message. */
#define BSP_4096 3

static uint64_t
rnd(uint64_t *s)
{
	/* xorshift64*. */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

static void
rnd_bytes(uint64_t *s, uint8_t *p, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(rnd(s) >> 32);
}

/* OpenSSL's aes-xts of one message, unit by unit; 0 or -1. */
static int
ref_xts(const uint8_t *key, unsigned int half, int enc,
	const uint8_t tweak[16], uint32_t du, const uint8_t *in,
	uint8_t *out, uint32_t len)
{
	const EVP_CIPHER *c = half == 16 ? EVP_aes_128_xts() :
			      EVP_aes_256_xts();
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	uint8_t t[16];
	uint32_t off, n, i;
	int outl, ret = 0;

	if (ctx == NULL)
		return -1;
	memcpy(t, tweak, sizeof(t));
	for (off = 0; off < len && ret == 0; off += n) {
		n = len - off < du ? len - off : du;
		if (EVP_CipherInit_ex(ctx, c, NULL, key, t, enc) != 1 ||
		    EVP_CipherUpdate(ctx, out + off, &outl, in + off,
				     (int)n) != 1 || outl != (int)n)
			ret = -1;
		for (i = 0; i < 16; i++)
			if (++t[i] != 0)
				break;
	}
	EVP_CIPHER_CTX_free(ctx);
	return ret;
}

/* One random message through the QP with DEK id (key of 2 * half
 * bytes), compared with OpenSSL.
 */
static int
ref_msg(struct xfix *f, uint64_t *s, unsigned int i, const uint8_t *key,
	unsigned int half, uint32_t id)
{
	uint8_t want[REF_MAX], in[REF_MAX], *dst;
	struct seg src[2], tgt[2];
	uint32_t du, len, cut;
	unsigned int nsrc, ndst;
	int enc, inplace;
	struct bsf_p b;
	uint16_t idx;

	du = (rnd(s) & 1) ? 4096 : 512;
	if (du == 512 && (rnd(s) & 1))
		len = 512 * (uint32_t)(1 + rnd(s) % 8); /* Whole units. */
	else
		len = 16 + (uint32_t)(rnd(s) % (du - 15)); /* One unit. */
	enc = (int)(rnd(s) & 1);
	inplace = (rnd(s) & 3) == 0;
	bsf_init(&b, id, len);
	b.order = enc ? ORDER_RAW_MEMORY : ORDER_RAW_WIRE;
	b.bsp = du == 512 ? BSP_512 : BSP_4096;
	rnd_bytes(s, b.tweak, sizeof(b.tweak));
	if (i % 8 == 7) /* Carries through the 128-bit unit number. */
		memset(b.tweak, 0xff, 12);
	rnd_bytes(s, in, len);
	memcpy(f->buf + REF_SRC, in, len);
	TEST_ASSERT_SUCCESS(ref_xts(key, half, enc, b.tweak, du, in, want,
				    len), "case %u: OpenSSL", i);
	dst = inplace ? f->buf + REF_SRC : f->buf + REF_DST;
	nsrc = ndst = 1;
	src[0] = (struct seg){ len, f->mr->lkey, f->buf + REF_SRC };
	tgt[0] = (struct seg){ len, f->mr->lkey, dst };
	cut = 1 + (uint32_t)(rnd(s) % (len - 1));
	if (!inplace && (rnd(s) & 1)) { /* Gathered and scattered. */
		src[0].len = cut;
		src[1] = (struct seg){ len - cut, f->mr->lkey,
				       f->buf + REF_SRC + cut };
		tgt[0].len = len - cut;
		tgt[1] = (struct seg){ cut, f->mr->lkey,
				       dst + len - cut + REF_GAP };
		nsrc = ndst = 2;
	}
	post_umr(f, tgt, ndst, len, &b);
	idx = post_write(f, src, nsrc, 0, f->mkey_key);
	ring_db(f);
	TEST_ASSERT_SUCCESS(expect_cqe(f, 0, 0, 0, OP_RDMA_WRITE, idx),
			    "case %u: CQE", i);
	TEST_ASSERT_BUFFERS_ARE_EQUAL(tgt[0].addr, want, tgt[0].len,
				      "case %u: AES-%u-XTS %s %" PRIu32
				      " bytes, unit %" PRIu32, i, half * 8,
				      enc ? "encrypt" : "decrypt", len, du);
	if (ndst == 2)
		TEST_ASSERT_BUFFERS_ARE_EQUAL(tgt[1].addr, want + tgt[0].len,
					      tgt[1].len, "case %u: target 2",
					      i);
	return TEST_SUCCESS;
}

/* Case i: a random DEK, one message. */
static int
ref_case(struct xfix *f, uint64_t *s, unsigned int i)
{
	unsigned int half = (i & 1) ? 32 : 16;
	struct mlx5dv_devx_obj *d;
	uint8_t key[64];
	uint32_t id;
	int ret;

	do {
		rnd_bytes(s, key, 2 * half);
	} while (memcmp(key, key + half, half) == 0);
	d = dek_make(f, key, half, &id);
	TEST_ASSERT_NOT_NULL(d, "case %u: DEK", i);
	ret = ref_msg(f, s, i, key, half, id);
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(d), "case %u: DEK",
			    i);
	return ret;
}

/* Every case with the emulator's cipher path chosen by MLX5_EMU_XTS
 * (sel, or unset: the default).
 */
static int
ref_pass(const char *sel)
{
	uint64_t s = REF_SEED;
	struct heap_use h0, h1;
	struct xfix f;
	unsigned int i;
	int ret = TEST_SUCCESS;

	heap_use(&h0);
	if (sel != NULL)
		setenv("MLX5_EMU_XTS", sel, 1);
	else
		unsetenv("MLX5_EMU_XTS");
	TEST_ASSERT_SUCCESS(xfix_open(&f, "emu_xts_ref"), "fixture");
	for (i = 0; i < REF_CASES && ret == TEST_SUCCESS; i++) {
		ret = ref_case(&f, &s, i);
		if (ret != TEST_SUCCESS)
			printf("MLX5_EMU_XTS %s, seed 0x%" PRIx64 ", case %u\n",
			       sel != NULL ? sel : "unset", REF_SEED, i);
	}
	unsetenv("MLX5_EMU_XTS");
	TEST_ASSERT_SUCCESS(xfix_close(&f), "close");
	TEST_ASSERT_SUCCESS(ret, "against OpenSSL");
	heap_use(&h1);
	TEST_ASSERT_SUCCESS(heap_use_same(&h0, &h1, "emu_crypto_xts_ref"),
			    "rte_malloc use");
	return TEST_SUCCESS;
}

/* The default path (the x86 AES instructions where the CPU has them). */
static int
test_xts_against_openssl(void)
{
	return ref_pass(NULL);
}

/* OpenSSL only: aes-ecb with the tweak stream for 512-byte units. */
static int
test_xts_evp_against_openssl(void)
{
	return ref_pass("evp");
}

static struct unit_test_suite emu_crypto_xts_ref_suite = {
	.suite_name = "emu_crypto_xts_ref",
	.unit_test_cases = {
		TEST_CASE(test_xts_against_openssl),
		TEST_CASE(test_xts_evp_against_openssl),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(emu_crypto_xts_ref, emu_crypto_xts_ref_suite);
