/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Suite "emu_clock": the emulated device's clock: its capabilities
 * (device_frequency_khz, rq/sq_ts_format, access_register_user), the MTUTC
 * register read through ACCESS_REGISTER_USER, the raw clock of
 * ibv_query_rt_values_ex() and its rate, the ts_format queues may ask for,
 * and the CQE timestamps in free-running and real-time format. Expected
 * values follow mlx5_prm.h (cmd_hca_cap, access_register_in/out,
 * register_mtutc, rqc/sqc ts_format) and rdma-core's
 * mlx5_query_rt_values(); the clocks are the host's, read here.
 */

#include <time.h>

#include <rte_cycles.h>

#include "test_emu_net_fixture.h"

static uint64_t
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* Nanoseconds since the epoch, and a real-time stamp turned into them. */
static uint64_t
real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* ns of the monotonic clock in ticks of a khz clock. */
static uint64_t
ticks_of(uint64_t ns, uint32_t khz)
{
	return (uint64_t)((__uint128_t)ns * khz / 1000000u);
}

static uint64_t
raw_clock(struct ibv_context *ctx)
{
	struct ibv_values_ex v;

	memset(&v, 0, sizeof(v));
	v.comp_mask = IBV_VALUES_MASK_RAW_CLOCK;
	if (mlx5_glue->query_rt_values_ex(ctx, &v) != 0 ||
	    v.comp_mask != IBV_VALUES_MASK_RAW_CLOCK || v.raw_clock.tv_sec != 0)
		return 0;
	return (uint64_t)v.raw_clock.tv_nsec;
}

/* Capabilities and the checks of the caps themselves. */
static int
test_clock_caps(void)
{
	uint32_t in[MLX5_ST_SZ_DW(query_hca_cap_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_hca_cap_out)] = { 0 };
	struct ibv_device_attr_ex ex;
	struct mlx5_emu_caps caps;
	struct mlx5_hca_attr attr;
	struct ibv_context *ctx;
	void *g;

	ctx = mlx5_emu_open("eclk_caps", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod,
		 MLX5_GET_HCA_CAP_OP_MOD_GENERAL_DEVICE |
		 MLX5_HCA_CAP_OPMOD_GET_CUR);
	TEST_ASSERT_SUCCESS(mlx5_glue->devx_general_cmd(ctx, in, sizeof(in),
							out, sizeof(out)),
			    "QUERY_HCA_CAP");
	g = MLX5_ADDR_OF(query_hca_cap_out, out, capability);
	TEST_ASSERT_EQUAL(MLX5_GET(cmd_hca_cap, g, device_frequency_khz),
			  156250u, "device_frequency_khz");
	TEST_ASSERT_EQUAL(MLX5_GET(cmd_hca_cap, g, device_frequency_mhz),
			  156u, "device_frequency_mhz");
	TEST_ASSERT_EQUAL(MLX5_GET(cmd_hca_cap, g, rq_ts_format), 2u,
			  "rq_ts_format: free-running and real time");
	TEST_ASSERT_EQUAL(MLX5_GET(cmd_hca_cap, g, sq_ts_format), 2u,
			  "sq_ts_format");
	TEST_ASSERT_EQUAL(MLX5_GET(cmd_hca_cap, g, access_register_user), 1u,
			  "access_register_user");
	memset(&attr, 0, sizeof(attr));
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_query_hca_attr(ctx, &attr), "attr");
	TEST_ASSERT(attr.dev_freq_khz == 156250 && attr.rq_ts_format == 2 &&
		    attr.sq_ts_format == 2 && attr.access_register_user == 1,
		    "DPDK's reading of the caps");
	TEST_ASSERT_SUCCESS(mlx5_glue->query_device_ex(ctx, NULL, &ex),
			    "query_device_ex");
	TEST_ASSERT_EQUAL(ex.hca_core_clock, 156250ull, "hca_core_clock kHz");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	/* Caps that cannot be: a default clock the format does not offer,
	 * reserved values, no clock.
	 */
	mlx5_emu_caps_default(&caps);
	caps.ts_format = 3;
	TEST_ASSERT_NULL(mlx5_emu_open("eclk_bad", &caps), "ts_format 3");
	mlx5_emu_caps_default(&caps);
	caps.ts_format = 0;
	caps.clock_real_time = 1;
	TEST_ASSERT_NULL(mlx5_emu_open("eclk_bad", &caps), "RT default, FR");
	mlx5_emu_caps_default(&caps);
	caps.ts_format = 1;
	TEST_ASSERT_NULL(mlx5_emu_open("eclk_bad", &caps), "FR default, RT");
	mlx5_emu_caps_default(&caps);
	caps.clock_real_time = 2;
	TEST_ASSERT_NULL(mlx5_emu_open("eclk_bad", &caps), "mode 2");
	mlx5_emu_caps_default(&caps);
	caps.device_frequency_khz = 0;
	TEST_ASSERT_NULL(mlx5_emu_open("eclk_bad", &caps), "no clock");
	TEST_ASSERT_EQUAL(mlx5_emu_open_caps_set(&caps), -EINVAL,
			  "open caps checked too");
	return TEST_SUCCESS;
}

/* One ACCESS_REGISTER_USER command; its output mailbox in out. */
static int
reg_cmd(struct ibv_context *ctx, uint16_t op_mod, uint16_t reg, uint8_t *out,
	size_t outlen)
{
	uint8_t in[16];

	/* access_register_in: opcode 0..15, op_mod 48..63, register_id
	 * 80..95, argument 96..127.
	 */
	memset(in, 0, sizeof(in));
	in[0] = 0x0b;
	in[1] = 0x0c;
	in[6] = op_mod >> 8;
	in[7] = op_mod & 0xff;
	in[10] = reg >> 8;
	in[11] = reg & 0xff;
	memset(out, 0xa5, outlen);
	return mlx5_glue->devx_general_cmd(ctx, in, sizeof(in), out, outlen);
}

static int
check_refused(struct ibv_context *ctx, int ret, uint8_t status,
	      uint32_t synd, const char *what)
{
	uint8_t st;
	uint32_t sy;

	TEST_ASSERT(ret != 0, "%s: refused", what);
	TEST_ASSERT_SUCCESS(mlx5_emu_last_cmd_error(ctx, &st, &sy), "error");
	TEST_ASSERT(st == status && sy == synd, "%s: status 0x%x syndrome "
		    "0x%08x, expected 0x%x 0x%08x", what, st, sy, status, synd);
	return TEST_SUCCESS;
}

/* MTUTC: time_stamp_mode in the top two bits of the register's first
 * byte (register_mtutc), after the 16-byte access_register_out header.
 */
static int
test_clock_mtutc(void)
{
	uint32_t reg[MLX5_ST_SZ_DW(register_mtutc)];
	struct mlx5_emu_caps caps;
	struct ibv_context *ctx, *rt;
	uint8_t out[16 + 28];

	ctx = mlx5_emu_open("eclk_reg", NULL);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	TEST_ASSERT_SUCCESS(reg_cmd(ctx, 1, 0x9055, out, sizeof(out)),
			    "MTUTC read");
	TEST_ASSERT(out[0] == 0 && out[16] == 0x00, "status %u, mode byte "
		    "0x%02x: internal timer", out[0], out[16]);
	mlx5_emu_caps_default(&caps);
	caps.clock_real_time = 1;
	rt = mlx5_emu_open("eclk_reg_rt", &caps);
	TEST_ASSERT_NOT_NULL(rt, "open");
	TEST_ASSERT_SUCCESS(reg_cmd(rt, 1, 0x9055, out, sizeof(out)),
			    "MTUTC read");
	TEST_ASSERT_EQUAL(out[16], 0x40, "mode byte 0x%02x: real time",
			  out[16]);
	/* As net/mlx5 reads it (mlx5_rt_timestamp_config()). */
	memset(reg, 0xff, sizeof(reg));
	TEST_ASSERT_SUCCESS(mlx5_devx_cmd_register_read(rt,
			    MLX5_REGISTER_ID_MTUTC, 0, reg, RTE_DIM(reg)),
			    "register_read");
	TEST_ASSERT_EQUAL(MLX5_GET(register_mtutc, reg, time_stamp_mode),
			  (uint32_t)MLX5_MTUTC_TIMESTAMP_MODE_REAL_TIME,
			  "DPDK reads real time");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(rt), "close");
	/* A write, another register, an output too short for MTUTC. */
	TEST_ASSERT_SUCCESS(check_refused(ctx, reg_cmd(ctx, 0, 0x9055, out,
			    sizeof(out)), 0x2, MLX5_EMU_SYND_BAD_OP_MOD,
			    "write"), "write");
	TEST_ASSERT_SUCCESS(check_refused(ctx, reg_cmd(ctx, 1, 0xc002, out,
			    sizeof(out)), 0x3, MLX5_EMU_SYND_REG_ID,
			    "crypto operational register"), "register");
	TEST_ASSERT_SUCCESS(check_refused(ctx, reg_cmd(ctx, 1, 0x9055, out,
			    16 + 8), 0x3, MLX5_EMU_SYND_OUTLEN,
			    "short output"), "outlen");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	return TEST_SUCCESS;
}

/* The raw clock against the host's monotonic clock over 50 ms. */
static int
clock_rate(uint32_t khz)
{
	struct timespec d = { .tv_sec = 0, .tv_nsec = 50000000 };
	struct mlx5_emu_caps caps;
	struct ibv_context *ctx;
	struct ibv_values_ex v;
	uint64_t r0, r1, t0, t1, lo, hi;

	mlx5_emu_caps_default(&caps);
	caps.device_frequency_khz = khz;
	ctx = mlx5_emu_open("eclk_rate", &caps);
	TEST_ASSERT_NOT_NULL(ctx, "open");
	t0 = mono_ns();
	r0 = raw_clock(ctx);
	nanosleep(&d, NULL);
	r1 = raw_clock(ctx);
	t1 = mono_ns();
	/* Each read lies between the host clock reads around it. */
	lo = ticks_of(t0, khz);
	hi = ticks_of(t1, khz);
	TEST_ASSERT(r0 >= lo && r1 <= hi && r1 > r0, "%u kHz: raw %" PRIu64
		    " .. %" PRIu64 " outside %" PRIu64 " .. %" PRIu64, khz, r0,
		    r1, lo, hi);
	/* 50 ms at least: (r1 - r0) / khz ms. */
	TEST_ASSERT((r1 - r0) >= (uint64_t)khz * 50 - 1, "%u kHz: %" PRIu64
		    " ticks in 50 ms or more", khz, r1 - r0);
	/* Nothing asked, nothing given. */
	memset(&v, 0, sizeof(v));
	v.raw_clock.tv_nsec = 7;
	TEST_ASSERT_SUCCESS(mlx5_glue->query_rt_values_ex(ctx, &v), "query");
	TEST_ASSERT(v.comp_mask == 0 && v.raw_clock.tv_nsec == 7,
		    "no raw clock unasked");
	TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	return TEST_SUCCESS;
}

static int
test_clock_rate(void)
{
	TEST_ASSERT_SUCCESS(clock_rate(156250), "156.25 MHz");
	TEST_ASSERT_SUCCESS(clock_rate(1000000), "1 GHz");
	return TEST_SUCCESS;
}

/* A raw CREATE_RQ or CREATE_SQ that reaches the ts_format check. */
static int
create_q_refused(struct ibv_context *ctx, int sq, uint8_t ts_format)
{
	uint32_t in[MLX5_ST_SZ_DW(create_sq_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(create_sq_out)] = { 0 };
	struct mlx5_devx_obj *o;
	struct mlx5_emu_stats s0, s1;
	void *qc;

	/* rqc and sqc both hold ts_format at bits 26..27 of dword 0. */
	if (sq) {
		MLX5_SET(create_sq_in, in, opcode, MLX5_CMD_OP_CREATE_SQ);
		qc = MLX5_ADDR_OF(create_sq_in, in, ctx);
		MLX5_SET(sqc, qc, ts_format, ts_format);
	} else {
		MLX5_SET(create_rq_in, in, opcode, MLX5_CMD_OP_CREATE_RQ);
		qc = MLX5_ADDR_OF(create_rq_in, in, ctx);
		MLX5_SET(rqc, qc, ts_format, ts_format);
		MLX5_SET(rqc, qc, mem_rq_type,
			 MLX5_RQC_MEM_RQ_TYPE_MEMORY_RQ_INLINE);
	}
	mlx5_emu_stats_get(ctx, &s0);
	o = (void *)mlx5_glue->devx_obj_create(ctx, in, sizeof(in), out,
					       sizeof(out));
	mlx5_emu_stats_get(ctx, &s1);
	TEST_ASSERT_NULL(o, "%s ts_format %u created", sq ? "SQ" : "RQ",
			 ts_format);
	TEST_ASSERT_EQUAL(s1.devx_objs, s0.devx_objs, "no object left");
	return check_refused(ctx, 1, 0x3, MLX5_EMU_SYND_NET_TS_FORMAT,
			     sq ? "SQ ts_format" : "RQ ts_format");
}

/* Queues ask only for the clocks the caps offer (DPDK's
 * mlx5_ts_format_conv() exists because the firmware refuses the others).
 */
static int
test_clock_ts_format_refused(void)
{
	static const struct {
		uint8_t cap, rt, fmt;
	} bad[] = {
		{ 0, 0, 2 }, /* Free-running only: REAL_TIME. */
		{ 1, 1, 0 }, /* Real time only: FREE_RUNNING. */
		{ 2, 0, 3 }, /* Reserved. */
	};
	struct mlx5_emu_caps caps;
	struct ibv_context *ctx;
	unsigned int i;

	for (i = 0; i < RTE_DIM(bad); i++) {
		mlx5_emu_caps_default(&caps);
		caps.ts_format = bad[i].cap;
		caps.clock_real_time = bad[i].rt;
		ctx = mlx5_emu_open("eclk_fmt", &caps);
		TEST_ASSERT_NOT_NULL(ctx, "open");
		TEST_ASSERT_SUCCESS(mlx5_emu_port_config(ctx, "eclk_fmt_w",
							 mac_a), "port");
		TEST_ASSERT_SUCCESS(create_q_refused(ctx, 0, bad[i].fmt),
				    "RQ, case %u", i);
		TEST_ASSERT_SUCCESS(create_q_refused(ctx, 1, bad[i].fmt),
				    "SQ, case %u", i);
		TEST_ASSERT_SUCCESS(mlx5_emu_close(ctx), "close");
	}
	return TEST_SUCCESS;
}

/*
 * One frame from a to b; the TX and RX CQE timestamps, and the host clock
 * read before and after (monotonic ns or real-time ns).
 */
static int
stamps(const struct mlx5_emu_caps *caps, uint8_t ts_format, uint64_t *tx,
	uint64_t *rx, uint64_t *mono0, uint64_t *mono1, uint64_t *rt0,
	uint64_t *rt1)
{
	uint8_t frame[128];
	struct nport a, b;
	const uint8_t *c;
	uint32_t len;
	int ret;

	TEST_ASSERT_SUCCESS(mlx5_emu_open_caps_set(caps), "caps");
	nport_ts_format = ts_format;
	ret = nport_open(&a, "eclk_a", "eclk_wire", mac_a, 0);
	if (ret == TEST_SUCCESS)
		ret = nport_open(&b, "eclk_b", "eclk_wire", mac_b, 0);
	nport_ts_format = 0;
	mlx5_emu_open_caps_set(NULL);
	if (ret != TEST_SUCCESS)
		return ret;
	rq_post(&b, 1);
	len = frame_tcp4(frame, mac_b, mac_a, 40, 0, 0);
	send_frame(&a, frame, len, 0);
	*mono0 = mono_ns();
	*rt0 = real_ns();
	TEST_ASSERT_EQUAL(mlx5_emu_net_progress(), 1u, "one WQE");
	*rt1 = real_ns();
	*mono1 = mono_ns();
	c = cqe_next(&a.scq, &a.scq_ci);
	TEST_ASSERT_NOT_NULL(c, "TX CQE");
	*tx = rd64(c + CQE_TIMESTAMP);
	c = cqe_next(&b.rcq, &b.rcq_ci);
	TEST_ASSERT_NOT_NULL(c, "RX CQE");
	*rx = rd64(c + CQE_TIMESTAMP);
	TEST_ASSERT_SUCCESS(nport_close(&b), "close b");
	return nport_close(&a);
}

static int
check_fr(uint64_t ts, uint64_t t0, uint64_t t1, uint32_t khz,
	 const char *what)
{
	TEST_ASSERT(ts >= ticks_of(t0, khz) && ts <= ticks_of(t1, khz),
		    "%s: %" PRIu64 " not in %" PRIu64 " .. %" PRIu64 " ticks",
		    what, ts, ticks_of(t0, khz), ticks_of(t1, khz));
	return TEST_SUCCESS;
}

/* Seconds above, nanoseconds below (DPDK's mlx5_txpp_convert_rx_ts()). */
static int
check_rt(uint64_t ts, uint64_t t0, uint64_t t1, const char *what)
{
	uint64_t ns = (ts >> 32) * NS_PER_S + (ts & UINT32_MAX);

	TEST_ASSERT((ts & UINT32_MAX) < NS_PER_S, "%s: %" PRIu64 " ns field",
		    what, ts & UINT32_MAX);
	TEST_ASSERT(ns >= t0 && ns <= t1, "%s: %" PRIu64 " ns not in %"
		    PRIu64 " .. %" PRIu64, what, ns, t0, t1);
	return TEST_SUCCESS;
}

static int
test_clock_cqe_stamps(void)
{
	uint64_t tx, rx, m0, m1, r0, r1;
	struct mlx5_emu_caps caps;

	/* Default device: FREE_RUNNING and DEFAULT stamp with the internal
	 * timer, REAL_TIME with the real-time clock.
	 */
	mlx5_emu_caps_default(&caps);
	TEST_ASSERT_SUCCESS(stamps(&caps, 0, &tx, &rx, &m0, &m1, &r0, &r1),
			    "FREE_RUNNING");
	TEST_ASSERT_SUCCESS(check_fr(tx, m0, m1, 156250, "TX"), "TX");
	TEST_ASSERT_SUCCESS(check_fr(rx, m0, m1, 156250, "RX"), "RX");
	TEST_ASSERT_SUCCESS(stamps(&caps, 1, &tx, &rx, &m0, &m1, &r0, &r1),
			    "DEFAULT");
	TEST_ASSERT_SUCCESS(check_fr(rx, m0, m1, 156250, "RX DEFAULT"), "RX");
	TEST_ASSERT_SUCCESS(stamps(&caps, 2, &tx, &rx, &m0, &m1, &r0, &r1),
			    "REAL_TIME");
	TEST_ASSERT_SUCCESS(check_rt(tx, r0, r1, "TX REAL_TIME"), "TX");
	TEST_ASSERT_SUCCESS(check_rt(rx, r0, r1, "RX REAL_TIME"), "RX");
	/* MTUTC in real-time mode: DEFAULT is real time, FREE_RUNNING
	 * still the internal timer (here at 1 GHz).
	 */
	caps.clock_real_time = 1;
	caps.device_frequency_khz = 1000000;
	TEST_ASSERT_SUCCESS(stamps(&caps, 1, &tx, &rx, &m0, &m1, &r0, &r1),
			    "DEFAULT, real-time mode");
	TEST_ASSERT_SUCCESS(check_rt(rx, r0, r1, "RX DEFAULT RT"), "RX");
	TEST_ASSERT_SUCCESS(stamps(&caps, 0, &tx, &rx, &m0, &m1, &r0, &r1),
			    "FREE_RUNNING, real-time mode");
	TEST_ASSERT_SUCCESS(check_fr(rx, m0, m1, 1000000, "RX FR 1 GHz"),
			    "RX");
	return TEST_SUCCESS;
}

static struct unit_test_suite emu_clock_suite = {
	.suite_name = "emu_clock",
	.setup = emu_net_setup,
	.teardown = emu_net_teardown,
	.unit_test_cases = {
		TEST_CASE(test_clock_caps),
		TEST_CASE(test_clock_mtutc),
		TEST_CASE(test_clock_rate),
		TEST_CASE(test_clock_ts_format_refused),
		TEST_CASE(test_clock_cqe_stamps),
		TEST_CASES_END()
	},
};

REGISTER_TEST_SUITE(emu_clock, emu_clock_suite);
