#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# Run one libFuzzer target for a bounded time (the meson tests of suite
# "fuzz" and devtools/fuzz.sh):
#   fuzz-run.sh TARGET_BINARY SEED_DIR OUT_DIR SECONDS
# Every seed runs first, then the fuzzer mutates for SECONDS. New inputs go
# to OUT_DIR/corpus (the tree's seed folder is only read); a crash, a
# sanitizer report, a failed check, a leak or an input slower than 10 s
# leaves OUT_DIR/crash-*, leak-*, timeout-* and makes the exit non-zero.
# Reproduce one with: TARGET_BINARY OUT_DIR/crash-<sha1>
set -eu
bin=$1 seeds=$2 out=$3 secs=$4
mkdir -p "$out/corpus"
asan_default=detect_leaks=1:allocator_may_return_null=1
asan_default=$asan_default:detect_stack_use_after_return=0
export ASAN_OPTIONS="${ASAN_OPTIONS:-$asan_default}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
# -rss_limit_mb: the EAL keeps 512 MiB of --no-huge memory; -max_len: the
# largest ring image (256 entries of 128 B) and its header.
exec "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 -max_len=34000 -len_control=0 \
	-print_final_stats=1 -artifact_prefix="$out/" "$out/corpus" "$seeds"
