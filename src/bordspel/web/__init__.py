"""The browser app (``bordspel serve``): Starlette pages and a JSON API over stored games."""

__all__: list[str] = []
