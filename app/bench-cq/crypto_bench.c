/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * perf-crypto: the crypto_mlx5cq dequeue cost on prepared completions.
 * With the emulated HCA's progress engine paused, a full queue of
 * AES-XTS operations (512 bytes each) or, with --algo gcm, AES-256-GCM
 * encryptions (512 bytes, 16 bytes of AAD right before the text, the
 * 16-byte tag right after it: the direct MMO, no UMR) is enqueued and one
 * mlx5_emu_net_progress() pass at a time runs them until the device is
 * idle: every CQE is in the ring before the clock starts, so the timed
 * part is the PMD's dequeue alone (rte_cryptodev_dequeue_burst: the
 * cryptodev call, rte_mlx5cq_poll_burst and the operation bookkeeping),
 * the emulator's cipher work excluded; the operations are checked (same
 * order, status success) after the clock stops. Cycles per operation:
 * median and extremes over the rounds.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_mbuf.h>

#include <mlx5_emu.h>

#include "bench_cq.h"
#include "test_crypto_util.h"
#include "test_xts_vectors.h"

#define PC_NAME "crypto_mlx5cq_perf"
#define PC_OPS 1024u
#define PC_BURST 32u

static int
pc_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One round: enqueue every op, run the device dry, time the dequeue in
 * bursts of burst.
 */
static int
pc_round(uint8_t id, struct rte_crypto_op **ops, unsigned int burst,
	 double *cpo)
{
	static struct rte_crypto_op *out[PC_OPS];
	uint64_t t0, t1;
	unsigned int got = 0, i, k;

	for (i = 0; i < PC_OPS; i += k) {
		k = rte_cryptodev_enqueue_burst(id, 0, ops + i,
						RTE_MIN(PC_BURST, PC_OPS - i));
		if (k == 0)
			return -1;
	}
	while (mlx5_emu_net_progress() != 0)
		;
	t0 = rte_rdtsc_precise();
	while (got < PC_OPS) {
		k = rte_cryptodev_dequeue_burst(id, 0, out + got,
						RTE_MIN(burst, PC_OPS - got));
		if (k == 0)
			return -1; /* Every completion was written. */
		got += k;
	}
	t1 = rte_rdtsc_precise();
	/* Checked outside the timed part: the application's work. */
	for (i = 0; i < PC_OPS; i++)
		if (out[i] != ops[i] ||
		    out[i]->status != RTE_CRYPTO_OP_STATUS_SUCCESS)
			return -1;
	*cpo = (double)(t1 - t0) / PC_OPS;
	return 0;
}

int
bench_cq_perf_crypto(int argc, char **argv)
{
	static struct rte_crypto_op *ops[PC_OPS];
	struct rte_cryptodev_sym_session *sess = NULL;
	struct rte_crypto_sym_xform x;
	struct crypto_pools p;
	unsigned int reps = 21, burst = PC_BURST, i;
	const char *algo = "xts";
	double *v = NULL;
	uint8_t id;
	int ret = 1, gcm;

	for (i = 0; i + 1 < (unsigned int)argc; i += 2) {
		if (strcmp(argv[i], "--reps") == 0)
			reps = (unsigned int)strtoul(argv[i + 1], NULL, 0);
		else if (strcmp(argv[i], "--burst") == 0)
			burst = (unsigned int)strtoul(argv[i + 1], NULL, 0);
		else if (strcmp(argv[i], "--algo") == 0)
			algo = argv[i + 1];
	}
	gcm = strcmp(algo, "gcm") == 0;
	if (reps == 0 || reps > 10000 || burst == 0 || burst > PC_OPS ||
	    (!gcm && strcmp(algo, "xts") != 0)) {
		printf("perf-crypto: --reps 1..10000 --burst 1..%u "
		       "--algo xts|gcm\n", PC_OPS);
		return 2;
	}
	if (crypto_pools_make(&p, "pc", 2 * PC_OPS) != 0 ||
	    crypto_dev_up(PC_NAME, "dev=emu,key_mode=plaintext", PC_OPS,
			  p.sess, &id) != 0) {
		printf("perf-crypto: no crypto_mlx5cq device\n");
		crypto_pools_free(&p);
		return 1;
	}
	if (gcm) {
		memset(&x, 0, sizeof(x));
		x.type = RTE_CRYPTO_SYM_XFORM_AEAD;
		x.aead.algo = RTE_CRYPTO_AEAD_AES_GCM;
		x.aead.op = RTE_CRYPTO_AEAD_OP_ENCRYPT;
		x.aead.key.data = xts_v4_key; /* its first 32 bytes */
		x.aead.key.length = 32;
		x.aead.iv.offset = CRYPTO_IV_OFF;
		x.aead.iv.length = 12;
		x.aead.digest_length = 16;
		x.aead.aad_length = 16;
	} else {
		crypto_xform_fill(&x, xts_v4_key, sizeof(xts_v4_key),
				  RTE_CRYPTO_CIPHER_OP_ENCRYPT, 512);
	}
	sess = rte_cryptodev_sym_session_create(id, &x, p.sess);
	v = calloc(reps, sizeof(*v));
	if (sess == NULL || v == NULL ||
	    rte_crypto_op_bulk_alloc(p.op, RTE_CRYPTO_OP_TYPE_SYMMETRIC, ops,
				     PC_OPS) != PC_OPS)
		goto out;
	for (i = 0; i < PC_OPS; i++) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(p.mbuf);

		if (m == NULL || rte_pktmbuf_append(m, 512 + 16) == NULL)
			goto out;
		ops[i]->sym->m_src = m;
		memset(rte_pktmbuf_mtod(m, void *), (int)i, 512);
		rte_crypto_op_attach_sym_session(ops[i], sess);
		memset(rte_crypto_op_ctod_offset(ops[i], uint8_t *,
						 CRYPTO_IV_OFF), 0, 16);
		if (gcm) {
			uint8_t *d = rte_pktmbuf_mtod(m, uint8_t *);

			memset(d - 16, 0xaa, 16);
			ops[i]->sym->aead.data.offset = 0;
			ops[i]->sym->aead.data.length = 512;
			ops[i]->sym->aead.aad.data = d - 16;
			ops[i]->sym->aead.digest.data = d + 512;
		} else {
			ops[i]->sym->cipher.data.offset = 0;
			ops[i]->sym->cipher.data.length = 512;
		}
	}
	mlx5_emu_net_engine_pause(1);
	/* One warm-up round, then the measured ones. */
	for (i = 0; i <= reps; i++) {
		if (pc_round(id, ops, burst, &v[i ? i - 1 : 0]) != 0) {
			printf("perf-crypto: round %u failed\n", i);
			mlx5_emu_net_engine_pause(0);
			goto out;
		}
	}
	mlx5_emu_net_engine_pause(0);
	qsort(v, reps, sizeof(*v), pc_cmp);
	printf("perf-crypto: crypto_mlx5cq dequeue on prepared completions, "
	       "%u %s ops of 512 B per round, bursts of %u, %u rounds\n",
	       PC_OPS, gcm ? "AES-256-GCM" : "AES-XTS", burst, reps);
	printf("  cycles/op: median %.2f  min %.2f  max %.2f\n",
	       v[reps / 2], v[0], v[reps - 1]);
	ret = 0;
out:
	for (i = 0; i < PC_OPS; i++) {
		if (ops[i] != NULL) {
			rte_pktmbuf_free(ops[i]->sym->m_src);
			rte_crypto_op_free(ops[i]);
			ops[i] = NULL;
		}
	}
	if (sess != NULL)
		rte_cryptodev_sym_session_free(id, sess);
	free(v);
	crypto_dev_down(PC_NAME, id);
	crypto_pools_free(&p);
	return ret;
}
