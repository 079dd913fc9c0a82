"""The SVG board: what it draws, read back from its data attributes (as a screen reader or a
test would), for hand-made positions of every variant, and for every position of the corpus
replays and the examples."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from notation.positions import parse_position
from referee.adjudication import adjudicate
from referee.board_svg import Roll, board_svg, changed_points
from referee.errors import RefereeError
from tests.corpus import MAT, require
from vocabulary import Side

SVG = "{http://www.w3.org/2000/svg}"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

BG_START = "backgammon 2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0 - - 1c 0:0-0 -"
LN_START = "long-nardy ,,,,,,,,,,,15b,,,,,,,,,,,,15w w0b0 w0b0 - - - 0:0-0 -"
# Backgammon in play: White 2 on the bar, 3 off; Black owns a 4-cube; White rolled 5-2.
BG_BAR_OFF = "backgammon 2b,,,,,5w,,3w,,,,5b,2w,,,,3b,,5b,,,,, w2b0 w3b0 w 52 4b 7:4-2 -"


def drawn(svg: str) -> Counter[tuple[str, str]]:
    """Checkers drawn per (side, point), each element counting ``data-count`` (default 1)."""
    counts: Counter[tuple[str, str]] = Counter()
    for element in ET.fromstring(svg).iter():
        if "data-side" in element.attrib and "checker" in element.get("class", ""):
            key = (element.attrib["data-side"], element.attrib["data-point"])
            counts[key] += int(element.get("data-count", "1"))
    return counts


def expected(position: str) -> Counter[tuple[str, str]]:
    """Checkers per (side, point) as the position string says (read by the notation layer,
    not by the drawing code)."""
    data = parse_position(position)
    counts: Counter[tuple[str, str]] = Counter()
    for point, cell in enumerate(data.cells, start=1):
        if cell:
            counts["w" if cell > 0 else "b", str(point)] = abs(cell)
    for side, on_bar, off in zip("wb", data.bar, data.off, strict=True):
        if on_bar:
            counts[side, "bar"] = on_bar
        if off:
            counts[side, "off"] = off
    return counts


def checker_elements(svg: str, side: str, point: str) -> list[ET.Element]:
    return [
        element
        for element in ET.fromstring(svg).iter(f"{SVG}circle")
        if element.get("data-side") == side and element.get("data-point") == point
    ]


def test_the_start_of_backgammon_is_drawn_checker_by_checker() -> None:
    counts = drawn(board_svg(BG_START))
    assert counts == Counter(
        {
            ("w", "24"): 2, ("w", "13"): 5, ("w", "8"): 3, ("w", "6"): 5,
            ("b", "1"): 2, ("b", "12"): 5, ("b", "17"): 3, ("b", "19"): 5,
        }
    )  # fmt: skip


def test_a_stack_beyond_five_is_five_checkers_the_last_standing_for_the_rest() -> None:
    svg = board_svg(LN_START)
    head = checker_elements(svg, "w", "24")
    assert len(head) == 5
    assert [element.get("data-count") for element in head] == [None, None, None, None, "11"]
    labels = [text.text for text in ET.fromstring(svg).iter(f"{SVG}text")]
    assert labels.count("15") >= 2  # both heads show their totals (and point 15's number)


def test_bar_borne_off_cube_and_dice() -> None:
    svg = board_svg(BG_BAR_OFF)
    counts = drawn(svg)
    assert counts["w", "bar"] == 2
    assert counts["w", "off"] == 3
    assert counts["b", "off"] == 0
    root = ET.fromstring(svg)
    cube = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "cube")
    assert (cube.get("data-value"), cube.get("data-owner")) == ("4", "b")
    dice = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "dice")
    assert dice.get("data-dice") == "52"
    assert sum(1 for _ in dice.iter(f"{SVG}circle")) == 5 + 2  # the pips of a 5 and a 2


def test_a_centred_cube_shows_64_and_the_nardy_variants_have_none() -> None:
    root = ET.fromstring(board_svg(BG_START))
    cube = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "cube")
    assert cube.get("data-owner") == "c"
    assert any(text.text == "64" for text in cube.iter(f"{SVG}text"))
    nardy = ET.fromstring(board_svg(LN_START))
    assert not [g for g in nardy.iter(f"{SVG}g") if g.get("class") == "cube"]


def test_the_root_says_the_canonical_position_and_the_position_in_words() -> None:
    root = ET.fromstring(board_svg(BG_BAR_OFF.replace("backgammon", "bg"), size=300))
    assert root.get("data-position") == BG_BAR_OFF
    assert root.get("viewBox", "").startswith("0 0 ")
    assert root.get("width") == "300"
    title = root.find(f"{SVG}title")
    desc = root.find(f"{SVG}desc")
    assert title is not None and title.text == "Short nardy (backgammon): White to move 5-2"
    assert desc is not None and desc.text is not None
    assert "2 on the bar; 3 borne off" in desc.text
    assert "Black owns the cube at 4" in desc.text
    assert "7-point match: White 4, Black 2" in desc.text


def point_place(svg: str, side: str, point: str) -> tuple[float, float]:
    """(x, y) of the first checker drawn on ``point``."""
    first = checker_elements(svg, side, point)[0]
    return float(first.attrib["cx"]), float(first.attrib["cy"])


def test_orientation_backgammon_mirrors_top_to_bottom() -> None:
    """White's 24 is top right from White's side; from Black's it is Black's own 1: bottom
    right. White's 6 (bottom right from White) is Black's 19: top right."""
    white_view, black_view = board_svg(BG_START), board_svg(BG_START, orientation=Side.BLACK)
    x_w, y_w = point_place(white_view, "w", "24")
    x_b, y_b = point_place(black_view, "w", "24")
    assert x_w == x_b and y_w < 300 < y_b
    assert point_place(black_view, "w", "6")[1] < 300 < point_place(white_view, "w", "6")[1]


def test_orientation_nardy_turns_the_board_half_round() -> None:
    """Long nardy, Black's view: White's head (global 24, Black's own 12) bottom left;
    Black's head (global 12, its own 24) top right. Both move counter-clockwise."""
    white_view, black_view = board_svg(LN_START), board_svg(LN_START, orientation=Side.BLACK)
    x, y = point_place(white_view, "w", "24")
    assert x > 300 and y < 300  # top right
    x, y = point_place(white_view, "b", "12")
    assert x < 300 and y > 300  # bottom left
    x, y = point_place(black_view, "w", "24")
    assert x < 300 and y > 300
    x, y = point_place(black_view, "b", "12")
    assert x > 300 and y < 300


def test_point_numbers_are_the_viewers_own() -> None:
    """Black's view of long nardy: the number over White's 24 (top right in White's view) is
    its own 12, so the bottom-left corner reads 12 and the top-right corner reads 24."""
    for orientation in Side:
        root = ET.fromstring(board_svg(LN_START, orientation=orientation))
        numbers = {
            text.text: float(text.attrib["x"])
            for text in root.iter(f"{SVG}text")
            if "number" in text.get("class", "")
        }
        assert sorted(numbers, key=int) == [str(n) for n in range(1, 25)]
        assert numbers["1"] > numbers["6"] > numbers["7"] > numbers["12"]
        assert numbers["13"] < numbers["18"] < numbers["19"] < numbers["24"]


def test_heads_are_marked_in_the_nardy_variants_only() -> None:
    heads = [
        g.get("data-head")
        for g in ET.fromstring(board_svg(LN_START)).iter(f"{SVG}g")
        if g.get("class") == "head"
    ]
    assert sorted(heads) == ["b", "w"]
    backgammon = ET.fromstring(board_svg(BG_START))
    assert not [g for g in backgammon.iter(f"{SVG}g") if g.get("class") == "head"]


def test_highlight_last_play_and_colours() -> None:
    svg = board_svg(BG_START, highlight={5: "#ff0000"}, last_play={6, 24}, colors={"white": "#eee"})
    marks = [
        element.get("data-point")
        for element in ET.fromstring(svg).iter(f"{SVG}polygon")
        if element.get("class") == "mark"
    ]
    assert sorted(marks, key=int) == ["5", "6", "24"]
    assert 'fill="#eee"' in svg
    with pytest.raises(ValueError, match="unknown colour names: sky"):
        board_svg(BG_START, colors={"sky": "#00f"})


def test_changed_points_are_those_a_play_moved_from_or_to() -> None:
    after = "backgammon 2b,,,,,5w,,3w,,,1w,5b,4w,,,,3b,1w,5b,,,,,1w w0b0 w0b0 b - 1c 0:0-0 -"
    assert changed_points(BG_START, after) == {11, 13, 18, 24}


def test_a_bad_position_string_is_refused() -> None:
    with pytest.raises(RefereeError):
        board_svg("backgammon 2b w0b0")


def replay_positions(text: str) -> list[str]:
    adjudication = adjudicate(text, None, "condone", None, True)
    return [step.position_after for game in adjudication.replays for step in game]


RECORDS = (sorted(MAT.glob("*.mat")) if MAT.exists() else []) + sorted(EXAMPLES.glob("*.mat"))
"""The corpus records and the examples (one test each, so that a parallel run spreads them)."""


def test_the_corpus_is_there_to_draw() -> None:
    """Without the corpus the test below draws the examples alone: that is a skip (a
    failure under REQUIRE_CORPUS=1), not a pass."""
    assert any(require(MAT).glob("*.mat"))


@pytest.mark.parametrize("path", RECORDS, ids=lambda path: path.name)
def test_every_position_of_a_replay_draws_its_checkers(path: Path) -> None:
    """Per side and per point (bar and off too), the drawn checkers are the string's."""
    positions = replay_positions(path.read_text(encoding="utf-8-sig"))
    assert positions
    for position in positions:
        assert drawn(board_svg(position)) == expected(position), position


def test_player_names_are_text_not_markup() -> None:
    svg = board_svg(BG_START, players=("<script>alert(1)</script>", 'A "B" & C'))
    root = ET.fromstring(svg)
    assert not list(root.iter(f"{SVG}script"))
    assert "<script>" not in svg
    assert any(text.text and "<script>alert(1)</script>" in text.text for text in root.iter())


@pytest.mark.parametrize(
    ("position", "notice"),
    [
        # Black (not on turn) offers to resign a mars; White must accept or reject.
        ("long-nardy ,,,,,,,,,,,15b,,,,,,,,,,,,15w w0b0 w0b0 w r2 - 0:0-0 -",
         "Black offers to resign a mars"),
        ("backgammon ,,,,,,,,,,,,,,,,3b,,4b,1b,,,, w0b0 w15b7 - end 1c 5:4-3 c", "White is off"),
    ],
)  # fmt: skip
def test_a_pending_resignation_and_the_end_are_said_in_words(position: str, notice: str) -> None:
    texts = [text.text for text in ET.fromstring(board_svg(position)).iter(f"{SVG}text")]
    assert notice in texts


# White's 6-5 from the opening, 24/13, played: Black to roll; the dice White played with.
BG_AFTER_65 = "backgammon 2b,,,,,5w,,3w,,,,5b,6w,,,,3b,,5b,,,,,1w w0b0 w0b0 b - 1c 0:0-0 -"


def texts_of(svg: str) -> list[str]:
    return [text.text or "" for text in ET.fromstring(svg).iter(f"{SVG}text")]


def dice_of(svg: str) -> list[ET.Element]:
    return [g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("class") == "dice"]


def test_the_roll_just_played_is_drawn_in_the_rollers_half_and_named() -> None:
    svg = board_svg(BG_AFTER_65, rolled=Roll(Side.WHITE, (6, 5)), players=("Ann", "Bob"))
    (dice,) = dice_of(svg)
    assert dice.get("data-dice") == "65"
    assert dice.findtext(f"{SVG}title") == "Ann rolled 6-5"
    # White (the viewer) shows his dice in the right half: x beyond the bar.
    faces = [float(rect.get("x", "0")) for rect in dice.iter(f"{SVG}rect")]
    assert len(faces) == 2 and min(faces) > 12 + 6 * 40 + 48
    texts = texts_of(svg)
    assert "Ann · 156 pips · rolled 6-5" in texts  # 167 - 11 pips
    assert "Bob · 167 pips" in texts  # not "to roll": the next dice are not this step's
    assert ET.fromstring(svg).findtext(f"{SVG}title") == "Short nardy (backgammon): Ann rolled 6-5"
    # Without the roll the same position says who is to roll, and draws no dice.
    plain = board_svg(BG_AFTER_65, players=("Ann", "Bob"))
    assert not dice_of(plain) and "Bob · 167 pips · to roll" in texts_of(plain)


def test_dice_still_to_play_win_over_a_roll_just_played() -> None:
    svg = board_svg(BG_BAR_OFF, rolled=Roll(Side.BLACK, (3, 3)))
    assert [dice.get("data-dice") for dice in dice_of(svg)] == ["52"]
    (white,) = [text for text in texts_of(svg) if text.startswith("White ·")]
    assert white.endswith(" · to move")


def test_the_end_notice_leaves_the_half_where_the_last_dice_stand() -> None:
    end = "backgammon ,,,,,,,,,,,,,,,,3b,,4b,1b,,,, w0b0 w15b7 - end 1c 5:4-3 c"
    svg = board_svg(end, rolled=Roll(Side.WHITE, (2, 1)))
    root = ET.fromstring(svg)
    (notice,) = [t for t in root.iter(f"{SVG}text") if t.get("class") == "notice"]
    assert notice.text == "White is off"
    assert float(notice.get("x", "0")) < 12 + 6 * 40  # the left half: White's dice are right


def test_roll_of_reads_the_dice_waiting_in_a_position() -> None:
    assert Roll.of(BG_BAR_OFF) == Roll(Side.WHITE, (5, 2))
    assert Roll.of(BG_START) is None
