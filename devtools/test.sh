#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# Set up the machine (root), build, and run every test suite through
# `meson test`; then build ./build-asan (AddressSanitizer with leak
# checking + UndefinedBehaviorSanitizer) and run the unit suites there
# once more (meson suites "unit" and "nohuge": the testpmd and dpdk-test
# drivers load the PMD into binaries built without the sanitizer runtime,
# so they run in ./build only). Then ./build-fuzz (clang, libFuzzer,
# ASan + UBSan) runs each fuzz target of app/fuzz for 60 s (meson suite
# "fuzz"), and devtools/arm64-test.sh builds the project for AArch64 and
# runs the unit set there under QEMU.
#
# Every step that can fail is one step of the closing summary: setup, each
# build, each `meson test` run, the install into the real prefix
# (tests/install_check.sh system), the documentation
# (devtools/build-docs.sh), the symbol checks (devtools/check-symbols.sh)
# and the AArch64 run. Each appends "NAME<tab>STATUS<tab>LOG<tab>OUT" to
# BUILD/test-steps.txt (STATUS: its exit status, or "-" when it could not
# run because what it needs failed; LOG: the meson test log it wrote, or
# "-"; OUT: what it printed). devtools/test-summary.py reads that file and
# the logs, quotes the end of what each failed test and step printed, and
# ends with "N passed, N failed, N skipped": one count per step and one
# per test case of the logs (a suite that crashes or whose sanitizer reports after
# its cases passed counts as one failure; a test whose program is missing
# is skipped). Nothing of an earlier run counts: the step file and every
# log the summary reads are removed before anything else runs. The exit
# status is non-zero when anything failed.
#
# --dpdk PREFIX: the same against the DPDK that devtools/dpdk-build.sh
# installed in PREFIX (devtools/build.sh --dpdk: build folders
# ./build-dpdk-VERSION, -asan, -fuzz; its libraries and dpdk-testpmd /
# dpdk-test come first in LD_LIBRARY_PATH and PATH); without the install
# into the real prefix, the symbol checks and the AArch64 run.
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
arm64_log=.cache/arm64/build/meson-logs/testlog.json
rm -f "$b/meson-logs/testlog.json" "$b-asan/meson-logs/testlog.json" \
	"$b-fuzz/meson-logs/testlog.json" "$arm64_log"
mkdir -p "$b"
steps=$b/test-steps.txt
: > "$steps"
rc=0

# step NAME LOG COMMAND...: run COMMAND and record its exit status; its
# output goes to the terminal and to BUILD/step-logs/NAME.log, which the
# summary quotes when the step fails.
outs=$b/step-logs
rm -rf "$outs"
mkdir -p "$outs"
step() {
	name=$1 log=$2
	shift 2
	out=$outs/$(printf '%s' "$name" | tr -c 'A-Za-z0-9_.-' '_').log
	{
		status=0
		"$@" 2>&1 || status=$?
		echo "$status" >"$out.status"
	} | tee "$out"
	status=$(cat "$out.status" 2>/dev/null || echo 1)
	rm -f "$out.status"
	printf '%s\t%s\t%s\t%s\n' "$name" "$status" "$log" "$out" >> "$steps"
	[ "$status" = 0 ] || rc=1
	return 0
}
# not_run NAME LOG WHY: a step that cannot run (what it needs failed).
not_run() {
	printf 'test: %s not run: %s\n' "$1" "$3"
	printf '%s\t-\t%s\t-\n' "$1" "$2" >> "$steps"
}
# ok NAME: did step NAME pass?
ok() {
	awk -F '\t' -v n="$1" '$1 == n && $2 == "0" { f = 1 } END { exit !f }' \
		"$steps"
}

step setup - sh devtools/setup.sh
# shellcheck disable=SC2086 # dpdk is empty or two words
step "build $b" - sh devtools/build.sh $dpdk
if ok "build $b"; then
	step "meson test $b" "$b/meson-logs/testlog.json" \
		meson test -C "$b" --num-processes 2 --print-errorlogs
else
	not_run "meson test $b" "$b/meson-logs/testlog.json" "build $b failed"
fi
# meson install into the real prefix (the PMD in DPDK's PMD folder), the
# example and testpmd through it, other DPDK apps unaffected, uninstall
# (the installed DPDK only).
if [ -z "$dpdk" ]; then
	if ok "build $b"; then
		step install-system - sh tests/install_check.sh system build
	else
		not_run install-system - "build $b failed"
	fi
fi
# The guides (sphinx -W) and the API reference (doxygen, warnings as
# errors) into build/doc.
step docs - sh devtools/build-docs.sh
if [ -z "$dpdk" ]; then
	if ok "build $b"; then
		step symbols - sh devtools/check-symbols.sh
	else
		not_run symbols - "build $b failed"
	fi
fi
# shellcheck disable=SC2086
step "build $b-asan" - sh devtools/build.sh $dpdk asan
if ok "build $b-asan"; then
	step "meson test $b-asan" "$b-asan/meson-logs/testlog.json" \
		meson test -C "$b-asan" --suite unit --suite nohuge \
		--num-processes 2 --print-errorlogs
else
	not_run "meson test $b-asan" "$b-asan/meson-logs/testlog.json" \
		"build $b-asan failed"
fi
# shellcheck disable=SC2086
step "build $b-fuzz" - sh devtools/build.sh $dpdk fuzz
if ok "build $b-fuzz"; then
	step "meson test $b-fuzz" "$b-fuzz/meson-logs/testlog.json" \
		meson test -C "$b-fuzz" --suite fuzz --print-errorlogs
else
	not_run "meson test $b-fuzz" "$b-fuzz/meson-logs/testlog.json" \
		"build $b-fuzz failed"
fi
# Inside a DPDK tree (devtools/intree.sh test: DPDK's warning flags, the
# mlx5cq suites and DPDK's cryptodev suites on crypto_mlx5cq through
# dpdk-test): the first run builds the copy (DPDK's libraries, the
# drivers and dpdk-test), later ones rebuild what changed.
if [ -z "$dpdk" ]; then
	step intree - sh devtools/intree.sh test
fi
# The unit set on AArch64 (QEMU user mode, Debian's arm64 DPDK): the NEON
# poll and 128-byte cache lines. One step (root, build and the run).
if [ -z "$dpdk" ]; then
	step arm64 "$arm64_log" sh devtools/arm64-test.sh
fi
python3 devtools/test-summary.py --steps "$steps" || rc=1
exit $rc
