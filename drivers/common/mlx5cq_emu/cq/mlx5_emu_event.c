/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Arming, completion events, CQ moderation and async CQ errors.
 *
 * Arm request (rdma-core cq.c mlx5_arm_cq, mlx5dv.h MLX5_CQ_DOORBELL /
 * MLX5_CQ_DB_REQ_NOT_SOL): software stores word = sn << 28 | cmd | ci
 * (sn 2 bits, cmd 1 << 24 solicited-only or 0 any, ci 24 bits) in doorbell
 * record word 1 (big endian), then writes word << 32 | cqn, big endian,
 * at offset 0x20 of the CQ's UAR page. The UAR page of the model is plain
 * memory: the device looks at it whenever it runs for the CQ (each post,
 * flush, producer batch, before writing). A doorbell is taken when the
 * 64-bit value names this CQ, differs from the last one taken, its word
 * equals record word 1 and its sn is not the sn of the arm that fired last
 * (a repeated arm of an already reported sn is ignored). Only the last
 * doorbell written to a UAR page is visible: two CQs sharing a UAR page
 * must each be armed and then run by the model (post/flush) in turn.
 *
 * Event: an armed CQ raises one completion event for the first CQE written
 * after the arm (for a solicited-only arm: the first CQE with the
 * solicited bit, or an error CQE), and disarms; an arm taken while CQEs
 * past its ci are already in the ring (any, not solicited-only) fires at
 * once. Moderation (cqc.cq_max_count, cqc.cq_period in microseconds, set by
 * CREATE_CQ or MODIFY_CQ) holds the event until cq_max_count completions
 * were written since the last event or cq_period microseconds passed
 * since the first of them; the period is checked whenever the model runs
 * for the CQ (no timer thread). On a CQ created with
 * cqc.scqe_break_moderation_en (allowed by HCA_CAP.scqe_break_moderation)
 * a CQE written with the solicited bit (op_own bit 1) or an error CQE
 * releases a due event moderation holds at once, whether that CQE made
 * the event due or an earlier one did; without the bit such CQEs count
 * as any other. The source is the PRM field names (DPDK's mlx5_prm.h
 * cmd_hca_cap.scqe_break_moderation and cqc.scqe_break_moderation_en);
 * the kernel does not use them, and their meaning is taken from the
 * name: a solicited CQE breaks the moderation. The model lets error CQEs
 * break it too, as it lets them end a solicited-only arm's wait above.
 *
 * Delivery: verbs CQs with a completion channel queue the event on it
 * (the channel fd becomes readable; get_cq_event returns the CQ and its
 * cq_context; ack_cq_events counts comp_events_completed). DevX CQs
 * deliver to every event channel subscribed to MLX5_EVENT_TYPE_COMP (0x0)
 * on the CQ object: devx_get_event returns the subscription's cookie and,
 * unless the channel omits event data, the 64 B EQE (type at byte 1, data
 * at 0x20: completion: cqn at 0x38; CQ error: cqn at 0x20, syndrome at
 * 0x2b) as kernel include/linux/mlx5/device.h struct mlx5_eqe lays out.
 * An overrun raises IBV_EVENT_CQ_ERR on the context's async fd (verbs
 * CQs) and MLX5_EVENT_TYPE_CQ_ERROR (0x4, syndrome 0x1 overrun) on
 * subscribed DevX channels.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <mlx5_prm.h>

#include "mlx5_emu_private.h"
#include "mlx5_emu_net.h"

#define EMU_EV_COMP 0x00 /* MLX5_EVENT_TYPE_COMP */
#define EMU_EV_CQ_ERROR 0x04 /* MLX5_EVENT_TYPE_CQ_ERROR */
#define EMU_EQE_SIZE 64
#define EMU_CQ_ERR_SYND_OVERRUN 0x01
#define EMU_UAR_CQ_DB 0x20 /* MLX5_CQ_DOORBELL */
#define EMU_ARM_SOLICITED (1u << 24) /* MLX5_CQ_DB_REQ_NOT_SOL */

struct emu_evch;

/* A subscription of a DevX event channel to an event of a CQ. */
struct emu_sub {
	TAILQ_ENTRY(emu_sub) next;
	struct emu_evch *ch;
	uint16_t type;
	uint64_t cookie;
};

struct emu_cq_ev {
	uint8_t armed;
	uint8_t solicited;
	uint8_t arm_sn;
	uint8_t fired_valid;
	uint8_t fired_sn;
	uint8_t held; /* Event due, held by moderation. */
	uint8_t async_pending; /* CQ error not yet read (verbs). */
	uint64_t last_db; /* Last UAR doorbell taken. */
	uint32_t arm_ci;
	uint64_t arms;
	uint64_t events;
	uint32_t mod_cnt; /* Completions since the last event. */
	uint64_t mod_start; /* TSC of the first of them. */
	uint32_t chan_pending; /* Events queued on the verbs channel. */
	uint64_t chan_seq; /* Order of the oldest of them. */
	TAILQ_HEAD(, emu_sub) subs;
};

/* A queued DevX event. */
struct emu_evq {
	TAILQ_ENTRY(emu_evq) next;
	uint64_t cookie;
	uint32_t cqn;
	uint8_t type;
};

/* A DevX event channel. */
struct emu_evch {
	struct mlx5dv_devx_event_channel pub; /* fd; first member. */
	TAILQ_ENTRY(emu_evch) next;
	struct emu_dev *dev;
	int omit_data;
	pthread_mutex_t lock;
	TAILQ_HEAD(, emu_evq) q;
};

static TAILQ_HEAD(, emu_evch) emu_evchs = TAILQ_HEAD_INITIALIZER(emu_evchs);
static pthread_mutex_t emu_evchs_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t emu_chan_seq;

int
emu_ev_init(struct emu_cq *cq)
{
	struct emu_cq_ev *ev = calloc(1, sizeof(*ev));

	if (ev == NULL)
		return -ENOMEM;
	TAILQ_INIT(&ev->subs);
	cq->ev = ev;
	return 0;
}

void
emu_ev_fini(struct emu_cq *cq)
{
	struct emu_sub *s;

	if (cq->ev == NULL)
		return;
	while ((s = TAILQ_FIRST(&cq->ev->subs)) != NULL) {
		TAILQ_REMOVE(&cq->ev->subs, s, next);
		free(s);
	}
	free(cq->ev);
	cq->ev = NULL;
}

void
emu_fd_signal(int fd)
{
	uint64_t one = 1;

	if (fd >= 0 && write(fd, &one, sizeof(one)) != sizeof(one))
		EMU_LOG(DEBUG, "event fd %d: write failed", fd);
}

static void
emu_fd_drain(int fd)
{
	uint64_t v;

	if (fd >= 0 && read(fd, &v, sizeof(v)) < 0)
		EMU_LOG(DEBUG, "event fd %d: nothing to drain", fd);
}

static void
evch_push(struct emu_evch *ch, uint64_t cookie, uint32_t cqn, uint8_t type)
{
	struct emu_evq *e = calloc(1, sizeof(*e));

	if (e == NULL) {
		EMU_LOG(ERR, "event channel %d: event lost (no memory)",
			ch->pub.fd);
		return;
	}
	e->cookie = cookie;
	e->cqn = cqn;
	e->type = type;
	pthread_mutex_lock(&ch->lock);
	TAILQ_INSERT_TAIL(&ch->q, e, next);
	pthread_mutex_unlock(&ch->lock);
	emu_fd_signal(ch->pub.fd);
}

/* Hand an event of type to the verbs channel and DevX subscribers. */
static void
ev_deliver(struct emu_cq *cq, uint8_t type)
{
	struct emu_cq_ev *ev = cq->ev;
	struct emu_sub *s;

	if (type == EMU_EV_COMP && cq->ibcq != NULL &&
	    cq->ibcq->channel != NULL) {
		if (ev->chan_pending++ == 0)
			ev->chan_seq = __atomic_add_fetch(&emu_chan_seq, 1,
							  __ATOMIC_RELAXED);
		emu_fd_signal(cq->ibcq->channel->fd);
	}
	TAILQ_FOREACH(s, &ev->subs, next)
		if (s->type == type)
			evch_push(s->ch, s->cookie, cq->cqn, type);
}

/*
 * Fire a due event when moderation lets it go; brk: a solicited or error
 * CQE was just written on a CQ with cqc.scqe_break_moderation_en.
 */
static void
ev_try_fire(struct emu_cq *cq, int brk)
{
	struct emu_cq_ev *ev = cq->ev;
	int go;

	if (!ev->held)
		return;
	if (brk || (cq->cq_max_count == 0 && cq->cq_period == 0))
		go = 1;
	else
		go = (cq->cq_max_count != 0 &&
		      ev->mod_cnt >= cq->cq_max_count) ||
		     (cq->cq_period != 0 && ev->mod_cnt != 0 &&
		      (rte_get_tsc_cycles() - ev->mod_start) * 1000000 /
		      rte_get_tsc_hz() >= cq->cq_period);
	if (!go)
		return;
	ev->held = 0;
	ev->mod_cnt = 0;
	ev->events++;
	EMU_LOG(DEBUG, "%s: CQ 0x%x: completion event (sn %u)",
		cq->dev->name, cq->cqn, ev->arm_sn);
	ev_deliver(cq, EMU_EV_COMP);
}

/* The arm is consumed: the event is due. */
static void
ev_trigger(struct emu_cq *cq)
{
	struct emu_cq_ev *ev = cq->ev;

	ev->armed = 0;
	ev->fired_valid = 1;
	ev->fired_sn = ev->arm_sn;
	ev->held = 1;
}

void
emu_ev_sample(struct emu_cq *cq)
{
	struct emu_cq_ev *ev = cq->ev;
	uint64_t db;
	uint32_t word, rec;
	uint8_t sn;

	if (ev == NULL)
		return;
	if (cq->uar_va != NULL) {
		db = rte_be_to_cpu_64(__atomic_load_n((uint64_t *)(void *)
			((uint8_t *)cq->uar_va + EMU_UAR_CQ_DB),
			__ATOMIC_ACQUIRE));
		word = (uint32_t)(db >> 32);
		rec = rte_be_to_cpu_32(__atomic_load_n(&cq->dbrec[1],
						       __ATOMIC_ACQUIRE));
		sn = (word >> 28) & 3;
		if ((db & EMU_CQN_MASK) == cq->cqn && db != ev->last_db &&
		    word == rec) {
			ev->last_db = db;
			if (ev->fired_valid && sn == ev->fired_sn) {
				EMU_LOG(DEBUG, "%s: CQ 0x%x: arm sn %u already "
					"reported: ignored", cq->dev->name,
					cq->cqn, sn);
			} else {
				ev->armed = 1;
				ev->arm_sn = sn;
				ev->solicited = !!(word & EMU_ARM_SOLICITED);
				ev->arm_ci = word & EMU_CQN_MASK;
				ev->arms++;
				/* CQEs past the arm's ci are in the ring. */
				if (!ev->solicited && !ev->held &&
				    ((cq->pi - ev->arm_ci) & EMU_CQN_MASK) != 0)
					ev_trigger(cq);
			}
		}
	}
	ev_try_fire(cq, 0);
}

void
emu_ev_written(struct emu_cq *cq, uint32_t ncqe, int se)
{
	struct emu_cq_ev *ev = cq->ev;

	if (ev == NULL || ncqe == 0)
		return;
	if (ev->mod_cnt == 0)
		ev->mod_start = rte_get_tsc_cycles();
	ev->mod_cnt += ncqe;
	if (ev->armed && (!ev->solicited || se))
		ev_trigger(cq);
	ev_try_fire(cq, se && cq->scqe_break);
}

void
emu_ev_cq_error(struct emu_cq *cq)
{
	struct emu_cq_ev *ev = cq->ev;

	if (ev == NULL)
		return;
	if (cq->ibcq != NULL) {
		ev->async_pending = 1;
		emu_fd_signal(cq->dev->vctx.context.async_fd);
	}
	ev_deliver(cq, EMU_EV_CQ_ERROR);
}

/* --- Verbs completion channel and async events --------------------------- */

static int
ev_match_chan(struct emu_dev *dev, const void *ptr)
{
	return emu_chan_lookup(dev, ptr) != NULL;
}

int
emu_ev_get_cq_event(struct ibv_comp_channel *ch, struct ibv_cq **cqp,
		    void **cq_context)
{
	struct emu_dev *dev = emu_dev_find_locked(ev_match_chan, ch);
	struct emu_cq *cq, *best = NULL;
	int more = 0;

	if (dev == NULL)
		return 1;
	TAILQ_FOREACH(cq, &dev->cqs, next) {
		if (cq->ibcq == NULL || cq->ibcq->channel != ch ||
		    cq->ev == NULL)
			continue;
		pthread_mutex_lock(&cq->lock);
		if (cq->ev->chan_pending != 0) {
			if (best == NULL)
				best = cq;
			else if (cq->ev->chan_seq < best->ev->chan_seq)
				best = cq;
			more++;
		}
		pthread_mutex_unlock(&cq->lock);
	}
	if (best == NULL) {
		pthread_mutex_unlock(&dev->lock);
		errno = EAGAIN;
		return -1;
	}
	pthread_mutex_lock(&best->lock);
	if (--best->ev->chan_pending != 0) {
		best->ev->chan_seq = __atomic_add_fetch(&emu_chan_seq, 1,
							__ATOMIC_RELAXED);
		more++;
	}
	more--;
	pthread_mutex_unlock(&best->lock);
	*cqp = best->ibcq;
	*cq_context = best->ibcq->cq_context;
	/* The fd stays readable while events remain. */
	if (more == 0)
		emu_fd_drain(ch->fd);
	pthread_mutex_unlock(&dev->lock);
	return 0;
}

int
emu_ev_ack_cq_events(struct ibv_cq *cq, unsigned int n)
{
	if (!emu_verbs_is_cq(cq))
		return 1;
	pthread_mutex_lock(&cq->mutex);
	cq->comp_events_completed += n;
	pthread_cond_signal(&cq->cond);
	pthread_mutex_unlock(&cq->mutex);
	return 0;
}

int
emu_ev_get_async_event(struct ibv_context *ctx, struct ibv_async_event *event)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);
	struct emu_cq *cq, *found = NULL;
	uint8_t port_ev = 0, port = 1;
	int fatal, more = 0;

	if (dev == NULL)
		return 1;
	if (event == NULL) {
		errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&dev->lock);
	/* The device's fatal error first (mlx5_emu_health.c), then port
	 * events in their order (mlx5_emu_wire.c), then CQ errors.
	 */
	fatal = emu_health_event_take(dev, &port);
	more = dev->fatal_ev_n != 0;
	emu_net_lock();
	if (!fatal)
		port_ev = emu_link_event_take(dev->net);
	more |= dev->net != NULL && dev->net->port_ev_n != 0;
	emu_net_unlock();
	TAILQ_FOREACH(cq, &dev->cqs, next) {
		if (cq->ev == NULL || !cq->ev->async_pending)
			continue;
		if (found == NULL && port_ev == 0 && !fatal)
			found = cq;
		else
			more = 1;
	}
	if (fatal || port_ev != 0) {
		memset(event, 0, sizeof(*event));
		event->event_type = fatal ? IBV_EVENT_DEVICE_FATAL :
					    (enum ibv_event_type)port_ev;
		event->element.port_num = fatal ? port : 1;
		if (!more)
			emu_fd_drain(ctx->async_fd);
		pthread_mutex_unlock(&dev->lock);
		return 0;
	}
	if (found == NULL) {
		pthread_mutex_unlock(&dev->lock);
		errno = EAGAIN;
		return -1;
	}
	found->ev->async_pending = 0;
	memset(event, 0, sizeof(*event));
	event->event_type = IBV_EVENT_CQ_ERR;
	event->element.cq = found->ibcq;
	if (!more)
		emu_fd_drain(ctx->async_fd);
	pthread_mutex_unlock(&dev->lock);
	return 0;
}

int
emu_ev_ack_async_event(struct ibv_async_event *event)
{
	struct ibv_cq *cq;

	/* Port and device events hold nothing to release (ib_uverbs). */
	if (event != NULL && (event->event_type == IBV_EVENT_PORT_ACTIVE ||
			      event->event_type == IBV_EVENT_PORT_ERR ||
			      event->event_type == IBV_EVENT_DEVICE_FATAL))
		return 0;
	if (event == NULL || event->event_type != IBV_EVENT_CQ_ERR ||
	    !emu_verbs_is_cq(event->element.cq))
		return 1;
	cq = event->element.cq;
	pthread_mutex_lock(&cq->mutex);
	cq->async_events_completed++;
	pthread_cond_signal(&cq->cond);
	pthread_mutex_unlock(&cq->mutex);
	return 0;
}

/* --- DevX event channels ------------------------------------------------- */

static struct emu_evch *
evch_find(const void *ptr)
{
	struct emu_evch *ch;

	TAILQ_FOREACH(ch, &emu_evchs, next)
		if (&ch->pub == ptr)
			return ch;
	return NULL;
}

struct mlx5dv_devx_event_channel *
emu_ev_channel_create(struct emu_dev *dev, int flags)
{
	struct emu_evch *ch;

	if (flags & ~MLX5DV_DEVX_CREATE_EVENT_CHANNEL_FLAGS_OMIT_EV_DATA) {
		EMU_LOG(ERR, "%s: devx_create_event_channel: flags 0x%x",
			dev->name, flags);
		errno = EINVAL;
		return NULL;
	}
	ch = calloc(1, sizeof(*ch));
	if (ch == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	ch->pub.fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (ch->pub.fd < 0) {
		int err = errno;

		free(ch);
		errno = err;
		return NULL;
	}
	ch->dev = dev;
	ch->omit_data = !!flags;
	pthread_mutex_init(&ch->lock, NULL);
	TAILQ_INIT(&ch->q);
	pthread_mutex_lock(&emu_evchs_lock);
	TAILQ_INSERT_TAIL(&emu_evchs, ch, next);
	pthread_mutex_unlock(&emu_evchs_lock);
	return &ch->pub;
}

static int
ev_match_dev(struct emu_dev *dev, const void *ptr)
{
	return (const void *)dev == ptr;
}

int
emu_ev_channel_destroy(struct mlx5dv_devx_event_channel *pub)
{
	struct emu_evch *ch;
	struct emu_evq *e;
	struct emu_sub *s, *tmp;
	struct emu_cq *cq;
	struct emu_dev *dev;

	pthread_mutex_lock(&emu_evchs_lock);
	ch = evch_find(pub);
	if (ch != NULL)
		TAILQ_REMOVE(&emu_evchs, ch, next);
	pthread_mutex_unlock(&emu_evchs_lock);
	if (ch == NULL)
		return -ENOENT;
	/* Subscriptions go with the channel (when the device still exists:
	 * a channel may outlive a closed device).
	 */
	dev = emu_dev_find_locked(ev_match_dev, ch->dev);
	cq = dev != NULL ? TAILQ_FIRST(&dev->cqs) : NULL;
	for (; cq != NULL; cq = TAILQ_NEXT(cq, next)) {
		if (cq->ev == NULL)
			continue;
		pthread_mutex_lock(&cq->lock);
		for (s = TAILQ_FIRST(&cq->ev->subs); s != NULL; s = tmp) {
			tmp = TAILQ_NEXT(s, next);
			if (s->ch == ch) {
				TAILQ_REMOVE(&cq->ev->subs, s, next);
				free(s);
			}
		}
		pthread_mutex_unlock(&cq->lock);
	}
	if (dev != NULL)
		pthread_mutex_unlock(&dev->lock);
	while ((e = TAILQ_FIRST(&ch->q)) != NULL) {
		TAILQ_REMOVE(&ch->q, e, next);
		free(e);
	}
	close(ch->pub.fd);
	pthread_mutex_destroy(&ch->lock);
	free(ch);
	return 0;
}

/*
 * Kernel devx.c is_valid_events() on a device without
 * cmd_hca_cap.event_cap (the model's): is_legacy_obj_event_num(), the
 * event types of include/linux/mlx5/device.h an object subscription may
 * name. The model raises only completion and CQ error; a CQ subscribed
 * to another of them is accepted and never signalled.
 */
static int
ev_legacy_obj_event(uint16_t type)
{
	switch (type) {
	case 0x00: /* MLX5_EVENT_TYPE_COMP */
	case 0x01: /* PATH_MIG */
	case 0x02: /* COMM_EST */
	case 0x03: /* SQ_DRAINED */
	case 0x04: /* CQ_ERROR */
	case 0x05: /* WQ_CATAS_ERROR */
	case 0x07: /* PATH_MIG_FAILED */
	case 0x10: /* WQ_INVAL_REQ_ERROR */
	case 0x11: /* WQ_ACCESS_ERROR */
	case 0x12: /* SRQ_CATAS_ERROR */
	case 0x13: /* SRQ_LAST_WQE */
	case 0x14: /* SRQ_RQ_LIMIT */
	case 0x18: /* XRQ_ERROR */
	case 0x1c: /* DCT_DRAINED */
	case 0x1d: /* DCT_KEY_VIOLATION */
		return 1;
	default:
		return 0;
	}
}

int
emu_ev_subscribe(struct mlx5dv_devx_event_channel *pub,
		 struct mlx5dv_devx_obj *obj, uint16_t events_sz,
		 uint16_t events_num[], uint64_t cookie)
{
	struct emu_evch *ch;
	struct emu_obj *o;
	struct emu_cq *cq = NULL;
	struct emu_sub *subs[8];
	unsigned int i, n = events_sz / sizeof(uint16_t);
	struct emu_dev *dev;

	pthread_mutex_lock(&emu_evchs_lock);
	ch = evch_find(pub);
	pthread_mutex_unlock(&emu_evchs_lock);
	if (ch == NULL)
		return 1;
	dev = ch->dev;
	if (obj == NULL || n == 0 || n > RTE_DIM(subs) ||
	    events_num == NULL) {
		EMU_LOG(ERR, "%s: devx_subscribe_devx_event: %s", dev->name,
			obj == NULL ? "unaffiliated events not modelled" :
			"1..8 event numbers expected");
		return emu_ret_errno(EINVAL);
	}
	for (i = 0; i < n; i++)
		if (!ev_legacy_obj_event(events_num[i])) {
			EMU_LOG(ERR, "%s: devx_subscribe_devx_event: event "
				"type 0x%x is not an object event", dev->name,
				events_num[i]);
			return emu_ret_errno(EINVAL);
		}
	pthread_mutex_lock(&dev->lock);
	TAILQ_FOREACH(o, &dev->objs, next)
		if ((void *)o == (void *)obj &&
		    o->type == MLX5_CMD_OP_CREATE_CQ)
			cq = o->priv;
	if (cq == NULL || cq->ev == NULL) {
		pthread_mutex_unlock(&dev->lock);
		EMU_LOG(ERR, "%s: devx_subscribe_devx_event: object %p is no "
			"CQ of this device", dev->name, (void *)obj);
		return emu_ret_errno(EINVAL);
	}
	for (i = 0; i < n; i++) {
		subs[i] = calloc(1, sizeof(*subs[i]));
		if (subs[i] == NULL) {
			while (i-- > 0)
				free(subs[i]);
			pthread_mutex_unlock(&dev->lock);
			return emu_ret_errno(ENOMEM);
		}
	}
	pthread_mutex_lock(&cq->lock);
	for (i = 0; i < n; i++) {
		subs[i]->ch = ch;
		subs[i]->type = events_num[i];
		subs[i]->cookie = cookie;
		TAILQ_INSERT_TAIL(&cq->ev->subs, subs[i], next);
	}
	pthread_mutex_unlock(&cq->lock);
	pthread_mutex_unlock(&dev->lock);
	return 0;
}

ssize_t
emu_ev_get_event(struct mlx5dv_devx_event_channel *pub,
		 struct mlx5dv_devx_async_event_hdr *data, size_t len)
{
	struct emu_evch *ch;
	struct emu_evq *e;
	uint8_t eqe[EMU_EQE_SIZE];
	size_t need;
	rte_be32_t cqn;

	pthread_mutex_lock(&emu_evchs_lock);
	ch = evch_find(pub);
	pthread_mutex_unlock(&emu_evchs_lock);
	if (ch == NULL)
		return 1;
	need = sizeof(uint64_t) + (ch->omit_data ? 0 : EMU_EQE_SIZE);
	/* Kernel devx.c devx_async_event_read(), in its order: no event
	 * queued on a non-blocking file, EAGAIN; then a buffer shorter than
	 * the next event (cookie, and without OMIT_EV_DATA the EQE),
	 * EINVAL, the event staying queued.
	 */
	pthread_mutex_lock(&ch->lock);
	e = TAILQ_FIRST(&ch->q);
	if (e == NULL) {
		pthread_mutex_unlock(&ch->lock);
		errno = EAGAIN;
		return -1;
	}
	if (data == NULL || len < need) {
		pthread_mutex_unlock(&ch->lock);
		EMU_LOG(ERR, "devx_get_event: %zu bytes, the event needs %zu",
			len, need);
		errno = EINVAL;
		return -1;
	}
	TAILQ_REMOVE(&ch->q, e, next);
	if (TAILQ_EMPTY(&ch->q))
		emu_fd_drain(ch->pub.fd);
	pthread_mutex_unlock(&ch->lock);
	data->cookie = e->cookie;
	if (!ch->omit_data) {
		memset(eqe, 0, sizeof(eqe));
		eqe[1] = e->type;
		cqn = rte_cpu_to_be_32(e->cqn & EMU_CQN_MASK);
		if (e->type == EMU_EV_COMP) {
			memcpy(eqe + 0x38, &cqn, sizeof(cqn));
		} else {
			memcpy(eqe + 0x20, &cqn, sizeof(cqn));
			eqe[0x2b] = EMU_CQ_ERR_SYND_OVERRUN;
		}
		memcpy(data->out_data, eqe, sizeof(eqe));
	}
	free(e);
	return (ssize_t)need;
}

int
mlx5_emu_cq_ev_query(struct ibv_context *ctx, uint32_t cqn,
		     struct mlx5_emu_cq_ev_info *info)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);
	struct emu_cq *cq;

	if (dev == NULL || info == NULL)
		return -EINVAL;
	pthread_mutex_lock(&dev->lock);
	cq = emu_cq_lookup(dev, cqn);
	if (cq == NULL || cq->ev == NULL) {
		pthread_mutex_unlock(&dev->lock);
		return -ENOENT;
	}
	memset(info, 0, sizeof(*info));
	pthread_mutex_lock(&cq->lock);
	info->armed = cq->ev->armed;
	info->solicited = cq->ev->solicited;
	info->arm_sn = cq->ev->arm_sn;
	info->held = cq->ev->held;
	info->cq_period = cq->cq_period;
	info->cq_max_count = cq->cq_max_count;
	info->scqe_break_moderation_en = cq->scqe_break;
	info->arms = cq->ev->arms;
	info->events = cq->ev->events;
	emu_comp_counters(cq, &info->sessions, &info->compressed);
	info->open = emu_comp_held(cq);
	pthread_mutex_unlock(&cq->lock);
	pthread_mutex_unlock(&dev->lock);
	return 0;
}
