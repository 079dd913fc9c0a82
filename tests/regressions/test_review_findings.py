"""Regressions for the defects a code review found; each expectation worked out by hand."""

from __future__ import annotations

from pathlib import Path

from notation.records.mat_writer import write_mat
from referee.adjudication import adjudicate
from referee.api import create_app
from referee.plays import PlaysService
from tests.server import write_token

# Long nardy: White on his own 2 and 5 (13 off), Black's 15 on his head; White rolls 5-3.
# Both dice play in two ways: 5/off 2/off, or 5/2 2/off (the 3 first, then the 5 from 2).
LN_BEAR_OFF = "long-nardy ,1w,,,1w,,,,,,,15b,,,,,,,,,,,, w0b0 w13b0 w 53 - 0:0-0 -"
LN_START_66 = "long-nardy ,,,,,,,,,,,15b,,,,,,,,,,,,15w w0b0 w0b0 w 66 - 0:0-0 -"


def plays(position: str, options: dict[str, object] | None = None) -> set[str]:
    return {answer.play for answer in PlaysService(position, options).legal()}


def test_end_of_turn_keeps_the_bear_off_that_uses_both_dice() -> None:
    options = {"block_timing": "end_of_turn"}
    assert plays(LN_BEAR_OFF, options) == {"5/off 2/off", "5/2 2/off"}
    assert PlaysService(LN_BEAR_OFF, options).check("5/2 2/off").legal


def test_a_written_bear_off_that_hides_a_die_is_reported_one_part_per_die() -> None:
    # "5/off" alone reaches the board of 5/2 2/off, which uses both dice.
    assert PlaysService(LN_BEAR_OFF).check("5/off").play == "5/2 2/off"


def test_sequence_judging_honours_the_head_exception_when_needed() -> None:
    # One head checker cannot play 6-6 (the second six from 18 lands on Black's head):
    # only_if_needed allows the second, so 24/18 24/18 is the one legal play.
    options = {"judge": "sequence", "head_exception": "only_if_needed"}
    assert PlaysService(LN_START_66, options).check("24/18 24/18").legal


def test_a_position_that_already_breaks_the_block_rule_still_has_the_empty_play() -> None:
    # White holds his own 6..11 (Black's 18..23) with Black all in his 13..17, none home:
    # under block_rule=home and end_of_turn no move repairs it, so White passes.
    position = "long-nardy 3b,3b,3b,3b,3b,5w,2w,2w,2w,2w,2w,,,,,,,,,,,,, w0b0 w0b0 w 66 - 0:0-0 -"
    options = {"block_rule": "home", "block_timing": "end_of_turn"}
    assert plays(position, options) == {""}
    assert PlaysService(position, options).check("").legal


def ln_record(wins: str) -> str:
    return (
        '; [Variation "Long Nardy"]\n\n 3 point match\n\n Game 1\n'
        " Alice : 0                      Bob : 0\n"
        "  1) 65: 24/13                  43: 24/20 20/17\n"
        f"      {wins}\n"
    )


def test_long_nardy_resignations_are_never_koks_without_the_koks_option() -> None:
    [game] = adjudicate(ln_record("Wins 3 points")).verdict.games
    assert (game.result.kind, game.result.points) == ("mars", 2)
    assert game.result_mismatch is not None
    [game] = adjudicate(ln_record("Wins 3 points"), options={"koks": True}).verdict.games
    assert (game.result.kind, game.result.points, game.result_mismatch) == ("koks", 3, None)


MONEY = '; [Beaver "On"]\n; [Jacoby "Off"]\n{limit}\n 0 point match\n\n Game 1\n A : 0    B : 0\n'


def test_a_stray_beaver_under_condone_leaves_the_cube_alone() -> None:
    text = MONEY.format(limit="") + (
        "  1) 31: 8/5 6/5                 Beavers => 4\n"
        "  2)  Drops\n"
        "                                  Wins 1 point\n"
    )
    verdict = adjudicate(text, mode="condone").verdict
    [game] = verdict.games
    assert [error.rule for error in game.errors] == ["no_double_pending", "no_double_pending"]
    assert game.result.cube == 1


def test_a_beaver_past_the_cube_limit_is_an_illegal_cube_action() -> None:
    text = MONEY.format(limit='; [CubeLimit "2"]') + (
        "  1)                             31: 8/5 6/5\n"
        "  2)  Doubles => 2                Beavers => 4\n"
    )
    [game] = adjudicate(text).verdict.games
    assert [(error.code, error.rule) for error in game.errors] == [
        ("illegal_cube_action", "cube_limit")
    ]


def test_an_unknown_variation_is_a_verdict_not_an_error() -> None:
    text = '; [Variation "NackGammon"]\n\n 3 point match\n\n Game 1\n A : 0    B : 0\n'
    verdict = adjudicate(text).verdict
    assert not verdict.valid
    assert [e.code for e in verdict.games[0].errors] == ["unsupported_variant"]


def test_a_hit_on_the_way_of_a_combined_move_is_a_warning() -> None:
    # White's 24/13 with 6-5: 19 is Black's point, so only via 18, where a Black blot is hit.
    position = "backgammon ,,,,,5w,,3w,,,,,5w,,,,,1b,2b,,,,,1w w0b0 w1b12 w 65 1c 0:0-0 -"
    answer = PlaysService(position).check("24/13")
    assert answer.legal and answer.play == "24/18* 18/13"
    assert [warning.code for warning in answer.warnings] == ["hit_not_marked"]


def test_condone_brings_checkers_home_before_bearing_off_whatever_the_written_order() -> None:
    # White on his 8 and 6 (13 off) rolls 6-2 and writes "6/off 8/2": wrong dice (8/2 is a
    # 6, 6/off a 6 too), so illegal; physically the 8 comes home first, then the 6 bears off.
    text = (
        '; [StartPosition "backgammon ,,,,,1w,,1w,,,,,,,,,,,,,,,,2b w0b0 w13b13 w - 1c 0:0-0 -"]\n'
        " 0 point match\n\n Game 1\n A : 0    B : 0\n"
        "  1) 62: 6/off 8/2\n"
    )
    [game] = adjudicate(text, mode="condone").verdict.games
    assert [error.code for error in game.errors] == ["illegal_play"]


def test_set_pos_edits_survive_the_canonical_record() -> None:
    fixture = Path(__file__).parents[1] / "records" / "fixtures" / "dialect_set_pos.mat"
    written = write_mat(adjudicate(fixture.read_text()).canonical)
    again = adjudicate(written)
    assert again.verdict.valid
    assert write_mat(again.canonical) == written
    assert "; Set Pos=" in written


def test_a_duplicate_answers_with_the_stored_verdict(tmp_path: Path) -> None:
    database = tmp_path / "a.sqlite3"
    client = create_app({"DATABASE": str(database)}).test_client()
    token = write_token(database)
    headers = {"Authorization": f"Bearer {token}"}
    record = (Path(__file__).parents[2] / "examples" / "long_nardy_match.mat").read_text()
    first = client.post("/v1/matches", json={"record": record}, headers=headers)
    again = client.post(
        "/v1/matches",
        json={"record": record, "options": {"draw_scoring": "at_finish"}},
        headers=headers,
    )
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.get_json()["verdict"] == first.get_json()["verdict"]


def test_a_pending_double_shows_the_value_offered() -> None:
    # NOTATION.md §1: "With state d the value is the one offered". Bob doubles the centred
    # cube: Alice must answer a 2 (still centred); after her take she owns the 2.
    text = (
        " 3 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Takes                      42: 8/4 6/4\n"
    )
    steps = adjudicate(text, replay=True).replays[0]
    double, take = steps[1], steps[2]
    assert double.position_after.split()[4:7] == ["w", "d", "2c"]
    assert take.position_after.split()[4:7] == ["b", "-", "2w"]


def test_under_sequence_judging_every_listed_play_is_legal_as_written() -> None:
    # Black has two on the bar and rolls 3-3. In display order one play reads
    # "bar/22* 22/19 bar/22 22/19*", which moves from 22 while a checker is still on the
    # bar: illegal as a sequence. Under sequence judging plays are listed in the order
    # they are played, so each listed play is legal as written.
    position = (
        "backgammon 3w,1w,1w,,1b,1w,,2w,1b,,,4b,4w,,,1b,,1w,2b,1b,1w,1b,2b,1w"
        " w0b2 w0b0 b 33 1c 0:0-0 -"
    )
    service = PlaysService(position, {"judge": "sequence"})
    for answer in service.legal():
        checked = service.check(answer.play)
        assert checked.legal and checked.position == answer.position, answer.play
    # Khachapuri bear-off with 4-4: 6/2 2/off must come after 3/off, not before it.
    position = "khachapuri 5w,1w,3w,,2w,3w,,,,,,,2b,4b,1b,,1w,1b,,,,,, w0b0 w0b7 b 44 - 0:0-0 -"
    service = PlaysService(position, {"judge": "sequence"})
    for answer in service.legal():
        assert service.check(answer.play).legal, answer.play
