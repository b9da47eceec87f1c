/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "wallclock": rte_mlx5cq_read_completion_wallclock_ns() and the
 * creation rule of IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK on the
 * emulated HCA, whose clock-info page the tests pin
 * (mlx5_emu_clock_info_pin()). The expected nanoseconds are worked out
 * below from rdma-core's mlx5dv_ts_to_ns() (mlx5dv.h):
 *   delta = (ts - last_cycles) & mask;
 *   delta <= mask / 2: nsec + ((delta * mult + frac) >> shift)
 *   else: delta = (last_cycles - ts) & mask,
 *         nsec - ((delta * mult - frac) >> shift)
 */

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>
#include <rte_common.h>
#include <rte_errno.h>

#include <mlx5_emu.h>
#include <mlx5_glue.h>
#include <mlx5_prm.h>
#include <rte_mlx5cq.h>

#include "test.h"
#include "test_create_fixture.h"

#define CI_MASK ((1ull << 41) - 1)
#define CI_NSEC 1764975600123456789ull
#define CI_CYCLES 0x100000000ull
#define CI_FRAC 0x12345ull /* 74565 */
#define CI_MULT 53687091u /* clocksource_khz2mult(156250, 23) */
#define CI_SHIFT 23u

#define WC_WALL (IBV_WC_STANDARD_FLAGS | \
	IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK)
#define WC_BOTH (WC_WALL | IBV_WC_EX_WITH_COMPLETION_TIMESTAMP)

static const struct mlx5dv_clock_info ci_known = {
	.nsec = CI_NSEC,
	.last_cycles = CI_CYCLES,
	.frac = CI_FRAC,
	.mult = CI_MULT,
	.shift = CI_SHIFT,
	.mask = CI_MASK,
};

/* An emulated device, its mlx5cq device, a CQ with wc_flags. */
struct wfix {
	struct ibv_context *ctx;
	struct rte_mlx5cq_dev *dev;
	struct rte_mlx5cq *cq;
};

static void
attr_wc(struct rte_mlx5cq_attr *a, enum rte_mlx5cq_path path,
	uint64_t wc_flags)
{
	memset(a, 0, sizeof(*a));
	a->comp_mask = RTE_MLX5CQ_ATTR_WC_FLAGS;
	a->cqe = 63;
	a->wc_flags = wc_flags;
	a->socket = SOCKET_ID_ANY;
	a->path = path;
}

static int
wfix_open(struct wfix *f, const char *name,
	  void (*tweak)(struct mlx5_emu_caps *), enum rte_mlx5cq_path path,
	  uint64_t wc_flags)
{
	struct rte_mlx5cq_attr a;

	memset(f, 0, sizeof(*f));
	f->ctx = emu_open_caps(name, tweak);
	TEST_ASSERT_NOT_NULL(f->ctx, "open %s", name);
	f->dev = rte_mlx5cq_dev_open(f->ctx, SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(f->dev, "dev_open");
	attr_wc(&a, path, wc_flags);
	f->cq = rte_mlx5cq_create(f->dev, &a);
	TEST_ASSERT_NOT_NULL(f->cq, "create: rte_errno %d", rte_errno);
	return TEST_SUCCESS;
}

static void
wfix_close(struct wfix *f)
{
	if (f->cq != NULL)
		rte_mlx5cq_destroy(f->cq);
	if (f->dev != NULL)
		rte_mlx5cq_dev_close(f->dev);
	if (f->ctx != NULL)
		mlx5_emu_close(f->ctx);
	memset(f, 0, sizeof(*f));
}

/* Post n requester completions with these timestamps, wqe_counter i. */
static int
post_ts(struct wfix *f, const uint64_t *ts, unsigned int n)
{
	struct mlx5_emu_wc c[8];
	unsigned int i;

	memset(c, 0, sizeof(c));
	for (i = 0; i < n; i++) {
		c[i].kind = MLX5_EMU_WC_REQ;
		c[i].wqe_counter = (uint16_t)i;
		c[i].timestamp = ts[i];
	}
	TEST_ASSERT_EQUAL(mlx5_emu_cq_post(f->ctx, f->cq->cqn, c, n), (int)n,
			  "post");
	return TEST_SUCCESS;
}

/* Poll n completions; each must read ns[i] (and ts[i] raw when asked). */
static int
poll_expect(struct wfix *f, const uint64_t *ts, const uint64_t *ns,
	    unsigned int n, int raw_too)
{
	unsigned int i;
	uint64_t got;

	TEST_ASSERT_SUCCESS(rte_mlx5cq_start_poll(f->cq, NULL), "start");
	for (i = 0; i < n; i++) {
		if (i > 0 && rte_mlx5cq_next_poll(f->cq) != 0)
			break;
		got = rte_mlx5cq_read_completion_wallclock_ns(f->cq);
		if (got != ns[i] || (raw_too &&
		    rte_mlx5cq_read_completion_ts(f->cq) != ts[i])) {
			rte_mlx5cq_end_poll(f->cq);
			TEST_ASSERT(0, "completion %u: %" PRIu64 " ns, expected"
				    " %" PRIu64, i, got, ns[i]);
		}
	}
	rte_mlx5cq_end_poll(f->cq);
	TEST_ASSERT_EQUAL(i, n, "%u completions of %u", i, n);
	return TEST_SUCCESS;
}

/* Known page, known CQE timestamps: exact nanoseconds (both paths). */
static int
test_wallclock_exact(const void *data)
{
	enum rte_mlx5cq_path path = (enum rte_mlx5cq_path)(uintptr_t)data;
	struct mlx5dv_clock_info wrap = ci_known;
	struct wfix f;
	const uint64_t ts[4] = {
		CI_CYCLES + 1000, CI_CYCLES - 5000, CI_CYCLES,
		CI_CYCLES + 156250000,
	};
	const uint64_t ns[4] = {
		/* (1000 * 53687091 + 74565) >> 23 = 53687165565 >> 23 */
		CI_NSEC + 6400,
		/* older: (5000 * 53687091 - 74565) >> 23 = 268435380435 >> 23 */
		CI_NSEC - 31999,
		/* delta 0: (0 + 74565) >> 23 */
		CI_NSEC,
		/* one second of 156.25 MHz ticks: 8388608015699015 >> 23 */
		CI_NSEC + 999999996,
	};
	/* The counter wrapped past the 41-bit mask since last_cycles. */
	const uint64_t wts[1] = { 20 };
	/* delta (20 - (mask - 10)) & mask = 31: 1664299821 >> 23 = 198 */
	const uint64_t wns[1] = { CI_NSEC + 198 };
	int ret;

	TEST_CHECK(wfix_open(&f, path == RTE_MLX5CQ_PATH_DEVX ? "wclk_d" :
			     "wclk_v", NULL, path, WC_BOTH));
	ret = mlx5_emu_clock_info_pin(f.ctx, &ci_known);
	if (ret == 0)
		ret = post_ts(&f, ts, RTE_DIM(ts));
	if (ret == 0)
		ret = poll_expect(&f, ts, ns, RTE_DIM(ts), 1);
	wrap.last_cycles = CI_MASK - 10;
	wrap.frac = 0;
	if (ret == 0)
		ret = mlx5_emu_clock_info_pin(f.ctx, &wrap);
	if (ret == 0)
		ret = post_ts(&f, wts, RTE_DIM(wts));
	if (ret == 0)
		ret = poll_expect(&f, wts, wns, RTE_DIM(wts), 1);
	wfix_close(&f);
	return ret;
}

/* No clock-info page: WALLCLOCK refused at creation, nothing left. */
static int
test_wallclock_refused(void)
{
	struct rte_mlx5cq_attr a;
	struct snap before, after;
	struct wfix f;
	struct rte_mlx5cq *cq;
	int ret = TEST_FAILED;

	memset(&f, 0, sizeof(f));
	f.ctx = emu_open_caps("wclk_r", NULL);
	TEST_ASSERT_NOT_NULL(f.ctx, "open");
	f.dev = rte_mlx5cq_dev_open(f.ctx, SOCKET_ID_ANY);
	if (f.dev == NULL)
		goto out;
	attr_wc(&a, RTE_MLX5CQ_PATH_DEVX, WC_WALL);
	if (snap_take(f.ctx, f.dev, &before) != TEST_SUCCESS)
		goto out;
	mlx5_emu_fail_inject(f.ctx, MLX5_EMU_FAIL_CLOCK_INFO, 0, 1);
	rte_errno = 0;
	cq = rte_mlx5cq_create(f.dev, &a);
	mlx5_emu_fail_inject(f.ctx, MLX5_EMU_FAIL_CLOCK_INFO, 0, 0);
	if (cq != NULL || rte_errno != EOPNOTSUPP) {
		printf("  no page: %p, rte_errno %d, not EOPNOTSUPP\n",
		       (void *)cq, rte_errno);
		if (cq != NULL)
			rte_mlx5cq_destroy(cq);
		goto out;
	}
	if (snap_take(f.ctx, f.dev, &after) != TEST_SUCCESS ||
	    snap_same(&before, &after, "no clock info") != TEST_SUCCESS)
		goto out;
	/* The same request once the page is there. */
	cq = rte_mlx5cq_create(f.dev, &a);
	if (cq == NULL) {
		printf("  with the page: rte_errno %d\n", rte_errno);
		goto out;
	}
	rte_mlx5cq_destroy(cq);
	ret = TEST_SUCCESS;
out:
	wfix_close(&f);
	return ret;
}

/* EBUSY at start_poll leaves the completion in the CQ. */
static int
test_wallclock_busy(void)
{
	const uint64_t ts[2] = { CI_CYCLES + 1000, CI_CYCLES };
	const uint64_t ns[2] = { CI_NSEC + 6400, CI_NSEC };
	struct wfix f;
	int ret;

	TEST_CHECK(wfix_open(&f, "wclk_b", NULL, RTE_MLX5CQ_PATH_DEVX,
			     WC_BOTH));
	ret = mlx5_emu_clock_info_pin(f.ctx, &ci_known);
	if (ret == 0)
		ret = post_ts(&f, ts, RTE_DIM(ts));
	if (ret == 0) {
		mlx5_emu_fail_inject(f.ctx, MLX5_EMU_FAIL_CLOCK_INFO_BUSY, 0,
				     1);
		rte_errno = 0;
		if (rte_mlx5cq_start_poll(f.cq, NULL) != EBUSY ||
		    rte_errno != EBUSY) {
			printf("  kernel updating: rte_errno %d, not EBUSY\n",
			       rte_errno);
			ret = TEST_FAILED;
		} else if (rte_mlx5cq_read_completion_wallclock_ns(f.cq) != 0
			   || rte_errno != EINVAL) {
			printf("  read after EBUSY: rte_errno %d\n", rte_errno);
			ret = TEST_FAILED;
		}
	}
	/* The retry finds the first completion again. */
	if (ret == 0)
		ret = poll_expect(&f, ts, ns, RTE_DIM(ts), 0);
	if (ret == 0 && rte_be_to_cpu_32(f.cq->dbrec[0]) != 2) {
		printf("  dbrec %u, expected 2\n",
		       rte_be_to_cpu_32(f.cq->dbrec[0]));
		ret = TEST_FAILED;
	}
	wfix_close(&f);
	return ret;
}

/* The EPERM and EINVAL rules of the read_* functions. */
static int
test_wallclock_refusals(void)
{
	const uint64_t ts[1] = { CI_CYCLES };
	struct wfix f;
	int ret = TEST_FAILED;

	TEST_CHECK(wfix_open(&f, "wclk_p", NULL, RTE_MLX5CQ_PATH_DEVX,
			     IBV_WC_STANDARD_FLAGS |
			     IBV_WC_EX_WITH_COMPLETION_TIMESTAMP));
	rte_errno = 0;
	if (rte_mlx5cq_read_completion_wallclock_ns(f.cq) != 0 ||
	    rte_errno != EINVAL) {
		printf("  outside start/end: rte_errno %d\n", rte_errno);
		goto out;
	}
	if (post_ts(&f, ts, 1) != TEST_SUCCESS ||
	    rte_mlx5cq_start_poll(f.cq, NULL) != 0)
		goto out;
	rte_errno = 0;
	if (rte_mlx5cq_read_completion_wallclock_ns(f.cq) != 0 ||
	    rte_errno != EPERM)
		printf("  without the flag: rte_errno %d\n", rte_errno);
	else
		ret = TEST_SUCCESS;
	rte_mlx5cq_end_poll(f.cq);
out:
	wfix_close(&f);
	return ret;
}

/* Real time only (HCA_CAP sq/rq_ts_format RT): the CQE's stamp as it is. */
static void
caps_rt(struct mlx5_emu_caps *c)
{
	c->ts_format = MLX5_HCA_CAP_TIMESTAMP_FORMAT_RT;
	c->clock_real_time = 1;
}

static int
test_wallclock_real_time(void)
{
	/* 1764975600 s, 123456789 ns: seconds above, nanoseconds below. */
	const uint64_t ts[1] = { 0x693363f0075bcd15ull };
	struct wfix f;
	int ret;

	/* The page is never read: its absence changes nothing. */
	TEST_CHECK(wfix_open(&f, "wclk_t", caps_rt, RTE_MLX5CQ_PATH_DEVX,
			     WC_WALL));
	mlx5_emu_fail_inject(f.ctx, MLX5_EMU_FAIL_CLOCK_INFO, 0, 100);
	ret = post_ts(&f, ts, 1);
	if (ret == 0)
		ret = poll_expect(&f, ts, ts, 1, 0);
	mlx5_emu_fail_inject(f.ctx, MLX5_EMU_FAIL_CLOCK_INFO, 0, 0);
	wfix_close(&f);
	if (ret)
		return ret;
	/* With the free-running stamp asked too: converted (rdma-core). */
	TEST_CHECK(wfix_open(&f, "wclk_t", caps_rt, RTE_MLX5CQ_PATH_DEVX,
			     WC_BOTH));
	{
		const uint64_t fts[1] = { CI_CYCLES + 1000 };
		const uint64_t fns[1] = { CI_NSEC + 6400 };

		ret = mlx5_emu_clock_info_pin(f.ctx, &ci_known);
		if (ret == 0)
			ret = post_ts(&f, fts, 1);
		if (ret == 0)
			ret = poll_expect(&f, fts, fns, 1, 1);
	}
	wfix_close(&f);
	return ret;
}

/*
 * The live page: a completion stamped with the device clock of now reads
 * as the host's real time of now (within a second).
 */
static int
test_wallclock_live(void)
{
	struct ibv_values_ex v;
	struct timespec rt;
	uint64_t ts[1], host, got = 0;
	struct wfix f;
	int ret;

	TEST_CHECK(wfix_open(&f, "wclk_l", NULL, RTE_MLX5CQ_PATH_DEVX,
			     WC_WALL));
	memset(&v, 0, sizeof(v));
	v.comp_mask = IBV_VALUES_MASK_RAW_CLOCK;
	ret = mlx5_glue->query_rt_values_ex(f.ctx, &v);
	clock_gettime(CLOCK_REALTIME, &rt);
	host = (uint64_t)rt.tv_sec * 1000000000ull + (uint64_t)rt.tv_nsec;
	ts[0] = (uint64_t)v.raw_clock.tv_nsec;
	if (ret == 0)
		ret = post_ts(&f, ts, 1);
	if (ret == 0 && rte_mlx5cq_start_poll(f.cq, NULL) == 0) {
		got = rte_mlx5cq_read_completion_wallclock_ns(f.cq);
		rte_mlx5cq_end_poll(f.cq);
	}
	wfix_close(&f);
	TEST_ASSERT_SUCCESS(ret, "raw clock or post");
	TEST_ASSERT(got + 1000000000ull > host && got < host + 1000000000ull,
		    "%" PRIu64 " ns, host %" PRIu64, got, host);
	return TEST_SUCCESS;
}

static struct unit_test_suite wallclock_suite = {
	.suite_name = "wallclock",
	.unit_test_cases = {
		TEST_CASE_NAMED_WITH_DATA("test_wallclock_exact_devx", NULL,
			NULL, test_wallclock_exact,
			(const void *)RTE_MLX5CQ_PATH_DEVX),
		TEST_CASE_NAMED_WITH_DATA("test_wallclock_exact_verbs", NULL,
			NULL, test_wallclock_exact,
			(const void *)RTE_MLX5CQ_PATH_VERBS),
		TEST_CASE(test_wallclock_refused),
		TEST_CASE(test_wallclock_busy),
		TEST_CASE(test_wallclock_refusals),
		TEST_CASE(test_wallclock_real_time),
		TEST_CASE(test_wallclock_live),
		TEST_CASES_END()
	}
};

REGISTER_TEST_SUITE(wallclock, wallclock_suite);
