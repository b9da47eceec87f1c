#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# What DPDK's own net/mlx5 needs around the emulated HCA to find its
# devices, with nothing of the machine's own devices visible to EAL:
#
#   mlx5-harness.sh up DIR N [WIRE]   build it for N ports on WIRE (w0)
#   mlx5-harness.sh down DIR          remove it
#
# up prints the lines to eval: SYSFS_PCI_DEVICES (EAL's PCI bus scans only
# DIR/pci), MLX5_EMU_DEVICES (the emulated HCA lists one device a port when
# its library is loaded), MLX5_HARNESS_NS (the network namespace to run
# in), MLX5_HARNESS_ALLOW (EAL -a options, one a port) and
# MLX5_HARNESS_MAC<i>.
#
# DIR/pci/<BDF> is a PCI function as the kernel's sysfs shows it and EAL's
# pci_scan_one() reads it: vendor 0x15b3, device 0x1017 (ConnectX-5),
# class 0x020000, numa_node, 13 resource lines, a driver link named
# mlx5_core, uevent with PCI_SLOT_NAME. DIR/ib/mlx5emu<i> is the verbs
# device's ibdev_path: its device link leads to the function, where DPDK's
# mlx5_get_pci_addr() reads uevent and mlx5_get_ifname_sysfs() finds
# net/<ifname>/dev_port. The netdev itself must exist for net/mlx5's
# ioctls (MAC, MTU, flags): one end of a veth pair a port, in a private
# network namespace, carrying the port's MAC. Frames never cross the veth:
# they travel on the emulated wire. Needs root (ip netns).
set -eu

cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { sed -n '5,9p' "$0"; exit 2; }
case $dir in /*) ;; *) dir=$(pwd)/$dir ;; esac
ns=mlx5emu-$(printf '%s' "$dir" | cksum | cut -d' ' -f1)

case $cmd in
up)
	n=${3:-2}
	wire=${4:-w0}
	[ "$n" -ge 1 ] && [ "$n" -le 8 ] || { echo "1 to 8 ports" >&2; exit 2; }
	rm -rf "$dir"
	mkdir -p "$dir/pci" "$dir/drivers/mlx5_core" "$dir/ib"
	ip netns del "$ns" 2>/dev/null || true
	ip netns add "$ns"
	devs=""
	allow=""
	i=0
	while [ "$i" -lt "$n" ]; do
		bdf=$(printf '0000:c1:00.%d' "$i")
		mac=$(printf '02:00:00:00:c1:%02x' "$i")
		f=$dir/pci/$bdf
		mkdir -p "$f/net/emu$i" "$dir/ib/mlx5emu$i"
		echo 0x15b3 >"$f/vendor"
		echo 0x1017 >"$f/device"
		echo 0x15b3 >"$f/subsystem_vendor"
		echo 0x0007 >"$f/subsystem_device"
		echo 0x020000 >"$f/class"
		echo 0 >"$f/numa_node"
		: >"$f/resource"
		for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13; do
			echo '0x0000000000000000 0x0000000000000000 0x0000000000000000' \
				>>"$f/resource"
		done
		ln -s ../../drivers/mlx5_core "$f/driver"
		printf 'DRIVER=mlx5_core\nPCI_SLOT_NAME=%s\n' "$bdf" >"$f/uevent"
		echo 0 >"$f/net/emu$i/dev_port"
		ln -s "../../pci/$bdf" "$dir/ib/mlx5emu$i/device"
		ip -n "$ns" link add "emu$i" type veth peer name "emu${i}p"
		ip -n "$ns" link set "emu$i" address "$mac"
		ip -n "$ns" link set "emu${i}p" up
		ip -n "$ns" link set "emu$i" up
		devs="$devs${devs:+;}name=mlx5emu$i,path=$dir/ib/mlx5emu$i,wire=$wire,mac=$mac"
		allow="$allow -a $bdf"
		echo "MLX5_HARNESS_MAC$i=$mac"
		i=$((i + 1))
	done
	echo "SYSFS_PCI_DEVICES='$dir/pci'"
	echo "MLX5_EMU_DEVICES='$devs'"
	echo "MLX5_HARNESS_NS=$ns"
	echo "MLX5_HARNESS_ALLOW='$allow'"
	;;
down)
	ip netns del "$ns" 2>/dev/null || true
	rm -rf "$dir"
	;;
*)
	sed -n '5,9p' "$0"
	exit 2
	;;
esac
