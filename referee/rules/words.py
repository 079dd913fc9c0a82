"""A game's result and a play in the words people use, the one place the command line, the
pages and the board take them from: the JSON keeps NOTATION.md §4's machine names
(``single``, ``mars``, ``koks``, the empty play), people read ``a gammon`` or ``no move``."""

from __future__ import annotations

from referee.rules.scoring import Termination
from referee.rules.variants import Variant, WinKind, find_variant

ENDINGS = {
    Termination.DROP: "a dropped double",
    Termination.TIMEOUT: "on time",
    Termination.DRAW: "a draw",
    Termination.UNFINISHED: "unfinished",
}
"""How a game that no kind of win names ended, in words."""

NO_MOVE = "no move"
"""A dance (the empty play) in words, wherever a play is named to people."""


def play_words(play: str) -> str:
    """A play's text as people read it: the empty play (a dance) as ``no move``."""
    return play or NO_MOVE


def result_words(variant: str, termination: str, kind: str | None, cube: int) -> str:
    """How a game ended, in the variant's own words (``Variant.kind_words``): ``a gammon``
    in backgammon, ``a mars`` in long nardy, ``a backgammon, by resignation, cube 4``;
    the arguments are the verdict's machine values."""
    if kind is None:
        words = ENDINGS.get(Termination(termination), termination)
    else:
        words = find_variant(variant).kind_words[WinKind(kind)]
        if termination == Termination.RESIGN:
            words += ", by resignation"
    return words if cube == 1 else f"{words}, cube {cube}"


def resignation_words(variant: type[Variant], level: int) -> str:
    """What a resignation offer of ``level`` (a position's ``r1``..``r3``: single, mars,
    koks) gives up, in the variant's words; a level past the kinds the variant has is its
    highest (khachapuri has no koks: ``r3`` offers a mars, as a ``Wins`` line would)."""
    kinds = tuple(variant.kind_words)
    return variant.kind_words[kinds[min(level, len(kinds)) - 1]]
