#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Compiles a file once as it is and once per mistake it holds; checks what the compiler says.

    check_compile_fail.py SOURCE COMPILER [ARGS...]

SOURCE marks each mistake with a line (which may be continued with backslashes)
    #if PX_TEST_MISTAKE == N   /* EXPECT: words */      (or #elif)
and every '#if PX_TEST_MISTAKE' line must be such a marker
and holds, outside those blocks, the same code without a mistake. The test passes when:
  - `COMPILER ARGS... -c SOURCE` succeeds and prints nothing (the positive control: a
    failure below is the mistake's, not the file's; with warnings made errors, a warning
    from the headers fails it too);
  - for every N, `COMPILER ARGS... -DPX_TEST_MISTAKE=N -c SOURCE` fails and its first error
    (GCC's and Clang's "file:line:col: error: ...", nvcc's "file(line): error: ...") holds
    the words: the message names the mistake before anything else goes wrong.
A SOURCE without mistakes is only compiled. Exit 0: as expected; 1: not; 77: no compiler."""
import os
import re
import subprocess
import sys
import tempfile

MISTAKE = re.compile(r"^\s*#\s*(?:el)?if\s+PX_TEST_MISTAKE\s*==\s*(\d+)\s*/\*\s*EXPECT:\s*(.*?)\s*\*/")
ERROR = re.compile(r"(?:^|[\s:)])(?:fatal |catastrophic )?error(?: #[\w-]+)?:")


def compile_once(compiler, source, defines, tmp):
    try:
        run = subprocess.run(compiler + defines + ["-c", source, "-o", os.path.join(tmp, "out.o")],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    except FileNotFoundError as e:
        print("no compiler: %s" % e)
        sys.exit(77)
    return run.returncode, run.stdout


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    source, compiler = sys.argv[1], sys.argv[2:]
    with open(source, encoding="utf-8") as f:
        # Lines joined where they end in a backslash, as the preprocessor joins them (a
        # formatter may break a long marker line).
        lines = re.sub(r"\\\n", " ", f.read()).splitlines()
    mistakes = [(int(m.group(1)), m.group(2)) for m in map(MISTAKE.match, lines) if m]
    written = sum(1 for line in lines if re.search(r"#\s*(?:el)?if\s+PX_TEST_MISTAKE\b", line))
    if written != len(mistakes):
        print("FAIL: %d '#if PX_TEST_MISTAKE' lines, %d of them with a number and EXPECT words"
              % (written, len(mistakes)))
        return 1
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        rc, out = compile_once(compiler, source, [], tmp)
        if rc != 0 or out.strip():
            print(out)
            print("FAIL: without a mistake the file must compile silently (exit status %d)" % rc)
            return 1
        print("ok: compiles without a mistake")
        for n, words in mistakes:
            rc, out = compile_once(compiler, source, ["-DPX_TEST_MISTAKE=%d" % n], tmp)
            first = next((line for line in out.splitlines() if ERROR.search(line)), None)
            if rc == 0:
                print(out)
                print("FAIL: mistake %d compiled" % n)
                failed += 1
            elif first is None or words not in first:
                print(out)
                print("FAIL: mistake %d: the first error is\n  %s\nnot one that says\n  %s" % (n, first, words))
                failed += 1
            else:
                print("ok: mistake %d: %s" % (n, first.strip()))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
