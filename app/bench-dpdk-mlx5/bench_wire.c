/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The device side of a case: an RX CQ created by this project's library
 * on an emulated device (DevX path, HASH compression when asked), whose
 * CQEs the emulated HCA writes (mlx5_emu_cq_post) as it writes a
 * net_mlx5cq port's RX completions on the emulated wire: one responder
 * completion per posted receive WQE, in RQ order (wqe_counter = the WQE
 * index), byte_cnt 60, the header types, checksum-ok bits, checksum and
 * RSS hash of one IPv4/UDP flow; the frame itself is copied into the WQE's
 * buffer first, as the wire does. Completions posted in one call are what
 * the device had at once, so with compression they form sessions of up to
 * 64 (the model's cqe_compression_max_num), like one engine pass on the
 * wire; a pass is posted in two calls split at the end of the ring (see
 * bench_wire_deliver).
 *
 * On a striding RQ (bench_rxq_log_strd_num() > 0) a frame goes into the
 * next stride of the WQE being filled, as the device places it (one
 * stride: 60 bytes, at the stride's start), and its completion is the
 * striding RQ's: byte_cnt = 60 | 1 << MLX5_MPRQ_STRIDE_NUM_SHIFT,
 * wqe_counter = the stride index, wqe_id = the WQE's counter. The model's
 * public producer does not know the completions come from a striding RQ
 * (the private flag that says so is for its own RQs); for these
 * one-stride completions its rules give the same sessions anyway: in HASH
 * format a completion joins only with the title's wqe_counter + its
 * position, which is the title's stride plus the strides before it (the
 * striding rule), and wqe_id, which no mini-CQE carries, must equal the
 * title's, so a session ends with its WQE, as on a striding RQ. In
 * CSUM_STRIDX format (DPDK's scalar MPRQ burst) the mini-CQE carries the
 * stride index, and wqe_id ends the session with the WQE too.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_lcore.h>
#include <rte_udp.h>

#include <mlx5_emu.h>
#include <rte_mlx5cq.h>

#include "bench_dpdk_mlx5.h"

/* mlx5_cqe hdr_type_etc: L2 ok, IPv4, UDP, L3 ok, L4 ok. */
#define BENCH_HDR_TYPE ((0x1 << 8) | (2 << 2) | (2 << 4) | (0x2 << 8) | \
			(0x4 << 8))
/* Striding RQ byte_cnt: strides from bit 16 (MLX5_MPRQ_STRIDE_NUM_SHIFT). */
#define BENCH_MPRQ_STRIDE_NUM_SHIFT 16
/* rx_hash_type: IPv4 addresses and UDP ports hashed. */
#define BENCH_HASH_TYPE ((1 << 2) | (2 << 6))

/* A 60-byte IPv4/UDP frame (the size perf-rx sends). */
uint32_t
bench_frame(uint8_t *f)
{
	struct rte_ether_hdr *eh = (struct rte_ether_hdr *)f;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eh + 1);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	uint16_t l4 = BENCH_FRAME_LEN - sizeof(*eh) - sizeof(*ip);

	memset(f, 0, BENCH_FRAME_LEN);
	memset(&eh->dst_addr, 0x02, RTE_ETHER_ADDR_LEN);
	memset(&eh->src_addr, 0x04, RTE_ETHER_ADDR_LEN);
	eh->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(BENCH_FRAME_LEN - sizeof(*eh));
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(0x0a000001);
	ip->dst_addr = rte_cpu_to_be_32(0x0a000002);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp->src_port = rte_cpu_to_be_16(1234);
	udp->dst_port = rte_cpu_to_be_16(5678);
	udp->dgram_len = rte_cpu_to_be_16(l4);
	return BENCH_FRAME_LEN;
}

int
bench_wire_open(struct bench_wire *w, unsigned int id, uint32_t entries,
		uint8_t comp_format)
{
	struct rte_mlx5cq_attr attr;
	struct rte_mlx5cq_info info;
	char name[32];

	memset(w, 0, sizeof(*w));
	snprintf(name, sizeof(name), "bdm%u", id);
	w->ctx = mlx5_emu_open(name, NULL);
	if (w->ctx == NULL) {
		printf("bench: mlx5_emu_open(%s): %s\n", name, strerror(errno));
		return -1;
	}
	w->dev = rte_mlx5cq_dev_open_ex(w->ctx, (int)rte_socket_id(),
				RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS);
	if (w->dev == NULL)
		goto fail;
	memset(&attr, 0, sizeof(attr));
	attr.comp_mask = RTE_MLX5CQ_ATTR_CQE_SIZE;
	attr.cqe = entries - 1; /* The ring holds roundup_pow2(cqe + 1). */
	attr.cqe_size = 64;
	attr.flags = RTE_MLX5CQ_F_SINGLE_THREADED;
	attr.socket = (int)rte_socket_id();
	attr.path = RTE_MLX5CQ_PATH_DEVX;
	if (comp_format != 0) {
		attr.comp_mask |= RTE_MLX5CQ_ATTR_COMPRESSED;
		attr.comp_format = comp_format;
		attr.comp_layout = RTE_MLX5CQ_COMP_LAYOUT_BASIC;
	}
	w->cq = rte_mlx5cq_create(w->dev, &attr);
	if (w->cq == NULL || rte_mlx5cq_info_get(w->cq, &info) != 0)
		goto fail;
	if (info.entries != entries || info.cqe_size != 64) {
		printf("bench: CQ of %u entries of %u B, wanted %u of 64 B\n",
		       info.entries, info.cqe_size, entries);
		goto fail;
	}
	w->ring = info.ring;
	w->dbrec = info.dbrec;
	w->cqn = info.cqn;
	w->entries = entries;
	w->cpl = calloc(entries, sizeof(*w->cpl));
	if (w->cpl == NULL)
		goto fail;
	w->frame_len = bench_frame(w->frame);
	return 0;
fail:
	printf("bench: emulated RX CQ of %u entries not created\n", entries);
	bench_wire_close(w);
	return -1;
}

/*
 * Deliver one frame into each receive WQE (stride of a striding RQ) the
 * queue has posted and the device has not used yet (at most max), and
 * post their completions. Returns the number delivered, or -1.
 */
int
bench_wire_deliver(struct bench_wire *w, struct bench_rxq *q, uint32_t max)
{
	uint32_t n = bench_rxq_posted(q) - w->hw_pi, i;
	uint32_t log_strd = bench_rxq_log_strd_num(q);
	int ret = 0;

	n = RTE_MIN(n, RTE_MIN(max, w->entries));
	for (i = 0; i < n; i++) {
		uint32_t slot = w->hw_pi + i;
		struct mlx5_emu_wc *c = &w->cpl[i];

		memcpy(bench_rxq_buf(q, slot), w->frame, w->frame_len);
		memset(c, 0, sizeof(*c));
		c->kind = MLX5_EMU_WC_RESP;
		c->byte_cnt = w->frame_len;
		c->wqe_counter = (uint16_t)slot;
		if (log_strd != 0) {
			c->byte_cnt |= 1u << BENCH_MPRQ_STRIDE_NUM_SHIFT;
			c->wqe_counter = (uint16_t)(slot &
						    (RTE_BIT32(log_strd) - 1));
			c->wqe_id = (uint16_t)(slot >> log_strd);
		}
		c->hdr_type_etc = BENCH_HDR_TYPE;
		c->rx_hash_type = BENCH_HASH_TYPE;
		c->rx_hash_res = BENCH_RSS_HASH;
		c->csum = 0xffff;
	}
	/*
	 * Two posts split at the end of the ring, so no compression session
	 * wraps it: DPDK's rxq_cq_decompress_v indexes a session's CQEs and
	 * mbufs from its title without the ring mask (the scalar path masks).
	 * Every completion takes one CQ slot (a session of k spans k), so the
	 * CQ producer index is hw_pi (one stride a completion on a striding
	 * RQ).
	 */
	for (i = 0; i < n; i += (uint32_t)ret) {
		uint32_t room = w->entries - ((w->hw_pi + i) & (w->entries - 1));
		uint32_t k = RTE_MIN(n - i, room);

		ret = mlx5_emu_cq_post(w->ctx, w->cqn, w->cpl + i, k);
		if (ret != (int)k) {
			printf("bench: mlx5_emu_cq_post: %d of %u (device at"
			       " %u, consumer at %u)\n", ret, k, w->hw_pi + i,
			       rte_be_to_cpu_32(*w->dbrec));
			return -1;
		}
	}
	w->hw_pi += n;
	return (int)n;
}

void
bench_wire_close(struct bench_wire *w)
{
	if (w->cq != NULL)
		rte_mlx5cq_destroy(w->cq);
	if (w->dev != NULL)
		rte_mlx5cq_dev_close(w->dev);
	if (w->ctx != NULL)
		mlx5_emu_close(w->ctx);
	free(w->cpl);
	memset(w, 0, sizeof(*w));
}
