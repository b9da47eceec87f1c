/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_CRYPTO_GCM_FIX_H_
#define TEST_CRYPTO_GCM_FIX_H_

/*
 * The AES-GCM known answers of the crypto_gcm and crypto_gcm_oop suites
 * (the GCM specification's test cases 4, 16, 2 and 14 of
 * test_gcm_vectors.h) and their sessions (test_crypto_gcm_fix.c).
 */

#include <stdint.h>

#include <rte_cryptodev.h>

struct gcm_vec {
	const uint8_t *key;
	uint16_t key_len;
	const uint8_t *iv; /* NULL: 12 zero bytes. */
	const uint8_t *aad;
	uint16_t aad_len;
	const uint8_t *pt;
	const uint8_t *ct;
	uint16_t len;
	const uint8_t *tag;
};

#define GCM_NB_VECS 4
/* Test cases 4, 16, 2, 14. */
extern const struct gcm_vec gcm_vecs[GCM_NB_VECS];
/* 32 zero bytes (keys and texts of cases 2 and 14). */
extern const uint8_t gcm_zero32[32];

/* A session of v (IV at CRYPTO_IV_OFF, 12 bytes) on device id. */
struct rte_cryptodev_sym_session *gcm_sess(uint8_t id,
					   const struct gcm_vec *v, int enc,
					   uint16_t digest);

/* Op of v on session s: IV, source, destination (NULL: in place), the
 * whole text from offset 0, digest and AAD addresses.
 */
void gcm_op_fill(struct rte_crypto_op *op,
		 struct rte_cryptodev_sym_session *s, const struct gcm_vec *v,
		 struct rte_mbuf *src, struct rte_mbuf *dst, uint8_t *digest,
		 uint8_t *aad);

/* Free what an operation of the suites used (any may be NULL). */
void gcm_op_release(uint8_t id, struct rte_crypto_op *op,
		    struct rte_cryptodev_sym_session *s, struct rte_mbuf *a,
		    struct rte_mbuf *b, struct rte_mbuf *c);

#endif /* TEST_CRYPTO_GCM_FIX_H_ */
