/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Access check at registration, as the kernel pins user memory
 * (drivers/infiniband/core/umem.c ib_umem_get -> pin_user_pages_fast ->
 * mm/gup.c check_vma_flags): a page in no mapping, a read pin of a mapping
 * without VM_READ, or a write pin (FOLL_WRITE, asked when the access flags
 * make the memory writable: ib_access_writable, i.e. LOCAL_WRITE,
 * REMOTE_WRITE, REMOTE_ATOMIC) of a mapping without VM_WRITE all fail with
 * EFAULT, and the registration with them. A registered range is then used
 * by the model without further checks, as the device uses pinned pages.
 *
 * How the protection is learnt: /proc/self/maps, read once per
 * registration (a slow path; nothing is checked per packet or per CQE).
 * It lists the kernel's own VMA flags, the ones check_vma_flags() reads.
 * Not chosen:
 * - mincore(): says whether pages are mapped, not their protection
 *   (PROT_NONE pages pass it, then the model's first read faults);
 * - process_vm_readv()/process_vm_writev() on this process: a read probe
 *   sees the protection, but a write probe has to write, and writing the
 *   bytes back races with the model's own writers (a CQE or a packet
 *   written by another thread between probe and write-back is lost);
 * - touching the pages under a SIGSEGV handler: process-wide signal state
 *   taken over by a library, and writability is again only learnt by
 *   writing.
 * Limits: a protection changed after registration (mprotect, munmap) is
 * not seen; the kernel would keep the pinned pages, the model cannot.
 * Without a readable /proc/self/maps the check is skipped with a warning
 * (only mapping is then checked, by the umem pinning's mincore()).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlx5_emu_access.h"
#include "mlx5_emu_private.h"

int
emu_access_check(uintptr_t addr, size_t len, int write,
		 struct emu_access_fault *fault)
{
	uintptr_t cur = addr, end = addr + len;
	static int warned;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int ret = EFAULT;

	fault->addr = addr;
	fault->why = "not mapped";
	if (len == 0)
		return 0;
	f = fopen("/proc/self/maps", "re");
	if (f == NULL) {
		if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
			EMU_LOG(WARNING, "/proc/self/maps unreadable (%s): "
				"memory protection not checked at registration",
				strerror(errno));
		return 0;
	}
	/* Mappings come in ascending order; the range must be covered by
	 * consecutive ones, each with the permission the pin needs.
	 */
	while (getline(&line, &cap, f) > 0) {
		uintptr_t lo, hi;
		char perms[5];

		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %4s", &lo, &hi,
			   perms) != 3)
			continue;
		if (hi <= cur)
			continue;
		if (lo > cur)
			break; /* A hole at cur: not mapped. */
		if (write ? perms[1] != 'w' : perms[0] != 'r') {
			fault->why = write ? "not writable" : "not readable";
			break;
		}
		cur = hi;
		if (cur >= end) {
			ret = 0;
			break;
		}
	}
	free(line);
	fclose(f);
	if (ret != 0)
		fault->addr = cur;
	return ret;
}
