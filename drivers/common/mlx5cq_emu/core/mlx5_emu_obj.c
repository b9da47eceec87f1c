/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Firmware command plumbing and the DevX object table.
 *
 * A failed command leaves status and syndrome in its output mailbox at the
 * PRM offsets (status byte 0, syndrome big-endian at byte 4) and the call
 * fails with the errno the kernel maps that status to (cmd_status_to_err in
 * drivers/net/ethernet/mellanox/mlx5/core/cmd.c). Note: since the kernel
 * switched DevX to mlx5_cmd_do() (5.18), a firmware error reaches user space
 * as EREMOTEIO with the output mailbox copied; older kernels returned the
 * mapped errno. The model keeps the mapped errno (it says more) and also
 * fills the mailbox, as the newer kernels do.
 *
 * Checks the kernel itself makes before the firmware sees the command
 * (devx.c: vhca_tunnel_id set, query of another object) fail with EINVAL
 * and no firmware status, as there.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <mlx5_prm.h>

#include "mlx5_emu_crypto.h"

void
emu_cmd_begin(struct emu_dev *dev, const void *in, size_t inlen)
{
	size_t n = inlen < EMU_MAX_CMD_IN ? inlen : EMU_MAX_CMD_IN;

	memcpy(dev->last_in, in, n);
	dev->last_in_len = n;
	dev->have_last_in = 1;
	dev->stats.cmds++;
}

int
emu_cmd_status_errno(uint8_t status)
{
	/* Any other failure (INT_ERR, BAD_SYS_STATE, BAD_INP_LEN...): EIO. */
	static const int status_errno[UINT8_MAX + 1] = {
		[EMU_CMD_STAT_BAD_OP_ERR] = EINVAL,
		[EMU_CMD_STAT_BAD_PARAM_ERR] = EINVAL,
		[EMU_CMD_STAT_BAD_RES_ERR] = EINVAL,
		[EMU_CMD_STAT_BAD_RES_STATE_ERR] = EINVAL,
		[EMU_CMD_STAT_IX_ERR] = EINVAL,
		[EMU_CMD_STAT_RES_BUSY] = EBUSY,
		[EMU_CMD_STAT_LIM_ERR] = ENOMEM,
		[EMU_CMD_STAT_NO_RES_ERR] = EAGAIN,
	};

	if (status == EMU_CMD_STAT_OK)
		return 0;
	return status_errno[status] != 0 ? status_errno[status] : EIO;
}

void
emu_cmd_ok(void *out, size_t outlen)
{
	memset(out, 0, outlen);
}

int
emu_cmd_fail(struct emu_dev *dev, void *out, size_t outlen, uint8_t status,
	     uint32_t syndrome)
{
	uint8_t *o = out;
	rte_be32_t synd = rte_cpu_to_be_32(syndrome);

	memset(out, 0, outlen);
	if (outlen >= 1)
		o[0] = status;
	if (outlen >= 8)
		memcpy(o + 4, &synd, sizeof(synd));
	dev->last_status = status;
	dev->last_syndrome = syndrome;
	dev->have_last_err = 1;
	dev->stats.cmd_errors++;
	EMU_LOG(DEBUG, "%s: command 0x%x failed: status 0x%x syndrome 0x%08x",
		dev->name,
		dev->last_in_len >= 2 ?
		(unsigned int)(dev->last_in[0] << 8 | dev->last_in[1]) : 0u,
		status, syndrome);
	return emu_cmd_status_errno(status);
}

/*
 * Kernel-side checks common to object commands (devx.c): the 8-byte
 * bound is the model's own; vhca_tunnel_id is refused for user objects.
 */
static int
emu_devx_kernel_checks(const void *in, size_t inlen, void *out, size_t outlen)
{
	if (in == NULL || out == NULL || inlen < 8 || outlen < 8)
		return emu_ret_errno(EINVAL);
	/* vhca_tunnel_id (bits 0x20..0x2f of every command) must be 0. */
	if (((const uint8_t *)in)[4] != 0 || ((const uint8_t *)in)[5] != 0)
		return emu_ret_errno(EINVAL);
	return 0;
}

struct mlx5dv_devx_obj *
emu_devx_obj_create(struct emu_dev *dev, const void *in, size_t inlen,
		    void *out, size_t outlen)
{
	struct emu_obj *obj;
	struct emu_cq *cq = NULL;
	uint16_t opcode;
	int ret;

	if (!dev->caps.devx) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	ret = emu_devx_kernel_checks(in, inlen, out, outlen);
	if (ret != 0) {
		EMU_LOG(ERR, "%s: obj_create: bad mailbox or vhca_tunnel_id",
			dev->name);
		errno = ret;
		return NULL;
	}
	emu_cmd_begin(dev, in, inlen);
	opcode = EMU_GET(general_obj_in_cmd_hdr, in, opcode);
	/* No create completes on a failed device (mlx5_emu_health.c). */
	ret = emu_health_cmd_gate(dev, opcode, out, outlen);
	if (ret != 0) {
		errno = ret;
		return NULL;
	}
	if (emu_fault_hit(dev, MLX5_EMU_FAIL_OBJ_CREATE)) {
		errno = emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_LIM_ERR,
				     MLX5_EMU_SYND_INJECTED);
		return NULL;
	}
	obj = calloc(1, sizeof(*obj));
	if (obj == NULL) {
		errno = emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_LIM_ERR,
				     MLX5_EMU_SYND_NONE);
		return NULL;
	}
	switch (opcode) {
	case MLX5_CMD_OP_CREATE_CQ:
		ret = emu_devx_cq_create(dev, in, inlen, out, outlen, &cq);
		if (ret == 0) {
			obj->id = cq->cqn;
			obj->priv = cq;
		}
		break;
	default:
		/* Crypto objects (mlx5_emu_crypto_obj.c); 1: not those. */
		ret = emu_crypto_obj_create(dev, opcode, in, inlen, out,
					    outlen, &obj->id, &obj->priv);
		if (ret != 1)
			break;
		/* Network objects (mlx5_emu_net.c); 1: not one of them. */
		ret = emu_net_obj_create(dev, opcode, in, inlen, out, outlen,
					 &obj->id, &obj->priv);
		if (ret != 1)
			break;
		EMU_LOG(ERR, "%s: obj_create: opcode 0x%x not supported",
			dev->name, opcode);
		ret = emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_BAD_OP_ERR,
				   MLX5_EMU_SYND_BAD_OPCODE);
		break;
	}
	if (ret != 0) {
		free(obj);
		errno = ret;
		return NULL;
	}
	obj->dev = dev;
	obj->type = opcode;
	TAILQ_INSERT_TAIL(&dev->objs, obj, next);
	dev->stats.devx_objs++;
	return (struct mlx5dv_devx_obj *)obj;
}

static int
emu_match_obj(struct emu_dev *dev, const void *ptr)
{
	struct emu_obj *obj;

	TAILQ_FOREACH(obj, &dev->objs, next)
		if ((const void *)obj == ptr)
			return 1;
	return 0;
}

struct emu_dev *
emu_devx_obj_find_locked(const void *ptr)
{
	return emu_dev_find_locked(emu_match_obj, ptr);
}

int
emu_devx_obj_is_ours(const void *ptr)
{
	struct emu_dev *dev = emu_dev_find_locked(emu_match_obj, ptr);

	if (dev == NULL)
		return 0;
	pthread_mutex_unlock(&dev->lock);
	return 1;
}

int
emu_devx_obj_destroy(struct mlx5dv_devx_obj *dvobj)
{
	struct emu_dev *dev = emu_dev_find_locked(emu_match_obj, dvobj);
	struct emu_obj *obj = (struct emu_obj *)dvobj;
	int ret;

	if (dev == NULL)
		return emu_ret_errno(ENOENT);
	dev->stats.cmds++; /* The kernel's destroy command. */
	/* Crypto objects; network objects, and CQs still used by an SQ/RQ
	 * (EBUSY).
	 */
	ret = emu_crypto_obj_destroy(dev, obj->type, obj->priv);
	if (ret == 1)
		ret = emu_net_obj_destroy(dev, obj->type, obj->priv);
	if (ret != 0 && ret != 1) {
		pthread_mutex_unlock(&dev->lock);
		return ret;
	}
	switch (obj->type) {
	case MLX5_CMD_OP_CREATE_CQ:
		emu_cq_free(obj->priv);
		break;
	default:
		break;
	}
	TAILQ_REMOVE(&dev->objs, obj, next);
	dev->stats.devx_objs--;
	pthread_mutex_unlock(&dev->lock);
	free(obj);
	return 0;
}

int
emu_devx_obj_query(struct mlx5dv_devx_obj *dvobj, const void *in,
		   size_t inlen, void *out, size_t outlen)
{
	struct emu_dev *dev = emu_dev_find_locked(emu_match_obj, dvobj);
	struct emu_obj *obj = (struct emu_obj *)dvobj;
	uint16_t opcode;
	int ret;

	if (dev == NULL)
		return emu_ret_errno(ENOENT);
	ret = emu_devx_kernel_checks(in, inlen, out, outlen);
	if (ret != 0)
		goto out;
	emu_cmd_begin(dev, in, inlen);
	opcode = EMU_GET(general_obj_in_cmd_hdr, in, opcode);
	ret = emu_health_cmd_gate(dev, opcode, out, outlen);
	if (ret != 0) {
		ret = ret < 0 ? 0 : ret;
		goto out;
	}
	if (opcode == EMU_CMD_OP_QUERY_CQ &&
	    obj->type == MLX5_CMD_OP_CREATE_CQ)
		ret = emu_devx_cq_query(obj->priv, in, inlen, out, outlen);
	else
		/* QUERY_GENERAL_OBJECT of a DEK; 1: not that. */
		ret = emu_crypto_obj_query(dev, obj->type, obj->priv, in,
					   inlen, out, outlen);
	if (ret == 1)
		/* QUERY_Q_COUNTER (mlx5_emu_net.c); 1: not that. */
		ret = emu_net_obj_query(dev, obj->type, obj->priv, in, inlen,
					out, outlen);
	if (ret == 1) {
		EMU_LOG(ERR, "%s: obj_query: opcode 0x%x not supported on an "
			"object of type 0x%x", dev->name, opcode, obj->type);
		ret = emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_BAD_OP_ERR,
				   MLX5_EMU_SYND_BAD_OPCODE);
	}
out:
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

int
emu_devx_obj_modify(struct mlx5dv_devx_obj *dvobj, const void *in,
		    size_t inlen, void *out, size_t outlen)
{
	struct emu_dev *dev = emu_dev_find_locked(emu_match_obj, dvobj);
	int ret;

	if (dev == NULL)
		return emu_ret_errno(ENOENT);
	ret = emu_devx_kernel_checks(in, inlen, out, outlen);
	if (ret == 0) {
		const struct emu_obj *o = (const struct emu_obj *)dvobj;
		uint16_t opcode = EMU_GET(general_obj_in_cmd_hdr, in, opcode);

		emu_cmd_begin(dev, in, inlen);
		/* A failed device (mlx5_emu_health.c): -1 done, or refused. */
		ret = emu_health_cmd_gate(dev, opcode, out, outlen);
		if (ret == 0 && o->type == MLX5_CMD_OP_CREATE_CQ &&
		    opcode == EMU_CMD_OP_MODIFY_CQ)
			/* MODIFY_CQ: moderation (mlx5_emu_cq.c). */
			ret = emu_devx_cq_modify(o->priv, in, inlen, out,
						 outlen);
		else if (ret == 0)
			/* QP state commands (mlx5_emu_qp.c); 1: not those. */
			ret = emu_crypto_obj_modify(dev, o->type, o->priv, in,
						    inlen, out, outlen);
		else if (ret < 0)
			ret = 0;
		/* MODIFY_SQ / MODIFY_RQ (mlx5_emu_net.c); 1: not those. */
		if (ret == 1)
			ret = emu_net_obj_modify(dev, o->type, o->priv, in,
						 inlen, out, outlen);
	}
	if (ret == 1) {
		/* No other object of the model is modifiable. */
		EMU_LOG(ERR, "%s: obj_modify: opcode 0x%x not supported",
			dev->name, EMU_GET(general_obj_in_cmd_hdr, in, opcode));
		ret = emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_BAD_OP_ERR,
				   MLX5_EMU_SYND_BAD_OPCODE);
	}
	pthread_mutex_unlock(&dev->lock);
	return ret;
}
