/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_CQE_IMAGE_H_
#define TEST_CQE_IMAGE_H_

/*
 * Byte images of 64 B CQEs written by hand from the PRM layout, for tests
 * and benchmarks that must not rely on the code under test. Offsets are
 * those of struct mlx5_cqe (drivers/common/mlx5/mlx5_prm.h) and struct
 * mlx5_cqe64 / struct mlx5_err_cqe (infiniband/mlx5dv.h); every multi-byte
 * field is big endian and written byte by byte.
 */

#include <stdint.h>
#include <string.h>

/* Field offsets in the 64 B CQE (PRM). */
#define IMG_RX_HASH_RES 12	/* __be32 rx_hash_res */
#define IMG_RX_HASH_TYPE 16	/* u8 rx_hash_type */
#define IMG_CSUM 20		/* __be16 csum */
#define IMG_HDR_TYPE_ETC 28	/* __be16 hdr_type_etc */
#define IMG_VLAN_INFO 30	/* __be16 vlan_info */
#define IMG_METADATA 36		/* __be32 flow_table_metadata */
#define IMG_BYTE_CNT 44		/* __be32 byte_cnt */
#define IMG_TIMESTAMP 48	/* __be64 timestamp */
#define IMG_VENDOR_SYND 54	/* u8 vendor_err_synd (error CQE) */
#define IMG_SYNDROME 55		/* u8 syndrome (error CQE) */
#define IMG_SOP_DROP_QPN 56	/* __be32 sop_drop_qpn / s_wqe_opcode_qpn */
#define IMG_WQE_COUNTER 60	/* __be16 wqe_counter */
#define IMG_SIGNATURE 62	/* u8 signature / reserved */
#define IMG_OP_OWN 63		/* opcode 7:4, format 3:2, se 1, owner 0 */

/* Byte that fills every field the PRM leaves reserved in the images. */
#define IMG_FILL 0xee

/* What a hand-written CQE holds (host order). */
struct img_cqe {
	uint8_t opcode;
	uint8_t format; /* op_own bits 3:2 (3 = compressed). */
	uint8_t se; /* Solicited event bit. */
	uint8_t rx_hash_type;
	uint32_t rx_hash_res;
	uint16_t csum;
	uint16_t hdr_type_etc;
	uint16_t vlan_info;
	uint32_t metadata;
	uint32_t byte_cnt;
	uint64_t timestamp;
	uint32_t sop_drop_qpn; /* Full word: s_wqe_opcode << 24 | QPN/tag. */
	uint16_t wqe_counter;
	uint8_t syndrome; /* Error CQEs. */
	uint8_t vendor_syndrome; /* Error CQEs. */
};

static inline void
img_be16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static inline void
img_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static inline void
img_be64(uint8_t *p, uint64_t v)
{
	img_be32(p, v >> 32);
	img_be32(p + 4, v);
}

static inline int
img_is_error(uint8_t opcode)
{
	return opcode == 13 || opcode == 14; /* REQ_ERR, RESP_ERR */
}

/*
 * Write the payload (bytes 0..62) of a 64 B CQE; op_own is written
 * separately by img_cqe_own(), last, as the device does.
 */
static inline void
img_cqe_payload(uint8_t *cqe, const struct img_cqe *d)
{
	memset(cqe, IMG_FILL, 63);
	if (img_is_error(d->opcode)) {
		/* struct mlx5_err_cqe: only these fields are defined. */
		cqe[IMG_VENDOR_SYND] = d->vendor_syndrome;
		cqe[IMG_SYNDROME] = d->syndrome;
	} else {
		img_be32(cqe + IMG_RX_HASH_RES, d->rx_hash_res);
		cqe[IMG_RX_HASH_TYPE] = d->rx_hash_type;
		img_be16(cqe + IMG_CSUM, d->csum);
		img_be16(cqe + IMG_HDR_TYPE_ETC, d->hdr_type_etc);
		img_be16(cqe + IMG_VLAN_INFO, d->vlan_info);
		img_be32(cqe + IMG_METADATA, d->metadata);
		img_be32(cqe + IMG_BYTE_CNT, d->byte_cnt);
		img_be64(cqe + IMG_TIMESTAMP, d->timestamp);
	}
	img_be32(cqe + IMG_SOP_DROP_QPN, d->sop_drop_qpn);
	img_be16(cqe + IMG_WQE_COUNTER, d->wqe_counter);
}

/* The op_own byte of a CQE for a given owner bit. */
static inline uint8_t
img_op_own(const struct img_cqe *d, unsigned int owner)
{
	return (uint8_t)(d->opcode << 4 | (d->format & 3) << 2 |
			 (d->se & 1) << 1 | (owner & 1));
}

#endif /* TEST_CQE_IMAGE_H_ */
