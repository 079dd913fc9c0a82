"""Brackets as pure functions (EVENTS.md §13): double elimination of 4, 6 and 8 with and
without the grand final's reset, a knockout of 8 and of 5 with its consolation and last
chance, worked by hand; and whole brackets of 2 to 20 entrants with random winners."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from referee.events.brackets import (
    Bracket,
    Slot,
    champions,
    double_elimination,
    finished,
    knockout_brackets,
    plan_round,
    replay,
    total_rounds,
)
from referee.events.brackets import Node as BracketNode
from referee.events.standings import Meeting, Result, RoundSoFar

Winner = Callable[[str, str, Bracket], str]
Played = list[tuple[int, str, str, Bracket]]


def seeds_of(count: int) -> list[str]:
    return [f"s{seed}" for seed in range(1, count + 1)]


def higher_seed(white: str, black: str, bracket: Bracket) -> str:
    return min(white, black, key=lambda name: int(name[1:]))


def play(
    nodes: list[BracketNode], seeds: list[str], winner: Winner
) -> tuple[list[RoundSoFar], list[Slot], Played]:
    """Every round in turn, as the event does: plan it from the rounds before, decide
    each pairing by ``winner``; the rounds, the nodes at the end and the pairings played
    as (round, White, Black, bracket)."""
    seed_of = {name: at for at, name in enumerate(seeds)}
    rounds: list[RoundSoFar] = []
    played: Played = []
    for number in range(1, total_rounds(nodes) + 1):
        slots = replay(nodes, seeds, rounds)
        if finished(slots):
            break
        plan = plan_round(slots, number, seed_of)
        meetings = []
        for white, black, bracket in plan.pairings:
            won = winner(white, black, bracket)
            points = (1, 0) if won == white else (0, 1)
            meetings.append(Meeting(white, black, Result(won, points)))
            played.append((number, white, black, bracket))
        rounds.append(RoundSoFar(number, tuple(meetings), tuple(name for name, _ in plan.byes)))
    return rounds, replay(nodes, seeds, rounds), played


def losses(rounds: list[RoundSoFar]) -> Counter[str]:
    lost: Counter[str] = Counter()
    for number in rounds:
        for meeting in number.meetings:
            assert meeting.result is not None
            lost[meeting.black if meeting.result.winner == meeting.white else meeting.white] += 1
    return lost


def test_a_double_elimination_of_four_by_hand() -> None:
    # Winners: s1-s4, s2-s3 (round 1); s1-s2 (round 2). Losers: s3-s4 (round 2, the two
    # round-1 losers), then s2 drops in against s3 (round 3). Grand final s1-s2 (round 4);
    # s1 wins it, so the reset (round 5) is not played.
    _rounds, slots, played = play(double_elimination(4), seeds_of(4), higher_seed)
    assert played == [
        (1, "s1", "s4", Bracket.WINNERS),
        (1, "s2", "s3", Bracket.WINNERS),
        (2, "s1", "s2", Bracket.WINNERS),
        (2, "s3", "s4", Bracket.LOSERS),
        (3, "s2", "s3", Bracket.LOSERS),
        (4, "s1", "s2", Bracket.FINAL),
    ]
    assert total_rounds(double_elimination(4)) == 5
    assert champions(slots)[Bracket.FINAL] == "s1"
    assert finished(slots)


def test_the_reset_is_played_when_the_losers_champion_wins_the_first_final() -> None:
    def upset(white: str, black: str, bracket: Bracket) -> str:
        return black if bracket == Bracket.FINAL else higher_seed(white, black, bracket)

    rounds, slots, played = play(double_elimination(4), seeds_of(4), upset)
    # s2 (from the losers' bracket) wins the final (round 4) and the reset (round 5).
    assert played[-2:] == [(4, "s1", "s2", Bracket.FINAL), (5, "s1", "s2", Bracket.FINAL)]
    assert champions(slots)[Bracket.FINAL] == "s2"
    # s2 lost once (the winners' final), s1 twice (both finals).
    assert losses(rounds)["s2"] == 1 and losses(rounds)["s1"] == 2
    # Without the reset, the first final decides.
    rounds, slots, played = play(double_elimination(4, reset=False), seeds_of(4), upset)
    assert played[-1] == (4, "s1", "s2", Bracket.FINAL)
    assert champions(slots)[Bracket.FINAL] == "s2"
    assert losses(rounds)["s1"] == 1


@pytest.mark.parametrize("reset", [True, False])
def test_a_double_elimination_of_eight(reset: bool) -> None:
    rounds, slots, played = play(double_elimination(8, reset), seeds_of(8), higher_seed)
    lost = losses(rounds)
    # 8 entrants, 7 out after two losses: 14 matches; the champion s1 lost none.
    assert len(played) == 14
    assert lost["s1"] == 0 and all(lost[name] == 2 for name in seeds_of(8)[1:])
    by_bracket = Counter(bracket for *_, bracket in played)
    assert by_bracket == {Bracket.WINNERS: 7, Bracket.LOSERS: 6, Bracket.FINAL: 1}
    # Losers' level 1 (round 2): the round-1 losers s8, s5, s7, s6 two by two; level 2
    # (round 3): its winners against the round-2 losers dropping in reversed: s5 meets
    # s3 (who lost to s2), s6 meets s4 (who lost to s1).
    assert [p for p in played if p[0] == 2 and p[3] == Bracket.LOSERS] == [
        (2, "s5", "s8", Bracket.LOSERS),
        (2, "s6", "s7", Bracket.LOSERS),
    ]
    assert [p for p in played if p[0] == 3 and p[3] == Bracket.LOSERS] == [
        (3, "s3", "s5", Bracket.LOSERS),
        (3, "s4", "s6", Bracket.LOSERS),
    ]
    assert played[-1] == (6, "s1", "s2", Bracket.FINAL)
    assert champions(slots) == {
        Bracket.WINNERS: "s1",
        Bracket.LOSERS: "s2",
        Bracket.FINAL: "s1",
    }


def test_a_double_elimination_of_six_gives_the_top_two_byes_in_both_brackets() -> None:
    rounds, slots, played = play(double_elimination(6), seeds_of(6), higher_seed)
    # Round 1: s1 and s2 have byes (the empty seeds 8 and 7); s4-s5 and s3-s6 play.
    assert rounds[0].byes == ("s1", "s2")
    assert [(w, b) for n, w, b, _ in played if n == 1] == [("s4", "s5"), ("s3", "s6")]
    # Losers' level 1 (round 2): the byes left no loser, so s5 and s6 have byes there.
    assert rounds[1].byes == ("s5", "s6")
    lost = losses(rounds)
    assert len(played) == 2 * 6 - 2
    assert lost["s1"] == 0 and all(lost[name] == 2 for name in seeds_of(6)[1:])
    assert champions(slots)[Bracket.FINAL] == "s1"


def test_a_knockout_of_eight_with_consolation_and_last_chance_by_hand() -> None:
    nodes = knockout_brackets(8, consolation=True, last_chance=True)
    _rounds, slots, played = play(nodes, seeds_of(8), higher_seed)
    assert played == [
        # Main round 1 in bracket order (1 8 4 5 2 7 3 6).
        (1, "s1", "s8", Bracket.MAIN),
        (1, "s4", "s5", Bracket.MAIN),
        (1, "s2", "s7", Bracket.MAIN),
        (1, "s3", "s6", Bracket.MAIN),
        # Round 2: the main's semi-finals; the round-1 losers' consolation.
        (2, "s1", "s4", Bracket.MAIN),
        (2, "s2", "s3", Bracket.MAIN),
        (2, "s5", "s8", Bracket.CONSOLATION),
        (2, "s6", "s7", Bracket.CONSOLATION),
        # Round 3: the finals of the main and of the consolation; the last chance: the
        # consolation's round-1 losers s8 and s7 against the main's round-2 losers from
        # the other half (s8 of the top half meets s3, s7 meets s4).
        (3, "s1", "s2", Bracket.MAIN),
        (3, "s5", "s6", Bracket.CONSOLATION),
        (3, "s3", "s8", Bracket.LAST_CHANCE),
        (3, "s4", "s7", Bracket.LAST_CHANCE),
        (4, "s3", "s4", Bracket.LAST_CHANCE),
    ]
    assert champions(slots) == {
        Bracket.MAIN: "s1",
        Bracket.CONSOLATION: "s5",
        Bracket.LAST_CHANCE: "s3",
    }
    assert total_rounds(nodes) == 4


def test_a_knockout_of_five_takes_a_bye_into_the_consolation_at_its_first_loss() -> None:
    nodes = knockout_brackets(5, consolation=True, last_chance=True)
    _rounds, slots, played = play(nodes, seeds_of(5), higher_seed)
    # Round 1: s1, s2, s3 have byes; s4 beats s5. Round 2: s1 beats s4, s2 beats s3.
    # The consolation: s5 (lost in round 1) and s3 (a bye, then lost its first match);
    # s4 won its first match, so it goes to the last chance, alone there.
    assert [(n, w, b, k) for n, w, b, k in played if k != Bracket.MAIN] == [
        (4, "s3", "s5", Bracket.CONSOLATION),
    ]
    assert champions(slots) == {
        Bracket.MAIN: "s1",
        Bracket.CONSOLATION: "s3",
        Bracket.LAST_CHANCE: "s4",
    }
    assert finished(slots)


def test_a_knockout_without_consolation_is_the_main_bracket_only() -> None:
    nodes = knockout_brackets(8, consolation=False, last_chance=False)
    assert {node.bracket for node in nodes} == {Bracket.MAIN}
    assert len(nodes) == 7


@pytest.mark.parametrize("count", range(2, 21))
def test_every_double_elimination_ends_with_everyone_out_after_two_losses(count: int) -> None:
    chance = random.Random(count)
    for reset in (True, False):
        nodes = double_elimination(count, reset)
        seeds = seeds_of(count)
        rounds, slots, played = play(nodes, seeds, lambda w, b, _: chance.choice((w, b)))
        assert finished(slots)
        champion = champions(slots)[Bracket.FINAL]
        lost = losses(rounds)
        assert champion is not None
        reset_played = sum(1 for *_, bracket in played if bracket == Bracket.FINAL) == 2
        # The winners' champion won the first final (0 losses), else the champion lost
        # once; the final's loser is out after two losses, or after one when the
        # winners' champion lost a final with no reset; everyone else after two.
        upper = champions(slots)[Bracket.WINNERS]
        final = next(p for p in played if p[3] == Bracket.FINAL)
        runner = final[2] if final[1] == champion else final[1]
        assert lost[champion] == (0 if champion == upper and not reset_played else 1)
        assert lost[runner] == (1 if runner == upper and not reset_played else 2)
        assert not reset or lost[runner] == 2
        assert all(lost[name] == 2 for name in seeds if name not in (champion, runner))
        assert len(played) == 2 * count - 2 + (1 if reset_played else 0)
        for number in rounds:  # nobody plays twice in a round
            names = [n for m in number.meetings for n in (m.white, m.black)] + list(number.byes)
            assert len(names) == len(set(names))


@pytest.mark.parametrize("count", range(3, 21))
def test_every_consolation_and_last_chance_hold_their_entrants(count: int) -> None:
    chance = random.Random(count)
    nodes = knockout_brackets(count, consolation=True, last_chance=True)
    seeds = seeds_of(count)
    rounds, slots, played = play(nodes, seeds, lambda w, b, _: chance.choice((w, b)))
    assert finished(slots)
    first: dict[str, tuple[int, bool]] = {}  # each entrant's first main match: round, lost
    for number, white, black, bracket in played:
        if bracket != Bracket.MAIN:
            continue
        pair = {white, black}
        slot = next(s for s in slots if s.node.round == number and pair == set(s.entrants))
        for name in (white, black):
            first.setdefault(name, (number, slot.winner != name))
    consolation = {n for _, w, b, k in played if k == Bracket.CONSOLATION for n in (w, b)}
    expected = {name for name, (_, lost) in first.items() if lost}
    # Who played in the consolation lost its first main match (a bye's entrant too); an
    # entrant alone there by byes plays nobody, so ⊆.
    assert consolation <= expected
    in_brackets = {slot.node.bracket for slot in slots}
    assert in_brackets == {Bracket.MAIN, Bracket.CONSOLATION, Bracket.LAST_CHANCE}
    counted = Counter(bracket for *_, bracket in played)
    assert counted[Bracket.MAIN] == count - 1
    for number in rounds:
        names = [n for m in number.meetings for n in (m.white, m.black)] + list(number.byes)
        assert len(names) == len(set(names))


def test_a_reset_played_stays_when_the_first_final_is_decided_otherwise_later() -> None:
    def upset(white: str, black: str, bracket: Bracket) -> str:
        return black if bracket == Bracket.FINAL else higher_seed(white, black, bracket)

    nodes = double_elimination(4)
    rounds, slots, played = play(nodes, seeds_of(4), upset)
    assert played[-1] == (5, "s1", "s2", Bracket.FINAL)
    # The first final (round 4) voided and now won by s1: the reset (round 5) stays, as
    # rounds already paired do, and its winner s2 is still the champion.
    final = rounds[3].meetings[0]
    rounds[3] = RoundSoFar(4, (Meeting(final.white, final.black, Result("s1", (1, 0))),))
    slots = replay(nodes, seeds_of(4), rounds)
    assert finished(slots)
    assert champions(slots)[Bracket.FINAL] == "s2"
