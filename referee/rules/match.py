"""A match between games (RULES.md §14.9): which game is the Crawford game, and how every
game starts. Record checking and live matches both ask here."""

from __future__ import annotations

from dataclasses import dataclass

from referee.rules.options import Options
from referee.rules.position import Cube, Position
from referee.rules.variants import Variant
from vocabulary import Phase, Side


def crawford_status(
    variant: type[Variant],
    options: Options,
    length: int,
    score: tuple[int, int],
    crawford_played: bool,
) -> tuple[bool, bool]:
    """(the game starting at ``score`` is the Crawford game, it is post-Crawford): the first
    game with exactly one player at length − 1 is the Crawford game, the later ones are
    post-Crawford (``crawford_played``: the Crawford game was already played)."""
    if not length or not variant.has_cube or not options.crawford:
        return False, False
    target = length - 1
    if not crawford_played and (score[0] == target) != (score[1] == target):
        return True, False
    return False, crawford_played and target in score


def starting_position(
    variant: type[Variant],
    options: Options,
    length: int,
    score: tuple[int, int],
    crawford: tuple[bool, bool] = (False, False),
) -> Position:
    """A game's start: the variant's board, nobody on turn yet, a centred cube where the
    game has one, the match score and its Crawford status. A money session's positions
    keep the score 0-0 (NOTATION.md §1: its match field is ``0:0-0``; the running score
    is the verdict's, never a position's)."""
    cube = Cube() if variant.has_cube and options.cube else None
    if not length:
        score = (0, 0)
    return Position(
        variant,
        variant.start_board(),
        None,
        Phase.ROLL,
        cube=cube,
        match_length=length,
        score=score,
        crawford=crawford[0],
        post_crawford=crawford[1],
    )


@dataclass(frozen=True, slots=True)
class MatchState:
    """A match between its games: the score, which game is being played, which one was the
    Crawford game, and the winner once a player reaches the length (RULES.md §14.9). Record
    checking and the live table step through a match with it."""

    variant: type[Variant]
    options: Options
    length: int
    score: tuple[int, int] = (0, 0)
    game: int = 0
    """The number of the game being played (1 for the first; 0 before it)."""
    crawford_game: int | None = None
    """The number of the Crawford game, once it has begun."""
    post_crawford: bool = False
    """The current game follows the Crawford game."""
    winner: Side | None = None

    @property
    def crawford(self) -> tuple[bool, bool]:
        """(the current game is the Crawford game, it is post-Crawford)."""
        return self.crawford_game == self.game, self.post_crawford

    def next_game(self, score: tuple[int, int] | None = None) -> MatchState:
        """The next game begins at ``score`` (a record's score line; by default the score as
        the games so far leave it)."""
        score = self.score if score is None else score
        played = self.crawford_game is not None
        crawford, post = crawford_status(self.variant, self.options, self.length, score, played)
        game = self.game + 1
        crawford_game = game if crawford else self.crawford_game
        # Built directly, not with dataclasses.replace: record checking calls it per game.
        return MatchState(
            self.variant, self.options, self.length, score, game, crawford_game, post, self.winner
        )

    def start_position(self) -> Position:
        """The current game's start (nobody on turn yet)."""
        return starting_position(self.variant, self.options, self.length, self.score, self.crawford)

    def scored(self, winner: Side | None, points: int) -> MatchState:
        """The current game gave ``winner`` ``points``; the first player to reach the length
        wins the match."""
        white, black = self.score
        if winner is Side.WHITE:
            white += points
        elif winner is Side.BLACK:
            black += points
        match_winner = self.winner
        if match_winner is None and self.length and max(white, black) >= self.length:
            match_winner = Side.WHITE if white >= self.length else Side.BLACK
        return MatchState(
            self.variant,
            self.options,
            self.length,
            (white, black),
            self.game,
            self.crawford_game,
            self.post_crawford,
            match_winner,
        )
