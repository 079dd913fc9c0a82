"""Readers for the shared OpenSpiel corpus (third-party data, read from ../shared)."""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.rules.board import Board
from vocabulary import BAR, OFF, Side

SHARED = Path(os.environ.get("NARDY_SHARED", Path(__file__).resolve().parents[2] / "shared"))
OPENSPIEL = SHARED / "corpus" / "openspiel"
MAT = SHARED / "corpus" / "mat"


def require(path: Path) -> Path:
    """``path``, or a visible skip (a failure under REQUIRE_CORPUS=1) when it is absent."""
    if path.exists():
        return path
    message = f"shared corpus not found at {path}"
    if os.environ.get("REQUIRE_CORPUS") == "1":
        pytest.fail(message + " (REQUIRE_CORPUS=1)")
    pytest.skip(message)


def read_jsonl(name: str) -> Iterator[dict[str, Any]]:
    with gzip.open(require(OPENSPIEL / name), "rt") as handle:
        for line in handle:
            yield json.loads(line)


def board_from_board26(board26: list[int], off: list[int]) -> Board:
    """A board from OpenSpiel's White-view array (see the corpus README)."""
    white = [0] * 26
    black = [0] * 26
    for point in range(1, 25):
        count = board26[point]
        if count > 0:
            white[point] = count
        elif count < 0:
            black[25 - point] = -count
    white[BAR], black[BAR] = board26[25], -board26[0]
    white[OFF], black[OFF] = off
    return Board(tuple(white), tuple(black))


def key_of(board: Board) -> str:
    """The corpus's position key of ``board``."""
    cells = [0] * 26
    for point in range(1, 25):
        cells[point] = board.white[point] - board.black[25 - point]
    cells[0], cells[25] = -board.black[BAR], board.white[BAR]
    return ",".join(map(str, cells)) + f"|{board.white[OFF]},{board.black[OFF]}"


def side_of(name: str) -> Side:
    return Side.WHITE if name == "white" else Side.BLACK


POINT_WORDS = {25: "bar", 0: "off"}


def openspiel_money_session(games: list[dict[str, Any]], event: str = "OpenSpiel seed 1") -> str:
    """The OpenSpiel games as one ``0 point match`` money session (white = left column),
    score lines carrying the session's running score."""
    lines = [
        f'; [Event "{event}"]',
        '; [Variation "Backgammon"]',
        '; [Jacoby "Off"]',
        "",
        " 0 point match",
        "",
    ]
    score = [0, 0]
    for number, game in enumerate(games, start=1):
        lines += [f" Game {number}", f" {f'white : {score[0]}':<31}black : {score[1]}"]
        rows: list[list[str]] = []
        for turn in game["turns"]:
            parts = " ".join(
                f"{POINT_WORDS.get(a, a)}/{POINT_WORDS.get(b, b)}" for a, b in turn["play"]
            )
            cell = f"{turn['dice'][0]}{turn['dice'][1]}: {parts}".rstrip()
            if turn["player"] == "white" or not rows or rows[-1][1]:
                rows.append(["", ""])
            rows[-1][0 if turn["player"] == "white" else 1] = cell
        lines += [f"{n:3d}) {left:<27} {right}" for n, (left, right) in enumerate(rows, 1)]
        points = game["points"]
        score[0 if game["winner"] == "white" else 1] += points
        indent = 6 if game["winner"] == "white" else 34
        lines += [" " * indent + f"Wins {points} point{'s' if points > 1 else ''}", ""]
    return "\n".join(lines) + "\n"
