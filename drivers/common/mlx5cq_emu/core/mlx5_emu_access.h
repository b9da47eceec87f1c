/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef MLX5_EMU_ACCESS_H_
#define MLX5_EMU_ACCESS_H_

/*
 * The access check of a user range at registration (umem, MR), as the
 * kernel's ib_umem_get() pins it (mlx5_emu_access.c).
 */

#include <stddef.h>
#include <stdint.h>

/* What the check found wrong (for the caller's log line). */
struct emu_access_fault {
	uintptr_t addr; /* First address that fails. */
	const char *why; /* "not mapped", "not readable", "not writable". */
};

/*
 * Check that [addr, addr + len) can be pinned: every page mapped, readable
 * or, when write is non-zero, writable.
 *
 * @return
 *   0, or EFAULT (the kernel's errno) with *fault filled.
 */
int emu_access_check(uintptr_t addr, size_t len, int write,
		     struct emu_access_fault *fault);

#endif /* MLX5_EMU_ACCESS_H_ */
