/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The RX burst of LRO queues (mlx5cq_lro.c sets them up).
 *
 * The device coalesces in-order TCP segments of a flow into one WQE and
 * one CQE but leaves the first segment's headers in the buffer; the CQE
 * carries what they should now say (DPDK mlx5_prm.h struct mlx5_cqe,
 * kernel mlx5_cqe64): lro_num_seg, the segments; lro_tcppsh_abort_dupack
 * with MLX5_CQE_LRO_PUSH_MASK when one had PSH; lro_min_ttl, the smallest
 * TTL or hop limit; lro_tcp_win and lro_ack_seq_num, the last window and
 * acknowledgment; csum, the one's complement sum of the TCP payload. So
 * the burst reads each CQE in place (rte_mlx5cq_peek(): LRO CQs do not
 * compress, every success is a plain CQE; error CQEs through
 * rte_mlx5cq_poll_burst()) and, when lro_num_seg > 1, rewrites the
 * headers as DPDK's mlx5_lro_update_hdr() and the kernel's
 * mlx5e_lro_update_hdr() do: IPv4 TTL, total length and header checksum,
 * or IPv6 hop limit and payload length; TCP ACK flag, ack and window
 * when the CQE's L4 type says the segments acknowledged (TCP_EMPTY_ACK,
 * TCP_WITH_ACL), PSH, and the checksum from the pseudo-header, the TCP
 * header and the CQE's payload sum. The mbuf gets RTE_MBUF_F_RX_LRO and
 * tso_segsz = packet length / segments (net/mlx5's mlx5_rx_burst(); the
 * kernel's gso_size rounds the same division up). The packet spans as
 * many of its WQE's buffers as its length needs (mlx5cq_rx_chain()).
 * Timestamps and flow tags are handed up as on the record route.
 */

#include <rte_io.h>
#include <rte_ip.h>
#include <rte_tcp.h>

#include <mlx5_prm.h>

#include "mlx5cq_rx_cqe.h"

/* What the burst takes from one completion. */
struct rx_lro_fields {
	uint64_t ts;
	uint32_t len;
	uint32_t hash;
	uint32_t tag;
	uint32_t ack; /* Network order, as in a TCP header. */
	uint16_t win; /* Network order. */
	uint16_t csum; /* The CQE's bytes as a 16-bit load. */
	uint16_t hte;
	uint16_t vlan;
	uint8_t nseg;
	uint8_t flags;
	uint8_t ttl;
};

static __rte_always_inline void
rx_lro_read(volatile const struct rte_mlx5cq_cqe *e, struct rx_lro_fields *c)
{
	c->len = rte_mlx5cq_cqe_byte_cnt(e);
	c->hash = rte_mlx5cq_cqe_rx_hash(e);
	c->tag = rte_mlx5cq_cqe_flow_tag(e);
	c->ts = rte_mlx5cq_cqe_timestamp(e);
	c->hte = rte_mlx5cq_cqe_hdr_type_etc(e);
	c->vlan = rte_mlx5cq_cqe_vlan_info(e);
	c->csum = rte_cpu_to_be_16(rte_mlx5cq_cqe_csum(e));
	c->ack = rte_cpu_to_be_32(rte_mlx5cq_cqe_lro_ack_seq(e));
	c->win = rte_cpu_to_be_16(rte_mlx5cq_cqe_lro_tcp_win(e));
	c->nseg = rte_mlx5cq_cqe_lro_num_seg(e);
	c->flags = rte_mlx5cq_cqe_lro_flags(e);
	c->ttl = rte_mlx5cq_cqe_lro_min_ttl(e);
}

/*
 * The headers of a coalesced packet m (len bytes) as the CQE c says they
 * are. 0, or -1 when they are not TCP over IP within the first buffer
 * (nothing written).
 */
static int
rx_lro_hdr(struct rte_mbuf *m, const struct rx_lro_fields *c)
{
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
	uint32_t off = sizeof(struct rte_ether_hdr), len = m->pkt_len;
	rte_be16_t type = ((const struct rte_ether_hdr *)p)->ether_type;
	struct rte_tcp_hdr *tcp;
	uint32_t sum, l4t;

	while (type == RTE_BE16(RTE_ETHER_TYPE_VLAN) ||
	       type == RTE_BE16(RTE_ETHER_TYPE_QINQ)) {
		if (off + sizeof(struct rte_vlan_hdr) > m->data_len)
			return -1;
		type = ((const struct rte_vlan_hdr *)(p + off))->eth_proto;
		off += sizeof(struct rte_vlan_hdr);
	}
	if (type == RTE_BE16(RTE_ETHER_TYPE_IPV4)) {
		struct rte_ipv4_hdr *ip = (void *)(p + off);
		uint32_t ihl;

		if (off + sizeof(*ip) > m->data_len)
			return -1;
		ihl = (ip->version_ihl & RTE_IPV4_HDR_IHL_MASK) *
		      RTE_IPV4_IHL_MULTIPLIER;
		ip->time_to_live = c->ttl;
		ip->total_length = rte_cpu_to_be_16((uint16_t)(len - off));
		ip->hdr_checksum = 0;
		ip->hdr_checksum = rte_ipv4_cksum(ip);
		/* After the length: the pseudo-header counts the L4 bytes. */
		sum = rte_ipv4_phdr_cksum(ip, 0);
		off += ihl;
	} else if (type == RTE_BE16(RTE_ETHER_TYPE_IPV6)) {
		struct rte_ipv6_hdr *ip6 = (void *)(p + off);

		if (off + sizeof(*ip6) > m->data_len)
			return -1;
		ip6->hop_limits = c->ttl;
		ip6->payload_len = rte_cpu_to_be_16((uint16_t)(len - off -
							       sizeof(*ip6)));
		sum = rte_ipv6_phdr_cksum(ip6, 0);
		off += sizeof(*ip6);
	} else {
		return -1;
	}
	tcp = (void *)(p + off);
	if (off + sizeof(*tcp) > m->data_len ||
	    off + (tcp->data_off >> 4) * 4u > m->data_len)
		return -1;
	l4t = (c->hte & MLX5_CQE_L4_TYPE_MASK) >> MLX5_CQE_L4_TYPE_SHIFT;
	if (l4t == MLX5_L4_HDR_TYPE_TCP_EMPTY_ACK ||
	    l4t == MLX5_L4_HDR_TYPE_TCP_WITH_ACL) {
		tcp->tcp_flags |= RTE_TCP_ACK_FLAG;
		tcp->recv_ack = c->ack;
		tcp->rx_win = c->win;
	}
	if (c->flags & MLX5_CQE_LRO_PUSH_MASK)
		tcp->tcp_flags |= RTE_TCP_PSH_FLAG;
	/* Pseudo-header + TCP header + the device's payload sum. */
	tcp->cksum = 0;
	sum += rte_raw_cksum(tcp, (tcp->data_off >> 4) * 4u);
	sum += c->csum;
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = ~sum & 0xffff;
	tcp->cksum = sum == 0 ? 0xffff : (uint16_t)sum;
	return 0;
}

/*
 * The packet of completion c in WQE wqe into *out: 0, or -1 (dropped,
 * counted; its buffers stay posted).
 */
static int
rx_lro_one(struct mlx5cq_rxq *rxq, uint32_t wqe, const struct rx_lro_fields *c,
	   struct rte_mbuf **out)
{
	uint32_t base = (wqe & rxq->mask) << rxq->sges_log;
	uint32_t nseg = c->len == 0 ? 1 :
			(c->len + rxq->buf_len - 1) / rxq->buf_len;
	uint16_t vlan = c->vlan;
	struct rte_mbuf *m;

	if (unlikely(nseg > (1u << rxq->sges_log))) {
		/* More than the WQE holds: the device says LEN_ERR. */
		rxq->st.errors++;
		return -1;
	}
	if (mlx5cq_rx_chain(rxq, base, nseg, c->len, &m) != 0)
		return -1;
	m->ol_flags = mlx5cq_rx_ol(rxq, c->hte, &vlan);
	m->packet_type = mlx5cq_rx_ptype_lut[MLX5CQ_RX_LUT_IDX(c->hte)];
	m->pkt_len = c->len;
	m->vlan_tci = vlan;
	m->hash.rss = c->hash;
	if (rxq->ts_flag != 0)
		mlx5cq_rx_ts(rxq, m, c->ts);
	if (rxq->mark)
		mlx5cq_rx_mark(m, c->tag);
	if (c->nseg > 1 && rx_lro_hdr(m, c) == 0) {
		m->ol_flags |= RTE_MBUF_F_RX_LRO;
		m->tso_segsz = (uint16_t)(c->len / c->nseg);
	}
	*out = m;
	return 0;
}

uint16_t
mlx5cq_rx_burst_lro(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5cq_rxq *rxq = q;
	struct rte_mlx5cq *cq = rxq->cq;
	uint32_t rq_ci = rxq->rq_ci;
	uint16_t done = 0, out = 0, k, i;
	struct rx_lro_fields c;
	uint64_t bytes = 0;

	if (!mlx5cq_rx_open(rxq))
		return 0;
	if (n > MLX5CQ_BURST_MAX)
		n = MLX5CQ_BURST_MAX;
	while (done < n) {
		k = rte_mlx5cq_peek(cq, n - done);
		if (k == 0) {
			if (!rte_mlx5cq_ready(cq)) {
				if (done == 0)
					rte_mlx5cq_advance(cq, 0);
				break;
			}
			/* The device may have written the CQE between the
			 * two owner loads: look again before taking it for
			 * an error (the slow poll keeps no LRO field).
			 */
			k = rte_mlx5cq_peek(cq, n - done);
		}
		if (k != 0) {
			for (i = 0; i < k; i++) {
				rx_lro_read(rte_mlx5cq_peek_cqe(cq, i), &c);
				if (rx_lro_one(rxq, rq_ci++, &c,
					       &pkts[out]) == 0) {
					bytes += c.len;
					out++;
				}
			}
			/* The reads above before the doorbell record. */
			rte_mlx5cq_advance(cq, k);
			done += k;
			continue;
		}
		/* Not a plain CQE: an error (LRO CQs do not compress). */
		if (rte_mlx5cq_poll_burst(cq, rxq->cpl, 1) == 0)
			break;
		done++;
		if (rxq->cpl[0].status != 0) {
			/* The buffers stay posted; the RQ is recovered. */
			rxq->st.errors++;
			rxq->in_error = 1;
			rq_ci++;
			continue;
		}
		memset(&c, 0, sizeof(c));
		c.len = rxq->cpl[0].byte_cnt;
		c.hash = rxq->cpl[0].rss_hash;
		c.tag = rxq->cpl[0].flow_tag;
		c.ts = rxq->cpl[0].timestamp;
		c.hte = rxq->cpl[0].hdr_type_etc;
		c.vlan = rxq->cpl[0].vlan_tci;
		if (rx_lro_one(rxq, rq_ci++, &c, &pkts[out]) == 0) {
			bytes += c.len;
			out++;
		}
	}
	if (rq_ci == rxq->rq_ci)
		return 0;
	mlx5cq_rx_close(rxq, rq_ci, out, bytes);
	return out;
}
