/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef BENCH_DPDK_MLX5_H_
#define BENCH_DPDK_MLX5_H_

/*
 * bench-dpdk-mlx5: DPDK 22.11's own net/mlx5 RX burst functions
 * (mlx5_rx_burst, mlx5_rx_burst_vec) timed on RX rings prepared like
 * dpdk-bench-cq's perf-rx prepares a net_mlx5cq port's rings. Built by
 * meson with -Dbench_dpdk_mlx5=true, against a net/mlx5 static library
 * built from the DPDK source package (-Ddpdk_mlx5_build;
 * devtools/bench-dpdk-mlx5.sh builds that library, sets both options and
 * runs the program).
 *
 * Only bench_rxq.c includes DPDK's net/mlx5 internals; the other files see
 * the queue through the small interface below.
 */

#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

/* The frames the emulated wire delivers: size, RSS hash result. */
#define BENCH_FRAME_LEN 60
#define BENCH_RSS_HASH 0x6b8b4567u

struct ibv_context;
struct rte_mlx5cq;
struct rte_mlx5cq_dev;
struct mlx5_emu_wc;

/* One memory region as DPDK's mempool registration would make it. */
struct bench_range {
	uintptr_t start;
	uintptr_t end;
};

/* An RX burst function of DPDK (eth_rx_burst_t). */
typedef uint16_t (*bench_rx_fn)(void *rxq, struct rte_mbuf **pkts,
				uint16_t n);

/*
 * Which DPDK function: the scalar and the vector (SSE on x86) one, of a
 * cyclic RQ (mlx5_rx_burst, mlx5_rx_burst_vec) or of a striding RQ
 * (mlx5_rx_burst_mprq, mlx5_rx_burst_mprq_vec).
 */
enum bench_fn {
	BENCH_FN_SCALAR,
	BENCH_FN_VEC,
	BENCH_FN_MPRQ,
	BENCH_FN_MPRQ_VEC,
};

/* Queue parameters (what rte_eth_rx_queue_setup and the CQ give). */
struct bench_rxq_conf {
	void *cqes; /* CQ ring (64 B CQEs). */
	volatile uint32_t *cq_db; /* CQ doorbell record. */
	uint32_t cqn; /* CQ number. */
	uint32_t log_cqe; /* log2 of the CQ entries. */
	uint32_t log_desc; /* log2 of the RQ entries (WQEs). */
	/* Striding RQ: log2 of strides per WQE (0: cyclic RQ), of bytes. */
	uint32_t log_strd_num;
	uint32_t log_strd_sz;
	int compressed; /* CQ written with mini-CQEs... */
	int stridx; /* ... in CSUM_STRIDX format (else HASH). */
	struct rte_mempool *mp; /* Buffers. */
	const struct bench_range *mrs; /* Memory regions of mp, sorted. */
	unsigned int mrs_n;
	uint16_t port_id; /* mbuf->port. */
};

struct bench_rxq;

/* bench_pool.c */
struct rte_mempool *bench_pool_create(const char *name, unsigned int n,
				      unsigned int chunks);
int bench_pool_ranges(struct rte_mempool *mp, struct bench_range **out,
		      unsigned int *out_n);

/* bench_rxq.c */
bench_rx_fn bench_rxq_fn(enum bench_fn fn);
const char *bench_rxq_vec_name(void);
struct bench_rxq *bench_rxq_create(const struct bench_rxq_conf *conf);
void *bench_rxq_queue(struct bench_rxq *q);
uint32_t bench_rxq_posted(const struct bench_rxq *q);
void *bench_rxq_buf(const struct bench_rxq *q, uint32_t slot);
uint32_t bench_rxq_log_strd_num(const struct bench_rxq *q);
void bench_rxq_destroy(struct bench_rxq *q);

/* bench_wire.c: an emulated device's CQ written by the emulated HCA. */
struct bench_wire {
	struct ibv_context *ctx;
	struct rte_mlx5cq_dev *dev;
	struct rte_mlx5cq *cq;
	struct mlx5_emu_wc *cpl; /* One ring of completions to post. */
	void *ring;
	volatile uint32_t *dbrec;
	uint32_t cqn;
	uint32_t entries;
	/* Receive slots the "device" consumed: WQEs, strides (striding). */
	uint32_t hw_pi;
	uint8_t frame[64];
	uint32_t frame_len;
};

uint32_t bench_frame(uint8_t *f);
int bench_wire_open(struct bench_wire *w, unsigned int id, uint32_t entries,
		    uint8_t comp_format);
int bench_wire_deliver(struct bench_wire *w, struct bench_rxq *q,
		       uint32_t max);
void bench_wire_close(struct bench_wire *w);

/*
 * bench_port.c: a net_mlx5cq port of this project on an emulated wire, its
 * RX queue on a case's mempool, in the same process as DPDK's queues.
 */
struct bench_port {
	char name[32]; /* vdev name */
	char wire[16];
	uint16_t port; /* ethdev port, UINT16_MAX: none */
	int paused; /* the emulator's engine paused by this port */
	uint32_t desc; /* RX ring: frames per fill */
	uint8_t frame[64];
	uint32_t len;
	uint32_t hash; /* the frame's RSS hash with the port's key */
	const void **frames; /* desc pointers to frame */
	uint32_t *lens;
};

int bench_port_open(struct bench_port *p, unsigned int id, uint32_t desc,
		    int compressed, const char *extra, struct rte_mempool *mp);
int bench_port_fill(struct bench_port *p);
void bench_port_close(struct bench_port *p);

#endif /* BENCH_DPDK_MLX5_H_ */
