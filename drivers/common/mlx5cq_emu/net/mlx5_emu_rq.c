/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Receive queues: CREATE_RQ 0x908, MODIFY_RQ 0x909, destroy, and the
 * delivery of one frame into an RQ.
 *
 * An RQ is a cyclic WQ (checks in mlx5_emu_sq.c) of 2^log_wq_stride-byte
 * WQEs, each a list of 16 B data segments (byte_count, lkey, addr; a
 * segment with byte_count 0 or lkey MLX5_INVALID_LKEY ends the list);
 * memory RQ only (no RMP), the CQ exists, created in RST; MODIFY_RQ may
 * change the state (as the SQ), vsd and lwm.
 *
 * Delivery: the doorbell record's word 0 (big-endian, 16 bits) counts the
 * WQEs software posted; when the device's counter has caught up the frame
 * is dropped (rx_out_of_buffer; also counted in the RQ's counter set,
 * rqc.counter_set_id, mlx5_emu_qcnt.c). Otherwise the VLAN tag is stripped unless
 * vsd (hdr_type_etc bit 0, vlan_info = TCI), the frame is scattered over
 * the WQE's segments after checking each against the MRs of the RQ's PD
 * with local write access (else responder error CQE 0x04 LOC_PROT_ERR) and
 * the WQE's room (a longer frame: 0x01 LOC_LEN_ERR, nothing written); an
 * error CQE moves the RQ to ERR. The responder CQE (RESP_SEND) carries
 * byte_cnt, wqe_counter = WQE index, the RSS hash result and type,
 * hdr_type_etc = hds_ip_ext << 8 | l4_l3_hdr_type (kernel mlx5_cqe64:
 * L2_OK 0x1, L3_OK 0x2, L4_OK 0x4; l3 type bits 3:2 IPv6 1 / IPv4 2, l4
 * type bits 6:4 TCP 1 / UDP 2 / TCP ACK without data 3 / TCP ACK with data
 * 4, bit 7 IPv4 fragment, bit 0 VLAN stripped), L3_OK/L4_OK computed by
 * verifying the checksums in the frame (IPv6 has no header checksum: L3_OK
 * when the header is whole; UDP over IPv4 with checksum 0 is OK), csum =
 * the 16-bit one's complement sum of the bytes after the 14-byte Ethernet
 * header, and the timestamp of the model clock (sampled once per engine
 * batch). Completions are staged with emu_engine_cpl() and written in
 * batches; on a CQ with compression the frames delivered in one pass form
 * sessions, closed at the end of the pass (mlx5_emu_engine.c). The
 * doorbell record is read again only when the WQEs it announced last are
 * used up (a device reads doorbells asynchronously too).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_atomic.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_prefetch.h>
#include <mlx5_prm.h>

#include "mlx5_emu_net.h"
#include "mlx5_emu_prefetch.h"

#define EMU_INVALID_LKEY 0x100 /* MLX5_INVALID_LKEY (rdma-core). */
#define EMU_RQ_PF_WQE 16 /* WQEs prefetched ahead. */
#define EMU_RQ_PF_BUF 4 /* WQEs ahead whose buffer is prefetched. */
#define EMU_RQ_PF_START 32 /* Frames of a batch prefetched for at once. */

struct emu_rq *
emu_rq_lookup(struct emu_net *net, uint32_t rqn)
{
	struct emu_rq *rq;

	TAILQ_FOREACH(rq, &net->rqs, next)
		if (rq->rqn == rqn)
			return rq;
	return NULL;
}

int
emu_rq_create(struct emu_dev *dev, struct emu_net *net, const void *in,
	      size_t inlen, void *out, size_t outlen, uint32_t *id,
	      void **priv)
{
	const void *rqc = EMU_ADDR_OF(create_rq_in, in, ctx);
	const void *wq = EMU_ADDR_OF(rqc, rqc, wq);
	struct emu_qcnt *qcnt;
	struct emu_wq w;
	struct emu_cq *cq;
	struct emu_rq *rq;
	int ret, ts;

	ret = emu_net_check_lens(dev, "CREATE_RQ", inlen,
				 MLX5_ST_SZ_BYTES(create_rq_in), out, outlen,
				 MLX5_ST_SZ_BYTES(create_rq_out));
	if (ret != 0)
		return ret;
	if (EMU_GET(create_rq_in, in, op_mod) != 0 ||
	    EMU_GET(rqc, rqc, rlky) || EMU_GET(rqc, rqc, delay_drop_en) ||
	    EMU_GET(rqc, rqc, scatter_fcs) ||
	    EMU_GET(rqc, rqc, mem_rq_type) !=
	    MLX5_RQC_MEM_RQ_TYPE_MEMORY_RQ_INLINE ||
	    EMU_GET(rqc, rqc, hairpin) ||
	    EMU_GET(rqc, rqc, hairpin_data_buffer_type) ||
	    EMU_GET(rqc, rqc, rmpn) ||
	    EMU_GET(rqc, rqc, hairpin_peer_sq) ||
	    EMU_GET(rqc, rqc, hairpin_peer_vhca)) {
		EMU_LOG(ERR, "%s: CREATE_RQ: feature not modelled (RMP, "
			"hairpin, FCS scatter, delay drop)",
			dev->name);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_RESERVED);
	}
	if (EMU_GET(rqc, rqc, state) != EMU_Q_RST) {
		EMU_LOG(ERR, "%s: CREATE_RQ: state %u, must be RST",
			dev->name, EMU_GET(rqc, rqc, state));
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_STATE);
	}
	/* A clock the caps offer (mlx5_emu_clock.c). */
	ret = emu_clock_queue_format(dev, "CREATE_RQ",
				     EMU_GET(rqc, rqc, ts_format), &ts, out,
				     outlen);
	if (ret != 0)
		return ret;
	cq = emu_cq_lookup(dev, EMU_GET(rqc, rqc, cqn));
	if (cq == NULL) {
		EMU_LOG(ERR, "%s: CREATE_RQ: CQ 0x%x unknown", dev->name,
			EMU_GET(rqc, rqc, cqn));
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_BAD_RES_ERR,
				    MLX5_EMU_SYND_NET_CQ);
	}
	qcnt = EMU_GET(rqc, rqc, counter_set_id) == 0 ? NULL :
	       emu_qcnt_lookup(net, EMU_GET(rqc, rqc, counter_set_id));
	if (EMU_GET(rqc, rqc, counter_set_id) != 0 && qcnt == NULL) {
		EMU_LOG(ERR, "%s: CREATE_RQ: counter set 0x%x not allocated",
			dev->name, EMU_GET(rqc, rqc, counter_set_id));
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_QCNT);
	}
	ret = emu_wq_setup(dev, wq, 0, &w, out, outlen, "CREATE_RQ");
	if (ret != 0)
		return ret;
	rq = calloc(1, sizeof(*rq));
	if (rq == NULL)
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_LIM_ERR,
				    MLX5_EMU_SYND_NONE);
	rq->net = net;
	rq->rqn = emu_net_new_id(net);
	rq->wq = w;
	rq->wq.cq = cq;
	rq->wq.cqn = cq->cqn;
	rq->wq.cyclic_rq = 1;
	emu_clock_wq_init(dev, &rq->wq, ts);
	rq->vsd = EMU_GET(rqc, rqc, vsd);
	w.umem->refcnt++;
	if (w.dbr_umem != w.umem)
		w.dbr_umem->refcnt++;
	rq->qcnt = qcnt;
	if (qcnt != NULL)
		qcnt->refcnt++;
	emu_net_lock();
	TAILQ_INSERT_TAIL(&net->rqs, rq, next);
	net->nstats.rqs++;
	emu_net_unlock();
	emu_cmd_ok(out, outlen);
	MLX5_SET(create_rq_out, out, rqn, rq->rqn);
	*id = rq->rqn;
	*priv = rq;
	return 0;
}

int
emu_rq_modify(struct emu_dev *dev, struct emu_rq *rq, const void *in,
	      size_t inlen, void *out, size_t outlen)
{
	const void *rqc = EMU_ADDR_OF(modify_rq_in, in, ctx);
	uint64_t mask;
	unsigned int cur, to;
	int ret;

	ret = emu_net_check_lens(dev, "MODIFY_RQ", inlen,
				 MLX5_ST_SZ_BYTES(modify_rq_in), out, outlen,
				 MLX5_ST_SZ_BYTES(modify_rq_out));
	if (ret != 0)
		return ret;
	if (EMU_GET(modify_rq_in, in, rqn) != rq->rqn) {
		EMU_LOG(ERR, "%s: MODIFY_RQ: rqn 0x%x is not this object "
			"(0x%x)", dev->name, EMU_GET(modify_rq_in, in, rqn),
			rq->rqn);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_OBJ_ID);
	}
	mask = EMU_GET64(modify_rq_in, in, modify_bitmask);
	if ((mask & ~(uint64_t)(MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_WQ_LWM |
				MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_VSD)) != 0 ||
	    EMU_GET(rqc, rqc, hairpin_peer_sq) != 0 ||
	    EMU_GET(rqc, rqc, hairpin_peer_vhca) != 0) {
		EMU_LOG(ERR, "%s: MODIFY_RQ: modify_bitmask 0x%" PRIx64
			" (only state, vsd, lwm)", dev->name, mask);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_RESERVED);
	}
	cur = EMU_GET(modify_rq_in, in, rq_state);
	to = EMU_GET(rqc, rqc, state);
	emu_net_lock();
	if (cur == to && cur == rq->wq.state && mask != 0)
		ret = 0; /* Attribute change without a transition. */
	else
		ret = emu_q_modify_state(dev, "MODIFY_RQ", rq->rqn,
					 &rq->wq.state, cur, to, out, outlen);
	if (ret == 0) {
		rq->wq.state = to;
		if (to == EMU_Q_RST) {
			rq->ci = 0;
			rq->posted = 0;
		}
		if (mask & MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_VSD)
			rq->vsd = EMU_GET(rqc, rqc, vsd);
	}
	emu_net_unlock();
	if (ret != 0)
		return ret;
	emu_cmd_ok(out, outlen);
	emu_engine_update();
	return 0;
}

int
emu_rq_destroy(struct emu_dev *dev, struct emu_rq *rq)
{
	struct emu_net *net = rq->net;

	(void)dev;
	emu_net_lock();
	TAILQ_REMOVE(&net->rqs, rq, next);
	emu_rq_gen++;
	if (emu_rq_last == rq)
		emu_rq_last = NULL;
	net->nstats.rqs--;
	if (rq->qcnt != NULL)
		rq->qcnt->refcnt--;
	emu_wq_release(&rq->wq);
	emu_net_unlock();
	free(rq);
	emu_engine_update();
	return 0;
}

/* Delivery (emu_net_lock held). */

static uint8_t emu_rx_frame[EMU_MAX_FRAME];
uint32_t emu_rq_gen;
const struct emu_rq *emu_rq_last;

void
emu_rq_prefetch_start(const struct emu_rq *rq, unsigned int n)
{
	uint32_t mask = (1u << rq->wq.log_sz) - 1;
	unsigned int k, step = RTE_MAX(1u, 64u >> rq->wq.log_stride);

	if (rq->wq.state != EMU_Q_RDY)
		return;
	n = RTE_MIN(n, (unsigned int)EMU_RQ_PF_START);
	rte_prefetch0((const void *)(uintptr_t)rq->wq.dbrec);
	for (k = 0; k < n; k += step)
		rte_prefetch0(rq->wq.ring + ((size_t)((rq->ci + k) & mask) <<
					     rq->wq.log_stride));
	emu_cq_prefetch_next(rq->wq.cq, n);
}

/*
 * hdr_type_etc of a parsed frame (VLAN bit excluded) and its csum field.
 * An IPv4 header right after the Ethernet header is summed once for all:
 * its sum (the header checksum check) plus the sum of the bytes after it
 * (ihl is even: the words stay aligned) is the csum field's sum, and when
 * the TCP/UDP segment is those bytes, they with the pseudo header are its
 * checksum's sum.
 */
static uint16_t
emu_rx_hdr_type(const uint8_t *f, const struct emu_pkt *pp, uint16_t *csum)
{
	const struct emu_pkt p = *pp;
	uint32_t len = p.len;
	uint16_t ht = 0x1 << 8; /* L2_OK. */
	int split = p.ipv4 && p.l3_off == 14;
	uint32_t ihl = split ? (f[14] & 0xf) * 4u : 0;
	uint32_t hsum = 0, rest = 0;
	int l4_rest = 0;

	if (split) {
		hsum = emu_csum_add(0, f + 14, ihl);
		rest = emu_csum_add(0, f + 14 + ihl, len - 14 - ihl);
		*csum = emu_csum_fold(hsum + rest);
		l4_rest = p.l4_off == 14 + ihl && p.l4_off + p.l4_len == len;
	} else {
		*csum = len > 14 ?
			emu_csum_fold(emu_csum_add(0, f + 14, len - 14)) : 0;
	}
	if (p.ipv4) {
		ht |= 2 << 2;
		if ((split ? (uint16_t)~emu_csum_fold(hsum) :
		     emu_ipv4_hdr_csum(f, &p)) == 0)
			ht |= 0x2 << 8;
		if (p.frag)
			ht |= 1 << 7;
	} else if (p.ipv6) {
		ht |= (1 << 2) | (0x2 << 8);
	}
	if (p.l4_off != 0 && !p.frag) {
		if (p.l4_proto == 17) {
			ht |= 2 << 4;
		} else {
			const uint8_t *tcp = f + p.l4_off;
			unsigned int hl = (tcp[12] >> 4) * 4u;
			int ack = (tcp[13] & 0x10) != 0;

			ht |= (uint16_t)((!ack ? 1 : p.l4_len > hl ? 4 : 3)
					 << 4);
		}
		if ((p.l4_proto == 17 && p.ipv4 &&
		     f[p.l4_off + 6] == 0 && f[p.l4_off + 7] == 0) ||
		    (l4_rest ? (uint16_t)~emu_csum_fold(emu_l4_pseudo_sum(f, &p) +
						       rest) :
		     emu_l4_csum(f, &p)) == 0)
			ht |= 0x4 << 8;
	}
	return ht;
}

/* An error completion for WQE idx; the RQ goes to ERR unless keep_rdy. */
static void
emu_rq_error_cpl(struct emu_rq *rq, uint16_t idx, uint8_t syndrome,
		 const char *why, int keep_rdy)
{
	struct mlx5_emu_cpl *cpl;

	EMU_LOG(DEBUG, "%s: RQ 0x%x: WQE %u: %s (syndrome 0x%02x)%s",
		rq->net->dev->name, rq->rqn, idx, why, syndrome,
		keep_rdy ? "" : ", RQ to error");
	rq->net->pstats.rx_errors++;
	if (!keep_rdy)
		rq->wq.state = EMU_Q_ERR;
	rq->ci++;
	cpl = emu_engine_cpl(&rq->wq);
	cpl->kind = MLX5_EMU_CPL_RESP_ERR;
	cpl->syndrome = syndrome;
	cpl->wqe_counter = idx;
	cpl->qpn = rq->rqn;
	cpl->timestamp = 0;
}

static void
emu_rq_error(struct emu_rq *rq, uint16_t idx, uint8_t syndrome,
	     const char *why)
{
	emu_rq_error_cpl(rq, idx, syndrome, why, 0);
}

/*
 * The WQEs a fresh doorbell read announced: the sliding prefetch of
 * emu_rq_prefetch() reaches EMU_RQ_PF_WQE WQEs (EMU_RQ_PF_BUF buffers)
 * ahead only, so fetch the first ones at once (their loads overlap).
 */
static void
emu_rq_prefetch_batch(const struct emu_rq *rq)
{
	uint32_t mask = (1u << rq->wq.log_sz) - 1;
	uint16_t ahead = (uint16_t)(rq->posted - rq->ci);
	uint16_t k, nw = RTE_MIN(ahead, (uint16_t)EMU_RQ_PF_WQE);
	uint16_t nb = RTE_MIN(ahead, (uint16_t)EMU_RQ_PF_BUF);
	const uint8_t *w;

	/* WQEs of 16 B share lines: one prefetch per line. */
	for (k = 0; k < nw; k += RTE_MAX(1u, 64u >> rq->wq.log_stride))
		rte_prefetch0(rq->wq.ring + ((size_t)((rq->ci + k) & mask) <<
					     rq->wq.log_stride));
	for (k = 0; k < nb; k++) {
		w = rq->wq.ring + ((size_t)((rq->ci + k) & mask) <<
				   rq->wq.log_stride);
		emu_prefetch_write((const void *)(uintptr_t)emu_be64_at(w + 8));
	}
}

/* A WQE is posted: the cached doorbell value, else a fresh read. */
static int
emu_rq_has_wqe(struct emu_rq *rq)
{
	if (rq->posted != rq->ci)
		return 1;
	/* The acquire orders the reads of every WQE it announces. */
	rq->posted = rte_be_to_cpu_32(__atomic_load_n(
		&rq->wq.dbrec[MLX5_RCV_DBR], __ATOMIC_ACQUIRE)) & 0xffff;
	if (rq->posted == rq->ci)
		return 0;
	emu_rq_prefetch_batch(rq);
	return 1;
}

/*
 * Prefetch the WQE EMU_RQ_PF_WQE ahead and, for writing, the first buffer
 * of the WQE EMU_RQ_PF_BUF ahead (posted WQEs only): both were written by
 * the consumer's core.
 */
static void
emu_rq_prefetch(const struct emu_rq *rq, uint32_t mask)
{
	uint16_t ahead = (uint16_t)(rq->posted - rq->ci);
	const uint8_t *w;

	if (ahead > EMU_RQ_PF_WQE)
		rte_prefetch0(rq->wq.ring + ((size_t)((rq->ci + EMU_RQ_PF_WQE) &
			      mask) << rq->wq.log_stride));
	if (ahead > EMU_RQ_PF_BUF) {
		w = rq->wq.ring + ((size_t)((rq->ci + EMU_RQ_PF_BUF) & mask) <<
				   rq->wq.log_stride);
		emu_prefetch_write((const void *)(uintptr_t)emu_be64_at(w + 8));
	}
}

void
emu_rq_receive(struct emu_rq *rq, const uint8_t *frame,
	       const struct emu_pkt *pkt, uint32_t hash, uint8_t hash_type,
	       const struct emu_rx_meta *meta)
{
	struct emu_net *net = rq->net;
	uint32_t mask = (1u << rq->wq.log_sz) - 1;
	unsigned int nsegs = 1u << (rq->wq.log_stride - 4), i;
	uint32_t len = pkt->len;
	const uint8_t *wqe;
	struct mlx5_emu_cpl *cpl;
	struct emu_pkt stripped;
	uint32_t room = 0, left, done;
	uint16_t idx, vlan = 0;
	int strip = 0;

	if (rq->wq.state != EMU_Q_RDY) {
		net->pstats.rx_no_queue++;
		return;
	}
	if (!emu_rq_has_wqe(rq)) {
		net->pstats.rx_out_of_buffer++;
		if (rq->qcnt != NULL)
			rq->qcnt->out_of_buffer++;
		return;
	}
	idx = rq->ci;
	if (emu_wire_rx_fault_take(net)) {
		emu_rq_error_cpl(rq, idx, EMU_SYND_LOC_LEN_ERR,
				 "injected error, RQ kept RDY", 1);
		return;
	}
	wqe = rq->wq.ring + ((size_t)(idx & mask) << rq->wq.log_stride);
	emu_rq_prefetch(rq, mask);
	if (!rq->vsd && len >= 18 && frame[12] == 0x81 && frame[13] == 0x00) {
		strip = 1;
		vlan = (uint16_t)(frame[14] << 8 | frame[15]);
		memcpy(emu_rx_frame, frame, 12);
		memcpy(emu_rx_frame + 12, frame + 16, len - 16);
		frame = emu_rx_frame;
		len -= 4;
		emu_pkt_parse(frame, len, &stripped);
		pkt = &stripped;
	}
	/* Check every segment the frame needs before writing any. */
	for (i = 0, left = len; i < nsegs && left > 0; i++) {
		const uint8_t *d = wqe + 16 * i;
		uint32_t bc = emu_be32_at(d), lkey = emu_be32_at(d + 4);
		uint32_t n;

		if (bc == 0 || lkey == EMU_INVALID_LKEY)
			break;
		n = bc < left ? bc : left;
		if (emu_mr_check_wq(net, &rq->wq, lkey, emu_be64_at(d + 8), n,
				    1) != 0) {
			emu_rq_error(rq, idx, EMU_SYND_LOC_PROT_ERR,
				     "data segment outside a writable MR");
			return;
		}
		room += n;
		left -= n;
	}
	if (room < len) {
		emu_rq_error(rq, idx, EMU_SYND_LOC_LEN_ERR,
			     "frame longer than the WQE's buffers");
		return;
	}
	for (i = 0, done = 0; done < len; i++) {
		const uint8_t *d = wqe + 16 * i;
		uint32_t bc = emu_be32_at(d);
		uint32_t n = bc < len - done ? bc : len - done;

		emu_copy((uint8_t *)(uintptr_t)emu_be64_at(d + 8), frame + done,
			 n);
		done += n;
	}
	rq->ci++;
	emu_rq_last = rq;
	net->pstats.rx_packets++;
	net->pstats.rx_bytes += len;
	/*
	 * The CQE is written later, with the CQ's stage; its owner byte is a
	 * release store, which orders the data above before it.
	 */
	cpl = emu_engine_cpl(&rq->wq);
	cpl->kind = MLX5_EMU_CPL_RESP;
	cpl->byte_cnt = len;
	cpl->wqe_counter = idx;
	cpl->rx_hash_res = hash;
	cpl->rx_hash_type = hash_type;
	if (meta != NULL) {
		cpl->qpn = meta->flow_tag;
		cpl->flow_table_metadata = meta->ft_meta;
	}
	cpl->hdr_type_etc = emu_rx_hdr_type(frame, pkt, &cpl->csum);
	if (strip) {
		cpl->hdr_type_etc |= MLX5_CQE_VLAN_STRIPPED;
		cpl->vlan_info = vlan;
	}
}
