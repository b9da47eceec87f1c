/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef MLX5_EMU_XTS_AESNI_H_
#define MLX5_EMU_XTS_AESNI_H_

/*
 * AES-XTS with the x86 AES instructions (mlx5_emu_xts_aesni.c), private
 * to mlx5_emu_xts.c: the round keys of one DEK.
 */

#include <stdint.h>

#define EMU_XTS_NI_RK 15 /* Round keys of AES-256. */

struct emu_xts_ni {
	uint8_t ek1[EMU_XTS_NI_RK][16]; /* key1, encryption. */
	uint8_t dk1[EMU_XTS_NI_RK][16]; /* key1, equivalent inverse cipher. */
	uint8_t ek2[EMU_XTS_NI_RK][16]; /* key2: the unit tweaks. */
	unsigned int rounds; /* 10 or 14. */
};

/* Round keys of key1 || key2 (2 * half bytes, half 16 or 32); 0, or -1
 * when this build has no AES instructions. Call only when the CPU has
 * AES, PCLMULQDQ and SSE4.1.
 */
int emu_xts_ni_init(struct emu_xts_ni *k, const uint8_t *key,
		    unsigned int half);
/* emu_xts_run() with these round keys, arguments already checked; 0. */
int emu_xts_ni_run(const struct emu_xts_ni *k, int enc,
		   const uint8_t tweak[16], uint32_t du, const uint8_t *src,
		   uint8_t *dst, uint32_t len);

#endif /* MLX5_EMU_XTS_AESNI_H_ */
