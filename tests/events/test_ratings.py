"""The FIBS formula of EVENTS.md §8 on examples worked out by hand."""

from __future__ import annotations

import pytest

from referee.events.ratings import (
    Rating,
    experience_factor,
    rate,
    ratings,
    stake,
    underdog_chance,
)
from referee.storage.model.ratings import RatedMatch


def match(number: int, white: str, black: str, winner: str, length: int = 1) -> RatedMatch:
    return RatedMatch(number, 1, "backgammon", white, black, winner, length)


def test_two_newcomers_at_1500_one_point() -> None:
    # D = 0: U = 1 / (10^0 + 1) = 1/2; the stake is 4·√1·½ = 2; both factors are
    # max(1, 5 − 0/100) = 5: the winner gains 10, the loser loses 10.
    assert underdog_chance(0, 1) == 0.5
    assert stake(1500, 1500, 1) == 2.0
    table, steps = ratings([match(1, "ann", "bob", "ann")])
    assert (table["ann"].rating, table["bob"].rating) == (1510.0, 1490.0)
    assert (table["ann"].experience, table["ann"].matches) == (1, 1)
    assert [(s.name, s.before, s.after) for s in steps] == [
        ("ann", 1500.0, 1510.0),
        ("bob", 1500.0, 1490.0),
    ]


def test_the_favourite_wins_a_five_point_match() -> None:
    # A 1600 with 500 points of experience (factor max(1, 5 − 5) = 1) beats B 1500, a
    # newcomer (factor 5), over 5 points: D = 100, D·√5/2000 = 0.1118034,
    # 10^0.1118034 = 1.2936178, U = 1/2.2936178 = 0.4359939; stake 4·√5·U = 3.8996479:
    # A 1603.8996, B 1500 − 5 × 3.8996479 = 1480.5018.
    assert underdog_chance(100, 5) == pytest.approx(0.4359939, abs=1e-7)
    table = {"A": Rating(1600.0, 500, 40), "B": Rating()}
    rate(table, match(2, "A", "B", "A", 5))
    assert table["A"].rating == pytest.approx(1603.8996, abs=1e-4)
    assert table["B"].rating == pytest.approx(1480.5018, abs=1e-4)
    assert (table["A"].experience, table["B"].experience) == (505, 5)


def test_the_underdog_wins_a_five_point_match() -> None:
    # The same two, B wins: the stake is 4·√5·(1 − U) = 5.0446240: B gains 5 × that,
    # 25.2231; A loses it once: 1594.9554.
    table = {"A": Rating(1600.0, 500, 40), "B": Rating()}
    rate(table, match(2, "A", "B", "B", 5))
    assert table["B"].rating == pytest.approx(1525.2231, abs=1e-4)
    assert table["A"].rating == pytest.approx(1594.9554, abs=1e-4)


def test_experience_slows_the_change_down_to_the_stake_itself() -> None:
    assert [experience_factor(x) for x in (0, 1, 100, 399, 400, 2000)] == [
        5.0,
        4.99,
        4.0,
        pytest.approx(1.01),
        1.0,
        1.0,
    ]


def test_a_second_match_between_the_same_two() -> None:
    # After 1510 / 1490 (X = 1 each): D = 20, U = 1 / (10^0.01 + 1) = 0.4942438, the
    # stake 1.9769752, both factors 4.99: ann 1510 + 9.8651, bob 1490 − 9.8651.
    table, _ = ratings([match(1, "ann", "bob", "ann"), match(2, "bob", "ann", "ann")])
    assert table["ann"].rating == pytest.approx(1510 + 4.99 * 1.9769752, abs=1e-6)
    assert table["bob"].rating == pytest.approx(1490 - 4.99 * 1.9769752, abs=1e-6)


def test_matches_count_in_archive_order_whatever_order_they_come_in() -> None:
    played = [match(5, "c", "a", "a"), match(2, "a", "b", "b"), match(9, "b", "c", "c")]
    forward, _ = ratings(sorted(played, key=lambda m: m.match_id))
    backward, _ = ratings(played)
    assert {n: r.rating for n, r in forward.items()} == {n: r.rating for n, r in backward.items()}
