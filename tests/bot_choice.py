"""How the tests' own bots choose a play where the play is not what a test checks (events,
their clocks and records): at random among the plays that hit nothing, when there is one.
Random backgammon hits so often that a one-point match takes about 200 actions; without
hits it takes about 90, and the tests that play whole events wait half as long."""

from __future__ import annotations

import random


def quiet_play(rng: random.Random, plays: list[str]) -> str:
    """One of ``plays`` (canonical texts, a hit marked ``*``) at random, hitting only when
    every play hits."""
    quiet = [play for play in plays if "*" not in play]
    return rng.choice(quiet or plays)
