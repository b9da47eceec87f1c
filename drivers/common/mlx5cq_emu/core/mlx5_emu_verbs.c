/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Verbs path of the emulated HCA: what the rdma-core mlx5 provider (v44)
 * does in user space for mlx5dv_create_cq() and friends, followed by what
 * the kernel checks before the firmware CREATE_CQ.
 *
 * Sources of the rules (facts only, no code taken):
 *   [rc-verbs]  rdma-core providers/mlx5/verbs.c: create_cq(),
 *               get_cqe_size(), align_queue_size(), mlx5_destroy_cq()
 *   [rc-cq]     rdma-core providers/mlx5/cq.c: mlx5_alloc_cq_buf()
 *   [rc-dbrec]  rdma-core providers/mlx5/dbrec.c: __add_page(),
 *               mlx5_alloc_dbrec(), mlx5_free_db()
 *   [rc-buf]    rdma-core providers/mlx5/buf.c: mlx5_alloc_buf(),
 *               mlx5_alloc_buf_extern(), mlx5_free_buf_extern(),
 *               mlx5_is_extern_alloc()
 *   [rc-mlx5]   rdma-core providers/mlx5/mlx5.c: mlx5dv_get_cq(),
 *               _mlx5dv_query_device(), _mlx5dv_set_context_attr()
 *   [k-core]    kernel drivers/infiniband/core/uverbs_std_types_cq.c
 *               (and uverbs_cmd.c create_cq): comp_vector check
 *   [k-cq]      kernel drivers/infiniband/hw/mlx5/cq.c:
 *               mlx5_ib_create_cq(), create_cq_user(),
 *               mini_cqe_res_format_to_hw()
 *   [k-main]    kernel drivers/infiniband/hw/mlx5/main.c
 *               mlx5_ib_query_device(): cqe_comp_caps, CQE_128B flags
 *   [k-db]      kernel drivers/infiniband/hw/mlx5/doorbell.c
 *               mlx5_ib_db_map_user(): one pinned page per user page,
 *               shared by every record in it
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_bitops.h>
#include <rte_common.h>

#include <rte_mlx5cq_prm.h>

#include "mlx5_emu_verbs.h"

/* [rc-verbs] create_cq(): a ring of more than 2^24 entries is refused. */
#define EMU_VERBS_MAX_NCQE (1ull << 24)
/* Context UAR page numbers (cqc.uar_page is 24 bits wide). */
#define EMU_VERBS_UAR_PAGE_BASE 0x800000u
#define EMU_VERBS_UAR_PAGE_MASK 0xffffffu

/* [rc-verbs] CREATE_CQ_SUPPORTED_COMP_MASK / _FLAGS / _WC_FLAGS. */
#define EMU_VERBS_CQ_COMP_MASK \
	(IBV_CQ_INIT_ATTR_MASK_FLAGS | IBV_CQ_INIT_ATTR_MASK_PD)
#define EMU_VERBS_CQ_FLAGS \
	(IBV_CREATE_CQ_ATTR_SINGLE_THREADED | \
	 IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN)
#define EMU_VERBS_CQ_WC_FLAGS \
	(IBV_WC_STANDARD_FLAGS | IBV_WC_EX_WITH_COMPLETION_TIMESTAMP | \
	 IBV_WC_EX_WITH_CVLAN | IBV_WC_EX_WITH_FLOW_TAG | \
	 IBV_WC_EX_WITH_TM_INFO | \
	 IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK)
/* [rc-verbs] MLX5_DV_CREATE_CQ_SUP_COMP_MASK. */
#define EMU_VERBS_DV_COMP_MASK \
	(MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE | \
	 MLX5DV_CQ_INIT_ATTR_MASK_FLAGS | \
	 MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE)

/* A verbs CQ handed to the user. */
struct emu_verbs_cq {
	struct ibv_cq_ex cq_ex; /* First: ibv_cq_ex_to_cq() is a cast. */
	TAILQ_ENTRY(emu_verbs_cq) next; /* Global registry. */
	struct emu_dev *dev;
	struct emu_cq *fw; /* Firmware view in the device CQ table. */
	uint32_t cqn;
	uint32_t ncqe; /* Ring entries (power of two). */
	uint32_t cqe_sz; /* 64 or 128. */
	uint8_t *buf;
	size_t buf_size;
	void (*buf_ext_free)(void *ptr, void *data); /* NULL: free(). */
	void *buf_ext_data;
	volatile uint32_t *dbrec;
	struct emu_dbr_page *dbr_page;
	uint32_t dbr_slot;
	void *cq_uar;
};

/*
 * Every verbs CQ of every emulated device, so that a CQ pointer can be
 * recognised without dereferencing it (emu_verbs_is_cq()).
 */
static TAILQ_HEAD(, emu_verbs_cq) emu_verbs_cqs =
	TAILQ_HEAD_INITIALIZER(emu_verbs_cqs);
static pthread_mutex_t emu_verbs_cqs_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t
verbs_roundup_pow2(uint64_t v)
{
	uint64_t r = 1;

	while (r < v)
		r <<= 1;
	return r;
}

static unsigned int
verbs_log2(uint64_t v)
{
	unsigned int l = 0;

	while ((1ull << l) < v)
		l++;
	return l;
}

/* Registry lookup; caller holds emu_verbs_cqs_lock. */
static struct emu_verbs_cq *
verbs_cq_find(const void *cq)
{
	struct emu_verbs_cq *vcq;

	TAILQ_FOREACH(vcq, &emu_verbs_cqs, next)
		if ((const void *)vcq == cq)
			return vcq;
	return NULL;
}

/* Per-device state, created on first use; caller holds dev->lock. */
static struct emu_verbs_dev *
verbs_dev_get(struct emu_dev *dev)
{
	struct emu_verbs_dev *vd = dev->verbs_priv;

	if (vd != NULL)
		return vd;
	vd = calloc(1, sizeof(*vd));
	if (vd == NULL)
		return NULL;
	TAILQ_INIT(&vd->pages);
	TAILQ_INIT(&vd->avail);
	dev->verbs_priv = vd;
	return vd;
}

/*
 * The context's UAR ([rc-mlx5] cq_uar_reg; [k-cq] uar_page is the
 * context's bfregi.sys_pages[0]): one page mapped at context creation in
 * the real stack, created here on first use. Its page number lies in a
 * range of its own (EMU_VERBS_UAR_PAGE_BASE + device index), apart from
 * the DevX UARs the device numbers upwards from a small base, so that it
 * is unique in the process. Caller holds dev->lock.
 */
static int
verbs_uar_get(struct emu_dev *dev, struct emu_verbs_dev *vd)
{
	void *p;

	if (vd->uar != NULL)
		return 0;
	if (posix_memalign(&p, emu_verbs_page_size(), emu_verbs_page_size()) != 0)
		return emu_ret_errno(ENOMEM);
	memset(p, 0, emu_verbs_page_size());
	vd->uar = p;
	vd->uar_page = (EMU_VERBS_UAR_PAGE_BASE + dev->vhca_id) &
		       EMU_VERBS_UAR_PAGE_MASK;
	return 0;
}

/* The ring buffer's memory back where it came from. */
static void
verbs_buf_release(struct emu_verbs_cq *vcq)
{
	if (vcq->buf == NULL)
		return;
	if (vcq->buf_ext_free != NULL)
		vcq->buf_ext_free(vcq->buf, vcq->buf_ext_data);
	else
		free(vcq->buf);
	vcq->buf = NULL;
}

/*
 * [rc-verbs] get_cqe_size(): the dv attribute when
 * MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE is set, else MLX5_CQE_SIZE from the
 * environment (atoi), else 64; only 64 and 128 are valid.
 */
static int
verbs_cqe_size(const struct mlx5dv_cq_init_attr *dv_attr)
{
	const char *env;
	int size = 64;

	if (dv_attr != NULL &&
	    (dv_attr->comp_mask & MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE)) {
		size = dv_attr->cqe_size;
	} else {
		env = getenv("MLX5_CQE_SIZE");
		if (env != NULL)
			size = atoi(env);
	}
	if (size != 64 && size != 128)
		return -EINVAL;
	return size;
}

/*
 * [k-main] cqe_comp_caps as the kernel reports them (and rdma-core keeps
 * in mctx->cqe_comp_caps): max_num and the formats HASH | CSUM, plus
 * CSUM_STRIDX with mini_cqe_resp_stride_index; all zero without
 * cqe_compression.
 */
static void
verbs_comp_caps(const struct mlx5_emu_caps *caps,
		struct mlx5dv_cqe_comp_caps *cc)
{
	memset(cc, 0, sizeof(*cc));
	if (!caps->cqe_compression)
		return;
	cc->max_num = caps->cqe_compression_max_num;
	cc->supported_format = MLX5DV_CQE_RES_FORMAT_HASH |
			       MLX5DV_CQE_RES_FORMAT_CSUM;
	if (caps->mini_cqe_resp_stride_index)
		cc->supported_format |= MLX5DV_CQE_RES_FORMAT_CSUM_STRIDX;
}

/*
 * [k-main] mlx5_ib_query_device(): striding_rq_caps are filled only when
 * HCA_CAP.striding_rq is set (else zero): stride sizes 2^6..2^13 bytes
 * (MLX5_MIN/MAX_SINGLE_STRIDE_LOG_NUM_BYTES), 2^9..2^16 strides per WQE
 * (MLX5_MIN/MAX_SINGLE_WQE_LOG_NUM_STRIDES), 2^3 the minimum with
 * ext_stride_num_range (MLX5_EXT_MIN_SINGLE_WQE_LOG_NUM_STRIDES), queue
 * types RAW_PACKET only.
 */
static void
verbs_striding_caps(const struct mlx5_emu_caps *caps,
		    struct mlx5dv_striding_rq_caps *sc)
{
	memset(sc, 0, sizeof(*sc));
	if (!caps->striding_rq)
		return;
	sc->min_single_stride_log_num_of_bytes = 6;
	sc->max_single_stride_log_num_of_bytes = 13;
	sc->min_single_wqe_log_num_of_strides =
		caps->ext_stride_num_range ? 3 : 9;
	sc->max_single_wqe_log_num_of_strides = 16;
	sc->supported_qpts = 1u << IBV_QPT_RAW_PACKET;
}

/*
 * The vendor capability CQE_128B_PAD: [k-main] mlx5_ib_query_device()
 * reports MLX5_IB_QUERY_DEV_RESP_FLAGS_CQE_128B_PAD exactly when
 * HCA_CAP.cqe_128_always is set; [rc-verbs] mlx5_query_device_ex() keeps
 * it as MLX5_VENDOR_CAP_FLAGS_CQE_128B_PAD, which create_cq() checks and
 * [rc-mlx5] _mlx5dv_query_device() reports as
 * MLX5DV_CONTEXT_FLAGS_CQE_128B_PAD.
 */
static int
verbs_vendor_cap_pad(const struct mlx5_emu_caps *caps)
{
	return caps->cqe_128_always != 0;
}

/*
 * [k-cq] mini_cqe_res_format_to_hw(): exactly one known format bit; the
 * stride-index format needs mini_cqe_resp_stride_index (EOPNOTSUPP);
 * anything else (no bit, several bits, unknown bit) is EINVAL.
 */
static int
verbs_mini_fmt_to_hw(const struct mlx5_emu_caps *caps, uint8_t fmt)
{
	switch (fmt) {
	case MLX5DV_CQE_RES_FORMAT_HASH:
		return RTE_MLX5CQ_MINI_FMT_HASH;
	case MLX5DV_CQE_RES_FORMAT_CSUM:
		return RTE_MLX5CQ_MINI_FMT_CSUM;
	case MLX5DV_CQE_RES_FORMAT_CSUM_STRIDX:
		if (caps->mini_cqe_resp_stride_index)
			return RTE_MLX5CQ_MINI_FMT_CSUM_STRIDX;
		return -EOPNOTSUPP;
	default:
		return -EINVAL;
	}
}

/* What the user asked for, once rdma-core's checks have passed. */
struct verbs_cq_req {
	uint64_t ncqe;
	int cqe_sz;
	int comp_en;
	uint8_t comp_fmt; /* mlx5dv format bit(s) as given. */
	int pad;
	int ignore_overrun;
};

/*
 * [rc-verbs] create_cq(): the checks done before any memory is taken, in
 * rdma-core's order. Returns 0 or a positive errno.
 */
static int
verbs_check_early(struct emu_dev *dev,
		  const struct ibv_cq_init_attr_ex *attr,
		  const struct mlx5dv_cq_init_attr *dv_attr,
		  struct verbs_cq_req *req)
{
	int sz;

	if (attr->cqe == 0) {
		EMU_LOG(ERR, "%s: create_cq: cqe 0", dev->name);
		return emu_ret_errno(EINVAL);
	}
	if (attr->comp_mask & ~(uint32_t)EMU_VERBS_CQ_COMP_MASK) {
		EMU_LOG(ERR, "%s: create_cq: unsupported comp_mask 0x%x",
			dev->name, attr->comp_mask);
		return emu_ret_errno(EINVAL);
	}
	if ((attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_FLAGS) &&
	    (attr->flags & ~(uint32_t)EMU_VERBS_CQ_FLAGS)) {
		EMU_LOG(ERR, "%s: create_cq: unsupported flags 0x%x",
			dev->name, attr->flags);
		return emu_ret_errno(EINVAL);
	}
	if (attr->wc_flags & ~(uint64_t)EMU_VERBS_CQ_WC_FLAGS) {
		EMU_LOG(ERR, "%s: create_cq: unsupported wc_flags 0x%" PRIx64,
			dev->name, attr->wc_flags);
		return emu_ret_errno(ENOTSUP);
	}
	if (dv_attr != NULL &&
	    (dv_attr->comp_mask & ~(uint64_t)EMU_VERBS_DV_COMP_MASK)) {
		EMU_LOG(ERR, "%s: create_cq: unsupported mlx5dv comp_mask"
			" 0x%" PRIx64, dev->name, dv_attr->comp_mask);
		return emu_ret_errno(EINVAL);
	}
	/*
	 * [rc-verbs] IBV_CQ_INIT_ATTR_MASK_PD needs a parent domain (with
	 * its own allocators); the emulated HCA has only plain PDs, which
	 * rdma-core's to_mparent_domain() does not accept.
	 */
	if (attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_PD) {
		EMU_LOG(ERR, "%s: create_cq: parent_domain %p is not a parent"
			" domain", dev->name, (void *)attr->parent_domain);
		return emu_ret_errno(EINVAL);
	}
	/*
	 * [rc-verbs] ncqe = align_queue_size(cqe + 1), refused above 2^24
	 * entries or when the sum overflowed. The model computes in 64 bits,
	 * so every request whose ring would not fit 2^24 entries (including
	 * cqe = UINT32_MAX, which wraps in rdma-core's 32-bit sum) fails.
	 */
	req->ncqe = verbs_roundup_pow2((uint64_t)attr->cqe + 1);
	if (req->ncqe > EMU_VERBS_MAX_NCQE) {
		EMU_LOG(ERR, "%s: create_cq: cqe %u needs %" PRIu64
			" entries, more than 2^24", dev->name, attr->cqe,
			req->ncqe);
		return emu_ret_errno(EINVAL);
	}
	sz = verbs_cqe_size(dv_attr);
	if (sz < 0) {
		EMU_LOG(ERR, "%s: create_cq: CQE size not 64 or 128"
			" (dv attribute or MLX5_CQE_SIZE)", dev->name);
		return -sz;
	}
	req->cqe_sz = sz;
	req->ignore_overrun = (attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_FLAGS) &&
			      (attr->flags & IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN);
	return 0;
}

/*
 * [rc-verbs] create_cq(): the mlx5dv attribute checks, done after the
 * ring and the doorbell record were allocated. Returns 0 or a positive
 * errno.
 */
static int
verbs_check_dv(struct emu_dev *dev, const struct mlx5dv_cq_init_attr *dv_attr,
	       struct verbs_cq_req *req)
{
	struct mlx5dv_cqe_comp_caps cc;

	if (dv_attr == NULL)
		return 0;
	if (dv_attr->comp_mask & MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE) {
		/* Any requested bit the device reports is enough here. */
		verbs_comp_caps(&dev->caps, &cc);
		if (cc.max_num == 0 ||
		    !(dv_attr->cqe_comp_res_format & cc.supported_format)) {
			EMU_LOG(ERR, "%s: create_cq: CQE compression format"
				" 0x%x not supported (device formats 0x%x,"
				" max_num %u)", dev->name,
				dv_attr->cqe_comp_res_format,
				cc.supported_format, cc.max_num);
			return emu_ret_errno(EINVAL);
		}
		req->comp_en = 1;
		req->comp_fmt = dv_attr->cqe_comp_res_format;
	}
	if (dv_attr->comp_mask & MLX5DV_CQ_INIT_ATTR_MASK_FLAGS) {
		if (dv_attr->flags &
		    ~(uint32_t)(MLX5DV_CQ_INIT_ATTR_FLAGS_RESERVED - 1)) {
			EMU_LOG(ERR, "%s: create_cq: unsupported mlx5dv flags"
				" 0x%x", dev->name, dv_attr->flags);
			return emu_ret_errno(EINVAL);
		}
		if (dv_attr->flags & MLX5DV_CQ_INIT_ATTR_FLAGS_CQE_PAD) {
			/* [rc-verbs] create_cq(): the vendor capability
			 * CQE_128B_PAD and 128 B CQEs, else EINVAL.
			 */
			if (!verbs_vendor_cap_pad(&dev->caps) ||
			    req->cqe_sz != 128) {
				EMU_LOG(ERR, "%s: create_cq: %d B CQE padding"
					" not supported", dev->name,
					req->cqe_sz);
				return emu_ret_errno(EINVAL);
			}
			req->pad = 1;
		}
	}
	return 0;
}

/*
 * The kernel side of CREATE_CQ for a user CQ, up to the firmware
 * command: [k-core] comp_vector, then [k-cq] mlx5_ib_create_cq() and
 * create_cq_user(). Returns 0 (with the hardware mini-CQE format) or a
 * positive errno.
 */
static int
verbs_check_kernel(struct emu_dev *dev, const struct ibv_cq_init_attr_ex *attr,
		   const struct verbs_cq_req *req, const uint8_t *buf,
		   int *hw_fmt)
{
	const struct mlx5_emu_caps *caps = &dev->caps;
	uint64_t max = 1ull << caps->log_max_cq_sz;
	int fmt, known;

	/* [k-core] the completion channel must be an event file of this
	 * context: kernel rdma_core.c lookup_get_fd_uobject() refuses a
	 * file of another type or of another ufile with EBADF. rdma-core 44
	 * creates the CQ with UVERBS_METHOD_CQ_CREATE, whose FD attribute
	 * is looked up before the handler checks comp_vector.
	 */
	if (attr->channel != NULL) {
		pthread_mutex_lock(&dev->lock);
		known = emu_chan_lookup(dev, attr->channel) != NULL;
		pthread_mutex_unlock(&dev->lock);
		if (!known) {
			EMU_LOG(ERR, "%s: create_cq: channel %p is not a"
				" completion channel of this context",
				dev->name, (void *)attr->channel);
			return emu_ret_errno(EBADF);
		}
	}
	/* [k-core] uverbs create_cq() (uverbs_cmd.c). */
	if (attr->comp_vector >= caps->num_comp_vectors) {
		EMU_LOG(ERR, "%s: create_cq: comp_vector %u, device has %u",
			dev->name, attr->comp_vector, caps->num_comp_vectors);
		return emu_ret_errno(EINVAL);
	}
	/* rdma-core passes cqe = ncqe - 1; the kernel rounds it up again. */
	if (req->ncqe - 1 > max || req->ncqe > max) {
		EMU_LOG(ERR, "%s: create_cq: %" PRIu64 " entries above"
			" log_max_cq_sz %u", dev->name, req->ncqe,
			caps->log_max_cq_sz);
		return emu_ret_errno(EINVAL);
	}
	/*
	 * create_cq_user(): the ring's DMA start must be at offset 0 of a
	 * device page (MLX5_ADAPTER_PAGE_SHIFT, EMU_PAGE_SHIFT; the CQ
	 * page_offset is not usable): no page size fits an unaligned start.
	 */
	if ((uintptr_t)buf & ((1u << EMU_PAGE_SHIFT) - 1)) {
		EMU_LOG(ERR, "%s: create_cq: ring %p not 4 KiB aligned",
			dev->name, (const void *)buf);
		return emu_ret_errno(EINVAL);
	}
	*hw_fmt = 0;
	if (req->comp_en) {
		if (!((req->cqe_sz == 128 && caps->cqe_compression_128) ||
		      (req->cqe_sz == 64 && caps->cqe_compression))) {
			EMU_LOG(ERR, "%s: create_cq: CQE compression not"
				" supported for %d B CQEs", dev->name,
				req->cqe_sz);
			return emu_ret_errno(EOPNOTSUPP);
		}
		fmt = verbs_mini_fmt_to_hw(caps, req->comp_fmt);
		if (fmt < 0) {
			EMU_LOG(ERR, "%s: create_cq: mini-CQE format 0x%x"
				" refused (%d)", dev->name, req->comp_fmt,
				fmt);
			return -fmt;
		}
		*hw_fmt = fmt;
	}
	/*
	 * [k-cq] create_cq_user(): MLX5_IB_CREATE_CQ_FLAGS_CQE_128B_PAD needs
	 * 128 B CQEs and cqe_128_always (EOPNOTSUPP). rdma-core refuses both
	 * cases first (the vendor flag is cqe_128_always), so this check
	 * holds only for a caller that bypasses rdma-core's own.
	 */
	if (req->pad && (req->cqe_sz != 128 || !caps->cqe_128_always)) {
		EMU_LOG(ERR, "%s: create_cq: CQE padding needs"
			" cqe_128_always", dev->name);
		return emu_ret_errno(EOPNOTSUPP);
	}
	/*
	 * [k-cq] mlx5_ib_create_cq() sets cqc.oi for
	 * IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN without looking at HCA_CAP.cq_oi;
	 * the firmware refuses the bit (BAD_PARAM), which the kernel's
	 * command interface returns as EINVAL.
	 */
	if (req->ignore_overrun && !caps->cq_oi) {
		EMU_LOG(ERR, "%s: create_cq: ignore overrun without cq_oi",
			dev->name);
		return emu_ret_errno(EINVAL);
	}
	return 0;
}

/*
 * The EQ serving a completion vector ([k-cq] mlx5_vector2eqn()): the
 * device numbers them EMU_EQN_BASE + vector, as devx_query_eqn answers.
 */
static uint32_t
verbs_vector_eqn(uint32_t vector)
{
	return EMU_EQN_BASE + vector;
}

struct ibv_cq_ex *
emu_verbs_dv_create_cq(struct ibv_context *ctx,
		       struct ibv_cq_init_attr_ex *cq_attr,
		       struct mlx5dv_cq_init_attr *dv_attr)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);
	struct verbs_cq_req req;
	struct emu_verbs_dev *vd;
	struct emu_verbs_cq *vcq;
	struct emu_cq *fw;
	size_t ps = emu_verbs_page_size();
	size_t ring_bytes;
	uint64_t i;
	int hw_fmt = 0;
	int err;

	if (dev == NULL) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (cq_attr == NULL) {
		EMU_LOG(ERR, "%s: create_cq: no attributes", dev->name);
		errno = EINVAL;
		return NULL;
	}
	memset(&req, 0, sizeof(req));
	err = verbs_check_early(dev, cq_attr, dv_attr, &req);
	if (err) {
		errno = err;
		return NULL;
	}
	vcq = calloc(1, sizeof(*vcq));
	if (vcq == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	vcq->dev = dev;
	vcq->ncqe = (uint32_t)req.ncqe;
	vcq->cqe_sz = (uint32_t)req.cqe_sz;
	/*
	 * [rc-cq] mlx5_alloc_cq_buf(): align(ncqe * cqe_sz, page_size)
	 * bytes, from the external allocator when one is set [rc-buf],
	 * else posix_memalign() on the page size.
	 */
	ring_bytes = (size_t)req.ncqe * (size_t)req.cqe_sz;
	vcq->buf_size = RTE_ALIGN_CEIL(ring_bytes, ps);
	pthread_mutex_lock(&dev->lock);
	if (dev->have_ext_alloc) {
		vcq->buf_ext_free = dev->ext_alloc.free;
		vcq->buf_ext_data = dev->ext_alloc.data;
		pthread_mutex_unlock(&dev->lock);
		vcq->buf = dev->ext_alloc.alloc(vcq->buf_size,
						vcq->buf_ext_data);
	} else {
		pthread_mutex_unlock(&dev->lock);
		if (posix_memalign((void **)&vcq->buf, ps, vcq->buf_size))
			vcq->buf = NULL;
	}
	if (vcq->buf == NULL) {
		EMU_LOG(ERR, "%s: create_cq: no memory for a %zu-byte ring%s",
			dev->name, vcq->buf_size,
			vcq->buf_ext_free ? " (external allocator)" : "");
		free(vcq);
		errno = ENOMEM;
		return NULL;
	}
	/* [rc-cq] zero the ring, then op_own = INVALID << 4 in every 64 B
	 * CQE (the second half of a 128 B entry).
	 */
	memset(vcq->buf, 0, ring_bytes);
	for (i = 0; i < req.ncqe; i++)
		vcq->buf[i * req.cqe_sz + (req.cqe_sz -
			 RTE_MLX5CQ_PRM_CQE_SIZE) + RTE_MLX5CQ_CQE_OP_OWN] =
			RTE_MLX5CQ_OP_OWN_INVALID;

	pthread_mutex_lock(&dev->lock);
	vd = verbs_dev_get(dev);
	if (vd == NULL || verbs_uar_get(dev, vd) != 0) {
		pthread_mutex_unlock(&dev->lock);
		err = ENOMEM;
		goto err_buf;
	}
	vcq->cq_uar = vd->uar;
	vcq->dbrec = emu_verbs_dbr_alloc(dev, vd, &vcq->dbr_page,
				     &vcq->dbr_slot);
	if (vcq->dbrec == NULL) {
		pthread_mutex_unlock(&dev->lock);
		err = ENOMEM;
		goto err_buf;
	}
	/* [rc-verbs] both words of the record start at zero. */
	vcq->dbrec[0] = 0;
	vcq->dbrec[1] = 0;
	pthread_mutex_unlock(&dev->lock);

	err = verbs_check_dv(dev, dv_attr, &req);
	if (err)
		goto err_db;
	/* From here on: the kernel (ibv_cmd_create_cq_ex). */
	pthread_mutex_lock(&dev->lock);
	err = emu_fault_hit(dev, MLX5_EMU_FAIL_VERBS_CQ) ? ENOMEM : 0;
	pthread_mutex_unlock(&dev->lock);
	if (err) {
		EMU_LOG(ERR, "%s: create_cq: injected failure", dev->name);
		goto err_db;
	}
	err = verbs_check_kernel(dev, cq_attr, &req, vcq->buf, &hw_fmt);
	if (err)
		goto err_db;

	pthread_mutex_lock(&dev->lock);
	/* The channel may have gone since the check: look again. */
	if (cq_attr->channel != NULL &&
	    emu_chan_lookup(dev, cq_attr->channel) == NULL) {
		pthread_mutex_unlock(&dev->lock);
		EMU_LOG(ERR, "%s: create_cq: channel destroyed meanwhile",
			dev->name);
		err = EBADF; /* lookup_get_fd_uobject(): no such file. */
		goto err_db;
	}
	fw = emu_cq_new(dev);
	if (fw == NULL) {
		pthread_mutex_unlock(&dev->lock);
		EMU_LOG(ERR, "%s: create_cq: CQ table full", dev->name);
		err = ENOMEM;
		goto err_db;
	}
	/* libibverbs verbs_init_cq(): the CQ holds a channel reference. */
	if (cq_attr->channel != NULL)
		cq_attr->channel->refcnt++;
	fw->verbs = 1;
	fw->log_cq_size = (uint8_t)verbs_log2(req.ncqe);
	/* [k-cq] cqe_sz_to_mlx_sz(): 0 64 B, 1 128 B, 2 128 B padded. */
	fw->cqe_sz = req.cqe_sz == 64 ? 0 : (req.pad ? 2 : 1);
	fw->cqe_comp_en = (uint8_t)req.comp_en;
	fw->mini_cqe_res_format = (uint8_t)hw_fmt;
	fw->cqe_comp_layout = 0;
	fw->oi = (uint8_t)req.ignore_overrun;
	/* The ring lies in system pages of the posix_memalign'd buffer:
	 * one device page per translation entry.
	 */
	fw->log_page_size = 0;
	fw->uar_page = vd->uar_page;
	fw->eqn = verbs_vector_eqn(cq_attr->comp_vector);
	fw->ring_umem = NULL;
	fw->dbr_umem = NULL;
	fw->ring = vcq->buf;
	fw->dbrec = vcq->dbrec;
	fw->uar_va = vd->uar; /* Arm doorbells (mlx5_emu_event.c). */
	fw->ibcq = ibv_cq_ex_to_cq(&vcq->cq_ex);
	fw->pi = 0;
	fw->status = 0;
	vcq->fw = fw;
	vcq->cqn = fw->cqn;
	dev->stats.verbs_cqs++;
	pthread_mutex_unlock(&dev->lock);

	/* [rc-verbs] verbs_init_cq() plus what ibv_cmd_create_cq_ex fills. */
	vcq->cq_ex.context = ctx;
	vcq->cq_ex.channel = cq_attr->channel;
	vcq->cq_ex.cq_context = cq_attr->cq_context;
	vcq->cq_ex.handle = vcq->cqn;
	vcq->cq_ex.cqe = (int)(req.ncqe - 1);
	vcq->cq_ex.comp_events_completed = 0;
	vcq->cq_ex.async_events_completed = 0;
	pthread_mutex_init(&vcq->cq_ex.mutex, NULL);
	pthread_cond_init(&vcq->cq_ex.cond, NULL);

	pthread_mutex_lock(&emu_verbs_cqs_lock);
	TAILQ_INSERT_TAIL(&emu_verbs_cqs, vcq, next);
	pthread_mutex_unlock(&emu_verbs_cqs_lock);
	EMU_LOG(DEBUG, "%s: verbs CQ 0x%x: %u x %u B, ring %p, dbrec %p",
		dev->name, vcq->cqn, vcq->ncqe, vcq->cqe_sz,
		(void *)vcq->buf, (void *)(uintptr_t)vcq->dbrec);
	return &vcq->cq_ex;

err_db:
	pthread_mutex_lock(&dev->lock);
	emu_verbs_dbr_free(dev, vd, vcq->dbr_page, vcq->dbr_slot);
	pthread_mutex_unlock(&dev->lock);
err_buf:
	verbs_buf_release(vcq);
	free(vcq);
	errno = err;
	return NULL;
}

int
emu_verbs_is_cq(const struct ibv_cq *cq)
{
	int found;

	if (cq == NULL)
		return 0;
	pthread_mutex_lock(&emu_verbs_cqs_lock);
	found = verbs_cq_find(cq) != NULL;
	pthread_mutex_unlock(&emu_verbs_cqs_lock);
	return found;
}

int
emu_verbs_destroy_cq(struct ibv_cq *cq)
{
	struct emu_verbs_cq *vcq;
	struct emu_dev *dev;

	pthread_mutex_lock(&emu_verbs_cqs_lock);
	vcq = verbs_cq_find(cq);
	if (vcq != NULL)
		TAILQ_REMOVE(&emu_verbs_cqs, vcq, next);
	pthread_mutex_unlock(&emu_verbs_cqs_lock);
	if (vcq == NULL) {
		EMU_LOG(ERR, "destroy_cq: %p is not an emulated verbs CQ",
			(void *)cq);
		return emu_ret_errno(EINVAL);
	}
	dev = vcq->dev;
	/* [rc-verbs] mlx5_destroy_cq(): kernel object, record, ring. */
	pthread_mutex_lock(&dev->lock);
	emu_cq_free(vcq->fw);
	dev->stats.verbs_cqs--;
	emu_verbs_dbr_free(dev, dev->verbs_priv, vcq->dbr_page, vcq->dbr_slot);
	/* libibverbs ibv_destroy_cq(): the channel reference goes. */
	if (vcq->cq_ex.channel != NULL)
		vcq->cq_ex.channel->refcnt--;
	pthread_mutex_unlock(&dev->lock);
	verbs_buf_release(vcq);
	pthread_cond_destroy(&vcq->cq_ex.cond);
	pthread_mutex_destroy(&vcq->cq_ex.mutex);
	free(vcq);
	return 0;
}

int
emu_verbs_set_context_attr(struct ibv_context *ctx,
			   enum mlx5dv_set_ctx_attr_type type, void *attr)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);
	const struct mlx5dv_ctx_allocators *a = attr;

	if (dev == NULL)
		return emu_ret_errno(EOPNOTSUPP);
	/* [rc-mlx5] _mlx5dv_set_context_attr(): only the allocators. */
	if (type != MLX5DV_CTX_ATTR_BUF_ALLOCATORS) {
		EMU_LOG(ERR, "%s: set_context_attr: type %d not supported",
			dev->name, (int)type);
		return emu_ret_errno(ENOTSUP);
	}
	/* The model's own limit: rdma-core copies *attr. */
	if (a == NULL) {
		EMU_LOG(ERR, "%s: set_context_attr: no allocators", dev->name);
		return emu_ret_errno(EINVAL);
	}
	pthread_mutex_lock(&dev->lock);
	dev->ext_alloc = *a;
	/* [rc-buf] mlx5_is_extern_alloc(): both functions are needed. */
	dev->have_ext_alloc = a->alloc != NULL && a->free != NULL;
	pthread_mutex_unlock(&dev->lock);
	return 0;
}

int
emu_verbs_init_obj(struct mlx5dv_obj *obj, uint64_t obj_type)
{
	struct emu_verbs_cq *vcq;
	struct mlx5dv_cq *out;

	if (!(obj_type & MLX5DV_OBJ_CQ))
		return 0;
	/* The model's own limit: rdma-core mlx5dv_get_cq() writes it. */
	if (obj == NULL || obj->cq.out == NULL)
		return emu_ret_errno(EINVAL);
	pthread_mutex_lock(&emu_verbs_cqs_lock);
	vcq = verbs_cq_find(obj->cq.in);
	pthread_mutex_unlock(&emu_verbs_cqs_lock);
	if (vcq == NULL) {
		EMU_LOG(ERR, "init_obj: %p is not an emulated verbs CQ",
			(void *)obj->cq.in);
		return emu_ret_errno(EINVAL);
	}
	/* [rc-mlx5] mlx5dv_get_cq(). */
	out = obj->cq.out;
	out->comp_mask = 0;
	out->cqn = vcq->cqn;
	out->cqe_cnt = (uint32_t)vcq->cq_ex.cqe + 1;
	out->cqe_size = vcq->cqe_sz;
	out->buf = vcq->buf;
	out->dbrec = (__be32 *)(uintptr_t)vcq->dbrec;
	out->cq_uar = vcq->cq_uar;
	return 0;
}

int
emu_verbs_dv_query_device(struct ibv_context *ctx,
			  struct mlx5dv_context *attrs)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);
	uint64_t asked;

	if (dev == NULL)
		return emu_ret_errno(EOPNOTSUPP);
	if (attrs == NULL)
		return emu_ret_errno(EINVAL);
	/* [rc-mlx5] _mlx5dv_query_device(): version 0; flags from the
	 * vendor capability flags the kernel reported ([k-main]); only
	 * the requested comp_mask parts the model knows are answered.
	 */
	asked = attrs->comp_mask;
	attrs->version = 0;
	/* Every ConnectX since the 4 negotiates CQE version 1. */
	attrs->flags = MLX5DV_CONTEXT_FLAGS_CQE_V1;
	if (dev->caps.cqe_compression_128)
		attrs->flags |= MLX5DV_CONTEXT_FLAGS_CQE_128B_COMP;
	if (verbs_vendor_cap_pad(&dev->caps))
		attrs->flags |= MLX5DV_CONTEXT_FLAGS_CQE_128B_PAD;
	attrs->comp_mask = 0;
	if (asked & MLX5DV_CONTEXT_MASK_CQE_COMPRESION) {
		verbs_comp_caps(&dev->caps, &attrs->cqe_comp_caps);
		attrs->comp_mask |= MLX5DV_CONTEXT_MASK_CQE_COMPRESION;
	}
	/* [rc-mlx5] answers the mask whenever asked, with the kernel's
	 * (possibly zero) caps.
	 */
	if (asked & MLX5DV_CONTEXT_MASK_STRIDING_RQ) {
		verbs_striding_caps(&dev->caps, &attrs->striding_rq_caps);
		attrs->comp_mask |= MLX5DV_CONTEXT_MASK_STRIDING_RQ;
	}
	return 0;
}

void
emu_verbs_dev_release(struct emu_dev *dev)
{
	struct emu_verbs_dev *vd = dev->verbs_priv;
	struct emu_verbs_cq *vcq, *tmp;
	struct emu_dbr_page *page;

	/* CQs the user did not destroy die with the device. */
	pthread_mutex_lock(&emu_verbs_cqs_lock);
	for (vcq = TAILQ_FIRST(&emu_verbs_cqs); vcq != NULL; vcq = tmp) {
		tmp = TAILQ_NEXT(vcq, next);
		if (vcq->dev != dev)
			continue;
		TAILQ_REMOVE(&emu_verbs_cqs, vcq, next);
		EMU_LOG(WARNING, "%s: verbs CQ 0x%x still open at close",
			dev->name, vcq->cqn);
		emu_cq_free(vcq->fw);
		dev->stats.verbs_cqs--;
		if (vcq->cq_ex.channel != NULL)
			vcq->cq_ex.channel->refcnt--;
		verbs_buf_release(vcq);
		pthread_cond_destroy(&vcq->cq_ex.cond);
		pthread_mutex_destroy(&vcq->cq_ex.mutex);
		free(vcq);
	}
	pthread_mutex_unlock(&emu_verbs_cqs_lock);
	if (vd == NULL)
		return;
	while ((page = TAILQ_FIRST(&vd->pages)) != NULL) {
		TAILQ_REMOVE(&vd->pages, page, next);
		dev->stats.dbr_slots -= page->used;
		dev->stats.dbr_pages--;
		emu_verbs_dbr_page_release(page);
	}
	free(vd->uar);
	free(vd);
	dev->verbs_priv = NULL;
}
