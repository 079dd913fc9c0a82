"""Pairing as pure functions (EVENTS.md §5) on the textbook cases: the Berger tables as
FIDE prints them, odd numbers and their byes, Swiss score groups with floats and no
rematches (a group that cannot pair inside itself, every bye used, an event with no
pairing left), seeded knockout brackets with byes."""

from __future__ import annotations

import itertools
import random

import pytest

from referee.events.matching import matchable, maximum_matching
from referee.events.pairing import (
    Plan,
    SwissHistory,
    berger_round,
    bracket_order,
    knockout_field,
    knockout_next,
    knockout_plan,
    knockout_rounds,
    round_robin,
    round_robin_rounds,
    swiss,
)

# FIDE Handbook C.05, Annex 1: the Berger tables for 4 and 6 players (White first).
BERGER_4 = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
BERGER_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]


@pytest.mark.parametrize(("count", "table"), [(4, BERGER_4), (6, BERGER_6)])
def test_the_berger_tables_are_fides(count: int, table: list[list[tuple[int, int]]]) -> None:
    assert [berger_round(count, number) for number in range(1, count)] == table


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6, 7, 8, 11, 16])
def test_a_round_robin_meets_everyone_once_and_an_odd_one_gives_each_a_bye(count: int) -> None:
    names = [f"p{seed}" for seed in range(1, count + 1)]
    rounds = [round_robin(names, number) for number in range(1, round_robin_rounds(count) + 1)]
    assert len(rounds) == (count - 1 if count % 2 == 0 else count)
    met = [frozenset(pair) for plan in rounds for pair in plan.pairings]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(pair) for pair in itertools.combinations(names, 2)), key=sorted
    )
    byes = [name for plan in rounds for name in plan.byes]
    assert sorted(byes) == (sorted(names) if count % 2 else [])
    for plan in rounds:  # everyone plays or rests each round
        seen = [name for pair in plan.pairings for name in pair] + list(plan.byes)
        assert sorted(seen) == sorted(names)


def test_five_entrants_rest_in_turn_as_the_dummy_of_the_six_table_says() -> None:
    names = ["a", "b", "c", "d", "e"]  # seed 6 is the dummy: its opponent has the bye
    assert [round_robin(names, number).byes for number in range(1, 6)] == [
        ("a",),
        ("d",),
        ("b",),
        ("e",),
        ("c",),
    ]
    assert round_robin(names, 1) == Plan((("b", "e"), ("c", "d")), ("a",))


def test_a_double_round_robin_plays_the_table_again_with_the_sides_swapped() -> None:
    names = ["a", "b", "c", "d"]
    assert round_robin_rounds(4, double=True) == 6
    for number in range(1, 4):
        first, second = round_robin(names, number, True), round_robin(names, number + 3, True)
        assert second.pairings == tuple((black, white) for white, black in first.pairings)


def history(*rounds: list[tuple[str, str]], byes: dict[str, int] | None = None) -> SwissHistory:
    met = frozenset(frozenset(pair) for plan in rounds for pair in plan)
    whites: dict[str, int] = {}
    for plan in rounds:
        for white, _ in plan:
            whites[white] = whites.get(white, 0) + 1
    return SwissHistory(met, byes or {}, whites)


def test_swiss_round_one_is_top_half_against_bottom_half() -> None:
    names = [f"s{seed}" for seed in range(1, 9)]
    plan = swiss(names, dict.fromkeys(names, 0.0), SwissHistory())
    assert plan == Plan((("s1", "s5"), ("s2", "s6"), ("s3", "s7"), ("s4", "s8")))


def test_swiss_round_one_of_an_odd_number_gives_the_lowest_seed_the_bye() -> None:
    names = ["s1", "s2", "s3", "s4", "s5"]
    plan = swiss(names, dict.fromkeys(names, 0.0), SwissHistory())
    assert plan == Plan((("s1", "s3"), ("s2", "s4")), ("s5",))


def test_the_odd_one_of_a_score_group_floats_down_and_nobody_meets_twice() -> None:
    # Round 1: 1-4, 2-5, 3-6, White won each. Groups: {1, 2, 3} on 1, {4, 5, 6} on 0.
    past = history([("1", "4"), ("2", "5"), ("3", "6")])
    ranked = ["1", "2", "3", "4", "5", "6"]
    points = {"1": 1.0, "2": 1.0, "3": 1.0, "4": 0.0, "5": 0.0, "6": 0.0}
    plan = swiss(ranked, points, past)
    # 3 floats into the next bracket {3, 4, 5, 6}: top half 3, 4 against 5, 6.
    # White: who was White less often (1 and 2 once each: the higher ranked, 1; 5 never).
    assert plan == Plan((("1", "2"), ("5", "3"), ("4", "6")))


def test_a_group_that_cannot_pair_inside_itself_floats_down() -> None:
    # 1 beat 3 and 2; 3 beat 4; 2 beat 4. 1 leads alone and has met 2 and 3, the next
    # group: 1 floats on down to 4, and 2-3 pair in their group.
    past = history([("1", "3"), ("2", "4")], [("1", "2"), ("3", "4")])
    points = {"1": 2.0, "2": 1.0, "3": 1.0, "4": 0.0}
    plan = swiss(["1", "2", "3", "4"], points, past)
    assert plan is not None
    assert {frozenset(pair) for pair in plan.pairings} == {
        frozenset(("2", "3")),
        frozenset(("1", "4")),
    }


def test_white_is_who_was_white_less_often_else_the_higher_ranked() -> None:
    past = history([("a", "c"), ("d", "b")])
    points = {"a": 1.0, "b": 1.0, "c": 0.0, "d": 0.0}
    plan = swiss(["a", "b", "c", "d"], points, past)
    # a (White once) meets b (never White): b is White; c (never) meets d (once): c.
    assert plan == Plan((("b", "a"), ("c", "d")))


def test_every_bye_is_used_once_then_nobody_can_be_paired() -> None:
    names = ["a", "b", "c"]
    byes: dict[str, int] = {}
    rounds: list[list[tuple[str, str]]] = []
    points = dict.fromkeys(names, 0.0)
    given = []
    for _ in range(3):
        ranked = sorted(names, key=lambda name: (-points[name], names.index(name)))
        plan = swiss(ranked, points, history(*rounds, byes=byes))
        assert plan is not None and len(plan.byes) == 1
        bye = plan.byes[0]
        given.append(bye)
        byes[bye] = byes.get(bye, 0) + 1
        points[bye] += 1
        ((white, _black),) = plan.pairings
        points[white] += 1  # White wins
        rounds.append(list(plan.pairings))
    assert sorted(given) == names
    assert swiss(names, points, history(*rounds, byes=byes)) is None  # all have met


def test_a_bye_goes_to_the_lowest_ranked_without_one() -> None:
    points = {"a": 1.0, "b": 1.0, "c": 0.0, "d": 1.0, "e": 0.0}
    past = history([("a", "c"), ("b", "d")], byes={"e": 1})
    plan = swiss(["a", "b", "d", "c", "e"], points, past)
    assert plan is not None and plan.byes == ("c",)


@pytest.mark.parametrize("seed", range(30))
def test_random_swiss_events_never_rematch_and_spread_the_byes(seed: int) -> None:
    rng = random.Random(seed)
    count = rng.randint(2, 13)
    names = [f"p{n}" for n in range(count)]
    points = dict.fromkeys(names, 0.0)
    rounds: list[list[tuple[str, str]]] = []
    byes: dict[str, int] = {}
    for _ in range(count):
        ranked = sorted(names, key=lambda name: (-points[name], names.index(name)))
        plan = swiss(ranked, points, history(*rounds, byes=byes))
        if plan is None:
            break
        met = {frozenset(pair) for plan in rounds for pair in plan}
        assert not any(frozenset(pair) in met for pair in plan.pairings)
        seen = [name for pair in plan.pairings for name in pair] + list(plan.byes)
        assert sorted(seen) == sorted(names)
        for bye in plan.byes:  # the fewest byes, unless none of those leaves a pairable rest
            fewest = min(byes.get(name, 0) for name in names)
            meet = history(*rounds).can_meet
            could = [
                name
                for name in names
                if byes.get(name, 0) == fewest
                and matchable([other for other in names if other != name], meet)
            ]
            assert byes.get(bye, 0) == fewest or not could
            byes[bye] = byes.get(bye, 0) + 1
            points[bye] += 1
        for pair in plan.pairings:
            points[rng.choice(pair)] += 1
        rounds.append(list(plan.pairings))
    assert len(rounds) >= min(count // 2, count - 1)  # pairable at least that long (Dirac)


def test_the_bracket_order_is_the_tennis_draw() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(16)[:4] == [1, 16, 8, 9]


def test_a_knockout_of_five_gives_the_top_three_seeds_byes() -> None:
    seeds = ["s1", "s2", "s3", "s4", "s5"]
    rank = {name: at for at, name in enumerate(seeds)}
    assert knockout_rounds(5) == 3
    field = knockout_field(seeds)
    assert knockout_plan(field, rank) == Plan((("s4", "s5"),), ("s1", "s2", "s3"))
    field = knockout_next(field, lambda one, other: "s5")  # s5 beats s4
    assert knockout_plan(field, rank) == Plan((("s1", "s5"), ("s2", "s3")))
    field = knockout_next(field, lambda one, other: max(one, other))  # s5 and s3 win
    assert knockout_plan(field, rank) == Plan((("s3", "s5"),))


def test_a_knockout_of_eight_pairs_one_against_eight() -> None:
    seeds = [f"s{n}" for n in range(1, 9)]
    rank = {name: at for at, name in enumerate(seeds)}
    plan = knockout_plan(knockout_field(seeds), rank)
    assert plan.pairings == (("s1", "s8"), ("s4", "s5"), ("s2", "s7"), ("s3", "s6"))
    assert plan.byes == ()


def test_the_matching_finds_a_perfect_matching_exactly_when_there_is_one() -> None:
    rng = random.Random(7)
    for _ in range(300):
        count = rng.randint(1, 9)
        edges = {(i, j) for i in range(count) for j in range(i + 1, count) if rng.random() < 0.4}
        neighbours = [
            [j for j in range(count) if (min(i, j), max(i, j)) in edges] for i in range(count)
        ]
        best = 0
        for size in range(count // 2, 0, -1):
            if any(
                len({v for edge in chosen for v in edge}) == 2 * size
                for chosen in itertools.combinations(sorted(edges), size)
            ):
                best = size
                break
        assert maximum_matching(neighbours) == best
        names = [str(i) for i in range(count)]
        unmet = frozenset(
            frozenset((str(i), str(j)))
            for i in range(count)
            for j in range(i + 1, count)
            if (i, j) not in edges
        )
        assert matchable(names, SwissHistory(unmet).can_meet) == (2 * best == count)
