"""Won positions judged by a game's exact solver, to measure a network's moves against.

A judged set is drawn once and stored as JSON lines: a header (game, options, the command that
made it), then one position a line with its winning moves, those after which the opponent
loses against perfect play, as the game's exact verdict says (its knowledge's ``wins``, else
its solver). Positions are drawn from random games: a random game is played to
its end, one of its unfinished positions picked at random, and kept when the solver proves it a
win for the seat to move and it is new (up to symmetry). The share of positions where a player's
move is one of the winning moves is its **move accuracy**; a random legal move keeps the win in
the mean share of winning moves.

    python -m bordspel.zero.judge hermit -o size=5 -n 1000 --seed 2026 --out FILE
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bordspel.ai.players import Proven
from bordspel.ai.registry import knowledge
from bordspel.core import BordspelError, State, canonical, new_game
from bordspel.game_options import parse_options
from bordspel.progress import ProgressLine

__all__ = [
    "Judged",
    "draw_judged",
    "header_line",
    "judge",
    "judged_line",
    "main",
    "read_judged",
    "verdict_of",
]

SOLVER_SECONDS = 30.0
"""The solver's time for one position's move; a position it cannot settle is left out."""


@dataclass(frozen=True)
class Judged:
    """A position won for the seat to move, and its winning moves (in the game's notation)."""

    state: State
    wins: frozenset[str]

    def random_share(self) -> float:
        """The chance that a uniformly random legal move keeps the win."""
        return len(self.wins) / self.state.count_moves()


Verdict = Callable[[State], bool | None]
"""Whether the seat to move in an unfinished position wins against perfect play; None: unknown."""


def verdict_of(game: str) -> Verdict:
    """The game's exact verdict: its knowledge's ``wins``, else its solver's answer."""
    known = knowledge(game)
    if known.wins is not None:
        return known.wins
    if known.solver is None:
        raise BordspelError(f"{game} has no exact solver to judge positions with")
    solver = known.solver(SOLVER_SECONDS)

    def proven(state: State) -> bool | None:
        answer = solver.solve(state, None)
        return {"win": True, "loss": False}.get(answer.result) if isinstance(answer, Proven) else None

    return proven


def judge(state: State, wins: Verdict) -> frozenset[str] | None:
    """The winning moves of ``state`` (empty: it is lost or drawn), those after which the
    opponent loses; None when the verdict is unknown for one of them."""
    found = set()
    for move in state.legal_moves():
        child = state.apply(move)
        outcome = child.outcome()
        if outcome is not None:
            keeps = state.to_move in outcome.winners
        else:
            theirs = wins(child)
            if theirs is None:
                return None
            keeps = not theirs
        if keeps:
            found.add(move.to_str())
    return frozenset(found)


def _random_position(start: State, rng: random.Random) -> State:
    """An unfinished position of a random game, each of its positions as likely."""
    line = [start]
    while not line[-1].is_over():
        line.append(line[-1].apply(line[-1].random_move(rng)))
    return rng.choice(line[:-1])


def draw_judged(
    start: State, count: int, seed: int, on_found: Callable[[Judged, int], None] | None = None
) -> list[Judged]:
    """``count`` distinct won positions of random games from ``start`` (see the module docstring);
    ``on_found(position, drawn)`` hears of each as it is found."""
    wins, rng = verdict_of(start.name), random.Random(seed)
    found: list[Judged] = []
    seen: set[State] = set()
    drawn = 0
    while len(found) < count:
        state = _random_position(start, rng)
        drawn += 1
        key = canonical(state)
        if key in seen:
            continue
        seen.add(key)
        winning = judge(state, wins)
        if winning:
            found.append(Judged(state, winning))
            if on_found:
                on_found(found[-1], drawn)
    return found


def judged_line(judged: Judged) -> str:
    """One position of a judged set, as its file holds it."""
    return json.dumps({"position": judged.state.to_str(), "wins": sorted(judged.wins)})


def header_line(start: State, command: str) -> str:
    """The first line of a judged set's file: the game, its options and the command."""
    return json.dumps({"game": start.name, "options": start.options(), "command": command})


def read_judged(path: Path) -> tuple[dict[str, Any], list[Judged]]:
    """The header and the positions of a judged set."""
    header, *rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line)
    cls = type(new_game(header["game"], **header["options"]))
    return header, [Judged(cls.from_str(row["position"]), frozenset(row["wins"])) for row in rows]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bordspel.zero.judge``: draw and judge positions into a file (module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m bordspel.zero.judge", description=__doc__)
    parser.add_argument("game")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("-n", "--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    start = new_game(args.game, **parse_options(args.game, args.option))
    command = " ".join(["python -m bordspel.zero.judge", *(sys.argv[1:] if argv is None else argv)])
    progress, kept = ProgressLine(), []
    with args.out.open("w", encoding="utf-8") as out:  # written as found: a stopped run keeps them
        out.write(header_line(start, command) + "\n")

        def found(judged: Judged, drawn: int) -> None:
            out.write(judged_line(judged) + "\n")
            out.flush()
            kept.append(judged)
            progress.update(f"{len(kept)} won of {drawn} drawn")

        draw_judged(start, args.count, args.seed, found)
    progress.close()
    share = sum(j.random_share() for j in kept) / len(kept)
    print(f"{len(kept)} positions to {args.out}; a random move keeps the win in {share:.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
