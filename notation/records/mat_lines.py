"""Records gnubg reads by turning them into ``.mat`` text first (GammonEmpire's and
PartyGammon's ``.gam``): that text read by the ``.mat`` reader, each of its lines carrying
the line of the original it came from, so that what is found is placed in the original."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from notation.records.mat_reader import ReadLimits, read_mat
from notation.records.model import ActionText, MatchText, ReadingProblem


@dataclass
class MatLines:
    """``.mat`` lines being written, each with the original line it stands for."""

    lines: list[str] = field(default_factory=list)
    origins: list[int] = field(default_factory=list)

    def add(self, text: str, origin: int) -> None:
        self.lines.append(text)
        self.origins.append(origin)

    def read(self, limits: ReadLimits | None, scores: bool = False) -> MatchText:
        """The record these lines hold, placed in the original; without ``scores`` the
        games' score lines (written 0 : 0) say nothing: the scores are the rules' to count."""
        record = read_mat("\n".join(self.lines), limits)
        games = tuple(
            replace(
                game,
                line=self.origin(game.line),
                score=game.score if scores else None,
                actions=tuple(self.placed_action(action) for action in game.actions),
                findings=tuple(self.placed(found) for found in game.findings),
            )
            for game in record.games
        )
        findings = tuple(self.placed(found) for found in record.findings)
        return replace(record, games=games, findings=findings)

    def origin(self, line: int) -> int:
        return self.origins[line - 1] if 0 < line <= len(self.origins) else line

    def placed(self, found: ReadingProblem) -> ReadingProblem:
        return replace(found, line=self.origin(found.line))

    def placed_action(self, action: ActionText) -> ActionText:
        return replace(action, line=self.origin(action.line))


def game_lines(
    lines: MatLines,
    number: int,
    players: tuple[str, str],
    origin: int,
    score: tuple[int, int] = (0, 0),
) -> None:
    """A ``.mat`` game's first lines: ``Game N`` and its score line."""
    lines.add(f" Game {number}", origin)
    lines.add(f" {players[0]} : {score[0]}                    {players[1]} : {score[1]}", origin)
