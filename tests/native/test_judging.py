"""Judgements agree between the engines: legal plays as written (every shape), and mutated
ones (illegal, ambiguous, mis-marked), in random games of every variant under random options,
by position and by sequence, naming the canonical play or not."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import partial
from types import ModuleType

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.rules.board import Board, Play
from referee.rules.engine import Engine
from referee.rules.judge import Judgement, PlayJudge
from referee.rules.movegen import display_order
from referee.rules.options import Judge, Options
from referee.rules.variants import VARIANTS, Variant
from tests.native.conftest import by_both
from tests.native.test_legal_plays import (
    arbitrary_boards,
    options_strategy,
    random_game,
    reference_plays,
    rolls,
)
from vocabulary import Move, Side


def written_forms(play: Play) -> list[list[Move]]:
    """A legal play as records write it: in display order, as played, backwards (``18/13
    24/18``, legal by position), and with each checker's steps joined into one move
    (``24/18 18/13`` as ``24/13``)."""
    shown = display_order(play.steps)
    forms = [
        [Move(s.from_point, s.to_point, s.hit) for s in shown],
        [Move(s.from_point, s.to_point, s.hit) for s in play.steps],
        [Move(s.from_point, s.to_point, s.hit) for s in reversed(shown)],
    ]
    joined: list[Move] = []
    for step in shown:
        if joined and joined[-1].to_point == step.from_point and step.from_point:
            last = joined.pop()
            step_move = Move(last.from_point, step.to_point, last.hit or step.hit)
            joined.append(step_move)
        else:
            joined.append(Move(step.from_point, step.to_point, step.hit))
    forms.append(joined)
    return forms


def mutated(moves: list[Move], rng: random.Random) -> list[Move]:
    """One small edit of a written play: a move dropped, shifted, re-marked or invented."""
    moves = list(moves)
    edit = rng.randrange(5)
    if edit == 0 and moves:
        moves.pop(rng.randrange(len(moves)))
    elif edit == 1 and moves:
        at = rng.randrange(len(moves))
        moves[at] = replace(moves[at], to_point=max(0, moves[at].to_point + rng.choice((-1, 1))))
    elif edit == 2 and moves:
        at = rng.randrange(len(moves))
        moves[at] = replace(moves[at], hit=not moves[at].hit)
    elif edit == 3 and moves:
        at = rng.randrange(len(moves))
        moves[at] = replace(moves[at], from_point=min(25, moves[at].from_point + 1))
    else:
        origin = rng.randint(1, 25)
        moves.append(Move(origin, rng.randint(0, origin), rng.random() < 0.2))
    return moves


def judgements(
    variant: type[Variant],
    board: Board,
    side: Side,
    dice: tuple[int, int],
    options: Options,
    moves: list[Move],
    engine: Engine,
) -> list[Judgement]:
    return [
        PlayJudge(variant, board, side, dice, options, engine).judge(moves, canonical)
        for canonical in (False, True)
    ]


def assert_judged_alike(
    variant: type[Variant],
    board: Board,
    side: Side,
    dice: tuple[int, int],
    options: Options,
    rng: random.Random,
) -> None:
    """Up to three legal plays, each in every written form and once mutated, judged alike."""
    plays = reference_plays(variant, board, side, dice, options)
    for play in rng.sample(plays, min(3, len(plays))):
        for moves in written_forms(play):
            for written in (moves, mutated(moves, rng)):
                work = partial(judgements, variant, board, side, dice, options, written)
                reference, candidate = by_both(work)
                assert candidate == reference, (board, side, dice, written)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    variant=st.sampled_from(VARIANTS),
    options=options_strategy,
    judge=st.sampled_from(Judge),
    seed=st.integers(0, 2**32),
    turns=st.integers(1, 80),
)
def test_written_plays_are_judged_alike_by_both_engines(
    native: ModuleType,
    variant: type[Variant],
    options: Options,
    judge: Judge,
    seed: int,
    turns: int,
) -> None:
    options = replace(options, judge=judge)
    rng = random.Random(seed)
    for board, side, dice in random_game(variant, options, seed, turns):
        assert_judged_alike(variant, board, side, dice, options, rng)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    data=st.data(),
    variant=st.sampled_from(VARIANTS),
    options=options_strategy,
    judge=st.sampled_from(Judge),
    seed=st.integers(0, 2**32),
)
def test_plays_on_arbitrary_positions_are_judged_alike_by_both_engines(
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
    assert_judged_alike(variant, board, side, dice, options, random.Random(seed))
