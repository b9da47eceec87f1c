/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Writes the seed corpus of the fuzz targets (app/fuzz/corpus/<target>/)
 * from the PRM layouts: CQEs and mini-CQEs as struct mlx5_cqe and struct
 * mlx5_mini_cqe8 of mlx5_prm.h, mailboxes with MLX5_SET() on the
 * mlx5_ifc_*_bits layouts (QUERY_CQ and MODIFY_CQ, absent from DPDK's
 * mlx5_prm.h, at the offsets of the kernel's mlx5_ifc.h).
 *
 *   fuzz-seed-gen CORPUS_DIR
 */

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_debug.h>
/* MLX5_SET() asserts field sizes with this (mlx5_common.h, not needed). */
#ifndef MLX5_ASSERT
#define MLX5_ASSERT(exp) RTE_ASSERT(exp)
#endif
#include <mlx5_prm.h>

#include "fuzz_emu_cmd_input.h"
#include "fuzz_poll_input.h"

static const char *top;

static void
write_seed(const char *target, const char *name, const void *d, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", top, target);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s/%s", top, target, name);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(d, 1, len, f) != len || fclose(f) != 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		exit(1);
	}
}

/* ---- ring images ---- */

struct ring {
	uint8_t img[256 * 128] __rte_aligned(64);
	uint8_t d[FUZZ_POLL_HDR_LEN + 16 + 256 * 128];
	size_t len;
	uint32_t entries;
	unsigned int stride;
	unsigned int log_n;
};

static void
ring_init(struct ring *r, unsigned int log_n, unsigned int stride,
	  unsigned int fmt_plus1, int enhanced, uint32_t ci0,
	  const uint8_t *bursts, unsigned int nb)
{
	uint32_t i;

	memset(r, 0, sizeof(*r));
	r->log_n = log_n;
	r->entries = 1u << log_n;
	r->stride = stride;
	r->d[0] = (uint8_t)(log_n - 1);
	r->d[1] = (uint8_t)((stride == 128) | fmt_plus1 << 1 |
			    (enhanced ? 0x10 : 0));
	r->d[2] = ci0;
	r->d[3] = ci0 >> 8;
	r->d[4] = ci0 >> 16;
	r->d[5] = ci0 >> 24;
	r->d[6] = (uint8_t)(nb - 1);
	memcpy(r->d + FUZZ_POLL_HDR_LEN, bursts, nb);
	r->len = FUZZ_POLL_HDR_LEN + nb;
	/* Every entry invalid (INVALID opcode, owner 1, vic 0xff). */
	memset(r->img, 0xff, (size_t)r->entries * stride);
	for (i = 0; i < r->entries; i++)
		memset(r->img + (size_t)i * stride + stride - 64, 0, 62);
}

/* Write the seed: header, bursts, then the image. */
static void
ring_write(struct ring *r, const char *name)
{
	size_t img = (size_t)r->entries * r->stride;

	memcpy(r->d + r->len, r->img, img);
	write_seed("poll", name, r->d, r->len + img);
}

static struct mlx5_cqe *
ring_cqe(struct ring *r, uint32_t idx)
{
	return (struct mlx5_cqe *)(r->img + (size_t)(idx & (r->entries - 1)) *
				   r->stride + r->stride - 64);
}

static uint8_t
owner(const struct ring *r, uint32_t idx)
{
	return (idx >> r->log_n) & 1;
}

/* A regular CQE of opcode op at consumer index idx. */
static void
put_cqe(struct ring *r, uint32_t idx, uint8_t op, uint32_t byte_cnt,
	uint16_t wqe_counter)
{
	struct mlx5_cqe *c = ring_cqe(r, idx);

	memset(c, 0, sizeof(*c));
	c->rx_hash_res = rte_cpu_to_be_32(0x1000 + idx);
	c->rx_hash_type = 0x22;
	c->csum = rte_cpu_to_be_16(0xbeef);
	c->hdr_type_etc = rte_cpu_to_be_16(0x0718); /* IPv4 TCP, L3/L4 OK */
	c->flow_table_metadata = rte_cpu_to_be_32(7);
	c->byte_cnt = rte_cpu_to_be_32(byte_cnt);
	c->timestamp = rte_cpu_to_be_64(1000 + idx);
	c->sop_drop_qpn = rte_cpu_to_be_32(0x123);
	c->wqe_counter = rte_cpu_to_be_16(wqe_counter);
	/* Validity iteration count: the byte before op_own (rsvd5 in
	 * DPDK 22.11's mlx5_prm.h, validity_iteration_count from 23.03).
	 */
	((uint8_t *)c)[offsetof(struct mlx5_cqe, op_own) - 1] =
		(uint8_t)(idx >> r->log_n);
	c->op_own = (uint8_t)(op << 4 | owner(r, idx));
}

/* An error CQE (REQ_ERR 0xd or RESP_ERR 0xe) with a syndrome. */
static void
put_err(struct ring *r, uint32_t idx, uint8_t op, uint8_t syndrome)
{
	struct mlx5_err_cqe *e = (struct mlx5_err_cqe *)ring_cqe(r, idx);

	put_cqe(r, idx, op, 0, (uint16_t)idx);
	e->syndrome = syndrome;
	e->vendor_err_synd = 0x42;
}

static void
mini(uint8_t *dst, uint32_t fourth, uint32_t byte_cnt)
{
	struct mlx5_mini_cqe8 m;

	m.rx_hash_result = rte_cpu_to_be_32(fourth);
	m.byte_cnt = rte_cpu_to_be_32(byte_cnt);
	memcpy(dst, &m, sizeof(m));
}

/*
 * Basic layout session at idx: title (format 3, byte_cnt = count) and the
 * mini-CQE arrays in entries idx + 1, idx + 8, idx + 16, ...
 */
static void
put_session(struct ring *r, uint32_t idx, uint32_t count)
{
	struct mlx5_cqe *t;
	uint32_t j;

	for (j = 0; j < count; j++) {
		uint32_t a = j < 8 ? idx + 1 : idx + 8 * (j / 8);

		mini((uint8_t *)ring_cqe(r, a) + 8 * (j % 8),
		     0x00050000 | j, 100 + j);
	}
	put_cqe(r, idx, 2, count, (uint16_t)idx);
	t = ring_cqe(r, idx);
	t->op_own |= 3 << 2;
}

/* Enhanced layout: a compressed CQE of count (1..7) mini-CQEs at idx. */
static void
put_enh(struct ring *r, uint32_t idx, uint32_t count)
{
	uint8_t *e = (uint8_t *)ring_cqe(r, idx);
	uint32_t j;

	memset(e, 0, 62);
	for (j = 0; j < count; j++)
		mini(e + 8 * j, 0x00060000 | j, 200 + j);
	e[62] = (uint8_t)(idx >> r->log_n);
	e[63] = (uint8_t)((count - 1) << 4 | 3 << 2 | owner(r, idx));
}

static void
poll_seeds(void)
{
	static const uint8_t b_mix[] = { 4, 1, 7, 0, 32 };
	static const uint8_t b_one[] = { 1 };
	static const uint8_t b_big[] = { 255 };
	struct ring r;
	unsigned int f;
	char name[64];
	uint32_t i;

	/* Plain responder CQEs, 64 B, then an invalid entry. */
	ring_init(&r, 4, 64, 0, 0, 0, b_mix, RTE_DIM(b_mix));
	for (i = 0; i < 10; i++)
		put_cqe(&r, i, 2, 60 + i, (uint16_t)i);
	ring_write(&r, "plain-64");

	/* A full pass that wraps: ci0 19 of 16 entries (pass 1). */
	ring_init(&r, 4, 64, 0, 0, 19, b_one, RTE_DIM(b_one));
	for (i = 19; i < 19 + 16; i++)
		put_cqe(&r, i, 0, 0, (uint16_t)i);
	ring_write(&r, "wrap-64");

	/* 128 B stride: requester, error CQEs of both kinds. */
	ring_init(&r, 3, 128, 0, 0, 0, b_mix, RTE_DIM(b_mix));
	put_cqe(&r, 0, 0, 0, 0);
	put_err(&r, 1, 0xd, 0x05);
	put_cqe(&r, 2, 2, 128, 2);
	put_err(&r, 3, 0xe, 0x04);
	put_err(&r, 4, 0xd, 0x99);
	ring_write(&r, "err-128");

	/* Every mini-CQE format, basic layout: a session of 12, an error. */
	for (f = 1; f <= 5; f++) {
		ring_init(&r, 5, f & 1 ? 64 : 128, f, 0, 0, b_mix,
			  RTE_DIM(b_mix));
		put_cqe(&r, 0, 2, 64, 0);
		put_session(&r, 1, 12);
		put_err(&r, 13, 0xe, 0x10);
		put_cqe(&r, 14, 2, 65, 14);
		snprintf(name, sizeof(name), "session-fmt%u", f - 1);
		ring_write(&r, name);
	}

	/* A session across the end of the ring (ci0 13 of 16). */
	ring_init(&r, 4, 64, 1, 0, 13, b_big, RTE_DIM(b_big));
	put_session(&r, 13, 8);
	ring_write(&r, "session-wrap");

	/*
	 * Sessions of 4 and 8, then a compressed CQE of the consumer's pass
	 * with opcode INVALID (not written yet) and a count of 7: every
	 * consumer stops before it (a vector poll once decoded it).
	 */
	for (f = 0; f < 2; f++) {
		struct mlx5_cqe *c;

		ring_init(&r, 5, f ? 128 : 64, 1, 0, 0, b_big,
			  RTE_DIM(b_big));
		put_session(&r, 0, 4);
		put_session(&r, 4, 8);
		put_session(&r, 12, 7);
		c = ring_cqe(&r, 12);
		c->op_own = (uint8_t)(MLX5_CQE_INVALID << 4 |
				      MLX5_COMPRESSED << 2 | owner(&r, 12));
		snprintf(name, sizeof(name), "invalid-after-session-%u",
			 f ? 128 : 64);
		ring_write(&r, name);
	}

	/* Enhanced layout, HASH and CSUM: title, compressed CQEs. */
	for (f = 1; f <= 2; f++) {
		ring_init(&r, 4, 64, f, 1, 0, b_mix, RTE_DIM(b_mix));
		put_cqe(&r, 0, 2, 64, 0);
		put_enh(&r, 1, 7);
		put_enh(&r, 2, 3);
		put_cqe(&r, 3, 2, 66, 3);
		put_enh(&r, 4, 1);
		snprintf(name, sizeof(name), "enhanced-fmt%u", f - 1);
		ring_write(&r, name);
	}
}

/* ---- mailboxes ---- */

struct cmds {
	uint8_t d[16384];
	size_t len;
};

static void
be32_put(void *p, uint32_t v)
{
	rte_be32_t b = rte_cpu_to_be_32(v);

	memcpy(p, &b, 4);
}

/* Append one command: op, object, input mailbox, output length. */
static void
cmd_add(struct cmds *c, uint8_t op, uint8_t obj, const void *in,
	size_t inlen, size_t outlen)
{
	uint8_t *h = c->d + c->len;

	h[0] = op | FUZZ_EMU_RESOLVE;
	h[1] = obj;
	h[2] = inlen & 0xff;
	h[3] = inlen >> 8;
	h[4] = outlen & 0xff;
	h[5] = outlen >> 8;
	memcpy(h + FUZZ_EMU_CMD_HDR_LEN, in, inlen);
	c->len += FUZZ_EMU_CMD_HDR_LEN + inlen;
}

static size_t
mb_create_cq(uint32_t *in, unsigned int cqe_sz, int comp, unsigned int fmt,
	     unsigned int layout)
{
	void *cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);

	memset(in, 0, MLX5_ST_SZ_BYTES(create_cq_in));
	MLX5_SET(create_cq_in, in, opcode, MLX5_CMD_OP_CREATE_CQ);
	MLX5_SET(cqc, cqc, log_cq_size, 6);
	MLX5_SET(cqc, cqc, cqe_sz, cqe_sz);
	MLX5_SET(cqc, cqc, cqe_comp_en, comp);
	MLX5_SET(cqc, cqc, mini_cqe_res_format, fmt);
	MLX5_SET(cqc, cqc, cqe_comp_layout, layout);
	MLX5_SET(cqc, cqc, dbr_umem_valid, 1);
	MLX5_SET(cqc, cqc, dbr_umem_id, FUZZ_EMU_PH(FUZZ_EMU_PH_UMEM));
	MLX5_SET64(cqc, cqc, dbr_addr, FUZZ_EMU_CQ_DBR_OFF);
	MLX5_SET(create_cq_in, in, cq_umem_valid, 1);
	MLX5_SET(create_cq_in, in, cq_umem_id, FUZZ_EMU_PH(FUZZ_EMU_PH_UMEM));
	MLX5_SET64(create_cq_in, in, cq_umem_offset, FUZZ_EMU_CQ_RING_OFF);
	return MLX5_ST_SZ_BYTES(create_cq_in);
}

/*
 * A placeholder for a field in the low bits of its dword (every id field
 * of the PRM is): the whole dword is the placeholder, the resolved value
 * (below 2^24) leaves the bits above the field zero.
 */
static void
ph24(void *mbox, size_t dword_byte_off, uint32_t k)
{
	be32_put((uint8_t *)mbox + dword_byte_off, FUZZ_EMU_PH(k));
}

#define DW(typ, fld) ((size_t)(__mlx5_bit_off(typ, fld) / 32) * 4)

static void
create_cq_fix(uint32_t *in)
{
	size_t cqc = MLX5_BYTE_OFF(create_cq_in, cq_context);

	ph24(in, cqc + DW(cqc, uar_page), FUZZ_EMU_PH_UAR);
	ph24(in, cqc + DW(cqc, c_eqn), FUZZ_EMU_PH_EQN);
}

/* QUERY_CQ (0x402): opcode, op_mod, cqn in dword 2 (kernel mlx5_ifc.h). */
static size_t
mb_query_cq(uint32_t *in, uint32_t obj)
{
	memset(in, 0, 16);
	be32_put(in, 0x402u << 16);
	ph24(in, 8, FUZZ_EMU_PH_OBJ + obj);
	return 16;
}

/* MODIFY_CQ (0x403): cqn dword 2, field select dword 3, cqc at 16. */
static size_t
mb_modify_cq(uint32_t *in, uint32_t obj)
{
	void *cqc = (uint8_t *)in + 16;

	memset(in, 0, 16 + MLX5_ST_SZ_BYTES(cqc));
	be32_put(in, 0x403u << 16);
	ph24(in, 8, FUZZ_EMU_PH_OBJ + obj);
	be32_put((uint8_t *)in + 12, 0x3); /* period | count */
	MLX5_SET(cqc, cqc, cq_period, 16);
	MLX5_SET(cqc, cqc, cq_max_count, 8);
	return 16 + MLX5_ST_SZ_BYTES(cqc);
}

static size_t
mb_query_hca_cap(uint32_t *in, unsigned int op_mod)
{
	memset(in, 0, MLX5_ST_SZ_BYTES(query_hca_cap_in));
	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod, op_mod);
	return MLX5_ST_SZ_BYTES(query_hca_cap_in);
}

static void
wq_fill(void *wq, uint64_t ring_off, uint64_t dbr_off, unsigned int stride)
{
	MLX5_SET(wq, wq, wq_type, MLX5_WQ_TYPE_CYCLIC);
	MLX5_SET(wq, wq, log_wq_stride, stride);
	MLX5_SET(wq, wq, log_wq_sz, 6);
	MLX5_SET(wq, wq, wq_umem_valid, 1);
	MLX5_SET(wq, wq, wq_umem_id, FUZZ_EMU_PH(FUZZ_EMU_PH_UMEM));
	MLX5_SET64(wq, wq, wq_umem_offset, ring_off);
	MLX5_SET(wq, wq, dbr_umem_valid, 1);
	MLX5_SET(wq, wq, dbr_umem_id, FUZZ_EMU_PH(FUZZ_EMU_PH_UMEM));
	MLX5_SET64(wq, wq, dbr_addr, dbr_off);
}

static size_t
mb_create_rq(uint32_t *in, uint32_t cq_obj)
{
	void *rqc = MLX5_ADDR_OF(create_rq_in, in, ctx);
	void *wq = MLX5_ADDR_OF(rqc, rqc, wq);

	memset(in, 0, MLX5_ST_SZ_BYTES(create_rq_in));
	MLX5_SET(create_rq_in, in, opcode, MLX5_CMD_OP_CREATE_RQ);
	MLX5_SET(rqc, rqc, mem_rq_type, MLX5_RQC_MEM_RQ_TYPE_MEMORY_RQ_INLINE);
	MLX5_SET(rqc, rqc, vsd, 1);
	wq_fill(wq, FUZZ_EMU_RQ_RING_OFF, FUZZ_EMU_RQ_DBR_OFF, 4);
	ph24(in, MLX5_BYTE_OFF(create_rq_in, ctx) +
	     DW(rqc, cqn), FUZZ_EMU_PH_OBJ + cq_obj);
	ph24(in, MLX5_BYTE_OFF(create_rq_in, ctx) +
	     MLX5_BYTE_OFF(rqc, wq) + DW(wq, pd),
	     FUZZ_EMU_PH_PD);
	return MLX5_ST_SZ_BYTES(create_rq_in);
}

static size_t
mb_create_sq(uint32_t *in, uint32_t cq_obj, uint32_t tis_obj)
{
	void *sqc = MLX5_ADDR_OF(create_sq_in, in, ctx);
	void *wq = MLX5_ADDR_OF(sqc, sqc, wq);

	memset(in, 0, MLX5_ST_SZ_BYTES(create_sq_in));
	MLX5_SET(create_sq_in, in, opcode, MLX5_CMD_OP_CREATE_SQ);
	MLX5_SET(sqc, sqc, tis_lst_sz, 1);
	wq_fill(wq, FUZZ_EMU_SQ_RING_OFF, FUZZ_EMU_SQ_DBR_OFF, 6);
	ph24(in, MLX5_BYTE_OFF(create_sq_in, ctx) +
	     DW(sqc, cqn), FUZZ_EMU_PH_OBJ + cq_obj);
	ph24(in, MLX5_BYTE_OFF(create_sq_in, ctx) +
	     DW(sqc, tis_num_0), FUZZ_EMU_PH_OBJ + tis_obj);
	ph24(in, MLX5_BYTE_OFF(create_sq_in, ctx) +
	     MLX5_BYTE_OFF(sqc, wq) + DW(wq, pd),
	     FUZZ_EMU_PH_PD);
	ph24(in, MLX5_BYTE_OFF(create_sq_in, ctx) +
	     MLX5_BYTE_OFF(sqc, wq) + DW(wq, uar_page),
	     FUZZ_EMU_PH_UAR);
	return MLX5_ST_SZ_BYTES(create_sq_in);
}

static void
emu_cmd_seeds(void)
{
	uint32_t in[1024];
	struct cmds c;
	size_t n;
	unsigned int f;
	char name[64];

	/* QUERY_HCA_CAP: general device caps (current), and a bad op_mod. */
	memset(&c, 0, sizeof(c));
	n = mb_query_hca_cap(in, 1);
	cmd_add(&c, FUZZ_EMU_OP_GENERAL, 0, in, n,
		MLX5_ST_SZ_BYTES(query_hca_cap_out));
	n = mb_query_hca_cap(in, 0x7f << 1);
	cmd_add(&c, FUZZ_EMU_OP_GENERAL, 0, in, n,
		MLX5_ST_SZ_BYTES(query_hca_cap_out));
	write_seed("emu_cmd", "query-hca-cap", c.d, c.len);

	/* CREATE_CQ in each size and format; QUERY, MODIFY, DESTROY. */
	for (f = 0; f < 6; f++) {
		memset(&c, 0, sizeof(c));
		n = mb_create_cq(in, f & 1, f > 1, f > 1 ? f - 2 : 0,
				 f == 2);
		create_cq_fix(in);
		cmd_add(&c, FUZZ_EMU_OP_CREATE, 0, in, n,
			MLX5_ST_SZ_BYTES(create_cq_out));
		n = mb_query_cq(in, 0);
		cmd_add(&c, FUZZ_EMU_OP_QUERY, 0, in, n, 16 + 64 + 256);
		n = mb_modify_cq(in, 0);
		cmd_add(&c, FUZZ_EMU_OP_MODIFY, 0, in, n, 16);
		/* DESTROY_CQ as a general command: not one (BAD_OP). */
		be32_put(in, 0x401u << 16);
		ph24(in, 8, FUZZ_EMU_PH_OBJ);
		cmd_add(&c, FUZZ_EMU_OP_GENERAL, 0, in, 16, 16);
		cmd_add(&c, FUZZ_EMU_OP_DESTROY, 0, in, 0, 0);
		snprintf(name, sizeof(name), "cq-%u", f);
		write_seed("emu_cmd", name, c.d, c.len);
	}

	/* The network objects: CQ, TD, TIS, RQ, SQ; vport commands. */
	memset(&c, 0, sizeof(c));
	n = mb_create_cq(in, 0, 0, 0, 0);
	create_cq_fix(in);
	cmd_add(&c, FUZZ_EMU_OP_CREATE, 0, in, n,
		MLX5_ST_SZ_BYTES(create_cq_out));
	memset(in, 0, 16);
	MLX5_SET(alloc_transport_domain_in, in, opcode,
		 MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN);
	cmd_add(&c, FUZZ_EMU_OP_CREATE, 0, in,
		MLX5_ST_SZ_BYTES(alloc_transport_domain_in),
		MLX5_ST_SZ_BYTES(alloc_transport_domain_out));
	memset(in, 0, MLX5_ST_SZ_BYTES(create_tis_in));
	MLX5_SET(create_tis_in, in, opcode, MLX5_CMD_OP_CREATE_TIS);
	ph24(in, MLX5_BYTE_OFF(create_tis_in, ctx) +
	     DW(tisc, transport_domain), FUZZ_EMU_PH_OBJ + 1);
	cmd_add(&c, FUZZ_EMU_OP_CREATE, 0, in,
		MLX5_ST_SZ_BYTES(create_tis_in),
		MLX5_ST_SZ_BYTES(create_tis_out));
	n = mb_create_rq(in, 0);
	cmd_add(&c, FUZZ_EMU_OP_CREATE, 0, in, n,
		MLX5_ST_SZ_BYTES(create_rq_out));
	n = mb_create_sq(in, 0, 2);
	cmd_add(&c, FUZZ_EMU_OP_CREATE, 0, in, n,
		MLX5_ST_SZ_BYTES(create_sq_out));
	/* Destroy of the CQ while the RQ and SQ use it: EBUSY. */
	cmd_add(&c, FUZZ_EMU_OP_DESTROY, 0, in, 0, 0);
	memset(in, 0, 16);
	be32_put(in, 0x750u << 16); /* QUERY_VPORT_STATE */
	cmd_add(&c, FUZZ_EMU_OP_GENERAL, 0, in, 16, 16);
	memset(in, 0, MLX5_ST_SZ_BYTES(query_nic_vport_context_in));
	MLX5_SET(query_nic_vport_context_in, in, opcode,
		 MLX5_CMD_OP_QUERY_NIC_VPORT_CONTEXT);
	cmd_add(&c, FUZZ_EMU_OP_GENERAL, 0, in,
		MLX5_ST_SZ_BYTES(query_nic_vport_context_in),
		MLX5_ST_SZ_BYTES(query_nic_vport_context_out));
	write_seed("emu_cmd", "net-objects", c.d, c.len);
}

int
main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 2;
	}
	top = argv[1];
	mkdir(top, 0755);
	poll_seeds();
	emu_cmd_seeds();
	return 0;
}
