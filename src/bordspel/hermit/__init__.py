"""``bordspel.hermit`` is the Hermit engine module, ``bordspel.games.hermit.engine`` (kept for old imports).

Importing it gives the engine module itself, so every name, its classes and pickles are the same.
"""

import sys

from bordspel.games.hermit import engine
from bordspel.games.hermit.engine import *  # noqa: F403 (for type checkers; the module itself replaces this one)

sys.modules[__name__] = engine
