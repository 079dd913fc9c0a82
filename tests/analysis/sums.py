"""What every analysis must hold whatever its record: each player's analysed actions add
up to gnubg's figures for them (losses to the error totals, within the printed
precision; actions, decisions and marks to gnubg's counts; the luck of the played rolls
to its luck: gnubg's statistics leave out a roll with nothing played, left before a
resignation or replaced by a board edit), and every action stands where the replay has
it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from referee.adjudication.game import ReplayStep
from referee.plays import PlaysService

PRINTED = 0.0005
"""Half the last printed digit of gnubg's totals (three decimals)."""
ROUNDED = 0.000001
"""Each action's figure is given to six decimals: its rounding, and gnubg's sums in
single precision, are within this much an action."""
CUBE_KINDS = ("no_double", "double", "take", "drop")
REPLAY_KINDS = {
    "play": ("roll", "edit"),
    "no_double": ("roll",),
    "double": ("double",),
    "take": ("take", "beaver", "raccoon"),
    "drop": ("drop",),
}
"""The replay's actions each kind of analysed action stands at: the doubler's take of a
beaver, which the record leaves out, stands at the beaver (the other side's)."""


def sum_problems(stats: Mapping[str, Any], actions: Sequence[Mapping[str, Any]]) -> list[str]:
    """Where one player's actions (``actions``) do not add up to his ``stats``."""
    plays = [action for action in actions if action["kind"] == "play"]
    moves = [action for action in plays if action["equity_loss"] is not None]
    cubes = [action for action in actions if action["kind"] in CUBE_KINDS]
    chequer, cube, luck = stats["chequer"], stats["cube"], stats["luck"]
    marks = Counter(action["mark"] for action in moves)
    cube_errors = Counter(
        (action["kind"], action["best"]) for action in cubes if action["equity_loss"] < 0
    )
    lucky = Counter(action["luck_mark"] for action in moves)
    checks = {
        "chequer error": _near([a["equity_loss"] for a in moves], chequer["error_total_emg"]),
        "cube error": _near([a["equity_loss"] for a in cubes], cube["error_total_emg"]),
        "luck": _near([a["luck"] or 0.0 for a in moves], luck["luck_total_emg"]),
        "moves": len(moves) == chequer["total_moves"],
        "decisions": len(cubes) == cube["total_decisions"],
        "doubtful": marks["doubtful"] == chequer["doubtful"],
        "bad": marks["bad"] == chequer["bad"],
        "very bad": marks["very_bad"] == chequer["very_bad"],
        "very lucky": lucky["very_lucky"] == luck["very_lucky"],
        "unlucky": lucky["unlucky"] == luck["unlucky"],
        "missed doubles": cube_errors[("no_double", "double")]
        == cube["missed_doubles_below_cp"] + cube["missed_doubles_above_cp"],
        "wrong doubles": cube_errors[("double", "no double")]
        == cube["wrong_doubles_below_dp"] + cube["wrong_doubles_above_tg"],
        "wrong takes": cube_errors[("take", "drop")] == cube["wrong_takes"],
        "wrong passes": cube_errors[("drop", "take")] == cube["wrong_passes"],
    }
    return [name for name, holds in checks.items() if not holds]


def _near(figures: Sequence[float], printed: float) -> bool:
    """Whether ``figures`` (each to six decimals) add up to ``printed`` (to three)."""
    return abs(sum(figures) - printed) <= PRINTED + ROUNDED * (len(figures) + 1)


def side_actions(actions: Sequence[Mapping[str, Any]], side: str) -> list[Mapping[str, Any]]:
    return [action for action in actions if action["side"] == side]


def place_problems(actions: Sequence[Mapping[str, Any]], steps: Sequence[ReplayStep]) -> list[str]:
    """Actions whose index is not the replay's step of the same side and kind, whose
    play is not the replay's, or whose best play is not a legal one written as the
    referee writes it."""
    found = []
    for action in actions:
        step = steps[action["index"] - 1]
        where = f"{action['index']}: {action['kind']} of {action['side']}"
        kinds = REPLAY_KINDS[action["kind"]]
        beaver = str(step.action.kind) in ("beaver", "raccoon")
        side = step.action.side if not beaver else "b" if step.action.side == "w" else "w"
        if side != action["side"] or str(step.action.kind) not in kinds:
            found.append(f"{where} at {step.action.text!r}")
        elif action["kind"] == "play" and action["played"] not in (None, step.play):
            found.append(f"{where}: played {action['played']!r}, replay {step.play!r}")
        elif action["kind"] == "play" and action["best"] not in (None, action["played"]):
            found += _best_problems(action, step)
    return found


def _best_problems(action: Mapping[str, Any], step: ReplayStep) -> list[str]:
    """A best play that is not a legal play of the roll, written as the referee writes it
    (hits marked)."""
    fields = step.position_before.split(" ")
    dice = step.action.dice
    assert dice is not None
    fields[4:6] = [step.action.side, f"{dice[0]}{dice[1]}"]
    answer = PlaysService(" ".join(fields)).check(action["best"])
    if answer.legal and answer.play == action["best"]:
        return []
    return [f"{action['index']}: best {action['best']!r} is {answer.play or 'illegal'}"]
