/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_vlan": VLAN stripping changed at run time on net_mlx5cq over
 * the emulated HCA. Two RX queues, every flow steered to one queue at a
 * time through the RETA; stripping turned on for queue 1 only
 * (rte_eth_dev_set_vlan_strip_on_queue(): MODIFY_RQ RDY->RDY,
 * modify_bitmask VSD), then on the whole port (rte_eth_dev_set_vlan_offload)
 * and off again; then changed while the port, then queue 1, is stopped. A
 * stripped packet has RTE_MBUF_F_RX_VLAN_STRIPPED, the frame's TCI
 * (frame_build(): 0x2123) in vlan_tci and 4 bytes less; an unstripped one
 * keeps its 802.1Q tag (ethertype 0x8100 at byte 12). rxq info shows the
 * queue's offload.
 *
 * VLAN filter (RTE_ETH_RX_OFFLOAD_VLAN_FILTER): with ids 100 and 200
 * added, frames tagged 100 and 200 and untagged frames arrive, frames
 * tagged 300 do not; an id removed stops its frames; with no id every
 * tagged frame is refused; with the offload off every frame arrives; the
 * device's list holds 256 ids (HCA_CAP.log_max_vlan_list 8 on the
 * emulated HCA): the 257th is refused with ENOSPC and leaves the filter
 * as it was. No rte_malloc use is left after the port is removed.
 *
 * VLAN insertion on TX: see test_net_vlan_insert().
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include <mlx5_emu.h>
#include <mlx5_prm.h>

#include "test.h"
#include "test_net_util.h"
#include "test_usage.h"

#define V_DESC 64
#define V_FLOWS 16
#define V_TCI 0x2123 /* frame_build()'s tag. */
#define V_PAYLOAD 40

static struct rte_mempool *v_mp;

static int
vlan_setup(void)
{
	if (net_load() != 0 || net_ethdev_hold() != 0)
		return -1;
	v_mp = rte_pktmbuf_pool_create("net_vlan_test", 1024, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE,
				       SOCKET_ID_ANY);
	return v_mp == NULL ? -1 : 0;
}

static void
vlan_teardown(void)
{
	rte_mempool_free(v_mp);
	v_mp = NULL;
	net_ethdev_release();
}

static int
port_up(uint16_t port, uint16_t nq)
{
	struct rte_eth_conf conf = { 0 };
	uint16_t q;

	conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
	conf.rx_adv_conf.rss_conf.rss_hf = RTE_ETH_RSS_NONFRAG_IPV4_UDP;
	if (rte_eth_dev_configure(port, nq, nq, &conf) != 0)
		return -1;
	for (q = 0; q < nq; q++)
		if (rte_eth_rx_queue_setup(port, q, V_DESC, SOCKET_ID_ANY,
					   NULL, v_mp) != 0 ||
		    rte_eth_tx_queue_setup(port, q, V_DESC, SOCKET_ID_ANY,
					   NULL) != 0)
			return -1;
	return rte_eth_dev_start(port);
}

/*
 * Steer every flow to queue q (every redirection table entry), send
 * V_FLOWS tagged frames; they must all arrive on q, stripped when q's bit
 * is set in strip_q, else tagged. 0 or -1 (printed).
 */
static int
check_strip_q(uint16_t port, const struct rte_ether_addr *mac,
	      unsigned int strip_q, uint16_t q, const char *what);

static int
check_strip(uint16_t port, const struct rte_ether_addr *mac,
	    unsigned int strip_q, const char *what)
{
	return check_strip_q(port, mac, strip_q, 0, what) == 0 &&
	       check_strip_q(port, mac, strip_q, 1, what) == 0 ? 0 : -1;
}

static int
check_strip_q(uint16_t port, const struct rte_ether_addr *mac,
	      unsigned int strip_q, uint16_t q, const char *what)
{
	struct rte_eth_rss_reta_entry64 reta[1];
	struct rte_mbuf *pkts[V_FLOWS];
	uint16_t qof[V_FLOWS];
	unsigned int seen = 0, i, n;
	uint8_t f[256];
	uint32_t len = 0;
	int ret = 0;

	memset(reta, 0, sizeof(reta));
	reta[0].mask = UINT64_MAX;
	for (i = 0; i < RTE_ETH_RETA_GROUP_SIZE; i++)
		reta[0].reta[i] = q;
	if (rte_eth_dev_rss_reta_update(port, reta, 64) != 0) {
		printf("  %s: RETA update failed\n", what);
		return -1;
	}
	for (i = 0; i < V_FLOWS; i++) {
		len = frame_build(f, mac, RTE_IPV4(198u, 18, 3, i), 2000 + i,
				  V_PAYLOAD, 1);
		if (mlx5_emu_wire_inject("vl", f, len) != 1) {
			printf("  %s: inject failed\n", what);
			return -1;
		}
	}
	n = rx_all(port, 2, pkts, V_FLOWS, qof);
	if (n != V_FLOWS) {
		printf("  %s: received %u of %u\n", what, n, V_FLOWS);
		free_all(pkts, n);
		return -1;
	}
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
		int strip = !!(strip_q & (1u << qof[i]));

		seen |= 1u << qof[i];
		if (strip && (!(m->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED) ||
			      !(m->ol_flags & RTE_MBUF_F_RX_VLAN) ||
			      m->vlan_tci != V_TCI || m->pkt_len != len - 4 ||
			      d[12] != 0x08 || d[13] != 0x00)) {
			printf("  %s: q%u packet %u: flags 0x%" PRIx64
			       " tci 0x%x len %u (expected stripped, 0x%x,"
			       " %u)\n", what, qof[i], i, m->ol_flags,
			       m->vlan_tci, m->pkt_len, V_TCI, len - 4);
			ret = -1;
		}
		if (!strip && ((m->ol_flags & (RTE_MBUF_F_RX_VLAN_STRIPPED |
					       RTE_MBUF_F_RX_VLAN)) ||
			       m->pkt_len != len || d[12] != 0x81 ||
			       d[13] != 0x00 || d[14] != (V_TCI >> 8) ||
			       d[15] != (V_TCI & 0xff))) {
			printf("  %s: q%u packet %u: flags 0x%" PRIx64
			       " len %u bytes 12..15 %02x%02x %02x%02x"
			       " (expected the tag kept, len %u)\n", what,
			       qof[i], i, m->ol_flags, m->pkt_len, d[12],
			       d[13], d[14], d[15], len);
			ret = -1;
		}
	}
	free_all(pkts, n);
	if (seen != 1u << q) {
		printf("  %s: queues receiving 0x%x, expected 0x%x\n", what,
		       seen, 1u << q);
		ret = -1;
	}
	return ret;
}

static int
rxq_strip(uint16_t port, uint16_t q)
{
	struct rte_eth_rxq_info qi;

	if (rte_eth_rx_queue_info_get(port, q, &qi) != 0)
		return -1;
	return !!(qi.conf.offloads & RTE_ETH_RX_OFFLOAD_VLAN_STRIP);
}

static int
test_net_vlan_strip_runtime(void)
{
	struct heap_use before, after;
	struct rte_ether_addr mac;
	int port, ok = 1;

	heap_use(&before);
	port = port_probe("net_mlx5cq_vl", "dev=emu,wire=vl");
	TEST_ASSERT(port >= 0, "probe failed");
	if (port_up(port, 2) != 0) {
		port_remove(port);
		TEST_ASSERT(0, "start failed");
	}
	rte_eth_macaddr_get(port, &mac);
	ok &= check_strip(port, &mac, 0, "strip off") == 0;
	ok &= rte_eth_dev_set_vlan_strip_on_queue(port, 1, 1) == 0;
	ok &= rxq_strip(port, 0) == 0 && rxq_strip(port, 1) == 1;
	ok &= check_strip(port, &mac, 2, "strip on q1") == 0;
	ok &= rte_eth_dev_set_vlan_offload(port, RTE_ETH_VLAN_STRIP_OFFLOAD)
	      == 0;
	ok &= rxq_strip(port, 0) == 1 && rxq_strip(port, 1) == 1;
	ok &= rte_eth_dev_get_vlan_offload(port) ==
	      RTE_ETH_VLAN_STRIP_OFFLOAD;
	ok &= check_strip(port, &mac, 3, "strip on port") == 0;
	ok &= rte_eth_dev_set_vlan_strip_on_queue(port, 0, 0) == 0;
	ok &= rxq_strip(port, 0) == 0 && rxq_strip(port, 1) == 1;
	ok &= check_strip(port, &mac, 2, "strip off q0") == 0;
	ok &= rte_eth_dev_set_vlan_offload(port, 0) == 0;
	ok &= rxq_strip(port, 0) == 0 && rxq_strip(port, 1) == 0;
	ok &= check_strip(port, &mac, 0, "strip off port") == 0;
	/* Stopped and started again: the RQs are recreated with the
	 * queues' setting.
	 */
	ok &= rte_eth_dev_set_vlan_strip_on_queue(port, 1, 1) == 0;
	ok &= rte_eth_dev_stop(port) == 0 && rte_eth_dev_start(port) == 0;
	ok &= check_strip(port, &mac, 2, "strip on q1 after restart") == 0;
	/* Changed while stopped (RQs in RST: RST -> RST), then started. */
	ok &= rte_eth_dev_stop(port) == 0;
	ok &= rte_eth_dev_set_vlan_strip_on_queue(port, 0, 1) == 0;
	ok &= rte_eth_dev_set_vlan_strip_on_queue(port, 1, 0) == 0;
	ok &= rte_eth_dev_start(port) == 0;
	ok &= check_strip(port, &mac, 1, "strip on q0 set while stopped") == 0;
	/* Queue 1 stopped (its RQ in RST: MODIFY_RQ RST -> RST), changed,
	 * started again.
	 */
	ok &= rte_eth_dev_rx_queue_stop(port, 1) == 0;
	ok &= rte_eth_dev_set_vlan_strip_on_queue(port, 1, 1) == 0;
	ok &= rte_eth_dev_rx_queue_start(port, 1) == 0;
	ok &= check_strip(port, &mac, 3, "strip on q1 set while q1 stopped")
	      == 0;
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	heap_use(&after);
	TEST_ASSERT(ok, "runtime VLAN strip");
	TEST_ASSERT_SUCCESS(heap_use_same(&before, &after, "net_vlan"),
			    "leak");
	return TEST_SUCCESS;
}

/* A frame to mac tagged with vid (or untagged, vid < 0): 1 if received. */
static int
vf_one(uint16_t port, const struct rte_ether_addr *mac, int vid)
{
	struct rte_mbuf *pkts[4];
	uint16_t qof[4];
	uint8_t f[256];
	uint32_t len;
	unsigned int n;

	len = frame_build(f, mac, RTE_IPV4(198u, 18, 9, 1), 5000, V_PAYLOAD,
			  vid >= 0);
	if (vid >= 0) {
		f[14] = (uint8_t)(vid >> 8);
		f[15] = (uint8_t)vid;
	}
	if (mlx5_emu_wire_inject("vf", f, len) != 1)
		return -1;
	n = rx_all(port, 1, pkts, 1, qof);
	free_all(pkts, n);
	return (int)n;
}

static int
test_net_vlan_filter(void)
{
	struct rte_eth_conf conf = { 0 };
	struct heap_use before, after;
	struct rte_ether_addr mac;
	int port, ok = 1;
	uint16_t v;

	heap_use(&before);
	port = port_probe("net_mlx5cq_vf", "dev=emu,wire=vf");
	TEST_ASSERT(port >= 0, "probe failed");
	conf.rxmode.offloads = RTE_ETH_RX_OFFLOAD_VLAN_FILTER;
	if (rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, V_DESC, SOCKET_ID_ANY, NULL,
				   v_mp) != 0 ||
	    rte_eth_tx_queue_setup(port, 0, V_DESC, SOCKET_ID_ANY, NULL) != 0 ||
	    rte_eth_dev_start(port) != 0) {
		port_remove(port);
		TEST_ASSERT(0, "start failed");
	}
	rte_eth_macaddr_get(port, &mac);
	/* On, no id: untagged frames only. */
	ok &= vf_one(port, &mac, -1) == 1 && vf_one(port, &mac, 100) == 0;
	ok &= rte_eth_dev_vlan_filter(port, 100, 1) == 0 &&
	      rte_eth_dev_vlan_filter(port, 200, 1) == 0;
	ok &= vf_one(port, &mac, 100) == 1 && vf_one(port, &mac, 200) == 1 &&
	      vf_one(port, &mac, 300) == 0 && vf_one(port, &mac, -1) == 1;
	if (!ok)
		printf("  filter of 100, 200\n");
	ok &= rte_eth_dev_vlan_filter(port, 200, 0) == 0;
	ok &= vf_one(port, &mac, 200) == 0 && vf_one(port, &mac, 100) == 1;
	/* Off: everything passes; on again: the same ids. */
	ok &= rte_eth_dev_set_vlan_offload(port, 0) == 0;
	ok &= vf_one(port, &mac, 300) == 1 && vf_one(port, &mac, 200) == 1;
	ok &= rte_eth_dev_set_vlan_offload(port, RTE_ETH_VLAN_FILTER_OFFLOAD)
	      == 0;
	ok &= vf_one(port, &mac, 300) == 0 && vf_one(port, &mac, 100) == 1;
	if (!ok)
		printf("  filter off and on\n");
	/* The device's 256: one more is refused, nothing changes. */
	for (v = 1; v <= 256 && ok; v++)
		ok &= rte_eth_dev_vlan_filter(port, v, 1) == 0;
	ok &= rte_eth_dev_vlan_filter(port, 1000, 1) == -ENOSPC;
	ok &= vf_one(port, &mac, 1000) == 0 && vf_one(port, &mac, 256) == 1;
	/* Survives a restart. */
	ok &= rte_eth_dev_stop(port) == 0 && rte_eth_dev_start(port) == 0;
	ok &= vf_one(port, &mac, 256) == 1 && vf_one(port, &mac, 300) == 0;
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	heap_use(&after);
	TEST_ASSERT(ok, "VLAN filter");
	TEST_ASSERT_SUCCESS(heap_use_same(&before, &after, "net_vlan filter"),
			    "leak");
	return TEST_SUCCESS;
}

/*
 * VLAN insertion on TX (RTE_ETH_TX_OFFLOAD_VLAN_INSERT), on each path:
 * the device inserts the tag (default caps: wqe_vlan_insert, no inline
 * header), or the PMD writes it into the inline header because the device
 * requires the L2 header inline (eth_inline_mode L2) or cannot insert
 * (wqe_vlan_insert 0). Port A of that device sends 8 frames to port B
 * (default caps, no stripping): those with RTE_MBUF_F_TX_VLAN arrive with
 * 0x8100 and their TCI at byte 12 and the frame after them, the others as
 * sent; one frame is in two segments of 18 bytes and the rest, one of 30
 * and the rest. A's obytes count each inserted tag, as net/mlx5 counts
 * them.
 */
#define VI_N 8

static unsigned int vi_seq;

static struct rte_mbuf *
vi_mbuf(const uint8_t *f, uint32_t len, uint32_t first)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(v_mp), *t;
	uint8_t *p;

	if (m == NULL)
		return NULL;
	if (first == 0 || first >= len)
		first = len;
	p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)first);
	memcpy(p, f, first);
	if (first == len)
		return m;
	t = rte_pktmbuf_alloc(v_mp);
	if (t == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	p = (uint8_t *)rte_pktmbuf_append(t, (uint16_t)(len - first));
	memcpy(p, f + first, len - first);
	if (rte_pktmbuf_chain(m, t) != 0) {
		rte_pktmbuf_free(m);
		rte_pktmbuf_free(t);
		return NULL;
	}
	return m;
}

static int
vi_case(const char *what, uint8_t inline_mode, uint8_t hw)
{
	struct rte_eth_conf conf_a = { 0 }, conf_b = { 0 };
	struct rte_mbuf *tx[VI_N], *rx[VI_N + 4];
	struct rte_ether_addr mac_b;
	struct mlx5_emu_caps caps;
	struct rte_eth_stats st;
	char name[40], args[48];
	uint8_t f[VI_N][128];
	uint32_t len[VI_N];
	uint64_t obytes = 0;
	uint16_t got = 0, sent, i;
	int a, b, ok = 1;

	mlx5_emu_caps_default(&caps);
	caps.eth_inline_mode = inline_mode;
	caps.eth_wqe_vlan_insert = hw;
	snprintf(args, sizeof(args), "dev=emu,wire=vi%u", vi_seq);
	snprintf(name, sizeof(name), "net_mlx5cq_via%u", vi_seq);
	if (mlx5_emu_open_caps_set(&caps) != 0)
		return -1;
	a = port_probe(name, args);
	mlx5_emu_open_caps_set(NULL);
	snprintf(name, sizeof(name), "net_mlx5cq_vib%u", vi_seq++);
	b = port_probe(name, args);
	if (a < 0 || b < 0) {
		printf("  %s: probe failed\n", what);
		return -1;
	}
	conf_a.txmode.offloads = RTE_ETH_TX_OFFLOAD_VLAN_INSERT |
				 RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	STEP(port_start_1q(a, V_DESC, v_mp, &conf_a) == 0 &&
	     port_start_1q(b, V_DESC, v_mp, &conf_b) == 0, "start");
	rte_eth_macaddr_get(b, &mac_b);
	for (i = 0; ok && i < VI_N; i++) {
		len[i] = frame_build(f[i], &mac_b, RTE_IPV4(198u, 18, 4, i),
				     (uint16_t)(6000 + i), V_PAYLOAD, 0);
		tx[i] = vi_mbuf(f[i], len[i], i == 5 ? 18 : i == 6 ? 30 : 0);
		STEP(tx[i] != NULL, "mbuf");
		if (tx[i] == NULL)
			break;
		if (i % 4 != 3) {
			tx[i]->ol_flags |= RTE_MBUF_F_TX_VLAN;
			tx[i]->vlan_tci = (uint16_t)(0x100 + i);
		}
		obytes += len[i] + (i % 4 != 3 ? RTE_VLAN_HLEN : 0);
	}
	if (ok) {
		sent = rte_eth_tx_burst(a, 0, tx, VI_N);
		free_all(tx + sent, (uint16_t)(VI_N - sent));
		STEP(sent == VI_N, "all sent");
		got = rx_all(b, 1, rx, RTE_DIM(rx), NULL);
		STEP(got == VI_N, "all received");
	}
	for (i = 0; ok && i < got; i++) {
		const uint8_t *r = rte_pktmbuf_mtod(rx[i], const uint8_t *);
		uint8_t want[132];
		uint32_t wl = len[i];

		memcpy(want, f[i], 12);
		if (i % 4 != 3) {
			want[12] = 0x81;
			want[13] = 0x00;
			want[14] = 0x01;
			want[15] = (uint8_t)i;
			memcpy(want + 16, f[i] + 12, len[i] - 12);
			wl += RTE_VLAN_HLEN;
		} else {
			memcpy(want + 12, f[i] + 12, len[i] - 12);
		}
		if (rx[i]->pkt_len != wl || rx[i]->nb_segs != 1 ||
		    memcmp(r, want, wl) != 0) {
			printf("  %s: frame %u: %u bytes, %02x%02x %02x%02x at "
			       "12 (want %u)\n", what, i, rx[i]->pkt_len,
			       r[12], r[13], r[14], r[15], wl);
			ok = 0;
		}
	}
	free_all(rx, got);
	STEP(rte_eth_stats_get(a, &st) == 0 && st.opackets == VI_N &&
	     st.obytes == obytes, "A's opackets / obytes");
	TEST_ASSERT_SUCCESS(port_remove(a), "remove A");
	TEST_ASSERT_SUCCESS(port_remove(b), "remove B");
	if (!ok)
		printf("  %s: failed\n", what);
	return ok ? 0 : -1;
}

static int
test_net_vlan_insert(void)
{
	struct heap_use before, after;
	int ok = 1;

	heap_use(&before);
	STEP(vi_case("device inserts", MLX5_CAP_INLINE_MODE_NOT_REQUIRED,
		     1) == 0, "device insertion");
	STEP(vi_case("L2 inline required", MLX5_CAP_INLINE_MODE_L2, 1) == 0,
	     "insertion into the inline header (L2 inline)");
	STEP(vi_case("no wqe_vlan_insert", MLX5_CAP_INLINE_MODE_NOT_REQUIRED,
		     0) == 0, "insertion into the inline header (no cap)");
	heap_use(&after);
	TEST_ASSERT(ok, "VLAN insertion");
	TEST_ASSERT_SUCCESS(heap_use_same(&before, &after, "net_vlan insert"),
			    "leak");
	return TEST_SUCCESS;
}

static struct unit_test_suite net_vlan_suite = {
	.suite_name = "net_vlan",
	.setup = vlan_setup,
	.teardown = vlan_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_vlan_strip_runtime),
		TEST_CASE(test_net_vlan_filter),
		TEST_CASE(test_net_vlan_insert),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_vlan, net_vlan_suite);
