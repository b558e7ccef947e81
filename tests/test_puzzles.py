"""The puzzle generator: the same game, count and seed write the same file, byte for byte, and
every puzzle it writes is a forced win by the game's proof with a wrong move to avoid."""

from __future__ import annotations

from pathlib import Path

import pytest

from bordspel import new_game
from bordspel.games.hermit import puzzles as hermit_puzzles
from bordspel.puzzles import Puzzle, proof_of, winning_moves
from bordspel.puzzles.make import main


@pytest.mark.parametrize("game", ["hermit", "quarto", "santorini"])
def test_the_generator_writes_the_same_puzzles_again_from_the_same_seed(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hermit_puzzles, "SIZES", (4,))  # 5x5 games take the solver longer
    first, again, other = tmp_path / "first.jsonl", tmp_path / "again.jsonl", tmp_path / "other.jsonl"
    for out, seed in ((first, "5"), (again, "5"), (other, "6")):
        main(["--game", game, "--count", "4", "--seed", seed, "--out", str(out)])
    assert first.read_bytes() == again.read_bytes() != other.read_bytes()
    puzzles = [Puzzle.from_json(line) for line in first.read_text().splitlines()]
    assert len(puzzles) == 4 and {puzzle.game for puzzle in puzzles} == {game}
    proof = proof_of(game)
    for puzzle in puzzles:
        assert proof.plies(puzzle.state()) == puzzle.distance
        assert len(winning_moves(proof, puzzle.state(), puzzle.distance)) == puzzle.winning
        assert puzzle.winning * 2 <= puzzle.moves


@pytest.mark.parametrize("size", [2, 3, 6])
def test_hermit_positions_of_other_board_sizes_are_no_puzzles(size: int) -> None:
    """Found by an attacker (2026-11-29): throw-away 2x2 games gave the site puzzles of an empty
    board. Only the shipped sizes (4x4, 5x5) make puzzles."""
    assert proof_of("hermit").plies(new_game("hermit", size=size)) is None
