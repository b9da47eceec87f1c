#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# Build another DPDK release (default: the 24.11 LTS, tag v24.11.6) into a
# prefix, to build and test mlx5cq against it:
#
#   sh dpdk-build.sh [PREFIX]
#   sh devtools/test.sh --dpdk PREFIX
#
# The source comes from DPDK's upstream git (MLX5CQ_DPDK_GIT: a local
# clone or a URL; MLX5CQ_DPDK_TAG: the release tag). Source and build
# folders stay in .cache/dpdk-TAG/ (never committed): the project compiles
# against DPDK's internal headers (driver SDK, rte_common_mlx5) and
# mlx5_autoconf.h from them. PREFIX (default .cache/dpdk-TAG/prefix) gets
# the installed libraries, pkg-config files and apps, and a file
# mlx5cq-dpdk.env naming the source and build folders for
# devtools/build.sh --dpdk.
#
# Only what the project and its tests need is built: the drivers below
# (crypto/null: the crypto_* unit suites measure the cryptodev
# library's own heap use on it), dpdk-testpmd, dpdk-test and
# dpdk-test-crypto-perf, and the libraries DPDK cannot disable plus
# cryptodev (the crypto PMD) and security (dpdk-test-crypto-perf).
# Idempotent: a finished build is not redone; a build folder configured
# with other drivers or apps (an older version of this script) is
# reconfigured in place and rebuilt incrementally. MLX5CQ_DPDK_CACHE
# names another folder for source and build (default .cache/dpdk-TAG).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
tag=${MLX5CQ_DPDK_TAG:-v24.11.6}
git_src=${MLX5CQ_DPDK_GIT:-}
if [ -z "$git_src" ]; then
	if [ -d /work/.mirror/DPDK+dpdk/repo ]; then
		git_src=/work/.mirror/DPDK+dpdk/repo
	else
		git_src=https://github.com/DPDK/dpdk.git
	fi
fi
cache=${MLX5CQ_DPDK_CACHE:-$top/.cache/dpdk-${tag#v}}
prefix=${1:-$cache/prefix}
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
src="$cache/src"
build="$cache/build"

log() { printf 'dpdk-build: %s\n' "$*"; }

drivers=bus/pci,bus/vdev,bus/auxiliary,common/mlx5,mempool/ring,mempool/stack
drivers=$drivers,net/null,net/ring,crypto/null
apps=test-pmd,test,test-crypto-perf
disable_libs=argparse,ptr_compress,metrics,timer,acl,bbdev,bitratestats,bpf
disable_libs=$disable_libs,cfgfile,compressdev,distributor,dmadev,efd
disable_libs=$disable_libs,eventdev,dispatcher,gpudev,gro,gso,ip_frag,jobstats
disable_libs=$disable_libs,latencystats,lpm,member,pcapng,power,rawdev
disable_libs=$disable_libs,regexdev,mldev,rib,reorder,sched,vhost
disable_libs=$disable_libs,ipsec,pdcp,fib,port,pdump,table,pipeline,graph,node

if [ ! -f "$src/VERSION" ]; then
	log "fetching DPDK $tag from $git_src"
	rm -rf "$src"
	mkdir -p "$src"
	if [ -d "$git_src" ]; then
		git -C "$git_src" archive "$tag" | tar -x -C "$src"
	else
		git clone -q --depth 1 --branch "$tag" "$git_src" "$src"
	fi
fi
log "DPDK $(cat "$src/VERSION") in $src"
# Local fix (not upstream, still there in v26.07-rc4): cperf_create_session()
# of dpdk-test-crypto-perf leaves its transforms on the stack
# uninitialised, so cipher.dataunit_len is whatever the stack held and a
# PMD that checks it (crypto_mlx5cq: 0, 512, 4096 or 1 MiB) refuses the
# session now and then (ENOTSUP, "Unsupported case"). Zero them.
tab=$(printf '\t')
xf="^${tab}struct rte_crypto_sym_xform \\(cipher\\|auth\\|aead\\)_xform;\$"
if grep -q "$xf" "$src/app/test-crypto-perf/cperf_ops.c"; then
	log "zeroing the transforms of dpdk-test-crypto-perf's sessions"
	sed -i "s/$xf/${tab}struct rte_crypto_sym_xform \\1_xform = { 0 };/" \
		"$src/app/test-crypto-perf/cperf_ops.c"
fi

options="drivers=$drivers apps=$apps disable_libs=$disable_libs"
if [ ! -f "$build/build.ninja" ]; then
	log "configuring in $build"
	(cd "$src" && meson setup "$build" \
		--prefix="$prefix" -Dlibdir=lib \
		-Dbuildtype=release -Ddefault_library=shared \
		-Dplatform=generic -Denable_driver_sdk=true \
		-Denable_drivers="$drivers" -Ddisable_libs="$disable_libs" \
		-Denable_apps="$apps" -Dtests=true -Dexamples= \
		-Denable_docs=false > "$cache/configure.log" 2>&1) || {
		tail -30 "$cache/configure.log" >&2
		exit 1
	}
elif [ "$(cat "$cache/options" 2>/dev/null)" != "$options" ]; then
	log "reconfiguring $build (drivers $drivers, apps $apps)"
	meson configure "$build" -Denable_drivers="$drivers" \
		-Ddisable_libs="$disable_libs" -Denable_apps="$apps" \
		> "$cache/configure.log" 2>&1 || {
		tail -30 "$cache/configure.log" >&2
		exit 1
	}
fi
echo "$options" > "$cache/options"
test -f "$build/drivers/common/mlx5/mlx5_autoconf.h"

log "building (nice ninja -j${MLX5CQ_JOBS:-2})"
nice ninja -C "$build" -j"${MLX5CQ_JOBS:-2}" > "$cache/build.log" 2>&1 || {
	tail -30 "$cache/build.log" >&2
	exit 1
}
meson install -C "$build" --quiet > "$cache/install.log" 2>&1 || {
	tail -30 "$cache/install.log" >&2
	exit 1
}
# dpdk-test beside dpdk-testpmd (when DPDK's install left it out).
[ -x "$prefix/bin/dpdk-test" ] ||
	cp "$build/app/dpdk-test" "$prefix/bin/dpdk-test"

cat > "$prefix/mlx5cq-dpdk.env" <<EOF
dpdk_src=$src
dpdk_build=$build
EOF
log "installed in $prefix ($prefix/mlx5cq-dpdk.env)"
