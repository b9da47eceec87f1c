/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * mlx5cq-mp-secondary: a secondary DPDK process for
 * tests/testpmd_net_mlx5cq.py (case secondary_mempool). It attaches to
 * the ports of a running primary (EAL options: --proc-type=secondary,
 * the primary's --file-prefix, -d the PMD), sends frames of its own
 * mempool (the PMD has the primary register it) on TX queue TXQ of port
 * TX, receives them on every RX queue of port RX (the primary does not
 * poll them), and prints what it sent and received:
 *
 *   mlx5cq-mp-secondary EAL... -- TX TXQ RX COUNT
 *   sent N bytes B
 *   received N bytes B
 *
 * Frame i is 60 + i % 200 bytes long, addressed to port RX's MAC. Exit
 * status 0 when every frame came back, 1 otherwise.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#define BURST 32
#define WAIT_S 30

static struct rte_mbuf *
frame(struct rte_mempool *mp, const struct rte_ether_addr *dst,
	const struct rte_ether_addr *src, uint32_t i)
{
	const uint16_t len = 60 + i % 200;
	struct rte_ether_hdr *eh;
	struct rte_mbuf *m;
	uint8_t *p;

	m = rte_pktmbuf_alloc(mp);
	if (m == NULL)
		return NULL;
	p = (uint8_t *)rte_pktmbuf_append(m, len);
	if (p == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	memset(p, (int)(i & 0xff), len);
	eh = (struct rte_ether_hdr *)p;
	rte_ether_addr_copy(dst, &eh->dst_addr);
	rte_ether_addr_copy(src, &eh->src_addr);
	/* An experimental ethertype: no L3 parsing, RSS to the default. */
	eh->ether_type = rte_cpu_to_be_16(0x88b5);
	return m;
}

int
main(int argc, char **argv)
{
	uint64_t sent = 0, sent_b = 0, got = 0, got_b = 0, deadline;
	struct rte_ether_addr dst, src;
	struct rte_mbuf *pkts[BURST];
	uint16_t tx, txq, rx, q, n, k;
	struct rte_mempool *mp;
	struct rte_eth_dev_info info;
	uint32_t count, i = 0;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "EAL init failed\n");
		return 1;
	}
	argc -= ret;
	argv += ret;
	if (argc != 5) {
		fprintf(stderr, "usage: ... -- TX TXQ RX COUNT\n");
		return 1;
	}
	tx = atoi(argv[1]);
	txq = atoi(argv[2]);
	rx = atoi(argv[3]);
	count = atoi(argv[4]);
	if (rte_eal_process_type() != RTE_PROC_SECONDARY ||
	    !rte_eth_dev_is_valid_port(tx) || !rte_eth_dev_is_valid_port(rx) ||
	    rte_eth_dev_info_get(rx, &info) != 0 ||
	    rte_eth_macaddr_get(rx, &dst) != 0 ||
	    rte_eth_macaddr_get(tx, &src) != 0) {
		fprintf(stderr, "not a secondary, or no ports %u %u\n", tx, rx);
		return 1;
	}
	/* The secondary's own mempool: not registered by the primary yet. */
	mp = rte_pktmbuf_pool_create("mp_secondary_pool", 4096, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE,
				     rte_socket_id());
	if (mp == NULL) {
		fprintf(stderr, "mempool: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	deadline = rte_get_timer_cycles() + WAIT_S * rte_get_timer_hz();
	while ((sent < count || got < sent) &&
	       rte_get_timer_cycles() < deadline) {
		for (n = 0; n < BURST && i < count; n++, i++) {
			pkts[n] = frame(mp, &dst, &src, i);
			if (pkts[n] == NULL)
				break;
		}
		k = n ? rte_eth_tx_burst(tx, txq, pkts, n) : 0;
		for (q = 0; q < k; q++) {
			sent++;
			sent_b += pkts[q]->pkt_len;
		}
		/* A refused frame is made again (same index) later. */
		i -= n - k;
		rte_pktmbuf_free_bulk(&pkts[k], n - k);
		for (q = 0; q < info.nb_rx_queues; q++) {
			n = rte_eth_rx_burst(rx, q, pkts, BURST);
			for (k = 0; k < n; k++) {
				got++;
				got_b += pkts[k]->pkt_len;
			}
			rte_pktmbuf_free_bulk(pkts, n);
		}
	}
	printf("sent %" PRIu64 " bytes %" PRIu64 "\n", sent, sent_b);
	printf("received %" PRIu64 " bytes %" PRIu64 "\n", got, got_b);
	fflush(stdout);
	/* The mempool stays: frames still in the send ring are the
	 * primary's to free at queue release.
	 */
	rte_eal_cleanup();
	return sent == count && got == sent && got_b == sent_b ? 0 : 1;
}
