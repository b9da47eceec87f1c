/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Validation of CQ creation attributes, before anything is allocated.
 * Each rule names its source; doc/guides/mlx5cq_create.rst has the table.
 *
 * Common to both paths:
 *   - unknown comp_mask or flag bits                       EINVAL
 *   - cqe 0, entries above 2^24 or the device's limit      EINVAL
 *   - wc_flags outside the mlx5 provider's set             ENOTSUP
 *   - WALLCLOCK without clock information (mlx5cq_clock.c) EOPNOTSUPP
 *   - cqe_size not 64/128, CQE_PAD without 128 B           EINVAL
 *   - compression without a format, several format bits,
 *     unknown layout                                       EINVAL
 *   - comp_vector beyond the device's vectors              EINVAL
 *   - socket that does not exist, unknown path             EINVAL
 * Device capabilities, by path:
 *   - verbs: what rdma-core's create_cq() (providers/mlx5/verbs.c)
 *     refuses itself is EINVAL (compression without cqe_comp_caps.max_num
 *     or with a format outside supported_format, CQE_PAD without the
 *     vendor flag MLX5DV_CONTEXT_FLAGS_CQE_128B_PAD); what the kernel's
 *     create_cq_user() (drivers/infiniband/hw/mlx5/cq.c) refuses after it
 *     is EOPNOTSUPP (128 B compression without cqe_compression_128);
 *   - DevX: the kernel passes CREATE_CQ to the firmware unchecked; the
 *     library checks the HCA_CAP fields first and answers EOPNOTSUPP, the
 *     errno create_cq_user() gives for the same capabilities.
 * Plain 128 B CQEs need no capability on either path (create_cq_user()
 * and DPDK's mlx5_devx_cmd_create_cq() do not look at one);
 * cqe_128_always gates only the padded stride.
 */

#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_memory.h>

#include "mlx5cq_private.h"

/* PRM mini_cqe_res_format values (mlx5_prm.h MLX5_CQE_RESP_FORMAT_*). */
enum {
	PRM_FORMAT_HASH = 0,
	PRM_FORMAT_CSUM = 1,
	PRM_FORMAT_FTAG_STRIDX = 2,
	PRM_FORMAT_CSUM_STRIDX = 3,
	PRM_FORMAT_L34H_STRIDX = 4,
};

#define ATTR_MASK_ALL (RTE_MLX5CQ_ATTR_CQE_SIZE | \
		       RTE_MLX5CQ_ATTR_COMPRESSED | \
		       RTE_MLX5CQ_ATTR_WC_FLAGS | \
		       RTE_MLX5CQ_ATTR_MODERATION)
/* cqc.cq_period is 12 bits wide (mlx5_prm.h). */
#define MLX5CQ_CQ_PERIOD_MAX 0xfff

#define COMP_FORMAT_ALL (RTE_MLX5CQ_COMP_HASH | RTE_MLX5CQ_COMP_CSUM | \
			 RTE_MLX5CQ_COMP_CSUM_STRIDX | \
			 RTE_MLX5CQ_COMP_FTAG_STRIDX | \
			 RTE_MLX5CQ_COMP_L34H_STRIDX)

/*
 * wc_flags the rdma-core mlx5 provider accepts (providers/mlx5/verbs.c
 * CREATE_CQ_SUPPORTED_WC_FLAGS): the standard set, both timestamps, CVLAN,
 * flow tag and tag-matching info.
 */
#define MLX5CQ_SUPPORTED_WC_FLAGS ((uint64_t)IBV_WC_STANDARD_FLAGS | \
	IBV_WC_EX_WITH_COMPLETION_TIMESTAMP | IBV_WC_EX_WITH_CVLAN | \
	IBV_WC_EX_WITH_FLOW_TAG | IBV_WC_EX_WITH_TM_INFO | \
	IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK)

static const char *
path_name(enum rte_mlx5cq_path path)
{
	switch (path) {
	case RTE_MLX5CQ_PATH_AUTO: return "auto";
	case RTE_MLX5CQ_PATH_DEVX: return "devx";
	case RTE_MLX5CQ_PATH_VERBS: return "verbs";
	case RTE_MLX5CQ_PATH_ATTACH: return "attach";
	}
	return "?";
}

static int
socket_valid(int socket)
{
	unsigned int i;

	if (socket == SOCKET_ID_ANY)
		return 1;
	if (socket < 0)
		return 0;
	for (i = 0; i < rte_socket_count(); i++)
		if (rte_socket_id_by_idx(i) == socket)
			return 1;
	return 0;
}

static int
fail(int err)
{
	rte_errno = err;
	return -err;
}

/* Size rules; fills entries/log_n. */
static int
check_size(const struct rte_mlx5cq_dev *dev, uint32_t cqe,
	   struct mlx5cq_params *p)
{
	uint32_t dev_max = UINT32_C(1) << dev->caps.log_max_cq_sz;

	if (cqe == 0) {
		MLX5CQ_LOG(ERR, "invalid attribute cqe=0: at least one entry"
			   " is needed");
		return fail(EINVAL);
	}
	/* cqe + 1 entries must fit in a power of two <= 2^24. */
	if (cqe >= MLX5CQ_MAX_ENTRIES) {
		MLX5CQ_LOG(ERR, "invalid attribute cqe=%u: above the largest"
			   " CQ (%u entries)", cqe, MLX5CQ_MAX_ENTRIES - 1);
		return fail(EINVAL);
	}
	if (dev->caps.log_max_cq_sz < 32 && cqe > dev_max - 1) {
		MLX5CQ_LOG(ERR, "invalid attribute cqe=%u: above the device"
			   " limit %u (log_max_cq_sz %u)", cqe, dev_max - 1,
			   dev->caps.log_max_cq_sz);
		return fail(EINVAL);
	}
	p->cqe = cqe;
	p->entries = rte_align32pow2(cqe + 1);
	p->log_n = (uint8_t)rte_log2_u32(p->entries);
	return 0;
}

/* Map the public format bit to the PRM value; -1 when unknown. */
static int
prm_format(uint8_t fmt)
{
	switch (fmt) {
	case RTE_MLX5CQ_COMP_HASH: return PRM_FORMAT_HASH;
	case RTE_MLX5CQ_COMP_CSUM: return PRM_FORMAT_CSUM;
	case RTE_MLX5CQ_COMP_CSUM_STRIDX: return PRM_FORMAT_CSUM_STRIDX;
	case RTE_MLX5CQ_COMP_FTAG_STRIDX: return PRM_FORMAT_FTAG_STRIDX;
	case RTE_MLX5CQ_COMP_L34H_STRIDX: return PRM_FORMAT_L34H_STRIDX;
	}
	return -1;
}

/*
 * DevX path: the HCA_CAP field behind each cqc setting (mlx5_prm.h
 * cmd_hca_cap), checked before the firmware sees CREATE_CQ; EOPNOTSUPP
 * as the kernel's create_cq_user() answers for the same capabilities.
 */
static int
check_devx_caps(const struct rte_mlx5cq_dev *dev,
		const struct mlx5cq_params *p)
{
	const struct mlx5cq_caps *c = &dev->caps;

	/* cqc.cqe_sz 2 (padded) needs cqe_128_always; 1 (plain) nothing. */
	if (p->cqe_pad && !c->cqe_128_always) {
		MLX5CQ_LOG(ERR, "unsupported attribute flags=CQE_PAD: device"
			   " lacks cqe_128_always");
		return fail(EOPNOTSUPP);
	}
	/* Moderation needs cq_moderation; the CQE start cq_period_start_from_cqe. */
	if ((p->cq_period || p->cq_max_count) && !c->cq_moderation) {
		MLX5CQ_LOG(ERR, "unsupported attribute moderation: device"
			   " lacks cq_moderation");
		return fail(EOPNOTSUPP);
	}
	if (p->cq_period_mode == RTE_MLX5CQ_PERIOD_FROM_CQE &&
	    !c->cq_period_start_from_cqe) {
		MLX5CQ_LOG(ERR, "unsupported attribute cq_period_mode=cqe:"
			   " device lacks cq_period_start_from_cqe");
		return fail(EOPNOTSUPP);
	}
	/*
	 * cqc.scqe_break_moderation_en needs HCA_CAP.scqe_break_moderation
	 * (mlx5_prm.h names both; no driver sets the bit to quote).
	 */
	if ((p->flags & RTE_MLX5CQ_F_SCQE_BREAK_MODERATION) &&
	    !c->scqe_break_moderation) {
		MLX5CQ_LOG(ERR, "unsupported attribute flags="
			   "SCQE_BREAK_MODERATION: device lacks"
			   " scqe_break_moderation");
		return fail(EOPNOTSUPP);
	}
	/* cqc.oi needs HCA_CAP.cq_oi (the firmware refuses it otherwise). */
	if ((p->flags & RTE_MLX5CQ_F_IGNORE_OVERRUN) && !c->cq_oi) {
		MLX5CQ_LOG(ERR, "unsupported attribute flags=IGNORE_OVERRUN:"
			   " device lacks cq_oi");
		return fail(EOPNOTSUPP);
	}
	if (!p->comp_format)
		return 0;
	if (!c->cqe_compression) {
		MLX5CQ_LOG(ERR, "unsupported attribute comp_format=%#x: device"
			   " lacks cqe_compression", p->comp_format);
		return fail(EOPNOTSUPP);
	}
	if (p->cqe_size == 128 && !c->cqe_compression_128) {
		MLX5CQ_LOG(ERR, "unsupported attribute comp_format=%#x with"
			   " cqe_size=128: device lacks cqe_compression_128",
			   p->comp_format);
		return fail(EOPNOTSUPP);
	}
	switch (p->comp_format) {
	case RTE_MLX5CQ_COMP_CSUM_STRIDX:
		if (!c->mini_cqe_resp_stride_index)
			goto no_format;
		break;
	case RTE_MLX5CQ_COMP_FTAG_STRIDX:
		if (!c->mini_cqe_resp_flow_tag)
			goto no_format;
		break;
	case RTE_MLX5CQ_COMP_L34H_STRIDX:
		if (!c->mini_cqe_resp_l3_l4_tag)
			goto no_format;
		break;
	default:
		break;
	}
	if (p->comp_layout == RTE_MLX5CQ_COMP_LAYOUT_ENHANCED &&
	    !c->enhanced_cqe_compression) {
		MLX5CQ_LOG(ERR, "unsupported attribute comp_layout=enhanced:"
			   " device lacks enhanced_cqe_compression");
		return fail(EOPNOTSUPP);
	}
	return 0;
no_format:
	MLX5CQ_LOG(ERR, "unsupported attribute comp_format=%#x: the device"
		   " lacks this mini-CQE format", p->comp_format);
	return fail(EOPNOTSUPP);
}

/*
 * Verbs path: rdma-core's create_cq() checks first, in its order, with its
 * errno; then the kernel's create_cq_user().
 */
static int
check_verbs_caps(const struct rte_mlx5cq_dev *dev,
		 const struct mlx5cq_params *p)
{
	const struct mlx5cq_caps *c = &dev->caps;

	/*
	 * Library policy: mlx5dv_create_cq() has no attribute for a
	 * collapsed CQ or for solicited CQEs breaking moderation.
	 */
	if (p->flags & (RTE_MLX5CQ_F_COLLAPSED |
			RTE_MLX5CQ_F_SCQE_BREAK_MODERATION)) {
		MLX5CQ_LOG(ERR, "unsupported attribute flags=%s on the verbs"
			   " path: mlx5dv_create_cq() has no such attribute",
			   (p->flags & RTE_MLX5CQ_F_COLLAPSED) ? "COLLAPSED" :
			   "SCQE_BREAK_MODERATION");
		return fail(EOPNOTSUPP);
	}
	/* Library policy: no moderation attribute in mlx5dv_create_cq(). */
	if (p->cq_period || p->cq_max_count ||
	    p->cq_period_mode != RTE_MLX5CQ_PERIOD_FROM_EQE) {
		MLX5CQ_LOG(ERR, "unsupported attribute moderation on the verbs"
			   " path: mlx5dv_create_cq() has none and DPDK's glue"
			   " no ibv_modify_cq()");
		return fail(EOPNOTSUPP);
	}
	if (p->comp_format) {
		/*
		 * Library policy: mlx5dv_cq_init_attr has no layout field,
		 * the path cannot make the enhanced layout at all.
		 */
		if (p->comp_layout == RTE_MLX5CQ_COMP_LAYOUT_ENHANCED) {
			MLX5CQ_LOG(ERR, "unsupported attribute comp_layout="
				   "enhanced on the verbs path: mlx5dv has no"
				   " layout attribute");
			return fail(EOPNOTSUPP);
		}
		/*
		 * rdma-core create_cq(): compression needs
		 * cqe_comp_caps.max_num and a requested format bit in
		 * supported_format, else EINVAL. HASH, CSUM and CSUM_STRIDX
		 * equal MLX5DV_CQE_RES_FORMAT_*; FTAG_STRIDX and L34H_STRIDX
		 * are bits supported_format never holds.
		 */
		if (c->dv_comp_max_num == 0) {
			MLX5CQ_LOG(ERR, "invalid attribute comp_format=%#x:"
				   " device reports no CQE compression"
				   " (cqe_comp_caps.max_num 0)",
				   p->comp_format);
			return fail(EINVAL);
		}
		if (!(c->dv_comp_formats & p->comp_format)) {
			MLX5CQ_LOG(ERR, "invalid attribute comp_format=%#x: not"
				   " in the device's verbs formats %#x",
				   p->comp_format, c->dv_comp_formats);
			return fail(EINVAL);
		}
	}
	/* rdma-core create_cq(): CQE_PAD needs the vendor flag, else EINVAL. */
	if (p->cqe_pad && !(c->dv_flags & MLX5DV_CONTEXT_FLAGS_CQE_128B_PAD)) {
		MLX5CQ_LOG(ERR, "invalid attribute flags=CQE_PAD: device lacks"
			   " MLX5DV_CONTEXT_FLAGS_CQE_128B_PAD");
		return fail(EINVAL);
	}
	/*
	 * Kernel create_cq_user(): compression of 128 B CQEs needs
	 * cqe_compression_128 (reported as CQE_128B_COMP), else EOPNOTSUPP.
	 */
	if (p->comp_format && p->cqe_size == 128 &&
	    !(c->dv_flags & MLX5DV_CONTEXT_FLAGS_CQE_128B_COMP)) {
		MLX5CQ_LOG(ERR, "unsupported attribute comp_format=%#x with"
			   " cqe_size=128: device lacks"
			   " MLX5DV_CONTEXT_FLAGS_CQE_128B_COMP",
			   p->comp_format);
		return fail(EOPNOTSUPP);
	}
	return 0;
}

int
mlx5cq_attr_check(const struct rte_mlx5cq_dev *dev,
		  const struct rte_mlx5cq_attr *attr, struct mlx5cq_params *p)
{
	int ret;

	memset(p, 0, sizeof(*p));
	if (dev == NULL || attr == NULL) {
		MLX5CQ_LOG(ERR, "invalid argument: dev=%p attr=%p",
			   (const void *)dev, (const void *)attr);
		return fail(EINVAL);
	}
	if (attr->comp_mask & ~(uint32_t)ATTR_MASK_ALL) {
		MLX5CQ_LOG(ERR, "invalid attribute comp_mask=%#x: unknown bits"
			   " %#x", attr->comp_mask,
			   attr->comp_mask & ~(uint32_t)ATTR_MASK_ALL);
		return fail(EINVAL);
	}
	if (attr->flags & ~(uint32_t)RTE_MLX5CQ_F_ALL) {
		MLX5CQ_LOG(ERR, "invalid attribute flags=%#x: unknown bits %#x",
			   attr->flags,
			   attr->flags & ~(uint32_t)RTE_MLX5CQ_F_ALL);
		return fail(EINVAL);
	}
	p->flags = attr->flags;
	ret = check_size(dev, attr->cqe, p);
	if (ret)
		return ret;
	p->wc_flags = IBV_WC_STANDARD_FLAGS;
	if (attr->comp_mask & RTE_MLX5CQ_ATTR_WC_FLAGS) {
		if (attr->wc_flags & ~MLX5CQ_SUPPORTED_WC_FLAGS) {
			MLX5CQ_LOG(ERR, "unsupported attribute wc_flags=%#"
				   PRIx64 ": unsupported bits %#" PRIx64,
				   attr->wc_flags,
				   attr->wc_flags & ~MLX5CQ_SUPPORTED_WC_FLAGS);
			return fail(ENOTSUP);
		}
		p->wc_flags = attr->wc_flags;
	}
	p->cqe_size = 64;
	if (attr->comp_mask & RTE_MLX5CQ_ATTR_CQE_SIZE) {
		if (attr->cqe_size != 64 && attr->cqe_size != 128) {
			MLX5CQ_LOG(ERR, "invalid attribute cqe_size=%u: 64 or"
				   " 128 expected", attr->cqe_size);
			return fail(EINVAL);
		}
		p->cqe_size = attr->cqe_size;
	}
	if (attr->flags & RTE_MLX5CQ_F_CQE_PAD) {
		if (p->cqe_size != 128) {
			MLX5CQ_LOG(ERR, "invalid attribute flags=CQE_PAD with"
				   " cqe_size=%u: padding needs 128 B CQEs",
				   p->cqe_size);
			return fail(EINVAL);
		}
		p->cqe_pad = 1;
	}
	if (attr->comp_mask & RTE_MLX5CQ_ATTR_COMPRESSED) {
		if (attr->comp_format == 0 ||
		    (attr->comp_format & ~COMP_FORMAT_ALL) != 0) {
			MLX5CQ_LOG(ERR, "invalid attribute comp_format=%#x: one"
				   " known mini-CQE format bit expected",
				   attr->comp_format);
			return fail(EINVAL);
		}
		if (!rte_is_power_of_2(attr->comp_format)) {
			MLX5CQ_LOG(ERR, "invalid attribute comp_format=%#x:"
				   " more than one mini-CQE format bit",
				   attr->comp_format);
			return fail(EINVAL);
		}
		if (attr->comp_layout != RTE_MLX5CQ_COMP_LAYOUT_BASIC &&
		    attr->comp_layout != RTE_MLX5CQ_COMP_LAYOUT_ENHANCED) {
			MLX5CQ_LOG(ERR, "invalid attribute comp_layout=%u",
				   attr->comp_layout);
			return fail(EINVAL);
		}
		/*
		 * Library policy: a session takes consecutive entries, a
		 * collapsed CQ has one.
		 */
		if (attr->flags & RTE_MLX5CQ_F_COLLAPSED) {
			MLX5CQ_LOG(ERR, "invalid attribute flags=COLLAPSED with"
				   " comp_format=%#x: a collapsed CQ holds one"
				   " CQE, a compressed session several",
				   attr->comp_format);
			return fail(EINVAL);
		}
		p->comp_format = attr->comp_format;
		p->prm_format = (uint8_t)prm_format(attr->comp_format);
		p->comp_layout = attr->comp_layout;
	}
	if (attr->comp_vector >= dev->num_comp_vectors) {
		MLX5CQ_LOG(ERR, "invalid attribute comp_vector=%u: the device"
			   " has %u completion vectors", attr->comp_vector,
			   dev->num_comp_vectors);
		return fail(EINVAL);
	}
	p->comp_vector = attr->comp_vector;
	if (attr->comp_mask & RTE_MLX5CQ_ATTR_MODERATION) {
		if (attr->cq_period > MLX5CQ_CQ_PERIOD_MAX ||
		    attr->cq_period_mode > RTE_MLX5CQ_PERIOD_FROM_CQE) {
			MLX5CQ_LOG(ERR, "invalid attribute cq_period=%u"
				   " cq_period_mode=%u: at most %u us, mode"
				   " eqe or cqe", attr->cq_period,
				   attr->cq_period_mode, MLX5CQ_CQ_PERIOD_MAX);
			return fail(EINVAL);
		}
		p->cq_period = attr->cq_period;
		p->cq_max_count = attr->cq_max_count;
		p->cq_period_mode = attr->cq_period_mode;
	}
	if (!socket_valid(attr->socket)) {
		MLX5CQ_LOG(ERR, "invalid attribute socket=%d: no such NUMA"
			   " socket", attr->socket);
		return fail(EINVAL);
	}
	p->socket = attr->socket == SOCKET_ID_ANY ? dev->socket : attr->socket;
	switch (attr->path) {
	case RTE_MLX5CQ_PATH_AUTO:
		p->path = dev->devx ? RTE_MLX5CQ_PATH_DEVX :
				      RTE_MLX5CQ_PATH_VERBS;
		break;
	case RTE_MLX5CQ_PATH_DEVX:
		if (!dev->devx) {
			MLX5CQ_LOG(ERR, "unsupported attribute path=devx: the"
				   " context has no DevX");
			return fail(EOPNOTSUPP);
		}
		p->path = RTE_MLX5CQ_PATH_DEVX;
		break;
	case RTE_MLX5CQ_PATH_VERBS:
		p->path = RTE_MLX5CQ_PATH_VERBS;
		break;
	default:
		MLX5CQ_LOG(ERR, "invalid attribute path=%d (%s): auto, devx or"
			   " verbs expected", (int)attr->path,
			   path_name(attr->path));
		return fail(EINVAL);
	}
	ret = p->path == RTE_MLX5CQ_PATH_DEVX ? check_devx_caps(dev, p) :
						 check_verbs_caps(dev, p);
	if (ret)
		return ret;
	/* WALLCLOCK: rdma-core mlx5_cq_fill_pfns() (mlx5cq_clock.c). */
	ret = mlx5cq_wallclock_setup(dev, p);
	return ret ? fail(-ret) : 0;
}
