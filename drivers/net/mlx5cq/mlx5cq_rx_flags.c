/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5cq authors
 */

/*
 * RX offload flags: packet type and checksum flags of a received frame,
 * from the header-type bits of its CQE, as two tables the RX burst
 * indexes; the list of packet types the port reports.
 */

#include <rte_mbuf.h>

#include "mlx5cq_rx.h"

/*
 * The tables are indexed by bits 10:2 of the CQE's hdr_type_etc
 * (MLX5CQ_RX_LUT_IDX; mlx5_prm.h MLX5_CQE_RX_*): bits 3:2 L3 header
 * type (1 IPv6, 2 IPv4), bits 6:4 L4 header type (1 TCP, 2 UDP, 3 TCP
 * empty ACK, 4 TCP with ACK, 5..7 reserved), bit 7 IP fragment, bit 8 L2
 * OK, bit 9 L3 OK, bit 10 L4 OK.
 */
#define RX_IDX_L3(i) ((i) & 3)
#define RX_IDX_L4(i) (((i) >> 2) & 7)
#define RX_IDX_FRAG(i) (((i) >> 5) & 1)
#define RX_IDX_L3_OK(i) (((i) >> 7) & 1)
#define RX_IDX_L4_OK(i) (((i) >> 8) & 1)

uint32_t mlx5cq_rx_ptype_lut[MLX5CQ_RX_LUT_N];
uint64_t mlx5cq_rx_csum_lut[MLX5CQ_RX_LUT_N];

/*
 * Packet type: L2 Ethernet; IPv4 or IPv6 (extensions unknown); for IP
 * packets: L4_FRAG for fragments, TCP (codes 1, 3, 4) or UDP (2), and
 * L4_NONFRAG for IP without TCP/UDP (code 0); reserved codes 5..7 give
 * no L4 type.
 */
uint32_t
mlx5cq_rx_ptype(uint16_t hte)
{
	unsigned int i = MLX5CQ_RX_LUT_IDX(hte);
	uint32_t p = RTE_PTYPE_L2_ETHER;
	unsigned int l4 = RX_IDX_L4(i);

	switch (RX_IDX_L3(i)) {
	case 2:
		p |= RTE_PTYPE_L3_IPV4_EXT_UNKNOWN;
		break;
	case 1:
		p |= RTE_PTYPE_L3_IPV6_EXT_UNKNOWN;
		break;
	default:
		return p;
	}
	if (RX_IDX_FRAG(i))
		return p | RTE_PTYPE_L4_FRAG;
	if (l4 == 1 || l4 == 3 || l4 == 4)
		p |= RTE_PTYPE_L4_TCP;
	else if (l4 == 2)
		p |= RTE_PTYPE_L4_UDP;
	else if (l4 == 0)
		p |= RTE_PTYPE_L4_NONFRAG;
	return p;
}

/*
 * Checksum flags:
 * - IPv4: L3 OK -> IP GOOD, else IP BAD (the device checks every IPv4
 *   header it parses);
 * - IPv6 has no header checksum: IP UNKNOWN whatever L3 OK says;
 * - TCP/UDP of an IP packet that is not a fragment: L4 OK -> L4 GOOD;
 *   L4 OK clear -> L4 BAD, unless the IPv4 header is bad (L3 OK clear:
 *   the device may not have verified L4), then L4 UNKNOWN;
 * - fragments, reserved L4 codes, packets without L4: L4 UNKNOWN (not
 *   verified);
 * - not IP: nothing.
 */
uint64_t
mlx5cq_rx_csum(uint16_t hte)
{
	unsigned int i = MLX5CQ_RX_LUT_IDX(hte);
	unsigned int l3 = RX_IDX_L3(i), l4 = RX_IDX_L4(i);
	uint64_t f = 0;
	int l3_good;

	if (l3 == 2) {
		l3_good = RX_IDX_L3_OK(i);
		f |= l3_good ? RTE_MBUF_F_RX_IP_CKSUM_GOOD :
			       RTE_MBUF_F_RX_IP_CKSUM_BAD;
	} else if (l3 == 1) {
		l3_good = 1;
	} else {
		return 0;
	}
	if (RX_IDX_FRAG(i) || l4 < 1 || l4 > 4)
		return f;
	if (RX_IDX_L4_OK(i))
		f |= RTE_MBUF_F_RX_L4_CKSUM_GOOD;
	else if (l3_good)
		f |= RTE_MBUF_F_RX_L4_CKSUM_BAD;
	return f;
}

RTE_INIT(mlx5cq_rx_luts)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(mlx5cq_rx_ptype_lut); i++) {
		mlx5cq_rx_ptype_lut[i] = mlx5cq_rx_ptype((uint16_t)(i << 2));
		mlx5cq_rx_csum_lut[i] = mlx5cq_rx_csum((uint16_t)(i << 2));
	}
}

const uint32_t *
mlx5cq_supported_ptypes(struct rte_eth_dev *dev)
{
	static const uint32_t ptypes[] = {
		RTE_PTYPE_L2_ETHER,
		RTE_PTYPE_L3_IPV4_EXT_UNKNOWN,
		RTE_PTYPE_L3_IPV6_EXT_UNKNOWN,
		RTE_PTYPE_L4_TCP,
		RTE_PTYPE_L4_UDP,
		RTE_PTYPE_L4_FRAG,
		RTE_PTYPE_L4_NONFRAG,
		RTE_PTYPE_UNKNOWN,
	};

	RTE_SET_USED(dev);
	return ptypes;
}
