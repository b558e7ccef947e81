"""One package per game: its engine, AI knowledge, codec, pictures and move parts, and its ``SPEC``."""

__all__: list[str] = []
