/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * DEK objects (general object type DEK, AES-XTS purpose). Sessions of one
 * key share one DEK (reference count). Plaintext mode: the key (2 x 16 or
 * 2 x 32 bytes) followed by the device's keytag; wrapped mode: the 48 or
 * 80 bytes the user gives, wrapped by the import KEK (key and keytag).
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include "mlx5cq_crypto.h"

/* DEK key size code for a cipher key length; -1 when not allowed. */
static int
mlx5cq_crypto_dek_size(const struct mlx5cq_crypto_priv *priv, uint16_t len)
{
	if (priv->wrapped) {
		if (len == MLX5CQ_CRYPTO_WRAPPED_128)
			return MLX5_CRYPTO_KEY_SIZE_128b;
		if (len == MLX5CQ_CRYPTO_WRAPPED_256)
			return MLX5_CRYPTO_KEY_SIZE_256b;
	} else {
		if (len == 32)
			return MLX5_CRYPTO_KEY_SIZE_128b;
		if (len == 64)
			return MLX5_CRYPTO_KEY_SIZE_256b;
	}
	return -1;
}

struct mlx5cq_crypto_dek *
mlx5cq_crypto_dek_get(struct mlx5cq_crypto_priv *priv,
		      const struct rte_crypto_cipher_xform *cipher)
{
	struct mlx5_devx_dek_attr attr;
	struct mlx5cq_crypto_dek *dek;
	uint16_t len = cipher->key.length;
	int size = mlx5cq_crypto_dek_size(priv, len);

	if (size < 0) {
		CRYPTO_LOG(ERR, "AES-XTS key of %u bytes: %s keys are %s "
			   "bytes", len, priv->wrapped ? "wrapped" :
			   "plaintext", priv->wrapped ? "48 or 80" :
			   "32 or 64");
		rte_errno = EINVAL;
		return NULL;
	}
	if (cipher->key.data == NULL) {
		CRYPTO_LOG(ERR, "AES-XTS key without data");
		rte_errno = EINVAL;
		return NULL;
	}
	LIST_FOREACH(dek, &priv->deks, next) {
		if (dek->key_len == len &&
		    memcmp(dek->key, cipher->key.data, len) == 0) {
			dek->refcnt++;
			return dek;
		}
	}
	dek = rte_zmalloc("crypto_mlx5cq_dek", sizeof(*dek), 0);
	if (dek == NULL) {
		CRYPTO_LOG(ERR, "no memory for a DEK");
		rte_errno = ENOMEM;
		return NULL;
	}
	memset(&attr, 0, sizeof(attr));
	attr.key_size = size;
	attr.has_keytag = 1;
	attr.key_purpose = MLX5_CRYPTO_KEY_PURPOSE_AES_XTS;
	attr.pd = priv->pdn;
	memcpy(attr.key, cipher->key.data, len);
	if (!priv->wrapped)
		memcpy(&attr.key[len], &priv->keytag_be,
		       sizeof(priv->keytag_be));
	dek->obj = mlx5_devx_cmd_create_dek_obj(priv->ctx, &attr);
	if (dek->obj == NULL) {
		if (rte_errno == 0)
			rte_errno = EINVAL;
		CRYPTO_LOG(ERR, "DEK creation (%u-bit key) failed: %s",
			   size == MLX5_CRYPTO_KEY_SIZE_128b ? 128 : 256,
			   rte_strerror(rte_errno));
		rte_free(dek);
		return NULL;
	}
	memcpy(dek->key, cipher->key.data, len);
	dek->key_len = len;
	dek->refcnt = 1;
	LIST_INSERT_HEAD(&priv->deks, dek, next);
	return dek;
}

static void
mlx5cq_crypto_dek_free(struct mlx5cq_crypto_dek *dek)
{
	uint32_t id = dek->obj->id;

	LIST_REMOVE(dek, next);
	if (mlx5_devx_cmd_destroy(dek->obj) != 0)
		CRYPTO_LOG(ERR, "DEK %#x release failed", id);
	memset(dek->key, 0, sizeof(dek->key));
	rte_free(dek);
}

void
mlx5cq_crypto_dek_put(struct mlx5cq_crypto_priv *priv,
		      struct mlx5cq_crypto_dek *dek)
{
	RTE_SET_USED(priv);
	if (dek != NULL && --dek->refcnt == 0)
		mlx5cq_crypto_dek_free(dek);
}

/* At close: DEKs of sessions the application did not clear. */
void
mlx5cq_crypto_dek_release_all(struct mlx5cq_crypto_priv *priv)
{
	while (!LIST_EMPTY(&priv->deks))
		mlx5cq_crypto_dek_free(LIST_FIRST(&priv->deks));
}
