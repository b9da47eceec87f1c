/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Multi-process: the messages between a primary process and its
 * secondaries, on EAL's IPC (rte_mp), in the model of net/mlx5
 * (mlx5_mp_os.c, common/mlx5/mlx5_common_mp.c).
 *
 * The port's queues, rings, doorbell records and CQs are rte_malloc
 * memory every process sees at the same address. What is the primary's
 * alone is the verbs context and its objects, and the UAR page the send
 * queues ring: a secondary maps that page itself, through the context's
 * cmd_fd at the UAR's mmap offset, as rdma-core maps it in the primary
 * (net/mlx5's mlx5_tx_uar_init_secondary()). Its mapping is kept in the
 * port's process-private data (struct mlx5cq_proc_priv).
 *
 * Secondary to primary (requests the primary answers):
 *   CMD_FD     the context's cmd_fd (SCM_RIGHTS), as
 *              MLX5_MP_REQ_VERBS_CMD_FD; at attach to a started port;
 *   MR         register a mempool of the secondary (its TX mbufs) in the
 *              port's table, as MLX5_MP_REQ_CREATE_MR;
 *   RECOVER    recover a queue after an error completion, as
 *              MLX5_MP_REQ_QUEUE_STATE_MODIFY: the queue's state
 *              changes are commands on the primary's context.
 * Primary to every secondary (requests they answer), as
 * MLX5_MP_REQ_START_RXTX / STOP_RXTX:
 *   START      the port started: map the UAR page (the cmd_fd comes
 *              along), take the bursts;
 *   STOP       the port stops: no-op bursts; the primary destroys the
 *              queues' objects only after every secondary answered.
 */

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_mempool.h>

#include <ethdev_driver.h>
#include <infiniband/verbs.h>

#include "mlx5cq_ethdev.h"

#define MLX5CQ_MP_NAME "net_mlx5cq_mp"
#define MLX5CQ_MP_TIMEOUT_SEC 5

enum mlx5cq_mp_type {
	MLX5CQ_MP_CMD_FD = 1,
	MLX5CQ_MP_MR,
	MLX5CQ_MP_RECOVER,
	MLX5CQ_MP_START,
	MLX5CQ_MP_STOP,
};

struct mlx5cq_mp_param {
	int32_t type; /* enum mlx5cq_mp_type */
	int32_t result; /* Reply: 0 or -errno. */
	uint16_t port_id;
	uint16_t queue; /* RECOVER: queue index. */
	uint8_t tx; /* RECOVER: 1 send queue, 0 receive queue. */
	uint64_t mempool; /* MR: the mempool (shared memory address). */
};

static unsigned int mlx5cq_mp_users; /* Ports probed in this process. */

static void
mlx5cq_mp_msg_init(struct rte_mp_msg *msg, const struct mlx5cq_mp_param *p)
{
	memset(msg, 0, sizeof(*msg));
	strlcpy(msg->name, MLX5CQ_MP_NAME, sizeof(msg->name));
	msg->len_param = sizeof(*p);
	memcpy(msg->param, p, sizeof(*p));
}

/* The port of a message, if it is one of this PMD's. */
static struct rte_eth_dev *
mlx5cq_mp_port(const struct rte_mp_msg *msg, struct mlx5cq_mp_param *p)
{
	struct rte_eth_dev *dev;

	memset(p, 0, sizeof(*p));
	if (msg->len_param != sizeof(*p)) {
		PMD_LOG(ERR, "mp: message of %d bytes, expected %zu",
			msg->len_param, sizeof(*p));
		return NULL;
	}
	memcpy(p, msg->param, sizeof(*p));
	/* A process may hold a subset of the ports (it probed some). */
	if (!rte_eth_dev_is_valid_port(p->port_id)) {
		PMD_LOG(DEBUG, "mp: no port %u here", p->port_id);
		return NULL;
	}
	dev = &rte_eth_devices[p->port_id];
	if (!mlx5cq_is_port(dev) || dev->process_private == NULL) {
		PMD_LOG(DEBUG, "mp: port %u is not a net_mlx5cq port here",
			p->port_id);
		return NULL;
	}
	return dev;
}

static int
mlx5cq_mp_reply(struct mlx5cq_mp_param *p, int result, int fd,
		const void *peer)
{
	struct rte_mp_msg msg;

	p->result = result;
	mlx5cq_mp_msg_init(&msg, p);
	if (fd >= 0) {
		msg.fds[0] = fd;
		msg.num_fds = 1;
	}
	return rte_mp_reply(&msg, peer);
}

/* The mempool a secondary names, if it is one this process knows. */
struct mlx5cq_mp_pool_find {
	uint64_t addr;
	struct rte_mempool *mp;
};

static void
mlx5cq_mp_pool_match(struct rte_mempool *mp, void *arg)
{
	struct mlx5cq_mp_pool_find *f = arg;

	if ((uint64_t)(uintptr_t)mp == f->addr)
		f->mp = mp;
}

static int
mlx5cq_mp_primary_mr(struct rte_eth_dev *dev, uint64_t addr)
{
	struct mlx5cq_mp_pool_find f = { .addr = addr, .mp = NULL };

	rte_mempool_walk(mlx5cq_mp_pool_match, &f);
	if (f.mp == NULL) {
		PMD_LOG(ERR, "port %u: mp: no mempool at 0x%" PRIx64,
			dev->data->port_id, addr);
		return -EINVAL;
	}
	return mlx5cq_mr_register_mempool(dev->data->dev_private, f.mp);
}

static int
mlx5cq_mp_primary_recover(struct rte_eth_dev *dev,
			  const struct mlx5cq_mp_param *p)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;

	if (!priv->started)
		return -EAGAIN;
	if (p->tx && p->queue < dev->data->nb_tx_queues &&
	    dev->data->tx_queues[p->queue] != NULL)
		return mlx5cq_txq_recover(dev->data->tx_queues[p->queue]);
	if (!p->tx && p->queue < dev->data->nb_rx_queues &&
	    dev->data->rx_queues[p->queue] != NULL)
		return mlx5cq_rxq_recover(dev->data->rx_queues[p->queue]);
	PMD_LOG(ERR, "port %u: mp: no %s queue %u to recover",
		dev->data->port_id, p->tx ? "send" : "receive", p->queue);
	return -EINVAL;
}

static int
mlx5cq_mp_primary_handle(const struct rte_mp_msg *msg, const void *peer)
{
	struct mlx5cq_mp_param p;
	struct rte_eth_dev *dev = mlx5cq_mp_port(msg, &p);
	struct mlx5cq_priv *priv;

	/* Always an answer: the requester waits for one. */
	if (dev == NULL)
		return mlx5cq_mp_reply(&p, -ENODEV, -1, peer);
	priv = dev->data->dev_private;
	switch (p.type) {
	case MLX5CQ_MP_CMD_FD:
		if (priv->closed || priv->ctx == NULL)
			return mlx5cq_mp_reply(&p, -ENODEV, -1, peer);
		return mlx5cq_mp_reply(&p, 0, priv->ctx->cmd_fd, peer);
	case MLX5CQ_MP_MR:
		return mlx5cq_mp_reply(&p, mlx5cq_mp_primary_mr(dev, p.mempool),
				       -1, peer);
	case MLX5CQ_MP_RECOVER:
		return mlx5cq_mp_reply(&p, mlx5cq_mp_primary_recover(dev, &p),
				       -1, peer);
	default:
		PMD_LOG(ERR, "port %u: mp: unknown request %d",
			dev->data->port_id, p.type);
		return mlx5cq_mp_reply(&p, -EINVAL, -1, peer);
	}
}

/*
 * This process's mapping of the port's UAR page from the context's cmd_fd
 * (a secondary; the primary uses the page the UAR allocation mapped).
 */
static int
mlx5cq_mp_uar_map(struct rte_eth_dev *dev, int fd)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	struct mlx5cq_proc_priv *pp = dev->process_private;
	const size_t len = (size_t)sysconf(_SC_PAGESIZE);
	void *page;

	if (!priv->uar_valid)
		return 0; /* No send queue yet: nothing rings the UAR. */
	if (pp->uar_map != NULL && pp->uar_map_off == priv->uar_mmap_off)
		return 0;
	if (fd < 0) {
		PMD_LOG(ERR, "port %u: no command fd to map the UAR page",
			dev->data->port_id);
		return -EINVAL;
	}
	/* rdma-core and the kernel's mlx5_ib_mmap(): the UAR page at its
	 * mmap_off of the cmd_fd, write only, shared.
	 */
	page = mmap(NULL, len, PROT_WRITE, MAP_SHARED, fd,
		    (off_t)priv->uar_mmap_off);
	if (page == MAP_FAILED) {
		PMD_LOG(ERR, "port %u: UAR page mapping failed: %s",
			dev->data->port_id, strerror(errno));
		return -errno;
	}
	mlx5cq_mp_uar_unmap(dev);
	pp->uar_map = page;
	pp->uar_map_len = len;
	pp->uar_map_off = priv->uar_mmap_off;
	pp->uar_reg = (volatile uint64_t *)((uint8_t *)page + 0x800);
	return 0;
}

void
mlx5cq_mp_uar_unmap(struct rte_eth_dev *dev)
{
	struct mlx5cq_proc_priv *pp = dev->process_private;

	if (pp == NULL || pp->uar_map == NULL)
		return;
	munmap(pp->uar_map, pp->uar_map_len);
	pp->uar_map = NULL;
	pp->uar_reg = NULL;
}

/* This process's bursts of the port, in the device and in ethdev's
 * fast-path table (rte_eth_rx_burst() reads rte_eth_fp_ops).
 */
static void
mlx5cq_mp_bursts_set(struct rte_eth_dev *dev, int run)
{
	struct rte_eth_fp_ops *fpo = &rte_eth_fp_ops[dev->data->port_id];

	if (run) {
		mlx5cq_burst_select(dev);
	} else {
		dev->rx_pkt_burst = mlx5cq_burst_none;
		dev->tx_pkt_burst = mlx5cq_burst_none;
	}
	fpo->rxq.data = dev->data->rx_queues;
	fpo->txq.data = dev->data->tx_queues;
	rte_mb();
	fpo->rx_pkt_burst = dev->rx_pkt_burst;
	fpo->tx_pkt_burst = dev->tx_pkt_burst;
	rte_mb();
}

int
mlx5cq_mp_secondary_start(struct rte_eth_dev *dev, int fd)
{
	int ret = mlx5cq_mp_uar_map(dev, fd);

	if (ret != 0) {
		mlx5cq_mp_bursts_set(dev, 0);
		return ret;
	}
	mlx5cq_mp_bursts_set(dev, 1);
	PMD_LOG(INFO, "port %u: secondary bursts on", dev->data->port_id);
	return 0;
}

static int
mlx5cq_mp_secondary_handle(const struct rte_mp_msg *msg, const void *peer)
{
	struct mlx5cq_mp_param p;
	struct rte_eth_dev *dev = mlx5cq_mp_port(msg, &p);
	int fd = msg->num_fds > 0 ? msg->fds[0] : -1;
	int ret;

	/* A port this process does not hold: nothing to do here. */
	if (dev == NULL) {
		if (fd >= 0)
			close(fd);
		return mlx5cq_mp_reply(&p, 0, -1, peer);
	}
	switch (p.type) {
	case MLX5CQ_MP_START:
		ret = mlx5cq_mp_secondary_start(dev, fd);
		break;
	case MLX5CQ_MP_STOP:
		mlx5cq_mp_bursts_set(dev, 0);
		PMD_LOG(INFO, "port %u: secondary bursts off",
			dev->data->port_id);
		ret = 0;
		break;
	default:
		PMD_LOG(ERR, "port %u: mp: unknown message %d",
			dev->data->port_id, p.type);
		ret = -EINVAL;
		break;
	}
	if (fd >= 0)
		close(fd);
	return mlx5cq_mp_reply(&p, ret, -1, peer);
}

int
mlx5cq_mp_init(void)
{
	rte_mp_t fn = rte_eal_process_type() == RTE_PROC_PRIMARY ?
		      mlx5cq_mp_primary_handle : mlx5cq_mp_secondary_handle;

	if (mlx5cq_mp_users++ != 0)
		return 0;
	if (rte_mp_action_register(MLX5CQ_MP_NAME, fn) == 0 ||
	    rte_errno == EEXIST)
		return 0;
	/* --in-memory / --no-shconf: no IPC, no secondary to talk to. */
	if (rte_errno == ENOTSUP)
		return 0;
	mlx5cq_mp_users--;
	PMD_LOG(ERR, "mp: cannot register %s: %s", MLX5CQ_MP_NAME,
		rte_strerror(rte_errno));
	return -rte_errno;
}

void
mlx5cq_mp_uninit(void)
{
	if (mlx5cq_mp_users == 0 || --mlx5cq_mp_users != 0)
		return;
	rte_mp_action_unregister(MLX5CQ_MP_NAME);
}

/*
 * A request to the primary (from a secondary) or to every secondary
 * (from the primary), and its replies' worst result. fd_out (secondary):
 * the fd the reply carries, or -1; peers: how many answered.
 */
static int
mlx5cq_mp_request(const struct mlx5cq_mp_param *p, int fd, int *fd_out,
		  int *peers)
{
	const struct timespec ts = { .tv_sec = MLX5CQ_MP_TIMEOUT_SEC };
	struct rte_mp_reply rep = { 0 };
	struct rte_mp_msg msg;
	int i, ret = 0;

	if (fd_out != NULL)
		*fd_out = -1;
	if (peers != NULL)
		*peers = 0;
	mlx5cq_mp_msg_init(&msg, p);
	if (fd >= 0) {
		msg.fds[0] = fd;
		msg.num_fds = 1;
	}
	if (rte_mp_request_sync(&msg, &rep, &ts) != 0) {
		ret = -rte_errno;
		if (rte_errno == ENOTSUP)
			ret = 0; /* No IPC in this process: no peer. */
		else
			PMD_LOG(ERR, "port %u: mp: request %d failed: %s",
				p->port_id, p->type, rte_strerror(rte_errno));
		free(rep.msgs);
		return ret;
	}
	if (rep.nb_received != rep.nb_sent) {
		PMD_LOG(ERR, "port %u: mp: request %d: %d of %d peers answered",
			p->port_id, p->type, rep.nb_received, rep.nb_sent);
		ret = -ETIMEDOUT;
	}
	if (peers != NULL)
		*peers = rep.nb_received;
	for (i = 0; i < rep.nb_received; i++) {
		const struct rte_mp_msg *r = &rep.msgs[i];
		struct mlx5cq_mp_param rp;

		if (r->len_param != sizeof(rp)) {
			ret = -EPROTO;
			continue;
		}
		memcpy(&rp, r->param, sizeof(rp));
		if (rp.result != 0 && ret == 0)
			ret = rp.result;
		if (fd_out != NULL && r->num_fds > 0 && *fd_out < 0)
			*fd_out = r->fds[0];
		else if (r->num_fds > 0)
			close(r->fds[0]);
	}
	free(rep.msgs);
	return ret;
}

/* Secondary: attach to a started port (its UAR page and bursts). */
int
mlx5cq_mp_attach(struct rte_eth_dev *dev)
{
	struct mlx5cq_mp_param p = {
		.type = MLX5CQ_MP_CMD_FD,
		.port_id = dev->data->port_id,
	};
	int fd, ret;

	if (!dev->data->dev_started)
		return 0;
	ret = mlx5cq_mp_request(&p, -1, &fd, NULL);
	if (ret == 0)
		ret = mlx5cq_mp_secondary_start(dev, fd);
	if (fd >= 0)
		close(fd);
	return ret;
}

int
mlx5cq_mp_req_mr(struct mlx5cq_priv *priv, struct rte_mempool *mp)
{
	struct mlx5cq_mp_param p = {
		.type = MLX5CQ_MP_MR,
		.port_id = priv->port_id,
		.mempool = (uint64_t)(uintptr_t)mp,
	};
	int ret = mlx5cq_mp_request(&p, -1, NULL, NULL);

	if (ret != 0)
		rte_errno = -ret;
	return ret;
}

int
mlx5cq_mp_req_recover(struct mlx5cq_priv *priv, int tx, uint16_t queue)
{
	struct mlx5cq_mp_param p = {
		.type = MLX5CQ_MP_RECOVER,
		.port_id = priv->port_id,
		.queue = queue,
		.tx = !!tx,
	};

	return mlx5cq_mp_request(&p, -1, NULL, NULL);
}

/* Primary: tell every secondary the port started (start != 0) or stops. */
int
mlx5cq_mp_notify(struct rte_eth_dev *dev, int start)
{
	struct mlx5cq_priv *priv = dev->data->dev_private;
	struct mlx5cq_mp_param p = {
		.type = start ? MLX5CQ_MP_START : MLX5CQ_MP_STOP,
		.port_id = dev->data->port_id,
	};
	int fd = start && priv->uar_valid ? priv->ctx->cmd_fd : -1;
	int peers, ret;

	ret = mlx5cq_mp_request(&p, fd, NULL, &peers);
	/* A secondary inside a burst when it took the message leaves it
	 * before the queues go (net/mlx5 waits so in mlx5_dev_stop()).
	 */
	if (!start && peers > 0)
		rte_delay_us_sleep(1000);
	return ret;
}
