/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

#ifndef MLX5CQ_ETHDEV_H_
#define MLX5CQ_ETHDEV_H_

/*
 * net_mlx5cq: private structures shared by the PMD's files.
 *   mlx5cq_ethdev.c    probe/remove, ethdev ops table, configure, infos,
 *                      start/stop/close
 *   mlx5cq_devargs.c   devargs (rte_kvargs)
 *   mlx5cq_device.c    device open (emulated or real ibdev), PD, TD, TIS,
 *                      UAR
 *   mlx5cq_vport.c     vport commands: link state, promisc, MAC lists, MTU
 *   mlx5cq_mr.c        memory registration of mempools, lkey lookup
 *   mlx5cq_rxq.c       RX queues: CQ + RQ, buffer ring
 *   mlx5cq_txq.c       TX queues: CQ + SQ
 *   mlx5cq_rss.c       RQT + TIR, RETA, hash key
 *   mlx5cq_rx.c        RX burst
 *   mlx5cq_tx.c        TX burst
 *   mlx5cq_stats.c     basic and extended statistics
 *   mlx5cq_intr.c      RX queue interrupts (CQ arming)
 *   mlx5cq_link.c      link events (async fd), link up / down
 */

#include <stdint.h>
#include <sys/queue.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_ether.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_spinlock.h>

#include <ethdev_driver.h>

#include "rte_mlx5cq.h"

struct ibv_context;
struct ibv_pd;
struct ibv_mr;
struct mlx5dv_devx_uar;
struct mlx5_devx_obj;
struct rte_flow;
struct rte_flow_ops;

extern int mlx5cq_net_logtype;

#define PMD_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mlx5cq_net_logtype, \
		"net_mlx5cq: " fmt "\n", ##__VA_ARGS__)

#define MLX5CQ_PMD_NAME net_mlx5cq

/* Limits and defaults. */
#define MLX5CQ_MAX_QUEUES 16
#define MLX5CQ_DESC_MIN 64
#define MLX5CQ_DESC_MAX 32768
#define MLX5CQ_DESC_DEFAULT 512
#define MLX5CQ_TX_COMP_THRESH_DEFAULT 32
#define MLX5CQ_RETA_SIZE 64
#define MLX5CQ_MAX_MAC_ADDRS 16
#define MLX5CQ_MAX_MC_ADDRS 64
#define MLX5CQ_BURST_MAX 64
#define MLX5CQ_RSS_KEY_LEN 40
/*
 * Inline header of a TX WQE when the device requires the L2 header inline
 * (wqe_inline_mode L2, or the vport context's L2): Ethernet + VLAN tag.
 * Also the shortest first segment a packet may have.
 */
#define MLX5CQ_INLINE_HDR 18
/* Hardware MTU adds the L2 header, a VLAN tag and the FCS (kernel mlx5e). */
#define MLX5CQ_HW_MTU_EXTRA (RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN + \
			     RTE_ETHER_CRC_LEN)
/* speed= devarg: what max_tx_speed (16 bits x 100 Mb/s) can report. */
#define MLX5CQ_SPEED_UNIT 100
#define MLX5CQ_SPEED_MAX (0xffff * MLX5CQ_SPEED_UNIT)
#define MLX5CQ_MR_MAX 256

#define MLX5CQ_RSS_HF (RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_FRAG_IPV4 | \
		       RTE_ETH_RSS_NONFRAG_IPV4_TCP | \
		       RTE_ETH_RSS_NONFRAG_IPV4_UDP | \
		       RTE_ETH_RSS_NONFRAG_IPV4_OTHER | \
		       RTE_ETH_RSS_IPV6 | RTE_ETH_RSS_FRAG_IPV6 | \
		       RTE_ETH_RSS_NONFRAG_IPV6_TCP | \
		       RTE_ETH_RSS_NONFRAG_IPV6_UDP | \
		       RTE_ETH_RSS_NONFRAG_IPV6_OTHER | \
		       RTE_ETH_RSS_IPV6_EX | RTE_ETH_RSS_IPV6_TCP_EX | \
		       RTE_ETH_RSS_IPV6_UDP_EX | \
		       RTE_ETH_RSS_L3_SRC_ONLY | RTE_ETH_RSS_L3_DST_ONLY | \
		       RTE_ETH_RSS_L4_SRC_ONLY | RTE_ETH_RSS_L4_DST_ONLY)

/* Groups of the hash types (the _EX types hash like plain IPv6). */
#define MLX5CQ_RSS_V4 (RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_FRAG_IPV4 | \
		       RTE_ETH_RSS_NONFRAG_IPV4_TCP | \
		       RTE_ETH_RSS_NONFRAG_IPV4_UDP | \
		       RTE_ETH_RSS_NONFRAG_IPV4_OTHER)
#define MLX5CQ_RSS_V6 (RTE_ETH_RSS_IPV6 | RTE_ETH_RSS_FRAG_IPV6 | \
		       RTE_ETH_RSS_NONFRAG_IPV6_TCP | \
		       RTE_ETH_RSS_NONFRAG_IPV6_UDP | \
		       RTE_ETH_RSS_NONFRAG_IPV6_OTHER | \
		       RTE_ETH_RSS_IPV6_EX | RTE_ETH_RSS_IPV6_TCP_EX | \
		       RTE_ETH_RSS_IPV6_UDP_EX)
#define MLX5CQ_RSS_TCP (RTE_ETH_RSS_NONFRAG_IPV4_TCP | \
			RTE_ETH_RSS_NONFRAG_IPV6_TCP | \
			RTE_ETH_RSS_IPV6_TCP_EX)
#define MLX5CQ_RSS_UDP (RTE_ETH_RSS_NONFRAG_IPV4_UDP | \
			RTE_ETH_RSS_NONFRAG_IPV6_UDP | \
			RTE_ETH_RSS_IPV6_UDP_EX)
#define MLX5CQ_RSS_ONLY (RTE_ETH_RSS_L3_SRC_ONLY | \
			 RTE_ETH_RSS_L3_DST_ONLY | \
			 RTE_ETH_RSS_L4_SRC_ONLY | \
			 RTE_ETH_RSS_L4_DST_ONLY)

#define MLX5CQ_RX_OFFLOADS (RTE_ETH_RX_OFFLOAD_IPV4_CKSUM | \
			    RTE_ETH_RX_OFFLOAD_UDP_CKSUM | \
			    RTE_ETH_RX_OFFLOAD_TCP_CKSUM | \
			    RTE_ETH_RX_OFFLOAD_VLAN_STRIP | \
			    RTE_ETH_RX_OFFLOAD_RSS_HASH | \
			    RTE_ETH_RX_OFFLOAD_TIMESTAMP | \
			    RTE_ETH_RX_OFFLOAD_SCATTER)
/* Longest L2..L4 header of a TSO packet (net/mlx5's MLX5_MAX_TSO_HEADER). */
#define MLX5CQ_TSO_HDR_MAX 192
/* Most segments of a scattered RX WQE, log2 (net/mlx5's
 * MLX5_MAX_LOG_RQ_SEGS).
 */
#define MLX5CQ_RX_SGES_LOG_MAX 5
/* Port-level RX offloads (not per queue). */
#define MLX5CQ_RX_PORT_OFFLOADS RTE_ETH_RX_OFFLOAD_VLAN_FILTER
#define MLX5CQ_TX_OFFLOADS (RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | \
			    RTE_ETH_TX_OFFLOAD_UDP_CKSUM | \
			    RTE_ETH_TX_OFFLOAD_TCP_CKSUM | \
			    RTE_ETH_TX_OFFLOAD_MULTI_SEGS | \
			    RTE_ETH_TX_OFFLOAD_VLAN_INSERT | \
			    RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE)

/* Parsed devargs. */
struct mlx5cq_devargs {
	char dev[64]; /* "emu" or an ibdev name. */
	enum rte_mlx5cq_path cq_path;
	uint16_t cqe_size; /* 64 or 128. */
	uint8_t cqe_pad;
	uint8_t cqe_comp; /* RTE_MLX5CQ_COMP_* bit or 0. */
	uint8_t cqe_comp_set; /* cqe_comp given (else HASH if the device can). */
	uint8_t cqe_comp_layout;
	uint8_t rx_vec_en; /* SIMD stores on the RX burst (default 1). */
	/* Chunks in one VA-contiguous area of DPDK memory: one region. */
	uint8_t mr_ext_memseg_en;
	uint32_t rxq_desc; /* 0: not given. */
	uint32_t txq_desc; /* 0: not given. */
	uint32_t tx_comp_thresh;
	char wire[64];
	struct rte_ether_addr mac;
	uint8_t mac_set;
	uint32_t speed; /* Emulated link speed in Mb/s; 0: not given. */
	/* Multi-packet RQ (mlx5cq_rxq_mprq.c), net/mlx5's devargs. */
	uint8_t mprq_en;
	uint32_t rxqs_min_mprq;
	uint32_t mprq_log_stride_num;
	uint32_t mprq_log_stride_size; /* MLX5CQ_MPRQ_UNSET: from the MTU. */
	uint32_t mprq_max_memcpy_len;
	/* LRO session timeout (net/mlx5's lro_timeout_usec); 0: the
	 * device's shortest period (mlx5cq_lro.c).
	 */
	uint32_t lro_timeout_usec;
};

/* Multi-packet RQ defaults, as net/mlx5's mlx5_defs.h. */
#define MLX5CQ_MPRQ_UNSET UINT32_MAX
#define MLX5CQ_MPRQ_LOG_STRIDE_NUM_DEFAULT 6
#define MLX5CQ_MPRQ_LOG_STRIDE_SIZE_DEFAULT 11
#define MLX5CQ_MPRQ_MEMCPY_DEFAULT 128
#define MLX5CQ_MPRQ_MIN_RXQS_DEFAULT 12
#define MLX5CQ_MPRQ_CACHE 32 /* Buffers of the pool's per-lcore cache. */

/* Striding RQ capabilities of the device (mlx5dv striding_rq_caps). */
struct mlx5cq_mprq_caps {
	uint8_t ok; /* MLX5DV_CONTEXT_MASK_STRIDING_RQ answered. */
	uint8_t log_min_size; /* Stride bytes, log2. */
	uint8_t log_max_size;
	uint8_t log_min_num; /* Strides of a WQE, log2. */
	uint8_t log_max_num;
	uint8_t log_min_wqe; /* Bytes of a WQE's buffer, log2 (HCA cap 2). */
};

/*
 * LRO capabilities of the device (HCA_CAP eth_net_offloads, as DPDK's
 * mlx5_devx_cmd_query_hca_attr() reads them) and the session timeout the
 * port's TIRs ask for.
 */
#define MLX5CQ_LRO_PERIODS 4
struct mlx5cq_lro_caps {
	uint8_t ok; /* lro_cap: RTE_ETH_RX_OFFLOAD_TCP_LRO offered. */
	uint8_t sz_mode; /* lro_max_msg_sz_mode (MLX5_LRO_MAX_MSG_SIZE_*). */
	uint16_t min_mss; /* lro_min_mss_size. */
	uint32_t periods[MLX5CQ_LRO_PERIODS]; /* lro_timer_supported_periods */
	uint32_t timeout; /* The TIRs' lro_timeout_period_usecs. */
};

/* One registered memory piece (chunks less than a page apart). */
struct mlx5cq_mr {
	uintptr_t start;
	uintptr_t end;
	uint32_t lkey;
	uint8_t owner; /* deregisters mr (several pieces may share it) */
	struct ibv_mr *mr;
	const struct rte_mempool *mp;
};

/* A memory chunk of a mempool: [start, end). */
struct mlx5cq_mr_range {
	uintptr_t start;
	uintptr_t end;
};

/* Registered memory of a port: append-only table, readers lock-free. */
struct mlx5cq_mr_table {
	rte_spinlock_t lock; /* Writers. */
	uint32_t n; /* Entries published (release store). */
	struct mlx5cq_mr mr[MLX5CQ_MR_MAX];
};

/* Lookup blocks: 64 KiB of address space, 1024 slots per queue. */
#define MLX5CQ_MR_BLK_SHIFT 16
#define MLX5CQ_MR_BLK_N 1024

/*
 * Per-queue lookup: a direct-mapped cache of regions by 64 KiB block of
 * address (a slot holds the region last found for an address of its
 * blocks), then a view of the port's table sorted by start address
 * (binary search), rebuilt when the table grew.
 */
struct mlx5cq_mr_cache {
	struct mlx5cq_mr_table *table;
	uintptr_t last_start; /* Region hit last ([0, 0): none). */
	uintptr_t last_end;
	uint32_t last_lkey;
	struct {
		uintptr_t start; /* Empty slot: start == end == 0. */
		uintptr_t end;
		uint32_t lkey;
	} blk[MLX5CQ_MR_BLK_N];
	uint32_t n; /* Regions in the view. */
	uintptr_t start[MLX5CQ_MR_MAX];
	uintptr_t end[MLX5CQ_MR_MAX];
	uint32_t lkey[MLX5CQ_MR_MAX];
};

/*
 * Per-queue lkey table of a mempool spanning several regions
 * (mlx5cq_mr_tbl.c): direct mapped, indexed by the buffer's granule
 * number (address >> shift), each entry tagged with the rest of that
 * number. A granule holds pieces of at most two regions (the granule is
 * no longer than the shortest run of chunks between the first and the
 * last): lkey[0] below split (offset in the granule), lkey[1] from it on.
 * Filled at queue setup from the mempool's chunks only, so an entry is
 * exact for the buffers of that mempool; a granule of three regions, a
 * collision or an empty slot gives UINT32_MAX: the search decides.
 *
 * Exact tables: when the entries are at least the granules the pool spans
 * (no two share a slot), none was left to the search and every chunk has
 * its region, a buffer of the pool always finds the answer in its own
 * granule's entry. The refill of the pool's own buffers then reads a
 * second array, fast[], without checks: the split as an address and the
 * lkeys as the WQE takes them (big endian).
 */
struct mlx5cq_mr_tbl_ent {
	uint32_t tag; /* Granule number >> log_n; UINT32_MAX: empty. */
	uint32_t split;
	uint32_t lkey[2];
};

struct mlx5cq_mr_tbl_fast {
	uintptr_t split; /* First address of lkey_be[1]'s region. */
	rte_be32_t lkey_be[2];
};

struct mlx5cq_mr_tbl {
	uint32_t shift; /* log2 of the granule. */
	uint32_t log_n; /* log2 of the entries. */
	uintptr_t mask; /* Entries - 1. */
	uintptr_t off_mask; /* Granule - 1. */
	uint32_t chunks; /* mp->nb_mem_chunks at build time. */
	uint32_t pages; /* Granules stored (statistics, tests). */
	uint32_t split; /* Of those, shared by two regions. */
	uint32_t searched; /* Granules left to the search. */
	/* Exact tables (see above): every answer; else NULL. */
	struct mlx5cq_mr_tbl_fast *fast;
	struct mlx5cq_mr_tbl_ent ent[];
};

/* Software counters of a queue. */
struct mlx5cq_qstats {
	uint64_t packets;
	uint64_t bytes;
	uint64_t errors;
	uint64_t nombuf; /* RX only. */
	uint64_t recoveries; /* Queue taken back to RDY after an error. */
	uint64_t recovery_failures; /* Attempts that failed (retried). */
};

struct mlx5cq_priv;

/* mlx5cq_rxq.gate of a started queue with nothing to divert its bursts:
 * started (the word's first byte) 1, the others 0.
 */
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
#define MLX5CQ_RXQ_GATE_RUN 0x00000001u
#else
#define MLX5CQ_RXQ_GATE_RUN 0x01000000u
#endif

struct mlx5cq_rxq {
	struct mlx5cq_priv *priv;
	struct rte_mlx5cq *cq;
	volatile struct mlx5_wqe_dseg_rx {
		rte_be32_t byte_count;
		rte_be32_t lkey;
		rte_be64_t addr;
	} *wqes;
	volatile uint32_t *dbrec;
	struct rte_mbuf **elts; /* Posted buffers, by WQE index. */
	struct rte_mempool *mp;
	uint32_t desc_n; /* Power of two. */
	uint32_t mask;
	uint32_t pi; /* WQEs posted (free running). */
	uint32_t rq_ci; /* WQEs consumed: the next completion's WQE. */
	uint32_t buf_len; /* Byte count of every WQE (data room). */
	uint32_t lkey; /* Lkey of the mempool, UINT32_MAX: several MRs. */
	/*
	 * Offset of a free mbuf's data (after the headroom) from the mbuf
	 * itself, the same for every mbuf of the pool (rte_mbuf_buf_addr():
	 * buffer embedded after the header and private area); 0 for pools
	 * of pinned external buffers, where buf_addr is read.
	 */
	uint32_t data_off;
	struct mlx5cq_mr_tbl *mrt; /* Several MRs: lkey table, else NULL. */
	uint64_t mbuf_initializer; /* rearm_data of a received mbuf. */
	uint64_t ol_rss; /* RTE_MBUF_F_RX_RSS_HASH when the offload is on. */
	uint8_t vlan_strip; /* RTE_ETH_RX_OFFLOAD_VLAN_STRIP. */
	/* RTE_MLX5CQ_COMP_HASH or _CSUM: sessions read in place (basic
	 * layout); 0: through records.
	 */
	uint8_t session_fmt;
	uint8_t rx_vec; /* SIMD stores (mlx5cq_rxq_vec()). */
	uint16_t port_id;
	uint16_t idx;
	/* Packets of a compressed session decoded ahead into the mbufs of
	 * WQEs rq_ci.. (consumed from the CQ, not handed up yet).
	 */
	uint32_t session_ahead;
	uint64_t session_ahead_len; /* Sum of their lengths. */
	uint64_t offloads;
	/*
	 * The states a burst checks before polling, read as one word
	 * (gate): MLX5CQ_RXQ_GATE_RUN while started with no error to
	 * recover and no flow tags, anything else sends the burst to its
	 * slow start.
	 */
	union {
		uint32_t gate;
		struct {
			uint8_t started;
			uint8_t in_error;
			/* Flow tags to the mbufs (some rte_flow rule marks
			 * or flags): the per-completion route
			 * (mlx5cq_rx_rec.c).
			 */
			uint8_t mark;
			uint8_t gate_rsvd; /* 0. */
		};
	};
	uint8_t deferred;
	uint8_t intr_armed;
	uint8_t rq_rst; /* The RQ is in RST (this queue moved it there). */
	int socket;
	struct mlx5cq_qstats st;
	struct rte_mlx5cq_counters cq_base; /* Counters of destroyed CQs. */
	struct rte_mlx5cq_counters cq_reset; /* Snapshot at xstats reset. */
	struct mlx5cq_mr_cache mrc;
	void *rq_obj; /* struct mlx5_devx_rq (mlx5_common_devx.h). */
	uint32_t rqn;
	/* RX timestamps (mlx5cq_clock.c): the mbuf flag (0: off), the
	 * dynamic field's offset, stamps in real-time format.
	 */
	uint64_t ts_flag;
	uint32_t ts_off;
	uint8_t ts_rt;
	/* Scatter (mlx5cq_rx_rec.c): log2 of the segments of a WQE, and
	 * the buffers of the queue (desc_n << sges_log).
	 */
	uint8_t sges_log;
	uint32_t elts_n;
	/* Multi-packet RQ (mlx5cq_rxq_mprq.c, mlx5cq_rx_mprq.c): WQEs of
	 * 2^log_strd_num strides of 2^log_strd_sz bytes in one buffer each,
	 * the strides of WQE rq_ci used so far, packets up to memcpy_len
	 * bytes copied (longer ones attached), the buffers by WQE and one
	 * spare (NULL: the pool ran dry, every packet is copied).
	 */
	uint8_t mprq;
	uint8_t log_strd_num;
	uint8_t log_strd_sz;
	uint32_t strd_ci;
	uint32_t memcpy_len;
	struct rte_mempool *mprq_mp;
	struct mlx5cq_mprq_buf **bufs;
	struct mlx5cq_mprq_buf *mprq_repl;
	/* LRO (mlx5cq_lro.c, mlx5cq_rx_lro.c): the queue's TIRs coalesce
	 * TCP segments into messages of at most lro_msg bytes.
	 */
	uint8_t lro;
	uint32_t lro_msg;
	struct rte_mlx5cq_cpl cpl[MLX5CQ_BURST_MAX];
};

/*
 * txq->elts[] entries of a chained packet carry this low bit (an mbuf is
 * at least 8-byte aligned): the completion frees them segment by segment,
 * never through the fast-free put, which returns single mbufs.
 */
#define MLX5CQ_TX_ELT_CHAIN ((uintptr_t)1)

struct mlx5cq_txq {
	struct mlx5cq_priv *priv;
	struct rte_mlx5cq *cq;
	volatile uint8_t *wqes; /* Ring of 64 B WQEBBs. */
	volatile uint32_t *dbrec; /* Word 1: send counter. */
	/* Per WQEBB: mbuf of the WQE starting there, the low bit set
	 * (MLX5CQ_TX_ELT_CHAIN) when it heads a chain.
	 */
	struct rte_mbuf **elts;
	uint16_t *wqe_end; /* Per WQEBB: end counter of the WQE there. */
	uint32_t wqebb_n;
	uint32_t mask;
	uint32_t pi; /* WQEBBs posted (free running). */
	uint32_t ci; /* WQEBBs completed. */
	uint32_t comp_thresh;
	uint32_t since_comp; /* Packets since the last completion request. */
	uint32_t sqn;
	uint16_t port_id;
	uint16_t idx;
	uint64_t offloads;
	/* Packets off the plain path: RTE_MBUF_F_TX_VLAN and
	 * RTE_MBUF_F_TX_TCP_SEG where their offloads are on.
	 */
	uint64_t slow_flags;
	uint8_t inline_hdr; /* priv->tx_inline: 18 or 0. */
	uint8_t vlan_hw; /* priv->tx_vlan_hw: the device inserts VLAN tags. */
	uint8_t fast_free; /* RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE. */
	uint8_t started;
	uint8_t deferred;
	uint8_t in_error;
	uint8_t sq_rst; /* The SQ is in RST (this queue moved it there). */
	int socket;
	struct mlx5cq_qstats st;
	struct rte_mlx5cq_counters cq_base;
	struct rte_mlx5cq_counters cq_reset;
	struct mlx5cq_mr_cache mrc;
	void *sq_obj; /* struct mlx5_devx_sq. */
	struct rte_mlx5cq_cpl cpl[MLX5CQ_BURST_MAX];
};

/* The VLAN id that stands for "no id" in a VLAN filter that is on. */
#define MLX5CQ_VLAN_NONE 4095

/* The receive filter the vport functions last set (mlx5cq_vport.c). */
struct mlx5cq_rx_filter {
	struct rte_ether_addr uc[MLX5CQ_MAX_MAC_ADDRS];
	uint32_t uc_n;
	uint32_t vlan_n; /* 0: VLAN filter off. */
	uint16_t vids[RTE_ETHER_MAX_VLAN_ID + 1];
	uint8_t promisc;
	uint8_t allmulti;
};

/* The port's NIC RX steering objects (mlx5cq_flow.c). */
struct mlx5cq_rx_rules {
	void *domain;
	void *tbl_root; /* Level 0: the VLAN filter. */
	void *tbl_l2; /* Level 1: the addresses. */
	void *to_l2; /* Action: jump to tbl_l2. */
	void *to_tir; /* Action: the port's TIR. */
	void *m_any_root, *m_untagged, *m_vid; /* Root matchers. */
	void *m_any_l2, *m_dmac, *m_group; /* L2 matchers. */
	uint32_t n;
	void *rules[RTE_ETHER_MAX_VLAN_ID + 2 + MLX5CQ_MAX_MAC_ADDRS + 2 +
		    MLX5CQ_MAX_MC_ADDRS];
};

/*
 * What is a process's own of a port (eth_dev->process_private, net/mlx5's
 * mlx5_proc_priv): the address the send queues ring their doorbell at.
 * The primary's is the UAR page its allocation mapped; a secondary maps
 * the page itself through the context's cmd_fd (mlx5cq_mp.c).
 */
struct mlx5cq_proc_priv {
	volatile uint64_t *uar_reg; /* UAR page + 0x800 (BlueFlame register). */
	void *uar_map; /* A secondary's mapping of the UAR page, or NULL. */
	size_t uar_map_len;
	uint64_t uar_map_off; /* The mmap offset uar_map maps. */
};

struct mlx5cq_priv {
	struct rte_eth_dev *eth_dev; /* The primary's (process memory). */
	uint16_t port_id;
	/* The send queues' UAR: valid, its mmap offset on the cmd_fd. */
	uint8_t uar_valid;
	uint64_t uar_mmap_off;
	struct mlx5cq_devargs args;
	struct ibv_context *ctx;
	uint8_t emulated;
	struct rte_mlx5cq_dev *cqdev;
	struct ibv_pd *pd;
	uint32_t pdn;
	uint8_t pdn_valid;
	struct mlx5_devx_obj *td;
	struct mlx5_devx_obj *tis;
	struct mlx5dv_devx_uar *uar;
	struct mlx5_devx_obj *rqt;
	struct mlx5_devx_obj *tir;
	struct mlx5_devx_obj *qcnt; /* Queue counter set of the RQs, or NULL. */
	uint32_t oob_last; /* Last out_of_buffer read (32 bits, wraps). */
	uint64_t oob_total; /* Out-of-buffer drops since the set exists. */
	uint64_t oob_base; /* oob_total at the last stats reset. */
	struct mlx5cq_mr_table mrs;
	struct rte_ether_addr perm_mac;
	struct rte_ether_addr mc_addrs[MLX5CQ_MAX_MC_ADDRS];
	uint32_t mc_n;
	uint16_t reta[MLX5CQ_RETA_SIZE];
	uint8_t rss_key[MLX5CQ_RSS_KEY_LEN];
	uint64_t rss_hf;
	uint16_t mtu;
	uint8_t tx_inline; /* Bytes of the frame each TX WQE inlines. */
	uint8_t tx_vlan_hw; /* HCA_CAP wqe_vlan_insert. */
	uint32_t tso_max; /* Largest TSO payload (max_lso_cap), 0: none. */
	struct mlx5cq_mprq_caps mprq_caps;
	struct mlx5cq_lro_caps lro;
	/* Buffers of the multi-packet RQs (mlx5cq_rxq_mprq.c), or NULL,
	 * and their geometry: log2 strides << 8 | log2 stride bytes.
	 */
	struct rte_mempool *mprq_mp;
	uint32_t mprq_geom;
	/* Clock (mlx5cq_clock.c): frequency, the ts_format RQs and SQs ask
	 * for, whether RX stamps are real time.
	 */
	uint32_t clock_khz;
	uint8_t rq_ts_format;
	uint8_t sq_ts_format;
	uint8_t ts_rt;
	uint8_t started;
	uint8_t promisc;
	uint8_t allmulti;
	uint8_t closed;
	uint8_t dev_failed; /* IBV_EVENT_DEVICE_FATAL seen (RMV raised). */
	char fw_ver[64]; /* Firmware version, read at probe. */
	struct rte_intr_handle *link_intr; /* The context's async fd. */
	uint64_t vlan_bits[4096 / 64]; /* VLAN filter: the ids added. */
	struct mlx5cq_rx_filter rxf;
	struct mlx5cq_rx_rules rx_rules;
	/* The application's rte_flow rules (mlx5cq_flow_user.c), and how
	 * many of them tag (mark or flag: every RX queue hands tags up).
	 */
	TAILQ_HEAD(mlx5cq_flow_list, rte_flow) flows;
	uint32_t flow_tag_n;
	/*
	 * RQs (and their CQs) of RX queues released while the port runs:
	 * in RST, still in the RQT until the queue set up in their place
	 * starts (mlx5cq_rxq.c, runtime RX queue setup).
	 */
	struct mlx5cq_rxq_parked {
		void *rq_obj; /* struct mlx5_devx_rq, or NULL. */
		struct rte_mlx5cq *cq;
	} rxq_parked[MLX5CQ_MAX_QUEUES];
};

/* mlx5cq_clock.c */
struct mlx5_hca_attr;
void mlx5cq_clock_init(struct mlx5cq_priv *priv,
		       const struct mlx5_hca_attr *attr, const char *name);
int mlx5cq_rxq_ts_setup(struct mlx5cq_rxq *rxq);
int mlx5cq_read_clock(struct rte_eth_dev *dev, uint64_t *clock);

/* mlx5cq_devargs.c */
int mlx5cq_devargs_parse(const char *params, struct mlx5cq_devargs *args);
extern const char mlx5cq_devargs_help[];
const char *mlx5cq_devargs_comp_name(unsigned int comp);
const char *mlx5cq_devargs_path_name(unsigned int path);

/* mlx5cq_device.c */
int mlx5cq_device_open(struct mlx5cq_priv *priv, const char *name);
void mlx5cq_device_close(struct mlx5cq_priv *priv);
int mlx5cq_device_tx_objs(struct mlx5cq_priv *priv);
int mlx5cq_device_pdn(struct mlx5cq_priv *priv);
int mlx5cq_device_fw_version_get(struct rte_eth_dev *dev, char *fw,
				 size_t size);

/* mlx5cq_link.c */
int mlx5cq_link_intr_install(struct rte_eth_dev *dev);
void mlx5cq_link_intr_uninstall(struct rte_eth_dev *dev);
int mlx5cq_dev_set_link_down(struct rte_eth_dev *dev);
int mlx5cq_dev_set_link_up(struct rte_eth_dev *dev);

/* mlx5cq_ethdev.c */
int mlx5cq_link_update(struct rte_eth_dev *dev, int wait);
int mlx5cq_is_port(const struct rte_eth_dev *dev);
void mlx5cq_burst_select(struct rte_eth_dev *dev);

/* mlx5cq_mp.c: multi-process requests and messages */
int mlx5cq_mp_init(void);
void mlx5cq_mp_uninit(void);
int mlx5cq_mp_attach(struct rte_eth_dev *dev);
int mlx5cq_mp_secondary_start(struct rte_eth_dev *dev, int fd);
void mlx5cq_mp_uar_unmap(struct rte_eth_dev *dev);
int mlx5cq_mp_notify(struct rte_eth_dev *dev, int start);
int mlx5cq_mp_req_mr(struct mlx5cq_priv *priv, struct rte_mempool *mp);
int mlx5cq_mp_req_recover(struct mlx5cq_priv *priv, int tx, uint16_t queue);

/* mlx5cq_flow.c: the receive rules (with the TIR; after a filter change) */
int mlx5cq_flow_rx_create(struct mlx5cq_priv *priv);
void mlx5cq_flow_rx_destroy(struct mlx5cq_priv *priv);
int mlx5cq_flow_rx_rules(struct mlx5cq_priv *priv);
/* mlx5cq_flow_user.c: rte_flow */
int mlx5cq_flow_ops_get(struct rte_eth_dev *dev,
			const struct rte_flow_ops **ops);
void mlx5cq_flow_user_init(struct mlx5cq_priv *priv);
void mlx5cq_flow_user_flush(struct mlx5cq_priv *priv);

/* mlx5cq_vport.c */
int mlx5cq_vport_state(struct mlx5cq_priv *priv, int *up,
		       uint32_t *speed_mbps);
int mlx5cq_vport_promisc(struct mlx5cq_priv *priv, int promisc, int allmulti);
int mlx5cq_vport_mac_list(struct mlx5cq_priv *priv, int idx,
			  const struct rte_ether_addr *addr);
int mlx5cq_vport_mc_list(struct mlx5cq_priv *priv);
int mlx5cq_vport_mtu(struct mlx5cq_priv *priv, uint16_t mtu);
int mlx5cq_vport_vlan_max(struct mlx5cq_priv *priv, uint32_t *max);
int mlx5cq_vport_vlan_list(struct mlx5cq_priv *priv, const uint16_t *vids,
			   uint32_t n);
int mlx5cq_vport_min_inline(struct mlx5cq_priv *priv, unsigned int *mode);
int mlx5cq_vport_perm_mac(struct mlx5cq_priv *priv,
			  struct rte_ether_addr *mac);

/* mlx5cq_mr.c */
int mlx5cq_mr_register_mempool(struct mlx5cq_priv *priv,
			       struct rte_mempool *mp);
void mlx5cq_mr_release_all(struct mlx5cq_priv *priv);
struct mlx5cq_mr_range *mlx5cq_mr_chunks(struct rte_mempool *mp,
					 unsigned int *n);
uint32_t mlx5cq_mr_lookup_slow(struct mlx5cq_mr_cache *c, uintptr_t addr,
			       struct rte_mempool *mp);
void mlx5cq_mr_cache_init(struct mlx5cq_mr_cache *c, struct mlx5cq_priv *p);

/* Binary search of the sorted view: lkey, or UINT32_MAX. */
static __rte_always_inline uint32_t
mlx5cq_mr_search(struct mlx5cq_mr_cache *c, uintptr_t addr)
{
	uint32_t lo = 0, n = c->n;

	if (unlikely(n == 0))
		return UINT32_MAX;
	while (n > 1) {
		uint32_t half = n >> 1;

		lo = addr >= c->start[lo + half] ? lo + half : lo;
		n -= half;
	}
	if (addr < c->start[lo] || addr >= c->end[lo])
		return UINT32_MAX;
	n = (addr >> MLX5CQ_MR_BLK_SHIFT) & (MLX5CQ_MR_BLK_N - 1);
	c->blk[n].start = c->start[lo];
	c->blk[n].end = c->end[lo];
	c->blk[n].lkey = c->lkey[lo];
	c->last_start = c->start[lo];
	c->last_end = c->end[lo];
	c->last_lkey = c->lkey[lo];
	return c->lkey[lo];
}

/** Lkey of addr (UINT32_MAX when it is not registered and cannot be). */
static __rte_always_inline uint32_t
mlx5cq_mr_lookup(struct mlx5cq_mr_cache *c, uintptr_t addr,
		 struct rte_mempool *mp)
{
	uint32_t b = (addr >> MLX5CQ_MR_BLK_SHIFT) & (MLX5CQ_MR_BLK_N - 1);
	uint32_t lkey;

	if (likely(addr - c->last_start < c->last_end - c->last_start))
		return c->last_lkey;
	if (likely(addr - c->blk[b].start < c->blk[b].end - c->blk[b].start)) {
		c->last_start = c->blk[b].start;
		c->last_end = c->blk[b].end;
		c->last_lkey = c->blk[b].lkey;
		return c->blk[b].lkey;
	}
	lkey = mlx5cq_mr_search(c, addr);
	if (unlikely(lkey == UINT32_MAX))
		lkey = mlx5cq_mr_lookup_slow(c, addr, mp);
	return lkey;
}

uint32_t mlx5cq_mr_lookup_cold(struct mlx5cq_mr_cache *c, uintptr_t addr,
			       struct rte_mempool *mp);

/* mlx5cq_mr_tbl.c */
struct mlx5cq_mr_tbl *mlx5cq_mr_tbl_build(struct mlx5cq_priv *priv,
					  struct rte_mempool *mp, int socket);

/* mlx5cq_rxq.c */
int mlx5cq_rx_queue_setup(struct rte_eth_dev *dev, uint16_t idx,
			  uint16_t desc, unsigned int socket,
			  const struct rte_eth_rxconf *conf,
			  struct rte_mempool *mp);
void mlx5cq_rx_queue_release(struct rte_eth_dev *dev, uint16_t idx);
int mlx5cq_rxq_recover(struct mlx5cq_rxq *rxq);
int mlx5cq_rx_queue_create_stopped(struct rte_eth_dev *dev, uint16_t idx);
void mlx5cq_rx_queue_destroy_hw(struct rte_eth_dev *dev, uint16_t idx);
int mlx5cq_rx_queue_start(struct rte_eth_dev *dev, uint16_t idx);
int mlx5cq_rx_queue_stop(struct rte_eth_dev *dev, uint16_t idx);
void mlx5cq_rxq_info_get(struct rte_eth_dev *dev, uint16_t idx,
			 struct rte_eth_rxq_info *qinfo);
void mlx5cq_vlan_strip_queue_set(struct rte_eth_dev *dev, uint16_t idx,
				 int on);
int mlx5cq_vlan_offload_set(struct rte_eth_dev *dev, int mask);
int mlx5cq_vlan_filter_set(struct rte_eth_dev *dev, uint16_t vlan_id,
			   int on);
int mlx5cq_vlan_filter_apply(struct rte_eth_dev *dev);
int mlx5cq_rxq_any_rec(const struct rte_eth_dev *dev);
int mlx5cq_rx_burst_mode_get(struct rte_eth_dev *dev, uint16_t idx,
			     struct rte_eth_burst_mode *mode);

/* mlx5cq_txq.c */
int mlx5cq_tx_queue_setup(struct rte_eth_dev *dev, uint16_t idx,
			  uint16_t desc, unsigned int socket,
			  const struct rte_eth_txconf *conf);
void mlx5cq_tx_queue_release(struct rte_eth_dev *dev, uint16_t idx);
int mlx5cq_tx_queue_create_stopped(struct rte_eth_dev *dev, uint16_t idx);
void mlx5cq_tx_queue_destroy_hw(struct rte_eth_dev *dev, uint16_t idx);
int mlx5cq_txq_recover(struct mlx5cq_txq *txq);
int mlx5cq_tx_queue_start(struct rte_eth_dev *dev, uint16_t idx);
int mlx5cq_tx_queue_stop(struct rte_eth_dev *dev, uint16_t idx);
void mlx5cq_txq_info_get(struct rte_eth_dev *dev, uint16_t idx,
			 struct rte_eth_txq_info *qinfo);

/* mlx5cq_rss.c */
int mlx5cq_rss_apply(struct mlx5cq_priv *priv);
void mlx5cq_rss_release(struct mlx5cq_priv *priv);
void mlx5cq_rss_defaults(struct mlx5cq_priv *priv);
struct mlx5_rx_hash_field_select;
void mlx5cq_rss_selector(uint64_t hf, struct mlx5_rx_hash_field_select *sel);
int mlx5cq_rss_objs(struct mlx5cq_priv *priv, const uint16_t *q, uint32_t n,
		    uint64_t hf, const uint8_t *key,
		    struct mlx5_devx_obj **rqt, struct mlx5_devx_obj **tir);
int mlx5cq_rss_hash_update(struct rte_eth_dev *dev,
			   struct rte_eth_rss_conf *conf);
int mlx5cq_rss_hash_conf_get(struct rte_eth_dev *dev,
			     struct rte_eth_rss_conf *conf);
int mlx5cq_reta_update(struct rte_eth_dev *dev,
		       struct rte_eth_rss_reta_entry64 *reta, uint16_t size);
int mlx5cq_reta_query(struct rte_eth_dev *dev,
		      struct rte_eth_rss_reta_entry64 *reta, uint16_t size);

/* mlx5cq_rx.c / mlx5cq_tx.c */
uint16_t mlx5cq_rx_burst(void *rxq, struct rte_mbuf **pkts, uint16_t n);
uint16_t mlx5cq_rx_burst_rec(void *rxq, struct rte_mbuf **pkts,
			     uint16_t n);
uint16_t mlx5cq_tx_burst(void *txq, struct rte_mbuf **pkts, uint16_t n);
/* The doorbell register of this process for a send queue. */
static __rte_always_inline volatile uint64_t *
mlx5cq_tx_uar_reg(const struct mlx5cq_txq *txq)
{
	const struct mlx5cq_proc_priv *pp =
		rte_eth_devices[txq->port_id].process_private;

	return pp->uar_reg;
}
uint16_t mlx5cq_burst_none(void *q, struct rte_mbuf **pkts, uint16_t n);
void mlx5cq_rxq_post_all(struct mlx5cq_rxq *rxq);
/* Multi-packet RQ (mlx5cq_rxq_mprq.c, mlx5cq_rx_mprq.c). */
int mlx5cq_mprq_caps_read(struct mlx5cq_priv *priv, uint32_t log_min_wqe,
			  const char *name);
int mlx5cq_rxq_mprq_setup(struct rte_eth_dev *dev, struct mlx5cq_rxq *rxq);
void mlx5cq_rxq_mprq_free(struct mlx5cq_rxq *rxq);
/* LRO (mlx5cq_lro.c, mlx5cq_rx_lro.c). */
struct mlx5_devx_tir_attr;
void mlx5cq_lro_caps_read(struct mlx5cq_priv *priv,
			  const struct mlx5_hca_attr *attr, const char *name);
int mlx5cq_rxq_lro_setup(struct rte_eth_dev *dev, struct mlx5cq_rxq *rxq,
			 uint32_t frame, uint32_t buf_len, uint8_t sges_log);
uint32_t mlx5cq_rxq_frame(const struct rte_eth_dev *dev, uint64_t offloads);
void mlx5cq_lro_tir(const struct mlx5cq_priv *priv, const uint16_t *q,
		    uint32_t n, struct mlx5_devx_tir_attr *tir);
uint16_t mlx5cq_rx_burst_lro(void *rxq, struct rte_mbuf **pkts,
			     uint16_t n);
void mlx5cq_mprq_pool_free(struct mlx5cq_priv *priv);
int mlx5cq_rxq_mprq_post_all(struct mlx5cq_rxq *rxq);
int mlx5cq_rxq_any_mprq(const struct rte_eth_dev *dev);
uint16_t mlx5cq_rx_burst_mprq(void *rxq, struct rte_mbuf **pkts,
			      uint16_t n);
void mlx5cq_txq_complete(struct mlx5cq_txq *txq);
const uint32_t *mlx5cq_supported_ptypes(struct rte_eth_dev *dev);
/* Packet type and checksum flags of a CQE's hdr_type_etc (host order). */
__rte_internal
uint32_t mlx5cq_rx_ptype(uint16_t hdr_type_etc);
__rte_internal
uint64_t mlx5cq_rx_csum(uint16_t hdr_type_etc);

/* mlx5cq_stats.c */
int mlx5cq_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st);
int mlx5cq_stats_reset(struct rte_eth_dev *dev);
int mlx5cq_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *x,
		      unsigned int n);
int mlx5cq_xstats_get_names(struct rte_eth_dev *dev,
			    struct rte_eth_xstat_name *names,
			    unsigned int n);
int mlx5cq_xstats_reset(struct rte_eth_dev *dev);
void mlx5cq_cq_counters_add(struct rte_mlx5cq_counters *acc,
			    struct rte_mlx5cq *cq);

/* mlx5cq_intr.c */
int mlx5cq_rx_intr_enable(struct rte_eth_dev *dev, uint16_t idx);
int mlx5cq_rx_intr_disable(struct rte_eth_dev *dev, uint16_t idx);
int mlx5cq_intr_vec_setup(struct rte_eth_dev *dev);
void mlx5cq_intr_vec_release(struct rte_eth_dev *dev);

/* mlx5cq_qstate.c */
struct rte_power_monitor_cond;
uint32_t mlx5cq_rx_queue_count(void *rxq);
int mlx5cq_rx_descriptor_status(void *rxq, uint16_t offset);
int mlx5cq_tx_descriptor_status(void *txq, uint16_t offset);
int mlx5cq_get_monitor_addr(void *rxq, struct rte_power_monitor_cond *pmc);

void mlx5cq_cq_log(const struct rte_mlx5cq *cq, uint16_t port,
		   const char *dir, uint16_t idx);

/* CQ attributes from the devargs. */
void mlx5cq_cq_attr_fill(const struct mlx5cq_priv *priv,
			 struct rte_mlx5cq_attr *attr, uint32_t entries,
			 int socket, int rx);

#endif /* MLX5CQ_ETHDEV_H_ */
