"""A match record written as a GammonEmpire ``.gam``, from the layout gnubg's ``import
empire`` reads (notation/records/gam_reader.py says it): test data for the reader, and for
gnubg to import and compare. gnubg's own ``.mat`` rows are the rows of a ``.gam``."""

from __future__ import annotations

import re

from referee.adjudication import check_and_write

_GAME = re.compile(r"^ Game \d+\n (.*?) : \d+ +(.*?) : \d+$", re.MULTILINE)


def gam_of(mat: str) -> str:
    """The ``.gam`` text of a backgammon ``.mat`` record (its canonical form, which has
    gnubg's rows): each game's two lines replaced by the names line, the header dropped,
    and no ``and the match`` (a .gam is a money session)."""
    canonical = check_and_write(mat).canonical
    body = canonical[canonical.index(" Game ") :].replace(" and the match", "")
    return _GAME.sub(lambda game: f"{_word(game[1])} {_word(game[2])}", body)


def _word(name: str) -> str:
    return re.sub(r"\s+", "_", name.strip())
