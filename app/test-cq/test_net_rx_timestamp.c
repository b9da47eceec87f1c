/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_rx_timestamp": RTE_ETH_RX_OFFLOAD_TIMESTAMP on net_mlx5cq.
 * Each received mbuf carries the CQE's time in the mbuf timestamp dynamic
 * field with the RX timestamp flag: free-running device ticks (as
 * rte_eth_read_clock() reads them) or, on a device whose MTUTC register
 * says real time, nanoseconds since the epoch (net/mlx5's
 * mlx5_txpp_convert_rx_ts()). Queues with timestamps run without CQE
 * compression (as net/mlx5) and say so in their burst mode. The bounds
 * are the host clocks read around the frames' arrival, turned into the
 * emulated device's ticks here.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_cycles.h>

#include <mlx5_emu.h>

#include "test.h"
#include "test_net_fixture.h"
#include "test_net_util.h"

#define TS_N 32

static uint64_t
host_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

static uint64_t
ticks_of(uint64_t ns, uint32_t khz)
{
	return (uint64_t)((__uint128_t)ns * khz / 1000000u);
}

struct ts_run {
	uint64_t lo, hi; /* Bounds of every stamp. */
	uint64_t sessions, completions; /* rx_q0_cq_* xstats. */
	unsigned int got, flagged, in_bounds, ordered;
	char mode[RTE_ETH_BURST_MODE_INFO_SIZE];
};

/*
 * A port on wire w with devargs, started with offloads; TS_N identical
 * frames put on the wire in one pass (one compressed session where the
 * CQ compresses). Bounds: clock rt ? CLOCK_REALTIME in ns : the monotonic
 * clock in ticks of khz.
 */
static int
ts_run(const char *w, const char *args, uint64_t offloads, int rt,
	uint32_t khz, struct ts_run *r)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_eth_burst_mode bm;
	struct rte_eth_dev_info info;
	struct rte_ether_addr mac;
	struct rte_mbuf *pkts[TS_N];
	uint8_t f[256];
	const void *fr[TS_N];
	uint32_t len[TS_N];
	char devargs[128];
	uint64_t t0, t1, prev = 0, ts;
	int port, off, bit, i, ok = 1;

	memset(r, 0, sizeof(*r));
	snprintf(devargs, sizeof(devargs), "dev=emu,wire=%s%s%s", w,
		 args[0] ? "," : "", args);
	port = port_probe("net_mlx5cq_ts", devargs);
	TEST_ASSERT(port >= 0, "probe %s", devargs);
	STEP(rte_eth_dev_info_get(port, &info) == 0 &&
	     (info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_TIMESTAMP) &&
	     (info.rx_queue_offload_capa & RTE_ETH_RX_OFFLOAD_TIMESTAMP),
	     "timestamp offload offered per queue");
	conf.rxmode.offloads = offloads;
	STEP(port_start(port, 1, &conf) == 0, "start");
	STEP(rte_eth_rx_burst_mode_get(port, 0, &bm) == 0, "burst mode");
	snprintf(r->mode, sizeof(r->mode), "%s", bm.info);
	rte_eth_macaddr_get(port, &mac);
	len[0] = frame_build(f, &mac, RTE_IPV4(198u, 18, 7, 1), 4000, 64, 0);
	for (i = 0; i < TS_N; i++) {
		fr[i] = f;
		len[i] = len[0];
	}
	t0 = host_ns(rt ? CLOCK_REALTIME : CLOCK_MONOTONIC);
	STEP(ok && mlx5_emu_wire_inject_burst(w, fr, len, TS_N) == 1,
	     "inject");
	t1 = host_ns(rt ? CLOCK_REALTIME : CLOCK_MONOTONIC);
	r->lo = rt ? t0 : ticks_of(t0, khz);
	r->hi = rt ? t1 : ticks_of(t1, khz);
	r->got = ok ? rx_all(port, 1, pkts, TS_N, NULL) : 0;
	off = rte_mbuf_dynfield_lookup(RTE_MBUF_DYNFIELD_TIMESTAMP_NAME,
				       NULL);
	bit = rte_mbuf_dynflag_lookup(RTE_MBUF_DYNFLAG_RX_TIMESTAMP_NAME,
				      NULL);
	r->ordered = 1;
	for (i = 0; i < (int)r->got; i++) {
		if (bit < 0 || off < 0 ||
		    !(pkts[i]->ol_flags & RTE_BIT64(bit)))
			continue;
		r->flagged++;
		ts = *RTE_MBUF_DYNFIELD(pkts[i], off, rte_mbuf_timestamp_t *);
		r->in_bounds += ts >= r->lo && ts <= r->hi;
		if (ts < prev)
			r->ordered = 0;
		prev = ts;
	}
	free_all(pkts, r->got);
	STEP(xstat_get(port, "rx_q0_cq_sessions", &r->sessions) == 0 &&
	     xstat_get(port, "rx_q0_cq_completions", &r->completions) == 0,
	     "xstats");
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	return ok ? TEST_SUCCESS : TEST_FAILED;
}

/* Free-running stamps; the same frames without the offload compress. */
static int
test_net_rx_ts_free_running(void)
{
	struct timespec d = { .tv_sec = 0, .tv_nsec = 20000000 };
	struct rte_eth_conf conf = { 0 };
	uint64_t c0, c1, t0, t1;
	struct ts_run r;
	int port;

	TEST_ASSERT_SUCCESS(ts_run("tsw", "cqe_comp=hash",
				   RTE_ETH_RX_OFFLOAD_TIMESTAMP, 0, 156250,
				   &r), "run");
	TEST_ASSERT(r.got == TS_N && r.flagged == TS_N &&
		    r.in_bounds == TS_N && r.ordered, "%u received, %u "
		    "stamped, %u within %" PRIu64 "..%" PRIu64 ", ordered %u",
		    r.got, r.flagged, r.in_bounds, r.lo, r.hi, r.ordered);
	TEST_ASSERT(r.sessions == 0 && r.completions == TS_N, "%" PRIu64
		    " sessions, %" PRIu64 " completions: no compression",
		    r.sessions, r.completions);
	TEST_ASSERT(strcmp(r.mode, "Scalar (timestamps)") == 0,
		    "burst mode \"%s\"", r.mode);
	/* Control: no offload, no flag, and the session forms. */
	TEST_ASSERT_SUCCESS(ts_run("tsw", "cqe_comp=hash", 0, 0, 156250, &r),
			    "run");
	TEST_ASSERT(r.got == TS_N && r.flagged == 0 && r.sessions == 1,
		    "without the offload: %u received, %u stamped, %" PRIu64
		    " sessions", r.got, r.flagged, r.sessions);
	TEST_ASSERT(strstr(r.mode, "timestamps") == NULL, "burst mode \"%s\"",
		    r.mode);
	/* rte_eth_read_clock(): the same ticks, at the caps' frequency. */
	port = port_probe("net_mlx5cq_ts", "dev=emu,wire=tsw");
	TEST_ASSERT(port >= 0, "probe");
	conf.rxmode.offloads = RTE_ETH_RX_OFFLOAD_TIMESTAMP;
	TEST_ASSERT_SUCCESS(port_start(port, 1, &conf), "start");
	t0 = host_ns(CLOCK_MONOTONIC);
	TEST_ASSERT_SUCCESS(rte_eth_read_clock(port, &c0), "read clock");
	nanosleep(&d, NULL);
	TEST_ASSERT_SUCCESS(rte_eth_read_clock(port, &c1), "read clock");
	t1 = host_ns(CLOCK_MONOTONIC);
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	TEST_ASSERT(c0 >= ticks_of(t0, 156250) && c1 <= ticks_of(t1, 156250),
		    "clock %" PRIu64 "..%" PRIu64 " outside the host's",
		    c0, c1);
	TEST_ASSERT(c1 - c0 >= 156250ull * 20 - 1, "%" PRIu64 " ticks in "
		    "20 ms", c1 - c0);
	return TEST_SUCCESS;
}

/*
 * Real-time stamps: a device in real-time mode (MTUTC), one that offers
 * only the real-time clock; rte_eth_read_clock() has no clock of theirs.
 * A device that offers only the free-running clock at 1 GHz stamps in
 * ticks (the MTUTC read, not the 1 GHz rule, decides).
 */
static int
test_net_rx_ts_real_time(void)
{
	static const struct {
		uint8_t ts_format, rt;
		uint32_t khz;
	} devs[] = {
		{ 2, 1, 156250 },
		{ 1, 1, 1000000 },
		{ 0, 0, 1000000 },
	};
	struct rte_eth_conf conf = { 0 };
	struct mlx5_emu_caps caps;
	struct ts_run r;
	unsigned int i;
	uint64_t c;
	int port, ret;

	for (i = 0; i < RTE_DIM(devs); i++) {
		mlx5_emu_caps_default(&caps);
		caps.ts_format = devs[i].ts_format;
		caps.clock_real_time = devs[i].rt;
		caps.device_frequency_khz = devs[i].khz;
		TEST_ASSERT_SUCCESS(mlx5_emu_open_caps_set(&caps), "caps");
		ret = ts_run("tsw_rt", "", RTE_ETH_RX_OFFLOAD_TIMESTAMP,
			     devs[i].rt, devs[i].khz, &r);
		if (ret == TEST_SUCCESS) {
			port = port_probe("net_mlx5cq_ts", "dev=emu");
			ret = port >= 0 && port_start(port, 1, &conf) == 0 ?
			      rte_eth_read_clock(port, &c) : -1;
			if (port >= 0)
				port_remove(port);
		}
		mlx5_emu_open_caps_set(NULL);
		TEST_ASSERT(r.got == TS_N && r.flagged == TS_N &&
			    r.in_bounds == TS_N && r.ordered, "device %u: %u "
			    "received, %u stamped, %u within %" PRIu64 "..%"
			    PRIu64, i, r.got, r.flagged, r.in_bounds, r.lo,
			    r.hi);
		TEST_ASSERT_EQUAL(ret, (devs[i].rt ? -ENOTSUP : 0),
				  "device %u: read_clock %d", i, ret);
	}
	return TEST_SUCCESS;
}

static struct unit_test_suite net_rx_timestamp_suite = {
	.suite_name = "net_rx_timestamp",
	.setup = net_suite_setup,
	.teardown = net_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_rx_ts_free_running),
		TEST_CASE(test_net_rx_ts_real_time),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_rx_timestamp, net_rx_timestamp_suite);
