"""Hostile input: the parsers raise only their documented error, the API answers only 2xx or
a 4xx problem+json, and nothing hangs.

(a) Property tests (hypothesis) on the notation parsers (only ``NotationError``) and the
    referee's services (only ``RefereeError``), fed with arbitrary text (full Unicode with
    NUL and lone surrogates, invalid UTF-8 decoded with surrogateescape or Latin-1), with
    mutations of valid position strings, plays and records, and with lines of up to 10^6
    characters (digits, ``/`` chains, ``(9999999)`` repeats, ``*`` runs, blanks ...).
(b) The Flask test client against every endpoint that reads text: hostile JSON bodies
    (wrong types for every field, 10^6-character strings, 10,000 nested lists), raw bytes
    (invalid UTF-8, NUL), and hostile query strings for ``GET /v1/matches``.

Hangs. Each call runs under a guard on the CPU time it spends (``PARSE_SECONDS`` for a
parser or service call, ``REQUEST_SECONDS`` for a request): CPU time, not wall-clock time,
so that a loaded machine (the suite runs in parallel) does not pass for a hang; and under
a generous wall-clock limit besides (``WALL_FACTOR`` times it), for a hang that blocks
without spending CPU. The guards are SIGPROF and SIGALRM in the main thread, not a worker
thread with ``join(timeout)``: Python's regular-expression engine keeps the GIL for a whole
match, so a thread stuck in a backtracking regex also blocks the thread that waits for it
(a 1 s ``join`` returned after 61 s), whereas the regex engine does check for signals. A
hang raises ``HangError`` (a BaseException, so neither Flask's error handler nor
hypothesis's shrinker retries it for minutes); its message holds the input. Latency itself
is not asserted: the benchmarks measure it.

Examples are derandomized (the same examples on every run, so CI is not flaky) and bounded
so that this file runs in well under a minute when nothing hangs.

Defects found while writing these tests are pinned by explicit cases below
(``test_defect_*``): they fail until the code is fixed; the comment above each says what
the input is and what happens.
"""

from __future__ import annotations

import itertools
import json
import signal
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.test import TestResponse

import referee.errors
from notation.errors import NotationError
from notation.ids import from_gnubg_id, from_xgid, to_gnubg_id, to_xgid
from notation.options import parse_rules_text
from notation.plays import parse_play
from notation.positions import PositionProblem, format_position, parse_position, validate_position
from notation.records.mat_reader import read_mat
from referee.adjudication import adjudicate
from referee.app import create_app
from referee.bridge import read_position
from referee.errors import RefereeError
from referee.plays import PlaysService
from referee.rules.options import OPTION_SPECS
from referee.rules.variants import find_variant
from referee.storage import open_storage
from tests.reliability.test_concurrency import small_record

# Failing examples of 10^6 characters make hypothesis warn that their repr is large.
pytestmark = pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisWarning")

ROOT = Path(__file__).resolve().parents[2]
PARSE_SECONDS = 5.0
"""Per parser or service call; a linear reader takes milliseconds on 10^6 characters."""
REQUEST_SECONDS = 20.0
"""Per request through the Flask test client."""
MEGA = 1_000_000
PROBLEM_JSON = "application/problem+json"
NDJSON = "application/x-ndjson"
PROBLEM_KEYS = ("type", "title", "status", "detail", "code")

Result = TypeVar("Result")

PARSER_SETTINGS = settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
SERVICE_SETTINGS = settings(PARSER_SETTINGS, max_examples=150)
API_SETTINGS = settings(PARSER_SETTINGS, max_examples=100)


# -- guards and contracts ---------------------------------------------------------------------


class HangError(BaseException):
    """A call ran past its CPU-time guard (a BaseException: nothing on the way catches it)."""


def preview(value: object, limit: int = 160) -> str:
    text = repr(value)
    size = f" ({len(value)} characters)" if isinstance(value, str | bytes) else ""
    return (text if len(text) <= limit else text[:limit] + "...") + size


def call_text(function: Callable[..., object], args: tuple[Any, ...]) -> str:
    return f"{function.__qualname__}({', '.join(preview(arg) for arg in args)})"


WALL_FACTOR = 12
"""A guarded call may also wait this many times its CPU limit on the clock: a hang that
blocks (a lock, a socket) spends no CPU, and a loaded machine must not pass for a hang."""


@contextmanager
def cpu_guard(seconds: float, what: Callable[[], str]) -> Iterator[None]:
    """Raise HangError when the block spends more than ``seconds`` of the process's CPU
    time, or runs ``WALL_FACTOR`` times as long on the clock (see the module note);
    ``what()`` describes the call (built only then: inputs may be 10^6 characters)."""

    def alarm(signum: int, frame: object) -> None:
        spent = "of CPU" if signum == signal.SIGPROF else "on the clock"
        limit = seconds if signum == signal.SIGPROF else seconds * WALL_FACTOR
        raise HangError(f"over {limit:g} s {spent} (a hang): {what()}")

    previous = {number: signal.signal(number, alarm) for number in (signal.SIGPROF, signal.SIGALRM)}
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, seconds * WALL_FACTOR)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        for number, handler in previous.items():
            signal.signal(number, handler)


def notation_only(function: Callable[..., Result], *args: Any) -> Result | None:
    """``function(*args)``, or None when it raises NotationError; anything else fails."""
    with cpu_guard(PARSE_SECONDS, lambda: call_text(function, args)):
        try:
            return function(*args)
        except NotationError as error:
            assert isinstance(error.code, str) and error.code, call_text(function, args)
            assert isinstance(error.message, str), call_text(function, args)
            assert error.column is None or isinstance(error.column, int)
            return None


def referee_only(function: Callable[..., Result], *args: Any) -> Result | None:
    """``function(*args)``, or None when it raises RefereeError; anything else (a plain
    ValueError, a NotationError that leaked, a TypeError ...) fails."""
    with cpu_guard(PARSE_SECONDS * 2, lambda: call_text(function, args)):
        try:
            return function(*args)
        except RefereeError as error:
            assert isinstance(error.code, str) and error.code, call_text(function, args)
            assert 400 <= error.status < 500, call_text(function, args)
            assert isinstance(error.message, str), call_text(function, args)
            return None


def all_subclasses(cls: type) -> set[type]:
    found = set(cls.__subclasses__())
    for sub in list(found):
        found |= all_subclasses(sub)
    return found


def test_error_hierarchy_is_exact() -> None:
    """The two documented error types: each a direct ValueError subclass, unrelated to the
    other; every domain error of the referee is a RefereeError with a 4xx status, but for
    the busy ones (503 with Retry-After: the same request may succeed later)."""
    assert RefereeError.__mro__ == (RefereeError, ValueError, Exception, BaseException, object)
    assert NotationError.__mro__ == (NotationError, ValueError, Exception, BaseException, object)
    assert not issubclass(RefereeError, NotationError)
    assert not issubclass(NotationError, RefereeError)
    declared = [
        value
        for value in vars(referee.errors).values()
        if isinstance(value, type) and issubclass(value, Exception)
    ]
    assert declared and all(issubclass(cls, RefereeError) for cls in declared)
    for cls in {RefereeError} | all_subclasses(RefereeError):
        busy = cls.status == 503 and cls.retry_after is not None
        assert 400 <= cls.status < 500 or busy, cls
        assert isinstance(cls.code, str) and cls.code, cls


# -- seeds: valid inputs to start mutations from ----------------------------------------------

BG_START = "backgammon 2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0"
VALID_POSITIONS = [
    f"{BG_START} - - 1c 0:0-0 -",
    f"{BG_START} w 31 1c 0:0-0 -",
    f"{BG_START} b 66",
    "backgammon 2b,,,,,5w,,3w,,,,5b,4w,,,,3b,,5b,,,,,2w w1b0 w0b0 w 66 2b 7:6-2 p",
    "backgammon 2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0 w 52 1c 5:4-2 c",
    "backgammon 2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0 b d 2w 0:0-0 -",
    "backgammon 1w,,,,,,,,,,,,,,,,,,,,,,,1b w0b0 w14b14 w 21 1c 1:0-0 -",
    "long-nardy ,,,,,,,,,,,15b,,,,,,,,,,,,15w w0b0 w0b0 w 65 - 0:0-0 -",
    "ln ,,,,,,,,,,,15b,,,,,,,,,,,,15w w0b0 w0b0 - -",
    "khachapuri ,,,,,11w,,,,,,4b,,,,,,11b,,,,,,4w w0b0 w0b0 b 43 - 0:0-0 -",
]
BACKGAMMON_DATA = [parse_position(text) for text in VALID_POSITIONS if text.startswith("bac")]
GNUBG_IDS = [to_gnubg_id(data) for data in BACKGAMMON_DATA] + ["4HPwATDgc/ABMA:cAkAAAAAAAAA"]
XGIDS = [to_xgid(data) for data in BACKGAMMON_DATA if data.turn is not None]
VALID_PLAYS = [
    "52: 13/8 13/11",
    "13/8 13/11",
    "24/18*/13",
    "6/off(2)",
    "bar/22*",
    "Cannot Move",
    "????",
    "54:",
    "66: 24/18 24/18 13/7 13/7",
    "13/7(2) 24/18*",
    "8-5 6-5",
    "b/22 o/1",
    "25/20 6/0",
    "64: 24/18 18/14*",
]
RULES_TEXTS = [
    "head_exception=unconditional, block_rule=ahead, koks=false, draw_rule=false",
    "cube_limit=64; jacoby=on",
    "beavers=yes",
]
RECORD_FILES = sorted((ROOT / "examples").glob("*.mat")) + sorted(
    (ROOT / "tests" / "records" / "fixtures").glob("*.mat")
)
VALID_RECORDS = [path.read_bytes().decode("utf-8") for path in RECORD_FILES] + [
    small_record("hostile", "Alice", "Bob")
]
assert len(VALID_RECORDS) > 5

# Text that looks like the notation: the pieces mutations are made of.
NEAR_CHARS = '0123456789/,:-*() \t\n\r\x00wbcdpr[]";#=>\u0663\u00b2\ufeff'
FRAGMENTS = [
    "bar", "off", "Cannot Move", " Game 1", " Game 99999", " 99999 point match", "Doubles => 2",
    "Doubles => 999999", "Takes", "Drops", "Beavers => 4", "Wins 1 point",
    "Wins 999999999 points and the match", "Illegal play (13/8)", "; Set Pos=", "(9999999)",
    "(0)", "/", "*", "; [", '"]', "\n", "\r\n", "9" * 30, "66:", "00:", "77:", "bar/bar",
    "off/off", "25/0", "0/25", "24/30", "-", ";", ",", "\ud800", "\U0010ffff", "\x00",
    '; [Variation "Long Nardy"]', '; [Variation "Khachapuri"]', '; [Variation "Chess"]',
    '; [CubeLimit "1"]', '; [Crawford "On"]', '; [Jacoby "On"]', '; [Beaver "On"]',
    '; [Rules "draw_rule=true, koks=true"]', '; [Rules "nonsense"]', '; [StartPosition "x"]',
    f'; [StartPosition "{VALID_POSITIONS[7]}"]', f'; [StartPosition "{VALID_POSITIONS[3]}"]',
    "; Set Pos=-b----E-C---eE---c-e----B-/0", "; Set Pos=-b----E-C---eE---c-e----B-/-15",
    " alice : 0                     bob : 0", "  1) 52: 13/8 13/11            31: 8/5 6/5",
]  # fmt: skip
fragments = st.one_of(
    st.text(st.sampled_from(NEAR_CHARS), max_size=6),
    st.sampled_from(FRAGMENTS),
    st.text(max_size=4),
)


@st.composite
def mutated(draw: st.DrawFn, seeds: list[str]) -> str:
    """A valid text with a few edits: inserted, deleted, replaced, repeated, re-cased or
    moved pieces and lines."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 5))):
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, min(len(text), start + 30)))
        operation = draw(st.integers(0, 6))
        if operation == 0:
            text = text[:start] + draw(fragments) + text[start:]
        elif operation == 1:
            text = text[:start] + text[end:]
        elif operation == 2:
            text = text[:start] + draw(fragments) + text[end:]
        elif operation == 3:
            text = text[:start] + text[start:end] * draw(st.integers(2, 100)) + text[end:]
        elif operation == 4:
            text = text[:start] + text[start:end].swapcase() + text[end:]
        else:
            lines = text.split("\n")
            first = draw(st.integers(0, len(lines) - 1))
            second = draw(st.integers(0, len(lines) - 1))
            if operation == 5:
                lines[first], lines[second] = lines[second], lines[first]
            else:
                lines.insert(second, lines[first])
            text = "\n".join(lines)
    return text


LONG_UNITS = [
    "9", "1/", "24/18*", "/", "(9999999)", "*", " ", "\t", ",", "5w,", "a:1 ", "[", "(", "\x00",
    "bar/", "off/", "66: ", "13/8(2) ", "-", ":", "w", "\n", "  1) 52: 13/8 13/11\n", " :1",
]  # fmt: skip


@st.composite
def long_texts(draw: st.DrawFn, prefixes: list[str]) -> str:
    """Up to 10^6 characters: a prefix that looks right, then one unit repeated."""
    unit = draw(st.sampled_from(LONG_UNITS))
    size = draw(st.sampled_from([1_000, 50_000, MEGA]))
    prefix = draw(st.sampled_from(["", *prefixes]))
    suffix = draw(st.sampled_from(["", "x", "\n", '"]', " 1c 0:0-0 -", ":1"]))
    return prefix + unit * (size // len(unit)) + suffix


any_characters = st.one_of(st.characters(), st.characters(categories=["Cs"]))
arbitrary_text = st.one_of(
    st.text(max_size=300),  # full Unicode (NUL included, surrogates excluded)
    st.text(any_characters, max_size=100),  # lone surrogates: JSON "\ud800" makes them
    st.binary(max_size=300).map(lambda data: data.decode("utf-8", "surrogateescape")),
    st.binary(max_size=300).map(lambda data: data.decode("latin-1")),
)


def hostile(seeds: list[str], prefixes: list[str]) -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(seeds), mutated(seeds), arbitrary_text, long_texts(prefixes))


position_texts = hostile(
    VALID_POSITIONS,
    ["backgammon ", f"{BG_START} ", f"{BG_START} w ", "long-nardy ", "bg 2b,"],
)
play_texts = hostile(VALID_PLAYS, ["52: ", "24/", "13/8 ", "bar/22*"])
record_texts = hostile(
    VALID_RECORDS,
    [
        " 1 point match\n Game 1\n",
        " Game 1\n",
        " Game 1\n a : 0",
        " Game 1\n alice : 0                     bob : 0\n  1) ",
        "; [Event ",
        "; [",
        "; [Rules ",
    ],
)
gnubg_texts = hostile(GNUBG_IDS + XGIDS, ["GNUbgID ", "XGID=", "4HPwATDgc/ABMA:"])
rules_texts = hostile(RULES_TEXTS, ["koks=", "cube_limit=", "a=b, "])

OPTION_VALUES = st.one_of(
    st.booleans(),
    st.none(),
    st.integers(-(2**70), 2**70),
    st.sampled_from([0, 1, 2, 3, 64, 2**62, 2**63, 2**64, -1]),
    st.sampled_from(
        sorted({value for spec in OPTION_SPECS.values() for value in spec.values or []})
    ),
    st.floats(),
    st.text(max_size=8),
    st.lists(st.none(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.none(), max_size=2),
)
option_maps = st.dictionaries(
    st.one_of(st.sampled_from(sorted(OPTION_SPECS)), st.text(max_size=8)), OPTION_VALUES, max_size=4
)
variant_names = st.one_of(
    st.none(),
    st.sampled_from(["backgammon", "long-nardy", "khachapuri", "bg", "ln", "kh", "short-nardy"]),
    st.text(max_size=20),
)


@st.composite
def playable_positions(draw: st.DrawFn) -> str:
    """A position string that validates: 15 checkers a side anywhere, any side on turn,
    mostly with dice (sometimes a side has all 15 off: the game is over)."""
    variant = draw(st.sampled_from(["backgammon", "long-nardy", "khachapuri"]))
    order = draw(st.permutations(range(24)))
    cells = [0] * 24
    bar, off = [0, 0], [0, 0]
    used = 0
    for side, sign in ((0, 1), (1, -1)):
        off[side] = draw(st.sampled_from([0, 0, 0, 5, 14, 15]) | st.integers(0, 15))
        if variant == "backgammon":
            bar[side] = draw(st.integers(0, min(3, 15 - off[side])))
        left = 15 - off[side] - bar[side]
        if not left:
            continue
        points = order[used : used + draw(st.integers(1, min(left, 12)))]
        used += len(points)
        counts = [1] * len(points)
        for _ in range(left - len(points)):
            counts[draw(st.integers(0, len(points) - 1))] += 1
        for point, count in zip(points, counts, strict=True):
            cells[point] = sign * count
    board = ",".join("" if c == 0 else f"{abs(c)}{'w' if c > 0 else 'b'}" for c in cells)
    turn = draw(st.sampled_from("wb"))
    state = draw(st.sampled_from(["", "", "", "-", "end"]))
    dice = f"{draw(st.integers(1, 6))}{draw(st.integers(1, 6))}"
    if state == "end":
        turn = "-"
    cube = draw(st.sampled_from(["1c", "2w", "64b"])) if variant == "backgammon" else "-"
    return f"{variant} {board} w{bar[0]}b{bar[1]} w{off[0]}b{off[1]} {turn} {state or dice} {cube}"


def _variant_options(position: str) -> st.SearchStrategy[dict[str, object]]:
    variant = find_variant(
        {"bac": "backgammon", "lon": "long-nardy", "kha": "khachapuri"}[position[:3]]
    )
    valid = {
        name: st.sampled_from(spec.values)
        if spec.values
        else (st.booleans() if spec.kind is bool else st.sampled_from([0, 2, 4, 2**40]))
        for name, spec in OPTION_SPECS.items()
        if name in variant.option_names
    }
    return st.one_of(st.just({}), st.fixed_dictionaries({}, optional=valid), option_maps)


# -- (a) the notation parsers raise only NotationError ----------------------------------------


@PARSER_SETTINGS
@given(position_texts)
def test_parse_and_validate_position(text: str) -> None:
    parsed = notation_only(parse_position, text)
    if parsed is None:
        return
    problems = notation_only(validate_position, parsed)
    assert problems is None or all(isinstance(p, PositionProblem) for p in problems)
    # What parses is written canonically, and the canonical text reads back the same.
    assert notation_only(parse_position, format_position(parsed)) == parsed


@PARSER_SETTINGS
@given(play_texts)
def test_parse_play(text: str) -> None:
    notation_only(parse_play, text)


@PARSER_SETTINGS
@given(record_texts)
def test_read_mat(text: str) -> None:
    notation_only(read_mat, text)


@PARSER_SETTINGS
@given(gnubg_texts)
def test_from_gnubg_id_and_from_xgid(text: str) -> None:
    for reader in (from_gnubg_id, from_xgid):
        data = notation_only(reader, text)
        if data is not None:
            notation_only(validate_position, data)


@PARSER_SETTINGS
@given(rules_texts)
def test_parse_rules_text(text: str) -> None:
    notation_only(parse_rules_text, text)


# -- (a) the referee's services raise only RefereeError ---------------------------------------


@SERVICE_SETTINGS
@given(position_texts)
def test_read_position(text: str) -> None:
    referee_only(read_position, text)


@SERVICE_SETTINGS
@given(st.data())
def test_plays_service_legal_and_check(data: st.DataObject) -> None:
    position = data.draw(st.one_of(playable_positions(), position_texts), label="position")
    options = data.draw(
        _variant_options(position) if position[:3] in ("bac", "lon", "kha") else option_maps,
        label="options",
    )
    service = referee_only(PlaysService, position, options)
    if service is None:
        return
    legal = referee_only(service.legal)
    if legal is None:
        return
    assert legal, "a playable position has at least the empty play"
    chosen = data.draw(st.sampled_from(legal), label="legal play")
    # A play from the legal list is judged legal, to the same position.
    verdict = referee_only(service.check, chosen.play)
    assert verdict is not None and verdict.legal, (chosen, verdict)
    assert verdict.position == chosen.position
    written = data.draw(
        st.one_of(play_texts, mutated([chosen.play or "Cannot Move", *VALID_PLAYS])),
        label="play",
    )
    referee_only(service.check, written)


@SERVICE_SETTINGS
@given(
    record_texts,
    variant_names,
    st.sampled_from(["strict", "condone"]),
    st.one_of(st.just({}), option_maps),
)
def test_adjudicate(text: str, variant: str | None, mode: str, options: dict[str, Any]) -> None:
    referee_only(adjudicate, text, variant, mode, options)


# -- (a) defects found, pinned ---------------------------------------------------------------

# DEFECT: header_options (referee/adjudication/match.py) tests the CubeLimit tag with
# str.isdigit(), which is true for characters int() does not read ("²", "①") and for digit
# strings longer than int()'s 4300-digit limit: ``int(limit)`` raises a plain ValueError,
# not a RefereeError, and the API answers 500 to /v1/records/check and /v1/matches.
CUBE_LIMIT_RECORDS = [
    '; [CubeLimit "²"]\n\n 1 point match\n',
    '; [CubeLimit "' + "9" * 5000 + '"]\n\n 1 point match\n',
]


@pytest.mark.parametrize("text", CUBE_LIMIT_RECORDS, ids=["superscript-two", "5000-digits"])
def test_defect_cube_limit_tag_is_a_plain_value_error(text: str) -> None:
    referee_only(adjudicate, text)


# DEFECT: two regexes of notation/records/mat_reader.py backtrack on long lines, and a
# record may be 16 MiB: one request keeps a gunicorn worker busy for minutes to hours.
# - The score line (the first line after " Game N"), ``^\s*(.*?)\s*:\s*(\d{1,5})\s+(.*?)
#   \s*:\s*(\d{1,5})\s*$``, is cubic on one run of blanks: " Game 1" then n blanks and
#   "x" takes 0.03 s for n = 400 and 8 times more for each doubling (n = 10,000: minutes),
#   and about n^4 on " a<n blanks>:1<n blanks>x" (n = 400: 25 s); "a:1 " repeated is
#   quadratic (16,000 characters: 1.1 s; 10^6: over an hour).
# - The tag regex ``^[;#]\s*\[\s*([^"\]]+?)\s+"(.*)"\s*\]\s*$`` is quadratic on
#   "; [a<n blanks>x" (16,000 characters: 0.35 s; 10^6: over an hour). Hypothesis finds
#   these too with more examples ("; [Rules " then tabs; " Game 1" then tabs).
SLOW_RECORDS = {
    "score-line-blank-run": " Game 1\n" + " " * 10_000 + "x\n",
    "score-line-repeats": " 1 point match\n Game 1\n" + "a:1 " * (MEGA // 4) + "x\n",
    "tag-blank-run": "; [a" + " " * MEGA + "x\n 1 point match\n",
}


@pytest.mark.parametrize("text", SLOW_RECORDS.values(), ids=SLOW_RECORDS.keys())
def test_defect_record_reader_backtracks_on_long_lines(text: str) -> None:
    notation_only(read_mat, text)


# -- (b) the API answers 2xx or a 4xx problem -------------------------------------------------


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    database = tmp_path_factory.mktemp("hostile") / "archive.sqlite3"
    app = create_app({"DATABASE": str(database)})
    storage = open_storage(database)
    app.config["TEST_TOKEN"] = storage.tokens.create(("archive:write",), "hostile").secret
    storage.close()
    client = app.test_client()
    for index in range(3):  # something for the searches to find
        text = small_record(f"Seed {index}", f"Alice{index}", "Bob")
        headers = {"Authorization": f"Bearer {app.config['TEST_TOKEN']}"}
        assert client.post("/v1/matches", json={"record": text}, headers=headers).status_code == 201
    return app


@pytest.fixture(scope="module")
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def assert_answer(response: TestResponse, what: Callable[[], str]) -> None:
    """2xx with a JSON (or NDJSON) body, or 4xx with a complete problem+json body."""
    status = response.status_code
    body = response.get_data()

    def where() -> str:  # an assert's message is built only when it fails
        return f"{what()} -> {status} {body[:400]!r}"

    assert 200 <= status < 300 or 400 <= status < 500, where()
    if status >= 400:
        assert response.mimetype == PROBLEM_JSON, where()
        problem = json.loads(body)
        assert isinstance(problem, dict), where()
        assert [key for key in PROBLEM_KEYS if key not in problem] == [], where()
        assert problem["status"] == status, where()
        assert all(isinstance(problem[key], str) for key in PROBLEM_KEYS if key != "status")
    elif response.mimetype == NDJSON:
        for line in body.splitlines():
            # headers are sent before the rows: an error is the last line, under a 200
            assert "error" not in json.loads(line), where()
    else:
        assert response.mimetype == "application/json", where()
        json.loads(body)


def send(client: FlaskClient, method: str, path: str, **request: Any) -> TestResponse:
    def what() -> str:
        return f"{method} {preview(path, 300)} {preview(request, 300)}"

    with cpu_guard(REQUEST_SECONDS, what):
        response = client.open(path, method=method, **request)
        response.get_data()  # a streamed body is produced under the guard too
    assert_answer(response, what)
    return response


json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(),
        st.text(any_characters, max_size=20),
    ),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=12,
)


def bodies(fields: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """JSON bodies: the endpoint's fields with hostile or wrongly typed values (some missing,
    some extra), or any JSON value at all."""
    objects = st.fixed_dictionaries(
        {}, optional={name: st.one_of(values, json_values) for name, values in fields.items()}
    )
    extras = st.dictionaries(st.text(max_size=8), json_values, max_size=2)
    return st.one_of(
        objects,
        st.tuples(objects, extras).map(lambda pair: {**pair[1], **pair[0]}),
        json_values,
    )


CONTENT_TYPES = [
    "application/json",
    "application/json",
    "application/json",
    "application/json; charset=latin-1",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/octet-stream",
]
content_types = st.sampled_from(CONTENT_TYPES)
position_fields = {"position": position_texts, "options": option_maps}
ENDPOINT_BODIES = {
    "/v1/plays/legal": bodies(position_fields),
    "/v1/plays/check": bodies({**position_fields, "play": play_texts}),
    "/v1/records/check": bodies(
        {
            "record": record_texts,
            "variant": variant_names,
            "mode": st.sampled_from(["strict", "condone", "STRICT", ""]),
            "options": option_maps,
        }
    ),
    "/v1/positions/convert": bodies(
        {
            "position": st.one_of(position_texts, gnubg_texts),
            "to": st.sampled_from(["position", "gnubg", "xgid", "fen", ""]),
        }
    ),
}


@API_SETTINGS
@given(st.sampled_from(sorted(ENDPOINT_BODIES)), st.data())
def test_json_bodies(client: FlaskClient, path: str, data: st.DataObject) -> None:
    body = data.draw(ENDPOINT_BODIES[path], label="body")
    content_type = data.draw(content_types, label="content type")
    send(client, "POST", path, data=json.dumps(body), content_type=content_type)


RAW_BODIES = [
    b"",
    b"\x00",
    b"\xff\xfe\xfd",
    b'{"position": "\xff\xfe", "play": "\x00"}',
    b'{"record": "\xed\xa0\x80 Game 1"}',
    b'{"position": "\\ud800", "play": "\\udfff", "record": "\\ud800", "to": "xgid"}',
    b'{"position": 1' + b"0" * 5000 + b"}",
    b"[" * 10_000 + b"]" * 10_000,
    b'{"a":' * 10_000 + b"null" + b"}" * 10_000,
    b'{"options": ' + b"[" * 10_000 + b"]" * 10_000 + b"}",
    b"\xef\xbb\xbf{}",
    b"NaN",
    b'{"position": "' + b"9" * MEGA + b'"}',
    b'{"record": "' + b"(9999999)" * (MEGA // 9) + b'"}',
]
POST_PATHS = ["/v1/plays/legal", "/v1/plays/check", "/v1/records/check", "/v1/positions/convert"]


@API_SETTINGS
@given(
    st.sampled_from(POST_PATHS),
    st.one_of(st.binary(max_size=500), st.sampled_from(RAW_BODIES)),
    content_types,
)
def test_raw_bodies(client: FlaskClient, path: str, body: bytes, content_type: str) -> None:
    send(client, "POST", path, data=body, content_type=content_type)


@SERVICE_SETTINGS
@given(
    record_texts,
    st.dictionaries(
        st.sampled_from(["variant", "mode", "options", "allow_invalid", "x"]),
        st.one_of(
            st.text(max_size=30),
            st.sampled_from(["strict", "condone", "{}", '{"cube": false}', "koks=true", "{"]),
            st.just('{"a":' * 5000 + "1" + "}" * 5000),
        ),
        max_size=3,
    ),
)
def test_records_check_as_text_plain(
    client: FlaskClient, record: str, query: dict[str, str]
) -> None:
    body = record.encode("utf-8", "surrogatepass")  # lone surrogates: invalid UTF-8 bytes
    path = "/v1/records/check?" + urllib.parse.urlencode(query)
    send(client, "POST", path, data=body, content_type="text/plain")


@API_SETTINGS
@given(
    st.one_of(
        bodies(
            {
                "record": record_texts,
                "allow_invalid": st.booleans(),
                "variant": variant_names,
                "options": option_maps,
            }
        ),
        st.builds(lambda record: {"record": record, "allow_invalid": True}, record_texts),
    )
)
def test_matches_submit(app: Flask, client: FlaskClient, body: Any) -> None:
    """POST /v1/matches with a token: the archive's write path reads records too."""
    headers = {"Authorization": f"Bearer {app.config['TEST_TOKEN']}"}
    send(client, "POST", "/v1/matches", data=json.dumps(body), headers=headers,
         content_type="application/json")  # fmt: skip


QUERY_KEYS = ["player", "event", "variant", "valid", "from", "to", "q", "limit", "cursor"]
QUERY_VALUES = [
    "", "\x00", "a\x00b", "true", "maybe", "0", "-1", "1", "500", "501", "9" * 30, "1e3",
    "NaN", "2025-13-45", "0001-01-01", "9999-12-31", "'; DROP TABLE matches; --", '"', "*",
    "NEAR(a b)", "a OR b", "^a", "\u202e", "%", "_", "Alice0", "Seed 1", "backgammon",
    "9223372036854775807", "999999999999999999", "x" * 501, "x" * MEGA,
]  # fmt: skip


def _encoded(value: str) -> str:
    return urllib.parse.quote(value, safe="", errors="surrogatepass")


query_strings = st.one_of(
    st.lists(
        st.tuples(
            st.one_of(st.sampled_from(QUERY_KEYS), st.text(max_size=6)),
            st.one_of(st.sampled_from(QUERY_VALUES), st.text(any_characters, max_size=40)),
        ),
        max_size=5,
    ).map(lambda pairs: "&".join(f"{_encoded(k)}={_encoded(v)}" for k, v in pairs)),
    st.binary(max_size=60).map(lambda raw: "q=" + "".join(f"%{byte:02X}" for byte in raw)),
    st.sampled_from(["q=%zz", "&&&", "=", "player=%ff%fe", "limit=%00", "q=%ED%A0%80"]),
)
accepts = st.sampled_from(["application/json", NDJSON, "text/plain", "*/*;q=x", "", "\x7f"])


@API_SETTINGS
@given(query_strings, accepts)
def test_matches_search_query_strings(client: FlaskClient, query: str, accept: str) -> None:
    send(client, "GET", "/v1/matches?" + query, headers={"Accept": accept})


# -- (b) defects found, pinned ---------------------------------------------------------------

# DEFECT: every JSON endpoint answers 500 to JSON nested 10,000 deep: werkzeug's
# get_json(silent=True) swallows only ValueError, and json.loads raises RecursionError
# ("maximum recursion depth exceeded while decoding a JSON array"). The options query
# parameter of a text/plain record (``{"a":{"a":...`` 5000 deep) takes the same path
# through referee/api/bodies.py's _query_options, which catches only ValueError.
DEEP = b"[" * 10_000 + b"]" * 10_000
DEEP_OPTIONS = "{" + '"a":{' * 5000 + "}" * 5001

# DEFECT: GET /v1/matches?q=<text with NUL> answers 500: the FTS5 phrase goes to SQLite
# with the NUL inside its quotes, FTS5 stops reading at the NUL and raises
# sqlite3.OperationalError "unterminated string". With Accept: application/x-ndjson the
# answer is a 200 whose last line is a 500 problem.

# DEFECT: POST /v1/matches with a JSON record holding a lone surrogate ("\ud800", valid
# JSON) answers 500: submit() hashes canonical.encode() -> UnicodeEncodeError (SQLite
# could not store the text either). /v1/records/check accepts the same record.
SURROGATE_RECORD = small_record("Event \ud800", "Alice", "Bob")

PINNED = {
    "legal-deep-json": ("POST", "/v1/plays/legal", {"data": DEEP}),
    "check-deep-json": ("POST", "/v1/plays/check", {"data": DEEP}),
    "records-deep-json": ("POST", "/v1/records/check", {"data": DEEP}),
    "convert-deep-json": ("POST", "/v1/positions/convert", {"data": DEEP}),
    "records-deep-options": (
        "POST",
        "/v1/records/check?" + urllib.parse.urlencode({"options": DEEP_OPTIONS}),
        {"data": VALID_RECORDS[0], "content_type": "text/plain"},
    ),
    "search-nul": ("GET", "/v1/matches?q=%00", {}),
    "search-nul-ndjson": ("GET", "/v1/matches?q=a%00b", {"headers": {"Accept": NDJSON}}),
    "submit-surrogate": ("POST", "/v1/matches", {"data": json.dumps({"record": SURROGATE_RECORD})}),
    "records-cube-limit": (
        "POST",
        "/v1/records/check",
        {"data": CUBE_LIMIT_RECORDS[0].encode(), "content_type": "text/plain"},
    ),
    "records-score-line-blank-run": (
        "POST",
        "/v1/records/check",
        {"data": SLOW_RECORDS["score-line-blank-run"], "content_type": "text/plain"},
    ),
}


@pytest.mark.parametrize("case", PINNED.values(), ids=PINNED.keys())
def test_defect_pinned_requests(
    app: Flask, client: FlaskClient, case: tuple[str, str, dict[str, Any]]
) -> None:
    method, path, request = case
    request = {"content_type": "application/json", **request}
    if path == "/v1/matches" and method == "POST":
        request["headers"] = {"Authorization": f"Bearer {app.config['TEST_TOKEN']}"}
    send(client, method, path, **request)


def test_large_fields_within_the_limits(client: FlaskClient) -> None:
    """10^6-character fields: over the 64 KiB plays limit they are 413; a record of 10^6
    characters is read (the records limit is 16 MiB); plays just under the limit are
    judged."""
    huge = "9" * MEGA
    rows = " 1 point match\n" + "  1) 52: 13/8 13/11\n" * 50_000
    games = "".join(
        f" Game {n}\n a : 0   b : 0\n  1) 66: " + "24/18 " * 2000 + "\n" for n in range(80)
    )
    near_limit = ["13/8 " * 12_000, "24/18" + "/18" * 15_000, "13/7(4) " * 7_000, "bar/" * 15_000]
    requests = itertools.chain(
        ((path, {"position": huge, "play": huge, "to": "xgid"}) for path in POST_PATHS),
        [("/v1/records/check", {"record": rows}), ("/v1/records/check", {"record": games})],
        (("/v1/plays/check", {"position": VALID_POSITIONS[2], "play": p}) for p in near_limit),
    )
    for path, body in requests:
        send(client, "POST", path, json=body)
