/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/* AES-GCM known answers and sessions of the crypto_gcm* suites. */

#include <string.h>

#include <rte_crypto.h>
#include <rte_mbuf.h>

#include "test_crypto_fixture.h"
#include "test_crypto_gcm_fix.h"
#include "test_gcm_vectors.h"

const uint8_t gcm_zero32[32];

const struct gcm_vec gcm_vecs[GCM_NB_VECS] = {
	{ gcm_key4, 16, gcm_iv, gcm_aad, 20, gcm_pt, gcm_ct4, 60, gcm_tag4 },
	{ gcm_key16, 32, gcm_iv, gcm_aad, 20, gcm_pt, gcm_ct16, 60,
	  gcm_tag16 },
	{ gcm_zero32, 16, NULL, NULL, 0, gcm_zero32, gcm_ct2, 16, gcm_tag2 },
	{ gcm_zero32, 32, NULL, NULL, 0, gcm_zero32, gcm_ct14, 16,
	  gcm_tag14 },
};

struct rte_cryptodev_sym_session *
gcm_sess(uint8_t id, const struct gcm_vec *v, int enc, uint16_t digest)
{
	struct rte_crypto_sym_xform x;

	memset(&x, 0, sizeof(x));
	x.type = RTE_CRYPTO_SYM_XFORM_AEAD;
	x.aead.algo = RTE_CRYPTO_AEAD_AES_GCM;
	x.aead.op = enc ? RTE_CRYPTO_AEAD_OP_ENCRYPT :
			  RTE_CRYPTO_AEAD_OP_DECRYPT;
	x.aead.key.data = v->key;
	x.aead.key.length = v->key_len;
	x.aead.iv.offset = CRYPTO_IV_OFF;
	x.aead.iv.length = 12;
	x.aead.digest_length = digest;
	x.aead.aad_length = v->aad_len;
	return rte_cryptodev_sym_session_create(id, &x, c_pools.sess);
}

void
gcm_op_fill(struct rte_crypto_op *op, struct rte_cryptodev_sym_session *s,
	    const struct gcm_vec *v, struct rte_mbuf *src,
	    struct rte_mbuf *dst, uint8_t *digest, uint8_t *aad)
{
	uint8_t *iv = rte_crypto_op_ctod_offset(op, uint8_t *,
						CRYPTO_IV_OFF);

	memset(iv, 0, 12);
	if (v->iv != NULL)
		memcpy(iv, v->iv, 12);
	rte_crypto_op_attach_sym_session(op, s);
	op->sym->m_src = src;
	op->sym->m_dst = dst;
	op->sym->aead.data.offset = 0;
	op->sym->aead.data.length = v->len;
	op->sym->aead.digest.data = digest;
	op->sym->aead.aad.data = aad;
}

void
gcm_op_release(uint8_t id, struct rte_crypto_op *op,
	       struct rte_cryptodev_sym_session *s, struct rte_mbuf *a,
	       struct rte_mbuf *b, struct rte_mbuf *c)
{
	rte_pktmbuf_free(a);
	rte_pktmbuf_free(b);
	rte_pktmbuf_free(c);
	rte_crypto_op_free(op);
	if (s != NULL)
		rte_cryptodev_sym_session_free(id, s);
}
