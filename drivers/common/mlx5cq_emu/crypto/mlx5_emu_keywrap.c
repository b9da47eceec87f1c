/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * AES key wrap (RFC 3394, default IV 0xa6a6a6a6a6a6a6a6) as the device
 * uses it for wrapped keys: a wrapped key is 8 bytes longer than the key
 * it carries, and is accepted only when its integrity check holds.
 * Done with OpenSSL's EVP id-aes128-wrap / id-aes256-wrap.
 *
 * Contract: kek_len 16 or 32; inlen a multiple of 8, at least 24 bytes.
 */

#include <openssl/evp.h>

#include "mlx5_emu_crypto.h"

int
emu_key_unwrap(const uint8_t *kek, unsigned int kek_len, const uint8_t *in,
	       unsigned int inlen, uint8_t *out)
{
	const EVP_CIPHER *wrap;
	EVP_CIPHER_CTX *ctx;
	int outl = 0, fin = 0, ok;

	if (kek_len == 16)
		wrap = EVP_aes_128_wrap();
	else if (kek_len == 32)
		wrap = EVP_aes_256_wrap();
	else
		return -1;
	if (inlen < 24 || (inlen & 7) != 0)
		return -1;
	ctx = EVP_CIPHER_CTX_new();
	if (ctx == NULL)
		return -1;
	EVP_CIPHER_CTX_set_flags(ctx, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
	ok = EVP_DecryptInit_ex(ctx, wrap, NULL, kek, NULL) == 1 &&
	     EVP_DecryptUpdate(ctx, out, &outl, in, (int)inlen) == 1 &&
	     EVP_DecryptFinal_ex(ctx, out + outl, &fin) == 1 &&
	     outl + fin == (int)(inlen - EMU_WRAP_OVERHEAD);
	EVP_CIPHER_CTX_free(ctx);
	return ok ? 0 : -1;
}
