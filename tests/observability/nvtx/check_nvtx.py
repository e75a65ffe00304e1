#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The NVTX test: runs nvtx_program with the injection library nvtx_inject and checks
what NVTX heard, which is what Nsight would show.

  check_nvtx.py --program P --inject LIB --exec serial|openmp|threads|cuda --nvtx on|off
                [--threads N]

--nvtx on (PX_NVTX=1): the "portex" domain is created once and destroyed at px_finalize;
every push has its pop; the operations' ranges carry their labels ("nvtx_for",
"nvtx_reduce", "fill 'nvtx_src' (...)", "deep_copy 'nvtx_dst' <- 'nvtx_src' (PATH)",
"px_instance_fence: 'LABEL'") inside the region "nvtx_region"; the event "nvtx_event" is
a mark after it; each kind of range has a colour of its own. With --exec cuda, the
default instance's stream is named after its label.

--nvtx off (PX_NVTX unset, then PX_NVTX=0): portex makes no NVTX call at all, so NVTX
never even loads the injection library and the log stays unwritten.

NVTX loads one injection library per process, the one NVTX_INJECTION64_PATH names. Where
that is set already, another tool holds the slot: compute-sanitizer sets it to its own
library (libsanitizer-collection.so; it also sets NV_SANITIZER_* variables) and injects
itself into every child process, so this test's library would not hear what portex calls.
The test then runs the program under that tool all the same (it must succeed: the tool
checks its GPU work, and compute-sanitizer fails a run in which no process made a CUDA
call) and skips the checks of the names, saying which tool holds the slot, rather than
fail on an empty log. Nothing sets the variable in a plain run, which checks everything
as before.

Exit 0 on success, 1 on a failure, 77 (skip) where the program skips (no GPU) or another
tool holds NVTX's injection slot."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

SKIP = 77


class Failure(Exception):
    pass


def run(args, nvtx_value, log, inject=True):
    """Runs the program; returns its key=value lines, or None where it skipped. inject
    False leaves NVTX's injection slot to the tool that holds it."""
    env = dict(os.environ)
    if inject:
        env["NVTX_INJECTION64_PATH"] = os.path.abspath(args.inject)
    env["NVTX_LOG"] = log
    env["PX_DEFAULT_EXEC"] = args.exec
    if args.threads:
        env["PX_NUM_THREADS"] = str(args.threads)
    env.pop("PX_NVTX", None)
    if nvtx_value is not None:
        env["PX_NVTX"] = nvtx_value
    # No other observer: what is checked is NVTX alone.
    for name in ("PX_TOOLS_LIBS", "KOKKOS_TOOLS_LIBS", "PX_TIMELINE"):
        env.pop(name, None)
    shown = "PX_NVTX=%s" % nvtx_value if nvtx_value is not None else "PX_NVTX unset"
    print("run: %s PX_DEFAULT_EXEC=%s %s" % (shown, args.exec, args.program))
    p = subprocess.run([args.program], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, timeout=120)
    sys.stdout.write(p.stdout)
    if p.returncode == SKIP:
        return None
    if p.returncode != 0:
        raise Failure("the program exited %d" % p.returncode)
    keys = {}
    for line in p.stdout.splitlines():
        k, eq, v = line.partition("=")
        if eq:
            keys[k] = v
    for k in ("nvtx", "instance"):
        if k not in keys:
            raise Failure("the program printed no %s=" % k)
    return keys


def read_log(log):
    if not os.path.exists(log):
        return []
    with open(log) as f:
        lines = f.read().splitlines()
    print("--- NVTX log (%d lines) ---" % len(lines))
    for line in lines:
        print("  " + line)
    return lines


class Range:
    def __init__(self, index, message, colour, depth):
        self.index = index          # the line of its push
        self.message = message
        self.colour = colour
        self.depth = depth          # ranges open around it
        self.end = None             # the line of its pop


def parse(lines):
    """The portex domain's ranges (in push order) and marks; checks the domain's lifetime
    and that pushes and pops pair up."""
    created = [i for i, l in enumerate(lines) if l == "domain_create portex"]
    destroyed = [i for i, l in enumerate(lines) if l == "domain_destroy portex"]
    if len(created) != 1:
        raise Failure("'domain_create portex' %d times, expected once" % len(created))
    if len(destroyed) != 1:
        raise Failure("'domain_destroy portex' %d times, expected once (at px_finalize)" % len(destroyed))
    first, last = created[0], destroyed[0]
    ranges, marks, stack = [], [], []
    for i, line in enumerate(lines):
        word, _, rest = line.partition(" ")
        if word in ("domain_create", "domain_destroy", "name_stream"):
            continue
        domain, _, rest = rest.partition(" ")
        if domain != "portex":
            raise Failure("line %d: a call in domain '%s', not portex: %s" % (i + 1, domain, line))
        if not first < i < last:
            raise Failure("line %d: outside the domain's lifetime: %s" % (i + 1, line))
        if word == "push":
            message, _, colour = rest.rpartition(" ")
            r = Range(i, message, colour, len(stack))
            ranges.append(r)
            stack.append(r)
        elif word == "pop":
            if not stack:
                raise Failure("line %d: a pop with no range open" % (i + 1))
            stack.pop().end = i
        elif word == "mark":
            message, _, _ = rest.rpartition(" ")
            marks.append((i, message))
        else:
            raise Failure("line %d: unknown call: %s" % (i + 1, line))
    if stack:
        raise Failure("%d ranges never popped: %s" % (len(stack), ", ".join(r.message for r in stack)))
    return ranges, marks


def find(ranges, pattern, after, what):
    """The first range after line `after` whose message matches `pattern` in full."""
    for r in ranges:
        if r.index > after and re.fullmatch(pattern, r.message):
            return r
    raise Failure("no range for %s (a push matching %r after line %d)" % (what, pattern, after + 1))


def check_on(keys, lines, args):
    if keys["nvtx"] != "1":
        raise Failure("px_tools_info_get says NVTX is off with PX_NVTX=1")
    if "copy_path" not in keys:
        raise Failure("the program printed no copy_path=")
    ranges, marks = parse(lines)
    inst = keys["instance"]
    fill = find(ranges, r"fill 'nvtx_src' \(.+\)", -1, "px_fill of nvtx_src")
    region = find(ranges, re.escape("nvtx_region"), fill.index, "the region")
    inside = [
        find(ranges, re.escape("nvtx_for"), region.index, "parallel_for 'nvtx_for'"),
        find(ranges, re.escape("nvtx_reduce"), region.index, "parallel_reduce 'nvtx_reduce'"),
        find(ranges, re.escape("deep_copy 'nvtx_dst' <- 'nvtx_src' (%s)" % keys["copy_path"]), region.index,
             "px_deep_copy"),
        find(ranges, re.escape("px_instance_fence: '%s'" % inst), region.index, "px_instance_fence"),
    ]
    for a, b in zip(inside, inside[1:]):
        if not a.index < b.index:
            raise Failure("'%s' comes after '%s': the program calls them the other way round" % (a.message, b.message))
    for r in inside:
        if not (region.index < r.index and r.end < region.end and r.depth > region.depth):
            raise Failure("'%s' is not inside the region 'nvtx_region'" % r.message)
    event = [i for i, m in marks if m == "nvtx_event"]
    if len(event) != 1:
        raise Failure("mark 'nvtx_event' %d times, expected once" % len(event))
    if event[0] < region.end:
        raise Failure("the mark 'nvtx_event' comes before the region closes")
    # Colours: ARGB on every range; one per kind, the kinds told apart.
    for r in ranges:
        if not re.fullmatch(r"[0-9a-f]{8}", r.colour):
            raise Failure("'%s' has no ARGB colour (%s)" % (r.message, r.colour))
    kernel, reduce, copy, fence = inside
    if kernel.colour != reduce.colour:
        raise Failure("the two kernels have different colours: %s, %s" % (kernel.colour, reduce.colour))
    if fill.colour != copy.colour:
        raise Failure("the fill and the copy have different colours: %s, %s" % (fill.colour, copy.colour))
    kinds = {"kernel": kernel.colour, "copy": copy.colour, "fence": fence.colour, "region": region.colour}
    if len(set(kinds.values())) != len(kinds):
        raise Failure("kinds share a colour: %s" % kinds)
    streams = [l[len("name_stream "):] for l in lines if l.startswith("name_stream ")]
    if args.exec == "cuda" and inst not in streams:
        raise Failure("the default instance's stream is not named '%s' (names: %s)" % (inst, streams))
    print("ok: %d ranges, all paired; labels, nesting, mark and colours as expected%s"
          % (len(ranges), "; stream named '%s'" % inst if args.exec == "cuda" else ""))


def check_off(keys, lines, how):
    if keys["nvtx"] != "0":
        raise Failure("px_tools_info_get says NVTX is on with %s" % how)
    if lines:
        raise Failure("with %s portex made NVTX calls (%d lines in the log)" % (how, len(lines)))
    print("ok: with %s, no NVTX call (the injection library was never loaded)" % how)


def injection_taken():
    """Why NVTX's injection slot belongs to another tool in this process tree, or None."""
    taken = os.environ.get("NVTX_INJECTION64_PATH")
    if not taken:
        return None
    who = ("compute-sanitizer" if any(k.startswith("NV_SANITIZER_") for k in os.environ)
           else "another tool (a profiler?)")
    return ("NVTX_INJECTION64_PATH is set already (%s): %s holds NVTX's one injection slot, and "
            "this test's library would hear nothing (run the test without that tool to check them)"
            % (taken, who))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--program", required=True)
    ap.add_argument("--inject", required=True)
    ap.add_argument("--exec", required=True, choices=["serial", "openmp", "threads", "cuda"])
    ap.add_argument("--nvtx", required=True, choices=["on", "off"])
    ap.add_argument("--threads", type=int)
    args = ap.parse_args()
    taken = injection_taken()
    try:
        with tempfile.TemporaryDirectory(prefix="px-nvtx-") as tmp:
            runs = [("1", "PX_NVTX=1")] if args.nvtx == "on" else [(None, "PX_NVTX unset"), ("0", "PX_NVTX=0")]
            for n, (value, how) in enumerate(runs):
                log = os.path.join(tmp, "nvtx-%d.log" % n)
                keys = run(args, value, log, inject=not taken)
                if keys is None:
                    print("SKIP: the program skipped")
                    return SKIP
                if taken:
                    continue
                lines = read_log(log)
                if args.nvtx == "on":
                    check_on(keys, lines, args)
                else:
                    check_off(keys, lines, how)
    except Failure as e:
        print("FAIL: %s" % e)
        return 1
    except subprocess.TimeoutExpired:
        print("FAIL: the program ran past 120 s")
        return 1
    if taken:
        print("SKIP: the program ran, but its NVTX names were not checked: %s" % taken)
        return SKIP
    return 0


if __name__ == "__main__":
    sys.exit(main())
