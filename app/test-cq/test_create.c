/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "create": CQ creation on both paths against the emulated HCA.
 *
 * - creation matrix (path x size x CQE size/padding): ring size, info,
 *   public handle fields, initial op_own bytes, the firmware's view;
 * - the CREATE_CQ mailbox compared with an image written here by hand from
 *   the PRM bit layout of mlx5_ifc_create_cq_in_bits / mlx5_ifc_cqc_bits;
 * - every rejected attribute with its errno, and no leak (the rules that
 *   depend on the device's capabilities: suite create_rules);
 * - a verbs-only device and where its rings are.
 * Injected failures: suite create_failures; the doorbell pool and hugepage
 * rings: suite create_pool.
 */

#include "test_create_fixture.h"

/* ---- creation matrix --------------------------------------------------- */

/* The CQ as created: info, handle, ring bytes, firmware view. */
static int
check_created(struct ibv_context *ctx, struct rte_mlx5cq *cq,
	      enum rte_mlx5cq_path path, uint32_t n, uint16_t cqe_size,
	      int pad)
{
	struct rte_mlx5cq_info info;
	struct mlx5_emu_cq_info fw;
	uint32_t entries = ring_entries(n);
	uint32_t stride = cqe_size;
	const uint8_t *ring;
	uint8_t want = path == RTE_MLX5CQ_PATH_DEVX ? 0xf1 : 0xf0;
	uint32_t i;

	TEST_ASSERT_SUCCESS(rte_mlx5cq_info_get(cq, &info), "info_get");
	TEST_ASSERT_EQUAL(info.entries, entries, "entries %u, expected %u",
			  info.entries, entries);
	TEST_ASSERT_EQUAL(info.capacity, entries - 1, "capacity %u",
			  info.capacity);
	TEST_ASSERT_EQUAL(info.cqe_size, cqe_size, "cqe_size %u",
			  info.cqe_size);
	TEST_ASSERT_EQUAL(info.cqe_pad, pad, "cqe_pad %u", info.cqe_pad);
	TEST_ASSERT_EQUAL(info.path, path, "path %d", info.path);
	TEST_ASSERT_EQUAL(info.comp_format, 0, "comp_format");
	TEST_ASSERT_EQUAL(info.ring_size, (size_t)entries * stride,
			  "ring_size %zu", info.ring_size);
	TEST_ASSERT_NOT_NULL(info.ring, "ring");
	TEST_ASSERT_NOT_NULL(info.dbrec, "dbrec");
	TEST_ASSERT_EQUAL(((uintptr_t)info.ring & 4095), 0,
			  "ring %p not 4 KiB aligned", info.ring);
	TEST_ASSERT_EQUAL(((uintptr_t)info.dbrec & 7), 0, "dbrec alignment");
	TEST_ASSERT_NOT_NULL(rte_mem_virt2memseg_list(info.ring),
			     "ring %p not in rte_malloc memory", info.ring);
	TEST_ASSERT_EQUAL(info.ring_page_size, mem_page_size(info.ring),
			  "ring_page_size %" PRIu64, info.ring_page_size);
	/* Public handle fields the inline poll reads. */
	TEST_ASSERT(cq->ring == (volatile uint8_t *)info.ring, "handle ring");
	TEST_ASSERT(cq->dbrec == info.dbrec, "handle dbrec");
	TEST_ASSERT_EQUAL(cq->ci, 0, "ci");
	TEST_ASSERT_EQUAL(cq->mask, entries - 1, "mask %#x", cq->mask);
	TEST_ASSERT_EQUAL(cq->log_n, ilog2(entries), "log_n %u", cq->log_n);
	TEST_ASSERT_EQUAL(cq->stride_shift, (cqe_size == 128 ? 7 : 6),
			  "stride_shift %u", cq->stride_shift);
	TEST_ASSERT_EQUAL(cq->cqe_off, (cqe_size == 128 ? 64 : 0),
			  "cqe_off %u", cq->cqe_off);
	TEST_ASSERT_EQUAL(cq->comp, 0, "comp");
	TEST_ASSERT_EQUAL(cq->cqn, info.cqn, "cqn");
	/* Doorbell record: consumer index 0, arm word 0. */
	TEST_ASSERT_EQUAL(info.dbrec[0], 0, "dbrec[0] %#x", info.dbrec[0]);
	TEST_ASSERT_EQUAL(info.dbrec[1], 0, "dbrec[1] %#x", info.dbrec[1]);
	/* op_own is byte 63 of the 64 B CQE, the second half of 128 B. */
	ring = info.ring;
	for (i = 0; i < entries; i++) {
		uint8_t b = ring[(size_t)i * stride + stride - 1];

		TEST_ASSERT_EQUAL(b, want, "entry %u op_own %#x, expected %#x",
				  i, b, want);
	}
	/* Firmware view. */
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(ctx, info.cqn, &fw),
			    "CQ %#x unknown to the device", info.cqn);
	TEST_ASSERT_EQUAL(fw.verbs, (path == RTE_MLX5CQ_PATH_VERBS), "verbs");
	TEST_ASSERT_EQUAL(fw.log_cq_size, ilog2(entries), "log_cq_size %u",
			  fw.log_cq_size);
	TEST_ASSERT_EQUAL(fw.cqe_sz, (cqe_size == 64 ? 0 : (pad ? 2 : 1)),
			  "cqe_sz %u", fw.cqe_sz);
	TEST_ASSERT(fw.ring == info.ring, "fw ring %p vs %p", fw.ring,
		    info.ring);
	TEST_ASSERT(fw.dbrec == info.dbrec, "fw dbrec");
	TEST_ASSERT_EQUAL(fw.cqe_comp_en, 0, "cqe_comp_en");
	if (path == RTE_MLX5CQ_PATH_DEVX) {
		struct ring_umem ru;
		struct mlx5_emu_umem_info um;

		expect_ring_umem(info.ring, info.ring_size, &ru);
		TEST_ASSERT_EQUAL(fw.cq_umem_id, info.umem_id, "umem id");
		TEST_ASSERT_EQUAL(fw.cq_umem_offset, ru.offset,
				  "umem offset %" PRIu64, fw.cq_umem_offset);
		TEST_ASSERT_SUCCESS(mlx5_emu_umem_query(ctx, info.umem_id,
							&um), "umem query");
		TEST_ASSERT_EQUAL(um.addr, ru.start, "umem start %#" PRIx64,
				  um.addr);
		TEST_ASSERT_EQUAL(um.size, ru.len, "umem size %" PRIu64,
				  um.size);
		TEST_ASSERT_EQUAL(fw.log_page_size, info.log_page_size,
				  "log_page_size");
		TEST_ASSERT_EQUAL(info.log_page_size,
				  expect_log_page_size(info.ring,
						       info.ring_size),
				  "log_page_size %u", info.log_page_size);
		TEST_ASSERT_EQUAL(fw.uar_page, info.uar_page, "uar_page");
		TEST_ASSERT_EQUAL(fw.eqn, info.eqn, "eqn");
	} else {
		TEST_ASSERT_EQUAL(info.umem_id, 0, "verbs umem_id");
	}
	return TEST_SUCCESS;
}

static void
caps_small(struct mlx5_emu_caps *c)
{
	c->log_max_cq_sz = 16;
}

static int
test_create_matrix(void)
{
	static const uint32_t sizes[] = { 1, 2, 255, 256, 4096, 65535 };
	static const struct { uint16_t size; int pad; } shapes[] = {
		{ 64, 0 }, { 128, 0 }, { 128, 1 },
	};
	static const enum rte_mlx5cq_path paths[] = {
		RTE_MLX5CQ_PATH_DEVX, RTE_MLX5CQ_PATH_VERBS,
	};
	struct ibv_context *ctx;
	struct rte_mlx5cq_dev *dev;
	struct rte_mlx5cq_attr attr;
	struct rte_mlx5cq *cq;
	struct snap before, after;
	unsigned int p, s, h;
	int ret = TEST_FAILED;

	/* 2^16 entries at most: the maximum is tested without 512 MiB. */
	ctx = emu_open_caps("create_mx", caps_small);
	TEST_ASSERT_NOT_NULL(ctx, "emu open");
	dev = rte_mlx5cq_dev_open_ex(ctx, SOCKET_ID_ANY,
				     RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS);
	if (dev == NULL) {
		printf("  dev_open: %d\n", rte_errno);
		goto out_ctx;
	}
	for (p = 0; p < RTE_DIM(paths); p++) {
		for (s = 0; s < RTE_DIM(sizes); s++) {
			for (h = 0; h < RTE_DIM(shapes); h++) {
				attr_init(&attr, sizes[s], paths[p]);
				attr_cqe_size(&attr, shapes[h].size,
					      shapes[h].pad);
				if (snap_take(ctx, dev, &before))
					goto out;
				cq = rte_mlx5cq_create(dev, &attr);
				if (cq == NULL) {
					printf("  create %s n=%u %u%s: %d\n",
					       p ? "verbs" : "devx", sizes[s],
					       shapes[h].size,
					       shapes[h].pad ? " pad" : "",
					       rte_errno);
					goto out;
				}
				if (check_created(ctx, cq, paths[p], sizes[s],
						  shapes[h].size,
						  shapes[h].pad)) {
					printf("  case %s n=%u %u%s\n",
					       p ? "verbs" : "devx", sizes[s],
					       shapes[h].size,
					       shapes[h].pad ? " pad" : "");
					rte_mlx5cq_destroy(cq);
					goto out;
				}
				if (rte_mlx5cq_destroy(cq) != 0) {
					printf("  destroy: %d\n", rte_errno);
					goto out;
				}
				if (snap_take(ctx, dev, &after) ||
				    snap_same(&before, &after,
					      "create+destroy"))
					goto out;
			}
		}
	}
	ret = TEST_SUCCESS;
out:
	if (rte_mlx5cq_dev_close(dev) != 0)
		ret = TEST_FAILED;
out_ctx:
	if (mlx5_emu_close(ctx) != 0)
		ret = TEST_FAILED;
	return ret;
}

/* The largest CQ of the default device, 64 B CQEs, DevX. */
static int
test_create_max_default(void)
{
	struct rte_mlx5cq_attr attr;
	struct rte_mlx5cq *cq;
	uint32_t max = (UINT32_C(1) << DEF_LOG_MAX_CQ_SZ) - 1;
	int ret;

	attr_init(&attr, max, RTE_MLX5CQ_PATH_DEVX);
	cq = rte_mlx5cq_create(g_dev, &attr);
	TEST_ASSERT_NOT_NULL(cq, "create cqe=%u: %d", max, rte_errno);
	ret = check_created(g_ctx, cq, RTE_MLX5CQ_PATH_DEVX, max, 64, 0);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy");
	return ret;
}

/* ---- CREATE_CQ mailbox ------------------------------------------------- */

/*
 * Expected CREATE_CQ input mailbox, from the PRM layout (mlx5_prm.h
 * mlx5_ifc_create_cq_in_bits, mlx5_ifc_cqc_bits; bit offsets are from the
 * most significant bit of each big-endian dword):
 *   0x00 opcode[31:16] = 0x400, uid[15:0]; 0x04 op_mod[15:0]
 *   0x10 cq_context (64 bytes):
 *     +0x00 status 31:28, dbr_umem_valid 25, cqe_sz 23:21, cc 20, oi 17,
 *           cq_period_mode 16:15, cqe_comp_en 14, mini_cqe_res_format
 *           13:12, st 11:8, cqe_comp_layout 6:0
 *     +0x04 dbr_umem_id
 *     +0x08 page_offset 11:6, mini_cqe_res_format_ext 3:2,
 *           cq_timestamp_format 1:0
 *     +0x0c log_cq_size 28:24, uar_page 23:0
 *     +0x10 cq_period 27:16, cq_max_count 15:0
 *     +0x14 c_eqn 7:0
 *     +0x18 log_page_size 28:24
 *     +0x38 dbr_addr (64 bits)
 *   0x50 cq_umem_offset (64 bits), 0x58 cq_umem_id, 0x5c cq_umem_valid 31
 *   0x110 end (the PAS array follows; none with a umem).
 */
struct golden {
	uint32_t cqe_sz; /* 0, 1, 2 */
	uint32_t oi;
	uint32_t comp_en;
	uint32_t prm_fmt; /* 0..4, split into format and _ext. */
	uint32_t layout;
	uint32_t dbr_umem_id;
	uint32_t log_cq_size;
	uint32_t uar_page;
	uint32_t eqn;
	uint32_t log_page_size;
	uint64_t dbr_addr;
	uint64_t cq_umem_offset;
	uint32_t cq_umem_id;
};

#define CREATE_CQ_IN_LEN 0x110

static void
golden_image(uint8_t *img, const struct golden *g)
{
	const size_t cqc = 0x10;

	memset(img, 0, CREATE_CQ_IN_LEN);
	put_be32(img, 0x00, UINT32_C(0x400) << 16);
	put_be32(img, cqc + 0x00, (UINT32_C(1) << 25) | (g->cqe_sz << 21) |
		 (g->oi << 17) | (g->comp_en << 14) |
		 ((g->prm_fmt & 3) << 12) | g->layout);
	put_be32(img, cqc + 0x04, g->dbr_umem_id);
	put_be32(img, cqc + 0x08, (g->prm_fmt >> 2) << 2);
	put_be32(img, cqc + 0x0c, (g->log_cq_size << 24) | g->uar_page);
	put_be32(img, cqc + 0x14, g->eqn);
	put_be32(img, cqc + 0x18, g->log_page_size << 24);
	put_be32(img, cqc + 0x38, (uint32_t)(g->dbr_addr >> 32));
	put_be32(img, cqc + 0x3c, (uint32_t)g->dbr_addr);
	put_be32(img, 0x50, (uint32_t)(g->cq_umem_offset >> 32));
	put_be32(img, 0x54, (uint32_t)g->cq_umem_offset);
	put_be32(img, 0x58, g->cq_umem_id);
	put_be32(img, 0x5c, UINT32_C(1) << 31);
}

static int
golden_compare(struct ibv_context *ctx, const struct golden *g)
{
	uint8_t got[4096];
	uint8_t want[CREATE_CQ_IN_LEN];
	size_t len = sizeof(got);
	unsigned int i;

	TEST_ASSERT_SUCCESS(mlx5_emu_last_cmd_in(ctx, got, &len),
			    "no mailbox captured");
	TEST_ASSERT_EQUAL(len, (size_t)CREATE_CQ_IN_LEN,
			  "mailbox length %zu", len);
	golden_image(want, g);
	for (i = 0; i < CREATE_CQ_IN_LEN; i++) {
		if (got[i] != want[i]) {
			printf("  mailbox byte %#x: got %#04x want %#04x\n",
			       i, got[i], want[i]);
			printf("  dword %#x: got %02x%02x%02x%02x want"
			       " %02x%02x%02x%02x\n", i & ~3u,
			       got[i & ~3u], got[(i & ~3u) + 1],
			       got[(i & ~3u) + 2], got[(i & ~3u) + 3],
			       want[i & ~3u], want[(i & ~3u) + 1],
			       want[(i & ~3u) + 2], want[(i & ~3u) + 3]);
			return TEST_FAILED;
		}
	}
	return TEST_SUCCESS;
}

static int
test_golden_mailbox(void)
{
	struct ibv_context *ctx;
	struct rte_mlx5cq_dev *dev;
	struct rte_mlx5cq_attr attr;
	struct rte_mlx5cq *a = NULL, *b = NULL;
	struct rte_mlx5cq_info ia, ib;
	struct mlx5_emu_cq_info fa;
	struct mlx5_emu_umem_info um;
	struct golden g;
	struct ring_umem ru;
	uint32_t eqn2, eqn3;
	int ret = TEST_FAILED;

	ctx = mlx5_emu_open("create_gold", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "emu open");
	dev = rte_mlx5cq_dev_open_ex(ctx, SOCKET_ID_ANY,
				     RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS);
	if (dev == NULL)
		goto out_ctx;
	/* EQ numbers asked by the test itself. */
	if (mlx5_glue->devx_query_eqn(ctx, 2, &eqn2) ||
	    mlx5_glue->devx_query_eqn(ctx, 3, &eqn3)) {
		printf("  devx_query_eqn failed\n");
		goto out;
	}
	/* A: 255 -> 256 entries, 128 B padded, CSUM_STRIDX, oi, vector 2. */
	attr_init(&attr, 255, RTE_MLX5CQ_PATH_DEVX);
	attr_cqe_size(&attr, 128, 1);
	attr_comp(&attr, RTE_MLX5CQ_COMP_CSUM_STRIDX,
		  RTE_MLX5CQ_COMP_LAYOUT_BASIC);
	attr.flags |= RTE_MLX5CQ_F_IGNORE_OVERRUN;
	attr.comp_vector = 2;
	a = rte_mlx5cq_create(dev, &attr);
	if (a == NULL) {
		printf("  create A: %d\n", rte_errno);
		goto out;
	}
	if (rte_mlx5cq_info_get(a, &ia) || mlx5_emu_cq_query(ctx, ia.cqn, &fa))
		goto out;
	/* The doorbell umem: one 4 KiB page holding the record at 0. */
	if (mlx5_emu_umem_query(ctx, fa.dbr_umem_id, &um) ||
	    um.size != 4096 ||
	    um.addr != ((uintptr_t)ia.dbrec & ~UINT64_C(4095)) ||
	    ((uintptr_t)ia.dbrec & 4095) != 0) {
		printf("  doorbell umem %u: size %" PRIu64 " addr %#" PRIx64
		       " dbrec %p\n", fa.dbr_umem_id, um.size, um.addr,
		       (void *)(uintptr_t)ia.dbrec);
		goto out;
	}
	memset(&g, 0, sizeof(g));
	g.cqe_sz = 2;
	g.oi = 1;
	g.comp_en = 1;
	g.prm_fmt = 3; /* MLX5_CQE_RESP_FORMAT_CSUM_STRIDX */
	g.layout = 0;
	g.dbr_umem_id = fa.dbr_umem_id;
	g.log_cq_size = 8;
	g.uar_page = ia.uar_page;
	g.eqn = eqn2;
	g.log_page_size = expect_log_page_size(ia.ring, ia.ring_size);
	g.dbr_addr = 0;
	expect_ring_umem(ia.ring, ia.ring_size, &ru);
	g.cq_umem_offset = ru.offset;
	g.cq_umem_id = ia.umem_id;
	if (golden_compare(ctx, &g) != TEST_SUCCESS) {
		printf("  CQ A mailbox differs\n");
		goto out;
	}
	/* B: 1000 -> 1024 entries, 64 B, L34H_STRIDX enhanced, vector 3. */
	attr_init(&attr, 1000, RTE_MLX5CQ_PATH_DEVX);
	attr_comp(&attr, RTE_MLX5CQ_COMP_L34H_STRIDX,
		  RTE_MLX5CQ_COMP_LAYOUT_ENHANCED);
	attr.comp_vector = 3;
	b = rte_mlx5cq_create(dev, &attr);
	if (b == NULL) {
		printf("  create B: %d\n", rte_errno);
		goto out;
	}
	if (rte_mlx5cq_info_get(b, &ib))
		goto out;
	memset(&g, 0, sizeof(g));
	g.cqe_sz = 0;
	g.oi = 0;
	g.comp_en = 1;
	g.prm_fmt = 4; /* L34H_STRIDX: format 0, _ext 1 */
	g.layout = 1;
	g.dbr_umem_id = fa.dbr_umem_id; /* Same doorbell page. */
	g.log_cq_size = 10;
	g.uar_page = ia.uar_page;
	g.eqn = eqn3;
	g.log_page_size = expect_log_page_size(ib.ring, ib.ring_size);
	g.dbr_addr = DBR_SLOT; /* Second slot of the page. */
	expect_ring_umem(ib.ring, ib.ring_size, &ru);
	g.cq_umem_offset = ru.offset;
	g.cq_umem_id = ib.umem_id;
	if (golden_compare(ctx, &g) != TEST_SUCCESS) {
		printf("  CQ B mailbox differs\n");
		goto out;
	}
	if (ib.dbrec != ia.dbrec + DBR_SLOT / 4) {
		printf("  B record %p not 64 B after A's %p\n",
		       (void *)(uintptr_t)ib.dbrec,
		       (void *)(uintptr_t)ia.dbrec);
		goto out;
	}
	/* Compression shows in the handle and the info. */
	if (a->comp != 4 || b->comp != (5 | 0x80) ||
	    ia.comp_format != RTE_MLX5CQ_COMP_CSUM_STRIDX ||
	    ib.comp_layout != RTE_MLX5CQ_COMP_LAYOUT_ENHANCED) {
		printf("  comp fields: a %#x b %#x\n", a->comp, b->comp);
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	if (b != NULL && rte_mlx5cq_destroy(b) != 0)
		ret = TEST_FAILED;
	if (a != NULL && rte_mlx5cq_destroy(a) != 0)
		ret = TEST_FAILED;
	if (dev != NULL && rte_mlx5cq_dev_close(dev) != 0)
		ret = TEST_FAILED;
out_ctx:
	if (mlx5_emu_close(ctx) != 0)
		ret = TEST_FAILED;
	return ret;
}

/* ---- rejected attributes ----------------------------------------------- */

static int
expect_reject(struct ibv_context *ctx, struct rte_mlx5cq_dev *dev,
	      const struct rte_mlx5cq_attr *attr, int err, const char *what)
{
	struct snap before, after;
	struct rte_mlx5cq *cq;

	TEST_CHECK(snap_take(ctx, dev, &before));
	rte_errno = 0;
	cq = rte_mlx5cq_create(dev, attr);
	if (cq != NULL) {
		rte_mlx5cq_destroy(cq);
		printf("  %s: accepted\n", what);
		return TEST_FAILED;
	}
	TEST_ASSERT_EQUAL(rte_errno, err, "%s: errno %d (%s), expected %d",
			  what, rte_errno, strerror(rte_errno), err);
	TEST_CHECK(snap_take(ctx, dev, &after));
	return snap_same(&before, &after, what);
}

static int
test_reject_attrs(void)
{
	const uint32_t devmax = (UINT32_C(1) << DEF_LOG_MAX_CQ_SZ) - 1;
	struct rte_mlx5cq_attr a;
	unsigned int p;

	for (p = RTE_MLX5CQ_PATH_AUTO; p <= RTE_MLX5CQ_PATH_VERBS; p++) {
		enum rte_mlx5cq_path path = (enum rte_mlx5cq_path)p;

		attr_init(&a, 16, path);
		a.comp_mask = 1u << 4; /* The first bit after MODERATION. */
		TEST_CHECK(expect_reject(g_ctx, g_dev, &a, EINVAL, "comp_mask"));
		attr_init(&a, 16, path);
		a.comp_mask = 1u << 31;
		TEST_CHECK(expect_reject(g_ctx, g_dev, &a, EINVAL, "comp_mask31"));
		attr_init(&a, 16, path);
		a.flags = 1u << 3;
		TEST_CHECK(expect_reject(g_ctx, g_dev, &a, EINVAL, "flags"));
		attr_init(&a, 0, path);
		TEST_CHECK(expect_reject(g_ctx, g_dev, &a, EINVAL, "cqe 0"));
		attr_init(&a, UINT32_C(1) << 24, path);
		TEST_CHECK(expect_reject(g_ctx, g_dev, &a, EINVAL, "cqe 2^24"));
		attr_init(&a, (UINT32_C(1) << 24) - 1, path);
		TEST_CHECK(expect_reject(g_ctx, g_dev, &a, EINVAL,
				    "cqe 2^24-1 above device"));
		attr_init(&a, UINT32_MAX, path);
		TEST_CHECK(expect_reject(g_ctx, g_dev, &a, EINVAL, "cqe overflow"));
		attr_init(&a, devmax + 1, path);
		TEST_CHECK(expect_reject(g_ctx, g_dev, &a, EINVAL,
				    "cqe above log_max_cq_sz"));
		attr_init(&a, 16, path);
		a.comp_mask = RTE_MLX5CQ_ATTR_WC_FLAGS;
		a.wc_flags = IBV_WC_EX_WITH_BYTE_LEN | (UINT64_C(1) << 12);
		TEST_CHECK(expect_reject(g_ctx, g_dev, &a, ENOTSUP, "wc_flags"));
		attr_init(&a, 16, path);
		a.comp_mask = RTE_MLX5CQ_ATTR_WC_FLAGS;
		a.wc_flags = UINT64_C(1) << 40;
		TEST_CHECK(expect_reject(g_ctx, g_dev, &a, ENOTSUP, "wc_flags 40"));
		attr_init(&a, 16, path);
		attr_cqe_size(&a, 32, 0);
		TEST_CHECK(expect_reject(g_ctx, g_dev, &a, EINVAL, "cqe_size 32"));
		attr_init(&a, 16, path);
		attr_cqe_size(&a, 256, 0);
		TEST_CHECK(expect_reject(g_ctx, g_dev, &a, EINVAL, "cqe_size 256"));
		attr_init(&a, 16, path);
		attr_cqe_size(&a, 0, 0);
		TEST_CHECK(expect_reject(g_ctx, g_dev, &a, EINVAL, "cqe_size 0"));
		attr_init(&a, 16, path);
		attr_cqe_size(&a, 64, 1);
		TEST_CHECK(expect_reject(g_ctx, g_dev, &a, EINVAL, "pad with 64"));
		attr_init(&a, 16, path);
		a.flags = RTE_MLX5CQ_F_CQE_PAD; /* Default size: 64 B. */
		TEST_CHECK(expect_reject(g_ctx, g_dev, &a, EINVAL,
				    "pad without size"));
		attr_init(&a, 16, path);
		attr_comp(&a, RTE_MLX5CQ_COMP_HASH | RTE_MLX5CQ_COMP_CSUM, 0);
		TEST_CHECK(expect_reject(g_ctx, g_dev, &a, EINVAL, "two formats"));
		attr_init(&a, 16, path);
		attr_comp(&a, 0, 0);
		TEST_CHECK(expect_reject(g_ctx, g_dev, &a, EINVAL, "no format"));
		attr_init(&a, 16, path);
		attr_comp(&a, 1u << 5, 0);
		TEST_CHECK(expect_reject(g_ctx, g_dev, &a, EINVAL, "format bit 5"));
		attr_init(&a, 16, path);
		attr_comp(&a, RTE_MLX5CQ_COMP_HASH, 2);
		TEST_CHECK(expect_reject(g_ctx, g_dev, &a, EINVAL, "layout 2"));
		attr_init(&a, 16, path);
		a.comp_vector = DEF_VECTORS;
		TEST_CHECK(expect_reject(g_ctx, g_dev, &a, EINVAL, "comp_vector"));
		attr_init(&a, 16, path);
		a.comp_vector = UINT32_MAX;
		TEST_CHECK(expect_reject(g_ctx, g_dev, &a, EINVAL,
				    "comp_vector max"));
		attr_init(&a, 16, path);
		a.socket = RTE_MAX_NUMA_NODES + 1;
		TEST_CHECK(expect_reject(g_ctx, g_dev, &a, EINVAL, "socket"));
		attr_init(&a, 16, path);
		a.socket = -7;
		TEST_CHECK(expect_reject(g_ctx, g_dev, &a, EINVAL, "socket -7"));
	}
	attr_init(&a, 16, RTE_MLX5CQ_PATH_ATTACH);
	TEST_CHECK(expect_reject(g_ctx, g_dev, &a, EINVAL, "path attach"));
	attr_init(&a, 16, (enum rte_mlx5cq_path)9);
	TEST_CHECK(expect_reject(g_ctx, g_dev, &a, EINVAL, "path 9"));
	/* Capability-dependent rules: suite create_rules. */
	/* NULL arguments. */
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_mlx5cq_create(g_dev, NULL), "NULL attr");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "NULL attr errno");
	attr_init(&a, 16, RTE_MLX5CQ_PATH_AUTO);
	rte_errno = 0;
	TEST_ASSERT_NULL(rte_mlx5cq_create(NULL, &a), "NULL dev");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "NULL dev errno");
	return TEST_SUCCESS;
}

/* Accepted corner values (the other side of the rejections). */
static int
test_accept_attrs(void)
{
	static const enum rte_mlx5cq_path paths[] = {
		RTE_MLX5CQ_PATH_DEVX, RTE_MLX5CQ_PATH_VERBS,
	};
	struct rte_mlx5cq_attr a;
	struct rte_mlx5cq_info info;
	struct rte_mlx5cq *cq;
	unsigned int p;

	for (p = 0; p < RTE_DIM(paths); p++) {
		/* Every wc_flag of the mlx5 provider's supported set. */
		attr_init(&a, 100, paths[p]);
		a.comp_mask = RTE_MLX5CQ_ATTR_WC_FLAGS;
		a.wc_flags = IBV_WC_STANDARD_FLAGS |
			     IBV_WC_EX_WITH_COMPLETION_TIMESTAMP |
			     IBV_WC_EX_WITH_CVLAN | IBV_WC_EX_WITH_FLOW_TAG |
			     IBV_WC_EX_WITH_TM_INFO |
			     IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK;
		a.flags = RTE_MLX5CQ_F_ALL & ~RTE_MLX5CQ_F_CQE_PAD;
		/* DevX only (suite create_rules). */
		if (paths[p] == RTE_MLX5CQ_PATH_VERBS)
			a.flags &= ~(RTE_MLX5CQ_F_COLLAPSED |
				     RTE_MLX5CQ_F_SCQE_BREAK_MODERATION);
		a.comp_vector = DEF_VECTORS - 1;
		a.socket = rte_socket_id_by_idx(0);
		cq = rte_mlx5cq_create(g_dev, &a);
		TEST_ASSERT_NOT_NULL(cq, "path %d: %d", paths[p], rte_errno);
		TEST_ASSERT_SUCCESS(rte_mlx5cq_info_get(cq, &info), "info");
		TEST_ASSERT_EQUAL(info.socket, a.socket, "socket %d",
				  info.socket);
		TEST_ASSERT_EQUAL(info.flags, a.flags, "flags %#x",
				  info.flags);
		TEST_ASSERT_EQUAL(info.entries, 128, "entries");
		TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy");
		/* Each compression format of the path. */
		attr_init(&a, 64, paths[p]);
		attr_comp(&a, RTE_MLX5CQ_COMP_HASH, 0);
		cq = rte_mlx5cq_create(g_dev, &a);
		TEST_ASSERT_NOT_NULL(cq, "HASH: %d", rte_errno);
		TEST_ASSERT_EQUAL(cq->comp, 1, "comp %#x", cq->comp);
		TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy");
		attr_init(&a, 64, paths[p]);
		attr_cqe_size(&a, 128, 0);
		attr_comp(&a, RTE_MLX5CQ_COMP_CSUM, 0);
		cq = rte_mlx5cq_create(g_dev, &a);
		TEST_ASSERT_NOT_NULL(cq, "CSUM 128: %d", rte_errno);
		TEST_ASSERT_EQUAL(cq->comp, 2, "comp %#x", cq->comp);
		TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy");
	}
	attr_init(&a, 64, RTE_MLX5CQ_PATH_DEVX);
	attr_comp(&a, RTE_MLX5CQ_COMP_FTAG_STRIDX, 0);
	cq = rte_mlx5cq_create(g_dev, &a);
	TEST_ASSERT_NOT_NULL(cq, "FTAG: %d", rte_errno);
	TEST_ASSERT_EQUAL(cq->comp, 3, "comp %#x", cq->comp);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy");
	/* Nothing set: 64 B, no compression, auto path = DevX here. */
	attr_init(&a, 3, RTE_MLX5CQ_PATH_AUTO);
	a.cqe_size = 128; /* Ignored without RTE_MLX5CQ_ATTR_CQE_SIZE. */
	a.comp_format = RTE_MLX5CQ_COMP_HASH; /* Ignored too. */
	cq = rte_mlx5cq_create(g_dev, &a);
	TEST_ASSERT_NOT_NULL(cq, "defaults: %d", rte_errno);
	TEST_ASSERT_SUCCESS(rte_mlx5cq_info_get(cq, &info), "info");
	TEST_ASSERT_EQUAL(info.path, RTE_MLX5CQ_PATH_DEVX, "auto path");
	TEST_ASSERT_EQUAL(info.cqe_size, 64, "default cqe size");
	TEST_ASSERT_EQUAL(info.comp_format, 0, "default compression");
	TEST_ASSERT_EQUAL(info.entries, 4, "entries");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(NULL), "destroy NULL");
	return TEST_SUCCESS;
}

/* ---- verbs-only device, auto path --------------------------------------- */

static void
caps_no_devx(struct mlx5_emu_caps *c)
{
	c->devx = 0;
}

static int
test_verbs_only_device(void)
{
	struct ibv_context *ctx;
	struct rte_mlx5cq_dev *dev;
	struct rte_mlx5cq_attr a;
	struct rte_mlx5cq_info info;
	struct rte_mlx5cq *cq;
	struct mlx5_emu_stats es;
	int ret = TEST_FAILED;

	ctx = emu_open_caps("create_vo", caps_no_devx);
	TEST_ASSERT_NOT_NULL(ctx, "emu open");
	dev = rte_mlx5cq_dev_open_ex(ctx, SOCKET_ID_ANY,
				     RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS);
	if (dev == NULL) {
		printf("  dev_open: %d\n", rte_errno);
		goto out_ctx;
	}
	/* No DevX: no UAR taken at open. */
	if (mlx5_emu_stats_get(ctx, &es) || es.uars != 0) {
		printf("  %u UARs on a verbs-only device\n", es.uars);
		goto out;
	}
	attr_init(&a, 100, RTE_MLX5CQ_PATH_DEVX);
	if (expect_reject(ctx, dev, &a, EOPNOTSUPP, "devx on verbs-only"))
		goto out;
	/* The limit comes from ibv_query_device's max_cqe there. */
	attr_init(&a, UINT32_C(1) << DEF_LOG_MAX_CQ_SZ, RTE_MLX5CQ_PATH_AUTO);
	if (expect_reject(ctx, dev, &a, EINVAL, "verbs-only above max"))
		goto out;
	attr_init(&a, 100, RTE_MLX5CQ_PATH_AUTO);
	cq = rte_mlx5cq_create(dev, &a);
	if (cq == NULL) {
		printf("  auto create: %d\n", rte_errno);
		goto out;
	}
	if (rte_mlx5cq_info_get(cq, &info) == 0 &&
	    info.path == RTE_MLX5CQ_PATH_VERBS &&
	    check_created(ctx, cq, RTE_MLX5CQ_PATH_VERBS, 100, 64, 0) == 0)
		ret = TEST_SUCCESS;
	else
		printf("  auto path on verbs-only: %d\n", info.path);
	if (rte_mlx5cq_destroy(cq))
		ret = TEST_FAILED;
out:
	if (rte_mlx5cq_dev_close(dev))
		ret = TEST_FAILED;
out_ctx:
	if (mlx5_emu_close(ctx))
		ret = TEST_FAILED;
	return ret;
}

/* Verbs rings and records come from rte_malloc (external allocators). */
static int
test_verbs_memory(void)
{
	struct rte_mlx5cq_attr a;
	struct rte_mlx5cq_info info;
	struct rte_mlx5cq *cq;
	struct snap s0, s1;

	TEST_CHECK(snap_take(g_ctx, g_dev, &s0));
	attr_init(&a, 1000, RTE_MLX5CQ_PATH_VERBS);
	attr_cqe_size(&a, 128, 0);
	cq = rte_mlx5cq_create(g_dev, &a);
	TEST_ASSERT_NOT_NULL(cq, "create: %d", rte_errno);
	TEST_CHECK(snap_take(g_ctx, g_dev, &s1));
	TEST_ASSERT_SUCCESS(rte_mlx5cq_info_get(cq, &info), "info");
	TEST_ASSERT_NOT_NULL(rte_mem_virt2memseg_list(info.ring),
			     "verbs ring outside rte_malloc memory");
	TEST_ASSERT_NOT_NULL(rte_mem_virt2memseg_list(
			(const void *)(uintptr_t)info.dbrec),
			"verbs dbrec outside rte_malloc memory");
	/* The handle, the ring; the record's page when none existed. */
	TEST_ASSERT(s1.heap_bytes >= s0.heap_bytes + 1024 * 128,
		    "rte_malloc grew by %" PRIu64 " bytes only",
		    s1.heap_bytes - s0.heap_bytes);
	TEST_ASSERT_EQUAL(s1.emu.verbs_cqs, s0.emu.verbs_cqs + 1, "verbs cqs");
	TEST_ASSERT_EQUAL(s1.dev.cqs, s0.dev.cqs + 1, "dev cqs");
	TEST_ASSERT_EQUAL(s1.dev.ring_umems, s0.dev.ring_umems,
			  "verbs CQ took a ring umem");
	TEST_ASSERT_SUCCESS(rte_mlx5cq_destroy(cq), "destroy");
	TEST_CHECK(snap_take(g_ctx, g_dev, &s1));
	return snap_same(&s0, &s1, "verbs create+destroy");
}

static struct unit_test_suite create_suite = {
	.suite_name = "create",
	.setup = create_fixture_setup,
	.teardown = create_fixture_teardown,
	.unit_test_cases = {
		TEST_CASE(test_create_matrix),
		TEST_CASE(test_create_max_default),
		TEST_CASE(test_golden_mailbox),
		TEST_CASE(test_reject_attrs),
		TEST_CASE(test_accept_attrs),
		TEST_CASE(test_verbs_only_device),
		TEST_CASE(test_verbs_memory),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(create, create_suite);
