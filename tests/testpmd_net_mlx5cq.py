#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
"""net_mlx5cq driven through dpdk-testpmd on the emulated HCA.

Each case starts an interactive dpdk-testpmd with net_mlx5cq ports on
emulated wires, feeds it commands, and checks the statistics it prints.
Usage: testpmd_net_mlx5cq.py --build BUILD [CASE...]
"""

import argparse
import os
import re
import subprocess
import sys
import threading
import time

BUILD = None
# Packets in flight in io forward after "start tx_first": one burst of 32
# per TX queue of each port, never more (io forward conserves packets).
WINDOW = 64


class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


def drivers_dir():
    d = os.path.realpath(os.path.join(BUILD, 'drivers'))
    p = d
    while p != '/':
        p = os.path.dirname(p)
        if os.stat(p).st_mode & 0o002:
            raise Failure('%s is world-writable: EAL refuses -d' % p)
    return d


def vdev(n, wire='w0', extra=''):
    return ['--vdev', 'net_mlx5cq%d,dev=emu,wire=%s%s' %
            (n, wire, (',' + extra) if extra else '')]


def testpmd(vdevs, args, script, timeout=60, eal=()):
    """Run interactive testpmd; script is a list of commands or floats
    (seconds to wait). Returns the output."""
    d = drivers_dir()
    env = dict(os.environ)
    env['LD_LIBRARY_PATH'] = d + ':' + env.get('LD_LIBRARY_PATH', '')
    # Line-buffered: the command echo never splits a line of output.
    cmd = ['stdbuf', '-oL', 'dpdk-testpmd', '--no-pci', '--in-memory', '-l', '0,1',
           '--log-level=lib.eal:error', '-d', d] + list(eal) + vdevs + \
          ['--', '-i', '--nb-cores=1', '--total-num-mbufs=32768'] + args
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, env=env, text=True)
    chunks = []
    # Drain the output all along: a blocked writer would stall testpmd.
    reader = threading.Thread(target=lambda: chunks.extend(p.stdout))
    reader.start()
    try:
        for s in script + ['quit']:
            if isinstance(s, float):
                time.sleep(s)
                continue
            p.stdin.write(s + '\n')
            p.stdin.flush()
            time.sleep(0.2)
        p.stdin.close()
        p.wait(timeout=timeout)
    except (subprocess.TimeoutExpired, BrokenPipeError):
        p.kill()
        p.wait()
        reader.join()
        raise Failure('testpmd did not finish:\n' + ''.join(chunks)[-3000:])
    reader.join()
    out = ''.join(chunks)
    if p.returncode != 0:
        raise Failure('testpmd exit code %d:\n%s' % (p.returncode,
                                                     out[-3000:]))
    return out


def port_stats(out):
    """{port: {field: value}} from the last 'show port stats all'."""
    stats = {}
    for m in re.finditer(r'NIC statistics for port (\d+)\s+#+\n(.*?)#####',
                         out, re.S):
        d = {}
        for k, v in re.findall(r'([A-Za-z-]+):\s+(\d+)', m.group(2)):
            d[k] = int(v)
        stats[int(m.group(1))] = d
    return stats


def xstats(out, port):
    m = re.search(r'NIC extended statistics for port %d\s*\n(.*?)\n\n' %
                  port, out + '\n\n', re.S)
    check(m is not None, 'no xstats for port %d' % port)
    return {k: int(v) for k, v in
            re.findall(r'^(\w+): (\d+)$', m.group(1), re.M)}


def io_checks(st, name, queues=1):
    for p in (0, 1):
        check(st[p]['RX-packets'] > 0, '%s: port %d received nothing' %
              (name, p))
        check(st[p]['RX-errors'] == 0 and st[p]['TX-errors'] == 0,
              '%s: port %d errors %s' % (name, p, st[p]))
        check(st[p]['RX-nombuf'] == 0, '%s: port %d nombuf' % (name, p))
    for tx, rx in ((0, 1), (1, 0)):
        d = st[tx]['TX-packets'] - st[rx]['RX-packets']
        check(0 <= d <= WINDOW * queues, '%s: port %d TX %d vs port %d RX %d' %
              (name, tx, st[tx]['TX-packets'], rx, st[rx]['RX-packets']))


def case_io_forward():
    """io forward between two ports on one wire."""
    out = testpmd(vdev(0) + vdev(1), [],
                  ['start tx_first', 2.0, 'stop', 'show port stats all'])
    io_checks(port_stats(out), 'io')


def case_rss_4q():
    """4 queues: RSS spreads the flows over every queue of both ports."""
    out = testpmd(vdev(0) + vdev(1),
                  ['--rxq=4', '--txq=4', '--txonly-multi-flow',
                   '--rss-ip'],
                  ['start tx_first', 2.0, 'stop', 'show port stats all',
                   'show port xstats 0', 'show port xstats 1'])
    io_checks(port_stats(out), 'rss', 4)
    for p in (0, 1):
        x = xstats(out, p)
        for q in range(4):
            check(x['rx_q%d_packets' % q] > 0,
                  'rss: port %d rxq %d got nothing: %s' %
                  (p, q, [x['rx_q%d_packets' % i] for i in range(4)]))


def case_txonly_rxonly():
    """txonly on port 0, then rxonly: port 1 holds exactly rxq_desc
    frames (every posted buffer), the rest was dropped by the device."""
    out = testpmd(vdev(0) + vdev(1, extra='rxq_desc=256'),
                  ['--port-topology=loop'],
                  ['set fwd txonly', 'set portlist 0', 'start', 1.0, 'stop',
                   'set fwd rxonly', 'set portlist 0,1', 'start', 1.0,
                   'stop', 'show port stats all'])
    st = port_stats(out)
    check(st[0]['TX-packets'] > 256, 'txonly: port 0 sent %d' %
          st[0]['TX-packets'])
    check(st[1]['RX-packets'] == 256, 'rxonly: port 1 received %d, '
          'expected 256 (rxq_desc)' % st[1]['RX-packets'])
    check(st[0]['RX-packets'] == 0, 'port 0 received its own frames')


def case_csum():
    """csum forward with hardware IP/UDP checksum: the receiver sees good
    checksums only (the device computed what the PMD asked for)."""
    cmds = []
    for p in (0, 1):
        cmds += ['port stop %d' % p, 'csum set ip hw %d' % p,
                 'csum set udp hw %d' % p, 'port start %d' % p]
    out = testpmd(vdev(0) + vdev(1), ['--forward-mode=csum'],
                  cmds + ['start tx_first', 2.0, 'stop',
                          'show port stats all'])
    st = port_stats(out)
    for p in (0, 1):
        check(st[p]['RX-packets'] > 0, 'csum: port %d got nothing' % p)
    bad_ip = [int(v) for v in re.findall(r'Bad-ipcsum: (\d+)', out)]
    bad_l4 = [int(v) for v in re.findall(r'Bad-l4csum: (\d+)', out)]
    check(bad_ip and bad_l4, 'csum: no checksum statistics')
    check(sum(bad_ip) == 0 and sum(bad_l4) == 0,
          'csum: bad checksums seen: ip %s l4 %s' % (bad_ip, bad_l4))


def case_rx_flags():
    """rxonly verbose: RX offload flags of the CQE reach the mbuf, also
    through compressed CQEs."""
    for extra in ('', 'cqe_comp=csum', 'cqe_comp=hash',
                  'cqe_comp=l34h,cqe_comp_layout=enhanced'):
        rx_flags_one(extra)


def rx_flags_one(extra):
    out = testpmd(vdev(0, extra=extra) + vdev(1, extra=extra),
                  ['--rxq=2', '--txq=2', '--rss-udp'],
                  ['set fwd txonly', 'start', 0.5, 'stop',
                   'set fwd rxonly', 'set verbose 1', 'start', 0.5, 'stop',
                   'set verbose 0'])
    lines = [l for l in out.splitlines() if 'ol_flags' in l]
    check(lines, 'rx_flags %s: no verbose receive lines' % extra)
    rx = [l for l in lines if 'RSS hash' in l or 'RX_RSS_HASH' in l]
    check(rx, 'rx_flags: no RSS hash flag: %s' % lines[:2])
    for l in rx[:50]:
        check('RTE_MBUF_F_RX_IP_CKSUM_GOOD' in l and
              'RTE_MBUF_F_RX_L4_CKSUM_GOOD' in l,
              'rx_flags: checksum flags: %s' % l)
    check(re.search(r'L3_IPV4\S*\s+L4_UDP', out) is not None or
          ('L3_IPV4' in out and 'L4_UDP' in out),
          'rx_flags: packet type IPv4/UDP not reported')


def case_xstats():
    """show port xstats carries the mlx5cq CQ counters per queue."""
    out = testpmd(vdev(0) + vdev(1), [],
                  ['start tx_first', 1.0, 'stop', 'show port xstats 0'])
    x = xstats(out, 0)
    for d in ('rx', 'tx'):
        for c in ('completions', 'empty_polls', 'errors', 'polls',
                  'comp_unhandled'):
            check('%s_q0_cq_%s' % (d, c) in x, 'xstats: %s_q0_cq_%s '
                  'missing' % (d, c))
    check(x['rx_q0_cq_completions'] == x['rx_q0_packets'],
          'xstats: rx completions %d != packets %d' %
          (x['rx_q0_cq_completions'], x['rx_q0_packets']))
    check(x['rx_q0_cq_polls'] >= x['rx_q0_cq_empty_polls'] > 0,
          'xstats: polls')
    check(x['tx_q0_cq_completions'] > 0 and x['tx_q0_cq_errors'] == 0,
          'xstats: tx completions')
    # One completion per 32 packets (tx_comp_thresh default).
    check(x['tx_q0_cq_completions'] <= x['tx_q0_packets'] // 32 + 1,
          'xstats: %d tx completions for %d packets' %
          (x['tx_q0_cq_completions'], x['tx_q0_packets']))


CQE_SETTINGS = [
    'cqe_size=64',
    'cqe_size=128',
    'cqe_size=128,cqe_pad=1',
    'cq_path=devx',
    'cq_path=verbs',
    'cq_path=verbs,cqe_size=128',
    'tx_comp_thresh=1',
    'tx_comp_thresh=64,txq_desc=256,rxq_desc=128',
    'cqe_comp=hash',
    'cqe_comp=csum',
    'cqe_comp=csum_stridx',
    'cqe_comp=ftag',
    'cqe_comp=l34h',
    'cqe_comp=hash,cqe_comp_layout=enhanced',
    'cqe_comp=csum,cqe_size=128',
]


COMP_BITS = {'hash': 0x1, 'csum': 0x2, 'csum_stridx': 0x4, 'ftag': 0x8,
             'l34h': 0x10}


def cq_expect(setting, rx):
    """The CQ line the PMD logs (DEBUG) for a queue with these devargs."""
    a = dict(kv.split('=') for kv in setting.split(','))
    desc = int(a.get('rxq_desc' if rx else 'txq_desc', 512))
    comp = COMP_BITS[a['cqe_comp']] if rx and 'cqe_comp' in a else 0
    layout = 1 if rx and a.get('cqe_comp_layout') == 'enhanced' else 0
    return 'path %s entries %d cqe %s pad %s comp_format 0x%x layout %d' % (
        'verbs' if a.get('cq_path') == 'verbs' else 'devx', 2 * desc,
        a.get('cqe_size', '64'), a.get('cqe_pad', '0'), comp, layout)


def case_cqe_settings():
    """io forward with every CQE setting (size, padding, path,
    compression formats and layouts); each CQ is what the devargs ask."""
    for s in CQE_SETTINGS:
        out = testpmd(vdev(0, extra=s) + vdev(1, extra=s), [],
                      ['start tx_first', 1.0, 'stop', 'show port stats all',
                       'show port xstats 0'],
                      eal=['--log-level=pmd.net.mlx5cq:debug'])
        for d, rx in (('rx', True), ('tx', False)):
            m = re.search(r'port 0 %sq 0: CQ 0x[0-9a-f]+ (.*)' % d, out)
            check(m is not None, '%s: no %s CQ log line' % (s, d))
            check(m.group(1).strip() == cq_expect(s, rx),
                  '%s: %s CQ "%s", expected "%s"' % (s, d, m.group(1),
                                                     cq_expect(s, rx)))
        io_checks(port_stats(out), s)
        x = xstats(out, 0)
        if 'cqe_comp' in s:
            check(x['rx_q0_cq_minis'] > 0,
                  '%s: no completion came from a mini-CQE' % s)
        check(x['rx_q0_cq_comp_unhandled'] == 0,
              '%s: compressed CQEs left unhandled' % s)
        check(x['rx_q0_cq_completions'] == x['rx_q0_packets'],
              '%s: completions %d packets %d' % (s,
              x['rx_q0_cq_completions'], x['rx_q0_packets']))
        print('  %-45s rx %9d  minis %d' % (s, port_stats(out)[0]
              ['RX-packets'], x.get('rx_q0_cq_minis', 0)))


BAD_DEVARGS = [
    ('foo=1', 'unknown key foo'),
    ('cq_path=dma', 'bad value "dma" for cq_path'),
    ('cqe_size=96', 'bad value "96" for cqe_size'),
    ('cqe_pad=2', 'bad value "2" for cqe_pad'),
    ('cqe_pad=1', 'cqe_pad=1 needs cqe_size=128'),
    ('cqe_comp=zip', 'bad value "zip" for cqe_comp'),
    ('cqe_comp_layout=fancy', 'bad value "fancy" for cqe_comp_layout'),
    ('cqe_comp_layout=enhanced', 'cqe_comp_layout=enhanced needs cqe_comp'),
    ('rxq_desc=8', 'bad value "8" for rxq_desc'),
    ('txq_desc=abc', 'bad value "abc" for txq_desc'),
    ('tx_comp_thresh=0', 'bad value "0" for tx_comp_thresh'),
    ('mac=01:00:5e:00:00:01', 'bad value "01:00:5e:00:00:01" for mac'),
    ('mac=zz', 'bad value "zz" for mac'),
    ('wire=', 'bad value "" for wire'),
    ('dev=mlx5_99', 'dev=mlx5_99'),
]


def case_bad_devargs():
    """Each bad devarg fails the probe with a log line naming it."""
    d = drivers_dir()
    env = dict(os.environ)
    env['LD_LIBRARY_PATH'] = d + ':' + env.get('LD_LIBRARY_PATH', '')
    for arg, msg in BAD_DEVARGS:
        dev = 'net_mlx5cq0,' + (arg if arg.startswith('dev=') else
                                'dev=emu,' + arg)
        p = subprocess.run(['dpdk-testpmd', '--no-pci', '--in-memory',
                            '-l', '0,1', '--log-level=lib.eal:error',
                            '-d', d, '--vdev', dev],
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, env=env, text=True,
                           timeout=60)
        check(msg in p.stdout, 'devarg %s: no "%s" in:\n%s' %
              (arg, msg, p.stdout[-1500:]))
        check('port 0 on' not in p.stdout, 'devarg %s: probed' % arg)


CASES = {
    'io_forward': case_io_forward,
    'rss_4q': case_rss_4q,
    'txonly_rxonly': case_txonly_rxonly,
    'csum': case_csum,
    'rx_flags': case_rx_flags,
    'xstats': case_xstats,
    'cqe_settings': case_cqe_settings,
    'bad_devargs': case_bad_devargs,
}


def main():
    global BUILD
    ap = argparse.ArgumentParser()
    ap.add_argument('--build', required=True)
    ap.add_argument('cases', nargs='*')
    a = ap.parse_args()
    BUILD = a.build
    names = a.cases or list(CASES)
    passed = failed = 0
    for n in names:
        t0 = time.time()
        try:
            CASES[n]()
            passed += 1
            print('PASS %s (%.1f s)' % (n, time.time() - t0), flush=True)
        except Failure as e:
            failed += 1
            print('FAIL %s: %s' % (n, e), flush=True)
    print('Tests Run: %d, Passed: %d, Failed: %d' %
          (passed + failed, passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
