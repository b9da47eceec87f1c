/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The CQ table and the DevX CQ commands (CREATE_CQ 0x400, QUERY_CQ 0x402,
 * destroy through the object) as the firmware checks them.
 *
 * CREATE_CQ checks every field of create_cq_in / cqc (mlx5_prm.h); a bad
 * field fails the command with a status (BAD_PARAM unless said otherwise)
 * and a syndrome of its own (enum mlx5_emu_syndrome) and changes nothing.
 * The kernel looks the completion EQ up before the firmware runs
 * (mlx5_create_cq -> mlx5_eqn2comp_eq): an unknown c_eqn fails with ENOENT
 * and no firmware status, as there.
 *
 * Buffers come only from umems (cq_umem_valid, dbr_umem_valid: the model
 * has no PAS path). Rules for the ring:
 * - it lies inside its umem: cq_umem_offset + 2^log_cq_size * stride <=
 *   umem size; it starts on a 4 KiB boundary; cqc.page_offset is 0 (the
 *   kernel's create_cq_user refuses a buffer with page_offset != 0 too);
 * - cq_umem_offset is 0: every umem comes from the glue's devx_umem_reg
 *   (rdma-core mlx5dv_devx_umem_reg), which passes no page-size bitmap,
 *   and then "the user promises not to use umem_offset!=0 in any commands
 *   that allocate on top of the umem" (kernel devx.c,
 *   devx_umem_reg_cmd_alloc()). The kernel does not check the promise;
 *   the model refuses the command (BAD_PARAM, MLX5_EMU_SYND_CQ_UMEM_OFFSET;
 *   errno EINVAL, cmd_status_to_err() of mlx5 core cmd.c for BAD_PARAM)
 *   so that a layout a card would mistranslate cannot pass;
 * - log_page_size: the queue page (4 KiB << log_page_size) may not be
 *   larger than the umem's page, the size the kernel chose for it
 *   (devx_umem_find_best_pgsize(), modelled in mlx5_emu_umem.c), which
 *   "guides the maximum page size and thus maximum object alignment
 *   inside the umem" (devx_umem_reg_cmd_alloc()); and the ring's
 *   position in the umem's translation (the umem's page_offset, i.e.
 *   ib_umem_dma_offset(), + cq_umem_offset) must be aligned to the queue
 *   page. DPDK's mlx5_devx_cq_create passes the system page size
 *   (log_page_size 0), which this rule always accepts;
 * - the ring umem must be writable by the device (IBV_ACCESS_LOCAL_WRITE).
 * The doorbell record (8 bytes, dbr_addr = offset in its umem) must be
 * 8-byte aligned and inside its umem.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <mlx5_prm.h>

#include "mlx5_emu_private.h"

/* QUERY_CQ mailboxes (PRM; kernel include/linux/mlx5/mlx5_ifc.h). */
struct mlx5_ifc_emu_query_cq_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x8];
	u8 cqn[0x18];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_emu_query_cq_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
	struct mlx5_ifc_cqc_bits cq_context;
};

struct emu_cq *
emu_cq_lookup(struct emu_dev *dev, uint32_t cqn)
{
	struct emu_cq *cq;

	TAILQ_FOREACH(cq, &dev->cqs, next)
		if (cq->cqn == cqn)
			return cq;
	return NULL;
}

struct emu_cq *
emu_cq_new(struct emu_dev *dev)
{
	struct emu_cq *cq;
	uint32_t cqn;

	if (dev->stats.cqs >= (1u << dev->caps.log_max_cq)) {
		EMU_LOG(ERR, "%s: 2^%u CQs exist already", dev->name,
			dev->caps.log_max_cq);
		errno = ENOMEM;
		return NULL;
	}
	cq = calloc(1, sizeof(*cq));
	if (cq == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	/* CQ numbers are 24 bits; 0 is never handed out. */
	do {
		cqn = (0x80 + dev->next_cqn++) & EMU_CQN_MASK;
	} while (cqn == 0 || emu_cq_lookup(dev, cqn) != NULL);
	cq->cqn = cqn;
	cq->dev = dev;
	if (emu_comp_init(cq) != 0 || emu_ev_init(cq) != 0) {
		emu_comp_fini(cq);
		free(cq);
		errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_init(&cq->lock, NULL);
	TAILQ_INSERT_TAIL(&dev->cqs, cq, next);
	dev->stats.cqs++;
	return cq;
}

void
emu_cq_free(struct emu_cq *cq)
{
	struct emu_dev *dev = cq->dev;

	TAILQ_REMOVE(&dev->cqs, cq, next);
	dev->stats.cqs--;
	/* One reference per umem the CQ uses (ring and record may share). */
	if (cq->ring_umem != NULL)
		cq->ring_umem->refcnt--;
	if (cq->dbr_umem != NULL && cq->dbr_umem != cq->ring_umem)
		cq->dbr_umem->refcnt--;
	/* Wait for a producer still writing (it found the CQ before). */
	pthread_mutex_lock(&cq->lock);
	pthread_mutex_unlock(&cq->lock);
	pthread_mutex_destroy(&cq->lock);
	emu_comp_fini(cq);
	emu_ev_fini(cq);
	free(cq);
}

#define CQC_GET(fld) EMU_GET(cqc, cqc, fld)
/* Log the refusal; the value is the command's failure status to return. */
#define CQ_FAIL(synd, fmt, ...) \
	(EMU_LOG(ERR, "%s: CREATE_CQ: " fmt, dev->name, ##__VA_ARGS__), \
	 emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_BAD_PARAM_ERR, \
		      MLX5_EMU_SYND_CQ_ ## synd))

/*
 * Bits of the CQ context that must be zero, as {offset, width} in bits
 * from the PRM cqc layout: the reserved ranges, plus ext_element (0x07),
 * always_armed_cq (0x18) and ext_element_type (0x19, 3 bits), which the
 * model does not implement. DPDK's mlx5_prm.h names these bits
 * differently across releases (22.11: reserved_at_7, reserved_at_18 and
 * a 7-bit cqe_comp_layout; 23.03 on: named fields, reserved_at_1c and a
 * 2-bit cqe_comp_layout), so they are checked by position.
 */
static const struct {
	uint16_t off;
	uint16_t width;
} emu_cqc_zero_bits[] = {
	{ 0x007, 0x01 }, { 0x00c, 0x01 }, { 0x018, 0x06 }, { 0x040, 0x14 },
	{ 0x05a, 0x02 }, { 0x060, 0x03 }, { 0x080, 0x04 }, { 0x0a0, 0x18 },
	{ 0x0c0, 0x03 }, { 0x0c8, 0x38 }, { 0x100, 0x08 }, { 0x120, 0x08 },
	{ 0x140, 0x08 }, { 0x160, 0x08 }, { 0x1a0, 0x20 },
};

/* Bit @p off of a PRM mailbox (bit 0 is the MSB of the first byte). */
static int
emu_prm_bit(const void *p, unsigned int off)
{
	return (((const uint8_t *)p)[off / 8] >> (7 - off % 8)) & 1;
}

/* Reserved fields of create_cq_in and cqc are zero. */
static int
emu_cq_reserved_zero(const void *in, const void *cqc)
{
	unsigned int i, b;

	if (EMU_GET(create_cq_in, in, reserved_at_2e1) != 0 ||
	    !EMU_WIDE_FIELD_ZERO(create_cq_in, in, reserved_at_300))
		return 0;
	for (i = 0; i < RTE_DIM(emu_cqc_zero_bits); i++)
		for (b = 0; b < emu_cqc_zero_bits[i].width; b++)
			if (emu_prm_bit(cqc, emu_cqc_zero_bits[i].off + b))
				return 0;
	return 1;
}

/* Capability needed by a mini-CQE format (0..4, ext included). */
static int
emu_cq_format_supported(const struct mlx5_emu_caps *c, unsigned int fmt)
{
	switch (fmt) {
	case MLX5_CQE_RESP_FORMAT_HASH:
	case MLX5_CQE_RESP_FORMAT_CSUM:
		return 1;
	case MLX5_CQE_RESP_FORMAT_FTAG_STRIDX:
		return c->mini_cqe_resp_flow_tag &&
		       c->mini_cqe_resp_stride_index;
	case MLX5_CQE_RESP_FORMAT_CSUM_STRIDX:
		return c->mini_cqe_resp_stride_index;
	case MLX5_CQE_RESP_FORMAT_L34H_STRIDX:
		return c->mini_cqe_resp_l3_l4_tag &&
		       c->mini_cqe_resp_stride_index;
	default:
		return 0;
	}
}

int
emu_devx_cq_create(struct emu_dev *dev, const void *in, size_t inlen,
		   void *out, size_t outlen, struct emu_cq **cqp)
{
	const struct mlx5_emu_caps *c = &dev->caps;
	const void *cqc = EMU_ADDR_OF(create_cq_in, in, cq_context);
	struct emu_umem *ring_umem, *dbr_umem;
	unsigned int cqe_sz, log_size, fmt, ext, layout, qshift, stride;
	uint64_t offset, ring_bytes, ring_pos, dbr_addr;
	struct emu_cq *cq;

	if (inlen < MLX5_ST_SZ_BYTES(create_cq_in)) {
		EMU_LOG(ERR, "%s: CREATE_CQ: input mailbox %zu < %zu bytes",
			dev->name, inlen, MLX5_ST_SZ_BYTES(create_cq_in));
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_INP_LEN_ERR,
				    MLX5_EMU_SYND_INLEN);
	}
	if (outlen < MLX5_ST_SZ_BYTES(create_cq_out)) {
		EMU_LOG(ERR, "%s: CREATE_CQ: output mailbox %zu < %zu bytes",
			dev->name, outlen, MLX5_ST_SZ_BYTES(create_cq_out));
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_OUTP_LEN_ERR,
				    MLX5_EMU_SYND_OUTLEN);
	}
	/* Kernel first: the completion EQ must exist (no firmware status). */
	if (!emu_eqn_valid(dev, CQC_GET(c_eqn))) {
		EMU_LOG(ERR, "%s: CREATE_CQ: c_eqn %u is no completion EQ of "
			"this device", dev->name, CQC_GET(c_eqn));
		emu_cmd_ok(out, outlen);
		return emu_ret_errno(ENOENT);
	}
	if (EMU_GET(create_cq_in, in, op_mod) != 0) {
		EMU_LOG(ERR, "%s: CREATE_CQ: op_mod 0x%x", dev->name,
			EMU_GET(create_cq_in, in, op_mod));
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_BAD_OP_MOD);
	}
	if (EMU_GET(create_cq_in, in, reserved_at_20) != 0 ||
	    !EMU_WIDE_FIELD_ZERO(create_cq_in, in, reserved_at_40)) {
		EMU_LOG(ERR, "%s: CREATE_CQ: header reserved bits set",
			dev->name);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_HDR_RESERVED);
	}
	if (!emu_bytes_zero((const uint8_t *)in +
			    MLX5_ST_SZ_BYTES(create_cq_in),
			    inlen - MLX5_ST_SZ_BYTES(create_cq_in)))
		return CQ_FAIL(INLINE_PAS, "PAS entries given (umem only)");
	if (!emu_cq_reserved_zero(in, cqc))
		return CQ_FAIL(RESERVED, "reserved bits set");
	if (CQC_GET(status) != 0)
		return CQ_FAIL(STATUS, "status %u", CQC_GET(status));
	if (CQC_GET(st) != 0 || CQC_GET(last_notified_index) != 0 ||
	    CQC_GET(last_solicit_index) != 0 ||
	    CQC_GET(consumer_counter) != 0 || CQC_GET(producer_counter) != 0)
		return CQ_FAIL(STATE, "state fields (st, indexes, counters) set");
	if (CQC_GET(as_notify) || CQC_GET(initiator_src_dct) ||
	    CQC_GET(local_partition_id) || CQC_GET(process_id))
		return CQ_FAIL(UNSUPPORTED, "as_notify/initiator_src_dct/"
			"partition set");
	log_size = CQC_GET(log_cq_size);
	if (log_size > c->log_max_cq_sz)
		return CQ_FAIL(LOG_SIZE, "log_cq_size %u > log_max_cq_sz %u",
			log_size, c->log_max_cq_sz);
	cqe_sz = CQC_GET(cqe_sz);
	if (cqe_sz > 2)
		return CQ_FAIL(CQE_SZ, "cqe_sz %u", cqe_sz);
	/*
	 * HCA_CAP.cqe_128_always gates the padded 128 B stride (cqe_sz 2)
	 * only: the kernel's create_cq_user() (drivers/infiniband/hw/mlx5/
	 * cq.c) refuses MLX5_IB_CREATE_CQ_FLAGS_CQE_128B_PAD without it,
	 * mlx5e_build_common_cq_param() (mlx5e) sets CQE_STRIDE_128_PAD
	 * only with it. Plain 128 B CQEs (cqe_sz 1) need no capability:
	 * create_cq_user() accepts cqe_size 128 unchecked and DPDK's
	 * mlx5_devx_cmd_create_cq() sets MLX5_CQE_SIZE_128B on 128-byte
	 * cache-line builds without reading the capability. The firmware's
	 * own answer is not public: the model refuses with BAD_PARAM, as
	 * its other capability checks do.
	 */
	/*
	 * cqc.oi needs HCA_CAP.cq_oi: the kernel's mlx5_ib_create_cq()
	 * refuses IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN without it (EOPNOTSUPP);
	 * the model's firmware refuses the cqc bit with BAD_PARAM.
	 */
	if (CQC_GET(oi) && !c->cq_oi)
		return CQ_FAIL(OI_CAP, "oi without cq_oi");
	/*
	 * cqc.scqe_break_moderation_en needs HCA_CAP.scqe_break_moderation
	 * (the PRM field names, DPDK's mlx5_prm.h cmd_hca_cap and cqc;
	 * neither DPDK nor the kernel sets the cqc bit). The firmware's
	 * answer without the capability is not public: the model refuses
	 * with BAD_PARAM, as its other capability checks do.
	 */
	if (CQC_GET(scqe_break_moderation_en) && !c->scqe_break_moderation)
		return CQ_FAIL(SCQE_BREAK_CAP, "scqe_break_moderation_en "
			"without scqe_break_moderation");
	if (cqe_sz == 2 && !c->cqe_128_always)
		return CQ_FAIL(CQE_PAD, "padded 128 B CQEs (cqe_sz 2) without"
			" cqe_128_always");
	fmt = CQC_GET(mini_cqe_res_format);
	ext = CQC_GET(mini_cqe_res_format_ext);
	if (ext > 1 || (ext == 1 && fmt != 0))
		return CQ_FAIL(MINI_FMT, "mini_cqe_res_format %u ext %u reserved",
			fmt, ext);
	fmt = ext ? MLX5_CQE_RESP_FORMAT_L34H_STRIDX : fmt;
	layout = CQC_GET(cqe_comp_layout);
	if (CQC_GET(cqe_comp_en)) {
		if (!c->cqe_compression)
			return CQ_FAIL(COMP, "CQE compression not supported");
		if (cqe_sz != 0 && !c->cqe_compression_128)
			return CQ_FAIL(COMP_128, "compression of 128 B CQEs not "
				"supported");
		if (!emu_cq_format_supported(c, fmt))
			return CQ_FAIL(MINI_FMT_CAP, "mini-CQE format %u not "
				"supported", fmt);
	}
	if (layout > 1)
		return CQ_FAIL(LAYOUT, "cqe_comp_layout %u", layout);
	if (layout == 1 && !c->enhanced_cqe_compression)
		return CQ_FAIL(LAYOUT_CAP, "enhanced compression not supported");
	if (layout == 1 && !CQC_GET(cqe_comp_en))
		return CQ_FAIL(LAYOUT_NO_COMP, "cqe_comp_layout 1 without "
			"cqe_comp_en");
	if (CQC_GET(cq_period_mode) > 1)
		return CQ_FAIL(PERIOD_MODE, "cq_period_mode %u",
			CQC_GET(cq_period_mode));
	/*
	 * cqc.cq_period / cq_max_count need HCA_CAP.cq_moderation, a period
	 * started from the CQE cq_period_start_from_cqe (mlx5_prm.h
	 * cmd_hca_cap; the kernel's mlx5e asks for the CQE mode only with
	 * it, mlx5e_set_rx_cq_mode_params()).
	 */
	if ((CQC_GET(cq_period) || CQC_GET(cq_max_count)) && !c->cq_moderation)
		return CQ_FAIL(MODER_CAP, "moderation without cq_moderation");
	if (CQC_GET(cq_period_mode) == 1 && !c->cq_period_start_from_cqe)
		return CQ_FAIL(MODER_CAP, "cq_period_mode 1 without "
			"cq_period_start_from_cqe");
	if (CQC_GET(cq_timestamp_format) > 1)
		return CQ_FAIL(TS_FORMAT, "cq_timestamp_format %u",
			CQC_GET(cq_timestamp_format));
	if (CQC_GET(page_offset) != 0)
		return CQ_FAIL(PAGE_OFFSET, "page_offset %u", CQC_GET(page_offset));
	if (emu_uar_lookup(dev, CQC_GET(uar_page)) == NULL)
		return CQ_FAIL(UAR, "uar_page 0x%x not allocated on this device",
			CQC_GET(uar_page));
	/* The ring. */
	if (!EMU_GET(create_cq_in, in, cq_umem_valid))
		return CQ_FAIL(NO_UMEM, "cq_umem_valid 0 (PAS not supported)");
	ring_umem = emu_umem_lookup(dev, EMU_GET(create_cq_in, in,
						  cq_umem_id));
	if (ring_umem == NULL)
		return CQ_FAIL(UMEM_ID, "cq_umem_id %u unknown",
			EMU_GET(create_cq_in, in, cq_umem_id));
	stride = cqe_sz == 0 ? 64 : 128;
	offset = EMU_GET64(create_cq_in, in, cq_umem_offset);
	ring_bytes = (uint64_t)stride << log_size;
	if (offset > ring_umem->size || ring_bytes > ring_umem->size - offset)
		return CQ_FAIL(UMEM_RANGE, "ring [%" PRIu64 ", +%" PRIu64 ") outside "
			"umem %u of %" PRIu64 " bytes", offset, ring_bytes,
			ring_umem->pub.umem_id, ring_umem->size);
	if (((ring_umem->addr + offset) & (EMU_PAGE_SIZE - 1)) != 0)
		return CQ_FAIL(UMEM_ALIGN, "ring start 0x%" PRIx64 " not 4 KiB "
			"aligned", ring_umem->addr + offset);
	if (!(ring_umem->access & IBV_ACCESS_LOCAL_WRITE))
		return CQ_FAIL(UMEM_ACCESS, "umem %u not writable",
			ring_umem->pub.umem_id);
	/* Kernel devx.c devx_umem_reg_cmd_alloc(): no pgsz_bitmap given
	 * (mlx5dv_devx_umem_reg, the glue's devx_umem_reg), no object at
	 * umem_offset != 0.
	 */
	if (offset != 0)
		return CQ_FAIL(UMEM_OFFSET, "cq_umem_offset 0x%" PRIx64 " in umem "
			"%u, registered without a page-size bitmap", offset,
			ring_umem->pub.umem_id);
	/* Queue page within the umem's page (devx_umem_find_best_pgsize()),
	 * ring start aligned to it in the umem's translation
	 * (ib_umem_dma_offset() + offset).
	 */
	qshift = EMU_PAGE_SHIFT + CQC_GET(log_page_size);
	ring_pos = ring_umem->page_offset + offset;
	if (qshift > ring_umem->page_shift ||
	    (ring_pos & ((1ull << qshift) - 1)) != 0)
		return CQ_FAIL(LOG_PAGE_SIZE, "log_page_size %u: queue page 2^%u vs "
			"umem page 2^%u at position 0x%" PRIx64,
			CQC_GET(log_page_size), qshift, ring_umem->page_shift,
			ring_pos);
	/* The doorbell record. */
	if (!CQC_GET(dbr_umem_valid))
		return CQ_FAIL(NO_DBR_UMEM, "dbr_umem_valid 0 (not supported)");
	dbr_umem = emu_umem_lookup(dev, CQC_GET(dbr_umem_id));
	if (dbr_umem == NULL)
		return CQ_FAIL(DBR_UMEM_ID, "dbr_umem_id %u unknown",
			CQC_GET(dbr_umem_id));
	dbr_addr = EMU_GET64(cqc, cqc, dbr_addr);
	if (dbr_addr & 7)
		return CQ_FAIL(DBR_ALIGN, "dbr_addr 0x%" PRIx64 " not 8 B aligned",
			dbr_addr);
	if (dbr_umem->size < 8 || dbr_addr > dbr_umem->size - 8)
		return CQ_FAIL(DBR_RANGE, "dbr_addr 0x%" PRIx64 " outside umem %u",
			dbr_addr, dbr_umem->pub.umem_id);
	cq = emu_cq_new(dev);
	if (cq == NULL)
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_LIM_ERR,
				    MLX5_EMU_SYND_CQ_LIMIT);
	cq->log_cq_size = log_size;
	cq->cqe_sz = cqe_sz;
	cq->cc = CQC_GET(cc);
	cq->cqe_comp_en = CQC_GET(cqe_comp_en);
	cq->mini_cqe_res_format = cq->cqe_comp_en ? fmt : 0;
	cq->cqe_comp_layout = layout;
	cq->oi = CQC_GET(oi);
	cq->scqe_break = CQC_GET(scqe_break_moderation_en);
	cq->cq_period_mode = CQC_GET(cq_period_mode);
	cq->log_page_size = CQC_GET(log_page_size);
	cq->uar_page = CQC_GET(uar_page);
	cq->uar_va = emu_uar_lookup(dev, cq->uar_page)->page;
	cq->eqn = CQC_GET(c_eqn);
	cq->cq_period = CQC_GET(cq_period);
	cq->cq_max_count = CQC_GET(cq_max_count);
	cq->ring_umem = ring_umem;
	cq->ring_umem_offset = offset;
	cq->dbr_umem = dbr_umem;
	cq->dbr_offset = dbr_addr;
	cq->ring = (uint8_t *)(uintptr_t)(ring_umem->addr + offset);
	cq->dbrec = (volatile uint32_t *)(uintptr_t)(dbr_umem->addr +
						      dbr_addr);
	ring_umem->refcnt++;
	if (dbr_umem != ring_umem)
		dbr_umem->refcnt++;
	emu_cmd_ok(out, outlen);
	MLX5_SET(create_cq_out, out, cqn, cq->cqn);
	EMU_LOG(DEBUG, "%s: CQ 0x%x: 2^%u x %u B, umem %u +0x%" PRIx64
		", dbr umem %u +0x%" PRIx64 ", eqn %u", dev->name, cq->cqn,
		log_size, stride, ring_umem->pub.umem_id, offset,
		dbr_umem->pub.umem_id, dbr_addr, cq->eqn);
	*cqp = cq;
	return 0;
}

/* MODIFY_CQ (kernel include/linux/mlx5/mlx5_ifc.h modify_cq_in): the
 * header, cqn, modify_field_select at 0x60 (bit 0 cq_period, bit 1
 * cq_max_count, bit 2 oi), cqc at 0x80. op_mod 1 (MLX5_CQ_OPMOD_RESIZE)
 * is the resize of mlx5_emu_cq_resize.c.
 */
#define EMU_CQ_OPMOD_RESIZE 1
#define EMU_MODIFY_CQ_CQC_OFF 16
#define EMU_CQ_MODIFY_PERIOD (1u << 0)
#define EMU_CQ_MODIFY_COUNT (1u << 1)
#define EMU_CQ_MODIFY_OVERRUN (1u << 2)

int
emu_devx_cq_modify(struct emu_cq *cq, const void *in, size_t inlen,
		   void *out, size_t outlen)
{
	struct emu_dev *dev = cq->dev;
	const uint8_t *b = in;
	const void *cqc = b + EMU_MODIFY_CQ_CQC_OFF;
	uint32_t sel;

	if (inlen < EMU_MODIFY_CQ_CQC_OFF + MLX5_ST_SZ_BYTES(cqc))
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_INP_LEN_ERR,
				    MLX5_EMU_SYND_INLEN);
	if ((rte_be_to_cpu_32(((const rte_be32_t *)in)[2]) & EMU_CQN_MASK) !=
	    cq->cqn) {
		EMU_LOG(ERR, "%s: MODIFY_CQ of cqn 0x%x on CQ object 0x%x",
			dev->name, rte_be_to_cpu_32(((const rte_be32_t *)
						    in)[2]) & EMU_CQN_MASK,
			cq->cqn);
		return emu_ret_errno(EINVAL);
	}
	if (EMU_GET(create_cq_in, in, op_mod) == EMU_CQ_OPMOD_RESIZE)
		return emu_devx_cq_resize(cq, in, inlen, out, outlen);
	sel = rte_be_to_cpu_32(((const rte_be32_t *)in)[3]);
	if (EMU_GET(create_cq_in, in, op_mod) != 0 ||
	    (sel & ~(EMU_CQ_MODIFY_PERIOD | EMU_CQ_MODIFY_COUNT |
		     EMU_CQ_MODIFY_OVERRUN)) != 0) {
		EMU_LOG(ERR, "%s: MODIFY_CQ: op_mod %u / field_select 0x%x "
			"not supported (moderation and oi only)", dev->name,
			EMU_GET(create_cq_in, in, op_mod), sel);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_BAD_OP_MOD);
	}
	if (outlen < 16)
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_OUTP_LEN_ERR,
				    MLX5_EMU_SYND_OUTLEN);
	/* Moderation needs HCA_CAP.cq_moderation, as at creation. */
	if ((sel & (EMU_CQ_MODIFY_PERIOD | EMU_CQ_MODIFY_COUNT)) &&
	    !dev->caps.cq_moderation) {
		EMU_LOG(ERR, "%s: MODIFY_CQ: moderation without cq_moderation",
			dev->name);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_CQ_MODER_CAP);
	}
	pthread_mutex_lock(&cq->lock);
	if (sel & EMU_CQ_MODIFY_PERIOD)
		cq->cq_period = CQC_GET(cq_period);
	if (sel & EMU_CQ_MODIFY_COUNT)
		cq->cq_max_count = CQC_GET(cq_max_count);
	if (sel & EMU_CQ_MODIFY_OVERRUN)
		cq->oi = CQC_GET(oi);
	pthread_mutex_unlock(&cq->lock);
	emu_cmd_ok(out, outlen);
	EMU_LOG(DEBUG, "%s: CQ 0x%x: moderation %u us / %u CQEs, oi %u",
		dev->name, cq->cqn, cq->cq_period, cq->cq_max_count, cq->oi);
	return 0;
}

/* Consumer counter the software last wrote (doorbell record word 0). */
static uint32_t
emu_cq_consumer_counter(const struct emu_cq *cq)
{
	return rte_be_to_cpu_32(cq->dbrec[0]) & EMU_CQN_MASK;
}

/* The CQ context as the firmware holds it. */
static void
emu_cq_fill_cqc(const struct emu_cq *cq, void *cqc)
{
	MLX5_SET(cqc, cqc, status, cq->status);
	MLX5_SET(cqc, cqc, dbr_umem_valid, cq->dbr_umem != NULL);
	MLX5_SET(cqc, cqc, cqe_sz, cq->cqe_sz);
	MLX5_SET(cqc, cqc, cc, cq->cc);
	MLX5_SET(cqc, cqc, oi, cq->oi);
	MLX5_SET(cqc, cqc, scqe_break_moderation_en, cq->scqe_break);
	MLX5_SET(cqc, cqc, cq_period_mode, cq->cq_period_mode);
	MLX5_SET(cqc, cqc, cqe_comp_en, cq->cqe_comp_en);
	if (cq->mini_cqe_res_format == MLX5_CQE_RESP_FORMAT_L34H_STRIDX) {
		MLX5_SET(cqc, cqc, mini_cqe_res_format, 0);
		MLX5_SET(cqc, cqc, mini_cqe_res_format_ext, 1);
	} else {
		MLX5_SET(cqc, cqc, mini_cqe_res_format,
			 cq->mini_cqe_res_format);
	}
	MLX5_SET(cqc, cqc, cqe_comp_layout, cq->cqe_comp_layout);
	if (cq->dbr_umem != NULL)
		MLX5_SET(cqc, cqc, dbr_umem_id, cq->dbr_umem->pub.umem_id);
	MLX5_SET(cqc, cqc, log_cq_size, cq->log_cq_size);
	MLX5_SET(cqc, cqc, uar_page, cq->uar_page);
	MLX5_SET(cqc, cqc, cq_period, cq->cq_period);
	MLX5_SET(cqc, cqc, cq_max_count, cq->cq_max_count);
	MLX5_SET(cqc, cqc, c_eqn, cq->eqn);
	MLX5_SET(cqc, cqc, log_page_size, cq->log_page_size);
	MLX5_SET(cqc, cqc, consumer_counter, emu_cq_consumer_counter(cq));
	MLX5_SET(cqc, cqc, producer_counter, cq->pi & EMU_CQN_MASK);
	/* MLX5_SET64 needs mlx5_common.h's MLX5_ASSERT: store it directly. */
	*(rte_be64_t *)MLX5_ADDR_OF(cqc, cqc, dbr_addr) =
		rte_cpu_to_be_64(cq->dbr_offset);
}

int
emu_devx_cq_query(struct emu_cq *cq, const void *in, size_t inlen,
		  void *out, size_t outlen)
{
	struct emu_dev *dev = cq->dev;

	if (inlen < MLX5_ST_SZ_BYTES(emu_query_cq_in))
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_INP_LEN_ERR,
				    MLX5_EMU_SYND_INLEN);
	/* The kernel checks the command names this object (EINVAL). */
	if (EMU_GET(emu_query_cq_in, in, cqn) != cq->cqn) {
		EMU_LOG(ERR, "%s: QUERY_CQ of cqn 0x%x on CQ object 0x%x",
			dev->name, EMU_GET(emu_query_cq_in, in, cqn), cq->cqn);
		return emu_ret_errno(EINVAL);
	}
	if (EMU_GET(emu_query_cq_in, in, op_mod) != 0 ||
	    EMU_GET(emu_query_cq_in, in, reserved_at_40) != 0 ||
	    EMU_GET(emu_query_cq_in, in, reserved_at_60) != 0)
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_HDR_RESERVED);
	if (outlen < MLX5_ST_SZ_BYTES(emu_query_cq_out))
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_OUTP_LEN_ERR,
				    MLX5_EMU_SYND_OUTLEN);
	emu_cmd_ok(out, outlen);
	pthread_mutex_lock(&cq->lock);
	emu_cq_fill_cqc(cq, MLX5_ADDR_OF(emu_query_cq_out, out, cq_context));
	pthread_mutex_unlock(&cq->lock);
	return 0;
}

int
mlx5_emu_cq_query(struct ibv_context *ctx, uint32_t cqn,
		  struct mlx5_emu_cq_info *info)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);
	struct emu_cq *cq;

	if (dev == NULL || info == NULL)
		return -EINVAL;
	pthread_mutex_lock(&dev->lock);
	cq = emu_cq_lookup(dev, cqn);
	if (cq == NULL) {
		pthread_mutex_unlock(&dev->lock);
		return -ENOENT;
	}
	memset(info, 0, sizeof(*info));
	pthread_mutex_lock(&cq->lock);
	info->cqn = cq->cqn;
	info->verbs = cq->verbs;
	info->log_cq_size = cq->log_cq_size;
	info->cqe_sz = cq->cqe_sz;
	info->cqe_comp_en = cq->cqe_comp_en;
	info->mini_cqe_res_format = cq->mini_cqe_res_format;
	info->cqe_comp_layout = cq->cqe_comp_layout;
	info->oi = cq->oi;
	info->cc = cq->cc;
	info->scqe_break_moderation_en = cq->scqe_break;
	info->log_page_size = cq->log_page_size;
	info->uar_page = cq->uar_page;
	info->eqn = cq->eqn;
	info->cq_umem_id = cq->ring_umem ? cq->ring_umem->pub.umem_id : 0;
	info->cq_umem_offset = cq->ring_umem_offset;
	info->dbr_umem_id = cq->dbr_umem ? cq->dbr_umem->pub.umem_id : 0;
	info->dbr_offset = cq->dbr_offset;
	info->ring = cq->ring;
	info->dbrec = cq->dbrec;
	info->pi = cq->pi;
	info->status = cq->status;
	pthread_mutex_unlock(&cq->lock);
	pthread_mutex_unlock(&dev->lock);
	return 0;
}
