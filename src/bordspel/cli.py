"""The ``bordspel`` command: demo games, perft, replaying records, listing games."""

from __future__ import annotations

import argparse
import functools
import inspect
import os
import random
import socket
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bordspel.core import BordspelError, Move, Part, State, available_games, game_class, game_part, part_path
from bordspel.game_options import option_defaults, parse_options

__all__ = ["SOLVER_PART", "Solver", "main"]


@dataclass(frozen=True)
class Solver:
    """A game's ``bordspel solve GAME`` command: what it does, its own arguments, and the run
    (``--workers``, ``--backend`` and ``--address`` are added for every game)."""

    summary: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    solve: Callable[[argparse.Namespace], None]
    verify: Callable[[Path, str, int | None, int], str] | None = None
    """``bordspel verify GAME[-VARIANT] FILE [--sample N --seed S]``: check a proof file (or data
    folder) the solver wrote (the variant, such as ``6x6``, must be the file's), in full or ``N``
    random parts of it; a line saying what it proves, BordspelError if not."""


SOLVER_PART: Part[Solver] = Part(
    "solver",
    "a bordspel.cli.Solver",
    lambda found: callable(getattr(found, "add_arguments", None)) and callable(getattr(found, "solve", None)),
)
"""The ``solver`` part of a GameSpec (by convention ``<package>.cli:SOLVER``)."""


def _show(state: State, colour: bool, last: Move | None = None) -> str:
    from bordspel.play import picture

    return picture(state, colour, last)


def cmd_games(args: argparse.Namespace) -> int:
    for name in available_games():
        print(f"{name:10} options: {_option_list(game_class(name))}")
    return 0


def _option_list(cls: type[State]) -> str:
    params = inspect.signature(cls.initial).parameters.values()
    return ", ".join(f"{p.name}={p.default}" for p in params if p.default is not p.empty)


def cmd_demo(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    state = game_class(args.game).initial(**parse_options(args.game, args.option))
    colour = sys.stdout.isatty() and not args.plain
    move = None
    while not state.is_over():
        move = state.random_move(rng)
        print(f"player {state.to_move + 1} plays {move.to_str()}")
        state = state.apply(move)
    print(_show(state, colour, move))
    outcome = state.outcome()
    assert outcome is not None
    print(f"result {outcome.result_str()} ({outcome.termination})")
    return 0


def cmd_perft(args: argparse.Namespace) -> int:
    state = game_class(args.game).initial(**parse_options(args.game, args.option))
    if args.position:
        state = game_class(args.game).from_str(args.position)
    for depth in range(1, args.depth + 1):
        started = time.perf_counter()
        count = state.perft(depth)
        seconds = time.perf_counter() - started
        print(f"depth {depth}: {count:,} ({seconds:.3f} s)", flush=True)
    return 0


def cmd_analyse(args: argparse.Namespace) -> int:
    from bordspel.ai import Limit, analyser

    state = game_class(args.game).from_str(args.position) if args.position else new_game_from(args)
    if state.is_over():
        raise BordspelError("the game is over in this position: there is nothing to analyse")
    player = analyser(args.player, args.game, seed=args.seed)
    given = args.time is not None or args.depth is not None or args.nodes is not None
    limit = Limit(args.time, args.depth, args.nodes) if given else None
    if args.multipv < 1:
        raise BordspelError(f"--multipv is the number of lines to show, 1 or more, not {args.multipv}")
    for result in player.analysis(state, limit, args.multipv):
        line = " ".join(move.to_str() for move in result.principal_variation)
        rank = f"line {result.multipv}  " if args.multipv > 1 else ""
        print(
            f"{rank}depth {result.depth:2}  {result.describe():18} nodes {result.nodes:>9,}  "
            f"{result.seconds:6.2f} s  {line}{'  (proven)' if result.proven else ''}",
            flush=True,
        )
    return 0


def cmd_engine(args: argparse.Namespace) -> int:
    from bordspel.engine.server import serve

    serve(args.game, args.player)
    return 0


def new_game_from(args: argparse.Namespace) -> State:
    """The starting position of ``args.game`` with the ``-o`` options."""
    return game_class(args.game).initial(**parse_options(args.game, args.option))


def cmd_show(args: argparse.Namespace) -> int:
    from bordspel.record import Game

    game = Game.read(args.record)
    colour = sys.stdout.isatty() and not args.plain
    if args.svg:
        from bordspel import svg

        folder = Path(args.svg)
        folder.mkdir(parents=True, exist_ok=True)
        for ply, state in enumerate(game.states):
            (folder / f"{ply:03d}.svg").write_text(svg.render(state), encoding="utf-8")
        print(f"wrote {len(game.states)} pictures to {folder}/")
        return 0
    for ply, state in enumerate(game.states):
        if ply:
            print(f"\n{ply}. {game.moves[ply - 1].to_str()}")
        if args.all or ply == len(game.states) - 1:
            print(_show(state, colour, game.moves[ply - 1] if ply else None))
    outcome = game.outcome()
    print(f"result {outcome.result_str() if outcome else '*'}")
    return 0


def cmd_arena(args: argparse.Namespace) -> int:
    from bordspel.ai.arena import BACKENDS, run_arena

    options = parse_options(args.game, args.option)
    backend = BACKENDS[args.backend](args.workers, **({"address": args.address} if args.address else {}))
    records = Path(args.records) if args.records else None
    standings = run_arena(
        args.game,
        args.players,
        args.games,
        seed=args.seed,
        options=options,
        backend=backend,
        records=records,
        opening=args.opening,
    )
    print(standings.table())
    print(standings.summary())
    return 0


def cmd_train(args: argparse.Namespace) -> int:
    try:
        from bordspel.zero.train import train_from_arguments
    except ImportError as error:
        raise SystemExit(
            f"bordspel train needs the train extra ({error.name} is missing): pip install 'bordspel[train]'"
        ) from None
    return train_from_arguments(args)


def add_train_command(game_command: Callable[[str, str], argparse.ArgumentParser]) -> None:
    """``bordspel train GAME``: AlphaZero-style self-play (docs/training.md)."""
    train = game_command("train", "train a network by self-play (needs the train extra)")
    train.add_argument("--out", metavar="DIR", help="the run's folder (default runs/GAME-OPTIONS); resumes")
    train.add_argument("--minutes", type=float, default=30.0, help="training time in all (default 30)")
    train.add_argument("--rounds", type=int, default=None, help="stop after this many more rounds")
    train.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    train.add_argument("--threads", type=int, default=1, help="PyTorch's CPU threads (default 1)")
    train.add_argument(
        "--actors", type=int, default=0,
        help="self-play actor processes apart from the learner (default 0: self-play in the learner's)",
    )  # fmt: skip
    train.add_argument(
        "--ray", metavar="ADDRESS", default=None,
        help="the actors as Ray actors on the cluster at ADDRESS ('auto': this machine's; the ray extra)",
    )  # fmt: skip
    for name, kind, text in TRAIN_SETTINGS:
        train.add_argument(f"--{name.replace('_', '-')}", dest=name, type=kind, default=None, help=text)
    train.add_argument(
        "--engine-self-play", dest="vector", action="store_const", const=False, default=None,
        help="self-play on the Python engine, not on the game's compiled batch (the reference)",
    )  # fmt: skip
    train.set_defaults(run=cmd_train)


TRAIN_SETTINGS: list[tuple[str, Callable[[str], Any], str]] = [
    ("games", int, "self-play games a round, played at once (default 64)"),
    ("simulations", int, "search simulations a move in self-play (default 32)"),
    ("width", int, "the network's channels (default 32)"),
    ("blocks", int, "the network's residual blocks (default 3)"),
    ("match_games", int, "games against each opponent at a measurement (default 20)"),
    ("match_minutes", float, "minutes between matches against the opponents (default 5)"),
    ("match_opening", int, "random plies opening each pair of match games (default 2)"),
    ("seed", int, "the run's seed (default 0)"),
    ("gumbel", int, "root moves Gumbel sequential halving considers in self-play (default 0: PUCT)"),
    ("resign", float, "resign below this search value, negated (default 0: never)"),
    ("schedule", str, "the learning rate by round: constant (default), cosine or step"),
    (
        "schedule_rounds",
        int,
        "cosine falls to a tenth over this many rounds, step a tenth every (default 100)",
    ),
    (
        "gate_games",
        int,
        "publish a round's network only if it wins a duel of this many games (default 0: always)",
    ),
    ("gate_margin", float, "the score the duel needs to publish (default 0.55)"),
]


def solvable_games() -> list[str]:
    """The games whose GameSpec has an exact solver for ``bordspel solve``."""
    return [name for name in available_games() if part_path(name, SOLVER_PART.field) is not None]


def add_solve_command(commands: Any) -> None:
    """``bordspel solve GAME ...``: one sub-command per game with a solver, its arguments its own."""
    solve = commands.add_parser("solve", help=f"solve exactly: {', '.join(solvable_games())}")
    games = solve.add_subparsers(dest="game", required=True, metavar="GAME")
    for name in solvable_games():
        solver = game_part(name, SOLVER_PART)
        assert solver is not None  # solvable_games() lists only games with a solver
        sub = games.add_parser(name, help=solver.summary, description=solver.summary)
        solver.add_arguments(sub)
        sub.add_argument(
            "--workers", type=int, default=1, help="worker processes (or Ray tasks) to share the work"
        )
        sub.add_argument(
            "--backend", choices=["local", "ray"], default="local", help="local processes or Ray tasks"
        )
        sub.add_argument("--address", help="with --backend ray: the address of an existing Ray cluster")
        sub.set_defaults(run=functools.partial(run_solver, solver))


def add_verify_command(commands: Any) -> None:
    """``bordspel verify GAME[-VARIANT] FILE``: a proof checked by the game's own checker."""
    games = [name for name in solvable_games() if _verifier(name) is not None]
    verify = commands.add_parser("verify", help=f"check a solver's proof file: {', '.join(games)}")
    verify.add_argument(
        "target", metavar="GAME[-VARIANT]", help="the game, optionally with the variant, like hermit-6x6"
    )
    verify.add_argument("file", type=Path, help="the proof file (or a run's data folder)")
    verify.add_argument(
        "--sample",
        type=int,
        nargs="?",
        const=30,
        metavar="N",
        help="check N random parts (30 if no N), not all",
    )
    verify.add_argument("--seed", type=int, default=0, help="the random seed of --sample (default 0)")
    verify.set_defaults(run=cmd_verify)


def _verifier(game: str) -> Callable[[Path, str, int | None, int], str] | None:
    solver = game_part(game, SOLVER_PART)
    return None if solver is None else solver.verify


def cmd_verify(args: argparse.Namespace) -> int:
    game, _, variant = args.target.partition("-")
    verify = _verifier(game) if game in solvable_games() else None
    if verify is None:
        raise BordspelError(
            f"no proof checker for {game!r}: bordspel verify --help lists the games that have one"
        )
    print(verify(args.file, variant, args.sample, args.seed))
    return 0


def run_solver(solver: Solver, args: argparse.Namespace) -> int:
    solver.solve(args)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from bordspel.ai import make_player
    from bordspel.play import Session, seats_for
    from bordspel.record import Game

    state = game_class(args.game).initial(**parse_options(args.game, args.option))
    seats = seats_for(state.num_players, args.seat, args.vs, args.hotseat, args.player)
    for spec in seats:
        if spec != "human":
            make_player(spec, args.game)  # refuse unknown players at once
    colour = sys.stdout.isatty() and not args.plain
    return Session(Game(state), seats, colour=colour, hint=args.hint, seed=args.seed).run()


def cmd_serve(args: argparse.Namespace) -> int:
    _environment_checked(args)
    try:
        from bordspel.web.app import ApiSettings
        from bordspel.web.db import hide_password
        from bordspel.web.server import ConnectionLimits, serve
    except ImportError:
        raise BordspelError("the browser app needs the web extra: pip install 'bordspel[web]'") from None
    listener = _listen(args.host, args.port)
    settings = ApiSettings(
        ai_time=args.ai_time,
        job_workers=args.job_workers,
        graph_workers=1,
        job_lease=args.lease,
        games_per_minute=args.games_per_minute or None,
        signups_per_hour=args.signups_per_hour or None,
        secret=args.secret or os.environ.get("BORDSPEL_SECRET") or None,
        max_queued_jobs=args.max_queued_jobs,
    )
    db = _db_location(args)
    address = f"http://{args.host}:{listener.getsockname()[1]}/"
    processes = f"{args.workers} processes, " if args.workers > 1 else ""
    where = hide_password(db)
    print(f"bordspel is serving on {address}  ({processes}games stored in {where}; Ctrl-C stops)", flush=True)
    hosts, origins, logs = args.allowed_host, args.allowed_origin, (args.log_format, args.log_level)
    serve(
        listener,
        args.workers,
        db,
        settings,
        logs,
        allowed_hosts=hosts,
        allowed_origins=origins,
        pubsub=args.pubsub,
        forwarded_allow_ips=args.forwarded_allow_ips,
        limits=ConnectionLimits(args.body_timeout, args.max_connections, args.connections_per_address),
    )
    return 0


def cmd_worker(args: argparse.Namespace) -> int:
    _environment_checked(args)
    try:
        from bordspel.web.db import hide_password
        from bordspel.web.jobs import run_worker
        from bordspel.web.logs import configure_logging
        from bordspel.web.profiles import keep_results
        from bordspel.web.store import GameStore
    except ImportError:
        raise BordspelError("the worker needs the web extra: pip install 'bordspel[web]'") from None
    db = _db_location(args)
    configure_logging(args.log_format, args.log_level.upper())
    store = keep_results(GameStore(db, pubsub=args.pubsub))  # its moves reach the streams as the site's do
    run_worker(store, args.ai_time, args.job_workers, args.lease, hide_password(db))
    return 0


def _connection_arguments(serve: argparse.ArgumentParser) -> None:
    """How long a request's body may take and how many connections are held open at once."""
    serve.add_argument(
        "--body-timeout",
        type=_positive,
        default=10.0,
        metavar="SECONDS",
        help="seconds a client has to send a request's whole body after its headers (default 10; then 408)",
    )
    serve.add_argument(
        "--max-connections",
        type=_count,
        metavar="N",
        help="connections each web process holds open at most; past it a new one is refused at once "
        "(default 4096, at most half the open-file limit)",
    )
    serve.add_argument(
        "--connections-per-address",
        type=_count,
        default=64,
        metavar="N",
        help="connections one address may hold open in each web process (default 64; the "
        "--forwarded-allow-ips proxies are not held to it)",
    )


def _job_arguments(parser: argparse.ArgumentParser, workers: str, lowest: int) -> None:
    """The store, the computer's time and its workers: options of ``serve`` and ``worker``."""
    _add_db_argument(parser)
    parser.add_argument(
        "--pubsub",
        metavar="URL",
        help="a redis:// URL for live updates between processes (default: through the database)",
    )
    parser.add_argument(
        "--ai-time", type=_positive, default=10.0, metavar="SECONDS", help="the computer's time per move"
    )
    parser.add_argument(
        "--job-workers",
        type=int,
        default=2,
        choices=range(lowest, 17),
        metavar="N",
        help=f"{workers} (default 2)",
    )
    parser.add_argument(
        "--lease",
        type=_positive,
        default=10.0,
        metavar="SECONDS",
        help="how long a worker holds a move it does not renew before another may take it (default 10)",
    )
    parser.add_argument(
        "--log-format", choices=("json", "text"), default="text", help="logs on stderr: JSON lines or text"
    )
    parser.add_argument(
        "--log-level",
        choices=("debug", "info", "warning", "error"),
        default="warning",
        help="info logs every request and every computer move (default warning)",
    )


def _from_environment(parser: argparse.ArgumentParser) -> None:
    """Defaults of ``parser``'s options from ``BORDSPEL_<OPTION>`` variables (a flag still wins):
    ``BORDSPEL_DB``, ``BORDSPEL_AI_TIME``, ... (a list option takes commas). A bad value becomes
    an error that ``_environment_checked`` raises when the command runs."""
    for action in parser._actions:
        if not action.option_strings or action.nargs == 0:
            continue  # positionals, switches (--help, --no-workers: BORDSPEL_JOB_WORKERS=0 says it)
        name = "BORDSPEL_" + max(action.option_strings, key=len).lstrip("-").upper().replace("-", "_")
        action.help = f"{action.help or ''} [{name}]".strip()
        if name in os.environ:
            action.default = _environment_value(action, name, os.environ[name])


def _environment_value(action: argparse.Action, name: str, text: str) -> Any:
    convert: Callable[[str], Any] = action.type if callable(action.type) else str
    many = isinstance(action, argparse._AppendAction)
    try:
        values = [convert(part.strip()) for part in text.split(",")] if many else [convert(text)]
    except (ValueError, argparse.ArgumentTypeError) as error:
        return BordspelError(f"{name}={text!r}: {error} (fix or unset it)")
    if action.choices is not None and any(value not in action.choices for value in values):
        return BordspelError(f"{name}={text!r} is not one of the values {action.option_strings[0]} takes")
    return values if many else values[0]


def _environment_checked(args: argparse.Namespace) -> argparse.Namespace:
    """``args``, once no option's value is a bad environment variable's error."""
    for value in vars(args).values():
        if isinstance(value, BordspelError):
            raise value
    return args


def _db_location(args: argparse.Namespace) -> str:
    """``--db``: a PostgreSQL URL or an SQLite file (default: the one in your data folder)."""
    from bordspel.web.store import default_db_path

    return str(args.db or default_db_path())


def cmd_db(args: argparse.Namespace) -> int:
    """``bordspel db upgrade|status``: bring a store's schema up to date, or say where it stands."""
    _environment_checked(args)
    from bordspel.web.db import open_database, schema_status, upgrade
    from bordspel.web.migrations import BASE, LATEST, MIGRATIONS

    location = _db_location(args)
    if "://" not in location and not Path(location).exists() and args.action == "status":
        print(f"{location}: no database yet (bordspel db upgrade or bordspel serve makes it)")
        return 0
    db = open_database(location)
    try:
        if args.action == "upgrade":
            before, after = upgrade(db, BASE, MIGRATIONS)
            done = f"upgraded from schema {before} to {after}" if before < after else "up to date"
            print(f"{db.describe()}: {done} (schema {after})")
        else:
            print(schema_status(db, LATEST))
    finally:
        db.close()
    return 0


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; a clear error when the port is taken."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        listener = socket.socket(family, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(128)
    except OSError as error:
        raise BordspelError(
            f"cannot serve on {host}:{port}: {error.strerror or error} (is another server using it?)"
        ) from None
    return listener


def _positive(text: str) -> float:
    value = float(text)
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError("give a number of seconds from 0 to 3600")
    return value


def _count(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("give a whole number of at least 1")
    return value


def add_game_option_flags(parser: argparse.ArgumentParser) -> None:
    """A flag for every game option given as a number, yes or no, or a word (``--size 6``,
    ``--advanced``/``--no-advanced``, ``--gods apollo/pan``), each the same as ``-o NAME=VALUE``;
    ``workers``, ``pieces`` and ``seed`` are set with ``-o`` only."""
    games: dict[str, list[str]] = {}
    defaults: dict[str, Any] = {}
    for game in available_games():
        for name, default in option_defaults(game).items():
            if isinstance(default, (bool, int, str)):
                games.setdefault(name, []).append(game)
                defaults[name] = default
    group = parser.add_argument_group("game options (each the same as -o NAME=VALUE)")
    for name, owners in games.items():
        flag, owned = "--" + name.replace("_", "-"), ", ".join(owners)
        if isinstance(defaults[name], bool):
            for prefix, value in (("--", "yes"), ("--no-", "no")):
                group.add_argument(
                    prefix + flag[2:],
                    dest="option",
                    action="append_const",
                    const=f"{name}={value}",
                    help=f"{owned}: -o {name}={value}",
                )
        else:
            group.add_argument(
                flag,
                dest="option",
                action="append",
                metavar=name.upper(),
                type=functools.partial("{}={}".format, name),
                help=f"{owned}: -o {name}=...",
            )


class VersionAction(argparse.Action):
    """``--version``: the version and whether the compiled modules are in use, then exit."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        from bordspel import __version__
        from bordspel._native import backend

        print(f"bordspel {__version__} ({backend()})")
        parser.exit()


def _add_db_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        metavar="PATH|URL",
        help="the games' SQLite file (default: in your data folder) or a postgresql:// URL",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bordspel", description="Hermit, Santorini and Quarto.")
    parser.add_argument("--version", action=VersionAction, help="the version and the backend in use")
    commands = parser.add_subparsers(dest="command", required=True)
    games = commands.add_parser("games", help="list the games and their options")
    games.set_defaults(run=cmd_games)
    with_game_options: list[argparse.ArgumentParser] = []

    def game_command(name: str, text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=text, description=text)
        sub.add_argument("game", choices=available_games())
        sub.add_argument(
            "-o",
            "--option",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="a game option, e.g. size=6, players=3, finite_supply=yes, advanced=yes",
        )
        with_game_options.append(sub)
        return sub

    play = game_command("play", "play in the terminal against the computer or another person")
    play.add_argument("--seat", type=int, default=1, help="your seat (default 1: you start)")
    play.add_argument(
        "--vs", default="medium", metavar="PLAYER", help="the computer: easy, medium, hard, perfect, ..."
    )
    play.add_argument("--hotseat", action="store_true", help="people in every seat, at one keyboard")
    play.add_argument("--player", action="append", default=[], metavar="SEAT=PLAYER", help="e.g. 3=hard")
    play.add_argument("--hint", default="hard", metavar="PLAYER", help="who gives hints (default hard)")
    play.add_argument("--seed", type=int, default=None, help="seed the computer's randomness")
    play.add_argument("--plain", action="store_true", help="no colours")
    play.set_defaults(run=cmd_play)
    add_train_command(game_command)
    demo = game_command("demo", "play a random game and show it")
    demo.add_argument("--seed", type=int, default=None)
    demo.add_argument("--plain", action="store_true", help="no colours")
    demo.set_defaults(run=cmd_demo)
    perft = game_command("perft", "count move sequences from a position, depth by depth")
    perft.add_argument("depth", type=int)
    perft.add_argument("--position", help="a position string to start from")
    perft.set_defaults(run=cmd_perft)
    analyse = game_command("analyse", "the best move, its score, depth, nodes and line, depth by depth")
    analyse.add_argument("position", nargs="?", help="a position string (default: the start)")
    analyse.add_argument("--player", default="hard", help="the searching player (default hard)")
    analyse.add_argument("--time", type=float, default=None, help="seconds (default: the player's)")
    analyse.add_argument("--depth", type=int, default=None, help="plies: a reproducible limit")
    analyse.add_argument("--nodes", type=int, default=None, help="positions: a reproducible limit")
    analyse.add_argument("--seed", type=int, default=None, help="seed the player's randomness")
    analyse.add_argument(
        "--multipv", type=int, default=1, metavar="N", help="the best N moves, each with its line (default 1)"
    )
    analyse.set_defaults(run=cmd_analyse)
    engine = commands.add_parser(
        "engine",
        help="speak the engine protocol on stdin and stdout (docs/engine-protocol.md)",
        description="Speak the engine protocol on stdin and stdout: send bordspel, then position and go.",
    )
    engine.add_argument("--game", choices=available_games(), default="santorini", help="the first game")
    engine.add_argument("--player", default="hard", help="the searching player (default hard)")
    engine.set_defaults(run=cmd_engine)
    arena = commands.add_parser("arena", help="play many games between players and rank them")
    arena.add_argument("game", choices=available_games())
    arena.add_argument(
        "players",
        nargs="+",
        metavar="PLAYER",
        help="easy, medium, hard, perfect, random, greedy, alphabeta:time=0.5, mcts:playouts=500, ...",
    )
    arena.add_argument("-n", "--games", type=int, default=100)
    arena.add_argument("--seed", type=int, default=0)
    arena.add_argument(
        "--opening",
        type=int,
        default=0,
        metavar="PLIES",
        help="open each round with PLIES random plies, played from every seat (varies deterministic players)",
    )
    arena.add_argument(
        "-o", "--option", action="append", default=[], metavar="NAME=VALUE", help="a game option"
    )
    arena.add_argument(
        "--backend",
        choices=["local", "serial", "ray"],
        default="local",
        help="local: worker processes here (default); serial: this process; ray: Ray tasks",
    )
    arena.add_argument("--address", help="with --backend ray: the address of an existing Ray cluster")
    arena.add_argument("--workers", type=int, default=None, help="worker processes (default: one per core)")
    arena.add_argument("--records", metavar="DIR", help="save every game's record in DIR")
    arena.set_defaults(run=cmd_arena)
    with_game_options.append(arena)
    add_solve_command(commands)
    add_verify_command(commands)
    serve = commands.add_parser("serve", help="start the browser app (needs the web extra)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        choices=range(1, 65),
        metavar="N",
        help="web processes sharing the port (default 1); with SQLite on this machine, else PostgreSQL",
    )
    _job_arguments(serve, "workers in each web process that make the computer's moves", lowest=0)
    serve.add_argument(
        "--no-workers",
        dest="job_workers",
        action="store_const",
        const=0,
        help="no workers here: separate 'bordspel worker' processes make the computer's moves",
    )
    serve.add_argument(
        "--games-per-minute",
        type=int,
        default=30,
        metavar="N",
        help="new games one address may start in a minute (default 30; 0: no limit, e.g. for a load test)",
    )
    serve.add_argument(
        "--max-queued-jobs",
        type=_count,
        metavar="N",
        help="the computer's moves that may wait for a worker, site-wide; past it a new game or move "
        "that owes one more answers 503 (default 4 per --job-workers, 8 with --no-workers)",
    )
    serve.add_argument(
        "--signups-per-hour",
        type=int,
        default=5,
        metavar="N",
        help="new accounts one address may make in an hour (default 5; 0: no limit)",
    )
    serve.add_argument(
        "--secret",
        metavar="KEY",
        help="the key that signs session cookies (default: $BORDSPEL_SECRET, else one kept in the store)",
    )
    serve.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a Host name the server answers to besides its own address (behind a reverse proxy)",
    )
    serve.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="URL",
        help="an origin whose pages may post, e.g. https://games.example.org",
    )
    serve.add_argument(
        "--forwarded-allow-ips",
        metavar="ADDRESSES",
        help="the reverse proxy's addresses (comma-separated) whose X-Forwarded-For names the client "
        "(default none: every client is the connection's own address)",
    )
    _connection_arguments(serve)
    _from_environment(serve)
    serve.set_defaults(run=cmd_serve)
    worker = commands.add_parser(
        "worker", help="make the computer's moves of a server's games (needs the web extra)"
    )
    _job_arguments(worker, "moves this worker makes at once", lowest=1)
    _from_environment(worker)
    worker.set_defaults(run=cmd_worker)
    database = commands.add_parser("db", help="the browser app's database: upgrade its schema, or its status")
    database.add_argument("action", choices=["upgrade", "status"])
    _add_db_argument(database)
    _from_environment(database)
    database.set_defaults(run=cmd_db)
    show = commands.add_parser("show", help="replay a game record")
    show.add_argument("record")
    show.add_argument("--all", action="store_true", help="show every position, not just the last")
    show.add_argument("--svg", metavar="DIR", help="write every position as an SVG picture")
    show.add_argument("--plain", action="store_true", help="no colours")
    show.set_defaults(run=cmd_show)
    for sub in with_game_options:
        add_game_option_flags(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``bordspel`` command with ``argv``; returns the exit status (2 for bad input)."""
    args = build_parser().parse_args(argv)
    try:
        code: int = args.run(args)
    except BordspelError as error:
        print(f"bordspel: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nbordspel: interrupted", file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
