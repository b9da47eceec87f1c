/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef MLX5CQ_PRIVATE_H_
#define MLX5CQ_PRIVATE_H_

/*
 * Internal structures of librte_common_mlx5cq, shared by its files, one
 * folder a layer:
 *   create/  mlx5cq_dev.c       device open/close/stats, capabilities, UAR,
 *                               verbs buffer allocators
 *            mlx5cq_attr.c      validation of struct rte_mlx5cq_attr
 *            mlx5cq_create.c    common create/destroy/info
 *            mlx5cq_devx.c      DevX path (CREATE_CQ with umem)
 *            mlx5cq_verbs.c     verbs path (mlx5dv_create_cq)
 *            mlx5cq_dbr_pool.c  doorbell-record page pool (DevX path)
 *            mlx5cq_attach.c    CQs made by rte_common_mlx5's
 *                               mlx5_devx_cq_create()
 *            mlx5cq_mem.c       rte_malloc wrappers, page size of memory,
 *                               failure injection for tests
 *                               (mlx5cq_test_hooks.h)
 *   poll/    The poll in layers, calls going downward only:
 *            dispatch
 *            mlx5cq_poll_dispatch.c  rte_mlx5cq_poll_burst_ool(): each
 *                               CQ to its implementation
 *            implementations
 *            mlx5cq_poll_fast.h template of the fast poll, built as
 *                               mlx5cq_poll_scalar.c, mlx5cq_poll_sse.c,
 *                               mlx5cq_poll_neon.c and (general loop)
 *                               mlx5cq_poll_avx2.c
 *            mlx5cq_poll_avx2.c fast poll, AVX2, basic layout
 *            mlx5cq_poll_enh_avx2.c fast poll of the enhanced layout, AVX2
 *            mlx5cq_poll_generic.c generic poll (lock, enhanced layout),
 *                               raw view, iterator fetch and consume
 *            helpers (sessions, records, invalidation, error records)
 *            mlx5cq_session.c       compressed sessions: open, mini-CQE
 *                               records, raw view of a mini-CQE
 *            mlx5cq_session_avx2.c  AVX2 session turns and mini-CQE records
 *            mlx5cq_session_avx2.h  AVX2 groups of records, whole sessions
 *            mlx5cq_poll_avx2.h records from CQEs and mini-CQEs, AVX2
 *            mlx5cq_decode.c    full decode (error CQEs), error counters
 *            (here: publication, invalidation, array walk, inline)
 *            API on top
 *            mlx5cq_vec.c       choice of the poll implementation (CPU, EAL)
 *            mlx5cq_lean.c      lean path of compressed sessions
 *                               (session_peek/advance)
 *            mlx5cq_iter.c      ibv_cq_ex-style iterator
 *            mlx5cq_collapsed.c reads of collapsed CQs (entry 0)
 *   events/  mlx5cq_arm.c       arming, completion events
 *   ops/     mlx5cq_log.c       log type "pmd.common.mlx5cq"
 *            mlx5cq_registry.c  registry of CQs (ids), counters, error check
 *            mlx5cq_telemetry.c /mlx5cq/list, /mlx5cq/info
 *            mlx5cq_dump.c      rte_mlx5cq_dump()
 *   pmd/     mlx5cq_pmd.c       what the PMDs share (mlx5cq_pmd.h)
 *            mlx5cq_emu_plugin.c loader of the emulated HCA as a plugin of
 *                               the PMDs (mlx5cq_emu_plugin.h)
 *   .        mlx5cq_test_cq.c   test hooks: hand-made CQ handles, private
 *                               state
 *
 * The library reaches devices only through rte_common_mlx5's mlx5_glue
 * table (always read through the pointer: the emulated HCA swaps it).
 */

#include <pthread.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/queue.h>

#include <rte_bitops.h> /* rte_bsf32 (in rte_common.h before 23.11) */
#include <rte_common.h>
#include <rte_compat.h>
#include <rte_log.h>
#include <rte_spinlock.h>

#include "rte_mlx5cq.h"
#include "mlx5cq_clock.h"
#include "mlx5cq_test_hooks.h"

struct ibv_cq_ex;
struct mlx5dv_devx_uar;
struct mlx5dv_devx_umem;
struct mlx5dv_devx_obj;
struct mlx5dv_devx_event_channel;
struct ibv_comp_channel;

extern int mlx5cq_logtype;

#define MLX5CQ_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mlx5cq_logtype, \
		"mlx5cq: %s(): " fmt "\n", __func__, ##__VA_ARGS__)

/* Hardware limits (PRM, rdma-core verbs.c create_cq). */
#define MLX5CQ_MAX_ENTRIES (1u << 24) /* Largest ring: 2^24 entries. */
#define MLX5CQ_ADAPTER_PAGE_SHIFT 12 /* cqc.log_page_size unit: 4 KiB. */
/* op_own of a fresh DevX ring: INVALID, owner 1 (DPDK mlx5_devx_cq_create). */
#define MLX5CQ_OP_OWN_INIT_DEVX \
	(RTE_MLX5CQ_OP_OWN_INVALID | RTE_MLX5CQ_OP_OWN_OWNER)

/*
 * rte_mlx5cq.comp carries the mini-CQE format + 1 (PRM value:
 * MLX5_CQE_RESP_FORMAT_*), 0 when compression is off, or-ed with the
 * public RTE_MLX5CQ_COMP_ENHANCED for the enhanced layout.
 */
/*
 * Doorbell-record pool: 4 KiB pages of one-cache-line slots, one umem per
 * page. The slot is RTE_CACHE_LINE_SIZE as in rte_common_mlx5
 * (MLX5_DBR_SIZE) and rdma-core's dbrec.c (the CPU's cache line): two CQs'
 * records never share a line, 128 B apart on 128-byte-line builds.
 */
#define MLX5CQ_DBR_PAGE_SIZE 4096u
#define MLX5CQ_DBR_SLOT_SIZE ((unsigned int)RTE_CACHE_LINE_SIZE)
#define MLX5CQ_DBR_SLOTS (MLX5CQ_DBR_PAGE_SIZE / MLX5CQ_DBR_SLOT_SIZE)
#define MLX5CQ_DBR_WORDS ((MLX5CQ_DBR_SLOTS + 63) / 64)

/* Device capabilities relevant to CQs. */
struct mlx5cq_caps {
	uint8_t log_max_cq_sz; /* log2 of the largest ring. */
	uint8_t log_max_cq; /* log2 of the number of CQs (DevX). */
	/* DevX (QUERY_HCA_CAP general device, current). */
	uint8_t cqe_compression;
	uint8_t cqe_compression_128;
	uint8_t cqe_128_always; /* Padded 128 B CQEs (cqe_sz 2) only. */
	uint8_t mini_cqe_resp_stride_index;
	uint8_t mini_cqe_resp_flow_tag;
	uint8_t mini_cqe_resp_l3_l4_tag;
	uint8_t enhanced_cqe_compression;
	uint8_t cq_oi; /* cqc.oi allowed. */
	uint8_t cq_moderation; /* cqc.cq_period / cq_max_count honoured. */
	uint8_t scqe_break_moderation; /* cqc.scqe_break_moderation_en. */
	uint8_t cq_period_start_from_cqe; /* cq_period_mode 1 allowed. */
	uint8_t cq_resize; /* MODIFY_CQ op_mod RESIZE accepted. */
	uint16_t cqe_compression_max_num;
	uint16_t cqe_compression_timeout;
	uint8_t sq_ts_format; /* MLX5_HCA_CAP_TIMESTAMP_FORMAT_* (wall clock). */
	uint8_t rq_ts_format;
	/* Verbs (mlx5dv_query_device). */
	uint64_t dv_flags; /* MLX5DV_CONTEXT_FLAGS_*. */
	uint32_t dv_comp_max_num; /* cqe_comp_caps.max_num. */
	uint32_t dv_comp_formats; /* cqe_comp_caps.supported_format. */
};

/* One 4 KiB doorbell page. */
struct mlx5cq_dbr_page {
	TAILQ_ENTRY(mlx5cq_dbr_page) next;
	uint8_t *addr; /* Page start (rte_malloc, 4 KiB aligned). */
	struct mlx5dv_devx_umem *umem; /* One registration for the page. */
	uint32_t umem_id;
	uint32_t used; /* Slots in use. */
	uint64_t bitmap[MLX5CQ_DBR_WORDS]; /* 1: slot in use. */
};

/* A doorbell slot handed to a CQ. */
struct mlx5cq_dbr {
	struct mlx5cq_dbr_page *page;
	uint32_t slot;
	uint32_t umem_id; /* Umem of the page. */
	uint64_t offset; /* Offset of the slot in its page umem. */
	volatile uint32_t *rec; /* Host address. */
};

TAILQ_HEAD(mlx5cq_dbr_page_list, mlx5cq_dbr_page);

/* Pool of a device (caller holds dev->lock). */
struct mlx5cq_dbr_pool {
	struct mlx5cq_dbr_page_list pages;
	uint32_t npages;
	uint32_t nslots; /* Slots in use. */
	uint32_t numems; /* Umems of pages. */
};

/* An mlx5cq device (rte_mlx5cq_dev_open()). */
struct rte_mlx5cq_dev {
	struct ibv_context *ctx;
	int socket; /* Socket of device-wide memory. */
	uint8_t devx; /* DevX commands work on this context. */
	uint32_t num_comp_vectors;
	struct mlx5cq_caps caps;
	struct mlx5dv_devx_uar *uar; /* DevX UAR (NULL without DevX). */
	uint32_t uar_page; /* UAR page index. */
	uint32_t uar_type; /* MLX5DV_UAR_ALLOC_TYPE_* it got. */
	uint8_t ext_alloc_set; /* Buffer allocators installed. */
	int alloc_socket; /* Socket the buffer allocator uses now. */
	pthread_mutex_t lock; /* CQ count, pool. */
	uint32_t ncqs; /* CQs alive (attached included). */
	uint32_t ring_umems; /* Ring umems registered. */
	struct mlx5cq_dbr_pool pool;
};

/* Decompression state of a CQ. */
struct mlx5cq_session {
	uint32_t cnt; /* Completions in the session, 0: none open. */
	uint32_t ai; /* Next mini-CQE of the session to deliver. */
	uint32_t ca; /* Ring index of the current mini-CQE array. */
	uint32_t end; /* Index after the session (basic layout). */
	uint16_t wqe_next; /* WQE counter of the next HASH/CSUM mini. */
	uint8_t have_title; /* title holds a CQE (enhanced layout). */
	uint8_t logged; /* A malformed CQE was logged. */
	/*
	 * Enhanced layout: copy of the last regular CQE (the title of the
	 * arrays after it; its ring slot may be reused once consumed). The
	 * basic layout reads its title in the ring: the slot stays the
	 * session's until the session is consumed.
	 */
	uint8_t title[64] __rte_aligned(64);
	/* Raw view: a completion from a mini-CQE as a 64 B CQE. */
	uint8_t raw[64] __rte_aligned(64);
	struct rte_mlx5cq_cpl trec; /* Record decoded from the title. */
	volatile const uint8_t *iter_cqe; /* Iterator: current CQE. */
};

/* A CQ: the public handle first (container of it). */
struct mlx5cq_cq {
	struct rte_mlx5cq pub;
	/* Poll state behind the API (cold: not on the inline path). */
	rte_spinlock_t lock; /* Taken unless SINGLE_THREADED. */
	uint8_t iter_active; /* Between start_poll and end_poll. */
	uint8_t arm_sn; /* Arm sequence number (events consumed). */
	/* Counters but the hot ones (completions, polls, empty_polls). */
	struct rte_mlx5cq_counters cnt;
	struct mlx5cq_session session;
	struct rte_mlx5cq_dev *dev;
	enum rte_mlx5cq_path path; /* DEVX, VERBS or ATTACH. */
	uint32_t entries;
	uint16_t cqe_size; /* Stride: 64 or 128. */
	uint8_t cqe_pad;
	uint8_t comp_format; /* RTE_MLX5CQ_COMP_* bit or 0. */
	uint8_t prm_format; /* MLX5_CQE_RESP_FORMAT_* when comp_format. */
	uint8_t comp_layout;
	uint32_t flags; /* RTE_MLX5CQ_F_*. */
	uint64_t wc_flags; /* IBV_WC_EX_WITH_* the consumer reads. */
	struct mlx5cq_wallclock wallclock; /* WALLCLOCK (mlx5cq_clock.c). */
	uint32_t comp_vector;
	int socket; /* Socket the ring was requested on. */
	void *ring; /* Ring start. */
	size_t ring_size;
	volatile uint32_t *dbrec;
	/* DevX path. */
	struct mlx5dv_devx_umem *ring_umem;
	uint32_t ring_umem_id;
	struct mlx5dv_devx_obj *obj;
	struct mlx5cq_dbr dbr;
	uint32_t eqn;
	uint32_t log_page_size; /* cqc.log_page_size sent. */
	/* Verbs path. */
	struct ibv_cq_ex *vcq;
	/* Attach. */
	struct mlx5_devx_cq *dcq;
	/* Arming and events (mlx5cq_arm.c). */
	void *uar_db; /* UAR page + MLX5_CQ_DOORBELL, NULL: cannot arm. */
	struct mlx5dv_devx_event_channel *evch; /* DevX, F_EVENTS. */
	struct ibv_comp_channel *chan; /* Verbs, F_EVENTS. */
	uint32_t ev_unacked; /* Verbs events not acknowledged yet. */
	uint8_t err_seen; /* rte_mlx5cq_error_check() saw the error. */
	/* Registry (mlx5cq_registry.c). */
	uint32_t id;
	TAILQ_ENTRY(mlx5cq_cq) reg_next;
};

/* Attributes after validation, as the paths use them. */
struct mlx5cq_params {
	enum rte_mlx5cq_path path; /* DEVX or VERBS. */
	uint32_t cqe; /* Requested entries. */
	uint32_t entries; /* roundup_pow2(cqe + 1). */
	uint8_t log_n;
	uint16_t cqe_size;
	uint8_t cqe_pad;
	uint8_t comp_format; /* RTE_MLX5CQ_COMP_* bit or 0. */
	uint8_t prm_format; /* MLX5_CQE_RESP_FORMAT_* when comp_format. */
	uint8_t comp_layout;
	uint32_t flags;
	uint64_t wc_flags;
	struct mlx5cq_wallclock wallclock; /* mlx5cq_wallclock_setup(). */
	uint32_t comp_vector;
	int socket; /* Resolved (never SOCKET_ID_ANY when dev has one). */
	uint16_t cq_period; /* Moderation (RTE_MLX5CQ_ATTR_MODERATION). */
	uint16_t cq_max_count;
	uint8_t cq_period_mode;
};

/* Always inline: also called from functions built for the SIMD targets. */
static __rte_always_inline struct mlx5cq_cq *
mlx5cq_from_pub(const struct rte_mlx5cq *cq)
{
	/* The library owns the CQ: a const handle is only the caller's
	 * view of it (container_of would keep the const, -Wcast-qual).
	 */
	return (struct mlx5cq_cq *)((uintptr_t)cq -
				    offsetof(struct mlx5cq_cq, pub));
}

/* Private parts of a CQ from its handle. */
#define MLX5CQ_SESSION(cq) (&mlx5cq_from_pub(cq)->session)
#define MLX5CQ_CNT(cq) (&mlx5cq_from_pub(cq)->cnt)

static inline void
mlx5cq_lock(const struct rte_mlx5cq *cq)
{
	if (cq->slow & RTE_MLX5CQ_SLOW_LOCK)
		rte_spinlock_lock(&mlx5cq_from_pub(cq)->lock);
}

static inline void
mlx5cq_unlock(const struct rte_mlx5cq *cq)
{
	if (cq->slow & RTE_MLX5CQ_SLOW_LOCK)
		rte_spinlock_unlock(&mlx5cq_from_pub(cq)->lock);
}

/* mlx5cq_mem.c */
void *mlx5cq_zmalloc(const char *type, size_t size, unsigned int align,
		     int socket);
void mlx5cq_free(void *addr);
size_t mlx5cq_sys_page_size(void);
uint64_t mlx5cq_mem_page_size(const void *addr);


/* mlx5cq_attr.c */
int mlx5cq_attr_check(const struct rte_mlx5cq_dev *dev,
		      const struct rte_mlx5cq_attr *attr,
		      struct mlx5cq_params *p);

/* mlx5cq_dbr_pool.c (caller holds dev->lock) */
void mlx5cq_dbr_pool_init(struct mlx5cq_dbr_pool *pool);
int mlx5cq_dbr_alloc(struct rte_mlx5cq_dev *dev, struct mlx5cq_dbr *dbr);
void mlx5cq_dbr_free(struct rte_mlx5cq_dev *dev, struct mlx5cq_dbr *dbr);
int mlx5cq_dbr_pool_flush(struct rte_mlx5cq_dev *dev);

/* mlx5cq_devx.c */
int mlx5cq_devx_create(struct rte_mlx5cq_dev *dev, struct mlx5cq_cq *cq,
		       const struct mlx5cq_params *p);
int mlx5cq_devx_destroy(struct mlx5cq_cq *cq);
/* A DevX ring: page-aligned rte_malloc memory, every CQE invalid, its own
 * umem (creation and resize place it alike).
 */
struct mlx5cq_ring {
	void *addr;
	size_t size;
	struct mlx5dv_devx_umem *umem;
	uint32_t umem_id;
	uint32_t log_page_size; /* cqc.log_page_size for it. */
};
int mlx5cq_devx_ring_get(struct rte_mlx5cq_dev *dev, struct mlx5cq_ring *r,
			 uint32_t entries, uint16_t cqe_size, int enhanced,
			 int socket);
int mlx5cq_devx_ring_put(struct mlx5cq_ring *r);

/* mlx5cq_verbs.c */
int mlx5cq_verbs_create(struct rte_mlx5cq_dev *dev, struct mlx5cq_cq *cq,
			const struct mlx5cq_params *p);
int mlx5cq_verbs_destroy(struct mlx5cq_cq *cq);

/* mlx5cq_dev.c */
void mlx5cq_dev_cq_get(struct rte_mlx5cq_dev *dev);
void mlx5cq_dev_cq_put(struct rte_mlx5cq_dev *dev);

/* mlx5cq_create.c */
void mlx5cq_pub_fill(struct mlx5cq_cq *cq);

/* mlx5cq_poll_generic.c (caller holds the CQ lock where there is one) */
uint16_t mlx5cq_poll_generic(struct rte_mlx5cq *cq,
			     struct rte_mlx5cq_cpl *cpl, uint16_t n,
			     uint16_t done, int publish);
void mlx5cq_poll_publish(struct rte_mlx5cq *cq, uint32_t ci, uint16_t i,
			 int stop, int dbr);

/* mlx5cq_decode.c */
void mlx5cq_decode_full(volatile const uint8_t *cqe, uint8_t op_own,
			struct rte_mlx5cq_cpl *c);
void mlx5cq_count_error(struct rte_mlx5cq *cq,
			const struct rte_mlx5cq_cpl *c);

/* mlx5cq_session.c */
int mlx5cq_session_open(struct rte_mlx5cq *cq, volatile const uint8_t *cqe,
		    uint8_t op_own, uint32_t ci, int decode);
uint16_t mlx5cq_session_burst(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *cpl,
			  uint16_t n);
volatile const uint8_t *mlx5cq_session_synth(struct rte_mlx5cq *cq, uint32_t ci);

/*
 * Counters and doorbell record of a poll that delivered i records and
 * moved the consumer index to ci (stop: it ended at a compressed CQE that
 * cannot be expanded); dbr 0 moves the index without publishing it (the
 * iterator publishes at end_poll). Inline in the fast polls (a call and
 * its argument moves per burst); mlx5cq_poll_publish() elsewhere.
 */
static __rte_always_inline void
mlx5cq_poll_publish_inline(struct rte_mlx5cq *cq, uint32_t ci, uint16_t i,
			   int stop, int dbr)
{
	cq->polls++;
	if (unlikely(stop))
		MLX5CQ_CNT(cq)->comp_unhandled++;
	if (likely(i)) {
		cq->completions += i;
		if (ci != cq->ci) {
			if (dbr)
				rte_mlx5cq__update_ci(cq, ci);
			else
				cq->ci = ci;
		}
	} else if (!stop) {
		cq->empty_polls++;
	}
}

/*
 * Write op_own INVALIDATE into ring entries [from, to): a pointer walk,
 * four entries a step with constant offsets in the common case.
 */
static __rte_always_inline void
mlx5cq_session_invalidate(struct rte_mlx5cq *cq, uint32_t from, uint32_t to)
{
	volatile uint8_t *base = cq->ring + cq->cqe_off +
				 RTE_MLX5CQ_CQE_OP_OWN;
	const unsigned int shift = cq->stride_shift;
	const size_t stride = (size_t)1 << shift;
	uint32_t idx = from & cq->mask, left = to - from;

	/* Common case: 64 B entries, no wrap, whole steps of four. */
	if (likely(shift == 6 && (left & 3) == 0 &&
		   idx + left <= cq->mask + 1)) {
		volatile uint8_t *p = base + ((size_t)idx << 6);
		volatile uint8_t *e = p + ((size_t)left << 6);

		for (; p != e; p += 256) {
			p[0] = RTE_MLX5CQ_OP_OWN_INVALID;
			p[64] = RTE_MLX5CQ_OP_OWN_INVALID;
			p[128] = RTE_MLX5CQ_OP_OWN_INVALID;
			p[192] = RTE_MLX5CQ_OP_OWN_INVALID;
		}
		return;
	}
	while (left) {
		uint32_t run = RTE_MIN(left, cq->mask + 1 - idx);
		volatile uint8_t *p = base + ((size_t)idx << shift);
		uint32_t j;

		for (j = 0; j < run; j++, p += stride)
			*p = RTE_MLX5CQ_OP_OWN_INVALID;
		left -= run;
		idx = 0;
	}
}

/*
 * PRM mini-CQE format of the open session's records (rte_mlx5cq.comp
 * - 1): requester titles use the requester mini-CQE whatever the CQ's
 * format (UINT32_MAX).
 */
static __rte_always_inline unsigned int
mlx5cq_session_format(const struct rte_mlx5cq *cq, const struct mlx5cq_session *z)
{
	if (z->trec.opcode == RTE_MLX5CQ_OP_REQ)
		return UINT32_MAX;
	return (cq->comp & RTE_MLX5CQ_COMP_FORMAT_MASK) - 1u;
}

/*
 * Prefetch hint of the fast polls. rte_prefetch0() is plain inline: GCC
 * does not inline it into a function built for another target (the AVX2
 * files), where each prefetch would become a call.
 */
#define MLX5CQ_PREFETCH(p) __builtin_prefetch((const void *)(uintptr_t)(p), \
					      0, 3)

/*
 * The next burst's first lines, asked for at the end of a full burst of
 * the fast polls (entries of 1 << shift bytes from ring index at; every
 * caller passes 64 B, see mlx5cq_poll_fast.h for 128 B): eight lines, or
 * the first one when eight would pass the ring's end. A loop of one prefetch
 * instruction on purpose: the single instruction's +64 stride trains the
 * core's stride prefetcher, which then runs on ahead of the poll, where
 * eight distinct (unrolled) instructions do not; the empty asm keeps GCC
 * from unrolling it.
 */
static __rte_always_inline void
mlx5cq_prefetch8(volatile const uint8_t *ring, uint32_t mask,
		 unsigned int shift, uint32_t at)
{
	volatile const uint8_t *p = ring + ((size_t)(at & mask) << shift);
	uint32_t j;

	if ((at & mask) + 8 > mask + 1) {
		MLX5CQ_PREFETCH(p);
		return;
	}
	for (j = 0; j < 8; j++) {
		MLX5CQ_PREFETCH(p + ((size_t)j << shift));
		__asm__ volatile("" : "+r"(p));
	}
}

/*
 * op_own INVALIDATE in the n (7 or 8) entries (stride 1 << shift, a
 * constant where it is called) from the one whose op_own byte is p: an
 * array's slot and its holes (mlx5cq_session_array_done()).
 */
static __rte_always_inline void
mlx5cq_session_inv_array(volatile uint8_t *p, uint32_t n, unsigned int shift)
{
	/* The holes first: the array's own line is in the cache. */
	p[(size_t)1 << shift] = RTE_MLX5CQ_OP_OWN_INVALID;
	p[(size_t)2 << shift] = RTE_MLX5CQ_OP_OWN_INVALID;
	p[(size_t)3 << shift] = RTE_MLX5CQ_OP_OWN_INVALID;
	p[(size_t)4 << shift] = RTE_MLX5CQ_OP_OWN_INVALID;
	p[(size_t)5 << shift] = RTE_MLX5CQ_OP_OWN_INVALID;
	p[(size_t)6 << shift] = RTE_MLX5CQ_OP_OWN_INVALID;
	if (n == 8)
		p[(size_t)7 << shift] = RTE_MLX5CQ_OP_OWN_INVALID;
	p[0] = RTE_MLX5CQ_OP_OWN_INVALID;
}

/*
 * Entries [a, next) (7 or 8 from an array's slot) of a ring whose first
 * entry is at ring invalidated; on 64 or 128 B entries with no wrap,
 * mlx5cq_session_inv_array() at a's op_own byte.
 */
static __rte_always_inline void
mlx5cq_session_span_inv(volatile uint8_t *ring, uint32_t mask, unsigned int shift,
		    uint32_t a, uint32_t next)
{
	const uint32_t idx = a & mask;

	if (likely(shift == 6 && idx + 8 <= mask + 1)) {
		mlx5cq_session_inv_array(ring + ((size_t)idx << 6) +
				     RTE_MLX5CQ_CQE_OP_OWN, next - a, 6);
		return;
	}
	if (shift == 7 && idx + 8 <= mask + 1) {
		mlx5cq_session_inv_array(ring + ((size_t)idx << 7) +
				     RTE_MLX5CQ_CQE_OP_OWN, next - a, 7);
		return;
	}
	for (; a != next; a++)
		ring[((size_t)(a & mask) << shift) + RTE_MLX5CQ_CQE_OP_OWN] =
			RTE_MLX5CQ_OP_OWN_INVALID;
}

/*
 * Ring index of the array na arrays after the one at ca, in a
 * basic-layout session whose title is at ring index title: the second
 * array is 7 entries after the first, the others 8 apart.
 */
static __rte_always_inline uint32_t
mlx5cq_session_array_at(uint32_t title, uint32_t ca, uint32_t na)
{
	return (ca == title + 1 ? title : ca) + 8 * na;
}

/*
 * The array at *ca (basic layout, session title at ring index title) was
 * read to its end: its entries are invalidated, the array's own slot and
 * the slots after it up to the next array (title + 1 .. title + 7 for
 * the first, ca .. ca + 7 for the others), and *ca moves to the next
 * array. The title's slot is left to the session's close (the raw view
 * and the lean path read the title there while the session is open); no
 * later step reads an array once it is consumed. One array at a time, as
 * the arrays are decoded, the stores to the holes' lines go out while the
 * next records are built instead of in one row when the session closes.
 * The device writes none of these entries before the consumer index
 * passes the session, so the order of the stores among themselves is
 * free: the holes go first and the array's own slot, whose line was just
 * read, last, and the ring's geometry stays in registers across the
 * stores (stores through the CQ pointer make the compiler reload it).
 */
static __rte_always_inline void
mlx5cq_session_array_done(volatile uint8_t *ring, uint32_t mask,
		      unsigned int shift, uint32_t title, uint32_t *ca)
{
	const uint32_t next = mlx5cq_session_array_at(title, *ca, 1);

	mlx5cq_session_span_inv(ring, mask, shift, *ca, next);
	*ca = next;
}

/*
 * A basic-layout session closes: what mlx5cq_session_array_done() left, the
 * title's slot and the current array's entries up to the end (none when
 * the last array was read to its end), is invalidated.
 */
static __rte_always_inline void
mlx5cq_session_close_inv(struct rte_mlx5cq *cq, uint32_t title, uint32_t ca,
		     uint32_t end)
{
	if (ca == title + 1) {
		mlx5cq_session_invalidate(cq, title, end);
		return;
	}
	mlx5cq_session_invalidate(cq, title, title + 1);
	if (ca != end)
		mlx5cq_session_invalidate(cq, ca, end);
}

/*
 * take mini-CQEs of the current array were delivered (at most what is
 * left of it, or the whole rest of the session): an array read to its
 * end is invalidated and the next one becomes current (the second is 7
 * slots after the first), the session closes at its end. The consumer
 * index stays at the title while a session is open (the device writes
 * none of its entries).
 */
static __rte_always_inline void
mlx5cq_session_consume(struct rte_mlx5cq *cq, uint32_t take)
{
	struct mlx5cq_session *z = MLX5CQ_SESSION(cq);
	int enh = !!(cq->comp & RTE_MLX5CQ_COMP_ENHANCED);
	uint32_t title = z->end - z->cnt;

	z->ai += take;
	z->wqe_next = (uint16_t)(z->wqe_next + take);
	if (enh) {
		if (z->ai == z->cnt) {
			z->cnt = 0;
			z->ai = 0;
			cq->slow &= ~RTE_MLX5CQ_SLOW_SESSION;
		}
		return;
	}
	if (z->ai != z->cnt) {
		if ((z->ai & 7) == 0)
			mlx5cq_session_array_done(cq->ring + cq->cqe_off, cq->mask,
					      cq->stride_shift, title, &z->ca);
		return;
	}
	mlx5cq_session_close_inv(cq, title, z->ca, z->end);
	z->cnt = 0;
	z->ai = 0;
	cq->slow &= ~RTE_MLX5CQ_SLOW_SESSION;
}

/* Ones in bit 0 of every byte. */
#define MLX5CQ_B0 0x01010101u

/*
 * Bytes of x (op_own ^ parity, four CQEs) that are not plain: owner bit
 * set (bit 0), format 3 (bits 3 and 2), opcode 0xd..0xf (bits 7, 6 and
 * 5 or 4). The shifts move bits inside a byte only where masked.
 */
static __rte_always_inline uint32_t
mlx5cq_fast_bad4(uint32_t x)
{
	uint32_t x1 = x << 1;

	return (x & MLX5CQ_B0) | (x & x1 & 0x08080808u) |
	       (x & x1 & ((x | x1) << 2) & 0x80808080u);
}

/* Fast poll implementations (mlx5cq_poll_fast.h), by enum rte_mlx5cq_vec;
 * NULL where the build has none.
 */
typedef uint16_t (*mlx5cq_poll_fast_t)(struct rte_mlx5cq *cq,
				       struct rte_mlx5cq_cpl *cpl, uint16_t n,
				       uint16_t done);
uint16_t mlx5cq_poll_fast_scalar(struct rte_mlx5cq *cq,
				 struct rte_mlx5cq_cpl *cpl, uint16_t n,
				 uint16_t done);
uint16_t mlx5cq_poll_fast_sse(struct rte_mlx5cq *cq,
			      struct rte_mlx5cq_cpl *cpl, uint16_t n,
			      uint16_t done);
uint16_t mlx5cq_poll_fast_avx2(struct rte_mlx5cq *cq,
			       struct rte_mlx5cq_cpl *cpl, uint16_t n,
			       uint16_t done);
uint16_t mlx5cq_poll_fast_neon(struct rte_mlx5cq *cq,
			       struct rte_mlx5cq_cpl *cpl, uint16_t n,
			       uint16_t done);
extern const mlx5cq_poll_fast_t mlx5cq_poll_fast[RTE_MLX5CQ_VEC_MAX];
/* Fast poll of enhanced-layout CQs, AVX2 (mlx5cq_poll_enh_avx2.c). */
uint16_t mlx5cq_poll_enh_avx2(struct rte_mlx5cq *cq,
			      struct rte_mlx5cq_cpl *cpl, uint16_t n,
			      uint16_t done);
/* Records of take mini-CQEs from m (mlx5cq_session.c session_records()), AVX2
 * (mlx5cq_session_avx2.c);
 * fmt: PRM MLX5_CQE_RESP_FORMAT_*, UINT32_MAX for requester minis.
 */
void mlx5cq_session_records_avx2(const struct rte_mlx5cq_cpl *t, unsigned int fmt,
			     volatile const uint8_t *m,
			     struct rte_mlx5cq_cpl *c, uint32_t take,
			     uint16_t w0);

/* mlx5cq_vec.c */
enum rte_mlx5cq_vec mlx5cq_vec_default(void);

/* mlx5cq_poll_generic.c: the iterator's fetch and consume. */
int mlx5cq_iter_fetch(struct rte_mlx5cq *cq, const volatile uint8_t **cqe);
void mlx5cq_iter_consume(struct rte_mlx5cq *cq);

/* mlx5cq_arm.c */
int mlx5cq_events_setup(struct rte_mlx5cq_dev *dev, struct mlx5cq_cq *cq);
void mlx5cq_events_release(struct mlx5cq_cq *cq);

/* mlx5cq_registry.c */
void mlx5cq_registry_add(struct mlx5cq_cq *cq);
void mlx5cq_registry_del(struct mlx5cq_cq *cq);
int mlx5cq_registry_ids(uint32_t *ids, unsigned int max);
int mlx5cq_registry_with(uint32_t id, void (*fn)(struct mlx5cq_cq *, void *),
			 void *arg);

#endif /* MLX5CQ_PRIVATE_H_ */
