#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# Set up the machine (root), build, and run the main job: the library demo
# on the emulated HCA (CQs on the DevX and verbs paths, a few million
# completions written by the model and polled).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
sh devtools/setup.sh
sh devtools/build.sh
exec build/app/bench-cq/dpdk-bench-cq --no-pci --in-memory -l 0 \
	--log-level=lib.eal:error -- demo
