/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * A received frame's walk through the NIC RX steering of its device
 * (the objects: mlx5_emu_steer.c). It runs for a device that created a
 * NIC RX domain; mlx5_emu_rss.c keeps the default route (the first TIR)
 * for the others.
 *
 * Rules:
 * - The frame's key is its fte_match_param view (mlx5_prm.h): outer
 *   headers (MACs; the first VLAN tag, 802.1Q as cvlan_tag, 802.1ad as
 *   svlan_tag, with first_prio/cfi/vid; ethertype after the tags, as
 *   DPDK's flow_dv_translate_item_vlan() matches it; IPv4 or IPv6
 *   without extension headers: version, protocol, DSCP, ECN, TTL or
 *   hop limit, IHL, fragment (IPv4 MF or offset); TCP ports and flags
 *   (9 bits), UDP ports), misc (the second VLAN tag as
 *   outer_second_cvlan/svlan_tag and vid/prio/cfi; source_port: the
 *   uplink 0xffff for a frame of the wire, 0 for the device's own
 *   loopback, kernel MLX5_VPORT_UPLINK) and misc2, the metadata
 *   registers reg_a, reg_b, reg_c_0..7, all 0 when the frame arrives.
 *   The L3 and L4 fields are read only while a matcher of the domain
 *   masks one of them (dom->l34_matchers): the others match the same
 *   on a key without them.
 * - The walk starts at the root of the device's first NIC RX domain (a
 *   device whose NIC RX domains are all destroyed: the kernel's):
 *   matchers in priority order (mlx5_emu_steer.c), within one the
 *   oldest rule whose masked value equals the key's masked words. The
 *   rule's actions run in their order: tag (the CQE's flow tag,
 *   sop_drop_qpn[23:0], mlx5_prm.h struct mlx5_cqe), pop VLAN (the
 *   first tag leaves the frame; the key is made again, registers kept),
 *   modify header (the registers; the MACs, the IPv4 TTL with the
 *   header checksum updated as RFC 1624 does, the IPv6 hop limit: the
 *   key made again; a field the frame lacks is left alone); then its
 *   terminal action: dest TIR (RSS of that TIR, mlx5_emu_rss.c; the
 *   CQE's flow_table_metadata is reg_b, as the kernel's
 *   mlx5e_tc_update_skb() reads it), dest table (the walk goes on
 *   there), drop (rx_steer_drops).
 * - A miss: at the root the frame goes on to the kernel's own tables,
 *   no DPDK queue (rx_steer_missed); in a non-root NIC RX table the
 *   domain's default address is nic_rx_drop_address (dr_domain.c
 *   dr_domain_caps_init): dropped (rx_steer_drops). A default-miss
 *   action, and a rule without a terminal action, go to that same
 *   default (dr_actions_build_ste_arr: final_icm_addr =
 *   default_icm_addr): the kernel at the root, a drop elsewhere.
 * - More than EMU_STEER_MAX_HOPS jumps (a loop of tables, which
 *   rdma-core does not refuse): dropped, with a DEBUG line.
 * - Model limits: only the first NIC RX domain of a device steers; NIC TX
 *   rules are kept but sent frames are not classified (they all reach
 *   the wire).
 */

#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <mlx5_prm.h>

#include "mlx5_emu_net.h"

#define EMU_STEER_MAX_HOPS 32
#define EMU_KEY_SZ (EMU_STEER_KEY_QW * 8)
#define EMU_REG_B MLX5_BYTE_OFF(fte_match_param, \
				misc_parameters_2.metadata_reg_b)

#define KSET(fld, v) MLX5_SET(fte_match_param, key, fld, v)

/* Popped frames (made with the first pop, kept for the process). */
static uint8_t *emu_steer_frame;

static uint16_t
emu_rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/*
 * Headers of the frame into the key (outer, misc); misc2 kept. The L3 and
 * L4 fields only when l34: a domain none of whose matchers masks them
 * (emu_steer_key_l34()) matches the frame on its L2 fields alone.
 */
static void
emu_steer_key(uint8_t *key, const uint8_t *f, uint32_t len, int self,
	      int l34)
{
	uint32_t off = 14, l4 = 0;
	uint16_t et, tci;
	uint8_t proto = 0;

	memset(key, 0, MLX5_BYTE_OFF(fte_match_param, misc_parameters_2));
	KSET(misc_parameters.source_port, self ? 0 : 0xffff);
	memcpy(key, f + 6, 6); /* smac_47_16, smac_15_0 */
	memcpy(key + 8, f, 6); /* dmac_47_16, dmac_15_0 */
	et = emu_rd16(f + 12);
	if ((et == 0x8100 || et == 0x88a8) && len >= 18) {
		tci = emu_rd16(f + 14);
		KSET(outer_headers.cvlan_tag, et == 0x8100);
		KSET(outer_headers.svlan_tag, et == 0x88a8);
		KSET(outer_headers.first_prio, tci >> 13);
		KSET(outer_headers.first_cfi, (tci >> 12) & 1);
		KSET(outer_headers.first_vid, tci & 0xfff);
		et = emu_rd16(f + 16);
		off = 18;
		if ((et == 0x8100 || et == 0x88a8) && len >= 22) {
			tci = emu_rd16(f + 18);
			KSET(misc_parameters.outer_second_cvlan_tag,
			     et == 0x8100);
			KSET(misc_parameters.outer_second_svlan_tag,
			     et == 0x88a8);
			KSET(misc_parameters.outer_second_prio, tci >> 13);
			KSET(misc_parameters.outer_second_cfi,
			     (tci >> 12) & 1);
			KSET(misc_parameters.outer_second_vid, tci & 0xfff);
			et = emu_rd16(f + 20);
			off = 22;
		}
	}
	KSET(outer_headers.ethertype, et);
	if (!l34)
		return;
	if (et == 0x0800 && len >= off + 20 && (f[off] >> 4) == 4) {
		uint32_t ihl = (f[off] & 0xf) * 4u;

		KSET(outer_headers.ip_version, 4);
		KSET(outer_headers.ipv4_ihl, f[off] & 0xf);
		KSET(outer_headers.ip_dscp, f[off + 1] >> 2);
		KSET(outer_headers.ip_ecn, f[off + 1] & 3);
		KSET(outer_headers.frag,
		     (emu_rd16(f + off + 6) & 0x3fff) != 0);
		KSET(outer_headers.ip_ttl_hoplimit, f[off + 8]);
		proto = f[off + 9];
		KSET(outer_headers.ip_protocol, proto);
		memcpy(MLX5_ADDR_OF(fte_match_param, key,
				    outer_headers.src_ipv4_src_ipv6.ipv4_layout.ipv4),
		       f + off + 12, 4);
		memcpy(MLX5_ADDR_OF(fte_match_param, key,
				    outer_headers.dst_ipv4_dst_ipv6.ipv4_layout.ipv4),
		       f + off + 16, 4);
		if (ihl >= 20 && (emu_rd16(f + off + 6) & 0x1fff) == 0)
			l4 = off + ihl;
	} else if (et == 0x86dd && len >= off + 40 && (f[off] >> 4) == 6) {
		uint8_t tc = (uint8_t)(f[off] << 4 | f[off + 1] >> 4);

		KSET(outer_headers.ip_version, 6);
		KSET(outer_headers.ip_dscp, tc >> 2);
		KSET(outer_headers.ip_ecn, tc & 3);
		KSET(outer_headers.ip_ttl_hoplimit, f[off + 7]);
		proto = f[off + 6];
		KSET(outer_headers.ip_protocol, proto);
		memcpy(MLX5_ADDR_OF(fte_match_param, key,
				    outer_headers.src_ipv4_src_ipv6),
		       f + off + 8, 32);
		l4 = off + 40;
	}
	if (proto == 6 && l4 != 0 && len >= l4 + 20) {
		KSET(outer_headers.tcp_sport, emu_rd16(f + l4));
		KSET(outer_headers.tcp_dport, emu_rd16(f + l4 + 2));
		KSET(outer_headers.tcp_flags,
		     (f[l4 + 12] & 1) << 8 | f[l4 + 13]);
	} else if (proto == 17 && l4 != 0 && len >= l4 + 8) {
		KSET(outer_headers.udp_sport, emu_rd16(f + l4));
		KSET(outer_headers.udp_dport, emu_rd16(f + l4 + 2));
	}
}

void
emu_steer_key_l34(uint8_t *key)
{
	memset(key, 0, EMU_KEY_SZ);
	KSET(outer_headers.ip_protocol, 0xff);
	KSET(outer_headers.ip_dscp, 0x3f);
	KSET(outer_headers.ip_ecn, 3);
	KSET(outer_headers.frag, 1);
	KSET(outer_headers.ip_version, 0xf);
	KSET(outer_headers.tcp_flags, 0x1ff);
	KSET(outer_headers.tcp_sport, 0xffff);
	KSET(outer_headers.tcp_dport, 0xffff);
	KSET(outer_headers.ipv4_ihl, 0xf);
	KSET(outer_headers.ip_ttl_hoplimit, 0xff);
	KSET(outer_headers.udp_sport, 0xffff);
	KSET(outer_headers.udp_dport, 0xffff);
	memset(MLX5_ADDR_OF(fte_match_param, key,
			    outer_headers.src_ipv4_src_ipv6), 0xff, 32);
}

void
emu_steer_key_supported(uint8_t *key)
{
	/* The L3/L4 fields, then the L2 and misc ones. */
	emu_steer_key_l34(key);
	memset(key, 0xff, 12); /* smac, ethertype, dmac_47_16 */
	KSET(outer_headers.dmac_15_0, 0xffff);
	KSET(outer_headers.first_prio, 0x7);
	KSET(outer_headers.first_cfi, 1);
	KSET(outer_headers.first_vid, 0xfff);
	KSET(outer_headers.cvlan_tag, 1);
	KSET(outer_headers.svlan_tag, 1);
	KSET(misc_parameters.source_port, 0xffff);
	KSET(misc_parameters.outer_second_prio, 0x7);
	KSET(misc_parameters.outer_second_cfi, 1);
	KSET(misc_parameters.outer_second_vid, 0xfff);
	KSET(misc_parameters.outer_second_cvlan_tag, 1);
	KSET(misc_parameters.outer_second_svlan_tag, 1);
	memset(MLX5_ADDR_OF(fte_match_param, key,
			    misc_parameters_2.metadata_reg_c_7), 0xff, 40);
}

/* The first rule of a matcher list the key matches, or NULL. */
static struct emu_steer_rule *
emu_steer_lookup(const struct emu_steer_matcher_list *l, const uint64_t *key)
{
	const struct emu_steer_matcher *m;
	struct emu_steer_rule *r;
	unsigned int i;

	TAILQ_FOREACH(m, l, next) {
		TAILQ_FOREACH(r, &m->rules, next) {
			for (i = 0; i < m->nqw; i++)
				if ((key[m->qw_idx[i]] & m->qw_mask[i]) !=
				    r->qw_val[i])
					break;
			if (i == m->nqw)
				return r;
		}
	}
	return NULL;
}

static uint32_t
emu_reg_get(const uint8_t *key, uint16_t off)
{
	return emu_be32_at(key + off);
}

static void
emu_reg_put(uint8_t *key, uint16_t off, uint32_t v)
{
	v = rte_cpu_to_be_32(v);
	memcpy(key + off, &v, 4);
}

/* The frame in emu_steer_frame (made on first use), to be changed. */
static uint8_t *
emu_steer_writable(const uint8_t *f, uint32_t len)
{
	if (emu_steer_frame == NULL)
		emu_steer_frame = malloc(EMU_MAX_FRAME);
	if (emu_steer_frame == NULL) {
		EMU_LOG(ERR, "steering: no memory to change a frame: kept");
		return NULL;
	}
	if (f != emu_steer_frame)
		memcpy(emu_steer_frame, f, len);
	return emu_steer_frame;
}

/*
 * Where a header field lies in the frame (its bytes, big endian), or
 * NULL when the frame has no such header; *ip4: the IPv4 header for the
 * checksum of a TTL change.
 */
static uint8_t *
emu_steer_hdr_at(uint8_t *f, uint32_t len, uint16_t field, uint32_t *n,
		 uint8_t **ip4)
{
	uint32_t off = 14;
	uint16_t et = emu_rd16(f + 12);

	*ip4 = NULL;
	switch (field) {
	case MLX5_MODI_OUT_DMAC_47_16:
		*n = 4;
		return f;
	case MLX5_MODI_OUT_DMAC_15_0:
		*n = 2;
		return f + 4;
	case MLX5_MODI_OUT_SMAC_47_16:
		*n = 4;
		return f + 6;
	case MLX5_MODI_OUT_SMAC_15_0:
		*n = 2;
		return f + 10;
	default:
		break;
	}
	while ((et == 0x8100 || et == 0x88a8) && len >= off + 4 + 2 &&
	       off < 22) {
		et = emu_rd16(f + off + 2);
		off += 4;
	}
	*n = 1;
	if (field == MLX5_MODI_OUT_IPV4_TTL && et == 0x0800 &&
	    len >= off + 20 && (f[off] >> 4) == 4) {
		*ip4 = f + off;
		return f + off + 8;
	}
	if (field == MLX5_MODI_OUT_IPV6_HOPLIMIT && et == 0x86dd &&
	    len >= off + 40 && (f[off] >> 4) == 6)
		return f + off + 7;
	return NULL;
}

/* SET or ADD on a header field of the frame (writable, len bytes). */
static void
emu_steer_modify_hdr(uint8_t *f, uint32_t len,
		     const struct emu_steer_mod *md, uint32_t msk)
{
	uint32_t n, i, v = 0, old, src;
	uint8_t *ip4, *p = emu_steer_hdr_at(f, len, md->field, &n, &ip4);
	uint32_t sum;

	if (p == NULL)
		return; /* The frame has no such header. */
	for (i = 0; i < n; i++)
		v = v << 8 | p[i];
	old = ip4 != NULL ? emu_rd16(ip4 + 8) : 0;
	if (md->type == MLX5_MODIFICATION_TYPE_SET)
		src = md->data & msk;
	else
		src = ((v >> md->off) + md->data) & msk;
	v = (v & ~(msk << md->off)) | src << md->off;
	for (i = n; i > 0; i--, v >>= 8)
		p[i - 1] = (uint8_t)v;
	if (ip4 != NULL) {
		/* The header checksum follows (RFC 1624, eqn. 3). */
		sum = (uint16_t)~emu_rd16(ip4 + 10) + (uint16_t)~old +
		      emu_rd16(ip4 + 8);
		sum = (sum & 0xffff) + (sum >> 16);
		sum = (sum & 0xffff) + (sum >> 16);
		ip4[10] = (uint8_t)(~sum >> 8);
		ip4[11] = (uint8_t)~sum;
	}
}

/*
 * Run a modify-header action (PRM modify header) on the registers and the
 * header fields; a changed frame is in emu_steer_frame (*f) and keyed
 * again.
 */
static void
emu_steer_modify(uint8_t *key, const struct emu_steer_act *a,
		 const uint8_t **f, uint32_t len, int self, int l34)
{
	const struct emu_steer_mod *md;
	uint32_t i, msk, v, src;
	uint8_t *w = NULL;

	for (i = 0; i < a->nmod; i++) {
		md = &a->mod[i];
		if (md->type == MLX5_MODIFICATION_TYPE_NOP)
			continue;
		msk = md->len == 32 ? UINT32_MAX : (1u << md->len) - 1;
		if (md->hdr) {
			if (w == NULL)
				w = emu_steer_writable(*f, len);
			if (w == NULL)
				return;
			*f = w;
			emu_steer_modify_hdr(w, len, md, msk);
			continue;
		}
		v = emu_reg_get(key, md->field);
		switch (md->type) {
		case MLX5_MODIFICATION_TYPE_SET:
			v = (v & ~(msk << md->off)) |
			    (md->data & msk) << md->off;
			emu_reg_put(key, md->field, v);
			break;
		case MLX5_MODIFICATION_TYPE_ADD:
			/* The field's bits, wrapping within them. */
			src = ((v >> md->off) + md->data) & msk;
			v = (v & ~(msk << md->off)) | src << md->off;
			emu_reg_put(key, md->field, v);
			break;
		default: /* COPY */
			src = (v >> md->off) & msk;
			v = emu_reg_get(key, md->dst_field);
			v = (v & ~(msk << md->dst_off)) | src << md->dst_off;
			emu_reg_put(key, md->dst_field, v);
			break;
		}
	}
	if (w != NULL)
		emu_steer_key(key, w, len, self, l34);
}

/* The first VLAN tag out of the frame (into emu_steer_frame). */
static const uint8_t *
emu_steer_pop(const uint8_t *f, uint32_t *len)
{
	uint16_t et = emu_rd16(f + 12);
	uint8_t *w;

	if ((et != 0x8100 && et != 0x88a8) || *len < 18)
		return f; /* No tag: nothing to pop. */
	w = emu_steer_writable(f, *len);
	if (w == NULL)
		return f;
	memmove(w + 12, w + 16, *len - 16);
	*len -= 4;
	return w;
}

void
emu_steer_rx(struct emu_net *net, const uint8_t *frame, uint32_t len,
	     int self)
{
	uint64_t key[EMU_STEER_KEY_QW];
	uint8_t *k = (uint8_t *)key;
	const struct emu_steer_matcher_list *l;
	const struct emu_steer_act *a, *term;
	struct emu_steer_rule *r;
	unsigned int hops = 0, i;
	struct emu_rx_meta meta;
	int l34;
	uint32_t tag = 0;
	struct emu_pkt pkt;

	if (net->rx_dom == NULL) {
		/* Its NIC RX domains are gone: nothing steers to DPDK. */
		net->pstats.rx_steer_missed++;
		return;
	}
	l = &net->rx_dom->root;
	memset(k + MLX5_BYTE_OFF(fte_match_param, misc_parameters_2), 0,
	       EMU_KEY_SZ - MLX5_BYTE_OFF(fte_match_param,
					  misc_parameters_2));
	l34 = net->rx_dom->l34_matchers != 0;
	emu_steer_key(k, frame, len, self, l34);
	for (;;) {
		r = emu_steer_lookup(l, key);
		if (r == NULL)
			break;
		r->hits++;
		for (i = 0; i < r->nact; i++) {
			a = r->act[i];
			if (a->type == EMU_SA_TAG) {
				tag = a->tag;
			} else if (a->type == EMU_SA_POP_VLAN) {
				frame = emu_steer_pop(frame, &len);
				emu_steer_key(k, frame, len, self, l34);
			} else if (a->type == EMU_SA_MODIFY) {
				emu_steer_modify(k, a, &frame, len, self,
						 l34);
			}
		}
		term = r->term;
		if (term == NULL || term->type == EMU_SA_MISS)
			break;
		if (term->type == EMU_SA_TIR) {
			meta.flow_tag = tag;
			meta.ft_meta = emu_reg_get(k, EMU_REG_B);
			emu_pkt_parse(frame, len, &pkt);
			emu_rss_to_tir(net, term->tir, frame, &pkt, self, &meta);
			return;
		}
		if (term->type == EMU_SA_DROP) {
			net->pstats.rx_steer_drops++;
			return;
		}
		/* Dest table. */
		if (++hops > EMU_STEER_MAX_HOPS) {
			EMU_LOG(DEBUG, "%s: steering: more than %u table jumps: "
				"dropped", net->dev->name, EMU_STEER_MAX_HOPS);
			net->pstats.rx_steer_drops++;
			return;
		}
		l = &term->tbl->matchers;
	}
	/* The default: the kernel at the root, nic_rx_drop_address below. */
	if (l == &net->rx_dom->root)
		net->pstats.rx_steer_missed++;
	else
		net->pstats.rx_steer_drops++;
}
