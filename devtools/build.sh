#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# Configure (once) and build mlx5cq in ./build, or with "asan" in
# ./build-asan: gcc with AddressSanitizer (leak checking included) and
# UndefinedBehaviorSanitizer (-Db_lundef=false: the shared libraries leave
# the sanitizer runtime's symbols to the executable); with "fuzz" in
# ./build-fuzz: clang, libFuzzer targets of app/fuzz, ASan + UBSan,
# warnings as errors (not with --dpdk).
#
# --dpdk PREFIX (first argument): build against the DPDK installed in
# PREFIX by devtools/dpdk-build.sh instead of Debian's: its pkg-config
# files, libraries and apps, and the source and build trees named in
# PREFIX/mlx5cq-dpdk.env; the build folders are then ./build-dpdk-VERSION
# (-asan, -fuzz).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
dir=build
opts=
prefix=
if [ "${1:-}" = --dpdk ]; then
	prefix=$(cd "${2:?--dpdk needs a prefix}" && pwd)
	shift 2
	dpdk_src= dpdk_build=
	. "$prefix/mlx5cq-dpdk.env"
	export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
	export LD_LIBRARY_PATH="$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export PATH="$prefix/bin:$PATH"
	dir=build-dpdk-$(pkg-config --modversion libdpdk)
	opts="-Dpkg_config_path=$PKG_CONFIG_PATH -Ddpdk_src=$dpdk_src"
	opts="$opts -Ddpdk_build=$dpdk_build"
fi
if [ "${1:-}" = asan ]; then
	dir=$dir-asan
	opts="$opts -Db_sanitize=address,undefined -Db_lundef=false"
elif [ "${1:-}" = fuzz ]; then
	dir=$dir-fuzz
	opts="$opts -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false"
	CC=clang
	# The one clang build: its warnings are errors against Debian's
	# DPDK, so the clang-only paths (the AVX2 files built apart with
	# -mavx2, no "#pragma GCC") stay clean.
	[ -n "$prefix" ] || opts="$opts -Dwerror=true"
fi
if [ ! -f $dir/build.ninja ]; then
	# shellcheck disable=SC2086 # opts is a list of options
	CC=${CC:-gcc} meson setup $opts $dir >/dev/null
fi
ninja -C $dir >/dev/null || ninja -C $dir
