"""Mirrored games for measuring the builtin engine (referee/players/mirrored.py): each
side's pips thrown in a game, and the games lost short of pips, which no play of the
loser's own could have won."""

from __future__ import annotations

import pytest

from referee.players.builtin import native_core
from referee.players.mirrored import (
    Game,
    Tally,
    game_for,
    mirrored_throws,
    pips_thrown,
    server_seed,
)
from tests.native.conftest import native  # noqa: F401 (the fixture: built, or skipped)
from vocabulary import Side

START_PIPS = {"long-nardy": 15 * 24, "khachapuri": 4 * 24 + 11 * 6}


def test_the_opening_decides_who_throws_first_and_a_double_counts_four_times() -> None:
    # 3-3 is thrown again; 2-5 gives Black the first turn: Black 6-6 (24 pips), White 2-1
    # (3), Black 4-3 (7).
    throws = [(3, 3), (2, 5), (6, 6), (2, 1), (4, 3), (5, 5)]
    assert pips_thrown(throws, used=5, turns=3) == {Side.WHITE: 3, Side.BLACK: 31}
    assert pips_thrown(throws[1:], used=4, turns=3) == {Side.WHITE: 3, Side.BLACK: 31}
    assert pips_thrown([(6, 1), (1, 2)], used=2, turns=1) == {Side.WHITE: 3, Side.BLACK: 0}


@pytest.mark.usefixtures("native")
@pytest.mark.parametrize("variant", ["long-nardy", "khachapuri"])
def test_a_winner_threw_at_least_the_pips_it_had_to_travel(variant: str) -> None:
    """Every checker of the winner went all the way, so its throws covered its pips; some
    losers' throws did not (the measure tells something)."""
    core = native_core()
    losers_short = 0
    for dice_id in range(1, 41):
        throws = mirrored_throws(server_seed("pips"), dice_id, 600)
        end = core.engine_game(
            variant, core.EnginePlayer.random(dice_id), core.EnginePlayer.random(0), throws
        )
        winner, _, _, used, turns = end
        thrown = pips_thrown(throws, used, turns)
        assert thrown[Side(winner)] >= START_PIPS[variant]
        loser = Side(winner).other
        assert game_for(variant, Side(winner), end, throws) == Game(True, end[1], False)
        lost = game_for(variant, loser, end, throws)
        assert (lost.won, lost.short) == (False, thrown[loser] < START_PIPS[variant])
        losers_short += lost.short
    assert losers_short > 0


def test_a_tally_counts_only_the_losses_short_of_pips() -> None:
    games = [Game(True, 2, True), Game(False, 1, True), Game(False, 2, False)]
    tally = Tally()
    for game in games:
        tally = tally.add(game)
    assert (tally.wins, tally.games, tally.lost_short) == (1, 3, 1)
    assert (tally.points_for, tally.points_against) == (2, 3)
