"""Properties that hold in every position reached by random play, in every variant."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from notation.positions import format_position, parse_position
from referee.bridge import read_position, write_position
from referee.rules.board import Board, Play
from referee.rules.movegen import legal_plays
from referee.rules.options import Options
from referee.rules.position import Position
from referee.rules.variants import VARIANTS, Variant
from vocabulary import BAR, CHECKERS, Phase, Side

OPTIONS = Options()


def random_position(
    variant: type[Variant], seed: int, turns: int
) -> tuple[Board, Side, tuple[int, int]]:
    """The board after ``turns`` random legal turns from the start, with the next roll."""
    rng = random.Random(seed)
    board, side = variant.start_board(), rng.choice(list(Side))
    for _ in range(turns):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(variant.turn_rules(board, side, dice, OPTIONS), board, side, dice)
        after = rng.choice(plays).board
        if max(after.borne_off(s) for s in Side) == CHECKERS:
            break
        board, side = after, side.other
    return board, side, (rng.randint(1, 6), rng.randint(1, 6))


variants = st.sampled_from(VARIANTS)


def plays_of(variant: type[Variant], board: Board, side: Side, dice: tuple[int, int]) -> list[Play]:
    return legal_plays(variant.turn_rules(board, side, dice, OPTIONS), board, side, dice)


@settings(max_examples=60, deadline=None)
@given(variants, st.integers(0, 2**32), st.integers(0, 80))
def test_checkers_are_conserved_and_pips_fall_by_the_steps(
    variant: type[Variant], seed: int, turns: int
) -> None:
    board, side, dice = random_position(variant, seed, turns)
    dice_total = sum(dice) * (2 if dice[0] == dice[1] else 1)
    for play in plays_of(variant, board, side, dice):
        for s in Side:
            assert sum(play.board.layout(s)) == CHECKERS
        drop = board.pips(side) - play.board.pips(side)
        assert drop == sum(step.from_point - step.to_point for step in play.steps)
        assert 0 <= drop <= dice_total
        opponent_gain = play.board.pips(side.other) - board.pips(side.other)
        hits = [step for step in play.steps if step.hit]
        assert opponent_gain >= 0
        assert (opponent_gain > 0) == bool(hits)
        assert play.board.layout(side.other)[BAR] - board.layout(side.other)[BAR] == len(hits)
        if not variant.hitting:
            assert not hits


@settings(max_examples=60, deadline=None)
@given(variants, st.integers(0, 2**32), st.integers(0, 80))
def test_the_legal_set_does_not_depend_on_the_order_of_the_dice(
    variant: type[Variant], seed: int, turns: int
) -> None:
    board, side, (first, second) = random_position(variant, seed, turns)
    forward = {play.board for play in plays_of(variant, board, side, (first, second))}
    backward = {play.board for play in plays_of(variant, board, side, (second, first))}
    assert forward == backward


@settings(max_examples=60, deadline=None)
@given(variants, st.integers(0, 2**32), st.integers(0, 80))
def test_position_strings_round_trip(variant: type[Variant], seed: int, turns: int) -> None:
    board, side, dice = random_position(variant, seed, turns)
    cube = (
        None
        if not variant.has_cube
        else read_position("backgammon 2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0 - -").cube
    )
    position = Position(variant, board, side, Phase.MOVE, dice=(max(dice), min(dice)), cube=cube)
    text = write_position(position)
    assert format_position(parse_position(text)) == text
    assert read_position(text) == position
