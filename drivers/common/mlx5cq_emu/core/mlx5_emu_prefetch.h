/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef MLX5_EMU_PREFETCH_H
#define MLX5_EMU_PREFETCH_H

/*
 * Prefetch for writing. The model writes CQEs and receive buffers that
 * the consumer's core read last: a read prefetch brings such a line in
 * shared state and the store still waits for the other core's copy to be
 * invalidated. rte_prefetch0_write() is PREFETCHW only when the compiler
 * targets it (not with the -march=corei7 of Debian's DPDK flags), so the
 * model issues PREFETCHW itself where the CPU has it (CPUID 0x80000001
 * ECX bit 8, "3dnowprefetch"), checked once at load
 * (mlx5_emu_engine.c), and a read prefetch elsewhere.
 */

#include <rte_prefetch.h>

extern int emu_prefetchw_ok;

static inline void
emu_prefetch_write(const void *p)
{
#ifdef RTE_ARCH_X86
	if (emu_prefetchw_ok) {
		asm volatile("prefetchw %0" : : "m" (*(const volatile char *)p));
		return;
	}
#endif
	rte_prefetch0_write(p);
}

#endif /* MLX5_EMU_PREFETCH_H */
