#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The shared library loads with dlopen into a process that was not linked with it (Python
through ctypes, docs/interop.md) and answers a call. A thread-local variable of the
initial-exec model anywhere in it would make the C library put the library's whole
thread-local block (the last error's 1 KiB among it) in its small static reserve, and the
load would fail ("cannot allocate memory in static TLS block").

    check_dlopen.py LIBPORTEX_SO
"""
import ctypes
import sys


def main(path):
    lib = ctypes.CDLL(path)
    v = [ctypes.c_int(-1) for _ in range(3)]
    st = lib.px_version(*(ctypes.byref(x) for x in v))
    if st != 0 or v[0].value < 0:
        print("px_version returned %d (%s)" % (st, [x.value for x in v]), file=sys.stderr)
        return 1
    print("check_dlopen: %s loaded, version %d.%d.%d" % (path, v[0].value, v[1].value, v[2].value))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
