/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Fixture of the emu_cqe_* suites: the emulated HCA's CQE path beyond
 * plain CQEs:
 * compression sessions (basic layout in every mini-CQE format and the
 * requester format, across the ring wrap, session limit, flush, ring
 * space, 128 B CQEs; enhanced layout), overrun with and without oi,
 * arming and completion events (DevX event channel, verbs completion
 * channel), solicited-only arms, moderation (MODIFY_CQ), the threaded
 * producer.
 *
 * Every expected ring image is written by hand, byte by byte, from the PRM
 * layouts: struct mlx5_cqe / struct mlx5_mini_cqe8 (DPDK mlx5_prm.h),
 * op_own = opcode << 4 | format << 2 | se << 1 | owner (mlx5dv.h), the
 * session layout read by DPDK's mlx5_rx_poll_len (title at ci, mini-CQE
 * arrays at ci + 1, ci + 8, ci + 16, holes elsewhere) and the enhanced
 * layout read by UCX / DPDK main (validity iteration count at byte 62).
 */

#include "test_emu_cqe_fixture.h"

static void
be64_put(void *p, uint64_t v)
{
	uint8_t *b = p;
	int i;

	for (i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (56 - 8 * i));
}

int
tcq_open(struct tcq *t, const char *name, const struct tcq_cfg *c)
{
	uint32_t in[CREATE_CQ_IN_LEN / 4], out[MLX5_ST_SZ_DW(create_cq_out)];
	void *cqc = (uint8_t *)in + CQC_OFF;
	struct mlx5_emu_caps caps;
	size_t len, i;
	uint32_t eqn;

	memset(t, 0, sizeof(*t));
	mlx5_emu_caps_default(&caps);
	if (c->max_num != 0)
		caps.cqe_compression_max_num = c->max_num;
	if (c->no_moder) {
		caps.cq_moderation = 0;
		caps.cq_period_start_from_cqe = 0;
	}
	t->ctx = mlx5_emu_open(name, &caps);
	if (t->ctx == NULL)
		return -1;
	t->log = c->log;
	t->stride = c->cqe_sz == 0 ? 64 : 128;
	len = ((size_t)t->stride << c->log) + 64;
	t->buf = rte_zmalloc(NULL, len, 4096);
	if (t->buf == NULL)
		return -1;
	for (i = 0; i < (1u << c->log); i++)
		t->buf[i * t->stride + t->stride - 1] = 0xf1;
	t->dbrec = (volatile uint32_t *)(t->buf + ((size_t)t->stride << c->log));
	t->uar = mlx5_glue->devx_alloc_uar(t->ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	t->umem = mlx5_glue->devx_umem_reg(t->ctx, t->buf, len,
					   IBV_ACCESS_LOCAL_WRITE);
	if (t->uar == NULL || t->umem == NULL ||
	    mlx5_glue->devx_query_eqn(t->ctx, 0, &eqn) != 0)
		return -1;
	memset(in, 0, sizeof(in));
	MLX5_SET(create_cq_in, in, opcode, 0x400);
	MLX5_SET(cqc, cqc, log_cq_size, c->log);
	MLX5_SET(cqc, cqc, cqe_sz, c->cqe_sz);
	MLX5_SET(cqc, cqc, uar_page, t->uar->page_id);
	MLX5_SET(cqc, cqc, c_eqn, eqn);
	MLX5_SET(cqc, cqc, oi, !!c->oi);
	MLX5_SET(cqc, cqc, cq_max_count, c->cq_max_count);
	MLX5_SET(cqc, cqc, cq_period_mode, c->period_mode);
	MLX5_SET(cqc, cqc, cqe_comp_en, !!c->comp);
	if (c->fmt == 4)
		MLX5_SET(cqc, cqc, mini_cqe_res_format_ext, 1);
	else
		MLX5_SET(cqc, cqc, mini_cqe_res_format, c->fmt);
	MLX5_SET(cqc, cqc, cqe_comp_layout, c->layout);
	MLX5_SET(cqc, cqc, dbr_umem_valid, 1);
	MLX5_SET(cqc, cqc, dbr_umem_id, t->umem->umem_id);
	be64_put(MLX5_ADDR_OF(cqc, cqc, dbr_addr),
		 (uint64_t)t->stride << c->log);
	MLX5_SET(create_cq_in, in, cq_umem_valid, 1);
	MLX5_SET(create_cq_in, in, cq_umem_id, t->umem->umem_id);
	t->obj = mlx5_glue->devx_obj_create(t->ctx, in, sizeof(in), out,
					    sizeof(out));
	if (t->obj == NULL)
		return -1;
	t->cqn = MLX5_GET(create_cq_out, out, cqn);
	return 0;
}

/* Destroy everything; 0 when the device closed idle (nothing leaked). */
int
tcq_close(struct tcq *t)
{
	int ret = -1;

	if (t->obj != NULL)
		mlx5_glue->devx_obj_destroy(t->obj);
	if (t->umem != NULL)
		mlx5_glue->devx_umem_dereg(t->umem);
	if (t->uar != NULL)
		mlx5_glue->devx_free_uar(t->uar);
	rte_free(t->buf);
	if (t->ctx != NULL)
		ret = mlx5_emu_close(t->ctx);
	memset(t, 0, sizeof(*t));
	return ret;
}

/* The 64 B CQE of ring entry i (second half of a 128 B entry). */
uint8_t *
slot(const struct tcq *t, uint32_t i)
{
	i &= (1u << t->log) - 1;
	return t->buf + (size_t)i * t->stride + (t->stride - 64);
}

void
consumer(struct tcq *t, uint32_t ci)
{
	t->dbrec[0] = rte_cpu_to_be_32(ci & 0xffffff);
}

int
cqe_cmp(const uint8_t *got, const uint8_t *want, const char *what,
	unsigned int idx)
{
	unsigned int i;

	for (i = 0; i < 64; i++)
		TEST_ASSERT_EQUAL(got[i], want[i], "%s: slot %u byte %u is "
				  "0x%02x, want 0x%02x", what, idx, i, got[i],
				  want[i]);
	return TEST_SUCCESS;
}

uint32_t
pi_of(const struct tcq *t)
{
	struct mlx5_emu_cq_info info;

	if (mlx5_emu_cq_query(t->ctx, t->cqn, &info) != 0)
		return UINT32_MAX;
	return info.pi;
}

int
ev_info(const struct tcq *t, struct mlx5_emu_cq_ev_info *ev)
{
	return mlx5_emu_cq_ev_query(t->ctx, t->cqn, ev);
}

/*
 * Responder base: hash type 0x33, hash 0xdead0000, csum 0x1111,
 * hdr_type_etc 0x0604, VLAN 5, metadata 0xa1b2c3d4, timestamp
 * 0x1122334455667788, flow tag / QPN 0xabc, wqe_counter 0x100 + i,
 * byte_cnt 100 + i.
 */
void
resp(struct mlx5_emu_wc *c, unsigned int i)
{
	memset(c, 0, sizeof(*c));
	c->kind = MLX5_EMU_WC_RESP;
	c->rx_hash_type = 0x33;
	c->rx_hash_res = 0xdead0000;
	c->csum = 0x1111;
	c->hdr_type_etc = 0x0604;
	c->vlan_info = 5;
	c->flow_table_metadata = 0xa1b2c3d4;
	c->timestamp = 0x1122334455667788ull;
	c->qpn = 0xabc;
	c->wqe_counter = (uint16_t)(0x100 + i);
	c->byte_cnt = 100 + i;
}

/* Requester base: send (0x0a) of WQE 0x200 + i, QPN 0xabc, 0x40 + i B. */
void
req(struct mlx5_emu_wc *c, unsigned int i)
{
	memset(c, 0, sizeof(*c));
	c->kind = MLX5_EMU_WC_REQ;
	c->s_wqe_opcode = 0x0a;
	c->qpn = 0xabc;
	c->timestamp = 0x1122334455667788ull;
	c->wqe_counter = (uint16_t)(0x200 + i);
	c->byte_cnt = 0x40 + i;
}

void
fmt_cpls(const struct fmt_case *fc, struct mlx5_emu_wc c[3])
{
	static const uint32_t tags[3] = { 0x123456, 0x789abc, 0xfedcba };
	static const uint16_t hdr[3] = { 0x0604, 0x0619, 0x0628 };
	static const uint8_t sop[3] = { 0x0a, 0x08, 0x0a };
	unsigned int i;

	for (i = 0; i < 3; i++) {
		if (fc->requester) {
			req(&c[i], i);
			c[i].s_wqe_opcode = sop[i];
			continue;
		}
		resp(&c[i], i);
		switch (fc->fmt) {
		case 0:
			c[i].rx_hash_res = 0xdead0000 + i;
			break;
		case 1:
		case 3:
			c[i].csum = (uint16_t)(0x1000 + i);
			break;
		case 2:
			c[i].qpn = tags[i];
			break;
		case 4:
			c[i].hdr_type_etc = hdr[i];
			break;
		}
	}
}

/* rdma-core mlx5_arm_cq: record word 1, barrier, UAR doorbell at 0x20. */
void
arm_doorbell(volatile uint32_t *dbrec, void *uar, uint32_t cqn,
	     unsigned int sn, int solicited, uint32_t ci)
{
	uint32_t word = (sn & 3) << 28 | (solicited ? 1u << 24 : 0) |
			(ci & 0xffffff);
	uint64_t db = (uint64_t)word << 32 | cqn;

	dbrec[1] = rte_cpu_to_be_32(word);
	rte_wmb();
	*(volatile uint64_t *)(void *)((uint8_t *)uar + 0x20) =
		rte_cpu_to_be_64(db);
}

void
tcq_arm(struct tcq *t, unsigned int sn, int solicited, uint32_t ci)
{
	arm_doorbell(t->dbrec, t->uar->base_addr, t->cqn, sn, solicited, ci);
}

int
fd_readable(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, 0) == 1;
}

/* One DevX completion event: cookie and EQE (type 0, cqn at 0x38). */
int
expect_comp_event(struct mlx5dv_devx_event_channel *ch, uint64_t cookie,
		  uint32_t cqn)
{
	uint8_t buf[8 + EQE_LEN];
	struct mlx5dv_devx_async_event_hdr *hdr = (void *)buf;

	TEST_ASSERT(fd_readable(ch->fd), "channel fd readable");
	memset(buf, 0xff, sizeof(buf));
	TEST_ASSERT_EQUAL(mlx5_glue->devx_get_event(ch, hdr, sizeof(buf)),
			  (ssize_t)sizeof(buf), "event");
	TEST_ASSERT_EQUAL(hdr->cookie, cookie, "cookie");
	TEST_ASSERT_EQUAL(hdr->out_data[1], 0x00, "EQE type COMP");
	TEST_ASSERT(hdr->out_data[0x38] == 0 &&
		    hdr->out_data[0x39] == ((cqn >> 16) & 0xff) &&
		    hdr->out_data[0x3a] == ((cqn >> 8) & 0xff) &&
		    hdr->out_data[0x3b] == (cqn & 0xff), "EQE cqn");
	return TEST_SUCCESS;
}

int
expect_no_event(struct mlx5dv_devx_event_channel *ch)
{
	uint8_t buf[8 + EQE_LEN];

	TEST_ASSERT(!fd_readable(ch->fd), "channel fd quiet");
	errno = 0;
	TEST_ASSERT_EQUAL(mlx5_glue->devx_get_event(ch, (void *)buf,
						    sizeof(buf)), -1, "none");
	TEST_ASSERT_EQUAL(errno, EAGAIN, "EAGAIN");
	return TEST_SUCCESS;
}
