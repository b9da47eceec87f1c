/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Wires and ports. A wire is a name; the port of a device joins one with
 * mlx5_emu_port_config(). A frame sent by a port reaches every other port
 * on its wire whose link is up, or the sender itself when it is alone
 * (loopback); a port whose link is down drops what it sends (tx_dropped).
 *
 * Link: a port's link is up when it is on a wire, the wire's cable is in
 * (mlx5_emu_wire_link_set()), its own admin status is up and, unless it is
 * alone on the wire, another port of the wire has its admin status up too:
 * a PHY that its host takes down (PAOS admin_status, the register the
 * kernel's mlx5_set_port_admin_status() writes when the netdev goes down;
 * mlx5_emu_port_admin_set() here) takes the link down at both ends, as a
 * cable partner sees it. Every change of a port's link queues a port
 * change event on its device, as the HCA's PORT_CHANGE EQE (mlx5_prm.h
 * event type 0x09, subtype DOWN 1 / ACTIVE 4) that the kernel's
 * mlx5_ib_event() turns into IBV_EVENT_PORT_ERR / IBV_EVENT_PORT_ACTIVE on
 * the context's async fd, port 1. The vport state is the link state.
 * On each receiving port: vport MTU check (rx_mtu_drops); then NIC RX
 * steering (mlx5_emu_steer_rx.c) or, for a device that never made a NIC
 * RX domain, the vport MAC filter (rx_filtered) and the default flow to
 * its first TIR (mlx5_emu_rss.c). Everything here runs under emu_net_lock.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mlx5_emu_net.h"

#define EMU_WIRE_NAME_MAX 64

struct emu_port {
	TAILQ_ENTRY(emu_port) next;
	struct emu_wire *wire;
	struct emu_net *net;
};

struct emu_wire {
	TAILQ_ENTRY(emu_wire) next;
	TAILQ_HEAD(, emu_port) ports;
	uint32_t nports;
	uint32_t rx_err_rdy; /* mlx5_emu_wire_rx_error_inject() left. */
	uint8_t down; /* Cable out (mlx5_emu_wire_link_set()). */
	char name[EMU_WIRE_NAME_MAX];
};

static TAILQ_HEAD(, emu_wire) emu_wires = TAILQ_HEAD_INITIALIZER(emu_wires);

static struct emu_wire *
emu_wire_find(const char *name)
{
	struct emu_wire *w;

	TAILQ_FOREACH(w, &emu_wires, next)
		if (strcmp(w->name, name) == 0)
			return w;
	return NULL;
}

int
emu_port_link_up(const struct emu_net *net)
{
	const struct emu_port *port = net->port, *p;

	/* A failed device's PHY is down (mlx5_emu_health.c). */
	if (port == NULL || port->wire->down || net->vport.admin_down ||
	    emu_dev_failed(net->dev))
		return 0;
	if (port->wire->nports == 1)
		return 1;
	TAILQ_FOREACH(p, &port->wire->ports, next)
		if (p != port && !p->net->vport.admin_down &&
		    !emu_dev_failed(p->net->dev))
			return 1;
	return 0;
}

void
emu_port_query(struct emu_dev *dev, int *up, uint32_t *mtu)
{
	struct emu_net *net;

	pthread_mutex_lock(&dev->lock);
	net = dev->net;
	*up = 0;
	*mtu = EMU_DEFAULT_HW_MTU - 22; /* MLX5E_SW2HW_MTU back. */
	if (net != NULL) {
		emu_net_lock();
		*up = emu_port_link_up(net);
		*mtu = net->vport.mtu - 22;
		emu_net_unlock();
	}
	pthread_mutex_unlock(&dev->lock);
}

/* Queue a port event on net's device and make its async fd readable. */
static void
emu_link_event_push(struct emu_net *net, uint8_t type)
{
	if (net->port_ev_n == EMU_PORT_EV_MAX) {
		memmove(net->port_ev, net->port_ev + 1, EMU_PORT_EV_MAX - 1);
		net->port_ev_n--;
	}
	net->port_ev[net->port_ev_n++] = type;
	emu_fd_signal(net->dev->vctx.context.async_fd);
}

static void
emu_link_one(struct emu_net *net, int notify)
{
	int up = emu_port_link_up(net);

	if (up == net->oper_up)
		return;
	net->oper_up = (uint8_t)up;
	EMU_LOG(INFO, "%s: link %s", net->dev->name, up ? "up" : "down");
	if (notify)
		emu_link_event_push(net, up ? IBV_EVENT_PORT_ACTIVE :
					      IBV_EVENT_PORT_ERR);
}

void
emu_link_refresh(struct emu_net *net, const struct emu_net *quiet)
{
	struct emu_port *p;

	if (net->port == NULL) {
		emu_link_one(net, net != quiet);
		return;
	}
	TAILQ_FOREACH(p, &net->port->wire->ports, next)
		emu_link_one(p->net, p->net != quiet);
}

uint8_t
emu_link_event_take(struct emu_net *net)
{
	uint8_t type;

	if (net == NULL || net->port_ev_n == 0)
		return 0;
	type = net->port_ev[0];
	memmove(net->port_ev, net->port_ev + 1, --net->port_ev_n);
	return type;
}

void
emu_port_leave(struct emu_net *net)
{
	struct emu_port *port = net->port, *p;
	struct emu_wire *w;

	if (port == NULL)
		return;
	w = port->wire;
	TAILQ_REMOVE(&w->ports, port, next);
	w->nports--;
	net->port = NULL;
	free(port);
	if (w->nports == 0) {
		TAILQ_REMOVE(&emu_wires, w, next);
		free(w);
		return;
	}
	/* The ports left behind may have lost their partner. */
	TAILQ_FOREACH(p, &w->ports, next)
		emu_link_one(p->net, 1);
}

int
mlx5_emu_port_config(struct ibv_context *ctx, const char *wire,
		     const uint8_t mac[6])
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);
	struct emu_port *port = NULL;
	struct emu_wire *w = NULL;
	struct emu_net *net;

	if (dev == NULL || (mac != NULL && (mac[0] & 1)) ||
	    (wire != NULL && (wire[0] == '\0' ||
			      strlen(wire) >= EMU_WIRE_NAME_MAX))) {
		EMU_LOG(ERR, "port_config: foreign context, multicast MAC or "
			"wire name empty / longer than %u",
			EMU_WIRE_NAME_MAX - 1);
		return -EINVAL;
	}
	if (wire != NULL) {
		port = calloc(1, sizeof(*port));
		w = calloc(1, sizeof(*w));
		if (port == NULL || w == NULL) {
			free(port);
			free(w);
			return -ENOMEM;
		}
	}
	pthread_mutex_lock(&dev->lock);
	net = emu_net_get(dev);
	if (net == NULL) {
		pthread_mutex_unlock(&dev->lock);
		free(port);
		free(w);
		return -ENOMEM;
	}
	emu_net_lock();
	emu_port_leave(net);
	if (wire != NULL) {
		struct emu_wire *found = emu_wire_find(wire);

		if (found != NULL) {
			free(w);
			w = found;
		} else {
			strcpy(w->name, wire);
			TAILQ_INIT(&w->ports);
			TAILQ_INSERT_TAIL(&emu_wires, w, next);
		}
		port->wire = w;
		port->net = net;
		TAILQ_INSERT_TAIL(&w->ports, port, next);
		w->nports++;
		net->port = port;
	}
	if (mac != NULL)
		memcpy(net->vport.mac, mac, 6);
	emu_link_refresh(net, net);
	emu_net_unlock();
	pthread_mutex_unlock(&dev->lock);
	EMU_LOG(INFO, "%s: port on wire %s", dev->name,
		wire != NULL ? wire : "(none)");
	return 0;
}

/* One port receives a frame. */
static void
emu_port_receive(struct emu_net *net, const uint8_t *frame, uint32_t len,
		 int self)
{
	if (len + 4 > net->vport.mtu) {
		net->pstats.rx_mtu_drops++;
		return;
	}
	/*
	 * A device that steers filters with its rules (promiscuous, MAC and
	 * VLAN rules, as the kernel's mlx5e en_fs.c and DPDK's net/mlx5
	 * mlx5_traffic_enable() make them): a PF's NIC RX tables see every
	 * frame of the uplink, the vport context's address lists feed the
	 * e-switch. Only a device that made no NIC RX domain is filtered by
	 * its vport context.
	 */
	if (net->rx_steered) {
		emu_steer_rx(net, frame, len, self);
		return;
	}
	if (!emu_vport_accept(&net->vport, frame, len)) {
		net->pstats.rx_filtered++;
		return;
	}
	emu_rss_deliver(net, frame, len, self);
}

void
emu_wire_transmit(struct emu_net *from, const uint8_t *frame, uint32_t len)
{
	struct emu_port *port;
	struct emu_wire *w;

	if (!from->oper_up) {
		from->pstats.tx_dropped++;
		return;
	}
	from->pstats.tx_packets++;
	from->pstats.tx_bytes += len;
	w = from->port->wire;
	TAILQ_FOREACH(port, &w->ports, next) {
		if ((port->net == from && w->nports > 1) ||
		    !port->net->oper_up)
			continue;
		emu_port_receive(port->net, frame, len, port->net == from);
	}
}

/* One frame: a burst of one (its own engine pass). */
int
mlx5_emu_wire_inject(const char *wire, const void *frame, uint32_t len)
{
	return mlx5_emu_wire_inject_burst(wire, &frame, &len, 1);
}

int
mlx5_emu_wire_inject_burst(const char *wire, const void *const *frames,
			   const uint32_t *lens, uint32_t n)
{
	struct emu_port *port;
	struct emu_wire *w;
	uint32_t i;
	int ports = 0;

	if (wire == NULL || frames == NULL || lens == NULL || n == 0)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (frames[i] == NULL || lens[i] < 14 ||
		    lens[i] > EMU_MAX_FRAME)
			return -EINVAL;
	emu_net_lock();
	w = emu_wire_find(wire);
	if (w == NULL) {
		emu_net_unlock();
		return -ENOENT;
	}
	/* One pass for all: compressed CQs may join their completions. */
	emu_engine_pass_begin();
	TAILQ_FOREACH(port, &w->ports, next) {
		/* A port whose link is down hears nothing. */
		if (!port->net->oper_up)
			continue;
		for (i = 0; i < n; i++)
			emu_port_receive(port->net, frames[i], lens[i], 0);
		ports++;
	}
	emu_engine_pass_end();
	emu_net_unlock();
	return ports;
}

int
mlx5_emu_wire_rx_error_inject(const char *wire, uint32_t count)
{
	struct emu_wire *w;

	if (wire == NULL)
		return -EINVAL;
	emu_net_lock();
	w = emu_wire_find(wire);
	if (w != NULL)
		w->rx_err_rdy = count;
	emu_net_unlock();
	return w == NULL ? -ENOENT : 0;
}

int
emu_wire_rx_fault_take(struct emu_net *net)
{
	struct emu_wire *w;

	if (net->port == NULL)
		return 0;
	w = net->port->wire;
	if (w->rx_err_rdy == 0)
		return 0;
	w->rx_err_rdy--;
	return 1;
}

int
mlx5_emu_wire_link_set(const char *wire, int up)
{
	struct emu_wire *w;
	struct emu_port *p;

	if (wire == NULL)
		return -EINVAL;
	emu_net_lock();
	w = emu_wire_find(wire);
	if (w == NULL) {
		emu_net_unlock();
		return -ENOENT;
	}
	w->down = !up;
	TAILQ_FOREACH(p, &w->ports, next)
		emu_link_one(p->net, 1);
	emu_net_unlock();
	EMU_LOG(INFO, "wire %s: cable %s", wire, up ? "in" : "out");
	return 0;
}

int
mlx5_emu_port_admin_set(struct ibv_context *ctx, int up)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);
	struct emu_net *net;

	if (dev == NULL) {
		EMU_LOG(ERR, "port_admin_set: foreign context");
		return -EINVAL;
	}
	net = emu_net_enter(dev);
	if (net == NULL)
		return -ENOMEM;
	net->vport.admin_down = !up;
	emu_link_refresh(net, NULL);
	emu_net_leave(dev);
	EMU_LOG(INFO, "%s: port admin %s", dev->name, up ? "up" : "down");
	return 0;
}
