/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu": the emulated HCA's devices and glue dispatch, QUERY_HCA_CAP
 * and general commands, umem pinning, fault injection.
 * Expected values come from the PRM layouts (mlx5_prm.h, mlx5dv.h), the
 * kernel rules quoted in the model's sources and hand-written CQE images;
 * the fixture is test_emu_fixture.c.
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
#include "test_emu_fixture.h"
#include "test_wait.h"

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
	TEST_ASSERT_NULL(emut_open_caps("emu_oc1", caps_bad_vectors), "0 vectors");
	TEST_ASSERT_EQUAL(errno, EINVAL, "EINVAL");
	TEST_ASSERT_SUCCESS(mlx5_emu_stats_get(ctx, &st), "stats");
	TEST_ASSERT(emut_stats_idle(ctx) && st.cmds == 0, "fresh device idle");
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
	struct mlx5_emu_wc cpl;
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
	TEST_ASSERT_EQUAL(errno, EOPNOTSUPP, "EOPNOTSUPP");
	for (i = 0; i < 4; i++) {
		TEST_ASSERT_SUCCESS(mlx5_glue->devx_query_eqn(ctx, i, &eqn[i]),
				    "eqn of vector %d", i);
		TEST_ASSERT_NOT_EQUAL(eqn[i], (uint32_t)i, "eqn != vector");
		for (j = 0; j < i; j++)
			TEST_ASSERT_NOT_EQUAL(eqn[i], eqn[j], "distinct");
	}
	errno = 0;
	TEST_ASSERT_FAIL(mlx5_glue->devx_query_eqn(ctx, 4, &e), "vector 4");
	TEST_ASSERT_EQUAL(errno, ENOENT, "ENOENT");
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
	TEST_ASSERT(emut_stats_idle(ctx), "idle");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	return TEST_SUCCESS;
}

/* --- capabilities ------------------------------------------------------- */

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
		TEST_ASSERT_EQUAL(emut_out_status(out), 0, "status");
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
	emut_caps_small(&b);
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
	TEST_ASSERT_EQUAL(emut_out_status(out), CMD_STAT_BAD_PARAM, "status");
	TEST_ASSERT_EQUAL(emut_out_syndrome(out), MLX5_EMU_SYND_BAD_OP_MOD, "synd");
	TEST_ASSERT_SUCCESS(mlx5_emu_last_cmd_error(ctx, &status, &synd), "");
	TEST_ASSERT(status == CMD_STAT_BAD_PARAM &&
		    synd == MLX5_EMU_SYND_BAD_OP_MOD, "recorded");
	/* An unknown opcode. */
	MLX5_SET(query_hca_cap_in, in, opcode, 0x123);
	MLX5_SET(query_hca_cap_in, in, op_mod, 1);
	TEST_ASSERT_EQUAL(mlx5_glue->devx_general_cmd(ctx, in, sizeof(in), out,
				sizeof(out)), EINVAL, "opcode");
	TEST_ASSERT_EQUAL(emut_out_status(out), CMD_STAT_BAD_OP, "status");
	TEST_ASSERT_EQUAL(emut_out_syndrome(out), MLX5_EMU_SYND_BAD_OPCODE, "synd");
	/* Output too short for the capability layout. */
	MLX5_SET(query_hca_cap_in, in, opcode, 0x100);
	TEST_ASSERT_EQUAL(mlx5_glue->devx_general_cmd(ctx, in, sizeof(in), out,
				64), EIO, "short out");
	TEST_ASSERT_EQUAL(emut_out_status(out), CMD_STAT_BAD_OUTP_LEN, "status");
	/* Input too short. */
	TEST_ASSERT_EQUAL(mlx5_glue->devx_general_cmd(ctx, in, 8, out,
				sizeof(out)), EIO, "short in");
	TEST_ASSERT_EQUAL(emut_out_status(out), CMD_STAT_BAD_INP_LEN, "status");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	return TEST_SUCCESS;
}

/* --- umem --------------------------------------------------------------- */

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
	pgsz = emut_dpdk_page_size(buf);
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
	TEST_ASSERT(emut_stats_idle(ctx), "idle");
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


static int
test_emu_fault_injection(void)
{
	struct mlx5_devx_cq_attr attr;
	struct mlx5_devx_cq cq;
	struct mlx5dv_devx_uar *uar;
	struct ibv_context *ctx;
	struct emut_heap hs;
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
	emut_heap_snap(&hs);
	/* umem registration fails: nothing left behind. */
	mlx5_emu_fail_inject(ctx, MLX5_EMU_FAIL_UMEM_REG, 0, 1);
	memset(&cq, 0, sizeof(cq));
	ret = mlx5_devx_cq_create(ctx, &cq, 6, &attr, SOCKET_ID_ANY);
	TEST_ASSERT_EQUAL(ret, -ENOMEM, "umem fault: %d", ret);
	TEST_ASSERT(emut_heap_same(&hs), "no rte_malloc leak");
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
	TEST_ASSERT(emut_heap_same(&hs), "no rte_malloc leak");
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
	TEST_ASSERT(emut_heap_same(&hs), "rte_malloc back");
	mlx5_glue->devx_free_uar(uar);
	TEST_ASSERT(emut_stats_idle(ctx), "idle");
	mlx5_emu_close(ctx);
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
		TEST_CASE(test_emu_fault_injection),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(emu, emu_suite);
