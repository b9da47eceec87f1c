/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Device failure: a firmware fatal error and a surprise removal
 * (mlx5_emu_dev_fail(), or the telemetry command /mlx5_emu/fail).
 *
 * What the kernel does, and the model after it:
 * - Both put the device in the internal-error state
 *   (mlx5_enter_error_state() in the kernel's mlx5 core health.c). From
 *   then on the device executes nothing: no send or receive WQE, no CQE,
 *   no completion event; its port's link goes down, so its wire partner
 *   loses its link too (a PORT_ERR there). The failed device itself
 *   raises no port event: mlx5_ib stops dispatching once it has reported
 *   the fatal error (ib_active cleared in mlx5_ib_handle_event()).
 * - Commands do not reach the firmware (cmd.c, mlx5_internal_err_ret_value()
 *   of Linux 6.1): destroy and dealloc commands, and MODIFY_NIC_VPORT_CONTEXT,
 *   MODIFY_RQT, 2ERR_QP and 2RST_QP, complete with status OK; every other
 *   command fails with ENOLINK, the output mailbox carrying status
 *   MLX5_DRIVER_STATUS_ABORTED (0xfe) and syndrome MLX5_DRIVER_SYND
 *   (0xbadd00de). The model releases what a destroy names as usual.
 * - Events: mlx5_ib reports MLX5_DEV_EVENT_SYS_ERROR as
 *   IBV_EVENT_DEVICE_FATAL on port 1 (mlx5_ib_handle_event(); health.c
 *   passes port 1). On a removal uverbs then disassociates the context and
 *   queues a second IBV_EVENT_DEVICE_FATAL, element 0
 *   (uverbs_async_event_destroy_uobj() with RDMA_REMOVE_DRIVER_REMOVE);
 *   net/mlx5 notes that the event can come twice for this reason
 *   (mlx5_dev_interrupt_handler()).
 * Limit: after the disassociation the kernel answers EIO to every later
 * uverbs call, destroys included (rdma-core turns that EIO into success
 * only with RDMAV_ALLOW_DISASSOC_DESTROY set: verbs_is_destroy_err()); the
 * model keeps the internal-error answers above for a removed device too.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_telemetry.h>
#include <mlx5_prm.h>

#include "mlx5_emu_net.h"

#define EMU_DRIVER_STATUS_ABORTED 0xfe /* Kernel mlx5_core.h. */
#define EMU_DRIVER_SYND 0xbadd00de /* Kernel mlx5_core.h. */
/* Opcodes without a fixed command path elsewhere in the model (PRM). */
#define EMU_CMD_OP_2ERR_QP 0x504
#define EMU_CMD_OP_2RST_QP 0x50a

/* Commands the kernel completes with status OK on a failed device, other
 * than destroys (which never come through the gate).
 */
static int
emu_health_ok_cmd(uint16_t opcode)
{
	switch (opcode) {
	case EMU_CMD_OP_MODIFY_NIC_VPORT_CONTEXT:
	case MLX5_CMD_OP_MODIFY_RQT:
	case EMU_CMD_OP_2ERR_QP:
	case EMU_CMD_OP_2RST_QP:
		return 1;
	default:
		return 0;
	}
}

int
emu_health_cmd_gate(struct emu_dev *dev, uint16_t opcode, void *out,
		    size_t outlen)
{
	uint8_t none[8];

	if (!emu_dev_failed(dev))
		return 0;
	if (emu_health_ok_cmd(opcode)) {
		if (out != NULL)
			memset(out, 0, outlen);
		return -1;
	}
	/* The driver's status and syndrome, recorded as a command's; the
	 * errno is the kernel's for this case, not the status's mapping.
	 */
	if (out == NULL || outlen < 8) {
		out = none;
		outlen = sizeof(none);
	}
	emu_cmd_fail(dev, out, outlen, EMU_DRIVER_STATUS_ABORTED,
		     EMU_DRIVER_SYND);
	return emu_ret_errno(ENOLINK);
}

int
emu_health_event_take(struct emu_dev *dev, uint8_t *port)
{
	int health = __atomic_load_n(&dev->health, __ATOMIC_ACQUIRE);

	if (dev->fatal_ev_n == 0)
		return 0;
	/* The mlx5 event (port 1) comes first, the uverbs one (0) after. */
	*port = health == EMU_HEALTH_REMOVED && dev->fatal_ev_n == 1 ? 0 : 1;
	dev->fatal_ev_n--;
	return 1;
}

/* dev->lock held. */
static int
emu_dev_fail_locked(struct emu_dev *dev, enum mlx5_emu_failure how)
{
	int health = how == MLX5_EMU_DEV_REMOVED ? EMU_HEALTH_REMOVED :
						   EMU_HEALTH_FATAL;
	int old = __atomic_load_n(&dev->health, __ATOMIC_ACQUIRE);

	if (old >= health) {
		EMU_LOG(ERR, "%s: already %s", dev->name,
			old == EMU_HEALTH_REMOVED ? "removed" : "failed");
		return -EALREADY;
	}
	/* Fatal: the mlx5 event; removed: that one (unless raised before)
	 * and the uverbs one.
	 */
	dev->fatal_ev_n += (uint8_t)(health - old);
	emu_net_lock();
	/* Under emu_net_lock: no engine pass sees half of it. */
	__atomic_store_n(&dev->health, health, __ATOMIC_RELEASE);
	if (dev->net != NULL)
		emu_link_refresh(dev->net, dev->net);
	emu_net_unlock();
	emu_fd_signal(dev->vctx.context.async_fd);
	EMU_LOG(INFO, "%s: %s", dev->name, health == EMU_HEALTH_REMOVED ?
		"removed" : "firmware fatal error");
	return 0;
}

int
mlx5_emu_dev_fail(struct ibv_context *ctx, enum mlx5_emu_failure how)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);
	int ret;

	if (dev == NULL || (how != MLX5_EMU_DEV_FATAL &&
			    how != MLX5_EMU_DEV_REMOVED)) {
		EMU_LOG(ERR, "dev_fail: foreign context or unknown failure %d",
			(int)how);
		return -EINVAL;
	}
	pthread_mutex_lock(&dev->lock);
	ret = emu_dev_fail_locked(dev, how);
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

static int
emu_match_name(struct emu_dev *dev, const void *name)
{
	return strcmp(dev->name, name) == 0;
}

/* /mlx5_emu/fail,DEVICE[,fatal|removed]: what a test outside the process
 * (a testpmd driver) uses to fail a device.
 */
static int
emu_health_tel_fail(const char *cmd, const char *params,
		    struct rte_tel_data *d)
{
	enum mlx5_emu_failure how = MLX5_EMU_DEV_REMOVED;
	char name[IBV_SYSFS_NAME_MAX];
	const char *comma;
	struct emu_dev *dev;
	size_t n;
	int ret;

	RTE_SET_USED(cmd);
	if (params == NULL)
		return -EINVAL;
	comma = strchr(params, ',');
	n = comma != NULL ? (size_t)(comma - params) : strlen(params);
	if (n == 0 || n >= sizeof(name))
		return -EINVAL;
	memcpy(name, params, n);
	name[n] = '\0';
	if (comma != NULL) {
		if (strcmp(comma + 1, "fatal") == 0)
			how = MLX5_EMU_DEV_FATAL;
		else if (strcmp(comma + 1, "removed") != 0)
			return -EINVAL;
	}
	dev = emu_dev_find_locked(emu_match_name, name);
	if (dev == NULL)
		return -ENODEV;
	ret = emu_dev_fail_locked(dev, how);
	pthread_mutex_unlock(&dev->lock);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "device", name);
	rte_tel_data_add_dict_string(d, "state", ret == 0 ?
		(how == MLX5_EMU_DEV_REMOVED ? "removed" : "fatal") :
		"unchanged");
	return 0;
}

void
emu_health_telemetry_register(void)
{
	static int done;

	if (__atomic_exchange_n(&done, 1, __ATOMIC_ACQ_REL))
		return;
	rte_telemetry_register_cmd("/mlx5_emu/fail", emu_health_tel_fail,
		"Fail an emulated device. Parameters: device name, then "
		"\"fatal\" or \"removed\" (the default)");
}
