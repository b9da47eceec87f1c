#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# Set up the machine (root), build, and run every test suite through
# `meson test`; then build ./build-asan (AddressSanitizer with leak
# checking + UndefinedBehaviorSanitizer) and run the unit suites there
# once more (meson suites "unit" and "nohuge": the testpmd and dpdk-test
# drivers load the PMD into binaries built without the sanitizer runtime,
# so they run in ./build only). Ends with "N passed, N failed" summed over all unit
# test cases of both builds (a suite that crashes or whose sanitizer
# reports before or after printing its own total counts as one failure).
# Then ./build-fuzz (clang, libFuzzer, ASan + UBSan) runs each fuzz target
# of app/fuzz for 60 s (meson suite "fuzz"; a finding fails its test and
# counts as one failure in the summary), and devtools/arm64-test.sh builds
# the project for AArch64 and runs the unit set there under QEMU (its
# cases count in the summary too).
#
# --dpdk PREFIX: the same against the DPDK that devtools/dpdk-build.sh
# installed in PREFIX (devtools/build.sh --dpdk: build folders
# ./build-dpdk-VERSION, -asan, -fuzz; its libraries and dpdk-testpmd /
# dpdk-test come first in LD_LIBRARY_PATH and PATH).
# devtools/check-symbols.sh checks the symbol maps and exports of ./build
# (its failure fails the command).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
b=build
dpdk=
if [ "${1:-}" = --dpdk ]; then
	prefix=$(cd "${2:?--dpdk needs a prefix}" && pwd)
	dpdk="--dpdk $prefix"
	export LD_LIBRARY_PATH="$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export PATH="$prefix/bin:$PATH"
	b=build-dpdk-$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" \
		pkg-config --modversion libdpdk)
fi
sh devtools/setup.sh
# shellcheck disable=SC2086 # dpdk is empty or two words
sh devtools/build.sh $dpdk
rc=0
meson test -C $b --num-processes 2 --print-errorlogs || rc=$?
# meson install into the real prefix (the PMD in DPDK's PMD folder), the
# example and testpmd through it, other DPDK apps unaffected, uninstall
# (the installed DPDK only).
if [ -z "$dpdk" ]; then
	sh tests/install_check.sh system build || rc=$?
fi
# The guides (sphinx -W) and the API reference (doxygen, warnings as
# errors) into build/doc.
sh devtools/build-docs.sh || rc=$?
if [ -z "$dpdk" ]; then
	sh devtools/check-symbols.sh || rc=$?
fi
# shellcheck disable=SC2086
sh devtools/build.sh $dpdk asan || rc=$?
if [ -f $b-asan/build.ninja ]; then
	rm -f $b-asan/meson-logs/testlog.json
	meson test -C $b-asan --suite unit --suite nohuge --num-processes 2 \
		--print-errorlogs || rc=$?
fi
# shellcheck disable=SC2086
sh devtools/build.sh $dpdk fuzz || rc=$?
if [ -f $b-fuzz/build.ninja ]; then
	rm -f $b-fuzz/meson-logs/testlog.json
	meson test -C $b-fuzz --suite fuzz --print-errorlogs || rc=$?
fi
# The unit set on AArch64 (QEMU user mode, Debian's arm64 DPDK): the NEON
# poll and 128-byte cache lines.
logs="$b/meson-logs/testlog.json $b-asan/meson-logs/testlog.json
	$b-fuzz/meson-logs/testlog.json"
if [ -z "$dpdk" ]; then
	sh devtools/arm64-test.sh || rc=$?
	logs="$logs .cache/arm64/root/mlx5cq/build-arm64/meson-logs/testlog.json"
fi
# shellcheck disable=SC2086 # one word per log
python3 devtools/test-summary.py $logs || rc=1
exit $rc
