/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "attach": a CQ created by rte_common_mlx5's own
 * mlx5_devx_cq_create() on the emulated HCA, wrapped with
 * rte_mlx5cq_attach(), fed by the model's producer (mlx5_emu_cq_post) and
 * polled with rte_mlx5cq_poll_burst(); destroying the handle leaves the CQ
 * to its owner. Compressed CQs in every format that helper can ask for
 * are attached as QUERY_CQ describes them and poll their sessions.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include <mlx5_glue.h>
#include <mlx5_common_devx.h>

#include <rte_mlx5cq.h>
#include <mlx5_emu.h>

#include "test.h"
#include "test_dpdk_cq.h"
#include "test_usage.h"
#include "test_cq_cnt.h"

#define LOG_N 6 /* 64 entries. */

static struct ibv_context *a_ctx;
static struct rte_mlx5cq_dev *a_dev;
static struct mlx5dv_devx_uar *a_uar;

static int
attach_setup(void)
{
	if (mlx5_emu_install() != 0)
		return -1;
	a_ctx = mlx5_emu_open("attach0", NULL);
	if (a_ctx == NULL)
		return -1;
	a_dev = rte_mlx5cq_dev_open(a_ctx, SOCKET_ID_ANY);
	/* mlx5_devx_cq_create() wants the caller's UAR page. */
	a_uar = mlx5_glue->devx_alloc_uar(a_ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	if (a_dev == NULL || a_uar == NULL) {
		printf("attach setup: dev %p uar %p errno %d\n", (void *)a_dev,
		       (void *)a_uar, rte_errno);
		return -1;
	}
	return 0;
}

static void
attach_teardown(void)
{
	if (a_uar != NULL)
		mlx5_glue->devx_free_uar(a_uar);
	if (a_dev != NULL && rte_mlx5cq_dev_close(a_dev))
		printf("attach: dev_close %d\n", rte_errno);
	if (a_ctx != NULL && mlx5_emu_close(a_ctx))
		printf("attach: emu close failed\n");
	a_uar = NULL;
	a_dev = NULL;
	a_ctx = NULL;
}

struct usage {
	struct heap_use h;
	struct mlx5_emu_stats emu;
	struct rte_mlx5cq_dev_stats dev;
};

static int
usage_take(struct usage *u)
{
	memset(u, 0, sizeof(*u));
	heap_use(&u->h);
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(a_ctx, &u->emu), "emu stats");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_dev_stats_get(a_dev, &u->dev),
			    "dev stats");
	return TEST_SUCCESS;
}

static int
usage_same(const struct usage *a, const struct usage *b, const char *what)
{
	TEST_ASSERT(a->h.heap_bytes == b->h.heap_bytes &&
		    a->h.alloc_count == b->h.alloc_count,
		    "%s: rte_malloc %" PRIu64 "/%" PRIu64 " -> %" PRIu64
		    "/%" PRIu64, what, a->h.heap_bytes, a->h.alloc_count,
		    b->h.heap_bytes, b->h.alloc_count);
	TEST_ASSERT(a->emu.umems == b->emu.umems &&
		    a->emu.devx_objs == b->emu.devx_objs &&
		    a->emu.cqs == b->emu.cqs,
		    "%s: emu umems %u->%u objs %u->%u cqs %u->%u", what,
		    a->emu.umems, b->emu.umems, a->emu.devx_objs,
		    b->emu.devx_objs, a->emu.cqs, b->emu.cqs);
	TEST_ASSERT(a->dev.cqs == b->dev.cqs &&
		    a->dev.dbr_slots == b->dev.dbr_slots,
		    "%s: dev cqs %u->%u slots %u->%u", what, a->dev.cqs,
		    b->dev.cqs, a->dev.dbr_slots, b->dev.dbr_slots);
	return TEST_SUCCESS;
}

static int
devx_cq_make(struct mlx5_devx_cq *dcq)
{
	struct mlx5_devx_cq_attr attr;
	int ret;

	memset(dcq, 0, sizeof(*dcq));
	memset(&attr, 0, sizeof(attr));
	attr.uar_page_id = a_uar->page_id;
	ret = mlx5_devx_cq_create(a_ctx, dcq, LOG_N, &attr, SOCKET_ID_ANY);
	TEST_ASSERT_SUCCESS(ret, "mlx5_devx_cq_create: %d (rte_errno %d)",
			    ret, rte_errno);
	return TEST_SUCCESS;
}

/* A responder completion with fields derived from its sequence number. */
static void
cpl_make(struct mlx5_emu_wc *c, uint32_t seq)
{
	memset(c, 0, sizeof(*c));
	c->kind = MLX5_EMU_WC_RESP;
	c->opcode = RTE_MLX5CQ_OP_RESP_SEND;
	c->byte_cnt = 60 + seq;
	c->rx_hash_res = 0x9e3779b9u ^ seq;
	c->rx_hash_type = (uint8_t)(seq & 0x3f);
	c->qpn = (0x1000 + seq) & 0xffffff;
	c->flow_table_metadata = 0xa5000000u | seq;
	c->wqe_counter = (uint16_t)(seq * 3);
	c->hdr_type_etc = RTE_MLX5CQ_HDR_IPV4 | RTE_MLX5CQ_HDR_TCP |
			  RTE_MLX5CQ_HDR_L3_OK | RTE_MLX5CQ_HDR_L4_OK;
	c->vlan_info = (uint16_t)(100 + seq);
	c->csum = (uint16_t)(0xbeef ^ seq);
	c->timestamp = UINT64_C(0x0123456700000000) + seq;
}

static int
cpl_check(const struct rte_mlx5cq_cpl *r, uint32_t seq)
{
	struct mlx5_emu_wc c;

	cpl_make(&c, seq);
	TEST_ASSERT_EQUAL(r->status, 0, "seq %u status %u", seq, r->status);
	TEST_ASSERT_EQUAL(r->opcode, RTE_MLX5CQ_OP_RESP_SEND, "seq %u opcode",
			  seq);
	TEST_ASSERT_EQUAL(r->byte_cnt, c.byte_cnt, "seq %u byte_cnt %u", seq,
			  r->byte_cnt);
	TEST_ASSERT_EQUAL(r->rss_hash, c.rx_hash_res, "seq %u rss_hash", seq);
	TEST_ASSERT_EQUAL(r->rss_hash_type, c.rx_hash_type, "seq %u hash type",
			  seq);
	TEST_ASSERT_EQUAL(r->flow_tag, c.qpn, "seq %u flow_tag %#x", seq,
			  r->flow_tag);
	TEST_ASSERT_EQUAL(r->metadata, c.flow_table_metadata, "seq %u meta",
			  seq);
	TEST_ASSERT_EQUAL(r->wqe_counter, c.wqe_counter, "seq %u wqe_counter",
			  seq);
	TEST_ASSERT_EQUAL(r->hdr_type_etc, c.hdr_type_etc, "seq %u hdr", seq);
	TEST_ASSERT_EQUAL(r->vlan_tci, c.vlan_info, "seq %u vlan", seq);
	TEST_ASSERT_EQUAL(r->csum, c.csum, "seq %u csum", seq);
	TEST_ASSERT_EQUAL(r->timestamp, c.timestamp, "seq %u timestamp", seq);
	return TEST_SUCCESS;
}

static int
test_attach_poll(void)
{
	struct mlx5_devx_cq dcq;
	struct rte_mlx5cq *cq;
	struct rte_mlx5cq_info info;
	struct mlx5_emu_cq_info fw;
	struct mlx5_emu_wc in[64];
	struct rte_mlx5cq_cpl out[64];
	struct usage u0, u1, u2;
	uint32_t seq = 0, got_seq = 0, ci = 0;
	unsigned int round, i;
	int n;

	TEST_CHECK(usage_take(&u0));
	TEST_CHECK(devx_cq_make(&dcq));
	TEST_CHECK(usage_take(&u1));
	cq = rte_mlx5cq_attach(a_dev, &dcq, LOG_N);
	TEST_ASSERT_NOT_NULL(cq, "attach: %d", rte_errno);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_info_get(cq, &info), "info");
	TEST_ASSERT_EQUAL(info.path, RTE_MLX5CQ_PATH_ATTACH, "path");
	TEST_ASSERT_EQUAL(info.entries, 1u << LOG_N, "entries");
	TEST_ASSERT_EQUAL(info.capacity, (1u << LOG_N) - 1, "capacity");
	/* One cache line per entry (test_dpdk_cq.h): 64 B on x86, 128 B
	 * (64 B CQE in the second half) on AArch64.
	 */
	TEST_ASSERT_EQUAL(info.cqe_size, TEST_DPDK_CQE_SIZE, "cqe_size");
	TEST_ASSERT(info.ring == (void *)(uintptr_t)dcq.cqes, "ring");
	TEST_ASSERT(info.dbrec == dcq.db_rec, "dbrec");
	TEST_ASSERT_EQUAL(cq->stride_shift,
			  (TEST_DPDK_CQE_SIZE == 128 ? 7 : 6), "stride_shift");
	TEST_ASSERT_EQUAL(cq->cqe_off, TEST_DPDK_CQE_SIZE - 64, "cqe_off");
	/* The device knows this number as the CQ on dcq's ring. */
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(a_ctx, info.cqn, &fw),
			    "cqn %#x unknown", info.cqn);
	TEST_ASSERT(fw.ring == info.ring && fw.dbrec == info.dbrec,
		    "cqn %#x is another CQ", info.cqn);
	TEST_ASSERT_EQUAL(fw.log_cq_size, LOG_N, "log_cq_size");
	TEST_ASSERT_EQUAL(fw.cqe_sz, TEST_DPDK_CQE_SZ, "cqe_sz");
	TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(cq, out, 64), 0, "empty");
	/* 10 completions and an error, one burst. */
	for (i = 0; i < 10; i++)
		cpl_make(&in[i], seq++);
	memset(&in[10], 0, sizeof(in[10]));
	in[10].kind = MLX5_EMU_WC_RESP_ERR;
	in[10].opcode = RTE_MLX5CQ_OP_RESP_ERR;
	in[10].syndrome = 0x04; /* Local protection error. */
	in[10].vendor_syndrome = 0x33;
	in[10].qpn = 0x4242;
	in[10].wqe_counter = 77;
	n = mlx5_emu_cq_post(a_ctx, info.cqn, in, 11);
	TEST_ASSERT_EQUAL(n, 11, "post: %d", n);
	n = rte_mlx5cq_poll_burst(cq, out, 64);
	TEST_ASSERT_EQUAL(n, 11, "poll: %d", n);
	for (i = 0; i < 10; i++)
		TEST_CHECK(cpl_check(&out[i], got_seq++));
	TEST_ASSERT_EQUAL(out[10].opcode, RTE_MLX5CQ_OP_RESP_ERR, "err op");
	TEST_ASSERT_EQUAL(out[10].status, IBV_WC_LOC_PROT_ERR, "err status %u",
			  out[10].status);
	TEST_ASSERT_EQUAL(out[10].syndrome, 0x04, "syndrome");
	TEST_ASSERT_EQUAL(out[10].vendor_syndrome, 0x33, "vendor syndrome");
	TEST_ASSERT_EQUAL(out[10].flow_tag, 0x4242, "err qpn");
	TEST_ASSERT_EQUAL(out[10].wqe_counter, 77, "err wqe_counter");
	ci = 11;
	TEST_ASSERT_EQUAL(rte_be_to_cpu_32(dcq.db_rec[0]), ci, "dbrec ci %u",
			  rte_be_to_cpu_32(dcq.db_rec[0]));
	TEST_ASSERT_EQUAL(test_cq_cnt(cq)->errors, 1, "errors counter");
	/* Several passes around the ring (owner bit flips). */
	for (round = 0; round < 6; round++) {
		unsigned int want = 40 + round * 3;

		for (i = 0; i < want; i++)
			cpl_make(&in[i], seq++);
		n = mlx5_emu_cq_post(a_ctx, info.cqn, in, want);
		TEST_ASSERT_EQUAL(n, (int)want, "round %u post %d", round, n);
		n = rte_mlx5cq_poll_burst(cq, out, 16);
		TEST_ASSERT_EQUAL(n, 16, "round %u first burst %d", round, n);
		n += rte_mlx5cq_poll_burst(cq, out + 16, 64 - 16);
		TEST_ASSERT_EQUAL(n, (int)want, "round %u polled %d", round, n);
		for (i = 0; i < want; i++)
			TEST_CHECK(cpl_check(&out[i], got_seq++));
		ci += want;
		TEST_ASSERT_EQUAL(rte_be_to_cpu_32(dcq.db_rec[0]),
				  (ci & 0xffffff), "round %u dbrec", round);
		TEST_ASSERT_EQUAL(rte_mlx5cq_poll_burst(cq, out, 64), 0,
				  "round %u not empty", round);
	}
	TEST_ASSERT(ci > 2u << LOG_N, "ring wrapped %u entries only", ci);
	/* Releasing the handle leaves the CQ. */
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy handle");
	TEST_CHECK(usage_take(&u2));
	TEST_CHECK(usage_same(&u1, &u2, "handle released"));
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(a_ctx, info.cqn, &fw),
			    "CQ gone with the handle");
	mlx5_devx_cq_destroy(&dcq);
	TEST_CHECK(usage_take(&u2));
	return usage_same(&u0, &u2, "CQ destroyed");
}

static int
test_attach_invalid(void)
{
	struct mlx5_devx_cq dcq, empty;
	struct usage u0, u1;

	TEST_CHECK(devx_cq_make(&dcq));
	TEST_CHECK(usage_take(&u0));
	memset(&empty, 0, sizeof(empty));
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_mlx5cq_attach(a_dev, NULL, LOG_N), "NULL dcq");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno %d", rte_errno);
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_mlx5cq_attach(NULL, &dcq, LOG_N), "NULL dev");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno %d", rte_errno);
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_mlx5cq_attach(a_dev, &empty, LOG_N), "empty dcq");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno %d", rte_errno);
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_mlx5cq_attach(a_dev, &dcq, 25), "log 25");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno %d", rte_errno);
	TEST_CHECK(usage_take(&u1));
	TEST_CHECK(usage_same(&u0, &u1, "rejected attach"));
	mlx5_devx_cq_destroy(&dcq);
	return TEST_SUCCESS;
}

static int
test_attach_busy(void)
{
	struct mlx5_devx_cq dcq;
	struct rte_mlx5cq *cq;

	TEST_CHECK(devx_cq_make(&dcq));
	cq = rte_mlx5cq_attach(a_dev, &dcq, LOG_N);
	TEST_ASSERT_NOT_NULL(cq, "attach: %d", rte_errno);
	TEST_ASSERT_EQUAL(rte_mlx5cq_dev_close(a_dev), -EBUSY,
			  "close with an attached CQ");
	TEST_ASSERT_EQUAL(rte_errno, EBUSY, "errno %d", rte_errno);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy");
	mlx5_devx_cq_destroy(&dcq);
	return TEST_SUCCESS;
}

/*
 * Compressed CQs made by mlx5_devx_cq_create() in each format that helper
 * can ask for (cqe_comp_en, mini_cqe_res_format and, for L34H_STRIDX,
 * mini_cqe_res_format_ext): the completions of one post share every field
 * the format's mini-CQE does not carry, so the emulated HCA writes them as
 * a session; attach learns the format from QUERY_CQ and each record is
 * the completion posted.
 */
struct zcase {
	const char *name;
	uint8_t fmt; /* cqc.mini_cqe_res_format */
	uint8_t ext; /* cqc.mini_cqe_res_format_ext */
	uint8_t comp; /* RTE_MLX5CQ_COMP_* attach must report */
};

static const struct zcase zcases[] = {
	{ "HASH", 0, 0, RTE_MLX5CQ_COMP_HASH },
	{ "CSUM", 1, 0, RTE_MLX5CQ_COMP_CSUM },
	{ "FTAG_STRIDX", 2, 0, RTE_MLX5CQ_COMP_FTAG_STRIDX },
	{ "CSUM_STRIDX", 3, 0, RTE_MLX5CQ_COMP_CSUM_STRIDX },
	{ "L34H_STRIDX", 0, 1, RTE_MLX5CQ_COMP_L34H_STRIDX },
};

#define ZN 20 /* Completions a post: one session. */

/* Completion seq of a session in format z: the varying fields only. */
static void
zcpl_make(const struct zcase *z, struct mlx5_emu_wc *c, uint32_t seq)
{
	memset(c, 0, sizeof(*c));
	c->kind = MLX5_EMU_WC_RESP;
	c->opcode = RTE_MLX5CQ_OP_RESP_SEND;
	c->byte_cnt = 64 + 7 * seq;
	c->rx_hash_res = 0x11223344;
	c->rx_hash_type = 0x2c;
	c->qpn = 0xabcde;
	c->flow_table_metadata = 0x5a5a5a5a;
	c->hdr_type_etc = RTE_MLX5CQ_HDR_IPV4 | RTE_MLX5CQ_HDR_TCP |
			  RTE_MLX5CQ_HDR_L3_OK | RTE_MLX5CQ_HDR_L4_OK;
	c->vlan_info = 42;
	c->csum = 0x1234;
	c->timestamp = UINT64_C(0x0123456789);
	/* HASH, CSUM: readers count WQEs from the title: consecutive. */
	c->wqe_counter = (uint16_t)(1000 + seq);
	switch (z->comp) {
	case RTE_MLX5CQ_COMP_HASH:
		c->rx_hash_res = 0x9e3779b9u * (seq + 1);
		break;
	case RTE_MLX5CQ_COMP_CSUM:
		c->csum = (uint16_t)(0xbeef ^ (seq * 0x101));
		break;
	case RTE_MLX5CQ_COMP_CSUM_STRIDX:
		c->csum = (uint16_t)(0xbeef ^ (seq * 0x101));
		c->wqe_counter = (uint16_t)(5 * seq);
		break;
	case RTE_MLX5CQ_COMP_FTAG_STRIDX:
		c->qpn = (0x10203 * (seq + 1)) & 0xffffff;
		c->wqe_counter = (uint16_t)(3 * seq);
		break;
	default: /* L34H_STRIDX: header byte (bits 7:0) and stride. */
		c->hdr_type_etc = (uint16_t)((c->hdr_type_etc & 0xff00) |
					     ((seq & 1) ? RTE_MLX5CQ_HDR_UDP :
						RTE_MLX5CQ_HDR_TCP) |
					     RTE_MLX5CQ_HDR_IPV4 |
					     ((seq & 2) ? 1 : 0));
		c->wqe_counter = (uint16_t)(9 * seq);
		break;
	}
}

static int
zcheck(const struct zcase *z, const struct rte_mlx5cq_cpl *r, uint32_t seq)
{
	struct mlx5_emu_wc c;

	zcpl_make(z, &c, seq);
	TEST_ASSERT_EQUAL(r->opcode, RTE_MLX5CQ_OP_RESP_SEND, "%s %u opcode",
			  z->name, seq);
	TEST_ASSERT_EQUAL(r->byte_cnt, c.byte_cnt, "%s %u byte_cnt %u",
			  z->name, seq, r->byte_cnt);
	TEST_ASSERT_EQUAL(r->wqe_counter, c.wqe_counter, "%s %u wqe %u",
			  z->name, seq, r->wqe_counter);
	TEST_ASSERT_EQUAL(r->rss_hash, c.rx_hash_res, "%s %u hash", z->name,
			  seq);
	TEST_ASSERT_EQUAL(r->csum, c.csum, "%s %u csum", z->name, seq);
	TEST_ASSERT_EQUAL(r->flow_tag, c.qpn, "%s %u flow_tag %#x", z->name,
			  seq, r->flow_tag);
	TEST_ASSERT_EQUAL(r->hdr_type_etc, c.hdr_type_etc, "%s %u hdr %#x",
			  z->name, seq, r->hdr_type_etc);
	TEST_ASSERT_EQUAL(r->vlan_tci, c.vlan_info, "%s %u vlan", z->name,
			  seq);
	TEST_ASSERT_EQUAL(r->timestamp, c.timestamp, "%s %u ts", z->name, seq);
	return TEST_SUCCESS;
}

static int
attach_one_format(const struct zcase *z)
{
	struct mlx5_emu_wc in[ZN];
	struct rte_mlx5cq_cpl out[ZN];
	struct mlx5_devx_cq_attr attr;
	struct rte_mlx5cq_info info;
	struct mlx5_devx_cq dcq;
	struct rte_mlx5cq *cq;
	struct usage u0, u1;
	uint32_t seq = 0, got = 0, round, i;
	int n;

	TEST_CHECK(usage_take(&u0));
	memset(&dcq, 0, sizeof(dcq));
	memset(&attr, 0, sizeof(attr));
	attr.uar_page_id = a_uar->page_id;
	attr.cqe_comp_en = 1;
	attr.mini_cqe_res_format = z->fmt;
	attr.mini_cqe_res_format_ext = z->ext;
	TEST_ASSERT_SUCCESS(mlx5_devx_cq_create(a_ctx, &dcq, LOG_N, &attr,
						SOCKET_ID_ANY),
			    "%s: mlx5_devx_cq_create: %d", z->name, rte_errno);
	cq = rte_mlx5cq_attach(a_dev, &dcq, LOG_N);
	TEST_ASSERT_NOT_NULL(cq, "%s: attach: %d", z->name, rte_errno);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_info_get(cq, &info), "info");
	TEST_ASSERT_EQUAL(info.comp_format, z->comp, "%s: comp_format %#x",
			  z->name, info.comp_format);
	TEST_ASSERT_EQUAL(info.comp_layout, RTE_MLX5CQ_COMP_LAYOUT_BASIC,
			  "%s: layout", z->name);
	TEST_ASSERT_EQUAL(info.entries, 1u << LOG_N, "%s: entries", z->name);
	/* Sessions across the ring's wrap, in bursts that split them. */
	for (round = 0; round < 8; round++) {
		for (i = 0; i < ZN; i++)
			zcpl_make(z, &in[i], seq++);
		n = mlx5_emu_cq_post(a_ctx, info.cqn, in, ZN);
		TEST_ASSERT_EQUAL(n, ZN, "%s: post %d", z->name, n);
		n = rte_mlx5cq_poll_burst(cq, out, 7);
		n += rte_mlx5cq_poll_burst(cq, out + n, ZN - n);
		TEST_ASSERT_EQUAL(n, ZN, "%s round %u: polled %d", z->name,
				  round, n);
		for (i = 0; i < ZN; i++)
			TEST_CHECK(zcheck(z, &out[i], got++));
	}
	TEST_ASSERT(test_cq_cnt(cq)->sessions >= 8 &&
		    test_cq_cnt(cq)->minis >= 8 * (ZN - 1),
		    "%s: %" PRIu64 " sessions, %" PRIu64 " minis: not compressed",
		    z->name, test_cq_cnt(cq)->sessions, test_cq_cnt(cq)->minis);
	TEST_ASSERT(seq > 2u << LOG_N, "%s: no wrap", z->name);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy handle");
	mlx5_devx_cq_destroy(&dcq);
	TEST_CHECK(usage_take(&u1));
	return usage_same(&u0, &u1, z->name);
}

static int
test_attach_compressed(void)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(zcases); i++)
		TEST_CHECK(attach_one_format(&zcases[i]));
	return TEST_SUCCESS;
}

/* A size that is not the CQ's is refused, nothing left behind. */
static int
test_attach_wrong_size(void)
{
	struct mlx5_devx_cq dcq;
	struct usage u0, u1;

	TEST_CHECK(devx_cq_make(&dcq));
	TEST_CHECK(usage_take(&u0));
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_mlx5cq_attach(a_dev, &dcq, LOG_N + 1),
			 "log_desc_n not the CQ's accepted");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno %d", rte_errno);
	TEST_CHECK(usage_take(&u1));
	TEST_CHECK(usage_same(&u0, &u1, "wrong size"));
	mlx5_devx_cq_destroy(&dcq);
	return TEST_SUCCESS;
}

static struct unit_test_suite attach_suite = {
	.suite_name = "attach",
	.setup = attach_setup,
	.teardown = attach_teardown,
	.unit_test_cases = {
		TEST_CASE(test_attach_poll),
		TEST_CASE(test_attach_invalid),
		TEST_CASE(test_attach_busy),
		TEST_CASE(test_attach_compressed),
		TEST_CASE(test_attach_wrong_size),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(attach, attach_suite);
