"""Differential tests: the engines against small, obviously correct implementations of the spec.

The reference classes below follow the spec texts sentence by sentence with dicts and loops;
random games are played on both, comparing everything the API shows after every step.
"""

from __future__ import annotations

import random
from itertools import product

import pytest

from bordspel import Hermit, Kluizenaar, Santorini, quarto
from bordspel.games.quarto.engine import DUTCH_PIECES, QuartoMove, QuartoState
from bordspel.games.santorini.engine import SantoriniState, Turn

NEIGHBOURS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
DIRECTIONS = dict(zip(["N", "NO", "O", "ZO", "Z", "ZW", "W", "NW"],
                      [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)]))  # fmt: skip


class ReferenceHermit:
    def __init__(self, n: int) -> None:
        self.n, self.board = n, {}  # type: ignore[var-annotated]

    def positions(self, square: tuple[int, int], placement: str) -> set[tuple[int, int]]:
        r, c = square
        return {"U": {(r, c)}, "H": {(r, c), (r, c + 1)}, "V": {(r, c), (r + 1, c)}}[placement]

    def isvalid(self, colour: str, square: tuple[int, int]) -> bool:
        r, c = square
        if not (0 <= r < self.n and 0 <= c < self.n) or square in self.board:
            return False
        return all(self.board.get((r + dr, c + dc)) != colour for dr, dc in NEIGHBOURS)

    def can(self, colour: str, square: tuple[int, int], placement: str) -> bool:
        return all(self.isvalid(colour, sq) for sq in self.positions(square, placement))

    def move(self, colour: str, square: tuple[int, int], placement: str) -> None:
        for sq in self.positions(square, placement):
            self.board[sq] = colour

    def possible_moves(self) -> set[tuple[str, tuple[int, int], str]]:
        squares = product(range(-1, self.n + 1), repeat=2)
        return {(k, sq, p) for sq in squares for k in "RYB" for p in "UHV" if self.can(k, sq, p)}

    def __str__(self) -> str:
        return "\n".join(" ".join(self.board.get((r, c), ".") for c in range(self.n)) for r in range(self.n))


@pytest.mark.parametrize("seed", range(12))
def test_hermit_against_reference(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 9)
    game, reference = (Kluizenaar(n), ReferenceHermit(n)) if seed % 2 else (Hermit(n), ReferenceHermit(n))
    while True:
        assert str(game) == str(reference)
        moves = reference.possible_moves()
        assert game.possible_moves() == moves
        for square in product(range(-1, n + 1), repeat=2):
            for colour in "RYB":
                assert game.isvalid(colour, square) == reference.isvalid(colour, square)
        if not moves:
            break
        attempt = (rng.choice("RYB"), (rng.randint(-1, n), rng.randint(-1, n)), rng.choice("UHV"))
        if attempt in moves:
            game.move(*attempt)
            reference.move(*attempt)
        else:
            with pytest.raises(AssertionError):
                game.move(*attempt)
            move = rng.choice(sorted(moves))
            game.move(*move)
            reference.move(*move)


class ReferenceSantorini:
    def __init__(self, positions: list[tuple[int, int]]) -> None:
        self.workers = {chr(65 + i): p for i, p in enumerate(positions)}
        self.height = {(r, c): 0 for r in range(5) for c in range(5)}

    def target(self, worker: str, direction: str) -> tuple[int, int] | None:
        if worker not in self.workers or direction not in DIRECTIONS:
            return None
        (r, c), (dr, dc) = self.workers[worker], DIRECTIONS[direction]
        square = (r + dr, c + dc)
        if square not in self.height or square in self.workers.values() or self.height[square] == 4:
            return None
        return square

    def move(self, worker: str, direction: str) -> bool:
        square = self.target(worker, direction)
        if square is None or self.height[square] > self.height[self.workers[worker]] + 1:
            return False
        self.workers[worker] = square
        return True

    def build(self, worker: str, direction: str) -> bool:
        square = self.target(worker, direction)
        if square is None:
            return False
        self.height[square] += 1
        return True

    def winner(self) -> str | None:
        return next((w for w in sorted(self.workers) if self.height[self.workers[w]] == 3), None)

    def __str__(self) -> str:
        where = {p: w for w, p in self.workers.items()}
        return "\n".join(
            "".join(where.get((r, c), str(self.height[(r, c)])) for c in range(5)) for r in range(5)
        )


@pytest.mark.parametrize("seed", range(12))
def test_santorini_board_against_reference(seed: int) -> None:
    rng = random.Random(seed)
    count = rng.choice((4, 6, 8))
    positions = rng.sample([(r, c) for r in range(5) for c in range(5)], count)
    game, reference = Santorini(positions), ReferenceSantorini(positions)
    for _ in range(300):
        worker = rng.choice("ABCDEFGHI"[: count + 1])
        direction = rng.choice([*DIRECTIONS, "NE", "E"])
        action, game_action = (
            (reference.move, game.verzet_arbeider)
            if rng.random() < 0.5
            else (reference.build, game.bouw_toren)
        )
        if action(worker, direction):
            game_action(worker, direction)
        else:
            with pytest.raises(AssertionError, match=r"^ongeldige zet$"):
                game_action(worker, direction)
        assert str(game) == str(reference)
        assert game.arbeiders == reference.workers
        assert game.winnende_arbeider() == reference.winner()
        assert all(game.niveau(w) == reference.height[p] for w, p in reference.workers.items())


def reference_turns(state: SantoriniState) -> set[Turn]:
    """Every legal turn, from the rules in words: move (one up at most), then build nearby."""
    heights = {c: int(ch) for c, ch in enumerate(state.to_str().split()[0].replace("/", ""))}
    occupied = {c for c in state.workers if c >= 0}
    turns = set()
    for source in state.my_workers():
        for dr, dc in NEIGHBOURS:
            r, c = divmod(source, 5)
            if not (0 <= r + dr < 5 and 0 <= c + dc < 5):
                continue
            target = (r + dr) * 5 + c + dc
            if target in occupied or heights[target] == 4 or heights[target] > heights[source] + 1:
                continue
            if heights[source] == 2 and heights[target] == 3:
                turns.add(Turn(source, target, None))
                continue
            for br, bc in NEIGHBOURS:
                tr, tc = divmod(target, 5)
                if 0 <= tr + br < 5 and 0 <= tc + bc < 5:
                    build = (tr + br) * 5 + tc + bc
                    if heights[build] < 4 and (build == source or build not in occupied):
                        turns.add(Turn(source, target, build))
    return turns


@pytest.mark.parametrize("seed", range(20))
def test_santorini_turns_against_reference(seed: int) -> None:
    rng = random.Random(seed)
    state = SantoriniState.initial(players=rng.choice((2, 3, 4)))
    while not state.is_over():
        if not state.in_setup:
            legal = reference_turns(state)
            assert set(state.legal_moves()) == legal
            for _ in range(20):
                cells = [rng.randrange(-1, 26) for _ in range(3)]
                turn = Turn(cells[0], cells[1], None if cells[2] == 25 else cells[2])
                assert state.is_legal(turn) == (turn in legal)
        state = state.apply(state.random_move(rng))


@pytest.mark.parametrize("seed", range(30))
def test_quarto_engine_against_spec_function(seed: int) -> None:
    rng = random.Random(seed)
    properties = {char: DUTCH_PIECES.properties(code) for code, char in enumerate(DUTCH_PIECES.chars)}
    state = QuartoState.initial(pieces=DUTCH_PIECES)
    while not state.is_over():
        config = state.config()
        assert {name for name, _ in state.winning_lines()} == {name for name, _ in quarto(config, properties)}
        moves = state.legal_moves()
        if state.hand >= 0:
            for move in moves:
                line_made = bool(quarto(_placed(config, move, state), properties))
                assert (move.give is None) == (line_made or (len(moves) == 1 and config.count(".") == 1))
        state = state.apply(rng.choice(moves))
    lines = quarto(state.config(), properties)
    outcome = state.outcome()
    assert outcome is not None and (outcome.winner is not None) == bool(lines)


def _placed(config: str, move: QuartoMove, state: QuartoState) -> str:
    assert move.square is not None
    char = state.pieces.chars[state.hand]
    return config[: move.square] + char + config[move.square + 1 :]
