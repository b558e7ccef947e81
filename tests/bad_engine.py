"""A tiny engine that speaks the engine protocol badly, for the driver's tests (written apart
from bordspel, with no import of it): ``python tests/bad_engine.py MODE``.

Modes: ``die`` (exits with code 3 in the middle of a search, after a word on stderr), ``hang``
(never answers ``go`` nor ``stop``), ``garbage`` (answers ``go`` with a line of no protocol),
``mute`` (never answers the greeting), ``illegal`` (answers ``go`` with an illegal move),
``forks`` (starts a process that keeps its stdout, then searches for ever), ``chatty`` (says
more in ``info`` than the protocol has, as another engine may, then plays ``A``), ``echo`` (says
each ``go`` back as ``info string``, plays ``A`` expecting the reply ``a1:B``; a ``go ponder``
waits for ``ponderhit``, then says depth 7 and plays ``b1:C``, or for ``stop``).
"""

import subprocess
import sys
import time

GREETING = ["id name bad", "id protocol 1", "id games quarto", "bordspelok"]


def say(line: str) -> None:
    print(line, flush=True)


def echo(line: str) -> None:
    """The ``echo`` mode's answer to one command."""
    words = line.split()
    if words[:1] == ["go"] and "ponder" not in words:
        say("info string " + " ".join(words))
        say("info depth 1 score cp 3 pv A a1:B")
        say("bestmove A ponder a1:B")
    elif words[:1] == ["ponderhit"]:
        say("info depth 7 score cp 5 pv b1:C")
        say("bestmove b1:C")
    elif words[:1] == ["stop"]:
        say("bestmove b1:C")


def main(mode: str) -> None:
    for line in sys.stdin:
        command = line.split()[0] if line.split() else ""
        if mode == "echo" and command in ("go", "ponderhit", "stop"):
            echo(line)
        elif command == "bordspel" and mode != "mute":
            for answer in GREETING:
                say(answer)
        elif command == "isready":
            say("readyok")
        elif command == "go" and mode == "chatty":
            say("info depth 2 seldepth 5 multipv 1 score cp 7 lowerbound nodes 20 tbhits 0 hashfull 12 pv A")
            say("info currmove B currmovenumber 2 refutation B C")
            say("bestmove A")
        elif command == "go":
            if mode == "forks":
                subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
            say("info depth 1 score cp 3 nodes 10 time 1 nps 10000 pv A")
            if mode == "die":
                print("bad engine: out of luck", file=sys.stderr, flush=True)
                sys.exit(3)
            if mode in ("hang", "forks"):
                time.sleep(3600)
            say("the weather is fine" if mode == "garbage" else "bestmove z9:Q")
        elif command == "quit":
            return


if __name__ == "__main__":
    main(sys.argv[1])
