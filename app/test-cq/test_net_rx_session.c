/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_rx_session": net_mlx5cq's RX on every path the burst has:
 * compressed sessions read in place (HASH and CSUM mini-CQEs) with the
 * SIMD stores and per packet (rx_vec_en=0), with one memory region and
 * with 16 (16 chunks, mr_ext_memseg_en=0: lkeys to write), and 16 chunks
 * in one region (the default); the records of the poll (the enhanced
 * layout); 128-byte CQEs; plain CQEs with the SIMD stores and
 * per packet, one region and 16. Each queue must report the RX burst
 * mode of its case (rte_eth_rx_burst_mode_get(): Scalar, Vector SSE or
 * Vector Neon).
 *
 * Port A (under test, 2 RX queues, RSS over IPv4/UDP, VLAN strip,
 * checksum and RSS hash offloads) and port B (sender) share an emulated
 * wire. With the engine thread paused, B sends SESSION_N IPv4/UDP frames
 * (lengths varying, a run of VLAN-tagged ones in the middle so sessions
 * end there) SESSION_ROUND at a time, and the engine's passes deliver them:
 * A's CQs get them in compressed sessions; A's rings of SESSION_DESC wrap
 * several times, so the buffers it posted as replacements (and their
 * lkeys) receive frames too. A is drained after each round with bursts of 1, 7, 32, 3, 64 and 16
 * (arrays of 8 mini-CQEs split at every position). Every frame, found by
 * its UDP source port, must come once, with:
 * - its bytes (the VLAN tag removed) and length in pkt_len and data_len;
 * - packet type Ether/IPv4/UDP, IP and L4 checksum GOOD, RSS hash flag,
 *   VLAN flags and TCI as the frame had them; data_off, refcnt, nb_segs,
 *   port, next of a fresh mbuf;
 * - in HASH format and without compression: hash.rss = rte_softrss() of
 *   the tuple with the port's key, on the queue the RETA gives for it;
 * - in CSUM format (no hash in the mini-CQE) the hash is the session
 *   title's: the frames are one flow, so it is the tuple's too.
 * The CQ counters must show mini-CQEs for every compressed case, and the
 * heap use is the same before and after each case.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_thash.h>
#include <rte_udp.h>

#include <mlx5_emu.h>

#include "test.h"
#include "test_net_util.h"

#define SESSION_N 300 /* frames per case */
#define SESSION_ROUND 50 /* frames sent, then drained, at a time */
#define SESSION_DESC 64 /* RX descriptors per queue: the rings wrap */
#define SESSION_NQ 2
#define SESSION_SPORT 1000
#define SESSION_VLAN_FIRST 100 /* frames [FIRST, LAST) carry a VLAN tag */
#define SESSION_VLAN_LAST 160
#define SESSION_VLAN_TCI 0x2123
#define SESSION_DST_IP RTE_IPV4(198u, 18, 0, 2)
#define SESSION_DPORT 4789
#define SESSION_POOL_N 4096

/* What a received frame gave. */
struct session_rx {
	uint32_t hash;
	uint16_t queue;
	uint8_t seen;
};

struct session_case {
	const char *name;
	const char *args; /* devargs of port A after dev/wire */
	unsigned int chunks; /* mempool chunks (regions: mr_ext_memseg_en=0) */
	int one_flow; /* session_frame() */
	int compressed;
	int inject; /* 1: frames put on the wire by mlx5_emu_wire_inject_burst */
};

static const struct session_case session_cases[] = {
	{ "plain CQEs", "cqe_comp=none", 1, 0, 0 },
	{ "HASH, SIMD", "cqe_comp=hash", 1, 0, 1 },
	{ "HASH, per packet", "cqe_comp=hash,rx_vec_en=0", 1, 0, 1 },
	{ "HASH, 16 regions, per packet",
	  "cqe_comp=hash,rx_vec_en=0,mr_ext_memseg_en=0", 16, 0, 1 },
	{ "HASH, 16 regions", "cqe_comp=hash,mr_ext_memseg_en=0", 16, 0, 1 },
	{ "HASH, 16 chunks in one region", "cqe_comp=hash", 16, 0, 1 },
	{ "HASH, 128 B CQEs", "cqe_comp=hash,cqe_size=128", 1, 0, 1 },
	{ "HASH, enhanced", "cqe_comp=hash,cqe_comp_layout=enhanced", 1, 0,
	  1 },
	{ "CSUM, SIMD", "cqe_comp=csum", 1, 1, 1 },
	{ "CSUM, per packet", "cqe_comp=csum,rx_vec_en=0", 1, 1, 1 },
	{ "CSUM, 16 regions", "cqe_comp=csum,mr_ext_memseg_en=0", 16, 1, 1 },
	{ "plain CQEs, one flow", "cqe_comp=none", 1, 1, 0 },
	{ "plain CQEs, scalar", "cqe_comp=none,rx_vec_en=0", 1, 0, 0 },
	{ "plain CQEs, 16 regions", "cqe_comp=none,mr_ext_memseg_en=0", 16,
	  0, 0 },
	{ "plain CQEs, 16 regions, per packet",
	  "cqe_comp=none,rx_vec_en=0,mr_ext_memseg_en=0", 16, 0, 0 },
	{ "HASH, injected in one pass", "cqe_comp=hash", 1, 0, 1, 1 },
	{ "CSUM, injected in one pass", "cqe_comp=csum", 1, 1, 1, 1 },
};

static struct session_rx session_res[SESSION_N];

static const uint16_t session_bursts[] = { 1, 7, 32, 3, 64, 16 };

/*
 * Frame i of a case: Ethernet [VLAN] IPv4 UDP, correct checksums, its
 * number in the first 2 payload bytes. The emulated HCA joins only
 * completions whose CQE bytes outside the mini-CQE equal the title's, and
 * the CQE's checksum field (the ones'-complement sum from the IP header on)
 * of a valid frame depends only on the pseudo-header; so:
 * - one_flow 0 (HASH, plain): a flow per frame (source port), the UDP
 *   length varies and the source address's low 16 bits make up for it,
 *   so the checksum field is the same and the hash differs;
 * - one_flow 1 (CSUM): one flow, lengths vary (the checksum travels in
 *   the mini-CQE, the hash must be the title's: it is the same).
 */
static uint32_t
session_src_ip(unsigned int i, int one_flow)
{
	uint16_t udp_len = (uint16_t)(8 + 18 + (i * 37) % 200);

	return one_flow ? RTE_IPV4(198u, 18, 1, 1) :
			  RTE_IPV4(198u, 18, 0, 0) | (0x8000u - udp_len);
}

static uint16_t
session_sport(unsigned int i, int one_flow)
{
	return one_flow ? SESSION_SPORT : (uint16_t)(SESSION_SPORT + i);
}

static uint32_t
session_frame(uint8_t *f, const struct rte_ether_addr *dst, unsigned int i,
	  int one_flow)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)f;
	uint16_t pay = (uint16_t)(18 + (i * 37) % 200), j;
	uint32_t l2 = sizeof(*eth);
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *udp;
	uint8_t *p;

	memset(f, 0, 64);
	eth->dst_addr = *dst;
	eth->src_addr = (struct rte_ether_addr)
			{{ 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 }};
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	if (i >= SESSION_VLAN_FIRST && i < SESSION_VLAN_LAST) {
		struct rte_vlan_hdr *vh = (struct rte_vlan_hdr *)(eth + 1);

		eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN);
		vh->vlan_tci = rte_cpu_to_be_16(SESSION_VLAN_TCI);
		vh->eth_proto = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
		l2 += sizeof(*vh);
	}
	ip = (struct rte_ipv4_hdr *)(f + l2);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(sizeof(*ip) + sizeof(*udp) + pay);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(session_src_ip(i, one_flow));
	ip->dst_addr = rte_cpu_to_be_32(SESSION_DST_IP);
	udp = (struct rte_udp_hdr *)(ip + 1);
	udp->src_port = rte_cpu_to_be_16(session_sport(i, one_flow));
	udp->dst_port = rte_cpu_to_be_16(SESSION_DPORT);
	udp->dgram_len = rte_cpu_to_be_16(sizeof(*udp) + pay);
	p = (uint8_t *)(udp + 1);
	p[0] = (uint8_t)(i >> 8);
	p[1] = (uint8_t)i;
	for (j = 2; j < pay; j++)
		p[j] = (uint8_t)(j * 7 + i);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp->dgram_cksum = rte_ipv4_udptcp_cksum(ip, udp);
	return l2 + sizeof(*ip) + sizeof(*udp) + pay;
}

static int
session_start(uint16_t port, uint16_t nq, struct rte_mempool *mp)
{
	struct rte_eth_conf conf;
	uint16_t q;

	memset(&conf, 0, sizeof(conf));
	conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
	conf.rx_adv_conf.rss_conf.rss_hf = RTE_ETH_RSS_NONFRAG_IPV4_UDP;
	conf.rxmode.offloads = RTE_ETH_RX_OFFLOAD_VLAN_STRIP |
			       RTE_ETH_RX_OFFLOAD_CHECKSUM |
			       RTE_ETH_RX_OFFLOAD_RSS_HASH;
	if (rte_eth_dev_configure(port, nq, 1, &conf) != 0)
		return -1;
	for (q = 0; q < nq; q++)
		if (rte_eth_rx_queue_setup(port, q, SESSION_DESC, SOCKET_ID_ANY, NULL,
					   mp) != 0)
			return -1;
	if (rte_eth_tx_queue_setup(port, 0, 512, SOCKET_ID_ANY, NULL) != 0)
		return -1;
	return rte_eth_dev_start(port);
}

/* B sends frames [first, first + n); the paused engine delivers them. */
static int
session_send(uint16_t b, struct rte_mempool *mp,
	 const struct rte_ether_addr *dst, int one_flow, unsigned int first,
	 unsigned int n)
{
	struct rte_mbuf *m;
	unsigned int i, tries;

	for (i = first; i < first + n; i++) {
		m = rte_pktmbuf_alloc(mp);
		if (m == NULL)
			return -1;
		m->data_len = (uint16_t)session_frame(rte_pktmbuf_mtod(m,
							uint8_t *), dst, i, one_flow);
		m->pkt_len = m->data_len;
		for (tries = 0; rte_eth_tx_burst(b, 0, &m, 1) != 1; tries++) {
			if (tries > 1000) {
				rte_pktmbuf_free(m);
				return -1;
			}
			mlx5_emu_net_progress();
		}
	}
	for (tries = 0; tries < 1000 && mlx5_emu_net_progress() != 0; tries++)
		;
	return 0;
}

/*
 * Frames [first, first + n) put on the wire in one call of
 * mlx5_emu_wire_inject_burst() (after calls with bad arguments, which
 * must deliver nothing): both ports of the wire reach them.
 */
static int
session_inject(const char *wire, const struct rte_ether_addr *dst,
	   int one_flow, unsigned int first, unsigned int n)
{
	static uint8_t buf[SESSION_ROUND][512];
	const void *fr[SESSION_ROUND];
	uint32_t len[SESSION_ROUND], i;
	int ret;

	for (i = 0; i < n; i++) {
		len[i] = session_frame(buf[i], dst, first + i, one_flow);
		fr[i] = buf[i];
	}
	fr[5] = NULL;
	ret = mlx5_emu_wire_inject_burst(wire, fr, len, n);
	fr[5] = buf[5];
	len[7] = 13;
	if (ret != -EINVAL ||
	    mlx5_emu_wire_inject_burst(wire, fr, len, n) != -EINVAL ||
	    mlx5_emu_wire_inject_burst(wire, fr, len, 0) != -EINVAL ||
	    mlx5_emu_wire_inject_burst("session_no_such_wire", fr, len,
				       5) != -ENOENT) {
		printf("    bad arguments accepted\n");
		return -1;
	}
	len[7] = session_frame(buf[7], dst, first + 7, one_flow);
	ret = mlx5_emu_wire_inject_burst(wire, fr, len, n);
	if (ret != 2) {
		printf("    inject_burst: %d ports (2)\n", ret);
		return -1;
	}
	return 0;
}

/* Every field of one received frame, against the frame sent. */
static int
session_check_mbuf(const struct rte_mbuf *m, uint16_t port, unsigned int i,
	       const struct rte_ether_addr *dst, int one_flow)
{
	uint8_t f[512];
	uint32_t len = session_frame(f, dst, i, one_flow);
	int vlan = i >= SESSION_VLAN_FIRST && i < SESSION_VLAN_LAST;
	uint64_t ol = RTE_MBUF_F_RX_IP_CKSUM_GOOD |
		      RTE_MBUF_F_RX_L4_CKSUM_GOOD | RTE_MBUF_F_RX_RSS_HASH;

	if (vlan) {
		/* The tag (bytes 12..15) is stripped. */
		memmove(f + 12, f + 16, len - 16);
		len -= 4;
		ol |= RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	}
	if (m->pkt_len != len || m->data_len != len ||
	    memcmp(rte_pktmbuf_mtod(m, const void *), f, len) != 0) {
		printf("    frame %u: length %u/%u (%u) or bytes differ\n", i,
		       m->pkt_len, m->data_len, len);
		return -1;
	}
	if (m->packet_type != (RTE_PTYPE_L2_ETHER |
			       RTE_PTYPE_L3_IPV4_EXT_UNKNOWN |
			       RTE_PTYPE_L4_UDP) ||
	    m->ol_flags != ol || m->vlan_tci != (vlan ? SESSION_VLAN_TCI : 0)) {
		printf("    frame %u: ptype 0x%x flags 0x%" PRIx64 " (0x%"
		       PRIx64 ") vlan 0x%x\n", i, m->packet_type,
		       (uint64_t)m->ol_flags, ol, m->vlan_tci);
		return -1;
	}
	if (m->data_off != RTE_PKTMBUF_HEADROOM ||
	    rte_mbuf_refcnt_read(m) != 1 || m->nb_segs != 1 ||
	    m->port != port || m->next != NULL) {
		printf("    frame %u: data_off %u refcnt %u nb_segs %u port %u"
		       " next %p\n", i, m->data_off, rte_mbuf_refcnt_read(m),
		       m->nb_segs, m->port, (void *)m->next);
		return -1;
	}
	return 0;
}

/*
 * Drain port a until *got frames reach target: every frame once, its
 * fields and queue recorded.
 */
static int
session_drain(uint16_t a, const struct rte_ether_addr *dst, struct session_rx *res,
	  int one_flow, unsigned int *got_all, unsigned int target)
{
	struct rte_mbuf *pkts[64];
	unsigned int got = *got_all, idle = 0, err = 0, round;
	static unsigned int b;
	uint16_t q, k, j;

	while (got < target && idle < 1000) {
		round = 0;
		for (q = 0; q < SESSION_NQ; q++) {
			uint16_t want = session_bursts[b++ % RTE_DIM(session_bursts)];

			k = rte_eth_rx_burst(a, q, pkts, want);
			for (j = 0; j < k; j++) {
				const struct rte_mbuf *m = pkts[j];
				const uint8_t *pay = rte_pktmbuf_mtod_offset(m,
					const uint8_t *, 14 + 20 + 8);
				unsigned int i = (unsigned int)pay[0] << 8 |
						 pay[1];

				if (i >= SESSION_N || res[i].seen) {
					printf("    unexpected or repeated "
					       "frame %u\n", i);
					err++;
					continue;
				}
				res[i].seen = 1;
				res[i].hash = m->hash.rss;
				res[i].queue = q;
				if (session_check_mbuf(m, a, i, dst,
						   one_flow) != 0)
					err++;
			}
			free_all(pkts, k);
			got += k;
			round += k;
		}
		idle = round ? 0 : idle + 1;
	}
	*got_all = got;
	if (got != target) {
		printf("    received %u of %u\n", got, target);
		err++;
	}
	return err ? -1 : 0;
}

/* Sum of an xstat over A's RX queues ("rx_q<q>_<what>"). */
static uint64_t
session_xstat(uint16_t port, const char *what)
{
	char name[RTE_ETH_XSTATS_NAME_SIZE];
	uint64_t id, v, sum = 0;
	uint16_t q;

	for (q = 0; q < SESSION_NQ; q++) {
		snprintf(name, sizeof(name), "rx_q%u_%s", q, what);
		if (rte_eth_xstats_get_id_by_name(port, name, &id) != 0 ||
		    rte_eth_xstats_get_by_id(port, &id, &v, 1) != 1)
			return UINT64_MAX;
		sum += v;
	}
	return sum;
}

/* Hash and queue of every frame against the tuple's Toeplitz hash. */
static int
session_check_hash(uint16_t a, const struct session_rx *res, int one_flow)
{
	uint8_t key[40];
	struct rte_eth_rss_conf rc = { .rss_key = key, .rss_key_len = 40 };
	struct rte_eth_rss_reta_entry64 reta[1];
	unsigned int i, err = 0;

	memset(reta, 0, sizeof(reta));
	reta[0].mask = UINT64_MAX;
	if (rte_eth_dev_rss_hash_conf_get(a, &rc) != 0 ||
	    rte_eth_dev_rss_reta_query(a, reta, 64) != 0)
		return -1;
	for (i = 0; i < SESSION_N; i++) {
		struct rte_ipv4_tuple t = {
			.src_addr = session_src_ip(i, one_flow),
			.dst_addr = SESSION_DST_IP,
			.sport = session_sport(i, one_flow),
			.dport = SESSION_DPORT,
		};
		uint32_t h = rte_softrss((uint32_t *)&t, RTE_THASH_V4_L4_LEN,
					 key);

		if (res[i].hash != h || res[i].queue != reta[0].reta[h % 64]) {
			printf("    frame %u: hash 0x%x (0x%x) queue %u (%u)\n",
			       i, res[i].hash, h, res[i].queue,
			       reta[0].reta[h % 64]);
			err++;
		}
	}
	return err ? -1 : 0;
}

/*
 * The RX burst mode port a's queues report for case zc: rx_vec_en=0 per
 * packet ("Scalar"), else the SIMD stores (TEST_NET_RX_VEC_MODE).
 */
static int
session_check_mode(uint16_t port, const struct session_case *zc)
{
	struct rte_eth_burst_mode mode;
	const char *want = "Scalar";
	uint16_t q;

	if (strstr(zc->args, "rx_vec_en=0") == NULL)
		want = TEST_NET_RX_VEC_MODE;
	for (q = 0; q < SESSION_NQ; q++) {
		if (rte_eth_rx_burst_mode_get(port, q, &mode) != 0) {
			printf("    queue %u: no RX burst mode\n", q);
			return -1;
		}
		if (strcmp(mode.info, want) != 0) {
			printf("    queue %u: RX burst mode \"%s\", expected"
			       " \"%s\"\n", q, mode.info, want);
			return -1;
		}
	}
	printf("    RX burst mode: %s\n", want);
	return 0;
}

static int
session_case_run(unsigned int k)
{
	const struct session_case *zc = &session_cases[k];
	struct session_rx *res = session_res;
	struct rte_mempool *rxp = NULL, *txp = NULL;
	struct heap_use before, after;
	struct rte_ether_addr mac;
	char name[32], args[160];
	int a = -1, b = -1, ret = -1;
	unsigned int i, got;
	uint64_t minis;

	printf("  case %s\n", zc->name);
	memset(res, 0, sizeof(session_res));
	heap_use(&before);
	snprintf(name, sizeof(name), "session_rx%u", k);
	rxp = pool_chunked(name, SESSION_POOL_N, 64, zc->chunks);
	snprintf(name, sizeof(name), "session_tx%u", k);
	txp = rte_pktmbuf_pool_create(name, 1024, 0, 0,
				      RTE_MBUF_DEFAULT_BUF_SIZE,
				      SOCKET_ID_ANY);
	if (rxp == NULL || txp == NULL)
		goto out;
	snprintf(name, sizeof(name), "net_mlx5cq_sessiona%u", k);
	snprintf(args, sizeof(args), "dev=emu,wire=session%u%s%s", k,
		 zc->args[0] ? "," : "", zc->args);
	a = port_probe(name, args);
	snprintf(name, sizeof(name), "net_mlx5cq_sessionb%u", k);
	snprintf(args, sizeof(args), "dev=emu,wire=session%u", k);
	b = port_probe(name, args);
	if (a < 0 || b < 0 || session_start(a, SESSION_NQ, rxp) != 0 ||
	    session_start(b, 1, txp) != 0) {
		printf("    ports not started\n");
		goto out;
	}
	if (session_check_mode((uint16_t)a, zc) != 0)
		goto out;
	rte_eth_macaddr_get(a, &mac);
	mlx5_emu_net_engine_pause(1);
	snprintf(name, sizeof(name), "session%u", k);
	/* Rounds: each RQ of SESSION_DESC wraps, replacements are received
	 * into.
	 */
	for (i = 0, got = 0, ret = 0; i < SESSION_N && ret == 0; i += SESSION_ROUND) {
		if (zc->inject ?
		    session_inject(name, &mac, zc->one_flow, i, SESSION_ROUND) != 0 :
		    session_send(b, txp, &mac, zc->one_flow, i, SESSION_ROUND) != 0) {
			printf("    send failed\n");
			ret = -1;
			break;
		}
		ret = session_drain(a, &mac, res, zc->one_flow, &got,
				i + SESSION_ROUND);
	}
	mlx5_emu_net_engine_pause(0);
	minis = session_xstat(a, "cq_minis");
	printf("    %" PRIu64 " mini-CQEs in %" PRIu64 " sessions\n", minis,
	       session_xstat(a, "cq_sessions"));
	if (zc->compressed ? minis == 0 || minis == UINT64_MAX : minis != 0) {
		printf("    mini-CQEs %" PRIu64 " (compressed: %d)\n", minis,
		       zc->compressed);
		ret = -1;
	}
	if (ret == 0)
		ret = session_check_hash(a, res, zc->one_flow);
out:
	if (a >= 0)
		port_remove((uint16_t)a);
	if (b >= 0)
		port_remove((uint16_t)b);
	rte_mempool_free(rxp);
	rte_mempool_free(txp);
	heap_use(&after);
	if (after.heap_bytes != before.heap_bytes ||
	    after.alloc_count != before.alloc_count) {
		printf("    heap: %" PRIu64 " bytes / %" PRIu64 " allocations "
		       "before, %" PRIu64 " / %" PRIu64 " after\n",
		       before.heap_bytes, before.alloc_count,
		       after.heap_bytes, after.alloc_count);
		ret = -1;
	}
	return ret;
}

static int
test_rx_session(void)
{
	unsigned int k, failed = 0;
	uint64_t owner;

	TEST_ASSERT_SUCCESS(net_load(), "PMD not loaded");
	/* ethdev's shared data is made at the first owner or port and,
	 * from DPDK 23.11 on, freed with the last: held across the cases
	 * so their heap checks see only what the cases leave.
	 */
	TEST_ASSERT_SUCCESS(rte_eth_dev_owner_new(&owner), "ethdev owner");
	for (k = 0; k < RTE_DIM(session_cases); k++)
		if (session_case_run(k) != 0) {
			printf("  case %s: FAILED\n", session_cases[k].name);
			failed++;
		}
	rte_eth_dev_owner_delete(owner);
	TEST_ASSERT_EQUAL(failed, 0u, "%u of %u cases failed", failed,
			  (unsigned int)RTE_DIM(session_cases));
	return TEST_SUCCESS;
}

static struct unit_test_suite net_rx_session_suite = {
	.suite_name = "net_rx_session",
	.unit_test_cases = {
		TEST_CASE(test_rx_session),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(net_rx_session, net_rx_session_suite);
