#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
"""Soak of net_mlx5cq in dpdk-testpmd (devtools/soak.sh; not in CI).

Two net_mlx5cq ports on one emulated wire, driven interactively as
tests/testpmd_net_mlx5cq.py does, for MINUTES: cycles of
  clear stats, start tx_first (io or mac forward, alternating),
  forward for a few seconds, stop, drain (rxonly until both ports'
  RX counts stay still for a second), conservation check,
  port stop all, a new configuration (RX/TX queues 1..4, descriptors
  256..2048), port start all.
Conservation, exact, per cycle and direction: every packet port A put on
the wire (TX-packets) was received by port B (RX-packets), or counted by
B as missed (RX-missed: no buffer) or in error (RX-errors). Nothing may
be lost between them (the emulated wire drops nothing in promiscuous
mode), and nothing may be counted twice.
Usage: soak_testpmd.py --build BUILD --minutes N
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'tests'))
import testpmd_net_mlx5cq as tp  # noqa: E402


def settle(t):
    """Stats once both ports' RX counts stayed still for one second."""
    last = None
    deadline = time.time() + tp.WAIT
    while True:
        st = tp.port_stats(t.cmd('show port stats all'))
        key = tuple((st[p]['RX-packets'], st[p]['RX-missed'],
                     st[p]['TX-packets']) for p in (0, 1))
        if key == last:
            return st
        if time.time() > deadline:
            raise tp.Failure('stats never settled: %s' % st)
        last = key
        time.sleep(1.0)


def conserve(st, cycle):
    lost = 0
    for a, b in ((0, 1), (1, 0)):
        got = st[b]['RX-packets'] + st[b]['RX-missed'] + st[b]['RX-errors']
        tp.check(st[a]['TX-packets'] == got,
                 'cycle %d: port %d sent %d, port %d received %d + missed '
                 '%d + errors %d' % (cycle, a, st[a]['TX-packets'], b,
                                     st[b]['RX-packets'], st[b]['RX-missed'],
                                     st[b]['RX-errors']))
        lost += st[a]['TX-packets'] - got
    return lost


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--build', required=True)
    ap.add_argument('--minutes', type=float, default=5)
    ap.add_argument('--seconds-per-cycle', type=float, default=4)
    ap.add_argument('--seed', type=int, default=1)
    a = ap.parse_args()
    tp.BUILD = os.path.abspath(a.build)
    rnd = random.Random(a.seed)
    t = tp.Testpmd(tp.vdev(0) + tp.vdev(1),
                   ['--rxq=1', '--txq=1', '--rxd=512', '--txd=512'])
    end = time.time() + a.minutes * 60
    cycle = 0
    tot = {'tx': 0, 'rx': 0, 'missed': 0}
    try:
        while time.time() < end:
            mode = 'io' if cycle % 2 == 0 else 'mac'
            t.cmd('clear port stats all')
            t.cmd('set fwd %s' % mode)
            t.cmd('start tx_first')
            time.sleep(a.seconds_per_cycle)
            t.cmd('stop')
            # Drain what is still queued: nobody sends any more.
            t.cmd('set fwd rxonly')
            t.cmd('start')
            st = settle(t)
            t.cmd('stop')
            conserve(st, cycle)
            for p in (0, 1):
                tot['tx'] += st[p]['TX-packets']
                tot['rx'] += st[p]['RX-packets']
                tot['missed'] += st[p]['RX-missed']
            print('cycle %d %s: TX %d/%d RX %d/%d missed %d/%d' %
                  (cycle, mode, st[0]['TX-packets'], st[1]['TX-packets'],
                   st[0]['RX-packets'], st[1]['RX-packets'],
                   st[0]['RX-missed'], st[1]['RX-missed']), flush=True)
            # A new configuration for the next cycle.
            q = rnd.choice((1, 2, 4))
            rxd = rnd.choice((256, 512, 1024, 2048))
            txd = rnd.choice((256, 512, 1024, 2048))
            t.cmd('port stop all')
            t.cmd('port config all rxq %d' % q)
            t.cmd('port config all txq %d' % q)
            t.cmd('port config all rxd %d' % rxd)
            t.cmd('port config all txd %d' % txd)
            out = t.cmd('port start all')
            tp.check('Fail' not in out and 'fail' not in out,
                     'port start (rxq/txq %d rxd %d txd %d): %s' %
                     (q, rxd, txd, out))
            cycle += 1
        t.quit()
    except tp.Failure as e:
        print('soak FAILED: %s' % e)
        return 1
    print('soak OK: %d cycles in %.1f min, %d packets sent, %d received, '
          '%d missed, 0 lost' % (cycle, a.minutes, tot['tx'], tot['rx'],
                                 tot['missed']))
    return 0


if __name__ == '__main__':
    sys.exit(main())
