"""Versioned verdicts: every verdict names the rules revision and referee version it was
computed under; ``nardy-referee recheck`` brings stored verdicts of older revisions up to
date without touching the stored text, and prints every match whose outcome changed."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from referee import RULES_REVISION, __version__
from referee.adjudication import adjudicate
from referee.archive.submit import submit
from referee.cli import main
from referee.storage import open_storage, prepare_storage

# A backgammon game that opens with a doublet: valid before revision 1, an error since
# (RULES.md 14.2).
OPENING_DOUBLET = (
    " 1 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
    "  1) 66: 24/18(2) 13/7(2)\n"
)


def test_every_verdict_names_its_rules_revision_and_version() -> None:
    verdict = adjudicate(OPENING_DOUBLET).verdict.to_json()
    assert verdict["rules_revision"] == RULES_REVISION >= 1
    assert verdict["referee_version"] == __version__


def stored_as_if_older(database: Path) -> int:
    """Store the record, then make its row look as an older referee left it: revision 0,
    the verdict that referee gave (valid), no version."""
    match_id = stored(database)
    old = adjudicate(OPENING_DOUBLET).verdict.to_json()
    old.update(valid=True, rules_revision=0)
    for game in old["games"]:
        game["errors"] = []
    with sqlite3.connect(database) as conn:
        conn.execute(
            "UPDATE matches SET valid = 1, verdict = ?, rules_revision = 0,"
            " referee_version = NULL WHERE id = ?",
            (json.dumps(old), match_id),
        )
    return match_id


def stored(database: Path) -> int:
    """The id of the record stored in a new archive at ``database``."""
    prepare_storage(database)
    storage = open_storage(database)
    try:
        return submit(storage, OPENING_DOUBLET, allow_invalid=True).stored.id
    finally:
        storage.close()


def row(database: Path, match_id: int) -> tuple[object, ...]:
    with sqlite3.connect(database) as conn:
        found = conn.execute(
            "SELECT valid, rules_revision, referee_version, original, canonical, verdict"
            " FROM matches WHERE id = ?",
            (match_id,),
        ).fetchone()
    assert found is not None
    return tuple(found)


def test_recheck_updates_older_verdicts_and_prints_what_changed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "archive.sqlite3"
    match_id = stored_as_if_older(database)
    text_before = row(database, match_id)[3:5]
    capsys.readouterr()
    assert main(["recheck", "--database", str(database)]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"match {match_id}: valid True -> False"]
    assert "1 match(es) re-checked, 1 changed" in err
    valid, revision, version, original, canonical, verdict = row(database, match_id)
    assert (valid, revision, version) == (0, RULES_REVISION, __version__)
    assert (original, canonical) == text_before  # the stored text is never touched
    assert json.loads(str(verdict))["games"][0]["errors"][0]["rule"] == "opening_doublet"
    # Up to date now: nothing to re-check, unless --all.
    assert main(["recheck", "--database", str(database)]) == 0
    out, err = capsys.readouterr()
    assert out == "" and "0 match(es) re-checked" in err
    assert main(["recheck", "--all", "--database", str(database)]) == 0
    out, err = capsys.readouterr()
    assert out == "" and "1 match(es) re-checked, 0 changed" in err


def test_a_new_match_is_stored_at_the_current_revision(tmp_path: Path) -> None:
    database = tmp_path / "archive.sqlite3"
    assert row(database, stored(database))[1:3] == (RULES_REVISION, __version__)
