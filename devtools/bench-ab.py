#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
"""Compare two builds' benchmark figures, alternating runs in one sitting.

Runs a benchmark command of build A, then the same of build B, ROUNDS
times in turn (A B A B ...), on the same lcore, and prints for every case
and column the medians of A and of B and the median of the per-round
ratios B/A: the machine's drift between rounds cancels in the ratio.

Each command is a program and its arguments after the EAL part, e.g.
  --a 'build-old/app/bench-cq/dpdk-bench-cq -- perf --reps 3'
  --b 'build/app/bench-cq/dpdk-bench-cq -- perf --reps 3'
The EAL options (--no-pci --in-memory -l LCORE) are added in front of
the "--". The parser takes every table the benchmark prints: a header
line (a title, then right-aligned column names) and rows (a case name,
then numbers under them); columns are matched by name, so A and B may
order or name other columns differently (--alias old=new maps a column
of A onto one of B).
Usage: bench-ab.py --a CMD --b CMD [--rounds N] [--lcore L[,W...]]
       [--column NAME ...] [--alias OLD=NEW ...]
"""

import argparse
import re
import shlex
import statistics
import subprocess
import sys

NUM = re.compile(r'^-?\d+(\.\d+)?$')


def run(cmd, lcore):
    words = shlex.split(cmd)
    i = words.index('--')
    # The first lcore of the list is the main one (the timed loop's);
    # the others are workers, e.g. perf-rx's --fill-lcore.
    main = lcore.split(',')[0]
    argv = words[:i] + ['--no-pci', '--in-memory', '-l', lcore,
                        '--main-lcore', main,
                        '--log-level=lib.eal:error'] + words[i:]
    p = subprocess.run(argv, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=1800)
    if p.returncode != 0:
        sys.exit('%s: exit %d\n%s' % (cmd, p.returncode, p.stdout[-2000:]))
    return p.stdout


def spans(line):
    """[(word, end column)] of a line."""
    return [(m.group(0), m.end()) for m in re.finditer(r'\S+', line)]


def parse(out, alias):
    """{(table, case, column): value} of every table in out. Columns are
    right-aligned: a number belongs to the header word that ends closest
    to where it ends."""
    res = {}
    head = None
    table = None
    for line in out.splitlines():
        w = spans(line)
        if len(w) < 2:
            continue
        if not any(NUM.match(x) for x, _ in w[1:]):
            table, head = w[0][0], w[1:]
            continue
        if head is None or not all(NUM.match(x) for x, _ in w[1:]):
            continue
        for v, end in w[1:]:
            name = min(head, key=lambda h: abs(h[1] - end))[0]
            res[(table, w[0][0], alias.get(name, name))] = float(v)
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--a', required=True, help='command of build A')
    ap.add_argument('--b', required=True, help='command of build B')
    ap.add_argument('--rounds', type=int, default=11)
    ap.add_argument('--lcore', default='1',
                    help='lcore list, main lcore first (e.g. 1,0)')
    ap.add_argument('--column', action='append', default=[],
                    help='columns to report (default: all shared)')
    ap.add_argument('--alias', action='append', default=[],
                    help='OLD=NEW: column OLD of A is NEW of B')
    a = ap.parse_args()
    alias = dict(x.split('=', 1) for x in a.alias)
    ra, rb = [], []
    for r in range(a.rounds):
        ra.append(parse(run(a.a, a.lcore), alias))
        rb.append(parse(run(a.b, a.lcore), {}))
        print('round %d/%d' % (r + 1, a.rounds), file=sys.stderr)
    keys = [k for k in rb[0] if k in ra[0] and
            (not a.column or k[2] in a.column)]
    print('%-34s %-8s %9s %9s %8s' % ('case', 'column', 'A', 'B', 'B/A'))
    for k in keys:
        va = [x[k] for x in ra if k in x]
        vb = [x[k] for x in rb if k in x]
        ratios = [y / x for x, y in zip(va, vb) if x > 0]
        if not ratios:
            continue
        print('%-34s %-8s %9.2f %9.2f %8.3f' %
              (k[1], k[2], statistics.median(va), statistics.median(vb),
               statistics.median(ratios)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
