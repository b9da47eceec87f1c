/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef TEST_CQ_EMU_NET_FIXTURE_H_
#define TEST_CQ_EMU_NET_FIXTURE_H_

/* Shared fixture of the emu_net_* suites (test_emu_net_fixture.c). */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>
#include <mlx5_devx_cmds.h>
#include <mlx5_common_devx.h>

#include "mlx5_emu.h"
#include "rte_mlx5cq.h"
#include "test.h"
#include "test_dpdk_cq.h"
#include "test_rss_key.h"
#include "test_wait.h"

/* rte_common_mlx5's struct mlx5_devx_obj (see test_emu.c). */
struct mlx5_devx_obj {
	void *obj;
	int id;
};

#define CMD_STAT_BAD_PARAM 0x03
#define CMD_STAT_BAD_RES 0x05
#define CMD_STAT_BAD_RES_STATE 0x09
#define LOG_SQ 6 /* 64 WQEBBs. */
#define LOG_RQ 5 /* 32 WQEs of one 16 B data segment. */
#define LOG_CQ 7
#define BUF_SZ 2048
#define DATA_SZ (256 * 1024)

/* CQE offsets (struct mlx5_cqe, struct mlx5_err_cqe). */
#define CQE_HASH_RES 12
#define CQE_HASH_TYPE 16
#define CQE_CSUM 20
#define CQE_HDR_TYPE 28
#define CQE_VLAN 30
#define CQE_BYTE_CNT 44
#define CQE_TIMESTAMP 48
#define CQE_SYNDROME 55
#define CQE_QPN 56
#define CQE_WQE_CNT 60
#define CQE_OP_OWN 63

#define ms_key test_rss_ms_key

static const uint8_t mac_a[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x01 };
static const uint8_t mac_b[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x02 };
static const uint8_t mac_c[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x03 };

/* One emulated device with a send and a receive queue. */
struct nport {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	uint32_t pdn;
	struct mlx5dv_devx_uar *uar;
	struct mlx5_devx_obj *td, *tis, *rqt, *tir;
	struct mlx5_devx_cq scq, rcq;
	/* CQs made with the mlx5cq library instead of scq / rcq. */
	struct rte_mlx5cq_dev *ldev;
	struct rte_mlx5cq *lscq, *lrcq;
	struct mlx5_devx_sq sq;
	struct mlx5_devx_rq rq;
	uint8_t *data; /* DATA_SZ bytes: RX buffers, then TX payloads. */
	struct ibv_mr *mr;
	uint16_t sq_pi;
	uint16_t rq_pi;
	uint32_t scq_ci;
	uint32_t rcq_ci;
};

/* The addresses, ports and TCP flags of a TCP/IPv4 frame. */
struct tcp4_flow {
	uint8_t sip[4];
	uint8_t dip[4];
	uint16_t sport;
	uint16_t dport;
	uint8_t flags;
};

#define ALL_FIELDS 0xf /* SRC_IP, DST_IP, L4_SPORT, L4_DPORT */

/* The first Microsoft RSS verification vector (TCP/IPv4). */
static const struct tcp4_flow ms_flow1 = {
	.sip = { 66, 9, 149, 187 },
	.dip = { 161, 142, 100, 80 },
	.sport = 2794,
	.dport = 1766,
};

#define Z_FRAMES 12 /* Frames of a burst that form one session. */
#define Z_MAX 16
#define Z_FLEN 512

uint32_t
csum_sum(uint32_t s, const uint8_t *b, size_t n);

/* The sum folded to 16 bits and complemented (RFC 1071). */
uint16_t
csum_done(uint32_t s);

void
put16(uint8_t *p, uint16_t v);

uint32_t
frame_tcp4_flow(uint8_t *f, const uint8_t *dst, const uint8_t *src,
		const struct tcp4_flow *fl, uint32_t payload, int bad_ip,
		int bad_tcp);

uint32_t
frame_tcp4(uint8_t *f, const uint8_t *dst, const uint8_t *src,
	   uint32_t payload, int bad_ip, int bad_tcp);

uint32_t
frame_udp6(uint8_t *f, const uint8_t *dst, const uint8_t *src,
	   uint32_t payload);

/* MODIFY_NIC_VPORT_CONTEXT with field_select select, the 256-byte
 * nic_vport_context ctx256 (or none) and an address list of n.
 */
int
vport_modify(struct ibv_context *ctx, uint32_t select, const uint8_t *ctx256,
	     const void *list, unsigned int n, uint8_t *status,
	     uint32_t *synd);

void
rq_post_at(struct nport *p, uint32_t lkey, const void *addr);

int
rq_post(struct nport *p, unsigned int n);

uint8_t *
sq_ctrl(struct nport *p, uint32_t ds, int cq_update);

void
sq_ring(struct nport *p, const uint8_t *w);

void
sq_send(struct nport *p, const uint8_t *frame, uint32_t len, uint8_t cs,
	uint32_t lkey, uint64_t addr, int cq_update);

void
send_frame(struct nport *p, const uint8_t *frame, uint32_t len, uint8_t cs);

const uint8_t *
cqe_next(struct mlx5_devx_cq *cq, uint32_t *ci);

uint32_t
rd32(const uint8_t *p);

uint16_t
rd16(const uint8_t *p);

void
tir_attr_fill(const struct nport *p, const struct mlx5_devx_obj *rqt,
	      uint32_t fields, struct mlx5_devx_tir_attr *ta);

int
tir_make(struct nport *p, struct mlx5_devx_obj *rqt, uint32_t fields);

uint32_t
lcqn(const struct rte_mlx5cq *cq);

extern unsigned int nport_sq_inline;
/* ts_format of the SQ and RQ nport_open() makes (0: FREE_RUNNING). */
extern unsigned int nport_ts_format;

int
nport_open_ex(struct nport *p, const char *name, const char *wire,
	      const uint8_t *mac, int vsd, const struct rte_mlx5cq_attr *sattr,
	      const struct rte_mlx5cq_attr *rattr);

int
nport_open(struct nport *p, const char *name, const char *wire,
	   const uint8_t *mac, int vsd);

int
nport_close(struct nport *p);

void
heap_snap(uint64_t *allocs, uint64_t *bytes);

uint32_t
toeplitz(const uint8_t *key, size_t key_len, const uint8_t *in, size_t n);

uint32_t
flow_hash(const struct tcp4_flow *fl);

uint16_t
frame_csum(const uint8_t *f, uint32_t len);

uint64_t
rd64(const uint8_t *p);

void
zattr(struct rte_mlx5cq_attr *a, uint8_t format, uint8_t layout);

const uint8_t *
lslot(struct rte_mlx5cq *cq, uint32_t k);

unsigned int
lpoll(struct rte_mlx5cq *cq, struct rte_mlx5cq_cpl *rec, unsigned int max);

const uint8_t *
zmini(struct rte_mlx5cq *cq, uint32_t base, unsigned int i, int enhanced);

int
emu_net_setup(void);

void
emu_net_teardown(void);

#endif /* TEST_CQ_EMU_NET_FIXTURE_H_ */
