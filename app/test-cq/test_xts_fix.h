/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_XTS_FIX_H_
#define TEST_XTS_FIX_H_

/*
 * A crypto QP on the emulated HCA for the emu_crypto suites and the
 * bench-xts mode: plaintext-key (or wrapped-key) device, PD, UAR, CQ
 * (rte_common_mlx5's mlx5_devx_cq_create()), a loopback RC QP and an
 * indirect crypto mkey made with hand-built mailboxes, one registered
 * buffer; UMR and RDMA-write WQEs built byte by byte from the PRM
 * layouts.
 */

#include <stdint.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>
#include <mlx5_common_devx.h>

/* rte_common_mlx5's struct mlx5_devx_obj and struct mlx5_klm
 * (mlx5_common.h, not includable here: see test_emu_fixture.h).
 */
struct mlx5_devx_obj {
	void *obj;
	int id;
};

struct mlx5_klm {
	uint32_t byte_count;
	uint32_t mkey;
	uint64_t address;
};

#define LOG_SQ 8 /* 256 WQEBBs. */
#define LOG_CQ 6
#define WQEBB 64
#define BUF_LEN 65536
#define OP_UMR 0x25
#define OP_RDMA_WRITE 0x08
#define CE_ALWAYS (2u << 2) /* fm_ce_se: CQE on success. */
#define ORDER_RAW_WIRE 2 /* Decrypt into memory. */
#define ORDER_RAW_MEMORY 3 /* Encrypt into memory. */
#define BSP_512 1
#define KEYTAG 0x0123456789abcdefull

struct xfix {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	uint32_t pdn;
	struct mlx5dv_devx_uar *uar;
	struct mlx5_devx_cq cq;
	uint32_t ci;
	uint8_t *ring; /* SQ ring, then the doorbell record. */
	struct mlx5dv_devx_umem *umem;
	struct mlx5dv_devx_obj *qp;
	uint32_t qpn;
	volatile uint32_t *dbr;
	uint16_t pi;
	struct mlx5dv_devx_obj *mkey;
	uint32_t mkey_key;
	uint8_t *buf;
	struct ibv_mr *mr;
};

struct seg {
	uint32_t len;
	uint32_t key;
	uint8_t *addr;
};

/* The crypto parameters of one message. */
struct bsf_p {
	uint8_t order;
	uint8_t bsp;
	uint32_t raw;
	uint8_t tweak[16];
	uint32_t dek;
	uint64_t keytag;
};

/* create_mkey_in with 4 KLMs. */
#define MKEY_IN_LEN (MLX5_ST_SZ_BYTES(create_mkey_in) + 4 * 16)

uint8_t *wqe_at(struct xfix *f, uint16_t pi);
/* The fixture's CREATE_QP mailbox (create_qp_in bytes) and CREATE_MKEY
 * mailbox (MKEY_IN_LEN bytes).
 */
void qp_in_fill(const struct xfix *f, uint32_t *in);
void mkey_in_fill(const struct xfix *f, uint32_t *in);
void put64(uint8_t *p, uint64_t v);
int qp_cmd(struct xfix *f, uint16_t opcode);
/* RST -> INIT -> RTR -> RTS, software counter and doorbell at 0. */
int qp_to_rts(struct xfix *f);
/* A PD and its number. */
int pd_open(struct ibv_context *ctx, struct ibv_pd **pd, uint32_t *pdn);
int xfix_open(struct xfix *f, const char *name);
/* The same on a device with wrapped (1) or plaintext (0) keys. */
int xfix_open_mode(struct xfix *f, const char *name, int wrapped);
/* Destroys everything, checks nothing is left, closes the device. */
int xfix_close(struct xfix *f);
/* A plaintext DEK: key1 || key2 (2 * half bytes) || KEYTAG. */
struct mlx5dv_devx_obj *dek_make(struct xfix *f, const uint8_t *key,
				 unsigned int half, uint32_t *id);
/* Encrypt raw bytes with the DEK, 512-byte units, tweak 0. */
void bsf_init(struct bsf_p *b, uint32_t dek, uint32_t raw);
/* UMR: the mkey's 4 KLMs (unused ones 0) and the crypto BSF. */
void post_umr(struct xfix *f, const struct seg *klm, unsigned int n,
	      uint64_t len, const struct bsf_p *b);
/* RDMA write of the sources to [raddr, ...) of rkey, CQE always; its
 * WQE index.
 */
uint16_t post_write(struct xfix *f, const struct seg *src, unsigned int n,
		    uint64_t raddr, uint32_t rkey);
/* Doorbell record, then the engine runs the posted WQEs. */
void ring_db(struct xfix *f);
/* The next CQE is the one expected (all bytes but the timestamp). */
int expect_cqe(struct xfix *f, uint8_t op, uint8_t synd, uint8_t vsynd,
	       uint8_t wqe_op, uint16_t wqe_idx);
/* No CQE at the consumer index. */
int no_cqe(struct xfix *f);
/* IEEE 1619 vector 4 (the DEK holds its key, 512-byte units, tweak 0):
 * bytes 0..511 of the buffer encrypted to bytes 4096..4607, requester
 * CQE and ciphertext checked.
 */
int xfix_vector4(struct xfix *f, uint32_t dek);

#endif /* TEST_XTS_FIX_H_ */
