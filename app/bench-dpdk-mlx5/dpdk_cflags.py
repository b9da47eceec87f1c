#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
"""Print, one a line, the options DPDK's own build compiled
drivers/net/mlx5/mlx5_rxtx_vec.c with (include folders made absolute;
output, dependency-file and source arguments and the per-driver log type
left out), from compile_commands.json of the DPDK build folder given.
app/bench-dpdk-mlx5 compiles its files with them, so that struct
mlx5_rxq_data and the CPU flags are the library's.

Usage: dpdk_cflags.py DPDK_BUILD
"""

import json
import os
import shlex
import sys


def main():
    build = sys.argv[1]
    with open(os.path.join(build, 'compile_commands.json')) as f:
        cmds = json.load(f)
    cmd = next((c for c in cmds
                if c['file'].endswith('net/mlx5/mlx5_rxtx_vec.c')), None)
    if cmd is None:
        sys.exit('%s: no compile command of net/mlx5/mlx5_rxtx_vec.c'
                 % build)
    out, skip = [], False
    for a in shlex.split(cmd['command'])[1:]:
        if skip:
            skip = False
            continue
        if a in ('-o', '-c', '-MQ', '-MF'):
            skip = True
            continue
        if a == '-MD' or a.endswith('.c') or \
                a.startswith('-DRTE_LOG_DEFAULT'):
            continue
        if a.startswith('-I') and not os.path.isabs(a[2:]):
            a = '-I' + os.path.normpath(os.path.join(cmd['directory'],
                                                     a[2:]))
        out.append(a)
    print('\n'.join(out))


if __name__ == '__main__':
    main()
