/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_kvargs.h>

#include "mlx5cq_ethdev.h"

const char mlx5cq_devargs_help[] =
	"dev=emu|<ibdev> "
	"cq_path=auto|devx|verbs "
	"cqe_size=64|128 "
	"cqe_pad=0|1 "
	"cqe_comp=none|hash|csum|ftag|csum_stridx|l34h "
	"cqe_comp_layout=basic|enhanced "
	"rx_vec_en=0|1 "
	"mr_ext_memseg_en=0|1 "
	"rxq_desc=<n> "
	"txq_desc=<n> "
	"tx_comp_thresh=<n> "
	"wire=<name> "
	"mac=<xx:xx:xx:xx:xx:xx> "
	"speed=<Mb/s> "
	"mprq_en=0|1 "
	"rxqs_min_mprq=<n> "
	"mprq_log_stride_num=<n> "
	"mprq_log_stride_size=<n> "
	"mprq_max_memcpy_len=<n> "
	"lro_timeout_usec=<us>";

struct mlx5cq_name_val {
	const char *name;
	unsigned int val;
};

static int
mlx5cq_lookup(const char *key, const char *value,
	      const struct mlx5cq_name_val *tab, unsigned int *out)
{
	for (; tab->name != NULL; tab++) {
		if (strcmp(tab->name, value) == 0) {
			*out = tab->val;
			return 0;
		}
	}
	PMD_LOG(ERR, "devargs: bad value \"%s\" for %s", value, key);
	return -EINVAL;
}

static int
mlx5cq_parse_u32(const char *key, const char *value, uint32_t min,
		 uint32_t max, uint32_t *out)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(value, &end, 0);
	if (errno != 0 || end == value || *end != '\0' || value[0] == '-' ||
	    v < min || v > max) {
		PMD_LOG(ERR, "devargs: bad value \"%s\" for %s (%u..%u)",
			value, key, min, max);
		return -EINVAL;
	}
	*out = (uint32_t)v;
	return 0;
}

static int
mlx5cq_parse_str(const char *key, const char *value, char *out, size_t len)
{
	if (value[0] == '\0' || strlen(value) >= len) {
		PMD_LOG(ERR, "devargs: bad value \"%s\" for %s (1..%zu chars)",
			value, key, len - 1);
		return -EINVAL;
	}
	strcpy(out, value);
	return 0;
}

static const struct mlx5cq_name_val mlx5cq_comps[] = {
	{ "none", 0 },
	{ "hash", RTE_MLX5CQ_COMP_HASH },
	{ "csum", RTE_MLX5CQ_COMP_CSUM },
	{ "ftag", RTE_MLX5CQ_COMP_FTAG_STRIDX },
	{ "csum_stridx", RTE_MLX5CQ_COMP_CSUM_STRIDX },
	{ "l34h", RTE_MLX5CQ_COMP_L34H_STRIDX },
	{ NULL, 0 },
};

static const struct mlx5cq_name_val mlx5cq_paths[] = {
	{ "auto", RTE_MLX5CQ_PATH_AUTO },
	{ "devx", RTE_MLX5CQ_PATH_DEVX },
	{ "verbs", RTE_MLX5CQ_PATH_VERBS },
	{ NULL, 0 },
};

static const char *
mlx5cq_name_of(const struct mlx5cq_name_val *tab, unsigned int val)
{
	for (; tab->name != NULL; tab++)
		if (tab->val == val)
			return tab->name;
	return "?";
}

/* Devarg value of a cqe_comp format bit ("none" for 0). */
const char *
mlx5cq_devargs_comp_name(unsigned int comp)
{
	return mlx5cq_name_of(mlx5cq_comps, comp);
}

/* Devarg value of a CQ path. */
const char *
mlx5cq_devargs_path_name(unsigned int path)
{
	return mlx5cq_name_of(mlx5cq_paths, path);
}

static int
mlx5cq_devarg(const char *key, const char *value, void *opaque)
{
	static const struct mlx5cq_name_val sizes[] = {
		{ "64", 64 }, { "128", 128 }, { NULL, 0 },
	};
	static const struct mlx5cq_name_val bools[] = {
		{ "0", 0 }, { "1", 1 }, { NULL, 0 },
	};
	static const struct mlx5cq_name_val layouts[] = {
		{ "basic", RTE_MLX5CQ_COMP_LAYOUT_BASIC },
		{ "enhanced", RTE_MLX5CQ_COMP_LAYOUT_ENHANCED },
		{ NULL, 0 },
	};
	struct mlx5cq_devargs *a = opaque;
	unsigned int v = 0;
	int ret;

	if (value == NULL) {
		PMD_LOG(ERR, "devargs: %s needs a value", key);
		return -EINVAL;
	}
	if (strcmp(key, "dev") == 0)
		return mlx5cq_parse_str(key, value, a->dev, sizeof(a->dev));
	if (strcmp(key, "wire") == 0)
		return mlx5cq_parse_str(key, value, a->wire, sizeof(a->wire));
	if (strcmp(key, "cq_path") == 0) {
		ret = mlx5cq_lookup(key, value, mlx5cq_paths, &v);
		a->cq_path = (enum rte_mlx5cq_path)v;
		return ret;
	}
	if (strcmp(key, "cqe_size") == 0) {
		ret = mlx5cq_lookup(key, value, sizes, &v);
		a->cqe_size = v;
		return ret;
	}
	if (strcmp(key, "cqe_pad") == 0) {
		ret = mlx5cq_lookup(key, value, bools, &v);
		a->cqe_pad = v;
		return ret;
	}
	if (strcmp(key, "cqe_comp") == 0) {
		ret = mlx5cq_lookup(key, value, mlx5cq_comps, &v);
		a->cqe_comp = v;
		a->cqe_comp_set = 1;
		return ret;
	}
	if (strcmp(key, "cqe_comp_layout") == 0) {
		ret = mlx5cq_lookup(key, value, layouts, &v);
		a->cqe_comp_layout = v;
		return ret;
	}
	if (strcmp(key, "rx_vec_en") == 0) {
		ret = mlx5cq_lookup(key, value, bools, &v);
		a->rx_vec_en = v;
		return ret;
	}
	if (strcmp(key, "mr_ext_memseg_en") == 0) {
		ret = mlx5cq_lookup(key, value, bools, &v);
		a->mr_ext_memseg_en = v;
		return ret;
	}
	if (strcmp(key, "rxq_desc") == 0)
		return mlx5cq_parse_u32(key, value, MLX5CQ_DESC_MIN,
					MLX5CQ_DESC_MAX, &a->rxq_desc);
	if (strcmp(key, "txq_desc") == 0)
		return mlx5cq_parse_u32(key, value, MLX5CQ_DESC_MIN,
					MLX5CQ_DESC_MAX, &a->txq_desc);
	if (strcmp(key, "tx_comp_thresh") == 0)
		return mlx5cq_parse_u32(key, value, 1, MLX5CQ_DESC_MAX / 2,
					&a->tx_comp_thresh);
	if (strcmp(key, "mprq_en") == 0) {
		ret = mlx5cq_lookup(key, value, bools, &v);
		a->mprq_en = v;
		return ret;
	}
	/* Ranges: what the PRM's fields can say (stride bytes 2^6..2^13,
	 * strides 2^3..2^16); the device's caps are checked at queue setup.
	 */
	if (strcmp(key, "rxqs_min_mprq") == 0)
		return mlx5cq_parse_u32(key, value, 1, RTE_MAX_QUEUES_PER_PORT,
					&a->rxqs_min_mprq);
	if (strcmp(key, "mprq_log_stride_num") == 0)
		return mlx5cq_parse_u32(key, value, 3, 16,
					&a->mprq_log_stride_num);
	if (strcmp(key, "mprq_log_stride_size") == 0)
		return mlx5cq_parse_u32(key, value, 6, 13,
					&a->mprq_log_stride_size);
	if (strcmp(key, "mprq_max_memcpy_len") == 0)
		return mlx5cq_parse_u32(key, value, 0, UINT16_MAX,
					&a->mprq_max_memcpy_len);
	/* The TIR's 16-bit lro_timeout_period_usecs. */
	if (strcmp(key, "lro_timeout_usec") == 0)
		return mlx5cq_parse_u32(key, value, 1, UINT16_MAX,
					&a->lro_timeout_usec);
	if (strcmp(key, "speed") == 0) {
		ret = mlx5cq_parse_u32(key, value, MLX5CQ_SPEED_UNIT,
				       MLX5CQ_SPEED_MAX, &a->speed);
		if (ret == 0 && a->speed % MLX5CQ_SPEED_UNIT != 0) {
			PMD_LOG(ERR, "devargs: speed %u Mb/s is not a multiple "
				"of %u", a->speed, MLX5CQ_SPEED_UNIT);
			ret = -EINVAL;
		}
		return ret;
	}
	if (strcmp(key, "mac") == 0) {
		if (rte_ether_unformat_addr(value, &a->mac) != 0 ||
		    !rte_is_unicast_ether_addr(&a->mac) ||
		    rte_is_zero_ether_addr(&a->mac)) {
			PMD_LOG(ERR, "devargs: bad value \"%s\" for mac "
				"(a unicast xx:xx:xx:xx:xx:xx)", value);
			return -EINVAL;
		}
		a->mac_set = 1;
		return 0;
	}
	PMD_LOG(ERR, "devargs: unknown key %s (known keys: %s)", key,
		mlx5cq_devargs_help);
	return -EINVAL;
}

/*
 * Parse the device arguments. Unknown keys and bad values fail with a log
 * line naming them and -EINVAL; nothing stays allocated.
 */
int
mlx5cq_devargs_parse(const char *params, struct mlx5cq_devargs *args)
{
	struct rte_kvargs *kv;
	int ret;

	memset(args, 0, sizeof(*args));
	strcpy(args->dev, "emu");
	args->cq_path = RTE_MLX5CQ_PATH_AUTO;
	args->cqe_size = 64;
	/* As DPDK's net/mlx5 (rxq_cqe_comp_en): RX CQE compression on, HASH
	 * mini-CQEs, unless the device cannot (mlx5cq_device.c).
	 */
	args->cqe_comp = RTE_MLX5CQ_COMP_HASH;
	args->rx_vec_en = 1;
	args->mr_ext_memseg_en = 1;
	args->tx_comp_thresh = MLX5CQ_TX_COMP_THRESH_DEFAULT;
	args->rxqs_min_mprq = MLX5CQ_MPRQ_MIN_RXQS_DEFAULT;
	args->mprq_log_stride_num = MLX5CQ_MPRQ_LOG_STRIDE_NUM_DEFAULT;
	args->mprq_log_stride_size = MLX5CQ_MPRQ_UNSET;
	args->mprq_max_memcpy_len = MLX5CQ_MPRQ_MEMCPY_DEFAULT;
	if (params == NULL || params[0] == '\0')
		return 0;
	/* No key list here: the handler names an unknown key itself. */
	kv = rte_kvargs_parse(params, NULL);
	if (kv == NULL) {
		PMD_LOG(ERR, "devargs: cannot parse \"%s\" (known keys: %s)",
			params, mlx5cq_devargs_help);
		return -EINVAL;
	}
	ret = rte_kvargs_process(kv, NULL, mlx5cq_devarg, args);
	rte_kvargs_free(kv);
	if (ret != 0)
		return -EINVAL;
	if (args->cqe_pad && args->cqe_size != 128) {
		PMD_LOG(ERR, "devargs: cqe_pad=1 needs cqe_size=128");
		return -EINVAL;
	}
	if (args->cqe_comp_layout != RTE_MLX5CQ_COMP_LAYOUT_BASIC &&
	    args->cqe_comp == 0) {
		PMD_LOG(ERR, "devargs: cqe_comp_layout=enhanced needs cqe_comp");
		return -EINVAL;
	}
	/*
	 * The verbs path (mlx5dv_create_cq) knows the HASH, CSUM and
	 * CSUM_STRIDX mini-CQE formats and the basic layout only
	 * (MLX5DV_CQE_RES_FORMAT_*): the others exist on DevX alone.
	 */
	if (args->cq_path == RTE_MLX5CQ_PATH_VERBS &&
	    (args->cqe_comp == RTE_MLX5CQ_COMP_FTAG_STRIDX ||
	     args->cqe_comp == RTE_MLX5CQ_COMP_L34H_STRIDX)) {
		PMD_LOG(ERR, "devargs: cq_path=verbs cannot have cqe_comp=%s "
			"(verbs CQs: cqe_comp=hash|csum|csum_stridx)",
			mlx5cq_devargs_comp_name(args->cqe_comp));
		return -EINVAL;
	}
	if (args->cq_path == RTE_MLX5CQ_PATH_VERBS &&
	    args->cqe_comp_layout == RTE_MLX5CQ_COMP_LAYOUT_ENHANCED) {
		PMD_LOG(ERR, "devargs: cq_path=verbs cannot have "
			"cqe_comp_layout=enhanced (DevX only)");
		return -EINVAL;
	}
	if (strcmp(args->dev, "emu") != 0 &&
	    (args->wire[0] != '\0' || args->mac_set || args->speed != 0)) {
		PMD_LOG(ERR, "devargs: wire, mac and speed apply to dev=emu "
			"only");
		return -EINVAL;
	}
	return 0;
}
