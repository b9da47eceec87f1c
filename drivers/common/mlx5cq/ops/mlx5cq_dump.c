/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/* rte_mlx5cq_dump(): the state of a CQ and the CQEs around its ci. */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include <rte_errno.h>

#include "mlx5cq_private.h"

#define DUMP_BEFORE 2
#define DUMP_AFTER 6

int
rte_mlx5cq_dump(FILE *f, struct rte_mlx5cq *cq)
{
	struct rte_mlx5cq_counters cnt, *c = &cnt;
	const struct mlx5cq_session *z;
	uint32_t idx, entries;
	unsigned int k, s;

	if (f == NULL || cq == NULL) {
		rte_errno = EINVAL;
		return -EINVAL;
	}
	rte_mlx5cq_counters_get(cq, &cnt);
	z = MLX5CQ_SESSION(cq);
	entries = cq->mask + 1;
	fprintf(f, "mlx5cq CQ 0x%x: %u entries, stride %u, cqe_off %u,"
		" comp 0x%02x, slow 0x%02x\n", cq->cqn, entries,
		1u << cq->stride_shift, cq->cqe_off, cq->comp, cq->slow);
	fprintf(f, "  ci %u (index %u, pass %u), dbrec ci 0x%06x arm 0x%08x,"
		" arm_sn %u\n", cq->ci, cq->ci & cq->mask, cq->ci >> cq->log_n,
		rte_be_to_cpu_32(cq->dbrec[0]), rte_be_to_cpu_32(cq->dbrec[1]),
		mlx5cq_from_pub(cq)->arm_sn);
	fprintf(f, "  poll implementation %s\n",
		rte_mlx5cq_vec_name((enum rte_mlx5cq_vec)cq->vec));
	if (z->cnt)
		fprintf(f, "  session: %u completions, next %u, array at %u,"
			" ends at %u\n", z->cnt, z->ai, z->ca, z->end);
	fprintf(f, "  completions %" PRIu64 " polls %" PRIu64 " empty %"
		PRIu64 " errors %" PRIu64 " sessions %" PRIu64 " minis %"
		PRIu64 " comp_unhandled %" PRIu64 " overruns %" PRIu64
		" arms %" PRIu64 " events %" PRIu64 "\n", c->completions,
		c->polls, c->empty_polls, c->errors, c->sessions, c->minis,
		c->comp_unhandled, c->overruns, c->arms, c->events);
	for (s = 0; s < RTE_DIM(c->err_syndrome); s++)
		if (c->err_syndrome[s])
			fprintf(f, "  syndrome 0x%02x: %" PRIu64 "\n", s,
				c->err_syndrome[s]);
	for (idx = cq->ci - DUMP_BEFORE; idx != cq->ci + DUMP_AFTER; idx++) {
		volatile const uint8_t *e = rte_mlx5cq__cqe(cq, idx);

		if (entries < DUMP_BEFORE + DUMP_AFTER &&
		    idx - (cq->ci - DUMP_BEFORE) >= entries)
			break;
		fprintf(f, "  %s[%5u]", idx == cq->ci ? ">" : " ",
			idx & cq->mask);
		for (k = 0; k < 64; k++)
			fprintf(f, "%s%02x", (k & 15) ? "" : " ", e[k]);
		fprintf(f, "\n");
	}
	return 0;
}
