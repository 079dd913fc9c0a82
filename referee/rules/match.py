"""A match between games (RULES.md §14.9): which game is the Crawford game, and how every
game starts. Record checking and live matches both ask here."""

from __future__ import annotations

from referee.rules.options import Options
from referee.rules.position import Cube, Position
from referee.rules.variants import Variant
from vocabulary import Phase


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
    game has one, the match score and its Crawford status."""
    cube = Cube() if variant.has_cube and options.cube else None
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
