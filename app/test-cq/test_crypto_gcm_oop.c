/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "crypto_gcm_oop": AES-GCM out of place through crypto_mlx5cq on a
 * plaintext-key emulated HCA, the way DPDK's crypto/mlx5 (23.07 and
 * later, mlx5_crypto_gcm.c) drives the device: a linear source and
 * destination (text at offset 0, room for the AAD in the destination's
 * headroom, the digest right after the output when encrypting, after the
 * input when decrypting) go straight to the MMO WQE, its gather the
 * source and its scatter the destination; any other layout takes a UMR
 * of the slot's mkey whose KLMs are AAD, source, (digest), AAD,
 * destination, (digest). The GCM specification's test cases 4 and 16
 * (20 bytes of AAD, 60 of text) and 2 and 14 (no AAD, 16 bytes), from
 * test_gcm_vectors.h, are encrypted and decrypted linear to linear, with
 * the digest apart, and with either or both sides scattered; every
 * output exact, the source unchanged, the destination's bytes past the
 * output untouched. A wrong tag is AUTH_FAILED with the destination
 * untouched; an operation of more KLMs than the set holds is
 * INVALID_ARGS; the queue pair works on after both; the heap as before.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_crypto.h>
#include <rte_cryptodev.h>
#include <rte_mbuf.h>

#include "test.h"
#include "test_crypto_fixture.h"
#include "test_crypto_gcm_fix.h"
#include "test_usage.h"

/* Fill of the destination before the operation. */
#define OOP_FILL 0xa5
/* Bytes of the destination past the output (checked untouched). */
#define OOP_GUARD 16

struct oop_layout {
	const char *name;
	const uint16_t *src_segs; /* NULL: linear. */
	const uint16_t *dst_segs;
	int digest_apart; /* Digest in an mbuf of its own. */
};

static const uint16_t split_a[] = { 25, 0 };
static const uint16_t split_b[] = { 7, 30, 0 };
static const uint16_t split_c[] = { 5, 0 };

static const struct oop_layout layouts[] = {
	{ "linear to linear", NULL, NULL, 0 },
	{ "linear to linear, digest apart", NULL, NULL, 1 },
	{ "scattered to linear", split_a, NULL, 1 },
	{ "linear to scattered", NULL, split_b, 1 },
	{ "scattered to scattered", split_c, split_a, 1 },
};

/* The first len bytes of chain m into out. */
static void
chain_read(const struct rte_mbuf *m, uint8_t *out, uint32_t len)
{
	uint32_t off = 0, l;

	for (; m != NULL && off < len; m = m->next) {
		l = RTE_MIN((uint32_t)m->data_len, len - off);
		memcpy(out + off, rte_pktmbuf_mtod(m, const void *), l);
		off += l;
	}
}

/*
 * One out-of-place operation of v in layout lo; decrypting, tag_xor flips
 * bits of the tag. Source: the input (|| digest when decrypting, digest
 * not apart); destination: OOP_FILL bytes, the output's length (|| the
 * digest's when encrypting, not apart) plus OOP_GUARD. On success the
 * output, the tag, the unchanged source and the untouched guard are
 * checked (-1 when one differs); otherwise the destination must be all
 * OOP_FILL. The operation's status.
 */
static int
oop_op(uint8_t id, const struct gcm_vec *v, int enc,
		const struct oop_layout *lo, uint8_t tag_xor)
{
	struct rte_cryptodev_sym_session *s = gcm_sess(id, v, enc, 16);
	struct rte_mbuf *src = NULL, *dst = NULL, *side = NULL;
	uint8_t in[96], fill[128], out[128], *digest, *aad;
	const uint8_t *want = enc ? v->ct : v->pt;
	uint32_t src_len = v->len, dst_len;
	struct rte_crypto_op *op;
	int st = -1;

	memset(fill, OOP_FILL, sizeof(fill));
	memcpy(in, enc ? v->pt : v->ct, v->len);
	memcpy(in + v->len, v->tag, 16);
	in[v->len + 15] ^= tag_xor;
	if (!enc && !lo->digest_apart)
		src_len += 16;
	dst_len = v->len + (enc && !lo->digest_apart ? 16 : 0);
	op = rte_crypto_op_alloc(c_pools.op, RTE_CRYPTO_OP_TYPE_SYMMETRIC);
	side = rte_pktmbuf_alloc(c_pools.mbuf);
	src = chain_make(in, src_len, lo->src_segs);
	dst = chain_make(fill, dst_len + OOP_GUARD, lo->dst_segs);
	if (s == NULL || op == NULL || side == NULL || src == NULL ||
	    dst == NULL || rte_pktmbuf_append(side, 128) == NULL)
		goto out;
	/* AAD at side + 0 (copied before the text when linear), digest at
	 * side + 64 when apart.
	 */
	aad = rte_pktmbuf_mtod(side, uint8_t *);
	if (v->aad_len != 0)
		memcpy(aad, v->aad, v->aad_len);
	if (lo->digest_apart) {
		digest = aad + 64;
		memcpy(digest, enc ? gcm_zero32 : in + v->len, 16);
	} else {
		digest = enc ? rte_pktmbuf_mtod_offset(dst, uint8_t *, v->len) :
			rte_pktmbuf_mtod_offset(src, uint8_t *, v->len);
	}
	gcm_op_fill(op, s, v, src, dst, digest, aad);
	st = op_run(id, op);
	chain_read(dst, out, dst_len + OOP_GUARD);
	if (st != RTE_CRYPTO_OP_STATUS_SUCCESS) {
		if (memcmp(out, fill, dst_len + OOP_GUARD) != 0) {
			printf("  %s: destination written by a failed "
			       "operation\n", lo->name);
			st = -1;
		}
		goto out;
	}
	if (memcmp(out, want, v->len) != 0 ||
	    (enc && memcmp(digest, v->tag, 16) != 0)) {
		printf("  %s: output or tag differs from the known answer\n",
		       lo->name);
		st = -1;
	} else if (memcmp(out + dst_len, fill, OOP_GUARD) != 0) {
		printf("  %s: destination written past the output\n",
		       lo->name);
		st = -1;
	}
	chain_read(src, out, v->len);
	if (memcmp(out, in, v->len) != 0) {
		printf("  %s: source changed\n", lo->name);
		st = -1;
	}
	/* Linear to linear, digest in place: the direct MMO, whose scatter
	 * starts aad_len bytes before the destination's text
	 * (mlx5_crypto_gcm_enqueue_burst()): the AAD lands there.
	 */
	if (st == 0 && lo->src_segs == NULL && lo->dst_segs == NULL &&
	    !lo->digest_apart && v->aad_len != 0 &&
	    memcmp(rte_pktmbuf_mtod(dst, uint8_t *) - v->aad_len, v->aad,
		   v->aad_len) != 0) {
		printf("  %s: no AAD before the destination's text\n",
		       lo->name);
		st = -1;
	}
out:
	gcm_op_release(id, op, s, src, dst, side);
	return st;
}

/* Test cases 4, 16, 2 and 14 both ways in every layout. */
static int
test_gcm_oop_kat(void)
{
	struct rte_cryptodev_stats st;
	struct heap_use before;
	unsigned int i, j, n = 0;
	uint8_t id;

	TEST_ASSERT_SUCCESS(dev_up("dev=emu", &id), "device");
	/* Warm-up: the pools' memory registered. */
	TEST_ASSERT_EQUAL(oop_op(id, &gcm_vecs[0], 1, &layouts[0], 0), 0,
			  "warm");
	TEST_ASSERT_EQUAL(oop_op(id, &gcm_vecs[0], 1, &layouts[4], 0), 0,
			  "warm");
	heap_use(&before);
	for (i = 0; i < RTE_DIM(gcm_vecs); i++)
		for (j = 0; j < RTE_DIM(layouts); j++) {
			TEST_ASSERT_EQUAL(oop_op(id, &gcm_vecs[i], 1,
						 &layouts[j], 0), 0,
					  "vector %u encrypt, %s", i,
					  layouts[j].name);
			TEST_ASSERT_EQUAL(oop_op(id, &gcm_vecs[i], 0,
						 &layouts[j], 0), 0,
					  "vector %u decrypt, %s", i,
					  layouts[j].name);
			n += 2;
		}
	TEST_ASSERT_SUCCESS(rte_cryptodev_stats_get(id, &st), "stats");
	TEST_ASSERT(st.dequeue_err_count == 0 && st.enqueue_err_count == 0,
		    "errors counted");
	TEST_ASSERT_SUCCESS(heap_unchanged(&before, "GCM out of place"),
			    "leak");
	TEST_ASSERT_SUCCESS(dev_down(id), "down");
	printf("  %u out-of-place operations exact\n", n);
	return TEST_SUCCESS;
}

/*
 * A wrong tag out of place: AUTH_FAILED, nothing written to the
 * destination (direct and UMR paths). Source and destination of 30
 * segments each (2 bytes) with AAD and digest apart (63 KLMs; at
 * max_segs_num 8 a GCM UMR holds 20): INVALID_ARGS, nothing written. The
 * queue pair works on after each.
 */
static int
test_gcm_oop_refused(void)
{
	static const uint16_t two[] = { 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
					2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
					2, 2, 2, 2, 2, 0 };
	static const struct oop_layout many = {
		"thirty segments each", two, two, 1,
	};
	struct rte_cryptodev_stats st;
	struct heap_use before;
	unsigned int i;
	uint8_t id;

	TEST_ASSERT_SUCCESS(dev_up("dev=emu", &id), "device");
	TEST_ASSERT_EQUAL(oop_op(id, &gcm_vecs[0], 1, &layouts[4], 0), 0,
			  "warm");
	heap_use(&before);
	for (i = 0; i < RTE_DIM(layouts); i++) {
		TEST_ASSERT_EQUAL(oop_op(id, &gcm_vecs[1], 0, &layouts[i],
					 0x01),
				  RTE_CRYPTO_OP_STATUS_AUTH_FAILED,
				  "wrong tag, %s", layouts[i].name);
		TEST_ASSERT_EQUAL(oop_op(id, &gcm_vecs[1], 0, &layouts[i], 0),
				  0, "after the wrong tag, %s",
				  layouts[i].name);
	}
	TEST_ASSERT_EQUAL(oop_op(id, &gcm_vecs[0], 1, &many, 0),
			  RTE_CRYPTO_OP_STATUS_INVALID_ARGS, "63 KLMs");
	TEST_ASSERT_EQUAL(oop_op(id, &gcm_vecs[0], 1, &layouts[4], 0), 0,
			  "after INVALID_ARGS");
	TEST_ASSERT_SUCCESS(rte_cryptodev_stats_get(id, &st), "stats");
	TEST_ASSERT(st.dequeue_err_count == RTE_DIM(layouts) &&
		    st.enqueue_err_count == 1,
		    "errors: dequeue %" PRIu64 " enqueue %" PRIu64,
		    st.dequeue_err_count, st.enqueue_err_count);
	TEST_ASSERT_SUCCESS(heap_unchanged(&before, "refused GCM out of "
					   "place"), "leak");
	TEST_ASSERT_SUCCESS(dev_down(id), "down");
	return TEST_SUCCESS;
}

static struct unit_test_suite crypto_gcm_oop_suite = {
	.suite_name = "crypto_gcm_oop",
	.setup = crypto_suite_setup,
	.teardown = crypto_suite_teardown,
	.unit_test_cases = {
		TEST_CASE(test_gcm_oop_kat),
		TEST_CASE(test_gcm_oop_refused),
		TEST_CASES_END(),
	},
};

REGISTER_TEST_SUITE(crypto_gcm_oop, crypto_gcm_oop_suite);
