/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_CPL_EXPECT_H_
#define TEST_CPL_EXPECT_H_

/*
 * The completion record rte_mlx5cq_poll_burst() must produce for a
 * completion the emulated HCA was asked to write (struct mlx5_emu_wc), and
 * the error status mapping, spelled with the names of infiniband/mlx5dv.h
 * and infiniband/verbs.h (rdma-core cq.c mlx5_handle_error_cqe), so tests
 * do not compare the library with itself.
 */

#include <stdint.h>
#include <string.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include <mlx5_emu.h>
#include <mlx5_prm.h>
#include <rte_mlx5cq.h>

#include "test_cqe_image.h"

/* enum ibv_wc_status of an error CQE syndrome. */
static inline uint8_t
expect_wc_status(uint8_t syndrome)
{
	switch (syndrome) {
	case MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR:
		return IBV_WC_LOC_LEN_ERR;
	case MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR:
		return IBV_WC_LOC_QP_OP_ERR;
	case MLX5_CQE_SYNDROME_LOCAL_PROT_ERR:
		return IBV_WC_LOC_PROT_ERR;
	case MLX5_CQE_SYNDROME_WR_FLUSH_ERR:
		return IBV_WC_WR_FLUSH_ERR;
	case MLX5_CQE_SYNDROME_MW_BIND_ERR:
		return IBV_WC_MW_BIND_ERR;
	case MLX5_CQE_SYNDROME_BAD_RESP_ERR:
		return IBV_WC_BAD_RESP_ERR;
	case MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR:
		return IBV_WC_LOC_ACCESS_ERR;
	case MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR:
		return IBV_WC_REM_INV_REQ_ERR;
	case MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR:
		return IBV_WC_REM_ACCESS_ERR;
	case MLX5_CQE_SYNDROME_REMOTE_OP_ERR:
		return IBV_WC_REM_OP_ERR;
	case MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR:
		return IBV_WC_RETRY_EXC_ERR;
	case MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR:
		return IBV_WC_RNR_RETRY_EXC_ERR;
	case MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR:
		return IBV_WC_REM_ABORT_ERR;
	default:
		return IBV_WC_GENERAL_ERR;
	}
}

/* CQE opcode the model writes for a completion (mlx5dv.h values). */
static inline uint8_t
expect_emu_opcode(const struct mlx5_emu_wc *c)
{
	if (c->opcode != 0)
		return c->opcode;
	switch (c->kind) {
	case MLX5_EMU_WC_REQ:
		return MLX5_CQE_REQ;
	case MLX5_EMU_WC_RESP:
		return MLX5_CQE_RESP_SEND;
	case MLX5_EMU_WC_REQ_ERR:
		return MLX5_CQE_REQ_ERR;
	default:
		return MLX5_CQE_RESP_ERR;
	}
}

/*
 * The record of an emulated completion. What the model writes for each
 * kind (mlx5_emu.h): requester CQEs carry byte_cnt, timestamp and the send
 * WQE opcode in sop_drop_qpn[31:24] (RX fields zero); responder CQEs every
 * RX field; error CQEs syndrome, vendor syndrome and sop_drop_qpn. Callers
 * set s_wqe_opcode for requester kinds only.
 */
static inline void
expect_emu_record(const struct mlx5_emu_wc *c, struct rte_mlx5cq_cpl *e)
{
	uint8_t op = expect_emu_opcode(c);

	memset(e, 0, sizeof(*e));
	e->opcode = op;
	e->wqe_counter = c->wqe_counter;
	e->flow_tag = c->qpn & 0xffffff;
	if (op == MLX5_CQE_REQ_ERR || op == MLX5_CQE_RESP_ERR) {
		e->status = expect_wc_status(c->syndrome);
		e->syndrome = c->syndrome;
		e->vendor_syndrome = c->vendor_syndrome;
		e->s_wqe_opcode = c->s_wqe_opcode;
		return;
	}
	e->byte_cnt = c->byte_cnt;
	e->timestamp = c->timestamp;
	if (c->kind == MLX5_EMU_WC_REQ)
		return;
	e->rss_hash = c->rx_hash_res;
	e->rss_hash_type = c->rx_hash_type;
	e->metadata = c->flow_table_metadata;
	e->vlan_tci = c->vlan_info;
	e->hdr_type_etc = c->hdr_type_etc;
	e->csum = c->csum;
}

/* Field-by-field comparison; returns the name of the first mismatch. */
static inline const char *
expect_record_diff(const struct rte_mlx5cq_cpl *g,
		   const struct rte_mlx5cq_cpl *e)
{
	if (g->opcode != e->opcode)
		return "opcode";
	if (g->status != e->status)
		return "status";
	if (g->syndrome != e->syndrome)
		return "syndrome";
	if (g->vendor_syndrome != e->vendor_syndrome)
		return "vendor_syndrome";
	if (g->s_wqe_opcode != e->s_wqe_opcode)
		return "s_wqe_opcode";
	if (g->wqe_counter != e->wqe_counter)
		return "wqe_counter";
	if (g->flow_tag != e->flow_tag)
		return "flow_tag";
	if (g->byte_cnt != e->byte_cnt)
		return "byte_cnt";
	if (g->rss_hash != e->rss_hash)
		return "rss_hash";
	if (g->rss_hash_type != e->rss_hash_type)
		return "rss_hash_type";
	if (g->metadata != e->metadata)
		return "metadata";
	if (g->timestamp != e->timestamp)
		return "timestamp";
	if (g->vlan_tci != e->vlan_tci)
		return "vlan_tci";
	if (g->hdr_type_etc != e->hdr_type_etc)
		return "hdr_type_etc";
	if (g->csum != e->csum)
		return "csum";
	return NULL;
}

/* The record an uncompressed CQE image (test_cqe_image.h) must produce. */
static inline void
expect_img_record(const struct img_cqe *d, struct rte_mlx5cq_cpl *e)
{
	memset(e, 0, sizeof(*e));
	e->opcode = d->opcode;
	e->wqe_counter = d->wqe_counter;
	e->flow_tag = d->sop_drop_qpn & 0xffffff;
	if (img_is_error(d->opcode)) {
		e->status = expect_wc_status(d->syndrome);
		e->syndrome = d->syndrome;
		e->vendor_syndrome = d->vendor_syndrome;
		e->s_wqe_opcode = d->sop_drop_qpn >> 24;
		return;
	}
	e->byte_cnt = d->byte_cnt;
	e->rss_hash = d->rx_hash_res;
	e->rss_hash_type = d->rx_hash_type;
	e->metadata = d->metadata;
	e->timestamp = d->timestamp;
	e->vlan_tci = d->vlan_info;
	e->hdr_type_etc = d->hdr_type_etc;
	e->csum = d->csum;
}

/*
 * A mini-CQE's fields over the record e of its session's title (every
 * title field already in e): struct mlx5_mini_cqe8 of mlx5_prm.h, big
 * endian, byte count in bytes 4..7, then by format (PRM
 * MLX5_CQE_RESP_FORMAT_*; a requester title, opcode 0, takes the WQE
 * counter from bytes 0..1): HASH rx_hash_result in 0..3 and CSUM checksum
 * in 0..1, both with the implied WQE counter; FTAG_STRIDX flow tag bits
 * 15:0 in 0..1 and 23:16 in byte 4 (the byte count keeps 24 bits), stride
 * index in 2..3; CSUM_STRIDX checksum in 0..1, stride index in 2..3;
 * L34H_STRIDX the low byte of hdr_type_etc in byte 0 (DPDK 5654f38eba),
 * stride index in
 * 2..3.
 */
static inline void
expect_mini_fields(unsigned int fmt, const volatile uint8_t *m,
		   uint16_t implied_wqe, struct rte_mlx5cq_cpl *e)
{
	e->byte_cnt = (uint32_t)m[4] << 24 | m[5] << 16 | m[6] << 8 | m[7];
	if (e->opcode == MLX5_CQE_REQ) {
		e->wqe_counter = (uint16_t)(m[0] << 8 | m[1]);
		return;
	}
	switch (fmt) {
	case MLX5_CQE_RESP_FORMAT_HASH:
		e->rss_hash = (uint32_t)m[0] << 24 | m[1] << 16 | m[2] << 8 |
			      m[3];
		e->wqe_counter = implied_wqe;
		break;
	case MLX5_CQE_RESP_FORMAT_CSUM:
		e->csum = (uint16_t)(m[0] << 8 | m[1]);
		e->wqe_counter = implied_wqe;
		break;
	case MLX5_CQE_RESP_FORMAT_FTAG_STRIDX:
		e->flow_tag = (uint32_t)m[4] << 16 | m[0] << 8 | m[1];
		e->byte_cnt &= 0xffffff;
		e->wqe_counter = (uint16_t)(m[2] << 8 | m[3]);
		break;
	case MLX5_CQE_RESP_FORMAT_CSUM_STRIDX:
		e->csum = (uint16_t)(m[0] << 8 | m[1]);
		e->wqe_counter = (uint16_t)(m[2] << 8 | m[3]);
		break;
	default: /* MLX5_CQE_RESP_FORMAT_L34H_STRIDX */
		e->hdr_type_etc = (uint16_t)((e->hdr_type_etc & 0xff00) |
					     m[0]);
		e->wqe_counter = (uint16_t)(m[2] << 8 | m[3]);
		break;
	}
}

#endif /* TEST_CPL_EXPECT_H_ */
