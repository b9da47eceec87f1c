/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * CREATE_MKEY (0x200) of indirect memory keys, as rte_common_mlx5's
 * mlx5_devx_cmd_mkey_create() makes them with klm_num > 0 (crypto/mlx5's
 * per-descriptor crypto mkeys), and their destruction.
 *
 * Contract (status / model syndrome):
 * - input shorter than create_mkey_in plus 16 bytes per
 *   translations_octword_actual_size: BAD_INP_LEN;
 * - access mode (access_mode_4_2:access_mode_1_0) KLM (2) only; free,
 *   length64, sync_umr, expected_sigerr_count, pg_access, mkey_umem_id,
 *   log_page_size 0; qpn 0xffffff (no bound QP); otherwise BAD_PARAM,
 *   MKEY_CTX;
 * - translations_octword_actual_size <= translations_octword_size <=
 *   1024, else BAD_PARAM, MKEY_CTX;
 * - pd allocated on this device, else BAD_RES, CRYPTO_PD;
 * - crypto_en 0 or 1 (1 needs caps.crypto, bsf_en 1 and bsf_octword_size
 *   4: one 64-byte crypto BSF), else BAD_PARAM, MKEY_CTX.
 * The mkey is mkey_index << 8 | mkey_7_0; its KLM list starts as the
 * mailbox gives it (klm byte_count, mkey, address) and its length as
 * mkc.len; UMR WQEs replace them (mlx5_emu_umr.c). A KLM entry's mkey is
 * an MR lkey (direct), checked when data moves. rw/rr/lw/lr are kept (rw
 * is checked by RDMA writes). WQEs find an mkey by its index in a hashed
 * table (EMU_MKEY_HASH buckets), as the device indexes its mkey contexts.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <mlx5_prm.h>

#include "mlx5_emu_crypto.h"

#define EMU_MKEY_MAX_KLM 1024

#define EMU_MKEY_REFUSE(dev, out, outlen, status, synd, why) \
	emu_crypto_refuse(dev, out, outlen, status, synd, "CREATE_MKEY", why)

struct emu_mkey *
emu_mkey_lookup(struct emu_crypto *cr, uint32_t key)
{
	struct emu_mkey *mk;

	if (cr == NULL)
		return NULL;
	mk = cr->mkey_last;
	if (mk != NULL && mk->key == key)
		return mk;
	LIST_FOREACH(mk, &cr->mkey_hash[(key >> 8) & (EMU_MKEY_HASH - 1)],
		     hnext)
		if (mk->key == key)
			break;
	if (mk != NULL)
		cr->mkey_last = mk;
	return mk;
}

static int
emu_mkc_supported(const void *in, const void *mkc)
{
	unsigned int mode = EMU_GET(mkc, mkc, access_mode_1_0) |
			    EMU_GET(mkc, mkc, access_mode_4_2) << 2;

	return mode == MLX5_MKC_ACCESS_MODE_KLM &&
	       !EMU_GET(mkc, mkc, free) && !EMU_GET(mkc, mkc, length64) &&
	       !EMU_GET(mkc, mkc, sync_umr) &&
	       !EMU_GET(mkc, mkc, expected_sigerr_count) &&
	       !EMU_GET(mkc, mkc, log_page_size) &&
	       EMU_GET(mkc, mkc, qpn) == 0xffffff &&
	       !EMU_GET(create_mkey_in, in, pg_access) &&
	       !EMU_GET(create_mkey_in, in, mkey_umem_id);
}

int
emu_mkey_create(struct emu_dev *dev, struct emu_crypto *cr, const void *in,
		size_t inlen, void *out, size_t outlen, uint32_t *id,
		void **priv)
{
	const void *mkc = EMU_ADDR_OF(create_mkey_in, in,
				       memory_key_mkey_entry);
	const uint8_t *klm;
	uint32_t actual, size, crypto_en, i;
	struct emu_mkey *mk;

	if (inlen < MLX5_ST_SZ_BYTES(create_mkey_in))
		return EMU_MKEY_REFUSE(dev, out, outlen,
				       EMU_CMD_STAT_BAD_INP_LEN_ERR,
				       MLX5_EMU_SYND_INLEN, "short input");
	if (outlen < MLX5_ST_SZ_BYTES(create_mkey_out))
		return EMU_MKEY_REFUSE(dev, out, outlen,
				       EMU_CMD_STAT_BAD_OUTP_LEN_ERR,
				       MLX5_EMU_SYND_OUTLEN, "short output");
	actual = EMU_GET(create_mkey_in, in,
			  translations_octword_actual_size);
	size = EMU_GET(mkc, mkc, translations_octword_size);
	if (inlen < MLX5_ST_SZ_BYTES(create_mkey_in) +
		    (size_t)actual * MLX5_ST_SZ_BYTES(klm))
		return EMU_MKEY_REFUSE(dev, out, outlen,
				       EMU_CMD_STAT_BAD_INP_LEN_ERR,
				       MLX5_EMU_SYND_INLEN,
				       "KLM list past the mailbox");
	if (!emu_mkc_supported(in, mkc) || actual > size ||
	    size > EMU_MKEY_MAX_KLM || size == 0)
		return EMU_MKEY_REFUSE(dev, out, outlen,
				       EMU_CMD_STAT_BAD_PARAM_ERR,
				       MLX5_EMU_SYND_MKEY_CTX,
				       "only indirect KLM mkeys with no bound "
				       "QP and 1..1024 translations modelled");
	if (!emu_pd_exists(dev, EMU_GET(mkc, mkc, pd)))
		return EMU_MKEY_REFUSE(dev, out, outlen,
				       EMU_CMD_STAT_BAD_RES_ERR,
				       MLX5_EMU_SYND_CRYPTO_PD,
				       "pd not allocated on this device");
	crypto_en = EMU_GET(mkc, mkc, crypto_en);
	if (crypto_en > MLX5_MKEY_CRYPTO_ENABLED ||
	    (crypto_en && (!dev->caps.crypto || !EMU_GET(mkc, mkc, bsf_en) ||
			   EMU_GET(mkc, mkc, bsf_octword_size) != 4)) ||
	    (!crypto_en && (EMU_GET(mkc, mkc, bsf_en) ||
			    EMU_GET(mkc, mkc, bsf_octword_size))))
		return EMU_MKEY_REFUSE(dev, out, outlen,
				       EMU_CMD_STAT_BAD_PARAM_ERR,
				       MLX5_EMU_SYND_MKEY_CTX,
				       "crypto_en needs the crypto cap and one "
				       "64-byte BSF (bsf_en, octword size 4)");
	mk = calloc(1, sizeof(*mk));
	if (mk != NULL)
		mk->klm = calloc(size, sizeof(*mk->klm));
	if (mk == NULL || mk->klm == NULL) {
		free(mk);
		return emu_cmd_fail(dev, out, outlen, EMU_CMD_STAT_LIM_ERR,
				    MLX5_EMU_SYND_NONE);
	}
	klm = (const uint8_t *)EMU_ADDR_OF(create_mkey_in, in, klm_pas_mtt);
	for (i = 0; i < actual; i++, klm += MLX5_ST_SZ_BYTES(klm)) {
		mk->klm[i].bcount = EMU_GET(klm, klm, byte_count);
		mk->klm[i].lkey = EMU_GET(klm, klm, mkey);
		mk->klm[i].addr = rte_be_to_cpu_64(*(const rte_be64_t *)
					EMU_ADDR_OF(klm, klm, address));
	}
	mk->nklm = actual;
	mk->max_klm = size;
	mk->pdn = EMU_GET(mkc, mkc, pd);
	mk->crypto_en = crypto_en;
	mk->umr_en = EMU_GET(mkc, mkc, umr_en);
	mk->rw = EMU_GET(mkc, mkc, rw);
	mk->start = EMU_GET64(mkc, mkc, start_addr);
	mk->len = EMU_GET64(mkc, mkc, len);
	cr->next_mkey = (cr->next_mkey + 1) & 0xffffff;
	if (cr->next_mkey == 0)
		cr->next_mkey = 1;
	mk->key = cr->next_mkey << 8 | EMU_GET(mkc, mkc, mkey_7_0);
	emu_net_lock();
	TAILQ_INSERT_TAIL(&cr->mkeys, mk, next);
	LIST_INSERT_HEAD(&cr->mkey_hash[cr->next_mkey & (EMU_MKEY_HASH - 1)],
			 mk, hnext);
	emu_net_unlock();
	emu_cmd_ok(out, outlen);
	MLX5_SET(create_mkey_out, out, mkey_index, mk->key >> 8);
	*id = mk->key >> 8;
	*priv = mk;
	return 0;
}

void
emu_mkey_destroy(struct emu_crypto *cr, struct emu_mkey *mk)
{
	emu_net_lock();
	TAILQ_REMOVE(&cr->mkeys, mk, next);
	LIST_REMOVE(mk, hnext);
	if (cr->mkey_last == mk)
		cr->mkey_last = NULL;
	emu_net_unlock();
	free(mk->klm);
	free(mk);
}
