#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
"""DPDK's net_bonding over net_mlx5cq slaves in dpdk-testpmd.

Three net_mlx5cq ports on one emulated wire: ports 0 and 2 are the
slaves of a bonded port (3), port 1 is its peer; testpmd forwards
between ports 1 and 3 (io, tx_first). For active-backup (mode 1) and
balance-xor (mode 2): traffic moves both ways through the bond, what
port 1 sent was received through the bond and the other way round.
In active-backup the first slave is the active one; then its link goes
down (testpmd "set link-down port 0": net_mlx5cq sets the emulated
port's admin status, both slaves' LSC events reach the bond): the bond
must make slave 2 the active one and keep forwarding both ways, and
list slave 0 as active again when its link comes up (slave 2 stays the
primary: DPDK's bonding returns only to a primary the user set).
Exit status 77 (meson: skipped) when dpdk-testpmd is not found.
Usage: testpmd_bonding.py --build BUILD [--testpmd PROG]
"""

import argparse
import os
import re
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testpmd_net_mlx5cq as tp  # noqa: E402

FRAMES = 4096


def bonded(mode):
    return tp.Testpmd(tp.vdev(0, 'bd') + tp.vdev(1, 'bd') +
                      tp.vdev(2, 'bd') +
                      ['--vdev', 'net_bonding0,mode=%d,slave=net_mlx5cq0,'
                       'slave=net_mlx5cq2' % mode], [])


def fwd(out, p):
    m = re.search(r'Forward statistics for port %d\s*-+\s*\n\s*'
                  r'RX-packets:\s*(\d+).*?\n\s*TX-packets:\s*(\d+)'
                  % p, out, re.S)
    tp.check(m is not None, 'no forward statistics for port %d' % p)
    return int(m.group(1)), int(m.group(2))


def both_ways(t, what, xor=False):
    """Forward a while between port 1 and the bond (3); both directions
    carry at least FRAMES."""
    # From zero: the wait below reads port counters, which would hold
    # an earlier run's packets.
    t.cmd('clear port stats all')
    t.cmd('start tx_first')
    t.wait_stats(lambda s: s[1]['RX-packets'] >= FRAMES and
                 s[1]['TX-packets'] >= FRAMES, '%s: port 1 both ways' %
                 what)
    out = t.cmd('stop')
    rx1, tx1 = fwd(out, 1)
    rx3, tx3 = fwd(out, 3)
    tp.check(min(rx1, tx1, rx3, tx3) >= FRAMES,
             '%s: port 1 RX %d TX %d, bond RX %d TX %d' %
             (what, rx1, tx1, rx3, tx3))
    # What the bond sent, port 1 received, less the bursts in flight.
    # (The other way a balance-xor bond takes each frame on both its
    # slaves: the emulated wire delivers to every port on it, as a hub.)
    tp.check(abs(tx3 - rx1) <= 2 * 32,
             '%s: bond TX %d vs port 1 RX %d' % (what, tx3, rx1))
    if not xor:
        tp.check(abs(tx1 - rx3) <= 2 * 32, '%s: port 1 TX %d vs bond RX '
                 '%d' % (what, tx1, rx3))


def active(t):
    out = t.cmd('show bonding config 3')
    m = re.search(r'Active Slaves(?: \(\d+\))?: \[([\d ]*)\]', out)
    tp.check(m is not None, 'no active slaves in: %s' % out)
    return [int(x) for x in m.group(1).split()]


def primary(t):
    out = t.cmd('show bonding config 3')
    m = re.search(r'Primary: \[(\d+)\]', out)
    tp.check(m is not None, 'no primary in: %s' % out)
    return int(m.group(1))


def wait_active(t, want, what):
    deadline = time.time() + tp.WAIT
    while sorted(active(t)) != want:
        tp.check(time.time() < deadline, '%s: active slaves %s, want %s' %
                 (what, active(t), want))
        time.sleep(0.1)


def failover(t):
    """Slave 0's link down, traffic through slave 2; back up, slave 0."""
    out = t.cmd('set link-down port 0')
    wait_active(t, [2], 'slave 0 down')
    info = t.cmd('show port info 0')
    tp.check('Link status: down' in info, 'port 0 link not down:\n' + info)
    both_ways(t, 'failover to slave 2')
    tp.check(primary(t) == 2, 'primary not slave 2: %d' % primary(t))
    t.cmd('set link-up port 0')
    wait_active(t, [0, 2], 'slave 0 up again')
    # DPDK's bonding goes back to slave 0 only for a primary the user set:
    # slave 2 stays the primary.
    tp.check(primary(t) == 2, 'primary %d after slave 0 came back' %
             primary(t))
    both_ways(t, 'slave 0 back')
    return out


def case_mode(mode):
    t = bonded(mode)
    t.cmd('set portlist 1,3')
    both_ways(t, 'mode %d' % mode, mode == 2)
    if mode == 1:
        tp.check(active(t)[:1] == [0], 'primary not slave 0: %s' %
                 active(t))
        failover(t)
    out = t.quit()
    if mode == 1:
        # Slave 0: down and up; port 1 and slave 2 keep their link
        # (each still has a partner on the wire with its admin status up).
        for p, want in ((0, 2), (1, 0), (2, 0)):
            n = out.count('Port %d: link state change event' % p)
            tp.check(n == want, 'port %d: %d link events, want %d' %
                     (p, n, want))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--build', required=True)
    ap.add_argument('--testpmd', default='dpdk-testpmd')
    a = ap.parse_args()
    tp.BUILD = a.build
    tp.TESTPMD = shutil.which(a.testpmd)
    if tp.TESTPMD is None:
        print('%s not found: skipped' % a.testpmd)
        return 77
    passed = failed = 0
    for mode in (1, 2):
        t0 = time.time()
        try:
            case_mode(mode)
            passed += 1
            print('PASS mode %d (%.1f s)' % (mode, time.time() - t0),
                  flush=True)
        except tp.Failure as e:
            failed += 1
            print('FAIL mode %d: %s' % (mode, e), flush=True)
    print('Tests Run: %d, Passed: %d, Failed: %d' %
          (passed + failed, passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
