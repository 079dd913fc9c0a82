"""PartyGammon ``.gam`` records read into the record model, as gnubg's ``import party``
reads them (its ``import.c`` is the specification; nothing of it is copied): gnubg turns
the file into ``.mat`` text and reads that, and so does this reader.

The file is ``KEY=VALUE`` lines: ``MATCHLENGTH=5``, and per game ``GAME_<n>_PLAYER_1``,
``GAME_<n>_PLAYER_2``, ``GAME_<n>_GAMEPLAY`` and ``GAME_<n>_SCORE1``/``SCORE2`` (the
scores after it; ``SCORE2`` closes the game). The game play is ``#``-separated actions,
each starting with its player (``1`` the left, ``2`` the right): ``1 a b 31 8/5 6/5``
(two fields gnubg skips, the roll, the play) or ``2 Double``, ``1 Take``, ``1 Drop``.
The winner and points of a game are what the scores gained. Every action of a game is
placed on its ``GAMEPLAY`` line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from notation.errors import NotationError
from notation.records.mat_lines import MatLines, game_lines
from notation.records.mat_reader import ReadLimits
from notation.records.model import MatchText

_KEY: Final = re.compile(r"^\s*GAME_\d+_(PLAYER_1|PLAYER_2|GAMEPLAY|SCORE1|SCORE2)=(.*?)\s*$", re.I)
_LENGTH: Final = re.compile(r"^\s*MATCHLENGTH=\s*(\d{1,5})", re.I)
_SCORE: Final = re.compile(r"-?\d{1,6}")
SNIFF: Final = re.compile(rb"^\s*(?:GAME_\d+_[A-Z_0-9]+|MATCHLENGTH)=", re.M | re.I)
"""What shows a PartyGammon text in its first bytes."""


@dataclass
class _Game:
    players: list[str] = field(default_factory=lambda: ["", ""])
    play: tuple[int, str] = (0, "")
    """The ``GAMEPLAY`` line and its value."""
    scores: list[int] = field(default_factory=lambda: [0, 0])
    line: int = 0


def read_party(text: str, limits: ReadLimits | None = None) -> MatchText:
    """Every game of a PartyGammon ``.gam``; NotationError ``no_match`` without a game,
    ``too_many_<limit>`` past one of ``limits``."""
    length, games = _games(text)
    if not games:
        raise NotationError("no_match", "no GAME_n_SCORE2 line: this is not a PartyGammon record")
    lines = MatLines()
    lines.add(f" {length} point match", 1)
    before = (0, 0)
    for number, game in enumerate(games, start=1):
        players = (game.players[0], game.players[1])
        game_lines(lines, number, players, game.line, before)
        _write_game(lines, game, before)
        before = (game.scores[0], game.scores[1])
    return lines.read(limits, scores=True)


def _games(text: str) -> tuple[int, list[_Game]]:
    length, games, game = 0, [], _Game()
    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        found = _KEY.match(line)
        if found is None:
            length_line = _LENGTH.match(line)
            length = int(length_line[1]) if length_line else length
            continue
        key, value = found[1].upper(), found[2]
        game.line = game.line or number
        if key.startswith("PLAYER"):
            game.players[int(key[-1]) - 1] = value
        elif key == "GAMEPLAY":
            game.play = (number, value)
        elif _SCORE.fullmatch(value):
            game.scores[int(key[-1]) - 1] = int(value)
            if key == "SCORE2":
                games.append(game)
                game = _Game(players=list(game.players))
    return length, games


def _write_game(lines: MatLines, game: _Game, before: tuple[int, int]) -> None:
    origin, play = game.play
    cube = 1
    for index, action in enumerate(token for token in play.split("#") if token.strip()):
        right = action.strip().startswith("2")
        fields = action.split()[1:]
        if fields and fields[0][:1].isdigit():
            cell = f"{fields[2] if len(fields) > 2 else ''}: {' '.join(fields[3:])}"
        else:
            word = " ".join(fields).lower()
            cube *= 2 if word.startswith("double") else 1
            cell = {"double": f"Doubles => {cube}", "take": "Takes", "drop": "Drops"}.get(
                word.split(" ", 1)[0] if word else "", word
            )
        lines.add(f"{index + 1:3d}) {' ' * 28 if right else ''}{cell}", origin)
    gained = (game.scores[1] - before[1]) - (game.scores[0] - before[0])
    if gained:
        margin = " " * 34 if gained > 0 else " " * 6
        lines.add(f"{margin}Wins {abs(gained)} point{'s' if abs(gained) != 1 else ''}", origin)
