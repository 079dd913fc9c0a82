"""The builtin engine's analysis of nardy matches (ANALYSIS.md with engine.name
"nardy-referee"): each roll of every game judged against the replay, losses adding up to
each player's figures, and a player who is the engine itself losing nothing by its own
judgement, in long nardy and khachapuri, matches and money sessions."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from notation.records.mat_writer import write_mat
from notation.records.model import MatchText
from referee.adjudication import adjudicate
from referee.analysis import Analysis, NoEngineError, Settings, analyse
from referee.analysis.nardy import Judge, analyse_nardy
from referee.live.record import game_texts
from referee.live.table import Action, Table
from referee.players.builtin import BuiltinEngine
from referee.players.nardy import Question
from tests.native.conftest import native  # noqa: F401 (the fixture: built, or skipped)
from tests.played import PLAYERS, SeededDice, match_record, money_session

pytestmark = pytest.mark.usefixtures("native")

RECORDS = {
    "long-nardy 3": lambda: match_record("long-nardy", 3, {}, 6),
    "long-nardy money": lambda: money_session("long-nardy", 3, {}, 3),
    "khachapuri 15": lambda: match_record("khachapuri", 15, {}, 7),
    "khachapuri money": lambda: money_session("khachapuri", 3, {"draw_rule": True}, 4),
}


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_every_roll_of_every_game_is_judged_and_adds_up(name: str) -> None:
    record = RECORDS[name]()
    analysis = analyse(record, Settings(0, 0))
    assert analysis.engine.name == "nardy-referee"
    assert "0-ply" in analysis.engine.version
    replays = adjudicate(record, replay=True).replays
    assert len(analysis.games) == len(replays) > 0
    for game, steps in zip(analysis.games, replays, strict=True):
        rolls = [
            (index, step)
            for index, step in enumerate(steps, start=1)
            if step.action.dice is not None and step.play is not None
        ]
        assert [action.index for action in game.actions] == [index for index, _ in rolls]
        for action, (_, step) in zip(game.actions, rolls, strict=True):
            assert action.side == str(step.action.side)
            assert action.played == step.play
            assert action.equity_loss is None or action.equity_loss <= 0
            if action.played == action.best and action.equity_loss is not None:
                assert action.equity_loss == 0
        for side in "wb":
            stats = getattr(game.players, side)
            assert stats.cube is None
            assert_adds_up(stats, [a for a in game.actions if a.side == side])
    for side in "wb":
        everything = [a for game in analysis.games for a in game.actions if a.side == side]
        assert_adds_up(getattr(analysis.players, side), everything)


def assert_adds_up(stats: object, actions: list) -> None:  # type: ignore[type-arg]
    chequer = stats.chequer  # type: ignore[attr-defined]
    unforced = [a for a in actions if a.equity_loss is not None]
    assert chequer.total_moves == len(actions)
    assert chequer.unforced_moves == len(unforced)
    marks = [a.mark for a in unforced]
    assert (chequer.doubtful, chequer.bad, chequer.very_bad, chequer.unmarked) == (
        marks.count("doubtful"), marks.count("bad"), marks.count("very_bad"), marks.count(None),
    )  # fmt: skip
    assert chequer.error_total_emg == pytest.approx(sum(a.equity_loss for a in unforced), abs=1e-5)
    luck = stats.luck  # type: ignore[attr-defined]
    assert luck.luck_total_emg == pytest.approx(sum(a.luck for a in actions), abs=1e-5)
    if unforced:
        expected_pr = round(500 * -chequer.error_total_emg / len(unforced), 2)
        assert stats.pr == pytest.approx(expected_pr, abs=0.011)  # type: ignore[attr-defined]


def engine_against_random(variant: str, seed: int, plies: int) -> str:
    """A one-game money session: White the builtin engine at ``plies``, Black at random."""
    engine, rng, dice = BuiltinEngine(plies), random.Random(seed), SeededDice(seed)
    table = Table(variant, 0, {})
    table.start_game(dice)
    while not table.finished:
        side = table.to_act()
        assert side is not None
        if Action.PLAY not in table.expect():
            table.apply(side, Action.ROLL, dice)
        elif str(side) == "w":
            table.apply(side, Action.PLAY, dice, play=engine.ask(table.position))
        else:
            table.apply(side, Action.PLAY, dice, play=rng.choice(table.legal or [""]))
    games = game_texts(table.noted, table.length, PLAYERS)
    tags = {"Variation": table.variant_class.variation_tags[0].capitalize()}
    return write_mat(MatchText(tags, (), 0, games))


@pytest.mark.parametrize("variant", ["long-nardy", "khachapuri"])
@pytest.mark.parametrize("plies", [0, 1])
def test_the_engine_loses_nothing_by_its_own_judgement(variant: str, plies: int) -> None:
    record = engine_against_random(variant, 11, plies)
    analysis = analyse(record, Settings(plies, 0))
    engine, chance = analysis.players.w.chequer, analysis.players.b.chequer
    assert engine is not None and chance is not None and engine.unforced_moves
    assert engine.error_total_emg == 0
    assert engine.doubtful == engine.bad == engine.very_bad == 0
    assert chance.error_total_emg is not None and chance.error_total_emg < 0
    assert analysis.players.w.pr == 0


def test_a_backgammon_match_is_not_the_nardy_engines() -> None:
    with pytest.raises(NoEngineError):
        analyse_nardy(match_record("backgammon", 3, {}, 5))


def test_settings_past_one_ply_search_one() -> None:
    record = RECORDS["long-nardy money"]()
    deep: Analysis = analyse(record, Settings(3, 3))
    assert "1-ply" in deep.engine.version
    assert deep.settings == Settings(3, 3)
    assert deep.to_json()["players"]["w"]["cube"] is None


@pytest.mark.parametrize("variant", ["long-nardy", "khachapuri"])
def test_a_play_is_searched_as_the_engine_searches_its_candidates(variant: str) -> None:
    """The analysis searches a play the engine left at 0-ply as the native search does its
    best few: checked on the plays the native search did take to 1-ply."""
    record = money_session(variant, 2, {}, 9)
    judge = Judge.of(variant, {}, Settings(1, 0))
    compared = 0
    for steps in adjudicate(record, replay=True).replays:
        for step in steps[:30]:
            if step.action.dice is None or step.play is None:
                continue
            rolled = judge.rolled(step)
            ranked = judge.engine.ranked(Question(rolled, judge.options))
            boards = judge.boards(rolled, ranked)
            for play, board in list(zip(ranked, boards, strict=True))[:3]:
                if play.plies == 1:
                    again = replace(play, plies=0)
                    assert judge.searched(rolled, again, board) == pytest.approx(
                        play.equity, abs=1e-4
                    )
                    compared += 1
    assert compared > 20
