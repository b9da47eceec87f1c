/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Queue counter sets: ALLOC_Q_COUNTER 0x771 (a DevX object, freed by its
 * destroy: the kernel's DEALLOC_Q_COUNTER 0x772) and QUERY_Q_COUNTER
 * 0x773 (mlx5_prm.h alloc_q_counter_in/out, query_q_counter_in/out; what
 * rte_common_mlx5's mlx5_devx_cmd_queue_counter_alloc/query send).
 *
 * A set has an 8-bit counter_set_id (1..EMU_QCNT_MAX, the lowest free
 * one); an RQ created with rqc.counter_set_id of a set of its device
 * counts in it the frames it drops for lack of a posted WQE
 * (out_of_buffer, 32 bits, wrapping as the firmware's). Firmware checks:
 * op_mod 0 (else BAD_PARAM), no free id (LIM_ERR), the query's
 * counter_set_id must be the object's (BAD_PARAM, MLX5_EMU_SYND_OBJ_ID),
 * op_mod of the query 0 (BAD_PARAM); a set an RQ still uses cannot be
 * freed (RES_BUSY); clear=1 zeroes the counters after the read. The other
 * counters of query_q_counter_out (RDMA transport errors) stay 0.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <mlx5_prm.h>

#include "mlx5_emu_net.h"

struct emu_qcnt *
emu_qcnt_lookup(struct emu_net *net, uint32_t id)
{
	struct emu_qcnt *q;

	TAILQ_FOREACH(q, &net->qcnts, next)
		if (q->id == id)
			return q;
	return NULL;
}

int
emu_qcnt_create(struct emu_dev *dev, struct emu_net *net, const void *in,
		size_t inlen, void *out, size_t outlen, uint32_t *id,
		void **priv)
{
	struct emu_qcnt *q;
	uint32_t i;
	int ret;

	ret = emu_net_check_lens(dev, "ALLOC_Q_COUNTER", inlen,
				 MLX5_ST_SZ_BYTES(alloc_q_counter_in), out,
				 outlen, MLX5_ST_SZ_BYTES(alloc_q_counter_out));
	if (ret != 0)
		return ret;
	if (EMU_GET(alloc_q_counter_in, in, op_mod) != 0) {
		EMU_LOG(ERR, "%s: ALLOC_Q_COUNTER: op_mod %u not supported",
			dev->name, EMU_GET(alloc_q_counter_in, in, op_mod));
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_BAD_OP_MOD);
	}
	for (i = 1; i <= EMU_QCNT_MAX; i++)
		if (emu_qcnt_lookup(net, i) == NULL)
			break;
	if (i > EMU_QCNT_MAX) {
		EMU_LOG(ERR, "%s: ALLOC_Q_COUNTER: all %u counter sets in use",
			dev->name, EMU_QCNT_MAX);
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_LIM_ERR,
				    MLX5_EMU_SYND_NET_QCNT);
	}
	q = calloc(1, sizeof(*q));
	if (q == NULL)
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_LIM_ERR,
				    MLX5_EMU_SYND_NONE);
	q->id = i;
	emu_net_lock();
	TAILQ_INSERT_TAIL(&net->qcnts, q, next);
	emu_net_unlock();
	emu_cmd_ok(out, outlen);
	MLX5_SET(alloc_q_counter_out, out, counter_set_id, q->id);
	*id = q->id;
	*priv = q;
	return 0;
}

int
emu_qcnt_destroy(struct emu_dev *dev, struct emu_net *net,
		 struct emu_qcnt *q)
{
	if (q->refcnt != 0) {
		uint8_t out[8];

		EMU_LOG(ERR, "%s: DEALLOC_Q_COUNTER 0x%x refused: used by %u "
			"RQ(s)", dev->name, q->id, q->refcnt);
		return emu_cmd_fail(dev, out, sizeof(out),
				    EMU_CMD_STAT_RES_BUSY,
				    MLX5_EMU_SYND_NET_BUSY);
	}
	emu_net_lock();
	TAILQ_REMOVE(&net->qcnts, q, next);
	emu_net_unlock();
	free(q);
	return 0;
}

int
emu_qcnt_query(struct emu_dev *dev, struct emu_qcnt *q, const void *in,
	       size_t inlen, void *out, size_t outlen)
{
	int ret;

	ret = emu_net_check_lens(dev, "QUERY_Q_COUNTER", inlen,
				 MLX5_ST_SZ_BYTES(query_q_counter_in), out,
				 outlen, MLX5_ST_SZ_BYTES(query_q_counter_out));
	if (ret != 0)
		return ret;
	if (EMU_GET(query_q_counter_in, in, op_mod) != 0) {
		EMU_LOG(ERR, "%s: QUERY_Q_COUNTER: op_mod %u not supported",
			dev->name, EMU_GET(query_q_counter_in, in, op_mod));
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_BAD_OP_MOD);
	}
	if (EMU_GET(query_q_counter_in, in, counter_set_id) != q->id) {
		EMU_LOG(ERR, "%s: QUERY_Q_COUNTER: counter_set_id 0x%x is not "
			"this object (0x%x)", dev->name,
			EMU_GET(query_q_counter_in, in, counter_set_id), q->id);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_OBJ_ID);
	}
	emu_cmd_ok(out, outlen);
	emu_net_lock();
	MLX5_SET(query_q_counter_out, out, out_of_buffer, q->out_of_buffer);
	if (EMU_GET(query_q_counter_in, in, clear))
		q->out_of_buffer = 0;
	emu_net_unlock();
	return 0;
}
