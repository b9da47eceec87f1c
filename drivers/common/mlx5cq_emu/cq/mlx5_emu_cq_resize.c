/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * MODIFY_CQ op_mod RESIZE (MLX5_CQ_OPMOD_RESIZE = 1, kernel
 * include/linux/mlx5/cq.h) of a DevX CQ, as the firmware runs it.
 *
 * Mailbox: the kernel's mlx5_ifc.h modify_cq_in, 272 bytes like
 * create_cq_in: cqn at bit 0x40, resize_field_select at 0x60 (bit 0
 * MLX5_MODIFY_CQ_MASK_LOG_SIZE, bit 1 _PG_OFFSET, bit 2 _PG_SIZE), the
 * new cqc at 0x80 (log_cq_size, log_page_size, page_offset, cqe_sz, as
 * mlx5_ib_resize_cq() fills them), cq_umem_valid at 0x2e0. The kernel's
 * mlx5_ifc.h leaves bits 0x280..0x2df of modify_cq_in reserved; its commit
 * "Fix modify_cq_in alignment" (7a32f2962c56) put cq_umem_valid at the
 * offset it has in create_cq_in, and the model reads the new ring's umem
 * where create_cq_in keeps it: cq_umem_offset at 0x280, cq_umem_id at
 * 0x2c0.
 *
 * What the firmware does, as the consumers of the command expect it
 * (kernel cq.c copy_resize_cqes(), rdma-core cq.c
 * mlx5_cq_resize_copy_cqes()): it writes one CQE of opcode
 * MLX5_CQE_RESIZE_CQ (5) at the producer counter in the old ring, then
 * writes every later CQE into the new ring at the following counters,
 * owner bit (counter >> new log size) & 1. Software copies the CQEs it
 * had not polled, up to the RESIZE CQE, to the new ring one counter
 * further on, and resumes one past the RESIZE CQE. An open compression
 * session is closed first: the RESIZE CQE is a regular CQE.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_common.h>
#include <mlx5_prm.h>

#include <rte_mlx5cq_prm.h>

#include "mlx5_emu_private.h"

/* modify_cq_in (kernel mlx5_ifc.h), umem fields named as in create_cq_in. */
struct mlx5_ifc_emu_modify_cq_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x8];
	u8 cqn[0x18];
	u8 resize_field_select[0x20];
	struct mlx5_ifc_cqc_bits cq_context;
	u8 cq_umem_offset[0x40];
	u8 cq_umem_id[0x20];
	u8 cq_umem_valid[0x1];
	u8 reserved_at_2e1[0x1f];
	u8 reserved_at_300[0x580];
};

/* resize_field_select bits (kernel include/linux/mlx5/cq.h). */
#define EMU_CQ_RESIZE_LOG_SIZE (1u << 0) /* MLX5_MODIFY_CQ_MASK_LOG_SIZE */
#define EMU_CQ_RESIZE_PG_OFFSET (1u << 1) /* MLX5_MODIFY_CQ_MASK_PG_OFFSET */
#define EMU_CQ_RESIZE_PG_SIZE (1u << 2) /* MLX5_MODIFY_CQ_MASK_PG_SIZE */

#define RS_GET(fld) EMU_GET(emu_modify_cq_in, in, fld)
#define RS_CQC(fld) EMU_GET(cqc, cqc, fld)
/* Log the refusal; BAD_PARAM unless said otherwise. */
#define RS_FAIL_ST(st, synd, fmt, ...) \
	(EMU_LOG(ERR, "%s: MODIFY_CQ resize of CQ 0x%x: " fmt, dev->name, \
		 cq->cqn, ##__VA_ARGS__), \
	 emu_cmd_fail(dev, out, outlen, st, MLX5_EMU_SYND_ ## synd))
#define RS_FAIL(synd, fmt, ...) \
	RS_FAIL_ST(EMU_CMD_STAT_BAD_PARAM_ERR, synd, fmt, ##__VA_ARGS__)

/*
 * The new ring's umem, checked as CREATE_CQ checks a ring (mlx5_emu_cq.c
 * file comment: inside the umem, 4 KiB aligned, writable, offset 0 in a
 * umem registered without a page-size bitmap, queue page within the
 * umem's page). Returns the umem, or NULL with the failure in *ret.
 */
static struct emu_umem *
emu_resize_ring_umem(struct emu_cq *cq, const void *in, void *out,
		     size_t outlen, int *ret)
{
	struct emu_dev *dev = cq->dev;
	const void *cqc = EMU_ADDR_OF(emu_modify_cq_in, in, cq_context);
	unsigned int stride = cq->cqe_sz == 0 ? 64 : 128;
	unsigned int qshift = EMU_PAGE_SHIFT + RS_CQC(log_page_size);
	uint64_t offset = EMU_GET64(emu_modify_cq_in, in, cq_umem_offset);
	uint64_t bytes = (uint64_t)stride << RS_CQC(log_cq_size);
	struct emu_umem *u;

	/* DevX CQs have umem rings only (the model has no PAS path). */
	if (!RS_GET(cq_umem_valid)) {
		*ret = RS_FAIL(CQ_NO_UMEM, "cq_umem_valid 0 (PAS not "
			       "supported)");
		return NULL;
	}
	u = emu_umem_lookup(dev, RS_GET(cq_umem_id));
	if (u == NULL) {
		*ret = RS_FAIL(CQ_UMEM_ID, "cq_umem_id %u unknown",
			       RS_GET(cq_umem_id));
		return NULL;
	}
	/* Kernel resize_user() pins a new buffer: both rings live until
	 * software has copied the unpolled CQEs.
	 */
	if (u == cq->ring_umem) {
		*ret = RS_FAIL(CQ_RESIZE_SAME_UMEM, "umem %u is the current "
			       "ring", u->pub.umem_id);
		return NULL;
	}
	if (offset > u->size || bytes > u->size - offset) {
		*ret = RS_FAIL(CQ_UMEM_RANGE, "ring [%" PRIu64 ", +%" PRIu64
			       ") outside umem %u of %" PRIu64 " bytes",
			       offset, bytes, u->pub.umem_id, u->size);
		return NULL;
	}
	if (((u->addr + offset) & (EMU_PAGE_SIZE - 1)) != 0) {
		*ret = RS_FAIL(CQ_UMEM_ALIGN, "ring start 0x%" PRIx64 " not "
			       "4 KiB aligned", u->addr + offset);
		return NULL;
	}
	if (!(u->access & IBV_ACCESS_LOCAL_WRITE)) {
		*ret = RS_FAIL(CQ_UMEM_ACCESS, "umem %u not writable",
			       u->pub.umem_id);
		return NULL;
	}
	/* Kernel devx.c devx_umem_reg_cmd_alloc(): no object at
	 * umem_offset != 0 of a umem registered without pgsz_bitmap.
	 */
	if (offset != 0) {
		*ret = RS_FAIL(CQ_UMEM_OFFSET, "cq_umem_offset 0x%" PRIx64,
			       offset);
		return NULL;
	}
	/* devx_umem_find_best_pgsize(): the queue page fits the umem's. */
	if (qshift > u->page_shift ||
	    ((u->page_offset + offset) & ((1ull << qshift) - 1)) != 0) {
		*ret = RS_FAIL(CQ_LOG_PAGE_SIZE, "log_page_size %u: queue page "
			       "2^%u vs umem page 2^%u", RS_CQC(log_page_size),
			       qshift, u->page_shift);
		return NULL;
	}
	return u;
}

/* Header and cqc of the command (before the ring is looked at). */
static int
emu_resize_check_cqc(struct emu_cq *cq, const void *in, size_t inlen,
		     void *out, size_t outlen)
{
	struct emu_dev *dev = cq->dev;
	const void *cqc = EMU_ADDR_OF(emu_modify_cq_in, in, cq_context);
	uint32_t sel = RS_GET(resize_field_select);
	const size_t len = MLX5_ST_SZ_BYTES(emu_modify_cq_in);

	if (inlen < len)
		return RS_FAIL_ST(EMU_CMD_STAT_BAD_INP_LEN_ERR, INLEN,
				  "input mailbox %zu < %zu bytes", inlen, len);
	if (outlen < 16)
		return RS_FAIL_ST(EMU_CMD_STAT_BAD_OUTP_LEN_ERR, OUTLEN,
				  "output mailbox %zu < 16 bytes", outlen);
	/*
	 * HCA_CAP.cq_resize (mlx5_prm.h cmd_hca_cap): the kernel's
	 * mlx5_ib_resize_cq() refuses with ENOSYS before any command
	 * without it; a DevX command reaching the firmware gets BAD_PARAM
	 * (the firmware's answer is not public; the model's other
	 * capability checks answer so).
	 */
	if (!dev->caps.cq_resize)
		return RS_FAIL(CQ_RESIZE_CAP, "the device lacks cq_resize");
	if (!emu_bytes_zero((const uint8_t *)in + len, inlen - len))
		return RS_FAIL(CQ_INLINE_PAS, "PAS entries given (umem only)");
	/* Reserved in the kernel's mlx5_ifc.h modify_cq_in: must be 0. */
	if (RS_GET(reserved_at_2e1) != 0 ||
	    !EMU_WIDE_FIELD_ZERO(emu_modify_cq_in, in, reserved_at_300))
		return RS_FAIL(CQ_RESERVED, "reserved bits set");
	/* mlx5_ib_resize_cq() selects LOG_SIZE | PG_OFFSET | PG_SIZE; a
	 * resize without a new size, or other bits, is refused.
	 */
	if (!(sel & EMU_CQ_RESIZE_LOG_SIZE) ||
	    (sel & ~(EMU_CQ_RESIZE_LOG_SIZE | EMU_CQ_RESIZE_PG_OFFSET |
		     EMU_CQ_RESIZE_PG_SIZE)) != 0)
		return RS_FAIL(CQ_RESIZE_SELECT, "resize_field_select 0x%x",
			       sel);
	/* As CREATE_CQ: log_cq_size <= HCA_CAP.log_max_cq_sz (the kernel's
	 * mlx5_ib_resize_cq() refuses more entries with EINVAL).
	 */
	if (RS_CQC(log_cq_size) > dev->caps.log_max_cq_sz)
		return RS_FAIL(CQ_LOG_SIZE, "log_cq_size %u > log_max_cq_sz %u",
			       RS_CQC(log_cq_size), dev->caps.log_max_cq_sz);
	/* Kernel copy_resize_cqes(): "resize from different cqe size is not
	 * supported"; rdma-core mlx5_resize_cq(): "we don't change cqe size".
	 */
	if (RS_CQC(cqe_sz) != cq->cqe_sz)
		return RS_FAIL(CQ_RESIZE_CQE_SZ, "cqe_sz %u, the CQ has %u",
			       RS_CQC(cqe_sz), cq->cqe_sz);
	/* As CREATE_CQ: the kernel's create_cq_user() and
	 * mlx5_ib_resize_cq() place the ring with
	 * mlx5_umem_find_best_cq_quantized_pgoff(), whose page-offset mask
	 * is 0 (the ring starts on a page: page_offset 0).
	 */
	if (RS_CQC(page_offset) != 0)
		return RS_FAIL(CQ_PAGE_OFFSET, "page_offset %u",
			       RS_CQC(page_offset));
	return 0;
}

int
emu_devx_cq_resize(struct emu_cq *cq, const void *in, size_t inlen,
		   void *out, size_t outlen)
{
	struct emu_dev *dev = cq->dev;
	const void *cqc = EMU_ADDR_OF(emu_modify_cq_in, in, cq_context);
	static const uint8_t resize_cqe[64];
	struct emu_umem *u, *old;
	uint32_t old_pi;
	int ret = 0;

	ret = emu_resize_check_cqc(cq, in, inlen, out, outlen);
	if (ret != 0)
		return ret;
	if (cq->verbs || cq->ring_umem == NULL || cq->cc)
		/* Verbs CQs resize through ibv_resize_cq (kernel); a
		 * collapsed CQ has one entry whatever its size.
		 */
		return RS_FAIL(BAD_OP_MOD, "%s CQ", cq->cc ? "a collapsed" :
			       "not a DevX");
	u = emu_resize_ring_umem(cq, in, out, outlen, &ret);
	if (u == NULL)
		return ret;
	pthread_mutex_lock(&cq->lock);
	/*
	 * The RESIZE CQE is a CQE of the old ring: a CQ in error writes
	 * nothing (mlx5_emu_cqe.c), a full ring has no slot for it and
	 * writing it would overwrite an unpolled CQE. The firmware's answer
	 * is not public: the model refuses the command (BAD_RES_STATE).
	 */
	if (cq->cqe_comp_en)
		emu_comp_close(cq);
	cq->ci_seen_valid = 0;
	if (cq->status != 0 || emu_cq_room(cq, 1) == 0) {
		pthread_mutex_unlock(&cq->lock);
		return RS_FAIL_ST(EMU_CMD_STAT_BAD_RES_STATE_ERR,
				  CQ_RESIZE_STATE, "%s", cq->status ?
				  "CQ in error" : "no room for the RESIZE CQE");
	}
	old_pi = cq->pi;
	emu_cqe_emit(cq, resize_cqe, RTE_MLX5CQ_OP_RESIZE_CQ << 4);
	/* One reference per umem the CQ uses (emu_cq_free()): the record's
	 * umem keeps its own.
	 */
	old = cq->ring_umem;
	if (old != cq->dbr_umem)
		old->refcnt--;
	if (u != cq->dbr_umem)
		u->refcnt++;
	cq->ring_umem = u;
	cq->ring_umem_offset = 0;
	cq->ring = (uint8_t *)(uintptr_t)u->addr;
	cq->log_cq_size = RS_CQC(log_cq_size);
	cq->log_page_size = RS_CQC(log_page_size);
	cq->ci_seen_valid = 0;
	pthread_mutex_unlock(&cq->lock);
	emu_cmd_ok(out, outlen);
	EMU_LOG(DEBUG, "%s: CQ 0x%x resized: 2^%u entries in umem %u (was "
		"%u), RESIZE CQE at 0x%x", dev->name, cq->cqn,
		cq->log_cq_size, u->pub.umem_id, old->pub.umem_id, old_pi);
	return 0;
}
