"""A Snowie ``.txt`` position read as a record, as gnubg's ``import snowietxt`` reads it
(its ``import.c`` is the specification; nothing of it is copied): one line of 40
``;``-separated fields (notation/records/snowie.py lists them) is one game of a match
(or money game) starting at that board, cube and score, with nothing played yet.

Here field 4 is the player on roll (0 the first), the points (13-36, +n his) and field
37's bar are his, field 12 the other's bar, fields 5 and 8 his name and score, field 11
the cube's owner (1 he, -1 the other, 0 centred): so gnubg's ``export position
snowietxt`` writes them (tests/players/test_gnubg_imports.py compares nine of its positions
with gnubg's own Position IDs). Its dice (38, 39) are not read: a game starts to roll (a
finding says so)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Final

from notation.errors import NotationError
from notation.positions import CubeField, PositionData, format_position
from notation.records.mat_reader import ReadLimits
from notation.records.model import GameText, MatchText, ReadingProblem
from notation.records.snowie import parse_snowie_cell, snowie_cells
from vocabulary import CHECKERS, CubeOwner, IssueCode, Phase, VariantId

SNIFF: Final = re.compile(rb"\A\s*\d{1,5};[01];[^;\n]*;[^;\n]*;[01];")
"""What shows a Snowie position in its first bytes."""
_NUMBER: Final = re.compile(r"-?\d{1,5}")


def read_snowie(text: str, limits: ReadLimits | None = None) -> MatchText:
    """The one game a Snowie position starts; NotationError ``invalid_snowie`` naming
    the field that cannot be read."""
    line = text.lstrip("\ufeff").strip()
    board = parse_snowie_cell(f"Illegal play ({line})")
    fields = [field.strip() for field in line.split(";")]
    for index in (0, 1, 7, 8, 9, 10, 11):
        if not _NUMBER.fullmatch(fields[index]):
            message = f"Snowie field {index} must be a number, not {fields[index]!r}"
            raise NotationError("invalid_snowie", message)
    on_roll = int(fields[4])
    cells, bar = snowie_cells(replace(board, positive_player=on_roll))
    white = sum(count for count in cells if count > 0) + bar[0]
    black = -sum(count for count in cells if count < 0) + bar[1]
    turn = "w" if on_roll == 0 else "b"
    owner = {1: turn, -1: "b" if on_roll == 0 else "w"}.get(int(fields[11]), "c")
    score = (int(fields[8]), int(fields[9]))
    score = score if on_roll == 0 else score[::-1]
    names = (fields[5], fields[6]) if on_roll == 0 else (fields[6], fields[5])
    start = PositionData(
        variant=VariantId.BACKGAMMON,
        cells=cells,
        bar=bar,
        off=(CHECKERS - white, CHECKERS - black),
        turn=turn,
        phase=Phase.ROLL,
        cube=CubeField(max(1, int(fields[10])), CubeOwner(owner)),
        match_length=int(fields[0]),
        score=score,
        flags="c" if fields[7] == "1" else "",
    )
    findings: tuple[ReadingProblem, ...] = ()
    if fields[38] not in ("0", ""):
        message = (
            f"the position's dice {fields[38]}-{fields[39]} are not read: a game starts to roll"
        )
        findings = (ReadingProblem(IssueCode.UNREADABLE_CELL, message, 1, 1),)
    game = GameText(1, 1, 1, names, score, (), start=format_position(start), findings=findings)
    tags = {"Jacoby": "On" if fields[1] == "1" else "Off"}
    return MatchText(tags=tags, match_length=int(fields[0]), games=(game,))
