"""Records that cost the referee as much as a record can: board edits that keep a game
going, each followed by illegal plays whose judging enumerates hundreds of legal plays."""

from __future__ import annotations

HEADER = '; [Variation "Backgammon"]\n\n 0 point match\n'
# White (the mover) has 15 blots and pairs on 1-12, Black likewise on 13-24.
SPREAD = "; Set Pos=-BBBAAAAAAAAAaaaaaaaaabbb-/0\n"
# 11 lets White play four 1s from many blots; "6/5" plays one: illegal, yet physically
# possible, so condone mode goes on with the next row.
ILLEGAL_ROW = "  1) 11: 6/5                    11: 6/5\n"
# A game from the start opens with two different dice: a legal opening first.
OPENING_ROW = "  1) 21: 13/11 6/5              21: 13/11 6/5\n"


def game(number: int, rows: str) -> str:
    return f"\n Game {number}\n Alice : 0                      Bob : 0\n{rows}"


def edited_game(number: int, edits: int) -> str:
    """A game of ``edits`` rows after a legal opening, each a board edit then an illegal
    play by each side."""
    return game(number, OPENING_ROW + (SPREAD + ILLEGAL_ROW) * edits)


def one_long_game(size: int) -> str:
    """The shape issue 13 reports: one game of ``size`` bytes, an edit before every row."""
    rows = (size - len(HEADER)) // len(SPREAD + ILLEGAL_ROW)
    return HEADER + edited_game(1, rows)


def many_games(size: int, edits: int = 9) -> str:
    """``size`` bytes of games of ``edits`` edited rows: each game stays inside the
    per-game limits, so the record costs up to its per-record limits."""
    text = [HEADER]
    number, length = 1, len(HEADER)
    while length < size:
        text.append(edited_game(number, edits))
        length += len(text[-1])
        number += 1
    return "".join(text)
