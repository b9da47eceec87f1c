#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# Build mlx5cq for AArch64 and run its unit set there (meson suite
# "nohuge": every unit suite in one process, without hugepages), under
# QEMU's user-mode emulation, in a Debian 12 arm64 root (run as root, after
# devtools/setup.sh, which installs debootstrap and QEMU):
#  - .cache/arm64/root (never committed) is made once with debootstrap
#    from the Debian archive of the machine's apt configuration (none
#    found: the script stops and says so): Debian's arm64 DPDK (the version
#    installed here, whose source setup.sh prepared) and rdma-core, meson,
#    gcc; QEMU's aarch64 binfmt handler runs its programs;
#  - the prepared DPDK source is copied in and DPDK's meson configure run
#    there once (mlx5_autoconf.h);
#  - the project's tree (without build folders, .cache and .git) is
#    copied to /mlx5cq/src in the root, configured into
#    /mlx5cq/build-arm64 and built with the root's own gcc.
# The log is .cache/arm64/root/mlx5cq/build-arm64/meson-logs/testlog.json
# (devtools/test.sh adds it to its summary). What it shows: the NEON poll
# fills the scalar poll's records (suite vec) and everything else holds
# where RTE_CACHE_LINE_SIZE is 128 (rte_common_mlx5's 128 B CQEs, mempool
# object headers). Times under QEMU say nothing about Arm hardware.
# Exit status: meson test's.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cache="$top/.cache/arm64"
root="$cache/root"
packages="libdpdk-dev libibverbs-dev libssl-dev meson ninja-build pkg-config
	gcc libc6-dev python3-pyelftools"

log() { printf 'arm64-test: %s\n' "$*"; }

if [ "$(id -u)" != 0 ]; then
	echo "arm64-test: must run as root (debootstrap, chroot)" >&2
	exit 1
fi
ver=$(dpkg-query -W -f='${Version}' libdpdk-dev)
dsrc="$top/.cache/dpdk/src"
ready=1
[ -f "$top/.cache/dpdk/.prepared-$ver" ] || ready=0
for c in debootstrap qemu-aarch64-static update-binfmts; do
	command -v $c >/dev/null || ready=0
done
if [ $ready = 0 ]; then
	echo "arm64-test: run devtools/setup.sh first (DPDK $ver source," \
		"debootstrap, qemu-user-static, binfmt-support)" >&2
	exit 1
fi

# AArch64 ELF files run through qemu-aarch64-static (registered with the
# F flag: the handler is opened now, so it works inside the chroot).
bfm=/proc/sys/fs/binfmt_misc
if [ ! -e $bfm/qemu-aarch64 ]; then
	[ -e $bfm/register ] || mount -t binfmt_misc binfmt_misc $bfm
	update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
fi
if [ ! -e $bfm/qemu-aarch64 ]; then
	grep '^:qemu-aarch64:' /usr/lib/binfmt.d/qemu-aarch64.conf \
		> $bfm/register
fi
grep -q enabled $bfm/qemu-aarch64

# /proc and /sys of the root are mounted while it runs; nothing is removed
# under it while they are.
unmount() {
	for m in sys proc; do
		if mountpoint -q "$root/$m" 2>/dev/null; then
			umount -l "$root/$m"
		fi
	done
}
trap unmount EXIT INT TERM
unmount
if grep -q " $root/" /proc/mounts; then
	echo "arm64-test: mounts left under $root" >&2
	exit 1
fi

# The Debian archive the root is made from: the one this machine's apt
# configuration uses for bookworm's main packages. First apt's own view
# (apt-get indextargets: the deb targets of release bookworm whose Release
# file says Origin Debian, once apt-get update has fetched them), then the
# sources files themselves (one-line .list and deb822 .sources entries:
# type deb, suite bookworm, component main). No archive is built in.
archive_from_apt() {
	# shellcheck disable=SC2016 # apt's $(REPO_URI), not the shell's
	apt-get indextargets --format '$(REPO_URI)' 'Release: bookworm' \
		'Target-Of: deb' 'Origin: Debian' 2>/dev/null | head -n 1
}
archive_from_sources() {
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		# deb [options] URI SUITE COMPONENT...
		awk '$1 == "deb" {
			i = 2
			if ($i ~ /^\[/) {
				while (i < NF && $i !~ /\]$/)
					i++
				i++
			}
			if ($(i + 1) != "bookworm")
				next
			for (c = i + 2; c <= NF; c++)
				if ($c == "main") {
					print $i
					exit
				}
		}' "$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		# Paragraphs of "Field: value" lines.
		awk 'BEGIN { RS = ""; FS = "\n" }
		{
			types = uris = suites = comps = ""
			enabled = "yes"
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^#/)
					continue
				k = tolower($i)
				sub(/:.*/, "", k)
				v = $i
				sub(/^[^:]*:[ \t]*/, "", v)
				if (k == "types") types = " " v " "
				else if (k == "uris") uris = v
				else if (k == "suites") suites = " " v " "
				else if (k == "components") comps = " " v " "
				else if (k == "enabled") enabled = tolower(v)
			}
			if (enabled == "no" || types !~ / deb / ||
			    suites !~ / bookworm / || comps !~ / main / ||
			    uris == "")
				next
			split(uris, u, " ")
			print u[1]
			exit
		}' "$f"
	done
}

if [ ! -f "$cache/.root-ready" ]; then
	mirror=$(archive_from_apt)
	[ -n "$mirror" ] || mirror=$(archive_from_sources | head -n 1)
	if [ -z "$mirror" ]; then
		echo "arm64-test: no Debian archive for bookworm (deb, main) in" \
			"this machine's apt configuration (apt-get indextargets," \
			"/etc/apt/sources.list, /etc/apt/sources.list.d):" \
			"add one, run apt-get update, and run this again" >&2
		exit 1
	fi
	log "making the arm64 root from $mirror (debootstrap, a few minutes)"
	rm -rf "$root"
	mkdir -p "$cache"
	# shellcheck disable=SC2086 # the list's blanks become commas
	debootstrap --arch=arm64 --variant=minbase \
		--include="$(echo $packages | tr ' ' ',')" bookworm "$root" \
		"$mirror" > "$cache/debootstrap.log" 2>&1 || {
		tail -20 "$cache/debootstrap.log" >&2
		exit 1
	}
	# The machine's package sources (updates, security), for the DPDK
	# version installed here.
	cp /etc/apt/sources.list "$root/etc/apt/" 2>/dev/null || true
	for f in /etc/apt/sources.list.d/*; do
		[ -f "$f" ] || continue
		case "$f" in *mlx5cq*) continue ;; esac
		cp "$f" "$root/etc/apt/sources.list.d/"
	done
	touch "$cache/.root-ready"
fi

mount -t proc none "$root/proc"
mount --bind /sys "$root/sys"
in_root() { chroot "$root" /bin/sh -c "$1"; }

rver=$(in_root "dpkg-query -W -f='\${Version}' libdpdk-dev")
if [ "$rver" != "$ver" ]; then
	log "arm64 DPDK $rver, installing $ver"
	in_root "apt-get update -q >/dev/null &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		libdpdk-dev=$ver >/dev/null"
fi

dst="$root/mlx5cq"
if [ ! -f "$dst/dpdk/.prepared-$ver" ]; then
	log "configuring DPDK $ver for arm64 (mlx5_autoconf.h)"
	rm -rf "$dst/dpdk"
	mkdir -p "$dst/dpdk"
	cp -a "$dsrc" "$dst/dpdk/src"
	in_root "cd /mlx5cq/dpdk/src && meson setup /mlx5cq/dpdk/build \
		-Denable_drivers=common/mlx5,bus/pci,bus/auxiliary,bus/vdev \
		-Denable_apps=test-pmd -Dtests=false -Dexamples= \
		-Dplatform=generic > /mlx5cq/dpdk/configure.log 2>&1" || {
		tail -20 "$dst/dpdk/configure.log" >&2
		exit 1
	}
	touch "$dst/dpdk/.prepared-$ver"
fi

log "copying the tree"
rm -rf "$dst/src"
mkdir -p "$dst/src"
(cd "$top" && tar -c --exclude=./build --exclude='./build-*' \
	--exclude=./.cache --exclude=./.git .) | tar -x -C "$dst/src"
if [ ! -f "$dst/build-arm64/build.ninja" ]; then
	in_root "cd /mlx5cq/src && meson setup /mlx5cq/build-arm64 \
		-Ddpdk_src=/mlx5cq/dpdk/src -Ddpdk_build=/mlx5cq/dpdk/build \
		> /mlx5cq/setup.log 2>&1" || {
		tail -20 "$dst/setup.log" >&2
		exit 1
	}
fi
log "building (gcc under QEMU, a few minutes)"
in_root "ninja -C /mlx5cq/build-arm64 > /mlx5cq/ninja.log 2>&1" || {
	grep -E 'error|FAILED' "$dst/ninja.log" | head -20 >&2
	exit 1
}
log "unit set on AArch64"
rm -f "$dst/build-arm64/meson-logs/testlog.json"
in_root "meson test -C /mlx5cq/build-arm64 --suite nohuge --no-rebuild \
	--print-errorlogs"
