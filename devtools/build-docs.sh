#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# Build the documentation with warnings as errors: the user guide
# (doc/guides, sphinx-build -W) into OUT/guides and the API reference
# (doc/api/doxy-api.conf.in, doxygen with WARN_AS_ERROR) into OUT/api.
# A tool that is not installed is skipped with a message (devtools/setup.sh
# installs both). Exits non-zero when a build warns or fails.
#
# usage: sh build-docs.sh [OUT]   (OUT: build/doc)
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build/doc}
version=$(sed -n "s/^[[:space:]]*version: '\(.*\)',/\1/p" "$top/meson.build")
rc=0

mkdir -p "$out"
if command -v sphinx-build >/dev/null; then
	if sphinx-build -q -W -b html "$top/doc/guides" "$out/guides" \
			>"$out/sphinx.log" 2>&1; then
		echo "docs: guides ok ($out/guides/index.html)"
	else
		cat "$out/sphinx.log" >&2
		echo "docs: guides FAILED (sphinx-build -W)" >&2
		rc=1
	fi
else
	echo "docs: sphinx-build not installed, guides skipped"
fi

if command -v doxygen >/dev/null; then
	mkdir -p "$out/api"
	sed -e "s|@TOPDIR@|$top|g" -e "s|@OUTPUT@|$out/api|g" \
		-e "s|@VERSION@|$version|g" \
		"$top/doc/api/doxy-api.conf.in" > "$out/api/doxy-api.conf"
	# Warnings are errors (WARN_AS_ERROR), but doxygen may still exit 0
	# after printing some: any output on stderr fails too.
	if doxygen "$out/api/doxy-api.conf" >"$out/doxygen.log" 2>&1 &&
			[ ! -s "$out/doxygen.log" ]; then
		echo "docs: api ok ($out/api/html/index.html)"
	else
		cat "$out/doxygen.log" >&2
		echo "docs: api FAILED (doxygen, warnings as errors)" >&2
		rc=1
	fi
else
	echo "docs: doxygen not installed, api skipped"
fi
exit $rc
