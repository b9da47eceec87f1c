/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Send queues: CREATE_SQ 0x904, MODIFY_SQ 0x905, destroy, and the
 * execution of send WQEs by the progress engine. Also the WQ context
 * checks shared with the RQ.
 *
 * WQ rules (wq in sqc/rqc): cyclic only; the ring and the doorbell record
 * come from umems of this device (wq_umem_valid, dbr_umem_valid), the ring
 * (2^log_wq_sz entries of 2^log_wq_stride bytes from wq_umem_offset) and
 * the 8-byte record (dbr_addr, 8-byte aligned) inside them; pd allocated
 * on this device; signature, end padding, hairpin, strides, counters and
 * page_offset not modelled (must be 0). SQ: log_wq_stride 6 (64 B WQEBB),
 * the CQ exists, one TIS of this device (tis_lst_sz 1), the UAR page is
 * allocated, created in RST. States: RST -> RDY, RDY -> RST | ERR,
 * ERR -> RST; sq_state must name the current state.
 *
 * Execution: while the doorbell record's word 1 (big-endian, 16 bits) is
 * ahead of the device's WQEBB counter, the WQE at the counter is read
 * (segments wrap at the ring end): control segment (opcode SEND 0x0a or
 * NOP 0x00, TSO 0x0e with max_lso_cap: mlx5_emu_lso.c; wqe index =
 * counter, qpn = sqn, ds count), Ethernet segment
 * (cs_flags, inline headers from byte 14 on, VLAN insertion), then data
 * segments (pointer: lkey/addr checked against the MRs of the SQ's PD;
 * inline: MLX5_ETH_WQE_DATA_INLINE). A bad WQE completes with a requester
 * error CQE (0x02 LOC_QP_OP_ERR, 0x04 LOC_PROT_ERR, 0x01 LOC_LEN_ERR),
 * whatever CQ_UPDATE says, and the SQ goes to ERR. A good one gets its
 * checksums filled as cs_flags ask, goes on the wire, and completes with
 * a requester CQE (wqe_counter = its index) when CQ_UPDATE is set.
 * Completions are staged with emu_engine_wc() and written in batches
 * (mlx5_emu_engine.c); on a CQ with compression the completions of one
 * engine pass form sessions (requester mini-CQEs: wqe_counter,
 * s_wqe_opcode), closed at the end of the pass.
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

#define WQ_GET(fld) EMU_GET(wq, wq, fld)
#define EMU_SQ_PF_WQE 16 /* WQEBBs prefetched ahead. */
#define EMU_SQ_PF_DATA 8 /* WQEBBs ahead whose data is prefetched. */

static int
emu_wq_fail(struct emu_dev *dev, void *out, size_t outlen, uint8_t status,
	    uint32_t synd)
{
	return emu_cmd_fail(dev, out, outlen, status, synd);
}

int
emu_pd_exists(struct emu_dev *dev, uint32_t pdn)
{
	struct emu_pd *pd;

	TAILQ_FOREACH(pd, &dev->pds, next)
		if (pd->pd.handle == pdn)
			return 1;
	return 0;
}

int
emu_wq_setup(struct emu_dev *dev, const void *wq, uint32_t wqe_bytes,
	     int striding_ok, struct emu_wq *w, void *out, size_t outlen,
	     const char *what)
{
	struct emu_umem *umem, *dbr;
	uint64_t off, bytes, dbr_addr;
	unsigned int log_sz, log_stride;
	int striding = striding_ok &&
		       WQ_GET(wq_type) == MLX5_WQ_TYPE_CYCLIC_STRIDING_RQ;

	/* wq.wq_type: cyclic (DPDK mlx5_common_devx.c mlx5_devx_sq_create(),
	 * mlx5_devx.c RQs cyclic or cyclic striding).
	 */
	if (WQ_GET(wq_type) != MLX5_WQ_TYPE_CYCLIC && !striding) {
		EMU_LOG(ERR, "%s: %s: wq_type %u not cyclic%s", dev->name,
			what, WQ_GET(wq_type),
			striding_ok ? " or cyclic striding" : "");
		return emu_wq_fail(dev, out, outlen, EMU_CMD_STAT_BAD_PARAM_ERR,
				   MLX5_EMU_SYND_NET_WQ_TYPE);
	}
	/* The stride fields belong to striding RQs (their caller decodes
	 * them); two_byte_shift_en is refused there.
	 */
	if (WQ_GET(wq_signature) || WQ_GET(end_padding_mode) ||
	    WQ_GET(cd_slave) || WQ_GET(hds_skip_first_sge) ||
	    WQ_GET(log2_hds_buf_size) || WQ_GET(page_offset) ||
	    WQ_GET(hw_counter) || WQ_GET(sw_counter) ||
	    WQ_GET(log_hairpin_num_packets) || WQ_GET(log_hairpin_data_sz) ||
	    (!striding && WQ_GET(single_wqe_log_num_of_strides)) ||
	    WQ_GET(two_byte_shift_en) ||
	    (!striding && WQ_GET(single_stride_log_num_of_bytes))) {
		EMU_LOG(ERR, "%s: %s: WQ feature not modelled (signature, "
			"padding, HDS, page_offset, counters, strides)",
			dev->name, what);
		return emu_wq_fail(dev, out, outlen, EMU_CMD_STAT_BAD_PARAM_ERR,
				   MLX5_EMU_SYND_NET_RESERVED);
	}
	/* wq.pd: the pdn of dv_init_obj(MLX5DV_OBJ_PD) on this device. */
	if (!emu_pd_exists(dev, WQ_GET(pd))) {
		EMU_LOG(ERR, "%s: %s: pd 0x%x not allocated on this device",
			dev->name, what, WQ_GET(pd));
		return emu_wq_fail(dev, out, outlen, EMU_CMD_STAT_BAD_RES_ERR,
				   MLX5_EMU_SYND_NET_PD);
	}
	log_sz = WQ_GET(log_wq_sz);
	log_stride = WQ_GET(log_wq_stride);
	/* SQ: the 64 B WQEBB (DPDK MLX5_WQE_SIZE, kernel MLX5_SEND_WQE_BB). */
	if ((1u << log_stride) != wqe_bytes && wqe_bytes != 0) {
		EMU_LOG(ERR, "%s: %s: log_wq_stride %u, need %u bytes",
			dev->name, what, log_stride, wqe_bytes);
		return emu_wq_fail(dev, out, outlen, EMU_CMD_STAT_BAD_PARAM_ERR,
				   MLX5_EMU_SYND_NET_WQ_SIZE);
	}
	/* One struct mlx5_wqe_data_seg (16 B) .. cmd_hca_cap.max_wqe_sz_rq;
	 * cmd_hca_cap.log_max_wq_sz (mlx5_emu_caps.c reports 1 KiB, 16).
	 */
	if (log_stride < 4 || log_stride > 10 || log_sz > 16) {
		EMU_LOG(ERR, "%s: %s: log_wq_stride %u (4..10) or log_wq_sz "
			"%u (max 16) out of range", dev->name, what,
			log_stride, log_sz);
		return emu_wq_fail(dev, out, outlen, EMU_CMD_STAT_BAD_PARAM_ERR,
				   MLX5_EMU_SYND_NET_WQ_SIZE);
	}
	/* Umems only: a DevX user has no bus addresses (kernel
	 * devx_umem_reg).
	 */
	if (!WQ_GET(wq_umem_valid) || !WQ_GET(dbr_umem_valid)) {
		EMU_LOG(ERR, "%s: %s: ring and doorbell must be in umems",
			dev->name, what);
		return emu_wq_fail(dev, out, outlen, EMU_CMD_STAT_BAD_PARAM_ERR,
				   MLX5_EMU_SYND_NET_UMEM);
	}
	umem = emu_umem_lookup(dev, WQ_GET(wq_umem_id));
	dbr = emu_umem_lookup(dev, WQ_GET(dbr_umem_id));
	if (umem == NULL || dbr == NULL) {
		EMU_LOG(ERR, "%s: %s: umem %u or dbr umem %u unknown",
			dev->name, what, WQ_GET(wq_umem_id),
			WQ_GET(dbr_umem_id));
		return emu_wq_fail(dev, out, outlen, EMU_CMD_STAT_BAD_RES_ERR,
				   MLX5_EMU_SYND_NET_UMEM);
	}
	off = EMU_GET64(wq, wq, wq_umem_offset);
	bytes = (uint64_t)1 << (log_sz + log_stride);
	if (off > umem->size || bytes > umem->size - off) {
		EMU_LOG(ERR, "%s: %s: ring [0x%" PRIx64 ", +0x%" PRIx64
			") past umem size 0x%" PRIx64, dev->name, what, off,
			bytes, umem->size);
		return emu_wq_fail(dev, out, outlen, EMU_CMD_STAT_BAD_PARAM_ERR,
				   MLX5_EMU_SYND_NET_UMEM_RANGE);
	}
	dbr_addr = EMU_GET64(wq, wq, dbr_addr);
	if ((dbr_addr & 7) != 0 || dbr_addr > dbr->size ||
	    dbr->size - dbr_addr < 8) {
		EMU_LOG(ERR, "%s: %s: dbr_addr 0x%" PRIx64 " misaligned or "
			"past its umem", dev->name, what, dbr_addr);
		return emu_wq_fail(dev, out, outlen, EMU_CMD_STAT_BAD_PARAM_ERR,
				   MLX5_EMU_SYND_NET_DBR);
	}
	memset(w, 0, sizeof(*w));
	w->pdn = WQ_GET(pd);
	w->umem = umem;
	w->dbr_umem = dbr;
	w->ring = (uint8_t *)(uintptr_t)(umem->addr + off);
	w->dbrec = (volatile uint32_t *)(uintptr_t)(dbr->addr + dbr_addr);
	w->log_sz = log_sz;
	w->log_stride = log_stride;
	w->state = EMU_Q_RST;
	return 0;
}

/* Take the umem references of a WQ being committed. */
static void
emu_wq_hold(struct emu_wq *w)
{
	w->umem->refcnt++;
	if (w->dbr_umem != w->umem)
		w->dbr_umem->refcnt++;
}

void
emu_wq_release(struct emu_wq *w)
{
	w->umem->refcnt--;
	if (w->dbr_umem != w->umem)
		w->dbr_umem->refcnt--;
}

int
emu_sq_create(struct emu_dev *dev, struct emu_net *net, const void *in,
	      size_t inlen, void *out, size_t outlen, uint32_t *id,
	      void **priv)
{
	const void *sqc = EMU_ADDR_OF(create_sq_in, in, ctx);
	const void *wq = EMU_ADDR_OF(sqc, sqc, wq);
	struct emu_wq w;
	struct emu_tis *tis;
	struct emu_cq *cq;
	struct emu_sq *sq;
	int ret, ts;

	ret = emu_net_check_lens(dev, "CREATE_SQ", inlen,
				 MLX5_ST_SZ_BYTES(create_sq_in), out, outlen,
				 MLX5_ST_SZ_BYTES(create_sq_out));
	if (ret != 0)
		return ret;
	/* mlx5_prm.h sqc: features not modelled. */
	if (EMU_GET(create_sq_in, in, op_mod) != 0 ||
	    EMU_GET(sqc, sqc, rlky) || EMU_GET(sqc, sqc, cd_master) ||
	    EMU_GET(sqc, sqc, fre) ||
	    EMU_GET(sqc, sqc, allow_multi_pkt_send_wqe) ||
	    EMU_GET(sqc, sqc, reg_umr) || EMU_GET(sqc, sqc, allow_swp) ||
	    EMU_GET(sqc, sqc, hairpin) || EMU_GET(sqc, sqc, non_wire) ||
	    EMU_GET(sqc, sqc, static_sq_wq) ||
	    EMU_GET(sqc, sqc, hairpin_wq_buffer_type) ||
	    EMU_GET(sqc, sqc, packet_pacing_rate_limit_index)) {
		EMU_LOG(ERR, "%s: CREATE_SQ: feature not modelled (hairpin, "
			"UMR, SWP, MPW, pacing, cross channel)", dev->name);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_RESERVED);
	}
	/* sqc.min_wqe_inline_mode: none or L2 (MLX5_INLINE_MODE_L2). */
	if (EMU_GET(sqc, sqc, min_wqe_inline_mode) > MLX5_INLINE_MODE_L2) {
		EMU_LOG(ERR, "%s: CREATE_SQ: min_wqe_inline_mode %u not "
			"modelled (none or L2)", dev->name,
			EMU_GET(sqc, sqc, min_wqe_inline_mode));
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_RESERVED);
	}
	/* sqc.state: RST; MODIFY_SQ moves it (DPDK mlx5_txq_devx_modify()). */
	if (EMU_GET(sqc, sqc, state) != EMU_Q_RST) {
		EMU_LOG(ERR, "%s: CREATE_SQ: state %u, must be RST",
			dev->name, EMU_GET(sqc, sqc, state));
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_STATE);
	}
	/* A clock the caps offer (mlx5_emu_clock.c). */
	ret = emu_clock_queue_format(dev, "CREATE_SQ",
				     EMU_GET(sqc, sqc, ts_format), &ts, out,
				     outlen);
	if (ret != 0)
		return ret;
	cq = emu_cq_lookup(dev, EMU_GET(sqc, sqc, cqn));
	if (cq == NULL) {
		EMU_LOG(ERR, "%s: CREATE_SQ: CQ 0x%x unknown", dev->name,
			EMU_GET(sqc, sqc, cqn));
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_BAD_RES_ERR,
				    MLX5_EMU_SYND_NET_CQ);
	}
	/* sqc.tis_lst_sz: DPDK mlx5_devx.c gives one TIS (tis_lst_sz 1). */
	tis = emu_tis_lookup(net, EMU_GET(sqc, sqc, tis_num_0));
	if (EMU_GET(sqc, sqc, tis_lst_sz) != 1 || tis == NULL) {
		EMU_LOG(ERR, "%s: CREATE_SQ: tis_lst_sz %u (must be 1) or TIS "
			"0x%x unknown", dev->name,
			EMU_GET(sqc, sqc, tis_lst_sz),
			EMU_GET(sqc, sqc, tis_num_0));
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_BAD_RES_ERR,
				    MLX5_EMU_SYND_NET_TIS);
	}
	ret = emu_wq_setup(dev, wq, MLX5_WQE_SIZE, 0, &w, out, outlen,
			   "CREATE_SQ");
	if (ret != 0)
		return ret;
	if (emu_uar_lookup(dev, EMU_GET(wq, wq, uar_page)) == NULL) {
		EMU_LOG(ERR, "%s: CREATE_SQ: uar_page 0x%x not allocated",
			dev->name, EMU_GET(wq, wq, uar_page));
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_BAD_RES_ERR,
				    MLX5_EMU_SYND_NET_UAR);
	}
	sq = calloc(1, sizeof(*sq));
	if (sq == NULL)
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_LIM_ERR,
				    MLX5_EMU_SYND_NONE);
	sq->net = net;
	sq->sqn = emu_net_new_id(net);
	sq->wq = w;
	sq->wq.cq = cq;
	sq->wq.cqn = cq->cqn;
	emu_clock_wq_init(dev, &sq->wq, ts);
	sq->tis = tis;
	sq->inline_l2 = EMU_GET(sqc, sqc, min_wqe_inline_mode) ==
			MLX5_INLINE_MODE_L2 ||
			dev->caps.eth_inline_mode !=
			MLX5_CAP_INLINE_MODE_NOT_REQUIRED;
	emu_wq_hold(&sq->wq);
	emu_net_lock();
	tis->refcnt++;
	TAILQ_INSERT_TAIL(&net->sqs, sq, next);
	net->nstats.sqs++;
	emu_net_unlock();
	emu_cmd_ok(out, outlen);
	MLX5_SET(create_sq_out, out, sqn, sq->sqn);
	*id = sq->sqn;
	*priv = sq;
	return 0;
}

/* Allowed queue state transitions (SQ and RQ). */
static int
emu_q_transition_ok(unsigned int from, unsigned int to)
{
	switch (from) {
	case EMU_Q_RST:
		return to == EMU_Q_RDY;
	case EMU_Q_RDY:
		return to == EMU_Q_RST || to == EMU_Q_ERR;
	case EMU_Q_ERR:
		return to == EMU_Q_RST;
	default:
		return 0;
	}
}

int
emu_q_modify_state(struct emu_dev *dev, const char *what, uint32_t qn,
		   uint8_t *state, unsigned int cur, unsigned int to,
		   void *out, size_t outlen)
{
	/* modify_sq_in.sq_state / modify_rq_in.rq_state: the current one. */
	if (cur != *state) {
		EMU_LOG(ERR, "%s: %s 0x%x: current state %u named as %u",
			dev->name, what, qn, *state, cur);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_RES_STATE_ERR,
				    MLX5_EMU_SYND_NET_STATE);
	}
	if (!emu_q_transition_ok(cur, to)) {
		EMU_LOG(ERR, "%s: %s 0x%x: transition %u -> %u not allowed",
			dev->name, what, qn, cur, to);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_STATE);
	}
	return 0;
}

int
emu_sq_modify(struct emu_dev *dev, struct emu_sq *sq, const void *in,
	      size_t inlen, void *out, size_t outlen)
{
	const void *sqc = EMU_ADDR_OF(modify_sq_in, in, ctx);
	unsigned int cur, to;
	int ret;

	ret = emu_net_check_lens(dev, "MODIFY_SQ", inlen,
				 MLX5_ST_SZ_BYTES(modify_sq_in), out, outlen,
				 MLX5_ST_SZ_BYTES(modify_sq_out));
	if (ret != 0)
		return ret;
	/* Kernel devx.c devx_is_valid_obj_id(): the object's own number. */
	if (EMU_GET(modify_sq_in, in, sqn) != sq->sqn) {
		EMU_LOG(ERR, "%s: MODIFY_SQ: sqn 0x%x is not this object "
			"(0x%x)", dev->name, EMU_GET(modify_sq_in, in, sqn),
			sq->sqn);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_OBJ_ID);
	}
	/* mlx5_prm.h modify_sq_in.modify_bitmask: rate limit, QoS. */
	if (EMU_GET64(modify_sq_in, in, modify_bitmask) != 0 ||
	    EMU_GET(sqc, sqc, hairpin_peer_rq) != 0 ||
	    EMU_GET(sqc, sqc, hairpin_peer_vhca) != 0) {
		EMU_LOG(ERR, "%s: MODIFY_SQ: only the state is modifiable",
			dev->name);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_RESERVED);
	}
	cur = EMU_GET(modify_sq_in, in, sq_state);
	to = EMU_GET(sqc, sqc, state);
	emu_net_lock();
	ret = emu_q_modify_state(dev, "MODIFY_SQ", sq->sqn, &sq->wq.state,
				 cur, to, out, outlen);
	if (ret == 0) {
		sq->wq.state = to;
		if (to == EMU_Q_RST)
			sq->pi = 0;
	}
	emu_net_unlock();
	if (ret != 0)
		return ret;
	emu_cmd_ok(out, outlen);
	emu_engine_update();
	return 0;
}

int
emu_sq_destroy(struct emu_dev *dev, struct emu_sq *sq)
{
	struct emu_net *net = sq->net;

	(void)dev;
	emu_net_lock();
	TAILQ_REMOVE(&net->sqs, sq, next);
	net->nstats.sqs--;
	sq->tis->refcnt--;
	emu_wq_release(&sq->wq);
	emu_net_unlock();
	free(sq);
	emu_engine_update();
	return 0;
}

/* Execution of send WQEs (emu_net_lock held). */

/* A frame; or the whole packet of a TSO WQE (mlx5_emu_lso.c). */
static uint8_t emu_tx_frame[EMU_LSO_MAX + EMU_MAX_FRAME + 4];

static const uint8_t *
emu_sq_seg(const struct emu_sq *sq, uint16_t wqe, unsigned int k)
{
	uint32_t mask = (1u << sq->wq.log_sz) - 1;
	uint32_t bb = ((uint32_t)wqe + k / 4) & mask;

	return sq->wq.ring + ((size_t)bb << 6) + (k % 4) * 16;
}

/* Copy n bytes starting at byte off of segment k of a WQE that wraps. */
static void
emu_sq_copy_wrap(const struct emu_sq *sq, uint16_t wqe, unsigned int k,
		 unsigned int off, uint8_t *dst, uint32_t n)
{
	while (n > 0) {
		unsigned int chunk = 16 - off;

		if (chunk > n)
			chunk = n;
		memcpy(dst, emu_sq_seg(sq, wqe, k) + off, chunk);
		dst += chunk;
		n -= chunk;
		k++;
		off = 0;
	}
}

/* Copy n bytes starting at byte off of segment k of a WQE. */
static inline void
emu_sq_copy(const struct emu_sq *sq, uint16_t wqe, unsigned int k,
	    unsigned int off, uint8_t *dst, uint32_t n)
{
	uint32_t mask = (1u << sq->wq.log_sz) - 1;

	if (n == 0)
		return;
	/* Segments k .. last in WQEBBs before the ring's end: one move. */
	if ((wqe & mask) + (k + (off + n - 1) / 16) / 4 <= mask)
		emu_copy(dst, emu_sq_seg(sq, wqe, k) + off, n);
	else
		emu_sq_copy_wrap(sq, wqe, k, off, dst, n);
}

static void
emu_sq_complete(struct emu_sq *sq, uint16_t idx, uint8_t opcode,
		uint8_t syndrome)
{
	struct mlx5_emu_wc *cpl = emu_engine_wc(&sq->wq);

	cpl->kind = syndrome ? MLX5_EMU_WC_REQ_ERR : MLX5_EMU_WC_REQ;
	cpl->syndrome = syndrome;
	cpl->s_wqe_opcode = opcode;
	cpl->wqe_counter = idx;
	cpl->qpn = sq->sqn;
}

/* Fail the WQE at idx: error CQE, SQ to ERR. */
static void
emu_sq_error(struct emu_sq *sq, uint16_t idx, uint8_t opcode,
	     uint8_t syndrome, const char *why)
{
	EMU_LOG(DEBUG, "%s: SQ 0x%x: WQE %u: %s (syndrome 0x%02x), SQ to "
		"error", sq->net->dev->name, sq->sqn, idx, why, syndrome);
	sq->net->pstats.tx_errors++;
	sq->wq.state = EMU_Q_ERR;
	emu_sq_complete(sq, idx, opcode, syndrome);
}

/*
 * Build the frame of a SEND WQE, or the packet of a TSO WQE (max: its
 * largest length; checksums left to the segmentation); 0 or an error
 * syndrome. *ihs: the inline header's length.
 */
static int
emu_sq_build(struct emu_sq *sq, uint16_t idx, unsigned int ds, int tso,
	     uint32_t *lenp, uint32_t *ihs, const char **why)
{
	const uint8_t *eseg = emu_sq_seg(sq, idx, 1);
	uint32_t ihdr = emu_be32_at(eseg + 12);
	uint8_t cs_flags = eseg[4];
	uint32_t len = 0, isz = 0, vlan = 0;
	uint32_t max = tso ? EMU_LSO_MAX + EMU_MAX_FRAME : EMU_MAX_FRAME;
	unsigned int k = 2;
	struct emu_pkt pkt;

	if (ds < 2) {
		*why = "SEND without Ethernet segment";
		return EMU_SYND_LOC_QP_OP_ERR;
	}
	if ((ihdr & MLX5_ETH_WQE_VLAN_INSERT) && !tso)
		vlan = 0x81000000u | (ihdr & 0xffff);
	else
		isz = ihdr >> 16;
	*ihs = isz;
	if (isz > 0) {
		uint32_t first = isz < 2 ? isz : 2;

		if (isz > EMU_MAX_FRAME || 2 + (isz - first + 15) / 16 > ds) {
			*why = "inline headers past the WQE";
			return EMU_SYND_LOC_QP_OP_ERR;
		}
		/* From byte 14 of the Ethernet segment on. */
		emu_sq_copy(sq, idx, 1, 14, emu_tx_frame, isz);
		len = isz;
		k = 2 + (isz - first + 15) / 16;
	}
	if (sq->inline_l2 && vlan == 0 && isz < 14) {
		*why = "L2 header not inline (the SQ requires it)";
		return EMU_SYND_LOC_QP_OP_ERR;
	}
	while (k < ds) {
		const uint8_t *d = emu_sq_seg(sq, idx, k);
		uint32_t bc = emu_be32_at(d);

		if (bc & MLX5_ETH_WQE_DATA_INLINE) {
			uint32_t n = bc & ~MLX5_ETH_WQE_DATA_INLINE;
			unsigned int segs = (4 + n + 15) / 16;

			if (k + segs > ds || len + n > max) {
				*why = "inline data past the WQE or frame";
				return EMU_SYND_LOC_QP_OP_ERR;
			}
			emu_sq_copy(sq, idx, k, 4, emu_tx_frame + len, n);
			len += n;
			k += segs;
			continue;
		}
		if (bc != 0) {
			uint32_t lkey = emu_be32_at(d + 4);
			uint64_t addr = emu_be64_at(d + 8);

			if (emu_mr_check_wq(sq->net, &sq->wq, lkey, addr, bc,
					    0) != 0) {
				*why = "data segment outside its MR";
				return EMU_SYND_LOC_PROT_ERR;
			}
			if (len + bc > max) {
				*why = "frame too long";
				return EMU_SYND_LOC_LEN_ERR;
			}
			emu_copy(emu_tx_frame + len,
				 (const uint8_t *)(uintptr_t)addr, bc);
			len += bc;
		}
		k++;
	}
	if (len < 14) {
		*why = "frame shorter than an Ethernet header";
		return EMU_SYND_LOC_LEN_ERR;
	}
	if (vlan != 0) {
		uint32_t be = rte_cpu_to_be_32(vlan);

		memmove(emu_tx_frame + 16, emu_tx_frame + 12, len - 12);
		memcpy(emu_tx_frame + 12, &be, 4);
		len += 4;
	}
	if (!tso &&
	    (cs_flags & (MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM))) {
		emu_pkt_parse(emu_tx_frame, len, &pkt);
		if ((cs_flags & MLX5_ETH_WQE_L3_CSUM) && pkt.ipv4)
			emu_pkt_fill_ipv4_csum(emu_tx_frame, &pkt);
		if ((cs_flags & MLX5_ETH_WQE_L4_CSUM) && pkt.l4_off != 0 &&
		    !pkt.frag)
			emu_pkt_fill_l4_csum(emu_tx_frame, &pkt);
	}
	*lenp = len;
	return 0;
}

/* Execute the WQE at the device counter; WQEBBs it spans, 0 on error. */
static unsigned int
emu_sq_execute(struct emu_sq *sq)
{
	const uint8_t *cseg = emu_sq_seg(sq, sq->pi, 0);
	uint32_t w0 = emu_be32_at(cseg), w1 = emu_be32_at(cseg + 4);
	uint8_t opcode = w0 & 0xff, fm_ce_se = cseg[11];
	uint16_t idx = (w0 >> 8) & 0xffff;
	unsigned int ds = w1 & 0x3f;
	const char *why = NULL;
	uint32_t len = 0, ihs = 0;
	int synd;

	if (ds == 0 || (w1 >> 8) != sq->sqn || idx != sq->pi ||
	    (opcode != MLX5_OPCODE_SEND && opcode != MLX5_OPCODE_NOP &&
	     (opcode != MLX5_OPCODE_TSO || !sq->net->dev->caps.eth_max_lso))) {
		emu_sq_error(sq, sq->pi, opcode, EMU_SYND_LOC_QP_OP_ERR,
			     "bad control segment (ds, qpn, index or opcode)");
		return 0;
	}
	if (opcode != MLX5_OPCODE_NOP) {
		synd = emu_sq_build(sq, idx, ds, opcode == MLX5_OPCODE_TSO,
				    &len, &ihs, &why);
		if (synd == 0 && opcode == MLX5_OPCODE_TSO &&
		    emu_lso_check(emu_tx_frame, len, ihs,
				  emu_be16_at(emu_sq_seg(sq, idx, 1) + 6),
				  sq->net->dev->caps.eth_max_lso, &why) != 0)
			synd = EMU_SYND_LOC_QP_OP_ERR;
		if (synd != 0) {
			emu_sq_error(sq, idx, opcode, synd, why);
			return 0;
		}
		if (opcode == MLX5_OPCODE_TSO)
			emu_lso_transmit(sq->net, emu_tx_frame, len, ihs,
					 emu_be16_at(emu_sq_seg(sq, idx, 1) +
						     6));
		else
			emu_wire_transmit(sq->net, emu_tx_frame, len);
	}
	sq->wqes++;
	if (fm_ce_se & MLX5_WQE_CTRL_CQ_UPDATE)
		emu_sq_complete(sq, idx, opcode, 0);
	return (ds + 3) / 4;
}

/* The buffer of WQEBB w's data segment when w is a one-WQEBB SEND of the
 * usual shape (ctrl, eth, 16 B of inline headers, one pointer). A prefetch
 * is only a hint: a WQE of another shape costs nothing wrong.
 */
static void
emu_sq_prefetch_data(const struct emu_sq *sq, uint16_t w)
{
	const uint8_t *wqe = emu_sq_seg(sq, w, 0);

	if ((wqe[7] & 0x3f) == 4)
		rte_prefetch0((const void *)(uintptr_t)emu_be64_at(wqe + 56));
}

/*
 * Prefetch ahead of the WQE about to run: the WQEBB EMU_SQ_PF_WQE ahead,
 * and the buffer of the first data segment of the WQEBB EMU_SQ_PF_DATA
 * ahead (prefetched as a WQEBB earlier). The rings and buffers are written
 * by another core: the misses overlap instead of stalling one by one.
 */
static void
emu_sq_prefetch(const struct emu_sq *sq, uint16_t db)
{
	uint16_t ahead = (uint16_t)(db - sq->pi);

	if (ahead > EMU_SQ_PF_WQE)
		rte_prefetch0(emu_sq_seg(sq, sq->pi + EMU_SQ_PF_WQE, 0));
	if (ahead > EMU_SQ_PF_DATA)
		emu_sq_prefetch_data(sq, sq->pi + EMU_SQ_PF_DATA);
}

/*
 * The start of a batch: the sliding prefetch above only reaches WQEBBs
 * EMU_SQ_PF_WQE ahead, so the first ones of every doorbell would miss one
 * by one. Fetch them all at once, then the buffers of the first
 * EMU_SQ_PF_DATA (their loads of the WQEs overlap too).
 */
static void
emu_sq_prefetch_batch(const struct emu_sq *sq, uint16_t db)
{
	uint16_t ahead = (uint16_t)(db - sq->pi);
	uint16_t k, nw = RTE_MIN(ahead, (uint16_t)EMU_SQ_PF_WQE);
	uint16_t nd = RTE_MIN(ahead, (uint16_t)EMU_SQ_PF_DATA);

	for (k = 0; k < nw; k++)
		rte_prefetch0(emu_sq_seg(sq, sq->pi + k, 0));
	for (k = 0; k < nd; k++)
		emu_sq_prefetch_data(sq, sq->pi + k);
}

unsigned int
emu_sq_progress(struct emu_sq *sq)
{
	uint32_t size = 1u << sq->wq.log_sz;
	unsigned int done = 0, bbs = 0;
	uint16_t db;

	/*
	 * One read of the doorbell record per call; its acquire orders the
	 * reads of every WQE it announces (no barrier per WQE).
	 */
	db = rte_be_to_cpu_32(__atomic_load_n(&sq->wq.dbrec[MLX5_SND_DBR],
					      __ATOMIC_ACQUIRE)) & 0xffff;
	/* At most one ring's worth per pass (a garbage counter cannot
	 * hold the engine).
	 */
	if (sq->pi != db && sq->wq.state == EMU_Q_RDY) {
		emu_sq_prefetch_batch(sq, db);
		/* The receiving side of the last batch, likely this one's. */
		if (sq->rx_hint != NULL && sq->rx_hint_gen == emu_rq_gen)
			emu_rq_prefetch_start(sq->rx_hint,
					      (uint16_t)(db - sq->pi));
	}
	emu_rq_last = NULL;
	while (sq->pi != db && sq->wq.state == EMU_Q_RDY && bbs < size) {
		unsigned int n;

		if (done % EMU_ENGINE_BATCH == 0)
			emu_engine_batch_clock();
		emu_sq_prefetch(sq, db);
		n = emu_sq_execute(sq);
		done++;
		if (n == 0)
			break;
		sq->pi = (uint16_t)(sq->pi + n);
		bbs += n;
	}
	if (emu_rq_last != NULL) {
		sq->rx_hint = emu_rq_last;
		sq->rx_hint_gen = emu_rq_gen;
	}
	return done;
}
