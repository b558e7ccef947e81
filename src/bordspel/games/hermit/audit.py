"""``bordspel verify hermit-NxN DATA``: a solving run's data folder checked by the checker.

The data folder says who wins after each settled first move and sub-problem, not why. The
independent checker (``bordspel.games.hermit.verify``) needs the winner's reply wherever its walk
meets the winner to move; here the solver supplies it, reading the run's book so that what the
run settled is not searched again. The checker trusts none of it: it plays each reply, follows
every move of the loser (or, in a sampled check, random ones) and ends each line in its own brute
force. So a wrong line of the frontier or the results, or a wrong book record that a reply rests
on, ends in a ProofError.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from pathlib import Path

from bordspel.games.hermit.book import Book, Store
from bordspel.games.hermit.proof import ProofSolver
from bordspel.games.hermit.rules import after_block, fitting_blocks, free_squares, geometry
from bordspel.games.hermit.verify import (
    Claim,
    ClaimChecker,
    Masks,
    ProofError,
    Reply,
    read_claims,
)

__all__ = ["SolverReplies", "check_data"]


@dataclass
class SolverReplies:
    """The winner's reply at a position, found by the solver (with ``book`` as its store of
    settled positions): the first move after which the player to move loses; remembered."""

    n: int
    book: Book | None = None
    table_bits: int = 20
    found: dict[Masks, Reply | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.geo = geometry(self.n)
        self.solver = ProofSolver(self.n, table_bits=self.table_bits, proof_numbers=True)
        if self.book is not None and self.solver.core is not None:
            self.solver.core.disk = Store(self.book)

    def __call__(self, masks: Masks) -> Reply | None:
        if masks not in self.found:
            self.found[masks] = self._search(masks)
        return self.found[masks]

    def _search(self, masks: Masks) -> Reply | None:
        accepts = tuple(free_squares(masks, colour, self.geo) for colour in range(3))
        free = (accepts[0], accepts[1], accepts[2])
        for colour in range(3):
            for placement, block in fitting_blocks(free[colour], self.geo):
                if not self.solver.accepts_wins(after_block(free, colour, block, self.geo)):
                    return colour, (block & -block).bit_length() - 1, placement
        return None


def check_data(folder: Path, n: int, sample: int | None = None, seed: int = 0, brute_force: int = 10) -> str:
    """Check the claims of a data folder (all of each, or ``sample`` random lines in all, spread
    over the claims); a line saying what was checked, ProofError at the first failure."""
    started = time.perf_counter()
    claims = read_claims(folder)
    if not claims:
        raise ProofError(f"{folder} holds no settled first move or sub-problem to check")
    book = Book(folder, 0, "check")
    book.load()
    replies = SolverReplies(n, book)
    checker = ClaimChecker(n, replies, brute_force)
    if sample is None:
        for claim in claims:
            checker.check(claim)
        what = f"{len(claims)} claims in full"
    else:
        _sample(checker, claims, sample, random.Random(seed))
        what = f"{sample} random lines over {min(sample, len(claims))} of {len(claims)} claims (seed {seed})"
    return (
        f"data checked: {what} ({_kinds(claims)}), brute force at {brute_force} squares, "
        f"{len(replies.found):,} replies searched, {time.perf_counter() - started:.1f} s"
    )


def _sample(checker: ClaimChecker, claims: list[Claim], lines: int, rng: random.Random) -> None:
    """``lines`` random lines: one per claim in a random order, round after round."""
    order = rng.sample(claims, len(claims))
    for index in range(lines):
        checker.sample(order[index % len(order)], rng)


def _kinds(claims: list[Claim]) -> str:
    first_moves = sum(1 for claim in claims if len(claim.moves) == 1)
    return f"{first_moves} first moves, {len(claims) - first_moves} sub-problems"
