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
dataunit0: 1024 and 1000-byte buffers, the whole operation one data unit
(1000 with ciphertext stealing; DPDK 22.11's tool has no data-unit option
and its sessions have dataunit_len 0): verify, encrypt and decrypt,
against ciphertexts of the Python package cryptography (OpenSSL) written
to BUILD/crypto_perf_du0.data, and a throughput run; every operation
enqueued and dequeued within a bounded time, none failed.
gcm: AES-256-GCM (32-byte key, 12-byte IV, 16 bytes of AAD, 16-byte
digest), 64 and 1000-byte buffers: verify, encrypt and decrypt, in
place and out of place (linear buffers, the tool's only out of place),
against
ciphertexts and digests of the Python package cryptography (OpenSSL)
written to BUILD/crypto_perf_gcm.data, and a throughput run; every
operation enqueued and dequeued, none failed.
wrapped: wrapped keys. The emulated device gets a wrapped-key engine
provisioned with an AES-256 import KEK and a credential (vdev devargs
emu_crypto=wrapped, emu_kek, emu_credential, as a crypto officer leaves a
card); the PMD logs in with the credential wrapped by that KEK
(credential_id, import_kek_id, credential, keytag, as crypto/mlx5 takes
them). BUILD/crypto_perf_wrapped.data holds IEEE 1619 vectors 4 and 10
with cipher_key the 48 and 80-byte blobs of Key1 || Key2 || keytag
wrapped by the KEK (RFC 3394, the Python package cryptography):
verify, encrypt and decrypt, and a throughput run of each; then the same
vectors wrapped by another KEK: the device refuses the DEK, the tool
fails at session creation with the PMD's log line, within 60 seconds.
The PMD is loaded with EAL -d from this build's drivers folder; the
emulated device gets a plaintext-key crypto engine from the vdev's
emu_crypto=plaintext devarg (wrapped keys: see the case wrapped).
Usage: crypto_perf_mlx5cq.py --build BUILD [--crypto-perf PROG] [CASE...]
Exit status 77 (meson: skipped) when the program named by --crypto-perf is
not found.
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


XTS_ARGS = ['--optype', 'cipher-only', '--cipher-algo', 'aes-xts',
            '--cipher-iv-sz', '16']
GCM_ARGS = ['--optype', 'aead', '--aead-algo', 'aes-gcm',
            '--aead-key-sz', '32', '--aead-iv-sz', '12',
            '--aead-aad-sz', '16', '--digest-sz', '16']


def perf_run(build, args, timeout=600, algo=None, vdev=VDEV):
    """Run dpdk-test-crypto-perf on crypto_mlx5cq (AES-XTS unless algo
    gives other arguments): the completed process (output in stdout)."""
    d = drivers_dir(build)
    env = dict(os.environ)
    env['LD_LIBRARY_PATH'] = d + ':' + env.get('LD_LIBRARY_PATH', '')
    cmd = [CRYPTO_PERF, '--no-pci', '--in-memory', '-l', '0,1',
           '--log-level=lib.eal:error', '-d', d, '--vdev', vdev, '--',
           '--devtype', 'crypto_mlx5cq'] + (algo or XTS_ARGS) + [
           '--burst-sz', '32'] + args
    return subprocess.run(cmd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, env=env, text=True,
                          timeout=timeout)


def perf(build, args, timeout=600, algo=None, vdev=VDEV):
    """perf_run(): its rows of figures (lcore id first) as lists of
    strings, and the whole output; a Failure unless it exits 0 with a
    row."""
    p = perf_run(build, args, timeout, algo, vdev)
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


def du0_vectors(build):
    """A vectors file of whole-operation data units of 1024 and 1000 bytes
    (sections du0_1024, du0_1000): ciphertexts from the Python package
    cryptography's AES-XTS (OpenSSL), one data unit per operation."""
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    def hexlist(b):
        return ',\n'.join(', '.join('0x%02x' % c for c in b[i:i + 16])
                           for i in range(0, len(b), 16))
    key = bytes((i * 37 + 11) & 0xff for i in range(32))
    iv = bytes((i * 13 + 5) & 0xff for i in range(16))
    text = ['# Generated by crypto_perf_mlx5cq.py (case dataunit0).\n']
    for size in (1024, 1000):
        pt = bytes((i * 7 + (i >> 8)) & 0xff for i in range(size))
        enc = Cipher(algorithms.AES(key), modes.XTS(iv)).encryptor()
        ct = enc.update(pt) + enc.finalize()
        text.append('[du0_%d]\nplaintext =\n%s\ncipher_key =\n%s\n'
                    'cipher_iv =\n%s\nciphertext =\n%s\n\n'
                    % (size, hexlist(pt), hexlist(key), hexlist(iv),
                       hexlist(ct)))
    path = os.path.join(os.path.realpath(build), 'crypto_perf_du0.data')
    with open(path, 'w') as f:
        f.write(''.join(text))
    return path


def case_dataunit0(build):
    try:
        vectors = du0_vectors(build)
    except ImportError:
        raise Failure('Python package cryptography missing (vectors)')
    for size in (1024, 1000):
        for op in ('encrypt', 'decrypt'):
            rows, out = perf(build, [
                '--ptest', 'verify', '--cipher-op', op,
                '--cipher-key-sz', '32', '--buffer-sz', str(size),
                '--test-file', vectors, '--test-name', 'du0_%d' % size,
                '--total-ops', str(TOTAL)], timeout=120)
            # lcore, buf, burst, enq, deq, failed enq, failed deq,
            # failed ops
            r = rows[0]
            if int(r[3]) != TOTAL or int(r[4]) != TOTAL or int(r[7]) != 0:
                raise Failure('data unit 0, %d B %s: %s enqueued, %s '
                              'dequeued, %s failed of %d' % (
                                  size, op, r[3], r[4], r[7], TOTAL))
        rows, out = perf(build, [
            '--ptest', 'throughput', '--cipher-op', 'encrypt',
            '--cipher-key-sz', '32', '--buffer-sz', str(size),
            '--total-ops', '20000', '--silent'], timeout=120)
        # lcore, buf, burst, enq, deq, failed enq, failed deq, MOps, Gbps
        r = rows[0]
        if int(r[3]) != 20000 or int(r[4]) != 20000 or float(r[7]) <= 0:
            raise Failure('data unit 0, %d B throughput: %s enqueued, %s '
                          'dequeued, %s MOps' % (size, r[3], r[4], r[7]))
        print('data unit 0, %d B: verify exact both ways; %s MOps, %s Gbps'
              % (size, r[7], r[8]))


def gcm_vectors(build):
    """A vectors file of AES-256-GCM (section gcm_256_<size>, sizes 64
    and 1000): 32-byte key, 12-byte IV, 16 bytes of AAD, 16-byte digest;
    ciphertext and digest from the Python package cryptography (OpenSSL).
    """
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    def hexlist(b):
        return ',\n'.join(', '.join('0x%02x' % c for c in b[i:i + 16])
                           for i in range(0, len(b), 16))
    key = bytes((i * 29 + 3) & 0xff for i in range(32))
    iv = bytes((i * 11 + 7) & 0xff for i in range(12))
    aad = bytes((i * 5 + 1) & 0xff for i in range(16))
    text = ['# Generated by crypto_perf_mlx5cq.py (case gcm).\n']
    for size in GCM_SIZES:
        pt = bytes((i * 3 + (i >> 8)) & 0xff for i in range(size))
        out = AESGCM(key).encrypt(iv, pt, aad)
        text.append('[gcm_256_%d]\nplaintext =\n%s\nciphertext =\n%s\n'
                    'aead_key =\n%s\naead_iv =\n%s\naad =\n%s\n'
                    'digest =\n%s\n\n'
                    % (size, hexlist(pt), hexlist(out[:-16]), hexlist(key),
                       hexlist(iv), hexlist(aad), hexlist(out[-16:])))
    path = os.path.join(os.path.realpath(build), 'crypto_perf_gcm.data')
    with open(path, 'w') as f:
        f.write(''.join(text))
    return path


GCM_SIZES = (64, 1000)
# (the tool's out of place takes one segment: --segment-sz over the size)
OOP = ['--out-of-place', '--segment-sz', '2048']


def case_gcm(build):
    try:
        vectors = gcm_vectors(build)
    except ImportError:
        raise Failure('Python package cryptography missing (vectors)')
    for size in GCM_SIZES:
        for op, extra in (('encrypt', []), ('decrypt', []),
                          ('encrypt', OOP),
                          ('decrypt', OOP)):
            rows, out = perf(build, [
                '--ptest', 'verify', '--aead-op', op,
                '--buffer-sz', str(size), '--test-file', vectors,
                '--test-name', 'gcm_256_%d' % size,
                '--total-ops', str(TOTAL)] + extra, timeout=120,
                algo=GCM_ARGS)
            # lcore, buf, burst, enq, deq, failed enq, failed deq,
            # failed ops
            r = rows[0]
            if int(r[3]) != TOTAL or int(r[4]) != TOTAL or int(r[7]) != 0:
                raise Failure('AES-GCM %d B %s %s: %s enqueued, %s '
                              'dequeued, %s failed of %d'
                              % (size, op, ' '.join(extra), r[3], r[4],
                                 r[7], TOTAL))
        rows, out = perf(build, [
            '--ptest', 'throughput', '--aead-op', 'encrypt',
            '--buffer-sz', str(size), '--total-ops', '20000', '--silent'],
            timeout=120, algo=GCM_ARGS)
        # lcore, buf, burst, enq, deq, failed enq, failed deq, MOps, Gbps
        r = rows[0]
        if int(r[3]) != 20000 or int(r[4]) != 20000 or float(r[7]) <= 0:
            raise Failure('AES-GCM %d B throughput: %s enqueued, %s '
                          'dequeued, %s MOps' % (size, r[3], r[4], r[7]))
        print('AES-256-GCM %d B: verify exact both ways; %s MOps, %s Gbps'
              % (size, r[7], r[8]))


def hexstr(b):
    return ''.join('%02x' % c for c in b)


def hexlist(b):
    return ',\n'.join(', '.join('0x%02x' % c for c in b[i:i + 16])
                       for i in range(0, len(b), 16))


def vectors_read(path):
    """The fields of a dpdk-test-crypto-perf vectors file: {section:
    {name: bytes}}, section '' the global one."""
    out = {'': {}}
    sect, name = '', None
    with open(path) as f:
        for ln in f:
            ln = ln.strip()
            if not ln or ln.startswith('#'):
                continue
            if ln.startswith('['):
                sect = ln.strip('[]')
                out[sect] = {}
            elif ln.endswith('='):
                name = ln[:-1].strip()
                out[sect][name] = b''
            else:
                out[sect][name] += bytes(int(t, 16) for t in
                                         ln.replace(',', ' ').split())
    return out


# The emulated card's provisioning and the PMD's login (case wrapped).
W_KEK = bytes((i * 17 + 9) & 0xff for i in range(32))
W_CRED = bytes((0xa0 + i) & 0xff for i in range(40))
W_KEYTAG = 0x0123456789abcdef


def wrapped_vdev():
    from cryptography.hazmat.primitives.keywrap import aes_key_wrap
    return ('crypto_mlx5cq0,dev=emu,emu_crypto=wrapped,key_mode=wrapped,'
            'emu_kek=%s,emu_credential=%s,credential_id=0x11,'
            'import_kek_id=0x10,credential=%s,keytag=0x%x'
            % (hexstr(W_KEK), hexstr(W_CRED),
               hexstr(aes_key_wrap(W_KEK, W_CRED)), W_KEYTAG))


def wrapped_vectors(build, kek, name):
    """IEEE 1619 vectors 4 and 10 (tests/data/xts_ieee1619.data) with
    cipher_key Key1 || Key2 || keytag (big endian, as the BSF holds it)
    wrapped by kek (RFC 3394): 48 and 80 bytes."""
    from cryptography.hazmat.primitives.keywrap import aes_key_wrap
    v = vectors_read(VECTORS)
    text = ['# Generated by crypto_perf_mlx5cq.py (case wrapped).\n',
            'plaintext =\n%s\n\n' % hexlist(v['']['plaintext'])]
    for sect, ksz in VECS:
        f = v[sect]
        assert len(f['cipher_key']) == ksz
        wkey = aes_key_wrap(kek, f['cipher_key'] +
                            W_KEYTAG.to_bytes(8, 'big'))
        text.append('[%s]\ncipher_key =\n%s\ncipher_iv =\n%s\n'
                    'ciphertext =\n%s\n\n'
                    % (sect, hexlist(wkey), hexlist(f['cipher_iv']),
                       hexlist(f['ciphertext'])))
    path = os.path.join(os.path.realpath(build), name)
    with open(path, 'w') as f:
        f.write(''.join(text))
    return path


def case_wrapped(build):
    try:
        vdev = wrapped_vdev()
        good = wrapped_vectors(build, W_KEK, 'crypto_perf_wrapped.data')
        bad = wrapped_vectors(build, bytes(b ^ 0x5a for b in W_KEK),
                              'crypto_perf_wrapped_bad.data')
    except ImportError:
        raise Failure('Python package cryptography missing (vectors)')
    for sect, ksz in VECS:
        wsz = str(ksz + 16)  # keytag and the key wrap's 8 bytes
        for op in ('encrypt', 'decrypt'):
            rows, out = perf(build, [
                '--ptest', 'verify', '--cipher-op', op,
                '--cipher-key-sz', wsz, '--buffer-sz', '512',
                '--test-file', good, '--test-name', sect,
                '--total-ops', str(TOTAL)], timeout=120, vdev=vdev)
            r = rows[0]
            if int(r[3]) != TOTAL or int(r[4]) != TOTAL or int(r[7]) != 0:
                raise Failure('wrapped %s %s: %s enqueued, %s dequeued, '
                              '%s failed of %d' % (sect, op, r[3], r[4],
                                                   r[7], TOTAL))
        rows, out = perf(build, [
            '--ptest', 'throughput', '--cipher-op', 'encrypt',
            '--cipher-key-sz', wsz, '--buffer-sz', '512',
            '--test-file', good, '--test-name', sect,
            '--total-ops', '20000', '--silent'], timeout=120, vdev=vdev)
        r = rows[0]
        if int(r[3]) != 20000 or int(r[4]) != 20000 or float(r[7]) <= 0:
            raise Failure('wrapped %s throughput: %s enqueued, %s '
                          'dequeued, %s MOps' % (sect, r[3], r[4], r[7]))
        print('wrapped %s (%s-byte key): verify exact both ways; %s MOps'
              % (sect, wsz, r[7]))
        # Another KEK's wrap: refused at session creation, no hang.
        p = perf_run(build, [
            '--ptest', 'verify', '--cipher-op', 'encrypt',
            '--cipher-key-sz', wsz, '--buffer-sz', '512',
            '--test-file', bad, '--test-name', sect,
            '--total-ops', str(TOTAL)], timeout=60, vdev=vdev)
        want = 'crypto_mlx5cq: DEK creation'
        if p.returncode == 0 or want not in p.stdout:
            raise Failure('wrapped %s, key of another KEK: exit %d, "%s" '
                          '%sin the output:\n%s'
                          % (sect, p.returncode, want,
                             '' if want in p.stdout else 'not ',
                             p.stdout[-2000:]))
        print('wrapped %s, key of another KEK: refused (exit %d)'
              % (sect, p.returncode))


CASES = {'verify': case_verify, 'throughput': case_throughput,
         'dataunit0': case_dataunit0, 'gcm': case_gcm,
         'wrapped': case_wrapped}


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
