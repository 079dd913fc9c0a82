"""Judging by position (RULES.md A6): any order of the same single moves that is legal is
the same play; only ``judge=sequence`` judges the literal order."""

from __future__ import annotations

import pytest

from referee.rules.judge import PlayJudge
from referee.rules.options import Judge, Options
from referee.rules.variants import VARIANTS, Backgammon, Variant
from vocabulary import Move, Side

# 6-5 from each variant's start: one checker 24/18/13 is legal in all three (long nardy's
# head rule lets one checker leave the head; khachapuri has no head limit).
TRAVEL_ORDER = [Move(24, 18), Move(18, 13)]
OUT_OF_ORDER = [Move(18, 13), Move(24, 18)]


def judged(variant: type[Variant], moves: list[Move], judge: Judge) -> PlayJudge:
    return PlayJudge(variant, variant.start_board(), Side.WHITE, (6, 5), Options(judge=judge))


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.id)
def test_moves_out_of_travel_order_are_the_same_play_by_position(variant: type[Variant]) -> None:
    in_order = judged(variant, TRAVEL_ORDER, Judge.POSITION).judge(TRAVEL_ORDER)
    reordered = judged(variant, OUT_OF_ORDER, Judge.POSITION).judge(OUT_OF_ORDER)
    assert in_order.legal and reordered.legal
    assert reordered.board == in_order.board
    assert reordered.play == in_order.play


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.id)
def test_by_sequence_the_literal_order_counts(variant: type[Variant]) -> None:
    verdict = judged(variant, OUT_OF_ORDER, Judge.SEQUENCE).judge(OUT_OF_ORDER)
    assert not verdict.legal
    assert verdict.reason is not None and verdict.reason.code == "no_checker"


def test_a_reordered_doublet_with_a_chain() -> None:
    # Backgammon 3-3 from the start: 13/10 10/7 8/5 6/3 written backwards is still legal.
    written = [Move(6, 3), Move(8, 5), Move(10, 7), Move(13, 10)]
    judge = PlayJudge(Backgammon, Backgammon.start_board(), Side.WHITE, (3, 3), Options())
    verdict = judge.judge(written)
    assert verdict.legal
    assert verdict.play is not None and len(verdict.play.steps) == 4


def test_points_off_the_board_are_invalid_points_in_every_engine() -> None:
    # A library caller may write any integers; the answer is a rules problem, never a crash.
    judge = PlayJudge(Backgammon, Backgammon.start_board(), Side.WHITE, (6, 5), Options())
    for moves in ([Move(5, -1)], [Move(30, 24)], [Move(-3, -9)]):
        verdict = judge.judge(moves)
        assert verdict.reason is not None and verdict.reason.code == "invalid_point"
