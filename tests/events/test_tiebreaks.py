"""The tie-breaks a director orders (EVENTS.md §13): Buchholz without the lowest opponent,
median Buchholz, progressive scores and head-to-head, each worked out by hand, and the
same rounds ranked three ways by three orders."""

from __future__ import annotations

from referee.events.standings import (
    DEFAULT_TIEBREAKS,
    Meeting,
    Result,
    RoundSoFar,
    Tiebreak,
    standings,
)


def won(white: str, black: str, winner: str) -> Meeting:
    return Meeting(white, black, Result(winner, (1, 0) if winner == white else (0, 1)))


SIX = ["A", "B", "C", "D", "E", "F"]
SWISS = [
    RoundSoFar(1, (won("A", "D", "A"), won("B", "E", "E"), won("C", "F", "F"))),
    RoundSoFar(2, (won("A", "C", "C"), won("E", "F", "E"), won("B", "D", "B"))),
    RoundSoFar(3, (won("C", "E", "E"), won("A", "B", "A"), won("D", "F", "F"))),
]
"""Match points: E 3 (W W W), A 2 (W L W), F 2 (W L W), B 1 (L W L), C 1 (L W L), D 0.
A and F never met, nor did B and C."""


def order_of(order: tuple[Tiebreak, ...]) -> list[str]:
    return [line.name for line in standings(SIX, SWISS, order=order)]


def test_each_tiebreak_of_a_swiss_of_six_worked_out_by_hand() -> None:
    order = (
        Tiebreak.BUCHHOLZ,
        Tiebreak.BUCHHOLZ_CUT1,
        Tiebreak.MEDIAN_BUCHHOLZ,
        Tiebreak.PROGRESSIVE,
    )
    lines = {line.name: line for line in standings(SIX, SWISS, order=order)}
    # A met D 0, C 1, B 1: Buchholz 2, without the lowest 2, without both ends 1; after
    # each round A had 1, 1, 2: progressive 4.
    assert lines["A"].tiebreaks == {
        "buchholz": 2.0,
        "buchholz_cut1": 2.0,
        "median_buchholz": 1.0,
        "progressive": 4.0,
    }
    # F met C 1, E 3, D 0: 4, 4, 1; F had 1, 1, 2: 4.
    assert lines["F"].tiebreaks == {
        "buchholz": 4.0,
        "buchholz_cut1": 4.0,
        "median_buchholz": 1.0,
        "progressive": 4.0,
    }
    # C met F 2, A 2, E 3: 7, 5, 2; C had 0, 1, 1: 2. B met E 3, D 0, A 2: 5, 5, 2; 2.
    assert [lines["C"].tiebreaks[str(name)] for name in order] == [7.0, 5.0, 2.0, 2.0]
    assert [lines["B"].tiebreaks[str(name)] for name in order] == [5.0, 5.0, 2.0, 2.0]
    # E: B 1, F 2, C 1: 4, 3, 1; 1, 2, 3: 6. D: A 2, B 1, F 2: 5, 4, 2; 0.
    assert [lines["E"].tiebreaks[str(name)] for name in order] == [4.0, 3.0, 1.0, 6.0]
    assert [lines["D"].tiebreaks[str(name)] for name in order] == [5.0, 4.0, 2.0, 0.0]


def test_the_same_rounds_rank_as_each_order_says() -> None:
    # Buchholz: F 4 before A 2, C 7 before B 5.
    assert order_of(DEFAULT_TIEBREAKS) == ["E", "F", "A", "C", "B", "D"]
    # Without the lowest: F 4 before A 2; B and C 5 each, then seed: B.
    assert order_of((Tiebreak.BUCHHOLZ_CUT1,)) == ["E", "F", "A", "B", "C", "D"]
    # Median 1 and 1, progressive 4 and 4: seed, A before F; B and C alike: B.
    assert order_of((Tiebreak.MEDIAN_BUCHHOLZ, Tiebreak.PROGRESSIVE)) == [
        "E",
        "A",
        "F",
        "B",
        "C",
        "D",
    ]
    # Head-to-head separates only entrants who all met: A and F did not, so Buchholz does.
    assert order_of((Tiebreak.HEAD_TO_HEAD, Tiebreak.BUCHHOLZ)) == order_of(DEFAULT_TIEBREAKS)


ROUND_ROBIN = [
    RoundSoFar(1, (won("A", "D", "A"), won("B", "C", "C"))),
    RoundSoFar(2, (won("D", "C", "D"), won("A", "B", "B"))),
    RoundSoFar(3, (won("B", "D", "B"), won("C", "A", "A"))),
]
"""A 2, B 2, C 1, D 1 match points; B beat A, D beat C."""


def test_head_to_head_between_entrants_who_all_met() -> None:
    # Buchholz: C (B 2 + D 1 + A 2 = 5) and D (A 2 + C 1 + B 2 = 5) tie; Sonneborn-Berger
    # puts C (beat B: 2) before D (beat C: 1). Head-to-head puts D first: D beat C.
    seeds = ["A", "B", "C", "D"]
    default = [line.name for line in standings(seeds, ROUND_ROBIN)]
    assert default == ["B", "A", "C", "D"]
    lines = standings(seeds, ROUND_ROBIN, order=(Tiebreak.HEAD_TO_HEAD,))
    assert [line.name for line in lines] == ["B", "A", "D", "C"]
    assert {line.name: line.tiebreaks for line in lines} == {
        "A": {"head_to_head": 0.0},
        "B": {"head_to_head": 1.0},
        "C": {"head_to_head": 0.0},
        "D": {"head_to_head": 1.0},
    }


def test_a_round_without_every_result_adds_nothing_to_the_progressive_score() -> None:
    playing = [*ROUND_ROBIN[:2], RoundSoFar(3, (won("B", "D", "B"), Meeting("C", "A")))]
    lines = {
        line.name: line.tiebreaks["progressive"]
        for line in standings(["A", "B", "C", "D"], playing, order=(Tiebreak.PROGRESSIVE,))
    }
    # After rounds 1 and 2: A 1 + 1, B 0 + 1, C 1 + 1, D 0 + 1.
    assert lines == {"A": 2.0, "B": 1.0, "C": 2.0, "D": 1.0}
