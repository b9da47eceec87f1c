/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * AES-XTS (IEEE 1619) with the x86 AES instructions, for CPUs that have
 * them: this file alone is built with -maes -mpclmul -msse4.1 (the
 * driver's meson.build), and mlx5_emu_xts.c calls it only when the CPU
 * has AES, PCLMULQDQ and SSE4.1 (rte_cpu_get_flag_enabled). Same contract
 * as emu_xts_run() (mlx5_emu_xts.c): data units of du bytes, the first
 * unit's tweak given, each next one plus one as a little-endian number,
 * ciphertext stealing for a partial last block.
 *
 * The key schedules follow FIPS 197 section 5.2 (AESKEYGENASSIST gives
 * SubWord(RotWord(w)) ^ Rcon for AES-128 and SubWord(w) for the second
 * half of each AES-256 step); decryption uses the equivalent inverse
 * cipher (FIPS 197 section 5.3.5: InvMixColumns on the middle round
 * keys, AESIMC). Per unit: T = AES(key2, tweak), then eight blocks at a
 * time, block j's tweak T times x^j in GF(2^128) (IEEE 1619 section 5.2,
 * little-endian bytes).
 */

#include <stdint.h>
#include <string.h>

#include "mlx5_emu_xts_aesni.h"

#if defined(__AES__) && defined(__PCLMUL__) && defined(__SSE4_1__)

#include <immintrin.h>

#define EMU_NI_BLK 16
#define EMU_NI_WAYS 8 /* Blocks in flight. */

/* One AES-128 key schedule step: the next round key from k and the
 * AESKEYGENASSIST result a (its word 3: SubWord(RotWord(w3)) ^ Rcon).
 */
static inline __m128i
emu_ni_step(__m128i k, __m128i a)
{
	k = _mm_xor_si128(k, _mm_slli_si128(k, 4));
	k = _mm_xor_si128(k, _mm_slli_si128(k, 4));
	k = _mm_xor_si128(k, _mm_slli_si128(k, 4));
	return _mm_xor_si128(k, a);
}

#define EMU_NI_128(rk, i, rcon) \
	((rk)[i] = emu_ni_step((rk)[(i) - 1], _mm_shuffle_epi32( \
		_mm_aeskeygenassist_si128((rk)[(i) - 1], rcon), 0xff)))

static void
emu_ni_expand128(const uint8_t *key, __m128i *rk)
{
	rk[0] = _mm_loadu_si128((const __m128i *)(const void *)key);
	EMU_NI_128(rk, 1, 0x01);
	EMU_NI_128(rk, 2, 0x02);
	EMU_NI_128(rk, 3, 0x04);
	EMU_NI_128(rk, 4, 0x08);
	EMU_NI_128(rk, 5, 0x10);
	EMU_NI_128(rk, 6, 0x20);
	EMU_NI_128(rk, 7, 0x40);
	EMU_NI_128(rk, 8, 0x80);
	EMU_NI_128(rk, 9, 0x1b);
	EMU_NI_128(rk, 10, 0x36);
}

/* AES-256: round key i from i - 2, with RotWord + Rcon (even i, word 3
 * of i - 1 through AESKEYGENASSIST) or SubWord only (odd i, word 3 of
 * i - 1 through AESKEYGENASSIST with Rcon 0, its word 2).
 */
#define EMU_NI_256E(rk, i, rcon) \
	((rk)[i] = emu_ni_step((rk)[(i) - 2], _mm_shuffle_epi32( \
		_mm_aeskeygenassist_si128((rk)[(i) - 1], rcon), 0xff)))
#define EMU_NI_256O(rk, i) \
	((rk)[i] = emu_ni_step((rk)[(i) - 2], _mm_shuffle_epi32( \
		_mm_aeskeygenassist_si128((rk)[(i) - 1], 0), 0xaa)))

static void
emu_ni_expand256(const uint8_t *key, __m128i *rk)
{
	rk[0] = _mm_loadu_si128((const __m128i *)(const void *)key);
	rk[1] = _mm_loadu_si128((const __m128i *)(const void *)(key + 16));
	EMU_NI_256E(rk, 2, 0x01);
	EMU_NI_256O(rk, 3);
	EMU_NI_256E(rk, 4, 0x02);
	EMU_NI_256O(rk, 5);
	EMU_NI_256E(rk, 6, 0x04);
	EMU_NI_256O(rk, 7);
	EMU_NI_256E(rk, 8, 0x08);
	EMU_NI_256O(rk, 9);
	EMU_NI_256E(rk, 10, 0x10);
	EMU_NI_256O(rk, 11);
	EMU_NI_256E(rk, 12, 0x20);
	EMU_NI_256O(rk, 13);
	EMU_NI_256E(rk, 14, 0x40);
}

static void
emu_ni_expand(const uint8_t *key, unsigned int half, __m128i *rk)
{
	if (half == 16)
		emu_ni_expand128(key, rk);
	else
		emu_ni_expand256(key, rk);
}

int
emu_xts_ni_init(struct emu_xts_ni *k, const uint8_t *key, unsigned int half)
{
	__m128i e[EMU_XTS_NI_RK], d[EMU_XTS_NI_RK], t[EMU_XTS_NI_RK];
	unsigned int nr = half == 16 ? 10 : 14, i;

	if (half != 16 && half != 32)
		return -1;
	emu_ni_expand(key, half, e);
	emu_ni_expand(key + half, half, t);
	d[0] = e[nr];
	for (i = 1; i < nr; i++)
		d[i] = _mm_aesimc_si128(e[nr - i]);
	d[nr] = e[0];
	k->rounds = nr;
	for (i = 0; i <= nr; i++) {
		_mm_storeu_si128((__m128i *)(void *)k->ek1[i], e[i]);
		_mm_storeu_si128((__m128i *)(void *)k->dk1[i], d[i]);
		_mm_storeu_si128((__m128i *)(void *)k->ek2[i], t[i]);
	}
	return 0;
}

/* The tweak times alpha: both 64-bit halves shifted left, the bit out of
 * the low half into the high one, 0x87 into byte 0 for the bit out of
 * the high half.
 */
static inline __m128i
emu_ni_double(__m128i t)
{
	__m128i c = _mm_shuffle_epi32(_mm_srai_epi32(t, 31), 0x13);

	c = _mm_and_si128(c, _mm_set_epi32(0, 1, 0, 0x87));
	return _mm_xor_si128(_mm_add_epi64(t, t), c);
}

/* The tweak times x^k (1 <= k <= 8), independent of the other powers:
 * both 64-bit halves shifted left by k, the bits out of the low half
 * into the high one, the k bits out of the high half folded back as
 * their carry-less product with 0x87 (x^128 = x^7 + x^2 + x + 1).
 */
static inline __m128i
emu_ni_mulx(__m128i t, unsigned int k)
{
	__m128i c = _mm_srl_epi64(t, _mm_cvtsi32_si128((int)(64 - k)));
	__m128i f = _mm_clmulepi64_si128(_mm_srli_si128(c, 8),
					 _mm_cvtsi32_si128(0x87), 0x00);

	t = _mm_sll_epi64(t, _mm_cvtsi32_si128((int)k));
	return _mm_xor_si128(_mm_xor_si128(t, _mm_slli_si128(c, 8)), f);
}

/* One block with round keys rk (nr rounds), encrypting or decrypting. */
static inline __m128i
emu_ni_block(__m128i b, const uint8_t (*rk)[EMU_NI_BLK], unsigned int nr,
	     int enc)
{
	unsigned int i;

	b = _mm_xor_si128(b, _mm_loadu_si128((const __m128i *)(const void *)
					     rk[0]));
	for (i = 1; i < nr; i++) {
		__m128i r = _mm_loadu_si128((const __m128i *)(const void *)
					    rk[i]);

		b = enc ? _mm_aesenc_si128(b, r) : _mm_aesdec_si128(b, r);
	}
	return enc ? _mm_aesenclast_si128(b, _mm_loadu_si128(
			(const __m128i *)(const void *)rk[nr])) :
		     _mm_aesdeclast_si128(b, _mm_loadu_si128(
			(const __m128i *)(const void *)rk[nr]));
}

/* Rounds 1 to nr - 1 of EMU_NI_WAYS blocks (one predictable branch per
 * round for eight AES instructions).
 */
static inline void
emu_ni_rounds(__m128i *b, const uint8_t (*rk)[EMU_NI_BLK], unsigned int nr,
	      int enc)
{
	unsigned int i, j;
	__m128i r;

	for (i = 1; i < nr; i++) {
		r = _mm_loadu_si128((const __m128i *)(const void *)rk[i]);
		if (enc) {
#pragma GCC unroll 8
			for (j = 0; j < EMU_NI_WAYS; j++)
				b[j] = _mm_aesenc_si128(b[j], r);
		} else {
#pragma GCC unroll 8
			for (j = 0; j < EMU_NI_WAYS; j++)
				b[j] = _mm_aesdec_si128(b[j], r);
		}
	}
}

/*
 * n full blocks of one unit from tweak *t (updated past them), eight at
 * a time (the AES units are pipelined: eight independent blocks keep
 * them busy).
 */
static void
emu_ni_blocks(const struct emu_xts_ni *k, int enc, __m128i *t,
	      const uint8_t *src, uint8_t *dst, uint32_t n)
{
	const uint8_t (*rk)[EMU_NI_BLK] = enc ? k->ek1 : k->dk1;
	unsigned int nr = k->rounds, j;
	__m128i tw[EMU_NI_WAYS], b[EMU_NI_WAYS], r, t0 = *t;

	for (; n >= EMU_NI_WAYS; n -= EMU_NI_WAYS,
	     src += EMU_NI_WAYS * EMU_NI_BLK,
	     dst += EMU_NI_WAYS * EMU_NI_BLK) {
		r = _mm_loadu_si128((const __m128i *)(const void *)rk[0]);
		tw[0] = t0;
#pragma GCC unroll 8
		for (j = 1; j < EMU_NI_WAYS; j++)
			tw[j] = emu_ni_mulx(t0, j);
#pragma GCC unroll 8
		for (j = 0; j < EMU_NI_WAYS; j++)
			b[j] = _mm_xor_si128(_mm_loadu_si128((const __m128i *)
				(const void *)(src + j * EMU_NI_BLK)),
				_mm_xor_si128(tw[j], r));
		emu_ni_rounds(b, rk, nr, enc);
		r = _mm_loadu_si128((const __m128i *)(const void *)rk[nr]);
#pragma GCC unroll 8
		for (j = 0; j < EMU_NI_WAYS; j++) {
			__m128i l = _mm_xor_si128(r, tw[j]);

			b[j] = enc ? _mm_aesenclast_si128(b[j], l) :
				     _mm_aesdeclast_si128(b[j], l);
			_mm_storeu_si128((__m128i *)(void *)
					 (dst + j * EMU_NI_BLK), b[j]);
		}
		t0 = emu_ni_mulx(t0, EMU_NI_WAYS);
	}
	for (; n != 0; n--, src += EMU_NI_BLK, dst += EMU_NI_BLK) {
		b[0] = _mm_xor_si128(_mm_loadu_si128((const __m128i *)
			(const void *)src), t0);
		b[0] = _mm_xor_si128(emu_ni_block(b[0], rk, nr, enc), t0);
		_mm_storeu_si128((__m128i *)(void *)dst, b[0]);
		t0 = emu_ni_double(t0);
	}
	*t = t0;
}

/* One block in place: AES(b ^ t) ^ t. */
static inline void
emu_ni_one(const struct emu_xts_ni *k, int enc, __m128i t, uint8_t *b)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(void *)b);

	x = emu_ni_block(_mm_xor_si128(x, t), enc ? k->ek1 : k->dk1,
			 k->rounds, enc);
	_mm_storeu_si128((__m128i *)(void *)b, _mm_xor_si128(x, t));
}

/* One unit of len bytes (at least 16) with tweak iv. */
static void
emu_ni_unit(const struct emu_xts_ni *k, int enc, const uint8_t *iv,
	    const uint8_t *src, uint8_t *dst, uint32_t len)
{
	uint32_t r = len % EMU_NI_BLK, full = len / EMU_NI_BLK;
	uint8_t cc[EMU_NI_BLK], pp[EMU_NI_BLK];
	__m128i t, ta, tb;

	t = emu_ni_block(_mm_loadu_si128((const __m128i *)(const void *)iv),
			 k->ek2, k->rounds, 1);
	/* With stealing, the last full block waits for the partial one. */
	if (r != 0)
		full--;
	emu_ni_blocks(k, enc, &t, src, dst, full);
	if (r == 0)
		return;
	src += full * EMU_NI_BLK;
	dst += full * EMU_NI_BLK;
	ta = t;
	tb = emu_ni_double(t);
	memcpy(cc, src, EMU_NI_BLK);
	emu_ni_one(k, enc, enc ? ta : tb, cc);
	memcpy(pp, src + EMU_NI_BLK, r);
	memcpy(pp + r, cc + r, EMU_NI_BLK - r);
	memcpy(dst + EMU_NI_BLK, cc, r);
	emu_ni_one(k, enc, enc ? tb : ta, pp);
	memcpy(dst, pp, EMU_NI_BLK);
}

int
emu_xts_ni_run(const struct emu_xts_ni *k, int enc, const uint8_t tweak[16],
	       uint32_t du, const uint8_t *src, uint8_t *dst, uint32_t len)
{
	uint8_t iv[EMU_NI_BLK];
	uint32_t off, n, i;

	memcpy(iv, tweak, sizeof(iv));
	for (off = 0; off < len; off += n) {
		n = len - off < du ? len - off : du;
		emu_ni_unit(k, enc, iv, src + off, dst + off, n);
		for (i = 0; i < EMU_NI_BLK; i++)
			if (++iv[i] != 0)
				break;
	}
	return 0;
}

#else /* Built without the AES instructions: the EVP paths only. */

int
emu_xts_ni_init(struct emu_xts_ni *k, const uint8_t *key, unsigned int half)
{
	(void)k;
	(void)key;
	(void)half;
	return -1;
}

int
emu_xts_ni_run(const struct emu_xts_ni *k, int enc, const uint8_t tweak[16],
	       uint32_t du, const uint8_t *src, uint8_t *dst, uint32_t len)
{
	(void)k;
	(void)enc;
	(void)tweak;
	(void)du;
	(void)src;
	(void)dst;
	(void)len;
	return -1;
}

#endif
