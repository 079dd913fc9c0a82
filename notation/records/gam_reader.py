"""GammonEmpire ``.gam`` records read into the record model, as gnubg's ``import empire``
reads them (its ``import.c`` is the specification; nothing of it is copied): a money
session of games, each a line with the two players' names (the first the left player),
then ``.mat`` rows (``  1) 31: 8/5 6/5      42: 13/9 13/11``) and result lines
(``Wins 1 point``); the next line naming two players starts the next game (gnubg ends a
game where its rules say it is over: readers here know no rules). The rows are read as
the ``.mat`` reader reads them."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Final

from notation.errors import NotationError
from notation.records.mat_lines import MatLines, game_lines
from notation.records.mat_reader import ReadLimits
from notation.records.model import MatchText

_NAMES: Final = re.compile(r"^\s*(\S+)[ \t]+(\S+)\s*$")
_ROW: Final = re.compile(r"^\s*\d{1,4}\)")
_RESULT: Final = re.compile(r"^\s*wins?\b", re.IGNORECASE)
SNIFF: Final = re.compile(rb"\A\s*\S+[ \t]+\S+[ \t]*\r?\n[ \t]*(?:1\)\s|wins\b)", re.I)
"""What shows a GammonEmpire text in its first bytes: a names line, then row 1 (or at
once the result)."""


def read_gam(text: str, limits: ReadLimits | None = None) -> MatchText:
    """Every game of a GammonEmpire ``.gam``; NotationError ``no_match`` without a names
    line followed by rows, ``too_many_<limit>`` past one of ``limits``."""
    lines = MatLines()
    lines.add(" 0 point match", 1)
    games = 0
    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        names = _NAMES.match(line)
        if _ROW.match(line) or _RESULT.match(line):
            if games:  # a result line before the first game is skipped, as gnubg skips it
                lines.add(line, number)
        elif names:
            games += 1
            game_lines(lines, games, (names[1], names[2]), number)
        elif line.strip():
            lines.add(line, number)
    if not games:
        raise NotationError("no_match", "no line naming two players: this is not a .gam record")
    record = lines.read(limits)
    # gnubg's import empire plays these games without the Jacoby rule
    return replace(record, tags={"Site": "GammonEmpire", "Jacoby": "Off"})
