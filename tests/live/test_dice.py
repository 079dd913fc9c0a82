"""The dice of LIVE.md §5: its two test vectors, and proofs that verify or do not."""

from __future__ import annotations

import hashlib
import hmac

from referee.live.dice import commitment, throw, verify_proof

ZERO_SEED = "0" * 64
SEED = "783e28b59849da3ff7c4a64ccd204bb537ca0d2b1595ecf9339ae37b411910b7"


def test_first_vector_commitment_and_throws() -> None:
    assert commitment(ZERO_SEED) == (
        "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    )
    throws = [throw(ZERO_SEED, 1, k, "", "") for k in range(1, 6)]
    assert throws == [(5, 2), (2, 4), (6, 3), (3, 4), (2, 2)]


def test_second_vector_commitment_and_throws() -> None:
    assert commitment(SEED) == "5bd8b47480989384185e2f7b751b7aae936e20f892073642a2419817dddc2570"
    throws = [throw(SEED, 42, k, "alpha", "beta-7") for k in range(1, 6)]
    assert throws == [(5, 2), (4, 6), (5, 1), (4, 6), (2, 2)]


def test_second_vector_throw_two_skips_the_byte_fc() -> None:
    block = hmac.new(bytes.fromhex(SEED), b"42:2:alpha:beta-7:0", hashlib.sha256).digest()
    assert block[0] == 0xFC  # skipped; then 0x81 = 129 -> 129 % 6 + 1 = 4, 0xef -> 6
    assert (block[1] % 6 + 1, block[2] % 6 + 1) == (4, 6) == throw(SEED, 42, 2, "alpha", "beta-7")


def _proof() -> dict[str, object]:
    return {
        "algorithm": "hmac-sha256-v1",
        "commitment": commitment(SEED),
        "server_seed": SEED,
        "client_seeds": {"w": "alpha", "b": "beta-7"},
        "throws": [
            {"k": 1, "dice": [5, 2], "game": 1, "use": "opening"},
            {"k": 2, "dice": [4, 6], "game": 1, "use": "roll"},
            {"k": 3, "dice": [5, 1], "game": 1, "use": "roll"},
        ],
    }


def test_an_honest_proof_verifies() -> None:
    assert verify_proof(_proof(), 42) is None


def test_a_tampered_throw_is_found() -> None:
    proof = _proof()
    proof["throws"][1]["dice"] = [6, 6]  # type: ignore[index]
    problem = verify_proof(proof, 42)
    assert problem is not None and problem.k == 2


def test_a_seed_that_breaks_its_commitment_is_found() -> None:
    proof = {**_proof(), "server_seed": ZERO_SEED}
    problem = verify_proof(proof, 42)
    assert problem is not None and problem.k is None and "commitment" in problem.message


def test_another_match_id_gives_other_dice() -> None:
    problem = verify_proof(_proof(), 43)
    assert problem is not None and problem.k is not None


def test_a_proof_whose_throws_are_not_objects_is_refused_not_a_crash() -> None:
    proof = {**_proof(), "throws": [5, 2]}
    problem = verify_proof(proof, 1)
    assert problem is not None and problem.k is None
