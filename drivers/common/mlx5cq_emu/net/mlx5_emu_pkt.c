/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Frame parsing (Ethernet, one optional 802.1Q tag, IPv4 or IPv6 without
 * extension headers, TCP or UDP) and Internet checksums (RFC 1071; TCP and
 * UDP with the pseudo header of RFC 793 / RFC 768 / RFC 8200 8.1).
 */

#include <string.h>

#include <rte_byteorder.h>

#include "mlx5_emu_net.h"

static uint16_t
emu_rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

void
emu_pkt_parse(const uint8_t *f, uint32_t len, struct emu_pkt *p)
{
	uint32_t off = 14, l4_avail = 0;
	uint16_t et;

	memset(p, 0, sizeof(*p));
	p->len = len;
	if (len < 14)
		return;
	et = emu_rd16(f + 12);
	if (et == 0x8100 && len >= 18) {
		p->vlan = 1;
		et = emu_rd16(f + 16);
		off = 18;
	}
	if (et == 0x0800 && len >= off + 20 && (f[off] >> 4) == 4) {
		uint32_t ihl = (f[off] & 0xf) * 4u;
		uint32_t tot = emu_rd16(f + off + 2);

		if (ihl < 20 || len < off + ihl)
			return;
		p->ipv4 = 1;
		p->l3_off = off;
		p->frag = (emu_rd16(f + off + 6) & 0x3fff) != 0;
		p->l4_proto = f[off + 9];
		if (tot > len - off)
			tot = len - off;
		if (tot >= ihl) {
			l4_avail = tot - ihl;
			off += ihl;
		}
	} else if (et == 0x86dd && len >= off + 40 && (f[off] >> 4) == 6) {
		uint32_t plen = emu_rd16(f + off + 4);

		p->ipv6 = 1;
		p->l3_off = off;
		p->l4_proto = f[off + 6];
		off += 40;
		l4_avail = plen < len - off ? plen : len - off;
	} else {
		return;
	}
	if ((p->l4_proto == 6 && l4_avail >= 20) ||
	    (p->l4_proto == 17 && l4_avail >= 8)) {
		p->l4_off = off;
		p->l4_len = l4_avail;
	} else {
		p->l4_proto = 0;
	}
}

/*
 * RFC 1071 sum of the big-endian 16-bit words of buf (an odd last byte is
 * the high byte of a word), added to sum. The words are summed in host
 * order eight bytes at a time into a 64-bit accumulator (no carry is lost:
 * at most 2^33 per load), folded to 16 bits and swapped to network order
 * at the end (the one's complement sum does not depend on the byte order,
 * RFC 1071 2.(B)). The caller folds the 32-bit result with emu_csum_fold().
 */
uint32_t
emu_csum_add(uint32_t sum, const uint8_t *buf, size_t len)
{
	uint64_t acc = 0, acc2 = 0;
	uint16_t w16;
	uint32_t w32;
	uint64_t w64, x64;

	/* Two independent accumulators, 16 bytes per step. */
	while (len >= 16) {
		memcpy(&w64, buf, 8);
		memcpy(&x64, buf + 8, 8);
		acc += (w64 & 0xffffffffu) + (w64 >> 32);
		acc2 += (x64 & 0xffffffffu) + (x64 >> 32);
		buf += 16;
		len -= 16;
	}
	acc += acc2;
	while (len >= 8) {
		memcpy(&w64, buf, 8);
		acc += (w64 & 0xffffffffu) + (w64 >> 32);
		buf += 8;
		len -= 8;
	}
	if (len >= 4) {
		memcpy(&w32, buf, 4);
		acc += w32;
		buf += 4;
		len -= 4;
	}
	if (len >= 2) {
		memcpy(&w16, buf, 2);
		acc += w16;
		buf += 2;
		len -= 2;
	}
	if (len != 0)
		acc += rte_be_to_cpu_16((uint16_t)((uint16_t)buf[0] << 8));
	while (acc >> 16)
		acc = (acc & 0xffff) + (acc >> 16);
	return sum + rte_be_to_cpu_16((uint16_t)acc);
}

uint16_t
emu_csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

uint16_t
emu_ipv4_hdr_csum(const uint8_t *f, const struct emu_pkt *p)
{
	uint32_t ihl = (f[p->l3_off] & 0xf) * 4u;

	return (uint16_t)~emu_csum_fold(emu_csum_add(0, f + p->l3_off, ihl));
}

uint32_t
emu_l4_pseudo_sum(const uint8_t *f, const struct emu_pkt *p)
{
	uint32_t sum = 0;
	uint8_t tail[4];

	if (p->ipv4)
		sum = emu_csum_add(sum, f + p->l3_off + 12, 8);
	else
		sum = emu_csum_add(sum, f + p->l3_off + 8, 32);
	tail[0] = 0;
	tail[1] = p->l4_proto;
	tail[2] = (uint8_t)(p->l4_len >> 8);
	tail[3] = (uint8_t)p->l4_len;
	return emu_csum_add(sum, tail, 4);
}

uint16_t
emu_l4_csum(const uint8_t *f, const struct emu_pkt *p)
{
	uint32_t sum = emu_l4_pseudo_sum(f, p);

	sum = emu_csum_add(sum, f + p->l4_off, p->l4_len);
	return (uint16_t)~emu_csum_fold(sum);
}

void
emu_pkt_fill_ipv4_csum(uint8_t *f, const struct emu_pkt *p)
{
	uint16_t c;

	f[p->l3_off + 10] = 0;
	f[p->l3_off + 11] = 0;
	c = emu_ipv4_hdr_csum(f, p);
	f[p->l3_off + 10] = (uint8_t)(c >> 8);
	f[p->l3_off + 11] = (uint8_t)c;
}

void
emu_pkt_fill_l4_csum(uint8_t *f, const struct emu_pkt *p)
{
	unsigned int at = p->l4_off + (p->l4_proto == 6 ? 16 : 6);
	uint16_t c;

	f[at] = 0;
	f[at + 1] = 0;
	c = emu_l4_csum(f, p);
	if (c == 0 && p->l4_proto == 17)
		c = 0xffff; /* UDP: 0 means "no checksum". */
	f[at] = (uint8_t)(c >> 8);
	f[at + 1] = (uint8_t)c;
}
