/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The device clock and the timestamps of completions.
 *
 * What the device reports, and the model after it:
 * - a free-running clock (the internal timer) counting at
 *   HCA_CAP.device_frequency_khz (caps.device_frequency_khz; ConnectX-4
 *   Lx and ConnectX-5 report 156250, ConnectX-6 Dx and later 1000000);
 *   rdma-core's mlx5_query_rt_values() returns its raw value in
 *   raw_clock.tv_nsec (tv_sec 0), the ibv_query_rt_values_ex() net/mlx5
 *   reads for rte_eth_read_clock() (mlx5_read_clock() in
 *   linux/mlx5_ethdev_os.c);
 * - a real-time clock, whose stamps carry seconds in the upper 32 bits and
 *   nanoseconds in the lower 32 (DPDK's mlx5_txpp_convert_rx_ts()); the
 *   model's real-time clock is the host's CLOCK_REALTIME;
 * - which of the two the queues stamp with: HCA_CAP.rq_ts_format and
 *   sq_ts_format (caps.ts_format: 0 free-running only, 1 real-time only,
 *   2 both) bound the ts_format an RQ or SQ may ask for (0 free-running, 1
 *   default, 2 real-time; mlx5_prm.h), and net/mlx5 asks for DEFAULT unless
 *   only free-running is offered (mlx5_ts_format_conv()) because the
 *   firmware refuses a format it does not offer. DEFAULT is the clock the
 *   MTUTC register's time_stamp_mode selects (0 internal timer, 1 real
 *   time; caps.clock_real_time), the register net/mlx5 reads through
 *   ACCESS_REGISTER_USER to learn whether its timestamps are real-time
 *   (mlx5_rt_timestamp_config() in mlx5.c; access_register_user in
 *   HCA_CAP gates the read).
 * The engine samples the monotonic host clock once per batch
 * (mlx5_emu_engine.c) and each queue turns it into its format: the
 * free-running ticks by one 64x32 multiply, the real-time stamp from one
 * CLOCK_REALTIME read per batch, taken only when a real-time queue
 * completes something.
 */

#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <time.h>

#include <mlx5_prm.h>

#include "mlx5_emu_net.h"
#include "mlx5_emu_private.h"

#define EMU_NS_PER_S 1000000000ull

uint64_t
emu_clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * EMU_NS_PER_S + (uint64_t)ts.tv_nsec;
}

uint64_t
emu_clock_rt(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec << 32 | (uint64_t)ts.tv_nsec;
}

/* Free-running ticks per nanosecond in 32.32 fixed point: khz / 10^6. */
static uint64_t
emu_clock_mult(const struct emu_dev *dev)
{
	return ((uint64_t)dev->caps.device_frequency_khz << 32) / 1000000;
}

static uint64_t
emu_clock_fr(const struct emu_dev *dev, uint64_t ns)
{
	return emu_clock_ticks(ns, emu_clock_mult(dev));
}

/* EMU_TS_FR or EMU_TS_RT for a queue's ts_format; -1: not offered. */
static int
emu_clock_format(const struct emu_dev *dev, uint8_t ts_format)
{
	uint8_t cap = dev->caps.ts_format;

	switch (ts_format) {
	case MLX5_QPC_TIMESTAMP_FORMAT_FREE_RUNNING:
		return cap == MLX5_HCA_CAP_TIMESTAMP_FORMAT_RT ? -1 :
		       EMU_TS_FR;
	case MLX5_QPC_TIMESTAMP_FORMAT_DEFAULT:
		if (cap == MLX5_HCA_CAP_TIMESTAMP_FORMAT_FR)
			return EMU_TS_FR;
		if (cap == MLX5_HCA_CAP_TIMESTAMP_FORMAT_RT)
			return EMU_TS_RT;
		return dev->caps.clock_real_time ? EMU_TS_RT : EMU_TS_FR;
	case MLX5_QPC_TIMESTAMP_FORMAT_REAL_TIME:
		return cap == MLX5_HCA_CAP_TIMESTAMP_FORMAT_FR ? -1 :
		       EMU_TS_RT;
	default:
		return -1;
	}
}

int
emu_clock_queue_format(struct emu_dev *dev, const char *cmd,
		       uint8_t ts_format, int *fmt, void *out, size_t outlen)
{
	*fmt = emu_clock_format(dev, ts_format);
	if (*fmt >= 0)
		return 0;
	/* rq_ts_format and sq_ts_format are both caps.ts_format. */
	EMU_LOG(ERR, "%s: %s: ts_format %u not offered (HCA_CAP ts_format "
		"%u)", dev->name, cmd, ts_format, dev->caps.ts_format);
	return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_BAD_PARAM_ERR,
			    MLX5_EMU_SYND_NET_TS_FORMAT);
}

void
emu_clock_wq_init(const struct emu_dev *dev, struct emu_wq *wq, int fmt)
{
	wq->ts_rt = fmt == EMU_TS_RT;
	wq->ts_mult = emu_clock_mult(dev);
}

int
emu_clock_query_rt_values(struct emu_dev *dev, struct ibv_values_ex *values)
{
	uint32_t mask = values->comp_mask;

	/* rdma-core mlx5_query_rt_values(): the raw clock only. */
	values->comp_mask = 0;
	if (mask & IBV_VALUES_MASK_RAW_CLOCK) {
		values->raw_clock.tv_sec = 0;
		values->raw_clock.tv_nsec =
			(long)emu_clock_fr(dev, emu_clock_ns());
		values->comp_mask |= IBV_VALUES_MASK_RAW_CLOCK;
	}
	return 0;
}

/*
 * The kernel's clock-info page (drivers/net/ethernet/mellanox/mlx5/core/
 * lib/clock.c, Linux 6.1): the cycle counter of the free-running clock has
 * mask CLOCKSOURCE_MASK(41), shift MLX5_CYCLES_SHIFT (23) and mult
 * clocksource_khz2mult(device_frequency_khz, 23); the timecounter starts
 * at the real time (ktime_get_real()), and mlx5_update_clock_info_page()
 * copies its nsec, cycle_last and frac with mult, shift and mask.
 */
#define EMU_CI_SHIFT 23
#define EMU_CI_MASK ((1ull << 41) - 1)

typedef int (*emu_clock_info_fn)(struct ibv_context *,
				 struct mlx5dv_clock_info *);

/* libmlx5's entry for a context the model does not know. */
static int
emu_clock_info_fwd(struct ibv_context *ctx, struct mlx5dv_clock_info *ci)
{
	void *sym;

	if (!emu_rdma_seen()) {
		EMU_LOG(ERR, "get_clock_info: %p is not the model's and the "
			"process has no RDMA device: refused", (void *)ctx);
		return emu_ret_errno(EINVAL);
	}
	sym = dlsym(RTLD_DEFAULT, "mlx5dv_get_clock_info");
	if (sym == NULL)
		return emu_ret_errno(EOPNOTSUPP);
	return ((emu_clock_info_fn)(uintptr_t)sym)(ctx, ci);
}

int
mlx5_emu_get_clock_info(struct ibv_context *ctx,
			struct mlx5dv_clock_info *ci)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);
	struct timespec rt;
	uint32_t khz;
	int nopage, busy, pinned;

	if (dev == NULL)
		return emu_clock_info_fwd(ctx, ci);
	pthread_mutex_lock(&dev->lock);
	nopage = emu_fault_hit(dev, MLX5_EMU_FAIL_CLOCK_INFO);
	busy = !nopage && emu_fault_hit(dev, MLX5_EMU_FAIL_CLOCK_INFO_BUSY);
	pinned = dev->clock_pinned;
	if (pinned && !nopage && !busy)
		*ci = dev->clock_pin;
	pthread_mutex_unlock(&dev->lock);
	/* rdma-core _mlx5dv_get_clock_info(): no page mapped, EINVAL; the
	 * page's sign with MLX5_IB_CLOCK_INFO_KERNEL_UPDATING through ten
	 * reads, EBUSY.
	 */
	if (nopage || busy) {
		EMU_LOG(ERR, "%s: get_clock_info: %s", dev->name, nopage ?
			"no clock-info page" : "kernel updating the page");
		return nopage ? EINVAL : EBUSY;
	}
	if (pinned)
		return 0;
	khz = dev->caps.device_frequency_khz;
	clock_gettime(CLOCK_REALTIME, &rt);
	ci->last_cycles = emu_clock_fr(dev, emu_clock_ns()) & EMU_CI_MASK;
	ci->nsec = (uint64_t)rt.tv_sec * EMU_NS_PER_S + (uint64_t)rt.tv_nsec;
	ci->frac = 0;
	ci->mult = (uint32_t)((((uint64_t)1000000 << EMU_CI_SHIFT) +
			       khz / 2) / khz);
	ci->shift = EMU_CI_SHIFT;
	ci->mask = EMU_CI_MASK;
	return 0;
}

int
mlx5_emu_clock_info_pin(struct ibv_context *ctx,
			const struct mlx5dv_clock_info *ci)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);

	if (dev == NULL)
		return -EINVAL;
	pthread_mutex_lock(&dev->lock);
	dev->clock_pinned = ci != NULL;
	if (ci != NULL)
		dev->clock_pin = *ci;
	pthread_mutex_unlock(&dev->lock);
	return 0;
}

/*
 * ACCESS_REGISTER_USER (caller holds dev->lock): reads of the MTUTC
 * register, the one register the model has. Its layout is
 * mlx5_ifc_register_mtutc_bits; a read returns time_stamp_mode (and
 * time_stamp_state 0, the clock running). Writes (op_mod 0: setting the
 * clock or its frequency, a privileged operation of PTP daemons) are
 * refused as an unsupported op_mod; any other register id as a bad
 * parameter. The output mailbox must hold the register.
 */
int
emu_clock_access_register(struct emu_dev *dev, const void *in, size_t inlen,
			  void *out, size_t outlen)
{
	size_t hdr = MLX5_ST_SZ_BYTES(access_register_out);
	uint16_t reg_id;
	void *data;

	if (inlen < MLX5_ST_SZ_BYTES(access_register_in))
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_INLEN);
	if (EMU_GET(access_register_in, in, op_mod) !=
	    MLX5_ACCESS_REGISTER_IN_OP_MOD_READ) {
		EMU_LOG(ERR, "%s: ACCESS_REGISTER_USER: op_mod %u (only reads,"
			" op_mod 1, are modelled)", dev->name,
			EMU_GET(access_register_in, in, op_mod));
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_OP_ERR,
				    MLX5_EMU_SYND_BAD_OP_MOD);
	}
	reg_id = EMU_GET(access_register_in, in, register_id);
	if (reg_id != MLX5_REGISTER_ID_MTUTC) {
		EMU_LOG(ERR, "%s: ACCESS_REGISTER_USER: register 0x%04x not "
			"accessible (MTUTC 0x%04x only)", dev->name, reg_id,
			MLX5_REGISTER_ID_MTUTC);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_REG_ID);
	}
	if (outlen < hdr + MLX5_ST_SZ_BYTES(register_mtutc)) {
		EMU_LOG(ERR, "%s: ACCESS_REGISTER_USER: output of %zu bytes "
			"cannot hold MTUTC (%zu)", dev->name, outlen,
			hdr + (size_t)MLX5_ST_SZ_BYTES(register_mtutc));
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_OUTLEN);
	}
	memset(out, 0, outlen);
	data = (uint8_t *)out + hdr;
	MLX5_SET(register_mtutc, data, time_stamp_mode,
		 dev->caps.clock_real_time ?
		 MLX5_MTUTC_TIMESTAMP_MODE_REAL_TIME :
		 MLX5_MTUTC_TIMESTAMP_MODE_INTERNAL_TIMER);
	return 0;
}
