/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Event moderation changed at run time: MODIFY_CQ (op_mod 0) with
 * modify_field_select cq_period | cq_max_count and the new values in the
 * cqc, as the kernel's mlx5_core_modify_cq_moderation() sends it
 * (mailbox of the kernel's mlx5_ifc.h modify_cq_in: cqn at 0x40,
 * modify_field_select at 0x60, cqc at 0x80). The creation attributes
 * (RTE_MLX5CQ_ATTR_MODERATION) set the same fields in CREATE_CQ.
 */

#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_errno.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>

#include "mlx5cq_private.h"

#define MLX5CQ_CMD_MODIFY_CQ 0x403 /* MLX5_CMD_OP_MODIFY_CQ */
#define MLX5CQ_CQ_MODIFY_PERIOD (1u << 0) /* MLX5_CQ_MODIFY_PERIOD */
#define MLX5CQ_CQ_MODIFY_COUNT (1u << 1) /* MLX5_CQ_MODIFY_COUNT */
#define MLX5CQ_MODIFY_CQ_CQC_OFF 16 /* Bytes before the cqc. */
#define MLX5CQ_CQ_PERIOD_MAX 0xfff /* cqc.cq_period: 12 bits. */

int
rte_mlx5cq_moderation_set(struct rte_mlx5cq *pub, uint16_t period_us,
			  uint16_t max_count)
{
	uint32_t in[(MLX5CQ_MODIFY_CQ_CQC_OFF + MLX5_ST_SZ_BYTES(cqc)) / 4];
	uint32_t out[4];
	struct mlx5cq_cq *cq;
	void *cqc;
	int ret, err;

	if (pub == NULL || period_us > MLX5CQ_CQ_PERIOD_MAX) {
		MLX5CQ_LOG(ERR, "invalid argument: cq=%p period %u us (at most"
			   " %u)", (void *)pub, period_us,
			   MLX5CQ_CQ_PERIOD_MAX);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	cq = mlx5cq_from_pub(pub);
	if (cq->path != RTE_MLX5CQ_PATH_DEVX || cq->obj == NULL) {
		MLX5CQ_LOG(ERR, "CQ 0x%x: moderation changes need the DevX path"
			   " (%s CQ)", pub->cqn,
			   cq->path == RTE_MLX5CQ_PATH_ATTACH ? "an attached" :
			   "a verbs");
		rte_errno = EOPNOTSUPP;
		return -EOPNOTSUPP;
	}
	if (!cq->dev->caps.cq_moderation) {
		MLX5CQ_LOG(ERR, "CQ 0x%x: the device lacks cq_moderation",
			   pub->cqn);
		rte_errno = EOPNOTSUPP;
		return -EOPNOTSUPP;
	}
	memset(in, 0, sizeof(in));
	memset(out, 0, sizeof(out));
	in[0] = rte_cpu_to_be_32((uint32_t)MLX5CQ_CMD_MODIFY_CQ << 16);
	in[2] = rte_cpu_to_be_32(pub->cqn & 0xffffff);
	in[3] = rte_cpu_to_be_32(MLX5CQ_CQ_MODIFY_PERIOD |
				 MLX5CQ_CQ_MODIFY_COUNT);
	cqc = (uint8_t *)in + MLX5CQ_MODIFY_CQ_CQC_OFF;
	MLX5_SET(cqc, cqc, cq_period, period_us);
	MLX5_SET(cqc, cqc, cq_max_count, max_count);
	errno = 0;
	ret = mlx5_glue->devx_obj_modify(cq->obj, in, sizeof(in), out,
					 sizeof(out));
	if (ret != 0 || ((const uint8_t *)out)[0] != 0) {
		err = errno ? errno : EIO;
		MLX5CQ_LOG(ERR, "CQ 0x%x: MODIFY_CQ failed: %s (status %#x"
			   " syndrome %#x)", pub->cqn, strerror(err),
			   ((const uint8_t *)out)[0],
			   rte_be_to_cpu_32(out[1]));
		rte_errno = err;
		return -err;
	}
	return 0;
}
