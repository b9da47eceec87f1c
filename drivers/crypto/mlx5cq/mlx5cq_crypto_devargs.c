/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Devargs of crypto_mlx5cq: those of DPDK's crypto/mlx5 (credential_id,
 * import_kek_id, wcs_file, keytag, max_segs_num) plus credential= (the
 * wrapped credential as hex digits on the command line, an extension),
 * dev= (the device: "emu" or an ibdev name), key_mode= (auto, wrapped,
 * plaintext), max_nb_queue_pairs= (the cryptodev vdev key of
 * rte_cryptodev_pmd.h: fewer queue pairs than crypto/mlx5's 128) and, for
 * dev=emu, emu_crypto= (the emulated device's crypto engine: plaintext or
 * wrapped key import) and, with emu_crypto=wrapped, emu_kek= and
 * emu_credential= (the import KEK and credential the emulated device is
 * provisioned with, as a crypto officer leaves a card).
 */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_kvargs.h>

#include "mlx5cq_crypto.h"

static const char *const mlx5cq_crypto_emu_modes[] = {
	[MLX5CQ_CRYPTO_EMU_CAPS] = "caps",
	[MLX5CQ_CRYPTO_EMU_PLAINTEXT] = "plaintext",
	[MLX5CQ_CRYPTO_EMU_WRAPPED] = "wrapped",
};

static const char *const mlx5cq_crypto_key_modes[] = {
	[MLX5CQ_CRYPTO_KEY_AUTO] = "auto",
	[MLX5CQ_CRYPTO_KEY_WRAPPED] = "wrapped",
	[MLX5CQ_CRYPTO_KEY_PLAINTEXT] = "plaintext",
};

/* Index of val in a table of n names; -1 when absent. */
static int
mlx5cq_crypto_name_index(const char *const *names, unsigned int n,
			 const char *val)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (strcmp(val, names[i]) == 0)
			return (int)i;
	return -1;
}

/* Unsigned integer (decimal, 0x hex, 0 octal) of at most max. */
static int
mlx5cq_crypto_uint(const char *val, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (val == NULL || *val == '\0' || *val == '-' || isspace(*val))
		return -1;
	errno = 0;
	v = strtoull(val, &end, 0);
	if (errno != 0 || *end != '\0' || v > max)
		return -1;
	*out = v;
	return 0;
}

/* The credential: MLX5_CRYPTO_CREDENTIAL_SIZE bytes as hex digits. */
static int
mlx5cq_crypto_hex(const char *val, uint8_t *out, size_t n)
{
	size_t i;
	char byte[3] = { 0 };

	if (strlen(val) != 2 * n)
		return -1;
	for (i = 0; i < n; i++) {
		byte[0] = val[2 * i];
		byte[1] = val[2 * i + 1];
		if (!isxdigit(byte[0]) || !isxdigit(byte[1]))
			return -1;
		out[i] = (uint8_t)strtoul(byte, NULL, 16);
	}
	return 0;
}

/*
 * The wrapped credential from a file, as DPDK's crypto/mlx5 reads
 * wcs_file (mlx5_crypto_args_check_handler()): n bytes, each two hex
 * digits, white space between them allowed; what follows is not read.
 */
static int
mlx5cq_crypto_wcs_file(const char *path, uint8_t *out, size_t n)
{
	unsigned int b;
	size_t i;
	FILE *f;

	f = fopen(path, "re");
	if (f == NULL) {
		CRYPTO_LOG(ERR, "wcs_file %s: cannot open: %s", path,
			   strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (fscanf(f, "%2x", &b) != 1)
			break;
		out[i] = (uint8_t)b;
	}
	fclose(f);
	if (i < n) {
		CRYPTO_LOG(ERR, "wcs_file %s: %zu of the %zu credential bytes "
			   "(two hex digits each) read", path, i, n);
		return -1;
	}
	return 0;
}

static int
mlx5cq_crypto_devarg(const char *key, const char *val, void *opaque)
{
	struct mlx5cq_crypto_devargs *a = opaque;
	uint64_t v;
	int i;

	if (val == NULL)
		val = "";
	if (strcmp(key, "dev") == 0) {
		if (*val == '\0' || strlen(val) >= sizeof(a->dev))
			goto bad;
		strcpy(a->dev, val);
	} else if (strcmp(key, "credential_id") == 0) {
		if (mlx5cq_crypto_uint(val, 0xffffff, &v) != 0)
			goto bad;
		a->credential_id = (uint32_t)v;
	} else if (strcmp(key, "import_kek_id") == 0) {
		if (mlx5cq_crypto_uint(val, 0xffffff, &v) != 0)
			goto bad;
		a->import_kek_id = (uint32_t)v;
	} else if (strcmp(key, "credential") == 0) {
		if (mlx5cq_crypto_hex(val, a->credential,
				      sizeof(a->credential)) != 0) {
			CRYPTO_LOG(ERR, "bad value for credential: %u hex "
				   "digits expected",
				   (unsigned int)(2 * sizeof(a->credential)));
			rte_errno = EINVAL;
			return -EINVAL;
		}
		if (a->wcs_file_set)
			goto both;
		a->credential_set = 1;
	} else if (strcmp(key, "wcs_file") == 0) {
		if (a->credential_set)
			goto both;
		if (*val == '\0')
			goto bad;
		if (mlx5cq_crypto_wcs_file(val, a->credential,
					   sizeof(a->credential)) != 0) {
			rte_errno = EINVAL;
			return -EINVAL;
		}
		a->credential_set = 1;
		a->wcs_file_set = 1;
	} else if (strcmp(key, "emu_kek") == 0) {
		if (mlx5cq_crypto_hex(val, a->emu_kek, 16) == 0) {
			a->emu_kek_len = 16;
		} else if (mlx5cq_crypto_hex(val, a->emu_kek, 32) == 0) {
			a->emu_kek_len = 32;
		} else {
			CRYPTO_LOG(ERR, "bad value for emu_kek: 32 or 64 hex "
				   "digits expected (AES-128 or AES-256 KEK)");
			rte_errno = EINVAL;
			return -EINVAL;
		}
	} else if (strcmp(key, "emu_credential") == 0) {
		if (mlx5cq_crypto_hex(val, a->emu_cred,
				      sizeof(a->emu_cred)) != 0) {
			CRYPTO_LOG(ERR, "bad value for emu_credential: %u hex "
				   "digits expected",
				   (unsigned int)(2 * sizeof(a->emu_cred)));
			rte_errno = EINVAL;
			return -EINVAL;
		}
		a->emu_cred_set = 1;
	} else if (strcmp(key, "keytag") == 0) {
		if (mlx5cq_crypto_uint(val, UINT64_MAX, &v) != 0)
			goto bad;
		a->keytag = v;
	} else if (strcmp(key, "max_segs_num") == 0) {
		if (mlx5cq_crypto_uint(val, 4096, &v) != 0 || v == 0)
			goto bad;
		a->max_segs_num = (uint32_t)v;
	} else if (strcmp(key, RTE_CRYPTODEV_PMD_MAX_NB_QP_ARG) == 0) {
		if (mlx5cq_crypto_uint(val, MLX5CQ_CRYPTO_MAX_QPS, &v) != 0 ||
		    v == 0)
			goto bad;
		a->max_qps = (uint32_t)v;
	} else if (strcmp(key, "key_mode") == 0) {
		i = mlx5cq_crypto_name_index(mlx5cq_crypto_key_modes,
				RTE_DIM(mlx5cq_crypto_key_modes), val);
		if (i < 0)
			goto bad;
		a->key_mode = (enum mlx5cq_crypto_key_mode)i;
	} else if (strcmp(key, "emu_crypto") == 0) {
		i = mlx5cq_crypto_name_index(mlx5cq_crypto_emu_modes,
				RTE_DIM(mlx5cq_crypto_emu_modes), val);
		if (i < 0)
			goto bad;
		a->emu_crypto = (enum mlx5cq_crypto_emu)i;
	} else {
		CRYPTO_LOG(ERR, "unknown key %s", key);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	return 0;
bad:
	CRYPTO_LOG(ERR, "bad value \"%s\" for %s", val, key);
	rte_errno = EINVAL;
	return -EINVAL;
both:
	CRYPTO_LOG(ERR, "credential= and wcs_file= both give the credential");
	rte_errno = EINVAL;
	return -EINVAL;
}

/* Defaults, then the devargs; -EINVAL (rte_errno) with a log line. */
int
mlx5cq_crypto_devargs_parse(const char *params,
			    struct mlx5cq_crypto_devargs *args)
{
	struct rte_kvargs *kv;
	unsigned int i;
	int ret;

	memset(args, 0, sizeof(*args));
	args->max_segs_num = MLX5CQ_CRYPTO_SEGS_DEFAULT;
	args->max_qps = MLX5CQ_CRYPTO_MAX_QPS;
	args->key_mode = MLX5CQ_CRYPTO_KEY_AUTO;
	if (params == NULL || *params == '\0')
		goto check;
	/* rte_kvargs_parse() takes any key: check them here for the log. */
	kv = rte_kvargs_parse(params, NULL);
	if (kv == NULL) {
		CRYPTO_LOG(ERR, "cannot parse devargs \"%s\"", params);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	for (i = 0; i < kv->count; i++) {
		ret = mlx5cq_crypto_devarg(kv->pairs[i].key,
					   kv->pairs[i].value, args);
		if (ret != 0) {
			rte_kvargs_free(kv);
			return ret;
		}
	}
	rte_kvargs_free(kv);
check:
	if (args->dev[0] == '\0') {
		CRYPTO_LOG(ERR, "dev= is required (emu or an RDMA device "
			   "name)");
		rte_errno = EINVAL;
		return -EINVAL;
	}
	if (args->emu_crypto != MLX5CQ_CRYPTO_EMU_CAPS &&
	    strcmp(args->dev, "emu") != 0) {
		CRYPTO_LOG(ERR, "emu_crypto applies to dev=emu only");
		rte_errno = EINVAL;
		return -EINVAL;
	}
	if ((args->emu_kek_len != 0 || args->emu_cred_set) &&
	    args->emu_crypto != MLX5CQ_CRYPTO_EMU_WRAPPED) {
		CRYPTO_LOG(ERR, "emu_kek and emu_credential apply to "
			   "emu_crypto=wrapped only");
		rte_errno = EINVAL;
		return -EINVAL;
	}
	if ((args->emu_kek_len != 0) != args->emu_cred_set) {
		CRYPTO_LOG(ERR, "emu_kek and emu_credential go together "
			   "(the device is provisioned with both)");
		rte_errno = EINVAL;
		return -EINVAL;
	}
	if (args->key_mode == MLX5CQ_CRYPTO_KEY_PLAINTEXT &&
	    args->credential_set) {
		CRYPTO_LOG(ERR, "credential applies to key_mode=wrapped only");
		rte_errno = EINVAL;
		return -EINVAL;
	}
	return 0;
}
