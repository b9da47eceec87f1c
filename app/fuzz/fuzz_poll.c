/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * libFuzzer target "poll": a ring image and CQ parameters go into CQs
 * built by hand (mlx5cq_test_cq_wrap) over a copy of the image each, and
 * every consumer of the library reads it:
 *  - rte_mlx5cq_poll_burst() with each implementation this CPU has
 *    (scalar, sse, avx2), with the input's burst sizes, and the scalar
 *    one once more with bursts of one;
 *  - the same on a locked CQ (mlx5cq_test_cq_lock_set);
 *  - the lean path (rte_mlx5cq_peek / peek_cqe / advance, then
 *    rte_mlx5cq_poll_burst for what it does not take, as documented);
 *  - the raw view (rte_mlx5cq_raw_peek / rte_mlx5cq_raw_advance);
 *  - the iterator (start_poll / next_poll / end_poll, in pairs of the
 *    input's burst sizes).
 * Checks: no call returns more than n records and none writes past n
 * (the record array of each call is malloc'd with exactly n entries);
 * every burst consumer gives the same records byte for byte (each call's
 * array is first filled with a byte of its consumer's own, so a record
 * byte one of them leaves unwritten shows) and leaves the same doorbell
 * record; the raw view and the iterator give the same
 * completions (opcode, status, WQE counter, byte count); no read outside
 * the ring (each ring is malloc'd with exactly its size, so ASan sees a
 * read past either end); a fixed ring image ends: a consumer takes at
 * most one pass of the ring, at most 8 completions per entry
 * (FUZZ_REC_PER_ENTRY), and stops.
 *
 * Input (fuzz_poll_input.h): a 7-byte header, the burst sizes, then the
 * ring image (missing bytes are 0xff: invalid CQEs of owner 1).
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <rte_byteorder.h>
#include <rte_errno.h>

#include <mlx5cq_test_hooks.h>

#include "test_hooks_cq.h"
#include <rte_mlx5cq.h>

#include "fuzz_eal.h"
#include "fuzz_poll_input.h"

/* Burst consumers compared byte for byte. */
enum {
	C_SCALAR,
	C_SCALAR_ONE, /* scalar, bursts of one */
	C_SSE,
	C_AVX2,
	C_NEON,
	C_LOCKED,
	C_LEAN,
	C_N,
};

struct ring_case {
	struct fuzz_poll_hdr h;
	const uint8_t *bursts;
	const uint8_t *image;
	size_t image_len;
	size_t ring_bytes;
	uint32_t entries;
	uint32_t bound; /* most completions a consumer may take */
};

struct hand {
	struct rte_mlx5cq *cq;
	uint8_t *ring;
	uint32_t *dbrec;
};

/* One consumer's completions, reduced for the raw view and iterator. */
struct brief {
	uint8_t opcode;
	uint8_t status;
	uint16_t wqe_counter;
	uint32_t byte_cnt;
};

static void
hand_fini(struct hand *h)
{
	mlx5cq_test_cq_free(h->cq);
	free(h->ring);
	free(h->dbrec);
	memset(h, 0, sizeof(*h));
}

/* A CQ over a fresh copy of the image; the ring has its exact size. */
static int
hand_init(struct hand *h, const struct ring_case *rc)
{
	size_t cp = RTE_MIN(rc->image_len, rc->ring_bytes);

	memset(h, 0, sizeof(*h));
	h->ring = aligned_alloc(64, rc->ring_bytes);
	h->dbrec = malloc(sizeof(*h->dbrec) * 2);
	FUZZ_CHECK(h->ring != NULL && h->dbrec != NULL, "out of memory");
	memcpy(h->ring, rc->image, cp);
	memset(h->ring + cp, 0xff, rc->ring_bytes - cp);
	h->dbrec[0] = 0;
	h->dbrec[1] = 0;
	h->cq = mlx5cq_test_cq_wrap(h->ring, h->dbrec, rc->h.log_n,
				    rc->h.stride, rc->h.comp, rc->h.ci0, 0x77);
	FUZZ_CHECK(h->cq != NULL, "wrap: %s", rte_strerror(rte_errno));
	if (rte_mlx5cq_vec_set(h->cq, RTE_MLX5CQ_VEC_SCALAR) != 0)
		FUZZ_CHECK(0, "scalar poll refused");
	return 0;
}

static uint16_t
burst_n(const struct ring_case *rc, uint32_t call)
{
	return fuzz_poll_burst_size(rc->bursts[call % rc->h.nb]);
}

/* The most calls a consumer may need: one record or its end per cycle. */
static uint32_t
calls_bound(const struct ring_case *rc)
{
	return (rc->bound + 2) * rc->h.nb;
}

/*
 * One burst poll into an array of exactly n records, filled first with a
 * byte of the consumer's own (fill): a record byte one consumer leaves
 * unwritten differs from the scalar poll's.
 */
static uint16_t
poll_exact(struct rte_mlx5cq *cq, uint16_t n, struct rte_mlx5cq_cpl *dst,
	   uint32_t have, const struct ring_case *rc, const char *who,
	   uint8_t fill)
{
	struct rte_mlx5cq_cpl *buf = malloc(sizeof(*buf) * (n ? n : 1));
	uint16_t got;

	FUZZ_CHECK(buf != NULL, "out of memory");
	memset(buf, fill, sizeof(*buf) * (n ? n : 1));
	got = rte_mlx5cq_poll_burst(cq, n ? buf : buf + 1, n);
	FUZZ_CHECK(got <= n, "%s: %u records for a burst of %u", who, got, n);
	FUZZ_CHECK(have + got <= rc->bound,
		   "%s: more than %u completions from a ring of %u entries",
		   who, rc->bound, rc->entries);
	memcpy(dst + have, buf, sizeof(*buf) * got);
	free(buf);
	return got;
}

/* Burst consumer c; records into rec, count returned; dbrec in *db. */
static uint32_t
consume_burst(const struct ring_case *rc, int c, struct rte_mlx5cq_cpl *rec,
	      uint32_t *db)
{
	static const char *const names[C_N] = {
		"scalar", "scalar-1", "sse", "avx2", "neon", "locked", "lean",
	};
	struct hand h;
	uint32_t total = 0, call;

	/* Another architecture's implementation: no CQ for nothing. */
#ifndef RTE_ARCH_X86
	if (c == C_SSE || c == C_AVX2)
		return UINT32_MAX;
#endif
#ifndef RTE_ARCH_ARM64
	if (c == C_NEON)
		return UINT32_MAX;
#endif
	hand_init(&h, rc);
	if ((c == C_SSE &&
	     rte_mlx5cq_vec_set(h.cq, RTE_MLX5CQ_VEC_SSE) != 0) ||
	    (c == C_AVX2 &&
	     rte_mlx5cq_vec_set(h.cq, RTE_MLX5CQ_VEC_AVX2) != 0) ||
	    (c == C_NEON &&
	     rte_mlx5cq_vec_set(h.cq, RTE_MLX5CQ_VEC_NEON) != 0)) {
		hand_fini(&h);
		return UINT32_MAX; /* not on this CPU/build */
	}
	if (c == C_LOCKED)
		mlx5cq_test_cq_lock_set(h.cq, 1);
	for (call = 0; ; call++) {
		uint16_t n = c == C_SCALAR_ONE ? 1 : burst_n(rc, call);
		uint16_t got = 0;

		FUZZ_CHECK(call <= calls_bound(rc), "%s: no end after %u calls",
			   names[c], call);
		if (c == C_LEAN) {
			uint16_t k = rte_mlx5cq_peek(h.cq, n), i;
			uint8_t *lo = h.ring, *hi = h.ring + rc->ring_bytes;

			FUZZ_CHECK(k <= n, "lean: peek %u of %u", k, n);
			FUZZ_CHECK(total + k <= rc->bound, "lean: no end");
			for (i = 0; i < k; i++) {
				volatile const uint8_t *e =
					rte_mlx5cq_cqe_bytes(
					rte_mlx5cq_peek_cqe(h.cq, i));

				FUZZ_CHECK((const uint8_t *)(uintptr_t)e >= lo &&
					   (const uint8_t *)(uintptr_t)e + 64
					   <= hi, "lean: CQE %u outside "
					   "the ring", i);
				rte_mlx5cq__decode_ok(e,
					e[RTE_MLX5CQ_CQE_OP_OWN],
					&rec[total + i]);
			}
			rte_mlx5cq_advance(h.cq, k);
			total += k;
			got = k;
			if (k < n)
				got += poll_exact(h.cq, n - k, rec, total, rc,
						  names[c], 0x5a + 0x11 * c);
			total += got - k;
		} else {
			got = poll_exact(h.cq, n, rec, total, rc, names[c],
					 0x5a + 0x11 * c);
			total += got;
		}
		if (got == 0 && n > 0)
			break;
	}
	*db = h.dbrec[0];
	hand_fini(&h);
	return total;
}

static uint32_t
consume_raw(const struct ring_case *rc, struct brief *out, uint32_t *db)
{
	struct hand h;
	uint32_t total = 0;

	hand_init(&h, rc);
	for (;;) {
		volatile const uint8_t *e = rte_mlx5cq_raw_peek(h.cq);
		uint8_t op;

		if (e == NULL) {
			FUZZ_CHECK(rte_errno == ENOENT, "raw_peek: %s",
				   rte_strerror(rte_errno));
			break;
		}
		FUZZ_CHECK(total < rc->bound, "raw: no end");
		op = e[RTE_MLX5CQ_CQE_OP_OWN] >> 4;
		out[total].opcode = op;
		out[total].status = (op == RTE_MLX5CQ_OP_REQ_ERR ||
				     op == RTE_MLX5CQ_OP_RESP_ERR) ?
			rte_mlx5cq_syndrome_status(e[RTE_MLX5CQ_CQE_SYNDROME]) :
			0;
		out[total].wqe_counter =
			rte_mlx5cq__be16(e, RTE_MLX5CQ_CQE_WQE_COUNTER);
		out[total].byte_cnt = out[total].status ? 0 :
			rte_mlx5cq__be32(e, RTE_MLX5CQ_CQE_BYTE_CNT);
		total++;
		FUZZ_CHECK(rte_mlx5cq_raw_advance(h.cq) == 0,
			   "raw_advance after a peek: %s",
			   rte_strerror(rte_errno));
	}
	*db = h.dbrec[0];
	hand_fini(&h);
	return total;
}

static uint32_t
consume_iter(const struct ring_case *rc, struct brief *out, uint32_t *db)
{
	struct hand h;
	uint32_t total = 0, call;

	hand_init(&h, rc);
	mlx5cq_test_cq_wc_flags_set(h.cq, IBV_WC_EX_WITH_BYTE_LEN);
	for (call = 0; ; call++) {
		uint16_t n = RTE_MAX(burst_n(rc, call), 1), i = 0;
		int ret = rte_mlx5cq_start_poll(h.cq, NULL);

		FUZZ_CHECK(ret == 0 || ret == ENOENT, "start_poll %d", ret);
		if (ret == ENOENT)
			break;
		FUZZ_CHECK(call <= rc->bound, "iterator: no end");
		do {
			FUZZ_CHECK(total < rc->bound, "iterator: no end");
			out[total].status = rte_mlx5cq_wc_status(h.cq);
			out[total].wqe_counter =
				(uint16_t)rte_mlx5cq_wc_wr_id(h.cq);
			out[total].byte_cnt = out[total].status ? 0 :
				rte_mlx5cq_read_byte_len(h.cq);
			total++;
			if (++i == n)
				break;
			ret = rte_mlx5cq_next_poll(h.cq);
			FUZZ_CHECK(ret == 0 || ret == ENOENT, "next_poll %d",
				   ret);
		} while (ret == 0);
		rte_mlx5cq_end_poll(h.cq);
	}
	*db = h.dbrec[0];
	hand_fini(&h);
	return total;
}

static void
check_brief(const char *who, const struct rte_mlx5cq_cpl *ref, uint32_t nref,
	    const struct brief *b, uint32_t nb, int with_opcode)
{
	uint32_t i;

	FUZZ_CHECK(nb == nref, "%s: %u completions, burst poll %u", who, nb,
		   nref);
	for (i = 0; i < nb; i++) {
		FUZZ_CHECK(b[i].status == ref[i].status,
			   "%s: completion %u status %u, burst poll %u", who,
			   i, b[i].status, ref[i].status);
		FUZZ_CHECK(!with_opcode || b[i].opcode == ref[i].opcode,
			   "%s: completion %u opcode %u, burst poll %u", who,
			   i, b[i].opcode, ref[i].opcode);
		FUZZ_CHECK(b[i].wqe_counter == ref[i].wqe_counter,
			   "%s: completion %u wqe_counter %u, burst poll %u",
			   who, i, b[i].wqe_counter, ref[i].wqe_counter);
		FUZZ_CHECK(ref[i].status != 0 ||
			   b[i].byte_cnt == ref[i].byte_cnt,
			   "%s: completion %u byte_cnt %u, burst poll %u", who,
			   i, b[i].byte_cnt, ref[i].byte_cnt);
	}
}

/* Records of two consumers side by side, from the first that differs. */
static void
dump_diff(const char *who, const struct rte_mlx5cq_cpl *a, uint32_t na,
	  const struct rte_mlx5cq_cpl *ref, uint32_t nref)
{
	uint32_t i, k, first = 0;

	while (first < RTE_MIN(na, nref) &&
	       memcmp(&a[first], &ref[first], sizeof(*a)) == 0)
		first++;
	fprintf(stderr, "%s: %u records, scalar %u; first difference at %u\n",
		who, na, nref, first);
	for (i = first; i < RTE_MAX(na, nref) && i < first + 4; i++) {
		const uint8_t *p[2] = {
			i < na ? (const uint8_t *)&a[i] : NULL,
			i < nref ? (const uint8_t *)&ref[i] : NULL,
		};

		for (k = 0; k < 2; k++) {
			size_t j;

			fprintf(stderr, "  %s %4u:", k ? "scalar" : who, i);
			for (j = 0; p[k] != NULL && j < sizeof(*a); j++)
				fprintf(stderr, "%s%02x", j % 4 ? "" : " ",
					p[k][j]);
			fputc('\n', stderr);
		}
	}
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	RTE_SET_USED(argc);
	fuzz_eal_init((*argv)[0]);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[C_N] = {
		"scalar", "scalar-1", "sse", "avx2", "neon", "locked", "lean",
	};
	struct rte_mlx5cq_cpl *ref, *rec;
	struct brief *b;
	struct ring_case rc;
	uint32_t nref, n, dbref, db;
	size_t cap;
	int c;

	memset(&rc, 0, sizeof(rc));
	if (fuzz_poll_parse(data, size, &rc.h) != 0)
		return -1; /* not kept in the corpus */
	rc.bursts = data + FUZZ_POLL_HDR_LEN;
	rc.image = rc.bursts + rc.h.nb;
	rc.image_len = size - FUZZ_POLL_HDR_LEN - rc.h.nb;
	rc.entries = 1u << rc.h.log_n;
	rc.ring_bytes = (size_t)rc.entries * rc.h.stride;
	rc.bound = FUZZ_REC_PER_ENTRY * rc.entries + FUZZ_REC_PER_ENTRY;
	cap = rc.bound + 1;
	ref = calloc(cap, sizeof(*ref));
	rec = calloc(cap, sizeof(*rec));
	b = calloc(cap, sizeof(*b));
	FUZZ_CHECK(ref != NULL && rec != NULL && b != NULL, "out of memory");
	nref = consume_burst(&rc, C_SCALAR, ref, &dbref);
	for (c = C_SCALAR + 1; c < C_N; c++) {
		memset(rec, 0, cap * sizeof(*rec));
		n = consume_burst(&rc, c, rec, &db);
		if (n == UINT32_MAX)
			continue;
		if (n != nref || memcmp(rec, ref, sizeof(*rec) * n) != 0)
			dump_diff(names[c], rec, n, ref, nref);
		FUZZ_CHECK(n == nref, "%s: %u records, scalar %u", names[c], n,
			   nref);
		FUZZ_CHECK(memcmp(rec, ref, sizeof(*rec) * n) == 0,
			   "%s: records differ from the scalar poll's",
			   names[c]);
		FUZZ_CHECK(db == dbref, "%s: doorbell record 0x%08x, scalar "
			   "0x%08x", names[c], rte_be_to_cpu_32(db),
			   rte_be_to_cpu_32(dbref));
	}
	n = consume_raw(&rc, b, &db);
	check_brief("raw", ref, nref, b, n, 1);
	FUZZ_CHECK(db == dbref, "raw: doorbell record 0x%08x, scalar 0x%08x",
		   rte_be_to_cpu_32(db), rte_be_to_cpu_32(dbref));
	n = consume_iter(&rc, b, &db);
	check_brief("iterator", ref, nref, b, n, 0);
	FUZZ_CHECK(db == dbref, "iterator: doorbell record 0x%08x, scalar "
		   "0x%08x", rte_be_to_cpu_32(db), rte_be_to_cpu_32(dbref));
	free(ref);
	free(rec);
	free(b);
	return 0;
}
