/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Wrapped-key mode objects: IMPORT_KEK, CREDENTIAL and CRYPTO_LOGIN
 * (general objects 0x1d, 0x1e, 0x1f; offered only with
 * caps.crypto_wrapped).
 *
 * Contract (the model's reading of the import flow; the commissioning
 * registers are not modelled, so the crypto officer's objects are made
 * with these commands):
 * - IMPORT_KEK: key_size 0 (AES-128) or 1 (AES-256); key[] holds the KEK
 *   in its first 16 or 32 bytes, in the clear; the rest of key[], state,
 *   modify_field_select and the reserved bits must be 0.
 * - CREDENTIAL: credential_role 0 (officer) or 1 (user); credential[]
 *   holds the 40-byte credential in its first 40 bytes (last 8 zero).
 * - CRYPTO_LOGIN: credential_pointer names a CREDENTIAL object,
 *   session_import_kek_ptr an IMPORT_KEK object of this device
 *   (BAD_PARAM, CRYPTO_CREDENTIAL / CRYPTO_KEK); credential[] (48 bytes)
 *   is the credential wrapped (RFC 3394) with that KEK, which must
 *   unwrap to the credential object's 40 bytes (BAD_PARAM,
 *   CRYPTO_CREDENTIAL). One login per device at a time (a second:
 *   BAD_RES_STATE, CRYPTO_LOGIN_EXISTS). The login's KEK then unwraps
 *   the DEKs (mlx5_emu_dek.c).
 * A KEK or credential a login uses cannot be destroyed (RES_BUSY,
 * CRYPTO_BUSY). With caps.crypto_provisioned the device also has a KEK
 * and a credential from the start (emu_crypto_provision()).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <mlx5_prm.h>

#include "mlx5_emu_crypto.h"

static int
emu_login_check_len(struct emu_dev *dev, const char *what, size_t inlen,
		    size_t need, void *out, size_t outlen)
{
	if (inlen < need) {
		EMU_LOG(ERR, "%s: %s: input mailbox %zu < %zu bytes",
			dev->name, what, inlen, need);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_INP_LEN_ERR,
				    MLX5_EMU_SYND_INLEN);
	}
	return 0;
}

int
emu_kek_create(struct emu_dev *dev, struct emu_crypto *cr, const void *in,
	       size_t inlen, void *out, size_t outlen, uint32_t *id,
	       void **priv)
{
	const void *k = EMU_ADDR_OF(create_import_kek_in, in, import_kek);
	const uint8_t *key = (const uint8_t *)EMU_ADDR_OF(import_kek, k,
							     key);
	unsigned int key_size, klen;
	struct emu_kek *kek;
	int ret;

	ret = emu_login_check_len(dev, "IMPORT_KEK", inlen,
				  MLX5_ST_SZ_BYTES(create_import_kek_in), out,
				  outlen);
	if (ret != 0)
		return ret;
	key_size = EMU_GET(import_kek, k, key_size);
	if (key_size > MLX5_CRYPTO_KEY_SIZE_256b)
		return emu_crypto_refuse(dev, out, outlen,
					 EMU_CMD_STAT_BAD_PARAM_ERR,
					 MLX5_EMU_SYND_CRYPTO_KEY_SIZE,
					 "IMPORT_KEK", "key_size not 0 or 1");
	klen = key_size ? 32 : 16;
	if (EMU_GET(import_kek, k, state) != 0 ||
	    !EMU_WIDE_FIELD_ZERO(import_kek, k, modify_field_select) ||
	    !emu_bytes_zero(key + klen, EMU_DEK_FIELD_LEN - klen))
		return emu_crypto_refuse(dev, out, outlen,
					 EMU_CMD_STAT_BAD_PARAM_ERR,
					 MLX5_EMU_SYND_CRYPTO_RESERVED,
					 "IMPORT_KEK", "state, field select or "
					 "bytes past the key set");
	kek = calloc(1, sizeof(*kek));
	if (kek == NULL)
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_LIM_ERR,
				    MLX5_EMU_SYND_NONE);
	kek->obj_type = MLX5_GENERAL_OBJ_TYPE_IMPORT_KEK;
	kek->key_size = key_size;
	memcpy(kek->key, key, klen);
	kek->id = emu_net_new_id(dev->net);
	emu_net_lock();
	TAILQ_INSERT_TAIL(&cr->keks, kek, next);
	emu_net_unlock();
	*id = kek->id;
	*priv = kek;
	return 0;
}

int
emu_cred_create(struct emu_dev *dev, struct emu_crypto *cr, const void *in,
		size_t inlen, void *out, size_t outlen, uint32_t *id,
		void **priv)
{
	const void *c = EMU_ADDR_OF(create_credential_in, in, credential);
	const uint8_t *cred = (const uint8_t *)EMU_ADDR_OF(credential, c,
							      credential);
	struct emu_cred *ec;
	int ret;

	ret = emu_login_check_len(dev, "CREDENTIAL", inlen,
				  MLX5_ST_SZ_BYTES(create_credential_in), out,
				  outlen);
	if (ret != 0)
		return ret;
	if (EMU_GET(credential, c, credential_role) >
	    MLX5_CREDENTIAL_ROLE_USER)
		return emu_crypto_refuse(dev, out, outlen,
					 EMU_CMD_STAT_BAD_PARAM_ERR,
					 MLX5_EMU_SYND_CRYPTO_ROLE,
					 "CREDENTIAL",
					 "credential_role not 0 or 1");
	if (EMU_GET(credential, c, state) != 0 ||
	    !EMU_WIDE_FIELD_ZERO(credential, c, modify_field_select) ||
	    !emu_bytes_zero(cred + EMU_CRED_LEN,
			    EMU_CRED_FIELD_LEN - EMU_CRED_LEN))
		return emu_crypto_refuse(dev, out, outlen,
					 EMU_CMD_STAT_BAD_PARAM_ERR,
					 MLX5_EMU_SYND_CRYPTO_RESERVED,
					 "CREDENTIAL", "state, field select or "
					 "bytes past the credential set");
	ec = calloc(1, sizeof(*ec));
	if (ec == NULL)
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_LIM_ERR,
				    MLX5_EMU_SYND_NONE);
	ec->obj_type = MLX5_GENERAL_OBJ_TYPE_CREDENTIAL;
	ec->role = EMU_GET(credential, c, credential_role);
	memcpy(ec->cred, cred, EMU_CRED_LEN);
	ec->id = emu_net_new_id(dev->net);
	emu_net_lock();
	TAILQ_INSERT_TAIL(&cr->creds, ec, next);
	emu_net_unlock();
	*id = ec->id;
	*priv = ec;
	return 0;
}

int
emu_login_create(struct emu_dev *dev, struct emu_crypto *cr, const void *in,
		 size_t inlen, void *out, size_t outlen, uint32_t *id,
		 void **priv)
{
	const void *l = EMU_ADDR_OF(create_crypto_login_in, in, crypto_login);
	uint32_t cred_id = EMU_GET(crypto_login, l, credential_pointer);
	uint32_t kek_id = EMU_GET(crypto_login, l, session_import_kek_ptr);
	uint8_t plain[EMU_CRED_LEN];
	struct emu_login *login;
	struct emu_cred *c;
	struct emu_kek *k;
	int ret;

	ret = emu_login_check_len(dev, "CRYPTO_LOGIN", inlen,
				  MLX5_ST_SZ_BYTES(create_crypto_login_in),
				  out, outlen);
	if (ret != 0)
		return ret;
	if (!EMU_WIDE_FIELD_ZERO(crypto_login, l, modify_field_select))
		return emu_crypto_refuse(dev, out, outlen,
					 EMU_CMD_STAT_BAD_PARAM_ERR,
					 MLX5_EMU_SYND_CRYPTO_RESERVED,
					 "CRYPTO_LOGIN", "field select set");
	if (!TAILQ_EMPTY(&cr->logins))
		return emu_crypto_refuse(dev, out, outlen,
					 EMU_CMD_STAT_BAD_RES_STATE_ERR,
					 MLX5_EMU_SYND_CRYPTO_LOGIN_EXISTS,
					 "CRYPTO_LOGIN", "already logged in");
	TAILQ_FOREACH(c, &cr->creds, next)
		if (c->id == cred_id)
			break;
	if (c == NULL)
		return emu_crypto_refuse(dev, out, outlen,
					 EMU_CMD_STAT_BAD_PARAM_ERR,
					 MLX5_EMU_SYND_CRYPTO_CREDENTIAL,
					 "CRYPTO_LOGIN",
					 "credential_pointer unknown");
	TAILQ_FOREACH(k, &cr->keks, next)
		if (k->id == kek_id)
			break;
	if (k == NULL)
		return emu_crypto_refuse(dev, out, outlen,
					 EMU_CMD_STAT_BAD_PARAM_ERR,
					 MLX5_EMU_SYND_CRYPTO_KEK,
					 "CRYPTO_LOGIN",
					 "session_import_kek_ptr unknown");
	if (emu_key_unwrap(k->key, k->key_size ? 32 : 16,
			   (const uint8_t *)EMU_ADDR_OF(crypto_login, l,
							 credential),
			   EMU_CRED_FIELD_LEN, plain) != 0 ||
	    memcmp(plain, c->cred, EMU_CRED_LEN) != 0)
		return emu_crypto_refuse(dev, out, outlen,
					 EMU_CMD_STAT_BAD_PARAM_ERR,
					 MLX5_EMU_SYND_CRYPTO_CREDENTIAL,
					 "CRYPTO_LOGIN", "wrapped credential "
					 "does not unwrap to the credential");
	login = calloc(1, sizeof(*login));
	if (login == NULL)
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_LIM_ERR,
				    MLX5_EMU_SYND_NONE);
	login->obj_type = MLX5_GENERAL_OBJ_TYPE_CRYPTO_LOGIN;
	login->cred = c;
	login->kek = k;
	login->id = emu_net_new_id(dev->net);
	emu_net_lock();
	c->refcnt++;
	k->refcnt++;
	TAILQ_INSERT_TAIL(&cr->logins, login, next);
	emu_net_unlock();
	*id = login->id;
	*priv = login;
	return 0;
}

static int
emu_crypto_busy(struct emu_dev *dev, const char *what, uint32_t id)
{
	uint8_t out[8];

	EMU_LOG(ERR, "%s: destroy %s 0x%x refused: a crypto login uses it",
		dev->name, what, id);
	return emu_cmd_fail(dev, out, sizeof(out), EMU_CMD_STAT_RES_BUSY,
			    MLX5_EMU_SYND_CRYPTO_BUSY);
}

int
emu_kek_destroy(struct emu_dev *dev, struct emu_crypto *cr,
		struct emu_kek *kek)
{
	if (kek->refcnt != 0)
		return emu_crypto_busy(dev, "IMPORT_KEK", kek->id);
	emu_net_lock();
	TAILQ_REMOVE(&cr->keks, kek, next);
	emu_net_unlock();
	memset(kek->key, 0, sizeof(kek->key));
	free(kek);
	return 0;
}

int
emu_cred_destroy(struct emu_dev *dev, struct emu_crypto *cr,
		 struct emu_cred *c)
{
	if (c->refcnt != 0)
		return emu_crypto_busy(dev, "CREDENTIAL", c->id);
	emu_net_lock();
	TAILQ_REMOVE(&cr->creds, c, next);
	emu_net_unlock();
	free(c);
	return 0;
}

void
emu_login_destroy(struct emu_crypto *cr, struct emu_login *l)
{
	emu_net_lock();
	TAILQ_REMOVE(&cr->logins, l, next);
	l->cred->refcnt--;
	l->kek->refcnt--;
	emu_net_unlock();
	free(l);
}

/*
 * Factory provisioning (caps.crypto_provisioned, wrapped mode): the
 * IMPORT_KEK and officer CREDENTIAL objects a crypto officer set up on the
 * card before any program opened it, at the ids MLX5_EMU_PROV_KEK_ID and
 * MLX5_EMU_PROV_CRED_ID (below every id the device hands out). No DevX
 * object of a program names them: they go with the device
 * (emu_crypto_unprovision()). 0, or -EINVAL with a log line, or -ENOMEM.
 */
int
emu_crypto_provision(struct emu_dev *dev, struct emu_crypto *cr)
{
	const struct mlx5_emu_caps *c = &dev->caps;
	struct emu_kek *kek;
	struct emu_cred *ec;

	if (!c->crypto || !c->crypto_wrapped || !c->crypto_provisioned)
		return 0;
	if (c->crypto_kek_len != 16 && c->crypto_kek_len != 32) {
		EMU_LOG(ERR, "%s: provisioned import KEK of %u bytes: 16 or 32",
			dev->name, c->crypto_kek_len);
		return -EINVAL;
	}
	kek = calloc(1, sizeof(*kek));
	ec = calloc(1, sizeof(*ec));
	if (kek == NULL || ec == NULL) {
		free(kek);
		free(ec);
		return -ENOMEM;
	}
	kek->obj_type = MLX5_GENERAL_OBJ_TYPE_IMPORT_KEK;
	kek->key_size = c->crypto_kek_len == 32 ? MLX5_CRYPTO_KEY_SIZE_256b :
			MLX5_CRYPTO_KEY_SIZE_128b;
	memcpy(kek->key, c->crypto_kek, c->crypto_kek_len);
	kek->id = MLX5_EMU_PROV_KEK_ID;
	ec->obj_type = MLX5_GENERAL_OBJ_TYPE_CREDENTIAL;
	ec->role = MLX5_CREDENTIAL_ROLE_OFFICER;
	memcpy(ec->cred, c->crypto_credential, EMU_CRED_LEN);
	ec->id = MLX5_EMU_PROV_CRED_ID;
	TAILQ_INSERT_TAIL(&cr->keks, kek, next);
	TAILQ_INSERT_TAIL(&cr->creds, ec, next);
	return 0;
}

/*
 * The provisioned objects, when the device goes (nothing else is left:
 * the DevX objects of programs are gone before).
 */
void
emu_crypto_unprovision(struct emu_crypto *cr)
{
	struct emu_kek *kek;
	struct emu_cred *ec;

	while ((kek = TAILQ_FIRST(&cr->keks)) != NULL) {
		TAILQ_REMOVE(&cr->keks, kek, next);
		free(kek);
	}
	while ((ec = TAILQ_FIRST(&cr->creds)) != NULL) {
		TAILQ_REMOVE(&cr->creds, ec, next);
		free(ec);
	}
}
