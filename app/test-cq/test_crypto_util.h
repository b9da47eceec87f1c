/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_CRYPTO_UTIL_H_
#define TEST_CRYPTO_UTIL_H_

/*
 * Helpers of the crypto PMD suites and of the perf-crypto benchmark:
 * pools, emulated device capabilities, one started device of one queue
 * pair, AES-XTS transforms.
 */

#include <stdint.h>

#include <rte_crypto.h>
#include <rte_cryptodev.h>
#include <rte_mempool.h>

/* Offset of the IV in an operation (after the symmetric op). */
#define CRYPTO_IV_OFF (sizeof(struct rte_crypto_op) + \
		       sizeof(struct rte_crypto_sym_op))

struct crypto_pools {
	struct rte_mempool *mbuf;
	struct rte_mempool *op;
	struct rte_mempool *sess;
};

/* Load the PMD and make pools of n mbufs and operations: 0 or -1. */
int crypto_pools_make(struct crypto_pools *p, const char *prefix,
		      unsigned int n);
void crypto_pools_free(struct crypto_pools *p);
/* Emulated devices opened from now on: crypto engine on or off,
 * wrapped or plaintext keys: 0 or -1.
 */
int crypto_caps(int crypto, int wrapped);
/* Probe name with args on a plaintext-key emulated HCA, configure one
 * queue pair of nb_desc descriptors and start (nb_desc 0: configured
 * only, no queue pair): 0 with *id, or -1.
 */
int crypto_dev_up(const char *name, const char *args, uint16_t nb_desc,
		  struct rte_mempool *session_mp, uint8_t *id);
/* The same on an emulated HCA of caps (NULL: plaintext-key engine). */
struct mlx5_emu_caps;
int crypto_dev_up_caps(const char *name, const char *args,
		       const struct mlx5_emu_caps *caps, uint16_t nb_desc,
		       struct rte_mempool *session_mp, uint8_t *id);
/*
 * RFC 3394 key wrap with OpenSSL (default IV): out gets inlen + 8 bytes;
 * 0 or -1.
 */
int crypto_key_wrap(const uint8_t *kek, unsigned int kek_len,
		    const uint8_t *in, unsigned int inlen, uint8_t *out);
/* Stop, close and remove the device: 0 or -1. */
int crypto_dev_down(const char *name, uint8_t id);
/* An AES-XTS cipher transform (IV at CRYPTO_IV_OFF, 16 bytes). */
void crypto_xform_fill(struct rte_crypto_sym_xform *x, const uint8_t *key,
		       uint16_t key_len, enum rte_crypto_cipher_operation op,
		       uint32_t du_len);

#endif /* TEST_CRYPTO_UTIL_H_ */
