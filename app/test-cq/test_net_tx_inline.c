/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_tx_inline": the TX WQE net_mlx5cq writes for one frame, byte
 * by byte against the PRM layout (mlx5_prm.h, infiniband/mlx5dv.h), on
 * emulated devices that report each Ethernet wqe_inline_mode:
 *
 * - "not required" (the default, as ConnectX-5 and later): control
 *   segment with DS 3, Ethernet segment with inline_hdr_sz 0 and no
 *   inline bytes, one data segment for the whole frame;
 * - L2, and "vport context" (the NIC vport context says L2): DS 4,
 *   inline_hdr_sz 18, frame bytes 0..1 at the end of the Ethernet segment
 *   and 2..17 in the next 16 bytes, a data segment for the rest;
 *
 * the data segment's lkey is the one region the emulated HCA registered
 * over the mbuf's memory (mlx5_emu_mr_find, not the PMD). The frame is
 * then received whole on the port's loopback wire (the emulated HCA
 * refuses a WQE without the inline header where L2 is required:
 * emu_net_inline suite), and the queue counts no error. The engine is
 * paused, so the WQE is read before the device executes it.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include <infiniband/mlx5dv.h>
#include <mlx5_emu.h>
#include <mlx5_prm.h>

#include "mlx5cq_ethdev.h"

#include "test.h"
#include "test_net_util.h"

#define TI_FRAME_PAYLOAD 18 /* 14 + 20 + 8 + 18 = 60 bytes */

static unsigned int ti_seq; /* unique port and wire names */

static uint32_t
ti_be32(const volatile uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static uint64_t
ti_be64(const volatile uint8_t *p)
{
	return (uint64_t)ti_be32(p) << 32 | ti_be32(p + 4);
}

/*
 * The WQE at w of a SEND of frame f (len bytes) at buffer address addr
 * (lkey lk), from SQ sqn, WQE index 0, inlining ih bytes (0 or 18).
 * 0, or -1 after printing the first difference.
 */
static int
ti_wqe_check(const volatile uint8_t *w, uint32_t sqn, const uint8_t *f,
	     uint32_t len, uint64_t addr, uint32_t lk, uint32_t ih)
{
	const volatile uint8_t *d = w + (ih ? 48 : 32); /* data segment */
	const uint32_t ds = ih ? 4 : 3;
	uint32_t i;

	/* Control segment: opmod_idx_opcode, qpn_ds (fm_ce_se: no check,
	 * completion requests follow tx_comp_thresh).
	 */
	if (ti_be32(w) != MLX5_OPCODE_SEND ||
	    ti_be32(w + 4) != (sqn << 8 | ds)) {
		printf("    ctrl: 0x%08x 0x%08x, want 0x%08x 0x%08x\n",
		       ti_be32(w), ti_be32(w + 4), MLX5_OPCODE_SEND,
		       sqn << 8 | ds);
		return -1;
	}
	/* Ethernet segment (bytes 16..31): no checksum flags asked, no
	 * VLAN insertion; inline_hdr_sz at 28..29.
	 */
	for (i = 16; i < 28; i++)
		if (w[i] != 0) {
			printf("    eseg byte %u: 0x%02x\n", i, w[i]);
			return -1;
		}
	if ((uint32_t)(w[28] << 8 | w[29]) != ih) {
		printf("    inline_hdr_sz %u, want %u\n", w[28] << 8 | w[29],
		       ih);
		return -1;
	}
	for (i = 0; i < (ih ? 18u : 2u); i++)
		if (w[30 + i] != (ih ? f[i] : 0)) {
			printf("    inline byte %u: 0x%02x\n", i, w[30 + i]);
			return -1;
		}
	if (ti_be32(d) != len - ih || ti_be32(d + 4) != lk ||
	    ti_be64(d + 8) != addr + ih) {
		printf("    dseg: byte_count %u lkey 0x%x addr 0x%" PRIx64
		       ", want %u 0x%x 0x%" PRIx64 "\n", ti_be32(d),
		       ti_be32(d + 4), ti_be64(d + 8), len - ih, lk,
		       addr + ih);
		return -1;
	}
	return 0;
}

/* One frame through a port of a device reporting cap_mode. */
static int
ti_case(int cap_mode, uint32_t ih)
{
	struct mlx5_emu_caps caps;
	struct rte_eth_conf conf;
	struct rte_ether_addr mac;
	struct rte_eth_stats st;
	struct rte_mempool *mp;
	struct rte_mbuf *m, *rx[4];
	const struct mlx5cq_txq *txq;
	char name[48], args[96], pool[32];
	uint8_t f[128];
	uint32_t len, lk = 0;
	uint16_t got = 0;
	int port, ret = -1, i;

	snprintf(pool, sizeof(pool), "ti_pool%u", ti_seq);
	mp = rte_pktmbuf_pool_create(pool, 512, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (mp == NULL)
		return -1;
	mlx5_emu_caps_default(&caps);
	caps.eth_inline_mode = (uint8_t)cap_mode;
	if (mlx5_emu_open_caps_set(&caps) != 0) {
		rte_mempool_free(mp);
		return -1;
	}
	snprintf(name, sizeof(name), "net_mlx5cq_ti%u", ti_seq);
	snprintf(args, sizeof(args), "dev=emu,wire=ti%u", ti_seq++);
	port = port_probe(name, args);
	mlx5_emu_open_caps_set(NULL);
	if (port < 0) {
		printf("    probe failed\n");
		rte_mempool_free(mp);
		return -1;
	}
	memset(&conf, 0, sizeof(conf));
	if (rte_eth_dev_configure((uint16_t)port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup((uint16_t)port, 0, 64, SOCKET_ID_ANY, NULL,
				   mp) != 0 ||
	    rte_eth_tx_queue_setup((uint16_t)port, 0, 64, SOCKET_ID_ANY,
				   NULL) != 0 ||
	    rte_eth_dev_start((uint16_t)port) != 0 ||
	    rte_eth_macaddr_get((uint16_t)port, &mac) != 0) {
		printf("    port not started\n");
		goto out;
	}
	txq = rte_eth_devices[port].data->tx_queues[0];
	len = frame_build(f, &mac, RTE_IPV4(10, 1, 2, 3), 4321,
			  TI_FRAME_PAYLOAD, 0);
	m = rte_pktmbuf_alloc(mp);
	if (m == NULL)
		goto out;
	memcpy(rte_pktmbuf_append(m, (uint16_t)len), f, len);
	if (mlx5_emu_mr_find(txq->priv->ctx, rte_pktmbuf_mtod(m, void *),
			     len, &lk) != 1) {
		printf("    the mbuf's memory is not in exactly one MR\n");
		rte_pktmbuf_free(m);
		goto out;
	}
	mlx5_emu_net_engine_pause(1);
	if (rte_eth_tx_burst((uint16_t)port, 0, &m, 1) != 1) {
		printf("    not sent\n");
		rte_pktmbuf_free(m);
		goto out_pause;
	}
	if (txq->inline_hdr != ih ||
	    ti_wqe_check(txq->wqes, txq->sqn, f, len,
			 rte_pktmbuf_mtod(m, uintptr_t), lk, ih) != 0) {
		printf("    WQE (queue inlines %u bytes, want %u)\n",
		       txq->inline_hdr, ih);
		goto out_pause;
	}
	for (i = 0; i < 100 && got == 0; i++) {
		mlx5_emu_net_progress();
		got = rte_eth_rx_burst((uint16_t)port, 0, rx, RTE_DIM(rx));
	}
	if (got != 1 || rx[0]->pkt_len != len ||
	    memcmp(rte_pktmbuf_mtod(rx[0], void *), f, len) != 0) {
		printf("    %u frames back, not the frame sent\n", got);
		free_all(rx, got);
		goto out_pause;
	}
	free_all(rx, got);
	if (rte_eth_stats_get((uint16_t)port, &st) != 0 || st.oerrors != 0 ||
	    st.opackets != 1 || st.ierrors != 0) {
		printf("    stats: opackets %" PRIu64 " oerrors %" PRIu64 "\n",
		       st.opackets, st.oerrors);
		goto out_pause;
	}
	ret = 0;
out_pause:
	mlx5_emu_net_engine_pause(0);
out:
	port_remove((uint16_t)port);
	rte_mempool_free(mp);
	return ret;
}

static int
test_tx_inline(void)
{
	static const struct {
		const char *name;
		int cap_mode;
		uint32_t ih;
	} cases[] = {
		{ "not required", MLX5_CAP_INLINE_MODE_NOT_REQUIRED, 0 },
		{ "L2", MLX5_CAP_INLINE_MODE_L2, MLX5CQ_INLINE_HDR },
		{ "vport context (L2)", MLX5_CAP_INLINE_MODE_VPORT_CONTEXT,
		  MLX5CQ_INLINE_HDR },
	};
	unsigned int i, failed = 0;

	TEST_ASSERT_SUCCESS(net_load(), "PMD not loaded");
	TEST_ASSERT_SUCCESS(net_ethdev_hold(), "ethdev owner");
	for (i = 0; i < RTE_DIM(cases); i++) {
		printf("  wqe_inline_mode %s\n", cases[i].name);
		if (ti_case(cases[i].cap_mode, cases[i].ih) != 0) {
			printf("  wqe_inline_mode %s: FAILED\n",
			       cases[i].name);
			failed++;
		}
	}
	net_ethdev_release();
	TEST_ASSERT_EQUAL(failed, 0u, "%u of %u cases failed", failed,
			  (unsigned int)RTE_DIM(cases));
	return TEST_SUCCESS;
}

static struct unit_test_suite net_tx_inline_suite = {
	.suite_name = "net_tx_inline",
	.unit_test_cases = {
		TEST_CASE(test_tx_inline),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(net_tx_inline, net_tx_inline_suite);
