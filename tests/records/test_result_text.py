"""Result text that disagrees with the replay is a warning (NOTATION.md §3-4)."""

from __future__ import annotations

from referee.adjudication import adjudicate
from referee.adjudication.verdict import Verdict

# Alice on her 2 and 1 (13 off), Bob with 13 off too: Alice's 21 bears both off, a single.
START = "backgammon 1w,1w,,,,,,,,,,,,,,,,,2b,,,,, w0b0 w13b13 w - 1c {score} -"


def record(length: int, wins_line: str, score: str = "0:0-0") -> str:
    return (
        f' {length} point match\n\n; [StartPosition "{START.format(score=score)}"]\n'
        " Game 1\n Alice : 0                      Bob : 0\n"
        f"  1) 21: 2/off 1/off\n      {wins_line}\n"
    )


def claims(verdict: Verdict) -> list[tuple[str, int | None]]:
    return [(w.code, w.line) for w in verdict.games[0].warnings if "and the match" in w.message]


def test_and_the_match_on_a_game_that_leaves_the_match_open_is_a_warning() -> None:
    # 1 point of a 3-point match: 1-0, the match goes on.
    verdict = adjudicate(record(3, "Wins 1 point and the match")).verdict
    assert claims(verdict) == [("result_mismatch", 7)]
    assert verdict.valid  # result text is never an error


def test_and_the_match_on_the_last_game_is_right() -> None:
    verdict = adjudicate(record(1, "Wins 1 point and the match")).verdict
    assert claims(verdict) == []
    assert verdict.match.winner == "w"


def test_and_the_match_in_a_money_session_is_a_warning() -> None:
    verdict = adjudicate(record(0, "Wins 1 point and the match")).verdict
    assert claims(verdict) == [("result_mismatch", 7)]


def ln_record(wins: str) -> str:
    return (
        '; [Variation "Long Nardy"]\n\n 3 point match\n\n Game 1\n'
        " Alice : 0                      Bob : 0\n"
        "  1) 65: 24/13                  43: 24/20 20/17\n"
        f"      {wins}\n"
    )


def test_long_nardy_resignations_are_never_koks_without_the_koks_option() -> None:
    [game] = adjudicate(ln_record("Wins 3 points")).verdict.games
    assert (game.result.kind, game.result.points) == ("mars", 2)
    assert game.result_mismatch is not None
    [game] = adjudicate(ln_record("Wins 3 points"), options={"koks": True}).verdict.games
    assert (game.result.kind, game.result.points, game.result_mismatch) == ("koks", 3, None)
