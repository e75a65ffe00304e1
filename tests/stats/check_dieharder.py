#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""dieharder over portex's Philox4x32-10 stream (philox_stream piped into `dieharder -g 200`).

    check_dieharder.py PHILOX_STREAM [--all] [--seed S]

Runs 22 of dieharder's tests, chosen to take about 90 s on one core of the development
machine (left out, among those its list calls "Good": Marsaglia and Tsang's GCD, two
minutes alone; OPERM5, count-the-1s by byte, craps and RGB's minimum distance): the Diehard
birthdays, 32x32 and 6x8 rank, bitstream, count-the-1s (stream), parking lot, minimum
distance, 3-D sphere, squeeze and runs tests, STS monobit, runs and serial, RGB bit
distribution (8-bit tuples), permutations, lagged sums and KS, and the DAB tests. With --all, every test
(dieharder -a), which takes far longer. Each ambiguous
(WEAK) result is resolved with more samples (-Y 1), as dieharder's manual advises; a test
that still FAILS fails this check. dieharder is found as $PX_DIEHARDER or on the PATH; with
neither this exits 77 (skipped), saying so. It prints what it ran, every result line and
how long it took.
"""
import os
import shutil
import subprocess
import sys
import time

QUICK = [['-d', str(d)] for d in (0, 2, 3, 4, 8, 10, 11, 12, 13, 15, 100, 101, 102, 202, 203,
                                   204, 205, 206, 207, 208, 209)] + [['-d', '200', '-n', '8']]


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    stream, run_all, seed = args[0], '--all' in args, '20261127'
    if '--seed' in args:
        seed = args[args.index('--seed') + 1]
    dh = os.environ.get('PX_DIEHARDER') or shutil.which('dieharder')
    if not dh:
        print('skipped: dieharder not found (install Debian\'s dieharder, or set PX_DIEHARDER)')
        return 77
    tests = [['-a']] if run_all else QUICK
    start = time.monotonic()
    failed, lines = [], 0
    for t in tests:
        gen = subprocess.Popen([stream, seed], stdout=subprocess.PIPE)
        out = subprocess.run([dh, '-g', '200', '-Y', '1'] + t, stdin=gen.stdout,
                             capture_output=True, text=True)
        gen.stdout.close()
        gen.wait()
        if out.returncode != 0 or gen.returncode != 0:
            print(f'dieharder {" ".join(t)}: exit {out.returncode}, generator exit '
                  f'{gen.returncode}\n{out.stderr}')
            return 1
        for line in out.stdout.splitlines():
            if '|' in line and ('PASSED' in line or 'WEAK' in line or 'FAILED' in line):
                print(line)
                lines += 1
                if 'FAILED' in line:
                    failed.append(line.split('|')[0].strip())
    took = time.monotonic() - start
    print(f'dieharder, seed {seed}: {lines} results, {len(failed)} failed '
          f'({", ".join(failed) or "none"}); {took:.0f} s')
    return 1 if failed or lines == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
