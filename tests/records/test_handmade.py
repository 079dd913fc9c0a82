"""Hand-made records, each worked out by hand from RULES.md, NOTATION.md and FORMATS.md.

The fixtures in ``fixtures/`` are short: games start from ``[StartPosition]`` bear-off
positions so that every result can be counted by hand. Line and column numbers are those
of the record text (1-based); in gnubg's layout a left-hand play starts at column 6, a
right-hand play at column 34, a left-hand cube word at column 7 and a right-hand one at 35.
Plays are written in the mover's own numbering. "Scores" are Alice-Bob (left-right).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.adjudication import adjudicate

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
EXAMPLES = HERE.parents[1] / "examples"

Json = dict[str, Any]


def load(path: Path) -> str:
    """The record as written: bytes decoded without newline translation (CRLF and the BOM
    reach the reader untouched)."""
    return path.read_bytes().decode("utf-8")


def check(
    name: str,
    mode: str = "strict",
    options: dict[str, object] | None = None,
    folder: Path = FIXTURES,
) -> Json:
    """The verdict JSON for a fixture (or, with ``folder=EXAMPLES``, an example)."""
    return adjudicate(load(folder / name), mode=mode, options=options).verdict.to_json()


def game(verdict: Json, index: int) -> Json:
    """Game ``index`` (1-based, as in the verdict)."""
    found = verdict["games"][index - 1]
    assert found["index"] == index
    return found


def issues(verdict: Json, index: int, kind: str = "errors") -> list[Json]:
    return list(game(verdict, index)[kind])


def codes(verdict: Json, index: int, kind: str = "errors") -> list[str]:
    return [issue["code"] for issue in issues(verdict, index, kind)]


def place(issue: Json) -> tuple[Any, ...]:
    """Where an issue was found: (line, move_number, side, column)."""
    return issue["line"], issue["move_number"], issue["side"], issue["column"]


def outcome(found: Json) -> tuple[Any, ...]:
    """(winner, termination, kind, points) of one game."""
    return found["winner"], found["termination"], found["kind"], found["points"]


def all_issues(verdict: Json) -> list[Json]:
    return [
        issue
        for found in verdict["games"]
        for kind in ("errors", "warnings")
        for issue in found[kind]
    ]


# -- 1. an illegal play in game 2 ---------------------------------------------------------


def test_illegal_play_in_game_two_stops_only_that_game() -> None:
    # Game 2 starts with Alice on 6 and 2 (13 off) to play 43. "6/1" is five pips, which
    # neither die nor their sum makes (RULES.md 4.1): the written play cannot be made with
    # 4-3 at all. The only legal result is one checker left on 2 (6/2 with the 4, then the
    # 3 bears off from 2: nothing stands higher, RULES.md 8.4); canonically "6/2 2/off"
    # (NOTATION.md §4: larger die first, parts by from-point).
    verdict = check("bg_illegal_play_game2.mat")
    assert verdict["valid"] is False
    assert issues(verdict, 1) == [] and issues(verdict, 3) == []
    [error] = issues(verdict, 2)
    assert error["code"] == "illegal_play"
    assert error["rule"] == "wrong_die"
    assert place(error) == (16, 1, "w", 6)
    assert error["play"] == "6/1 2/off"
    assert error["alternatives"] == ["6/2 2/off"]
    # The position before the play: Alice 2:1, 6:1, Bob 2 on his 1 (White's 24), 13 off
    # each, Alice to act, centred cube, 5-point match at 1-0. The state field (before or
    # after the roll) is not pinned by the spec, so it is not compared.
    fields = error["position"].split()
    assert fields[:5] == [
        "backgammon",
        ",1w,,,,1w,,,,,,,,,,,,,,,,,,2b",
        "w0b0",
        "w13b13",
        "w",
    ]
    assert fields[6:] == ["1c", "5:1-0", "-"]
    # Game 1: Alice bears off both (Bob 13 off): single, 1. Game 2 stopped at the error, so
    # the rules name no winner and it moves no score (issue 18); its Wins line (Bob, 1) is
    # recorded, and game 3 starts from its score line, 1-1. Game 3: Bob bears off (Alice 12
    # off): single, 1.
    assert outcome(game(verdict, 1)) == ("w", "bore_off", "single", 1)
    assert outcome(game(verdict, 2)) == (None, "unfinished", None, 0)
    assert game(verdict, 2)["recorded_points"] == 1
    assert outcome(game(verdict, 3)) == ("b", "bore_off", "single", 1)
    assert verdict["match"]["scores_after"] == [[1, 0], [1, 0], [1, 2]]
    assert verdict["match"]["winner"] is None


# -- 2. Crawford --------------------------------------------------------------------------


def test_double_in_the_crawford_game_is_illegal_and_fine_after_it() -> None:
    # 3-point match. Game 1: Alice wins a gammon (Bob none off, none in her home): 2-0, so
    # game 2 is the Crawford game (RULES.md 14.9) and Bob's double on its row 1 is illegal.
    # Game 3 at 2-1 is post-Crawford: Bob doubles, Alice takes (cube 2, hers), Bob bears off
    # (Alice 12 off): single x 2 = 2, 2-3, Bob wins the match.
    verdict = check("bg_crawford_double.mat")
    assert verdict["valid"] is False
    assert verdict["match"]["crawford_game"] == 2
    assert [found["crawford"] for found in verdict["games"]] == [False, True, False]
    assert outcome(game(verdict, 1)) == ("w", "bore_off", "mars", 2)
    [error] = issues(verdict, 2)
    assert error["code"] == "illegal_cube_action"
    assert error["rule"] == "crawford_game"
    assert place(error) == (15, 1, "b", 35)
    third = game(verdict, 3)
    assert third["errors"] == [] and third["warnings"] == []
    assert outcome(third) == ("b", "bore_off", "single", 2)
    assert (third["cube"], third["cube_owner"]) == (2, "w")
    # Game 2 stopped at its error: it moves no score; game 3 starts from its score line, 2-1.
    assert verdict["match"]["scores_after"] == [[2, 0], [2, 0], [2, 3]]
    # The record runs to the end, but it is invalid: the rules name no winner of the match,
    # the record says Bob won it (issue 18).
    assert verdict["match"]["winner"] is None
    assert verdict["match"]["recorded_winner"] == "b"
    assert verdict["match"]["complete"] is True


def test_without_the_crawford_rule_the_same_double_is_legal() -> None:
    # crawford=false (request option beats the header tag, NOTATION.md §4): Bob's double in
    # game 2 stands and Alice's drop gives Bob the cube value before the double, 1.
    verdict = check("bg_crawford_double.mat", options={"crawford": False})
    assert verdict["valid"] is True
    assert verdict["match"]["crawford_game"] is None
    assert outcome(game(verdict, 2)) == ("b", "drop", None, 1)
    assert verdict["match"]["scores_after"] == [[2, 0], [2, 1], [2, 3]]
    assert verdict["match"]["winner"] == verdict["match"]["recorded_winner"] == "b"


# -- 3. a take without a double -----------------------------------------------------------


def test_take_without_a_double() -> None:
    verdict = check("bg_take_without_double.mat")
    assert verdict["valid"] is False
    [error] = issues(verdict, 1)  # strict: checking of the game stops there
    assert error["code"] == "illegal_cube_action"
    assert error["rule"] == "no_double_pending"
    assert place(error) == (8, 1, "b", 35)


# -- 4. a wrong score line ----------------------------------------------------------------


def test_wrong_score_line_is_a_warning() -> None:
    # Game 1 leaves 1-0; game 2's score line says 2-0. The score line is the ground truth
    # for what follows (FORMATS.md part 1 §7.11): Bob's single makes it 2-1.
    verdict = check("bg_wrong_score_line.mat")
    assert verdict["valid"] is True
    assert issues(verdict, 1, "warnings") == []
    [warning] = issues(verdict, 2, "warnings")
    assert warning["code"] == "score_mismatch"
    assert warning["line"] == 13
    assert game(verdict, 2)["score_before"] == [2, 0]
    assert outcome(game(verdict, 2)) == ("b", "bore_off", "single", 1)
    assert verdict["match"]["scores_after"] == [[1, 0], [2, 1]]


# -- 5. a truncated game ------------------------------------------------------------------


def test_truncated_game_is_unfinished() -> None:
    # Game 2 from the usual start: 31: 8/5 6/5 and Bob's 42: 8/4 6/4 are legal, then the
    # record stops.
    verdict = check("bg_truncated_game.mat")
    assert verdict["valid"] is True
    second = game(verdict, 2)
    assert outcome(second) == (None, "unfinished", None, 0)
    [warning] = second["warnings"]
    assert warning["code"] == "unfinished_game"
    assert warning["line"] == 11  # the game's own ` Game 2` line
    assert verdict["match"]["scores_after"] == [[1, 0], [1, 0]]
    assert verdict["match"]["winner"] is None
    assert verdict["match"]["complete"] is False


# -- 6. the long nardy head rule ----------------------------------------------------------


@pytest.mark.parametrize(
    ("index", "where", "play"),
    [
        # 52 on the first turn is not 66/44/33: one checker only may leave the head
        # (RULES.md 6.1-6.2), so the one that leaves must play both dice: 24/17.
        (1, (8, 1, "w", 6), "24/19 24/22"),
        # Both sides use the first-turn 66 exception legally (two to their 18; the other
        # sixes are stopped by the opponent's head); on Bob's second turn 44 takes two
        # from the head again, which only the first turn allows.
        (2, (13, 2, "b", 34), "24/20 24/20 20/16 20/16"),
    ],
)
def test_long_nardy_head_rule(index: int, where: tuple[Any, ...], play: str) -> None:
    verdict = check("ln_head_rule.mat")
    assert verdict["variant"] == "long-nardy"
    assert verdict["valid"] is False
    [error] = issues(verdict, index)
    assert error["code"] == "illegal_play"
    assert error["rule"] == "head_rule"
    assert place(error) == where
    assert error["play"] == play
    if index == 1:
        assert error["alternatives"] == ["24/19 19/17"]


# -- 7. a khachapuri result the record gets wrong -----------------------------------------


def test_khachapuri_wrong_result() -> None:
    # Game 1: Alice bears off her last checker, Bob has 5 off: 15 - 5 = 10 (RULES.md 11.3),
    # but the record says Wins 1. Game 2's score line follows the record (1-0), not the
    # rules (10-0): a score_mismatch; Bob then wins with Alice on 13 off: 2.
    verdict = check("kh_wrong_result.mat")
    assert verdict["variant"] == "khachapuri"
    assert verdict["valid"] is True
    first = game(verdict, 1)
    assert outcome(first) == ("w", "bore_off", "single", 10)
    assert first["recorded_points"] == 1
    assert first["result_mismatch"] == "the record says 1 point, the rules give 10"
    [warning] = first["warnings"]
    assert warning["code"] == "result_mismatch"
    assert warning["line"] == 10
    second = game(verdict, 2)
    assert codes(verdict, 2, "warnings") == ["score_mismatch"]
    assert second["warnings"][0]["line"] == 14
    assert outcome(second) == ("b", "bore_off", "single", 2)
    assert second["result_mismatch"] is None
    assert verdict["match"]["scores_after"] == [[10, 0], [1, 2]]


# -- 8. condone mode ----------------------------------------------------------------------


def test_condoned_play_stands_and_later_plays_are_judged_from_it() -> None:
    # Game 1: Alice (6, 5) writes 21: 6/3 5/3 - three and two pips, not 2 and 1: illegal,
    # but physically possible, so it stands (two checkers on 3). Bob's 21: 6/4 6/5 is legal.
    # Alice's 33: 3/off 3/off is legal only from the condoned board (from the legal results
    # of her 21 - checkers on 4 and 4, 5 and 3, or 6 and 2 - it is not), and it ends the
    # game: Bob has 12 off, single, 1.
    verdict = check("bg_condone.mat", mode="condone")
    assert verdict["valid"] is False
    [error] = issues(verdict, 1)
    assert error["code"] == "illegal_play"
    assert error["rule"] == "wrong_die"
    assert place(error) == (8, 1, "w", 6)
    # The three legal results, in canonical text (one checker's dice in travel order,
    # larger die first when both orders are legal, NOTATION.md §4).
    assert sorted(error["alternatives"]) == ["5/3 3/2", "6/4 4/3", "6/4 5/4"]
    assert outcome(game(verdict, 1)) == ("w", "bore_off", "single", 1)
    assert game(verdict, 1)["result_mismatch"] is None
    # games 2 and 3 stop at an impossible play (below): they move no score (issue 18)
    assert verdict["match"]["scores_after"] == [[1, 0], [1, 0], [2, 0]]


@pytest.mark.parametrize(
    ("index", "line", "rule", "alternatives"),
    [
        # 21: 4/2 6/5 - Alice has no checker on 4. Legal results as in game 1.
        (2, 15, "no_checker", ["5/3 3/2", "6/4 4/3", "6/4 5/4"]),
        # 31: 8/5 6/5 - Bob holds Alice's 5 with two checkers (his 20). Legal: 8/7 6/3,
        # 6/3 3/2 (not via 5), 8/7 7/4 (not via 5).
        (3, 21, "blocked_point", ["6/3 3/2", "8/7 6/3", "8/7 7/4"]),
    ],
)
def test_condone_stops_at_a_physically_impossible_play(
    index: int, line: int, rule: str, alternatives: list[str]
) -> None:
    verdict = check("bg_condone.mat", mode="condone")
    found = issues(verdict, index)
    assert found[-1]["code"] == "impossible_action"
    assert place(found[-1]) == (line, 1, "w", 6)
    illegal = [error for error in found if error["code"] == "illegal_play"]
    assert [error["rule"] for error in illegal] == [rule]
    assert sorted(illegal[0]["alternatives"]) == alternatives
    assert all(place(error) == (line, 1, "w", 6) for error in found)
    # Bob's reply on the same row (from points where he has no checker) is never judged.
    assert all(error["column"] == 6 for error in found)
    # Checking stopped, so the rules name no winner; the Wins line is only recorded.
    assert game(verdict, index)["winner"] is None
    assert game(verdict, index)["recorded_points"] == 1


def test_strict_mode_stops_at_the_first_illegal_play() -> None:
    verdict = check("bg_condone.mat")
    assert len(issues(verdict, 1)) == 1
    assert game(verdict, 1)["termination"] != "bore_off"  # the bear-off is never replayed
    for index in (2, 3):
        assert codes(verdict, index) == ["illegal_play"]


# -- 9 and 10. the examples: whole matches worked out by hand ------------------------------

# (winner, termination, kind, points) per game, and the score after each game.
LONG_NARDY = [
    ("w", "bore_off", "single", 1),  # Bob's extra turn leaves two on: oin
    ("b", "bore_off", "mars", 2),  # Alice's extra turn bears none off
    (None, "draw", None, 0),  # Bob also finishes in his extra turn
    ("b", "bore_off", "single", 1),  # the second mover finishes: no extra turn
    ("w", "bore_off", "single", 1),  # Bob's first checker off in his extra turn: oin
    ("w", "bore_off", "mars", 2),  # Bob cannot bear off
    ("b", "bore_off", "mars", 2),  # Alice's extra turn bears none off
]
LONG_NARDY_SCORES = [[1, 0], [1, 2], [1, 2], [1, 3], [2, 3], [4, 3], [4, 5]]

KHACHAPURI = [
    ("w", "bore_off", "single", 10),  # Bob 5 off: 15 - 5
    ("b", "bore_off", "mars", 30),  # Alice none off
    ("w", "bore_off", "single", 2),  # Bob 13 off
    ("b", "bore_off", "single", 3),  # Alice 12 off
    ("w", "bore_off", "mars", 30),  # Bob none off
    ("w", "bore_off", "single", 8),  # Bob 7 off
]
KHACHAPURI_SCORES = [[10, 0], [10, 30], [12, 30], [12, 33], [42, 33], [50, 33]]

BACKGAMMON = [
    ("w", "drop", None, 1),  # Alice doubles, Bob drops
    ("b", "bore_off", "single", 2),  # cube 2 (Alice took), Alice 13 off
    ("w", "bore_off", "mars", 4),  # cube 2 (Bob took), Bob none off, none in her home
]
BACKGAMMON_SCORES = [[1, 0], [1, 2], [5, 2]]


@pytest.mark.parametrize(
    ("name", "variant", "expected", "scores", "winner"),
    [
        ("backgammon_match.mat", "backgammon", BACKGAMMON, BACKGAMMON_SCORES, "w"),
        ("long_nardy_match.mat", "long-nardy", LONG_NARDY, LONG_NARDY_SCORES, "b"),
        ("khachapuri_match.mat", "khachapuri", KHACHAPURI, KHACHAPURI_SCORES, "w"),
    ],
)
def test_example_matches(
    name: str, variant: str, expected: list[tuple[Any, ...]], scores: list[list[int]], winner: str
) -> None:
    verdict = check(name, folder=EXAMPLES)
    assert verdict["valid"] is True
    assert verdict["variant"] == variant
    assert all_issues(verdict) == [] and verdict["warnings"] == []
    assert [outcome(found) for found in verdict["games"]] == expected
    for found, (_, termination, _, points) in zip(verdict["games"], expected, strict=True):
        if termination in ("bore_off", "drop"):
            assert found["recorded_points"] == points
        else:
            assert found["recorded_points"] is None  # a draw has no Wins line
        assert found["result_mismatch"] is None
    assert verdict["match"]["scores_after"] == scores
    assert verdict["match"]["winner"] == winner
    assert verdict["match"]["complete"] is True
    assert verdict["match"]["players"] == ["Alice", "Bob"]


def test_backgammon_example_cube() -> None:
    verdict = check("backgammon_match.mat", folder=EXAMPLES)
    cubes = [(found["cube"], found["cube_owner"]) for found in verdict["games"]]
    assert cubes == [(1, None), (2, "w"), (2, "b")]
    assert verdict["match"]["crawford_game"] is None  # nobody reached 4 before the end


def test_long_nardy_example_scores_mars_at_the_finish_when_asked() -> None:
    # draw_scoring=at_finish (RULES.md A10): in game 5 Bob had none off when Alice finished,
    # so it is a mars (2), not an oin. The later score lines then disagree with the rules.
    verdict = check("long_nardy_match.mat", options={"draw_scoring": "at_finish"}, folder=EXAMPLES)
    assert outcome(game(verdict, 5)) == ("w", "bore_off", "mars", 2)
    assert codes(verdict, 6, "warnings")[:1] == ["score_mismatch"]


def test_long_nardy_example_needs_the_draw_rule() -> None:
    # Without the draw rule game 1 ends when Alice bears off her last checker, so Bob's
    # extra turn on the same row is an action after the end.
    verdict = check("long_nardy_match.mat", options={"draw_rule": False}, folder=EXAMPLES)
    assert verdict["valid"] is False
    error = issues(verdict, 1)[0]
    assert error["code"] == "action_after_end"
    assert place(error) == (24, 1, "b", 34)
    assert outcome(game(verdict, 1)) == ("w", "bore_off", "single", 1)  # Bob 12 off


# -- dialects no corpus file shows (FORMATS.md part 1) -------------------------------------


@pytest.mark.parametrize(
    ("name", "raw"),
    [("dialect_crlf.mat", b"\r\n"), ("dialect_bom.mat", b"\xef\xbb\xbf; [Variation")],
)
def test_crlf_and_bom(name: str, raw: bytes) -> None:
    assert raw in (FIXTURES / name).read_bytes()
    # Alice's 21: 6/4* 5/4 marks a hit on an empty point: a warning, never trusted
    # (NOTATION.md §2). Bob bears off his last two (Alice 13 off): single, the match.
    verdict = check(name)
    assert verdict["valid"] is True
    assert verdict["variant"] == "backgammon"
    [warning] = issues(verdict, 1, "warnings")
    assert warning["code"] == "hit_mark_wrong"
    assert place(warning) == (8, 1, "w", 6)
    assert outcome(game(verdict, 1)) == ("b", "bore_off", "single", 1)
    assert verdict["match"]["winner"] == "b"
    assert verdict["match"]["players"] == ["Alice", "Bob"]


def test_money_session_with_a_beaver_and_jacoby() -> None:
    # 0 point match, [Beaver "On"], [Jacoby "On"]. Game 1: Alice doubles to 2, Bob beavers
    # to 4 and keeps the cube; Alice's roll takes the beaver (gnubg writes no Takes after a
    # beaver). Alice bears off, Bob has 13 off: single x 4. Game 2: no double, Alice wins a
    # gammon (Bob none off, none in her home), which the Jacoby rule counts as a single.
    verdict = check("money_beaver.mat")
    assert verdict["valid"] is True
    assert verdict["match"]["length"] == 0
    assert verdict["options"]["beavers"] is True
    first, second = verdict["games"]
    assert outcome(first) == ("w", "bore_off", "single", 4)
    assert (first["cube"], first["cube_owner"], first["jacoby_applied"]) == (4, "b", False)
    assert outcome(second) == ("w", "bore_off", "mars", 1)
    assert second["jacoby_applied"] is True
    assert verdict["match"]["scores_after"] == [[4, 0], [5, 0]]
    assert all_issues(verdict) == []


def test_beaver_without_beavers_is_illegal() -> None:
    verdict = check("money_beaver.mat", options={"beavers": False})
    assert verdict["valid"] is False
    [error] = issues(verdict, 1)
    assert error["code"] == "illegal_cube_action"
    assert error["rule"] == "beaver_not_allowed"
    assert place(error) == (10, 1, "b", 35)


def test_snowie_illegal_play_cell_is_a_position_edit() -> None:
    verdict = check("dialect_illegal_play_cell.mat")
    assert verdict["valid"] is True
    [warning] = issues(verdict, 1, "warnings")
    assert warning["code"] == "position_edit"
    assert place(warning) == (8, 1, "b", 34)
    first = game(verdict, 1)
    assert (first["winner"], first["recorded_points"]) == ("w", 1)


def test_header_less_record() -> None:
    # No header at all: backgammon by default. Game 1: 31: 8/5 6/5, Bob 61: 13/7 8/7, Alice
    # doubles, Bob drops: Alice 1. Game 2: Bob first, 52: 13/8 13/11, Alice 65: 24/13 (by
    # her 18: her 19 is Bob's 6-point), Bob doubles, Alice drops: Bob 1.
    verdict = check("dialect_headerless.mat")
    assert verdict["valid"] is True
    assert verdict["variant"] == "backgammon"
    assert all_issues(verdict) == [] and verdict["warnings"] == []
    assert [outcome(found) for found in verdict["games"]] == [
        ("w", "drop", None, 1),
        ("b", "drop", None, 1),
    ]
    assert verdict["match"]["scores_after"] == [[1, 0], [1, 1]]
    assert verdict["match"]["length"] == 3


def test_xg_set_pos_line_is_a_position_edit() -> None:
    # NOTATION.md §4 lists `; Set Pos=` with `Illegal play (...)` as a position edit, which
    # is a warning; FORMATS.md part 1 §5 says gnubg reads it as a board edit. The edit here
    # sets the usual starting position, so the plays that follow are legal either way.
    # SUSPECTED BUG: the reader takes the line for a plain comment and reports nothing.
    verdict = check("dialect_set_pos.mat")
    assert verdict["valid"] is True
    warnings = issues(verdict, 1, "warnings")
    assert [(w["code"], w["line"]) for w in warnings] == [("position_edit", 7)]
