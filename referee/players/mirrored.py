"""Mirrored games for measuring the builtin nardy engine (docs/engine.md): each pair is two
games with the same throws, the players' seats swapped, as an event's mirrored pair deals
them (EVENTS.md §7: one server seed, the pair's dice id, no client seeds; throw k of one
game is throw k of the other). A win rate over many pairs comes with a 95 % interval."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from referee.live.dice import throw

THROWS = 600
"""Throws dealt to a game at first (a long nardy game takes about 100); a game that needs
more is dealt again with twice as many (the same throws first)."""
Z95 = 1.959964


def server_seed(label: str) -> str:
    """A server seed anyone can recompute: the SHA-256 of ``label`` (a run's name)."""
    return hashlib.sha256(label.encode()).hexdigest()


def mirrored_throws(server_seed: str, dice_id: int, count: int) -> list[tuple[int, int]]:
    """Throws 1..count of a mirrored pair (both client seeds empty)."""
    return [throw(server_seed, dice_id, k, "", "") for k in range(1, count + 1)]


@dataclass(frozen=True, slots=True)
class Game:
    """One game's end, for the player measured: won or lost, and the points."""

    won: bool
    points: int


def pair(
    native: Any, variant: str, player: Any, opponent: Any, server_seed: str, dice_id: int
) -> tuple[Game, Game]:
    """``player`` against ``opponent`` with the pair's throws: as White, then as Black."""
    count = THROWS
    while True:
        throws = mirrored_throws(server_seed, dice_id, count)
        white = native.engine_game(variant, player, opponent, throws)
        black = native.engine_game(variant, opponent, player, throws)
        if white is not None and black is not None:
            return Game(white[0] == "w", white[1]), Game(black[0] == "b", black[1])
        count *= 2


@dataclass(frozen=True, slots=True)
class Tally:
    """Games won and played, and the points for and against."""

    wins: int = 0
    games: int = 0
    points_for: int = 0
    points_against: int = 0

    def add(self, game: Game) -> Tally:
        won, lost = (game.points, 0) if game.won else (0, game.points)
        return Tally(
            self.wins + game.won,
            self.games + 1,
            self.points_for + won,
            self.points_against + lost,
        )

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        """The Wilson score interval (95 %) of the win rate. It treats the games as
        independent; a mirrored pair's two games share their luck in opposite
        directions, so the true interval is if anything narrower."""
        n, p = self.games, self.rate
        if n == 0:
            return (0.0, 1.0)
        centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
        return (max(0.0, centre - half), min(1.0, centre + half))

    def line(self) -> str:
        low, high = self.interval()
        points = (self.points_for - self.points_against) / max(self.games, 1)
        return (
            f"{self.wins} of {self.games} games, {100 * self.rate:.2f} % (95 % interval"
            f" {100 * low:.2f} to {100 * high:.2f}), {points:+.2f} points a game"
        )


def measure(
    native: Any,
    variant: str,
    player: Any,
    opponent: Callable[[int], Any],
    pairs: int,
    label: str,
    each: Callable[[Tally], None] = lambda tally: None,
) -> Tally:
    """``player`` against ``opponent(dice_id)`` over ``pairs`` mirrored pairs, dealt from
    the server seed of ``label`` with dice ids 1..pairs; ``each`` is told the tally after
    each pair."""
    seed = server_seed(label)
    tally = Tally()
    for dice_id in range(1, pairs + 1):
        for game in pair(native, variant, player, opponent(dice_id), seed, dice_id):
            tally = tally.add(game)
        each(tally)
    return tally
