#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
"""Sum the unit test counts of a meson test log and print the total line."""

import json
import re
import sys

LINE = re.compile(r'^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$', re.M)


def main(path):
    passed = failed = skipped = 0
    with open(path, encoding='utf-8') as log:
        for raw in log:
            test = json.loads(raw)
            found = LINE.findall(test.get('stdout') or '')
            ok = test.get('result') == 'OK'
            if found:
                p, f, s = found[-1]
                passed += int(p)
                failed += int(f)
                skipped += int(s or 0)
                if not ok and int(f) == 0:
                    failed += 1
            elif ok:
                passed += 1
            else:
                failed += 1
            print('%-24s %s' % (test.get('name'), test.get('result')))
    if skipped:
        print('%d passed, %d failed, %d skipped' % (passed, failed, skipped))
    else:
        print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1]))
