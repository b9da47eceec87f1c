/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * The network lock and the progress engine: one thread per process,
 * started when the first SQ or RQ goes ready and stopped (joined) when no
 * queue is ready any more. Each pass takes emu_net_lock once and executes
 * the send WQEs every ready SQ's doorbell record announces; the frames are
 * delivered to the receiving RQs in the same pass. When the passes have
 * found nothing to do for EMU_ENGINE_SPIN_US the thread sleeps
 * EMU_ENGINE_NAP_US between passes (no busy burn while idle); while
 * paused it naps at once. The spin is long on purpose: a nap costs far
 * more than asked (timer slack, a halted vCPU to wake: about 150 us for a
 * 30 us nap on the 2-vCPU test VM), and while traffic flows a consumer
 * slower than the engine leaves it idle between its bursts; a nap there
 * stalls the rings for the whole nap.
 *
 * Batching (the engine is the device's data path: everything here is per
 * pass or per batch, nothing takes a lock, allocates or reads the clock
 * per packet):
 * - an SQ's doorbell record is read once per emu_sq_progress() call and
 *   all the WQEs it announces are executed (at most one ring);
 * - an RQ's doorbell record is read only when the WQEs it announced last
 *   time are used up (mlx5_emu_rq.c);
 * - completions are not written one by one: emu_engine_wc() hands out a
 *   slot of the CQ's stage (EMU_CQ_STAGE entries); a full stage, and every
 *   stage at the end of the pass, is written into the ring by one
 *   emu_cqe_post_flags() call: one cq->lock hold, one read of the CQ's
 *   doorbell record (consumer counter) and of its arm doorbell per batch.
 *   Staging is per CQ, so completions of queues sharing a CQ keep their
 *   order;
 * - the model clock is sampled once per batch of at most
 *   EMU_ENGINE_BATCH send WQEs of an SQ (emu_engine_batch_clock(); an
 *   idle pass reads no clock) and when a wire injection begins: every
 *   completion of a batch carries that clock, the
 *   time the device started the batch, in its queue's format (free-running
 *   ticks or real time, mlx5_emu_clock.c); CQE timestamps are therefore
 *   not strictly increasing within a batch; they never go backwards.
 *
 * Completions and the compression timer. On a CQ with compression
 * (cqc.cqe_comp_en) the stage is posted with MLX5_EMU_POST_HOLD:
 * consecutive completions that may share a session join it as on the
 * device, across stage flushes within an SQ's batch. The end of each SQ's
 * batch (and of the pass) stands for the device's compression timer:
 * every CQ the batch staged completions for is written and flushed (open
 * session or enhanced mini-CQE array closed), so nothing stays held
 * between batches nor after emu_net_lock is released.
 *
 * CPU. The thread is created by whichever thread makes the first queue
 * ready and would inherit its CPU set; it is pinned on purpose to the CPU
 * set of the EAL main lcore (when EAL has one), which in the usual
 * "-l 0,1" run is the core the forwarding lcore does not use. While it
 * has work it runs at a higher scheduling weight (emu_engine_weight()),
 * so a main lcore busy-waiting on that core does not halve the device.
 *
 * Lock order (see mlx5_emu_net.h): dev->lock -> emu_engine_ctl_lock ->
 * emu_net_lock -> cq->lock. The thread takes only emu_net_lock, so the
 * control path may join it while holding dev->lock.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sys/resource.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#ifdef RTE_ARCH_X86
#include <cpuid.h>
#endif

#include "mlx5_emu_crypto.h"
#include "mlx5_emu_prefetch.h"

#define EMU_ENGINE_SPIN_US 2000 /* Spin this long after the last work. */
/* Scheduling weight while busy (nice value), and how long after the last
 * work it drops back to the default.
 */
#define EMU_ENGINE_BUSY_NICE (-10)
#define EMU_ENGINE_BUSY_US 100
#define EMU_ENGINE_NAP_US 30
#define EMU_ENGINE_PAUSED_NAP_US 1000

static pthread_mutex_t emu_net_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t emu_engine_ctl_lock = PTHREAD_MUTEX_INITIALIZER;
static TAILQ_HEAD(, emu_net) emu_nets = TAILQ_HEAD_INITIALIZER(emu_nets);
static pthread_t emu_engine_thread;
static int emu_engine_running; /* Thread created and not joined. */
static volatile int emu_engine_stop;
static int emu_engine_paused; /* mlx5_emu_net_engine_pause(). */
/* The current pass (emu_net_lock held). */
static uint64_t emu_pass_ns; /* Clock when the current batch began. */
static uint64_t emu_pass_rt; /* Its real-time stamp, 0 until asked for. */
static struct emu_cq *emu_pass_cqs; /* CQs with staged completions. */

/*
 * What the thread did since it started, counted per pass (one TSC read
 * per pass, none per packet) and logged (INFO) when it stops: where the
 * engine's time goes in a forwarding run. Written by the thread only, on
 * its own cache line.
 */
static struct emu_engine_stats {
	uint64_t passes; /* Passes that executed WQEs. */
	uint64_t wqes; /* Send WQEs executed by them. */
	uint64_t busy_tsc; /* TSC cycles of those passes. */
	uint64_t idle_passes; /* Passes that found nothing. */
	uint64_t idle_tsc; /* TSC cycles of idle passes and spins. */
	uint64_t naps; /* Sleeps after EMU_ENGINE_SPIN_US without work. */
	uint64_t nap_tsc; /* TSC cycles asleep. */
} emu_engine_stats __rte_cache_aligned;

int emu_prefetchw_ok; /* mlx5_emu_prefetch.h */

RTE_INIT(emu_prefetchw_probe)
{
#ifdef RTE_ARCH_X86
	unsigned int a, b, c, d;

	if (__get_cpuid(0x80000001, &a, &b, &c, &d) && (c & (1u << 8)))
		emu_prefetchw_ok = 1;
#endif
}

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
		n += emu_crypto_ready_qps(net);
	}
	return n;
}

void
emu_engine_pass_begin(void)
{
	emu_pass_ns = emu_clock_ns();
	emu_pass_rt = 0;
}

uint64_t
emu_engine_clock_ns(void)
{
	return emu_pass_ns;
}

void
emu_engine_batch_clock(void)
{
	emu_pass_ns = emu_clock_ns();
	emu_pass_rt = 0;
}

/* Write the staged completions of a CQ; final: the pass ends. */
static void
emu_engine_cq_write(struct emu_cq *cq, int final)
{
	uint32_t flags = (cq->cqe_comp_en && !final ? MLX5_EMU_POST_HOLD : 0) |
			 (cq->stage_kind == EMU_QK_CYCLIC_RQ ?
			  EMU_POST_CYCLIC_RQ : 0) |
			 (cq->stage_kind == EMU_QK_STRIDING_RQ ?
			  EMU_POST_STRIDING_RQ : 0);
	unsigned int n = cq->nstage;
	int ret;

	cq->nstage = 0;
	if (n == 0 && !(final && cq->cqe_comp_en))
		return;
	/* On a compressed CQ a final call with n == 0 closes the session. */
	ret = emu_cqe_post_flags(cq, cq->stage, n, flags);
	if (ret < (int)n)
		EMU_LOG(DEBUG, "%s: CQ 0x%x full or in error: %d of %u "
			"completions lost", cq->dev->name, cq->cqn,
			(int)n - (ret < 0 ? 0 : ret), n);
}

/*
 * Write what the CQs of the pass have staged so far, open sessions closed:
 * called after each SQ's batch, so the consumer sees the completions of
 * one SQ while the engine executes the next one's WQEs (in a forwarding
 * run the RX CQEs of one port then do not wait for the other port's TX).
 * On a compressed CQ the end of an SQ's batch is the compression timer:
 * a session left open until the end of the pass would keep a forwarding
 * run's received packets from the consumer while the engine goes on with
 * the other port's WQEs.
 */
static void
emu_engine_pass_write(void)
{
	struct emu_cq *cq;

	for (cq = emu_pass_cqs; cq != NULL; cq = cq->pass_next)
		emu_engine_cq_write(cq, 1);
}

void
emu_engine_pass_end(void)
{
	struct emu_cq *cq;

	while ((cq = emu_pass_cqs) != NULL) {
		emu_pass_cqs = cq->pass_next;
		cq->pass_next = NULL;
		cq->in_pass = 0;
		emu_engine_cq_write(cq, 1);
	}
}

struct mlx5_emu_wc *
emu_engine_wc(struct emu_wq *wq)
{
	struct emu_cq *cq = wq->cq;
	struct mlx5_emu_wc *cpl;

	if (!cq->in_pass) {
		cq->in_pass = 1;
		cq->pass_next = emu_pass_cqs;
		emu_pass_cqs = cq;
	}
	/* A stage holds completions of one kind of queue: those of cyclic
	 * RQs carry no stride index in their mini-CQEs, those of striding
	 * RQs a stride index.
	 */
	if (cq->nstage == EMU_CQ_STAGE ||
	    (cq->nstage != 0 && cq->stage_kind != wq->q_kind))
		emu_engine_cq_write(cq, 0);
	cq->stage_kind = wq->q_kind;
	cpl = &cq->stage[cq->nstage++];
	memset(cpl, 0, sizeof(*cpl));
	if (wq->ts_rt) {
		if (emu_pass_rt == 0)
			emu_pass_rt = emu_clock_rt();
		cpl->timestamp = emu_pass_rt;
	} else {
		cpl->timestamp = emu_clock_ticks(emu_pass_ns, wq->ts_mult);
	}
	return cpl;
}

/* One pass over every ready SQ of the process (emu_net_lock held). */
static unsigned int
emu_engine_pass(void)
{
	struct emu_net *net;
	struct emu_sq *sq;
	unsigned int n = 0;

	/* The clock is sampled by each SQ batch (emu_sq_progress()). */
	TAILQ_FOREACH(net, &emu_nets, next) {
		/* A failed device executes nothing (mlx5_emu_health.c). */
		if (emu_dev_failed(net->dev))
			continue;
		TAILQ_FOREACH(sq, &net->sqs, next) {
			unsigned int k;

			if (sq->wq.state != EMU_Q_RDY)
				continue;
			k = emu_sq_progress(sq);
			if (k != 0)
				emu_engine_pass_write();
			n += k;
		}
		/* Loopback crypto QPs (mlx5_emu_umr.c). */
		n += emu_crypto_progress(net);
	}
	/*
	 * LRO sessions whose timeout passed since their last segment are
	 * closed here (mlx5_emu_lro.c): the thread's passes go on while a
	 * queue is ready, so no session outlives its timeout by more than a
	 * pass (or a nap).
	 */
	if (unlikely(emu_lro_open_n != 0)) {
		emu_engine_batch_clock();
		emu_lro_expire(emu_pass_ns);
	}
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

/* Log what the thread did (it is stopped: no race on the counters). */
static void
emu_engine_stats_log(void)
{
	const struct emu_engine_stats *st = &emu_engine_stats;

	EMU_LOG(INFO, "engine: %" PRIu64 " WQEs in %" PRIu64 " busy passes "
		"(%" PRIu64 " TSC cycles per WQE, %" PRIu64 " WQEs per "
		"pass), %" PRIu64 " idle passes (%" PRIu64 " cycles), %"
		PRIu64 " naps (%" PRIu64 " cycles), TSC %" PRIu64 " Hz",
		st->wqes, st->passes,
		st->wqes != 0 ? st->busy_tsc / st->wqes : 0,
		st->passes != 0 ? st->wqes / st->passes : 0,
		st->idle_passes, st->idle_tsc, st->naps, st->nap_tsc,
		rte_get_tsc_hz());
}

/*
 * The thread's scheduling weight: nice value nice for this thread alone
 * (Linux: setpriority() on a thread id). While it has work the engine
 * runs at EMU_ENGINE_BUSY_NICE, so that on the CPU it shares with the
 * EAL main lcore, which often busy-waits (rte_eal_wait_lcore()), it gets
 * most of the time, as a device works beside the cores rather than in
 * their time slices; EMU_ENGINE_BUSY_US after its last work it is back at
 * the default, so its idle spin takes no more than its share. 1 when
 * set, -1 when the process may not raise it (no CAP_SYS_NICE): the
 * engine then keeps the default weight.
 */
static int
emu_engine_weight(int nice)
{
	if (setpriority(PRIO_PROCESS, (id_t)gettid(), nice) != 0) {
		EMU_LOG(DEBUG, "engine: scheduling weight %d not set (%s)",
			nice, strerror(errno));
		return -1;
	}
	return 1;
}

static void *
emu_engine_main(void *arg)
{
	struct emu_engine_stats *st = &emu_engine_stats;
	uint64_t spin = rte_get_tsc_hz() / 1000000 * EMU_ENGINE_SPIN_US;
	uint64_t t0, t1, last_work, busy_keep;
	int boost = 0; /* 1: busy weight set; -1: not permitted */

	(void)arg;
	memset(st, 0, sizeof(*st));
	t0 = rte_rdtsc();
	last_work = t0;
	busy_keep = rte_get_tsc_hz() / 1000000 * EMU_ENGINE_BUSY_US;
	while (!__atomic_load_n(&emu_engine_stop, __ATOMIC_ACQUIRE)) {
		unsigned int n = 0;

		if (!__atomic_load_n(&emu_engine_paused, __ATOMIC_ACQUIRE)) {
			emu_net_lock();
			n = emu_engine_pass();
			emu_net_unlock();
		}
		t1 = rte_rdtsc();
		if (n != 0) {
			if (boost == 0)
				boost = emu_engine_weight(EMU_ENGINE_BUSY_NICE);
			st->passes++;
			st->wqes += n;
			st->busy_tsc += t1 - t0;
			t0 = t1;
			last_work = t1;
			continue;
		}
		st->idle_passes++;
		if (boost == 1 && t1 - last_work >= busy_keep)
			boost = emu_engine_weight(0) == 1 ? 0 : -1;
		if (t1 - last_work < spin &&
		    !__atomic_load_n(&emu_engine_paused, __ATOMIC_RELAXED)) {
			rte_pause();
			st->idle_tsc += rte_rdtsc() - t0;
		} else {
			/* Paused: nap longer (no wake-ups to steal a core
			 * from whoever drives mlx5_emu_net_progress()).
			 */
			st->idle_tsc += t1 - t0;
			usleep(__atomic_load_n(&emu_engine_paused,
					       __ATOMIC_RELAXED) ?
			       EMU_ENGINE_PAUSED_NAP_US : EMU_ENGINE_NAP_US);
			st->naps++;
			st->nap_tsc += rte_rdtsc() - t1;
		}
		t0 = rte_rdtsc();
	}
	return NULL;
}

/* Pin the thread to the EAL main lcore's CPU set (see the top). */
static void
emu_engine_pin(pthread_t t)
{
	rte_cpuset_t set;
	int ret;

	if (rte_lcore_count() == 0)
		return;
	set = rte_lcore_cpuset(rte_get_main_lcore());
	if (CPU_COUNT(&set) == 0)
		return;
	ret = pthread_setaffinity_np(t, sizeof(set), &set);
	if (ret != 0)
		EMU_LOG(INFO, "engine: not pinned to the main lcore's CPUs "
			"(%s)", strerror(ret));
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
		if (ret == 0) {
			pthread_setname_np(emu_engine_thread, "mlx5-emu-net");
			emu_engine_pin(emu_engine_thread);
		}
		if (ret == 0)
			EMU_LOG(DEBUG, "engine: started (%u ready queues)",
				ready);
	} else if (ready == 0 && emu_engine_running) {
		__atomic_store_n(&emu_engine_stop, 1, __ATOMIC_RELEASE);
		pthread_join(emu_engine_thread, NULL);
		emu_engine_running = 0;
		EMU_LOG(DEBUG, "engine: stopped");
		emu_engine_stats_log();
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
