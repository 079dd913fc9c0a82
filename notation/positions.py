"""The position string of NOTATION.md §1: parse, format canonically, validate.

``<variant> <points> <bar> <off> <turn> <state> <cube> <match> <rules>``; the first six
fields are required. Validation is separate from parsing, as python-chess's ``status()``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, cast

from notation.errors import NotationError, echoed
from vocabulary import CHECKERS, CubeOwner, Phase, PositionProblem, VariantId

VARIANT_NAMES: Final[dict[str, VariantId]] = {
    "backgammon": VariantId.BACKGAMMON,
    "bg": VariantId.BACKGAMMON,
    "short-nardy": VariantId.BACKGAMMON,
    "long-nardy": VariantId.LONG_NARDY,
    "ln": VariantId.LONG_NARDY,
    "long": VariantId.LONG_NARDY,
    "khachapuri": VariantId.KHACHAPURI,
    "kh": VariantId.KHACHAPURI,
    "khachapuri-nardy": VariantId.KHACHAPURI,
}
"""Variant field spellings (NOTATION.md §1) to the canonical id."""

FLAGS: Final = "cp"
"""Rules-field letters: ``c`` = Crawford game, ``p`` = post-Crawford (NOTATION.md §4)."""

FIELD_NAMES: Final = ("variant", "points", "bar", "off", "turn", "state", "cube", "match", "rules")


@dataclass(frozen=True, slots=True)
class CubeField:
    """The cube field: its value and who owns it."""

    value: int
    owner: CubeOwner


@dataclass(frozen=True, slots=True)
class PositionData:
    """A parsed position string as plain data (no rules are applied here).

    ``cells`` holds points 1..24 in White's numbering: +n = n White checkers, -n = n Black.
    ``cube`` is None for ``-`` (no cube in this game).
    """

    variant: VariantId
    cells: tuple[int, ...]
    bar: tuple[int, int]
    off: tuple[int, int]
    turn: str | None
    phase: Phase
    dice: tuple[int, int] | None = None
    resign: int = 0
    cube: CubeField | None = None
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    flags: str = ""


_CELL = re.compile(r"(\d{1,2})([wb])")
_CELL_VALUES: Final[dict[str, int]] = {
    "": 0,
    **{f"{count}w": count for count in range(1, CHECKERS + 1)},
    **{f"{count}b": -count for count in range(1, CHECKERS + 1)},
}
"""The usual spellings of a cell, read without the regular expression (which also takes
the rest: leading zeros, other digits)."""
_PAIR = re.compile(r"w(\d{1,2})b(\d{1,2})")
_STATES: Final[dict[str, tuple[Phase, tuple[int, int] | None, int]]] = {
    "-": (Phase.ROLL, None, 0),
    "d": (Phase.DOUBLED, None, 0),
    "end": (Phase.END, None, 0),
    **{f"r{level}": (Phase.RESIGN, None, level) for level in (1, 2, 3)},
    **{
        f"{first}{second}": (Phase.MOVE, (max(first, second), min(first, second)), 0)
        for first in range(1, 7)
        for second in range(1, 7)
    },
}
"""Every state field (lower case): its phase, the dice (larger first) and the resign level."""
_CUBE = re.compile(r"(\d{1,5})([cwb])")
_USUAL_CUBES: Final[dict[str, CubeField]] = {
    f"{2**power}{owner}": CubeField(2**power, owner) for power in range(7) for owner in CubeOwner
}
"""The cube fields of cubes up to 64, read without the regular expression."""
_MATCH = re.compile(r"(\d{1,5}):(\d{1,5})-(\d{1,5})")


def parse_position(text: str) -> PositionData:
    """Read a position string; raises NotationError naming the field that is wrong."""
    fields = text.split()
    if not 6 <= len(fields) <= 9:
        raise NotationError(
            "invalid_position_string",
            f"a position string has 6 to 9 space-separated fields, not {len(fields)}",
        )
    reader = _FieldReader(text, fields)
    variant = reader.variant()
    turn, phase, dice, resign = reader.turn_and_state()
    has_cube = variant == VariantId.BACKGAMMON
    match_length, score = reader.match()
    return PositionData(
        variant=variant,
        cells=reader.cells(),
        bar=reader.pair(2),
        off=reader.pair(3),
        turn=turn,
        phase=phase,
        dice=dice,
        resign=resign,
        cube=reader.cube(default=CubeField(1, CubeOwner.CENTRE) if has_cube else None),
        match_length=match_length,
        score=score,
        flags=reader.flags(),
    )


class _FieldReader:
    """Reads one field at a time, locating errors by field name and column."""

    def __init__(self, text: str, fields: list[str]) -> None:
        self.text = text
        self.fields = fields

    def error(self, index: int, expected: str) -> NotationError:
        value = self.fields[index]
        column = self.text.find(value) + 1 if index else 1
        return NotationError(
            "invalid_position_string",
            f"field {index + 1} ({FIELD_NAMES[index]}) must be {expected}, not {echoed(value)}",
            column,
        )

    def variant(self) -> VariantId:
        name = self.fields[0].lower()
        if name not in VARIANT_NAMES:
            raise self.error(0, "one of " + ", ".join(sorted(VARIANT_NAMES)))
        return VARIANT_NAMES[name]

    def cells(self) -> tuple[int, ...]:
        parts = self.fields[1].lower().split(",")
        if len(parts) != 24:
            raise self.error(1, "24 comma-separated cells")
        usual = tuple(map(_CELL_VALUES.get, parts))
        if None not in usual:
            return cast(tuple[int, ...], usual)
        cells = []
        for part, known in zip(parts, usual, strict=True):
            if known is not None:
                cells.append(known)
                continue
            match = _CELL.fullmatch(part)
            if match is None or not 1 <= int(match[1]) <= CHECKERS:
                raise self.error(1, "cells like 5w or 2b (1 to 15 checkers) or empty")
            count = int(match[1])
            cells.append(count if match[2] == "w" else -count)
        return tuple(cells)

    def pair(self, index: int) -> tuple[int, int]:
        match = _PAIR.fullmatch(self.fields[index].lower())
        if match is None:
            raise self.error(index, "w<n>b<n>")
        return int(match[1]), int(match[2])

    def turn_and_state(self) -> tuple[str | None, Phase, tuple[int, int] | None, int]:
        turn = self.fields[4].lower()
        if turn not in ("w", "b", "-"):
            raise self.error(4, "w, b or -")
        state = _STATES.get(self.fields[5].lower())
        if state is None:
            raise self.error(5, "-, two dice like 52, d, r1, r2, r3 or end")
        phase, dice, resign = state
        return (None if turn == "-" else turn), phase, dice, resign

    def cube(self, default: CubeField | None) -> CubeField | None:
        if len(self.fields) < 7:
            return default
        value = self.fields[6].lower()
        if value == "-":
            return None
        usual = _USUAL_CUBES.get(value)
        if usual is not None:
            return usual
        match = _CUBE.fullmatch(value)
        if match is None:
            raise self.error(6, "-, or a value and owner like 1c, 2w, 4b")
        return CubeField(int(match[1]), CubeOwner(match[2]))

    def match(self) -> tuple[int, tuple[int, int]]:
        if len(self.fields) < 8:
            return 0, (0, 0)
        match = _MATCH.fullmatch(self.fields[7])
        if match is None:
            raise self.error(7, "<length>:<white score>-<black score> like 7:4-2")
        return int(match[1]), (int(match[2]), int(match[3]))

    def flags(self) -> str:
        if len(self.fields) < 9 or self.fields[8] == "-":
            return ""
        flags = self.fields[8].lower()
        if any(letter not in FLAGS for letter in flags) or len(set(flags)) != len(flags):
            raise self.error(8, "- or the letters c (Crawford) and p (post-Crawford)")
        return "".join(letter for letter in FLAGS if letter in flags)


def format_position(position: PositionData) -> str:
    """The canonical position string: all nine fields, lowercase, larger die first."""
    cells = ",".join(
        "" if count == 0 else f"{abs(count)}{'w' if count > 0 else 'b'}" for count in position.cells
    )
    fields = [
        position.variant,
        cells,
        f"w{position.bar[0]}b{position.bar[1]}",
        f"w{position.off[0]}b{position.off[1]}",
        position.turn or "-",
        _format_state(position),
        "-" if position.cube is None else f"{position.cube.value}{position.cube.owner}",
        f"{position.match_length}:{position.score[0]}-{position.score[1]}",
        position.flags or "-",
    ]
    return " ".join(fields)


def _format_state(position: PositionData) -> str:
    if position.phase is Phase.MOVE and position.dice is not None:
        return f"{max(position.dice)}{min(position.dice)}"
    return {
        Phase.ROLL: "-",
        Phase.DOUBLED: "d",
        Phase.END: "end",
        Phase.RESIGN: f"r{position.resign}",
        Phase.MOVE: "-",
    }[position.phase]


def field_column(text: str, field: str) -> int | None:
    """The 1-based column where the named field of a position string starts, if present."""
    index = FIELD_NAMES.index(field)
    starts = [match.start() + 1 for match in re.finditer(r"\S+", text)]
    return starts[index] if index < len(starts) else None


_OWNED_CUBES_OF_ONE: Final = (CubeField(1, CubeOwner.WHITE), CubeField(1, CubeOwner.BLACK))


def validate_position(position: PositionData) -> list[PositionProblem]:
    """Every way the parsed position is impossible whatever its variant (empty when it is
    valid); what one variant forbids, the variant class says."""
    problems: list[PositionProblem] = []

    def problem(code: str, message: str, field: str | None = None) -> None:
        problems.append(PositionProblem(code, message, field))

    white = sum(count for count in position.cells if count > 0)
    black = -sum(count for count in position.cells if count < 0)
    for index, (name, on_board) in enumerate((("White", white), ("Black", black))):
        total = on_board + position.bar[index] + position.off[index]
        if total != CHECKERS:
            problem(
                "checker_count",
                f"{name} has {total} checkers (board {on_board}, bar {position.bar[index]},"
                f" off {position.off[index]}); every side has {CHECKERS}",
            )
    if position.phase is Phase.DOUBLED and position.cube is None:
        problem("double_without_cube", "state d (a double offered) needs a cube")
    if position.phase is Phase.DOUBLED and position.cube is not None and position.cube.value < 2:
        problem("cube_value", "with state d the cube field holds the value offered, at least 2")
    if position.cube is not None and position.cube.value & (position.cube.value - 1):
        problem("cube_value", f"cube value {position.cube.value} is not a power of two", "cube")
    if position.cube is not None and position.cube.value == 0:
        problem("cube_value", "cube value 0 is not a power of two", "cube")
    if position.cube in _OWNED_CUBES_OF_ONE:
        problem("cube_owner", "a cube of 1 has no owner: it is centred, 1c", "cube")
    if position.turn is None and position.phase not in (Phase.ROLL, Phase.END):
        problem("turn_state", f"state {_format_state(position)} needs w or b in the turn field")
    if position.turn is not None and position.phase is Phase.END:
        problem("turn_state", "state end needs - in the turn field")
    _validate_match(position, problem)
    return problems


def _validate_match(position: PositionData, problem: Callable[[str, str], None]) -> None:
    length, (white, black) = position.match_length, position.score
    if length and (white >= length or black >= length):
        problem("score", f"scores {white}-{black} must be below the match length {length}")
    if not length and (white or black):
        problem("score", "a money session (length 0) keeps the score 0-0")
    at_crawford = length > 0 and (white == length - 1) != (black == length - 1)
    if "c" in position.flags:
        if not at_crawford:
            problem("crawford_flag", "c needs exactly one player at match length - 1")
        elif position.cube != CubeField(1, CubeOwner.CENTRE):
            problem("crawford_flag", "in the Crawford game the cube stays 1c")
        if position.phase is Phase.DOUBLED:
            problem("crawford_flag", "nobody may double in the Crawford game")
    if "p" in position.flags and not (length and length - 1 in (white, black)):
        problem("crawford_flag", "p (post-Crawford) needs a player at match length - 1")
    if "c" in position.flags and "p" in position.flags:
        problem("crawford_flag", "a game is not both the Crawford game and post-Crawford")
