/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Wall-clock completion times, as rdma-core 44's mlx5 provider gives them
 * (providers/mlx5/cq.c mlx5_cq_fill_pfns(), mlx5_start_poll(),
 * mlx5_cq_read_wc_completion_wallclock_ns()):
 *   - the CQEs carry real time and the free-running stamp is not asked
 *     (IBV_WC_EX_WITH_COMPLETION_TIMESTAMP not in wc_flags): the CQE
 *     timestamp is returned as it is. rdma-core decides it by the
 *     context's MLX5DV_CONTEXT_FLAGS_REAL_TIME_TS (and then creates the CQ
 *     with MLX5_IB_CREATE_CQ_FLAGS_REAL_TIME_TS, which makes the QPs on it
 *     stamp real time): the verbs path does the same. The DevX path has no
 *     QPs of its own; its CQEs carry real time for sure only when
 *     QUERY_HCA_CAP offers real time alone (sq_ts_format and rq_ts_format
 *     both MLX5_HCA_CAP_TIMESTAMP_FORMAT_RT);
 *   - otherwise the clock information of mlx5dv_get_clock_info() (the
 *     kernel's clock-info page) is read at each start_poll and turns the
 *     free-running stamp into nanoseconds with mlx5dv_ts_to_ns(); a
 *     context without it refuses the flag at creation with EOPNOTSUPP
 *     (rdma-core: no clock_info_page).
 * mlx5dv_get_clock_info() is not in DPDK's mlx5_glue: the glue extension
 * table below resolves it (mlx5cq_clock.h).
 */

#include <dlfcn.h>
#include <errno.h>
#include <string.h>

#include <mlx5_prm.h>

#include "mlx5cq_private.h"
#include "mlx5cq_emu_plugin.h"

/* Exported by the emulated HCA (mlx5_emu.h). */
#define MLX5CQ_EMU_CLOCK_INFO_SYM "mlx5_emu_get_clock_info"
#define MLX5CQ_LIBMLX5_SONAME "libmlx5.so.1"

typedef int (*clock_info_fn)(struct ibv_context *,
			     struct mlx5dv_clock_info *);

/* libmlx5's mlx5dv_get_clock_info(), when libmlx5 is in the process. */
static clock_info_fn
libmlx5_clock_info(void)
{
	void *sym, *h;

	sym = dlsym(RTLD_DEFAULT, "mlx5dv_get_clock_info");
	if (sym != NULL)
		return (clock_info_fn)(uintptr_t)sym;
	/* Loaded privately (DPDK's glue library): found, not loaded. */
	h = dlopen(MLX5CQ_LIBMLX5_SONAME, RTLD_LAZY | RTLD_NOLOAD);
	if (h == NULL)
		return NULL;
	sym = dlsym(h, "mlx5dv_get_clock_info");
	dlclose(h); /* The library stays loaded: it was before. */
	return (clock_info_fn)(uintptr_t)sym;
}

void
mlx5cq_glue_ext_get(struct mlx5cq_glue_ext *ext)
{
	void *sym;

	/* The emulated HCA, linked in or loaded as the PMDs' plugin. */
	sym = dlsym(RTLD_DEFAULT, MLX5CQ_EMU_CLOCK_INFO_SYM);
	if (sym == NULL)
		sym = mlx5cq_emu_plugin_find(MLX5CQ_EMU_CLOCK_INFO_SYM);
	ext->get_clock_info = sym != NULL ?
			      (clock_info_fn)(uintptr_t)sym :
			      libmlx5_clock_info();
}

int
mlx5cq_wallclock_setup(const struct rte_mlx5cq_dev *dev,
		       struct mlx5cq_params *p)
{
	struct mlx5cq_glue_ext ext;
	struct mlx5dv_clock_info ci;
	int ret, rt;

	memset(&p->wallclock, 0, sizeof(p->wallclock));
	if (!(p->wc_flags & IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK))
		return 0;
	if (!(p->wc_flags & IBV_WC_EX_WITH_COMPLETION_TIMESTAMP)) {
		/* DevX: every queue stamps real time (HCA_CAP offers it
		 * alone); verbs: rdma-core's context flag.
		 */
		rt = p->path == RTE_MLX5CQ_PATH_DEVX ?
		     dev->caps.sq_ts_format ==
		     MLX5_HCA_CAP_TIMESTAMP_FORMAT_RT &&
		     dev->caps.rq_ts_format ==
		     MLX5_HCA_CAP_TIMESTAMP_FORMAT_RT :
		     !!(dev->caps.dv_flags & MLX5DV_CONTEXT_FLAGS_REAL_TIME_TS);
		if (rt) {
			p->wallclock.rt = 1;
			return 0;
		}
	}
	mlx5cq_glue_ext_get(&ext);
	if (ext.get_clock_info == NULL) {
		MLX5CQ_LOG(ERR, "unsupported attribute wc_flags=WALLCLOCK:"
			   " mlx5dv_get_clock_info() is nowhere in the process");
		return -EOPNOTSUPP;
	}
	/* EBUSY: the kernel is updating the page, which exists. */
	ret = ext.get_clock_info(dev->ctx, &ci);
	if (ret != 0 && ret != EBUSY) {
		MLX5CQ_LOG(ERR, "unsupported attribute wc_flags=WALLCLOCK: no"
			   " clock information on this context (%d)", ret);
		return -EOPNOTSUPP;
	}
	p->wallclock.get_clock_info = ext.get_clock_info;
	return 0;
}
