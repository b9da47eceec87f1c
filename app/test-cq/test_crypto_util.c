/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/* Helpers of the crypto PMD suites and perf-crypto (test_crypto_util.h). */

#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include <rte_dev.h>
#include <rte_mbuf.h>

#include <mlx5_emu.h>

#include "test_crypto_util.h"
#include "test_net_util.h"

int
crypto_pools_make(struct crypto_pools *p, const char *prefix, unsigned int n)
{
	char name[RTE_MEMPOOL_NAMESIZE];

	memset(p, 0, sizeof(*p));
	/* Linked into the program (dpdk-test of a DPDK tree): no second
	 * copy from a shared library.
	 */
	if (rte_cryptodev_driver_id_get("crypto_mlx5cq") < 0 &&
	    pmd_lib_load("librte_crypto_mlx5cq.so") != 0)
		return -1;
	snprintf(name, sizeof(name), "%s_m", prefix);
	p->mbuf = rte_pktmbuf_pool_create(name, n, 0, 0,
					  2048 + RTE_PKTMBUF_HEADROOM,
					  SOCKET_ID_ANY);
	snprintf(name, sizeof(name), "%s_o", prefix);
	p->op = rte_crypto_op_pool_create(name, RTE_CRYPTO_OP_TYPE_SYMMETRIC,
					  n, 0, 16, SOCKET_ID_ANY);
	snprintf(name, sizeof(name), "%s_s", prefix);
	p->sess = rte_cryptodev_sym_session_pool_create(name, 16, 128, 0, 0,
							SOCKET_ID_ANY);
	if (p->mbuf == NULL || p->op == NULL || p->sess == NULL) {
		crypto_pools_free(p);
		return -1;
	}
	return 0;
}

void
crypto_pools_free(struct crypto_pools *p)
{
	rte_mempool_free(p->sess);
	rte_mempool_free(p->op);
	rte_mempool_free(p->mbuf);
	memset(p, 0, sizeof(*p));
}

int
crypto_caps(int crypto, int wrapped)
{
	struct mlx5_emu_caps caps;

	mlx5_emu_caps_default(&caps);
	caps.crypto = crypto;
	caps.crypto_wrapped = wrapped;
	return mlx5_emu_open_caps_set(&caps);
}

int
crypto_dev_up(const char *name, const char *args, uint16_t nb_desc,
	      struct rte_mempool *session_mp, uint8_t *id)
{
	return crypto_dev_up_caps(name, args, NULL, nb_desc, session_mp, id);
}

int
crypto_dev_up_caps(const char *name, const char *args,
		   const struct mlx5_emu_caps *caps, uint16_t nb_desc,
		   struct rte_mempool *session_mp, uint8_t *id)
{
	struct rte_cryptodev_config conf = {
		.socket_id = SOCKET_ID_ANY,
		.nb_queue_pairs = 1,
	};
	struct rte_cryptodev_qp_conf qconf = {
		.nb_descriptors = nb_desc,
		.mp_session = session_mp,
	};
	int ret;

	if (caps != NULL ? mlx5_emu_open_caps_set(caps) != 0 :
	    crypto_caps(1, 0) != 0)
		return -1;
	ret = rte_eal_hotplug_add("vdev", name, args);
	mlx5_emu_open_caps_set(NULL);
	if (ret != 0)
		return -1;
	ret = rte_cryptodev_get_dev_id(name);
	if (ret < 0) {
		rte_eal_hotplug_remove("vdev", name);
		return -1;
	}
	*id = (uint8_t)ret;
	if (rte_cryptodev_configure(*id, &conf) != 0 ||
	    (nb_desc != 0 &&
	     (rte_cryptodev_queue_pair_setup(*id, 0, &qconf,
					     SOCKET_ID_ANY) != 0 ||
	      rte_cryptodev_start(*id) != 0))) {
		rte_cryptodev_close(*id);
		rte_eal_hotplug_remove("vdev", name);
		return -1;
	}
	return 0;
}

int
crypto_dev_down(const char *name, uint8_t id)
{
	rte_cryptodev_stop(id);
	if (rte_cryptodev_close(id) != 0)
		return -1;
	return rte_eal_hotplug_remove("vdev", name);
}

void
crypto_xform_fill(struct rte_crypto_sym_xform *x, const uint8_t *key,
		  uint16_t key_len, enum rte_crypto_cipher_operation op,
		  uint32_t du_len)
{
	memset(x, 0, sizeof(*x));
	x->type = RTE_CRYPTO_SYM_XFORM_CIPHER;
	x->cipher.algo = RTE_CRYPTO_CIPHER_AES_XTS;
	x->cipher.op = op;
	x->cipher.key.data = key;
	x->cipher.key.length = key_len;
	x->cipher.iv.offset = CRYPTO_IV_OFF;
	x->cipher.iv.length = 16;
	x->cipher.dataunit_len = du_len;
}

int
crypto_key_wrap(const uint8_t *kek, unsigned int kek_len, const uint8_t *in,
		unsigned int inlen, uint8_t *out)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int outl = 0, fin = 0, ok;

	if (c == NULL)
		return -1;
	EVP_CIPHER_CTX_set_flags(c, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
	ok = EVP_EncryptInit_ex(c, kek_len == 16 ? EVP_aes_128_wrap() :
				EVP_aes_256_wrap(), NULL, kek, NULL) == 1 &&
	     EVP_EncryptUpdate(c, out, &outl, in, (int)inlen) == 1 &&
	     EVP_EncryptFinal_ex(c, out + outl, &fin) == 1 &&
	     outl + fin == (int)inlen + 8;
	EVP_CIPHER_CTX_free(c);
	return ok ? 0 : -1;
}
