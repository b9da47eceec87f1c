#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
"""The benchmark runs and prints what the guide says it prints.

dpdk-bench-cq --no-pci --in-memory -l 0 -- perf --reps 1 --json FILE on the
emulated HCA: it must exit 0 (a pass that drains a wrong count of
completions fails it), and its JSON and table must hold every case, in order, with a figure for each
column:
- the first table: 64 and 128 B CQEs x 1K, 4K, 16K entries x warm and
  flushed x bursts 1 and 32;
- the variants, 1K warm and 16K flushed each; the reference loop "ref" on
  every case, "ref+inv" exactly for the sessions of the basic layout;
- the PMD RX table (text only), a ratio to the one-chunk case on every
  row of several chunks.
Nothing here looks at how fast anything is.
Usage: bench_smoke.py --bench-cq DPDK_BENCH_CQ
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

VARIANTS = ['hash-s64', 'hash-s8+8plain', 'hash-s8', 'csum-s64', 'ftag-s64',
            'csumstr-s64', 'l34h-s64', 'hash-enh', 'hash-128-s64',
            'hash-enh-128', '128pad', 'err1pct']
# Compressed in the basic layout: the ones that must invalidate.
BASIC_SESSIONS = {'hash-s64', 'hash-s8+8plain', 'hash-s8', 'csum-s64',
                  'ftag-s64', 'csumstr-s64', 'l34h-s64', 'hash-128-s64'}
PMD_ROWS = ['1K/plain/1chunk', '1K/plain/16chunk', '1K/plain/16chunk/16mr',
            '4K/plain/1chunk', '4K/plain/16chunk', '4K/plain/16chunk/16mr',
            '1K/hash/1chunk', '1K/hash/16chunk', '1K/hash/16chunk/16mr',
            '4K/hash/1chunk', '4K/hash/16chunk', '4K/hash/16chunk/16mr',
            '1K/plain/1chunk/scalar', '1K/hash/1chunk/scalar']


def expected_cases():
    names = []
    for size in (64, 128):
        for k in (1, 4, 16):
            for state in ('warm', 'flushed'):
                for burst in (1, 32):
                    names.append('%uB/%uK/%s/b%u' % (size, k, state, burst))
    for v in VARIANTS:
        names += [v + '/1K/warm', v + '/16K/flushed']
    return names


def check_json(path, errors):
    with open(path) as f:
        doc = json.load(f)
    if doc.get('tsc_hz', 0) <= 0:
        errors.append('tsc_hz %r' % doc.get('tsc_hz'))
    if doc.get('refill') != 'emu-devx':
        errors.append('refill %r, expected emu-devx' % doc.get('refill'))
    cases = doc.get('cases', [])
    want = expected_cases()
    got = [c.get('name') for c in cases]
    if got != want:
        errors.append('cases %r, expected %r' % (got, want))
        return
    for c in cases:
        name = c['name']
        var = name.split('/')[0]
        if c.get('scalar', -1) <= 0:
            errors.append('%s: scalar %r' % (name, c.get('scalar')))
        if c.get('ref', -1) <= 0:
            errors.append('%s: ref %r' % (name, c.get('ref')))
        inv = var in BASIC_SESSIONS
        if inv != ('ref_inv' in c):
            errors.append('%s: ref_inv %s, expected %s' %
                          (name, 'present' if 'ref_inv' in c else
                           'absent', 'present' if inv else 'absent'))
        elif inv and c['ref_inv'] <= 0:
            errors.append('%s: ref_inv %r' % (name, c['ref_inv']))


def check_text(out, errors):
    lines = out.splitlines()
    heads = [ln.split() for ln in lines
             if ln.startswith('case ') or ln.startswith('variant ')]
    if len(heads) != 2:
        errors.append('table headers: %r' % heads)
        return
    impls = heads[0][1:-2]
    if not impls or impls[0] != 'scalar' or \
            heads[0][-2:] != ['ref', 'best/ref'] or \
            heads[1][1:] != impls + ['ref', 'best/ref', 'ref+inv',
                                     'best/ri']:
        errors.append('table headers: %r' % heads)
    rows = {}
    for ln in lines:
        f = ln.split()
        if f and f[0] in PMD_ROWS:
            rows[f[0]] = f[1:]
    for name in PMD_ROWS:
        f = rows.get(name)
        ratio = '/16chunk' in name
        if f is None or len(f) != (2 if ratio else 1):
            errors.append('PMD row %s: %r' % (name, f))
            continue
        if any(float(x) <= 0 for x in f):
            errors.append('PMD row %s: %r' % (name, f))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bench-cq', required=True)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        js = os.path.join(d, 'perf.json')
        cmd = [a.bench_cq, '--no-pci', '--in-memory', '-l', '0',
               '--log-level=lib.eal:error', '--', 'perf', '--reps', '1',
               '--json', js]
        p = subprocess.run(cmd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True,
                           timeout=600, check=False)
        print(p.stdout)
        errors = []
        if p.returncode != 0:
            errors.append('perf exited %d' % p.returncode)
        else:
            check_json(js, errors)
            check_text(p.stdout, errors)
    for e in errors:
        print('bench-smoke: ' + e)
    print('bench-smoke: %s' % ('FAIL' if errors else 'OK'))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
