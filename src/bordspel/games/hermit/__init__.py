"""Hermit: the game's own parts."""
