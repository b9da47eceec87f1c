/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Large send offload: the TSO WQE (opcode MLX5_OPCODE_TSO 0x0e) carries a
 * TCP packet larger than the MTU, which the device cuts into frames of at
 * most mss payload bytes. What the model takes from its sources:
 * - the WQE: the Ethernet segment's mss (bytes 6..7) and, inline from its
 *   byte 14 on, the whole L2..L4 header (inline_hdr_sz): the kernel's
 *   mlx5e inlines exactly the GSO header (mlx5e_tx_get_gso_ihs(), opcode
 *   MLX5_OPCODE_LSO, eseg->mss in mlx5e_sq_xmit_wqe()) and net/mlx5 does
 *   the same for TSO (mlx5_tx_eseg_data() with MLX5_TXOFF_CONFIG_TSO);
 *   then the payload by pointer or inline, as for SEND. A TSO WQE whose
 *   inline header is not exactly Ethernet [VLAN] IPv4|IPv6 TCP, a zero
 *   mss, no payload or a payload above 2^max_lso_cap bytes (the Ethernet
 *   caps) completes with LOC_QP_OP_ERR;
 * - each frame: the header copied, then its part of the payload; the IPv4
 *   total length (IPv6 payload length) set to the frame's, the IPv4 id
 *   the first one plus the frame's number, the TCP sequence number the
 *   first one plus the payload before it; CWR only in the first frame,
 *   FIN and PSH only in the last (the segmentation the kernel's
 *   tcp_gso_segment() does in software, which the device replaces); the
 *   IPv4 header and TCP checksums computed for each frame, whatever
 *   cs_flags says (the device rewrites the lengths the sums cover);
 * - each frame goes on the wire on its own (counted as sent); the WQE
 *   completes once.
 */

#include <string.h>

#include <rte_common.h>
#include <mlx5_prm.h>

#include "mlx5_emu_net.h"

#define EMU_TCP_FIN 0x01
#define EMU_TCP_PSH 0x08
#define EMU_TCP_CWR 0x80

#define EMU_LSO_HDR_MAX 256

static uint8_t emu_lso_out[EMU_MAX_FRAME + 4];

static void
emu_wr16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

/*
 * Parse the inline header alone: its IP length fields are the sender's
 * (the device rewrites them per frame), so a copy with them set to the
 * header's own length is parsed. l4_proto 0 when the header is not
 * Ethernet [VLAN] IPv4|IPv6 TCP.
 */
static void
emu_lso_parse(const uint8_t *pkt, uint32_t ihs, struct emu_pkt *p)
{
	uint8_t h[EMU_LSO_HDR_MAX];
	uint32_t l3 = 14;

	memset(p, 0, sizeof(*p));
	if (ihs > sizeof(h) || ihs < 18)
		return;
	memcpy(h, pkt, ihs);
	if (h[12] == 0x81 && h[13] == 0x00)
		l3 = 18;
	if (ihs >= l3 + 20 && (h[l3] >> 4) == 4)
		emu_wr16(h + l3 + 2, (uint16_t)(ihs - l3));
	else if (ihs >= l3 + 40 && (h[l3] >> 4) == 6)
		emu_wr16(h + l3 + 4, (uint16_t)(ihs - l3 - 40));
	emu_pkt_parse(h, ihs, p);
}

int
emu_lso_check(const uint8_t *pkt, uint32_t len, uint32_t ihs, uint16_t mss,
	      uint8_t log_max, const char **why)
{
	struct emu_pkt p;
	uint32_t l4;

	emu_lso_parse(pkt, ihs, &p);
	if (p.l4_proto != 6 || p.frag) {
		*why = "LSO inline header is not Ethernet/IP/TCP";
		return -1;
	}
	l4 = p.l4_off + (pkt[p.l4_off + 12] >> 4) * 4u;
	if (l4 != ihs) {
		*why = "LSO inline header is not the whole L2..L4 header";
		return -1;
	}
	if (mss == 0 || len <= ihs || len - ihs > (1u << log_max)) {
		*why = "LSO mss 0, no payload or payload above max_lso_cap";
		return -1;
	}
	return 0;
}

unsigned int
emu_lso_transmit(struct emu_net *net, const uint8_t *pkt, uint32_t len,
		 uint32_t ihs, uint16_t mss)
{
	uint32_t payload = len - ihs, off = 0, seq, n = 0, chunk;
	uint16_t id = 0;
	struct emu_pkt p;
	uint8_t flags;

	emu_lso_parse(pkt, ihs, &p);
	seq = emu_be32_at(pkt + p.l4_off + 4);
	if (p.ipv4)
		id = (uint16_t)(pkt[p.l3_off + 4] << 8 | pkt[p.l3_off + 5]);
	flags = pkt[p.l4_off + 13];
	while (off < payload) {
		uint8_t *f = emu_lso_out;
		uint8_t fl = flags;
		struct emu_pkt q;

		chunk = RTE_MIN((uint32_t)mss, payload - off);
		if (ihs + chunk > EMU_MAX_FRAME)
			chunk = EMU_MAX_FRAME - ihs;
		memcpy(f, pkt, ihs);
		memcpy(f + ihs, pkt + ihs + off, chunk);
		if (p.ipv4) {
			emu_wr16(f + p.l3_off + 2,
				 (uint16_t)(ihs - p.l3_off + chunk));
			emu_wr16(f + p.l3_off + 4, (uint16_t)(id + n));
		} else {
			emu_wr16(f + p.l3_off + 4,
				 (uint16_t)(ihs - p.l3_off - 40 + chunk));
		}
		f[p.l4_off + 4] = (uint8_t)((seq + off) >> 24);
		f[p.l4_off + 5] = (uint8_t)((seq + off) >> 16);
		f[p.l4_off + 6] = (uint8_t)((seq + off) >> 8);
		f[p.l4_off + 7] = (uint8_t)(seq + off);
		if (off != 0)
			fl &= ~EMU_TCP_CWR;
		if (off + chunk < payload)
			fl &= ~(EMU_TCP_FIN | EMU_TCP_PSH);
		f[p.l4_off + 13] = fl;
		emu_pkt_parse(f, ihs + chunk, &q);
		if (q.ipv4)
			emu_pkt_fill_ipv4_csum(f, &q);
		emu_pkt_fill_l4_csum(f, &q);
		emu_wire_transmit(net, f, ihs + chunk);
		off += chunk;
		n++;
	}
	return n;
}
