/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Large receive offload: TCP segments of one flow coalesced into one
 * receive WQE and one CQE, for frames that reach a cyclic RQ through a
 * TIR with lro_enable_mask (mlx5_emu_rss.c checks the TIR).
 *
 * Eligible frame (emu_lro_eligible()): TCP over IPv4 when the mask has
 * IPV4_LRO (no IP options, not a fragment) or over IPv6 when it has
 * IPV6_LRO (no extension header), no VLAN tag, a TCP header without
 * options or with only the timestamp option (NOP, NOP, TS), flags ACK or
 * ACK|PSH, a payload, good IP and TCP checksums (the readers trust an LRO
 * packet's checksums: kernel en_rx.c mlx5e_handle_csum() marks it
 * CHECKSUM_UNNECESSARY; DPDK recomputes the headers' sums from the CQE's
 * csum in mlx5_rx.c mlx5_lro_update_tcp_hdr()).
 *
 * Session (struct emu_lro, one per RQ): the first eligible frame opens it
 * in the RQ's next WQE (the whole frame); a frame that continues it (same
 * headers but for IP length / id / TTL / checksum, TCP sequence, ack,
 * flags, window, checksum and timestamp values; sequence = the expected
 * next; ack not behind the last one) has its payload appended after it,
 * scattered over the WQE's data segments. The session closes, and its
 * one CQE is staged, when:
 * - a frame that does not continue it arrives for the RQ (the frame is
 *   then handled on its own, possibly opening a new session);
 * - the next payload would take the message past lro_max_msg_sz * 256
 *   bytes counted from the TCP header (lro_max_msg_sz_mode 0,
 *   MLX5_LRO_MAX_MSG_SIZE_START_FROM_L4) or past the WQE's room (the
 *   frame then opens a new session);
 * - a PSH segment joined (lro_psh_flag: it is coalesced, then closes);
 * - lro_timeout_period_usecs passed on the model clock since the last
 *   segment: checked by every engine pass (mlx5_emu_engine.c) and when a
 *   frame arrives for the RQ;
 * - the RQ changes state or is destroyed.
 * The CQE (DPDK mlx5_prm.h struct mlx5_cqe, kernel mlx5_cqe64): byte_cnt
 * the coalesced length; lro_num_seg the segments; lro_tcppsh_abort_dupack
 * MLX5_CQE_LRO_PUSH_MASK (0x40) when the last segment had PSH;
 * lro_min_ttl the smallest TTL / hop limit; lro_tcp_win and
 * lro_ack_seq_num the last segment's window and ack (raw, as on the
 * wire); csum the one's complement sum of the TCP payload only (DPDK
 * mlx5_lro_update_tcp_hdr(): "The HW calculates only the TCP payload
 * checksum"; kernel mlx5e_lro_update_hdr() feeds cqe->check_sum to
 * csum_partial() over the TCP header); hdr_type_etc the first segment's
 * (l4 type TCP with ACK and data, L3_OK and L4_OK: every segment was
 * checked). The buffer holds the first segment's headers unchanged (the
 * readers write IP length, TTL, ack, window, PSH and the checksums:
 * mlx5_lro_update_hdr(), mlx5e_lro_update_hdr()). Both readers act only
 * when lro_num_seg > 1 (DPDK mlx5_rx.c, kernel en_rx.c), so a session of
 * one segment completes as a plain frame with every LRO field 0.
 *
 * Model limits: striding RQs (the frame would span strides) and tagged
 * frames are delivered without coalescing; lro_min_mss_size is reported,
 * not enforced; injected RX faults (mlx5_emu_wire.c) hit frames that take
 * the plain path only.
 */

#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <mlx5_prm.h>

#include "mlx5_emu_net.h"

#define EMU_LRO_TCP_ACK 0x10
#define EMU_LRO_TCP_PSH 0x08

uint32_t emu_lro_open_n;
static TAILQ_HEAD(, emu_rq) emu_lro_list =
	TAILQ_HEAD_INITIALIZER(emu_lro_list);

static inline uint32_t
emu_lro_rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* TCP header length of an eligible frame, or 0 (see the top). */
static uint32_t
emu_lro_eligible(const struct emu_tir *tir, const uint8_t *f,
		 const struct emu_pkt *p)
{
	const uint8_t *tcp = f + p->l4_off;
	uint32_t hl;

	if (!(tir->lro_mask & (p->ipv4 ? MLX5_TIRC_LRO_ENABLE_MASK_IPV4_LRO :
			       p->ipv6 ? MLX5_TIRC_LRO_ENABLE_MASK_IPV6_LRO :
			       0)) ||
	    p->vlan || p->frag || p->l4_proto != 6 || p->l4_off == 0)
		return 0;
	/* IPv4 without options; IPv6 with TCP as its next header. */
	if (p->ipv4 ? p->l4_off != p->l3_off + 20 :
	    p->l4_off != p->l3_off + 40)
		return 0;
	hl = (tcp[12] >> 4) * 4u;
	/* No TCP option but the timestamp (RFC 7323 layout NOP NOP TS). */
	if (hl != 20 && !(hl == 32 && tcp[20] == 1 && tcp[21] == 1 &&
			  tcp[22] == 8 && tcp[23] == 10))
		return 0;
	if ((tcp[13] != EMU_LRO_TCP_ACK &&
	     tcp[13] != (EMU_LRO_TCP_ACK | EMU_LRO_TCP_PSH)) ||
	    p->l4_len <= hl || p->l4_off + p->l4_len != p->len)
		return 0;
	if ((p->ipv4 && emu_ipv4_hdr_csum(f, p) != 0) ||
	    emu_l4_csum(f, p) != 0)
		return 0;
	return hl;
}

/* Sum of a payload placed at byte offset at of the coalesced payload. */
static uint32_t
emu_lro_psum(uint32_t at, const uint8_t *b, uint32_t n)
{
	uint16_t s = emu_csum_fold(emu_csum_add(0, b, n));

	/* At an odd offset every byte is in the other half of its word. */
	return (at & 1) ? (uint16_t)(s << 8 | s >> 8) : s;
}

/* Write n bytes at offset off of the WQE's buffers (within its room). */
static void
emu_lro_write(const struct emu_rq *rq, uint16_t idx, uint32_t off,
	      const uint8_t *src, uint32_t n)
{
	uint32_t mask = (1u << rq->wq.log_sz) - 1;
	const uint8_t *d = rq->wq.ring + ((size_t)(idx & mask) <<
					  rq->wq.log_stride);

	while (n > 0) {
		uint32_t bc = emu_be32_at(d), k;

		if (off >= bc) {
			off -= bc;
			d += 16;
			continue;
		}
		k = RTE_MIN(bc - off, n);
		memcpy((uint8_t *)(uintptr_t)(emu_be64_at(d + 8) + off), src,
		       k);
		src += k;
		n -= k;
		off = 0;
		d += 16;
	}
}

/*
 * The room of WQE idx: its data segments up to the first end marker or
 * the first one not wholly inside a writable MR of the RQ's PD (a
 * session may fill any byte of them).
 */
static uint32_t
emu_lro_room(struct emu_rq *rq, uint16_t idx)
{
	uint32_t mask = (1u << rq->wq.log_sz) - 1;
	unsigned int nsegs = 1u << (rq->wq.log_stride - 4), i;
	const uint8_t *wqe = rq->wq.ring + ((size_t)(idx & mask) <<
					    rq->wq.log_stride);
	uint32_t room = 0;

	for (i = 0; i < nsegs; i++) {
		const uint8_t *d = wqe + 16 * i;
		uint32_t bc = emu_be32_at(d), lkey = emu_be32_at(d + 4);

		if (bc == 0 || lkey == 0x100 /* MLX5_INVALID_LKEY */ ||
		    emu_mr_check_wq(rq->net, &rq->wq, lkey, emu_be64_at(d + 8),
				    bc, 1) != 0)
			break;
		room += bc;
	}
	return room;
}

void
emu_lro_close(struct emu_rq *rq)
{
	struct emu_lro *s = &rq->lro;
	struct mlx5_emu_wc *cpl;

	rq->lro_open = 0;
	TAILQ_REMOVE(&emu_lro_list, rq, lro.next);
	emu_lro_open_n--;
	rq->ci++;
	cpl = emu_engine_wc(&rq->wq);
	cpl->kind = MLX5_EMU_WC_RESP;
	cpl->byte_cnt = s->len;
	cpl->wqe_counter = s->idx;
	cpl->rx_hash_res = s->hash;
	cpl->rx_hash_type = s->hash_type;
	cpl->qpn = s->meta.flow_tag;
	cpl->flow_table_metadata = s->meta.ft_meta;
	cpl->hdr_type_etc = s->ht;
	cpl->csum = s->csum1;
	if (s->nseg < 2)
		return; /* Plain (readers: lro_num_seg > 1). */
	cpl->csum = emu_csum_fold(s->psum);
	cpl->lro_num_seg = (uint8_t)s->nseg;
	cpl->lro_tcppsh_abort_dupack = s->psh ? MLX5_CQE_LRO_PUSH_MASK : 0;
	cpl->lro_min_ttl = s->min_ttl;
	cpl->lro_tcp_win = s->win;
	cpl->lro_ack_seq_num = s->ack;
}

void
emu_lro_close_now(struct emu_rq *rq)
{
	emu_engine_pass_begin();
	emu_lro_close(rq);
	emu_engine_pass_end();
}

void
emu_lro_expire(uint64_t now_ns)
{
	struct emu_rq *rq, *tmp;

	for (rq = TAILQ_FIRST(&emu_lro_list); rq != NULL; rq = tmp) {
		tmp = TAILQ_NEXT(rq, lro.next);
		if (now_ns - rq->lro.last_ns >= rq->lro.timeout_ns)
			emu_lro_close(rq);
	}
}

/*
 * Frame f (eligible, TCP header hl bytes) continues rq's session: the
 * headers but the fields that vary per segment are the first one's, the
 * sequence is the next expected, the ack is not behind.
 */
static int
emu_lro_continues(const struct emu_lro *s, const uint8_t *f,
		  const struct emu_pkt *p, uint32_t hl)
{
	uint8_t h[EMU_LRO_HDR_MAX];
	uint32_t l3 = p->l3_off, l4 = p->l4_off;
	const uint8_t *tcp = f + l4;

	if (p->l4_off != s->l4_off || l4 + hl != s->hdr_len ||
	    (uint32_t)p->ipv6 != s->ipv6 ||
	    emu_lro_rd32(tcp + 4) != s->next_seq ||
	    (int32_t)(emu_lro_rd32(tcp + 8) - s->ack) < 0)
		return 0;
	memcpy(h, f, s->hdr_len);
	if (p->ipv4) {
		/* Total length, identification, TTL, header checksum. */
		memcpy(h + l3 + 2, s->hdr + l3 + 2, 4);
		h[l3 + 8] = s->hdr[l3 + 8];
		memcpy(h + l3 + 10, s->hdr + l3 + 10, 2);
	} else {
		/* Payload length, hop limit. */
		memcpy(h + l3 + 4, s->hdr + l3 + 4, 2);
		h[l3 + 7] = s->hdr[l3 + 7];
	}
	/* Sequence, ack, flags, window, checksum; timestamp values. */
	memcpy(h + l4 + 4, s->hdr + l4 + 4, 8);
	memcpy(h + l4 + 13, s->hdr + l4 + 13, 5);
	if (hl == 32)
		memcpy(h + l4 + 24, s->hdr + l4 + 24, 8);
	return memcmp(h, s->hdr, s->hdr_len) == 0;
}

static uint8_t
emu_lro_ttl(const uint8_t *f, const struct emu_pkt *p)
{
	return f[p->l3_off + (p->ipv4 ? 8 : 7)];
}

/* Account segment f (payload pl at b) to the session. */
static void
emu_lro_add(struct emu_rq *rq, const uint8_t *f, const struct emu_pkt *p,
	    uint32_t hl)
{
	struct emu_lro *s = &rq->lro;
	const uint8_t *tcp = f + p->l4_off;
	uint32_t pl = p->l4_len - hl;

	s->psum += emu_lro_psum(s->plen, tcp + hl, pl);
	s->plen += pl;
	s->nseg++;
	s->next_seq = emu_lro_rd32(tcp + 4) + pl;
	s->ack = emu_lro_rd32(tcp + 8);
	s->win = (uint16_t)(tcp[14] << 8 | tcp[15]);
	s->psh = (tcp[13] & EMU_LRO_TCP_PSH) != 0;
	s->min_ttl = RTE_MIN(s->min_ttl, emu_lro_ttl(f, p));
	s->last_ns = emu_engine_clock_ns();
	rq->net->pstats.rx_packets++;
	rq->net->pstats.rx_bytes += p->len;
}

/* Open a session with frame f in the RQ's next WQE; 0 when it does not
 * fit (the frame then goes the plain way).
 */
static int
emu_lro_open(struct emu_rq *rq, const struct emu_tir *tir, const uint8_t *f,
	     const struct emu_pkt *p, uint32_t hl, uint32_t hash,
	     uint8_t hash_type, const struct emu_rx_meta *meta)
{
	struct emu_lro *s = &rq->lro;
	uint32_t room;
	uint16_t idx;

	if (p->len - p->l4_off > tir->lro_max)
		return 0;
	idx = rq->ci;
	room = emu_lro_room(rq, idx);
	if (room < p->len)
		return 0;
	emu_lro_write(rq, idx, 0, f, p->len);
	s->idx = idx;
	s->room = room;
	s->len = p->len;
	s->max = tir->lro_max;
	s->timeout_ns = (uint64_t)tir->lro_timeout_us * 1000;
	s->l4_off = p->l4_off;
	s->hdr_len = (uint16_t)(p->l4_off + hl);
	s->ipv6 = p->ipv6;
	memcpy(s->hdr, f, s->hdr_len);
	s->hash = hash;
	s->hash_type = hash_type;
	s->meta.flow_tag = meta != NULL ? meta->flow_tag : 0;
	s->meta.ft_meta = meta != NULL ? meta->ft_meta : 0;
	s->ht = emu_rx_hdr_type(f, p, &s->csum1);
	s->nseg = 0;
	s->psum = 0;
	s->plen = 0;
	s->min_ttl = 0xff;
	emu_lro_add(rq, f, p, hl);
	rq->lro_open = 1;
	TAILQ_INSERT_TAIL(&emu_lro_list, rq, lro.next);
	emu_lro_open_n++;
	emu_rq_last = rq;
	return 1;
}

void
emu_lro_receive(struct emu_rq *rq, const struct emu_tir *tir,
		const uint8_t *frame, const struct emu_pkt *pkt,
		uint32_t hash, uint8_t hash_type,
		const struct emu_rx_meta *meta)
{
	struct emu_lro *s = &rq->lro;
	uint32_t hl = 0, pl;

	if (rq->wq.state == EMU_Q_RDY && !rq->striding && tir->lro_mask != 0)
		hl = emu_lro_eligible(tir, frame, pkt);
	if (rq->lro_open) {
		pl = pkt->l4_len - hl;
		if (hl != 0 &&
		    emu_engine_clock_ns() - s->last_ns < s->timeout_ns &&
		    emu_lro_continues(s, frame, pkt, hl) &&
		    s->len + pl - s->l4_off <= s->max &&
		    s->len + pl <= s->room) {
			emu_lro_write(rq, s->idx, s->len,
				      frame + pkt->l4_off + hl, pl);
			s->len += pl;
			emu_lro_add(rq, frame, pkt, hl);
			if (s->psh)
				emu_lro_close(rq);
			return;
		}
		emu_lro_close(rq);
	}
	if (hl == 0) {
		emu_rq_receive(rq, frame, pkt, hash, hash_type, meta);
		return;
	}
	/* No WQE, or a first frame too long for one: the plain path. */
	if (!emu_rq_has_wqe(rq) ||
	    !emu_lro_open(rq, tir, frame, pkt, hl, hash, hash_type, meta)) {
		emu_rq_receive(rq, frame, pkt, hash, hash_type, meta);
		return;
	}
	if (s->psh)
		emu_lro_close(rq);
}
