"""Challenges, on every backend (migrations: SQLite's 0012_challenges, PostgreSQL's
0008_challenges): one row per challenge, the news the bot streams owe about them, the
bots' policies (JSON) and the bot streams open now. The news is read by ``seq``
(``after_seq``): every write here holds ``Serial.NEWS``, so a reader never sees a later
``seq`` committed before an earlier one, and a write to the ratings' ledger holds
``Serial.NUMBERS`` too.

An answer is one conditional update (``WHERE status = 'open' AND expires_at > now``):
of two answers at once (the bot's, the sweeper's lapse) only one is saved, and the news
of an accepted challenge's live match is written in its transaction. A policy's
``max_concurrent`` is counted in that transaction too, after the live match was made: of
two acceptances at once, the later counts the earlier's match, so none goes past it."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from referee.storage.model.challenges import (
    Answer,
    ChallengeNews,
    ChallengeTerms,
    NewChallenge,
    Policy,
    StoredChallenge,
)
from referee.storage.model.feed import CHALLENGE_NEWS
from referee.storage.model.ratings import RatedMatch
from referee.storage.ratings import insert_rated
from referee.storage.sql import Database, Dialect, Row, Serial, Transaction, marks

DAY_SECONDS = 86_400.0
IN_PLAY = ("waiting", "playing")
"""The statuses of a live match that has not ended."""
COLUMNS = (
    "challenger, opponent, variant, length, options, clock_reserve, clock_delay, rated,"
    " token_id, expires_at, status, created_at"
)


class Challenges:
    """The challenge store."""

    def __init__(self, database: Database, dialect: Dialect) -> None:
        self.database = database
        self.dialect = dialect

    @contextmanager
    def writing(self) -> Iterator[Transaction]:
        """A write transaction holding ``Serial.NEWS``."""
        with self.database.writing() as tx:
            self.dialect.serialize(tx, Serial.NEWS)
            yield tx

    def create(self, challenge: NewChallenge) -> int:
        terms = challenge.terms
        clock = terms.clock or (None, None)
        row = [
            *(challenge.challenger, challenge.opponent, terms.variant, terms.length),
            *(json.dumps(terms.options), clock[0], clock[1], terms.rated, challenge.token_id),
            *(challenge.expires_at, "open", time.time()),
        ]
        with self.writing() as tx:
            challenge_id = tx.insert(
                f"INSERT INTO challenges ({COLUMNS}) VALUES ({marks(len(row))})", row
            )
            if challenge.told:
                self._news(tx, [(challenge.opponent, challenge_id, "challenge", None)])
        return challenge_id

    def _news(self, tx: Transaction, rows: list[tuple[object, ...]]) -> None:
        """Add news for the bot streams, and tell them (on commit)."""
        tx.many(
            "INSERT INTO challenge_news (name, challenge_id, kind, live_id) VALUES (?, ?, ?, ?)",
            rows,
        )
        if rows:
            self.dialect.notify_news(tx, CHALLENGE_NEWS, "challenge_news")

    def get(self, challenge_id: int) -> StoredChallenge | None:
        row = self.database.row("SELECT * FROM challenges WHERE id = ?", [challenge_id])
        return None if row is None else stored(row)

    def answer(self, answer: Answer) -> bool:
        with self.writing() as tx:
            if answer.busy is not None and _playing(tx, answer) >= answer.busy[1]:
                return False
            if answer.pair_limit is not None and _paired(tx, answer) >= answer.pair_limit:
                return False
            done = tx.execute(
                "UPDATE challenges SET status = ?, reason = ?, live_id = ?, answered_at = ?"
                " WHERE id = ? AND status = 'open' AND expires_at > ?",
                [
                    *(answer.status, answer.reason, answer.live_id, answer.now),
                    *(answer.challenge_id, answer.now),
                ],
            )
            if done != 1:
                return False
            if answer.live_id is not None:
                row = tx.row(
                    "SELECT challenger, opponent FROM challenges WHERE id = ?",
                    [answer.challenge_id],
                )
                assert row is not None
                names = (row["challenger"], row["opponent"])
                self._news(
                    tx, [(name, answer.challenge_id, "match", answer.live_id) for name in names]
                )
        return True

    def lapse(self, now: float) -> int:
        due = self.database.row(
            "SELECT id FROM challenges WHERE status = 'open' AND expires_at <= ? LIMIT 1", [now]
        )
        if due is None:  # nothing to write: no write lock taken
            return 0
        with self.writing() as tx:
            return tx.execute(
                "UPDATE challenges SET status = 'lapsed', answered_at = ?"
                " WHERE status = 'open' AND expires_at <= ?",
                [now, now],
            )

    def open_count(self, token_id: int, now: float) -> int:
        row = self.database.row(
            "SELECT count(*) AS n FROM challenges WHERE token_id = ? AND status = 'open'"
            " AND expires_at > ?",
            [token_id, now],
        )
        return int(row["n"]) if row is not None else 0

    def rated_between(self, first: str, second: str, since: float) -> int:
        row = self.database.row(
            "SELECT count(*) AS n FROM challenges WHERE status = 'accepted' AND rated = ?"
            " AND answered_at >= ? AND ((challenger = ? AND opponent = ?)"
            " OR (challenger = ? AND opponent = ?))",
            [True, since, first, second, second, first],
        )
        return int(row["n"]) if row is not None else 0

    def news(self, name: str, after_seq: int = 0) -> list[ChallengeNews]:
        return self._read_news("name = ? AND ", [name], after_seq)

    def news_since(self, after_seq: int) -> list[ChallengeNews]:
        return self._read_news("", [], after_seq)

    def _read_news(self, names: str, arguments: list[str], after_seq: int) -> list[ChallengeNews]:
        """The news after ``after_seq``, in order; ``names``: a condition on whose it is
        (its ``arguments``)."""
        rows = self.database.rows(
            "SELECT seq, name, challenge_id, kind, live_id FROM challenge_news"
            f" WHERE {names}seq > ? ORDER BY seq",
            [*arguments, after_seq],
        )
        return [
            ChallengeNews(row["seq"], row["name"], row["challenge_id"], row["kind"], row["live_id"])
            for row in rows
        ]

    def last_news(self) -> int:
        row = self.database.row("SELECT max(seq) AS seq FROM challenge_news")
        return int(row["seq"] or 0) if row is not None else 0

    def policy(self, name: str) -> Policy | None:
        row = self.database.row("SELECT policy FROM bot_policies WHERE name = ?", [name])
        return None if row is None else policy_of(json.loads(row["policy"]))

    def set_policy(self, name: str, policy: Policy | None) -> None:
        with self.writing() as tx:
            tx.execute("DELETE FROM bot_policies WHERE name = ?", [name])
            if policy is not None:
                tx.execute(
                    "INSERT INTO bot_policies (name, policy, updated_at) VALUES (?, ?, ?)",
                    [name, json.dumps(policy_json(policy)), time.time()],
                )

    def seen(self, stream: str, name: str, now: float) -> None:
        with self.writing() as tx:
            tx.execute(
                "INSERT INTO bot_streams (stream, name, seen_at) VALUES (?, ?, ?)"
                " ON CONFLICT (stream) DO UPDATE SET seen_at = excluded.seen_at",
                [stream, name, now],
            )

    def left(self, stream: str) -> None:
        with self.writing() as tx:
            tx.execute("DELETE FROM bot_streams WHERE stream = ?", [stream])

    def online(self, since: float) -> list[str]:
        rows = self.database.rows(
            "SELECT DISTINCT name FROM bot_streams WHERE seen_at >= ? ORDER BY name", [since]
        )
        return [row["name"] for row in rows]

    def finished_rated(self, unrated_only: bool = True) -> list[tuple[StoredChallenge, int]]:
        rows = self.database.rows(
            "SELECT c.*, l.match_id AS stored_match FROM challenges c"
            " JOIN live_matches l ON l.id = c.live_id WHERE c.status = 'accepted'"
            " AND c.rated = ? AND l.status = 'finished' AND l.match_id IS NOT NULL"
            " AND (? = 0 OR NOT EXISTS (SELECT 1 FROM rated_matches r"
            " WHERE r.match_id = l.match_id)) ORDER BY l.match_id",
            [True, 1 if unrated_only else 0],
        )
        return [(stored(row), int(row["stored_match"])) for row in rows]

    def rate(self, matches: Sequence[RatedMatch]) -> None:
        if not matches:
            return
        with self.writing() as tx:
            self.dialect.serialize(tx, Serial.NUMBERS)
            insert_rated(tx, sorted(matches, key=lambda found: found.match_id))

    def in_play(self, name: str) -> int:
        row = self.database.row(
            "SELECT count(*) AS n FROM live_matches WHERE (white = ? OR black = ?)"
            f" AND status IN ({marks(len(IN_PLAY))})",
            [name, name, *IN_PLAY],
        )
        return int(row["n"]) if row is not None else 0


def _playing(tx: Transaction, answer: Answer) -> int:
    """How many live matches but the answer's own the ``busy`` bot plays."""
    assert answer.busy is not None
    name = answer.busy[0]
    row = tx.row(
        "SELECT count(*) AS n FROM live_matches WHERE (white = ? OR black = ?) AND id <> ?"
        f" AND status IN ({marks(len(IN_PLAY))})",
        [name, name, answer.live_id or 0, *IN_PLAY],
    )
    return int(row["n"]) if row is not None else 0


def _paired(tx: Transaction, answer: Answer) -> int:
    """How many rated challenges between the answer's two bots were accepted in the day
    before it."""
    row = tx.row(
        "SELECT count(*) AS n FROM challenges c, challenges o WHERE o.id = ?"
        " AND c.status = 'accepted' AND c.rated = ? AND c.answered_at >= ?"
        " AND ((c.challenger = o.challenger AND c.opponent = o.opponent)"
        " OR (c.challenger = o.opponent AND c.opponent = o.challenger))",
        [answer.challenge_id, True, answer.now - DAY_SECONDS],
    )
    return int(row["n"]) if row is not None else 0


def stored(row: Row) -> StoredChallenge:
    """A challenge from its row."""
    clock = None if row["clock_reserve"] is None else (row["clock_reserve"], row["clock_delay"])
    return StoredChallenge(
        id=row["id"],
        challenger=row["challenger"],
        opponent=row["opponent"],
        terms=ChallengeTerms(
            variant=row["variant"],
            length=row["length"],
            options=json.loads(row["options"]),
            clock=clock,
            rated=bool(row["rated"]),
        ),
        token_id=row["token_id"],
        expires_at=row["expires_at"],
        told=True,
        status=row["status"],
        reason=row["reason"],
        live_id=row["live_id"],
        created_at=row["created_at"],
        answered_at=row["answered_at"],
    )


def policy_json(policy: Policy) -> dict[str, Any]:
    """A policy as JSON (as stored, and as ``PUT /v1/bots/{name}/policy`` takes it)."""
    accept = policy.accept if isinstance(policy.accept, str) else list(policy.accept)
    return {
        "accept": accept,
        "block": list(policy.block),
        "variants": None if policy.variants is None else list(policy.variants),
        "max_concurrent": policy.max_concurrent,
        "rated": policy.rated,
    }


def policy_of(found: dict[str, Any]) -> Policy:
    """A policy from its JSON (``policy_json``)."""
    accept = found["accept"]
    if isinstance(accept, str):
        accept = "any" if accept == "any" else "none"
    variants = found.get("variants")
    return Policy(
        accept=accept if accept in ("any", "none") else tuple(accept),
        block=tuple(found.get("block") or ()),
        variants=None if variants is None else tuple(variants),
        max_concurrent=found.get("max_concurrent"),
        rated=bool(found.get("rated", True)),
    )
