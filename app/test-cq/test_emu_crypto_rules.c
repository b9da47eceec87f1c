/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_crypto_rules": the refusals of the emulated HCA's crypto
 * commands that no other suite drives (rules tables of the "Crypto
 * model" chapter of doc/guides/emulated_hca.rst). Each case builds the
 * command mailbox from the PRM layout (mlx5_prm.h), checks that it is
 * accepted, changes one field and checks the exact status, syndrome and
 * errno.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>

#include "mlx5_emu.h"
#include "test.h"
#include "test_crypto_util.h"
#include "test_xts_fix.h"

#define ST_BAD_SYS_STATE 0x04
#define ST_BAD_PARAM 0x03
#define ST_BAD_OP 0x02
#define ST_BAD_RES 0x05
#define ST_RES_BUSY 0x06
#define ST_BAD_INP_LEN 0x50
#define ST_BAD_OUTP_LEN 0x51
#define HDR_LEN MLX5_ST_SZ_BYTES(general_obj_in_cmd_hdr)
#define OUT_LEN MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr)

/* The IMPORT_KEK and credential of the tests (any bytes). */
static const uint8_t kek[32] = {
	0x10, 0x21, 0x32, 0x43, 0x54, 0x65, 0x76, 0x87,
	0x98, 0xa9, 0xba, 0xcb, 0xdc, 0xed, 0xfe, 0x0f,
	0x1f, 0x2e, 0x3d, 0x4c, 0x5b, 0x6a, 0x79, 0x88,
	0x97, 0xa6, 0xb5, 0xc4, 0xd3, 0xe2, 0xf1, 0x00,
};
static const uint8_t cred[40] = {
	0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7,
	0xc8, 0xc9, 0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xcf,
	0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7,
	0xd8, 0xd9, 0xda, 0xdb, 0xdc, 0xdd, 0xde, 0xdf,
	0xe0, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7,
};
/* AES-128-XTS key1 || key2 || keytag (the halves differ). */
static const uint8_t dek_key[40] = {
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10,
	0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28,
	0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f, 0x30,
	0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,
};

/* A device (crypto, wrapped keys, provisioned officer objects) and PD. */
struct rfix {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	uint32_t pdn;
};

static int
rfix_open(struct rfix *f, const char *name, int crypto, int wrapped,
	  int provisioned)
{
	struct mlx5_emu_caps caps;

	memset(f, 0, sizeof(*f));
	mlx5_emu_caps_default(&caps);
	caps.crypto = crypto;
	caps.crypto_wrapped = wrapped;
	caps.crypto_provisioned = provisioned;
	caps.crypto_kek_len = 32;
	memcpy(caps.crypto_kek, kek, sizeof(kek));
	memcpy(caps.crypto_credential, cred, sizeof(cred));
	f->ctx = mlx5_emu_open(name, &caps);
	TEST_ASSERT_NOT_NULL(f->ctx, "open %s", name);
	return pd_open(f->ctx, &f->pd, &f->pdn);
}

static int
rfix_close(struct rfix *f, int ret)
{
	struct mlx5_emu_stats st;

	if (mlx5_emu_stats_get(f->ctx, &st) == 0 && st.devx_objs != 0 &&
	    ret == TEST_SUCCESS)
		ret = TEST_FAILED;
	mlx5_glue->dealloc_pd(f->pd);
	if (mlx5_emu_close(f->ctx) != 0 && ret == TEST_SUCCESS)
		ret = TEST_FAILED;
	return ret;
}

/* A create that must fail with status st, syndrome synd and errno err. */
static int
create_refused(struct rfix *f, const void *in, size_t inlen, size_t outlen,
	       uint8_t st, uint32_t synd, int err, const char *what)
{
	uint32_t out[8] = { 0 };
	void *o;

	errno = 0;
	o = mlx5_glue->devx_obj_create(f->ctx, in, inlen, out, outlen);
	if (o != NULL) {
		mlx5_glue->devx_obj_destroy(o);
		TEST_ASSERT(0, "%s: accepted", what);
	}
	TEST_ASSERT_EQUAL(errno, err, "%s: errno %d", what, errno);
	TEST_ASSERT_EQUAL(MLX5_GET(general_obj_out_cmd_hdr, out, status), st,
			  "%s: status 0x%x", what,
			  MLX5_GET(general_obj_out_cmd_hdr, out, status));
	TEST_ASSERT_EQUAL(MLX5_GET(general_obj_out_cmd_hdr, out, syndrome),
			  synd, "%s: syndrome 0x%x", what,
			  MLX5_GET(general_obj_out_cmd_hdr, out, syndrome));
	return TEST_SUCCESS;
}

/* A create that must succeed; the object is destroyed unless kept. */
static int
create_ok(struct rfix *f, const void *in, size_t inlen, void **keep,
	  uint32_t *id, const char *what)
{
	uint32_t out[8] = { 0 };
	void *o;

	o = mlx5_glue->devx_obj_create(f->ctx, in, inlen, out, OUT_LEN);
	TEST_ASSERT_NOT_NULL(o, "%s: refused, status 0x%x syndrome 0x%x",
			     what, MLX5_GET(general_obj_out_cmd_hdr, out,
					    status),
			     MLX5_GET(general_obj_out_cmd_hdr, out, syndrome));
	if (id != NULL)
		*id = MLX5_GET(general_obj_out_cmd_hdr, out, obj_id);
	if (keep != NULL) {
		*keep = o;
		return TEST_SUCCESS;
	}
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_obj_destroy(o), "%s: destroy",
			    what);
	return TEST_SUCCESS;
}

#define DEK(in) MLX5_ADDR_OF(create_dek_in, in, dek)
#define KEK(in) MLX5_ADDR_OF(create_import_kek_in, in, import_kek)
#define CRED(in) MLX5_ADDR_OF(create_credential_in, in, credential)
#define LOGIN(in) MLX5_ADDR_OF(create_crypto_login_in, in, crypto_login)

static void
set_be64(void *p, uint64_t v)
{
	uint64_t be = rte_cpu_to_be_64(v);

	memcpy(p, &be, sizeof(be));
}

static void
hdr_mb(uint32_t *in, size_t len, uint16_t type)
{
	memset(in, 0, len);
	MLX5_SET(general_obj_in_cmd_hdr, in, opcode,
		 MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type, type);
}

/* A DEK as mlx5_devx_cmd_create_dek_obj() writes it; key: klen bytes. */
static void
dek_mb(const struct rfix *f, uint32_t *in, const uint8_t *key,
	unsigned int klen)
{
	hdr_mb(in, MLX5_ST_SZ_BYTES(create_dek_in), MLX5_GENERAL_OBJ_TYPE_DEK);
	MLX5_SET(dek, DEK(in), key_size, MLX5_CRYPTO_KEY_SIZE_128b);
	MLX5_SET(dek, DEK(in), has_keytag, 1);
	MLX5_SET(dek, DEK(in), key_purpose, MLX5_CRYPTO_KEY_PURPOSE_AES_XTS);
	MLX5_SET(dek, DEK(in), pd, f->pdn);
	memcpy(MLX5_ADDR_OF(dek, DEK(in), key), key, klen);
}

static void
kek_mb(uint32_t *in)
{
	hdr_mb(in, MLX5_ST_SZ_BYTES(create_import_kek_in),
	       MLX5_GENERAL_OBJ_TYPE_IMPORT_KEK);
	MLX5_SET(import_kek, KEK(in), key_size, MLX5_CRYPTO_KEY_SIZE_256b);
	memcpy(MLX5_ADDR_OF(import_kek, KEK(in), key), kek, sizeof(kek));
}

static void
cred_mb(uint32_t *in)
{
	hdr_mb(in, MLX5_ST_SZ_BYTES(create_credential_in),
	       MLX5_GENERAL_OBJ_TYPE_CREDENTIAL);
	MLX5_SET(credential, CRED(in), credential_role,
		 MLX5_CREDENTIAL_ROLE_OFFICER);
	memcpy(MLX5_ADDR_OF(credential, CRED(in), credential), cred,
	       sizeof(cred));
}

/* A login with the provisioned credential and KEK. */
static void
login_mb(uint32_t *in)
{
	uint8_t w[48];

	hdr_mb(in, MLX5_ST_SZ_BYTES(create_crypto_login_in),
	       MLX5_GENERAL_OBJ_TYPE_CRYPTO_LOGIN);
	MLX5_SET(crypto_login, LOGIN(in), credential_pointer,
		 MLX5_EMU_PROV_CRED_ID);
	MLX5_SET(crypto_login, LOGIN(in), session_import_kek_ptr,
		 MLX5_EMU_PROV_KEK_ID);
	if (crypto_key_wrap(kek, sizeof(kek), cred, sizeof(cred), w) != 0)
		memset(w, 0, sizeof(w));
	memcpy(MLX5_ADDR_OF(crypto_login, LOGIN(in), credential), w,
	       sizeof(w));
}

/*
 * In a test with a mailbox "in", a fixture "f" and a result "ret": build
 * the valid mailbox (bld), apply one change (chg) and expect the answer;
 * or expect the valid mailbox to be accepted. Nothing more once ret
 * says a case failed.
 */
#define REFUSE(bld, chg, inlen, outlen, st, synd, err, what) do { \
	if (ret == TEST_SUCCESS) { \
		bld; \
		chg; \
		ret = create_refused(&f, in, inlen, outlen, st, synd, err, \
				     what); \
	} \
} while (0)
#define S(x) MLX5_EMU_SYND_##x
/* First byte of a field wider than 32 bits (MLX5_SET takes up to 32). */
#define BYTE0(typ, p, fld) (((uint8_t *)MLX5_ADDR_OF(typ, p, fld))[0])
/* The same with the test's BLD, its mailbox length n and 16 B out. */
#define BADP(chg, synd, what) \
	REFUSE(BLD, chg, n, OUT_LEN, ST_BAD_PARAM, S(synd), EINVAL, what)
#define ACCEPT(what) do { \
	if (ret == TEST_SUCCESS) { \
		BLD; \
		ret = create_ok(&f, in, n, NULL, NULL, what); \
	} \
} while (0)

/* CREATE_GENERAL_OBJECT: the header, whatever the crypto type. */
static int
test_rules_gobj_hdr(void)
{
	uint32_t in[MLX5_ST_SZ_DW(create_dek_in)];
	const size_t n = sizeof(in);
	struct rfix f;
	int ret;

#define BLD dek_mb(&f, in, dek_key, sizeof(dek_key))
	ret = rfix_open(&f, "crules_hdr", 1, 0, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	ACCEPT("DEK");
	REFUSE(BLD, (void)0, HDR_LEN - 4, OUT_LEN, ST_BAD_INP_LEN, S(INLEN),
	       EIO, "inlen 12");
	REFUSE(BLD, (void)0, n, 8, ST_BAD_OUTP_LEN, S(OUTLEN), EIO,
	       "outlen 8");
	BADP(MLX5_SET(general_obj_in_cmd_hdr, in, obj_id, 5), HDR_RESERVED,
	     "obj_id 5");
	BADP(MLX5_SET(general_obj_in_cmd_hdr, in, log_obj_range, 1),
	     HDR_RESERVED, "log_obj_range 1");
	BADP(MLX5_SET(general_obj_in_cmd_hdr, in, obj_type,
		      MLX5_GENERAL_OBJ_TYPE_CRYPTO_LOGIN), CRYPTO_TYPE,
	     "CRYPTO_LOGIN in plaintext mode");
#undef BLD
	ret = rfix_close(&f, ret);
	if (ret != TEST_SUCCESS)
		return ret;
	/* A device without crypto offers no DEK. */
	ret = rfix_open(&f, "crules_hdr0", 0, 0, 0);
	if (ret != TEST_SUCCESS)
		return ret;
#define BLD dek_mb(&f, in, dek_key, sizeof(dek_key))
	BADP(, CRYPTO_TYPE, "DEK without caps.crypto");
#undef BLD
	return rfix_close(&f, ret);
}

/* CREATE_GENERAL_OBJECT of a DEK: the fields no other suite changes. */
static int
test_rules_dek(void)
{
	uint32_t in[MLX5_ST_SZ_DW(create_dek_in)];
	const size_t n = sizeof(in);
	void *login = NULL;
	uint8_t w[48];
	struct rfix f;
	int ret;

#define BLD dek_mb(&f, in, dek_key, sizeof(dek_key))
	ret = rfix_open(&f, "crules_dek", 1, 0, 0);
	if (ret != TEST_SUCCESS)
		return ret;
	ACCEPT("DEK");
	REFUSE(BLD, (void)0, n - 4, OUT_LEN, ST_BAD_INP_LEN, S(INLEN), EIO,
	       "DEK inlen short");
	BADP(BYTE0(dek, DEK(in), reserved_at_80) = 1, CRYPTO_RESERVED,
	     "reserved_at_80");
	BADP(BYTE0(dek, DEK(in), modify_field_select) = 1,
	     CRYPTO_RESERVED, "modify_field_select");
	BADP(BYTE0(dek, DEK(in), reserved_at_600) = 1, CRYPTO_RESERVED,
	     "reserved_at_600");
	BADP(MLX5_SET(dek, DEK(in), has_keytag, 0), CRYPTO_RESERVED,
	     "keytag bytes without has_keytag");
#undef BLD
	ret = rfix_close(&f, ret);
	if (ret != TEST_SUCCESS)
		return ret;
	/* Wrapped mode, logged in with the provisioned officer objects. */
	if (crypto_key_wrap(kek, sizeof(kek), dek_key, sizeof(dek_key), w))
		return TEST_FAILED;
	ret = rfix_open(&f, "crules_dekw", 1, 1, 1);
	if (ret != TEST_SUCCESS)
		return ret;
	{
		uint32_t lin[MLX5_ST_SZ_DW(create_crypto_login_in)];

		login_mb(lin);
		ret = create_ok(&f, lin, sizeof(lin), &login, NULL, "login");
	}
#define BLD dek_mb(&f, in, w, sizeof(w))
	ACCEPT("wrapped DEK");
	BADP(((uint8_t *)MLX5_ADDR_OF(dek, DEK(in), key))[48] = 1,
	     CRYPTO_RESERVED, "byte past the wrapped key");
#undef BLD
	if (login != NULL && mlx5_glue->devx_obj_destroy(login) != 0 &&
	    ret == TEST_SUCCESS)
		ret = TEST_FAILED;
	return rfix_close(&f, ret);
}

/* IMPORT_KEK, CREDENTIAL and CRYPTO_LOGIN. */
static int
test_rules_login(void)
{
	uint32_t in[MLX5_ST_SZ_DW(create_crypto_login_in)];
	const size_t n = sizeof(in);
	uint8_t status = 0;
	uint32_t synd = 0;
	void *login = NULL, *kobj = NULL;
	uint32_t kid = 0;
	struct rfix f;
	int ret;

	/* create_import_kek_in, create_credential_in and
	 * create_crypto_login_in are all 272 bytes (mlx5_prm.h).
	 */
	ret = rfix_open(&f, "crules_login", 1, 1, 1);
	if (ret != TEST_SUCCESS)
		return ret;
#define BLD kek_mb(in)
	ACCEPT("IMPORT_KEK");
	REFUSE(BLD, (void)0, n - 4, OUT_LEN, ST_BAD_INP_LEN, S(INLEN), EIO,
	       "KEK inlen short");
	BADP(MLX5_SET(import_kek, KEK(in), state, 1), CRYPTO_RESERVED,
	     "KEK state 1");
	BADP(BYTE0(import_kek, KEK(in), modify_field_select) = 1,
	     CRYPTO_RESERVED, "KEK modify_field_select");
#undef BLD
#define BLD cred_mb(in)
	ACCEPT("CREDENTIAL");
	REFUSE(BLD, (void)0, n - 4, OUT_LEN, ST_BAD_INP_LEN, S(INLEN), EIO,
	       "CREDENTIAL inlen short");
	BADP(MLX5_SET(credential, CRED(in), state, 1), CRYPTO_RESERVED,
	     "CREDENTIAL state 1");
	BADP(BYTE0(credential, CRED(in), modify_field_select) = 1,
	     CRYPTO_RESERVED, "CREDENTIAL modify_field_select");
	BADP(((uint8_t *)MLX5_ADDR_OF(credential, CRED(in), credential))[40] =
	     1, CRYPTO_RESERVED, "byte past the credential");
#undef BLD
#define BLD login_mb(in)
	ACCEPT("CRYPTO_LOGIN");
	REFUSE(BLD, (void)0, n - 4, OUT_LEN, ST_BAD_INP_LEN, S(INLEN), EIO,
	       "LOGIN inlen short");
	BADP(BYTE0(crypto_login, LOGIN(in), modify_field_select) = 1,
	     CRYPTO_RESERVED, "LOGIN modify_field_select");
#undef BLD
	/* A KEK a login uses: RES_BUSY, EBUSY; free again after logout. */
	if (ret == TEST_SUCCESS) {
		kek_mb(in);
		ret = create_ok(&f, in, n, &kobj, &kid, "KEK");
	}
	if (ret == TEST_SUCCESS) {
		login_mb(in);
		MLX5_SET(crypto_login, LOGIN(in), session_import_kek_ptr, kid);
		ret = create_ok(&f, in, n, &login, NULL, "login on the KEK");
	}
	if (ret == TEST_SUCCESS) {
		if (mlx5_glue->devx_obj_destroy(kobj) != EBUSY ||
		    mlx5_emu_last_cmd_error(f.ctx, &status, &synd) != 0 ||
		    status != ST_RES_BUSY || synd != S(CRYPTO_BUSY)) {
			printf("KEK in use: status 0x%x syndrome 0x%x\n",
			       status, synd);
			ret = TEST_FAILED;
		}
	}
	if (login != NULL && mlx5_glue->devx_obj_destroy(login) != 0)
		ret = TEST_FAILED;
	if (kobj != NULL && mlx5_glue->devx_obj_destroy(kobj) != 0)
		ret = TEST_FAILED;
	return rfix_close(&f, ret);
}

/* QUERY_GENERAL_OBJECT of a DEK (a KEK is not queried). */
static int
query(void *o, uint16_t type, uint32_t id, size_t inlen, size_t outlen,
	uint8_t *st, uint32_t *synd)
{
	uint32_t in[MLX5_ST_SZ_DW(general_obj_in_cmd_hdr)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr) +
		     MLX5_ST_SZ_DW(dek)] = { 0 };
	int ret;

	MLX5_SET(general_obj_in_cmd_hdr, in, opcode,
		 MLX5_CMD_OP_QUERY_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type, type);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_id, id);
	ret = mlx5_glue->devx_obj_query(o, in, inlen, out, outlen);
	*st = MLX5_GET(general_obj_out_cmd_hdr, out, status);
	*synd = MLX5_GET(general_obj_out_cmd_hdr, out, syndrome);
	return ret;
}

#define QUERY_IS(o, type, id, il, ol, err, est, esy, what) do { \
	uint8_t st_; \
	uint32_t sy_; \
	int r_ = query(o, type, id, il, ol, &st_, &sy_); \
	TEST_ASSERT(r_ == (err) && st_ == (est) && sy_ == (uint32_t)(esy), \
		    "%s: errno %d status 0x%x syndrome 0x%x", what, r_, st_, \
		    sy_); \
} while (0)

static int
query_cases(struct rfix *f, void *dek, uint32_t id, void *kobj,
	    uint32_t kid)
{
	const size_t il = HDR_LEN, ol = OUT_LEN + MLX5_ST_SZ_BYTES(dek);
	const uint16_t td = MLX5_GENERAL_OBJ_TYPE_DEK;

	RTE_SET_USED(f);
	QUERY_IS(dek, td, id, il, ol, 0, 0, 0, "DEK query");
	QUERY_IS(dek, td, id, il - 4, ol, EIO, ST_BAD_INP_LEN, S(INLEN),
		 "query inlen 12");
	QUERY_IS(dek, td, id, il, OUT_LEN, EIO, ST_BAD_OUTP_LEN, S(OUTLEN),
		 "query outlen 16");
	QUERY_IS(dek, td, id + 1, il, ol, EINVAL, 0, 0, "query obj_id + 1");
	QUERY_IS(dek, MLX5_GENERAL_OBJ_TYPE_IMPORT_KEK, id, il, ol, EINVAL,
		 0, 0, "query obj_type IMPORT_KEK");
	QUERY_IS(kobj, MLX5_GENERAL_OBJ_TYPE_DEK, kid, il, ol, EINVAL,
		 0, 0, "query of a KEK as a DEK");
	QUERY_IS(kobj, MLX5_GENERAL_OBJ_TYPE_IMPORT_KEK, kid, il, ol, EINVAL,
		 ST_BAD_PARAM, S(CRYPTO_TYPE), "query of a KEK");
	return TEST_SUCCESS;
}

static int
test_rules_query(void)
{
	uint32_t in[MLX5_ST_SZ_DW(create_dek_in)];
	uint32_t kin[MLX5_ST_SZ_DW(create_import_kek_in)];
	void *login = NULL, *dek = NULL, *kobj = NULL;
	uint32_t id = 0, kid = 0;
	uint8_t w[48];
	struct rfix f;
	int ret;

	if (crypto_key_wrap(kek, sizeof(kek), dek_key, sizeof(dek_key), w))
		return TEST_FAILED;
	ret = rfix_open(&f, "crules_query", 1, 1, 1);
	if (ret != TEST_SUCCESS)
		return ret;
	login_mb(kin);
	ret = create_ok(&f, kin, sizeof(kin), &login, NULL, "login");
	if (ret == TEST_SUCCESS) {
		dek_mb(&f, in, w, sizeof(w));
		ret = create_ok(&f, in, sizeof(in), &dek, &id, "DEK");
	}
	if (ret == TEST_SUCCESS) {
		kek_mb(kin);
		ret = create_ok(&f, kin, sizeof(kin), &kobj, &kid, "KEK");
	}
	if (ret == TEST_SUCCESS)
		ret = query_cases(&f, dek, id, kobj, kid);
	if (kobj != NULL && mlx5_glue->devx_obj_destroy(kobj) != 0)
		ret = TEST_FAILED;
	if (dek != NULL && mlx5_glue->devx_obj_destroy(dek) != 0)
		ret = TEST_FAILED;
	if (login != NULL && mlx5_glue->devx_obj_destroy(login) != 0)
		ret = TEST_FAILED;
	return rfix_close(&f, ret);
}

/* A QP state command on the fixture's QP: its errno, status, syndrome. */
static int
qmod(struct xfix *x, uint16_t opcode, uint32_t qpn, size_t inlen,
	uint8_t *st, uint32_t *synd)
{
	uint32_t in[MLX5_ST_SZ_DW(init2rtr_qp_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(init2rtr_qp_out)] = { 0 };
	int ret;

	MLX5_SET(init2rtr_qp_in, in, opcode, opcode);
	MLX5_SET(init2rtr_qp_in, in, qpn, qpn);
	if (opcode == MLX5_CMD_OP_INIT2RTR_QP)
		MLX5_SET(qpc, MLX5_ADDR_OF(init2rtr_qp_in, in, qpc),
			 remote_qpn, x->qpn);
	ret = mlx5_glue->devx_obj_modify(x->qp, in, inlen, out, sizeof(out));
	*st = MLX5_GET(init2rtr_qp_out, out, status);
	*synd = MLX5_GET(init2rtr_qp_out, out, syndrome);
	return ret;
}

#define QMOD_IS(op, qpn, il, err, est, esy, what) do { \
	uint8_t st_; \
	uint32_t sy_; \
	int r_ = qmod(x, op, qpn, il, &st_, &sy_); \
	TEST_ASSERT(r_ == (err) && st_ == (est) && sy_ == (uint32_t)(esy), \
		    "%s: errno %d status 0x%x syndrome 0x%x", what, r_, st_, \
		    sy_); \
} while (0)

/* RST2INIT, INIT2RTR, RTR2RTS, 2ERR, 2RST of the fixture's QP (in RTS). */
static int
qp_state_cases(struct xfix *x)
{
	const size_t il = MLX5_ST_SZ_BYTES(init2rtr_qp_in);
	const size_t rl = MLX5_ST_SZ_BYTES(2rst_qp_in);

	QMOD_IS(MLX5_CMD_OP_QP_2ERR, x->qpn + 1, il, EINVAL, 0, 0,
		"2ERR qpn + 1");
	QMOD_IS(MLX5_CMD_OP_QP_2ERR, x->qpn, rl - 4, EIO, ST_BAD_INP_LEN,
		S(INLEN), "2ERR inlen short");
	QMOD_IS(MLX5_CMD_OP_QP_2ERR, x->qpn, rl, 0, 0, 0, "2ERR");
	QMOD_IS(MLX5_CMD_OP_QP_2RST, x->qpn, rl, 0, 0, 0, "2RST");
	QMOD_IS(MLX5_CMD_OP_INIT2RTR_QP, x->qpn, il, EINVAL, 0x09,
		S(QP_STATE), "INIT2RTR in RST");
	QMOD_IS(MLX5_CMD_OP_RST2INIT_QP, x->qpn, rl, EIO, ST_BAD_INP_LEN,
		S(INLEN), "RST2INIT inlen of 2rst_qp_in");
	QMOD_IS(MLX5_CMD_OP_RST2INIT_QP, x->qpn, il, 0, 0, 0, "RST2INIT");
	QMOD_IS(MLX5_CMD_OP_RTR2RTS_QP, x->qpn, il, EINVAL, 0x09,
		S(QP_STATE), "RTR2RTS in INIT");
	QMOD_IS(MLX5_CMD_OP_INIT2RTR_QP, x->qpn, il, 0, 0, 0, "INIT2RTR");
	QMOD_IS(MLX5_CMD_OP_RTR2RTS_QP, x->qpn, il, 0, 0, 0, "RTR2RTS");
	return TEST_SUCCESS;
}

#define QPC(in) MLX5_ADDR_OF(create_qp_in, in, qpc)
#define SET_QPC(fld, v) MLX5_SET(qpc, QPC(in), fld, v)

/* CREATE_QP (the loopback RC QP of the crypto engine), QP commands. */
static int
test_rules_qp(void)
{
	uint32_t in[MLX5_ST_SZ_DW(create_qp_in)];
	const size_t n = sizeof(in);
	struct xfix xf, *x = &xf;
	struct rfix f;
	int ret;

	ret = xfix_open(x, "crules_qp");
	if (ret != TEST_SUCCESS)
		return ret;
	memset(&f, 0, sizeof(f));
	f.ctx = x->ctx;
#define BLD qp_in_fill(x, in)
	ACCEPT("QP");
	REFUSE(BLD, (void)0, n - 4, OUT_LEN, ST_BAD_INP_LEN, S(INLEN), EIO,
	       "QP inlen short");
	REFUSE(BLD, (void)0, n, 8, ST_BAD_OUTP_LEN, S(OUTLEN), EIO,
	       "QP outlen 8");
	BADP(SET_QPC(pm_state, 0), QP_CTX, "pm_state 0");
	BADP(SET_QPC(state, 1), QP_CTX, "state INIT");
	BADP(SET_QPC(no_sq, 1), QP_CTX, "no_sq");
	BADP(SET_QPC(rq_type, MLX5_NON_ZERO_RQ), QP_CTX, "rq_type regular");
	BADP(SET_QPC(ts_format, 3), QP_CTX, "ts_format 3");
	BADP(SET_QPC(wq_signature, 1), QP_CTX, "wq_signature");
	BADP(SET_QPC(cd_master, 1), QP_CTX, "cd_master");
	BADP(SET_QPC(page_offset, 1), QP_CTX, "page_offset 1");
	BADP(MLX5_SET(create_qp_in, in, qpc_ext, 1), QP_CTX, "qpc_ext");
	REFUSE(BLD, SET_QPC(pd, x->pdn + 1), n, OUT_LEN, ST_BAD_RES,
	       S(CRYPTO_PD), EINVAL, "pd unknown");
	BADP(MLX5_SET(create_qp_in, in, wq_umem_valid, 0), NET_UMEM,
	     "wq_umem_valid 0");
	BADP(SET_QPC(dbr_umem_valid, 0), NET_UMEM, "dbr_umem_valid 0");
	BADP(MLX5_SET(create_qp_in, in, wq_umem_id, x->umem->umem_id + 1),
	     NET_UMEM, "wq_umem_id unknown");
	BADP(SET_QPC(dbr_umem_id, x->umem->umem_id + 1), NET_UMEM,
	     "dbr_umem_id unknown");
	BADP(set_be64(MLX5_ADDR_OF(qpc, QPC(in), dbr_addr),
		      (WQEBB << LOG_SQ) + 4), NET_DBR, "dbr_addr 4 B aligned");
	BADP(set_be64(MLX5_ADDR_OF(qpc, QPC(in), dbr_addr),
		      (WQEBB << LOG_SQ) + 64), NET_DBR, "dbr past its umem");
	BADP(set_be64(MLX5_ADDR_OF(create_qp_in, in, wq_umem_offset), 4096),
	     NET_UMEM_RANGE, "wq_umem_offset 4096");
#undef BLD
	if (ret == TEST_SUCCESS)
		ret = qp_state_cases(x);
	if (ret == TEST_SUCCESS)
		return xfix_close(x);
	xfix_close(x);
	return ret;
}

#define MKC(in) MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry)
#define SET_MKC(fld, v) MLX5_SET(mkc, MKC(in), fld, v)

static void
mkey_no_tr(uint32_t *in)
{
	SET_MKC(translations_octword_size, 0);
	MLX5_SET(create_mkey_in, in, translations_octword_actual_size, 0);
}

static void
mkey_bsf_only(uint32_t *in)
{
	SET_MKC(crypto_en, 0);
	SET_MKC(bsf_octword_size, 0);
}

/* CREATE_MKEY of the indirect crypto mkey (4 KLMs). */
static int
test_rules_mkey(void)
{
	uint32_t in[MKEY_IN_LEN / 4];
	const size_t n = sizeof(in);
	struct xfix xf, *x = &xf;
	struct rfix f;
	int ret;

	ret = xfix_open(x, "crules_mkey");
	if (ret != TEST_SUCCESS)
		return ret;
	memset(&f, 0, sizeof(f));
	f.ctx = x->ctx;
#define BLD mkey_in_fill(x, in)
	ACCEPT("mkey");
	REFUSE(BLD, (void)0, MLX5_ST_SZ_BYTES(create_mkey_in) - 4, OUT_LEN,
	       ST_BAD_INP_LEN, S(INLEN), EIO, "mkey inlen short");
	REFUSE(BLD, (void)0, n, 8, ST_BAD_OUTP_LEN, S(OUTLEN), EIO,
	       "mkey outlen 8");
	BADP(SET_MKC(access_mode_4_2, 1), MKEY_CTX, "access_mode_4_2 1");
	BADP(SET_MKC(free, 1), MKEY_CTX, "free");
	BADP(SET_MKC(length64, 1), MKEY_CTX, "length64");
	BADP(SET_MKC(sync_umr, 1), MKEY_CTX, "sync_umr");
	BADP(SET_MKC(expected_sigerr_count, 1), MKEY_CTX,
	     "expected_sigerr_count");
	BADP(SET_MKC(log_page_size, 12), MKEY_CTX, "log_page_size 12");
	BADP(SET_MKC(qpn, 0), MKEY_CTX, "qpn 0");
	BADP(MLX5_SET(create_mkey_in, in, pg_access, 1), MKEY_CTX,
	     "pg_access");
	BADP(MLX5_SET(create_mkey_in, in, mkey_umem_id, 1), MKEY_CTX,
	     "mkey_umem_id 1");
	BADP(mkey_no_tr(in), MKEY_CTX, "no translations");
	BADP(SET_MKC(translations_octword_size, 1025), MKEY_CTX,
	     "1025 translations");
	BADP(SET_MKC(crypto_en, 2), MKEY_CTX, "crypto_en 2");
	BADP(SET_MKC(bsf_octword_size, 3), MKEY_CTX, "bsf_octword_size 3");
	BADP(mkey_bsf_only(in), MKEY_CTX, "bsf_en without crypto_en");
#undef BLD
	if (ret == TEST_SUCCESS)
		return xfix_close(x);
	xfix_close(x);
	return ret;
}

/* CREATE_QP on a device without caps.crypto: no QP model. */
static int
test_rules_qp_nocrypto(void)
{
	uint32_t in[MLX5_ST_SZ_DW(create_qp_in)];
	const size_t n = sizeof(in);
	struct rfix f;
	int ret;

	ret = rfix_open(&f, "crules_qp0", 0, 0, 0);
	if (ret != TEST_SUCCESS)
		return ret;
#define BLD do { \
		memset(in, 0, n); \
		MLX5_SET(create_qp_in, in, opcode, MLX5_CMD_OP_CREATE_QP); \
	} while (0)
	REFUSE(BLD, (void)0, n, OUT_LEN, ST_BAD_OP, S(BAD_OPCODE), EINVAL,
	       "CREATE_QP without caps.crypto");
#undef BLD
#define BLD do { \
		memset(in, 0, n); \
		MLX5_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY); \
	} while (0)
	REFUSE(BLD, (void)0, MLX5_ST_SZ_BYTES(create_mkey_in), OUT_LEN,
	       ST_BAD_OP, S(BAD_OPCODE), EINVAL,
	       "CREATE_MKEY without caps.crypto");
#undef BLD
	return rfix_close(&f, ret);
}

/* --- WQE checks: an error CQE, then the next WQE flushed ------------- */

static void
st32(uint8_t *p, uint32_t v)
{
	v = rte_cpu_to_be_32(v);
	memcpy(p, &v, sizeof(v));
}

/* Byte off of the WQE at WQEBB index pi (fields lie inside a WQEBB). */
static uint8_t *
wb(struct xfix *x, uint16_t pi, unsigned int off)
{
	return wqe_at(x, pi + off / WQEBB) + off % WQEBB;
}

/* A NOP with a CQE on success; its index. */
static uint16_t
post_nop(struct xfix *x, unsigned int ds)
{
	uint16_t idx = x->pi;

	memset(wqe_at(x, idx), 0, WQEBB);
	st32(wb(x, idx, 0), (uint32_t)idx << 8 | MLX5_OPCODE_NOP);
	st32(wb(x, idx, 4), x->qpn << 8 | ds);
	st32(wb(x, idx, 8), CE_ALWAYS);
	x->pi++;
	return idx;
}

/* Run what is posted: an error CQE (op at), the flush of the WQEs
 * after it (opcode nop, one WQEBB each, from next up to the producer
 * index), nothing more; the QP back to RTS.
 */
static int
wqe_refused(struct xfix *x, uint8_t op, uint16_t at, uint8_t synd,
	    uint8_t vsynd, uint8_t nop, uint16_t next, const char *what)
{
	ring_db(x);
	TEST_ASSERT_SUCCESS(expect_cqe(x, MLX5_CQE_REQ_ERR, synd, vsynd, op,
				       at), "%s: error CQE", what);
	for (; next != x->pi; next++)
		TEST_ASSERT_SUCCESS(expect_cqe(x, MLX5_CQE_REQ_ERR, 0x05, 0,
					       nop, next), "%s: flushed",
				    what);
	TEST_ASSERT_SUCCESS(no_cqe(x), "%s: nothing more", what);
	TEST_ASSERT_SUCCESS(qp_cmd(x, MLX5_CMD_OP_QP_2RST), "2RST");
	return qp_to_rts(x);
}

struct wctx {
	struct xfix *x;
	struct bsf_p b;
	struct seg s, t;
	uint64_t ulen;
	uint64_t raddr;
	uint16_t pu, pw, pw2;
};

/* UMR, then two RDMA writes of the message through the crypto mkey. */
static void
wpost(struct wctx *c)
{
	c->pu = c->x->pi;
	post_umr(c->x, &c->t, 1, c->ulen, &c->b);
	c->pw = post_write(c->x, &c->s, 1, c->raddr, c->x->mkey_key);
	c->pw2 = post_write(c->x, &c->s, 1, c->raddr, c->x->mkey_key);
}

static void
wreset(struct wctx *c, struct xfix *x, uint32_t dek)
{
	memset(c, 0, sizeof(*c));
	c->x = x;
	bsf_init(&c->b, dek, 512);
	c->s = (struct seg){ 512, x->mr->lkey, x->buf };
	c->t = (struct seg){ 1024, x->mr->lkey, x->buf + 4096 };
	c->ulen = 1024;
}

/* In wqe_cases(): a mutation of the UMR (refused) or of the first write
 * (refused after the UMR ran), the expected syndromes.
 */
#define UMR_BAD(mut, synd, vsynd, what) do { \
	wreset(&c, x, dek); \
	wpost(&c); \
	mut; \
	TEST_ASSERT_SUCCESS(wqe_refused(x, OP_UMR, c.pu, synd, vsynd, \
					OP_RDMA_WRITE, c.pw, what), what); \
} while (0)
#define WR_BAD(prep, mut, synd, vsynd, what) do { \
	wreset(&c, x, dek); \
	prep; \
	wpost(&c); \
	mut; \
	TEST_ASSERT_SUCCESS(wqe_refused(x, OP_RDMA_WRITE, c.pw, synd, \
					vsynd, OP_RDMA_WRITE, c.pw2, what), \
			    what); \
} while (0)
#define BSF0(v) st32(wb(x, c.pu, 192), v)
#define BSF0_OK (2u << 30 | 1u << 24 | (uint32_t)ORDER_RAW_MEMORY << 16)

static int
wqe_cases(struct xfix *x, uint32_t dek, uint32_t dek_pd2, uint32_t plain_key)
{
	struct wctx c;
	uint16_t n;

	/* Accepted: UMR, write (a requester CQE), NOP (a CQE). */
	wreset(&c, x, dek);
	wpost(&c);
	n = post_nop(x, 1);
	ring_db(x);
	TEST_ASSERT_SUCCESS(expect_cqe(x, MLX5_CQE_REQ, 0, 0, OP_RDMA_WRITE,
				       c.pw), "write");
	TEST_ASSERT_SUCCESS(expect_cqe(x, MLX5_CQE_REQ, 0, 0, OP_RDMA_WRITE,
				       c.pw2), "write 2");
	TEST_ASSERT_SUCCESS(expect_cqe(x, MLX5_CQE_REQ, 0, 0,
				       MLX5_OPCODE_NOP, n), "NOP");
	/* Every WQE: control segment. */
	UMR_BAD(st32(wb(x, c.pu, 4), (x->qpn + 1) << 8 | 16), 0x02, 0,
		"ctrl qpn + 1");
	wreset(&c, x, dek);
	wpost(&c);
	st32(wb(x, c.pu, 0), (uint32_t)(c.pu + 1) << 8 | OP_UMR);
	TEST_ASSERT_SUCCESS(wqe_refused(x, OP_UMR, c.pu + 1, 0x02, 0,
					OP_RDMA_WRITE, c.pw, "wqe_index + 1"),
			    "wqe_index");
	wreset(&c, x, dek);
	wpost(&c);
	st32(wb(x, c.pu, 0), (uint32_t)c.pu << 8 | 0x01);
	TEST_ASSERT_SUCCESS(wqe_refused(x, 0x01, c.pu, 0x02, 0,
					OP_RDMA_WRITE, c.pw, "opcode 0x01"),
			    "opcode");
	n = post_nop(x, 0);
	c.pw = post_write(x, &c.s, 1, 0, x->mkey_key);
	TEST_ASSERT_SUCCESS(wqe_refused(x, MLX5_OPCODE_NOP, n, 0x02, 0,
					OP_RDMA_WRITE, c.pw, "ds 0"), "ds 0");
	/* UMR. */
	UMR_BAD(st32(wb(x, c.pu, 16), 0), 0x02, 0, "UMR inline bit clear");
	UMR_BAD(st32(wb(x, c.pu, 28), 3), 0x02, 0, "mkey_mask 3");
	UMR_BAD(st32(wb(x, c.pu, 20), 5u << 16 | 4u), 0x02, 0, "KO 5");
	UMR_BAD(st32(wb(x, c.pu, 4), x->qpn << 8 | 15), 0x02, 0,
		"UMR ds 15");
	UMR_BAD(st32(wb(x, c.pu, 12), plain_key), 0x02, 0,
		"BSF on an mkey without crypto_en");
	UMR_BAD(BSF0(1u << 30 | 1u << 24 | ORDER_RAW_MEMORY << 16), 0x02,
		0x04, "bsf_size 1");
	UMR_BAD(BSF0(2u << 30 | ORDER_RAW_MEMORY << 16), 0x02, 0x04,
		"bsf_p_type 0");
	UMR_BAD(BSF0(2u << 30 | 1u << 24 | 1u << 16), 0x02, 0x04,
		"encryption_order 1");
	UMR_BAD(BSF0(BSF0_OK | 1u), 0x02, 0x04, "encryption_standard 1");
	UMR_BAD(st32(wb(x, c.pu, 200), 2u << 24), 0x02, 0x04,
		"block size 520");
	/* RDMA write. */
	WR_BAD((void)0, st32(wb(x, c.pw, 4), x->qpn << 8 | 2), 0x02, 0,
	       "write ds 2");
	WR_BAD((void)0, st32(wb(x, c.pw, 32), 0), 0x01, 0, "byte_count 0");
	WR_BAD(c.raddr = 1024 - 511, (void)0, 0x13, 0, "raddr past the mkey");
	WR_BAD((c.b.raw = 8, c.s.len = 8), (void)0, 0x01, 0, "8-byte message");
	WR_BAD((c.b.raw = 768, c.s.len = 768), (void)0, 0x01, 0,
	       "768 bytes in 512 B units");
	WR_BAD(c.b.dek = dek_pd2, (void)0, 0x14, 0x02, "DEK of another PD");
	WR_BAD((void)0, st32(wb(x, c.pu, 20), 4u << 16), 0x14, 0x04,
	       "UMR without BSF");
	WR_BAD(c.t.key = x->mr->lkey + 1, (void)0, 0x13, 0,
	       "KLM target not an MR");
	return TEST_SUCCESS;
}

/* An indirect mkey like the fixture's, without crypto; its key. */
static struct mlx5dv_devx_obj *
plain_mkey(struct xfix *x, uint32_t *key)
{
	uint32_t in[MKEY_IN_LEN / 4];
	uint32_t out[MLX5_ST_SZ_DW(create_mkey_out)] = { 0 };
	struct mlx5dv_devx_obj *o;

	mkey_in_fill(x, in);
	MLX5_SET(mkc, MKC(in), crypto_en, 0);
	MLX5_SET(mkc, MKC(in), bsf_en, 0);
	MLX5_SET(mkc, MKC(in), bsf_octword_size, 0);
	o = mlx5_glue->devx_obj_create(x->ctx, in, sizeof(in), out,
				       sizeof(out));
	*key = MLX5_GET(create_mkey_out, out, mkey_index) << 8 |
	       MLX5_GET(mkc, MKC(in), mkey_7_0);
	return o;
}

/* WQE execution on the loopback QP: UMR, RDMA write, NOP. */
static int
test_rules_wqe(void)
{
	static const uint8_t key[32] = {
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
		17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
	};
	struct mlx5dv_devx_obj *d = NULL, *d2 = NULL, *plain;
	uint32_t id = 0, id2 = 0, pdn, pdn2, plain_key = 0;
	struct ibv_pd *pd2;
	struct xfix xf;
	int ret;

	TEST_ASSERT_SUCCESS(xfix_open(&xf, "crules_wqe"), "fixture");
	TEST_ASSERT_SUCCESS(pd_open(xf.ctx, &pd2, &pdn2), "second PD");
	d = dek_make(&xf, key, 16, &id);
	pdn = xf.pdn;
	xf.pdn = pdn2;
	d2 = dek_make(&xf, key, 16, &id2);
	xf.pdn = pdn;
	plain = plain_mkey(&xf, &plain_key);
	ret = d != NULL && d2 != NULL && plain != NULL ?
	      wqe_cases(&xf, id, id2, plain_key) : TEST_FAILED;
	if (plain != NULL)
		mlx5_glue->devx_obj_destroy(plain);
	if (d2 != NULL)
		mlx5_glue->devx_obj_destroy(d2);
	if (d != NULL)
		mlx5_glue->devx_obj_destroy(d);
	mlx5_glue->dealloc_pd(pd2);
	if (ret == TEST_SUCCESS)
		return xfix_close(&xf);
	xfix_close(&xf);
	return ret;
}

static struct unit_test_suite emu_crypto_rules_suite = {
	.suite_name = "emu_crypto_rules",
	.unit_test_cases = {
		TEST_CASE(test_rules_gobj_hdr),
		TEST_CASE(test_rules_dek),
		TEST_CASE(test_rules_login),
		TEST_CASE(test_rules_query),
		TEST_CASE(test_rules_qp),
		TEST_CASE(test_rules_mkey),
		TEST_CASE(test_rules_qp_nocrypto),
		TEST_CASE(test_rules_wqe),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_crypto_rules, emu_crypto_rules_suite);
