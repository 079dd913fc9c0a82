"""The challenge store (EVENTS.md §14): challenges answered once, lapsing, the news of the
bot streams, policies and the bot streams open now, on every backend."""

from __future__ import annotations

import time

from referee.storage.model.challenges import Answer, ChallengeTerms, NewChallenge, Policy
from referee.storage.stores import Storage

TERMS = ChallengeTerms(variant="backgammon", length=3, options={}, clock=(60, 5), rated=True)


def challenge(storage: Storage, seconds: float = 60, **fields: object) -> int:
    made = {"challenger": "a", "opponent": "b", "terms": TERMS, "token_id": 7}
    made.update(fields)
    new = NewChallenge(expires_at=time.time() + seconds, **made)  # type: ignore[arg-type]
    return storage.challenges.create(new)


def test_a_challenge_is_stored_open_and_news_for_the_opponent(storage: Storage) -> None:
    challenge_id = challenge(storage)
    found = storage.challenges.get(challenge_id)
    assert found is not None
    assert (found.challenger, found.opponent, found.status) == ("a", "b", "open")
    assert found.terms == TERMS and found.token_id == 7
    assert (found.live_id, found.reason, found.answered_at) == (None, None, None)
    news = storage.challenges.news("b")
    told = [(n.challenge_id, n.kind, n.live_id) for n in news]
    assert told == [(challenge_id, "challenge", None)]
    assert storage.challenges.news("a") == []
    assert storage.challenges.last_news() == news[0].seq
    assert storage.challenges.news("b", news[0].seq) == []
    assert storage.challenges.get(challenge_id + 1) is None


def test_an_accepted_challenge_is_answered_once_and_tells_both(storage: Storage) -> None:
    challenge_id = challenge(storage)
    now = time.time()
    accepted = Answer(challenge_id=challenge_id, status="accepted", now=now, live_id=42)
    assert storage.challenges.answer(accepted)
    declined = Answer(challenge_id=challenge_id, status="declined", now=now, reason="late")
    assert not storage.challenges.answer(declined)  # answered already: nothing written
    found = storage.challenges.get(challenge_id)
    assert found is not None
    assert (found.status, found.live_id, found.reason) == ("accepted", 42, None)
    for name in ("a", "b"):
        assert [(n.kind, n.live_id) for n in storage.challenges.news(name)][-1] == ("match", 42)


def test_a_declined_challenge_keeps_its_reason(storage: Storage) -> None:
    challenge_id = challenge(storage)
    answer = Answer(challenge_id=challenge_id, status="declined", now=time.time(), reason="busy")
    assert storage.challenges.answer(answer)
    found = storage.challenges.get(challenge_id)
    assert found is not None and (found.status, found.reason) == ("declined", "busy")
    assert storage.challenges.news("a") == []  # nothing to play


def test_a_challenge_past_its_time_lapses_and_takes_no_answer(storage: Storage) -> None:
    late = challenge(storage, seconds=-1)
    fresh = challenge(storage)
    answer = Answer(challenge_id=late, status="accepted", now=time.time(), live_id=1)
    assert not storage.challenges.answer(answer)
    assert storage.challenges.open_count(7, time.time()) == 1  # the lapsed one is not open
    assert storage.challenges.lapse(time.time()) == 1
    assert storage.challenges.lapse(time.time()) == 0
    lapsed, still = storage.challenges.get(late), storage.challenges.get(fresh)
    assert lapsed is not None and lapsed.status == "lapsed" and lapsed.answered_at is not None
    assert still is not None and still.status == "open"


def test_open_challenges_are_counted_by_token(storage: Storage) -> None:
    for _ in range(3):
        challenge(storage)
    challenge(storage, token_id=8)
    now = time.time()
    assert storage.challenges.open_count(7, now) == 3
    assert storage.challenges.open_count(8, now) == 1
    assert storage.challenges.open_count(9, now) == 0


def test_rated_challenges_between_two_names_count_either_way(storage: Storage) -> None:
    now = time.time()
    unrated = ChallengeTerms(variant="backgammon", length=1, options={}, clock=None, rated=False)
    made = [
        challenge(storage),
        challenge(storage, challenger="b", opponent="a"),
        challenge(storage, terms=unrated),
        challenge(storage, opponent="c"),
        challenge(storage),  # left open: not counted
    ]
    for live_id, challenge_id in enumerate(made[:4]):
        answer = Answer(challenge_id=challenge_id, status="accepted", now=now, live_id=live_id)
        assert storage.challenges.answer(answer)
    assert storage.challenges.rated_between("a", "b", now - 10) == 2
    assert storage.challenges.rated_between("b", "a", now - 10) == 2
    assert storage.challenges.rated_between("a", "c", now - 10) == 1
    assert storage.challenges.rated_between("a", "b", now + 10) == 0


def test_a_policy_is_kept_replaced_and_forgotten(storage: Storage) -> None:
    assert storage.challenges.policy("b") is None
    policy = Policy(accept=("a", "c"), block=("x",), variants=("backgammon",), max_concurrent=2)
    storage.challenges.set_policy("b", policy)
    assert storage.challenges.policy("b") == policy
    storage.challenges.set_policy("b", Policy(accept="any", rated=False))
    assert storage.challenges.policy("b") == Policy(accept="any", rated=False)
    storage.challenges.set_policy("b", None)
    assert storage.challenges.policy("b") is None


def test_bots_are_online_while_their_streams_are_seen(storage: Storage) -> None:
    now = time.time()
    storage.challenges.seen("s1", "b", now - 100)
    storage.challenges.seen("s2", "a", now)
    storage.challenges.seen("s3", "a", now)
    assert storage.challenges.online(now - 25) == ["a"]
    storage.challenges.seen("s1", "b", now)  # refreshed
    assert storage.challenges.online(now - 25) == ["a", "b"]
    storage.challenges.left("s2")
    assert storage.challenges.online(now - 25) == ["a", "b"]  # a's other stream is open
    storage.challenges.left("s3")
    assert storage.challenges.online(now - 25) == ["b"]


def test_an_acceptance_limited_by_live_matches_in_play(storage: Storage) -> None:
    from tests.storage.test_live import SETUP, WAITING

    playing = storage.live.create(SETUP, WAITING)  # Alice plays one match
    name = SETUP.players[0]
    first, second = challenge(storage, opponent=name), challenge(storage, opponent=name)
    own = storage.live.create(SETUP, WAITING)
    now = time.time()
    over = Answer(challenge_id=first, status="accepted", now=now, live_id=own, busy=(name, 1))
    assert not storage.challenges.answer(over)  # one other match in play: busy
    found = storage.challenges.get(first)
    assert found is not None and found.status == "open"
    room = Answer(challenge_id=second, status="accepted", now=now, live_id=own, busy=(name, 2))
    assert storage.challenges.answer(room)
    assert storage.challenges.in_play(name) == 2 and playing != own


def test_a_challenge_its_policy_answers_is_not_told(storage: Storage) -> None:
    challenge_id = challenge(storage, told=False)
    assert storage.challenges.news("b") == []
    found = storage.challenges.get(challenge_id)
    assert found is not None and found.status == "open"
