#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# Long fuzz runs: build ./build-fuzz (clang, libFuzzer, ASan + UBSan) and
# run one target for SECONDS (default 3600):
#   sh fuzz.sh poll|emu_cmd [SECONDS]
# Inputs found go to build-fuzz/app/fuzz/out/TARGET/corpus, findings to
# build-fuzz/app/fuzz/out/TARGET/ (crash-*, leak-*, timeout-*). Merge the
# interesting new inputs into the seed corpus by hand (libFuzzer -merge=1).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
target=${1:?usage: fuzz.sh poll|emu_cmd [SECONDS]}
secs=${2:-3600}
case "$target" in
poll|emu_cmd) ;;
*) echo "fuzz.sh: unknown target $target (poll, emu_cmd)" >&2; exit 2 ;;
esac
sh devtools/build.sh fuzz
exec sh devtools/fuzz-run.sh "build-fuzz/app/fuzz/fuzz-$target" \
	"app/fuzz/corpus/$target" "build-fuzz/app/fuzz/out/$target" "$secs"
