/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_removal": a net_mlx5cq port whose device fails while it
 * forwards. Two ports A and B on one emulated wire exchange traffic; then
 * A's device fails (mlx5_emu_dev_fail(): a firmware fatal error, or a
 * removal, which reports IBV_EVENT_DEVICE_FATAL twice). A, configured with
 * intr_conf.rmv, calls its RTE_ETH_EVENT_INTR_RMV callback exactly once; B
 * (without) never; both links go down (A's PHY is gone). A's bursts return
 * 0 (TX takes at most what its ring holds, then nothing), its stats and
 * xstats stay readable with the counts from before (and its firmware
 * version, read at probe), and removing the port
 * releases everything: the emulated device closes (it refuses to close
 * while any object is left) and no rte_malloc use remains. B goes on and
 * is removed as usual.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include <mlx5_emu.h>

#include "mlx5cq_ethdev.h"

#include "test.h"
#include "test_net_util.h"
#include "test_usage.h"

#define R_DESC 64
#define R_BURST 8

static struct rte_mempool *r_mp;
static unsigned int r_events[RTE_MAX_ETHPORTS];

static int
removal_setup(void)
{
	if (net_load() != 0 || net_ethdev_hold() != 0)
		return -1;
	r_mp = rte_pktmbuf_pool_create("net_removal_test", 2048, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE,
				       SOCKET_ID_ANY);
	return r_mp == NULL ? -1 : 0;
}

static void
removal_teardown(void)
{
	rte_mempool_free(r_mp);
	r_mp = NULL;
	net_ethdev_release();
}

static int
rmv_cb(uint16_t port, enum rte_eth_event_type type, void *arg, void *ret)
{
	RTE_SET_USED(arg);
	RTE_SET_USED(ret);
	if (type == RTE_ETH_EVENT_INTR_RMV && port < RTE_MAX_ETHPORTS)
		__atomic_add_fetch(&r_events[port], 1, __ATOMIC_RELAXED);
	return 0;
}

static int
port_up(uint16_t port, int rmv)
{
	struct rte_eth_conf conf = { 0 };

	conf.intr_conf.rmv = rmv;
	return port_start_1q(port, R_DESC, r_mp, &conf);
}

/* A burst of n frames to dst from port: how many TX took. */
static uint16_t
send_n(uint16_t port, const struct rte_ether_addr *dst, uint16_t n)
{
	struct rte_mbuf *tx[R_BURST];
	uint16_t i, sent;

	if (n > R_BURST || rte_pktmbuf_alloc_bulk(r_mp, tx, n) != 0)
		return 0;
	for (i = 0; i < n; i++) {
		uint8_t *d = (uint8_t *)rte_pktmbuf_append(tx[i], 128);
		uint32_t len = frame_build(d, dst, RTE_IPV4(198u, 18, 9, i),
					   5000 + i, 40, 0);

		rte_pktmbuf_trim(tx[i], (uint16_t)(128 - len));
	}
	sent = rte_eth_tx_burst(port, 0, tx, n);
	free_all(tx + sent, (uint16_t)(n - sent));
	return sent;
}

/* What port receives in 100 polls (5 empty ones after something). */
static unsigned int
drain(uint16_t port)
{
	struct rte_mbuf *rx[R_BURST];
	unsigned int got = 0, tries, idle;
	uint16_t n;

	for (tries = 0, idle = 0; tries < 100 && idle < 5; tries++) {
		n = rte_eth_rx_burst(port, 0, rx, R_BURST);
		free_all(rx, n);
		got += n;
		if (n == 0) {
			idle += got != 0;
			rte_delay_us_sleep(1000);
		}
	}
	return got;
}


static int
run_removal(enum mlx5_emu_failure how)
{
	struct rte_eth_xstat_name names[256];
	struct rte_eth_xstat xs[256];
	struct heap_use before, after;
	struct rte_ether_addr mac_a, mac_b;
	struct rte_eth_stats st;
	struct ibv_context *ctx_a;
	char fw[32];
	uint64_t end;
	unsigned int took = 0, k;
	int a, b, ok = 1, nx;

	memset(r_events, 0, sizeof(r_events));
	heap_use(&before);
	a = port_probe("net_mlx5cq_rma", "dev=emu,wire=rm");
	b = port_probe("net_mlx5cq_rmb", "dev=emu,wire=rm");
	TEST_ASSERT(a >= 0 && b >= 0, "probe failed");
	ctx_a = ((struct mlx5cq_priv *)rte_eth_devices[a].data->dev_private)
		->ctx;
	STEP(rte_eth_dev_callback_register(a, RTE_ETH_EVENT_INTR_RMV, rmv_cb,
					   NULL) == 0 &&
	     rte_eth_dev_callback_register(b, RTE_ETH_EVENT_INTR_RMV, rmv_cb,
					   NULL) == 0, "callbacks");
	STEP(port_up(a, 1) == 0 && port_up(b, 0) == 0, "start");
	rte_eth_macaddr_get(a, &mac_a);
	rte_eth_macaddr_get(b, &mac_b);
	STEP(send_n(a, &mac_b, R_BURST) == R_BURST && drain(b) == R_BURST,
	     "A to B before the failure");
	STEP(send_n(b, &mac_a, R_BURST) == R_BURST && drain(a) == R_BURST,
	     "B to A before the failure");

	STEP(mlx5_emu_dev_fail(ctx_a, how) == 0, "dev_fail");
	end = rte_get_timer_cycles() + 2 * rte_get_timer_hz();
	while (__atomic_load_n(&r_events[a], __ATOMIC_RELAXED) == 0 &&
	       rte_get_timer_cycles() < end)
		rte_delay_us_sleep(1000);
	/* A second event (removal: two DEVICE_FATAL) would show here. */
	rte_delay_us_sleep(50000);
	STEP(__atomic_load_n(&r_events[a], __ATOMIC_RELAXED) == 1,
	     "A: exactly one RMV event");
	STEP(__atomic_load_n(&r_events[b], __ATOMIC_RELAXED) == 0,
	     "B (no intr_conf.rmv, device alive): no RMV event");
	STEP(port_link(a) == 0, "A link down");
	STEP(port_link(b) == 0, "B link down (its partner's PHY is gone)");

	/* Bursts: RX finds nothing, TX fills its ring and stops. */
	STEP(send_n(b, &mac_a, R_BURST) == R_BURST, "B sends (dropped)");
	STEP(drain(a) == 0, "A receives nothing");
	for (k = 0; k < 4 * R_DESC / R_BURST; k++)
		took += send_n(a, &mac_b, R_BURST);
	STEP(took <= R_DESC, "A's TX took more than its ring holds");
	STEP(send_n(a, &mac_b, R_BURST) == 0, "A's TX ring stays full");
	STEP(drain(b) == 0, "B receives nothing from A");
	/* Stats stay readable with what happened before. */
	STEP(rte_eth_stats_get(a, &st) == 0, "A stats");
	STEP(st.ipackets == R_BURST, "A ipackets from before the failure");
	/* The firmware version (read at probe: the device answers no more):
	 * rdma-core's "%d.%d.%04d" of the model's 16.35.2000; with a short
	 * buffer the size it needs, as ethdev asks.
	 */
	STEP(rte_eth_dev_fw_version_get(a, fw, 4) == 11,
	     "fw_version_get with 4 bytes: 11 needed");
	STEP(rte_eth_dev_fw_version_get(a, fw, sizeof(fw)) == 0 &&
	     strcmp(fw, "16.35.2000") == 0, "fw_version_get");
	nx = rte_eth_xstats_get_names(a, names, RTE_DIM(names));
	STEP(nx > 0 && nx <= (int)RTE_DIM(xs) &&
	     rte_eth_xstats_get(a, xs, RTE_DIM(xs)) == nx, "A xstats");

	rte_eth_dev_callback_unregister(a, RTE_ETH_EVENT_INTR_RMV, rmv_cb,
					NULL);
	rte_eth_dev_callback_unregister(b, RTE_ETH_EVENT_INTR_RMV, rmv_cb,
					NULL);
	TEST_ASSERT_SUCCESS(port_remove(a), "remove A");
	/* The model refuses to close a device while objects are left. */
	STEP(!mlx5_emu_is_emulated(ctx_a), "A's device not closed: "
	     "objects left");
	TEST_ASSERT_SUCCESS(port_remove(b), "remove B");
	heap_use(&after);
	TEST_ASSERT(ok, "device failure %d", (int)how);
	TEST_ASSERT_SUCCESS(heap_use_same(&before, &after, "net_removal"),
			    "leak");
	return TEST_SUCCESS;
}

static int
test_net_removal_fatal(void)
{
	return run_removal(MLX5_EMU_DEV_FATAL);
}

static int
test_net_removal_removed(void)
{
	return run_removal(MLX5_EMU_DEV_REMOVED);
}

/*
 * Recovery: A's device fails (fatal error), A raises RMV; rte_eth_dev_reset()
 * opens the device again (a new emulated device of the same name, on the
 * same wire); A set up again forwards both ways with B, and everything is
 * released at the end. A reset of a healthy port works the same way.
 */
static int
test_net_removal_reset(void)
{
	struct heap_use before, after;
	struct rte_ether_addr mac_a, mac_b;
	struct ibv_context *ctx_a;
	uint64_t end;
	int a, b, round, ok = 1;

	memset(r_events, 0, sizeof(r_events));
	heap_use(&before);
	a = port_probe("net_mlx5cq_rra", "dev=emu,wire=rr");
	b = port_probe("net_mlx5cq_rrb", "dev=emu,wire=rr");
	TEST_ASSERT(a >= 0 && b >= 0, "probe failed");
	STEP(rte_eth_dev_callback_register(a, RTE_ETH_EVENT_INTR_RMV, rmv_cb,
					   NULL) == 0, "callback");
	STEP(port_up(a, 1) == 0 && port_up(b, 0) == 0, "start");
	rte_eth_macaddr_get(a, &mac_a);
	rte_eth_macaddr_get(b, &mac_b);
	for (round = 0; round < 2 && ok; round++) {
		if (round == 0) {
			/* The device fails; the port reports it. */
			ctx_a = ((struct mlx5cq_priv *)
				 rte_eth_devices[a].data->dev_private)->ctx;
			STEP(mlx5_emu_dev_fail(ctx_a, MLX5_EMU_DEV_FATAL) == 0,
			     "dev_fail");
			end = rte_get_timer_cycles() + 2 * rte_get_timer_hz();
			while (__atomic_load_n(&r_events[a],
					       __ATOMIC_RELAXED) == 0 &&
			       rte_get_timer_cycles() < end)
				rte_delay_us_sleep(1000);
			STEP(r_events[a] == 1 && port_link(a) == 0,
			     "RMV raised, link down");
		}
		STEP(rte_eth_dev_reset(a) == 0, "reset");
		STEP(port_up(a, 1) == 0, "A set up again");
		end = rte_get_timer_cycles() + 2 * rte_get_timer_hz();
		while ((port_link(a) != 1 || port_link(b) != 1) &&
		       rte_get_timer_cycles() < end)
			rte_delay_us_sleep(1000);
		STEP(port_link(a) == 1 && port_link(b) == 1, "links up");
		STEP(send_n(a, &mac_b, R_BURST) == R_BURST &&
		     drain(b) == R_BURST, "A to B after the reset");
		STEP(send_n(b, &mac_a, R_BURST) == R_BURST &&
		     drain(a) == R_BURST, "B to A after the reset");
		if (!ok)
			printf("  round %d (%s) failed\n", round,
			       round == 0 ? "after a fatal error" : "healthy");
	}
	rte_eth_dev_callback_unregister(a, RTE_ETH_EVENT_INTR_RMV, rmv_cb,
					NULL);
	TEST_ASSERT_SUCCESS(port_remove(a), "remove A");
	TEST_ASSERT_SUCCESS(port_remove(b), "remove B");
	heap_use(&after);
	TEST_ASSERT(ok, "reset");
	TEST_ASSERT_SUCCESS(heap_use_same(&before, &after, "net_removal reset"),
			    "leak");
	return TEST_SUCCESS;
}

/* The flag that lets an application ask for RMV interrupts. */
static int
test_net_removal_capability(void)
{
	struct rte_eth_dev_info info;
	struct rte_eth_conf conf = { 0 };
	int p;

	p = port_probe("net_mlx5cq_rmc", "dev=emu,wire=rmc");
	TEST_ASSERT(p >= 0, "probe failed");
	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(p, &info), "info");
	TEST_ASSERT(info.dev_flags != NULL && *info.dev_flags &
		    RTE_ETH_DEV_INTR_RMV, "RTE_ETH_DEV_INTR_RMV not set");
	conf.intr_conf.rmv = 1;
	TEST_ASSERT_SUCCESS(rte_eth_dev_configure(p, 1, 1, &conf),
			    "configure with intr_conf.rmv");
	TEST_ASSERT_SUCCESS(port_remove(p), "remove");
	return TEST_SUCCESS;
}

static struct unit_test_suite net_removal_suite = {
	.suite_name = "net_removal",
	.setup = removal_setup,
	.teardown = removal_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_removal_capability),
		TEST_CASE(test_net_removal_reset),
		TEST_CASE(test_net_removal_fatal),
		TEST_CASE(test_net_removal_removed),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_removal, net_removal_suite);
