/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * Memory regions (ibv_reg_mr / ibv_dereg_mr) and the PD view of
 * mlx5dv_init_obj(MLX5DV_OBJ_PD).
 *
 * Registration pins the range as the kernel does (ib_umem_get): pages
 * that are not mapped, not readable, or not writable when the access
 * flags make the MR writable (LOCAL_WRITE, REMOTE_WRITE, REMOTE_ATOMIC)
 * fail it with EFAULT (mlx5_emu_access.c), so the engines never touch
 * memory they cannot access.
 *
 * An MR covers [addr, addr + length) of the process; lkey = rkey is a
 * device-unique number. The device checks every data segment against the
 * MR its lkey names: same PD as the queue, the range inside the MR, and
 * IBV_ACCESS_LOCAL_WRITE when the device writes (receive). A failed check
 * is a local protection error (syndrome 0x04). Deregistering an MR a
 * queue still points at is allowed (as with the verbs API); later WQEs
 * naming it fail the check. A PD with MRs or queues cannot be freed
 * (EBUSY), and a device with MRs cannot be closed.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mlx5_emu_access.h"
#include "mlx5_emu_net.h"

/*
 * Kernel include/rdma/ib_verbs.h (Linux 6.1) IB_ACCESS_SUPPORTED: every
 * bit up to IB_ACCESS_HUGETLB (local write .. huge pages) and the
 * optional range IB_UVERBS_ACCESS_OPTIONAL_FIRST (1 << 20, relaxed
 * ordering) .. _LAST (1 << 29). rdma-core 44 ibv_reg_mr_iova2() passes
 * the optional bits on since the kernel reports
 * IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS.
 */
#define EMU_MR_ACCESS_SUPPORTED \
	((((uint32_t)IBV_ACCESS_HUGETLB << 1) - 1) | \
	 ((((uint32_t)1 << 29) << 1) - ((uint32_t)1 << 20)))

/* The PD was allocated on this device (caller holds dev->lock). */
static int
emu_pd_listed(struct emu_dev *dev, const struct ibv_pd *ibpd)
{
	struct emu_pd *pd;

	TAILQ_FOREACH(pd, &dev->pds, next)
		if (&pd->pd == ibpd)
			return 1;
	return 0;
}

int
emu_pd_is_ours(const struct ibv_pd *pd)
{
	struct emu_dev *dev;
	int ours;

	if (pd == NULL)
		return 0;
	dev = emu_dev_from_ctx(pd->context);
	if (dev == NULL)
		return 0;
	pthread_mutex_lock(&dev->lock);
	ours = emu_pd_listed(dev, pd);
	pthread_mutex_unlock(&dev->lock);
	return ours;
}

struct ibv_mr *
emu_reg_mr(struct ibv_pd *pd, void *addr, size_t len, int access)
{
	struct emu_dev *dev = emu_dev_from_ctx(pd->context);
	struct emu_access_fault fault;
	struct emu_net *net;
	struct emu_mr *mr;

	if (dev == NULL) {
		errno = ENOENT;
		return NULL;
	}
	/* Kernel ib_check_mr_access() (uverbs ib_uverbs_reg_mr(), before
	 * the memory is looked at): remote write or remote atomic without
	 * local write, then bits outside IB_ACCESS_SUPPORTED: EINVAL.
	 */
	if (((access & (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)) &&
	     !(access & IBV_ACCESS_LOCAL_WRITE)) ||
	    ((uint32_t)access & ~EMU_MR_ACCESS_SUPPORTED) != 0) {
		EMU_LOG(ERR, "%s: reg_mr: access 0x%x refused (remote write or"
			" atomic without local write, or unknown bits)",
			dev->name, access);
		errno = EINVAL;
		return NULL;
	}
	/* Kernel ib_check_mr_access(): IB_ACCESS_ON_DEMAND on a device
	 * without IBK_ON_DEMAND_PAGING: EOPNOTSUPP (the model has no ODP).
	 * Memory windows, zero-based and huge-page hints change nothing in
	 * the model and are taken.
	 */
	if (access & IBV_ACCESS_ON_DEMAND) {
		EMU_LOG(ERR, "%s: reg_mr: on-demand paging not supported",
			dev->name);
		errno = EOPNOTSUPP;
		return NULL;
	}
	/* Kernel ib_umem_get(): addr + len must not wrap (EINVAL). NULL
	 * and 0 are the model's own limit.
	 */
	if (addr == NULL || len == 0 ||
	    (uint64_t)(uintptr_t)addr + len < (uint64_t)(uintptr_t)addr) {
		EMU_LOG(ERR, "%s: reg_mr: bad address %p or length %zu",
			dev->name, addr, len);
		errno = EINVAL;
		return NULL;
	}
	if (emu_access_check((uintptr_t)addr, len, access &
			     (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			      IBV_ACCESS_REMOTE_ATOMIC), &fault) != 0) {
		EMU_LOG(ERR, "%s: reg_mr: %p + %zu (access 0x%x): memory at "
			"%#" PRIxPTR " %s: %s", dev->name, addr, len, access,
			fault.addr, fault.why, strerror(EFAULT));
		errno = EFAULT;
		return NULL;
	}
	mr = calloc(1, sizeof(*mr));
	if (mr == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_lock(&dev->lock);
	net = emu_pd_listed(dev, pd) ? emu_net_get(dev) : NULL;
	if (net == NULL) {
		pthread_mutex_unlock(&dev->lock);
		free(mr);
		errno = ENOMEM;
		return NULL;
	}
	mr->dev = dev;
	mr->pdn = pd->handle;
	mr->access = access;
	mr->mr.context = pd->context;
	mr->mr.pd = pd;
	mr->mr.addr = addr;
	mr->mr.length = len;
	mr->mr.handle = net->next_lkey;
	/* lkey: index in the upper 24 bits, a key byte below (as mlx5). */
	mr->mr.lkey = (net->next_lkey++ << 8) | 0x5a;
	mr->mr.rkey = mr->mr.lkey;
	emu_net_lock();
	TAILQ_INSERT_TAIL(&net->mrs, mr, next);
	net->nstats.mrs++;
	emu_net_unlock();
	pthread_mutex_unlock(&dev->lock);
	return &mr->mr;
}

static int
emu_match_mr(struct emu_dev *dev, const void *ptr)
{
	struct emu_mr *mr;

	if (dev->net == NULL)
		return 0;
	TAILQ_FOREACH(mr, &dev->net->mrs, next)
		if (&mr->mr == ptr)
			return 1;
	return 0;
}

int
emu_dereg_mr(struct ibv_mr *ibmr)
{
	struct emu_dev *dev = emu_dev_find_locked(emu_match_mr, ibmr);
	struct emu_mr *mr = (struct emu_mr *)ibmr;

	if (dev == NULL)
		return -ENOENT;
	emu_net_lock();
	TAILQ_REMOVE(&dev->net->mrs, mr, next);
	dev->net->nstats.mrs--;
	dev->net->mr_gen++; /* No WQ may keep it as its hint. */
	emu_net_unlock();
	pthread_mutex_unlock(&dev->lock);
	free(mr);
	return 0;
}

struct emu_mr *
emu_mr_lookup(struct emu_net *net, uint32_t lkey)
{
	struct emu_mr *mr;

	TAILQ_FOREACH(mr, &net->mrs, next)
		if (mr->mr.lkey == lkey)
			return mr;
	return NULL;
}

int
mlx5_emu_mr_find(struct ibv_context *ctx, const void *addr, size_t len,
		 uint32_t *lkey)
{
	struct emu_dev *dev = emu_dev_from_ctx(ctx);
	uintptr_t a = (uintptr_t)addr;
	struct emu_mr *mr;
	int n = 0;

	if (dev == NULL || lkey == NULL)
		return -EINVAL;
	pthread_mutex_lock(&dev->lock);
	emu_net_lock();
	if (dev->net != NULL)
		TAILQ_FOREACH(mr, &dev->net->mrs, next) {
			uintptr_t s = (uintptr_t)mr->mr.addr;

			if (a < s || a + len < a || a + len > s + mr->mr.length)
				continue;
			if (n++ == 0)
				*lkey = mr->mr.lkey;
		}
	emu_net_unlock();
	pthread_mutex_unlock(&dev->lock);
	return n;
}

/* An MR of lkey on pdn covers [addr, addr + len): 0 or the syndrome. */
static int
emu_mr_covers(const struct emu_mr *mr, uint32_t pdn, uint64_t addr,
	      uint32_t len, int write)
{
	uint64_t start, end;

	if (mr == NULL || mr->pdn != pdn)
		return EMU_SYND_LOC_PROT_ERR;
	if (write && !(mr->access & IBV_ACCESS_LOCAL_WRITE))
		return EMU_SYND_LOC_PROT_ERR;
	start = (uint64_t)(uintptr_t)mr->mr.addr;
	end = start + mr->mr.length;
	if (addr < start || addr + len < addr || addr + len > end)
		return EMU_SYND_LOC_PROT_ERR;
	return 0;
}

int
emu_mr_check_wq_slow(struct emu_net *net, struct emu_wq *wq, uint32_t lkey,
		     uint64_t addr, uint32_t len, int write)
{
	const struct emu_mr *mr = wq->mr_hint;

	if (mr == NULL || wq->mr_gen != net->mr_gen || mr->mr.lkey != lkey) {
		mr = emu_mr_lookup(net, lkey);
		wq->mr_hint = mr;
		wq->mr_gen = net->mr_gen;
		/* The copy emu_mr_check_wq() reads: empty unless on the PD. */
		wq->mr_lkey = lkey;
		wq->mr_lo = 1;
		wq->mr_hi = 0;
		wq->mr_write = 0;
		if (mr != NULL && mr->pdn == wq->pdn) {
			wq->mr_lo = (uint64_t)(uintptr_t)mr->mr.addr;
			wq->mr_hi = wq->mr_lo + mr->mr.length;
			wq->mr_write = !!(mr->access &
					  IBV_ACCESS_LOCAL_WRITE);
		}
	}
	return emu_mr_covers(mr, wq->pdn, addr, len, write);
}

int
emu_pd_init_obj(struct mlx5dv_obj *obj)
{
	struct ibv_pd *pd = obj->pd.in;

	/* The model's own limit: rdma-core mlx5dv_get_pd() writes it. */
	if (obj->pd.out == NULL)
		return emu_ret_errno(EINVAL);
	/* [rc-mlx5] mlx5dv_init_obj: pdn is the kernel's PD handle. */
	obj->pd.out->pdn = pd->handle;
	obj->pd.out->comp_mask = 0;
	return 0;
}
