#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Every ```c block of README.md and docs/*.md, compiled and run as written.

    check_snippets.py --root=SRC --exec=serial|openmp|threads --cc=CC [--cc=...] [--cflag=FLAG ...]
                      --lib=LIBPORTEX.so [--linalg-lib=LIB.so] [--mpicc=MPICC
                      --mpirun=MPIRUN --mpi-lib=LIB.so --mpi-env=NAME=VALUE ...]

The line just before a block's opening fence says what the block is:

  (no marker)       A whole program: it defines main. Compiled alone and run.
  <!-- snippet: copy of PATH -->
                    The repository's file PATH, shown whole: the block must be that file
                    byte for byte. Compiled alone and run.
  <!-- snippet: HARNESS -->  or  <!-- snippet: HARNESS#SLOT -->
                    A fragment. HARNESS (docs/snippets/NAME.c) is a program that gives it
                    its context (views, kernels, a check of what it did): the block
                    replaces the harness's line `/* snippet */` (`/* snippet: SLOT */`),
                    between #line directives, so that the compiler names the document's
                    lines. A SLOT that is a file name (axpy_kernels.h) makes the block that
                    file beside the harness, compiled and linked too when it is a .c. One
                    harness may take blocks from several documents; each slot takes one.

Anything else fails, naming the document and line: a block with no marker that does not
define main, a marker that names no file or no slot, a slot no block fills, a harness no
block uses, a marker on a block of another language. So a new snippet cannot go
unchecked. Harnesses share docs/snippets/snippet.h: CHECK and EXPECT for their own calls
and checks, SNIPPET_BEGIN and SNIPPET_END around the slot (a snippet's call that fails
fails the run, though the snippet checks no status), and SNIPPET_REQUIRE_EXEC for a
snippet about one backend (on the others it is compiled, and skipped: CUDA's, here).

Programs are compiled with the given compiler and flags (-std=c11 -Wall -Wextra -Wpedantic
-Werror ...) against the built libportex, as C (kernels included: the host backends), and
run with PX_DEFAULT_EXEC=EXEC. A program that includes portex/mpi.h is compiled with
MPICC, linked with libportex_mpi too and run on 2 processes under MPIRUN, with the
--mpi-env variables added; without --mpicc it is skipped. One that includes
portex/linalg.h is linked with libportex_linalg too; without --linalg-lib it is skipped.
A program that exits 77 is skipped: a harness says so when what it needs is not here (a
backend, say), and why. Exit 0 when no block failed and one ran, 77
when all were skipped, 1 otherwise. Meson runs it per host backend:
`meson test -C build --suite snippets` (docs/snippets/meson.build)."""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^(\s*)```\s*([^`\s]*)\s*$")
MARKER = re.compile(r"^\s*<!--\s*snippet:\s*(.*?)\s*-->\s*$")
COPY = re.compile(r"^copy of\s+(\S+)$")
MAIN = re.compile(r"\bint\s+main\s*\(")
SLOT = re.compile(r"^\s*/\*\s*snippet(?::\s*(\S+))?\s*\*/\s*$")
MPI = re.compile(r'^\s*#\s*include\s*[<"]portex/mpi\.h[>"]', re.M)
LINALG = re.compile(r'^\s*#\s*include\s*[<"]portex/linalg\.h[>"]', re.M)
HARNESS_DIR = "docs/snippets"
RUN_TIMEOUT_S = 120


class Block:
    def __init__(self, doc, line, text, marker):
        self.doc, self.line, self.text, self.marker = doc, line, text, marker

    def where(self):
        return "%s:%d" % (self.doc, self.line)


class Program:
    """Sources to compile into one executable, and the blocks it checks."""

    def __init__(self, name, blocks):
        self.name, self.blocks, self.sources = name, blocks, {}   # file name -> text


def blocks_of(root, doc, errors):
    """The ```c blocks of one document, with the marker on the line before each."""
    with open(os.path.join(root, doc), encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, lang = m.group(1), m.group(2)
        j = i + 1   # the closing fence: ``` alone
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        if j == len(lines):
            errors.append("%s:%d: a code block that is never closed" % (doc, i + 1))
            break
        marker = MARKER.match(lines[i - 1]) if i > 0 else None
        if lang == "c":
            body = [l[len(indent):] if l.startswith(indent) else l for l in lines[i + 1:j]]
            out.append(Block(doc, i + 1, "\n".join(body) + "\n", marker.group(1) if marker else None))
        elif marker:
            errors.append("%s:%d: a snippet marker on a block that is not ```c: it checks nothing"
                          % (doc, i + 1))
        i = j + 1
    return out


def line_directive(line, path):
    return '#line %d "%s"\n' % (line, path)


def plan(root, blocks, errors):
    """The programs that check the blocks."""
    programs, harnesses = [], {}
    for b in blocks:
        if b.marker is None:
            if not MAIN.search(b.text):
                errors.append("%s: a ```c block that is not a whole program (no main) and has no "
                              "<!-- snippet: ... --> marker on the line before it: give it a harness "
                              "in %s/ (check_snippets.py says how)" % (b.where(), HARNESS_DIR))
                continue
            p = Program("%s_%d" % (os.path.basename(b.doc).replace(".", "_"), b.line), [b])
            p.sources["main.c"] = line_directive(b.line + 1, b.doc) + b.text
            programs.append(p)
            continue
        copy = COPY.match(b.marker)
        if copy:
            path = copy.group(1)
            try:
                with open(os.path.join(root, path), encoding="utf-8") as f:
                    want = f.read()
            except OSError as e:
                errors.append("%s: 'copy of %s': %s" % (b.where(), path, e.strerror))
                continue
            if b.text != want:
                errors.append("%s: the block is not %s as it is: make them the same" % (b.where(), path))
                continue
            p = Program(os.path.basename(path).replace(".", "_"), [b])
            p.sources[os.path.basename(path)] = line_directive(b.line + 1, b.doc) + b.text
            programs.append(p)
            continue
        path, _, slot = b.marker.partition("#")
        if os.path.dirname(path) != HARNESS_DIR or not path.endswith(".c"):
            errors.append("%s: marker '%s': a harness is a file %s/NAME.c (or 'copy of PATH')"
                          % (b.where(), b.marker, HARNESS_DIR))
            continue
        harnesses.setdefault(path, []).append((slot, b))

    for path in sorted(glob.glob(os.path.join(root, HARNESS_DIR, "*.c"))):
        rel = os.path.relpath(path, root)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if rel not in harnesses:
            errors.append("%s: a harness that no block names: remove it, or mark its block" % rel)
            continue
        programs.append(splice(rel, text, harnesses.pop(rel), errors))
    for path, uses in harnesses.items():
        for _, b in uses:
            errors.append("%s: marker '%s': no such harness" % (b.where(), b.marker))
    return [p for p in programs if p is not None]


def splice(rel, text, uses, errors):
    """The harness with its slots filled: a Program, or None after an error."""
    before = len(errors)
    by_slot = {}
    for slot, b in uses:
        if slot in by_slot:
            errors.append("%s: slot '%s' of %s is already filled by %s"
                          % (b.where(), slot or "snippet", rel, by_slot[slot].where()))
        by_slot.setdefault(slot, b)
    p = Program(os.path.splitext(os.path.basename(rel))[0], [b for _, b in uses])
    out, seen = [line_directive(1, rel)], set()
    for n, line in enumerate(text.split("\n"), 1):
        m = SLOT.match(line)
        if not m:
            out.append(line + "\n")
            continue
        slot = m.group(1) or ""
        if slot in seen:
            errors.append("%s:%d: slot '%s' appears twice" % (rel, n, slot or "snippet"))
        elif slot not in by_slot:
            errors.append("%s:%d: slot '%s' is filled by no block" % (rel, n, slot or "snippet"))
        else:
            b = by_slot[slot]
            out.append(line_directive(b.line + 1, b.doc) + b.text + line_directive(n + 1, rel))
        seen.add(slot)
    for slot, b in by_slot.items():
        if slot in seen:
            continue
        if "." in slot:   # a file of its own beside the harness
            p.sources[slot] = line_directive(b.line + 1, b.doc) + b.text
        else:
            errors.append("%s: marker '%s': %s has no line /* snippet%s */"
                          % (b.where(), b.marker, rel, ": " + slot if slot else ""))
    p.sources[os.path.basename(rel)] = "".join(out).rstrip("\n") + "\n"
    return p if len(errors) == before else None


def tail(text, lines=40):
    return "\n".join(text.rstrip().split("\n")[-lines:])


def check(p, args, root, tmp):
    """Compiles and runs one program: ('ok' | 'skip' | 'fail', what to say)."""
    d = os.path.join(tmp, p.name)
    os.makedirs(d)
    for name, text in p.sources.items():
        with open(os.path.join(d, name), "w", encoding="utf-8") as f:
            f.write(text)
    mpi = any(MPI.search(t) for t in p.sources.values())
    if mpi and not args.mpicc:
        return "skip", "needs MPI (portex/mpi.h), which this build has not"
    linalg = any(LINALG.search(t) for t in p.sources.values())
    if linalg and not args.linalg_lib:
        return "skip", "needs libportex_linalg (portex/linalg.h), which this build has not"
    cc = [args.mpicc] if mpi else args.cc
    libs = ([args.mpi_lib] if mpi else []) + ([args.linalg_lib] if linalg else []) + [args.lib]
    rpath = sorted({os.path.dirname(os.path.abspath(l)) for l in libs})
    exe = os.path.join(d, p.name)
    cmd = (cc + args.cflag + ["-I" + os.path.join(root, HARNESS_DIR), "-I" + d]
           + [os.path.join(d, n) for n in sorted(p.sources) if n.endswith(".c")]
           + ["-o", exe] + libs + ["-Wl,-rpath," + r for r in rpath] + ["-lm"])
    build = subprocess.run(cmd, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if build.returncode != 0:
        return "fail", "does not compile:\n$ %s\n%s" % (" ".join(cmd), tail(build.stdout))
    run_cmd = [exe]
    if mpi:
        run_cmd = [args.mpirun, "--allow-run-as-root", "--oversubscribe", "--bind-to", "none",
                   "-np", "2", exe]
    env = dict(os.environ, PX_DEFAULT_EXEC=args.exec)
    if mpi:
        env.update(e.split("=", 1) for e in args.mpi_env)
    try:
        run = subprocess.run(run_cmd, cwd=d, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return "fail", "still running after %d s" % RUN_TIMEOUT_S
    if run.returncode == 77:
        return "skip", tail(run.stdout, 1) or "exit 77"
    if run.returncode != 0:
        return "fail", "exits %d:\n%s" % (run.returncode, tail(run.stdout))
    return "ok", ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--exec", required=True, choices=["serial", "openmp", "threads"])
    ap.add_argument("--cc", action="append", required=True)
    ap.add_argument("--cflag", action="append", default=[])
    ap.add_argument("--lib", required=True)
    ap.add_argument("--linalg-lib")
    ap.add_argument("--mpicc")
    ap.add_argument("--mpirun")
    ap.add_argument("--mpi-lib")
    ap.add_argument("--mpi-env", action="append", default=[], help="NAME=VALUE for MPI runs")
    args = ap.parse_args()
    root = os.path.abspath(args.root)

    errors = []
    docs = ["README.md"] + sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "docs", "*.md")))
    blocks = []
    for doc in docs:
        blocks += blocks_of(root, doc, errors)
    programs = plan(root, blocks, errors)

    result = {}   # block -> (status, program)
    with tempfile.TemporaryDirectory(prefix="snippets-") as tmp:
        for p in programs:
            status, why = check(p, args, root, tmp)
            names = ", ".join(b.where() for b in p.blocks)
            if status != "ok":
                print("%s: %s (%s): %s" % (status.upper(), p.name, names, why))
            for b in p.blocks:
                result[b] = status
    for e in errors:
        print("FAIL: " + e)

    print("\n%-20s %6s %6s %6s %6s" % ("PX_DEFAULT_EXEC=" + args.exec, "blocks", "ok", "skip", "fail"))
    for doc in docs:
        mine = [b for b in blocks if b.doc == doc]
        if not mine:
            continue
        count = {s: sum(1 for b in mine if result.get(b, "fail") == s) for s in ("ok", "skip", "fail")}
        print("%-20s %6d %6d %6d %6d" % (doc, len(mine), count["ok"], count["skip"], count["fail"]))
    statuses = [result.get(b, "fail") for b in blocks]
    print("%d blocks in %d programs: %d ok, %d skipped, %d failed; %d other errors"
          % (len(blocks), len(programs), statuses.count("ok"), statuses.count("skip"),
             statuses.count("fail"), len(errors)))
    if errors or "fail" in statuses:
        return 1
    return 0 if "ok" in statuses else 77


if __name__ == "__main__":
    sys.exit(main())
