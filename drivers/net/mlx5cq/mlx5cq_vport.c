/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * NIC vport commands through mlx5_glue->devx_general_cmd: link state and
 * speed (QUERY_VPORT_STATE), the receive filter (MODIFY_NIC_VPORT_CONTEXT:
 * promisc bits, allowed unicast and multicast lists), the MTU, and the
 * permanent MAC (QUERY_NIC_VPORT_CONTEXT). The receive filter set here is
 * also recorded (priv->rxf) and applied as the port's NIC RX steering
 * rules (mlx5cq_flow.c), which are what filters on a card. mlx5_prm.h of DPDK 22.11 has
 * the NIC vport context but not these mailboxes: they are written here
 * from the kernel's include/linux/mlx5/mlx5_ifc.h layouts.
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>

#include <rte_malloc.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>

#include "mlx5cq_ethdev.h"

#define MLX5CQ_CMD_QUERY_VPORT_STATE 0x750
#define MLX5CQ_CMD_QUERY_NIC_VPORT_CONTEXT 0x754
#define MLX5CQ_CMD_MODIFY_NIC_VPORT_CONTEXT 0x755
#define MLX5CQ_VPORT_STATE_UP 0x1
/* Unit of max_tx_speed (kernel MLX5_MAX_TX_SPEED_UNIT): 100 Mb/s. */
#define MLX5CQ_MAX_TX_SPEED_UNIT 100
#define MLX5CQ_LIST_TYPE_UC 0x0
#define MLX5CQ_LIST_TYPE_MC 0x1
#define MLX5CQ_LIST_TYPE_VLAN 0x2 /* kernel MLX5_NVPRT_LIST_TYPE_VLAN */

struct mlx5_ifc_pmd_query_vport_state_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 other_vport[0x1];
	u8 reserved_at_41[0xf];
	u8 vport_number[0x10];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_pmd_query_vport_state_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x20];
	u8 max_tx_speed[0x10];
	u8 reserved_at_70[0x8];
	u8 admin_state[0x4];
	u8 state[0x4];
};

struct mlx5_ifc_pmd_nic_vport_field_select_bits {
	u8 reserved_at_0[0x12];
	u8 affiliation[0x1];
	u8 reserved_at_13[0x1];
	u8 disable_uc_local_lb[0x1];
	u8 disable_mc_local_lb[0x1];
	u8 node_guid[0x1];
	u8 port_guid[0x1];
	u8 min_inline[0x1];
	u8 mtu[0x1];
	u8 change_event[0x1];
	u8 promisc[0x1];
	u8 permanent_address[0x1];
	u8 addresses_list[0x1];
	u8 roce_en[0x1];
	u8 reserved_at_1f[0x1];
};

struct mlx5_ifc_pmd_modify_nic_vport_context_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 other_vport[0x1];
	u8 reserved_at_41[0xf];
	u8 vport_number[0x10];
	struct mlx5_ifc_pmd_nic_vport_field_select_bits field_select;
	u8 reserved_at_80[0x780];
	struct mlx5_ifc_nic_vport_context_bits nic_vport_context;
};

struct mlx5_ifc_pmd_modify_nic_vport_context_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
};

/* Run a command; 0, or -errno with rte_errno set and a log line. */
static int
mlx5cq_cmd(struct mlx5cq_priv *priv, const char *what, const void *in,
	   size_t inlen, void *out, size_t outlen)
{
	int ret;

	ret = mlx5_glue->devx_general_cmd(priv->ctx, in, inlen, out, outlen);
	if (ret != 0 || MLX5_GET(pmd_modify_nic_vport_context_out, out,
				 status) != 0) {
		PMD_LOG(ERR, "port %u: %s failed: ret %d status 0x%x "
			"syndrome 0x%x", priv->eth_dev->data->port_id, what,
			ret,
			MLX5_GET(pmd_modify_nic_vport_context_out, out,
				 status),
			MLX5_GET(pmd_modify_nic_vport_context_out, out,
				 syndrome));
		rte_errno = ret > 0 ? ret : (errno ? errno : EIO);
		if (rte_errno == 0 || ret == 0)
			rte_errno = EIO;
		return -rte_errno;
	}
	return 0;
}

/*
 * Link: QUERY_VPORT_STATE of the own vport. The speed is max_tx_speed in
 * Mb/s while the vport is UP; 0 when it is DOWN or when the device leaves
 * the field 0 (firmware without it: the kernel then falls back to the
 * port's PTYS register, which this PMD does not read).
 */
int
mlx5cq_vport_state(struct mlx5cq_priv *priv, int *up, uint32_t *speed_mbps)
{
	uint32_t in[MLX5_ST_SZ_DW(pmd_query_vport_state_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(pmd_query_vport_state_out)] = { 0 };
	int ret;

	MLX5_SET(pmd_query_vport_state_in, in, opcode,
		 MLX5CQ_CMD_QUERY_VPORT_STATE);
	ret = mlx5cq_cmd(priv, "QUERY_VPORT_STATE", in, sizeof(in), out,
			 sizeof(out));
	if (ret != 0)
		return ret;
	*up = MLX5_GET(pmd_query_vport_state_out, out, state) ==
	      MLX5CQ_VPORT_STATE_UP;
	*speed_mbps = *up ? MLX5_GET(pmd_query_vport_state_out, out,
				     max_tx_speed) * MLX5CQ_MAX_TX_SPEED_UNIT :
		      0;
	return 0;
}

static void
mlx5cq_modify_hdr(void *in)
{
	MLX5_SET(pmd_modify_nic_vport_context_in, in, opcode,
		 MLX5CQ_CMD_MODIFY_NIC_VPORT_CONTEXT);
}

int
mlx5cq_vport_promisc(struct mlx5cq_priv *priv, int promisc, int allmulti)
{
	int ret;
	uint32_t in[MLX5_ST_SZ_DW(pmd_modify_nic_vport_context_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(pmd_modify_nic_vport_context_out)] = { 0 };
	void *ctx = MLX5_ADDR_OF(pmd_modify_nic_vport_context_in, in,
				 nic_vport_context);

	mlx5cq_modify_hdr(in);
	MLX5_SET(pmd_modify_nic_vport_context_in, in, field_select.promisc, 1);
	MLX5_SET(nic_vport_context, ctx, promisc_uc, !!promisc);
	MLX5_SET(nic_vport_context, ctx, promisc_mc, !!(promisc || allmulti));
	MLX5_SET(nic_vport_context, ctx, promisc_all, !!promisc);
	ret = mlx5cq_cmd(priv, "MODIFY_NIC_VPORT_CONTEXT (promisc)", in,
			 sizeof(in), out, sizeof(out));
	if (ret != 0)
		return ret;
	priv->rxf.promisc = !!promisc;
	priv->rxf.allmulti = !!allmulti;
	return mlx5cq_flow_rx_rules(priv);
}

/* Allowed list of one type; entries follow the context, 8 B each. */
static int
mlx5cq_vport_list(struct mlx5cq_priv *priv, uint32_t type,
		  const struct rte_ether_addr *macs, uint32_t n)
{
	uint8_t in[MLX5_ST_SZ_BYTES(pmd_modify_nic_vport_context_in) +
		   8 * RTE_MAX(MLX5CQ_MAX_MAC_ADDRS, MLX5CQ_MAX_MC_ADDRS)];
	uint32_t out[MLX5_ST_SZ_DW(pmd_modify_nic_vport_context_out)] = { 0 };
	void *ctx = MLX5_ADDR_OF(pmd_modify_nic_vport_context_in, in,
				 nic_vport_context);
	uint8_t *list = in + MLX5_ST_SZ_BYTES(pmd_modify_nic_vport_context_in);
	size_t inlen = MLX5_ST_SZ_BYTES(pmd_modify_nic_vport_context_in) +
		       8 * n;
	uint32_t i;

	memset(in, 0, sizeof(in));
	mlx5cq_modify_hdr(in);
	MLX5_SET(pmd_modify_nic_vport_context_in, in,
		 field_select.addresses_list, 1);
	MLX5_SET(nic_vport_context, ctx, allowed_list_type, type);
	MLX5_SET(nic_vport_context, ctx, allowed_list_size, n);
	for (i = 0; i < n; i++)
		memcpy(list + 8 * i + 2, macs[i].addr_bytes, RTE_ETHER_ADDR_LEN);
	return mlx5cq_cmd(priv, type == MLX5CQ_LIST_TYPE_UC ?
			  "MODIFY_NIC_VPORT_CONTEXT (unicast list)" :
			  "MODIFY_NIC_VPORT_CONTEXT (multicast list)",
			  in, inlen, out, sizeof(out));
}

/*
 * Unicast list: every non-zero address of the port, primary first; entry
 * idx (when >= 0) is taken as addr instead (NULL: removed), since ethdev
 * updates its table only after the operation succeeded.
 */
int
mlx5cq_vport_mac_list(struct mlx5cq_priv *priv, int idx,
		      const struct rte_ether_addr *addr)
{
	struct rte_ether_addr macs[MLX5CQ_MAX_MAC_ADDRS];
	const struct rte_ether_addr *a = priv->eth_dev->data->mac_addrs;
	uint32_t i, n = 0;
	int ret;

	for (i = 0; i < MLX5CQ_MAX_MAC_ADDRS; i++) {
		const struct rte_ether_addr *m = &a[i];

		if ((int)i == idx)
			m = addr;
		if (m != NULL && !rte_is_zero_ether_addr(m))
			macs[n++] = *m;
	}
	ret = mlx5cq_vport_list(priv, MLX5CQ_LIST_TYPE_UC, macs, n);
	if (ret != 0)
		return ret;
	memcpy(priv->rxf.uc, macs, n * sizeof(macs[0]));
	priv->rxf.uc_n = n;
	return mlx5cq_flow_rx_rules(priv);
}

int
mlx5cq_vport_mc_list(struct mlx5cq_priv *priv)
{
	int ret;

	ret = mlx5cq_vport_list(priv, MLX5CQ_LIST_TYPE_MC, priv->mc_addrs,
				priv->mc_n);
	return ret != 0 ? ret : mlx5cq_flow_rx_rules(priv);
}

/*
 * Largest VLAN list of the vport: 1 << HCA_CAP.log_max_vlan_list, as the
 * kernel's mlx5_modify_nic_vport_vlans() reads it.
 */
int
mlx5cq_vport_vlan_max(struct mlx5cq_priv *priv, uint32_t *max)
{
	uint32_t in[MLX5_ST_SZ_DW(query_hca_cap_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_hca_cap_out)] = { 0 };
	int ret;

	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod,
		 MLX5_GET_HCA_CAP_OP_MOD_GENERAL_DEVICE |
		 MLX5_HCA_CAP_OPMOD_GET_CUR);
	ret = mlx5cq_cmd(priv, "QUERY_HCA_CAP", in, sizeof(in), out,
			 sizeof(out));
	if (ret != 0)
		return ret;
	*max = 1u << MLX5_GET(cmd_hca_cap,
			      MLX5_ADDR_OF(query_hca_cap_out, out, capability),
			      log_max_vlan_list);
	return 0;
}

/*
 * The vport's VLAN list (kernel mlx5_modify_nic_vport_vlans(): entries of
 * struct vlan_layout, the id in bits 11:0 of the entry's first dword).
 */
int
mlx5cq_vport_vlan_list(struct mlx5cq_priv *priv, const uint16_t *vids,
		       uint32_t n)
{
	size_t hdr = MLX5_ST_SZ_BYTES(pmd_modify_nic_vport_context_in);
	uint32_t out[MLX5_ST_SZ_DW(pmd_modify_nic_vport_context_out)] = { 0 };
	uint8_t *in, *list;
	void *ctx;
	uint32_t i;
	int ret;

	in = rte_zmalloc("mlx5cq_vlan_list", hdr + 8 * (size_t)n, 0);
	if (in == NULL)
		return -ENOMEM;
	ctx = MLX5_ADDR_OF(pmd_modify_nic_vport_context_in, in,
			   nic_vport_context);
	list = in + hdr;
	mlx5cq_modify_hdr(in);
	MLX5_SET(pmd_modify_nic_vport_context_in, in,
		 field_select.addresses_list, 1);
	MLX5_SET(nic_vport_context, ctx, allowed_list_type,
		 MLX5CQ_LIST_TYPE_VLAN);
	MLX5_SET(nic_vport_context, ctx, allowed_list_size, n);
	for (i = 0; i < n; i++) {
		list[8 * i + 2] = (uint8_t)((vids[i] >> 8) & 0x0f);
		list[8 * i + 3] = (uint8_t)vids[i];
	}
	ret = mlx5cq_cmd(priv, "MODIFY_NIC_VPORT_CONTEXT (VLAN list)", in,
			 hdr + 8 * (size_t)n, out, sizeof(out));
	rte_free(in);
	if (ret != 0)
		return ret;
	if (n != 0)
		memcpy(priv->rxf.vids, vids, n * sizeof(vids[0]));
	priv->rxf.vlan_n = n;
	return mlx5cq_flow_rx_rules(priv);
}

/* MTU: the hardware MTU counts the L2 header, a VLAN tag and the FCS. */
int
mlx5cq_vport_mtu(struct mlx5cq_priv *priv, uint16_t mtu)
{
	uint32_t in[MLX5_ST_SZ_DW(pmd_modify_nic_vport_context_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(pmd_modify_nic_vport_context_out)] = { 0 };
	void *ctx = MLX5_ADDR_OF(pmd_modify_nic_vport_context_in, in,
				 nic_vport_context);

	mlx5cq_modify_hdr(in);
	MLX5_SET(pmd_modify_nic_vport_context_in, in, field_select.mtu, 1);
	MLX5_SET(nic_vport_context, ctx, mtu, mtu + MLX5CQ_HW_MTU_EXTRA);
	return mlx5cq_cmd(priv, "MODIFY_NIC_VPORT_CONTEXT (mtu)", in,
			  sizeof(in), out, sizeof(out));
}

/* QUERY_NIC_VPORT_CONTEXT of the port's own vport into out. */
static int
mlx5cq_vport_query(struct mlx5cq_priv *priv,
		   uint32_t out[MLX5_ST_SZ_DW(query_nic_vport_context_out)])
{
	uint32_t in[MLX5_ST_SZ_DW(query_nic_vport_context_in)] = { 0 };

	MLX5_SET(query_nic_vport_context_in, in, opcode,
		 MLX5CQ_CMD_QUERY_NIC_VPORT_CONTEXT);
	return mlx5cq_cmd(priv, "QUERY_NIC_VPORT_CONTEXT", in, sizeof(in), out,
			  MLX5_ST_SZ_BYTES(query_nic_vport_context_out));
}

/* Permanent MAC of the vport (QUERY_NIC_VPORT_CONTEXT). */
int
mlx5cq_vport_perm_mac(struct mlx5cq_priv *priv, struct rte_ether_addr *mac)
{
	uint32_t out[MLX5_ST_SZ_DW(query_nic_vport_context_out)] = { 0 };
	uint8_t *p;
	int ret;

	ret = mlx5cq_vport_query(priv, out);
	if (ret != 0)
		return ret;
	p = (uint8_t *)MLX5_ADDR_OF(query_nic_vport_context_out, out,
				    nic_vport_context.permanent_address);
	memcpy(mac->addr_bytes, p + 2, RTE_ETHER_ADDR_LEN);
	return 0;
}

/* The vport's min_wqe_inline_mode (MLX5_INLINE_MODE_*) into *mode. */
int
mlx5cq_vport_min_inline(struct mlx5cq_priv *priv, unsigned int *mode)
{
	uint32_t out[MLX5_ST_SZ_DW(query_nic_vport_context_out)] = { 0 };
	int ret;

	ret = mlx5cq_vport_query(priv, out);
	if (ret != 0)
		return ret;
	*mode = MLX5_GET(query_nic_vport_context_out, out,
			 nic_vport_context.min_wqe_inline_mode);
	return 0;
}
