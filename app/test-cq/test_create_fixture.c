/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/* Fixture of the create suites (test_create_fixture.h). */

#include "test_create_fixture.h"

struct ibv_context *g_ctx;
struct rte_mlx5cq_dev *g_dev;

/* ---- resource snapshots ------------------------------------------------ */

int
snap_take(struct ibv_context *ctx, struct rte_mlx5cq_dev *dev, struct snap *s)
{
	struct rte_malloc_socket_stats ms;
	unsigned int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < rte_socket_count(); i++) {
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i),
						&ms) != 0)
			continue;
		s->heap_bytes += ms.heap_allocsz_bytes;
		s->alloc_count += ms.alloc_count;
	}
	if (ctx != NULL)
		TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(ctx, &s->emu),
				    "emu stats");
	if (dev != NULL)
		TEST_ASSERT_SUCCESS(rte_mlx5cq_dev_stats_get(dev, &s->dev),
				    "dev stats");
	return TEST_SUCCESS;
}

#define SNAP_FIELD(f) do { \
	if (a->f != b->f) { \
		printf("  %s: %s changed: %" PRIu64 " -> %" PRIu64 "\n", \
		       what, #f, (uint64_t)a->f, (uint64_t)b->f); \
		ok = 0; \
	} \
} while (0)

/* Same resources in use in a and b (commands counters aside). */
int
snap_same(const struct snap *a, const struct snap *b, const char *what)
{
	int ok = 1;

	SNAP_FIELD(heap_bytes);
	SNAP_FIELD(alloc_count);
	SNAP_FIELD(emu.pds);
	SNAP_FIELD(emu.uars);
	SNAP_FIELD(emu.umems);
	SNAP_FIELD(emu.devx_objs);
	SNAP_FIELD(emu.cqs);
	SNAP_FIELD(emu.verbs_cqs);
	SNAP_FIELD(emu.dbr_pages);
	SNAP_FIELD(emu.dbr_slots);
	SNAP_FIELD(dev.cqs);
	SNAP_FIELD(dev.ring_umems);
	SNAP_FIELD(dev.dbr_pages);
	SNAP_FIELD(dev.dbr_slots);
	SNAP_FIELD(dev.dbr_umems);
	TEST_ASSERT(ok, "%s: resources leaked or lost", what);
	return TEST_SUCCESS;
}

/* ---- helpers ----------------------------------------------------------- */

/* Entries of a ring for n requested: smallest power of two above n. */
uint32_t
ring_entries(uint32_t n)
{
	uint64_t e = 1;

	while (e < (uint64_t)n + 1)
		e <<= 1;
	return (uint32_t)e;
}

uint32_t
ilog2(uint64_t v)
{
	uint32_t l = 0;

	while ((UINT64_C(1) << (l + 1)) <= v)
		l++;
	return l;
}

void
attr_init(struct rte_mlx5cq_attr *a, uint32_t cqe, enum rte_mlx5cq_path path)
{
	memset(a, 0, sizeof(*a));
	a->cqe = cqe;
	a->socket = SOCKET_ID_ANY;
	a->path = path;
}

void
attr_cqe_size(struct rte_mlx5cq_attr *a, uint16_t size, int pad)
{
	a->comp_mask |= RTE_MLX5CQ_ATTR_CQE_SIZE;
	a->cqe_size = size;
	if (pad)
		a->flags |= RTE_MLX5CQ_F_CQE_PAD;
}

void
attr_comp(struct rte_mlx5cq_attr *a, uint8_t fmt, uint8_t layout)
{
	a->comp_mask |= RTE_MLX5CQ_ATTR_COMPRESSED;
	a->comp_format = fmt;
	a->comp_layout = layout;
}

struct ibv_context *
emu_open_caps(const char *name, void (*tweak)(struct mlx5_emu_caps *))
{
	struct mlx5_emu_caps caps;

	mlx5_emu_caps_default(&caps);
	if (tweak != NULL)
		tweak(&caps);
	return mlx5_emu_open(name, &caps);
}

/* Page size backing an address (the EAL's memseg list). */
uint64_t
mem_page_size(const void *p)
{
	const struct rte_memseg_list *msl = rte_mem_virt2memseg_list(p);

	return msl != NULL ? msl->page_sz : (uint64_t)sysconf(_SC_PAGESIZE);
}

/*
 * Umem and cqc.log_page_size the DevX path must use for a ring. A umem
 * registered without a page-size bitmap carries objects at offset 0 only
 * (kernel devx.c, devx_umem_reg_cmd_alloc()), so the umem is the ring:
 * same start, same length, cq_umem_offset 0. The queue page may not exceed
 * the page the kernel picks for that umem (devx_umem_find_best_pgsize():
 * a power of two dividing the DMA start and the length); the DMA layout
 * is known only for hugepages in IOVA-as-PA mode, where it is the largest
 * power of two dividing the ring address and length, up to the hugepage
 * size; elsewhere the 4 KiB system page.
 */

void
expect_ring_umem(const void *ring, size_t len, struct ring_umem *u)
{
	uint64_t pg = mem_page_size(ring);
	uint64_t sys = (uint64_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)ring;
	uint32_t shift;

	u->start = a;
	u->len = len;
	u->offset = 0;
	if (pg <= sys || rte_eal_iova_mode() != RTE_IOVA_PA) {
		u->log_page_size = ilog2(sys) - 12;
		return;
	}
	shift = ilog2(pg);
	while (shift > ilog2(sys) &&
	       (a % (UINT64_C(1) << shift) != 0 ||
		len % (UINT64_C(1) << shift) != 0))
		shift--;
	u->log_page_size = shift - 12;
}

uint32_t
expect_log_page_size(const void *ring, size_t len)
{
	struct ring_umem u;

	expect_ring_umem(ring, len, &u);
	return u.log_page_size;
}

/* Big-endian 32-bit store into a mailbox image. */
void
put_be32(uint8_t *b, size_t off, uint32_t v)
{
	b[off] = (uint8_t)(v >> 24);
	b[off + 1] = (uint8_t)(v >> 16);
	b[off + 2] = (uint8_t)(v >> 8);
	b[off + 3] = (uint8_t)v;
}

/* ---- suite setup ------------------------------------------------------- */

int
create_fixture_setup(void)
{
	int ret = mlx5_emu_install();

	if (ret) {
		printf("mlx5_emu_install: %d\n", ret);
		return -1;
	}
	g_ctx = mlx5_emu_open("create0", NULL);
	if (g_ctx == NULL) {
		printf("mlx5_emu_open: %d\n", errno);
		return -1;
	}
	g_dev = rte_mlx5cq_dev_open_ex(g_ctx, SOCKET_ID_ANY,
				     RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS);
	if (g_dev == NULL) {
		printf("rte_mlx5cq_dev_open: %d\n", rte_errno);
		mlx5_emu_close(g_ctx);
		return -1;
	}
	return 0;
}

void
create_fixture_teardown(void)
{
	if (g_dev != NULL && rte_mlx5cq_dev_close(g_dev) != 0)
		printf("dev_close failed: %d\n", rte_errno);
	if (g_ctx != NULL && mlx5_emu_close(g_ctx) != 0)
		printf("emu close failed\n");
	g_dev = NULL;
	g_ctx = NULL;
}

