/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Symmetric sessions: one cipher transform, AES-XTS, a 16-byte IV (the
 * initial tweak), a data-unit length the device has (512 B, 4096 B, 1 MiB,
 * or 0: the whole operation is one data unit). The session keeps the BSF
 * words its operations copy into their UMR WQEs.
 */

#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_errno.h>

#include "mlx5cq_crypto.h"

unsigned int
mlx5cq_crypto_sym_session_get_size(struct rte_cryptodev *dev)
{
	RTE_SET_USED(dev);
	return sizeof(struct mlx5cq_crypto_sess);
}

/* BSF crypto_block_size_pointer of a data-unit length; -1: none. */
static int
mlx5cq_crypto_du_code(uint32_t du_len)
{
	switch (du_len) {
	case 0:
		return 0;
	case 512:
		return MLX5_BLOCK_SIZE_512B;
	case 4096:
		return MLX5_BLOCK_SIZE_4096B;
	case 1u << 20:
		return MLX5_BLOCK_SIZE_1MB;
	default:
		return -1;
	}
}

static int
mlx5cq_crypto_xform_check(const struct rte_crypto_sym_xform *xform)
{
	const struct rte_crypto_cipher_xform *c = &xform->cipher;

	if (xform->next != NULL) {
		CRYPTO_LOG(ERR, "session: chained transforms are not "
			   "supported (cipher only)");
		return -ENOTSUP;
	}
	if (xform->type != RTE_CRYPTO_SYM_XFORM_CIPHER) {
		CRYPTO_LOG(ERR, "session: transform type %d not supported "
			   "(cipher only)", xform->type);
		return -ENOTSUP;
	}
	if (c->algo != RTE_CRYPTO_CIPHER_AES_XTS) {
		CRYPTO_LOG(ERR, "session: cipher algorithm %d not supported "
			   "(AES-XTS only)", c->algo);
		return -ENOTSUP;
	}
	if (c->op != RTE_CRYPTO_CIPHER_OP_ENCRYPT &&
	    c->op != RTE_CRYPTO_CIPHER_OP_DECRYPT) {
		CRYPTO_LOG(ERR, "session: bad cipher op %d", c->op);
		return -EINVAL;
	}
	if (c->iv.length != 16) {
		CRYPTO_LOG(ERR, "session: IV of %u bytes (AES-XTS tweak: 16)",
			   c->iv.length);
		return -EINVAL;
	}
	if (mlx5cq_crypto_du_code(c->dataunit_len) < 0) {
		CRYPTO_LOG(ERR, "session: data-unit length %u not supported "
			   "(0, 512, 4096 or 1048576)", c->dataunit_len);
		return -ENOTSUP;
	}
	return 0;
}

int
mlx5cq_crypto_sym_session_configure(struct rte_cryptodev *dev,
				    struct rte_crypto_sym_xform *xform,
				    struct rte_cryptodev_sym_session *session)
{
	struct mlx5cq_crypto_priv *priv = dev->data->dev_private;
	struct mlx5cq_crypto_sess *s = CRYPTODEV_GET_SYM_SESS_PRIV(session);
	const struct rte_crypto_cipher_xform *c;
	uint32_t order;
	int ret;

	if (xform == NULL || s == NULL) {
		CRYPTO_LOG(ERR, "session: no transform");
		rte_errno = EINVAL;
		return -EINVAL;
	}
	if (xform->type == RTE_CRYPTO_SYM_XFORM_AEAD) {
		ret = mlx5cq_crypto_gcm_session(priv, xform, s);
		if (ret != 0)
			rte_errno = -ret;
		return ret;
	}
	ret = mlx5cq_crypto_xform_check(xform);
	if (ret != 0) {
		rte_errno = -ret;
		return ret;
	}
	c = &xform->cipher;
	memset(s, 0, sizeof(*s));
	s->dek = mlx5cq_crypto_dek_get(priv, c);
	if (s->dek == NULL)
		return -rte_errno;
	/* Encrypt: the memory side (destination) holds the cipher text. */
	order = c->op == RTE_CRYPTO_CIPHER_OP_ENCRYPT ?
		MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_MEMORY :
		MLX5_ENCRYPTION_ORDER_ENCRYPTED_RAW_WIRE;
	s->bs_bpt_eo_es = rte_cpu_to_be_32
		((uint32_t)MLX5_BSF_SIZE_64B << MLX5_BSF_SIZE_OFFSET |
		 (uint32_t)MLX5_BSF_P_TYPE_CRYPTO << MLX5_BSF_P_TYPE_OFFSET |
		 (uint32_t)order << MLX5_ENCRYPTION_ORDER_OFFSET |
		 (uint32_t)MLX5_ENCRYPTION_STANDARD_AES_XTS);
	s->bsp_res = rte_cpu_to_be_32((uint32_t)
		mlx5cq_crypto_du_code(c->dataunit_len) <<
		MLX5_BLOCK_SIZE_OFFSET);
	s->dek_id_be = rte_cpu_to_be_32(s->dek->obj->id & 0xffffff);
	s->iv_offset = c->iv.offset;
	return 0;
}

void
mlx5cq_crypto_sym_session_clear(struct rte_cryptodev *dev,
				struct rte_cryptodev_sym_session *session)
{
	struct mlx5cq_crypto_priv *priv = dev->data->dev_private;
	struct mlx5cq_crypto_sess *s = CRYPTODEV_GET_SYM_SESS_PRIV(session);

	if (s != NULL && s->gcm) {
		mlx5cq_crypto_gcm_session_clear(s);
		return;
	}
	if (s == NULL || s->dek == NULL)
		return;
	mlx5cq_crypto_dek_put(priv, s->dek);
	memset(s, 0, sizeof(*s));
}
