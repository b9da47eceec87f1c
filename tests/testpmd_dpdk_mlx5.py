#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
"""DPDK's own net/mlx5 (Debian's librte_net_mlx5, unmodified) in
dpdk-testpmd on devices of the emulated HCA.

devtools/mlx5-harness.sh builds the PCI and verbs tree net/mlx5 discovers
its devices through and the netdevs it reads in a private network
namespace; EAL's PCI bus scans that tree alone and probes its -a list. The
emulated HCA's library, loaded with -d, lists the devices of
MLX5_EMU_DEVICES.

  probe_forward: two net/mlx5 ports on one wire probe, io forward more
      than 4 million packets (every 16-bit counter net/mlx5 keeps wraps),
      stop with TX and RX within the io window, close with every
      emulated device closed (nothing left in the model);
  promisc_mac: promiscuous off drops frames for another MAC, the port's
      own MAC and a MAC added with mac_addr add are received, promiscuous
      on receives everything, counted exactly;
  interop: a net/mlx5 port and a net_mlx5cq port on one wire exchange
      exactly the packets each sends;
  mprq: net/mlx5 with mprq_en=1 forwards 64-byte and 1,000-byte packets
      on the model's striding RQs;
  lro: net/mlx5 with TCP LRO receives 64 in-order segments coalesced by
      the model and rewrites their headers from the CQE: fewer, longer
      packets, valid IP and TCP checksums, contiguous sequence numbers,
      PSH on the last, the payload conserved.
Needs root (network namespaces). Usage: testpmd_dpdk_mlx5.py --build BUILD
[--testpmd PROG] [CASE...]; exit status 77 when testpmd is missing.
"""

import os
import re
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testpmd_net_mlx5cq as tp  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARNESS = os.path.join(TOP, 'devtools', 'mlx5-harness.sh')
# 16-bit counters wrap after 65,536 completions of 32 packets or fewer:
# more than 2,097,152 packets a port crosses every one of them.
FORWARD_MIN = 2200000
BURSTS = 4  # start tx_first BURSTS: 32 packets each, below every ring.


class Harness:
    """The tree and namespace of devtools/mlx5-harness.sh for n ports."""

    def __init__(self, n, wire='w0'):
        self.dir = os.path.join(os.path.realpath(tp.BUILD),
                                'mlx5-harness.%d' % os.getpid())
        p = subprocess.run(['sh', HARNESS, 'up', self.dir, str(n), wire],
                           capture_output=True, text=True)
        tp.check(p.returncode == 0, 'mlx5-harness.sh up: %s' % p.stderr)
        out = p.stdout
        self.vars = dict(re.findall(r"^(\w+)='?([^'\n]*)'?$", out, re.M))
        self.macs = [self.vars['MLX5_HARNESS_MAC%d' % i] for i in range(n)]

    def testpmd(self, args, vdevs=()):
        v = self.vars
        return tp.Testpmd(
            list(vdevs), args,
            eal=['--log-level=pmd.common.mlx5cq_emu:info'],
            bus=v['MLX5_HARNESS_ALLOW'].split(),
            plugin=tp.drivers_dir(),
            wrap=['ip', 'netns', 'exec', v['MLX5_HARNESS_NS']],
            env_add={'SYSFS_PCI_DEVICES': v['SYSFS_PCI_DEVICES'],
                     'MLX5_EMU_DEVICES': v['MLX5_EMU_DEVICES']})

    def down(self):
        subprocess.run(['sh', HARNESS, 'down', self.dir])


def closed_clean(log, names):
    """Every emulated device closed at quit, none refused."""
    tp.check('close refused' not in log,
             'an emulated device kept objects at close:\n' + log[-3000:])
    for n in names:
        tp.check('%s: closed' % n in log, '%s not closed:\n%s' %
                 (n, log[-3000:]))


def probed(t, n):
    out = t.cmd('show port summary all')
    ports = re.findall(r'^\d+\s+([0-9A-F:]{17})\s+(\S+)', out, re.M)
    tp.check(len(ports) == n, 'ports: %s' % out)
    return out


def case_probe_forward():
    h = Harness(2)
    try:
        t = h.testpmd([])
        out = probed(t, 2)
        tp.check('mlx5_pci' in out, 'not net/mlx5: %s' % out)
        t.cmd('start tx_first')
        st = t.wait_stats(tp.moved(FORWARD_MIN), 'net/mlx5 io forward')
        t.cmd('stop')
        st = tp.port_stats(t.cmd('show port stats all'))
        tp.io_checks(st, 'net/mlx5 io')
        log = t.quit()
    finally:
        h.down()
    closed_clean(log, ['mlx5emu0', 'mlx5emu1'])
    print('net/mlx5 io forward: RX %d + %d packets' %
          (st[0]['RX-packets'], st[1]['RX-packets']))


def rx_exact(t, want, what):
    """Both ports' RX-packets reach want = (rx0, rx1) and stay there."""
    st = t.wait_stats(lambda s: all(s.get(p, {}).get('RX-packets', -1) >=
                                    want[p] for p in (0, 1)), what)
    time.sleep(0.5)
    st = tp.port_stats(t.cmd('show port stats all'))
    got = (st[0]['RX-packets'], st[1]['RX-packets'])
    tp.check(got == tuple(want), '%s: RX %s, expected %s' %
             (what, got, tuple(want)))


def send(t, peer0, peer1):
    """Each port sends BURSTS bursts to its peer MAC, then receives."""
    t.cmd('stop')
    t.cmd('set eth-peer 0 %s' % peer0)
    t.cmd('set eth-peer 1 %s' % peer1)
    t.cmd('start tx_first %d' % BURSTS)


def case_promisc_mac():
    h = Harness(2)
    n = BURSTS * 32
    try:
        t = h.testpmd(['--forward-mode=rxonly'])
        probed(t, 2)
        t.cmd('set promisc all off')
        # Nobody's MAC: dropped by both ports' steering.
        t.cmd('start')
        send(t, '02:00:00:00:00:99', '02:00:00:00:00:98')
        t.wait_stats(lambda s: all(s[p]['TX-packets'] >= n for p in (0, 1)),
                     'sent to nobody')
        # Each other's MAC: received, and only these.
        send(t, h.macs[1], h.macs[0])
        rx_exact(t, (n, n), 'own MAC with promiscuous off')
        # A MAC added to port 1: received there.
        t.cmd('mac_addr add 1 02:00:00:00:00:99')
        send(t, '02:00:00:00:00:99', '02:00:00:00:00:98')
        rx_exact(t, (n, 2 * n), 'added MAC')
        # Promiscuous: everything.
        t.cmd('set promisc all on')
        send(t, '02:00:00:00:00:97', '02:00:00:00:00:96')
        rx_exact(t, (2 * n, 3 * n), 'promiscuous on')
        log = t.quit()
    finally:
        h.down()
    closed_clean(log, ['mlx5emu0', 'mlx5emu1'])


def case_interop():
    h = Harness(1)
    n = BURSTS * 32
    try:
        t = h.testpmd(['--forward-mode=rxonly', '--rxd=1024', '--txd=1024'],
                      vdevs=tp.vdev(0))
        out = probed(t, 2)
        tp.check('mlx5_pci' in out and 'net_mlx5cq' in out,
                 'one port of each: %s' % out)
        t.cmd('start tx_first %d' % BURSTS)
        rx_exact(t, (n, n), 'net/mlx5 <-> net_mlx5cq')
        st = tp.port_stats(t.cmd('show port stats all'))
        for p in (0, 1):
            tp.check(st[p]['TX-packets'] == n and st[p]['RX-errors'] == 0,
                     'port %d: %s' % (p, st[p]))
        log = t.quit()
    finally:
        h.down()
    closed_clean(log, ['mlx5emu0'])


def case_mprq():
    """net/mlx5 with mprq_en=1: its multi-packet RQ burst reads the
    model's striding RQ completions (strides, fillers, mini-CQEs: HASH
    on its vector burst, CSUM_STRIDX on its scalar one, rx_vec_en=0); io
    forward of 64-byte (copied) and 1,000-byte (attached) packets, every
    byte counted, no error."""
    for size, more in ((64, ''), (1000, ''), (1000, ',rx_vec_en=0')):
        h = Harness(2)
        try:
            bus = [a if a == '-a' else
                   a + ',mprq_en=1,rxqs_min_mprq=1' + more
                   for a in h.vars['MLX5_HARNESS_ALLOW'].split()]
            h.vars['MLX5_HARNESS_ALLOW'] = ' '.join(bus)
            t = h.testpmd([])
            probed(t, 2)
            out = t.cmd('show rxq info 0 0')
            tp.check('MPRQ' in out or 'Multi-Packet RQ' in out,
                     'rxq info:\n' + out)
            t.cmd('set txpkts %d' % size)
            t.cmd('start tx_first')
            t.wait_stats(tp.moved(100000), 'net/mlx5 mprq %d' % size)
            t.cmd('stop')
            st = tp.port_stats(t.cmd('show port stats all'))
            tp.io_checks(st, 'net/mlx5 mprq %d' % size)
            for p in (0, 1):
                tp.check(st[p]['RX-bytes'] == size * st[p]['RX-packets'],
                         'port %d: %d packets %d bytes of %d' %
                         (p, st[p]['RX-packets'], st[p]['RX-bytes'], size))
            log = t.quit()
        finally:
            h.down()
        closed_clean(log, ['mlx5emu0', 'mlx5emu1'])


def case_lro():
    """net/mlx5 with TCP LRO on the model's coalescing: a pcap port sends
    in-order TCP segments of one flow through net/mlx5 port 0 onto the
    wire; net/mlx5 port 1 (rx_offload tcp_lro, scatter) receives them
    coalesced and forwards them to the pcap port's output file (chained
    io forward). The file holds fewer, longer packets whose headers
    net/mlx5 rewrote from the CQE's LRO fields (IP total length and
    checksum, TCP flags): each a valid segment, their payloads the sent
    bytes in order, nothing lost."""
    n, payload = 64, 1000
    h = Harness(2)
    d = h.dir
    src, dst = os.path.join(d, 'lro_in.pcap'), os.path.join(d, 'lro_out.pcap')
    try:
        sent = tp.lro_pcap(src, h.macs[1], n, payload)
        t = h.testpmd(['--port-topology=chained', '--forward-mode=io',
                       '--no-flush-rx', '--disable-device-start',
                       '--max-lro-pkt-size=8192'],
                      vdevs=['--vdev', 'net_pcap0,rx_pcap=%s,tx_pcap=%s' %
                             (src, dst)])
        out = probed(t, 3)
        # LRO on port 1 before its first start: net/mlx5 sets the TIR's
        # LRO fields when it creates the TIR (mlx5_devx_tir_attr_set()).
        for c in ('port config 1 rx_offload tcp_lro on',
                  'port config 1 rx_offload scatter on', 'port start all'):
            t.cmd(c)
        out = t.cmd('show port 1 rx_offload configuration')
        tp.check('TCP_LRO' in out, 'LRO not on:\n' + out)
        t.cmd('start')
        t.wait_stats(lambda st: st.get(1, {}).get('RX-bytes', 0) >=
                     n * payload, 'LRO: receive')
        time.sleep(0.5)
        t.cmd('stop')
        st = tp.port_stats(t.cmd('show port stats all'))
        log = t.quit()
        frames = tp.pcap_frames(dst)
    finally:
        h.down()
    closed_clean(log, ['mlx5emu0', 'mlx5emu1'])
    tp.lro_frames_check(frames, sent, n, st[1]['RX-packets'])


CASES = {
    'probe_forward': case_probe_forward,
    'lro': case_lro,
    'mprq': case_mprq,
    'promisc_mac': case_promisc_mac,
    'interop': case_interop,
}


if __name__ == '__main__':
    sys.exit(tp.run(CASES))
