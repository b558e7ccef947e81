"""Solving Quarto over workers: the tree of leaves, the two null-window tests, the CLI."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from bordspel.ai.arena import SerialBackend
from bordspel.cli import main
from bordspel.games.quarto.ai import PureQuartoSolver, canonical_key, random_choice_position
from bordspel.games.quarto.rules import board_symmetries
from bordspel.games.quarto.solve import LeafTask, Node, Run, Searched, SplitSolver


@pytest.mark.parametrize("advanced", [False, True])
@pytest.mark.parametrize("placed", [8, 10, 11])
def test_split_values_and_best_moves_are_the_one_process_ones(placed: int, advanced: bool) -> None:
    for seed in range(3):
        board, available = random_choice_position(placed, random.Random(50 * placed + seed), advanced)
        piece = random.Random(seed).choice([p for p in range(16) if available >> p & 1])
        for hand, rest in ((-1, available), (piece, available & ~(1 << piece))):
            split = SplitSolver(SerialBackend().run, advanced=advanced)
            got, _ = split.solve(board, hand, rest)
            reference = PureQuartoSolver(advanced)
            want = (
                reference.solve_choice(board, rest)
                if hand < 0
                else reference.solve_placement(board, hand, rest)
            )
            assert (got.score, got.result, got.distance, got.best) == (
                want.score,
                want.result,
                want.distance,
                want.best,
            )


def test_images_share_a_key_and_the_hand_counts() -> None:
    board, available = random_choice_position(5, random.Random(4), False)
    symmetries = board_symmetries()
    hand = next(p for p in range(16) if available >> p & 1)
    key = canonical_key(board, symmetries, hand)
    for perm in symmetries:
        image = [board[old] ^ 0b1010 if board[old] >= 0 else -1 for old in perm]
        assert canonical_key(image, symmetries, hand ^ 0b1010) == key
    others = {canonical_key(board, symmetries, p) for p in range(16) if available >> p & 1}
    assert len(others) > 1 and canonical_key(board, symmetries) not in others


def counting(log: list[LeafTask]) -> Run:
    """A serial run that logs the tasks it starts."""

    def run(work: Callable[[LeafTask], Searched], tasks: list[LeafTask]) -> Iterator[Searched]:
        for task in tasks:
            log.append(task)
            yield work(task)

    return run


def test_a_draw_takes_one_refutation_and_every_leaf_that_holds() -> None:
    board, available = random_choice_position(6, random.Random(12), False)
    log: list[LeafTask] = []
    split = SplitSolver(counting(log), tasks=8)
    solution, root = split.solve(board, -1, available)
    assert solution.result == "draw"
    win_tests = [task for task in log if task.threshold == 1]
    draw_tests = [task for task in log if task.threshold == 0]
    leaves = {node.key for node in _leaves(root)}
    assert 1 <= len(win_tests) < len(leaves)
    assert len(draw_tests) <= len(leaves) and not [task for task in log if task.threshold is None]


def _leaves(root: Node) -> list[Node]:
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        if node.is_leaf:
            found.append(node)
        stack.extend(child for _, child in node.children)
    return found


def test_cli_with_workers_gives_the_one_process_answer(capsys: pytest.CaptureFixture[str]) -> None:
    position = "ACE./B.../..../.... hand=G"
    assert main(["solve", "quarto", position]) == 0
    alone = capsys.readouterr().out.splitlines()[0]
    assert main(["solve", "quarto", position, "--workers", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == alone
