"""The search's inline legality check (``movable``) agrees with ``problem`` everywhere."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.rules.movegen import _Turn
from referee.rules.options import Options
from referee.rules.variants import VARIANTS, Variant
from tests.rules.test_properties import random_position
from vocabulary import BAR


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32), st.integers(0, 80), st.integers(0, 2))
def test_movable_points_are_exactly_those_without_a_problem(
    variant: type[Variant], seed: int, turns: int, head_used: int
) -> None:
    board, side, dice = random_position(variant, seed, turns)
    rules = variant.turn_rules(board, side, dice, Options())
    turn = _Turn(rules, board.layout(side), board.layout(side.other), rules.head_limit)
    for die in range(1, 7):
        expected = [
            point
            for point in range(BAR, 0, -1)
            if turn.me[point] and turn.problem(point, die, head_used) is None
        ]
        assert turn.movable(die, head_used, 24) == expected
