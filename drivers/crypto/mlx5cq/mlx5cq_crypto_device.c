/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Device side of a crypto_mlx5cq device: the verbs context (the emulated
 * HCA for dev=emu, else the RDMA device of that name), its capabilities
 * (QUERY_HCA_CAP through mlx5_devx_cmd_query_hca_attr: crypto, aes_xts,
 * the key import method, the largest send WQE), the mlx5cq device of the
 * CQs, the PD, the UAR of the send doorbells and, when keys are wrapped,
 * the crypto login object.
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>

#include <infiniband/mlx5dv.h>
#include <mlx5_glue.h>

#include "mlx5_emu.h"
#include "mlx5cq_emu_plugin.h"
#include "mlx5cq_pmd.h"
#include "mlx5cq_crypto.h"

/* The RDMA device called name, opened for DevX. */
static struct ibv_context *
mlx5cq_crypto_ibdev_open(const char *name)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	int n = 0, i;

	list = mlx5_glue->get_device_list(&n);
	for (i = 0; list != NULL && i < n && ctx == NULL; i++)
		if (strcmp(mlx5_glue->get_device_name(list[i]), name) == 0)
			ctx = mlx5_glue->dv_open_device(list[i]);
	if (list != NULL)
		mlx5_glue->free_device_list(list);
	if (ctx == NULL) {
		CRYPTO_LOG(ERR, "dev=%s: no such RDMA device, or it cannot "
			   "be opened with DevX", name);
		rte_errno = ENODEV;
	}
	return ctx;
}

/*
 * The one place the emulated HCA is opened (as net_mlx5cq opens it):
 * a device named after the cryptodev, capabilities of
 * mlx5_emu_open_caps_set() (or the defaults), or with emu_crypto the
 * defaults with the crypto engine on, keys imported as it says; with
 * emu_kek and emu_credential the device comes provisioned with an import
 * KEK and a credential (caps.crypto_provisioned: objects
 * MLX5_EMU_PROV_KEK_ID and MLX5_EMU_PROV_CRED_ID).
 */
static struct ibv_context *
mlx5cq_crypto_emu_open(const char *name,
		       const struct mlx5cq_crypto_devargs *a)
{
	enum mlx5cq_crypto_emu emu = a->emu_crypto;
	const struct mlx5cq_emu_plugin *plugin;
	void (*caps_default)(struct mlx5_emu_caps *caps);
	struct mlx5_emu_caps caps;
	struct ibv_context *ctx;
	int ret;

	/* The emulated HCA is a plugin loaded on demand (no link with it). */
	plugin = mlx5cq_emu_plugin_load();
	caps_default = plugin == NULL ? NULL :
		(void (*)(struct mlx5_emu_caps *))(uintptr_t)
		mlx5cq_emu_plugin_sym("mlx5_emu_caps_default");
	if (plugin == NULL || caps_default == NULL) {
		ret = rte_errno;
		CRYPTO_LOG(ERR, "%s: dev=emu needs the emulated HCA plugin, "
			   "which cannot be loaded (%s)", name,
			   rte_strerror(ret));
		rte_errno = ret;
		return NULL;
	}
	if (emu == MLX5CQ_CRYPTO_EMU_CAPS) {
		ctx = plugin->open(name, NULL);
	} else {
		caps_default(&caps);
		caps.crypto = 1;
		caps.crypto_wrapped = emu == MLX5CQ_CRYPTO_EMU_WRAPPED;
		if (caps.crypto_wrapped && a->emu_kek_len != 0) {
			caps.crypto_provisioned = 1;
			caps.crypto_kek_len = a->emu_kek_len;
			memcpy(caps.crypto_kek, a->emu_kek, a->emu_kek_len);
			/* Both the 40 bytes of a CREDENTIAL object. */
			memcpy(caps.crypto_credential, a->emu_cred,
			       sizeof(a->emu_cred));
		}
		ctx = plugin->open(name, &caps);
	}

	if (ctx == NULL) {
		rte_errno = errno ? errno : ENODEV;
		CRYPTO_LOG(ERR, "%s: cannot open an emulated device (%s)",
			   name, strerror(rte_errno));
	}
	return ctx;
}

/* Key mode from the devarg and the device's import method. */
static int
mlx5cq_crypto_key_mode_check(struct mlx5cq_crypto_priv *priv,
			     const char *name)
{
	const struct mlx5cq_crypto_devargs *a = &priv->args;
	int dev_wrapped = priv->hca.crypto_wrapped_import_method;

	switch (a->key_mode) {
	case MLX5CQ_CRYPTO_KEY_PLAINTEXT:
		if (dev_wrapped) {
			CRYPTO_LOG(ERR, "%s: key_mode=plaintext: the device "
				   "imports wrapped keys only", name);
			rte_errno = ENOTSUP;
			return -ENOTSUP;
		}
		break;
	case MLX5CQ_CRYPTO_KEY_WRAPPED:
		if (!dev_wrapped) {
			CRYPTO_LOG(ERR, "%s: key_mode=wrapped: the device "
				   "imports plaintext keys only", name);
			rte_errno = ENOTSUP;
			return -ENOTSUP;
		}
		break;
	default:
		break;
	}
	priv->wrapped = !!dev_wrapped;
	if (priv->wrapped && !a->credential_set) {
		CRYPTO_LOG(ERR, "%s: the device imports wrapped keys: "
			   "wcs_file= or credential= (with credential_id and "
			   "import_kek_id) is required for the login", name);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	if (!priv->wrapped && a->credential_set) {
		CRYPTO_LOG(ERR, "%s: credential applies to wrapped keys; "
			   "the device imports plaintext keys", name);
		rte_errno = EINVAL;
		return -EINVAL;
	}
	return 0;
}

static int
mlx5cq_crypto_login(struct mlx5cq_crypto_priv *priv, const char *name)
{
	struct mlx5_devx_crypto_login_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.credential_pointer = priv->args.credential_id;
	attr.session_import_kek_ptr = priv->args.import_kek_id;
	memcpy(attr.credential, priv->args.credential,
	       sizeof(attr.credential));
	priv->login = mlx5_devx_cmd_create_crypto_login_obj(priv->ctx, &attr);
	if (priv->login == NULL) {
		if (rte_errno == 0)
			rte_errno = EINVAL;
		CRYPTO_LOG(ERR, "%s: crypto login (credential_id %u, "
			   "import_kek_id %u) refused: %s", name,
			   priv->args.credential_id, priv->args.import_kek_id,
			   rte_strerror(rte_errno));
		return -rte_errno;
	}
	return 0;
}

/* Context, capabilities, mlx5cq device, PD, UAR, login. */
int
mlx5cq_crypto_device_open(struct mlx5cq_crypto_priv *priv, const char *name)
{
	struct mlx5dv_obj obj;
	struct mlx5dv_pd pd_out;
	int ret;

	if (strcmp(priv->args.dev, "emu") == 0) {
		priv->ctx = mlx5cq_crypto_emu_open(name, &priv->args);
		priv->emulated = 1;
	} else {
		priv->ctx = mlx5cq_crypto_ibdev_open(priv->args.dev);
	}
	if (priv->ctx == NULL)
		return -rte_errno;
	if (mlx5_devx_cmd_query_hca_attr(priv->ctx, &priv->hca) != 0) {
		rte_errno = rte_errno ? rte_errno : EIO;
		CRYPTO_LOG(ERR, "%s: QUERY_HCA_CAP failed: %s", name,
			   rte_strerror(rte_errno));
		goto error;
	}
	if (!priv->hca.crypto || !priv->hca.aes_xts) {
		CRYPTO_LOG(ERR, "%s: the device has no AES-XTS crypto "
			   "(crypto %u aes_xts %u)", name, priv->hca.crypto,
			   priv->hca.aes_xts);
		rte_errno = ENOTSUP;
		goto error;
	}
	if (mlx5cq_crypto_key_mode_check(priv, name) != 0)
		goto error;
	/* The port opened the context: its buffer allocators are ours. */
	priv->cqdev = rte_mlx5cq_dev_open_ex(priv->ctx, SOCKET_ID_ANY,
					     RTE_MLX5CQ_DEV_F_BUF_ALLOCATORS);
	if (priv->cqdev == NULL) {
		CRYPTO_LOG(ERR, "%s: mlx5cq device open failed: %s", name,
			   rte_strerror(rte_errno));
		goto error;
	}
	priv->pd = mlx5_glue->alloc_pd(priv->ctx);
	if (priv->pd == NULL) {
		rte_errno = errno ? errno : ENOMEM;
		CRYPTO_LOG(ERR, "%s: PD allocation failed: %s", name,
			   strerror(rte_errno));
		goto error;
	}
	memset(&obj, 0, sizeof(obj));
	obj.pd.in = priv->pd;
	obj.pd.out = &pd_out;
	ret = mlx5_glue->dv_init_obj(&obj, MLX5DV_OBJ_PD);
	if (ret != 0) {
		rte_errno = ret > 0 ? ret : EINVAL;
		CRYPTO_LOG(ERR, "%s: cannot read the PD number", name);
		goto error;
	}
	priv->pdn = pd_out.pdn;
	priv->uar = mlx5_glue->devx_alloc_uar(priv->ctx,
					      MLX5DV_UAR_ALLOC_TYPE_NC);
	if (priv->uar == NULL)
		priv->uar = mlx5_glue->devx_alloc_uar(priv->ctx,
						MLX5DV_UAR_ALLOC_TYPE_BF);
	if (priv->uar == NULL) {
		rte_errno = errno ? errno : ENOMEM;
		CRYPTO_LOG(ERR, "%s: UAR allocation failed: %s", name,
			   strerror(rte_errno));
		goto error;
	}
	/* Send doorbells go to the UAR's first BlueFlame register. */
	priv->uar_db = (volatile uint64_t *)
		       ((uint8_t *)priv->uar->base_addr + MLX5CQ_CRYPTO_BF_OFFSET);
	if (priv->wrapped && mlx5cq_crypto_login(priv, name) != 0)
		goto error;
	mlx5cq_crypto_gcm_probe(priv, name);
	return 0;
error:
	ret = rte_errno;
	mlx5cq_crypto_device_close(priv);
	rte_errno = ret;
	return -ret;
}

/* Release what mlx5cq_crypto_device_open() and later steps created. */
void
mlx5cq_crypto_device_close(struct mlx5cq_crypto_priv *priv)
{
	mlx5cq_crypto_dek_release_all(priv);
	if (priv->login != NULL) {
		if (mlx5_devx_cmd_destroy(priv->login) != 0)
			CRYPTO_LOG(ERR, "crypto login release failed");
		priv->login = NULL;
	}
	mlx5cq_crypto_mr_release_all(priv);
	if (priv->uar != NULL) {
		mlx5_glue->devx_free_uar(priv->uar);
		priv->uar = NULL;
		priv->uar_db = NULL;
	}
	mlx5cq_pmd_dev_release(&priv->pd, &priv->cqdev, &priv->ctx,
			       mlx5cq_crypto_logtype, "crypto_mlx5cq");
}
