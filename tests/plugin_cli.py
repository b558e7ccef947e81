"""``python tests/plugin_cli.py ...`` is the ``bordspel`` command with the test games registered,
as an installed plugin's entry point would register them."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bordspel.cli import main
from bordspel.core import register_game
from tests.tictactoe import SPEC

register_game(SPEC)
sys.exit(main())
