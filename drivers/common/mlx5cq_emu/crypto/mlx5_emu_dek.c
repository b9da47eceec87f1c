/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * DEK general objects (type 0xc): create, query, destroy.
 *
 * Contract (checks in this order, status / model syndrome):
 * - crypto_caps.failed_selftests nonzero: BAD_SYS_STATE, CRYPTO_SELFTEST;
 * - input shorter than create_dek_in: BAD_INP_LEN;
 * - key_size 0 (AES-128-XTS, two 16-byte keys) or 1 (AES-256-XTS, two
 *   32-byte keys), else BAD_PARAM, CRYPTO_KEY_SIZE;
 * - key_purpose MLX5_CRYPTO_KEY_PURPOSE_AES_XTS (3) or _GCM (5, its key
 *   checks in mlx5_emu_gcm.c), else BAD_PARAM, CRYPTO_PURPOSE;
 * - state, modify_field_select and the reserved bits 0, else BAD_PARAM,
 *   CRYPTO_RESERVED;
 * - pd allocated on this device, else BAD_RES, CRYPTO_PD;
 * - 2^log_max_num_deks DEKs exist: LIM_ERR, CRYPTO_DEK_LIMIT;
 * - key[] holds K = key1 || key2 || keytag (the keytag, 8 bytes, only
 *   with has_keytag), followed by zeros:
 *   plaintext mode: K itself (32/40 or 64/72 bytes);
 *   wrapped mode: K wrapped (RFC 3394) with the crypto login's import KEK
 *   (8 bytes more: 40/48 or 72/80); no login: BAD_SYS_STATE,
 *   CRYPTO_NO_LOGIN; integrity check fails: BAD_PARAM, CRYPTO_UNWRAP;
 *   bytes after K (or its wrap) not 0: BAD_PARAM, CRYPTO_RESERVED;
 * - key1 == key2 (OpenSSL refuses such XTS keys): BAD_PARAM,
 *   CRYPTO_WEAK_KEY.
 * The DEK number (obj_id) is what a BSF's dek_pointer names (24 bits).
 * QUERY_GENERAL_OBJECT answers general_obj_out_cmd_hdr then the dek
 * layout: state READY (0), key_size, has_keytag, key_purpose, pd, opaque;
 * never the key. A DEK destroyed while WQEs still name it makes those
 * WQEs complete in error (mlx5_emu_umr.c).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <mlx5_prm.h>

#include "mlx5_emu_crypto.h"

#define EMU_DEK_REFUSE(dev, out, outlen, status, synd, why) \
	emu_crypto_refuse(dev, out, outlen, status, synd, "CREATE DEK", why)

/* Check the fields; the key K (klen bytes) is written to plain. */
static int
emu_dek_key(struct emu_dev *dev, struct emu_crypto *cr, const void *d,
	    unsigned int klen, uint8_t *plain, void *out, size_t outlen)
{
	const uint8_t *key = (const uint8_t *)EMU_ADDR_OF(dek, d, key);
	struct emu_login *login;
	unsigned int wlen;

	if (!dev->caps.crypto_wrapped) {
		if (!emu_bytes_zero(key + klen, EMU_DEK_FIELD_LEN - klen))
			return EMU_DEK_REFUSE(dev, out, outlen,
					      EMU_CMD_STAT_BAD_PARAM_ERR,
					      MLX5_EMU_SYND_CRYPTO_RESERVED,
					      "bytes past the plaintext key");
		memcpy(plain, key, klen);
		return 0;
	}
	login = TAILQ_FIRST(&cr->logins);
	if (login == NULL)
		return EMU_DEK_REFUSE(dev, out, outlen,
				      EMU_CMD_STAT_BAD_SYS_STATE_ERR,
				      MLX5_EMU_SYND_CRYPTO_NO_LOGIN,
				      "wrapped keys need a crypto login");
	wlen = klen + EMU_WRAP_OVERHEAD;
	if (!emu_bytes_zero(key + wlen, EMU_DEK_FIELD_LEN - wlen))
		return EMU_DEK_REFUSE(dev, out, outlen,
				      EMU_CMD_STAT_BAD_PARAM_ERR,
				      MLX5_EMU_SYND_CRYPTO_RESERVED,
				      "bytes past the wrapped key");
	if (emu_key_unwrap(login->kek->key, login->kek->key_size ? 32 : 16,
			   key, wlen, plain) != 0)
		return EMU_DEK_REFUSE(dev, out, outlen,
				      EMU_CMD_STAT_BAD_PARAM_ERR,
				      MLX5_EMU_SYND_CRYPTO_UNWRAP,
				      "wrapped key fails its integrity check");
	return 0;
}

int
emu_dek_create(struct emu_dev *dev, struct emu_crypto *cr, const void *in,
	       size_t inlen, void *out, size_t outlen, uint32_t *id,
	       void **priv)
{
	const void *d = EMU_ADDR_OF(create_dek_in, in, dek);
	uint8_t plain[EMU_XTS_KEY_MAX + EMU_KEYTAG_LEN];
	unsigned int key_size, half, klen;
	struct emu_dek *dek;
	int ret;

	if (dev->caps.crypto_failed_selftests != 0)
		return EMU_DEK_REFUSE(dev, out, outlen,
				      EMU_CMD_STAT_BAD_SYS_STATE_ERR,
				      MLX5_EMU_SYND_CRYPTO_SELFTEST,
				      "crypto self tests failed");
	if (inlen < MLX5_ST_SZ_BYTES(create_dek_in))
		return EMU_DEK_REFUSE(dev, out, outlen,
				      EMU_CMD_STAT_BAD_INP_LEN_ERR,
				      MLX5_EMU_SYND_INLEN, "short mailbox");
	key_size = EMU_GET(dek, d, key_size);
	if (key_size > MLX5_CRYPTO_KEY_SIZE_256b)
		return EMU_DEK_REFUSE(dev, out, outlen,
				      EMU_CMD_STAT_BAD_PARAM_ERR,
				      MLX5_EMU_SYND_CRYPTO_KEY_SIZE,
				      "key_size not 0 or 1");
	if (EMU_GET(dek, d, key_purpose) != MLX5_CRYPTO_KEY_PURPOSE_AES_XTS &&
	    EMU_GET(dek, d, key_purpose) != MLX5_CRYPTO_KEY_PURPOSE_GCM)
		return EMU_DEK_REFUSE(dev, out, outlen,
				      EMU_CMD_STAT_BAD_PARAM_ERR,
				      MLX5_EMU_SYND_CRYPTO_PURPOSE,
				      "key_purpose is not AES-XTS or GCM");
	if (EMU_GET(dek, d, state) != 0 ||
	    !EMU_WIDE_FIELD_ZERO(dek, d, modify_field_select) ||
	    EMU_GET(dek, d, reserved_at_48) != 0 ||
	    EMU_GET(dek, d, reserved_at_59) != 0 ||
	    EMU_GET(dek, d, reserved_at_60) != 0 ||
	    !EMU_WIDE_FIELD_ZERO(dek, d, reserved_at_80) ||
	    !EMU_WIDE_FIELD_ZERO(dek, d, reserved_at_1c0) ||
	    !EMU_WIDE_FIELD_ZERO(dek, d, reserved_at_600))
		return EMU_DEK_REFUSE(dev, out, outlen,
				      EMU_CMD_STAT_BAD_PARAM_ERR,
				      MLX5_EMU_SYND_CRYPTO_RESERVED,
				      "state, field select or reserved set");
	if (!emu_pd_exists(dev, EMU_GET(dek, d, pd)))
		return EMU_DEK_REFUSE(dev, out, outlen,
				      EMU_CMD_STAT_BAD_RES_ERR,
				      MLX5_EMU_SYND_CRYPTO_PD,
				      "pd not allocated on this device");
	if (cr->ndeks >= (1u << dev->caps.log_max_num_deks))
		return EMU_DEK_REFUSE(dev, out, outlen, EMU_CMD_STAT_LIM_ERR,
				      MLX5_EMU_SYND_CRYPTO_DEK_LIMIT,
				      "all DEKs in use");
	if (EMU_GET(dek, d, key_purpose) == MLX5_CRYPTO_KEY_PURPOSE_GCM)
		return emu_dek_gcm_create(dev, cr, d, out, outlen, id, priv);
	half = key_size ? 32 : 16;
	klen = 2 * half + (EMU_GET(dek, d, has_keytag) ? EMU_KEYTAG_LEN : 0);
	ret = emu_dek_key(dev, cr, d, klen, plain, out, outlen);
	if (ret != 0)
		return ret;
	dek = calloc(1, sizeof(*dek));
	if (dek == NULL) {
		memset(plain, 0, sizeof(plain));
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_LIM_ERR,
				    MLX5_EMU_SYND_NONE);
	}
	dek->xts = emu_xts_new(plain, half);
	if (dek->xts == NULL) {
		free(dek);
		/* OpenSSL's aes-xts refuses equal halves
		 * (XTS_DUPLICATED_KEYS).
		 */
		ret = memcmp(plain, plain + half, half) == 0;
		memset(plain, 0, sizeof(plain));
		if (ret)
			return EMU_DEK_REFUSE(dev, out, outlen,
					      EMU_CMD_STAT_BAD_PARAM_ERR,
					      MLX5_EMU_SYND_CRYPTO_WEAK_KEY,
					      "the two XTS keys are equal");
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_LIM_ERR,
				    MLX5_EMU_SYND_NONE);
	}
	dek->obj_type = MLX5_GENERAL_OBJ_TYPE_DEK;
	dek->key_size = key_size;
	dek->has_keytag = EMU_GET(dek, d, has_keytag);
	dek->key_purpose = EMU_GET(dek, d, key_purpose);
	dek->pdn = EMU_GET(dek, d, pd);
	dek->opaque = EMU_GET64(dek, d, opaque);
	if (dek->has_keytag)
		memcpy(&dek->keytag, plain + 2 * half, EMU_KEYTAG_LEN);
	memset(plain, 0, sizeof(plain));
	dek->id = emu_net_new_id(dev->net);
	emu_net_lock();
	TAILQ_INSERT_TAIL(&cr->deks, dek, next);
	cr->ndeks++;
	emu_net_unlock();
	*id = dek->id;
	*priv = dek;
	return 0;
}

int
emu_dek_query(struct emu_dev *dev, const struct emu_dek *dek, void *out,
	      size_t outlen)
{
	size_t hdr = MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr);
	void *d;

	if (outlen < hdr + MLX5_ST_SZ_BYTES(dek))
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_OUTP_LEN_ERR,
				    MLX5_EMU_SYND_OUTLEN);
	emu_cmd_ok(out, outlen);
	MLX5_SET(general_obj_out_cmd_hdr, out, obj_id, dek->id);
	d = (uint8_t *)out + hdr;
	MLX5_SET(dek, d, state, EMU_DEK_STATE_READY);
	MLX5_SET(dek, d, key_size, dek->key_size);
	MLX5_SET(dek, d, has_keytag, dek->has_keytag);
	MLX5_SET(dek, d, key_purpose, dek->key_purpose);
	MLX5_SET(dek, d, pd, dek->pdn);
	emu_put_be64(MLX5_ADDR_OF(dek, d, opaque), dek->opaque);
	return 0;
}

void
emu_dek_destroy(struct emu_crypto *cr, struct emu_dek *dek)
{
	emu_net_lock();
	TAILQ_REMOVE(&cr->deks, dek, next);
	cr->ndeks--;
	if (cr->dek_last == dek)
		cr->dek_last = NULL;
	emu_net_unlock();
	emu_xts_free(dek->xts);
	emu_gcm_free(dek->gcm);
	free(dek);
}
