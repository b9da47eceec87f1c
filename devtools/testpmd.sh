#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# Run dpdk-testpmd for a few seconds on two net_mlx5cq ports of the emulated
# HCA sitting on one wire (io forward, one burst sent first), then print the
# port statistics and the forwarding rate.
#
#   testpmd.sh [-b BUILD] [-t SECONDS] [-p mlx5cq|mlx5|null|ring]
#                       [-a DEVARGS] [-e] [-- TESTPMD OPTIONS]
#
#   -b  build folder (default: build); its drivers/ folder is given to EAL
#       with -d (EAL refuses folders with a world-writable parent)
#   -t  seconds of forwarding (default 5)
#   -p  PMD of the two ports: mlx5cq (default); mlx5: DPDK's own net/mlx5
#       (Debian's, unmodified) on two devices of the emulated HCA on one
#       wire, found through devtools/mlx5-harness.sh's PCI and verbs tree
#       (EAL's PCI bus sees only that tree and probes only its -a list;
#       needs root); or null / ring to compare
#   -a  extra devargs for both mlx5cq ports (e.g. cqe_size=128,cqe_pad=1)
#   -e  print the emulated HCA's progress engine counters (its INFO line
#       when the engine stops: TSC cycles per WQE, WQEs per pass, naps)
#       and, for the forwarding lcore and the engine thread, the CPU,
#       the share of the middle of the run (1 s to SECONDS - 1 s) they
#       ran, the share they waited runnable for a CPU and their
#       involuntary context switches (/proc/PID/task/TID: schedstat,
#       status): how much of the two CPUs testpmd had
# Options after -- go to testpmd (default: --forward-mode=io --tx-first).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/build"
secs=5
pmd=mlx5cq
extra=""
elog=""
while getopts b:t:p:a:e opt; do
	case $opt in
	b) build=$(cd "$OPTARG" && pwd -P) ;;
	t) secs=$OPTARG ;;
	p) pmd=$OPTARG ;;
	a) extra=",$OPTARG" ;;
	e) elog="--log-level=pmd.common.mlx5cq_emu:info" ;;
	*) sed -n '2,28p' "$0"; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift
drivers=$(cd "$build/drivers" && pwd -P)

# EAL's -d check: no world-writable folder on the path.
d=$drivers
while [ "$d" != / ]; do
	d=$(dirname "$d")
	if [ -n "$(find "$d" -maxdepth 0 -perm -0002 2>/dev/null)" ]; then
		echo "testpmd.sh: $d is world-writable: EAL refuses -d $drivers" >&2
		exit 1
	fi
done

bus=--no-pci
run=""
harness=""
case $pmd in
mlx5cq)
	vdevs="--vdev net_mlx5cq0,dev=emu,wire=w0$extra
	       --vdev net_mlx5cq1,dev=emu,wire=w0$extra"
	dflag="-d $drivers"
	;;
mlx5)
	harness=$build/mlx5-harness.$$
	eval "$(sh "$top/devtools/mlx5-harness.sh" up "$harness" 2)"
	export SYSFS_PCI_DEVICES MLX5_EMU_DEVICES
	bus=$MLX5_HARNESS_ALLOW
	run="ip netns exec $MLX5_HARNESS_NS"
	vdevs=""
	dflag="-d $drivers"
	;;
null)
	vdevs="--vdev net_null0 --vdev net_null1"
	dflag=""
	;;
ring)
	vdevs="--vdev net_ring0 --vdev net_ring1"
	dflag=""
	;;
*)
	echo "testpmd.sh: unknown PMD $pmd" >&2
	exit 2
	;;
esac
if [ $# -eq 0 ]; then
	set -- --forward-mode=io --tx-first
fi

log=$(mktemp)
trap 'rm -f "$log"; [ -z "$harness" ] ||
	sh "$top/devtools/mlx5-harness.sh" down "$harness"' EXIT
# Non-interactive testpmd starts forwarding at once; with --stats-period it
# runs until SIGINT, then stops forwarding and prints the totals.
# shellcheck disable=SC2086
LD_LIBRARY_PATH="$drivers${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
timeout -s INT "$secs" $run dpdk-testpmd $bus --in-memory -l 0,1 \
	--log-level=lib.eal:error $elog $dflag $vdevs -- \
	--no-mlockall --stats-period 1 --nb-cores=1 "$@" </dev/null >"$log" 2>&1 &
tpid=$!

# Per thread of testpmd (the forwarding lcore, the engine): name, CPU,
# run and runqueue-wait nanoseconds, involuntary context switches, and
# the time of the sample (seconds since boot, read first).
threads() {
	up=$(cut -d' ' -f1 /proc/uptime)
	for t in /proc/"$1"/task/*; do
		c=$(cat "$t/comm" 2>/dev/null) || continue
		case $c in rte-worker-*|mlx5-emu-net) ;; *) continue ;; esac
		printf '%s %s %s %s %s\n' "$c" \
			"$(awk '{ print $39 }' "$t/stat")" \
			"$(awk '{ print $1, $2 }' "$t/schedstat")" \
			"$(awk '/^nonvoluntary_ctxt_switches/ { print $2 }' \
			   "$t/status")" "$up"
	done
}
sched=""
if [ -n "$elog" ] && [ "$secs" -ge 3 ]; then
	sleep 1
	pid=$(pgrep -P "$tpid" dpdk-testpmd || true)
	if [ -n "$pid" ]; then
		a=$(threads "$pid")
		sleep $((secs - 2))
		b=$(threads "$pid")
		sched=$(printf '%s\n%s\n' "$a" "$b" | awk '
			!($1 in r0) {
				r0[$1] = $3; w0[$1] = $4; n0[$1] = $5; u0[$1] = $6
				next
			}
			{ s = $6 - u0[$1]
			  printf "testpmd.sh: %s on CPU %s: ran %.0f %%, " \
				 "waited for a CPU %.0f %%, %d involuntary " \
				 "switches in %.1f s\n", $1, $2,
				 ($3 - r0[$1]) / s / 1e7,
				 ($4 - w0[$1]) / s / 1e7, $5 - n0[$1], s }')
	fi
fi
wait "$tpid" || true

if ! grep -q "Accumulated forward statistics" "$log"; then
	cat "$log"
	echo "testpmd.sh: testpmd did not complete" >&2
	exit 1
fi
sed -n '/Forward statistics for port/,/Done\./p' "$log"
if [ -n "$elog" ]; then
	grep "engine: .* WQEs in" "$log" || true
	[ -z "$sched" ] || echo "$sched"
fi
# Rate: Rx-pps of all ports summed per stats period; the best period.
awk -v pmd="$pmd" '
	/NIC statistics for port 0/ { if (sum > best) best = sum; sum = 0 }
	/Rx-pps:/ { sum += $2 }
	/Accumulated forward statistics/ { acc = 1 }
	acc && /RX-packets:/ { rx = $2 }
	acc && /TX-packets:/ { tx = $2 }
	END {
		if (sum > best) best = sum
		printf "testpmd.sh: %s: RX %.0f TX %.0f, io forward %.3f Mpps " \
		       "(RX of all ports, best 1 s period)\n",
		       pmd, rx, tx, best / 1e6
	}' "$log"
