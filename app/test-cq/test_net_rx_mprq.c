/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_rx_mprq": multi-packet RQs on net_mlx5cq (mprq_en=1), with
 * net/mlx5's devargs and rules (doc/guides/nics/mlx5.rst, mlx5_rxq.c
 * mlx5_mprq_prepare(), mlx5_rx.h mprq_buf_to_pkt()). Queues of 512
 * descriptors with 64 strides of 256 bytes a WQE: 8 WQEs. Each frame
 * takes ceil(len / 256) strides; one that does not fit the strides left
 * in a WQE makes the device close it with a filler. A packet is attached
 * (RTE_MBUF_F_EXTERNAL, its data in the WQE's buffer) when it is longer
 * than mprq_max_memcpy_len and its strides also hold the 128-byte
 * headroom before it; else it is copied into an mbuf of the queue's pool.
 * Packets held by the application keep their bytes while the ring turns
 * (their WQE buffer is replaced, not reused), also across a restart and
 * a recovery. Compressed sessions and timestamps go through the same
 * route; the queue state counts strides. A port with fewer queues than
 * rxqs_min_mprq, or a device without striding RQs, runs cyclic RQs; bad
 * devargs are refused and a port leaves nothing behind.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include <mlx5_emu.h>

#include "test.h"
#include "test_net_fixture.h"
#include "test_net_util.h"
#include "test_usage.h"

#define MQ_DESC 512
#define MQ_STRD_LOG 8 /* 256-byte strides. */
#define MQ_STRD (1u << MQ_STRD_LOG)
#define MQ_STRD_N 64
#define MQ_MEMCPY 128 /* mprq_max_memcpy_len default. */
#define MQ_ARGS "mprq_en=1,rxqs_min_mprq=1,mprq_log_stride_num=6," \
		"mprq_log_stride_size=8"
#define MQ_MAX 1518

/* A port of one queue of MQ_DESC descriptors of n_mp, devargs args. */
static int
mq_port(const char *args, uint64_t offloads, int *port)
{
	struct rte_eth_conf conf = { 0 };

	*port = port_probe("net_mlx5cq_mq", args);
	if (*port < 0)
		return -1;
	conf.rxmode.offloads = offloads;
	return port_start_1q(*port, MQ_DESC, n_mp, &conf);
}

static uint32_t
mq_frame(uint8_t *f, const struct rte_ether_addr *mac, uint32_t len,
	 uint32_t i)
{
	/* Source address and port say which frame this is. */
	return frame_udp4_n(f, mac, len, 7, 3000, i);
}

/* Strides of a frame; whether net/mlx5 attaches it (mprq_buf_to_pkt). */
static uint32_t
mq_strides(uint32_t len)
{
	return (len + MQ_STRD - 1) / MQ_STRD;
}

static int
mq_attached(uint32_t len)
{
	return len > MQ_MEMCPY &&
	       len + RTE_PKTMBUF_HEADROOM <= mq_strides(len) * MQ_STRD;
}

/* One received packet against frame f of len bytes. */
static int
mq_check(const struct rte_mbuf *m, const uint8_t *f, uint32_t len)
{
	int ext = (m->ol_flags & RTE_MBUF_F_EXTERNAL) != 0;

	TEST_ASSERT(m->pkt_len == len && m->data_len == len &&
		    m->nb_segs == 1 && m->data_off == RTE_PKTMBUF_HEADROOM,
		    "len %u: pkt_len %u data_len %u segs %u off %u", len,
		    m->pkt_len, m->data_len, m->nb_segs, m->data_off);
	TEST_ASSERT(ext == mq_attached(len), "len %u: %s, expected %s", len,
		    ext ? "attached" : "copied",
		    mq_attached(len) ? "attached" : "copied");
	TEST_ASSERT(!ext || m->buf_len == mq_strides(len) * MQ_STRD,
		    "len %u: external buffer of %u bytes", len, m->buf_len);
	TEST_ASSERT(memcmp(rte_pktmbuf_mtod(m, const void *), f, len) == 0,
		    "len %u: bytes", len);
	TEST_ASSERT(rx_udp4_good(m) && m->port != 0xffff,
		    "len %u: flags 0x%" PRIx64 " ptype 0x%x port %u", len,
		    m->ol_flags, m->packet_type, m->port);
	return TEST_SUCCESS;
}

/*
 * Lengths: copied (64, 128, 1400+ that overlap the headroom), attached
 * (129..), across stride boundaries; their strides (1, 1, 1, 2, 2, 4, 6,
 * 6, 6) leave WQEs with fewer strides than the next frame needs: fillers.
 */
static const uint32_t mq_lens[] = {
	64, 128, 129, 257, 384, 1000, 1400, 1408, MQ_MAX,
};

static int
test_net_rx_mprq_strides(void)
{
	static uint8_t f[RTE_DIM(mq_lens)][MQ_MAX];
	struct rte_mbuf *held[RTE_DIM(mq_lens)];
	uint32_t held_len[RTE_DIM(mq_lens)];
	struct rte_eth_burst_mode bm;
	struct rte_eth_rxq_info qi;
	struct rte_eth_stats st;
	struct rte_ether_addr mac;
	struct rte_mbuf *m;
	uint32_t i, j, len, bytes = 0, strides = 0, nheld = 0;
	int port, ok = 1;

	TEST_ASSERT_SUCCESS(mq_port("dev=emu,wire=mq,cqe_comp=none," MQ_ARGS,
				    RTE_ETH_RX_OFFLOAD_CHECKSUM, &port),
			    "start");
	STEP(rte_eth_rx_queue_info_get(port, 0, &qi) == 0 &&
	     qi.nb_desc == MQ_DESC, "512 descriptors");
	STEP(rte_eth_rx_burst_mode_get(port, 0, &bm) == 0 &&
	     strcmp(bm.info, "Scalar (multi-packet RQ)") == 0, "burst mode");
	rte_eth_macaddr_get(port, &mac);
	/* 600 frames: about twelve turns of the ring's 512 strides. */
	for (i = 0; i < 600 && ok; i++) {
		j = i % RTE_DIM(mq_lens);
		len = mq_frame(f[j], &mac, mq_lens[j], i);
		if (mlx5_emu_wire_inject("mq", f[j], len) != 1 ||
		    rx_all(port, 1, &m, 1, NULL) != 1) {
			printf("  frame %u (%u bytes) not received\n", i, len);
			ok = 0;
			break;
		}
		STEP(mq_check(m, f[j], len) == TEST_SUCCESS, "packet");
		bytes += len;
		strides += mq_strides(len);
		/* The first turn's packets are held to the end. */
		if (i < RTE_DIM(mq_lens)) {
			held[nheld] = m;
			held_len[nheld++] = len;
		} else {
			rte_pktmbuf_free(m);
		}
	}
	/* The held packets: their bytes, frame i's mark, intact. */
	for (i = 0; i < nheld; i++) {
		uint8_t fr[MQ_MAX];

		mq_frame(fr, &mac, held_len[i], i);
		STEP(mq_check(held[i], fr, held_len[i]) == TEST_SUCCESS,
		     "held packet intact");
	}
	free_all(held, (uint16_t)nheld);
	STEP(rte_eth_stats_get(port, &st) == 0 && st.ipackets == 600 &&
	     st.ibytes == bytes && st.ierrors == 0 && st.rx_nombuf == 0 &&
	     st.imissed == 0, "stats");
	if (!ok)
		printf("  %" PRIu64 " packets %" PRIu64 " bytes (%u) %" PRIu64
		       " errors %" PRIu64 " missed, %u strides\n", st.ipackets,
		       st.ibytes, bytes, st.ierrors, st.imissed, strides);
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	return ok ? TEST_SUCCESS : TEST_FAILED;
}

/*
 * Sessions of frames delivered in one pass, in each stride-index format
 * (HASH asks for CSUM_STRIDX on a striding RQ); then with timestamps
 * (compression off, as net/mlx5).
 */
static int
test_net_rx_mprq_sessions(void)
{
	static const char *const comps[] = { "hash", "csum_stridx", "ftag",
					     "l34h" };
	static uint8_t f[32][MQ_MAX];
	const void *fr[32];
	uint32_t lens[32], i, c, got;
	struct rte_ether_addr mac;
	struct rte_mbuf *pkts[32];
	uint64_t sessions;
	char args[160];
	int port, ok = 1, ts, same;

	for (c = 0; c < RTE_DIM(comps) + 1 && ok; c++) {
		ts = c == RTE_DIM(comps);
		snprintf(args, sizeof(args), "dev=emu,wire=mqz,cqe_comp=%s,"
			 MQ_ARGS, ts ? "hash" : comps[c]);
		TEST_ASSERT_SUCCESS(mq_port(args,
			RTE_ETH_RX_OFFLOAD_CHECKSUM |
			(ts ? RTE_ETH_RX_OFFLOAD_TIMESTAMP : 0), &port),
			"start");
		rte_eth_macaddr_get(port, &mac);
		/*
		 * 32 frames of 1..3 strides: 64 strides, two WQEs. The FTAG
		 * and L34H mini-CQEs do not carry the checksum field: only
		 * completions with the title's join it, so those formats get
		 * 32 copies of one frame of 2 strides.
		 */
		same = c == 2 || c == 3;
		for (i = 0; i < 32; i++) {
			lens[i] = mq_frame(f[i], &mac, same ? 456 :
					   200 + (i % 3) * 256, same ? 0 : i);
			fr[i] = f[i];
		}
		STEP(mlx5_emu_wire_inject_burst("mqz", fr, lens, 32) == 1,
		     "inject");
		got = rx_all(port, 1, pkts, 32, NULL);
		STEP(got == 32, "32 received");
		for (i = 0; i < got && ok; i++)
			STEP(mq_check(pkts[i], f[i], lens[i]) == TEST_SUCCESS,
			     "packet");
		free_all(pkts, (uint16_t)got);
		sessions = 0;
		STEP(xstat_get(port, "rx_q0_cq_sessions", &sessions) == 0 &&
		     (ts ? sessions == 0 : sessions >= 1), "sessions");
		if (!ok)
			printf("  cqe_comp=%s%s: %u received, %" PRIu64
			       " sessions\n", comps[c % RTE_DIM(comps)],
			       ts ? " with timestamps" : "", got, sessions);
		TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	}
	return ok ? TEST_SUCCESS : TEST_FAILED;
}

/*
 * Held packets across a stop and start: the WQE buffers they hold are
 * replaced when the queue posts its WQEs again, and the port, closed
 * once they are freed, leaves nothing behind.
 */
static int
test_net_rx_mprq_restart(void)
{
	static uint8_t f[MQ_MAX];
	struct rte_ether_addr mac;
	struct rte_mbuf *held[4], *m;
	struct heap_use u0, u1;
	uint32_t len, i;
	int port, ok = 1;

	heap_use(&u0);
	TEST_ASSERT_SUCCESS(mq_port("dev=emu,wire=mqr," MQ_ARGS,
				    RTE_ETH_RX_OFFLOAD_CHECKSUM, &port),
			    "start");
	rte_eth_macaddr_get(port, &mac);
	for (i = 0; i < 4 && ok; i++) {
		len = mq_frame(f, &mac, 800, i);
		STEP(mlx5_emu_wire_inject("mqr", f, len) == 1 &&
		     rx_all(port, 1, &held[i], 1, NULL) == 1, "received");
		STEP(ok && (held[i]->ol_flags & RTE_MBUF_F_EXTERNAL),
		     "attached");
	}
	STEP(rte_eth_dev_stop(port) == 0 && rte_eth_dev_start(port) == 0,
	     "restart");
	/* Frames of 4 strides over the ring, past the held strides' WQE. */
	for (i = 0; i < 200 && ok; i++) {
		len = mq_frame(f, &mac, 800, 100 + i);
		STEP(mlx5_emu_wire_inject("mqr", f, len) == 1 &&
		     rx_all(port, 1, &m, 1, NULL) == 1, "received");
		if (ok)
			rte_pktmbuf_free(m);
	}
	for (i = 0; i < 4 && ok; i++) {
		len = mq_frame(f, &mac, 800, i);
		STEP(mq_check(held[i], f, len) == TEST_SUCCESS,
		     "held packet intact after restart");
	}
	free_all(held, 4);
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	heap_use(&u1);
	STEP(heap_use_same(&u0, &u1, "mprq port") == 0, "no leak");
	return ok ? TEST_SUCCESS : TEST_FAILED;
}

/*
 * An error completion (injected on the wire: the model writes it and
 * keeps the RQ in RDY) in the middle of a WQE: the queue is recovered
 * (every WQE posted again from stride 0, the held packet's buffer
 * replaced) and receives on; the held packet keeps its bytes.
 */
static int
test_net_rx_mprq_recovery(void)
{
	static uint8_t f[MQ_MAX];
	struct rte_ether_addr mac;
	struct rte_mbuf *held = NULL, *m;
	struct rte_eth_stats st;
	uint64_t rec = 0;
	uint32_t len, i;
	int port, ok = 1;

	TEST_ASSERT_SUCCESS(mq_port("dev=emu,wire=mqe," MQ_ARGS,
				    RTE_ETH_RX_OFFLOAD_CHECKSUM, &port),
			    "start");
	rte_eth_macaddr_get(port, &mac);
	len = mq_frame(f, &mac, 800, 1);
	STEP(mlx5_emu_wire_inject("mqe", f, len) == 1 &&
	     rx_all(port, 1, &held, 1, NULL) == 1 &&
	     (held->ol_flags & RTE_MBUF_F_EXTERNAL), "attached");
	STEP(mlx5_emu_wire_rx_error_inject("mqe", 1) == 0, "inject error");
	len = mq_frame(f, &mac, 800, 2);
	mlx5_emu_wire_inject("mqe", f, len);
	STEP(rx_all(port, 1, &m, 1, NULL) == 0, "error: nothing");
	for (i = 0; i < 300 && ok; i++) {
		len = mq_frame(f, &mac, 800, 10 + i);
		STEP(mlx5_emu_wire_inject("mqe", f, len) == 1 &&
		     rx_all(port, 1, &m, 1, NULL) == 1 &&
		     mq_check(m, f, len) == TEST_SUCCESS, "after recovery");
		if (ok)
			rte_pktmbuf_free(m);
	}
	len = mq_frame(f, &mac, 800, 1);
	STEP(held != NULL && mq_check(held, f, len) == TEST_SUCCESS,
	     "held packet intact");
	rte_pktmbuf_free(held);
	STEP(rte_eth_stats_get(port, &st) == 0 && st.ierrors == 1 &&
	     st.ipackets == 301, "stats");
	STEP(xstat_get(port, "rx_q0_recoveries", &rec) == 0 && rec == 1,
	     "one recovery");
	if (!ok)
		printf("  ierrors %" PRIu64 " ipackets %" PRIu64 " recoveries %"
		       PRIu64 "\n", st.ierrors, st.ipackets, rec);
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	return ok ? TEST_SUCCESS : TEST_FAILED;
}

/*
 * Queue state in strides (net/mlx5's descriptors of a multi-packet RQ):
 * 512 descriptors; 5 one-stride frames waiting are 5 DONE, the other
 * strides AVAIL; once received, the 5 used strides are UNAVAIL until
 * their WQE is done and posted again.
 */
static int
test_net_rx_mprq_qstate(void)
{
	static uint8_t f[MQ_MAX];
	struct rte_ether_addr mac;
	struct rte_mbuf *m[5];
	uint32_t len, i;
	int port, ok = 1;

	TEST_ASSERT_SUCCESS(mq_port("dev=emu,wire=mqs," MQ_ARGS, 0, &port),
			    "start");
	rte_eth_macaddr_get(port, &mac);
	for (i = 0; i < 5; i++) {
		len = mq_frame(f, &mac, 100, i);
		STEP(mlx5_emu_wire_inject("mqs", f, len) == 1, "inject");
	}
	STEP(rte_eth_rx_queue_count(port, 0) == 5, "queue count 5");
	STEP(rte_eth_rx_descriptor_status(port, 0, 4) ==
	     RTE_ETH_RX_DESC_DONE, "4 done");
	STEP(rte_eth_rx_descriptor_status(port, 0, 5) ==
	     RTE_ETH_RX_DESC_AVAIL, "5 available");
	STEP(rte_eth_rx_descriptor_status(port, 0, MQ_DESC - 1) ==
	     RTE_ETH_RX_DESC_AVAIL, "511 available");
	STEP(rte_eth_rx_descriptor_status(port, 0, MQ_DESC) == -EINVAL,
	     "512 out of the ring");
	STEP(rx_all(port, 1, m, 5, NULL) == 5, "received");
	free_all(m, 5);
	STEP(rte_eth_rx_queue_count(port, 0) == 0, "queue count 0");
	STEP(rte_eth_rx_descriptor_status(port, 0, MQ_DESC - 6) ==
	     RTE_ETH_RX_DESC_AVAIL, "506 available");
	STEP(rte_eth_rx_descriptor_status(port, 0, MQ_DESC - 5) ==
	     RTE_ETH_RX_DESC_UNAVAIL, "507 used");
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	return ok ? TEST_SUCCESS : TEST_FAILED;
}

/*
 * Cyclic RQs: fewer queues than rxqs_min_mprq, mprq_en=0, a device
 * without striding RQs (HCA_CAP.striding_rq 0: no striding_rq_caps).
 */
static int
test_net_rx_mprq_fallback(void)
{
	static const char *const args[] = {
		"dev=emu,wire=mqf,mprq_en=1",
		"dev=emu,wire=mqf,mprq_en=1,rxqs_min_mprq=2",
		"dev=emu,wire=mqf,mprq_en=0,rxqs_min_mprq=1",
		"dev=emu,wire=mqf,mprq_en=1,rxqs_min_mprq=1",
	};
	struct rte_eth_burst_mode bm;
	struct rte_ether_addr mac;
	struct mlx5_emu_caps caps;
	uint32_t i;
	int port, ok = 1, ret;

	for (i = 0; i < RTE_DIM(args) && ok; i++) {
		/* The last one on a device without striding RQs. */
		mlx5_emu_caps_default(&caps);
		caps.striding_rq = 0;
		if (i == RTE_DIM(args) - 1)
			mlx5_emu_open_caps_set(&caps);
		ret = mq_port(args[i], 0, &port);
		mlx5_emu_open_caps_set(NULL);
		TEST_ASSERT_SUCCESS(ret, "start");
		rte_eth_macaddr_get(port, &mac);
		STEP(rte_eth_rx_burst_mode_get(port, 0, &bm) == 0 &&
		     strstr(bm.info, "multi-packet") == NULL, args[i]);
		STEP(rx_one(port, "mqf", &mac, 100) == 1, "receives");
		TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	}
	return ok ? TEST_SUCCESS : TEST_FAILED;
}

/* Devargs out of the PRM's ranges: the probe fails, nothing is left. */
static int
test_net_rx_mprq_refused(void)
{
	static const char *const bad[] = {
		"dev=emu,mprq_en=2",
		"dev=emu,mprq_en=1,mprq_log_stride_num=2",
		"dev=emu,mprq_en=1,mprq_log_stride_num=17",
		"dev=emu,mprq_en=1,mprq_log_stride_size=5",
		"dev=emu,mprq_en=1,mprq_log_stride_size=14",
		"dev=emu,mprq_en=1,rxqs_min_mprq=0",
		"dev=emu,mprq_en=1,mprq_max_memcpy_len=65536",
	};
	struct heap_use u0, u1;
	uint32_t i;
	int port, ok = 1;

	heap_use(&u0);
	for (i = 0; i < RTE_DIM(bad); i++) {
		port = port_probe("net_mlx5cq_mqbad", bad[i]);
		if (port >= 0)
			port_remove(port);
		STEP(port < 0, bad[i]);
	}
	heap_use(&u1);
	STEP(heap_use_same(&u0, &u1, "refused devargs") == 0, "no leak");
	return ok ? TEST_SUCCESS : TEST_FAILED;
}

static struct unit_test_suite net_rx_mprq_suite = {
	.suite_name = "net_rx_mprq",
	.setup = net_suite_setup,
	.teardown = net_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_rx_mprq_strides),
		TEST_CASE(test_net_rx_mprq_sessions),
		TEST_CASE(test_net_rx_mprq_restart),
		TEST_CASE(test_net_rx_mprq_recovery),
		TEST_CASE(test_net_rx_mprq_qstate),
		TEST_CASE(test_net_rx_mprq_fallback),
		TEST_CASE(test_net_rx_mprq_refused),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_rx_mprq, net_rx_mprq_suite);
