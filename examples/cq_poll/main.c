/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * cq_poll: the smallest mlx5cq program. It opens an emulated HCA (the
 * software model of an mlx5 device), creates one completion queue on it,
 * has the model write a few completions (receives, sends, one error) and
 * polls them with rte_mlx5cq_poll_burst(), then prints what it found.
 *
 *   cq_poll --no-pci --in-memory -l 0 -- [--verbs]
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_debug.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_memory.h>

#include <mlx5_emu.h>
#include <rte_mlx5cq.h>

#define CQ_ENTRIES 255
#define BURST 32

/* What the model is asked to write: five receives, two sends, one error
 * (a responder's local protection error, syndrome 0x04).
 */
static const struct {
	enum mlx5_emu_wc_kind kind;
	uint32_t byte_cnt;
	uint8_t syndrome;
} posts[] = {
	{ MLX5_EMU_WC_RESP, 64, 0 },
	{ MLX5_EMU_WC_RESP, 128, 0 },
	{ MLX5_EMU_WC_REQ, 0, 0 },
	{ MLX5_EMU_WC_RESP, 256, 0 },
	{ MLX5_EMU_WC_RESP_ERR, 0, 0x04 },
	{ MLX5_EMU_WC_RESP, 512, 0 },
	{ MLX5_EMU_WC_REQ, 0, 0 },
	{ MLX5_EMU_WC_RESP, 1024, 0 },
};

struct totals {
	unsigned int recv;
	unsigned int send;
	unsigned int error;
	uint64_t bytes;
	uint8_t status;
	uint8_t syndrome;
};

static int
post_all(struct ibv_context *ctx, uint32_t cqn)
{
	struct mlx5_emu_wc cpl[RTE_DIM(posts)];
	unsigned int i;

	memset(cpl, 0, sizeof(cpl));
	for (i = 0; i < RTE_DIM(posts); i++) {
		cpl[i].kind = posts[i].kind;
		cpl[i].wqe_counter = (uint16_t)i;
		cpl[i].byte_cnt = posts[i].byte_cnt;
		cpl[i].syndrome = posts[i].syndrome;
		if (posts[i].kind == MLX5_EMU_WC_REQ)
			cpl[i].s_wqe_opcode = 0x0a; /* SEND */
	}
	return mlx5_emu_cq_post(ctx, cqn, cpl, RTE_DIM(posts));
}

static void
poll_all(struct rte_mlx5cq *cq, struct totals *t)
{
	struct rte_mlx5cq_cpl cpl[BURST];
	uint16_t n, i;

	memset(t, 0, sizeof(*t));
	while ((n = rte_mlx5cq_poll_burst(cq, cpl, BURST)) > 0) {
		for (i = 0; i < n; i++) {
			if (cpl[i].status != 0) {
				t->error++;
				t->status = cpl[i].status;
				t->syndrome = cpl[i].syndrome;
			} else if (cpl[i].opcode == RTE_MLX5CQ_OP_REQ) {
				t->send++;
			} else {
				t->recv++;
				t->bytes += cpl[i].byte_cnt;
			}
		}
	}
}

int
main(int argc, char **argv)
{
	struct rte_mlx5cq_counters cnt;
	struct rte_mlx5cq_attr attr;
	struct rte_mlx5cq_info info;
	struct rte_mlx5cq_dev *dev;
	struct ibv_context *ctx;
	struct rte_mlx5cq *cq;
	struct totals t;
	int ret, posted;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		rte_exit(EXIT_FAILURE, "invalid EAL arguments\n");
	argc -= ret;
	argv += ret;

	memset(&attr, 0, sizeof(attr));
	attr.cqe = CQ_ENTRIES;
	attr.flags = RTE_MLX5CQ_F_SINGLE_THREADED;
	attr.socket = SOCKET_ID_ANY;
	attr.path = RTE_MLX5CQ_PATH_DEVX;
	if (argc > 1 && strcmp(argv[1], "--verbs") == 0)
		attr.path = RTE_MLX5CQ_PATH_VERBS;
	else if (argc > 1)
		rte_exit(EXIT_FAILURE, "usage: cq_poll [EAL args] -- [--verbs]\n");

	ctx = mlx5_emu_open("cq_poll0", NULL);
	if (ctx == NULL)
		rte_exit(EXIT_FAILURE, "cannot open an emulated HCA: %s\n",
			 strerror(errno));
	dev = rte_mlx5cq_dev_open_ex(ctx, SOCKET_ID_ANY,
				RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS);
	if (dev == NULL)
		rte_exit(EXIT_FAILURE, "rte_mlx5cq_dev_open: %s\n",
			 rte_strerror(rte_errno));
	cq = rte_mlx5cq_create(dev, &attr);
	if (cq == NULL || rte_mlx5cq_info_get(cq, &info) != 0)
		rte_exit(EXIT_FAILURE, "rte_mlx5cq_create: %s\n",
			 rte_strerror(rte_errno));
	printf("cq_poll: CQ of %u entries, %u B CQEs, %s path\n",
	       info.entries, info.cqe_size,
	       attr.path == RTE_MLX5CQ_PATH_DEVX ? "devx" : "verbs");

	posted = post_all(ctx, info.cqn);
	if (posted < 0)
		rte_exit(EXIT_FAILURE, "mlx5_emu_cq_post: %s\n",
			 strerror(-posted));
	printf("cq_poll: posted %d completions\n", posted);
	poll_all(cq, &t);
	printf("cq_poll: polled %u receive (%" PRIu64 " bytes), %u send, "
	       "%u error (status %u, syndrome 0x%02x)\n", t.recv, t.bytes,
	       t.send, t.error, t.status, t.syndrome);
	if (rte_mlx5cq_counters_get(cq, &cnt) != 0)
		rte_exit(EXIT_FAILURE, "rte_mlx5cq_counters_get failed\n");
	printf("cq_poll: CQ counters: %" PRIu64 " completions, %" PRIu64
	       " errors\n", cnt.completions, cnt.errors);

	ret = rte_mlx5cq_destroy(cq);
	ret |= rte_mlx5cq_dev_close(dev);
	ret |= mlx5_emu_close(ctx);
	rte_eal_cleanup();
	if (ret != 0) {
		printf("cq_poll: clean-up failed\n");
		return EXIT_FAILURE;
	}
	return EXIT_SUCCESS;
}
