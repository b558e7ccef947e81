"""Adapters to the research ecosystem (the ``[rl]`` extra): PettingZoo, Gymnasium, OpenSpiel.

``bordspel.rl.codecs`` fixes each game's action space and observation planes; the adapters
``bordspel.rl.pettingzoo``, ``bordspel.rl.gymnasium`` and ``bordspel.rl.openspiel`` are imported
on demand (``bordspel.rl.render`` draws their frames), and the engines know nothing of them.
"""
