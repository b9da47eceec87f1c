/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Emulated devices: the verbs context handed to the user, the device
 * registry (how dispatchers recognise emulated pointers), protection
 * domains, UARs, completion EQ numbers, completion channels, statistics,
 * fault injection and the last-command record.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/mman.h>

#include "mlx5_emu_private.h"
#include "mlx5_emu_net.h"

static TAILQ_HEAD(, emu_dev) emu_devs = TAILQ_HEAD_INITIALIZER(emu_devs);
static pthread_mutex_t emu_devs_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t emu_next_vhca_id;
/* UAR page ids are unique in the process so a page of one device is never
 * mistaken for a page of another.
 */
static uint32_t emu_next_uar_page = 0x40;
static uint32_t emu_next_pdn = 1;

struct emu_dev *
emu_dev_from_ctx(const struct ibv_context *ctx)
{
	struct emu_dev *dev;

	if (ctx == NULL)
		return NULL;
	pthread_mutex_lock(&emu_devs_lock);
	TAILQ_FOREACH(dev, &emu_devs, next)
		if (&dev->vctx.context == ctx)
			break;
	pthread_mutex_unlock(&emu_devs_lock);
	return dev;
}

struct emu_dev *
emu_dev_find_locked(int (*match)(struct emu_dev *dev, const void *ptr),
		    const void *ptr)
{
	struct emu_dev *dev;

	if (ptr == NULL)
		return NULL;
	pthread_mutex_lock(&emu_devs_lock);
	TAILQ_FOREACH(dev, &emu_devs, next) {
		pthread_mutex_lock(&dev->lock);
		if (match(dev, ptr))
			break;
		pthread_mutex_unlock(&dev->lock);
	}
	pthread_mutex_unlock(&emu_devs_lock);
	return dev;
}

int
emu_dev_any(void)
{
	int any;

	pthread_mutex_lock(&emu_devs_lock);
	any = !TAILQ_EMPTY(&emu_devs);
	pthread_mutex_unlock(&emu_devs_lock);
	return any;
}

int
mlx5_emu_is_emulated(const struct ibv_context *ctx)
{
	return emu_dev_from_ctx(ctx) != NULL;
}

int
emu_is_ibdev(const struct ibv_device *ibdev, const char **name)
{
	struct emu_dev *dev;

	if (ibdev == NULL)
		return 0;
	pthread_mutex_lock(&emu_devs_lock);
	TAILQ_FOREACH(dev, &emu_devs, next)
		if (&dev->ibdev == ibdev)
			break;
	pthread_mutex_unlock(&emu_devs_lock);
	if (dev == NULL)
		return 0;
	*name = dev->name;
	return 1;
}

int
emu_fault_hit(struct emu_dev *dev, enum mlx5_emu_fail_point point)
{
	struct emu_fault *f;

	if ((unsigned int)point >= MLX5_EMU_FAIL_MAX)
		return 0;
	f = &dev->faults[point];
	if (f->count == 0)
		return 0;
	if (f->skip > 0) {
		f->skip--;
		return 0;
	}
	f->count--;
	EMU_LOG(DEBUG, "%s: injected failure at point %d", dev->name, point);
	return 1;
}

void
mlx5_emu_fail_inject(struct ibv_context *ctx, enum mlx5_emu_fail_point point,
		     uint32_t skip, uint32_t count)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);

	if (dev == NULL || (unsigned int)point >= MLX5_EMU_FAIL_MAX) {
		EMU_LOG(ERR, "fail_inject: not an emulated context or bad point");
		return;
	}
	/* The progress engine hits the crypto points under emu_net_lock
	 * alone (mlx5_emu_net.h): the counters change under both locks.
	 */
	pthread_mutex_lock(&dev->lock);
	emu_net_lock();
	dev->faults[point].skip = count ? skip : 0;
	dev->faults[point].count = count;
	emu_net_unlock();
	pthread_mutex_unlock(&dev->lock);
}

struct ibv_context *
mlx5_emu_open(const char *name, const struct mlx5_emu_caps *caps)
{
	struct emu_dev *dev, *it;
	int ret;

	if (name == NULL || name[0] == '\0' ||
	    strlen(name) >= IBV_SYSFS_NAME_MAX) {
		EMU_LOG(ERR, "open: device name missing or too long");
		errno = EINVAL;
		return NULL;
	}
	dev = calloc(1, sizeof(*dev));
	if (dev == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	if (caps != NULL)
		dev->caps = *caps;
	else
		emu_caps_open_default(&dev->caps);
	ret = emu_caps_check(&dev->caps);
	if (ret != 0) {
		free(dev);
		errno = ret;
		return NULL;
	}
	ret = mlx5_emu_install();
	if (ret != 0) {
		free(dev);
		errno = -ret;
		return NULL;
	}
	strcpy(dev->name, name);
	strcpy(dev->ibdev.name, name);
	snprintf(dev->ibdev.dev_name, sizeof(dev->ibdev.dev_name), "uverbs-%s",
		 name);
	dev->ibdev.node_type = IBV_NODE_CA;
	dev->ibdev.transport_type = IBV_TRANSPORT_IB;
	pthread_mutex_init(&dev->lock, NULL);
	TAILQ_INIT(&dev->umems);
	TAILQ_INIT(&dev->objs);
	TAILQ_INIT(&dev->cqs);
	TAILQ_INIT(&dev->pds);
	TAILQ_INIT(&dev->uars);
	TAILQ_INIT(&dev->chans);
	dev->vctx.sz = sizeof(dev->vctx);
	dev->vctx.context.device = &dev->ibdev;
	dev->vctx.context.num_comp_vectors = dev->caps.num_comp_vectors;
	dev->vctx.context.abi_compat = __VERBS_ABI_IS_EXTENDED;
	pthread_mutex_init(&dev->vctx.context.mutex, NULL);
	/* The command fd is where the UAR pages are mapped from. */
	dev->vctx.context.cmd_fd = emu_uar_fd_create(name);
	dev->vctx.context.async_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (dev->vctx.context.cmd_fd < 0 || dev->vctx.context.async_fd < 0) {
		ret = errno;
		goto error;
	}
	pthread_mutex_lock(&emu_devs_lock);
	TAILQ_FOREACH(it, &emu_devs, next) {
		if (strcmp(it->name, name) == 0) {
			pthread_mutex_unlock(&emu_devs_lock);
			EMU_LOG(ERR, "open: device %s already open", name);
			ret = EEXIST;
			goto error;
		}
	}
	dev->vhca_id = emu_next_vhca_id++;
	TAILQ_INSERT_TAIL(&emu_devs, dev, next);
	pthread_mutex_unlock(&emu_devs_lock);
	EMU_LOG(INFO, "%s: opened (%u vectors, log_max_cq_sz %u)", name,
		dev->caps.num_comp_vectors, dev->caps.log_max_cq_sz);
	return &dev->vctx.context;
error:
	if (dev->vctx.context.cmd_fd >= 0)
		close(dev->vctx.context.cmd_fd);
	if (dev->vctx.context.async_fd >= 0)
		close(dev->vctx.context.async_fd);
	pthread_mutex_destroy(&dev->vctx.context.mutex);
	pthread_mutex_destroy(&dev->lock);
	free(dev);
	errno = ret;
	return NULL;
}

/* Objects that keep a device open (caller holds dev->lock). */
static int
emu_dev_busy(const struct emu_dev *dev)
{
	return emu_net_busy(dev) ||
	       !TAILQ_EMPTY(&dev->umems) || !TAILQ_EMPTY(&dev->objs) ||
	       !TAILQ_EMPTY(&dev->cqs) || !TAILQ_EMPTY(&dev->pds) ||
	       !TAILQ_EMPTY(&dev->uars) || !TAILQ_EMPTY(&dev->chans);
}

int
mlx5_emu_close(struct ibv_context *ctx)
{
	struct emu_dev *dev;

	pthread_mutex_lock(&emu_devs_lock);
	TAILQ_FOREACH(dev, &emu_devs, next)
		if (&dev->vctx.context == ctx)
			break;
	if (dev == NULL) {
		pthread_mutex_unlock(&emu_devs_lock);
		return -EINVAL;
	}
	pthread_mutex_lock(&dev->lock);
	if (emu_dev_busy(dev)) {
		EMU_LOG(ERR, "%s: close refused, objects remain (umems %u, "
			"objs %u, cqs %u, pds %u, uars %u, channels %u)",
			dev->name, dev->stats.umems, dev->stats.devx_objs,
			dev->stats.cqs, dev->stats.pds, dev->stats.uars,
			dev->nchans);
		pthread_mutex_unlock(&dev->lock);
		pthread_mutex_unlock(&emu_devs_lock);
		return -EBUSY;
	}
	TAILQ_REMOVE(&emu_devs, dev, next);
	pthread_mutex_unlock(&dev->lock);
	pthread_mutex_unlock(&emu_devs_lock);
	emu_listed_closed(ctx);
	emu_verbs_dev_release(dev);
	emu_net_dev_release(dev);
	close(dev->vctx.context.cmd_fd);
	close(dev->vctx.context.async_fd);
	pthread_mutex_destroy(&dev->vctx.context.mutex);
	pthread_mutex_destroy(&dev->lock);
	EMU_LOG(INFO, "%s: closed", dev->name);
	free(dev);
	return 0;
}

int
mlx5_emu_stats_get(struct ibv_context *ctx, struct mlx5_emu_stats *stats)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);

	if (dev == NULL || stats == NULL)
		return -EINVAL;
	pthread_mutex_lock(&dev->lock);
	*stats = dev->stats;
	pthread_mutex_unlock(&dev->lock);
	return 0;
}

int
mlx5_emu_last_cmd_error(struct ibv_context *ctx, uint8_t *status,
			uint32_t *syndrome)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);
	int ret = 0;

	if (dev == NULL)
		return -EINVAL;
	pthread_mutex_lock(&dev->lock);
	if (!dev->have_last_err) {
		ret = -ENOENT;
	} else {
		if (status != NULL)
			*status = dev->last_status;
		if (syndrome != NULL)
			*syndrome = dev->last_syndrome;
	}
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

int
mlx5_emu_last_cmd_in(struct ibv_context *ctx, void *in, size_t *len)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);
	int ret = 0;

	if (dev == NULL || len == NULL)
		return -EINVAL;
	pthread_mutex_lock(&dev->lock);
	if (!dev->have_last_in) {
		ret = -ENOENT;
	} else if (in == NULL || *len < dev->last_in_len) {
		*len = dev->last_in_len;
		ret = -ENOSPC;
	} else {
		memcpy(in, dev->last_in, dev->last_in_len);
		*len = dev->last_in_len;
	}
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

/* Protection domains. */

struct ibv_pd *
emu_alloc_pd(struct emu_dev *dev)
{
	struct emu_pd *pd = calloc(1, sizeof(*pd));

	if (pd == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_lock(&dev->lock);
	pd->pd.context = &dev->vctx.context;
	pd->pd.handle = __atomic_fetch_add(&emu_next_pdn, 1, __ATOMIC_RELAXED);
	TAILQ_INSERT_TAIL(&dev->pds, pd, next);
	dev->stats.pds++;
	pthread_mutex_unlock(&dev->lock);
	return &pd->pd;
}

static int
emu_match_pd(struct emu_dev *dev, const void *ptr)
{
	struct emu_pd *pd;

	TAILQ_FOREACH(pd, &dev->pds, next)
		if (&pd->pd == ptr)
			return 1;
	return 0;
}

int
emu_dealloc_pd(struct ibv_pd *ibpd)
{
	struct emu_dev *dev = emu_dev_find_locked(emu_match_pd, ibpd);
	struct emu_pd *pd = (struct emu_pd *)ibpd;

	if (dev == NULL)
		return -ENOENT;
	/* Kernel uverbs_free_pd(): ib_destroy_usecnt() (EBUSY). */
	if (emu_net_pd_busy(dev, pd->pd.handle)) {
		/* MRs or queues of the network model use it. */
		EMU_LOG(ERR, "%s: dealloc_pd: pd 0x%x in use", dev->name,
			pd->pd.handle);
		pthread_mutex_unlock(&dev->lock);
		return -EBUSY;
	}
	TAILQ_REMOVE(&dev->pds, pd, next);
	dev->stats.pds--;
	pthread_mutex_unlock(&dev->lock);
	free(pd);
	return 0;
}

int
emu_query_device(struct emu_dev *dev, struct ibv_device_attr *attr)
{
	if (attr == NULL)
		return -EINVAL;
	memset(attr, 0, sizeof(*attr));
	/*
	 * Firmware 16.35.2000 (a ConnectX-5 release line): rdma-core's mlx5
	 * query_device formats the kernel's fw_rev major.minor.subminor as
	 * "%d.%d.%04d".
	 */
	snprintf(attr->fw_ver, sizeof(attr->fw_ver), "%d.%d.%04d",
		 EMU_FW_REV_MAJOR, EMU_FW_REV_MINOR, EMU_FW_REV_SUBMINOR);
	attr->vendor_id = 0x02c9; /* Mellanox Technologies. */
	attr->vendor_part_id = 4119; /* ConnectX-5 (0x1017). */
	attr->hw_ver = 0;
	attr->max_mr_size = UINT64_MAX;
	attr->page_size_cap = ~(uint64_t)(EMU_PAGE_SIZE - 1);
	/*
	 * From the HCA capabilities the device reports (mlx5_emu_caps.c), as
	 * the kernel's mlx5_ib_query_device() derives them: max_qp
	 * 2^log_max_qp, max_qp_wr 2^log_max_qp_sz, max_sge the smaller of
	 * max_wqe_sz_rq / 16 (data segments) and (min(max_wqe_sz_sq, 512) -
	 * 16 (control) - 16 (remote address)) / 16, max_mr 2^log_max_mkey.
	 */
	attr->max_qp = 1 << EMU_LOG_MAX_QP;
	attr->max_qp_wr = 1 << EMU_LOG_MAX_QP_SZ;
	attr->max_sge = RTE_MIN(EMU_MAX_WQE_SZ_RQ / 16,
				(RTE_MIN(EMU_MAX_WQE_SZ_SQ, 512) - 16 - 16) / 16);
	attr->max_mr = 1 << EMU_LOG_MAX_MKEY;
	attr->max_cq = 1 << dev->caps.log_max_cq;
	attr->max_cqe = (1 << dev->caps.log_max_cq_sz) - 1;
	attr->max_pd = 1 << 17;
	attr->phys_port_cnt = 1;
	attr->node_guid = 0x0202c9fffe000000ull | dev->vhca_id;
	attr->sys_image_guid = attr->node_guid;
	return 0;
}

/* UARs. */

struct mlx5dv_devx_uar *
emu_alloc_uar(struct emu_dev *dev, uint32_t flags)
{
	struct emu_uar *uar;
	void *page;

	if (!dev->caps.devx) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	/* rdma-core 44 _mlx5dv_devx_alloc_uar(): check_comp_mask(flags,
	 * MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC), so BF (0) and NC (1) only, any
	 * other bit EOPNOTSUPP (NC_DEDICATED comes with later rdma-core).
	 */
	if ((flags & ~(uint32_t)MLX5DV_UAR_ALLOC_TYPE_NC) != 0) {
		EMU_LOG(ERR, "%s: alloc_uar: bad flags 0x%x", dev->name, flags);
		errno = EOPNOTSUPP;
		return NULL;
	}
	pthread_mutex_lock(&dev->lock);
	if (emu_fault_hit(dev, MLX5_EMU_FAIL_UAR_ALLOC)) {
		pthread_mutex_unlock(&dev->lock);
		errno = ENOMEM;
		return NULL;
	}
	uar = calloc(1, sizeof(*uar));
	if (uar == NULL) {
		pthread_mutex_unlock(&dev->lock);
		errno = ENOMEM;
		return NULL;
	}
	uar->pub.page_id = __atomic_fetch_add(&emu_next_uar_page, 1,
					      __ATOMIC_RELAXED);
	page = emu_uar_page_map(dev, uar->pub.page_id);
	if (page == NULL) {
		pthread_mutex_unlock(&dev->lock);
		free(uar);
		errno = ENOMEM;
		return NULL;
	}
	uar->page = page;
	uar->dev = dev;
	/* rdma-core: base_addr is the page, reg_addr its BlueFlame half;
	 * mmap_off maps the page through the context's cmd_fd.
	 */
	uar->pub.base_addr = page;
	uar->pub.reg_addr = (uint8_t *)page + 0x800;
	uar->pub.mmap_off = (off_t)uar->pub.page_id << EMU_PAGE_SHIFT;
	TAILQ_INSERT_TAIL(&dev->uars, uar, next);
	dev->stats.uars++;
	pthread_mutex_unlock(&dev->lock);
	return &uar->pub;
}

static int
emu_match_uar(struct emu_dev *dev, const void *ptr)
{
	struct emu_uar *uar;

	TAILQ_FOREACH(uar, &dev->uars, next)
		if (&uar->pub == ptr)
			return 1;
	return 0;
}

int
emu_free_uar(struct mlx5dv_devx_uar *pub)
{
	struct emu_dev *dev = emu_dev_find_locked(emu_match_uar, pub);
	struct emu_uar *uar = (struct emu_uar *)pub;

	if (dev == NULL)
		return -ENOENT;
	TAILQ_REMOVE(&dev->uars, uar, next);
	dev->stats.uars--;
	pthread_mutex_unlock(&dev->lock);
	emu_uar_page_unmap(dev, uar->page, uar->pub.page_id);
	free(uar);
	return 0;
}

struct emu_uar *
emu_uar_lookup(struct emu_dev *dev, uint32_t page_id)
{
	struct emu_uar *uar;

	TAILQ_FOREACH(uar, &dev->uars, next)
		if (uar->pub.page_id == page_id)
			return uar;
	return NULL;
}

/* Completion EQs: vector v is served by EQ EMU_EQN_BASE + v. */

int
emu_query_eqn(struct emu_dev *dev, uint32_t vector, uint32_t *eqn)
{
	int fail;

	pthread_mutex_lock(&dev->lock);
	fail = emu_fault_hit(dev, MLX5_EMU_FAIL_QUERY_EQN);
	pthread_mutex_unlock(&dev->lock);
	if (fail || eqn == NULL)
		return -EINVAL;
	/* Kernel MLX5_IB_METHOD_DEVX_QUERY_EQN: mlx5_vector2eqn() (Linux
	 * 6.1) finds no completion EQ for the vector: ENOENT.
	 */
	if (vector >= dev->caps.num_comp_vectors) {
		EMU_LOG(ERR, "%s: query_eqn: vector %u >= %u vectors",
			dev->name, vector, dev->caps.num_comp_vectors);
		return -ENOENT;
	}
	*eqn = EMU_EQN_BASE + vector;
	return 0;
}

int
emu_eqn_valid(const struct emu_dev *dev, uint32_t eqn)
{
	return eqn >= EMU_EQN_BASE &&
	       eqn < EMU_EQN_BASE + (uint32_t)dev->caps.num_comp_vectors;
}

/* Completion channels. */

struct ibv_comp_channel *
emu_create_comp_channel(struct emu_dev *dev)
{
	struct emu_chan *ch = calloc(1, sizeof(*ch));

	if (ch == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	ch->ch.fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (ch->ch.fd < 0) {
		int err = errno;

		free(ch);
		errno = err;
		return NULL;
	}
	ch->ch.context = &dev->vctx.context;
	ch->ch.refcnt = 0;
	pthread_mutex_lock(&dev->lock);
	TAILQ_INSERT_TAIL(&dev->chans, ch, next);
	dev->nchans++;
	pthread_mutex_unlock(&dev->lock);
	return &ch->ch;
}

struct emu_chan *
emu_chan_lookup(struct emu_dev *dev, const struct ibv_comp_channel *ibch)
{
	struct emu_chan *ch;

	TAILQ_FOREACH(ch, &dev->chans, next)
		if (&ch->ch == ibch)
			return ch;
	return NULL;
}

static int
emu_match_chan(struct emu_dev *dev, const void *ptr)
{
	return emu_chan_lookup(dev, ptr) != NULL;
}

int
emu_destroy_comp_channel(struct ibv_comp_channel *ibch)
{
	struct emu_dev *dev = emu_dev_find_locked(emu_match_chan, ibch);
	struct emu_chan *ch = (struct emu_chan *)ibch;

	if (dev == NULL)
		return -ENOENT;
	if (ch->ch.refcnt != 0) {
		/* rdma-core: a channel used by CQs cannot be destroyed. */
		pthread_mutex_unlock(&dev->lock);
		return -EBUSY;
	}
	TAILQ_REMOVE(&dev->chans, ch, next);
	dev->nchans--;
	pthread_mutex_unlock(&dev->lock);
	close(ch->ch.fd);
	free(ch);
	return 0;
}
