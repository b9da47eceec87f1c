/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Device discovery: the model's devices in the verbs device list, so that a
 * program that finds its device the way rdma-core users do (DPDK's
 * drivers/common/mlx5 and net/mlx5) finds and opens an emulated one.
 *
 * A listed device (mlx5_emu_device_add(), or MLX5_EMU_DEVICES in the
 * environment when the library is loaded) is a struct ibv_device with the
 * fields rdma-core's sysfs scan fills (libibverbs sysfs.c / device.c):
 * name, dev_name "uverbs<N>", dev_path, ibdev_path, node type CA and
 * transport IB (an mlx5 Ethernet port is an IB CA to verbs). ibdev_path is
 * the caller's folder: DPDK reads <ibdev_path>/device/uevent
 * (PCI_SLOT_NAME, mlx5_get_pci_addr()) to match a PCI function and
 * <ibdev_path>/device/net/<ifname>/dev_port (mlx5_get_ifname_sysfs()) to
 * find the netdev; the model reads neither, a harness builds the tree.
 *
 * get_device_list returns the original table's devices followed by the
 * listed ones in one NULL-terminated array; free_device_list of that array
 * frees both (ibv_free_device_list() of the original part). open_device and
 * dv_open_device of a listed device open an emulated device of that name
 * (mlx5_emu_open()) with the open defaults (mlx5_emu_open_caps_set()), put
 * its port on the listed wire with the listed MAC, and set the context's
 * ibdev_path. rdma-core opens a device as often as asked (one context per
 * open); the model's devices are named objects, so a listed device has at
 * most one open context at a time: a second open fails with EBUSY.
 * query_port (ibv_query_port(), port 1 only as phys_port_cnt is 1: EINVAL
 * otherwise, as the kernel's ib_query_port() checks rdma_is_port_valid())
 * answers as the kernel's mlx5_query_port_roce() does for an Ethernet
 * port: link layer Ethernet, state ACTIVE / phys_state LinkUp (5) while
 * the link is up, DOWN / Disabled (3) otherwise, max_mtu 4096 and the
 * active MTU from the port's MTU (ib_mtu_int_to_enum()), max_msg_sz 2^30
 * (1 << log_max_msg, the HCA cap, 30 here), gid_tbl_len 256 (roce
 * max_gid_table_entries of a ConnectX-5), pkey_tbl_len 1.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mlx5_glue.h>

#include "mlx5_emu_private.h"

struct emu_listed {
	TAILQ_ENTRY(emu_listed) next;
	struct ibv_device ibdev; /* What get_device_list hands out. */
	char wire[64];
	uint8_t mac[6];
	uint8_t has_mac;
	struct ibv_context *ctx; /* Open context, or NULL. */
	uint8_t opening; /* Being opened (emu_listed_lock released). */
};

/* A list handed out by get_device_list: the original list kept beside. */
struct emu_dev_list {
	TAILQ_ENTRY(emu_dev_list) next;
	struct ibv_device **orig;
	struct ibv_device *devs[]; /* NULL-terminated. */
};

static TAILQ_HEAD(, emu_listed) emu_listed = TAILQ_HEAD_INITIALIZER(emu_listed);
/* Lists handed out and not freed (a foreign list goes to the original). */
static TAILQ_HEAD(, emu_dev_list) emu_lists = TAILQ_HEAD_INITIALIZER(emu_lists);
static pthread_mutex_t emu_listed_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned int emu_listed_seq;

static struct emu_listed *
emu_listed_find(const struct ibv_device *ibdev, const char *name)
{
	struct emu_listed *l;

	TAILQ_FOREACH(l, &emu_listed, next)
		if ((ibdev != NULL && &l->ibdev == ibdev) ||
		    (name != NULL && strcmp(l->ibdev.name, name) == 0))
			return l;
	return NULL;
}

int
mlx5_emu_device_add(const struct mlx5_emu_device_conf *conf)
{
	struct emu_listed *l;
	int ret;

	if (conf == NULL || conf->name == NULL || conf->name[0] == '\0' ||
	    strlen(conf->name) >= IBV_SYSFS_NAME_MAX ||
	    conf->ibdev_path == NULL || conf->ibdev_path[0] != '/' ||
	    strlen(conf->ibdev_path) >= IBV_SYSFS_PATH_MAX ||
	    (conf->wire != NULL &&
	     (conf->wire[0] == '\0' || strlen(conf->wire) >= 64)) ||
	    (conf->mac != NULL && (conf->mac[0] & 1))) {
		EMU_LOG(ERR, "device_add: name empty or longer than %u, "
			"ibdev_path not absolute or longer than %u, wire name "
			"empty or longer than 63, or a multicast MAC",
			IBV_SYSFS_NAME_MAX - 1, IBV_SYSFS_PATH_MAX - 1);
		return -EINVAL;
	}
	ret = mlx5_emu_install();
	if (ret != 0)
		return ret;
	l = calloc(1, sizeof(*l));
	if (l == NULL)
		return -ENOMEM;
	pthread_mutex_lock(&emu_listed_lock);
	if (emu_listed_find(NULL, conf->name) != NULL) {
		pthread_mutex_unlock(&emu_listed_lock);
		free(l);
		EMU_LOG(ERR, "device_add: %s is listed already", conf->name);
		return -EEXIST;
	}
	strcpy(l->ibdev.name, conf->name);
	strcpy(l->ibdev.ibdev_path, conf->ibdev_path);
	snprintf(l->ibdev.dev_name, sizeof(l->ibdev.dev_name), "uverbs%u",
		 emu_listed_seq);
	snprintf(l->ibdev.dev_path, sizeof(l->ibdev.dev_path),
		 "/sys/class/infiniband_verbs/uverbs%u", emu_listed_seq);
	emu_listed_seq++;
	l->ibdev.node_type = IBV_NODE_CA;
	l->ibdev.transport_type = IBV_TRANSPORT_IB;
	if (conf->wire != NULL)
		strcpy(l->wire, conf->wire);
	if (conf->mac != NULL) {
		memcpy(l->mac, conf->mac, 6);
		l->has_mac = 1;
	}
	TAILQ_INSERT_TAIL(&emu_listed, l, next);
	pthread_mutex_unlock(&emu_listed_lock);
	EMU_LOG(INFO, "%s: listed at %s (wire %s)", conf->name,
		conf->ibdev_path, conf->wire != NULL ? conf->wire : "(none)");
	return 0;
}

int
mlx5_emu_device_remove(const char *name)
{
	struct emu_listed *l;

	pthread_mutex_lock(&emu_listed_lock);
	l = name != NULL ? emu_listed_find(NULL, name) : NULL;
	if (l == NULL || l->ctx != NULL || l->opening) {
		pthread_mutex_unlock(&emu_listed_lock);
		EMU_LOG(ERR, "device_remove: %s %s", name != NULL ? name : "",
			l == NULL ? "is not listed" : "is open");
		return l == NULL ? -ENOENT : -EBUSY;
	}
	TAILQ_REMOVE(&emu_listed, l, next);
	pthread_mutex_unlock(&emu_listed_lock);
	free(l);
	return 0;
}

unsigned int
mlx5_emu_device_count(void)
{
	struct emu_listed *l;
	unsigned int n = 0;

	pthread_mutex_lock(&emu_listed_lock);
	TAILQ_FOREACH(l, &emu_listed, next)
		n++;
	pthread_mutex_unlock(&emu_listed_lock);
	return n;
}

/* Called by mlx5_emu_close(): the listed device may be opened again. */
void
emu_listed_closed(const struct ibv_context *ctx)
{
	struct emu_listed *l;

	pthread_mutex_lock(&emu_listed_lock);
	TAILQ_FOREACH(l, &emu_listed, next)
		if (l->ctx == ctx)
			l->ctx = NULL;
	pthread_mutex_unlock(&emu_listed_lock);
}

static struct ibv_device **
emu_glue_get_device_list(int *num_devices)
{
	struct ibv_device **orig = NULL;
	struct emu_dev_list *list;
	struct emu_listed *l;
	int n_orig = 0, n = 0, i;

	if (emu_orig_glue != NULL && emu_orig_glue->get_device_list != NULL)
		orig = emu_orig_glue->get_device_list(&n_orig);
	if (orig == NULL)
		n_orig = 0;
	pthread_mutex_lock(&emu_listed_lock);
	TAILQ_FOREACH(l, &emu_listed, next)
		n++;
	list = calloc(1, sizeof(*list) +
		      sizeof(list->devs[0]) * (n_orig + n + 1));
	if (list == NULL) {
		pthread_mutex_unlock(&emu_listed_lock);
		if (orig != NULL)
			emu_orig_glue->free_device_list(orig);
		errno = ENOMEM;
		return NULL;
	}
	list->orig = orig;
	for (i = 0; i < n_orig; i++)
		list->devs[i] = orig[i];
	TAILQ_FOREACH(l, &emu_listed, next)
		list->devs[i++] = &l->ibdev;
	TAILQ_INSERT_TAIL(&emu_lists, list, next);
	pthread_mutex_unlock(&emu_listed_lock);
	if (num_devices != NULL)
		*num_devices = i;
	return list->devs;
}

static void
emu_glue_free_device_list(struct ibv_device **devs)
{
	struct emu_dev_list *list;

	if (devs == NULL)
		return;
	pthread_mutex_lock(&emu_listed_lock);
	TAILQ_FOREACH(list, &emu_lists, next)
		if (list->devs == devs)
			break;
	if (list != NULL)
		TAILQ_REMOVE(&emu_lists, list, next);
	pthread_mutex_unlock(&emu_listed_lock);
	if (list == NULL) {
		if (emu_orig_glue != NULL &&
		    emu_orig_glue->free_device_list != NULL)
			emu_orig_glue->free_device_list(devs);
		return;
	}
	if (list->orig != NULL)
		emu_orig_glue->free_device_list(list->orig);
	free(list);
}

/* Open l (claimed by the caller: l->opening set, emu_listed_lock free). */
static struct ibv_context *
emu_listed_open(struct emu_listed *l)
{
	struct ibv_context *ctx;
	struct emu_dev *dev;
	int ret;

	ctx = mlx5_emu_open(l->ibdev.name, NULL);
	if (ctx == NULL)
		return NULL;
	ret = mlx5_emu_port_config(ctx, l->wire[0] != '\0' ? l->wire : NULL,
				   l->has_mac ? l->mac : NULL);
	if (ret != 0) {
		mlx5_emu_close(ctx);
		errno = -ret;
		return NULL;
	}
	dev = emu_dev_from_ctx(ctx);
	strcpy(dev->ibdev.ibdev_path, l->ibdev.ibdev_path);
	strcpy(dev->ibdev.dev_name, l->ibdev.dev_name);
	strcpy(dev->ibdev.dev_path, l->ibdev.dev_path);
	return ctx;
}

static struct ibv_context *
emu_glue_open_any(struct ibv_device *device, int dv)
{
	struct ibv_context *ctx;
	struct emu_listed *l;

	pthread_mutex_lock(&emu_listed_lock);
	l = emu_listed_find(device, NULL);
	if (l != NULL) {
		if (l->ctx != NULL || l->opening) {
			pthread_mutex_unlock(&emu_listed_lock);
			EMU_LOG(ERR, "open_device: %s is open already (the "
				"model opens a listed device once)",
				l->ibdev.name);
			errno = EBUSY;
			return NULL;
		}
		l->opening = 1;
		pthread_mutex_unlock(&emu_listed_lock);
		ctx = emu_listed_open(l);
		pthread_mutex_lock(&emu_listed_lock);
		l->opening = 0;
		l->ctx = ctx;
		pthread_mutex_unlock(&emu_listed_lock);
		return ctx;
	}
	pthread_mutex_unlock(&emu_listed_lock);
	if (emu_orig_glue == NULL) {
		errno = ENOSYS;
		return NULL;
	}
	if (dv)
		return emu_orig_glue->dv_open_device != NULL ?
		       emu_orig_glue->dv_open_device(device) : NULL;
	return emu_orig_glue->open_device != NULL ?
	       emu_orig_glue->open_device(device) : NULL;
}

static struct ibv_context *
emu_glue_open_device(struct ibv_device *device)
{
	return emu_glue_open_any(device, 0);
}

static struct ibv_context *
emu_glue_dv_open_device(struct ibv_device *device)
{
	return emu_glue_open_any(device, 1);
}

/* ib_mtu_int_to_enum() of the kernel (ib_verbs.h). */
static enum ibv_mtu
emu_ib_mtu(uint32_t mtu)
{
	if (mtu >= 4096)
		return IBV_MTU_4096;
	if (mtu >= 2048)
		return IBV_MTU_2048;
	if (mtu >= 1024)
		return IBV_MTU_1024;
	if (mtu >= 512)
		return IBV_MTU_512;
	return IBV_MTU_256;
}

static int
emu_glue_query_port(struct ibv_context *ctx, uint8_t port_num,
		    struct ibv_port_attr *attr)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);
	uint32_t mtu;
	int up;

	if (dev == NULL) {
		if (emu_orig_glue == NULL || emu_orig_glue->query_port == NULL)
			return emu_ret_errno(ENOSYS);
		return emu_orig_glue->query_port(ctx, port_num, attr);
	}
	if (attr == NULL || port_num != 1) {
		EMU_LOG(ERR, "%s: query_port: port %u (the device has port 1)",
			dev->name, port_num);
		return emu_ret_errno(EINVAL);
	}
	emu_port_query(dev, &up, &mtu);
	memset(attr, 0, sizeof(*attr));
	attr->state = up ? IBV_PORT_ACTIVE : IBV_PORT_DOWN;
	attr->phys_state = up ? 5 : 3;
	attr->max_mtu = IBV_MTU_4096;
	attr->active_mtu = emu_ib_mtu(mtu);
	attr->gid_tbl_len = 256;
	attr->max_msg_sz = 1u << 30;
	attr->pkey_tbl_len = 1;
	attr->active_width = 2; /* 4x (IB_WIDTH_4X). */
	attr->active_speed = 32; /* EDR (IB_SPEED_EDR). */
	attr->link_layer = IBV_LINK_LAYER_ETHERNET;
	return 0;
}

void
emu_glue_discover_install(struct mlx5_glue *table)
{
	table->get_device_list = emu_glue_get_device_list;
	table->free_device_list = emu_glue_free_device_list;
	table->open_device = emu_glue_open_device;
	table->dv_open_device = emu_glue_dv_open_device;
	table->query_port = emu_glue_query_port;
}
