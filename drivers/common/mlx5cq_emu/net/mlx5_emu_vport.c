/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The NIC vport of a device's port: QUERY_VPORT_STATE 0x750,
 * QUERY_NIC_VPORT_CONTEXT 0x754, MODIFY_NIC_VPORT_CONTEXT 0x755 (mailboxes
 * of kernel include/linux/mlx5/mlx5_ifc.h; the context layout is
 * mlx5_prm.h's nic_vport_context followed by the allowed address list,
 * 64 bits per entry, MAC in the low 48) and the receive filter.
 *
 * Only the own vport exists (other_vport must be 0). MODIFY acts on the
 * field_select bits mtu, promisc (promisc_uc, promisc_mc, promisc_all),
 * permanent_address and addresses_list (allowed_list_type 0 unicast or
 * 1 multicast, up to EMU_MAX_MACS entries, or 2 VLAN, up to
 * 1 << log_max_vlan_list ids in vlan_layout entries as the kernel's
 * mlx5_modify_nic_vport_vlans() writes them; each replaces that list);
 * the other bits are accepted and have no effect in the model.
 *
 * MTU: the vport mtu is the hardware MTU as the kernel's mlx5e programs it
 * (MLX5E_SW2HW_MTU: software MTU + Ethernet header 14 + VLAN 4 + FCS 4);
 * a frame (without FCS) of more than mtu - 4 bytes is dropped. Default
 * 1522 (software MTU 1500). Range 68 .. EMU_MAX_FRAME + 4.
 *
 * Filter: promisc_all accepts everything; with a VLAN list, a tagged
 * frame (802.1Q) whose id is not listed is refused, untagged frames pass
 * (on a card the list feeds the e-switch, and mlx5e and net/mlx5 filter
 * VLANs with steering rules that pass untagged frames and the listed ids;
 * until the model steers, its vport list plays that role); broadcast is
 * always accepted;
 * multicast with promisc_mc or when in the multicast list; unicast with
 * promisc_uc, when it is the permanent address, or in the unicast list.
 * Vport state: the port's link (mlx5_emu_wire.c: on a wire, cable in,
 * both ends' admin status up); admin_state: the port's own admin status.
 * max_tx_speed (bits
 * 0x60..0x6f of query_vport_state_out, in units of 100 Mb/s as the
 * kernel's MLX5_MAX_TX_SPEED_UNIT) is the port's link speed while UP, 0
 * while DOWN (the kernel reads a DOWN vport's speed as 0 anyway). The speed
 * is a figure the port reports (default MLX5_EMU_PORT_SPEED_DEFAULT, set
 * with mlx5_emu_port_speed_set()); the model does not pace traffic to it.
 */

#include <errno.h>
#include <string.h>

#include <mlx5_prm.h>

#include "mlx5_emu_net.h"

struct mlx5_ifc_emu_query_vport_state_in_bits {
	u8 opcode[0x10];
	u8 reserved_at_10[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 other_vport[0x1];
	u8 reserved_at_41[0xf];
	u8 vport_number[0x10];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_emu_query_vport_state_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x20];
	u8 max_tx_speed[0x10];
	u8 reserved_at_70[0x8];
	u8 admin_state[0x4];
	u8 state[0x4];
};

struct mlx5_ifc_emu_modify_nic_vport_context_in_bits {
	u8 opcode[0x10];
	u8 reserved_at_10[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 other_vport[0x1];
	u8 reserved_at_41[0xf];
	u8 vport_number[0x10];
	u8 reserved_at_60[0x12];
	u8 affiliation[0x1];
	u8 reserved_at_73[0x1];
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
	u8 reserved_at_7f[0x1];
	u8 reserved_at_80[0x780];
	struct mlx5_ifc_nic_vport_context_bits nic_vport_context;
};

#define EMU_VPORT_STATE_DOWN 0
#define EMU_VPORT_STATE_UP 1
#define EMU_LIST_UC 0
#define EMU_LIST_MC 1
#define EMU_LIST_VLAN 2 /* MLX5_NVPRT_LIST_TYPE_VLAN (kernel vport.c). */
#define EMU_MIN_HW_MTU 68

void
emu_vport_init(struct emu_vport *vp, const uint8_t mac[6])
{
	memset(vp, 0, sizeof(*vp));
	memcpy(vp->mac, mac, 6);
	vp->mtu = EMU_DEFAULT_HW_MTU;
	vp->speed = MLX5_EMU_PORT_SPEED_DEFAULT;
}

int
mlx5_emu_port_speed_set(struct ibv_context *ctx, uint32_t speed_mbps)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);
	struct emu_net *net;

	if (speed_mbps == 0)
		speed_mbps = MLX5_EMU_PORT_SPEED_DEFAULT;
	if (dev == NULL || speed_mbps > MLX5_EMU_PORT_SPEED_MAX ||
	    speed_mbps % MLX5_EMU_PORT_SPEED_UNIT != 0) {
		EMU_LOG(ERR, "port_speed_set: foreign context or speed %u Mb/s "
			"not a multiple of %u up to %u", speed_mbps,
			MLX5_EMU_PORT_SPEED_UNIT, MLX5_EMU_PORT_SPEED_MAX);
		return -EINVAL;
	}
	net = emu_net_enter(dev);
	if (net == NULL)
		return -ENOMEM;
	net->vport.speed = speed_mbps;
	emu_net_leave(dev);
	EMU_LOG(INFO, "%s: port speed %u Mb/s", dev->name, speed_mbps);
	return 0;
}

int
mlx5_emu_port_mtu_set(struct ibv_context *ctx, uint16_t mtu)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);
	/* The kernel's MLX5E_SW2HW_MTU: + Ethernet header, VLAN, FCS. */
	uint32_t hw = (uint32_t)mtu + 14 + 4 + 4;
	struct emu_net *net;

	if (dev == NULL || hw < EMU_MIN_HW_MTU || hw > EMU_MAX_FRAME + 4) {
		EMU_LOG(ERR, "port_mtu_set: foreign context or hardware MTU %u"
			" not in %u..%u", hw, EMU_MIN_HW_MTU,
			EMU_MAX_FRAME + 4);
		return -EINVAL;
	}
	net = emu_net_enter(dev);
	if (net == NULL)
		return -ENOMEM;
	net->vport.mtu = hw;
	emu_net_leave(dev);
	EMU_LOG(INFO, "%s: port MTU %u (hardware %u), set by the host",
		dev->name, mtu, hw);
	return 0;
}

static int
emu_mac_in(const uint8_t (*list)[6], uint32_t n, const uint8_t *mac)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (memcmp(list[i], mac, 6) == 0)
			return 1;
	return 0;
}

/* VLAN list: untagged frames pass; a tagged one when its id is listed. */
static int
emu_vlan_accept(const struct emu_vport *vp, const uint8_t *frame,
		uint32_t len)
{
	uint16_t vid;

	if (vp->n_vlan == 0 || len < 18 || frame[12] != 0x81 ||
	    frame[13] != 0x00)
		return 1;
	vid = (uint16_t)((frame[14] << 8 | frame[15]) & 0xfff);
	return !!(vp->vlan_bits[vid / 64] & (1ull << (vid % 64)));
}

int
emu_vport_accept(const struct emu_vport *vp, const uint8_t *frame,
		 uint32_t len)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	const uint8_t *dst = frame;

	if (vp->promisc_all)
		return 1;
	if (!emu_vlan_accept(vp, frame, len))
		return 0;
	if (memcmp(dst, bcast, 6) == 0)
		return 1;
	if (dst[0] & 1)
		return vp->promisc_mc || emu_mac_in(vp->mc, vp->n_mc, dst);
	return vp->promisc_uc || memcmp(dst, vp->mac, 6) == 0 ||
	       emu_mac_in(vp->uc, vp->n_uc, dst);
}

static int
emu_vport_lens(struct emu_dev *dev, const char *what, const void *in,
	       size_t inlen, size_t need_in, void *out, size_t outlen,
	       size_t need_out)
{
	int ret = emu_net_check_lens(dev, what, inlen, need_in, out, outlen,
				     need_out);

	if (ret != 0)
		return ret;
	/* other_vport (bit 0x40) and vport_number: only the own vport. */
	if ((((const uint8_t *)in)[8] & 0x80) != 0 ||
	    ((const uint8_t *)in)[10] != 0 || ((const uint8_t *)in)[11] != 0) {
		EMU_LOG(ERR, "%s: %s: other vports do not exist", dev->name,
			what);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_VPORT);
	}
	/* op_mod 0: the NIC vport (kernel
	 * MLX5_VPORT_STATE_OP_MOD_VNIC_VPORT).
	 */
	if (EMU_GET(emu_query_vport_state_in, in, op_mod) != 0) {
		EMU_LOG(ERR, "%s: %s: op_mod %u", dev->name, what,
			EMU_GET(emu_query_vport_state_in, in, op_mod));
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_BAD_OP_MOD);
	}
	return 0;
}

static int
emu_query_vport_state(struct emu_dev *dev, const void *in, size_t inlen,
		      void *out, size_t outlen)
{
	uint32_t speed;
	int ret, up, admin;

	ret = emu_vport_lens(dev, "QUERY_VPORT_STATE", in, inlen,
			     MLX5_ST_SZ_BYTES(emu_query_vport_state_in), out,
			     outlen,
			     MLX5_ST_SZ_BYTES(emu_query_vport_state_out));
	if (ret != 0)
		return ret;
	emu_net_lock();
	up = dev->net->oper_up;
	admin = !dev->net->vport.admin_down;
	speed = dev->net->vport.speed;
	emu_net_unlock();
	emu_cmd_ok(out, outlen);
	MLX5_SET(emu_query_vport_state_out, out, max_tx_speed,
		 up ? speed / MLX5_EMU_PORT_SPEED_UNIT : 0);
	MLX5_SET(emu_query_vport_state_out, out, admin_state,
		 admin ? EMU_VPORT_STATE_UP : EMU_VPORT_STATE_DOWN);
	MLX5_SET(emu_query_vport_state_out, out, state,
		 up ? EMU_VPORT_STATE_UP : EMU_VPORT_STATE_DOWN);
	return 0;
}

static void
emu_put_mac_entry(void *entry, const uint8_t mac[6])
{
	memset(entry, 0, 2);
	memcpy(RTE_PTR_ADD(entry, 2), mac, 6);
}

static int
emu_query_nic_vport_context(struct emu_dev *dev, const void *in,
			    size_t inlen, void *out, size_t outlen)
{
	const size_t hdr = MLX5_ST_SZ_BYTES(query_nic_vport_context_out);
	struct emu_vport *vp = &dev->net->vport;
	unsigned int type, n, i;
	void *ctx;
	int ret;

	ret = emu_vport_lens(dev, "QUERY_NIC_VPORT_CONTEXT", in, inlen,
			     MLX5_ST_SZ_BYTES(query_nic_vport_context_in), out,
			     outlen, hdr);
	if (ret != 0)
		return ret;
	type = EMU_GET(query_nic_vport_context_in, in, allowed_list_type);
	/* Kernel MLX5_NVPRT_LIST_TYPE_UC, _MC, _VLAN. */
	if (type != EMU_LIST_UC && type != EMU_LIST_MC &&
	    type != EMU_LIST_VLAN) {
		EMU_LOG(ERR, "%s: QUERY_NIC_VPORT_CONTEXT: list type %u",
			dev->name, type);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_MAC_LIST);
	}
	emu_cmd_ok(out, outlen);
	ctx = MLX5_ADDR_OF(query_nic_vport_context_out, out,
			   nic_vport_context);
	emu_net_lock();
	/* MLX5_INLINE_MODE_* (1: L2), not the caps' MLX5_CAP_INLINE_*. */
	MLX5_SET(nic_vport_context, ctx, min_wqe_inline_mode,
		 MLX5_INLINE_MODE_L2);
	MLX5_SET(nic_vport_context, ctx, mtu, vp->mtu);
	MLX5_SET(nic_vport_context, ctx, promisc_uc, vp->promisc_uc);
	MLX5_SET(nic_vport_context, ctx, promisc_mc, vp->promisc_mc);
	MLX5_SET(nic_vport_context, ctx, promisc_all, vp->promisc_all);
	MLX5_SET(nic_vport_context, ctx, allowed_list_type, type);
	n = type == EMU_LIST_UC ? vp->n_uc : type == EMU_LIST_MC ? vp->n_mc :
	    vp->n_vlan;
	MLX5_SET(nic_vport_context, ctx, allowed_list_size, n);
	emu_put_mac_entry(MLX5_ADDR_OF(nic_vport_context, ctx,
				       permanent_address), vp->mac);
	/* The entries that fit in the output mailbox. */
	for (i = 0; i < n && hdr + 8 * (i + 1) <= outlen; i++) {
		uint8_t *e = (uint8_t *)out + hdr + 8 * i;

		if (type == EMU_LIST_VLAN) {
			/* vlan_layout: the id in bits 11:0 of dword 0. */
			memset(e, 0, 8);
			e[2] = (uint8_t)(vp->vlan[i] >> 8);
			e[3] = (uint8_t)vp->vlan[i];
			continue;
		}
		emu_put_mac_entry(e, type == EMU_LIST_UC ? vp->uc[i] :
				  vp->mc[i]);
	}
	emu_net_unlock();
	return 0;
}

static int
emu_modify_nic_vport_context(struct emu_dev *dev, const void *in,
			     size_t inlen, void *out, size_t outlen)
{
	const size_t hdr = MLX5_ST_SZ_BYTES(emu_modify_nic_vport_context_in);
	const void *ctx = EMU_ADDR_OF(emu_modify_nic_vport_context_in, in,
				       nic_vport_context);
	struct emu_vport *vp = &dev->net->vport;
	unsigned int mtu = 0, type = 0, n = 0, i;
	const uint8_t *mac = NULL;
	int ret;

#define SEL(fld) EMU_GET(emu_modify_nic_vport_context_in, in, fld)
	ret = emu_vport_lens(dev, "MODIFY_NIC_VPORT_CONTEXT", in, inlen, hdr,
			     out, outlen, 16);
	if (ret != 0)
		return ret;
	if (SEL(mtu)) {
		mtu = EMU_GET(nic_vport_context, ctx, mtu);
		if (mtu < EMU_MIN_HW_MTU || mtu > EMU_MAX_FRAME + 4) {
			EMU_LOG(ERR, "%s: MODIFY_NIC_VPORT_CONTEXT: mtu %u not "
				"in %u..%u", dev->name, mtu, EMU_MIN_HW_MTU,
				EMU_MAX_FRAME + 4);
			return emu_cmd_fail(dev, out, outlen,
					    EMU_CMD_STAT_BAD_PARAM_ERR,
					    MLX5_EMU_SYND_NET_MTU);
		}
	}
	if (SEL(permanent_address)) {
		mac = (const uint8_t *)EMU_ADDR_OF(nic_vport_context, ctx,
						    permanent_address) + 2;
		/* A unicast address (DPDK rte_eth_dev_default_mac_addr_set():
		 * rte_is_valid_assigned_ether_addr()).
		 */
		if (mac[0] & 1) {
			EMU_LOG(ERR, "%s: MODIFY_NIC_VPORT_CONTEXT: permanent "
				"address is multicast", dev->name);
			return emu_cmd_fail(dev, out, outlen,
					    EMU_CMD_STAT_BAD_PARAM_ERR,
					    MLX5_EMU_SYND_NET_MAC_LIST);
		}
	}
	if (SEL(addresses_list)) {
		type = EMU_GET(nic_vport_context, ctx, allowed_list_type);
		n = EMU_GET(nic_vport_context, ctx, allowed_list_size);
		/*
		 * VLAN list: at most 1 << HCA_CAP.log_max_vlan_list ids
		 * (the kernel's mlx5_modify_nic_vport_vlans() refuses more
		 * with ENOSPC before sending; the model's firmware with
		 * BAD_PARAM).
		 */
		if ((type != EMU_LIST_UC && type != EMU_LIST_MC &&
		     type != EMU_LIST_VLAN) ||
		    (type != EMU_LIST_VLAN && n > EMU_MAX_MACS) ||
		    (type == EMU_LIST_VLAN &&
		     n > (1u << EMU_LOG_MAX_VLAN_LIST))) {
			EMU_LOG(ERR, "%s: MODIFY_NIC_VPORT_CONTEXT: list type "
				"%u size %u (max %u MACs, %u VLANs)", dev->name,
				type, n, EMU_MAX_MACS,
				1u << EMU_LOG_MAX_VLAN_LIST);
			return emu_cmd_fail(dev, out, outlen,
					    EMU_CMD_STAT_BAD_PARAM_ERR,
					    MLX5_EMU_SYND_NET_MAC_LIST);
		}
		if (inlen < hdr + 8 * (size_t)n) {
			EMU_LOG(ERR, "%s: MODIFY_NIC_VPORT_CONTEXT: %zu bytes "
				"too short for %u addresses", dev->name, inlen,
				n);
			return emu_cmd_fail(dev, out, outlen,
					    EMU_CMD_STAT_BAD_INP_LEN_ERR,
					    MLX5_EMU_SYND_INLEN);
		}
	}
	emu_net_lock();
	if (SEL(mtu))
		vp->mtu = mtu;
	if (SEL(promisc)) {
		vp->promisc_uc = EMU_GET(nic_vport_context, ctx, promisc_uc);
		vp->promisc_mc = EMU_GET(nic_vport_context, ctx, promisc_mc);
		vp->promisc_all = EMU_GET(nic_vport_context, ctx,
					   promisc_all);
	}
	if (mac != NULL)
		memcpy(vp->mac, mac, 6);
	if (SEL(addresses_list) && type == EMU_LIST_VLAN) {
		/* vlan_layout entries: the id in bits 11:0 of dword 0. */
		memset(vp->vlan_bits, 0, sizeof(vp->vlan_bits));
		for (i = 0; i < n; i++) {
			const uint8_t *e = (const uint8_t *)in + hdr + 8 * i;
			uint16_t vid = (uint16_t)((e[2] << 8 | e[3]) & 0xfff);

			vp->vlan[i] = vid;
			vp->vlan_bits[vid / 64] |= 1ull << (vid % 64);
		}
		vp->n_vlan = n;
	} else if (SEL(addresses_list)) {
		for (i = 0; i < n; i++)
			memcpy(type == EMU_LIST_UC ? vp->uc[i] : vp->mc[i],
			       (const uint8_t *)in + hdr + 8 * i + 2, 6);
		if (type == EMU_LIST_UC)
			vp->n_uc = n;
		else
			vp->n_mc = n;
	}
	emu_net_unlock();
#undef SEL
	emu_cmd_ok(out, outlen);
	return 0;
}

int
emu_vport_cmd(struct emu_dev *dev, uint16_t opcode, const void *in,
	      size_t inlen, void *out, size_t outlen)
{
	switch (opcode) {
	case EMU_CMD_OP_QUERY_VPORT_STATE:
		return emu_query_vport_state(dev, in, inlen, out, outlen);
	case MLX5_CMD_OP_QUERY_NIC_VPORT_CONTEXT:
		return emu_query_nic_vport_context(dev, in, inlen, out,
						   outlen);
	default:
		return emu_modify_nic_vport_context(dev, in, inlen, out,
						    outlen);
	}
}
