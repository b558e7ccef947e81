"""De spec-API in het Nederlands: ``Kluizenaar``, ``Santorini`` en de Quarto-functies.

Dunne lagen over de Engelse facade (``bordspel.en``), die op haar beurt de engines aanroept:
alleen de namen, de richtingen en de foutboodschap ``ongeldige zet`` verschillen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from bordspel import en

__all__ = ["Kluizenaar", "Santorini", "lees_stukken", "maak_rooster", "quarto", "stuk_eigenschappen"]


class Kluizenaar(en.Hermit):
    """Een spelbord van Kluizenaar met n x n velden."""

    _INVALID: ClassVar[str] = "ongeldige zet"
    posities = en.Hermit.positions
    isgeldig = en.Hermit.isvalid
    zet = en.Hermit.move
    mogelijke_zetten = en.Hermit.possible_moves


class Santorini(en.Santorini):
    """Een Santorini-spelbord met arbeiders A, B, ...; richtingen N NO O ZO Z ZW W NW."""

    _INVALID: ClassVar[str] = "ongeldige zet"
    _DIRECTIONS: ClassVar[Mapping[str, str] | None] = {
        "N": "N", "NO": "NE", "O": "E", "ZO": "SE", "Z": "S", "ZW": "SW", "W": "W", "NW": "NW",
    }  # fmt: skip
    niveau = en.Santorini.level
    verzet_arbeider = en.Santorini.move_worker
    bouw_toren = en.Santorini.build_tower
    winnende_arbeider = en.Santorini.winning_worker

    @property
    def arbeiders(self) -> dict[str, tuple[int, int]]:
        """De letter en positie van elke arbeider."""
        return self.workers


lees_stukken = en.read_pieces
stuk_eigenschappen = en.piece_properties
maak_rooster = en.make_grid
quarto = en.quarto
