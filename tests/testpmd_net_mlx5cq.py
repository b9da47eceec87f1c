#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
"""net_mlx5cq driven through dpdk-testpmd on the emulated HCA.

Each case starts an interactive dpdk-testpmd with net_mlx5cq ports on
emulated wires, feeds it commands, and checks the statistics it prints.
Usage: testpmd_net_mlx5cq.py --build BUILD [CASE...]
Exit status 77 (meson: skipped) when the program named by --testpmd is not
found.
"""

import argparse
import atexit
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
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


# dpdk-testpmd of the DPDK the build uses (--testpmd, from meson): with
# --no-pci, or with EAL's PCI bus on a harness's tree alone.
TESTPMD = 'dpdk-testpmd'
PROMPT = 'testpmd> '
# testpmd prints an ethdev event from the thread that delivers it
# (eth_event_callback(): "\nPort N: <event> event\n"), so an event can land
# inside the prompt, between any two of its characters: the prompt is
# matched with such lines allowed anywhere in it.
EVENT_LINE = r'(?:\nPort \d+: [^\n]* event\n)*'
PROMPT_RE = re.compile(EVENT_LINE.join(re.escape(c) for c in PROMPT))
# Every wait for testpmd or for traffic is bounded by this (seconds): far
# above what an idle machine needs, so that only a real fault fails.
WAIT = 90


class Testpmd:
    """Interactive dpdk-testpmd: each command is written once the previous
    one has returned (its prompt came back) and its output is returned."""

    alive = []  # Every instance; the exit handler kills those still up.

    @staticmethod
    def kill_left():
        """Kill the testpmd of every case that failed before quit."""
        for t in Testpmd.alive:
            if t.p.poll() is None:
                t.p.kill()
                t.p.wait()

    def __init__(self, vdevs, args, eal=(), prefix=None,
                 bus=('--no-pci',), plugin=None, wrap=(), env_add=None):
        """bus: EAL's PCI options (--no-pci, or -a of a harness's PCI
        tree); plugin: what -d loads (default the PMD alone); wrap: a
        command to run testpmd under (ip netns exec NS); env_add: more
        environment."""
        d = drivers_dir()
        env = dict(os.environ)
        env['LD_LIBRARY_PATH'] = d + ':' + env.get('LD_LIBRARY_PATH', '')
        env.update(env_add or {})
        # Memory: private (--in-memory), or shared hugepage files under a
        # prefix that secondary processes attach to.
        mem = ['--file-prefix', prefix] if prefix else ['--in-memory']
        # Line-buffered: the command echo never splits a line of output.
        cmd = list(wrap) + ['stdbuf', '-oL', TESTPMD] + list(bus) + mem + [
               '-l', '0,1', '--log-level=lib.eal:error',
               # The PMD alone: dev=emu loads the emulated HCA through
               # its plugin loader (next to librte_common_mlx5cq).
               '-d', plugin or os.path.join(d, 'librte_net_mlx5cq.so')] + \
            list(eal) + vdevs + \
            ['--', '-i', '--no-mlockall', '--nb-cores=1', '--total-num-mbufs=32768'] + args
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, env=env)
        self.buf = ''
        self.eof = False
        self.cv = threading.Condition()
        # Drain the output all along: a blocked writer would stall testpmd.
        # A daemon: a case that fails leaves its testpmd to the exit
        # handler below, and the interpreter does not wait for its output.
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        Testpmd.alive.append(self)
        self.pos = 0
        self._until_prompt('testpmd start')

    def _read(self):
        fd = self.p.stdout.fileno()
        while True:
            b = os.read(fd, 65536)
            with self.cv:
                if not b:
                    self.eof = True
                    self.cv.notify_all()
                    return
                self.buf += b.decode(errors='replace')
                self.cv.notify_all()

    def _until_prompt(self, what):
        deadline = time.time() + WAIT
        with self.cv:
            while True:
                m = PROMPT_RE.search(self.buf, self.pos)
                if m is not None:
                    out = self.buf[self.pos:m.start()]
                    self.pos = m.end()
                    return out
                left = deadline - time.time()
                if left <= 0 or self.eof:
                    break
                self.cv.wait(left)
        self.kill()
        raise Failure('testpmd: no prompt after %s:\n%s' %
                      (what, self.buf[-3000:]))

    def cmd(self, c):
        try:
            self.p.stdin.write((c + '\n').encode())
            self.p.stdin.flush()
        except BrokenPipeError:
            self.kill()
            raise Failure('testpmd gone before "%s":\n%s' %
                          (c, self.buf[-3000:]))
        return self._until_prompt('"%s"' % c)

    def cmds(self, cs):
        """Run each command of cs; none may answer an error."""
        for c in cs:
            out = self.cmd(c)
            check('rror' not in out and 'nvalid' not in out,
                  '%s: %s' % (c, out))

    def wait_for(self, c, parse, cond, what):
        """Run command c until cond(parse(output)) holds (at most WAIT
        seconds); returns the parsed value."""
        deadline = time.time() + WAIT
        while True:
            v = parse(self.cmd(c))
            if cond(v):
                return v
            if time.time() > deadline:
                self.kill()
                raise Failure('%s: still not so after %d s: %s' %
                              (what, WAIT, v))
            time.sleep(0.1)

    def wait_text(self, text, start, what):
        """Wait (at most WAIT seconds) until text is in the output at or
        after index start; its index."""
        deadline = time.time() + WAIT
        with self.cv:
            while True:
                i = self.buf.find(text, start)
                if i >= 0:
                    return i
                left = deadline - time.time()
                if left <= 0 or self.eof:
                    break
                self.cv.wait(left)
        self.kill()
        raise Failure('%s: no "%s" after %d s:\n%s' %
                      (what, text, WAIT, self.buf[-3000:]))

    def wait_stats(self, cond, what):
        return self.wait_for('show port stats all', port_stats, cond, what)

    def kill(self):
        self.p.kill()
        self.p.wait()
        self.reader.join()

    def quit(self):
        try:
            self.p.stdin.write(b'quit\n')
            self.p.stdin.close()
            self.p.wait(timeout=WAIT)
        except (subprocess.TimeoutExpired, BrokenPipeError):
            self.kill()
            raise Failure('testpmd did not quit:\n' + self.buf[-3000:])
        self.reader.join()
        if self.p.returncode != 0:
            raise Failure('testpmd exit code %d:\n%s' %
                          (self.p.returncode, self.buf[-3000:]))
        return self.buf


atexit.register(Testpmd.kill_left)


def moved(n):
    """Condition: both ports received at least n packets."""
    return lambda st: all(st.get(p, {}).get('RX-packets', 0) >= n
                          for p in (0, 1))


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
    t = Testpmd(vdev(0) + vdev(1), [])
    t.cmd('start tx_first')
    t.wait_stats(moved(10 * WINDOW), 'io: forwarding')
    t.cmd('stop')
    io_checks(port_stats(t.cmd('show port stats all')), 'io')
    t.quit()


def case_rss_4q():
    """4 queues: RSS spreads the flows over every queue of both ports.

    RSS on IP addresses and UDP ports: --txonly-multi-flow varies the
    source IP address up to DPDK 23.03 and the UDP source port from 23.07
    on (DPDK commit 94f633f6cd), so hashing on IP addresses alone puts
    every packet on one queue there."""
    t = Testpmd(vdev(0) + vdev(1),
                ['--rxq=4', '--txq=4', '--txonly-multi-flow', '--rss-udp'])
    t.cmd('start tx_first')
    for p in (0, 1):
        t.wait_for('show port xstats %d' % p, lambda o: xstats(o, p),
                   lambda x: all(x['rx_q%d_packets' % q] > 0
                                 for q in range(4)),
                   'rss: every rxq of port %d' % p)
    t.cmd('stop')
    io_checks(port_stats(t.cmd('show port stats all')), 'rss', 4)
    for p in (0, 1):
        x = xstats(t.cmd('show port xstats %d' % p), p)
        for q in range(4):
            check(x['rx_q%d_packets' % q] > 0,
                  'rss: port %d rxq %d got nothing: %s' %
                  (p, q, [x['rx_q%d_packets' % i] for i in range(4)]))
    t.quit()


def case_txonly_rxonly():
    """txonly on port 0, then rxonly: port 1 holds exactly rxq_desc
    frames (every posted buffer), the rest was dropped by the device.
    Port 0's send ring holds 256 WQEs: once it posted 256 + 256 frames the
    device executed at least 256 of them (port 1's ring is full); port 0
    is then stopped (its SQ destroyed) so nothing more arrives."""
    t = Testpmd(vdev(0, extra='txq_desc=256') +
                vdev(1, extra='rxq_desc=256'), ['--port-topology=loop'])
    for c in ('set fwd txonly', 'set portlist 0', 'start'):
        t.cmd(c)
    t.wait_stats(lambda st: st[0]['TX-packets'] >= 4 * 256,
                 'txonly: port 0 sent 1024')
    for c in ('stop', 'port stop 0', 'port start 0', 'set fwd rxonly',
              'set portlist 0,1', 'start'):
        t.cmd(c)
    t.wait_stats(lambda st: st[1]['RX-packets'] >= 256,
                 'rxonly: port 1 received 256')
    t.cmd('stop')
    st = port_stats(t.cmd('show port stats all'))
    t.quit()
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
    t = Testpmd(vdev(0) + vdev(1), ['--forward-mode=csum'])
    for c in cmds:
        t.cmd(c)
    t.cmd('start tx_first')
    t.wait_stats(moved(10 * WINDOW), 'csum: forwarding')
    out = t.cmd('stop')
    st = port_stats(t.cmd('show port stats all'))
    t.quit()
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
    for extra in ('', 'cqe_comp=none', 'cqe_comp=csum', 'cqe_comp=hash',
                  'cqe_comp=l34h,cqe_comp_layout=enhanced'):
        rx_flags_one(extra)


def rx_flags_one(extra):
    t = Testpmd(vdev(0, extra=extra) + vdev(1, extra=extra),
                ['--rxq=2', '--txq=2', '--rss-udp'])
    t.cmd('set fwd txonly')
    t.cmd('start')
    t.wait_stats(lambda st: st[0]['TX-packets'] >= 2 * WINDOW and
                 st[1]['TX-packets'] >= 2 * WINDOW,
                 'rx_flags %s: txonly' % extra)
    for c in ('stop', 'set fwd rxonly', 'set verbose 1', 'start'):
        t.cmd(c)
    t.wait_stats(moved(1), 'rx_flags %s: rxonly' % extra)
    t.cmd('stop')
    t.cmd('set verbose 0')
    out = t.quit()
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
    t = Testpmd(vdev(0) + vdev(1), [])
    t.cmd('start tx_first')
    t.wait_for('show port xstats 0', lambda o: xstats(o, 0),
               lambda x: x['rx_q0_packets'] > 0 and
               x['rx_q0_cq_empty_polls'] > 0 and
               x['tx_q0_cq_completions'] > 0, 'xstats: traffic')
    t.cmd('stop')
    x = xstats(t.cmd('show port xstats 0'), 0)
    t.quit()
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
    'cqe_comp=none',
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


COMP_BITS = {'none': 0x0, 'hash': 0x1, 'csum': 0x2, 'csum_stridx': 0x4, 'ftag': 0x8,
             'l34h': 0x10}


def cq_expect(setting, rx):
    """The CQ line the PMD logs (DEBUG) for a queue with these devargs:
    an RX CQ has as many entries as the RQ has WQEs; a TX CQ is made for
    desc completions (ring of 2 * desc). Without cqe_comp the RX CQs
    compress with HASH mini-CQEs (the emulated device can)."""
    a = dict(kv.split('=') for kv in setting.split(','))
    desc = int(a.get('rxq_desc' if rx else 'txq_desc', 512))
    comp = COMP_BITS[a.get('cqe_comp', 'hash')] if rx else 0
    layout = 1 if rx and a.get('cqe_comp_layout') == 'enhanced' else 0
    return 'path %s entries %d cqe %s pad %s comp_format 0x%x layout %d' % (
        'verbs' if a.get('cq_path') == 'verbs' else 'devx',
        desc if rx else 2 * desc,
        a.get('cqe_size', '64'), a.get('cqe_pad', '0'), comp, layout)


def case_cqe_settings():
    """io forward with every CQE setting (size, padding, path,
    compression formats and layouts); each CQ is what the devargs ask."""
    for s in CQE_SETTINGS:
        t = Testpmd(vdev(0, extra=s) + vdev(1, extra=s), [],
                    eal=['--log-level=pmd.net.mlx5cq:debug'])
        t.cmd('start tx_first')
        t.wait_stats(moved(10 * WINDOW), '%s: forwarding' % s)
        compressed = cq_expect(s, True).find('comp_format 0x0 ') < 0
        if compressed:
            t.wait_for('show port xstats 0', lambda o: xstats(o, 0),
                       lambda x: x['rx_q0_cq_minis'] > 0,
                       '%s: a completion from a mini-CQE' % s)
        t.cmd('stop')
        st = port_stats(t.cmd('show port stats all'))
        x = xstats(t.cmd('show port xstats 0'), 0)
        out = t.quit()
        for d, rx in (('rx', True), ('tx', False)):
            m = re.search(r'port 0 %sq 0: CQ 0x[0-9a-f]+ (.*)' % d, out)
            check(m is not None, '%s: no %s CQ log line' % (s, d))
            check(m.group(1).strip() == cq_expect(s, rx),
                  '%s: %s CQ "%s", expected "%s"' % (s, d, m.group(1),
                                                     cq_expect(s, rx)))
        io_checks(st, s)
        if compressed:
            check(x['rx_q0_cq_minis'] > 0,
                  '%s: no completion came from a mini-CQE' % s)
        check(x['rx_q0_cq_comp_unhandled'] == 0,
              '%s: compressed CQEs left unhandled' % s)
        check(x['rx_q0_cq_completions'] == x['rx_q0_packets'],
              '%s: completions %d packets %d' % (s,
              x['rx_q0_cq_completions'], x['rx_q0_packets']))
        print('  %-45s rx %9d  minis %d' % (s, st[0]['RX-packets'],
                                             x.get('rx_q0_cq_minis', 0)))


BAD_DEVARGS = [
    ('foo=1', 'unknown key foo'),
    ('cq_path=dma', 'bad value "dma" for cq_path'),
    ('cqe_size=96', 'bad value "96" for cqe_size'),
    ('cqe_size=65', 'bad value "65" for cqe_size'),
    ('cqe_size=127', 'bad value "127" for cqe_size'),
    ('cq_path=verbs,cqe_comp=ftag',
     'cq_path=verbs cannot have cqe_comp=ftag'),
    ('cq_path=verbs,cqe_comp=l34h',
     'cq_path=verbs cannot have cqe_comp=l34h'),
    ('cq_path=verbs,cqe_comp=hash,cqe_comp_layout=enhanced',
     'cq_path=verbs cannot have cqe_comp_layout=enhanced'),
    ('cqe_pad=2', 'bad value "2" for cqe_pad'),
    ('cqe_pad=1', 'cqe_pad=1 needs cqe_size=128'),
    ('cqe_comp=zip', 'bad value "zip" for cqe_comp'),
    ('cqe_comp_layout=fancy', 'bad value "fancy" for cqe_comp_layout'),
    ('cqe_comp=none,cqe_comp_layout=enhanced',
     'cqe_comp_layout=enhanced needs cqe_comp'),
    ('rxq_desc=8', 'bad value "8" for rxq_desc'),
    ('txq_desc=abc', 'bad value "abc" for txq_desc'),
    ('tx_comp_thresh=0', 'bad value "0" for tx_comp_thresh'),
    ('mac=01:00:5e:00:00:01', 'bad value "01:00:5e:00:00:01" for mac'),
    ('mac=zz', 'bad value "zz" for mac'),
    ('wire=', 'bad value "" for wire'),
    ('speed=0', 'bad value "0" for speed'),
    ('speed=150', 'speed 150 Mb/s is not a multiple of 100'),
    ('speed=6553600', 'bad value "6553600" for speed'),
    ('dev=mlx5_99,speed=1000', 'wire, mac and speed apply to dev=emu only'),
    ('dev=mlx5_99', 'dev=mlx5_99'),
]


def case_link_speed():
    """The link speed is what the device reports (QUERY_VPORT_STATE
    max_tx_speed): the emulated default 1 Gbps, or the speed= devarg."""
    t = Testpmd(vdev(0) + vdev(1, extra='speed=25000'), [])
    info = [t.cmd('show port info %d' % p) for p in (0, 1)]
    t.quit()
    for p, want in ((0, '1 Gbps'), (1, '25 Gbps')):
        m = re.search(r'Link speed: (.*)', info[p])
        check(m is not None and m.group(1).strip() == want,
              'port %d: link speed %s, expected %s' %
              (p, m.group(1).strip() if m else None, want))


def case_link_toggle():
    """set link-down / link-up on port 0: testpmd prints the link state
    change event of both ports (the partner's link goes down with it),
    both report the state, and io forwarding works again once up."""
    t = Testpmd(vdev(0, 'lt') + vdev(1, 'lt'), [])
    t.cmd('set link-down port 0')
    t.wait_for('show port summary all',
               lambda o: re.findall(r'net_mlx5cq\d\s+net_mlx5cq\s+(\w+)',
                                    o),
               lambda v: v == ['down', 'down'], 'both links down')
    t.cmd('set link-up port 0')
    t.wait_for('show port summary all',
               lambda o: re.findall(r'net_mlx5cq\d\s+net_mlx5cq\s+(\w+)',
                                    o),
               lambda v: v == ['up', 'up'], 'both links up')
    t.cmd('start tx_first')
    t.wait_stats(moved(10 * WINDOW), 'link toggle: forwarding')
    t.cmd('stop')
    io_checks(port_stats(t.cmd('show port stats all')), 'link toggle')
    out = t.quit()
    for p in (0, 1):
        n = out.count('Port %d: link state change event' % p)
        check(n == 2, 'port %d: %d link state change events, want 2' %
              (p, n))


def telemetry(prefix, command):
    """One telemetry command to the testpmd of file prefix (v2 socket):
    its JSON answer."""
    path = '/var/run/dpdk/%s/dpdk_telemetry.v2' % prefix
    deadline = time.time() + WAIT
    while not os.path.exists(path):
        check(time.time() < deadline, 'no telemetry socket %s' % path)
        time.sleep(0.1)
    with socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as s:
        s.settimeout(WAIT)
        s.connect(path)
        json.loads(s.recv(16384).decode())  # The greeting.
        s.send(command.encode())
        return json.loads(s.recv(16384).decode())


def case_device_removal():
    """The emulated device of port 0 is removed while testpmd forwards
    (telemetry /mlx5_emu/fail): testpmd prints the device removal event
    once, detaches the port (its RMV handler stops, closes and detaches
    it) and goes on forwarding on port 1 alone; it quits cleanly."""
    prefix = 'mlx5cq-rmv-%d' % os.getpid()
    t = Testpmd(vdev(0, 'rv') + vdev(1, 'rv'), [],
                eal=('--file-prefix', prefix))
    out = t.cmd('show port info 0')
    check(re.search(r'Firmware-version: 16\.35\.2000\b', out) is not None,
          'firmware version: %s' % out)
    t.cmd('start tx_first')
    t.wait_stats(moved(10 * WINDOW), 'removal: forwarding before')
    ans = telemetry(prefix, '/mlx5_emu/fail,net_mlx5cq0,removed')
    check(ans.get('/mlx5_emu/fail', {}).get('state') == 'removed',
          'telemetry answer: %s' % ans)
    t.wait_for('show port summary all',
               lambda o: re.findall(r'^(\d+)\s+[0-9A-F:]+\s+net_mlx5cq',
                                    o, re.M),
               lambda v: v == ['1'], 'port 0 detached')
    # testpmd's removal handler (rmv_port_callback(), EAL alarm thread)
    # restarts forwarding after the detach: start_packet_forwarding()
    # flushes the RX queues first (tens of ms), prints the RX/TX
    # configuration, resets the forwarding stats and launches the cores.
    # A stop or quit sent before the launch races with it (a quit closes
    # port 1 under the flush or the launch, and testpmd hangs): wait for
    # the print, then give the launch that follows it a second, as testpmd
    # prints nothing once the cores run.
    t.wait_text('nb forwarding ports=1', t.buf.find('Device is detached'),
                'removal: forwarding restarted on port 1')
    time.sleep(1)
    out = t.cmd('show port stats 1')
    check('NIC statistics for port 1' in out, 'port 1 stats: %s' % out)
    t.cmd('stop')
    out = t.quit()
    n = out.count('Port 0: device removal event')
    check(n == 1, '%d device removal events, want 1' % n)
    check('Port 1: device removal event' not in out,
          'port 1 reported a removal')


def case_bad_devargs():
    """Each bad devarg fails the probe with a log line naming it."""
    d = drivers_dir()
    env = dict(os.environ)
    env['LD_LIBRARY_PATH'] = d + ':' + env.get('LD_LIBRARY_PATH', '')
    for arg, msg in BAD_DEVARGS:
        dev = 'net_mlx5cq0,' + (arg if arg.startswith('dev=') else
                                'dev=emu,' + arg)
        p = subprocess.run([TESTPMD, '--no-pci', '--in-memory',
                            '-l', '0,1', '--log-level=lib.eal:error',
                            '-d', d, '--vdev', dev],
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, env=env, text=True,
                           timeout=60)
        check(msg in p.stdout, 'devarg %s: no "%s" in:\n%s' %
              (arg, msg, p.stdout[-1500:]))
        check('port 0 on' not in p.stdout, 'devarg %s: probed' % arg)


def case_vlan_strip():
    """vlan set strip / stripq on a started port: accepted (testpmd
    prints diag=<errno> when the PMD refuses)."""
    t = Testpmd(vdev(0) + vdev(1), ['--rxq=2', '--txq=2'])
    t.cmd('start')
    for c in ('vlan set strip on 0', 'vlan set stripq off 0,1'):
        out = t.cmd(c)
        check('diag=' not in out and 'failed' not in out,
              '%s: %s' % (c, out))
    t.cmd('stop')
    t.quit()


def case_vlan_filter():
    """vlan set filter on and rx_vlan add / rm accepted (testpmd prints
    diag=<errno> when the PMD refuses), the port's offload shown, untagged
    io forwarding goes on (the unit suite net_vlan checks which frames
    pass)."""
    t = Testpmd(vdev(0, 'vf') + vdev(1, 'vf'), [])
    for c in ('vlan set filter on 0', 'rx_vlan add 100 0',
              'rx_vlan add 200 0', 'rx_vlan rm 200 0'):
        out = t.cmd(c)
        check('diag=' not in out and 'failed' not in out,
              '%s: %s' % (c, out))
    out = t.cmd('show port 0 rx_offload configuration')
    check('VLAN_FILTER' in out, 'VLAN_FILTER not on:\n' + out)
    t.cmd('start tx_first')
    t.wait_stats(moved(10 * WINDOW), 'vlan filter: forwarding')
    t.cmd('stop')
    io_checks(port_stats(t.cmd('show port stats all')), 'vlan filter')
    out = t.cmd('vlan set filter off 0')
    check('diag=' not in out, 'filter off: ' + out)
    t.quit()


def case_vlan_insert():
    """tx_vlan set on port 0 (RTE_ETH_TX_OFFLOAD_VLAN_INSERT): port 1, not
    promiscuous, whose VLAN filter holds id 100 alone, takes none of port
    0's txonly frames while they carry tag 200 and takes them once they
    carry 100 (not polled in txonly: what its filter lets in fills the
    ring and is counted missed); port 0's TX-bytes count the tags."""
    t = Testpmd(vdev(0, 'vi') + vdev(1, 'vi'), [])
    # Not promiscuous (promiscuous mode takes every frame): the vport's
    # VLAN list filters; port 0 sends to an address port 1 adds.
    for c in ('set promisc 1 off', 'mac_addr add 1 02:00:00:00:00:78',
              'set eth-peer 0 02:00:00:00:00:78', 'vlan set filter on 1',
              'rx_vlan add 100 1'):
        out = t.cmd(c)
        check('diag=' not in out and 'failed' not in out,
              '%s: %s' % (c, out))
    t.cmd('set fwd txonly')
    for vid, taken in ((200, False), (100, True)):
        t.cmd('port stop 0')
        out = t.cmd('tx_vlan set 0 %d' % vid)
        check('rror' not in out and 'diag=' not in out,
              'tx_vlan set 0 %d: %s' % (vid, out))
        t.cmd('port start 0')
        out = t.cmd('show port 0 tx_offload configuration')
        check('VLAN_INSERT' in out, 'VLAN_INSERT not on:\n' + out)
        t.cmd('clear port stats all')
        t.cmd('start')
        t.wait_stats(lambda s: s[0]['TX-packets'] >= 4096,
                     'txonly tagged %d' % vid)
        time.sleep(0.2)
        t.cmd('stop')
        st = port_stats(t.cmd('show port stats all'))
        # txonly frames are 64 bytes, 68 with the tag.
        check(st[0]['TX-bytes'] == 68 * st[0]['TX-packets'],
              'port 0 TX %d packets, %d bytes' % (st[0]['TX-packets'],
                                                  st[0]['TX-bytes']))
        if taken:
            check(st[1]['RX-missed'] > 0,
                  'tag 100: port 1 took nothing: %s' % st[1])
        else:
            check(st[1]['RX-missed'] == 0 and st[1]['RX-packets'] == 0,
                  'tag 200 passed port 1\'s filter: %s' % st[1])
    t.quit()


def case_rx_timestamp():
    """--enable-rx-timestamp: every verbose receive line carries the
    device's time (net/mlx5's format: free-running ticks), growing on a
    queue; the queues say timestamps in their burst mode and run without
    CQE compression even where the devargs ask for it."""
    t = Testpmd(vdev(0, 'ts', 'cqe_comp=hash') + vdev(1, 'ts'),
                ['--enable-rx-timestamp'])
    out = t.cmd('show port 0 rx_offload configuration')
    check('TIMESTAMP' in out, 'TIMESTAMP not on:\n' + out)
    out = t.cmd('show rxq info 0 0')
    check('Scalar (timestamps)' in out, 'burst mode:\n' + out)
    t.cmd('set fwd txonly')
    t.cmd('start')
    t.wait_stats(lambda st: st[0]['TX-packets'] >= 2 * WINDOW and
                 st[1]['TX-packets'] >= 2 * WINDOW, 'rx_timestamp: txonly')
    for c in ('stop', 'set fwd rxonly', 'set verbose 1', 'start'):
        t.cmd(c)
    t.wait_stats(moved(1), 'rx_timestamp: rxonly')
    t.cmd('stop')
    t.cmd('set verbose 0')
    x = xstats(t.cmd('show port xstats 0'), 0)
    out = t.quit()
    lines = [l for l in out.splitlines() if 'ol_flags' in l]
    check(lines, 'rx_timestamp: no verbose receive lines')
    stamps = [int(v) for v in re.findall(r' - timestamp (\d+) ', out)]
    check(len(stamps) == len(lines) and all(v > 0 for v in stamps),
          'rx_timestamp: %d receive lines, %d stamps: %s' %
          (len(lines), len(stamps), lines[:2]))
    # One queue per port: each port's stamps grow in arrival order.
    seq = {0: [], 1: []}
    port = None
    for l in out.splitlines():
        m = re.search(r'port (\d+)/queue \d+: received', l)
        if m:
            port = int(m.group(1))
        m = re.search(r' - timestamp (\d+) ', l)
        if m and port in seq:
            seq[port].append(int(m.group(1)))
    for port in (0, 1):
        check(seq[port] and seq[port] == sorted(seq[port]),
              'port %d: %d stamps, in order %s' %
              (port, len(seq[port]), seq[port] == sorted(seq[port])))
    check(x.get('rx_q0_cq_sessions', -1) == 0 and
          x.get('rx_q0_cq_completions', 0) > 0,
          'rx_timestamp: compressed sessions on a timestamp queue: %s' %
          {k: v for k, v in x.items() if k.startswith('rx_q0_cq_')})


def case_scatter():
    """--enable-scatter --max-pkt-len=9000 --mbuf-size=2048: packets of
    8,792 bytes in five 2 KiB segments (set txpkts) go back and forth in
    io forward, received as chains (scattered RX) and sent as chains;
    every queue says scattered."""
    t = Testpmd(vdev(0, 'sg') + vdev(1, 'sg'),
                ['--enable-scatter', '--max-pkt-len=9000',
                 '--mbuf-size=2048'])
    for p in (0, 1):
        out = t.cmd('show rxq info %d 0' % p)
        check('RX scattered packets: on' in out and
              'Scalar (scattered)' in out, 'rxq info:\n' + out)
    out = t.cmd('set txpkts 2048,2048,2048,2048,600')
    check('rror' not in out and 'nvalid' not in out, 'txpkts: ' + out)
    t.cmd('start tx_first')
    t.wait_stats(moved(4 * WINDOW), 'scatter: forwarding')
    t.cmd('stop')
    st = port_stats(t.cmd('show port stats all'))
    io_checks(st, 'scatter')
    for p in (0, 1):
        check(st[p]['RX-bytes'] == 8792 * st[p]['RX-packets'],
              'scatter: port %d %d packets %d bytes' %
              (p, st[p]['RX-packets'], st[p]['RX-bytes']))
    t.quit()


def case_mprq():
    """mprq_en=1,rxqs_min_mprq=1: every queue is a multi-packet RQ (burst
    mode); io forward of 64-byte packets (copied) and then of 1,000-byte
    packets (attached to the strides and sent by the other port from
    them), with no error and every byte counted."""
    args = 'mprq_en=1,rxqs_min_mprq=1,mprq_log_stride_num=6'
    for size in (64, 1000):
        t = Testpmd(vdev(0, 'mq', args) + vdev(1, 'mq', args), [])
        for p in (0, 1):
            out = t.cmd('show rxq info %d 0' % p)
            check('Scalar (multi-packet RQ)' in out, 'rxq info:\n' + out)
        out = t.cmd('set txpkts %d' % size)
        check('rror' not in out and 'nvalid' not in out, 'txpkts: ' + out)
        t.cmd('start tx_first')
        t.wait_stats(moved(4 * WINDOW), 'mprq %d: forwarding' % size)
        t.cmd('stop')
        st = port_stats(t.cmd('show port stats all'))
        io_checks(st, 'mprq %d' % size)
        for p in (0, 1):
            check(st[p]['RX-bytes'] == size * st[p]['RX-packets'],
                  'mprq: port %d %d packets %d bytes of %d' %
                  (p, st[p]['RX-packets'], st[p]['RX-bytes'], size))
        t.quit()


def inet_csum(b):
    """The Internet checksum of b (RFC 1071)."""
    if len(b) % 2:
        b += b'\0'
    s = sum(struct.unpack('!%dH' % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return (~s) & 0xffff


def tso_pcap(path, n, payload):
    """A pcap file of n Ethernet/IPv4/TCP packets of payload bytes each
    (sequence numbers running on, correct checksums), ACK|PSH."""
    csum = inet_csum
    recs = []
    for i in range(n):
        data = bytes((j * 7 + i) & 0xff for j in range(payload))
        tcp = struct.pack('!HHIIBBHHH', 40000 + i, 80, 1000 + i * payload,
                          1, 5 << 4, 0x18, 65535, 0, 0)
        ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 40 + payload, i, 0, 64,
                         6, 0, bytes([198, 18, 6, 1]), bytes([198, 18, 6, 2]))
        ip = ip[:10] + struct.pack('!H', csum(ip)) + ip[12:]
        ph = ip[12:20] + struct.pack('!BBH', 0, 6, 20 + payload)
        tcp = tcp[:16] + struct.pack('!H', csum(ph + tcp + data)) + tcp[18:]
        frame = (bytes([2, 0, 0, 0, 0, 9]) + bytes([2, 0, 0, 0, 0, 8]) +
                 b'\x08\x00' + ip + tcp + data)
        recs.append(struct.pack('<IIII', 0, i, len(frame), len(frame)) +
                    frame)
    with open(path, 'wb') as f:
        f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        f.write(b''.join(recs))


def lro_pcap(path, dst, n, payload):
    """A pcap file of n in-order TCP segments of one flow to MAC dst,
    payload bytes each, ACK (the last ACK|PSH), correct checksums;
    returns the payload bytes in order."""
    mac = bytes(int(x, 16) for x in dst.split(':'))
    recs, data = [], b''
    for i in range(n):
        d = bytes((j * 13 + i) & 0xff for j in range(payload))
        data += d
        flags = 0x18 if i == n - 1 else 0x10
        tcp = struct.pack('!HHIIBBHHH', 40000, 80, 1000 + i * payload,
                          7, 5 << 4, flags, 512, 0, 0)
        ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 40 + payload, i, 0x4000,
                         64, 6, 0, bytes([198, 18, 5, 1]),
                         bytes([198, 18, 5, 2]))
        ip = ip[:10] + struct.pack('!H', inet_csum(ip)) + ip[12:]
        ph = ip[12:20] + struct.pack('!BBH', 0, 6, 20 + payload)
        tcp = tcp[:16] + struct.pack('!H', inet_csum(ph + tcp + d)) + \
            tcp[18:]
        frame = mac + bytes([2, 0, 0, 0, 0, 5]) + b'\x08\x00' + ip + tcp + d
        recs.append(struct.pack('<IIII', 0, i, len(frame), len(frame)) +
                    frame)
    with open(path, 'wb') as f:
        f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        f.write(b''.join(recs))
    return data


def pcap_frames(path):
    """The frames of a pcap file."""
    with open(path, 'rb') as f:
        b = f.read()
    out, o = [], 24
    while o + 16 <= len(b):
        cap = struct.unpack('<IIII', b[o:o + 16])[2]
        out.append(b[o + 16:o + 16 + cap])
        o += 16 + cap
    return out


def lro_frames_check(frames, sent, n, rx_packets):
    """The frames an LRO port received from the n segments of lro_pcap()
    (payload sent): fewer, longer packets, each a valid IPv4/TCP segment
    (total length, header checksum, TCP checksum over the pseudo-header),
    the sequence running on, ACK on all and PSH on the last only, the
    payload conserved, one frame per packet the port received."""
    got, seq = b'', 1000
    for f in frames:
        ip, tcp = f[14:34], f[34:54]
        tot = struct.unpack('!H', ip[2:4])[0]
        check(len(f) == 14 + tot and inet_csum(ip) == 0,
              'LRO packet: %d bytes, IP total length %d, header sum %#x'
              % (len(f), tot, inet_csum(ip)))
        ph = ip[12:20] + struct.pack('!BBH', 0, 6, tot - 20)
        check(inet_csum(ph + f[34:]) == 0,
              'LRO packet of %d bytes: TCP checksum %#x does not verify'
              % (len(f), struct.unpack('!H', tcp[16:18])[0]))
        check(struct.unpack('!I', tcp[4:8])[0] == seq,
              'LRO packet: sequence %d, expected %d' %
              (struct.unpack('!I', tcp[4:8])[0], seq))
        got += f[54:]
        seq += len(f) - 54
    flags = [f[47] for f in frames]
    check(all(x & 0x10 for x in flags) and flags[-1] & 0x08 and
          not any(x & 0x08 for x in flags[:-1]),
          'LRO: TCP flags %s (ACK on all, PSH on the last only)' %
          [hex(x) for x in flags])
    check(got == sent, 'LRO: %d payload bytes in %d packets, %d sent'
          % (len(got), len(frames), len(sent)))
    check(len(frames) < n and rx_packets == len(frames),
          'LRO: %d segments arrived as %d packets (the port received %d)'
          % (n, len(frames), rx_packets))
    print('LRO: %d segments of %d bytes arrived as %d packets' %
          (n, len(sent) // n, len(frames)))


def case_tso():
    """csum forward with 'tso set 1460 1': 64 TCP packets of 4,000 payload
    bytes read from a pcap file (net_pcap, port 0) go out of net_mlx5cq
    port 1 as TSO; port 2 on the same wire receives exactly three frames
    of each (1,460 + 1,460 + 1,080 payload bytes, 4,162 bytes with their
    headers), all with good checksums."""
    n, payload = 64, 4000
    with tempfile.TemporaryDirectory(dir=os.path.dirname(
            os.path.realpath(BUILD))) as d:
        pcap = os.path.join(d, 'tso.pcap')
        tso_pcap(pcap, n, payload)
        t = Testpmd(['--vdev', 'net_pcap0,rx_pcap=%s' % pcap] +
                    vdev(0, 'tso') + vdev(1, 'tso'),
                    ['--forward-mode=csum', '--port-topology=chained',
                     '--no-flush-rx'])
        t.cmds(('port stop 1', 'csum set ip hw 1', 'csum set tcp hw 1',
                'tso set 1460 1', 'port start 1'))
        out = t.cmd('show port 1 tx_offload configuration')
        check('TCP_TSO' in out, 'TSO not on port 1:\n' + out)
        t.cmd('start')
        t.wait_stats(lambda st: st.get(2, {}).get('RX-packets', 0) >=
                     3 * n, 'tso: port 2 receives the segments')
        time.sleep(0.2)
        out = t.cmd('stop')
        st = port_stats(t.cmd('show port stats all'))
        t.quit()
    # Port 1 counts the frames on the wire, as net/mlx5 counts TSO.
    check(st[1]['TX-packets'] == 3 * n and st[1]['TX-errors'] == 0 and
          st[1]['TX-bytes'] == n * (3 * 54 + payload),
          'tso: port 1 sent %s' % st[1])
    check(st[2]['RX-packets'] == 3 * n and
          st[2]['RX-bytes'] == n * (3 * 54 + payload) and
          st[2]['RX-errors'] == 0,
          'tso: port 2 received %s' % st[2])
    bad = [int(v) for v in re.findall(r'Bad-(?:ip|l4)csum: (\d+)', out)]
    check(bad and sum(bad) == 0, 'tso: bad checksums %s' % bad)


def case_lro():
    """LRO between two net_mlx5cq ports on one wire. First --enable-lro
    on both (io forward of UDP packets, which the device does not
    coalesce: no error, every queue in the LRO burst). Then 64 in-order
    TCP segments of one flow read from a pcap file (net_pcap, port 0)
    go out of port 1 in chained io forward; port 2 (rx_offload tcp_lro,
    scatter, max_lro_pkt_size 8,192) receives them coalesced and
    forwards them to the pcap port's output file: fewer, longer packets
    than the sender's MTU, headers rewritten from the CQEs' LRO fields
    and every payload byte there (lro_frames_check())."""
    t = Testpmd(vdev(0, 'lro') + vdev(1, 'lro'),
                ['--enable-lro', '--max-lro-pkt-size=1518'])
    for p in (0, 1):
        out = t.cmd('show rxq info %d 0' % p)
        check('Scalar (LRO)' in out, 'rxq info:\n' + out)
        out = t.cmd('show port %d rx_offload configuration' % p)
        check('TCP_LRO' in out, 'LRO not on:\n' + out)
    t.cmd('start tx_first')
    t.wait_stats(moved(4 * WINDOW), 'lro: forwarding')
    t.cmd('stop')
    io_checks(port_stats(t.cmd('show port stats all')), 'lro')
    t.quit()
    n, payload = 64, 1000
    with tempfile.TemporaryDirectory(dir=os.path.dirname(
            os.path.realpath(BUILD))) as d:
        src, dst = os.path.join(d, 'in.pcap'), os.path.join(d, 'out.pcap')
        sent = lro_pcap(src, '02:00:00:00:0c:02', n, payload)
        t = Testpmd(['--vdev', 'net_pcap0,rx_pcap=%s,tx_pcap=%s' %
                     (src, dst)] + vdev(0, 'lro') +
                    vdev(1, 'lro', 'mac=02:00:00:00:0c:02'),
                    ['--port-topology=chained', '--forward-mode=io',
                     '--no-flush-rx', '--disable-device-start',
                     '--max-lro-pkt-size=8192'])
        t.cmds(('port config 2 rx_offload tcp_lro on',
                'port config 2 rx_offload scatter on', 'port start all'))
        out = t.cmd('show rxq info 2 0')
        check('Scalar (LRO, scattered)' in out, 'rxq info:\n' + out)
        t.cmd('start')
        t.wait_stats(lambda st: st.get(2, {}).get('RX-bytes', 0) >=
                     n * payload, 'lro: port 2 receives')
        time.sleep(0.5)
        t.cmd('stop')
        st = port_stats(t.cmd('show port stats all'))
        t.quit()
        frames = pcap_frames(dst)
    check(st[2]['RX-errors'] == 0 and st[2]['RX-nombuf'] == 0 and
          st[1]['TX-packets'] == n, 'lro: port stats %s' % st)
    lro_frames_check(frames, sent, n, st[2]['RX-packets'])


def hugepage_files_remove(prefix):
    """The hugepage files a primary with --file-prefix leaves behind (EAL
    keeps them for secondaries), from every hugetlbfs mount."""
    with open('/proc/mounts') as f:
        dirs = [l.split()[1] for l in f if l.split()[2] == 'hugetlbfs']
    for d in dirs:
        for n in os.listdir(d):
            if n.startswith(prefix + 'map_'):
                os.unlink(os.path.join(d, n))


def case_proc_info():
    """dpdk-proc-info, a secondary process, reads the statistics and
    extended statistics of a running testpmd's net_mlx5cq ports (the
    primary on shared hugepage files under a prefix): the same counts as
    testpmd's own."""
    proc = shutil.which('dpdk-proc-info')
    check(proc is not None, 'dpdk-proc-info not found')
    prefix = 'mlx5cq_pi_%d' % os.getpid()
    t = Testpmd(vdev(0, 'pi') + vdev(1, 'pi'), [], prefix=prefix)
    t.cmd('start tx_first')
    t.wait_stats(moved(10 * WINDOW), 'proc_info: forwarding')
    t.cmd('stop')
    st = port_stats(t.cmd('show port stats all'))
    xs = xstats(t.cmd('show port xstats 0'), 0)
    d = drivers_dir()
    env = dict(os.environ)
    env['LD_LIBRARY_PATH'] = d + ':' + env.get('LD_LIBRARY_PATH', '')
    out = ''
    try:
        for what in ('--stats', '--xstats'):
            r = subprocess.run([proc, '--file-prefix', prefix, '--no-pci',
                                '--log-level=lib.eal:error', '-d',
                                os.path.join(d, 'librte_net_mlx5cq.so'),
                                '--', what],
                               stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT,
                               universal_newlines=True, timeout=WAIT,
                               env=env)
            check(r.returncode == 0, 'dpdk-proc-info %s failed:\n%s' %
                  (what, r.stdout[-2000:]))
            out += r.stdout
    finally:
        t.quit()
        hugepage_files_remove(prefix)
    # proc-info's port sections: the totals, then per-queue registers.
    pst = port_stats(re.sub(r'\n  Stats reg[^\n]*', '', out))
    for p in (0, 1):
        check(p in pst, 'proc-info: no stats for port %d:\n%s' %
              (p, out[-2000:]))
        for k in ('RX-packets', 'RX-bytes', 'TX-packets', 'TX-bytes'):
            check(pst[p].get(k) == st[p][k] and st[p][k] > 0,
                  'proc-info: port %d %s %s, testpmd %s' %
                  (p, k, pst[p].get(k), st[p][k]))
    m = re.findall(r'^rx_q0_cq_completions: (\d+)$', out, re.M)
    check(m and int(m[0]) == xs['rx_q0_cq_completions'],
          'proc-info: rx_q0_cq_completions %s, testpmd %s' %
          (m, xs.get('rx_q0_cq_completions')))


def fwd_streams(out):
    """{(RX port, queue): (TX port, RX-packets, TX-packets, TX-dropped)}
    from the per-stream sections of testpmd's "stop" (printed when a
    process has more streams than ports)."""
    r = {}
    for m in re.finditer(r'Forward Stats for RX Port=\s*(\d+)/Queue=\s*'
                         r'(\d+) -> TX Port=\s*(\d+)/Queue=\s*\d+.*\n'
                         r'\s*RX-packets: (\d+)\s+TX-packets: (\d+)\s+'
                         r'TX-dropped: (\d+)', out):
        g = [int(x) for x in m.groups()]
        r[(g[0], g[1])] = (g[2], g[3], g[4], g[5])
    return r


def case_secondary_rxtx():
    """A secondary testpmd (--proc-type=secondary, --num-procs 2
    --proc-id 1) forwards on queues 2 and 3 of the primary's two wired
    ports while the primary forwards on queues 0 and 1 (txonly's first
    bursts with multi-flow addresses, so RSS feeds every queue, then io):
    each stream's counts, in either process, are its queues' counters
    exactly (64-byte frames: bytes too), the secondary reads the same
    port and extended statistics as the primary, and the port totals are
    the sum of both processes' streams. Then the primary stops and
    starts the ports under the secondary's running streams, which
    forward again on the new queues."""
    prefix = 'mlx5cq_mp_%d' % os.getpid()
    vd = vdev(0, 'mp') + vdev(1, 'mp')
    common = ['--rxq=4', '--txq=4', '--num-procs=2', '--txonly-multi-flow']
    pri = Testpmd(vd, common + ['--proc-id=0'], prefix=prefix)
    sec = None
    try:
        sec = Testpmd(vd, common + ['--proc-id=1'],
                      eal=['--proc-type=secondary'], prefix=prefix)
        pri.cmds(['start tx_first'])
        sec.cmds(['start tx_first'])
        sec.wait_for('show port xstats all', lambda o: [
            xstats(o, p) for p in (0, 1)],
            lambda x: all(x[p]['rx_q%d_packets' % q] >= 10 * WINDOW
                          for p in (0, 1) for q in range(4)),
            'secondary: forwarding on both queues')
        s_out = sec.cmd('stop')
        p_out = pri.cmd('stop')
        p_st = port_stats(pri.cmd('show port stats all'))
        s_st = port_stats(sec.cmd('show port stats all'))
        p_xs = [xstats(pri.cmd('show port xstats %d' % p), p)
                for p in (0, 1)]
        s_xs = [xstats(sec.cmd('show port xstats %d' % p), p)
                for p in (0, 1)]
        # The primary stops and starts the ports under the secondary's
        # running streams: no-op bursts while stopped, the new queues'
        # after (the secondary's streams move again with no command).
        sec.cmd('start')
        pri.cmds(['port stop all', 'port start all'])
        # Counts up to the restart (frames still in the rings when the
        # secondary started); the new rings are empty until tx_first.
        before = fwd_streams(sec.cmd('show fwd stats all'))
        pri.cmds(['start tx_first'])
        sec.wait_for('show fwd stats all', fwd_streams,
                     lambda fs: len(fs) == 4 and all(
                         v[1] >= before.get(k, (0, 0))[1] + 10 * WINDOW
                         for k, v in fs.items()),
                     'secondary: forwarding after the ports restarted')
        restart = fwd_streams(sec.cmd('stop'))
        pri.cmd('stop')
        sec.quit()
        sec = None
    finally:
        if sec is not None:
            sec.kill()
        pri.quit()
        hugepage_files_remove(prefix)
    streams = {}
    for qs, out in (((0, 1), p_out), ((2, 3), s_out)):
        fs = fwd_streams(out)
        check(set(fs) == {(p, q) for p in (0, 1) for q in qs},
              'queues %s: streams %s\n%s' % (qs, sorted(fs), out[-2000:]))
        streams.update(fs)
    for (p, q), (txp, rx, tx, drop) in sorted(streams.items()):
        who = 'secondary' if q >= 2 else 'primary'
        check(rx > 0 and tx > 0 and txp == 1 - p,
              '%s: port %d queue %d stream %s' % (who, p, q,
                                                   streams[(p, q)]))
        for d, port, n in (('rx', p, rx), ('tx', txp, tx)):
            k = '%s_q%d_' % (d, q)
            check(p_xs[port][k + 'packets'] == n and
                  p_xs[port][k + 'bytes'] == 64 * n,
                  '%s: port %d %s queue %d: %d packets in the stream, '
                  'counters %d / %d B' % (who, port, d, q, n,
                                          p_xs[port][k + 'packets'],
                                          p_xs[port][k + 'bytes']))
    check(set(restart) == {(p, q) for p in (0, 1) for q in (2, 3)} and
          all(v[1] > 0 and v[2] > 0 for v in restart.values()),
          'secondary after the restart: streams %s' % restart)
    for p in (0, 1):
        check(s_st[p] == p_st[p], 'port %d stats: secondary %s, primary %s'
              % (p, s_st[p], p_st[p]))
        check(s_xs[p] == p_xs[p], 'port %d xstats differ: %s' % (p, {
            k: (s_xs[p].get(k), v) for k, v in p_xs[p].items()
            if s_xs[p].get(k) != v}))
        rx = sum(v[1] for k, v in streams.items() if k[0] == p)
        tx = sum(v[2] for v in streams.values() if v[0] == p)
        check(p_st[p]['RX-packets'] == rx and p_st[p]['RX-bytes'] == 64 * rx
              and p_st[p]['TX-packets'] == tx and
              p_st[p]['TX-bytes'] == 64 * tx,
              'port %d totals %s, streams RX %d TX %d' % (p, p_st[p], rx, tx))
        check(p_st[p]['RX-errors'] == 0 and p_st[p]['TX-errors'] == 0,
              'port %d errors %s' % (p, p_st[p]))


def case_secondary_mempool():
    """A secondary process of this build (tests/mp_secondary.c) sends
    frames of a mempool of its own on TX queue 1 of port 0 of a running
    testpmd (started, not forwarding) and receives them on port 1: the
    PMD has the primary register the secondary's mempool. Every frame
    and byte comes back, and the primary's counters say so exactly."""
    prog = os.path.join(BUILD, 'tests', 'mlx5cq-mp-secondary')
    check(os.path.exists(prog), '%s not built' % prog)
    prefix = 'mlx5cq_mpm_%d' % os.getpid()
    n = 1000
    t = Testpmd(vdev(0, 'mpm') + vdev(1, 'mpm'), ['--rxq=2', '--txq=2'],
                prefix=prefix)
    d = drivers_dir()
    env = dict(os.environ)
    env['LD_LIBRARY_PATH'] = d + ':' + env.get('LD_LIBRARY_PATH', '')
    try:
        t.cmd('clear port stats all')
        r = subprocess.run([prog, '--proc-type=secondary', '--file-prefix',
                            prefix, '--no-pci', '-l', '1',
                            '--log-level=lib.eal:error', '-d',
                            os.path.join(d, 'librte_net_mlx5cq.so'), '--',
                            '0', '1', '1', str(n)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=WAIT, env=env)
        st = port_stats(t.cmd('show port stats all'))
        xs = xstats(t.cmd('show port xstats 0'), 0)
    finally:
        t.quit()
        hugepage_files_remove(prefix)
    # Frame i is 60 + i % 200 bytes.
    b = sum(60 + i % 200 for i in range(n))
    check(r.returncode == 0 and 'sent %d bytes %d' % (n, b) in r.stdout and
          'received %d bytes %d' % (n, b) in r.stdout,
          'secondary (exit %d):\n%s' % (r.returncode, r.stdout[-2000:]))
    check(st[0]['TX-packets'] == n and st[0]['TX-bytes'] == b and
          st[1]['RX-packets'] == n and st[1]['RX-bytes'] == b and
          st[0]['RX-packets'] == 0 and st[1]['TX-packets'] == 0,
          'primary: port stats %s, expected %d frames of %d bytes' %
          (st, n, b))
    check(xs['tx_q1_packets'] == n and xs['tx_q1_bytes'] == b and
          xs['tx_q0_packets'] == 0 and xs['tx_q1_errors'] == 0,
          'primary: port 0 TX queues %s' % {
              k: v for k, v in xs.items() if k.startswith('tx_q')})


def flow_round(t, what):
    """Port 1's txonly frames into port 0's rings, then port 0 drained in
    rxonly with verbose on: the packet lines of port 0 (src=... - type=...
    - length=... [- FDIR matched ...]), by queue."""
    t.cmd('set fwd txonly')
    t.cmd('clear port stats all')
    t.cmd('start')
    t.wait_stats(lambda st: st[1]['TX-packets'] >= 2 * WINDOW,
                 '%s: txonly' % what)
    for c in ('stop', 'set fwd rxonly', 'set verbose 1', 'start'):
        t.cmd(c)
    t.wait_stats(lambda st: st[0]['RX-packets'] >= 64, '%s: rxonly' % what)
    t.cmd('stop')
    out = t.cmd('set verbose 0')
    out = t.buf
    lines = {0: [], 1: []}
    q = None
    for l in out[t.mark:].splitlines():
        m = re.search(r'port (\d+)/queue (\d+): received', l)
        if m:
            q = int(m.group(2)) if m.group(1) == '0' else None
        elif q is not None and ' - length=' in l:
            lines[q].append(l)
    t.mark = len(t.buf)
    return lines


def case_flow_mark():
    """rte_flow: "flow create 0 ... actions mark id 7 / queue index 1"
    sends every IPv4/UDP frame port 0 receives (port 1's txonly) to queue
    1 with RTE_MBUF_F_RX_FDIR_ID and id 7 (testpmd's verbose "FDIR matched
    ID=0x7"), on compressed CQs; the queues say flow marks in their burst
    mode; a pattern item the PMD lacks is refused by flow validate; once
    the rule is destroyed the frames (of many flows:
    --txonly-multi-flow) spread by RSS again, unmarked."""
    t = Testpmd(vdev(0, 'fm', 'cqe_comp=hash') + vdev(1, 'fm'),
                ['--rxq=2', '--txq=2', '--txonly-multi-flow'])
    t.mark = len(t.buf)
    out = t.cmd('flow create 0 ingress pattern eth / ipv4 / udp / end '
                'actions mark id 7 / queue index 1 / end')
    check('Flow rule #0 created' in out, 'flow create:\n' + out)
    out = t.cmd('flow validate 0 ingress pattern eth / vlan / end '
                'actions queue index 0 / end')
    check('item not supported' in out, 'flow validate (VLAN):\n' + out)
    out = t.cmd('flow list 0')
    check(re.search(r'^0\s+0\s+0\s+i-', out, re.M), 'flow list:\n' + out)
    out = t.cmd('show rxq info 0 0')
    check('Scalar (flow marks)' in out, 'burst mode:\n' + out)
    t.mark = len(t.buf)
    lines = flow_round(t, 'flow mark')
    check(not lines[0] and lines[1], 'marked: queue 0 %d lines, queue 1 '
          '%d' % (len(lines[0]), len(lines[1])))
    bad = [l for l in lines[1] if 'FDIR matched ID=0x7 ' not in l]
    check(not bad, 'marked: %d of %d lines without ID 7: %s' %
          (len(bad), len(lines[1]), bad[:2]))
    x = xstats(t.cmd('show port xstats 0'), 0)
    check(x.get('rx_q1_cq_minis', 0) > 0,
          'flow mark: no compressed session on queue 1: %s' %
          {k: v for k, v in x.items() if k.startswith('rx_q1_cq_')})
    out = t.cmd('flow destroy 0 rule 0')
    check('Flow rule #0 destroyed' in out, 'flow destroy:\n' + out)
    out = t.cmd('show rxq info 0 0')
    check('flow marks' not in out, 'burst mode after destroy:\n' + out)
    lines = flow_round(t, 'no rule')
    check(lines[0] and lines[1], 'unmarked: queue 0 %d lines, queue 1 %d'
          % (len(lines[0]), len(lines[1])))
    bad = [l for l in lines[0] + lines[1] if 'FDIR' in l]
    check(not bad, 'unmarked: FDIR lines: %s' % bad[:2])
    t.quit()


CASES = {
    'io_forward': case_io_forward,
    'link_toggle': case_link_toggle,
    'device_removal': case_device_removal,
    'rss_4q': case_rss_4q,
    'txonly_rxonly': case_txonly_rxonly,
    'csum': case_csum,
    'rx_flags': case_rx_flags,
    'xstats': case_xstats,
    'cqe_settings': case_cqe_settings,
    'bad_devargs': case_bad_devargs,
    'link_speed': case_link_speed,
    'vlan_strip': case_vlan_strip,
    'vlan_filter': case_vlan_filter,
    'vlan_insert': case_vlan_insert,
    'rx_timestamp': case_rx_timestamp,
    'scatter': case_scatter,
    'mprq': case_mprq,
    'tso': case_tso,
    'lro': case_lro,
    'proc_info': case_proc_info,
    'secondary_rxtx': case_secondary_rxtx,
    'secondary_mempool': case_secondary_mempool,
    'flow_mark': case_flow_mark,
}


def run(cases):
    """Parse --build, --testpmd and case names, run the cases (all by
    default) and print the summary: the exit status (77: no testpmd)."""
    global BUILD, TESTPMD
    ap = argparse.ArgumentParser()
    ap.add_argument('--build', required=True)
    ap.add_argument('--testpmd', default='dpdk-testpmd')
    ap.add_argument('cases', nargs='*')
    a = ap.parse_args()
    BUILD = a.build
    TESTPMD = shutil.which(a.testpmd)
    if TESTPMD is None:
        print('%s not found: skipped' % a.testpmd)
        return 77
    names = a.cases or list(cases)
    passed = failed = 0
    for n in names:
        t0 = time.time()
        try:
            cases[n]()
            passed += 1
            print('PASS %s (%.1f s)' % (n, time.time() - t0), flush=True)
        except Failure as e:
            failed += 1
            print('FAIL %s: %s' % (n, e), flush=True)
    print('Tests Run: %d, Passed: %d, Failed: %d' %
          (passed + failed, passed, failed))
    return 1 if failed else 0


def main():
    return run(CASES)


if __name__ == '__main__':
    sys.exit(main())
