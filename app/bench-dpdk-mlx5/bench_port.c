/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The project's side of a case in the same process: a net_mlx5cq port on
 * an emulated wire of its own, its RX queue on the case's mempool (the
 * very pool DPDK's queues of the case take their buffers from), filled as
 * dpdk-bench-cq's perf-rx fills it: the emulator's engine is paused, and
 * one ring's worth of frames is injected on the wire in one engine pass
 * (the model copies each frame into its posted buffer and writes its
 * completion, in HASH sessions when the port asks for cqe_comp=hash).
 * The port's RX function is then timed through rte_eth_rx_burst(), as an
 * application calls it (DPDK's functions are called directly, without
 * the ethdev layer's few instructions: the comparison leans their way).
 * The PMD is loaded (dlopen, this build's drivers folder), the port
 * probed and removed by the unit suites' helpers
 * (app/test-cq/test_net_util.c, linked into this program).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_thash.h>
#include <rte_udp.h>

#include <mlx5_emu.h>

#include "bench_dpdk_mlx5.h"
#include "test_net_util.h"

#define BENCH_PORT_TXQ 512

int
bench_port_open(struct bench_port *p, unsigned int id, uint32_t desc,
		int compressed, const char *extra, struct rte_mempool *mp)
{
	const struct rte_ipv4_hdr *ip;
	const struct rte_udp_hdr *udp;
	struct rte_eth_rss_conf rss;
	struct rte_ipv4_tuple tup;
	struct rte_ether_addr mac;
	struct rte_eth_conf conf;
	uint8_t key[64];
	char args[160];
	uint32_t i;
	int ret;

	memset(p, 0, sizeof(*p));
	p->port = UINT16_MAX;
	snprintf(p->name, sizeof(p->name), "net_mlx5cq_bdm%u", id);
	snprintf(p->wire, sizeof(p->wire), "bdmw%u", id);
	snprintf(args, sizeof(args), "dev=emu,wire=%s,rxq_desc=%u%s%s%s",
		 p->wire, desc, compressed ? ",cqe_comp=hash" : ",cqe_comp=none",
		 extra != NULL ? "," : "", extra != NULL ? extra : "");
	p->frames = calloc(desc, sizeof(*p->frames));
	p->lens = calloc(desc, sizeof(*p->lens));
	if (p->frames == NULL || p->lens == NULL)
		goto fail;
	if (net_load() != 0)
		goto fail;
	ret = port_probe(p->name, args);
	if (ret < 0) {
		printf("bench: net_mlx5cq port %s,%s not probed (%s)\n",
		       p->name, args, rte_strerror(rte_errno));
		goto fail;
	}
	p->port = (uint16_t)ret;
	/* RSS on, as DPDK's queues deliver it: hash and flag in the mbuf. */
	memset(&conf, 0, sizeof(conf));
	conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
	conf.rx_adv_conf.rss_conf.rss_hf = RTE_ETH_RSS_IPV4 |
					   RTE_ETH_RSS_NONFRAG_IPV4_UDP;
	if (rte_eth_dev_configure(p->port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(p->port, 0, (uint16_t)desc, SOCKET_ID_ANY,
				   NULL, mp) != 0 ||
	    rte_eth_tx_queue_setup(p->port, 0, BENCH_PORT_TXQ, SOCKET_ID_ANY,
				   NULL) != 0 ||
	    rte_eth_dev_start(p->port) != 0 ||
	    rte_eth_macaddr_get(p->port, &mac) != 0) {
		printf("bench: net_mlx5cq port %s not started\n", p->name);
		goto fail;
	}
	/* The frame DPDK's queues get, sent to the port's own address. */
	p->len = bench_frame(p->frame);
	memcpy(p->frame, &mac, sizeof(mac));
	/* Its hash: Toeplitz of the IPv4/UDP tuple with the port's key. */
	memset(&rss, 0, sizeof(rss));
	rss.rss_key = key;
	rss.rss_key_len = sizeof(key);
	if (rte_eth_dev_rss_hash_conf_get(p->port, &rss) != 0) {
		printf("bench: no RSS key of %s\n", p->name);
		goto fail;
	}
	ip = (const struct rte_ipv4_hdr *)(p->frame +
					   sizeof(struct rte_ether_hdr));
	udp = (const struct rte_udp_hdr *)(ip + 1);
	tup.src_addr = rte_be_to_cpu_32(ip->src_addr);
	tup.dst_addr = rte_be_to_cpu_32(ip->dst_addr);
	tup.sport = rte_be_to_cpu_16(udp->src_port);
	tup.dport = rte_be_to_cpu_16(udp->dst_port);
	p->hash = rte_softrss((uint32_t *)&tup, RTE_THASH_V4_L4_LEN, key);
	for (i = 0; i < desc; i++) {
		p->frames[i] = p->frame;
		p->lens[i] = p->len;
	}
	p->desc = desc;
	mlx5_emu_net_engine_pause(1);
	p->paused = 1;
	return 0;
fail:
	bench_port_close(p);
	return -1;
}

int
bench_port_fill(struct bench_port *p)
{
	if (mlx5_emu_wire_inject_burst(p->wire, p->frames, p->lens,
				       p->desc) <= 0) {
		printf("bench: frames not injected on %s\n", p->wire);
		return -1;
	}
	return (int)p->desc;
}

void
bench_port_close(struct bench_port *p)
{
	if (p->paused)
		mlx5_emu_net_engine_pause(0);
	if (p->port != UINT16_MAX)
		port_remove(p->port);
	free(p->frames);
	free(p->lens);
	memset(p, 0, sizeof(*p));
	p->port = UINT16_MAX;
}
