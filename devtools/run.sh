#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# Set up the machine (root), build, and run the main job: dpdk-testpmd with
# two net_mlx5cq ports on one emulated wire, io forwarding for a few seconds
# (--tx-first), then testpmd's port statistics.
#
#   run.sh [SECONDS] [DEVARGS]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
sh devtools/setup.sh
sh devtools/build.sh
if [ -n "${2:-}" ]; then
	exec sh devtools/testpmd.sh -t "${1:-5}" -a "$2"
fi
exec sh devtools/testpmd.sh -t "${1:-5}"
