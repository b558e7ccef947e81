"""What the evaluation graph of a finished game costs (``bordspel.web.graphs``): a game of each
kind played by two ``medium`` players, then every position judged as the graph worker judges it.

Run:  python benchmarks/bench_graph.py           (the figures on the docs' results page)
      python benchmarks/bench_graph.py --smoke   (a quick run that only checks it works)

For each game: its plies, the seconds its graph took (in this process, without the worker
process's start), the positions judged exactly (a solver's or a proved result) and the moves
marked as mistakes and blunders (those proved by the solver in brackets).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from bordspel.ai import make_player
from bordspel.web.graphs import GRAPH_LEVEL, GRAPH_TIME, graph_points, judge_position
from bordspel.web.options import start_state
from bordspel.web.seats import budgeted_spec

GAMES: dict[str, dict[str, Any]] = {
    "hermit 5x5": {"game": "hermit", "options": {"size": 5}},
    "quarto": {"game": "quarto", "options": {}},
    "santorini": {"game": "santorini", "options": {}},
}


def played(game: str, options: dict[str, Any], seed: int) -> tuple[list[Any], list[str]]:
    """The positions and moves of a game between two ``medium`` players."""
    state = start_state(game, options)
    players = [make_player(budgeted_spec(game, "medium", 1.0), game, seed=seed + seat) for seat in range(2)]
    states, moves = [state], []
    while state.outcome() is None:
        move = players[state.to_move].step(state)
        moves.append(str(move.to_str()))
        state = state.apply(move)
        states.append(state)
    return states, moves


def measure(game: str, options: dict[str, Any], seconds: float, seed: int) -> dict[str, Any]:
    """One game's graph: its plies, time, exact points and marks."""
    states, moves = played(game, options, seed)
    spec = budgeted_spec(game, GRAPH_LEVEL, seconds)
    started = time.perf_counter()
    judged = [
        judge_position(game, state.to_str(), moves[ply] if ply < len(moves) else None, spec, seconds)
        for ply, state in enumerate(states)
    ]
    graph = graph_points(judged, moves)
    took = time.perf_counter() - started
    marks = graph["marks"]
    return {
        "plies": len(moves),
        "seconds": took,
        "exact": sum(point["result"] is not None for point in graph["points"]),
        "mistakes": sum(mark["kind"] == "mistake" for mark in marks),
        "blunders": sum(mark["kind"] == "blunder" for mark in marks),
        "proved": sum(mark["proof"] for mark in marks),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a quick run: 0.05 s a position")
    parser.add_argument("--seconds", type=float, default=GRAPH_TIME, help="analysis per position")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    seconds = 0.05 if args.smoke else args.seconds
    columns = "plies | graph seconds | exact points | mistakes | blunders (proved)"
    print(f"| game ({seconds:g} s a position) | {columns} |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, case in GAMES.items():
        found = measure(case["game"], case["options"], seconds, args.seed)
        exact = f"{found['exact']} of {found['plies'] + 1}"
        marks = f"{found['mistakes']} | {found['blunders']} ({found['proved']})"
        print(f"| {name} | {found['plies']} | {found['seconds']:.1f} | {exact} | {marks} |")


if __name__ == "__main__":
    main()
