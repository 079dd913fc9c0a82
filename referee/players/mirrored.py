"""Mirrored games for measuring the builtin nardy engine (docs/engine.md): each pair is two
games with the same throws, the players' seats swapped, as an event's mirrored pair deals
them (EVENTS.md §7: one server seed, the pair's dice id, no client seeds; throw k of one
game is throw k of the other). A win rate over many pairs comes with a 95 % interval, and
the losses are told apart by the dice: a game lost with fewer pips thrown to the player
than its checkers had to travel could not have been won by racing."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from referee.live.dice import throw
from referee.rules.variants import find_variant
from vocabulary import Side

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
    """One game's end, for the player measured: won or lost, the points, and whether its
    throws in that game came to fewer pips than its checkers had to travel from the start
    (then no play of its own could have finished: only holding the other side back)."""

    won: bool
    points: int
    short: bool = False


def pips_thrown(throws: list[tuple[int, int]], used: int, turns: int) -> dict[Side, int]:
    """Each side's pips thrown in a game that took ``used`` throws for ``turns`` turns: the
    opening throws first (White's die, Black's die; the last one decides who moves first),
    then a throw a turn, the sides taking turns; a double counts four times."""
    opening = used - turns
    white_die, black_die = throws[opening - 1]
    side = Side.WHITE if white_die > black_die else Side.BLACK
    thrown = {Side.WHITE: 0, Side.BLACK: 0}
    for first, second in throws[opening:used]:
        thrown[side] += (first + second) * (2 if first == second else 1)
        side = side.other
    return thrown


def game_for(variant: str, side: Side, end: Any, throws: list[tuple[int, int]]) -> Game:
    """The game ``native.engine_game`` ended with ``end`` (winner, points, mars, throws
    used, turns), for the player at ``side``."""
    winner, points, _, used, turns = end
    start_pips = find_variant(variant).start_board().pips(side)
    short = pips_thrown(throws, used, turns)[side] < start_pips
    return Game(winner == side.value, points, short)


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
            as_white = game_for(variant, Side.WHITE, white, throws)
            return as_white, game_for(variant, Side.BLACK, black, throws)
        count *= 2


@dataclass(frozen=True, slots=True)
class Tally:
    """Games won and played, the points for and against, and the games lost short of
    pips (``Game.short``)."""

    wins: int = 0
    games: int = 0
    points_for: int = 0
    points_against: int = 0
    lost_short: int = 0

    def add(self, game: Game) -> Tally:
        won, lost = (game.points, 0) if game.won else (0, game.points)
        return Tally(
            self.wins + game.won,
            self.games + 1,
            self.points_for + won,
            self.points_against + lost,
            self.lost_short + (not game.won and game.short),
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
