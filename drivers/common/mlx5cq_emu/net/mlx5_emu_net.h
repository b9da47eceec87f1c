/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef MLX5_EMU_NET_H_
#define MLX5_EMU_NET_H_

/*
 * The network side of the emulated HCA (private to the model):
 *   mlx5_emu_net.c     per-device network state, DevX object dispatch
 *   mlx5_emu_mr.c      reg_mr/dereg_mr, lkey lookup, PD numbers
 *   mlx5_emu_tis.c     ALLOC_TRANSPORT_DOMAIN, CREATE_TIS
 *   mlx5_emu_sq.c      CREATE_SQ/MODIFY_SQ, send WQE execution
 *   mlx5_emu_rq.c      CREATE_RQ/MODIFY_RQ, receive (scatter, RX CQE)
 *   mlx5_emu_rss.c     CREATE_RQT, CREATE_TIR, Toeplitz, queue choice
 *   mlx5_emu_vport.c   NIC vport context, vport state, MAC filter, MTU
 *   mlx5_emu_wire.c    wires, ports, frame delivery, port counters
 *   mlx5_emu_steer.c   flow steering objects (DR domains, tables,
 *                      matchers, rules)
 *   mlx5_emu_steer_act.c  their actions
 *   mlx5_emu_steer_chk.c  a rule's action list checked (rdma-core's
 *                      action state machine)
 *   mlx5_emu_steer_rx.c  a received frame's walk through the NIC RX
 *                      tables
 *   mlx5_emu_pkt.c     frame parsing and Internet checksums
 *   mlx5_emu_engine.c  the network lock and the progress thread
 *
 * Locking. Lock order: dev->lock -> emu_engine_ctl_lock -> emu_net_lock ->
 * cq->lock.
 * - dev->lock (mlx5_emu_private.h) is held by every control command (the
 *   glue dispatchers take it); control commands on network objects then
 *   take emu_net_lock to change them.
 * - emu_net_lock (one per process) protects every network object of every
 *   device, the wires and ports and the port counters. The progress engine
 *   takes only emu_net_lock (never a dev->lock), so a control command may
 *   wait for the engine (join) while holding dev->lock.
 * - emu_engine_ctl_lock serialises starting and stopping the thread.
 * - Completions of network queues are staged per CQ (emu_engine_wc(),
 *   emu_net_lock held) and written in batches (cq->lock, taken under
 *   emu_net_lock, once per batch). On a CQ with compression the batches
 *   are posted with MLX5_EMU_POST_HOLD, so consecutive completions of one
 *   pass share sessions; emu_engine_pass_end(), still under emu_net_lock,
 *   writes and flushes every CQ the pass touched (the device's
 *   compression timer). A pass is one emu_net_lock hold: the engine's
 *   pass or one wire injection. A CQ
 *   used by an SQ or RQ cannot be destroyed (firmware refuses with
 *   RES_BUSY) and queues change only under emu_net_lock, so the pointers
 *   the network objects keep stay valid for the whole pass.
 */

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/queue.h>

#include "mlx5_emu_private.h"

#define EMU_NET_ID_BASE 0x100 /* First SQ/RQ/TIR/... number. */
#define EMU_MAX_FRAME 16384 /* Largest frame a send WQE may build. */
#define EMU_LSO_MAX (1u << 18) /* Largest TSO payload (max_lso_cap 18). */
#define EMU_RSS_KEY_LEN 40
#define EMU_MAX_MACS 64 /* Allowed-list entries kept per type. */
#define EMU_PORT_EV_MAX 8 /* Port events kept unread (older ones lost). */
#define EMU_MR_LKEY_BASE 0x1000
#define EMU_CMD_OP_QUERY_VPORT_STATE 0x750
#define EMU_CMD_OP_MODIFY_NIC_VPORT_CONTEXT 0x755
#define EMU_DEFAULT_HW_MTU 1522 /* 1500 + Ethernet 14 + VLAN 4 + FCS 4. */

/* Error syndromes of completions (rdma-core cq.c). */
#define EMU_SYND_LOC_LEN_ERR 0x01
#define EMU_SYND_LOC_QP_OP_ERR 0x02
#define EMU_SYND_LOC_PROT_ERR 0x04

/* Queue states (sqc.state / rqc.state). */
#define EMU_Q_RST 0
#define EMU_Q_RDY 1
#define EMU_Q_ERR 3

struct emu_net;
struct emu_port;
struct emu_pkt;
struct emu_steer_dom;

/* A registered memory region (ibv_reg_mr). */
struct emu_mr {
	struct ibv_mr mr; /* Handed to the user; first member. */
	TAILQ_ENTRY(emu_mr) next;
	struct emu_dev *dev;
	uint32_t pdn;
	int access;
};

struct emu_td {
	TAILQ_ENTRY(emu_td) next;
	uint32_t id;
	uint32_t refcnt; /* TISs and TIRs. */
};

struct emu_tis {
	TAILQ_ENTRY(emu_tis) next;
	uint32_t id;
	struct emu_td *td;
	uint32_t refcnt; /* SQs. */
};

/* What every WQ (SQ or RQ) holds. */
struct emu_wq {
	uint32_t pdn;
	struct emu_umem *umem; /* Ring. */
	struct emu_umem *dbr_umem;
	uint8_t *ring;
	volatile uint32_t *dbrec;
	uint8_t log_sz; /* log2 of WQEs (RQ) or WQEBBs (SQ). */
	uint8_t log_stride;
	uint8_t state;
	uint8_t q_kind; /* enum emu_q_kind (compression of its CQEs). */
	struct emu_cq *cq;
	uint32_t cqn;
	/*
	 * Last MR a data segment hit (valid while mr_gen == net->mr_gen),
	 * and what its check needs (an MR's fields never change while it is
	 * registered): its lkey, its range [mr_lo, mr_hi) when it is on the
	 * WQ's PD (else empty), whether it may be written.
	 */
	const struct emu_mr *mr_hint;
	uint32_t mr_gen;
	uint32_t mr_lkey;
	uint8_t mr_write;
	uint64_t mr_lo;
	uint64_t mr_hi;
	/* Completion stamps (mlx5_emu_clock.c): free-running ticks per ns
	 * in 32.32 fixed point, or the real-time format.
	 */
	uint64_t ts_mult;
	uint8_t ts_rt;
};

struct emu_sq {
	TAILQ_ENTRY(emu_sq) next;
	struct emu_net *net;
	uint32_t sqn;
	struct emu_wq wq;
	struct emu_tis *tis;
	/* SEND WQEs must inline their L2 header: the SQ's
	 * min_wqe_inline_mode, or the device's caps (L2, or the vport
	 * context's L2).
	 */
	uint8_t inline_l2;
	uint16_t pi; /* WQEBBs consumed by the device. */
	uint64_t wqes; /* WQEs executed. */
	/* RQ that received the last frame of the previous batch (a
	 * prefetch hint, valid while rx_hint_gen == emu_rq_gen).
	 */
	const struct emu_rq *rx_hint;
	uint32_t rx_hint_gen;
};

/* What steering adds to a received frame's CQE. */
struct emu_rx_meta {
	uint32_t flow_tag; /* sop_drop_qpn[23:0] */
	uint32_t ft_meta; /* flow_table_metadata (reg_b) */
};

/* An open LRO session of an RQ (mlx5_emu_lro.c). */
#define EMU_LRO_HDR_MAX 128 /* 14 + 40 (IPv6) + 32 (TCP + timestamps). */
#define EMU_LRO_CHUNK 256 /* lro_max_msg_sz unit (MLX5_LRO_SEG_CHUNK_SIZE). */
struct emu_lro {
	TAILQ_ENTRY(emu_rq) next; /* In the process's list of open ones. */
	uint16_t idx; /* The WQE it fills. */
	uint16_t hdr_len; /* Ethernet + IP + TCP header bytes. */
	uint16_t l4_off;
	uint16_t win; /* The last segment's window. */
	uint8_t ipv6;
	uint8_t psh;
	uint8_t min_ttl;
	uint8_t hash_type;
	uint16_t ht; /* hdr_type_etc of the first segment. */
	uint16_t csum1; /* Its csum (a single segment's CQE). */
	uint32_t nseg;
	uint32_t len; /* Bytes written into the WQE. */
	uint32_t room; /* The WQE's checked room. */
	uint32_t max; /* lro_max_msg_sz in bytes (from the TCP header). */
	uint32_t next_seq;
	uint32_t ack; /* The last segment's ack. */
	uint32_t psum; /* One's complement sum of the payloads (16 bits). */
	uint32_t plen; /* Payload bytes. */
	uint32_t hash;
	struct emu_rx_meta meta;
	uint64_t last_ns; /* Model clock of the last segment. */
	uint64_t timeout_ns;
	uint8_t hdr[EMU_LRO_HDR_MAX]; /* The first segment's headers. */
};

struct emu_rq {
	TAILQ_ENTRY(emu_rq) next;
	struct emu_net *net;
	uint32_t rqn;
	struct emu_wq wq;
	uint8_t vsd;
	uint16_t ci; /* WQEs consumed by the device. */
	uint16_t posted; /* Doorbell record word 0 as last read. */
	/* Striding RQ (wq_type CYCLIC_STRIDING_RQ): 2^log_strd_num strides
	 * of 2^log_strd_sz bytes per WQE, the next free one of WQE ci.
	 */
	uint8_t striding;
	uint8_t log_strd_num;
	uint8_t log_strd_sz;
	uint8_t dseg_off; /* Data segment in the WQE: 0, or 16 (striding). */
	uint32_t strd;
	uint32_t refcnt; /* RQTs and direct TIRs. */
	struct emu_qcnt *qcnt; /* rqc.counter_set_id's set, or NULL. */
	uint8_t lro_open; /* An LRO session holds WQE ci (lro). */
	struct emu_lro lro;
};

/* A queue counter set (mlx5_emu_qcnt.c). */
struct emu_qcnt {
	TAILQ_ENTRY(emu_qcnt) next;
	uint32_t id; /* counter_set_id, 1..EMU_QCNT_MAX. */
	uint32_t out_of_buffer; /* 32 bits, wraps (query_q_counter_out). */
	uint32_t refcnt; /* RQs counting in it. */
};

#define EMU_QCNT_MAX 255 /* counter_set_id is 8 bits. */

struct emu_rqt {
	TAILQ_ENTRY(emu_rqt) next;
	uint32_t id;
	uint32_t size;
	struct emu_rq **rqs;
	uint32_t refcnt; /* TIRs. */
};

struct emu_tir {
	TAILQ_ENTRY(emu_tir) next;
	uint32_t id;
	uint8_t indirect;
	uint8_t hash_fn;
	uint8_t self_lb_block; /* MLX5_TIRC_SELF_LB_BLOCK_* bits. */
	uint8_t l3_ipv6; /* Outer selector l3_prot_type. */
	uint8_t l4_udp; /* Outer selector l4_prot_type. */
	uint32_t fields; /* Outer selector selected_fields. */
	/* LRO: lro_enable_mask (0: off), lro_max_msg_sz in bytes,
	 * lro_timeout_period_usecs.
	 */
	uint8_t lro_mask;
	uint32_t lro_max;
	uint32_t lro_timeout_us;
	uint8_t key[EMU_RSS_KEY_LEN];
	/*
	 * Toeplitz by bytes: ttab[i][v] is the hash of input byte i holding
	 * v, every other bit 0 (the hash is linear: XOR of the entries of
	 * the input).
	 */
	uint32_t ttab[EMU_RSS_KEY_LEN - 4][256];
	struct emu_rq *rq; /* Direct. */
	struct emu_rqt *rqt; /* Indirect. */
	struct emu_td *td;
	uint32_t steer_refs; /* Steering actions sending to it. */
};

/* The NIC vport context of the device's port. */
struct emu_vport {
	uint8_t mac[6]; /* permanent_address. */
	uint16_t mtu; /* Hardware MTU: whole frame incl. FCS. */
	uint8_t promisc_uc;
	uint8_t promisc_mc;
	uint8_t promisc_all;
	uint32_t speed; /* Link speed in Mb/s (mlx5_emu_port_speed_set). */
	uint8_t admin_down; /* PAOS admin status down (port_admin_set). */
	uint32_t n_uc;
	uint32_t n_mc;
	uint8_t uc[EMU_MAX_MACS][6];
	uint8_t mc[EMU_MAX_MACS][6];
	uint32_t n_vlan; /* VLAN list entries; 0: no VLAN filter. */
	uint16_t vlan[1u << EMU_LOG_MAX_VLAN_LIST]; /* As written. */
	uint64_t vlan_bits[4096 / 64]; /* The listed ids. */
};

/* Network state of one device (allocated with its first use). */
struct emu_net {
	TAILQ_ENTRY(emu_net) next; /* In the engine's list. */
	struct emu_dev *dev;
	TAILQ_HEAD(, emu_mr) mrs;
	TAILQ_HEAD(, emu_td) tds;
	TAILQ_HEAD(, emu_tis) tiss;
	TAILQ_HEAD(, emu_sq) sqs;
	TAILQ_HEAD(, emu_rq) rqs;
	TAILQ_HEAD(, emu_rqt) rqts;
	TAILQ_HEAD(, emu_tir) tirs;
	TAILQ_HEAD(, emu_qcnt) qcnts;
	uint32_t next_id;
	uint32_t next_lkey;
	uint32_t mr_gen; /* Bumped by every deregistration (MR hints). */
	struct emu_vport vport;
	struct emu_port *port; /* On a wire, or NULL. */
	uint8_t oper_up; /* Operational link state last computed. */
	/* Port events not read yet (ibv_async_event types), oldest first. */
	uint8_t port_ev[EMU_PORT_EV_MAX];
	/* A NIC RX domain was made (ever): frames are steered
	 * (mlx5_emu_steer.c). Read per frame: by oper_up, in padding.
	 */
	uint8_t rx_steered;
	uint32_t port_ev_n;
	struct mlx5_emu_port_stats pstats;
	struct mlx5_emu_net_stats nstats;
	struct emu_crypto *crypto; /* mlx5_emu_crypto.h, or NULL. */
	/* Flow steering (mlx5_emu_steer.c): the device's DR domains, and
	 * the first NIC RX one, whose tables classify received frames (none
	 * left: the kernel's).
	 */
	TAILQ_HEAD(, emu_steer_dom) doms;
	struct emu_steer_dom *rx_dom;
};

/*
 * Copy n bytes of frame data. A frame of up to 64 bytes (the common
 * small frame, its inline headers, the data segment after them) takes
 * two fixed-size moves that overlap in the middle, inlined, instead of a
 * call; nothing outside [dst, dst + n) is written.
 */
static inline void
emu_copy(uint8_t *dst, const uint8_t *src, uint32_t n)
{
	if (n >= 32 && n <= 64) {
		memcpy(dst, src, 32);
		memcpy(dst + n - 32, src + n - 32, 32);
	} else if (n >= 16 && n < 32) {
		memcpy(dst, src, 16);
		memcpy(dst + n - 16, src + n - 16, 16);
	} else {
		memcpy(dst, src, n);
	}
}

/* mlx5_emu_engine.c */
void emu_net_lock(void);
void emu_net_unlock(void);
/* Register a device's network state with the engine (emu_net_lock held). */
void emu_engine_attach(struct emu_net *net);
void emu_engine_detach(struct emu_net *net);
/* Queues went ready or left it: start or stop the thread (no net lock). */
void emu_engine_update(void);
/* Ready queues in the process (emu_net_lock held). */
uint32_t emu_engine_ready_queues(void);
/* The thread is alive. */
int emu_engine_is_running(void);
/*
 * The device clock (mlx5_emu_clock.c): the monotonic host clock in ns,
 * the real-time stamp (seconds << 32 | ns), a queue's format (EMU_TS_FR
 * or EMU_TS_RT) from the ts_format it asked for, and what a queue needs
 * to stamp its completions.
 */
enum { EMU_TS_FR, EMU_TS_RT };
uint64_t emu_clock_ns(void);
uint64_t emu_clock_rt(void);
/* CREATE_RQ/SQ (cmd): 0 and *fmt, or the command failed. */
int emu_clock_queue_format(struct emu_dev *dev, const char *cmd,
			   uint8_t ts_format, int *fmt, void *out,
			   size_t outlen);
void emu_clock_wq_init(const struct emu_dev *dev, struct emu_wq *wq,
		       int fmt);
/* Free-running ticks of ns at mult (emu_clock_mult()). */
static inline uint64_t
emu_clock_ticks(uint64_t ns, uint64_t mult)
{
	return (uint64_t)(((__uint128_t)ns * mult) >> 32);
}
/*
 * A pass (emu_net_lock held from begin to end): begin samples the clock;
 * end writes the completions staged in the pass and flushes the
 * compressed CQs it posted to (the device's session timer). The engine's
 * pass and mlx5_emu_wire_inject() are passes.
 */
void emu_engine_pass_begin(void);
void emu_engine_pass_end(void);
/* Sample the clock for the completions of the next batch (in a pass). */
void emu_engine_batch_clock(void);
/* Send WQEs executed between two clock samples. */
#define EMU_ENGINE_BATCH 64
/*
 * A zeroed completion slot of a network queue's CQ (emu_net_lock held,
 * inside a pass), timestamp preset to the batch clock in the queue's
 * format. The caller fills
 * it; it is written into the ring with the rest of the CQ's stage, when
 * the stage is full or the pass ends. A completion the CQ has no room for
 * (or a CQ in error) is lost, as before, with a DEBUG log line.
 */
struct mlx5_emu_wc *emu_engine_wc(struct emu_wq *wq);

/* mlx5_emu_net.c (dev->lock held) */
struct emu_net *emu_net_get(struct emu_dev *dev);
/*
 * A port setting changes: dev->lock, the device's network state (made on
 * first use) and emu_net_lock, in that order; NULL (nothing held) when
 * the state cannot be made. emu_net_leave() releases both.
 */
struct emu_net *emu_net_enter(struct emu_dev *dev);
void emu_net_leave(struct emu_dev *dev);
uint32_t emu_net_new_id(struct emu_net *net);

/* mlx5_emu_mr.c (emu_net_lock held for lookups) */
struct emu_mr *emu_mr_lookup(struct emu_net *net, uint32_t lkey);
/* emu_mr_check_wq() when the WQ's last MR does not do. */
int emu_mr_check_wq_slow(struct emu_net *net, struct emu_wq *wq,
			 uint32_t lkey, uint64_t addr, uint32_t len,
			 int write);

/* mlx5_emu_tis.c */
int emu_td_create(struct emu_dev *dev, struct emu_net *net, const void *in,
		  size_t inlen, void *out, size_t outlen, uint32_t *id,
		  void **priv);
int emu_tis_create(struct emu_dev *dev, struct emu_net *net, const void *in,
		   size_t inlen, void *out, size_t outlen, uint32_t *id,
		   void **priv);
struct emu_tis *emu_tis_lookup(struct emu_net *net, uint32_t id);
struct emu_td *emu_td_lookup(struct emu_net *net, uint32_t id);

/* Mailbox length checks of a network command (mlx5_emu_tis.c). */
int emu_net_check_lens(struct emu_dev *dev, const char *what, size_t inlen,
		       size_t need_in, void *out, size_t outlen,
		       size_t need_out);

/* The PD number was allocated on this device (mlx5_emu_sq.c; dev->lock
 * held).
 */
int emu_pd_exists(struct emu_dev *dev, uint32_t pdn);
/* Common WQ context checks (mlx5_emu_sq.c); 0 or errno with status. */
/* wqe_bytes: the stride the queue needs, 0 for any (4..10 as log2);
 * striding_ok: wq_type CYCLIC_STRIDING_RQ is accepted too.
 */
int emu_wq_setup(struct emu_dev *dev, const void *wq, uint32_t wqe_bytes,
		 int striding_ok, struct emu_wq *out_wq, void *out,
		 size_t outlen, const char *what);
void emu_wq_release(struct emu_wq *wq);
/* MODIFY_SQ/RQ state checks (cur named by the command, to requested). */
int emu_q_modify_state(struct emu_dev *dev, const char *what, uint32_t qn,
		       uint8_t *state, unsigned int cur, unsigned int to,
		       void *out, size_t outlen);

/* mlx5_emu_sq.c */
int emu_sq_create(struct emu_dev *dev, struct emu_net *net, const void *in,
		  size_t inlen, void *out, size_t outlen, uint32_t *id,
		  void **priv);
int emu_sq_modify(struct emu_dev *dev, struct emu_sq *sq, const void *in,
		  size_t inlen, void *out, size_t outlen);
int emu_sq_destroy(struct emu_dev *dev, struct emu_sq *sq);
/* Execute the WQEs the doorbell record announces (emu_net_lock held). */
unsigned int emu_sq_progress(struct emu_sq *sq);

/* mlx5_emu_rq.c */
int emu_rq_create(struct emu_dev *dev, struct emu_net *net, const void *in,
		  size_t inlen, void *out, size_t outlen, uint32_t *id,
		  void **priv);
int emu_rq_modify(struct emu_dev *dev, struct emu_rq *rq, const void *in,
		  size_t inlen, void *out, size_t outlen);
int emu_rq_destroy(struct emu_dev *dev, struct emu_rq *rq);
struct emu_rq *emu_rq_lookup(struct emu_net *net, uint32_t rqn);
/* mlx5_emu_qcnt.c */
struct emu_qcnt *emu_qcnt_lookup(struct emu_net *net, uint32_t id);
int emu_qcnt_create(struct emu_dev *dev, struct emu_net *net, const void *in,
		    size_t inlen, void *out, size_t outlen, uint32_t *id,
		    void **priv);
int emu_qcnt_destroy(struct emu_dev *dev, struct emu_net *net,
		     struct emu_qcnt *q);
int emu_qcnt_query(struct emu_dev *dev, struct emu_qcnt *q, const void *in,
		   size_t inlen, void *out, size_t outlen);
/* Bumped by every RQ destruction (emu_net_lock held): RQ hints. */
extern uint32_t emu_rq_gen;
/* The RQ that received the last frame of the pass, or NULL. */
extern const struct emu_rq *emu_rq_last;
/*
 * Before a batch of n frames for rq: fetch its doorbell record, the lines
 * of its next n WQEs, and its CQ's doorbell record and next n CQE slots
 * (for writing), so these misses overlap the batch instead of coming one
 * after the other at its start and end. A hint only.
 */
void emu_rq_prefetch_start(const struct emu_rq *rq, unsigned int n);
/* Receive one frame, parsed as pkt (pkt->len bytes), into an RQ
 * (emu_net_lock held, inside a pass).
 */

/* meta: NULL without steering (flow tag and metadata 0). */
void emu_rq_receive(struct emu_rq *rq, const uint8_t *frame,
		    const struct emu_pkt *pkt, uint32_t hash,
		    uint8_t hash_type, const struct emu_rx_meta *meta);

/* Helpers of mlx5_emu_rq.c the LRO sessions use. */
int emu_rq_has_wqe(struct emu_rq *rq);
uint16_t emu_rx_hdr_type(const uint8_t *f, const struct emu_pkt *pp,
			 uint16_t *csum);
/*
 * mlx5_emu_lro.c (emu_net_lock held): a frame for rq through tir when the
 * TIR has LRO or rq has an open session; close rq's session (its CQE
 * staged; in a pass); close the sessions whose timeout passed at now_ns;
 * close rq's session outside a pass (state change, destroy).
 */
void emu_lro_receive(struct emu_rq *rq, const struct emu_tir *tir,
		     const uint8_t *frame, const struct emu_pkt *pkt,
		     uint32_t hash, uint8_t hash_type,
		     const struct emu_rx_meta *meta);
void emu_lro_close(struct emu_rq *rq);
void emu_lro_expire(uint64_t now_ns);
void emu_lro_close_now(struct emu_rq *rq);
/* Open sessions in the process (emu_lro_expire() has work). */
extern uint32_t emu_lro_open_n;
/* The model clock of the current batch (mlx5_emu_engine.c). */
uint64_t emu_engine_clock_ns(void);

/* mlx5_emu_rss.c */
int emu_rqt_create(struct emu_dev *dev, struct emu_net *net, const void *in,
		   size_t inlen, void *out, size_t outlen, uint32_t *id,
		   void **priv);
int emu_tir_create(struct emu_dev *dev, struct emu_net *net, const void *in,
		   size_t inlen, void *out, size_t outlen, uint32_t *id,
		   void **priv);
uint32_t emu_toeplitz(const uint8_t *key, const uint8_t *data, size_t len);
/* Fill tir->ttab from tir->key. */
void emu_toeplitz_table(struct emu_tir *tir);
/* Steer a frame that passed the vport filter (emu_net_lock held); self:
 * the device sent it itself.
 */
void emu_rss_deliver(struct emu_net *net, const uint8_t *frame, uint32_t len,
		     int self);
/*
 * Deliver a frame (parsed as pkt) to a TIR: its self-loopback block, the
 * RSS hash and the RQ it picks; meta goes into the CQE.
 */
void emu_rss_to_tir(struct emu_net *net, const struct emu_tir *tir,
		    const uint8_t *frame, const struct emu_pkt *pkt, int self,
		    const struct emu_rx_meta *meta);

/* mlx5_emu_vport.c */
void emu_vport_init(struct emu_vport *vp, const uint8_t mac[6]);
int emu_vport_cmd(struct emu_dev *dev, uint16_t opcode, const void *in,
		  size_t inlen, void *out, size_t outlen);
/* 1 when the vport accepts a frame with this destination MAC. */
int emu_vport_accept(const struct emu_vport *vp, const uint8_t *frame,
		     uint32_t len);

/* mlx5_emu_wire.c (emu_net_lock held) */
/* 1 when an injected RX error is due for a frame received by net. */
int emu_wire_rx_fault_take(struct emu_net *net);
void emu_wire_transmit(struct emu_net *from, const uint8_t *frame,
		       uint32_t len);
void emu_port_leave(struct emu_net *net);
/*
 * Recompute the link of every port on net's wire (or of net alone) and
 * queue a port event for each one that changed, except quiet (the port
 * just cabled: its link is what its device starts with).
 */
void emu_link_refresh(struct emu_net *net, const struct emu_net *quiet);
/* The link of a port as the wire, both ends' admin states make it. */
int emu_port_link_up(const struct emu_net *net);
/* mlx5_emu_link.c: the next port event of a device, or 0 (dev->lock and
 * emu_net_lock held).
 */
uint8_t emu_link_event_take(struct emu_net *net);

/* mlx5_emu_pkt.c: parsed view of a frame. */
struct emu_pkt {
	uint32_t len;
	uint16_t l3_off; /* 0 when no IP header. */
	uint16_t l4_off; /* 0 when no TCP/UDP header. */
	uint8_t vlan; /* A VLAN tag follows the MACs. */
	uint8_t ipv4;
	uint8_t ipv6;
	uint8_t l4_proto; /* 6 TCP, 17 UDP, else 0. */
	uint8_t frag; /* IPv4 fragment (not the first or more follow). */
	uint16_t l4_len; /* Bytes from l4_off to the end of the IP payload. */
};

void emu_pkt_parse(const uint8_t *frame, uint32_t len, struct emu_pkt *p);
/*
 * mlx5_emu_lso.c: the checks of a TSO WQE's packet (0, or -1 and *why),
 * and its frames put on the wire (their number; emu_net_lock held).
 */
int emu_lso_check(const uint8_t *pkt, uint32_t len, uint32_t ihs,
		  uint16_t mss, uint8_t log_max, const char **why);
unsigned int emu_lso_transmit(struct emu_net *net, const uint8_t *pkt,
			      uint32_t len, uint32_t ihs, uint16_t mss);
/* One's complement sum of bytes (no final complement). */
uint32_t emu_csum_add(uint32_t sum, const uint8_t *buf, size_t len);
uint16_t emu_csum_fold(uint32_t sum);
/* Internet checksum of the IPv4 header at l3_off (field included). */
uint16_t emu_ipv4_hdr_csum(const uint8_t *frame, const struct emu_pkt *p);
/* Checksum of the TCP/UDP segment incl. pseudo header (field included):
 * 0 for a correct segment.
 */
uint16_t emu_l4_csum(const uint8_t *frame, const struct emu_pkt *p);
/* The pseudo header's part of it (not folded). */
uint32_t emu_l4_pseudo_sum(const uint8_t *frame, const struct emu_pkt *p);
/* Fill the IPv4 header / L4 checksum fields of a frame. */
void emu_pkt_fill_ipv4_csum(uint8_t *frame, const struct emu_pkt *p);
void emu_pkt_fill_l4_csum(uint8_t *frame, const struct emu_pkt *p);

/*
 * The MR check for a data segment of a WQ (0 when [addr, addr + len) lies
 * in an MR of lkey on the WQ's PD, with write access when write is set,
 * else the error syndrome): the WQ's last MR first, from
 * the copy of its range and rights in the WQ (no call, no MR read), then
 * the list.
 */
static inline int
emu_mr_check_wq(struct emu_net *net, struct emu_wq *wq, uint32_t lkey,
		uint64_t addr, uint32_t len, int write)
{
	if (wq->mr_gen == net->mr_gen && wq->mr_lkey == lkey &&
	    addr >= wq->mr_lo && addr + len >= addr &&
	    addr + len <= wq->mr_hi && (!write || wq->mr_write) &&
	    wq->mr_hint != NULL)
		return 0;
	return emu_mr_check_wq_slow(net, wq, lkey, addr, len, write);
}

/*
 * Flow steering (mlx5_emu_steer.c, mlx5_emu_steer_rx.c): the objects of
 * rdma-core's mlx5dv_dr API as the model keeps them. Every object starts
 * with struct emu_steer_obj and is listed in one process-wide registry,
 * so a glue dispatcher tells a model object from a foreign pointer by
 * lookup, never by reading it. All of it is guarded by emu_net_lock (the
 * receive path reads it in a pass).
 */
enum emu_steer_kind {
	EMU_STEER_NONE,
	EMU_STEER_DOM,
	EMU_STEER_TBL,
	EMU_STEER_MATCHER,
	EMU_STEER_RULE,
	EMU_STEER_ACT,
};

/* Action types (rdma-core dr_action_type, the ones the model runs). */
enum emu_steer_act_type {
	EMU_SA_TIR, /* dest DevX TIR (DR_ACTION_TYP_QP), terminal */
	EMU_SA_TABLE, /* dest flow table (DR_ACTION_TYP_FT), terminal */
	EMU_SA_DROP, /* terminal */
	EMU_SA_MISS, /* default miss, terminal */
	EMU_SA_TAG, /* flow tag (24 bits) */
	EMU_SA_POP_VLAN,
	EMU_SA_MODIFY, /* modify header on the metadata registers */
	EMU_SA_MAX,
};

/*
 * The bytes of fte_match_param the model keeps per frame: outer headers,
 * misc parameters, inner headers (never matched) and misc parameters 2
 * (the metadata registers), 256 bytes as 32 big-endian quad words.
 */
#define EMU_STEER_KEY_QW 32
/* rdma-core's dr_match_param: seven 64-byte sections (no reserved tail). */
#define EMU_STEER_PARAM_SZ (7 * 64)
#define EMU_STEER_MAX_ACTS 16 /* Actions of one rule. */

struct emu_steer_obj {
	TAILQ_ENTRY(emu_steer_obj) reg; /* Process-wide registry. */
	uint32_t kind; /* enum emu_steer_kind. */
	uint32_t refcnt; /* Users (EBUSY on destroy while nonzero). */
};

/* One modify-header command, decoded (PRM mlx5_modification_cmd). */
struct emu_steer_mod {
	uint8_t type; /* MLX5_MODIFICATION_TYPE_SET / ADD / COPY / NOP */
	uint8_t off;
	uint8_t len; /* 1..32 */
	uint8_t dst_off;
	uint16_t field; /* Register byte offset in the key, or hdr's id. */
	uint16_t dst_field;
	uint8_t hdr; /* A header field (MLX5_MODI_OUT_*), not a register. */
	uint32_t data;
};

struct emu_steer_act {
	struct emu_steer_obj o;
	uint8_t type; /* enum emu_steer_act_type */
	uint8_t root_level; /* Modify header: root tables only. */
	struct emu_net *net; /* Device-bound action (TIR, table, modify). */
	struct emu_steer_dom *dom; /* Table, modify header of a domain. */
	struct emu_tir *tir;
	struct emu_steer_tbl *tbl;
	uint32_t tag;
	uint32_t nmod;
	struct emu_steer_mod *mod;
	void *twin; /* The wrapped table's own action (real rules). */
};

struct emu_steer_rule;
TAILQ_HEAD(emu_steer_rule_list, emu_steer_rule);
struct emu_steer_matcher;
TAILQ_HEAD(emu_steer_matcher_list, emu_steer_matcher);

struct emu_steer_matcher {
	struct emu_steer_obj o; /* refcnt: rules. */
	TAILQ_ENTRY(emu_steer_matcher) next; /* In its table's order. */
	struct emu_steer_tbl *tbl;
	struct emu_steer_matcher_list *list;
	uint16_t prio;
	uint8_t criteria;
	uint8_t l34; /* The mask has L3/L4 bits (emu_steer_key_l34()). */
	uint8_t nqw; /* Key words the mask covers. */
	uint8_t qw_idx[EMU_STEER_KEY_QW];
	uint64_t qw_mask[EMU_STEER_KEY_QW];
	struct emu_steer_rule_list rules; /* Oldest first. */
};

struct emu_steer_rule {
	struct emu_steer_obj o;
	TAILQ_ENTRY(emu_steer_rule) next;
	struct emu_steer_matcher *m;
	uint32_t nact;
	struct emu_steer_act *act[EMU_STEER_MAX_ACTS];
	const struct emu_steer_act *term; /* Terminal action, or NULL. */
	uint64_t hits; /* Frames that took the rule. */
	uint64_t qw_val[EMU_STEER_KEY_QW]; /* Masked, in qw_idx order. */
};

struct emu_steer_tbl {
	struct emu_steer_obj o; /* refcnt: matchers, jump actions. */
	TAILQ_ENTRY(emu_steer_tbl) next;
	struct emu_steer_dom *dom;
	uint32_t level;
	struct emu_steer_matcher_list matchers; /* Non-root: prio order. */
};

struct emu_steer_dom {
	struct emu_steer_obj o; /* refcnt: tables, modify-header actions. */
	TAILQ_ENTRY(emu_steer_dom) next; /* In net->doms. */
	struct emu_net *net;
	uint8_t type; /* MLX5DV_DR_DOMAIN_TYPE_NIC_RX or _NIC_TX. */
	uint8_t no_dup; /* dr_allow_duplicate_rules(dom, 0). */
	uint8_t reclaim;
	uint32_t ntbl;
	uint32_t l34_matchers; /* Matchers masking L3/L4 fields (the key). */
	TAILQ_HEAD(, emu_steer_tbl) tbls;
	/* The root (every level-0 table's matchers), by priority. */
	struct emu_steer_matcher_list root;
};

/* mlx5_emu_steer.c: the registry (emu_net_lock held): a new object of a
 * kind listed, an object unlisted and freed, NULL with errno set.
 */
void *emu_steer_new(size_t sz, enum emu_steer_kind kind);
void emu_steer_free(void *obj);
void *emu_steer_fail(int err);
extern const char *const emu_steer_act_names[EMU_SA_MAX];
/* mlx5_emu_steer_act.c: an action unlisted and freed, its references
 * dropped (emu_net_lock held, no rule uses it).
 */
void emu_steer_act_free(struct emu_steer_act *a);
/* Model object of a kind at p, or NULL (emu_net_lock held). */
void *emu_steer_find(const void *p, enum emu_steer_kind kind);
/* Any model action among n (emu_net_lock held). */
int emu_steer_has_act(void *const acts[], size_t n);
/* mlx5_emu_steer.c, mlx5_emu_steer_act.c: the glue's operations (each
 * takes emu_net_lock; NULL or an errno with errno set; ENOENT: not the
 * model's object).
 */
void *emu_steer_dom_create(struct emu_dev *dev, int type);
int emu_steer_dom_destroy(void *dom);
int emu_steer_dom_sync(void *dom, uint32_t flags);
void emu_steer_dom_flag(void *dom, int dup, uint32_t on);
int emu_steer_dom_dump(FILE *f, void *dom);
void *emu_steer_tbl_create(void *dom, uint32_t level);
int emu_steer_tbl_destroy(void *tbl);
void *emu_steer_matcher_create(void *tbl, uint16_t prio, uint8_t criteria,
			       const void *mask);
int emu_steer_matcher_destroy(void *m);
void *emu_steer_rule_create(void *m, const void *value, size_t n,
			    void *acts[]);
int emu_steer_rule_destroy(void *rule);
/* mlx5_emu_steer_chk.c: a rule's actions against its matcher, as
 * rdma-core checks them (emu_net_lock held); 0 (*term its terminal
 * action or NULL) or an errno, errno set.
 */
int emu_steer_rule_acts(const struct emu_steer_matcher *m,
			struct emu_steer_act *const *acts, size_t n,
			const struct emu_steer_act **term);
/* dev->lock held (the object is the device's DevX object). */
void *emu_steer_act_tir(struct emu_dev *dev, struct emu_obj *obj);
void *emu_steer_act_table(void *tbl);
void *emu_steer_act_plain(enum emu_steer_act_type type, uint32_t tag,
			  void *twin);
/* dom NULL: a root-level action of dev (the kernel's verbs action). */
void *emu_steer_act_modify(struct emu_dev *dev, void *dom, int root,
			   size_t sz, const uint64_t *cmds);
/* 0 (the twin to destroy in *twin), or an errno. */
int emu_steer_act_destroy(void *act, void **twin);
/* The twin of a model action, NULL if it has none (emu_net_lock held). */
void *emu_steer_act_twin(void *act);
/* Process-wide model actions that belong to no device. */
uint32_t emu_steer_plain_acts(void);
/* At close: free what the device left (emu_net_lock held). */
void emu_steer_release(struct emu_net *net);
/* mlx5_emu_steer_rx.c: a frame that passed the vport filter walks the
 * device's NIC RX tables (emu_net_lock held, in a pass).
 */
void emu_steer_rx(struct emu_net *net, const uint8_t *frame, uint32_t len,
		  int self);
/* The key bits the model matches (a zeroed 256-byte buffer filled). */
void emu_steer_key_supported(uint8_t *sup);
/* The key's L3 and L4 fields, all ones (the rest 0). */
void emu_steer_key_l34(uint8_t *l34);

#endif /* MLX5_EMU_NET_H_ */
