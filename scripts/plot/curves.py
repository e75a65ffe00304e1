# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What the benchmarks' curve plots share (cost_curve_plot.py, openmp_scaling_plot.py):
reading the CSV a benchmark writes with --csv, and drawing its variants.

The CSV has the columns case, variant, the x column (a size or a thread count) and
gb_per_s, after '#' comment lines saying where it was measured."""
import csv


def read(path, x):
    """{case: {variant: [(x, gb_per_s)]}}, each curve sorted by x, and the last comment."""
    data, note = {}, ""
    with open(path, newline="") as f:
        lines = []
        for line in f:
            if line.startswith("#"):
                note = line.lstrip("# ").strip()
            else:
                lines.append(line)
    for r in csv.DictReader(lines):
        pts = data.setdefault(r["case"], {}).setdefault(r["variant"], [])
        pts.append((int(r[x]), float(r["gb_per_s"])))
    for variants in data.values():
        for pts in variants.values():
            pts.sort()
    return data, note


def draw(ax, variants, style, marker):
    """One line per variant: style maps a variant to (label, colour, line style)."""
    for v, pts in variants.items():
        label, color, ls = style.get(v, (v, None, "-"))
        ax.plot([x for x, _ in pts], [b for _, b in pts], ls, color=color, marker=marker,
                label=label)
