#!/usr/bin/python3
"""Plots a pipeline run's summary.csv (Elo by generation) to a PNG.

usage: scripts/plot_pipeline.py RUN/summary.csv OUT.png
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def main(summary, png):
    with open(summary, newline="") as f:
        rows = list(csv.DictReader(f))
    gens = [int(r["generation"]) for r in rows]
    elo = [float(r["elo"]) for r in rows]
    err = [float(r["elo_error95"]) for r in rows]
    measured = [(int(r["generation"]), float(r["vs_start_elo"]), float(r["vs_start_error95"]))
                for r in rows if r.get("vs_start_elo")]
    promoted = [r["promoted"] == "1" for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.errorbar(gens, elo, yerr=err, fmt="o", capsize=4, label="new weights vs best (95% interval)")
    if measured:
        ax.errorbar([m[0] for m in measured], [m[1] for m in measured], yerr=[m[2] for m in measured],
                    fmt="-s", capsize=4, label="best so far vs the start weights (measured, 95% interval)")
    for g, e, p in zip(gens, elo, promoted):
        if p:
            ax.annotate("promoted", (g, e), textcoords="offset points", xytext=(6, 6), fontsize=8)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("generation")
    ax.set_ylabel("Elo")
    ax.set_xticks(gens or [1])
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=100)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
