#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The library's include-and-call graph has no circle, and no arrow goes up a layer; nor
does the include graph of the tree's folders.

Layers of the library (docs/design.md), each using only itself and those below it:
    graphs > runtime > spaces > observability > backends > base
Nodes are modules: a .c file with the .h of the same name. Edges: an #include of a module's
header, and a call of (or reference to) a function defined in another module, read from
the static library's symbol table with nm. Exit 1 with the offending edges and circles.

Inside backends/: a backend's folder (backends/<name>/) uses itself, the host backends'
shared code (backends/host/), the interface (backend.h) and its door to base/
(services.h), never another backend's folder nor the list of tables (backends.c, above
every backend). backends/ includes base/ only through services.h, and calls only the
parts of base/ that services.h includes (public functions aside: the public headers give
those).

Modules above the library (src/mpi/: libportex_mpi, src/linalg/: libportex_linalg, each a
library of its own) use portex's public headers only: an include of anything in src/ from
them, or of them from the library, fails, and so does a library file that includes
<mpi.h>, "portex/mpi.h" or "portex/linalg.h" (the library never depends on them).

Public headers (include/) name nothing that a header of src/ declares: no internal type,
function or macro of the library (a px__ or PX__ name a public header uses is its own).

Folders of the tree (FOLDERS): an include may go to a folder of a lower tier, or stay in
its own family (tests/runtime -> tests/support); src/ is the library's own, reached from
no other folder (tests and programs use portex as programs do). The graph is printed.

    check_layers.py SRC_DIR STATIC_LIBRARY      (the tree is SRC_DIR's parent)
"""
import collections
import os
import re
import subprocess
import sys

LAYERS = {"graphs": 5, "runtime": 4, "spaces": 3, "observability": 2, "backends": 1, "base": 0}
# Libraries of their own built on the public API (src/<dir>/), never part of libportex.
ABOVE = {"mpi", "linalg"}
MODULE_HEADERS = re.compile(
    r'^\s*#\s*include\s+[<"](mpi\.h|mpi-ext\.h|portex/mpi\.h|portex/linalg\.h)[>"]', re.M)
# backends/: what every backend may use beside its own folder.
BACKEND_SHARED = {"backends/backend.h", "backends/services.h"}
BACKEND_COMMON = "host"  # the host backends' shared code: loops, teams, graphs, places
SERVICES = "backends/services.h"

# The tree's folders: tier (an include goes down a tier, or stays in its family) and the
# directories its files find includes in, besides their own.
FOLDERS = {
    "include": (0, ["include"]),
    "src": (1, ["src", "include"]),
    "common": (1, ["include"]),
    "examples": (2, ["examples", "include"]),
    "tests": (3, ["tests/support", "tests/kernels", "common", "include"]),
    "bench": (3, ["bench", "bench/cuda", "common", "examples", "include"]),
    "docs": (3, ["docs/snippets", "examples", "include"]),
    "scripts": (3, ["include"]),
}
PRIVATE_FAMILIES = {"src"}  # included from their own family only


def module_of(path):
    """'backends/cuda/copy/copy.c' -> 'backends/cuda/copy/copy'."""
    return os.path.splitext(path)[0]


def top(module):
    return module.split("/")[0]


def layer_of(module):
    return LAYERS[top(module)]


def backend_of(module):
    """'backends/cuda/queue/queue' -> 'cuda'; None for backends/backend.h and the like."""
    parts = module.split("/")
    return parts[1] if parts[0] == "backends" and len(parts) > 2 else None


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
                problems.append(f"{path} includes {header}: the library never depends on MPI "
                                "or on the modules above it")
    return problems


def include_edges(src):
    return {(module_of(path), module_of(target))
            for path, text in sources(src) for target in local_includes(src, text)}


def file_includes(src):
    return {(path, target) for path, text in sources(src) for target in local_includes(src, text)}


def call_edges(library):
    """Edges from the object that uses a symbol to the object that defines it."""
    out = subprocess.run(["nm", "-A", "-P", library], check=True, capture_output=True, text=True).stdout
    defined, used = {}, collections.defaultdict(set)
    for line in out.splitlines():
        # "lib.a[runtime_copy.c.o]: px_deep_copy T 0000 0010" or "lib.a:runtime_copy.c.o: ..."
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
                edges.add((obj, defined[sym], sym))
    return edges


def mpi_symbols(library):
    """MPI symbols the library uses: there must be none."""
    out = subprocess.run(["nm", "-u", library], check=True, capture_output=True, text=True).stdout
    return sorted({line.split()[-1] for line in out.splitlines()
                   if line.strip() and re.match(r"P?MPIX?_|ompi_", line.split()[-1])})


def object_module(obj, modules):
    """'backends_cuda_copy_copy.c.o' -> the module whose path flattens to it. A kernel file
    compiled from its CUDA copy (src/meson.build names the copy after its path) gives
    'meson-generated_.._graphs_cond_kernel.c.cu.o'."""
    stem = re.sub(r"\.(c|cu)(\.cu)?\.o$", "", obj)
    stem = re.sub(r"^meson-generated_(\.\._)*", "", stem)
    for m in modules:
        if m.replace("/", "_") == stem:
            return m
    return None


def backend_problems(src, edges):
    """The rules inside backends/ (module docstring), on module edges (a, b, why)."""
    problems = []
    services = {module_of(t) for t in local_includes(src, open(os.path.join(src, SERVICES)).read())}
    for a, b, why in sorted(edges):
        if top(a) != "backends":
            continue
        ba, bb = backend_of(a), backend_of(b)
        if top(b) == "backends" and ba is not None:
            if bb is None and b + ".h" not in BACKEND_SHARED:
                problems.append(f"{why}: a backend uses the list of backends (backends.c is above them)")
            elif bb is not None and bb not in (ba, BACKEND_COMMON):
                problems.append(f"{why}: backends/{ba}/ uses backends/{bb}/ (a backend uses its own "
                                f"folder and backends/{BACKEND_COMMON}/ only)")
        if top(b) == "base" and why.startswith("include") and a != module_of(SERVICES):
            problems.append(f"{why}: backends/ includes base/ through {SERVICES} only")
        # Public functions (px_copy_path_string) are the public headers' to give.
        if top(b) == "base" and why.startswith("call") and "(px__" in why and b not in services:
            problems.append(f"{why}: {SERVICES} does not give backends {b}")
    return problems


# What a public header declares: a macro, a type, an enumerator or an exported function.
PUBLIC_DECLS = [
    re.compile(r"#\s*define\s+((?:px|PX)__\w+)"),
    re.compile(r"\b(?:struct|enum|union)\s+((?:px|PX)__\w+)"),
    re.compile(r"}\s*((?:px|PX)__\w+)\s*;"),
    re.compile(r"typedef[^;{]*?\(?\s*\*?\s*((?:px|PX)__\w+)\)?\s*(?:;|\()"),
    re.compile(r"^\s*((?:px|PX)__\w+)\s*(?:=[^,\n]*)?,", re.M),
    re.compile(r"PX_API[^;{]*?\b((?:px|PX)__\w+)\s*\("),
]


def without_comments(text):
    return re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)


def public_header_problems(root, src):
    """px__/PX__ names that a public header uses and a header of src/ declares: names in
    src/'s headers (comments aside) that no public header declares itself. The kernel ABI
    (include/portex/impl/abi.h) is the public headers' own: the library defines it, under
    the names those headers declare."""
    include = os.path.join(root, "include")
    public = set()
    for dirpath, _, files in os.walk(include):
        for name in files:
            if name.endswith((".h", ".h.in")):
                with open(os.path.join(dirpath, name), encoding="utf-8") as f:
                    text = without_comments(f.read())
                for pattern in PUBLIC_DECLS:
                    public.update(pattern.findall(text))
    internal = collections.defaultdict(set)
    for path, text in sources(src):
        if path.endswith(".h"):
            for name in re.findall(r"\b((?:px|PX)__\w+)\b", without_comments(text)):
                if name not in public:
                    internal[name].add(path)
    problems = []
    for dirpath, _, files in os.walk(include):
        for name in sorted(files):
            if not name.endswith((".h", ".h.in")):
                continue
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8") as f:
                used = set(re.findall(r"\b((?:px|PX)__\w+)\b", f.read()))
            for ident in sorted(used & internal.keys()):
                where = ", ".join(sorted(internal[ident]))
                problems.append(f"{os.path.relpath(path, root)} names {ident}, the library's own "
                                f"(src/{where}): public headers expose no internal name")
    return problems


def folder_of(rel):
    """The folder a file of the tree belongs to, as the folder graph shows it."""
    parts = rel.split("/")
    if parts[0] in ("src", "tests", "bench", "scripts", "docs") and len(parts) > 2:
        return "/".join(parts[:2])
    return parts[0]


def folder_edges(root):
    """{(folder, folder): [why]} of every include in the tree's source files."""
    edges = collections.defaultdict(list)
    for family, (_, search) in FOLDERS.items():
        base = os.path.join(root, family)
        for dirpath, _, files in os.walk(base):
            if "downstream" in os.path.relpath(dirpath, root).split(os.sep):
                continue  # tests/downstream: projects of their own, against an installed portex
            for name in files:
                if not name.endswith((".c", ".h", ".cu", ".cpp", ".cuh")):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, name), root)
                with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
                    text = f.read()
                for target in re.findall(r'^\s*#\s*include\s+[<"]([^">]+)[">]', text, re.M):
                    for d in [os.path.dirname(rel)] + search:
                        cand = os.path.normpath(os.path.join(d, target))
                        if os.path.isfile(os.path.join(root, cand)):
                            a, b = folder_of(rel), folder_of(cand)
                            if a != b:
                                edges[(a, b)].append(f"{rel} includes {cand}")
                            break
    return edges


def folder_problems(edges):
    problems = []
    for (a, b), why in sorted(edges.items()):
        fa, fb = a.split("/")[0], b.split("/")[0]
        if fa == fb and fa not in ("src",):
            continue  # within a family: tests/runtime -> tests/support
        if fb in PRIVATE_FAMILIES and fa != fb:
            problems.append(f"{why[0]}: {b} is the library's own; {a} uses the public headers")
        elif fa == fb:
            continue  # src/<module> -> src/<module>: the library's layers say
        elif FOLDERS[fb][0] >= FOLDERS[fa][0]:
            problems.append(f"{why[0]} (and {len(why) - 1} more): {a} (tier {FOLDERS[fa][0]}) "
                            f"includes {b} (tier {FOLDERS[fb][0]}), up or sideways")
    return problems


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
    src, library = os.path.abspath(sys.argv[1]), sys.argv[2]
    root = os.path.dirname(src)
    bad = False

    def fail(problem):
        nonlocal bad
        print(problem)
        bad = True

    for problem in above_problems(src):
        fail(problem)
    for sym in mpi_symbols(library):
        fail(f"the library uses {sym}: it never depends on MPI")
    for problem in public_header_problems(root, src):
        fail(problem)

    # The library's module graph (the modules above it are checked above).
    edges = {}
    for path, target in file_includes(src):
        a, b = module_of(path), module_of(target)
        if a != b and top(a) in LAYERS and top(b) in LAYERS:
            edges.setdefault((a, b), f"include {path} -> {target}")
    modules = {m for e in edges for m in e}
    for dirpath, _, files in os.walk(src):
        for name in files:
            if name.endswith((".c", ".cu")) and top(os.path.relpath(dirpath, src)) in LAYERS:
                modules.add(module_of(os.path.relpath(os.path.join(dirpath, name), src)))
    for a, b, sym in sorted(call_edges(library)):
        ma, mb = object_module(a, modules), object_module(b, modules)
        if ma and mb and ma != mb:
            edges.setdefault((ma, mb), f"call {ma} -> {mb} ({sym})")
    for (a, b), why in sorted(edges.items()):
        if layer_of(b) > layer_of(a):
            fail(f"up a layer: {a} -> {b} ({why})")
    for problem in backend_problems(src, {(a, b, why) for (a, b), why in edges.items()}):
        fail(problem)
    for comp in circles(modules, set(edges)):
        fail("circle: " + " <-> ".join(comp))

    # The tree's folders.
    fedges = folder_edges(root)
    print("folder graph (includes): " + ", ".join(f"{a} -> {b} ({len(w)})"
                                                   for (a, b), w in sorted(fedges.items())))
    for problem in folder_problems(fedges):
        fail(problem)

    print(f"{len(modules)} modules, {len(edges)} edges, {len(fedges)} folder edges: "
          + ("FAILED" if bad else "no circle, no arrow up"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
