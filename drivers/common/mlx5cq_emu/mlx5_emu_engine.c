/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The network lock and the progress engine: one thread per process,
 * started when the first SQ or RQ goes ready and stopped (joined) when no
 * queue is ready any more. Each pass takes emu_net_lock and executes the
 * send WQEs every ready SQ's doorbell record announces; the frames are
 * delivered to the receiving RQs in the same pass. When a pass finds
 * nothing to do EMU_ENGINE_SPIN times in a row the thread sleeps
 * EMU_ENGINE_NAP_US between passes (no busy burn while idle).
 *
 * Completions and the compression timer. The completions a pass writes
 * into a CQ with compression (cqc.cqe_comp_en) are posted with
 * MLX5_EMU_POST_HOLD: consecutive completions that may share a session
 * join it as on the device. The end of the pass stands for the device's
 * compression timer: every compressed CQ the pass posted to is flushed
 * (its open session or enhanced mini-CQE array written) before
 * emu_net_lock is released, so nothing stays held between passes. The
 * completions of such a CQ carry the clock sampled when the pass began.
 * CQs without compression are written completion by completion, each with
 * the clock of its own completion, exactly as before.
 *
 * Lock order (see mlx5_emu_net.h): dev->lock -> emu_engine_ctl_lock ->
 * emu_net_lock -> cq->lock. The thread takes only emu_net_lock, so the
 * control path may join it while holding dev->lock.
 */

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mlx5_emu_net.h"

#define EMU_ENGINE_SPIN 1000
#define EMU_ENGINE_NAP_US 30

static pthread_mutex_t emu_net_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t emu_engine_ctl_lock = PTHREAD_MUTEX_INITIALIZER;
static TAILQ_HEAD(, emu_net) emu_nets = TAILQ_HEAD_INITIALIZER(emu_nets);
static pthread_t emu_engine_thread;
static int emu_engine_running; /* Thread created and not joined. */
static volatile int emu_engine_stop;
static int emu_engine_paused; /* mlx5_emu_net_engine_pause(). */
/* The current pass (emu_net_lock held). */
static uint64_t emu_pass_ts; /* Clock when the pass began. */
static uint32_t emu_pass_held; /* Queues with cq_held set. */

void
emu_net_lock(void)
{
	pthread_mutex_lock(&emu_net_mutex);
}

void
emu_net_unlock(void)
{
	pthread_mutex_unlock(&emu_net_mutex);
}

void
emu_engine_attach(struct emu_net *net)
{
	TAILQ_INSERT_TAIL(&emu_nets, net, next);
}

void
emu_engine_detach(struct emu_net *net)
{
	TAILQ_REMOVE(&emu_nets, net, next);
}

uint64_t
emu_clock_ticks(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	/* device_frequency_khz is 1000000: one tick per nanosecond. */
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint32_t
emu_engine_ready_queues(void)
{
	struct emu_net *net;
	struct emu_sq *sq;
	struct emu_rq *rq;
	uint32_t n = 0;

	TAILQ_FOREACH(net, &emu_nets, next) {
		TAILQ_FOREACH(sq, &net->sqs, next)
			n += sq->wq.state == EMU_Q_RDY;
		TAILQ_FOREACH(rq, &net->rqs, next)
			n += rq->wq.state == EMU_Q_RDY;
	}
	return n;
}

void
emu_engine_pass_begin(void)
{
	emu_pass_ts = emu_clock_ticks();
}

/* The session timer of one queue's CQ fired. */
static void
emu_engine_flush_wq(struct emu_wq *wq)
{
	if (!wq->cq_held)
		return;
	wq->cq_held = 0;
	/* -EIO: the CQ went to error (overrun); nothing is held then. */
	(void)emu_cq_flush_locked(wq->cq);
}

void
emu_engine_pass_end(void)
{
	struct emu_net *net;
	struct emu_sq *sq;
	struct emu_rq *rq;

	if (emu_pass_held == 0)
		return;
	TAILQ_FOREACH(net, &emu_nets, next) {
		TAILQ_FOREACH(sq, &net->sqs, next)
			emu_engine_flush_wq(&sq->wq);
		TAILQ_FOREACH(rq, &net->rqs, next)
			emu_engine_flush_wq(&rq->wq);
	}
	emu_pass_held = 0;
}

int
emu_engine_cqe_post(struct emu_wq *wq, const struct mlx5_emu_cpl *cpl)
{
	if (!wq->cq->cqe_comp_en)
		return emu_cqe_post(wq->cq, cpl, 1);
	if (!wq->cq_held) {
		wq->cq_held = 1;
		emu_pass_held++;
	}
	return emu_cqe_post_flags(wq->cq, cpl, 1, MLX5_EMU_POST_HOLD |
				  (wq->cyclic_rq ? EMU_POST_CYCLIC_RQ : 0));
}

uint64_t
emu_engine_cpl_time(const struct emu_wq *wq)
{
	return wq->cq->cqe_comp_en ? emu_pass_ts : emu_clock_ticks();
}

/* One pass over every ready SQ of the process (emu_net_lock held). */
static unsigned int
emu_engine_pass(void)
{
	struct emu_net *net;
	struct emu_sq *sq;
	unsigned int n = 0;

	emu_engine_pass_begin();
	TAILQ_FOREACH(net, &emu_nets, next)
		TAILQ_FOREACH(sq, &net->sqs, next)
			if (sq->wq.state == EMU_Q_RDY)
				n += emu_sq_progress(sq);
	emu_engine_pass_end();
	return n;
}

unsigned int
mlx5_emu_net_progress(void)
{
	unsigned int n;

	emu_net_lock();
	n = emu_engine_pass();
	emu_net_unlock();
	return n;
}

static void *
emu_engine_main(void *arg)
{
	unsigned int idle = 0;

	(void)arg;
	while (!__atomic_load_n(&emu_engine_stop, __ATOMIC_ACQUIRE)) {
		unsigned int n = 0;

		if (!__atomic_load_n(&emu_engine_paused, __ATOMIC_ACQUIRE)) {
			emu_net_lock();
			n = emu_engine_pass();
			emu_net_unlock();
		}
		if (n != 0) {
			idle = 0;
			continue;
		}
		if (idle < EMU_ENGINE_SPIN)
			idle++;
		else
			usleep(EMU_ENGINE_NAP_US);
	}
	return NULL;
}

void
emu_engine_update(void)
{
	uint32_t ready;
	int ret;

	pthread_mutex_lock(&emu_engine_ctl_lock);
	emu_net_lock();
	ready = emu_engine_ready_queues();
	emu_net_unlock();
	if (ready != 0 && !emu_engine_running) {
		__atomic_store_n(&emu_engine_stop, 0, __ATOMIC_RELEASE);
		ret = pthread_create(&emu_engine_thread, NULL, emu_engine_main,
				     NULL);
		if (ret != 0)
			EMU_LOG(ERR, "engine: thread not started (%s); "
				"mlx5_emu_net_progress() still works",
				strerror(ret));
		else
			emu_engine_running = 1;
		if (ret == 0)
			pthread_setname_np(emu_engine_thread, "mlx5-emu-net");
		if (ret == 0)
			EMU_LOG(DEBUG, "engine: started (%u ready queues)",
				ready);
	} else if (ready == 0 && emu_engine_running) {
		__atomic_store_n(&emu_engine_stop, 1, __ATOMIC_RELEASE);
		pthread_join(emu_engine_thread, NULL);
		emu_engine_running = 0;
		EMU_LOG(DEBUG, "engine: stopped");
	}
	pthread_mutex_unlock(&emu_engine_ctl_lock);
}

int
emu_engine_is_running(void)
{
	return __atomic_load_n(&emu_engine_running, __ATOMIC_RELAXED);
}

void
mlx5_emu_net_engine_pause(int pause)
{
	/* Taking the lock waits for a pass in progress to end. */
	emu_net_lock();
	__atomic_store_n(&emu_engine_paused, pause != 0, __ATOMIC_RELEASE);
	emu_net_unlock();
}
