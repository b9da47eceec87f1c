#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# Check `meson install` of a configured and built tree:
#
#   install_check.sh destdir BUILD   (meson test "install-destdir")
#     DESTDIR install into BUILD/install-stage; layout checks; the example
#     examples/cq_poll built with make through the staged pkg-config files
#     and run (exact output); dpdk-testpmd on the staged PMD alone (-d of
#     the file), the emulated HCA reached through the plugin loader.
#     With a DPDK in a prefix (the build's pkg_config_path), that DPDK's
#     PMD folder (its EAL's RTE_EAL_PMD_PATH), libraries and dpdk-testpmd.
#   install_check.sh system BUILD    (root; devtools/test.sh)
#     install into the real prefix; the PMD in DPDK's PMD folder; testpmd
#     without -d or LD_LIBRARY_PATH probes net_mlx5cq,dev=emu; testpmd
#     without our vdev and dpdk-test-crypto-perf still work; the example
#     built with the system's pkg-config; then uninstall (keep it with
#     MLX5CQ_KEEP_INSTALL=1). Idempotent.
#
# Every EAL command line has --no-pci and --in-memory.
set -eu

mode=${1:?mode: destdir or system}
build=$(cd "${2:?build folder}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
fails=0

fail() { printf 'install-check: FAIL: %s\n' "$*"; fails=$((fails + 1)); }
ok() { printf 'install-check: ok: %s\n' "$*"; }
# expect "what passed" "what failed" command...: ok or fail by its status.
expect() {
	good=$1 bad=$2
	shift 2
	if "$@"; then ok "$good"; else fail "$bad"; fi
}
has() { printf '%s\n' "$1" | grep -Eq "$2"; }
not_has() { ! has "$@"; }

# Install folders of the build, from meson.
opt() {
	meson introspect --buildoptions "$build" | python3 -c '
import json, sys
v = [o["value"] for o in json.load(sys.stdin) if o["name"] == sys.argv[1]][0]
print(":".join(v) if isinstance(v, list) else v)' "$1"
}
# The DPDK the build was configured with (its pkg_config_path: a DPDK in
# a prefix, devtools/build.sh --dpdk; empty: the system's): its PMD
# folder, libraries and dpdk-testpmd, not whatever DPDK is on the system.
dpdk_pc=$(opt pkg_config_path)
if [ -n "$dpdk_pc" ]; then
	PKG_CONFIG_PATH="$dpdk_pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
	export PKG_CONFIG_PATH
fi
prefix=$(opt prefix)
libdir=$prefix/$(opt libdir)
incdir=$prefix/$(opt includedir)
case $(opt libdir) in /*) libdir=$(opt libdir) ;; esac
pmd_dir=$(opt pmd_dir)
dpdk_libdir=$(pkg-config --variable=libdir libdpdk)
if [ -z "$pmd_dir" ]; then
	abi=$(cat "$(opt dpdk_src)/ABI_VERSION" 2>/dev/null ||
		cat "$top/.cache/dpdk/src/ABI_VERSION")
	pmd_dir=$dpdk_libdir/dpdk/pmds-$abi
fi
eal_pmd_path=$(grep -a -o 'DPDK_PLUGIN_PATH=[^[:cntrl:]]*' \
	"$dpdk_libdir"/librte_eal.so.* | head -1 | cut -d= -f2)
testpmd=$(pkg-config --variable=prefix libdpdk)/bin/dpdk-testpmd
[ -x "$testpmd" ] || testpmd=dpdk-testpmd
pmd_file=librte_net_mlx5cq.so
emu_file=librte_common_mlx5cq_emu.so
eal="--no-pci --in-memory --log-level=lib.eal:error"

if [ "$mode" = destdir ]; then
	root=$build/install-stage
	rm -rf "$root"
	meson install -C "$build" --no-rebuild --quiet --destdir "$root" ||
		{ fail "meson install --destdir"; exit 1; }
elif [ "$mode" = system ]; then
	root=
	if [ "$(id -u)" != 0 ]; then
		echo "install-check: system mode needs root" >&2
		exit 1
	fi
	# Twice: the second install over the first must work (idempotent).
	for i in 1 2; do
		meson install -C "$build" --no-rebuild --quiet ||
			{ fail "meson install ($i)"; exit 1; }
	done
	ldconfig
else
	echo "install-check: unknown mode $mode" >&2
	exit 2
fi

# Layout.
expect "PMD folder $pmd_dir is EAL's" \
	"PMD folder $pmd_dir, EAL loads $eal_pmd_path" \
	[ "$pmd_dir" = "$eal_pmd_path" ]
expect "PMD in $pmd_dir" "no $root$pmd_dir/$pmd_file" \
	[ -f "$root$pmd_dir/$pmd_file" ]
expect "emulator not in the PMD folder" \
	"$emu_file in the PMD folder (every DPDK app would load it)" \
	[ ! -e "$root$pmd_dir/$emu_file" ]
for f in "$libdir/librte_common_mlx5cq.so" "$libdir/$emu_file" \
		"$libdir/pkgconfig/mlx5cq.pc" "$libdir/pkgconfig/mlx5cq-emu.pc" \
		"$incdir/mlx5cq/rte_mlx5cq.h" "$incdir/mlx5cq/rte_mlx5cq_core.h" \
		"$incdir/mlx5cq/rte_mlx5cq_iter.h" "$incdir/mlx5cq/mlx5_emu.h" \
		"$incdir/mlx5cq/mlx5_emu_synd.h" "$incdir/mlx5cq/mlx5_emu_producer.h" \
		"$incdir/mlx5cq/rte_mlx5cq_view.h"; do
	expect "$f" "not installed: $f" [ -e "$root$f" ]
done
needed=$(readelf -d "$root$pmd_dir/$pmd_file" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
expect "PMD needs librte_common_mlx5cq" "PMD: NEEDED $needed" \
	has "$needed" '^librte_common_mlx5cq\.so'
expect "PMD: no DT_NEEDED on the emulator" \
	"PMD has DT_NEEDED on the emulator" \
	not_has "$needed" mlx5cq_emu
runpath=$(readelf -d "$root$pmd_dir/$pmd_file" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
expect "PMD RUNPATH $libdir" "PMD RUNPATH '$runpath', want $libdir" \
	[ "$runpath" = "$libdir" ]

# The example, through the installed pkg-config files.
ex=$build/install-example
rm -rf "$ex"
if [ -n "$root" ]; then
	# Staged: the .pc files' prefix moved into the stage (libdpdk.pc
	# stays the system's).
	mkdir -p "$ex/pc"
	for pc in mlx5cq mlx5cq-emu; do
		sed "s|^prefix=.*|prefix=$root$prefix|" \
			"$root$libdir/pkgconfig/$pc.pc" > "$ex/pc/$pc.pc"
	done
	if PKG_CONFIG_PATH="$ex/pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" \
			make -s -C "$top/examples/cq_poll" \
			O="$ex" > "$ex.log" 2>&1; then
		ok "example built through the installed mlx5cq.pc"
	else
		cat "$ex.log"
		fail "example build"
	fi
	run_env="LD_LIBRARY_PATH=$root$libdir:$dpdk_libdir"
else
	if make -s -C "$top/examples/cq_poll" O="$ex" > "$ex.log" 2>&1; then
		ok "example built with the system's pkg-config"
	else
		cat "$ex.log"
		fail "example build"
	fi
	run_env=
fi
if [ -x "$ex/cq_poll" ]; then
	# shellcheck disable=SC2086 # eal and run_env are lists
	env $run_env "$ex/cq_poll" $eal -l 0 > "$ex/out.txt" 2>&1 || true
	if grep '^cq_poll:' "$ex/out.txt" |
			diff -u "$top/examples/cq_poll/expected.txt" -; then
		ok "example output"
	else
		cat "$ex/out.txt"
		fail "example output differs"
	fi
fi

# testpmd: one port on the emulated HCA, the emulator found by the plugin
# loader next to librte_common_mlx5cq (not in the PMD folder).
testpmd_run() {
	# shellcheck disable=SC2086
	printf 'show port summary all\nquit\n' | env $run_env timeout 120 \
		"$testpmd" $eal -l 0,1 "$@" -- -i --total-num-mbufs=2048 2>&1
}
if [ -n "$root" ]; then
	out=$(testpmd_run -d "$root$pmd_dir/$pmd_file" \
		--vdev net_mlx5cq0,dev=emu \
		--log-level=pmd.common.mlx5cq:info) || true
	want="plugin loaded from $root$libdir/$emu_file"
else
	out=$(testpmd_run --vdev net_mlx5cq0,dev=emu \
		--log-level=pmd.common.mlx5cq:info) || true
	want="plugin loaded from $libdir/$emu_file"
fi
port0='^0 +([0-9A-F]{2}:){5}[0-9A-F]{2} +'
if has "$out" "$want" && has "$out" "${port0}net_mlx5cq"; then
	ok "testpmd: port 0 is net_mlx5cq, emulator $want"
else
	echo "$out"
	fail "testpmd: no net_mlx5cq port 0 or no \"$want\""
fi

if [ "$mode" = system ]; then
	# Applications that do not ask for net_mlx5cq: unaffected.
	out=$(testpmd_run --vdev net_null0) || true
	if has "$out" "${port0}net_null" && not_has "$out" mlx5cq; then
		ok "testpmd with net_null only"
	else
		echo "$out"
		fail "testpmd with net_null only"
	fi
	if command -v dpdk-test-crypto-perf > /dev/null; then
		# shellcheck disable=SC2086
		timeout 120 dpdk-test-crypto-perf $eal -l 0,1 \
			--vdev crypto_null0 -- --ptest throughput \
			--devtype crypto_null --optype cipher-only \
			--cipher-algo null --cipher-key-sz 0 --cipher-iv-sz 0 \
			--total-ops 1000 --burst-sz 32 --buffer-sz 64 \
			> "$ex/crypto-perf.log" 2>&1 || true
		# lcore 1, 64 B buffers, bursts of 32: 1000 ops in and out, none
		# failed.
		if grep -Eq '^ +1 +64 +32 +1000 +1000 +0 +0 ' \
				"$ex/crypto-perf.log"; then
			ok "dpdk-test-crypto-perf (crypto_null): 1000 ops"
		else
			tail -20 "$ex/crypto-perf.log"
			fail "dpdk-test-crypto-perf with the PMD installed"
		fi
	fi
	if [ "${MLX5CQ_KEEP_INSTALL:-0}" != 1 ]; then
		ninja -C "$build" uninstall > /dev/null ||
			fail "ninja uninstall"
		# meson removes files only; the header folder is ours.
		rmdir "$incdir/mlx5cq" 2> /dev/null || true
		ldconfig
		expect "uninstalled" "$pmd_file left in $pmd_dir" \
			[ ! -e "$pmd_dir/$pmd_file" ]
	fi
fi

if [ $fails -ne 0 ]; then
	echo "install-check ($mode): $fails failure(s)"
	exit 1
fi
echo "install-check ($mode): all checks passed"
