#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Draws the cost curve that bench_kernels_cuda --csv DIR writes (DIR/cuda_cost_curve.csv):
throughput against size for the triad and the dot product, portex beside the raw CUDA and
CUB baselines, and portex's ratio to the better baseline below.

    scripts/plot/cost_curve_plot.py CSV|DIR [PNG]

DIR stands for DIR/cuda_cost_curve.csv. PNG defaults to docs/results/cuda_cost_curve.png in
the source tree. Needs matplotlib."""
import os
import sys

import curves

import matplotlib

matplotlib.use("Agg")  # no display on the GPU machine
import matplotlib.pyplot as plt  # noqa: E402

# Variant -> (label, style). The raw baselines are drawn dashed, portex solid.
STYLE = {
    "raw_flat": ("raw: one thread per element", "C0", "--"),
    "raw_gridstride": ("raw: grid-stride, one wave", "C2", "--"),
    "raw_cub": ("raw: CUB TransformReduce", "C0", "--"),
    "portex": ("portex PX_FOR", "C3", "-"),
    "portex_view": ("portex PX_REDUCE into a view", "C3", "-"),
}
CASES = [("triad", "triad a = b + s*c (3 arrays of doubles)", ["raw_flat", "raw_gridstride"]),
         ("dot", "dot x . y (2 arrays of doubles)", ["raw_cub"])]


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit(__doc__)
    here = os.path.dirname(os.path.abspath(__file__))
    png = argv[2] if len(argv) == 3 else os.path.join(here, "..", "..", "docs", "results",
                                                      "cuda_cost_curve.png")
    src = argv[1]
    if os.path.isdir(src):
        src = os.path.join(src, "cuda_cost_curve.csv")
    data, note = curves.read(src, "n")

    fig, axes = plt.subplots(2, len(CASES), figsize=(12, 7.5), sharex=True,
                             gridspec_kw={"height_ratios": [3, 1]}, squeeze=False)
    for col, (case, title, raws) in enumerate(CASES):
        variants = data.get(case, {})
        top, bottom = axes[0][col], axes[1][col]
        curves.draw(top, variants, STYLE, ".")
        # portex over the better baseline at each size (>= 1: as fast or faster).
        px = dict(variants.get("portex" if case == "triad" else "portex_view", []))
        best = {}
        for v in raws:
            for n, b in variants.get(v, []):
                best[n] = max(best.get(n, 0.0), b)
        ns = sorted(n for n in px if n in best and best[n] > 0)
        bottom.plot(ns, [px[n] / best[n] for n in ns], "-", color="C3", marker=".")
        bottom.axhline(1.0, color="grey", lw=0.8)
        top.set_title(title)
        top.set_ylabel("GB/s")
        top.grid(True, which="both", alpha=0.3)
        top.legend(fontsize="small")
        bottom.set_ylabel("portex / best raw")
        bottom.set_xlabel("elements")
        bottom.grid(True, alpha=0.3)
        for ax in (top, bottom):
            ax.set_xscale("log", base=2)
        top.set_yscale("log")
    fig.suptitle("portex cost curve" + (f"\n{note}" if note else ""), fontsize="medium")
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    print(f"written: {png}")


if __name__ == "__main__":
    main(sys.argv)
