/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Per-device crypto state and the dispatch of the crypto general
 * objects from the object table of mlx5_emu_obj.c.
 *
 * Contract: CREATE_GENERAL_OBJECT (0xa00) of type DEK (0xc), IMPORT_KEK
 * (0x1d), CREDENTIAL (0x1e) and CRYPTO_LOGIN (0x1f); QUERY_GENERAL_OBJECT
 * (0xa02) of a DEK, with obj_type and obj_id naming that object;
 * CREATE_MKEY (mlx5_emu_mkey.c) and CREATE_QP / QP state commands
 * (mlx5_emu_qp.c) on a device with caps.crypto (elsewhere BAD_OP, as
 * before). A type
 * the device does not offer in general_obj_types (no caps.crypto; KEK,
 * credential and login in plaintext mode) fails with BAD_PARAM
 * (MLX5_EMU_SYND_CRYPTO_TYPE). The general object header's reserved
 * bits and obj_id must be 0 on create (BAD_PARAM, HDR_RESERVED).
 * Destroy of a KEK or credential a login uses fails with RES_BUSY.
 */

#include <errno.h>
#include <stdlib.h>

#include <mlx5_prm.h>

#include "mlx5_emu_crypto.h"

int
emu_crypto_refuse(struct emu_dev *dev, void *out, size_t outlen,
		  uint8_t status, uint32_t synd, const char *what,
		  const char *why)
{
	EMU_LOG(ERR, "%s: %s: %s", dev->name, what, why);
	return emu_cmd_fail(dev, out, outlen, status, synd);
}

struct emu_crypto *
emu_crypto_get(struct emu_dev *dev)
{
	struct emu_net *net = emu_net_get(dev);
	struct emu_crypto *cr;
	unsigned int i;

	if (net == NULL)
		return NULL;
	if (net->crypto != NULL)
		return net->crypto;
	cr = calloc(1, sizeof(*cr));
	if (cr == NULL)
		return NULL;
	TAILQ_INIT(&cr->keks);
	TAILQ_INIT(&cr->creds);
	TAILQ_INIT(&cr->logins);
	TAILQ_INIT(&cr->deks);
	TAILQ_INIT(&cr->mkeys);
	for (i = 0; i < EMU_MKEY_HASH; i++)
		LIST_INIT(&cr->mkey_hash[i]);
	if (emu_crypto_provision(dev, cr) != 0) {
		free(cr);
		return NULL;
	}
	TAILQ_INIT(&cr->qps);
	emu_net_lock();
	net->crypto = cr;
	emu_net_unlock();
	return cr;
}

void
emu_crypto_release(struct emu_net *net)
{
	if (net->crypto != NULL)
		emu_crypto_unprovision(net->crypto);
	free(net->crypto);
	net->crypto = NULL;
}

int
emu_crypto_type_offered(const struct emu_dev *dev, uint16_t obj_type)
{
	if (!dev->caps.crypto)
		return 0;
	switch (obj_type) {
	case MLX5_GENERAL_OBJ_TYPE_DEK:
		return 1;
	case MLX5_GENERAL_OBJ_TYPE_IMPORT_KEK:
	case MLX5_GENERAL_OBJ_TYPE_CREDENTIAL:
	case MLX5_GENERAL_OBJ_TYPE_CRYPTO_LOGIN:
		return dev->caps.crypto_wrapped;
	default:
		return 0;
	}
}

struct emu_dek *
emu_dek_lookup(struct emu_crypto *cr, uint32_t id)
{
	struct emu_dek *dek;

	if (cr == NULL)
		return NULL;
	dek = cr->dek_last;
	if (dek != NULL && dek->id == id)
		return dek;
	TAILQ_FOREACH(dek, &cr->deks, next)
		if (dek->id == id)
			break;
	if (dek != NULL)
		cr->dek_last = dek;
	return dek;
}

static int
emu_general_obj_create(struct emu_dev *dev, const void *in, size_t inlen,
		       void *out, size_t outlen, uint32_t *id, void **priv)
{
	uint16_t type = EMU_GET(general_obj_in_cmd_hdr, in, obj_type);
	struct emu_crypto *cr;
	int ret;

	switch (type) {
	case MLX5_GENERAL_OBJ_TYPE_DEK:
	case MLX5_GENERAL_OBJ_TYPE_IMPORT_KEK:
	case MLX5_GENERAL_OBJ_TYPE_CREDENTIAL:
	case MLX5_GENERAL_OBJ_TYPE_CRYPTO_LOGIN:
		break;
	default:
		return 1;
	}
	if (!emu_crypto_type_offered(dev, type)) {
		EMU_LOG(ERR, "%s: CREATE_GENERAL_OBJECT: type 0x%x not offered"
			" (crypto %u, wrapped keys %u)", dev->name, type,
			dev->caps.crypto, dev->caps.crypto_wrapped);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_CRYPTO_TYPE);
	}
	if (inlen < MLX5_ST_SZ_BYTES(general_obj_in_cmd_hdr))
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_INP_LEN_ERR,
				    MLX5_EMU_SYND_INLEN);
	if (outlen < MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr))
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_OUTP_LEN_ERR,
				    MLX5_EMU_SYND_OUTLEN);
	if (EMU_GET(general_obj_in_cmd_hdr, in, obj_id) != 0 ||
	    EMU_GET(general_obj_in_cmd_hdr, in, obj_offset) != 0) {
		EMU_LOG(ERR, "%s: CREATE_GENERAL_OBJECT: obj_id/range set",
			dev->name);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_HDR_RESERVED);
	}
	cr = emu_crypto_get(dev);
	if (cr == NULL)
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_LIM_ERR,
				    MLX5_EMU_SYND_NONE);
	switch (type) {
	case MLX5_GENERAL_OBJ_TYPE_DEK:
		ret = emu_dek_create(dev, cr, in, inlen, out, outlen, id, priv);
		break;
	case MLX5_GENERAL_OBJ_TYPE_IMPORT_KEK:
		ret = emu_kek_create(dev, cr, in, inlen, out, outlen, id, priv);
		break;
	case MLX5_GENERAL_OBJ_TYPE_CREDENTIAL:
		ret = emu_cred_create(dev, cr, in, inlen, out, outlen, id,
				      priv);
		break;
	default:
		ret = emu_login_create(dev, cr, in, inlen, out, outlen, id,
				       priv);
		break;
	}
	if (ret == 0) {
		emu_cmd_ok(out, outlen);
		MLX5_SET(general_obj_out_cmd_hdr, out, obj_id, *id);
	}
	return ret;
}

int
emu_crypto_obj_create(struct emu_dev *dev, uint16_t opcode, const void *in,
		      size_t inlen, void *out, size_t outlen, uint32_t *id,
		      void **priv)
{
	struct emu_crypto *cr;

	switch (opcode) {
	case MLX5_CMD_OP_CREATE_GENERAL_OBJECT:
		return emu_general_obj_create(dev, in, inlen, out, outlen, id,
					      priv);
	case MLX5_CMD_OP_CREATE_MKEY:
	case MLX5_CMD_OP_CREATE_QP:
		/* Modelled for the crypto engine only. */
		if (!dev->caps.crypto)
			return 1;
		break;
	default:
		return 1;
	}
	cr = emu_crypto_get(dev);
	if (cr == NULL)
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_LIM_ERR,
				    MLX5_EMU_SYND_NONE);
	if (opcode == MLX5_CMD_OP_CREATE_MKEY)
		return emu_mkey_create(dev, cr, in, inlen, out, outlen, id,
				       priv);
	return emu_qp_create(dev, cr, in, inlen, out, outlen, id, priv);
}

int
emu_crypto_obj_destroy(struct emu_dev *dev, uint16_t type, void *priv)
{
	struct emu_crypto *cr = dev->net != NULL ? dev->net->crypto : NULL;

	if (cr == NULL)
		return 1;
	if (type == MLX5_CMD_OP_CREATE_MKEY) {
		emu_mkey_destroy(cr, priv);
		return 0;
	}
	if (type == MLX5_CMD_OP_CREATE_QP) {
		emu_qp_destroy(cr, priv);
		emu_engine_update();
		return 0;
	}
	if (type != MLX5_CMD_OP_CREATE_GENERAL_OBJECT)
		return 1;
	switch (*(uint16_t *)priv) {
	case MLX5_GENERAL_OBJ_TYPE_DEK:
		emu_dek_destroy(cr, priv);
		return 0;
	case MLX5_GENERAL_OBJ_TYPE_IMPORT_KEK:
		return emu_kek_destroy(dev, cr, priv);
	case MLX5_GENERAL_OBJ_TYPE_CREDENTIAL:
		return emu_cred_destroy(dev, cr, priv);
	case MLX5_GENERAL_OBJ_TYPE_CRYPTO_LOGIN:
		emu_login_destroy(cr, priv);
		return 0;
	default:
		return 1;
	}
}

/* The firmware number of a crypto general object (its handle's priv). */
static uint32_t
crypto_obj_id(const void *priv)
{
	switch (*(const uint16_t *)priv) {
	case MLX5_GENERAL_OBJ_TYPE_DEK:
		return ((const struct emu_dek *)priv)->id;
	case MLX5_GENERAL_OBJ_TYPE_IMPORT_KEK:
		return ((const struct emu_kek *)priv)->id;
	case MLX5_GENERAL_OBJ_TYPE_CREDENTIAL:
		return ((const struct emu_cred *)priv)->id;
	default:
		return ((const struct emu_login *)priv)->id;
	}
}

int
emu_crypto_obj_query(struct emu_dev *dev, uint16_t type, void *priv,
		     const void *in, size_t inlen, void *out, size_t outlen)
{
	uint16_t opcode = EMU_GET(general_obj_in_cmd_hdr, in, opcode);
	uint16_t obj_type;
	uint32_t obj_id;

	if (type != MLX5_CMD_OP_CREATE_GENERAL_OBJECT)
		return 1;
	if (opcode != MLX5_CMD_OP_QUERY_GENERAL_OBJECT)
		return 1;
	if (inlen < MLX5_ST_SZ_BYTES(general_obj_in_cmd_hdr))
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_INP_LEN_ERR,
				    MLX5_EMU_SYND_INLEN);
	obj_type = EMU_GET(general_obj_in_cmd_hdr, in, obj_type);
	obj_id = EMU_GET(general_obj_in_cmd_hdr, in, obj_id);
	/*
	 * Kernel devx.c MLX5_IB_METHOD_DEVX_OBJ_QUERY: devx_is_valid_obj_id()
	 * compares the handle's number with devx_get_obj_id(), which
	 * encodes obj_type beside obj_id: another type or number is EINVAL
	 * before the firmware.
	 */
	if (obj_type != *(uint16_t *)priv || obj_id != crypto_obj_id(priv)) {
		EMU_LOG(ERR, "%s: QUERY_GENERAL_OBJECT: type 0x%x number 0x%x"
			" is not the handle's object (type 0x%x)", dev->name,
			obj_type, obj_id, *(uint16_t *)priv);
		return emu_ret_errno(EINVAL);
	}
	/* Only DEKs are queried: the model's own limit. */
	if (obj_type != MLX5_GENERAL_OBJ_TYPE_DEK) {
		EMU_LOG(ERR, "%s: QUERY_GENERAL_OBJECT: type 0x%x (only DEKs"
			" are queried)", dev->name, obj_type);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_CRYPTO_TYPE);
	}
	return emu_dek_query(dev, priv, out, outlen);
}

int
emu_crypto_obj_modify(struct emu_dev *dev, uint16_t type, void *priv,
		      const void *in, size_t inlen, void *out, size_t outlen)
{
	int ret;

	if (type != MLX5_CMD_OP_CREATE_QP)
		return 1;
	ret = emu_qp_modify(dev, priv, in, inlen, out, outlen);
	if (ret == 0)
		emu_engine_update();
	return ret;
}

int
emu_crypto_cq_busy(struct emu_net *net, uint32_t cqn)
{
	struct emu_qp *qp;

	if (net->crypto == NULL)
		return 0;
	TAILQ_FOREACH(qp, &net->crypto->qps, next)
		if (qp->wq.cqn == cqn)
			return 1;
	return 0;
}

int
emu_crypto_pd_busy(struct emu_net *net, uint32_t pdn)
{
	struct emu_crypto *cr = net->crypto;
	struct emu_mkey *mk;
	struct emu_dek *dek;
	struct emu_qp *qp;
	int busy = 0;

	if (cr == NULL)
		return 0;
	TAILQ_FOREACH(qp, &cr->qps, next)
		busy |= qp->wq.pdn == pdn;
	TAILQ_FOREACH(mk, &cr->mkeys, next)
		busy |= mk->pdn == pdn;
	TAILQ_FOREACH(dek, &cr->deks, next)
		busy |= dek->pdn == pdn;
	return busy;
}

uint32_t
emu_crypto_ready_qps(struct emu_net *net)
{
	struct emu_qp *qp;
	uint32_t n = 0;

	if (net->crypto == NULL)
		return 0;
	TAILQ_FOREACH(qp, &net->crypto->qps, next)
		n += qp->qp_state == EMU_QP_RTS;
	return n;
}

unsigned int
emu_crypto_progress(struct emu_net *net)
{
	struct emu_qp *qp;
	unsigned int n = 0;

	if (net->crypto == NULL)
		return 0;
	TAILQ_FOREACH(qp, &net->crypto->qps, next)
		n += emu_qp_progress(qp);
	return n;
}
