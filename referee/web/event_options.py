"""An event's match options as its page shows them: only those that apply (RULES.md §12's
table): an event's matches are match play, so the money-play options (Jacoby, beavers,
automatic doubles) never show, and without a cube neither do its limit nor Crawford (nor
Crawford in a 1-point match, which has no Crawford game); the draw's scoring only with
the draw rule."""

from __future__ import annotations

from collections.abc import Mapping

MONEY_ONLY = frozenset({"jacoby", "beavers", "auto_doubles"})
"""Options match play ignores (RULES.md 14.6 to 14.8)."""
WITH_CUBE = frozenset({"cube_limit", "crawford"})
LABELS = {
    "cube": "doubling cube",
    "cube_limit": "cube limit",
    "crawford": "Crawford rule",
    "judge": "plays judged by",
    "koks": "koks (triple win)",
}
VALUES = {"position": "the resulting position", "sequence": "the sequence of moves"}


def applies(name: str, options: Mapping[str, object], length: int) -> bool:
    """Whether option ``name`` changes anything in a match of ``length`` (0: money play)."""
    if name in MONEY_ONLY:
        return length == 0
    if name == "crawford":
        return length > 1 and options.get("cube") is not False  # no Crawford game at 1
    if name in WITH_CUBE:
        return options.get("cube") is not False
    if name == "draw_scoring":
        return options.get("draw_rule") is True
    return True


def shown_options(options: Mapping[str, object], length: int) -> list[tuple[str, str]]:
    """The options that apply, each as (label, value) in words."""
    return [
        (LABELS.get(name, name.replace("_", " ")), _words(value))
        for name, value in options.items()
        if applies(name, options, length)
    ]


def _words(value: object) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    text = str(value)
    return VALUES.get(text, text.replace("_", " "))
