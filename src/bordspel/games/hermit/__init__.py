"""Hermit: the engine (``engine``), the players' knowledge (``ai``) and the game's other parts."""
