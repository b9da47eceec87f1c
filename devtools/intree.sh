#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# Build the project inside a DPDK 22.11 tree, as a DPDK driver would be:
# copy the prepared DPDK source (devtools/setup.sh: .cache/dpdk/src, never
# modified; another with DPDK_SRC=...) to .cache/intree/dpdk once, put the
# four driver folders into its drivers/ and app/test-cq into
# app/test/mlx5cq (fresh copies on every run), apply devtools/intree/*.patch
# to app/test (dpdk-test: DPDK's cryptodev suites and the mlx5cq suites),
# configure with DPDK's own warning flags and -Dwerror=true for the drivers
# this needs, build, and, with "test", run dpdk-test's mlx5cq_autotest (the
# unit suites) and cryptodev_mlx5cq_autotest (DPDK's cryptodev suites on an
# emulated crypto_mlx5cq device), or the commands given: sh intree.sh test
# mlx5cq_poll_record_autotest ...; "drivers" builds only the four libraries.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
src=${DPDK_SRC:-$top/.cache/dpdk/src}
tree=${MLX5CQ_INTREE:-$top/.cache/intree}
dpdk=$tree/dpdk
build=$dpdk/build
drivers=bus/auxiliary,bus/pci,bus/vdev,common/mlx5,common/mlx5cq,\
common/mlx5cq_emu,net/mlx5cq,crypto/mlx5cq,crypto/null,net/null,mempool/ring

if [ ! -f "$dpdk/meson.build" ]; then
	if [ ! -f "$src/drivers/common/mlx5/meson.build" ]; then
		echo "no DPDK source in $src: run devtools/setup.sh" \
			"or set DPDK_SRC" >&2
		exit 1
	fi
	mkdir -p "$tree"
	rm -rf "$dpdk.tmp"
	cp -a "$src" "$dpdk.tmp"
	mv "$dpdk.tmp" "$dpdk"
fi

for d in common/mlx5cq common/mlx5cq_emu net/mlx5cq crypto/mlx5cq; do
	rm -rf "${dpdk:?}/drivers/$d"
	cp -a "$top/drivers/$d" "$dpdk/drivers/$d"
done
rm -rf "$dpdk/app/test/mlx5cq"
cp -a "$top/app/test-cq" "$dpdk/app/test/mlx5cq"

# Where DPDK learns about them (once per copy): the common drivers after
# common/mlx5 (they depend on it), the PMDs in the net and crypto classes,
# the suites in app/test before its dependencies are resolved.
if ! grep -q "'common/mlx5cq'" "$dpdk/drivers/meson.build"; then
	sed -i "/^ *'common\/mlx5', /a\\
        'common/mlx5cq_emu', # depends on common/mlx5.\\
        'common/mlx5cq',  # depends on common/mlx5." \
		"$dpdk/drivers/meson.build"
fi
if ! grep -q "'mlx5cq'" "$dpdk/drivers/net/meson.build"; then
	sed -i "/^ *'mlx5',$/a\\
        'mlx5cq'," "$dpdk/drivers/net/meson.build"
fi
if ! grep -q "'mlx5cq'" "$dpdk/drivers/crypto/meson.build"; then
	sed -i "/^ *'mlx5',$/a\\
        'mlx5cq'," "$dpdk/drivers/crypto/meson.build"
fi
# app/test: devtools/intree/*.patch on the source's files (the suites in
# dpdk-test, crypto_mlx5cq's cryptodev autotest); a file is replaced only
# when the result differs, so an unchanged tree is not reconfigured.
stage=$tree/stage
rm -rf "$stage"
for p in "$top"/devtools/intree/*.patch; do
	sed -n 's|^+++ b/||p' "$p" | while read -r f; do
		[ -f "$stage/$f" ] && continue
		mkdir -p "$stage/$(dirname "$f")"
		cp "$src/$f" "$stage/$f"
	done
	patch -s -d "$stage" -p1 <"$p" ||
		{ echo "cannot apply $p to $src" >&2; exit 1; }
done
(cd "$stage" && find . -type f) | while read -r f; do
	cmp -s "$stage/$f" "$dpdk/$f" || cp "$stage/$f" "$dpdk/$f"
done
for f in drivers/meson.build drivers/net/meson.build \
	drivers/crypto/meson.build app/test/meson.build; do
	grep -q mlx5cq "$dpdk/$f" || { echo "cannot add mlx5cq to $f" >&2; exit 1; }
done

# Every optional library off: neither the drivers nor dpdk-test's
# cryptodev suites use one (lib/meson.build: optional_libs).
opts="-Dwerror=true -Denable_drivers=$drivers -Denable_apps=test \
-Ddisable_libs=bitratestats,cfgfile,flow_classify,gpudev,gro,gso,kni,\
jobstats,latencystats,metrics,node,pdump,pipeline,port,power,table,vhost"
if [ ! -f "$build/build.ninja" ]; then
	# shellcheck disable=SC2086 # a list of options without blanks
	meson setup "$build" "$dpdk" $opts >"$tree/setup.log" ||
		{ tail -20 "$tree/setup.log"; exit 1; }
elif [ "$(cat "$tree/options" 2>/dev/null)" != "$opts" ]; then
	# shellcheck disable=SC2086
	meson configure "$build" $opts
fi
echo "$opts" >"$tree/options"
# "drivers": only the project's libraries (and what they need).
targets=
if [ "${1:-}" = drivers ]; then
	targets="drivers/librte_common_mlx5cq_emu.so.23.0
drivers/librte_common_mlx5cq.so.23.0 drivers/librte_net_mlx5cq.so.23.0
drivers/librte_crypto_mlx5cq.so.23.0"
fi
# shellcheck disable=SC2086 # a list of targets without blanks
nice ninja -C "$build" $targets >"$tree/build.log" 2>&1 ||
	{ grep -A8 -E 'error|warning' "$tree/build.log" | head -100; exit 1; }
echo "built in $build"

[ "${1:-}" = test ] || exit 0
shift
[ $# -gt 0 ] || set -- mlx5cq_autotest cryptodev_mlx5cq_autotest
ret=0
for t in "$@"; do
	# DPDK's cryptodev suites run on a crypto_mlx5cq device of the
	# emulated HCA (a crypto engine with plaintext keys, AES-GCM too).
	vdev=
	[ "$t" != cryptodev_mlx5cq_autotest ] ||
		vdev="--vdev=crypto_mlx5cq0,dev=emu,emu_crypto=plaintext,max_nb_queue_pairs=2"
	echo "=== dpdk-test $vdev $t"
	# shellcheck disable=SC2086 # no vdev, or one argument without blanks
	DPDK_TEST=$t "$build/app/test/dpdk-test" --no-pci --in-memory -l 0 \
		--log-level=lib.eal:error $vdev || ret=1
done
exit $ret
