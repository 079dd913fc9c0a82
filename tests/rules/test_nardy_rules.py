"""Hand-worked long nardy and khachapuri cases from RULES.md §1-§12.

Every expected value below was worked out by hand from RULES.md (the reasoning is in the
comment of each test), never by running the engine.

Conventions used in the comments:
- every point is in the *mover's own* numbering (§1.4) unless prefixed: ``W7`` is White's own
  7, ``B19`` is Black's own 19; W p and B opp(p) are the same physical point, where
  opp(p) = p + 12 if p <= 12 else p - 12 (so W12 = B24 = Black's head, W13 = B1, W1 = B13).
- "mine" / "theirs" are (own point, count) lists; checkers not listed are borne off.
- Tests parametrised over the mover build the same position for White or for Black (each in
  its own numbering); the hand reasoning is identical because both numberings are symmetric.
"""

from __future__ import annotations

import pytest

from referee.errors import InvalidOptionError
from referee.rules.board import Board
from referee.rules.judge import PlayJudge
from referee.rules.options import (
    BlockRule,
    BlockTiming,
    DrawScoring,
    FirstTurnScope,
    HeadException,
    Judge,
    Options,
)
from referee.rules.variants import Khachapuri, LongNardy, WinKind, find_variant
from tests.positions import boards as pos
from tests.positions import judged, lay, legal
from vocabulary import Move, Side

W, B = Side.WHITE, Side.BLACK
DEFAULT = Options()
SIDES = pytest.mark.parametrize("side", [W, B])


def plays(board, side, dice, options=DEFAULT, variant=LongNardy):
    return legal(variant, board, side, dice, options)


def finals(board, side, dice, options=DEFAULT, variant=LongNardy):
    """The mover's layouts after every legal play."""
    return {p.board.layout(side) for p in plays(board, side, dice, options, variant)}


def judge(board, side, dice, moves, options=DEFAULT, variant=LongNardy):
    return judged(variant, board, side, dice, moves, options)


def code(judgement) -> str | None:
    return judgement.reason.code if judgement.reason else None


# ---------------------------------------------------------------------------------------
# §1-§2: numbering and start positions
# ---------------------------------------------------------------------------------------


def test_numbering_and_start_positions():
    # §1.4: conv(p) = p+12 if p<=12 else p-12, its own inverse: 24<->12, 1<->13, 6<->18.
    # §2.1 long nardy: all 15 on own 24, none off, for both sides.
    # §2.2 khachapuri: 4 on own 24 and 11 on own 6.
    assert [LongNardy.opposite(p) for p in (24, 12, 1, 13, 6, 18)] == [12, 24, 13, 1, 18, 6]
    assert Khachapuri.opposite(19) == 7
    start = LongNardy.start_board()
    assert start.white == start.black == lay((24, 15))
    assert start.borne_off(W) == start.borne_off(B) == 0
    kh = Khachapuri.start_board()
    assert kh.white == kh.black == lay((24, 4), (6, 11))
    assert find_variant("long-nardy") is LongNardy
    assert find_variant("khachapuri") is Khachapuri


@SIDES
def test_khachapuri_start_six_six_is_a_pass(side):
    # §2.2 note + §5.3. Khachapuri start, mover rolls 6-6. A 6 from the head lands on own 18
    # = the opponent's own 6, where his 11-stack stands: blocked. A 6 from own 6 would bear
    # off, not allowed while 4 checkers are outside the home (§8.1). No die playable: the
    # only legal play is the empty one and the board is unchanged.
    board = Khachapuri.start_board()
    result = plays(board, side, (6, 6), variant=Khachapuri)
    assert len(result) == 1
    assert result[0].steps == ()
    assert result[0].board == board


@SIDES
def test_khachapuri_start_six_five_only_one_full_play(side):
    # §4.3 + §5.1 on the khachapuri start (mover 24:4, 6:11; opponent's 11 on my 18).
    # 6 first: 24->18 blocked, 6->off not allowed (checkers outside home) -> nothing.
    # 5 first: (a) 24->19 (my 19 = his 7, empty); then the 6: 19->13 (his 1, empty) ok,
    #   24->18 blocked, 6->off not allowed -> 24/19/13.
    #   (b) 6->1; then the 6: 24->18 blocked, 6->off / 1->off not allowed -> only 1 die.
    # Full-move rule keeps the single 2-die play: 24:3, 13:1, 6:11.
    board = Khachapuri.start_board()
    assert finals(board, side, (6, 5), variant=Khachapuri) == {lay((24, 3), (13, 1), (6, 11))}
    assert judge(board, side, (6, 5), [(24, 13)], variant=Khachapuri).legal
    assert code(judge(board, side, (6, 5), [(6, 1)], variant=Khachapuri)) == (
        "not_enough_dice_used"
    )


# ---------------------------------------------------------------------------------------
# §4: moving checkers
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("dice", [(3, 1), (1, 3)])
def test_one_checker_or_two_in_either_order(dice):
    # §4.1 (and §3: the order the dice are given in does not matter).
    # White 20, 10; Black B1, B2 (= W13, W14, out of the way). Roll 3-1:
    #   20/16 (one checker, via 17 or 19), 10/6 (one checker), 20/17 + 10/9, 20/19 + 10/7.
    # Bearing off impossible (nothing in home). 4 distinct results.
    board = pos(W, [(20, 1), (10, 1)], [(1, 1), (2, 1)])
    assert finals(board, W, dice) == {
        lay((16, 1), (10, 1)),
        lay((20, 1), (6, 1)),
        lay((17, 1), (9, 1)),
        lay((19, 1), (7, 1)),
    }


def test_no_landing_on_an_opponent_point_and_no_hitting():
    # §4.2. White 10; one Black checker on B19 = W7 (14 more on B1 = W13). Roll 3-2.
    # 3 first: 10->7 lands on a single Black checker: forbidden (no hitting in nardy).
    # 2 first: 10->8, then 3: 8->5 (W5 = B17, empty). Only play 10/8/5; Black untouched.
    board = pos(W, [(10, 1)], [(19, 1), (1, 14)])
    result = plays(board, W, (3, 2))
    assert [p.board for p in result] == [Board(lay((5, 1)), board.black)]
    assert code(judge(board, W, (3, 2), [(10, 7)])) == "blocked_point"
    hit = PlayJudge(LongNardy, board, W, (3, 2), DEFAULT).judge([Move(10, 7, True)])
    assert code(hit) == "no_hitting"


def test_both_intermediate_points_closed_is_a_pass():
    # §4.3 + §5.3. White 10; Black on W7 (= B19) and W8 (= B20). Roll 3-2: 10->7 and 10->8
    # are both blocked, so 10/5 cannot be played through either intermediate point even
    # though W5 is empty. No die can be played: one empty play; writing nothing is legal.
    board = pos(W, [(10, 1)], [(19, 1), (20, 1), (1, 13)])
    result = plays(board, W, (3, 2))
    assert len(result) == 1 and result[0].steps == () and result[0].board == board
    assert judge(board, W, (3, 2), []).legal
    assert code(judge(board, W, (3, 2), [(10, 5)])) == "blocked_point"


def test_double_is_played_four_times():
    # §4.4. White 20 alone (Black all on B1 = W13). Roll 2-2: 20->18->16->14->12
    # (W18 = B6, W16 = B4, W14 = B2, W12 = B24: all empty). One play of four steps.
    board = pos(W, [(20, 1)], [(1, 15)])
    result = plays(board, W, (2, 2))
    assert len(result) == 1
    assert result[0].board.white == lay((12, 1))
    assert len(result[0].steps) == 4


# ---------------------------------------------------------------------------------------
# §5: full-move rule, larger die, partial doubles
# ---------------------------------------------------------------------------------------


def test_full_move_rule_forces_the_order_that_plays_both_dice():
    # §5.1. White 10; Black on B16 = W4 (+14 on B1 = W13). Roll 6-1.
    # 6 first: 10->4 blocked. 1 first: 10->9, then 6: 9->3 (W3 = B15, empty).
    # So 10/9/3 is the only legal play; 10/9 alone (1 die) and the empty play are illegal.
    board = pos(W, [(10, 1)], [(16, 1), (1, 14)])
    assert finals(board, W, (6, 1)) == {lay((3, 1))}
    assert code(judge(board, W, (6, 1), [(10, 9)])) == "not_enough_dice_used"
    assert code(judge(board, W, (6, 1), [])) == "not_enough_dice_used"
    assert judge(board, W, (6, 1), [(10, 3)]).legal


@SIDES
def test_larger_die_when_either_but_not_both_can_be_played(side):
    # §5.2. Mover 20; opponent's checker on his 24 = my 12 (14 more on his 1 = my 13).
    # Roll 5-3: 20->15 (then 15->12 blocked) or 20->17 (then 17->12 blocked); 20/12 in one
    # go is blocked too. Either die alone is playable, both never: the 5 must be played.
    board = pos(side, [(20, 1)], [(24, 1), (1, 14)])
    assert finals(board, side, (5, 3)) == {lay((15, 1))}
    assert code(judge(board, side, (5, 3), [(20, 17)])) == "larger_die_required"
    assert judge(board, side, (5, 3), [(20, 15)]).legal


def test_only_the_smaller_die_playable_is_played():
    # §5.2 last sentence. White 20; Black on W14 (= B2) and W12 (= B24). Roll 6-2.
    # 6: 20->14 blocked. 2: 20->18, then 6: 18->12 blocked. Only 20/18 with the 2.
    board = pos(W, [(20, 1)], [(2, 1), (24, 1), (1, 13)])
    result = plays(board, W, (6, 2))
    assert len(result) == 1
    assert result[0].board.white == lay((18, 1))
    assert [(s.from_point, s.to_point, s.die) for s in result[0].steps] == [(20, 18, 2)]


def test_partly_playable_double():
    # §5.4. White 20; Black on W8 (= B20). Roll 4-4: 20->16->12, then 12->8 blocked.
    # Two of the four 4s are played (20/12); the rest is lost. 20/16 alone is too short.
    board = pos(W, [(20, 1)], [(20, 1), (1, 14)])
    result = plays(board, W, (4, 4))
    assert len(result) == 1
    assert result[0].board.white == lay((12, 1))
    assert len(result[0].steps) == 2
    assert code(judge(board, W, (4, 4), [(20, 16)])) == "not_enough_dice_used"


def test_double_must_use_all_four_over_the_whole_turn():
    # §5.1/§5.5. White 20, 11; Black on W14 (= B2). Roll 3-3.
    # The 20-checker: 20->17, then 17->14 blocked: at most 1 move.
    # The 11-checker: 11->8->5->2, then 2->off not allowed (20 still outside): at most 3.
    # Four moves only as 20/17 + 11/2. 20/17 + 11/5 (three moves) is illegal.
    board = pos(W, [(20, 1), (11, 1)], [(2, 1), (1, 14)])
    assert finals(board, W, (3, 3)) == {lay((17, 1), (2, 1))}
    assert code(judge(board, W, (3, 3), [(20, 17), (11, 5)])) == "not_enough_dice_used"


# ---------------------------------------------------------------------------------------
# §6: head rule and the first-turn exception
# ---------------------------------------------------------------------------------------


def test_head_rule_counts_all_four_moves_of_a_double():
    # §6.1. White 24:14, 10:1 (not the first turn: 14 on the head); Black on his head only
    # (W12). Roll 2-2: one head checker moves k times (k = 0..4) and the 10-checker 4-k
    # times; all landing points (22, 20, 18, 16 / 8, 6, 4, 2) are empty. 5 results; taking
    # two checkers off the head is a head-rule violation.
    board = pos(W, [(24, 14), (10, 1)], [(24, 15)])
    assert finals(board, W, (2, 2)) == {
        lay((24, 14), (2, 1)),
        lay((24, 13), (22, 1), (4, 1)),
        lay((24, 13), (20, 1), (6, 1)),
        lay((24, 13), (18, 1), (8, 1)),
        lay((24, 13), (16, 1), (10, 1)),
    }
    assert code(judge(board, W, (2, 2), [(24, 22), (24, 22), (10, 6)])) == "head_rule"


def test_head_rule_for_black():
    # §6.1 with Black moving (Black's own numbering). Black 24:14, 10:1; White on his head
    # only (W24 = B12). Roll 5-3. One head checker at most:
    #   24/19 + 10/7, 24/21 + 10/5, 24/16 (one checker), 10/2 (one checker).
    # B19 = W7, B21 = W9, B16 = W4, B7 = W19, B5 = W17, B2 = W14: all empty.
    # 24/19 + 24/21 takes two checkers from the head: illegal.
    board = pos(B, [(24, 14), (10, 1)], [(24, 15)])
    assert finals(board, B, (5, 3)) == {
        lay((24, 13), (19, 1), (7, 1)),
        lay((24, 13), (21, 1), (5, 1)),
        lay((24, 13), (16, 1), (10, 1)),
        lay((24, 14), (2, 1)),
    }
    assert code(judge(board, B, (5, 3), [(24, 19), (24, 21)])) == "head_rule"


def test_no_head_exception_after_the_first_turn():
    # §6.1/§6.2. White 24:14, 20:1 (second turn) rolls 4-4; Black on his head (W12).
    # Only one head checker: 24->20->16 (16->12 blocked); the 20-checker: 20->16.
    # Three 4s: 24:13, 16:2. (A second head checker would allow a fourth 4.)
    board = pos(W, [(24, 14), (20, 1)], [(24, 15)])
    result = plays(board, W, (4, 4))
    assert {p.board.white for p in result} == {lay((24, 13), (16, 2))}
    assert {len(p.steps) for p in result} == {3}


@SIDES
@pytest.mark.parametrize(
    ("dice", "expected", "used"),
    [
        # 6-6: 24->18, 18->12 is the opponent's head: two checkers to 18, two 6s lost.
        ((6, 6), [[(24, 13), (18, 2)]], 2),
        # 4-4: 24->20->16, 16->12 blocked: two checkers each to 16.
        ((4, 4), [[(24, 13), (16, 2)]], 4),
        # 3-3: one checker can go 21, 18, 15 (12 blocked); two checkers share four 3s:
        # 3+1 -> {21, 15}; 2+2 -> {18, 18}.
        ((3, 3), [[(24, 13), (21, 1), (15, 1)], [(24, 13), (18, 2)]], 4),
        # 5-5 is not an exception roll: one checker 24->19->14->9->4 (his 7, 2, 21, 16).
        ((5, 5), [[(24, 14), (4, 1)]], 4),
    ],
)
def test_first_turn_head_exception_at_the_start(side, dice, expected, used):
    # §6.2 worked consequences (default: unconditional, each player's first turn). Black
    # moving first from the start position is the mirror image of White.
    board = LongNardy.start_board()
    result = plays(board, side, dice)
    assert {p.board.layout(side) for p in result} == {lay(*e) for e in expected}
    assert {len(p.steps) for p in result} == {used}


def test_first_turn_six_six_third_head_checker_is_illegal():
    # §6.2: "at most two in total". 6-6 from the start written as three 24/18: head rule.
    board = LongNardy.start_board()
    assert code(judge(board, W, (6, 6), [(24, 18)] * 3)) == "head_rule"
    assert judge(board, W, (6, 6), [(24, 18), (24, 18)]).legal


@pytest.mark.parametrize(
    ("exception", "expected"),
    [
        # unconditional: the exception always holds on the first 3-3.
        (HeadException.UNCONDITIONAL, [[(24, 13), (21, 1), (15, 1)], [(24, 13), (18, 2)]]),
        # only_if_needed: one head checker cannot play all four (stops at 15) -> second one.
        (HeadException.ONLY_IF_NEEDED, [[(24, 13), (21, 1), (15, 1)], [(24, 13), (18, 2)]]),
        # opponent_head_only: the single checker is stopped on 12 = the opponent's head.
        (HeadException.OPPONENT_HEAD_ONLY, [[(24, 13), (21, 1), (15, 1)], [(24, 13), (18, 2)]]),
        # none: one head checker only: 24->21->18->15, the fourth 3 lost.
        (HeadException.NONE, [[(24, 14), (15, 1)]]),
    ],
)
def test_head_exception_values_at_the_start(exception, expected):
    # §6.2 / A2 / §12.1 head_exception, White's first turn 3-3 at the start position.
    board = LongNardy.start_board()
    options = Options(head_exception=exception)
    assert finals(board, W, (3, 3), options) == {lay(*e) for e in expected}


@pytest.mark.parametrize(
    ("exception", "expected"),
    [
        (HeadException.UNCONDITIONAL, [(24, 13), (20, 2)]),
        (HeadException.ONLY_IF_NEEDED, [(24, 13), (20, 2)]),
        (HeadException.OPPONENT_HEAD_ONLY, [(24, 14), (20, 1)]),
        (HeadException.NONE, [(24, 14), (20, 1)]),
    ],
)
def test_head_exception_black_four_four_after_white_five_five(exception, expected):
    # §6.2 (c), RULES' own example. White opened 5-5: 24/4 (one head checker; W4 = B16).
    # Black's first turn, 4-4: a head checker goes 24->20 (W8, empty), then 20->16 is
    # blocked by White's checker on W4 -- not by White's head.
    # unconditional: two checkers 24/20 (2 dice). only_if_needed: one checker plays only
    # one 4 of four, so the second is allowed: same. opponent_head_only: stopped by a
    # non-head checker -> no exception: 24/20 only. none: 24/20 only.
    board = pos(B, [(24, 15)], [(24, 14), (4, 1)])
    options = Options(head_exception=exception)
    assert finals(board, B, (4, 4), options) == {lay(*expected)}


@pytest.mark.parametrize(
    ("exception", "expected"),
    [
        # Two checkers may share the four 3s: 4+0, 3+1, 2+2.
        (
            HeadException.UNCONDITIONAL,
            [[(24, 14), (12, 1)], [(24, 13), (21, 1), (15, 1)], [(24, 13), (18, 2)]],
        ),
        # One checker plays the whole roll -> the second is not needed.
        (HeadException.ONLY_IF_NEEDED, [[(24, 14), (12, 1)]]),
        # Nothing stops the single checker, least of all the opponent's head.
        (HeadException.OPPONENT_HEAD_ONLY, [[(24, 14), (12, 1)]]),
        (HeadException.NONE, [[(24, 14), (12, 1)]]),
    ],
)
def test_head_exception_when_one_checker_can_play_the_whole_roll(exception, expected):
    # §6.2 (a) vs (b)/(c) on a constructed position: Black's first turn (15 on his head),
    # White's checkers all on W1 = B13, nothing on White's head (B12 is free).
    # Black 3-3: one checker can go 24->21->18->15->12 (W9, W6, W3, W24 all empty).
    board = pos(B, [(24, 15)], [(1, 15)])
    options = Options(head_exception=exception)
    assert finals(board, B, (3, 3), options) == {lay(*e) for e in expected}


@pytest.mark.parametrize(
    ("options", "expected", "used"),
    [
        # each_player (default): Black's first turn has the exception: two to B18
        # (B18 = W6, empty; 18->12 is White's head).
        (Options(), [(24, 13), (18, 2)], 2),
        # game_first_turn: only the very first turn of the game (White's) -> one checker.
        (Options(first_turn_scope=FirstTurnScope.GAME_FIRST_TURN), [(24, 14), (18, 1)], 1),
        # opponent_head_only: the single checker is stopped on B12 = White's head -> two.
        (Options(head_exception=HeadException.OPPONENT_HEAD_ONLY), [(24, 13), (18, 2)], 2),
    ],
)
def test_first_turn_scope_for_the_second_mover(options, expected, used):
    # §6.2 A1. White opened 6-5: 24/13 (W24:14, W13:1 = B1). Black's first turn, 6-6.
    board = pos(B, [(24, 15)], [(24, 14), (13, 1)])
    result = plays(board, B, (6, 6), options)
    assert {p.board.black for p in result} == {lay(*expected)}
    assert {len(p.steps) for p in result} == {used}


def test_game_first_turn_scope_still_covers_the_first_mover():
    # §6.2 A1 option game_first_turn: White's opening 6-6 is the game's first turn.
    board = LongNardy.start_board()
    options = Options(first_turn_scope=FirstTurnScope.GAME_FIRST_TURN)
    assert finals(board, W, (6, 6), options) == {lay((24, 13), (18, 2))}


@SIDES
def test_opening_six_five_one_head_checker(side):
    # §6.1 at the start, non-double 6-5: only one head checker, so it plays both dice:
    # 24->18->13 or 24->19->13 (own 18/19/13 = his 6/7/1, empty). One result.
    board = LongNardy.start_board()
    assert finals(board, side, (6, 5)) == {lay((24, 14), (13, 1))}
    assert code(judge(board, side, (6, 5), [(24, 18), (24, 19)])) == "head_rule"


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        # Khachapuri: no head limit (§6.3): 24/21 or 24/23 + 24/22.
        (Khachapuri, [[(24, 1), (21, 1)], [(23, 1), (22, 1)]]),
        # Long nardy: one head checker (§6.1), so only 24/21.
        (LongNardy, [[(24, 1), (21, 1)]]),
    ],
)
def test_khachapuri_has_no_head_limit(variant, expected):
    # §6.3/§11.2. White 24:2 (rest off, so it is not a first turn); Black all on B1 = W13.
    # Roll 2-1: W23, W22, W21 are empty.
    board = pos(W, [(24, 2)], [(1, 15)])
    assert finals(board, W, (2, 1), variant=variant) == {lay(*e) for e in expected}


# ---------------------------------------------------------------------------------------
# §7: the block rule
# ---------------------------------------------------------------------------------------

# Mover on own 13, 11, 10, 9, 8, 7 = opponent's 1, 23, 22, 21, 20, 19. Roll 4-3, written
# 13/6 (via 9 or via 10). Own 6 = his 18, so the result holds his 23..18: a six-point block
# whose lowest point is his 18. Nothing else of the mover is adjacent (his 24 = my 12 and
# his 17 = my 5 are not mine). Legal iff (ahead) an opponent checker is on his 17..1 or off,
# (home) an opponent checker is on his 6..1 or off.
BLOCK_MINE = [(13, 1), (11, 1), (10, 1), (9, 1), (8, 1), (7, 1)]
BLOCK_AFTER = lay((11, 1), (10, 1), (9, 1), (8, 1), (7, 1), (6, 1))


@SIDES
@pytest.mark.parametrize(
    ("variant", "theirs", "options", "legal"),
    [
        # All 15 on his head (24): nobody ahead -> forbidden (§7.2).
        (LongNardy, [(24, 15)], Options(), False),
        # One on his 10 (my 22): ahead of the block -> allowed (§7.2).
        (LongNardy, [(24, 14), (10, 1)], Options(), True),
        # Same, block_rule=home: his 10 is not in his home -> forbidden (§7.3).
        (LongNardy, [(24, 14), (10, 1)], Options(block_rule=BlockRule.HOME), False),
        # One on his 4 (my 16), in his home -> allowed under home (§7.3).
        (LongNardy, [(24, 14), (4, 1)], Options(block_rule=BlockRule.HOME), True),
        # One borne off: counts as ahead / as having entered home (§7.2, §7.3, §7.6).
        (LongNardy, [(24, 14)], Options(), True),
        (LongNardy, [(24, 14)], Options(block_rule=BlockRule.HOME), True),
        # end_of_turn timing still forbids a block standing at the end of the turn (§7.5).
        (LongNardy, [(24, 15)], Options(block_timing=BlockTiming.END_OF_TURN), False),
        # Khachapuri inherits the block rule (§11.5).
        (Khachapuri, [(24, 15)], Options(), False),
        (Khachapuri, [(24, 14), (10, 1)], Options(), True),
    ],
)
def test_block_rule(side, variant, theirs, options, legal):
    board = pos(side, BLOCK_MINE, theirs)
    judgement = judge(board, side, (4, 3), [(13, 6)], options, variant)
    assert judgement.legal is legal
    after = {p.board.layout(side) for p in plays(board, side, (4, 3), options, variant)}
    assert (BLOCK_AFTER in after) is legal
    if legal:
        assert judgement.board.layout(side) == BLOCK_AFTER
    else:
        assert code(judgement) == "block_rule"


@pytest.mark.parametrize(("theirs", "legal"), [([(24, 15)], False), ([(24, 14), (5, 1)], True)])
def test_block_wrapping_the_movers_seam(theirs, legal):
    # §7.4. White 24, 23:2, 22, 6, 2, 1 (B12, B11, B10, B18, B14, B13). Roll 3-1, written
    # 6/3 + 23/22: White ends on 3, 2, 1, 24, 23, 22 = Black's 15, 14, 13, 12, 11, 10 --
    # six consecutive points of Black's path across White's 1/24 seam: a block whose lowest
    # point is B10. Either order passes through it (23/22 keeps 23 occupied).
    # Black all on B24 (W12): nobody below B10 -> forbidden. One Black checker on B5 (W17,
    # not on White's way) -> allowed.
    board = pos(W, [(24, 1), (23, 2), (22, 1), (6, 1), (2, 1), (1, 1)], theirs)
    judgement = judge(board, W, (3, 1), [(6, 3), (23, 22)])
    assert judgement.legal is legal
    if not legal:
        assert code(judgement) == "block_rule"


def test_six_points_across_the_opponents_seam_are_not_a_block():
    # §7.4 second half. White 16:2, 14, 13, 11, 10, 9; Black all 15 on B7 (= W19). Roll 4-2:
    # 16/12 (W12 = B24, empty: Black's head is empty here) and 16/14. White ends on own
    # 14..9 = Black's 2, 1, 24, 23, 22, 21: not consecutive on Black's path (his 1 -> off),
    # so no block, under both block rules; no Black checker is "ahead" in White's numbering,
    # which would matter only to an engine that measured blocks on the mover's path.
    board = pos(W, [(16, 2), (14, 1), (13, 1), (11, 1), (10, 1), (9, 1)], [(7, 15)])
    expected = lay((14, 2), (13, 1), (12, 1), (11, 1), (10, 1), (9, 1))
    for rule in BlockRule:
        judgement = judge(board, W, (4, 2), [(16, 12), (16, 14)], Options(block_rule=rule))
        assert judgement.legal
        assert judgement.board.white == expected


@pytest.mark.parametrize(("theirs", "legal"), [([(24, 15)], False), ([(24, 14), (10, 1)], True)])
def test_seven_in_a_row_contain_a_block(theirs, legal):
    # §7.1 "seven or more in a row contain a block". White 11, 10:2, 9, 7, 6, 5, 2 = B23,
    # B22, B21, B19, B18, B17, B14. Roll 2-1: 10/8 fills B20 -> seven in a row B23..B17;
    # 2/1 (B13) is not adjacent. Lowest point B17: Black all on his head -> forbidden; with
    # one Black checker on B10 (W22) ahead -> allowed.
    board = pos(W, [(11, 1), (10, 2), (9, 1), (7, 1), (6, 1), (5, 1), (2, 1)], theirs)
    judgement = judge(board, W, (2, 1), [(10, 8), (2, 1)])
    assert judgement.legal is legal
    if not legal:
        assert code(judgement) == "block_rule"


@SIDES
def test_transient_block_per_move_versus_end_of_turn(side):
    # §7.5 / A5. Mover 13, 10, 9, 8, 7, 6 (opponent's 1, 22, 21, 20, 19, 18); opponent all
    # 15 on his head (my 12), so no checker of his is ahead of anything. Roll 2-1.
    # 13->12 is blocked; 13->11 makes his 23..18 a block (illegal) unless a die-1 move has
    # already opened a gap in 10..6. The 13-checker can reach 10 only as 13->11->10, through
    # the illegal block: forbidden per move, allowed at end of turn (10:2, 9, 8, 7, 6 is not
    # a block).
    # Counting the per-move results (nets after merging chains of indistinguishable checkers):
    #   one checker 3 pips: 10/7, 9/6, 8/5, 7/4, 6/3                               -> 5
    #   a 2 from a and a 1 from b (b in 10..6, b != a-2, b != a+1, else it is a 3-pip net):
    #     a=13: b=10,9,8,7,6 (5; the 1 first opens the gap); a=10: b=9,7,6 (3);
    #     a=9: b=8,6 (2); a=8: b=10,7 (2); a=7: b=10,9,6 (3); a=6: b=10,9,8 (3)  -> 18
    # 23 per move; end of turn adds 13/10: 24.
    board = pos(side, [(13, 1), (10, 1), (9, 1), (8, 1), (7, 1), (6, 1)], [(24, 15)])
    through = lay((10, 2), (9, 1), (8, 1), (7, 1), (6, 1))
    per_move = finals(board, side, (2, 1))
    end_of_turn = finals(board, side, (2, 1), Options(block_timing=BlockTiming.END_OF_TURN))
    assert len(per_move) == 23
    assert end_of_turn - per_move == {through}
    assert per_move < end_of_turn
    assert code(judge(board, side, (2, 1), [(13, 10)])) == "block_rule"
    eot = Options(block_timing=BlockTiming.END_OF_TURN)
    assert judge(board, side, (2, 1), [(13, 10)], eot).board.layout(side) == through


def test_judge_sequence_sees_a_transient_block_in_the_written_order():
    # A6 + §7.5. White 24, 23, 22, 6, 2, 1 (B12, B11, B10, B18, B14, B13); Black all on
    # his head. Roll 3-1, moves 6/3 and 24/23 (one head checker: fine).
    # 6/3 first fills B15 while 24, 23, 22, 2, 1 stand: block B15..B10, nobody ahead.
    # 24/23 first empties B12, then 6/3 makes only B15..B13 + B11..B10: no block.
    # By position (default) the result is reachable legally; literally only 24/23 first.
    board = pos(W, [(24, 1), (23, 1), (22, 1), (6, 1), (2, 1), (1, 1)], [(24, 15)])
    sequence = Options(judge=Judge.SEQUENCE)
    assert judge(board, W, (3, 1), [(6, 3), (24, 23)]).legal
    assert code(judge(board, W, (3, 1), [(6, 3), (24, 23)], sequence)) == "block_rule"
    assert judge(board, W, (3, 1), [(24, 23), (6, 3)], sequence).legal


# ---------------------------------------------------------------------------------------
# §8: bearing off
# ---------------------------------------------------------------------------------------


def test_judge_sequence_bear_off_before_entering_home():
    # A6 + §8.1. White 8, 3 (Black all on B1 = W13). Roll 5-3, written 3/off then 8/3.
    # Literally, 3/off comes while 8 is outside the home: not allowed. Reordered (8/3 first,
    # a checker entering the home in the same turn counts) the result W3:1, 14 off is legal.
    board = pos(W, [(8, 1), (3, 1)], [(1, 15)])
    assert finals(board, W, (5, 3)) == {lay((3, 1))}
    assert judge(board, W, (5, 3), [(3, 0), (8, 3)]).legal
    sequence = Options(judge=Judge.SEQUENCE)
    assert code(judge(board, W, (5, 3), [(3, 0), (8, 3)], sequence)) == "bear_off_not_allowed"
    assert judge(board, W, (5, 3), [(8, 3), (3, 0)], sequence).legal


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        # 2-1: bearing off needs 8 home first, which takes the 2 (8/6) or both (8/5):
        # 8/6 + 2/1, or 8/5 (via 7 or 6). 2/off is never possible.
        ((2, 1), [[(6, 1), (1, 1)], [(5, 1), (2, 1)]]),
        # 6-2: 8/2 then 2/off, or 8/6 then 6/off: both leave W2:1 with 14 off.
        ((6, 2), [[(2, 1)]]),
    ],
)
def test_bear_off_only_when_all_are_home(dice, expected):
    # §8.1. White 8, 2 (Black all on B1 = W13; W7..W1 = B19..B13 are empty).
    board = pos(W, [(8, 1), (2, 1)], [(1, 15)])
    assert finals(board, W, dice) == {lay(*e) for e in expected}


def test_bear_off_exact_or_from_a_lower_point():
    # §8.2/§8.4/§8.5, the 6-3 example. White 6, 3 (13 off).
    # 6 first: 6/off (exact); 3 from 3 can't bear off with the 6 while 6 stands higher;
    # then 3/off -> all 15 off.
    # 3 first: 3/off then 6/off -> all off; or 6/3 (move inside), then the 6 bears off a
    # checker from 3 (nothing higher) -> W3:1, 14 off.
    board = pos(W, [(6, 1), (3, 1)], [(1, 15)])
    assert finals(board, W, (6, 3)) == {lay(), lay((3, 1))}


def test_bear_off_with_a_higher_die_not_while_higher_checkers_stand():
    # §8.3. White 5, 2 (W1 = B13 empty). Roll 4-1.
    # 4: point 4 empty and 5 is higher, so the 4 cannot bear off from 2: 5/1 instead.
    # Results: 5/1 + 2/1 -> W1:2; 5/1/off or 5/4/off -> W2:1. Not 2/off + 5/4.
    board = pos(W, [(5, 1), (2, 1)], [(1, 15)])
    assert finals(board, W, (4, 1)) == {lay((1, 2)), lay((2, 1))}
    assert code(judge(board, W, (4, 1), [(2, 0), (5, 4)])) == "bear_off_higher_checker"


def test_bear_off_from_the_highest_point_with_larger_dice():
    # §8.4. White 3, 2, 1 (12 off). Roll 6-5: no checker on 6 or 5 and none higher, so the
    # 6 (or the 5) bears off from 3, the highest, and the other die from 2 -> W1:1.
    # Bearing off 2 and 1 while 3 stands is illegal.
    board = pos(W, [(3, 1), (2, 1), (1, 1)], [(1, 15)])
    assert finals(board, W, (6, 5)) == {lay((1, 1))}
    assert code(judge(board, W, (6, 5), [(2, 0), (1, 0)])) == "bear_off_higher_checker"


def test_moving_inside_home_instead_of_bearing_off():
    # §8.5 / A8. White 3, 2 (13 off), roll 2-1.
    # 2 first: 3/1 then 2/1 -> W1:2 (nothing borne off) or 1/off -> W2:1; 2/off then 3/2
    # -> W2:1. 1 first: 3/2 then 2/off -> W2:1; 2/1 then 3/1 -> W1:2.
    # The inside-only play 3/1 + 2/1 is legal although a bear-off was possible.
    board = pos(W, [(3, 1), (2, 1)], [(1, 15)])
    assert finals(board, W, (2, 1)) == {lay((1, 2)), lay((2, 1))}
    assert judge(board, W, (2, 1), [(3, 1), (2, 1)]).legal


def test_inside_home_move_blocked_by_an_opponent_checker():
    # §8.6 + §5.1. White 6, 5 (13 off); Black on W2 (= B14) and W1 (= B13).
    # The 4: 6/2 and 5/1 are blocked; 4/off impossible (4 empty, 5 and 6 higher).
    # 1 first: 6/5, then the 4: 5/1 blocked -> 1 die only; 5/4, then the 4: 4/off exact.
    # So 5/4/off is the only full play: W6:1, 14 off.
    board = pos(W, [(6, 1), (5, 1)], [(14, 1), (13, 1), (1, 13)])
    assert finals(board, W, (4, 1)) == {lay((6, 1))}


def test_inside_home_blocked_die_is_lost():
    # §8.6 + §5.2. As above plus a Black checker on W4 (= B16).
    # 1: 6/5 ok, 5/4 blocked. After 6/5 the 4: 5/1 blocked, no bear-off (5 -> 1 is inside).
    # 4 first: unplayable. Only the smaller die can be played: 6/5.
    board = pos(W, [(6, 1), (5, 1)], [(16, 1), (14, 1), (13, 1), (1, 12)])
    result = plays(board, W, (4, 1))
    assert [p.board.white for p in result] == [lay((5, 2))]
    assert [(s.from_point, s.to_point, s.die) for s in result[0].steps] == [(6, 5, 1)]


def test_game_ends_with_the_fifteenth_checker_off():
    # §5.6/§9.1. White's last checker on 2, roll 3-1: 2/off with the 3 ends the game and is
    # as good as 2/1, 1/off. One result (15 off); both writings legal; dice left are void.
    board = pos(W, [(2, 1)], [(1, 15)])
    result = plays(board, W, (3, 1))
    assert [p.board.borne_off(W) for p in result] == [15]
    assert judge(board, W, (3, 1), [(2, 0)]).legal
    assert judge(board, W, (3, 1), [(2, 1), (1, 0)]).legal
    assert judge(board, W, (3, 1), [(2, 0)], Options(judge=Judge.SEQUENCE)).legal


# ---------------------------------------------------------------------------------------
# §10: draw rule (position level only)
# ---------------------------------------------------------------------------------------


def test_draw_rule_extra_turn_can_reach_fifteen_off_for_both():
    # §10.1. White (first mover) has 15 off; with the draw rule Black has one more turn.
    # Black 2, 1 (13 off), roll 2-1: 2/off + 1/off -> Black 15 off too (a draw position);
    # or 2/1 then the 2 bears off from 1 -> B1:1 (§8.5: bearing off is not compulsory).
    board = pos(B, [(2, 1), (1, 1)], [])
    result = plays(board, B, (2, 1), Options(draw_rule=True))
    assert {p.board.black for p in result} == {lay(), lay((1, 1))}
    assert any(p.board.borne_off(W) == p.board.borne_off(B) == 15 for p in result)


@pytest.mark.parametrize(
    ("black", "kind", "points"),
    [
        # §10.2: after_extra_turn counts Black after his extra turn (1 off: oin) ...
        ([(5, 14)], WinKind.SINGLE, 1),
        # ... at_finish counts him when White finished (0 off: mars).
        ([(5, 15)], WinKind.MARS, 2),
    ],
)
def test_draw_rule_scoring_counts_the_board_it_is_given(black, kind, points):
    for scoring in DrawScoring:
        options = Options(draw_rule=True, draw_scoring=scoring)
        win = LongNardy.classify_win(pos(W, [], black), W, options)
        assert (win.kind, win.points) == (kind, points)


# ---------------------------------------------------------------------------------------
# §9 / §11: scoring
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("winner", "loser", "koks", "kind", "points"),
    [
        # Loser has 1 off: oin, 1 (§9.2).
        (W, [(3, 14)], False, WinKind.SINGLE, 1),
        # Loser none off, all on his 8 (winner's 20, not the winner's home): mars 2.
        (W, [(8, 15)], False, WinKind.MARS, 2),
        (W, [(8, 15)], True, WinKind.MARS, 2),
        # Loser none off, one on his 15 = winner's 3 (winner's home): koks 3 with koks on.
        (W, [(8, 14), (15, 1)], True, WinKind.KOKS, 3),
        (W, [(8, 14), (15, 1)], False, WinKind.MARS, 2),
        # Black wins; White none off, one on W13 = B1 (Black's home): koks.
        (B, [(13, 1), (5, 14)], True, WinKind.KOKS, 3),
        # White none off, one on W12 = B24 (Black's head, not his home): mars.
        (B, [(12, 1), (5, 14)], True, WinKind.MARS, 2),
        # White 2 off, a checker on W18 = B6 (Black's home): oin beats koks.
        (B, [(18, 1), (5, 12)], True, WinKind.SINGLE, 1),
    ],
)
def test_long_nardy_scoring(winner, loser, koks, kind, points):
    # §9.2/§9.3 (A11): oin 1 / mars 2 / koks 3 only with koks=True and a loser checker on
    # his own 13..18 (= the winner's home).
    board = pos(winner, [], loser)
    win = LongNardy.classify_win(board, winner, Options(koks=koks))
    assert (win.kind, win.points) == (kind, points)


@pytest.mark.parametrize(
    ("winner", "loser", "kind", "points"),
    [
        (W, [(3, 10)], WinKind.SINGLE, 10),  # 5 off: 15 - 5
        (W, [(1, 1)], WinKind.SINGLE, 1),  # 14 off: 15 - 14
        (W, [(20, 15)], WinKind.MARS, 30),  # none off: mars pays 30
        (B, [(15, 15)], WinKind.MARS, 30),  # none off, all in the winner's home: no koks
        (B, [(2, 14)], WinKind.SINGLE, 14),  # 1 off: 15 - 1
    ],
)
def test_khachapuri_scoring(winner, loser, kind, points):
    # §11.3/§11.4: difference of borne-off checkers; mars = 30; no koks.
    win = Khachapuri.classify_win(pos(winner, [], loser), winner, Options())
    assert (win.kind, win.points) == (kind, points)


# ---------------------------------------------------------------------------------------
# §12: options
# ---------------------------------------------------------------------------------------


def test_option_defaults():
    # §12 table, default column.
    o = Options()
    assert o.head_exception is HeadException.UNCONDITIONAL
    assert o.first_turn_scope is FirstTurnScope.EACH_PLAYER
    assert o.block_rule is BlockRule.AHEAD
    assert o.block_timing is BlockTiming.PER_MOVE
    assert o.judge is Judge.POSITION
    assert o.draw_rule is False
    assert o.draw_scoring is DrawScoring.AFTER_EXTRA_TURN
    assert o.koks is False


LN_VALUES = [
    ("head_exception", v) for v in ("unconditional", "only_if_needed", "opponent_head_only", "none")
] + [
    ("first_turn_scope", "each_player"),
    ("first_turn_scope", "game_first_turn"),
    ("block_rule", "ahead"),
    ("block_rule", "home"),
    ("block_timing", "per_move"),
    ("block_timing", "end_of_turn"),
    ("judge", "position"),
    ("judge", "sequence"),
    ("draw_rule", False),
    ("draw_rule", True),
    ("draw_scoring", "after_extra_turn"),
    ("draw_scoring", "at_finish"),
    ("koks", False),
    ("koks", True),
]
KH_ONLY_LN = {"head_exception", "first_turn_scope", "koks"}


@pytest.mark.parametrize(("name", "value"), LN_VALUES)
def test_every_option_value_is_accepted(name, value):
    # §12.1: each value of each option applicable to long nardy; khachapuri accepts all of
    # them except head_exception, first_turn_scope and koks (long-nardy only).
    got = getattr(LongNardy.options_with({name: value}), name)
    assert got is value if isinstance(value, bool) else got == value
    if name in KH_ONLY_LN:
        with pytest.raises(InvalidOptionError):
            Khachapuri.options_with({name: value})
    else:
        assert getattr(Khachapuri.options_with({name: value}), name) == got


@pytest.mark.parametrize(
    ("variant", "mapping"),
    [
        ("khachapuri", {"koks": True}),  # §11.4: no koks in khachapuri
        ("long-nardy", {"head_exception": "x"}),  # not a value
        ("long-nardy", {"block_rule": "nowhere"}),
        ("long-nardy", {"draw_rule": "yes"}),  # not a boolean
        ("long-nardy", {"cube_limit": 64}),  # backgammon only
        ("long-nardy", {"cube": False}),  # the nardy variants have no cube
        ("backgammon", {"draw_rule": True}),  # nardy only
        ("backgammon", {"block_timing": "per_move"}),
        ("long-nardy", {"no_such_option": 1}),
    ],
)
def test_invalid_options_are_rejected(variant, mapping):
    with pytest.raises(InvalidOptionError):
        find_variant(variant).options_with(mapping)


# ---------------------------------------------------------------------------------------
# Shape checks of written moves (§4.2: no bar, no hitting)
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("moves", "reason"),
    [
        ([(25, 22)], "no_bar"),  # no bar in nardy
        ([(17, 20)], "backward_move"),
        ([(20, 13)], "wrong_die"),  # 7 pips cannot be made with 3-1
        ([(15, 12), (20, 19)], "no_checker"),  # no White checker on 15
        ([(26, 23)], "invalid_point"),
    ],
)
def test_written_move_shape_reasons(moves, reason):
    # The position of test_one_or_two_checkers_either_order: White 20, 10; roll 3-1.
    board = pos(W, [(20, 1), (10, 1)], [(1, 1), (2, 1)])
    judgement = judge(board, W, (3, 1), moves)
    assert not judgement.legal
    assert code(judgement) == reason
