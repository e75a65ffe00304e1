#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Compiles a kernel file that must fail and checks where the compiler says it failed.

    check_error_line.py [--cuda] SOURCE COMPILER [ARGS...]

Runs `COMPILER ARGS... -c SOURCE -o <tmp>` and expects an error on every line of SOURCE
marked /* ERROR */ (with --cuda, also those marked /* CUDA ERROR */: errors that only
device code has) and on no other line of SOURCE (none: it must compile): an error in a
kernel body is reported at the user's line, not at the macro's. Understands GCC's and Clang's
"file:LINE:COL: error" and nvcc's "file(LINE): error". Exit 0: as expected; 1: not."""
import os
import re
import subprocess
import sys
import tempfile


def main():
    args = sys.argv[1:]
    cuda = bool(args) and args[0] == "--cuda"
    if cuda:
        args = args[1:]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    source, compiler = args[0], args[1:]
    marks = ["/* ERROR */"] + (["/* CUDA ERROR */"] if cuda else [])
    with open(source, encoding="utf-8") as f:
        want = {n for n, line in enumerate(f, 1) if any(m in line for m in marks)}
    name = re.escape(os.path.basename(source))
    gcc = re.compile(r"^(?:.*[/\\])?" + name + r":(\d+):\d+: (?:fatal )?error")
    nvcc = re.compile(r"^(?:.*[/\\])?" + name + r"\((\d+)\): (?:catastrophic )?error")
    with tempfile.TemporaryDirectory() as tmp:
        run = subprocess.run(compiler + ["-c", source, "-o", os.path.join(tmp, "out.o")],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    got = set()
    for line in run.stdout.splitlines():
        m = gcc.match(line) or nvcc.match(line)
        if m:
            got.add(int(m.group(1)))
    ok = (run.returncode != 0) == bool(want) and got == want
    if not ok:
        print(run.stdout)
        print("exit status %d; errors on lines %s, expected exactly %s"
              % (run.returncode, sorted(got), sorted(want)))
    else:
        print("errors on lines %s, as marked" % sorted(got) if got else "compiled, as expected")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
