/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_rx_lro_setup": how net_mlx5cq sets an LRO queue up, as
 * net/mlx5 does (mlx5_rxq.c mlx5_rxq_new(), MLX5_MAX_LRO_HEADER_FIX;
 * mlx5.c lro_timeout_usec). The devarg lro_timeout_usec takes one of the
 * device's periods (8, 16, 32, 1024 us): bad values fail the probe, and
 * two segments are coalesced or not by a gap around the period chosen. A
 * queue is refused without the device capability, on a multi-packet RQ,
 * with a message below one 256-byte unit, or scattered over buffers too
 * small for the longest header (122 bytes), and leaks nothing; buffers
 * of exactly 122 bytes coalesce. The coalesced packets are checked as in
 * net_rx_lro (test_net_lro_fixture.c).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include <mlx5_emu.h>

#include "test.h"
#include "test_emu_net_fixture.h"
#include "test_net_fixture.h"
#include "test_net_lro_fixture.h"
#include "test_net_util.h"
#include "test_usage.h"

/*
 * Segment A, a gap of gap_us, segment B (PSH) on a port probed with
 * args: the packets (1: coalesced, 2: split), or -1 when they are not
 * what A and B make. The engine thread is paused from A to B: each
 * inject runs its own pass in this thread, stamped with the model clock
 * when it begins, so the gap the model sees is the one between the two
 * calls, *took_us (measured around both). Paused, the engine does not
 * spin on the CPU it shares with this thread (the EAL main lcore's),
 * which would delay the wake-up after the gap.
 */
static int
lro_gap(const char *args, unsigned int gap_us, uint64_t *took_us)
{
	static const uint16_t pay[] = { 600, 400 };
	const struct lro_flow fl = { .sport = 40040, .dport = 80 };
	struct rte_ether_addr mac;
	struct lro_seg g[2];
	struct rte_mbuf *m[3];
	uint32_t len, len1;
	uint64_t t0;
	uint16_t got;
	int port, ret = -1;

	*took_us = 0;
	if (lro_port(args, n_mp, 0, 0, LRO_OFFLOADS, &port) != 0) {
		lro_port_drop(port);
		printf("  %s: start failed\n", args);
		return -1;
	}
	rte_eth_macaddr_get(port, &mac);
	lro_segs(g, 2, 777, pay, NULL, 1);
	len = lro_frame(lro_fr[0], &mac, &fl, &g[0]);
	len1 = lro_frame(lro_fr[1], &mac, &fl, &g[1]);
	mlx5_emu_net_engine_pause(1);
	t0 = rte_get_timer_cycles();
	mlx5_emu_wire_inject("lrot", lro_fr[0], len);
	rte_delay_us_sleep(gap_us);
	mlx5_emu_wire_inject("lrot", lro_fr[1], len1);
	*took_us = (rte_get_timer_cycles() - t0) * 1000000 /
		   rte_get_timer_hz();
	mlx5_emu_net_engine_pause(0);
	got = lro_rx(port, m, 1, 3);
	if (got == 1 && lro_check_seg(m[0], &mac, &fl, g, 2, LRO_BUF) == 0)
		ret = 1;
	else if (got == 2 &&
		 lro_check_seg(m[0], &mac, &fl, g, 1, LRO_BUF) == 0 &&
		 lro_check_seg(m[1], &mac, &fl, &g[1], 1, LRO_BUF) == 0)
		ret = 2;
	else
		printf("  %s: %u packets\n", args, got);
	free_all(m, got);
	port_remove(port);
	return ret;
}

/*
 * A gap of 200 us under a timeout of 1024 us: coalesced. A try whose
 * gap took LRO_GAP_LATE_US or more (this thread woke late) shows
 * nothing and is made again, up to LRO_GAP_TRIES; a split after a gap
 * shorter than that fails at once.
 */
#define LRO_GAP_LATE_US 900
#define LRO_GAP_TRIES 20

static int
lro_gap_coalesces(const char *args)
{
	uint64_t took;
	unsigned int t;
	int r = -1;

	for (t = 0; t < LRO_GAP_TRIES; t++) {
		r = lro_gap(args, 200, &took);
		if (r == 1 || r < 0 || took < LRO_GAP_LATE_US)
			break;
	}
	if (r != 1)
		printf("  %s: %d packets after a gap of %" PRIu64 " us"
		       " (try %u)\n", args, r, took, t + 1);
	return r == 1;
}

/*
 * lro_timeout_usec: outside 1..65535 the probe fails and leaves nothing;
 * inside, the TIR gets the first of the device's periods (8, 16, 32,
 * 1024 us) at least as long, else the longest. Seen through a gap of
 * 200 us between two segments: split with the default (8 us) and 20
 * (32 us); coalesced with 1000 and 65535 (1024 us); a gap of 5 ms always
 * splits.
 */
static int
test_net_rx_lro_timeout(void)
{
	static const char *const bad[] = {
		"dev=emu,lro_timeout_usec=0",
		"dev=emu,lro_timeout_usec=65536",
		"dev=emu,lro_timeout_usec=-1",
		"dev=emu,lro_timeout_usec=ten",
	};
	static const char *const good[] = {
		"dev=emu,wire=lrot,lro_timeout_usec=1",
		"dev=emu,wire=lrot,lro_timeout_usec=20",
		"dev=emu,wire=lrot,lro_timeout_usec=1024",
		"dev=emu,wire=lrot,lro_timeout_usec=65535",
	};
	struct heap_use u0, u1;
	uint64_t took;
	uint32_t i;
	int port, ok = 1, r;

	heap_use(&u0);
	for (i = 0; i < RTE_DIM(bad); i++) {
		port = port_probe(LRO_NAME, bad[i]);
		lro_port_drop(port);
		STEP(port < 0, bad[i]);
	}
	heap_use(&u1);
	STEP(heap_use_same(&u0, &u1, "refused devargs") == 0, "no leak");
	for (i = 0; i < RTE_DIM(good); i++) {
		int ret = lro_port(good[i], n_mp, 0, 0, LRO_OFFLOADS, &port);

		lro_port_drop(port);
		STEP(ret == 0, good[i]);
	}
	r = lro_gap("dev=emu,wire=lrot", 200, &took);
	STEP(r == 2, "default (8 us): a gap of 200 us splits");
	r = lro_gap("dev=emu,wire=lrot,lro_timeout_usec=20", 200, &took);
	STEP(r == 2, "20 (32 us): a gap of 200 us splits");
	STEP(lro_gap_coalesces("dev=emu,wire=lrot,lro_timeout_usec=1000"),
	     "1000 (1024 us): a gap of 200 us coalesces");
	STEP(lro_gap_coalesces("dev=emu,wire=lrot,lro_timeout_usec=65535"),
	     "65535 (1024 us): a gap of 200 us coalesces");
	r = lro_gap("dev=emu,wire=lrot,lro_timeout_usec=65535", 5000, &took);
	STEP(r == 2, "65535 (1024 us): a gap of 5 ms splits");
	return ok ? TEST_SUCCESS : TEST_FAILED;
}

/*
 * Refusals, each counted for leaks: a device without lro_cap (no
 * TCP_LRO offered, max_lro_pkt_size 0, configure fails); LRO on a
 * multi-packet RQ (-ENOTSUP); a message below one unit (max_lro_pkt_size
 * 200 on MTU 120: 138 bytes, -EINVAL); scatter over 100-byte buffers,
 * fewer than the 122 of the longest header (-ENOTSUP); max_lro_pkt_size
 * above dev_info's (ethdev: -EINVAL).
 */
static int
test_net_rx_lro_refused(void)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_eth_dev_info info;
	struct mlx5_emu_caps caps;
	struct rte_mempool *tiny;
	struct heap_use u0, u1;
	int port, ret, ok = 1;

	tiny = rte_pktmbuf_pool_create("net_lro_tiny", 1024, 0, 0,
				       RTE_PKTMBUF_HEADROOM + 100,
				       SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(tiny, "pool");
	/* (a) A device without LRO. */
	heap_use(&u0);
	mlx5_emu_caps_default(&caps);
	caps.eth_lro = 0;
	ret = mlx5_emu_open_caps_set(&caps);
	port = ret == 0 ? port_probe(LRO_NAME, "dev=emu,wire=lror") : -1;
	mlx5_emu_open_caps_set(NULL);
	STEP(port >= 0, "probe without lro_cap");
	if (port >= 0) {
		STEP(rte_eth_dev_info_get(port, &info) == 0 &&
		     !(info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_TCP_LRO) &&
		     !(info.rx_queue_offload_capa &
		       RTE_ETH_RX_OFFLOAD_TCP_LRO) &&
		     info.max_lro_pkt_size == 0, "no LRO offered");
		conf.rxmode.offloads = LRO_OFFLOADS;
		ret = rte_eth_dev_configure(port, 1, 1, &conf);
		STEP(ret != 0, "configure with TCP_LRO refused");
		port_remove(port);
	}
	heap_use(&u1);
	STEP(heap_use_same(&u0, &u1, "device without LRO") == 0, "no leak");
	/* (b) A multi-packet RQ. */
	heap_use(&u0);
	ret = lro_port("dev=emu,wire=lror,mprq_en=1,rxqs_min_mprq=1", n_mp,
		       0, 0, LRO_OFFLOADS, &port);
	lro_port_drop(port);
	heap_use(&u1);
	STEP(ret == -ENOTSUP && lro_at == LRO_AT_RXQ,
	     "multi-packet RQ: queue set-up -ENOTSUP");
	if (ret != -ENOTSUP || lro_at != LRO_AT_RXQ)
		printf("  multi-packet RQ: %d at step %d\n", ret, lro_at);
	STEP(heap_use_same(&u0, &u1, "multi-packet RQ") == 0, "no leak");
	/* (c) 200 - 62 = 138 bytes: no unit. */
	heap_use(&u0);
	ret = lro_port("dev=emu,wire=lror", n_mp, 120, 200, LRO_OFFLOADS,
		       &port);
	lro_port_drop(port);
	heap_use(&u1);
	STEP(ret == -EINVAL && lro_at == LRO_AT_RXQ,
	     "message of 138 bytes: queue set-up -EINVAL");
	if (ret != -EINVAL || lro_at != LRO_AT_RXQ)
		printf("  max_lro_pkt_size 200, MTU 120: %d at step %d\n",
		       ret, lro_at);
	STEP(heap_use_same(&u0, &u1, "small message") == 0, "no leak");
	/* (d) 1518 bytes over 100-byte buffers: 16 a WQE, header too long. */
	heap_use(&u0);
	ret = lro_port("dev=emu,wire=lror", tiny, 0, 0, LRO_OFFLOADS |
		       RTE_ETH_RX_OFFLOAD_SCATTER, &port);
	lro_port_drop(port);
	heap_use(&u1);
	STEP(ret == -ENOTSUP && lro_at == LRO_AT_RXQ,
	     "100-byte buffers: queue set-up -ENOTSUP");
	if (ret != -ENOTSUP || lro_at != LRO_AT_RXQ)
		printf("  100-byte buffers: %d at step %d\n", ret, lro_at);
	STEP(heap_use_same(&u0, &u1, "small buffers") == 0, "no leak");
	/* (e) Above dev_info's max_lro_pkt_size. */
	heap_use(&u0);
	ret = lro_port("dev=emu,wire=lror", n_mp, 0, LRO_CAPA + 1,
		       LRO_OFFLOADS | RTE_ETH_RX_OFFLOAD_SCATTER, &port);
	lro_port_drop(port);
	heap_use(&u1);
	STEP(ret == -EINVAL && lro_at == LRO_AT_CONFIGURE,
	     "max_lro_pkt_size 65281: configure -EINVAL");
	STEP(heap_use_same(&u0, &u1, "too large") == 0, "no leak");
	rte_mempool_free(tiny);
	return ok ? TEST_SUCCESS : TEST_FAILED;
}

/*
 * Buffers of exactly the longest header (122 bytes): accepted; a
 * 1518-byte frame takes 13 of them, 16 a WQE. Three segments of 400
 * (20 + 1200 bytes within (1518 - 62) / 256 = 5 units) make a packet of
 * 1254 bytes over 11 buffers; the pool gets every buffer back.
 */
static int
test_net_rx_lro_small_bufs(void)
{
	static const uint16_t pay[] = { 400, 400, 400 };
	const struct lro_flow fl = { .sport = 40050, .dport = 80 };
	struct rte_ether_addr mac;
	struct rte_mempool *mp;
	struct lro_seg g[3];
	struct rte_mbuf *m[3];
	uint16_t got;
	int port, ok = 1;

	mp = rte_pktmbuf_pool_create("net_lro_122", 1024, 0, 0,
				     RTE_PKTMBUF_HEADROOM + LRO_HDR_FIX,
				     SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(mp, "pool");
	if (lro_port("dev=emu,wire=lrom", mp, 0, 0, LRO_OFFLOADS |
		     RTE_ETH_RX_OFFLOAD_SCATTER, &port) != 0) {
		lro_port_drop(port);
		rte_mempool_free(mp);
		TEST_ASSERT(0, "start with 122-byte buffers");
	}
	rte_eth_macaddr_get(port, &mac);
	lro_segs(g, 3, 424242, pay, NULL, 1);
	STEP(lro_inject("lrom", &mac, &fl, g, 3) == 0, "inject");
	got = lro_rx(port, m, 1, 3);
	STEP(got == 1 && lro_check_seg(m[0], &mac, &fl, g, 3, LRO_HDR_FIX) ==
	     TEST_SUCCESS, "a packet of 1254 bytes in 11 buffers");
	free_all(m, got);
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	STEP(rte_mempool_avail_count(mp) == 1024, "pool full");
	rte_mempool_free(mp);
	return ok ? TEST_SUCCESS : TEST_FAILED;
}

static struct unit_test_suite net_rx_lro_setup_suite = {
	.suite_name = "net_rx_lro_setup",
	.setup = net_suite_setup,
	.teardown = net_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_rx_lro_timeout),
		TEST_CASE(test_net_rx_lro_refused),
		TEST_CASE(test_net_rx_lro_small_bufs),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_rx_lro_setup, net_rx_lro_setup_suite);
