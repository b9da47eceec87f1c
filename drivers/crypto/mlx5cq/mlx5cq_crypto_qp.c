/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Queue pairs. Each has an mlx5cq CQ (rte_mlx5cq_create, DevX path), an
 * RC QP of send WQEs only (mlx5_devx_qp_create) moved to RTS with itself
 * as the remote QP (loopback), and one WQE set per descriptor: a UMR WQE
 * (control, UMR control, mkey context, KLM list, crypto BSF at its end)
 * that points that set's indirect crypto mkey at the destination, then an
 * RDMA write WQE from the source to address 0 of that mkey, padded with a
 * NOP so every set has the same power-of-2 size; the set's last WQE asks
 * for the completion. The constant parts of the WQEs are written once
 * here.
 */

#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include <infiniband/mlx5dv.h>

#include "mlx5cq_crypto.h"

/* UMR WQE without KLMs: control, UMR control, mkey context, BSF. */
#define MLX5CQ_CRYPTO_UMR_STATIC (sizeof(struct mlx5_wqe_cseg) + \
				  sizeof(struct mlx5_wqe_umr_cseg) + \
				  sizeof(struct mlx5_wqe_mkey_cseg) + \
				  sizeof(struct mlx5_wqe_umr_bsf_seg))

/*
 * WQE sizes for operations of up to segs segments: UMR WQE with the KLMs
 * (a multiple of 4), RDMA write WQE with segs data segments, each a
 * multiple of 64 bytes, their sum raised to a power of 2 by growing the
 * UMR WQE (more KLM room). Both must fit the device's largest send WQE.
 */
int
mlx5cq_crypto_wqe_sizes(struct mlx5cq_crypto_priv *priv, uint32_t segs)
{
	uint32_t umr, rdmaw, set;
	uint32_t max = priv->hca.max_wqe_sz_sq;

	umr = RTE_ALIGN_CEIL(MLX5CQ_CRYPTO_UMR_STATIC +
			     RTE_ALIGN_CEIL(segs, 4) *
			     sizeof(struct mlx5_wqe_dseg), MLX5_SEND_WQE_BB);
	rdmaw = RTE_ALIGN_CEIL(sizeof(struct mlx5_rdma_write_wqe) +
			       segs * sizeof(struct mlx5_wqe_dseg),
			       MLX5_SEND_WQE_BB);
	set = rte_align32pow2(umr + rdmaw);
	umr = set - rdmaw;
	if (umr > max || rdmaw > max) {
		CRYPTO_LOG(ERR, "max_segs_num=%u: WQEs of %u and %u bytes, "
			   "the device's send WQEs have at most %u", segs,
			   umr, rdmaw, max);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	/* AES-GCM: a UMR or NOP of the set but one WQEBB, whose DS count
	 * (6 bits) says at most 1008 bytes.
	 */
	if (priv->gcm && set - MLX5_SEND_WQE_BB > 63 * MLX5_WSEG_SIZE) {
		CRYPTO_LOG(ERR, "max_segs_num=%u: WQE sets of %u bytes, an "
			   "AES-GCM UMR of at most 1008", segs, set);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	priv->umr_wqe_size = umr;
	priv->rdmaw_wqe_size = rdmaw;
	priv->wqe_set_size = set;
	priv->klm_num = (umr - MLX5CQ_CRYPTO_UMR_STATIC) /
			sizeof(struct mlx5_wqe_dseg);
	priv->max_segs = segs;
	return 0;
}

static void
mlx5cq_crypto_qp_free(struct mlx5cq_crypto_qp *qp)
{
	uint32_t i;

	if (qp->mkeys != NULL) {
		for (i = 0; i < qp->entries_n; i++)
			if (qp->mkeys[i] != NULL &&
			    mlx5_devx_cmd_destroy(qp->mkeys[i]) != 0)
				CRYPTO_LOG(ERR, "qp %u: mkey release failed",
					   qp->qp_id);
	}
	mlx5cq_crypto_gcm_qp_free(qp);
	mlx5_devx_qp_destroy(&qp->qp_obj);
	if (qp->cq != NULL && rte_mlx5cq_destroy(qp->cq) != 0)
		CRYPTO_LOG(ERR, "qp %u: CQ release failed: %s", qp->qp_id,
			   rte_strerror(rte_errno));
	rte_free(qp->mkeys);
	rte_free(qp->ops);
	rte_free(qp->cpl);
	rte_free(qp);
}

/* The constant parts of WQE set i (again after a GCM operation). */
void
mlx5cq_crypto_wqe_set_init(struct mlx5cq_crypto_priv *priv,
			   struct mlx5cq_crypto_qp *qp, uint32_t i)
{
	uint8_t *set = qp->wqes + (size_t)i * priv->wqe_set_size;
	struct mlx5_wqe_cseg *cseg = (struct mlx5_wqe_cseg *)set;
	struct mlx5_wqe_umr_cseg *ucseg = (struct mlx5_wqe_umr_cseg *)(cseg + 1);
	struct mlx5_wqe_umr_bsf_seg *bsf = (struct mlx5_wqe_umr_bsf_seg *)
		(set + priv->umr_wqe_size) - 1;
	struct mlx5_rdma_write_wqe *rw = (struct mlx5_rdma_write_wqe *)
		(set + priv->umr_wqe_size);

	cseg->sq_ds = rte_cpu_to_be_32(qp->qpn << 8 |
				       priv->umr_wqe_size / MLX5_WSEG_SIZE);
	/* The UMR completes only when it fails. */
	cseg->flags = RTE_BE32(MLX5_COMP_ONLY_FIRST_ERR <<
			       MLX5_COMP_MODE_OFFSET);
	cseg->misc = rte_cpu_to_be_32(qp->mkeys[i]->id);
	ucseg->if_cf_toe_cq_res = RTE_BE32(1u << MLX5_UMRC_IF_OFFSET);
	ucseg->mkey_mask = RTE_BE64(1u << 0); /* The mkey length. */
	ucseg->ko_to_bs = rte_cpu_to_be_32((uint32_t)priv->klm_num <<
					   MLX5_UMRC_KO_OFFSET |
					   4u << MLX5_UMRC_TO_BS_OFFSET);
	/* A GCM UMR may have left KLMs where the BSF and the RDMA write
	 * go.
	 */
	memset(bsf, 0, sizeof(*bsf));
	memset(rw, 0, priv->rdmaw_wqe_size);
	bsf->keytag = priv->keytag_be;
	/*
	 * The RDMA write waits for the UMR; whether it completes depends on
	 * the NOP after it (the enqueue sets its flags).
	 */
	rw->rseg.raddr = 0;
	rw->rseg.rkey = rte_cpu_to_be_32(qp->mkeys[i]->id);
}

static int
mlx5cq_crypto_mkeys_create(struct mlx5cq_crypto_priv *priv,
			   struct mlx5cq_crypto_qp *qp)
{
	struct mlx5_devx_mkey_attr attr;
	uint32_t i;

	memset(&attr, 0, sizeof(attr));
	attr.pd = priv->pdn;
	attr.umr_en = 1;
	attr.crypto_en = 1;
	attr.set_remote_rw = 1;
	/* An AES-GCM UMR spans the set up to its MMO (mlx5cq_crypto.h). */
	attr.klm_num = priv->gcm ? RTE_MAX((uint32_t)priv->klm_num,
					   MLX5CQ_CRYPTO_GCM_KLMS(priv)) :
				   priv->klm_num;
	for (i = 0; i < qp->entries_n; i++) {
		/* The still empty KLM room of the set's UMR WQE. */
		attr.klm_array = (struct mlx5_klm *)(qp->wqes +
			(size_t)i * priv->wqe_set_size +
			MLX5CQ_CRYPTO_UMR_STATIC -
			sizeof(struct mlx5_wqe_umr_bsf_seg));
		qp->mkeys[i] = mlx5_devx_cmd_mkey_create(priv->ctx, &attr);
		if (qp->mkeys[i] == NULL) {
			CRYPTO_LOG(ERR, "qp %u: indirect crypto mkey %u: %s",
				   qp->qp_id, i, rte_strerror(rte_errno));
			return -1;
		}
	}
	return 0;
}

static int
mlx5cq_crypto_qp_hw_create(struct mlx5cq_crypto_priv *priv,
			   struct mlx5cq_crypto_qp *qp, int socket)
{
	struct rte_mlx5cq_attr cq_attr;
	struct mlx5_devx_qp_attr attr;
	uint32_t wqbbs = qp->entries_n * (priv->wqe_set_size /
					  MLX5_SEND_WQE_BB);
	/* log_max_qp_sz, and the 4 bits of the QPC's log_sq_size
	 * (mlx5_prm.h qpc; mlx5_devx_cmd_create_qp() would drop the rest).
	 */
	uint32_t log_max = priv->hca.log_max_qp_sz > 0 ?
			   RTE_MIN((uint32_t)priv->hca.log_max_qp_sz, 15u) : 15u;

	if (wqbbs > (1u << log_max)) {
		CRYPTO_LOG(ERR, "qp %u: %u descriptors need %u WQEBBs, the "
			   "device's QPs have at most %u", qp->qp_id,
			   qp->entries_n, wqbbs, 1u << log_max);
		rte_errno = EINVAL;
		return -1;
	}
	memset(&cq_attr, 0, sizeof(cq_attr));
	cq_attr.cqe = qp->entries_n;
	cq_attr.flags = RTE_MLX5CQ_F_SINGLE_THREADED;
	cq_attr.socket = socket;
	cq_attr.path = RTE_MLX5CQ_PATH_DEVX;
	qp->cq = rte_mlx5cq_create(priv->cqdev, &cq_attr);
	if (qp->cq == NULL) {
		CRYPTO_LOG(ERR, "qp %u: CQ creation failed: %s", qp->qp_id,
			   rte_strerror(rte_errno));
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.pd = priv->pdn;
	attr.uar_index = priv->uar->page_id;
	attr.cqn = qp->cq->cqn;
	attr.num_of_receive_wqes = 0;
	attr.num_of_send_wqbbs = wqbbs;
	attr.ts_format = mlx5_ts_format_conv(priv->hca.qp_ts_format);
	/* crypto/mlx5 (23.07+): qp_attr.mmo from crypto_mmo_qp. */
	attr.mmo = priv->gcm;
	if (mlx5_devx_qp_create(priv->ctx, &qp->qp_obj,
				wqbbs * MLX5_SEND_WQE_BB, &attr, socket) != 0) {
		CRYPTO_LOG(ERR, "qp %u: QP creation failed: %s", qp->qp_id,
			   rte_strerror(rte_errno));
		return -1;
	}
	qp->qpn = qp->qp_obj.qp->id;
	qp->wqes = qp->qp_obj.umem_buf;
	qp->sq_dbrec = &qp->qp_obj.db_rec[MLX5_SND_DBR];
	/* Loopback: the QP is its own remote. */
	if (mlx5_devx_qp2rts(&qp->qp_obj, qp->qpn) != 0) {
		CRYPTO_LOG(ERR, "qp %u: QP %#x to RTS failed: %s", qp->qp_id,
			   qp->qpn, rte_strerror(rte_errno));
		return -1;
	}
	return 0;
}

int
mlx5cq_crypto_qp_setup(struct rte_cryptodev *dev, uint16_t qp_id,
		       const struct rte_cryptodev_qp_conf *conf, int socket)
{
	struct mlx5cq_crypto_priv *priv = dev->data->dev_private;
	struct mlx5cq_crypto_qp *qp;
	uint32_t n, i;
	int ret;

	if (conf == NULL || conf->nb_descriptors < MLX5CQ_CRYPTO_DESC_MIN ||
	    conf->nb_descriptors > MLX5CQ_CRYPTO_DESC_MAX) {
		CRYPTO_LOG(ERR, "qp %u: nb_descriptors %u out of [%u, %u]",
			   qp_id, conf ? conf->nb_descriptors : 0,
			   MLX5CQ_CRYPTO_DESC_MIN, MLX5CQ_CRYPTO_DESC_MAX);
		return -EINVAL;
	}
	if (dev->data->queue_pairs[qp_id] != NULL)
		mlx5cq_crypto_qp_release(dev, qp_id);
	n = rte_align32pow2(conf->nb_descriptors);
	qp = rte_zmalloc_socket("crypto_mlx5cq_qp", sizeof(*qp),
				RTE_CACHE_LINE_SIZE, socket);
	if (qp == NULL)
		goto nomem;
	qp->priv = priv;
	qp->qp_id = qp_id;
	qp->entries_n = n;
	qp->mask = n - 1;
	qp->log_set_bbs = rte_log2_u32(priv->wqe_set_size / MLX5_SEND_WQE_BB);
	qp->ops = rte_zmalloc_socket("crypto_mlx5cq_ops", n * sizeof(*qp->ops),
				     RTE_CACHE_LINE_SIZE, socket);
	qp->mkeys = rte_zmalloc_socket("crypto_mlx5cq_mkeys",
				       n * sizeof(*qp->mkeys),
				       RTE_CACHE_LINE_SIZE, socket);
	qp->cpl = rte_zmalloc_socket("crypto_mlx5cq_cpl", n * sizeof(*qp->cpl),
				     RTE_CACHE_LINE_SIZE, socket);
	if (qp->ops == NULL || qp->mkeys == NULL || qp->cpl == NULL)
		goto nomem;
	if (mlx5cq_crypto_qp_hw_create(priv, qp, socket) != 0 ||
	    mlx5cq_crypto_mkeys_create(priv, qp) != 0 ||
	    mlx5cq_crypto_gcm_qp_init(qp, socket) != 0)
		goto error;
	for (i = 0; i < n; i++)
		mlx5cq_crypto_wqe_set_init(priv, qp, i);
	dev->data->queue_pairs[qp_id] = qp;
	return 0;
nomem:
	CRYPTO_LOG(ERR, "qp %u: no memory for %u descriptors", qp_id, n);
	rte_errno = ENOMEM;
error:
	ret = rte_errno ? rte_errno : EIO;
	if (qp != NULL)
		mlx5cq_crypto_qp_free(qp);
	rte_errno = ret;
	return -ret;
}

/*
 * After an error CQE the QP is in the error state and flushes what it is
 * given, with a flush CQE for every WQE posted after the failed one (NOPs
 * and UMRs included). Once every operation posted has been handed back:
 * reset the QP (no CQE comes after that), drop the flush CQEs still in
 * the CQ, bring the QP to RTS again (loopback); operation and WQE
 * counters restart at 0. 0, or -1 (the QP stays in error; tried again on
 * the next call).
 */
int
mlx5cq_crypto_qp_recover(struct mlx5cq_crypto_qp *qp)
{
	int ret;

	ret = mlx5_devx_cmd_modify_qp_state(qp->qp_obj.qp, MLX5_CMD_OP_QP_2RST,
					    qp->qpn);
	if (ret == 0) {
		while (rte_mlx5cq_poll_burst(qp->cq, qp->cpl,
					     qp->entries_n) != 0)
			;
		/* The doorbell record restarts with the QP: at RTS the
		 * device must see no WQE of before the reset.
		 */
		*qp->sq_dbrec = 0;
		rte_wmb();
	}
	if (ret != 0 || mlx5_devx_qp2rts(&qp->qp_obj, qp->qpn) != 0) {
		CRYPTO_LOG(ERR, "qp %u: QP %#x reset after an error failed: "
			   "%s", qp->qp_id, qp->qpn, rte_strerror(rte_errno));
		return -1;
	}
	qp->pi = 0;
	qp->done = 0;
	qp->ci = 0;
	qp->wqe_pi = 0;
	qp->in_error = 0;
	qp->err.recoveries++;
	CRYPTO_LOG(INFO, "qp %u: QP %#x back to RTS after an error",
		   qp->qp_id, qp->qpn);
	return 0;
}

int
mlx5cq_crypto_qp_release(struct rte_cryptodev *dev, uint16_t qp_id)
{
	struct mlx5cq_crypto_qp *qp = dev->data->queue_pairs[qp_id];

	if (qp == NULL)
		return 0;
	if (qp->pi != qp->ci)
		CRYPTO_LOG(WARNING, "qp %u: released with %u operations in "
			   "flight", qp_id, (uint16_t)(qp->pi - qp->ci));
	mlx5cq_crypto_qp_free(qp);
	dev->data->queue_pairs[qp_id] = NULL;
	return 0;
}
