/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Fixture of the emulated HCA's DevX suites (emu, emu_cq_cmds,
 * emu_cqe_write): heap and model snapshots, devices with tweaked
 * capabilities, command status readers, and a CREATE_CQ environment (UAR,
 * ring and record umem, EQ) with its mailbox written field by field from
 * the PRM.
 */

#include <string.h>

#include <rte_byteorder.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>

#include "test_emu_fixture.h"

void
emut_heap_snap(struct emut_heap *s)
{
	struct rte_malloc_socket_stats st;
	int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < RTE_MAX_NUMA_NODES; i++) {
		if (rte_malloc_get_socket_stats(i, &st) != 0)
			continue;
		s->allocs += st.alloc_count;
		s->bytes += st.heap_allocsz_bytes;
	}
}

int
emut_heap_same(const struct emut_heap *a)
{
	struct emut_heap b;

	emut_heap_snap(&b);
	return a->allocs == b.allocs && a->bytes == b.bytes;
}

int
emut_stats_idle(struct ibv_context *ctx)
{
	struct mlx5_emu_stats st;

	if (mlx5_emu_stats_get(ctx, &st) != 0)
		return 0;
	return st.umems == 0 && st.devx_objs == 0 && st.cqs == 0 &&
	       st.uars == 0 && st.pds == 0;
}

struct ibv_context *
emut_open_caps(const char *name, void (*tweak)(struct mlx5_emu_caps *c))
{
	struct mlx5_emu_caps caps;

	mlx5_emu_caps_default(&caps);
	if (tweak != NULL)
		tweak(&caps);
	return mlx5_emu_open(name, &caps);
}

uint8_t
emut_out_status(void *out)
{
	return MLX5_GET(create_cq_out, out, status);
}

uint32_t
emut_out_syndrome(void *out)
{
	return MLX5_GET(create_cq_out, out, syndrome);
}

void
emut_set_be64(void *p, uint64_t v)
{
	rte_be64_t be = rte_cpu_to_be_64(v);

	memcpy(p, &be, sizeof(be));
}


/* Page size of the DPDK memory holding p. */
uint64_t
emut_dpdk_page_size(const void *p)
{
	const struct rte_memseg_list *msl = rte_mem_virt2memseg_list(p);

	return msl != NULL ? msl->page_sz : 0;
}



int
emut_env_init(struct cq_env *e, struct ibv_context *ctx, unsigned int log_size,
	 unsigned int stride)
{
	memset(e, 0, sizeof(*e));
	e->ctx = ctx;
	e->log_size = log_size;
	e->stride = stride;
	e->len = ((size_t)stride << log_size) + 64;
	e->buf = rte_zmalloc(NULL, e->len, 4096);
	e->uar = mlx5_glue->devx_alloc_uar(ctx, MLX5DV_UAR_ALLOC_TYPE_NC);
	if (e->buf == NULL || e->uar == NULL)
		return -1;
	e->umem = mlx5_glue->devx_umem_reg(ctx, e->buf, e->len,
					   IBV_ACCESS_LOCAL_WRITE);
	if (e->umem == NULL)
		return -1;
	return mlx5_glue->devx_query_eqn(ctx, 0, &e->eqn);
}

void
emut_env_fini(struct cq_env *e)
{
	if (e->umem != NULL)
		mlx5_glue->devx_umem_dereg(e->umem);
	if (e->uar != NULL)
		mlx5_glue->devx_free_uar(e->uar);
	rte_free(e->buf);
}

/* A valid CREATE_CQ mailbox, written field by field from the PRM. */
void
emut_build_create_cq(uint32_t *in, const struct cq_env *e, unsigned int cqe_sz)
{
	void *cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);

	memset(in, 0, CREATE_CQ_IN_LEN);
	MLX5_SET(create_cq_in, in, opcode, 0x400);
	MLX5_SET(cqc, cqc, log_cq_size, e->log_size);
	MLX5_SET(cqc, cqc, cqe_sz, cqe_sz);
	MLX5_SET(cqc, cqc, uar_page, e->uar->page_id);
	MLX5_SET(cqc, cqc, c_eqn, e->eqn);
	MLX5_SET(cqc, cqc, dbr_umem_valid, 1);
	MLX5_SET(cqc, cqc, dbr_umem_id, e->umem->umem_id);
	emut_set_be64(MLX5_ADDR_OF(cqc, cqc, dbr_addr),
		 (uint64_t)e->stride << e->log_size);
	MLX5_SET(create_cq_in, in, cq_umem_valid, 1);
	MLX5_SET(create_cq_in, in, cq_umem_id, e->umem->umem_id);
}

void
emut_caps_cqsz12(struct mlx5_emu_caps *c)
{
	c->log_max_cq_sz = 12;
}

void
emut_caps_small(struct mlx5_emu_caps *c)
{
	c->log_max_cq_sz = 16;
	c->log_max_cq = 10;
	c->cqe_compression = 0;
	c->cqe_compression_128 = 0;
	c->cqe_128_always = 0;
	c->mini_cqe_resp_stride_index = 0;
	c->mini_cqe_resp_flow_tag = 0;
	c->mini_cqe_resp_l3_l4_tag = 1;
	c->enhanced_cqe_compression = 0;
	c->cqe_compression_max_num = 16;
	c->cqe_compression_timeout = 7;
	c->num_comp_vectors = 2;
}
