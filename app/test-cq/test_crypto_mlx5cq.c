/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "crypto_mlx5cq": the cryptodev PMD on the emulated HCA through the
 * cryptodev API. Devices are made with rte_vdev_init("crypto_mlx5cq..",
 * "dev=emu,...") on emulated devices whose capabilities are set with
 * mlx5_emu_open_caps_set() (crypto engine on, plaintext or wrapped key
 * import). Known answers are IEEE 1619 XTS-AES vectors 4 and 10
 * (test_xts_vectors.h), encrypted and decrypted in place and out of place,
 * contiguous and scattered over mbuf chains, with and without a session
 * data-unit length. Bad devargs and bad session parameters are refused
 * with a log line, and leave the rte_malloc heap and the open file
 * descriptors as they were.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_dev.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <mlx5_emu.h>

#include "test.h"
#include "test_crypto_util.h"
#include "test_net_util.h"
#include "test_usage.h"
#include "test_wait.h"
#include "test_xts_vectors.h"

#define C_NAME "crypto_mlx5cq_t0"
#define C_NB_MBUF 256
#define C_QDESC 64

static struct crypto_pools c_pools;
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

static int
crypto_suite_setup(void)
{
	if (crypto_pools_make(&c_pools, "crypto_mlx5cq_t", C_NB_MBUF) != 0)
		return -1;
	return crypto_lib_leak_measure();
}

static void
crypto_suite_teardown(void)
{
	crypto_pools_free(&c_pools);
}

/* Probe C_NAME with args; refused with a log line holding want, no
 * cryptodev left: 0.
 */
static int
probe_refused(const char *args, const char *want)
{
	uint8_t nb = rte_cryptodev_count();
	FILE *old = rte_log_get_stream(), *log;
	char *buf = NULL;
	size_t len = 0;
	int ret = 0;

	log = open_memstream(&buf, &len);
	if (log == NULL)
		return -1;
	rte_openlog_stream(log);
	if (rte_eal_hotplug_add("vdev", C_NAME, args) == 0) {
		printf("  \"%s\" probed\n", args);
		rte_eal_hotplug_remove("vdev", C_NAME);
		ret = -1;
	}
	rte_openlog_stream(old);
	fclose(log);
	if (rte_cryptodev_count() != nb)
		ret = -1;
	if (ret == 0 && (buf == NULL || strstr(buf, want) == NULL)) {
		printf("  \"%s\": no \"%s\" in the log:\n%s\n", args, want,
		       buf ? buf : "");
		ret = -1;
	}
	free(buf);
	return ret;
}

/* 0 when the heap use is what before holds (plus what the cryptodev
 * library leaves for each device closed since: devs), else -1 with a
 * line.
 */
static int
heap_unchanged_devs(const struct heap_use *before, unsigned int devs,
		    const char *what)
{
	struct heap_use after;

	heap_use(&after);
	if (before->heap_bytes + devs * c_lib_leak.heap_bytes ==
	    after.heap_bytes &&
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

static int
heap_unchanged(const struct heap_use *before, const char *what)
{
	return heap_unchanged_devs(before, 0, what);
}

#define CRED96 "000102030405060708090a0b0c0d0e0f101112131415161718191a1b" \
	       "1c1d1e1f202122232425262728292a2b2c2d2e2f"

/* Bad devargs and devices: refused with a log line naming the cause,
 * nothing left behind.
 */
static int
test_crypto_bad_devargs(void)
{
	static const struct {
		int crypto;
		const char *args;
		const char *msg;
	} bad[] = {
		{ 1, "dev=emu,foo=1", "unknown key foo" },
		{ 1, "", "dev= is required" },
		{ 1, "dev=emu,max_segs_num=0", "bad value \"0\" for max_segs_num" },
		{ 1, "dev=emu,max_segs_num=x",
		  "bad value \"x\" for max_segs_num" },
		{ 1, "dev=emu,credential_id=0x1000000",
		  "bad value \"0x1000000\" for credential_id" },
		{ 1, "dev=emu,import_kek_id=-1",
		  "bad value \"-1\" for import_kek_id" },
		{ 1, "dev=emu,keytag=12z", "bad value \"12z\" for keytag" },
		{ 1, "dev=emu,key_mode=clear",
		  "bad value \"clear\" for key_mode" },
		{ 1, "dev=emu,credential=abcd",
		  "bad value for credential: 96 hex digits expected" },
		{ 1, "dev=emu,key_mode=plaintext,credential=" CRED96,
		  "credential applies to key_mode=wrapped only" },
		{ 1, "dev=no_such_ibdev", "dev=no_such_ibdev: no such RDMA" },
		{ 1, "dev=no_such_ibdev,emu_crypto=plaintext",
		  "emu_crypto applies to dev=emu only" },
		{ 1, "dev=emu,emu_crypto=on", "bad value \"on\" for emu_crypto" },
		/* Devices without the crypto engine. */
		{ 0, "dev=emu", "the device has no AES-XTS crypto" },
		/* Plaintext device: wrapped mode or a credential refused. */
		{ 1, "dev=emu,key_mode=wrapped",
		  "key_mode=wrapped: the device imports plaintext keys" },
		{ 1, "dev=emu,credential=" CRED96,
		  "credential applies to wrapped keys" },
		/* Wrapped device: a credential is needed, and must log in. */
		{ 1, "dev=emu,emu_crypto=wrapped",
		  "credential= (with credential_id and import_kek_id) is "
		  "required" },
		{ 1, "dev=emu,emu_crypto=wrapped,key_mode=plaintext",
		  "key_mode=plaintext: the device imports wrapped keys only" },
		{ 1, "dev=emu,emu_crypto=wrapped,credential_id=5,"
		  "import_kek_id=6,credential=" CRED96,
		  "crypto login (credential_id 5, import_kek_id 6) refused" },
		/* WQEs larger than the device's send WQEs. */
		{ 1, "dev=emu,max_segs_num=4096", "max_segs_num=4096: WQEs" },
	};
	struct heap_use before;
	unsigned int i, fds;

	/* Warm up: the first device of a process makes cryptodev data. */
	TEST_ASSERT_SUCCESS(crypto_caps(1, 0), "caps");
	TEST_ASSERT_SUCCESS(rte_eal_hotplug_add("vdev", C_NAME, "dev=emu"),
			    "probe");
	TEST_ASSERT_SUCCESS(rte_eal_hotplug_remove("vdev", C_NAME), "remove");
	heap_use(&before);
	fds = open_fds();
	for (i = 0; i < RTE_DIM(bad); i++) {
		TEST_ASSERT_SUCCESS(crypto_caps(bad[i].crypto, 0), "caps");
		TEST_ASSERT_SUCCESS(probe_refused(bad[i].args, bad[i].msg),
				    "devargs \"%s\"", bad[i].args);
	}
	mlx5_emu_open_caps_set(NULL);
	TEST_ASSERT_SUCCESS(heap_unchanged(&before, "bad probes"), "leak");
	TEST_ASSERT_EQUAL(open_fds(), fds, "file descriptors leaked");
	return TEST_SUCCESS;
}

static int
dev_down(uint8_t id)
{
	return crypto_dev_down(C_NAME, id);
}

static int
dev_up(const char *args, uint8_t *id)
{
	return crypto_dev_up(C_NAME, args, C_QDESC, c_pools.sess, id);
}

/* An mbuf chain holding len bytes of data (NULL: zeros) split at the
 * lengths of segs (0-terminated; the last segment takes the rest).
 */
static struct rte_mbuf *
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
static int
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

/* Known answers: IEEE 1619 vectors 4 and 10 alone (512 bytes, one data
 * unit), and vectors 4 then 5 as one message of two data units (tweaks 0
 * and 1: the plaintext of vector 5 is the ciphertext of vector 4).
 */
enum kat_vec { KAT_V4, KAT_V10, KAT_V4V5 };

#define KAT_MAX 1024

struct kat_case {
	const char *name;
	enum kat_vec vec;
	uint32_t du_len; /* Session data-unit length (0: the op's). */
	int oop; /* Out of place. */
	uint16_t src_segs[4]; /* Source chain split (0-terminated). */
	uint16_t dst_segs[4]; /* Destination chain split (out of place). */
};

static const struct kat_case kat_cases[] = {
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
static int
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

/* IEEE 1619 vectors 4 and 10 both ways, every buffer layout. */
static int
test_crypto_kat(void)
{
	struct rte_cryptodev_stats st;
	struct heap_use before;
	unsigned int i, n = 0;
	uint8_t id;

	heap_use(&before);
	TEST_ASSERT_SUCCESS(dev_up("dev=emu,key_mode=plaintext", &id),
			    "device up");
	for (i = 0; i < RTE_DIM(kat_cases); i++) {
		TEST_ASSERT_SUCCESS(kat_one(id, &kat_cases[i], 1),
				    "%s encrypt", kat_cases[i].name);
		TEST_ASSERT_SUCCESS(kat_one(id, &kat_cases[i], 0),
				    "%s decrypt", kat_cases[i].name);
		n += 2;
	}
	TEST_ASSERT_SUCCESS(rte_cryptodev_stats_get(id, &st), "stats");
	TEST_ASSERT(st.enqueued_count == n && st.dequeued_count == n &&
		    st.enqueue_err_count == 0 && st.dequeue_err_count == 0,
		    "stats %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64
		    ", %u operations", st.enqueued_count, st.dequeued_count,
		    st.enqueue_err_count, st.dequeue_err_count, n);
	TEST_ASSERT_SUCCESS(dev_down(id), "device down");
	TEST_ASSERT_SUCCESS(heap_unchanged_devs(&before, 1,
						"known-answer device"),
			    "leak");
	return TEST_SUCCESS;
}

/*
 * An error CQE: with the emulated HCA's engine paused, an operation is
 * enqueued, then its session (the last of its key) is freed, which
 * destroys the DEK; the device then runs the WQEs and writes an error CQE
 * (the DEK is gone: syndrome 0x14, remote operation error, as the
 * emulated firmware reports it). The operation comes back with
 * RTE_CRYPTO_OP_STATUS_ERROR, the dequeue error counter is 1, the
 * syndrome is in the log. The queue pair then recovers (QP reset, back to
 * RTS): IEEE 1619 vector 4 goes through it exactly. Nothing is left after
 * the device is removed.
 */
static int
test_crypto_error_cqe(void)
{
	uint8_t data[512] = { 0 }, iv[16] = { 0 };
	struct rte_crypto_sym_xform x;
	struct rte_cryptodev_sym_session *sess;
	struct rte_cryptodev_stats st;
	struct rte_crypto_op *op, *out = NULL;
	struct heap_use before;
	FILE *old = rte_log_get_stream(), *log;
	char *buf = NULL;
	size_t len = 0;
	struct rte_mbuf *m;
	uint16_t k;
	uint8_t id;
	int found;

	heap_use(&before);
	TEST_ASSERT_SUCCESS(dev_up("dev=emu", &id), "device up");
	crypto_xform_fill(&x, xts_v4_key, sizeof(xts_v4_key),
			  RTE_CRYPTO_CIPHER_OP_ENCRYPT, 512);
	sess = rte_cryptodev_sym_session_create(id, &x, c_pools.sess);
	TEST_ASSERT_NOT_NULL(sess, "session");
	op = rte_crypto_op_alloc(c_pools.op, RTE_CRYPTO_OP_TYPE_SYMMETRIC);
	m = chain_make(data, sizeof(data), NULL);
	TEST_ASSERT(op != NULL && m != NULL, "op, mbuf");
	rte_crypto_op_attach_sym_session(op, sess);
	op->sym->m_src = m;
	op->sym->cipher.data.offset = 0;
	op->sym->cipher.data.length = sizeof(data);
	memcpy(rte_crypto_op_ctod_offset(op, uint8_t *, CRYPTO_IV_OFF), iv,
	       16);
	mlx5_emu_net_engine_pause(1);
	k = rte_cryptodev_enqueue_burst(id, 0, &op, 1);
	TEST_ASSERT_SUCCESS(rte_cryptodev_sym_session_free(id, sess),
			    "session free");
	log = open_memstream(&buf, &len);
	TEST_ASSERT_NOT_NULL(log, "memstream");
	rte_openlog_stream(log);
	while (mlx5_emu_net_progress() != 0)
		;
	mlx5_emu_net_engine_pause(0);
	if (k == 1)
		k = rte_cryptodev_dequeue_burst(id, 0, &out, 1);
	rte_openlog_stream(old);
	fclose(log);
	found = buf != NULL && strstr(buf, "error CQE for WQE") != NULL &&
		strstr(buf, "syndrome 0x14") != NULL;
	if (!found)
		printf("  no error CQE line in:\n%s\n", buf ? buf : "");
	free(buf);
	TEST_ASSERT_EQUAL(k, 1, "enqueue or dequeue");
	TEST_ASSERT(out == op, "another operation");
	TEST_ASSERT_EQUAL(op->status, RTE_CRYPTO_OP_STATUS_ERROR,
			  "status %d", op->status);
	TEST_ASSERT(found, "log line");
	TEST_ASSERT_SUCCESS(rte_cryptodev_stats_get(id, &st), "stats");
	TEST_ASSERT(st.enqueued_count == 1 && st.dequeued_count == 1 &&
		    st.dequeue_err_count == 1 && st.enqueue_err_count == 0,
		    "stats %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64,
		    st.enqueued_count, st.dequeued_count,
		    st.enqueue_err_count, st.dequeue_err_count);
	rte_pktmbuf_free(m);
	rte_crypto_op_free(op);
	/* The queue pair works again. */
	TEST_ASSERT_SUCCESS(kat_one(id, &kat_cases[0], 1), "after the error");
	TEST_ASSERT_SUCCESS(rte_cryptodev_stats_get(id, &st), "stats");
	TEST_ASSERT(st.enqueued_count == 2 && st.dequeued_count == 2 &&
		    st.dequeue_err_count == 1, "stats after recovery");
	TEST_ASSERT_SUCCESS(dev_down(id), "device down");
	TEST_ASSERT_SUCCESS(heap_unchanged_devs(&before, 1,
						"error CQE device"),
			    "leak");
	return TEST_SUCCESS;
}

/*
 * Ring wraps with the device behind: the emulated HCA's engine is paused
 * and stepped one pass at a time (mlx5_emu_net_progress(): at most one
 * batch of WQEs per QP, which may end inside an operation's WQE set); after
 * every pass the operations done are dequeued and the ring is filled up
 * again at once, so the sets of just-dequeued operations are rewritten
 * while the device may still be inside the last of them. Every operation
 * encrypts IEEE 1619 vector 4 in place: every one must come back a
 * success with the vector's ciphertext, over WRAP_PASSES passes of the
 * ring, with nothing failed in the statistics.
 */
#define WRAP_PASSES 8

static void
wrap_op_prepare(struct rte_crypto_op *op, struct rte_mbuf *m,
		void *sess)
{
	uint8_t *d = rte_pktmbuf_mtod(m, uint8_t *);
	unsigned int i;

	for (i = 0; i < 512; i++)
		d[i] = (uint8_t)i; /* Vector 4's plaintext. */
	rte_crypto_op_attach_sym_session(op, sess);
	op->status = RTE_CRYPTO_OP_STATUS_NOT_PROCESSED;
	op->sym->m_src = m;
	op->sym->m_dst = NULL;
	op->sym->cipher.data.offset = 0;
	op->sym->cipher.data.length = 512;
	memset(rte_crypto_op_ctod_offset(op, uint8_t *, CRYPTO_IV_OFF), 0, 16);
}

/*
 * Dequeue what is done: each a success holding vector 4's ciphertext, put
 * back on the free list. Number dequeued, or -1.
 */
static int
wrap_dequeue(uint8_t id, struct rte_crypto_op **free_ops, unsigned int *nfree)
{
	struct rte_crypto_op *out[C_QDESC];
	uint16_t k, i;

	k = rte_cryptodev_dequeue_burst(id, 0, out, C_QDESC);
	for (i = 0; i < k; i++) {
		const uint8_t *d = rte_pktmbuf_mtod(out[i]->sym->m_src,
						    const uint8_t *);

		if (out[i]->status != RTE_CRYPTO_OP_STATUS_SUCCESS ||
		    memcmp(d, xts_v4_ctx, 512) != 0) {
			printf("  operation %p: status %d, %s\n",
			       (void *)out[i], out[i]->status,
			       out[i]->status == RTE_CRYPTO_OP_STATUS_SUCCESS ?
			       "output differs from IEEE 1619" :
			       "not a success");
			return -1;
		}
		free_ops[(*nfree)++] = out[i];
	}
	return k;
}

static int
test_crypto_ring_wrap(void)
{
	struct rte_crypto_op *ops[C_QDESC], *free_ops[C_QDESC];
	struct rte_mbuf *mbufs[C_QDESC];
	struct rte_crypto_sym_xform x;
	struct rte_cryptodev_sym_session *sess;
	struct rte_cryptodev_stats st;
	struct heap_use before;
	const uint64_t total = (uint64_t)WRAP_PASSES * C_QDESC;
	uint64_t posted = 0, done = 0, passes = 0;
	unsigned int nfree = 0, i;
	int ret = 0, k;
	uint8_t id;

	heap_use(&before);
	TEST_ASSERT_SUCCESS(dev_up("dev=emu,key_mode=plaintext", &id),
			    "device up");
	crypto_xform_fill(&x, xts_v4_key, sizeof(xts_v4_key),
			  RTE_CRYPTO_CIPHER_OP_ENCRYPT, 512);
	sess = rte_cryptodev_sym_session_create(id, &x, c_pools.sess);
	TEST_ASSERT_NOT_NULL(sess, "session");
	for (i = 0; i < C_QDESC; i++) {
		ops[i] = rte_crypto_op_alloc(c_pools.op,
					     RTE_CRYPTO_OP_TYPE_SYMMETRIC);
		mbufs[i] = chain_make(NULL, 512, NULL);
		if (ops[i] == NULL || mbufs[i] == NULL)
			ret = -1;
		else
			ops[i]->sym->m_src = mbufs[i];
		free_ops[nfree++] = ops[i];
	}
	mlx5_emu_net_engine_pause(1);
	while (ret == 0 && done < total) {
		/* Fill the ring: every free operation, vector 4 again. */
		while (nfree != 0 && posted < total) {
			struct rte_crypto_op *op = free_ops[nfree - 1];

			wrap_op_prepare(op, op->sym->m_src, sess);
			if (rte_cryptodev_enqueue_burst(id, 0, &op, 1) != 1)
				break;
			nfree--;
			posted++;
		}
		/* One pass of the device, then what it finished. */
		if (mlx5_emu_net_progress() == 0 && posted == done) {
			printf("  device idle with nothing in flight\n");
			ret = -1;
		}
		k = wrap_dequeue(id, free_ops, &nfree);
		if (k < 0 || ++passes > 64 * total)
			ret = -1;
		else
			done += k;
	}
	while (mlx5_emu_net_progress() != 0)
		;
	mlx5_emu_net_engine_pause(0);
	if (ret == 0 && wrap_dequeue(id, free_ops, &nfree) != 0)
		ret = -1;
	TEST_ASSERT_SUCCESS(rte_cryptodev_stats_get(id, &st), "stats");
	for (i = 0; i < C_QDESC; i++) {
		rte_pktmbuf_free(mbufs[i]);
		rte_crypto_op_free(ops[i]);
	}
	TEST_ASSERT_SUCCESS(rte_cryptodev_sym_session_free(id, sess),
			    "session free");
	TEST_ASSERT_SUCCESS(dev_down(id), "device down");
	TEST_ASSERT_SUCCESS(ret, "%" PRIu64 " of %" PRIu64 " operations "
			    "right after %" PRIu64 " device passes", done,
			    total, passes);
	TEST_ASSERT(st.enqueued_count == total && st.dequeued_count == total &&
		    st.enqueue_err_count == 0 && st.dequeue_err_count == 0,
		    "stats %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64
		    ", %" PRIu64 " operations", st.enqueued_count,
		    st.dequeued_count, st.enqueue_err_count,
		    st.dequeue_err_count, total);
	TEST_ASSERT_SUCCESS(heap_unchanged_devs(&before, 1, "ring-wrap device"),
			    "leak");
	return TEST_SUCCESS;
}

/*
 * Wrapped keys end to end: an emulated HCA provisioned as a card the
 * crypto officer has set up (caps.crypto_provisioned: an AES-256 import
 * KEK, the key of RFC 3394 section 4.6, and a 40-byte credential, at
 * MLX5_EMU_PROV_KEK_ID / MLX5_EMU_PROV_CRED_ID); the PMD logs in at probe
 * with the credential wrapped by that KEK (devargs credential_id,
 * import_kek_id, credential, keytag). IEEE 1619 vector 4 then goes
 * through a session whose key is Key1 || Key2 || keytag wrapped by the
 * KEK (48 bytes), encrypt and decrypt in place, exact. The same key
 * wrapped by another KEK is refused by the device at session creation.
 * Wraps are made here with OpenSSL's AES key wrap (itself checked against
 * RFC 3394 by the emu_crypto suite). Nothing left after removal.
 */
#define W_KEYTAG 0x1122334455667788ull

static int
wrapped_session_run(uint8_t id, const uint8_t wkey[48], int encrypt)
{
	uint8_t pt[512], iv[16] = { 0 };
	const uint8_t *in = encrypt ? pt : xts_v4_ctx;
	const uint8_t *want = encrypt ? xts_v4_ctx : pt;
	struct rte_crypto_sym_xform x;
	struct rte_cryptodev_sym_session *sess;
	struct rte_crypto_op *op;
	struct rte_mbuf *m;
	unsigned int i;
	int ret = -1;

	for (i = 0; i < sizeof(pt); i++)
		pt[i] = (uint8_t)i;
	crypto_xform_fill(&x, wkey, 48, encrypt ? RTE_CRYPTO_CIPHER_OP_ENCRYPT :
			  RTE_CRYPTO_CIPHER_OP_DECRYPT, 512);
	sess = rte_cryptodev_sym_session_create(id, &x, c_pools.sess);
	if (sess == NULL) {
		printf("  wrapped session: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	op = rte_crypto_op_alloc(c_pools.op, RTE_CRYPTO_OP_TYPE_SYMMETRIC);
	m = chain_make(in, sizeof(pt), NULL);
	if (op != NULL && m != NULL) {
		rte_crypto_op_attach_sym_session(op, sess);
		op->sym->m_src = m;
		op->sym->cipher.data.offset = 0;
		op->sym->cipher.data.length = sizeof(pt);
		memcpy(rte_crypto_op_ctod_offset(op, uint8_t *, CRYPTO_IV_OFF),
		       iv, 16);
		if (op_run(id, op) == RTE_CRYPTO_OP_STATUS_SUCCESS &&
		    memcmp(rte_pktmbuf_mtod(m, uint8_t *), want, 512) == 0)
			ret = 0;
		else
			printf("  wrapped %s: status %d or output differs "
			       "from IEEE 1619\n", encrypt ? "encrypt" :
			       "decrypt", op->status);
	}
	rte_pktmbuf_free(m);
	rte_crypto_op_free(op);
	rte_cryptodev_sym_session_free(id, sess);
	return ret;
}

static int
test_crypto_wrapped_kat(void)
{
	static const uint8_t kek[32] = { /* RFC 3394 4.6: 000102..1F. */
		0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
		0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
		0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
		0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
	};
	uint8_t cred[40], wcred[48], plain[40], wkey[48], other[32];
	char args[320], hex[97];
	struct mlx5_emu_caps caps;
	struct rte_crypto_sym_xform x;
	struct heap_use before;
	unsigned int i;
	uint8_t id;
	int ok;

	for (i = 0; i < sizeof(cred); i++)
		cred[i] = (uint8_t)(0xc0 + i);
	memcpy(plain, xts_v4_key, 32);
	for (i = 0; i < 8; i++) /* The keytag, big endian as in the BSF. */
		plain[32 + i] = (uint8_t)(W_KEYTAG >> (56 - 8 * i));
	TEST_ASSERT(crypto_key_wrap(kek, 32, cred, 40, wcred) == 0 &&
		    crypto_key_wrap(kek, 32, plain, 40, wkey) == 0, "wrap");
	for (i = 0; i < 48; i++)
		snprintf(hex + 2 * i, 3, "%02x", wcred[i]);
	snprintf(args, sizeof(args), "dev=emu,key_mode=wrapped,"
		 "credential_id=%u,import_kek_id=%u,credential=%s,"
		 "keytag=0x%" PRIx64, MLX5_EMU_PROV_CRED_ID,
		 MLX5_EMU_PROV_KEK_ID, hex, (uint64_t)W_KEYTAG);
	mlx5_emu_caps_default(&caps);
	caps.crypto = 1;
	caps.crypto_wrapped = 1;
	caps.crypto_provisioned = 1;
	caps.crypto_kek_len = 32;
	memcpy(caps.crypto_kek, kek, 32);
	memcpy(caps.crypto_credential, cred, 40);
	heap_use(&before);
	TEST_ASSERT_SUCCESS(crypto_dev_up_caps(C_NAME, args, &caps, C_QDESC,
					       c_pools.sess, &id),
			    "device up, logged in with the provisioned KEK");
	ok = wrapped_session_run(id, wkey, 1) == 0 &&
	     wrapped_session_run(id, wkey, 0) == 0;
	/* Another KEK's wrap: the device refuses the DEK. */
	for (i = 0; i < sizeof(other); i++)
		other[i] = (uint8_t)(kek[i] ^ 0x5a);
	TEST_ASSERT_SUCCESS(crypto_key_wrap(other, 32, plain, 40, wkey),
			    "wrap");
	crypto_xform_fill(&x, wkey, 48, RTE_CRYPTO_CIPHER_OP_ENCRYPT, 512);
	TEST_ASSERT(rte_cryptodev_sym_session_create(id, &x, c_pools.sess) ==
		    NULL, "a key of another KEK accepted");
	TEST_ASSERT_SUCCESS(dev_down(id), "device down");
	TEST_ASSERT(ok, "IEEE 1619 vector 4 through a wrapped key");
	TEST_ASSERT_SUCCESS(heap_unchanged_devs(&before, 1, "wrapped device"),
			    "leak");
	return TEST_SUCCESS;
}

/* A configured device (no queue pair) on a plaintext-key engine. */
static int
dev_cfg(uint8_t *id)
{
	return crypto_dev_up(C_NAME, "dev=emu", 0, c_pools.sess, id);
}

/* Good sessions: both key sizes, both directions, every data-unit length
 * of the capability; sessions of one key share a DEK; after they are all
 * freed the heap is as before.
 */
static int
test_crypto_sessions(void)
{
	static const uint32_t du[] = { 0, 512, 4096, 1u << 20 };
	struct rte_cryptodev_sym_session *s[2 * 2 * RTE_DIM(du)];
	const struct rte_cryptodev_symmetric_capability *cap;
	struct rte_cryptodev_sym_capability_idx idx = {
		.type = RTE_CRYPTO_SYM_XFORM_CIPHER,
		.algo.cipher = RTE_CRYPTO_CIPHER_AES_XTS,
	};
	struct rte_crypto_sym_xform x;
	struct rte_cryptodev_info info;
	struct heap_use before, one, after;
	unsigned int i, n = 0;
	uint8_t id;

	TEST_ASSERT_SUCCESS(dev_cfg(&id), "device");
	rte_cryptodev_info_get(id, &info);
	TEST_ASSERT(info.feature_flags & RTE_CRYPTODEV_FF_SYMMETRIC_CRYPTO &&
		    info.feature_flags & RTE_CRYPTODEV_FF_IN_PLACE_SGL &&
		    info.feature_flags & RTE_CRYPTODEV_FF_OOP_SGL_IN_SGL_OUT &&
		    info.feature_flags &
		    RTE_CRYPTODEV_FF_CIPHER_MULTIPLE_DATA_UNITS &&
		    !(info.feature_flags & RTE_CRYPTODEV_FF_CIPHER_WRAPPED_KEY),
		    "feature flags %#" PRIx64, info.feature_flags);
	cap = rte_cryptodev_sym_capability_get(id, &idx);
	TEST_ASSERT_NOT_NULL(cap, "no AES-XTS capability");
	TEST_ASSERT_SUCCESS(rte_cryptodev_sym_capability_check_cipher(cap, 32,
								      16),
			    "AES-128-XTS");
	TEST_ASSERT_SUCCESS(rte_cryptodev_sym_capability_check_cipher(cap, 64,
								      16),
			    "AES-256-XTS");
	TEST_ASSERT_FAIL(rte_cryptodev_sym_capability_check_cipher(cap, 48,
								   16),
			 "48-byte key in plaintext mode");
	TEST_ASSERT_EQUAL(cap->cipher.dataunit_set,
			  (RTE_CRYPTO_CIPHER_DATA_UNIT_LEN_512_BYTES |
			   RTE_CRYPTO_CIPHER_DATA_UNIT_LEN_4096_BYTES |
			   RTE_CRYPTO_CIPHER_DATA_UNIT_LEN_1_MEGABYTES),
			  "data units %#x", cap->cipher.dataunit_set);
	heap_use(&before);
	/* Two sessions of one key: one DEK (one allocation more than the
	 * first session alone would need is the second session only).
	 */
	crypto_xform_fill(&x, xts_v4_key, 32, RTE_CRYPTO_CIPHER_OP_ENCRYPT,
			  0);
	s[n] = rte_cryptodev_sym_session_create(id, &x, c_pools.sess);
	TEST_ASSERT_NOT_NULL(s[n++], "first session");
	heap_use(&one);
	s[n] = rte_cryptodev_sym_session_create(id, &x, c_pools.sess);
	TEST_ASSERT_NOT_NULL(s[n++], "second session");
	heap_use(&after);
	TEST_ASSERT(after.alloc_count == one.alloc_count &&
		    one.alloc_count > before.alloc_count,
		    "DEK not shared: allocations %" PRIu64 " -> %" PRIu64
		    " -> %" PRIu64, before.alloc_count, one.alloc_count,
		    after.alloc_count);
	for (i = 0; i < RTE_DIM(du); i++) {
		crypto_xform_fill(&x, xts_v10_key, 64, i & 1 ?
				  RTE_CRYPTO_CIPHER_OP_DECRYPT :
				  RTE_CRYPTO_CIPHER_OP_ENCRYPT, du[i]);
		s[n] = rte_cryptodev_sym_session_create(id, &x, c_pools.sess);
		TEST_ASSERT_NOT_NULL(s[n++], "AES-256-XTS du %u", du[i]);
		crypto_xform_fill(&x, xts_v4_key, 32, i & 1 ?
				  RTE_CRYPTO_CIPHER_OP_ENCRYPT :
				  RTE_CRYPTO_CIPHER_OP_DECRYPT, du[i]);
		s[n] = rte_cryptodev_sym_session_create(id, &x, c_pools.sess);
		TEST_ASSERT_NOT_NULL(s[n++], "AES-128-XTS du %u", du[i]);
	}
	for (i = 0; i < n; i++)
		TEST_ASSERT_SUCCESS(rte_cryptodev_sym_session_free(id, s[i]),
				    "free %u", i);
	TEST_ASSERT_SUCCESS(heap_unchanged(&before, "sessions"), "leak");
	TEST_ASSERT_SUCCESS(dev_down(id), "device down");
	return TEST_SUCCESS;
}

/* Bad session parameters: refused with a log line; no memory, no
 * descriptor left.
 */
static int
test_crypto_bad_session(void)
{
	static const uint8_t key48[48] = { 1 };
	static const uint8_t zero[32];
	static const char *const msg[] = {
		"cipher algorithm",
		"AES-XTS key of 48 bytes: plaintext keys are 32 or 64 bytes",
		"IV of 12 bytes",
		"data-unit length 1024 not supported",
		"chained transforms are not supported",
		"transform type",
		"DEK creation (128-bit key) failed",
	};
	struct rte_crypto_sym_xform x, auth;
	struct rte_cryptodev_sym_session *s;
	struct heap_use before;
	FILE *old = rte_log_get_stream(), *log;
	unsigned int fds, i;
	char *buf = NULL;
	size_t len = 0;
	uint8_t id;
	int found;

	TEST_ASSERT_SUCCESS(dev_cfg(&id), "device");
	/* Warm up the session pool. */
	crypto_xform_fill(&x, xts_v4_key, 32, RTE_CRYPTO_CIPHER_OP_ENCRYPT,
			  0);
	s = rte_cryptodev_sym_session_create(id, &x, c_pools.sess);
	TEST_ASSERT_NOT_NULL(s, "good session");
	TEST_ASSERT_SUCCESS(rte_cryptodev_sym_session_free(id, s), "free");
	heap_use(&before);
	fds = open_fds();
	for (i = 0; i < RTE_DIM(msg); i++) {
		crypto_xform_fill(&x, xts_v4_key, 32,
				  RTE_CRYPTO_CIPHER_OP_ENCRYPT, 0);
		switch (i) {
		case 0:
			x.cipher.algo = RTE_CRYPTO_CIPHER_AES_CBC;
			break;
		case 1:
			x.cipher.key.data = key48;
			x.cipher.key.length = 48;
			break;
		case 2:
			x.cipher.iv.length = 12;
			break;
		case 3:
			x.cipher.dataunit_len = 1024;
			break;
		case 4:
			memset(&auth, 0, sizeof(auth));
			auth.type = RTE_CRYPTO_SYM_XFORM_AUTH;
			x.next = &auth;
			break;
		case 5:
			x.type = RTE_CRYPTO_SYM_XFORM_AUTH;
			break;
		case 6: /* Equal halves: the device refuses the DEK. */
			x.cipher.key.data = zero;
			break;
		}
		log = open_memstream(&buf, &len);
		TEST_ASSERT_NOT_NULL(log, "memstream");
		rte_openlog_stream(log);
		s = rte_cryptodev_sym_session_create(id, &x, c_pools.sess);
		rte_openlog_stream(old);
		fclose(log);
		found = buf != NULL && strstr(buf, msg[i]) != NULL;
		if (!found)
			printf("  case %u: no \"%s\" in:\n%s\n", i, msg[i],
			       buf ? buf : "");
		free(buf);
		buf = NULL;
		TEST_ASSERT_NULL(s, "bad session %u accepted", i);
		TEST_ASSERT(found, "bad session %u: log line", i);
	}
	TEST_ASSERT_SUCCESS(heap_unchanged(&before, "bad sessions"), "leak");
	TEST_ASSERT_EQUAL(open_fds(), fds, "file descriptors leaked");
	TEST_ASSERT_SUCCESS(dev_down(id), "device down");
	return TEST_SUCCESS;
}

static struct unit_test_suite crypto_mlx5cq_suite = {
	.suite_name = "crypto_mlx5cq",
	.setup = crypto_suite_setup,
	.teardown = crypto_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_crypto_bad_devargs),
		TEST_CASE(test_crypto_sessions),
		TEST_CASE(test_crypto_bad_session),
		TEST_CASE(test_crypto_kat),
		TEST_CASE(test_crypto_error_cqe),
		TEST_CASE(test_crypto_ring_wrap),
		TEST_CASE(test_crypto_wrapped_kat),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(crypto_mlx5cq, crypto_mlx5cq_suite);
