#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Every message names the public function the user called, recorded once at entry
(docs/design.md, "The caller named once"):

  - every public function (PX_API in include/portex/*.h) defined in src/ starts with
    PX__ENTER; or PX__ENTER_AS(...); unless it cannot record an error (NO_ERRORS below);
  - no internal function or backend hook takes the caller's name as a parameter
    (`const char *func`): px_set_error, public, for add-on modules, and the modules above
    the library (src/mpi/, clients of the public API) excepted.

Exit 1 with what is wrong.

    check_entries.py SOURCE_ROOT
"""
import os
import re
import sys

# Public functions that record no error and call nothing that does: names and constants
# (strings, sizes, the version), the last error itself, px_set_error (its caller names
# itself), and the hooks kernels call (bounds violations, conditions), which keep their
# news for the dispatch to report.
NO_ERRORS = {
    "px_status_string", "px_status_name", "px_last_error", "px_clear_error", "px_set_error",
    "px_copy_path_string", "px_copy_path_description", "px_exec_space_string",
    "px_space_kind_string", "px_dtype_string", "px_dtype_size", "px_layout_string",
    "px_version_string", "px_is_initialized", "px__bounds_violation", "px__host_cond_set",
}
ABOVE = ("mpi", "linalg")  # src/<dir>/: libraries of their own on the public API
DECL = re.compile(r"\bPX_API\b[^;{(]*?\b(px_\w+)\s*\(")
ENTER = re.compile(r"\s*PX__ENTER(_AS\s*\(.*?\))?\s*;", re.S)
FUNC_PARAM = re.compile(r"[(,]\s*const\s+char\s*\*\s*(?:const\s+)?func\s*[,)]")


def strip_comments(text):
    return re.sub(r"/\*.*?\*/|//[^\n]*", lambda m: " " * len(m.group(0)), text, flags=re.S)


def sources(root):
    for base, dirs, files in os.walk(os.path.join(root, "src")):
        rel = os.path.relpath(base, os.path.join(root, "src"))
        if rel.split(os.sep)[0] in ABOVE:
            dirs[:] = []
            continue
        for f in sorted(files):
            if f.endswith((".c", ".h", ".cu")):
                path = os.path.join(base, f)
                with open(path, encoding="utf-8") as fh:
                    yield os.path.relpath(path, root), strip_comments(fh.read())


def body_after(text, open_paren):
    """The text after the ')' closing the '(' at open_paren, and that ')' index."""
    depth, i = 0, open_paren
    while True:
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
        if depth == 0:
            return text[i:], i


def main(root):
    public = set()
    inc = os.path.join(root, "include", "portex")
    for f in sorted(os.listdir(inc)):
        if f.endswith(".h"):
            with open(os.path.join(inc, f), encoding="utf-8") as fh:
                public.update(DECL.findall(strip_comments(fh.read())))
    files = dict(sources(root))
    errors, found = [], set()
    for path, text in files.items():
        for name in public:
            for m in re.finditer(r"(?m)^(?:PX_API\s+)?[\w \t*]*?\b%s\s*\(" % re.escape(name), text):
                rest, _ = body_after(text, m.end() - 1)
                if not rest.lstrip().startswith("{"):
                    continue  # a declaration or a call
                found.add(name)
                if name not in NO_ERRORS and not ENTER.match(rest.lstrip()[1:]):
                    errors.append("%s: %s does not start with PX__ENTER" % (path, name))
        # Functions a macro defines (name##suffix): the macro's body must enter.
        for m in re.finditer(r"(?m)^#define\s+\w+\(([^)]*)\)((?:.*\\\n)*.*)", text):
            body = m.group(2)
            for stem in re.findall(r"\b(px_\w+?)##\w+\s*\(", body):
                for name in public:
                    if name.startswith(stem) and name not in found:
                        found.add(name)
                        tail = body.split("{", 1)[1].replace("\\\n", "\n") if "{" in body else ""
                        if name not in NO_ERRORS and not ENTER.match(tail):
                            errors.append("%s: %s (macro) does not start with PX__ENTER" %
                                          (path, name))
        for m in FUNC_PARAM.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            if "px_set_error" not in text[text.rfind("\n", 0, m.start()):m.end()]:
                errors.append("%s:%d: a `const char *func` parameter: the caller's name is "
                              "recorded at entry (PX__ENTER), never passed" % (path, line))
    # Public functions defined nowhere in src/ (inline in the headers, or in the modules
    # above the library) are not the library's entries: nothing to check.
    for e in errors:
        print(e, file=sys.stderr)
    print("check_entries: %d public functions in src/, %d checked for PX__ENTER, %d problem(s)"
          % (len(found), len(found - NO_ERRORS), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
