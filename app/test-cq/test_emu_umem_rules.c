/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_umem_rules": the emulated HCA's umem rules for CREATE_CQ, from
 * the device side, with CREATE_CQ mailboxes written here field by field
 * (mlx5_prm.h names through MLX5_SET and MLX5_ADDR_OF), never by the
 * library.
 *
 * Kernel rules (drivers/infiniband/hw/mlx5/devx.c):
 * - devx_umem_reg_cmd_alloc(): a umem registered without a page-size
 *   bitmap (mlx5dv_devx_umem_reg, the glue's devx_umem_reg) carries
 *   objects at umem_offset 0 only. The model refuses cq_umem_offset != 0
 *   with BAD_PARAM (errno EINVAL) and its syndrome CQ_UMEM_OFFSET.
 * - devx_umem_find_best_pgsize(): the umem's page is the largest power of
 *   two, 4 KiB at least and not above the length rounded up to a power of
 *   two, that the DMA start is aligned to and the length is a multiple of
 *   (over a DMA list of such aligned blocks). The CQ's queue page
 *   (4 KiB << cqc.log_page_size) may not exceed it.
 * Page sizes above 4 KiB are expected only where the physical layout is
 * known: DPDK hugepages in IOVA-as-PA mode.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_eal.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>

#include "mlx5_emu.h"
#include "test.h"

#define CMD_STAT_BAD_PARAM 0x03 /* PRM command status */

/*
 * A 64-bit PRM field, big endian at MLX5_ADDR_OF (MLX5_SET64 needs
 * mlx5_common.h's MLX5_ASSERT, outside this app's include path).
 */
static void
set_be64(void *p, uint64_t v)
{
	rte_be64_t be = rte_cpu_to_be_64(v);

	memcpy(p, &be, sizeof(be));
}

struct urenv {
	struct ibv_context *ctx;
	struct mlx5dv_devx_uar *uar;
	uint32_t eqn;
	/* Doorbell record: a 4 KiB umem of its own, record at 0. */
	uint8_t *dbr_buf;
	struct mlx5dv_devx_umem *dbr_umem;
};

/* Everything the failure paths must leave as it was. */
struct ursnap {
	struct mlx5_emu_stats st;
	uint64_t allocs;
	uint64_t bytes;
};

static void
ursnap_take(struct ibv_context *ctx, struct ursnap *s)
{
	struct rte_malloc_socket_stats ms;
	int i;

	memset(s, 0, sizeof(*s));
	mlx5_emu_stats_get(ctx, &s->st);
	for (i = 0; i < RTE_MAX_NUMA_NODES; i++) {
		if (rte_malloc_get_socket_stats(i, &ms) != 0)
			continue;
		s->allocs += ms.alloc_count;
		s->bytes += ms.heap_allocsz_bytes;
	}
}

static int
ursnap_same(const struct ursnap *a, const struct ursnap *b)
{
	return a->st.umems == b->st.umems &&
	       a->st.devx_objs == b->st.devx_objs &&
	       a->st.cqs == b->st.cqs && a->allocs == b->allocs &&
	       a->bytes == b->bytes;
}

static int
urenv_init(struct urenv *e, const char *name)
{
	memset(e, 0, sizeof(*e));
	e->ctx = mlx5_emu_open(name, NULL);
	if (e->ctx == NULL)
		return -1;
	e->uar = mlx5_glue->devx_alloc_uar(e->ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	e->dbr_buf = rte_zmalloc(NULL, 4096, 4096);
	if (e->uar == NULL || e->dbr_buf == NULL)
		return -1;
	e->dbr_umem = mlx5_glue->devx_umem_reg(e->ctx, e->dbr_buf, 4096,
					       IBV_ACCESS_LOCAL_WRITE);
	if (e->dbr_umem == NULL)
		return -1;
	return mlx5_glue->devx_query_eqn(e->ctx, 0, &e->eqn);
}

static int
urenv_fini(struct urenv *e)
{
	struct mlx5_emu_stats st;
	int ret = 0;

	if (e->dbr_umem != NULL && mlx5_glue->devx_umem_dereg(e->dbr_umem))
		ret = -1;
	if (e->uar != NULL)
		mlx5_glue->devx_free_uar(e->uar);
	rte_free(e->dbr_buf);
	if (e->ctx != NULL) {
		if (mlx5_emu_stats_get(e->ctx, &st) != 0 || st.umems != 0 ||
		    st.devx_objs != 0 || st.cqs != 0 || st.uars != 0)
			ret = -1;
		if (mlx5_emu_close(e->ctx))
			ret = -1;
	}
	return ret;
}

/*
 * CREATE_CQ of 2^log_size 64 B CQEs at @p offset in @p ring_umem, queue
 * pages of 4 KiB << @p log_page_size, record at 0 of the env's dbr umem.
 */
static void
build_cq(uint32_t *in, const struct urenv *e, uint32_t ring_umem,
	 uint64_t offset, uint32_t log_size, uint32_t log_page_size)
{
	void *cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);

	memset(in, 0, MLX5_ST_SZ_BYTES(create_cq_in));
	MLX5_SET(create_cq_in, in, opcode, MLX5_CMD_OP_CREATE_CQ);
	MLX5_SET(create_cq_in, in, cq_umem_valid, 1);
	MLX5_SET(create_cq_in, in, cq_umem_id, ring_umem);
	set_be64(MLX5_ADDR_OF(create_cq_in, in, cq_umem_offset), offset);
	MLX5_SET(cqc, cqc, log_cq_size, log_size);
	MLX5_SET(cqc, cqc, cqe_sz, 0);
	MLX5_SET(cqc, cqc, uar_page, e->uar->page_id);
	MLX5_SET(cqc, cqc, c_eqn, e->eqn);
	MLX5_SET(cqc, cqc, log_page_size, log_page_size);
	MLX5_SET(cqc, cqc, dbr_umem_valid, 1);
	MLX5_SET(cqc, cqc, dbr_umem_id, e->dbr_umem->umem_id);
	set_be64(MLX5_ADDR_OF(cqc, cqc, dbr_addr), 0);
}

/* The command is refused with BAD_PARAM / @p synd, EINVAL, nothing left. */
static int
expect_refused(const struct urenv *e, const uint32_t *in, uint32_t umem_id,
	       uint32_t synd, const char *what)
{
	uint32_t out[MLX5_ST_SZ_DW(create_cq_out)];
	struct mlx5_emu_umem_info ui;
	struct mlx5dv_devx_obj *obj;
	struct ursnap s0, s1;

	memset(out, 0, sizeof(out));
	ursnap_take(e->ctx, &s0);
	errno = 0;
	obj = mlx5_glue->devx_obj_create(e->ctx, in,
					 MLX5_ST_SZ_BYTES(create_cq_in), out,
					 sizeof(out));
	TEST_ASSERT_NULL(obj, "%s: accepted", what);
	TEST_ASSERT_EQUAL(errno, EINVAL, "%s: errno %d", what, errno);
	TEST_ASSERT_EQUAL(MLX5_GET(create_cq_out, out, status),
			  CMD_STAT_BAD_PARAM, "%s: status 0x%x", what,
			  MLX5_GET(create_cq_out, out, status));
	TEST_ASSERT_EQUAL(MLX5_GET(create_cq_out, out, syndrome), synd,
			  "%s: syndrome 0x%x", what,
			  MLX5_GET(create_cq_out, out, syndrome));
	ursnap_take(e->ctx, &s1);
	TEST_ASSERT(ursnap_same(&s0, &s1), "%s: umems %u->%u objs %u->%u "
		    "cqs %u->%u allocs %" PRIu64 "->%" PRIu64, what,
		    s0.st.umems, s1.st.umems, s0.st.devx_objs,
		    s1.st.devx_objs, s0.st.cqs, s1.st.cqs, s0.allocs,
		    s1.allocs);
	TEST_ASSERT_SUCCESS(mlx5_emu_umem_query(e->ctx, umem_id, &ui), "umem");
	TEST_ASSERT_EQUAL(ui.refcnt, 0, "%s: umem referenced", what);
	return TEST_SUCCESS;
}

/* The command is accepted: the CQ exists at @p ring, then is destroyed. */
static int
expect_accepted(const struct urenv *e, const uint32_t *in, const void *ring,
		uint64_t offset, const char *what)
{
	uint32_t out[MLX5_ST_SZ_DW(create_cq_out)];
	struct mlx5_emu_cq_info ci;
	struct mlx5dv_devx_obj *obj;
	struct ursnap s0, s1;

	memset(out, 0, sizeof(out));
	ursnap_take(e->ctx, &s0);
	obj = mlx5_glue->devx_obj_create(e->ctx, in,
					 MLX5_ST_SZ_BYTES(create_cq_in), out,
					 sizeof(out));
	TEST_ASSERT_NOT_NULL(obj, "%s: refused, errno %d status 0x%x "
			     "syndrome 0x%x", what, errno,
			     MLX5_GET(create_cq_out, out, status),
			     MLX5_GET(create_cq_out, out, syndrome));
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(e->ctx,
			    MLX5_GET(create_cq_out, out, cqn), &ci), "query");
	TEST_ASSERT(ci.ring == ring, "%s: ring %p, expected %p", what,
		    ci.ring, ring);
	TEST_ASSERT_EQUAL(ci.cq_umem_offset, offset, "%s: offset", what);
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(obj), "destroy");
	ursnap_take(e->ctx, &s1);
	TEST_ASSERT(ursnap_same(&s0, &s1), "%s: not back", what);
	return TEST_SUCCESS;
}

/* DPDK hugepages of known physical address: the kernel's page sizes. */
static int
pa_hugepages(const void *p)
{
	const struct rte_memseg_list *msl = rte_mem_virt2memseg_list(p);

	return msl != NULL && msl->page_sz >= (UINT64_C(2) << 20) &&
	       rte_eal_iova_mode() == RTE_IOVA_PA;
}

/*
 * A 16 KiB umem registered without a bitmap: a 4 KiB ring at offset 0 is
 * accepted, the same ring at 4 KiB, 8 KiB or 12 KiB is refused although it
 * lies inside the umem, 4 KiB aligned, in 4 KiB queue pages.
 */
static int
test_umem_offset_nonzero_refused(void)
{
	static const uint64_t offs[] = { 4096, 8192, 12288 };
	uint32_t in[MLX5_ST_SZ_DW(create_cq_in)];
	struct mlx5dv_devx_umem *um;
	struct urenv e;
	uint8_t *buf;
	unsigned int i;
	int ret;

	TEST_ASSERT_SUCCESS(urenv_init(&e, "umr_off0"), "env");
	buf = rte_zmalloc(NULL, 16384, 4096);
	TEST_ASSERT_NOT_NULL(buf, "buffer");
	um = mlx5_glue->devx_umem_reg(e.ctx, buf, 16384,
				      IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT_NOT_NULL(um, "umem");
	for (i = 0; i < RTE_DIM(offs); i++) {
		build_cq(in, &e, um->umem_id, offs[i], 6, 0);
		ret = expect_refused(&e, in, um->umem_id,
				     MLX5_EMU_SYND_CQ_UMEM_OFFSET,
				     "ring at offset != 0");
		if (ret != TEST_SUCCESS)
			break;
	}
	if (ret == TEST_SUCCESS) {
		build_cq(in, &e, um->umem_id, 0, 6, 0);
		ret = expect_accepted(&e, in, buf, 0, "ring at offset 0");
	}
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_umem_dereg(um), "dereg");
	rte_free(buf);
	TEST_ASSERT_SUCCESS(urenv_fini(&e), "fini");
	return ret;
}

/*
 * The range check comes first: an offset past the umem end is a range
 * error, not an offset one.
 */
static int
test_umem_offset_past_end(void)
{
	uint32_t in[MLX5_ST_SZ_DW(create_cq_in)];
	struct mlx5dv_devx_umem *um;
	struct urenv e;
	uint8_t *buf;
	int ret;

	TEST_ASSERT_SUCCESS(urenv_init(&e, "umr_off1"), "env");
	buf = rte_zmalloc(NULL, 4096, 4096);
	TEST_ASSERT_NOT_NULL(buf, "buffer");
	um = mlx5_glue->devx_umem_reg(e.ctx, buf, 4096,
				      IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT_NOT_NULL(um, "umem");
	build_cq(in, &e, um->umem_id, 4096, 6, 0);
	ret = expect_refused(&e, in, um->umem_id, MLX5_EMU_SYND_CQ_UMEM_RANGE,
			     "ring past the umem");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_umem_dereg(um), "dereg");
	rte_free(buf);
	TEST_ASSERT_SUCCESS(urenv_fini(&e), "fini");
	return ret;
}

/*
 * Queue page against the umem's page. A 64 KiB ring registered on its own:
 * in PA hugepages at a 64 KiB aligned address the kernel picks 64 KiB
 * pages (the length caps it), so log_page_size 4 is accepted and 5
 * refused; at a 32 KiB (not 64 KiB) aligned address 32 KiB pages, 3
 * accepted and 4 refused. Elsewhere the model knows 4 KiB only (or what
 * pagemap shows), and the umem's reported page is the bound.
 */
static int
test_log_page_size_vs_umem_page(void)
{
	uint32_t in[MLX5_ST_SZ_DW(create_cq_in)];
	struct mlx5_emu_umem_info ui;
	struct mlx5dv_devx_umem *um;
	struct urenv e;
	uint8_t *buf, *ring;
	uint32_t want, k;
	int ret = TEST_SUCCESS;

	TEST_ASSERT_SUCCESS(urenv_init(&e, "umr_pg0"), "env");
	buf = rte_zmalloc(NULL, 192u << 10, 64u << 10);
	TEST_ASSERT_NOT_NULL(buf, "buffer");
	for (k = 0; k < 2 && ret == TEST_SUCCESS; k++) {
		/* k 0: 64 KiB aligned; k 1: 32 KiB past it. */
		ring = buf + (k ? (32u << 10) : 0);
		um = mlx5_glue->devx_umem_reg(e.ctx, ring, 64u << 10,
					      IBV_ACCESS_LOCAL_WRITE);
		TEST_ASSERT_NOT_NULL(um, "umem");
		TEST_ASSERT_SUCCESS(mlx5_emu_umem_query(e.ctx, um->umem_id,
							&ui), "umem query");
		if (pa_hugepages(ring) &&
		    RTE_ALIGN_FLOOR((uintptr_t)ring, 2u << 20) ==
		    RTE_ALIGN_FLOOR((uintptr_t)ring + (64u << 10) - 1,
				    2u << 20)) {
			want = k ? 15 : 16;
			TEST_ASSERT_EQUAL(ui.page_shift, want,
					  "umem page_shift %u, expected %u",
					  ui.page_shift, want);
			TEST_ASSERT_EQUAL(ui.page_offset, 0, "page_offset");
		} else {
			TEST_ASSERT(ui.page_shift >= 12, "page_shift %u",
				    ui.page_shift);
			want = ui.page_shift;
		}
		/* 1024 x 64 B fills the umem. */
		build_cq(in, &e, um->umem_id, 0, 10, want - 12);
		ret = expect_accepted(&e, in, ring, 0, "queue page = umem "
				      "page");
		if (ret == TEST_SUCCESS && want > 12) {
			build_cq(in, &e, um->umem_id, 0, 10, 0);
			ret = expect_accepted(&e, in, ring, 0,
					      "4 KiB queue pages");
		}
		if (ret == TEST_SUCCESS) {
			build_cq(in, &e, um->umem_id, 0, 10, want - 12 + 1);
			ret = expect_refused(&e, in, um->umem_id,
					     MLX5_EMU_SYND_CQ_LOG_PAGE_SIZE,
					     "queue page above the umem page");
		}
		TEST_ASSERT_SUCCESS(mlx5_glue->devx_umem_dereg(um), "dereg");
	}
	rte_free(buf);
	TEST_ASSERT_SUCCESS(urenv_fini(&e), "fini");
	return ret;
}

/*
 * A hugepage does not lift the bound: a 4 KiB ring + 64 B record in one
 * umem (DPDK's layout) is translated with 4 KiB pages (the length is a
 * multiple of nothing larger), so 2 MiB queue pages are refused even when
 * the memory is a 2 MiB hugepage; 4 KiB queue pages with the record at
 * dbr_addr 4096 of the same umem are accepted.
 */
static int
test_hugepage_no_larger_queue_page(void)
{
	uint32_t in[MLX5_ST_SZ_DW(create_cq_in)];
	struct mlx5_emu_umem_info ui;
	struct mlx5dv_devx_umem *um;
	struct urenv e;
	uint8_t *buf;
	void *cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	int ret;

	TEST_ASSERT_SUCCESS(urenv_init(&e, "umr_pg1"), "env");
	buf = rte_zmalloc(NULL, 4096 + 64, 2u << 20);
	TEST_ASSERT_NOT_NULL(buf, "buffer");
	um = mlx5_glue->devx_umem_reg(e.ctx, buf, 4096 + 64,
				      IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT_NOT_NULL(um, "umem");
	TEST_ASSERT_SUCCESS(mlx5_emu_umem_query(e.ctx, um->umem_id, &ui),
			    "umem query");
	TEST_ASSERT_EQUAL(ui.page_shift, 12, "page_shift %u", ui.page_shift);
	build_cq(in, &e, um->umem_id, 0, 6, 9);
	MLX5_SET(cqc, cqc, dbr_umem_id, um->umem_id);
	set_be64(MLX5_ADDR_OF(cqc, cqc, dbr_addr), 4096);
	ret = expect_refused(&e, in, um->umem_id,
			     MLX5_EMU_SYND_CQ_LOG_PAGE_SIZE,
			     "2 MiB queue pages on a 4 KiB page umem");
	if (ret == TEST_SUCCESS) {
		MLX5_SET(cqc, cqc, log_page_size, 0);
		ret = expect_accepted(&e, in, buf, 0, "DPDK's layout");
	}
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_umem_dereg(um), "dereg");
	rte_free(buf);
	TEST_ASSERT_SUCCESS(urenv_fini(&e), "fini");
	return ret;
}

static int
umem_rules_setup(void)
{
	return mlx5_emu_install();
}

static struct unit_test_suite emu_umem_rules_suite = {
	.suite_name = "emu_umem_rules",
	.setup = umem_rules_setup,
	.unit_test_cases = {
		TEST_CASE(test_umem_offset_nonzero_refused),
		TEST_CASE(test_umem_offset_past_end),
		TEST_CASE(test_log_page_size_vs_umem_page),
		TEST_CASE(test_hugepage_no_larger_queue_page),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(emu_umem_rules, emu_umem_rules_suite);
