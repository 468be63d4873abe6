#!/usr/bin/python3
"""Writes the hand-set start weights, configs/weights/handset/<variant>.json.

The built-in weights, configs/weights/<variant>.json, are what dama's own
self-play and tuner made of this start (scripts/make_linear_weights.sh; for
poddavki its pipeline, docs/rules-russian-family.md).

The feature names and the schema hash come from the program itself
(`dama eval --features`), the kind of kings from `dama variants`, so the files
always cover the schema the program was built with.  Weights are chosen by
feature name; any feature without a rule here gets 0 (the tuner's job).

usage: scripts/make_default_weights.py DAMA_BINARY [--date YYYY-MM-DD] [--out DIR] [--only VARIANT]
"""
import argparse
import datetime
import json
import pathlib
import re
import subprocess

# (opening, endgame) by feature name, for flying and for short kings.
COMMON = {
    "material.man": (100, 100),
    "back_row.guard": (6, 2),
    "centre.man": (4, 2),
    "tempo.man": (1, 4),
    "mobility.man": (2, 2),
    "structure.backed_man": (2, 1),
    "structure.isolated_man": (-3, -2),
    "balance.man": (-2, -1),
    "endgame.tempo_parity": (0, 0),  # sign unknown a priori: left to tuning
    "side_to_move": (3, 0),
}
FLYING = {
    "material.king": (250, 300),
    "centre.king": (2, 6),
    "king.long_diagonal": (8, 20),
    "king.double_diagonal": (4, 8),
    "king.trapped": (-15, -25),
    "mobility.king": (1, 2),
    "runaway.man": (60, 100),
}
FLYING_10X10 = dict(FLYING, **{"material.king": (300, 320)})
SHORT = {
    "material.king": (150, 175),
    "centre.king": (4, 8),
    "king.long_diagonal": (0, 0),
    "king.double_diagonal": (0, 0),
    "king.trapped": (-8, -12),
    "mobility.king": (3, 4),
    "runaway.man": (25, 50),
}
# The give-away game (poddavki: the side left without a move wins): material
# and mobility are liabilities; everything else is left to the tuner.
# Bashni: a reserve piece under an own top keeps the square when the top is
# taken; an enemy piece held under an own top is out of play while the tower
# stands.  Guesses for the tuner to correct.
TOWERS = {
    "tower.reserve": (50, 60),
    "tower.prisoners": (20, 30),
}
GIVEAWAY = {
    "material.man": (-100, -100),
    "material.king": (-150, -200),
    "mobility.man": (-2, -2),
    "mobility.king": (-1, -2),
}


def run(binary, *args):
    return subprocess.run([binary, *args], check=True, capture_output=True, text=True).stdout


def variants(binary):
    """(name, board "WxH", flying kings, give-away) for every variant `dama variants` lists."""
    found = []
    for block in re.split(r"\n(?=\S)", run(binary, "variants").strip()):
        name = block.split(":")[0].split(" ")[0]
        board = re.search(r"board=(\d+x\d+)", block).group(1)
        flying = re.search(r"kings=(\w+)", block).group(1) == "flying"
        giveaway = "no-move=wins" in block  # said only for the give-away game
        found.append((name, board, flying, giveaway))
    return found


def render(name, schema, weights, metadata):
    lines = ["{", '  "format": "dama-weights",', '  "version": 1,', f'  "variant": {json.dumps(name)},',
             f'  "schema": {json.dumps(schema)},', '  "weights": {']
    rows = [f'    {json.dumps(f)}: {{"opening": {o}, "endgame": {e}}}' for f, (o, e) in weights]
    lines.append(",\n".join(rows))
    lines.append("  },")
    lines.append('  "metadata": ' + json.dumps(metadata, indent=2, sort_keys=True).replace("\n", "\n  "))
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--date", default=datetime.date.today().isoformat())
    parser.add_argument("--out", default=str(pathlib.Path(__file__).resolve().parent.parent / "configs" / "weights"))
    parser.add_argument("--only", help="write this variant's file only")
    args = parser.parse_args()
    for name, board, flying, giveaway in variants(args.binary):
        if args.only and name != args.only:
            continue
        # The linear schema's features, one a line, up to the pattern schema's section.
        lines = run(args.binary, "eval", "--variant", name, "--features").splitlines()
        words = lines[0].split()
        assert words[0] == "schema", words[:2]
        schema = words[1]
        names = []
        for line in lines[1:]:
            if line.startswith("pattern schema"):
                break
            names.append(line.strip())
        if giveaway:
            rules = GIVEAWAY
        else:
            rules = dict(COMMON, **(FLYING_10X10 if flying and board == "10x10" else FLYING if flying else SHORT), **TOWERS)
        weights = [(f, rules.get(f, (0, 0))) for f in names]
        metadata = {"source": "hand-set defaults", "date": args.date, "generator": "scripts/make_default_weights.py",
                    "note": "piece-square tables are 0: the tuner's job"}
        folder = pathlib.Path(args.out) / "handset"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}.json"
        path.write_text(render(name, schema, weights, metadata))
        print(f"wrote {path} ({len(names)} features, schema {schema})")


if __name__ == "__main__":
    main()
