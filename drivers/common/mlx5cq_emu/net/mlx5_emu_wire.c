/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Wires and ports. A wire is a name; the port of a device joins one with
 * mlx5_emu_port_config(). A frame sent by a port reaches every other port
 * on its wire, or the sender itself when it is alone (loopback); a port on
 * no wire drops what it sends (tx_dropped) and its vport state is DOWN.
 * On each receiving port: vport MTU check (rx_mtu_drops), vport MAC filter
 * (rx_filtered), then the default flow to the device's TIR
 * (mlx5_emu_rss.c). Everything here runs under emu_net_lock.
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

void
emu_port_leave(struct emu_net *net)
{
	struct emu_port *port = net->port;
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
	}
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
	if (!emu_vport_accept(&net->vport, frame)) {
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

	if (from->port == NULL) {
		from->pstats.tx_dropped++;
		return;
	}
	from->pstats.tx_packets++;
	from->pstats.tx_bytes += len;
	w = from->port->wire;
	TAILQ_FOREACH(port, &w->ports, next) {
		if (port->net == from && w->nports > 1)
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
