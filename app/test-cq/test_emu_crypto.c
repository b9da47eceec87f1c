/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_crypto": the emulated HCA's crypto side driven through DevX
 * commands built here from the PRM layouts (mlx5_prm.h): crypto
 * capabilities (also read by rte_common_mlx5's
 * mlx5_devx_cmd_query_hca_attr()), IMPORT_KEK / CREDENTIAL /
 * CRYPTO_LOGIN and DEK objects with every refusal's status and syndrome,
 * each failure followed by a count of the device's objects (nothing
 * left behind). Wrapped keys are made here with OpenSSL's AES key wrap,
 * itself checked first against RFC 3394's published vector (4.1).
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <openssl/evp.h>

#include <rte_byteorder.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>
#include <mlx5_devx_cmds.h>

#include "mlx5_emu.h"
#include "test.h"
#include "test_crypto_util.h"
#include "test_usage.h"
#include "test_xts_fix.h"
#include "test_xts_vectors.h"

#define ST_OK 0x0
#define ST_BAD_SYS_STATE 0x4
#define ST_BAD_PARAM 0x3
#define ST_BAD_RES 0x5
#define ST_RES_BUSY 0x6
#define ST_LIM 0x8
#define ST_BAD_RES_STATE 0x9
#define OBJ_DEK 0x000c
#define OBJ_IMPORT_KEK 0x001d
#define OBJ_CREDENTIAL 0x001e
#define OBJ_CRYPTO_LOGIN 0x001f
#define CREATE_GENERAL_OBJECT 0xa00
#define QUERY_GENERAL_OBJECT 0xa02
#define QUERY_HCA_CAP 0x100
#define OP_MOD_CRYPTO_CUR (0x1a << 1 | 1)
#define OP_MOD_GENERAL_CUR (0x0 << 1 | 1)
#define PURPOSE_AES_XTS 3

/* A device with its PD. */
struct cfix {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	uint32_t pdn;
};

static int
cfix_open(struct cfix *f, const char *name, int wrapped, uint8_t log_deks,
	  uint16_t selftests)
{
	struct mlx5_emu_caps caps;

	memset(f, 0, sizeof(*f));
	mlx5_emu_caps_default(&caps);
	caps.crypto = 1;
	caps.crypto_wrapped = wrapped;
	caps.log_max_num_deks = log_deks;
	caps.crypto_failed_selftests = selftests;
	f->ctx = mlx5_emu_open(name, &caps);
	TEST_ASSERT_NOT_NULL(f->ctx, "open %s", name);
	return pd_open(f->ctx, &f->pd, &f->pdn);
}

static int
cfix_close(struct cfix *f)
{
	TEST_ASSERT_SUCCESS(mlx5_glue->dealloc_pd(f->pd), "pd");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(f->ctx), "close");
	return TEST_SUCCESS;
}

static uint32_t
objs_of(struct ibv_context *ctx)
{
	struct mlx5_emu_stats st;

	if (mlx5_emu_stats_get(ctx, &st) != 0)
		return UINT32_MAX;
	return st.devx_objs;
}

/* The test's key wrap against RFC 3394 section 4.1. */
static int
test_crypto_keywrap_vector(void)
{
	static const uint8_t kek[16] = {
		0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
		0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
	};
	static const uint8_t data[16] = {
		0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
		0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
	};
	static const uint8_t wrapped[24] = {
		0x1f, 0xa6, 0x8b, 0x0a, 0x81, 0x12, 0xb4, 0x47,
		0xae, 0xf3, 0x4b, 0xd8, 0xfb, 0x5a, 0x7b, 0x82,
		0x9d, 0x3e, 0x86, 0x23, 0x71, 0xd2, 0xcf, 0xe5,
	};
	uint8_t out[24];

	TEST_ASSERT_SUCCESS(crypto_key_wrap(kek, 16, data, 16, out), "wrap");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(out, wrapped, 24, "RFC 3394 4.1");
	return TEST_SUCCESS;
}

/* --- capabilities ---------------------------------------------------- */

static int
query_cap(struct ibv_context *ctx, uint16_t op_mod, uint32_t *out,
	  size_t outlen)
{
	uint32_t in[MLX5_ST_SZ_DW(query_hca_cap_in)] = {0};

	MLX5_SET(query_hca_cap_in, in, opcode, QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod, op_mod);
	return mlx5_glue->devx_general_cmd(ctx, in, sizeof(in), out, outlen);
}

static int
check_caps(struct ibv_context *ctx, int wrapped, uint64_t types)
{
	uint32_t out[MLX5_ST_SZ_DW(query_hca_cap_out)];
	struct mlx5_hca_attr attr;
	void *hc = MLX5_ADDR_OF(query_hca_cap_out, out, capability);

	TEST_ASSERT_SUCCESS(query_cap(ctx, OP_MOD_GENERAL_CUR, out,
				      sizeof(out)), "general");
	TEST_ASSERT_EQUAL(MLX5_GET(cmd_hca_cap, hc, crypto), 1u, "crypto");
	TEST_ASSERT_EQUAL(MLX5_GET(cmd_hca_cap, hc, aes_xts), 1u, "aes_xts");
	TEST_ASSERT_EQUAL(MLX5_GET64(cmd_hca_cap, hc, general_obj_types),
			  types, "general_obj_types");
	TEST_ASSERT(MLX5_GET(cmd_hca_cap, hc, max_wqe_sz_sq) >= 192,
		    "max_wqe_sz_sq holds a UMR WQE with a BSF");
	TEST_ASSERT_SUCCESS(query_cap(ctx, OP_MOD_CRYPTO_CUR, out,
				      sizeof(out)), "crypto caps");
	/* wrapped_import_method bit 2: AES-XTS keys come wrapped. */
	TEST_ASSERT_EQUAL(MLX5_GET(crypto_caps, hc, wrapped_import_method),
			  (wrapped ? 0x4u : 0u), "wrapped_import_method");
	TEST_ASSERT_EQUAL(MLX5_GET(crypto_caps, hc, log_max_num_deks), 12u,
			  "log_max_num_deks");
	TEST_ASSERT_EQUAL(MLX5_GET(crypto_caps, hc, failed_selftests), 0u,
			  "failed_selftests");
	/* The same through rte_common_mlx5 (code nobody here wrote). */
	memset(&attr, 0, sizeof(attr));
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_hca_attr(ctx, &attr),
			    "query_hca_attr");
	TEST_ASSERT(attr.crypto == 1 && attr.aes_xts == 1 && attr.dek == 1,
		    "crypto %u aes_xts %u dek %u", attr.crypto, attr.aes_xts,
		    attr.dek);
	TEST_ASSERT_EQUAL(attr.crypto_wrapped_import_method, (uint32_t)wrapped,
			  "wrapped method");
	TEST_ASSERT(attr.crypto_login == (uint32_t)wrapped &&
		    attr.import_kek == (uint32_t)wrapped &&
		    attr.credential == (uint32_t)wrapped, "login objects");
	return TEST_SUCCESS;
}

static int
test_crypto_caps(void)
{
	uint32_t out[MLX5_ST_SZ_DW(query_hca_cap_out)];
	void *hc = MLX5_ADDR_OF(query_hca_cap_out, out, capability);
	struct ibv_context *plain_nic;
	struct cfix w, p;
	int ret;

	/* Without caps.crypto: no crypto bit, no crypto caps page. */
	plain_nic = mlx5_emu_open("emu_cr_nic", NULL);
	TEST_ASSERT_NOT_NULL(plain_nic, "open");
	TEST_ASSERT_SUCCESS(query_cap(plain_nic, OP_MOD_GENERAL_CUR, out,
				      sizeof(out)), "general");
	TEST_ASSERT_EQUAL(MLX5_GET(cmd_hca_cap, hc, crypto), 0u, "crypto");
	TEST_ASSERT_EQUAL(MLX5_GET64(cmd_hca_cap, hc, general_obj_types),
			  0ull, "types");
	TEST_ASSERT_EQUAL(query_cap(plain_nic, OP_MOD_CRYPTO_CUR, out,
				    sizeof(out)), EINVAL, "crypto caps");
	TEST_ASSERT_EQUAL(MLX5_GET(query_hca_cap_out, out, status),
			  ST_BAD_PARAM, "status");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(plain_nic), "close");
	/* DEK 0xc, IMPORT_KEK 0x1d, CREDENTIAL 0x1e, CRYPTO_LOGIN 0x1f. */
	TEST_ASSERT_SUCCESS(cfix_open(&w, "emu_cr_w", 1, 12, 0), "open");
	ret = check_caps(w.ctx, 1, 0x00000000e0001000ull);
	TEST_ASSERT_SUCCESS(cfix_close(&w), "close");
	if (ret != TEST_SUCCESS)
		return ret;
	TEST_ASSERT_SUCCESS(cfix_open(&p, "emu_cr_p", 0, 12, 0), "open");
	ret = check_caps(p.ctx, 0, 0x0000000000001000ull);
	TEST_ASSERT_SUCCESS(cfix_close(&p), "close");
	return ret;
}

/* --- objects ----------------------------------------------------------- */

/* Create a general object; its handle or NULL, status/syndrome kept. */
static struct mlx5dv_devx_obj *
gobj_create(struct ibv_context *ctx, void *in, size_t inlen, int *err,
	    uint8_t *status, uint32_t *synd, uint32_t *id)
{
	uint32_t out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)];
	struct mlx5dv_devx_obj *o;

	memset(out, 0xff, sizeof(out));
	o = mlx5_glue->devx_obj_create(ctx, in, inlen, out, sizeof(out));
	*err = o == NULL ? errno : 0;
	*status = MLX5_GET(general_obj_out_cmd_hdr, out, status);
	*synd = MLX5_GET(general_obj_out_cmd_hdr, out, syndrome);
	*id = MLX5_GET(general_obj_out_cmd_hdr, out, obj_id);
	return o;
}

static void
kek_in(uint32_t *in, const uint8_t *key, unsigned int key_size)
{
	void *k = MLX5_ADDR_OF(create_import_kek_in, in, import_kek);

	memset(in, 0, MLX5_ST_SZ_BYTES(create_import_kek_in));
	MLX5_SET(general_obj_in_cmd_hdr, in, opcode, CREATE_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type, OBJ_IMPORT_KEK);
	MLX5_SET(import_kek, k, key_size, key_size);
	memcpy(MLX5_ADDR_OF(import_kek, k, key), key, key_size ? 32 : 16);
}

static void
cred_in(uint32_t *in, const uint8_t cred[40])
{
	void *c = MLX5_ADDR_OF(create_credential_in, in, credential);

	memset(in, 0, MLX5_ST_SZ_BYTES(create_credential_in));
	MLX5_SET(general_obj_in_cmd_hdr, in, opcode, CREATE_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type, OBJ_CREDENTIAL);
	MLX5_SET(credential, c, credential_role, 1); /* User. */
	memcpy(MLX5_ADDR_OF(credential, c, credential), cred, 40);
}

static void
login_in(uint32_t *in, uint32_t cred_id, uint32_t kek_id,
	 const uint8_t wrapped[48])
{
	void *l = MLX5_ADDR_OF(create_crypto_login_in, in, crypto_login);

	memset(in, 0, MLX5_ST_SZ_BYTES(create_crypto_login_in));
	MLX5_SET(general_obj_in_cmd_hdr, in, opcode, CREATE_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type, OBJ_CRYPTO_LOGIN);
	MLX5_SET(crypto_login, l, credential_pointer, cred_id);
	MLX5_SET(crypto_login, l, session_import_kek_ptr, kek_id);
	memcpy(MLX5_ADDR_OF(crypto_login, l, credential), wrapped, 48);
}

/* key: the bytes of the key field (klen of them). */
static void
dek_in(uint32_t *in, unsigned int key_size, uint32_t pdn, const uint8_t *key,
	unsigned int klen)
{
	void *d = MLX5_ADDR_OF(create_dek_in, in, dek);

	memset(in, 0, MLX5_ST_SZ_BYTES(create_dek_in));
	MLX5_SET(general_obj_in_cmd_hdr, in, opcode, CREATE_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type, OBJ_DEK);
	MLX5_SET(dek, d, key_size, key_size);
	MLX5_SET(dek, d, has_keytag, 1);
	MLX5_SET(dek, d, key_purpose, PURPOSE_AES_XTS);
	MLX5_SET(dek, d, pd, pdn);
	put64((uint8_t *)MLX5_ADDR_OF(dek, d, opaque), 0x1122334455667788ull);
	memcpy(MLX5_ADDR_OF(dek, d, key), key, klen);
}

/* A refused create: errno, status, syndrome, no object left. */
/* Objects and umems of the device, rte_malloc use of the process. */
struct use_snap {
	uint32_t objs;
	uint32_t umems;
	struct heap_use heap;
};

static void
use_snap(struct ibv_context *ctx, struct use_snap *u)
{
	struct mlx5_emu_stats st;

	memset(u, 0, sizeof(*u));
	if (mlx5_emu_stats_get(ctx, &st) == 0) {
		u->objs = st.devx_objs;
		u->umems = st.umems;
	}
	heap_use(&u->heap);
}

static int
use_same(struct ibv_context *ctx, const struct use_snap *a)
{
	struct use_snap b;

	use_snap(ctx, &b);
	return a->objs == b.objs && a->umems == b.umems &&
	       a->heap.heap_bytes == b.heap.heap_bytes &&
	       a->heap.alloc_count == b.heap.alloc_count;
}

#define EXPECT_REFUSED(ctx, in, inlen, e, st, sy) do { \
	struct use_snap u0_; \
	uint32_t id_, synd_; \
	uint8_t stat_; \
	int err_; \
	use_snap(ctx, &u0_); \
	TEST_ASSERT_NULL(gobj_create(ctx, in, inlen, &err_, &stat_, &synd_, \
				     &id_), "created"); \
	TEST_ASSERT_EQUAL(err_, (e), "errno %d", err_); \
	TEST_ASSERT_EQUAL(stat_, (st), "status 0x%x", stat_); \
	TEST_ASSERT_EQUAL(synd_, (uint32_t)(sy), "syndrome 0x%x", synd_); \
	TEST_ASSERT(use_same(ctx, &u0_), "object, umem or memory left"); \
} while (0)

/* Key material of the tests (arbitrary; the XTS halves differ). */
static const uint8_t kek256[32] = {
	0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
	0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf,
	0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7,
	0xb8, 0xb9, 0xba, 0xbb, 0xbc, 0xbd, 0xbe, 0xbf,
};
static const uint8_t credential[40] = {
	0x43, 0x52, 0x45, 0x44, 0x2d, 0x30, 0x31, 0x32,
	0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x41,
	0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49,
	0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f, 0x50, 0x51,
	0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59,
};

/* Login on a wrapped-mode device: KEK, credential, login handles. */
struct login_set {
	struct mlx5dv_devx_obj *kek, *cred, *login;
	uint32_t kek_id, cred_id;
};

static int
login_make(struct ibv_context *ctx, struct login_set *ls)
{
	uint32_t in[MLX5_ST_SZ_DW(create_crypto_login_in)];
	uint8_t wrapped[48], status;
	uint32_t synd, id;
	int err;

	TEST_ASSERT_SUCCESS(crypto_key_wrap(kek256, 32, credential, 40,
					    wrapped), "wrap");
	kek_in(in, kek256, 1);
	ls->kek = gobj_create(ctx, in, MLX5_ST_SZ_BYTES(create_import_kek_in),
			      &err, &status, &synd, &ls->kek_id);
	TEST_ASSERT_NOT_NULL(ls->kek, "kek: errno %d status 0x%x", err,
			     status);
	cred_in(in, credential);
	ls->cred = gobj_create(ctx, in,
			       MLX5_ST_SZ_BYTES(create_credential_in), &err,
			       &status, &synd, &ls->cred_id);
	TEST_ASSERT_NOT_NULL(ls->cred, "credential");
	login_in(in, ls->cred_id, ls->kek_id, wrapped);
	ls->login = gobj_create(ctx, in,
				MLX5_ST_SZ_BYTES(create_crypto_login_in),
				&err, &status, &synd, &id);
	TEST_ASSERT_NOT_NULL(ls->login, "login: errno %d synd 0x%x", err,
			     synd);
	TEST_ASSERT_EQUAL(status, ST_OK, "status");
	return TEST_SUCCESS;
}

static int
login_drop(struct login_set *ls)
{
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(ls->login), "login");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(ls->cred), "cred");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(ls->kek), "kek");
	return TEST_SUCCESS;
}

static int
test_crypto_login(void)
{
	uint32_t in[MLX5_ST_SZ_DW(create_crypto_login_in)];
	uint8_t wrapped[48], bad_kek[32];
	struct login_set ls;
	struct cfix f, p;
	uint32_t n0;

	TEST_ASSERT_SUCCESS(cfix_open(&f, "emu_cr_login", 1, 12, 0), "open");
	n0 = objs_of(f.ctx);
	/* KEK: key_size 2 is reserved; bytes past a 128-bit key. */
	kek_in(in, kek256, 1);
	MLX5_SET(import_kek, MLX5_ADDR_OF(create_import_kek_in, in,
					  import_kek), key_size, 2);
	EXPECT_REFUSED(f.ctx, in, MLX5_ST_SZ_BYTES(create_import_kek_in),
		       EINVAL, ST_BAD_PARAM, MLX5_EMU_SYND_CRYPTO_KEY_SIZE);
	kek_in(in, kek256, 1);
	MLX5_SET(import_kek, MLX5_ADDR_OF(create_import_kek_in, in,
					  import_kek), key_size, 0);
	EXPECT_REFUSED(f.ctx, in, MLX5_ST_SZ_BYTES(create_import_kek_in),
		       EINVAL, ST_BAD_PARAM, MLX5_EMU_SYND_CRYPTO_RESERVED);
	/* Credential: role 2 is reserved. */
	cred_in(in, credential);
	MLX5_SET(credential, MLX5_ADDR_OF(create_credential_in, in,
					  credential), credential_role, 2);
	EXPECT_REFUSED(f.ctx, in, MLX5_ST_SZ_BYTES(create_credential_in),
		       EINVAL, ST_BAD_PARAM, MLX5_EMU_SYND_CRYPTO_ROLE);
	TEST_ASSERT_SUCCESS(login_make(f.ctx, &ls), "login");
	TEST_ASSERT_EQUAL(objs_of(f.ctx), n0 + 3, "three objects");
	/* A second login. */
	TEST_ASSERT_SUCCESS(crypto_key_wrap(kek256, 32, credential, 40,
					    wrapped), "");
	login_in(in, ls.cred_id, ls.kek_id, wrapped);
	EXPECT_REFUSED(f.ctx, in, MLX5_ST_SZ_BYTES(create_crypto_login_in),
		       EINVAL, ST_BAD_RES_STATE,
		       MLX5_EMU_SYND_CRYPTO_LOGIN_EXISTS);
	/* Objects a login uses stay. */
	TEST_ASSERT_EQUAL(mlx5_glue->devx_obj_destroy(ls.kek), EBUSY, "kek");
	TEST_ASSERT_EQUAL(mlx5_glue->devx_obj_destroy(ls.cred), EBUSY, "cred");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(ls.login), "logout");
	/* Unknown credential and KEK numbers. */
	login_in(in, ls.kek_id, ls.kek_id, wrapped);
	EXPECT_REFUSED(f.ctx, in, MLX5_ST_SZ_BYTES(create_crypto_login_in),
		       EINVAL, ST_BAD_PARAM, MLX5_EMU_SYND_CRYPTO_CREDENTIAL);
	login_in(in, ls.cred_id, ls.cred_id, wrapped);
	EXPECT_REFUSED(f.ctx, in, MLX5_ST_SZ_BYTES(create_crypto_login_in),
		       EINVAL, ST_BAD_PARAM, MLX5_EMU_SYND_CRYPTO_KEK);
	/* The credential wrapped with another KEK, or tampered with. */
	memcpy(bad_kek, kek256, sizeof(bad_kek));
	bad_kek[0] ^= 1;
	TEST_ASSERT_SUCCESS(crypto_key_wrap(bad_kek, 32, credential, 40,
					    wrapped), "");
	login_in(in, ls.cred_id, ls.kek_id, wrapped);
	EXPECT_REFUSED(f.ctx, in, MLX5_ST_SZ_BYTES(create_crypto_login_in),
		       EINVAL, ST_BAD_PARAM, MLX5_EMU_SYND_CRYPTO_CREDENTIAL);
	TEST_ASSERT_SUCCESS(crypto_key_wrap(kek256, 32, credential, 40,
					    wrapped), "");
	wrapped[20] ^= 0x80;
	login_in(in, ls.cred_id, ls.kek_id, wrapped);
	EXPECT_REFUSED(f.ctx, in, MLX5_ST_SZ_BYTES(create_crypto_login_in),
		       EINVAL, ST_BAD_PARAM, MLX5_EMU_SYND_CRYPTO_CREDENTIAL);
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(ls.cred), "cred");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(ls.kek), "kek");
	TEST_ASSERT_EQUAL(objs_of(f.ctx), n0, "all gone");
	TEST_ASSERT_SUCCESS(cfix_close(&f), "close");
	/* A plaintext-mode device offers none of these objects. */
	TEST_ASSERT_SUCCESS(cfix_open(&p, "emu_cr_login_p", 0, 12, 0), "");
	kek_in(in, kek256, 1);
	EXPECT_REFUSED(p.ctx, in, MLX5_ST_SZ_BYTES(create_import_kek_in),
		       EINVAL, ST_BAD_PARAM, MLX5_EMU_SYND_CRYPTO_TYPE);
	cred_in(in, credential);
	EXPECT_REFUSED(p.ctx, in, MLX5_ST_SZ_BYTES(create_credential_in),
		       EINVAL, ST_BAD_PARAM, MLX5_EMU_SYND_CRYPTO_TYPE);
	TEST_ASSERT_SUCCESS(cfix_close(&p), "close");
	return TEST_SUCCESS;
}

/* AES-128-XTS key1 || key2 || keytag (40 bytes). */
static const uint8_t dek128[40] = {
	0x27, 0x18, 0x28, 0x18, 0x28, 0x45, 0x90, 0x45,
	0x23, 0x53, 0x60, 0x28, 0x74, 0x71, 0x35, 0x26,
	0x31, 0x41, 0x59, 0x26, 0x53, 0x58, 0x97, 0x93,
	0x23, 0x84, 0x62, 0x64, 0x33, 0x83, 0x27, 0x95,
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
};

static int
all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != 0)
			return 0;
	return 1;
}

static int
dek_query_check(struct mlx5dv_devx_obj *o, uint32_t id, unsigned int ks,
		uint32_t pdn)
{
	uint32_t in[MLX5_ST_SZ_DW(general_obj_in_cmd_hdr)] = {0};
	uint32_t out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr) +
		     MLX5_ST_SZ_DW(dek)];
	void *d = (uint8_t *)out + MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr);

	MLX5_SET(general_obj_in_cmd_hdr, in, opcode, QUERY_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type, OBJ_DEK);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_id, id);
	memset(out, 0xee, sizeof(out));
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_query(o, in, sizeof(in), out,
						      sizeof(out)), "query");
	TEST_ASSERT_EQUAL(MLX5_GET(general_obj_out_cmd_hdr, out, status),
			  ST_OK, "status");
	TEST_ASSERT_EQUAL(MLX5_GET(dek, d, state), 0u, "state ready");
	TEST_ASSERT_EQUAL(MLX5_GET(dek, d, key_size), ks, "key_size");
	TEST_ASSERT_EQUAL(MLX5_GET(dek, d, has_keytag), 1u, "keytag");
	TEST_ASSERT_EQUAL(MLX5_GET(dek, d, key_purpose), 3u, "purpose");
	TEST_ASSERT_EQUAL(MLX5_GET(dek, d, pd), pdn, "pd");
	TEST_ASSERT_EQUAL(MLX5_GET64(dek, d, opaque), 0x1122334455667788ull,
			  "opaque");
	TEST_ASSERT(all_zero(MLX5_ADDR_OF(dek, d, key), 128),
		    "the key is never read back");
	return TEST_SUCCESS;
}

static int
test_crypto_dek_wrapped(void)
{
	uint32_t in[MLX5_ST_SZ_DW(create_dek_in)];
	struct mlx5dv_devx_obj *o;
	struct login_set ls;
	uint8_t wrapped[48], status;
	uint32_t n0, synd, id;
	struct cfix f;
	int err;

	TEST_ASSERT_SUCCESS(cfix_open(&f, "emu_cr_dekw", 1, 12, 0), "open");
	n0 = objs_of(f.ctx);
	TEST_ASSERT_SUCCESS(crypto_key_wrap(kek256, 32, dek128, 40,
					    wrapped), "");
	/* No login yet. */
	dek_in(in, 0, f.pdn, wrapped, 48);
	EXPECT_REFUSED(f.ctx, in, sizeof(in), EIO, ST_BAD_SYS_STATE,
		       MLX5_EMU_SYND_CRYPTO_NO_LOGIN);
	TEST_ASSERT_SUCCESS(login_make(f.ctx, &ls), "login");
	o = gobj_create(f.ctx, in, sizeof(in), &err, &status, &synd, &id);
	TEST_ASSERT_NOT_NULL(o, "dek: errno %d synd 0x%x", err, synd);
	TEST_ASSERT(id != 0 && id <= 0xffffff, "DEK number 0x%x", id);
	TEST_ASSERT_SUCCESS(dek_query_check(o, id, 0, f.pdn), "query");
	/* Field checks. */
	dek_in(in, 2, f.pdn, wrapped, 48);
	EXPECT_REFUSED(f.ctx, in, sizeof(in), EINVAL, ST_BAD_PARAM,
		       MLX5_EMU_SYND_CRYPTO_KEY_SIZE);
	dek_in(in, 0, f.pdn, wrapped, 48);
	MLX5_SET(dek, MLX5_ADDR_OF(create_dek_in, in, dek), key_purpose, 1);
	EXPECT_REFUSED(f.ctx, in, sizeof(in), EINVAL, ST_BAD_PARAM,
		       MLX5_EMU_SYND_CRYPTO_PURPOSE);
	dek_in(in, 0, f.pdn + 1, wrapped, 48);
	EXPECT_REFUSED(f.ctx, in, sizeof(in), EINVAL, ST_BAD_RES,
		       MLX5_EMU_SYND_CRYPTO_PD);
	dek_in(in, 0, f.pdn, wrapped, 48);
	MLX5_SET(dek, MLX5_ADDR_OF(create_dek_in, in, dek), state, 1);
	EXPECT_REFUSED(f.ctx, in, sizeof(in), EINVAL, ST_BAD_PARAM,
		       MLX5_EMU_SYND_CRYPTO_RESERVED);
	/* A wrap that fails its integrity check, a plaintext key. */
	wrapped[30] ^= 0x01;
	dek_in(in, 0, f.pdn, wrapped, 48);
	EXPECT_REFUSED(f.ctx, in, sizeof(in), EINVAL, ST_BAD_PARAM,
		       MLX5_EMU_SYND_CRYPTO_UNWRAP);
	dek_in(in, 0, f.pdn, dek128, 40);
	EXPECT_REFUSED(f.ctx, in, sizeof(in), EINVAL, ST_BAD_PARAM,
		       MLX5_EMU_SYND_CRYPTO_UNWRAP);
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(o), "dek");
	TEST_ASSERT_SUCCESS(login_drop(&ls), "logout");
	TEST_ASSERT_EQUAL(objs_of(f.ctx), n0, "all gone");
	TEST_ASSERT_SUCCESS(cfix_close(&f), "close");
	return TEST_SUCCESS;
}

static int
test_crypto_dek_plaintext(void)
{
	uint32_t in[MLX5_ST_SZ_DW(create_dek_in)];
	struct mlx5dv_devx_obj *o[2];
	uint8_t key256[72], status;
	uint32_t n0, synd, id;
	struct cfix f;
	unsigned int i;
	int err;

	/* Room for two DEKs. */
	TEST_ASSERT_SUCCESS(cfix_open(&f, "emu_cr_dekp", 0, 1, 0), "open");
	n0 = objs_of(f.ctx);
	for (i = 0; i < sizeof(key256); i++)
		key256[i] = (uint8_t)(i * 7 + 1);
	dek_in(in, 1, f.pdn, key256, 72);
	o[0] = gobj_create(f.ctx, in, sizeof(in), &err, &status, &synd, &id);
	TEST_ASSERT_NOT_NULL(o[0], "dek 256: errno %d synd 0x%x", err, synd);
	TEST_ASSERT_SUCCESS(dek_query_check(o[0], id, 1, f.pdn), "query");
	dek_in(in, 0, f.pdn, dek128, 40);
	o[1] = gobj_create(f.ctx, in, sizeof(in), &err, &status, &synd, &id);
	TEST_ASSERT_NOT_NULL(o[1], "dek 128");
	EXPECT_REFUSED(f.ctx, in, sizeof(in), ENOMEM, ST_LIM,
		       MLX5_EMU_SYND_CRYPTO_DEK_LIMIT);
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(o[1]), "dek");
	/* Equal XTS halves; bytes past the key. */
	memcpy(key256 + 32, key256, 32);
	dek_in(in, 1, f.pdn, key256, 72);
	EXPECT_REFUSED(f.ctx, in, sizeof(in), EINVAL, ST_BAD_PARAM,
		       MLX5_EMU_SYND_CRYPTO_WEAK_KEY);
	dek_in(in, 0, f.pdn, key256, 48);
	EXPECT_REFUSED(f.ctx, in, sizeof(in), EINVAL, ST_BAD_PARAM,
		       MLX5_EMU_SYND_CRYPTO_RESERVED);
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(o[0]), "dek");
	TEST_ASSERT_EQUAL(objs_of(f.ctx), n0, "all gone");
	TEST_ASSERT_SUCCESS(cfix_close(&f), "close");
	/* Failed self tests refuse every DEK. */
	TEST_ASSERT_SUCCESS(cfix_open(&f, "emu_cr_dekst", 0, 12, 0x10), "");
	dek_in(in, 0, f.pdn, dek128, 40);
	EXPECT_REFUSED(f.ctx, in, sizeof(in), EIO, ST_BAD_SYS_STATE,
		       MLX5_EMU_SYND_CRYPTO_SELFTEST);
	TEST_ASSERT_SUCCESS(cfix_close(&f), "close");
	return TEST_SUCCESS;
}

/* A wrapped DEK at work: IEEE 1619 vector 4 through UMR + RDMA write on
 * a wrapped-key device after a crypto login.
 */
static int
test_crypto_wrapped_xts(void)
{
	uint32_t in[MLX5_ST_SZ_DW(create_dek_in)];
	uint8_t plain[40], wrapped[48], status;
	struct mlx5dv_devx_obj *dek;
	struct login_set ls;
	uint32_t synd, id;
	struct xfix f;
	int err;

	TEST_ASSERT_SUCCESS(xfix_open_mode(&f, "emu_cr_wxts", 1), "fixture");
	TEST_ASSERT_SUCCESS(login_make(f.ctx, &ls), "login");
	memcpy(plain, xts_v4_key, 32);
	put64(plain + 32, KEYTAG);
	TEST_ASSERT_SUCCESS(crypto_key_wrap(kek256, 32, plain, 40, wrapped),
			    "wrap");
	dek_in(in, 0, f.pdn, wrapped, 48);
	dek = gobj_create(f.ctx, in, sizeof(in), &err, &status, &synd, &id);
	TEST_ASSERT_NOT_NULL(dek, "DEK: errno %d syndrome 0x%x", err, synd);
	TEST_ASSERT_SUCCESS(xfix_vector4(&f, id), "vector 4");
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(dek), "dek");
	TEST_ASSERT_SUCCESS(login_drop(&ls), "logout");
	return xfix_close(&f);
}

/* A state command refused with BAD_RES_STATE / BAD_PARAM. */
static int
expect_cmd_refused(struct ibv_context *ctx, int ret, uint8_t st,
		   uint32_t sy)
{
	uint8_t status;
	uint32_t synd;

	TEST_ASSERT_EQUAL(ret, EINVAL, "errno %d", ret);
	TEST_ASSERT_SUCCESS(mlx5_emu_last_cmd_error(ctx, &status, &synd), "");
	TEST_ASSERT(status == st && synd == sy, "status 0x%x syndrome 0x%x",
		    status, synd);
	return TEST_SUCCESS;
}

/* CREATE_QP, QP state commands and CREATE_MKEY refusals; malformed UMR
 * WQEs and an unknown mkey complete in error.
 */
static int
test_crypto_qp_mkey_refusals(void)
{
	uint32_t qin[MLX5_ST_SZ_DW(create_qp_in)], min[MKEY_IN_LEN / 4];
	uint32_t rin[MLX5_ST_SZ_DW(init2rtr_qp_in)] = {0};
	uint32_t rout[MLX5_ST_SZ_DW(init2rtr_qp_out)];
	void *qpc = MLX5_ADDR_OF(create_qp_in, qin, qpc);
	void *mkc = MLX5_ADDR_OF(create_mkey_in, min, memory_key_mkey_entry);
	struct seg s, t;
	struct bsf_p b;
	struct xfix f;
	uint16_t pi, idx;

	TEST_ASSERT_SUCCESS(xfix_open(&f, "emu_cr_qpref"), "fixture");
	qp_in_fill(&f, qin);
	MLX5_SET(qpc, qpc, st, 1); /* UC */
	EXPECT_REFUSED(f.ctx, qin, sizeof(qin), EINVAL, ST_BAD_PARAM,
		       MLX5_EMU_SYND_QP_CTX);
	qp_in_fill(&f, qin);
	MLX5_SET(qpc, qpc, cqn_snd, f.cq.cq->id + 1);
	EXPECT_REFUSED(f.ctx, qin, sizeof(qin), EINVAL, ST_BAD_RES,
		       MLX5_EMU_SYND_NET_CQ);
	qp_in_fill(&f, qin);
	MLX5_SET(qpc, qpc, log_sq_size, 12); /* 256 KiB past the umem. */
	EXPECT_REFUSED(f.ctx, qin, sizeof(qin), EINVAL, ST_BAD_PARAM,
		       MLX5_EMU_SYND_NET_UMEM_RANGE);
	qp_in_fill(&f, qin);
	MLX5_SET(qpc, qpc, uar_page, f.uar->page_id + 1);
	EXPECT_REFUSED(f.ctx, qin, sizeof(qin), EINVAL, ST_BAD_PARAM,
		       MLX5_EMU_SYND_NET_UAR);
	/* States: RST2INIT of a QP in RTS; a remote QP other than itself. */
	TEST_ASSERT_SUCCESS(expect_cmd_refused(f.ctx,
			    qp_cmd(&f, MLX5_CMD_OP_RST2INIT_QP),
			    ST_BAD_RES_STATE, MLX5_EMU_SYND_QP_STATE), "");
	TEST_ASSERT_SUCCESS(qp_cmd(&f, MLX5_CMD_OP_QP_2RST), "2rst");
	TEST_ASSERT_SUCCESS(qp_cmd(&f, MLX5_CMD_OP_RST2INIT_QP), "init");
	MLX5_SET(init2rtr_qp_in, rin, opcode, MLX5_CMD_OP_INIT2RTR_QP);
	MLX5_SET(init2rtr_qp_in, rin, qpn, f.qpn);
	MLX5_SET(qpc, MLX5_ADDR_OF(init2rtr_qp_in, rin, qpc), remote_qpn,
		 f.qpn + 1);
	TEST_ASSERT_SUCCESS(expect_cmd_refused(f.ctx,
			    mlx5_glue->devx_obj_modify(f.qp, rin, sizeof(rin),
						       rout, sizeof(rout)),
			    ST_BAD_PARAM, MLX5_EMU_SYND_QP_CTX), "");
	TEST_ASSERT_SUCCESS(qp_cmd(&f, MLX5_CMD_OP_QP_2RST), "2rst");
	TEST_ASSERT_SUCCESS(qp_to_rts(&f), "rts");
	/* Mkeys: MTT access mode, crypto without a BSF, unknown PD, more
	 * KLMs given than translations, a short mailbox.
	 */
	mkey_in_fill(&f, min);
	MLX5_SET(mkc, mkc, access_mode_1_0, MLX5_MKC_ACCESS_MODE_MTT);
	EXPECT_REFUSED(f.ctx, min, sizeof(min), EINVAL, ST_BAD_PARAM,
		       MLX5_EMU_SYND_MKEY_CTX);
	mkey_in_fill(&f, min);
	MLX5_SET(mkc, mkc, bsf_en, 0);
	EXPECT_REFUSED(f.ctx, min, sizeof(min), EINVAL, ST_BAD_PARAM,
		       MLX5_EMU_SYND_MKEY_CTX);
	mkey_in_fill(&f, min);
	MLX5_SET(mkc, mkc, pd, f.pdn + 1);
	EXPECT_REFUSED(f.ctx, min, sizeof(min), EINVAL, ST_BAD_RES,
		       MLX5_EMU_SYND_CRYPTO_PD);
	mkey_in_fill(&f, min);
	MLX5_SET(mkc, mkc, translations_octword_size, 2);
	EXPECT_REFUSED(f.ctx, min, sizeof(min), EINVAL, ST_BAD_PARAM,
		       MLX5_EMU_SYND_MKEY_CTX);
	mkey_in_fill(&f, min);
	EXPECT_REFUSED(f.ctx, min, sizeof(min) - 16, EIO, 0x50,
		       MLX5_EMU_SYND_INLEN);
	/* UMR with a 48-byte BSF (3 octowords): LOC_QP_OP_ERR; the write
	 * after it flushed.
	 */
	bsf_init(&b, 0, 512);
	s = (struct seg){ 512, f.mr->lkey, f.buf };
	t = (struct seg){ 512, f.mr->lkey, f.buf + 4096 };
	pi = f.pi;
	post_umr(&f, &t, 1, 512, &b);
	wqe_at(&f, pi)[23] = 3;
	idx = post_write(&f, &s, 1, 0, f.mkey_key);
	ring_db(&f);
	TEST_ASSERT_SUCCESS(expect_cqe(&f, MLX5_CQE_REQ_ERR, 0x02, 0, 0x25,
				       pi), "UMR error");
	TEST_ASSERT_SUCCESS(expect_cqe(&f, MLX5_CQE_REQ_ERR, 0x05, 0, 0x08,
				       idx), "flushed");
	TEST_ASSERT_SUCCESS(qp_cmd(&f, MLX5_CMD_OP_QP_2RST), "2rst");
	TEST_ASSERT_SUCCESS(qp_to_rts(&f), "rts");
	/* UMR of an mkey that does not exist: LOC_PROT_ERR. */
	pi = f.pi;
	post_umr(&f, &t, 1, 512, &b);
	wqe_at(&f, pi)[14] ^= 0x01; /* misc: mkey index + 1 << 8. */
	ring_db(&f);
	TEST_ASSERT_SUCCESS(expect_cqe(&f, MLX5_CQE_REQ_ERR, 0x04, 0, 0x25,
				       pi), "unknown mkey");
	TEST_ASSERT_SUCCESS(no_cqe(&f), "nothing more");
	return xfix_close(&f);
}

static struct unit_test_suite emu_crypto_suite = {
	.suite_name = "emu_crypto",
	.unit_test_cases = {
		TEST_CASE(test_crypto_keywrap_vector),
		TEST_CASE(test_crypto_caps),
		TEST_CASE(test_crypto_login),
		TEST_CASE(test_crypto_dek_wrapped),
		TEST_CASE(test_crypto_dek_plaintext),
		TEST_CASE(test_crypto_wrapped_xts),
		TEST_CASE(test_crypto_qp_mkey_refusals),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(emu_crypto, emu_crypto_suite);
