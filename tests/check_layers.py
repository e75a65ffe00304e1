#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The library's include-and-call graph has no circle, and no arrow goes up a layer.

Layers (docs/design.md), each using only itself and those below it:
    core > spaces > backends > base
Modules above the library (src/mpi/: libportex_mpi, a library of its own) use portex's
public headers only: an include of anything in src/ from them, or of them from the
library, fails, and so does a library file that includes <mpi.h> or "portex/mpi.h" (the
library never depends on MPI).
Nodes are modules: a .c file with the .h of the same name. Edges: an #include of a module's
header, and a call of (or reference to) a function defined in another module, read from
the static library's symbol table with nm. Exit 1 with the offending edges and circles.
The tests (TESTS_DIR, when given) use portex as programs do: an include that names a file
of src/ fails (a test that needs an internal hook declares it itself, and says why).

    check_layers.py SRC_DIR STATIC_LIBRARY [TESTS_DIR]
"""
import collections
import os
import re
import subprocess
import sys

LAYERS = {"core": 3, "spaces": 2, "backends": 1, "base": 0}
# Libraries of their own built on the public API (src/<dir>/), never part of libportex.
ABOVE = {"mpi"}
MODULE_HEADERS = re.compile(r'^\s*#\s*include\s+[<"](mpi\.h|mpi-ext\.h|portex/mpi\.h)[>"]', re.M)


def module_of(path):
    """'backends/cuda/cuda_copy.c' -> 'backends/cuda/cuda_copy'."""
    return os.path.splitext(path)[0]


def top(module):
    return module.split("/")[0]


def layer_of(module):
    return LAYERS[top(module)]


def sources(src):
    """(path relative to src, text) of every C, CUDA and header file below src."""
    for root, _, files in os.walk(src):
        for name in files:
            if name.endswith((".c", ".h", ".cu")):
                path = os.path.relpath(os.path.join(root, name), src)
                with open(os.path.join(src, path), encoding="utf-8") as f:
                    yield path, f.read()


def local_includes(src, text):
    """The files of src that text includes ("..." includes that name one)."""
    return [t for t in re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.M)
            if os.path.exists(os.path.join(src, t))]


def test_problems(src, tests):
    """Includes of the tests that reach into src/, relative to the including file or to
    one of the tests' include directories (support/, kernels/)."""
    problems = []
    for path, text in sources(tests):
        where = [os.path.dirname(os.path.join(tests, path)), os.path.join(tests, "support"),
                 os.path.join(tests, "kernels")]
        for target in re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.M):
            for d in where:
                full = os.path.realpath(os.path.join(d, target))
                if os.path.exists(full) and full.startswith(os.path.realpath(src) + os.sep):
                    problems.append(f"tests/{path} includes {target}: tests use portex's public headers")
                    break
    return problems


def above_problems(src):
    """What breaks the rule for the modules above the library (ABOVE)."""
    problems = []
    for path, text in sources(src):
        if top(path) in ABOVE:
            for target in local_includes(src, text):
                if top(target) != top(path):
                    problems.append(f"{path} includes {target}: {top(path)}/ uses portex's public headers only")
        elif top(path) in LAYERS:
            for header in MODULE_HEADERS.findall(text):
                problems.append(f"{path} includes {header}: the library never depends on MPI")
    return problems


def include_edges(src):
    return {(module_of(path), module_of(target))
            for path, text in sources(src) for target in local_includes(src, text)}


def call_edges(library):
    """Edges from the object that uses a symbol to the object that defines it."""
    out = subprocess.run(["nm", "-A", "-P", library], check=True, capture_output=True, text=True).stdout
    defined, used = {}, collections.defaultdict(set)
    for line in out.splitlines():
        # "lib.a[core_copy.c.o]: px_deep_copy T 0000 0010" or "lib.a:core_copy.c.o: ..."
        m = re.match(r"^[^\[:]+(?:\[([^\]]+)\]|:([^:]+)):\s+(\S+)\s+(\S)", line)
        if not m:
            continue
        obj, sym, kind = m.group(1) or m.group(2), m.group(3), m.group(4)
        if kind == "U":
            used[obj].add(sym)
        elif kind in "TDBRtdbr":
            defined[sym] = obj
    edges = set()
    for obj, syms in used.items():
        for sym in syms:
            if sym in defined and defined[sym] != obj:
                edges.add((obj, defined[sym]))
    return edges


def mpi_symbols(library):
    """MPI symbols the library uses: there must be none."""
    out = subprocess.run(["nm", "-u", library], check=True, capture_output=True, text=True).stdout
    return sorted({line.split()[-1] for line in out.splitlines()
                   if line.strip() and re.match(r"P?MPIX?_|ompi_", line.split()[-1])})


def object_module(obj, modules):
    """'backends_cuda_cuda_copy.c.o' -> the module whose path flattens to it."""
    stem = re.sub(r"\.(c|cu)\.o$", "", obj)
    for m in modules:
        if m.replace("/", "_") == stem:
            return m
    return None


def circles(nodes, edges):
    """Strongly connected components with more than one node (Tarjan)."""
    graph = collections.defaultdict(set)
    for a, b in edges:
        graph[a].add(b)
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return found


def main():
    src, library = sys.argv[1], sys.argv[2]
    bad = False
    for problem in above_problems(src):
        print(problem)
        bad = True
    for problem in test_problems(src, sys.argv[3]) if len(sys.argv) > 3 else []:
        print(problem)
        bad = True
    for sym in mpi_symbols(library):
        print(f"the library uses {sym}: it never depends on MPI")
        bad = True
    # The modules above the library are checked above; the graph is the library's.
    edges = {(a, b) for a, b in include_edges(src) if a != b and top(a) in LAYERS and top(b) in LAYERS}
    modules = {m for e in edges for m in e}
    for root, _, files in os.walk(src):
        for name in files:
            if name.endswith((".c", ".cu")) and top(os.path.relpath(root, src)) in LAYERS:
                modules.add(module_of(os.path.relpath(os.path.join(root, name), src)))
    for a, b in call_edges(library):
        ma, mb = object_module(a, modules), object_module(b, modules)
        if ma and mb and ma != mb:
            edges.add((ma, mb))
    for a, b in sorted(edges):
        if layer_of(b) > layer_of(a):
            print(f"up a layer: {a} -> {b}")
            bad = True
    for comp in circles(modules, edges):
        print("circle: " + " <-> ".join(comp))
        bad = True
    print(f"{len(modules)} modules, {len(edges)} edges: " + ("FAILED" if bad else "no circle, no arrow up"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
