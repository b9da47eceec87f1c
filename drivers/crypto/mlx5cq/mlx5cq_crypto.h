/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef MLX5CQ_CRYPTO_H_
#define MLX5CQ_CRYPTO_H_

/*
 * crypto_mlx5cq: AES-XTS cryptodev on an mlx5 device (ConnectX-6 Dx/7 or
 * the emulated HCA). Every operation is a UMR WQE that points an indirect
 * crypto mkey at the destination (KLM list + crypto BSF: DEK, tweak, data
 * unit) followed by an RDMA write of the source through that mkey on a
 * loopback RC QP; the QP's CQ is an mlx5cq CQ polled with
 * rte_mlx5cq_poll_burst().
 *
 * Files:
 *   mlx5cq_crypto.c          probe/remove, device ops, info, stats
 *   mlx5cq_crypto_devargs.c  devargs
 *   mlx5cq_crypto_device.c   context, PD, UAR, capabilities, crypto login
 *   mlx5cq_crypto_dek.c      DEK objects shared by sessions of one key
 *   mlx5cq_crypto_sess.c     symmetric sessions (cipher AES-XTS)
 *   mlx5cq_crypto_mr.c       mempool memory registration, lkey lookup
 *   mlx5cq_crypto_qp.c       queue pairs: CQ, QP, indirect mkeys, WQE sets
 *   mlx5cq_crypto_dp.c       enqueue (WQEs, doorbell) and dequeue (poll)
 *   mlx5cq_crypto_gcm.c      AES-GCM: caps, sessions, DEKs, MMO WQEs
 */

#include <stdint.h>
#include <sys/queue.h>

#include <rte_cryptodev.h>
#include <cryptodev_pmd.h>

#include <mlx5_common.h>
#include <mlx5_prm.h>
#include <mlx5_devx_cmds.h>
#include <mlx5_common_devx.h>

#include <rte_mlx5cq.h>

#define MLX5CQ_CRYPTO_DRIVER_NAME crypto_mlx5cq

extern int mlx5cq_crypto_logtype;
extern uint8_t mlx5cq_crypto_driver_id;

#define CRYPTO_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mlx5cq_crypto_logtype, \
		"crypto_mlx5cq: " fmt "\n", ##__VA_ARGS__)

#define MLX5CQ_CRYPTO_MAX_QPS 128
#define MLX5CQ_CRYPTO_DESC_MIN 2
#define MLX5CQ_CRYPTO_DESC_MAX 8192
#define MLX5CQ_CRYPTO_SEGS_DEFAULT 8
#define MLX5CQ_CRYPTO_DEV_NAME_MAX 64
#define MLX5CQ_CRYPTO_MR_MAX 64
/* First BlueFlame register of a UAR page: send doorbells (PRM). */
#define MLX5CQ_CRYPTO_BF_OFFSET 0x800
/* Wrapped DEK: the key (32 or 64 B) and its keytag (8 B) wrapped by the
 * import KEK (AES key wrap adds 8 B): 48 or 80 B.
 */
#define MLX5CQ_CRYPTO_WRAPPED_128 48
#define MLX5CQ_CRYPTO_WRAPPED_256 80
/* The credential of a CREDENTIAL object (credential[0x180]'s first 40 B). */
#define MLX5CQ_CRYPTO_EMU_CRED_LEN 40

/* How DEK key material reaches the device. */
enum mlx5cq_crypto_key_mode {
	MLX5CQ_CRYPTO_KEY_AUTO = 0, /* As the device's import method says. */
	MLX5CQ_CRYPTO_KEY_WRAPPED, /* Keys wrapped by the import KEK. */
	MLX5CQ_CRYPTO_KEY_PLAINTEXT, /* Keys in clear (key + keytag). */
};

/* Crypto engine of a dev=emu device (emu_crypto devarg). */
enum mlx5cq_crypto_emu {
	MLX5CQ_CRYPTO_EMU_CAPS = 0, /* Capabilities of mlx5_emu_open_caps_set(). */
	MLX5CQ_CRYPTO_EMU_PLAINTEXT, /* Engine on, plaintext key import. */
	MLX5CQ_CRYPTO_EMU_WRAPPED, /* Engine on, wrapped key import. */
};

struct mlx5cq_crypto_devargs {
	char dev[MLX5CQ_CRYPTO_DEV_NAME_MAX]; /* "emu" or an ibdev name. */
	uint32_t credential_id; /* credential_pointer of the login. */
	uint32_t import_kek_id; /* session_import_kek_ptr of the login. */
	uint8_t credential[MLX5_CRYPTO_CREDENTIAL_SIZE];
	uint64_t keytag; /* Host order. */
	uint32_t max_segs_num; /* Segments of an mbuf chain. */
	uint32_t max_qps; /* Queue pairs offered, 1..MLX5CQ_CRYPTO_MAX_QPS. */
	enum mlx5cq_crypto_key_mode key_mode;
	enum mlx5cq_crypto_emu emu_crypto;
	uint8_t credential_set; /* credential= or wcs_file= gave it. */
	uint8_t wcs_file_set; /* It came from wcs_file=. */
	/* dev=emu, emu_crypto=wrapped: what the crypto officer provisioned
	 * on the emulated device (emu_kek=, emu_credential=).
	 */
	uint8_t emu_kek_len; /* 0 (none), 16 or 32. */
	uint8_t emu_kek[32];
	uint8_t emu_cred_set;
	uint8_t emu_cred[MLX5CQ_CRYPTO_EMU_CRED_LEN];
};

/* A registered memory region (one chunk of a mempool). */
struct mlx5cq_crypto_mr {
	uintptr_t start;
	uintptr_t end;
	uint32_t lkey;
	struct ibv_mr *mr;
	const struct rte_mempool *mp;
};

/* DEK object, shared by the sessions of one key (refcnt). */
struct mlx5cq_crypto_dek {
	LIST_ENTRY(mlx5cq_crypto_dek) next;
	struct mlx5_devx_obj *obj;
	uint32_t refcnt;
	uint16_t key_len;
	uint8_t key[MLX5_CRYPTO_KEY_MAX_SIZE];
};

/*
 * An AES-GCM set is [UMR or NOP][MMO]: the UMR (no BSF) takes the whole
 * set but the last WQEBB, where the MMO goes; its KLMs are what is left
 * after its control, UMR control and mkey context segments.
 */
#define MLX5CQ_CRYPTO_GCM_UMR_STATIC (sizeof(struct mlx5_wqe_cseg) + \
				      sizeof(struct mlx5_wqe_umr_cseg) + \
				      sizeof(struct mlx5_wqe_mkey_cseg))
#define MLX5CQ_CRYPTO_GCM_UMR_SIZE(priv) \
	((uint32_t)(priv)->wqe_set_size - MLX5_SEND_WQE_BB)
#define MLX5CQ_CRYPTO_GCM_KLMS(priv) \
	((MLX5CQ_CRYPTO_GCM_UMR_SIZE(priv) - \
	  (uint32_t)MLX5CQ_CRYPTO_GCM_UMR_STATIC) / \
	 (uint32_t)sizeof(struct mlx5_wqe_dseg))

struct mlx5cq_crypto_priv {
	struct rte_cryptodev *dev;
	struct mlx5cq_crypto_devargs args;
	struct ibv_context *ctx;
	struct rte_mlx5cq_dev *cqdev;
	struct ibv_pd *pd;
	uint32_t pdn;
	struct mlx5dv_devx_uar *uar;
	volatile uint64_t *uar_db; /* BlueFlame register 0 of the UAR. */
	struct mlx5_devx_obj *login; /* Crypto login (wrapped mode). */
	struct mlx5_hca_attr hca;
	uint8_t wrapped; /* Key mode in use: 1 wrapped, 0 plaintext. */
	uint8_t emulated;
	uint64_t keytag_be;
	/* WQE set of one operation: UMR WQE then RDMA write WQE. */
	uint16_t umr_wqe_size; /* Bytes, multiple of 64. */
	uint16_t rdmaw_wqe_size; /* Bytes, multiple of 64. */
	uint16_t wqe_set_size; /* Power of 2. */
	uint16_t klm_num; /* KLM entries of the UMR WQE (multiple of 4). */
	uint32_t max_segs; /* Segments an operation may have. */
	LIST_HEAD(, mlx5cq_crypto_dek) deks;
	/* AES-GCM (crypto MMO QPs, plaintext keys): 0 when absent. */
	uint8_t gcm;
	uint8_t gcm_key_min; /* Key bytes (16 or 32). */
	uint8_t gcm_key_max;
	uint8_t gcm_tag_min; /* Tag bytes (12 or 16). */
	uint8_t gcm_tag_max;
	struct rte_cryptodev_capabilities caps[3]; /* XTS, GCM, end. */
	rte_spinlock_t mr_lock;
	uint32_t mr_n;
	struct mlx5cq_crypto_mr mr[MLX5CQ_CRYPTO_MR_MAX];
};

/* Session private data. */
struct mlx5cq_crypto_sess {
	uint32_t bs_bpt_eo_es; /* BSF word 0, big endian. */
	uint32_t bsp_res; /* BSF block size pointer, big endian; 0: op len. */
	uint32_t dek_id_be; /* DEK object id, big endian. */
	uint16_t iv_offset;
	struct mlx5cq_crypto_dek *dek;
	/* AES-GCM sessions (gcm 1): MMO gga_ctrl1, big endian. */
	uint8_t gcm;
	uint8_t gcm_enc;
	uint16_t aad_len;
	uint16_t tag_len;
	uint32_t mmo_ctrl;
	struct mlx5_devx_obj *gcm_dek; /* The session's own DEK. */
};

/* Counters of a queue pair beyond struct rte_cryptodev_stats. */
struct mlx5cq_crypto_qp_err {
	uint64_t cqe_errors; /* Error CQEs. */
	uint64_t recoveries; /* QP reset and back to RTS after errors. */
	uint8_t last_syndrome;
	uint8_t last_vendor_syndrome;
};

struct mlx5cq_crypto_qp {
	struct mlx5cq_crypto_priv *priv;
	struct rte_mlx5cq *cq;
	struct mlx5_devx_qp qp_obj;
	uint32_t qpn;
	uint8_t *wqes; /* WQE ring (entries_n WQE sets). */
	volatile uint32_t *sq_dbrec; /* Send doorbell record word. */
	struct rte_crypto_op **ops;
	struct mlx5_devx_obj **mkeys; /* One indirect mkey per WQE set. */
	struct rte_mlx5cq_cpl *cpl; /* Dequeue records. */
	struct rte_cryptodev_stats stats;
	struct mlx5cq_crypto_qp_err err;
	uint16_t entries_n;
	uint16_t mask;
	uint16_t pi; /* Operations posted. */
	uint16_t done; /* Operations known complete (from CQEs). */
	uint16_t ci; /* Operations handed back by dequeue. */
	uint8_t log_set_bbs; /* log2 of the WQEBBs of a WQE set. */
	uint8_t in_error; /* An error CQE came: the QP is in error. */
	uint16_t wqe_pi; /* WQEBB counter of the send queue. */
	uint16_t qp_id;
	uint8_t *opaq; /* GCM: 64-byte MMO opaque per slot. */
	struct ibv_mr *opaq_mr;
	uint8_t *slot_gcm; /* A slot's WQE set was last written for GCM. */
	uint64_t last_ctrl; /* First 8 bytes of the last WQE posted. */
	/* lkey lookup: the region hit last. */
	uintptr_t mr_start;
	uintptr_t mr_end;
	uint32_t mr_lkey;
};

/* mlx5cq_crypto_devargs.c */
int mlx5cq_crypto_devargs_parse(const char *params,
				struct mlx5cq_crypto_devargs *args);

/* mlx5cq_crypto_device.c */
int mlx5cq_crypto_device_open(struct mlx5cq_crypto_priv *priv,
			      const char *name);
void mlx5cq_crypto_device_close(struct mlx5cq_crypto_priv *priv);

/* mlx5cq_crypto_dek.c */
struct mlx5cq_crypto_dek *mlx5cq_crypto_dek_get(
		struct mlx5cq_crypto_priv *priv,
		const struct rte_crypto_cipher_xform *cipher);
void mlx5cq_crypto_dek_put(struct mlx5cq_crypto_priv *priv,
			   struct mlx5cq_crypto_dek *dek);
void mlx5cq_crypto_dek_release_all(struct mlx5cq_crypto_priv *priv);

/* mlx5cq_crypto_sess.c */
unsigned int mlx5cq_crypto_sym_session_get_size(struct rte_cryptodev *dev);
int mlx5cq_crypto_sym_session_configure(struct rte_cryptodev *dev,
					struct rte_crypto_sym_xform *xform,
					struct rte_cryptodev_sym_session *sess);
void mlx5cq_crypto_sym_session_clear(struct rte_cryptodev *dev,
				     struct rte_cryptodev_sym_session *sess);

/* mlx5cq_crypto_mr.c */
uint32_t mlx5cq_crypto_mr_lookup(struct mlx5cq_crypto_qp *qp,
				 const struct rte_mbuf *m, uintptr_t addr);
void mlx5cq_crypto_mr_release_all(struct mlx5cq_crypto_priv *priv);

/* mlx5cq_crypto_qp.c */
int mlx5cq_crypto_wqe_sizes(struct mlx5cq_crypto_priv *priv,
			    uint32_t segs);
int mlx5cq_crypto_qp_setup(struct rte_cryptodev *dev, uint16_t qp_id,
			   const struct rte_cryptodev_qp_conf *conf,
			   int socket);
int mlx5cq_crypto_qp_release(struct rte_cryptodev *dev, uint16_t qp_id);
int mlx5cq_crypto_qp_recover(struct mlx5cq_crypto_qp *qp);

void mlx5cq_crypto_wqe_set_init(struct mlx5cq_crypto_priv *priv,
				struct mlx5cq_crypto_qp *qp, uint32_t i);
uint32_t mlx5cq_crypto_mr_lookup_mp(struct mlx5cq_crypto_qp *qp,
				    struct rte_mempool *mp, uintptr_t addr);

/* mlx5cq_crypto_gcm.c */
void mlx5cq_crypto_gcm_probe(struct mlx5cq_crypto_priv *priv,
			     const char *name);
int mlx5cq_crypto_gcm_session(struct mlx5cq_crypto_priv *priv,
			      const struct rte_crypto_sym_xform *xform,
			      struct mlx5cq_crypto_sess *s);
void mlx5cq_crypto_gcm_session_clear(struct mlx5cq_crypto_sess *s);
int mlx5cq_crypto_gcm_qp_init(struct mlx5cq_crypto_qp *qp, int socket);
void mlx5cq_crypto_gcm_qp_free(struct mlx5cq_crypto_qp *qp);
int mlx5cq_crypto_gcm_wqe_set(struct mlx5cq_crypto_qp *qp,
			      struct rte_crypto_op *op,
			      const struct mlx5cq_crypto_sess *s);
/* The error CQE of an operation: its status. */
uint8_t mlx5cq_crypto_gcm_err_status(const struct rte_mlx5cq_cpl *c);

/* mlx5cq_crypto_dp.c */
uint16_t mlx5cq_crypto_enqueue_burst(void *qp, struct rte_crypto_op **ops,
				     uint16_t n);
uint16_t mlx5cq_crypto_dequeue_burst(void *qp, struct rte_crypto_op **ops,
				     uint16_t n);

#endif /* MLX5CQ_CRYPTO_H_ */
