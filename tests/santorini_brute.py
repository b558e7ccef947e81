"""A brute-force Santorini for two players with the ten simple gods, written from the cards.

It shares no code with the engine: positions are read from their text, every action sequence a
card allows is played out square by square, and the positions they lead to are collected in a
set (turns that lead to the same position are one turn, as in the engine). The supply is
unlimited. Used by the tests to check the turn generator's moves and perft counts.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

SIZE = 5


class Position(NamedTuple):
    blocks: tuple[int, ...]
    """Blocks on each cell (0-3)."""
    domes: frozenset[int]
    workers: tuple[int, ...]
    """Cells of workers A, B (seat 0) and C, D (seat 1)."""
    turn: int
    """The seat to move; -1 once the game is over."""
    gods: tuple[str, str]
    up: int
    """The seats whose Athena moved up on her last turn, as bits."""
    winner: int | None = None


def parse(text: str) -> Position:
    """A position from the engine's text (two players, simple gods or none)."""
    board, *fields = text.split()
    named = dict(field.split("=") for field in fields)
    blocks, domes = [], set()
    for cell, char in enumerate(board.replace("/", "")):
        value = int(char)
        blocks.append(value if value < 4 else 3 if value == 4 else value - 5)
        if value >= 4:
            domes.add(cell)
    squares = named["workers"].replace(",", "")
    workers = tuple(_cell(squares[i : i + 2]) for i in range(0, len(squares), 2))
    gods = tuple(name.partition(":")[0] for name in named["gods"].split(","))
    up = sum(1 << (int(seat) - 1) for seat in named.get("up", "").split(",") if seat)
    winner = int(named["won"]) - 1 if "won" in named else None
    turn = -1 if winner is not None else int(named["turn"]) - 1
    return Position(tuple(blocks), frozenset(domes), workers, turn, (gods[0], gods[1]), up, winner)


def _cell(square: str) -> int:
    return (int(square[1]) - 1) * SIZE + ord(square[0]) - ord("a")


def neighbours(cell: int) -> Iterator[int]:
    row, col = divmod(cell, SIZE)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and 0 <= row + dr < SIZE and 0 <= col + dc < SIZE:
                yield (row + dr) * SIZE + col + dc


def beyond(source: int, target: int) -> int | None:
    """The cell one step further from ``source`` through ``target``, None off the board."""
    (r1, c1), (r2, c2) = divmod(source, SIZE), divmod(target, SIZE)
    row, col = 2 * r2 - r1, 2 * c2 - c1
    return row * SIZE + col if 0 <= row < SIZE and 0 <= col < SIZE else None


Board = tuple[tuple[int, ...], frozenset[int], tuple[int, ...]]


def is_free(board: Board, cell: int) -> bool:
    return cell not in board[1] and cell not in board[2]


def moved(board: Board, worker: int, cell: int) -> Board:
    workers = list(board[2])
    workers[worker] = cell
    return board[0], board[1], tuple(workers)


def built(board: Board, cell: int, dome: bool = False) -> Board:
    blocks, domes, workers = board
    if dome or blocks[cell] == 3:
        return blocks, domes | {cell}, workers
    return blocks[:cell] + (blocks[cell] + 1,) + blocks[cell + 1 :], domes, workers


def steps(board: Board, worker: int, god: str, no_up: bool) -> Iterator[tuple[Board, bool, bool]]:
    """One step of ``worker``: the board after it, whether it went up, whether it won."""
    blocks, domes, workers = board
    source = workers[worker]
    for target in neighbours(source):
        rise = blocks[target] - blocks[source]
        if target in domes or rise > (0 if no_up else 1):
            continue
        after = moved(board, worker, target)
        if target in workers:
            other = workers.index(target)
            if other // 2 == worker // 2:
                continue
            if god == "apollo":
                after = moved(after, other, source)
            elif god == "minotaur":
                push = beyond(source, target)
                if push is None or not is_free(board, push):
                    continue
                after = moved(after, other, push)
            else:
                continue
        won = (blocks[source], blocks[target]) == (2, 3) or (god == "pan" and -rise >= 2)
        yield after, rise > 0, won


def moves(board: Board, worker: int, god: str, no_up: bool) -> Iterator[tuple[Board, bool, bool]]:
    """The move part of a turn (Artemis: a second step, not back to the start)."""
    for after, up, won in steps(board, worker, god, no_up):
        yield after, up, won
        if god == "artemis" and not won:
            for again, up2, won2 in steps(after, worker, god, no_up):
                if again[2][worker] != board[2][worker]:
                    yield again, up or up2, won2


def builds(board: Board, worker: int, god: str) -> Iterator[Board]:
    """The build part of a turn by ``worker`` (Atlas, Demeter, Hephaestus)."""
    for cell in neighbours(board[2][worker]):
        if not is_free(board, cell):
            continue
        first = built(board, cell)
        yield first
        if god == "atlas":
            yield built(board, cell, dome=True)
        if god == "hephaestus" and cell not in first[1] and first[0][cell] < 3:
            yield built(first, cell)
        if god == "demeter":
            for other in neighbours(board[2][worker]):
                if other != cell and is_free(first, other):
                    yield built(first, other)


def hermes_boards(board: Board, mine: tuple[int, int]) -> set[Board]:
    """Every board the workers reach by steps on their own level, in any order."""
    found, todo = {board}, [board]
    while todo:
        current = todo.pop()
        for worker in mine:
            source = current[2][worker]
            for target in neighbours(source):
                same = current[0][target] == current[0][source]
                if same and is_free(current, target):
                    after = moved(current, worker, target)
                    if after not in found:
                        found.add(after)
                        todo.append(after)
    return found


def turns(position: Position) -> Iterator[tuple[Board, bool, bool]]:
    """Every turn of the player to move: the board after it, whether it moved up, whether it won."""
    seat = position.turn
    god, foe = position.gods[seat], position.gods[1 - seat]
    no_up = foe == "athena" and bool(position.up >> (1 - seat) & 1)
    board: Board = (position.blocks, position.domes, position.workers)
    mine = (2 * seat, 2 * seat + 1)
    for worker in mine:
        starts = [(board, no_up)]
        if god == "prometheus":
            starts += [(b, True) for b in builds(board, worker, "")]
        for start, capped in starts:
            for after, up, won in moves(start, worker, god, capped):
                if won:
                    yield after, up, True
                else:
                    yield from ((b, up, False) for b in builds(after, worker, god))
    if god == "hermes":
        for after in hermes_boards(board, mine):
            for worker in mine:
                yield from ((b, False, False) for b in builds(after, worker, ""))


def children(position: Position) -> set[Position]:
    """The positions after each turn of the player to move."""
    seat = position.turn
    found = set()
    for (blocks, domes, workers), up, won in turns(position):
        bits = position.up & ~(1 << seat) | (1 << seat if up and position.gods[seat] == "athena" else 0)
        after = Position(blocks, domes, workers, 1 - seat, position.gods, bits)
        if won or next(turns(after), None) is None:
            after = after._replace(turn=-1, winner=seat)
        found.add(after)
    return found


def perft(position: Position, depth: int) -> int:
    """The number of turn sequences of length ``depth`` (turns to the same position counted once)."""
    if position.winner is not None:
        return 0
    following = children(position)
    return len(following) if depth == 1 else sum(perft(child, depth - 1) for child in following)
