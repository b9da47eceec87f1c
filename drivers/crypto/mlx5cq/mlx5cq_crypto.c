/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * crypto_mlx5cq vdev: probe and remove, the cryptodev operations that are
 * not sessions or queue pairs (configure, start, stop, close, info,
 * statistics), capabilities and feature flags.
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <bus_vdev_driver.h>

#include "mlx5cq_crypto.h"

RTE_LOG_REGISTER_DEFAULT(mlx5cq_crypto_logtype, NOTICE);
uint8_t mlx5cq_crypto_driver_id;

/* AES-XTS, keys of 2 x 128 or 2 x 256 bits in clear or wrapped; the data
 * units of DPDK 22.11 crypto/mlx5 (mlx5_crypto_caps), dataunit_len 0 too.
 */
#define MLX5CQ_CRYPTO_CAP_XTS(kmin, kmax) { \
	.op = RTE_CRYPTO_OP_TYPE_SYMMETRIC, \
	{ .sym = { \
		.xform_type = RTE_CRYPTO_SYM_XFORM_CIPHER, \
		{ .cipher = { \
			.algo = RTE_CRYPTO_CIPHER_AES_XTS, \
			.block_size = 16, \
			.key_size = { .min = (kmin), .max = (kmax), \
				      .increment = 32 }, \
			.iv_size = { .min = 16, .max = 16, .increment = 0 }, \
			.dataunit_set = \
				RTE_CRYPTO_CIPHER_DATA_UNIT_LEN_512_BYTES | \
				RTE_CRYPTO_CIPHER_DATA_UNIT_LEN_4096_BYTES | \
				RTE_CRYPTO_CIPHER_DATA_UNIT_LEN_1_MEGABYTES, \
		}, }, \
	}, }, \
}

static const struct rte_cryptodev_capabilities mlx5cq_crypto_caps_plain[] = {
	MLX5CQ_CRYPTO_CAP_XTS(32, 64),
	RTE_CRYPTODEV_END_OF_CAPABILITIES_LIST(),
};

static const struct rte_cryptodev_capabilities mlx5cq_crypto_caps_wrapped[] = {
	MLX5CQ_CRYPTO_CAP_XTS(MLX5CQ_CRYPTO_WRAPPED_128,
			      MLX5CQ_CRYPTO_WRAPPED_256),
	RTE_CRYPTODEV_END_OF_CAPABILITIES_LIST(),
};

static uint64_t
mlx5cq_crypto_features(const struct mlx5cq_crypto_priv *priv)
{
	return RTE_CRYPTODEV_FF_SYMMETRIC_CRYPTO |
	       RTE_CRYPTODEV_FF_HW_ACCELERATED |
	       RTE_CRYPTODEV_FF_IN_PLACE_SGL |
	       RTE_CRYPTODEV_FF_OOP_SGL_IN_SGL_OUT |
	       RTE_CRYPTODEV_FF_OOP_SGL_IN_LB_OUT |
	       RTE_CRYPTODEV_FF_OOP_LB_IN_SGL_OUT |
	       RTE_CRYPTODEV_FF_OOP_LB_IN_LB_OUT |
	       RTE_CRYPTODEV_FF_CIPHER_MULTIPLE_DATA_UNITS |
	       (priv->wrapped ? RTE_CRYPTODEV_FF_CIPHER_WRAPPED_KEY : 0);
}

static int
mlx5cq_crypto_dev_configure(struct rte_cryptodev *dev,
			    struct rte_cryptodev_config *config)
{
	if (config == NULL) {
		CRYPTO_LOG(ERR, "dev %u: no configuration", dev->data->dev_id);
		return -EINVAL;
	}
	if (config->ff_disable & RTE_CRYPTODEV_FF_SYMMETRIC_CRYPTO) {
		CRYPTO_LOG(ERR, "dev %u: symmetric crypto cannot be disabled",
			   dev->data->dev_id);
		return -ENOTSUP;
	}
	return 0;
}

static int
mlx5cq_crypto_dev_start(struct rte_cryptodev *dev)
{
	RTE_SET_USED(dev);
	return 0;
}

static void
mlx5cq_crypto_dev_stop(struct rte_cryptodev *dev)
{
	RTE_SET_USED(dev);
}

/* Queue pairs go at close (rte_cryptodev_close() does not release
 * them); the device objects stay until the vdev is removed.
 */
static int
mlx5cq_crypto_dev_close(struct rte_cryptodev *dev)
{
	uint16_t i;

	for (i = 0; i < dev->data->nb_queue_pairs; i++)
		mlx5cq_crypto_qp_release(dev, i);
	return 0;
}

static void
mlx5cq_crypto_dev_infos_get(struct rte_cryptodev *dev,
			    struct rte_cryptodev_info *info)
{
	struct mlx5cq_crypto_priv *priv = dev->data->dev_private;

	if (info == NULL)
		return;
	info->driver_id = mlx5cq_crypto_driver_id;
	info->feature_flags = mlx5cq_crypto_features(priv);
	info->capabilities = priv->gcm ? priv->caps : priv->wrapped ?
			     mlx5cq_crypto_caps_wrapped :
			     mlx5cq_crypto_caps_plain;
	info->max_nb_queue_pairs = priv->args.max_qps;
	/* AES-XTS, then AES-GCM when the device has it. */
	priv->caps[0] = mlx5cq_crypto_caps_plain[0];
	/* crypto/mlx5: the AAD may be copied before the text. */
	info->min_mbuf_headroom_req = priv->gcm ? 64 : 0;
	info->min_mbuf_tailroom_req = 0;
	info->sym.max_nb_sessions = 0; /* No limit. */
}

static void
mlx5cq_crypto_stats_get(struct rte_cryptodev *dev,
			struct rte_cryptodev_stats *stats)
{
	uint16_t i;

	memset(stats, 0, sizeof(*stats));
	for (i = 0; i < dev->data->nb_queue_pairs; i++) {
		const struct mlx5cq_crypto_qp *qp = dev->data->queue_pairs[i];

		if (qp == NULL)
			continue;
		stats->enqueued_count += qp->stats.enqueued_count;
		stats->dequeued_count += qp->stats.dequeued_count;
		stats->enqueue_err_count += qp->stats.enqueue_err_count;
		stats->dequeue_err_count += qp->stats.dequeue_err_count;
	}
}

static void
mlx5cq_crypto_stats_reset(struct rte_cryptodev *dev)
{
	uint16_t i;

	for (i = 0; i < dev->data->nb_queue_pairs; i++) {
		struct mlx5cq_crypto_qp *qp = dev->data->queue_pairs[i];

		if (qp == NULL)
			continue;
		memset(&qp->stats, 0, sizeof(qp->stats));
		memset(&qp->err, 0, sizeof(qp->err));
	}
}

static struct rte_cryptodev_ops mlx5cq_crypto_ops = {
	.dev_configure = mlx5cq_crypto_dev_configure,
	.dev_start = mlx5cq_crypto_dev_start,
	.dev_stop = mlx5cq_crypto_dev_stop,
	.dev_close = mlx5cq_crypto_dev_close,
	.dev_infos_get = mlx5cq_crypto_dev_infos_get,
	.stats_get = mlx5cq_crypto_stats_get,
	.stats_reset = mlx5cq_crypto_stats_reset,
	.queue_pair_setup = mlx5cq_crypto_qp_setup,
	.queue_pair_release = mlx5cq_crypto_qp_release,
	.sym_session_get_size = mlx5cq_crypto_sym_session_get_size,
	.sym_session_configure = mlx5cq_crypto_sym_session_configure,
	.sym_session_clear = mlx5cq_crypto_sym_session_clear,
};

static int
mlx5cq_crypto_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct rte_cryptodev_pmd_init_params init = {
		.name = "",
		.private_data_size = sizeof(struct mlx5cq_crypto_priv),
		.socket_id = rte_socket_id(),
		.max_nb_queue_pairs = MLX5CQ_CRYPTO_MAX_QPS,
	};
	struct mlx5cq_crypto_devargs args;
	struct mlx5cq_crypto_priv *priv;
	struct rte_cryptodev *dev;
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		CRYPTO_LOG(ERR, "%s: secondary processes are not supported",
			   name);
		return -ENOTSUP;
	}
	if (mlx5cq_crypto_devargs_parse(rte_vdev_device_args(vdev),
					&args) != 0) {
		CRYPTO_LOG(ERR, "%s: bad devargs, probe failed", name);
		return -rte_errno;
	}
	init.max_nb_queue_pairs = args.max_qps;
	dev = rte_cryptodev_pmd_create(name, &vdev->device, &init);
	if (dev == NULL) {
		CRYPTO_LOG(ERR, "%s: cannot create the cryptodev", name);
		return -ENODEV;
	}
	priv = dev->data->dev_private;
	memset(priv, 0, sizeof(*priv));
	priv->dev = dev;
	priv->args = args;
	priv->keytag_be = rte_cpu_to_be_64(args.keytag);
	LIST_INIT(&priv->deks);
	rte_spinlock_init(&priv->mr_lock);
	ret = mlx5cq_crypto_device_open(priv, name);
	if (ret == 0)
		ret = mlx5cq_crypto_wqe_sizes(priv, args.max_segs_num);
	if (ret != 0) {
		ret = rte_errno;
		mlx5cq_crypto_device_close(priv);
		rte_cryptodev_pmd_destroy(dev);
		CRYPTO_LOG(ERR, "%s: probe failed: %s", name, strerror(ret));
		return -ret;
	}
	dev->driver_id = mlx5cq_crypto_driver_id;
	dev->dev_ops = &mlx5cq_crypto_ops;
	dev->enqueue_burst = mlx5cq_crypto_enqueue_burst;
	dev->dequeue_burst = mlx5cq_crypto_dequeue_burst;
	dev->feature_flags = mlx5cq_crypto_features(priv);
	rte_cryptodev_pmd_probing_finish(dev);
	CRYPTO_LOG(INFO, "%s: on %s, %s keys, up to %u segments (WQE set "
		   "%u bytes)", name, args.dev, priv->wrapped ? "wrapped" :
		   "plaintext", priv->max_segs, priv->wqe_set_size);
	return 0;
}

static int
mlx5cq_crypto_remove(struct rte_vdev_device *vdev)
{
	struct rte_cryptodev *dev;

	dev = rte_cryptodev_pmd_get_named_dev(rte_vdev_device_name(vdev));
	if (dev == NULL)
		return -ENODEV;
	mlx5cq_crypto_dev_close(dev);
	mlx5cq_crypto_device_close(dev->data->dev_private);
	return rte_cryptodev_pmd_destroy(dev);
}

static struct rte_vdev_driver mlx5cq_crypto_vdev_driver = {
	.probe = mlx5cq_crypto_probe,
	.remove = mlx5cq_crypto_remove,
};

static struct cryptodev_driver mlx5cq_crypto_drv;

RTE_PMD_REGISTER_VDEV(MLX5CQ_CRYPTO_DRIVER_NAME, mlx5cq_crypto_vdev_driver);
RTE_PMD_REGISTER_PARAM_STRING(MLX5CQ_CRYPTO_DRIVER_NAME,
	"dev=<emu|ibdev> key_mode=<auto|wrapped|plaintext> "
	"credential_id=<u24> import_kek_id=<u24> wcs_file=<path> "
	"credential=<96 hex digits> "
	"keytag=<u64> max_segs_num=<n> max_nb_queue_pairs=<1..128> "
	"emu_crypto=<caps|plaintext|wrapped>");
RTE_PMD_REGISTER_CRYPTO_DRIVER(mlx5cq_crypto_drv,
			       mlx5cq_crypto_vdev_driver.driver,
			       mlx5cq_crypto_driver_id);
