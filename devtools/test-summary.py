#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5cq authors
"""Count the steps of devtools/test.sh and the test cases of their meson
logs, and print the closing line "N passed, N failed[, N skipped]".

Usage: test-summary.py [--steps FILE] [LOG...]

FILE (devtools/test.sh's BUILD/test-steps.txt) has one line per step,
"NAME<tab>STATUS<tab>LOG[<tab>OUT]": STATUS is the step's exit status (0
passed, anything else failed) or "-" (not run because what it needs
failed: skipped); LOG is the meson testlog.json the step wrote, or "-";
OUT is the file of what the step printed, or "-". Each step
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

Prints one line per step and per test with its result; then, for each
failed test, the lines of its output that report a failure and its last
lines, and the same of a failed step's OUT when none of its tests failed
(a build, or a step without a meson log); then the total. The quotes come
last so that a reader of the output's end sees why something failed.
Exit status 1 when anything failed."""

import json
import os
import re
import sys

LINE = re.compile(r'^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$', re.M)
PASSED = ('OK', 'EXPECTEDFAIL')
# What a failed test or step is quoted with: its lines that report a
# failure (at most FAIL_LINES, the last ones) and its last TAIL_LINES.
FAILURE = re.compile(r'FAIL|[Ff]ailed|[Ee]rror|ERROR|Assertion|'
                     r'Sanitizer|not ok|Traceback')
FAIL_LINES = 12
TAIL_LINES = 20
# Quotes in all: enough for a few failures, short enough that the counts
# stay near the end.
QUOTE_LINES = 150


class Count:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0
        self.quotes = []  # (title, text) of what failed

    def line(self):
        text = '%d passed, %d failed' % (self.passed, self.failed)
        if self.skipped:
            text += ', %d skipped' % self.skipped
        return text

    def quote(self, title, text):
        self.quotes.append((title, text or ''))

    def print_quotes(self):
        if not self.quotes:
            return
        left = QUOTE_LINES
        print('what failed printed:')
        for i, (title, text) in enumerate(self.quotes):
            lines = excerpt(text)
            if left <= 1:
                print('  (%d more not quoted)' % (len(self.quotes) - i))
                break
            lines = lines[-(left - 1):]
            print('--- %s' % title)
            for line in lines:
                print('  | %s' % line[:200])
            left -= len(lines) + 1


def excerpt(text):
    """The lines of text that report a failure (the last FAIL_LINES of
    them before the tail) and its last TAIL_LINES lines."""
    lines = text.rstrip('\n').split('\n') if text.strip() else []
    tail = lines[-TAIL_LINES:]
    head = lines[:-TAIL_LINES]
    marked = [line for line in head if FAILURE.search(line)][-FAIL_LINES:]
    if marked:
        marked.append('  ...')
    return marked + tail


def log_label(path):
    """The build folder of BUILD/meson-logs/testlog.json."""
    return os.path.basename(os.path.dirname(os.path.dirname(
        os.path.abspath(path))))


def count_test(count, name, test):
    """Count one test of a log; True if anything of it failed."""
    result = test.get('result')
    found = LINE.findall(test.get('stdout') or '')
    before = count.failed
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
    if count.failed == before:
        return False
    count.quote('%s (%s)' % (name, result),
                (test.get('stdout') or '') + (test.get('stderr') or ''))
    return True


def count_log(count, path):
    """Count the tests of a meson testlog.json: None if it cannot be
    read, else whether a test of it failed."""
    label = log_label(path)
    try:
        with open(path, encoding='utf-8') as log:
            tests = [json.loads(raw) for raw in log if raw.strip()]
    except (OSError, ValueError) as err:
        print('  %s: %s' % (path, getattr(err, 'strerror', None) or err))
        return None
    failed = False
    for test in tests:
        if count_test(count, '%s/%s' % (label, test.get('name')), test):
            failed = True
    return failed


def read_out(path):
    try:
        with open(path, encoding='utf-8', errors='replace') as out:
            return out.read()
    except OSError as err:
        return '(%s: %s)' % (path, err.strerror)


def count_steps(count, path):
    with open(path, encoding='utf-8') as steps:
        rows = [raw.rstrip('\n').split('\t') for raw in steps if raw.strip()]
    for row in rows:
        name, status, log, out = (row + ['-', '-', '-'])[:4]
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
        if status == '-':
            continue
        tests_failed = False
        if log != '-':
            tests_failed = count_log(count, log)
            if tests_failed is None and status == '0':
                print('  no log after a step that passed: one failure')
                count.failed += 1
        if status != '0' and not tests_failed and out != '-':
            count.quote('step %s (exit status %s)' % (name, status),
                        read_out(out))


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
        if count_log(count, path) is None:
            count.failed += 1
    count.print_quotes()
    print(count.line())
    return 1 if count.failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
