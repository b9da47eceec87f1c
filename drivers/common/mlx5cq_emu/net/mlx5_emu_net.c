/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Per-device network state and the dispatch of the network DevX objects
 * (TD, TIS, SQ, RQ, RQT, TIR) from the object table of mlx5_emu_obj.c.
 * A TIR a steering action sends to is busy (mlx5_emu_steer.c); at close
 * the device's steering objects are freed first.
 * All entries run with dev->lock held (see the lock order in
 * mlx5_emu_net.h).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <mlx5_prm.h>

#include "mlx5_emu_crypto.h"

struct emu_net *
emu_net_get(struct emu_dev *dev)
{
	static const uint8_t mac0[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x00 };
	struct emu_net *net = dev->net;
	uint8_t mac[6];

	if (net != NULL)
		return net;
	/* The model's own limit (its memory); injected for the tests. */
	if (emu_fault_hit(dev, MLX5_EMU_FAIL_NET_STATE))
		return NULL;
	net = calloc(1, sizeof(*net));
	if (net == NULL)
		return NULL;
	net->dev = dev;
	TAILQ_INIT(&net->mrs);
	TAILQ_INIT(&net->tds);
	TAILQ_INIT(&net->tiss);
	TAILQ_INIT(&net->sqs);
	TAILQ_INIT(&net->rqs);
	TAILQ_INIT(&net->rqts);
	TAILQ_INIT(&net->tirs);
	TAILQ_INIT(&net->qcnts);
	TAILQ_INIT(&net->doms);
	net->next_id = EMU_NET_ID_BASE;
	net->next_lkey = EMU_MR_LKEY_BASE;
	/* Until configured: a locally administered MAC from the vhca id. */
	memcpy(mac, mac0, sizeof(mac));
	mac[4] = (uint8_t)(dev->vhca_id >> 8);
	mac[5] = (uint8_t)dev->vhca_id;
	emu_vport_init(&net->vport, mac);
	emu_net_lock();
	emu_engine_attach(net);
	emu_net_unlock();
	dev->net = net;
	return net;
}

struct emu_net *
emu_net_enter(struct emu_dev *dev)
{
	struct emu_net *net;

	pthread_mutex_lock(&dev->lock);
	net = emu_net_get(dev);
	if (net == NULL) {
		pthread_mutex_unlock(&dev->lock);
		return NULL;
	}
	emu_net_lock();
	return net;
}

void
emu_net_leave(struct emu_dev *dev)
{
	emu_net_unlock();
	pthread_mutex_unlock(&dev->lock);
}

uint32_t
emu_net_new_id(struct emu_net *net)
{
	return net->next_id++ & 0xffffff;
}

int
emu_net_obj_create(struct emu_dev *dev, uint16_t opcode, const void *in,
		   size_t inlen, void *out, size_t outlen, uint32_t *id,
		   void **priv)
{
	struct emu_net *net;

	switch (opcode) {
	case MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN:
	case MLX5_CMD_OP_CREATE_TIS:
	case MLX5_CMD_OP_CREATE_SQ:
	case MLX5_CMD_OP_CREATE_RQ:
	case MLX5_CMD_OP_CREATE_RQT:
	case MLX5_CMD_OP_CREATE_TIR:
	case MLX5_CMD_OP_ALLOC_Q_COUNTER:
		break;
	default:
		return 1;
	}
	net = emu_net_get(dev);
	if (net == NULL)
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_LIM_ERR,
				    MLX5_EMU_SYND_NONE);
	switch (opcode) {
	case MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN:
		return emu_td_create(dev, net, in, inlen, out, outlen, id,
				     priv);
	case MLX5_CMD_OP_CREATE_TIS:
		return emu_tis_create(dev, net, in, inlen, out, outlen, id,
				      priv);
	case MLX5_CMD_OP_CREATE_SQ:
		return emu_sq_create(dev, net, in, inlen, out, outlen, id,
				     priv);
	case MLX5_CMD_OP_CREATE_RQ:
		return emu_rq_create(dev, net, in, inlen, out, outlen, id,
				     priv);
	case MLX5_CMD_OP_CREATE_RQT:
		return emu_rqt_create(dev, net, in, inlen, out, outlen, id,
				      priv);
	case MLX5_CMD_OP_ALLOC_Q_COUNTER:
		return emu_qcnt_create(dev, net, in, inlen, out, outlen, id,
				       priv);
	default:
		return emu_tir_create(dev, net, in, inlen, out, outlen, id,
				      priv);
	}
}

/* Destroy of an object others still use: RES_BUSY (EBUSY). */
static int
emu_net_busy_fail(struct emu_dev *dev, const char *what, uint32_t id,
		  uint32_t users)
{
	uint8_t out[8];

	EMU_LOG(ERR, "%s: destroy %s 0x%x refused: used by %u object(s)",
		dev->name, what, id, users);
	return emu_cmd_fail(dev, out, sizeof(out), EMU_CMD_STAT_RES_BUSY,
			    MLX5_EMU_SYND_NET_BUSY);
}

int
emu_net_obj_destroy(struct emu_dev *dev, uint16_t type, void *priv)
{
	struct emu_net *net = dev->net;
	int ret = 0;

	switch (type) {
	case MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN: {
		struct emu_td *td = priv;

		if (td->refcnt != 0)
			return emu_net_busy_fail(dev, "TD", td->id, td->refcnt);
		emu_net_lock();
		TAILQ_REMOVE(&net->tds, td, next);
		net->nstats.tds--;
		emu_net_unlock();
		free(td);
		return 0;
	}
	case MLX5_CMD_OP_CREATE_TIS: {
		struct emu_tis *tis = priv;

		if (tis->refcnt != 0)
			return emu_net_busy_fail(dev, "TIS", tis->id,
						 tis->refcnt);
		emu_net_lock();
		TAILQ_REMOVE(&net->tiss, tis, next);
		net->nstats.tiss--;
		tis->td->refcnt--;
		emu_net_unlock();
		free(tis);
		return 0;
	}
	case MLX5_CMD_OP_CREATE_SQ:
		return emu_sq_destroy(dev, priv);
	case MLX5_CMD_OP_ALLOC_Q_COUNTER:
		return emu_qcnt_destroy(dev, net, priv);
	case MLX5_CMD_OP_CREATE_RQ: {
		struct emu_rq *rq = priv;

		if (rq->refcnt != 0)
			return emu_net_busy_fail(dev, "RQ", rq->rqn,
						 rq->refcnt);
		return emu_rq_destroy(dev, rq);
	}
	case MLX5_CMD_OP_CREATE_RQT: {
		struct emu_rqt *rqt = priv;
		uint32_t i;

		if (rqt->refcnt != 0)
			return emu_net_busy_fail(dev, "RQT", rqt->id,
						 rqt->refcnt);
		emu_net_lock();
		TAILQ_REMOVE(&net->rqts, rqt, next);
		net->nstats.rqts--;
		for (i = 0; i < rqt->size; i++)
			rqt->rqs[i]->refcnt--;
		emu_net_unlock();
		free(rqt->rqs);
		free(rqt);
		return 0;
	}
	case MLX5_CMD_OP_CREATE_TIR: {
		struct emu_tir *tir = priv;

		emu_net_lock();
		/* A steering action sends to it (mlx5_emu_steer.c). */
		if (tir->steer_refs != 0) {
			emu_net_unlock();
			return emu_net_busy_fail(dev, "TIR", tir->id, 1);
		}
		TAILQ_REMOVE(&net->tirs, tir, next);
		net->nstats.tirs--;
		if (tir->rq != NULL)
			tir->rq->refcnt--;
		if (tir->rqt != NULL)
			tir->rqt->refcnt--;
		if (tir->td != NULL)
			tir->td->refcnt--;
		emu_net_unlock();
		free(tir);
		return 0;
	}
	case MLX5_CMD_OP_CREATE_CQ: {
		struct emu_cq *cq = priv;

		if (emu_net_cq_busy(dev, cq->cqn))
			return emu_net_busy_fail(dev, "CQ", cq->cqn, 1);
		return 1;
	}
	default:
		ret = 1;
		break;
	}
	return ret;
}

int
emu_net_obj_modify(struct emu_dev *dev, uint16_t type, void *priv,
		   const void *in, size_t inlen, void *out, size_t outlen)
{
	uint16_t opcode = EMU_GET(general_obj_in_cmd_hdr, in, opcode);

	if (type == MLX5_CMD_OP_CREATE_SQ && opcode == MLX5_CMD_OP_MODIFY_SQ)
		return emu_sq_modify(dev, priv, in, inlen, out, outlen);
	if (type == MLX5_CMD_OP_CREATE_RQ && opcode == MLX5_CMD_OP_MODIFY_RQ)
		return emu_rq_modify(dev, priv, in, inlen, out, outlen);
	return 1;
}

int
emu_net_obj_query(struct emu_dev *dev, uint16_t type, void *priv,
		  const void *in, size_t inlen, void *out, size_t outlen)
{
	uint16_t opcode = EMU_GET(general_obj_in_cmd_hdr, in, opcode);

	if (type == MLX5_CMD_OP_ALLOC_Q_COUNTER &&
	    opcode == MLX5_CMD_OP_QUERY_Q_COUNTER)
		return emu_qcnt_query(dev, priv, in, inlen, out, outlen);
	return 1;
}

int
emu_net_cq_busy(struct emu_dev *dev, uint32_t cqn)
{
	struct emu_net *net = dev->net;
	struct emu_sq *sq;
	struct emu_rq *rq;
	int busy = 0;

	if (net == NULL)
		return 0;
	emu_net_lock();
	TAILQ_FOREACH(sq, &net->sqs, next)
		busy |= sq->wq.cqn == cqn;
	TAILQ_FOREACH(rq, &net->rqs, next)
		busy |= rq->wq.cqn == cqn;
	busy |= emu_crypto_cq_busy(net, cqn);
	emu_net_unlock();
	return busy;
}

int
emu_net_pd_busy(struct emu_dev *dev, uint32_t pdn)
{
	struct emu_net *net = dev->net;
	struct emu_mr *mr;
	struct emu_sq *sq;
	struct emu_rq *rq;
	int busy = 0;

	if (net == NULL)
		return 0;
	emu_net_lock();
	TAILQ_FOREACH(mr, &net->mrs, next)
		busy |= mr->pdn == pdn;
	TAILQ_FOREACH(sq, &net->sqs, next)
		busy |= sq->wq.pdn == pdn;
	TAILQ_FOREACH(rq, &net->rqs, next)
		busy |= rq->wq.pdn == pdn;
	busy |= emu_crypto_pd_busy(net, pdn);
	emu_net_unlock();
	return busy;
}

int
emu_net_busy(const struct emu_dev *dev)
{
	return dev->net != NULL && !TAILQ_EMPTY(&dev->net->mrs);
}

void
emu_net_dev_release(struct emu_dev *dev)
{
	struct emu_net *net = dev->net;

	if (net == NULL)
		return;
	emu_net_lock();
	emu_steer_release(net);
	emu_port_leave(net);
	emu_engine_detach(net);
	emu_net_unlock();
	dev->net = NULL;
	emu_crypto_release(net);
	free(net);
}

int
emu_net_general_cmd(struct emu_dev *dev, uint16_t opcode, const void *in,
		    size_t inlen, void *out, size_t outlen)
{
	switch (opcode) {
	case EMU_CMD_OP_QUERY_VPORT_STATE:
	case MLX5_CMD_OP_QUERY_NIC_VPORT_CONTEXT:
	case EMU_CMD_OP_MODIFY_NIC_VPORT_CONTEXT:
		if (emu_net_get(dev) == NULL)
			return emu_cmd_fail(dev, out, outlen,
					    EMU_CMD_STAT_LIM_ERR,
					    MLX5_EMU_SYND_NONE);
		return emu_vport_cmd(dev, opcode, in, inlen, out, outlen);
	default:
		return 1;
	}
}

int
mlx5_emu_net_stats_get(struct ibv_context *ctx,
		       struct mlx5_emu_net_stats *stats)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);

	if (dev == NULL || stats == NULL)
		return -EINVAL;
	memset(stats, 0, sizeof(*stats));
	pthread_mutex_lock(&dev->lock);
	emu_net_lock();
	if (dev->net != NULL)
		*stats = dev->net->nstats;
	stats->ready_queues = emu_engine_ready_queues();
	stats->steer_plain_actions = emu_steer_plain_acts();
	stats->engine_running = emu_engine_is_running();
	emu_net_unlock();
	pthread_mutex_unlock(&dev->lock);
	return 0;
}

int
mlx5_emu_port_stats_get(struct ibv_context *ctx,
			struct mlx5_emu_port_stats *stats)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);

	if (dev == NULL || stats == NULL)
		return -EINVAL;
	memset(stats, 0, sizeof(*stats));
	pthread_mutex_lock(&dev->lock);
	emu_net_lock();
	if (dev->net != NULL)
		*stats = dev->net->pstats;
	emu_net_unlock();
	pthread_mutex_unlock(&dev->lock);
	return 0;
}
