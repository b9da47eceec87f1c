/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * CREATE_QP (0x500) and the state commands of the loopback RC QPs the
 * crypto engine is driven through (rte_common_mlx5's
 * mlx5_devx_cmd_create_qp() with a UAR, and mlx5_devx_qp2rts()).
 *
 * Contract (status / model syndrome):
 * - caps.crypto, else BAD_OP (the QP model exists for the crypto engine);
 * - qpc: st RC (0), pm_state MIGRATED (3), state RST, no_sq 0,
 *   rq_type ZERO_LEN_RQ (3), log_sq_size <= 16, srq/xrc/counters,
 *   signature, padding, cd_* and offload_type 0, page_offset 0, ts_format
 *   <= 2; otherwise BAD_PARAM, QP_CTX; qpc_ext only with
 *   qpc_extension.mmo (an MMO QP, mlx5_emu_gcm.c);
 * - pd allocated here (BAD_RES, CRYPTO_PD); uar_page allocated (BAD_PARAM,
 *   NET_UAR); cqn_snd a CQ of this device (BAD_RES, NET_CQ);
 * - ring: wq_umem_valid, 2^log_sq_size 64-byte WQEBBs from wq_umem_offset
 *   inside that umem; doorbell record: dbr_umem_valid, dbr_addr 8-byte
 *   aligned in its umem (BAD_PARAM, NET_UMEM / NET_UMEM_RANGE / NET_DBR).
 * - RST2INIT_QP (0x502) RST -> INIT; INIT2RTR_QP (0x503) INIT -> RTR with
 *   remote_qpn the QP itself (only loopback is modelled: BAD_PARAM,
 *   QP_CTX); RTR2RTS_QP (0x504) RTR -> RTS; 2ERR_QP (0x507) any -> ERR;
 *   2RST_QP (0x50a) any -> RST (the device's WQEBB counter back to 0).
 *   The command's qpn must name this QP (EINVAL, as the kernel checks);
 *   another current state: BAD_RES_STATE, QP_STATE.
 * In RTS the progress engine executes what the doorbell record's send
 * counter (word 1) announces (mlx5_emu_umr.c); in ERR every posted WQE is
 * flushed. A QP holds its umems and makes its CQ and PD busy.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <mlx5_prm.h>

#include "mlx5_emu_crypto.h"

#define QPC_GET(fld) EMU_GET(qpc, qpc, fld)

#define EMU_QP_REFUSE(dev, out, outlen, status, synd, why) \
	emu_crypto_refuse(dev, out, outlen, status, synd, "QP", why)

/*
 * st, pm_state, rq_type, no_sq as DPDK's mlx5_devx_cmd_create_qp() writes
 * them (UAR, send queue, no receive WQEs); ts_format per mlx5_prm.h
 * MLX5_QPC_TIMESTAMP_FORMAT_* (0..2). log_sq_size has 4 bits (mlx5_prm.h
 * qpc): at most log_max_qp_sz, 15 (EMU_LOG_MAX_QP_SZ).
 */
static int
emu_qpc_supported(const void *qpc)
{
	return QPC_GET(st) == MLX5_QP_ST_RC &&
	       QPC_GET(pm_state) == MLX5_QP_PM_MIGRATED &&
	       QPC_GET(state) == EMU_QP_RST && !QPC_GET(no_sq) &&
	       QPC_GET(rq_type) == MLX5_ZERO_LEN_RQ &&
	       QPC_GET(log_sq_size) <= EMU_LOG_MAX_QP_SZ &&
	       !QPC_GET(offload_type) &&
	       !QPC_GET(end_padding_mode) && !QPC_GET(wq_signature) &&
	       !QPC_GET(counter_set_id) && !QPC_GET(page_offset) &&
	       !QPC_GET(cd_master) && !QPC_GET(cd_slave_send) &&
	       !QPC_GET(cd_slave_receive) && !QPC_GET(srqn_rmpn_xrqn) &&
	       QPC_GET(ts_format) <= 2;
}

/* Ring and doorbell record of the QP's send queue. */
static int
emu_qp_ring(struct emu_dev *dev, const void *in, const void *qpc,
	    struct emu_wq *w, void *out, size_t outlen)
{
	struct emu_umem *umem, *dbr;
	uint64_t off, bytes, dbr_addr;

	if (!EMU_GET(create_qp_in, in, wq_umem_valid) ||
	    !QPC_GET(dbr_umem_valid))
		return EMU_QP_REFUSE(dev, out, outlen,
				     EMU_CMD_STAT_BAD_PARAM_ERR,
				     MLX5_EMU_SYND_NET_UMEM,
				     "ring and doorbell must be in umems");
	umem = emu_umem_lookup(dev, EMU_GET(create_qp_in, in, wq_umem_id));
	dbr = emu_umem_lookup(dev, QPC_GET(dbr_umem_id));
	if (umem == NULL || dbr == NULL)
		return EMU_QP_REFUSE(dev, out, outlen,
				     EMU_CMD_STAT_BAD_PARAM_ERR,
				     MLX5_EMU_SYND_NET_UMEM, "umem unknown");
	off = EMU_GET64(create_qp_in, in, wq_umem_offset);
	bytes = (uint64_t)EMU_WQEBB << QPC_GET(log_sq_size);
	if (off > umem->size || bytes > umem->size - off)
		return EMU_QP_REFUSE(dev, out, outlen,
				     EMU_CMD_STAT_BAD_PARAM_ERR,
				     MLX5_EMU_SYND_NET_UMEM_RANGE,
				     "send ring past its umem");
	dbr_addr = EMU_GET64(qpc, qpc, dbr_addr);
	if ((dbr_addr & 7) != 0 || dbr_addr > dbr->size ||
	    dbr->size - dbr_addr < 8)
		return EMU_QP_REFUSE(dev, out, outlen,
				     EMU_CMD_STAT_BAD_PARAM_ERR,
				     MLX5_EMU_SYND_NET_DBR,
				     "dbr_addr misaligned or past its umem");
	memset(w, 0, sizeof(*w));
	w->umem = umem;
	w->dbr_umem = dbr;
	w->ring = (uint8_t *)(uintptr_t)(umem->addr + off);
	w->dbrec = (volatile uint32_t *)(uintptr_t)(dbr->addr + dbr_addr);
	w->log_sz = QPC_GET(log_sq_size);
	w->log_stride = 6;
	return 0;
}

int
emu_qp_create(struct emu_dev *dev, struct emu_crypto *cr, const void *in,
	      size_t inlen, void *out, size_t outlen, uint32_t *id,
	      void **priv)
{
	const void *qpc = EMU_ADDR_OF(create_qp_in, in, qpc);
	struct emu_qp *qp;
	struct emu_cq *cq;
	struct emu_wq w;
	uint8_t mmo;
	int ret;

	if (inlen < MLX5_ST_SZ_BYTES(create_qp_in))
		return EMU_QP_REFUSE(dev, out, outlen,
				     EMU_CMD_STAT_BAD_INP_LEN_ERR,
				     MLX5_EMU_SYND_INLEN, "short input");
	if (outlen < MLX5_ST_SZ_BYTES(create_qp_out))
		return EMU_QP_REFUSE(dev, out, outlen,
				     EMU_CMD_STAT_BAD_OUTP_LEN_ERR,
				     MLX5_EMU_SYND_OUTLEN, "short output");
	if (!emu_qpc_supported(qpc))
		return EMU_QP_REFUSE(dev, out, outlen,
				     EMU_CMD_STAT_BAD_PARAM_ERR,
				     MLX5_EMU_SYND_QP_CTX, "only RC send-only "
				     "QPs created in RST are modelled");
	ret = emu_qp_ext_check(dev, in, inlen, &mmo, out, outlen);
	if (ret != 0)
		return ret;
	if (!emu_pd_exists(dev, QPC_GET(pd)))
		return EMU_QP_REFUSE(dev, out, outlen,
				     EMU_CMD_STAT_BAD_RES_ERR,
				     MLX5_EMU_SYND_CRYPTO_PD, "pd unknown");
	if (emu_uar_lookup(dev, QPC_GET(uar_page)) == NULL)
		return EMU_QP_REFUSE(dev, out, outlen,
				     EMU_CMD_STAT_BAD_PARAM_ERR,
				     MLX5_EMU_SYND_NET_UAR,
				     "uar_page not allocated");
	cq = emu_cq_lookup(dev, QPC_GET(cqn_snd));
	if (cq == NULL)
		return EMU_QP_REFUSE(dev, out, outlen,
				     EMU_CMD_STAT_BAD_RES_ERR,
				     MLX5_EMU_SYND_NET_CQ, "cqn_snd unknown");
	ret = emu_qp_ring(dev, in, qpc, &w, out, outlen);
	if (ret != 0)
		return ret;
	qp = calloc(1, sizeof(*qp));
	if (qp == NULL)
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_LIM_ERR,
				    MLX5_EMU_SYND_NONE);
	w.pdn = QPC_GET(pd);
	w.cq = cq;
	w.cqn = cq->cqn;
	w.state = EMU_Q_RST;
	/* QPs stamp with the internal timer (qp_ts_format, a RoCE cap, is
	 * not modelled).
	 */
	emu_clock_wq_init(dev, &w, EMU_TS_FR);
	qp->wq = w;
	qp->net = dev->net;
	qp->qpn = emu_net_new_id(dev->net);
	qp->qp_state = EMU_QP_RST;
	qp->mmo = mmo;
	w.umem->refcnt++;
	if (w.dbr_umem != w.umem)
		w.dbr_umem->refcnt++;
	emu_net_lock();
	TAILQ_INSERT_TAIL(&cr->qps, qp, next);
	emu_net_unlock();
	emu_cmd_ok(out, outlen);
	MLX5_SET(create_qp_out, out, qpn, qp->qpn);
	*id = qp->qpn;
	*priv = qp;
	return 0;
}

int
emu_qp_modify(struct emu_dev *dev, struct emu_qp *qp, const void *in,
	      size_t inlen, void *out, size_t outlen)
{
	uint16_t opcode = EMU_GET(rst2init_qp_in, in, opcode);
	const void *qpc = EMU_ADDR_OF(init2rtr_qp_in, in, qpc);
	unsigned int from, to;
	int any = 0;

	switch (opcode) {
	case MLX5_CMD_OP_RST2INIT_QP:
		from = EMU_QP_RST;
		to = EMU_QP_INIT;
		break;
	case MLX5_CMD_OP_INIT2RTR_QP:
		from = EMU_QP_INIT;
		to = EMU_QP_RTR;
		break;
	case MLX5_CMD_OP_RTR2RTS_QP:
		from = EMU_QP_RTR;
		to = EMU_QP_RTS;
		break;
	case MLX5_CMD_OP_QP_2ERR:
		any = 1;
		from = 0;
		to = EMU_QP_ERR;
		break;
	case MLX5_CMD_OP_QP_2RST:
		any = 1;
		from = 0;
		to = EMU_QP_RST;
		break;
	default:
		return 1;
	}
	if (inlen < MLX5_ST_SZ_BYTES(2rst_qp_in) ||
	    (!any && inlen < MLX5_ST_SZ_BYTES(init2rtr_qp_in)))
		return EMU_QP_REFUSE(dev, out, outlen,
				     EMU_CMD_STAT_BAD_INP_LEN_ERR,
				     MLX5_EMU_SYND_INLEN, "short mailbox");
	if (EMU_GET(rst2init_qp_in, in, qpn) != qp->qpn) {
		EMU_LOG(ERR, "%s: QP 0x%x: modify names QP 0x%x", dev->name,
			qp->qpn, EMU_GET(rst2init_qp_in, in, qpn));
		return emu_ret_errno(EINVAL);
	}
	if (!any && qp->qp_state != from)
		return EMU_QP_REFUSE(dev, out, outlen,
				     EMU_CMD_STAT_BAD_RES_STATE_ERR,
				     MLX5_EMU_SYND_QP_STATE,
				     "transition from another state");
	if (opcode == MLX5_CMD_OP_INIT2RTR_QP &&
	    QPC_GET(remote_qpn) != qp->qpn)
		return EMU_QP_REFUSE(dev, out, outlen,
				     EMU_CMD_STAT_BAD_PARAM_ERR,
				     MLX5_EMU_SYND_QP_CTX,
				     "remote_qpn: only loopback (itself) "
				     "is modelled");
	emu_net_lock();
	qp->qp_state = to;
	qp->wq.state = to == EMU_QP_RTS ? EMU_Q_RDY :
		       to == EMU_QP_ERR ? EMU_Q_ERR : EMU_Q_RST;
	if (to == EMU_QP_RST)
		qp->pi = 0;
	emu_net_unlock();
	emu_cmd_ok(out, outlen);
	return 0;
}

void
emu_qp_destroy(struct emu_crypto *cr, struct emu_qp *qp)
{
	emu_net_lock();
	TAILQ_REMOVE(&cr->qps, qp, next);
	emu_net_unlock();
	emu_wq_release(&qp->wq);
	free(qp->bounce);
	free(qp);
}
