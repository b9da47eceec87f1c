/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_tx_loopback": TX over a loopback wire: payloads unchanged, TX
 * checksum offload, multi-segment frames, mbuf fast free.
 * The fixture (mbuf pool, port start, one frame received, an
 * xstat read) is test_net_fixture.c.
 */

#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_dev.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_thash.h>
#include <rte_udp.h>
#include <rte_vect.h>

#include <mlx5_emu.h>

#include "mlx5cq_ethdev.h"

#include "test.h"
#include "test_net_fixture.h"
#include "test_net_util.h"
#include "test_wait.h"

/*
 * TX over a loopback wire (a port alone on its wire receives its own
 * frames): payloads come back unchanged; with TX checksum offload the
 * device fills the zeroed IP and UDP checksums; multi-segment frames.
 */
static int
test_net_tx_loopback(void)
{
	struct rte_eth_conf conf = {
		.txmode.offloads = RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
				   RTE_ETH_TX_OFFLOAD_UDP_CKSUM |
				   RTE_ETH_TX_OFFLOAD_MULTI_SEGS,
	};
	struct rte_ether_addr mac;
	struct rte_mbuf *tx[64], *rx[64];
	struct rte_eth_stats st;
	uint8_t f[256];
	uint32_t len, i, n, sent = 0;
	uint64_t deadline;
	int port, ok = 1;

	port = port_probe("net_mlx5cq_tx", "dev=emu,wire=tx,tx_comp_thresh=4");
	TEST_ASSERT(port >= 0, "probe failed");
	if (port_start(port, 1, &conf) != 0) {
		port_remove(port);
		TEST_ASSERT(0, "start failed");
	}
	rte_eth_macaddr_get(port, &mac);
	for (i = 0; i < 48; i++) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(n_mp);
		struct rte_ipv4_hdr *ip;

		len = frame_build(f, &mac, RTE_IPV4(10, 0, 0, i), 100 + i,
				  60, 0);
		if (i % 3 == 2) {
			/* Two segments: headers, then the payload. */
			struct rte_mbuf *s = rte_pktmbuf_alloc(n_mp);

			memcpy(rte_pktmbuf_append(m, 42), f, 42);
			memcpy(rte_pktmbuf_append(s, len - 42), f + 42,
			       len - 42);
			rte_pktmbuf_chain(m, s);
		} else {
			memcpy(rte_pktmbuf_append(m, len), f, len);
		}
		if (i % 2) {
			ip = rte_pktmbuf_mtod_offset(m, void *, 14);
			ip->hdr_checksum = 0;
			((struct rte_udp_hdr *)(ip + 1))->dgram_cksum =
				rte_ipv4_phdr_cksum(ip, 0);
			m->l2_len = 14;
			m->l3_len = 20;
			m->ol_flags = RTE_MBUF_F_TX_IPV4 |
				      RTE_MBUF_F_TX_IP_CKSUM |
				      RTE_MBUF_F_TX_UDP_CKSUM;
		}
		tx[i] = m;
	}
	deadline = test_wait_deadline(TEST_WAIT_S);
	while (sent < 48 && !test_wait_expired(deadline)) {
		sent += rte_eth_tx_burst(port, 0, tx + sent, 48 - sent);
		rte_delay_us_sleep(100);
	}
	if (sent < 48) {
		printf("  %u of 48 sent after %d s\n", sent, TEST_WAIT_S);
		rte_pktmbuf_free_bulk(tx + sent, 48 - sent);
		ok = 0;
	}
	n = rx_all(port, 1, rx, 48, NULL);
	ok &= n == 48;
	for (i = 0; i < n; i++) {
		const struct rte_ipv4_hdr *ip =
			rte_pktmbuf_mtod_offset(rx[i], void *, 14);
		uint32_t k = rte_be_to_cpu_32(ip->src_addr) & 0xff;

		len = frame_build(f, &mac, RTE_IPV4(10, 0, 0, k), 100 + k, 60,
				  0);
		if (rx[i]->pkt_len != len ||
		    memcmp(rte_pktmbuf_mtod(rx[i], void *), f, len) != 0 ||
		    (rx[i]->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) !=
		    RTE_MBUF_F_RX_IP_CKSUM_GOOD ||
		    (rx[i]->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK) !=
		    RTE_MBUF_F_RX_L4_CKSUM_GOOD) {
			printf("  frame %u (flow %u) differs, flags 0x%" PRIx64
			       "\n", i, k, rx[i]->ol_flags);
			ok = 0;
		}
	}
	free_all(rx, n);
	rte_eth_stats_get(port, &st);
	ok &= st.opackets == 48 && st.ipackets == 48 && st.oerrors == 0 &&
	      st.ierrors == 0;
	if (!ok)
		printf("  received %u, stats ipackets %" PRIu64 " opackets %"
		       PRIu64 " oerrors %" PRIu64 "\n", n, st.ipackets,
		       st.opackets, st.oerrors);
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	TEST_ASSERT(ok, "TX loopback");
	return TEST_SUCCESS;
}

/*
 * RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE: engaged without MULTI_SEGS only, as
 * net/mlx5 engages it. 1,000 frames from a pool of 256 (no cache) go out
 * of a 64-entry ring in bursts of 32 and loop back: the pool can serve
 * them only if the completions give every mbuf back; after the port
 * stops the pool is full again, and every frame arrived intact. With
 * segs 3 each frame is a chain of three mbufs on a fast-free queue, as
 * testpmd sends them with "set txpkts" (it enables fast free by default
 * and never MULTI_SEGS): the offload's contract (rte_ethdev.h: one
 * mempool, reference count 1) holds for every segment, so the chain
 * comes back whole.
 */
#define FF_POOL 256
#define FF_FRAMES 1000

static int
ff_run(uint64_t offloads, int want_fast, uint32_t segs)
{
	struct rte_eth_conf conf = { .txmode.offloads = offloads };
	const struct mlx5cq_txq *txq;
	struct rte_mempool *mp;
	struct rte_ether_addr mac;
	struct rte_mbuf *tx[32], *sg[32 * 3], *rx[64];
	uint32_t sent = 0, got = 0, i, j, bad = 0;
	uint64_t deadline;
	uint8_t f[128];
	uint32_t len;
	int port, ok = 1;

	char name[32], args[32];

	snprintf(name, sizeof(name), "ff_pool%d%u", want_fast, segs);
	mp = rte_pktmbuf_pool_create(name, FF_POOL, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (mp == NULL)
		return -1;
	snprintf(name, sizeof(name), "net_mlx5cq_ff%d%u", want_fast, segs);
	snprintf(args, sizeof(args), "dev=emu,wire=ff%d%u", want_fast, segs);
	port = port_probe(name, args);
	if (port < 0 || rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, 256, SOCKET_ID_ANY, NULL,
				   n_mp) != 0 ||
	    rte_eth_tx_queue_setup(port, 0, 64, SOCKET_ID_ANY, NULL) != 0 ||
	    rte_eth_dev_start(port) != 0) {
		if (port >= 0)
			port_remove(port);
		rte_mempool_free(mp);
		return -1;
	}
	txq = rte_eth_devices[port].data->tx_queues[0];
	if (txq->fast_free != want_fast) {
		printf("  fast_free %u, want %d\n", txq->fast_free, want_fast);
		ok = 0;
	}
	rte_eth_macaddr_get(port, &mac);
	len = frame_build(f, &mac, RTE_IPV4(10, 0, 1, 1), 4321, 60, 0);
	deadline = test_wait_deadline(TEST_WAIT_S);
	while (ok && got < FF_FRAMES && !test_wait_expired(deadline)) {
		uint32_t want = RTE_MIN(32u, FF_FRAMES - sent), n;

		if (want != 0 &&
		    rte_pktmbuf_alloc_bulk(mp, sg, want * segs) == 0) {
			/* Segments of 20 bytes after a head of the rest. */
			for (i = 0; i < want; i++) {
				uint32_t hl = len - 20 * (segs - 1);

				tx[i] = sg[i * segs];
				memcpy(rte_pktmbuf_append(tx[i], hl), f, hl);
				for (j = 1; j < segs; j++) {
					struct rte_mbuf *s = sg[i * segs + j];

					memcpy(rte_pktmbuf_append(s, 20),
					       f + hl + 20 * (j - 1), 20);
					rte_pktmbuf_chain(tx[i], s);
				}
			}
			n = rte_eth_tx_burst(port, 0, tx, (uint16_t)want);
			rte_pktmbuf_free_bulk(tx + n, want - n);
			sent += n;
		} else {
			/* An empty burst handles the completions. */
			rte_eth_tx_burst(port, 0, tx, 0);
		}
		n = rte_eth_rx_burst(port, 0, rx, RTE_DIM(rx));
		for (i = 0; i < n; i++)
			bad += rx[i]->pkt_len != len ||
			       memcmp(rte_pktmbuf_mtod(rx[i], void *), f,
				      len) != 0;
		free_all(rx, (uint16_t)n);
		got += n;
		/* The engine thread may share this core: let it run. */
		if (n == 0)
			rte_delay_us_sleep(10);
	}
	if (got != FF_FRAMES || bad != 0) {
		printf("  sent %u received %u (%u differ)\n", sent, got, bad);
		ok = 0;
	}
	rte_eth_dev_stop(port);
	if (rte_mempool_avail_count(mp) != FF_POOL) {
		printf("  pool: %u of %u back\n", rte_mempool_avail_count(mp),
		       FF_POOL);
		ok = 0;
	}
	port_remove(port);
	rte_mempool_free(mp);
	return ok ? 0 : -1;
}

static int
test_net_tx_fast_free(void)
{
	TEST_ASSERT_SUCCESS(ff_run(RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE, 1, 1),
			    "fast free");
	TEST_ASSERT_SUCCESS(ff_run(RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE, 1, 3),
			    "fast free, chains of three segments");
	TEST_ASSERT_SUCCESS(ff_run(RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE |
				   RTE_ETH_TX_OFFLOAD_MULTI_SEGS, 0, 3),
			    "fast free with MULTI_SEGS (not engaged)");
	return TEST_SUCCESS;
}

static struct unit_test_suite net_tx_loopback_suite = {
	.suite_name = "net_tx_loopback",
	.setup = net_suite_setup,
	.teardown = net_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_tx_loopback),
		TEST_CASE(test_net_tx_fast_free),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_tx_loopback, net_tx_loopback_suite);
