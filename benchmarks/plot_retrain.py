"""The score against one opponent over minutes of training: the match points of ``bordspel
train`` runs (each run folder's ``history.json``) beside a curve given by its points (an older
run whose folder is gone, its points as the results page gives them), and the arena's final
measurement of each run with its 95% interval.

Run (the Quarto figure of docs/results.md, #zero-retrain-tenth):
    python benchmarks/plot_retrain.py --out docs/figures/zero-retrain-quarto.png \\
        --run "vector self-play, 6 min=/work/scratch/h41/quarto-6min" \\
        --points "engine self-play, 60 min, shipped (from the start position)=0:25,15:0,31:25,46:100" \\
        --arena "untrained, 800 playouts=0:31.8:26.1:38.1" \\
        --arena "vector self-play 6 min, 800 playouts=6.24:75.0:69.6:79.5" \\
        --arena "shipped, 800 playouts=60:72.0:66.2:77.0"
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def labelled(text: str) -> tuple[str, str]:
    """``LABEL=VALUE`` as its two parts."""
    label, _, value = text.rpartition("=")
    if not label:
        raise argparse.ArgumentTypeError(f"{text!r}: give LABEL=VALUE")
    return label, value


def run_points(folder: Path, opponent: str) -> list[tuple[float, float]]:
    """The run's match scores against ``opponent`` in percent, by minutes of training."""
    history = json.loads((folder / "history.json").read_text(encoding="utf-8"))
    key = f"vs {opponent}"
    return [(point["minutes"], 100 * point[key]) for point in history if key in point]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="the PNG to write")
    parser.add_argument("--opponent", default="medium", help="the matches' opponent (default medium)")
    parser.add_argument("--title", default="Quarto: score against medium while training")
    parser.add_argument("--run", type=labelled, action="append", default=[], help="LABEL=RUN_FOLDER")
    parser.add_argument("--points", type=labelled, action="append", default=[], help="LABEL=MIN:SCORE,...")
    parser.add_argument(
        "--arena", type=labelled, action="append", default=[], help="LABEL=MIN:SCORE:LOW:HIGH (percent)"
    )
    args = parser.parse_args()

    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(figsize=(7, 4), dpi=90)
    curves = [(label, run_points(Path(folder), args.opponent), "-o") for label, folder in args.run]
    for label, text in args.points:
        points = [tuple(float(x) for x in pair.split(":")) for pair in text.split(",")]
        curves.append((label, points, "--s"))
    for label, points, style in curves:
        axes.plot(*zip(*points), style, markersize=4, label=f"{label}: matches, 20 games, 64 simulations")
    for label, text in args.arena:
        minutes, score, low, high = (float(x) for x in text.split(":"))
        interval = [[score - low], [high - score]]
        axes.errorbar([minutes], [score], yerr=interval, fmt="D", capsize=4, label=f"{label} (arena)")
    axes.set(xlabel="minutes of training", ylabel=f"% against {args.opponent}", ylim=(0, 101))
    axes.set_title(args.title)
    axes.grid(alpha=0.3)
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.15), fontsize=7)
    figure.savefig(args.out, bbox_inches="tight")
    pyplot.close(figure)
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
