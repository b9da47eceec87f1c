#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
"""DPDK's eventdev adapter suites (Debian's dpdk-test) on net_mlx5cq ports.

Two net_mlx5cq ports on one emulated wire, as a new user would give
them to dpdk-test: event_eth_rx_adapter_autotest,
event_eth_rx_intr_adapter_autotest (every RX queue of a port added in
interrupt mode and deleted again) and event_eth_tx_adapter_autotest,
each in its own process. Each must end with "Test OK", every case it
counts executed and passed, none failed or skipped, and no EAL or
eventdev error about interrupt events ("Event does not exist",
"Rx queues not deleted").
Exit status 77 (meson: skipped) when dpdk-test is not found.
Usage: eventdev_adapters.py --build BUILD [--dpdk-test PROG]
"""

import argparse
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pmd_perf_autotest import run  # noqa: E402

SUITES = ('event_eth_rx_adapter_autotest',
          'event_eth_rx_intr_adapter_autotest',
          'event_eth_tx_adapter_autotest')
BAD = ('Event does not exist', 'Rx queues not deleted',
       'Rx ctl error')
VDEVS = ('net_mlx5cq0,dev=emu,wire=evx', 'net_mlx5cq1,dev=emu,wire=evx')


def count(out, what):
    m = re.search(r'Tests %s\s*:\s*(\d+)' % what, out)
    return int(m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--build', required=True)
    ap.add_argument('--dpdk-test', default='dpdk-test')
    ap.add_argument('--timeout', type=int, default=300)
    a = ap.parse_args()
    prog = shutil.which(a.dpdk_test)
    if prog is None:
        print('%s not found: skipped' % a.dpdk_test)
        return 77
    failed = 0
    for suite in SUITES:
        out = run(prog, a.build, VDEVS, suite, a.timeout)
        total = count(out, 'Total')
        errs = []
        if 'Test OK' not in out:
            errs.append('no "Test OK"')
        if not total:
            errs.append('no case counted')
        for what in ('Executed', 'Passed'):
            if count(out, what) != total:
                errs.append('%s %s of %s' % (what.lower(),
                                             count(out, what), total))
        for what in ('Failed', 'Skipped', 'Unsupported'):
            if count(out, what) != 0:
                errs.append('%s %s' % (what.lower(), count(out, what)))
        for b in BAD:
            if b in out:
                errs.append('"%s" in the output' % b)
        if errs:
            print(out[-4000:])
            print('FAIL %s: %s' % (suite, '; '.join(errs)))
            failed += 1
        else:
            print('PASS %s: %d cases' % (suite, total))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
