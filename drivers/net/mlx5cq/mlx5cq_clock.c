/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The device clock and RX timestamps (RTE_ETH_RX_OFFLOAD_TIMESTAMP), as
 * DPDK's net/mlx5 takes them:
 * - the clocks the queues may stamp with are HCA_CAP.rq_ts_format and
 *   sq_ts_format; every RQ and SQ asks for DEFAULT unless only the
 *   free-running clock is offered (mlx5_ts_format_conv() of mlx5_prm.h,
 *   used by mlx5_devx.c and mlx5_txq.c);
 * - whether DEFAULT is the real-time clock comes from the MTUTC register
 *   (time_stamp_mode, read through ACCESS_REGISTER_USER when
 *   HCA_CAP.access_register_user allows), else from the clock running at
 *   1 GHz (mlx5_rt_timestamp_config() in mlx5.c);
 * - a real-time stamp (seconds << 32 | nanoseconds) reaches the mbuf in
 *   nanoseconds (mlx5_txpp_convert_rx_ts()), a free-running one as the
 *   device's ticks; both go to the mbuf's timestamp dynamic field with
 *   its flag (rte_mbuf_dyn_rx_timestamp_register(), mlx5_rxq.c);
 * - CQE compression is off on a queue with timestamps (mlx5_devx.c,
 *   mlx5_rxq_create_devx_cq_resources(): only the title of a session
 *   carries a time);
 * - rte_eth_read_clock() gives the free-running clock in ticks, read
 *   through ibv_query_rt_values_ex() (mlx5_read_clock() in
 *   linux/mlx5_ethdev_os.c). With real-time stamps the free-running
 *   clock is not their clock: -ENOTSUP rather than a value of another
 *   clock (net/mlx5 reads the real-time clock from the PCI BAR there,
 *   which this PMD does not map).
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_mbuf_dyn.h>

#include <infiniband/verbs.h>
#include <mlx5_glue.h>
#include <mlx5_devx_cmds.h>
#include <mlx5_prm.h>

#include "mlx5cq_ethdev.h"

#define MLX5CQ_NS_PER_S 1000000000ull

void
mlx5cq_clock_init(struct mlx5cq_priv *priv, const struct mlx5_hca_attr *attr,
		  const char *name)
{
	uint32_t reg[MLX5_ST_SZ_DW(register_mtutc)];
	int rt;

	priv->clock_khz = attr->dev_freq_khz;
	priv->rq_ts_format = mlx5_ts_format_conv(attr->rq_ts_format);
	priv->sq_ts_format = mlx5_ts_format_conv(attr->sq_ts_format);
	memset(reg, 0, sizeof(reg));
	if (attr->access_register_user &&
	    mlx5_devx_cmd_register_read(priv->ctx, MLX5_REGISTER_ID_MTUTC, 0,
					reg, RTE_DIM(reg)) == 0) {
		rt = MLX5_GET(register_mtutc, reg, time_stamp_mode) ==
		     MLX5_MTUTC_TIMESTAMP_MODE_REAL_TIME;
	} else {
		/* The register cannot be read: 1 GHz means real time. */
		rt = attr->dev_freq_khz == MLX5CQ_NS_PER_S / 1000000;
	}
	/* DEFAULT is the real-time clock only where the caps offer it. */
	priv->ts_rt = attr->rq_ts_format ==
		      MLX5_HCA_CAP_TIMESTAMP_FORMAT_RT ||
		      (rt && attr->rq_ts_format ==
		       MLX5_HCA_CAP_TIMESTAMP_FORMAT_FR_RT);
	PMD_LOG(DEBUG, "%s: clock %u kHz, RX stamps %s (rq_ts_format %u, "
		"RQ ts_format %u)", name, priv->clock_khz,
		priv->ts_rt ? "real time" : "free-running",
		attr->rq_ts_format, priv->rq_ts_format);
}

int
mlx5cq_rxq_ts_setup(struct mlx5cq_rxq *rxq)
{
	int off, bit;

	rxq->ts_flag = 0;
	if (!(rxq->offloads & RTE_ETH_RX_OFFLOAD_TIMESTAMP))
		return 0;
	/* Registered once per process; later calls give the same field. */
	if (rte_mbuf_dyn_rx_timestamp_register(&off, NULL) != 0) {
		PMD_LOG(ERR, "port %u rxq %u: cannot register the mbuf "
			"timestamp field: %s", rxq->port_id, rxq->idx,
			rte_strerror(rte_errno));
		return -rte_errno;
	}
	bit = rte_mbuf_dynflag_lookup(RTE_MBUF_DYNFLAG_RX_TIMESTAMP_NAME,
				      NULL);
	if (bit < 0) {
		PMD_LOG(ERR, "port %u rxq %u: no RX timestamp flag: %s",
			rxq->port_id, rxq->idx, rte_strerror(rte_errno));
		return -rte_errno;
	}
	rxq->ts_off = (uint32_t)off;
	rxq->ts_flag = RTE_BIT64(bit);
	rxq->ts_rt = rxq->priv->ts_rt;
	return 0;
}

int
mlx5cq_read_clock(struct rte_eth_dev *dev, uint64_t *clock)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	struct ibv_values_ex values;
	int ret;

	if (priv->ts_rt) {
		PMD_LOG(DEBUG, "port %u: RX stamps are real time, the clock "
			"read would be the free-running one",
			dev->data->port_id);
		return -ENOTSUP;
	}
	memset(&values, 0, sizeof(values));
	values.comp_mask = IBV_VALUES_MASK_RAW_CLOCK;
	ret = mlx5_glue->query_rt_values_ex(priv->ctx, &values);
	if (ret != 0 || !(values.comp_mask & IBV_VALUES_MASK_RAW_CLOCK)) {
		PMD_LOG(WARNING, "port %u: device clock not readable (%d)",
			dev->data->port_id, ret);
		return ret > 0 ? -ret : -EIO;
	}
	*clock = (uint64_t)values.raw_clock.tv_nsec;
	return 0;
}
