/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_query_device": the verbs device attributes of an emulated
 * device (query_device, query_device_ex) are what the kernel's
 * mlx5_ib_query_device() makes of the HCA capabilities the same device
 * reports through QUERY_HCA_CAP. The formulas are written here from the
 * kernel, applied to the capability fields read by name (mlx5_prm.h)
 * from the device's own answer: max_qp 2^log_max_qp, max_qp_wr
 * 2^log_max_qp_sz, max_sge min(max_wqe_sz_rq / 16, (min(max_wqe_sz_sq,
 * 512) - 32) / 16), max_mr 2^log_max_mkey, max_cq 2^log_max_cq, max_cqe
 * 2^log_max_cq_sz - 1, and on an Ethernet port RSS tables
 * 2^log_max_rqt of 2^log_max_rqt_size entries, 2^log_max_rq RQs, IP
 * checksum and C-VLAN stripping from csum_cap and vlan_cap under
 * eth_net_offloads (the checksum also as IBV_DEVICE_RAW_IP_CSUM in
 * device_cap_flags_ex, the flag net/mlx5 reads), TSO of 2^max_lso_cap
 * bytes on raw packet QPs. DPDK's net/mlx5 sizes its RQTs from
 * rss_caps.max_rwq_indirection_table_size: 0 made it ask for an RQT of
 * size 0.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include <infiniband/verbs.h>

#include <rte_common.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>

#include <mlx5_emu.h>

#include "test.h"

static struct ibv_context *q_ctx;

static int
qd_setup(void)
{
	if (mlx5_emu_install() != 0)
		return -1;
	q_ctx = mlx5_emu_open("qdev0", NULL);
	return q_ctx == NULL ? -1 : 0;
}

static void
qd_teardown(void)
{
	if (q_ctx != NULL)
		mlx5_emu_close(q_ctx);
	q_ctx = NULL;
}

/* QUERY_HCA_CAP of one capability type (MLX5_GET_HCA_CAP_OP_MOD_*). */
static int
hca_cap(uint16_t type, uint32_t *out, size_t outlen)
{
	uint32_t in[MLX5_ST_SZ_DW(query_hca_cap_in)] = { 0 };
	int ret;

	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod, type | 1); /* current */
	ret = mlx5_glue->devx_general_cmd(q_ctx, in, sizeof(in), out, outlen);
	TEST_ASSERT_SUCCESS(ret, "QUERY_HCA_CAP type %u: %d", type, ret);
	TEST_ASSERT_EQUAL(MLX5_GET(query_hca_cap_out, out, status), 0,
			  "status");
	return TEST_SUCCESS;
}

static int
test_query_device_from_caps(void)
{
	uint32_t gen[MLX5_ST_SZ_DW(query_hca_cap_out)] = { 0 };
	uint32_t eth[MLX5_ST_SZ_DW(query_hca_cap_out)] = { 0 };
	struct ibv_device_attr_ex ex;
	struct ibv_device_attr a;
	uint32_t rq_sg, sq_sg, raw = 0, tso = 0;
	uint64_t flags_ex = 0;
	void *g, *e;

	TEST_CHECK(hca_cap(MLX5_GET_HCA_CAP_OP_MOD_GENERAL_DEVICE, gen,
			   sizeof(gen)));
	TEST_CHECK(hca_cap(MLX5_GET_HCA_CAP_OP_MOD_ETHERNET_OFFLOAD_CAPS, eth,
			   sizeof(eth)));
	g = MLX5_ADDR_OF(query_hca_cap_out, gen, capability);
	e = MLX5_ADDR_OF(query_hca_cap_out, eth, capability);
	TEST_ASSERT_SUCCESS(mlx5_glue->query_device(q_ctx, &a), "query");
	TEST_ASSERT_EQUAL(a.max_qp, 1 << MLX5_GET(cmd_hca_cap, g, log_max_qp),
			  "max_qp %d", a.max_qp);
	TEST_ASSERT_EQUAL(a.max_qp_wr,
			  1 << MLX5_GET(cmd_hca_cap, g, log_max_qp_sz),
			  "max_qp_wr %d", a.max_qp_wr);
	rq_sg = MLX5_GET(cmd_hca_cap, g, max_wqe_sz_rq) / 16;
	sq_sg = (RTE_MIN(MLX5_GET(cmd_hca_cap, g, max_wqe_sz_sq), 512u) - 32) /
		16;
	TEST_ASSERT_EQUAL((uint32_t)a.max_sge, RTE_MIN(rq_sg, sq_sg),
			  "max_sge %d", a.max_sge);
	TEST_ASSERT_EQUAL(a.max_mr, 1 << MLX5_GET(cmd_hca_cap, g, log_max_mkey),
			  "max_mr %d", a.max_mr);
	TEST_ASSERT_EQUAL(a.max_cq, 1 << MLX5_GET(cmd_hca_cap, g, log_max_cq),
			  "max_cq");
	TEST_ASSERT_EQUAL(a.max_cqe,
			  (1 << MLX5_GET(cmd_hca_cap, g, log_max_cq_sz)) - 1,
			  "max_cqe");
	/* A ConnectX-5's figures (ibv_devinfo -v on one): 262144 QPs of
	 * 32768 WQEs, 30 SGEs.
	 */
	TEST_ASSERT(a.max_qp == 262144 && a.max_qp_wr == 32768 &&
		    a.max_sge == 30, "qp %d wr %d sge %d", a.max_qp,
		    a.max_qp_wr, a.max_sge);
	TEST_ASSERT_SUCCESS(mlx5_glue->query_device_ex(q_ctx, NULL, &ex),
			    "query_ex");
	TEST_ASSERT(memcmp(&ex.orig_attr, &a, sizeof(a)) == 0,
		    "query_device_ex's orig_attr is query_device's");
	TEST_ASSERT_EQUAL(ex.rss_caps.max_rwq_indirection_tables,
			  1u << MLX5_GET(cmd_hca_cap, g, log_max_rqt),
			  "RSS tables");
	TEST_ASSERT_EQUAL(ex.rss_caps.max_rwq_indirection_table_size,
			  1u << MLX5_GET(cmd_hca_cap, g, log_max_rqt_size),
			  "RSS table size %u",
			  ex.rss_caps.max_rwq_indirection_table_size);
	TEST_ASSERT_EQUAL(ex.rss_caps.supported_qpts, 1u << IBV_QPT_RAW_PACKET,
			  "RSS QP types");
	TEST_ASSERT_EQUAL(ex.max_wq_type_rq,
			  1u << MLX5_GET(cmd_hca_cap, g, log_max_rq), "RQs");
	if (MLX5_GET(cmd_hca_cap, g, eth_net_offloads)) {
		if (MLX5_GET(per_protocol_networking_offload_caps, e,
			     csum_cap)) {
			raw |= IBV_RAW_PACKET_CAP_IP_CSUM;
			flags_ex |= IBV_DEVICE_RAW_IP_CSUM;
		}
		if (MLX5_GET(per_protocol_networking_offload_caps, e,
			     max_lso_cap))
			tso = 1u << MLX5_GET(per_protocol_networking_offload_caps,
					     e, max_lso_cap);
		if (MLX5_GET(per_protocol_networking_offload_caps, e, vlan_cap))
			raw |= IBV_RAW_PACKET_CAP_CVLAN_STRIPPING;
	}
	TEST_ASSERT_EQUAL(ex.raw_packet_caps, raw, "raw packet caps %#x",
			  ex.raw_packet_caps);
	TEST_ASSERT_EQUAL((ex.device_cap_flags_ex & IBV_DEVICE_RAW_IP_CSUM),
			  flags_ex, "device flag RAW_IP_CSUM");
	/* The default device: csum_cap 1 and max_lso_cap 16 (64 KiB). */
	TEST_ASSERT(flags_ex != 0 && tso == 65536, "csum %#" PRIx64 " tso %u",
		    flags_ex, tso);
	TEST_ASSERT_EQUAL(ex.tso_caps.max_tso, tso, "max_tso %u",
			  ex.tso_caps.max_tso);
	TEST_ASSERT_EQUAL(ex.tso_caps.supported_qpts,
			  (tso != 0 ? 1u << IBV_QPT_RAW_PACKET : 0u), "TSO QPs");
	TEST_ASSERT_EQUAL(ex.hca_core_clock,
			  MLX5_GET(cmd_hca_cap, g, device_frequency_khz),
			  "clock kHz");
	return TEST_SUCCESS;
}

static struct unit_test_suite emu_query_device_suite = {
	.suite_name = "emu_query_device",
	.setup = qd_setup,
	.teardown = qd_teardown,
	.unit_test_cases = {
		TEST_CASE(test_query_device_from_caps),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(emu_query_device, emu_query_device_suite);
