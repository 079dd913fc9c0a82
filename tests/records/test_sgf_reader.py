"""gnubg's SGF (``GM[6]``) read into the record model: hand-worked vectors for moves, the
cube, results, rules, setup nodes, edits, variations, comments and analysis properties;
the bounds of reading (unbalanced brackets, nesting, a million nodes); and the format
registry (detection, names, media types, several matches in one .mat)."""

from __future__ import annotations

from typing import Any

import pytest

from notation.errors import NotationError
from notation.records.formats import (
    MAT,
    SGF,
    detect,
    find_format,
    format_of_media_type,
    read_records,
    split_matches,
)
from notation.records.mat_reader import ReadLimits
from notation.records.model import ActionKind
from notation.records.sgf import SgfGame, SgfMatch, write_sgf
from notation.records.sgf_reader import read_sgf
from notation.records.sgf_syntax import read_trees
from referee.adjudication import adjudicate, check_record
from referee.adjudication.budget import WorkLimitError
from referee.archive.sgf import sgf_of
from referee.errors import InvalidNotationError, UnknownFormatError
from vocabulary import BAR

ROOT = "(;FF[4]GM[6]CA[UTF-8]AP[test]MI[length:{length}][game:0][ws:0][bs:0]PW[Alice]PB[Bob]"


def tree(nodes: str, length: int = 7, root: str = "RU[Crawford]") -> str:
    return ROOT.format(length=length) + root + nodes + ")\n"


def moves(text: str) -> list[tuple[str, str, tuple[tuple[int, int], ...]]]:
    """(kind, side, (from, to)...) of every action of the first game."""
    game = read_sgf(text).games[0]
    return [
        (
            str(action.kind),
            action.side,
            tuple((m.from_point, m.to_point) for m in action.play.moves) if action.play else (),
        )
        for action in game.actions
    ]


def verdict(text: str, **options: Any) -> dict[str, Any]:
    return check_record(text, options=options or None).to_json()


def test_the_worked_vectors() -> None:
    # FORMATS.md part 2 §5: Black's letters count from 'x' (his 1-point): l = 13, p = 9,
    # a = 24, b = 23; White's from 'a': f = 6, e = 5, h = 8; y is the bar for both.
    text = tree("\n;B[41lpab]\n;W[31fehe]\n;B[21sugh]\n;W[21ywyx]\n;B[double]\n;W[take]")
    assert moves(text) == [
        ("roll", "b", ((13, 9), (24, 23))),
        ("roll", "w", ((6, 5), (8, 5))),
        ("roll", "b", ((6, 4), (18, 17))),  # s = 6, u = 4, g = 18, h = 17: two hits, unmarked
        ("roll", "w", ((BAR, 23), (BAR, 24))),
        ("double", "b", ()),
        ("take", "w", ()),
    ]
    game = read_sgf(text).games[0]
    assert [(a.line, a.column) for a in game.actions[:2]] == [(2, 1), (3, 1)]
    assert game.actions[4].value == 2 and game.actions[0].text == "41: 13/9 24/23"
    assert (game.players, game.score) == (("Alice", "Bob"), (0, 0))
    # The vectors come from different moments of a game; these four follow each other.
    result = verdict(tree("\n;B[41lpab]\n;W[31hefe]\n;B[double]\n;W[take]"))
    assert result["valid"] and result["games"][0]["termination"] == "unfinished"
    assert result["games"][0]["cube"] == 2 and result["games"][0]["cube_owner"] == "w"


def test_a_resignation_is_read_from_RE() -> None:
    # Black doubled, White took (cube 2 owned by White); RE[B+2R]: White resigned a
    # single game at a 2-cube, 2 points to Black.
    text = tree("\n;B[41lpab]\n;W[31fehe]\n;B[double]\n;W[take]", root="RU[Crawford]RE[B+2R]")
    [game] = verdict(text)["games"]
    assert (game["winner"], game["termination"], game["points"]) == ("b", "resign", 2)


def test_a_double_answering_a_double_is_a_beaver_then_a_raccoon() -> None:
    text = tree("\n;W[double]\n;B[double]\n;W[double]\n;B[take]", length=0, root="RU[Jacoby]")
    game = read_sgf(text).games[0]
    kinds = [(str(a.kind), a.side, a.value) for a in game.actions]
    assert kinds == [
        ("double", "w", 2),
        ("beaver", "b", 4),
        ("raccoon", "w", 8),
        ("take", "b", None),
    ]
    # gnubg writes no property for beavers: a money session that has one allows them.
    assert read_sgf(text).tags["Beaver"] == "On"
    assert "Beaver" not in read_sgf(tree("\n;W[double]\n;B[take]", length=0)).tags


@pytest.mark.parametrize(
    ("length", "rules", "expected"),
    [
        (7, "RU[Crawford]", {"crawford": True}),
        (7, "", {"crawford": False}),
        (0, "RU[Jacoby]", {"jacoby": True}),
        (0, "", {"jacoby": False}),
        (7, "RU[Crawford:NoCube]", {"crawford": True, "cube": False}),
    ],
)
def test_the_rules_property(length: int, rules: str, expected: dict[str, bool]) -> None:
    options = verdict(tree("\n;W[31hefe]", length, rules))["options"]
    assert {name: options[name] for name in expected} == expected


def test_a_variant_gnubg_plays_but_the_referee_does_not_is_a_verdict() -> None:
    result = verdict(tree("\n;W[31hefe]", root="RU[Nackgammon]"))
    assert [e["code"] for e in result["games"][0]["errors"]] == ["unsupported_variant"]


def test_an_unknown_rule_word_is_a_warning() -> None:
    result = verdict(tree("\n;W[31hefe]", root="RU[Crawford:Moonlight]"))
    assert [(w["code"], w["line"]) for w in result["warnings"]] == [("invalid_header", 1)]


def test_a_set_up_start_reads_back_as_written() -> None:
    start = "backgammon 2w,,,,,,,,,,,,,,,,,,1b,,,,, w1b0 w12b14 w - 2b 0:0-0 -"
    text = write_sgf(SgfMatch(("a", "b"), 0, [SgfGame((0, 0), (), start=start)]), "x")
    assert read_sgf(text).games[0].start == start


def test_a_partial_setup_edits_the_standard_start() -> None:
    # AE[f] clears White's 6-point: his five checkers there are off the board (w5), and
    # Black (first to move) is on roll.
    cells = ["2b", "", "", "", "", "", "", "3w", "", "", "", "5b", "5w"]
    cells += ["", "", "", "3b", "", "5b", "", "", "", "", "2w"]
    expected = f"backgammon {','.join(cells)} w0b0 w5b0 b - 1c 0:0-0 -"
    assert read_sgf(tree("\n;AE[f]\n;B[41lpab]")).games[0].start == expected


def test_a_setup_in_play_with_dice_is_gnubgs_edit() -> None:
    # gnubg writes its Illegal play edit as the player's dice, then the whole board.
    board = "PL[W]AE[a:y]AW[e][f][f][f][f][f][h][h][m][m][m][m][m][x][x]"
    board += "AB[a][a][l][l][l][l][l][q][q][q][s][s][s][s][s]"
    text = tree(f"\n;W[31hefe]\n;PL[B]DI[52]\n;{board}\n;W[31hefe]\n;B[64aglp]", length=3)
    game = read_sgf(text).games[0]
    edit = game.actions[1]
    assert (edit.kind, edit.side, edit.dice, edit.line) == (ActionKind.EDIT, "b", (5, 2), 4)
    result = verdict(text)
    assert result["valid"]
    assert "position_edit" in [w["code"] for w in result["games"][0]["warnings"]]


def test_an_edit_that_ends_a_game_leaves_no_roll_behind() -> None:
    board = "PL[W]AE[a:y]AW[e][f][f][f][f][f][h][h][m][m][m][m][m][x][x]"
    board += "AB[a][a][l][l][l][l][l][q][q][q][s][s][s][s][s]"
    game = read_sgf(tree(f"\n;W[31hefe]\n;PL[B]DI[52]\n;{board}", length=3)).games[0]
    assert [action.kind for action in game.actions] == [ActionKind.ROLL, ActionKind.EDIT]


UNPLAYED = """ 3 point match

 Game 1
 Alice : 0                      Bob : 0
  1) 31: 8/5 6/5                 64: 24/18 13/9
  2) 65:                                  Wins 1 point
"""
"""Alice rolls 65 and resigns without playing it (several plays were legal)."""


def test_a_roll_left_unplayed_is_its_dice_alone_as_gnubg_writes_it() -> None:
    # gnubg reads a dice-only move node as a play of nothing (a move it analyses); its own
    # import of such a cell, and its SGF of it, keep the dice alone: PL[W]DI[65].
    checked = adjudicate(UNPLAYED)
    result = checked.verdict.to_json()
    assert [w["code"] for w in result["games"][0]["warnings"]] == ["bare_roll"]
    text = sgf_of(checked.canonical, result)
    assert text.endswith(";PL[W]DI[65])\n") and ";W[65]" not in text
    back = read_sgf(text).games[0].actions
    assert [(a.kind, a.side, a.text) for a in back[2:]] == [
        (ActionKind.ROLL, "w", "65:"),
        (ActionKind.WIN, "b", "Wins 1 point"),
    ]
    again = verdict(text)
    assert [w["code"] for w in again["games"][0]["warnings"]] == ["bare_roll"]
    assert again["games"][0]["termination"] == result["games"][0]["termination"] == "resign"


def test_a_setup_in_play_that_keeps_part_of_the_board_is_not_guessed() -> None:
    text = tree("\n;W[31hefe]\n;AE[f]\n;B[41lpab]")
    [game] = verdict(text)["games"]
    codes = [w["code"] for w in game["warnings"]]
    assert "unreadable_cell" in codes and "position_edit" in codes
    assert game["termination"] == "unfinished"


def test_variations_are_dropped_with_a_warning() -> None:
    text = tree("\n;W[31hefe]\n(;B[41lpab];W[42hdfd])\n(;B[65aglp])")
    assert moves(text) == [
        ("roll", "w", ((8, 5), (6, 5))),
        ("roll", "b", ((13, 9), (24, 23))),
        ("roll", "w", ((8, 4), (6, 4))),
    ]
    [game] = verdict(text)["games"]
    found = [(w["code"], w["line"], w["column"]) for w in game["warnings"]]
    assert ("variation_ignored", 4, 1) in found


def test_comments_are_kept_and_analysis_is_read_not_judged() -> None:
    analysis = "A[ver:3][0 1 2]DA[E:1 2]GS[M:0 0][C:0]"
    text = tree(f"\n;W[31hefe]{analysis}C[a fine move]\n;B[41lpab]", root="GC[Event notes]")
    record = read_sgf(text)
    assert record.comments == ("Event notes", "game 1: a fine move")
    result = verdict(text)
    assert result["valid"] and result["warnings"] == []
    assert [w["code"] for w in result["games"][0]["warnings"]] == ["unfinished_game"]


def test_every_game_tree_is_a_game_with_its_score() -> None:
    game = "(;FF[4]GM[6]MI[length:3][game:{i}][ws:{w}][bs:{b}]PW[A]PB[B]RU[Crawford]{re}\n;{m})"
    text = game.format(i=0, w=0, b=0, re="RE[W+1R]", m="W[31hefe]") + game.format(
        i=1, w=1, b=0, re="RE[B+2R]", m="W[31hefe]"
    )
    result = verdict(text)
    assert [g["score_before"] for g in result["games"]] == [[0, 0], [1, 0]]
    assert result["match"]["scores_after"] == [[1, 0], [1, 2]]


def test_match_information_becomes_tags() -> None:
    root = "RU[Crawford]DT[2025-11-08]EV[Open]RO[Final]PC[Tbilisi]AN[scribe]"
    tags = read_sgf(tree("\n;W[31hefe]", root=root)).tags
    assert tags["EventDate"] == "2025.11.08" and tags["Event"] == "Open"
    assert (tags["Round"], tags["Site"], tags["Transcriber"]) == ("Final", "Tbilisi", "scribe")


# -- bounds ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("(;FF[4]GM[6]\n;W[31hefe", "a '[' is never closed at line 2, column 3"),
        ("(;FF[4]GM[6]\n;W[31hefe]", "a '(' is never closed at line 1, column 1"),
        ("(;FF[4]GM[6])\n)", "a ')' closes no game tree at line 2, column 1"),
        ("(;FF[4]GM[6]) junk", "cannot read 'junk' at line 1, column 15"),
        ("(" * 5000 + ";FF[4]GM[6]" + ")" * 5000, "nested deeper than 1000 at line 1, column 1001"),
    ],
)
def test_unreadable_sgf_says_where_reading_stopped(text: str, where: str) -> None:
    with pytest.raises(InvalidNotationError) as raised:
        check_record(text, record_format="sgf")
    assert where in raised.value.message


def test_another_game_is_refused() -> None:
    with pytest.raises(InvalidNotationError, match=r"GM\[1\], not backgammon"):
        check_record("(;FF[4]GM[1]SZ[19];B[pd])")


def test_a_million_nodes_stop_at_the_limit() -> None:
    text = "(;FF[4]GM[6]" + ";" * 1_000_000 + ")"
    with pytest.raises(WorkLimitError):
        check_record(text)
    with pytest.raises(NotationError, match="more than 10 actions_per_game"):
        read_sgf("(;FF[4]GM[6]" + ";" * 20 + ")", ReadLimits(actions_per_game=10))


def test_the_syntax_reader_keeps_the_main_line_and_unescapes() -> None:
    [only] = read_trees("(;A[x\\]y]B[1][2](;C[a\\\nb])(;D[no]))")
    assert [node.properties for node in only.nodes] == [
        (("A", ("x]y",)), ("B", ("1", "2"))),
        (("C", ("ab",)),),
    ]
    assert only.dropped == ((2, 4),)  # the second "(" of the root: after "b])" on line 2


# -- the registry ----------------------------------------------------------------------------


def test_formats_are_detected_named_and_given_by_media_type() -> None:
    assert detect(b"\xef\xbb\xbf (;FF[4]GM[6]") is SGF
    assert detect(b'; [Site "x"]\n\n 5 point match\n') is MAT
    assert detect(b" Game 1\n A : 0   B : 0\n") is MAT
    assert find_format("SGF") is SGF and find_format("mat") is MAT
    assert format_of_media_type("application/x-go-sgf") is SGF
    assert format_of_media_type("text/plain") is None
    with pytest.raises(NotationError) as raised:
        detect(b"hello")
    assert raised.value.code == "unknown_format"
    assert "sgf (a game tree starting '(;')" in raised.value.message
    assert "mat (an 'N point match' or 'Game N' line)" in raised.value.message
    # Text in no format detected is read as a .mat, whose reader says why it cannot be;
    # content that is not text at all is in no format.
    with pytest.raises(InvalidNotationError, match="no 'N point match' line"):
        check_record("hello, this is not a match")
    with pytest.raises(UnknownFormatError, match=r"tried: xg .*; sgf"):
        check_record("\x00\x01XG\x00 binary")
    with pytest.raises(UnknownFormatError, match="reads xg, sgf, mat"):
        check_record(" 1 point match\n", record_format="zz")
    with pytest.raises(InvalidNotationError, match="binary file: send its bytes"):
        check_record(" 1 point match\n", record_format="xg")


def test_a_format_named_is_the_one_read() -> None:
    mat = " 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5\n"
    with pytest.raises(InvalidNotationError, match="cannot read"):
        check_record(mat, record_format="sgf")
    assert check_record(mat, record_format="mat").valid


SECOND = '; [Event "second"]\n\n 1 point match\n\n Game 1\n C : 0   D : 0\n  1) 31: 8/5 6/55\n'


def test_several_matches_in_a_mat_keep_their_lines() -> None:
    first = " 1 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5\n      Wins 1 point\n\n"
    split = split_matches(first + SECOND)
    parts = split.parts
    assert split.count == 2 and len(parts) == 2 and parts[0].text.rstrip() == first.rstrip()
    assert [part.line for part in parts] == [1, 7]  # its blank line above its tags
    records = read_records(first + SECOND)
    assert [r.tags.get("Event") for r in records] == [None, "second"]
    assert [r.games[0].players for r in records] == [("A", "B"), ("C", "D")]
    # The second match's bad play (6/55) is reported at its own line of the file: 14.
    second = check_record(parts[1].text, first_line=parts[1].line)
    assert [(e["line"]) for e in second.to_json()["games"][0]["errors"]] == [14]
    whole = adjudicate(first + SECOND).verdict.to_json()
    assert whole["valid"] and whole["match"]["players"] == ["A", "B"]
    assert [w["code"] for w in whole["warnings"]] == ["several_matches"]
