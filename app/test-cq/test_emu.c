/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu": the emulated HCA's DevX side (devices, glue dispatch,
 * QUERY_HCA_CAP, umem pinning, CREATE/QUERY/DESTROY_CQ, CQE writer).
 * Expected values come from the PRM layouts (mlx5_prm.h, mlx5dv.h), the
 * kernel rules quoted in the model's sources and hand-written CQE images.
 */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include <rte_byteorder.h>
#include <rte_eal.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>
#include <mlx5_devx_cmds.h>
#include <mlx5_common_devx.h>

#include "mlx5_emu.h"
#include "test.h"
#include "test_dpdk_cq.h"
#include "test_wait.h"

/*
 * rte_common_mlx5's struct mlx5_devx_obj (mlx5_common.h, whose includes
 * need EAL driver headers this app does not get): the DevX object and its
 * id, as mlx5_devx_cq_create() returns them.
 */
struct mlx5_devx_obj {
	void *obj;
	int id;
};

#define CREATE_CQ_IN_LEN 272 /* MLX5_ST_SZ_BYTES(create_cq_in) */
#define CMD_STAT_BAD_OP 0x02
#define CMD_STAT_BAD_PARAM 0x03
#define CMD_STAT_LIM 0x08
#define CMD_STAT_BAD_INP_LEN 0x50
#define CMD_STAT_BAD_OUTP_LEN 0x51

/* rte_malloc usage over all sockets. */
struct heap_snap {
	uint64_t allocs;
	uint64_t bytes;
};

static void
heap_snap(struct heap_snap *s)
{
	struct rte_malloc_socket_stats st;
	int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < RTE_MAX_NUMA_NODES; i++) {
		if (rte_malloc_get_socket_stats(i, &st) != 0)
			continue;
		s->allocs += st.alloc_count;
		s->bytes += st.heap_allocsz_bytes;
	}
}

static int
heap_same(const struct heap_snap *a)
{
	struct heap_snap b;

	heap_snap(&b);
	return a->allocs == b.allocs && a->bytes == b.bytes;
}

static int
stats_idle(struct ibv_context *ctx)
{
	struct mlx5_emu_stats st;

	if (mlx5_emu_stats_get(ctx, &st) != 0)
		return 0;
	return st.umems == 0 && st.devx_objs == 0 && st.cqs == 0 &&
	       st.uars == 0 && st.pds == 0;
}

static struct ibv_context *
open_caps(const char *name, void (*tweak)(struct mlx5_emu_caps *c))
{
	struct mlx5_emu_caps caps;

	mlx5_emu_caps_default(&caps);
	if (tweak != NULL)
		tweak(&caps);
	return mlx5_emu_open(name, &caps);
}

static uint8_t
out_status(void *out)
{
	return MLX5_GET(create_cq_out, out, status);
}

static uint32_t
out_syndrome(void *out)
{
	return MLX5_GET(create_cq_out, out, syndrome);
}

static void
set_be64(void *p, uint64_t v)
{
	rte_be64_t be = rte_cpu_to_be_64(v);

	memcpy(p, &be, sizeof(be));
}

/* --- devices, glue ------------------------------------------------------ */

static void
caps_bad_vectors(struct mlx5_emu_caps *c)
{
	c->num_comp_vectors = 0;
}

static int
test_emu_open_close(void)
{
	const struct mlx5_glue *before;
	struct ibv_context *ctx, *dup;
	struct mlx5_emu_stats st;

	TEST_ASSERT_SUCCESS(mlx5_emu_install(), "install");
	before = mlx5_glue;
	TEST_ASSERT_SUCCESS(mlx5_emu_install(), "install twice");
	TEST_ASSERT(mlx5_glue == before, "install is idempotent");
	ctx = mlx5_emu_open("emu_oc0", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open: %s", strerror(errno));
	TEST_ASSERT(mlx5_glue == before, "open keeps the table");
	TEST_ASSERT_EQUAL(mlx5_emu_is_emulated(ctx), 1, "emulated");
	TEST_ASSERT_EQUAL(ctx->num_comp_vectors, 4, "default vectors");
	TEST_ASSERT(ctx->cmd_fd >= 0 && ctx->async_fd >= 0, "fds");
	TEST_ASSERT_EQUAL(strcmp(ctx->device->name, "emu_oc0"), 0, "name");
	TEST_ASSERT_EQUAL(strcmp(mlx5_glue->get_device_name(ctx->device),
				 "emu_oc0"), 0, "glue device name");
	dup = mlx5_emu_open("emu_oc0", NULL);
	TEST_ASSERT_NULL(dup, "same name twice");
	TEST_ASSERT_EQUAL(errno, EEXIST, "EEXIST");
	TEST_ASSERT_NULL(mlx5_emu_open(NULL, NULL), "no name");
	TEST_ASSERT_EQUAL(errno, EINVAL, "EINVAL");
	TEST_ASSERT_NULL(open_caps("emu_oc1", caps_bad_vectors), "0 vectors");
	TEST_ASSERT_EQUAL(errno, EINVAL, "EINVAL");
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(ctx, &st), "stats");
	TEST_ASSERT(stats_idle(ctx) && st.cmds == 0, "fresh device idle");
	TEST_ASSERT_EQUAL(mlx5_emu_last_cmd_error(ctx, NULL, NULL), -ENOENT,
			  "no command failed yet");
	TEST_ASSERT_SUCCESS(mlx5_glue->close_device(ctx), "close via glue");
	TEST_ASSERT_EQUAL(mlx5_emu_is_emulated(ctx), 0, "gone");
	TEST_ASSERT_EQUAL(mlx5_emu_close(ctx), -EINVAL, "closed twice");
	return TEST_SUCCESS;
}

/* A pointer the model does not own is never dereferenced. */
static int
test_emu_foreign_not_touched(void)
{
	struct ibv_device fake_dev;
	struct ibv_device **list;
	struct mlx5_emu_stats st;
	struct mlx5_emu_cpl cpl;
	struct mlx5_emu_umem_info ui;
	struct ibv_context *ctx;
	void *guard;
	int n = -1;

	TEST_ASSERT_SUCCESS(mlx5_emu_install(), "install");
	ctx = mlx5_emu_open("emu_fg0", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	/* A page that faults on any access stands for a foreign object. */
	guard = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		     -1, 0);
	TEST_ASSERT(guard != MAP_FAILED, "mmap");
	memset(&cpl, 0, sizeof(cpl));
	TEST_ASSERT_EQUAL(mlx5_emu_is_emulated(guard), 0, "foreign ctx");
	TEST_ASSERT_EQUAL(mlx5_emu_close(guard), -EINVAL, "close foreign");
	TEST_ASSERT_EQUAL(mlx5_emu_stats_get(guard, &st), -EINVAL, "stats");
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(guard, 1, &cpl, 1), -EINVAL,
			  "post");
	TEST_ASSERT_EQUAL(mlx5_emu_umem_query(guard, 1, &ui), -EINVAL,
			  "umem query");
	mlx5_emu_fail_inject(guard, MLX5_EMU_FAIL_UMEM_REG, 0, 1);
	/* Forwarded entries reach rdma-core: the device list of this
	 * machine (no RDMA device: empty) and the name of a non-emulated
	 * device, read by rdma-core from the device itself.
	 */
	list = mlx5_glue->get_device_list(&n);
	TEST_ASSERT(n >= 0, "device list forwarded");
	if (list != NULL)
		mlx5_glue->free_device_list(list);
	memset(&fake_dev, 0, sizeof(fake_dev));
	strcpy(fake_dev.name, "emu_fg0"); /* Same name, not our device. */
	TEST_ASSERT(mlx5_glue->get_device_name(&fake_dev) == fake_dev.name,
		    "foreign device name comes from the device");
	TEST_ASSERT_EQUAL(strcmp(mlx5_glue->get_device_name(ctx->device),
				 "emu_fg0"), 0, "own device answered by the model");
	munmap(guard, 4096);
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	return TEST_SUCCESS;
}

static int
test_emu_pd_uar_eqn_channel(void)
{
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct mlx5dv_devx_uar *uar, *uar2;
	struct ibv_comp_channel *ch;
	struct ibv_device_attr attr;
	struct ibv_device_attr_ex attr_ex;
	struct mlx5_emu_stats st;
	uint32_t eqn[4], e;
	volatile uint64_t *db;
	int i, j;

	ctx = mlx5_emu_open("emu_pu0", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	pd = mlx5_glue->alloc_pd(ctx);
	TEST_ASSERT_NOT_NULL(pd, "pd");
	TEST_ASSERT(pd->context == ctx, "pd context");
	uar = mlx5_glue->devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	uar2 = mlx5_glue->devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_BF);
	TEST_ASSERT(uar != NULL && uar2 != NULL, "uars");
	TEST_ASSERT(uar->page_id != 0 && uar->page_id != uar2->page_id,
		    "distinct page ids");
	TEST_ASSERT_EQUAL(((uintptr_t)uar->base_addr & 4095), 0u, "page");
	TEST_ASSERT(uar->reg_addr == (uint8_t *)uar->base_addr + 0x800,
		    "reg_addr is the BlueFlame half");
	/* The CQ doorbell (offset 0x20) lands in readable memory. */
	db = (volatile uint64_t *)((uint8_t *)uar->base_addr + 0x20);
	*db = rte_cpu_to_be_64(0x1234567800000abcull);
	TEST_ASSERT_EQUAL(((volatile uint8_t *)uar->base_addr)[0x20], 0x12,
			  "doorbell bytes");
	TEST_ASSERT_NULL(mlx5_glue->devx_alloc_uar(ctx, 7), "bad flags");
	TEST_ASSERT_EQUAL(errno, EINVAL, "EINVAL");
	for (i = 0; i < 4; i++) {
		TEST_ASSERT_SUCCESS(mlx5_glue->devx_query_eqn(ctx, i, &eqn[i]),
				    "eqn of vector %d", i);
		TEST_ASSERT_NOT_EQUAL(eqn[i], (uint32_t)i, "eqn != vector");
		for (j = 0; j < i; j++)
			TEST_ASSERT_NOT_EQUAL(eqn[i], eqn[j], "distinct");
	}
	errno = 0;
	TEST_ASSERT_FAIL(mlx5_glue->devx_query_eqn(ctx, 4, &e), "vector 4");
	TEST_ASSERT_EQUAL(errno, EINVAL, "EINVAL");
	ch = mlx5_glue->create_comp_channel(ctx);
	TEST_ASSERT_NOT_NULL(ch, "channel");
	TEST_ASSERT(ch->fd >= 0 && ch->context == ctx, "channel fields");
	TEST_ASSERT_SUCCESS(mlx5_glue->query_device(ctx, &attr), "query");
	TEST_ASSERT_EQUAL(attr.max_cqe, (1 << 22) - 1, "max_cqe");
	TEST_ASSERT_EQUAL(attr.max_cq, 1 << 24, "max_cq");
	TEST_ASSERT_EQUAL(attr.vendor_id, 0x02c9u, "vendor");
	TEST_ASSERT_SUCCESS(mlx5_glue->query_device_ex(ctx, NULL, &attr_ex),
			    "query_ex");
	TEST_ASSERT_EQUAL(attr_ex.orig_attr.max_cqe, (1 << 22) - 1, "ex");
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(ctx, &st), "stats");
	TEST_ASSERT(st.pds == 1 && st.uars == 2, "counted");
	TEST_ASSERT_EQUAL(mlx5_emu_close(ctx), -EBUSY, "busy");
	TEST_ASSERT_SUCCESS(mlx5_glue->destroy_comp_channel(ch), "channel");
	mlx5_glue->devx_free_uar(uar);
	mlx5_glue->devx_free_uar(uar2);
	TEST_ASSERT_SUCCESS(mlx5_glue->dealloc_pd(pd), "dealloc");
	TEST_ASSERT(stats_idle(ctx), "idle");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	return TEST_SUCCESS;
}

/* --- capabilities ------------------------------------------------------- */

static void
caps_small(struct mlx5_emu_caps *c)
{
	c->log_max_cq_sz = 16;
	c->log_max_cq = 10;
	c->cqe_compression = 0;
	c->cqe_compression_128 = 0;
	c->cqe_128_always = 0;
	c->mini_cqe_resp_stride_index = 0;
	c->mini_cqe_resp_flow_tag = 0;
	c->mini_cqe_resp_l3_l4_tag = 1;
	c->enhanced_cqe_compression = 0;
	c->cqe_compression_max_num = 16;
	c->cqe_compression_timeout = 7;
	c->num_comp_vectors = 2;
}

/* The caps of one device as QUERY_HCA_CAP and query_hca_attr see them. */
static int
check_caps(struct ibv_context *ctx, const struct mlx5_emu_caps *c)
{
	uint32_t in[MLX5_ST_SZ_DW(query_hca_cap_in)] = {0};
	uint32_t out[MLX5_ST_SZ_DW(query_hca_cap_out)] = {0};
	uint32_t last[8];
	struct mlx5_hca_attr attr;
	struct mlx5_emu_stats s0, s1;
	size_t len = sizeof(last);
	void *hc;
	int op_mod;

	memset(&attr, 0, sizeof(attr));
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(ctx, &s0), "stats");
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_hca_attr(ctx, &attr),
			    "query_hca_attr");
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(ctx, &s1), "stats");
	/* General caps, then with eth_net_offloads the NIC flow table and
	 * Ethernet offload caps (rte_common_mlx5 query order).
	 */
	TEST_ASSERT_EQUAL(s1.cmds - s0.cmds, (c->eth_net_offloads ? 3u : 1u),
			  "commands issued");
	TEST_ASSERT_EQUAL(s1.cmd_errors, s0.cmd_errors, "none failed");
	TEST_ASSERT_SUCCESS(mlx5_emu_last_cmd_in(ctx, last, &len), "last in");
	TEST_ASSERT_EQUAL(len, 16u, "query_hca_cap_in is 16 bytes");
	TEST_ASSERT_EQUAL(MLX5_GET(query_hca_cap_in, last, opcode), 0x100u,
			  "opcode");
	TEST_ASSERT_EQUAL(MLX5_GET(query_hca_cap_in, last, op_mod),
			  (c->eth_net_offloads ? (1u << 1 | 1u) : 1u),
			  "last: Ethernet offload or general caps, current");
	TEST_ASSERT_EQUAL(attr.log_max_cq_sz, c->log_max_cq_sz, "cq_sz");
	TEST_ASSERT_EQUAL(attr.log_max_cq, c->log_max_cq, "log_max_cq");
	TEST_ASSERT_EQUAL(attr.cqe_compression, c->cqe_compression, "comp");
	TEST_ASSERT_EQUAL(attr.mini_cqe_resp_flow_tag,
			  c->mini_cqe_resp_flow_tag, "flow tag");
	TEST_ASSERT_EQUAL(attr.mini_cqe_resp_l3_l4_tag,
			  c->mini_cqe_resp_l3_l4_tag, "l3/l4");
	TEST_ASSERT_EQUAL(attr.eth_net_offloads, c->eth_net_offloads,
			  "eth offloads");
	/* The other CQ caps, read directly (maximum and current). */
	for (op_mod = 0; op_mod <= 1; op_mod++) {
		MLX5_SET(query_hca_cap_in, in, opcode, 0x100);
		MLX5_SET(query_hca_cap_in, in, op_mod, op_mod);
		TEST_ASSERT_SUCCESS(mlx5_glue->devx_general_cmd(ctx, in,
				sizeof(in), out, sizeof(out)), "general cmd");
		TEST_ASSERT_EQUAL(out_status(out), 0, "status");
		hc = MLX5_ADDR_OF(query_hca_cap_out, out, capability);
		TEST_ASSERT_EQUAL(MLX5_GET(cmd_hca_cap, hc, cqe_compression_128),
				  c->cqe_compression_128, "comp 128");
		TEST_ASSERT_EQUAL(MLX5_GET(cmd_hca_cap, hc, cqe_128_always),
				  c->cqe_128_always, "128 always");
		TEST_ASSERT_EQUAL(MLX5_GET(cmd_hca_cap, hc,
					   mini_cqe_resp_stride_index),
				  c->mini_cqe_resp_stride_index, "stridx");
		TEST_ASSERT_EQUAL(MLX5_GET(cmd_hca_cap, hc,
					   enhanced_cqe_compression),
				  c->enhanced_cqe_compression, "enhanced");
		TEST_ASSERT_EQUAL(MLX5_GET(cmd_hca_cap, hc,
					   cqe_compression_max_num),
				  c->cqe_compression_max_num, "max num");
		TEST_ASSERT_EQUAL(MLX5_GET(cmd_hca_cap, hc,
					   cqe_compression_timeout),
				  c->cqe_compression_timeout, "timeout");
		TEST_ASSERT_EQUAL(MLX5_GET(cmd_hca_cap, hc, log_max_cq_sz),
				  c->log_max_cq_sz, "cq_sz");
	}
	return TEST_SUCCESS;
}

static int
test_emu_query_hca_attr(void)
{
	struct mlx5_emu_caps a, b;
	struct ibv_context *ca, *cb;
	int ret;

	mlx5_emu_caps_default(&a);
	mlx5_emu_caps_default(&b);
	caps_small(&b);
	ca = mlx5_emu_open("emu_cap0", &a);
	cb = mlx5_emu_open("emu_cap1", &b);
	TEST_ASSERT(ca != NULL && cb != NULL, "open");
	TEST_ASSERT_EQUAL(cb->num_comp_vectors, 2, "vectors");
	ret = check_caps(ca, &a);
	if (ret == TEST_SUCCESS)
		ret = check_caps(cb, &b);
	mlx5_emu_close(ca);
	mlx5_emu_close(cb);
	return ret;
}

static int
test_emu_general_cmd_errors(void)
{
	uint32_t in[MLX5_ST_SZ_DW(query_hca_cap_in)] = {0};
	uint32_t out[MLX5_ST_SZ_DW(query_hca_cap_out)];
	struct ibv_context *ctx;
	uint32_t synd;
	uint8_t status;

	ctx = mlx5_emu_open("emu_gc0", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	/* ODP caps (type 2) are not offered. */
	MLX5_SET(query_hca_cap_in, in, opcode, 0x100);
	MLX5_SET(query_hca_cap_in, in, op_mod, 2 << 1 | 1);
	TEST_ASSERT_EQUAL(mlx5_glue->devx_general_cmd(ctx, in, sizeof(in), out,
				sizeof(out)), EINVAL, "type 2");
	TEST_ASSERT_EQUAL(out_status(out), CMD_STAT_BAD_PARAM, "status");
	TEST_ASSERT_EQUAL(out_syndrome(out), MLX5_EMU_SYND_BAD_OP_MOD, "synd");
	TEST_ASSERT_SUCCESS(mlx5_emu_last_cmd_error(ctx, &status, &synd), "");
	TEST_ASSERT(status == CMD_STAT_BAD_PARAM &&
		    synd == MLX5_EMU_SYND_BAD_OP_MOD, "recorded");
	/* An unknown opcode. */
	MLX5_SET(query_hca_cap_in, in, opcode, 0x123);
	MLX5_SET(query_hca_cap_in, in, op_mod, 1);
	TEST_ASSERT_EQUAL(mlx5_glue->devx_general_cmd(ctx, in, sizeof(in), out,
				sizeof(out)), EINVAL, "opcode");
	TEST_ASSERT_EQUAL(out_status(out), CMD_STAT_BAD_OP, "status");
	TEST_ASSERT_EQUAL(out_syndrome(out), MLX5_EMU_SYND_BAD_OPCODE, "synd");
	/* Output too short for the capability layout. */
	MLX5_SET(query_hca_cap_in, in, opcode, 0x100);
	TEST_ASSERT_EQUAL(mlx5_glue->devx_general_cmd(ctx, in, sizeof(in), out,
				64), EIO, "short out");
	TEST_ASSERT_EQUAL(out_status(out), CMD_STAT_BAD_OUTP_LEN, "status");
	/* Input too short. */
	TEST_ASSERT_EQUAL(mlx5_glue->devx_general_cmd(ctx, in, 8, out,
				sizeof(out)), EIO, "short in");
	TEST_ASSERT_EQUAL(out_status(out), CMD_STAT_BAD_INP_LEN, "status");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	return TEST_SUCCESS;
}

/* --- umem --------------------------------------------------------------- */

/* Page size of the DPDK memory holding p. */
static uint64_t
dpdk_page_size(const void *p)
{
	const struct rte_memseg_list *msl = rte_mem_virt2memseg_list(p);

	return msl != NULL ? msl->page_sz : 0;
}

static int
test_emu_umem_page_size(void)
{
	struct ibv_context *ctx;
	struct mlx5dv_devx_umem *um;
	struct mlx5_emu_umem_info ui;
	uint64_t pgsz;
	uint8_t *buf;
	int huge;

	ctx = mlx5_emu_open("emu_um0", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	buf = rte_zmalloc(NULL, 4u << 20, 2u << 20);
	TEST_ASSERT_NOT_NULL(buf, "2 MiB aligned buffer");
	pgsz = dpdk_page_size(buf);
	huge = pgsz >= (2u << 20) && rte_eal_iova_mode() == RTE_IOVA_PA;
	/* One whole 2 MiB region, 2 MiB aligned. */
	um = mlx5_glue->devx_umem_reg(ctx, buf, 2u << 20,
				      IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT_NOT_NULL(um, "reg");
	TEST_ASSERT_SUCCESS(mlx5_emu_umem_query(ctx, um->umem_id, &ui), "q");
	TEST_ASSERT_EQUAL(ui.size, 2u << 20, "size");
	TEST_ASSERT_EQUAL(ui.refcnt, 0u, "unused");
	if (huge) {
		/* One hugepage: one segment, one 2 MiB translation entry. */
		TEST_ASSERT(ui.page_shift >= 21, "page shift %u", ui.page_shift);
		TEST_ASSERT_EQUAL(ui.npages, 1u, "one entry");
		TEST_ASSERT_EQUAL(ui.nsegs, 1u, "one segment");
		TEST_ASSERT_EQUAL(ui.host_page_shift,
				  (uint32_t)__builtin_ctzll(pgsz), "host");
	} else {
		/* 4 KiB pages of unknown physical layout. */
		TEST_ASSERT_EQUAL(ui.page_shift, 12u, "4 KiB");
		TEST_ASSERT_EQUAL(ui.npages, 512u, "512 entries");
		TEST_ASSERT_EQUAL(ui.nsegs, 512u, "512 segments");
		TEST_ASSERT_EQUAL(ui.host_page_shift, 12u, "host");
	}
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_umem_dereg(um), "dereg");
	/* 64 KiB at a 64 KiB boundary: pages never exceed the length
	 * (devx_umem_find_best_pgsize).
	 */
	um = mlx5_glue->devx_umem_reg(ctx, buf + (64u << 10), 64u << 10,
				      IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT_NOT_NULL(um, "reg 64K");
	TEST_ASSERT_SUCCESS(mlx5_emu_umem_query(ctx, um->umem_id, &ui), "q");
	TEST_ASSERT_EQUAL(ui.page_shift, (huge ? 16u : 12u), "64K pages");
	TEST_ASSERT_EQUAL(ui.npages, (huge ? 1u : 16u), "entries");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_umem_dereg(um), "dereg");
	/* 65600 bytes (a 64 KiB ring + a record, as mlx5_devx_cq_create
	 * registers): the length is no multiple of any larger page, so
	 * 4 KiB pages, 17 entries.
	 */
	um = mlx5_glue->devx_umem_reg(ctx, buf, 65600, IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT_NOT_NULL(um, "reg 65600");
	TEST_ASSERT_SUCCESS(mlx5_emu_umem_query(ctx, um->umem_id, &ui), "q");
	TEST_ASSERT_EQUAL(ui.page_shift, 12u, "4K");
	TEST_ASSERT_EQUAL(ui.npages, 17u, "17 entries");
	TEST_ASSERT_EQUAL(ui.nsegs, (huge ? 1u : 17u), "segments");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_umem_dereg(um), "dereg");
	/* A start inside a page: page_offset is the offset in the page. */
	um = mlx5_glue->devx_umem_reg(ctx, buf + 100, 8192,
				      IBV_ACCESS_LOCAL_WRITE);
	TEST_ASSERT_NOT_NULL(um, "reg +100");
	TEST_ASSERT_SUCCESS(mlx5_emu_umem_query(ctx, um->umem_id, &ui), "q");
	TEST_ASSERT_EQUAL(ui.page_shift, 12u, "4K");
	TEST_ASSERT_EQUAL(ui.page_offset, 100u, "page offset");
	TEST_ASSERT_EQUAL(ui.npages, 3u, "spans 3 pages");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_umem_dereg(um), "dereg");
	rte_free(buf);
	TEST_ASSERT(stats_idle(ctx), "idle");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	return TEST_SUCCESS;
}

static int
test_emu_umem_rules(void)
{
	struct ibv_context *ctx;
	struct mlx5dv_devx_umem *um;
	struct mlx5_emu_umem_info ui;
	struct mlx5_emu_stats st;
	uint8_t *hole;
	void *plain;

	ctx = mlx5_emu_open("emu_ur0", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	plain = aligned_alloc(4096, 16384);
	TEST_ASSERT_NOT_NULL(plain, "malloc");
	memset(plain, 0, 16384);
	TEST_ASSERT_NULL(mlx5_glue->devx_umem_reg(ctx, plain, 4096, 0x1000),
			 "unknown access bit");
	TEST_ASSERT_EQUAL(errno, EINVAL, "EINVAL");
	TEST_ASSERT_NULL(mlx5_glue->devx_umem_reg(ctx, plain, 4096,
				IBV_ACCESS_REMOTE_WRITE), "remote w/o local");
	TEST_ASSERT_EQUAL(errno, EINVAL, "EINVAL");
	TEST_ASSERT_NULL(mlx5_glue->devx_umem_reg(ctx, plain, 0,
				IBV_ACCESS_LOCAL_WRITE), "size 0");
	TEST_ASSERT_EQUAL(errno, EINVAL, "EINVAL");
	TEST_ASSERT_NULL(mlx5_glue->devx_umem_reg(ctx, (void *)(UINTPTR_MAX -
				100), 4096, IBV_ACCESS_LOCAL_WRITE), "wraps");
	TEST_ASSERT_EQUAL(errno, EINVAL, "EINVAL");
	hole = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	TEST_ASSERT(hole != MAP_FAILED, "mmap");
	munmap(hole, 8192);
	TEST_ASSERT_NULL(mlx5_glue->devx_umem_reg(ctx, hole, 4096,
				IBV_ACCESS_LOCAL_WRITE), "unmapped");
	TEST_ASSERT_EQUAL(errno, EFAULT, "EFAULT");
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(ctx, &st), "stats");
	TEST_ASSERT_EQUAL(st.umems, 0u, "nothing registered");
	/* Ordinary (non-DPDK) memory registers too. */
	um = mlx5_glue->devx_umem_reg(ctx, plain, 16384,
				      IBV_ACCESS_LOCAL_WRITE |
				      IBV_ACCESS_REMOTE_READ);
	TEST_ASSERT_NOT_NULL(um, "malloc memory");
	TEST_ASSERT_SUCCESS(mlx5_emu_umem_query(ctx, um->umem_id, &ui), "q");
	TEST_ASSERT_EQUAL(ui.addr, (uint64_t)(uintptr_t)plain, "addr");
	TEST_ASSERT_EQUAL(ui.access, (uint32_t)(IBV_ACCESS_LOCAL_WRITE |
				IBV_ACCESS_REMOTE_READ), "access");
	TEST_ASSERT(ui.page_shift >= 12 && ui.npages >= 1 &&
		    ui.npages == (16384u >> ui.page_shift), "entries %u/%u",
		    ui.npages, ui.page_shift);
	TEST_ASSERT_EQUAL(mlx5_emu_umem_query(ctx, um->umem_id + 1000, &ui),
			  -ENOENT, "unknown id");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_umem_dereg(um), "dereg");
	free(plain);
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	return TEST_SUCCESS;
}

/* --- CREATE_CQ by hand ---------------------------------------------------- */

struct cq_env {
	struct ibv_context *ctx;
	struct mlx5dv_devx_uar *uar;
	uint8_t *buf; /* Ring of 2^log x stride, then an 8 B record slot. */
	size_t len;
	struct mlx5dv_devx_umem *umem;
	uint32_t eqn;
	unsigned int log_size;
	unsigned int stride;
};

static int
env_init(struct cq_env *e, struct ibv_context *ctx, unsigned int log_size,
	 unsigned int stride)
{
	memset(e, 0, sizeof(*e));
	e->ctx = ctx;
	e->log_size = log_size;
	e->stride = stride;
	e->len = ((size_t)stride << log_size) + 64;
	e->buf = rte_zmalloc(NULL, e->len, 4096);
	e->uar = mlx5_glue->devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	if (e->buf == NULL || e->uar == NULL)
		return -1;
	e->umem = mlx5_glue->devx_umem_reg(ctx, e->buf, e->len,
					   IBV_ACCESS_LOCAL_WRITE);
	if (e->umem == NULL)
		return -1;
	return mlx5_glue->devx_query_eqn(ctx, 0, &e->eqn);
}

static void
env_fini(struct cq_env *e)
{
	if (e->umem != NULL)
		mlx5_glue->devx_umem_dereg(e->umem);
	if (e->uar != NULL)
		mlx5_glue->devx_free_uar(e->uar);
	rte_free(e->buf);
}

/* A valid CREATE_CQ mailbox, written field by field from the PRM. */
static void
build_create_cq(uint32_t *in, const struct cq_env *e, unsigned int cqe_sz)
{
	void *cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);

	memset(in, 0, CREATE_CQ_IN_LEN);
	MLX5_SET(create_cq_in, in, opcode, 0x400);
	MLX5_SET(cqc, cqc, log_cq_size, e->log_size);
	MLX5_SET(cqc, cqc, cqe_sz, cqe_sz);
	MLX5_SET(cqc, cqc, uar_page, e->uar->page_id);
	MLX5_SET(cqc, cqc, c_eqn, e->eqn);
	MLX5_SET(cqc, cqc, dbr_umem_valid, 1);
	MLX5_SET(cqc, cqc, dbr_umem_id, e->umem->umem_id);
	set_be64(MLX5_ADDR_OF(cqc, cqc, dbr_addr),
		 (uint64_t)e->stride << e->log_size);
	MLX5_SET(create_cq_in, in, cq_umem_valid, 1);
	MLX5_SET(create_cq_in, in, cq_umem_id, e->umem->umem_id);
}

static void
caps_cqsz12(struct mlx5_emu_caps *c)
{
	c->log_max_cq_sz = 12;
}

enum mut {
	M_LOG_SIZE, M_CQE_SZ3, M_MINI_EXT2, M_MINI_EXT_FMT, M_LAYOUT2,
	M_LAYOUT_NO_COMP, M_PERIOD_MODE, M_TS_FORMAT, M_STATUS, M_ST,
	M_CONSUMER, M_AS_NOTIFY, M_RES_C, M_RES_7, M_RES_18, M_RES_1C,
	M_RES_2E1, M_RES_300, M_RES_HDR,
	M_OP_MOD, M_PAGE_OFFSET, M_UAR, M_EQN0, M_EQN_HIGH, M_NO_UMEM,
	M_UMEM_ID, M_UMEM_OFFSET, M_UMEM_OFFSET_HUGE, M_LOG_PAGE_SIZE,
	M_NO_DBR, M_DBR_ID, M_DBR_ALIGN, M_DBR_RANGE, M_INLEN, M_OUTLEN,
	M_TRAILING_PAS, M_OPCODE, M_VHCA_TUNNEL,
};

struct mut_case {
	const char *name;
	enum mut m;
	int err; /* errno */
	uint8_t status;
	uint32_t synd;
};

static const struct mut_case mut_cases[] = {
	{ "log_cq_size > max", M_LOG_SIZE, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_LOG_SIZE },
	{ "cqe_sz 3", M_CQE_SZ3, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_CQE_SZ },
	{ "format ext 2", M_MINI_EXT2, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_MINI_FMT },
	{ "format ext 1 + fmt 1", M_MINI_EXT_FMT, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_MINI_FMT },
	{ "layout 2", M_LAYOUT2, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_LAYOUT },
	{ "layout 1 w/o comp", M_LAYOUT_NO_COMP, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_LAYOUT_NO_COMP },
	{ "cq_period_mode 2", M_PERIOD_MODE, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_PERIOD_MODE },
	{ "timestamp format 2", M_TS_FORMAT, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_TS_FORMAT },
	{ "status 1", M_STATUS, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_STATUS },
	{ "st 6", M_ST, EINVAL, CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_STATE },
	{ "consumer_counter 5", M_CONSUMER, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_STATE },
	{ "as_notify", M_AS_NOTIFY, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_UNSUPPORTED },
	{ "cqc reserved_at_c", M_RES_C, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_RESERVED },
	{ "cqc bit 0x07 (ext_element)", M_RES_7, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_RESERVED },
	{ "cqc bit 0x18 (always_armed_cq)", M_RES_18, EINVAL,
	  CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_RESERVED },
	{ "cqc bit 0x1c (reserved)", M_RES_1C, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_RESERVED },
	{ "reserved_at_2e1", M_RES_2E1, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_RESERVED },
	{ "reserved_at_300", M_RES_300, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_RESERVED },
	{ "header reserved_at_40", M_RES_HDR, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_HDR_RESERVED },
	{ "op_mod 1", M_OP_MOD, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_BAD_OP_MOD },
	{ "page_offset 1", M_PAGE_OFFSET, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_PAGE_OFFSET },
	{ "uar not allocated", M_UAR, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_UAR },
	{ "c_eqn 0 (kernel: ENOENT)", M_EQN0, ENOENT, 0, 0 },
	{ "c_eqn past the vectors", M_EQN_HIGH, ENOENT, 0, 0 },
	{ "cq_umem_valid 0", M_NO_UMEM, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_NO_UMEM },
	{ "cq_umem_id unknown", M_UMEM_ID, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_UMEM_ID },
	{ "ring past umem end", M_UMEM_OFFSET, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_UMEM_RANGE },
	{ "offset 2^63", M_UMEM_OFFSET_HUGE, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_UMEM_RANGE },
	{ "log_page_size 10", M_LOG_PAGE_SIZE, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_LOG_PAGE_SIZE },
	{ "dbr_umem_valid 0", M_NO_DBR, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_NO_DBR_UMEM },
	{ "dbr_umem_id unknown", M_DBR_ID, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_DBR_UMEM_ID },
	{ "dbr_addr not 8 B aligned", M_DBR_ALIGN, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_DBR_ALIGN },
	{ "dbr past umem end", M_DBR_RANGE, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_DBR_RANGE },
	{ "inlen 271", M_INLEN, EIO, CMD_STAT_BAD_INP_LEN,
	  MLX5_EMU_SYND_INLEN },
	{ "outlen 8", M_OUTLEN, EIO, CMD_STAT_BAD_OUTP_LEN,
	  MLX5_EMU_SYND_OUTLEN },
	{ "PAS after the mailbox", M_TRAILING_PAS, EINVAL, CMD_STAT_BAD_PARAM,
	  MLX5_EMU_SYND_CQ_INLINE_PAS },
	{ "opcode CREATE_QP", M_OPCODE, EINVAL, CMD_STAT_BAD_OP,
	  MLX5_EMU_SYND_BAD_OPCODE },
	{ "vhca_tunnel_id (kernel: EINVAL)", M_VHCA_TUNNEL, EINVAL, 0, 0 },
};

static void
apply_mut(enum mut m, uint32_t *in, size_t *inlen, size_t *outlen,
	  const struct cq_env *e)
{
	void *cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	uint8_t *b = (uint8_t *)in;

	switch (m) {
	case M_LOG_SIZE:
		MLX5_SET(cqc, cqc, log_cq_size, 13); break;
	case M_CQE_SZ3:
		MLX5_SET(cqc, cqc, cqe_sz, 3); break;
	case M_MINI_EXT2:
		MLX5_SET(cqc, cqc, mini_cqe_res_format_ext, 2); break;
	case M_MINI_EXT_FMT:
		MLX5_SET(cqc, cqc, mini_cqe_res_format_ext, 1);
		MLX5_SET(cqc, cqc, mini_cqe_res_format, 1); break;
	case M_LAYOUT2:
		MLX5_SET(cqc, cqc, cqe_comp_en, 1);
		MLX5_SET(cqc, cqc, cqe_comp_layout, 2); break;
	case M_LAYOUT_NO_COMP:
		MLX5_SET(cqc, cqc, cqe_comp_layout, 1); break;
	case M_PERIOD_MODE:
		MLX5_SET(cqc, cqc, cq_period_mode, 2); break;
	case M_TS_FORMAT:
		MLX5_SET(cqc, cqc, cq_timestamp_format, 2); break;
	case M_STATUS:
		MLX5_SET(cqc, cqc, status, 1); break;
	case M_ST:
		MLX5_SET(cqc, cqc, st, 6); break;
	case M_CONSUMER:
		MLX5_SET(cqc, cqc, consumer_counter, 5); break;
	case M_AS_NOTIFY:
		MLX5_SET(cqc, cqc, as_notify, 1); break;
	case M_RES_C:
		MLX5_SET(cqc, cqc, reserved_at_c, 1); break;
	/*
	 * By position (the names of these bits differ between DPDK
	 * releases): cqc bit N is in byte N / 8, mask 0x80 >> (N % 8).
	 */
	case M_RES_7:
		((uint8_t *)cqc)[0] |= 0x01; break;
	case M_RES_18:
		((uint8_t *)cqc)[3] |= 0x80; break;
	case M_RES_1C:
		((uint8_t *)cqc)[3] |= 0x08; break;
	case M_RES_2E1:
		MLX5_SET(create_cq_in, in, reserved_at_2e1, 1); break;
	case M_RES_300:
		b[0x300 / 8 + 17] = 0x40; break;
	case M_RES_HDR:
		b[12] = 1; break; /* reserved_at_40 + 0x20 */
	case M_OP_MOD:
		MLX5_SET(create_cq_in, in, op_mod, 1); break;
	case M_PAGE_OFFSET:
		MLX5_SET(cqc, cqc, page_offset, 1); break;
	case M_UAR:
		MLX5_SET(cqc, cqc, uar_page, e->uar->page_id + 1000); break;
	case M_EQN0:
		MLX5_SET(cqc, cqc, c_eqn, 0); break;
	case M_EQN_HIGH:
		MLX5_SET(cqc, cqc, c_eqn, e->eqn + e->ctx->num_comp_vectors);
		break;
	case M_NO_UMEM:
		MLX5_SET(create_cq_in, in, cq_umem_valid, 0); break;
	case M_UMEM_ID:
		MLX5_SET(create_cq_in, in, cq_umem_id, e->umem->umem_id + 77);
		break;
	case M_UMEM_OFFSET:
		set_be64(MLX5_ADDR_OF(create_cq_in, in, cq_umem_offset), 4096);
		break;
	case M_UMEM_OFFSET_HUGE:
		set_be64(MLX5_ADDR_OF(create_cq_in, in, cq_umem_offset),
			 1ull << 63);
		break;
	case M_LOG_PAGE_SIZE:
		MLX5_SET(cqc, cqc, log_page_size, 10); break; /* 4 MiB */
	case M_NO_DBR:
		MLX5_SET(cqc, cqc, dbr_umem_valid, 0); break;
	case M_DBR_ID:
		MLX5_SET(cqc, cqc, dbr_umem_id, e->umem->umem_id + 77); break;
	case M_DBR_ALIGN:
		set_be64(MLX5_ADDR_OF(cqc, cqc, dbr_addr),
			 ((uint64_t)e->stride << e->log_size) + 4);
		break;
	case M_DBR_RANGE:
		set_be64(MLX5_ADDR_OF(cqc, cqc, dbr_addr), e->len);
		break;
	case M_INLEN:
		*inlen = CREATE_CQ_IN_LEN - 1; break;
	case M_OUTLEN:
		*outlen = 8; break;
	case M_TRAILING_PAS:
		*inlen = CREATE_CQ_IN_LEN + 8;
		b[CREATE_CQ_IN_LEN + 3] = 0x10; break;
	case M_OPCODE:
		MLX5_SET(create_cq_in, in, opcode, 0x500); break;
	case M_VHCA_TUNNEL:
		b[4] = 1; break;
	}
}

/* One creation that must fail, leaving nothing behind. */
static int
expect_create_fail(struct cq_env *e, const uint32_t *in, size_t inlen,
		   size_t outlen, const struct mut_case *mc)
{
	uint32_t out[MLX5_ST_SZ_DW(create_cq_out)];
	struct mlx5_emu_stats s0, s1;
	struct mlx5_emu_umem_info ui;
	struct mlx5dv_devx_obj *obj;
	struct heap_snap hs;
	uint32_t synd = 0, refs;
	uint8_t status = 0;

	memset(out, 0, sizeof(out));
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(e->ctx, &s0), "stats");
	TEST_ASSERT_SUCCESS(mlx5_emu_umem_query(e->ctx, e->umem->umem_id,
						&ui), "umem");
	refs = ui.refcnt;
	heap_snap(&hs);
	errno = 0;
	obj = mlx5_glue->devx_obj_create(e->ctx, in, inlen, out, outlen);
	TEST_ASSERT_NULL(obj, "%s: created", mc->name);
	TEST_ASSERT_EQUAL(errno, mc->err, "%s: errno %d", mc->name, errno);
	TEST_ASSERT_EQUAL(out_status(out), mc->status, "%s: status 0x%x",
			  mc->name, out_status(out));
	if (outlen >= 8)
		TEST_ASSERT_EQUAL(out_syndrome(out), mc->synd,
				  "%s: syndrome 0x%x", mc->name,
				  out_syndrome(out));
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(e->ctx, &s1), "stats");
	if (mc->status != 0) {
		TEST_ASSERT_SUCCESS(mlx5_emu_last_cmd_error(e->ctx, &status,
							    &synd), "err");
		TEST_ASSERT(status == mc->status && synd == mc->synd,
			    "%s: recorded 0x%x/0x%x", mc->name, status, synd);
		TEST_ASSERT_EQUAL(s1.cmd_errors, s0.cmd_errors + 1,
				  "%s: counted", mc->name);
	} else {
		TEST_ASSERT_EQUAL(s1.cmd_errors, s0.cmd_errors,
				  "%s: no firmware error", mc->name);
	}
	TEST_ASSERT(s1.cqs == s0.cqs && s1.devx_objs == s0.devx_objs &&
		    s1.umems == s0.umems, "%s: objects", mc->name);
	TEST_ASSERT_SUCCESS(mlx5_emu_umem_query(e->ctx, e->umem->umem_id,
						&ui), "umem");
	TEST_ASSERT_EQUAL(ui.refcnt, refs, "%s: umem references", mc->name);
	TEST_ASSERT(heap_same(&hs), "%s: rte_malloc unchanged", mc->name);
	return TEST_SUCCESS;
}

static int
test_emu_create_cq_bad_fields(void)
{
	uint32_t in[CREATE_CQ_IN_LEN / 4 + 4];
	uint32_t out[MLX5_ST_SZ_DW(create_cq_out)];
	struct mlx5dv_devx_obj *obj;
	struct ibv_context *ctx;
	struct cq_env e;
	size_t inlen, outlen;
	unsigned int i;
	int ret = TEST_SUCCESS;

	ctx = open_caps("emu_bf0", caps_cqsz12);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	TEST_ASSERT_SUCCESS(env_init(&e, ctx, 10, 64), "env");
	/* The unmodified mailbox is good. */
	build_create_cq(in, &e, 0);
	obj = mlx5_glue->devx_obj_create(ctx, in, CREATE_CQ_IN_LEN, out,
					 sizeof(out));
	TEST_ASSERT_NOT_NULL(obj, "good mailbox: errno %d synd 0x%x", errno,
			     out_syndrome(out));
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(obj), "destroy");
	for (i = 0; i < RTE_DIM(mut_cases) && ret == TEST_SUCCESS; i++) {
		memset(in, 0, sizeof(in));
		build_create_cq(in, &e, 0);
		inlen = CREATE_CQ_IN_LEN;
		outlen = sizeof(out);
		apply_mut(mut_cases[i].m, in, &inlen, &outlen, &e);
		ret = expect_create_fail(&e, in, inlen, outlen, &mut_cases[i]);
	}
	env_fini(&e);
	TEST_ASSERT(stats_idle(ctx), "idle");
	mlx5_emu_close(ctx);
	return ret;
}

static void
caps_no_always128(struct mlx5_emu_caps *c)
{
	c->cqe_128_always = 0;
	c->cqe_compression = 0;
}

static void
caps_partial(struct mlx5_emu_caps *c)
{
	c->cqe_compression_128 = 0;
	c->mini_cqe_resp_flow_tag = 0;
	c->mini_cqe_resp_l3_l4_tag = 0;
	c->enhanced_cqe_compression = 0;
}

static void
caps_two_cqs(struct mlx5_emu_caps *c)
{
	c->log_max_cq = 1;
}

/*
 * A CREATE_CQ with cqc.cqe_sz as given is accepted and the firmware keeps
 * that stride.
 */
static int
expect_create_ok(struct cq_env *e, uint32_t *in, size_t inlen,
		 unsigned int cqe_sz, const char *what)
{
	uint32_t out[MLX5_ST_SZ_DW(create_cq_out)];
	struct mlx5_emu_cq_info info;
	struct mlx5dv_devx_obj *obj;

	memset(out, 0, sizeof(out));
	obj = mlx5_glue->devx_obj_create(e->ctx, in, inlen, out, sizeof(out));
	TEST_ASSERT_NOT_NULL(obj, "%s: errno %d status 0x%x synd 0x%x", what,
			     errno, out_status(out), out_syndrome(out));
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(e->ctx, MLX5_GET(create_cq_out,
				out, cqn), &info), "%s: query", what);
	TEST_ASSERT_EQUAL(info.cqe_sz, cqe_sz, "%s: cqe_sz %u", what,
			  info.cqe_sz);
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(obj), "%s: destroy",
			    what);
	return TEST_SUCCESS;
}

/*
 * Checks that depend on the device's capabilities. cqe_128_always gates
 * the padded stride (cqe_sz 2) only, as the kernel (create_cq_user()) and
 * mlx5e read it: plain 128 B CQEs (cqe_sz 1, what DPDK's
 * mlx5_devx_cmd_create_cq() asks for on 128-byte cache-line builds) are
 * accepted without it.
 */
static int
test_emu_create_cq_caps(void)
{
	static const struct mut_case ccomp = { "comp w/o cap", 0, EINVAL,
		CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_COMP };
	static const struct mut_case cpad = { "pad w/o cqe_128_always", 0,
		EINVAL, CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_CQE_PAD };
	static const struct mut_case ccomp128 = { "comp 128 w/o cap", 0,
		EINVAL, CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_COMP_128 };
	static const struct mut_case cftag = { "ftag w/o cap", 0, EINVAL,
		CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_MINI_FMT_CAP };
	static const struct mut_case cl34 = { "l3/l4 w/o cap", 0, EINVAL,
		CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_MINI_FMT_CAP };
	static const struct mut_case clayout = { "enhanced w/o cap", 0,
		EINVAL, CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_LAYOUT_CAP };
	static const struct mut_case climit = { "third CQ", 0, ENOMEM,
		CMD_STAT_LIM, MLX5_EMU_SYND_CQ_LIMIT };
	uint32_t in[CREATE_CQ_IN_LEN / 4];
	uint32_t out[MLX5_ST_SZ_DW(create_cq_out)];
	struct mlx5dv_devx_obj *obj[2];
	struct mlx5_emu_cq_info info;
	struct ibv_context *cb, *cc, *cd;
	void *cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	struct cq_env eb, ec, ed;
	int ret;

	cb = open_caps("emu_cc0", caps_no_always128);
	cc = open_caps("emu_cc1", caps_partial);
	cd = open_caps("emu_cc2", caps_two_cqs);
	TEST_ASSERT(cb != NULL && cc != NULL && cd != NULL, "open");
	TEST_ASSERT_SUCCESS(env_init(&eb, cb, 6, 128), "env b");
	TEST_ASSERT_SUCCESS(env_init(&ec, cc, 6, 128), "env c");
	TEST_ASSERT_SUCCESS(env_init(&ed, cd, 6, 64), "env d");
	/* Without cqe_128_always: plain 128 B yes, padded no. */
	build_create_cq(in, &eb, 1);
	ret = expect_create_ok(&eb, in, sizeof(in), 1,
			       "128 B w/o cqe_128_always");
	build_create_cq(in, &eb, 2);
	if (ret == 0)
		ret = expect_create_fail(&eb, in, sizeof(in), sizeof(out),
					 &cpad);
	build_create_cq(in, &eb, 0);
	MLX5_SET(cqc, cqc, cqe_comp_en, 1);
	if (ret == 0)
		ret = expect_create_fail(&eb, in, sizeof(in), sizeof(out),
					 &ccomp);
	/* With cqe_128_always (and little else): padded and plain 128 B. */
	build_create_cq(in, &ec, 2);
	if (ret == 0)
		ret = expect_create_ok(&ec, in, sizeof(in), 2,
				       "padded with cqe_128_always");
	build_create_cq(in, &ec, 1);
	if (ret == 0)
		ret = expect_create_ok(&ec, in, sizeof(in), 1,
				       "128 B with cqe_128_always");
	build_create_cq(in, &ec, 1);
	MLX5_SET(cqc, cqc, cqe_comp_en, 1);
	if (ret == 0)
		ret = expect_create_fail(&ec, in, sizeof(in), sizeof(out),
					 &ccomp128);
	build_create_cq(in, &ec, 0);
	MLX5_SET(cqc, cqc, cqe_comp_en, 1);
	MLX5_SET(cqc, cqc, mini_cqe_res_format, 2);
	if (ret == 0)
		ret = expect_create_fail(&ec, in, sizeof(in), sizeof(out),
					 &cftag);
	MLX5_SET(cqc, cqc, mini_cqe_res_format, 0);
	MLX5_SET(cqc, cqc, mini_cqe_res_format_ext, 1);
	if (ret == 0)
		ret = expect_create_fail(&ec, in, sizeof(in), sizeof(out),
					 &cl34);
	MLX5_SET(cqc, cqc, mini_cqe_res_format_ext, 0);
	MLX5_SET(cqc, cqc, cqe_comp_layout, 1);
	if (ret == 0)
		ret = expect_create_fail(&ec, in, sizeof(in), sizeof(out),
					 &clayout);
	if (ret != 0)
		goto out;
	/* What the partial device does support: CSUM_STRIDX compression of
	 * 64 B CQEs (the format reads back from the firmware).
	 */
	MLX5_SET(cqc, cqc, cqe_comp_layout, 0);
	MLX5_SET(cqc, cqc, mini_cqe_res_format, 3);
	obj[0] = mlx5_glue->devx_obj_create(cc, in, sizeof(in), out,
					    sizeof(out));
	TEST_ASSERT_NOT_NULL(obj[0], "csum+stridx");
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(cc, MLX5_GET(create_cq_out, out,
				cqn), &info), "query");
	TEST_ASSERT(info.cqe_comp_en == 1 && info.mini_cqe_res_format == 3,
		    "format kept");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(obj[0]), "destroy");
	/* 2^log_max_cq CQs at most. */
	build_create_cq(in, &ed, 0);
	obj[0] = mlx5_glue->devx_obj_create(cd, in, sizeof(in), out,
					    sizeof(out));
	obj[1] = mlx5_glue->devx_obj_create(cd, in, sizeof(in), out,
					    sizeof(out));
	TEST_ASSERT(obj[0] != NULL && obj[1] != NULL, "two CQs");
	{
		struct mlx5_emu_umem_info ui;

		mlx5_emu_umem_query(cd, ed.umem->umem_id, &ui);
		TEST_ASSERT_EQUAL(ui.refcnt, 2u, "two users");
		TEST_ASSERT_EQUAL(mlx5_glue->devx_umem_dereg(ed.umem), EBUSY,
				  "dereg while used");
		TEST_ASSERT_EQUAL(errno, EBUSY, "EBUSY");
	}
	{
		struct mlx5_emu_stats s0, s1;
		uint8_t st;
		uint32_t sy;

		mlx5_emu_stats_get(cd, &s0);
		TEST_ASSERT_NULL(mlx5_glue->devx_obj_create(cd, in, sizeof(in),
				 out, sizeof(out)), "third");
		TEST_ASSERT_EQUAL(errno, climit.err, "ENOMEM");
		TEST_ASSERT_EQUAL(out_status(out), climit.status, "LIM");
		TEST_ASSERT_EQUAL(out_syndrome(out), climit.synd, "synd");
		mlx5_emu_last_cmd_error(cd, &st, &sy);
		TEST_ASSERT(st == CMD_STAT_LIM && sy == climit.synd, "rec");
		mlx5_emu_stats_get(cd, &s1);
		TEST_ASSERT_EQUAL(s1.cqs, s0.cqs, "still two");
	}
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(obj[0]), "d0");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(obj[1]), "d1");
out:
	env_fini(&eb);
	env_fini(&ec);
	env_fini(&ed);
	TEST_ASSERT(stats_idle(cb) && stats_idle(cc) && stats_idle(cd),
		    "idle");
	mlx5_emu_close(cb);
	mlx5_emu_close(cc);
	mlx5_emu_close(cd);
	return ret;
}

/* Ring alignment, access and page-size rules against the umem. */
static int
test_emu_create_cq_ring_rules(void)
{
	static const struct mut_case calign = { "ring not 4K aligned", 0,
		EINVAL, CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_UMEM_ALIGN };
	static const struct mut_case cro = { "read-only umem", 0, EINVAL,
		CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_UMEM_ACCESS };
	static const struct mut_case cpg = { "2 MiB queue pages, 4K umem",
		0, EINVAL, CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_LOG_PAGE_SIZE };
	uint32_t in[CREATE_CQ_IN_LEN / 4];
	uint32_t out[MLX5_ST_SZ_DW(create_cq_out)];
	void *cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	struct mlx5dv_devx_umem *um_odd, *um_ro, *saved;
	struct ibv_context *ctx;
	struct cq_env e;
	int ret;

	ctx = mlx5_emu_open("emu_rr0", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	TEST_ASSERT_SUCCESS(env_init(&e, ctx, 6, 64), "env");
	saved = e.umem;
	/* A umem starting 64 B into the buffer: the ring at offset 0 of it
	 * is not on a 4 KiB boundary.
	 */
	um_odd = mlx5_glue->devx_umem_reg(ctx, e.buf + 64, e.len - 64,
					  IBV_ACCESS_LOCAL_WRITE);
	um_ro = mlx5_glue->devx_umem_reg(ctx, e.buf, e.len, 0);
	TEST_ASSERT(um_odd != NULL && um_ro != NULL, "umems");
	e.umem = um_odd;
	build_create_cq(in, &e, 0);
	set_be64(MLX5_ADDR_OF(cqc, cqc, dbr_addr), 4096 - 64);
	e.umem = um_odd;
	ret = expect_create_fail(&e, in, sizeof(in), sizeof(out), &calign);
	e.umem = um_ro;
	build_create_cq(in, &e, 0);
	if (ret == 0)
		ret = expect_create_fail(&e, in, sizeof(in), sizeof(out), &cro);
	/* 2 MiB queue pages on a umem of 4 KiB + 64 B, which the kernel
	 * translates with 4 KiB pages (devx_umem_find_best_pgsize(): the
	 * length is no multiple of anything larger), hugepage or not.
	 */
	e.umem = saved;
	build_create_cq(in, &e, 0);
	MLX5_SET(cqc, cqc, log_page_size, 9);
	if (ret == 0)
		ret = expect_create_fail(&e, in, sizeof(in), sizeof(out), &cpg);
	mlx5_glue->devx_umem_dereg(um_odd);
	mlx5_glue->devx_umem_dereg(um_ro);
	env_fini(&e);
	TEST_ASSERT(stats_idle(ctx), "idle");
	mlx5_emu_close(ctx);
	return ret;
}

/* --- rte_common_mlx5's own CQ creation on the model --------------------- */

static int
test_emu_dpdk_devx_cq(void)
{
	uint8_t last[CREATE_CQ_IN_LEN];
	size_t len = sizeof(last);
	struct mlx5_devx_cq_attr attr;
	struct mlx5_devx_cq cq;
	struct mlx5_emu_cq_info info;
	struct mlx5_emu_umem_info ui;
	struct mlx5_emu_stats st;
	struct mlx5dv_devx_uar *uar;
	struct ibv_context *ctx;
	struct heap_snap hs;
	/* 1024 entries of TEST_DPDK_CQE_SIZE, then the doorbell record. */
	const uint32_t ring = 1024 * TEST_DPDK_CQE_SIZE;
	uint32_t eqn0, umem_id, i;
	uint64_t pgsz;
	void *cqc;

	ctx = mlx5_emu_open("emu_dp0", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	uar = mlx5_glue->devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	TEST_ASSERT_NOT_NULL(uar, "uar");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_query_eqn(ctx, 0, &eqn0), "eqn");
	heap_snap(&hs);
	memset(&cq, 0, sizeof(cq));
	memset(&attr, 0, sizeof(attr));
	attr.uar_page_id = uar->page_id;
	TEST_ASSERT_SUCCESS(mlx5_devx_cq_create(ctx, &cq, 10, &attr,
						SOCKET_ID_ANY), "create");
	for (i = 0; i < 1024; i++)
		TEST_ASSERT_EQUAL(cq.cqes[i].op_own, 0xf1, "op_own %u", i);
	/* The mailbox the device received (PRM create_cq_in). */
	TEST_ASSERT_SUCCESS(mlx5_emu_last_cmd_in(ctx, last, &len), "last");
	TEST_ASSERT_EQUAL(len, (size_t)CREATE_CQ_IN_LEN, "272 bytes");
	cqc = MLX5_ADDR_OF(create_cq_in, last, cq_context);
	umem_id = ((struct mlx5dv_devx_umem *)cq.umem_obj)->umem_id;
	TEST_ASSERT_EQUAL(MLX5_GET(create_cq_in, last, opcode), 0x400u, "op");
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, log_cq_size), 10u, "log size");
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, cqe_sz), TEST_DPDK_CQE_SZ,
			  "cqe_sz: %u B entries", TEST_DPDK_CQE_SIZE);
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, log_page_size), 0u, "4 KiB");
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, c_eqn), eqn0, "eqn");
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, uar_page), uar->page_id, "uar");
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, dbr_umem_valid), 1u, "dbr v");
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, dbr_umem_id), umem_id, "dbr id");
	TEST_ASSERT_EQUAL(MLX5_GET64(cqc, cqc, dbr_addr), ring, "dbr_addr");
	TEST_ASSERT_EQUAL(MLX5_GET(create_cq_in, last, cq_umem_valid), 1u,
			  "umem valid");
	TEST_ASSERT_EQUAL(MLX5_GET(create_cq_in, last, cq_umem_id), umem_id,
			  "umem id");
	TEST_ASSERT_EQUAL(MLX5_GET64(create_cq_in, last, cq_umem_offset), 0u,
			  "offset");
	/* The firmware view. */
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(ctx, cq.cq->id, &info), "query");
	TEST_ASSERT(info.ring == (void *)(uintptr_t)cq.umem_buf, "ring");
	TEST_ASSERT(info.dbrec == cq.db_rec, "dbrec");
	TEST_ASSERT(info.log_cq_size == 10 &&
		    info.cqe_sz == TEST_DPDK_CQE_SZ &&
		    info.eqn == eqn0 && info.uar_page == uar->page_id &&
		    info.cq_umem_id == umem_id && info.dbr_offset == ring &&
		    info.pi == 0 && info.verbs == 0 && info.status == 0,
		    "info");
	/* The umem: the ring + a record of MLX5_DBR_SIZE (a cache line), one
	 * CQ using it.
	 */
	TEST_ASSERT_SUCCESS(mlx5_emu_umem_query(ctx, umem_id, &ui), "umem");
	TEST_ASSERT_EQUAL(ui.size, ring + RTE_CACHE_LINE_SIZE, "size");
	TEST_ASSERT_EQUAL(ui.refcnt, 1u, "one user");
	TEST_ASSERT_EQUAL(ui.page_shift, 12u, "4 KiB pages");
	TEST_ASSERT_EQUAL(ui.npages, ring / 4096 + 1, "page entries");
	pgsz = dpdk_page_size((void *)(uintptr_t)cq.umem_buf);
	if (pgsz >= (2u << 20) && rte_eal_iova_mode() == RTE_IOVA_PA) {
		TEST_ASSERT(ui.host_page_shift >= 21, "in a hugepage");
		if (pgsz >= ((uintptr_t)cq.umem_buf & (pgsz - 1)) + ring +
		    RTE_CACHE_LINE_SIZE)
			TEST_ASSERT_EQUAL(ui.nsegs, 1u, "one segment");
	} else {
		TEST_ASSERT_EQUAL(ui.host_page_shift, 12u, "4 KiB pages");
		TEST_ASSERT_EQUAL(ui.nsegs, ring / 4096 + 1, "segments");
	}
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(ctx, &st), "stats");
	TEST_ASSERT(st.cqs == 1 && st.devx_objs == 1 && st.umems == 1,
		    "one of each");
	mlx5_devx_cq_destroy(&cq);
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(ctx, &st), "stats");
	TEST_ASSERT(st.cqs == 0 && st.devx_objs == 0 && st.umems == 0,
		    "destroyed");
	TEST_ASSERT(heap_same(&hs), "rte_malloc back");
	mlx5_glue->devx_free_uar(uar);
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	return TEST_SUCCESS;
}

/* --- CQE writer ----------------------------------------------------------- */

/* Requester: send of WQE 0x1234 on QP 0xabcdef, 0x40 bytes read back. */
static const uint8_t img_req[64] = {
	[44] = 0x00, 0x00, 0x00, 0x40,
	[48] = 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	[56] = 0x0a, 0xab, 0xcd, 0xef,
	[60] = 0x12, 0x34, 0x00, 0x00, /* op_own: REQ 0, owner 0 */
};

/* Responder: 1500 B, hash 0xdeadbeef type 0x55, solicited. */
static const uint8_t img_resp[64] = {
	[12] = 0xde, 0xad, 0xbe, 0xef,
	[16] = 0x55,
	[20] = 0xbe, 0xef,
	[28] = 0x06, 0x01, 0x01, 0x23,
	[36] = 0x11, 0x22, 0x33, 0x44,
	[44] = 0x00, 0x00, 0x05, 0xdc,
	[48] = 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00,
	[56] = 0x00, 0x00, 0x00, 0x42,
	[60] = 0x00, 0x07, 0x00, 0x22, /* RESP_SEND 2 << 4 | SE */
};

/* Requester error: local protection (0x04), vendor 0x51. */
static const uint8_t img_req_err[64] = {
	[54] = 0x51, 0x04,
	[56] = 0x0a, 0x00, 0x01, 0x23,
	[60] = 0x00, 0x09, 0x00, 0xd0, /* REQ_ERR 13 */
};

/* Responder error: flushed (0x05), vendor 0xf9. */
static const uint8_t img_resp_err[64] = {
	[54] = 0xf9, 0x05,
	[56] = 0x00, 0x00, 0x00, 0x77,
	[60] = 0x00, 0x0a, 0x00, 0xe0, /* RESP_ERR 14 */
};

static void
cpls_fill(struct mlx5_emu_cpl c[4])
{
	memset(c, 0, 4 * sizeof(*c));
	c[0].kind = MLX5_EMU_CPL_REQ;
	c[0].wqe_counter = 0x1234;
	c[0].qpn = 0xabcdef;
	c[0].s_wqe_opcode = 0x0a;
	c[0].byte_cnt = 0x40;
	c[0].timestamp = 0x0102030405060708ull;
	c[1].kind = MLX5_EMU_CPL_RESP;
	c[1].solicited = 1;
	c[1].rx_hash_res = 0xdeadbeef;
	c[1].rx_hash_type = 0x55;
	c[1].csum = 0xbeef;
	c[1].hdr_type_etc = 0x0601;
	c[1].vlan_info = 0x0123;
	c[1].flow_table_metadata = 0x11223344;
	c[1].byte_cnt = 1500;
	c[1].timestamp = 0x1000;
	c[1].qpn = 0x42;
	c[1].wqe_counter = 7;
	c[2].kind = MLX5_EMU_CPL_REQ_ERR;
	c[2].syndrome = 0x04;
	c[2].vendor_syndrome = 0x51;
	c[2].s_wqe_opcode = 0x0a;
	c[2].qpn = 0x123;
	c[2].wqe_counter = 9;
	c[3].kind = MLX5_EMU_CPL_RESP_ERR;
	c[3].syndrome = 0x05;
	c[3].vendor_syndrome = 0xf9;
	c[3].qpn = 0x77;
	c[3].wqe_counter = 10;
}

/* A DPDK-created 8-entry CQ. */
struct small_cq {
	struct ibv_context *ctx;
	struct mlx5dv_devx_uar *uar;
	struct mlx5_devx_cq cq;
};

static int
small_cq_init(struct small_cq *s, const char *name, unsigned int log)
{
	struct mlx5_devx_cq_attr attr;

	memset(s, 0, sizeof(*s));
	memset(&attr, 0, sizeof(attr));
	s->ctx = mlx5_emu_open(name, NULL);
	if (s->ctx == NULL)
		return -1;
	s->uar = mlx5_glue->devx_alloc_uar(s->ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	if (s->uar == NULL)
		return -1;
	attr.uar_page_id = s->uar->page_id;
	return mlx5_devx_cq_create(s->ctx, &s->cq, log, &attr, SOCKET_ID_ANY);
}

static void
small_cq_fini(struct small_cq *s)
{
	mlx5_devx_cq_destroy(&s->cq);
	if (s->uar != NULL)
		mlx5_glue->devx_free_uar(s->uar);
	if (s->ctx != NULL)
		mlx5_emu_close(s->ctx);
}

static const uint8_t *
cqe_at(const struct small_cq *s, unsigned int i)
{
	return test_dpdk_cqe(&s->cq, i);
}

static int
test_emu_cqe_images(void)
{
	struct mlx5_emu_cpl c[4];
	struct small_cq s;
	uint8_t img[64];
	unsigned int i;
	int ret = TEST_SUCCESS;

	TEST_ASSERT_SUCCESS(small_cq_init(&s, "emu_im0", 3), "cq");
	cpls_fill(c);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(s.ctx, s.cq.cq->id, c, 4), 4,
			  "posted");
	if (memcmp(cqe_at(&s, 0), img_req, 64) ||
	    memcmp(cqe_at(&s, 1), img_resp, 64) ||
	    memcmp(cqe_at(&s, 2), img_req_err, 64) ||
	    memcmp(cqe_at(&s, 3), img_resp_err, 64))
		ret = TEST_FAILED;
	for (i = 4; i < 8; i++)
		if (cqe_at(&s, i)[63] != 0xf1)
			ret = TEST_FAILED;
	/* The same images through mlx5dv.h's accessors. */
	if (mlx5dv_get_cqe_opcode((struct mlx5_cqe64 *)(uintptr_t)
				  cqe_at(&s, 2)) != MLX5_CQE_REQ_ERR ||
	    ((const struct mlx5_err_cqe *)cqe_at(&s, 2))->syndrome != 0x04 ||
	    ((const struct mlx5_err_cqe *)cqe_at(&s, 3))->vendor_err_synd !=
	    0xf9)
		ret = TEST_FAILED;
	memcpy(img, cqe_at(&s, 1), 64);
	small_cq_fini(&s);
	TEST_ASSERT_EQUAL(ret, TEST_SUCCESS, "CQE bytes differ from PRM images"
			  " (entry 1 op_own 0x%02x)", img[63]);
	return TEST_SUCCESS;
}

static int
test_emu_cqe_wrap_and_full(void)
{
	struct mlx5_emu_cpl c[12];
	uint32_t qin[4] = {0}, qout[68] = {0};
	struct mlx5_emu_cq_info info;
	struct small_cq s;
	void *cqc;
	unsigned int i;

	TEST_ASSERT_SUCCESS(small_cq_init(&s, "emu_wf0", 3), "cq");
	memset(c, 0, sizeof(c));
	for (i = 0; i < 12; i++) {
		c[i].kind = MLX5_EMU_CPL_REQ;
		c[i].wqe_counter = (uint16_t)i;
	}
	/* 8 entries, consumer at 0: 8 written, the rest refused. */
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(s.ctx, s.cq.cq->id, c, 10), 8,
			  "ring full after 8");
	for (i = 0; i < 8; i++)
		TEST_ASSERT_EQUAL(cqe_at(&s, i)[63], 0x00, "pass 0 owner 0");
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(s.ctx, s.cq.cq->id, c, 1), 0,
			  "still full");
	/* The consumer frees 3 entries (doorbell record word 0, BE). */
	s.cq.db_rec[0] = rte_cpu_to_be_32(3);
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(s.ctx, s.cq.cq->id, &c[8], 4), 3,
			  "3 free");
	for (i = 0; i < 3; i++) {
		TEST_ASSERT_EQUAL(cqe_at(&s, i)[63], 0x01, "pass 1 owner 1");
		TEST_ASSERT_EQUAL(cqe_at(&s, i)[61], 8 + i, "wqe counter");
	}
	TEST_ASSERT_EQUAL(cqe_at(&s, 3)[63], 0x00, "entry 3 unchanged");
	TEST_ASSERT_SUCCESS(mlx5_emu_cq_query(s.ctx, s.cq.cq->id, &info), "q");
	TEST_ASSERT_EQUAL(info.pi, 11u, "producer counter");
	/* QUERY_CQ through the object: counters in the context. */
	MLX5_SET(create_cq_in, qin, opcode, 0x402);
	qin[2] = rte_cpu_to_be_32(s.cq.cq->id & 0xffffff);
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_query(s.cq.cq->obj, qin,
				sizeof(qin), qout, sizeof(qout)), "QUERY_CQ");
	cqc = (uint8_t *)qout + 16;
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, producer_counter), 11u, "pc");
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, consumer_counter), 3u, "cc");
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, log_cq_size), 3u, "log");
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, uar_page), s.uar->page_id, "uar");
	TEST_ASSERT_EQUAL(MLX5_GET(cqc, cqc, dbr_umem_id),
			  ((struct mlx5dv_devx_umem *)s.cq.umem_obj)->umem_id,
			  "dbr umem");
	TEST_ASSERT_EQUAL(MLX5_GET64(cqc, cqc, dbr_addr),
			  8u * TEST_DPDK_CQE_SIZE, "dbr_addr");
	/* A query naming another CQ is refused by the kernel. */
	qin[2] = rte_cpu_to_be_32((s.cq.cq->id + 1) & 0xffffff);
	TEST_ASSERT_EQUAL(mlx5_glue->devx_obj_query(s.cq.cq->obj, qin,
				sizeof(qin), qout, sizeof(qout)), EINVAL,
			  "other cqn");
	qin[2] = rte_cpu_to_be_32(s.cq.cq->id & 0xffffff);
	TEST_ASSERT_EQUAL(mlx5_glue->devx_obj_query(s.cq.cq->obj, qin,
				sizeof(qin), qout, 40), EIO, "short out");
	TEST_ASSERT_EQUAL(out_status(qout), CMD_STAT_BAD_OUTP_LEN, "0x51");
	/* Producer errors. */
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(s.ctx, 0x7777, c, 1), -ENOENT,
			  "unknown cqn");
	c[0].kind = (enum mlx5_emu_cpl_kind)9;
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(s.ctx, s.cq.cq->id, c, 1), -EINVAL,
			  "bad kind");
	c[0].kind = MLX5_EMU_CPL_RESP;
	c[0].opcode = 15;
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(s.ctx, s.cq.cq->id, c, 1), -EINVAL,
			  "INVALID opcode");
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(s.ctx, s.cq.cq->id, c, 0), 0,
			  "nothing");
	small_cq_fini(&s);
	return TEST_SUCCESS;
}

/* 128 B and padded CQs: the CQE is the second half of the entry. */
static int
test_emu_cqe_128(void)
{
	uint32_t in[CREATE_CQ_IN_LEN / 4];
	uint32_t out[MLX5_ST_SZ_DW(create_cq_out)];
	static const uint8_t zero[64];
	struct mlx5_emu_cpl c[4];
	struct mlx5dv_devx_obj *obj;
	struct ibv_context *ctx;
	struct cq_env e;
	unsigned int sz, i;
	uint32_t cqn;

	ctx = mlx5_emu_open("emu_128", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	TEST_ASSERT_SUCCESS(env_init(&e, ctx, 2, 128), "env");
	cpls_fill(c);
	for (sz = 1; sz <= 2; sz++) {
		memset(e.buf, 0x5a, e.len);
		for (i = 0; i < 4; i++)
			e.buf[i * 128 + 127] = 0xf1;
		memset(e.buf + 512, 0, 8); /* doorbell record */
		build_create_cq(in, &e, sz);
		obj = mlx5_glue->devx_obj_create(ctx, in, sizeof(in), out,
						 sizeof(out));
		TEST_ASSERT_NOT_NULL(obj, "cqe_sz %u", sz);
		cqn = MLX5_GET(create_cq_out, out, cqn);
		TEST_ASSERT_EQUAL(mlx5_emu_cq_post(ctx, cqn, c, 4), 4, "post");
		TEST_ASSERT_BUFFERS_ARE_EQUAL(e.buf, zero, 64, "first half 0");
		TEST_ASSERT_BUFFERS_ARE_EQUAL(e.buf + 64, img_req, 64, "req");
		TEST_ASSERT_BUFFERS_ARE_EQUAL(e.buf + 128, zero, 64, "half");
		TEST_ASSERT_BUFFERS_ARE_EQUAL(e.buf + 192, img_resp, 64, "rsp");
		TEST_ASSERT_BUFFERS_ARE_EQUAL(e.buf + 320, img_req_err, 64,
					      "req err");
		TEST_ASSERT_BUFFERS_ARE_EQUAL(e.buf + 448, img_resp_err, 64,
					      "resp err");
		TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(obj), "d");
	}
	env_fini(&e);
	mlx5_emu_close(ctx);
	return TEST_SUCCESS;
}

static int
test_emu_fault_injection(void)
{
	struct mlx5_devx_cq_attr attr;
	struct mlx5_devx_cq cq;
	struct mlx5dv_devx_uar *uar;
	struct ibv_context *ctx;
	struct heap_snap hs;
	uint32_t synd, eqn;
	uint8_t status;
	int ret;

	ctx = mlx5_emu_open("emu_fi0", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	mlx5_emu_fail_inject(ctx, MLX5_EMU_FAIL_UAR_ALLOC, 0, 1);
	TEST_ASSERT_NULL(mlx5_glue->devx_alloc_uar(ctx, 0), "uar fails");
	TEST_ASSERT_EQUAL(errno, ENOMEM, "ENOMEM");
	uar = mlx5_glue->devx_alloc_uar(ctx, 0);
	TEST_ASSERT_NOT_NULL(uar, "then works");
	memset(&attr, 0, sizeof(attr));
	attr.uar_page_id = uar->page_id;
	heap_snap(&hs);
	/* umem registration fails: nothing left behind. */
	mlx5_emu_fail_inject(ctx, MLX5_EMU_FAIL_UMEM_REG, 0, 1);
	memset(&cq, 0, sizeof(cq));
	ret = mlx5_devx_cq_create(ctx, &cq, 6, &attr, SOCKET_ID_ANY);
	TEST_ASSERT_EQUAL(ret, -ENOMEM, "umem fault: %d", ret);
	TEST_ASSERT(heap_same(&hs), "no rte_malloc leak");
	{
		struct mlx5_emu_stats st;

		mlx5_emu_stats_get(ctx, &st);
		TEST_ASSERT(st.umems == 0 && st.cqs == 0 && st.devx_objs == 0,
			    "no model object left");
	}
	/* The command fails on the second creation only (skip 1). */
	mlx5_emu_fail_inject(ctx, MLX5_EMU_FAIL_OBJ_CREATE, 1, 1);
	memset(&cq, 0, sizeof(cq));
	TEST_ASSERT_SUCCESS(mlx5_devx_cq_create(ctx, &cq, 6, &attr,
						SOCKET_ID_ANY), "first");
	mlx5_devx_cq_destroy(&cq);
	memset(&cq, 0, sizeof(cq));
	TEST_ASSERT_FAIL(mlx5_devx_cq_create(ctx, &cq, 6, &attr,
					     SOCKET_ID_ANY), "second fails");
	TEST_ASSERT_SUCCESS(mlx5_emu_last_cmd_error(ctx, &status, &synd), "e");
	TEST_ASSERT(status == CMD_STAT_LIM && synd == MLX5_EMU_SYND_INJECTED,
		    "status 0x%x synd 0x%x", status, synd);
	TEST_ASSERT(heap_same(&hs), "no rte_malloc leak");
	memset(&cq, 0, sizeof(cq));
	TEST_ASSERT_SUCCESS(mlx5_devx_cq_create(ctx, &cq, 6, &attr,
						SOCKET_ID_ANY), "third");
	mlx5_devx_cq_destroy(&cq);
	/* EQ query. */
	mlx5_emu_fail_inject(ctx, MLX5_EMU_FAIL_QUERY_EQN, 0, 1);
	TEST_ASSERT_FAIL(mlx5_glue->devx_query_eqn(ctx, 0, &eqn), "eqn");
	TEST_ASSERT_EQUAL(errno, EINVAL, "EINVAL");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_query_eqn(ctx, 0, &eqn), "again");
	/* Disarming. */
	mlx5_emu_fail_inject(ctx, MLX5_EMU_FAIL_UMEM_REG, 0, 5);
	mlx5_emu_fail_inject(ctx, MLX5_EMU_FAIL_UMEM_REG, 0, 0);
	memset(&cq, 0, sizeof(cq));
	TEST_ASSERT_SUCCESS(mlx5_devx_cq_create(ctx, &cq, 6, &attr,
						SOCKET_ID_ANY), "disarmed");
	mlx5_devx_cq_destroy(&cq);
	TEST_ASSERT(heap_same(&hs), "rte_malloc back");
	mlx5_glue->devx_free_uar(uar);
	TEST_ASSERT(stats_idle(ctx), "idle");
	mlx5_emu_close(ctx);
	return TEST_SUCCESS;
}

static void
caps_vec8(struct mlx5_emu_caps *c)
{
	c->num_comp_vectors = 8;
}

static int
test_emu_two_devices(void)
{
	static const struct mut_case cforeign_umem = { "umem of other dev", 0,
		EINVAL, CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_UMEM_ID };
	static const struct mut_case cforeign_uar = { "uar of other dev", 0,
		EINVAL, CMD_STAT_BAD_PARAM, MLX5_EMU_SYND_CQ_UAR };
	uint32_t in[CREATE_CQ_IN_LEN / 4];
	uint32_t out[MLX5_ST_SZ_DW(create_cq_out)];
	struct mlx5dv_devx_obj *o0, *o1;
	struct ibv_context *c0, *c1;
	struct cq_env e0, e1, mix;
	uint32_t eqn;
	int ret;

	c0 = open_caps("emu_two0", caps_small);
	c1 = open_caps("emu_two1", caps_vec8);
	TEST_ASSERT(c0 != NULL && c1 != NULL, "open");
	TEST_ASSERT(c0->num_comp_vectors == 2 && c1->num_comp_vectors == 8,
		    "vectors");
	TEST_ASSERT_FAIL(mlx5_glue->devx_query_eqn(c0, 5, &eqn), "dev0 v5");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_query_eqn(c1, 5, &eqn), "dev1 v5");
	TEST_ASSERT_SUCCESS(env_init(&e0, c0, 4, 64), "env0");
	TEST_ASSERT_SUCCESS(env_init(&e1, c1, 4, 64), "env1");
	build_create_cq(in, &e0, 0);
	o0 = mlx5_glue->devx_obj_create(c0, in, sizeof(in), out, sizeof(out));
	build_create_cq(in, &e1, 0);
	o1 = mlx5_glue->devx_obj_create(c1, in, sizeof(in), out, sizeof(out));
	TEST_ASSERT(o0 != NULL && o1 != NULL, "a CQ on each");
	/* Objects of one device mean nothing to the other. */
	mix = e1;
	mix.umem = e0.umem;
	build_create_cq(in, &mix, 0);
	ret = expect_create_fail(&e1, in, sizeof(in), sizeof(out),
				 &cforeign_umem);
	mix = e1;
	mix.uar = e0.uar;
	build_create_cq(in, &mix, 0);
	if (ret == 0)
		ret = expect_create_fail(&e1, in, sizeof(in), sizeof(out),
					 &cforeign_uar);
	TEST_ASSERT_EQUAL(mlx5_glue->close_device(c0), -EBUSY, "busy");
	TEST_ASSERT_EQUAL(mlx5_emu_is_emulated(c0), 1, "still open");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(o0), "d0");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(o1), "d1");
	env_fini(&e0);
	env_fini(&e1);
	TEST_ASSERT_SUCCESS(mlx5_glue->close_device(c0), "close 0");
	TEST_ASSERT_SUCCESS(mlx5_glue->close_device(c1), "close 1");
	return ret;
}

/* The writer against a concurrent poller: every CQE is seen once, whole,
 * in order.
 */
#define CONC_N 20000u

struct conc_arg {
	struct ibv_context *ctx;
	uint32_t cqn;
	int err;
	volatile int stop; /* The consumer gave up: end the producer. */
};

static void *
conc_producer(void *p)
{
	struct conc_arg *a = p;
	struct mlx5_emu_cpl c;
	uint32_t i = 0;
	int ret;

	memset(&c, 0, sizeof(c));
	c.kind = MLX5_EMU_CPL_RESP;
	while (i < CONC_N && !a->stop) {
		c.wqe_counter = (uint16_t)i;
		c.byte_cnt = i * 3 + 1;
		c.rx_hash_res = ~i;
		ret = mlx5_emu_cq_post(a->ctx, a->cqn, &c, 1);
		if (ret < 0) {
			a->err = ret;
			break;
		}
		if (ret == 0)
			sched_yield();
		i += ret;
	}
	return NULL;
}

static int
test_emu_cqe_concurrent_poll(void)
{
	struct conc_arg arg;
	struct small_cq s;
	pthread_t th;
	uint32_t ci = 0, bad = 0;
	uint64_t deadline;

	TEST_ASSERT_SUCCESS(small_cq_init(&s, "emu_cp0", 3), "cq");
	arg.ctx = s.ctx;
	arg.cqn = s.cq.cq->id;
	arg.err = 0;
	arg.stop = 0;
	TEST_ASSERT_SUCCESS(pthread_create(&th, NULL, conc_producer, &arg),
			    "thread");
	deadline = test_wait_deadline(TEST_WAIT_S);
	while (ci < CONC_N) {
		volatile struct mlx5_cqe *cqe = &s.cq.cqes[ci & 7];
		uint8_t op_own = cqe->op_own;

		if ((op_own & 1) != ((ci >> 3) & 1) || (op_own >> 4) == 15) {
			if (test_wait_expired(deadline)) {
				printf("  %u of %u consumed after %d s\n", ci,
				       CONC_N, TEST_WAIT_S);
				break;
			}
			sched_yield();
			continue;
		}
		rte_rmb();
		if (rte_be_to_cpu_16(cqe->wqe_counter) != (uint16_t)ci ||
		    rte_be_to_cpu_32(cqe->byte_cnt) != ci * 3 + 1 ||
		    rte_be_to_cpu_32(cqe->rx_hash_res) != ~ci)
			bad++;
		ci++;
		rte_wmb();
		s.cq.db_rec[0] = rte_cpu_to_be_32(ci & 0xffffff);
	}
	arg.stop = 1;
	pthread_join(th, NULL);
	small_cq_fini(&s);
	TEST_ASSERT_EQUAL(arg.err, 0, "producer error %d", arg.err);
	TEST_ASSERT_EQUAL(ci, CONC_N, "all consumed");
	TEST_ASSERT_EQUAL(bad, 0u, "torn or reordered CQEs");
	return TEST_SUCCESS;
}

static struct unit_test_suite emu_suite = {
	.suite_name = "emu",
	.unit_test_cases = {
		TEST_CASE(test_emu_open_close),
		TEST_CASE(test_emu_foreign_not_touched),
		TEST_CASE(test_emu_pd_uar_eqn_channel),
		TEST_CASE(test_emu_query_hca_attr),
		TEST_CASE(test_emu_general_cmd_errors),
		TEST_CASE(test_emu_umem_page_size),
		TEST_CASE(test_emu_umem_rules),
		TEST_CASE(test_emu_create_cq_bad_fields),
		TEST_CASE(test_emu_create_cq_caps),
		TEST_CASE(test_emu_create_cq_ring_rules),
		TEST_CASE(test_emu_dpdk_devx_cq),
		TEST_CASE(test_emu_cqe_images),
		TEST_CASE(test_emu_cqe_wrap_and_full),
		TEST_CASE(test_emu_cqe_128),
		TEST_CASE(test_emu_fault_injection),
		TEST_CASE(test_emu_two_devices),
		TEST_CASE(test_emu_cqe_concurrent_poll),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(emu, emu_suite);
