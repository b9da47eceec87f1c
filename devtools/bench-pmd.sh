#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# One benchmark run for the net_mlx5cq guide:
#  - dpdk-testpmd io forward rate (devtools/testpmd.sh: two ports, one
#    forwarding core, best 1 s period of RX over all ports) on net_mlx5cq
#    (emulated wire), net_null and net_ring, REPS times each, median;
#  - pmd_perf_autotest (Debian's dpdk-test, one port looping back) on
#    net_mlx5cq and net_ring, REPS times each, median of its
#    "Result: N cycles per packet" (cycles of rx_burst + tx_burst per
#    packet received, measured with rte_rdtsc on the worker lcore).
# Prints a table. The figures depend on the machine and on its load: run
# it on an otherwise idle machine.
#
#   bench-pmd.sh [-b BUILD] [-r REPS] [-t SECONDS]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/build"
reps=3
secs=5
while getopts b:r:t: opt; do
	case $opt in
	b) build=$(cd "$OPTARG" && pwd -P) ;;
	r) reps=$OPTARG ;;
	t) secs=$OPTARG ;;
	*) sed -n '2,17p' "$0"; exit 2 ;;
	esac
done
drivers=$(cd "$build/drivers" && pwd -P)

median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "n/a"; exit }
		if (NR % 2) print v[(NR + 1) / 2]
		else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

fwd_rate() {
	"$top/devtools/testpmd.sh" -b "$build" -t "$secs" -p "$1" |
		sed -n 's/.*io forward \([0-9.]*\) Mpps.*/\1/p'
}

perf_cycles() {
	echo pmd_perf_autotest |
	LD_LIBRARY_PATH="$drivers${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
	timeout 600 dpdk-test --no-pci --in-memory -l 0,1 \
		--log-level=lib.eal:error $1 2>&1 |
		awk '/^Result: [0-9]+ cycles per packet$/ { r = $2 }
		     /^Test OK/ { ok = 1 }
		     END { if (ok && r != "") print r }'
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=1
while [ "$i" -le "$reps" ]; do
	for p in mlx5cq null ring; do
		fwd_rate "$p" >>"$tmp/fwd-$p"
	done
	perf_cycles "-d $drivers --vdev net_mlx5cq0,dev=emu,wire=bench0" \
		>>"$tmp/perf-mlx5cq"
	perf_cycles "--vdev net_ring0" >>"$tmp/perf-ring"
	i=$((i + 1))
done

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 |
	sed 's/^ *//'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %-28s %-28s\n' PMD "io fwd Mpps (median; runs)" \
	"pmd_perf cycles/pkt (median; runs)"
for p in mlx5cq null ring; do
	f="$(median <"$tmp/fwd-$p"); $(tr '\n' ' ' <"$tmp/fwd-$p")"
	if [ -f "$tmp/perf-$p" ]; then
		c="$(median <"$tmp/perf-$p"); $(tr '\n' ' ' <"$tmp/perf-$p")"
	else
		c="-"
	fi
	printf '%-10s %-28s %-28s\n' "net_$p" "$f" "$c"
done
