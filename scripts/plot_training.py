#!/usr/bin/python3
"""Plots a `dama tune --log` training log: training and validation loss per epoch.

    scripts/plot_training.py LOG.csv [OUT.png]     (default OUT: LOG with .png)

The log's columns are epoch,train_loss,validation_loss,learning_rate,seconds
(train/training_log.hpp).  The learning rate is drawn on a second axis, and
the epoch of the lowest validation loss (the weights dama tune keeps) is
marked.
"""
import csv
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

COLUMNS = ["epoch", "train_loss", "validation_loss", "learning_rate", "seconds"]


def read_log(path):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != COLUMNS:
            sys.exit(f"{path}: not a dama tune log (columns {reader.fieldnames}, expected {COLUMNS})")
        rows = []
        for line, row in enumerate(reader, start=2):
            try:
                rows.append({k: float(v) for k, v in row.items()})
            except (TypeError, ValueError):
                sys.exit(f"{path}:{line}: not a number in {row}")
    if not rows:
        sys.exit(f"{path}: no epochs logged")
    return rows


def plot(rows, title, out):
    epochs = [r["epoch"] for r in rows]
    fig, loss_axis = plt.subplots(figsize=(8, 5))
    loss_axis.plot(epochs, [r["train_loss"] for r in rows], label="training loss", color="tab:blue")
    validation = [r["validation_loss"] for r in rows]
    if not all(math.isnan(v) for v in validation):
        loss_axis.plot(epochs, validation, label="validation loss", color="tab:orange")
        best = min((r for r in rows if not math.isnan(r["validation_loss"])), key=lambda r: r["validation_loss"])
        loss_axis.axvline(best["epoch"], color="gray", linestyle=":", label=f"best: epoch {int(best['epoch'])}")
    loss_axis.set_xlabel("epoch")
    loss_axis.set_ylabel("loss")
    rate_axis = loss_axis.twinx()
    rate_axis.plot(epochs, [r["learning_rate"] for r in rows], color="tab:green", alpha=0.4, linestyle="--",
                   label="learning rate")
    rate_axis.set_ylabel("learning rate")
    lines = loss_axis.get_legend_handles_labels()
    rate_lines = rate_axis.get_legend_handles_labels()
    loss_axis.legend(lines[0] + rate_lines[0], lines[1] + rate_lines[1], loc="upper right")
    seconds = sum(r["seconds"] for r in rows)
    loss_axis.set_title(f"{title}: {len(rows)} epochs, {seconds:.0f} s")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[2].strip())
    log = argv[1]
    out = argv[2] if len(argv) == 3 else os.path.splitext(log)[0] + ".png"
    plot(read_log(log), os.path.basename(log), out)
    print(out)


if __name__ == "__main__":
    main(sys.argv)
