/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Devices of the environment: when the library is loaded (a program's
 * dependency, EAL's -d, or net_mlx5cq's plugin load) and MLX5_EMU_DEVICES
 * is set, each of its entries is listed with mlx5_emu_device_add(), so an
 * unmodified program that discovers devices through mlx5_glue (DPDK's
 * net/mlx5 in dpdk-testpmd) finds them. Entries are separated by ';', each
 * a list of key=value separated by ',': name and path (the ibdev_path)
 * required, wire and mac (xx:xx:xx:xx:xx:xx) optional. A malformed entry
 * is logged and nothing is listed (mlx5_emu_devices_add()).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "mlx5_emu_private.h"

#define EMU_ENV_DEVICES "MLX5_EMU_DEVICES"

static int
emu_env_mac(const char *s, uint8_t mac[6])
{
	unsigned int b[6];
	char end;
	int i;

	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2],
		   &b[3], &b[4], &b[5], &end) != 6)
		return -EINVAL;
	for (i = 0; i < 6; i++)
		mac[i] = (uint8_t)b[i];
	return 0;
}

/* Parse one entry (modified in place) into conf: 0 or -EINVAL. */
static int
emu_env_entry_parse(char *entry, struct mlx5_emu_device_conf *conf,
		    uint8_t mac[6])
{
	char *kv, *save = NULL, *val;

	memset(conf, 0, sizeof(*conf));
	for (kv = strtok_r(entry, ",", &save); kv != NULL;
	     kv = strtok_r(NULL, ",", &save)) {
		val = strchr(kv, '=');
		if (val == NULL)
			goto bad;
		*val++ = '\0';
		if (strcmp(kv, "name") == 0) {
			conf->name = val;
		} else if (strcmp(kv, "path") == 0) {
			conf->ibdev_path = val;
		} else if (strcmp(kv, "wire") == 0) {
			conf->wire = val;
		} else if (strcmp(kv, "mac") == 0) {
			if (emu_env_mac(val, mac) != 0)
				goto bad;
			conf->mac = mac;
		} else {
			goto bad;
		}
	}
	if (conf->name == NULL || conf->ibdev_path == NULL)
		goto bad;
	return 0;
bad:
	EMU_LOG(ERR, "device spec: an entry needs name=N,path=P and may have "
		"wire=W,mac=xx:xx:xx:xx:xx:xx, nothing else");
	return -EINVAL;
}

int
mlx5_emu_devices_add(const char *spec)
{
	struct mlx5_emu_device_conf *confs = NULL;
	char *copy, *entry, *save = NULL;
	unsigned int n = 1, i, added = 0;
	uint8_t (*macs)[6] = NULL;
	const char *c;
	int ret = -ENOMEM;

	if (spec == NULL)
		return -EINVAL;
	for (c = spec; *c != '\0'; c++)
		n += *c == ';';
	copy = strdup(spec);
	confs = calloc(n, sizeof(*confs));
	macs = calloc(n, sizeof(*macs));
	if (copy == NULL || confs == NULL || macs == NULL)
		goto out;
	/* Every entry checked first: a bad one lists nothing. */
	n = 0;
	for (entry = strtok_r(copy, ";", &save); entry != NULL;
	     entry = strtok_r(NULL, ";", &save)) {
		ret = emu_env_entry_parse(entry, &confs[n], macs[n]);
		if (ret != 0)
			goto out;
		n++;
	}
	for (i = 0; i < n; i++) {
		ret = mlx5_emu_device_add(&confs[i]);
		if (ret != 0)
			break;
		added++;
	}
	if (ret != 0) {
		for (i = 0; i < added; i++)
			mlx5_emu_device_remove(confs[i].name);
		goto out;
	}
	ret = (int)n;
out:
	free(macs);
	free(confs);
	free(copy);
	return ret;
}

RTE_INIT(emu_env_devices)
{
	const char *env = getenv(EMU_ENV_DEVICES);
	int ret;

	if (env == NULL || env[0] == '\0')
		return;
	ret = mlx5_emu_devices_add(env);
	if (ret < 0)
		EMU_LOG(ERR, "%s: nothing listed (%s)", EMU_ENV_DEVICES,
			strerror(-ret));
}
