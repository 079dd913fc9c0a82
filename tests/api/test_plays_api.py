"""The plays endpoints against NOTATION.md §1 and §4: legal plays, verdicts, problems.

Every expected play and position below was worked out by hand from the position strings
(points in White's numbering; Black's own p is White's 25 - p in backgammon and p ± 12 in the
nardy variants), not copied from the referee's output.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from referee.app import create_app
from referee.rules import engine
from tests.positions import BG_START, KH_START, LN_START, OPENING_31, bg, nardy

PROBLEM_JSON = "application/problem+json"
PROBLEM_KEYS = {"type", "title", "status", "detail", "instance", "code"}
LEGAL_PATH = "/v1/plays/legal"
CHECK_PATH = "/v1/plays/check"
PLAY_PATHS = [LEGAL_PATH, CHECK_PATH]


# -- position strings ------------------------------------------------------------------------

BG_31 = bg(BG_START)
LN_65 = nardy("long-nardy", LN_START, "w", "65")
KH_43 = nardy("khachapuri", KH_START, "b", "43")

# Backgammon start, but one Black checker moved from White's 19 to a blot on White's 5.
HIT_31 = bg({**BG_START, 5: "1b", 19: "4b"})
# White's 13 can reach 7 with 4-2 via 9 or via 11; Black blots on 7, 9 and 11.
AMBIGUOUS_42 = bg({**BG_START, 7: "1b", 9: "1b", 11: "1b", 12: "2b"}, state="42")
# White on the bar; Black holds all six points of its home (White's 19..24).
CLOSED_BOARD = {6: "5w", 8: "3w", 12: "3b", 13: "6w"} | {p: "2b" for p in range(19, 25)}
DANCE_31 = bg(CLOSED_BOARD, bar="w1b0")
# White's last checker on its 1 point, 14 off, in a 7-point match.
LAST_CHECKER_31 = bg({1: "1w", 20: "15b"}, off="w14b0", tail="1c 7:2-3 -")


def test_helpers_write_the_briefs_example_positions() -> None:
    assert BG_31 == "backgammon 2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0 w 31 1c 0:0-0 -"
    assert LN_65 == "long-nardy ,,,,,,,,,,,15b,,,,,,,,,,,,15w w0b0 w0b0 w 65 - 0:0-0 -"
    assert KH_43 == "khachapuri ,,,,,11w,,,,,,4b,,,,,,11b,,,,,,4w w0b0 w0b0 b 43 - 0:0-0 -"


# -- client helpers --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client() -> FlaskClient:
    """One app for the module: the plays endpoints keep nothing between requests."""
    return create_app().test_client()


def request_body(position: str, options: dict[str, Any] | None, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"position": position, **extra}
    if options is not None:
        body["options"] = options
    return body


def post_legal(
    client: FlaskClient, position: str, options: dict[str, Any] | None = None
) -> TestResponse:
    return client.post(LEGAL_PATH, json=request_body(position, options))


def post_check(
    client: FlaskClient, position: str, play: str, options: dict[str, Any] | None = None
) -> TestResponse:
    return client.post(CHECK_PATH, json=request_body(position, options, play=play))


def post_to(
    client: FlaskClient,
    path: str,
    position: str,
    options: dict[str, Any] | None = None,
    play: str = "8/5 6/5",
) -> TestResponse:
    """A request to either plays endpoint (``play`` only goes to the check endpoint)."""
    extra = {"play": play} if path == CHECK_PATH else {}
    return client.post(path, json=request_body(position, options, **extra))


def ok(response: TestResponse) -> Any:
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    return response.get_json()


def legal(client: FlaskClient, position: str, options: dict[str, Any] | None = None) -> Any:
    """The legal-plays answer, checked for internal consistency."""
    body = ok(post_legal(client, position, options))
    assert body["count"] == len(body["plays"])
    return body


def legal_texts(client: FlaskClient, position: str) -> set[str]:
    return {play["play"] for play in legal(client, position)["plays"]}


def verdict(
    client: FlaskClient, position: str, play: str, options: dict[str, Any] | None = None
) -> Any:
    return ok(post_check(client, position, play, options))


def assert_legal(answer: Any, play: str, position: str, warnings: Sequence[str] = ()) -> None:
    assert answer["legal"] is True
    assert answer["play"] == play
    assert answer["position"] == position
    assert answer["reason"] is None
    assert answer["alternatives"] == []
    assert [warning["code"] for warning in answer["warnings"]] == list(warnings)


def assert_problem(response: TestResponse, status: int, code: str, path: str) -> Any:
    """An RFC 9457 problem with the stable ``code`` slug."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == PROBLEM_JSON
    body = response.get_json()
    assert body.keys() >= PROBLEM_KEYS
    assert body["status"] == status
    assert body["code"] == code
    assert body["instance"] == path
    for key in ("type", "title", "detail"):
        assert isinstance(body[key], str) and body[key]
    return body


# -- health ----------------------------------------------------------------------------------


def test_healthz_answers_ok(client: FlaskClient) -> None:
    response = client.get("/healthz")
    body = ok(response)
    assert body["status"] == "ok"
    assert isinstance(body["version"], str) and body["version"]
    assert body["engine"].split()[0] == engine.CHOSEN.kind


# -- legal plays -----------------------------------------------------------------------------

AFTER_8_5_6_5 = bg({**BG_START, 5: "2w", 6: "4w", 8: "2w"}, "b", "-")


@pytest.mark.parametrize(
    "position",
    [
        BG_31,
        BG_31.replace(" 31 ", " 13 "),  # dice in either order
        BG_31.replace("backgammon", "BG").replace(" w 31 ", " W 13 ").upper(),  # any case, alias
    ],
)
def test_opening_31_has_sixteen_legal_plays(client: FlaskClient, position: str) -> None:
    body = legal(client, position)
    assert body["count"] == 16
    assert {play["play"] for play in body["plays"]} == OPENING_31
    positions = {play["play"]: play["position"] for play in body["plays"]}
    assert positions["8/5 6/5"] == AFTER_8_5_6_5
    assert len(set(positions.values())) == 16
    for after in positions.values():
        assert after.startswith("backgammon ")
        assert after.endswith(" w0b0 w0b0 b - 1c 0:0-0 -")


def test_long_nardy_opening_65_plays_one_checker_from_the_head(client: FlaskClient) -> None:
    # Head rule: one checker leaves 24; it plays both dice via 18 or 19 (both free) to 13,
    # which is free (Black's head is White's 12). Both orders give one position.
    after = nardy("long-nardy", {12: "15b", 13: "1w", 24: "14w"}, "b", "-")
    assert legal(client, LN_65) == {
        "count": 1,
        "plays": [{"play": "24/18 18/13", "position": after}],
    }


def test_long_nardy_opening_66_takes_two_checkers_to_18(client: FlaskClient) -> None:
    # First-turn exception: two head checkers 24/18; 18/12 is Black's head, so the other two
    # sixes are lost.
    start_66 = nardy("long-nardy", LN_START, "w", "66")
    after = nardy("long-nardy", {12: "15b", 18: "2w", 24: "13w"}, "b", "-")
    assert legal(client, start_66) == {
        "count": 1,
        "plays": [{"play": "24/18 24/18", "position": after}],
    }


def test_head_exception_none_leaves_one_six_played(client: FlaskClient) -> None:
    start_66 = nardy("long-nardy", LN_START, "w", "66")
    after = nardy("long-nardy", {12: "15b", 18: "1w", 24: "14w"}, "b", "-")
    body = legal(client, start_66, {"head_exception": "none"})
    assert body == {"count": 1, "plays": [{"play": "24/18", "position": after}]}


# Black (own numbering: own = global + 12 for global <= 12, else global - 12) has 4 on its
# head (own 24) and 11 on own 6; White's checkers stand on Black's own 12 and 18.
# 4 from 24 or 6, 3 from 24 or 6, no bearing off, no head limit in khachapuri.
KHACHAPURI_43 = {"24/21 24/20", "24/20 20/17", "24/20 6/3", "24/21 6/2", "6/3 6/2"}


def test_khachapuri_start_43_for_black(client: FlaskClient) -> None:
    body = legal(client, KH_43)
    assert body["count"] == 5
    assert {play["play"] for play in body["plays"]} == KHACHAPURI_43
    positions = {play["play"]: play["position"] for play in body["plays"]}
    # own 17 = global 5, own 24 = global 12
    assert positions["24/20 20/17"] == nardy(
        "khachapuri", {5: "1b", 6: "11w", 12: "3b", 18: "11b", 24: "4w"}, "w", "-"
    )


# -- canonical play text and positions after -------------------------------------------------


@pytest.mark.parametrize(
    "written", ["8/5 6/5", "6/5 8/5", "31: 6/5 8/5", "13: 8/5 6/5", " 8/5   6/5 "]
)
def test_written_play_is_answered_in_canonical_text(client: FlaskClient, written: str) -> None:
    assert_legal(verdict(client, BG_31, written), "8/5 6/5", AFTER_8_5_6_5)


BG_65 = bg(BG_START, state="65")
AFTER_24_13 = bg({**BG_START, 13: "6w", 24: "1w"}, "b", "-")


@pytest.mark.parametrize("written", ["24/13", "65: 24/13", "24/18/13", "24/19 19/13"])
def test_consolidated_move_expands_in_travel_order(client: FlaskClient, written: str) -> None:
    # 24/19/13 would stop on Black's 19 (five checkers), so the play is 24/18 18/13; judged
    # by the resulting position (RULES.md A6 default) the order written does not matter.
    assert_legal(verdict(client, BG_65, written), "24/18 18/13", AFTER_24_13)


def test_judge_sequence_rejects_a_literal_order_through_a_blocked_point(
    client: FlaskClient,
) -> None:
    options = {"judge": "sequence"}
    assert verdict(client, BG_65, "24/19 19/13", options)["legal"] is False
    assert_legal(verdict(client, BG_65, "24/18 18/13", options), "24/18 18/13", AFTER_24_13)


@pytest.mark.parametrize(
    ("written", "warnings"),
    [
        ("24/21 6/5*", []),
        ("6/5* 24/21", []),
        ("24/21 6/5", ["hit_not_marked"]),
        ("24/21* 6/5*", ["hit_mark_wrong"]),
    ],
)
def test_hit_marks_are_checked_not_trusted(
    client: FlaskClient, written: str, warnings: list[str]
) -> None:
    after = bg({**BG_START, 5: "1w", 6: "4w", 19: "4b", 21: "1w", 24: "1w"}, "b", "-", bar="w0b1")
    assert_legal(verdict(client, HIT_31, written), "24/21 6/5*", after, warnings)


@pytest.mark.parametrize("tail", ["4b 7:6-2 p", "1c 7:2-6 c", "2w 0:0-0 -", "64c 5:0-0 -"])
def test_position_after_a_play_copies_cube_match_and_rules(client: FlaskClient, tail: str) -> None:
    position = bg(BG_START, tail=tail)
    after = bg({**BG_START, 5: "2w", 6: "4w", 8: "2w"}, "b", "-", tail=tail)
    assert_legal(verdict(client, position, "8/5 6/5"), "8/5 6/5", after)


def test_black_plays_in_its_own_numbering(client: FlaskClient) -> None:
    # Black's own 8, 6, 5 are White's 17, 19, 20.
    position = bg(BG_START, "b", "31")
    after = bg({**BG_START, 17: "2b", 19: "4b", 20: "2b"}, "w", "-")
    assert legal_texts(client, position) == OPENING_31
    assert_legal(verdict(client, position, "6/5 8/5"), "8/5 6/5", after)


def test_doubles_are_written_one_part_per_die(client: FlaskClient) -> None:
    position = bg(BG_START, state="66")
    after = bg({**BG_START, 7: "2w", 13: "3w", 18: "2w", 24: ""}, "b", "-")
    for written in ("24/18(2) 13/7(2)", "13/7 24/18 13/7 24/18", "66: 24/18(2) 13/7(2)"):
        answer = verdict(client, position, written)
        assert_legal(answer, "24/18 24/18 13/7 13/7", after)


def test_bar_parts_come_first(client: FlaskClient) -> None:
    # One of White's back checkers is on the bar; it must enter before 13/10 is played.
    position = bg({**BG_START, 24: "1w"}, bar="w1b0")
    after = bg({**BG_START, 10: "1w", 13: "4w", 24: "2w"}, "b", "-")
    assert_legal(verdict(client, position, "13/10 bar/24"), "bar/24 13/10", after)
    assert_legal(verdict(client, position, "13/10 25/24"), "bar/24 13/10", after)
    assert verdict(client, position, "13/10 8/7")["legal"] is False
    assert all(play.startswith("bar/") for play in legal_texts(client, position))


def test_bearing_off_the_fifteenth_checker_ends_the_game(client: FlaskClient) -> None:
    # Either die bears the last checker off; the game ends at once (one play), the match
    # field is not updated.
    after = bg({20: "15b"}, "-", "end", off="w15b0", tail="1c 7:2-3 -")
    assert legal(client, LAST_CHECKER_31) == {
        "count": 1,
        "plays": [{"play": "1/off", "position": after}],
    }
    assert_legal(verdict(client, LAST_CHECKER_31, "31: 1/off"), "1/off", after)


@pytest.mark.parametrize(
    ("position", "written", "play"),
    [
        (LN_65, "24/13", "24/18 18/13"),
        (LN_65, "65: 24/19 19/13", "24/18 18/13"),
        (nardy("long-nardy", LN_START, "w", "66"), "24/18(2)", "24/18 24/18"),
        (KH_43, "24/17", "24/20 20/17"),
        (KH_43, "34: 6/2 6/3", "6/3 6/2"),
    ],
)
def test_nardy_plays_are_answered_in_canonical_text(
    client: FlaskClient, position: str, written: str, play: str
) -> None:
    answer = verdict(client, position, written)
    assert answer["legal"] is True
    assert answer["play"] == play
    assert play in legal_texts(client, position)


def test_a_checker_travels_smaller_die_first_when_only_that_order_is_legal(
    client: FlaskClient,
) -> None:
    # Black holds White's 5, so 8/4 with 3-1 must go 8/7 7/4.
    position = bg({**BG_START, 5: "2b", 19: "3b"})
    after = bg({**BG_START, 4: "1w", 5: "2b", 8: "2w", 19: "3b"}, "b", "-")
    assert_legal(verdict(client, position, "8/4"), "8/7 7/4", after)
    texts = legal_texts(client, position)
    assert "8/7 7/4" in texts and "8/5 5/4" not in texts


def test_an_unmarked_consolidated_move_prefers_the_path_without_a_hit(
    client: FlaskClient,
) -> None:
    # A Black blot on White's 11 only: 13/7 with 4-2 passes 9 (empty) or hits on 11.
    position = bg({**BG_START, 11: "1b", 12: "4b"}, state="42")
    quiet = bg({**BG_START, 7: "1w", 11: "1b", 12: "4b", 13: "4w"}, "b", "-")
    hit = bg({**BG_START, 7: "1w", 12: "4b", 13: "4w"}, "b", "-", bar="w0b1")
    assert_legal(verdict(client, position, "13/7"), "13/9 9/7", quiet)
    assert_legal(verdict(client, position, "13/11*/7"), "13/11* 11/7", hit)


# -- the empty play --------------------------------------------------------------------------

DANCE_AFTER = bg(CLOSED_BOARD, "b", "-", bar="w1b0")


def test_no_playable_die_gives_exactly_the_empty_play(client: FlaskClient) -> None:
    assert legal(client, DANCE_31) == {"count": 1, "plays": [{"play": "", "position": DANCE_AFTER}]}


@pytest.mark.parametrize("written", ["", "Cannot Move", "cannot move", "CANNOT MOVE", "31:"])
def test_check_accepts_the_empty_play(client: FlaskClient, written: str) -> None:
    assert_legal(verdict(client, DANCE_31, written), "", DANCE_AFTER)


def test_entering_onto_a_closed_board_is_illegal(client: FlaskClient) -> None:
    answer = verdict(client, DANCE_31, "bar/22")
    assert answer["legal"] is False
    assert answer["alternatives"] == [""]


# -- rules problems: 200 with legal = false --------------------------------------------------


@pytest.mark.parametrize(
    ("position", "written", "code"),
    [
        (BG_31, "24/30", "invalid_point"),
        (BG_31, "52: 13/8 13/11", "dice_mismatch"),
        (BG_31, "10/7 6/5", "no_checker"),
        (BG_31, "8/5", "not_enough_dice_used"),
        (BG_31, "", "not_enough_dice_used"),
        (BG_31, "Cannot Move", "not_enough_dice_used"),
        (BG_31, "13/12 8/5", None),  # 12 is a Black point
        (LN_65, "bar/20", "no_bar"),
        (LN_65, "24/18* 18/13", "no_hitting"),
        (LN_65, "24/18 24/19", None),  # head rule: one checker from the head
        (KH_43, "24/18 6/3", None),  # own 18 holds White's 11 checkers
        (AMBIGUOUS_42, "13/7*", "ambiguous_play"),
        (AMBIGUOUS_42, "13/7", "ambiguous_play"),
    ],
)
def test_rules_problems_are_illegal_verdicts(
    client: FlaskClient, position: str, written: str, code: str | None
) -> None:
    answer = verdict(client, position, written)
    assert answer["legal"] is False
    assert answer["play"] is None and answer["position"] is None
    assert answer["warnings"] == []
    reason = answer["reason"]
    assert isinstance(reason["message"], str) and reason["message"]
    if code is not None:
        assert reason["code"] == code
    alternatives = answer["alternatives"]
    assert 1 <= len(alternatives) <= 5
    assert set(alternatives) <= legal_texts(client, position)


def test_long_nardy_head_rule_offers_the_only_legal_play(client: FlaskClient) -> None:
    assert verdict(client, LN_65, "24/18 24/19")["alternatives"] == ["24/18 18/13"]


@pytest.mark.parametrize(
    ("written", "play"),
    [
        ("13/11*/7*", "13/11* 11/7*"),
        ("42: 13/11* 11/7*", "13/11* 11/7*"),
        ("13/9*/7*", "13/9* 9/7*"),
    ],
)
def test_a_mark_on_the_way_resolves_the_ambiguity(
    client: FlaskClient, written: str, play: str
) -> None:
    answer = verdict(client, AMBIGUOUS_42, written)
    assert answer["legal"] is True
    assert answer["play"] == play
    assert answer["warnings"] == []
    assert play in legal_texts(client, AMBIGUOUS_42)


# -- options ---------------------------------------------------------------------------------

# Long nardy / khachapuri: White has borne off all 15; Black, on turn, has its last two
# checkers on its own 1 (global 13) and bears both off with 6-5.
LAST_TURN = {13: "2b"}


@pytest.mark.parametrize("variant", ["long-nardy", "khachapuri"])
def test_draw_rule_allows_the_extra_turn(client: FlaskClient, variant: str) -> None:
    position = nardy(variant, LAST_TURN, "b", "65", off="w15b13")
    after = nardy(variant, {}, "-", "end", off="w15b15")
    body = legal(client, position, {"draw_rule": True})
    assert body == {"count": 1, "plays": [{"play": "1/off 1/off", "position": after}]}
    assert_legal(
        verdict(client, position, "1/off 1/off", {"draw_rule": True}), "1/off 1/off", after
    )


@pytest.mark.parametrize("variant", ["long-nardy", "khachapuri"])
@pytest.mark.parametrize("options", [None, {}, {"draw_rule": False}])
@pytest.mark.parametrize("path", PLAY_PATHS)
def test_a_finished_game_is_over_without_the_draw_rule(
    client: FlaskClient, variant: str, options: dict[str, Any] | None, path: str
) -> None:
    position = nardy(variant, LAST_TURN, "b", "65", off="w15b13")
    assert_problem(post_to(client, path, position, options), 422, "game_over", path)


def test_the_finished_side_cannot_play_even_with_the_draw_rule(client: FlaskClient) -> None:
    position = nardy("long-nardy", LAST_TURN, "w", "65", off="w15b13")
    assert_problem(post_legal(client, position, {"draw_rule": True}), 422, "game_over", LEGAL_PATH)


@pytest.mark.parametrize("path", PLAY_PATHS)
def test_backgammon_with_fifteen_off_is_game_over(client: FlaskClient, path: str) -> None:
    position = bg({24: "2b"}, "b", "65", off="w15b13")
    assert_problem(post_to(client, path, position), 422, "game_over", path)


@pytest.mark.parametrize(
    ("position", "options"),
    [
        (BG_31, {"jacoby": False, "cube_limit": 16, "judge": "sequence"}),
        (LN_65, {"block_rule": "home", "koks": True, "block_timing": "end_of_turn"}),
        (KH_43, {"draw_scoring": "at_finish", "judge": "position"}),
    ],
)
def test_options_that_apply_are_accepted(
    client: FlaskClient, position: str, options: dict[str, Any]
) -> None:
    assert legal(client, position, options)["count"] >= 1


@pytest.mark.parametrize(
    ("position", "options"),
    [
        (BG_31, {"no_such_option": True}),
        (BG_31, {"draw_rule": True}),  # nardy only
        (LN_65, {"cube": False}),  # backgammon only
        (KH_43, {"head_exception": "none"}),  # long nardy only
        (LN_65, {"head_exception": "sometimes"}),
        (LN_65, {"draw_rule": "yes"}),
        (BG_31, {"cube_limit": 3}),
        (BG_31, {"cube_limit": "64"}),
    ],
)
@pytest.mark.parametrize("path", PLAY_PATHS)
def test_bad_options_are_invalid_option(
    client: FlaskClient, position: str, options: dict[str, Any], path: str
) -> None:
    assert_problem(post_to(client, path, position, options), 422, "invalid_option", path)


# -- 422 problems for positions and play text ------------------------------------------------


@pytest.mark.parametrize(
    "position",
    [
        "backgammon",
        "backgammon 2b,,,,,5w,,3w w0b0 w0b0 w 31",  # too few cells
        BG_31.replace(" 31 ", " 71 "),  # no die 7
        BG_31.replace("backgammon", "chess"),
        BG_31.replace("w0b0 w0b0", "x0b0 w0b0"),
        bg({**BG_START, 13: "16w"}),
        BG_31 + " extra",  # ten fields
    ],
)
@pytest.mark.parametrize("path", PLAY_PATHS)
def test_malformed_position_is_invalid_notation(
    client: FlaskClient, position: str, path: str
) -> None:
    assert_problem(post_to(client, path, position), 422, "invalid_notation", path)


@pytest.mark.parametrize(
    "position",
    [
        bg({**BG_START, 6: "4w"}),  # 14 White checkers
        bg(BG_START, off="w1b0"),  # 16 White checkers counting the one off
        nardy("long-nardy", LN_START, "w", "65").replace("15w w0b0", "14w w1b0"),  # a bar
        nardy("khachapuri", KH_START, "b", "43").replace(" - 0:0", " 1c 0:0"),  # a cube
    ],
)
@pytest.mark.parametrize("path", PLAY_PATHS)
def test_impossible_position_is_invalid_position(
    client: FlaskClient, position: str, path: str
) -> None:
    assert_problem(post_to(client, path, position), 422, "invalid_position", path)


@pytest.mark.parametrize(
    "position",
    [
        bg(BG_START, "-", "-"),  # before the opening roll
        bg(BG_START, "w", "-"),  # to roll
        bg(BG_START, "b", "d", tail="2b 0:0-0 -"),  # a double offered
        nardy("long-nardy", LN_START, "w", "-"),
    ],
)
@pytest.mark.parametrize("path", PLAY_PATHS)
def test_position_without_dice_is_dice_required(
    client: FlaskClient, position: str, path: str
) -> None:
    assert_problem(post_to(client, path, position), 422, "dice_required", path)


@pytest.mark.parametrize("written", ["hello", "8/5 6/", "13 8", "8/5; 6/5!", "????"])
def test_play_text_without_from_to_parts_is_invalid_notation(
    client: FlaskClient, written: str
) -> None:
    assert_problem(post_check(client, BG_31, written), 422, "invalid_notation", CHECK_PATH)


# -- request validation and HTTP problems ----------------------------------------------------


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        (LEGAL_PATH, {"position": BG_31, "dice": "31"}, "dice"),
        (CHECK_PATH, {"position": BG_31, "play": "8/5 6/5", "move": "x"}, "move"),
        (LEGAL_PATH, {"options": {}}, "position"),
        (CHECK_PATH, {"position": BG_31}, "play"),
        (CHECK_PATH, {"play": "8/5 6/5"}, "position"),
        (LEGAL_PATH, {"position": 31}, "position"),
        (CHECK_PATH, {"position": BG_31, "play": None}, "play"),
    ],
)
def test_bad_request_bodies_are_validation_failed_naming_the_field(
    client: FlaskClient, path: str, body: dict[str, Any], field: str
) -> None:
    problem = assert_problem(client.post(path, json=body), 422, "validation_failed", path)
    assert field in problem["detail"]


@pytest.mark.parametrize("body", [[BG_31], BG_31, 31])
@pytest.mark.parametrize("path", PLAY_PATHS)
def test_json_body_that_is_not_an_object_is_validation_failed(
    client: FlaskClient, body: Any, path: str
) -> None:
    assert_problem(client.post(path, json=body), 422, "validation_failed", path)


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
@pytest.mark.parametrize("path", PLAY_PATHS)
def test_non_json_body_is_415(client: FlaskClient, content_type: str | None, path: str) -> None:
    response = client.post(path, data=f"position={BG_31}", content_type=content_type)
    assert_problem(response, 415, "unsupported_media_type", path)


@pytest.mark.parametrize("path", PLAY_PATHS)
def test_malformed_json_is_a_client_error_problem(client: FlaskClient, path: str) -> None:
    response = client.post(path, data='{"position": ', content_type="application/json")
    assert response.status_code in (400, 422)
    assert response.mimetype == PROBLEM_JSON
    [error] = response.get_json()["errors"]
    assert error["field"] == "body" and error["message"].startswith("not valid JSON:")


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("GET", LEGAL_PATH, "POST"),
        ("PUT", CHECK_PATH, "POST"),
        ("DELETE", CHECK_PATH, "POST"),
        ("POST", "/healthz", "GET"),
    ],
)
def test_wrong_method_is_405_with_allow(
    client: FlaskClient, method: str, path: str, allowed: str
) -> None:
    response = client.open(path, method=method, json={"position": BG_31})
    assert_problem(response, 405, "method_not_allowed", path)
    assert allowed in {value.strip() for value in response.headers["Allow"].split(",")}


@pytest.mark.parametrize("path", ["/v1/plays", "/v1/plays/legal/", "/nowhere", "/v2/plays/check"])
def test_unknown_path_is_404(client: FlaskClient, path: str) -> None:
    assert_problem(client.post(path, json={"position": BG_31}), 404, "not_found", path)


@pytest.mark.parametrize("path", PLAY_PATHS)
def test_body_over_64_kib_is_413(client: FlaskClient, path: str) -> None:
    padded = BG_31 + " " * (64 * 1024)  # well-formed once split on whitespace
    assert_problem(post_to(client, path, padded), 413, "payload_too_large", path)


def test_an_owned_cube_of_one_is_refused_with_its_column(client: FlaskClient) -> None:
    position = bg(BG_START, tail="1w 0:0-0 -")
    answer = post_to(client, "/v1/plays/legal", position)
    assert_problem(answer, 422, "invalid_position", "/v1/plays/legal")
    [problem] = answer.get_json()["problems"]
    # The cube field starts right after the state field "31 ".
    assert problem == {
        "code": "cube_owner",
        "message": problem["message"],
        "column": position.index(" 1w ") + 2,
    }


def test_a_play_written_out_of_travel_order_is_legal_by_position(client: FlaskClient) -> None:
    # RULES.md A6: 18/13 24/18 is the play 24/18 18/13 (6-5 from the start).
    position = bg(BG_START, state="65")
    answer = client.post("/v1/plays/check", json={"position": position, "play": "18/13 24/18"})
    body = answer.get_json()
    assert (answer.status_code, body["legal"], body["play"]) == (200, True, "24/18 18/13")
    literal = client.post(
        "/v1/plays/check",
        json={"position": position, "play": "18/13 24/18", "options": {"judge": "sequence"}},
    ).get_json()
    assert (literal["legal"], literal["reason"]["code"]) == (False, "no_checker")
