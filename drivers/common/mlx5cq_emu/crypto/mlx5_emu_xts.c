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
 * number).
 *
 * Units of EMU_XTS_EVP_DU bytes and more go through OpenSSL's aes-xts,
 * the tweak set per unit with EVP_CipherInit_ex2() (its cost, about that
 * of ciphering 512 bytes, is small next to the unit's). Smaller units
 * are computed here (IEEE 1619 section 5) with OpenSSL's AES-ECB as the
 * block cipher and no per-message context setup:
 *   - T(u, 0) = AES-enc(key2, tweak of unit u), for up to EMU_XTS_IVS
 *     units in one ECB call;
 *   - T(u, j + 1) = T(u, j) * alpha in GF(2^128): the 16 bytes read as a
 *     little-endian 128-bit number shifted left by one, 0x87 xored into
 *     byte 0 when bit 127 was set (from block 8 on, T(u, j - 8) * x^8);
 *   - C = AES(key1, P ^ T) ^ T over up to EMU_XTS_CHUNK bytes, possibly
 *     several data units, per ECB call (the tweak stream built first);
 *   - a unit whose length is not a multiple of 16 ends with ciphertext
 *     stealing over its last full and its partial block (section 5.3.2
 *     encryption, 5.4.2 decryption).
 *
 * Contract: a DEK's key is key1 || key2 (16 + 16 or 32 + 32 bytes); keys
 * whose halves are equal are refused (as OpenSSL's aes-xts does). Only
 * the last data unit may be shorter than du; every unit is at least 16
 * bytes; du is a multiple of 16 unless it covers the whole message.
 * Calls on one context do not run concurrently (the engine's lock).
 */

#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_cpuflags.h>

#include "mlx5_emu_crypto.h"
#include "mlx5_emu_xts_aesni.h"

#define EMU_XTS_BLK 16
#define EMU_XTS_CHUNK 4096 /* Bytes per key1 ECB call (tweaks in L1). */
#define EMU_XTS_IVS 32 /* Unit tweaks encrypted per key2 ECB call. */
/* From this unit size on, setting the tweak of OpenSSL's aes-xts per
 * unit costs less than the tweak stream and two xor passes.
 */
#define EMU_XTS_EVP_DU 2048
/* MLX5_EMU_XTS=evp: OpenSSL only, even where the AES instructions are
 * (read when a DEK is made; the tests run both paths).
 */
#define EMU_XTS_ENV "MLX5_EMU_XTS"

struct emu_xts {
	EVP_CIPHER_CTX *enc1; /* AES-ECB key1, encryption. */
	EVP_CIPHER_CTX *dec1; /* AES-ECB key1, decryption. */
	EVP_CIPHER_CTX *enc2; /* AES-ECB key2: the unit tweaks. */
	EVP_CIPHER_CTX *xenc; /* AES-XTS, units of EMU_XTS_EVP_DU and up. */
	EVP_CIPHER_CTX *xdec;
	int use_ni; /* The x86 AES instructions, the round keys in ni. */
	struct emu_xts_ni ni;
};

/* The tweak state of a walk over a message's blocks. */
struct emu_xts_walk {
	struct emu_xts *x;
	uint8_t iv[EMU_XTS_BLK]; /* Next unit's tweak (plaintext). */
	uint8_t t0[EMU_XTS_IVS * EMU_XTS_BLK]; /* Encrypted unit tweaks. */
	uint32_t units; /* Units whose tweak is not yet encrypted. */
	uint32_t nt; /* Encrypted tweaks in t0. */
	uint32_t it; /* Next of them. */
	uint32_t ub; /* Blocks of a whole unit. */
	uint32_t left; /* Blocks left in the current unit. */
	uint64_t lo, hi; /* Current block's tweak, bits 63:0 and 127:64. */
};

void
emu_xts_free(struct emu_xts *x)
{
	if (x == NULL)
		return;
	EVP_CIPHER_CTX_free(x->enc1);
	EVP_CIPHER_CTX_free(x->dec1);
	EVP_CIPHER_CTX_free(x->enc2);
	EVP_CIPHER_CTX_free(x->xenc);
	EVP_CIPHER_CTX_free(x->xdec);
	free(x);
}

/* The CPU has what mlx5_emu_xts_aesni.c is built for. */
static int
emu_xts_ni_usable(void)
{
#ifdef RTE_ARCH_X86
	return rte_cpu_get_flag_enabled(RTE_CPUFLAG_AES) > 0 &&
	       rte_cpu_get_flag_enabled(RTE_CPUFLAG_PCLMULQDQ) > 0 &&
	       rte_cpu_get_flag_enabled(RTE_CPUFLAG_SSE4_1) > 0;
#else
	return 0;
#endif
}

static EVP_CIPHER_CTX *
emu_xts_cipher_ctx(const EVP_CIPHER *c, const uint8_t *key, int enc)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

	if (ctx == NULL)
		return NULL;
	if (EVP_CipherInit_ex(ctx, c, NULL, key, NULL, enc) != 1 ||
	    EVP_CIPHER_CTX_set_padding(ctx, 0) != 1) {
		EVP_CIPHER_CTX_free(ctx);
		return NULL;
	}
	return ctx;
}

struct emu_xts *
emu_xts_new(const uint8_t *key, unsigned int half)
{
	const EVP_CIPHER *c = half == 16 ? EVP_aes_128_ecb() :
			      half == 32 ? EVP_aes_256_ecb() : NULL;
	const EVP_CIPHER *xc = half == 16 ? EVP_aes_128_xts() :
			       EVP_aes_256_xts();
	struct emu_xts *x;
	const char *sel;

	if (c == NULL || memcmp(key, key + half, half) == 0)
		return NULL;
	x = calloc(1, sizeof(*x));
	if (x == NULL)
		return NULL;
	x->enc1 = emu_xts_cipher_ctx(c, key, 1);
	x->dec1 = emu_xts_cipher_ctx(c, key, 0);
	x->enc2 = emu_xts_cipher_ctx(c, key + half, 1);
	x->xenc = emu_xts_cipher_ctx(xc, key, 1);
	x->xdec = emu_xts_cipher_ctx(xc, key, 0);
	if (x->enc1 == NULL || x->dec1 == NULL || x->enc2 == NULL ||
	    x->xenc == NULL || x->xdec == NULL) {
		emu_xts_free(x);
		return NULL;
	}
	sel = getenv(EMU_XTS_ENV);
	x->use_ni = (sel == NULL || strcmp(sel, "evp") != 0) &&
		    emu_xts_ni_usable() &&
		    emu_xts_ni_init(&x->ni, key, half) == 0;
	return x;
}

/* n bytes (a multiple of 16) through an ECB context; 0 or -1. */
static int
emu_xts_ecb(EVP_CIPHER_CTX *ctx, const uint8_t *in, uint8_t *out,
	    uint32_t n)
{
	int outl;

	if (EVP_CipherUpdate(ctx, out, &outl, in, (int)n) != 1 ||
	    outl != (int)n)
		return -1;
	return 0;
}

/* tweak += 1, little endian. */
static void
emu_tweak_inc(uint8_t t[EMU_XTS_BLK])
{
	unsigned int i;

	for (i = 0; i < EMU_XTS_BLK; i++)
		if (++t[i] != 0)
			break;
}

static inline uint64_t
emu_ld_le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return rte_le_to_cpu_64(v);
}

static inline void
emu_st_le64(uint8_t *p, uint64_t v)
{
	v = rte_cpu_to_le_64(v);
	memcpy(p, &v, sizeof(v));
}

/* The next unit's first tweak becomes the current one; 0 or -1. */
static int
emu_xts_next_unit(struct emu_xts_walk *w)
{
	uint32_t i, n;
	uint8_t *t;

	if (w->it == w->nt) {
		n = w->units < EMU_XTS_IVS ? w->units : EMU_XTS_IVS;
		if (n == 0)
			return -1;
		for (i = 0; i < n; i++) {
			memcpy(w->t0 + i * EMU_XTS_BLK, w->iv, EMU_XTS_BLK);
			emu_tweak_inc(w->iv);
		}
		if (emu_xts_ecb(w->x->enc2, w->t0, w->t0,
				n * EMU_XTS_BLK) != 0)
			return -1;
		w->units -= n;
		w->nt = n;
		w->it = 0;
	}
	t = w->t0 + w->it++ * EMU_XTS_BLK;
	w->lo = emu_ld_le64(t);
	w->hi = emu_ld_le64(t + 8);
	w->left = w->ub;
	return 0;
}

/* For each byte b falling out of bit 127 when a tweak is multiplied by
 * x^8: the carry-less product of b and 0x87 (x^128 = x^7 + x^2 + x + 1
 * modulo the XTS polynomial), to xor into the shifted tweak's low bits.
 */
static uint16_t emu_xts_fold[256];

RTE_INIT(emu_xts_fold_init)
{
	unsigned int b;

	for (b = 0; b < 256; b++)
		emu_xts_fold[b] = (uint16_t)(b ^ b << 1 ^ b << 2 ^ b << 7);
}

/* Tweak times alpha (x): the little-endian 128-bit number shifted left,
 * 0x87 folded back when bit 127 falls out.
 */
static inline void
emu_xts_double(uint64_t *lo, uint64_t *hi)
{
	uint64_t c = *hi >> 63;

	*hi = *hi << 1 | *lo >> 63;
	*lo = *lo << 1 ^ (0x87 & (0 - c));
}

/* out = in ^ ts over n bytes (a multiple of 16). */
static inline void
emu_xts_xor(uint8_t *out, const uint8_t *in, const uint8_t *ts, uint32_t n)
{
	uint64_t a, b, c, d;
	uint32_t i;

	for (i = 0; i < n; i += EMU_XTS_BLK) {
		memcpy(&a, in + i, sizeof(a));
		memcpy(&b, in + i + 8, sizeof(b));
		memcpy(&c, ts + i, sizeof(c));
		memcpy(&d, ts + i + 8, sizeof(d));
		a ^= c;
		b ^= d;
		memcpy(out + i, &a, sizeof(a));
		memcpy(out + i + 8, &b, sizeof(b));
	}
}

/* A tweak (16 little-endian bytes at p) times x^8 into q: the number
 * shifted left by 8 bits, the byte that fell out folded back.
 */
static inline void
emu_xts_x8(const uint8_t *p, uint8_t *q)
{
	uint64_t lo = emu_ld_le64(p), hi = emu_ld_le64(p + 8);

	emu_st_le64(q + 8, hi << 8 | lo >> 56);
	emu_st_le64(q, lo << 8 ^ emu_xts_fold[hi >> 56]);
}

/*
 * The next n blocks: out = in ^ T, their tweaks T kept in ts (16 bytes
 * each, little endian) for the xor after the cipher; 0 or -1. In a
 * unit, block j's tweak is block j - 8's times x^8: the 16 bytes moved
 * up by one and the byte that fell out folded back, eight independent
 * chains instead of one serial chain of doublings.
 */
static int
emu_xts_pre(struct emu_xts_walk *w, const uint8_t *in, uint8_t *out,
	    uint8_t *ts, uint32_t n)
{
	uint64_t lo, hi;
	uint32_t k, i, j;

	while (n != 0) {
		if (w->left == 0 && emu_xts_next_unit(w) != 0)
			return -1;
		k = n < w->left ? n : w->left;
		lo = w->lo;
		hi = w->hi;
		/* Blocks 0-7: T times x^i, each from T (no serial chain). */
		for (i = 0; i < k && i < 8; i++) {
			uint64_t b = i == 0 ? 0 : hi >> (64 - i);

			emu_st_le64(ts + i * EMU_XTS_BLK,
				    i == 0 ? lo : lo << i ^
				    (b ^ b << 1 ^ b << 2 ^ b << 7));
			emu_st_le64(ts + i * EMU_XTS_BLK + 8,
				    i == 0 ? hi : hi << i | lo >> (64 - i));
		}
		for (; i < k; i++)
			emu_xts_x8(ts + (i - 8) * EMU_XTS_BLK,
				   ts + i * EMU_XTS_BLK);
		if (k > 8) { /* The next block's: the last one times x. */
			lo = emu_ld_le64(ts + (k - 1) * EMU_XTS_BLK);
			hi = emu_ld_le64(ts + (k - 1) * EMU_XTS_BLK + 8);
			emu_xts_double(&lo, &hi);
		} else { /* T times x^k. */
			for (j = 0; j < k; j++)
				emu_xts_double(&lo, &hi);
		}
		emu_xts_xor(out, in, ts, k * EMU_XTS_BLK);
		w->lo = lo;
		w->hi = hi;
		w->left -= k;
		n -= k;
		in += k * EMU_XTS_BLK;
		out += k * EMU_XTS_BLK;
		ts += k * EMU_XTS_BLK;
	}
	return 0;
}

/* The next block's tweak into t; 0 or -1. */
static int
emu_xts_tweak(struct emu_xts_walk *w, uint8_t t[EMU_XTS_BLK])
{
	if (w->left == 0 && emu_xts_next_unit(w) != 0)
		return -1;
	emu_st_le64(t, w->lo);
	emu_st_le64(t + 8, w->hi);
	emu_xts_double(&w->lo, &w->hi);
	w->left--;
	return 0;
}

/* One block: out = AES(in ^ t) ^ t; 0 or -1. */
static int
emu_xts_block(EVP_CIPHER_CTX *ctx, const uint8_t *in, uint8_t *out,
	      const uint8_t *t)
{
	uint8_t b[EMU_XTS_BLK];

	emu_xts_xor(b, in, t, EMU_XTS_BLK);
	if (emu_xts_ecb(ctx, b, b, EMU_XTS_BLK) != 0)
		return -1;
	emu_xts_xor(out, b, t, EMU_XTS_BLK);
	return 0;
}

/*
 * Ciphertext stealing: the last full block at src/dst and the r
 * (1..15) bytes after it. The first block ciphered uses t1, the second
 * t2 (encryption: T(m-1) then T(m); decryption: T(m) then T(m-1)).
 */
static int
emu_xts_steal(EVP_CIPHER_CTX *ctx, const uint8_t *src, uint8_t *dst,
	      uint32_t r, const uint8_t *t1, const uint8_t *t2)
{
	uint8_t cc[EMU_XTS_BLK], pp[EMU_XTS_BLK];

	if (emu_xts_block(ctx, src, cc, t1) != 0)
		return -1;
	memcpy(pp, src + EMU_XTS_BLK, r);
	memcpy(pp + r, cc + r, EMU_XTS_BLK - r);
	memcpy(dst + EMU_XTS_BLK, cc, r);
	return emu_xts_block(ctx, pp, dst, t2);
}

/* Units of du bytes and up (a whole number of blocks: no stealing but
 * in the last unit, which OpenSSL's aes-xts does) through OpenSSL's
 * aes-xts, the tweak set per unit; 0 or -1.
 */
static int
emu_xts_evp(struct emu_xts *x, int enc, const uint8_t tweak[16], uint32_t du,
	    const uint8_t *src, uint8_t *dst, uint32_t len)
{
	EVP_CIPHER_CTX *ctx = enc ? x->xenc : x->xdec;
	uint8_t t[EMU_XTS_BLK];
	uint32_t off, n;
	int outl;

	memcpy(t, tweak, sizeof(t));
	for (off = 0; off < len; off += n) {
		n = len - off < du ? len - off : du;
		if (EVP_CipherInit_ex2(ctx, NULL, NULL, t, enc, NULL) != 1 ||
		    EVP_CipherUpdate(ctx, dst + off, &outl, src + off,
				     (int)n) != 1 || outl != (int)n)
			return -1;
		emu_tweak_inc(t);
	}
	return 0;
}

int
emu_xts_run(struct emu_xts *x, int enc, const uint8_t tweak[16], uint32_t du,
	    const uint8_t *src, uint8_t *dst, uint32_t len)
{
	EVP_CIPHER_CTX *ctx = enc ? x->enc1 : x->dec1;
	uint8_t ts[EMU_XTS_CHUNK];
	uint8_t ta[EMU_XTS_BLK], tb[EMU_XTS_BLK];
	struct emu_xts_walk w;
	uint32_t r = len % EMU_XTS_BLK, nblk, off, n;

	if (du == 0 || du >= len)
		du = len;
	else if (du % EMU_XTS_BLK != 0)
		return -1;
	if (len < EMU_XTS_BLK || len - (len - 1) / du * du < EMU_XTS_BLK)
		return -1;
	if (du >= EMU_XTS_EVP_DU)
		return emu_xts_evp(x, enc, tweak, du, src, dst, len);
	if (x->use_ni)
		return emu_xts_ni_run(&x->ni, enc, tweak, du, src, dst, len);
	w.x = x;
	memcpy(w.iv, tweak, EMU_XTS_BLK);
	w.units = (len - 1) / du + 1;
	w.nt = 0;
	w.it = 0;
	w.ub = (du + EMU_XTS_BLK - 1) / EMU_XTS_BLK; /* With a partial. */
	w.left = 0;
	/* Every full block but the one a stealing tail needs. */
	nblk = len / EMU_XTS_BLK - (r != 0);
	for (off = 0; off < nblk * EMU_XTS_BLK; off += n) {
		n = nblk * EMU_XTS_BLK - off;
		if (n > EMU_XTS_CHUNK)
			n = EMU_XTS_CHUNK;
		if (emu_xts_pre(&w, src + off, dst + off, ts,
				n / EMU_XTS_BLK) != 0)
			return -1;
		if (emu_xts_ecb(ctx, dst + off, dst + off, n) != 0)
			return -1;
		emu_xts_xor(dst + off, dst + off, ts, n);
	}
	if (r == 0)
		return 0;
	/* The last unit's last full block (its tweak is current, or the
	 * unit's first) and the partial one.
	 */
	if (emu_xts_tweak(&w, ta) != 0 || emu_xts_tweak(&w, tb) != 0)
		return -1;
	return enc ? emu_xts_steal(ctx, src + off, dst + off, r, ta, tb) :
		     emu_xts_steal(ctx, src + off, dst + off, r, tb, ta);
}
