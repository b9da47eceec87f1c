#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# Set up the machine (root), build, and run every test suite through
# `meson test`. Ends with "N passed, N failed" summed over all unit test
# cases (a suite that crashes before printing its own total counts as one
# failure).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
sh devtools/setup.sh
sh devtools/build.sh
rc=0
meson test -C build --num-processes 2 --print-errorlogs || rc=$?
python3 devtools/test-summary.py build/meson-logs/testlog.json || rc=1
exit $rc
