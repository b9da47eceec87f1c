/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_verbs_use": a verbs CQ in use: _mlx5dv_query_device's answers,
 * completions the model writes into verbs rings (hand-written images
 * after the PRM layouts, 64 and 128 B, padded), completion channels, and
 * a device that refuses to close while a CQ lives. Fixture:
 * test_emu_verbs_fixture.c.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>
#include <rte_bitops.h>
#include <rte_common.h>

#include <mlx5_glue.h>

#include <mlx5_emu.h>

#include "test.h"
#include "test_emu_verbs_fixture.h"

/* ---- dv_query_device ------------------------------------------------- */

static int
query(struct ibv_context *ctx, uint64_t mask, struct mlx5dv_context *dv)
{
	memset(dv, 0xcc, sizeof(*dv));
	dv->comp_mask = mask;
	return mlx5_glue->dv_query_device(ctx, dv);
}

/*
 * rdma-core _mlx5dv_query_device() with the kernel's answers
 * (mlx5_ib_query_device): CQE_128B_COMP from cqe_compression_128,
 * CQE_128B_PAD from cqe_128_always; cqe_comp_caps only when
 * asked: max_num and HASH | CSUM (| CSUM_STRIDX with the stride index),
 * zero without compression.
 */
static int
test_query_device(void)
{
	const uint64_t f128 = MLX5DV_CONTEXT_FLAGS_CQE_128B_COMP |
			      MLX5DV_CONTEXT_FLAGS_CQE_128B_PAD;
	struct mlx5_emu_caps caps;
	struct mlx5dv_context dv;
	struct ibv_context *ctx;

	ctx = ev_open_dev(NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	TEST_ASSERT_SUCCESS(query(ctx, MLX5DV_CONTEXT_MASK_CQE_COMPRESION, &dv),
			    "query");
	TEST_ASSERT_EQUAL(dv.version, 0, "version");
	TEST_ASSERT_EQUAL((dv.flags & f128), f128, "flags 0x%" PRIx64, dv.flags);
	TEST_ASSERT(dv.flags & MLX5DV_CONTEXT_FLAGS_CQE_V1, "CQE_V1");
	TEST_ASSERT_EQUAL(dv.comp_mask, MLX5DV_CONTEXT_MASK_CQE_COMPRESION,
			  "comp_mask 0x%" PRIx64, dv.comp_mask);
	TEST_ASSERT_EQUAL(dv.cqe_comp_caps.max_num, 64, "max_num %u",
			  dv.cqe_comp_caps.max_num);
	TEST_ASSERT_EQUAL(dv.cqe_comp_caps.supported_format, 0x7,
			  "formats 0x%x", dv.cqe_comp_caps.supported_format);
	/* Not asked: not answered, left as it was. */
	TEST_ASSERT_SUCCESS(query(ctx, 0, &dv), "query");
	TEST_ASSERT_EQUAL(dv.comp_mask, 0, "comp_mask");
	TEST_ASSERT_EQUAL(dv.cqe_comp_caps.max_num, 0xcccccccc, "touched");
	/* Asked for something the model has no answer for. */
	TEST_ASSERT_SUCCESS(query(ctx, MLX5DV_CONTEXT_MASK_CQE_COMPRESION |
				  MLX5DV_CONTEXT_MASK_CRYPTO_OFFLOAD, &dv),
			    "query");
	TEST_ASSERT_EQUAL(dv.comp_mask, MLX5DV_CONTEXT_MASK_CQE_COMPRESION,
			  "comp_mask 0x%" PRIx64, dv.comp_mask);
	TEST_CHECK(ev_close_dev(ctx));

	ev_default_caps(&caps);
	caps.cqe_compression_max_num = 16;
	caps.mini_cqe_resp_stride_index = 0;
	caps.cqe_compression_128 = 0;
	caps.cqe_128_always = 0;
	ctx = ev_open_dev(&caps);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	TEST_ASSERT_SUCCESS(query(ctx, MLX5DV_CONTEXT_MASK_CQE_COMPRESION, &dv),
			    "query");
	TEST_ASSERT_EQUAL((dv.flags & f128), 0, "flags 0x%" PRIx64, dv.flags);
	TEST_ASSERT_EQUAL(dv.cqe_comp_caps.max_num, 16, "max_num %u",
			  dv.cqe_comp_caps.max_num);
	TEST_ASSERT_EQUAL(dv.cqe_comp_caps.supported_format, 0x3,
			  "formats 0x%x", dv.cqe_comp_caps.supported_format);
	TEST_CHECK(ev_close_dev(ctx));

	/* Each flag follows its own capability. */
	ev_default_caps(&caps);
	caps.cqe_128_always = 0;
	ctx = ev_open_dev(&caps);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	TEST_ASSERT_SUCCESS(query(ctx, 0, &dv), "query");
	TEST_ASSERT_EQUAL((dv.flags & f128), MLX5DV_CONTEXT_FLAGS_CQE_128B_COMP,
			  "flags 0x%" PRIx64, dv.flags);
	TEST_CHECK(ev_close_dev(ctx));
	ev_default_caps(&caps);
	caps.cqe_compression_128 = 0;
	ctx = ev_open_dev(&caps);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	TEST_ASSERT_SUCCESS(query(ctx, 0, &dv), "query");
	TEST_ASSERT_EQUAL((dv.flags & f128), MLX5DV_CONTEXT_FLAGS_CQE_128B_PAD,
			  "flags 0x%" PRIx64, dv.flags);
	TEST_CHECK(ev_close_dev(ctx));

	ev_default_caps(&caps);
	caps.cqe_compression = 0;
	ctx = ev_open_dev(&caps);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	TEST_ASSERT_SUCCESS(query(ctx, MLX5DV_CONTEXT_MASK_CQE_COMPRESION, &dv),
			    "query");
	TEST_ASSERT_EQUAL(dv.comp_mask, MLX5DV_CONTEXT_MASK_CQE_COMPRESION,
			  "comp_mask");
	TEST_ASSERT_EQUAL(dv.cqe_comp_caps.max_num, 0, "max_num");
	TEST_ASSERT_EQUAL(dv.cqe_comp_caps.supported_format, 0, "formats");
	TEST_CHECK(ev_close_dev(ctx));
	return TEST_SUCCESS;
}

/* ---- completions written by the device model ------------------------- */

static void
be16_at(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void
be32_at(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* The completions posted, and their 64 B images by hand (PRM offsets:
 * struct mlx5_cqe64 / mlx5_err_cqe in mlx5dv.h, big endian; fields the
 * kind does not carry are zero).
 */
static const struct mlx5_emu_wc post_cpl[] = {
	{ .kind = MLX5_EMU_WC_REQ, .solicited = 1, .s_wqe_opcode = 0x0a,
	  .wqe_counter = 0x1234, .byte_cnt = 0x11223344,
	  .qpn = 0xabcdef, .timestamp = 0x0102030405060708ull },
	{ .kind = MLX5_EMU_WC_RESP, .rx_hash_type = 0x5a,
	  .wqe_counter = 7, .hdr_type_etc = 0x0601, .vlan_info = 0x0123,
	  .csum = 0xbeef, .byte_cnt = 1500, .rx_hash_res = 0xdeadbeef,
	  .qpn = 0x000077, .flow_table_metadata = 0xcafef00d,
	  .timestamp = 0x1112131415161718ull },
	{ .kind = MLX5_EMU_WC_RESP_ERR, .syndrome = 0x04,
	  .vendor_syndrome = 0x32, .wqe_counter = 0x0102, .qpn = 0x000123 },
	{ .kind = MLX5_EMU_WC_REQ_ERR, .syndrome = 0x15,
	  .vendor_syndrome = 0x81, .s_wqe_opcode = 0x08,
	  .wqe_counter = 0xfffe, .qpn = 0x00fedc },
};

static void
post_image(unsigned int k, unsigned int owner, uint8_t *c)
{
	memset(c, 0, 64);
	switch (k) {
	case 0: /* REQ (opcode 0), solicited. */
		be32_at(c + 44, 0x11223344); /* byte_cnt */
		be32_at(c + 48, 0x01020304); /* timestamp */
		be32_at(c + 52, 0x05060708);
		c[56] = 0x0a; /* s_wqe_opcode */
		c[57] = 0xab; c[58] = 0xcd; c[59] = 0xef; /* qpn */
		be16_at(c + 60, 0x1234); /* wqe_counter */
		c[63] = 0x0 << 4 | 1 << 1 | owner;
		break;
	case 1: /* RESP_SEND (opcode 2). */
		be32_at(c + 12, 0xdeadbeef); /* rx_hash_res */
		c[16] = 0x5a; /* rx_hash_type */
		be16_at(c + 20, 0xbeef); /* csum */
		be16_at(c + 28, 0x0601); /* hdr_type_etc */
		be16_at(c + 30, 0x0123); /* vlan_info */
		be32_at(c + 36, 0xcafef00d); /* flow_table_metadata */
		be32_at(c + 44, 1500); /* byte_cnt */
		be32_at(c + 48, 0x11121314);
		be32_at(c + 52, 0x15161718);
		be32_at(c + 56, 0x00000077); /* sop_drop_qpn */
		be16_at(c + 60, 7);
		c[63] = 0x2 << 4 | owner;
		break;
	case 2: /* RESP_ERR (opcode 14). */
		c[54] = 0x32; /* vendor_err_synd */
		c[55] = 0x04; /* syndrome: local protection */
		be32_at(c + 56, 0x00000123);
		be16_at(c + 60, 0x0102);
		c[63] = 0xe << 4 | owner;
		break;
	default: /* REQ_ERR (opcode 13). */
		c[54] = 0x81;
		c[55] = 0x15; /* syndrome: retry exceeded */
		c[56] = 0x08; /* s_wqe_opcode */
		c[57] = 0x00; c[58] = 0xfe; c[59] = 0xdc;
		be16_at(c + 60, 0xfffe);
		c[63] = 0xd << 4 | owner;
		break;
	}
}

static int
ring_compare(const uint8_t *ring, const uint8_t *want, size_t bytes,
	     const char *what)
{
	size_t i;

	for (i = 0; i < bytes; i++)
		TEST_ASSERT_EQUAL(ring[i], want[i],
				  "%s: byte %zu (entry byte %zu) is 0x%02x,"
				  " want 0x%02x", what, i, i % 64, ring[i],
				  want[i]);
	return TEST_SUCCESS;
}

/*
 * mlx5_emu_cq_post() into a verbs CQ: the model writes the 64 B CQE (the
 * second half of a 128 B entry, whose first half it zeroes) with the
 * owner bit of the pass, and stops when the ring is full by the consumer
 * counter in the verbs doorbell record.
 */
static int
check_post(struct ibv_context *ctx, uint16_t size, int pad)
{
	struct mlx5dv_cq_init_attr dv;
	struct ibv_cq_init_attr_ex a;
	const unsigned int n = 4;
	uint8_t want[4 * 128];
	struct mlx5dv_cq out;
	struct ibv_cq_ex *cq;
	unsigned int i, k;
	uint8_t *cqe64;
	int ret;

	ev_cq_attr_init(&a, 3);
	memset(&dv, 0, sizeof(dv));
	dv.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE;
	dv.cqe_size = size;
	if (pad) {
		dv.comp_mask |= MLX5DV_CQ_INIT_ATTR_MASK_FLAGS;
		dv.flags = MLX5DV_CQ_INIT_ATTR_FLAGS_CQE_PAD;
	}
	cq = ev_create(ctx, &a, &dv);
	TEST_ASSERT_NOT_NULL(cq, "create: %s", strerror(errno));
	TEST_ASSERT_SUCCESS(ev_dv_cq(cq, &out), "init_obj");
	TEST_ASSERT_EQUAL(out.cqe_cnt, n, "cqe_cnt");
	/* Initial image, then the four completions of the first pass. */
	memset(want, 0, sizeof(want));
	for (i = 0; i < n; i++)
		want[i * size + size - 1] = 0xf0;
	ret = mlx5_emu_cq_post(ctx, out.cqn, post_cpl, RTE_DIM(post_cpl));
	TEST_ASSERT_EQUAL(ret, 4, "posted %d", ret);
	for (k = 0; k < 4; k++)
		post_image(k, 0, want + k * size + (size - 64));
	TEST_CHECK(ring_compare(out.buf, want, n * size, "first pass"));
	/* Full: consumer counter 0, four outstanding. */
	ret = mlx5_emu_cq_post(ctx, out.cqn, post_cpl, 1);
	TEST_ASSERT_EQUAL(ret, 0, "posted %d into a full ring", ret);
	TEST_CHECK(ring_compare(out.buf, want, n * size, "full ring"));
	/* The consumer took two: two more land in entries 0, 1, owner 1. */
	be32_at((uint8_t *)out.dbrec, 2);
	ret = mlx5_emu_cq_post(ctx, out.cqn, post_cpl + 2, 2);
	TEST_ASSERT_EQUAL(ret, 2, "posted %d", ret);
	post_image(2, 1, want + 0 * size + (size - 64));
	post_image(3, 1, want + 1 * size + (size - 64));
	TEST_CHECK(ring_compare(out.buf, want, n * size, "second pass"));
	cqe64 = (uint8_t *)out.buf + (size - 64);
	TEST_ASSERT_EQUAL(cqe64[63], 0xe1, "entry 0 op_own 0x%02x", cqe64[63]);
	/* The doorbell record is the software's: the model wrote neither
	 * word (word 1, the arm word, is still zero).
	 */
	TEST_ASSERT_EQUAL(out.dbrec[1], 0, "arm word changed");
	TEST_ASSERT_SUCCESS(ev_destroy(cq), "destroy");
	return TEST_SUCCESS;
}

static int
test_post(void)
{
	struct ibv_context *ctx;
	struct cnt_alloc c;

	ctx = ev_open_dev(NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	TEST_CHECK(check_post(ctx, 64, 0));
	TEST_CHECK(check_post(ctx, 128, 0));
	TEST_CHECK(check_post(ctx, 128, 1));
	/* Rings from the external allocator start 0x5a-filled. */
	memset(&c, 0, sizeof(c));
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, &c), "allocators");
	TEST_CHECK(check_post(ctx, 128, 0));
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, NULL), "allocators off");
	TEST_ASSERT_EQUAL(c.nlive, 0, "blocks left");
	TEST_CHECK(ev_close_dev(ctx));
	return TEST_SUCCESS;
}

/* A device with CQs cannot be closed; destroying them frees it. */
static int
test_close_busy(void)
{
	struct ibv_context *ctx;
	struct ibv_cq_ex *cq;

	ctx = ev_open_dev(NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	cq = ev_create_n(ctx, 15);
	TEST_ASSERT_NOT_NULL(cq, "create: %s", strerror(errno));
	TEST_ASSERT_EQUAL(mlx5_emu_close(ctx), -EBUSY, "close with a CQ");
	TEST_ASSERT_SUCCESS(ev_destroy(cq), "destroy");
	TEST_CHECK(ev_close_dev(ctx));
	return TEST_SUCCESS;
}

/*
 * A completion channel: it must belong to the context (kernel); the CQ
 * holds a reference while it lives (libibverbs verbs_init_cq /
 * ibv_destroy_cq), so the channel cannot be destroyed before the CQ.
 */
static int
test_channel(void)
{
	struct ibv_comp_channel *ch, *other_ch;
	struct ibv_context *ctx, *other;
	struct ibv_cq_init_attr_ex a;
	struct ibv_cq_ex *cq;
	struct cnt_alloc c;

	ctx = ev_open_dev(NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	other = ev_open_dev(NULL);
	TEST_ASSERT_NOT_NULL(other, "open");
	ch = mlx5_glue->create_comp_channel(ctx);
	TEST_ASSERT_NOT_NULL(ch, "channel");
	other_ch = mlx5_glue->create_comp_channel(other);
	TEST_ASSERT_NOT_NULL(other_ch, "channel");
	ev_cq_attr_init(&a, 15);
	a.channel = ch;
	cq = ev_create(ctx, &a, NULL);
	TEST_ASSERT_NOT_NULL(cq, "create: %s", strerror(errno));
	TEST_ASSERT(mlx5_glue->cq_ex_to_cq(cq)->channel == ch, "cq->channel");
	TEST_ASSERT_EQUAL(ch->refcnt, 1, "refcnt %d", ch->refcnt);
	TEST_ASSERT_NOT_EQUAL(mlx5_glue->destroy_comp_channel(ch), 0,
			      "channel destroyed under its CQ");
	TEST_ASSERT_SUCCESS(ev_destroy(cq), "destroy");
	TEST_ASSERT_EQUAL(ch->refcnt, 0, "refcnt %d", ch->refcnt);
	/* Another context's channel. */
	memset(&c, 0, sizeof(c));
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, &c), "allocators");
	a.channel = other_ch;
	TEST_CHECK(ev_expect_fail(ctx, &a, NULL, EBADF, &c, "foreign channel"));
	TEST_ASSERT_EQUAL(other_ch->refcnt, 0, "refcnt %d", other_ch->refcnt);
	TEST_ASSERT_SUCCESS(ev_set_allocators(ctx, NULL), "allocators off");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_comp_channel(ch), "channel");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_comp_channel(other_ch),
			    "channel");
	TEST_CHECK(ev_close_dev(other));
	TEST_CHECK(ev_close_dev(ctx));
	return TEST_SUCCESS;
}

static struct unit_test_suite emu_verbs_use_suite = {
	.suite_name = "emu_verbs_use",
	.setup = ev_suite_setup,
	.teardown = ev_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_query_device),
		TEST_CASE(test_post),
		TEST_CASE(test_channel),
		TEST_CASE(test_close_busy),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(emu_verbs_use, emu_verbs_use_suite);
