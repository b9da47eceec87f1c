/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef MLX5_EMU_VERBS_H_
#define MLX5_EMU_VERBS_H_

/*
 * The emulated rdma-core mlx5 provider's state shared by its files:
 * mlx5_emu_verbs.c (CQs, device queries, allocators) and
 * mlx5_emu_verbs_dbr.c (the doorbell-record pages). Sources as
 * mlx5_emu_verbs.c lists them ([rc-*], [k-*]).
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/queue.h>
#include <unistd.h>

#include "mlx5_emu_private.h"

/* One page of doorbell records ([rc-dbrec] struct mlx5_db_page). */
struct emu_dbr_page {
	TAILQ_ENTRY(emu_dbr_page) next; /* Every page of the device. */
	TAILQ_ENTRY(emu_dbr_page) avail; /* Pages with a free slot. */
	int in_avail;
	uint8_t *addr;
	size_t size;
	/* Where it came from: the external allocator or posix_memalign. */
	void (*ext_free)(void *ptr, void *data);
	void *ext_data;
	uint32_t nslots;
	uint32_t used;
	uint64_t free_map[]; /* Bit set: slot free. */
};

/* Per-device verbs state (dev->verbs_priv), under dev->lock. */
struct emu_verbs_dev {
	TAILQ_HEAD(, emu_dbr_page) pages;
	/* [rc-dbrec] dbr_available_pages: new pages and pages that stop
	 * being full go to the head; allocation takes the head.
	 */
	TAILQ_HEAD(, emu_dbr_page) avail;
	void *uar; /* The context's UAR page (cq_uar of init_obj). */
	uint32_t uar_page;
};

/* [rc-verbs] to_mdev(device)->page_size is sysconf(_SC_PAGESIZE). */
static inline size_t
emu_verbs_page_size(void)
{
	long ps = sysconf(_SC_PAGESIZE);

	return ps > 0 ? (size_t)ps : 4096;
}

/*
 * A doorbell record of the device's verbs pages ([rc-dbrec]
 * mlx5_alloc_dbrec()): its address, the page and slot it takes; NULL when
 * no page can be had. Caller holds dev->lock.
 */
volatile uint32_t *emu_verbs_dbr_alloc(struct emu_dev *dev,
				       struct emu_verbs_dev *vd,
				       struct emu_dbr_page **pagep,
				       uint32_t *slotp);
/* [rc-dbrec] mlx5_free_db(): the slot back (caller holds dev->lock). */
void emu_verbs_dbr_free(struct emu_dev *dev, struct emu_verbs_dev *vd,
			struct emu_dbr_page *page, uint32_t slot);
/* A page's memory back where it came from, and the page. */
void emu_verbs_dbr_page_release(struct emu_dbr_page *page);

#endif /* MLX5_EMU_VERBS_H_ */
