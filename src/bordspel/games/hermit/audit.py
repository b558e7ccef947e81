"""``bordspel verify hermit-NxN DATA``: a solving run's data folder checked claim by claim.

The data folder claims who wins at many positions: its settled first moves (``results.jsonl``),
sub-problems (``frontier.txt``) and book records (a position's key and who wins). Each claim is
checked by **one step**: every move from its position is played, and each child's value is
either settled by the checker's own brute force (every region of live squares small: the
Grundy value of each by trying every move, no symmetries, no solver code) or taken from another
claim. A claim holds when the player said to win has a move to a child that loses, or when every
move of the player said to lose leads to a child that wins. The claims a step leans on are
checked the same way by a full check, so when it passes the data is a proof whose leaves the
checker solved itself.

A child's claim comes from the data (looked up by the solver's disk key, which only finds the
claim: it is checked at this very child) or, where the data has none (the book keeps only the
positions with a large search below them), from the solver, which reads the book as its store.
Either way it is a claim like the others, and a full check checks it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bordspel.games.hermit.book import LOSES, WINS, Book
from bordspel.games.hermit.rules import Geometry, after_block, dilate, fitting_blocks, free_squares, geometry
from bordspel.games.hermit.verify import ProofError, _mover_wins, position_after, read_claims

__all__ = ["DataChecker", "RegionBruteForce", "check_data"]

Accepts = tuple[int, int, int]
"""The squares that accept a red, a yellow and a blue block: a position, as far as play goes."""
Step = tuple[Accepts, bool]
"""A claim to check: a position and whether the player to move wins there."""


@dataclass
class RegionBruteForce:
    """The checker's own values: positions whose regions (live squares connected through any
    neighbour, corners included) each have at most ``limit`` squares, by the Grundy value of each
    region found by trying every move (memoised), XORed."""

    geo: Geometry
    limit: int = 10
    values: dict[Accepts, int] = field(default_factory=dict)

    def wins(self, accepts: Accepts) -> bool | None:
        """Whether the player to move wins, or None when a region is over the limit."""
        total = 0
        for region in self._regions(accepts):
            if (region[0] | region[1] | region[2]).bit_count() > self.limit:
                return None
            total ^= self._value(region)
        return total != 0

    def _value(self, region: Accepts) -> int:
        known = self.values.get(region)
        if known is None:
            seen = set()
            for colour in range(3):
                for _, block in fitting_blocks(region[colour], self.geo):
                    after = after_block(region, colour, block, self.geo)
                    value = 0
                    for part in self._regions(after):
                        value ^= self._value(part)
                    seen.add(value)
            known = next(value for value in range(len(seen) + 1) if value not in seen)
            self.values[region] = known
        return known

    def _regions(self, accepts: Accepts) -> Iterator[Accepts]:
        red, yellow, blue = accepts
        live = red | yellow | blue
        while live:
            region = live & -live
            while (grown := dilate(region, self.geo) & live) != region:
                region = grown
            live &= ~region
            yield red & region, yellow & region, blue & region


@dataclass
class Tally:
    """What the steps of a check met: claims checked, and where their children's values came from."""

    claims: int = 0
    brute_force: int = 0
    data: int = 0
    solver: int = 0

    def __str__(self) -> str:
        return (
            f"{self.claims:,} claims checked; children settled by brute force {self.brute_force:,}, "
            f"by a claim of the data {self.data:,}, by the solver {self.solver:,}"
        )


class DataChecker:
    """One-step checks of the claims of a data folder on an n x n board."""

    def __init__(self, folder: Path, n: int, limit: int = 10, first_move: str | None = None) -> None:
        from bordspel.games.hermit.book import Store
        from bordspel.games.hermit.proof import ProofSolver

        self.geo = geometry(n)
        self.brute = RegionBruteForce(self.geo, limit)
        self.book = Book(folder, 0, "check")
        self.book.load()
        self.solver = ProofSolver(n, table_bits=18, proof_numbers=True)
        if self.solver.core is None:
            raise ProofError("checking a data folder needs the compiled module bordspel._native.hermit_core")
        self.key: Callable[..., Any] = self.solver.core.disk_key
        self.roots = self._roots(folder, n, first_move)
        self.claims = len(self.book.known)
        solver_store = Book(folder, 0, "check")
        solver_store.known = dict(self.book.known)
        self.solver.core.disk = Store(solver_store)
        self.tally = Tally()

    def _roots(self, folder: Path, n: int, first_move: str | None) -> list[Step]:
        """The settled first moves and sub-problems (only those after ``first_move`` if given), as
        positions; the values of all join the book's."""
        roots = []
        for claim in read_claims(folder):
            accepts = self._accepts(position_after(n, claim.moves))
            if first_move in (None, claim.moves[0]):
                roots.append((accepts, _mover_wins(claim)))
            key = bytes(self.key(*accepts))
            value = WINS if _mover_wins(claim) else LOSES
            if self.book.known.setdefault(key, value) != value:
                raise ProofError(f"{claim} contradicts another claim of the data at the same position")
        if not roots:
            raise ProofError(f"{folder} holds no settled first move or sub-problem to check")
        return roots

    def _accepts(self, masks: tuple[int, int, int]) -> Accepts:
        return (
            free_squares(masks, 0, self.geo),
            free_squares(masks, 1, self.geo),
            free_squares(masks, 2, self.geo),
        )

    def step(self, accepts: Accepts, mover_wins: bool) -> list[Step]:
        """Check one claim by one step; the claims it leans on (ProofError if it fails)."""
        self.tally.claims += 1
        own = self.brute.wins(accepts)
        if own is not None:
            if own != mover_wins:
                raise ProofError(
                    f"brute force finds the player to move {_says(own)} at {self._text(accepts)}"
                )
            return []
        children = self._children(accepts)
        if mover_wins:
            return self._winning_move(accepts, children)
        leans = []
        for child in children:
            wins, source = self._value(child, solve=True)
            if not wins:
                raise ProofError(
                    f"the player to move is said to lose at {self._text(accepts)}, but a move leads "
                    f"to {self._text(child)}, which {source} says the player to move there loses"
                )
            if source != "brute force":
                leans.append((child, True))
        return leans

    def _winning_move(self, accepts: Accepts, children: list[Accepts]) -> list[Step]:
        """The claim of a child that loses (known ones first, then the solver's)."""
        for solve in (False, True):
            for child in children:
                wins, source = self._value(child, solve)
                if wins is False:
                    return [] if source == "brute force" else [(child, False)]
        raise ProofError(f"the player to move is said to win at {self._text(accepts)}, but no move wins")

    def _children(self, accepts: Accepts) -> list[Accepts]:
        children = {
            after_block(accepts, colour, block, self.geo)
            for colour in range(3)
            for _, block in fitting_blocks(accepts[colour], self.geo)
        }
        return sorted(children)

    def _value(self, child: Accepts, solve: bool) -> tuple[bool | None, str]:
        """Whether the player to move at ``child`` wins, and who says so (None: not known)."""
        own = self.brute.wins(child)
        if own is not None:
            self.tally.brute_force += 1
            return own, "brute force"
        found = self.book.known.get(bytes(self.key(*child)))
        if found is not None:
            self.tally.data += 1
            return found == WINS, "the data"
        if not solve:
            return None, ""
        self.tally.solver += 1
        return self.solver.accepts_wins(child), "the solver"

    def _text(self, accepts: Accepts) -> str:
        """A position as rows joined by ``/``: for each square the colours it accepts, or ``.``."""
        n = self.geo.n
        cells = ["".join("RYB"[c] for c in range(3) if accepts[c] >> i & 1) or "." for i in range(n * n)]
        return "/".join(",".join(cells[r * n : (r + 1) * n]) for r in range(n))


def _says(wins: bool) -> str:
    return "wins" if wins else "loses"


def check_data(
    folder: Path,
    n: int,
    sample: int | None = None,
    seed: int = 0,
    limit: int = 10,
    first_move: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> str:
    """Check a data folder's claims: all of them and every claim they lean on (a full check),
    or ``sample`` claims met on random walks from its settled first moves and sub-problems (only
    those after ``first_move`` if given); a line saying what was checked, ProofError at the
    first failure."""
    started = time.perf_counter()
    checker = DataChecker(folder, n, limit, first_move)
    if sample is None:
        _check_all(checker, progress)
        what = "every claim and every claim they lean on"
    else:
        _check_sample(checker, sample, random.Random(seed), progress)
        what = f"a sample (seed {seed})"
    return (
        f"data checked, {what}: {len(checker.roots)} first moves and sub-problems, "
        f"{checker.claims:,} claims in all; {checker.tally} "
        f"(brute force on regions of at most {limit} squares), {time.perf_counter() - started:.1f} s"
    )


def _check_all(checker: DataChecker, progress: Callable[[str], None] | None) -> None:
    """Every root, then every claim a checked one leans on (depth first), each once."""
    done = set(checker.roots)
    todo = [lean for root in checker.roots for lean in checker.step(*root)]
    started = time.perf_counter()
    while todo:
        claim = todo.pop()
        if claim not in done:
            done.add(claim)
            todo.extend(checker.step(*claim))
            if progress is not None and len(done) % 1000 == 0:
                progress(
                    f"{len(done):,} checked, {len(todo):,} waiting, {time.perf_counter() - started:.0f} s"
                )


def _check_sample(
    checker: DataChecker, claims: int, rng: random.Random, progress: Callable[[str], None] | None
) -> None:
    """``claims`` claims, each met on a random walk from a random root down the claims it leans on."""
    checked = 0
    while checked < claims:
        claim: Step | None = rng.choice(checker.roots)
        while claim is not None and checked < claims:
            leans = checker.step(*claim)
            checked += 1
            claim = rng.choice(leans) if leans else None
            if progress is not None:
                progress(f"{checked} of {claims} claims checked")
