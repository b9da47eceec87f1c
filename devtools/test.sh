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
# counts as one failure in the summary). devtools/check-symbols.sh checks
# the symbol maps and exports of ./build (its failure fails the command).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
sh devtools/setup.sh
sh devtools/build.sh
rc=0
meson test -C build --num-processes 2 --print-errorlogs || rc=$?
sh devtools/check-symbols.sh || rc=$?
sh devtools/build.sh asan || rc=$?
if [ -f build-asan/build.ninja ]; then
	rm -f build-asan/meson-logs/testlog.json
	meson test -C build-asan --suite unit --suite nohuge --num-processes 2 \
		--print-errorlogs || rc=$?
fi
sh devtools/build.sh fuzz || rc=$?
if [ -f build-fuzz/build.ninja ]; then
	rm -f build-fuzz/meson-logs/testlog.json
	meson test -C build-fuzz --suite fuzz --print-errorlogs || rc=$?
fi
python3 devtools/test-summary.py build/meson-logs/testlog.json \
	build-asan/meson-logs/testlog.json \
	build-fuzz/meson-logs/testlog.json || rc=1
exit $rc
