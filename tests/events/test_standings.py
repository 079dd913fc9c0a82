"""Standings and tie-breaks (EVENTS.md §5) on events worked out by hand."""

from __future__ import annotations

from referee.events.standings import Meeting, Result, RoundSoFar, standings


def won(white: str, black: str, winner: str, points: tuple[int, int]) -> Meeting:
    return Meeting(white, black, Result(winner, points))


def test_a_round_robin_of_four_worked_out_by_hand() -> None:
    # A: beat D 3-1, lost to B 2-4, beat C 3-2: 2 MP, 8 for, 7 against.
    # B: lost to C 2-3, beat A 4-2, beat D 3-1: 2 MP, 9 for, 6 against.
    # C: beat B, lost to D 0-3, lost to A: 1 MP, 5 for, 8 against.
    # D: lost to A, beat C 3-0, lost to B: 1 MP, 5 for, 6 against.
    rounds = [
        RoundSoFar(1, (won("A", "D", "A", (3, 1)), won("B", "C", "C", (2, 3)))),
        RoundSoFar(2, (won("D", "C", "D", (3, 0)), won("A", "B", "B", (2, 4)))),
        RoundSoFar(3, (won("B", "D", "B", (3, 1)), won("C", "A", "A", (2, 3)))),
    ]
    table = standings(["A", "B", "C", "D"], rounds)
    # Buchholz: A = D 1 + B 2 + C 1 = 4, B = C 1 + A 2 + D 1 = 4, C = 5, D = 5.
    # Sonneborn-Berger: A = D 1 + C 1 = 2, B = A 2 + D 1 = 3, C = B 2, D = C 1.
    # A and B tie on points and Buchholz; B's Sonneborn-Berger is higher. C before D too.
    assert [line.name for line in table] == ["B", "A", "C", "D"]
    assert [line.rank for line in table] == [1, 2, 3, 4]
    by_name = {line.name: line for line in table}
    assert by_name["A"].tiebreaks == {
        "buchholz": 4.0,
        "sonneborn_berger": 2.0,
        "points_difference": 1,
    }
    assert by_name["B"].tiebreaks == {
        "buchholz": 4.0,
        "sonneborn_berger": 3.0,
        "points_difference": 3,
    }
    assert (by_name["C"].tiebreaks["buchholz"], by_name["C"].tiebreaks["sonneborn_berger"]) == (
        5.0,
        2.0,
    )
    line = by_name["D"]
    assert (line.match_points, line.wins, line.losses, line.points_for, line.points_against) == (
        1.0,
        1,
        2,
        5,
        6,
    )


def test_a_draw_and_byes_worked_out_by_hand() -> None:
    # Round 1: X and Y draw a mirrored pair 4-4, Z has the bye. Round 2: Z beats X 3-1,
    # Y has the bye. X 0.5, Y 1.5, Z 2 match points.
    rounds = [
        RoundSoFar(1, (Meeting("X", "Y", Result(None, (4, 4))),), ("Z",)),
        RoundSoFar(2, (won("Z", "X", "Z", (3, 1)),), ("Y",)),
    ]
    table = standings(["X", "Y", "Z"], rounds)
    assert [line.name for line in table] == ["Z", "Y", "X"]
    by_name = {line.name: line for line in table}
    # Buchholz: X = Y 1.5 + Z 2; Y = X 0.5 (a bye adds 0); Z = X 0.5.
    # Sonneborn-Berger: X = half of Y's 1.5; Y = half of X's 0.5; Z = X's 0.5.
    assert by_name["X"].tiebreaks == {
        "buchholz": 3.5,
        "sonneborn_berger": 0.75,
        "points_difference": -2,
    }
    assert by_name["Y"].tiebreaks == {
        "buchholz": 0.5,
        "sonneborn_berger": 0.25,
        "points_difference": 0,
    }
    assert by_name["Z"].tiebreaks == {
        "buchholz": 0.5,
        "sonneborn_berger": 0.5,
        "points_difference": 2,
    }
    assert (by_name["Y"].draws, by_name["Y"].byes, by_name["Y"].match_points) == (1, 1, 1.5)


def test_unfinished_pairings_count_for_nothing() -> None:
    rounds = [RoundSoFar(1, (Meeting("a", "b"),))]
    table = standings(["a", "b"], rounds)
    assert [(line.name, line.match_points, line.wins) for line in table] == [
        ("a", 0.0, 0),
        ("b", 0.0, 0),
    ]


def test_a_knockout_ranks_by_the_round_reached_then_seed() -> None:
    seeds = ["s1", "s2", "s3", "s4", "s5"]
    rounds = [
        RoundSoFar(1, (won("s4", "s5", "s5", (0, 1)),), ("s1", "s2", "s3")),
        RoundSoFar(2, (won("s1", "s5", "s5", (0, 1)), won("s2", "s3", "s3", (0, 1)))),
    ]
    running = standings(seeds, [*rounds, RoundSoFar(3, (Meeting("s3", "s5"),))], True, 3)
    assert [line.name for line in running] == ["s3", "s5", "s1", "s2", "s4"]
    assert [line.tiebreaks["round_reached"] for line in running] == [3, 3, 2, 2, 1]
    final = RoundSoFar(3, (won("s3", "s5", "s5", (0, 1)),))
    finished = standings(seeds, [*rounds, final], True, 3)
    assert [line.name for line in finished] == ["s5", "s3", "s1", "s2", "s4"]
    assert finished[0].tiebreaks == {"round_reached": 4}
    assert (finished[0].wins, finished[0].match_points) == (3, 3.0)
    assert (finished[2].byes, finished[2].losses, finished[2].match_points) == (1, 1, 1.0)
