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
 * batch). Completions are staged with emu_engine_wc() and written in
 * batches; on a CQ with compression the frames delivered in one pass form
 * sessions, closed at the end of the pass (mlx5_emu_engine.c). The
 * doorbell record is read again only when the WQEs it announced last are
 * used up (a device reads doorbells asynchronously too).
 *
 * Striding RQ (wq_type MLX5_WQ_TYPE_CYCLIC_STRIDING_RQ, HCA_CAP.striding_rq;
 * DPDK mlx5_devx.c mlx5_rxq_create_devx_rq_resources, kernel mlx5_ib
 * qp.c create_rq): a WQE is a struct mlx5_wqe_mprq (mlx5_prm.h: a 16 B
 * next segment, then one data segment whose buffer holds the WQE's
 * 2^log_strd_num strides of 2^log_strd_sz bytes). A frame takes
 * ceil(len / stride size) strides from the WQE's next free one, written
 * at buffer + stride * size; its CQE carries byte_cnt = len | strides <<
 * MLX5_MPRQ_STRIDE_NUM_SHIFT, wqe_counter = its first stride, wqe_id = the
 * WQE's index (DPDK mlx5_rx_burst_mprq, mprq_buf_to_pkt; kernel en_rx.c
 * mlx5e_handle_rx_cqe_mpwrq: mpwrq_get_cqe_consumed_strides, the stride
 * index from cqe->wqe_counter, the WQE from cqe->wqe_id). When the
 * strides left in the WQE are fewer than the frame needs, a filler CQE
 * (byte_cnt = MLX5_MPRQ_FILLER_MASK | left << 16, wqe_counter = the first
 * left stride; kernel mpwrq_is_filler_cqe, DPDK mlx5_rx_burst_mprq's
 * MLX5_MPRQ_FILLER_MASK test) consumes them and the frame goes to the next
 * posted WQE. A WQE is released (the device's counter, compared with the
 * doorbell record's WQE count as for cyclic RQs) when its strides are
 * used up. A frame longer than a whole WQE completes with LOC_LEN_ERR.
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

/* The striding parameters of a WQ context. */
struct emu_rq_strd {
	uint8_t striding;
	uint8_t log_strd_num;
	uint8_t log_strd_sz;
};

#define EMU_MPRQ_WQE_LOG_SIZE 5 /* sizeof(struct mlx5_wqe_mprq), log2. */
/*
 * log_min_stride_wqe_sz: cmd_hca_cap_2 is not reported (hca_cap_2 0), so
 * consumers take DPDK's MLX5_MPRQ_LOG_MIN_STRIDE_WQE_SIZE (mlx5_devx_cmds.c
 * mlx5_devx_cmd_query_hca_attr; mlx5_rxq.c mlx5_mprq_prepare keeps
 * log strides + log stride size at least that).
 */
#define EMU_LOG_MIN_STRIDE_WQE_SZ 14

/*
 * Decode and check the striding fields of a CREATE_RQ's WQ context (0, or
 * the command failed). Not striding: nothing to decode (emu_wq_setup()
 * refuses stride fields on a cyclic WQ).
 */
static int
emu_rq_striding_decode(struct emu_dev *dev, const void *wq,
		       struct emu_rq_strd *sd, void *out, size_t outlen)
{
	unsigned int enc, log_num, log_sz;

	memset(sd, 0, sizeof(*sd));
	if (EMU_GET(wq, wq, wq_type) != MLX5_WQ_TYPE_CYCLIC_STRIDING_RQ)
		return 0;
	/* Kernel create_user_rq/create_rq: striding RQs need
	 * MLX5_CAP_GEN(striding_rq) (EOPNOTSUPP).
	 */
	if (!dev->caps.striding_rq) {
		EMU_LOG(ERR, "%s: CREATE_RQ: striding RQ without the "
			"striding_rq capability", dev->name);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_WQ_TYPE);
	}
	/* Kernel: two_byte_shift_en (IB_MP_RQ_2BYTES_SHIFT) shifts the
	 * data by 2 bytes in every stride: not modelled.
	 */
	if (EMU_GET(wq, wq, two_byte_shift_en)) {
		EMU_LOG(ERR, "%s: CREATE_RQ: two_byte_shift_en not modelled",
			dev->name);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_RESERVED);
	}
	/*
	 * log_wqe_num_of_strides (DPDK single_wqe_log_num_of_strides, 4
	 * bits): 0..7 are 2^9..2^16 strides; 10..15 are 2^3..2^8, with
	 * ext_stride_num_range only (kernel qp.c create_rq fw_map; DPDK
	 * writes log_strd_num - MLX5_MIN_SINGLE_WQE_LOG_NUM_STRIDES in 4
	 * bits, the same encoding; kernel main.c min 3 only with
	 * ext_stride_num_range); 8 and 9 mean nothing.
	 */
	enc = EMU_GET(wq, wq, single_wqe_log_num_of_strides);
	if (enc <= 7) {
		log_num = enc + 9;
	} else if (enc >= 10 && dev->caps.ext_stride_num_range) {
		log_num = enc - 7;
	} else {
		EMU_LOG(ERR, "%s: CREATE_RQ: log_wqe_num_of_strides %u "
			"invalid (0..7: 2^9..2^16 strides; 10..15: 2^3..2^8, "
			"ext_stride_num_range %u)", dev->name, enc,
			dev->caps.ext_stride_num_range);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_STRIDE_NUM);
	}
	/* log_wqe_stride_size (3 bits): 64 B << v, 2^6..2^13 (kernel
	 * MLX5_MIN/MAX_SINGLE_STRIDE_LOG_NUM_BYTES; every value is valid).
	 */
	log_sz = EMU_GET(wq, wq, single_stride_log_num_of_bytes) + 6;
	/* The WQE is a struct mlx5_wqe_mprq (mlx5_prm.h; DPDK mlx5_devx.c
	 * log_wq_stride = log2above(sizeof(struct mlx5_wqe_mprq))).
	 */
	if (EMU_GET(wq, wq, log_wq_stride) < EMU_MPRQ_WQE_LOG_SIZE) {
		EMU_LOG(ERR, "%s: CREATE_RQ: log_wq_stride %u cannot hold a "
			"striding WQE (32 B)", dev->name,
			EMU_GET(wq, wq, log_wq_stride));
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_WQ_SIZE);
	}
	if (log_num + log_sz < EMU_LOG_MIN_STRIDE_WQE_SZ) {
		EMU_LOG(ERR, "%s: CREATE_RQ: WQE buffer of 2^%u strides of "
			"2^%u bytes below 2^%u bytes (log_min_stride_wqe_sz)",
			dev->name, log_num, log_sz, EMU_LOG_MIN_STRIDE_WQE_SZ);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_STRIDE_WQE);
	}
	sd->striding = 1;
	sd->log_strd_num = (uint8_t)log_num;
	sd->log_strd_sz = (uint8_t)log_sz;
	return 0;
}

int
emu_rq_create(struct emu_dev *dev, struct emu_net *net, const void *in,
	      size_t inlen, void *out, size_t outlen, uint32_t *id,
	      void **priv)
{
	const void *rqc = EMU_ADDR_OF(create_rq_in, in, ctx);
	const void *wq = EMU_ADDR_OF(rqc, rqc, wq);
	struct emu_rq_strd sd;
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
	/* mlx5_prm.h rqc: RMP, hairpin, FCS scatter, delay drop. */
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
	/* rqc.state: RST; MODIFY_RQ moves it (DPDK mlx5_devx_modify_rq()). */
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
	/* rqc.counter_set_id: 0 or a set of ALLOC_Q_COUNTER (DPDK
	 * mlx5_devx_cmd_queue_counter_alloc()).
	 */
	qcnt = EMU_GET(rqc, rqc, counter_set_id) == 0 ? NULL :
	       emu_qcnt_lookup(net, EMU_GET(rqc, rqc, counter_set_id));
	if (EMU_GET(rqc, rqc, counter_set_id) != 0 && qcnt == NULL) {
		EMU_LOG(ERR, "%s: CREATE_RQ: counter set 0x%x not allocated",
			dev->name, EMU_GET(rqc, rqc, counter_set_id));
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_QCNT);
	}
	ret = emu_rq_striding_decode(dev, wq, &sd, out, outlen);
	if (ret != 0)
		return ret;
	ret = emu_wq_setup(dev, wq, 0, 1, &w, out, outlen, "CREATE_RQ");
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
	rq->wq.q_kind = sd.striding ? EMU_QK_STRIDING_RQ : EMU_QK_CYCLIC_RQ;
	rq->striding = sd.striding;
	rq->log_strd_num = sd.log_strd_num;
	rq->log_strd_sz = sd.log_strd_sz;
	rq->dseg_off = sd.striding ? 16 : 0;
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
	/* Kernel devx.c devx_is_valid_obj_id(): the object's own number. */
	if (EMU_GET(modify_rq_in, in, rqn) != rq->rqn) {
		EMU_LOG(ERR, "%s: MODIFY_RQ: rqn 0x%x is not this object "
			"(0x%x)", dev->name, EMU_GET(modify_rq_in, in, rqn),
			rq->rqn);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_OBJ_ID);
	}
	/* MLX5_MODIFY_RQ_IN_MODIFY_BITMASK_*: what DPDK
	 * mlx5_devx_cmd_modify_rq() may set; only WQ_LWM and VSD modelled.
	 */
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
	/* A state change closes the RQ's LRO session (mlx5_emu_lro.c). */
	if (rq->lro_open && to != rq->wq.state)
		emu_lro_close_now(rq);
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
			rq->strd = 0;
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
	if (rq->lro_open)
		emu_lro_close_now(rq);
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
uint16_t
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
emu_rq_error_wc(struct emu_rq *rq, uint16_t idx, uint8_t syndrome,
		 const char *why, int keep_rdy)
{
	struct mlx5_emu_wc *cpl;

	EMU_LOG(DEBUG, "%s: RQ 0x%x: WQE %u: %s (syndrome 0x%02x)%s",
		rq->net->dev->name, rq->rqn, idx, why, syndrome,
		keep_rdy ? "" : ", RQ to error");
	rq->net->pstats.rx_errors++;
	if (!keep_rdy)
		rq->wq.state = EMU_Q_ERR;
	rq->ci++;
	cpl = emu_engine_wc(&rq->wq);
	cpl->kind = MLX5_EMU_WC_RESP_ERR;
	cpl->syndrome = syndrome;
	cpl->wqe_counter = idx;
	cpl->qpn = rq->rqn;
	cpl->timestamp = 0;
	if (rq->striding) {
		/* The stride the frame would have started at; the error
		 * consumes the rest of the WQE.
		 */
		cpl->wqe_counter = (uint16_t)rq->strd;
		cpl->wqe_id = idx;
		rq->strd = 0;
	}
}

static void
emu_rq_error(struct emu_rq *rq, uint16_t idx, uint8_t syndrome,
	     const char *why)
{
	emu_rq_error_wc(rq, idx, syndrome, why, 0);
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
		emu_prefetch_write((const void *)(uintptr_t)
				   emu_be64_at(w + rq->dseg_off + 8));
	}
}

/* A WQE is posted: the cached doorbell value, else a fresh read. */
int
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
		emu_prefetch_write((const void *)(uintptr_t)
				   emu_be64_at(w + rq->dseg_off + 8));
	}
}

/*
 * Strip the VLAN tag of a frame unless vsd: the frame and its parse are
 * replaced by the stripped copy, *tci set; 1 when stripped.
 */
static int
emu_rq_vlan_strip(const struct emu_rq *rq, const uint8_t **frame,
		  uint32_t *len, const struct emu_pkt **pkt,
		  struct emu_pkt *stripped, uint16_t *tci)
{
	const uint8_t *f = *frame;
	uint32_t n = *len;

	if (rq->vsd || n < 18 || f[12] != 0x81 || f[13] != 0x00)
		return 0;
	*tci = (uint16_t)(f[14] << 8 | f[15]);
	memcpy(emu_rx_frame, f, 12);
	memcpy(emu_rx_frame + 12, f + 16, n - 16);
	*frame = emu_rx_frame;
	*len = n - 4;
	emu_pkt_parse(emu_rx_frame, n - 4, stripped);
	*pkt = stripped;
	return 1;
}

/* The offload fields of a responder CQE (hash, flow tag, header types). */
static void
emu_rq_wc_fill(struct mlx5_emu_wc *cpl, const uint8_t *frame,
		const struct emu_pkt *pkt, uint32_t hash, uint8_t hash_type,
		const struct emu_rx_meta *meta, int strip, uint16_t vlan)
{
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

/* No WQE posted: the frame is dropped. */
static void
emu_rq_no_buffer(struct emu_rq *rq)
{
	rq->net->pstats.rx_out_of_buffer++;
	if (rq->qcnt != NULL)
		rq->qcnt->out_of_buffer++;
}

/*
 * The WQE a frame goes to (*idx), or 0: no WQE posted (dropped) or an
 * injected fault completed it.
 */
static int
emu_rq_begin(struct emu_rq *rq, uint16_t *idx)
{
	if (!emu_rq_has_wqe(rq)) {
		emu_rq_no_buffer(rq);
		return 0;
	}
	*idx = rq->ci;
	if (emu_wire_rx_fault_take(rq->net)) {
		emu_rq_error_wc(rq, *idx, EMU_SYND_LOC_LEN_ERR,
				 "injected error, RQ kept RDY", 1);
		return 0;
	}
	return 1;
}

/*
 * A frame into a striding RQ (see the top of this file): the state is
 * RDY. The filler, the data and the CQE follow DPDK mlx5_rx_burst_mprq
 * and kernel mlx5e_handle_rx_cqe_mpwrq as consumers.
 */
static void
emu_rq_receive_mprq(struct emu_rq *rq, const uint8_t *frame,
		    const struct emu_pkt *pkt, uint32_t hash,
		    uint8_t hash_type, const struct emu_rx_meta *meta)
{
	struct emu_net *net = rq->net;
	uint32_t mask = (1u << rq->wq.log_sz) - 1;
	uint32_t strd_n = 1u << rq->log_strd_num;
	uint32_t strd_sz = 1u << rq->log_strd_sz;
	uint32_t len = pkt->len, need, bc, lkey;
	struct mlx5_emu_wc *cpl;
	struct emu_pkt stripped;
	const uint8_t *dseg;
	uint16_t idx, vlan = 0;
	uint64_t addr;
	int strip;

	if (!emu_rq_begin(rq, &idx))
		return;
	strip = emu_rq_vlan_strip(rq, &frame, &len, &pkt, &stripped, &vlan);
	need = (len + strd_sz - 1) >> rq->log_strd_sz;
	if (need == 0)
		need = 1;
	if (need > strd_n) {
		emu_rq_error(rq, idx, EMU_SYND_LOC_LEN_ERR,
			     "frame longer than a striding WQE's buffer");
		return;
	}
	if (rq->strd + need > strd_n) {
		/* Filler: the strides left in the WQE, then the next one. */
		cpl = emu_engine_wc(&rq->wq);
		cpl->kind = MLX5_EMU_WC_RESP;
		cpl->byte_cnt = MLX5_MPRQ_FILLER_MASK |
				(strd_n - rq->strd) << MLX5_MPRQ_STRIDE_NUM_SHIFT;
		cpl->wqe_counter = (uint16_t)rq->strd;
		cpl->wqe_id = idx;
		cpl->qpn = rq->rqn;
		rq->ci++;
		rq->strd = 0;
		if (!emu_rq_has_wqe(rq)) {
			emu_rq_no_buffer(rq);
			return;
		}
		idx = rq->ci;
	}
	emu_rq_prefetch(rq, mask);
	dseg = rq->wq.ring + ((size_t)(idx & mask) << rq->wq.log_stride) +
	       rq->dseg_off;
	bc = emu_be32_at(dseg);
	lkey = emu_be32_at(dseg + 4);
	addr = emu_be64_at(dseg + 8) + ((uint64_t)rq->strd << rq->log_strd_sz);
	/* The data segment describes the WQE's whole buffer (DPDK
	 * mlx5_rxq_initialize: byte_count = 1 << log_strd_sz + log_strd_num).
	 */
	if (bc != strd_n * strd_sz) {
		emu_rq_error(rq, idx, EMU_SYND_LOC_LEN_ERR,
			     "striding WQE's byte_count is not strides * "
			     "stride size");
		return;
	}
	if (lkey == EMU_INVALID_LKEY ||
	    emu_mr_check_wq(net, &rq->wq, lkey, addr, len, 1) != 0) {
		emu_rq_error(rq, idx, EMU_SYND_LOC_PROT_ERR,
			     "stride outside a writable MR");
		return;
	}
	emu_copy((uint8_t *)(uintptr_t)addr, frame, len);
	emu_rq_last = rq;
	net->pstats.rx_packets++;
	net->pstats.rx_bytes += len;
	cpl = emu_engine_wc(&rq->wq);
	cpl->kind = MLX5_EMU_WC_RESP;
	cpl->byte_cnt = len | need << MLX5_MPRQ_STRIDE_NUM_SHIFT;
	cpl->wqe_counter = (uint16_t)rq->strd;
	cpl->wqe_id = idx;
	emu_rq_wc_fill(cpl, frame, pkt, hash, hash_type, meta, strip, vlan);
	rq->strd += need;
	if (rq->strd == strd_n) {
		rq->ci++;
		rq->strd = 0;
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
	struct mlx5_emu_wc *cpl;
	struct emu_pkt stripped;
	uint32_t room = 0, left, done;
	uint16_t idx, vlan = 0;
	int strip;

	if (rq->wq.state != EMU_Q_RDY) {
		net->pstats.rx_no_queue++;
		return;
	}
	if (rq->striding) {
		emu_rq_receive_mprq(rq, frame, pkt, hash, hash_type, meta);
		return;
	}
	if (!emu_rq_begin(rq, &idx))
		return;
	wqe = rq->wq.ring + ((size_t)(idx & mask) << rq->wq.log_stride);
	emu_rq_prefetch(rq, mask);
	strip = emu_rq_vlan_strip(rq, &frame, &len, &pkt, &stripped, &vlan);
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
	cpl = emu_engine_wc(&rq->wq);
	cpl->kind = MLX5_EMU_WC_RESP;
	cpl->byte_cnt = len;
	cpl->wqe_counter = idx;
	emu_rq_wc_fill(cpl, frame, pkt, hash, hash_type, meta, strip, vlan);
}
