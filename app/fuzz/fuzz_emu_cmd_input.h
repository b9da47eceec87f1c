/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef FUZZ_EMU_CMD_INPUT_H_
#define FUZZ_EMU_CMD_INPUT_H_

/*
 * Input of the "emu_cmd" fuzz target (read by fuzz_emu_cmd.c, written by
 * fuzz_seed_gen.c): commands one after the other until the input ends.
 *
 *   byte 0      bits 0..2: FUZZ_EMU_OP_* (values 5..7 wrap to 0..2);
 *               bit 7: replace placeholders in the mailbox
 *   byte 1      object: index among the live DevX objects (modulo)
 *   bytes 2..3  input mailbox length, little endian (at most the rest of
 *               the input and FUZZ_EMU_MAX_MBOX)
 *   bytes 4..5  output mailbox length, little endian (modulo
 *               FUZZ_EMU_MAX_MBOX + 1)
 *   then        the input mailbox
 *
 * Placeholders: big-endian 32-bit words FUZZ_EMU_PH(k) anywhere in the
 * mailbox (4-byte aligned) become, with bit 7 set, the id of a resource
 * of the harness: the umem, the UAR page, the completion EQ, the PD, or
 * the id (out mailbox dword 2, 24 bits) of live object j (FUZZ_EMU_PH_OBJ
 * + j). Unknown k or absent objects leave the word as it is.
 */

#include <stdint.h>

enum {
	FUZZ_EMU_OP_CREATE, /* mlx5_glue->devx_obj_create */
	FUZZ_EMU_OP_GENERAL, /* mlx5_glue->devx_general_cmd */
	FUZZ_EMU_OP_QUERY, /* mlx5_glue->devx_obj_query */
	FUZZ_EMU_OP_MODIFY, /* mlx5_glue->devx_obj_modify */
	FUZZ_EMU_OP_DESTROY, /* mlx5_glue->devx_obj_destroy */
	FUZZ_EMU_OP_N,
};

#define FUZZ_EMU_CMD_HDR_LEN 6
#define FUZZ_EMU_RESOLVE 0x80
#define FUZZ_EMU_MAX_MBOX 8192
#define FUZZ_EMU_MAX_OBJS 64

#define FUZZ_EMU_PH(k) (0xfcfc0000u | (k))
enum {
	FUZZ_EMU_PH_UMEM = 1,
	FUZZ_EMU_PH_UAR = 2,
	FUZZ_EMU_PH_EQN = 3,
	FUZZ_EMU_PH_PD = 4,
	FUZZ_EMU_PH_OBJ = 0x10, /* + live object index, up to 0x10 + 63 */
};

/* The harness's umem: one buffer of this size, 4 KiB aligned. */
#define FUZZ_EMU_UMEM_SIZE (256u * 1024)
/* Where the seeds put things in it. */
#define FUZZ_EMU_CQ_RING_OFF 0x0
#define FUZZ_EMU_RQ_RING_OFF 0x10000
#define FUZZ_EMU_SQ_RING_OFF 0x20000
#define FUZZ_EMU_CQ_DBR_OFF 0x3f000
#define FUZZ_EMU_RQ_DBR_OFF 0x3f040
#define FUZZ_EMU_SQ_DBR_OFF 0x3f080

#endif /* FUZZ_EMU_CMD_INPUT_H_ */
