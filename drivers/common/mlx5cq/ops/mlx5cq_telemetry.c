/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Telemetry: /mlx5cq/list (ids of the CQs in the registry) and
 * /mlx5cq/info,<id> (shape, consumer index, counters of one CQ).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_telemetry.h>
#include <rte_version.h>

#include "mlx5cq_private.h"

/* rte_tel_data_add_dict_uint() replaced the _u64 call (deprecated) in 23.03. */
#if RTE_VERSION_NUM(23, 3, 0, 0) <= RTE_VERSION
#define tel_dict_u64 rte_tel_data_add_dict_uint
#else
#define tel_dict_u64 rte_tel_data_add_dict_u64
#endif

#define TEL_LIST_MAX 512

static int
tel_list(const char *cmd, const char *params, struct rte_tel_data *d)
{
	uint32_t ids[TEL_LIST_MAX];
	int n, i;

	RTE_SET_USED(cmd);
	RTE_SET_USED(params);
	n = mlx5cq_registry_ids(ids, TEL_LIST_MAX);
	rte_tel_data_start_array(d, RTE_TEL_INT_VAL);
	for (i = 0; i < RTE_MIN(n, TEL_LIST_MAX); i++)
		rte_tel_data_add_array_int(d, (int)ids[i]);
	return 0;
}

static const char *
path_str(enum rte_mlx5cq_path p)
{
	switch (p) {
	case RTE_MLX5CQ_PATH_DEVX: return "devx";
	case RTE_MLX5CQ_PATH_VERBS: return "verbs";
	case RTE_MLX5CQ_PATH_ATTACH: return "attach";
	default: return "auto";
	}
}

static void
tel_info(struct mlx5cq_cq *cq, void *arg)
{
	struct rte_tel_data *d = arg;
	struct rte_mlx5cq *pub = &cq->pub;
	struct rte_mlx5cq_counters c;
	struct rte_tel_data *synd;
	unsigned int s;

	rte_mlx5cq_counters_get(pub, &c);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_int(d, "id", (int)cq->id);
	tel_dict_u64(d, "cqn", pub->cqn);
	rte_tel_data_add_dict_string(d, "path", path_str(cq->path));
	tel_dict_u64(d, "entries", cq->entries);
	tel_dict_u64(d, "cqe_size", cq->cqe_size);
	tel_dict_u64(d, "comp", pub->comp);
	tel_dict_u64(d, "flags", cq->flags);
	tel_dict_u64(d, "ci", pub->ci);
	tel_dict_u64(d, "arm_sn", cq->arm_sn);
	tel_dict_u64(d, "completions", c.completions);
	tel_dict_u64(d, "polls", c.polls);
	tel_dict_u64(d, "empty_polls", c.empty_polls);
	tel_dict_u64(d, "errors", c.errors);
	tel_dict_u64(d, "comp_unhandled", c.comp_unhandled);
	tel_dict_u64(d, "sessions", c.sessions);
	tel_dict_u64(d, "minis", c.minis);
	tel_dict_u64(d, "overruns", c.overruns);
	tel_dict_u64(d, "arms", c.arms);
	tel_dict_u64(d, "events", c.events);
	/* Error syndromes seen: "0x05": count. */
	synd = rte_tel_data_alloc();
	if (synd == NULL)
		return;
	rte_tel_data_start_dict(synd);
	for (s = 0; s < RTE_DIM(c.err_syndrome); s++) {
		char name[8];

		if (c.err_syndrome[s] == 0)
			continue;
		snprintf(name, sizeof(name), "0x%02x", s);
		tel_dict_u64(synd, name, c.err_syndrome[s]);
	}
	if (rte_tel_data_add_dict_container(d, "err_syndrome", synd, 0))
		rte_tel_data_free(synd);
}

static int
tel_info_cmd(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char *end;
	unsigned long id;

	RTE_SET_USED(cmd);
	if (params == NULL || *params == '\0')
		return -EINVAL;
	errno = 0;
	id = strtoul(params, &end, 0);
	if (errno || *end != '\0' || id > UINT32_MAX)
		return -EINVAL;
	return mlx5cq_registry_with((uint32_t)id, tel_info, d);
}

RTE_INIT(mlx5cq_telemetry_init)
{
	rte_telemetry_register_cmd("/mlx5cq/list", tel_list,
				   "Ids of the mlx5cq CQs. No parameters");
	rte_telemetry_register_cmd("/mlx5cq/info", tel_info_cmd,
				   "State and counters of an mlx5cq CQ."
				   " Parameters: int id");
}
