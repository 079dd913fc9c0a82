"""The ``nardy-referee`` command run in-process: legal plays, verdicts, --json, bad input.

Expected plays and positions are worked out by hand (NOTATION.md §1, §4); the --json output
must be exactly what the REST endpoints answer for the same input.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from referee import __version__
from referee.app import create_app
from referee.cli import main
from referee.rules import engine
from tests.positions import BG_START, OPENING_31, bg

BG_31 = bg(BG_START)
BG_62 = bg(BG_START, state="62")
LN_65 = "long-nardy ,,,,,,,,,,,15b,,,,,,,,,,,,15w w0b0 w0b0 w 65 - 0:0-0 -"
# White 13 -> 11 and 24 -> 18 from the start.
AFTER_24_18_13_11 = bg("2b,,,,,5w,,3w,,,1w,5b,4w,,,,3b,1w,5b,,,,,1w", "b", "-")
# One head checker 24/18/13.
LN_AFTER_65 = "long-nardy ,,,,,,,,,,,15b,1w,,,,,,,,,,,14w w0b0 w0b0 b - - 0:0-0 -"
# White on the bar against a closed board (Black holds White's 19..24): no die plays.
CLOSED = ",,,,,5w,,3w,,,,3b,6w,,,,,,2b,2b,2b,2b,2b,2b"
DANCE_31 = bg(CLOSED, bar="w1b0")
DANCE_AFTER = bg(CLOSED, "b", "-", bar="w1b0")
# Long nardy, White has 15 off; Black bears its last two off from its own 1 (global 13).
LN_LAST_TURN = "long-nardy ,,,,,,,,,,,,2b,,,,,,,,,,, w0b0 w15b13 b 65 - 0:0-0 -"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def listed_plays(out: str, variant: str) -> dict[str, str]:
    """``play -> position`` from the lines of ``legal`` that hold a position string."""
    plays = {}
    for line in out.splitlines():
        if f"{variant} " in line:
            play, _, rest = line.partition(variant)
            plays[play.strip()] = variant + rest.rstrip()
    return plays


# -- legal -----------------------------------------------------------------------------------


def test_legal_prints_every_play_with_its_position(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "legal", BG_31)
    assert status == 0 and err == ""
    plays = listed_plays(out, "backgammon")
    assert set(plays) == OPENING_31
    assert plays["8/5 6/5"] == bg("2b,,,,2w,4w,,2w,,,,5b,5w,,,,3b,,5b,,,,,2w", "b", "-")


def test_legal_long_nardy_opening(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "legal", LN_65)
    assert status == 0
    assert listed_plays(out, "long-nardy") == {"24/18 18/13": LN_AFTER_65}


def test_legal_prints_the_empty_play(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "legal", DANCE_31)
    assert status == 0
    assert list(listed_plays(out, "backgammon").values()) == [DANCE_AFTER]
    assert out.splitlines()[0].split() == ["no", "move", *DANCE_AFTER.split()]


def test_legal_takes_rules(capsys: pytest.CaptureFixture[str]) -> None:
    after = "long-nardy ,,,,,,,,,,,,,,,,,,,,,,, w0b0 w15b15 - end - 0:0-0 -"
    status, out, _ = run(capsys, "legal", LN_LAST_TURN, "--rules", "draw_rule=true")
    assert status == 0
    assert listed_plays(out, "long-nardy") == {"1/off 1/off": after}


# -- play ------------------------------------------------------------------------------------


@pytest.mark.parametrize("written", ["24/18 13/11", "13/11 24/18", "62: 24/18 13/11"])
def test_play_legal_prints_canonical_play_and_position(
    capsys: pytest.CaptureFixture[str], written: str
) -> None:
    status, out, err = run(capsys, "play", BG_62, written)
    assert status == 0 and err == ""
    assert "24/18 13/11" in out
    assert AFTER_24_18_13_11 in out
    assert "illegal" not in out


@pytest.mark.parametrize(
    ("position", "written"),
    [
        (BG_62, "24/18 13/12"),  # a 1 is not on the dice
        (BG_62, "24/18"),  # one die unused
        (BG_62, "31: 24/21 8/7"),  # wrong dice prefix
        (LN_65, "24/18 24/19"),  # head rule
        (LN_65, "bar/20"),  # no bar in long nardy
    ],
)
def test_play_illegal_exits_1(
    capsys: pytest.CaptureFixture[str], position: str, written: str
) -> None:
    status, out, err = run(capsys, "play", position, written)
    assert status == 1 and err == ""
    assert "illegal" in out


def test_play_illegal_names_the_legal_alternative(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "play", LN_65, "24/18 24/19")
    assert "24/18 18/13" in out


def test_play_names_a_dance_among_the_legal_plays_in_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "play", DANCE_31, "bar/22 bar/24")
    assert status == 1
    assert out.splitlines()[-1] == "legal plays include: no move"


@pytest.mark.parametrize("written", ["", "Cannot Move", "cannot move"])
def test_play_accepts_the_empty_play(capsys: pytest.CaptureFixture[str], written: str) -> None:
    status, out, _ = run(capsys, "play", DANCE_31, written)
    assert status == 0
    assert DANCE_AFTER in out
    assert out.splitlines()[0] == "legal: no move"


# -- --json is the endpoints' JSON -----------------------------------------------------------


def endpoint_json(path: str, body: dict[str, Any]) -> Any:
    response = create_app().test_client().post(path, json=body)
    assert response.status_code == 200
    return response.get_json()


@pytest.mark.parametrize(
    ("position", "rules", "options"),
    [
        (BG_31, None, {}),
        (DANCE_31, None, {}),
        (LN_65, None, {}),
        (LN_LAST_TURN, "draw_rule=true", {"draw_rule": True}),
        (LN_65.replace(" 65 ", " 66 "), "head_exception=none", {"head_exception": "none"}),
    ],
)
def test_legal_json_matches_the_endpoint(
    capsys: pytest.CaptureFixture[str], position: str, rules: str | None, options: dict[str, Any]
) -> None:
    extra = ["--rules", rules] if rules else []
    status, out, _ = run(capsys, "legal", position, "--json", *extra)
    assert status == 0
    expected = endpoint_json("/v1/plays/legal", {"position": position, "options": options})
    assert json.loads(out) == expected


@pytest.mark.parametrize(
    ("position", "written", "legal"),
    [
        (BG_31, "6/5 8/5", True),
        (BG_31, "8/5", False),
        (BG_31, "52: 13/8 13/11", False),
        (BG_62, "13/11 24/18", True),
        (bg("2b,,,,1b,5w,,3w,,,,5b,5w,,,,3b,,4b,,,,,2w"), "24/21 6/5", True),  # hit unmarked
        (DANCE_31, "Cannot Move", True),
        (LN_65, "24/13", True),
        (LN_65, "24/18* 18/13", False),
    ],
)
def test_play_json_matches_the_endpoint(
    capsys: pytest.CaptureFixture[str], position: str, written: str, legal: bool
) -> None:
    status, out, _ = run(capsys, "play", position, written, "--json")
    assert status == (0 if legal else 1)
    expected = endpoint_json("/v1/plays/check", {"position": position, "play": written})
    assert expected["legal"] is legal
    assert json.loads(out) == expected


# -- bad input: one line on stderr, exit 2 ---------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["legal", "backgammon 2b,,, w0b0 w0b0 w 31"],  # malformed position
        ["play", "backgammon 2b,,, w0b0 w0b0 w 31", "24/18 13/11"],
        ["legal", BG_31.replace("5w,,3w", "4w,,3w")],  # 14 White checkers
        ["legal", bg(BG_START, state="-")],  # no dice
        ["legal", LN_LAST_TURN],  # game over without the draw rule
        ["play", BG_62, "hello"],  # not a play
        ["legal", BG_31, "--rules", "no_such_option=1"],
        ["legal", BG_31, "--rules", "draw_rule=true"],  # not a backgammon option
        ["play", LN_65, "24/13", "--rules", "head_exception=sometimes"],
        ["play", LN_65, "24/13", "--json", "--rules", "cube=false"],
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.strip() and "\n" not in err.strip()
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["legal", BG_31, "--rules", "not a key value"],  # bad --rules text
        ["legal", BG_31, "--rules", "draw_rule"],
        ["play", BG_31],  # the play is missing
        ["solve", BG_31],  # no such command
        ["bot", "--url", "http://127.0.0.1:9/v1/live/1", "--token", "t", "--strategy", "best"],
        [],
    ],
)
def test_argument_errors_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.strip() and "Traceback" not in err


def test_version_names_the_engine_in_use(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    words = capsys.readouterr().out.split()
    assert words[:2] == ["nardy-referee", __version__]
    assert words[3].rstrip(")") == engine.CHOSEN.kind


def test_play_out_of_travel_order(capsys: pytest.CaptureFixture[str]) -> None:
    # The long nardy head checker's 24/18/13 written second move first (RULES.md A6).
    code, out, _ = run(capsys, "play", LN_65, "18/13 24/18")
    assert code == 0
    assert out.split()[0:3] == ["legal:", "24/18", "18/13"]


def test_check_stops_quietly_when_its_reader_goes_away() -> None:
    # `nardy-referee check records/ | head -1`: the pipe closes after the first line, while
    # far more is still to come than a pipe holds (about 1.2 MB of JSON verdicts).
    examples = str(Path(__file__).resolve().parents[1] / "examples")
    command = [sys.executable, "-m", "referee.cli", "check", "--json", *[examples] * 200]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()
    process.stdout.close()
    errors = process.stderr.read().decode()
    assert process.wait(timeout=60) == 141
    assert b"valid" in first
    assert "Traceback" not in errors


# -- check: valid and complete, --require-complete (issue 18) ----------------------------------

# White bears off her last two checkers from her 1-point with 2-1 (RULES.md 5.6).
TWO_OFF = """; [StartPosition "backgammon 2w,,,,,,,,,,,,,,,,,,,,,,,2b w0b0 w13b13 w - 1c 0:0-0 -"]
 Game 1
 Alice : 0                      Bob : 0
"""
FINISHED = (
    '; [Variation "Backgammon"]\n\n 1 point match\n\n'
    + TWO_OFF
    + """\
  1) 21: 1/off 1/off
      Wins 1 point and the match
"""
)
# A 17-point match cut in its second game: every action legal, the match far from over.
CUT = (
    '; [Variation "Backgammon"]\n\n 17 point match\n\n'
    + TWO_OFF
    + """\
  1) 21: 1/off 1/off
      Wins 1 point

 Game 2
 Alice : 1                      Bob : 0
  1) 31: 8/5 6/5                 52: 13/8 13/11
"""
)
# White has no checker on her 6-point: the play is illegal, the record still says she won.
CLAIMED = (
    '; [Variation "Backgammon"]\n\n 1 point match\n\n'
    + TWO_OFF
    + """\
  1) 21: 1/off 6/4
      Wins 1 point and the match
"""
)


@pytest.fixture
def records(tmp_path: Path) -> dict[str, Path]:
    paths = {}
    for name, text in {"finished": FINISHED, "cut": CUT, "claimed": CLAIMED}.items():
        paths[name] = tmp_path / f"{name}.mat"
        paths[name].write_text(text)
    return paths


@pytest.mark.parametrize(
    ("name", "first_line", "last_line"),
    [
        ("finished", "valid, complete (backgammon, 1 point match)", "match won by Alice"),
        ("cut", "valid, incomplete (backgammon, 17 point match)", None),
        ("claimed", "INVALID, complete (backgammon, 1 point match)", "the record claims Alice won"),
    ],
)
def test_check_says_valid_and_complete_and_who_won(
    capsys: pytest.CaptureFixture[str],
    records: dict[str, Path],
    name: str,
    first_line: str,
    last_line: str | None,
) -> None:
    _, out, _ = run(capsys, "check", str(records[name]))
    lines = out.splitlines()
    assert lines[0] == f"{records[name]}: {first_line}"
    if last_line is None:
        assert not any("won" in line or "claims" in line for line in lines)
    else:
        assert last_line in lines[-1]
        assert ("claims" in out) != ("match won by" in out)


@pytest.mark.parametrize(
    ("names", "plain", "required"),
    [
        (["finished"], 0, 0),
        (["cut"], 0, 1),  # a fragment of a match: valid, but not the whole match
        (["claimed"], 1, 1),
        (["finished", "cut"], 0, 1),
    ],
)
@pytest.mark.parametrize("as_json", [False, True])
def test_require_complete_fails_a_record_that_does_not_reach_the_end(
    capsys: pytest.CaptureFixture[str],
    records: dict[str, Path],
    names: list[str],
    plain: int,
    required: int,
    as_json: bool,
) -> None:
    paths = [str(records[name]) for name in names] + (["--json"] if as_json else [])
    assert run(capsys, "check", *paths)[0] == plain
    assert run(capsys, "check", "--require-complete", *paths)[0] == required


def test_a_missing_file_still_exits_2_with_require_complete(
    capsys: pytest.CaptureFixture[str], records: dict[str, Path], tmp_path: Path
) -> None:
    status, _, err = run(capsys, "check", "--require-complete", str(records["cut"]),
                         str(tmp_path / "missing.mat"))  # fmt: skip
    assert status == 2 and "cannot read" in err


# -- the archive's location (issue 18) -------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [["tokens", "list"], ["tokens", "create", "--scope", "archive:read"], ["recheck"]],
)
def test_a_url_as_the_archive_is_refused_saying_why(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    argv: list[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NARDY_REFEREE_DATABASE", "mysql://referee:pw@db.example/archive")
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    out, err = capsys.readouterr()
    assert exit_info.value.code == 2 and out == ""
    assert "mysql:// URL, which this version cannot use" in err
    assert "SQLite file" in err and "pw@" not in err
    assert list(tmp_path.iterdir()) == []


def test_a_url_given_as_database_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main(["tokens", "--database", "sqlite:///var/referee.sqlite3", "list"])
    assert exit_info.value.code == 2
    assert "sqlite:// URL" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_help_is_wrapped_at_the_terminals_width(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The options' descriptions fill ``$COLUMNS`` (less argparse's margin of 2)."""
    widths = {}
    for columns in (50, 120):
        monkeypatch.setenv("COLUMNS", str(columns))
        with pytest.raises(SystemExit):
            main(["check", "--help"])
        body = capsys.readouterr().out.partition("options:")[2].splitlines()
        descriptions = [line for line in body if line.startswith(" " * 24) and line.strip()]
        assert descriptions and all(len(line) <= columns - 2 for line in descriptions)
        widths[columns] = max(len(line) for line in descriptions)
    assert widths[120] > 50
