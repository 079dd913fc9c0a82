"""The native position reader reads every position string as the Python reader does: the
same position, or the same error to the letter (its code, message, column and problems), for
position strings of all three variants built field by field from valid spellings, near
misses and junk. It reads every ASCII string itself and leaves only the rest to Python."""

from __future__ import annotations

import string
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.positions import VARIANT_NAMES
from referee.bridge import cells_of, read_position
from referee.errors import RefereeError
from referee.rules.engine import Engine
from referee.rules.position import Position
from referee.rules.variants import VARIANTS, Variant
from tests.native.conftest import by_both
from tests.native.test_legal_plays import arbitrary_boards
from vocabulary import BAR, OFF

Outcome = Position | tuple[type[RefereeError], str, dict[str, object]]


def outcome(text: str, engine: Engine) -> Outcome:
    """The position ``engine`` reads, or the error it raises, as a comparable value."""
    try:
        return read_position(text, engine)
    except RefereeError as error:
        return type(error), error.message, error.extensions


def cased(word: str) -> st.SearchStrategy[str]:
    """``word`` as written, in upper case, or capitalised."""
    return st.sampled_from([word, word.upper(), word.capitalize()])


JUNK_CHARACTERS = string.ascii_letters + string.digits + string.punctuation + "\x00\x01\x7f\\'\""
junk = st.text(JUNK_CHARACTERS, min_size=1, max_size=12) | st.text(
    JUNK_CHARACTERS, min_size=190, max_size=260
)
"""A field no reader accepts (mostly), with quotes, backslashes and control characters that
an error repeats escaped, or long enough for the error to cut it."""


def cell_text(count: int) -> str:
    return "" if count == 0 else f"{abs(count)}{'w' if count > 0 else 'b'}"


@st.composite
def valid_fields(draw: st.DrawFn) -> list[str]:
    """The nine fields of a position string that reads (a valid position mostly: a board
    of the variant, its bar and off, a turn with a state that fits, a cube of its kind)."""
    variant = draw(st.sampled_from(VARIANTS))
    names = [name for name, found in VARIANT_NAMES.items() if found == variant.id]
    board = draw(arbitrary_boards(variant))
    cells = ",".join(draw(cased(cell_text(count))) for count in cells_of(variant, board))
    bar = f"w{board.white[BAR]}b{board.black[BAR]}"
    off = f"w{board.white[OFF]}b{board.black[OFF]}"
    dice = st.tuples(st.integers(1, 6), st.integers(1, 6)).map(lambda d: f"{d[0]}{d[1]}")
    turn, state = draw(
        st.tuples(st.sampled_from("wbWB"), dice | st.sampled_from(["-", "d", "r1", "r2", "r3"]))
        | st.tuples(st.just("-"), st.sampled_from(["-", "end", "END"]))
    )
    cubes = ["1c", "2w", "4b", "64c", "1C"] if variant.has_cube else ["-"]
    length = draw(st.integers(0, 11))
    scores = st.tuples(st.integers(0, max(0, length - 1)), st.integers(0, max(0, length - 1)))
    white, black = draw(scores)
    rules = draw(st.sampled_from(["-", "-", "c", "p", "C"]))
    return [
        draw(st.sampled_from(names).flatmap(cased)),
        cells,
        draw(cased(bar)),
        draw(cased(off)),
        turn,
        state,
        draw(st.sampled_from(cubes)),
        f"{length}:{white}-{black}",
        rules,
    ]


MISSES: list[list[str]] = [
    ["nardy", "back-gammon", "LN2"],
    [",".join([""] * 23), ",".join([""] * 25), "0w" + "," * 23, "16b" + "," * 23,
     "05w,010b" + "," * 22, "w" + "," * 23, "3" + "," * 23, "1x" + "," * 23],
    ["w1b", "b0w0", "w100b0", "w0b0b0", "w 0b0"],
    ["w1b", "b0w0", "w0b123", "wb"],
    ["x", "white", "ww", "0"],
    ["70", "5", "123", "r0", "r4", "dd", "en", "0:0"],
    ["0c", "1w", "1b", "3c", "6w", "99999b", "123456c", "2x", "c", "--"],
    ["7:4", "7:4-2-1", "123456:0-0", "7:7-0", "0:1-0", "7-4:2", ":0-0"],
    ["cc", "pc", "cp", "x", "c-", "pp"],
]  # fmt: skip
"""Near misses of each field: values one rule away from being read or being valid."""


@st.composite
def position_strings(draw: st.DrawFn) -> str:
    """A position string of any variant: valid fields, some of them (or none) replaced by a
    near miss or junk, 5 to 10 fields apart by any of the separators Python's
    ``str.split`` knows."""
    fields = draw(valid_fields())
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 1, 2]))):
        index = draw(st.integers(0, 8))
        fields[index] = draw(st.sampled_from(MISSES[index]) | junk)
    count = draw(st.sampled_from([5, 6, 7, 8, *[9] * 12, 10]))
    fields = [*fields, "extra"][:count]
    separators = st.sampled_from([" ", " ", " ", "  ", "\t", "\x1c", " \n "])
    text = "".join(field + draw(separators) for field in fields)
    return draw(st.sampled_from(["", " "])) + text.rstrip(draw(st.sampled_from([" ", ""])))


@settings(max_examples=600, deadline=None)
@given(text=position_strings())
def test_both_readers_read_any_position_string_alike(native: ModuleType, text: str) -> None:
    reference, answered = by_both(lambda engine: outcome(text, engine))
    assert answered == reference, text
    assert native.read_position(text) is not None, "the native reader reads every ASCII text"


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda variant: variant.id)
def test_the_start_of_every_variant_reads_alike(native: ModuleType, variant: type[Variant]) -> None:
    cells = ",".join(cell_text(count) for count in cells_of(variant, variant.start_board()))
    for state, tail in [("-", "- 0:0-0 -"), ("52", "1c 7:5-6 c"), ("d", "2w 5:3-1 p")]:
        for turn in "wb-":
            text = f"{variant.id} {cells} w0b0 w0b0 {turn} {state} {tail}"
            reference, answered = by_both(lambda engine, text=text: outcome(text, engine))
            assert answered == reference, text


@pytest.mark.parametrize(
    "text",
    [
        "backgammon 2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0 w 31 1c 0:0-0 -\u00a0x",
        "long-nardy ,,,,,,,,,,,15b,,,,,,,,,,,,15w w0b0 w0b0 w \u0663\u0661 - 0:0-0 -",
        "khachapuri \ud800",
        "BACKGAMMON\u2028x",
    ],
)
def test_text_that_is_not_ascii_is_left_to_python(native: ModuleType, text: str) -> None:
    assert native.read_position(text) is None
    reference, answered = by_both(lambda engine: outcome(text, engine))
    assert answered == reference
