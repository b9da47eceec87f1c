#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# One benchmark run for the crypto_mlx5cq guide:
#  - dpdk-test-crypto-perf --no-pci ... --ptest throughput (one worker lcore, bursts of
#    32, cipher only) REPS times per PMD and buffer size, median MOps and
#    Gbps, on: crypto_mlx5cq (AES-XTS 2 x 256-bit key, emulated HCA: the
#    emulator's AES-XTS with OpenSSL runs on its own engine thread),
#    crypto_null (null cipher) and the software PMDs of Debian's DPDK,
#    crypto_openssl and crypto_aesni_mb. Debian's DPDK 22.11 software PMDs
#    have no AES-XTS: they run AES-CBC with a 256-bit key, the nearest
#    block cipher they have (the row says so);
#  - dpdk-bench-cq --no-pci ... -- perf-crypto (--algo xts, --algo gcm):
#    the PMD's dequeue cost in cycles per operation on prepared
#    completions (median of its rounds).
# The figures depend on the machine and on its load: run it on an
# otherwise idle machine.
#
#   bench-crypto.sh [-b BUILD] [-r REPS] [-n OPS]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/build"
reps=3
ops=200000
while getopts b:r:n: opt; do
	case $opt in
	b) build=$(cd "$OPTARG" && pwd -P) ;;
	r) reps=$OPTARG ;;
	n) ops=$OPTARG ;;
	*) sed -n '2,19p' "$0"; exit 2 ;;
	esac
done
drivers=$(cd "$build/drivers" && pwd -P)

median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "n/a"; exit }
		if (NR % 2) print v[(NR + 1) / 2]
		else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# perf PMD SIZE: "MOps Gbps" of one throughput run, nothing on failure.
perf() {
	case $1 in
	mlx5cq)
		dev=crypto_mlx5cq
		vdev="crypto_mlx5cq0,dev=emu,emu_crypto=plaintext"
		algo="--cipher-algo aes-xts --cipher-key-sz 64"
		eal="-d $drivers" ;;
	null)
		dev=crypto_null
		vdev=crypto_null
		algo="--cipher-algo null --cipher-key-sz 0 --cipher-iv-sz 0"
		eal="" ;;
	*)
		dev=crypto_$1
		vdev=crypto_$1
		algo="--cipher-algo aes-cbc --cipher-key-sz 32"
		eal="" ;;
	esac
	case $1 in null) ;; *) algo="$algo --cipher-iv-sz 16" ;; esac
	# shellcheck disable=SC2086 # eal and algo are word lists
	LD_LIBRARY_PATH="$drivers${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
	timeout 600 dpdk-test-crypto-perf --no-pci --in-memory -l 0,1 \
		--log-level=lib.eal:error $eal --vdev "$vdev" -- \
		--ptest throughput --devtype "$dev" --optype cipher-only \
		$algo --cipher-op encrypt --buffer-sz "$2" \
		--total-ops "$ops" --burst-sz 32 --silent 2>&1 |
		awk -v n="$ops" '$1 ~ /^[0-9]+$/ && NF >= 9 && $4 == n &&
			$5 == n { print $8, $9 }'
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pmds="mlx5cq null openssl aesni_mb"
sizes="512 4096"
i=1
while [ "$i" -le "$reps" ]; do
	for p in $pmds; do
		for s in $sizes; do
			perf "$p" "$s" >>"$tmp/$p-$s" || true
		done
	done
	for a in xts gcm; do
		LD_LIBRARY_PATH="$drivers${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		"$build/app/bench-cq/dpdk-bench-cq" --no-pci --in-memory -l 0 \
			--log-level=lib.eal:error -- perf-crypto --reps 21 \
			--algo $a 2>/dev/null |
			sed -n 's/.*median \([0-9.]*\).*/\1/p' >>"$tmp/deq-$a"
	done
	i=$((i + 1))
done

printf '%-16s %-18s %6s %10s %10s\n' PMD cipher bytes MOps Gbps
for p in $pmds; do
	case $p in
	mlx5cq) c="AES-XTS-256" ;;
	null) c="null" ;;
	*) c="AES-CBC-256" ;;
	esac
	for s in $sizes; do
		mops=$(cut -d' ' -f1 <"$tmp/$p-$s" | median)
		gbps=$(cut -d' ' -f2 <"$tmp/$p-$s" | median)
		printf '%-16s %-18s %6s %10s %10s\n' "crypto_$p" "$c" "$s" \
			"$mops" "$gbps"
	done
done
printf 'crypto_mlx5cq dequeue on prepared completions: AES-XTS %s, ' \
	"$(median <"$tmp/deq-xts")"
printf 'AES-256-GCM %s cycles/op (median of %s runs)\n' \
	"$(median <"$tmp/deq-gcm")" "$reps"
