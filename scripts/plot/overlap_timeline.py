#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Draw the overlap pipeline's timeline from the CSV that `overlap --timeline` or
`bench_overlap --timeline` writes: one row per instance, H2D / compute / D2H of every
chunk as bars over time (from CUDA event timestamps).

    python3 scripts/plot/overlap_timeline.py timeline.csv out.png [run-tag]
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"H2D": "#1f77b4", "compute": "#2ca02c", "D2H": "#d62728"}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rows = list(csv.DictReader(open(sys.argv[1])))
    tag = sys.argv[3] if len(sys.argv) > 3 else rows[0]["run"]
    rows = [r for r in rows if r["run"] == tag]
    k = 1 + max(int(r["instance"]) for r in rows)
    fig, ax = plt.subplots(figsize=(12, 1.0 + 0.6 * k))
    for r in rows:
        lane = int(r["instance"])
        start, end = float(r["start_ms"]), float(r["end_ms"])
        # One lane per instance: D2H above, compute on the line, H2D below.
        y = lane + (0.0 if r["stage"] == "compute" else 0.35 if r["stage"] == "H2D" else -0.35)
        ax.barh(y, end - start, left=start, height=0.3, color=COLORS[r["stage"]])
    ax.set_yticks(range(k))
    ax.set_yticklabels([f"instance {i}" for i in range(k)])
    ax.set_xlabel("ms since the first chunk was issued")
    ax.set_title(f"portex overlap pipeline ({tag}): H2D (blue), compute (green), D2H (red)")
    ax.invert_yaxis()
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
