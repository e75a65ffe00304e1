#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Draws a backend's cost curve: throughput against size for each kernel kind the CSV has
(the triad: for; the dot product: reduce; the inclusive scan: scan), portex beside its
baselines, and portex's ratio to the better baseline below. The CSVs come from
bench_kernels_cuda --csv DIR (DIR/cuda_cost_curve.csv: raw CUDA and CUB) and
bench_host_curve --backend B --csv DIR (DIR/B_cost_curve.csv: plain C or plain OpenMP).

    scripts/plot/cost_curve_plot.py CSV|DIR [PNG]     one curve
    scripts/plot/cost_curve_plot.py --all DIR         every DIR/*_cost_curve.csv, each to
                                                      docs/results/<name>.png

DIR alone stands for DIR/cuda_cost_curve.csv. PNG defaults to docs/results/<name of the
CSV>.png in the source tree. Needs matplotlib."""
import os
import sys

import curves

import matplotlib

matplotlib.use("Agg")  # no display on the GPU machine
import matplotlib.pyplot as plt  # noqa: E402

# Variant -> (label, style). The baselines are drawn dashed, portex solid.
STYLE = {
    "raw_flat": ("raw: one thread per element", "C0", "--"),
    "raw_gridstride": ("raw: grid-stride, one wave", "C2", "--"),
    "raw_cub": ("raw: CUB", "C0", "--"),
    "plain": ("plain loop", "C0", "--"),
    "portex": ("portex", "C3", "-"),
    "portex_view": ("portex (into a view)", "C3", "-"),
}
# Kind -> title, in the order drawn.
TITLES = {"triad": "for: triad a = b + s*c (doubles)",
          "dot": "reduce: dot x . y (doubles)",
          "scan": "scan: inclusive, int64"}


def plot(src, png):
    data, note = curves.read(src, "n")
    cases = [c for c in TITLES if c in data] + [c for c in data if c not in TITLES]
    fig, axes = plt.subplots(2, len(cases), figsize=(5.5 * len(cases), 7.5), sharex=True,
                             gridspec_kw={"height_ratios": [3, 1]}, squeeze=False)
    for col, case in enumerate(cases):
        variants = data[case]
        top, bottom = axes[0][col], axes[1][col]
        curves.draw(top, variants, STYLE, ".")
        # portex over the better baseline at each size (>= 1: as fast or faster).
        pname = next(v for v in variants if v.startswith("portex"))
        px = dict(variants[pname])
        best = {}
        for v, pts in variants.items():
            if not v.startswith("portex"):
                for n, b in pts:
                    best[n] = max(best.get(n, 0.0), b)
        ns = sorted(n for n in px if n in best and best[n] > 0)
        bottom.plot(ns, [px[n] / best[n] for n in ns], "-", color="C3", marker=".")
        bottom.axhline(1.0, color="grey", lw=0.8)
        top.set_title(TITLES.get(case, case))
        top.set_ylabel("GB/s")
        top.grid(True, which="both", alpha=0.3)
        top.legend(fontsize="small")
        bottom.set_ylabel("portex / best baseline")
        bottom.set_xlabel("elements")
        bottom.grid(True, alpha=0.3)
        for ax in (top, bottom):
            ax.set_xscale("log", base=2)
        top.set_yscale("log")
    fig.suptitle("portex cost curve" + (f"\n{note}" if note else ""), fontsize="medium")
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    print(f"written: {png}")


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    results = os.path.join(here, "..", "..", "docs", "results")
    if len(argv) == 3 and argv[1] == "--all":
        for name in sorted(os.listdir(argv[2])):
            if name.endswith("_cost_curve.csv"):
                plot(os.path.join(argv[2], name),
                     os.path.join(results, name[:-len(".csv")] + ".png"))
        return
    if len(argv) not in (2, 3):
        sys.exit(__doc__)
    src = argv[1]
    if os.path.isdir(src):
        src = os.path.join(src, "cuda_cost_curve.csv")
    png = argv[2] if len(argv) == 3 else os.path.join(
        results, os.path.basename(src)[:-len(".csv")] + ".png")
    plot(src, png)


if __name__ == "__main__":
    main(sys.argv)
