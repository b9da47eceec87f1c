/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The fixture of the crypto_mlx5cq suites (test_crypto_fixture.h): the
 * cryptodev PMD on the emulated HCA through the cryptodev API. Devices are
 * made with rte_vdev_init("crypto_mlx5cq..", "dev=emu,...") on emulated
 * devices whose capabilities are set with mlx5_emu_open_caps_set() (crypto
 * engine on, plaintext or wrapped key import). Known answers are IEEE 1619
 * XTS-AES vectors 4 and 10 (test_xts_vectors.h), encrypted and decrypted
 * in place and out of place, contiguous and scattered over mbuf chains,
 * with and without a session data-unit length.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <mlx5_emu.h>

#include "test.h"
#include "test_crypto_fixture.h"
#include "test_wait.h"
#include "test_xts_vectors.h"

struct crypto_pools c_pools;
/*
 * What DPDK 22.11's cryptodev library itself leaves on the heap for one
 * device configured with one queue pair and closed: what
 * rte_cryptodev_configure() allocates (the queue-pair pointer array of
 * max_nb_queue_pairs entries in rte_cryptodev_queue_pairs_config, the
 * callback lists of cryptodev_cb_init) is freed only by a later configure
 * of the same device, never at close. Measured once on crypto_null
 * (DPDK's own PMD), then its pointer array replaced by one of this PMD's
 * max_nb_queue_pairs, and allowed in the device leak checks.
 */
static struct heap_use c_lib_leak;

/* rte_malloc size of the queue-pair pointer array of a device. */
static uint64_t
qp_array_bytes(uint8_t id)
{
	struct rte_cryptodev_info info;

	rte_cryptodev_info_get(id, &info);
	return RTE_ALIGN_CEIL(sizeof(void *) * info.max_nb_queue_pairs,
			      RTE_CACHE_LINE_SIZE);
}

static int
crypto_lib_leak_measure(void)
{
	struct heap_use a, b;
	uint64_t null_qps = 0, own_qps;
	uint8_t id;
	int i;

	for (i = 0; i < 2; i++) { /* The first one warms the library up. */
		heap_use(&a);
		if (crypto_dev_up("crypto_null", "", 0, NULL, &id) != 0) {
			printf("crypto_null: cannot probe (Debian's PMD)\n");
			return -1;
		}
		null_qps = qp_array_bytes(id);
		if (crypto_dev_down("crypto_null", id) != 0)
			return -1;
		heap_use(&b);
	}
	if (crypto_caps(1, 0) != 0 ||
	    crypto_dev_up(C_NAME, "dev=emu", 0, NULL, &id) != 0)
		return -1;
	own_qps = qp_array_bytes(id);
	if (crypto_dev_down(C_NAME, id) != 0)
		return -1;
	c_lib_leak.heap_bytes = b.heap_bytes - a.heap_bytes - null_qps +
				own_qps;
	c_lib_leak.alloc_count = b.alloc_count - a.alloc_count;
	return 0;
}

int
crypto_suite_setup(void)
{
	/* Measured once a process: each crypto suite's set-up would
	 * otherwise measure on device ids an earlier suite left configured,
	 * where the library frees the old array instead of leaving one.
	 */
	static int measured;

	if (crypto_pools_make(&c_pools, "crypto_mlx5cq_t", C_NB_MBUF) != 0)
		return -1;
	if (measured)
		return 0;
	measured = 1;
	return crypto_lib_leak_measure();
}

void
crypto_suite_teardown(void)
{
	crypto_pools_free(&c_pools);
}

/*
 * 0 when the heap use is what before holds (plus what the cryptodev
 * library leaves for each device closed since: devs), else -1 with a
 * line. The allocations count exactly. The library's leftovers of a
 * device (the callback lists rte_cryptodev_configure() makes and close
 * does not free) are cache-line aligned: their bytes, as the heap counts
 * them, take up to one cache line of padding more or less than at the
 * measure, by where each lands; so per leftover allocation the bytes may
 * differ by that much. Without a device closed the bytes count exactly.
 */
int
heap_unchanged_devs(const struct heap_use *before, unsigned int devs,
		    const char *what)
{
	uint64_t slack = (uint64_t)devs * c_lib_leak.alloc_count *
			 RTE_CACHE_LINE_SIZE;
	uint64_t want = before->heap_bytes + devs * c_lib_leak.heap_bytes;
	struct heap_use after;

	heap_use(&after);
	if (after.heap_bytes + slack >= want &&
	    after.heap_bytes <= want + slack &&
	    before->alloc_count + devs * c_lib_leak.alloc_count ==
	    after.alloc_count)
		return 0;
	printf("  %s leaked: %" PRIu64 " B / %" PRIu64 " allocations -> %"
	       PRIu64 " B / %" PRIu64 " (devices closed: %u, the library "
	       "leaves %" PRIu64 " B / %" PRIu64 " each)\n", what,
	       before->heap_bytes, before->alloc_count, after.heap_bytes,
	       after.alloc_count, devs, c_lib_leak.heap_bytes,
	       c_lib_leak.alloc_count);
	return -1;
}

int
heap_unchanged(const struct heap_use *before, const char *what)
{
	return heap_unchanged_devs(before, 0, what);
}

int
dev_down(uint8_t id)
{
	return crypto_dev_down(C_NAME, id);
}

int
dev_up(const char *args, uint8_t *id)
{
	return crypto_dev_up(C_NAME, args, C_QDESC, c_pools.sess, id);
}

/* An mbuf chain holding len bytes of data (NULL: zeros) split at the
 * lengths of segs (0-terminated; the last segment takes the rest).
 */
struct rte_mbuf *
chain_make(const uint8_t *data, uint32_t len, const uint16_t *segs)
{
	struct rte_mbuf *head = NULL, *m;
	uint32_t off = 0;
	uint16_t l;

	while (off < len) {
		l = (segs != NULL && *segs != 0) ? *segs++ : len - off;
		if (l > len - off)
			l = len - off;
		m = rte_pktmbuf_alloc(c_pools.mbuf);
		if (m == NULL || rte_pktmbuf_append(m, l) == NULL) {
			rte_pktmbuf_free(m);
			rte_pktmbuf_free(head);
			return NULL;
		}
		if (data != NULL)
			memcpy(rte_pktmbuf_mtod(m, void *), data + off, l);
		else
			memset(rte_pktmbuf_mtod(m, void *), 0, l);
		if (head == NULL)
			head = m;
		else if (rte_pktmbuf_chain(head, m) != 0) {
			rte_pktmbuf_free(m);
			rte_pktmbuf_free(head);
			return NULL;
		}
		off += l;
	}
	return head;
}

/* Run one operation to completion: its status, or -1. */
int
op_run(uint8_t id, struct rte_crypto_op *op)
{
	struct rte_crypto_op *out = NULL;
	uint64_t deadline = test_wait_deadline(TEST_WAIT_S);

	if (rte_cryptodev_enqueue_burst(id, 0, &op, 1) != 1)
		return -1;
	while (rte_cryptodev_dequeue_burst(id, 0, &out, 1) == 0)
		if (test_wait_expired(deadline))
			return -1;
	if (out != op)
		return -1;
	return op->status;
}

const struct kat_case kat_cases[KAT_NB_CASES] = {
	{ "v4 in-place", KAT_V4, 0, 0, { 0 }, { 0 } },
	{ "v4 in-place du512", KAT_V4, 512, 0, { 0 }, { 0 } },
	{ "v4 oop", KAT_V4, 512, 1, { 0 }, { 0 } },
	{ "v4 in-place sgl", KAT_V4, 0, 0, { 100, 300, 0 }, { 0 } },
	{ "v4 oop sgl->sgl", KAT_V4, 512, 1, { 17, 200, 0 }, { 256, 64, 0 } },
	{ "v10 in-place", KAT_V10, 0, 0, { 0 }, { 0 } },
	{ "v10 oop lb->sgl", KAT_V10, 512, 1, { 0 }, { 128, 128, 128, 0 } },
	{ "v10 oop sgl->lb", KAT_V10, 0, 1, { 500, 0 }, { 0 } },
	{ "v4+v5 du512", KAT_V4V5, 512, 0, { 0 }, { 0 } },
	{ "v4+v5 du512 oop sgl", KAT_V4V5, 512, 1, { 700, 0 },
	  { 300, 300, 0 } },
};

/* Key, IV, plaintext and ciphertext of a case; its length. */
static uint32_t
kat_data(enum kat_vec v, const uint8_t **key, uint16_t *key_len,
	 uint8_t iv[16], uint8_t *pt, const uint8_t **ct0,
	 const uint8_t **ct1)
{
	unsigned int i;

	memset(iv, 0, 16);
	for (i = 0; i < 512; i++)
		pt[i] = (uint8_t)i;
	*ct1 = NULL;
	switch (v) {
	case KAT_V10:
		*key = xts_v10_key;
		*key_len = sizeof(xts_v10_key);
		iv[0] = 0xff;
		*ct0 = xts_v10_ctx;
		return 512;
	case KAT_V4V5:
		memcpy(pt + 512, xts_v4_ctx, 512);
		*ct1 = xts_v5_ctx;
		/* fall through */
	default:
		*key = xts_v4_key;
		*key_len = sizeof(xts_v4_key);
		*ct0 = xts_v4_ctx;
		return *ct1 != NULL ? 1024 : 512;
	}
}

/* One known answer, one direction: 0 when the output is the expected. */
int
kat_one(uint8_t id, const struct kat_case *c, int encrypt)
{
	uint8_t pt[KAT_MAX], ct[KAT_MAX], out[KAT_MAX], iv[16];
	const uint8_t *key, *ct0, *ct1, *in, *want, *p;
	struct rte_crypto_sym_xform x;
	struct rte_cryptodev_sym_session *sess;
	struct rte_crypto_op *op;
	struct rte_mbuf *src, *dst = NULL, *res;
	uint16_t key_len;
	uint32_t len;
	int ret = -1, st;

	len = kat_data(c->vec, &key, &key_len, iv, pt, &ct0, &ct1);
	memcpy(ct, ct0, 512);
	if (ct1 != NULL)
		memcpy(ct + 512, ct1, 512);
	in = encrypt ? pt : ct;
	want = encrypt ? ct : pt;
	crypto_xform_fill(&x, key, key_len, encrypt ?
			  RTE_CRYPTO_CIPHER_OP_ENCRYPT :
			  RTE_CRYPTO_CIPHER_OP_DECRYPT, c->du_len);
	sess = rte_cryptodev_sym_session_create(id, &x, c_pools.sess);
	if (sess == NULL) {
		printf("  %s: session: %s\n", c->name, rte_strerror(rte_errno));
		return -1;
	}
	op = rte_crypto_op_alloc(c_pools.op, RTE_CRYPTO_OP_TYPE_SYMMETRIC);
	src = chain_make(in, len, c->src_segs);
	if (c->oop)
		dst = chain_make(NULL, len, c->dst_segs);
	if (op == NULL || src == NULL || (c->oop && dst == NULL))
		goto out;
	rte_crypto_op_attach_sym_session(op, sess);
	op->sym->m_src = src;
	op->sym->m_dst = dst;
	op->sym->cipher.data.offset = 0;
	op->sym->cipher.data.length = len;
	memcpy(rte_crypto_op_ctod_offset(op, uint8_t *, CRYPTO_IV_OFF), iv, 16);
	st = op_run(id, op);
	if (st != RTE_CRYPTO_OP_STATUS_SUCCESS) {
		printf("  %s %s: status %d\n", c->name,
		       encrypt ? "encrypt" : "decrypt", st);
		goto out;
	}
	res = c->oop ? dst : src;
	p = rte_pktmbuf_read(res, 0, len, out);
	if (p == NULL || memcmp(p, want, len) != 0) {
		printf("  %s %s: output differs from IEEE 1619\n", c->name,
		       encrypt ? "encrypt" : "decrypt");
		goto out;
	}
	/* Out of place: the source is untouched. */
	p = rte_pktmbuf_read(src, 0, len, out);
	if (c->oop && (p == NULL || memcmp(p, in, len) != 0)) {
		printf("  %s: source changed\n", c->name);
		goto out;
	}
	ret = 0;
out:
	rte_pktmbuf_free(src);
	rte_pktmbuf_free(dst);
	rte_crypto_op_free(op);
	rte_cryptodev_sym_session_free(id, sess);
	return ret;
}

/* A configured device (no queue pair) on a plaintext-key engine. */
int
dev_cfg(uint8_t *id)
{
	return crypto_dev_up(C_NAME, "dev=emu", 0, c_pools.sess, id);
}
