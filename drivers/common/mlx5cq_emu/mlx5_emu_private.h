/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef MLX5_EMU_PRIVATE_H_
#define MLX5_EMU_PRIVATE_H_

/*
 * Internal structures of the emulated HCA, shared by its files, one
 * folder a part of the device:
 *   core/   mlx5_emu_glue.c   dispatching glue table (install, forwarding)
 *           mlx5_emu_glue_steer.c  its flow-steering entries
 *           mlx5_emu_dev.c    devices, contexts, PD, UAR, EQ numbers,
 *                             stats, faults
 *           mlx5_emu_caps.c   QUERY_HCA_CAP and other general commands
 *           mlx5_emu_obj.c    firmware command plumbing, DevX object table
 *           mlx5_emu_umem.c   umem pinning model (ib_umem_get / best page
 *                             size)
 *           mlx5_emu_mr.c, mlx5_emu_mkey.c, mlx5_emu_access.c
 *                             memory regions, memory keys, access checks
 *           mlx5_emu_verbs.c  verbs path as the rdma-core mlx5 provider
 *           mlx5_emu_verbs_dbr.c  its doorbell-record pages
 *                             does it
 *           mlx5_emu_engine.c the progress engine
 *   cq/     mlx5_emu_cq.c     CQ table, DevX CREATE/DESTROY/QUERY_CQ
 *                             firmware checks
 *           mlx5_emu_cqe.c    CQE writer (producer interface), overrun
 *           mlx5_emu_comp.c   CQE compression sessions (basic, enhanced
 *                             layout)
 *           mlx5_emu_event.c  arming, completion events, moderation, DevX
 *                             event channels, async CQ errors
 *           mlx5_emu_producer.c threaded producer
 *   net/    wires, ports, RQ, SQ, RSS, TIS, queue counters, frames
 *           (mlx5_emu_net.h)
 *   crypto/ DEKs, login, loopback QPs, UMR, AES-XTS (mlx5_emu_crypto.h)
 */

#include <pthread.h>
#include <stddef.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/queue.h>

#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>
#include <rte_byteorder.h>
#include <rte_log.h>

#include "mlx5_emu.h"

extern int mlx5_emu_logtype;

#define EMU_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mlx5_emu_logtype, \
		"mlx5_emu: " fmt "\n", ##__VA_ARGS__)

/*
 * Set errno and return it: rdma-core's convention for int entries, which
 * the model's kernel and firmware side follows (positive errno values).
 */
static inline int
emu_ret_errno(int err)
{
	errno = err;
	return err;
}

/* Firmware revision (initialization segment fw_rev). */
#define EMU_FW_REV_MAJOR 16
#define EMU_FW_REV_MINOR 35
#define EMU_FW_REV_SUBMINOR 2000
#define EMU_MAX_CMD_IN 4096 /* Largest input mailbox kept for inspection. */
#define EMU_PAGE_SHIFT 12 /* Host and adapter page (4 KiB). */
#define EMU_PAGE_SIZE (1u << EMU_PAGE_SHIFT)
#define EMU_EQN_BASE 16 /* EQ of completion vector v: EMU_EQN_BASE + v. */
/* QUERY_HCA_CAP limits of QPs, WQs and RSS (a ConnectX-5's; the verbs
 * attributes derive from them as the kernel's mlx5_ib_query_device() does).
 */
#define EMU_LOG_MAX_QP 18
/* HCA_CAP.log_max_vlan_list: a vport VLAN list of up to 256 ids. */
#define EMU_LOG_MAX_VLAN_LIST 8
#define EMU_LOG_MAX_QP_SZ 15
#define EMU_MAX_WQE_SZ_SQ 1024
#define EMU_MAX_WQE_SZ_RQ 1024
#define EMU_LOG_MAX_MKEY 24
#define EMU_LOG_MAX_RQ 16
#define EMU_LOG_MAX_RQT 16
#define EMU_LOG_MAX_RQT_SIZE 11
#define EMU_MAX_VECTORS (256 - EMU_EQN_BASE) /* c_eqn is 8 bits. */
#define EMU_CQN_MASK 0xffffffu /* CQ numbers and counters: 24 bits. */
#define EMU_CQ_STAGE 64 /* Completions the engine stages per CQ. */

/* Firmware command status (PRM; kernel include/linux/mlx5/device.h). */
enum emu_cmd_status {
	EMU_CMD_STAT_OK = 0x0,
	EMU_CMD_STAT_INT_ERR = 0x1,
	EMU_CMD_STAT_BAD_OP_ERR = 0x2,
	EMU_CMD_STAT_BAD_PARAM_ERR = 0x3,
	EMU_CMD_STAT_BAD_SYS_STATE_ERR = 0x4,
	EMU_CMD_STAT_BAD_RES_ERR = 0x5,
	EMU_CMD_STAT_RES_BUSY = 0x6,
	EMU_CMD_STAT_LIM_ERR = 0x8,
	EMU_CMD_STAT_BAD_RES_STATE_ERR = 0x9,
	EMU_CMD_STAT_IX_ERR = 0xa,
	EMU_CMD_STAT_NO_RES_ERR = 0xf,
	EMU_CMD_STAT_BAD_INP_LEN_ERR = 0x50,
	EMU_CMD_STAT_BAD_OUTP_LEN_ERR = 0x51,
};

/* PRM command opcodes the model knows beyond those of mlx5_prm.h. */
#define EMU_CMD_OP_DESTROY_CQ 0x401
#define EMU_CMD_OP_QUERY_CQ 0x402
#define EMU_CMD_OP_MODIFY_CQ 0x403

struct emu_dev;
struct mlx5_glue;

/* Nonzero when the n bytes at p are all zero. */
static inline int
emu_bytes_zero(const void *p, size_t n)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != 0)
			return 0;
	return 1;
}

/*
 * mlx5_prm.h's MLX5_GET, MLX5_GET64 and MLX5_ADDR_OF cast their pointer to
 * a writable one; the model reads its input mailboxes and contexts through
 * const pointers, so these drop the const once, on purpose, without a
 * -Wcast-qual report (the cast goes through uintptr_t). EMU_ADDR_OF gives
 * a const pointer back.
 */
#define EMU_UNCONST(p) ((void *)(uintptr_t)(const void *)(p))
#define EMU_GET(typ, p, fld) MLX5_GET(typ, EMU_UNCONST(p), fld)
#define EMU_GET64(typ, p, fld) MLX5_GET64(typ, EMU_UNCONST(p), fld)
#define EMU_ADDR_OF(typ, p, fld) \
	((const void *)MLX5_ADDR_OF(typ, EMU_UNCONST(p), fld))

/* A field wider than 32 bits (byte aligned) of a PRM layout is zero. */
#define EMU_WIDE_FIELD_ZERO(typ, p, fld) \
	emu_bytes_zero(EMU_ADDR_OF(typ, p, fld), MLX5_FLD_SZ_BYTES(typ, fld))

/* A registered umem (what ib_umem_get pinned). */
struct emu_umem {
	struct mlx5dv_devx_umem pub; /* umem_id; first member. */
	TAILQ_ENTRY(emu_umem) next;
	struct emu_dev *dev;
	uint64_t addr; /* Virtual start. */
	uint64_t size;
	uint32_t access;
	uint32_t nsegs;
	uint32_t page_shift;
	uint32_t npages;
	uint32_t page_offset; /* Start within the first umem page (DMA). */
	uint32_t host_page_shift; /* Smallest host page it lies in (log2). */
	uint32_t refcnt; /* Objects using it. */
};

/* A DevX object handle given to the user. */
struct emu_obj {
	TAILQ_ENTRY(emu_obj) next;
	struct emu_dev *dev;
	uint16_t type; /* PRM opcode of its CREATE command. */
	uint32_t id; /* Object number (cqn for a CQ). */
	void *priv; /* Type-specific state (struct emu_cq *). */
};

/* A CQ as the firmware holds it (both paths). */
struct emu_cq {
	TAILQ_ENTRY(emu_cq) next;
	struct emu_dev *dev;
	uint32_t cqn;
	uint8_t verbs; /* Created by the verbs path. */
	uint8_t log_cq_size;
	uint8_t cqe_sz; /* 0 64 B, 1 128 B, 2 128 B padded. */
	uint8_t cqe_comp_en;
	uint8_t mini_cqe_res_format; /* Incl. the _ext bits (0..4). */
	uint8_t cqe_comp_layout;
	uint8_t oi;
	uint8_t log_page_size;
	uint32_t uar_page;
	uint32_t eqn;
	uint16_t cq_period;
	uint16_t cq_max_count;
	struct emu_umem *ring_umem; /* NULL on the verbs path. */
	uint64_t ring_umem_offset;
	struct emu_umem *dbr_umem; /* NULL on the verbs path. */
	uint64_t dbr_offset;
	uint8_t *ring; /* Host address of entry 0. */
	volatile uint32_t *dbrec; /* Host address of the doorbell record. */
	uint32_t pi; /* Producer counter. */
	uint32_t status; /* cqc.status. */
	pthread_mutex_t lock; /* Serialises producers. */
	uint8_t cc; /* cqc.cc: collapsed, every CQE in entry 0. */
	uint8_t cq_period_mode; /* cqc.cq_period_mode. */
	/* cqc.scqe_break_moderation_en: a solicited or error CQE releases
	 * the event moderation holds (mlx5_emu_event.c).
	 */
	uint8_t scqe_break;
	/* CQE path state (mlx5_emu_comp.c, _event.c, _producer.c). */
	void *uar_va; /* Host page of cqc.uar_page (arm doorbell at 0x20). */
	struct ibv_cq *ibcq; /* Verbs path: the user's CQ (events). */
	struct emu_comp *comp; /* Open compression session. */
	struct emu_cq_ev *ev; /* Arming, moderation, subscriptions. */
	/*
	 * Consumer counter last read from the doorbell record by the writer
	 * (cq->lock held; valid within one post or flush call only, see
	 * emu_cq_room()).
	 */
	uint32_t ci_seen;
	uint8_t ci_seen_valid;
	/*
	 * Completions of network queues staged by the progress engine
	 * (mlx5_emu_engine.c, emu_net_lock held): written into the ring in
	 * one post call when the stage is full and at the end of the pass.
	 */
	uint8_t in_pass; /* On the pass's list of CQs. */
	uint16_t nstage;
	uint8_t stage_kind; /* enum emu_q_kind of the stage's queue. */
	struct emu_cq *pass_next;
	struct mlx5_emu_wc stage[EMU_CQ_STAGE];
};

/* A protection domain. */
struct emu_pd {
	struct ibv_pd pd; /* Handed to the user; first member. */
	TAILQ_ENTRY(emu_pd) next;
};

/* A UAR: one page of the context's cmd_fd (mlx5_emu_uar.c), so doorbell
 * writes land in memory every process mapping the fd reads.
 */
struct emu_uar {
	struct mlx5dv_devx_uar pub; /* Handed to the user; first member. */
	TAILQ_ENTRY(emu_uar) next;
	struct emu_dev *dev;
	void *page; /* EMU_PAGE_SIZE bytes, base_addr. */
};

/* A completion channel (eventfd backed). */
struct emu_chan {
	struct ibv_comp_channel ch; /* Handed to the user; first member. */
	TAILQ_ENTRY(emu_chan) next;
};

/* Per-device fault injection state. */
struct emu_fault {
	uint32_t skip;
	uint32_t count;
};

/* One emulated device; its ibv_context is handed to the user. */
struct emu_dev {
	struct verbs_context vctx; /* ctx == &vctx.context (found by lookup). */
	struct ibv_device ibdev; /* ctx->device points here (name). */
	TAILQ_ENTRY(emu_dev) next;
	char name[IBV_SYSFS_NAME_MAX];
	struct mlx5_emu_caps caps;
	pthread_mutex_t lock;
	/* mlx5_emu_clock_info_pin(): the page read back as written. */
	uint8_t clock_pinned;
	struct mlx5dv_clock_info clock_pin;
	TAILQ_HEAD(, emu_umem) umems;
	TAILQ_HEAD(, emu_obj) objs;
	TAILQ_HEAD(, emu_cq) cqs;
	TAILQ_HEAD(, emu_pd) pds;
	TAILQ_HEAD(, emu_uar) uars;
	TAILQ_HEAD(, emu_chan) chans;
	uint32_t nchans;
	uint32_t vhca_id; /* Device index, unique in the process. */
	uint32_t next_umem_id;
	uint32_t next_cqn;
	uint32_t next_uar_page;
	struct mlx5_emu_stats stats;
	struct emu_fault faults[MLX5_EMU_FAIL_MAX];
	/* Last command: input mailbox and failure. */
	uint8_t last_in[EMU_MAX_CMD_IN];
	size_t last_in_len;
	int have_last_in;
	uint8_t last_status;
	uint32_t last_syndrome;
	int have_last_err;
	/* Verbs path: external allocators and doorbell-record pages. */
	struct mlx5dv_ctx_allocators ext_alloc;
	int have_ext_alloc;
	void *verbs_priv; /* Owned by mlx5_emu_verbs.c. */
	struct emu_net *net; /* Network model (mlx5_emu_net.c), or NULL. */
	/* Health (mlx5_emu_health.c): EMU_HEALTH_*, read without the lock. */
	int health;
	uint8_t fatal_ev_n; /* IBV_EVENT_DEVICE_FATAL events not read yet. */
};

/* mlx5_emu_health.c: the internal-error state of a failed device. */
enum {
	EMU_HEALTH_OK,
	EMU_HEALTH_FATAL, /* Firmware fatal error (internal error state). */
	EMU_HEALTH_REMOVED, /* Device gone from the bus. */
};
/* Nonzero once the device failed (no dev->lock needed). */
static inline int
emu_dev_failed(const struct emu_dev *dev)
{
	return __atomic_load_n(&dev->health, __ATOMIC_ACQUIRE) !=
	       EMU_HEALTH_OK;
}
/*
 * A command (PRM opcode) that is not a destroy: 0 while the device is
 * healthy. On a failed device -1 for the commands the kernel completes
 * with status OK without executing them (out zeroed), else the output
 * mailbox (out may be NULL) gets the driver's abort status and syndrome
 * and ENOLINK is returned (errno set too). Caller holds dev->lock.
 */
int emu_health_cmd_gate(struct emu_dev *dev, uint16_t opcode, void *out,
			size_t outlen);
/* Next IBV_EVENT_DEVICE_FATAL to read (1, with its port in *port) or 0.
 * Caller holds dev->lock.
 */
int emu_health_event_take(struct emu_dev *dev, uint8_t *port);
/* Register the telemetry commands (once). */
void emu_health_telemetry_register(void);

/* mlx5_emu_discover.c: the listed devices and their glue entries. */
struct mlx5_glue;
void emu_glue_discover_install(struct mlx5_glue *table);
/* A context closed: its listed device may be opened again. */
void emu_listed_closed(const struct ibv_context *ctx);
/* mlx5_emu_wire.c: the port's link (1 up) and software MTU, for query_port. */
void emu_port_query(struct emu_dev *dev, int *up, uint32_t *mtu);

/* mlx5_emu_dev.c */
struct emu_dev *emu_dev_from_ctx(const struct ibv_context *ctx);
/* An emulated device is open. */
int emu_dev_any(void);
/* Fault point check (caller holds dev->lock or owns dev exclusively;
 * the crypto points: emu_net_lock).
 */
int emu_fault_hit(struct emu_dev *dev, enum mlx5_emu_fail_point point);
/*
 * Find the device owning a user pointer: match() is called for each device
 * with its lock held; the device it accepts is returned still locked.
 */
struct emu_dev *emu_dev_find_locked(int (*match)(struct emu_dev *dev,
						 const void *ptr),
				    const void *ptr);
/* Lookups inside one device (caller holds dev->lock). */
struct emu_uar *emu_uar_lookup(struct emu_dev *dev, uint32_t page_id);
struct emu_chan *emu_chan_lookup(struct emu_dev *dev,
				 const struct ibv_comp_channel *ch);
int emu_eqn_valid(const struct emu_dev *dev, uint32_t eqn);
/* Glue-level device entries (mlx5_emu_dev.c). */
struct ibv_pd *emu_alloc_pd(struct emu_dev *dev);
int emu_dealloc_pd(struct ibv_pd *pd); /* -ENOENT when not ours. */
int emu_query_device(struct emu_dev *dev, struct ibv_device_attr *attr);
struct mlx5dv_devx_uar *emu_alloc_uar(struct emu_dev *dev, uint32_t flags);
int emu_free_uar(struct mlx5dv_devx_uar *uar); /* -ENOENT when not ours. */
/* UAR pages in the context's cmd_fd (mlx5_emu_uar.c). */
int emu_uar_fd_create(const char *name);
void *emu_uar_page_map(struct emu_dev *dev, uint32_t page_id);
void emu_uar_page_unmap(struct emu_dev *dev, void *page, uint32_t page_id);
int emu_query_eqn(struct emu_dev *dev, uint32_t vector, uint32_t *eqn);
struct ibv_comp_channel *emu_create_comp_channel(struct emu_dev *dev);
int emu_destroy_comp_channel(struct ibv_comp_channel *ch); /* -ENOENT. */
int emu_is_ibdev(const struct ibv_device *ibdev, const char **name);

/*
 * mlx5_emu_obj.c: firmware command plumbing and the DevX object table.
 * emu_cmd_begin() records the input mailbox; emu_cmd_fail() writes status
 * and syndrome into the output mailbox, records them and returns the errno
 * the kernel maps the status to (cmd_status_to_err). Caller holds dev->lock.
 */
void emu_cmd_begin(struct emu_dev *dev, const void *in, size_t inlen);
int emu_cmd_fail(struct emu_dev *dev, void *out, size_t outlen,
		 uint8_t status, uint32_t syndrome);
/* mlx5_emu_clock.c: ibv_query_rt_values_ex() and the MTUTC register. */
int emu_clock_query_rt_values(struct emu_dev *dev,
			      struct ibv_values_ex *values);
int emu_clock_access_register(struct emu_dev *dev, const void *in,
			      size_t inlen, void *out, size_t outlen);
void emu_cmd_ok(void *out, size_t outlen);
int emu_cmd_status_errno(uint8_t status);
struct mlx5dv_devx_obj *emu_devx_obj_create(struct emu_dev *dev,
					    const void *in, size_t inlen,
					    void *out, size_t outlen);
int emu_devx_obj_is_ours(const void *obj);
/* The device of a DevX object of the model, returned locked, or NULL. */
struct emu_dev *emu_devx_obj_find_locked(const void *obj);
int emu_devx_obj_destroy(struct mlx5dv_devx_obj *obj);
int emu_devx_obj_query(struct mlx5dv_devx_obj *obj, const void *in,
		       size_t inlen, void *out, size_t outlen);
int emu_devx_obj_modify(struct mlx5dv_devx_obj *obj, const void *in,
			size_t inlen, void *out, size_t outlen);

/* mlx5_emu_caps.c: general commands (QUERY_HCA_CAP). Returns 0 / errno. */
int emu_general_cmd(struct emu_dev *dev, const void *in, size_t inlen,
		    void *out, size_t outlen);
/* Caps of a device opened without caps: mlx5_emu_open_caps_set()'s or the
 * defaults.
 */
void emu_caps_open_default(struct mlx5_emu_caps *caps);
int emu_caps_check(const struct mlx5_emu_caps *caps);
/* lro_timer_supported_periods (usec, ascending; mlx5_emu_caps.c). */
#define EMU_LRO_PERIODS 4 /* DPDK MLX5_LRO_NUM_SUPP_PERIODS, PRM [4]. */
extern const uint32_t emu_lro_periods[EMU_LRO_PERIODS];

/* mlx5_emu_glue.c: the original (forwarded) glue table. */
extern const struct mlx5_glue *emu_orig_glue;
/*
 * mlx5_emu_glue.c: whether the wrapped table sees an RDMA device (kept once
 * seen), and whether a pointer the model does not know may go to the
 * wrapped table's entry: the entry exists and an RDMA device is seen (on a
 * machine without one it cannot be a real device's); errno set when not
 * (ENOSYS: no entry, EINVAL: refused, with a log line).
 */
int emu_rdma_seen(void);
int emu_fwd_ok(const void *entry, const char *name, const void *what);
/* mlx5_emu_glue_steer.c: set the flow-steering entries of the table. */
void emu_glue_steer_install(struct mlx5_glue *table);

/* mlx5_emu_umem.c: lookup by id (caller holds dev->lock). */
struct emu_umem *emu_umem_lookup(struct emu_dev *dev, uint32_t id);
struct mlx5dv_devx_umem *emu_umem_reg(struct emu_dev *dev, void *addr,
				      size_t size, uint32_t access);
int emu_umem_dereg(struct mlx5dv_devx_umem *umem); /* -ENOENT not ours. */

/* mlx5_emu_cq.c: CQ table (caller holds dev->lock). */
struct emu_cq *emu_cq_lookup(struct emu_dev *dev, uint32_t cqn);
struct emu_cq *emu_cq_new(struct emu_dev *dev); /* cqn assigned, all CQEs
						 * not yet initialised.
						 */
void emu_cq_free(struct emu_cq *cq); /* Drops its umem references too. */
/* DevX CQ commands (caller holds dev->lock); 0 or errno, status in out. */
int emu_devx_cq_create(struct emu_dev *dev, const void *in, size_t inlen,
		       void *out, size_t outlen, struct emu_cq **cqp);
int emu_devx_cq_query(struct emu_cq *cq, const void *in, size_t inlen,
		      void *out, size_t outlen);

/* mlx5_emu_cqe.c: CQE writer (takes cq->lock). */
/* Fetch the CQ's doorbell record and, for writing, the slots of its next
 * n CQEs (after those already staged); a hint, compression ignored.
 */
void emu_cq_prefetch_next(const struct emu_cq *cq, unsigned int n);

/*
 * mlx5_emu_verbs.c: the verbs path (rdma-core mlx5 provider behaviour).
 * The glue dispatcher forwards these entries for emulated contexts/objects.
 */
struct ibv_cq_ex *emu_verbs_dv_create_cq(struct ibv_context *ctx,
					 struct ibv_cq_init_attr_ex *cq_attr,
					 struct mlx5dv_cq_init_attr *dv_attr);
int emu_verbs_destroy_cq(struct ibv_cq *cq);
int emu_verbs_is_cq(const struct ibv_cq *cq);
int emu_verbs_set_context_attr(struct ibv_context *ctx,
			       enum mlx5dv_set_ctx_attr_type type, void *attr);
/* MLX5DV_OBJ_CQ of emulated CQs; the dispatcher forwards the others. */
int emu_verbs_init_obj(struct mlx5dv_obj *obj, uint64_t obj_type);
int emu_verbs_dv_query_device(struct ibv_context *ctx,
			      struct mlx5dv_context *attrs);
/* Called at device close, before the device is freed. */
void emu_verbs_dev_release(struct emu_dev *dev);

/*
 * Network model hooks (mlx5_emu_net.c, mlx5_emu_mr.c; see mlx5_emu_net.h).
 * The object hooks run with dev->lock held; they return 1 when the opcode
 * or object type is not a network one (the caller handles it), else 0 or
 * an errno with the status in out.
 */
struct emu_net;
int emu_net_obj_create(struct emu_dev *dev, uint16_t opcode, const void *in,
		       size_t inlen, void *out, size_t outlen, uint32_t *id,
		       void **priv);
/* Destroy: 0, EBUSY while other objects use it, or 1 (not network). */
int emu_net_obj_destroy(struct emu_dev *dev, uint16_t type, void *priv);
int emu_net_obj_modify(struct emu_dev *dev, uint16_t type, void *priv,
		       const void *in, size_t inlen, void *out, size_t outlen);
/* QUERY_Q_COUNTER; 1 when not a query of the network model. */
int emu_net_obj_query(struct emu_dev *dev, uint16_t type, void *priv,
		      const void *in, size_t inlen, void *out, size_t outlen);
/* A CQ is used by an SQ or RQ (caller holds dev->lock). */
int emu_net_cq_busy(struct emu_dev *dev, uint32_t cqn);
/* A PD is used by an MR, SQ or RQ (caller holds dev->lock). */
int emu_net_pd_busy(struct emu_dev *dev, uint32_t pdn);
/* MRs remain (caller holds dev->lock). */
int emu_net_busy(const struct emu_dev *dev);
/* At close: leave the wire, free the state (device unlisted). */
void emu_net_dev_release(struct emu_dev *dev);
/* General commands of the vport (caller holds dev->lock); 1: not ours. */
int emu_net_general_cmd(struct emu_dev *dev, uint16_t opcode, const void *in,
			size_t inlen, void *out, size_t outlen);
/* Glue entries. */
struct ibv_mr *emu_reg_mr(struct ibv_pd *pd, void *addr, size_t len,
			  int access); /* errno ENOENT: PD not ours. */
int emu_dereg_mr(struct ibv_mr *mr); /* -ENOENT when not ours. */
int emu_pd_is_ours(const struct ibv_pd *pd);
int emu_pd_init_obj(struct mlx5dv_obj *obj);

/*
 * CQE path (mlx5_emu_cqe.c writer, mlx5_emu_comp.c compression sessions,
 * mlx5_emu_event.c arming/events, mlx5_emu_producer.c producer thread).
 * Unless said otherwise the caller holds cq->lock (and dev->lock).
 */
struct emu_comp;
struct emu_cq_ev;
/* Image of one completion (op_own 0) and its opcode/se bits; 0 or EINVAL. */
int emu_cqe_build(const struct mlx5_emu_wc *cpl, uint8_t cqe[64],
		  uint8_t *op);
/*
 * Free ring slots (UINT32_MAX with oi or cc). The consumer counter is read
 * from the doorbell record unless the counter read earlier in the same
 * post/flush call already shows at least need free slots (the consumer
 * only moves forward, so the earlier value never overstates the room).
 */
uint32_t emu_cq_room(struct emu_cq *cq, uint32_t need);
/* Store a 64 B image at ring index idx: bytes 0..62, barrier, op_own. */
void emu_cqe_store(struct emu_cq *cq, uint32_t idx, const uint8_t cqe[64],
		   uint8_t op_own);
/* A regular CQE at the producer index (owner/validity added), pi + 1. */
void emu_cqe_emit(struct emu_cq *cq, const uint8_t cqe[64], uint8_t op);
/* No room for a completion the device must write: CQ error. -EIO. */
int emu_cq_overrun(struct emu_cq *cq);
/*
 * The queue a completion comes from, as compression treats it
 * (mlx5_emu_comp.c): any (an SQ, mlx5_emu_cq_post()), a cyclic RQ (no
 * defined stride index in its mini-CQEs) or a striding RQ (wqe_counter is
 * the stride index, wqe_id the WQE).
 */
enum emu_q_kind {
	EMU_QK_ANY,
	EMU_QK_CYCLIC_RQ,
	EMU_QK_STRIDING_RQ,
};
/*
 * Private post flags (never accepted from mlx5_emu_cq_post_flags()): the
 * completions come from a cyclic RQ (EMU_QK_CYCLIC_RQ) or from a striding
 * RQ (EMU_QK_STRIDING_RQ).
 */
#define EMU_POST_CYCLIC_RQ (1u << 31)
#define EMU_POST_STRIDING_RQ (1u << 30)
/* Post n completions, with MLX5_EMU_POST_* flags (and EMU_POST_*_RQ). */
int emu_cqe_post_flags(struct emu_cq *cq, const struct mlx5_emu_wc *cpl,
		       unsigned int n, uint32_t flags);
int emu_cq_flush_locked(struct emu_cq *cq);
int emu_comp_init(struct emu_cq *cq);
void emu_comp_fini(struct emu_cq *cq);
/* Queue one completion in the compression pipeline: 1 taken, 0 no room,
 * -EIO overrun (CQ put in error).
 */
int emu_comp_add(struct emu_cq *cq, const struct mlx5_emu_wc *cpl,
		 const uint8_t img[64], uint8_t op, int overrun,
		 enum emu_q_kind kind);
/* Write whatever is held (session or array). */
void emu_comp_close(struct emu_cq *cq);
/* Slots reserved by held completions. */
uint32_t emu_comp_held(const struct emu_cq *cq);
void emu_comp_counters(const struct emu_cq *cq, uint64_t *sessions,
		       uint64_t *compressed);
int emu_ev_init(struct emu_cq *cq);
void emu_ev_fini(struct emu_cq *cq); /* Drops subscriptions too. */
/* Look at the arm doorbell (record word 1, UAR 0x20); moderation timer. */
void emu_ev_sample(struct emu_cq *cq);
/* ncqe completions were made visible; se: a solicited or error CQE. */
void emu_ev_written(struct emu_cq *cq, uint32_t ncqe, int se);
/* The CQ went to error: async event. */
void emu_ev_cq_error(struct emu_cq *cq);
/* MODIFY_CQ (mlx5_emu_cq.c; caller holds dev->lock). */
int emu_devx_cq_modify(struct emu_cq *cq, const void *in, size_t inlen,
		       void *out, size_t outlen);
/* MODIFY_CQ op_mod RESIZE (mlx5_emu_cq_resize.c; caller holds dev->lock). */
int emu_devx_cq_resize(struct emu_cq *cq, const void *in, size_t inlen,
		       void *out, size_t outlen);
/* Glue entries of events (mlx5_emu_event.c). 1 = not ours. */
int emu_ev_get_cq_event(struct ibv_comp_channel *ch, struct ibv_cq **cq,
			void **cq_context);
int emu_ev_ack_cq_events(struct ibv_cq *cq, unsigned int n);
/* Make an event fd readable (an eventfd: one more count). */
void emu_fd_signal(int fd);
int emu_ev_get_async_event(struct ibv_context *ctx,
			   struct ibv_async_event *event);
int emu_ev_ack_async_event(struct ibv_async_event *event);
struct mlx5dv_devx_event_channel *emu_ev_channel_create(struct emu_dev *dev,
							int flags);
int emu_ev_channel_destroy(struct mlx5dv_devx_event_channel *ch);
int emu_ev_subscribe(struct mlx5dv_devx_event_channel *ch,
		     struct mlx5dv_devx_obj *obj, uint16_t events_sz,
		     uint16_t events_num[], uint64_t cookie);
ssize_t emu_ev_get_event(struct mlx5dv_devx_event_channel *ch,
			 struct mlx5dv_devx_async_event_hdr *data,
			 size_t len);
/* Big-endian fields of WQEs and descriptors, at any alignment. */
static inline uint16_t
emu_be16_at(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t
emu_be32_at(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return rte_be_to_cpu_32(v);
}

static inline uint64_t
emu_be64_at(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return rte_be_to_cpu_64(v);
}

#endif /* MLX5_EMU_PRIVATE_H_ */
