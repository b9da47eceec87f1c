/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_link": link state changes of two net_mlx5cq ports A and B on
 * one emulated wire. The cable is pulled (mlx5_emu_wire_link_set()) and
 * put back, then A's link is set down and up (rte_eth_dev_set_link_down /
 * _up: the emulated port's admin status, which takes its partner's link
 * down too, as a PHY does). A is configured with intr_conf.lsc, B without:
 * each change calls A's RTE_ETH_EVENT_INTR_LSC callback exactly once and
 * B's never, while both report the new state in rte_eth_link_get_nowait().
 * While the link is down nothing crosses the wire (frames A sends are not
 * received by B; an injected frame reaches no port); once it is up again
 * they are. No rte_malloc use is left after the ports are removed.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include <mlx5_emu.h>

#include "test.h"
#include "test_net_util.h"
#include "test_usage.h"

#define L_DESC 64
#define L_BURST 8
#define L_WIRE "lk"

static struct rte_mempool *l_mp;
static unsigned int l_events[RTE_MAX_ETHPORTS];

static int
link_setup(void)
{
	if (net_load() != 0 || net_ethdev_hold() != 0)
		return -1;
	l_mp = rte_pktmbuf_pool_create("net_link_test", 1024, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE,
				       SOCKET_ID_ANY);
	return l_mp == NULL ? -1 : 0;
}

static void
link_teardown(void)
{
	rte_mempool_free(l_mp);
	l_mp = NULL;
	net_ethdev_release();
}

static int
lsc_cb(uint16_t port, enum rte_eth_event_type type, void *arg, void *ret)
{
	RTE_SET_USED(arg);
	RTE_SET_USED(ret);
	if (type == RTE_ETH_EVENT_INTR_LSC && port < RTE_MAX_ETHPORTS)
		__atomic_add_fetch(&l_events[port], 1, __ATOMIC_RELAXED);
	return 0;
}

static int
port_up(uint16_t port, int lsc)
{
	struct rte_eth_conf conf = { 0 };

	conf.intr_conf.lsc = lsc;
	return port_start_1q(port, L_DESC, l_mp, &conf);
}

/* Wait (2 s at most) until A saw events_a LSC events; both links up. */
static int
wait_state(uint16_t a, uint16_t b, unsigned int events_a, int up,
	   const char *what)
{
	uint64_t end = rte_get_timer_cycles() + 2 * rte_get_timer_hz();

	while (__atomic_load_n(&l_events[a], __ATOMIC_RELAXED) < events_a &&
	       rte_get_timer_cycles() < end)
		rte_delay_us_sleep(1000);
	/* A late extra event would show here. */
	rte_delay_us_sleep(20000);
	TEST_ASSERT_EQUAL(__atomic_load_n(&l_events[a], __ATOMIC_RELAXED),
			  events_a, "%s: A saw %u LSC events, want %u", what,
			  l_events[a], events_a);
	TEST_ASSERT_EQUAL(__atomic_load_n(&l_events[b], __ATOMIC_RELAXED), 0,
			  "%s: B (no intr_conf.lsc) got an LSC callback", what);
	TEST_ASSERT_EQUAL(port_link(a), up, "%s: A link %d", what, port_link(a));
	TEST_ASSERT_EQUAL(port_link(b), up, "%s: B link %d", what, port_link(b));
	return TEST_SUCCESS;
}

/* A sends L_BURST frames to B: how many B receives. */
static unsigned int
a_to_b(uint16_t a, uint16_t b)
{
	struct rte_mbuf *tx[L_BURST], *rx[L_BURST];
	struct rte_ether_addr mac;
	unsigned int i, got = 0, tries, idle;
	uint16_t n;
	uint32_t len;

	rte_eth_macaddr_get(b, &mac);
	if (rte_pktmbuf_alloc_bulk(l_mp, tx, L_BURST) != 0)
		return UINT32_MAX;
	for (i = 0; i < L_BURST; i++) {
		uint8_t *d = (uint8_t *)rte_pktmbuf_append(tx[i], 128);

		len = frame_build(d, &mac, RTE_IPV4(198u, 18, 7, i), 3000 + i,
				  40, 0);
		rte_pktmbuf_trim(tx[i], (uint16_t)(128 - len));
	}
	n = rte_eth_tx_burst(a, 0, tx, L_BURST);
	for (i = n; i < L_BURST; i++)
		rte_pktmbuf_free(tx[i]);
	/* Until 200 polls, or 5 empty ones after the burst arrived. */
	for (tries = 0, idle = 0; tries < 200 && idle < 5; tries++) {
		n = rte_eth_rx_burst(b, 0, rx, L_BURST);
		free_all(rx, n);
		got += n;
		if (n == 0) {
			idle += got >= L_BURST;
			rte_delay_us_sleep(1000);
		}
	}
	return got;
}

static int
inject_one(const struct rte_ether_addr *dst)
{
	uint8_t f[128];
	uint32_t len = frame_build(f, dst, RTE_IPV4(198u, 18, 8, 1), 4000, 40,
				   0);

	return mlx5_emu_wire_inject(L_WIRE, f, len);
}


static int
test_net_link_events(void)
{
	struct heap_use before, after;
	struct rte_ether_addr mac;
	int a, b, ok;

	memset(l_events, 0, sizeof(l_events));
	heap_use(&before);
	a = port_probe("net_mlx5cq_lka", "dev=emu,wire=" L_WIRE);
	b = port_probe("net_mlx5cq_lkb", "dev=emu,wire=" L_WIRE);
	TEST_ASSERT(a >= 0 && b >= 0, "probe failed");
	ok = 1;
	STEP(rte_eth_dev_callback_register(a, RTE_ETH_EVENT_INTR_LSC, lsc_cb,
					   NULL) == 0 &&
	     rte_eth_dev_callback_register(b, RTE_ETH_EVENT_INTR_LSC, lsc_cb,
					   NULL) == 0, "callbacks");
	STEP(port_up(a, 1) == 0 && port_up(b, 0) == 0, "start");
	rte_eth_macaddr_get(b, &mac);
	STEP(wait_state(a, b, 0, 1, "started") == TEST_SUCCESS, "started");
	STEP(a_to_b(a, b) == L_BURST, "traffic at start");

	/* Cable out: both links down, nothing crosses. */
	STEP(mlx5_emu_wire_link_set(L_WIRE, 0) == 0, "cable out");
	STEP(wait_state(a, b, 1, 0, "cable out") == TEST_SUCCESS, "state");
	STEP(a_to_b(a, b) == 0, "no traffic, cable out");
	STEP(inject_one(&mac) == 0, "no port hears an injected frame");
	/* Cable in. */
	STEP(mlx5_emu_wire_link_set(L_WIRE, 1) == 0, "cable in");
	STEP(wait_state(a, b, 2, 1, "cable in") == TEST_SUCCESS, "state");
	STEP(a_to_b(a, b) == L_BURST, "traffic, cable in");
	STEP(inject_one(&mac) == 2, "both ports hear an injected frame");
	STEP(a_to_b(a, b) == L_BURST + 1, "traffic and the injected frame");
	/* A's admin status down: B loses its partner too. */
	STEP(rte_eth_dev_set_link_down(a) == 0, "A down");
	STEP(wait_state(a, b, 3, 0, "A set down") == TEST_SUCCESS, "state");
	STEP(a_to_b(a, b) == 0, "no traffic, A down");
	STEP(rte_eth_dev_set_link_up(a) == 0, "A up");
	STEP(wait_state(a, b, 4, 1, "A set up") == TEST_SUCCESS, "state");
	STEP(a_to_b(a, b) == L_BURST, "traffic, A up");
	/* B taken down by its host: A's link follows. */
	STEP(rte_eth_dev_set_link_down(b) == 0, "B down");
	STEP(wait_state(a, b, 5, 0, "B set down") == TEST_SUCCESS, "state");
	STEP(rte_eth_dev_set_link_up(b) == 0, "B up");
	STEP(wait_state(a, b, 6, 1, "B set up") == TEST_SUCCESS, "state");

	rte_eth_dev_callback_unregister(a, RTE_ETH_EVENT_INTR_LSC, lsc_cb,
					NULL);
	rte_eth_dev_callback_unregister(b, RTE_ETH_EVENT_INTR_LSC, lsc_cb,
					NULL);
	TEST_ASSERT_SUCCESS(port_remove(a), "remove A");
	TEST_ASSERT_SUCCESS(port_remove(b), "remove B");
	heap_use(&after);
	TEST_ASSERT(ok, "link state changes");
	TEST_ASSERT_SUCCESS(heap_use_same(&before, &after, "net_link"),
			    "leak");
	return TEST_SUCCESS;
}

/* The flag that lets an application ask for LSC interrupts. */
static int
test_net_link_lsc_capability(void)
{
	struct rte_eth_dev_info info;
	struct rte_eth_conf conf = { 0 };
	int p;

	p = port_probe("net_mlx5cq_lkc", "dev=emu,wire=lkc");
	TEST_ASSERT(p >= 0, "probe failed");
	TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(p, &info), "info");
	TEST_ASSERT(info.dev_flags != NULL && *info.dev_flags &
		    RTE_ETH_DEV_INTR_LSC, "RTE_ETH_DEV_INTR_LSC not set");
	conf.intr_conf.lsc = 1;
	TEST_ASSERT_SUCCESS(rte_eth_dev_configure(p, 1, 1, &conf),
			    "configure with intr_conf.lsc");
	TEST_ASSERT_SUCCESS(port_remove(p), "remove");
	return TEST_SUCCESS;
}

static struct unit_test_suite net_link_suite = {
	.suite_name = "net_link",
	.setup = link_setup,
	.teardown = link_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_link_lsc_capability),
		TEST_CASE(test_net_link_events),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_link, net_link_suite);
