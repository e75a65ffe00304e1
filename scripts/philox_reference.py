#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Prints the Philox4x32-10 reference values tests/runtime/test_random.c checks portex
against, from an implementation that is not portex's: randomgen's Philox (PyPI
`randomgen`, by NumPy's random-module author; NumPy's own Philox is the 4x64 variant).

    python3 -m pip install randomgen && scripts/philox_reference.py

randomgen advances its counter before it computes a block, so the block of counter C is
the first one a generator set to C - 1 gives. A portex stream (seed, subsequence, offset)
starts at the block of counter subsequence * 2^64 + offset // 4, output offset % 4."""
from randomgen import Philox


def block(ctr, key):
    c = sum(w << (32 * i) for i, w in enumerate(ctr))
    g = Philox(key=key[0] | key[1] << 32, counter=(c - 1) % 2**128, number=4, width=32)
    return [int(x) for x in g.random_raw(4)]


def stream(seed, subsequence, offset, count):
    c = (subsequence << 64) + (offset >> 2)
    g = Philox(key=seed, counter=(c - 1) % 2**128, number=4, width=32)
    xs = [int(x) for x in g.random_raw((offset & 3) + count)]
    return xs[offset & 3:]


def show(name, words):
    print(f"{name}: " + ", ".join(f"0x{w:08x}u" for w in words))


show("block ctr 0 key 0", block([0] * 4, [0, 0]))
show("block ctr ~0 key ~0", block([0xFFFFFFFF] * 4, [0xFFFFFFFF] * 2))
show("block pi", block([0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344], [0xA4093822, 0x299F31D0]))
show("block carry", block([0, 0, 6, 0], [1, 2]))
show("stream 0x0123456789abcdef 7 5", stream(0x0123456789ABCDEF, 7, 5, 12))
show("stream 0xfeedface 2^64-1 2^64-3", stream(0xFEEDFACE, 2**64 - 1, 2**64 - 3, 8))
