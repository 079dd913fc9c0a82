"""A live nardy state as the question a nardy engine reads, and that question read back.

UBGI's draft knows backgammon only (a FIBS board or an XGID). For long nardy and
khachapuri the question is the position string the state carries (NOTATION.md §1: the
variant, the board in White's numbering, the side to act, the dice); when the match's
play options (those of RULES.md §12.1 that change which plays are legal) are not the
defaults, `` ; `` and those options follow as a record's ``Rules`` tag writes them
(``head_exception=none, block_timing=end_of_turn``). The answer is a UBGI move in the
mover's own numbering (``24/18 18/15``), a blank line when there is none to make, or
``roll`` for a position to roll in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.bridge import read_position
from referee.errors import InvalidPositionError
from referee.rules.options import DEFAULT_OPTIONS, Options, json_value
from referee.rules.position import Position
from vocabulary import VariantId

NARDY = frozenset({VariantId.LONG_NARDY, VariantId.KHACHAPURI})
PLAY_OPTIONS = ("head_exception", "first_turn_scope", "block_rule", "block_timing")
"""The options that change which plays are legal: the only ones a question carries."""
SEPARATOR = " ; "


class NotNardyError(ValueError):
    """The nardy engine plays long nardy and khachapuri only."""


@dataclass(frozen=True, slots=True)
class Question:
    """A position to answer, with the play options it is played under."""

    position: Position
    options: Options


def nardy_question(state: Mapping[str, Any]) -> str:
    """The question for a live nardy state (LIVE.md §3); NotNardyError for backgammon."""
    if state.get("variant") not in NARDY:
        raise NotNardyError(
            f"the nardy engines play long nardy and khachapuri; this match is"
            f" {state.get('variant')}"
        )
    options = state.get("options") or {}
    changed = [
        f"{name}={options[name]}"
        for name in PLAY_OPTIONS
        if name in options and options[name] != json_value(getattr(DEFAULT_OPTIONS, name))
    ]
    position = str(state["position"])
    return position + SEPARATOR + ", ".join(changed) if changed else position


def read_question(line: str) -> Question:
    """The question a line asks; a RefereeError (invalid_position, invalid_option) when the
    line is no nardy position under known options."""
    text, _, rules = line.partition(SEPARATOR.strip())
    position = read_position(text.strip())
    if position.variant.id not in NARDY:
        raise InvalidPositionError(f"{position.variant.id} is not a nardy variant")
    mapping: dict[str, object] = {}
    for pair in filter(None, (part.strip() for part in rules.split(","))):
        name, _, value = pair.partition("=")
        mapping[name.strip()] = value.strip()
    return Question(position, position.variant.options_with(mapping))
