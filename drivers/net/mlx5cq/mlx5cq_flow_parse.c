/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * An rte_flow rule of the application into what the device takes: the
 * fte_match_param mask and value of its pattern (mlx5_prm.h, outer
 * headers), the flow tag of its MARK or FLAG, and its fate.
 *
 * What is taken (each item's spec, mask, or rte_flow's default mask when
 * the mask is NULL; no spec: the protocol alone):
 *   attr      ingress, group 0, priority 0 .. MLX5CQ_FLOW_PRIO_USER_N - 1
 *   ETH       dst, src, type (dmac, smac, ethertype: the type after any
 *             VLAN tags, as the device's ethertype field and
 *             net/mlx5's flow_dv_translate_item_eth() read it)
 *   IPV4      src, dst, next_proto_id, type_of_service (DSCP and ECN);
 *             the item itself matches ip_version 4
 *   IPV6      src, dst, proto; the item matches ip_version 6
 *   UDP, TCP  ports (TCP: and tcp_flags); the item matches ip_protocol
 *             17 or 6, and needs an IPV4 or IPV6 item before it
 *             (net/mlx5: "L3 is mandatory to filter on L4")
 *   MARK      id 0 .. 0xfffff0, tagged id + 1; FLAG tags 0xffffff
 *             (mlx5cq_flow.h)
 *   QUEUE     an RX queue of the port
 *   RSS       func default or Toeplitz, level 0 or 1, types of the
 *             port's set (0: RTE_ETH_RSS_IP, as net/mlx5), a 40-byte key
 *             or none (the port's), 1 .. MLX5CQ_MAX_QUEUES queues
 *   DROP      alone: net/mlx5 refuses any other action beside it
 *             (mlx5_flow_validate_action_drop())
 * Exactly one fate (QUEUE, RSS, DROP), at most one MARK or FLAG. An RSS
 * rule hashes one L3 and one L4 kind (the TIR's selector): the pattern's
 * IPV4 / IPV6 and UDP / TCP items choose among the types, as net/mlx5's
 * pattern expansion gives each a TIR of its own.
 * Anything else: ENOTSUP (a field, item or action the PMD does not
 * offer) or EINVAL (a value out of range, a wrong order), with the
 * reason in the rte_flow_error and a log line.
 */

#include <errno.h>
#include <netinet/in.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_flow.h>

#include "mlx5cq_flow.h"

static int
flow_err(struct rte_eth_dev *dev, struct rte_flow_error *error, int code,
	 enum rte_flow_error_type type, const void *cause, const char *msg)
{
	PMD_LOG(ERR, "port %u: flow rule refused: %s",
		dev->data->port_id, msg);
	return rte_flow_error_set(error, code, type, cause, msg);
}

/* Whether mask enables only bits of supported (both len bytes). */
static int
flow_mask_ok(const void *mask, const void *supported, size_t len)
{
	const uint8_t *m = mask, *s = supported;
	size_t i;

	for (i = 0; i < len; i++)
		if (m[i] & ~s[i])
			return 0;
	return 1;
}

/* A field's mask and value (the value is masked once the rule is read). */
#define FLOW_MASK(f, fld, m) MLX5CQ_MATCH_SET(&(f)->mask, fld, m)
#define FLOW_VAL(f, fld, v) MLX5CQ_MATCH_SET(&(f)->value, fld, v)

static uint32_t
flow_mac_hi(const struct rte_ether_addr *a)
{
	const uint8_t *b = a->addr_bytes;

	return (uint32_t)b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3];
}

static uint32_t
flow_mac_lo(const struct rte_ether_addr *a)
{
	return (uint32_t)a->addr_bytes[4] << 8 | a->addr_bytes[5];
}

static void
flow_eth(struct rte_flow *f, const struct rte_flow_item_eth *s,
	 const struct rte_flow_item_eth *m)
{
	FLOW_MASK(f, dmac_47_16, flow_mac_hi(&m->dst));
	FLOW_VAL(f, dmac_47_16, flow_mac_hi(&s->dst));
	FLOW_MASK(f, dmac_15_0, flow_mac_lo(&m->dst));
	FLOW_VAL(f, dmac_15_0, flow_mac_lo(&s->dst));
	FLOW_MASK(f, smac_47_16, flow_mac_hi(&m->src));
	FLOW_VAL(f, smac_47_16, flow_mac_hi(&s->src));
	FLOW_MASK(f, smac_15_0, flow_mac_lo(&m->src));
	FLOW_VAL(f, smac_15_0, flow_mac_lo(&s->src));
	FLOW_MASK(f, ethertype, rte_be_to_cpu_16(m->type));
	FLOW_VAL(f, ethertype, rte_be_to_cpu_16(s->type));
}

static void
flow_ipv4(struct rte_flow *f, const struct rte_flow_item_ipv4 *s,
	  const struct rte_flow_item_ipv4 *m)
{
	FLOW_MASK(f, src_ipv4_src_ipv6.ipv4_layout.ipv4,
		  rte_be_to_cpu_32(m->hdr.src_addr));
	FLOW_VAL(f, src_ipv4_src_ipv6.ipv4_layout.ipv4,
		 rte_be_to_cpu_32(s->hdr.src_addr));
	FLOW_MASK(f, dst_ipv4_dst_ipv6.ipv4_layout.ipv4,
		  rte_be_to_cpu_32(m->hdr.dst_addr));
	FLOW_VAL(f, dst_ipv4_dst_ipv6.ipv4_layout.ipv4,
		 rte_be_to_cpu_32(s->hdr.dst_addr));
	FLOW_MASK(f, ip_protocol, m->hdr.next_proto_id);
	FLOW_VAL(f, ip_protocol, s->hdr.next_proto_id);
	FLOW_MASK(f, ip_dscp, m->hdr.type_of_service >> 2);
	FLOW_VAL(f, ip_dscp, s->hdr.type_of_service >> 2);
	FLOW_MASK(f, ip_ecn, m->hdr.type_of_service & 3);
	FLOW_VAL(f, ip_ecn, s->hdr.type_of_service & 3);
}

static void
flow_ipv6_addr(struct mlx5cq_flow_match *mm, size_t off, const uint8_t *a)
{
	memcpy((uint8_t *)mm->buf + off, a, 16);
}

static void
flow_ipv6(struct rte_flow *f, const struct rte_flow_item_ipv6 *s,
	  const struct rte_flow_item_ipv6 *m)
{
	const size_t src = MLX5_BYTE_OFF(fte_match_param,
		outer_headers.src_ipv4_src_ipv6.ipv6_layout.ipv6);
	const size_t dst = MLX5_BYTE_OFF(fte_match_param,
		outer_headers.dst_ipv4_dst_ipv6.ipv6_layout.ipv6);

	flow_ipv6_addr(&f->mask, src, m->hdr.src_addr);
	flow_ipv6_addr(&f->value, src, s->hdr.src_addr);
	flow_ipv6_addr(&f->mask, dst, m->hdr.dst_addr);
	flow_ipv6_addr(&f->value, dst, s->hdr.dst_addr);
	FLOW_MASK(f, ip_protocol, m->hdr.proto);
	FLOW_VAL(f, ip_protocol, s->hdr.proto);
}

/* The pattern's L3 / L4 kinds: 4 or 6, 6 (TCP) or 17 (UDP); 0: none. */
struct flow_kinds {
	uint8_t l3;
	uint8_t l4;
};

static int
flow_pattern(struct rte_eth_dev *dev, const struct rte_flow_item items[],
	     struct rte_flow *f, struct flow_kinds *k,
	     struct rte_flow_error *error)
{
	static const struct rte_flow_item_eth eth_sup = {
		.hdr.dst_addr.addr_bytes = "\xff\xff\xff\xff\xff\xff",
		.hdr.src_addr.addr_bytes = "\xff\xff\xff\xff\xff\xff",
		.hdr.ether_type = RTE_BE16(0xffff),
	};
	static const struct rte_flow_item_ipv4 ipv4_sup = {
		.hdr.src_addr = RTE_BE32(0xffffffff),
		.hdr.dst_addr = RTE_BE32(0xffffffff),
		.hdr.next_proto_id = 0xff,
		.hdr.type_of_service = 0xff,
	};
	static const struct rte_flow_item_ipv6 ipv6_sup = {
		.hdr.src_addr = "\xff\xff\xff\xff\xff\xff\xff\xff"
				"\xff\xff\xff\xff\xff\xff\xff\xff",
		.hdr.dst_addr = "\xff\xff\xff\xff\xff\xff\xff\xff"
				"\xff\xff\xff\xff\xff\xff\xff\xff",
		.hdr.proto = 0xff,
	};
	static const struct rte_flow_item_udp udp_sup = {
		.hdr.src_port = RTE_BE16(0xffff),
		.hdr.dst_port = RTE_BE16(0xffff),
	};
	static const struct rte_flow_item_tcp tcp_sup = {
		.hdr.src_port = RTE_BE16(0xffff),
		.hdr.dst_port = RTE_BE16(0xffff),
		.hdr.tcp_flags = 0xff,
	};
	const struct rte_flow_item *it;
	const void *sup, *m;
	size_t sz;
	int seen = 0;

	for (it = items; it->type != RTE_FLOW_ITEM_TYPE_END; it++) {
		if (it->type == RTE_FLOW_ITEM_TYPE_VOID)
			continue;
		switch (it->type) {
		case RTE_FLOW_ITEM_TYPE_ETH:
			if (seen)
				return flow_err(dev, error, EINVAL,
					RTE_FLOW_ERROR_TYPE_ITEM, it,
					"ETH must be the first item");
			sup = &eth_sup;
			m = &rte_flow_item_eth_mask;
			sz = sizeof(eth_sup);
			break;
		case RTE_FLOW_ITEM_TYPE_IPV4:
		case RTE_FLOW_ITEM_TYPE_IPV6:
			if (k->l3 != 0)
				return flow_err(dev, error, EINVAL,
					RTE_FLOW_ERROR_TYPE_ITEM, it,
					"more than one L3 item");
			if (it->type == RTE_FLOW_ITEM_TYPE_IPV4) {
				sup = &ipv4_sup;
				m = &rte_flow_item_ipv4_mask;
				sz = sizeof(ipv4_sup);
			} else {
				sup = &ipv6_sup;
				m = &rte_flow_item_ipv6_mask;
				sz = sizeof(ipv6_sup);
			}
			break;
		case RTE_FLOW_ITEM_TYPE_UDP:
		case RTE_FLOW_ITEM_TYPE_TCP:
			if (k->l3 == 0)
				return flow_err(dev, error, EINVAL,
					RTE_FLOW_ERROR_TYPE_ITEM, it,
					"an L4 item needs an IPV4 or IPV6 "
					"item before it");
			if (k->l4 != 0)
				return flow_err(dev, error, EINVAL,
					RTE_FLOW_ERROR_TYPE_ITEM, it,
					"more than one L4 item");
			if (it->type == RTE_FLOW_ITEM_TYPE_UDP) {
				sup = &udp_sup;
				m = &rte_flow_item_udp_mask;
				sz = sizeof(udp_sup);
			} else {
				sup = &tcp_sup;
				m = &rte_flow_item_tcp_mask;
				sz = sizeof(tcp_sup);
			}
			break;
		default:
			return flow_err(dev, error, ENOTSUP,
				RTE_FLOW_ERROR_TYPE_ITEM, it,
				"item not supported (ETH, IPV4, IPV6, UDP, TCP)");
		}
		if (it->last != NULL)
			return flow_err(dev, error, ENOTSUP,
				RTE_FLOW_ERROR_TYPE_ITEM_LAST, it,
				"ranges (last) not supported");
		if (it->mask != NULL)
			m = it->mask;
		if (it->spec != NULL && !flow_mask_ok(m, sup, sz))
			return flow_err(dev, error, ENOTSUP,
				RTE_FLOW_ERROR_TYPE_ITEM_MASK, it,
				"mask selects a field not supported");
		seen = 1;
		switch (it->type) {
		case RTE_FLOW_ITEM_TYPE_ETH:
			if (it->spec != NULL)
				flow_eth(f, it->spec, m);
			break;
		case RTE_FLOW_ITEM_TYPE_IPV4:
			k->l3 = 4;
			FLOW_MASK(f, ip_version, 0xf);
			FLOW_VAL(f, ip_version, 4);
			if (it->spec != NULL)
				flow_ipv4(f, it->spec, m);
			break;
		case RTE_FLOW_ITEM_TYPE_IPV6:
			k->l3 = 6;
			FLOW_MASK(f, ip_version, 0xf);
			FLOW_VAL(f, ip_version, 6);
			if (it->spec != NULL)
				flow_ipv6(f, it->spec, m);
			break;
		case RTE_FLOW_ITEM_TYPE_UDP: {
			const struct rte_flow_item_udp *s = it->spec,
				*um = m;

			k->l4 = IPPROTO_UDP;
			FLOW_MASK(f, ip_protocol, 0xff);
			FLOW_VAL(f, ip_protocol, IPPROTO_UDP);
			if (s == NULL)
				break;
			FLOW_MASK(f, udp_sport,
				  rte_be_to_cpu_16(um->hdr.src_port));
			FLOW_VAL(f, udp_sport,
				 rte_be_to_cpu_16(s->hdr.src_port));
			FLOW_MASK(f, udp_dport,
				  rte_be_to_cpu_16(um->hdr.dst_port));
			FLOW_VAL(f, udp_dport,
				 rte_be_to_cpu_16(s->hdr.dst_port));
			break;
		}
		default: {
			const struct rte_flow_item_tcp *s = it->spec,
				*tm = m;

			k->l4 = IPPROTO_TCP;
			FLOW_MASK(f, ip_protocol, 0xff);
			FLOW_VAL(f, ip_protocol, IPPROTO_TCP);
			if (s == NULL)
				break;
			FLOW_MASK(f, tcp_sport,
				  rte_be_to_cpu_16(tm->hdr.src_port));
			FLOW_VAL(f, tcp_sport,
				 rte_be_to_cpu_16(s->hdr.src_port));
			FLOW_MASK(f, tcp_dport,
				  rte_be_to_cpu_16(tm->hdr.dst_port));
			FLOW_VAL(f, tcp_dport,
				 rte_be_to_cpu_16(s->hdr.dst_port));
			FLOW_MASK(f, tcp_flags, tm->hdr.tcp_flags);
			FLOW_VAL(f, tcp_flags, s->hdr.tcp_flags);
			break;
		}
		}
	}
	return 0;
}

/* The hash types an RSS rule of these pattern kinds can hash. */
static uint64_t
flow_rss_types(uint64_t types, const struct flow_kinds *k)
{
	uint64_t t = types & MLX5CQ_RSS_HF & ~MLX5CQ_RSS_ONLY;

	if (k->l3 == 4)
		t &= MLX5CQ_RSS_V4;
	else if (k->l3 == 6)
		t &= ~MLX5CQ_RSS_V4;
	if (k->l4 == IPPROTO_UDP)
		t &= ~MLX5CQ_RSS_TCP;
	else if (k->l4 == IPPROTO_TCP)
		t &= ~MLX5CQ_RSS_UDP;
	return t == 0 ? 0 : t | (types & MLX5CQ_RSS_ONLY);
}

static int
flow_rss(struct rte_eth_dev *dev, const struct rte_flow_action *a,
	 struct rte_flow *f, const struct flow_kinds *k,
	 struct rte_flow_error *error)
{
	const struct rte_flow_action_rss *rss = a->conf;
	uint64_t types;
	uint32_t i;

	if (rss == NULL)
		return flow_err(dev, error, EINVAL,
			RTE_FLOW_ERROR_TYPE_ACTION_CONF, a, "RSS without conf");
	if (rss->func != RTE_ETH_HASH_FUNCTION_DEFAULT &&
	    rss->func != RTE_ETH_HASH_FUNCTION_TOEPLITZ)
		return flow_err(dev, error, ENOTSUP,
			RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
			"RSS hash function not supported (Toeplitz only)");
	if (rss->level > 1)
		return flow_err(dev, error, ENOTSUP,
			RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
			"RSS of inner headers not supported");
	if (rss->key_len != 0 && rss->key_len != MLX5CQ_RSS_KEY_LEN)
		return flow_err(dev, error, EINVAL,
			RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
			"RSS key length must be 0 or 40");
	if (rss->key_len != 0 && rss->key == NULL)
		return flow_err(dev, error, EINVAL,
			RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
			"RSS key length without a key");
	types = rss->types == 0 ? RTE_ETH_RSS_IP : rss->types;
	if (types & ~MLX5CQ_RSS_HF)
		return flow_err(dev, error, ENOTSUP,
			RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
			"RSS hash types not supported");
	if (rss->queue_num == 0 || rss->queue_num > MLX5CQ_MAX_QUEUES ||
	    rss->queue == NULL)
		return flow_err(dev, error, EINVAL,
			RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
			"RSS needs 1 to 16 queues");
	for (i = 0; i < rss->queue_num; i++) {
		if (rss->queue[i] >= dev->data->nb_rx_queues)
			return flow_err(dev, error, EINVAL,
				RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
				"RSS queue index out of range");
		f->queues[i] = rss->queue[i];
	}
	f->queue_n = (uint16_t)rss->queue_num;
	/* Types the pattern rules out hash nothing: every packet goes to
	 * the first queue, as a TIR with no selected field does.
	 */
	f->rss_hf = flow_rss_types(types, k);
	if (rss->key_len != 0) {
		memcpy(f->rss_key, rss->key, MLX5CQ_RSS_KEY_LEN);
		f->rss_key_set = 1;
	}
	f->fate = MLX5CQ_FLOW_FATE_RSS;
	return 0;
}

static int
flow_actions(struct rte_eth_dev *dev, const struct rte_flow_action actions[],
	     struct rte_flow *f, const struct flow_kinds *k,
	     struct rte_flow_error *error)
{
	const struct rte_flow_action *a;
	int n = 0, ret;

	for (a = actions; a->type != RTE_FLOW_ACTION_TYPE_END; a++) {
		if (a->type == RTE_FLOW_ACTION_TYPE_VOID)
			continue;
		n++;
		switch (a->type) {
		case RTE_FLOW_ACTION_TYPE_MARK:
		case RTE_FLOW_ACTION_TYPE_FLAG:
			if (f->tag != 0)
				return flow_err(dev, error, EINVAL,
					RTE_FLOW_ERROR_TYPE_ACTION, a,
					"more than one MARK or FLAG");
			if (a->type == RTE_FLOW_ACTION_TYPE_FLAG) {
				f->tag = MLX5CQ_FLOW_TAG_FLAG;
				break;
			}
			if (a->conf == NULL)
				return flow_err(dev, error, EINVAL,
					RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					"MARK without conf");
			if (((const struct rte_flow_action_mark *)a->conf)->id >
			    MLX5CQ_FLOW_MARK_MAX)
				return flow_err(dev, error, EINVAL,
					RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					"MARK id above 0xfffff0");
			f->tag = ((const struct rte_flow_action_mark *)
				  a->conf)->id + 1;
			break;
		case RTE_FLOW_ACTION_TYPE_QUEUE:
		case RTE_FLOW_ACTION_TYPE_RSS:
		case RTE_FLOW_ACTION_TYPE_DROP:
			if (f->fate != MLX5CQ_FLOW_FATE_NONE)
				return flow_err(dev, error, EINVAL,
					RTE_FLOW_ERROR_TYPE_ACTION, a,
					"more than one fate action (QUEUE, "
					"RSS, DROP)");
			if (a->type == RTE_FLOW_ACTION_TYPE_DROP) {
				f->fate = MLX5CQ_FLOW_FATE_DROP;
				break;
			}
			if (a->type == RTE_FLOW_ACTION_TYPE_RSS) {
				ret = flow_rss(dev, a, f, k, error);
				if (ret != 0)
					return ret;
				break;
			}
			if (a->conf == NULL ||
			    ((const struct rte_flow_action_queue *)
			     a->conf)->index >= dev->data->nb_rx_queues)
				return flow_err(dev, error, EINVAL,
					RTE_FLOW_ERROR_TYPE_ACTION_CONF, a,
					"QUEUE index out of range");
			f->queues[0] = ((const struct rte_flow_action_queue *)
					a->conf)->index;
			f->queue_n = 1;
			f->fate = MLX5CQ_FLOW_FATE_QUEUE;
			break;
		default:
			return flow_err(dev, error, ENOTSUP,
				RTE_FLOW_ERROR_TYPE_ACTION, a,
				"action not supported (MARK, FLAG, QUEUE, RSS, "
				"DROP)");
		}
	}
	if (f->fate == MLX5CQ_FLOW_FATE_NONE)
		return flow_err(dev, error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION,
			actions, "no fate action (QUEUE, RSS or DROP)");
	if (f->fate == MLX5CQ_FLOW_FATE_DROP && n > 1)
		return flow_err(dev, error, EINVAL, RTE_FLOW_ERROR_TYPE_ACTION,
			actions, "DROP takes no other action");
	return 0;
}

int
mlx5cq_flow_parse(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
		  const struct rte_flow_item items[],
		  const struct rte_flow_action actions[],
		  struct rte_flow *f, struct rte_flow_error *error)
{
	struct flow_kinds k = { 0, 0 };
	unsigned int i;
	int ret;

	if (attr == NULL)
		return flow_err(dev, error, EINVAL, RTE_FLOW_ERROR_TYPE_ATTR,
			NULL, "no attributes");
	if (items == NULL)
		return flow_err(dev, error, EINVAL,
			RTE_FLOW_ERROR_TYPE_ITEM_NUM, NULL, "no pattern");
	if (actions == NULL)
		return flow_err(dev, error, EINVAL,
			RTE_FLOW_ERROR_TYPE_ACTION_NUM, NULL, "no actions");
	if (attr->egress || attr->transfer || !attr->ingress)
		return flow_err(dev, error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR,
			attr, "ingress rules only");
	if (attr->group != 0)
		return flow_err(dev, error, ENOTSUP,
			RTE_FLOW_ERROR_TYPE_ATTR_GROUP, attr,
			"group 0 only");
	if (attr->priority >= MLX5CQ_FLOW_PRIO_USER_N)
		return flow_err(dev, error, ENOTSUP,
			RTE_FLOW_ERROR_TYPE_ATTR_PRIORITY, attr,
			"priority 0 to 7 only");
	memset(f, 0, sizeof(*f));
	f->mask.match_sz = MLX5CQ_FLOW_MATCH_SZ;
	f->value.match_sz = MLX5CQ_FLOW_MATCH_SZ;
	f->prio = (uint16_t)attr->priority;
	ret = flow_pattern(dev, items, f, &k, error);
	if (ret != 0)
		return ret;
	for (i = 0; i < RTE_DIM(f->value.buf); i++)
		f->value.buf[i] &= f->mask.buf[i];
	return flow_actions(dev, actions, f, &k, error);
}
