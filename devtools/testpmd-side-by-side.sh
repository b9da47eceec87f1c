#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# testpmd io forwarding on two ports of one emulated wire, DPDK's own
# net/mlx5 against net_mlx5cq, alternating runs in one sitting (mlx5,
# mlx5cq, mlx5, mlx5cq ...; devtools/testpmd.sh each), then the median
# rate of each and the median of the per-round ratios mlx5cq / mlx5 (the
# machine's drift between rounds cancels in the ratio).
#
#   testpmd-side-by-side.sh [-b BUILD] [-r ROUNDS] [-t SECONDS]
#
# Rates are testpmd.sh's: RX of both ports in the best 1 s period. Both
# PMDs run against the same model (its progress engine takes the second
# CPU), so the figures compare the PMDs' shares of one forwarding core.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/build"
rounds=5
secs=5
while getopts b:r:t: opt; do
	case $opt in
	b) build=$OPTARG ;;
	r) rounds=$OPTARG ;;
	t) secs=$OPTARG ;;
	*) sed -n '2,15p' "$0"; exit 2 ;;
	esac
done

rate() {
	sh "$top/devtools/testpmd.sh" -b "$build" -t "$secs" -p "$1" |
		sed -n 's/.*io forward \([0-9.]*\) Mpps.*/\1/p'
}

out=""
i=0
while [ "$i" -lt "$rounds" ]; do
	a=$(rate mlx5)
	b=$(rate mlx5cq)
	[ -n "$a" ] && [ -n "$b" ] || { echo "round $i: no rate" >&2; exit 1; }
	echo "round $((i + 1)): net/mlx5 $a Mpps, net_mlx5cq $b Mpps"
	out="$out$a $b
"
	i=$((i + 1))
done
printf '%s' "$out" | awk '
	function median(v, n,   i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
				t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
			}
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	}
	{ n++; a[n] = $1; b[n] = $2; r[n] = $1 > 0 ? $2 / $1 : 0 }
	END {
		printf "median of %d rounds: net/mlx5 %.3f Mpps, net_mlx5cq " \
		       "%.3f Mpps, ratio net_mlx5cq / net/mlx5 %.3f\n",
		       n, median(a, n), median(b, n), median(r, n)
	}'
