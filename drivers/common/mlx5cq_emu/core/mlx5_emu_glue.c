/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The dispatching glue table. mlx5_emu_install() copies rte_common_mlx5's
 * table, replaces the entries the model implements with dispatchers and
 * points mlx5_glue at the copy. A dispatcher recognises an emulated
 * context or object by looking it up in the model's registries (it never
 * dereferences a foreign pointer) and forwards everything else, unchanged,
 * to the original entry.
 */

#include <errno.h>
#include <pthread.h>
#include <string.h>

#include <mlx5_glue.h>

#include "mlx5_emu_private.h"

/* Opcodes of the commands behind verbs and umem entries (PRM). */
#define EMU_CMD_OP_CREATE_MKEY 0x200
#define EMU_CMD_OP_CREATE_CQ 0x400
#define EMU_CMD_OP_ALLOC_PD 0x800
#define EMU_CMD_OP_ALLOC_UAR 0x802
#define EMU_CMD_OP_CREATE_UMEM 0xa08

const struct mlx5_glue *emu_orig_glue;
static struct mlx5_glue emu_glue_table;
static pthread_mutex_t emu_glue_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * Whether a context, object or device the model does not know may go to
 * the original entry. It may when that entry exists and the process sees
 * an RDMA device (rdma-core's device list through the original table):
 * then it can be one of that device's. On a machine without one it cannot
 * be a real one, and rdma-core would dereference it (mlx5dv_devx_obj_destroy
 * reads the object's context): it is refused with EINVAL instead. errno is
 * set when it may not (ENOSYS: the original table lacks the entry).
 */
int
emu_rdma_seen(void)
{
	static int devices_seen;
	struct ibv_device **list = NULL;
	int n = 0;

	if (__atomic_load_n(&devices_seen, __ATOMIC_RELAXED))
		return 1;
	if (emu_orig_glue != NULL && emu_orig_glue->get_device_list != NULL)
		list = emu_orig_glue->get_device_list(&n);
	if (list != NULL && emu_orig_glue->free_device_list != NULL)
		emu_orig_glue->free_device_list(list);
	if (n > 0)
		__atomic_store_n(&devices_seen, 1, __ATOMIC_RELAXED);
	return n > 0;
}

int
emu_fwd_ok(const void *entry, const char *name, const void *what)
{
	if (emu_orig_glue == NULL || entry == NULL) {
		errno = ENOSYS;
		return 0;
	}
	if (emu_rdma_seen())
		return 1;
	EMU_LOG(ERR, "%s: %p is not the model's and the process has no RDMA "
		"device: refused", name, what);
	errno = EINVAL;
	return 0;
}

/*
 * Forward to the original entry what the model does not know (its first
 * argument), or fail: fail is evaluated after errno is set, so int entries
 * return errno (rdma-core's convention: a positive errno value).
 */
#define EMU_ORIG_ENTRY(entry) ((const void *)(uintptr_t) \
	(emu_orig_glue != NULL ? emu_orig_glue->entry : NULL))
#define EMU_FWD(entry, fail, first, ...) \
	(emu_fwd_ok(EMU_ORIG_ENTRY(entry), #entry, (const void *)(first)) ? \
	 emu_orig_glue->entry(first, ##__VA_ARGS__) : (fail))
/* The same for entries that return nothing. */
#define EMU_FWD_VOID(entry, first, ...) \
	do { \
		if (emu_fwd_ok(EMU_ORIG_ENTRY(entry), #entry, \
			       (const void *)(first))) \
			emu_orig_glue->entry(first, ##__VA_ARGS__); \
	} while (0)

static int
emu_glue_close_device(struct ibv_context *ctx)
{
	if (emu_dev_from_ctx(ctx) != NULL)
		return mlx5_emu_close(ctx);
	return EMU_FWD(close_device, errno, ctx);
}

static const char *
emu_glue_get_device_name(struct ibv_device *device)
{
	const char *name;

	if (emu_is_ibdev(device, &name))
		return name;
	/* rdma-core only reads the name from the device: no rule needed. */
	if (emu_orig_glue == NULL || emu_orig_glue->get_device_name == NULL) {
		errno = ENOSYS;
		return NULL;
	}
	return emu_orig_glue->get_device_name(device);
}

/* A failed device answers a command the kernel sends for this entry. */
static int
emu_glue_refused(struct emu_dev *dev, uint16_t opcode)
{
	int ret;

	pthread_mutex_lock(&dev->lock);
	ret = emu_health_cmd_gate(dev, opcode, NULL, 0);
	pthread_mutex_unlock(&dev->lock);
	return ret > 0;
}

static struct ibv_pd *
emu_glue_alloc_pd(struct ibv_context *ctx)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);

	if (dev != NULL && emu_glue_refused(dev, EMU_CMD_OP_ALLOC_PD))
		return NULL;
	if (dev != NULL)
		return emu_alloc_pd(dev);
	return EMU_FWD(alloc_pd, NULL, ctx);
}

static int
emu_glue_dealloc_pd(struct ibv_pd *pd)
{
	int ret = emu_dealloc_pd(pd);

	if (ret != -ENOENT)
		return ret < 0 ? emu_ret_errno(-ret) : 0;
	return EMU_FWD(dealloc_pd, errno, pd);
}

static int
emu_glue_query_device(struct ibv_context *ctx, struct ibv_device_attr *attr)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);

	if (dev != NULL)
		return emu_ret_errno(-emu_query_device(dev, attr));
	return EMU_FWD(query_device, errno, ctx, attr);
}

static int
emu_glue_query_rt_values_ex(struct ibv_context *ctx,
			    struct ibv_values_ex *values)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);

	if (dev == NULL)
		return EMU_FWD(query_rt_values_ex, errno, ctx, values);
	if (values == NULL)
		return emu_ret_errno(EINVAL);
	return emu_clock_query_rt_values(dev, values);
}

static int
emu_glue_query_device_ex(struct ibv_context *ctx,
			 const struct ibv_query_device_ex_input *input,
			 struct ibv_device_attr_ex *attr)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);
	int ret;

	if (dev == NULL)
		return EMU_FWD(query_device_ex, errno, ctx, input, attr);
	if (attr == NULL || (input != NULL && input->comp_mask != 0))
		return emu_ret_errno(EINVAL);
	memset(attr, 0, sizeof(*attr));
	ret = emu_query_device(dev, &attr->orig_attr);
	if (ret != 0)
		return emu_ret_errno(-ret);
	attr->max_dm_size = 0;
	/*
	 * As mlx5_ib_query_device() fills them for an Ethernet port with raw
	 * packet support: the RSS limits from log_max_rqt and
	 * log_max_rqt_size, RQs from log_max_rq, IP checksum and C-VLAN
	 * stripping from the Ethernet caps (csum_cap, vlan_cap) under
	 * eth_net_offloads (IP checksum also as the device flag
	 * IBV_DEVICE_RAW_IP_CSUM, which DPDK's net/mlx5 reads), CQ
	 * moderation limits (the cqc fields' widths: cq_max_count 16 bits,
	 * cq_period 12), the clock in kHz.
	 */
	attr->rss_caps.max_rwq_indirection_tables = 1 << EMU_LOG_MAX_RQT;
	attr->rss_caps.max_rwq_indirection_table_size =
		1 << EMU_LOG_MAX_RQT_SIZE;
	attr->rss_caps.supported_qpts = 1 << IBV_QPT_RAW_PACKET;
	attr->max_wq_type_rq = 1 << EMU_LOG_MAX_RQ;
	attr->raw_packet_caps = 0;
	if (dev->caps.eth_net_offloads) {
		attr->raw_packet_caps = IBV_RAW_PACKET_CAP_IP_CSUM |
					IBV_RAW_PACKET_CAP_CVLAN_STRIPPING;
		attr->device_cap_flags_ex |= IBV_DEVICE_RAW_IP_CSUM;
	}
	/*
	 * TSO as mlx5_ib_query_device() reports it under eth_net_offloads
	 * with max_lso_cap: 2^max_lso_cap bytes on raw packet QPs.
	 */
	if (dev->caps.eth_net_offloads && dev->caps.eth_max_lso != 0) {
		attr->tso_caps.max_tso = 1u << dev->caps.eth_max_lso;
		attr->tso_caps.supported_qpts = 1 << IBV_QPT_RAW_PACKET;
	}
	attr->cq_mod_caps.max_cq_count = 0xffff;
	attr->cq_mod_caps.max_cq_period = 0xfff;
	attr->hca_core_clock = dev->caps.device_frequency_khz;
	attr->completion_timestamp_mask = 0x7fffffffffffffffull;
	return 0;
}

static int
emu_glue_dv_query_device(struct ibv_context *ctx, struct mlx5dv_context *attrs)
{
	if (emu_dev_from_ctx(ctx) != NULL)
		return emu_verbs_dv_query_device(ctx, attrs);
	return EMU_FWD(dv_query_device, errno, ctx, attrs);
}

static struct ibv_comp_channel *
emu_glue_create_comp_channel(struct ibv_context *ctx)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);

	if (dev != NULL)
		return emu_create_comp_channel(dev);
	return EMU_FWD(create_comp_channel, NULL, ctx);
}

static int
emu_glue_destroy_comp_channel(struct ibv_comp_channel *ch)
{
	int ret = emu_destroy_comp_channel(ch);

	if (ret != -ENOENT)
		return ret < 0 ? emu_ret_errno(-ret) : 0;
	return EMU_FWD(destroy_comp_channel, errno, ch);
}

static int
emu_glue_devx_general_cmd(struct ibv_context *ctx, const void *in,
			  size_t inlen, void *out, size_t outlen)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);
	int ret;

	if (dev == NULL)
		return EMU_FWD(devx_general_cmd, errno, ctx, in, inlen, out, outlen);
	pthread_mutex_lock(&dev->lock);
	ret = in != NULL && inlen >= 2 ? emu_health_cmd_gate(dev,
			(uint16_t)(((const uint8_t *)in)[0] << 8 |
				   ((const uint8_t *)in)[1]), out, outlen) : 0;
	if (ret == 0)
		ret = emu_general_cmd(dev, in, inlen, out, outlen);
	else if (ret < 0)
		ret = 0; /* Completed without the firmware (cmd.c). */
	pthread_mutex_unlock(&dev->lock);
	return ret ? emu_ret_errno(ret) : 0;
}

static struct mlx5dv_devx_obj *
emu_glue_devx_obj_create(struct ibv_context *ctx, const void *in,
			 size_t inlen, void *out, size_t outlen)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);
	struct mlx5dv_devx_obj *obj;

	if (dev == NULL)
		return EMU_FWD(devx_obj_create, NULL, ctx, in, inlen, out, outlen);
	pthread_mutex_lock(&dev->lock);
	obj = emu_devx_obj_create(dev, in, inlen, out, outlen);
	pthread_mutex_unlock(&dev->lock);
	return obj;
}

static int
emu_glue_devx_obj_destroy(struct mlx5dv_devx_obj *obj)
{
	if (emu_devx_obj_is_ours(obj)) {
		int ret = emu_devx_obj_destroy(obj);

		return ret ? emu_ret_errno(ret) : 0;
	}
	return EMU_FWD(devx_obj_destroy, errno, obj);
}

static int
emu_glue_devx_obj_query(struct mlx5dv_devx_obj *obj, const void *in,
			size_t inlen, void *out, size_t outlen)
{
	if (emu_devx_obj_is_ours(obj)) {
		int ret = emu_devx_obj_query(obj, in, inlen, out, outlen);

		return ret ? emu_ret_errno(ret) : 0;
	}
	return EMU_FWD(devx_obj_query, errno, obj, in, inlen, out, outlen);
}

static int
emu_glue_devx_obj_modify(struct mlx5dv_devx_obj *obj, const void *in,
			 size_t inlen, void *out, size_t outlen)
{
	if (emu_devx_obj_is_ours(obj)) {
		int ret = emu_devx_obj_modify(obj, in, inlen, out, outlen);

		return ret ? emu_ret_errno(ret) : 0;
	}
	return EMU_FWD(devx_obj_modify, errno, obj, in, inlen, out, outlen);
}

static struct mlx5dv_devx_umem *
emu_glue_devx_umem_reg(struct ibv_context *ctx, void *addr, size_t size,
		       uint32_t access)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);

	if (dev != NULL && emu_glue_refused(dev, EMU_CMD_OP_CREATE_UMEM))
		return NULL;
	if (dev != NULL)
		return emu_umem_reg(dev, addr, size, access);
	return EMU_FWD(devx_umem_reg, NULL, ctx, addr, size, access);
}

static int
emu_glue_devx_umem_dereg(struct mlx5dv_devx_umem *umem)
{
	int ret = emu_umem_dereg(umem);

	if (ret != -ENOENT)
		return ret < 0 ? emu_ret_errno(-ret) : 0;
	return EMU_FWD(devx_umem_dereg, errno, umem);
}

static struct mlx5dv_devx_uar *
emu_glue_devx_alloc_uar(struct ibv_context *ctx, uint32_t flags)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);

	if (dev != NULL && emu_glue_refused(dev, EMU_CMD_OP_ALLOC_UAR))
		return NULL;
	if (dev != NULL)
		return emu_alloc_uar(dev, flags);
	return EMU_FWD(devx_alloc_uar, NULL, ctx, flags);
}

static void
emu_glue_devx_free_uar(struct mlx5dv_devx_uar *uar)
{
	if (emu_free_uar(uar) != -ENOENT)
		return;
	EMU_FWD_VOID(devx_free_uar, uar);
}

static int
emu_glue_devx_query_eqn(struct ibv_context *ctx, uint32_t vector,
			uint32_t *eqn)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);

	if (dev != NULL) {
		int ret = emu_query_eqn(dev, vector, eqn);

		return ret ? emu_ret_errno(-ret) : 0;
	}
	return EMU_FWD(devx_query_eqn, errno, ctx, vector, eqn);
}

static int
emu_glue_dv_set_context_attr(struct ibv_context *ctx,
			     enum mlx5dv_set_ctx_attr_type type, void *attr)
{
	if (emu_dev_from_ctx(ctx) != NULL)
		return emu_verbs_set_context_attr(ctx, type, attr);
	return EMU_FWD(dv_set_context_attr, errno, ctx, type, attr);
}

static struct ibv_cq_ex *
emu_glue_dv_create_cq(struct ibv_context *ctx,
		      struct ibv_cq_init_attr_ex *cq_attr,
		      struct mlx5dv_cq_init_attr *dv_attr)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);

	if (dev != NULL && emu_glue_refused(dev, EMU_CMD_OP_CREATE_CQ))
		return NULL;
	if (dev != NULL)
		return emu_verbs_dv_create_cq(ctx, cq_attr, dv_attr);
	return EMU_FWD(dv_create_cq, NULL, ctx, cq_attr, dv_attr);
}

/* A verbs CQ an SQ or RQ of the network model still uses (EBUSY). */
static int
emu_glue_verbs_cq_busy(struct ibv_cq *cq)
{
	struct emu_dev *dev = emu_dev_from_ctx(cq->context);
	struct mlx5dv_cq dvcq;
	struct mlx5dv_obj o;
	int busy;

	if (dev == NULL)
		return 0;
	memset(&o, 0, sizeof(o));
	o.cq.in = cq;
	o.cq.out = &dvcq;
	if (emu_verbs_init_obj(&o, MLX5DV_OBJ_CQ) != 0)
		return 0;
	pthread_mutex_lock(&dev->lock);
	busy = emu_net_cq_busy(dev, dvcq.cqn);
	pthread_mutex_unlock(&dev->lock);
	if (busy)
		EMU_LOG(ERR, "%s: destroy_cq: CQ 0x%x used by an SQ or RQ",
			dev->name, dvcq.cqn);
	return busy;
}

static int
emu_glue_destroy_cq(struct ibv_cq *cq)
{
	if (emu_verbs_is_cq(cq)) {
		if (emu_glue_verbs_cq_busy(cq))
			return emu_ret_errno(EBUSY);
		return emu_verbs_destroy_cq(cq);
	}
	return EMU_FWD(destroy_cq, errno, cq);
}

static int
emu_glue_dv_init_obj(struct mlx5dv_obj *obj, uint64_t obj_type)
{
	int handled = 0, ret;

	/* MLX5DV_OBJ_PD of emulated PDs (mlx5_emu_mr.c). */
	if (obj != NULL && (obj_type & MLX5DV_OBJ_PD) &&
	    emu_pd_is_ours(obj->pd.in)) {
		ret = emu_pd_init_obj(obj);
		if (ret != 0)
			return emu_ret_errno(ret);
		handled = 1;
	}
	if (obj != NULL && (obj_type & MLX5DV_OBJ_CQ) &&
	    emu_verbs_is_cq(obj->cq.in))
		return emu_verbs_init_obj(obj, obj_type);
	if (handled)
		return 0;
	return EMU_FWD(dv_init_obj, errno, obj, obj_type);
}

static struct ibv_mr *
emu_glue_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)
{
	if (emu_pd_is_ours(pd)) {
		struct emu_dev *dev = emu_dev_from_ctx(pd->context);

		if (dev != NULL &&
		    emu_glue_refused(dev, EMU_CMD_OP_CREATE_MKEY))
			return NULL;
		return emu_reg_mr(pd, addr, length, access);
	}
	return EMU_FWD(reg_mr, NULL, pd, addr, length, access);
}

static int
emu_glue_dereg_mr(struct ibv_mr *mr)
{
	int ret = emu_dereg_mr(mr);

	if (ret != -ENOENT)
		return ret < 0 ? emu_ret_errno(-ret) : 0;
	return EMU_FWD(dereg_mr, errno, mr);
}

/* Events (mlx5_emu_event.c): emulated channels, CQs and contexts. */
static int
emu_glue_get_cq_event(struct ibv_comp_channel *ch, struct ibv_cq **cq,
		      void **cq_context)
{
	int ret = emu_ev_get_cq_event(ch, cq, cq_context);

	if (ret != 1)
		return ret;
	return EMU_FWD(get_cq_event, -1, ch, cq, cq_context);
}

static void
emu_glue_ack_cq_events(struct ibv_cq *cq, unsigned int nevents)
{
	if (emu_ev_ack_cq_events(cq, nevents) != 1)
		return;
	EMU_FWD_VOID(ack_cq_events, cq, nevents);
}

static int
emu_glue_get_async_event(struct ibv_context *ctx,
			 struct ibv_async_event *event)
{
	int ret = emu_ev_get_async_event(ctx, event);

	if (ret != 1)
		return ret;
	return EMU_FWD(get_async_event, -1, ctx, event);
}

static void
emu_glue_ack_async_event(struct ibv_async_event *event)
{
	if (emu_ev_ack_async_event(event) != 1)
		return;
	EMU_FWD_VOID(ack_async_event, event);
}

static struct mlx5dv_devx_event_channel *
emu_glue_devx_create_event_channel(struct ibv_context *ctx, int flags)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);

	if (dev != NULL)
		return emu_ev_channel_create(dev, flags);
	return EMU_FWD(devx_create_event_channel, NULL, ctx, flags);
}

static void
emu_glue_devx_destroy_event_channel(struct mlx5dv_devx_event_channel *ch)
{
	if (emu_ev_channel_destroy(ch) != -ENOENT)
		return;
	EMU_FWD_VOID(devx_destroy_event_channel, ch);
}

static int
emu_glue_devx_subscribe_devx_event(struct mlx5dv_devx_event_channel *ch,
				   struct mlx5dv_devx_obj *obj,
				   uint16_t events_sz, uint16_t events_num[],
				   uint64_t cookie)
{
	int ret = emu_ev_subscribe(ch, obj, events_sz, events_num, cookie);

	if (ret != 1)
		return ret ? emu_ret_errno(ret) : 0;
	return EMU_FWD(devx_subscribe_devx_event, errno, ch, obj, events_sz,
		events_num, cookie);
}

static ssize_t
emu_glue_devx_get_event(struct mlx5dv_devx_event_channel *ch,
			struct mlx5dv_devx_async_event_hdr *data, size_t len)
{
	ssize_t ret = emu_ev_get_event(ch, data, len);

	if (ret != 1)
		return ret;
	return EMU_FWD(devx_get_event, -1, ch, data, len);
}

int
mlx5_emu_install(void)
{
	emu_health_telemetry_register();
	pthread_mutex_lock(&emu_glue_lock);
	if (mlx5_glue == &emu_glue_table) {
		pthread_mutex_unlock(&emu_glue_lock);
		return 0;
	}
	if (emu_glue_table.devx_obj_destroy == emu_glue_devx_obj_destroy) {
		/*
		 * Wrapped before, and mlx5_glue has been pointed elsewhere
		 * since. Back at the table the model wraps: point it at the
		 * model again. At any other table, which may itself forward
		 * to the model's, wrapping it would make a loop: refuse.
		 */
		if (mlx5_glue == emu_orig_glue) {
			mlx5_glue = &emu_glue_table;
			pthread_mutex_unlock(&emu_glue_lock);
			return 0;
		}
		pthread_mutex_unlock(&emu_glue_lock);
		EMU_LOG(ERR, "mlx5_glue points at %p, neither the model's "
			"table nor the one it wraps (%p): not wrapped again",
			(const void *)mlx5_glue, (const void *)emu_orig_glue);
		return -EEXIST;
	}
	emu_orig_glue = mlx5_glue;
	if (emu_orig_glue != NULL)
		emu_glue_table = *emu_orig_glue;
	else
		memset(&emu_glue_table, 0, sizeof(emu_glue_table));
	if (emu_glue_table.version == NULL)
		emu_glue_table.version = "mlx5_emu";
	emu_glue_table.close_device = emu_glue_close_device;
	emu_glue_table.get_device_name = emu_glue_get_device_name;
	emu_glue_table.alloc_pd = emu_glue_alloc_pd;
	emu_glue_table.dealloc_pd = emu_glue_dealloc_pd;
	emu_glue_table.query_device = emu_glue_query_device;
	emu_glue_table.query_device_ex = emu_glue_query_device_ex;
	emu_glue_table.query_rt_values_ex = emu_glue_query_rt_values_ex;
	emu_glue_table.dv_query_device = emu_glue_dv_query_device;
	emu_glue_table.create_comp_channel = emu_glue_create_comp_channel;
	emu_glue_table.destroy_comp_channel = emu_glue_destroy_comp_channel;
	emu_glue_table.devx_general_cmd = emu_glue_devx_general_cmd;
	emu_glue_table.devx_obj_create = emu_glue_devx_obj_create;
	emu_glue_table.devx_obj_destroy = emu_glue_devx_obj_destroy;
	emu_glue_table.devx_obj_query = emu_glue_devx_obj_query;
	emu_glue_table.devx_obj_modify = emu_glue_devx_obj_modify;
	emu_glue_table.devx_umem_reg = emu_glue_devx_umem_reg;
	emu_glue_table.devx_umem_dereg = emu_glue_devx_umem_dereg;
	emu_glue_table.devx_alloc_uar = emu_glue_devx_alloc_uar;
	emu_glue_table.devx_free_uar = emu_glue_devx_free_uar;
	emu_glue_table.devx_query_eqn = emu_glue_devx_query_eqn;
	emu_glue_table.dv_set_context_attr = emu_glue_dv_set_context_attr;
	emu_glue_table.dv_create_cq = emu_glue_dv_create_cq;
	emu_glue_table.destroy_cq = emu_glue_destroy_cq;
	emu_glue_table.dv_init_obj = emu_glue_dv_init_obj;
	emu_glue_table.reg_mr = emu_glue_reg_mr;
	emu_glue_table.dereg_mr = emu_glue_dereg_mr;
	emu_glue_table.get_cq_event = emu_glue_get_cq_event;
	emu_glue_table.ack_cq_events = emu_glue_ack_cq_events;
	emu_glue_table.get_async_event = emu_glue_get_async_event;
	emu_glue_table.ack_async_event = emu_glue_ack_async_event;
	emu_glue_table.devx_create_event_channel =
		emu_glue_devx_create_event_channel;
	emu_glue_table.devx_destroy_event_channel =
		emu_glue_devx_destroy_event_channel;
	emu_glue_table.devx_subscribe_devx_event =
		emu_glue_devx_subscribe_devx_event;
	emu_glue_table.devx_get_event = emu_glue_devx_get_event;
	emu_glue_discover_install(&emu_glue_table);
	emu_glue_steer_install(&emu_glue_table);
	mlx5_glue = &emu_glue_table;
	pthread_mutex_unlock(&emu_glue_lock);
	EMU_LOG(INFO, "glue table wrapped (original %p)",
		(const void *)emu_orig_glue);
	return 0;
}
