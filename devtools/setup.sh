#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# Prepare a Debian 12 machine for building and testing mlx5cq (run as root,
# idempotent):
#  - install the Debian packages the build needs (clang and its
#    compiler-rt for the libFuzzer targets of build-fuzz);
#  - fetch Debian's DPDK source package of exactly the installed libdpdk-dev
#    version into .cache/dpdk (never committed) and run DPDK's own meson
#    configure on it once, to produce mlx5_autoconf.h;
#  - mount hugetlbfs and reserve 2 MiB hugepages.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cache="$top/.cache/dpdk"
# 1536: DPDK's event_eth_rx_intr_adapter_autotest makes pools that 512
# pages (1 GiB) cannot hold, whatever the PMD.
nr_hugepages=${MLX5CQ_HUGEPAGES:-1536}
packages="libdpdk-dev dpdk-dev dpdk libibverbs-dev ibverbs-providers rdma-core
	meson ninja-build pkg-config gcc dpkg-dev xz-utils python3-pyelftools
	python3-cryptography
	libnuma-dev libpcap-dev clang libclang-rt-14-dev git
	python3-sphinx doxygen libssl-dev iproute2"
# iproute2: ip netns for devtools/mlx5-harness.sh (DPDK's net/mlx5 on the
# emulated HCA). make: examples/cq_poll is built with its Makefile
# (tests/install_check.sh).
packages="$packages make"
# The AArch64 run (devtools/arm64-test.sh): the cross compiler, QEMU user
# mode.
packages="$packages gcc-aarch64-linux-gnu qemu-user-static binfmt-support"

log() { printf 'setup: %s\n' "$*"; }

if [ "$(id -u)" != 0 ]; then
	echo "setup: must run as root (packages, hugepages)" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive

missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	log "installing:$missing"
	apt-get update -q >/dev/null
	# shellcheck disable=SC2086
	apt-get install -y -q $missing >/dev/null
fi

ver=$(dpkg-query -W -f='${Version}' libdpdk-dev)
stamp="$cache/.prepared-$ver"
if [ ! -f "$stamp" ]; then
	# A deb-src entry for the suites the machine already uses.
	if ! apt-get source --print-uris -q "dpdk=$ver" >/dev/null 2>&1; then
		src=/etc/apt/sources.list.d/mlx5cq-deb-src.sources
		log "adding deb-src entries in $src"
		: > "$src.tmp"
		for f in /etc/apt/sources.list.d/*.sources; do
			[ -f "$f" ] || continue
			case "$f" in *mlx5cq*) continue ;; esac
			awk 'BEGIN { RS=""; ORS="\n\n" }
			     /Types:[^\n]*deb/ && /debian/ {
				gsub(/Types:[^\n]*/, "Types: deb-src"); print }' \
				"$f" >> "$src.tmp"
		done
		if [ -f /etc/apt/sources.list ]; then
			grep -E '^deb ' /etc/apt/sources.list |
				sed 's/^deb /deb-src /' > \
				/etc/apt/sources.list.d/mlx5cq-deb-src.list || true
		fi
		mv "$src.tmp" "$src"
		apt-get update -q >/dev/null
	fi
	log "fetching DPDK source package $ver"
	rm -rf "$cache"
	mkdir -p "$cache"
	(cd "$cache" && apt-get source --download-only -q "dpdk=$ver" \
		>/dev/null 2>&1)
	dsc=$(ls "$cache"/dpdk_*.dsc)
	(cd "$cache" && dpkg-source -q -x "$dsc" src >/dev/null 2>&1)
	log "configuring DPDK source (mlx5_autoconf.h)"
	(cd "$cache/src" && meson setup "$cache/build" \
		-Denable_drivers=common/mlx5,bus/pci,bus/auxiliary,bus/vdev \
		-Denable_apps=test-pmd -Dtests=false -Dexamples= \
		-Dplatform=generic > "$cache/configure.log" 2>&1) || {
		tail -20 "$cache/configure.log" >&2
		exit 1
	}
	test -f "$cache/build/drivers/common/mlx5/mlx5_autoconf.h"
	touch "$stamp"
fi

# Hugepages: mount hugetlbfs and reserve 2 MiB pages (best effort: the test
# suite also runs with --no-huge).
hp=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
if [ -w "$hp" ]; then
	cur=$(cat "$hp")
	if [ "$cur" -lt "$nr_hugepages" ]; then
		echo "$nr_hugepages" > "$hp" || true
	fi
	log "2 MiB hugepages: $(cat "$hp")"
fi
if ! grep -qs ' hugetlbfs ' /proc/mounts; then
	mkdir -p /dev/hugepages
	mount -t hugetlbfs -o pagesize=2M nodev /dev/hugepages ||
		log "could not mount hugetlbfs"
fi
log "ready"
