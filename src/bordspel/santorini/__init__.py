"""``bordspel.santorini`` is the Santorini engine module, ``games.santorini.engine`` (kept for old imports).

Importing it gives the engine module itself, so every name, its classes and pickles are the same.
"""

import sys

from bordspel.games.santorini import engine
from bordspel.games.santorini.engine import *  # noqa: F403 (for type checkers; the module itself replaces this one)

sys.modules[__name__] = engine
