#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# The libraries' symbol maps under DPDK's own checks (from the prepared
# DPDK source, .cache/dpdk/src or DPDK_SRC): devtools/check-symbol-maps.sh
# on every map, buildtools/check-symbols.sh on each map and its static
# library (tags against map sections), then the dynamic symbols of each
# shared library against its map. A driver folder without a map (the crypto
# PMD) links with drivers/version.map, which exports nothing: its shared
# library is compared with that (DPDK runs the map checks only on a
# folder's own map). Needs a built ./build (or BUILD=dir).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
src=${DPDK_SRC:-$top/.cache/dpdk/src}
build=${BUILD:-$top/build}
ret=0

libs="common/mlx5cq common/mlx5cq_emu net/mlx5cq crypto/mlx5cq"
# The map a driver folder links with.
map_of() {
	if [ -f "$top/drivers/$1/version.map" ]; then
		echo "$top/drivers/$1/version.map"
	else
		echo "$top/drivers/version.map"
	fi
}
# DPDK's check-symbol-maps.sh leaves out drivers/version.map (empty on
# purpose) as it does in DPDK's tree.
maps=
for d in $libs; do
	[ ! -f "$top/drivers/$d/version.map" ] ||
		maps="$maps $top/drivers/$d/version.map"
done
# shellcheck disable=SC2086 # a list of paths without blanks
sh "$src/devtools/check-symbol-maps.sh" $maps || ret=1

for d in $libs; do
	lib=librte_$(echo "$d" | tr / _)
	map=$(map_of "$d")
	# As DPDK's drivers/meson.build: tags checked against a folder's own
	# map only.
	if [ "$map" != "$top/drivers/version.map" ]; then
		sh "$src/buildtools/check-symbols.sh" "$map" \
			"$build/drivers/$lib.a" || ret=1
	fi
	so=
	for f in "$build/drivers/$lib.so".*.*; do
		[ -f "$f" ] && so=$f
	done
	if [ -z "$so" ]; then
		echo "$lib: no shared library in $build/drivers" >&2
		ret=1
		continue
	fi
	sh "$src/buildtools/map-list-symbol.sh" "$map" | cut -d ' ' -f 3 |
		sort >"$build/$lib.map-symbols"
	nm -D --defined-only "$so" | awk '$2 != "A" { print $3 }' |
		sed 's/@.*//' | sort >"$build/$lib.exported"
	if ! cmp -s "$build/$lib.map-symbols" "$build/$lib.exported"; then
		echo "$lib: exported symbols differ from $map (< map, > nm -D):"
		diff "$build/$lib.map-symbols" "$build/$lib.exported" || true
		ret=1
	else
		echo "$lib: $(wc -l <"$build/$lib.exported") symbols exported," \
			"as in its map"
	fi
done
exit $ret
