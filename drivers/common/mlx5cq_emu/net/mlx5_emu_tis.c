/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Transport domains (ALLOC_TRANSPORT_DOMAIN 0x816) and transport interface
 * sends (CREATE_TIS 0x912). A TIS names an existing transport domain of
 * the device; LAG affinity, priority and underlay QPs are not modelled and
 * must be 0. A TD used by a TIS or TIR, or a TIS used by an SQ, cannot be
 * destroyed (RES_BUSY).
 */

#include <errno.h>
#include <stdlib.h>

#include <mlx5_prm.h>

#include "mlx5_emu_net.h"

struct emu_td *
emu_td_lookup(struct emu_net *net, uint32_t id)
{
	struct emu_td *td;

	TAILQ_FOREACH(td, &net->tds, next)
		if (td->id == id)
			return td;
	return NULL;
}

struct emu_tis *
emu_tis_lookup(struct emu_net *net, uint32_t id)
{
	struct emu_tis *tis;

	TAILQ_FOREACH(tis, &net->tiss, next)
		if (tis->id == id)
			return tis;
	return NULL;
}

/* Mailbox lengths; 0 or errno with the status written. */
static int
emu_net_lens(struct emu_dev *dev, const char *what, size_t inlen,
	     size_t need_in, void *out, size_t outlen, size_t need_out)
{
	if (inlen < need_in) {
		EMU_LOG(ERR, "%s: %s: input mailbox %zu < %zu bytes",
			dev->name, what, inlen, need_in);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_INP_LEN_ERR,
				    MLX5_EMU_SYND_INLEN);
	}
	if (outlen < need_out) {
		EMU_LOG(ERR, "%s: %s: output mailbox %zu < %zu bytes",
			dev->name, what, outlen, need_out);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_OUTP_LEN_ERR,
				    MLX5_EMU_SYND_OUTLEN);
	}
	return 0;
}

int
emu_td_create(struct emu_dev *dev, struct emu_net *net, const void *in,
	      size_t inlen, void *out, size_t outlen, uint32_t *id,
	      void **priv)
{
	struct emu_td *td;
	int ret;

	ret = emu_net_lens(dev, "ALLOC_TRANSPORT_DOMAIN", inlen,
			   MLX5_ST_SZ_BYTES(alloc_transport_domain_in), out,
			   outlen,
			   MLX5_ST_SZ_BYTES(alloc_transport_domain_out));
	if (ret != 0)
		return ret;
	/* mlx5_prm.h alloc_transport_domain_in.op_mod: 0. */
	if (EMU_GET(alloc_transport_domain_in, in, op_mod) != 0) {
		EMU_LOG(ERR, "%s: ALLOC_TRANSPORT_DOMAIN: op_mod not 0",
			dev->name);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_BAD_OP_MOD);
	}
	td = calloc(1, sizeof(*td));
	if (td == NULL)
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_LIM_ERR,
				    MLX5_EMU_SYND_NONE);
	td->id = emu_net_new_id(net);
	emu_net_lock();
	TAILQ_INSERT_TAIL(&net->tds, td, next);
	net->nstats.tds++;
	emu_net_unlock();
	emu_cmd_ok(out, outlen);
	MLX5_SET(alloc_transport_domain_out, out, transport_domain, td->id);
	*id = td->id;
	*priv = td;
	return 0;
}

int
emu_tis_create(struct emu_dev *dev, struct emu_net *net, const void *in,
	       size_t inlen, void *out, size_t outlen, uint32_t *id,
	       void **priv)
{
	const void *tisc = EMU_ADDR_OF(create_tis_in, in, ctx);
	struct emu_tis *tis;
	struct emu_td *td;
	int ret;

	ret = emu_net_lens(dev, "CREATE_TIS", inlen,
			   MLX5_ST_SZ_BYTES(create_tis_in), out, outlen,
			   MLX5_ST_SZ_BYTES(create_tis_out));
	if (ret != 0)
		return ret;
	/* mlx5_prm.h tisc: LAG port affinity and underlay QPs. */
	if (EMU_GET(create_tis_in, in, op_mod) != 0 ||
	    EMU_GET(tisc, tisc, strict_lag_tx_port_affinity) != 0 ||
	    EMU_GET(tisc, tisc, lag_tx_port_affinity) != 0 ||
	    EMU_GET(tisc, tisc, underlay_qpn) != 0) {
		EMU_LOG(ERR, "%s: CREATE_TIS: LAG affinity / underlay QP not "
			"supported", dev->name);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_RESERVED);
	}
	/* tisc.transport_domain: a TD of this device (DPDK
	 * mlx5_devx_cmd_create_tis() writes the one it allocated).
	 */
	td = emu_td_lookup(net, EMU_GET(tisc, tisc, transport_domain));
	if (td == NULL) {
		EMU_LOG(ERR, "%s: CREATE_TIS: transport domain 0x%x unknown",
			dev->name, EMU_GET(tisc, tisc, transport_domain));
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_RES_ERR,
				    MLX5_EMU_SYND_NET_TD);
	}
	tis = calloc(1, sizeof(*tis));
	if (tis == NULL)
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_LIM_ERR,
				    MLX5_EMU_SYND_NONE);
	tis->id = emu_net_new_id(net);
	tis->td = td;
	emu_net_lock();
	td->refcnt++;
	TAILQ_INSERT_TAIL(&net->tiss, tis, next);
	net->nstats.tiss++;
	emu_net_unlock();
	emu_cmd_ok(out, outlen);
	MLX5_SET(create_tis_out, out, tisn, tis->id);
	*id = tis->id;
	*priv = tis;
	return 0;
}

int
emu_net_check_lens(struct emu_dev *dev, const char *what, size_t inlen,
		   size_t need_in, void *out, size_t outlen, size_t need_out)
{
	return emu_net_lens(dev, what, inlen, need_in, out, outlen, need_out);
}
