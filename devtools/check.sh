#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
#
# DPDK's own source checks over the whole tree (the working tree as it is,
# tracked and new files, ignored ones left out):
#  - meson:     DPDK's devtools/check-meson.py (meson.build indentation);
#  - spdx:      DPDK's devtools/check-spdx-tag.sh (an SPDX tag in every
#               file; the raw libFuzzer inputs of app/fuzz/corpus are data);
#  - checkpatch: DPDK's devtools/checkpatches.sh (the kernel's checkpatch.pl
#               with DPDK's options, then DPDK's forbidden-token, tag and
#               API checks) over one patch that adds the whole tree;
#               the few files of devtools/check-exceptions.txt are checked
#               apart, with the report types listed there (and why) ignored;
#  - features:  doc/guides/nics/features/mlx5cq.ini uses only the names
#               of DPDK's default.ini ([Features], [rte_flow items],
#               [rte_flow actions]), in its order;
#  - size:      no C source or header of drivers/ or app/ over 1,000
#               lines (one concern a file).
# DPDK's scripts come from the DPDK source (-s, default .cache/dpdk/src,
# prepared by devtools/setup.sh); checkpatch.pl, spelling.txt and
# const_structs.checkpatch are extracted once from Debian's linux-source
# package into .cache/checkpatch (installed with codespell and gawk when
# missing, as root).
#
# usage: sh check.sh [-s DPDK_SRC] [meson|spdx|checkpatch|features|size...]
# Prints each check's reports and "check: NAME ok|FAILED"; exits non-zero
# when any check fails.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
dpdk_src="$top/.cache/dpdk/src"
while getopts s:h opt; do
	case $opt in
	s) dpdk_src=$(cd "$OPTARG" && pwd) ;;
	*) sed -n '/^# usage/,/^# when/s/^# //p' "$0"; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
checks=${*:-meson spdx features size checkpatch}

devtools="$dpdk_src/devtools"
if [ ! -f "$devtools/checkpatches.sh" ]; then
	echo "check: no DPDK devtools in $dpdk_src (run devtools/setup.sh or" \
		"give -s DPDK_SRC)" >&2
	exit 2
fi

cache="$top/.cache/checkpatch"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

log() { printf 'check: %s\n' "$*"; }

# checkpatch.pl and its data files, from the kernel source package; GNU
# awk for DPDK's token checks (their regular expressions fail in mawk).
prepare_checkpatch() {
	missing=""
	ls /usr/src/linux-source-*.tar.* >/dev/null 2>&1 ||
		missing="linux-source"
	for p in codespell gawk; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q "ok installed" || missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		if [ "$(id -u)" != 0 ]; then
			log "needs$missing: run once as root"
			return 1
		fi
		log "installing $missing"
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			$missing >/dev/null
	fi
	if ! awk --version 2>/dev/null | grep -q "GNU Awk"; then
		mkdir -p "$tmp/bin"
		ln -s "$(command -v gawk)" "$tmp/bin/awk"
		PATH="$tmp/bin:$PATH"
	fi
	[ -x "$cache/checkpatch.pl" ] && return 0
	tarball=$(ls /usr/src/linux-source-*.tar.* | sort -V | tail -1)
	log "extracting checkpatch.pl from $tarball"
	mkdir -p "$cache"
	tar -xf "$tarball" -C "$tmp" --wildcards --strip-components=2 \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'
	mv "$tmp/checkpatch.pl" "$tmp/spelling.txt" \
		"$tmp/const_structs.checkpatch" "$cache/"
	chmod +x "$cache/checkpatch.pl"
}

# One patch adding the files of the working tree given by pathspecs $2...
# (from the empty tree), through a scratch index: the real index is not
# touched.
tree_patch() {
	patch=$1
	shift
	if [ ! -f "$tmp/tree" ]; then
		# .ci/ (the CI entry point) is not DPDK code: DPDK skips it.
		GIT_INDEX_FILE="$tmp/index" git -C "$top" add -A -- . ':!.ci'
		GIT_INDEX_FILE="$tmp/index" git -C "$top" write-tree > "$tmp/tree"
	fi
	empty=$(git -C "$top" hash-object -t tree /dev/null)
	{
		printf 'From: mlx5cq check <check@mlx5cq.invalid>\n'
		printf 'Subject: [PATCH] mlx5cq: whole tree\n\n'
		printf 'Files of the working tree, as one patch.\n\n'
		printf 'Signed-off-by: mlx5cq check <check@mlx5cq.invalid>\n'
		printf -- '---\n'
		git -C "$top" diff --no-color --no-renames --binary \
			"$empty" "$(cat "$tmp/tree")" -- "$@"
	} > "$patch"
}

# DPDK's checkpatches.sh on one patch; $2: extra checkpatch.pl options.
run_checkpatches() {
	(cd "$tmp" && DPDK_CHECKPATCH_PATH="$cache/checkpatch.pl" \
		DPDK_CHECKPATCH_CODESPELL=/usr/share/codespell/dictionary.txt \
		DPDK_CHECKPATCH_OPTIONS="$2" \
		sh "$devtools/checkpatches.sh" "$1")
}

check_meson() {
	python3 "$devtools/check-meson.py" -d "$top" > "$tmp/meson" 2>&1 || true
	cat "$tmp/meson"
	[ ! -s "$tmp/meson" ]
}

check_spdx() {
	# check-spdx-tag.sh lists files without a tag, then a total line.
	(cd "$top" && sh "$devtools/check-spdx-tag.sh" -q) >/dev/null 2>&1 &&
		return 0
	(cd "$top" && sh "$devtools/check-spdx-tag.sh" || true) |
		grep -v -e '^app/fuzz/corpus/' -e '^total:' -e '^$' \
		> "$tmp/spdx" || true
	cat "$tmp/spdx"
	[ ! -s "$tmp/spdx" ]
}

check_checkpatch() {
	prepare_checkpatch || return 1
	# checks_release_notes reads ./VERSION (a DPDK tree): run beside one.
	sed -n "s/^[[:space:]]*version: '\(.*\)',/\1/p" "$top/meson.build" \
		> "$tmp/VERSION"
	exclude=""
	ret=0
	# The files of devtools/check-exceptions.txt, each alone with its
	# accepted report types ignored.
	while read -r path types reason; do
		case $path in ''|'#'*) continue ;; esac
		log "$path: accepting $types ($reason)"
		exclude="$exclude :!$path"
		tree_patch "$tmp/except.patch" "$path"
		run_checkpatches "$tmp/except.patch" "--ignore=$types" ||
			ret=1
	done < "$top/devtools/check-exceptions.txt"
	# shellcheck disable=SC2086
	tree_patch "$tmp/tree.patch" . $exclude
	run_checkpatches "$tmp/tree.patch" "" || ret=1
	return $ret
}

check_features() {
	python3 - "$dpdk_src/doc/guides/nics/features/default.ini" \
		"$top/doc/guides/nics/features/mlx5cq.ini" <<-'EOF'
	import configparser, sys
	def names(path, sec):
	    c = configparser.ConfigParser()
	    c.optionxform = str
	    c.read(path, encoding='utf-8')
	    return list(c[sec]) if c.has_section(sec) else []
	bad = []
	for sec in ('Features', 'rte_flow items', 'rte_flow actions'):
	    ref, ours = names(sys.argv[1], sec), names(sys.argv[2], sec)
	    for n in ours:
	        if n not in ref:
	            print('%s: unknown %s "%s"' % (sys.argv[2], sec, n))
	            bad.append(n)
	    known = [n for n in ours if n in ref]
	    if known != sorted(known, key=ref.index):
	        print('%s: [%s] not in default.ini order' % (sys.argv[2], sec))
	        bad.append('order')
	sys.exit(1 if bad else 0)
	EOF
}

check_size() {
	(cd "$top" && git ls-files -co --exclude-standard -- \
		'drivers/*.[ch]' 'app/*.[ch]' | while read -r f; do
		n=$(wc -l < "$f")
		[ "$n" -le 1000 ] || echo "$f: $n lines (at most 1000)"
	done) > "$tmp/size"
	cat "$tmp/size"
	[ ! -s "$tmp/size" ]
}

rc=0
for c in $checks; do
	case $c in
	meson|spdx|checkpatch|features|size) ;;
	*) log "unknown check $c (meson, spdx, features, size," \
		"checkpatch)"; exit 2 ;;
	esac
	printf '### %s\n' "$c"
	if "check_$c"; then
		log "$c ok"
	else
		log "$c FAILED"
		rc=1
	fi
done
exit $rc
