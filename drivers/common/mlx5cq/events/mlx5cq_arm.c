/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Arming and completion events (rdma-core cq.c mlx5_arm_cq, mlx5dv.h
 * MLX5_CQ_DOORBELL / MLX5_CQ_DB_REQ_NOT_SOL, DPDK mlx5_common.h
 * mlx5_doorbell_ring):
 *   sn = arm_sn & 3, cmd = solicited ? 1 << 24 : 0,
 *   word = sn << 28 | cmd | (ci & 0xffffff)
 *   -> doorbell record word 1 (big endian), write barrier, then one 64-bit
 *   big-endian store of word << 32 | cqn at offset 0x20 of the CQ's UAR
 *   page (DevX: the device UAR's base_addr, as DPDK's cq_db; verbs:
 *   mlx5dv_cq.cq_uar). arm_sn counts the events consumed.
 *
 * Events (RTE_MLX5CQ_F_EVENTS): every event got is counted until
 * rte_mlx5cq_event_ack() (ev_unacked, both paths: acknowledging more than
 * got is refused). DevX CQs get an event channel that omits
 * event data, subscribed on the CQ object to MLX5_EVENT_TYPE_COMP (cookie:
 * the CQ) and MLX5_EVENT_TYPE_CQ_ERROR (cookie: the CQ + 1); verbs CQs a
 * completion channel given to mlx5dv_create_cq. The channel fd is
 * non-blocking for the caller: rte_mlx5cq_event_get() polls it first.
 *
 * CQ errors: rte_mlx5cq_error_check() reads cqc.status with QUERY_CQ
 * (DevX CQs).
 */

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_io.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>

#include "mlx5cq_private.h"

#define MLX5CQ_EV_TYPE_COMP 0x00 /* MLX5_EVENT_TYPE_COMP */
#define MLX5CQ_EV_TYPE_CQ_ERROR 0x04 /* MLX5_EVENT_TYPE_CQ_ERROR */
#define MLX5CQ_CMD_QUERY_CQ 0x402 /* MLX5_CMD_OP_QUERY_CQ */
#define MLX5CQ_CQC_STATUS_OK 0x0

static_assert(MLX5_CQ_DOORBELL == 0x20, "CQ doorbell offset");
static_assert(MLX5_CQ_DB_REQ_NOT_SOL == 1 << 24, "solicited arm");

int
mlx5cq_events_setup(struct rte_mlx5cq_dev *dev, struct mlx5cq_cq *cq)
{
	uint16_t ev_comp[1] = { MLX5CQ_EV_TYPE_COMP };
	uint16_t ev_err[1] = { MLX5CQ_EV_TYPE_CQ_ERROR };
	int ret, err;

	if (cq->path != RTE_MLX5CQ_PATH_DEVX)
		return 0;
	if (dev->uar != NULL)
		cq->uar_db = (uint8_t *)dev->uar->base_addr + MLX5_CQ_DOORBELL;
	if (!(cq->flags & RTE_MLX5CQ_F_EVENTS))
		return 0;
	errno = 0;
	cq->evch = mlx5_glue->devx_create_event_channel(dev->ctx,
		MLX5DV_DEVX_CREATE_EVENT_CHANNEL_FLAGS_OMIT_EV_DATA);
	if (cq->evch == NULL) {
		err = errno ? errno : ENOMEM;
		MLX5CQ_LOG(ERR, "CQ 0x%x: cannot create a DevX event channel:"
			   " %s", cq->pub.cqn, strerror(err));
		return -err;
	}
	errno = 0;
	ret = mlx5_glue->devx_subscribe_devx_event(cq->evch, cq->obj,
						   sizeof(ev_comp), ev_comp,
						   (uint64_t)(uintptr_t)cq);
	if (ret) {
		err = errno ? errno : (ret > 0 ? ret : EIO);
		MLX5CQ_LOG(ERR, "CQ 0x%x: cannot subscribe to completion"
			   " events: %s", cq->pub.cqn, strerror(err));
		mlx5_glue->devx_destroy_event_channel(cq->evch);
		cq->evch = NULL;
		return -err;
	}
	errno = 0;
	ret = mlx5_glue->devx_subscribe_devx_event(cq->evch, cq->obj,
						   sizeof(ev_err), ev_err,
						   (uint64_t)(uintptr_t)cq + 1);
	if (ret)
		MLX5CQ_LOG(DEBUG, "CQ 0x%x: no CQ error events: %s",
			   cq->pub.cqn, strerror(errno ? errno : EIO));
	return 0;
}

void
mlx5cq_events_release(struct mlx5cq_cq *cq)
{
	if (cq->evch != NULL) {
		mlx5_glue->devx_destroy_event_channel(cq->evch);
		cq->evch = NULL;
	}
}

int
rte_mlx5cq_arm(struct rte_mlx5cq *pub, int solicited)
{
	struct mlx5cq_cq *cq;
	uint32_t word;
	uint64_t db;

	if (pub == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	cq = mlx5cq_from_pub(pub);
	if (cq->uar_db == NULL) {
		MLX5CQ_LOG(ERR, "CQ 0x%x: no UAR doorbell to arm (path %d)",
			   pub->cqn, (int)cq->path);
		rte_errno = ENOTSUP;
		return -ENOTSUP;
	}
	if (pub->slow & RTE_MLX5CQ_SLOW_LOCK)
		rte_spinlock_lock(&cq->lock);
	word = (uint32_t)(cq->arm_sn & 3) << 28 |
	       (solicited ? MLX5_CQ_DB_REQ_NOT_SOL : MLX5_CQ_DB_REQ_NOT) |
	       (pub->ci & 0xffffff);
	pub->dbrec[1] = rte_cpu_to_be_32(word);
	rte_io_wmb();
	db = (uint64_t)word << 32 | pub->cqn;
	rte_write64_relaxed(rte_cpu_to_be_64(db), cq->uar_db);
	cq->cnt.arms++;
	if (pub->slow & RTE_MLX5CQ_SLOW_LOCK)
		rte_spinlock_unlock(&cq->lock);
	return 0;
}

int
rte_mlx5cq_event_fd(const struct rte_mlx5cq *pub)
{
	const struct mlx5cq_cq *cq;

	if (pub == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	cq = mlx5cq_from_pub(pub);
	if (cq->evch != NULL)
		return cq->evch->fd;
	if (cq->chan != NULL)
		return cq->chan->fd;
	rte_errno = ENOTSUP;
	return -ENOTSUP;
}

static int
fd_ready(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

int
rte_mlx5cq_event_get(struct rte_mlx5cq *pub)
{
	struct mlx5cq_cq *cq;
	int fd;

	fd = rte_mlx5cq_event_fd(pub);
	if (fd < 0)
		return fd;
	cq = mlx5cq_from_pub(pub);
	if (!fd_ready(fd)) {
		rte_errno = EAGAIN;
		return -EAGAIN;
	}
	if (cq->evch != NULL) {
		union {
			struct mlx5dv_devx_async_event_hdr hdr;
			uint8_t buf[128];
		} ev;
		ssize_t len;

		errno = 0;
		len = mlx5_glue->devx_get_event(cq->evch, &ev.hdr,
						sizeof(ev));
		if (len < (ssize_t)sizeof(ev.hdr.cookie)) {
			int err = errno ? errno : EIO;

			rte_errno = err;
			return -err;
		}
		if (ev.hdr.cookie == (uint64_t)(uintptr_t)cq + 1) {
			MLX5CQ_LOG(ERR, "CQ 0x%x: CQ error event (overrun)",
				   pub->cqn);
			if (cq->err_seen == 0) {
				cq->err_seen = 1;
				cq->cnt.overruns++;
			}
			rte_errno = EIO;
			return -EIO;
		}
		if (ev.hdr.cookie != (uint64_t)(uintptr_t)cq) {
			MLX5CQ_LOG(ERR, "CQ 0x%x: event of unknown cookie"
				   " %#" PRIx64, pub->cqn,
				   (uint64_t)ev.hdr.cookie);
			rte_errno = EPROTO;
			return -EPROTO;
		}
	} else {
		struct ibv_cq *ibcq = NULL;
		void *ctx = NULL;

		errno = 0;
		if (mlx5_glue->get_cq_event(cq->chan, &ibcq, &ctx)) {
			int err = errno ? errno : EIO;

			rte_errno = err;
			return -err;
		}
	}
	/* Counted on both paths: rte_mlx5cq_event_ack() checks n against it
	 * (only verbs passes the acknowledgment on).
	 */
	cq->ev_unacked++;
	cq->arm_sn++;
	cq->cnt.events++;
	return 0;
}

int
rte_mlx5cq_event_ack(struct rte_mlx5cq *pub, unsigned int n)
{
	struct mlx5cq_cq *cq;

	if (pub == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	cq = mlx5cq_from_pub(pub);
	if (cq->evch == NULL && cq->chan == NULL) {
		MLX5CQ_LOG(ERR, "CQ 0x%x: ack of %u events on a CQ without"
			   " events", pub->cqn, n);
		rte_errno = ENOTSUP;
		return -ENOTSUP;
	}
	if (n > cq->ev_unacked) {
		MLX5CQ_LOG(ERR, "CQ 0x%x: ack of %u events, %u unacknowledged",
			   pub->cqn, n, cq->ev_unacked);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	/* DevX channels need no acknowledgment: only the count moves. */
	if (cq->chan != NULL && n != 0)
		mlx5_glue->ack_cq_events(mlx5_glue->cq_ex_to_cq(cq->vcq), n);
	cq->ev_unacked -= n;
	return 0;
}

int
rte_mlx5cq_error_check(struct rte_mlx5cq *pub)
{
	uint32_t in[4];
	uint32_t out[(16 + MLX5_ST_SZ_BYTES(cqc)) / 4];
	struct mlx5cq_cq *cq;
	uint8_t status;
	int ret, err;

	if (pub == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	cq = mlx5cq_from_pub(pub);
	if (cq->path != RTE_MLX5CQ_PATH_DEVX || cq->obj == NULL) {
		rte_errno = ENOTSUP;
		return -ENOTSUP;
	}
	memset(in, 0, sizeof(in));
	memset(out, 0, sizeof(out));
	in[0] = rte_cpu_to_be_32((uint32_t)MLX5CQ_CMD_QUERY_CQ << 16);
	in[2] = rte_cpu_to_be_32(pub->cqn & 0xffffff);
	errno = 0;
	ret = mlx5_glue->devx_obj_query(cq->obj, in, sizeof(in), out,
					sizeof(out));
	if (ret) {
		err = errno ? errno : (ret > 0 ? ret : EIO);
		MLX5CQ_LOG(ERR, "CQ 0x%x: QUERY_CQ failed: %s", pub->cqn,
			   strerror(err));
		rte_errno = err;
		return -err;
	}
	/* cqc.status: the top 4 bits of the context's first byte. */
	status = ((const uint8_t *)out)[16] >> 4;
	if (status == MLX5CQ_CQC_STATUS_OK)
		return 0;
	if (cq->err_seen == 0) {
		cq->err_seen = 1;
		cq->cnt.overruns++;
		MLX5CQ_LOG(ERR, "CQ 0x%x in error: cqc.status %#x", pub->cqn,
			   status);
	}
	return 1;
}
