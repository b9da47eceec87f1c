/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_flow": rte_flow on net_mlx5cq over the emulated HCA's NIC RX
 * steering. Frames are put on the port's emulated wire; what must come
 * out is written from rte_flow's and net/mlx5's contracts:
 * - MARK id N: RTE_MBUF_F_RX_FDIR | RTE_MBUF_F_RX_FDIR_ID, hash.fdir.hi
 *   N; FLAG: RTE_MBUF_F_RX_FDIR alone; no rule: neither (net/mlx5
 *   rxq_cq_to_mbuf());
 * - QUEUE: that queue; DROP: nothing, counted in the device's
 *   rx_steer_drops; RSS: the queue RQT[hash % 4] of the rule's queues
 *   repeated to 4 entries, hash.rss the Toeplitz hash (rte_softrss) of
 *   the tuple with the rule's key;
 * - a lower priority number wins; rules stay across stop and start and
 *   take effect at start when made on a stopped port;
 * - IPv6 addresses, TCP ports and flags, the Ethernet type: only the
 *   frames whose fields the rule names;
 * - marks in compressed sessions: FTAG_STRIDX mini-CQEs carry each
 *   packet's tag, HASH sessions join only equal tags;
 * - refusals: the errno and error type of each, and no rte_malloc use,
 *   device object or steering object left (also when the device refuses
 *   the rule's RQT).
 */

#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_flow.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_thash.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include <mlx5_emu.h>

#include "test.h"
#include "test_net_fixture.h"
#include "test_net_util.h"
#include "test_usage.h"

#define FL_SRC RTE_IPV4(198u, 18, 3, 1)
#define FL_DST RTE_IPV4(198u, 18, 0, 2)

static const struct rte_ether_addr fl_mac = {{ 0x02, 0, 0, 0, 0x67, 0x01 }};

/* An IPv4/UDP frame to the port (frame_build(), then the ports). */
static uint32_t
fl_frame(uint8_t *f, uint32_t src, uint16_t sport, uint16_t dport)
{
	uint32_t len = frame_build(f, &fl_mac, src, sport, 18, 0);
	struct rte_ipv4_hdr *ip = (void *)(f + RTE_ETHER_HDR_LEN);
	struct rte_udp_hdr *udp = (void *)(ip + 1);

	udp->dst_port = rte_cpu_to_be_16(dport);
	udp->dgram_cksum = 0;
	udp->dgram_cksum = rte_ipv4_udptcp_cksum(ip, udp);
	return len;
}

/* One frame in; what arrived (at most 4) out, with their queues. */
static uint16_t
fl_rx(uint16_t port, uint16_t nq, uint32_t src, uint16_t sport,
	uint16_t dport, struct rte_mbuf **pkts, uint16_t *qof, uint16_t want)
{
	uint8_t f[256];

	mlx5_emu_wire_inject("fl", f, fl_frame(f, src, sport, dport));
	return rx_all(port, nq, pkts, want, qof);
}

/*
 * What one frame got: -1 nothing came (or more than one), else its queue
 * and *mark: -1 no FDIR, -2 FDIR without id (FLAG), else the id.
 */
static int
fl_one(uint16_t port, uint16_t nq, uint32_t src, uint16_t dport,
	int64_t *mark)
{
	struct rte_mbuf *p[4];
	uint16_t q[4], n;
	int ret;

	n = fl_rx(port, nq, src, 9, dport, p, q, 1);
	if (n != 1) {
		free_all(p, n);
		return -1;
	}
	*mark = -1;
	if (p[0]->ol_flags & RTE_MBUF_F_RX_FDIR)
		*mark = (p[0]->ol_flags & RTE_MBUF_F_RX_FDIR_ID) ?
			(int64_t)p[0]->hash.fdir.hi : -2;
	ret = q[0];
	free_all(p, n);
	return ret;
}

/* Nothing arrives for a frame (a short wait: it is dropped or missed). */
static int
fl_none(uint16_t port, uint16_t nq, uint16_t dport)
{
	struct rte_mbuf *p[4];
	uint8_t f[256];
	uint16_t n = 0, q, i;

	mlx5_emu_wire_inject("fl", f, fl_frame(f, FL_SRC, 9, dport));
	for (i = 0; i < 40 && n == 0; i++) {
		mlx5_emu_net_progress();
		for (q = 0; q < nq; q++)
			n += rte_eth_rx_burst(port, q, p + n, 1);
		rte_delay_us_sleep(500);
	}
	free_all(p, n);
	return n == 0;
}

/* A rule eth / ipv4 [src] / udp [dst] -> [mark|flag] / fate. */
struct fl_rule {
	uint32_t prio;
	uint32_t src; /* 0: any */
	uint16_t dport; /* 0: any */
	int64_t mark; /* -1: none, -2: FLAG */
	int fate; /* queue index, or -1: DROP, -2: rss */
	const struct rte_flow_action_rss *rss;
};

static struct rte_flow *
fl_create(uint16_t port, const struct fl_rule *r, int validate_only,
	  struct rte_flow_error *err)
{
	struct rte_flow_attr attr = { .ingress = 1, .priority = r->prio };
	struct rte_flow_item_ipv4 ip = { .hdr.src_addr =
					 rte_cpu_to_be_32(r->src) };
	struct rte_flow_item_ipv4 ipm = { .hdr.src_addr = RTE_BE32(UINT32_MAX) };
	struct rte_flow_item_udp udp = { .hdr.dst_port =
					 rte_cpu_to_be_16(r->dport) };
	struct rte_flow_item_udp udpm = { .hdr.dst_port = RTE_BE16(0xffff) };
	struct rte_flow_item pat[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4,
		  .spec = r->src ? &ip : NULL, .mask = &ipm },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP,
		  .spec = r->dport ? &udp : NULL, .mask = &udpm },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action_mark mark = { .id = (uint32_t)r->mark };
	struct rte_flow_action_queue queue = { .index = (uint16_t)r->fate };
	struct rte_flow_action act[3];
	int n = 0;

	memset(act, 0, sizeof(act));
	if (r->mark >= 0) {
		act[n].type = RTE_FLOW_ACTION_TYPE_MARK;
		act[n++].conf = &mark;
	} else if (r->mark == -2) {
		act[n++].type = RTE_FLOW_ACTION_TYPE_FLAG;
	}
	if (r->fate == -1) {
		act[n++].type = RTE_FLOW_ACTION_TYPE_DROP;
	} else if (r->fate == -2) {
		act[n].type = RTE_FLOW_ACTION_TYPE_RSS;
		act[n++].conf = r->rss;
	} else {
		act[n].type = RTE_FLOW_ACTION_TYPE_QUEUE;
		act[n++].conf = &queue;
	}
	act[n].type = RTE_FLOW_ACTION_TYPE_END;
	if (validate_only)
		return rte_flow_validate(port, &attr, pat, act, err) == 0 ?
		       (struct rte_flow *)(uintptr_t)1 : NULL;
	return rte_flow_create(port, &attr, pat, act, err);
}

/* The device's steering and RSS objects, for before/after checks. */
struct fl_objs {
	uint32_t rules, matchers, actions, plain, rqts, tirs;
	uint64_t drops;
};

static void
fl_objs(uint16_t port, struct fl_objs *o)
{
	struct mlx5_emu_net_stats ns;
	struct mlx5_emu_port_stats ps;

	memset(o, 0xff, sizeof(*o));
	if (mlx5_emu_net_stats_get(port_emu_ctx(port), &ns) != 0 ||
	    mlx5_emu_port_stats_get(port_emu_ctx(port), &ps) != 0)
		return;
	o->rules = ns.steer_rules;
	o->matchers = ns.steer_matchers;
	o->actions = ns.steer_actions;
	o->plain = ns.steer_plain_actions;
	o->rqts = ns.rqts;
	o->tirs = ns.tirs;
	o->drops = ps.rx_steer_drops;
}

static int
fl_objs_are(uint16_t port, const struct fl_objs *base, uint32_t d_rules,
	    uint32_t d_dev_actions, uint32_t d_plain, uint32_t d_tirs)
{
	struct fl_objs o;

	fl_objs(port, &o);
	if (o.rules == base->rules + d_rules &&
	    o.matchers == base->matchers + d_rules &&
	    o.actions == base->actions + d_dev_actions &&
	    o.plain == base->plain + d_plain &&
	    o.rqts == base->rqts + d_tirs && o.tirs == base->tirs + d_tirs)
		return 1;
	printf("  objects: rules %u matchers %u dev actions %u plain %u "
	       "rqts %u tirs %u; want +%u +%u +%u +%u +%u +%u\n",
	       o.rules - base->rules, o.matchers - base->matchers,
	       o.actions - base->actions, o.plain - base->plain,
	       o.rqts - base->rqts, o.tirs - base->tirs, d_rules, d_rules,
	       d_dev_actions, d_plain, d_tirs, d_tirs);
	return 0;
}

static int
fl_mode_has(uint16_t port, uint16_t q, const char *what)
{
	struct rte_eth_burst_mode m;

	if (rte_eth_rx_burst_mode_get(port, q, &m) != 0)
		return -1;
	return strstr(m.info, what) != NULL;
}

static int
fl_port(const char *name, const char *extra, uint16_t nq)
{
	struct rte_eth_conf conf = { 0 };
	char args[160];
	int port;

	snprintf(args, sizeof(args), "dev=emu,wire=fl,"
		 "mac=02:00:00:00:67:01%s", extra);
	port = port_probe(name, args);
	if (port < 0)
		return -1;
	if (port_start((uint16_t)port, nq, &conf) != 0) {
		port_remove((uint16_t)port);
		return -1;
	}
	return port;
}

/* MARK, FLAG, QUEUE, DROP, priorities, destroy, stop/start, configure. */
static int
test_flow_mark_queue(void)
{
	const struct fl_rule r1 = { 0, 0, 5000, 42, 1, NULL };
	const struct fl_rule r2 = { 0, RTE_IPV4(10u, 0, 0, 9), 0, -2, 0, NULL };
	const struct fl_rule r3 = { 0, 0, 6000, -1, -1, NULL };
	const struct fl_rule r4 = { 1, 0, 5000, 7, 0, NULL };
	struct rte_flow *f1, *f2, *f3, *f4;
	struct rte_flow_error err;
	struct fl_objs base, o;
	int64_t mark;
	int port, ok = 1;

	port = fl_port("net_mlx5cq_fm", ",cqe_comp=none", 2);
	TEST_ASSERT(port >= 0, "probe/start failed");
	fl_objs(port, &base);
	STEP(fl_mode_has(port, 0, "flow marks") == 0, "mode before rules");
	f1 = fl_create(port, &r1, 0, &err);
	f2 = fl_create(port, &r2, 0, &err);
	f3 = fl_create(port, &r3, 0, &err);
	STEP(f1 != NULL && f2 != NULL && f3 != NULL, "three rules created");
	/* 3 rules and matchers; 2 TIR actions; tag, tag, drop; 2 TIRs. */
	STEP(fl_objs_are(port, &base, 3, 2, 3, 2), "objects of 3 rules");
	STEP(fl_mode_has(port, 0, "flow marks") == 1 &&
	     fl_mode_has(port, 1, "flow marks") == 1, "mode with marks");
	STEP(fl_one(port, 2, FL_SRC, 5000, &mark) == 1 && mark == 42,
	     "MARK 42 to queue 1");
	STEP(fl_one(port, 2, RTE_IPV4(10u, 0, 0, 9), 4789, &mark) == 0 &&
	     mark == -2, "FLAG to queue 0");
	STEP(fl_one(port, 2, FL_SRC, 4789, &mark) == 0 && mark == -1,
	     "no rule: queue 0, no FDIR");
	STEP(fl_none(port, 2, 6000), "DROP: nothing received");
	fl_objs(port, &o);
	STEP(o.drops == base.drops + 1, "DROP counted by the device");
	/* Priority 1 under r1's 0: r1 still wins; without r1, r4. */
	f4 = fl_create(port, &r4, 0, &err);
	STEP(f4 != NULL, "r4 created");
	STEP(fl_one(port, 2, FL_SRC, 5000, &mark) == 1 && mark == 42,
	     "priority 0 before 1");
	STEP(rte_flow_destroy(port, f1, &err) == 0, "destroy r1");
	STEP(fl_one(port, 2, FL_SRC, 5000, &mark) == 0 && mark == 7,
	     "r4 after r1 is gone");
	/* Stop and start: the rules come back with the domain. */
	STEP(rte_eth_dev_stop(port) == 0, "stop");
	fl_objs(port, &o);
	STEP(o.rules == 0 && o.matchers == 0 && o.actions == 0 &&
	     o.rqts == 0 && o.tirs == 0, "stopped: no device object");
	STEP(rte_eth_dev_start(port) == 0, "start");
	STEP(fl_objs_are(port, &base, 3, 2, 3, 2), "restarted: 3 rules");
	STEP(fl_one(port, 2, RTE_IPV4(10u, 0, 0, 9), 4789, &mark) == 0 &&
	     mark == -2, "FLAG after restart");
	/* Flush: no rule, no tag, no route through the records. */
	STEP(rte_flow_flush(port, &err) == 0, "flush");
	STEP(fl_objs_are(port, &base, 0, 0, 0, 0), "objects after flush");
	STEP(fl_mode_has(port, 1, "flow marks") == 0, "mode after flush");
	STEP(fl_one(port, 2, FL_SRC, 5000, &mark) == 0 && mark == -1,
	     "after flush: queue 0, no FDIR");
	/* Made on a stopped port: it takes effect at start. */
	STEP(rte_eth_dev_stop(port) == 0, "stop 2");
	f1 = fl_create(port, &r1, 0, &err);
	STEP(f1 != NULL, "rule on a stopped port");
	STEP(rte_eth_dev_start(port) == 0, "start 2");
	STEP(fl_one(port, 2, FL_SRC, 5000, &mark) == 1 && mark == 42,
	     "rule made while stopped");
	STEP(rte_flow_destroy(port, f1, &err) == 0, "destroy");
	STEP(rte_flow_destroy(port, f1, &err) == -EINVAL &&
	     err.type == RTE_FLOW_ERROR_TYPE_HANDLE, "destroy twice: EINVAL");
	/* Configure is refused while a rule exists (ethdev then leaves the
	 * port unconfigured), taken once they are flushed.
	 */
	f1 = fl_create(port, &r1, 0, &err);
	STEP(f1 != NULL && rte_eth_dev_stop(port) == 0, "stop 3");
	{
		struct rte_eth_conf conf = { 0 };

		STEP(rte_eth_dev_configure(port, 2, 2, &conf) == -EBUSY,
		     "configure with a rule: EBUSY");
		STEP(rte_flow_flush(port, &err) == 0 &&
		     rte_eth_dev_configure(port, 2, 2, &conf) == 0,
		     "configure after flush");
	}
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	TEST_ASSERT(ok, "mark / flag / queue / drop");
	return TEST_SUCCESS;
}

/* RSS: queues, key, types narrowed by the pattern, MARK with it. */
static int
test_flow_rss(void)
{
	static const uint8_t key[40] = {
		0x2c, 0xc6, 0x81, 0xd1, 0x5b, 0xdb, 0xf4, 0xf7,
		0xfc, 0xa2, 0x83, 0x19, 0xdb, 0x1a, 0x3e, 0x94,
		0x6b, 0x9e, 0x38, 0xd9, 0x2c, 0x9c, 0x03, 0xd1,
		0xad, 0x99, 0x44, 0xa7, 0xd9, 0x56, 0x3d, 0x59,
		0x06, 0x3c, 0x25, 0xf3, 0xfc, 0x1f, 0xdc, 0x2a,
	};
	static const uint16_t qs[3] = { 1, 2, 3 };
	const struct rte_flow_action_rss rss = {
		.func = RTE_ETH_HASH_FUNCTION_TOEPLITZ,
		/* IPv6 types drop out: the pattern is IPv4/UDP. */
		.types = RTE_ETH_RSS_NONFRAG_IPV4_UDP |
			 RTE_ETH_RSS_NONFRAG_IPV6_TCP,
		.key_len = 40, .key = key, .queue_num = 3, .queue = qs,
	};
	const struct fl_rule r = { 0, 0, 0, 5, -2, &rss };
	const uint16_t rqt[4] = { 1, 2, 3, 1 };
	struct rte_mbuf *p[4];
	struct rte_flow_error err;
	struct rte_flow *f;
	uint16_t q[4], sport;
	uint32_t h, seen = 0;
	int port, ok = 1;

	port = fl_port("net_mlx5cq_fr", ",cqe_comp=none", 4);
	TEST_ASSERT(port >= 0, "probe/start failed");
	f = fl_create(port, &r, 0, &err);
	STEP(f != NULL, "RSS rule created");
	for (sport = 100; ok && sport < 164; sport++) {
		struct rte_ipv4_tuple t = {
			.src_addr = FL_SRC, .dst_addr = FL_DST,
			.sport = sport, .dport = 4789,
		};

		h = rte_softrss((uint32_t *)&t, RTE_THASH_V4_L4_LEN, key);
		STEP(fl_rx(port, 4, FL_SRC, sport, 4789, p, q, 1) == 1,
		     "RSS frame received");
		if (!ok)
			break;
		STEP(q[0] == rqt[h % 4], "RSS queue");
		STEP(p[0]->hash.rss == h, "RSS hash of the rule's key");
		STEP((p[0]->ol_flags & RTE_MBUF_F_RX_FDIR_ID) &&
		     p[0]->hash.fdir.hi == 5, "MARK with RSS");
		if (!ok)
			printf("  sport %u: queue %u (want %u) hash %08x "
			       "(want %08x) ol %" PRIx64 "\n", sport, q[0],
			       rqt[h % 4], p[0]->hash.rss, h,
			       p[0]->ol_flags);
		seen |= 1u << q[0];
		free_all(p, 1);
	}
	STEP(seen == 0xe, "every queue of the rule used, no other");
	STEP(rte_flow_destroy(port, f, &err) == 0, "destroy");
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	TEST_ASSERT(ok, "RSS action");
	return TEST_SUCCESS;
}

/* An IPv6/UDP frame to dst6 (last byte varies), or IPv4/TCP to port 80. */
static uint32_t
fl_frame6(uint8_t *f, uint8_t last, uint16_t dport)
{
	struct rte_ether_hdr *eth = (void *)f;
	struct rte_ipv6_hdr *ip = (void *)(eth + 1);
	struct rte_udp_hdr *udp = (void *)(ip + 1);
	static const uint8_t src[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };

	memset(f, 0, 128);
	eth->dst_addr = fl_mac;
	eth->src_addr = (struct rte_ether_addr){{ 2, 0x11, 0x22, 0x33, 0x44,
						  0x55 }};
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6);
	ip->vtc_flow = rte_cpu_to_be_32(6u << 28);
	ip->payload_len = rte_cpu_to_be_16(sizeof(*udp) + 18);
	ip->proto = IPPROTO_UDP;
	ip->hop_limits = 64;
	memcpy(ip->src_addr, src, 16);
	memcpy(ip->dst_addr, src, 16);
	ip->dst_addr[15] = last;
	udp->src_port = rte_cpu_to_be_16(9);
	udp->dst_port = rte_cpu_to_be_16(dport);
	udp->dgram_len = rte_cpu_to_be_16(sizeof(*udp) + 18);
	udp->dgram_cksum = rte_ipv6_udptcp_cksum(ip, udp);
	return sizeof(*eth) + sizeof(*ip) + sizeof(*udp) + 18;
}

static uint32_t
fl_frame_tcp(uint8_t *f, uint8_t flags)
{
	uint32_t len = frame_build(f, &fl_mac, FL_SRC, 9, 18, 0);
	struct rte_ipv4_hdr *ip = (void *)(f + RTE_ETHER_HDR_LEN);
	struct rte_tcp_hdr *tcp = (void *)(ip + 1);

	/* 20 bytes of TCP header where UDP's 8 and 12 of payload were. */
	ip->next_proto_id = IPPROTO_TCP;
	memset(tcp, 0, sizeof(*tcp));
	tcp->src_port = rte_cpu_to_be_16(9);
	tcp->dst_port = rte_cpu_to_be_16(80);
	tcp->data_off = 5 << 4;
	tcp->tcp_flags = flags;
	tcp->rx_win = RTE_BE16(1024);
	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	tcp->cksum = rte_ipv4_udptcp_cksum(ip, tcp);
	return len;
}

/* The mark of the one frame f brings (-1: none; -3: not one packet). */
static int64_t
fl_mark_of(uint16_t port, const uint8_t *f, uint32_t len)
{
	struct rte_mbuf *p[4];
	uint16_t n;
	int64_t mark = -1;

	mlx5_emu_wire_inject("fl", f, len);
	n = rx_all(port, 1, p, 1, NULL);
	if (n != 1)
		mark = -3;
	else if (p[0]->ol_flags & RTE_MBUF_F_RX_FDIR_ID)
		mark = p[0]->hash.fdir.hi;
	free_all(p, n);
	return mark;
}

/* ETH type, IPV6 addresses, TCP ports and flags. */
static int
test_flow_fields(void)
{
	static const uint8_t dst6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 7 };
	struct rte_flow_attr in = { .ingress = 1 };
	struct rte_flow_item_eth eth = { .hdr.ether_type =
					 RTE_BE16(RTE_ETHER_TYPE_IPV6) };
	struct rte_flow_item_eth ethm = { .hdr.ether_type = RTE_BE16(0xffff) };
	struct rte_flow_item_ipv6 ip6 = { 0 }, ip6m = { 0 };
	struct rte_flow_item_udp udp = { .hdr.dst_port = RTE_BE16(7000) };
	struct rte_flow_item_udp udpm = { .hdr.dst_port = RTE_BE16(0xffff) };
	struct rte_flow_item_tcp tcp = { .hdr.dst_port = RTE_BE16(80),
					 .hdr.tcp_flags = RTE_TCP_SYN_FLAG };
	struct rte_flow_item_tcp tcpm = { .hdr.dst_port = RTE_BE16(0xffff),
					  .hdr.tcp_flags = 0xff };
	struct rte_flow_item p6[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH, .spec = &eth, .mask = &ethm },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV6, .spec = &ip6, .mask = &ip6m },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP, .spec = &udp, .mask = &udpm },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item p4[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
		{ .type = RTE_FLOW_ITEM_TYPE_TCP, .spec = &tcp, .mask = &tcpm },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action_mark m11 = { .id = 11 }, m12 = { .id = 12 };
	struct rte_flow_action_queue q0 = { .index = 0 };
	struct rte_flow_action a11[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &m11 },
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q0 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_action a12[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &m12 },
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q0 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_error err;
	uint8_t f[256];
	int port, ok = 1;

	memcpy(ip6.hdr.dst_addr, dst6, 16);
	memset(ip6m.hdr.dst_addr, 0xff, 16);
	port = fl_port("net_mlx5cq_ff", ",cqe_comp=none", 1);
	TEST_ASSERT(port >= 0, "probe/start failed");
	STEP(rte_flow_create(port, &in, p6, a11, &err) != NULL, "IPv6 rule");
	STEP(rte_flow_create(port, &in, p4, a12, &err) != NULL, "TCP rule");
	STEP(fl_mark_of(port, f, fl_frame6(f, 7, 7000)) == 11,
	     "IPv6 to the rule's address and port: 11");
	STEP(fl_mark_of(port, f, fl_frame6(f, 8, 7000)) == -1,
	     "IPv6 to another address: no mark");
	STEP(fl_mark_of(port, f, fl_frame6(f, 7, 7001)) == -1,
	     "IPv6 to another port: no mark");
	STEP(fl_mark_of(port, f, fl_frame_tcp(f, RTE_TCP_SYN_FLAG)) == 12,
	     "TCP SYN to 80: 12");
	STEP(fl_mark_of(port, f, fl_frame_tcp(f, RTE_TCP_ACK_FLAG)) == -1,
	     "TCP ACK to 80: no mark");
	STEP(fl_mark_of(port, f, fl_frame(f, FL_SRC, 9, 80)) == -1,
	     "UDP to 80: no mark");
	STEP(rte_flow_flush(port, &err) == 0, "flush");
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	TEST_ASSERT(ok, "ETH type, IPv6 and TCP fields");
	return TEST_SUCCESS;
}

/* Marks through compressed sessions: FTAG_STRIDX and HASH formats. */
static int
fl_session(const char *name, const char *comp)
{
	const struct fl_rule r1 = { 0, 0, 5000, 1, 0, NULL };
	const struct fl_rule r2 = { 0, 0, 5001, 2, 0, NULL };
	uint8_t fr[32][128];
	const void *fp[32];
	uint32_t len[32];
	struct rte_mbuf *p[32];
	struct rte_flow_error err;
	struct rte_flow *f1, *f2;
	uint64_t id, minis = 0;
	uint16_t n, i, dport[32];
	int port, ok = 1;

	port = fl_port(name, comp, 1);
	if (port < 0)
		return -1;
	f1 = fl_create(port, &r1, 0, &err);
	f2 = fl_create(port, &r2, 0, &err);
	STEP(f1 != NULL && f2 != NULL, "rules created");
	/* Runs of one dport, then alternating: sessions of every shape. */
	for (i = 0; i < 32; i++) {
		dport[i] = i < 8 ? 5000 : i < 16 ? 5001 : i < 24 ? 4789 :
			   (i & 1) ? 5000 : 5001;
		len[i] = fl_frame(fr[i], FL_SRC, (uint16_t)(1000 + i),
				  dport[i]);
		fp[i] = fr[i];
	}
	STEP(mlx5_emu_wire_inject_burst("fl", fp, len, 32) >= 1, "inject");
	n = rx_all(port, 1, p, 32, NULL);
	STEP(n == 32, "32 received");
	for (i = 0; ok && i < n; i++) {
		const struct rte_udp_hdr *u = rte_pktmbuf_mtod_offset(p[i],
			const struct rte_udp_hdr *, RTE_ETHER_HDR_LEN +
			sizeof(struct rte_ipv4_hdr));
		uint16_t k = (uint16_t)(rte_be_to_cpu_16(u->src_port) - 1000);
		uint64_t ol = p[i]->ol_flags;

		STEP(k == i, "in order");
		if (dport[i] == 4789)
			STEP(!(ol & RTE_MBUF_F_RX_FDIR), "no rule: no FDIR");
		else
			STEP((ol & RTE_MBUF_F_RX_FDIR_ID) &&
			     p[i]->hash.fdir.hi == (dport[i] == 5000 ? 1u : 2u),
			     "mark of its rule");
		if (!ok)
			printf("  %s packet %u: dport %u ol %" PRIx64
			       " fdir.hi %u\n", comp, i, dport[i], ol,
			       p[i]->hash.fdir.hi);
	}
	free_all(p, n);
	if (rte_eth_xstats_get_id_by_name(port, "rx_q0_cq_minis", &id) != 0 ||
	    rte_eth_xstats_get_by_id(port, &id, &minis, 1) != 1)
		minis = 0;
	printf("  %s: %" PRIu64 " mini-CQEs\n", comp, minis);
	STEP(minis > 0, "compressed sessions formed");
	STEP(rte_flow_flush(port, &err) == 0, "flush");
	if (port_remove(port) != 0)
		ok = 0;
	return ok ? 0 : -1;
}

static int
test_flow_session(void)
{
	TEST_ASSERT_SUCCESS(fl_session("net_mlx5cq_fz1", ",cqe_comp=ftag"),
			    "marks in FTAG_STRIDX sessions");
	TEST_ASSERT_SUCCESS(fl_session("net_mlx5cq_fz2", ",cqe_comp=hash"),
			    "marks in HASH sessions");
	return TEST_SUCCESS;
}

/* One refused rule: its errno and error type, nothing left behind. */
static int
fl_refused(uint16_t port, const struct rte_flow_attr *attr,
	   const struct rte_flow_item *pat, const struct rte_flow_action *act,
	   int code, enum rte_flow_error_type type, const char *what)
{
	struct rte_flow_error err;
	struct heap_use h0, h1;
	struct fl_objs o0;
	struct rte_flow *f;

	heap_use(&h0);
	fl_objs(port, &o0);
	memset(&err, 0, sizeof(err));
	if (rte_flow_validate(port, attr, pat, act, &err) != -code ||
	    err.type != type) {
		printf("  %s: validate gave type %d (want %d): %s\n", what,
		       err.type, type, err.message ? err.message : "");
		return 0;
	}
	f = rte_flow_create(port, attr, pat, act, &err);
	heap_use(&h1);
	if (f != NULL || rte_errno != code || err.type != type ||
	    heap_use_same(&h0, &h1, what) != 0 ||
	    !fl_objs_are(port, &o0, 0, 0, 0, 0)) {
		printf("  %s: create gave %p errno %d type %d\n", what,
		       (void *)f, rte_errno, err.type);
		return 0;
	}
	return 1;
}

static int
test_flow_refused(void)
{
	struct rte_flow_attr in = { .ingress = 1 };
	struct rte_flow_attr eg = { .egress = 1 };
	struct rte_flow_attr g1 = { .ingress = 1, .group = 1 };
	struct rte_flow_attr p8 = { .ingress = 1, .priority = 8 };
	struct rte_flow_item_ipv4 ttl = { .hdr.time_to_live = 0xff };
	struct rte_flow_item eth_ip_udp[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4 },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item vlan[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_VLAN },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item ttl_pat[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &ttl, .mask = &ttl },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item udp_alone[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_UDP },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_item ranged[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_IPV4, .spec = &ttl, .last = &ttl },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action_queue q0 = { .index = 0 }, q5 = { .index = 5 };
	struct rte_flow_action_mark big = { .id = 0xfffff1 };
	struct rte_flow_action_mark m1 = { .id = 1 };
	static const uint16_t qs[1] = { 0 };
	struct rte_flow_action_rss bad_key = {
		.key_len = 10, .key = (const uint8_t *)"0123456789",
		.queue_num = 1, .queue = qs,
	};
	struct rte_flow_action to_q0[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q0 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_action to_q5[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q5 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_action two_fates[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q0 },
		{ .type = RTE_FLOW_ACTION_TYPE_DROP },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_action no_fate[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &m1 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_action mark_drop[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &m1 },
		{ .type = RTE_FLOW_ACTION_TYPE_DROP },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_action big_mark[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &big },
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q0 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_action mark_flag[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_MARK, .conf = &m1 },
		{ .type = RTE_FLOW_ACTION_TYPE_FLAG },
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q0 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_action rss_key[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_RSS, .conf = &bad_key },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_flow_action count[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_COUNT },
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &q0 },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	const struct fl_rule good = { 0, 0, 5000, 3, 1, NULL };
	struct rte_flow_error err;
	struct heap_use h0, h1;
	struct fl_objs o0;
	int port, ok = 1;

	port = fl_port("net_mlx5cq_fx", ",cqe_comp=none", 2);
	TEST_ASSERT(port >= 0, "probe/start failed");
	STEP(fl_refused(port, &eg, eth_ip_udp, to_q0, ENOTSUP,
			RTE_FLOW_ERROR_TYPE_ATTR, "egress"), "egress");
	STEP(fl_refused(port, &g1, eth_ip_udp, to_q0, ENOTSUP,
			RTE_FLOW_ERROR_TYPE_ATTR_GROUP, "group 1"), "group");
	STEP(fl_refused(port, &p8, eth_ip_udp, to_q0, ENOTSUP,
			RTE_FLOW_ERROR_TYPE_ATTR_PRIORITY, "priority 8"),
	     "priority");
	STEP(fl_refused(port, &in, vlan, to_q0, ENOTSUP,
			RTE_FLOW_ERROR_TYPE_ITEM, "VLAN item"), "vlan");
	STEP(fl_refused(port, &in, ttl_pat, to_q0, ENOTSUP,
			RTE_FLOW_ERROR_TYPE_ITEM_MASK, "TTL mask"), "ttl");
	STEP(fl_refused(port, &in, udp_alone, to_q0, EINVAL,
			RTE_FLOW_ERROR_TYPE_ITEM, "UDP without L3"), "l4");
	STEP(fl_refused(port, &in, ranged, to_q0, ENOTSUP,
			RTE_FLOW_ERROR_TYPE_ITEM_LAST, "last"), "last");
	STEP(fl_refused(port, &in, eth_ip_udp, to_q5, EINVAL,
			RTE_FLOW_ERROR_TYPE_ACTION_CONF, "queue 5"), "queue");
	STEP(fl_refused(port, &in, eth_ip_udp, two_fates, EINVAL,
			RTE_FLOW_ERROR_TYPE_ACTION, "two fates"), "fates");
	STEP(fl_refused(port, &in, eth_ip_udp, no_fate, EINVAL,
			RTE_FLOW_ERROR_TYPE_ACTION, "no fate"), "no fate");
	STEP(fl_refused(port, &in, eth_ip_udp, mark_drop, EINVAL,
			RTE_FLOW_ERROR_TYPE_ACTION, "mark + drop"), "drop");
	STEP(fl_refused(port, &in, eth_ip_udp, big_mark, EINVAL,
			RTE_FLOW_ERROR_TYPE_ACTION_CONF, "mark 0xfffff1"),
	     "mark max");
	STEP(fl_refused(port, &in, eth_ip_udp, mark_flag, EINVAL,
			RTE_FLOW_ERROR_TYPE_ACTION, "mark + flag"), "flag");
	STEP(fl_refused(port, &in, eth_ip_udp, rss_key, EINVAL,
			RTE_FLOW_ERROR_TYPE_ACTION_CONF, "RSS key 10"), "key");
	STEP(fl_refused(port, &in, eth_ip_udp, count, ENOTSUP,
			RTE_FLOW_ERROR_TYPE_ACTION, "COUNT"), "count");
	/* The largest id is taken. */
	big.id = 0xfffff0;
	STEP(rte_flow_validate(port, &in, eth_ip_udp, big_mark, &err) == 0,
	     "mark 0xfffff0 valid");
	/* The device refuses the rule's RQT: nothing left either. */
	heap_use(&h0);
	fl_objs(port, &o0);
	mlx5_emu_fail_inject(port_emu_ctx(port), MLX5_EMU_FAIL_OBJ_CREATE, 0,
			     1);
	STEP(fl_create(port, &good, 0, &err) == NULL, "device refusal");
	mlx5_emu_fail_inject(port_emu_ctx(port), MLX5_EMU_FAIL_OBJ_CREATE, 0,
			     0);
	heap_use(&h1);
	STEP(heap_use_same(&h0, &h1, "refused by the device") == 0 &&
	     fl_objs_are(port, &o0, 0, 0, 0, 0), "device refusal leaks");
	STEP(fl_mode_has(port, 0, "flow marks") == 0, "no marks left");
	TEST_ASSERT_SUCCESS(port_remove(port), "remove");
	TEST_ASSERT(ok, "refused rules");
	return TEST_SUCCESS;
}

static struct unit_test_suite net_flow_suite = {
	.suite_name = "net_flow",
	.setup = net_suite_setup,
	.teardown = net_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_flow_mark_queue),
		TEST_CASE(test_flow_rss),
		TEST_CASE(test_flow_fields),
		TEST_CASE(test_flow_session),
		TEST_CASE(test_flow_refused),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(net_flow, net_flow_suite);
