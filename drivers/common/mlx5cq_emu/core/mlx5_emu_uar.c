/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * UAR pages of an emulated device, reachable from every process that holds
 * the context's command fd.
 *
 * On a real device a DevX UAR is a page of the HCA's BAR: the kernel
 * returns an mmap offset for it (MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET,
 * rdma-core's mlx5dv_devx_uar.mmap_off) and whoever holds the context's
 * cmd_fd maps the page with mmap(cmd_fd, mmap_off) (the kernel's
 * mlx5_ib_mmap(); rdma-core's _mlx5dv_devx_alloc_uar() maps it so, and
 * DPDK's mlx5_tx_uar_init_secondary() maps it so in a secondary process
 * from the cmd_fd the primary sent over MLX5_MP_REQ_VERBS_CMD_FD).
 *
 * The model does the same with ordinary memory: the context's cmd_fd is a
 * memfd, and the UAR page of page_id is its page at mmap_off = page_id *
 * EMU_PAGE_SIZE, mapped MAP_SHARED. A doorbell a secondary process writes
 * through its own mapping lands in the page the primary's mapping (and the
 * device's reader of arm doorbells) sees. The file is sparse: a page costs
 * memory only once written, and its memory is given back when the UAR is
 * freed (page ids are never reused, see mlx5_emu_dev.c).
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "mlx5_emu_private.h"

int
emu_uar_fd_create(const char *name)
{
	char fd_name[64];

	snprintf(fd_name, sizeof(fd_name), "mlx5_emu_uar_%s", name);
	return memfd_create(fd_name, MFD_CLOEXEC);
}

void *
emu_uar_page_map(struct emu_dev *dev, uint32_t page_id)
{
	const off_t off = (off_t)page_id << EMU_PAGE_SHIFT;
	int fd = dev->vctx.context.cmd_fd;
	struct stat st;
	void *page;

	/* Caller holds dev->lock: the file only grows. */
	if (fstat(fd, &st) != 0)
		return NULL;
	if (st.st_size < off + EMU_PAGE_SIZE &&
	    ftruncate(fd, off + EMU_PAGE_SIZE) != 0)
		return NULL;
	page = mmap(NULL, EMU_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		    fd, off);
	return page == MAP_FAILED ? NULL : page;
}

void
emu_uar_page_unmap(struct emu_dev *dev, void *page, uint32_t page_id)
{
	const off_t off = (off_t)page_id << EMU_PAGE_SHIFT;

	munmap(page, EMU_PAGE_SIZE);
	/* Best effort: a failure only keeps the page's memory. */
	if (fallocate(dev->vctx.context.cmd_fd,
		      FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off,
		      EMU_PAGE_SIZE) != 0)
		EMU_LOG(DEBUG, "%s: UAR page 0x%x not released: %s",
			dev->name, page_id, strerror(errno));
}
