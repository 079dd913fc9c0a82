"""Draw any position of any variant as an SVG board (python-chess's ``chess.svg.board`` as
the model: one pure function, keyword-only options, a root ``<svg>`` with a viewBox).

The board is drawn as played: every side moves counter-clockwise (RULES.md §1.2), the
viewer's home bottom right, points numbered in the viewer's own numbering. In backgammon
the other side's view mirrors the board top to bottom; in the nardy variants it turns it
half round. Every element that draws checkers says what it stands for (``data-side``,
``data-point`` in White's numbering or ``bar``/``off``, ``data-count`` when several), so
tests and screen readers can read the board back.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Final

from referee.bridge import cells_of, read_position, write_position
from referee.rules.position import Position
from referee.rules.words import resignation_words
from vocabulary import BAR, CHECKERS, OFF, Phase, Side

DEFAULT_COLORS: Final[Mapping[str, str]] = {
    "frame": "#5b3a1e",
    "board": "#e9dcbf",
    "point_dark": "#8c4a2f",
    "point_light": "#c9a36b",
    "white": "#fbf8f0",
    "white_edge": "#6b6256",
    "black": "#2a2a2e",
    "black_edge": "#cfc8bb",
    "text": "#1d1d1d",
    "frame_text": "#f3e9d6",
    "cube": "#fffdf7",
    "last_play": "#f59e0b",
}
"""Colour names ``board_svg(colors=...)`` accepts, with their defaults."""

DRAWING: Final = "2"
"""The drawing's version: part of the image's ETag, raised whenever the drawing changes."""
STACK: Final = 5
"""Checkers drawn on one point or the bar; a taller stack shows its count on the fifth."""
HEAD: Final = 24
"""Each side's head in its own numbering (long nardy and khachapuri)."""

# Geometry, in viewBox units.
_POINT_W = 40
_RADIUS = 18
_FRAME = 12
_BAR_W = 48
_TRAY_W = 56
_HALF_H = 200
_GAP = 60
_LABEL_H = 26
_NUMBER_H = 18
_SLAB_H = 11
_DIE = 34
_CUBE = 36
_LEFT = _FRAME
_BAR_X = _LEFT + 6 * _POINT_W
_RIGHT = _BAR_X + _BAR_W
_FIELD_END = _RIGHT + 6 * _POINT_W
_TRAY_X = _FIELD_END + _FRAME + 8
WIDTH: Final = _TRAY_X + _TRAY_W + 8
_TOP = _LABEL_H + _NUMBER_H + _FRAME
_MIDDLE = _TOP + _HALF_H
_BOTTOM = _MIDDLE + _GAP + _HALF_H
HEIGHT: Final = _BOTTOM + _FRAME + _NUMBER_H + _LABEL_H
_CENTRE_Y = _MIDDLE + _GAP // 2

_PIPS = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}
_SIDE_NAMES = {Side.WHITE: "White", Side.BLACK: "Black"}


@dataclass(frozen=True, slots=True)
class Roll:
    """The dice a side has just played (a replay's step): drawn in its half beside the
    position after the play, where the position itself holds no dice any more."""

    side: Side
    dice: tuple[int, int]

    @classmethod
    def of(cls, before: str) -> Roll | None:
        """The roll waiting in ``before`` (the position a play was made from); None when it
        holds no dice (a cube action, the start of a game)."""
        old = read_position(before)
        if old.dice is None or old.turn is None:
            return None
        return cls(old.turn, old.dice)

    @property
    def words(self) -> str:
        """``rolled 6-1``."""
        return f"rolled {self.dice[0]}-{self.dice[1]}"


@dataclass(frozen=True, slots=True)
class _Painter:
    """One drawing: the position, the viewer and the colours; ``rolled``: the dice just
    played, when the position shows the moment after a play."""

    position: Position
    viewer: Side
    colors: Mapping[str, str]
    players: Mapping[Side, str]
    rolled: Roll | None = None

    @property
    def shown_roll(self) -> Roll | None:
        """The dice drawn: the position's own (to be played), else the roll just played."""
        position = self.position
        if position.dice is not None and position.turn is not None:
            return Roll(position.turn, position.dice)
        return self.rolled

    def own(self, side: Side, point: int) -> int:
        """``point`` of White's numbering in ``side``'s own numbering, and back (the
        mapping is its own inverse)."""
        return point if side is Side.WHITE else self.position.variant.opposite(point)

    def column(self, point: int) -> tuple[int, bool]:
        """(x of the left edge, on the top row) of White's ``point`` on the screen."""
        seen = self.own(self.viewer, point)
        index = 12 - seen if seen <= 12 else seen - 13
        top = seen > 12
        x = _LEFT + index * _POINT_W if index < 6 else _RIGHT + (index - 6) * _POINT_W
        return x, top

    def fill(self, name: str) -> str:
        return self.colors[name]

    # -- parts ----------------------------------------------------------------------------

    def frame(self, root: ET.Element) -> None:
        """The frame (it carries the point numbers), the two halves and the trays."""
        top, height = _LABEL_H, HEIGHT - 2 * _LABEL_H
        _sub(
            root,
            "rect",
            x=0,
            y=top,
            width=_FIELD_END + _FRAME,
            height=height,
            rx=6,
            fill=self.fill("frame"),
        )
        for x in (_LEFT, _RIGHT):
            _sub(
                root,
                "rect",
                x=x,
                y=_TOP,
                width=6 * _POINT_W,
                height=_BOTTOM - _TOP,
                fill=self.fill("board"),
            )
        _sub(
            root,
            "rect",
            x=_TRAY_X - 4,
            y=top,
            width=_TRAY_W + 8,
            height=height,
            rx=6,
            fill=self.fill("frame"),
        )
        for y in (_TOP, _BOTTOM - self.tray_height()):
            _sub(
                root,
                "rect",
                x=_TRAY_X,
                y=y,
                width=_TRAY_W,
                height=self.tray_height(),
                fill=self.fill("board"),
                opacity=0.6,
            )

    @staticmethod
    def tray_height() -> int:
        return CHECKERS * _SLAB_H + 4

    def points(
        self, root: ET.Element, highlight: Mapping[int, str], last_play: Collection[int]
    ) -> None:
        group = _sub(root, "g", {"class": "points"})
        for point in range(1, 25):
            x, top = self.column(point)
            base, tip = (_TOP, _TOP + _HALF_H - 16) if top else (_BOTTOM, _BOTTOM - _HALF_H + 16)
            corners = f"{x},{base} {x + _POINT_W},{base} {x + _POINT_W / 2},{tip}"
            shade = "point_dark" if (self.own(self.viewer, point)) % 2 else "point_light"
            _sub(group, "polygon", points=corners, fill=self.fill(shade))
            marks = [highlight[point]] if point in highlight else []
            marks += [self.fill("last_play")] if point in last_play else []
            for colour in marks:
                _sub(
                    group,
                    "polygon",
                    {"class": "mark", "data-point": str(point)},
                    points=corners,
                    fill=colour,
                    opacity=0.45,
                )
            number = _sub(
                group,
                "text",
                {"class": "number", "fill": self.fill("frame_text")},
                x=x + _POINT_W / 2,
                y=_TOP - _FRAME + 1 if top else _BOTTOM + _FRAME + _NUMBER_H - 7,
            )
            number.text = str(self.own(self.viewer, point))

    def heads(self, root: ET.Element) -> None:
        """Each side's head (the nardy variants): its number on a chip of the side's colour."""
        for side in Side:
            point = self.own(side, HEAD)
            x, top = self.column(point)
            name = side.name.lower()
            y = _TOP - _FRAME - 12 if top else _BOTTOM + _FRAME - 2
            chip = _sub(root, "g", {"class": "head", "data-head": str(side)})
            _sub(chip, "title").text = f"{self.players[side]}'s head (point {point})"
            _sub(
                chip,
                "rect",
                x=x + 8,
                y=y,
                width=_POINT_W - 16,
                height=16,
                rx=8,
                fill=self.fill(name),
                stroke=self.fill(f"{name}_edge"),
            )
            number = _sub(
                chip,
                "text",
                {"class": "number"},
                x=x + _POINT_W / 2,
                y=y + 12.5,
                fill=self.fill("black" if side is Side.WHITE else "white"),
            )
            number.text = str(self.own(self.viewer, point))

    def checker(
        self, parent: ET.Element, side: Side, where: str, x: float, y: float, count: int
    ) -> None:
        name = side.name.lower()
        attributes = {"class": "checker", "data-side": str(side), "data-point": where}
        if count > 1:
            attributes["data-count"] = str(count)
        _sub(
            parent,
            "circle",
            attributes,
            cx=x,
            cy=y,
            r=_RADIUS - 0.5,
            fill=self.fill(name),
            stroke=self.fill(f"{name}_edge"),
        )
        # Inner ring: the familiar look of a checker, and a second cue beside the colour.
        _sub(
            parent,
            "circle",
            cx=x,
            cy=y,
            r=_RADIUS - 6,
            fill="none",
            stroke=self.fill(f"{name}_edge"),
            opacity=0.5,
        )

    def stack(
        self,
        parent: ET.Element,
        side: Side,
        where: str,
        x: float,
        y0: float,
        step: float,
        count: int,
    ) -> None:
        """``count`` checkers from ``y0`` by ``step``; the fifth of a taller stack stands
        for the rest and shows the stack's total."""
        for index in range(min(count, STACK)):
            rest = count - STACK + 1 if index == STACK - 1 else 1
            y = y0 + index * step
            self.checker(parent, side, where, x, y, rest)
            if rest > 1:
                label = _sub(
                    parent,
                    "text",
                    {"class": "count", "aria-hidden": "true"},
                    x=x,
                    y=y + 5,
                    fill=self.fill("black" if side is Side.WHITE else "white"),
                )
                label.text = str(count)

    def checkers(self, root: ET.Element) -> None:
        group = _sub(root, "g", {"class": "checkers"})
        cells = cells_of(self.position.variant, self.position.board)
        for point, cell in enumerate(cells, start=1):
            if cell == 0:
                continue
            side = Side.WHITE if cell > 0 else Side.BLACK
            x, top = self.column(point)
            y0, step = (_TOP + _RADIUS, 2 * _RADIUS) if top else (_BOTTOM - _RADIUS, -2 * _RADIUS)
            self.stack(group, side, str(point), x + _POINT_W / 2, y0, step, abs(cell))
        for side in Side:
            on_bar = self.position.board.layout(side)[BAR]
            mine = side is self.viewer
            y0 = _MIDDLE - _RADIUS if mine else _MIDDLE + _GAP + _RADIUS
            step = -2 * _RADIUS if mine else 2 * _RADIUS
            self.stack(group, side, "bar", _BAR_X + _BAR_W / 2, y0, step, on_bar)
            self.tray(group, side)

    def tray(self, parent: ET.Element, side: Side) -> None:
        """The borne-off checkers of ``side`` as slabs; the viewer's tray is at the bottom."""
        name = side.name.lower()
        mine = side is self.viewer
        for index in range(self.position.board.layout(side)[OFF]):
            y = _BOTTOM - 2 - (index + 1) * _SLAB_H if mine else _TOP + 2 + index * _SLAB_H
            _sub(
                parent,
                "rect",
                {"class": "checker", "data-side": str(side), "data-point": "off"},
                x=_TRAY_X + 4,
                y=y + 0.5,
                width=_TRAY_W - 8,
                height=_SLAB_H - 1,
                rx=2,
                fill=self.fill(name),
                stroke=self.fill(f"{name}_edge"),
            )

    def cube(self, root: ET.Element) -> None:
        cube = self.position.cube
        if cube is None:
            return
        if self.position.phase is Phase.DOUBLED and self.position.turn is not None:
            offerer = self.position.turn.other
            x = self.half_centre(offerer) - _CUBE / 2
            y = _CENTRE_Y - _CUBE / 2
            where = f"offered by {self.players[offerer]}"
        else:
            x = _TRAY_X + (_TRAY_W - _CUBE) / 2
            shift = {None: 0, self.viewer: 40, self.viewer.other: -40}[cube.owner]
            y = _CENTRE_Y - _CUBE / 2 + shift
            where = "centred" if cube.owner is None else f"owned by {self.players[cube.owner]}"
        group = _sub(
            root,
            "g",
            {"class": "cube", "data-value": str(cube.value), "data-owner": str(cube.owner or "c")},
        )
        _sub(group, "title").text = f"cube {cube.value}, {where}"
        _sub(
            group,
            "rect",
            x=x,
            y=y,
            width=_CUBE,
            height=_CUBE,
            rx=5,
            fill=self.fill("cube"),
            stroke=self.fill("text"),
        )
        face = cube.value if cube.value > 1 else 64
        _sub(
            group, "text", {"class": "cube-value"}, x=x + _CUBE / 2, y=y + _CUBE / 2 + 6
        ).text = str(face)

    def half_centre(self, side: Side) -> float:
        """The middle of the half where ``side`` shows its dice (the viewer's is the right)."""
        return (_RIGHT + _FIELD_END) / 2 if side is self.viewer else (_LEFT + _BAR_X) / 2

    def dice(self, root: ET.Element) -> None:
        roll = self.shown_roll
        if roll is None:
            return
        side = roll.side
        name = side.name.lower()
        pip = self.fill("black" if side is Side.WHITE else "white")
        group = _sub(root, "g", {"class": "dice", "data-dice": "".join(map(str, roll.dice))})
        _sub(group, "title").text = f"{self.players[side]} {roll.words}"
        centre = self.half_centre(side)
        for offset, value in zip((-22, 22), roll.dice, strict=True):
            x, y = centre + offset - _DIE / 2, _CENTRE_Y - _DIE / 2
            _sub(
                group,
                "rect",
                x=x,
                y=y,
                width=_DIE,
                height=_DIE,
                rx=6,
                fill=self.fill(name),
                stroke=self.fill(f"{name}_edge"),
            )
            for dx, dy in _PIPS[value]:
                _sub(
                    group,
                    "circle",
                    cx=x + _DIE / 2 + dx * 9,
                    cy=y + _DIE / 2 + dy * 9,
                    r=3.2,
                    fill=pip,
                )

    def notice(self, root: ET.Element) -> None:
        """What is pending in words, in the middle: a resignation offer, the end."""
        position = self.position
        text = None
        if position.phase is Phase.RESIGN and position.turn is not None:
            words = resignation_words(position.variant, position.resign)
            text = f"{self.players[position.turn.other]} offers to resign {words}"
        elif position.phase is Phase.END:
            finished = position.finished_side
            text = "Game over" if finished is None else f"{self.players[finished]} is off"
        if text is not None:
            # in the viewer's half, unless the dice just played stand there
            roll = self.shown_roll
            half = self.viewer.other if roll and roll.side is self.viewer else self.viewer
            _sub(
                root, "text", {"class": "notice"}, x=self.half_centre(half), y=_CENTRE_Y + 5
            ).text = text

    def labels(self, root: ET.Element) -> None:
        """Each side's name, pips and match score; the side on turn is marked."""
        position = self.position
        for side in Side:
            mine = side is self.viewer
            y = HEIGHT - 8 if mine else _LABEL_H - 8
            name = side.name.lower()
            group = _sub(root, "g", {"class": "label", "data-side": str(side)})
            _sub(
                group,
                "circle",
                cx=10,
                cy=y - 5,
                r=7,
                fill=self.fill(name),
                stroke=self.fill(f"{name}_edge"),
            )
            words = f"{self.players[side]} · {position.board.pips(side)} pips"
            doing = self.doing(side)
            on_turn = bool(doing)
            if doing:
                words += f" · {doing}"
            text = _sub(group, "text", {"class": "turn" if on_turn else "name"}, x=24, y=y)
            text.text = words
            if position.match_length:
                score = position.score[0 if side is Side.WHITE else 1]
                crawford = " · Crawford game" if position.crawford and mine else ""
                words = f"score {score} of {position.match_length}{crawford}"
                _sub(group, "text", {"class": "score"}, x=WIDTH - 8, y=y).text = words

    def doing(self, side: Side) -> str:
        """What ``side`` is shown doing: the roll it just played (a replay's step: the
        next side's "to roll" would hide that the dice are known), else what its turn
        asks, else nothing."""
        if self.rolled is not None and self.position.dice is None:
            return self.rolled.words if side is self.rolled.side else ""
        position = self.position
        if position.turn is side and position.phase is not Phase.END:
            return _TURN_WORDS[position.phase]
        return ""


_TURN_WORDS = {
    Phase.ROLL: "to roll",
    Phase.MOVE: "to move",
    Phase.DOUBLED: "to take or drop",
    Phase.RESIGN: "to accept or reject",
    Phase.END: "",
}

_STYLE = (
    "text{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:17px}"
    ".number{font-size:13px;text-anchor:middle}"
    ".count{font-size:15px;font-weight:700;text-anchor:middle}"
    ".cube-value{font-size:18px;font-weight:700;text-anchor:middle;fill:%(text)s}"
    ".notice{font-size:16px;font-weight:700;text-anchor:middle;fill:%(text)s}"
    ".name,.turn,.score{fill:%(text)s}.turn{font-weight:700}.score{text-anchor:end}"
)


def board_svg(
    position: Position | str,
    *,
    orientation: Side = Side.WHITE,
    size: int | None = None,
    last_play: Collection[int] = (),
    highlight: Mapping[int, str] | None = None,
    colors: Mapping[str, str] | None = None,
    players: tuple[str, str] = ("White", "Black"),
    rolled: Roll | None = None,
) -> str:
    """The SVG image of ``position`` (an object or a position string, which is validated).

    ``orientation``: the side whose view is drawn (its home bottom right, its numbering);
    ``size``: the width in pixels (None: scale to the container); ``last_play``: points
    (White's numbering) the last play moved from or to; ``highlight``: point → colour;
    ``colors``: overrides of DEFAULT_COLORS; ``players``: the names of White and Black;
    ``rolled``: the dice just played, drawn (and named) when the position has none.
    """
    if isinstance(position, str):
        position = read_position(position)
    unknown = set(colors or {}) - set(DEFAULT_COLORS)
    if unknown:
        raise ValueError(f"unknown colour names: {', '.join(sorted(unknown))}")
    painter = _Painter(
        position,
        orientation,
        {**DEFAULT_COLORS, **(colors or {})},
        {Side.WHITE: players[0], Side.BLACK: players[1]},
        rolled,
    )
    attributes = {
        "xmlns": "http://www.w3.org/2000/svg",
        "viewBox": f"0 0 {WIDTH} {HEIGHT}",
        "role": "img",
        "class": "board",
        "data-position": write_position(position),
        "data-orientation": str(orientation),
    }
    if size is not None:
        attributes.update(width=str(size), height=str(round(size * HEIGHT / WIDTH)))
    root = ET.Element("svg", attributes)
    _sub(root, "title").text = title(position, painter.players, rolled)
    _sub(root, "desc").text = describe(position, painter.players)
    _sub(root, "style").text = _STYLE % painter.colors
    painter.frame(root)
    painter.points(root, highlight or {}, last_play)
    if not position.variant.hitting:
        painter.heads(root)
    painter.checkers(root)
    painter.cube(root)
    painter.dice(root)
    painter.notice(root)
    painter.labels(root)
    return ET.tostring(root, encoding="unicode")


def changed_points(before: str, after: str) -> frozenset[int]:
    """The points (White's numbering) whose checkers differ between two position strings:
    what ``last_play`` marks after a play."""
    old = read_position(before)
    new = read_position(after)
    cells_before = cells_of(old.variant, old.board)
    cells_after = cells_of(new.variant, new.board)
    return frozenset(
        point
        for point, (a, b) in enumerate(zip(cells_before, cells_after, strict=True), start=1)
        if a != b
    )


def title(position: Position, players: Mapping[Side, str], rolled: Roll | None = None) -> str:
    """One line: the variant and what happens next (or, after a play, the roll played)."""
    variant = position.variant.title
    if rolled is not None and position.dice is None:
        return f"{variant}: {players[rolled.side]} {rolled.words}"
    if position.phase is Phase.END or position.turn is None:
        state = "game over" if position.phase is Phase.END else "before the opening roll"
        return f"{variant}: {state}"
    words = f"{players[position.turn]} {_TURN_WORDS[position.phase]}"
    if position.dice is not None:
        words += f" {position.dice[0]}-{position.dice[1]}"
    return f"{variant}: {words}"


def describe(position: Position, players: Mapping[Side, str]) -> str:
    """The whole position in words, for screen readers: each side's checkers by point (in
    White's numbering), bar, borne off and pips; the cube and the match."""
    cells = cells_of(position.variant, position.board)
    sentences = []
    for side in Side:
        sign = 1 if side is Side.WHITE else -1
        stacks = [
            f"{cell * sign} on {point}"
            for point, cell in enumerate(cells, start=1)
            if cell * sign > 0
        ]
        layout = position.board.layout(side)
        parts = [", ".join(stacks) or "no checkers on the points"]
        if layout[BAR]:
            parts.append(f"{layout[BAR]} on the bar")
        parts.append(f"{layout[OFF]} borne off")
        parts.append(f"{position.board.pips(side)} pips")
        name = players[side]
        label = name if name == _SIDE_NAMES[side] else f"{name} ({_SIDE_NAMES[side]})"
        sentences.append(f"{label}: " + "; ".join(parts) + ".")
    sentences.append("Points are numbered from White's side (White moves from 24 to 1).")
    cube = position.cube
    if cube is None:
        sentences.append("No cube.")
    elif cube.owner is None:
        sentences.append(f"The cube is centred at {cube.value}.")
    else:
        sentences.append(f"{players[cube.owner]} owns the cube at {cube.value}.")
    if position.match_length:
        white, black = position.score
        crawford = " (Crawford game)" if position.crawford else ""
        sentences.append(
            f"{position.match_length}-point match: {players[Side.WHITE]} {white},"
            f" {players[Side.BLACK]} {black}{crawford}."
        )
    return " ".join(sentences)


def _sub(
    parent: ET.Element,
    tag: str,
    attributes: Mapping[str, str] | None = None,
    **numbers: float | str,
) -> ET.Element:
    """A child element; keyword values (numbers rounded to 0.1) become attributes."""
    values = {key: _number(value) for key, value in numbers.items()}
    return ET.SubElement(parent, tag, {**(attributes or {}), **values})


def _number(value: float | str) -> str:
    if isinstance(value, str):
        return value
    return f"{value:.1f}".removesuffix(".0")
