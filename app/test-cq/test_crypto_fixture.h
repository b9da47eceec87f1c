/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_CRYPTO_FIXTURE_H_
#define TEST_CRYPTO_FIXTURE_H_

/*
 * The fixture of the crypto_mlx5cq suites (crypto_devargs, crypto_session,
 * crypto_kat, crypto_error_cqe, crypto_ring_wrap): the pools, the
 * cryptodev library's own leftovers per closed device, device up and down,
 * mbuf chains, one operation run to completion and the IEEE 1619
 * known-answer cases (test_crypto_fixture.c).
 */

#include <stdint.h>

#include <rte_cryptodev.h>
#include <rte_mbuf.h>

#include "test_crypto_util.h"
#include "test_usage.h"

#define C_NAME "crypto_mlx5cq_t0"
#define C_NB_MBUF 256
#define C_QDESC 64

extern struct crypto_pools c_pools;

/* Suite setup (pools, the library's leftovers measured) and teardown. */
int crypto_suite_setup(void);
void crypto_suite_teardown(void);

int heap_unchanged_devs(const struct heap_use *before, unsigned int devs,
			const char *what);
int heap_unchanged(const struct heap_use *before, const char *what);
int dev_down(uint8_t id);
int dev_up(const char *args, uint8_t *id);
int dev_cfg(uint8_t *id);
struct rte_mbuf *chain_make(const uint8_t *data, uint32_t len,
			    const uint16_t *segs);
int op_run(uint8_t id, struct rte_crypto_op *op);

/* Known answers: IEEE 1619 vectors 4 and 10 alone (512 bytes, one data
 * unit), and vectors 4 then 5 as one message of two data units (tweaks 0
 * and 1: the plaintext of vector 5 is the ciphertext of vector 4).
 */
enum kat_vec { KAT_V4, KAT_V10, KAT_V4V5 };

#define KAT_MAX 1024

struct kat_case {
	const char *name;
	enum kat_vec vec;
	uint32_t du_len; /* Session data-unit length (0: the op's). */
	int oop; /* Out of place. */
	uint16_t src_segs[4]; /* Source chain split (0-terminated). */
	uint16_t dst_segs[4]; /* Destination chain split (out of place). */
};

#define KAT_NB_CASES 10
extern const struct kat_case kat_cases[KAT_NB_CASES];

/* One known answer, one direction: 0 when the output is the expected. */
int kat_one(uint8_t id, const struct kat_case *c, int encrypt);

#endif /* TEST_CRYPTO_FIXTURE_H_ */
