/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "crypto_gcm_sgl": AES-GCM through crypto_mlx5cq in the layout of
 * DPDK's cryptodev suite (test_authenticated_encryption_SGL() and
 * create_aead_operation_SGL() of app/test/test_cryptodev.c): the AAD
 * prepended to the source's first segment and padded to 16 bytes,
 * aead.data.offset that padded length in source and destination alike
 * (the destination's first segment keeps the room unused), the text in
 * fragments of F bytes after it, the destination in fragments of its own
 * size or one segment, the digest right after the last destination
 * fragment. Lengths 2048 and 3120 (the suite's gcm_test_case_8 and
 * gcm_test_case_SGL_1 sizes) with 12 and 0 bytes of AAD, fragments of
 * 400, 1500 and 2000 bytes, both directions. The answers come from
 * OpenSSL's AES-GCM on the same key, IV, AAD and text, not from the PMD
 * or the emulated HCA. The device has the default max_segs_num (8): a GCM
 * UMR spans its set of 512 bytes up to the MMO (20 KLMs) and every case
 * fits, the 17 KLMs of 400-byte fragments on both sides included. 23 KLMs
 * (300-byte fragments) are INVALID_ARGS, nothing written; at max_segs_num
 * 16 (sets of 1 KiB, 52 KLMs) they go through, 65 do not. The heap as
 * before.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include <rte_crypto.h>
#include <rte_cryptodev.h>
#include <rte_mbuf.h>

#include "test.h"
#include "test_crypto_fixture.h"
#include "test_usage.h"

#define SGL_TEXT_MAX 3120
#define SGL_FILL 0x5a
#define SGL_POOL_N 128

struct sgl_case {
	uint32_t len;
	uint16_t aad_len;
	uint16_t key_len;
	uint32_t frag; /* Source fragments. */
	uint32_t frag_oop; /* Destination fragments; 0: in place. */
};

static const struct sgl_case sgl_cases[] = {
	/* ..._SGL_out_of_place_400B_400B: gcm_test_case_SGL_1's shape. */
	{ 3120, 0, 16, 400, 400 },
	/* ..._SGL_out_of_place_400B_1seg: gcm_test_case_8's shape. */
	{ 2048, 12, 16, 400, 2048 },
	/* ..._SGL_out_of_place_1500B_2000B and _in_place_1500B. */
	{ 3120, 0, 16, 1500, 2000 },
	{ 3120, 0, 16, 1500, 0 },
	/* AAD with fragments on both sides, a 256-bit key. */
	{ 2048, 12, 32, 400, 400 },
	{ 1000, 20, 32, 333, 0 },
};

/* More KLMs than a default set (23) and one of 1 KiB (65) hold. */
static const struct sgl_case sgl_23 = { 3120, 0, 16, 300, 300 };
static const struct sgl_case sgl_many = { 3120, 0, 16, 100, 100 };

static struct rte_mempool *sgl_pool;

/* OpenSSL's AES-GCM of in[len] (tag of 16 bytes); 0 or -1. */
static int
sgl_ref(const uint8_t *key, uint16_t key_len, const uint8_t *iv,
	const uint8_t *aad, uint16_t aad_len, const uint8_t *in, uint32_t len,
	uint8_t *out, uint8_t *tag)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int l, ok;

	ok = c != NULL &&
	     EVP_EncryptInit_ex(c, key_len == 32 ? EVP_aes_256_gcm() :
				EVP_aes_128_gcm(), NULL, key, iv) == 1 &&
	     (aad_len == 0 ||
	      EVP_EncryptUpdate(c, NULL, &l, aad, aad_len) == 1) &&
	     EVP_EncryptUpdate(c, out, &l, in, (int)len) == 1 &&
	     EVP_EncryptFinal_ex(c, out + l, &l) == 1 &&
	     EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16, tag) == 1;
	EVP_CIPHER_CTX_free(c);
	return ok ? 0 : -1;
}

/*
 * A chain of head bytes (SGL_FILL) then len bytes of data (NULL: SGL_FILL)
 * in fragments of frag, plus tail bytes after the last one; the address
 * of those tail bytes in *tailp.
 */
static struct rte_mbuf *
sgl_chain(uint32_t head, const uint8_t *data, uint32_t len, uint32_t frag,
	  uint32_t tail, uint8_t **tailp)
{
	struct rte_mbuf *first = NULL, *m;
	uint32_t off = 0, l;
	uint8_t *p;

	do {
		l = RTE_MIN(frag, len - off);
		m = rte_pktmbuf_alloc(sgl_pool);
		if (m == NULL)
			goto bad;
		p = (uint8_t *)rte_pktmbuf_append(m, (first == NULL ? head :
						      0) + l +
						  (off + l == len ? tail : 0));
		if (p == NULL) {
			rte_pktmbuf_free(m);
			goto bad;
		}
		memset(p, SGL_FILL, rte_pktmbuf_data_len(m));
		if (first == NULL)
			p += head;
		if (data != NULL)
			memcpy(p, data + off, l);
		if (off + l == len)
			*tailp = p + l;
		if (first == NULL)
			first = m;
		else if (rte_pktmbuf_chain(first, m) != 0) {
			rte_pktmbuf_free(m);
			goto bad;
		}
		off += l;
	} while (off < len);
	return first;
bad:
	rte_pktmbuf_free(first);
	return NULL;
}

/* len bytes of chain m from offset off into out. */
static void
sgl_read(const struct rte_mbuf *m, uint32_t off, uint8_t *out, uint32_t len)
{
	uint32_t l, got = 0;

	for (; m != NULL && got < len; m = m->next) {
		if (off >= m->data_len) {
			off -= m->data_len;
			continue;
		}
		l = RTE_MIN((uint32_t)m->data_len - off, len - got);
		memcpy(out + got, rte_pktmbuf_mtod_offset(m, const uint8_t *,
							  off), l);
		got += l;
		off = 0;
	}
}

/*
 * One operation of case c, encrypting or decrypting (tag_xor flips bits
 * of the tag given to check). The status, or -1 when an output differs
 * from OpenSSL's, the source changed, or a failed operation wrote the
 * destination.
 */
static int
sgl_op(uint8_t id, const struct sgl_case *c, int enc, uint8_t tag_xor)
{
	static uint8_t pt[SGL_TEXT_MAX], ct[SGL_TEXT_MAX];
	static uint8_t got[SGL_TEXT_MAX], src_img[SGL_TEXT_MAX];
	uint8_t key[32], iv[12], aad[20], tag[16], *dig_src, *dig_dst = NULL;
	uint32_t pad = RTE_ALIGN_CEIL(c->aad_len, 16), i;
	struct rte_mbuf *src = NULL, *dst = NULL;
	struct rte_cryptodev_sym_session *s;
	struct rte_crypto_sym_xform x;
	struct rte_crypto_op *op;
	int oop = c->frag_oop != 0, st = -1;
	const uint8_t *in, *want;
	uint8_t *digest;

	for (i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(0x11 * i + c->len);
	for (i = 0; i < sizeof(iv); i++)
		iv[i] = (uint8_t)(0xc0 + i);
	for (i = 0; i < sizeof(aad); i++)
		aad[i] = (uint8_t)(0xa0 ^ i);
	for (i = 0; i < c->len; i++)
		pt[i] = (uint8_t)(i * 7 + (i >> 8));
	if (sgl_ref(key, c->key_len, iv, aad, c->aad_len, pt, c->len, ct,
		    tag) != 0)
		return -1;
	in = enc ? pt : ct;
	want = enc ? ct : pt;
	memset(&x, 0, sizeof(x));
	x.type = RTE_CRYPTO_SYM_XFORM_AEAD;
	x.aead.algo = RTE_CRYPTO_AEAD_AES_GCM;
	x.aead.op = enc ? RTE_CRYPTO_AEAD_OP_ENCRYPT :
			  RTE_CRYPTO_AEAD_OP_DECRYPT;
	x.aead.key.data = key;
	x.aead.key.length = c->key_len;
	x.aead.iv.offset = CRYPTO_IV_OFF;
	x.aead.iv.length = 12;
	x.aead.digest_length = 16;
	x.aead.aad_length = c->aad_len;
	s = rte_cryptodev_sym_session_create(id, &x, c_pools.sess);
	op = rte_crypto_op_alloc(c_pools.op, RTE_CRYPTO_OP_TYPE_SYMMETRIC);
	/* The digest after the last fragment of the text: of the
	 * destination out of place, of the source in place.
	 */
	src = sgl_chain(pad, in, c->len, c->frag, oop ? 0 : 16, &dig_src);
	if (oop)
		dst = sgl_chain(pad, NULL, c->len, c->frag_oop, 16, &dig_dst);
	if (s == NULL || op == NULL || src == NULL || (oop && dst == NULL))
		goto out;
	if (c->aad_len != 0)
		memcpy(rte_pktmbuf_mtod(src, uint8_t *), aad, c->aad_len);
	digest = oop ? dig_dst : dig_src;
	if (!enc) {
		memcpy(digest, tag, 16);
		digest[15] ^= tag_xor;
	}
	memcpy(rte_crypto_op_ctod_offset(op, uint8_t *, CRYPTO_IV_OFF), iv,
	       12);
	rte_crypto_op_attach_sym_session(op, s);
	op->sym->m_src = src;
	op->sym->m_dst = dst;
	op->sym->aead.data.offset = pad;
	op->sym->aead.data.length = c->len;
	op->sym->aead.aad.data = rte_pktmbuf_mtod(src, uint8_t *);
	op->sym->aead.digest.data = digest;
	st = op_run(id, op);
	if (st != RTE_CRYPTO_OP_STATUS_SUCCESS) {
		if (oop) {
			memset(src_img, SGL_FILL, c->len);
			sgl_read(dst, pad, got, c->len);
			if (memcmp(got, src_img, c->len) != 0) {
				printf("  %u/%u: a failed operation wrote the "
				       "destination\n", c->frag, c->frag_oop);
				st = -1;
			}
		}
		goto out;
	}
	sgl_read(oop ? dst : src, pad, got, c->len);
	for (i = 0; i < c->len && got[i] == want[i]; i++)
		;
	if (i != c->len) {
		printf("  %u bytes, AAD %u, fragments %u/%u, %s: output "
		       "differs from OpenSSL's from byte %u\n", c->len,
		       c->aad_len, c->frag, c->frag_oop,
		       enc ? "encrypt" : "decrypt", i);
		st = -1;
	} else if (enc && memcmp(digest, tag, 16) != 0) {
		printf("  %u bytes, fragments %u/%u: tag differs from "
		       "OpenSSL's\n", c->len, c->frag, c->frag_oop);
		st = -1;
	}
	if (oop) {
		sgl_read(src, pad, src_img, c->len);
		if (memcmp(src_img, in, c->len) != 0) {
			printf("  fragments %u/%u: source changed\n", c->frag,
			       c->frag_oop);
			st = -1;
		}
	}
out:
	rte_pktmbuf_free(src);
	rte_pktmbuf_free(dst);
	rte_crypto_op_free(op);
	if (s != NULL)
		rte_cryptodev_sym_session_free(id, s);
	return st;
}

static int
sgl_setup(void)
{
	if (crypto_suite_setup() != 0)
		return -1;
	sgl_pool = rte_pktmbuf_pool_create("gcm_sgl_m", SGL_POOL_N, 0, 0,
					   4096 + RTE_PKTMBUF_HEADROOM,
					   SOCKET_ID_ANY);
	if (sgl_pool == NULL) {
		crypto_suite_teardown();
		return -1;
	}
	return 0;
}

static void
sgl_teardown(void)
{
	rte_mempool_free(sgl_pool);
	sgl_pool = NULL;
	crypto_suite_teardown();
}

/* Every case both ways, exact against OpenSSL; a wrong tag refused. */
static int
test_gcm_sgl_dpdk_layout(void)
{
	struct rte_cryptodev_stats st;
	struct heap_use before;
	unsigned int i, n = 0;
	uint8_t id;

	TEST_ASSERT_SUCCESS(dev_up("dev=emu", &id), "device");
	TEST_ASSERT_EQUAL(sgl_op(id, &sgl_cases[0], 1, 0), 0, "warm");
	heap_use(&before);
	for (i = 0; i < RTE_DIM(sgl_cases); i++) {
		TEST_ASSERT_EQUAL(sgl_op(id, &sgl_cases[i], 1, 0), 0,
				  "case %u encrypt", i);
		TEST_ASSERT_EQUAL(sgl_op(id, &sgl_cases[i], 0, 0), 0,
				  "case %u decrypt", i);
		TEST_ASSERT_EQUAL(sgl_op(id, &sgl_cases[i], 0, 0x80),
				  RTE_CRYPTO_OP_STATUS_AUTH_FAILED,
				  "case %u wrong tag", i);
		n += 3;
	}
	TEST_ASSERT_SUCCESS(rte_cryptodev_stats_get(id, &st), "stats");
	TEST_ASSERT(st.dequeue_err_count == RTE_DIM(sgl_cases) &&
		    st.enqueue_err_count == 0,
		    "errors: dequeue %" PRIu64 " enqueue %" PRIu64,
		    st.dequeue_err_count, st.enqueue_err_count);
	TEST_ASSERT_SUCCESS(heap_unchanged(&before, "GCM in DPDK's layout"),
			    "leak");
	TEST_ASSERT_SUCCESS(dev_down(id), "down");
	printf("  %u operations exact against OpenSSL\n", n);
	return TEST_SUCCESS;
}

/*
 * KLM room of a GCM UMR: 20 at the default max_segs_num (the set of 512
 * bytes but the MMO's WQEBB): 17 KLMs through, 23 INVALID_ARGS with
 * nothing written and the queue pair on after it; 52 at max_segs_num 16:
 * 23 through, 65 INVALID_ARGS.
 */
static int
test_gcm_sgl_klm_room(void)
{
	struct heap_use before;
	uint8_t id;

	TEST_ASSERT_SUCCESS(dev_up("dev=emu", &id), "device");
	TEST_ASSERT_EQUAL(sgl_op(id, &sgl_cases[2], 1, 0), 0, "warm");
	heap_use(&before);
	TEST_ASSERT_EQUAL(sgl_op(id, &sgl_cases[0], 1, 0), 0, "17 KLMs");
	TEST_ASSERT_EQUAL(sgl_op(id, &sgl_23, 1, 0),
			  RTE_CRYPTO_OP_STATUS_INVALID_ARGS, "23 KLMs");
	TEST_ASSERT_EQUAL(sgl_op(id, &sgl_cases[2], 1, 0), 0,
			  "5 KLMs after");
	TEST_ASSERT_SUCCESS(heap_unchanged(&before, "GCM KLM room"), "leak");
	TEST_ASSERT_SUCCESS(dev_down(id), "down");
	TEST_ASSERT_SUCCESS(dev_up("dev=emu,max_segs_num=16", &id),
			    "device, max_segs_num 16");
	TEST_ASSERT_EQUAL(sgl_op(id, &sgl_23, 1, 0), 0,
			  "23 KLMs, max_segs_num 16");
	TEST_ASSERT_EQUAL(sgl_op(id, &sgl_23, 0, 0), 0,
			  "23 KLMs, max_segs_num 16, decrypt");
	TEST_ASSERT_EQUAL(sgl_op(id, &sgl_many, 1, 0),
			  RTE_CRYPTO_OP_STATUS_INVALID_ARGS,
			  "65 KLMs, max_segs_num 16");
	TEST_ASSERT_SUCCESS(dev_down(id), "down");
	return TEST_SUCCESS;
}

static struct unit_test_suite crypto_gcm_sgl_suite = {
	.suite_name = "crypto_gcm_sgl",
	.setup = sgl_setup,
	.teardown = sgl_teardown,
	.unit_test_cases = {
		TEST_CASE(test_gcm_sgl_dpdk_layout),
		TEST_CASE(test_gcm_sgl_klm_room),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(crypto_gcm_sgl, crypto_gcm_sgl_suite);
