"""Response shapes are written once, as schemas: the fast dumpers built from them give
exactly what marshmallow's own ``dump`` gives (key order included), for every verdict of the
corpus, the examples and the fixtures, and for plays answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.adjudication import adjudicate
from referee.adjudication.verdict import VerdictSchema
from referee.plays import CheckResponse, LegalPlay, PlaysService
from referee.shapes import Shape, dumper, fields, schema_of
from tests.corpus import MAT
from tests.positions import BG_START, bg

ROOT = Path(__file__).resolve().parents[1]
RECORDS = sorted(
    [
        *MAT.glob("*.mat"),
        *(ROOT / "examples").glob("*.mat"),
        *(ROOT / "tests/records/fixtures").glob("*.mat"),
    ]
)


@pytest.mark.parametrize("path", RECORDS, ids=lambda path: path.name)
def test_a_verdict_dumps_as_its_schema_says(path: Path) -> None:
    for mode in ("strict", "condone"):
        verdict = adjudicate(path.read_text(encoding="utf-8-sig"), mode=mode).verdict
        assert json.dumps(verdict.to_json()) == json.dumps(schema_of(VerdictSchema)().dump(verdict))


def test_plays_answers_dump_as_their_schemas_say() -> None:
    # The start with one Black checker moved from White's 19 to a blot on White's 5.
    service = PlaysService(bg({**BG_START, 5: "1b", 19: "4b"}))
    for answer in service.legal():
        assert answer.to_json() == schema_of(LegalPlay)().dump(answer)
    for text in ("8/5 6/5", "6/5 24/21", "13/9"):  # legal, legal with a warning, illegal
        answer = service.check(text)
        assert json.dumps(answer.to_json()) == json.dumps(schema_of(CheckResponse)().dump(answer))


def test_fields_without_a_fast_dump_are_refused_when_the_dumper_is_written() -> None:
    """A dumper is written at its first call (a process that never dumps a shape does not
    pay for it): a field it cannot dump fast is refused then, whatever the object."""

    class Dated(Shape):
        when = fields.DateTime()

    dump = dumper(Dated)
    with pytest.raises(TypeError):
        dump(object())


def test_live_states_and_dice_proofs_dump_as_their_schemas_say() -> None:
    from referee.live.shapes import (
        DiceProof,
        LiveState,
        ProofView,
        StateView,
        dump_proof,
        dump_state,
    )
    from referee.live.table import FinishedGame
    from referee.storage.model.live import Throw

    state = StateView(
        id=7,
        variant="backgammon",
        length=5,
        options={"jacoby": False},
        players={"w": "gnubot", "b": "randy"},
        status="playing",
        game=2,
        score=[1, 0],
        position="backgammon 2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0 b - 1c 5:1-0 -",
        ply=31,
        to_act="b",
        expect=["double", "roll"],
        dice=None,
        legal_plays=None,
        deadline="2026-12-01T10:00:30Z",
        commitment="ab" * 32,
        algorithm="hmac-sha256-v1",
        client_seeds={"w": "alpha", "b": ""},
        server_seed=None,
        games=[FinishedGame(1, "w", 1, "drop", None, 1)],
        winner=None,
        termination=None,
        match_id=None,
        move_seconds=60,
        joined={"w": True, "b": True},
        created_at="2026-12-01",
    )
    assert json.dumps(dump_state(state)) == json.dumps(schema_of(LiveState)().dump(state))
    assert "you" not in dump_state(state)  # only the answer to join names the caller's sides
    proof = ProofView(
        7, "hmac-sha256-v1", "ab" * 32, None, {"w": "", "b": ""}, [Throw(1, (5, 2), 1, "opening")]
    )
    assert json.dumps(dump_proof(proof)) == json.dumps(schema_of(DiceProof)().dump(proof))


def test_events_and_ratings_dump_as_their_schemas_say() -> None:
    from referee.events import shapes
    from referee.events.standings import Standing
    from referee.storage.model.events import Correction, EventSummary, Seeded, StoredPairing

    played = StoredPairing(
        round=1, table=1, white="gnubot", black="randy", status="finished", live_ids=(3, 4)
    )
    pairings = [
        shapes.PairingView(played),
        shapes.PairingView(
            StoredPairing(
                round=1,
                table=2,
                white="alice",
                black="bob",
                status="finished",
                winner="bob",
                termination="award",
                award="alice did not come",
                bracket="main",
            )
        ),
    ]
    line = Standing("gnubot", 1, rank=1, match_points=1.0, wins=1, tiebreaks={"buchholz": 0.5})
    unanalysed = Standing("randy", 2, tiebreaks={"pr": None, "buchholz": 1.0})
    judged = Standing("alice", 3, tiebreaks={"pr": 12.34}, pr=12.34, analysed=2)
    event = shapes.EventView(
        id=4,
        name="Cup",
        variant="backgammon",
        length=3,
        options={"jacoby": True},
        format="knockout",
        rounds=2,
        double=False,
        kind="bots",
        mirrored=False,
        rated=True,
        analyse=True,
        move_seconds=60,
        join_seconds=None,
        tiebreaks=[],
        clock=shapes.ClockView(120, 8),
        withdrawn=["carol"],
        status="running",
        round=1,
        created_at="2026-12-01T10:00:00Z",
        updated_at="2026-12-01T10:05:00Z",
        entrants=[Seeded("gnubot", 1, 1512.25), Seeded("randy", 2, 1500.0)],
        rounds_played=[shapes.RoundView(1, pairings, ["dave"])],
        standings=[line, unanalysed, judged],
        grand_final_reset=None,
        consolation=True,
        last_chance=False,
        brackets=[shapes.BracketView("main", 3, None, [line])],
    )
    dumped = shapes.dump_event(event)
    assert json.dumps(dumped) == json.dumps(schema_of(shapes.Event)().dump(event))
    first, second = dumped["rounds_played"][0]["pairings"]
    assert first["award"] is None and second["award"] == {
        "winner": "b",
        "reason": "alice did not come",
    }
    assert (first["w"], first["b"]) == ("gnubot", "randy")
    assert [(one["pr"], one["analysed"]) for one in dumped["standings"]] == [
        (None, 0),
        (None, 0),
        (12.34, 2),
    ]
    assert dumped["standings"][1]["tiebreaks"] == {"pr": None, "buchholz": 1.0}
    result = shapes.ResultView(4, 1, pairings[1])
    assert shapes.dump_result(result) == schema_of(shapes.EventResultResponse)().dump(result)
    summary = EventSummary(4, "Cup", "backgammon", 3, "swiss", "records", "open", 0, 5, 8, "t")
    assert shapes.dump_summary(summary) == schema_of(shapes.EventSummary)().dump(summary)
    entry = Correction(seq=2, at="t", by="host", action="void", round=1, table=2, reason="r")
    assert shapes.dump_correction(entry) == schema_of(shapes.EventLedgerEntry)().dump(entry)
    changes = [shapes.ChangeView(9, None, 1500.0, 1512.25)]
    rating = shapes.RatingView("gnubot", "backgammon", 1512.25, 14, 3, changes)
    assert json.dumps(shapes.dump_history(rating)) == json.dumps(
        schema_of(shapes.PlayerRatingHistory)().dump(rating)
    )
    assert "history" not in shapes.dump_rating(rating)


def test_challenges_and_policies_dump_as_their_schemas_say() -> None:
    from referee.challenges import shapes
    from referee.challenges.rules import public
    from referee.storage.model.challenges import ChallengeTerms, Policy, StoredChallenge

    for clock in (None, (300, 8)):
        terms = ChallengeTerms(
            variant="backgammon", length=5, options={"jacoby": True}, clock=clock, rated=True
        )
        stored = StoredChallenge(
            challenger="gnubot",
            opponent="randy",
            terms=terms,
            token_id=1,
            expires_at=1764583230.5,
            id=3,
            status="declined",
            reason="busy",
            live_id=None,
            created_at=1764583200.25,
            answered_at=1764583210.0,
        )
        dumped = shapes.challenge_json(stored)
        view = shapes.ChallengeView(stored)
        assert json.dumps(dumped) == json.dumps(schema_of(shapes.Challenge)().dump(view))
        assert (dumped["variant"], dumped["clock"]) == (
            "backgammon",
            None if clock is None else {"reserve": 300, "delay": 8},
        )
    policy = public(Policy(accept=("randy",), variants=("backgammon",), max_concurrent=2))
    bot = shapes.OnlineView("gnubot", {"backgammon": 1512.25}, policy)
    assert shapes.dump_online(bot) == schema_of(shapes.OnlineBot)().dump(bot)
    assert shapes.dump_online(bot)["policy"]["accept"] == "some"  # the names stay private
