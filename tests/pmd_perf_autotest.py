#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
"""DPDK's own pmd_perf_autotest (Debian's dpdk-test) on net_mlx5cq.

One port alone on an emulated wire (it loops back, as the test's
lpbk_mode asks). The test waits for RTE_TEST_DURATION (2 s) x the line
rate at 64 B frames of the speed the port reports: at the emulated
default of 1000 Mb/s, 2 x 1488095 packets. Checks "Test OK", that
figure, the link line and the "Result: N cycles per packet" line.
Usage: pmd_perf_autotest.py --build BUILD [--vdev VDEV]
Exit status 77 (meson: skipped) when the program named by --dpdk-test is not
found.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys


def drivers_dir(build):
    d = os.path.realpath(os.path.join(build, 'drivers'))
    p = d
    while p != '/':
        p = os.path.dirname(p)
        if os.stat(p).st_mode & 0o002:
            sys.exit('%s is world-writable: EAL refuses -d' % p)
    return d


def run(prog, build, vdevs, command, timeout):
    """dpdk-test (prog) with the PMD of build on vdevs, command on its
    prompt; its output."""
    d = drivers_dir(build)
    env = dict(os.environ)
    env['LD_LIBRARY_PATH'] = d + ':' + env.get('LD_LIBRARY_PATH', '')
    cmd = [prog, '--no-pci', '--in-memory', '-l', '0,1',
           '--log-level=lib.eal:error',
           # The PMD alone: the emulated HCA comes through its plugin loader.
           '-d', os.path.join(d, 'librte_net_mlx5cq.so')]
    for v in vdevs:
        cmd += ['--vdev', v]
    p = subprocess.run(cmd, input=command + '\n',
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       env=env, text=True, timeout=timeout)
    return p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--build', required=True)
    ap.add_argument('--dpdk-test', default='dpdk-test')
    ap.add_argument('--vdev', default='net_mlx5cq0,dev=emu,wire=perf0')
    ap.add_argument('--timeout', type=int, default=600)
    a = ap.parse_args()
    prog = shutil.which(a.dpdk_test)
    if prog is None:
        print('%s not found: skipped' % a.dpdk_test)
        return 77
    out = run(prog, a.build, [a.vdev], 'pmd_perf_autotest', a.timeout)
    errs = []
    if 'Test OK' not in out:
        errs.append('no "Test OK"')
    if a.vdev.startswith('net_mlx5cq') and 'speed=' not in a.vdev:
        # 1000 Mb/s: 1e9 / ((64 + 12 + 8) * 8) = 1488095 packets/s.
        if 'Port 0 Link up at 1 Gbps FDX Fixed' not in out:
            errs.append('link is not "up at 1 Gbps FDX Fixed"')
        if 'Test will stop after at least 2976190 packets received' \
                not in out:
            errs.append('packet target is not 2 x 1488095')
    m = re.search(r'^Result: (\d+) cycles per packet$', out, re.M)
    if m is None:
        errs.append('no "Result: N cycles per packet" line')
    if errs:
        print(out[-4000:])
        print('FAIL: ' + '; '.join(errs))
        return 1
    print('PASS pmd_perf_autotest: %s cycles per packet' % m.group(1))
    return 0


if __name__ == '__main__':
    sys.exit(main())
