/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_SEQ_CPL_H_
#define TEST_SEQ_CPL_H_

/*
 * Sequence-numbered completions for the emulated HCA's producer thread
 * (the stress suite and the soak command): completion number s carries s
 * in the fields every mini-CQE format keeps, wqe_counter = s & 0xffff and
 * byte_cnt = 64 + ((s >> 16) & 0x3ff); runs of SEQ_CPL_RUN share the rest
 * so the model compresses them (every fourth run requester); every
 * SEQ_CPL_ERR_EVERY-th is an error CQE of syndrome 0x05.
 */

#include <stdint.h>

#include <rte_common.h>

#include <mlx5_emu.h>

#define SEQ_CPL_ERR_EVERY 1009
#define SEQ_CPL_RUN 48

static inline int
seq_cpl_is_error(uint64_t s)
{
	return s % SEQ_CPL_ERR_EVERY == SEQ_CPL_ERR_EVERY - 1;
}

static inline uint32_t
seq_cpl_byte_cnt(uint64_t s)
{
	return 64 + (uint32_t)((s >> 16) & 0x3ff);
}

/* mlx5_emu_producer_attr.gen. */
static inline void
seq_cpl_gen(void *arg, uint64_t s, struct mlx5_emu_wc *c)
{
	uint64_t run = s / SEQ_CPL_RUN;
	int req = run % 4 == 3;

	RTE_SET_USED(arg);
	c->kind = req ? MLX5_EMU_WC_REQ : MLX5_EMU_WC_RESP;
	if (seq_cpl_is_error(s))
		c->kind = req ? MLX5_EMU_WC_REQ_ERR : MLX5_EMU_WC_RESP_ERR;
	c->syndrome = 0x05;
	c->vendor_syndrome = 0x77;
	c->wqe_counter = (uint16_t)s;
	c->byte_cnt = seq_cpl_byte_cnt(s);
	c->qpn = 0x100;
	c->rx_hash_res = 0xabcd0000 | (uint32_t)(run & 0xffff);
	c->rx_hash_type = 0x2c;
	c->hdr_type_etc = 0x0200;
	c->csum = 0x1234;
	c->vlan_info = 5;
	c->flow_table_metadata = (uint32_t)run;
	c->timestamp = run;
	if (req)
		c->s_wqe_opcode = 0x0a;
}

#endif /* TEST_SEQ_CPL_H_ */
