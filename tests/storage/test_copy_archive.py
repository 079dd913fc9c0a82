"""``nardy-referee copy-archive FROM TO``: an archive moved from SQLite to PostgreSQL and
back, every table the same (counted and checksummed, printed), the archive answering the
same on the copy; a target that is not empty is refused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.archive.submit import submit
from referee.cli import main
from referee.storage import open_storage, prepare_storage
from referee.storage.model.matches import MatchQuery
from referee.storage.tables import TABLES, checksum
from tests.storage.conftest import new_match
from tests.storage.postgresql import required_server
from tests.storage.test_tables import filled

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def postgresql() -> Iterator[str]:
    server = required_server()
    url = server.fresh()
    yield url
    server.drop(url)


def archive(location: str) -> tuple[str, list[int]]:
    """An archive with something in every table; a token's secret and the ids stored."""
    prepare_storage(location)
    storage = open_storage(location)
    try:
        filled(storage)
        secret = storage.tokens.create(("archive:write",), "copied").secret
        ids = [
            submit(storage, (ROOT / "examples" / name).read_text()).stored.id
            for name in ("backgammon_match.mat", "long_nardy_match.mat", "khachapuri_match.mat")
        ]
    finally:
        storage.close()
    return secret, ids


def tables(location: str) -> dict[str, tuple[int, str]]:
    storage = open_storage(location)
    try:
        counts = storage.tables.counts()
        return {table: (counts[table], checksum(storage.tables.rows(table))) for table in TABLES}
    finally:
        storage.close()


def test_an_archive_goes_to_postgresql_and_back_the_same(
    tmp_path: Path, postgresql: str, capsys: pytest.CaptureFixture[str]
) -> None:
    first = str(tmp_path / "first.sqlite3")
    secret, ids = archive(first)
    assert main(["copy-archive", first, postgresql]) == 0
    out = capsys.readouterr().out
    assert "copied the sqlite archive into the postgresql archive" in out
    for table, (count, digest) in tables(first).items():
        assert f"{table:<14} {count:>8}  {digest}  same" in out
    assert out.rstrip().endswith("every table copied and verified")
    assert "postgres@" not in out  # no URL (it may hold a password) is printed

    back = str(tmp_path / "back.sqlite3")
    assert main(["copy-archive", postgresql, back]) == 0
    assert "copied the postgresql archive into the sqlite archive" in capsys.readouterr().out
    assert tables(back) == tables(first) == tables(postgresql)

    for location in (postgresql, back):
        original, copy = open_storage(first), open_storage(location)
        try:
            for match_id in ids:
                assert copy.matches.get(match_id) == original.matches.get(match_id)
            for text in ("Alice", "8/5", "referee examples"):
                query = MatchQuery(text=text)
                assert copy.matches.search(query) == original.matches.search(query)
            holder = copy.tokens.holder(secret)
            assert holder is not None and holder.name == "copied"
            assert copy.live.get(1) == original.live.get(1)
            assert copy.live.log(1) == original.live.log(1)
            assert copy.live.throws(1) == original.live.throws(1)
            assert copy.derived.kept(1, "replay/1", 3) == ["again"]
            assert copy.matches.store(new_match(1000)).id == max(ids) + 1
        finally:
            original.close()
            copy.close()


def test_a_target_that_is_not_empty_is_refused(
    tmp_path: Path, postgresql: str, capsys: pytest.CaptureFixture[str]
) -> None:
    first = str(tmp_path / "first.sqlite3")
    archive(first)
    assert main(["copy-archive", first, postgresql]) == 0
    before = tables(postgresql)
    capsys.readouterr()
    assert main(["copy-archive", first, postgresql]) == 2
    err = capsys.readouterr().err
    assert "TO is not empty (6 in matches" in err and "copy into a new archive" in err
    assert tables(postgresql) == before
    other = str(tmp_path / "other.sqlite3")
    archive(other)
    assert main(["copy-archive", postgresql, other]) == 2


def test_no_archive_at_from_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing, target = tmp_path / "missing.sqlite3", tmp_path / "target.sqlite3"
    assert main(["copy-archive", str(missing), str(target)]) == 2
    assert "there is no archive at FROM" in capsys.readouterr().err
    assert not missing.exists() and not target.exists()
    assert main(["copy-archive", str(target), str(target)]) == 2
