#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
"""Count the steps of devtools/test.sh and the test cases of their meson
logs, and print the closing line "N passed, N failed[, N skipped]".

Usage: test-summary.py [--steps FILE] [LOG...]

FILE (devtools/test.sh's BUILD/test-steps.txt) has one line per step,
"NAME<tab>STATUS<tab>LOG": STATUS is the step's exit status (0 passed,
anything else failed) or "-" (not run because what it needs failed:
skipped); LOG is the meson testlog.json the step wrote, or "-". Each step
is one count. The test cases of a step's log count as well, once the step
ran; a step that passed without leaving its log counts one failure more
(a failed step's missing log is that step's failure, counted once). Each
LOG given on the command line counts its cases too; a missing one counts
as one failure.

In a log, a test that printed "N passed, N failed[, N skipped]" (a unit
suite) adds those numbers, and one failure more when the test itself did
not pass but none of its cases failed (a crash or a sanitizer report after
the cases); a test without that line is one case: OK or EXPECTEDFAIL
passed, SKIP (exit status 77: its program is missing) skipped, anything
else failed. Test names carry their build folder.

Prints one line per step and per test with its result, then the total.
Exit status 1 when anything failed."""

import json
import os
import re
import sys

LINE = re.compile(r'^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$', re.M)
PASSED = ('OK', 'EXPECTEDFAIL')


class Count:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0

    def line(self):
        text = '%d passed, %d failed' % (self.passed, self.failed)
        if self.skipped:
            text += ', %d skipped' % self.skipped
        return text


def log_label(path):
    """The build folder of BUILD/meson-logs/testlog.json."""
    return os.path.basename(os.path.dirname(os.path.dirname(
        os.path.abspath(path))))


def count_test(count, name, test):
    result = test.get('result')
    found = LINE.findall(test.get('stdout') or '')
    if found:
        p, f, s = found[-1]
        count.passed += int(p)
        count.failed += int(f)
        count.skipped += int(s or 0)
        if result not in PASSED and result != 'SKIP' and int(f) == 0:
            count.failed += 1
    elif result in PASSED:
        count.passed += 1
    elif result == 'SKIP':
        count.skipped += 1
    else:
        count.failed += 1
    print('  %-50s %s' % (name, result))


def count_log(count, path):
    """Count the tests of a meson testlog.json; False if it cannot be
    read."""
    label = log_label(path)
    try:
        with open(path, encoding='utf-8') as log:
            tests = [json.loads(raw) for raw in log if raw.strip()]
    except (OSError, ValueError) as err:
        print('  %s: %s' % (path, getattr(err, 'strerror', None) or err))
        return False
    for test in tests:
        count_test(count, '%s/%s' % (label, test.get('name')), test)
    return True


def count_steps(count, path):
    with open(path, encoding='utf-8') as steps:
        rows = [raw.rstrip('\n').split('\t') for raw in steps if raw.strip()]
    for row in rows:
        name, status, log = (row + ['-', '-'])[:3]
        if status == '0':
            count.passed += 1
            result = 'passed'
        elif status == '-':
            count.skipped += 1
            result = 'not run'
        else:
            count.failed += 1
            result = 'FAILED (exit status %s)' % status
        print('step %-45s %s' % (name, result))
        if log == '-' or status == '-':
            continue
        if not count_log(count, log) and status == '0':
            print('  no log after a step that passed: one failure')
            count.failed += 1


def main(args):
    count = Count()
    steps = None
    if args[:1] == ['--steps']:
        if len(args) < 2:
            sys.exit('usage: test-summary.py [--steps FILE] [LOG...]')
        steps, args = args[1], args[2:]
    if steps is not None:
        try:
            count_steps(count, steps)
        except OSError as err:
            print('%s: %s' % (steps, err.strerror))
            count.failed += 1
    for path in args:
        if not count_log(count, path):
            count.failed += 1
    print(count.line())
    return 1 if count.failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
