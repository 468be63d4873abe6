#!/usr/bin/python3
"""How the loss falls with more self-play (issue 11): fits the pattern model
and the linear model on 1, 2, 4, ... times a base amount of self-play and
plots each fit's loss on one common held-out set against the positions it
had.

    scripts/loss_vs_data.py VARIANT [--out DIR] [--base-games G] [--doublings N]
                            [--threads T] [--dama PATH]

1. Self-play with the built-in linear weights (configs/selfplay/VARIANT.toml):
   file 1 holds G games, file k (k >= 2) holds G * 2^(k-2), so the first k
   files together hold G * 2^(k-1) games (seeds 1001, 1002, ...).
2. For k = 1 .. N+1: dama tune on the first k files, the pattern model
   (configs/train/patterns/VARIANT.toml, falling back to the russian one) and
   the linear model with the same target and quiet-only setting (as
   scripts/make_pattern_weights.sh makes it).
3. Every fit is scored on one common held-out file (G games of its own
   seed, 999, played like the rest): the cross-entropy of its predictions
   against the game results there (lambda 1, the fit's own k, quiet
   positions), by dama tune with a learning rate of 0 and one full-batch
   epoch, which leaves the weights as they are and reports the loss.
4. DIR/loss_vs_data.csv (model, files, games, positions, heldout_loss,
   validation_loss, best_epoch, k) and DIR/loss_vs_data.png (heldout_loss).

Why a common file: each fit's own validation loss is measured on the games
its split holds out, a different set for every amount of data, and those
sets differ more from one another than the models do (a first run of this
script: 0.6632, 0.6647, 0.6651, 0.6643 for 0.6 to 4.6 M positions), so only
a loss on the same positions shows the trend.

Every step resumes (self-play and tune --resume): run it again after an
interruption.  The default (G = 5000, N = 3: about 0.6, 1.1, 2.3 and 4.6
million russian positions) takes about 30 minutes on one core; a night runs
N = 5 (about 18 million).
"""
import argparse
import csv
import json
import math
import os
import re
import struct
import subprocess
import sys

import h5py
import matplotlib
import matplotlib.ticker

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(command):
    print("+", " ".join(command), flush=True)
    result = subprocess.run(command)
    if result.returncode != 0:
        sys.exit(f"loss_vs_data: {' '.join(command[:2])} failed with exit status {result.returncode}")


def positions_in(path):
    with h5py.File(path, "r") as f:
        return int(f["positions/game_id"].shape[0])


def best_validation(log):
    """The lowest validation loss of a dama tune log and its epoch."""
    best = (math.inf, 0)
    with open(log, newline="") as f:
        for row in csv.DictReader(f):
            loss = float(row["validation_loss"])
            if loss < best[0]:
                best = (loss, int(float(row["epoch"])))
    if not math.isfinite(best[0]):
        sys.exit(f"{log}: no validation loss logged (validation_share = 0?)")
    return best


def linear_config(variant, out):
    """The linear model's settings with the pattern config's target: lambda 0.2, quiet positions only."""
    with open(os.path.join(ROOT, "configs", "train", f"{variant}.toml")) as f:
        text = f.read()
    text, lambdas = re.subn(r"(?m)^lambda = .*$", "lambda = 0.2", text)
    text, shares = re.subn(r"(?m)^(validation_share = .*)$", r"\1\nquiet_only = true", text)
    if lambdas != 1 or shares != 1:
        sys.exit(f"configs/train/{variant}.toml: expected one 'lambda =' and one 'validation_share =' line")
    path = os.path.join(out, "linear.toml")
    with open(path, "w") as f:
        f.write(text)
    return path


def k_of(weights):
    """The k (logits per man) dama tune recorded in a weights file's metadata."""
    with open(weights, "rb") as f:
        head = f.read(16)
        if head[:8] == b"DAMAPATW":  # the pattern file: magic, version, header size, JSON header
            (size,) = struct.unpack("<I", head[12:16])
            header = json.loads(f.read(size))
        else:
            f.seek(0)
            header = json.load(f)
    try:
        return float(header["metadata"]["k"])
    except (KeyError, TypeError, ValueError):
        sys.exit(f"{weights}: no metadata.k (not written by dama tune?)")


def heldout_loss(args, model, weights, heldout):
    """The results-only cross-entropy of `weights` on the held-out file (see step 3)."""
    out = os.path.join(args.out, "eval")
    os.makedirs(out, exist_ok=True)
    name = os.path.splitext(os.path.basename(weights))[0]
    config = os.path.join(out, name + ".toml")
    with open(config, "w") as f:
        f.write("[model]\nloss = \"cross_entropy\"\nlambda = 1.0\nfit_k = false\n"
                f"k = {k_of(weights)!r}\n\n"
                "[optimizer]\nkind = \"adam\"\nlearning_rate = 0\nmin_learning_rate = 0\nbatch_size = 0\nl2 = 0\n\n"
                "[training]\nmax_epochs = 1\npatience = 1\nvalidation_share = 0\nquiet_only = true\n")
    log = os.path.join(out, name + ".csv")
    scored = os.path.join(out, name + (".patterns" if model == "patterns" else ".json"))
    for stale in (scored, scored + ".checkpoint"):
        if os.path.exists(stale):
            os.remove(stale)
    run([args.dama, "tune", "--variant", args.variant, "--data", heldout, "--weights", weights, "--model", model,
         "--config", config, "--out", scored, "--log", log, "--threads", str(args.threads)])
    with open(log, newline="") as f:
        rows = list(csv.DictReader(f))
    if len(rows) != 1:
        sys.exit(f"{log}: expected one epoch")
    return float(rows[0]["train_loss"])


def fit(args, model, config, files, name):
    weights = os.path.join(args.out, name + (".patterns" if model == "patterns" else ".json"))
    log = os.path.join(args.out, name + ".csv")
    if not os.path.exists(weights):
        command = [args.dama, "tune", "--variant", args.variant, "--data", *files, "--model", model,
                   "--config", config, "--out", weights, "--log", log, "--threads", str(args.threads)]
        if os.path.exists(weights + ".checkpoint"):
            command.append("--resume")
        run(command)
    return weights, best_validation(log)


def plot(rows, variant, path):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for model, style in (("patterns", "o-"), ("linear", "s--")):
        points = sorted((r["positions"], r["heldout_loss"]) for r in rows if r["model"] == model)
        if points:
            ax.plot([p / 1e6 for p, _ in points], [v for _, v in points], style, label=model)
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda x, _: f"{x:g}"))
    ax.set_xlabel("self-play positions fitted (millions, log scale)")
    ax.set_ylabel("loss on the held-out games' results (cross-entropy)")
    ax.set_title(f"{variant}: held-out loss against the amount of self-play")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant")
    parser.add_argument("--out", help="directory of the data, fits and plot (default runs/loss-vs-data-VARIANT)")
    parser.add_argument("--base-games", type=int, default=5000, help="games of the first file (default 5000)")
    parser.add_argument("--doublings", type=int, default=3, help="times the data doubles after the first fit")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--dama", default=os.path.join(ROOT, "build", "dama"))
    args = parser.parse_args()
    if args.base_games < 1 or args.doublings < 0 or args.threads < 1:
        sys.exit("loss_vs_data: --base-games and --threads must be at least 1, --doublings at least 0")
    args.out = args.out or os.path.join("runs", f"loss-vs-data-{args.variant}")
    os.makedirs(args.out, exist_ok=True)
    selfplay = os.path.join(ROOT, "configs", "selfplay", f"{args.variant}.toml")
    patterns = os.path.join(ROOT, "configs", "train", "patterns", f"{args.variant}.toml")
    if not os.path.exists(patterns):
        patterns = os.path.join(ROOT, "configs", "train", "patterns", "russian.toml")
    linear = linear_config(args.variant, args.out)

    heldout = os.path.join(args.out, "heldout.h5")
    run([args.dama, "selfplay", "--config", selfplay, "--games", str(args.base_games), "--threads", str(args.threads),
         "--seed", "999", "--out", heldout, "--resume"])
    files, games, rows = [], 0, []
    for k in range(1, args.doublings + 2):
        count = args.base_games if k == 1 else args.base_games * 2 ** (k - 2)
        path = os.path.join(args.out, f"selfplay-{k}.h5")
        run([args.dama, "selfplay", "--config", selfplay, "--games", str(count), "--threads", str(args.threads),
             "--seed", str(1000 + k), "--out", path, "--resume"])
        files.append(path)
        games += count
        positions = sum(positions_in(f) for f in files)
        for model, config in (("patterns", patterns), ("linear", linear)):
            weights, (loss, epoch) = fit(args, model, config, files, f"{model}-{k}")
            common = heldout_loss(args, model, weights, heldout)
            rows.append({"model": model, "files": k, "games": games, "positions": positions, "heldout_loss": common,
                         "validation_loss": loss, "best_epoch": epoch, "k": k_of(weights)})
            print(f"{model:8} {positions:>10} positions  held-out loss {common:.6f}  "
                  f"own validation loss {loss:.6f} (epoch {epoch})", flush=True)

    table = os.path.join(args.out, "loss_vs_data.csv")
    with open(table + ".tmp", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    os.replace(table + ".tmp", table)
    plot(rows, args.variant, os.path.join(args.out, "loss_vs_data.png"))
    print(f"{table}\n{os.path.join(args.out, 'loss_vs_data.png')}")


if __name__ == "__main__":
    main()
