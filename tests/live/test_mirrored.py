"""Mirrored pairs (EVENTS.md §7): both live matches share one server seed and commitment,
throw their dice under the first match's id without client seeds (a seed sent on join is
ignored), carry ``dice_id`` in their states, proofs and records, and verify-dice checks
them; an ordinary match's dice_id is its own id and its record is as before."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from notation.records.mat_reader import read_mat
from referee.cli import main
from referee.live import dice
from referee.live import service as live
from referee.storage import open_storage, prepare_storage
from referee.storage.model.tokens import Token
from referee.storage.stores import Storage


@pytest.fixture
def storage(tmp_path: Path) -> Any:
    prepare_storage(tmp_path / "archive.sqlite3")
    opened = open_storage(tmp_path / "archive.sqlite3")
    yield opened
    opened.close()


def tokens(storage: Storage) -> tuple[Token, Token, Token]:
    host = storage.tokens.create(("live:host",), "director").token
    alice = storage.tokens.create(("play",), "alice").token
    bob = storage.tokens.create(("play",), "bob").token
    return host, alice, bob


def play_out(storage: Storage, live_id: int, bots: dict[str, Token], seed: int) -> dict[str, Any]:
    """Both bots join (with seeds) and play at random to the end."""
    rng = random.Random(seed)
    live.join(storage, live_id, bots["w"], "alpha")
    state = live.join(storage, live_id, bots["b"], "beta-7")
    while state["status"] == "playing":
        expect = state["expect"]
        action: dict[str, Any] = {"action": "roll"}
        if "play" in expect:
            action = {"action": "play", "play": rng.choice(state["legal_plays"])}
        details = {name: value for name, value in action.items() if name != "action"}
        state = live.act(
            storage, live_id, bots[state["to_act"]], state["ply"], action["action"], details
        )
    return state


def test_a_mirrored_pair_throws_the_same_dice_under_the_first_matchs_id(
    storage: Storage, tmp_path: Path
) -> None:
    host, alice, bob = tokens(storage)
    players = {"w": "alice", "b": "bob"}
    first = live.create(storage, host, "backgammon", 3, {}, players, mirrored=True)
    swapped = {"w": "bob", "b": "alice"}
    second = live.create(storage, host, "backgammon", 3, {}, swapped, dice_of=first["id"])
    assert first["dice_id"] == second["dice_id"] == first["id"]
    assert first["commitment"] == second["commitment"]
    one = play_out(storage, first["id"], {"w": alice, "b": bob}, 1)
    other = play_out(storage, second["id"], {"w": bob, "b": alice}, 2)
    assert one["client_seeds"] == other["client_seeds"] == {"w": "", "b": ""}
    assert one["server_seed"] == other["server_seed"]
    proofs = [live.proof(storage, state["id"]) for state in (one, other)]
    assert proofs[0]["dice_id"] == proofs[1]["dice_id"] == first["id"]
    common = min(len(proof["throws"]) for proof in proofs)
    assert common > 0
    assert [t["dice"] for t in proofs[0]["throws"][:common]] == [
        t["dice"] for t in proofs[1]["throws"][:common]
    ]
    for proof in proofs:
        assert dice.verify_proof(proof, proof["id"]) is None
        wrong = {key: value for key, value in proof.items() if key != "dice_id"}
        if proof["id"] != first["id"]:  # without it the second match's dice do not verify
            assert dice.verify_proof(wrong, proof["id"]) is not None
    for state in (one, other):
        record = storage.matches.get(state["match_id"])
        assert record is not None and record.valid
        tags = read_mat(record.original).tags
        assert tags["DiceId"] == str(first["id"])
        assert tags["ClientSeeds"] == "w=,b="
    saved = tmp_path / "proof.json"
    saved.write_text(json.dumps(proofs[1]))
    assert main(["verify-dice", str(saved)]) == 0


def test_an_ordinary_match_throws_under_its_own_id(storage: Storage) -> None:
    host, alice, bob = tokens(storage)
    created = live.create(storage, host, "long-nardy", 1, {}, {"w": "alice", "b": "bob"})
    state = play_out(storage, created["id"], {"w": alice, "b": bob}, 3)
    assert state["dice_id"] == state["id"]
    assert state["client_seeds"] == {"w": "alpha", "b": "beta-7"}
    proof = live.proof(storage, state["id"])
    assert proof["dice_id"] == state["id"]
    first = proof["throws"][0]["dice"]
    assert first == list(dice.throw(proof["server_seed"], state["id"], 1, "alpha", "beta-7"))
    record = storage.matches.get(state["match_id"])
    assert record is not None and "DiceId" not in read_mat(record.original).tags


def test_the_live_test_vectors_still_hold_through_a_dice_id() -> None:
    proof = {
        "id": 2,
        "dice_id": 1,
        "algorithm": dice.ALGORITHM,
        "commitment": dice.commitment("00" * 32),
        "server_seed": "00" * 32,
        "client_seeds": {"w": "", "b": ""},
        "throws": [
            {"k": k, "dice": list(thrown)}
            for k, thrown in enumerate([(5, 2), (2, 4), (6, 3), (3, 4), (2, 2)], start=1)
        ],
    }
    assert dice.verify_proof(proof, 2) is None
    assert dice.verify_proof({**proof, "dice_id": 2}, 2) is not None
    assert dice.verify_proof({**proof, "dice_id": "1"}, 2) is not None
