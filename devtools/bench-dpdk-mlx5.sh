#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# net_mlx5cq's RX burst side by side with DPDK 22.11's own net/mlx5 RX
# functions (mlx5_rx_burst, mlx5_rx_burst_vec) on identical rings: one
# table, cycles per packet, medians over RUNS runs. Not part of CI.
#
#  1. builds DPDK's net/mlx5 static library from the DPDK source package
#     the project uses (same version as the installed libdpdk), with DPDK's
#     own meson, -Dplatform=generic and Debian's CFLAGS, into a cache
#     folder (only that library's objects; common/mlx5, buses, EAL... are
#     Debian's installed shared libraries at run time);
#  2. builds app/bench-dpdk-mlx5 in BUILD (sets its meson options
#     bench_dpdk_mlx5=true and dpdk_mlx5_build=CACHE): compiled with the
#     flags DPDK used for mlx5_rxtx_vec.c, linked with that library and
#     this project's libraries (the emulated HCA writes the CQEs);
#  3. runs the harness RUNS times and prints the medians: in each run,
#     each case times net_mlx5cq (rte_eth_rx_burst on a port of the
#     emulated HCA) and DPDK's two functions in one process on one
#     mempool, their passes alternated. The mprq rows run striding RQs:
#     the port with mprq_en=1, DPDK's mlx5_rx_burst_mprq and
#     mlx5_rx_burst_mprq_vec in the scalar and vector columns.
#
#   bench-dpdk-mlx5.sh [-b BUILD] [-c CACHE] [-s DPDK_SRC]
#                               [-n RUNS] [-r REPS] [-l LCORE] [-f LCORE]
#     BUILD     the project's build folder (default ./build; configured
#               when missing)
#     CACHE     DPDK build folder (default ./.cache/dpdk-mlx5, git-ignored)
#     DPDK_SRC  DPDK source (default: the dpdk_src option of BUILD, else
#               ./.cache/dpdk/src)
#     RUNS      runs of the harness (default 15, about a second each);
#               REPS timed passes per case in each (default 15; DPDK's
#               scalar function takes at most 65536 completions a case,
#               see bench_main.c); LCORE the core they run on (0);
#               -f: the lcore every pass fills the rings from, as a
#               device writes them (--fill-lcore; default: the timed one)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/build"
cache="$top/.cache/dpdk-mlx5"
src=
runs=15
reps=15
lcore=0
fill=
while getopts b:c:s:n:r:l:f: opt; do
	case $opt in
	b) build=$OPTARG ;;
	c) cache=$OPTARG ;;
	s) src=$OPTARG ;;
	n) runs=$OPTARG ;;
	r) reps=$OPTARG ;;
	l) lcore=$OPTARG ;;
	f) fill=$OPTARG ;;
	*) sed -n '2,38p' "$0"; exit 2 ;;
	esac
done

note() { echo "bench-dpdk-mlx5: $*" >&2; }

# --- the project -----------------------------------------------------
if [ -z "$src" ] && [ -f "$build/build.ninja" ]; then
	src=$(meson introspect --buildoptions "$build" | python3 -c '
import json, sys
print(next(o["value"] for o in json.load(sys.stdin)
           if o["name"] == "dpdk_src"))')
fi
[ -n "$src" ] || src="$top/.cache/dpdk/src"
if [ ! -f "$src/drivers/net/mlx5/mlx5_rx.c" ]; then
	note "no DPDK source at $src (devtools/setup.sh, or -s)"
	exit 1
fi
src=$(cd "$src" && pwd -P)
if [ ! -f "$build/build.ninja" ]; then
	note "configuring the project in $build"
	meson setup "$build" "$top" -Ddpdk_src="$src" >/dev/null
fi

# --- DPDK's net/mlx5 ---------------------------------------------------
installed=$(pkg-config --modversion libdpdk)
version=$(cat "$src/VERSION")
if [ "$installed" != "$version" ]; then
	note "DPDK source $version is not the installed libdpdk $installed"
	exit 1
fi
# pmdinfogen runs with the Python that runs meson.
py=$(sed -n '1s/^#! *//p' "$(command -v meson)")
if ! ${py:-python3} -c 'import elftools' 2>/dev/null; then
	note "installing python3-pyelftools (DPDK's pmdinfogen needs it)"
	apt-get install -y python3-pyelftools >/dev/null
fi
mkdir -p "$(dirname "$cache")"
cache="$(cd "$(dirname "$cache")" && pwd -P)/$(basename "$cache")"
lib="$cache/drivers/librte_net_mlx5.a"
if [ ! -f "$cache/build.ninja" ]; then
	note "configuring DPDK $version (net/mlx5 only) in $cache"
	# Debian's build: meson defaults (buildtype plain) with the
	# distribution's CFLAGS, -Dplatform=generic (debian/rules).
	CFLAGS="$(dpkg-buildflags --get CFLAGS)" meson setup "$cache" "$src" \
		--buildtype=plain --default-library=static \
		-Dplatform=generic \
		-Denable_drivers=bus/pci,bus/auxiliary,common/mlx5,net/mlx5 \
		-Ddisable_apps='*' -Dtests=false -Dexamples= \
		>"$cache.configure.log" 2>&1 ||
		{ tail -20 "$cache.configure.log"; exit 1; }
fi
if ! ninja -C "$cache" -n drivers/librte_net_mlx5.a |
	grep -q '^ninja: no work to do'; then
	note "building DPDK's net/mlx5 (takes a while on 2 cores)"
	t0=$(date +%s)
	nice ninja -C "$cache" drivers/librte_net_mlx5.a >/dev/null
	note "net/mlx5 built in $(($(date +%s) - t0)) s"
fi

# Is it Debian's code? The vector RX object's instructions against the
# installed static library's (informative only).
deb=$(pkg-config --variable=libdir libdpdk)/librte_net_mlx5.a
same="not compared (no $deb)"
if [ -f "$deb" ]; then
	o=net_mlx5_mlx5_rxtx_vec.c.o
	mkdir -p "$cache/cmp"
	(cd "$cache/cmp" && ar x "$deb" "$o" &&
		objcopy -O binary --only-section=.text "$o" deb.text &&
		objcopy -O binary --only-section=.text \
			"../drivers/libtmp_rte_net_mlx5.a.p/$o" own.text)
	if cmp -s "$cache/cmp/deb.text" "$cache/cmp/own.text"; then
		same="identical to Debian's $deb"
	else
		same="DIFFERENT from Debian's $deb"
	fi
fi

# --- the harness -------------------------------------------------------
# app/bench-dpdk-mlx5/meson.build: DPDK's compile options of
# mlx5_rxtx_vec.c (so struct mlx5_rxq_data is the library's), that object
# and the library, the project's libraries and dpdk-test-cq's port helpers.
opts=$(meson introspect --buildoptions "$build" | python3 -c '
import json, sys
o = {x["name"]: x["value"] for x in json.load(sys.stdin)}
print(o["bench_dpdk_mlx5"], o["dpdk_mlx5_build"])')
if [ "$opts" != "True $cache" ]; then
	note "enabling app/bench-dpdk-mlx5 in $build" \
		"(-Dbench_dpdk_mlx5=true -Ddpdk_mlx5_build=$cache)"
	meson configure "$build" -Dbench_dpdk_mlx5=true \
		-Ddpdk_mlx5_build="$cache" >/dev/null
fi
out=$(nice ninja -C "$build" 2>&1) || { echo "$out" | tail -30; exit 1; }
bin="$build/app/bench-dpdk-mlx5/dpdk-bench-mlx5"
if ! nm "$bin" | grep -q ' T mlx5_rx_burst_vec$'; then
	note "mlx5_rx_burst_vec is not the vector function"
	exit 1
fi

# --- runs -------------------------------------------------------------
# Every EAL line below also carries --no-pci (never probe the NIC).
eal="--in-memory -l $lcore --log-level=lib.eal:error"
fillopt=
if [ -n "$fill" ]; then
	eal="--in-memory -l $fill,$lcore --main-lcore $lcore"
	eal="$eal --log-level=lib.eal:error"
	fillopt="--fill-lcore $fill"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=1
while [ "$i" -le "$runs" ]; do
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	echo "run $i: load average $load (before)" >>"$tmp/loads"
	# shellcheck disable=SC2086 # eal is a list of options
	timeout 900 "$bin" --no-pci $eal -- --reps "$reps" $fillopt \
		>"$tmp/dpdk.$i" 2>&1 ||
		{ cat "$tmp/dpdk.$i"; exit 1; }
	# case scalar vec net_mlx5cq run
	awk -v i="$i" '$1 == "RESULT" { print $2, $3, $4, $6, i }' \
		"$tmp/dpdk.$i" >>"$tmp/res"
	i=$((i + 1))
done

median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "n/a"; exit }
		if (NR % 2) print v[(NR + 1) / 2]
		else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 |
	sed 's/^ *//'), $(nproc) cores; DPDK $version net/mlx5 from $lib"
cat "$tmp/loads"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
grep -m1 '^DPDK net/mlx5 RX' "$tmp/dpdk.1" || true
echo "machine code of mlx5_rxtx_vec.c (.text): $same"
echo "DPDK memory regions of the RX pool: $(awk '$1 == "RESULT" {
	printf "%s%s %s", s, $2, $5; s = ", " }' "$tmp/dpdk.1")"
[ -z "$fill" ] || echo "rings filled from lcore $fill, timed on $lcore"
echo "cycles per packet, burst 32, medians of $runs runs (each a median" \
	"of ~1024-packet slices over $reps passes); runs in brackets; the" \
	"ratios are medians of the per-run ratios (both sides of a ratio" \
	"from one process, one mempool, passes alternated)"
echo "mprq rows: striding RQs (16 WQEs of 64 strides), DPDK's columns" \
	"mlx5_rx_burst_mprq and mlx5_rx_burst_mprq_vec"
printf '%-21s | %-30s | %-24s | %-30s | %-30s | %s\n' case \
	"net_mlx5cq rx_burst" "DPDK mlx5_rx_burst" "DPDK mlx5_rx_burst_vec" \
	"mlx5cq/vec" "16chunk/1chunk"
col() { awk -v c="$1" -v k="$2" '$1 == c { printf "%s ", $k }' "$tmp/res"; }
med() { tr ' ' '\n' | grep . | median; }
awk '!s[$1]++ { print $1 }' "$tmp/res" | while read -r c; do
	pr=$(col "$c" 4)
	sr=$(col "$c" 2)
	vr=$(col "$c" 3)
	rr=$(awk -v c="$c" '$1 == c && $3 > 0 {
		printf "%.2f ", $4 / $3 }' "$tmp/res")
	cr=
	case $c in
	*/16chunk | */16chunk/16mr)
		one=${c%%/16chunk*}/1chunk
		cr=$(awk -v c="$c" -v o="$one" '
			$1 == o { b[$5] = $4 }
			$1 == c { a[$5] = $4; n[++k] = $5 }
			END { for (j = 1; j <= k; j++)
				if (b[n[j]] > 0)
					printf "%.2f ", a[n[j]] / b[n[j]] }' \
			"$tmp/res")
		;;
	esac
	printf '%-21s | %-30s | %-24s | %-30s | %-30s | %s\n' "$c" \
		"$(echo "$pr" | med) [${pr% }]" "$(echo "$sr" | med)" \
		"$(echo "$vr" | med) [${vr% }]" \
		"$(echo "$rr" | med) [${rr% }]" \
		"${cr:+$(echo "$cr" | med) [${cr% }]}"
done
