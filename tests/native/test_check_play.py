"""The plays fast path (``referee.plays.check_play`` on the native engine: the position and
the play read, judged and the answer written natively in one call) answers as the Python
engine's service does: the same JSON, or the same error, for legal plays in every written
form, marked right or wrong, mutated into illegal ones, unreadable or unknown plays and
plays with a dice prefix, in random games and arbitrary positions of all three variants,
with their options set or not, by position and by sequence. It does answer the plain case
itself: a legal play written canonically that hits nothing."""

from __future__ import annotations

import random
from dataclasses import replace
from types import ModuleType

from hypothesis import given, settings
from hypothesis import strategies as st

from notation.plays import format_play
from referee.bridge import write_position
from referee.errors import RefereeError
from referee.plays import check_play
from referee.rules.board import Board, Play
from referee.rules.engine import Engine
from referee.rules.movegen import display_order
from referee.rules.options import Judge, Options
from referee.rules.position import Cube, Position
from referee.rules.variants import VARIANTS, Variant
from tests.native.conftest import by_both
from tests.native.test_judging import mutated, written_forms
from tests.native.test_legal_plays import (
    arbitrary_boards,
    options_strategy,
    random_game,
    reference_plays,
    rolls,
)
from vocabulary import CHECKERS, Move, Phase, Side

Outcome = dict[str, object] | tuple[type[RefereeError], str, dict[str, object]]


def outcome(position: str, play: str, options: dict[str, object], engine: Engine) -> Outcome:
    """The JSON answer ``engine`` gives, or the error it raises, as a comparable value."""
    try:
        return check_play(position, play, options, engine).to_json()
    except RefereeError as error:
        return type(error), error.message, error.extensions


def texts(play: Play, dice: tuple[int, int], rng: random.Random) -> list[str]:
    """A legal play written every way: its written forms, each with marks flipped and once
    mutated; with the dice prefix, right or wrong; and texts that say nothing readable."""
    found = []
    forms = written_forms(play)
    for moves in forms:
        flipped = [
            replace(move, hit=not move.hit) if rng.random() < 0.3 else move for move in moves
        ]
        found += [format_play(moves), format_play(flipped), format_play(mutated(moves, rng))]
    other_dice = (1, 1) if dice == (6, 6) else (6, 6)
    found += [format_play(forms[0], dice), format_play(forms[0], other_dice), "????", "13/8 x"]
    return found


def position_of(
    variant: type[Variant], board: Board, side: Side, dice: tuple[int, int], rng: random.Random
) -> str:
    """The position string of ``side`` to play ``dice`` on ``board``: money or a match,
    a cube of some value and owner where the variant has one."""
    length = rng.choice([0, 0, 5, 7])
    score = (rng.randrange(length), rng.randrange(length)) if length else (0, 0)
    cube = Cube(rng.choice([1, 2, 4]), None) if variant.has_cube else None
    if cube is not None and cube.value > 1:
        cube = replace(cube, owner=rng.choice([Side.WHITE, Side.BLACK]))
    position = Position(variant, board, side, Phase.MOVE, dice, 0, cube, length, score)
    return write_position(position)


def assert_checked_alike(
    native: ModuleType,
    variant: type[Variant],
    board: Board,
    side: Side,
    dice: tuple[int, int],
    options: Options,
    rng: random.Random,
) -> None:
    """Up to three legal plays, each written every way, checked alike with and without the
    options set; the canonical text of one that hits nothing and ends nothing answered by
    the fast path itself (judged by position)."""
    position = position_of(variant, board, side, dice, rng)
    given_options = rng.choice([{}, variant.options_json(options)])
    chosen = options if given_options else Options()
    plays = reference_plays(variant, board, side, dice, chosen)
    for play in rng.sample(plays, min(3, len(plays))):
        for text in texts(play, dice, rng):
            reference, answered = by_both(
                lambda engine, text=text: outcome(position, text, given_options, engine)
            )
            assert answered == reference, (position, text, given_options)
        ends = any(play.board.borne_off(each) == CHECKERS for each in Side)
        shown = display_order(play.steps)
        if chosen.judge is Judge.POSITION and not ends and not any(s.hit for s in shown):
            text = format_play([Move(s.from_point, s.to_point, s.hit) for s in shown])
            rules = (chosen.head_exception, chosen.first_turn_scope, chosen.block_rule)
            plain = (*rules, chosen.block_timing, False)
            assert native.check_play(position, text, plain) is not None, (position, text)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    variant=st.sampled_from(VARIANTS),
    options=options_strategy,
    judge=st.sampled_from(Judge),
    seed=st.integers(0, 2**32),
    turns=st.integers(1, 80),
)
def test_plays_in_random_games_are_checked_alike(
    native: ModuleType,
    variant: type[Variant],
    options: Options,
    judge: Judge,
    seed: int,
    turns: int,
) -> None:
    options = replace(options, judge=judge)
    rng = random.Random(seed)
    for board, side, dice in random_game(variant, options, seed, turns)[-6:]:
        assert_checked_alike(native, variant, board, side, dice, options, rng)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(
    data=st.data(),
    variant=st.sampled_from(VARIANTS),
    options=options_strategy,
    judge=st.sampled_from(Judge),
    seed=st.integers(0, 2**32),
)
def test_plays_in_arbitrary_positions_are_checked_alike(
    native: ModuleType,
    data: st.DataObject,
    variant: type[Variant],
    options: Options,
    judge: Judge,
    seed: int,
) -> None:
    options = replace(options, judge=judge)
    board = data.draw(arbitrary_boards(variant))
    side = data.draw(st.sampled_from(Side))
    dice = data.draw(rolls)
    assert_checked_alike(native, variant, board, side, dice, options, random.Random(seed))


def test_positions_no_play_belongs_to_are_refused_alike(native: ModuleType) -> None:
    start = "backgammon 2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0"
    finished = "long-nardy ,,,,,,,,,,,15b,,,,,,,,,,,, w0b0 w15b0"
    for position in [f"{start} w - 1c 0:0-0 -", f"{start} w d 2c 0:0-0 -",
                     f"{start} - end", f"{finished} b 31 - 0:0-0 -",
                     f"{finished} w 31 - 0:0-0 -", f"{start} w 31 1c 0:0-0 - x"]:  # fmt: skip
        for options in ({}, {"draw_rule": True}, {"koks": True}, {"nonsense": 1}):
            reference, answered = by_both(
                lambda engine, p=position, o=options: outcome(p, "8/5 6/5", o, engine)
            )
            assert answered == reference, (position, options)
