#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Draws the scaling curve that bench_openmp --csv FILE writes: GB/s against threads for
the STREAM triad and the 2-D stencil, portex beside the plain OpenMP loops, and portex's
throughput over plain's below.

    scripts/plot/openmp_scaling_plot.py CSV [PNG]

PNG defaults to CSV with .png for .csv. Needs matplotlib; without it, says so and exits
with status 0 (nothing drawn)."""
import os
import sys

import curves

try:
    import matplotlib

    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt
except ImportError:
    plt = None

# Variant -> (label, colour, line style). The plain loops dashed, portex solid.
STYLE = {
    "plain": ("plain OpenMP (parallel for, static)", "C0", "--"),
    "portex": ("portex (OpenMP backend)", "C3", "-"),
}
CASES = [("triad", "triad a = b + s*c (3 arrays of doubles; 24 B per element)"),
         ("stencil2d", "5-point stencil, 2-D grid of doubles (16 B per point)")]


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit(__doc__)
    if plt is None:
        print("openmp_scaling_plot.py: matplotlib is not installed; nothing drawn")
        return
    src = argv[1]
    png = argv[2] if len(argv) == 3 else os.path.splitext(src)[0] + ".png"
    data, note = curves.read(src, "threads")

    fig, axes = plt.subplots(2, len(CASES), figsize=(11, 7), sharex=True,
                             gridspec_kw={"height_ratios": [3, 1]}, squeeze=False)
    for col, (case, title) in enumerate(CASES):
        variants = data.get(case, {})
        top, bottom = axes[0][col], axes[1][col]
        curves.draw(top, variants, STYLE, "o")
        # portex's throughput over plain's at each thread count (>= 1: as fast or faster).
        px, plain = dict(variants.get("portex", [])), dict(variants.get("plain", []))
        ts = sorted(t for t in px if plain.get(t, 0) > 0)
        bottom.plot(ts, [px[t] / plain[t] for t in ts], "-", color="C3", marker="o")
        bottom.axhline(1.0, color="grey", lw=0.8)
        bottom.axhline(0.95, color="grey", lw=0.8, ls=":")  # the target
        top.set_title(title, fontsize="medium")
        top.set_ylabel("GB/s")
        top.set_ylim(bottom=0)
        top.grid(True, alpha=0.3)
        top.legend(fontsize="small")
        bottom.set_ylabel("throughput,\nportex / plain")
        bottom.set_xlabel("threads")
        bottom.grid(True, alpha=0.3)
        for ax in (top, bottom):
            ax.set_xscale("log", base=2)
            ax.set_xticks(ts)
            ax.set_xticklabels([str(t) for t in ts])
    fig.suptitle("portex OpenMP backend: scaling" + (f"\n{note}" if note else ""),
                 fontsize="medium")
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    print(f"written: {png}")


if __name__ == "__main__":
    main(sys.argv)
