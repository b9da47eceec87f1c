/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef MLX5_EMU_CRYPTO_H_
#define MLX5_EMU_CRYPTO_H_

/*
 * The crypto side of the emulated HCA (private to the model), present
 * when the device has caps.crypto:
 *   mlx5_emu_crypto_caps.c  crypto bits of QUERY_HCA_CAP, crypto caps page
 *   mlx5_emu_crypto_obj.c   per-device crypto state, object dispatch
 *   mlx5_emu_keywrap.c      AES key wrap (RFC 3394) with OpenSSL EVP
 *   mlx5_emu_login.c        IMPORT_KEK, CREDENTIAL, CRYPTO_LOGIN objects
 *   mlx5_emu_dek.c          DEK objects (create, query, destroy)
 *   mlx5_emu_xts.c          AES-XTS data unit by data unit (EVP)
 *   mlx5_emu_xts_aesni.c    AES-XTS with the x86 AES instructions
 *   mlx5_emu_gcm.c          AES-GCM DEKs and the crypto MMO WQE (EVP)
 *   mlx5_emu_mkey.c         CREATE_MKEY: indirect (KLM) mkeys, crypto_en
 *   mlx5_emu_qp.c           CREATE_QP, RST->INIT->RTR->RTS (loopback RC)
 *   mlx5_emu_umr.c          send WQE execution: UMR (KLMs + crypto BSF),
 *                           RDMA write through a (crypto) mkey, NOP
 *
 * Contract (what the model accepts) is written at the top of each file.
 * Locking: every entry runs with dev->lock held; lists change under
 * emu_net_lock too, so the progress engine (emu_net_lock only) may read
 * them.
 */

#include <stdint.h>
#include <sys/queue.h>

#include "mlx5_emu_net.h"

#define EMU_XTS_KEY_MAX 64 /* Two AES-256 keys. */
#define EMU_KEYTAG_LEN 8
#define EMU_CRED_LEN 40 /* Credential bytes (crypto login, wrapped 48). */
#define EMU_CRED_FIELD_LEN 48 /* credential[0x180] of the PRM objects. */
#define EMU_DEK_FIELD_LEN 128 /* dek.key[0x400]. */
#define EMU_WRAP_OVERHEAD 8 /* RFC 3394 integrity block. */
#define EMU_DEK_STATE_READY 0
#define EMU_WQEBB 64 /* Send WQE basic block. */

struct emu_xts;
struct emu_gcm;

/* A 64-bit big-endian field of a PRM layout (MLX5_SET64 needs
 * mlx5_common.h's MLX5_ASSERT, which the model does not include).
 */
static inline void
emu_put_be64(void *p, uint64_t v)
{
	uint8_t *b = p;
	int i;

	for (i = 7; i >= 0; i--, v >>= 8)
		b[i] = (uint8_t)v;
}

/* An import KEK (key encryption key of the crypto login session). */
struct emu_kek {
	uint16_t obj_type; /* First: the general object type. */
	TAILQ_ENTRY(emu_kek) next;
	uint32_t id;
	uint8_t key_size; /* MLX5_CRYPTO_KEY_SIZE_128b / _256b. */
	uint8_t key[32];
	uint32_t refcnt; /* Logins. */
};

/* A credential object. */
struct emu_cred {
	uint16_t obj_type; /* First: the general object type. */
	TAILQ_ENTRY(emu_cred) next;
	uint32_t id;
	uint8_t role; /* MLX5_CREDENTIAL_ROLE_*. */
	uint8_t cred[EMU_CRED_LEN];
	uint32_t refcnt; /* Logins. */
};

/* A crypto login session. */
struct emu_login {
	uint16_t obj_type; /* First: the general object type. */
	TAILQ_ENTRY(emu_login) next;
	uint32_t id;
	struct emu_cred *cred;
	struct emu_kek *kek;
};

/* A data encryption key. */
struct emu_dek {
	uint16_t obj_type; /* First: the general object type. */
	TAILQ_ENTRY(emu_dek) next;
	uint32_t id; /* 24 bits: the BSF's dek_pointer. */
	uint8_t key_size;
	uint8_t has_keytag;
	uint8_t key_purpose;
	uint32_t pdn;
	uint64_t opaque;
	uint64_t keytag; /* Bytes as in the key field (compared raw). */
	struct emu_xts *xts; /* Cipher contexts of the key (AES-XTS). */
	struct emu_gcm *gcm; /* Cipher contexts of the key (AES-GCM). */
};

/* One translation entry of an indirect mkey (klm layout). */
struct emu_klm {
	uint32_t bcount;
	uint32_t lkey;
	uint64_t addr;
};

/* The crypto BSF an UMR WQE gave an mkey (mlx5_wqe_umr_bsf_seg). */
struct emu_bsf {
	uint8_t valid;
	uint8_t encrypt; /* Order RAW_MEMORY: memory side encrypted. */
	uint32_t du; /* Data unit bytes; 0: the whole message. */
	uint32_t raw_data_size;
	uint8_t tweak[16];
	uint32_t dek_id;
	uint64_t keytag; /* Raw bytes. */
};

/* An indirect memory key (KLM access mode). */
struct emu_mkey {
	TAILQ_ENTRY(emu_mkey) next;
	LIST_ENTRY(emu_mkey) hnext; /* Bucket of emu_crypto.mkey_hash. */
	uint32_t key; /* mkey_index << 8 | mkey_7_0. */
	uint32_t pdn;
	uint8_t crypto_en;
	uint8_t umr_en;
	uint8_t rw; /* Remote write allowed. */
	uint32_t max_klm; /* translations_octword_size. */
	uint32_t nklm;
	uint64_t start; /* start_addr. */
	uint64_t len;
	struct emu_klm *klm; /* max_klm entries. */
	struct emu_bsf bsf;
};

/* QP states (qpc.state). */
#define EMU_QP_RST 0
#define EMU_QP_INIT 1
#define EMU_QP_RTR 2
#define EMU_QP_RTS 3
#define EMU_QP_ERR 6

/* A loopback RC QP with a send queue only. */
struct emu_qp {
	TAILQ_ENTRY(emu_qp) next;
	struct emu_net *net;
	uint32_t qpn;
	struct emu_wq wq; /* Ring, doorbell record, CQ, PD, state. */
	uint8_t qp_state;
	uint16_t pi; /* WQEBBs consumed by the device. */
	uint64_t wqes; /* WQEs executed. */
	uint8_t mmo; /* qpc_extension.mmo: MMO (GGA) WQEs allowed. */
	uint8_t *bounce; /* Gather buffer of scattered messages. */
	uint32_t bounce_len;
};

/* Crypto state of one device (allocated with its first crypto object). */
/* Buckets of the mkey table: indexes are handed out in sequence, so up to
 * this many mkeys have a bucket each.
 */
#define EMU_MKEY_HASH 4096

struct emu_crypto {
	TAILQ_HEAD(, emu_kek) keks;
	TAILQ_HEAD(, emu_cred) creds;
	TAILQ_HEAD(, emu_login) logins;
	TAILQ_HEAD(, emu_dek) deks;
	TAILQ_HEAD(, emu_mkey) mkeys;
	/* The mkeys by index (a WQE names its mkey: the device finds the
	 * context by index, not by walking every mkey).
	 */
	LIST_HEAD(, emu_mkey) mkey_hash[EMU_MKEY_HASH];
	TAILQ_HEAD(, emu_qp) qps;
	/* The last DEK and mkey looked up (consecutive WQEs name the same
	 * ones); cleared when that object is destroyed (emu_net_lock).
	 */
	struct emu_dek *dek_last;
	struct emu_mkey *mkey_last;
	uint32_t ndeks;
	uint32_t next_mkey; /* Next mkey index. */
};

/*
 * mlx5_emu_crypto_obj.c (dev->lock held). The object hooks of
 * mlx5_emu_obj.c return 1 when the command or object is not a crypto
 * one, else 0 or an errno with the status in out.
 */
int emu_crypto_obj_create(struct emu_dev *dev, uint16_t opcode,
			  const void *in, size_t inlen, void *out,
			  size_t outlen, uint32_t *id, void **priv);
int emu_crypto_obj_destroy(struct emu_dev *dev, uint16_t type, void *priv);
int emu_crypto_obj_query(struct emu_dev *dev, uint16_t type, void *priv,
			 const void *in, size_t inlen, void *out,
			 size_t outlen);
int emu_crypto_obj_modify(struct emu_dev *dev, uint16_t type, void *priv,
			  const void *in, size_t inlen, void *out,
			  size_t outlen);
/* A CQ or PD is used by a QP, mkey or DEK (dev->lock held). */
int emu_crypto_cq_busy(struct emu_net *net, uint32_t cqn);
int emu_crypto_pd_busy(struct emu_net *net, uint32_t pdn);
/* Ready QPs (emu_net_lock held). */
uint32_t emu_crypto_ready_qps(struct emu_net *net);
/* Execute what the QPs' doorbells announce (emu_net_lock held, in a
 * pass); WQEs executed.
 */
unsigned int emu_crypto_progress(struct emu_net *net);
/* At close (device unlisted). */
void emu_crypto_release(struct emu_net *net);
struct emu_crypto *emu_crypto_get(struct emu_dev *dev);
/* A refused command: log "what: why", fail with status / syndrome. */
int emu_crypto_refuse(struct emu_dev *dev, void *out, size_t outlen,
		      uint8_t status, uint32_t synd, const char *what,
		      const char *why);
/* The general object type is offered by the device's caps. */
int emu_crypto_type_offered(const struct emu_dev *dev, uint16_t obj_type);
/* Lookups (dev->lock or emu_net_lock held). */
struct emu_dek *emu_dek_lookup(struct emu_crypto *cr, uint32_t id);

/* mlx5_emu_crypto_caps.c */
void emu_crypto_fill_general_caps(const struct emu_dev *dev, void *hcattr);
void emu_crypto_fill_caps(const struct emu_dev *dev, void *hcattr);

/* mlx5_emu_keywrap.c: RFC 3394 unwrap; 0, or -1 when the integrity check
 * fails or the lengths are wrong. out gets inlen - 8 bytes.
 */
int emu_key_unwrap(const uint8_t *kek, unsigned int kek_len,
		   const uint8_t *in, unsigned int inlen, uint8_t *out);

/* mlx5_emu_login.c */
int emu_crypto_provision(struct emu_dev *dev, struct emu_crypto *cr);
void emu_crypto_unprovision(struct emu_crypto *cr);
int emu_kek_create(struct emu_dev *dev, struct emu_crypto *cr,
		   const void *in, size_t inlen, void *out, size_t outlen,
		   uint32_t *id, void **priv);
int emu_cred_create(struct emu_dev *dev, struct emu_crypto *cr,
		    const void *in, size_t inlen, void *out, size_t outlen,
		    uint32_t *id, void **priv);
int emu_login_create(struct emu_dev *dev, struct emu_crypto *cr,
		     const void *in, size_t inlen, void *out, size_t outlen,
		     uint32_t *id, void **priv);
int emu_kek_destroy(struct emu_dev *dev, struct emu_crypto *cr,
		    struct emu_kek *kek);
int emu_cred_destroy(struct emu_dev *dev, struct emu_crypto *cr,
		     struct emu_cred *c);
void emu_login_destroy(struct emu_crypto *cr, struct emu_login *l);

/* mlx5_emu_dek.c */
int emu_dek_create(struct emu_dev *dev, struct emu_crypto *cr,
		   const void *in, size_t inlen, void *out, size_t outlen,
		   uint32_t *id, void **priv);
int emu_dek_query(struct emu_dev *dev, const struct emu_dek *dek,
		  void *out, size_t outlen);
void emu_dek_destroy(struct emu_crypto *cr, struct emu_dek *dek);

/* mlx5_emu_mkey.c */
int emu_mkey_create(struct emu_dev *dev, struct emu_crypto *cr,
		    const void *in, size_t inlen, void *out, size_t outlen,
		    uint32_t *id, void **priv);
void emu_mkey_destroy(struct emu_crypto *cr, struct emu_mkey *mk);
struct emu_mkey *emu_mkey_lookup(struct emu_crypto *cr, uint32_t key);

/* mlx5_emu_qp.c */
int emu_qp_create(struct emu_dev *dev, struct emu_crypto *cr,
		  const void *in, size_t inlen, void *out, size_t outlen,
		  uint32_t *id, void **priv);
int emu_qp_modify(struct emu_dev *dev, struct emu_qp *qp, const void *in,
		  size_t inlen, void *out, size_t outlen);
void emu_qp_destroy(struct emu_crypto *cr, struct emu_qp *qp);

/* mlx5_emu_umr.c: execute the QP's posted WQEs (emu_net_lock held). */
unsigned int emu_qp_progress(struct emu_qp *qp);

/* The error of a failed WQE: CQE syndrome and vendor syndrome. */
struct emu_wqe_err {
	uint8_t synd;
	uint8_t vsynd;
};

/* Send WQE syndromes (mlx5_prm.h MLX5_CQE_SYNDROME_*) and the model's
 * vendor syndromes of crypto failures.
 */
#define EMU_SYND_WR_FLUSH_ERR 0x05
#define EMU_SYND_REM_ACCESS_ERR 0x13
#define EMU_SYND_REM_OP_ERR 0x14
#define EMU_VSYND_NO_DEK 0x01
#define EMU_VSYND_DEK_PD 0x02
#define EMU_VSYND_KEYTAG 0x03
#define EMU_VSYND_NO_BSF 0x04
#define EMU_VSYND_CIPHER 0x05
#define EMU_VSYND_GCM_TAG 0x06 /* AES-GCM decrypt: the tag differs. */
#define EMU_VSYND_DEK_KIND 0x07 /* The DEK's key_purpose does not fit. */

/* Record a WQE error; -1. */
int emu_wqe_fail(struct emu_wqe_err *e, uint8_t synd, uint8_t vsynd);
/* Write len bytes of src at offset off of an indirect mkey's targets. */
int emu_klm_scatter(struct emu_qp *qp, const struct emu_mkey *mk,
		    uint64_t off, const uint8_t *src, uint32_t len,
		    struct emu_wqe_err *e);
/* A buffer of the QP for gathered messages (len bytes at least). */
uint8_t *emu_qp_bounce(struct emu_qp *qp, uint32_t len);

/* mlx5_emu_gcm.c */
/* crypto_caps bits of AES-GCM (crypto_mmo_qp and the rest). */
void emu_gcm_fill_caps(const struct emu_dev *dev, void *hcattr);
/* A DEK of key_purpose MLX5_CRYPTO_KEY_PURPOSE_GCM (the common checks of
 * emu_dek_create() passed): its key checked, its contexts made.
 */
int emu_dek_gcm_create(struct emu_dev *dev, struct emu_crypto *cr,
		       const void *d, void *out, size_t outlen, uint32_t *id,
		       void **priv);
void emu_gcm_free(struct emu_gcm *g);
/* qpc_extension of CREATE_QP: 0 (mmo recorded in *mmo) or a refusal. */
int emu_qp_ext_check(struct emu_dev *dev, const void *in, size_t inlen,
		     uint8_t *mmo, void *out, size_t outlen);
/* Execute a crypto MMO WQE (opcode MMO, opc_mod CRYPTO); 0 or -1. */
int emu_mmo_exec(struct emu_qp *qp, const uint8_t *w, unsigned int ds,
		 struct emu_wqe_err *e);

/* mlx5_emu_xts.c */
/* Contexts for key (2 * half bytes, half 16 or 32); NULL when OpenSSL
 * refuses it (equal halves) or no memory.
 */
struct emu_xts *emu_xts_new(const uint8_t *key, unsigned int half);
void emu_xts_free(struct emu_xts *x);
/*
 * AES-XTS of len bytes from src to dst (may be equal), data unit by
 * data unit of du bytes (0: one unit of len bytes); the first unit's
 * tweak is tweak[16], a little-endian number incremented by one per
 * unit. enc: 1 encrypt, 0 decrypt. 0, or -1 (OpenSSL error; a unit
 * shorter than 16 bytes).
 */
int emu_xts_run(struct emu_xts *x, int enc, const uint8_t tweak[16],
		uint32_t du, const uint8_t *src, uint8_t *dst, uint32_t len);

#endif /* MLX5_EMU_CRYPTO_H_ */
