/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_rx_intr": RX queue interrupts of net_mlx5cq: an armed CQ
 * makes the queue's event fd readable on one frame; and on a port with
 * the most RX queues the PMD allows, as clients use them through ethdev:
 * every queue's event added to one epoll instance and deleted again
 * (rte_eth_dev_rx_intr_ctl_q(); the eventdev RX adapter does the same, and
 * with a handle that claims one shared interrupt it adds the first queue's
 * event and deletes the last's), each queue in turn armed and woken by a
 * frame of a flow RSS sends to it, and no other queue waking. (The
 * emulated HCA sees only the last arm doorbell written to a shared UAR
 * page before it runs for a CQ: queues are armed one at a time.)
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <poll.h>
#include <unistd.h>
#include <sys/epoll.h>

#include <rte_common.h>
#include <rte_epoll.h>
#include <rte_ethdev.h>
#include <ethdev_driver.h> /* rte_eth_devices[]: the port's handle */
#include <rte_interrupts.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include <mlx5_emu.h>

#include "test.h"
#include "test_net_fixture.h"
#include "test_net_util.h"

/* Descriptors a queue: the most queues fit the fixture's pool. */
#define INTR_QDESC 128
#define FLOWS 128 /* Flows of distinct sources: RSS reaches every queue. */

/* A port of nq queues, RX interrupts and RSS on UDP/IP sources. */
static int
intr_port(uint16_t *nq)
{
	struct rte_eth_conf conf = {
		.intr_conf.rxq = 1,
		.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS,
		.rx_adv_conf.rss_conf.rss_hf = RTE_ETH_RSS_IP |
					       RTE_ETH_RSS_UDP,
	};
	struct rte_eth_dev_info info;
	uint16_t q;
	int port;

	port = port_probe("net_mlx5cq_irq", "dev=emu,wire=irq");
	if (port < 0)
		return -1;
	if (rte_eth_dev_info_get(port, &info) != 0)
		goto fail;
	*nq = info.max_rx_queues;
	if (rte_eth_dev_configure(port, *nq, 1, &conf) != 0)
		goto fail;
	for (q = 0; q < *nq; q++)
		if (rte_eth_rx_queue_setup(port, q, INTR_QDESC, SOCKET_ID_ANY,
					   NULL, n_mp) != 0)
			goto fail;
	if (rte_eth_tx_queue_setup(port, 0, INTR_QDESC, SOCKET_ID_ANY, NULL) != 0 ||
	    rte_eth_dev_start(port) != 0)
		goto fail;
	return port;
fail:
	port_remove(port);
	return -1;
}

/* RX interrupt: armed CQ, one frame, the queue's event fd is readable. */
static int
test_net_rx_intr(void)
{
	struct rte_eth_conf conf = { .intr_conf.rxq = 1 };
	struct rte_ether_addr mac;
	struct rte_mbuf *pkts[4];
	struct pollfd pfd;
	uint8_t f[128];
	uint32_t len;
	int port, fd, ok = 1, r;

	port = port_probe("net_mlx5cq_ti", "dev=emu,wire=ti");
	TEST_ASSERT(port >= 0, "probe failed");
	if (port_start(port, 1, &conf) != 0) {
		port_remove(port);
		TEST_ASSERT(0, "start failed");
	}
	rte_eth_macaddr_get(port, &mac);
	fd = rte_eth_dev_rx_intr_ctl_q_get_fd(port, 0);
	ok &= fd >= 0;
	ok &= rte_eth_dev_rx_intr_enable(port, 0) == 0;
	pfd.fd = fd;
	pfd.events = POLLIN;
	/* Nothing received: no event. */
	ok &= poll(&pfd, 1, 0) == 0;
	len = frame_build(f, &mac, RTE_IPV4(10, 2, 0, 1), 5, 20, 0);
	mlx5_emu_wire_inject("ti", f, len);
	/* Liveness bound only: the event comes with the completion. */
	r = poll(&pfd, 1, 5000);
	ok &= r == 1 && (pfd.revents & POLLIN);
	ok &= rte_eth_dev_rx_intr_disable(port, 0) == 0;
	ok &= rx_all(port, 1, pkts, 1, NULL) == 1;
	free_all(pkts, 1);
	if (!ok)
		printf("  fd %d poll %d revents 0x%x\n", fd, r, pfd.revents);
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	TEST_ASSERT(ok, "RX interrupt");
	return TEST_SUCCESS;
}

/* Inject flow i (its own UDP source): the number of ports it reached. */
static int
flow_inject(const struct rte_ether_addr *mac, unsigned int i)
{
	uint8_t f[128];
	uint32_t len;

	len = frame_build(f, mac, RTE_IPV4(10, 9, i, 1 + i),
			  (uint16_t)(1000 + 7 * i), 20, 0);
	return mlx5_emu_wire_inject("irq", f, len);
}

/* The queue flow i lands on (RSS), or -1. */
static int
flow_queue(uint16_t port, uint16_t nq, const struct rte_ether_addr *mac,
	   unsigned int i)
{
	struct rte_mbuf *m;
	uint16_t q;
	int found = -1;

	if (flow_inject(mac, i) != 1)
		return -1;
	for (q = 0; q < nq; q++) {
		if (rte_eth_rx_burst(port, q, &m, 1) == 1) {
			rte_pktmbuf_free(m);
			found = found == -1 ? q : -2;
		}
	}
	return found;
}

static int
test_rx_intr_every_queue(void)
{
	struct rte_epoll_event ev[RTE_MAX_QUEUES_PER_PORT];
	int flow_of[RTE_MAX_QUEUES_PER_PORT];
	struct rte_ether_addr mac;
	struct rte_mbuf *pkts[4];
	unsigned int i, waits;
	uint16_t nq, q;
	struct rte_intr_handle *ih;
	int port, epfd, n, ret;

	port = intr_port(&nq);
	TEST_ASSERT(port >= 0, "port with the most RX queues");
	TEST_ASSERT(nq >= 2 && nq <= RTE_MAX_QUEUES_PER_PORT, "%u queues",
		    nq);
	rte_eth_macaddr_get(port, &mac);
	/* A flow for every queue (RSS on the UDP/IP source). */
	for (q = 0; q < nq; q++)
		flow_of[q] = -1;
	for (i = 0; i < FLOWS; i++) {
		n = flow_queue(port, nq, &mac, i);
		TEST_ASSERT(n >= 0, "flow %u: received on no queue or on two",
			    i);
		if (flow_of[n] == -1)
			flow_of[n] = (int)i;
	}
	for (q = 0; q < nq; q++)
		TEST_ASSERT(flow_of[q] >= 0, "no flow of %u on queue %u",
			    FLOWS, q);
	/* Clients that ask (the eventdev RX adapter) see an interrupt a
	 * queue, not one shared by the port.
	 */
	ih = rte_eth_devices[port].intr_handle;
	TEST_ASSERT_EQUAL(rte_intr_cap_multiple(ih), 1,
			  "one interrupt for every queue of the port");
	epfd = epoll_create(1);
	TEST_ASSERT(epfd >= 0, "epoll_create");
	/* Every queue's event in one epoll instance. */
	for (q = 0; q < nq; q++) {
		ret = rte_eth_dev_rx_intr_ctl_q(port, q, epfd,
						RTE_INTR_EVENT_ADD,
						(void *)(uintptr_t)(q + 1));
		TEST_ASSERT_SUCCESS(ret, "queue %u: add: %d", q, ret);
	}
	/* Each queue in turn: armed, its flow received, it alone wakes. */
	for (q = 0; q < nq; q++) {
		TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_enable(port, q),
				    "queue %u: enable", q);
		n = rte_epoll_wait(epfd, ev, RTE_DIM(ev), 0);
		TEST_ASSERT_EQUAL(n, 0, "queue %u: %d events before its "
				  "frame", q, n);
		TEST_ASSERT_EQUAL(flow_inject(&mac, flow_of[q]), 1,
				  "queue %u: inject", q);
		/* Liveness bound only: the event comes with the CQE. */
		for (n = 0, waits = 0; n == 0 && waits < 50; waits++)
			n = rte_epoll_wait(epfd, ev, RTE_DIM(ev), 100);
		TEST_ASSERT_EQUAL(n, 1, "queue %u: %d events", q, n);
		TEST_ASSERT_EQUAL((uintptr_t)ev[0].epdata.data,
				  (uintptr_t)(q + 1), "queue %u: event of %zu",
				  q, (size_t)(uintptr_t)ev[0].epdata.data);
		TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_disable(port, q),
				    "queue %u: disable", q);
		ret = rte_eth_rx_burst(port, q, pkts, RTE_DIM(pkts));
		TEST_ASSERT_EQUAL(ret, 1, "queue %u: received %d", q, ret);
		rte_pktmbuf_free(pkts[0]);
	}
	/* Every queue's event is deleted, the last one included. */
	for (q = 0; q < nq; q++) {
		ret = rte_eth_dev_rx_intr_ctl_q(port, q, epfd,
						RTE_INTR_EVENT_DEL, NULL);
		TEST_ASSERT_SUCCESS(ret, "queue %u: delete: %d", q, ret);
	}
	ret = rte_eth_dev_rx_intr_ctl_q(port, 0, epfd, RTE_INTR_EVENT_DEL,
					NULL);
	TEST_ASSERT(ret != 0, "queue 0 deleted twice");
	close(epfd);
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	return TEST_SUCCESS;
}

static struct unit_test_suite net_rx_intr_suite = {
	.suite_name = "net_rx_intr",
	.setup = net_suite_setup,
	.teardown = net_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_net_rx_intr),
		TEST_CASE(test_rx_intr_every_queue),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_rx_intr, net_rx_intr_suite);
