/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * mlx5cq device: what the library keeps per verbs context.
 *
 * Open decides whether DevX works on the context (rte_common_mlx5's
 * mlx5_devx_cmd_query_hca_attr() through the glue; on failure the device is
 * verbs only), keeps the CQ capabilities of both paths, allocates a DevX UAR
 * for the CQs' arm doorbells.
 *
 * A context's buffer allocators (MLX5DV_CTX_ATTR_BUF_ALLOCATORS) belong to
 * whoever opened it: rte_common_mlx5's mlx5_set_context_attr() installs its
 * own on the contexts it opens, and rdma-core keeps one pair per context
 * with no way to read it back (mlx5_set_context_attr() in providers/mlx5/
 * mlx5.c only stores). So the library installs rte_malloc-backed ones only
 * when the caller hands them over (RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS), and
 * removes only those on close; otherwise verbs-path rings come from the
 * owner's allocators or rdma-core's own memory.
 */

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>

#include <rte_debug.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_memory.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>
#include <mlx5_devx_cmds.h>

#include "mlx5cq_private.h"

/* Largest CQ assumed when verbs cannot tell (rdma-core's own limit). */
#define MLX5CQ_VERBS_LOG_MAX_CQ_SZ 24

/* CQ capabilities QUERY_HCA_CAP holds beyond struct mlx5_hca_attr. */
static int
dev_query_cq_caps(struct rte_mlx5cq_dev *dev)
{
	uint32_t in[MLX5_ST_SZ_DW(query_hca_cap_in)];
	uint32_t out[MLX5_ST_SZ_DW(query_hca_cap_out)];
	struct mlx5cq_caps *c = &dev->caps;
	void *hcattr;
	int ret;

	memset(in, 0, sizeof(in));
	memset(out, 0, sizeof(out));
	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod,
		 MLX5_GET_HCA_CAP_OP_MOD_GENERAL_DEVICE |
		 MLX5_HCA_CAP_OPMOD_GET_CUR);
	errno = 0;
	ret = mlx5_glue->devx_general_cmd(dev->ctx, in, sizeof(in), out,
					  sizeof(out));
	if (ret || MLX5_GET(query_hca_cap_out, out, status)) {
		MLX5CQ_LOG(ERR, "QUERY_HCA_CAP failed: ret %d errno %d status"
			   " %#x syndrome %#x", ret, errno,
			   MLX5_GET(query_hca_cap_out, out, status),
			   MLX5_GET(query_hca_cap_out, out, syndrome));
		return -EIO;
	}
	hcattr = MLX5_ADDR_OF(query_hca_cap_out, out, capability);
	c->cqe_compression_128 = MLX5_GET(cmd_hca_cap, hcattr,
					  cqe_compression_128);
	/* Gates the padded 128 B stride only (cqc.cqe_sz 2), as the kernel's
	 * create_cq_user() and mlx5e read it; plain 128 B needs no cap.
	 */
	c->cqe_128_always = MLX5_GET(cmd_hca_cap, hcattr, cqe_128_always);
	c->mini_cqe_resp_stride_index = MLX5_GET(cmd_hca_cap, hcattr,
						 mini_cqe_resp_stride_index);
	c->enhanced_cqe_compression = MLX5_GET(cmd_hca_cap, hcattr,
					       enhanced_cqe_compression);
	c->cq_oi = MLX5_GET(cmd_hca_cap, hcattr, cq_oi);
	c->cq_moderation = MLX5_GET(cmd_hca_cap, hcattr, cq_moderation);
	c->scqe_break_moderation = MLX5_GET(cmd_hca_cap, hcattr,
					    scqe_break_moderation);
	c->cq_period_start_from_cqe = MLX5_GET(cmd_hca_cap, hcattr,
					       cq_period_start_from_cqe);
	c->cq_resize = MLX5_GET(cmd_hca_cap, hcattr, cq_resize);
	c->cqe_compression_max_num = MLX5_GET(cmd_hca_cap, hcattr,
					      cqe_compression_max_num);
	c->cqe_compression_timeout = MLX5_GET(cmd_hca_cap, hcattr,
					      cqe_compression_timeout);
	c->sq_ts_format = MLX5_GET(cmd_hca_cap, hcattr, sq_ts_format);
	c->rq_ts_format = MLX5_GET(cmd_hca_cap, hcattr, rq_ts_format);
	return 0;
}

/* DevX capabilities; a negative value means no DevX on this context. */
static int
dev_query_devx(struct rte_mlx5cq_dev *dev)
{
	struct mlx5_hca_attr *attr;
	int ret;

	attr = mlx5cq_zmalloc("mlx5cq_hca_attr", sizeof(*attr), 0,
			      SOCKET_ID_ANY);
	if (attr == NULL)
		return -ENOMEM;
	ret = mlx5_devx_cmd_query_hca_attr(dev->ctx, attr);
	if (ret) {
		MLX5CQ_LOG(INFO, "no DevX on context %s (%d): verbs only",
			   dev->ctx->device ? dev->ctx->device->name : "?",
			   ret);
		mlx5cq_free(attr);
		return -ENOTSUP;
	}
	dev->caps.log_max_cq_sz = (uint8_t)attr->log_max_cq_sz;
	dev->caps.log_max_cq = (uint8_t)attr->log_max_cq;
	dev->caps.cqe_compression = attr->cqe_compression;
	dev->caps.mini_cqe_resp_flow_tag = attr->mini_cqe_resp_flow_tag;
	dev->caps.mini_cqe_resp_l3_l4_tag = attr->mini_cqe_resp_l3_l4_tag;
	mlx5cq_free(attr);
	return dev_query_cq_caps(dev);
}

/* Verbs capabilities (mlx5dv_query_device, ibv_query_device). */
static int
dev_query_verbs(struct rte_mlx5cq_dev *dev)
{
	struct mlx5dv_context dv;
	int ret;

	memset(&dv, 0, sizeof(dv));
	dv.comp_mask = MLX5DV_CONTEXT_MASK_CQE_COMPRESION;
	ret = mlx5_glue->dv_query_device(dev->ctx, &dv);
	if (ret) {
		MLX5CQ_LOG(ERR, "mlx5dv_query_device failed: %d", ret);
		return ret > 0 ? -ret : -EIO;
	}
	/* CQE_128B_PAD is cqe_128_always (kernel mlx5_ib_query_device()). */
	dev->caps.dv_flags = dv.flags;
	if (dv.comp_mask & MLX5DV_CONTEXT_MASK_CQE_COMPRESION) {
		dev->caps.dv_comp_max_num = dv.cqe_comp_caps.max_num;
		dev->caps.dv_comp_formats = dv.cqe_comp_caps.supported_format;
	}
	if (!dev->devx) {
		struct ibv_device_attr da;
		uint32_t n;

		/* max_cqe = 2^log_max_cq_sz - 1 (mlx5_ib_query_device). */
		memset(&da, 0, sizeof(da));
		ret = mlx5_glue->query_device(dev->ctx, &da);
		if (ret == 0 && da.max_cqe > 0) {
			n = (uint32_t)da.max_cqe + 1;
			dev->caps.log_max_cq_sz =
				(uint8_t)(31 - __builtin_clz(n));
		} else {
			MLX5CQ_LOG(WARNING, "ibv_query_device failed (%d):"
				   " assuming 2^%u CQ entries", ret,
				   MLX5CQ_VERBS_LOG_MAX_CQ_SZ);
			dev->caps.log_max_cq_sz = MLX5CQ_VERBS_LOG_MAX_CQ_SZ;
		}
		if (dev->caps.log_max_cq_sz > MLX5CQ_VERBS_LOG_MAX_CQ_SZ)
			dev->caps.log_max_cq_sz = MLX5CQ_VERBS_LOG_MAX_CQ_SZ;
	}
	return 0;
}

/* A DevX UAR for arm doorbells: non-cached first, write-combining next. */
static int
dev_alloc_uar(struct rte_mlx5cq_dev *dev)
{
	static const uint32_t types[] = {
		MLX5DV_UAR_ALLOC_TYPE_NC, MLX5DV_UAR_ALLOC_TYPE_BF,
	};
	struct mlx5dv_devx_uar *uar = NULL;
	unsigned int i;
	int err = ENOMEM;

	for (i = 0; i < RTE_DIM(types) && uar == NULL; i++) {
		errno = 0;
		uar = mlx5_glue->devx_alloc_uar(dev->ctx, types[i]);
		if (uar == NULL) {
			err = errno ? errno : ENOMEM;
			MLX5CQ_LOG(DEBUG, "DevX UAR type %u: %s", types[i],
				   strerror(err));
			continue;
		}
		if (uar->base_addr == NULL) {
			MLX5CQ_LOG(DEBUG, "DevX UAR type %u has no mapping",
				   types[i]);
			mlx5_glue->devx_free_uar(uar);
			uar = NULL;
			err = ENOMEM;
			continue;
		}
		dev->uar_type = types[i];
	}
	if (uar == NULL) {
		MLX5CQ_LOG(ERR, "cannot allocate a DevX UAR: %s",
			   strerror(err));
		return -err;
	}
	dev->uar = uar;
	dev->uar_page = uar->page_id;
	return 0;
}

/* rdma-core buffer allocator: page-aligned rte_malloc on the socket. */
static void *
dev_buf_alloc(size_t size, void *data)
{
	struct rte_mlx5cq_dev *dev = data;
	int socket;

	if (size == 0)
		return NULL;
	socket = __atomic_load_n(&dev->alloc_socket, __ATOMIC_RELAXED);
	return mlx5cq_zmalloc("mlx5cq_verbs_buf", size,
			      (unsigned int)mlx5cq_sys_page_size(), socket);
}

static void
dev_buf_free(void *ptr, void *data)
{
	RTE_SET_USED(data);
	mlx5cq_free(ptr);
}

static int
dev_set_allocators(struct rte_mlx5cq_dev *dev, int install)
{
	struct mlx5dv_ctx_allocators a;
	int ret;

	memset(&a, 0, sizeof(a));
	if (install) {
		a.alloc = dev_buf_alloc;
		a.free = dev_buf_free;
		a.data = dev;
	}
	ret = mlx5_glue->dv_set_context_attr(dev->ctx,
					     MLX5DV_CTX_ATTR_BUF_ALLOCATORS,
					     &a);
	if (ret) {
		MLX5CQ_LOG(ERR, "cannot %s the buffer allocators: %d",
			   install ? "install" : "remove", ret);
		return ret > 0 ? -ret : -EIO;
	}
	dev->ext_alloc_set = install;
	return 0;
}

static int
socket_valid(int socket)
{
	unsigned int i;

	if (socket == SOCKET_ID_ANY)
		return 1;
	for (i = 0; i < rte_socket_count(); i++)
		if (rte_socket_id_by_idx(i) == socket)
			return 1;
	return 0;
}

struct rte_mlx5cq_dev *
rte_mlx5cq_dev_open_ex(struct ibv_context *ctx, int socket, uint32_t flags)
{
	struct rte_mlx5cq_dev *dev;
	int ret;

	if (ctx == NULL) {
		MLX5CQ_LOG(ERR, "invalid argument ctx=NULL");
		rte_errno = EINVAL;
		return NULL;
	}
	if (flags & ~RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS) {
		MLX5CQ_LOG(ERR, "invalid argument flags=%#x: unknown bits %#x",
			   flags, flags & ~RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS);
		rte_errno = EINVAL;
		return NULL;
	}
	if (!socket_valid(socket)) {
		MLX5CQ_LOG(ERR, "invalid argument socket=%d: no such NUMA"
			   " socket", socket);
		rte_errno = EINVAL;
		return NULL;
	}
	dev = mlx5cq_zmalloc("mlx5cq_dev", sizeof(*dev), 0, socket);
	if (dev == NULL)
		return NULL;
	dev->ctx = ctx;
	dev->socket = socket;
	dev->alloc_socket = socket;
	dev->num_comp_vectors = ctx->num_comp_vectors > 0 ?
				(uint32_t)ctx->num_comp_vectors : 0;
	mlx5cq_dbr_pool_init(&dev->pool);
	pthread_mutex_init(&dev->lock, NULL);
	ret = dev_query_devx(dev);
	if (ret && ret != -ENOTSUP)
		goto error;
	dev->devx = ret == 0;
	ret = dev_query_verbs(dev);
	if (ret)
		goto error;
	if (dev->devx) {
		ret = dev_alloc_uar(dev);
		if (ret)
			goto error;
	}
	if (flags & RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS) {
		ret = dev_set_allocators(dev, 1);
		if (ret)
			goto error_uar;
	}
	MLX5CQ_LOG(INFO, "device %s: %s, log_max_cq_sz %u, %u vectors,"
		   " UAR page %u, buffer allocators %s",
		   ctx->device ? ctx->device->name : "?",
		   dev->devx ? "DevX + verbs" : "verbs only",
		   dev->caps.log_max_cq_sz, dev->num_comp_vectors,
		   dev->uar_page, dev->ext_alloc_set ? "the library's" :
		   "the context owner's");
	return dev;
error_uar:
	if (dev->uar != NULL)
		mlx5_glue->devx_free_uar(dev->uar);
error:
	pthread_mutex_destroy(&dev->lock);
	mlx5cq_free(dev);
	rte_errno = -ret;
	return NULL;
}

struct rte_mlx5cq_dev *
rte_mlx5cq_dev_open(struct ibv_context *ctx, int socket)
{
	return rte_mlx5cq_dev_open_ex(ctx, socket, 0);
}

int
rte_mlx5cq_dev_close(struct rte_mlx5cq_dev *dev)
{
	if (dev == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	pthread_mutex_lock(&dev->lock);
	if (dev->ncqs != 0) {
		MLX5CQ_LOG(ERR, "device busy: %u CQs alive", dev->ncqs);
		pthread_mutex_unlock(&dev->lock);
		rte_errno = EBUSY;
		return -EBUSY;
	}
	if (mlx5cq_dbr_pool_flush(dev) != 0) {
		MLX5CQ_LOG(ERR, "device busy: %u doorbell pages cannot be"
			   " released", dev->pool.npages);
		pthread_mutex_unlock(&dev->lock);
		rte_errno = EBUSY;
		return -EBUSY;
	}
	pthread_mutex_unlock(&dev->lock);
	/*
	 * Only allocators the library installed are removed: the context
	 * keeps no pointer to the freed device, and its later verbs buffers
	 * come from rdma-core's own allocator again.
	 */
	if (dev->ext_alloc_set)
		dev_set_allocators(dev, 0);
	if (dev->uar != NULL)
		mlx5_glue->devx_free_uar(dev->uar);
	pthread_mutex_destroy(&dev->lock);
	mlx5cq_free(dev);
	return 0;
}

int
rte_mlx5cq_dev_stats_get(const struct rte_mlx5cq_dev *dev,
			 struct rte_mlx5cq_dev_stats *stats)
{
	struct rte_mlx5cq_dev *d = (struct rte_mlx5cq_dev *)(uintptr_t)dev;

	if (dev == NULL || stats == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	pthread_mutex_lock(&d->lock);
	stats->cqs = d->ncqs;
	stats->ring_umems = d->ring_umems;
	stats->dbr_pages = d->pool.npages;
	stats->dbr_slots = d->pool.nslots;
	stats->dbr_umems = d->pool.numems;
	pthread_mutex_unlock(&d->lock);
	return 0;
}

void
mlx5cq_dev_cq_get(struct rte_mlx5cq_dev *dev)
{
	pthread_mutex_lock(&dev->lock);
	dev->ncqs++;
	pthread_mutex_unlock(&dev->lock);
}

void
mlx5cq_dev_cq_put(struct rte_mlx5cq_dev *dev)
{
	pthread_mutex_lock(&dev->lock);
	RTE_ASSERT(dev->ncqs > 0);
	dev->ncqs--;
	pthread_mutex_unlock(&dev->lock);
}
