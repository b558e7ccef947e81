"""Santorini: the game's own parts."""
