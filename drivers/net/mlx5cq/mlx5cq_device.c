/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Device side of a port: the verbs context (an emulated HCA or a real
 * ibdev found by name), the mlx5cq device for CQs, the protection domain,
 * the transport domain, the TIS and the UAR of the send queues.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include <infiniband/mlx5dv.h>
#include <mlx5_glue.h>
#include <mlx5_common.h>
#include <mlx5_devx_cmds.h>

#include "mlx5cq_emu_plugin.h"
#include "mlx5cq_pmd.h"
#include "mlx5cq_ethdev.h"

static struct ibv_context *
mlx5cq_open_ibdev(const char *name)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	int n = 0, i;

	list = mlx5_glue->get_device_list(&n);
	if (list == NULL) {
		PMD_LOG(ERR, "dev=%s: cannot list RDMA devices (%s)", name,
			strerror(errno));
		rte_errno = ENODEV;
		return NULL;
	}
	for (i = 0; i < n; i++) {
		if (strcmp(mlx5_glue->get_device_name(list[i]), name) != 0)
			continue;
		/* DevX needs the device opened through mlx5dv. */
		ctx = mlx5_glue->dv_open_device(list[i]);
		if (ctx == NULL)
			ctx = mlx5_glue->open_device(list[i]);
		if (ctx == NULL)
			PMD_LOG(ERR, "dev=%s: cannot open (%s)", name,
				strerror(errno));
		break;
	}
	if (i == n)
		PMD_LOG(ERR, "dev=%s: no such RDMA device", name);
	mlx5_glue->free_device_list(list);
	if (ctx == NULL)
		rte_errno = ENODEV;
	return ctx;
}

/* A locally administered MAC derived from a per-process counter. */
static void
mlx5cq_default_mac(struct rte_ether_addr *mac)
{
	static uint32_t count;
	uint32_t n = __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED);

	mac->addr_bytes[0] = 0x02;
	mac->addr_bytes[1] = 0x6d;
	mac->addr_bytes[2] = 0x35;
	mac->addr_bytes[3] = (uint8_t)(getpid() & 0xff);
	mac->addr_bytes[4] = (uint8_t)(n >> 8);
	mac->addr_bytes[5] = (uint8_t)n;
}

/*
 * The CQ devargs against the device: make (and destroy at once) one CQ
 * with the attributes of the RX queues and one with those of the TX
 * queues, so that a combination the device or the path cannot have fails
 * the probe, with the devargs named, instead of the port start. Without
 * cqe_comp, RX CQs compress with HASH mini-CQEs when the device can make
 * such CQs with the other devargs, and do not compress otherwise (as
 * DPDK's net/mlx5 turns rxq_cqe_comp_en off where the device lacks it).
 */
static int
mlx5cq_device_check_cq_args(struct mlx5cq_priv *priv, const char *name)
{
	struct mlx5cq_devargs *a = &priv->args;
	struct rte_mlx5cq_attr attr;
	struct rte_mlx5cq *cq;
	int rx;

	for (rx = 1; rx >= 0; rx--) {
		mlx5cq_cq_attr_fill(priv, &attr, MLX5CQ_DESC_MIN, SOCKET_ID_ANY,
				    rx);
		cq = rte_mlx5cq_create(priv->cqdev, &attr);
		/*
		 * A refused default compression: EOPNOTSUPP for a capability
		 * the device lacks (DevX, and the kernel's check on verbs),
		 * EINVAL when rdma-core's create_cq() refuses it on verbs.
		 * Compression stays off when the CQ can be made without it.
		 */
		if (cq == NULL && rx && !a->cqe_comp_set && a->cqe_comp != 0 &&
		    a->cqe_comp_layout == RTE_MLX5CQ_COMP_LAYOUT_BASIC &&
		    (rte_errno == EOPNOTSUPP || rte_errno == EINVAL)) {
			int err = rte_errno;

			a->cqe_comp = 0;
			mlx5cq_cq_attr_fill(priv, &attr, MLX5CQ_DESC_MIN,
					    SOCKET_ID_ANY, rx);
			cq = rte_mlx5cq_create(priv->cqdev, &attr);
			if (cq != NULL)
				PMD_LOG(INFO, "%s: RX CQE compression off (the"
					" device cannot make compressed RX CQs"
					" with these devargs: %s)", name,
					rte_strerror(err));
		}
		if (cq == NULL) {
			PMD_LOG(ERR, "%s: devargs cq_path=%s cqe_size=%u "
				"cqe_pad=%u cqe_comp=%s cqe_comp_layout=%s: "
				"the device cannot make these %s CQs: %s",
				name, mlx5cq_devargs_path_name(a->cq_path),
				a->cqe_size, a->cqe_pad,
				mlx5cq_devargs_comp_name(a->cqe_comp),
				a->cqe_comp_layout ? "enhanced" : "basic",
				rx ? "RX" : "TX", rte_strerror(rte_errno));
			return -rte_errno;
		}
		if (rte_mlx5cq_destroy(cq) != 0)
			return -rte_errno;
	}
	return 0;
}

/*
 * How much of each frame a TX WQE must inline (kernel mlx5e,
 * mlx5_query_min_inline): the Ethernet caps' wqe_inline_mode; with
 * "vport context" the NIC vport context's min_wqe_inline_mode. L2: the
 * Ethernet header and a VLAN tag (18 bytes); not required (ConnectX-5 and
 * later): none, the frame goes by pointer only. More than L2 (IP, L4) is
 * not built by this PMD: the port is refused. 0, or -1 with rte_errno.
 */
static int
mlx5cq_device_tx_inline(struct mlx5cq_priv *priv,
			const struct mlx5_hca_attr *attr, const char *name)
{
	unsigned int mode;

	if (attr->wqe_inline_mode == MLX5_CAP_INLINE_MODE_NOT_REQUIRED) {
		mode = MLX5_INLINE_MODE_NONE;
	} else if (attr->wqe_inline_mode ==
		   MLX5_CAP_INLINE_MODE_VPORT_CONTEXT) {
		if (mlx5cq_vport_min_inline(priv, &mode) != 0) {
			PMD_LOG(ERR, "%s: vport context (min inline mode) not "
				"readable", name);
			return -1;
		}
	} else {
		mode = MLX5_INLINE_MODE_L2;
	}
	if (mode > MLX5_INLINE_MODE_L2) {
		PMD_LOG(ERR, "%s: the device requires inline headers beyond "
			"L2 (min inline mode %u): not supported", name, mode);
		rte_errno = ENOTSUP;
		return -1;
	}
	priv->tx_inline = mode == MLX5_INLINE_MODE_L2 ? MLX5CQ_INLINE_HDR : 0;
	/* The device inserts VLAN tags given in the Ethernet segment. */
	priv->tx_vlan_hw = attr->wqe_vlan_insert;
	/* TSO where the device offers LSO (net/mlx5: max_lso_cap). */
	priv->tso_max = attr->max_lso_cap ? 1u << attr->max_lso_cap : 0;
	PMD_LOG(DEBUG, "%s: TX WQEs inline %u bytes (wqe_inline_mode %u)",
		name, priv->tx_inline, attr->wqe_inline_mode);
	return 0;
}

/* What the port takes from the HCA capabilities: TX inlining, clock,
 * LRO, striding RQ.
 */
static int
mlx5cq_device_caps(struct mlx5cq_priv *priv, const char *name)
{
	struct mlx5_hca_attr attr;

	memset(&attr, 0, sizeof(attr));
	if (mlx5_devx_cmd_query_hca_attr(priv->ctx, &attr) != 0) {
		PMD_LOG(ERR, "%s: HCA capabilities not readable: %s", name,
			rte_strerror(rte_errno));
		return -1;
	}
	if (mlx5cq_device_tx_inline(priv, &attr, name) != 0)
		return -1;
	mlx5cq_clock_init(priv, &attr, name);
	mlx5cq_lro_caps_read(priv, &attr, name);
	return mlx5cq_mprq_caps_read(priv, attr.log_min_stride_wqe_sz, name);
}

/*
 * Open the device of a port: context, emulated port configuration (wire
 * and MAC), mlx5cq device (the CQ devargs checked against it), PD and the
 * permanent MAC.
 */
/*
 * The firmware version, as net/mlx5 reports it (the verbs device
 * attribute fw_ver, mlx5_os_fw_version_get()): read once, so that a port
 * whose device failed still answers.
 */
static int
mlx5cq_device_fw_ver(struct mlx5cq_priv *priv, const char *name)
{
	struct ibv_device_attr attr;

	if (mlx5_glue->query_device(priv->ctx, &attr) != 0) {
		PMD_LOG(ERR, "%s: query_device failed: %s", name,
			strerror(errno));
		rte_errno = errno ? errno : EIO;
		return -1;
	}
	snprintf(priv->fw_ver, sizeof(priv->fw_ver), "%s", attr.fw_ver);
	return 0;
}

int
mlx5cq_device_fw_version_get(struct rte_eth_dev *dev, char *fw,
			     size_t size)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	size_t need = strlen(priv->fw_ver) + 1;

	/* ethdev's contract: the size needed when fw is too small. */
	if (size < need)
		return (int)need;
	memcpy(fw, priv->fw_ver, need);
	return 0;
}

int
mlx5cq_device_open(struct mlx5cq_priv *priv, const char *name)
{
	const struct mlx5cq_devargs *a = &priv->args;
	int ret;

	if (strcmp(a->dev, "emu") == 0) {
		const char *wire = a->wire[0] != '\0' ? a->wire : name;
		const struct mlx5cq_emu_plugin *emu;

		emu = mlx5cq_emu_plugin_load();
		if (emu == NULL) {
			ret = rte_errno;
			PMD_LOG(ERR, "%s: dev=emu needs the emulated HCA plugin, "
				"which cannot be loaded (%s)", name,
				rte_strerror(ret));
			rte_errno = ret;
			return -ret;
		}
		priv->ctx = emu->open(name, NULL);
		if (priv->ctx == NULL) {
			ret = errno ? errno : ENODEV;
			PMD_LOG(ERR, "%s: cannot open an emulated device (%s)",
				name, strerror(ret));
			rte_errno = ret;
			return -ret;
		}
		priv->emulated = 1;
		if (a->mac_set)
			priv->perm_mac = a->mac;
		else
			mlx5cq_default_mac(&priv->perm_mac);
		ret = emu->port_config(priv->ctx, wire,
					   priv->perm_mac.addr_bytes);
		if (ret != 0) {
			PMD_LOG(ERR, "%s: emulated port config (wire %s) "
				"failed: %s", name, wire, strerror(-ret));
			rte_errno = -ret;
			goto error;
		}
		ret = emu->port_speed_set(priv->ctx, a->speed);
		if (ret != 0) {
			PMD_LOG(ERR, "%s: emulated port speed %u Mb/s "
				"failed: %s", name, a->speed, strerror(-ret));
			rte_errno = -ret;
			goto error;
		}
	} else {
		priv->ctx = mlx5cq_open_ibdev(a->dev);
		if (priv->ctx == NULL)
			return -rte_errno;
	}
	/* The port opened the context: its buffer allocators are ours. */
	priv->cqdev = rte_mlx5cq_dev_open_ex(priv->ctx, SOCKET_ID_ANY,
					     RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS);
	if (priv->cqdev == NULL) {
		PMD_LOG(ERR, "%s: mlx5cq device open failed: %s", name,
			rte_strerror(rte_errno));
		goto error;
	}
	if (mlx5cq_device_check_cq_args(priv, name) != 0)
		goto error;
	if (mlx5cq_device_fw_ver(priv, name) != 0)
		goto error;
	if (mlx5cq_device_caps(priv, name) != 0)
		goto error;
	priv->pd = mlx5_glue->alloc_pd(priv->ctx);
	if (priv->pd == NULL) {
		rte_errno = errno ? errno : ENOMEM;
		PMD_LOG(ERR, "%s: PD allocation failed: %s", name,
			strerror(rte_errno));
		goto error;
	}
	/* Out-of-buffer drops of the RQs (imissed), as mlx5 counts them. */
	priv->qcnt = mlx5_devx_cmd_queue_counter_alloc(priv->ctx);
	if (priv->qcnt == NULL)
		PMD_LOG(NOTICE, "%s: no queue counter set (%s): imissed and "
			"rx_out_of_buffer stay 0", name,
			rte_strerror(rte_errno));
	if (!priv->emulated) {
		ret = mlx5cq_vport_perm_mac(priv, &priv->perm_mac);
		if (ret != 0) {
			PMD_LOG(ERR, "%s: cannot read the port MAC", name);
			goto error;
		}
	}
	return 0;
error:
	ret = rte_errno;
	mlx5cq_device_close(priv);
	rte_errno = ret;
	return -ret;
}

/* PD number (MLX5DV_OBJ_PD), read once when a queue needs it. */
int
mlx5cq_device_pdn(struct mlx5cq_priv *priv)
{
	struct mlx5dv_obj obj;
	struct mlx5dv_pd pd_out;
	int ret;

	if (priv->pdn_valid)
		return 0;
	memset(&obj, 0, sizeof(obj));
	obj.pd.in = priv->pd;
	obj.pd.out = &pd_out;
	ret = mlx5_glue->dv_init_obj(&obj, MLX5DV_OBJ_PD);
	if (ret != 0) {
		PMD_LOG(ERR, "port %u: cannot read the PD number (%d)",
			priv->eth_dev->data->port_id, ret);
		rte_errno = ret > 0 ? ret : EINVAL;
		return -rte_errno;
	}
	priv->pdn = pd_out.pdn;
	priv->pdn_valid = 1;
	return 0;
}

/* Transport domain, TIS and UAR for the send queues (once). */
int
mlx5cq_device_tx_objs(struct mlx5cq_priv *priv)
{
	struct mlx5_devx_tis_attr tis_attr;
	uint16_t port = priv->eth_dev->data->port_id;

	if (priv->td == NULL) {
		priv->td = mlx5_devx_cmd_create_td(priv->ctx);
		if (priv->td == NULL) {
			PMD_LOG(ERR, "port %u: transport domain creation "
				"failed: %s", port, rte_strerror(rte_errno));
			return -rte_errno;
		}
	}
	if (priv->tis == NULL) {
		memset(&tis_attr, 0, sizeof(tis_attr));
		tis_attr.transport_domain = priv->td->id;
		priv->tis = mlx5_devx_cmd_create_tis(priv->ctx, &tis_attr);
		if (priv->tis == NULL) {
			PMD_LOG(ERR, "port %u: TIS creation failed: %s", port,
				rte_strerror(rte_errno));
			return -rte_errno;
		}
	}
	if (priv->uar == NULL) {
		priv->uar = mlx5_glue->devx_alloc_uar(priv->ctx,
						      MLX5DV_UAR_ALLOC_TYPE_NC);
		if (priv->uar == NULL)
			priv->uar = mlx5_glue->devx_alloc_uar(priv->ctx,
						MLX5DV_UAR_ALLOC_TYPE_BF);
		if (priv->uar == NULL) {
			rte_errno = errno ? errno : ENOMEM;
			PMD_LOG(ERR, "port %u: UAR allocation failed: %s",
				port, strerror(rte_errno));
			return -rte_errno;
		}
	}
	return 0;
}

/* Release everything mlx5cq_device_open() and later steps created. */
void
mlx5cq_device_close(struct mlx5cq_priv *priv)
{
	if (priv->uar != NULL) {
		mlx5_glue->devx_free_uar(priv->uar);
		priv->uar = NULL;
		priv->uar_valid = 0;
	}
	if (priv->tis != NULL) {
		mlx5_devx_cmd_destroy(priv->tis);
		priv->tis = NULL;
	}
	if (priv->td != NULL) {
		mlx5_devx_cmd_destroy(priv->td);
		priv->td = NULL;
	}
	if (priv->qcnt != NULL) {
		if (mlx5_devx_cmd_destroy(priv->qcnt) != 0)
			PMD_LOG(ERR, "queue counter set release failed");
		priv->qcnt = NULL;
	}
	mlx5cq_mr_release_all(priv);
	mlx5cq_pmd_dev_release(&priv->pd, &priv->cqdev, &priv->ctx,
			       mlx5cq_net_logtype, "net_mlx5cq");
	priv->pdn_valid = 0;
}
