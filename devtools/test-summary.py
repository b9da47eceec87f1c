#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
"""Sum the unit test counts of meson test logs and print the total line.

Several logs (one per build folder) add up; a missing log counts as one
failure. With more than one log, test names carry their build folder."""

import json
import os
import re
import sys

LINE = re.compile(r'^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$', re.M)


def read_log(path, label):
    """Yield (name, test) of a meson testlog.json."""
    with open(path, encoding='utf-8') as log:
        for raw in log:
            test = json.loads(raw)
            name = test.get('name')
            if label:
                name = '%s/%s' % (label, name)
            yield name, test


def main(paths):
    passed = failed = skipped = 0
    tests = []
    for path in paths:
        label = os.path.basename(os.path.dirname(os.path.dirname(
            os.path.abspath(path)))) if len(paths) > 1 else ''
        try:
            tests.extend(read_log(path, label))
        except OSError as err:
            print('%s: %s' % (path, err.strerror))
            failed += 1
    for name, test in tests:
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
        print('%-44s %s' % (name, test.get('result')))
    if skipped:
        print('%d passed, %d failed, %d skipped' % (passed, failed, skipped))
    else:
        print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
