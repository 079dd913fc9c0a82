"""The game flow and the match between games, transition by transition, with expected
values worked out by hand from RULES.md §3, §9-11 and §14."""

from __future__ import annotations

import pytest

from referee.bridge import read_position
from referee.rules.cube import CubeRule
from referee.rules.flow import Ending, GameFlow
from referee.rules.match import MatchState
from referee.rules.options import DrawScoring, Options
from referee.rules.position import Cube
from referee.rules.scoring import Termination
from referee.rules.variants import Backgammon, LongNardy, Variant, WinKind
from tests.positions import nardy
from vocabulary import Phase, Side

W, B = Side.WHITE, Side.BLACK


def game(variant: type[Variant], options: Options | None = None, length: int = 0) -> GameFlow:
    options = options or Options()
    return GameFlow.start(
        MatchState(variant, options, length).next_game().start_position(), options
    )


# -- the opening -----------------------------------------------------------------------------


def test_backgammon_opening_dice_are_the_starters_first_roll() -> None:
    flow = game(Backgammon).opened(3, 5)  # Black's 5 beats White's 3
    assert (flow.position.turn, flow.position.phase, flow.position.dice) == (B, Phase.MOVE, (5, 3))
    assert flow.first_mover is B


def test_a_nardy_starter_rolls_afresh() -> None:
    flow = game(LongNardy).opened(6, 2)
    assert (flow.position.turn, flow.position.phase, flow.position.dice) == (W, Phase.ROLL, None)
    assert flow.first_mover is W


def test_opening_ties_double_the_cube_in_money_play_up_to_auto_doubles() -> None:
    flow = game(Backgammon, Options(auto_doubles=2))
    doubled = flow.opening_tie().opening_tie().opening_tie()  # the third tie changes nothing
    assert doubled.position.cube == Cube(4) and doubled.cube.cube == Cube(4)
    assert doubled.stake.cube == 4


def test_opening_ties_never_double_in_a_match_nor_past_the_cube_limit() -> None:
    assert game(Backgammon, Options(auto_doubles=3), length=5).opening_tie().stake.cube == 1
    limited = game(Backgammon, Options(auto_doubles=3, cube_limit=2))
    assert limited.opening_tie().opening_tie().stake.cube == 2


# -- the cube ------------------------------------------------------------------------------


def test_double_take_and_the_doubler_rolls_next_owning_nothing() -> None:
    flow = game(Backgammon).opened(3, 1).played(W, Backgammon.start_board())
    assert flow.position.turn is B and flow.double_problem(B) is None
    assert flow.double_problem(W) is CubeRule.NOT_BEFORE_ROLL  # not White's turn
    offered = flow.doubled(B)
    assert (offered.position.turn, offered.position.phase) == (W, Phase.DOUBLED)
    assert offered.position.cube == Cube(2) and offered.stake.cube == 1  # the stake is still 1
    taken = offered.taken(W)
    assert (taken.position.turn, taken.position.phase, taken.position.cube) == (
        B,
        Phase.ROLL,
        Cube(2, W),
    )
    assert taken.double_problem(B) is CubeRule.NOT_CUBE_OWNER


def test_a_beaver_is_answered_by_the_doubler_and_its_maker_keeps_the_cube() -> None:
    flow = game(Backgammon, Options(beavers=True)).opened(3, 1).played(W, Backgammon.start_board())
    beavered = flow.doubled(B).beavered(W)
    # White owns the 2-cube he accepted and offers 4 (state d shows the value offered)
    assert beavered.position.turn is B and beavered.position.cube == Cube(4, W)
    assert beavered.stake.cube == 2  # dropped now, the beaver's 2-cube is lost
    assert beavered.taken(B).position.cube == Cube(4, W)
    dropped = beavered.dropped()
    assert dropped.result is not None and dropped.position.phase is Phase.END
    assert (dropped.result.winner, dropped.result.points) == (W, 2)


def test_no_doubling_in_the_crawford_game() -> None:
    state = MatchState(Backgammon, Options(), 5).next_game((4, 2))
    flow = GameFlow.start(state.start_position(), Options()).opened(1, 6)
    flow = flow.played(B, flow.position.board)
    assert flow.double_problem(W) is CubeRule.CRAWFORD_GAME


# -- the end -------------------------------------------------------------------------------

# Long nardy, White's own points: one White checker left on 1, everything else off; Black
# has two checkers left on his own 1 (White's 13) and 13 off.
NEAR_THE_END = nardy("long-nardy", {1: "1w", 13: "2b"}, "w", "-", off="w14b13")
WHITE_DONE = nardy("long-nardy", {13: "2b"}, "w", "-", off="w15b13")
BLACK_ONE_LEFT = nardy("long-nardy", {13: "1b"}, "w", "-", off="w15b14")
BLACK_DONE = nardy("long-nardy", {}, "w", "-", off="w15b15")


def end_game(options: Options, first_mover: Side) -> GameFlow:
    start = read_position(NEAR_THE_END)
    return GameFlow(start, options, GameFlow.start(start, options).cube, first_mover=first_mover)


def test_bearing_off_the_last_checker_ends_the_game() -> None:
    flow = end_game(Options(), W).played(W, read_position(WHITE_DONE).board)
    assert flow.result is not None and flow.position.phase is Phase.END
    # Black has borne off checkers: a single game (oin), one point
    assert (flow.result.winner, flow.result.termination, flow.result.kind) == (
        W,
        Termination.BORE_OFF,
        WinKind.SINGLE,
    )
    assert flow.position.board == read_position(WHITE_DONE).board  # the board as it ended


def test_an_ending_is_scored_on_the_board_given_and_ends_on_the_board_as_it_stands() -> None:
    # how the native checker's answer is scored: White has borne nothing off, a mars
    marsed = read_position(nardy("long-nardy", {24: "15w"}, "w", "-", off="w0b15")).board
    flow = end_game(Options(), W)
    ended = flow.ended(Ending.BORE_OFF, B, scored=marsed)
    assert ended.result is not None and ended.position.phase is Phase.END
    assert (ended.result.winner, ended.result.termination, ended.result.kind) == (
        B,
        Termination.BORE_OFF,
        WinKind.MARS,
    )
    assert ended.position.board == flow.position.board
    drawn = flow.ended(Ending.DRAW)
    assert drawn.result is not None
    assert (drawn.result.winner, drawn.result.termination, drawn.result.points) == (
        None,
        Termination.DRAW,
        0,
    )


def test_the_draw_rule_gives_the_second_mover_an_extra_turn_and_a_draw() -> None:
    options = Options(draw_rule=True)
    finished = end_game(options, W).played(W, read_position(WHITE_DONE).board)
    assert finished.result is None and finished.extra_turn_for is B
    assert (finished.position.turn, finished.position.phase) == (B, Phase.ROLL)
    drawn = finished.played(B, read_position(BLACK_DONE).board)
    assert drawn.result is not None and drawn.result.termination is Termination.DRAW
    assert (drawn.result.winner, drawn.result.points) == (None, 0)


def test_no_extra_turn_for_the_first_mover() -> None:
    # Black moved first, White finishes: White simply wins (RULES.md §10)
    flow = end_game(Options(draw_rule=True), B).played(W, read_position(WHITE_DONE).board)
    assert flow.result is not None and flow.result.winner is W


@pytest.mark.parametrize(
    ("scoring", "points"),
    [
        (DrawScoring.AFTER_EXTRA_TURN, 1),  # Black bore one more off: still a single game
        (DrawScoring.AT_FINISH, 1),
    ],
)
def test_a_missed_extra_turn_scores_the_finisher(scoring: DrawScoring, points: int) -> None:
    options = Options(draw_rule=True, draw_scoring=scoring)
    finished = end_game(options, W).played(W, read_position(WHITE_DONE).board)
    flow = finished.played(B, read_position(BLACK_ONE_LEFT).board)
    assert flow.result is not None
    assert (flow.result.winner, flow.result.termination, flow.result.points) == (
        W,
        Termination.BORE_OFF,
        points,
    )


def test_resignation_and_timeout_end_the_game_on_its_board() -> None:
    flow = game(Backgammon).opened(3, 1)
    resigned = flow.resigned(B, 2)
    assert resigned.result is not None and resigned.position.phase is Phase.END
    # money play, Jacoby on and no double offered: a mars resigned counts single (14.8)
    assert (resigned.result.winner, resigned.result.kind, resigned.result.points) == (
        B,
        WinKind.MARS,
        1,
    )
    assert resigned.result.jacoby_applied
    timed_out = flow.timed_out(W, 5)
    assert timed_out.result is not None
    assert (timed_out.result.termination, timed_out.result.points) == (Termination.TIMEOUT, 5)
    assert timed_out.position.board == flow.position.board


# -- the match -----------------------------------------------------------------------------


def test_a_match_counts_its_score_finds_the_crawford_game_and_its_winner() -> None:
    match = MatchState(Backgammon, Options(), 5).next_game()
    assert (match.game, match.crawford) == (1, (False, False))
    match = match.scored(W, 4).next_game()  # 4-0: the Crawford game
    assert (match.game, match.crawford, match.crawford_game) == (2, (True, False), 2)
    assert match.start_position().crawford
    match = match.scored(B, 1).next_game()  # 4-1: post-Crawford
    assert match.crawford == (False, True) and match.winner is None
    match = match.scored(W, 2)
    assert (match.score, match.winner) == ((6, 1), W)
    assert match.scored(B, 9).winner is W  # the first to reach the length keeps the win


def test_a_money_session_has_no_winner_and_no_crawford_game() -> None:
    match = MatchState(Backgammon, Options(), 0).next_game().scored(W, 64).next_game()
    assert (match.winner, match.crawford, match.score) == (None, (False, False), (64, 0))
