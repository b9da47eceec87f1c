#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
"""Every dpdk-testpmd forwarding mode on net_mlx5cq, two queues a port.

Two net_mlx5cq ports on one emulated wire, --rxq=2 --txq=2, one mode at
a time, started with "start tx_first" (a burst of 32 packets on every
TX queue of each port, 4 bursts in all), stopped after traffic moved.
Each mode is checked against what it does with a packet:
  forwarding modes (io, mac, macswap, 5tswap, csum, noisy): every stream
      sends what it received plus its first burst (RX + 32 = TX +
      TX-dropped); the NIC counters of each direction agree (what one
      port sent, the other received, less what is in flight); no port
      misses a frame;
  rxonly, icmpecho (the first bursts are UDP: not echoed): each port
      receives exactly the 64 frames of the other's first bursts and
      sends nothing more;
  flowgen: both ports send their own flows and receive the other's;
  txonly: both send, nobody polls: the frames the receive rings cannot
      hold show as RX-missed;
  flowgen and txonly exactly: what one port sent, the other received,
      missed, or holds in its RX queues ("desc used count", the PMD's
      rx_queue_count).
Exit status 77 (meson: skipped) when dpdk-testpmd is not found.
Usage: testpmd_fwd_modes.py --build BUILD [--testpmd PROG] [MODE...]
"""

import argparse
import os
import re
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testpmd_net_mlx5cq as tp  # noqa: E402

BURST = 32
QUEUES = 2
FIRST = BURST * QUEUES  # Frames of one port's first bursts.
FORWARD = ('io', 'mac', 'macswap', '5tswap', 'csum', 'noisy')
ALL = FORWARD + ('rxonly', 'icmpecho', 'flowgen', 'txonly')


def streams(out):
    """[(rx port, tx port, RX, TX, TX-dropped)] of the stop output."""
    r = []
    for m in re.finditer(r'Forward Stats for RX Port=\s*(\d+)/Queue=\s*\d+'
                         r' -> TX Port=\s*(\d+)/Queue=\s*\d+\s*-+\s*\n'
                         r'\s*RX-packets:\s*(\d+)\s+TX-packets:\s*(\d+)'
                         r'\s+TX-dropped:\s*(\d+)', out):
        r.append(tuple(int(v) for v in m.groups()))
    return r


def fwd_port(out, p):
    """{RX-packets, RX-dropped, ...} of 'Forward statistics for port p'."""
    m = re.search(r'Forward statistics for port %d\s*-+\s*\n(.*?)\n\s*-{20}'
                  % p, out, re.S)
    tp.check(m is not None, 'no forward statistics for port %d' % p)
    return {k: int(v) for k, v in
            re.findall(r'([A-Za-z-]+):\s*(\d+)', m.group(1))}


def used(t, p):
    """Frames waiting in port p's RX queues (rte_eth_rx_queue_count())."""
    n = 0
    for q in range(QUEUES):
        out = t.cmd('show port %d rxq %d desc used count' % (p, q))
        m = re.search(r'Used desc count = (\d+)', out)
        tp.check(m is not None, 'port %d rxq %d: no used count: %s' %
                 (p, q, out))
        n += int(m.group(1))
    return n


def run_mode(mode):
    t = tp.Testpmd(tp.vdev(0, 'fm') + tp.vdev(1, 'fm'),
                   ['--rxq=%d' % QUEUES, '--txq=%d' % QUEUES,
                    '--burst=%d' % BURST])
    t.cmd('set fwd %s' % mode)
    if mode in ('flowgen', 'txonly'):
        t.cmd('start')
        t.wait_stats(lambda st: all(st[p]['TX-packets'] >= 8 * FIRST
                                    for p in (0, 1)),
                     '%s: both ports sending' % mode)
    else:
        t.cmd('start tx_first')
        need = FIRST if mode in ('rxonly', 'icmpecho') else 20 * FIRST
        t.wait_stats(tp.moved(need), '%s: traffic' % mode)
    out = t.cmd('stop')
    # What the device still executes lands before the counters are read.
    time.sleep(0.5)
    st = tp.port_stats(t.cmd('show port stats all'))
    waiting = {p: used(t, p) for p in (0, 1)}
    t.quit()
    for p in (0, 1):
        tp.check(st[p]['RX-errors'] == 0 and st[p]['TX-errors'] == 0,
                 '%s: port %d errors: %s' % (mode, p, st[p]))
        tp.check(st[p]['RX-nombuf'] == 0, '%s: port %d nombuf' % (mode, p))
    if mode in FORWARD:
        ss = streams(out)
        tp.check(len(ss) == 2 * QUEUES, '%s: %d streams' % (mode, len(ss)))
        for rx_p, tx_p, rx, tx, drop in ss:
            tp.check(rx + BURST == tx + drop, '%s: stream %d->%d RX %d + '
                     '%d != TX %d + dropped %d' %
                     (mode, rx_p, tx_p, rx, BURST, tx, drop))
        for a, b in ((0, 1), (1, 0)):
            d = st[a]['TX-packets'] - st[b]['RX-packets']
            tp.check(0 <= d <= FIRST, '%s: port %d sent %d, port %d '
                     'received %d' % (mode, a, st[a]['TX-packets'], b,
                                      st[b]['RX-packets']))
            tp.check(st[b]['RX-missed'] == 0, '%s: port %d missed %d' %
                     (mode, b, st[b]['RX-missed']))
    elif mode in ('rxonly', 'icmpecho'):
        for p in (0, 1):
            f = fwd_port(out, p)
            tp.check(f['RX-total'] == FIRST and st[p]['RX-packets'] == FIRST,
                     '%s: port %d received %d (NIC %d), expected %d' %
                     (mode, p, f['RX-total'], st[p]['RX-packets'], FIRST))
            tp.check(st[p]['TX-packets'] == FIRST, '%s: port %d sent %d, '
                     'expected its first bursts (%d)' %
                     (mode, p, st[p]['TX-packets'], FIRST))
    else:
        # Every frame one port sent was received by the other, missed by
        # its device (no buffer), or waits in its RX queues (desc used).
        for a, b in ((0, 1), (1, 0)):
            got = st[b]['RX-packets'] + st[b]['RX-missed'] + waiting[b]
            tp.check(st[a]['TX-packets'] == got, '%s: port %d sent %d, '
                     'port %d received %d, missed %d, %d waiting' %
                     (mode, a, st[a]['TX-packets'], b, st[b]['RX-packets'],
                      st[b]['RX-missed'], waiting[b]))
            if mode == 'flowgen':
                tp.check(st[b]['RX-packets'] > 0, 'flowgen: port %d '
                         'received nothing' % b)
            else:  # txonly: nobody polls, rings fill, the rest is missed
                tp.check(st[b]['RX-packets'] == 0 and
                         st[b]['RX-missed'] > 0, 'txonly: port %d '
                         'received %d, missed %d' %
                         (b, st[b]['RX-packets'], st[b]['RX-missed']))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--build', required=True)
    ap.add_argument('--testpmd', default='dpdk-testpmd')
    ap.add_argument('modes', nargs='*')
    a = ap.parse_args()
    tp.BUILD = a.build
    tp.TESTPMD = shutil.which(a.testpmd)
    if tp.TESTPMD is None:
        print('%s not found: skipped' % a.testpmd)
        return 77
    passed = failed = 0
    for mode in a.modes or ALL:
        t0 = time.time()
        try:
            run_mode(mode)
            passed += 1
            print('PASS %s (%.1f s)' % (mode, time.time() - t0), flush=True)
        except tp.Failure as e:
            failed += 1
            print('FAIL %s: %s' % (mode, e), flush=True)
    print('Tests Run: %d, Passed: %d, Failed: %d' %
          (passed + failed, passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
