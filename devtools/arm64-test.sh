#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# Build mlx5cq for AArch64 and run its unit set there (meson suite
# "nohuge": every unit suite in one process, without hugepages) under
# QEMU's user-mode emulation (run as root, after devtools/setup.sh, which
# installs the cross compiler and QEMU):
#  - .cache/arm64/root (never committed) holds Debian 12's arm64
#    libdpdk-dev (the version installed here, whose source setup.sh
#    prepared), libibverbs-dev, libssl-dev, libc6-dev and their
#    dependencies, unpacked without running anything: apt (arm64, its own
#    state in .cache/arm64/apt) resolves and downloads them from the
#    package sources of this machine's apt configuration;
#  - aarch64-linux-gnu-gcc compiles with that root as its sysroot
#    (.cache/arm64/cross.ini, written here: pkg-config reads the root's
#    .pc files); DPDK's meson configure of the prepared source runs once
#    with it (mlx5_autoconf.h, .cache/arm64/dpdk), the project is built in
#    .cache/arm64/build;
#  - qemu-aarch64-static runs the arm64 programs with the root as its
#    library prefix (QEMU_LD_PREFIX, also for the programs a test starts,
#    through QEMU's binfmt_misc handler).
# The log is .cache/arm64/build/meson-logs/testlog.json (devtools/test.sh
# adds it to its summary). What it shows: the NEON poll fills the scalar
# poll's records (suite vec) and everything else holds where
# RTE_CACHE_LINE_SIZE is 128 (rte_common_mlx5's 128 B CQEs, mempool object
# headers). Times under QEMU say nothing about Arm hardware.
# Exit status: meson test's, 1 when anything before it fails.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cache="$top/.cache/arm64"
root="$cache/root"
apt="$cache/apt"
build="$cache/build"
triplet=aarch64-linux-gnu

log() { printf 'arm64-test: %s\n' "$*"; }
fail() {
	echo "arm64-test: $*" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || fail "must run as root (apt, binfmt_misc)"
ver=$(dpkg-query -W -f='${Version}' libdpdk-dev)
dsrc="$top/.cache/dpdk/src"
ready=1
[ -f "$top/.cache/dpdk/.prepared-$ver" ] || ready=0
for c in $triplet-gcc qemu-aarch64-static update-binfmts dpkg-deb; do
	command -v "$c" >/dev/null || ready=0
done
[ $ready = 1 ] || fail "run devtools/setup.sh first (DPDK $ver source," \
	"gcc-$triplet, qemu-user-static, binfmt-support)"

# AArch64 ELF files run through qemu-aarch64-static: the test programs
# start copies of themselves (execv of /proc/self/exe).
bfm=/proc/sys/fs/binfmt_misc
if [ ! -e $bfm/qemu-aarch64 ]; then
	[ -e $bfm/register ] || mount -t binfmt_misc binfmt_misc $bfm
	update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
fi
if [ ! -e $bfm/qemu-aarch64 ]; then
	grep '^:qemu-aarch64:' /usr/lib/binfmt.d/qemu-aarch64.conf \
		> $bfm/register
fi
grep -q enabled $bfm/qemu-aarch64 ||
	fail "QEMU's aarch64 binfmt_misc handler is not enabled"

# apt for arm64 with its own lists, archives and an empty dpkg status (every
# dependency is downloaded), the machine's configuration and package
# sources otherwise (without the deb-src entries setup.sh adds).
apt_get() {
	apt-get -q -o APT::Architecture=arm64 -o APT::Architectures::=arm64 \
		-o Dir::State::Lists="$apt/lists" \
		-o Dir::State::status="$apt/status" \
		-o Dir::Cache::Archives="$apt/archives" \
		-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= \
		-o Dir::Etc::SourceList="$apt/sources.list" \
		-o Dir::Etc::SourceParts="$apt/sources.list.d" \
		-o Acquire::Languages=none "$@"
}

# Unpack one package into the root: only what compiling, linking and
# running need (no documentation, translations, perl, DPDK's static
# libraries).
unpack() {
	dpkg-deb --fsys-tarfile "$1" | tar -x --keep-directory-symlink \
		-C "$root" --exclude=./usr/share/doc --exclude=./usr/share/man \
		--exclude=./usr/share/locale --exclude='./usr/share/perl*' \
		--exclude="./usr/lib/$triplet/perl*" \
		--exclude="./usr/lib/$triplet/gconv" \
		--exclude="./usr/lib/$triplet/librte_*.a" -f -
}

if [ ! -f "$cache/.root-$ver" ]; then
	log "arm64 packages from this machine's apt sources (a minute or two)"
	! grep -q " $cache/" /proc/mounts || fail "mounts left under $cache"
	rm -rf "$cache"
	mkdir -p "$apt/lists/partial" "$apt/archives/partial" \
		"$apt/sources.list.d"
	: > "$apt/status"
	: > "$apt/sources.list"
	[ ! -f /etc/apt/sources.list ] ||
		cp /etc/apt/sources.list "$apt/sources.list"
	for f in /etc/apt/sources.list.d/*; do
		[ -f "$f" ] || continue
		case "$f" in *mlx5cq*) continue ;; esac
		cp "$f" "$apt/sources.list.d/"
	done
	{
		apt_get update &&
		apt_get install --download-only --no-install-recommends -y \
			"libdpdk-dev=$ver" libibverbs-dev libssl-dev libc6-dev
	} > "$cache/apt.log" 2>&1 || {
		tail -20 "$cache/apt.log" >&2
		fail "no arm64 libdpdk-dev $ver with its dependencies from" \
			"this machine's apt sources (/etc/apt/sources.list," \
			"/etc/apt/sources.list.d; log: $cache/apt.log)"
	}
	# Merged /usr, as Debian 12 installs it.
	for d in bin sbin lib; do
		mkdir -p "$root/usr/$d"
		ln -s "usr/$d" "$root/$d"
	done
	for deb in "$apt"/archives/*.deb; do
		unpack "$deb" || fail "cannot unpack $deb"
	done
	# Absolute links (libm.so -> /lib/...) would leave the root when the
	# linker follows them: make them relative.
	find "$root" -type l -lname '/*' | while read -r l; do
		ln -sfr "$root$(readlink "$l")" "$l"
	done
	rm -f "$apt"/archives/*.deb
	touch "$cache/.root-$ver"
fi

# Meson's cross file: the cross compiler with the root as sysroot,
# pkg-config on the root's .pc files (meson sets PKG_CONFIG_LIBDIR and
# PKG_CONFIG_SYSROOT_DIR from them), QEMU to run what meson runs; DPDK's
# generic Armv8 platform (config/arm/arm64_armv8_linux_gcc).
cat > "$cache/cross.ini" <<EOF
[constants]
root = '$root'

[binaries]
c = '$triplet-gcc'
ar = '$triplet-gcc-ar'
strip = '$triplet-strip'
pkgconfig = 'pkg-config'
exe_wrapper = ['qemu-aarch64-static', '-L', root]

[built-in options]
c_args = ['--sysroot=' + root]
c_link_args = ['--sysroot=' + root]

[properties]
sys_root = root
pkg_config_libdir = [root / 'usr/lib/$triplet/pkgconfig',
	root / 'usr/share/pkgconfig']
platform = 'generic'

[host_machine]
system = 'linux'
cpu_family = 'aarch64'
cpu = 'armv8-a'
endian = 'little'
EOF
export QEMU_LD_PREFIX="$root"

if [ ! -f "$cache/dpdk/.prepared-$ver" ]; then
	log "configuring DPDK $ver for arm64 (mlx5_autoconf.h)"
	rm -rf "$cache/dpdk"
	if ! (cd "$dsrc" && meson setup --cross-file "$cache/cross.ini" \
		-Denable_drivers=common/mlx5,bus/pci,bus/auxiliary,bus/vdev \
		-Denable_apps=test-pmd -Dtests=false -Dexamples= \
		"$cache/dpdk") > "$cache/dpdk-configure.log" 2>&1 ||
	    [ ! -f "$cache/dpdk/drivers/common/mlx5/mlx5_autoconf.h" ]; then
		tail -20 "$cache/dpdk-configure.log" >&2
		fail "DPDK's configure for arm64 failed" \
			"(log: $cache/dpdk-configure.log)"
	fi
	touch "$cache/dpdk/.prepared-$ver"
fi

if [ ! -f "$build/build.ninja" ]; then
	meson setup --cross-file "$cache/cross.ini" -Ddpdk_src="$dsrc" \
		-Ddpdk_build="$cache/dpdk" "$build" "$top" \
		> "$cache/setup.log" 2>&1 || {
		tail -20 "$cache/setup.log" >&2
		fail "meson setup for arm64 failed (log: $cache/setup.log)"
	}
fi
log "building ($triplet-gcc)"
ninja -C "$build" > "$cache/ninja.log" 2>&1 || {
	grep -E 'error|FAILED' "$cache/ninja.log" | head -20 >&2
	fail "the arm64 build failed (log: $cache/ninja.log)"
}
log "unit set on AArch64 (QEMU)"
rm -f "$build/meson-logs/testlog.json"
meson test -C "$build" --suite nohuge --no-rebuild --print-errorlogs
