#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
"""Port operations of dpdk-testpmd on net_mlx5cq, each checked by what
testpmd reports and by the traffic that follows.

Two ports on one emulated wire:
  stop/start and queue counts: 2 queues, then 4, forwarding resumes
      with every RX queue of both ports used (RSS on UDP/IP, flows of
      --txonly-multi-flow);
  RSS: hash types set to none put every flow on queue 0; a RETA that
      names queue 3 alone sends everything there (other queues count at
      most the bursts left from the run before); 'show port P rss reta'
      reads back what was set (the first 4 entries too); a new hash key
      reads back;
  MTU: 1400 read back in 'show port info';
  promiscuous and all-multicast: read back; with promiscuous off and
      the peer's txonly frames addressed to another MAC, nothing is
      received until that MAC is added (mac_addr add), and nothing again
      once it is removed;
  multicast MAC: added and removed without error;
  close and attach: port 1 closed, a new net_mlx5cq port attached on the
      same wire forwards with port 0.
Exit status 77 (meson: skipped) when dpdk-testpmd is not found.
Usage: testpmd_port_ops.py --build BUILD [--testpmd PROG]
"""

import argparse
import os
import re
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testpmd_net_mlx5cq as tp  # noqa: E402

PEER = '02:00:00:00:00:77'
MCAST = '01:00:5E:00:00:07'
# Frames a queue may still hold from the run before (io forward keeps at
# most one burst of 32 in flight for each of the 4 streams of a port):
# testpmd drains them at start and the queue's counter counts them.
RESIDUE = 4 * 32


def xq(t, p, nq):
    x = tp.xstats(t.cmd('show port xstats %d' % p), p)
    return [x['rx_q%d_packets' % q] for q in range(nq)]


def burst(t, ports, what, more=256):
    """Forward for a while (io, tx_first); returns the port stats."""
    t.cmd('clear port stats all')
    t.cmd('start tx_first')
    st = t.wait_stats(lambda s: all(s[p]['RX-packets'] >= more
                                    for p in ports), what)
    t.cmd('stop')
    return st


def info(t, p, key):
    m = re.search(r'^%s: (.*)$' % re.escape(key),
                  t.cmd('show port info %d' % p), re.M)
    tp.check(m is not None, 'port %d: no "%s" in port info' % (p, key))
    return m.group(1).strip()


def case_queues_rss(t):
    burst(t, (0, 1), 'two queues')
    for c in ('port stop all', 'port config all rxq 4',
              'port config all txq 4', 'port start all'):
        out = t.cmd(c)
        tp.check('rror' not in out and 'ail' not in out,
                 '"%s": %s' % (c, out))
    tp.check(info(t, 0, 'Current number of RX queues') == '4',
             'rxq count not 4')
    for p in (0, 1):
        t.cmd('clear port xstats %d' % p)
    burst(t, (0, 1), 'four queues', 4096)
    for p in (0, 1):
        got = xq(t, p, 4)
        tp.check(all(n > 0 for n in got), 'port %d: rxqs %s' % (p, got))
    # No hash types: every flow to the RETA's first entry (queue 0).
    t.cmd('port config all rss none')
    for p in (0, 1):
        t.cmd('clear port xstats %d' % p)
    burst(t, (0, 1), 'rss none', 4096)
    for p in (0, 1):
        got = xq(t, p, 4)
        tp.check(got[0] >= 4096 - 3 * RESIDUE and
                 max(got[1:]) <= RESIDUE,
                 'rss none: port %d rxqs %s' % (p, got))
    t.cmd('port config all rss ip')
    t.cmd('port config all rss udp')
    # testpmd's command line takes 16 entries at a time.
    for first in range(0, 64, 16):
        entries = ','.join('(%d,3)' % i for i in range(first, first + 16))
        out = t.cmd('port config 0 rss reta %s' % entries)
        tp.check('rror' not in out and 'ail' not in out and
                 'Bad' not in out, 'reta: %s' % out)
    out = t.cmd('show port 0 rss reta 64 (0xffffffffffffffff)')
    tp.check(len(re.findall(r'RSS RETA configuration: hash index=\d+, '
                            r'queue=3', out)) == 64, 'reta: %s' % out[:400])
    out = t.cmd('show port 0 rss reta 4 (0xf)')
    tp.check(len(re.findall(r'queue=3', out)) == 4,
             'reta of 4 entries: %s' % out[:400])
    t.cmd('clear port xstats 0')
    burst(t, (0,), 'reta to queue 3', 4096)
    got = xq(t, 0, 4)
    tp.check(got[3] >= 4096 - 3 * RESIDUE and max(got[:3]) <= RESIDUE,
             'reta: port 0 rxqs %s' % got)
    key = '6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030' \
          'f20c6a42b73bbeac01fa'
    out = t.cmd('port config 0 rss-hash-key ipv4 %s' % key)
    tp.check('rror' not in out and 'ail' not in out, 'key: %s' % out)
    out = t.cmd('show port 0 rss-hash key')
    tp.check(key.upper() in out.upper().replace(' ', ''),
             'key not read back: %s' % out)


def case_mtu_modes(t):
    out = t.cmd('port config mtu 0 1400')
    tp.check('rror' not in out, 'mtu: %s' % out)
    tp.check(info(t, 0, 'MTU') == '1400', 'MTU not 1400')
    t.cmd('set allmulti 0 on')
    tp.check(info(t, 0, 'Allmulticast mode') == 'enabled', 'allmulti on')
    t.cmd('set allmulti 0 off')
    tp.check(info(t, 0, 'Allmulticast mode') == 'disabled', 'allmulti off')
    for c in ('mcast_addr add 0 01:00:5e:00:00:01',
              'mcast_addr remove 0 01:00:5e:00:00:01'):
        out = t.cmd(c)
        tp.check('rror' not in out and 'ail' not in out,
                 '"%s": %s' % (c, out))
    # Port 1 sends to PEER, then to the group MCAST; port 0, neither
    # promiscuous nor all-multicast, takes them only while PEER is one of
    # its addresses (mac_addr) or MCAST in its multicast list (mcast_addr).
    t.cmd('set promisc 0 off')
    tp.check(info(t, 0, 'Promiscuous mode') == 'disabled', 'promisc off')
    t.cmd('set fwd txonly')
    for dst, add, remove in (
            (PEER, 'mac_addr add 0 %s', 'mac_addr remove 0 %s'),
            (MCAST, 'mcast_addr add 0 %s', 'mcast_addr remove 0 %s')):
        t.cmd('set eth-peer 1 %s' % dst)
        for added in (False, True, False):
            if added:
                t.cmd(add % dst)
            t.cmd('clear port stats all')
            t.cmd('start')
            st = t.wait_stats(lambda s: s[1]['TX-packets'] >= 4096,
                              'txonly to %s' % dst)
            time.sleep(0.2)
            t.cmd('stop')
            st = tp.port_stats(t.cmd('show port stats all'))
            if added:
                tp.check(st[0]['RX-missed'] > 0,
                         '%s added, port 0 took nothing: %s' % (dst, st[0]))
                t.cmd(remove % dst)
            else:
                # Not polled in txonly: what the filter let in would
                # fill the rings and be missed (RX-packets counts only
                # what testpmd drains from the run before at start).
                tp.check(st[0]['RX-missed'] == 0,
                         'frames to %s taken: %s' % (dst, st[0]))
    t.cmd('set promisc 0 on')
    tp.check(info(t, 0, 'Promiscuous mode') == 'enabled', 'promisc on')
    t.cmd('set fwd io')


def case_runtime_txq(t):
    """Each TX queue, then each RX queue of port 0 stopped, set up again
    and started while the port runs (runtime queue setup; the new RQ takes
    the old one's place in the RSS table); io forwarding goes on."""
    for kind, what in (('txq', 'TX'), ('rxq', 'RX')):
        nq = int(info(t, 0, 'Current number of %s queues' % what))
        for q in range(nq):
            for c in ('port 0 %s %d stop' % (kind, q),
                      'port 0 %s %d setup' % (kind, q),
                      'port 0 %s %d start' % (kind, q)):
                out = t.cmd(c)
                tp.check('ail' not in out and 'rror' not in out,
                         '"%s": %s' % (c, out))
        burst(t, (0, 1), 'after runtime %s queue setup' % what)


def case_close_attach(t):
    for c in ('port stop 1', 'port close 1'):
        t.cmd(c)
    out = t.cmd('port attach net_mlx5cq2,dev=emu,wire=po')
    m = re.search(r'Port (\d+) is attached', out)
    tp.check(m is not None, 'attach: %s' % out)
    new = int(m.group(1))
    for c in ('port config %d rxq 4' % new, 'port config %d txq 4' % new,
              'port start %d' % new, 'set portlist 0,%d' % new):
        t.cmd(c)
    burst(t, (0, new), 'port 0 and the attached port %d' % new)


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
    t = tp.Testpmd(tp.vdev(0, 'po') + tp.vdev(1, 'po'),
                   ['--rxq=2', '--txq=2', '--rxd=512', '--txd=512',
                    '--txonly-multi-flow',
                    '--rss-udp'])
    for name, fn in (('queues_rss', case_queues_rss),
                     ('mtu_modes', case_mtu_modes),
                     ('runtime_txq', case_runtime_txq),
                     ('close_attach', case_close_attach)):
        t0 = time.time()
        try:
            fn(t)
            passed += 1
            print('PASS %s (%.1f s)' % (name, time.time() - t0), flush=True)
        except tp.Failure as e:
            failed += 1
            print('FAIL %s: %s' % (name, e), flush=True)
            break
    try:
        t.quit()
    except tp.Failure as e:
        failed += 1
        print('FAIL quit: %s' % e)
    print('Tests Run: %d, Passed: %d, Failed: %d' %
          (passed + failed, passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
