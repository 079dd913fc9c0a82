"""Legal plays agree between the engines: the same plays, steps, order and play text, on every
OpenSpiel corpus position and on random positions of every variant under random options."""

from __future__ import annotations

import random
from types import ModuleType

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from referee.bridge import play_text
from referee.plays import PlaysService
from referee.rules.board import Board, Play
from referee.rules.engine import PYTHON
from referee.rules.movegen import legal_plays, python_legal_plays
from referee.rules.options import (
    BlockRule,
    BlockTiming,
    FirstTurnScope,
    HeadException,
    Judge,
    Options,
)
from referee.rules.position import Position
from referee.rules.variants import VARIANTS, Backgammon, Variant
from tests.corpus import board_from_board26, read_jsonl, side_of
from tests.native.conftest import native_engine
from vocabulary import Phase, Side


def native_plays(
    variant: type[Variant], board: Board, side: Side, dice: tuple[int, int], options: Options
) -> list[Play]:
    rules = variant.turn_rules(board, side, dice, options)
    return legal_plays(rules, board, side, dice, native_engine())


def reference_plays(
    variant: type[Variant], board: Board, side: Side, dice: tuple[int, int], options: Options
) -> list[Play]:
    return python_legal_plays(variant.turn_rules(board, side, dice, options), board, side, dice)


def test_every_corpus_position_has_the_same_plays_in_both_engines(native: ModuleType) -> None:
    differing = []
    count = 0
    for record in read_jsonl("bg_positions_seed1.jsonl.gz"):
        board = board_from_board26(record["board26"], record["off"])
        side, dice = side_of(record["to_move"]), tuple(record["dice"])
        reference = reference_plays(Backgammon, board, side, dice, Options())
        if native_plays(Backgammon, board, side, dice, Options()) != reference:
            differing.append(record["id"])
        count += 1
    assert count == 3000
    assert differing == []


def test_play_texts_agree_for_every_corpus_play(native: ModuleType) -> None:
    differing = []
    for record in read_jsonl("bg_positions_seed1.jsonl.gz"):
        board = board_from_board26(record["board26"], record["off"])
        side, dice = side_of(record["to_move"]), tuple(record["dice"])
        for play in reference_plays(Backgammon, board, side, dice, Options()):
            steps = [tuple(step) for step in play.steps]
            for literal in (False, True):
                if native.play_text(steps, literal) != play_text(play.steps, literal):
                    differing.append((record["id"], play.steps, literal))
    assert differing == []


options_strategy = st.builds(
    Options,
    head_exception=st.sampled_from(HeadException),
    first_turn_scope=st.sampled_from(FirstTurnScope),
    block_rule=st.sampled_from(BlockRule),
    block_timing=st.sampled_from(BlockTiming),
)


def random_game(
    variant: type[Variant], options: Options, seed: int, turns: int
) -> list[tuple[Board, Side, tuple[int, int]]]:
    """The positions (with dice) of a game of random legal plays, by the Python engine."""
    rng = random.Random(seed)
    board, side = variant.start_board(), Side.WHITE
    positions = []
    for _ in range(turns):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        dice = (max(dice), min(dice))
        positions.append((board, side, dice))
        board = rng.choice(reference_plays(variant, board, side, dice, options)).board
        if any(board.borne_off(each) == 15 for each in Side):
            break
        side = side.other
    return positions


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    variant=st.sampled_from(VARIANTS),
    options=options_strategy,
    seed=st.integers(0, 2**32),
    turns=st.integers(1, 120),
)
def test_random_games_have_the_same_plays_in_both_engines(
    native: ModuleType, variant: type[Variant], options: Options, seed: int, turns: int
) -> None:
    for board, side, dice in random_game(variant, options, seed, turns):
        reference = reference_plays(variant, board, side, dice, options)
        assert native_plays(variant, board, side, dice, options) == reference, (board, side, dice)
        facts = native.turn_facts(
            variant.id,
            board.layout(side),
            board.layout(side.other),
            dice,
            str(options.head_exception),
            str(options.first_turn_scope),
            str(options.block_rule),
            str(options.block_timing),
        )
        rules = variant.turn_rules(board, side, dice, options)
        assert facts == (rules.head_limit, rules.head_limit_if_needed, rules.block is not None)


rolls = st.tuples(st.integers(1, 6), st.integers(1, 6)).map(lambda d: (max(d), min(d)))
"""A roll, larger die first."""


@st.composite
def arbitrary_boards(draw: st.DrawFn, variant: type[Variant]) -> Board:
    """Any board of the variant, reachable or not: each checker on a point of its own side's
    choosing unless the other side holds it (then borne off); the bar only in backgammon."""
    layouts = [[0] * 26, [0] * 26]
    for side in (0, 1):
        for point in draw(st.lists(st.integers(0, 25), min_size=15, max_size=15)):
            other = layouts[1 - side]
            held = 1 <= point <= 24 and other[variant.opposite(point)] > 0
            if held or (point == 25 and not variant.hitting):
                point = 0
            layouts[side][point] += 1
    return Board(tuple(layouts[0]), tuple(layouts[1]))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(data=st.data(), variant=st.sampled_from(VARIANTS), options=options_strategy)
def test_arbitrary_positions_have_the_same_plays_in_both_engines(
    native: ModuleType, data: st.DataObject, variant: type[Variant], options: Options
) -> None:
    board = data.draw(arbitrary_boards(variant))
    side = data.draw(st.sampled_from(Side))
    dice = data.draw(rolls)
    reference = reference_plays(variant, board, side, dice, options)
    assert native_plays(variant, board, side, dice, options) == reference


@settings(max_examples=60, deadline=None, derandomize=True)
@given(variant=st.sampled_from(VARIANTS), data=st.data(), judge=st.sampled_from(Judge))
def test_the_native_legal_play_texts_are_the_python_ones(
    native: ModuleType, variant: type[Variant], data: st.DataObject, judge: Judge
) -> None:
    board = data.draw(arbitrary_boards(variant))
    side = data.draw(st.sampled_from(list(Side)))
    dice = (data.draw(st.integers(1, 6)), data.draw(st.integers(1, 6)))
    options = Options(judge=judge)
    assume(board.borne_off(Side.WHITE) < 15 and board.borne_off(Side.BLACK) < 15)
    by_python = PlaysService.of(position_of(variant, board, side, dice), options, PYTHON)
    by_native = PlaysService.of(position_of(variant, board, side, dice), options, native_engine())
    assert by_native.legal_texts() == [by_python.text(play) for play in by_python.judge.legal]


def position_of(
    variant: type[Variant], board: Board, side: Side, dice: tuple[int, int]
) -> Position:
    return Position(variant, board, side, Phase.MOVE, (max(dice), min(dice)))
