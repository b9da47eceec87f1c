/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "net_rx_lkey": the lkey net_mlx5cq writes in each RX WQE when it
 * posts a replacement buffer, for mempools of 1, 3 and 16 memory chunks.
 *
 * Each case builds a pktmbuf pool of small mbufs (512-byte objects, 8 per
 * 4 KiB page) from chunks of given sizes in one rte_malloc area, back
 * to back (adjacent in memory), a gap apart, or "separate" (each on pages
 * of its own, two pages between: separate allocations would leave it to
 * the heap whether two land less than a page apart), in that order, mbufs
 * in random order,
 * and starts a port alone on its emulated wire (RX ring of LK_DESC) on
 * it. Rounds of frames are injected on the wire and received, so the
 * ring wraps and every WQE is refilled several times; after each round
 * every WQE must name its buffer (address = the posted mbuf's data) and
 * carry the lkey expected for it, computed here without the PMD: the
 * mempool chunk holding the buffer (rte_mempool_mem_iter), then the one
 * memory region the emulated HCA registered over that chunk
 * (mlx5_emu_mr_find). All on the four refill paths: plain CQEs and
 * HASH-compressed sessions, SIMD stores and per packet (rx_vec_en=0).
 *
 * Layouts, with mr_ext_memseg_en=0 (a region per chunk unless chunks
 * lie less than a page apart): one chunk; three separate chunks of sizes
 * that are not whole pages (table granules split between two regions);
 * three adjacent chunks (one region: the lkey table is not built); 16
 * separate chunks; two large chunks around a one-mbuf chunk (the granule
 * shrinks to 4 KiB, the pool spans more granules than the table has
 * entries, so part of the lookups go to the search). With the default
 * mr_ext_memseg_en=1: three and 16 separate chunks of the DPDK heap (one
 * VA-contiguous area: one region from the first chunk's start to the
 * last one's end, its lkey on every WQE, no table; the port's table holds
 * the chunks one by one, not the span), and three chunks of
 * the heap with a fourth in memory from mmap() 18 TiB away (outside
 * DPDK memory: two regions, the table, not exact: the fourth lies far from
 * the heap). The queue's table (white box: the PMD's rxq) must exist
 * exactly when the chunks have several regions; it has slot collisions
 * (not exact: the refill checks the tags) in the large and the foreign
 * layouts, and leaves granules to the search in the large one. The
 * emulated port must count no
 * RX error, and the heap use is the same before and after each case.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_memory.h>
#include <rte_mbuf_pool_ops.h>
#include <rte_mempool.h>

#include <mlx5_emu.h>

#include "mlx5cq_ethdev.h"

#include "test.h"
#include "test_net_fixture.h"
#include "test_net_util.h"
#include "test_usage.h"

#define LK_DESC 256
#define LK_ROUND 200 /* frames per round */
#define LK_ROUNDS 6
/*
 * 512-byte objects: the object header (one cache line: 64 B on x86, 128 B
 * on AArch64), the mbuf, the data room.
 */
#define LK_ROOM \
	(512 - RTE_CACHE_LINE_SIZE - (unsigned int)sizeof(struct rte_mbuf))
#define LK_CHUNKS_MAX 16
#define LK_PAGE 4096
#define LK_APART (-1)
#define LK_APART_GAP (2 * LK_PAGE)

struct lk_layout {
	const char *name;
	unsigned int n; /* chunks */
	unsigned int mbufs[LK_CHUNKS_MAX];
	int gap; /* bytes between chunks; LK_APART: pages apart */
	int searched; /* the table leaves granules to the search */
	int exact; /* the table is exact (no slot collisions) */
	int ext; /* mr_ext_memseg_en */
	int foreign; /* the last chunk from mmap(), not DPDK's */
	unsigned int regions; /* expected */
};

static const struct lk_layout lk_layouts[] = {
	{ "1 chunk", 1, { 1024 }, LK_APART, 0, 1, 0, 0, 1 },
	{ "3 chunks", 3, { 301, 517, 223 }, LK_APART, 0, 1, 0, 0, 3 },
	{ "3 adjacent chunks", 3, { 301, 517, 223 }, 0, 0, 1, 0, 0, 1 },
	{ "16 chunks", 16, { 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
			     64, 64, 64, 64 }, LK_APART, 0, 1, 0, 0, 16 },
	{ "large, one mbuf, large", 3, { 17000, 1, 17000 }, 2 * LK_PAGE, 1,
	  0, 0, 0, 3 },
	{ "3 chunks, ext", 3, { 301, 517, 223 }, LK_APART, 0, 1, 1, 0, 1 },
	{ "16 chunks, ext", 16, { 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
				  64, 64, 64, 64, 64 }, LK_APART, 0, 1, 1, 0,
	  1 },
	/* The foreign chunk is far from the heap: the table has collisions. */
	{ "3 + 1 foreign chunks, ext", 4, { 301, 517, 223, 100 }, LK_APART, 0, 0,
	  1, 1, 2 },
};

static const char *const lk_paths[] = {
	"", "rx_vec_en=0", "cqe_comp=hash", "cqe_comp=hash,rx_vec_en=0",
};

static void
lk_chunk_free(struct rte_mempool_memhdr *memhdr, void *opaque)
{
	RTE_SET_USED(memhdr);
	rte_free(opaque);
}

/*
 * Far: more granules between it and the heap than a table has entries
 * (4096 granules of at most 1 GiB: 4 TiB), and not a multiple of the
 * table's span, which would put its granule in the heap's slot (the
 * search): 18 TiB, half a table off.
 */
#define LK_FAR (((uintptr_t)1 << 44) + ((uintptr_t)1 << 41))

static void
lk_chunk_free_foreign(struct rte_mempool_memhdr *memhdr, void *opaque)
{
	munmap(opaque, RTE_ALIGN_CEIL(memhdr->len, LK_PAGE));
}

/*
 * A chunk of m objects in memory DPDK does not know (mmap(), no IOVA),
 * 18 TiB below the pool's first chunk, or above it when there is no room
 * below (the DPDK heap at 4 GiB; under ASan it is near the top of the
 * address space): where the kernel would put it by itself depends on the
 * machine (next to the heap under QEMU's user mode).
 */
static int
lk_populate_foreign(struct rte_mempool *mp, unsigned int m)
{
	const uintptr_t near = (uintptr_t)STAILQ_FIRST(&mp->mem_list)->addr;
	const size_t len = (size_t)512 * m;
	void *hint = (void *)RTE_ALIGN_FLOOR(near > 2 * LK_FAR ?
					     near - LK_FAR : near + LK_FAR,
					     LK_PAGE);
	void *a = mmap(hint, RTE_ALIGN_CEIL(len, LK_PAGE),
		       PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	int ret;

	if (a == MAP_FAILED)
		return -ENOMEM;
	if (a != hint) {
		printf("    foreign chunk at %p, not at %p\n", a, hint);
		munmap(a, RTE_ALIGN_CEIL(len, LK_PAGE));
		return -EFAULT;
	}
	ret = rte_mempool_populate_iova(mp, a, RTE_BAD_IOVA, len,
					lk_chunk_free_foreign, a);
	if (ret <= 0)
		munmap(a, RTE_ALIGN_CEIL(len, LK_PAGE));
	return ret;
}

/*
 * Populate [a, a + len) as one chunk of m objects: pages of 4 KiB hold 8
 * whole objects each, so the objects need no IOVA contiguity.
 */
static int
lk_populate(struct rte_mempool *mp, char *a, size_t len, void *area)
{
	return rte_mempool_populate_virt(mp, a, len, LK_PAGE,
					 area != NULL ? lk_chunk_free : NULL,
					 area);
}

/* The layout's pool, mbufs shuffled; NULL on failure. */
static struct rte_mempool *
lk_pool(const struct lk_layout *l, const char *name)
{
	struct rte_mempool *mp;
	unsigned int c, n = 0;
	char *one = NULL;
	size_t off = 0;

	for (c = 0; c < l->n; c++)
		n += l->mbufs[c];
	mp = pool_pktmbuf_empty(name, n, LK_ROOM, 0, RTE_MEMPOOL_F_NO_SPREAD);
	if (mp == NULL)
		return NULL;
	if (mp->elt_size + mp->header_size + mp->trailer_size != 512) {
		printf("    objects of %u bytes, not 512\n",
		       mp->elt_size + mp->header_size + mp->trailer_size);
		goto fail;
	}
	/*
	 * One area: chunks gap bytes apart; "apart" chunks each on a page
	 * of its own with two pages between them (separate allocations
	 * would not do: the heap may put one right after another, and the
	 * PMD then registers the two as one piece).
	 */
	if (l->gap != LK_APART) {
		one = rte_malloc("lk_chunks", (size_t)512 * n +
				 (size_t)l->gap * (l->n - 1), LK_PAGE);
	} else {
		size_t all = 0;

		for (c = 0; c < l->n; c++)
			all += RTE_ALIGN_CEIL((size_t)512 * l->mbufs[c],
					      LK_PAGE) + LK_APART_GAP;
		one = rte_malloc("lk_chunks", all, LK_PAGE);
	}
	if (one == NULL)
		goto fail;
	for (c = 0; c < l->n; c++) {
		size_t len = (size_t)512 * l->mbufs[c];
		char *a;

		if (l->foreign && c + 1 == l->n) {
			if (lk_populate_foreign(mp, l->mbufs[c]) !=
			    (int)l->mbufs[c])
				goto fail;
			break;
		}
		a = one + off;
		/* The area is freed with its first chunk. */
		if (lk_populate(mp, a, len, c == 0 ? one : NULL) !=
		    (int)l->mbufs[c]) {
			if (c == 0)
				rte_free(one);
			goto fail;
		}
		off += l->gap != LK_APART ? len + l->gap :
		       RTE_ALIGN_CEIL(len, LK_PAGE) + LK_APART_GAP;
	}
	rte_mempool_obj_iter(mp, rte_pktmbuf_init, NULL);
	if (pool_shuffle(mp, n, 4242) != 0)
		goto fail;
	return mp;
fail:
	printf("    mempool %s not built: %s\n", name,
	       rte_strerror(rte_errno));
	rte_mempool_free(mp);
	return NULL;
}

/* The chunks of a pool with their expected lkeys. */
struct lk_chunks {
	struct ibv_context *ctx;
	unsigned int n;
	unsigned int bad; /* chunks not covered by exactly one MR */
	uintptr_t start[64];
	uintptr_t end[64];
	uint32_t lkey[64];
};

static void
lk_chunk_add(struct rte_mempool *mp, void *opaque,
	     struct rte_mempool_memhdr *memhdr, unsigned int idx)
{
	struct lk_chunks *k = opaque;
	uint32_t lkey = 0;

	RTE_SET_USED(mp);
	RTE_SET_USED(idx);
	if (k->n == RTE_DIM(k->start) ||
	    mlx5_emu_mr_find(k->ctx, memhdr->addr, memhdr->len, &lkey) != 1) {
		k->bad++;
		return;
	}
	k->start[k->n] = (uintptr_t)memhdr->addr;
	k->end[k->n] = (uintptr_t)memhdr->addr + memhdr->len;
	k->lkey[k->n] = lkey;
	k->n++;
}

/* Distinct lkeys of the chunks. */
static unsigned int
lk_distinct(const struct lk_chunks *k)
{
	unsigned int i, j, d = 0;

	for (i = 0; i < k->n; i++) {
		for (j = 0; j < i && k->lkey[j] != k->lkey[i]; j++)
			;
		d += j == i;
	}
	return d;
}

/*
 * mr_ext_memseg_en=1: one region from the first chunk of DPDK memory to
 * the last one (the chunks are sorted by address by none but this check:
 * the span is from the lowest start to the highest end), the memory
 * between them included; the mmap() chunk (foreign) is not in it.
 */
static int
lk_span_check(const struct lk_chunks *k, int foreign)
{
	uintptr_t lo = UINTPTR_MAX, hi = 0, fs = 0, fe = 0;
	uint32_t lkey = 0, span = 0;
	unsigned int c;

	for (c = 0; c < k->n; c++) {
		if (rte_mem_virt2memseg((void *)k->start[c], NULL) == NULL) {
			fs = k->start[c];
			fe = k->end[c];
			continue;
		}
		lo = RTE_MIN(lo, k->start[c]);
		hi = RTE_MAX(hi, k->end[c]);
	}
	if (lo >= hi || (foreign != 0) != (fe != 0)) {
		printf("    chunks of DPDK memory [%#" PRIxPTR ", %#" PRIxPTR
		       "), %s chunk outside\n", lo, hi, fe ? "a" : "no");
		return -1;
	}
	if (mlx5_emu_mr_find(k->ctx, (void *)lo, hi - lo, &span) != 1) {
		printf("    no one region over [%#" PRIxPTR ", %#" PRIxPTR
		       ")\n", lo, hi);
		return -1;
	}
	if (fe != 0 && mlx5_emu_mr_find(k->ctx, (void *)fs, fe - fs,
					&lkey) == 1 &&
	    lkey == span) {
		printf("    the foreign chunk shares the heap's region\n");
		return -1;
	}
	return 0;
}

/*
 * The port's table (white box) holds the pool's pieces one by one, not
 * the span their MR covers: a lookup of an address between them must not
 * answer with that MR's lkey. A piece is a run of chunks less than a page
 * apart (mlx5cq_mr_register_mempool(): MLX5CQ_MR_MERGE_GAP); the chunks
 * of an "apart" layout are meant to lie further apart, but where the
 * heap puts a chunk next to the one before it they form one piece.
 */
static int
lk_entries_check(const struct mlx5cq_rxq *rxq, const struct rte_mempool *mp,
		 const struct lk_chunks *k)
{
	const struct mlx5cq_mr_table *t = &rxq->priv->mrs;
	uintptr_t ps[RTE_DIM(k->start)], pe[RTE_DIM(k->start)];
	uint32_t pk[RTE_DIM(k->start)];
	unsigned int i, c, n = 0, np = 0, order[RTE_DIM(k->start)];

	/* The chunks by address (insertion sort), then the pieces. */
	for (c = 0; c < k->n; c++) {
		for (i = c; i > 0 && k->start[order[i - 1]] > k->start[c]; i--)
			order[i] = order[i - 1];
		order[i] = c;
	}
	for (i = 0; i < k->n; i++) {
		c = order[i];
		if (np > 0 && k->start[c] < pe[np - 1] + LK_PAGE &&
		    k->lkey[c] == pk[np - 1]) {
			pe[np - 1] = RTE_MAX(pe[np - 1], k->end[c]);
			continue;
		}
		ps[np] = k->start[c];
		pe[np] = k->end[c];
		pk[np++] = k->lkey[c];
	}
	for (i = 0; i < t->n; i++) {
		if (t->mr[i].mp != mp)
			continue;
		n++;
		for (c = 0; c < np; c++)
			if (t->mr[i].start == ps[c] && t->mr[i].end == pe[c] &&
			    t->mr[i].lkey == pk[c])
				break;
		if (c == np) {
			printf("    table entry [%#" PRIxPTR ", %#" PRIxPTR
			       ") lkey %#x is no piece of the pool\n",
			       t->mr[i].start, t->mr[i].end, t->mr[i].lkey);
			return -1;
		}
	}
	if (n != np) {
		printf("    %u table entries for %u pieces (%u chunks)\n", n,
		       np, k->n);
		return -1;
	}
	return 0;
}

/* Every WQE of the queue: its buffer, the lkey of that buffer's chunk. */
static int
lk_check_wqes(const struct mlx5cq_rxq *rxq, const struct lk_chunks *k,
	      unsigned int round)
{
	unsigned int i, c, bad = 0;

	for (i = 0; i < rxq->desc_n; i++) {
		const struct rte_mbuf *m = rxq->elts[i];
		uint64_t addr = rte_be_to_cpu_64(rxq->wqes[i].addr);
		uint32_t lkey = rte_be_to_cpu_32(rxq->wqes[i].lkey);

		if (addr != (uintptr_t)m->buf_addr + RTE_PKTMBUF_HEADROOM) {
			if (bad++ < 4)
				printf("    round %u WQE %u: address %#" PRIx64
				       ", mbuf data at %p\n", round, i, addr,
				       (char *)m->buf_addr +
				       RTE_PKTMBUF_HEADROOM);
			continue;
		}
		for (c = 0; c < k->n; c++)
			if (addr >= k->start[c] && addr < k->end[c])
				break;
		if (c == k->n || lkey != k->lkey[c]) {
			if (bad++ < 4)
				printf("    round %u WQE %u: buffer %#" PRIx64
				       " lkey %#x, expected %#x\n", round, i,
				       addr, lkey,
				       c == k->n ? UINT32_MAX : k->lkey[c]);
		}
	}
	return bad ? -1 : 0;
}

static int
lk_start(uint16_t port, struct rte_mempool *mp)
{
	struct rte_eth_conf conf;

	memset(&conf, 0, sizeof(conf));
	/* Frames of the MTU fit the small buffers: no scatter. */
	conf.rxmode.mtu = mtu_for_buf(rte_pktmbuf_data_room_size(mp) -
				      RTE_PKTMBUF_HEADROOM);
	if (rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, LK_DESC, SOCKET_ID_ANY, NULL,
				   mp) != 0 ||
	    rte_eth_tx_queue_setup(port, 0, 64, SOCKET_ID_ANY, NULL) != 0)
		return -1;
	return rte_eth_dev_start(port);
}

/* Rounds of frames injected and received, the WQEs checked after each. */
static int
lk_traffic(uint16_t port, const char *wire, const struct mlx5cq_rxq *rxq,
	   const struct lk_chunks *k)
{
	static uint8_t frame[128];
	const void *fr[LK_ROUND];
	uint32_t len[LK_ROUND], flen;
	struct rte_mbuf *pkts[LK_ROUND];
	struct rte_ether_addr mac;
	unsigned int r, i;
	uint16_t got;

	if (rte_eth_macaddr_get(port, &mac) != 0)
		return -1;
	flen = frame_build(frame, &mac, RTE_IPV4(198u, 18, 3, 1), 3000, 40,
			   0);
	for (i = 0; i < LK_ROUND; i++) {
		fr[i] = frame;
		len[i] = flen;
	}
	if (lk_check_wqes(rxq, k, 0) != 0)
		return -1;
	for (r = 1; r <= LK_ROUNDS; r++) {
		/* One port on the wire: each frame reaches 1. */
		if (mlx5_emu_wire_inject_burst(wire, fr, len, LK_ROUND) != 1) {
			printf("    round %u: frames not delivered\n", r);
			return -1;
		}
		got = rx_all(port, 1, pkts, LK_ROUND, NULL);
		free_all(pkts, got);
		if (got != LK_ROUND) {
			printf("    round %u: %u of %u frames received\n", r,
			       got, LK_ROUND);
			return -1;
		}
		if (lk_check_wqes(rxq, k, r) != 0)
			return -1;
	}
	return 0;
}

static int
lk_case_run(unsigned int li, unsigned int pi)
{
	const struct lk_layout *l = &lk_layouts[li];
	struct heap_use before, after;
	struct mlx5_emu_port_stats ps;
	struct mlx5_emu_net_stats ns;
	const struct mlx5cq_rxq *rxq;
	struct lk_chunks k;
	struct rte_mempool *mp;
	char name[32], args[128], wire[16];
	unsigned int regions;
	int port = -1, ret = -1;

	printf("  case %s, path \"%s\"\n", l->name, lk_paths[pi]);
	heap_use(&before);
	snprintf(name, sizeof(name), "lk_pool%u_%u", li, pi);
	mp = lk_pool(l, name);
	if (mp == NULL)
		goto out;
	snprintf(wire, sizeof(wire), "lk%u_%u", li, pi);
	snprintf(name, sizeof(name), "net_mlx5cq_lk%u_%u", li, pi);
	snprintf(args, sizeof(args), "dev=emu,wire=%s,mr_ext_memseg_en=%d%s%s",
		 wire, l->ext, lk_paths[pi][0] ? "," : "", lk_paths[pi]);
	port = port_probe(name, args);
	if (port < 0 || lk_start((uint16_t)port, mp) != 0) {
		printf("    port not started\n");
		goto out;
	}
	rxq = rte_eth_devices[port].data->rx_queues[0];
	memset(&k, 0, sizeof(k));
	k.ctx = rxq->priv->ctx;
	rte_mempool_mem_iter(mp, lk_chunk_add, &k);
	regions = lk_distinct(&k);
	printf("    %u chunks, %u regions\n", k.n, regions);
	if (k.bad != 0 || k.n != mp->nb_mem_chunks) {
		printf("    %u chunks without exactly one MR\n", k.bad);
		goto out;
	}
	if (regions != l->regions) {
		printf("    %u regions for %u chunks (%u expected)\n", regions,
		       l->n, l->regions);
		goto out;
	}
	/* As many MRs on the device as regions: none registered twice. */
	memset(&ns, 0, sizeof(ns));
	if (mlx5_emu_net_stats_get(k.ctx, &ns) != 0 || ns.mrs != regions) {
		printf("    %u MRs on the device for %u regions\n", ns.mrs,
		       regions);
		goto out;
	}
	if (l->ext && (lk_span_check(&k, l->foreign) != 0 ||
		       lk_entries_check(rxq, mp, &k) != 0))
		goto out;
	if ((rxq->mrt != NULL) != (regions > 1) ||
	    (rxq->mrt != NULL && ((rxq->mrt->searched != 0) != l->searched ||
				  (rxq->mrt->fast != NULL) != l->exact))) {
		printf("    lkey table %s, %u granules searched, %s\n",
		       rxq->mrt != NULL ? "built" : "not built",
		       rxq->mrt != NULL ? rxq->mrt->searched : 0,
		       rxq->mrt != NULL && rxq->mrt->fast != NULL ? "exact" :
		       "collisions");
		goto out;
	}
	mlx5_emu_net_engine_pause(1);
	ret = lk_traffic((uint16_t)port, wire, rxq, &k);
	mlx5_emu_net_engine_pause(0);
	if (ret == 0 && (mlx5_emu_port_stats_get(k.ctx, &ps) != 0 ||
			 ps.rx_errors != 0 || ps.rx_packets !=
			 (uint64_t)LK_ROUND * LK_ROUNDS)) {
		printf("    port: %" PRIu64 " frames, %" PRIu64 " errors\n",
		       ps.rx_packets, ps.rx_errors);
		ret = -1;
	}
out:
	if (port >= 0)
		port_remove((uint16_t)port);
	rte_mempool_free(mp);
	heap_use(&after);
	if (heap_use_same(&before, &after, l->name) != 0)
		ret = -1;
	return ret;
}

static int
test_rx_lkey(void)
{
	unsigned int li, pi, failed = 0, n = 0;

	TEST_ASSERT_SUCCESS(net_load(), "PMD not loaded");
	TEST_ASSERT_SUCCESS(net_ethdev_hold(), "ethdev owner");
	for (li = 0; li < RTE_DIM(lk_layouts); li++)
		for (pi = 0; pi < RTE_DIM(lk_paths); pi++, n++)
			if (lk_case_run(li, pi) != 0) {
				printf("  case %s, \"%s\": FAILED\n",
				       lk_layouts[li].name, lk_paths[pi]);
				failed++;
			}
	net_ethdev_release();
	TEST_ASSERT_EQUAL(failed, 0u, "%u of %u cases failed", failed, n);
	return TEST_SUCCESS;
}

static struct unit_test_suite net_rx_lkey_suite = {
	.suite_name = "net_rx_lkey",
	.unit_test_cases = {
		TEST_CASE(test_rx_lkey),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(net_rx_lkey, net_rx_lkey_suite);
