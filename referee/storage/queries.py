"""SQL that every backend runs as written, with ``?`` for its arguments (PostgreSQL's
modules turn them into ``%s``: ``postgresql.database.marked``): what a twin of a store
shares with the first instead of writing it again. An argument that may be NULL where
nothing else gives it a type is ``CAST(? AS INTEGER)`` (PostgreSQL must know its type)."""

from __future__ import annotations

# -- tokens ----------------------------------------------------------------------------------

TOKEN_CREATE = (
    "INSERT INTO tokens (name, prefix, token_hash, scopes, created_at) VALUES (?, ?, ?, ?, ?)"
)
TOKEN_REVOKE = "UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL"
TOKEN_HOLDER = (
    "SELECT id, name, prefix, scopes, created_at, revoked_at FROM tokens"
    " WHERE token_hash = ? AND revoked_at IS NULL"
)
TOKENS_ALL = "SELECT id, name, prefix, scopes, created_at, revoked_at FROM tokens ORDER BY id"

# -- live matches ----------------------------------------------------------------------------

LIVE_GET = (
    "SELECT m.*, l.state AS last_state FROM live_matches m JOIN live_log l"
    " ON l.live_id = m.id AND l.version = m.state_version WHERE m.id = ?"
)
LIVE_THROWS = "SELECT k, die1, die2, game, use FROM live_throws WHERE live_id = ? ORDER BY k"
LIVE_LOG = "SELECT entries FROM live_log WHERE live_id = ? ORDER BY version"
LIVE_APPEND = "INSERT INTO live_log (live_id, version, ply, entries, state) VALUES (?, ?, ?, ?, ?)"
LIVE_THROW = "INSERT INTO live_throws (live_id, k, die1, die2, game, use) VALUES (?, ?, ?, ?, ?, ?)"
LIVE_REFRESH = (
    "UPDATE live_matches SET deadline = ? + coalesce(turn_seconds, move_seconds),"
    " version = version + 1"
    " WHERE status = 'playing' OR (status = 'waiting' AND deadline IS NOT NULL)"
)
"""What every match awaits gets its full time again from now: the decision in play (its
``move_seconds``, or its clock's delay and the reserve it began with), the bots' joining."""

CLOCK_READ = "SELECT served_at FROM live_clock WHERE id = 1"
CLOCK_BEAT = (
    "INSERT INTO live_clock (id, served_at) VALUES (1, ?)"
    " ON CONFLICT (id) DO UPDATE SET served_at = excluded.served_at"
)

# -- derived results -------------------------------------------------------------------------

DERIVED_KEPT = "SELECT body FROM derived WHERE match_id = ? AND key = ? AND revision = ?"

DERIVED_CLAIM = (
    "INSERT INTO derived_claims (match_id, key, owner, expires) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (match_id, key) DO UPDATE SET owner = excluded.owner,"
    " expires = excluded.expires"
    " WHERE derived_claims.expires < ? OR derived_claims.owner = excluded.owner"
)
DERIVED_CLAIMANT = "SELECT owner FROM derived_claims WHERE match_id = ? AND key = ?"
DERIVED_RELEASE = "DELETE FROM derived_claims WHERE match_id = ? AND key = ? AND owner = ?"

# -- matches ---------------------------------------------------------------------------------

UPDATE_VERDICT = (
    "UPDATE matches SET valid = ?, winner = ?, verdict = ?, rules_revision = ?,"
    " referee_version = ? WHERE id = ?"
)

# -- bulk re-checks --------------------------------------------------------------------------

RECHECK_FIND_RUN = (
    "SELECT id, revision, batches, matches, created_at FROM recheck_runs"
    " WHERE finished_at IS NULL AND revision IS NOT DISTINCT FROM CAST(? AS INTEGER)"
    " ORDER BY id DESC LIMIT 1"
)
RECHECK_NEW_RUN = (
    "INSERT INTO recheck_runs (revision, batches, matches, created_at) VALUES (?, 0, 0, ?)"
)
RECHECK_SPLIT = (
    "INSERT INTO recheck_batches (run_id, number, first_id, last_id, size, done)"
    " SELECT ?, n, min(id), max(id), count(*), false FROM (SELECT id,"
    " (row_number() OVER (ORDER BY id) - 1) / ? AS n FROM matches"
    " WHERE CAST(? AS INTEGER) IS NULL OR rules_revision < ?) AS s GROUP BY n"
)
"""The matches of a new run (id, batch size, revision twice), ``size`` to a batch."""
RECHECK_SIZE = "SELECT count(*), coalesce(sum(size), 0) FROM recheck_batches WHERE run_id = ?"
RECHECK_SIZED = "UPDATE recheck_runs SET batches = ?, matches = ?, finished_at = ? WHERE id = ?"
RECHECK_NEXT_BATCH = (
    "SELECT b.number, b.first_id, b.last_id, r.revision FROM recheck_batches b"
    " JOIN recheck_runs r ON r.id = b.run_id WHERE b.run_id = ? AND NOT b.done"
    " ORDER BY b.number LIMIT 1"
)
RECHECK_BATCH_IDS = (
    "SELECT id FROM matches m WHERE id BETWEEN ? AND ?"
    " AND (CAST(? AS INTEGER) IS NULL OR rules_revision < ?)"
    " AND NOT EXISTS (SELECT 1 FROM recheck_done d WHERE d.run_id = ? AND d.match_id = m.id)"
    " ORDER BY id"
)
"""The matches of a batch not done yet (first id, last id, revision twice, run)."""
RECHECK_BATCH_DONE = "UPDATE recheck_batches SET done = true WHERE run_id = ? AND number = ?"
RECHECK_FINISH = (
    "UPDATE recheck_runs SET finished_at = ? WHERE id = ? AND finished_at IS NULL"
    " AND NOT EXISTS (SELECT 1 FROM recheck_batches WHERE run_id = ? AND NOT done)"
)
"""Finish a run (time, run, run) when none of its batches is left."""
RECHECK_MATCH_DONE = (
    "INSERT INTO recheck_done (run_id, match_id, changed) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"
)
RECHECK_PROGRESS = (
    "SELECT r.batches, r.matches, r.finished_at,"
    " (SELECT count(*) FROM recheck_batches b WHERE b.run_id = r.id AND b.done) AS done,"
    " (SELECT count(*) FROM recheck_done d WHERE d.run_id = r.id) AS rechecked,"
    " (SELECT count(*) FROM recheck_done d WHERE d.run_id = r.id AND d.changed) AS changed"
    " FROM recheck_runs r WHERE r.id = ?"
)
