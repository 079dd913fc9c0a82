"""gnubg's printed statistics read into each player's figures, without gnubg: a money
session's block written here in gnubg's layout (``%-40s %-23s %-23s``: the label, then
the left player's cell, then the right one's), cells wider than their column, ``n/a``,
rows a money session has not, and a figure that is not a number; and PR as ANALYSIS.md
§3 defines it, on its own example."""

from __future__ import annotations

import pytest

from referee.analysis import EngineFailedError
from referee.analysis.statistics import ChequerStats, CubeStats, PlayerStats, read_statistics


def row(label: str, left: str, right: str) -> str:
    return f"{label:<40} {left:<23} {right:<23}"


MONEY = "\n".join(
    [
        row("Player", "Left name", "Right name"),
        "",
        "Chequerplay statistics",
        "",
        row("Total moves", " 60", " 58"),
        row("Unforced moves", " 39", "  0"),
        row("Unmarked moves", " 50", " 58"),
        row("Moves marked doubtful", "  2", "  0"),
        row("Moves marked bad", "  5", "  0"),
        row("Moves marked very bad", "  3", "  0"),
        row("Error total EMG (Points)", "     -1.582 ( -3.164)", "     +0.000 ( +0.000)"),
        row("Error rate mEMG (Points)", "    -40.6   ( -0.081)", "n/a"),
        row("Chequerplay rating", "Awful!", "n/a"),
        "",
        "",
        "Cube statistics",
        "",
        row("Total cube decisions", " 61", "  4"),
        row("Close or actual cube decisions", " 17", "  1"),
        row("Missed doubles below CP (EMG (Points))", "  1 (-0.096 ( -0.192))", "  0"),
        row("Wrong takes (EMG (Points))", "  0", "  3 (-12.345 (-123.456))"),
        row("Error total EMG (Points)", "     -0.096 ( -0.192)", "    -12.345 (-123.456)"),
        row("Cube decision rating", "Expert", "Casual player"),
        "",
        "",
        "Overall statistics",
        "",
        row("Snowie error rate", "    -13.9", "    -98.0"),
        row("Overall rating", "World class", "Extra-terrestrial"),
        "",
    ]
)
"""A money session (``Points``) with sections and rows left out (luck, takes...)."""


def test_each_players_figures_are_read_from_his_column() -> None:
    left, right = read_statistics(MONEY)
    assert left.chequer == ChequerStats(60, 39, 50, 2, 5, 3, -1.582, -40.6, "Awful!")
    assert right.chequer == ChequerStats(58, 0, 58, 0, 0, 0, 0.0, None, None)
    assert left.luck is None and right.luck is None  # gnubg printed no luck section
    assert left.cube is not None and right.cube is not None
    assert (left.cube.total_decisions, left.cube.close_decisions) == (61, 17)
    assert (left.cube.missed_doubles_below_cp, right.cube.missed_doubles_below_cp) == (1, 0)
    assert (left.cube.wrong_takes, right.cube.wrong_takes) == (0, 3)  # a wide cell
    assert (left.cube.error_total_emg, right.cube.error_total_emg) == (-0.096, -12.345)
    assert (left.cube.rating, right.cube.rating) == ("Expert", "Casual player")
    assert left.cube.takes is None  # a row gnubg did not print
    assert left.overall is not None and right.overall is not None
    assert (left.overall.snowie_error_rate, right.overall.rating) == (-13.9, "Extra-terrestrial")
    assert left.overall.error_based_fibs_rating is None  # match play only


def test_a_figure_that_is_not_a_number_is_gnubgs_failure() -> None:
    broken = MONEY.replace("     -1.582 ( -3.164)", "       +nan (   +nan)")
    with pytest.raises(EngineFailedError) as failed:
        read_statistics(broken)
    assert failed.value.code == "engine_failed" and "nan" in failed.value.message


def test_pr_is_gnubgs_error_per_decision_on_xgs_scale() -> None:
    # ANALYSIS.md §3's example: 500 x 1.678 / (39 + 17) = 14.98.
    chequer = ChequerStats(unforced_moves=39, error_total_emg=-1.582)
    cube = CubeStats(close_decisions=17, error_total_emg=-0.096)
    assert PlayerStats(chequer, None, cube, None).pr == 14.98
    assert PlayerStats(ChequerStats(unforced_moves=0), None, None, None).pr is None
    assert PlayerStats(ChequerStats(4, 4, 4, 0, 0, 0, 0.0), None, None, None).pr == 0.0
