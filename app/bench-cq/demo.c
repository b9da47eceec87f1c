/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * dpdk-bench-cq ... -- demo [--count N]
 *
 * Opens an emulated HCA, creates CQs through DevX and verbs with 64 B and
 * 128 B CQEs, has the model write N completions into each (2M by default;
 * chunks of a quarter of the ring, a few error CQEs among them), polls them
 * as they come in bursts of 32, checks every record against what the model
 * was asked to write and prints one line per CQ. Cycles per completion are
 * those spent inside rte_mlx5cq_poll_burst() only.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_memory.h>

#include <mlx5_emu.h>
#include <rte_mlx5cq.h>

#include "test_cpl_expect.h"
#include "bench_cq.h"
#include "test_cq_cnt.h"

#define DEMO_COUNT_DEFAULT (2u * 1024 * 1024)
#define DEMO_ENTRIES 4096
#define DEMO_CHUNK (DEMO_ENTRIES / 4)
#define DEMO_BURST 32
#define DEMO_ERR_EVERY 4093 /* One error CQE every so many. */

struct demo_result {
	const char *path;
	uint16_t cqe_size;
	uint32_t entries;
	uint64_t completions;
	uint64_t errors;
	uint64_t mismatches;
	double cycles_per_cpl;
};

/* The completion number seq the model is asked to write. */
static void
demo_cpl(uint64_t seq, struct mlx5_emu_wc *c)
{
	static const uint8_t synd[] = { 0x05, 0x04, 0x15, 0x22, 0x42 };
	uint32_t x = (uint32_t)(seq * 0x9e3779b9u);

	memset(c, 0, sizeof(*c));
	c->wqe_counter = (uint16_t)seq;
	if (seq % DEMO_ERR_EVERY == DEMO_ERR_EVERY - 1) {
		c->kind = (seq / DEMO_ERR_EVERY) & 1 ? MLX5_EMU_WC_RESP_ERR :
			  MLX5_EMU_WC_REQ_ERR;
		c->syndrome = synd[(seq / DEMO_ERR_EVERY) % RTE_DIM(synd)];
		c->vendor_syndrome = (uint8_t)x;
		if (c->kind == MLX5_EMU_WC_REQ_ERR)
			c->s_wqe_opcode = 0x0a; /* SEND */
		c->qpn = 0x1000 + (x & 0xff);
		return;
	}
	if (seq & 1) {
		c->kind = MLX5_EMU_WC_REQ;
		c->s_wqe_opcode = 0x0a;
		c->qpn = 0x1000;
		return;
	}
	c->kind = MLX5_EMU_WC_RESP;
	c->opcode = MLX5_CQE_RESP_SEND;
	c->rx_hash_res = x;
	c->rx_hash_type = 0x22;
	c->csum = (uint16_t)(x >> 16);
	c->hdr_type_etc = RTE_MLX5CQ_HDR_IPV4 | RTE_MLX5CQ_HDR_UDP |
			  RTE_MLX5CQ_HDR_L3_OK | RTE_MLX5CQ_HDR_L4_OK;
	c->vlan_info = (uint16_t)(seq & 0xfff);
	c->byte_cnt = 60 + (uint32_t)(seq % 1455);
	c->qpn = (uint32_t)seq & 0xffffff; /* flow mark */
	c->flow_table_metadata = (uint32_t)(seq >> 3);
	c->timestamp = seq * 100;
}

static int
demo_one(struct ibv_context *ctx, struct rte_mlx5cq_dev *dev,
	 enum rte_mlx5cq_path path, uint16_t cqe_size, uint64_t count,
	 struct demo_result *res)
{
	struct mlx5_emu_wc post[DEMO_CHUNK];
	struct rte_mlx5cq_cpl cpl[DEMO_BURST];
	struct rte_mlx5cq_attr attr;
	struct rte_mlx5cq_info info;
	struct rte_mlx5cq *cq;
	uint64_t posted = 0, polled = 0, cycles = 0;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	res->path = path == RTE_MLX5CQ_PATH_DEVX ? "devx" : "verbs";
	res->cqe_size = cqe_size;
	memset(&attr, 0, sizeof(attr));
	attr.comp_mask = RTE_MLX5CQ_ATTR_CQE_SIZE;
	attr.cqe = DEMO_ENTRIES - 1;
	attr.cqe_size = cqe_size;
	attr.flags = RTE_MLX5CQ_F_SINGLE_THREADED;
	attr.socket = SOCKET_ID_ANY;
	attr.path = path;
	cq = rte_mlx5cq_create(dev, &attr);
	if (cq == NULL) {
		printf("demo: %s %u B: rte_mlx5cq_create: %s\n", res->path,
		       cqe_size, rte_strerror(rte_errno));
		return -1;
	}
	if (rte_mlx5cq_info_get(cq, &info) != 0) {
		printf("demo: rte_mlx5cq_info_get failed\n");
		goto out;
	}
	res->entries = info.entries;
	while (polled < count) {
		uint32_t k = (uint32_t)RTE_MIN((uint64_t)DEMO_CHUNK,
					       count - posted);
		uint32_t i;
		int n;

		for (i = 0; i < k; i++)
			demo_cpl(posted + i, &post[i]);
		n = k ? mlx5_emu_cq_post(ctx, info.cqn, post, k) : 0;
		if (n < 0) {
			printf("demo: mlx5_emu_cq_post: %d\n", n);
			goto out;
		}
		posted += (uint32_t)n;
		/* Poll what came in. */
		while (polled < posted) {
			uint64_t t0 = rte_rdtsc();
			uint16_t got = rte_mlx5cq_poll_burst(cq, cpl,
							     DEMO_BURST);

			cycles += rte_rdtsc() - t0;
			if (got == 0) {
				printf("demo: %" PRIu64 " posted, poll "
				       "stopped at %" PRIu64 "\n", posted,
				       polled);
				goto out;
			}
			for (i = 0; i < got; i++) {
				struct rte_mlx5cq_cpl e;
				struct mlx5_emu_wc c;
				const char *diff;

				demo_cpl(polled + i, &c);
				expect_emu_record(&c, &e);
				diff = expect_record_diff(&cpl[i], &e);
				if (diff != NULL && res->mismatches++ < 5)
					printf("demo: completion %" PRIu64
					       ": field %s differs\n",
					       polled + i, diff);
				res->errors += cpl[i].status != 0;
			}
			polled += got;
		}
	}
	res->completions = polled;
	res->cycles_per_cpl = polled ? (double)cycles / polled : 0;
	if (test_cq_cnt(cq)->completions != polled || test_cq_cnt(cq)->errors != res->errors) {
		printf("demo: counters %" PRIu64 "/%" PRIu64 " differ\n",
		       test_cq_cnt(cq)->completions, test_cq_cnt(cq)->errors);
		goto out;
	}
	ret = res->mismatches ? -1 : 0;
out:
	rte_mlx5cq_destroy(cq);
	return ret;
}

int
bench_cq_demo(int argc, char **argv)
{
	static const enum rte_mlx5cq_path paths[] = {
		RTE_MLX5CQ_PATH_DEVX, RTE_MLX5CQ_PATH_VERBS,
	};
	static const uint16_t sizes[] = { 64, 128 };
	struct demo_result res[RTE_DIM(paths) * RTE_DIM(sizes)];
	uint64_t count = DEMO_COUNT_DEFAULT, start;
	struct rte_mlx5cq_dev *dev;
	struct ibv_context *ctx;
	unsigned int p, s, n = 0;
	int i, failed = 0;

	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--count") == 0 && i + 1 < argc) {
			count = strtoull(argv[++i], NULL, 0);
		} else {
			printf("usage: demo [--count N]\n");
			return 2;
		}
	}
	ctx = mlx5_emu_open("demo0", NULL);
	if (ctx == NULL) {
		printf("demo: mlx5_emu_open failed\n");
		return 1;
	}
	dev = rte_mlx5cq_dev_open_ex(ctx, SOCKET_ID_ANY,
				RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS);
	if (dev == NULL) {
		printf("demo: rte_mlx5cq_dev_open: %s\n",
		       rte_strerror(rte_errno));
		mlx5_emu_close(ctx);
		return 1;
	}
	start = rte_get_timer_cycles();
	for (p = 0; p < RTE_DIM(paths); p++) {
		for (s = 0; s < RTE_DIM(sizes); s++) {
			if (demo_one(ctx, dev, paths[p], sizes[s], count,
				     &res[n]) != 0)
				failed = 1;
			n++;
		}
	}
	printf("%-6s %4s %8s %12s %7s %10s %9s\n", "path", "CQE", "entries",
	       "completions", "errors", "mismatches", "cyc/cpl");
	for (i = 0; i < (int)n; i++)
		printf("%-6s %3uB %8u %12" PRIu64 " %7" PRIu64 " %10" PRIu64
		       " %9.2f\n", res[i].path, res[i].cqe_size,
		       res[i].entries, res[i].completions, res[i].errors,
		       res[i].mismatches, res[i].cycles_per_cpl);
	printf("demo: %.2f s, %s\n",
	       (double)(rte_get_timer_cycles() - start) / rte_get_timer_hz(),
	       failed ? "FAILED" : "all completions checked");
	rte_mlx5cq_dev_close(dev);
	mlx5_emu_close(ctx);
	return failed;
}
