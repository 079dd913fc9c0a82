"""Writing a record in GNU Backgammon's ``.mat`` layout (FORMATS.md part 1 §9).

Header tags as ``; [Name "value"]``, `` N point match``, then per game `` Game K``, the
score line ``" %-31s%s : %d"``, rows ``"%3d) %-27s "`` + right cell, and ``Wins`` on a row
of its own at column 7 (left winner) or 35 (right winner).
"""

from __future__ import annotations

from collections.abc import Iterable

from notation.plays import format_play
from notation.records.model import ActionKind, ActionText, GameText, MatchText

LEFT_WIDTH = 27
"""gnubg pads the left cell (trailing blanks included): its reader splits short rows wrongly."""
RESULT_INDENT = {"w": 6, "b": 34}


def write_mat(record: MatchText) -> str:
    """The record as .mat text, readable by ``read_mat`` and by gnubg's ``import mat``."""
    return join_mat(header_lines(record), (game_lines(game) for game in record.games))


def header_lines(record: MatchText) -> list[str]:
    """The tags, the comments and the match line."""
    lines = [f'; [{name} "{value}"]' for name, value in record.tags.items()]
    lines.extend(f"; {comment}" for comment in record.comments)
    if lines:
        lines.append("")
    lines.append(f" {record.match_length or 0} point match")
    lines.append("")
    return lines


def join_mat(header: list[str], games: Iterable[list[str]]) -> str:
    """A whole record from its header lines and each game's lines (games may be written
    one at a time, as they are checked)."""
    lines = list(header)
    for game in games:
        lines.extend(game)
        lines.append("")
    return "\n".join(lines) + "\n"


Cell = tuple[str, str] | str
"""A cell of a row as ``(side, text)``, or a comment line between rows (XG ``Set Pos=``)."""


def game_lines(game: GameText) -> list[str]:
    """The game's lines, each action written as its cell."""
    cells: list[Cell] = []
    for action in game.actions:
        if action.kind is ActionKind.EDIT and not action.side:
            cells.append(f"; {action.text}")
        elif action.kind not in (ActionKind.WIN, ActionKind.LOSS):
            cells.append((action.side, _cell(action)))
    return laid_out(game, cells)


def laid_out(game: GameText, cells: Iterable[Cell]) -> list[str]:
    """The game's start, number and score line, ``cells`` in numbered rows (a new row when
    the cell's column is taken, or a left cell follows a right one), then its ``Wins``
    lines (the WIN actions of ``game``)."""
    lines = []
    if game.start is not None:
        lines.append(f'; [StartPosition "{game.start}"]')
    lines.append(f" Game {game.number}")
    left, right = game.players
    score = game.score or (0, 0)
    lines.append(f" {f'{left} : {score[0]}':<31}{right} : {score[1]}")
    rows: list[list[str | None] | str] = []
    for cell in cells:
        if isinstance(cell, str):
            rows.append(cell)
            continue
        side, text = cell
        column = 0 if side == "w" else 1
        row = rows[-1] if rows else None
        if not isinstance(row, list) or row[column] is not None or (column == 0 and row[1]):
            row = [None, None]
            rows.append(row)
        row[column] = text
    number = 0
    for row in rows:
        if isinstance(row, str):
            lines.append(row)
            continue
        number += 1
        left_cell, right_cell = (text or "" for text in row)
        lines.append(f"{number:3d}) {left_cell:<{LEFT_WIDTH}} {right_cell}")
    for result in game.actions:
        if result.kind is not ActionKind.WIN:
            continue
        points = result.value or 0
        text = f"Wins {points} point{'s' if points != 1 else ''}"
        if result.and_the_match:
            text += " and the match"
        lines.append(" " * RESULT_INDENT[result.side] + text)
    return lines


def _cell(action: ActionText) -> str:
    kind = action.kind
    if kind is ActionKind.ROLL:
        assert action.dice is not None
        prefix = f"{action.dice[0]}{action.dice[1]}:"
        if action.play is None or action.play.unknown:
            rest = action.text.split(":", 1)[1].strip()
            return f"{prefix} {rest}".rstrip()
        return f"{prefix} {format_play(action.play.moves)}".rstrip()
    if kind in (ActionKind.DOUBLE, ActionKind.BEAVER, ActionKind.RACCOON):
        word = {"double": "Doubles", "beaver": "Beavers", "raccoon": "Raccoons"}[kind]
        return f" {word} => {action.value}"
    if kind is ActionKind.TAKE:
        return " Takes"
    if kind is ActionKind.DROP:
        return " Drops"
    return f" {action.text}"
