#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
"""crypto_mlx5cq driven through dpdk-test-crypto-perf on the emulated HCA.

verify: every IEEE 1619 XTS-AES vector of tests/data/xts_ieee1619.data
(vector 4, 2 x 128-bit key; vector 10, 2 x 256-bit key), encrypt and
decrypt, in place and out of place, contiguous, and in place in 128-byte
segments (the tool's out of place takes linear buffers only);
dpdk-test-crypto-perf compares each output with the vector and counts a
failed operation otherwise: every operation must be dequeued, none failed.
throughput: AES-XTS 512 and 4096-byte buffers; every operation enqueued
and dequeued, none failed, a positive MOps figure.
The PMD is loaded with EAL -d from this build's drivers folder; the
emulated device gets a plaintext-key crypto engine from the vdev's
emu_crypto=plaintext devarg.
Usage: crypto_perf_mlx5cq.py --build BUILD [--crypto-perf PROG] [CASE...]
Exit status 77 (meson: skipped) when dpdk-test-crypto-perf (--crypto-perf) is not found.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
VECTORS = os.path.join(HERE, 'data', 'xts_ieee1619.data')
VDEV = 'crypto_mlx5cq0,dev=emu,emu_crypto=plaintext,key_mode=plaintext'
# (section of the vectors file, key bytes)
VECS = [('xts_128_v4', 32), ('xts_256_v10', 64)]
TOTAL = 4096
# dpdk-test-crypto-perf (always with --no-pci) of the DPDK the build uses (--crypto-perf, from
# meson): another release's tool cannot run with this build's libraries.
CRYPTO_PERF = 'dpdk-test-crypto-perf'


class Failure(Exception):
    pass


def drivers_dir(build):
    d = os.path.realpath(os.path.join(build, 'drivers'))
    p = d
    while p != '/':
        p = os.path.dirname(p)
        if os.stat(p).st_mode & 0o002:
            raise Failure('%s is world-writable: EAL refuses -d' % p)
    return d


def perf(build, args, timeout=600):
    """Run dpdk-test-crypto-perf on crypto_mlx5cq: its rows of figures
    (lcore id first) as lists of strings, and the whole output."""
    d = drivers_dir(build)
    env = dict(os.environ)
    env['LD_LIBRARY_PATH'] = d + ':' + env.get('LD_LIBRARY_PATH', '')
    cmd = [CRYPTO_PERF, '--no-pci', '--in-memory', '-l', '0,1',
           '--log-level=lib.eal:error', '-d', d, '--vdev', VDEV, '--',
           '--devtype', 'crypto_mlx5cq', '--optype', 'cipher-only',
           '--cipher-algo', 'aes-xts', '--cipher-iv-sz', '16',
           '--burst-sz', '32'] + args
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       env=env, text=True, timeout=timeout)
    rows = [ln.split() for ln in p.stdout.splitlines()
            if re.match(r'^\s+\d+\s+\d+\s+\d+\s+\d+', ln)]
    if p.returncode != 0 or not rows:
        raise Failure('dpdk-test-crypto-perf exit %d, no result row:\n%s'
                      % (p.returncode, p.stdout[-3000:]))
    return rows, p.stdout


def case_verify(build):
    n = 0
    for sect, ksz in VECS:
        for op in ('encrypt', 'decrypt'):
            # (dpdk-test-crypto-perf has no out of place with segments)
            for extra in ([], ['--out-of-place', '--segment-sz', '1024'],
                          ['--segment-sz', '128']):
                rows, out = perf(build, [
                    '--ptest', 'verify', '--cipher-op', op,
                    '--cipher-key-sz', str(ksz), '--buffer-sz', '512',
                    '--test-file', VECTORS, '--test-name', sect,
                    '--total-ops', str(TOTAL)] + extra)
                # lcore, buf, burst, enq, deq, failed enq, failed deq,
                # failed ops
                r = rows[0]
                what = '%s %s %s' % (sect, op, ' '.join(extra))
                if int(r[3]) != TOTAL or int(r[4]) != TOTAL:
                    raise Failure('%s: %s of %d enqueued, %s dequeued'
                                  % (what, r[3], TOTAL, r[4]))
                if int(r[7]) != 0:
                    raise Failure('%s: %s operations failed verification'
                                  % (what, r[7]))
                n += 1
    print('verify: %d runs of %d operations, all IEEE 1619 outputs exact'
          % (n, TOTAL))


def case_throughput(build):
    for size in (512, 4096):
        rows, out = perf(build, [
            '--ptest', 'throughput', '--cipher-op', 'encrypt',
            '--cipher-key-sz', '64', '--buffer-sz', str(size),
            '--total-ops', '20000', '--silent'])
        # lcore, buf, burst, enq, deq, failed enq, failed deq, MOps, Gbps
        r = rows[0]
        if int(r[3]) != 20000 or int(r[4]) != 20000:
            raise Failure('throughput %d B: %s enqueued, %s dequeued'
                          % (size, r[3], r[4]))
        if float(r[7]) <= 0:
            raise Failure('throughput %d B: %s MOps' % (size, r[7]))
        print('throughput %d B: %s MOps, %s Gbps' % (size, r[7], r[8]))


CASES = {'verify': case_verify, 'throughput': case_throughput}


def main():
    global CRYPTO_PERF
    ap = argparse.ArgumentParser()
    ap.add_argument('--build', required=True)
    ap.add_argument('--crypto-perf', default=CRYPTO_PERF)
    ap.add_argument('cases', nargs='*')
    a = ap.parse_args()
    CRYPTO_PERF = shutil.which(a.crypto_perf)
    if CRYPTO_PERF is None:
        print('%s not found: skipped' % a.crypto_perf)
        return 77
    names = a.cases or list(CASES)
    failed = 0
    for name in names:
        try:
            CASES[name](a.build)
            print('%s: ok' % name)
        except (Failure, subprocess.TimeoutExpired) as e:
            print('%s: FAILED: %s' % (name, e))
            failed += 1
    print('%d passed, %d failed' % (len(names) - failed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
