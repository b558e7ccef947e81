"""Santorini: the engine, its god powers and the turn generator."""
