#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# Configure (once) and build mlx5cq in ./build, or with "asan" in
# ./build-asan: gcc with AddressSanitizer (leak checking included) and
# UndefinedBehaviorSanitizer (-Db_lundef=false: the shared libraries leave
# the sanitizer runtime's symbols to the executable); with "fuzz" in
# ./build-fuzz: clang, libFuzzer targets of app/fuzz, ASan + UBSan.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
dir=build
opts=
if [ "${1:-}" = asan ]; then
	dir=build-asan
	opts="-Db_sanitize=address,undefined -Db_lundef=false"
elif [ "${1:-}" = fuzz ]; then
	dir=build-fuzz
	opts="-Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false"
	CC=clang
fi
if [ ! -f $dir/build.ninja ]; then
	# shellcheck disable=SC2086 # opts is a list of options
	CC=${CC:-gcc} meson setup $opts $dir >/dev/null
fi
ninja -C $dir >/dev/null || ninja -C $dir
