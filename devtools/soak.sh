#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# Soak (not in CI; results in doc/guides/net_mlx5cq.rst, "Soak"):
#   sh soak.sh [MINUTES] [COMPLETIONS]
# 1. dpdk-testpmd with two net_mlx5cq ports on one emulated wire for
#    MINUTES (default 5): io and mac forward, start/stop, port stop/start
#    with new queue and descriptor counts, packet counts conserved exactly
#    per cycle (devtools/soak_testpmd.py);
# 2. COMPLETIONS (default 1e8) written by the emulated HCA's producer
#    thread into one CQ and polled (dpdk-bench-cq --no-pci ... soak).
# Builds ./build first (devtools/build.sh). Exit status non-zero on any
# failure.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
minutes=${1:-5}
count=${2:-100000000}
sh devtools/build.sh
rc=0
python3 devtools/soak_testpmd.py --build build --minutes "$minutes" || rc=1
./build/app/bench-cq/dpdk-bench-cq --no-pci --in-memory -l 0,1 \
	--log-level=lib.eal:error -- soak --count "$count" || rc=1
exit $rc
