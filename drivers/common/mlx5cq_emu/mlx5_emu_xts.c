/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * AES-XTS (IEEE 1619) as the crypto engine applies it to the data of an
 * RDMA write through a crypto mkey: the data is cut into data units of
 * the BSF's block size (the whole message when the BSF gives none); the
 * first unit's tweak is the BSF's xts_initial_tweak and every following
 * unit's tweak is the previous one plus one, the 16 tweak bytes read as
 * a little-endian number (as IEEE 1619 encodes the data unit sequence
 * number). Each unit is ciphered by OpenSSL's EVP aes-128-xts or
 * aes-256-xts with its tweak as the IV (ciphertext stealing for a unit
 * that is not a multiple of 16 bytes, as the standard says).
 *
 * Contract: a DEK's key is key1 || key2 (16 + 16 or 32 + 32 bytes);
 * OpenSSL refuses keys whose halves are equal (the DEK is refused).
 */

#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "mlx5_emu_crypto.h"

struct emu_xts {
	EVP_CIPHER_CTX *enc;
	EVP_CIPHER_CTX *dec;
};

void
emu_xts_free(struct emu_xts *x)
{
	if (x == NULL)
		return;
	EVP_CIPHER_CTX_free(x->enc);
	EVP_CIPHER_CTX_free(x->dec);
	free(x);
}

struct emu_xts *
emu_xts_new(const uint8_t *key, unsigned int half)
{
	const EVP_CIPHER *c = half == 16 ? EVP_aes_128_xts() :
			      half == 32 ? EVP_aes_256_xts() : NULL;
	struct emu_xts *x;

	if (c == NULL)
		return NULL;
	x = calloc(1, sizeof(*x));
	if (x == NULL)
		return NULL;
	x->enc = EVP_CIPHER_CTX_new();
	x->dec = EVP_CIPHER_CTX_new();
	if (x->enc == NULL || x->dec == NULL ||
	    EVP_EncryptInit_ex(x->enc, c, NULL, key, NULL) != 1 ||
	    EVP_DecryptInit_ex(x->dec, c, NULL, key, NULL) != 1) {
		emu_xts_free(x);
		return NULL;
	}
	return x;
}

/* tweak += 1, little endian. */
static void
emu_tweak_inc(uint8_t t[16])
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		if (++t[i] != 0)
			break;
}

int
emu_xts_run(struct emu_xts *x, int enc, const uint8_t tweak[16], uint32_t du,
	    const uint8_t *src, uint8_t *dst, uint32_t len)
{
	EVP_CIPHER_CTX *ctx = enc ? x->enc : x->dec;
	uint8_t t[16];
	uint32_t off, n;
	int outl;

	if (du == 0)
		du = len;
	memcpy(t, tweak, sizeof(t));
	for (off = 0; off < len; off += n) {
		n = len - off < du ? len - off : du;
		if (n < 16)
			return -1;
		if (EVP_CipherInit_ex(ctx, NULL, NULL, NULL, t, enc) != 1 ||
		    EVP_CipherUpdate(ctx, dst + off, &outl, src + off,
				     (int)n) != 1 || outl != (int)n)
			return -1;
		emu_tweak_inc(t);
	}
	return 0;
}
