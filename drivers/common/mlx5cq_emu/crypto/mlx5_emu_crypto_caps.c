/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Crypto capabilities of QUERY_HCA_CAP (device with caps.crypto).
 *
 * General caps (cmd_hca_cap): crypto 1, aes_xts 1 (multi-block tweak,
 * little endian, incremented per data unit: mlx5_emu_xts.c),
 * general_obj_types: DEK always, IMPORT_KEK / CREDENTIAL / CRYPTO_LOGIN
 * when keys are wrapped; log_max_qp / log_max_qp_sz / max_wqe_sz_sq for
 * the loopback QPs; umr_extended_translation_offset 0.
 *
 * Crypto caps (op_mod MLX5_GET_HCA_CAP_OP_MOD_CRYPTO, crypto_caps):
 * wrapped_import_method bit 2 (AES-XTS keys imported wrapped) when
 * caps.crypto_wrapped, else 0 (plaintext keys); wrapped_crypto_operational
 * follows it; log_max_num_deks, log_dek_max_alloc from the caps;
 * failed_selftests from the caps; log_max_num_import_keks and
 * log_max_num_creds 4 when wrapped; the AES-GCM bits (crypto_mmo_qp and
 * the rest) from mlx5_emu_gcm.c.
 */

#include <mlx5_prm.h>

#include "mlx5_emu_crypto.h"

#define EMU_CRYPTO_MAX_WQE_SZ_SQ 1024 /* Bytes (ConnectX-6 Dx). */
#define EMU_WRAPPED_METHOD_AES_XTS (1u << 2)

void
emu_crypto_fill_general_caps(const struct emu_dev *dev, void *hcattr)
{
	const struct mlx5_emu_caps *c = &dev->caps;
	uint64_t types = MLX5_GENERAL_OBJ_TYPES_CAP_DEK;

	if (!c->crypto)
		return;
	if (c->crypto_wrapped)
		types |= MLX5_GENERAL_OBJ_TYPES_CAP_IMPORT_KEK |
			 MLX5_GENERAL_OBJ_TYPES_CAP_CREDENTIAL |
			 MLX5_GENERAL_OBJ_TYPES_CAP_CRYPTO_LOGIN;
	MLX5_SET(cmd_hca_cap, hcattr, crypto, 1);
	MLX5_SET(cmd_hca_cap, hcattr, aes_xts, 1);
	emu_put_be64(MLX5_ADDR_OF(cmd_hca_cap, hcattr, general_obj_types),
		     types);
	MLX5_SET(cmd_hca_cap, hcattr, log_max_qp, 16);
	/* The QPC's log_sq_size has 4 bits (mlx5_prm.h qpc): 2^15 WQEBBs,
	 * the core caps' EMU_LOG_MAX_QP_SZ (kernel max_qp_wr).
	 */
	MLX5_SET(cmd_hca_cap, hcattr, log_max_qp_sz, EMU_LOG_MAX_QP_SZ);
	MLX5_SET(cmd_hca_cap, hcattr, max_wqe_sz_sq, EMU_CRYPTO_MAX_WQE_SZ_SQ);
}

void
emu_crypto_fill_caps(const struct emu_dev *dev, void *hcattr)
{
	const struct mlx5_emu_caps *c = &dev->caps;

	MLX5_SET(crypto_caps, hcattr, wrapped_crypto_operational,
		 c->crypto_wrapped);
	MLX5_SET(crypto_caps, hcattr, wrapped_import_method,
		 c->crypto_wrapped ? EMU_WRAPPED_METHOD_AES_XTS : 0);
	MLX5_SET(crypto_caps, hcattr, log_dek_max_alloc, c->log_max_num_deks);
	MLX5_SET(crypto_caps, hcattr, log_max_num_deks, c->log_max_num_deks);
	MLX5_SET(crypto_caps, hcattr, log_max_num_import_keks,
		 c->crypto_wrapped ? 4 : 0);
	MLX5_SET(crypto_caps, hcattr, log_max_num_creds,
		 c->crypto_wrapped ? 4 : 0);
	MLX5_SET(crypto_caps, hcattr, failed_selftests,
		 c->crypto_failed_selftests);
	emu_gcm_fill_caps(dev, hcattr);
}
