/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Device capabilities and the general (object-less) firmware commands.
 *
 * QUERY_HCA_CAP (opcode 0x100) is answered for the general device
 * capabilities (op_mod type 0, maximum or current), and for the crypto
 * capabilities (type 0x1a) of a device with caps.crypto
 * (mlx5_emu_crypto_caps.c). The capability set is
 * chosen so that rte_common_mlx5's mlx5_devx_cmd_query_hca_attr() needs
 * nothing else: hca_cap_2, qos, roce, eswitch_manager are 0, and so are
 * crypto and general_obj_types unless caps.crypto, so that function
 * issues exactly one QUERY_HCA_CAP (general, current), plus the crypto
 * one on a crypto device. Other capability types and
 * other opcodes get a firmware error (BAD_PARAM / BAD_OP), never a crash.
 */

#include <errno.h>
#include <pthread.h>
#include <string.h>

#include <mlx5_prm.h>

#include "mlx5_emu_crypto.h"

void
mlx5_emu_caps_default(struct mlx5_emu_caps *caps)
{
	memset(caps, 0, sizeof(*caps));
	caps->log_max_cq_sz = 22;
	caps->log_max_cq = 24;
	caps->num_comp_vectors = 4;
	caps->devx = 1;
	caps->cqe_compression = 1;
	caps->cqe_compression_128 = 1;
	caps->cqe_128_always = 1;
	caps->mini_cqe_resp_stride_index = 1;
	caps->mini_cqe_resp_flow_tag = 1;
	caps->mini_cqe_resp_l3_l4_tag = 1;
	caps->enhanced_cqe_compression = 1;
	caps->cqe_compression_max_num = 64;
	caps->cqe_compression_timeout = 0;
	caps->max_umems = 65536;
	caps->eth_net_offloads = 1;
	caps->eth_inline_mode = MLX5_CAP_INLINE_MODE_NOT_REQUIRED;
	caps->eth_wqe_vlan_insert = 1;
	caps->eth_max_lso = 16;
	caps->crypto = 0;
	caps->crypto_wrapped = 1;
	caps->log_max_num_deks = 12;
	caps->crypto_failed_selftests = 0;
	caps->cq_oi = 1;
	caps->cq_moderation = 1;
	caps->cq_period_start_from_cqe = 1;
	caps->scqe_break_moderation = 1;
	caps->cq_resize = 1;
	caps->device_frequency_khz = 156250;
	caps->ts_format = MLX5_HCA_CAP_TIMESTAMP_FORMAT_FR_RT;
	caps->clock_real_time = 0;
	caps->striding_rq = 1;
	caps->ext_stride_num_range = 1;
	caps->eth_lro = 1;
	caps->eth_lro_min_mss = 0;
}

/*
 * The LRO session timeouts offered, ascending as the kernel expects
 * (en_main.c mlx5e_choose_lro_timeout()); they hold the kernel's default
 * wish, MLX5E_DEFAULT_LRO_TIMEOUT 32 (en.h), and DPDK's default, the
 * first one (mlx5.c: lro_timeout = lro_timer_supported_periods[0]).
 */
const uint32_t emu_lro_periods[EMU_LRO_PERIODS] = { 8, 16, 32, 1024 };

/* Capabilities of devices opened without caps (mlx5_emu_open_caps_set). */
static pthread_mutex_t emu_open_caps_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mlx5_emu_caps emu_open_caps;
static int emu_open_caps_set;

int
mlx5_emu_open_caps_set(const struct mlx5_emu_caps *caps)
{
	int ret = 0;

	if (caps != NULL) {
		ret = emu_caps_check(caps);
		if (ret != 0)
			return -ret;
	}
	pthread_mutex_lock(&emu_open_caps_lock);
	if (caps != NULL)
		emu_open_caps = *caps;
	emu_open_caps_set = caps != NULL;
	pthread_mutex_unlock(&emu_open_caps_lock);
	return 0;
}

void
emu_caps_open_default(struct mlx5_emu_caps *caps)
{
	pthread_mutex_lock(&emu_open_caps_lock);
	if (emu_open_caps_set)
		*caps = emu_open_caps;
	else
		mlx5_emu_caps_default(caps);
	pthread_mutex_unlock(&emu_open_caps_lock);
}

int
emu_caps_check(const struct mlx5_emu_caps *caps)
{
	/* Field widths of cmd_hca_cap and cqc (mlx5_prm.h). */
	if (caps->num_comp_vectors == 0 ||
	    caps->num_comp_vectors > EMU_MAX_VECTORS) {
		EMU_LOG(ERR, "caps: num_comp_vectors %u not in 1..%u",
			caps->num_comp_vectors, EMU_MAX_VECTORS);
		return emu_ret_errno(EINVAL);
	}
	if (caps->log_max_cq_sz > 31 || caps->log_max_cq > 24) {
		EMU_LOG(ERR, "caps: log_max_cq_sz %u (max 31) or log_max_cq %u"
			" (max 24) out of range", caps->log_max_cq_sz,
			caps->log_max_cq);
		return emu_ret_errno(EINVAL);
	}
	if (caps->eth_inline_mode > MLX5_CAP_INLINE_MODE_NOT_REQUIRED) {
		EMU_LOG(ERR, "caps: eth_inline_mode %u not in 0..%u (L2, "
			"vport context, not required)", caps->eth_inline_mode,
			MLX5_CAP_INLINE_MODE_NOT_REQUIRED);
		return emu_ret_errno(EINVAL);
	}
	if (caps->eth_wqe_vlan_insert > 1) {
		EMU_LOG(ERR, "caps: eth_wqe_vlan_insert %u (a 1-bit field)",
			caps->eth_wqe_vlan_insert);
		return emu_ret_errno(EINVAL);
	}
	if (caps->device_frequency_khz == 0 ||
	    caps->device_frequency_khz > 4000000) {
		EMU_LOG(ERR, "caps: device_frequency_khz %u not in "
			"1..4000000", caps->device_frequency_khz);
		return emu_ret_errno(EINVAL);
	}
	if (caps->ts_format > MLX5_HCA_CAP_TIMESTAMP_FORMAT_FR_RT ||
	    caps->clock_real_time > 1 ||
	    (caps->clock_real_time &&
	     caps->ts_format == MLX5_HCA_CAP_TIMESTAMP_FORMAT_FR) ||
	    (!caps->clock_real_time &&
	     caps->ts_format == MLX5_HCA_CAP_TIMESTAMP_FORMAT_RT)) {
		EMU_LOG(ERR, "caps: ts_format %u (0..2) and clock_real_time %u"
			" (0..1) disagree: the default clock must be one the "
			"format offers", caps->ts_format,
			caps->clock_real_time);
		return emu_ret_errno(EINVAL);
	}
	if (caps->eth_max_lso > 18) {
		EMU_LOG(ERR, "caps: eth_max_lso %u (0: no LSO; at most 18, "
			"256 KiB packets)", caps->eth_max_lso);
		return emu_ret_errno(EINVAL);
	}
	if (caps->striding_rq > 1 || caps->ext_stride_num_range > 1) {
		EMU_LOG(ERR, "caps: striding_rq %u or ext_stride_num_range %u "
			"(1-bit fields)", caps->striding_rq,
			caps->ext_stride_num_range);
		return emu_ret_errno(EINVAL);
	}
	if (caps->scqe_break_moderation > 1) {
		EMU_LOG(ERR, "caps: scqe_break_moderation %u (1-bit field)",
			caps->scqe_break_moderation);
		return emu_ret_errno(EINVAL);
	}
	if (caps->cq_resize > 1) {
		EMU_LOG(ERR, "caps: cq_resize %u (1-bit field)",
			caps->cq_resize);
		return emu_ret_errno(EINVAL);
	}
	if (caps->eth_lro > 1) {
		EMU_LOG(ERR, "caps: eth_lro %u (1-bit field)", caps->eth_lro);
		return emu_ret_errno(EINVAL);
	}
	if (caps->log_max_num_deks > 24) {
		EMU_LOG(ERR, "caps: log_max_num_deks %u (max 24: DEK numbers "
			"are 24 bits)", caps->log_max_num_deks);
		return emu_ret_errno(EINVAL);
	}
	return 0;
}

/* The general device capability layout (struct mlx5_ifc_cmd_hca_cap). */
static void
emu_fill_general_caps(const struct emu_dev *dev, void *hcattr)
{
	const struct mlx5_emu_caps *c = &dev->caps;
	unsigned int log_eqs = 0;

	while ((1u << log_eqs) < EMU_EQN_BASE + (unsigned int)c->num_comp_vectors)
		log_eqs++;
	MLX5_SET(cmd_hca_cap, hcattr, vhca_id, dev->vhca_id);
	MLX5_SET(cmd_hca_cap, hcattr, log_max_cq_sz, c->log_max_cq_sz);
	MLX5_SET(cmd_hca_cap, hcattr, log_max_cq, c->log_max_cq);
	MLX5_SET(cmd_hca_cap, hcattr, log_max_eq_sz, 22);
	MLX5_SET(cmd_hca_cap, hcattr, log_max_eq, log_eqs);
	MLX5_SET(cmd_hca_cap, hcattr, max_num_eqs,
		 EMU_EQN_BASE + c->num_comp_vectors);
	MLX5_SET(cmd_hca_cap, hcattr, log_max_pd, 17);
	/* QPs, their WQEs and memory keys as a ConnectX-5 reports them (the
	 * verbs attributes follow from these: mlx5_emu_dev.c).
	 */
	MLX5_SET(cmd_hca_cap, hcattr, log_max_qp, EMU_LOG_MAX_QP);
	MLX5_SET(cmd_hca_cap, hcattr, log_max_vlan_list, EMU_LOG_MAX_VLAN_LIST);
	MLX5_SET(cmd_hca_cap, hcattr, log_max_qp_sz, EMU_LOG_MAX_QP_SZ);
	MLX5_SET(cmd_hca_cap, hcattr, max_wqe_sz_sq, EMU_MAX_WQE_SZ_SQ);
	MLX5_SET(cmd_hca_cap, hcattr, max_wqe_sz_rq, EMU_MAX_WQE_SZ_RQ);
	MLX5_SET(cmd_hca_cap, hcattr, log_max_mkey, EMU_LOG_MAX_MKEY);
	MLX5_SET(cmd_hca_cap, hcattr, log_max_mrw_sz, 64);
	MLX5_SET(cmd_hca_cap, hcattr, cqe_version, 1);
	MLX5_SET(cmd_hca_cap, hcattr, cq_oi, c->cq_oi);
	MLX5_SET(cmd_hca_cap, hcattr, cq_moderation, c->cq_moderation);
	MLX5_SET(cmd_hca_cap, hcattr, cq_period_start_from_cqe,
		 c->cq_period_start_from_cqe);
	MLX5_SET(cmd_hca_cap, hcattr, cq_resize, c->cq_resize);
	MLX5_SET(cmd_hca_cap, hcattr, scqe_break_moderation,
		 c->scqe_break_moderation);
	MLX5_SET(cmd_hca_cap, hcattr, uar_4k, 1);
	MLX5_SET(cmd_hca_cap, hcattr, log_pg_sz, EMU_PAGE_SHIFT);
	MLX5_SET(cmd_hca_cap, hcattr, log_bf_reg_size, 9);
	MLX5_SET(cmd_hca_cap, hcattr, num_of_uars_per_page, 1);
	MLX5_SET(cmd_hca_cap, hcattr, port_type, 1); /* Ethernet. */
	MLX5_SET(cmd_hca_cap, hcattr, num_ports, 1);
	MLX5_SET(cmd_hca_cap, hcattr, device_frequency_mhz,
		 c->device_frequency_khz / 1000);
	MLX5_SET(cmd_hca_cap, hcattr, device_frequency_khz,
		 c->device_frequency_khz);
	MLX5_SET(cmd_hca_cap, hcattr, rq_ts_format, c->ts_format);
	MLX5_SET(cmd_hca_cap, hcattr, sq_ts_format, c->ts_format);
	MLX5_SET(cmd_hca_cap, hcattr, access_register_user, 1);
	/* Network objects (mlx5_emu_net.h). */
	MLX5_SET(cmd_hca_cap, hcattr, eth_net_offloads, c->eth_net_offloads);
	MLX5_SET(cmd_hca_cap, hcattr, log_max_transport_domain, 16);
	MLX5_SET(cmd_hca_cap, hcattr, log_max_rq, EMU_LOG_MAX_RQ);
	MLX5_SET(cmd_hca_cap, hcattr, log_max_sq, 16);
	MLX5_SET(cmd_hca_cap, hcattr, log_max_tir, 16);
	MLX5_SET(cmd_hca_cap, hcattr, log_max_tis, 16);
	MLX5_SET(cmd_hca_cap, hcattr, log_max_rqt, EMU_LOG_MAX_RQT);
	MLX5_SET(cmd_hca_cap, hcattr, log_max_rqt_size, EMU_LOG_MAX_RQT_SIZE);
	MLX5_SET(cmd_hca_cap, hcattr, log_max_wq_sz, 16);
	/*
	 * Striding RQs (mlx5_emu_rq.c). hca_cap_2 stays 0, so
	 * log_min_stride_wqe_sz (cmd_hca_cap_2) is not reported: DPDK then
	 * takes MLX5_MPRQ_LOG_MIN_STRIDE_WQE_SIZE, 14 (mlx5_devx_cmds.c
	 * mlx5_devx_cmd_query_hca_attr), the minimum the model enforces.
	 */
	MLX5_SET(cmd_hca_cap, hcattr, striding_rq, c->striding_rq);
	MLX5_SET(cmd_hca_cap, hcattr, ext_stride_num_range,
		 c->ext_stride_num_range);
	MLX5_SET(cmd_hca_cap, hcattr, cqe_compression, c->cqe_compression);
	MLX5_SET(cmd_hca_cap, hcattr, cqe_compression_128,
		 c->cqe_compression_128);
	MLX5_SET(cmd_hca_cap, hcattr, cqe_128_always, c->cqe_128_always);
	MLX5_SET(cmd_hca_cap, hcattr, mini_cqe_resp_stride_index,
		 c->mini_cqe_resp_stride_index);
	MLX5_SET(cmd_hca_cap, hcattr, mini_cqe_resp_flow_tag,
		 c->mini_cqe_resp_flow_tag);
	MLX5_SET(cmd_hca_cap, hcattr, mini_cqe_resp_l3_l4_tag,
		 c->mini_cqe_resp_l3_l4_tag);
	MLX5_SET(cmd_hca_cap, hcattr, enhanced_cqe_compression,
		 c->enhanced_cqe_compression);
	MLX5_SET(cmd_hca_cap, hcattr, cqe_compression_max_num,
		 c->cqe_compression_max_num);
	MLX5_SET(cmd_hca_cap, hcattr, cqe_compression_timeout,
		 c->cqe_compression_timeout);
	/* Crypto (mlx5_emu_crypto_caps.c); nothing without caps.crypto. */
	emu_crypto_fill_general_caps(dev, hcattr);
}

/* Ethernet offloads (per_protocol_networking_offload_caps). */
static void
emu_fill_eth_caps(const struct emu_dev *dev, void *hcattr)
{
#define ETH_SET(fld, v) \
	MLX5_SET(per_protocol_networking_offload_caps, hcattr, fld, v)
	ETH_SET(csum_cap, 1);
	ETH_SET(vlan_cap, 1);
	ETH_SET(wqe_vlan_insert, dev->caps.eth_wqe_vlan_insert);
	ETH_SET(wqe_inline_mode, dev->caps.eth_inline_mode);
	ETH_SET(rss_ind_tbl_cap, 11);
	ETH_SET(max_lso_cap, dev->caps.eth_max_lso);
	/*
	 * LRO (mlx5_emu_rq.c): DPDK mlx5_devx_cmd_query_hca_attr() reads
	 * lro_cap, lro_max_msg_sz_mode, lro_timer_supported_periods[] and
	 * lro_min_mss_size; net/mlx5 allows LRO on lro_cap (mlx5.c). Mode 0
	 * (MLX5_LRO_MAX_MSG_SIZE_START_FROM_L4): lro_max_msg_sz counts from
	 * the TCP header. The periods ascend (kernel en_main.c
	 * mlx5e_choose_lro_timeout() picks the first one >= its wish).
	 */
	if (dev->caps.eth_lro) {
		unsigned int i;

		ETH_SET(lro_cap, 1);
		ETH_SET(lro_psh_flag, 1);
		ETH_SET(lro_max_msg_sz_mode,
			MLX5_LRO_MAX_MSG_SIZE_START_FROM_L4);
		ETH_SET(lro_min_mss_size, dev->caps.eth_lro_min_mss);
		for (i = 0; i < EMU_LRO_PERIODS; i++)
			ETH_SET(lro_timer_supported_periods[i],
				emu_lro_periods[i]);
	}
#undef ETH_SET
}

static int
emu_query_hca_cap(struct emu_dev *dev, const void *in, size_t inlen,
		  void *out, size_t outlen)
{
	size_t need_in = MLX5_ST_SZ_BYTES(query_hca_cap_in);
	size_t need_out = MLX5_BYTE_OFF(query_hca_cap_out, capability) +
			  MLX5_ST_SZ_BYTES(cmd_hca_cap);
	uint32_t op_mod, type;
	void *hcattr;

	if (inlen < need_in)
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_INP_LEN_ERR,
				    MLX5_EMU_SYND_INLEN);
	if (outlen < need_out)
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_OUTP_LEN_ERR,
				    MLX5_EMU_SYND_OUTLEN);
	/* mlx5_prm.h query_hca_cap_in: reserved_at_20, reserved_at_40. */
	if (EMU_GET(query_hca_cap_in, in, reserved_at_20) != 0 ||
	    !EMU_WIDE_FIELD_ZERO(query_hca_cap_in, in, reserved_at_40))
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_HDR_RESERVED);
	op_mod = EMU_GET(query_hca_cap_in, in, op_mod);
	type = op_mod >> 1; /* Bit 0: current (1) or maximum (0). */
	if (dev->caps.eth_net_offloads &&
	    (type == (MLX5_GET_HCA_CAP_OP_MOD_ETHERNET_OFFLOAD_CAPS >> 1) ||
	     type == (MLX5_GET_HCA_CAP_OP_MOD_NIC_FLOW_TABLE >> 1))) {
		memset(out, 0, outlen);
		hcattr = MLX5_ADDR_OF(query_hca_cap_out, out, capability);
		/* NIC flow table: no flow tables (all 0). Ethernet: the
		 * offloads the network model implements.
		 */
		if (type == (MLX5_GET_HCA_CAP_OP_MOD_ETHERNET_OFFLOAD_CAPS >> 1))
			emu_fill_eth_caps(dev, hcattr);
		return 0;
	}
	if (dev->caps.crypto &&
	    type == (MLX5_GET_HCA_CAP_OP_MOD_CRYPTO >> 1)) {
		memset(out, 0, outlen);
		emu_crypto_fill_caps(dev, MLX5_ADDR_OF(query_hca_cap_out, out,
						       capability));
		return 0;
	}
	/* mlx5_prm.h MLX5_GET_HCA_CAP_OP_MOD_*: the types offered are the
	 * model's own limit.
	 */
	if (type != (MLX5_GET_HCA_CAP_OP_MOD_GENERAL_DEVICE >> 1)) {
		EMU_LOG(DEBUG, "%s: QUERY_HCA_CAP type 0x%x not supported",
			dev->name, type);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_BAD_OP_MOD);
	}
	memset(out, 0, outlen);
	hcattr = MLX5_ADDR_OF(query_hca_cap_out, out, capability);
	/* Maximum and current values are the same on this device. */
	emu_fill_general_caps(dev, hcattr);
	return 0;
}

int
emu_general_cmd(struct emu_dev *dev, const void *in, size_t inlen,
		void *out, size_t outlen)
{
	uint16_t opcode;
	int ret;

	if (!dev->caps.devx)
		return emu_ret_errno(EOPNOTSUPP);
	/* The model's own limit: opcode, status and syndrome must fit. */
	if (in == NULL || out == NULL || inlen < 4 || outlen < 8)
		return emu_ret_errno(EINVAL);
	emu_cmd_begin(dev, in, inlen);
	opcode = EMU_GET(query_hca_cap_in, in, opcode);
	switch (opcode) {
	case MLX5_CMD_OP_QUERY_HCA_CAP:
		return emu_query_hca_cap(dev, in, inlen, out, outlen);
	case MLX5_CMD_OP_ACCESS_REGISTER_USER:
		return emu_clock_access_register(dev, in, inlen, out, outlen);
	default:
		/* Vport commands of the network model; 1: not those. */
		ret = emu_net_general_cmd(dev, opcode, in, inlen, out, outlen);
		if (ret != 1)
			return ret;
		EMU_LOG(DEBUG, "%s: general command 0x%x not supported",
			dev->name, opcode);
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_BAD_OP_ERR,
				    MLX5_EMU_SYND_BAD_OPCODE);
	}
}
