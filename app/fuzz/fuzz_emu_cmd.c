/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * libFuzzer target "emu_cmd": PRM mailboxes, valid, mutated and random,
 * sent to an emulated device through mlx5_glue as rte_common_mlx5 calls
 * it (devx_obj_create, devx_general_cmd, devx_obj_query, devx_obj_modify,
 * devx_obj_destroy), input format in fuzz_emu_cmd_input.h.
 *
 * Every input gets a PD, a UAR, a umem and the EQ number of vector 0 of
 * the device opened once per process; each mailbox is copied into a
 * malloc'd buffer of exactly its length, the output mailbox likewise, so
 * ASan sees any read or write past either.
 *
 * Checks on every command:
 *  - success: output status byte 0 and no command error counted;
 *  - failure: errno set; when the device counts a firmware error
 *    (mlx5_emu_stats.cmd_errors + 1) the output mailbox carries a non-zero
 *    status and the syndrome of mlx5_emu_last_cmd_error(), and errno is
 *    the kernel's mapping of that status (cmd_status_to_err() of the mlx5
 *    core driver); otherwise it is a kernel-side refusal with no firmware
 *    status (an output mailbox of fewer than 8 bytes, vhca_tunnel_id set,
 *    an unknown completion EQ...), errno EINVAL, ENOENT or EOPNOTSUPP,
 *    the output mailbox as the caller left it;
 *  - destroy: 0, or EBUSY while another object uses it.
 * At the end of each input every live object is destroyed (dependents
 * first: refused destroys are retried), the umem, UAR and PD are freed,
 * and the device's counts (mlx5_emu_stats_get: PDs, UARs, umems, DevX
 * objects, CQs) must be those of the start. LeakSanitizer (libFuzzer's
 * -detect_leaks) checks the heap per input as well.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/mlx5dv.h>
#include <rte_byteorder.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>

#include <mlx5_emu.h>

#include "fuzz_eal.h"
#include "fuzz_emu_cmd_input.h"

static struct ibv_context *ctx;
/* FUZZ_TRACE set: one line per command on stderr (reproducing). */
static int trace;
static unsigned int cur_opcode;

struct live_obj {
	struct mlx5dv_devx_obj *obj;
	uint32_t id;
	uint16_t opcode;
};

struct session {
	struct ibv_pd *pd;
	struct mlx5dv_devx_uar *uar;
	struct mlx5dv_devx_umem *umem;
	void *buf;
	uint32_t eqn;
	uint32_t pdn;
	struct live_obj objs[FUZZ_EMU_MAX_OBJS];
	uint32_t nobjs;
};

/*
 * Command status (PRM; the kernel's MLX5_CMD_STAT_* of
 * include/linux/mlx5/device.h) to errno as cmd_status_to_err() of the
 * Linux mlx5 core driver (cmd.c) maps it.
 */
static int
status_errno(uint8_t status)
{
	/* 0x00 OK; any other failure (BAD_INP_LEN_ERR...): EIO. */
	static const int map[UINT8_MAX + 1] = {
		[0x01] = EIO, /* INT_ERR */
		[0x02] = EINVAL, /* BAD_OP_ERR */
		[0x03] = EINVAL, /* BAD_PARAM_ERR */
		[0x04] = EIO, /* BAD_SYS_STATE_ERR */
		[0x05] = EINVAL, /* BAD_RES_ERR */
		[0x06] = EBUSY, /* RES_BUSY */
		[0x08] = ENOMEM, /* LIM_ERR */
		[0x09] = EINVAL, /* BAD_RES_STATE_ERR */
		[0x0a] = EINVAL, /* IX_ERR */
		[0x0f] = EAGAIN, /* NO_RES_ERR */
		[0x10] = EINVAL, /* BAD_QP_STATE_ERR */
		[0x30] = EINVAL, /* BAD_PKT_ERR */
		[0x40] = EINVAL, /* BAD_SIZE_OUTS_CQES_ERR */
	};

	if (status == 0)
		return 0;
	return map[status] != 0 ? map[status] : EIO;
}

static void
stats(struct mlx5_emu_stats *s)
{
	FUZZ_CHECK(mlx5_emu_stats_get(ctx, s) == 0, "stats_get");
}

static void
session_open(struct session *s)
{
	memset(s, 0, sizeof(*s));
	s->pd = mlx5_glue->alloc_pd(ctx);
	FUZZ_CHECK(s->pd != NULL, "alloc_pd errno %d", errno);
	s->pdn = s->pd->handle;
	s->uar = mlx5_glue->devx_alloc_uar(ctx, 0);
	FUZZ_CHECK(s->uar != NULL, "devx_alloc_uar errno %d", errno);
	s->buf = aligned_alloc(4096, FUZZ_EMU_UMEM_SIZE);
	FUZZ_CHECK(s->buf != NULL, "out of memory");
	memset(s->buf, 0, FUZZ_EMU_UMEM_SIZE);
	s->umem = mlx5_glue->devx_umem_reg(ctx, s->buf, FUZZ_EMU_UMEM_SIZE,
					   IBV_ACCESS_LOCAL_WRITE);
	FUZZ_CHECK(s->umem != NULL, "devx_umem_reg errno %d", errno);
	FUZZ_CHECK(mlx5_glue->devx_query_eqn(ctx, 0, &s->eqn) == 0,
		   "devx_query_eqn errno %d", errno);
}

/* Destroy every live object, dependents first; then the resources. */
static void
session_close(struct session *s)
{
	uint32_t round, i;

	for (round = 0; s->nobjs != 0; round++) {
		uint32_t before = s->nobjs;

		FUZZ_CHECK(round < FUZZ_EMU_MAX_OBJS + 1,
			   "%u objects cannot be destroyed", s->nobjs);
		for (i = s->nobjs; i-- > 0; ) {
			int ret = mlx5_glue->devx_obj_destroy(s->objs[i].obj);

			FUZZ_CHECK(ret == 0 || ret == EBUSY,
				   "destroy of object 0x%x (type 0x%x): %d",
				   s->objs[i].id, s->objs[i].opcode, ret);
			if (ret == 0)
				s->objs[i] = s->objs[--s->nobjs];
		}
		FUZZ_CHECK(s->nobjs < before, "no object destroyable of %u",
			   s->nobjs);
	}
	FUZZ_CHECK(mlx5_glue->devx_umem_dereg(s->umem) == 0,
		   "umem_dereg errno %d", errno);
	mlx5_glue->devx_free_uar(s->uar);
	FUZZ_CHECK(mlx5_glue->dealloc_pd(s->pd) == 0, "dealloc_pd errno %d",
		   errno);
	free(s->buf);
}

static void
resolve(const struct session *s, uint8_t *in, size_t len)
{
	size_t off;

	for (off = 0; off + 4 <= len; off += 4) {
		uint32_t w = (uint32_t)in[off] << 24 | in[off + 1] << 16 |
			     in[off + 2] << 8 | in[off + 3];
		uint32_t k, v;

		if ((w & 0xffff0000u) != FUZZ_EMU_PH(0))
			continue;
		k = w & 0xffff;
		if (k == FUZZ_EMU_PH_UMEM)
			v = s->umem->umem_id;
		else if (k == FUZZ_EMU_PH_UAR)
			v = s->uar->page_id;
		else if (k == FUZZ_EMU_PH_EQN)
			v = s->eqn;
		else if (k == FUZZ_EMU_PH_PD)
			v = s->pdn;
		else if (k >= FUZZ_EMU_PH_OBJ &&
			 k - FUZZ_EMU_PH_OBJ < s->nobjs)
			v = s->objs[k - FUZZ_EMU_PH_OBJ].id;
		else
			continue;
		in[off] = v >> 24;
		in[off + 1] = v >> 16;
		in[off + 2] = v >> 8;
		in[off + 3] = v;
	}
}

/* The outcome of one command against what the device counted. */
static void
check_outcome(const char *what, int failed, int err, const uint8_t *out,
	      size_t outlen, const struct mlx5_emu_stats *before)
{
	struct mlx5_emu_stats after;
	uint8_t status;
	uint32_t synd;

	stats(&after);
	if (trace)
		fprintf(stderr, "%s: opcode 0x%x %s errno %d status 0x%x "
			"syndrome 0x%08x\n", what, cur_opcode,
			failed ? "failed" : "ok", err, outlen ? out[0] : 0,
			outlen >= 8 ? (uint32_t)out[4] << 24 | out[5] << 16 |
			out[6] << 8 | out[7] : 0);
	if (!failed) {
		FUZZ_CHECK(after.cmd_errors == before->cmd_errors,
			   "%s: success with a command error counted", what);
		FUZZ_CHECK(outlen < 1 || out[0] == 0,
			   "%s: success with status 0x%x", what, out[0]);
		return;
	}
	FUZZ_CHECK(err != 0, "%s: failed without errno", what);
	if (after.cmd_errors == before->cmd_errors) {
		FUZZ_CHECK(err == EINVAL || err == ENOENT || err == EOPNOTSUPP,
			   "%s: refused with errno %d and no firmware status",
			   what, err);
		/* The kernel copies no output mailbox back then. */
		return;
	}
	FUZZ_CHECK(after.cmd_errors == before->cmd_errors + 1,
		   "%s: %" PRIu64 " command errors for one command", what,
		   after.cmd_errors - before->cmd_errors);
	FUZZ_CHECK(mlx5_emu_last_cmd_error(ctx, &status, &synd) == 0,
		   "%s: no last command error", what);
	FUZZ_CHECK(status != 0, "%s: command error of status 0", what);
	FUZZ_CHECK(err == status_errno(status),
		   "%s: errno %d for status 0x%x (kernel: %d)", what, err,
		   status, status_errno(status));
	if (outlen >= 8) {
		uint32_t got = (uint32_t)out[4] << 24 | out[5] << 16 |
			       out[6] << 8 | out[7];

		FUZZ_CHECK(out[0] == status && got == synd,
			   "%s: mailbox status 0x%x syndrome 0x%08x, device "
			   "0x%x 0x%08x", what, out[0], got, status, synd);
	}
}

static void
run_cmd(struct session *s, uint8_t op, uint8_t sel, uint8_t *in,
	size_t inlen, size_t outlen)
{
	struct mlx5_emu_stats before;
	struct live_obj *lo = NULL;
	uint8_t *out = malloc(outlen ? outlen : 1);
	int ret, failed, err;

	FUZZ_CHECK(out != NULL, "out of memory");
	memset(out, 0xa5, outlen ? outlen : 1);
	if (s->nobjs != 0)
		lo = &s->objs[sel % s->nobjs];
	cur_opcode = inlen >= 2 ? (unsigned int)(in[0] << 8 | in[1]) : 0;
	stats(&before);
	errno = 0;
	switch (op) {
	case FUZZ_EMU_OP_CREATE: {
		struct mlx5dv_devx_obj *obj;

		obj = mlx5_glue->devx_obj_create(ctx, in, inlen, out, outlen);
		err = errno;
		failed = obj == NULL;
		check_outcome("obj_create", failed, err, out, outlen, &before);
		if (obj == NULL)
			break;
		if (s->nobjs == FUZZ_EMU_MAX_OBJS) {
			FUZZ_CHECK(mlx5_glue->devx_obj_destroy(obj) == 0,
				   "destroy of a new object");
			break;
		}
		s->objs[s->nobjs].obj = obj;
		s->objs[s->nobjs].opcode = inlen >= 2 ?
			(uint16_t)(in[0] << 8 | in[1]) : 0;
		s->objs[s->nobjs].id = outlen >= 12 ?
			((uint32_t)out[9] << 16 | out[10] << 8 | out[11]) : 0;
		s->nobjs++;
		break;
	}
	case FUZZ_EMU_OP_GENERAL:
		ret = mlx5_glue->devx_general_cmd(ctx, in, inlen, out, outlen);
		err = errno;
		check_outcome("general_cmd", ret != 0, ret ? err : 0, out,
			      outlen, &before);
		FUZZ_CHECK(ret == 0 || ret == err, "general_cmd returned %d, "
			   "errno %d", ret, err);
		break;
	case FUZZ_EMU_OP_QUERY:
	case FUZZ_EMU_OP_MODIFY:
		if (lo == NULL)
			break;
		ret = op == FUZZ_EMU_OP_QUERY ?
			mlx5_glue->devx_obj_query(lo->obj, in, inlen, out,
						  outlen) :
			mlx5_glue->devx_obj_modify(lo->obj, in, inlen, out,
						   outlen);
		err = errno;
		check_outcome(op == FUZZ_EMU_OP_QUERY ? "obj_query" :
			      "obj_modify", ret != 0, ret ? err : 0, out,
			      outlen, &before);
		break;
	case FUZZ_EMU_OP_DESTROY:
		if (lo == NULL)
			break;
		ret = mlx5_glue->devx_obj_destroy(lo->obj);
		FUZZ_CHECK(ret == 0 || ret == EBUSY,
			   "destroy of object 0x%x (type 0x%x): %d", lo->id,
			   lo->opcode, ret);
		if (ret == 0)
			*lo = s->objs[--s->nobjs];
		break;
	default:
		break;
	}
	free(out);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	RTE_SET_USED(argc);
	fuzz_eal_init((*argv)[0]);
	trace = getenv("FUZZ_TRACE") != NULL;
	ctx = mlx5_emu_open("fuzz0", NULL);
	if (ctx == NULL) {
		fprintf(stderr, "mlx5_emu_open failed: errno %d\n", errno);
		exit(1);
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mlx5_emu_stats start, end;
	struct session s;
	size_t pos = 0;

	stats(&start);
	session_open(&s);
	while (size - pos >= FUZZ_EMU_CMD_HDR_LEN) {
		const uint8_t *h = data + pos;
		size_t inlen = (size_t)(h[2] | h[3] << 8);
		size_t outlen = (size_t)(h[4] | h[5] << 8) %
				(FUZZ_EMU_MAX_MBOX + 1);
		uint8_t *in;

		pos += FUZZ_EMU_CMD_HDR_LEN;
		inlen = RTE_MIN(RTE_MIN(inlen, size - pos),
				(size_t)FUZZ_EMU_MAX_MBOX);
		/* Exactly inlen bytes: a read past them is an ASan report. */
		in = malloc(inlen ? inlen : 1);
		FUZZ_CHECK(in != NULL, "out of memory");
		memcpy(in, data + pos, inlen);
		pos += inlen;
		if (h[0] & FUZZ_EMU_RESOLVE)
			resolve(&s, in, inlen);
		run_cmd(&s, (h[0] & 7) % FUZZ_EMU_OP_N, h[1],
			inlen ? in : in + 1, inlen, outlen);
		free(in);
	}
	session_close(&s);
	stats(&end);
	FUZZ_CHECK(end.pds == start.pds && end.uars == start.uars &&
		   end.umems == start.umems &&
		   end.devx_objs == start.devx_objs && end.cqs == start.cqs &&
		   end.verbs_cqs == start.verbs_cqs &&
		   end.dbr_pages == start.dbr_pages &&
		   end.dbr_slots == start.dbr_slots,
		   "device counts changed: pds %u->%u uars %u->%u umems "
		   "%u->%u objs %u->%u cqs %u->%u", start.pds, end.pds,
		   start.uars, end.uars, start.umems, end.umems,
		   start.devx_objs, end.devx_objs, start.cqs, end.cqs);
	return 0;
}
