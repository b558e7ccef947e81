"""An independent checker of Hermit proofs: it shares no code with the solvers.

A proof file (JSON lines) claims who wins one position: its first line is the header
``{"game": "hermit", "n": N, "start": [red, yellow, blue], "claim": "wins" | "loses",
"brute_force": K, ...}`` (the blocks of each colour as masks, bit ``n * r + c``; the claim is
about the player to move), and each further line gives the winner's reply in one position,
``{"at": [red, yellow, blue], "reply": [colour 0-2, cell, placement 0-2]}``.

The checker plays every move of the losing side and the stored reply of the winning side, down
to positions with at most K squares that still accept a block; those it settles by a brute-force
search of its own (every move, memoised, no regions, no symmetries, no Grundy theory). It uses
only the rules (``bordspel.games.hermit.rules``).

A solving run's data folder (``data/hermit-NxN``) holds claims without proofs: settled
sub-problems (``frontier.txt``) and settled first moves (``results.jsonl``), read here by
``read_claims``; ``bordspel.games.hermit.audit`` checks them claim by claim.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bordspel.core import BordspelError
from bordspel.games.hermit.rules import (
    COLOURS,
    PLACEMENTS,
    Geometry,
    after_block,
    block_at,
    fitting_blocks,
    free_squares,
    geometry,
)

__all__ = [
    "Claim",
    "ProofError",
    "ProofHeader",
    "Replies",
    "check_proof",
    "position_after",
    "read_claims",
    "read_proof",
]

Masks = tuple[int, int, int]
Reply = tuple[int, int, int]
"""A move as a proof gives it: colour 0-2, the block's top-left cell, placement 0-2."""
Replies = Callable[[Masks], Reply | None]
"""The winner's reply at a position (blocks as masks), or None if it has none."""


class ProofError(BordspelError):
    """A proof that does not prove its claim."""


@dataclass(frozen=True)
class ProofHeader:
    """What a proof claims: whether the player to move at ``start`` wins, on an n x n board."""

    n: int
    start: Masks
    wins: bool
    brute_force: int
    """Positions with at most this many live squares are settled by brute force."""


@dataclass
class _Checker:
    geo: Geometry
    replies: Replies
    brute_force: int
    settled: dict[tuple[Masks, bool], bool] = field(default_factory=dict)
    brute: dict[Masks, bool] = field(default_factory=dict)

    def accepts(self, masks: Masks) -> Masks:
        return (
            free_squares(masks, 0, self.geo),
            free_squares(masks, 1, self.geo),
            free_squares(masks, 2, self.geo),
        )

    def brute_wins(self, accepts: Masks) -> bool:
        """Whether the player to move wins, by trying every move."""
        known = self.brute.get(accepts)
        if known is None:
            known = any(
                not self.brute_wins(after_block(accepts, colour, block, self.geo))
                for colour, block in self._moves(accepts)
            )
            self.brute[accepts] = known
        return known

    def check(self, masks: Masks, mover_wins: bool) -> None:
        """Raise ProofError unless the proof shows that the player to move wins (or loses)."""
        if (masks, mover_wins) in self.settled:
            return
        accepts = self.accepts(masks)
        if (accepts[0] | accepts[1] | accepts[2]).bit_count() <= self.brute_force:
            if self.brute_wins(accepts) != mover_wins:
                raise ProofError(f"brute force disagrees with the proof at {_text(masks, self.geo)}")
        elif mover_wins:
            self.check(self._reply(masks, accepts), False)
        else:
            for colour, block in self._moves(accepts):
                self.check(_placed(masks, colour, block), True)
        self.settled[masks, mover_wins] = True

    def _moves(self, accepts: Masks) -> Iterator[tuple[int, int]]:
        """(colour, block) of every legal move."""
        for colour in range(3):
            for _, block in fitting_blocks(accepts[colour], self.geo):
                yield colour, block

    def _reply(self, masks: Masks, accepts: Masks) -> Masks:
        """The position after the proof's reply at ``masks``; ProofError if missing or illegal."""
        reply = self.replies(masks)
        if reply is None:
            raise ProofError(f"the proof has no reply for the winner at {_text(masks, self.geo)}")
        colour, cell, placement = reply
        fits = 0 <= colour < 3 and 0 <= placement < 3 and 0 <= cell < self.geo.n**2
        block = block_at(cell, placement, self.geo) if fits and self.geo.fits[placement] >> cell & 1 else 0
        if not block or block & accepts[colour] != block:
            raise ProofError(f"the reply {reply} is not a legal move at {_text(masks, self.geo)}")
        return _placed(masks, colour, block)


def _placed(masks: Masks, colour: int, block: int) -> Masks:
    out = list(masks)
    out[colour] |= block
    return out[0], out[1], out[2]


def _text(masks: Masks, geo: Geometry) -> str:
    """A position as rows joined by ``/`` (the engine's notation)."""
    cells = ["RYB"[c] if masks[c] >> i & 1 else "" for i in range(geo.n**2) for c in range(3)]
    squares = ["".join(cells[3 * i : 3 * i + 3]) or "." for i in range(geo.n**2)]
    return "/".join("".join(squares[r * geo.n : (r + 1) * geo.n]) for r in range(geo.n))


def _masks(value: object) -> Masks:
    if not (isinstance(value, list) and len(value) == 3 and all(isinstance(v, int) for v in value)):
        raise ProofError(f"a position is three masks [red, yellow, blue], not {value!r}")
    return value[0], value[1], value[2]


def read_proof(lines: Iterable[str]) -> tuple[ProofHeader, dict[Masks, tuple[int, int, int]]]:
    """The claim and the replies of a proof file's lines."""
    rows = [json.loads(line) for line in lines if line.strip()]
    if not rows or rows[0].get("game") != "hermit":
        raise ProofError('a Hermit proof starts with a header line {"game": "hermit", ...}')
    head = rows[0]
    header = ProofHeader(
        int(head["n"]), _masks(head["start"]), head["claim"] == "wins", int(head["brute_force"])
    )
    replies = {}
    for row in rows[1:]:
        colour, cell, placement = row["reply"]
        replies[_masks(row["at"])] = (int(colour), int(cell), int(placement))
    return header, replies


def check_proof(path: Path) -> ProofHeader:
    """Check a proof file; its header when the proof holds, else ProofError saying where not."""
    try:
        with path.open() as lines:
            header, replies = read_proof(lines)
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ProofError(f"cannot read the proof {path}: {error}") from None
    checker = _Checker(geometry(header.n), replies.get, header.brute_force)
    with _deep_recursion(header.n):
        checker.check(header.start, header.wins)
    return header


@dataclass(frozen=True)
class Claim:
    """A data folder's claim: after ``moves`` from the empty board, whether the first player
    wins with best play."""

    moves: tuple[str, ...]
    first_wins: bool

    def __str__(self) -> str:
        return f"{' '.join(self.moves)} {'first' if self.first_wins else 'second'}"


def read_claims(folder: Path) -> list[Claim]:
    """The claims of a data folder: its settled first moves (``results.jsonl``), then its settled
    sub-problems (``frontier.txt``)."""
    claims = []
    results, frontier = folder / "results.jsonl", folder / "frontier.txt"
    try:
        for line in results.read_text().splitlines() if results.exists() else []:
            if line.strip():
                row = json.loads(line)
                claims.append(Claim((str(row["move"]),), bool(row["wins"])))
        for line in frontier.read_text().splitlines() if frontier.exists() else []:
            if line.strip() and not line.startswith("#"):
                *moves, winner = line.split()
                if winner not in ("first", "second"):
                    raise ValueError(f"{line!r} does not end in first or second")
                claims.append(Claim(tuple(moves), winner == "first"))
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ProofError(f"cannot read the claims of {folder}: {error}") from None
    return claims


def position_after(n: int, moves: Iterable[str]) -> Masks:
    """The blocks after ``moves`` (like ``Rc3H``: colour, column letter, row from 1 at the top,
    placement U, H or V) from the empty n x n board; ProofError at an illegal one."""
    geo, masks = geometry(n), (0, 0, 0)
    for move in moves:
        colour, cell, placement = _parsed(move, n)
        block = block_at(cell, placement, geo) if geo.fits[placement] >> cell & 1 else 0
        if not block or block & free_squares(masks, colour, geo) != block:
            raise ProofError(f"{move} is not a legal move at {_text(masks, geo)}")
        masks = _placed(masks, colour, block)
    return masks


def _parsed(move: str, n: int) -> Reply:
    """Colour, cell and placement of a move's text."""
    colour, column, row, placement = move[:1], move[1:2], move[2:-1], move[-1:]
    if colour not in COLOURS or placement not in PLACEMENTS or not row.isdigit():
        raise ProofError(f"{move!r} is not a Hermit move like Rc3H")
    r, c = int(row) - 1, ord(column) - ord("a")
    if not (0 <= r < n and 0 <= c < n):
        raise ProofError(f"{move!r} is off the {n}x{n} board")
    return COLOURS.index(colour), r * n + c, PLACEMENTS.index(placement)


def _mover_wins(claim: Claim) -> bool:
    """Whether the player to move after the claim's moves wins, by the claim."""
    return claim.first_wins == (len(claim.moves) % 2 == 0)


@contextmanager
def _deep_recursion(n: int) -> Iterator[None]:
    """Room for a recursion as deep as the longest game on an n x n board."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * n**2 + 1000))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)
