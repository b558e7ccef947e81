"""Quarto: the game's own parts."""
