/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Receive side scaling: CREATE_RQT 0x916, CREATE_TIR 0x900, the Toeplitz
 * hash and the choice of the receive queue.
 *
 * RQT: list_q_type RQ, 1 <= rqt_actual_size <= rqt_max_size <=
 * 2^log_max_rqt_size, every entry an RQ of this device, the input mailbox
 * long enough for the list. TIR: direct (inline_rqn an RQ) or indirect
 * (indirect_table an RQT); rx_hash_fn none or Toeplitz (the 40-byte key
 * of the TIR); the outer selector's fields SRC_IP, DST_IP, L4_SPORT,
 * L4_DPORT (IPsec SPI, the inner selector, symmetric hash and
 * tunnel offloads are not modelled and refused); LRO (lro_enable_mask,
 * lro_max_msg_sz, lro_timeout_period_usecs: emu_tir_lro_check(), the
 * coalescing in mlx5_emu_rq.c); the transport domain
 * exists or is 0 (the function's own). self_lb_block is honoured (frames the device sent itself).
 *
 * Steering: a device that created a NIC RX steering domain classifies
 * each frame that passed the vport filter by its rules
 * (mlx5_emu_steer_rx.c), which name the TIR (its domains all gone: the
 * kernel's, as with no rule). A device that never created one keeps the
 * model's default flow: every such frame goes to the device's first TIR
 * (the oldest). That default is a model limit, for users that make TIRs
 * but no rules (the emu_net_* unit suites; net_mlx5cq and DPDK's net/mlx5
 * install rules, as a card needs). The hash input is
 * the selected fields in the order source IP, destination IP, source
 * port, destination port (the Microsoft RSS order), taken only when the
 * frame's L3 (and, for the ports, L4) type is the selector's; a frame of
 * another L3 type hashes to 0 with hash type 0, one of another L4 type is
 * hashed on its addresses only. The queue is RQT[hash % size].
 * rx_hash_type: bits 3:2 IP type (1 IPv4, 2 IPv6) when addresses were
 * hashed, bits 7:6 L4 type (1 TCP, 2 UDP) when ports were (kernel en.h
 * CQE_RSS_HTYPE_IP / CQE_RSS_HTYPE_L4).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <mlx5_prm.h>

#include "mlx5_emu_net.h"

#define EMU_HASH_BIT(f) (1u << MLX5_RX_HASH_FIELD_SELECT_SELECTED_FIELDS_ ## f)
#define EMU_HASH_SRC_IP EMU_HASH_BIT(SRC_IP)
#define EMU_HASH_DST_IP EMU_HASH_BIT(DST_IP)
#define EMU_HASH_SPORT EMU_HASH_BIT(L4_SPORT)
#define EMU_HASH_DPORT EMU_HASH_BIT(L4_DPORT)
#define EMU_HASH_FIELDS (EMU_HASH_SRC_IP | EMU_HASH_DST_IP | \
			 EMU_HASH_SPORT | EMU_HASH_DPORT)

static struct emu_rqt *
emu_rqt_lookup(struct emu_net *net, uint32_t id)
{
	struct emu_rqt *rqt;

	TAILQ_FOREACH(rqt, &net->rqts, next)
		if (rqt->id == id)
			return rqt;
	return NULL;
}

int
emu_rqt_create(struct emu_dev *dev, struct emu_net *net, const void *in,
	       size_t inlen, void *out, size_t outlen, uint32_t *id,
	       void **priv)
{
	const void *rqtc = EMU_ADDR_OF(create_rqt_in, in, rqt_context);
	uint32_t size, max, i;
	struct emu_rqt *rqt;
	struct emu_rq **rqs;
	int ret;

	ret = emu_net_check_lens(dev, "CREATE_RQT", inlen,
				 MLX5_ST_SZ_BYTES(create_rqt_in), out, outlen,
				 MLX5_ST_SZ_BYTES(create_rqt_out));
	if (ret != 0)
		return ret;
	size = EMU_GET(rqtc, rqtc, rqt_actual_size);
	max = EMU_GET(rqtc, rqtc, rqt_max_size);
	/* rqtc.rq_num[] follows the context (DPDK
	 * mlx5_devx_cmd_create_rqt() sizes the mailbox so).
	 */
	if (inlen < MLX5_ST_SZ_BYTES(create_rqt_in) + (size_t)size * 4) {
		EMU_LOG(ERR, "%s: CREATE_RQT: mailbox %zu bytes too short for "
			"%u entries", dev->name, inlen, size);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_INP_LEN_ERR,
				    MLX5_EMU_SYND_INLEN);
	}
	/* rqtc.list_q_type: MLX5_INLINE_Q_TYPE_RQ. */
	if (EMU_GET(create_rqt_in, in, op_mod) != 0 ||
	    EMU_GET(rqtc, rqtc, list_q_type) != MLX5_INLINE_Q_TYPE_RQ) {
		EMU_LOG(ERR, "%s: CREATE_RQT: list_q_type %u not RQ",
			dev->name, EMU_GET(rqtc, rqtc, list_q_type));
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_RESERVED);
	}
	/* cmd_hca_cap.log_max_rqt_size (mlx5_emu_caps.c). */
	if (size == 0 || size > max || max > (1u << EMU_LOG_MAX_RQT_SIZE)) {
		EMU_LOG(ERR, "%s: CREATE_RQT: sizes actual %u max %u (limit "
			"%u)", dev->name, size, max,
			1u << EMU_LOG_MAX_RQT_SIZE);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_RQT);
	}
	rqs = calloc(size, sizeof(*rqs));
	rqt = calloc(1, sizeof(*rqt));
	if (rqs == NULL || rqt == NULL) {
		free(rqs);
		free(rqt);
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_LIM_ERR,
				    MLX5_EMU_SYND_NONE);
	}
	for (i = 0; i < size; i++) {
		uint32_t rqn = EMU_GET(rqtc, rqtc, rq_num[i]);

		rqs[i] = emu_rq_lookup(net, rqn);
		if (rqs[i] == NULL) {
			EMU_LOG(ERR, "%s: CREATE_RQT: entry %u: RQ 0x%x "
				"unknown", dev->name, i, rqn);
			free(rqs);
			free(rqt);
			return emu_cmd_fail(dev, out, outlen,
					    EMU_CMD_STAT_BAD_RES_ERR,
					    MLX5_EMU_SYND_NET_RQ);
		}
	}
	rqt->id = emu_net_new_id(net);
	rqt->size = size;
	rqt->rqs = rqs;
	emu_net_lock();
	for (i = 0; i < size; i++)
		rqs[i]->refcnt++;
	TAILQ_INSERT_TAIL(&net->rqts, rqt, next);
	net->nstats.rqts++;
	emu_net_unlock();
	emu_cmd_ok(out, outlen);
	MLX5_SET(create_rqt_out, out, rqtn, rqt->id);
	*id = rqt->id;
	*priv = rqt;
	return 0;
}

#define TIR_GET(fld) EMU_GET(tirc, tirc, fld)

/*
 * The LRO fields of a TIR context (tirc; DPDK mlx5_devx.c
 * mlx5_devx_tir_attr_set() writes them, mlx5_devx_cmds.c
 * mlx5_devx_cmd_create_tir() / _modify_tir() copy them; kernel en_main.c
 * mlx5e_build_tir_ctx_lro()): lro_enable_mask only IPV4_LRO and IPV6_LRO
 * (MLX5_TIRC_LRO_ENABLE_MASK_*), and only on a device with lro_cap;
 * lro_timeout_period_usecs one of lro_timer_supported_periods (both
 * drivers pick it from that list: DPDK mlx5.c, kernel
 * mlx5e_choose_lro_timeout()); lro_max_msg_sz (256-byte units, DPDK
 * max_lro_msg_size / MLX5_LRO_SEG_CHUNK_SIZE; the kernel's mlx5_ifc.h
 * calls it lro_max_ip_payload_size) not 0 (DPDK's
 * mlx5_trigger.c refuses a size below one chunk; a session could hold
 * nothing). With LRO off the other two fields are not looked at.
 */
static int
emu_tir_lro_check(struct emu_dev *dev, const void *tirc, void *out,
		  size_t outlen)
{
	uint32_t mask = TIR_GET(lro_enable_mask);
	uint32_t period = TIR_GET(lro_timeout_period_usecs);
	unsigned int i;

	if (mask == 0)
		return 0;
	if (!dev->caps.eth_lro) {
		EMU_LOG(ERR, "%s: TIR: lro_enable_mask 0x%x but the device has "
			"no lro_cap", dev->name, mask);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_LRO_CAP);
	}
	if (mask & ~(uint32_t)(MLX5_TIRC_LRO_ENABLE_MASK_IPV4_LRO |
			       MLX5_TIRC_LRO_ENABLE_MASK_IPV6_LRO)) {
		EMU_LOG(ERR, "%s: TIR: lro_enable_mask 0x%x (IPv4 0x1, IPv6 "
			"0x2 only)", dev->name, mask);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_RESERVED);
	}
	for (i = 0; i < EMU_LRO_PERIODS; i++)
		if (emu_lro_periods[i] == period)
			break;
	if (i == EMU_LRO_PERIODS) {
		EMU_LOG(ERR, "%s: TIR: lro_timeout_period_usecs %u is not one "
			"of lro_timer_supported_periods (%u, %u, %u, %u)",
			dev->name, period, emu_lro_periods[0],
			emu_lro_periods[1], emu_lro_periods[2],
			emu_lro_periods[3]);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_LRO_PERIOD);
	}
	if (TIR_GET(lro_max_msg_sz) == 0) {
		EMU_LOG(ERR, "%s: TIR: LRO with lro_max_msg_sz 0", dev->name);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_LRO_SIZE);
	}
	return 0;
}

int
emu_tir_create(struct emu_dev *dev, struct emu_net *net, const void *in,
	       size_t inlen, void *out, size_t outlen, uint32_t *id,
	       void **priv)
{
	const void *tirc = EMU_ADDR_OF(create_tir_in, in, ctx);
	const void *outer = EMU_ADDR_OF(tirc, tirc,
					 rx_hash_field_selector_outer);
	const void *inner = EMU_ADDR_OF(tirc, tirc,
					 rx_hash_field_selector_inner);
	struct emu_rqt *rqt = NULL;
	struct emu_rq *rq = NULL;
	struct emu_tir *tir;
	struct emu_td *td;
	uint32_t fields, fn;
	int ret;

	ret = emu_net_check_lens(dev, "CREATE_TIR", inlen,
				 MLX5_ST_SZ_BYTES(create_tir_in), out, outlen,
				 MLX5_ST_SZ_BYTES(create_tir_out));
	if (ret != 0)
		return ret;
	/* mlx5_prm.h tirc: symmetric hash, tunnels, inner RSS. */
	if (EMU_GET(create_tir_in, in, op_mod) != 0 ||
	    TIR_GET(rx_hash_symmetric) || TIR_GET(tunneled_offload_en) ||
	    EMU_GET(rx_hash_field_select, inner, selected_fields) ||
	    EMU_GET(rx_hash_field_select, inner, l3_prot_type) ||
	    EMU_GET(rx_hash_field_select, inner, l4_prot_type)) {
		EMU_LOG(ERR, "%s: CREATE_TIR: symmetric hash, tunnel "
			"offload or inner hash not modelled", dev->name);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_RESERVED);
	}
	ret = emu_tir_lro_check(dev, tirc, out, outlen);
	if (ret != 0)
		return ret;
	/* tirc.rx_hash_fn (MLX5_RX_HASH_FN_*), rx_hash_field_select
	 * selected_fields (MLX5_RX_HASH_FIELD_SELECT_SELECTED_FIELDS_*).
	 */
	fn = TIR_GET(rx_hash_fn);
	fields = EMU_GET(rx_hash_field_select, outer, selected_fields);
	if ((fn != MLX5_RX_HASH_FN_NONE && fn != MLX5_RX_HASH_FN_TOEPLITZ) ||
	    (fields & ~EMU_HASH_FIELDS) != 0) {
		EMU_LOG(ERR, "%s: CREATE_TIR: rx_hash_fn %u or fields 0x%x "
			"not supported", dev->name, fn, fields);
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_HASH);
	}
	if (TIR_GET(disp_type) == MLX5_TIRC_DISP_TYPE_DIRECT) {
		rq = emu_rq_lookup(net, TIR_GET(inline_rqn));
		if (rq == NULL) {
			EMU_LOG(ERR, "%s: CREATE_TIR: inline RQ 0x%x unknown",
				dev->name, TIR_GET(inline_rqn));
			return emu_cmd_fail(dev, out, outlen,
					    EMU_CMD_STAT_BAD_RES_ERR,
					    MLX5_EMU_SYND_NET_RQ);
		}
	} else if (TIR_GET(disp_type) == MLX5_TIRC_DISP_TYPE_INDIRECT) {
		rqt = emu_rqt_lookup(net, TIR_GET(indirect_table));
		if (rqt == NULL) {
			EMU_LOG(ERR, "%s: CREATE_TIR: RQT 0x%x unknown",
				dev->name, TIR_GET(indirect_table));
			return emu_cmd_fail(dev, out, outlen,
					    EMU_CMD_STAT_BAD_RES_ERR,
					    MLX5_EMU_SYND_NET_RQT);
		}
	} else {
		EMU_LOG(ERR, "%s: CREATE_TIR: disp_type %u", dev->name,
			TIR_GET(disp_type));
		return emu_cmd_fail(dev, out, outlen,
				    EMU_CMD_STAT_BAD_PARAM_ERR,
				    MLX5_EMU_SYND_NET_RESERVED);
	}
	/*
	 * Transport domain 0 is the function's own and always exists for a
	 * TIR: DPDK 22.11's net/mlx5 (mlx5_devx.c mlx5_devx_tir_attr_set())
	 * fills transport_domain from priv->sh->tdn, which stays 0 until
	 * its first TX queue starts (mlx5_txq_devx_obj_new()), and creates
	 * TIRs with it at probe on cards. Any other number must be an
	 * allocated domain.
	 */
	td = NULL;
	if (TIR_GET(transport_domain) != 0)
		td = emu_td_lookup(net, TIR_GET(transport_domain));
	if (td == NULL && TIR_GET(transport_domain) != 0) {
		EMU_LOG(ERR, "%s: CREATE_TIR: transport domain 0x%x unknown",
			dev->name, TIR_GET(transport_domain));
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_BAD_RES_ERR,
				    MLX5_EMU_SYND_NET_TD);
	}
	tir = calloc(1, sizeof(*tir));
	if (tir == NULL)
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_LIM_ERR,
				    MLX5_EMU_SYND_NONE);
	tir->id = emu_net_new_id(net);
	tir->indirect = rqt != NULL;
	tir->hash_fn = fn;
	tir->self_lb_block = TIR_GET(self_lb_block);
	tir->l3_ipv6 = EMU_GET(rx_hash_field_select, outer, l3_prot_type);
	tir->l4_udp = EMU_GET(rx_hash_field_select, outer, l4_prot_type);
	tir->fields = fields;
	tir->lro_mask = TIR_GET(lro_enable_mask);
	tir->lro_max = TIR_GET(lro_max_msg_sz) * EMU_LRO_CHUNK;
	tir->lro_timeout_us = TIR_GET(lro_timeout_period_usecs);
	memcpy(tir->key, EMU_ADDR_OF(tirc, tirc, rx_hash_toeplitz_key),
	       EMU_RSS_KEY_LEN);
	emu_toeplitz_table(tir);
	tir->rq = rq;
	tir->rqt = rqt;
	tir->td = td;
	emu_net_lock();
	if (rq != NULL)
		rq->refcnt++;
	if (rqt != NULL)
		rqt->refcnt++;
	if (td != NULL)
		td->refcnt++;
	TAILQ_INSERT_TAIL(&net->tirs, tir, next);
	net->nstats.tirs++;
	emu_net_unlock();
	emu_cmd_ok(out, outlen);
	MLX5_SET(create_tir_out, out, tirn, tir->id);
	*id = tir->id;
	*priv = tir;
	return 0;
}

uint32_t
emu_toeplitz(const uint8_t *key, const uint8_t *data, size_t len)
{
	uint32_t hash = 0, window;
	size_t i;
	int b;

	/* The 32-bit key window starting at each input bit. */
	window = (uint32_t)key[0] << 24 | (uint32_t)key[1] << 16 |
		 (uint32_t)key[2] << 8 | key[3];
	for (i = 0; i < len; i++) {
		uint8_t next = i + 4 < EMU_RSS_KEY_LEN ? key[i + 4] : 0;

		for (b = 7; b >= 0; b--) {
			if (data[i] & (1u << b))
				hash ^= window;
			window = window << 1 | ((next >> b) & 1);
		}
	}
	return hash;
}

void
emu_toeplitz_table(struct emu_tir *tir)
{
	unsigned int i, b, v;
	uint8_t one[EMU_RSS_KEY_LEN - 4];
	uint32_t bit[8];

	/*
	 * The bit-serial definition once per input bit; a byte value's
	 * entry is the XOR of the entries of its bits (linearity): the
	 * entry of v is that of v without its lowest set bit, XOR that bit's.
	 */
	memset(one, 0, sizeof(one));
	for (i = 0; i < EMU_RSS_KEY_LEN - 4; i++) {
		for (b = 0; b < 8; b++) {
			one[i] = (uint8_t)(1u << b);
			bit[b] = emu_toeplitz(tir->key, one, i + 1);
		}
		one[i] = 0;
		tir->ttab[i][0] = 0;
		for (v = 1; v < 256; v++)
			tir->ttab[i][v] = tir->ttab[i][v & (v - 1)] ^
					  bit[__builtin_ctz(v)];
	}
}

/*
 * The Toeplitz hash of len bytes at input bytes pos.. (pos + len at most
 * 36) with the TIR's tables; the hash is linear, so the fields of the
 * input are hashed where they lie in the frame and XORed.
 */
static __rte_always_inline uint32_t
emu_toeplitz_at(const struct emu_tir *tir, size_t pos, const uint8_t *data,
		size_t len)
{
	const uint32_t (*t)[256] = &tir->ttab[pos];
	const uint8_t *d = data;
	const uint8_t *const d4 = data + (len & ~(size_t)3);
	const uint8_t *const end = data + len;
	uint32_t h0 = 0, h1 = 0;

	/* Pointer walks, four bytes a step (the fields are 2, 4 or 16 bytes
	 * long): the loop's own work was most of the cost.
	 */
	for (; d != d4; d += 4, t += 4) {
		h0 ^= t[0][d[0]] ^ t[1][d[1]];
		h1 ^= t[2][d[2]] ^ t[3][d[3]];
	}
	for (; d != end; d++, t++)
		h0 ^= t[0][d[0]];
	return h0 ^ h1;
}

/* Hash of a frame under a TIR; the hash type in *type. */
static uint32_t
emu_rss_hash(const struct emu_tir *tir, const uint8_t *f,
	     const struct emu_pkt *pp, uint8_t *type)
{
	const struct emu_pkt p = *pp;
	size_t n = 0, alen;
	const uint8_t *src, *dst;
	uint32_t hash = 0;

	*type = 0;
	if (tir->hash_fn != MLX5_RX_HASH_FN_TOEPLITZ || tir->fields == 0)
		return 0;
	if (tir->l3_ipv6 ? !p.ipv6 : !p.ipv4)
		return 0;
	alen = p.ipv6 ? 16 : 4;
	src = f + p.l3_off + (p.ipv6 ? 8 : 12);
	dst = src + alen;
	if ((tir->fields & (EMU_HASH_SRC_IP | EMU_HASH_DST_IP)) ==
	    (EMU_HASH_SRC_IP | EMU_HASH_DST_IP)) {
		/* Adjacent in the header: one run. */
		hash = emu_toeplitz_at(tir, 0, src, 2 * alen);
		n = 2 * alen;
	} else if (tir->fields & EMU_HASH_SRC_IP) {
		hash = emu_toeplitz_at(tir, 0, src, alen);
		n = alen;
	} else if (tir->fields & EMU_HASH_DST_IP) {
		hash = emu_toeplitz_at(tir, 0, dst, alen);
		n = alen;
	}
	if (n != 0)
		*type |= (p.ipv6 ? 2 : 1) << 2;
	if ((tir->fields & (EMU_HASH_SPORT | EMU_HASH_DPORT)) &&
	    p.l4_off != 0 && !p.frag &&
	    p.l4_proto == (tir->l4_udp ? 17 : 6)) {
		if ((tir->fields & (EMU_HASH_SPORT | EMU_HASH_DPORT)) ==
		    (EMU_HASH_SPORT | EMU_HASH_DPORT))
			hash ^= emu_toeplitz_at(tir, n, f + p.l4_off, 4);
		else if (tir->fields & EMU_HASH_SPORT)
			hash ^= emu_toeplitz_at(tir, n, f + p.l4_off, 2);
		else
			hash ^= emu_toeplitz_at(tir, n, f + p.l4_off + 2, 2);
		*type |= (tir->l4_udp ? 2 : 1) << 6;
	}
	return hash;
}

/* The TIR's part of a delivery (inlined in the default route). */
static __rte_always_inline void
emu_rss_tir_rx(struct emu_net *net, const struct emu_tir *tir,
	       const uint8_t *frame, const struct emu_pkt *pkt, int self,
	       const struct emu_rx_meta *meta)
{
	struct emu_rq *rq;
	uint32_t hash;
	uint8_t type;

	if (self && (tir->self_lb_block &
		     ((frame[0] & 1) ? MLX5_TIRC_SELF_LB_BLOCK_BLOCK_MULTICAST :
		      MLX5_TIRC_SELF_LB_BLOCK_BLOCK_UNICAST))) {
		net->pstats.rx_filtered++;
		return;
	}
	hash = emu_rss_hash(tir, frame, pkt, &type);
	rq = tir->rqt != NULL ? tir->rqt->rqs[hash % tir->rqt->size] :
	     tir->rq;
	/* LRO on the TIR, or a session open on the RQ (mlx5_emu_lro.c). */
	if (unlikely((tir->lro_mask | rq->lro_open) != 0)) {
		emu_lro_receive(rq, tir, frame, pkt, hash, type, meta);
		return;
	}
	emu_rq_receive(rq, frame, pkt, hash, type, meta);
}

void
emu_rss_to_tir(struct emu_net *net, const struct emu_tir *tir,
	       const uint8_t *frame, const struct emu_pkt *pkt, int self,
	       const struct emu_rx_meta *meta)
{
	emu_rss_tir_rx(net, tir, frame, pkt, self, meta);
}

void
emu_rss_deliver(struct emu_net *net, const uint8_t *frame, uint32_t len,
		int self)
{
	struct emu_tir *tir = TAILQ_FIRST(&net->tirs);
	struct emu_pkt pkt;

	/* NIC RX steering once the device made a domain. */
	if (unlikely(net->rx_steered)) {
		emu_steer_rx(net, frame, len, self);
		return;
	}
	if (tir == NULL) {
		net->pstats.rx_no_queue++;
		return;
	}
	/* Parsed once: the hash and the RX CQE's header type use it. */
	emu_pkt_parse(frame, len, &pkt);
	emu_rss_tir_rx(net, tir, frame, &pkt, self, NULL);
}
