/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef FUZZ_POLL_INPUT_H_
#define FUZZ_POLL_INPUT_H_

/*
 * Input of the "poll" fuzz target (read by fuzz_poll.c, written by
 * fuzz_seed_gen.c):
 *
 *   byte 0      log2 of the entries: 1 + (b % 8), 2..256 entries
 *   byte 1      bit 0: 128 B stride (else 64 B); bits 1..3: mini-CQE
 *               format + 1 (0: no compression; 6 and 7 wrap to 0 and 1);
 *               bit 4: enhanced layout (with a format only)
 *   bytes 2..5  initial consumer index, little endian
 *   byte 6      number of burst sizes: 1 + (b % 16)
 *   then        that many burst sizes (fuzz_poll_burst_size()), not all 0
 *   then        the ring image, entry 0 first (stride bytes an entry, the
 *               64 B CQE in the last 64 bytes); bytes past the input are
 *               0xff
 */

#include <stddef.h>
#include <stdint.h>

#define FUZZ_POLL_HDR_LEN 7
/* Completions a consumer may take per ring entry, at most (a session's
 * mini-CQE array holds 8 in one entry).
 */
#define FUZZ_REC_PER_ENTRY 8

struct fuzz_poll_hdr {
	uint32_t log_n;
	unsigned int stride;
	uint8_t comp; /* rte_mlx5cq.comp: format + 1 | 0x80 enhanced */
	uint32_t ci0;
	uint32_t nb;
};

/* Byte b of the burst list: 0..254 as is (0 tests an empty burst),
 * 255 a burst of 512.
 */
static inline uint16_t
fuzz_poll_burst_size(uint8_t b)
{
	return b == 255 ? 512 : b;
}

static inline int
fuzz_poll_parse(const uint8_t *d, size_t size, struct fuzz_poll_hdr *h)
{
	unsigned int fmt;

	if (size < FUZZ_POLL_HDR_LEN)
		return -1;
	h->log_n = 1 + d[0] % 8;
	h->stride = (d[1] & 1) ? 128 : 64;
	fmt = (d[1] >> 1 & 7) % 6;
	h->comp = (uint8_t)fmt;
	if (fmt != 0 && (d[1] & 0x10))
		h->comp |= 0x80;
	h->ci0 = (uint32_t)d[2] | (uint32_t)d[3] << 8 |
		 (uint32_t)d[4] << 16 | (uint32_t)d[5] << 24;
	h->nb = 1 + d[6] % 16;
	if (size < FUZZ_POLL_HDR_LEN + h->nb)
		return -1;
	/* At least one non-empty burst, or no consumer ever ends. */
	for (fmt = 0; fmt < h->nb; fmt++)
		if (d[FUZZ_POLL_HDR_LEN + fmt] != 0)
			return 0;
	return -1;
}

#endif /* FUZZ_POLL_INPUT_H_ */
