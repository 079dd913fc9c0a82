"""Dice nobody can fake (LIVE.md §5): HMAC-SHA256 of a committed server seed with
rejection sampling, and the check of a published proof. Pure: standard library only."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

ALGORITHM = "hmac-sha256-v1"
SEED_BYTES = 32
REJECT_FROM = 252
"""Bytes 252..255 are skipped: 252 is the largest multiple of 6 below 256."""
CLIENT_SEED = re.compile(r"[A-Za-z0-9_-]{0,64}")
_SERVER_SEED = re.compile(r"[0-9a-f]{64}")


def new_server_seed() -> str:
    """32 bytes from the operating system's cryptographic source, as 64 lowercase hex digits."""
    return secrets.token_hex(SEED_BYTES)


def commitment(server_seed: str) -> str:
    """The hex SHA-256 of the seed's 32 bytes: published before any client seed is known."""
    return hashlib.sha256(bytes.fromhex(server_seed)).hexdigest()


def _dice(key: bytes, live_id: int, k: int, seed_w: str, seed_b: str) -> Iterator[int]:
    for j in range(2**32):
        message = f"{live_id}:{k}:{seed_w}:{seed_b}:{j}".encode()
        for byte in hmac.new(key, message, hashlib.sha256).digest():
            if byte < REJECT_FROM:
                yield byte % 6 + 1


def throw(server_seed: str, live_id: int, k: int, seed_w: str, seed_b: str) -> tuple[int, int]:
    """Throw ``k`` (1, 2, ...) of live match ``live_id``: the first two dice made."""
    dice = _dice(bytes.fromhex(server_seed), live_id, k, seed_w, seed_b)
    return next(dice), next(dice)


@dataclass(frozen=True, slots=True)
class ProofProblem:
    """Why a dice proof does not verify; ``k`` is the first wrong throw (None: the seeds)."""

    k: int | None
    message: str


def verify_proof(proof: Mapping[str, Any], live_id: int) -> ProofProblem | None:
    """Recompute every throw of a proof (``GET /v1/live/{id}/dice``): None when all hold.
    The dice message carries the proof's ``dice_id`` when it has one (a mirrored pair's
    first match, EVENTS.md §7), else ``live_id``."""
    dice_id = proof.get("dice_id", live_id)
    if not isinstance(dice_id, int) or isinstance(dice_id, bool) or dice_id < 1:
        return ProofProblem(None, f"the dice id {dice_id!r} is not a live match id")
    if proof.get("algorithm") != ALGORITHM:
        return ProofProblem(None, f"unknown algorithm {proof.get('algorithm')!r}")
    seed = proof.get("server_seed")
    if not isinstance(seed, str) or not _SERVER_SEED.fullmatch(seed):
        return ProofProblem(None, "the server seed is not revealed (the match has not ended)")
    if commitment(seed) != proof.get("commitment"):
        return ProofProblem(None, "the server seed does not match the commitment")
    seeds = proof.get("client_seeds") or {}
    seed_w, seed_b = str(seeds.get("w") or ""), str(seeds.get("b") or "")
    throws = proof.get("throws")
    if not isinstance(throws, list) or not all(isinstance(entry, Mapping) for entry in throws):
        return ProofProblem(None, "the throws are not a list of {k, dice, ...} objects")
    for expected_k, entry in enumerate(throws, start=1):
        k = entry.get("k")
        if k != expected_k:
            return ProofProblem(expected_k, f"throw {expected_k} is missing (found k={k})")
        dice = list(throw(seed, dice_id, k, seed_w, seed_b))
        if list(entry.get("dice") or []) != dice:
            return ProofProblem(k, f"throw {k} is {entry.get('dice')}, the seeds give {dice}")
    return None
