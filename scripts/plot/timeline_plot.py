#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Draw a portex timeline (the Chrome trace JSON that PX_TIMELINE=trace.json, or
px_init_options.timeline, writes at the last px_finalize) as a picture: one lane per
instance and per host thread, every operation a bar over time.

    python3 scripts/plot/timeline_plot.py trace.json out.png [--title T] [--copy-gbps G]

Colours by stage: host-to-device copies blue (below the lane's centre), kernels green (on
it), device-to-host copies red (above it), other copies and fills light blue, fences grey,
graph launches purple; regions and sections are thin grey bars at the top of their
thread's lane, one row per nesting level, and point events ticks. A copy's direction is
read from its path, kind or label (H2D, D2H, HtoD, DtoH).

The copy limit: a dashed line where the H2D copies would all have finished had they run
back to back from the first one's start at one bandwidth: --copy-gbps, else the fastest H2D
copy's own rate in the trace. The same for D2H when there are some.

The same trace opens in ui.perfetto.dev or chrome://tracing. Needs matplotlib.
"""
import argparse
import json
import re
import sys

COLORS = {
    "H2D": "#1f77b4",
    "kernel": "#2ca02c",
    "D2H": "#d62728",
    "copy": "#9ecae1",
    "fence": "#7f7f7f",
    "graph": "#9467bd",
    "region": "#b0b0b0",
    "event": "#404040",
    "other": "#bcbd22",
}
LEGEND = {
    "H2D": "H2D copy",
    "kernel": "kernel",
    "D2H": "D2H copy",
    "copy": "other copy / fill",
    "fence": "fence",
    "graph": "graph launch",
    "region": "region / section",
    "event": "event",
    "other": "other",
}
# Vertical place in the lane (the axis is inverted: positive is lower) and bar height.
PLACE = {
    "H2D": (0.30, 0.26),
    "D2H": (-0.30, 0.26),
    "kernel": (0.0, 0.26),
    "copy": (0.0, 0.26),
    "fence": (0.0, 0.26),
    "graph": (0.0, 0.26),
    "other": (0.0, 0.26),
    "event": (0.0, 0.5),
}
REGION_TOP, REGION_ROW, REGION_HEIGHT = -0.42, 0.07, 0.05

_DIR = re.compile(r"(?<![A-Za-z0-9])(H2D|D2H|HtoD|DtoH)(?![A-Za-z0-9])", re.IGNORECASE)


def direction(ev):
    """'H2D', 'D2H' or None, from the path, then the kind, then the label."""
    args = ev.get("args") or {}
    for text in (args.get("direction"), args.get("path"), ev.get("cat"), ev.get("name")):
        if not isinstance(text, str):
            continue
        m = _DIR.search(text)
        if m:
            return "H2D" if m.group(1).upper() in ("H2D", "HTOD") else "D2H"
    return None


def stage(ev):
    cat = str(ev.get("cat", "")).lower()
    args = ev.get("args") or {}
    if cat in ("region", "section"):
        return "region"
    if cat == "event":
        return "event"
    if "path" in args or "copy" in cat or "fill" in cat:
        d = direction(ev)
        return d if d else "copy"
    if "fence" in cat:
        return "fence"
    if "graph" in cat:
        return "graph"
    if cat.startswith("parallel") or any(k in cat for k in ("kernel", "dispatch", "launch")):
        return "kernel"
    return "other"


def load(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    names, order, spans = {}, {}, []
    for ev in events:
        ph = ev.get("ph")
        tid = ev.get("tid", 0)
        if ph == "M" and ev.get("name") == "thread_name":
            names[tid] = ev.get("args", {}).get("name", str(tid))
        elif ph == "M" and ev.get("name") == "thread_sort_index":
            order[tid] = ev.get("args", {}).get("sort_index", 0)
        elif ph == "X":
            spans.append(ev)
    other = doc.get("otherData", {}) if isinstance(doc, dict) else {}
    return names, order, spans, other


def copy_limit(spans, which, gbps):
    """(x in ms, GB/s) of the copy limit of the `which` copies, or None."""
    copies = [e for e in spans if e["_stage"] == which]
    total = sum(int((e.get("args") or {}).get("bytes", 0)) for e in copies)
    if not copies or total <= 0:
        return None
    if gbps:
        rate = gbps * 1e9
    else:
        rates = [int(e["args"]["bytes"]) / (float(e["dur"]) * 1e-6)
                 for e in copies if int((e.get("args") or {}).get("bytes", 0)) > 0 and float(e.get("dur", 0)) > 0]
        if not rates:
            return None
        rate = max(rates)
    first = min(float(e["ts"]) for e in copies)
    return (first + total / rate * 1e6) / 1e3, rate / 1e9


def region_rows(spans):
    """Nesting level of each region, per lane (a stack of end times)."""
    rows = {}
    stacks = {}
    for e in sorted((e for e in spans if e["_stage"] == "region"), key=lambda e: (float(e["ts"]), -float(e["dur"]))):
        st = stacks.setdefault(e.get("tid", 0), [])
        start, end = float(e["ts"]), float(e["ts"]) + float(e["dur"])
        while st and st[-1] <= start:
            st.pop()
        rows[id(e)] = len(st)
        st.append(end)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trace")
    ap.add_argument("out")
    ap.add_argument("--title")
    ap.add_argument("--copy-gbps", type=float, default=None,
                    help="bandwidth of the copy limit line, GB/s (default: the fastest H2D copy's own)")
    ap.add_argument("--window", type=float, nargs=2, metavar=("START_MS", "END_MS"),
                    help="draw only what overlaps [START_MS, END_MS) and the lanes that have some")
    ap.add_argument("--no-copy-limit", action="store_true", help="no copy limit lines")
    opt = ap.parse_args()

    try:
        import matplotlib
    except ImportError:
        sys.exit("timeline_plot.py needs matplotlib (python3 -m pip install matplotlib)")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    names, order, spans, other = load(opt.trace)
    for e in spans:
        e["_stage"] = stage(e)
    if opt.window:
        lo, hi = opt.window[0] * 1e3, opt.window[1] * 1e3
        spans = [e for e in spans if float(e["ts"]) < hi and float(e["ts"]) + float(e["dur"]) > lo]
        names = {t: n for t, n in names.items() if any(e.get("tid", 0) == t for e in spans)}
    tids = set(names) | {e.get("tid", 0) for e in spans}
    lanes = sorted(tids, key=lambda t: (order.get(t, 1 << 30), t))
    row = {t: i for i, t in enumerate(lanes)}
    rows = region_rows(spans)

    k = max(1, len(lanes))
    fig, ax = plt.subplots(figsize=(12, max(2.5, 1.2 + 0.65 * k)))
    used = set()
    # One collection per stage, its vertices one array: a trace may hold a million records.
    bars, ticks = {}, {}
    for e in spans:
        s = e["_stage"]
        lane = row[e.get("tid", 0)]
        start, dur = float(e["ts"]) / 1e3, float(e["dur"]) / 1e3
        if s == "region":
            y, h = lane + REGION_TOP + REGION_ROW * rows.get(id(e), 0), REGION_HEIGHT
        else:
            off, h = PLACE[s]
            y = lane + off
        (ticks if s == "event" or dur <= 0 else bars).setdefault(s, []).append((start, dur, y - h / 2, y + h / 2))
        used.add(s)
    for s, b in bars.items():
        a = np.asarray(b, dtype=float)
        x0, x1, y0, y1 = a[:, 0], a[:, 0] + a[:, 1], a[:, 2], a[:, 3]
        verts = np.stack([np.stack([x0, y0], 1), np.stack([x1, y0], 1), np.stack([x1, y1], 1),
                          np.stack([x0, y1], 1)], 1)
        ax.add_collection(PolyCollection(verts, facecolors=COLORS[s], edgecolors="none", linewidths=0),
                          autolim=False)
    for s, t in ticks.items():
        a = np.asarray(t, dtype=float)
        segs = np.stack([np.stack([a[:, 0], a[:, 2]], 1), np.stack([a[:, 0], a[:, 3]], 1)], 1)
        ax.add_collection(LineCollection(segs, colors=COLORS[s], linewidths=0.8), autolim=False)

    handles = [Patch(color=COLORS[s], label=LEGEND[s]) for s in COLORS if s in used]
    limits = []
    for which, color in (("H2D", COLORS["H2D"]), ("D2H", COLORS["D2H"])):
        lim = None if opt.no_copy_limit else copy_limit(spans, which, opt.copy_gbps)
        if lim:
            x, rate = lim
            ax.axvline(x, color=color, linestyle="--", linewidth=1.2)
            limits.append(x)
            handles.append(Line2D([0], [0], color=color, linestyle="--",
                                  label=f"copy limit (all {which} bytes at {rate:.3g} GB/s)"))

    if spans:   # collections do not move the view: the records and the limit lines
        x0 = min([float(e["ts"]) / 1e3 for e in spans] + limits)
        x1 = max([(float(e["ts"]) + float(e["dur"])) / 1e3 for e in spans] + limits)
        pad = 0.01 * (x1 - x0) if x1 > x0 else 0.001
        ax.set_xlim(x0 - pad, x1 + pad)
    ax.set_yticks(range(len(lanes)))
    ax.set_yticklabels([names.get(t, f"lane {t}") for t in lanes])
    ax.set_ylim(max(1, len(lanes)) - 0.5, -0.5)   # inverted: the first lane on top
    ax.set_xlabel("ms since the first record")
    if not spans:
        ax.text(0.5, 0.5, "no records in the trace", transform=ax.transAxes, ha="center", va="center")
    title = opt.title or f"portex timeline ({opt.trace})"
    dropped = other.get("dropped", 0) if isinstance(other, dict) else 0
    if dropped:
        title += f" [{dropped} records dropped]"
    ax.set_title(title)
    if handles:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize="small", frameon=False)
    fig.tight_layout()
    fig.savefig(opt.out, dpi=110)


if __name__ == "__main__":
    main()
